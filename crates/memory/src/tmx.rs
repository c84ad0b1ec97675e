//! TMX 1.4 files: read as a stream of XML events into a memory's segments, and written from them.
//!
//! # Reading
//!
//! The file is read with quick-xml as a stream of events over the body (no tree is built), and
//! refused at the first thing past a limit: a file over [`MAX_TMX_BYTES`], a segment over
//! [`MAX_SEGMENT_CHARS`] characters, more than [`MAX_MEMORY_SEGMENTS`] segments. A malformed
//! file is refused with the line where the problem is. Entities other than XML's five and
//! character references are refused (no DTD is read, so none is ever expanded).
//!
//! The encoding is UTF-8, or what a byte order mark says (UTF-16 LE or BE, UTF-8), or what the
//! XML declaration names (any encoding of the WHATWG Encoding Standard, such as ISO-8859-1).
//!
//! Each `<tu>` gives segments: its first `<tuv>` whose language (`xml:lang`, or TMX 1.1's `lang`)
//! has the memory's source language as its base and is none of its targets (`en-US` for a memory
//! from `en`, unless it translates into `en-us`) is the source; each other `<tuv>` whose
//! language is one of the memory's targets becomes a segment:
//! the longest prefix of its code, by subtags, that is a target (`en-GB` → `en-gb`, `zh-Hans-CN`
//! → `zh-hans`, and `de-DE` → `de` when `de-de` is no target). A `<tuv>` of another language,
//! one without text, and every `<tuv>` of a `<tu>` without a source are skipped, and counted.
//!
//! Inside `<seg>`, inline markup keeps its text and drops its codes: the text of `<hi>` (and of
//! any element TMX does not define) is part of the segment; the native codes inside `<bpt>`,
//! `<ept>`, `<ph>`, `<it>` and `<ut>` are not, and neither is the text of a `<sub>` inside them
//! (a sub-flow: another translatable text, such as an attribute's, not part of the sentence). So
//! `Click <bpt i="1">&lt;b&gt;</bpt>here<ept i="1">&lt;/b&gt;</ept>` is `Click here`. The text is
//! trimmed; line ends are normalised as XML does (`&#13;` keeps a carriage return).
//!
//! # Writing
//!
//! A memory is written as TMX 1.4 in UTF-8: one `<tu>` per source text, with the source's
//! `<tuv>` and one per target language (in BCP 47 case: `en-GB`); a source with two translations
//! into one language gives a second `<tu>` for the second. Reading the file back into a memory
//! with the same languages gives the same segments.
//!
//! # Multipart bodies
//!
//! A file may also come as the `file` part of a `multipart/form-data` body ([`multipart_file`]).

use std::borrow::Cow;
use std::collections::HashMap;

use api::multipart::{self, Limits, MultipartError};
use catalogue::Language;
use encoding_rs::{Encoding, UTF_8};
use quick_xml::XmlVersion;
use quick_xml::escape::{partial_escape, resolve_predefined_entity};
use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

use crate::limits::{MAX_MEMORY_SEGMENTS, MAX_SEGMENT_CHARS, MAX_TMX_BYTES};
use crate::request::{NewSegment, TextProblem, check_text, code_of, is_xml_char};
use crate::store::{Segment, TranslationMemory};

/// The segments a TMX file gives a memory, in the file's order, and how many `<tuv>`s it
/// skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TmxImport {
    pub segments: Vec<NewSegment>,
    pub skipped: usize,
}

/// Why a TMX file (or the body carrying it) was refused: each a 400, but
/// [`TmxError::TooLarge`] (413).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TmxError {
    #[error("Request Entity Too Large: a TMX file may not exceed 64 MiB ({MAX_TMX_BYTES} bytes).")]
    TooLarge,
    #[error("Parameter 'file' not specified")]
    Missing,
    #[error("Invalid TMX file: {0}.")]
    Encoding(String),
    #[error("Invalid TMX file: {detail} (line {line}).")]
    Malformed { line: usize, detail: String },
    #[error("Invalid TMX file: the root element is <{found}>, not <tmx> (line {line}).")]
    NotTmx { line: usize, found: String },
    #[error("Invalid TMX file: it has no <tmx> element.")]
    NoRoot,
    #[error("Invalid TMX file: a <tuv> has no xml:lang attribute (line {line}).")]
    NoLanguage { line: usize },
    #[error("Invalid TMX file: a segment is longer than {MAX_SEGMENT_CHARS} characters (line {line}).")]
    SegmentTooLong { line: usize },
    #[error("Invalid TMX file: a segment contains a control character (line {line}).")]
    ControlCharacter { line: usize },
    #[error(
        "Invalid TMX file: it gives this translation memory more than {MAX_MEMORY_SEGMENTS} segments, the most a translation memory holds."
    )]
    TooManySegments,
    #[error("Invalid TMX file: it names no source language (no srclang in its <header>, and no <tuv>).")]
    NoSource,
    #[error(
        "Invalid TMX file: its source language is '{0}'; translation memories translate from de, en, es, fr, it, ja, ko or zh."
    )]
    SourceNotSupported(String),
    #[error(
        "Invalid TMX file: it has no translations into a language translation memories translate into (de, en, en-gb, en-us, es, es-419, fr, it, ja, ko, zh, zh-hans)."
    )]
    NoTargets,
    #[error("Invalid multipart/form-data body: {0}.")]
    Multipart(String),
    #[error("Unknown parameter '{0}': this request takes 'file'.")]
    UnknownPart(String),
    #[error("Value for 'file' not supported: the body holds more than one file.")]
    FileTwice,
}

/// What an element of a TMX file is, for what its content means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Element {
    Tmx,
    Body,
    Tu,
    Tuv,
    Seg,
    /// Inside a `<seg>`: `<hi>` or an element TMX does not define; its text is the segment's.
    Inline,
    /// `<bpt>`, `<ept>`, `<ph>`, `<it>`, `<ut>`, and everything inside them: native code.
    Code,
    /// Anything else (`<header>`, `<note>`, `<prop>`, …): its content is not read.
    Other,
}

/// A `<tuv>` read: its language (lower case, `-` between subtags) and its segment's text.
struct Variant {
    language: String,
    text: Option<String>,
    /// Where its `<seg>` started (for the line of an error).
    at: usize,
}

/// Reads a TMX file into the segments it gives a memory from `source` into `targets`.
pub fn parse(bytes: &[u8], source: &'static Language, targets: &[&'static Language]) -> Result<TmxImport, TmxError> {
    if bytes.len() > MAX_TMX_BYTES {
        return Err(TmxError::TooLarge);
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(TmxError::Missing);
    }
    let text = decode(bytes)?;
    let mut reader = Reader::from_str(&text);
    let config = reader.config_mut();
    config.trim_text(false);
    config.expand_empty_elements = false;
    config.check_end_names = true;

    let source_code = code_of(source);
    let targets: Vec<(String, &'static Language)> =
        targets.iter().map(|language| (code_of(language), *language)).collect();
    let mut import = TmxImport::default();
    let mut stack: Vec<Element> = Vec::new();
    let mut seen_root = false;
    let mut variants: Vec<Variant> = Vec::new();
    let mut segment = String::new();
    let malformed = |offset: u64, detail: String| TmxError::Malformed { line: line_at(&text, offset as usize), detail };
    loop {
        let start = reader.buffer_position();
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(error) => return Err(malformed(reader.error_position(), error.to_string())),
        };
        match event {
            Event::Start(ref tag) | Event::Empty(ref tag) if stack.is_empty() => {
                let name = tag.name();
                if seen_root {
                    return Err(malformed(start, format!("a second root element <{}>", name.as_ref())));
                }
                if name.as_ref() != "tmx" {
                    return Err(TmxError::NotTmx {
                        line: line_at(&text, start as usize),
                        found: name.as_ref().to_owned(),
                    });
                }
                seen_root = true;
                if matches!(event, Event::Start(_)) {
                    stack.push(Element::Tmx);
                }
            }
            Event::Start(ref tag) | Event::Empty(ref tag) => {
                let parent = *stack.last().expect("not empty: the root is handled above");
                let element = match (parent, tag.name().as_ref()) {
                    (Element::Tmx, "body") => Element::Body,
                    (Element::Body, "tu") => {
                        variants.clear();
                        Element::Tu
                    }
                    (Element::Tu, "tuv") => {
                        let language = language_of(tag).map_err(|detail| malformed(start, detail))?;
                        let language =
                            language.ok_or_else(|| TmxError::NoLanguage { line: line_at(&text, start as usize) })?;
                        variants.push(Variant { language, text: None, at: start as usize });
                        Element::Tuv
                    }
                    (Element::Tuv, "seg") => {
                        segment.clear();
                        if let Some(variant) = variants.last_mut() {
                            variant.at = start as usize;
                        }
                        Element::Seg
                    }
                    (Element::Seg | Element::Inline, "bpt" | "ept" | "ph" | "it" | "ut") => Element::Code,
                    (Element::Seg | Element::Inline, _) => Element::Inline,
                    (Element::Code, _) => Element::Code,
                    _ => Element::Other,
                };
                if matches!(event, Event::Start(_)) {
                    stack.push(element);
                } else {
                    close(element, &mut variants, &mut segment, &text, &mut import, &source_code, &targets)?;
                }
            }
            Event::End(_) => {
                let element = stack.pop().expect("quick-xml checks that an end tag has its start tag");
                close(element, &mut variants, &mut segment, &text, &mut import, &source_code, &targets)?;
            }
            Event::Text(content) => {
                if reads_text(&stack) {
                    segment.push_str(&content.xml10_content());
                }
            }
            Event::CData(content) => {
                if reads_text(&stack) {
                    segment.push_str(&content.xml10_content());
                }
            }
            Event::GeneralRef(reference) => {
                let name: &str = &reference;
                let resolved = match reference.resolve_char_ref() {
                    Ok(Some(character)) if is_xml_char(character) => Cow::Owned(character.to_string()),
                    Ok(Some(_)) | Err(_) => {
                        return Err(malformed(start, format!("the character reference &{name}; is no XML character")));
                    }
                    Ok(None) => match resolve_predefined_entity(name) {
                        Some(text) => Cow::Borrowed(text),
                        None => return Err(malformed(start, format!("unknown entity &{name};"))),
                    },
                };
                if reads_text(&stack) {
                    segment.push_str(&resolved);
                }
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
        // A segment past the limit is refused as soon as it is (bytes are at least characters).
        if segment.len() > 4 * MAX_SEGMENT_CHARS + 4 * 1024 {
            let at = variants.last().map_or(start as usize, |variant| variant.at);
            return Err(TmxError::SegmentTooLong { line: line_at(&text, at) });
        }
    }
    if !stack.is_empty() {
        let line = line_at(&text, text.len());
        return Err(TmxError::Malformed { line, detail: "the file ends before its elements are closed".into() });
    }
    if !seen_root {
        return Err(TmxError::NoRoot);
    }
    Ok(import)
}

/// The languages of a file imported as a new memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLanguages {
    /// A base language.
    pub source: &'static Language,
    /// In the order the file first uses them.
    pub targets: Vec<&'static Language>,
}

/// The languages a TMX file gives a new memory: the source is the `srclang` of its `<header>`
/// (unless `*all*`), else the language of its first `<tuv>`, as a base language; the targets are
/// the languages of its other `<tuv>`s, each as the longest prefix of its code, by subtags, that
/// translation memories translate into (`de-DE` → `de`, `en-GB` → `en-gb`). Variants in other
/// languages are skipped when the file is read ([`parse`]). Only elements' names and languages
/// are read here; [`parse`] reads the rest and refuses what is malformed.
pub fn languages(bytes: &[u8]) -> Result<FileLanguages, TmxError> {
    if bytes.len() > MAX_TMX_BYTES {
        return Err(TmxError::TooLarge);
    }
    let text = decode(bytes)?;
    let mut reader = Reader::from_str(&text);
    reader.config_mut().expand_empty_elements = false;
    let mut declared: Option<String> = None;
    let mut seen: Vec<String> = Vec::new();
    loop {
        let start = reader.buffer_position();
        let event = reader.read_event().map_err(|error| TmxError::Malformed {
            line: line_at(&text, reader.error_position() as usize),
            detail: error.to_string(),
        })?;
        let malformed = |detail: String| TmxError::Malformed { line: line_at(&text, start as usize), detail };
        match event {
            Event::Start(ref tag) | Event::Empty(ref tag) => match tag.name().as_ref() {
                "header" if declared.is_none() => {
                    let attribute = tag.try_get_attribute("srclang").map_err(|error| malformed(error.to_string()))?;
                    if let Some(attribute) = attribute {
                        let value = attribute.normalized_value(XmlVersion::Implicit1_0);
                        let value = value.map_err(|error| malformed(error.to_string()))?;
                        let code = value.trim().to_ascii_lowercase().replace('_', "-");
                        declared = Some(code).filter(|code| !code.is_empty() && code != "*all*");
                    }
                }
                "tuv" => {
                    if let Some(language) = language_of(tag).map_err(malformed)?
                        && !seen.contains(&language)
                    {
                        seen.push(language);
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    let declared = declared.or_else(|| seen.first().cloned()).ok_or(TmxError::NoSource)?;
    let source = catalogue::find(base(&declared))
        .filter(|language| language.supports_translation_memory() && !language.is_variant())
        .ok_or_else(|| TmxError::SourceNotSupported(declared.clone()))?;
    let mut targets: Vec<&'static Language> = Vec::new();
    for language in seen.iter().filter(|language| **language != declared) {
        let mut prefix = language.as_str();
        let target = loop {
            let found = catalogue::find(prefix).filter(|found| found.supports_translation_memory());
            if found.is_some() || !prefix.contains('-') {
                break found;
            }
            prefix = &prefix[..prefix.rfind('-').expect("it contains a hyphen")];
        };
        if let Some(target) = target.filter(|target| *target != source && !targets.contains(target)) {
            targets.push(target);
        }
    }
    if targets.is_empty() {
        return Err(TmxError::NoTargets);
    }
    Ok(FileLanguages { source, targets })
}

/// Whether text at this place is a segment's.
fn reads_text(stack: &[Element]) -> bool {
    matches!(stack.last(), Some(Element::Seg | Element::Inline))
}

/// What the end of an element means: a segment's text kept, a variant done, a unit's segments.
fn close(
    element: Element,
    variants: &mut [Variant],
    segment: &mut String,
    text: &str,
    import: &mut TmxImport,
    source_code: &str,
    targets: &[(String, &'static Language)],
) -> Result<(), TmxError> {
    match element {
        Element::Seg => {
            let Some(variant) = variants.last_mut() else { return Ok(()) };
            let trimmed = segment.trim();
            match check_text(trimmed) {
                Ok(()) | Err(TextProblem::Empty) => {}
                Err(TextProblem::TooLong) => return Err(TmxError::SegmentTooLong { line: line_at(text, variant.at) }),
                Err(TextProblem::ControlCharacter) => {
                    return Err(TmxError::ControlCharacter { line: line_at(text, variant.at) });
                }
            }
            variant.text = Some(trimmed.to_owned());
            segment.clear();
        }
        Element::Tu => unit(variants, import, source_code, targets)?,
        _ => {}
    }
    Ok(())
}

/// The segments of one `<tu>`.
fn unit(
    variants: &[Variant],
    import: &mut TmxImport,
    source_code: &str,
    targets: &[(String, &'static Language)],
) -> Result<(), TmxError> {
    let source_at = variants
        .iter()
        .position(|variant| base(&variant.language) == source_code && target_of(&variant.language, targets).is_none());
    let source = source_at.and_then(|at| variants[at].text.as_deref()).filter(|text| !text.is_empty());
    for (at, variant) in variants.iter().enumerate() {
        if Some(at) == source_at {
            continue;
        }
        let target = target_of(&variant.language, targets);
        let text = variant.text.as_deref().filter(|text| !text.is_empty());
        match (source, target, text) {
            (Some(source), Some(target_language), Some(text)) => {
                if import.segments.len() as i64 >= MAX_MEMORY_SEGMENTS {
                    return Err(TmxError::TooManySegments);
                }
                import.segments.push(NewSegment {
                    target_language,
                    source: source.to_owned(),
                    target: text.to_owned(),
                });
            }
            _ => import.skipped += 1,
        }
    }
    Ok(())
}

/// The language of a `<tuv>`: `xml:lang` (TMX 1.4) or `lang` (TMX 1.1), lower case, with `-`
/// between subtags.
fn language_of(tag: &BytesStart<'_>) -> Result<Option<String>, String> {
    for attribute in tag.attributes() {
        let attribute = attribute.map_err(|error| error.to_string())?;
        if matches!(attribute.key.as_ref(), "xml:lang" | "lang") {
            let value = attribute.normalized_value(XmlVersion::Implicit1_0).map_err(|error| error.to_string())?;
            let language = value.trim().to_ascii_lowercase().replace('_', "-");
            return Ok(Some(language).filter(|language| !language.is_empty()));
        }
    }
    Ok(None)
}

/// The primary subtag of a language code: `en` of `en-us`.
fn base(language: &str) -> &str {
    language.split('-').next().unwrap_or(language)
}

/// The memory's target a variant's language gives: the longest prefix of its code, by subtags,
/// that is one of the targets.
fn target_of(language: &str, targets: &[(String, &'static Language)]) -> Option<&'static Language> {
    let mut prefix = language;
    loop {
        if let Some((_, target)) = targets.iter().find(|(code, _)| code == prefix) {
            return Some(target);
        }
        prefix = &prefix[..prefix.rfind('-')?];
    }
}

/// The file as text: by its byte order mark, else the encoding its XML declaration names, else
/// UTF-8.
fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, TmxError> {
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        return transcode(&bytes[bom..], encoding);
    }
    match declared_encoding(bytes) {
        Some(label) => {
            let encoding = Encoding::for_label(label.as_bytes())
                .ok_or_else(|| TmxError::Encoding(format!("it declares the encoding {label}, which is unknown")))?;
            if !encoding.is_ascii_compatible() {
                return Err(TmxError::Encoding(format!("it declares the encoding {label} but has no byte order mark")));
            }
            transcode(bytes, encoding)
        }
        None => transcode(bytes, UTF_8),
    }
}

fn transcode<'a>(bytes: &'a [u8], encoding: &'static Encoding) -> Result<Cow<'a, str>, TmxError> {
    if encoding == UTF_8 {
        return std::str::from_utf8(bytes).map(Cow::Borrowed).map_err(|error| {
            let line = 1 + bytes[..error.valid_up_to()].iter().filter(|&&byte| byte == b'\n').count();
            TmxError::Encoding(format!("it is not valid UTF-8 (line {line})"))
        });
    }
    match encoding.decode_without_bom_handling_and_without_replacement(bytes) {
        Some(text) => Ok(Cow::Owned(text.into_owned())),
        None => Err(TmxError::Encoding(format!("it is not valid {}", encoding.name()))),
    }
}

/// The `encoding` of an XML declaration at the start of the file, if any.
fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let head = bytes.get(..bytes.len().min(1024))?;
    let head = std::str::from_utf8(head)
        .unwrap_or_else(|error| std::str::from_utf8(&head[..error.valid_up_to()]).expect("valid up to there"));
    let declaration = head.trim_start().strip_prefix("<?xml")?;
    let declaration = &declaration[..declaration.find("?>")?];
    let at = declaration.find("encoding")?;
    let rest = declaration[at + "encoding".len()..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|quote| matches!(quote, '"' | '\''))?;
    let value = &rest[1..];
    Some(value[..value.find(quote)?].to_owned())
}

/// The line (from 1) of a byte offset of the text.
fn line_at(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    1 + text.as_bytes()[..offset].iter().filter(|&&byte| byte == b'\n').count()
}

/// A memory's segments as a TMX 1.4 file (see the module's documentation).
pub fn export(memory: &TranslationMemory, segments: &[Segment]) -> String {
    // Sources in the order they first come, each with its translations in order.
    let mut order: Vec<(&str, Vec<&Segment>)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for segment in segments {
        let at = *index.entry(segment.source.as_str()).or_insert_with(|| {
            order.push((segment.source.as_str(), Vec::new()));
            order.len() - 1
        });
        order[at].1.push(segment);
    }
    let source = memory.source.lang();
    let mut out = String::with_capacity(segments.len() * 160 + 512);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tmx version=\"1.4\">\n");
    out.push_str(&format!(
        "  <header creationtool=\"Glossa\" creationtoolversion=\"{}\" datatype=\"plaintext\" segtype=\"sentence\" \
         adminlang=\"en\" srclang=\"{source}\" o-tmf=\"Glossa\"/>\n  <body>\n",
        env!("CARGO_PKG_VERSION")
    ));
    for (text, translations) in order {
        // The nth translation of each language goes into the nth unit of the source.
        let mut units: Vec<Vec<&Segment>> = Vec::new();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for segment in translations {
            let round = seen.entry(segment.target_language.lang()).or_insert(0);
            if units.len() <= *round {
                units.push(Vec::new());
            }
            units[*round].push(segment);
            *round += 1;
        }
        for unit in units {
            out.push_str("    <tu>\n");
            variant(&mut out, source, text);
            for segment in unit {
                variant(&mut out, segment.target_language.lang(), &segment.target);
            }
            out.push_str("    </tu>\n");
        }
    }
    out.push_str("  </body>\n</tmx>\n");
    out
}

fn variant(out: &mut String, language: &str, text: &str) {
    out.push_str("      <tuv xml:lang=\"");
    out.push_str(language);
    out.push_str("\"><seg>");
    out.push_str(&partial_escape(text));
    out.push_str("</seg></tuv>\n");
}

/// The `file` part of a `multipart/form-data` body (`content_type` carries its boundary): the
/// only part such a request takes. The body is read by [`api::multipart::parts`], with room for
/// a file of [`MAX_TMX_BYTES`] and the part's boundaries and headers.
pub fn multipart_file(body: &[u8], content_type: &str) -> Result<bytes::Bytes, TmxError> {
    let limits = Limits { whole: MAX_TMX_BYTES as u64 + 64 * 1024, per_part: MAX_TMX_BYTES as u64 };
    let parts = multipart::parts(body, content_type, limits).map_err(|error| match error {
        MultipartError::TooLarge => TmxError::TooLarge,
        MultipartError::Malformed(detail) => TmxError::Multipart(detail),
    })?;
    let mut file = None;
    for part in parts {
        if part.name != "file" {
            return Err(TmxError::UnknownPart(part.name));
        }
        if file.is_some() {
            return Err(TmxError::FileTwice);
        }
        file = Some(part.data);
    }
    file.filter(|file| !file.is_empty()).ok_or(TmxError::Missing)
}

#[cfg(test)]
mod tests {
    use platform::Id;

    use super::*;

    fn language(code: &str) -> &'static Language {
        catalogue::find(code).unwrap()
    }

    /// The segments as (target language, source, target).
    fn triples(import: &TmxImport) -> Vec<(String, String, String)> {
        import
            .segments
            .iter()
            .map(|segment| (code_of(segment.target_language), segment.source.clone(), segment.target.clone()))
            .collect()
    }

    fn triple(language: &str, source: &str, target: &str) -> (String, String, String) {
        (language.to_owned(), source.to_owned(), target.to_owned())
    }

    const FILE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4">
  <header creationtool="Test" creationtoolversion="1" datatype="plaintext" segtype="sentence"
          adminlang="en-US" srclang="en-US" o-tmf="test">
    <prop type="x-note">header &amp; props are not read</prop>
  </header>
  <body>
    <tu tuid="1">
      <note>a note</note>
      <tuv xml:lang="en-US"><seg>Click <bpt i="1">&lt;b&gt;</bpt>here<ept i="1">&lt;/b&gt;</ept> &amp; wait</seg></tuv>
      <tuv xml:lang="de-DE"><seg>Klicken Sie <bpt i="1">&lt;b&gt;</bpt>hier<ept i="1">&lt;/b&gt;</ept> &amp; warten</seg></tuv>
      <tuv xml:lang="en-GB"><seg>Click here &amp; wait</seg></tuv>
      <tuv xml:lang="fr-FR"><seg>Cliquez ici</seg></tuv>
    </tu>
    <tu>
      <tuv lang="EN"><seg>An <hi type="b">important</hi> <ph x="1">&lt;img alt="<sub>Logo</sub>"/&gt;</ph>note<it pos="begin">{</it></seg></tuv>
      <tuv xml:lang="zh-Hans-CN"><seg><![CDATA[一个重要的]]>说明&#x3002;</seg></tuv>
      <tuv xml:lang="de"><seg>  </seg></tuv>
    </tu>
    <tu>
      <tuv xml:lang="de"><seg>Ohne Quelle</seg></tuv>
    </tu>
  </body>
</tmx>
"#;

    #[test]
    fn a_file_names_the_languages_of_a_new_memory() {
        let found = languages(FILE.as_bytes()).unwrap();
        let targets: Vec<String> = found.targets.iter().map(|language| code_of(language)).collect();
        assert_eq!(
            (code_of(found.source), targets),
            ("en".to_owned(), vec!["de".into(), "en-gb".into(), "fr".into(), "zh-hans".into()])
        );
        let no_header = "<tmx><body><tu><tuv xml:lang='fr-CA'><seg>a</seg></tuv><tuv xml:lang='pt-BR'><seg>b</seg></tuv><tuv xml:lang='es-MX'><seg>c</seg></tuv></tu></body></tmx>";
        let found = languages(no_header.as_bytes()).unwrap();
        assert_eq!(
            (found.source, found.targets),
            (language("fr"), vec![language("es")]),
            "the first <tuv>'s; pt-BR is no target"
        );
        let unsupported = "<tmx><header srclang='pt-BR'/><body/></tmx>";
        assert_eq!(languages(unsupported.as_bytes()), Err(TmxError::SourceNotSupported("pt-br".into())));
        assert_eq!(languages(b"<tmx><body/></tmx>"), Err(TmxError::NoSource));
        let alone = "<tmx><header srclang='*all*'/><body><tu><tuv xml:lang='de'><seg>a</seg></tuv></tu></body></tmx>";
        assert_eq!(languages(alone.as_bytes()), Err(TmxError::NoTargets));
        assert!(matches!(languages(b"<tmx><body></tmx>"), Err(TmxError::Malformed { line: 1, .. })));
    }

    #[test]
    fn a_file_gives_the_segments_of_the_memory_s_languages_with_text_kept_and_codes_dropped() {
        let targets = [language("de"), language("en-gb"), language("zh-hans")];
        let import = parse(FILE.as_bytes(), language("en"), &targets).unwrap();
        assert_eq!(
            triples(&import),
            [
                triple("de", "Click here & wait", "Klicken Sie hier & warten"),
                triple("en-gb", "Click here & wait", "Click here & wait"),
                triple("zh-hans", "An important note", "一个重要的说明。"),
            ]
        );
        // fr-FR (no target), the blank German, and the German without a source.
        assert_eq!(import.skipped, 3);
    }

    #[test]
    fn a_variant_maps_to_the_longest_target_its_code_starts_with() {
        let targets = [(code_of(language("en")), language("en")), (code_of(language("en-gb")), language("en-gb"))];
        assert_eq!(target_of("en-gb", &targets), Some(language("en-gb")));
        assert_eq!(target_of("en-gb-oxendict", &targets), Some(language("en-gb")));
        assert_eq!(target_of("en-us", &targets), Some(language("en")));
        assert_eq!(target_of("de", &targets), None);
        assert_eq!(target_of("eng", &targets), None, "whole subtags only");
    }

    #[test]
    fn malformed_files_are_refused_with_their_line() {
        let refused = |text: &str| parse(text.as_bytes(), language("en"), &[language("de")]).unwrap_err();
        let error =
            refused("<tmx version=\"1.4\">\n<body>\n<tu>\n<tuv xml:lang=\"en\"><seg>a</tuv>\n</tu></body></tmx>");
        assert!(matches!(&error, TmxError::Malformed { line: 4, .. }), "{error}");
        assert!(error.to_string().ends_with("(line 4)."), "{error}");
        let error = refused("<tmx>\n<body>\n\n<tu><tuv xml:lang=\"en\"><seg>a &nbsp; b</seg></tuv></tu></body></tmx>");
        assert_eq!(error.to_string(), "Invalid TMX file: unknown entity &nbsp; (line 4).");
        assert_eq!(refused("<?xml version=\"1.0\"?>\n<xliff/>"), TmxError::NotTmx { line: 2, found: "xliff".into() });
        assert_eq!(
            refused("<tmx>\n<body>\n<tu>\n<tuv><seg>a</seg></tuv></tu></body></tmx>"),
            TmxError::NoLanguage { line: 4 }
        );
        let error = refused("<tmx>\n<body>\n<tu>");
        assert!(matches!(error, TmxError::Malformed { line: 3, .. }), "{error}");
        assert!(matches!(refused("<tmx/><tmx/>"), TmxError::Malformed { line: 1, .. }));
        assert_eq!(refused("<!-- nothing -->"), TmxError::NoRoot);
        assert_eq!(refused(" \n"), TmxError::Missing);
        assert_eq!(
            refused("<tmx><body><tu><tuv xml:lang=\"en\"><seg>a&#1;</seg></tuv></tu></body></tmx>").to_string(),
            "Invalid TMX file: the character reference &#1; is no XML character (line 1)."
        );
        assert_eq!(
            refused("<tmx><body><tu>\n<tuv xml:lang=\"en\"><seg>a\u{1}</seg></tuv></tu></body></tmx>"),
            TmxError::ControlCharacter { line: 2 }
        );
        assert_eq!(
            refused(&format!(
                "<tmx><body><tu>\n<tuv xml:lang=\"en\"><seg>{}</seg></tuv></tu></body></tmx>",
                "a".repeat(MAX_SEGMENT_CHARS + 1)
            )),
            TmxError::SegmentTooLong { line: 2 }
        );
        let invalid = parse(b"<tmx>\n\xff</tmx>", language("en"), &[language("de")]).unwrap_err();
        assert_eq!(invalid.to_string(), "Invalid TMX file: it is not valid UTF-8 (line 2).");
    }

    #[test]
    fn a_file_is_read_in_the_encoding_it_declares_or_its_byte_order_mark_says() {
        let file = "<tmx><body><tu><tuv xml:lang=\"en\"><seg>Gr\u{fc}\u{df}e</seg></tuv><tuv xml:lang=\"de\"><seg>Gr\u{fc}\u{df}e</seg></tuv></tu></body></tmx>";
        let mut utf16: Vec<u8> = vec![0xFF, 0xFE];
        utf16.extend(file.encode_utf16().flat_map(u16::to_le_bytes));
        let mut latin1 = b"<?xml version='1.0' encoding='ISO-8859-1'?>".to_vec();
        latin1.extend(file.chars().map(|character| character as u8));
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend(file.as_bytes());
        for bytes in [utf16, latin1, bom] {
            let import = parse(&bytes, language("en"), &[language("de")]).unwrap();
            assert_eq!(triples(&import), [triple("de", "Grüße", "Grüße")]);
        }
        let unknown = parse(b"<?xml version=\"1.0\" encoding=\"klingon\"?><tmx/>", language("en"), &[]).unwrap_err();
        assert_eq!(unknown.to_string(), "Invalid TMX file: it declares the encoding klingon, which is unknown.");
    }

    #[test]
    fn a_file_past_the_limits_is_refused_while_it_is_read() {
        assert_eq!(parse(&vec![b' '; MAX_TMX_BYTES + 1], language("en"), &[]).unwrap_err(), TmxError::TooLarge);
        let mut file = String::from("<tmx><body>");
        let unit = "<tu><tuv xml:lang=\"en\"><seg>a</seg></tuv><tuv xml:lang=\"de\"><seg>b</seg></tuv></tu>";
        for _ in 0..=MAX_MEMORY_SEGMENTS {
            file.push_str(unit);
        }
        file.push_str("</body></tmx>");
        assert_eq!(parse(file.as_bytes(), language("en"), &[language("de")]).unwrap_err(), TmxError::TooManySegments);
    }

    #[test]
    fn an_export_reads_back_as_the_same_segments() {
        let segment = |target: &str, source: &str, text: &str| Segment {
            id: Id::parse("0b5a3e1c-7d2f-4c1a-9e8b-3f6d2a1c0e9f").unwrap(),
            target_language: language(target),
            source: source.into(),
            target: text.into(),
        };
        let memory = TranslationMemory {
            id: Id::parse("def3a26b-3e84-45b3-84ae-0c0aaf3525f7").unwrap(),
            name: "TM".into(),
            source: language("en"),
            targets: vec![language("de"), language("en-gb"), language("zh-hans")],
            segment_count: 5,
        };
        let segments = [
            segment("de", "Fish & <chips>", "Fisch & <Pommes>"),
            segment("en-gb", "Fish & <chips>", "Fish & <chips>"),
            segment("de", "Fish & <chips>", "Backfisch"),
            segment("zh-hans", "line\r\nbreak", "换行"),
            segment("de", "Tab\there", "Tab\thier"),
        ];
        let file = export(&memory, &segments);
        assert!(file.contains("<tuv xml:lang=\"en-GB\"><seg>Fish &amp; &lt;chips&gt;</seg></tuv>"), "{file}");
        assert!(file.contains("srclang=\"en\""), "{file}");
        assert_eq!(file.matches("<tu>").count(), 4, "a second unit for the second German translation:\n{file}");
        let import = parse(file.as_bytes(), memory.source, &memory.targets).unwrap();
        let mut read = triples(&import);
        let mut written: Vec<_> = segments
            .iter()
            .map(|segment| (code_of(segment.target_language), segment.source.clone(), segment.target.clone()))
            .collect();
        read.sort();
        written.sort();
        assert_eq!(read, written);
        assert_eq!(import.skipped, 0);
    }

    #[test]
    fn a_multipart_body_gives_its_file_part() {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"tm.tmx\"\r\n\
                    Content-Type: application/x-tmx+xml\r\n\r\n<tmx/>\r\n--XyZ--\r\n";
        let content_type = "multipart/form-data; boundary=XyZ";
        assert_eq!(multipart_file(body.as_bytes(), content_type).unwrap(), bytes::Bytes::from_static(b"<tmx/>"));
        let other = body.replace("name=\"file\"", "name=\"files\"");
        assert_eq!(multipart_file(other.as_bytes(), content_type).unwrap_err(), TmxError::UnknownPart("files".into()));
        let twice = format!("--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\na\r\n{body}");
        assert_eq!(multipart_file(twice.as_bytes(), content_type).unwrap_err(), TmxError::FileTwice);
        assert_eq!(multipart_file(b"--XyZ--\r\n", content_type).unwrap_err(), TmxError::Missing);
        assert!(matches!(multipart_file(body.as_bytes(), "multipart/form-data"), Err(TmxError::Multipart(_))));
        assert!(matches!(multipart_file(b"garbage", content_type), Err(TmxError::Multipart(_))));
    }
}
