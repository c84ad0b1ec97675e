-- The usage journal: what a charge writes. Idempotent: applied at every start.
--
-- Under Spin every request opens a fresh connection, which parses the whole schema and compiles
-- each statement it runs, and every writer holds the one write lock. A charge therefore appends
-- one short row here in one statement, and the trigger below adds it to the period totals the
-- next quota check reads, in the same statement; nothing else runs per request. Folding
-- (crates/metering/src/journal.rs) moves the journal's oldest rows, a batch at a time and in
-- one transaction per batch, into usage_daily and the report rollups (0003), then deletes them:
-- every few hundred charges, and before any report reads the rollups, so a report counts
-- every charge committed before it.
CREATE TABLE IF NOT EXISTS usage_journal (
    id              INTEGER PRIMARY KEY,                            -- order of the charges
    subscription_id TEXT    NOT NULL,
    key_id          TEXT    NOT NULL,
    day             TEXT    NOT NULL,                               -- YYYY-MM-DD, UTC
    tag             TEXT    NOT NULL,                               -- '' when none
    product         TEXT    NOT NULL,
    period_start    TEXT    NOT NULL,                               -- RFC 3339, UTC
    units           INTEGER NOT NULL
) STRICT;

CREATE TRIGGER IF NOT EXISTS usage_journal_adds_to_totals AFTER INSERT ON usage_journal
BEGIN
    INSERT INTO usage_totals (subscription_id, key_id, period_start, product, units)
    VALUES (NEW.subscription_id, '', NEW.period_start, NEW.product, NEW.units),
           (NEW.subscription_id, NEW.key_id, NEW.period_start, NEW.product, NEW.units)
    ON CONFLICT (subscription_id, key_id, period_start, product) DO UPDATE SET units = units + excluded.units;
END;

-- The triggers of earlier releases, which kept the totals and rollups from usage_daily in the
-- charge's statement; folding keeps the rollups now, and they would count the folded rows twice.
DROP TRIGGER IF EXISTS usage_daily_adds_to_totals;
DROP TRIGGER IF EXISTS usage_daily_grows_totals;
DROP TRIGGER IF EXISTS usage_daily_adds_to_tag_rollup;
DROP TRIGGER IF EXISTS usage_daily_adds_to_key_rollup;
DROP TRIGGER IF EXISTS usage_daily_grows_key_rollup;
DROP TRIGGER IF EXISTS usage_daily_grows_tag_rollup;
