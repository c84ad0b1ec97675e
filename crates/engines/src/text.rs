//! Text helpers the engines share: finding the placeholders the caller put in a text, finding
//! glossary terms, and word boundaries.
//!
//! A placeholder is exactly `<gN>`, `</gN>` or `<xN/>` with decimal `N`; anything else that looks
//! like markup is ordinary text. Glossary terms match whole words only, outside placeholders,
//! with exactly the glossary's spelling or with only the first letter capitalised (a term at the
//! start of a sentence); in the latter case the target term is capitalised too.

use std::collections::HashMap;

/// One piece of a text, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment<'t> {
    /// Text with neither placeholders nor glossary terms.
    Plain(&'t str),
    /// A placeholder, verbatim.
    Placeholder(&'t str),
    /// An occurrence of the glossary entry at `entry`; `capitalised` when the text capitalised
    /// the first letter of a lower-case term.
    Term { entry: usize, capitalised: bool },
}

/// The length in bytes of the placeholder at the start of `text`, if one starts there.
pub(crate) fn placeholder_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (digits_from, closing): (usize, &[u8]) = match bytes {
        [b'<', b'/', b'g', ..] => (3, b">"),
        [b'<', b'g', ..] => (2, b">"),
        [b'<', b'x', ..] => (2, b"/>"),
        _ => return None,
    };
    let digits = bytes[digits_from..].iter().take_while(|byte| byte.is_ascii_digit()).count();
    let end = digits_from + digits;
    (digits > 0 && bytes[end..].starts_with(closing)).then_some(end + closing.len())
}

/// Splits a text into plain runs and placeholders.
pub(crate) fn split_placeholders(text: &str) -> Vec<Segment<'_>> {
    let mut segments = Vec::new();
    let mut plain_from = 0;
    let mut index = 0;
    while let Some(offset) = text[index..].find('<') {
        let at = index + offset;
        match placeholder_len(&text[at..]) {
            Some(len) => {
                if plain_from < at {
                    segments.push(Segment::Plain(&text[plain_from..at]));
                }
                segments.push(Segment::Placeholder(&text[at..at + len]));
                plain_from = at + len;
                index = plain_from;
            }
            None => index = at + 1,
        }
    }
    if plain_from < text.len() {
        segments.push(Segment::Plain(&text[plain_from..]));
    }
    segments
}

/// A glossary prepared for matching: entries grouped by the lower-case first character of their
/// source term, longest term first, so a text is scanned once whatever the glossary's size.
pub(crate) struct GlossaryMatcher<'g> {
    glossary: &'g [(String, String)],
    by_first_char: HashMap<char, Vec<usize>>,
}

impl<'g> GlossaryMatcher<'g> {
    pub(crate) fn new(glossary: &'g [(String, String)]) -> Self {
        let mut by_first_char: HashMap<char, Vec<usize>> = HashMap::new();
        for (entry, (source, _)) in glossary.iter().enumerate() {
            if let Some(first) = source.chars().next() {
                by_first_char.entry(lower(first)).or_default().push(entry);
            }
        }
        for entries in by_first_char.values_mut() {
            // Longest first, then the glossary's order, so the choice is deterministic.
            entries.sort_by_key(|&entry| (std::cmp::Reverse(glossary[entry].0.len()), entry));
        }
        GlossaryMatcher { glossary, by_first_char }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.by_first_char.is_empty()
    }

    /// The target term for an occurrence, capitalised like the occurrence.
    pub(crate) fn target(&self, entry: usize, capitalised: bool) -> String {
        let target = &self.glossary[entry].1;
        if capitalised { capitalise(target) } else { target.clone() }
    }

    /// Splits a text into plain runs, placeholders and glossary terms.
    pub(crate) fn segments<'t>(&self, text: &'t str) -> Vec<Segment<'t>> {
        let pieces = split_placeholders(text);
        if self.is_empty() {
            return pieces;
        }
        let mut segments = Vec::with_capacity(pieces.len());
        for piece in pieces {
            match piece {
                Segment::Plain(plain) => self.find_terms(plain, &mut segments),
                other => segments.push(other),
            }
        }
        segments
    }

    fn find_terms<'t>(&self, text: &'t str, segments: &mut Vec<Segment<'t>>) {
        let mut plain_from = 0;
        let mut at = 0;
        let mut previous: Option<char> = None;
        while let Some(current) = text[at..].chars().next() {
            if starts_word(previous, current)
                && let Some((entry, len, capitalised)) = self.match_at(&text[at..])
            {
                if plain_from < at {
                    segments.push(Segment::Plain(&text[plain_from..at]));
                }
                segments.push(Segment::Term { entry, capitalised });
                at += len;
                plain_from = at;
                previous = text[..at].chars().next_back();
                continue;
            }
            previous = Some(current);
            at += current.len_utf8();
        }
        if plain_from < text.len() {
            segments.push(Segment::Plain(&text[plain_from..]));
        }
    }

    /// The longest entry matching at the start of `rest`, as (entry, byte length, capitalised).
    fn match_at(&self, rest: &str) -> Option<(usize, usize, bool)> {
        let first = rest.chars().next()?;
        let candidates = self.by_first_char.get(&lower(first))?;
        candidates.iter().find_map(|&entry| {
            let term = self.glossary[entry].0.as_str();
            let (len, capitalised) =
                if rest.starts_with(term) { (term.len(), false) } else { (capitalised_match_len(rest, term)?, true) };
            let last = term.chars().next_back()?;
            ends_word(last, rest[len..].chars().next()).then_some((entry, len, capitalised))
        })
    }
}

/// The byte length of `term` at the start of `rest` when `rest` spells it with its lower-case
/// first letter upper-cased and the rest exactly.
fn capitalised_match_len(rest: &str, term: &str) -> Option<usize> {
    let mut term_chars = term.chars();
    let first = term_chars.next()?;
    let mut rest_chars = rest.chars();
    let rest_first = rest_chars.next()?;
    let capitalised = first.is_lowercase() && rest_first.is_uppercase() && lower(rest_first) == first;
    (capitalised && rest_chars.as_str().starts_with(term_chars.as_str()))
        .then(|| rest_first.len_utf8() + term_chars.as_str().len())
}

/// Whether a word may start at `current` after `previous`.
pub(crate) fn starts_word(previous: Option<char>, current: char) -> bool {
    match previous {
        None => true,
        Some(previous) => !is_word_char(previous) || is_unspaced(previous) || is_unspaced(current),
    }
}

/// Whether a word may end at `last` before `next`.
pub(crate) fn ends_word(last: char, next: Option<char>) -> bool {
    match next {
        None => true,
        Some(next) => !is_word_char(next) || is_unspaced(next) || is_unspaced(last),
    }
}

pub(crate) fn is_word_char(character: char) -> bool {
    character.is_alphanumeric()
}

/// Characters of scripts written without spaces between words, where a term may start or end
/// next to any other character.
fn is_unspaced(character: char) -> bool {
    matches!(character as u32,
        0x0E00..=0x0EFF      // Thai, Lao
        | 0x1000..=0x109F    // Myanmar
        | 0x1780..=0x17FF    // Khmer
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x31F0..=0x31FF    // Katakana extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9F    // half-width Katakana
        | 0x20000..=0x3FFFF) // CJK extensions B and later
}

fn lower(character: char) -> char {
    character.to_lowercase().next().unwrap_or(character)
}

/// The text with its first character upper-cased.
pub(crate) fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Splits a text into its leading whitespace, its body and its trailing whitespace.
pub(crate) fn split_outer_whitespace(text: &str) -> (&str, &str, &str) {
    let body_start = text.len() - text.trim_start().len();
    let body_end = text.trim_end().len().max(body_start);
    (&text[..body_start], &text[body_start..body_end], &text[body_end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glossary(entries: &[(&str, &str)]) -> Vec<(String, String)> {
        entries.iter().map(|(source, target)| (source.to_string(), target.to_string())).collect()
    }

    #[test]
    fn placeholders_are_recognised_only_when_well_formed() {
        assert_eq!(placeholder_len("<g1>x"), Some(4));
        assert_eq!(placeholder_len("</g12>"), Some(6));
        assert_eq!(placeholder_len("<x3/>"), Some(5));
        assert_eq!(placeholder_len("<g>"), None);
        assert_eq!(placeholder_len("<x3>"), None);
        assert_eq!(placeholder_len("<b>"), None);
        assert_eq!(placeholder_len("< g1>"), None);
    }

    #[test]
    fn texts_split_around_placeholders() {
        assert_eq!(
            split_placeholders("a <g1>b</g1><x2/> 1 < 2"),
            [
                Segment::Plain("a "),
                Segment::Placeholder("<g1>"),
                Segment::Plain("b"),
                Segment::Placeholder("</g1>"),
                Segment::Placeholder("<x2/>"),
                Segment::Plain(" 1 < 2"),
            ]
        );
        assert_eq!(split_placeholders(""), []);
    }

    #[test]
    fn glossary_terms_match_whole_words_and_prefer_the_longest() {
        let entries = glossary(&[("house", "Haus"), ("red house", "Rothaus"), ("use", "Nutzen")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("The red house, a house; houses use"),
            [
                Segment::Plain("The "),
                Segment::Term { entry: 1, capitalised: false },
                Segment::Plain(", a "),
                Segment::Term { entry: 0, capitalised: false },
                Segment::Plain("; houses "),
                Segment::Term { entry: 2, capitalised: false },
            ]
        );
    }

    #[test]
    fn glossary_terms_match_capitalised_at_a_sentence_start() {
        let entries = glossary(&[("house", "casa")]);
        let matcher = GlossaryMatcher::new(&entries);
        let segments = matcher.segments("House. HOUSE");
        assert_eq!(segments, [Segment::Term { entry: 0, capitalised: true }, Segment::Plain(". HOUSE")]);
        assert_eq!(matcher.target(0, true), "Casa");
    }

    #[test]
    fn glossary_terms_are_not_searched_inside_placeholders() {
        let entries = glossary(&[("g1", "zz"), ("x", "y")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("<g1>x</g1>"),
            [
                Segment::Placeholder("<g1>"),
                Segment::Term { entry: 1, capitalised: false },
                Segment::Placeholder("</g1>"),
            ]
        );
    }

    #[test]
    fn glossary_terms_in_unspaced_scripts_match_inside_runs() {
        let entries = glossary(&[("東京", "Tokyo")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("私は東京に"),
            [Segment::Plain("私は"), Segment::Term { entry: 0, capitalised: false }, Segment::Plain("に")]
        );
    }

    #[test]
    fn outer_whitespace_is_split_off() {
        assert_eq!(split_outer_whitespace("  a b \n"), ("  ", "a b", " \n"));
        assert_eq!(split_outer_whitespace("   "), ("   ", "", ""));
        assert_eq!(split_outer_whitespace("x"), ("", "x", ""));
    }
}
