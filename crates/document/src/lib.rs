//! Document translation (`/v2/document`): a file uploaded, translated after the upload has been
//! answered, its status asked, its translation downloaded once.
//!
//! * `format.rs`: the document types ([`Format`]), their limits, and how a file is cut into
//!   pieces to translate and kept ones, and put back together.
//! * `request.rs`: an upload's parameters validated ([`request::parse`]): the file and the
//!   translation's parameters, checked as text translation checks them.
//! * `store.rs`: documents, their pieces and results in SQLite; leases; retention.
//! * `work.rs`: the work, in slices under a lease ([`work::advance`]), resumable by any worker.
//! * `views.rs`: the answers' shapes.
//! * `edge.rs`: the only file that knows HTTP: an upload read from its multipart body, the
//!   document key read from a form, JSON or query, the download's response, and the answer for
//!   each failure.
//!
//! Billing: an upload reserves its characters (`metering::reserve`) within every limit, so
//! that uploads made together cannot go beyond one; the first download charges them
//! (`metering::settle`, once); a document that fails or is never downloaded gives them back.
//! Images (beta) bill nothing: their text is read after the upload, and not counted.

mod edge;
pub mod format;
pub mod request;
pub mod store;
mod views;
pub mod work;

#[cfg(test)]
mod tests;

use std::time::Duration;

use accounts::{Plan, Principal};
use engines::language_tools::ToolsError;
use metering::{Charge, ChargeError, Product};
use platform::{DbError, Services};

pub use edge::{document_key, download_response, read_upload};
pub use format::Format;
pub use request::{Options, RawUpload, Upload, UploadError};
pub use store::{Document, Status};
pub use views::{Handle, StatusView};
pub use work::{Engines, WorkError, advance};

/// How long a document is kept when it is never downloaded, unless `document_retention_hours`
/// says otherwise.
pub const DEFAULT_RETENTION_HOURS: i64 = 24;

/// How long a status or result call works on a document that no worker holds.
pub const CALL_BUDGET: Duration = Duration::from_secs(2);

/// How long the upload's request works on its document after answering. Under the local
/// runner the whole request has 60 s; under `spin up` it has no limit, but a worker that stops
/// lets status calls go on, so nothing depends on it.
pub const AFTER_UPLOAD_BUDGET: Duration = Duration::from_secs(40);

/// Why a document call failed.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error(transparent)]
    Upload(#[from] UploadError),
    /// Unknown, another subscription's, a wrong key, downloaded, or past its retention.
    #[error("Document not found")]
    NotFound,
    /// The result was asked before the document was done.
    #[error("Document translation is not done")]
    NotDone { seconds_remaining: i64 },
    #[error("Document translation failed: {0}")]
    Failed(String),
    /// A PDF or an image, where no language-tools service is configured to read it.
    #[error("{}", work::NO_TOOLS)]
    NoTools,
    /// The language-tools service could not read a PDF at upload (down, or failing).
    #[error("The language-tools service is unavailable right now; try again later.")]
    ToolsUnavailable,
    /// The reservation or the charge was refused (456) or failed.
    #[error(transparent)]
    Charge(#[from] ChargeError),
    #[error("document_retention_hours must be a whole number of hours from 1 to 8760, not {0:?}")]
    Retention(String),
    /// A glossary the upload names is unknown, or has no dictionary for the pair.
    #[error(transparent)]
    Glossary(#[from] glossary::LookupError),
    /// A style rule list or memory the upload names is unknown or does not fit.
    #[error(transparent)]
    Named(#[from] translation::TranslateError),
    #[error("document store: {0}")]
    Store(#[from] DbError),
}

impl From<WorkError> for DocumentError {
    fn from(WorkError(error): WorkError) -> DocumentError {
        DocumentError::Store(error)
    }
}

/// `bytes` random bytes as upper-case hex digits: a document's id (16), its key (32), a
/// worker's name in a lease (16).
fn random_hex(services: &Services<'_>, bytes: usize) -> String {
    let mut buffer = vec![0u8; bytes];
    services.random.fill(&mut buffer);
    buffer.iter().map(|byte| format!("{byte:02X}")).collect()
}

/// The retention from `document_retention_hours` (milliseconds).
fn retention_ms(services: &Services<'_>) -> Result<i64, DocumentError> {
    let value = services.vars.get("document_retention_hours").ok().flatten().filter(|value| !value.trim().is_empty());
    let hours = match value {
        None => DEFAULT_RETENTION_HOURS,
        Some(value) => match value.trim().parse::<i64>() {
            Ok(hours) if (1..=8760).contains(&hours) => hours,
            _ => return Err(DocumentError::Retention(value)),
        },
    };
    Ok(hours * 60 * 60 * 1000)
}

/// Checks what a valid upload names by id, as text translation checks it: its glossaries
/// (404 unknown, 400 without the pair), style rule list and translation memory.
pub fn check_named(
    services: &Services<'_>,
    engines: Engines<'_>,
    principal: &Principal,
    upload: &Upload,
) -> Result<(), DocumentError> {
    let db = services.db;
    let subscription = principal.subscription.id.as_str();
    let request = &upload.request;
    let terms = glossary::Terms::resolve(db, subscription, &request.glossary_ids, request.source, request.target)?;
    let styles = styles::Styles::new(db, subscription);
    let memories = memory::Memories::new(db, subscription);
    let sources = translation::Sources { terms: &terms, styles: &styles, memories: &memories };
    // A request without texts: what it names is checked, nothing is translated.
    translation::translate(request, engines.engine, &sources, engines.detector)?;
    Ok(())
}

/// Reads a valid upload's text through the language-tools service where its type needs it: a
/// PDF's text blocks are read now, so that its characters are counted against the plan's
/// limit and reserved like every other type's; an image is read after the upload. Without a
/// service, neither is taken (503).
pub fn read_layout(engines: Engines<'_>, mut upload: Upload, plan: Plan) -> Result<Upload, DocumentError> {
    if !upload.format.needs_tools() {
        return Ok(upload);
    }
    let tools = engines.tools.ok_or(DocumentError::NoTools)?;
    if upload.format != Format::Pdf {
        return Ok(upload);
    }
    let layout = tools.read_pdf(&upload.file).map_err(|error| match error {
        ToolsError::Refused(why) => DocumentError::Upload(UploadError::InvalidFile(why)),
        ToolsError::Unavailable(_) | ToolsError::Invalid(_) => {
            eprintln!("a PDF upload could not be read: {error}");
            DocumentError::ToolsUnavailable
        }
    })?;
    let cut = format::pdf::cut_layout(&layout).map_err(UploadError::from)?;
    let max = format::max_characters(plan);
    if cut.characters > max {
        return Err(UploadError::TooManyCharacters { count: cut.characters, max }.into());
    }
    upload.cut = cut;
    Ok(upload)
}

/// Stores a valid upload for `principal`, its characters reserved, and answers its id and key.
/// Documents whose retention has ended are swept first (a bounded batch).
pub fn create(services: &Services<'_>, principal: &Principal, upload: Upload) -> Result<Handle, DocumentError> {
    let now = work::unix_ms(services);
    let retention = retention_ms(services)?;
    store::sweep(services, now)?;
    let id = random_hex(services, 16);
    let key = random_hex(services, 32);
    let holder = store::holder(&id);
    let characters = upload.billed_characters();
    let charge = Charge { principal, product: Product::Document, units: characters, tag: None };
    metering::reserve(services, charge, &holder)?;
    let new = store::NewDocument {
        id: &id,
        key: &key,
        subscription_id: &principal.subscription.id,
        key_id: principal.key.id.as_str(),
        format: upload.format,
        file_name: &upload.file_name,
        options: &upload.options,
        cut: &upload.cut,
        source: upload.format.keeps_source().then_some(upload.file),
        characters,
        now,
        expires_at: now + retention,
    };
    if let Err(error) = store::insert(services.db, new) {
        metering::release(services, &holder)?;
        return Err(error.into());
    }
    Ok(Handle { document_id: id, document_key: key })
}

/// The subscription's document `id` if `key` is its key, after working on it for at most
/// [`CALL_BUDGET`] when no worker holds it. Documents whose retention has ended are swept first,
/// as on upload.
pub fn status(
    services: &Services<'_>,
    engines: Engines<'_>,
    principal: &Principal,
    id: &str,
    key: &str,
) -> Result<Document, DocumentError> {
    let subscription = principal.subscription.id.as_str();
    let now = work::unix_ms(services);
    // Expired documents give their reservations back as soon as anyone asks after documents.
    store::sweep(services, now)?;
    let found = store::find(services.db, subscription, id, key, now)?.ok_or(DocumentError::NotFound)?;
    if !found.is_free(now) {
        return Ok(found);
    }
    if let Err(error) = work::advance(services, engines, id, CALL_BUDGET) {
        // The status is answered; the next call or worker goes on.
        eprintln!("document {id}: a status call's work failed: {error}");
    }
    store::find(services.db, subscription, id, key, now)?.ok_or(DocumentError::NotFound)
}

/// A document's translation, downloaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    pub format: Format,
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// The translation of the subscription's document `id`, if `key` is its key and it is done: the
/// document's characters are charged (once), and it is deleted.
pub fn download(
    services: &Services<'_>,
    engines: Engines<'_>,
    principal: &Principal,
    id: &str,
    key: &str,
) -> Result<Download, DocumentError> {
    let document = status(services, engines, principal, id, key)?;
    match document.status {
        Status::Done => {}
        Status::Error => return Err(DocumentError::Failed(document.error_message.unwrap_or_default())),
        Status::Queued | Status::Translating => {
            return Err(DocumentError::NotDone { seconds_remaining: work::seconds_remaining(&document) });
        }
    }
    let bytes = store::file(services.db, id, store::FileKind::Result)?;
    metering::settle(services, &document.holder(), document.characters)?;
    store::delete(services.db, id)?;
    // A PDF translated into a Word document is downloaded as one.
    if document.options.output_format.as_deref() == Some("docx") {
        let stem = document.file_name.rsplit_once('.').map_or(document.file_name.as_str(), |(stem, _)| stem);
        return Ok(Download { format: Format::Docx, file_name: format!("{stem}.docx"), bytes });
    }
    Ok(Download { format: document.format, file_name: document.file_name, bytes })
}
