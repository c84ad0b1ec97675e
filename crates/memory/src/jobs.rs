//! Translation memory jobs (`sql/0012_memory_jobs.sql`): a TMX file imported as a new memory, a
//! memory exported as a TMX file, the way the official client libraries do both.
//!
//! * **Import.** `POST /v3/translation_memories/import` declares the file (name, length, media
//!   type) and the new memory's name, and answers an upload URL. The client `PUT`s the file there
//!   without its key; the URL's token is the credential, good once, for [`UPLOAD_URL_MS`]. The
//!   upload is processed in that request: the file's languages make the memory
//!   ([`crate::tmx::languages`]), its segments fill it, and the job is `completed` (with the new
//!   memory's id and the variants skipped) or `failed` (with why, and no memory left behind).
//! * **Export.** `POST /v3/translation_memories/{id}/export` answers a job that is `completed` at
//!   once: its download URL writes the memory as TMX when it is fetched, for [`DOWNLOAD_URL_MS`],
//!   as long as the memory is what it was when the job was made (the same segment set at the same
//!   version). Once the memory changes, the job is `expired` and a new export is made; asking
//!   again while it has not changed reuses the job (a 200 instead of a 202). After a download the
//!   job is `downloaded`, and its URL still works until it expires.
//!
//! A job is its subscription's: another subscription's is not found. Jobs are removed
//! [`JOB_RETENTION_MS`] after they were made. An import whose instance died while processing it
//! shows as `failed` after [`STALE_PROCESSING_MS`]; the subscription's next job removes the memory
//! it had begun.

use std::time::UNIX_EPOCH;

use platform::db::{RetryPolicy, transaction};
use platform::{Database, DbError, Id, Row, Services};
use serde_json::Value as Json;

use crate::limits::{MAX_MEMORIES, MAX_TMX_BYTES};
use crate::request::{NewMemory, RawMemory, RequestError, code_of};
use crate::store::{self, ImportMode, MemoryError, TranslationMemory};
use crate::tmx::{self, TmxError};

/// How long an import's upload URL takes a file (milliseconds): an hour.
pub const UPLOAD_URL_MS: i64 = 60 * 60 * 1000;

/// How long an export's download URL gives the file (milliseconds): a day.
pub const DOWNLOAD_URL_MS: i64 = 24 * 60 * 60 * 1000;

/// How long a job is kept (milliseconds): a week.
pub const JOB_RETENTION_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// After this long, an import still `processing` is one whose instance died (milliseconds).
const STALE_PROCESSING_MS: i64 = 15 * 60 * 1000;

/// The longest declared file name, in characters.
pub const MAX_FILE_NAME_CHARS: usize = 255;

/// The media types a TMX file may be declared and uploaded as.
pub const FILE_TYPES: [&str; 3] = ["application/xml", "text/xml", "application/x-tmx+xml"];

/// What a job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobOperation {
    Import,
    Export,
}

impl JobOperation {
    pub fn name(self) -> &'static str {
        match self {
            JobOperation::Import => "import",
            JobOperation::Export => "export",
        }
    }
}

/// Where a job is, as the API answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobStatus {
    AwaitingInput,
    Processing,
    Completed,
    Downloaded,
    Failed,
    Expired,
}

impl JobStatus {
    pub fn name(self) -> &'static str {
        match self {
            JobStatus::AwaitingInput => "awaiting_input",
            JobStatus::Processing => "processing",
            JobStatus::Completed => "completed",
            JobStatus::Downloaded => "downloaded",
            JobStatus::Failed => "failed",
            JobStatus::Expired => "expired",
        }
    }

    fn stored(name: &str) -> Result<JobStatus, DbError> {
        Ok(match name {
            "awaiting_input" => JobStatus::AwaitingInput,
            "processing" => JobStatus::Processing,
            "completed" => JobStatus::Completed,
            "downloaded" => JobStatus::Downloaded,
            "failed" => JobStatus::Failed,
            other => return Err(DbError::Decode(format!("{other:?} is no job status"))),
        })
    }
}

/// A file as an import declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub file_name: String,
    pub content_type: String,
    pub content_length: i64,
}

/// An import as requested, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewImport {
    pub file: SourceFile,
    /// The new memory's name: `parameters.display_name`, else the file's name.
    pub display_name: String,
}

/// A job, with its status as of when it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    pub id: Id,
    pub operation: JobOperation,
    pub status: JobStatus,
    /// Unix milliseconds.
    pub created_at: i64,
    pub updated_at: i64,
    /// When the upload or download URL stops working.
    pub expires_at: i64,
    /// The secret of the upload or download URL.
    pub token: String,
    /// An export's memory; the memory an import made.
    pub memory_id: Option<Id>,
    pub display_name: Option<String>,
    pub file: Option<SourceFile>,
    pub skipped: Option<i64>,
    pub error: Option<String>,
    /// An export's memory as it was when the job was made.
    made_of: Option<store::State>,
}

/// Why a job request did not happen.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error("Job not found.")]
    NotFound,
    #[error("{0}")]
    Request(#[from] RequestError),
    #[error("Request Entity Too Large: a TMX file may not exceed 64 MiB ({MAX_TMX_BYTES} bytes).")]
    TooLarge,
    #[error("This upload URL has expired: create a new import.")]
    UploadExpired,
    #[error("This upload URL was used already: create a new import.")]
    UploadUsed,
    #[error("The file's Content-Type is '{sent}', not '{declared}' as declared when the import was created.")]
    WrongType { sent: String, declared: String },
    #[error("The file has {sent} bytes, not {declared} as declared when the import was created.")]
    WrongLength { sent: usize, declared: i64 },
    #[error("This download URL has expired: create a new export.")]
    DownloadExpired,
    #[error("{0}")]
    Memory(#[from] MemoryError),
    #[error("{0}")]
    Tmx(#[from] TmxError),
    #[error("translation memory jobs: {0}")]
    Store(#[from] DbError),
}

impl platform::db::TransactionError for JobError {
    fn is_busy(&self) -> bool {
        matches!(self, JobError::Store(DbError::Busy(_)) | JobError::Memory(MemoryError::Store(DbError::Busy(_))))
    }
}

/// Why an export expired, as its job says.
const CHANGED: &str =
    "The translation memory changed, or was deleted, after this export was made: create a new export.";

impl NewImport {
    /// `source_file` (`file_name`, `content_length`, `content_type`) and `parameters`
    /// (`display_name`), each a JSON object; a field they do not take is refused, naming it.
    pub fn parse(source_file: Option<&Json>, parameters: Option<&Json>) -> Result<NewImport, JobError> {
        let source_file = source_file.ok_or_else(|| RequestError::Missing("source_file".into()))?;
        let file = object(source_file, "source_file", &["file_name", "content_length", "content_type"])?;
        let file_name = match file.get("file_name") {
            Some(Json::String(name)) if !name.trim().is_empty() => name.trim().to_owned(),
            Some(Json::String(_)) | None => return Err(RequestError::Missing("source_file.file_name".into()).into()),
            Some(_) => return Err(RequestError::Invalid("source_file.file_name".into()).into()),
        };
        if file_name.chars().count() > MAX_FILE_NAME_CHARS || file_name.chars().any(char::is_control) {
            return Err(RequestError::Invalid("source_file.file_name".into()).into());
        }
        let content_length = match file.get("content_length") {
            Some(value) => value.as_i64().filter(|length| *length > 0).ok_or(RequestError::OutOfRange {
                name: "source_file.content_length",
                min: 1,
                max: MAX_TMX_BYTES as i64,
            })?,
            None => return Err(RequestError::Missing("source_file.content_length".into()).into()),
        };
        if content_length > MAX_TMX_BYTES as i64 {
            return Err(JobError::TooLarge);
        }
        let content_type = match file.get("content_type") {
            None | Some(Json::Null) => FILE_TYPES[0].to_owned(),
            Some(Json::String(sent)) => media_type(sent)
                .filter(|media| FILE_TYPES.contains(&media.as_str()))
                .ok_or_else(|| RequestError::FileType(sent.clone()))?,
            Some(_) => return Err(RequestError::Invalid("source_file.content_type".into()).into()),
        };
        let display_name = match parameters {
            None | Some(Json::Null) => None,
            Some(parameters) => match object(parameters, "parameters", &["display_name"])?.get("display_name") {
                None | Some(Json::Null) => None,
                Some(Json::String(name)) => Some(name.clone()),
                Some(_) => return Err(RequestError::Invalid("parameters.display_name".into()).into()),
            },
        };
        let display_name = display_name.unwrap_or_else(|| file_name.clone());
        let display_name = crate::request::name(Some(display_name)).map_err(|error| match error {
            RequestError::Missing(_) => RequestError::Missing("parameters.display_name".into()),
            RequestError::NameTooLong => RequestError::NameTooLongIn("parameters.display_name"),
            _ => RequestError::Invalid("parameters.display_name".into()),
        })?;
        Ok(NewImport { file: SourceFile { file_name, content_type, content_length }, display_name })
    }
}

/// A JSON object parameter's fields, refusing one it does not take.
fn object<'a>(value: &'a Json, name: &str, takes: &[&str]) -> Result<&'a serde_json::Map<String, Json>, RequestError> {
    let fields = value.as_object().ok_or_else(|| RequestError::NotAnObject(name.to_owned()))?;
    if let Some(unknown) = fields.keys().find(|key| !takes.contains(&key.as_str())) {
        return Err(RequestError::Invalid(format!("{name}.{unknown}")));
    }
    Ok(fields)
}

/// The media type of a `Content-Type` value, lower case, without parameters.
pub fn media_type(content_type: &str) -> Option<String> {
    let media = content_type.split(';').next()?.trim().to_ascii_lowercase();
    Some(media).filter(|media| !media.is_empty())
}

/// Makes an import job awaiting its file. The subscription must have room for one more memory
/// (counting the imports awaiting their files), else [`MemoryError::TooMany`].
pub fn create_import(services: &Services<'_>, subscription_id: &str, new: &NewImport) -> Result<Job, JobError> {
    let now = unix_ms(services);
    sweep(services.db, subscription_id, now)?;
    let id = Id::random(services.random);
    let token = token(services);
    transaction(services.db, RetryPolicy::default(), |db| {
        let held = db.execute(
            "SELECT (SELECT count(*) FROM translation_memories WHERE subscription_id = ?1) + \
                    (SELECT count(*) FROM memory_jobs WHERE subscription_id = ?1 AND operation = 'import' \
                     AND status = 'awaiting_input' AND expires_at > ?2)",
            &[subscription_id.into(), now.into()],
        )?;
        let held: i64 = held.first().map(|row| row.get(0)).transpose()?.unwrap_or(0);
        if held >= MAX_MEMORIES {
            return Err(JobError::Memory(MemoryError::TooMany));
        }
        db.execute(
            "INSERT INTO memory_jobs (id, subscription_id, operation, status, created_at, updated_at, expires_at, \
             url_token, display_name, file_name, content_type, content_length) \
             VALUES (?, ?, 'import', 'awaiting_input', ?, ?, ?, ?, ?, ?, ?, ?)",
            &[
                (&id).into(),
                subscription_id.into(),
                now.into(),
                now.into(),
                (now + UPLOAD_URL_MS).into(),
                token.as_str().into(),
                new.display_name.as_str().into(),
                new.file.file_name.as_str().into(),
                new.file.content_type.as_str().into(),
                new.file.content_length.into(),
            ],
        )?;
        Ok(())
    })?;
    get(services, subscription_id, &id)
}

/// Makes an export job of a memory, or reuses one made while the memory was as it is now and
/// whose download URL has not expired: `(job, reused)`.
pub fn create_export(services: &Services<'_>, subscription_id: &str, memory: &Id) -> Result<(Job, bool), JobError> {
    let now = unix_ms(services);
    sweep(services.db, subscription_id, now)?;
    let id = Id::random(services.random);
    let token = token(services);
    let (job_id, reused) = transaction(services.db, RetryPolicy::default(), |db| {
        let (set_id, version) = store::state(db, subscription_id, memory)?;
        let found = db.execute(
            "SELECT id FROM memory_jobs WHERE subscription_id = ? AND operation = 'export' AND memory_id = ? \
             AND set_id = ? AND set_version = ? AND status IN ('completed', 'downloaded') AND expires_at > ? \
             ORDER BY created_at DESC LIMIT 1",
            &[subscription_id.into(), memory.into(), set_id.into(), version.into(), now.into()],
        )?;
        if let Some(row) = found.first() {
            return Ok((parse_id(&row.get::<String>(0)?)?, true));
        }
        db.execute(
            "INSERT INTO memory_jobs (id, subscription_id, operation, status, created_at, updated_at, expires_at, \
             url_token, memory_id, set_id, set_version) VALUES (?, ?, 'export', 'completed', ?, ?, ?, ?, ?, ?, ?)",
            &[
                (&id).into(),
                subscription_id.into(),
                now.into(),
                now.into(),
                (now + DOWNLOAD_URL_MS).into(),
                token.as_str().into(),
                memory.into(),
                set_id.into(),
                version.into(),
            ],
        )?;
        Ok::<_, JobError>((id, false))
    })?;
    Ok((get(services, subscription_id, &job_id)?, reused))
}

/// One job of the subscription, with its status as of now.
pub fn get(services: &Services<'_>, subscription_id: &str, id: &Id) -> Result<Job, JobError> {
    let result = services.db.execute(
        &format!("{SQL_SELECT_JOB} WHERE id = ? AND subscription_id = ?"),
        &[id.into(), subscription_id.into()],
    )?;
    let row = result.first().ok_or(JobError::NotFound)?;
    current(services, subscription_id, job_from_row(row)?, unix_ms(services))
}

/// A job's status as of `now`: an upload URL past its time is expired, an import whose instance
/// died is failed, and an export of a memory that changed since, or past its time, is expired.
fn current(services: &Services<'_>, subscription_id: &str, mut job: Job, now: i64) -> Result<Job, JobError> {
    match job.status {
        JobStatus::AwaitingInput if job.expires_at <= now => {
            job.status = JobStatus::Expired;
            job.error = Some(JobError::UploadExpired.to_string());
        }
        JobStatus::Processing if now - job.updated_at > STALE_PROCESSING_MS => {
            job.status = JobStatus::Failed;
            job.error = Some(DIED.into());
        }
        JobStatus::Completed | JobStatus::Downloaded if job.operation == JobOperation::Export => {
            if job.expires_at <= now {
                job.status = JobStatus::Expired;
                job.error = Some(JobError::DownloadExpired.to_string());
            } else if !unchanged(services.db, subscription_id, &job)? {
                job.status = JobStatus::Expired;
                job.error = Some(CHANGED.into());
            }
        }
        _ => {}
    }
    Ok(job)
}

/// Whether an export's memory is as it was when the job was made.
fn unchanged(db: &dyn Database, subscription_id: &str, job: &Job) -> Result<bool, JobError> {
    let Some(memory) = &job.memory_id else { return Ok(false) };
    match store::state(db, subscription_id, memory) {
        Ok(now) => Ok(job.made_of == Some(now)),
        Err(MemoryError::NotFound) => Ok(false),
        Err(error) => Err(error.into()),
    }
}

/// The job a URL's id and token name, of `operation`, whoever's it is; a wrong token is not
/// found, like an unknown job.
pub fn by_token(services: &Services<'_>, id: &Id, token: &str, operation: JobOperation) -> Result<Job, JobError> {
    let result = services.db.execute(&format!("{SQL_SELECT_JOB} WHERE id = ?"), &[id.into()])?;
    let row = result.first().ok_or(JobError::NotFound)?;
    let subscription_id: String = row.get(JOB_COLUMNS)?;
    let job = job_from_row(row)?;
    if job.operation != operation || !same_secret(&job.token, token) {
        return Err(JobError::NotFound);
    }
    current(services, &subscription_id, job, unix_ms(services))
}

/// The subscription a job is of (for an upload, which no key names).
pub fn subscription_of(db: &dyn Database, id: &Id) -> Result<String, JobError> {
    let result = db.execute("SELECT subscription_id FROM memory_jobs WHERE id = ?", &[id.into()])?;
    Ok(result.first().ok_or(JobError::NotFound)?.get(0)?)
}

/// Whether an upload may be sent to `job`: it awaits its file, and the request declares the
/// file's media type and length (`Content-Length`, when the body has not been read yet) as the
/// import did.
pub fn check_upload<'a>(
    job: &'a Job,
    content_type: Option<&str>,
    length: Option<usize>,
) -> Result<&'a SourceFile, JobError> {
    match job.status {
        JobStatus::AwaitingInput => {}
        JobStatus::Expired => return Err(JobError::UploadExpired),
        _ => return Err(JobError::UploadUsed),
    }
    let declared = job.file.as_ref().ok_or(JobError::NotFound)?;
    let sent = content_type.and_then(media_type).unwrap_or_default();
    if sent != declared.content_type {
        return Err(JobError::WrongType { sent, declared: declared.content_type.clone() });
    }
    if let Some(sent) = length
        && sent as i64 != declared.content_length
    {
        return Err(JobError::WrongLength { sent, declared: declared.content_length });
    }
    Ok(declared)
}

/// Processes an import's file, sent to its upload URL: the job is claimed (once: a second
/// upload is refused), the file read into a new memory, and the job `completed` or `failed`. A
/// file that cannot be imported is a [`JobError`] the job records as its error; nothing of it is
/// kept.
pub fn upload(
    services: &Services<'_>,
    job: &Job,
    content_type: Option<&str>,
    file: &[u8],
) -> Result<(Job, Result<TranslationMemory, JobError>), JobError> {
    check_upload(job, content_type, Some(file.len()))?;
    let subscription_id = subscription_of(services.db, &job.id)?;
    let now = unix_ms(services);
    let claimed = services.db.execute(
        "UPDATE memory_jobs SET status = 'processing', updated_at = ?2 \
         WHERE id = ?1 AND status = 'awaiting_input' AND expires_at > ?2 RETURNING id",
        &[(&job.id).into(), now.into()],
    )?;
    if claimed.first().is_none() {
        return Err(JobError::UploadUsed);
    }
    let outcome = import_file(services, &subscription_id, job, file);
    let finished = unix_ms(services);
    match &outcome {
        Ok((memory, skipped)) => services.db.execute(
            "UPDATE memory_jobs SET status = 'completed', updated_at = ?, memory_id = ?, skipped = ? WHERE id = ?",
            &[finished.into(), (&memory.id).into(), (*skipped as i64).into(), (&job.id).into()],
        )?,
        Err(error) => {
            let message = match error {
                JobError::Store(_) | JobError::Memory(MemoryError::Store(_)) => {
                    "The file could not be imported because of an internal error; please import it again.".to_owned()
                }
                refused => refused.to_string(),
            };
            services.db.execute(
                "UPDATE memory_jobs SET status = 'failed', updated_at = ?, error = ? WHERE id = ?",
                &[finished.into(), message.into(), (&job.id).into()],
            )?
        }
    };
    let job = get(services, &subscription_id, &job.id)?;
    Ok((job, outcome.map(|(memory, _)| memory)))
}

/// A TMX file as a new memory of the file's languages, named as the job says: the memory, and
/// the variants the file had that gave no segment. A file that fails leaves no memory.
fn import_file(
    services: &Services<'_>,
    subscription_id: &str,
    job: &Job,
    file: &[u8],
) -> Result<(TranslationMemory, usize), JobError> {
    let languages = tmx::languages(file)?;
    let segments = tmx::parse(file, languages.source, &languages.targets)?;
    let raw = RawMemory {
        name: job.display_name.clone(),
        source_language: Some(code_of(languages.source)),
        target_languages: Some(languages.targets.iter().map(|language| code_of(language)).collect()),
    };
    let new = NewMemory::parse(raw)?;
    let memory = store::create(services, subscription_id, &new)?;
    // Named on the job at once, so that an instance that dies mid-import leaves nothing behind
    // for long: the subscription's next job removes it ([`sweep`]).
    services
        .db
        .execute("UPDATE memory_jobs SET memory_id = ? WHERE id = ?", &[(&memory.id).into(), (&job.id).into()])?;
    match store::import(services, subscription_id, &memory.id, &segments.segments, ImportMode::Replace) {
        Ok(imported) => Ok((imported.memory, segments.skipped)),
        Err(error) => {
            // The memory was made for this file only; it goes with the file.
            if let Err(cleanup) = store::delete(services.db, subscription_id, &memory.id) {
                eprintln!("memories: removing the memory of a failed import: {cleanup}");
            }
            Err(error.into())
        }
    }
}

/// The memory an export's download URL writes, and marks the job `downloaded`: the memory and
/// its segments, read in one read transaction, and only while the memory is what it was when the
/// job was made.
pub fn download(services: &Services<'_>, job: &Job) -> Result<(TranslationMemory, Vec<store::Segment>), JobError> {
    match job.status {
        JobStatus::Completed | JobStatus::Downloaded => {}
        _ => return Err(JobError::DownloadExpired),
    }
    let memory = job.memory_id.ok_or(JobError::NotFound)?;
    let subscription_id = subscription_of(services.db, &job.id)?;
    let (found, segments, state) = store::export_with_state(services.db, &subscription_id, &memory)?;
    if job.made_of != Some(state) {
        return Err(JobError::DownloadExpired);
    }
    services.db.execute(
        "UPDATE memory_jobs SET status = 'downloaded', updated_at = ? WHERE id = ?",
        &[unix_ms(services).into(), (&job.id).into()],
    )?;
    Ok((found, segments))
}

/// Removes the subscription's jobs older than [`JOB_RETENTION_MS`], and fails its imports whose
/// instance died while processing them, removing the memory each had begun.
fn sweep(db: &dyn Database, subscription_id: &str, now: i64) -> Result<(), JobError> {
    db.execute(
        "DELETE FROM memory_jobs WHERE subscription_id = ? AND created_at < ?",
        &[subscription_id.into(), (now - JOB_RETENTION_MS).into()],
    )?;
    let stale = db.execute(
        "SELECT id, memory_id FROM memory_jobs WHERE subscription_id = ? AND status = 'processing' AND updated_at < ?",
        &[subscription_id.into(), (now - STALE_PROCESSING_MS).into()],
    )?;
    for row in &stale.rows {
        let (job, memory): (String, Option<String>) = (row.get(0)?, row.get(1)?);
        if let Some(memory) = memory.as_deref().map(parse_id).transpose()? {
            match store::delete(db, subscription_id, &memory) {
                Ok(()) | Err(MemoryError::NotFound) => {}
                Err(error) => return Err(error.into()),
            }
        }
        db.execute(
            "UPDATE memory_jobs SET status = 'failed', updated_at = ?, error = ?, memory_id = NULL WHERE id = ?",
            &[now.into(), DIED.into(), job.into()],
        )?;
    }
    Ok(())
}

/// Why an import whose instance died failed, as its job says.
const DIED: &str = "The import did not finish; please import the file again.";

/// A new URL token: 32 random bytes as 64 hex digits.
fn token(services: &Services<'_>) -> String {
    let mut bytes = [0u8; 32];
    services.random.fill(&mut bytes);
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Compares two secrets in a time that does not depend on where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |differ, (x, y)| differ | (x ^ y)) == 0
}

/// A job's columns, in [`job_from_row`]'s order; the subscription follows them.
const SQL_SELECT_JOB: &str = "SELECT id, operation, status, created_at, updated_at, expires_at, url_token, memory_id, \
     display_name, file_name, content_type, content_length, skipped, error, set_id, set_version, subscription_id \
     FROM memory_jobs";

/// How many columns [`job_from_row`] reads.
const JOB_COLUMNS: usize = 16;

fn job_from_row(row: &Row) -> Result<Job, DbError> {
    let operation = match row.get::<String>(1)?.as_str() {
        "import" => JobOperation::Import,
        "export" => JobOperation::Export,
        other => return Err(DbError::Decode(format!("{other:?} is no job operation"))),
    };
    let file_name: Option<String> = row.get(9)?;
    let file = match file_name {
        Some(file_name) => Some(SourceFile { file_name, content_type: row.get(10)?, content_length: row.get(11)? }),
        None => None,
    };
    let memory_id: Option<String> = row.get(7)?;
    let (set_id, set_version): (Option<i64>, Option<i64>) = (row.get(14)?, row.get(15)?);
    Ok(Job {
        id: parse_id(&row.get::<String>(0)?)?,
        operation,
        status: JobStatus::stored(&row.get::<String>(2)?)?,
        created_at: row.get(3)?,
        updated_at: row.get(4)?,
        expires_at: row.get(5)?,
        token: row.get(6)?,
        memory_id: memory_id.as_deref().map(parse_id).transpose()?,
        display_name: row.get(8)?,
        file,
        skipped: row.get(12)?,
        error: row.get(13)?,
        made_of: set_id.zip(set_version),
    })
}

fn parse_id(text: &str) -> Result<Id, DbError> {
    Id::parse(text).ok_or_else(|| DbError::Decode(format!("{text:?} is no id")))
}

fn unix_ms(services: &Services<'_>) -> i64 {
    services.clock.now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as i64).max(1)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use platform::FixedClock;
    use platform::native::NativeHost;
    use serde_json::json;

    use super::*;

    fn fixture() -> NativeHost {
        let clock = FixedClock::new(UNIX_EPOCH + Duration::from_secs(1_795_255_200));
        let schema =
            [include_str!("../../../sql/0011_memories.sql"), include_str!("../../../sql/0012_memory_jobs.sql")];
        NativeHost::in_memory(&schema, clock).expect("set up the host")
    }

    const FILE: &str = "<tmx version='1.4'><header srclang='en-US'/><body>\
        <tu><tuv xml:lang='en-US'><seg>Hello</seg></tuv><tuv xml:lang='de-DE'><seg>Hallo</seg></tuv>\
        <tuv xml:lang='pt-BR'><seg>Olá</seg></tuv></tu>\
        <tu><tuv xml:lang='en-US'><seg>Bye</seg></tuv><tuv xml:lang='fr'><seg>Salut</seg></tuv></tu></body></tmx>";

    fn import(fixture: &NativeHost, length: usize) -> Job {
        let new = NewImport::parse(
            Some(&json!({"file_name": "legal.tmx", "content_length": length})),
            Some(&json!({"display_name": "Legal"})),
        )
        .unwrap();
        create_import(&fixture.services(), "s", &new).unwrap()
    }

    #[test]
    fn imports_are_declared_with_a_file_and_a_name() {
        let parse = |file: serde_json::Value, parameters: Option<serde_json::Value>| {
            NewImport::parse(Some(&file), parameters.as_ref()).map_err(|error| error.to_string())
        };
        let new = parse(json!({"file_name": " a.tmx ", "content_length": 10}), None).unwrap();
        assert_eq!((new.display_name.as_str(), new.file.content_type.as_str()), ("a.tmx", "application/xml"));
        let new = parse(
            json!({"file_name": "a.tmx", "content_length": 10, "content_type": "TEXT/XML; charset=utf-8"}),
            Some(json!({"display_name": "TM"})),
        )
        .unwrap();
        assert_eq!((new.display_name.as_str(), new.file.content_type.as_str()), ("TM", "text/xml"));
        assert_eq!(
            parse(json!({"content_length": 10}), None).unwrap_err(),
            "Parameter 'source_file.file_name' not specified"
        );
        assert_eq!(
            parse(json!({"file_name": "a", "content_length": 0}), None).unwrap_err(),
            "Value for 'source_file.content_length' not supported: it must be an integer from 1 to 67108864."
        );
        assert!(matches!(
            NewImport::parse(Some(&json!({"file_name": "a", "content_length": MAX_TMX_BYTES + 1})), None),
            Err(JobError::TooLarge)
        ));
        assert!(
            parse(json!({"file_name": "a", "content_length": 1, "content_type": "text/csv"}), None)
                .unwrap_err()
                .contains("'text/csv'")
        );
        assert_eq!(
            parse(json!({"file_name": "a", "content_length": 1, "size": 1}), None).unwrap_err(),
            "Value for 'source_file.size' not supported."
        );
        assert_eq!(
            parse(json!("a.tmx"), None).unwrap_err(),
            "Value for 'source_file' not supported: it must be a JSON object."
        );
        assert!(
            parse(json!({"file_name": "a", "content_length": 1}), Some(json!({"display_name": "n".repeat(1025)})))
                .unwrap_err()
                .contains("parameters.display_name")
        );
        assert!(matches!(NewImport::parse(None, None), Err(JobError::Request(RequestError::Missing(_)))));
    }

    #[test]
    fn an_upload_makes_a_memory_of_the_file_s_languages_once() {
        let fixture = fixture();
        let services = fixture.services();
        let job = import(&fixture, FILE.len());
        assert_eq!(
            (job.status, job.operation, job.expires_at - job.created_at),
            (JobStatus::AwaitingInput, JobOperation::Import, UPLOAD_URL_MS)
        );
        assert!(matches!(
            by_token(&services, &job.id, "0".repeat(64).as_str(), JobOperation::Import),
            Err(JobError::NotFound)
        ));
        assert!(matches!(by_token(&services, &job.id, &job.token, JobOperation::Export), Err(JobError::NotFound)));
        assert!(matches!(get(&services, "other", &job.id), Err(JobError::NotFound)));
        let found = by_token(&services, &job.id, &job.token, JobOperation::Import).unwrap();

        assert!(matches!(
            upload(&services, &found, Some("text/plain"), FILE.as_bytes()),
            Err(JobError::WrongType { .. })
        ));
        assert!(matches!(
            upload(&services, &found, Some("application/xml"), b"<tmx/>"),
            Err(JobError::WrongLength { sent: 6, .. })
        ));
        let (done, memory) = upload(&services, &found, Some("application/xml"), FILE.as_bytes()).unwrap();
        let memory = memory.unwrap();
        assert_eq!((done.status, done.memory_id, done.skipped), (JobStatus::Completed, Some(memory.id), Some(1)));
        let targets: Vec<String> = memory.targets.iter().map(|language| code_of(language)).collect();
        assert_eq!(
            (memory.name.as_str(), code_of(memory.source), targets, memory.segment_count),
            ("Legal", "en".into(), vec!["de".into(), "fr".into()], 2)
        );
        assert!(matches!(
            upload(&services, &found, Some("application/xml"), FILE.as_bytes()),
            Err(JobError::UploadUsed)
        ));
        assert_eq!(store::list(&fixture.db, "s", crate::request::Page { offset: 0, limit: 10 }).unwrap().1, 1);
    }

    #[test]
    fn a_file_that_cannot_be_imported_fails_its_job_and_leaves_nothing() {
        let fixture = fixture();
        let services = fixture.services();
        let broken = "<tmx><header srclang='en'/><body><tu><tuv xml:lang='en'><seg>a</seg></tuv><tuv xml:lang='de'><seg>b</tuv></tu></body></tmx>";
        let job = import(&fixture, broken.len());
        let (failed, outcome) = upload(&services, &job, Some("application/xml"), broken.as_bytes()).unwrap();
        assert!(matches!(outcome, Err(JobError::Tmx(TmxError::Malformed { line: 1, .. }))));
        assert_eq!(failed.status, JobStatus::Failed);
        assert!(failed.error.unwrap().starts_with("Invalid TMX file:"));
        assert_eq!(store::list(&fixture.db, "s", crate::request::Page { offset: 0, limit: 10 }).unwrap().1, 0);
    }

    #[test]
    fn an_import_whose_instance_died_fails_and_leaves_no_memory() {
        let fixture = fixture();
        let services = fixture.services();
        let job = import(&fixture, FILE.len());
        // What an instance leaves when it dies mid-import: the job processing, its memory begun.
        let memory = store::create(
            &services,
            "s",
            &crate::request::NewMemory {
                name: "Legal".into(),
                source: catalogue::find("en").unwrap(),
                targets: vec![catalogue::find("de").unwrap()],
            },
        )
        .unwrap();
        fixture
            .db
            .execute(
                "UPDATE memory_jobs SET status = 'processing', memory_id = ? WHERE id = ?",
                &[(&memory.id).into(), (&job.id).into()],
            )
            .unwrap();
        assert_eq!(get(&services, "s", &job.id).unwrap().status, JobStatus::Processing);
        fixture.clock.advance(Duration::from_millis(STALE_PROCESSING_MS as u64 + 1));
        let failed = get(&services, "s", &job.id).unwrap();
        assert_eq!((failed.status, failed.error.as_deref()), (JobStatus::Failed, Some(DIED)));
        import(&fixture, 1);
        assert!(matches!(store::get(&fixture.db, "s", &memory.id), Err(MemoryError::NotFound)), "removed");
        assert_eq!(get(&services, "s", &job.id).unwrap().memory_id, None);
    }

    #[test]
    fn an_upload_url_expires() {
        let fixture = fixture();
        let services = fixture.services();
        let job = import(&fixture, FILE.len());
        fixture.clock.advance(Duration::from_millis(UPLOAD_URL_MS as u64));
        let expired = by_token(&services, &job.id, &job.token, JobOperation::Import).unwrap();
        assert_eq!(expired.status, JobStatus::Expired);
        assert!(matches!(
            upload(&services, &expired, Some("application/xml"), FILE.as_bytes()),
            Err(JobError::UploadExpired)
        ));
    }

    #[test]
    fn an_export_is_reused_until_its_memory_changes() {
        let fixture = fixture();
        let services = fixture.services();
        let job = import(&fixture, FILE.len());
        let (_, memory) = upload(&services, &job, Some("application/xml"), FILE.as_bytes()).unwrap();
        let memory = memory.unwrap();
        let (export, reused) = create_export(&services, "s", &memory.id).unwrap();
        assert_eq!((export.status, reused), (JobStatus::Completed, false));
        let (again, reused) = create_export(&services, "s", &memory.id).unwrap();
        assert_eq!((again.id, reused), (export.id, true));
        assert!(matches!(create_export(&services, "other", &memory.id), Err(JobError::Memory(MemoryError::NotFound))));

        let (found, segments) = download(&services, &export).unwrap();
        assert_eq!((found.id, segments.len()), (memory.id, 2));
        assert_eq!(get(&services, "s", &export.id).unwrap().status, JobStatus::Downloaded);

        let new = [crate::request::NewSegment {
            target_language: catalogue::find("de").unwrap(),
            source: "Yes".into(),
            target: "Ja".into(),
        }];
        store::add_segments(&services, "s", &memory.id, &new).unwrap();
        let stale = get(&services, "s", &export.id).unwrap();
        assert_eq!((stale.status, stale.error.as_deref()), (JobStatus::Expired, Some(CHANGED)));
        assert!(matches!(download(&services, &stale), Err(JobError::DownloadExpired)));
        let (fresh, reused) = create_export(&services, "s", &memory.id).unwrap();
        assert!(!reused && fresh.id != export.id);
        assert_eq!(download(&services, &fresh).unwrap().1.len(), 3);
    }
}
