-- Style rule lists: a list belongs to one subscription, is written for one language, and holds
-- configured rules (one JSON object: category -> rule -> option) and custom instructions.
-- Idempotent: applied at every start.
CREATE TABLE IF NOT EXISTS style_rule_lists (
    id               TEXT PRIMARY KEY,                              -- UUID, lower case
    subscription_id  TEXT NOT NULL,
    name             TEXT NOT NULL,
    language         TEXT NOT NULL,                                 -- lower-case base code
    configured_rules TEXT NOT NULL,                                 -- JSON object
    version          INTEGER NOT NULL,                              -- 1, raised by every change
    created_at       TEXT NOT NULL,                                 -- RFC 3339, UTC, milliseconds
    updated_at       TEXT NOT NULL
) STRICT;
-- Listings read one subscription's lists in creation (rowid) order, a page at a time.
CREATE INDEX IF NOT EXISTS style_rule_lists_by_subscription ON style_rule_lists (subscription_id);

-- A list's custom instructions in the order they were added (`position`); `id` is the UUID the
-- API names an instruction by.
CREATE TABLE IF NOT EXISTS style_rule_instructions (
    list_id          TEXT NOT NULL,
    position         INTEGER NOT NULL,
    id               TEXT NOT NULL,
    label            TEXT NOT NULL,
    prompt           TEXT NOT NULL,
    source_language  TEXT,                                          -- lower-case base code, or NULL: any
    PRIMARY KEY (list_id, position)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS style_rule_instructions_by_id ON style_rule_instructions (list_id, id);
