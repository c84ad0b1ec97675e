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
//! * `tmx.rs`: TMX 1.4 files read as a stream of XML events (inline markup keeps its text,
//!   drops its codes; a malformed file is refused with its line), multipart bodies' `file`
//!   part, and the export of a memory as TMX.
//! * `store.rs`: memories and segments in SQLite, every query scoped by the subscription; large
//!   imports in short transactions, invisible until complete; exact lookups by a key index,
//!   fuzzy candidates by an index of tokens, the rarest first.
//! * `source.rs`: the store as a translation's [`memory_match::MemorySource`] ([`Memories`]).
//! * `views.rs`: memories and segments in the shapes the API answers.
//! * `edge.rs`: the only file that knows HTTP: ids, bodies by operation and media type, the
//!   TMX answer, and the answer for each failure (400 naming the parameter or the line of a TMX
//!   file, 404, 413, 415, 456, 503).

mod edge;
pub mod limits;
mod request;
mod source;
pub mod store;
pub mod tmx;
mod views;

pub use edge::{
    Body, Operation, TMX, memory_id, name, new_memory, page, read, segment_id, target_filter, tmx_response,
};
pub use request::{Listing, NewMemory, NewSegment, Page, RawMemory, RawPage, RawSegment, RequestError};
pub use source::Memories;
pub use store::{Added, ImportMode, Imported, MemoryError, Segment, TranslationMemory};
pub use tmx::{TmxError, TmxImport};
pub use views::{MemoryListing, MemoryObject, SegmentListing, SegmentObject, SegmentsAdded, TmxImported};

#[cfg(test)]
mod tests;
