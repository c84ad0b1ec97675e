-- Usage reservations: units a request that finishes later (a document, translated after its
-- upload) holds against the limits until it is charged or gives them back. Idempotent: applied
-- at every start.
--
-- A reservation is made in one statement that checks the limits as a charge does, counting the
-- reservations already held, so concurrent uploads can never together promise more than a limit
-- allows. It is settled (turned into a charge, in one transaction that deletes it and appends to
-- the usage journal) or released (deleted); a holder settles at most once.
CREATE TABLE IF NOT EXISTS usage_reservations (
    holder          TEXT    PRIMARY KEY,                            -- what holds it, e.g. 'document:<id>'
    subscription_id TEXT    NOT NULL,
    key_id          TEXT    NOT NULL,
    period_start    TEXT    NOT NULL,                               -- RFC 3339, UTC: the period it counts in
    product         TEXT    NOT NULL,
    units           INTEGER NOT NULL,
    created_at      TEXT    NOT NULL                                -- RFC 3339, UTC
) STRICT;
-- The limits' checks sum a key's, and a subscription's, reservations of a period.
CREATE INDEX IF NOT EXISTS usage_reservations_by_key ON usage_reservations (subscription_id, period_start, key_id);
