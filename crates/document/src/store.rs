//! Documents in SQLite (`sql/0014_documents.sql`): the row, the pieces with their translations,
//! and the result; leases; retention.
//!
//! Every read by a client is scoped by the subscription and the key's hash, so that another
//! subscription's document, or a wrong key, is not found. Every write of a worker's progress
//! checks that the worker still holds the lease.

use platform::db::{RetryPolicy, transaction};
use platform::{Database, DbError, Row, Services, Value};
use sha2::{Digest, Sha256};

use crate::format::{Cut, Format};
use crate::request::Options;

/// Where a document is, as the API answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Queued,
    Translating,
    Done,
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Translating => "translating",
            Status::Done => "done",
            Status::Error => "error",
        }
    }

    fn stored(name: &str) -> Result<Status, DbError> {
        Ok(match name {
            "queued" => Status::Queued,
            "translating" => Status::Translating,
            "done" => Status::Done,
            "error" => Status::Error,
            other => return Err(DbError::Decode(format!("{other:?} is no document status"))),
        })
    }
}

/// A document, as of when it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// 32 upper-case hex digits.
    pub id: String,
    pub subscription_id: String,
    pub format: Format,
    pub file_name: String,
    pub options: Options,
    /// The given source language, or the one detected before the first unit was translated.
    pub source_lang: Option<String>,
    pub status: Status,
    /// What the document bills when it is downloaded.
    pub characters: i64,
    /// Pieces to translate, and how many are translated.
    pub units: i64,
    pub units_done: i64,
    /// Milliseconds spent translating so far.
    pub work_ms: i64,
    pub attempts: i64,
    pub error_message: Option<String>,
    /// Unix milliseconds until which a worker holds the document.
    pub lease_until: Option<i64>,
}

impl Document {
    /// The holder of its reservation of characters (`metering::reserve`).
    pub fn holder(&self) -> String {
        holder(&self.id)
    }

    /// Whether a worker may take it at `now`: it is unfinished and no lease holds it.
    pub fn is_free(&self, now: i64) -> bool {
        matches!(self.status, Status::Queued | Status::Translating) && self.lease_until.is_none_or(|until| until <= now)
    }
}

/// The holder of document `id`'s reservation.
pub fn holder(id: &str) -> String {
    format!("document:{id}")
}

/// A new document, ready to be stored.
pub struct NewDocument<'a> {
    pub id: &'a str,
    pub key: &'a str,
    pub subscription_id: &'a str,
    pub key_id: &'a str,
    pub format: Format,
    pub file_name: &'a str,
    pub options: &'a Options,
    pub cut: &'a Cut,
    /// The file uploaded, for the types whose translation is rebuilt from it.
    pub source: Option<Vec<u8>>,
    pub characters: i64,
    pub now: i64,
    pub expires_at: i64,
}

/// The SHA-256 of a document key, as stored.
pub fn key_hash(key: &str) -> String {
    Sha256::digest(key.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Stores a new document and its pieces, in one transaction.
pub fn insert(db: &dyn Database, new: NewDocument<'_>) -> Result<(), DbError> {
    let options = serde_json::to_string(new.options).map_err(|error| DbError::Other(error.to_string()))?;
    let pieces = pieces_json(new.cut);
    let units = new.cut.pieces.iter().filter(|piece| piece.translate).count() as i64;
    // The file is moved into its parameter, not copied: it may be tens of megabytes.
    let source = new.source.map(|file| [new.id.into(), Value::Blob(file)]);
    transaction(db, RetryPolicy::default(), |db| {
        db.execute(
            "INSERT INTO documents (id, key_hash, subscription_id, key_id, format, file_name, options, source_lang, \
             status, characters, units, created_at, updated_at, expires_at) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)",
            &[
                new.id.into(),
                key_hash(new.key).into(),
                new.subscription_id.into(),
                new.key_id.into(),
                new.format.as_str().into(),
                new.file_name.into(),
                options.as_str().into(),
                new.options.source_lang.as_deref().map_or(Value::Null, |code| code.into()),
                new.characters.into(),
                units.into(),
                new.now.into(),
                new.now.into(),
                new.expires_at.into(),
            ],
        )?;
        if let Some(file) = &source {
            db.execute("INSERT INTO document_files (document_id, kind, data) VALUES (?, 'source', ?)", file)?;
        }
        insert_pieces(db, new.id, &pieces, 0)
    })
}

/// A document's columns, in [`document_from_row`]'s order.
const COLUMNS: &str = "id, subscription_id, format, file_name, options, source_lang, status, characters, units, \
     units_done, work_ms, attempts, error_message, lease_until";

fn document_from_row(row: &Row) -> Result<Document, DbError> {
    let format: String = row.get(2)?;
    let options: String = row.get(4)?;
    let status: String = row.get(6)?;
    Ok(Document {
        id: row.get(0)?,
        subscription_id: row.get(1)?,
        format: Format::stored(&format).ok_or_else(|| DbError::Decode(format!("{format:?} is no document type")))?,
        file_name: row.get(3)?,
        options: serde_json::from_str(&options).map_err(|error| DbError::Decode(error.to_string()))?,
        source_lang: row.get(5)?,
        status: Status::stored(&status)?,
        characters: row.get(7)?,
        units: row.get(8)?,
        units_done: row.get(9)?,
        work_ms: row.get(10)?,
        attempts: row.get(11)?,
        error_message: row.get(12)?,
        lease_until: row.get(13)?,
    })
}

/// The subscription's document `id`, if `key` is its key and its retention has not ended at
/// `now`. Uses the primary key.
pub fn find(
    db: &dyn Database,
    subscription_id: &str,
    id: &str,
    key: &str,
    now: i64,
) -> Result<Option<Document>, DbError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM documents WHERE id = ? AND subscription_id = ? AND key_hash = ? AND expires_at > ?"
    );
    let found = db.execute(&sql, &[id.into(), subscription_id.into(), key_hash(key).into(), now.into()])?;
    found.first().map(document_from_row).transpose()
}

/// Document `id`, whoever's it is (a worker's read).
pub fn get(db: &dyn Database, id: &str) -> Result<Option<Document>, DbError> {
    let found = db.execute(&format!("SELECT {COLUMNS} FROM documents WHERE id = ?"), &[id.into()])?;
    found.first().map(document_from_row).transpose()
}

/// Takes document `id` for `holder` until `until`, if it is unfinished and no lease holds it at
/// `now`: it is then `translating`. Answers the document taken, or `None`.
pub fn claim(db: &dyn Database, id: &str, holder: &str, now: i64, until: i64) -> Result<Option<Document>, DbError> {
    let sql = format!(
        "UPDATE documents SET lease_holder = ?, lease_until = ?, status = 'translating', updated_at = ? \
         WHERE id = ? AND status IN ('queued', 'translating') AND (lease_until IS NULL OR lease_until <= ?) \
         RETURNING {COLUMNS}"
    );
    let taken = db.execute(&sql, &[holder.into(), until.into(), now.into(), id.into(), now.into()])?;
    taken.first().map(document_from_row).transpose()
}

/// The next pieces to translate, in order: at most `count`, as (position, source). Reads the
/// front of `document_units_pending`.
pub fn pending(db: &dyn Database, id: &str, count: usize) -> Result<Vec<(i64, String)>, DbError> {
    let rows = db.execute(
        "SELECT position, source FROM document_units \
         WHERE document_id = ? AND translate = 1 AND translation IS NULL ORDER BY position LIMIT ?",
        &[id.into(), (count as i64).into()],
    )?;
    rows.rows.iter().map(|row| Ok((row.get(0)?, row.get(1)?))).collect()
}

/// Records what `holder` translated, renews its lease until `until`, and adds `work_ms`, in
/// one transaction. Answers `false`, writing nothing, when `holder` no longer holds the
/// document.
pub fn save(
    db: &dyn Database,
    id: &str,
    holder: &str,
    translations: &[(i64, String)],
    work_ms: i64,
    until: i64,
) -> Result<bool, DbError> {
    let pairs = serde_json::to_string(translations).map_err(|error| DbError::Other(error.to_string()))?;
    transaction(db, RetryPolicy::default(), |db| {
        let held = db.execute(
            "UPDATE documents SET units_done = units_done + ?, work_ms = work_ms + ?, lease_until = ? \
             WHERE id = ? AND lease_holder = ? RETURNING id",
            &[(translations.len() as i64).into(), work_ms.into(), until.into(), id.into(), holder.into()],
        )?;
        if held.rows.is_empty() {
            return Ok(false);
        }
        // The pieces by their primary key (`position IN` the batch's), each given its translation
        // from the batch: a join the other way round would read every piece of the document.
        db.execute(
            "UPDATE document_units SET translation = \
             (SELECT pair.value ->> 1 FROM json_each(?1) AS pair WHERE pair.value ->> 0 = position) \
             WHERE document_id = ?2 AND position IN (SELECT value ->> 0 FROM json_each(?1))",
            &[pairs.as_str().into(), id.into()],
        )?;
        Ok(true)
    })
}

/// Whether a document has been cut: an image is cut by its first worker, after OCR.
pub fn is_cut(db: &dyn Database, id: &str) -> Result<bool, DbError> {
    let rows = db.execute("SELECT 1 FROM document_units WHERE document_id = ? LIMIT 1", &[id.into()])?;
    Ok(!rows.rows.is_empty())
}

/// Stores pieces `holder` cut after the upload, after the document's other pieces, in one
/// transaction, renewing `holder`'s lease until `until`: an image's once it is read, with the
/// source language it was read in unless one was given or found; a scanned PDF page's (`source`
/// `None`). Answers `false`, writing nothing, when `holder` no longer holds the document.
pub fn add_pieces(
    db: &dyn Database,
    id: &str,
    holder: &str,
    cut: &Cut,
    source: Option<&str>,
    until: i64,
) -> Result<bool, DbError> {
    let pieces = pieces_json(cut);
    let units = cut.pieces.iter().filter(|piece| piece.translate).count() as i64;
    transaction(db, RetryPolicy::default(), |db| {
        let held = db.execute(
            "UPDATE documents SET units = units + ?, source_lang = coalesce(source_lang, ?), lease_until = ? \
             WHERE id = ? AND lease_holder = ? RETURNING id",
            &[units.into(), source.map_or(Value::Null, Value::from), until.into(), id.into(), holder.into()],
        )?;
        if held.rows.is_empty() {
            return Ok(false);
        }
        let next = db
            .execute("SELECT coalesce(max(position) + 1, 0) FROM document_units WHERE document_id = ?", &[id.into()])?;
        let next: i64 = next.first().map(|row| row.get(0)).transpose()?.unwrap_or(0);
        insert_pieces(db, id, &pieces, next)?;
        Ok(true)
    })
}

/// The pieces kept as they are (a layout, a scanned page's blocks), in order.
pub fn kept_pieces(db: &dyn Database, id: &str) -> Result<Vec<String>, DbError> {
    let rows = db.execute(
        "SELECT source FROM document_units WHERE document_id = ? AND translate = 0 ORDER BY position",
        &[id.into()],
    )?;
    rows.rows.iter().map(|row| row.get(0)).collect()
}

/// A cut's pieces as one JSON array of `[translate, text]`, for [`insert_pieces`].
fn pieces_json(cut: &Cut) -> String {
    let pieces: Vec<serde_json::Value> =
        cut.pieces.iter().map(|piece| serde_json::json!([piece.translate as i64, piece.text])).collect();
    serde_json::Value::Array(pieces).to_string()
}

/// Stores a document's pieces in one statement, from position `first` on (each one's `key` in
/// the array after it).
fn insert_pieces(db: &dyn Database, id: &str, pieces: &str, first: i64) -> Result<(), DbError> {
    db.execute(
        "INSERT INTO document_units (document_id, position, translate, source) \
         SELECT ?, ? + key, value ->> 0, value ->> 1 FROM json_each(?)",
        &[id.into(), first.into(), pieces.into()],
    )?;
    Ok(())
}

/// Records the source language `holder` detected.
pub fn set_source(db: &dyn Database, id: &str, holder: &str, code: &str) -> Result<(), DbError> {
    db.execute(
        "UPDATE documents SET source_lang = ? WHERE id = ? AND lease_holder = ?",
        &[code.into(), id.into(), holder.into()],
    )?;
    Ok(())
}

/// Every piece's translation (or source, where it is kept), in order.
pub fn translated_pieces(db: &dyn Database, id: &str) -> Result<Vec<String>, DbError> {
    let rows = db.execute(
        "SELECT CASE translate WHEN 1 THEN translation ELSE source END FROM document_units \
         WHERE document_id = ? ORDER BY position",
        &[id.into()],
    )?;
    rows.rows
        .iter()
        .map(|row| row.get::<Option<String>>(0)?.ok_or_else(|| DbError::Decode("a piece is not translated".into())))
        .collect()
}

/// Ends `holder`'s work: the document is `done` with `output`, its pieces are removed.
pub fn finish(db: &dyn Database, id: &str, holder: &str, output: Vec<u8>, now: i64) -> Result<bool, DbError> {
    let result = [id.into(), Value::Blob(output)];
    transaction(db, RetryPolicy::default(), |db| {
        let held = db.execute(
            "UPDATE documents SET status = 'done', lease_holder = NULL, lease_until = NULL, updated_at = ? \
             WHERE id = ? AND lease_holder = ? RETURNING id",
            &[now.into(), id.into(), holder.into()],
        )?;
        if held.rows.is_empty() {
            return Ok(false);
        }
        db.execute("INSERT OR REPLACE INTO document_files (document_id, kind, data) VALUES (?, 'result', ?)", &result)?;
        db.execute("DELETE FROM document_units WHERE document_id = ?", &[id.into()])?;
        db.execute("DELETE FROM document_files WHERE document_id = ? AND kind = 'source'", &[id.into()])?;
        Ok(true)
    })
}

/// Ends the document with an error saying `message`; its pieces are removed. Answers whether
/// `holder` still held it.
pub fn fail(db: &dyn Database, id: &str, holder: &str, message: &str, now: i64) -> Result<bool, DbError> {
    transaction(db, RetryPolicy::default(), |db| {
        let held = db.execute(
            "UPDATE documents SET status = 'error', error_message = ?, lease_holder = NULL, lease_until = NULL, \
             updated_at = ? WHERE id = ? AND lease_holder = ? RETURNING id",
            &[message.into(), now.into(), id.into(), holder.into()],
        )?;
        if held.rows.is_empty() {
            return Ok(false);
        }
        db.execute("DELETE FROM document_units WHERE document_id = ?", &[id.into()])?;
        db.execute("DELETE FROM document_files WHERE document_id = ?", &[id.into()])?;
        Ok(true)
    })
}

/// Gives the document back, unfinished, for the next worker.
pub fn release(db: &dyn Database, id: &str, holder: &str) -> Result<(), DbError> {
    db.execute(
        "UPDATE documents SET lease_holder = NULL, lease_until = NULL WHERE id = ? AND lease_holder = ?",
        &[id.into(), holder.into()],
    )?;
    Ok(())
}

/// Gives the document back after an attempt the engine failed, counted, for no worker to take
/// before `retry_at` (Unix ms).
pub fn release_failed(db: &dyn Database, id: &str, holder: &str, retry_at: i64) -> Result<(), DbError> {
    db.execute(
        "UPDATE documents SET lease_holder = NULL, lease_until = ?, attempts = attempts + 1 \
         WHERE id = ? AND lease_holder = ?",
        &[retry_at.into(), id.into(), holder.into()],
    )?;
    Ok(())
}

/// A file kept with a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// The file uploaded, for the types whose translation is rebuilt from it.
    Source,
    /// The translation, once the document is done.
    Result,
}

impl FileKind {
    fn as_str(self) -> &'static str {
        match self {
            FileKind::Source => "source",
            FileKind::Result => "result",
        }
    }
}

/// A file of document `id`.
pub fn file(db: &dyn Database, id: &str, kind: FileKind) -> Result<Vec<u8>, DbError> {
    let rows = db.execute(
        "SELECT data FROM document_files WHERE document_id = ? AND kind = ?",
        &[id.into(), kind.as_str().into()],
    )?;
    rows.first().ok_or_else(|| DbError::Decode(format!("document {id} has no {} file", kind.as_str())))?.get(0)
}

/// Removes document `id` with its pieces and files.
pub fn delete(db: &dyn Database, id: &str) -> Result<(), DbError> {
    transaction(db, RetryPolicy::default(), |db| {
        db.execute("DELETE FROM document_units WHERE document_id = ?", &[id.into()])?;
        db.execute("DELETE FROM document_files WHERE document_id = ?", &[id.into()])?;
        db.execute("DELETE FROM documents WHERE id = ?", &[id.into()])?;
        Ok(())
    })
}

/// How many expired documents one sweep removes at most.
const SWEEP_BATCH: i64 = 20;

/// Removes documents whose retention ended by `now` (a bounded batch, oldest first, by
/// `documents_by_expiry`), giving back their reservations: they bill nothing.
pub fn sweep(services: &Services<'_>, now: i64) -> Result<usize, DbError> {
    let expired = services.db.execute(
        "SELECT id FROM documents WHERE expires_at <= ? ORDER BY expires_at LIMIT ?",
        &[now.into(), SWEEP_BATCH.into()],
    )?;
    let ids: Vec<String> = expired.rows.iter().map(|row| row.get(0)).collect::<Result<_, _>>()?;
    for id in &ids {
        delete(services.db, id)?;
        metering::release(services, &holder(id)).map_err(|error| DbError::Other(error.to_string()))?;
    }
    Ok(ids.len())
}
