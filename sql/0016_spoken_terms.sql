-- Spoken terms lists (beta): names and terms that inform the recognition of real-time voice
-- sessions. A list belongs to one subscription, is managed by its admin keys
-- (`/v2/admin/spoken-terms`) and named by a session's `spoken_terms_id`; its terms are read when
-- a gateway claims the session's token. The limits (name, terms, lists per subscription) are
-- checked by `voice-sessions` (`spoken_terms.rs`), not here. Idempotent: applied at every start.
CREATE TABLE IF NOT EXISTS spoken_terms_lists (
    id              TEXT PRIMARY KEY,                               -- UUID, lower case
    subscription_id TEXT NOT NULL,
    name            TEXT NOT NULL,
    created_at      TEXT NOT NULL,                                  -- RFC 3339, UTC, milliseconds
    updated_at      TEXT NOT NULL
) STRICT;
-- A subscription's lists in creation (rowid) order, and their count against the limit.
CREATE INDEX IF NOT EXISTS spoken_terms_lists_by_subscription ON spoken_terms_lists (subscription_id);

-- A list's terms in their order (`position` 1, 2, 3…), trimmed, none twice; replaced whole.
CREATE TABLE IF NOT EXISTS spoken_terms (
    list_id         TEXT NOT NULL,
    position        INTEGER NOT NULL,
    term            TEXT NOT NULL,
    PRIMARY KEY (list_id, position)
) STRICT, WITHOUT ROWID;
