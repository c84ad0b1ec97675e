//! `GET /v2/admin/audit-log`: the changes `accounts` recorded to a subscription's keys, limits,
//! cost control, rate limit, spoken terms lists and translated speech switch, newest first, a page
//! of [`AUDIT_PAGE_SIZE`] at a time.
//!
//! Entries are written by `accounts` in the same transaction as the change they record; this
//! reads them through the index `audit_log_by_subscription` `(subscription_id, id)`
//! (`sql/0004_audit.sql`), paged by a keyset cursor: `next_page` names the last entry of a page,
//! so the next page starts right after it and never repeats or skips an entry while entries are
//! written meanwhile.
//!
//! A cursor is opaque and belongs to one subscription's log of one range of days ([`Log`]). It
//! names the entry by its *ordinal*: its place among the subscription's own entries in the order
//! they were written (1 for the first), which never changes, since entries are only ever added,
//! each with an id above every earlier one, and which counts that subscription's entries only (the
//! store-wide id, the cursor it replaces, grows with every other subscription's entries too). The
//! ordinal is masked, and a check is added, with a digest of the subscription, the range's days
//! and the entry's ordinal and time, all of them the subscription's own: a cursor of another
//! subscription or range, or a made-up number, fails the check or names no entry of the range,
//! and is a 400 ([`ReportError::UnknownPage`]). The digest never covers the store-wide id: it has
//! no secret, so whoever knows the subscription's id could try ids until one gives the check.
//!
//! The 53 bits of a cursor (exact in JSON): [`CHECK_BITS`] of check, then [`ORDINAL_BITS`] of
//! masked ordinal. Turning an entry into its ordinal, or an ordinal into its entry, reads the
//! subscription's entries of the index up to it (the index alone, never the table nor another
//! subscription's entries): the cost grows with the subscription's own number of entries, as the
//! custom-tag report's cursor (`cursor.rs`) does with its tags; the page itself is one range of the
//! index from the cursor's entry.

use accounts::{Plan, Subscription};
use platform::{Database, DbError, Row, Value};
use serde::Serialize;
use time::{Date, Duration};

use super::cursor::{self, digest};
use crate::dates::DateRange;
use crate::error::ReportError;

/// Entries per page of [`audit_log`].
pub const AUDIT_PAGE_SIZE: usize = 100;

/// Bits of a cursor's check (as many as the custom-tag report's).
const CHECK_BITS: u32 = cursor::CHECK_BITS;
/// Bits of an entry's ordinal: the rest of the 53 a JSON number holds exactly, so a subscription
/// may page through up to 2^33 - 1 entries.
const ORDINAL_BITS: u32 = 53 - CHECK_BITS;
const ORDINAL_MASK: i64 = (1 << ORDINAL_BITS) - 1;

/// The subscription `?1`'s entries before the entry `?2` (`i64::MAX` for the first page) written
/// at `?3` or later and before `?4`, newest first, at most `?5` of them: one range of the index
/// `audit_log_by_subscription`, walked down from the cursor's entry.
const SQL_AUDIT_PAGE: &str =
    "SELECT id, at, actor_key_id, action, target_type, target_id, old_value, new_value FROM audit_log
      WHERE subscription_id = ?1 AND id < ?2 AND at >= ?3 AND at < ?4
      ORDER BY id DESC LIMIT ?5";

/// The ordinal of the entry `?2` among the subscription `?1`'s entries: how many of them were
/// written up to it, counted on the subscription's entries of the index `audit_log_by_subscription`.
const SQL_AUDIT_ORDINAL: &str = "SELECT COUNT(*) FROM audit_log WHERE subscription_id = ?1 AND id <= ?2";

/// The id and time of the subscription `?1`'s entry of ordinal `?2 + 1`: the subquery walks the
/// subscription's entries of the index `audit_log_by_subscription` in the order they were
/// written (skipping `?2` of them, from the index alone), then one row is read by its id.
const SQL_AUDIT_ENTRY_AT: &str = "SELECT id, at FROM audit_log
  WHERE id = (SELECT id FROM audit_log WHERE subscription_id = ?1 ORDER BY id LIMIT 1 OFFSET ?2)";

/// An entry of the log, as the admin API answers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditEntry {
    /// When the change was made (RFC 3339, UTC).
    pub time: String,
    /// `admin_key` or `operator`.
    pub actor: &'static str,
    /// The acting admin key's id (`null` for the operator).
    pub admin_key_id: Option<String>,
    pub action: String,
    /// `developer_key`, `admin_key`, `subscription` or `spoken_terms`.
    pub target_type: String,
    pub target_id: String,
    pub old_value: Option<serde_json::Value>,
    pub new_value: Option<serde_json::Value>,
}

/// `GET /v2/admin/audit-log`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditReport {
    pub audit_log: AuditPage,
}

/// One page of the log, newest entry first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditPage {
    /// The range as asked, `YYYY-MM-DDTHH:MM:SS`.
    pub start_date: String,
    pub end_date: String,
    /// The cursor of the next page, when there is one (`null` otherwise).
    pub next_page: Option<i64>,
    pub entries: Vec<AuditEntry>,
}

/// The subscription's entries on the days of `range` (UTC days, both included), newest first,
/// [`AUDIT_PAGE_SIZE`] at a time; Free subscriptions have none to read
/// ([`ReportError::ProOnly`]). `page` 0 is the first page; any other must be a `next_page` this
/// log answered (opaque, and valid for this subscription's log of these days only), so pages
/// stay stable while new entries are written.
pub fn audit_log(
    db: &dyn Database,
    subscription: &Subscription,
    range: &DateRange,
    page: i64,
) -> Result<AuditReport, ReportError> {
    if subscription.plan != Plan::Pro {
        return Err(ReportError::ProOnly);
    }
    let log = Log::new(subscription.id.as_str(), range);
    let before = match page {
        0 => i64::MAX,
        page => log.entry_of(db, page)?,
    };
    let params = [
        Value::from(log.subscription_id),
        Value::Integer(before),
        Value::from(log.from.as_str()),
        Value::from(log.until.as_str()),
        Value::Integer(AUDIT_PAGE_SIZE as i64 + 1),
    ];
    let result = db.execute(SQL_AUDIT_PAGE, &params)?;
    if page != 0 && result.rows.is_empty() {
        return Err(ReportError::PastTheEnd);
    }
    let more = result.rows.len() > AUDIT_PAGE_SIZE;
    let rows = &result.rows[..result.rows.len().min(AUDIT_PAGE_SIZE)];
    let next_page = match rows.last() {
        Some(last) if more => Some(log.cursor(db, last.get(0)?, &last.get::<String>(1)?)?),
        _ => None,
    };
    let entries = rows.iter().map(entry_from_row).collect::<Result<_, DbError>>()?;
    Ok(AuditReport {
        audit_log: AuditPage { start_date: range.start_text(), end_date: range.end_text(), next_page, entries },
    })
}

/// One subscription's log of one range of days, as far as its pages and cursors depend on it.
struct Log<'a> {
    subscription_id: &'a str,
    /// The range's first and last day, as stored (`YYYY-MM-DD`), which the cursors depend on.
    days: (String, String),
    /// The entries' times from `from` (included) to `until` (excluded): the range's days.
    from: String,
    until: String,
}

impl<'a> Log<'a> {
    fn new(subscription_id: &'a str, range: &DateRange) -> Log<'a> {
        Log {
            subscription_id,
            days: range.stored_days(),
            from: range.first_day().to_string(),
            until: range.last_day().checked_add(Duration::DAY).unwrap_or(Date::MAX).to_string(),
        }
    }

    /// A digest of the log and, for a check, an entry (ordinal and time), as a number of `bits` bits.
    fn digest(&self, entry: Option<(i64, &str)>, bits: u32) -> i64 {
        let mut parts: Vec<&[u8]> =
            vec![b"audit log cursor", self.subscription_id.as_bytes(), self.days.0.as_bytes(), self.days.1.as_bytes()];
        let ordinal_bytes;
        if let Some((ordinal, at)) = entry {
            ordinal_bytes = ordinal.to_be_bytes();
            parts.extend([&ordinal_bytes[..], at.as_bytes()]);
        }
        digest(&parts, bits)
    }

    /// The mask over a cursor's ordinal.
    fn mask(&self) -> i64 {
        self.digest(None, ORDINAL_BITS)
    }

    /// The check of the entry of `ordinal`, written at `at`.
    fn check(&self, ordinal: i64, at: &str) -> i64 {
        self.digest(Some((ordinal, at)), CHECK_BITS)
    }

    /// The `next_page` naming the entry `id` (its store-wide id), written at `at`.
    fn cursor(&self, db: &dyn Database, id: i64, at: &str) -> Result<i64, DbError> {
        let found = db.execute(SQL_AUDIT_ORDINAL, &[Value::from(self.subscription_id), Value::Integer(id)])?;
        let ordinal: i64 = found.first().map(|row| row.get(0)).transpose()?.unwrap_or(0);
        if !(1..=ORDINAL_MASK).contains(&ordinal) {
            return Err(DbError::Other(format!("audit entry ordinal {ordinal} does not fit an audit log cursor")));
        }
        Ok((self.check(ordinal, at) << ORDINAL_BITS) | (ordinal ^ self.mask()))
    }

    /// The store-wide id of the entry `page` names, if it is a cursor of this very log
    /// ([`ReportError::UnknownPage`] otherwise).
    fn entry_of(&self, db: &dyn Database, page: i64) -> Result<i64, ReportError> {
        if !(0..1 << (CHECK_BITS + ORDINAL_BITS)).contains(&page) {
            return Err(ReportError::UnknownPage);
        }
        let ordinal = (page & ORDINAL_MASK) ^ self.mask();
        if ordinal == 0 {
            return Err(ReportError::UnknownPage);
        }
        let found =
            db.execute(SQL_AUDIT_ENTRY_AT, &[Value::from(self.subscription_id), Value::Integer(ordinal - 1)])?;
        let row = found.first().ok_or(ReportError::UnknownPage)?;
        let (id, at): (i64, String) = (row.get(0)?, row.get(1)?);
        let in_range = self.from.as_str() <= at.as_str() && at.as_str() < self.until.as_str();
        if page >> ORDINAL_BITS != self.check(ordinal, &at) || !in_range {
            return Err(ReportError::UnknownPage);
        }
        Ok(id)
    }
}

fn entry_from_row(row: &Row) -> Result<AuditEntry, DbError> {
    let json = |index: usize| -> Result<Option<serde_json::Value>, DbError> {
        row.get::<Option<String>>(index)?
            .map(|text| {
                serde_json::from_str(&text)
                    .map_err(|_| DbError::Decode(format!("the audit log holds an invalid value: {text:?}")))
            })
            .transpose()
    };
    let admin_key_id: Option<String> = row.get(2)?;
    Ok(AuditEntry {
        time: row.get(1)?,
        actor: if admin_key_id.is_some() { "admin_key" } else { "operator" },
        admin_key_id,
        action: row.get(3)?,
        target_type: row.get(4)?,
        target_id: row.get(5)?,
        old_value: json(6)?,
        new_value: json(7)?,
    })
}

#[cfg(test)]
mod tests {
    use platform::native::SqliteDb;
    use serde_json::json;

    use super::*;
    use crate::test_support::{at, range};

    /// A subscription of `plan` by its id (the log is read by id; nothing else of it is stored).
    fn subscription(id: &str, plan: Plan) -> Subscription {
        let moment = time::macros::datetime!(2026-01-01 00:00:00 UTC);
        Subscription {
            id: id.into(),
            plan,
            created_at: moment,
            billing_anchor: moment,
            character_limit: None,
            speech_limit_ms: None,
        }
    }

    /// Writes an entry as `accounts` does: a relabelled developer key.
    fn record(db: &SqliteDb, subscription_id: &str, at: &str, admin_key_id: Option<&str>, target_id: &str, new: &str) {
        db.execute(
            "INSERT INTO audit_log (subscription_id, at, actor_key_id, action, target_type, target_id, old_value, new_value)
             VALUES (?, ?, ?, 'relabel_key', 'developer_key', ?, '{\"label\":\"old\"}', ?)",
            &[subscription_id.into(), at.into(), admin_key_id.into(), target_id.into(), new.into()],
        )
        .unwrap();
    }

    #[test]
    fn entries_are_read_newest_first_within_the_days_and_the_subscription() {
        let fixture = at(1_800_000_000);
        let new = r#"{"label":"new"}"#;
        for (n, at) in ["2026-05-02T23:59:59Z", "2026-05-03T00:00:00Z", "2026-05-04T12:00:00Z", "2026-05-05T00:00:00Z"]
            .into_iter()
            .enumerate()
        {
            record(&fixture.db, "mine", at, Some("admin-1"), &format!("key-{n}"), new);
        }
        record(&fixture.db, "theirs", "2026-05-04T12:00:00Z", Some("admin-1"), "their-key", new);
        let mine = subscription("mine", Plan::Pro);
        let free = subscription("mine", Plan::Free);
        let days = range("2026-05-03", "2026-05-04");
        assert!(matches!(audit_log(&fixture.db, &free, &days, 0), Err(ReportError::ProOnly)), "Pro only");

        let page = audit_log(&fixture.db, &mine, &range("2026-05-03", "2026-05-04"), 0).unwrap().audit_log;
        let targets: Vec<_> = page.entries.iter().map(|entry| entry.target_id.as_str()).collect();
        assert_eq!(targets, ["key-2", "key-1"], "the last day is included, the day after is not");
        assert_eq!(page.next_page, None);
        let entry = &page.entries[0];
        assert_eq!(entry.time, "2026-05-04T12:00:00Z");
        assert_eq!((entry.actor, entry.admin_key_id.as_deref()), ("admin_key", Some("admin-1")));
        assert_eq!((entry.action.as_str(), entry.target_type.as_str()), ("relabel_key", "developer_key"));
        assert_eq!(
            (entry.old_value.clone(), entry.new_value.clone()),
            (Some(json!({"label": "old"})), Some(json!({"label": "new"})))
        );
    }

    #[test]
    fn following_next_page_reads_every_entry_once() {
        let fixture = at(1_800_000_000);
        let total = 2 * AUDIT_PAGE_SIZE + 7;
        for n in 0..total {
            record(&fixture.db, "mine", "2026-05-03T10:00:00Z", None, "key", &json!({"n": n}).to_string());
        }
        let may = range("2026-05-01", "2026-05-31");
        let mine = subscription("mine", Plan::Pro);
        let mut seen = Vec::new();
        let mut page = 0;
        loop {
            let answer = audit_log(&fixture.db, &mine, &may, page).unwrap().audit_log;
            assert!(answer.entries.iter().all(|entry| entry.actor == "operator" && entry.admin_key_id.is_none()));
            seen.extend(answer.entries.iter().map(|entry| entry.new_value.clone().unwrap()["n"].as_u64().unwrap()));
            match answer.next_page {
                Some(next) => page = next,
                None => break,
            }
        }
        let expected: Vec<u64> = (0..total as u64).rev().collect();
        assert_eq!(seen, expected);

        // Store-wide ids (here the oldest entry's and a later one's) are no cursors.
        assert!(matches!(audit_log(&fixture.db, &mine, &may, 1), Err(ReportError::UnknownPage)));
        assert!(matches!(audit_log(&fixture.db, &mine, &may, 1_000_000), Err(ReportError::UnknownPage)));
        assert!(matches!(
            audit_log(&fixture.db, &subscription("theirs", Plan::Pro), &may, 5),
            Err(ReportError::UnknownPage)
        ));
    }

    /// Every `next_page` of the subscription's log of `days`, from the first page to the last.
    fn cursors(db: &SqliteDb, subscription: &Subscription, days: &DateRange) -> Vec<i64> {
        let mut cursors = Vec::new();
        let mut page = 0;
        while let Some(next) = audit_log(db, subscription, days, page).unwrap().audit_log.next_page {
            cursors.push(next);
            page = next;
        }
        cursors
    }

    #[test]
    fn a_cursor_tells_nothing_of_other_subscriptions() {
        // The same subscription's entries, in a store of its own and in one shared with a
        // subscription that wrote many more entries before and between its own: the same cursors.
        let cursors_of_mine = |crowded: bool| {
            let fixture = at(1_800_000_000);
            for n in 0..2 * AUDIT_PAGE_SIZE + 50 {
                if crowded {
                    for other in 0..3 {
                        record(
                            &fixture.db,
                            "theirs",
                            "2026-05-03T10:00:00Z",
                            None,
                            "their-key",
                            &json!({"n": other}).to_string(),
                        );
                    }
                }
                record(&fixture.db, "mine", "2026-05-03T10:00:00Z", None, "key", &json!({"n": n}).to_string());
            }
            cursors(&fixture.db, &subscription("mine", Plan::Pro), &range("2026-05-01", "2026-05-31"))
        };
        let alone = cursors_of_mine(false);
        assert_eq!(alone.len(), 2, "three pages");
        assert_eq!(cursors_of_mine(true), alone);
    }

    #[test]
    fn a_page_that_is_not_one_of_this_logs_cursors_is_refused() {
        let fixture = at(1_800_000_000);
        for n in 0..=AUDIT_PAGE_SIZE {
            for subscription_id in ["mine", "theirs"] {
                record(&fixture.db, subscription_id, "2026-05-03T10:00:00Z", None, "key", &json!({"n": n}).to_string());
            }
        }
        let (mine, theirs) = (subscription("mine", Plan::Pro), subscription("theirs", Plan::Pro));
        let may = range("2026-05-01", "2026-05-31");
        let first_page = |subscription: &Subscription| cursors(&fixture.db, subscription, &may)[0];
        let (my_next, their_next) = (first_page(&mine), first_page(&theirs));
        assert!(my_next > 0 && my_next < 1 << 53, "exact in JSON: {my_next}");
        assert_ne!(my_next, their_next, "the same entries in another subscription have other cursors");
        let oldest = audit_log(&fixture.db, &mine, &may, my_next).unwrap().audit_log;
        assert_eq!((oldest.entries.len(), oldest.next_page), (1, None));
        assert_eq!(oldest.entries[0].new_value, Some(json!({"n": 0})));

        let unknown = |subscription: &Subscription, days: &DateRange, page: i64| {
            matches!(audit_log(&fixture.db, subscription, days, page), Err(ReportError::UnknownPage))
        };
        assert!(unknown(&mine, &may, their_next), "another subscription's cursor");
        assert!(unknown(&theirs, &may, my_next), "another subscription's cursor");
        assert!(
            unknown(&mine, &range("2026-05-03", "2026-05-31"), my_next),
            "another range, though it holds the entry"
        );
        // Made-up numbers: none is one of this log's cursors (each fails the check, or names no entry).
        for forged in [1, 2, 101, my_next + 1, my_next - 1, my_next ^ 1 << 40, (1 << 53) - 1, 1 << 53, i64::MAX] {
            assert!(unknown(&mine, &may, forged), "{forged}");
        }
    }

    #[test]
    fn a_page_after_the_oldest_entry_is_refused() {
        let fixture = at(1_800_000_000);
        for (n, at) in ["2026-04-30T10:00:00Z", "2026-05-03T10:00:00Z", "2026-05-04T10:00:00Z"].into_iter().enumerate()
        {
            record(&fixture.db, "mine", at, None, "key", &json!({"n": n}).to_string());
        }
        let mine = subscription("mine", Plan::Pro);
        let may = range("2026-05-01", "2026-05-31");
        let log = Log::new("mine", &may);
        // A cursor of this log naming the oldest entry of its days: nothing of the days follows it.
        let oldest_in_may = log.cursor(&fixture.db, 2, "2026-05-03T10:00:00Z").unwrap();
        assert!(matches!(audit_log(&fixture.db, &mine, &may, oldest_in_may), Err(ReportError::PastTheEnd)));
        let newest = log.cursor(&fixture.db, 3, "2026-05-04T10:00:00Z").unwrap();
        let older = audit_log(&fixture.db, &mine, &may, newest).unwrap().audit_log;
        assert_eq!(
            older.entries.iter().map(|entry| entry.new_value.clone()).collect::<Vec<_>>(),
            [Some(json!({"n": 1}))]
        );
        // Well-formed, but naming an entry outside the days: no cursor this log answers.
        let april = log.cursor(&fixture.db, 1, "2026-04-30T10:00:00Z").unwrap();
        assert!(matches!(audit_log(&fixture.db, &mine, &may, april), Err(ReportError::UnknownPage)));
    }

    /// SQLite's plan for `sql`, one line per step.
    fn plan(db: &SqliteDb, sql: &str, params: &[Value]) -> String {
        let rows = db.execute(&format!("EXPLAIN QUERY PLAN {sql}"), params).unwrap().rows;
        rows.iter().map(|row| row.get::<String>(3).unwrap()).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn a_page_and_its_cursor_read_only_the_subscriptions_own_index_entries() {
        let fixture = at(1_800_000_000);
        let (mine, seven) = (Value::from("mine"), Value::Integer(7));
        let page = plan(
            &fixture.db,
            SQL_AUDIT_PAGE,
            &[mine.clone(), seven.clone(), "2026-05-01".into(), "2026-06-01".into(), Value::Integer(101)],
        );
        assert_eq!(page, "SEARCH audit_log USING INDEX audit_log_by_subscription (subscription_id=? AND id<?)");
        let ordinal = plan(&fixture.db, SQL_AUDIT_ORDINAL, &[mine.clone(), seven.clone()]);
        assert_eq!(
            ordinal,
            "SEARCH audit_log USING COVERING INDEX audit_log_by_subscription (subscription_id=? AND id<?)"
        );
        let entry = plan(&fixture.db, SQL_AUDIT_ENTRY_AT, &[mine, seven]);
        assert!(entry.contains("SEARCH audit_log USING INTEGER PRIMARY KEY (rowid=?)"), "{entry}");
        assert!(
            entry.contains("SEARCH audit_log USING COVERING INDEX audit_log_by_subscription (subscription_id=?)"),
            "{entry}"
        );
        assert!(!entry.contains("SCAN") && !entry.contains("TEMP B-TREE"), "{entry}");
    }
}
