//! Translation memories: segments a translation reuses, per subscription.
//!
//! A translation memory belongs to one subscription, translates from one source language (a
//! base language: `de en es fr it ja ko zh`) into one or more target languages (those and their
//! variants `en-gb en-us es-419 zh-hans`), and holds segments: a source text and its translation
//! into one of the targets. Segments are added as JSON or imported from TMX files, and a
//! translation looks its sentences up in them: exactly (after `memory_match::normalise`) or
//! fuzzily (by `memory_match::score`).
//!
//! * `limits.rs`: every limit, in one place.
//! * `request.rs`: names, languages, pages and segments of a request, validated; the segments of
//!   a JSON body read as it streams, refused at the first thing past a limit.
//! * `listing.rs`: the segment listing's source segments, keyset cursor and text filter.
//! * `tmx.rs`: TMX 1.4 files read as a stream of XML events (inline markup keeps its text,
//!   drops its codes; a malformed file is refused with its line), multipart bodies' `file`
//!   part, and the export of a memory as TMX.
//! * `jobs.rs`: import and export jobs: a TMX file uploaded to a URL made for it becomes a new
//!   memory; a memory is downloaded as TMX from one.
//! * `store.rs`: memories and segments in SQLite, every query scoped by the subscription; large
//!   imports in short transactions, invisible until complete; exact lookups by a key index,
//!   fuzzy candidates by an index of tokens, the rarest first.
//! * `source.rs`: the store as a translation's [`memory_match::MemorySource`] ([`Memories`]).
//! * `views.rs`: memories and segments in the shapes the API answers.
//! * `edge.rs`: the only file that knows HTTP: ids, bodies by operation and media type, the
//!   TMX answer, and the answer for each failure (400 naming the parameter or the line of a TMX
//!   file, 404, 413, 415, 456, 503).

mod edge;
pub mod jobs;
pub mod limits;
mod listing;
mod request;
mod source;
pub mod store;
pub mod tmx;
mod views;

pub use edge::{
    Body, Operation, TMX, download_response, job_by_url, job_id, memory_id, name, new_import, new_memory, origin, page,
    read, segment_id, segment_query, tmx_response,
};
pub use listing::{Cursor, SegmentQuery, TextFilter};
pub use request::{NewMemory, NewSegment, Page, RawMemory, RawPage, RawSegment, RequestError};
pub use source::Memories;
pub use store::{Added, ImportMode, Imported, MemoryError, Segment, SegmentPage, SourceSegment, TranslationMemory};
pub use tmx::{FileLanguages, TmxError, TmxImport};
pub use views::{
    ImportCreated, JobObject, MemoryListing, MemoryObject, SegmentListing, SegmentObject, SegmentsAdded, TmxImported,
};

#[cfg(test)]
mod tests;
