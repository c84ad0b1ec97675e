//! What translation memory requests carry, validated: names, languages, pages and segments.
//!
//! `edge.rs` reads the parameters as sent (of the right JSON or form type) into `Raw…` values;
//! the functions here check them and name the parameter at fault, with the API's texts. The
//! segments of `POST …/segments` are read here as the JSON body streams (a serde visitor that
//! keeps each segment's three strings and stops at the one past [`MAX_REQUEST_SEGMENTS`]), so
//! a 60 MB body costs the reading of 501 segments, not a tree of the whole document.

use catalogue::Language;
use serde::Deserializer as _;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::limits::{
    DEFAULT_MEMORY_PAGE_SIZE, MAX_MEMORY_PAGE_SIZE, MAX_NAME_CHARS, MAX_REQUEST_SEGMENTS, MAX_SEGMENT_CHARS,
};

/// Why a translation memory request is refused: each a 400.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("Parameter '{0}' not specified")]
    Missing(String),
    #[error("Value for '{0}' not supported.")]
    Invalid(String),
    #[error("Invalid translation_memory_id")]
    InvalidMemoryId,
    #[error("Invalid segment_id")]
    InvalidSegmentId,
    #[error("Unknown parameter '{name}': this request takes {takes}.")]
    Unknown { name: String, takes: String },
    #[error("Value for 'name' not supported: it is longer than {MAX_NAME_CHARS} characters.")]
    NameTooLong,
    #[error("Value for 'name' not supported: it contains a control character.")]
    NameHasControlCharacter,
    #[error(
        "Value for 'source_language' not supported: translation memories translate from de, en, es, fr, it, ja, ko or zh."
    )]
    Source,
    #[error("Value for 'target_languages' not supported: '{0}' is not a language translation memories translate into.")]
    Target(String),
    #[error("Value for 'target_languages' not supported: '{0}' is listed twice.")]
    TargetTwice(String),
    #[error("Value for 'target_languages' not supported: '{0}' is the source language.")]
    TargetIsSource(String),
    #[error("Value for '{0}' not supported: it is longer than {MAX_SEGMENT_CHARS} characters.")]
    SegmentTooLong(String),
    #[error("Value for '{0}' not supported: it contains a control character, which a TMX file cannot carry.")]
    SegmentHasControlCharacter(String),
    #[error("Value for '{field}' not supported: the translation memory's target languages are {targets}.")]
    NotATarget { field: String, targets: String },
    #[error(
        "Value for 'segments' not supported: one request adds at most {MAX_REQUEST_SEGMENTS} segments; import more as a TMX file."
    )]
    TooManySegments,
    #[error("Value for 'segments' not supported: it must be an array of segment objects.")]
    NotSegments,
    #[error("Value for '{0}' not supported: a segment has the fields source, target and target_language.")]
    UnknownField(String),
    #[error("Value for '{name}' not supported: it must be an integer from {min} to {max}.")]
    OutOfRange { name: &'static str, min: i64, max: i64 },
    #[error("Value for '{0}' not supported: it is longer than {MAX_NAME_CHARS} characters.")]
    NameTooLongIn(&'static str),
    #[error("Value for '{0}' not supported: it must be a JSON object.")]
    NotAnObject(String),
    #[error(
        "Value for 'source_file.content_type' not supported: '{0}' is no TMX media type (application/xml, text/xml or application/x-tmx+xml)."
    )]
    FileType(String),
    #[error("Value for 'filter_text' not supported: it must be at least 2 characters long.")]
    FilterTooShort,
    #[error("Value for 'page' not supported: it must be an integer from 0.")]
    Page,
    #[error("Invalid request: the body is not valid JSON ({0}).")]
    Json(String),
    #[error("Invalid request: the JSON body must be an object.")]
    NotObject,
}

/// The parameters one request takes (besides the legacy `auth_key`, which every one takes).
#[derive(Debug, Clone, Copy)]
pub struct Accepted(pub &'static [&'static str]);

impl Accepted {
    /// Refuses a parameter the request does not take, naming those it does.
    pub fn check(&self, name: &str) -> Result<(), RequestError> {
        if name == "auth_key" || self.0.contains(&name) {
            return Ok(());
        }
        let takes = match self.0 {
            [] => "no parameters".to_owned(),
            names => names.iter().map(|name| format!("'{name}'")).collect::<Vec<_>>().join(", "),
        };
        Err(RequestError::Unknown { name: name.to_owned(), takes })
    }
}

/// A new memory's parameters as sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawMemory {
    pub name: Option<String>,
    pub source_language: Option<String>,
    pub target_languages: Option<Vec<String>>,
}

/// A memory to create, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMemory {
    pub name: String,
    /// A base language (`en`).
    pub source: &'static Language,
    /// In the order sent, distinct, not the source language (its variants may be: `en` to
    /// `en-gb` is British spelling).
    pub targets: Vec<&'static Language>,
}

impl NewMemory {
    pub fn parse(raw: RawMemory) -> Result<NewMemory, RequestError> {
        let name = name(raw.name)?;
        let source = raw
            .source_language
            .as_deref()
            .map(str::trim)
            .filter(|code| !code.is_empty())
            .ok_or_else(|| RequestError::Missing("source_language".into()))?;
        let source = catalogue::find(source)
            .filter(|language| language.supports_translation_memory() && !language.is_variant())
            .ok_or(RequestError::Source)?;
        let codes = raw.target_languages.unwrap_or_default();
        let codes: Vec<&str> = codes.iter().map(|code| code.trim()).filter(|code| !code.is_empty()).collect();
        if codes.is_empty() {
            return Err(RequestError::Missing("target_languages".into()));
        }
        let mut targets: Vec<&'static Language> = Vec::with_capacity(codes.len());
        for code in codes {
            let target = catalogue::find(code)
                .filter(|language| language.supports_translation_memory())
                .ok_or_else(|| RequestError::Target(code.to_owned()))?;
            if targets.contains(&target) {
                return Err(RequestError::TargetTwice(code_of(target)));
            }
            if target == source {
                return Err(RequestError::TargetIsSource(code_of(target)));
            }
            targets.push(target);
        }
        Ok(NewMemory { name, source, targets })
    }
}

/// A memory's name: not blank, at most [`MAX_NAME_CHARS`] characters, no control characters.
pub fn name(name: Option<String>) -> Result<String, RequestError> {
    let name = name.filter(|name| !name.trim().is_empty()).ok_or_else(|| RequestError::Missing("name".into()))?;
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(RequestError::NameTooLong);
    }
    if name.chars().any(char::is_control) {
        return Err(RequestError::NameHasControlCharacter);
    }
    Ok(name)
}

/// A language as the API answers it: the lower-case code (`en-gb`, `zh-hans`).
pub fn code_of(language: &Language) -> String {
    language.lang().to_ascii_lowercase()
}

/// `page` and `page_size` as sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RawPage {
    pub page: Option<i64>,
    pub page_size: Option<i64>,
}

/// One page of a listing, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub offset: i64,
    pub limit: i64,
}

impl Page {
    /// `page` from 0 (default 0), `page_size` from 1 to [`MAX_MEMORY_PAGE_SIZE`].
    pub fn parse(raw: RawPage) -> Result<Page, RequestError> {
        let (default, max) = (DEFAULT_MEMORY_PAGE_SIZE, MAX_MEMORY_PAGE_SIZE);
        let limit = raw.page_size.unwrap_or(default);
        if !(1..=max).contains(&limit) {
            return Err(RequestError::OutOfRange { name: "page_size", min: 1, max });
        }
        let page = raw.page.unwrap_or(0);
        if page < 0 {
            return Err(RequestError::Page);
        }
        Ok(Page { offset: page.saturating_mul(limit), limit })
    }
}

/// A segment as sent: its three fields, each a string when present.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawSegment {
    pub source: Option<String>,
    pub target: Option<String>,
    pub target_language: Option<String>,
}

/// A segment to store, validated.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NewSegment {
    /// One of the memory's target languages.
    pub target_language: &'static Language,
    /// Trimmed, not empty, at most [`MAX_SEGMENT_CHARS`] characters.
    pub source: String,
    pub target: String,
}

impl NewSegment {
    /// The `index`th segment of a request for a memory with these targets.
    pub fn parse(index: usize, raw: RawSegment, targets: &[&'static Language]) -> Result<NewSegment, RequestError> {
        let field = |name: &str| format!("segments[{index}].{name}");
        let source = segment_text(&field("source"), raw.source)?;
        let target = segment_text(&field("target"), raw.target)?;
        let code = raw
            .target_language
            .as_deref()
            .map(str::trim)
            .filter(|code| !code.is_empty())
            .ok_or_else(|| RequestError::Missing(field("target_language")))?;
        let target_language = catalogue::find(code).filter(|language| targets.contains(language)).ok_or_else(|| {
            let targets = targets.iter().map(|language| code_of(language)).collect::<Vec<_>>().join(", ");
            RequestError::NotATarget { field: field("target_language"), targets }
        })?;
        Ok(NewSegment { target_language, source, target })
    }
}

/// A segment's source or target, trimmed: not empty, not too long, only characters XML carries.
fn segment_text(field: &str, text: Option<String>) -> Result<String, RequestError> {
    let text = text.as_deref().map(str::trim).unwrap_or_default();
    match check_text(text) {
        Ok(()) => Ok(text.to_owned()),
        Err(TextProblem::Empty) => Err(RequestError::Missing(field.to_owned())),
        Err(TextProblem::TooLong) => Err(RequestError::SegmentTooLong(field.to_owned())),
        Err(TextProblem::ControlCharacter) => Err(RequestError::SegmentHasControlCharacter(field.to_owned())),
    }
}

/// What is wrong with a segment's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextProblem {
    Empty,
    TooLong,
    /// A character XML 1.0 cannot carry (a control character other than tab, line feed and
    /// carriage return, or U+FFFE/U+FFFF), so the memory could not be exported as TMX.
    ControlCharacter,
}

/// Checks a (trimmed) segment text.
pub fn check_text(text: &str) -> Result<(), TextProblem> {
    if text.is_empty() {
        return Err(TextProblem::Empty);
    }
    if text.chars().count() > MAX_SEGMENT_CHARS {
        return Err(TextProblem::TooLong);
    }
    if !text.chars().all(is_xml_char) {
        return Err(TextProblem::ControlCharacter);
    }
    Ok(())
}

/// Whether XML 1.0 allows the character in a document (production `Char`).
pub fn is_xml_char(character: char) -> bool {
    matches!(character, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// The body of `POST …/segments` as sent: its `segments` and its other parameters (JSON
/// scalars: only `auth_key` is taken).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawSegments {
    pub params: Vec<(String, serde_json::Value)>,
    /// `None` when not sent (or `null`).
    pub segments: Option<Vec<RawSegment>>,
}

/// The parameters `POST …/segments` takes.
pub const SEGMENTS_ACCEPTED: Accepted = Accepted(&["segments"]);

/// Reads a JSON body of `POST …/segments` as it streams.
pub fn read_segments_json(body: &[u8]) -> Result<RawSegments, RequestError> {
    let Some(&first) = body.iter().find(|byte| !byte.is_ascii_whitespace()) else {
        return Ok(RawSegments::default());
    };
    if first != b'{' {
        return match serde_json::from_slice::<de::IgnoredAny>(body) {
            Ok(_) => Err(RequestError::NotObject),
            Err(error) => Err(RequestError::Json(error.to_string())),
        };
    }
    let mut read = RawSegments::default();
    let mut failure = None;
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let outcome = deserializer
        .deserialize_map(TopLevel { read: &mut read, failure: &mut failure })
        .and_then(|()| deserializer.end());
    match (failure, outcome) {
        (Some(error), _) => Err(error),
        (None, Err(error)) => Err(RequestError::Json(error.to_string())),
        (None, Ok(())) => Ok(read),
    }
}

/// Reads `segments` sent as JSON text (a form's value).
pub fn read_segments_text(text: &str) -> Result<Option<Vec<RawSegment>>, RequestError> {
    let mut failure = None;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let outcome = SegmentsSeed { failure: &mut failure, nested: true }
        .deserialize(&mut deserializer)
        .and_then(|segments| deserializer.end().map(|()| segments));
    match (failure, outcome) {
        (Some(error), _) => Err(error),
        (None, Err(_)) => Err(RequestError::NotSegments),
        (None, Ok(segments)) => Ok(segments),
    }
}

/// Records why reading stopped, and stops the deserializer.
fn stop<E: de::Error>(failure: &mut Option<RequestError>, error: RequestError) -> E {
    let message = error.to_string();
    *failure = Some(error);
    E::custom(message)
}

struct TopLevel<'s> {
    read: &'s mut RawSegments,
    failure: &'s mut Option<RequestError>,
}

impl<'de> Visitor<'de> for TopLevel<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut segments_seen = false;
        while let Some(key) = map.next_key::<String>()? {
            if let Err(error) = SEGMENTS_ACCEPTED.check(&key) {
                return Err(stop(self.failure, error));
            }
            if key == "segments" {
                if segments_seen {
                    return Err(stop(self.failure, RequestError::Invalid(key)));
                }
                segments_seen = true;
                self.read.segments = map.next_value_seed(SegmentsSeed { failure: self.failure, nested: false })?;
            } else {
                if self.read.params.iter().any(|(name, _)| *name == key) {
                    return Err(stop(self.failure, RequestError::Invalid(key)));
                }
                let value: serde_json::Value = map.next_value()?;
                self.read.params.push((key, value));
            }
        }
        Ok(())
    }
}

/// `segments`: an array of segment objects (or `null`), or that array as JSON text (`nested`
/// once inside such a text, where another text is refused).
struct SegmentsSeed<'s> {
    failure: &'s mut Option<RequestError>,
    nested: bool,
}

impl<'de> DeserializeSeed<'de> for SegmentsSeed<'_> {
    type Value = Option<Vec<RawSegment>>;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for SegmentsSeed<'_> {
    type Value = Option<Vec<RawSegment>>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("an array of segment objects")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut segments = Vec::new();
        loop {
            let seed = SegmentSeed { index: segments.len(), failure: &mut *self.failure };
            match items.next_element_seed(seed)? {
                Some(segment) => segments.push(segment),
                None => return Ok(Some(segments)),
            }
        }
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        if self.nested {
            return Err(stop(self.failure, RequestError::NotSegments));
        }
        read_segments_text(text).map_err(|error| stop(self.failure, error))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(stop(self.failure, RequestError::NotSegments))
    }
}

/// The `index`th segment object: refused before it is read when it is one too many.
struct SegmentSeed<'s> {
    index: usize,
    failure: &'s mut Option<RequestError>,
}

impl<'de> DeserializeSeed<'de> for SegmentSeed<'_> {
    type Value = RawSegment;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<RawSegment, D::Error> {
        if self.index >= MAX_REQUEST_SEGMENTS {
            return Err(stop(self.failure, RequestError::TooManySegments));
        }
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for SegmentSeed<'_> {
    type Value = RawSegment;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a segment object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawSegment, A::Error> {
        let mut segment = RawSegment::default();
        while let Some(key) = map.next_key::<String>()? {
            let name = format!("segments[{}].{key}", self.index);
            let slot = match key.as_str() {
                "source" => &mut segment.source,
                "target" => &mut segment.target,
                "target_language" => &mut segment.target_language,
                _ => return Err(stop(self.failure, RequestError::UnknownField(name))),
            };
            if slot.is_some() {
                return Err(stop(self.failure, RequestError::Invalid(name)));
            }
            match map.next_value::<serde_json::Value>()? {
                serde_json::Value::String(text) => *slot = Some(text),
                serde_json::Value::Null => {}
                _ => return Err(stop(self.failure, RequestError::Invalid(name))),
            }
        }
        Ok(segment)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<RawSegment, A::Error> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<RawSegment, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<RawSegment, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<RawSegment, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<RawSegment, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<RawSegment, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }

    fn visit_unit<E: de::Error>(self) -> Result<RawSegment, E> {
        Err(stop(self.failure, RequestError::NotSegments))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw_memory(name: &str, source: &str, targets: &[&str]) -> RawMemory {
        RawMemory {
            name: Some(name.into()),
            source_language: Some(source.into()),
            target_languages: Some(targets.iter().map(|code| code.to_string()).collect()),
        }
    }

    fn message<T: std::fmt::Debug>(result: Result<T, RequestError>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn a_new_memory_takes_the_reference_languages_in_any_case() {
        let memory = NewMemory::parse(raw_memory("TM", "EN", &["de", "EN-gb", " zh-HANS "])).unwrap();
        assert_eq!(memory.source.lang(), "en");
        let targets: Vec<String> = memory.targets.iter().map(|language| code_of(language)).collect();
        assert_eq!(targets, ["de", "en-gb", "zh-hans"]);

        assert_eq!(message(NewMemory::parse(raw_memory("TM", "pt", &["de"]))), RequestError::Source.to_string());
        assert_eq!(NewMemory::parse(raw_memory("TM", "en-GB", &["de"])).unwrap_err(), RequestError::Source);
        assert_eq!(
            message(NewMemory::parse(raw_memory("TM", "en", &["de", "pt-br"]))),
            "Value for 'target_languages' not supported: 'pt-br' is not a language translation memories translate into."
        );
        assert_eq!(
            NewMemory::parse(raw_memory("TM", "en", &["de", "DE"])).unwrap_err(),
            RequestError::TargetTwice("de".into())
        );
        assert_eq!(
            NewMemory::parse(raw_memory("TM", "en", &["EN"])).unwrap_err(),
            RequestError::TargetIsSource("en".into())
        );
        assert!(
            NewMemory::parse(raw_memory("TM", "en", &["en-us"])).is_ok(),
            "a variant of the source is another target"
        );
        assert_eq!(
            message(NewMemory::parse(raw_memory("TM", "en", &[" "]))),
            "Parameter 'target_languages' not specified"
        );
        let no_source = RawMemory { source_language: None, ..raw_memory("TM", "", &["de"]) };
        assert_eq!(message(NewMemory::parse(no_source)), "Parameter 'source_language' not specified");
    }

    #[test]
    fn names_are_required_and_bounded() {
        assert_eq!(name(Some("Support".into())).unwrap(), "Support");
        assert_eq!(message(name(None)), "Parameter 'name' not specified");
        assert_eq!(message(name(Some("  ".into()))), "Parameter 'name' not specified");
        assert_eq!(name(Some("é".repeat(1024))).unwrap().chars().count(), 1024, "characters, not bytes");
        assert_eq!(name(Some("n".repeat(1025))).unwrap_err(), RequestError::NameTooLong);
        assert_eq!(name(Some("a\u{7}".into())).unwrap_err(), RequestError::NameHasControlCharacter);
    }

    #[test]
    fn pages_are_checked() {
        let page = |page, page_size| Page::parse(RawPage { page, page_size });
        assert_eq!(page(None, None).unwrap(), Page { offset: 0, limit: 10 });
        assert_eq!(page(Some(2), Some(25)).unwrap(), Page { offset: 50, limit: 25 });
        assert_eq!(
            message(page(None, Some(26))),
            "Value for 'page_size' not supported: it must be an integer from 1 to 25."
        );
        assert!(page(None, Some(0)).is_err());
        assert_eq!(page(Some(-1), None).unwrap_err(), RequestError::Page);
        assert_eq!(page(Some(i64::MAX), Some(25)).unwrap().offset, i64::MAX, "saturates");
    }

    #[test]
    fn segments_are_trimmed_and_checked_against_the_memory() {
        let targets = [catalogue::find("de").unwrap(), catalogue::find("en-gb").unwrap()];
        let raw = |source: &str, target: &str, language: &str| RawSegment {
            source: Some(source.into()),
            target: Some(target.into()),
            target_language: Some(language.into()),
        };
        let segment = NewSegment::parse(0, raw(" Hello ", "Hallo", "DE"), &targets).unwrap();
        assert_eq!(
            (segment.source.as_str(), segment.target.as_str(), segment.target_language.lang()),
            ("Hello", "Hallo", "de")
        );
        assert_eq!(
            message(NewSegment::parse(3, raw("Hello", "Hallo", "fr"), &targets)),
            "Value for 'segments[3].target_language' not supported: the translation memory's target languages are de, en-gb."
        );
        assert_eq!(
            message(NewSegment::parse(1, raw(" ", "Hallo", "de"), &targets)),
            "Parameter 'segments[1].source' not specified"
        );
        assert_eq!(
            NewSegment::parse(0, raw("a", &"b".repeat(MAX_SEGMENT_CHARS + 1), "de"), &targets).unwrap_err(),
            RequestError::SegmentTooLong("segments[0].target".into())
        );
        assert_eq!(
            NewSegment::parse(0, raw("a\u{1}b", "b", "de"), &targets).unwrap_err(),
            RequestError::SegmentHasControlCharacter("segments[0].source".into())
        );
        let missing = RawSegment { target_language: None, ..raw("a", "b", "") };
        assert_eq!(
            message(NewSegment::parse(0, missing, &targets)),
            "Parameter 'segments[0].target_language' not specified"
        );
    }

    #[test]
    fn a_segments_body_is_read_as_it_streams_and_refused_at_the_first_fault() {
        let read = read_segments_json(
            br#"{"segments": [{"source": "a", "target": "b", "target_language": "de"}, {"source": null}], "auth_key": "k"}"#,
        )
        .unwrap();
        assert_eq!(read.segments.as_ref().unwrap().len(), 2);
        assert_eq!(read.segments.as_ref().unwrap()[0].target.as_deref(), Some("b"));
        assert_eq!(read.params, [("auth_key".to_owned(), serde_json::json!("k"))]);

        let as_text = read_segments_json(br#"{"segments": "[{\"source\": \"a\"}]"}"#).unwrap();
        assert_eq!(as_text.segments.unwrap()[0].source.as_deref(), Some("a"));
        assert_eq!(read_segments_json(b"").unwrap(), RawSegments::default());

        let refused = |body: &str| read_segments_json(body.as_bytes()).unwrap_err();
        assert_eq!(
            refused(r#"{"segments": [], "name": "x"}"#).to_string(),
            "Unknown parameter 'name': this request takes 'segments'."
        );
        assert_eq!(refused(r#"{"segments": [{"source": 1}]}"#), RequestError::Invalid("segments[0].source".into()));
        assert_eq!(
            refused(r#"{"segments": [{"sauce": "a"}]}"#),
            RequestError::UnknownField("segments[0].sauce".into())
        );
        assert_eq!(refused(r#"{"segments": {"source": "a"}}"#), RequestError::NotSegments);
        assert_eq!(refused(r#"{"segments": ["a"]}"#), RequestError::NotSegments);
        assert_eq!(refused(r#"[1]"#), RequestError::NotObject);
        assert!(matches!(refused(r#"{"segments": [{"source": "a"#), RequestError::Json(_)));

        // The segment past the limit is refused before it is read; the rest of the body is not.
        let mut many = String::from(r#"{"segments": ["#);
        for _ in 0..MAX_REQUEST_SEGMENTS {
            many.push_str(r#"{"source": "a", "target": "b", "target_language": "de"},"#);
        }
        many.push_str("this is never read");
        assert_eq!(refused(&many), RequestError::TooManySegments);
    }

    #[test]
    fn only_the_parameters_a_request_takes_pass() {
        let accepted = Accepted(&["page", "page_size"]);
        assert!(accepted.check("page").is_ok());
        assert!(accepted.check("auth_key").is_ok());
        assert_eq!(
            accepted.check("size").unwrap_err().to_string(),
            "Unknown parameter 'size': this request takes 'page', 'page_size'."
        );
        assert_eq!(
            Accepted(&[]).check("x").unwrap_err().to_string(),
            "Unknown parameter 'x': this request takes no parameters."
        );
    }
}
