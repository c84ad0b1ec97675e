//! The segment listing (`GET …/segments`): a memory's segments grouped by source text, a page
//! at a time, with an opaque keyset cursor and an optional text filter.
//!
//! A *source segment* is one source text of the memory with every translation the memory holds
//! for it (its *target segments*, the rows `POST …/segments` and TMX imports add). Its id is
//! derived from the memory and the text ([`source_segment_id`]), so it stays the same while the
//! text is in the memory, whatever else changes.
//!
//! Source segments are listed in the order of the index the exact lookups use (the normalised
//! source's key), and within one key by their id. A cursor names the last source segment of a
//! page by that key and id, so the next page starts right after it: a listing never repeats or
//! skips a source segment that stays in the memory while it is paged through, whatever is added
//! or deleted meanwhile. A filtered listing reads at most [`MAX_SCANNED_ROWS`] rows per page; a
//! page may then hold fewer segments than asked for (even none) and still have a cursor.

use platform::Id;
use sha2::{Digest, Sha256};

use crate::limits::{DEFAULT_SEGMENT_PAGE_SIZE, MAX_SEGMENT_CHARS, MAX_SEGMENT_PAGE_SIZE};
use crate::request::RequestError;

/// How many rows one listing reads per query.
pub(crate) const BATCH_ROWS: i64 = 1000;

/// A filtered listing reads at most this many rows for one page.
pub const MAX_SCANNED_ROWS: i64 = 50_000;

/// The shortest `filter_text`, in characters.
pub const MIN_FILTER_CHARS: usize = 2;

/// Where a page starts: after the source segment of this key and order (`None`: before every
/// source segment of the key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub(crate) key: i64,
    pub(crate) after: Option<u64>,
}

impl Cursor {
    /// Before the first source segment.
    pub(crate) const START: Cursor = Cursor { key: i64::MIN, after: None };

    /// Whether a source segment of `key` and `order` comes after this position.
    pub(crate) fn precedes(&self, key: i64, order: u64) -> bool {
        key > self.key || (key == self.key && self.after.is_none_or(|after| order > after))
    }

    /// The cursor as the API answers it: 16 hex digits of key, and 16 of order if it has one.
    pub fn encode(&self) -> String {
        match self.after {
            Some(after) => format!("{:016x}{after:016x}", self.key as u64),
            None => format!("{:016x}", self.key as u64),
        }
    }

    /// A cursor as a client sends it back; anything else is a 400.
    pub fn decode(text: &str) -> Result<Cursor, RequestError> {
        let text = text.trim();
        let valid = matches!(text.len(), 16 | 32) && text.bytes().all(|byte| byte.is_ascii_hexdigit());
        let invalid = || RequestError::Invalid("page_cursor".into());
        if !valid {
            return Err(invalid());
        }
        let key = u64::from_str_radix(&text[..16], 16).map_err(|_| invalid())? as i64;
        let after = match &text[16..] {
            "" => None,
            order => Some(u64::from_str_radix(order, 16).map_err(|_| invalid())?),
        };
        Ok(Cursor { key, after })
    }
}

/// The text a listing is filtered by: source segments whose source or one of whose targets
/// contains it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFilter {
    text: String,
    case_sensitive: bool,
}

impl TextFilter {
    /// `filter_text` (at least [`MIN_FILTER_CHARS`] characters, at most a segment's length) and
    /// `filter_case_sensitive` (default false: letters of every script match in either case).
    pub fn parse(text: String, case_sensitive: Option<bool>) -> Result<TextFilter, RequestError> {
        let chars = text.chars().count();
        if chars < MIN_FILTER_CHARS {
            return Err(RequestError::FilterTooShort);
        }
        if chars > MAX_SEGMENT_CHARS {
            return Err(RequestError::SegmentTooLong("filter_text".into()));
        }
        let case_sensitive = case_sensitive.unwrap_or(false);
        let text = if case_sensitive { text } else { text.to_lowercase() };
        Ok(TextFilter { text, case_sensitive })
    }

    /// Whether `text` contains the filter.
    pub fn matches(&self, text: &str) -> bool {
        if self.case_sensitive { text.contains(&self.text) } else { text.to_lowercase().contains(&self.text) }
    }
}

/// A page of the segment listing, as asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentQuery {
    pub page_size: i64,
    pub after: Option<Cursor>,
    pub filter: Option<TextFilter>,
}

impl SegmentQuery {
    /// `page_size` (1 to [`MAX_SEGMENT_PAGE_SIZE`], default [`DEFAULT_SEGMENT_PAGE_SIZE`]),
    /// `page_cursor`, `filter_text` and `filter_case_sensitive`.
    pub fn parse(
        page_size: Option<i64>,
        page_cursor: Option<String>,
        filter_text: Option<String>,
        filter_case_sensitive: Option<bool>,
    ) -> Result<SegmentQuery, RequestError> {
        let page_size = page_size.unwrap_or(DEFAULT_SEGMENT_PAGE_SIZE);
        if !(1..=MAX_SEGMENT_PAGE_SIZE).contains(&page_size) {
            return Err(RequestError::OutOfRange { name: "page_size", min: 1, max: MAX_SEGMENT_PAGE_SIZE });
        }
        let after = page_cursor.filter(|text| !text.is_empty()).map(|text| Cursor::decode(&text)).transpose()?;
        let filter = match filter_text {
            Some(text) => Some(TextFilter::parse(text, filter_case_sensitive)?),
            None if filter_case_sensitive.is_some() => return Err(RequestError::Missing("filter_text".into())),
            None => None,
        };
        Ok(SegmentQuery { page_size, after, filter })
    }
}

/// The id of the source segment `source` of `memory`, and its order among the source segments of
/// its key: from a digest of the two.
pub fn source_segment_id(memory: &Id, source: &str) -> (Id, u64) {
    let mut hasher = Sha256::new();
    hasher.update(b"translation memory source segment\0");
    hasher.update(memory.to_string().as_bytes());
    hasher.update([0]);
    hasher.update(source.as_bytes());
    let digest = hasher.finalize();
    let bytes: [u8; 16] = digest[..16].try_into().expect("a SHA-256 digest has 32 bytes");
    let order = u64::from_be_bytes(digest[..8].try_into().expect("a SHA-256 digest has 32 bytes"));
    (Id::derived(bytes), order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_anything_else_is_a_400_naming_it() {
        for cursor in [Cursor { key: -5, after: Some(u64::MAX - 1) }, Cursor { key: 3, after: None }] {
            assert_eq!(Cursor::decode(&cursor.encode()), Ok(cursor));
        }
        for wrong in ["", "xyz", "00", &"g".repeat(32), &"0".repeat(33)] {
            assert_eq!(Cursor::decode(wrong), Err(RequestError::Invalid("page_cursor".into())), "{wrong}");
        }
    }

    #[test]
    fn a_cursor_precedes_what_comes_after_it() {
        let cursor = Cursor { key: 7, after: Some(100) };
        assert!(cursor.precedes(8, 0));
        assert!(cursor.precedes(7, 101));
        assert!(!cursor.precedes(7, 100));
        assert!(!cursor.precedes(6, u64::MAX));
        assert!(Cursor { key: 7, after: None }.precedes(7, 0));
        assert!(Cursor::START.precedes(i64::MIN, 0));
    }

    #[test]
    fn filters_match_in_either_case_unless_asked_not_to() {
        let filter = TextFilter::parse("ÜBER".into(), None).unwrap();
        assert!(filter.matches("Das Buch über Katzen"));
        let strict = TextFilter::parse("Über".into(), Some(true)).unwrap();
        assert!(!strict.matches("Das Buch über Katzen"));
        assert!(strict.matches("Über Katzen"));
        assert_eq!(TextFilter::parse("a".into(), None), Err(RequestError::FilterTooShort));
    }

    #[test]
    fn queries_name_the_parameter_at_fault() {
        let query = SegmentQuery::parse(None, None, None, None).unwrap();
        assert_eq!((query.page_size, query.after, query.filter), (DEFAULT_SEGMENT_PAGE_SIZE, None, None));
        assert_eq!(
            SegmentQuery::parse(Some(101), None, None, None),
            Err(RequestError::OutOfRange { name: "page_size", min: 1, max: MAX_SEGMENT_PAGE_SIZE })
        );
        assert_eq!(
            SegmentQuery::parse(None, Some("nope".into()), None, None),
            Err(RequestError::Invalid("page_cursor".into()))
        );
        assert_eq!(SegmentQuery::parse(None, None, None, Some(true)), Err(RequestError::Missing("filter_text".into())));
    }

    #[test]
    fn a_source_segment_s_id_is_its_memory_s_and_text_s() {
        let memory = Id::parse("def3a26b-3e84-45b3-84ae-0c0aaf3525f7").unwrap();
        let other = Id::parse("0e0b7e5a-8a39-4a57-9d0c-7d2e37f0a2a1").unwrap();
        assert_eq!(source_segment_id(&memory, "Hello"), source_segment_id(&memory, "Hello"));
        assert_ne!(source_segment_id(&memory, "Hello").0, source_segment_id(&memory, "hello").0);
        assert_ne!(source_segment_id(&memory, "Hello").0, source_segment_id(&other, "Hello").0);
        assert!(source_segment_id(&memory, "Hello").0.to_string().chars().nth(14) == Some('8'));
    }
}
