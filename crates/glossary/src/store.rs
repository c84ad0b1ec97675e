//! Glossaries in the database (`sql/0005_glossaries.sql`, `sql/0007_glossary_writes.sql`,
//! `sql/0009_glossary_versions.sql`).
//!
//! Every function is scoped by the subscription: another subscription's glossary is
//! [`GlossaryError::NotFound`], like one that does not exist. Entries travel to SQLite as one
//! JSON array per statement (read back with `json_each`), so a chunk of entries is one host
//! call.
//!
//! No write holds the database for long, so one tenant's large upload never makes another's
//! requests wait more than a chunk's time: entries are written in transactions of
//! [`WRITE_CHUNK_ROWS`] under a draft key no glossary has, invisible to every read, and the last
//! short transaction moves the finished dictionaries to their glossary (creating it, or putting a
//! replaced dictionary aside). A failed write removes its draft; dictionaries put aside (deleted
//! or replaced) are removed in chunks after the change is visible. A draft left by an instance
//! that died is removed by the subscription's next glossary write. A glossary lists its
//! dictionaries in the order they were sent; a replaced one keeps its place.
//!
//! Concurrent changes never lose one another. A change made in one transaction (a rename, a
//! deletion, a merge of up to a chunk into an existing dictionary) sees every change committed
//! before it. A merge written beside its dictionary is based on what it read first, so its last
//! transaction checks that the dictionary is still that one: the same id (a replaced, deleted or
//! recreated dictionary has another) at the same version (which every merge written in place
//! raises). If not, the draft is discarded and the merge done again from what is there now, up
//! to [`MERGE_ATTEMPTS`] times in all; then it is refused ([`GlossaryError::Contended`]) having
//! changed nothing. A replacement needs no such check: what it replaces is read in its last
//! transaction, and a replacement takes the place of whatever is there.

use std::collections::{BTreeSet, HashSet};
use std::time::UNIX_EPOCH;

use platform::db::{RetryPolicy, TransactionError, transaction, write_chunk};
use platform::{Database, DbError, Id, Row, Services, Value};
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

use crate::entries::Entry;
pub use crate::limits::MAX_GLOSSARIES;
use crate::limits::{MAX_DICTIONARIES, MAX_DICTIONARY_ENTRIES, WRITE_CHUNK_ROWS};

/// After this long, a draft is an upload whose instance died (milliseconds).
const STALE_DRAFT_MS: i64 = 15 * 60 * 1000;

/// How often a merge written beside its dictionary is tried, the first time included, when
/// other requests change the dictionary meanwhile.
pub const MERGE_ATTEMPTS: usize = 3;

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
    /// In the order they were sent (a replaced dictionary keeps its place).
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
    #[error("Value for 'dictionaries' not supported: a glossary holds at most {MAX_DICTIONARIES} dictionaries.")]
    TooManyDictionaries,
    #[error("Value for 'entries' not supported: a dictionary holds at most {MAX_DICTIONARY_ENTRIES} entries.")]
    TooManyEntries,
    /// Other requests changed the dictionary during every attempt of a merge (see the module's
    /// documentation); nothing was changed.
    #[error(
        "The glossary's dictionary {0} was changed by other requests while these entries were being merged into it. Nothing was changed; please try again."
    )]
    Contended(LanguagePair),
    #[error("glossary store: {0}")]
    Store(#[from] DbError),
}

impl TransactionError for GlossaryError {
    fn is_busy(&self) -> bool {
        matches!(self, GlossaryError::Store(DbError::Busy(_)))
    }
}

/// Creates a glossary with its dictionaries (distinct pairs, checked by the caller), in the
/// order given. The entries are written in short transactions; the glossary appears, whole, in
/// the last one.
pub fn create(
    services: &Services<'_>,
    subscription_id: &str,
    name: &str,
    dictionaries: &[NewDictionary],
) -> Result<Glossary, GlossaryError> {
    let db = services.db;
    sweep(services, subscription_id)?;
    // Refused before anything is written; checked again when the glossary appears.
    check_quota(db, subscription_id)?;
    let id = Id::random(services.random);
    let creation_time = timestamp(OffsetDateTime::from(services.clock.now()));
    let draft = Draft::begin(services, subscription_id)?;
    let written = draft.write(db, dictionaries).and_then(|_| {
        transaction(db, RetryPolicy::default(), |db| {
            check_quota(db, subscription_id)?;
            db.execute(
                "INSERT INTO glossaries (id, subscription_id, name, created_at) VALUES (?, ?, ?, ?)",
                &[(&id).into(), subscription_id.into(), name.into(), creation_time.as_str().into()],
            )?;
            draft.finish(db, &id)
        })
    });
    if let Err(error) = written {
        draft.discard(db);
        return Err(error);
    }
    get(db, subscription_id, &id)
}

/// Every glossary of the subscription, oldest first.
pub fn list(db: &dyn Database, subscription_id: &str) -> Result<Vec<Glossary>, GlossaryError> {
    let result = db.execute(
        &format!("{SELECT_GLOSSARIES} WHERE g.subscription_id = ? ORDER BY g.rowid, {DICTIONARY_ORDER}"),
        &[subscription_id.into()],
    )?;
    glossaries_from_rows(&result.rows)
}

/// One glossary of the subscription.
pub fn get(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<Glossary, GlossaryError> {
    let result = db.execute(
        &format!("{SELECT_GLOSSARIES} WHERE g.subscription_id = ? AND g.id = ? ORDER BY {DICTIONARY_ORDER}"),
        &[subscription_id.into(), id.into()],
    )?;
    glossaries_from_rows(&result.rows)?.into_iter().next().ok_or(GlossaryError::NotFound)
}

/// Deletes a glossary and everything in it: gone for every reader in one short transaction,
/// its entries removed in chunks after.
pub fn delete(services: &Services<'_>, subscription_id: &str, id: &Id) -> Result<(), GlossaryError> {
    let db = services.db;
    let removed = format!("removed:{id}");
    transaction(db, RetryPolicy::default(), |db| {
        owned(db, subscription_id, id)?;
        put_aside(db, subscription_id, &removed)?;
        db.execute(
            "UPDATE glossary_dictionaries SET glossary_id = ? WHERE glossary_id = ?",
            &[removed.as_str().into(), id.into()],
        )?;
        db.execute("DELETE FROM glossaries WHERE id = ?", &[id.into()])?;
        Ok::<(), GlossaryError>(())
    })?;
    discard(db, &removed);
    Ok(())
}

/// Renames a glossary and/or merges entries into one of its dictionaries (created if absent):
/// new sources are added, existing sources get the new target. A merge of up to a chunk of
/// entries into an existing dictionary is one transaction; a larger one (or one that creates
/// the dictionary) is written beside the dictionary (its entries copied, the merge applied) and
/// replaces it in the last short transaction, if nothing changed it meanwhile (else it is done
/// again, see the module's documentation).
pub fn update(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    name: Option<&str>,
    merge: Option<&NewDictionary>,
) -> Result<Glossary, GlossaryError> {
    let db = services.db;
    let Some(dictionary) = merge else {
        transaction(db, RetryPolicy::default(), |db| {
            owned(db, subscription_id, id)?;
            rename(db, id, name)
        })?;
        return get(db, subscription_id, id);
    };
    owned(db, subscription_id, id)?;
    for _ in 0..MERGE_ATTEMPTS {
        let existing = find_dictionary(db, id, &dictionary.pair)?;
        let merged = if existing.is_some() && dictionary.entries.len() <= WRITE_CHUNK_ROWS {
            merge_in_place(db, subscription_id, id, name, dictionary)?;
            true
        } else {
            merge_beside(services, subscription_id, id, name, dictionary)?
        };
        if merged {
            return get(db, subscription_id, id);
        }
    }
    Err(GlossaryError::Contended(dictionary.pair.clone()))
}

/// Renames a glossary, in the caller's transaction, if a name is given.
fn rename(db: &dyn Database, id: &Id, name: Option<&str>) -> Result<(), GlossaryError> {
    if let Some(name) = name {
        db.execute("UPDATE glossaries SET name = ? WHERE id = ?", &[name.into(), id.into()])?;
    }
    Ok(())
}

/// [`update`]'s merge in one transaction, into the dictionary as it is then (created if it was
/// deleted meanwhile), raising its version.
fn merge_in_place(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
    name: Option<&str>,
    dictionary: &NewDictionary,
) -> Result<(), GlossaryError> {
    transaction(db, RetryPolicy::default(), |db| {
        owned(db, subscription_id, id)?;
        rename(db, id, name)?;
        let dictionary_id = match find_dictionary(db, id, &dictionary.pair)? {
            Some(dictionary_id) => dictionary_id,
            None => add_dictionary(db, id, &dictionary.pair)?,
        };
        let next_position = next_position(db, dictionary_id)?;
        insert_entries(db, dictionary_id, next_position, &dictionary.entries, true)?;
        if update_count(db, dictionary_id)? > MAX_DICTIONARY_ENTRIES as i64 {
            return Err(GlossaryError::TooManyEntries);
        }
        db.execute(SQL_RAISE_VERSION, &[dictionary_id.into()])?;
        Ok(())
    })
}

/// One attempt at [`update`]'s merge written beside the dictionary: `false`, having changed
/// nothing, when the dictionary it read changed before the swap.
fn merge_beside(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    name: Option<&str>,
    dictionary: &NewDictionary,
) -> Result<bool, GlossaryError> {
    let db = services.db;
    sweep(services, subscription_id)?;
    let draft = Draft::begin(services, subscription_id)?;
    let written = draft.write_merged(db, id, dictionary).and_then(|merged| {
        transaction(db, RetryPolicy::default(), |db| {
            owned(db, subscription_id, id)?;
            if find_version(db, id, &dictionary.pair)? != merged.base {
                return Ok(Swap::Stale);
            }
            if merged.entry_count > MAX_DICTIONARY_ENTRIES as i64 {
                return Err(GlossaryError::TooManyEntries);
            }
            rename(db, id, name)?;
            let replaced = take_place(db, subscription_id, id, &dictionary.pair, merged.dictionary_id)?;
            draft.finish(db, id)?;
            Ok(Swap::Done(replaced))
        })
    });
    settle(db, draft, written)
}

/// Replaces the dictionary of a pair with these entries (creating it if absent); a replaced
/// dictionary keeps its place among the glossary's.
pub fn replace_dictionary(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    dictionary: &NewDictionary,
) -> Result<DictionaryInfo, GlossaryError> {
    let db = services.db;
    owned(db, subscription_id, id)?;
    sweep(services, subscription_id)?;
    let draft = Draft::begin(services, subscription_id)?;
    // Whatever is the dictionary of the pair at the swap is replaced: a change committed
    // before it is replaced with it, as if it had come first.
    let written = draft.write(db, std::slice::from_ref(dictionary)).and_then(|ids| {
        transaction(db, RetryPolicy::default(), |db| {
            owned(db, subscription_id, id)?;
            let replaced = take_place(db, subscription_id, id, &dictionary.pair, ids[0])?;
            draft.finish(db, id)?;
            Ok(Swap::Done(replaced))
        })
    });
    settle(db, draft, written)?;
    Ok(DictionaryInfo { pair: dictionary.pair.clone(), entry_count: dictionary.entries.len() as i64 })
}

/// How a draft's last transaction ended.
#[derive(Debug)]
enum Swap {
    /// The draft took its place; the key of what it replaced, if anything, to remove.
    Done(Option<String>),
    /// What the draft was based on changed meanwhile: nothing was changed.
    Stale,
}

/// After a draft's last transaction: the dictionary it replaced (if any) has its entries removed
/// in chunks; if the writing failed or was stale, the draft is discarded instead. Answers
/// whether the draft took its place.
fn settle(db: &dyn Database, draft: Draft, written: Result<Swap, GlossaryError>) -> Result<bool, GlossaryError> {
    match written {
        Ok(Swap::Done(replaced)) => {
            if let Some(replaced) = replaced {
                discard(db, &replaced);
            }
            Ok(true)
        }
        Ok(Swap::Stale) => {
            draft.discard(db);
            Ok(false)
        }
        Err(error) => {
            draft.discard(db);
            Err(error)
        }
    }
}

/// Deletes the dictionary of a pair: gone in one short transaction, its entries removed in
/// chunks after.
pub fn delete_dictionary(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
    pair: &LanguagePair,
) -> Result<(), GlossaryError> {
    let removed = transaction(db, RetryPolicy::default(), |db| {
        owned(db, subscription_id, id)?;
        let dictionary_id = find_dictionary(db, id, pair)?.ok_or(GlossaryError::DictionaryNotFound)?;
        let removed = format!("removed:{id}:{dictionary_id}");
        put_aside(db, subscription_id, &removed)?;
        db.execute(
            "UPDATE glossary_dictionaries SET glossary_id = ? WHERE id = ?",
            &[removed.as_str().into(), dictionary_id.into()],
        )?;
        Ok::<_, GlossaryError>(removed)
    })?;
    discard(db, &removed);
    Ok(())
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
    /// One of the glossaries has no dictionary for the request's pair (`EN-DE`: the pair's
    /// base languages, as the glossary would hold them).
    #[error("No dictionary found for language pair {}-{}", pair.source.to_ascii_uppercase(), pair.target.to_ascii_uppercase())]
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
     FROM glossaries AS g LEFT JOIN glossary_dictionaries AS d ON d.glossary_id = g.id \
     LEFT JOIN glossary_dictionary_positions AS p ON p.dictionary_id = d.id";

/// A glossary's dictionaries in the order they were sent: a dictionary's id, or the place it
/// took over from the one it replaced.
const DICTIONARY_ORDER: &str = "coalesce(p.position, d.id)";

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

/// A glossary's dictionary as a merge read it: the same id at the same version is the same
/// entries (`sql/0009_glossary_versions.sql`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Version {
    dictionary_id: i64,
    /// How often it was merged into in place; 0 without a row.
    changes: i64,
}

/// The id and version of a glossary's dictionary of `pair`, if it has one.
fn find_version(db: &dyn Database, glossary_id: &Id, pair: &LanguagePair) -> Result<Option<Version>, GlossaryError> {
    let result = db.execute(
        "SELECT d.id, coalesce(v.version, 0) FROM glossary_dictionaries AS d \
         LEFT JOIN glossary_dictionary_versions AS v ON v.dictionary_id = d.id \
         WHERE d.glossary_id = ? AND d.source_lang = ? AND d.target_lang = ?",
        &[glossary_id.into(), pair.source.as_str().into(), pair.target.as_str().into()],
    )?;
    let Some(row) = result.first() else { return Ok(None) };
    Ok(Some(Version { dictionary_id: row.get(0)?, changes: row.get(1)? }))
}

/// Raises the version of a dictionary (`?1`) changed in place, in the transaction that changes
/// it.
const SQL_RAISE_VERSION: &str = "INSERT INTO glossary_dictionary_versions (dictionary_id, version) VALUES (?1, 1) \
     ON CONFLICT (dictionary_id) DO UPDATE SET version = version + 1";

/// A new, empty dictionary under `owner`: a glossary's id, or a draft key.
fn insert_dictionary(db: &dyn Database, owner: &str, pair: &LanguagePair) -> Result<i64, GlossaryError> {
    let result = db.execute(
        "INSERT INTO glossary_dictionaries (glossary_id, source_lang, target_lang, entry_count) \
         VALUES (?, ?, ?, 0) RETURNING id",
        &[owner.into(), pair.source.as_str().into(), pair.target.as_str().into()],
    )?;
    let row = result.first().ok_or_else(|| DbError::Decode("INSERT … RETURNING gave no row".into()))?;
    Ok(row.get(0)?)
}

/// A new dictionary in a glossary, within [`MAX_DICTIONARIES`].
fn add_dictionary(db: &dyn Database, id: &Id, pair: &LanguagePair) -> Result<i64, GlossaryError> {
    check_room(db, id)?;
    insert_dictionary(db, &id.to_string(), pair)
}

/// Refuses a new dictionary in a glossary that holds [`MAX_DICTIONARIES`].
fn check_room(db: &dyn Database, id: &Id) -> Result<(), GlossaryError> {
    let held = db.execute("SELECT count(*) FROM glossary_dictionaries WHERE glossary_id = ?", &[id.into()])?;
    if count(&held)? >= MAX_DICTIONARIES as i64 { Err(GlossaryError::TooManyDictionaries) } else { Ok(()) }
}

/// The position after a dictionary's last entry.
fn next_position(db: &dyn Database, dictionary_id: i64) -> Result<i64, GlossaryError> {
    let last =
        db.execute("SELECT max(position) FROM glossary_entries WHERE dictionary_id = ?", &[dictionary_id.into()])?;
    let last: Option<i64> = last.first().map(|row| row.get(0)).transpose()?.flatten();
    Ok(last.map_or(0, |last| last + 1))
}

/// In a transaction that makes `new_id` (a draft) the glossary's dictionary of `pair`: puts the
/// dictionary it replaces (the glossary's now) aside and gives its place to `new_id`; without
/// one, checks there is room for another. Answers the key of what was put aside, to remove once
/// committed.
fn take_place(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
    pair: &LanguagePair,
    new_id: i64,
) -> Result<Option<String>, GlossaryError> {
    let Some(old_id) = find_dictionary(db, id, pair)? else {
        check_room(db, id)?;
        return Ok(None);
    };
    let removed = format!("removed:{id}:{old_id}");
    put_aside(db, subscription_id, &removed)?;
    db.execute(
        "INSERT INTO glossary_dictionary_positions (dictionary_id, position) \
         SELECT ?1, coalesce((SELECT position FROM glossary_dictionary_positions WHERE dictionary_id = ?2), ?2)",
        &[new_id.into(), old_id.into()],
    )?;
    db.execute(
        "UPDATE glossary_dictionaries SET glossary_id = ? WHERE id = ?",
        &[removed.as_str().into(), old_id.into()],
    )?;
    Ok(Some(removed))
}

/// Records `key` as a draft to remove (`started_at` 0), in the caller's transaction.
fn put_aside(db: &dyn Database, subscription_id: &str, key: &str) -> Result<(), GlossaryError> {
    db.execute(
        "INSERT OR REPLACE INTO glossary_drafts (draft_key, subscription_id, started_at) VALUES (?, ?, 0)",
        &[key.into(), subscription_id.into()],
    )?;
    Ok(())
}

/// Refuses a new glossary when the subscription holds [`MAX_GLOSSARIES`].
fn check_quota(db: &dyn Database, subscription_id: &str) -> Result<(), GlossaryError> {
    let held = db.execute("SELECT count(*) FROM glossaries WHERE subscription_id = ?", &[subscription_id.into()])?;
    if count(&held)? >= MAX_GLOSSARIES { Err(GlossaryError::TooMany) } else { Ok(()) }
}

/// Dictionaries being written, under a key no glossary has.
struct Draft {
    key: String,
}

/// A merged dictionary written under a draft.
struct Merged {
    /// The dictionary it was based on, as read before its entries were copied.
    base: Option<Version>,
    /// The draft's dictionary.
    dictionary_id: i64,
    entry_count: i64,
}

impl Draft {
    /// Registers a new draft of the subscription.
    fn begin(services: &Services<'_>, subscription_id: &str) -> Result<Draft, GlossaryError> {
        let draft = Draft { key: format!("draft:{}", Id::random(services.random)) };
        let now = unix_ms(services);
        transaction(services.db, RetryPolicy::default(), |db| {
            db.execute(
                "INSERT INTO glossary_drafts (draft_key, subscription_id, started_at) VALUES (?, ?, ?)",
                &[draft.key.as_str().into(), subscription_id.into(), now.into()],
            )
        })?;
        Ok(draft)
    }

    /// Writes each dictionary under the draft, a chunk of entries per transaction; answers
    /// their ids, in order.
    fn write(&self, db: &dyn Database, dictionaries: &[NewDictionary]) -> Result<Vec<i64>, GlossaryError> {
        let mut ids = Vec::with_capacity(dictionaries.len());
        for dictionary in dictionaries {
            let dictionary_id =
                transaction(db, RetryPolicy::default(), |db| insert_dictionary(db, &self.key, &dictionary.pair))?;
            self.insert_chunks(db, dictionary_id, 0, &dictionary.entries, false)?;
            transaction(db, RetryPolicy::default(), |db| update_count(db, dictionary_id))?;
            ids.push(dictionary_id);
        }
        Ok(ids)
    }

    /// Writes under the draft the glossary's dictionary of `merge`'s pair (if any) with
    /// `merge`'s entries merged in: its entries copied a chunk at a time, then the merge's.
    ///
    /// The dictionary is read in the transaction that creates the draft's, so its id is below
    /// the draft's: SQLite gives a new row an id above the largest, so while the draft exists no
    /// other dictionary can be given the id read, and the same id and version at the swap are
    /// the same entries.
    fn write_merged(&self, db: &dyn Database, id: &Id, merge: &NewDictionary) -> Result<Merged, GlossaryError> {
        let (base, dictionary_id, next) = transaction(db, RetryPolicy::default(), |db| {
            let base = find_version(db, id, &merge.pair)?;
            let next = match base {
                Some(base) => next_position(db, base.dictionary_id)?,
                None => 0,
            };
            Ok::<_, GlossaryError>((base, insert_dictionary(db, &self.key, &merge.pair)?, next))
        })?;
        if let Some(base) = base {
            let chunk = WRITE_CHUNK_ROWS as i64;
            for start in (0..next).step_by(WRITE_CHUNK_ROWS) {
                write_chunk(db, |db| {
                    db.execute(
                        "INSERT INTO glossary_entries (dictionary_id, position, source, target, first_key) \
                         SELECT ?1, position, source, target, first_key FROM glossary_entries \
                         WHERE dictionary_id = ?2 AND position >= ?3 AND position < ?3 + ?4",
                        &[dictionary_id.into(), base.dictionary_id.into(), start.into(), chunk.into()],
                    )
                })?;
            }
        }
        self.insert_chunks(db, dictionary_id, next, &merge.entries, true)?;
        let entry_count = transaction(db, RetryPolicy::default(), |db| update_count(db, dictionary_id))?;
        Ok(Merged { base, dictionary_id, entry_count })
    }

    fn insert_chunks(
        &self,
        db: &dyn Database,
        dictionary_id: i64,
        first_position: i64,
        entries: &[Entry],
        merge: bool,
    ) -> Result<(), GlossaryError> {
        for (index, chunk) in entries.chunks(WRITE_CHUNK_ROWS).enumerate() {
            let position = first_position + (index * WRITE_CHUNK_ROWS) as i64;
            write_chunk(db, |db| insert_entries(db, dictionary_id, position, chunk, merge))?;
        }
        Ok(())
    }

    /// In the caller's last transaction: the draft's dictionaries become the glossary's.
    fn finish(&self, db: &dyn Database, id: &Id) -> Result<(), GlossaryError> {
        db.execute(
            "UPDATE glossary_dictionaries SET glossary_id = ? WHERE glossary_id = ?",
            &[id.into(), self.key.as_str().into()],
        )?;
        db.execute("DELETE FROM glossary_drafts WHERE draft_key = ?", &[self.key.as_str().into()])?;
        Ok(())
    }

    /// Removes what the draft holds (after a failed write).
    fn discard(&self, db: &dyn Database) {
        discard(db, &self.key);
    }
}

/// Removes the subscription's drafts whose instance died, and dictionaries put aside whose
/// removal did not finish.
fn sweep(services: &Services<'_>, subscription_id: &str) -> Result<(), GlossaryError> {
    let before = unix_ms(services) - STALE_DRAFT_MS;
    let stale = services.db.execute(
        "SELECT draft_key FROM glossary_drafts WHERE subscription_id = ? AND started_at < ?",
        &[subscription_id.into(), before.into()],
    )?;
    for row in &stale.rows {
        let key: String = row.get(0)?;
        discard(services.db, &key);
    }
    Ok(())
}

/// Deletes the dictionaries under a draft key, a chunk of entries per transaction, then the
/// draft. A failure is logged and left for the subscription's next sweep.
fn discard(db: &dyn Database, key: &str) {
    if let Err(error) = try_discard(db, key) {
        eprintln!("glossary store: removing {key} failed, left for a later write: {error}");
    }
}

fn try_discard(db: &dyn Database, key: &str) -> Result<(), GlossaryError> {
    let dictionaries = db.execute("SELECT id FROM glossary_dictionaries WHERE glossary_id = ?", &[key.into()])?;
    for row in &dictionaries.rows {
        let dictionary_id: i64 = row.get(0)?;
        loop {
            let deleted = write_chunk(db, |db| {
                db.execute(
                    "DELETE FROM glossary_entries WHERE dictionary_id = ?1 AND position IN \
                     (SELECT position FROM glossary_entries WHERE dictionary_id = ?1 LIMIT ?2)",
                    &[dictionary_id.into(), (WRITE_CHUNK_ROWS as i64).into()],
                )?;
                db.changes()
            })?;
            if deleted == 0 {
                break;
            }
        }
    }
    transaction(db, RetryPolicy::default(), |db| {
        db.execute(
            "DELETE FROM glossary_dictionary_positions WHERE dictionary_id IN \
             (SELECT id FROM glossary_dictionaries WHERE glossary_id = ?)",
            &[key.into()],
        )?;
        db.execute(
            "DELETE FROM glossary_dictionary_versions WHERE dictionary_id IN \
             (SELECT id FROM glossary_dictionaries WHERE glossary_id = ?)",
            &[key.into()],
        )?;
        db.execute("DELETE FROM glossary_dictionaries WHERE glossary_id = ?", &[key.into()])?;
        db.execute("DELETE FROM glossary_drafts WHERE draft_key = ?", &[key.into()])?;
        Ok::<(), GlossaryError>(())
    })
}

fn unix_ms(services: &Services<'_>) -> i64 {
    services.clock.now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as i64)
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
