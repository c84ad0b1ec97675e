//! The work on a document, in slices: a worker takes the document's lease, detects its source
//! language once (when none was given), translates its pieces in batches, each batch saved
//! with its lease renewed, and, after the last, puts the output together. An image is first
//! read by OCR and cut (its pieces and the language it was read in saved together), and its
//! output is painted; a PDF's scanned pages are read by OCR first, a page at a time, each adding
//! its pieces, and its output is written: all by the language-tools service, whose failures
//! count as the engine's. It stops when its
//! time budget is spent, giving the lease back, so that the next worker (the upload's work
//! after its response, or any status or result call) goes on from the last batch saved.
//!
//! A worker that dies (the process killed, the instance stopped) keeps its lease until
//! [`LEASE_MS`] after its last batch; then the next worker takes over. A batch is saved only by
//! the worker that still holds the lease, so no piece is translated into the output twice.
//!
//! The engine failing is retried by a later worker (after [`ENGINE_RETRY_MS`] times the failures
//! so far), [`ENGINE_ATTEMPTS`] times in all; any other failure ends the document as `error` at
//! once. Either way its reservation is given back: a failed document bills nothing.

use std::time::{Duration, Instant, UNIX_EPOCH};

use catalogue::Language;
use engines::language_tools::{PaintParagraph, ToolsError};
use engines::{DetectLanguage, Engine, EngineError};
use markup::{Markup, TagOptions};
use platform::{DbError, Services};
use translation::{Sources, TranslateError};

use crate::format::{Format, FormatError, LayoutTools, image, pdf};
use crate::store::{self, Document, Status};

/// How long a worker's lease lasts after its last batch (milliseconds): longer than any one
/// batch takes.
pub const LEASE_MS: i64 = 60_000;

/// How often the engine may fail on a document before it ends as `error`.
pub const ENGINE_ATTEMPTS: i64 = 3;

/// How long a document waits after the engine failed on it, times the failures so far
/// (milliseconds): an engine that is down for half a minute fails no document.
pub const ENGINE_RETRY_MS: i64 = 10_000;

/// A batch: at most this many pieces, and about this many bytes of source.
const BATCH_PIECES: usize = 50;
const BATCH_BYTES: usize = 16 * 1024;

/// How much of a document its source language is detected from (bytes of its first pieces).
const DETECTION_SAMPLE_BYTES: usize = 4096;

/// The message of a document whose engine kept failing: the cause is logged, not shown.
const ENGINE_FAILED: &str = "The translation engine failed on this document; please upload it again later.";

/// The message of a document that failed inside Glossa: the cause is logged, not shown.
const INTERNAL: &str = "The document could not be translated because of an internal error.";

/// The message of a PDF or image uploaded where no language-tools service is configured.
pub const NO_TOOLS: &str =
    "PDFs and images are read and written by the language-tools service, which this deployment does not run.";

/// What translates: the engine and the detector, as text translation configures them, and the
/// language-tools service's document work (`None` where no service is configured).
#[derive(Clone, Copy)]
pub struct Engines<'a> {
    pub engine: &'a dyn Engine,
    pub detector: &'a dyn DetectLanguage,
    pub tools: Option<&'a dyn LayoutTools>,
}

/// The database failed under a worker; the document is left to the next one.
#[derive(Debug, thiserror::Error)]
#[error("document store: {0}")]
pub struct WorkError(#[from] pub DbError);

/// Works on document `id` for at most about `budget` (a batch that has begun is finished), if
/// it is unfinished and no other worker holds it. Answers whether it took it.
pub fn advance(services: &Services<'_>, engines: Engines<'_>, id: &str, budget: Duration) -> Result<bool, WorkError> {
    let started = Instant::now();
    let holder = crate::random_hex(services, 16);
    let now = unix_ms(services);
    let Some(document) = store::claim(services.db, id, &holder, now, now + LEASE_MS)? else {
        return Ok(false);
    };
    let worker = Worker { services, engines, document: &document, holder: &holder };
    match worker.run(started, budget) {
        Ok(()) => Ok(true),
        Err(Stop::Failed(message)) => {
            worker.fail(&message)?;
            Ok(true)
        }
        Err(Stop::EngineFailed(cause)) => {
            if document.attempts + 1 >= ENGINE_ATTEMPTS {
                eprintln!("document {id}: the engine failed {ENGINE_ATTEMPTS} times; the last: {cause}");
                worker.fail(ENGINE_FAILED)?;
            } else {
                let wait = ENGINE_RETRY_MS * (document.attempts + 1);
                eprintln!("document {id}: the engine failed (tried again in {} s): {cause}", wait / 1000);
                store::release_failed(services.db, id, &holder, unix_ms(services) + wait)?;
            }
            Ok(true)
        }
        Err(Stop::Store(error)) => {
            // Left to the next worker once the lease ends.
            Err(WorkError(error))
        }
    }
}

/// Why a worker stopped before the document was done.
enum Stop {
    /// The document cannot be translated: it ends as `error` with this message.
    Failed(String),
    /// The engine failed; the next worker tries again.
    EngineFailed(String),
    Store(DbError),
}

impl From<DbError> for Stop {
    fn from(error: DbError) -> Stop {
        Stop::Store(error)
    }
}

impl From<ToolsError> for Stop {
    fn from(error: ToolsError) -> Stop {
        match error {
            ToolsError::Refused(message) => Stop::Failed(format!("The document cannot be translated: {message}")),
            ToolsError::Unavailable(_) => Stop::EngineFailed(error.to_string()),
            ToolsError::Invalid(_) => {
                eprintln!("document image work failed: {error}");
                Stop::Failed(INTERNAL.to_owned())
            }
        }
    }
}

impl From<FormatError> for Stop {
    fn from(error: FormatError) -> Stop {
        Stop::Failed(error.to_string())
    }
}

impl From<TranslateError> for Stop {
    fn from(error: TranslateError) -> Stop {
        match error {
            // A pair the engine lacks stays lacking: only a failure may pass.
            TranslateError::Engine(unsupported @ EngineError::UnsupportedPair { .. }) => {
                Stop::Failed(unsupported.to_string())
            }
            TranslateError::Engine(error) => Stop::EngineFailed(error.to_string()),
            TranslateError::Source(_) | TranslateError::Render(_) => {
                eprintln!("document translation failed: {error}");
                Stop::Failed(INTERNAL.to_owned())
            }
            mistake => Stop::Failed(mistake.to_string()),
        }
    }
}

struct Worker<'w, 's> {
    services: &'w Services<'s>,
    engines: Engines<'w>,
    document: &'w Document,
    holder: &'w str,
}

impl Worker<'_, '_> {
    fn run(&self, started: Instant, budget: Duration) -> Result<(), Stop> {
        let db = self.services.db;
        let document = self.document;
        let request = document
            .options
            .request(document.format, None, vec![String::new()])
            .map_err(|error| Stop::Failed(error.to_string()))?;
        let mut given = document.source_lang.clone();
        if document.format.is_image() && !store::is_cut(db, &document.id)? {
            match self.read_image(request.target)? {
                Some(language) => given = Some(given.unwrap_or(language)),
                // Another worker took over after this one's lease ran out: it goes on.
                None => return Ok(()),
            }
        }
        if document.format == Format::Pdf && !self.read_scans(started, budget)? {
            return Ok(());
        }
        let source = match given {
            Some(code) => code,
            None => self.detect_source(request.target)?,
        };
        let request = document
            .options
            .request(document.format, Some(&source), vec![String::new()])
            .map_err(|error| Stop::Failed(error.to_string()))?;
        let subscription = document.subscription_id.as_str();
        let terms = glossary::Terms::resolve(db, subscription, &request.glossary_ids, request.source, request.target)
            .map_err(|error| match error {
            glossary::LookupError::Store(error) => Stop::Store(error),
            mistake => Stop::Failed(mistake.to_string()),
        })?;
        let styles = styles::Styles::new(db, subscription);
        let memories = memory::Memories::new(db, subscription);
        let sources = Sources { terms: &terms, styles: &styles, memories: &memories };

        // Each batch is timed from the end of the one before (its reading and saving included),
        // for an honest estimate of the time left.
        let mut since = Instant::now();
        loop {
            let batch = self.next_batch()?;
            if batch.is_empty() {
                return self.finish(request.target);
            }
            let (positions, texts): (Vec<i64>, Vec<String>) = batch.into_iter().unzip();
            let request = translation::TranslateRequest { texts, ..request.clone() };
            let translated = translation::translate(&request, self.engines.engine, &sources, self.engines.detector)?;
            let pairs: Vec<(i64, String)> =
                positions.into_iter().zip(translated.items.into_iter().map(|item| item.text)).collect();
            let work_ms = since.elapsed().as_millis() as i64;
            since = Instant::now();
            let until = unix_ms(self.services) + LEASE_MS;
            if !store::save(db, &document.id, self.holder, &pairs, work_ms, until)? {
                // Another worker took over after this one's lease ran out: it goes on.
                return Ok(());
            }
            if started.elapsed() >= budget {
                store::release(db, &document.id, self.holder)?;
                return Ok(());
            }
        }
    }

    /// The next pieces to translate: up to [`BATCH_PIECES`], and [`BATCH_BYTES`] unless the
    /// first alone is larger.
    fn next_batch(&self) -> Result<Vec<(i64, String)>, DbError> {
        let mut pending = store::pending(self.services.db, &self.document.id, BATCH_PIECES)?;
        let mut bytes = 0;
        let keep = pending
            .iter()
            .position(|(_, text)| {
                bytes += text.len();
                bytes > BATCH_BYTES
            })
            .map_or(pending.len(), |over| over.max(1));
        pending.truncate(keep);
        Ok(pending)
    }

    /// Reads an image by OCR, in its source language when one was given, and saves its pieces
    /// with the language it was read in. Answers that language, or `None` when another worker
    /// holds the document now. An image already in its target language cannot be translated.
    fn read_image(&self, target: &'static Language) -> Result<Option<String>, Stop> {
        let db = self.services.db;
        let document = self.document;
        let file = store::file(db, &document.id, store::FileKind::Source)?;
        let given = document.source_lang.as_deref().and_then(catalogue::find).map(Language::base_code);
        let read = self.tools()?.ocr(&file, given)?;
        let language = catalogue::find(&read.language)
            .map(Language::base)
            .ok_or_else(|| Stop::from(ToolsError::Invalid(format!("unknown language {:?}", read.language))))?;
        if given.is_none() && language.base_code() == target.base_code() {
            return Err(same_language(language));
        }
        let cut = image::cut_read(&read);
        let until = unix_ms(self.services) + LEASE_MS;
        let added = store::add_pieces(db, &document.id, self.holder, &cut, Some(language.code()), until)?;
        Ok(added.then(|| language.code().to_owned()))
    }

    /// Reads a PDF's scanned pages that are not read yet by OCR, one at a time, each page's pieces
    /// saved as soon as it is read. Answers `false` when this worker must stop: its time budget is
    /// spent (the lease given back), or another worker holds the document now.
    fn read_scans(&self, started: Instant, budget: Duration) -> Result<bool, Stop> {
        let db = self.services.db;
        let document = self.document;
        let left = pdf::scans_left(&store::kept_pieces(db, &document.id)?)?;
        if left.is_empty() {
            return Ok(true);
        }
        let file = store::file(db, &document.id, store::FileKind::Source)?;
        let given = document.source_lang.as_deref().and_then(catalogue::find).map(Language::base_code);
        for page in left {
            let read = self.tools()?.read_scanned_page(&file, page + 1, given)?;
            let until = unix_ms(self.services) + LEASE_MS;
            if !store::add_pieces(db, &document.id, self.holder, &pdf::cut_scanned(page, &read), None, until)? {
                return Ok(false);
            }
            if started.elapsed() >= budget {
                store::release(db, &document.id, self.holder)?;
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Detects the document's source language from its first pieces, and records it; a
    /// document already in its target language cannot be translated.
    fn detect_source(&self, target: &'static Language) -> Result<String, Stop> {
        let document = self.document;
        let mut sample = String::new();
        for (_, text) in store::pending(self.services.db, &document.id, BATCH_PIECES)? {
            if sample.len() >= DETECTION_SAMPLE_BYTES {
                break;
            }
            sample.push_str(&readable(document.format, &text));
            sample.push('\n');
        }
        let detected = self.engines.detector.detect_each(&[sample]).into_iter().next().and_then(|found| found.language);
        let source = detected.unwrap_or_else(|| catalogue::find("en").expect("the catalogue has English")).base();
        if source.base_code() == target.base_code() {
            return Err(same_language(source));
        }
        store::set_source(self.services.db, &document.id, self.holder, source.code())?;
        Ok(source.code().to_owned())
    }

    /// Puts the translation together (or paints it, on an image) and ends the work; a file that
    /// cannot be rebuilt ends the document as `error`.
    fn finish(&self, target: &'static Language) -> Result<(), Stop> {
        let db = self.services.db;
        let document = self.document;
        let outputs = store::translated_pieces(db, &document.id)?;
        let source = match document.format.keeps_source() {
            true => Some(store::file(db, &document.id, store::FileKind::Source)?),
            false => None,
        };
        let output = match (document.format, source) {
            (Format::Png | Format::Jpeg, Some(file)) => self.paint(file, &outputs, target)?,
            (Format::Pdf, Some(file)) => {
                let pages = pdf::write_request(&outputs)?;
                match document.options.output_format.as_deref() {
                    Some("docx") => crate::format::pdf_to_docx(&pages, &self.tools()?.pdf_images(&file)?)?,
                    _ => self.tools()?.write_pdf(&file, target.base_code(), &pages)?,
                }
            }
            (format, source) => format.assemble(source.as_deref(), &outputs)?,
        };
        store::finish(db, &document.id, self.holder, output, unix_ms(self.services))?;
        Ok(())
    }

    /// An image with its paragraphs' translations painted over them; the image itself when it has
    /// no text.
    fn paint(&self, file: Vec<u8>, outputs: &[String], target: &'static Language) -> Result<Vec<u8>, Stop> {
        let (layout, texts) = image::paint_request(self.document.format, outputs)?;
        if texts.is_empty() {
            return Ok(file);
        }
        let paragraphs: Vec<PaintParagraph<'_>> = texts
            .iter()
            .zip(&layout.paragraphs)
            .map(|(text, lines)| PaintParagraph { text: text.as_str(), lines: lines.as_slice() })
            .collect();
        Ok(self.tools()?.render(&file, target.base_code(), &paragraphs)?)
    }

    /// The language-tools service, which PDFs and images need.
    fn tools(&self) -> Result<&dyn LayoutTools, Stop> {
        self.engines.tools.ok_or_else(|| Stop::Failed(NO_TOOLS.to_owned()))
    }

    /// Ends the document as `error` and gives its reservation back.
    fn fail(&self, message: &str) -> Result<(), WorkError> {
        let services = self.services;
        if store::fail(services.db, &self.document.id, self.holder, message, unix_ms(services))? {
            metering::release(services, &self.document.holder())
                .map_err(|error| WorkError(DbError::Other(error.to_string())))?;
        }
        Ok(())
    }
}

/// The failure of a document found to be in its target language already.
fn same_language(source: &'static Language) -> Stop {
    Stop::Failed(format!(
        "The document's source language was detected as {}, which is its target language.",
        source.code()
    ))
}

/// A piece as the detector reads it: its text, without markup.
fn readable(format: Format, piece: &str) -> String {
    let tags = format.tags();
    let names = |names: &[&str]| names.iter().map(|name| (*name).to_owned()).collect();
    match tags.handling {
        None => piece.to_owned(),
        Some(handling) => {
            let options = TagOptions {
                handling,
                outline_detection: tags.outline_detection,
                splitting_tags: names(tags.splitting_tags),
                non_splitting_tags: names(tags.non_splitting_tags),
                ignore_tags: names(tags.ignore_tags),
                ..TagOptions::default()
            };
            match Markup::parse(piece, &options, markup::SplitSentences::default_for(Some(handling))) {
                Ok(markup) => markup.units().iter().map(|unit| unit.pieces().join(" ")).collect::<Vec<_>>().join("\n"),
                Err(_) => String::new(),
            }
        }
    }
}

/// How long until a document is done, in whole seconds, from how long its translated pieces
/// took (or, before any, a second per batch): an estimate, at least 1.
pub fn seconds_remaining(document: &Document) -> i64 {
    let left = (document.units - document.units_done).max(0);
    let ms = if document.units_done > 0 {
        document.work_ms * left / document.units_done
    } else {
        1000 * (left as usize).div_ceil(BATCH_PIECES) as i64
    };
    (ms / 1000 + 1).max(1)
}

/// Whether a document is still being worked on.
pub fn unfinished(document: &Document) -> bool {
    matches!(document.status, Status::Queued | Status::Translating)
}

/// The clock's time in Unix milliseconds.
pub fn unix_ms(services: &Services<'_>) -> i64 {
    services.clock.now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as i64).max(1)
}
