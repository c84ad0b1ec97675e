//! Style rule lists in the database (`sql/0010_style_rules.sql`).
//!
//! Every function is scoped by the subscription: another subscription's list is
//! [`StyleError::NotFound`], like one that does not exist. A list is small (its rules one JSON
//! object, at most 200 instructions), so every change is one short transaction, which also
//! raises the list's `version` and sets its `updated_time`: readers see a change whole or not
//! at all.

use platform::db::{RetryPolicy, TransactionError, transaction};
use platform::{Database, DbError, Id, Row, Services};
use stylebook::ConfiguredRules;
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

use crate::limits::{MAX_INSTRUCTIONS, MAX_LISTS};
use crate::request::{Listing, NewInstruction, NewList};

/// A custom instruction as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    pub id: String,
    pub label: String,
    pub prompt: String,
    /// A lower-case base code (`en`); `None`: for every source language.
    pub source_language: Option<String>,
}

/// A style rule list as stored; `details` only where it was read in full.
#[derive(Debug, Clone, PartialEq)]
pub struct StyleList {
    pub id: String,
    pub name: String,
    /// A lower-case base code: `en`.
    pub language: String,
    pub version: i64,
    /// ISO 8601, UTC, milliseconds: `2026-11-21T10:00:00.123Z`.
    pub creation_time: String,
    pub updated_time: String,
    pub details: Option<Details>,
}

/// What a detailed read adds: the configured rules and the custom instructions.
#[derive(Debug, Clone, PartialEq)]
pub struct Details {
    pub rules: ConfiguredRules,
    pub instructions: Vec<Instruction>,
}

/// Why a style rule operation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum StyleError {
    #[error("Style rule list not found.")]
    NotFound,
    #[error("Custom instruction not found.")]
    InstructionNotFound,
    #[error("Quota exceeded. The maximum number of style rule lists ({MAX_LISTS}) has been reached.")]
    TooManyLists,
    #[error(
        "Value for 'custom_instructions' not supported: a style rule list holds at most {MAX_INSTRUCTIONS} custom instructions."
    )]
    TooManyInstructions,
    #[error("style rule store: {0}")]
    Store(#[from] DbError),
}

impl TransactionError for StyleError {
    fn is_busy(&self) -> bool {
        matches!(self, StyleError::Store(DbError::Busy(_)))
    }
}

/// The columns every read of a list selects, in [`list_from_row`]'s order.
const LIST_COLUMNS: &str = "id, name, language, version, created_at, updated_at, configured_rules";

/// Counts the subscription's lists (`style_rule_lists_by_subscription`).
const SQL_COUNT_LISTS: &str = "SELECT count(*) FROM style_rule_lists WHERE subscription_id = ?";

/// Raises a list's version after a change, if the subscription owns it (primary key), and says
/// so by returning its id.
const SQL_TOUCH: &str = "UPDATE style_rule_lists SET version = version + 1, updated_at = ? \
     WHERE id = ? AND subscription_id = ? RETURNING id";

/// A list's instructions in order (the primary key's prefix `list_id`, then `position`).
const SQL_INSTRUCTIONS: &str =
    "SELECT id, label, prompt, source_language FROM style_rule_instructions WHERE list_id = ? ORDER BY position";

/// Creates a list, whole, in one transaction.
pub fn create(services: &Services<'_>, subscription_id: &str, list: &NewList) -> Result<StyleList, StyleError> {
    let id = Id::random(services.random);
    let now = now(services);
    let rules = serde_json::to_string(&list.rules).map_err(|error| DbError::Decode(error.to_string()))?;
    transaction(services.db, RetryPolicy::default(), |db| {
        if count(db, SQL_COUNT_LISTS, &[subscription_id.into()])? >= MAX_LISTS {
            return Err(StyleError::TooManyLists);
        }
        db.execute(
            "INSERT INTO style_rule_lists \
             (id, subscription_id, name, language, configured_rules, version, created_at, updated_at) \
             VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
            &[
                (&id).into(),
                subscription_id.into(),
                list.name.as_str().into(),
                list.language.base_code().into(),
                rules.as_str().into(),
                now.as_str().into(),
                now.as_str().into(),
            ],
        )?;
        for instruction in &list.instructions {
            insert_instruction(services, db, &id.to_string(), instruction)?;
        }
        Ok(())
    })?;
    get(services.db, subscription_id, &id)
}

/// One page of the subscription's lists, oldest first; with their rules and instructions when
/// `listing.detailed`.
pub fn list(db: &dyn Database, subscription_id: &str, listing: &Listing) -> Result<Vec<StyleList>, StyleError> {
    // `style_rule_lists_by_subscription`, in rowid order; a page is at most 25 rows.
    let result = db.execute(
        &format!(
            "SELECT {LIST_COLUMNS} FROM style_rule_lists WHERE subscription_id = ? ORDER BY rowid LIMIT ? OFFSET ?"
        ),
        &[subscription_id.into(), listing.page_size.into(), listing.page.saturating_mul(listing.page_size).into()],
    )?;
    result.rows.iter().map(|row| list_from_row(db, row, listing.detailed)).collect()
}

/// One list of the subscription, in full.
pub fn get(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<StyleList, StyleError> {
    let result = db.execute(
        &format!("SELECT {LIST_COLUMNS} FROM style_rule_lists WHERE id = ? AND subscription_id = ?"),
        &[id.into(), subscription_id.into()],
    )?;
    let row = result.first().ok_or(StyleError::NotFound)?;
    list_from_row(db, row, true)
}

/// Renames a list.
pub fn rename(services: &Services<'_>, subscription_id: &str, id: &Id, name: &str) -> Result<StyleList, StyleError> {
    change(services, subscription_id, id, |db| {
        db.execute("UPDATE style_rule_lists SET name = ? WHERE id = ?", &[name.into(), id.into()])?;
        Ok(())
    })?;
    get(services.db, subscription_id, id)
}

/// Replaces a list's configured rules.
pub fn replace_rules(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    rules: &ConfiguredRules,
) -> Result<StyleList, StyleError> {
    let rules = serde_json::to_string(rules).map_err(|error| DbError::Decode(error.to_string()))?;
    change(services, subscription_id, id, |db| {
        db.execute(
            "UPDATE style_rule_lists SET configured_rules = ? WHERE id = ?",
            &[rules.as_str().into(), id.into()],
        )?;
        Ok(())
    })?;
    get(services.db, subscription_id, id)
}

/// Deletes a list and its instructions.
pub fn delete(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<(), StyleError> {
    transaction(db, RetryPolicy::default(), |db| {
        let deleted = db.execute(
            "DELETE FROM style_rule_lists WHERE id = ? AND subscription_id = ? RETURNING id",
            &[id.into(), subscription_id.into()],
        )?;
        if deleted.rows.is_empty() {
            return Err(StyleError::NotFound);
        }
        db.execute("DELETE FROM style_rule_instructions WHERE list_id = ?", &[id.into()])?;
        Ok(())
    })
}

/// Adds a custom instruction at the end of a list.
pub fn add_instruction(
    services: &Services<'_>,
    subscription_id: &str,
    list_id: &Id,
    instruction: &NewInstruction,
) -> Result<Instruction, StyleError> {
    let id = change(services, subscription_id, list_id, |db| {
        if count(db, "SELECT count(*) FROM style_rule_instructions WHERE list_id = ?", &[list_id.into()])?
            >= MAX_INSTRUCTIONS as i64
        {
            return Err(StyleError::TooManyInstructions);
        }
        insert_instruction(services, db, &list_id.to_string(), instruction)
    })?;
    get_instruction(services.db, subscription_id, list_id, &id)
}

/// One custom instruction of a list of the subscription.
pub fn get_instruction(
    db: &dyn Database,
    subscription_id: &str,
    list_id: &Id,
    id: &Id,
) -> Result<Instruction, StyleError> {
    owned(db, subscription_id, list_id)?;
    // `style_rule_instructions_by_id`.
    let result = db.execute(
        "SELECT id, label, prompt, source_language FROM style_rule_instructions WHERE list_id = ? AND id = ?",
        &[list_id.into(), id.into()],
    )?;
    instruction_from_row(result.first().ok_or(StyleError::InstructionNotFound)?)
}

/// Replaces a custom instruction's label, prompt and source language; it keeps its id and place.
pub fn replace_instruction(
    services: &Services<'_>,
    subscription_id: &str,
    list_id: &Id,
    id: &Id,
    instruction: &NewInstruction,
) -> Result<Instruction, StyleError> {
    change(services, subscription_id, list_id, |db| {
        let updated = db.execute(
            "UPDATE style_rule_instructions SET label = ?, prompt = ?, source_language = ? \
             WHERE list_id = ? AND id = ? RETURNING id",
            &[
                instruction.label.as_str().into(),
                instruction.prompt.as_str().into(),
                instruction.source_language.map(|language| language.base_code()).into(),
                list_id.into(),
                id.into(),
            ],
        )?;
        if updated.rows.is_empty() { Err(StyleError::InstructionNotFound) } else { Ok(()) }
    })?;
    get_instruction(services.db, subscription_id, list_id, id)
}

/// Deletes a custom instruction.
pub fn delete_instruction(
    services: &Services<'_>,
    subscription_id: &str,
    list_id: &Id,
    id: &Id,
) -> Result<(), StyleError> {
    change(services, subscription_id, list_id, |db| {
        let deleted = db.execute(
            "DELETE FROM style_rule_instructions WHERE list_id = ? AND id = ? RETURNING id",
            &[list_id.into(), id.into()],
        )?;
        if deleted.rows.is_empty() { Err(StyleError::InstructionNotFound) } else { Ok(()) }
    })
}

/// Runs `body` in one transaction with the list's version raised, if the subscription owns it.
fn change<T>(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    mut body: impl FnMut(&dyn Database) -> Result<T, StyleError>,
) -> Result<T, StyleError> {
    let now = now(services);
    transaction(services.db, RetryPolicy::default(), |db| {
        let touched = db.execute(SQL_TOUCH, &[now.as_str().into(), id.into(), subscription_id.into()])?;
        if touched.rows.is_empty() {
            return Err(StyleError::NotFound);
        }
        body(db)
    })
}

/// That the subscription owns the list.
fn owned(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<(), StyleError> {
    let result = db.execute(
        "SELECT 1 FROM style_rule_lists WHERE id = ? AND subscription_id = ?",
        &[id.into(), subscription_id.into()],
    )?;
    if result.rows.is_empty() { Err(StyleError::NotFound) } else { Ok(()) }
}

/// Appends an instruction to a list, in the caller's transaction; its new id.
fn insert_instruction(
    services: &Services<'_>,
    db: &dyn Database,
    list_id: &str,
    instruction: &NewInstruction,
) -> Result<Id, StyleError> {
    let id = Id::random(services.random);
    db.execute(
        "INSERT INTO style_rule_instructions (list_id, position, id, label, prompt, source_language) \
         VALUES (?1, (SELECT coalesce(max(position), 0) + 1 FROM style_rule_instructions WHERE list_id = ?1), \
         ?2, ?3, ?4, ?5)",
        &[
            list_id.into(),
            (&id).into(),
            instruction.label.as_str().into(),
            instruction.prompt.as_str().into(),
            instruction.source_language.map(|language| language.base_code()).into(),
        ],
    )?;
    Ok(id)
}

fn list_from_row(db: &dyn Database, row: &Row, detailed: bool) -> Result<StyleList, StyleError> {
    let id: String = row.get(0)?;
    let details = if detailed {
        let rules: String = row.get(6)?;
        let rules = serde_json::from_str(&rules)
            .ok()
            .and_then(|value| ConfiguredRules::parse(&value).ok())
            .ok_or_else(|| DbError::Decode(format!("the configured rules of style rule list {id} do not parse")))?;
        let result = db.execute(SQL_INSTRUCTIONS, &[id.as_str().into()])?;
        let instructions = result.rows.iter().map(instruction_from_row).collect::<Result<_, _>>()?;
        Some(Details { rules, instructions })
    } else {
        None
    };
    Ok(StyleList {
        id,
        name: row.get(1)?,
        language: row.get(2)?,
        version: row.get(3)?,
        creation_time: row.get(4)?,
        updated_time: row.get(5)?,
        details,
    })
}

fn instruction_from_row(row: &Row) -> Result<Instruction, StyleError> {
    Ok(Instruction { id: row.get(0)?, label: row.get(1)?, prompt: row.get(2)?, source_language: row.get(3)? })
}

fn count(db: &dyn Database, sql: &str, params: &[platform::Value]) -> Result<i64, DbError> {
    db.execute(sql, params)?.first().ok_or_else(|| DbError::Decode("count(*) gave no row".into()))?.get(0)
}

/// Now as `2026-11-21T10:00:00.123Z`: ISO 8601 in UTC with milliseconds, as clients parse it.
fn now(services: &Services<'_>) -> String {
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    OffsetDateTime::from(services.clock.now())
        .to_offset(UtcOffset::UTC)
        .format(&format)
        .expect("a UTC timestamp formats")
}
