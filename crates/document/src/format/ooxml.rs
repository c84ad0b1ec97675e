//! What the office packages (`docx`, `pptx`, `xlsx`) share: a zip file of XML parts, read within
//! bounds, whose paragraphs are the pieces to translate.
//!
//! **Pieces.** Each type names its *parts with text* ([`Kind::holds_text`]) and its *piece
//! element* (`w:p`, `a:p`, `si`/`is`). Every piece element with visible text (the content of its
//! text elements, `w:t`, `a:t`, `t`, outside what is never translated) is one piece: the whole
//! element, tags included, translated as XML with the type's [`Tags`], so that runs with their
//! formatting, links and fields travel with their words as placeholders. Pieces come in a fixed
//! order: parts in the order of the zip's entries, piece elements in document order, an outer
//! one before those nested inside it (Word's text boxes: the drawing is never translated as part
//! of the paragraph around it, and its own paragraphs are pieces of their own).
//!
//! **Putting it back.** [`assemble`] reads the uploaded package again and walks the same parts in
//! the same order, replacing each piece element by the next output: so the outputs are exactly
//! the translations of [`cut`]'s pieces. Every other entry is copied raw (its compressed bytes,
//! method, time and order kept); a changed part is compressed again with its own method. Each
//! translated piece is checked: it must be one element of the piece's name, well-formed, and
//! text a translation put between runs (where a reader would not show it) is moved into the text
//! element before it; a text element whose text now starts or ends with whitespace is marked
//! `xml:space="preserve"` where the type needs it. A part that is still not well-formed fails the
//! document ([`FormatError::Corrupt`]) rather than give a broken file.
//!
//! **Bounds.** Only parts with text are decompressed, each read through a limit: at most
//! [`MAX_TOTAL_BYTES`] in all, and no entry larger than [`RATIO`] times its compressed size once
//! past [`RATIO_FREE_BYTES`] (a zip bomb), whatever sizes the zip declares. A part with a
//! `DOCTYPE` (entity expansion) is refused, and so are paragraphs nested more than
//! [`MAX_NESTING`] deep.
//!
//! Names are matched as written, prefix included (`w:p`), as Office and every common writer
//! spell them; spreadsheets' names are matched by their local name, since their parts are written
//! both with a default namespace and with an `x:` prefix.

use std::borrow::Cow;
use std::io::{Cursor, Read, Write};
use std::ops::Range;

use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;
use zip::ZipArchive;
use zip::write::ZipWriter;

use super::{Cut, Format, FormatError, Tags, corrupt};

/// How an office part's paragraphs are translated, before each type names its elements: XML
/// without outline detection, so that only the piece element splits and every element inside it
/// is an inline placeholder.
pub(super) const TAGS: Tags = Tags::XML_INLINE;

const MIB: u64 = 1024 * 1024;

/// The most bytes the parts with text of one package may decompress to, in all.
pub(super) const MAX_TOTAL_BYTES: u64 = 256 * MIB;

/// An entry may decompress to at most this many times its compressed size...
pub(super) const RATIO: u64 = 100;

/// ...once it is larger than this.
pub(super) const RATIO_FREE_BYTES: u64 = MIB;

/// How deep paragraphs may nest (a text box in a paragraph is one level).
pub(super) const MAX_NESTING: usize = 8;

/// What one office type's packages hold.
pub(super) struct Kind {
    pub format: Format,
    /// Whether the entry of this name is a part with text to translate.
    pub holds_text: fn(&str) -> bool,
    /// Why a package whose entries have these names is not of this type, if it is not.
    pub check: fn(&[&str]) -> Option<&'static str>,
    /// The elements that are one piece each.
    pub pieces: &'static [&'static str],
    /// The elements whose content is the text a reader sees.
    pub texts: &'static [&'static str],
    /// The elements whose content is never translated (the type's `ignore_tags`).
    pub ignored: &'static [&'static str],
    /// Whether names are compared by their local name (without prefix).
    pub local_names: bool,
    /// Whether a text element's leading or trailing whitespace needs `xml:space="preserve"`.
    pub preserve_space: bool,
}

impl Kind {
    fn matches(&self, list: &[&str], name: &str) -> bool {
        let name = match self.local_names {
            true => name.rsplit(':').next().unwrap_or(name),
            false => name,
        };
        list.iter().any(|candidate| {
            let candidate = match self.local_names {
                true => candidate.rsplit(':').next().unwrap_or(candidate),
                false => candidate,
            };
            candidate == name
        })
    }

    fn corrupt(&self, why: impl Into<String>) -> FormatError {
        corrupt(self.format, why)
    }
}

/// Whether `name` is an XML file directly in `folder` (which ends with `/`) whose file name
/// starts with `prefix`.
pub(super) fn in_folder(name: &str, folder: &str, prefix: &str) -> bool {
    name.strip_prefix(folder)
        .is_some_and(|file| !file.contains('/') && file.starts_with(prefix) && file.ends_with(".xml"))
}

/// Cuts a package of `kind` into its pieces (see the module documentation).
pub(super) fn cut(kind: &Kind, file: &[u8]) -> Result<Cut, FormatError> {
    let mut package = Package::open(kind, file)?;
    let mut cut = Cut::new();
    for index in 0..package.archive.len() {
        let Some(name) = package.text_part(index) else { continue };
        let xml = package.read(index, &name)?;
        let mut keep = |piece: &str, characters: i64| -> Result<Option<String>, FormatError> {
            cut.push(true, piece);
            cut.characters += characters;
            Ok(None)
        };
        rebuild(kind, &name, &xml, &mut keep, 0)?;
    }
    Ok(cut)
}

/// The package with each piece replaced by its output, in [`cut`]'s order.
pub(super) fn assemble(kind: &Kind, file: &[u8], outputs: &[String]) -> Result<Vec<u8>, FormatError> {
    let mut package = Package::open(kind, file)?;
    let mut writer = ZipWriter::new(Cursor::new(Vec::with_capacity(file.len() + file.len() / 4)));
    let zip_failed =
        |error: zip::result::ZipError| kind.corrupt(format!("the translated package cannot be written: {error}"));
    let mut next = outputs.iter();
    for index in 0..package.archive.len() {
        let Some(name) = package.text_part(index) else {
            let entry = package.archive.by_index_raw(index).map_err(|error| kind.corrupt(error.to_string()))?;
            writer.raw_copy_file(entry).map_err(zip_failed)?;
            continue;
        };
        let xml = package.read(index, &name)?;
        let mut take = |_: &str, _: i64| -> Result<Option<String>, FormatError> {
            next.next()
                .map(|output| Some(output.clone()))
                .ok_or_else(|| kind.corrupt("fewer translations than paragraphs"))
        };
        let translated = rebuild(kind, &name, &xml, &mut take, 0)?;
        if translated == xml {
            let entry = package.archive.by_index_raw(index).map_err(|error| kind.corrupt(error.to_string()))?;
            writer.raw_copy_file(entry).map_err(zip_failed)?;
            continue;
        }
        scan(kind, &translated)
            .map_err(|why| kind.corrupt(format!("the translation of {name} is not well-formed: {why}")))?;
        let options = package.archive.by_index_raw(index).map_err(|error| kind.corrupt(error.to_string()))?.options();
        writer.start_file(name.as_str(), options).map_err(zip_failed)?;
        writer.write_all(translated.as_bytes()).map_err(|error| zip_failed(error.into()))?;
    }
    if next.next().is_some() {
        return Err(kind.corrupt("more translations than paragraphs"));
    }
    Ok(writer.finish().map_err(zip_failed)?.into_inner())
}

/// An uploaded package, opened.
struct Package<'k, 'f> {
    kind: &'k Kind,
    archive: ZipArchive<Cursor<&'f [u8]>>,
    /// What the parts read so far decompressed to.
    total: u64,
}

impl<'k, 'f> Package<'k, 'f> {
    fn open(kind: &'k Kind, file: &'f [u8]) -> Result<Package<'k, 'f>, FormatError> {
        let archive = ZipArchive::new(Cursor::new(file))
            .map_err(|error| kind.corrupt(format!("it is not a zip package ({error})")))?;
        let names: Vec<&str> = archive.file_names().collect();
        if let Some(why) = (kind.check)(&names) {
            return Err(kind.corrupt(why));
        }
        Ok(Package { kind, archive, total: 0 })
    }

    /// The name of entry `index` if it is a part with text.
    fn text_part(&self, index: usize) -> Option<String> {
        self.archive.name_for_index(index).filter(|name| (self.kind.holds_text)(name)).map(str::to_owned)
    }

    /// Entry `index` (named `name`), decompressed within the bounds, as UTF-8 text.
    fn read(&mut self, index: usize, name: &str) -> Result<String, FormatError> {
        let kind = self.kind;
        let unreadable = |error: &dyn std::fmt::Display| kind.corrupt(format!("{name} cannot be read: {error}"));
        let entry = self.archive.by_index(index).map_err(|error| unreadable(&error))?;
        let left = MAX_TOTAL_BYTES - self.total;
        let by_ratio = entry.compressed_size().saturating_mul(RATIO).max(RATIO_FREE_BYTES);
        let limit = left.min(by_ratio);
        let mut bytes = Vec::new();
        entry.take(limit + 1).read_to_end(&mut bytes).map_err(|error| unreadable(&error))?;
        let read = bytes.len() as u64;
        if read > limit {
            return Err(kind.corrupt(match limit == by_ratio {
                true => format!("{name} decompresses to more than {RATIO} times its compressed size (a zip bomb?)"),
                false => format!("its text parts decompress to more than {} MiB (a zip bomb?)", MAX_TOTAL_BYTES / MIB),
            }));
        }
        self.total += read;
        String::from_utf8(bytes).map_err(|_| kind.corrupt(format!("{name} is not UTF-8 XML")))
    }
}

/// What becomes of a piece element: given its source and visible characters, its output (`None`:
/// its source).
type Replace<'r> = dyn FnMut(&str, i64) -> Result<Option<String>, FormatError> + 'r;

/// `xml` with each piece element that has visible text replaced by what `replace` makes of it
/// (the element's source and its visible characters; `None` keeps the source), outer pieces
/// before the pieces nested inside them.
fn rebuild(kind: &Kind, part: &str, xml: &str, replace: &mut Replace<'_>, depth: usize) -> Result<String, FormatError> {
    if depth > MAX_NESTING {
        return Err(kind.corrupt(format!("{part} has paragraphs nested more than {MAX_NESTING} deep")));
    }
    // A byte order mark is no markup; quick-xml would skip it without counting its bytes.
    let bom = if xml.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let found = scan(kind, &xml[bom..]).map_err(|why| kind.corrupt(format!("{part} is not well-formed XML: {why}")))?;
    let mut out = String::with_capacity(xml.len() + xml.len() / 4);
    let mut at = 0;
    for piece in found {
        let outer = piece.outer.start + bom..piece.outer.end + bom;
        out.push_str(&xml[at..outer.start]);
        at = outer.end;
        let source = &xml[outer.clone()];
        let element: Cow<'_, str> = match piece.has_text {
            true => match replace(source, piece.characters)? {
                Some(output) => Cow::Owned(settle(kind, part, source, &output)?),
                None => Cow::Borrowed(source),
            },
            false => Cow::Borrowed(source),
        };
        if !piece.nests {
            out.push_str(&element);
            continue;
        }
        // The pieces inside: the element as it now is holds them where the source did.
        let inner = match &element {
            Cow::Borrowed(_) => piece.inner.start - piece.outer.start..piece.inner.end - piece.outer.start,
            Cow::Owned(element) => the_one_piece(kind, part, element)?.inner,
        };
        out.push_str(&element[..inner.start]);
        out.push_str(&rebuild(kind, part, &element[inner.clone()], replace, depth + 1)?);
        out.push_str(&element[inner.end..]);
    }
    out.push_str(&xml[at..]);
    Ok(out)
}

/// The piece element `element` is, which must be all of it.
fn the_one_piece(kind: &Kind, part: &str, element: &str) -> Result<Found, FormatError> {
    let bad = || kind.corrupt(format!("the translation of a paragraph of {part} does not keep its tags"));
    let mut found = scan(kind, element).map_err(|_| bad())?;
    match found.pop() {
        Some(piece) if found.is_empty() && piece.outer == (0..element.len()) => Ok(piece),
        _ => Err(bad()),
    }
}

/// A piece element found by [`scan`], with offsets in the text scanned.
#[derive(Debug)]
struct Found {
    /// From its start tag's `<` to its end tag's `>`.
    outer: Range<usize>,
    /// Its content.
    inner: Range<usize>,
    /// Characters of its own visible text (not counting nested pieces).
    characters: i64,
    /// Whether its own visible text has more than whitespace.
    has_text: bool,
    /// Whether a piece element is nested inside it.
    nests: bool,
}

/// What an open element is, for [`scan`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Other,
    /// The outermost piece element.
    Piece,
    /// A piece element inside it, or an element never translated.
    Blocked,
    Text,
}

/// Checks that `xml` is well-formed without a doctype, and finds its outermost piece elements.
fn scan(kind: &Kind, xml: &str) -> Result<Vec<Found>, String> {
    let mut reader = Reader::from_str(xml);
    let config = reader.config_mut();
    config.check_end_names = true;
    config.trim_text(false);
    config.expand_empty_elements = false;
    let mut found = Vec::new();
    let mut open: Vec<Role> = Vec::new();
    let mut current: Option<Found> = None;
    let (mut blocked, mut texts) = (0usize, 0usize);
    loop {
        let start = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|error| format!("at byte {}: {error}", reader.error_position()))?;
        let end = reader.buffer_position() as usize;
        let visible = blocked == 0 && texts > 0;
        match event {
            Event::Eof => break,
            Event::DocType(_) => return Err("it has a DOCTYPE, which office parts never have".into()),
            Event::Start(tag) => {
                let name = tag.name();
                let role = match &mut current {
                    None if kind.matches(kind.pieces, name.as_ref()) => {
                        current = Some(Found {
                            outer: start..start,
                            inner: end..end,
                            characters: 0,
                            has_text: false,
                            nests: false,
                        });
                        Role::Piece
                    }
                    None => Role::Other,
                    Some(piece) if kind.matches(kind.pieces, name.as_ref()) => {
                        piece.nests = true;
                        Role::Blocked
                    }
                    Some(_) if kind.matches(kind.ignored, name.as_ref()) => Role::Blocked,
                    Some(_) if kind.matches(kind.texts, name.as_ref()) => Role::Text,
                    Some(_) => Role::Other,
                };
                match role {
                    Role::Blocked => blocked += 1,
                    Role::Text => texts += 1,
                    Role::Other | Role::Piece => {}
                }
                open.push(role);
            }
            Event::End(_) => match open.pop() {
                Some(Role::Piece) => {
                    if let Some(mut piece) = current.take() {
                        piece.outer.end = end;
                        piece.inner.end = start;
                        found.push(piece);
                    }
                }
                Some(Role::Blocked) => blocked -= 1,
                Some(Role::Text) => texts -= 1,
                Some(Role::Other) | None => {}
            },
            Event::Text(_) => {
                if visible {
                    let text = &xml[start..end];
                    if let Some(piece) = &mut current {
                        piece.characters += text.chars().count() as i64;
                        piece.has_text |= !text.trim().is_empty();
                    }
                }
            }
            Event::CData(data) => {
                if visible {
                    let text: &str = &data;
                    if let Some(piece) = &mut current {
                        piece.characters += text.chars().count() as i64;
                        piece.has_text |= !text.trim().is_empty();
                    }
                }
            }
            Event::GeneralRef(_) => {
                if visible && let Some(piece) = &mut current {
                    piece.characters += 1;
                    piece.has_text = true;
                }
            }
            Event::Empty(_) | Event::Decl(_) | Event::PI(_) | Event::Comment(_) => {}
        }
    }
    if !open.is_empty() {
        return Err(format!("{} element(s) never closed", open.len()));
    }
    Ok(found)
}

/// A translated piece, checked and made fit for the part: it must be one well-formed piece
/// element (it is built from the source's own tags, so this fails only on a broken rendering);
/// text a translation put outside the text elements is moved into the text element before it
/// (or after it, for text before the first); and, where the type needs it, a text element whose
/// text starts or ends with whitespace keeps it with `xml:space="preserve"`.
fn settle(kind: &Kind, part: &str, source: &str, output: &str) -> Result<String, FormatError> {
    if output == source {
        return Ok(output.to_owned());
    }
    let piece = the_one_piece(kind, part, output)?;
    let broken = |error: String| kind.corrupt(format!("the translation of a paragraph of {part}: {error}"));

    // Text elements (their start tags and content) and stray text, in order.
    struct TextElement {
        tag: Range<usize>,
        content: Range<usize>,
        declares_space: bool,
    }
    let mut elements: Vec<TextElement> = Vec::new();
    let mut stray: Vec<Range<usize>> = Vec::new();
    let mut reader = Reader::from_str(output);
    let config = reader.config_mut();
    config.check_end_names = true;
    config.trim_text(false);
    config.expand_empty_elements = false;
    // For each open element: whether it is a text element, and whether it is never translated
    // or a nested piece.
    let mut open: Vec<(bool, bool)> = Vec::new();
    let mut blocked = 0usize;
    loop {
        let start = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|error| broken(error.to_string()))?;
        let end = reader.buffer_position() as usize;
        match event {
            Event::Eof => break,
            Event::Start(tag) => {
                let is_text = blocked == 0 && !open.is_empty() && kind.matches(kind.texts, tag.name().as_ref());
                let blocks = !open.is_empty()
                    && (kind.matches(kind.ignored, tag.name().as_ref())
                        || kind.matches(kind.pieces, tag.name().as_ref()));
                if is_text {
                    let declares_space = declares_space(&tag);
                    elements.push(TextElement { tag: start..end, content: end..end, declares_space });
                }
                blocked += blocks as usize;
                open.push((is_text, blocks));
            }
            Event::End(_) => {
                if let Some((is_text, blocks)) = open.pop() {
                    blocked -= blocks as usize;
                    if is_text && let Some(element) = elements.last_mut() {
                        element.content.end = start;
                    }
                }
            }
            Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) => {
                let in_text = open.last().is_some_and(|(is_text, _)| *is_text);
                let blank = output[start..end].trim().is_empty();
                if !open.is_empty() && blocked == 0 && !in_text && !blank {
                    stray.push(start..end);
                }
            }
            _ => {}
        }
    }
    if elements.is_empty() {
        return Ok(output.to_owned());
    }

    // Each stray text goes to the end of the text element before it, else the start of the first.
    let mut appended: Vec<String> = vec![String::new(); elements.len()];
    let mut prepended = String::new();
    for range in &stray {
        match elements.iter().rposition(|element| element.content.end <= range.start) {
            Some(before) => appended[before].push_str(&output[range.clone()]),
            None => prepended.push_str(&output[range.clone()]),
        }
    }
    let mut edits: Vec<(Range<usize>, String)> = stray.iter().map(|range| (range.clone(), String::new())).collect();
    for (index, element) in elements.iter().enumerate() {
        let prefix = if index == 0 { prepended.as_str() } else { "" };
        let content = format!("{prefix}{}{}", &output[element.content.clone()], appended[index]);
        let spaced = content.starts_with(char::is_whitespace) || content.ends_with(char::is_whitespace);
        if kind.preserve_space && spaced && !element.declares_space {
            let at = element.tag.end - 1;
            edits.push((at..at, " xml:space=\"preserve\"".to_owned()));
        }
        if !prefix.is_empty() {
            edits.push((element.content.start..element.content.start, prefix.to_owned()));
        }
        if !appended[index].is_empty() {
            edits.push((element.content.end..element.content.end, std::mem::take(&mut appended[index])));
        }
    }
    if edits.is_empty() {
        return Ok(output.to_owned());
    }
    edits.sort_by_key(|(range, _)| (range.start, range.end));
    let mut settled = String::with_capacity(output.len() + 64);
    let mut at = 0;
    for (range, insert) in edits {
        settled.push_str(&output[at..range.start]);
        settled.push_str(&insert);
        at = range.end;
    }
    settled.push_str(&output[at..]);
    debug_assert_eq!(piece.outer.start, 0);
    the_one_piece(kind, part, &settled)?;
    Ok(settled)
}

/// Whether a start tag has an `xml:space` attribute.
fn declares_space(tag: &BytesStart<'_>) -> bool {
    tag.attributes().flatten().any(|attribute| attribute.key.as_ref() == "xml:space")
}

#[cfg(test)]
pub(super) mod testing {
    //! Packages built in tests, and a fake translation.

    use std::io::{Cursor, Read, Write};

    use markup::{Markup, SplitSentences, TagHandling, TagOptions, UnitResult};
    use zip::write::{SimpleFileOptions, ZipWriter};
    use zip::{CompressionMethod, ZipArchive};

    use super::super::Tags;

    /// A zip of these entries (name, content), deflated except names ending in `.bin`.
    pub fn package(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        for (name, bytes) in entries {
            let method = if name.ends_with(".bin") { CompressionMethod::Stored } else { CompressionMethod::Deflated };
            writer.start_file(*name, SimpleFileOptions::default().compression_method(method)).unwrap();
            writer.write_all(bytes).unwrap();
        }
        writer.finish().unwrap().into_inner()
    }

    /// The entries of a zip, in order: name, content, compression, compressed bytes.
    pub fn entries(file: &[u8]) -> Vec<(String, Vec<u8>, CompressionMethod, Vec<u8>)> {
        let mut archive = ZipArchive::new(Cursor::new(file)).unwrap();
        (0..archive.len())
            .map(|index| {
                let mut raw = Vec::new();
                let mut entry = archive.by_index_raw(index).unwrap();
                let method = entry.compression();
                let name = entry.name().to_owned();
                entry.read_to_end(&mut raw).unwrap();
                drop(entry);
                let mut content = Vec::new();
                archive.by_index(index).unwrap().read_to_end(&mut content).unwrap();
                (name, content, method, raw)
            })
            .collect()
    }

    /// The content of entry `name`, as text.
    pub fn part(file: &[u8], name: &str) -> String {
        let found = entries(file).into_iter().find(|entry| entry.0 == name).expect("the entry");
        String::from_utf8(found.1).unwrap()
    }

    /// A translation of `piece` as the document's translation makes it with `tags`, each unit's
    /// text upper-cased (its placeholders kept).
    pub fn upper_cased(piece: &str, tags: Tags) -> String {
        let names = |names: &[&str]| names.iter().map(|name| (*name).to_owned()).collect();
        let options = TagOptions {
            handling: TagHandling::Xml,
            outline_detection: tags.outline_detection,
            splitting_tags: names(tags.splitting_tags),
            non_splitting_tags: names(tags.non_splitting_tags),
            ignore_tags: names(tags.ignore_tags),
            ..TagOptions::default()
        };
        let markup = Markup::parse(piece, &options, SplitSentences::default_for(Some(TagHandling::Xml))).unwrap();
        let results: Vec<UnitResult> =
            markup.units().iter().map(|unit| UnitResult::Translated(upper_outside_tags(unit.text()))).collect();
        markup.render(&results).unwrap()
    }

    fn upper_outside_tags(text: &str) -> String {
        let mut inside = false;
        text.chars()
            .map(|character| {
                match character {
                    '<' => inside = true,
                    '>' => inside = false,
                    _ => {}
                }
                if inside { character } else { character.to_uppercase().next().unwrap_or(character) }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind() -> Kind {
        Kind {
            format: Format::Docx,
            holds_text: |name| name == "body.xml",
            check: |names| (!names.contains(&"body.xml")).then_some("no body.xml"),
            pieces: &["w:p"],
            texts: &["w:t"],
            ignored: &["w:drawing", "w:instrText"],
            local_names: false,
            preserve_space: true,
        }
    }

    fn cut_of(xml: &str) -> Cut {
        cut(&kind(), &testing::package(&[("body.xml", xml.as_bytes())])).unwrap()
    }

    #[test]
    fn pieces_are_paragraphs_with_text_outer_before_inner() {
        let xml = "<w:body><w:p><w:r><w:t>One &amp; two</w:t></w:r></w:p><w:p><w:pPr/></w:p>\
                   <w:p><w:r><w:t>Before</w:t></w:r><w:r><w:drawing><w:p><w:r><w:t>Boxed</w:t></w:r></w:p>\
                   </w:drawing></w:r></w:p><w:p><w:r><w:drawing><w:p><w:r><w:t>Only box</w:t></w:r></w:p>\
                   </w:drawing></w:r></w:p><w:p><w:r><w:instrText>PAGE</w:instrText></w:r></w:p></w:body>";
        let cut = cut_of(xml);
        let pieces: Vec<&str> = cut.pieces.iter().map(|piece| piece.text.as_str()).collect();
        assert_eq!(pieces.len(), 4, "{pieces:#?}");
        assert!(pieces[0].starts_with("<w:p><w:r><w:t>One &amp; two"));
        assert!(pieces[1].contains("Before") && pieces[1].contains("Boxed"), "the outer paragraph whole");
        assert_eq!(pieces[2], "<w:p><w:r><w:t>Boxed</w:t></w:r></w:p>");
        assert_eq!(pieces[3], "<w:p><w:r><w:t>Only box</w:t></w:r></w:p>");
        assert_eq!(cut.characters, 9 + 6 + 5 + 8);
        assert!(cut.pieces.iter().all(|piece| piece.translate));
    }

    #[test]
    fn outputs_go_back_where_their_pieces_were_nested_ones_included() {
        let xml = "<w:body><w:p><w:r><w:t>Before</w:t></w:r><w:r><w:drawing><w:p><w:r><w:t>Boxed</w:t></w:r></w:p>\
                   </w:drawing></w:r></w:p></w:body>";
        let file = testing::package(&[("body.xml", xml.as_bytes())]);
        let cut = cut(&kind(), &file).unwrap();
        let outputs: Vec<String> =
            cut.pieces.iter().map(|piece| piece.text.replace("Before", "Avant").replace("Boxed", "IGNORED")).collect();
        let outputs = vec![outputs[0].clone(), "<w:p><w:r><w:t>Encadré</w:t></w:r></w:p>".to_owned()];
        let translated = assemble(&kind(), &file, &outputs).unwrap();
        assert_eq!(
            testing::part(&translated, "body.xml"),
            "<w:body><w:p><w:r><w:t>Avant</w:t></w:r><w:r><w:drawing><w:p><w:r><w:t>Encadré</w:t></w:r></w:p>\
             </w:drawing></w:r></w:p></w:body>"
        );
        let too_few = assemble(&kind(), &file, &outputs[..1]).unwrap_err();
        assert!(too_few.to_string().contains("fewer translations"), "{too_few}");
        let mut too_many = outputs.clone();
        too_many.push(String::new());
        assert!(assemble(&kind(), &file, &too_many).unwrap_err().to_string().contains("more translations"));
    }

    #[test]
    fn text_put_between_runs_moves_into_a_text_element_and_spaces_are_preserved() {
        let source = "<w:p><w:r><w:t>a</w:t></w:r><w:r><w:t>b</w:t></w:r></w:p>";
        let output = "<w:p>X <w:r><w:t>A</w:t></w:r> Y<w:r><w:t>B</w:t>Z</w:r></w:p>";
        assert_eq!(
            settle(&kind(), "body.xml", source, output).unwrap(),
            "<w:p><w:r><w:t>X A Y</w:t></w:r><w:r><w:t>BZ</w:t></w:r></w:p>"
        );
        let spaced = "<w:p><w:r><w:t>A</w:t></w:r> <w:r><w:t>B</w:t></w:r>C </w:p>";
        assert_eq!(
            settle(&kind(), "body.xml", source, spaced).unwrap(),
            "<w:p><w:r><w:t>A</w:t></w:r> <w:r><w:t xml:space=\"preserve\">BC </w:t></w:r></w:p>"
        );
        let trailing = "<w:p><w:r><w:t>A </w:t></w:r><w:r><w:t>B</w:t></w:r></w:p>";
        assert_eq!(
            settle(&kind(), "body.xml", source, trailing).unwrap(),
            "<w:p><w:r><w:t xml:space=\"preserve\">A </w:t></w:r><w:r><w:t>B</w:t></w:r></w:p>"
        );
        let kept = "<w:p><w:r><w:t xml:space=\"preserve\">A </w:t></w:r></w:p>";
        assert_eq!(settle(&kind(), "body.xml", source, kept).unwrap(), kept);
    }

    #[test]
    fn a_translation_that_breaks_the_paragraph_fails_the_document() {
        let source = "<w:p><w:r><w:t>a</w:t></w:r></w:p>";
        for output in ["<w:p><w:r><w:t>a</w:r></w:t></w:p>", "<w:p>a</w:p><w:p>b</w:p>", "<w:p><w:r>", "plain"] {
            let error = settle(&kind(), "body.xml", source, output).unwrap_err();
            assert!(matches!(error, FormatError::Corrupt { format: "docx", .. }), "{output}: {error}");
        }
    }

    #[test]
    fn bad_packages_are_refused_with_a_reason() {
        let why = |file: &[u8]| match cut(&kind(), file) {
            Err(FormatError::Corrupt { why, .. }) => why,
            other => panic!("refused, not {other:?}"),
        };
        assert!(why(b"PK\x03\x04 not really").contains("not a zip package"));
        assert_eq!(why(&testing::package(&[("other.xml", b"<a/>")])), "no body.xml");
        let doctype = "<!DOCTYPE x [<!ENTITY a \"aaaa\">]><w:body><w:p><w:r><w:t>&a;</w:t></w:r></w:p></w:body>";
        assert!(why(&testing::package(&[("body.xml", doctype.as_bytes())])).contains("DOCTYPE"));
        assert!(why(&testing::package(&[("body.xml", b"<w:body><w:p>")])).contains("not well-formed"));
        assert!(why(&testing::package(&[("body.xml", b"<w:body>\xff</w:body>")])).contains("not UTF-8"));
        let nested = format!("{}{}", "<w:p><w:r><w:drawing>".repeat(20), "</w:drawing></w:r></w:p>".repeat(20));
        assert!(why(&testing::package(&[("body.xml", nested.as_bytes())])).contains("nested"));
    }

    #[test]
    fn a_zip_bomb_is_refused_while_it_is_read() {
        // 4 MiB of one byte deflate to a few KiB: far past 100 to 1.
        let mut xml = b"<w:body>".to_vec();
        xml.extend(std::iter::repeat_n(b' ', 4 * MIB as usize));
        xml.extend_from_slice(b"</w:body>");
        let why = match cut(&kind(), &testing::package(&[("body.xml", &xml)])) {
            Err(FormatError::Corrupt { why, .. }) => why,
            other => panic!("refused, not {other:?}"),
        };
        assert!(why.contains("100 times") && why.contains("zip bomb"), "{why}");
        // Under 1 MiB, any ratio is read.
        let mut small = b"<w:body>".to_vec();
        small.extend(std::iter::repeat_n(b' ', 512 * 1024));
        small.extend_from_slice(b"</w:body>");
        assert!(cut(&kind(), &testing::package(&[("body.xml", &small)])).is_ok());
    }
}
