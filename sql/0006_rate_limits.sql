-- Request-rate limiting per key. Idempotent: applied at every start.

-- A subscription's own rate limit for each of its keys, set through the admin API; a NULL
-- column, or no row at all, means the default (accounts' rate.rs). Authentication reads it in
-- the same statement that finds the key.
CREATE TABLE IF NOT EXISTS rate_limits (
    subscription_id     TEXT PRIMARY KEY REFERENCES subscriptions (id),
    requests_per_second INTEGER CHECK (requests_per_second > 0),  -- sustained rate per key
    burst               INTEGER CHECK (burst > 0)                 -- requests a key may send at once
) STRICT;

-- Each key's limiter state (GCRA): the theoretical arrival time of its next request, in
-- microseconds since the Unix epoch of the request clock. Every admitted request moves it on
-- by one emission interval in one UPSERT; a refused request leaves it as it is. Losing a row
-- only gives the key a fresh burst.
CREATE TABLE IF NOT EXISTS rate_state (
    subscription_id TEXT    NOT NULL,
    key_id          TEXT    NOT NULL,
    tat_us          INTEGER NOT NULL,
    PRIMARY KEY (subscription_id, key_id)
) STRICT, WITHOUT ROWID;
