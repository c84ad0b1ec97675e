-- Translation memory jobs: an import of a TMX file as a new memory, or an export of a memory as
-- a TMX file. A job belongs to one subscription. Idempotent: applied at every start.
--
-- An import waits for its file (`awaiting_input`) at its upload URL until `expires_at`; the upload
-- is processed in the request that sends it (`processing`, then `completed` or `failed`). An
-- export is `completed` when it is made: its download URL writes the memory as it was then, as
-- long as the memory has not changed (the same segment set at the same version), until
-- `expires_at`; after the first download it is `downloaded`.
--
-- `url_token` is the secret part of the job's upload or download URL, which clients call without
-- their key (as they would a pre-signed storage URL). It opens that one file of that one job
-- until `expires_at`; an export's download URL is answered again by `GET …/jobs/{id}`, so the
-- token is kept as it is.
CREATE TABLE IF NOT EXISTS memory_jobs (
    id              TEXT PRIMARY KEY,                               -- UUID, lower case
    subscription_id TEXT NOT NULL,
    operation       TEXT NOT NULL,                                  -- import | export
    status          TEXT NOT NULL,                                  -- awaiting_input | processing | completed | downloaded | failed
    created_at      INTEGER NOT NULL,                               -- Unix ms
    updated_at      INTEGER NOT NULL,                               -- Unix ms
    expires_at      INTEGER NOT NULL,                               -- Unix ms: the end of the upload or download URL
    url_token       TEXT NOT NULL,                                  -- 64 hex digits
    memory_id       TEXT,                                           -- export: the memory; import: the memory made
    display_name    TEXT,                                           -- import: the new memory's name
    file_name       TEXT,                                           -- import: the file as declared
    content_type    TEXT,
    content_length  INTEGER,
    set_id          INTEGER,                                        -- export: the memory's segment set and version
    set_version     INTEGER,
    skipped         INTEGER,                                        -- import: translation unit variants skipped
    error           TEXT                                            -- failed: why
) STRICT;
-- Reusing an export, and removing a subscription's old jobs.
CREATE INDEX IF NOT EXISTS memory_jobs_by_subscription ON memory_jobs (subscription_id, created_at);
