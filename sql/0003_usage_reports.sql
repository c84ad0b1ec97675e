-- Usage reports: what the analytics read, rolled up from usage_journal (0008) when it is folded.
-- Idempotent: applied at every start.
--
-- Which index serves which report (crates/accounts/src/reports.rs):
-- * GET /v2/admin/analytics (totals, per key, per key and day) reads usage_key_daily through its
--   primary key (subscription_id, day, key_id, product): one range of days, already in (day, key)
--   order, so its grouping needs no sort; at most a row per day, key and product, however many
--   tags and billing periods usage_daily splits them into.
-- * GET /v2/admin/analytics/custom-tags walks usage_tags through its unique index
--   (subscription_id, tag) in tag order from the cursor's tag, about 100 tags a page however deep
--   the page is. With aggregate_by=day it reads each tag's days from usage_tag_daily through its
--   primary key (tag_id, day): one range per tag. With aggregate_by=period it sums, per tag, the
--   whole calendar months of the range from usage_tag_monthly (primary key (tag_id, month)) and
--   the days before and after them from usage_tag_daily: three short ranges per tag, at most
--   about 72 rows for a year instead of 366.
-- * A cursor names its tag by its place among the subscription's own tags in numbering order
--   (never by the store-wide number): both ways through the subscription's entries of the unique
--   index (subscription_id, tag), which carry the number.

-- Every tag a subscription has recorded usage with, numbered: the rollups name tags by this
-- number (the custom-tag report's cursors by its order among the subscription's own tags). AUTOINCREMENT: a number is never given to another
-- tag.
CREATE TABLE IF NOT EXISTS usage_tags (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    subscription_id TEXT NOT NULL,
    tag             TEXT NOT NULL,                                  -- lower-cased, never ''
    UNIQUE (subscription_id, tag)
) STRICT;

-- Tagged usage per subscription and tag (tag_id: usage_tags.id, through which every row belongs
-- to its subscription) and UTC day, summed across keys and billing periods: text translation
-- ('translate') and text improvement ('write') characters. The integer key keeps rows small:
-- a year of a tag reads twice as fast as with (subscription_id, tag, day).
CREATE TABLE IF NOT EXISTS usage_tag_daily (
    tag_id          INTEGER NOT NULL,
    day             TEXT    NOT NULL,                               -- YYYY-MM-DD, UTC
    translate_units INTEGER NOT NULL,
    write_units     INTEGER NOT NULL,
    PRIMARY KEY (tag_id, day)
) STRICT, WITHOUT ROWID;

-- The same per calendar month (UTC): the sum of the month's rows of usage_tag_daily.
CREATE TABLE IF NOT EXISTS usage_tag_monthly (
    tag_id          INTEGER NOT NULL,
    month           TEXT    NOT NULL,                               -- YYYY-MM, UTC
    translate_units INTEGER NOT NULL,
    write_units     INTEGER NOT NULL,
    PRIMARY KEY (tag_id, month)
) STRICT, WITHOUT ROWID;

-- Usage per subscription, UTC day, key and product, summed across tags and billing periods:
-- what the key report reads.
CREATE TABLE IF NOT EXISTS usage_key_daily (
    subscription_id TEXT    NOT NULL,
    day             TEXT    NOT NULL,                               -- YYYY-MM-DD, UTC
    key_id          TEXT    NOT NULL,
    product         TEXT    NOT NULL,
    units           INTEGER NOT NULL,
    PRIMARY KEY (subscription_id, day, key_id, product)
) STRICT, WITHOUT ROWID;

-- Usage recorded in usage_daily before this file was first applied (by the releases that
-- wrote it directly) is rolled up once; the rollups are set to the exact sums, not added to. No explicit transaction: some hosts (libSQL) run
-- a file as one batch of their own. If a start stops half-way, the next one does it again,
-- with the same result; the row below says it is done, so later starts skip the scan.
CREATE TABLE IF NOT EXISTS usage_reports_backfill (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    done_at TEXT NOT NULL                                           -- RFC 3339, UTC
) STRICT;

INSERT INTO usage_tags (subscription_id, tag)
SELECT subscription_id, tag FROM usage_daily
 WHERE tag <> '' AND product IN ('translate', 'write') AND NOT EXISTS (SELECT 1 FROM usage_reports_backfill)
 GROUP BY subscription_id, tag
 ORDER BY subscription_id, tag
ON CONFLICT (subscription_id, tag) DO NOTHING;

INSERT INTO usage_tag_daily (tag_id, day, translate_units, write_units)
SELECT t.id, u.day,
       SUM(CASE u.product WHEN 'translate' THEN u.units ELSE 0 END),
       SUM(CASE u.product WHEN 'write' THEN u.units ELSE 0 END)
  FROM usage_daily AS u JOIN usage_tags AS t ON t.subscription_id = u.subscription_id AND t.tag = u.tag
 WHERE u.tag <> '' AND u.product IN ('translate', 'write') AND NOT EXISTS (SELECT 1 FROM usage_reports_backfill)
 GROUP BY t.id, u.day
ON CONFLICT (tag_id, day) DO UPDATE SET
    translate_units = excluded.translate_units,
    write_units = excluded.write_units;

INSERT INTO usage_tag_monthly (tag_id, month, translate_units, write_units)
SELECT tag_id, substr(day, 1, 7), SUM(translate_units), SUM(write_units)
  FROM usage_tag_daily
 WHERE NOT EXISTS (SELECT 1 FROM usage_reports_backfill)
 GROUP BY tag_id, substr(day, 1, 7)
ON CONFLICT (tag_id, month) DO UPDATE SET
    translate_units = excluded.translate_units,
    write_units = excluded.write_units;

INSERT INTO usage_key_daily (subscription_id, day, key_id, product, units)
SELECT subscription_id, day, key_id, product, SUM(units)
  FROM usage_daily
 WHERE NOT EXISTS (SELECT 1 FROM usage_reports_backfill)
 GROUP BY subscription_id, day, key_id, product
ON CONFLICT (subscription_id, day, key_id, product) DO UPDATE SET units = excluded.units;

INSERT INTO usage_reports_backfill (id, done_at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
ON CONFLICT (id) DO NOTHING;
