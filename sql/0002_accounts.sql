-- Subscriptions, their API keys, and metered usage. Idempotent: applied at every start.

-- A customer account: its plan, when its monthly billing periods start, and its limits.
CREATE TABLE IF NOT EXISTS subscriptions (
    id              TEXT PRIMARY KEY,                               -- UUID
    plan            TEXT NOT NULL CHECK (plan IN ('free', 'pro')),
    created_at      TEXT NOT NULL,                                  -- RFC 3339, UTC
    billing_anchor  TEXT NOT NULL,                                  -- start of the first billing period
    character_limit INTEGER,                                        -- per period; NULL = unlimited
    speech_limit_ms INTEGER                                         -- per period; NULL = unlimited
) STRICT;

-- API keys. The secret itself is never stored: only its SHA-256 digest, looked up by index.
CREATE TABLE IF NOT EXISTS api_keys (
    id              TEXT PRIMARY KEY,                               -- two UUIDs joined by ':'
    subscription_id TEXT NOT NULL REFERENCES subscriptions (id),
    kind            TEXT NOT NULL CHECK (kind IN ('admin', 'developer')),
    label           TEXT NOT NULL,
    secret_hash     BLOB NOT NULL UNIQUE,
    created_at      TEXT NOT NULL,
    deactivated_at  TEXT,
    character_limit INTEGER,                                        -- per period; NULL = unlimited, 0 = blocked
    speech_limit_ms INTEGER                                         -- per period; NULL = unlimited, 0 = blocked
) STRICT;
CREATE INDEX IF NOT EXISTS api_keys_by_subscription ON api_keys (subscription_id, kind, created_at);

-- Usage per subscription, key, UTC day, custom reporting tag ('' when none), product
-- ('translate', 'document', 'write': characters; 'speech': milliseconds) and billing period
-- (a day on which a period begins holds usage of two periods). Charges reach it through
-- usage_journal (0008), folded in batches.
CREATE TABLE IF NOT EXISTS usage_daily (
    subscription_id TEXT    NOT NULL,
    day             TEXT    NOT NULL,                               -- YYYY-MM-DD, UTC
    key_id          TEXT    NOT NULL,
    tag             TEXT    NOT NULL,
    product         TEXT    NOT NULL,
    period_start    TEXT    NOT NULL,                               -- RFC 3339, UTC
    units           INTEGER NOT NULL,
    PRIMARY KEY (subscription_id, day, key_id, tag, product, period_start)
) STRICT, WITHOUT ROWID;

-- Running totals per billing period and product, so that a quota check is one indexed read:
-- key_id '' holds the whole subscription's total. A trigger on usage_journal (0008) adds every
-- charge to them in the charge's own statement.
CREATE TABLE IF NOT EXISTS usage_totals (
    subscription_id TEXT    NOT NULL,
    key_id          TEXT    NOT NULL,
    period_start    TEXT    NOT NULL,
    product         TEXT    NOT NULL,
    units           INTEGER NOT NULL,
    PRIMARY KEY (subscription_id, key_id, period_start, product)
) STRICT, WITHOUT ROWID;

