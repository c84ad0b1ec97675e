-- Glossaries: a glossary belongs to one subscription and holds dictionaries, one per language
-- pair; a dictionary holds entries (source term -> target term). A v2 glossary is a glossary
-- with exactly one dictionary. Idempotent: applied at every start.
CREATE TABLE IF NOT EXISTS glossaries (
    id              TEXT PRIMARY KEY,                               -- UUID, lower case
    subscription_id TEXT NOT NULL,
    name            TEXT NOT NULL,
    created_at      TEXT NOT NULL                                   -- RFC 3339, UTC, milliseconds
) STRICT;
-- Listings read one subscription's glossaries in creation (rowid) order.
CREATE INDEX IF NOT EXISTS glossaries_by_subscription ON glossaries (subscription_id);

CREATE TABLE IF NOT EXISTS glossary_dictionaries (
    id              INTEGER PRIMARY KEY,
    glossary_id     TEXT NOT NULL,
    source_lang     TEXT NOT NULL,                                  -- lower-case base code
    target_lang     TEXT NOT NULL,
    entry_count     INTEGER NOT NULL,
    UNIQUE (glossary_id, source_lang, target_lang)
) STRICT;

-- `position` keeps the upload order for reading entries back; `first_key` is the lower-cased
-- first word of the source term, so a translation reads only the entries whose first word
-- occurs in its texts (see the `terms` crate).
CREATE TABLE IF NOT EXISTS glossary_entries (
    dictionary_id   INTEGER NOT NULL,
    position        INTEGER NOT NULL,
    source          TEXT NOT NULL,
    target          TEXT NOT NULL,
    first_key       TEXT NOT NULL,
    PRIMARY KEY (dictionary_id, position)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS glossary_entries_by_source ON glossary_entries (dictionary_id, source);
CREATE INDEX IF NOT EXISTS glossary_entries_by_key ON glossary_entries (dictionary_id, first_key);
