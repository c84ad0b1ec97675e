-- Real-time voice sessions (`POST /v3/voice/realtime`), brokered for the voice gateway that
-- carries their audio. Idempotent: applied at every start.
--
-- A session belongs to one subscription and is attributed to the developer key that asked for
-- it. `parameters` is the validated request as JSON. Every token the session was given has a
-- generation: `token_generation` is the newest one's (a reconnect adds one), `claimed_generation`
-- the newest one a gateway connected with. A token connects once: a gateway's claim raises
-- `claimed_generation` to the token's generation in one conditional UPDATE, so two gateways
-- claiming the same token at once cannot both win. `state` is open (a client may connect or
-- reconnect), ended (the stream ended normally) or terminated (an error, a token used twice or
-- outdated, a limit reached: `ended_reason` says which). `milliseconds` is the audio billed.
CREATE TABLE IF NOT EXISTS voice_sessions (
    id                 TEXT PRIMARY KEY,                -- UUID
    subscription_id    TEXT NOT NULL,
    key_id             TEXT NOT NULL,
    parameters         TEXT NOT NULL,                   -- JSON
    state              TEXT NOT NULL DEFAULT 'open',    -- open | ended | terminated
    ended_reason       TEXT,
    token_generation   INTEGER NOT NULL DEFAULT 1,
    claimed_generation INTEGER NOT NULL DEFAULT 0,
    milliseconds       INTEGER NOT NULL DEFAULT 0,
    created_at         INTEGER NOT NULL,                -- Unix ms
    updated_at         INTEGER NOT NULL                 -- Unix ms
);

-- A subscription's sessions, newest first (the admin views and retention).
CREATE INDEX IF NOT EXISTS voice_sessions_subscription ON voice_sessions (subscription_id, created_at);

-- The usage reports a gateway sent, one row per (session, connection, sequence): a report sent
-- again after a lost answer finds its row and is not billed twice.
CREATE TABLE IF NOT EXISTS voice_usage_reports (
    session_id   TEXT NOT NULL,
    connection   INTEGER NOT NULL,                      -- the token generation it connected with
    sequence     INTEGER NOT NULL,
    milliseconds INTEGER NOT NULL,                      -- as billed (at most what was left)
    PRIMARY KEY (session_id, connection, sequence)
) WITHOUT ROWID;
