//! The placeholder language a unit's text is written in.
//!
//! Inside a unit, each inline tag is replaced by a numbered placeholder: `<gN>…</gN>` for an
//! element with content, `<xN/>` for anything without (a void or empty element, a comment, an
//! ignored element). Numbers start at 1 in each unit and are shared by both kinds. Everything
//! else in a unit's text is plain text, exactly as the engine should read it (not escaped).
//!
//! This module owns reading that language back from a translation ([`segments`]) and deciding
//! whether a translation kept every placeholder (`Unit::accepts`).

use std::ops::Range;

/// A piece of a text written with placeholders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment<'a> {
    /// Plain text between placeholders.
    Text(&'a str),
    /// `<gN>`: the start tag of placeholder `N`.
    Open(u32),
    /// `</gN>`: the end tag of placeholder `N`.
    Close(u32),
    /// `<xN/>`: placeholder `N`, which has no content.
    Empty(u32),
}

/// Reads a text written with placeholders (a unit's text, or an engine's translation of it).
///
/// Only the exact spellings `<g12>`, `</g12>` and `<x12/>` (no leading zero, no spaces) are
/// placeholders; anything else, `<b>` or a lone `<` included, is text.
pub fn segments(text: &str) -> Vec<Segment<'_>> {
    segment_ranges(text).into_iter().map(|(range, segment)| segment.unwrap_or(Segment::Text(&text[range]))).collect()
}

/// Like [`segments`], with the byte range of each segment; text segments come back as `None` so
/// the caller slices them itself.
pub(crate) fn segment_ranges(text: &str) -> Vec<(Range<usize>, Option<Segment<'static>>)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut text_start = 0;
    let mut position = 0;
    while let Some(offset) = text[position..].find('<') {
        let start = position + offset;
        match placeholder_at(bytes, start) {
            Some((segment, length)) => {
                if text_start < start {
                    found.push((text_start..start, None));
                }
                found.push((start..start + length, Some(segment)));
                position = start + length;
                text_start = position;
            }
            None => position = start + 1,
        }
    }
    if text_start < text.len() {
        found.push((text_start..text.len(), None));
    }
    found
}

/// The placeholder starting at `bytes[start]` (a `<`), with its length in bytes.
fn placeholder_at(bytes: &[u8], start: usize) -> Option<(Segment<'static>, usize)> {
    let rest = &bytes[start + 1..];
    let (closing, rest) = match rest.first() {
        Some(b'/') => (true, &rest[1..]),
        _ => (false, rest),
    };
    let (kind, rest) = rest.split_first()?;
    let digits = rest.iter().take_while(|byte| byte.is_ascii_digit()).count();
    if digits == 0 || rest[0] == b'0' || digits > 9 {
        return None;
    }
    let number: u32 = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
    let after = &rest[digits..];
    let prefix = 1 + usize::from(closing) + 1 + digits;
    match (kind, closing) {
        (b'g', false) if after.starts_with(b">") => Some((Segment::Open(number), prefix + 1)),
        (b'g', true) if after.starts_with(b">") => Some((Segment::Close(number), prefix + 1)),
        (b'x', false) if after.starts_with(b"/>") => Some((Segment::Empty(number), prefix + 2)),
        _ => None,
    }
}

/// Which placeholder spelling stands for a tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceholderKind {
    /// `<gN>…</gN>`: an inline element with text inside.
    Paired,
    /// `<xN/>`: a void or empty element, a comment, an ignored element, an unresolved reference.
    Empty,
}

/// What one placeholder of a unit stands for in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    pub(crate) id: u32,
    pub(crate) kind: PlaceholderKind,
    pub(crate) name: String,
    pub(crate) markup: String,
    pub(crate) end_markup: Option<String>,
}

impl Placeholder {
    /// The number `N` in `<gN>` or `<xN/>`.
    pub fn id(&self) -> u32 {
        self.id
    }

    pub fn kind(&self) -> PlaceholderKind {
        self.kind
    }

    /// The element's name as written (`b`, `ph`, `x:term`), or `#comment`, `#pi`, `#reference`
    /// for markup that is not an element.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The source this placeholder stands for, verbatim: the start tag of a paired placeholder,
    /// or the whole thing (`<br/>`, `<b></b>`, `<!-- c -->`, an ignored element) of an empty one.
    pub fn markup(&self) -> &str {
        &self.markup
    }

    /// The verbatim end tag of a paired placeholder.
    pub fn end_markup(&self) -> Option<&str> {
        self.end_markup.as_deref()
    }

    /// How the placeholder is written in the unit's text: `<g1>` or `<x2/>`.
    pub fn token(&self) -> String {
        match self.kind {
            PlaceholderKind::Paired => format!("<g{}>", self.id),
            PlaceholderKind::Empty => format!("<x{}/>", self.id),
        }
    }
}

/// Whether `translation` holds each placeholder exactly once, paired ones opened before they are
/// closed and properly nested, and no placeholder the unit does not have. Order may change.
pub(crate) fn keeps_placeholders(translation: &str, placeholders: &[Placeholder]) -> bool {
    let mut opened = vec![false; placeholders.len()];
    let mut closed = vec![false; placeholders.len()];
    let mut open_stack: Vec<u32> = Vec::new();
    let kind_of = |id: u32| placeholders.get((id as usize).checked_sub(1)?).map(|placeholder| placeholder.kind);
    for segment in segments(translation) {
        match segment {
            Segment::Text(_) => {}
            Segment::Open(id) => {
                if kind_of(id) != Some(PlaceholderKind::Paired) || opened[id as usize - 1] {
                    return false;
                }
                opened[id as usize - 1] = true;
                open_stack.push(id);
            }
            Segment::Close(id) => {
                if open_stack.pop() != Some(id) {
                    return false;
                }
                closed[id as usize - 1] = true;
            }
            Segment::Empty(id) => {
                if kind_of(id) != Some(PlaceholderKind::Empty) || opened[id as usize - 1] {
                    return false;
                }
                opened[id as usize - 1] = true;
                closed[id as usize - 1] = true;
            }
        }
    }
    open_stack.is_empty() && closed.iter().all(|&done| done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placeholder(id: u32, kind: PlaceholderKind) -> Placeholder {
        Placeholder { id, kind, name: "b".into(), markup: "<b>".into(), end_markup: None }
    }

    fn two_paired_and_one_empty() -> Vec<Placeholder> {
        vec![
            placeholder(1, PlaceholderKind::Paired),
            placeholder(2, PlaceholderKind::Empty),
            placeholder(3, PlaceholderKind::Paired),
        ]
    }

    #[test]
    fn segments_read_the_three_placeholder_spellings() {
        assert_eq!(
            segments("a <g1>b</g1><x2/> c"),
            [
                Segment::Text("a "),
                Segment::Open(1),
                Segment::Text("b"),
                Segment::Close(1),
                Segment::Empty(2),
                Segment::Text(" c")
            ]
        );
    }

    #[test]
    fn anything_else_that_looks_like_a_tag_is_text() {
        let text = "a < b <b>c</b> <g01> <g 1> <x3> <G1> </g> <x4 /> <";
        assert_eq!(segments(text), [Segment::Text(text)]);
    }

    #[test]
    fn a_translation_that_keeps_every_placeholder_is_accepted_in_any_order() {
        let placeholders = two_paired_and_one_empty();
        assert!(keeps_placeholders("<g1>a</g1> <x2/> <g3>b</g3>", &placeholders));
        assert!(keeps_placeholders("<x2/><g3>b <g1>a</g1></g3>", &placeholders));
    }

    #[test]
    fn a_dropped_or_duplicated_placeholder_is_rejected() {
        let placeholders = two_paired_and_one_empty();
        assert!(!keeps_placeholders("<g1>a</g1> <g3>b</g3>", &placeholders));
        assert!(!keeps_placeholders("<g1>a</g1> <x2/><x2/> <g3>b</g3>", &placeholders));
        assert!(!keeps_placeholders("<g1>a</g1><g1>a</g1> <x2/> <g3>b</g3>", &placeholders));
    }

    #[test]
    fn crossed_unbalanced_or_unknown_placeholders_are_rejected() {
        let placeholders = two_paired_and_one_empty();
        assert!(!keeps_placeholders("<g1>a<g3>b</g1></g3><x2/>", &placeholders));
        assert!(!keeps_placeholders("</g1>a<g1> <x2/> <g3>b</g3>", &placeholders));
        assert!(!keeps_placeholders("<g1>a</g1> <x2/> <g3>b</g3> <x4/>", &placeholders));
        assert!(!keeps_placeholders("<g1>a</g1> <g2></g2> <g3>b</g3>", &placeholders));
        assert!(!keeps_placeholders("<x1/> <x2/> <g3>b</g3>", &placeholders));
    }
}
