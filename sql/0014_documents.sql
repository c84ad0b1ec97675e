-- Documents uploaded for translation (`POST /v2/document`), until their translation is
-- downloaded once or their retention ends. A document belongs to one subscription and is
-- attributed to the key that uploaded it. Idempotent: applied at every start.
--
-- `key_hash` is the SHA-256 (64 hex digits) of the document key the upload answered: the key
-- itself is never stored. `status` is queued (nothing translated yet), translating, done (the
-- result is in `document_files`) or error (`error_message` says why). A worker holds the
-- document while `lease_until` is in the future; `lease_holder` is its random name, which every
-- write of its progress checks, so that a worker whose lease ran out writes nothing. A document
-- whose lease has expired is taken over by the next status call, from its last translated unit.
CREATE TABLE IF NOT EXISTS documents (
    id              TEXT PRIMARY KEY,                   -- 32 upper-case hex digits
    key_hash        TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    key_id          TEXT NOT NULL,                      -- the developer key that uploaded it
    format          TEXT NOT NULL,                      -- txt | html
    file_name       TEXT NOT NULL,
    options         TEXT NOT NULL,                      -- JSON: the translation's parameters
    source_lang     TEXT,                               -- given, or detected before the first unit
    status          TEXT NOT NULL,                      -- queued | translating | done | error
    characters      INTEGER NOT NULL,                   -- billed when downloaded (reserved until then)
    units           INTEGER NOT NULL,                   -- units to translate
    units_done      INTEGER NOT NULL DEFAULT 0,
    work_ms         INTEGER NOT NULL DEFAULT 0,         -- time spent translating, for the estimate
    attempts        INTEGER NOT NULL DEFAULT 0,         -- slices that failed on the engine
    error_message   TEXT,
    lease_holder    TEXT,
    lease_until     INTEGER,                            -- Unix ms
    created_at      INTEGER NOT NULL,                   -- Unix ms
    updated_at      INTEGER NOT NULL,                   -- Unix ms
    expires_at      INTEGER NOT NULL                    -- Unix ms: deleted after, if never downloaded
) STRICT;
-- The retention sweep.
CREATE INDEX IF NOT EXISTS documents_by_expiry ON documents (expires_at);

-- The uploaded file (`source`) and, once done, its translation (`result`).
CREATE TABLE IF NOT EXISTS document_files (
    document_id TEXT NOT NULL,
    kind        TEXT NOT NULL,                          -- source | result
    data        BLOB NOT NULL,
    PRIMARY KEY (document_id, kind)
) STRICT;

-- A document cut into the pieces its output is made of, in order: each is text to translate
-- (`translate` = 1) or kept as it is. `translation` is filled as the work goes on; the output
-- is the pieces' translations (or sources) joined in order.
CREATE TABLE IF NOT EXISTS document_units (
    document_id TEXT NOT NULL,
    position    INTEGER NOT NULL,
    translate   INTEGER NOT NULL,                       -- 1: to translate; 0: kept
    source      TEXT NOT NULL,
    translation TEXT,
    PRIMARY KEY (document_id, position)
) STRICT;
-- The pieces still to translate, in order: a worker's next batch reads the front of this index,
-- and a piece leaves it once translated, so each batch costs the same however far the work is.
CREATE INDEX IF NOT EXISTS document_units_pending ON document_units (document_id, position)
    WHERE translate = 1 AND translation IS NULL;
