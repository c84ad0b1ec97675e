//! HTML: the file is read as translation reads HTML ([`markup::Markup`]), and cut between its
//! units where markup separates them, into pieces of about [`PIECE_BYTES`] each that are
//! translated with tag handling; markup outside units (scripts, styles, comments, tags and
//! attributes) comes back byte for byte.

use markup::{Markup, Segment, SplitSentences, TagHandling, TagOptions};

use super::Cut;

/// How much of an HTML file one piece holds, at least (it ends at the next unit that markup
/// separates from the one after it): small enough that a slice of work translates a few, large
/// enough that a sentence's context is rarely cut.
pub const PIECE_BYTES: usize = 4 * 1024;

pub(super) fn cut(text: &str) -> Cut {
    let options = TagOptions { handling: TagHandling::Html, ..TagOptions::default() };
    let split = SplitSentences::default_for(Some(TagHandling::Html));
    let mut cut = Cut::new();
    let markup = match Markup::parse(text, &options, split) {
        Ok(markup) => markup,
        // HTML is read as browsers read tag soup and never fails; were it to, the file is kept
        // whole and translated as one piece.
        Err(_) => {
            cut.push(true, text);
            return cut;
        }
    };
    let units = markup.units();
    let mut start = 0;
    for (index, unit) in units.iter().enumerate() {
        cut.characters += unit
            .segments()
            .iter()
            .map(|segment| match segment {
                Segment::Text(text) => text.chars().count() as i64,
                _ => 0,
            })
            .sum::<i64>();
        let end = unit.source_span().end;
        let next = units.get(index + 1).map_or(text.len(), |next| next.source_span().start);
        let separated = text[end..next].contains('<');
        if separated && end - start >= PIECE_BYTES {
            cut.push(true, &text[start..end]);
            start = end;
        }
    }
    match units.last() {
        Some(last) if last.source_span().end > start => {
            let end = last.source_span().end;
            cut.push(true, &text[start..end]);
            cut.push(false, &text[end..]);
        }
        _ => cut.push(false, &text[start..]),
    }
    cut
}
