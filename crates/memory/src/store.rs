//! Translation memories in the database (`sql/0011_memories.sql`).
//!
//! Every function is scoped by the subscription: another subscription's memory is
//! [`MemoryError::NotFound`], like one that does not exist. Segments travel to SQLite as one
//! JSON array per statement (read back with `json_each`), so a chunk of segments is a few host
//! calls.
//!
//! A memory's segments live in a segment set the memory names. No write holds the database for
//! long, so one tenant's large import never makes another's requests wait more than a chunk's
//! time: a TMX import or replacement fills a new set in transactions of
//! [`WRITE_CHUNK_SEGMENTS`], invisible to every read, and the last short transaction points the
//! memory at it; the set it replaced is removed in chunks after the change is visible. A failed
//! write removes its draft; a draft left by an instance that died is removed by the
//! subscription's next large write. Readers that make more than one query (lookups, listings,
//! exports) read in one transaction, so a swap never shows them half of either set.
//!
//! Concurrent changes never lose one another. Adding up to a chunk of segments, and deleting a
//! segment, is one transaction on the memory's set, which raises the memory's version. A larger
//! append is written beside the set (its segments copied, the new ones added) and takes its place
//! only if the memory still names the same set at the same version; if not, the draft is
//! discarded and the append done again, up to [`APPEND_ATTEMPTS`] times in all; then it is
//! refused ([`MemoryError::Contended`]) having changed nothing. A replacement takes the place of
//! whatever set the memory names when it is done.
//!
//! A set holds each (target language, source, target) once: adding a segment the memory holds
//! already changes nothing and answers the stored segment.

use std::collections::{HashMap, HashSet};
use std::time::UNIX_EPOCH;

use catalogue::Language;
use memory_match::MemoryMatch;
use platform::db::{RetryPolicy, TransactionError, transaction, write_chunk};
use platform::{Database, DbError, Id, QueryResult, Random, Row, Services, Value};

use crate::limits::{
    DELETE_CHUNK_TOKENS, FUZZY_CANDIDATES, FUZZY_POSTINGS, FUZZY_QUERY_TOKENS, MAX_MEMORIES, MAX_MEMORY_SEGMENTS,
    MAX_MEMORY_TEXT_BYTES, WRITE_CHUNK_SEGMENTS,
};
use crate::listing::{BATCH_ROWS, Cursor, MAX_SCANNED_ROWS, SegmentQuery, source_segment_id};
use crate::request::{NewMemory, NewSegment, Page, code_of};

/// After this long, a draft is an import whose instance died (milliseconds).
const STALE_DRAFT_MS: i64 = 15 * 60 * 1000;

/// How often a large append is tried, the first time included, when other requests change the
/// memory's segments meanwhile.
pub const APPEND_ATTEMPTS: usize = 3;

/// A translation memory as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslationMemory {
    pub id: Id,
    pub name: String,
    /// A base language.
    pub source: &'static Language,
    /// In the order given when it was created.
    pub targets: Vec<&'static Language>,
    pub segment_count: i64,
}

/// A stored segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub id: Id,
    pub target_language: &'static Language,
    pub source: String,
    pub target: String,
}

/// What `POST …/segments` did: the memory as it is now, and each segment sent, in order, as
/// stored (one the memory held already keeps its id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    pub memory: TranslationMemory,
    pub segments: Vec<Segment>,
}

/// Whether an import adds to a memory's segments or replaces them all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportMode {
    Append,
    Replace,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    pub memory: TranslationMemory,
    /// Segments the memory did not hold before.
    pub added: usize,
    /// Segments it held already, or sent more than once.
    pub duplicates: usize,
}

/// Why a translation memory operation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    #[error("Translation memory not found.")]
    NotFound,
    #[error("Segment not found.")]
    SegmentNotFound,
    #[error("Quota exceeded. The maximum number of translation memories ({MAX_MEMORIES}) has been reached.")]
    TooMany,
    #[error("A translation memory holds at most {MAX_MEMORY_SEGMENTS} segments; these segments would make it {0}.")]
    TooManySegments(i64),
    #[error(
        "A translation memory holds at most {MAX_MEMORY_TEXT_BYTES} bytes (64 MiB) of text in its sources and targets; these segments would make it {0}."
    )]
    TooMuchText(i64),
    /// Other requests changed the memory's segments during every attempt of a large append;
    /// nothing was changed.
    #[error(
        "The translation memory was changed by other requests while these segments were being added. Nothing was changed; please try again."
    )]
    Contended,
    #[error("translation memory store: {0}")]
    Store(#[from] DbError),
}

impl TransactionError for MemoryError {
    fn is_busy(&self) -> bool {
        matches!(self, MemoryError::Store(DbError::Busy(_)))
    }
}

/// Creates an empty memory.
pub fn create(
    services: &Services<'_>,
    subscription_id: &str,
    new: &NewMemory,
) -> Result<TranslationMemory, MemoryError> {
    let id = Id::random(services.random);
    let targets: Vec<String> = new.targets.iter().map(|language| code_of(language)).collect();
    let targets = serde_json::to_string(&targets).map_err(|error| DbError::Other(error.to_string()))?;
    transaction(services.db, RetryPolicy::default(), |db| {
        let held = db.execute(
            "SELECT count(*) FROM translation_memories WHERE subscription_id = ?",
            &[subscription_id.into()],
        )?;
        if count(&held)? >= MAX_MEMORIES {
            return Err(MemoryError::TooMany);
        }
        let set_id = new_set(db, subscription_id, &id, 1)?;
        db.execute(
            "INSERT INTO translation_memories (id, subscription_id, name, source_lang, target_langs, set_id) \
             VALUES (?, ?, ?, ?, ?, ?)",
            &[
                (&id).into(),
                subscription_id.into(),
                new.name.as_str().into(),
                code_of(new.source).into(),
                targets.as_str().into(),
                set_id.into(),
            ],
        )?;
        Ok(())
    })?;
    get(services.db, subscription_id, &id)
}

/// One page of the subscription's memories, oldest first, and how many it holds in all.
pub fn list(
    db: &dyn Database,
    subscription_id: &str,
    page: Page,
) -> Result<(Vec<TranslationMemory>, i64), MemoryError> {
    snapshot(db, |db| {
        let total = count(&db.execute(
            "SELECT count(*) FROM translation_memories WHERE subscription_id = ?",
            &[subscription_id.into()],
        )?)?;
        let result = db.execute(
            &format!("{SQL_SELECT_MEMORIES} WHERE m.subscription_id = ? ORDER BY m.rowid LIMIT ? OFFSET ?"),
            &[subscription_id.into(), page.limit.into(), page.offset.into()],
        )?;
        let memories = result.rows.iter().map(memory_from_row).collect::<Result<Vec<_>, _>>()?;
        Ok((memories, total))
    })
}

/// One memory of the subscription.
pub fn get(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<TranslationMemory, MemoryError> {
    find(db, subscription_id, id)?.ok_or(MemoryError::NotFound)
}

/// One memory of the subscription, if it has it.
pub(crate) fn find(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
) -> Result<Option<TranslationMemory>, MemoryError> {
    let result = db.execute(
        &format!("{SQL_SELECT_MEMORIES} WHERE m.id = ? AND m.subscription_id = ?"),
        &[id.into(), subscription_id.into()],
    )?;
    result.first().map(memory_from_row).transpose()
}

/// Renames a memory.
pub fn rename(db: &dyn Database, subscription_id: &str, id: &Id, name: &str) -> Result<TranslationMemory, MemoryError> {
    transaction(db, RetryPolicy::default(), |db| {
        db.execute(
            "UPDATE translation_memories SET name = ? WHERE id = ? AND subscription_id = ?",
            &[name.into(), id.into(), subscription_id.into()],
        )?;
        if db.changes()? == 0 { Err(MemoryError::NotFound) } else { Ok(()) }
    })?;
    get(db, subscription_id, id)
}

/// Deletes a memory and its segments: gone for every reader in one short transaction, its
/// segments removed in chunks after.
pub fn delete(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<(), MemoryError> {
    let set_id = transaction(db, RetryPolicy::default(), |db| {
        let live = owned(db, subscription_id, id)?;
        db.execute("DELETE FROM translation_memories WHERE id = ?", &[id.into()])?;
        put_aside(db, live.set_id)?;
        Ok::<_, MemoryError>(live.set_id)
    })?;
    discard(db, set_id);
    Ok(())
}

/// Adds up to [`WRITE_CHUNK_SEGMENTS`] segments (checked against the memory's targets by the
/// caller) in one transaction. A segment the memory holds already is answered as stored.
pub fn add_segments(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    segments: &[NewSegment],
) -> Result<Added, MemoryError> {
    debug_assert!(segments.len() <= WRITE_CHUNK_SEGMENTS);
    let (prepared, sent) = prepare_distinct(services.random, segments);
    let stored = transaction(services.db, RetryPolicy::default(), |db| {
        let live = owned(db, subscription_id, id)?;
        let inserted = insert(db, live.set_id, &prepared, Dedupe::Check)?;
        check_size(db, live.set_id)?;
        db.execute(SQL_RAISE_VERSION, &[id.into()])?;
        // The ids of the segments the memory held already.
        let mut ids: Vec<String> = Vec::with_capacity(prepared.len());
        for segment in &prepared {
            if inserted.contains(&segment.segment_id) {
                ids.push(segment.segment_id.clone());
            } else {
                let result = db.execute(
                    "SELECT segment_id FROM memory_segments \
                     WHERE set_id = ? AND source_key = ? AND target_lang = ? AND source = ? AND target = ?",
                    &[
                        live.set_id.into(),
                        segment.key.into(),
                        segment.target_lang.as_str().into(),
                        segment.source.as_str().into(),
                        segment.target.as_str().into(),
                    ],
                )?;
                let row = result.first().ok_or_else(|| DbError::Decode("a duplicate segment vanished".into()))?;
                ids.push(row.get(0)?);
            }
        }
        Ok::<_, MemoryError>(ids)
    })?;
    let segments = sent
        .iter()
        .zip(segments)
        .map(|(&index, segment)| {
            Ok(Segment {
                id: parse_id(&stored[index])?,
                target_language: segment.target_language,
                source: segment.source.clone(),
                target: segment.target.clone(),
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    Ok(Added { memory: get(services.db, subscription_id, id)?, segments })
}

/// A source text of a memory and its translations (see [`crate::listing`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceSegment {
    pub id: Id,
    pub source: String,
    /// By target language, then in the order added.
    pub targets: Vec<Segment>,
}

/// One page of the segment listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentPage {
    pub segments: Vec<SourceSegment>,
    /// Where the next page starts, if there may be one.
    pub next: Option<Cursor>,
    /// The segments (translations) the memory holds.
    pub segment_count: i64,
}

/// One page of a memory's source segments (see [`crate::listing`]), read in one read
/// transaction: [`BATCH_ROWS`] rows of the key index at a time, each key's rows grouped by source
/// text, until the page is full (and one more source segment is known to follow) or the memory
/// ends, or a filtered listing has read [`MAX_SCANNED_ROWS`] rows.
pub fn source_segments(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
    query: &SegmentQuery,
) -> Result<SegmentPage, MemoryError> {
    snapshot(db, |db| {
        let live = owned(db, subscription_id, id)?;
        let page_size = query.page_size as usize;
        let mut position = query.after.unwrap_or(Cursor::START);
        let mut segments = Vec::new();
        let mut scanned = 0;
        loop {
            let rows = db.execute(SQL_KEYS_FROM, &[live.set_id.into(), position.key.into(), BATCH_ROWS.into()])?;
            let mut rows = rows.rows.iter().map(keyed_row).collect::<Result<Vec<_>, _>>()?;
            scanned += rows.len() as i64;
            let Some(last_key) = rows.last().map(|row| row.0) else {
                return Ok(SegmentPage { segments, next: None, segment_count: live.segment_count });
            };
            // A full batch may end inside a key: its last key is read again by the next batch,
            // or, when the batch holds nothing else, whole here.
            let full = rows.len() as i64 == BATCH_ROWS;
            let whole_key = full && rows[0].0 == last_key;
            if whole_key {
                let all = db.execute(SQL_KEY, &[live.set_id.into(), last_key.into()])?;
                rows = all.rows.iter().map(keyed_row).collect::<Result<Vec<_>, _>>()?;
            } else if full {
                rows.retain(|row| row.0 != last_key);
            }
            for (key, group) in source_groups(id, rows)? {
                if !position.precedes(key, group.order) {
                    continue;
                }
                let wanted = query.filter.as_ref().is_none_or(|filter| {
                    filter.matches(&group.segment.source)
                        || group.segment.targets.iter().any(|target| filter.matches(&target.target))
                });
                if wanted && segments.len() == page_size {
                    return Ok(SegmentPage { segments, next: Some(position), segment_count: live.segment_count });
                }
                position = Cursor { key, after: Some(group.order) };
                if wanted {
                    segments.push(group.segment);
                }
            }
            match (full, whole_key) {
                (false, _) => return Ok(SegmentPage { segments, next: None, segment_count: live.segment_count }),
                (true, true) => match last_key.checked_add(1) {
                    Some(key) => position = Cursor { key, after: None },
                    None => return Ok(SegmentPage { segments, next: None, segment_count: live.segment_count }),
                },
                // The rows of the last key were dropped: the next batch starts with them.
                (true, false) => position = Cursor { key: last_key, after: None },
            }
            if query.filter.is_some() && scanned >= MAX_SCANNED_ROWS {
                return Ok(SegmentPage { segments, next: Some(position), segment_count: live.segment_count });
            }
        }
    })
}

/// A source segment with its order among its key's (see [`source_segment_id`]).
struct Group {
    order: u64,
    segment: SourceSegment,
}

/// Rows of the key index (key, rowid, segment id, target language, source, target), in key
/// order (then target language and rowid), as source segments in listing order: by key, then by
/// order. Each keeps its targets in the rows' order.
fn source_groups(memory: &Id, rows: Vec<KeyedRow>) -> Result<Vec<(i64, Group)>, MemoryError> {
    let mut groups: Vec<(i64, Group)> = Vec::new();
    let mut by_source: HashMap<(i64, String), usize> = HashMap::new();
    for (key, _, segment_id, target_lang, source, target) in rows {
        let segment = Segment { id: parse_id(&segment_id)?, target_language: language(&target_lang)?, source, target };
        let index = match by_source.get(&(key, segment.source.clone())) {
            Some(&index) => index,
            None => {
                let (id, order) = source_segment_id(memory, &segment.source);
                let group =
                    Group { order, segment: SourceSegment { id, source: segment.source.clone(), targets: Vec::new() } };
                by_source.insert((key, segment.source.clone()), groups.len());
                groups.push((key, group));
                groups.len() - 1
            }
        };
        groups[index].1.segment.targets.push(segment);
    }
    groups.sort_by_key(|(key, group)| (*key, group.order));
    Ok(groups)
}

/// A row of [`SQL_KEYS_FROM`] and [`SQL_KEY`].
type KeyedRow = (i64, i64, String, String, String, String);

fn keyed_row(row: &Row) -> Result<KeyedRow, DbError> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?))
}

/// The segments of a set (`?1`) from a source key (`?2`) on, at most `?3`, in key order (then
/// rowid): a range of `memory_segments_by_key`, no sort.
const SQL_KEYS_FROM: &str = "SELECT source_key, id, segment_id, target_lang, source, target \
     FROM memory_segments INDEXED BY memory_segments_by_key \
     WHERE set_id = ?1 AND source_key >= ?2 ORDER BY source_key, target_lang, id LIMIT ?3";

/// Every segment of a set (`?1`) with a source key (`?2`).
const SQL_KEY: &str = "SELECT source_key, id, segment_id, target_lang, source, target \
     FROM memory_segments INDEXED BY memory_segments_by_key \
     WHERE set_id = ?1 AND source_key = ?2 ORDER BY target_lang, id";

/// Deletes one segment, in one transaction.
pub fn delete_segment(db: &dyn Database, subscription_id: &str, id: &Id, segment_id: &Id) -> Result<(), MemoryError> {
    transaction(db, RetryPolicy::default(), |db| {
        let live = owned(db, subscription_id, id)?;
        let result = db.execute(
            "SELECT id, target_lang, source, target, token_count FROM memory_segments WHERE set_id = ? AND segment_id = ?",
            &[live.set_id.into(), segment_id.into()],
        )?;
        let row = result.first().ok_or(MemoryError::SegmentNotFound)?;
        let (row_id, target_lang, source, target, token_count): (i64, String, String, String, i64) =
            (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?);
        let tokens = json(&token_hashes(&source))?;
        let in_set: [Value; 3] = [live.set_id.into(), target_lang.as_str().into(), tokens];
        let mut of_segment = in_set.to_vec();
        of_segment.extend([token_count.into(), row_id.into()]);
        db.execute(
            "DELETE FROM memory_tokens WHERE set_id = ?1 AND target_lang = ?2 \
             AND token IN (SELECT value FROM json_each(?3)) AND token_count = ?4 AND segment = ?5",
            &of_segment,
        )?;
        db.execute(
            "UPDATE memory_token_counts SET segments = segments - 1 \
             WHERE set_id = ?1 AND target_lang = ?2 AND token IN (SELECT value FROM json_each(?3))",
            &in_set,
        )?;
        db.execute(
            "DELETE FROM memory_token_counts \
             WHERE set_id = ?1 AND target_lang = ?2 AND token IN (SELECT value FROM json_each(?3)) AND segments <= 0",
            &in_set,
        )?;
        db.execute("DELETE FROM memory_segments WHERE id = ?", &[row_id.into()])?;
        let bytes = (source.len() + target.len()) as i64;
        db.execute(
            "UPDATE memory_segment_sets SET segment_count = segment_count - 1, text_bytes = text_bytes - ? WHERE id = ?",
            &[bytes.into(), live.set_id.into()],
        )?;
        db.execute(SQL_RAISE_VERSION, &[id.into()])?;
        Ok(())
    })
}

/// Imports segments (checked against the memory's targets by the caller): appended to the
/// memory's, or replacing them all. Up to a chunk appended is one transaction; more is written
/// beside the memory's set, and a replacement into a new set, which takes the set's place in the
/// last short transaction (see the module's documentation).
pub fn import(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    segments: &[NewSegment],
    mode: ImportMode,
) -> Result<Imported, MemoryError> {
    let db = services.db;
    let (prepared, _) = prepare_distinct(services.random, segments);
    if prepared.len() as i64 > MAX_MEMORY_SEGMENTS {
        return Err(MemoryError::TooManySegments(prepared.len() as i64));
    }
    let added = match mode {
        ImportMode::Append if prepared.len() <= WRITE_CHUNK_SEGMENTS => {
            transaction(db, RetryPolicy::default(), |db| {
                let live = owned(db, subscription_id, id)?;
                let inserted = insert(db, live.set_id, &prepared, Dedupe::Check)?;
                check_size(db, live.set_id)?;
                db.execute(SQL_RAISE_VERSION, &[id.into()])?;
                Ok::<_, MemoryError>(inserted.len())
            })?
        }
        ImportMode::Append => {
            owned(db, subscription_id, id)?;
            let mut added = None;
            for _ in 0..APPEND_ATTEMPTS {
                if let Some(inserted) = append_beside(services, subscription_id, id, &prepared)? {
                    added = Some(inserted);
                    break;
                }
            }
            added.ok_or(MemoryError::Contended)?
        }
        ImportMode::Replace => replace(services, subscription_id, id, &prepared)?,
    };
    let memory = get(db, subscription_id, id)?;
    Ok(Imported { memory, added, duplicates: segments.len() - added })
}

/// One attempt at a large append: the memory's set copied into a draft with the new segments
/// added, which takes the set's place if the memory still names it at the same version. Answers
/// how many segments were new, or `None`, having changed nothing, when the set changed meanwhile.
fn append_beside(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    prepared: &[Prepared],
) -> Result<Option<usize>, MemoryError> {
    let db = services.db;
    sweep(services, subscription_id)?;
    let now = unix_ms(services);
    let (base, draft) = transaction(db, RetryPolicy::default(), |db| {
        let live = owned(db, subscription_id, id)?;
        Ok::<_, MemoryError>((live, new_set(db, subscription_id, id, now)?))
    })?;
    let written = (|| {
        let mut after: Option<(String, i64)> = None;
        loop {
            let rows = page_after(db, base.set_id, after.as_ref())?;
            let Some(last) = rows.last() else { break };
            after = Some((last.target_lang.clone(), last.id));
            let copies: Vec<Prepared> = rows.into_iter().map(Prepared::copy).collect();
            write_chunk(db, |db| {
                insert(db, draft, &copies, Dedupe::Distinct)?;
                check_size(db, draft)
            })?;
        }
        let mut added = 0;
        for chunk in prepared.chunks(WRITE_CHUNK_SEGMENTS) {
            added += write_chunk(db, |db| {
                let inserted = insert(db, draft, chunk, Dedupe::Check)?;
                check_size(db, draft)?;
                Ok::<_, MemoryError>(inserted.len())
            })?;
        }
        transaction(db, RetryPolicy::default(), |db| {
            let live = owned(db, subscription_id, id)?;
            if live.set_id != base.set_id || live.version != base.version {
                return Ok(None);
            }
            swap(db, id, live.set_id, draft)?;
            Ok(Some(added))
        })
    })();
    match written {
        Ok(Some(added)) => {
            discard(db, base.set_id);
            Ok(Some(added))
        }
        Ok(None) => {
            discard(db, draft);
            Ok(None)
        }
        Err(error) => {
            discard(db, draft);
            Err(error)
        }
    }
}

/// A replacement: the segments written into a new set, which takes the place of whatever set the
/// memory names when it is done. Answers how many segments it holds.
fn replace(
    services: &Services<'_>,
    subscription_id: &str,
    id: &Id,
    prepared: &[Prepared],
) -> Result<usize, MemoryError> {
    let db = services.db;
    owned(db, subscription_id, id)?;
    let bytes: i64 = prepared.iter().map(Prepared::bytes).sum();
    if bytes > MAX_MEMORY_TEXT_BYTES {
        return Err(MemoryError::TooMuchText(bytes));
    }
    sweep(services, subscription_id)?;
    let now = unix_ms(services);
    let draft = transaction(db, RetryPolicy::default(), |db| new_set(db, subscription_id, id, now))?;
    let written = (|| {
        for chunk in prepared.chunks(WRITE_CHUNK_SEGMENTS) {
            write_chunk(db, |db| insert(db, draft, chunk, Dedupe::Distinct).map(|_| ()))?;
        }
        transaction(db, RetryPolicy::default(), |db| {
            let live = owned(db, subscription_id, id)?;
            swap(db, id, live.set_id, draft)?;
            Ok::<_, MemoryError>(live.set_id)
        })
    })();
    match written {
        Ok(replaced) => {
            discard(db, replaced);
            Ok(prepared.len())
        }
        Err(error) => {
            discard(db, draft);
            Err(error)
        }
    }
}

/// In the last transaction of a large write: the memory names `draft` instead of `replaced`,
/// which is put aside.
fn swap(db: &dyn Database, id: &Id, replaced: i64, draft: i64) -> Result<(), MemoryError> {
    db.execute(
        "UPDATE translation_memories SET set_id = ?, version = version + 1 WHERE id = ?",
        &[draft.into(), id.into()],
    )?;
    put_aside(db, replaced)
}

/// Every segment of a memory, by target language and then in the order added, read in pages
/// within one read transaction (for the TMX export).
pub fn export(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
) -> Result<(TranslationMemory, Vec<Segment>), MemoryError> {
    export_with_state(db, subscription_id, id).map(|(memory, segments, _)| (memory, segments))
}

/// [`export`], with the memory's [`state`] the segments are of.
pub fn export_with_state(
    db: &dyn Database,
    subscription_id: &str,
    id: &Id,
) -> Result<(TranslationMemory, Vec<Segment>, State), MemoryError> {
    snapshot(db, |db| {
        let memory = get(db, subscription_id, id)?;
        let live = owned(db, subscription_id, id)?;
        let mut segments = Vec::with_capacity(live.segment_count.max(0) as usize);
        let mut after: Option<(String, i64)> = None;
        loop {
            let rows = page_after(db, live.set_id, after.as_ref())?;
            let Some(last) = rows.last() else { break };
            after = Some((last.target_lang.clone(), last.id));
            for row in rows {
                segments.push(Segment {
                    id: parse_id(&row.segment_id)?,
                    target_language: language(&row.target_lang)?,
                    source: row.source,
                    target: row.target,
                });
            }
        }
        Ok((memory, segments, (live.set_id, live.version)))
    })
}

/// What a memory's segments are: its set and the set's version. Any change of the segments
/// changes it (a rename does not).
pub type State = (i64, i64);

/// The memory's [`State`].
pub fn state(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<State, MemoryError> {
    let live = owned(db, subscription_id, id)?;
    Ok((live.set_id, live.version))
}

/// For each segment, the best match in the memory for `target` (see
/// [`memory_match::MemorySource::lookup`]): the exact matches by their keys, in one query; the
/// others, when `fuzzy`, through their rarest tokens, [`FUZZY_CANDIDATES`] candidates each at
/// most, scored with [`memory_match::score`]. Where scores tie, the segment added last wins.
/// A segment with no words (empty after normalisation) matches nothing. Candidates are the
/// stored segments of a length that could reach the threshold sharing the most of the segment's
/// rarest tokens: a stored segment that shares with it only words most of the memory holds may
/// be missed (the cost of a lookup that reads a few index ranges, never the whole memory).
///
/// `live` is the memory's set as [`live`] read it earlier in the request. Exact matches take one
/// statement, so they need no transaction of their own: a replacement swapped in meanwhile
/// leaves the translation as it would have been a moment before. The fuzzy search reads several
/// statements, in one read transaction.
pub(crate) fn lookup(
    db: &dyn Database,
    live: &LiveMemory,
    target: &'static Language,
    segments: &[String],
    threshold: u8,
    fuzzy: bool,
) -> Result<Vec<Option<MemoryMatch>>, MemoryError> {
    let search = |db: &dyn Database| -> Result<Vec<Option<MemoryMatch>>, MemoryError> {
        let mut found: Vec<Option<MemoryMatch>> = vec![None; segments.len()];
        let Some(lang) = held_target(&live.targets, target) else { return Ok(found) };
        let normalised: Vec<String> = segments.iter().map(|segment| memory_match::normalise(segment)).collect();

        // Exact matches: every key in one query.
        let keys: Vec<Option<i64>> = normalised
            .iter()
            .zip(segments)
            .map(|(normal, segment)| (!normal.is_empty()).then(|| memory_match::exact_key(segment)))
            .collect();
        let distinct: HashSet<i64> = keys.iter().flatten().copied().collect();
        if !distinct.is_empty() {
            let distinct: Vec<i64> = distinct.into_iter().collect();
            let rows = db.execute(SQL_EXACT, &[json(&distinct)?, live.set_id.into(), lang.as_str().into()])?;
            let mut by_key: HashMap<i64, Vec<(i64, String, String)>> = HashMap::new();
            for row in &rows.rows {
                by_key.entry(row.get(0)?).or_default().push((row.get(1)?, row.get(2)?, row.get(3)?));
            }
            for (index, key) in keys.iter().enumerate() {
                let Some(candidates) = key.and_then(|key| by_key.get(&key)) else { continue };
                // The key is a hash: the normalised sources must be equal. The same text wins
                // over another spelling of it, then the segment added last.
                let best = candidates
                    .iter()
                    .filter(|(_, source, _)| memory_match::normalise(source) == normalised[index])
                    .max_by_key(|(row, source, _)| (*source == segments[index], *row));
                if let Some((_, source, target)) = best {
                    found[index] = Some(MemoryMatch { source: source.clone(), target: target.clone(), score: 100 });
                }
            }
        }
        if !fuzzy || threshold >= 100 {
            return Ok(found);
        }

        // Fuzzy matches for the others, through their rarest tokens.
        let missing: Vec<usize> =
            (0..segments.len()).filter(|&index| found[index].is_none() && !normalised[index].is_empty()).collect();
        if missing.is_empty() {
            return Ok(found);
        }
        let tokens: HashMap<usize, (usize, Vec<i64>)> = missing
            .iter()
            .map(|&index| {
                let tokens = memory_match::tokens(&segments[index]);
                (index, (tokens.len(), distinct_hashes(&tokens)))
            })
            .collect();
        let all: HashSet<i64> = tokens.values().flat_map(|(_, hashes)| hashes.iter().copied()).collect();
        let all: Vec<i64> = all.into_iter().collect();
        let counts = db.execute(SQL_TOKEN_COUNTS, &[live.set_id.into(), lang.as_str().into(), json(&all)?])?;
        let mut frequency: HashMap<i64, i64> = HashMap::new();
        for row in &counts.rows {
            frequency.insert(row.get(0)?, row.get(1)?);
        }
        let mut candidates_of: Vec<(usize, Vec<i64>)> = Vec::new();
        for &index in &missing {
            let (length, hashes) = &tokens[&index];
            let chosen = rarest(hashes, &frequency);
            if chosen.is_empty() {
                continue;
            }
            let (shortest, longest) = length_range(*length as i64, threshold);
            let rows = db.execute(
                SQL_CANDIDATES,
                &[
                    json(&chosen)?,
                    live.set_id.into(),
                    lang.as_str().into(),
                    shortest.into(),
                    longest.into(),
                    FUZZY_POSTINGS.into(),
                    FUZZY_CANDIDATES.into(),
                ],
            )?;
            let segments: Vec<i64> = rows.rows.iter().map(|row| row.get(0)).collect::<Result<_, _>>()?;
            candidates_of.push((index, segments));
        }
        let wanted: HashSet<i64> = candidates_of.iter().flat_map(|(_, rows)| rows.iter().copied()).collect();
        if wanted.is_empty() {
            return Ok(found);
        }
        let wanted: Vec<i64> = wanted.into_iter().collect();
        let rows = db.execute(
            "SELECT id, source, target FROM memory_segments WHERE id IN (SELECT value FROM json_each(?1)) AND set_id = ?2",
            &[json(&wanted)?, live.set_id.into()],
        )?;
        let mut texts: HashMap<i64, (String, String)> = HashMap::new();
        for row in &rows.rows {
            texts.insert(row.get(0)?, (row.get(1)?, row.get(2)?));
        }
        for (index, candidates) in candidates_of {
            let best = candidates
                .iter()
                .filter_map(|row| texts.get(row).map(|texts| (*row, texts)))
                .map(|(row, (source, target))| (memory_match::score(&segments[index], source), row, source, target))
                .filter(|(score, ..)| *score >= threshold)
                .max_by_key(|(score, row, ..)| (*score, *row));
            if let Some((score, _, source, target)) = best {
                found[index] = Some(MemoryMatch { source: source.clone(), target: target.clone(), score });
            }
        }
        Ok(found)
    };
    if fuzzy && threshold < 100 { snapshot(db, search) } else { search(db) }
}

/// The exact matches of a JSON array of keys (`?1`) in a set (`?2`) for a target language
/// (`?3`): one lookup of `memory_segments_by_key` per key. `CROSS JOIN` keeps the keys the outer
/// loop; `INDEXED BY` names the index (without statistics SQLite might rather scan).
pub(crate) const SQL_EXACT: &str = "SELECT k.value, s.id, s.source, s.target FROM json_each(?1) AS k \
     CROSS JOIN memory_segments AS s INDEXED BY memory_segments_by_key \
     ON s.set_id = ?2 AND s.source_key = k.value AND s.target_lang = ?3";

/// How many segments of a set (`?1`) for a target language (`?2`) hold each of a JSON array of
/// tokens (`?3`): one primary-key lookup per token.
pub(crate) const SQL_TOKEN_COUNTS: &str = "SELECT c.token, c.segments FROM json_each(?3) AS k \
     CROSS JOIN memory_token_counts AS c ON c.set_id = ?1 AND c.target_lang = ?2 AND c.token = k.value";

/// The fuzzy candidates of one segment: the segments of a set (`?2`, target language `?3`) of
/// `?4` to `?5` tokens that hold the most of a JSON array of tokens (`?1`, its rarest), the
/// most recent first where they tie; at most `?7`. Each token's rows are one range of the primary
/// key (set, language, token, token count), and at most `?6` rows are read in all.
pub(crate) const SQL_CANDIDATES: &str = "SELECT segment FROM ( \
       SELECT t.segment AS segment FROM json_each(?1) AS k \
       CROSS JOIN memory_tokens AS t ON t.set_id = ?2 AND t.target_lang = ?3 AND t.token = k.value \
         AND t.token_count BETWEEN ?4 AND ?5 \
       LIMIT ?6) \
     GROUP BY segment ORDER BY count(*) DESC, segment DESC LIMIT ?7";

/// Of a segment's distinct tokens, those a lookup reads candidates by: the rarest in the memory
/// first, while their segments add up to at most [`FUZZY_POSTINGS`] (the rarest always), at most
/// [`FUZZY_QUERY_TOKENS`]. Tokens the memory does not hold are left out.
fn rarest(hashes: &[i64], frequency: &HashMap<i64, i64>) -> Vec<i64> {
    let mut held: Vec<(i64, i64)> =
        hashes.iter().filter_map(|hash| frequency.get(hash).map(|count| (*count, *hash))).collect();
    held.sort_unstable();
    let mut chosen = Vec::new();
    let mut postings = 0;
    for (count, hash) in held {
        if chosen.len() == FUZZY_QUERY_TOKENS || (!chosen.is_empty() && postings + count > FUZZY_POSTINGS) {
            break;
        }
        postings += count;
        chosen.push(hash);
    }
    chosen
}

/// The token counts a stored source may have to score at least `threshold` against a segment of
/// `length` tokens: the edit distance is at least the difference of the lengths, so the score is
/// at most `100 × shorter / longer`.
fn length_range(length: i64, threshold: u8) -> (i64, i64) {
    let threshold = i64::from(threshold);
    if threshold == 0 {
        return (0, i64::MAX);
    }
    ((length * threshold + 99) / 100, length * 100 / threshold)
}

/// The code of the memory's target a lookup for `target` reads: `target` itself, else its base
/// language, if the memory holds either.
fn held_target(targets: &[&'static Language], target: &'static Language) -> Option<String> {
    if targets.contains(&target) {
        Some(code_of(target))
    } else if targets.contains(&target.base()) {
        Some(code_of(target.base()))
    } else {
        None
    }
}

/// A memory's set and targets, for a lookup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LiveMemory {
    set_id: i64,
    pub(crate) targets: Vec<&'static Language>,
}

/// The subscription's memory `id` as lookups read it: its live set and its targets (one
/// primary-key read).
pub(crate) fn live(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<Option<LiveMemory>, MemoryError> {
    let result = db.execute(
        "SELECT set_id, target_langs FROM translation_memories WHERE id = ? AND subscription_id = ?",
        &[id.into(), subscription_id.into()],
    )?;
    let Some(row) = result.first() else { return Ok(None) };
    Ok(Some(LiveMemory { set_id: row.get(0)?, targets: languages(&row.get::<String>(1)?)? }))
}

/// The memories with their segment counts.
const SQL_SELECT_MEMORIES: &str = "SELECT m.id, m.name, m.source_lang, m.target_langs, s.segment_count \
     FROM translation_memories AS m JOIN memory_segment_sets AS s ON s.id = m.set_id";

/// Raises a memory's version (`?1`), in the transaction that changes its set in place.
const SQL_RAISE_VERSION: &str = "UPDATE translation_memories SET version = version + 1 WHERE id = ?1";

fn memory_from_row(row: &Row) -> Result<TranslationMemory, MemoryError> {
    Ok(TranslationMemory {
        id: parse_id(&row.get::<String>(0)?)?,
        name: row.get(1)?,
        source: language(&row.get::<String>(2)?)?,
        targets: languages(&row.get::<String>(3)?)?,
        segment_count: row.get(4)?,
    })
}

fn parse_id(text: &str) -> Result<Id, DbError> {
    Id::parse(text).ok_or_else(|| DbError::Decode(format!("{text:?} is no id")))
}

fn language(code: &str) -> Result<&'static Language, DbError> {
    catalogue::find(code).ok_or_else(|| DbError::Decode(format!("{code:?} is no language")))
}

fn languages(codes: &str) -> Result<Vec<&'static Language>, DbError> {
    let codes: Vec<String> = serde_json::from_str(codes).map_err(|error| DbError::Decode(error.to_string()))?;
    codes.iter().map(|code| language(code)).collect()
}

/// A memory of the subscription, as a write reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Live {
    set_id: i64,
    version: i64,
    segment_count: i64,
}

/// The memory's set and version, if the subscription has it.
fn owned(db: &dyn Database, subscription_id: &str, id: &Id) -> Result<Live, MemoryError> {
    let result = db.execute(
        "SELECT m.set_id, m.version, s.segment_count FROM translation_memories AS m \
         JOIN memory_segment_sets AS s ON s.id = m.set_id WHERE m.id = ? AND m.subscription_id = ?",
        &[id.into(), subscription_id.into()],
    )?;
    let row = result.first().ok_or(MemoryError::NotFound)?;
    Ok(Live { set_id: row.get(0)?, version: row.get(1)?, segment_count: row.get(2)? })
}

/// A new, empty set for the memory: a draft from `started_at` (a new memory's set is named by
/// its memory in the same transaction).
fn new_set(db: &dyn Database, subscription_id: &str, id: &Id, started_at: i64) -> Result<i64, MemoryError> {
    let result = db.execute(
        "INSERT INTO memory_segment_sets (subscription_id, memory_id, started_at) VALUES (?, ?, ?) RETURNING id",
        &[subscription_id.into(), id.into(), started_at.into()],
    )?;
    let row = result.first().ok_or_else(|| DbError::Decode("INSERT … RETURNING gave no row".into()))?;
    Ok(row.get(0)?)
}

/// Marks a set no memory names any more for removal, in the caller's transaction.
fn put_aside(db: &dyn Database, set_id: i64) -> Result<(), MemoryError> {
    db.execute("UPDATE memory_segment_sets SET started_at = 0 WHERE id = ?", &[set_id.into()])?;
    Ok(())
}

/// Refuses a set past [`MAX_MEMORY_SEGMENTS`] or [`MAX_MEMORY_TEXT_BYTES`], in the transaction
/// that grew it (which then rolls back).
fn check_size(db: &dyn Database, set_id: i64) -> Result<(), MemoryError> {
    let result =
        db.execute("SELECT segment_count, text_bytes FROM memory_segment_sets WHERE id = ?", &[set_id.into()])?;
    let row = result.first().ok_or_else(|| DbError::Decode("a set vanished".into()))?;
    let (segments, bytes): (i64, i64) = (row.get(0)?, row.get(1)?);
    if segments > MAX_MEMORY_SEGMENTS {
        return Err(MemoryError::TooManySegments(segments));
    }
    if bytes > MAX_MEMORY_TEXT_BYTES {
        return Err(MemoryError::TooMuchText(bytes));
    }
    Ok(())
}

/// A segment ready to be written: its id, key, and distinct token hashes.
#[derive(Debug, Clone)]
struct Prepared {
    segment_id: String,
    target_lang: String,
    source: String,
    target: String,
    key: i64,
    token_count: i64,
    tokens: Vec<i64>,
}

impl Prepared {
    fn new(random: &dyn Random, segment: &NewSegment) -> Prepared {
        Prepared::of(
            Id::random(random).to_string(),
            code_of(segment.target_language),
            segment.source.clone(),
            segment.target.clone(),
        )
    }

    /// A stored segment, to be copied into another set with the same id.
    fn copy(row: StoredRow) -> Prepared {
        Prepared::of(row.segment_id, row.target_lang, row.source, row.target)
    }

    fn of(segment_id: String, target_lang: String, source: String, target: String) -> Prepared {
        let tokens = memory_match::tokens(&source);
        Prepared {
            segment_id,
            target_lang,
            key: memory_match::exact_key(&source),
            token_count: tokens.len() as i64,
            tokens: distinct_hashes(&tokens),
            source,
            target,
        }
    }

    fn bytes(&self) -> i64 {
        (self.source.len() + self.target.len()) as i64
    }
}

/// The segments to write, each (target language, source, target) once, and for each segment
/// sent the index of its prepared segment.
fn prepare_distinct(random: &dyn Random, segments: &[NewSegment]) -> (Vec<Prepared>, Vec<usize>) {
    let mut seen: HashMap<&NewSegment, usize> = HashMap::new();
    let mut prepared = Vec::new();
    let mut sent = Vec::with_capacity(segments.len());
    for segment in segments {
        let index = *seen.entry(segment).or_insert_with(|| {
            prepared.push(Prepared::new(random, segment));
            prepared.len() - 1
        });
        sent.push(index);
    }
    (prepared, sent)
}

/// The distinct hashes of tokens (a hash twice, two tokens with the same hash, counts once).
fn distinct_hashes(tokens: &[String]) -> Vec<i64> {
    let mut hashes: Vec<i64> = tokens.iter().map(|token| token_hash(token)).collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes
}

/// The hash a token is stored and looked up by: FNV-1a (64 bits) of its UTF-8 bytes. Stored, so
/// it must never change; cheap, since a segment has a dozen tokens and an import 100,000
/// segments. Two tokens with the same hash only make a candidate that scoring then judges.
fn token_hash(token: &str) -> i64 {
    let hash = token
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3));
    hash as i64
}

/// The distinct token hashes of a source.
fn token_hashes(source: &str) -> Vec<i64> {
    distinct_hashes(&memory_match::tokens(source))
}

/// Inserts into a set the segments it does not hold yet, with their tokens, and counts them in
/// the set; answers the ids of those inserted. The caller's transaction.
fn insert(
    db: &dyn Database,
    set_id: i64,
    segments: &[Prepared],
    dedupe: Dedupe,
) -> Result<HashSet<String>, MemoryError> {
    if segments.is_empty() {
        return Ok(HashSet::new());
    }
    let rows: Vec<(&str, &str, &str, &str, i64, i64)> = segments
        .iter()
        .map(|segment| {
            (
                segment.segment_id.as_str(),
                segment.target_lang.as_str(),
                segment.source.as_str(),
                segment.target.as_str(),
                segment.key,
                segment.token_count,
            )
        })
        .collect();
    let sql = match dedupe {
        Dedupe::Check => SQL_INSERT_SEGMENTS,
        Dedupe::Distinct => SQL_INSERT_DISTINCT_SEGMENTS,
    };
    let inserted = db.execute(sql, &[set_id.into(), json(&rows)?])?;
    let mut ids: HashMap<String, i64> = HashMap::with_capacity(inserted.rows.len());
    for row in &inserted.rows {
        ids.insert(row.get(1)?, row.get(0)?);
    }
    let mut token_rows: Vec<(&str, i64, i64, &[i64])> = Vec::new();
    let mut counts: HashMap<(&str, i64), i64> = HashMap::new();
    let mut bytes = 0;
    for segment in segments {
        let Some(&row_id) = ids.get(&segment.segment_id) else { continue };
        bytes += segment.bytes();
        if !segment.tokens.is_empty() {
            token_rows.push((segment.target_lang.as_str(), segment.token_count, row_id, &segment.tokens));
        }
        for &token in &segment.tokens {
            *counts.entry((segment.target_lang.as_str(), token)).or_default() += 1;
        }
    }
    if !token_rows.is_empty() {
        db.execute(SQL_INSERT_TOKENS, &[set_id.into(), json(&token_rows)?])?;
        let counts: Vec<(&str, i64, i64)> =
            counts.into_iter().map(|((lang, token), count)| (lang, token, count)).collect();
        db.execute(
            "INSERT INTO memory_token_counts (set_id, target_lang, token, segments) \
             SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') \
             FROM json_each(?2) WHERE true \
             ON CONFLICT (set_id, target_lang, token) DO UPDATE SET segments = segments + excluded.segments",
            &[set_id.into(), json(&counts)?],
        )?;
    }
    if !ids.is_empty() {
        db.execute(
            "UPDATE memory_segment_sets SET segment_count = segment_count + ?, text_bytes = text_bytes + ? WHERE id = ?",
            &[(ids.len() as i64).into(), bytes.into(), set_id.into()],
        )?;
    }
    Ok(ids.into_keys().collect())
}

/// Whether the segments to insert may be in the set already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dedupe {
    /// They may: each is looked up first.
    Check,
    /// They cannot (a new set filled with distinct segments, or a copy of a set).
    Distinct,
}

/// Inserts the token rows of a JSON array of `[target_lang, token_count, segment rowid, [token
/// hash, …]]` (`?2`) into a set (`?1`): each segment's fields read once, then one row per token.
const SQL_INSERT_TOKENS: &str = "WITH s AS MATERIALIZED ( \
       SELECT json_extract(value, '$[0]') AS lang, json_extract(value, '$[1]') AS length, \
         json_extract(value, '$[2]') AS segment, json_extract(value, '$[3]') AS tokens FROM json_each(?2)) \
     INSERT INTO memory_tokens (set_id, target_lang, token, token_count, segment) \
     SELECT ?1, s.lang, t.value, s.length, s.segment FROM s, json_each(s.tokens) AS t";

/// [`SQL_INSERT_SEGMENTS`] for segments the set cannot hold yet: no lookups.
const SQL_INSERT_DISTINCT_SEGMENTS: &str = "INSERT INTO memory_segments \
       (set_id, segment_id, target_lang, source, target, source_key, token_count) \
     SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), \
       json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]') \
     FROM json_each(?2) ORDER BY key \
     RETURNING id, segment_id";

/// Inserts a JSON array of `[segment_id, target_lang, source, target, source_key, token_count]`
/// (`?2`) into a set (`?1`), in order, but those the set holds already (the same target
/// language, source and target: one lookup of `memory_segments_by_key` each); answers the rowid
/// and segment id of each inserted.
const SQL_INSERT_SEGMENTS: &str = "INSERT INTO memory_segments \
       (set_id, segment_id, target_lang, source, target, source_key, token_count) \
     SELECT ?1, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'), \
       json_extract(j.value, '$[3]'), json_extract(j.value, '$[4]'), json_extract(j.value, '$[5]') \
     FROM json_each(?2) AS j \
     WHERE NOT EXISTS (SELECT 1 FROM memory_segments AS s INDEXED BY memory_segments_by_key \
       WHERE s.set_id = ?1 AND s.source_key = json_extract(j.value, '$[4]') \
       AND s.target_lang = json_extract(j.value, '$[1]') AND s.source = json_extract(j.value, '$[2]') \
       AND s.target = json_extract(j.value, '$[3]')) \
     ORDER BY j.key \
     RETURNING id, segment_id";

/// A stored segment as copies and exports read it.
struct StoredRow {
    id: i64,
    segment_id: String,
    target_lang: String,
    source: String,
    target: String,
}

/// The next [`WRITE_CHUNK_SEGMENTS`] segments of a set after `after` (target language, rowid),
/// in the order of `memory_segments_by_target`: one range of the index per page.
fn page_after(db: &dyn Database, set_id: i64, after: Option<&(String, i64)>) -> Result<Vec<StoredRow>, MemoryError> {
    let (lang, row) = match after {
        Some((lang, row)) => (lang.as_str(), *row),
        None => ("", i64::MIN),
    };
    let result =
        db.execute(SQL_PAGE_AFTER, &[set_id.into(), lang.into(), row.into(), (WRITE_CHUNK_SEGMENTS as i64).into()])?;
    result
        .rows
        .iter()
        .map(|row| {
            Ok(StoredRow {
                id: row.get(0)?,
                segment_id: row.get(1)?,
                target_lang: row.get(2)?,
                source: row.get(3)?,
                target: row.get(4)?,
            })
        })
        .collect()
}

/// The segments of a set (`?1`) after a target language and rowid (`?2`, `?3`), at most `?4`:
/// a range of `memory_segments_by_target` (row values compare in its order).
pub(crate) const SQL_PAGE_AFTER: &str = "SELECT id, segment_id, target_lang, source, target \
     FROM memory_segments INDEXED BY memory_segments_by_target \
     WHERE set_id = ?1 AND (target_lang, id) > (?2, ?3) ORDER BY target_lang, id LIMIT ?4";

/// Runs `body` in one read transaction: its queries see the database as it was when the first
/// one ran, whatever commits meanwhile.
fn snapshot<T>(
    db: &dyn Database,
    body: impl FnOnce(&dyn Database) -> Result<T, MemoryError>,
) -> Result<T, MemoryError> {
    db.execute("BEGIN", &[])?;
    let outcome = body(db);
    // A read transaction has nothing to commit; ending it cannot lose anything.
    let _ = db.execute(if outcome.is_ok() { "COMMIT" } else { "ROLLBACK" }, &[]);
    outcome
}

/// Removes the subscription's drafts whose instance died, and sets put aside whose removal did
/// not finish.
fn sweep(services: &Services<'_>, subscription_id: &str) -> Result<(), MemoryError> {
    let before = unix_ms(services) - STALE_DRAFT_MS;
    let stale = services.db.execute(
        "SELECT s.id FROM memory_segment_sets AS s WHERE s.subscription_id = ? AND s.started_at < ? \
         AND NOT EXISTS (SELECT 1 FROM translation_memories AS m WHERE m.set_id = s.id)",
        &[subscription_id.into(), before.into()],
    )?;
    for row in &stale.rows {
        discard(services.db, row.get(0)?);
    }
    Ok(())
}

/// Deletes a set no memory names, a chunk per transaction: its tokens, token counts and
/// segments, then the set. A failure is logged and left for the subscription's next sweep.
fn discard(db: &dyn Database, set_id: i64) {
    if let Err(error) = try_discard(db, set_id) {
        eprintln!("memory store: removing segment set {set_id} failed, left for a later write: {error}");
    }
}

fn try_discard(db: &dyn Database, set_id: i64) -> Result<(), MemoryError> {
    let chunks = [
        (
            "DELETE FROM memory_tokens WHERE (set_id, target_lang, token, token_count, segment) IN \
             (SELECT set_id, target_lang, token, token_count, segment FROM memory_tokens WHERE set_id = ?1 LIMIT ?2)",
            DELETE_CHUNK_TOKENS,
        ),
        (
            "DELETE FROM memory_token_counts WHERE (set_id, target_lang, token) IN \
             (SELECT set_id, target_lang, token FROM memory_token_counts WHERE set_id = ?1 LIMIT ?2)",
            DELETE_CHUNK_TOKENS,
        ),
        (
            "DELETE FROM memory_segments WHERE id IN \
             (SELECT id FROM memory_segments INDEXED BY memory_segments_by_target WHERE set_id = ?1 LIMIT ?2)",
            WRITE_CHUNK_SEGMENTS as i64,
        ),
    ];
    for (sql, chunk) in chunks {
        loop {
            let deleted = write_chunk(db, |db| {
                db.execute(sql, &[set_id.into(), chunk.into()])?;
                db.changes()
            })?;
            if deleted == 0 {
                break;
            }
        }
    }
    transaction(db, RetryPolicy::default(), |db| {
        db.execute(
            "DELETE FROM memory_segment_sets WHERE id = ?1 \
             AND NOT EXISTS (SELECT 1 FROM translation_memories WHERE set_id = ?1)",
            &[set_id.into()],
        )
    })?;
    Ok(())
}

/// Now, in Unix milliseconds; never 0, which marks a set put aside.
fn unix_ms(services: &Services<'_>) -> i64 {
    services.clock.now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as i64).max(1)
}

fn json<T: serde::Serialize + ?Sized>(value: &T) -> Result<Value, DbError> {
    serde_json::to_string(value).map(Value::Text).map_err(|error| DbError::Other(error.to_string()))
}

fn count(result: &QueryResult) -> Result<i64, DbError> {
    result.first().ok_or_else(|| DbError::Decode("count(*) gave no row".into()))?.get(0)
}
