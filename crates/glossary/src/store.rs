//! Glossaries in the database (`sql/0005_glossaries.sql`).
//!
//! Every function is scoped by the subscription: another subscription's glossary is
//! [`GlossaryError::NotFound`], like one that does not exist. Every change runs in one
//! transaction, so a failed request changes nothing. Entries travel to SQLite as one JSON array
//! per statement (read back with `json_each`), so a 100,000-entry dictionary is one host call,
//! not 100,000.

use std::collections::{BTreeSet, HashSet};

use platform::db::{RetryPolicy, TransactionError, transaction};
use platform::{Database, DbError, Id, Row, Services, Value};
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

use crate::entries::Entry;

/// The most glossaries one subscription may hold.
pub const MAX_GLOSSARIES: i64 = 1000;

/// A dictionary's language pair, as lower-case base codes (`en`, `de`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LanguagePair {
    pub source: String,
    pub target: String,
}

impl LanguagePair {
    pub fn new(source: &str, target: &str) -> LanguagePair {
        LanguagePair { source: source.to_ascii_lowercase(), target: target.to_ascii_lowercase() }
    }
}

impl std::fmt::Display for LanguagePair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} → {}", self.source.to_ascii_uppercase(), self.target.to_ascii_uppercase())
    }
}

/// A dictionary as listings show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DictionaryInfo {
    pub pair: LanguagePair,
    pub entry_count: i64,
}

/// A glossary as listings show it: no entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glossary {
    pub id: String,
    pub name: String,
    /// ISO 8601, UTC, milliseconds: `2026-11-21T10:00:00.123Z`.
    pub creation_time: String,
    /// Ordered by source, then target language.
    pub dictionaries: Vec<DictionaryInfo>,
}

/// A dictionary to store: its pair and its validated entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDictionary {
    pub pair: LanguagePair,
    pub entries: Vec<Entry>,
}

/// Why a glossary operation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum GlossaryError {
    #[error("Glossary not found.")]
    NotFound,
    #[error("Glossary dictionary not found.")]
    DictionaryNotFound,
    #[error("Quota exceeded. The maximum number of glossaries ({MAX_GLOSSARIES}) has been reached.")]
    TooMany,
    #[error("glossary store: {0}")]
    Store(#[from] DbError),
}

impl TransactionError for GlossaryError {
    fn is_busy(&self) -> bool {
        matches!(self, GlossaryError::Store(DbError::Busy(_)))
    }
}

/// Creates a glossary with its dictionaries (distinct pairs, checked by the caller).
pub fn create(
    services: &Services<'_>,
    subscription_id: &str,
    name: &str,
    dictionaries: &[NewDictionary],
) -> Result<Glossary, GlossaryError> {
    let id = Id::random(services.random);
    let creation_time = timestamp(OffsetDateTime::from(services.clock.now()));
    transaction(services.db, RetryPolicy::default(), |db| {
        let held =
            db.execute("SELECT count(*) FROM glossaries WHERE subscription_id = ?", &[subscription_id.into()])?;
        if count(&held)? >= MAX_GLOSSARIES {
            return Err(GlossaryError::TooMany);
        }
        db.execute(
            "INSERT INTO glossaries (id, subscription_id, name, created_at) VALUES (?, ?, ?, ?)",
            &[(&id).into(), subscription_id.into(), name.into(), creation_time.as_str().into()],
        )?;
        for dictionary in dictionaries {
            let dictionary_id = insert_dictionary(db, &id, &dictionary.pair)?;
            insert_entries(db, dictionary_id, 0, &dictionary.entries, false)?;
            update_count(db, dictionary_id)?;
        }
        Ok(())
    })?;
    get(services.db, subscription_id, &id)
}

/// Every glossary of the subscription, oldest first.
pub fn list(db: &dyn Database, subscription_id: &str) -> Result<Vec<Glossary>, GlossaryError> {
    let result = db.execute(
        &format!("{SELECT_GLOSSARIES} WHERE g.subscription_id = ? ORDER BY g.rowid, d.source_lang, d.target_lang"),
        &[subscription_id.into()],
    )?;
    glossaries_from_rows(&result.rows)
}

/// One glossary of the subscription.
pub fn get(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<Glossary, GlossaryError> {
    let result = db.execute(
        &format!("{SELECT_GLOSSARIES} WHERE g.subscription_id = ? AND g.id = ? ORDER BY d.source_lang, d.target_lang"),
        &[subscription_id.into(), id.into()],
    )?;
    glossaries_from_rows(&result.rows)?.into_iter().next().ok_or(GlossaryError::NotFound)
}

/// Deletes a glossary and everything in it.
pub fn delete(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<(), GlossaryError> {
    transaction(db, RetryPolicy::default(), |db| {
        owned(db, subscription_id, id)?;
        db.execute(
            "DELETE FROM glossary_entries WHERE dictionary_id IN (SELECT id FROM glossary_dictionaries WHERE glossary_id = ?)",
            &[id.into()],
        )?;
        db.execute("DELETE FROM glossary_dictionaries WHERE glossary_id = ?", &[id.into()])?;
        db.execute("DELETE FROM glossaries WHERE id = ?", &[id.into()])?;
        Ok(())
    })
}

/// Renames a glossary and/or merges entries into one of its dictionaries (created if absent):
/// new sources are added, existing sources get the new target. One transaction.
pub fn update(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
    name: Option<&str>,
    merge: Option<&NewDictionary>,
) -> Result<Glossary, GlossaryError> {
    transaction(db, RetryPolicy::default(), |db| {
        owned(db, subscription_id, id)?;
        if let Some(name) = name {
            db.execute("UPDATE glossaries SET name = ? WHERE id = ?", &[name.into(), id.into()])?;
        }
        if let Some(dictionary) = merge {
            let (dictionary_id, next_position) = match find_dictionary(db, id, &dictionary.pair)? {
                Some(dictionary_id) => {
                    let last = db.execute(
                        "SELECT max(position) FROM glossary_entries WHERE dictionary_id = ?",
                        &[dictionary_id.into()],
                    )?;
                    let last: Option<i64> = last.first().map(|row| row.get(0)).transpose()?.flatten();
                    (dictionary_id, last.map_or(0, |last| last + 1))
                }
                None => (insert_dictionary(db, id, &dictionary.pair)?, 0),
            };
            insert_entries(db, dictionary_id, next_position, &dictionary.entries, true)?;
            update_count(db, dictionary_id)?;
        }
        Ok::<(), GlossaryError>(())
    })?;
    get(db, subscription_id, id)
}

/// Replaces the dictionary of a pair with these entries (creating it if absent).
pub fn replace_dictionary(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
    dictionary: &NewDictionary,
) -> Result<DictionaryInfo, GlossaryError> {
    transaction(db, RetryPolicy::default(), |db| {
        owned(db, subscription_id, id)?;
        let dictionary_id = match find_dictionary(db, id, &dictionary.pair)? {
            Some(dictionary_id) => {
                db.execute("DELETE FROM glossary_entries WHERE dictionary_id = ?", &[dictionary_id.into()])?;
                dictionary_id
            }
            None => insert_dictionary(db, id, &dictionary.pair)?,
        };
        insert_entries(db, dictionary_id, 0, &dictionary.entries, false)?;
        let entry_count = update_count(db, dictionary_id)?;
        Ok(DictionaryInfo { pair: dictionary.pair.clone(), entry_count })
    })
}

/// Deletes the dictionary of a pair.
pub fn delete_dictionary(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
    pair: &LanguagePair,
) -> Result<(), GlossaryError> {
    transaction(db, RetryPolicy::default(), |db| {
        owned(db, subscription_id, id)?;
        let dictionary_id = find_dictionary(db, id, pair)?.ok_or(GlossaryError::DictionaryNotFound)?;
        db.execute("DELETE FROM glossary_entries WHERE dictionary_id = ?", &[dictionary_id.into()])?;
        db.execute("DELETE FROM glossary_dictionaries WHERE id = ?", &[dictionary_id.into()])?;
        Ok(())
    })
}

/// The entries of one dictionary, in upload order (merged entries after the others).
pub fn entries(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
    pair: &LanguagePair,
) -> Result<Vec<Entry>, GlossaryError> {
    owned(db, subscription_id, id)?;
    let dictionary_id = find_dictionary(db, id, pair)?.ok_or(GlossaryError::DictionaryNotFound)?;
    let result = db.execute(
        "SELECT source, target FROM glossary_entries WHERE dictionary_id = ? ORDER BY position",
        &[dictionary_id.into()],
    )?;
    result.rows.iter().map(|row| Ok((row.get(0)?, row.get(1)?))).collect()
}

/// Why the glossaries named in a translate request cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// Unknown, or another subscription's.
    #[error("Glossary {0} not found.")]
    UnknownGlossary(Id),
    #[error("Glossary {id} has no dictionary for the language pair {pair}.")]
    NoDictionary { id: Id, pair: LanguagePair },
    #[error("glossary store: {0}")]
    Store(#[from] DbError),
}

/// The dictionaries a translate request uses, in the order its glossaries were named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    dictionaries: Vec<i64>,
}

impl Selection {
    /// Finds the dictionary of `pair` in each named glossary of the subscription.
    pub fn resolve(
        db: &dyn Database,
        subscription_id: &str,
        ids: &[Id],
        pair: &LanguagePair,
    ) -> Result<Selection, LookupError> {
        let mut dictionaries = Vec::with_capacity(ids.len());
        for id in ids {
            let result = db.execute(
                "SELECT d.id FROM glossaries g \
                 LEFT JOIN glossary_dictionaries d ON d.glossary_id = g.id AND d.source_lang = ? AND d.target_lang = ? \
                 WHERE g.id = ? AND g.subscription_id = ?",
                &[pair.source.as_str().into(), pair.target.as_str().into(), id.into(), subscription_id.into()],
            )?;
            let row = result.first().ok_or(LookupError::UnknownGlossary(*id))?;
            let dictionary: Option<i64> = row.get(0)?;
            let dictionary = dictionary.ok_or_else(|| LookupError::NoDictionary { id: *id, pair: pair.clone() })?;
            if !dictionaries.contains(&dictionary) {
                dictionaries.push(dictionary);
            }
        }
        Ok(Selection { dictionaries })
    }

    /// The entries whose source term starts with one of `keys` (see `terms::first_key`): all
    /// that can occur in texts with those keys. Where glossaries disagree on a source term,
    /// the one named first wins.
    pub fn entries_for(&self, db: &dyn Database, keys: &BTreeSet<String>) -> Result<Vec<Entry>, DbError> {
        let mut found = Vec::new();
        if keys.is_empty() {
            return Ok(found);
        }
        let keys = serde_json::to_string(keys).map_err(|error| DbError::Other(error.to_string()))?;
        let mut seen = HashSet::new();
        for &dictionary in &self.dictionaries {
            let result = db.execute(ENTRIES_FOR_KEYS, &[keys.as_str().into(), dictionary.into()])?;
            for row in &result.rows {
                let source: String = row.get(0)?;
                if seen.insert(source.clone()) {
                    found.push((source, row.get(1)?));
                }
            }
        }
        Ok(found)
    }
}

/// The entries of a dictionary (`?2`) whose first key is in a JSON array of keys (`?1`): one
/// index lookup per key. Without statistics SQLite would rather scan the whole dictionary
/// through the primary key, so `CROSS JOIN` keeps the keys the outer loop and `INDEXED BY`
/// names the index.
pub(crate) const ENTRIES_FOR_KEYS: &str = "SELECT e.source, e.target FROM json_each(?1) AS k \
     CROSS JOIN glossary_entries AS e INDEXED BY glossary_entries_by_key \
     ON e.dictionary_id = ?2 AND e.first_key = k.value";

const SELECT_GLOSSARIES: &str = "SELECT g.id, g.name, g.created_at, d.source_lang, d.target_lang, d.entry_count \
     FROM glossaries AS g LEFT JOIN glossary_dictionaries AS d ON d.glossary_id = g.id";

fn glossaries_from_rows(rows: &[Row]) -> Result<Vec<Glossary>, GlossaryError> {
    let mut glossaries: Vec<Glossary> = Vec::new();
    for row in rows {
        let id: String = row.get(0)?;
        if glossaries.last().is_none_or(|last| last.id != id) {
            glossaries.push(Glossary { id, name: row.get(1)?, creation_time: row.get(2)?, dictionaries: Vec::new() });
        }
        let source: Option<String> = row.get(3)?;
        if let (Some(source), Some(glossary)) = (source, glossaries.last_mut()) {
            let target: String = row.get(4)?;
            glossary
                .dictionaries
                .push(DictionaryInfo { pair: LanguagePair { source, target }, entry_count: row.get(5)? });
        }
    }
    Ok(glossaries)
}

/// Checks that the glossary exists and belongs to the subscription.
fn owned(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<(), GlossaryError> {
    let result = db.execute(
        "SELECT 1 FROM glossaries WHERE id = ? AND subscription_id = ?",
        &[id.into(), subscription_id.into()],
    )?;
    if result.rows.is_empty() { Err(GlossaryError::NotFound) } else { Ok(()) }
}

fn find_dictionary(db: &dyn Database, glossary_id: &Id, pair: &LanguagePair) -> Result<Option<i64>, GlossaryError> {
    let result = db.execute(
        "SELECT id FROM glossary_dictionaries WHERE glossary_id = ? AND source_lang = ? AND target_lang = ?",
        &[glossary_id.into(), pair.source.as_str().into(), pair.target.as_str().into()],
    )?;
    Ok(result.first().map(|row| row.get(0)).transpose()?)
}

fn insert_dictionary(db: &dyn Database, glossary_id: &Id, pair: &LanguagePair) -> Result<i64, GlossaryError> {
    let result = db.execute(
        "INSERT INTO glossary_dictionaries (glossary_id, source_lang, target_lang, entry_count) \
         VALUES (?, ?, ?, 0) RETURNING id",
        &[glossary_id.into(), pair.source.as_str().into(), pair.target.as_str().into()],
    )?;
    let row = result.first().ok_or_else(|| DbError::Decode("INSERT … RETURNING gave no row".into()))?;
    Ok(row.get(0)?)
}

/// Inserts entries from `first_position` on, in one statement; with `merge`, an entry whose
/// source is already there replaces that entry's target instead.
fn insert_entries(
    db: &dyn Database,
    dictionary_id: i64,
    first_position: i64,
    entries: &[Entry],
    merge: bool,
) -> Result<(), GlossaryError> {
    let keys: Vec<String> = entries.iter().map(|(source, _)| terms::first_key(source)).collect();
    let rows: Vec<[&str; 3]> = entries
        .iter()
        .zip(&keys)
        .map(|((source, target), key)| [source.as_str(), target.as_str(), key.as_str()])
        .collect();
    let json = serde_json::to_string(&rows).map_err(|error| DbError::Other(error.to_string()))?;
    let upsert = if merge { " ON CONFLICT (dictionary_id, source) DO UPDATE SET target = excluded.target" } else { "" };
    db.execute(
        &format!(
            "INSERT INTO glossary_entries (dictionary_id, position, source, target, first_key) \
             SELECT ?, ? + key, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') \
             FROM json_each(?) WHERE true{upsert}"
        ),
        &[dictionary_id.into(), first_position.into(), Value::Text(json)],
    )?;
    Ok(())
}

fn update_count(db: &dyn Database, dictionary_id: i64) -> Result<i64, GlossaryError> {
    let result = db.execute(
        "UPDATE glossary_dictionaries SET entry_count = (SELECT count(*) FROM glossary_entries WHERE dictionary_id = ?1) \
         WHERE id = ?1 RETURNING entry_count",
        &[dictionary_id.into()],
    )?;
    let row = result.first().ok_or_else(|| DbError::Decode("UPDATE … RETURNING gave no row".into()))?;
    Ok(row.get(0)?)
}

fn count(result: &platform::QueryResult) -> Result<i64, DbError> {
    result.first().ok_or_else(|| DbError::Decode("count(*) gave no row".into()))?.get(0)
}

/// `2026-11-21T10:00:00.123Z`: ISO 8601 in UTC with milliseconds, as clients parse it.
fn timestamp(moment: OffsetDateTime) -> String {
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    moment.to_offset(UtcOffset::UTC).format(&format).expect("a UTC timestamp formats")
}
