//! Plain text: the `split_sentences` parameter.
//!
//! This module owns how a text is cut into units and the whitespace kept between them. The same
//! cutting runs inside tag handling, on the text of each run between splitting tags.
//!
//! Boundaries are Unicode's sentence boundaries (UAX #29), with two adjustments:
//!
//! * [`SplitSentences::NoNewlines`] reads line and paragraph separators as spaces, so a newline
//!   ends a unit only where punctuation already does (UAX #29 itself always breaks after one).
//! * A boundary right after a title abbreviation (`Mr.`, `Mrs.`, `Ms.`, `Dr.`, `Prof.`, `St.`,
//!   `Jr.`, `Sr.`, `vs.`, `e.g.`, `i.e.`, `cf.`) or a single capital letter followed by a period
//!   (an initial, as in `J. Smith`) is dropped, since UAX #29 breaks after any period followed by a
//!   space and a capital letter. The list is deliberately short: other abbreviations before a
//!   capitalised word (`approx. Berlin`) still end a unit, and an initial at the true end of a
//!   sentence (`Plan B. Then`) does not. `I.` is taken for the English pronoun, not an initial.
//!
//! Whitespace around units never belongs to them: it is returned as separators, so that
//! concatenating every piece gives the input back byte for byte.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation;

use crate::options::TagHandling;

/// How a text is cut into units (the `split_sentences` request parameter).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SplitSentences {
    /// `'0'`: the whole text is one unit (less its surrounding whitespace).
    #[serde(rename = "0")]
    Off,
    /// `'1'`: a unit ends at each sentence end and at each newline.
    #[default]
    #[serde(rename = "1")]
    On,
    /// `'nonewlines'`: a unit ends at each sentence end only; newlines stay inside units.
    #[serde(rename = "nonewlines")]
    NoNewlines,
}

impl SplitSentences {
    /// The default when the request does not say: `nonewlines` with `tag_handling=html`, `1`
    /// otherwise.
    pub fn default_for(tag_handling: Option<TagHandling>) -> SplitSentences {
        match tag_handling {
            Some(TagHandling::Html) => SplitSentences::NoNewlines,
            Some(TagHandling::Xml) | None => SplitSentences::On,
        }
    }

    /// The wire spelling: `0`, `1` or `nonewlines`.
    pub fn as_str(self) -> &'static str {
        match self {
            SplitSentences::Off => "0",
            SplitSentences::On => "1",
            SplitSentences::NoNewlines => "nonewlines",
        }
    }
}

impl fmt::Display for SplitSentences {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

/// A `split_sentences` value that is none of `0`, `1`, `nonewlines`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Value for 'split_sentences' not supported.")]
pub struct UnknownSplitSentences;

impl FromStr for SplitSentences {
    type Err = UnknownSplitSentences;

    fn from_str(value: &str) -> Result<SplitSentences, UnknownSplitSentences> {
        match value {
            "0" => Ok(SplitSentences::Off),
            "1" => Ok(SplitSentences::On),
            "nonewlines" => Ok(SplitSentences::NoNewlines),
            _ => Err(UnknownSplitSentences),
        }
    }
}

/// One piece of a text cut by [`split_sentences`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextPiece<'a> {
    /// Text to translate: never empty, never starts or ends with whitespace.
    Unit(&'a str),
    /// Whitespace between (or around) units, kept as it is.
    Separator(&'a str),
}

impl<'a> TextPiece<'a> {
    /// The piece's text, whichever kind it is.
    pub fn as_str(&self) -> &'a str {
        match self {
            TextPiece::Unit(text) | TextPiece::Separator(text) => text,
        }
    }
}

/// Cuts `text` into units and separators; concatenating the pieces gives `text` back exactly.
///
/// An empty or whitespace-only text gives no unit (and, when not empty, one separator).
pub fn split_sentences(text: &str, mode: SplitSentences) -> Vec<TextPiece<'_>> {
    let mut pieces = Vec::new();
    let mut position = 0;
    for span in unit_spans(text, mode) {
        if span.start > position {
            pieces.push(TextPiece::Separator(&text[position..span.start]));
        }
        pieces.push(TextPiece::Unit(&text[span.clone()]));
        position = span.end;
    }
    if position < text.len() {
        pieces.push(TextPiece::Separator(&text[position..]));
    }
    pieces
}

/// The byte ranges of the units of `text`, in order, trimmed of whitespace and never empty.
pub(crate) fn unit_spans(text: &str, mode: SplitSentences) -> Vec<Range<usize>> {
    let boundaries: Vec<Range<usize>> = match mode {
        SplitSentences::Off => std::iter::once(0..text.len()).collect(),
        SplitSentences::On => sentence_ranges(text),
        SplitSentences::NoNewlines => sentence_ranges(&newlines_as_spaces(text)),
    };
    let mut spans: Vec<Range<usize>> = Vec::new();
    for range in boundaries {
        let trimmed = trim_range(text, range);
        if trimmed.is_empty() {
            continue;
        }
        if let Some(previous) = spans.last_mut() {
            let between = &text[previous.end..trimmed.start];
            let newline_split = mode == SplitSentences::On && between.chars().any(is_line_break);
            if !newline_split && ends_with_abbreviation(&text[previous.clone()]) {
                previous.end = trimmed.end;
                continue;
            }
        }
        spans.push(trimmed);
    }
    spans
}

/// UAX #29 sentence ranges, covering the whole text.
fn sentence_ranges(text: &str) -> Vec<Range<usize>> {
    text.split_sentence_bound_indices().map(|(start, sentence)| start..start + sentence.len()).collect()
}

/// The same text with every line break replaced by as many spaces as it has bytes, so that byte
/// offsets stay valid in the original.
fn newlines_as_spaces(text: &str) -> String {
    let mut flat = String::with_capacity(text.len());
    for character in text.chars() {
        if is_line_break(character) {
            flat.extend(std::iter::repeat_n(' ', character.len_utf8()));
        } else {
            flat.push(character);
        }
    }
    flat
}

/// The characters UAX #29 treats as paragraph separators (`Sep`, `CR`, `LF`).
fn is_line_break(character: char) -> bool {
    matches!(character, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// `range` less the whitespace at both of its ends.
pub(crate) fn trim_range(text: &str, range: Range<usize>) -> Range<usize> {
    let slice = &text[range.clone()];
    let start = range.start + (slice.len() - slice.trim_start().len());
    let end = range.start + slice.trim_end().len();
    if start >= end { start..start } else { start..end }
}

/// Abbreviations after which a period does not end a sentence, compared without the final period.
const ABBREVIATIONS: &[&str] = &["Mr", "Mrs", "Ms", "Dr", "Prof", "St", "Jr", "Sr", "vs", "e.g", "i.e", "cf"];

/// Whether a unit ends with a title abbreviation or an initial, so the next one continues it.
fn ends_with_abbreviation(unit: &str) -> bool {
    let Some(without_period) = unit.strip_suffix('.') else {
        return false;
    };
    let word = without_period.rsplit(|character: char| character.is_whitespace()).next().unwrap_or("");
    let word = word.trim_start_matches(|character: char| !character.is_alphanumeric());
    let mut characters = word.chars();
    // "I" is a word far more often than an initial ("So do I. Then ...").
    let single_capital =
        matches!((characters.next(), characters.next()), (Some(first), None) if first.is_uppercase() && first != 'I');
    single_capital || ABBREVIATIONS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(text: &str, mode: SplitSentences) -> Vec<&str> {
        split_sentences(text, mode)
            .into_iter()
            .filter_map(|piece| match piece {
                TextPiece::Unit(unit) => Some(unit),
                TextPiece::Separator(_) => None,
            })
            .collect()
    }

    fn joined(text: &str, mode: SplitSentences) -> String {
        split_sentences(text, mode).iter().map(TextPiece::as_str).collect()
    }

    #[test]
    fn on_splits_at_sentence_ends_and_newlines() {
        let text = "Hello world. How are you?\nFine thanks\n\nBye!";
        assert_eq!(units(text, SplitSentences::On), ["Hello world.", "How are you?", "Fine thanks", "Bye!"]);
    }

    #[test]
    fn nonewlines_keeps_newlines_inside_sentences() {
        let text = "A sentence that\ncontinues here. Next one\r\nalso continues.\nLast";
        assert_eq!(
            units(text, SplitSentences::NoNewlines),
            ["A sentence that\ncontinues here.", "Next one\r\nalso continues.", "Last"]
        );
    }

    #[test]
    fn off_keeps_the_whole_text_as_one_unit_without_its_outer_whitespace() {
        let text = "  One. Two.\nThree  \n";
        assert_eq!(
            split_sentences(text, SplitSentences::Off),
            [TextPiece::Separator("  "), TextPiece::Unit("One. Two.\nThree"), TextPiece::Separator("  \n")]
        );
    }

    #[test]
    fn pieces_concatenate_to_the_input_in_every_mode() {
        let samples = ["", "   ", "\n", "One. Two!  Three?\n\n Four… five", " x ", "日本語です。次の文。", "a\r\nb"];
        for text in samples {
            for mode in [SplitSentences::Off, SplitSentences::On, SplitSentences::NoNewlines] {
                assert_eq!(joined(text, mode), text, "{text:?} with {mode}");
            }
        }
    }

    #[test]
    fn empty_and_blank_texts_have_no_unit() {
        for mode in [SplitSentences::Off, SplitSentences::On, SplitSentences::NoNewlines] {
            assert!(split_sentences("", mode).is_empty());
            assert_eq!(split_sentences(" \n\t", mode), [TextPiece::Separator(" \n\t")]);
        }
    }

    #[test]
    fn separators_hold_the_whitespace_between_units() {
        assert_eq!(
            split_sentences("One.  Two.\n", SplitSentences::On),
            [TextPiece::Unit("One."), TextPiece::Separator("  "), TextPiece::Unit("Two."), TextPiece::Separator("\n")]
        );
    }

    #[test]
    fn title_abbreviations_and_initials_do_not_end_a_sentence() {
        assert_eq!(
            units("Dr. Smith met Mr. J. Doe today. He was late.", SplitSentences::On),
            ["Dr. Smith met Mr. J. Doe today.", "He was late."]
        );
    }

    #[test]
    fn the_pronoun_i_ends_a_sentence() {
        assert_eq!(units("So do I. Then we left.", SplitSentences::On), ["So do I.", "Then we left."]);
    }

    #[test]
    fn unknown_abbreviations_before_a_capital_still_split() {
        // Documented limitation: only the short list above is known.
        assert_eq!(units("It costs approx. Ten euros.", SplitSentences::On), ["It costs approx.", "Ten euros."]);
    }

    #[test]
    fn an_abbreviation_at_the_end_of_a_line_still_splits_with_newline_splitting() {
        assert_eq!(units("Ask Dr.\nSmith", SplitSentences::On), ["Ask Dr.", "Smith"]);
        assert_eq!(units("Ask Dr.\nSmith", SplitSentences::NoNewlines), ["Ask Dr.\nSmith"]);
    }

    #[test]
    fn lowercase_after_a_period_does_not_split() {
        assert_eq!(units("See p. 5 and the etc. part.", SplitSentences::On), ["See p. 5 and the etc. part."]);
    }

    #[test]
    fn full_width_sentence_ends_split() {
        assert_eq!(units("今日は晴れです。明日は雨です！", SplitSentences::On), ["今日は晴れです。", "明日は雨です！"]);
    }

    #[test]
    fn wire_spellings_parse_and_print() {
        for mode in [SplitSentences::Off, SplitSentences::On, SplitSentences::NoNewlines] {
            assert_eq!(mode.as_str().parse::<SplitSentences>(), Ok(mode));
        }
        assert_eq!("2".parse::<SplitSentences>(), Err(UnknownSplitSentences));
        assert_eq!(SplitSentences::default(), SplitSentences::On);
        assert_eq!(SplitSentences::default_for(Some(TagHandling::Html)), SplitSentences::NoNewlines);
        assert_eq!(SplitSentences::default_for(Some(TagHandling::Xml)), SplitSentences::On);
        assert_eq!(SplitSentences::default_for(None), SplitSentences::On);
    }

    #[test]
    fn serde_reads_the_wire_spellings() {
        use serde::de::IntoDeserializer;
        use serde::de::value::{Error, StrDeserializer};
        let read = |value: &str| SplitSentences::deserialize::<StrDeserializer<'_, Error>>(value.into_deserializer());
        assert_eq!(read("0"), Ok(SplitSentences::Off));
        assert_eq!(read("1"), Ok(SplitSentences::On));
        assert_eq!(read("nonewlines"), Ok(SplitSentences::NoNewlines));
        assert!(read("true").is_err());
    }
}
