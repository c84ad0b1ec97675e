//! Every limit of translation memories, in one place.
//!
//! The reference sets only the page size of the listing (1 to 25) and, for the names of other
//! resources, 1024 characters. The rest keep what one request may hold in memory, and the time a
//! lookup or a write may take, bounded; a request is refused as soon as it passes one, while its
//! body is being read. The body of a translation memory request is limited by route in
//! `api::limits` (64 MiB, the largest TMX file).

/// The longest memory name, in characters.
pub const MAX_NAME_CHARS: usize = 1024;

/// The longest source or target of a segment, in characters. A segment is a sentence or a short
/// paragraph (a translation looks its texts up sentence by sentence); the bound keeps scoring a
/// fuzzy candidate (a token edit distance) fast.
pub const MAX_SEGMENT_CHARS: usize = 2000;

/// The most segments one `POST …/segments` request may add: one short write transaction. Larger
/// sets of segments are imported as TMX.
pub const MAX_REQUEST_SEGMENTS: usize = 500;

/// The most segments one memory may hold, after any import; more is a 400.
pub const MAX_MEMORY_SEGMENTS: i64 = 250_000;

/// The most text (UTF-8 bytes of every source and target) one memory may hold, so that its TMX
/// export stays a size one response can carry; more is a 400.
pub const MAX_MEMORY_TEXT_BYTES: i64 = 64 * 1024 * 1024;

/// The most memories one subscription may hold; more is a 456.
pub const MAX_MEMORIES: i64 = 1000;

/// The largest TMX file, in bytes (the route's body limit); more is a 413.
pub const MAX_TMX_BYTES: usize = 64 * 1024 * 1024;

/// The largest body of the requests that take only a few parameters (create, rename, listings):
/// more is a 413 before it is parsed.
pub const MAX_PARAMS_BYTES: usize = 64 * 1024;

/// The page size of the memory listing: default and largest (reference: 1 to 25, default 10).
pub const DEFAULT_MEMORY_PAGE_SIZE: i64 = 10;
pub const MAX_MEMORY_PAGE_SIZE: i64 = 25;

/// The page size of the segment listing (source segments): default and largest.
pub const DEFAULT_SEGMENT_PAGE_SIZE: i64 = 50;
pub const MAX_SEGMENT_PAGE_SIZE: i64 = 100;

/// How many segments one write transaction inserts, copies or deletes: 500 rows (and their
/// tokens) keep a transaction, and so the wait of every other writer, near ten milliseconds.
pub const WRITE_CHUNK_SEGMENTS: usize = 500;

/// How many token rows one transaction deletes when a set of segments is removed.
pub const DELETE_CHUNK_TOKENS: i64 = 5000;

/// A fuzzy lookup scores at most this many candidates per segment: the stored segments that
/// share the most of its rarest tokens.
pub const FUZZY_CANDIDATES: i64 = 20;

/// A fuzzy lookup looks candidates up by at most this many of a segment's tokens, the rarest in
/// the memory first.
pub const FUZZY_QUERY_TOKENS: usize = 8;

/// A fuzzy lookup reads at most this many token rows per segment: its rarest tokens are taken
/// while their segments add up to no more than this (the rarest always, read up to this many).
pub const FUZZY_POSTINGS: i64 = 2000;
