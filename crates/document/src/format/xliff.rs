//! XLIFF 2 (2.0 and 2.1): the `<source>` of every `<segment>` is translated into that segment's
//! `<target>`.
//!
//! The file is read with quick-xml (namespaces resolved, byte positions of every event), never
//! by hand. The file is cut into a skeleton kept byte for byte and, for each segment to
//! translate, the content of its `<source>` (inner XML, inline codes included) as one piece,
//! translated with tag handling ([`TAGS`]): every element inside a source (`<ph/>`, `<pc>`,
//! `<sc/>`, `<ec/>`, `<mrk>`, `<cp/>`) is an inline placeholder that never splits the text, so it
//! comes back byte for byte around the translated words. The piece is placed in a `<target>`:
//!
//! * the segment's own `<target>`, if it has one (its start tag and attributes kept, its old
//!   content replaced; `<target/>` becomes `<target>…</target>`);
//! * otherwise a new `<target>` right after `</source>`, with the source's prefix and
//!   `xml:space`.
//!
//! The segment's start tag gets `state="translated"` (its `state` value replaced, or the
//! attribute added; a `subState` is left as it is). Everything else is kept byte for byte. A segment is left untouched when its
//! state is `final`, or when it, or the unit, group or file it is in, says `translate="no"`. A
//! source with no text (empty, blank, or inline codes only) is copied into the target as it is,
//! with no piece and no characters. `<source>` and `<target>` elsewhere (inside `<ignorable>`, or
//! a module's `<mtc:match>`) are not touched.
//!
//! Refused, as a [`FormatError::Corrupt`] with the reason: XLIFF 1.2 (version `1.x`, its
//! namespace, or `<trans-unit>`), any other version or namespace, a DOCTYPE (no entity is ever
//! expanded), an entity XML does not predefine, an encoding other than UTF-8, and XML that is
//! not well-formed.
//!
//! The root's `trgLang` becomes the translation's target language (replaced, or added: XLIFF 2
//! asks for it where targets exist). Not done: `<mrk translate="no">` inside a source is
//! translated like the text around it: tag handling ignores elements by name only.

use std::ops::Range;

use markup::{Markup, Segment as MarkupSegment, SplitSentences, TagOptions};
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::{Namespace, ResolveResult};
use quick_xml::reader::NsReader;

use super::{Cut, FormatError, Tags};

/// How an XLIFF file's pieces are translated: XML, and with outline detection off and no
/// splitting tags, every element of a source (XLIFF's inline codes) is an inline placeholder.
pub(super) const TAGS: Tags = Tags::XML_INLINE;

/// The namespace of XLIFF 2's core (2.0 and 2.1 alike).
const CORE: &str = "urn:oasis:names:tc:xliff:document:2.0";
/// The namespace of XLIFF 1.2.
const V12: &str = "urn:oasis:names:tc:xliff:document:1.2";

const REFUSED_12: &str = "XLIFF 1.2 is not supported; send XLIFF 2.0 or 2.1";

fn corrupt(why: impl Into<String>) -> FormatError {
    FormatError::Corrupt { format: "xliff", why: why.into() }
}

/// An open element.
struct Open {
    /// Whether it is in XLIFF's core namespace.
    core: bool,
    local: String,
    /// Whether its content is to be translated (`translate`, inherited).
    translate: bool,
}

/// A segment being read.
struct SegmentAt {
    /// The depth of the `<segment>` element (the length of the stack with it on).
    depth: usize,
    /// Left untouched: `final`, or not to be translated.
    untouched: bool,
    start_tag: Range<usize>,
    /// Where the value of its `state` attribute is, if it has one.
    state: Option<Range<usize>>,
    source: Option<Source>,
    target: Option<Target>,
}

struct Source {
    /// Where its content starts (after the start tag) and ends (before the end tag).
    content: Range<usize>,
    /// The end of its end tag (or of `<source/>`).
    end: usize,
    /// `prefix:` of its name, or nothing.
    prefix: String,
    /// Its `xml:space` attribute, as written (` xml:space="preserve"`), or nothing.
    space: String,
    /// Whether its end has been read.
    closed: bool,
}

struct Target {
    start_tag: Range<usize>,
    /// Its content, or `None` for `<target/>`; `Some` once its end tag has been read.
    content: Option<Range<usize>>,
    end: usize,
    prefix: String,
    empty: bool,
}

pub(super) fn cut(text: &str, target: Option<&str>) -> Result<Cut, FormatError> {
    let mut cutter = Cutter { text, cut: Cut::new(), position: 0 };
    // quick-xml skips a byte order mark without counting it: it is read past here and kept.
    let bom = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let body = &text[bom..];
    let mut reader = NsReader::from_str(body);
    let config = reader.config_mut();
    config.trim_text(false);
    config.expand_empty_elements = false;
    config.check_end_names = true;

    let line = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let mut stack: Vec<Open> = Vec::new();
    let mut root_seen = false;
    let mut segment: Option<SegmentAt> = None;
    loop {
        let start = bom + reader.buffer_position() as usize;
        let (resolved, event) = match reader.read_resolved_event() {
            Ok((resolved, event)) => (core_or_not(&resolved), event),
            Err(error) => {
                let at = bom + reader.error_position() as usize;
                return Err(corrupt(format!("the XML is not well-formed at line {}: {error}", line(at))));
            }
        };
        let end = bom + reader.buffer_position() as usize;
        match event {
            Event::Eof => break,
            Event::DocType(_) => {
                return Err(corrupt(format!(
                    "a DOCTYPE is not allowed in XLIFF (line {}); entities are never expanded",
                    line(start)
                )));
            }
            Event::Decl(declaration) => {
                if let Some(encoding) = declaration.encoding() {
                    let encoding = encoding.map_err(|error| corrupt(format!("the XML declaration: {error}")))?;
                    if !matches!(encoding.to_ascii_lowercase().as_str(), "utf-8" | "utf8") {
                        return Err(corrupt(format!(
                            "the file declares the encoding {encoding}; only UTF-8 XLIFF files are translated"
                        )));
                    }
                }
            }
            Event::GeneralRef(reference) => {
                let name: &str = &reference;
                let known = match reference.resolve_char_ref() {
                    Ok(Some(_)) => true,
                    Ok(None) => quick_xml::escape::resolve_predefined_entity(name).is_some(),
                    Err(_) => false,
                };
                if !known {
                    return Err(corrupt(format!(
                        "unknown entity or invalid character reference &{name}; at line {}",
                        line(start)
                    )));
                }
            }
            Event::Start(ref tag) | Event::Empty(ref tag) => {
                let empty = matches!(event, Event::Empty(_));
                let local = tag.local_name().as_ref().to_owned();
                if local == "trans-unit" {
                    return Err(corrupt(REFUSED_12));
                }
                if !root_seen {
                    check_root(tag, &local, resolved)?;
                    root_seen = true;
                    if let Some(target) = target {
                        cutter.root(tag, start..end, empty, target)?;
                    }
                } else if stack.is_empty() {
                    return Err(corrupt(format!("a second root element <{local}> at line {}", line(start))));
                }
                let inherited = stack.last().is_none_or(|open| open.translate);
                let translate = match attribute(tag, "translate")? {
                    Some((value, _)) if resolved => value != "no",
                    _ => inherited,
                };
                let depth = stack.len() + 1;
                let core = resolved;
                if core && local == "segment" && segment.is_none() && !empty {
                    let state = attribute(tag, "state")?;
                    let is_final = state.as_ref().is_some_and(|(value, _)| value == "final");
                    let state = state.map(|(_, range)| offset_in(text, range, start..end)).transpose()?;
                    segment = Some(SegmentAt {
                        depth,
                        untouched: is_final || !translate,
                        start_tag: start..end,
                        state,
                        source: None,
                        target: None,
                    });
                } else if let Some(at) = segment.as_mut().filter(|at| core && depth == at.depth + 1) {
                    let prefix = prefix_of(tag);
                    match local.as_str() {
                        "source" if at.source.is_some() => {
                            return Err(corrupt(format!(
                                "a segment with two <source> elements at line {}",
                                line(start)
                            )));
                        }
                        "source" => {
                            let space = match attribute(tag, "xml:space")? {
                                Some((value, _)) if matches!(value.as_str(), "preserve" | "default") => {
                                    format!(" xml:space=\"{value}\"")
                                }
                                _ => String::new(),
                            };
                            let content = end..end;
                            at.source = Some(Source { content, end, prefix, space, closed: empty });
                        }
                        "target" if at.target.is_some() => {
                            return Err(corrupt(format!(
                                "a segment with two <target> elements at line {}",
                                line(start)
                            )));
                        }
                        "target" if at.source.is_none() => {
                            return Err(corrupt(format!("a <target> before its <source> at line {}", line(start))));
                        }
                        "target" => {
                            let content = empty.then_some(end..end);
                            at.target = Some(Target { start_tag: start..end, content, end, prefix, empty });
                        }
                        _ => {}
                    }
                }
                if !empty {
                    stack.push(Open { core, local, translate });
                }
            }
            Event::End(_) => {
                let depth = stack.len();
                let Some(open) = stack.pop() else {
                    return Err(corrupt(format!("an end tag without start tag at line {}", line(start))));
                };
                if let Some(done) = segment.take_if(|at| depth == at.depth) {
                    cutter.segment(done)?;
                } else if let Some(at) = segment.as_mut().filter(|at| open.core && depth == at.depth + 1) {
                    match (open.local.as_str(), at.source.as_mut(), at.target.as_mut()) {
                        ("source", Some(source), _) if !source.closed => {
                            source.content.end = start;
                            source.end = end;
                            source.closed = true;
                        }
                        ("target", _, Some(target)) if target.content.is_none() => {
                            target.content = Some(target.start_tag.end..start);
                            target.end = end;
                        }
                        _ => {}
                    }
                }
            }
            Event::Text(_) | Event::CData(_) | Event::Comment(_) | Event::PI(_) => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(corrupt(format!("the file ends inside the element <{}>", open.local)));
    }
    if !root_seen {
        return Err(corrupt("there is no <xliff> element"));
    }
    let Cutter { text, mut cut, position } = cutter;
    cut.push(false, &text[position..]);
    Ok(cut)
}

/// Whether a name resolved to XLIFF's core namespace.
fn core_or_not(resolved: &ResolveResult<'_>) -> bool {
    matches!(resolved, ResolveResult::Bound(Namespace(namespace)) if *namespace == CORE)
}

/// Checks the root element: `<xliff>` of version 2.0 or 2.1 in the core namespace.
fn check_root(tag: &BytesStart<'_>, local: &str, core: bool) -> Result<(), FormatError> {
    if local != "xliff" {
        return Err(corrupt(format!("the root element is <{local}>, not <xliff>")));
    }
    let version = attribute(tag, "version")?.map(|(value, _)| value);
    let namespace = attribute(tag, "xmlns")?.map(|(value, _)| value);
    if version.as_deref().is_some_and(|version| version.starts_with("1."))
        || namespace.as_deref().is_some_and(|namespace| namespace == V12)
    {
        return Err(corrupt(REFUSED_12));
    }
    match version.as_deref() {
        Some("2.0" | "2.1") => {}
        Some(other) => return Err(corrupt(format!("XLIFF version {other} is not supported; send XLIFF 2.0 or 2.1"))),
        None => return Err(corrupt("the <xliff> element has no version attribute")),
    }
    if !core {
        return Err(corrupt(
            "the <xliff> element is not in the XLIFF 2 namespace urn:oasis:names:tc:xliff:document:2.0",
        ));
    }
    Ok(())
}

/// An attribute's value (unescaped) and where its raw value is in the tag's bytes.
fn attribute<'t>(tag: &'t BytesStart<'_>, name: &str) -> Result<Option<(String, &'t str)>, FormatError> {
    for attribute in tag.attributes() {
        let attribute = attribute.map_err(|error| corrupt(format!("an attribute of <{}>: {error}", tag_name(tag))))?;
        if attribute.key.as_ref() == name {
            let value = attribute
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|error| corrupt(format!("an attribute of <{}>: {error}", tag_name(tag))))?
                .into_owned();
            let raw: &'t str = match attribute.value {
                std::borrow::Cow::Borrowed(raw) => raw,
                // The reader borrows from the file; an owned value is never made.
                std::borrow::Cow::Owned(_) => "",
            };
            return Ok(Some((value, raw)));
        }
    }
    Ok(None)
}

fn tag_name(tag: &BytesStart<'_>) -> String {
    tag.name().as_ref().to_owned()
}

/// `prefix:` of an element's name, or nothing.
fn prefix_of(tag: &BytesStart<'_>) -> String {
    match tag.name().prefix() {
        Some(prefix) => format!("{}:", prefix.as_ref()),
        None => String::new(),
    }
}

/// Where `raw` (a slice the reader borrowed from `text`, inside the tag at `tag`) is in `text`.
fn offset_in(text: &str, raw: &str, tag: Range<usize>) -> Result<Range<usize>, FormatError> {
    let start = (raw.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let range = start..start + raw.len();
    if range.start >= tag.start && range.end <= tag.end {
        Ok(range)
    } else {
        Err(corrupt("an attribute could not be located in the file"))
    }
}

/// The cut, built segment by segment.
struct Cutter<'t> {
    text: &'t str,
    cut: Cut,
    /// How much of the text is in the cut.
    position: usize,
}

impl Cutter<'_> {
    /// Adds everything up to the end of the root's start tag, with its `trgLang` set to `target`
    /// (replaced, or added).
    fn root(&mut self, tag: &BytesStart<'_>, at: Range<usize>, empty: bool, target: &str) -> Result<(), FormatError> {
        let text = self.text;
        let raw = &text[at.clone()];
        self.cut.push(false, &text[self.position..at.start]);
        match attribute(tag, "trgLang")? {
            Some((_, value)) => {
                let value = offset_in(text, value, at.clone())?;
                self.cut.push(false, &raw[..value.start - at.start]);
                self.cut.push(false, target);
                self.cut.push(false, &raw[value.end - at.start..]);
            }
            None => {
                let close = raw.len() - if empty { 2 } else { 1 };
                self.cut.push(false, &raw[..close]);
                self.cut.push(false, &format!(" trgLang=\"{target}\""));
                self.cut.push(false, &raw[close..]);
            }
        }
        self.position = at.end;
        Ok(())
    }

    /// Adds everything up to the end of a segment's target.
    fn segment(&mut self, segment: SegmentAt) -> Result<(), FormatError> {
        let text = self.text;
        let Some(source) = segment.source.filter(|source| source.closed && !segment.untouched) else {
            return Ok(());
        };
        let content = &text[source.content.clone()];
        let characters = characters(content)?;
        let cut = &mut self.cut;
        cut.push(false, &text[self.position..segment.start_tag.start]);
        let tag = &text[segment.start_tag.clone()];
        let tag_start = segment.start_tag.start;
        match segment.state {
            Some(value) => {
                cut.push(false, &tag[..value.start - tag_start]);
                cut.push(false, "translated");
                cut.push(false, &tag[value.end - tag_start..]);
            }
            None => {
                let close = tag.len() - 1;
                cut.push(false, &tag[..close]);
                cut.push(false, " state=\"translated\"");
                cut.push(false, &tag[close..]);
            }
        }
        cut.push(false, &text[segment.start_tag.end..source.end]);
        let (open, close, resume) = match segment.target {
            Some(target) => {
                cut.push(false, &text[source.end..target.start_tag.start]);
                let start_tag = &text[target.start_tag.clone()];
                if target.empty {
                    let open = format!("{}>", start_tag.trim_end_matches("/>").trim_end());
                    (open, format!("</{}target>", target.prefix), target.end)
                } else {
                    let content = target.content.unwrap_or(target.start_tag.end..target.start_tag.end);
                    (start_tag.to_owned(), text[content.end..target.end].to_owned(), target.end)
                }
            }
            None => (
                format!("<{}target{}>", source.prefix, source.space),
                format!("</{}target>", source.prefix),
                source.end,
            ),
        };
        cut.push(false, &open);
        cut.push(characters.is_some(), content);
        cut.push(false, &close);
        cut.characters += characters.unwrap_or(0);
        self.position = resume;
        Ok(())
    }
}

/// The characters of a source's text as translation reads it (its tags not counted), or `None`
/// when it has no text to translate.
fn characters(content: &str) -> Result<Option<i64>, FormatError> {
    let names = |names: &[&str]| names.iter().map(|name| (*name).to_owned()).collect();
    let options = TagOptions {
        handling: markup::TagHandling::Xml,
        outline_detection: TAGS.outline_detection,
        splitting_tags: names(TAGS.splitting_tags),
        non_splitting_tags: names(TAGS.non_splitting_tags),
        ignore_tags: names(TAGS.ignore_tags),
        ..TagOptions::default()
    };
    let markup = Markup::parse(content, &options, SplitSentences::default_for(TAGS.handling))
        .map_err(|error| corrupt(format!("a <source>: {error}")))?;
    let characters: i64 = markup
        .units()
        .iter()
        .flat_map(|unit| unit.segments())
        .map(|segment| match segment {
            MarkupSegment::Text(text) => text.chars().count() as i64,
            _ => 0,
        })
        .sum();
    Ok((!markup.units().is_empty()).then_some(characters))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake translation: the text outside tags and references in upper case.
    fn shout(piece: &str) -> String {
        let mut out = String::new();
        let mut markup = None;
        for character in piece.chars() {
            match (markup, character) {
                (None, '<') => markup = Some('>'),
                (None, '&') => markup = Some(';'),
                (Some(end), _) if character == end => markup = None,
                _ => {}
            }
            match markup {
                None if character != '>' && character != ';' => out.extend(character.to_uppercase()),
                _ => out.push(character),
            }
        }
        out
    }

    /// The translated file: kept pieces as they are, the others through [`shout`].
    fn translated(cut: &Cut) -> String {
        cut.pieces.iter().map(|piece| if piece.translate { shout(&piece.text) } else { piece.text.clone() }).collect()
    }

    fn sources(cut: &Cut) -> Vec<&str> {
        cut.pieces.iter().filter(|piece| piece.translate).map(|piece| piece.text.as_str()).collect()
    }

    /// Reads `xml` to its end with quick-xml, and answers each core segment's id, state and
    /// targets' inner XML.
    fn segments(xml: &str) -> Vec<(String, Option<String>, Vec<String>)> {
        let mut reader = NsReader::from_str(xml);
        reader.config_mut().check_end_names = true;
        let mut found: Vec<(String, Option<String>, Vec<String>)> = Vec::new();
        let mut depth = 0;
        let mut segment_depth = None;
        let mut target_start = None;
        loop {
            let start = reader.buffer_position() as usize;
            let (resolved, event) = reader.read_resolved_event().unwrap_or_else(|error| panic!("{error} in {xml}"));
            let core = core_or_not(&resolved);
            let end = reader.buffer_position() as usize;
            match event {
                Event::Eof => break,
                Event::Start(tag) => {
                    depth += 1;
                    let local = tag.local_name().as_ref().to_owned();
                    if core && local == "segment" {
                        let id = attribute(&tag, "id").unwrap().unwrap().0;
                        let state = attribute(&tag, "state").unwrap().map(|(value, _)| value);
                        found.push((id, state, Vec::new()));
                        segment_depth = Some(depth);
                    } else if core && local == "target" && segment_depth == Some(depth - 1) {
                        target_start = Some(end);
                    }
                }
                Event::Empty(tag) if core && tag.local_name().as_ref() == "target" && segment_depth == Some(depth) => {
                    found.last_mut().unwrap().2.push(String::new());
                }
                Event::End(_) => {
                    if let Some(from) = target_start.take_if(|_| segment_depth == Some(depth - 1)) {
                        found.last_mut().unwrap().2.push(xml[from..start].to_owned());
                    }
                    if segment_depth == Some(depth) {
                        segment_depth = None;
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
        assert_eq!(depth, 0, "every element closed: {xml}");
        found
    }

    fn state(value: &str) -> Option<String> {
        Some(value.to_owned())
    }

    const V20: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="de">
  <file id="f1">
    <unit id="u1">
      <segment id="s1">
        <source>Hello <pc id="1">bold</pc> world<ph id="2"/> &amp; more.</source>
      </segment>
      <ignorable><source> </source></ignorable>
      <segment id="s2" state="initial" subState="x:y">
        <source>Second <sc id="3"/>one<ec startRef="3"/>.</source>
        <target>Zweite alt</target>
      </segment>
    </unit>
  </file>
</xliff>
"#;

    #[test]
    fn an_xliff_2_0_file_gets_a_target_per_segment_with_its_inline_codes() {
        let cut = cut(V20, None).unwrap();
        assert_eq!(
            sources(&cut),
            [
                r#"Hello <pc id="1">bold</pc> world<ph id="2"/> &amp; more."#,
                r#"Second <sc id="3"/>one<ec startRef="3"/>."#
            ]
        );
        assert_eq!(cut.characters, "Hello bold world & more.".len() as i64 + "Second one.".len() as i64);
        let output = translated(&cut);
        assert_eq!(
            segments(&output),
            [
                (
                    "s1".into(),
                    state("translated"),
                    vec![r#"HELLO <pc id="1">BOLD</pc> WORLD<ph id="2"/> &amp; MORE."#.into()]
                ),
                ("s2".into(), state("translated"), vec![r#"SECOND <sc id="3"/>ONE<ec startRef="3"/>."#.into()]),
            ]
        );
        // The target comes right after the source, or in the old target's place; the rest is kept.
        let expected = V20
            .replace(r#"<segment id="s1">"#, r#"<segment id="s1" state="translated">"#)
            .replace(
                "more.</source>\n",
                "more.</source><target>HELLO <pc id=\"1\">BOLD</pc> WORLD<ph id=\"2\"/> &amp; MORE.</target>\n",
            )
            .replace(r#"state="initial""#, r#"state="translated""#)
            .replace("<target>Zweite alt</target>", r#"<target>SECOND <sc id="3"/>ONE<ec startRef="3"/>.</target>"#);
        assert_eq!(output, expected);
    }

    const V21: &str = "\u{feff}<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\"
    xmlns:mtc=\"urn:oasis:names:tc:xliff:matches:2.0\">
 <file id=\"f\">
  <group id=\"g\">
   <unit id=\"a\">
    <mtc:matches><mtc:match ref=\"#s\"><source>Match</source><target>Treffer</target></mtc:match></mtc:matches>
    <segment id=\"a1\" state='reviewed'><source xml:space='preserve'>Keep  <mrk id=\"m\" type=\"term\">this</mrk> term.</source><target xml:lang=\"de\"/></segment>
    <segment id=\"a2\" state=\"final\"><source>Final one.</source><target>Endgültig.</target></segment>
    <segment id=\"a3\"><source><ph id=\"9\"/> </source></segment>
    <segment id=\"a4\"><source/></segment>
   </unit>
   <unit id=\"b\" translate=\"no\">
    <segment id=\"b1\"><source>Not this.</source></segment>
   </unit>
   <unit id=\"c\">
    <segment id=\"c1\"><source>Line &lt;one&gt;</source></segment>
   </unit>
  </group>
  <group id=\"h\" translate=\"no\"><unit id=\"d\"><segment id=\"d1\"><source>Nor this.</source></segment></unit></group>
 </file>
</xliff>";

    #[test]
    fn an_xliff_2_1_file_leaves_final_and_untranslatable_segments_untouched() {
        let cut = cut(V21, None).unwrap();
        assert_eq!(
            sources(&cut),
            [r#"Keep  <mrk id="m" type="term">this</mrk> term."#, "Line &lt;one&gt;"],
            "final, translate=no, empty and code-only sources are no pieces"
        );
        assert_eq!(cut.characters, "Keep  this term.".chars().count() as i64 + "Line <one>".len() as i64);
        let output = translated(&cut);
        assert!(output.starts_with('\u{feff}'), "the BOM kept");
        assert_eq!(
            segments(output.trim_start_matches('\u{feff}')),
            [
                ("a1".into(), state("translated"), vec![r#"KEEP  <mrk id="m" type="term">THIS</mrk> TERM."#.into()]),
                ("a2".into(), state("final"), vec!["Endgültig.".into()]),
                ("a3".into(), state("translated"), vec![r#"<ph id="9"/> "#.into()]),
                ("a4".into(), state("translated"), vec![String::new()]),
                ("b1".into(), None, vec![]),
                ("c1".into(), state("translated"), vec!["LINE &lt;ONE&gt;".into()]),
                ("d1".into(), None, vec![]),
            ]
        );
        assert!(output.contains(r#"<segment id="a1" state='translated'>"#), "{output}");
        assert!(output.contains(r#"<target xml:lang="de">KEEP"#), "the target's attributes kept: {output}");
        assert!(output.contains(r#"<source>Match</source><target>Treffer</target>"#), "modules untouched");
        assert!(output.contains(
            r#"<segment id="a2" state="final"><source>Final one.</source><target>Endgültig.</target></segment>"#
        ));
        assert!(output.contains(r#"<segment id="b1"><source>Not this.</source></segment>"#));
        assert!(output.contains(r#"<segment id="d1"><source>Nor this.</source></segment>"#));
        assert!(output.contains(r#"<source/><target></target>"#), "{output}");
    }

    #[test]
    fn a_prefixed_core_namespace_and_xml_space_are_carried_to_a_new_target() {
        let xml = r#"<x:xliff xmlns:x="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en"><x:file id="f"><x:unit id="u"><x:segment id="1"><x:source xml:space="preserve">Hi  there</x:source></x:segment></x:unit></x:file></x:xliff>"#;
        let output = translated(&cut(xml, None).unwrap());
        assert!(
            output.contains(r#"<x:segment id="1" state="translated"><x:source xml:space="preserve">Hi  there</x:source><x:target xml:space="preserve">HI  THERE</x:target></x:segment>"#),
            "{output}"
        );
        assert_eq!(segments(&output).len(), 1);
    }

    #[test]
    fn the_root_names_the_target_language_translated_into() {
        let output = translated(&cut(V20, Some("fr")).unwrap());
        assert!(output.contains(r#"srcLang="en" trgLang="fr">"#), "replaced: {output}");
        let without = V20.replace(r#" trgLang="de""#, "");
        let output = translated(&cut(&without, Some("en-GB")).unwrap());
        assert!(output.contains(r#"srcLang="en" trgLang="en-GB">"#), "added: {output}");
        assert_eq!(segments(&output).len(), segments(V20).len());
    }

    fn refused(xml: &str) -> String {
        match cut(xml, None) {
            Err(FormatError::Corrupt { format: "xliff", why }) => why,
            other => panic!("refused: {other:?} for {xml}"),
        }
    }

    #[test]
    fn xliff_1_2_is_refused_with_a_clear_reason() {
        let v12 = r#"<?xml version="1.0"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" datatype="plaintext" original="x"><body><trans-unit id="1"><source>Hi</source></trans-unit></body></file></xliff>"#;
        assert_eq!(refused(v12), REFUSED_12);
        assert_eq!(refused(&v12.replace(r#" version="1.2""#, "")), REFUSED_12, "by its namespace");
        assert_eq!(
            refused(r#"<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0"><trans-unit/></xliff>"#),
            REFUSED_12
        );
        assert!(refused(r#"<xliff version="2.2" xmlns="urn:oasis:names:tc:xliff:document:2.0"/>"#).contains("2.2"));
        assert!(refused(r#"<xliff version="2.0"/>"#).contains("namespace"));
        assert!(refused("<html><body/></html>").contains("<html>"));
        assert!(FormatError::Corrupt { format: "xliff", why: REFUSED_12.into() }.to_string().contains("1.2"));
    }

    #[test]
    fn a_doctype_unknown_entities_and_malformed_xml_are_refused() {
        let doctype = r#"<?xml version="1.0"?>
<!DOCTYPE xliff [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en"><file id="f"><unit id="u"><segment><source>&lol2;</source></segment></unit></file></xliff>"#;
        assert!(refused(doctype).contains("DOCTYPE"), "{}", refused(doctype));
        let root = r#"<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en"><file id="f"><unit id="u"><segment>"#;
        assert!(refused(&format!("{root}<source>&nbsp;</source></segment></unit></file></xliff>")).contains("&nbsp;"));
        let mismatched =
            refused(&format!("{root}<source>a <pc id='1'>b</source></pc></segment></unit></file></xliff>"));
        assert!(mismatched.contains("line 1"), "{mismatched}");
        assert!(refused(&format!("{root}<source>open")).contains("ends inside"));
        assert!(
            refused(&format!("{root}<source>a</source><source>b</source></segment></unit></file></xliff>"))
                .contains("two <source>")
        );
        assert!(
            refused(&format!("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>{root}</segment></unit></file></xliff>"))
                .contains("ISO-8859-1")
        );
        assert!(refused("just text").contains("no <xliff>"));
    }

    #[test]
    fn a_file_without_segments_to_translate_is_kept_whole() {
        let xml =
            r#"<xliff version="2.1" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en"><file id="f"/></xliff>"#;
        let cut = cut(xml, None).unwrap();
        assert_eq!((cut.pieces.len(), cut.characters), (1, 0));
        assert_eq!(translated(&cut), xml);
    }
}
