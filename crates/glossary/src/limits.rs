//! Every size limit of glossaries, in one place.
//!
//! From the reference: terms and names of at most 1024 UTF-8 bytes, a dictionary's entries of
//! at most 10 MiB, 1000 glossaries per subscription. The reference sets no number of entries or
//! dictionaries; the ones here keep the memory and the time one request may take bounded (an
//! upload is refused as soon as it passes one, while it is being read). The body of a glossary
//! request is limited by route in `api::limits` (64 MiB).

/// The longest term (and glossary name), in UTF-8 bytes (reference).
pub const MAX_TERM_BYTES: usize = 1024;

/// The largest upload of one dictionary's entries, in bytes (reference: 10 MiB); more is a 413.
pub const MAX_ENTRIES_BYTES: usize = 10 * 1024 * 1024;

/// The most glossaries one subscription may hold (reference); more is a 456.
pub const MAX_GLOSSARIES: i64 = 1000;

/// The most dictionaries (language pairs) one glossary may hold; more is a 400. Every pair of
/// ten languages in both directions is 90.
pub const MAX_DICTIONARIES: usize = 100;

/// The most entries one dictionary may hold, after any merge; more is a 400. 10 MiB of
/// typical terms (20 to 40 bytes an entry) is 250,000 to 500,000 entries.
pub const MAX_DICTIONARY_ENTRIES: usize = 500_000;

/// The most entries one request may carry over all its dictionaries; more is a 400. It bounds
/// what one request holds in memory (about 100 bytes an entry besides the terms).
pub const MAX_REQUEST_ENTRIES: usize = 1_000_000;

/// How many entries one write transaction inserts, copies or deletes: 500 rows keep a
/// transaction, and so the wait of every other writer, near ten milliseconds.
pub const WRITE_CHUNK_ROWS: usize = 500;
