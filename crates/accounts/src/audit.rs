//! The audit log: who changed which key, limit or cost control, when, from what to what.
//!
//! Every change to a subscription's keys and limits writes one entry in the same transaction as
//! the change itself, so the log can neither miss a change nor record one that did not happen.
//! A change that changes nothing (deactivating a deactivated key, a label set to itself) writes
//! nothing. Entries hold key ids and labels, never secrets. Entries are written for every plan;
//! only Pro subscriptions may read them (the admin API decides that).

use platform::{Database, Value};
use serde::Serialize;
use time::{Date, Duration};

use crate::error::StoreError;
use crate::keys::KeyKind;
use crate::period::rfc3339;
use crate::reports::ReportError;

/// Entries per page of [`entries`].
pub const AUDIT_PAGE_SIZE: usize = 100;

/// Who makes a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor<'a> {
    /// An admin key (its id), through the admin API.
    AdminKey(&'a str),
    /// The operator: the `glossa admin` commands, and the bootstrap key's first use.
    Operator,
}

impl Actor<'_> {
    fn key_id(&self) -> Option<&str> {
        match self {
            Actor::AdminKey(id) => Some(id),
            Actor::Operator => None,
        }
    }
}

/// What was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    CreateKey,
    RelabelKey,
    DeactivateKey,
    ChangeKeyLimits,
    ChangeCostControl,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::CreateKey => "create_key",
            Action::RelabelKey => "relabel_key",
            Action::DeactivateKey => "deactivate_key",
            Action::ChangeKeyLimits => "change_key_limits",
            Action::ChangeCostControl => "change_cost_control",
        }
    }
}

/// What a change was made to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    Key { kind: KeyKind, id: &'a str },
    Subscription(&'a str),
}

impl Target<'_> {
    fn parts(&self) -> (&'static str, &str) {
        match self {
            Target::Key { kind: KeyKind::Developer, id } => ("developer_key", id),
            Target::Key { kind: KeyKind::Admin, id } => ("admin_key", id),
            Target::Subscription(id) => ("subscription", id),
        }
    }
}

/// One change, as [`record`] writes it.
pub(crate) struct Change<'a> {
    pub subscription_id: &'a str,
    pub at: time::OffsetDateTime,
    pub actor: Actor<'a>,
    pub action: Action,
    pub target: Target<'a>,
    /// The changed values before (`None` for a creation) and after.
    pub old: Option<serde_json::Value>,
    pub new: Option<serde_json::Value>,
}

/// Writes one entry; call it inside the transaction that makes the change.
pub(crate) fn record(db: &dyn Database, change: Change<'_>) -> Result<(), StoreError> {
    let (target_type, target_id) = change.target.parts();
    let json = |value: Option<serde_json::Value>| value.map(|value| value.to_string());
    db.execute(
        "INSERT INTO audit_log (subscription_id, at, actor_key_id, action, target_type, target_id, old_value, new_value)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        &[
            Value::from(change.subscription_id),
            Value::from(rfc3339(change.at)),
            Value::from(change.actor.key_id()),
            Value::from(change.action.as_str()),
            Value::from(target_type),
            Value::from(target_id),
            Value::from(json(change.old)),
            Value::from(json(change.new)),
        ],
    )?;
    Ok(())
}

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

/// One page of the log, newest entry first.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
    /// The cursor of the next page, when there is one.
    pub next_page: Option<i64>,
}

/// The subscription's entries from `first_day` to `last_day` (UTC days, both included), newest
/// first, [`AUDIT_PAGE_SIZE`] at a time. `page` 0 is the first page; any other is a cursor a
/// previous page answered in `next_page` (the id of that page's last entry), so pages stay
/// stable while new entries are written.
pub fn entries(
    db: &dyn Database,
    subscription_id: &str,
    first_day: Date,
    last_day: Date,
    page: i64,
) -> Result<AuditPage, ReportError> {
    let from = Value::from(first_day.to_string());
    let until = Value::from(last_day.checked_add(Duration::DAY).unwrap_or(Date::MAX).to_string());
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
    let entries = rows.iter().map(entry_from_row).collect::<Result<_, StoreError>>()?;
    Ok(AuditPage { entries, next_page })
}

fn entry_from_row(row: &platform::Row) -> Result<AuditEntry, StoreError> {
    let json = |index: usize| -> Result<Option<serde_json::Value>, StoreError> {
        row.get::<Option<String>>(index)?
            .map(|text| {
                serde_json::from_str(&text).map_err(|_| StoreError::Corrupt { what: "audit value", value: text })
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
    use serde_json::json;
    use time::macros::{date, datetime};

    use super::*;
    use crate::test_support::Fixture;

    fn change<'a>(subscription_id: &'a str, at: time::OffsetDateTime, target_id: &'a str) -> Change<'a> {
        Change {
            subscription_id,
            at,
            actor: Actor::AdminKey("admin-1"),
            action: Action::RelabelKey,
            target: Target::Key { kind: KeyKind::Developer, id: target_id },
            old: Some(json!({"label": "old"})),
            new: Some(json!({"label": "new"})),
        }
    }

    #[test]
    fn entries_are_read_newest_first_within_the_days_and_the_subscription() {
        let fixture = Fixture::at(1_800_000_000);
        for (n, at) in [
            datetime!(2026-05-02 23:59:59 UTC),
            datetime!(2026-05-03 00:00:00 UTC),
            datetime!(2026-05-04 12:00:00 UTC),
            datetime!(2026-05-05 00:00:00 UTC),
        ]
        .into_iter()
        .enumerate()
        {
            record(&fixture.db, change("mine", at, &format!("key-{n}"))).unwrap();
        }
        record(&fixture.db, change("theirs", datetime!(2026-05-04 12:00:00 UTC), "their-key")).unwrap();

        let page = entries(&fixture.db, "mine", date!(2026 - 05 - 03), date!(2026 - 05 - 04), 0).unwrap();
        let targets: Vec<_> = page.entries.iter().map(|entry| entry.target_id.as_str()).collect();
        assert_eq!(targets, ["key-2", "key-1"], "the last day is included, the day after is not");
        assert_eq!(page.next_page, None);
        let entry = &page.entries[0];
        assert_eq!(entry.time, "2026-05-04T12:00:00Z");
        assert_eq!((entry.actor, entry.admin_key_id.as_deref()), ("admin_key", Some("admin-1")));
        assert_eq!((entry.action.as_str(), entry.target_type.as_str()), ("relabel_key", "developer_key"));
        assert_eq!(entry.new_value, Some(json!({"label": "new"})));
    }

    #[test]
    fn following_next_page_reads_every_entry_once() {
        let fixture = Fixture::at(1_800_000_000);
        let total = 2 * AUDIT_PAGE_SIZE + 7;
        for n in 0..total {
            let mut entry = change("mine", datetime!(2026-05-03 10:00:00 UTC), "key");
            entry.actor = Actor::Operator;
            entry.new = Some(json!({"n": n}));
            record(&fixture.db, entry).unwrap();
        }
        let (first, last) = (date!(2026 - 05 - 01), date!(2026 - 05 - 31));
        let mut seen = Vec::new();
        let mut page = 0;
        loop {
            let answer = entries(&fixture.db, "mine", first, last, page).unwrap();
            assert!(answer.entries.iter().all(|entry| entry.actor == "operator" && entry.admin_key_id.is_none()));
            seen.extend(answer.entries.iter().map(|entry| entry.new_value.clone().unwrap()["n"].as_u64().unwrap()));
            match answer.next_page {
                Some(next) => page = next,
                None => break,
            }
        }
        let expected: Vec<u64> = (0..total as u64).rev().collect();
        assert_eq!(seen, expected);

        assert!(matches!(entries(&fixture.db, "mine", first, last, 1), Err(ReportError::PastTheEnd)));
        assert!(matches!(entries(&fixture.db, "mine", first, last, 1_000_000), Err(ReportError::UnknownPage)));
        assert!(matches!(entries(&fixture.db, "theirs", first, last, 5), Err(ReportError::UnknownPage)));
    }
}
