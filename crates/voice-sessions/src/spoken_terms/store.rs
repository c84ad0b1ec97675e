//! Spoken terms lists in the database (`sql/0016_spoken_terms.sql`).
//!
//! Every function is scoped by the subscription: another subscription's list is
//! [`TermsError::NotFound`], like one that does not exist. A list is small (at most
//! [`MAX_TERMS`] terms of 1,000 characters in all), so every change is one short transaction
//! that writes the list's row and its terms whole: readers see a change whole or not at all.
//!
//! Each change writes its audit entry (`accounts::record_spoken_terms`: the acting admin key, the
//! list's id, and its name and terms before and after) in the same transaction; a replacement
//! that replaces nothing with something else records nothing.

use accounts::{Actor, SpokenTermsAction, SpokenTermsChange, StoreError};
use platform::db::{RetryPolicy, TransactionError, transaction};
use platform::{Database, DbError, Id, Row, Services};
use serde::Serialize;
use serde_json::{Map, Value, json};
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

use super::request::{NewTermsList, TermsChange};
use super::{MAX_LISTS, MAX_TERMS};

/// A list as the API answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpokenTermsList {
    pub spoken_terms_id: String,
    pub name: String,
    /// In their order.
    pub terms: Vec<String>,
    /// ISO 8601, UTC, milliseconds: `2026-11-21T10:00:00.123Z`.
    pub creation_time: String,
    pub updated_time: String,
}

/// `GET /v2/admin/spoken-terms`: every list of the subscription, oldest first, with its terms.
#[derive(Debug, Serialize)]
pub struct SpokenTermsListing {
    pub spoken_terms: Vec<SpokenTermsList>,
}

/// Why a spoken terms operation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum TermsError {
    #[error("Spoken terms list not found.")]
    NotFound,
    #[error("Quota exceeded. The maximum number of spoken terms lists ({MAX_LISTS}) has been reached.")]
    TooManyLists,
    #[error("spoken terms store: {0}")]
    Store(#[from] DbError),
    #[error("spoken terms audit: {0}")]
    Audit(#[from] StoreError),
}

impl TransactionError for TermsError {
    fn is_busy(&self) -> bool {
        matches!(self, TermsError::Store(DbError::Busy(_)) | TermsError::Audit(StoreError::Db(DbError::Busy(_))))
    }
}

/// Counts the subscription's lists (`spoken_terms_lists_by_subscription`).
const SQL_COUNT_LISTS: &str = "SELECT count(*) FROM spoken_terms_lists WHERE subscription_id = ?";

/// Creates a list's row.
const SQL_INSERT_LIST: &str =
    "INSERT INTO spoken_terms_lists (id, subscription_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)";

/// One list of the subscription (the primary key; the subscription checked on the row), its
/// columns in [`list_from_row`]'s order, as [`SQL_LISTS`]'s.
const SQL_GET_LIST: &str = "SELECT id, name, created_at, updated_at FROM spoken_terms_lists \
     WHERE id = ? AND subscription_id = ?";

/// The subscription's lists in creation order (`spoken_terms_lists_by_subscription`, then
/// rowid; at most [`MAX_LISTS`] rows).
const SQL_LISTS: &str =
    "SELECT id, name, created_at, updated_at FROM spoken_terms_lists WHERE subscription_id = ? ORDER BY rowid";

/// One list's terms in order (the primary key's prefix `list_id`, then `position`).
const SQL_TERMS: &str = "SELECT term FROM spoken_terms WHERE list_id = ? ORDER BY position";

/// The terms of every list of the subscription, by list and in order: the lists through
/// `spoken_terms_lists_by_subscription`, each list's terms through the primary key.
const SQL_ALL_TERMS: &str = "SELECT t.list_id, t.term FROM spoken_terms_lists AS l \
     JOIN spoken_terms AS t ON t.list_id = l.id WHERE l.subscription_id = ? ORDER BY t.list_id, t.position";

/// Renames a list and sets its `updated_at`, if the subscription owns it (primary key); says
/// so by returning its id. `name` NULL keeps the name.
const SQL_TOUCH: &str = "UPDATE spoken_terms_lists SET name = coalesce(?, name), updated_at = ? \
     WHERE id = ? AND subscription_id = ? RETURNING id";

/// Deletes a list's row if the subscription owns it (primary key), returning its id.
const SQL_DELETE_LIST: &str = "DELETE FROM spoken_terms_lists WHERE id = ? AND subscription_id = ? RETURNING id";

/// Deletes a list's terms (the primary key's prefix).
const SQL_DELETE_TERMS: &str = "DELETE FROM spoken_terms WHERE list_id = ?";

/// Appends one term at `position` (the primary key).
const SQL_INSERT_TERM: &str = "INSERT INTO spoken_terms (list_id, position, term) VALUES (?, ?, ?)";

/// Creates a list, whole, in one transaction with its audit entry; at most [`MAX_LISTS`] per
/// subscription.
pub fn create(
    services: &Services<'_>,
    subscription_id: &str,
    list: &NewTermsList,
    actor: Actor<'_>,
) -> Result<SpokenTermsList, TermsError> {
    let id = Id::random(services.random);
    let now = now(services);
    transaction(services.db, RetryPolicy::default(), |db| {
        if count(db, subscription_id)? >= MAX_LISTS {
            return Err(TermsError::TooManyLists);
        }
        db.execute(
            SQL_INSERT_LIST,
            &[
                (&id).into(),
                subscription_id.into(),
                list.name.as_str().into(),
                now.as_str().into(),
                now.as_str().into(),
            ],
        )?;
        insert_terms(db, &id, &list.terms)?;
        let new = Some(json!({"name": list.name, "terms": list.terms}));
        let list_id = id.to_string();
        let action = SpokenTermsAction::Create;
        audit(db, services, SpokenTermsChange { subscription_id, list_id: &list_id, actor, action, old: None, new })
    })?;
    get(services.db, subscription_id, &id)
}

/// Every list of the subscription, oldest first, with its terms.
pub fn list(db: &dyn Database, subscription_id: &str) -> Result<Vec<SpokenTermsList>, TermsError> {
    let lists = db.execute(SQL_LISTS, &[subscription_id.into()])?;
    let mut lists = lists.rows.iter().map(list_from_row).collect::<Result<Vec<_>, _>>()?;
    let terms = db.execute(SQL_ALL_TERMS, &[subscription_id.into()])?;
    for row in &terms.rows {
        let list_id: String = row.get(0)?;
        if let Some(list) = lists.iter_mut().find(|list| list.spoken_terms_id == list_id) {
            list.terms.push(row.get(1)?);
        }
    }
    Ok(lists)
}

/// `GET /v2/admin/spoken-terms`'s answer: [`list`].
pub fn listing(db: &dyn Database, subscription_id: &str) -> Result<SpokenTermsListing, TermsError> {
    Ok(SpokenTermsListing { spoken_terms: list(db, subscription_id)? })
}

/// One list of the subscription, with its terms.
pub fn get(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<SpokenTermsList, TermsError> {
    let result = db.execute(SQL_GET_LIST, &[id.into(), subscription_id.into()])?;
    let mut list = list_from_row(result.first().ok_or(TermsError::NotFound)?)?;
    let terms = db.execute(SQL_TERMS, &[id.into()])?;
    list.terms = terms.rows.iter().map(|row| row.get(0)).collect::<Result<_, _>>()?;
    Ok(list)
}

/// Replaces what `change` gives (the name, the terms, or both) in one transaction, and sets the
/// list's `updated_time`. The audit entry holds what changed: the name, the terms or both, before
/// and after.
pub fn replace(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    change: &TermsChange,
    actor: Actor<'_>,
) -> Result<SpokenTermsList, TermsError> {
    let now = now(services);
    transaction(services.db, RetryPolicy::default(), |db| {
        let before = get(db, subscription_id, id)?;
        let touched = db.execute(
            SQL_TOUCH,
            &[change.name.as_deref().into(), now.as_str().into(), id.into(), subscription_id.into()],
        )?;
        if touched.rows.is_empty() {
            return Err(TermsError::NotFound);
        }
        if let Some(terms) = &change.terms {
            db.execute(SQL_DELETE_TERMS, &[id.into()])?;
            insert_terms(db, id, terms)?;
        }
        let (mut old, mut new) = (Map::new(), Map::new());
        if let Some(name) = change.name.as_ref().filter(|name| **name != before.name) {
            old.insert("name".into(), json!(before.name));
            new.insert("name".into(), json!(name));
        }
        if let Some(terms) = change.terms.as_ref().filter(|terms| **terms != before.terms) {
            old.insert("terms".into(), json!(before.terms));
            new.insert("terms".into(), json!(terms));
        }
        if new.is_empty() {
            return Ok(());
        }
        let (old, new) = (Some(Value::Object(old)), Some(Value::Object(new)));
        let list_id = id.to_string();
        let action = SpokenTermsAction::Change;
        audit(db, services, SpokenTermsChange { subscription_id, list_id: &list_id, actor, action, old, new })
    })?;
    get(services.db, subscription_id, id)
}

/// Deletes a list and its terms, with its audit entry (the name and terms it had). Sessions that
/// name it go on without terms.
pub fn delete(services: &Services<'_>, subscription_id: &str, id: &Id, actor: Actor<'_>) -> Result<(), TermsError> {
    transaction(services.db, RetryPolicy::default(), |db| {
        let before = get(db, subscription_id, id)?;
        let deleted = db.execute(SQL_DELETE_LIST, &[id.into(), subscription_id.into()])?;
        if deleted.rows.is_empty() {
            return Err(TermsError::NotFound);
        }
        db.execute(SQL_DELETE_TERMS, &[id.into()])?;
        let old = Some(json!({"name": before.name, "terms": before.terms}));
        let list_id = id.to_string();
        let action = SpokenTermsAction::Delete;
        audit(db, services, SpokenTermsChange { subscription_id, list_id: &list_id, actor, action, old, new: None })
    })
}

/// Writes the audit entry of a change to a list, in the caller's transaction `db`.
fn audit(db: &dyn Database, services: &Services<'_>, change: SpokenTermsChange<'_>) -> Result<(), TermsError> {
    Ok(accounts::record_spoken_terms(db, services.clock, change)?)
}

/// Writes `terms` as the list's, positions 1, 2, 3…, in the caller's transaction.
fn insert_terms(db: &dyn Database, id: &Id, terms: &[String]) -> Result<(), TermsError> {
    debug_assert!(terms.len() <= MAX_TERMS, "terms are checked before they are stored");
    for (position, term) in (1_i64..).zip(terms) {
        db.execute(SQL_INSERT_TERM, &[id.into(), position.into(), term.as_str().into()])?;
    }
    Ok(())
}

fn list_from_row(row: &Row) -> Result<SpokenTermsList, DbError> {
    Ok(SpokenTermsList {
        spoken_terms_id: row.get(0)?,
        name: row.get(1)?,
        terms: Vec::new(),
        creation_time: row.get(2)?,
        updated_time: row.get(3)?,
    })
}

fn count(db: &dyn Database, subscription_id: &str) -> Result<i64, DbError> {
    db.execute(SQL_COUNT_LISTS, &[subscription_id.into()])?
        .first()
        .ok_or_else(|| DbError::Decode("count(*) gave no row".into()))?
        .get(0)
}

/// Now as `2026-11-21T10:00:00.123Z`: ISO 8601 in UTC with milliseconds, as clients parse it.
fn now(services: &Services<'_>) -> String {
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    OffsetDateTime::from(services.clock.now())
        .to_offset(UtcOffset::UTC)
        .format(&format)
        .expect("a UTC timestamp formats")
}
