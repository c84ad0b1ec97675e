//! The usage journal (`sql/0008_usage_journal.sql`): a charge appends one row, and folding moves
//! the rows into `usage_daily` and the report rollups.
//!
//! Folding takes the journal's oldest rows, at most [`FOLD_BATCH`] of them, and in one
//! transaction adds their sums to `usage_daily`, `usage_key_daily`, `usage_tag_daily` and
//! `usage_tag_monthly` (numbering new tags in `usage_tags`) and deletes them. The write lock keeps
//! out any charge between the sums and the delete, so every row is counted exactly once, and a
//! batch that fails rolls back whole. The period totals a quota check reads are not folded: the
//! journal's trigger keeps them in the charge's own statement.
//!
//! Who folds: a charge whose row is a multiple of [`FOLD_EVERY`] folds one batch after it has
//! been recorded (so the journal stays short without any request paying for more than one
//! batch), and every report folds the whole journal before it reads ([`fold`]).

use platform::db::{RetryPolicy, transaction};
use platform::{Database, DbError, Value};

/// The most rows one fold transaction moves: a few milliseconds of the write lock.
pub(crate) const FOLD_BATCH: i64 = 2_000;

/// A charge whose journal row id is a multiple of this folds one batch afterwards.
pub(crate) const FOLD_EVERY: i64 = 256;

/// The last id of the next batch (`?1` rows at most), or NULL when the journal is empty.
const SQL_BATCH_END: &str = "SELECT max(id) FROM (SELECT id FROM usage_journal ORDER BY id LIMIT ?1)";

/// How many rows wait to be folded, at most (a read of the rowid tree's two ends, so that an empty
/// journal takes no write lock).
const SQL_PENDING: &str = "SELECT COALESCE(max(id) - min(id) + 1, 0) FROM usage_journal";

/// One batch's statements, in order, for the journal rows with `id <= ?1`. Tags are numbered in
/// `usage_tags` before the tag rollups look them up.
const SQL_FOLD: [&str; 6] = [
    "INSERT INTO usage_daily (subscription_id, day, key_id, tag, product, period_start, units)
     SELECT subscription_id, day, key_id, tag, product, period_start, SUM(units) FROM usage_journal
      WHERE id <= ?1 GROUP BY subscription_id, day, key_id, tag, product, period_start
     ON CONFLICT (subscription_id, day, key_id, tag, product, period_start) DO UPDATE SET units = units + excluded.units",
    "INSERT INTO usage_key_daily (subscription_id, day, key_id, product, units)
     SELECT subscription_id, day, key_id, product, SUM(units) FROM usage_journal
      WHERE id <= ?1 GROUP BY subscription_id, day, key_id, product
     ON CONFLICT (subscription_id, day, key_id, product) DO UPDATE SET units = units + excluded.units",
    "INSERT INTO usage_tags (subscription_id, tag)
     SELECT subscription_id, tag FROM usage_journal
      WHERE id <= ?1 AND tag <> '' AND product IN ('translate', 'write')
      GROUP BY subscription_id, tag ORDER BY min(id)
     ON CONFLICT (subscription_id, tag) DO NOTHING",
    "INSERT INTO usage_tag_daily (tag_id, day, translate_units, write_units)
     SELECT t.id, j.day,
            SUM(CASE j.product WHEN 'translate' THEN j.units ELSE 0 END),
            SUM(CASE j.product WHEN 'write' THEN j.units ELSE 0 END)
       FROM usage_journal AS j JOIN usage_tags AS t ON t.subscription_id = j.subscription_id AND t.tag = j.tag
      WHERE j.id <= ?1 AND j.tag <> '' AND j.product IN ('translate', 'write')
      GROUP BY t.id, j.day
     ON CONFLICT (tag_id, day) DO UPDATE SET
         translate_units = translate_units + excluded.translate_units,
         write_units = write_units + excluded.write_units",
    "INSERT INTO usage_tag_monthly (tag_id, month, translate_units, write_units)
     SELECT t.id, substr(j.day, 1, 7),
            SUM(CASE j.product WHEN 'translate' THEN j.units ELSE 0 END),
            SUM(CASE j.product WHEN 'write' THEN j.units ELSE 0 END)
       FROM usage_journal AS j JOIN usage_tags AS t ON t.subscription_id = j.subscription_id AND t.tag = j.tag
      WHERE j.id <= ?1 AND j.tag <> '' AND j.product IN ('translate', 'write')
      GROUP BY t.id, substr(j.day, 1, 7)
     ON CONFLICT (tag_id, month) DO UPDATE SET
         translate_units = translate_units + excluded.translate_units,
         write_units = write_units + excluded.write_units",
    "DELETE FROM usage_journal WHERE id <= ?1",
];

/// Folds the oldest batch of the journal; answers how many rows it moved (0: it was empty).
pub(crate) fn fold_batch(db: &dyn Database) -> Result<i64, DbError> {
    transaction(db, RetryPolicy::default(), |db| {
        let end = db.execute(SQL_BATCH_END, &[Value::Integer(FOLD_BATCH)])?;
        let Some(end) = end.first().map(|row| row.get::<Option<i64>>(0)).transpose()?.flatten() else {
            return Ok(0);
        };
        for sql in SQL_FOLD {
            db.execute(sql, &[Value::Integer(end)])?;
        }
        // The last statement deleted the batch.
        db.changes().map(|rows| i64::try_from(rows).unwrap_or(i64::MAX))
    })
}

/// Folds every row the journal held when it was called (a batch per transaction), so that a
/// report read afterwards counts every charge committed before.
pub(crate) fn fold(db: &dyn Database) -> Result<(), DbError> {
    let pending = db.execute(SQL_PENDING, &[])?;
    let pending: i64 = pending.first().map(|row| row.get(0)).transpose()?.unwrap_or(0);
    // Charges that arrive meanwhile may be folded too, but never hold this up for long.
    let mut batches = (pending + FOLD_BATCH - 1) / FOLD_BATCH;
    while batches > 0 && fold_batch(db)? == FOLD_BATCH {
        batches -= 1;
    }
    Ok(())
}

/// After the charge recorded as journal row `id`: every [`FOLD_EVERY`]th charge folds a batch.
/// The charge stands whatever happens here; a failure is logged and the next turn folds.
pub(crate) fn after_charge(db: &dyn Database, id: i64) {
    if id % FOLD_EVERY != 0 {
        return;
    }
    if let Err(error) = fold_batch(db) {
        eprintln!("usage journal: folding a batch failed (the next turn tries again): {error}");
    }
}

#[cfg(test)]
mod tests {
    use platform::native::SqliteDb;

    use super::*;
    use crate::test_support::SCHEMA;

    fn database() -> SqliteDb {
        let db = SqliteDb::open_in_memory().unwrap();
        db.migrate(&SCHEMA).unwrap();
        db
    }

    fn append(db: &SqliteDb, key_id: &str, day: &str, tag: &str, product: &str, units: i64) {
        db.execute(
            "INSERT INTO usage_journal (subscription_id, key_id, day, tag, product, period_start, units)
             VALUES ('s', ?, ?, ?, ?, '2026-05-01T00:00:00Z', ?)",
            &[key_id.into(), day.into(), tag.into(), product.into(), Value::Integer(units)],
        )
        .unwrap();
    }

    fn rows(db: &SqliteDb, sql: &str) -> Vec<Vec<Value>> {
        db.execute(sql, &[]).unwrap().rows.into_iter().map(|row| row.0).collect()
    }

    fn count(db: &SqliteDb, table: &str) -> i64 {
        db.execute(&format!("SELECT count(*) FROM {table}"), &[]).unwrap().rows[0].get(0).unwrap()
    }

    fn text(value: &str) -> Value {
        Value::from(value)
    }

    #[test]
    fn folding_moves_every_row_into_the_ledger_and_the_rollups_once() {
        let db = database();
        append(&db, "k1", "2026-05-01", "alpha", "translate", 5);
        append(&db, "k2", "2026-05-01", "alpha", "translate", 6);
        append(&db, "k1", "2026-05-01", "alpha", "write", 1);
        append(&db, "k1", "2026-05-01", "", "translate", 100);
        append(&db, "k1", "2026-05-31", "beta", "speech", 60_000);
        append(&db, "k1", "2026-06-01", "alpha", "translate", 2);
        fold(&db).unwrap();
        assert_eq!(count(&db, "usage_journal"), 0);
        append(&db, "k1", "2026-05-01", "alpha", "translate", 3);
        fold(&db).unwrap();
        fold(&db).unwrap();

        let daily = rows(&db, "SELECT key_id, day, tag, product, units FROM usage_daily ORDER BY 1, 2, 3, 4");
        let expected = [
            ("k1", "2026-05-01", "", "translate", 100),
            ("k1", "2026-05-01", "alpha", "translate", 8),
            ("k1", "2026-05-01", "alpha", "write", 1),
            ("k1", "2026-05-31", "beta", "speech", 60_000),
            ("k1", "2026-06-01", "alpha", "translate", 2),
            ("k2", "2026-05-01", "alpha", "translate", 6),
        ];
        let expected: Vec<Vec<Value>> = expected
            .iter()
            .map(|(key, day, tag, product, units)| {
                vec![text(key), text(day), text(tag), text(product), Value::Integer(*units)]
            })
            .collect();
        assert_eq!(daily, expected);

        let per_key = rows(&db, "SELECT key_id, day, product, units FROM usage_key_daily ORDER BY 1, 2, 3");
        assert_eq!(per_key.len(), 5);
        assert_eq!(per_key[0], vec![text("k1"), text("2026-05-01"), text("translate"), Value::Integer(108)]);

        // Speech is never a tag's usage; beta has none, so it is not numbered.
        let tags = rows(&db, "SELECT tag FROM usage_tags ORDER BY id");
        assert_eq!(tags, [vec![text("alpha")]]);
        let per_tag =
            rows(&db, "SELECT r.day, r.translate_units, r.write_units FROM usage_tag_daily AS r ORDER BY r.day");
        assert_eq!(
            per_tag,
            [
                vec![text("2026-05-01"), Value::Integer(14), Value::Integer(1)],
                vec![text("2026-06-01"), Value::Integer(2), Value::Integer(0)]
            ]
        );
        let monthly = rows(&db, "SELECT month, translate_units, write_units FROM usage_tag_monthly ORDER BY month");
        assert_eq!(
            monthly,
            [
                vec![text("2026-05"), Value::Integer(14), Value::Integer(1)],
                vec![text("2026-06"), Value::Integer(2), Value::Integer(0)]
            ]
        );
        // The totals were kept by the journal's trigger when each row was appended, not by folding.
        let totals = rows(&db, "SELECT units FROM usage_totals WHERE key_id = '' AND product = 'translate'");
        assert_eq!(totals, [vec![Value::Integer(116)]]);
    }

    #[test]
    fn a_batch_folds_the_oldest_rows_and_fold_empties_the_journal() {
        let db = database();
        for _ in 0..FOLD_BATCH + 5 {
            append(&db, "k1", "2026-05-01", "", "translate", 1);
        }
        assert_eq!(fold_batch(&db).unwrap(), FOLD_BATCH);
        assert_eq!(count(&db, "usage_journal"), 5);
        let first: i64 = db.execute("SELECT min(id) FROM usage_journal", &[]).unwrap().rows[0].get(0).unwrap();
        assert_eq!(first, FOLD_BATCH + 1, "the oldest rows went first");
        for _ in 0..FOLD_BATCH {
            append(&db, "k1", "2026-05-01", "", "translate", 1);
        }
        fold(&db).unwrap();
        assert_eq!(count(&db, "usage_journal"), 0);
        assert_eq!(fold_batch(&db).unwrap(), 0, "an empty journal folds nothing");
        let units: i64 = db.execute("SELECT units FROM usage_daily", &[]).unwrap().rows[0].get(0).unwrap();
        assert_eq!(units, 2 * FOLD_BATCH + 5);
    }

    #[test]
    fn every_few_hundred_charges_one_folds_a_batch() {
        let db = database();
        for id in 1..FOLD_EVERY {
            append(&db, "k1", "2026-05-01", "", "translate", 1);
            after_charge(&db, id);
        }
        assert_eq!(count(&db, "usage_journal"), FOLD_EVERY - 1);
        append(&db, "k1", "2026-05-01", "", "translate", 1);
        after_charge(&db, FOLD_EVERY);
        assert_eq!(count(&db, "usage_journal"), 0);
    }

    #[test]
    fn no_trigger_is_left_on_the_ledger_to_count_folded_rows_twice() {
        // A database of an earlier release, whose triggers added to the rollups from usage_daily.
        let db = SqliteDb::open_in_memory().unwrap();
        db.migrate(&SCHEMA[..3]).unwrap();
        db.execute(
            "CREATE TRIGGER usage_daily_adds_to_key_rollup AFTER INSERT ON usage_daily BEGIN
                 INSERT INTO usage_key_daily (subscription_id, day, key_id, product, units)
                 VALUES (NEW.subscription_id, NEW.day, NEW.key_id, NEW.product, NEW.units);
             END",
            &[],
        )
        .unwrap();
        db.migrate(&SCHEMA[3..]).unwrap();
        let triggers = rows(&db, "SELECT tbl_name, name FROM sqlite_schema WHERE type = 'trigger'");
        assert_eq!(triggers, [vec![text("usage_journal"), text("usage_journal_adds_to_totals")]]);
        append(&db, "k1", "2026-05-01", "", "translate", 4);
        fold(&db).unwrap();
        assert_eq!(rows(&db, "SELECT units FROM usage_key_daily"), [vec![Value::Integer(4)]]);
    }
}
