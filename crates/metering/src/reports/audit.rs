//! `GET /v2/admin/audit-log`: the changes `accounts` recorded to a subscription's keys, limits
//! and cost control, newest first, a page of [`AUDIT_PAGE_SIZE`] at a time.
//!
//! Entries are written by `accounts` in the same transaction as the change they record; this
//! reads them, paged by a keyset cursor on the entry's id.

use accounts::{Plan, Subscription};
use platform::{Database, DbError, Value};
use serde::Serialize;
use time::{Date, Duration};

use crate::dates::DateRange;
use crate::error::ReportError;

/// Entries per page of [`audit_log`].
pub const AUDIT_PAGE_SIZE: usize = 100;

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
    /// `developer_key`, `admin_key` or `subscription`.
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
/// ([`ReportError::ProOnly`]). `page` 0 is the first page; any other is a cursor a previous page
/// answered in `next_page` (the id of that page's last entry), so pages stay stable while new
/// entries are written.
pub fn audit_log(
    db: &dyn Database,
    subscription: &Subscription,
    range: &DateRange,
    page: i64,
) -> Result<AuditReport, ReportError> {
    if subscription.plan != Plan::Pro {
        return Err(ReportError::ProOnly);
    }
    let subscription_id = subscription.id.as_str();
    let from = Value::from(range.first_day().to_string());
    let until = Value::from(range.last_day().checked_add(Duration::DAY).unwrap_or(Date::MAX).to_string());
    if page != 0 {
        let known = db.execute(
            "SELECT 1 FROM audit_log WHERE id = ? AND subscription_id = ? AND at >= ? AND at < ?",
            &[Value::Integer(page), Value::from(subscription_id), from.clone(), until.clone()],
        )?;
        if known.rows.is_empty() {
            return Err(ReportError::UnknownPage);
        }
    }
    let before = if page == 0 { i64::MAX } else { page };
    let result = db.execute(
        "SELECT id, at, actor_key_id, action, target_type, target_id, old_value, new_value FROM audit_log
              WHERE subscription_id = ? AND id < ? AND at >= ? AND at < ?
              ORDER BY id DESC LIMIT ?",
        &[
            Value::from(subscription_id),
            Value::Integer(before),
            from,
            until,
            Value::Integer(AUDIT_PAGE_SIZE as i64 + 1),
        ],
    )?;
    if page != 0 && result.rows.is_empty() {
        return Err(ReportError::PastTheEnd);
    }
    let more = result.rows.len() > AUDIT_PAGE_SIZE;
    let rows = &result.rows[..result.rows.len().min(AUDIT_PAGE_SIZE)];
    let next_page = match rows.last() {
        Some(last) if more => Some(last.get::<i64>(0)?),
        _ => None,
    };
    let entries = rows.iter().map(entry_from_row).collect::<Result<_, DbError>>()?;
    Ok(AuditReport {
        audit_log: AuditPage { start_date: range.start_text(), end_date: range.end_text(), next_page, entries },
    })
}

fn entry_from_row(row: &platform::Row) -> Result<AuditEntry, DbError> {
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

        assert!(matches!(audit_log(&fixture.db, &mine, &may, 1), Err(ReportError::PastTheEnd)));
        assert!(matches!(audit_log(&fixture.db, &mine, &may, 1_000_000), Err(ReportError::UnknownPage)));
        assert!(matches!(
            audit_log(&fixture.db, &subscription("theirs", Plan::Pro), &may, 5),
            Err(ReportError::UnknownPage)
        ));
    }
}
