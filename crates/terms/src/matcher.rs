//! The glossary matcher: finds a glossary's source terms in a text in one pass.

use std::cmp::Reverse;
use std::collections::HashMap;

use crate::keys::{first_key, push_key};
use crate::placeholder::{Segment, split_placeholders};
use crate::words::{SentenceStart, capitalise, ends_word, lower, starts_word};

/// A glossary prepared for matching.
///
/// Entries are filed by their [`first_key`] and by their lower-cased source term, so a text is
/// scanned once whatever the glossary's size: at each place a term may start, the text's key
/// gives the lengths of the terms filed under it, and one lookup per length finds the entries
/// spelled like the text there. The matching rules are in the [crate documentation](crate).
#[derive(Debug, Clone)]
pub struct GlossaryMatcher<'g> {
    glossary: &'g [(String, String)],
    /// The distinct lengths in characters of the source terms filed under each key, longest first.
    lengths_by_key: HashMap<String, Vec<usize>>,
    /// The entries by lower-cased source term, each list in the glossary's order.
    entries_by_term: HashMap<String, Vec<usize>>,
}

impl<'g> GlossaryMatcher<'g> {
    /// Prepares a glossary of (source term, target term) pairs; entries are referred to by their
    /// index in `glossary`.
    pub fn new(glossary: &'g [(String, String)]) -> Self {
        let mut lengths_by_key: HashMap<String, Vec<usize>> = HashMap::new();
        let mut entries_by_term: HashMap<String, Vec<usize>> = HashMap::new();
        for (entry, (source, _)) in glossary.iter().enumerate() {
            // An empty term would match everywhere, and matches never start at whitespace.
            if source.is_empty() || source.starts_with(char::is_whitespace) {
                continue;
            }
            let lengths = lengths_by_key.entry(first_key(source)).or_default();
            let length = source.chars().count();
            if !lengths.contains(&length) {
                lengths.push(length);
            }
            entries_by_term.entry(source.chars().map(lower).collect()).or_default().push(entry);
        }
        for lengths in lengths_by_key.values_mut() {
            lengths.sort_unstable_by(|left, right| right.cmp(left));
        }
        GlossaryMatcher { glossary, lengths_by_key, entries_by_term }
    }

    /// Whether no entry can ever match (the glossary is empty, or has only empty source terms).
    pub fn is_empty(&self) -> bool {
        self.entries_by_term.is_empty()
    }

    /// The target term of `entry` for an occurrence: as the glossary defines it, or with its
    /// first character upper-cased when the occurrence is `capitalised`.
    ///
    /// # Panics
    ///
    /// When `entry` is not an index of the glossary.
    pub fn target(&self, entry: usize, capitalised: bool) -> String {
        let target = &self.glossary[entry].1;
        if capitalised { capitalise(target) } else { target.clone() }
    }

    /// Splits a text into plain runs, placeholders and glossary terms, in order; the plain runs
    /// and placeholders put together with the terms' source occurrences give the text back.
    pub fn segments<'t>(&self, text: &'t str) -> Vec<Segment<'t>> {
        let pieces = split_placeholders(text);
        if self.is_empty() {
            return pieces;
        }
        let mut scan = Scan::default();
        for piece in pieces {
            match piece {
                Segment::Plain(plain) => self.find_terms(plain, &mut scan),
                other => scan.segments.push(other),
            }
        }
        scan.segments
    }

    /// The target terms a translation of `source_text` must contain: one per occurrence of a
    /// source term, in order, capitalised as [`GlossaryMatcher::target`] says. Check an output
    /// with [`contains_terms`](crate::contains_terms).
    pub fn expected_terms(&self, source_text: &str) -> Vec<String> {
        self.segments(source_text)
            .into_iter()
            .filter_map(|segment| match segment {
                Segment::Term { entry, capitalised } => Some(self.target(entry, capitalised)),
                _ => None,
            })
            .collect()
    }

    /// Finds the terms of a run without placeholders.
    fn find_terms<'t>(&self, text: &'t str, scan: &mut Scan<'t>) {
        let mut plain_from = 0;
        let mut at = 0;
        // A word may start at the beginning of the run: a placeholder separates words.
        let mut previous: Option<char> = None;
        while let Some(current) = text[at..].chars().next() {
            if !current.is_whitespace()
                && starts_word(previous, current)
                && let Some((entry, len)) = self.match_at(&text[at..], scan)
            {
                if plain_from < at {
                    scan.segments.push(Segment::Plain(&text[plain_from..at]));
                }
                let occurrence = &text[at..at + len];
                let capitalised = scan.sentence.here()
                    && occurrence.starts_with(char::is_uppercase)
                    && self.glossary[entry].1.starts_with(char::is_lowercase);
                scan.segments.push(Segment::Term { entry, capitalised });
                occurrence.chars().for_each(|character| scan.sentence.feed(character));
                at += len;
                plain_from = at;
                previous = occurrence.chars().next_back();
                continue;
            }
            scan.sentence.feed(current);
            previous = Some(current);
            at += current.len_utf8();
        }
        if plain_from < text.len() {
            scan.segments.push(Segment::Plain(&text[plain_from..]));
        }
    }

    /// The best entry matching at the start of `rest`, as (entry, byte length in `rest`): the
    /// longest, then an exact-case one, then the first in the glossary.
    fn match_at(&self, rest: &str, scan: &mut Scan<'_>) -> Option<(usize, usize)> {
        scan.key.clear();
        push_key(rest, &mut scan.key);
        let lengths = self.lengths_by_key.get(scan.key.as_str())?;
        let longest = *lengths.first()?;
        // `rest` lower-cased up to the longest term, and where each character ends in both.
        scan.lowered.clear();
        scan.ends.clear();
        for (at, character) in rest.char_indices().take(longest) {
            scan.lowered.push(lower(character));
            scan.ends.push(End { text: at + character.len_utf8(), lowered: scan.lowered.len(), last: character });
        }
        let mut best: Option<(usize, bool, usize)> = None;
        for &length in lengths {
            let Some(&End { text: len, lowered, last }) = scan.ends.get(length - 1) else { continue };
            if !ends_word(last, rest[len..].chars().next()) {
                continue;
            }
            let Some(entries) = self.entries_by_term.get(&scan.lowered[..lowered]) else { continue };
            let occurrence = &rest[..len];
            let (entry, exact) = match entries.iter().find(|&&entry| self.glossary[entry].0 == occurrence) {
                Some(&entry) => (entry, true),
                None => (entries[0], false),
            };
            let better = match best {
                None => true,
                Some((best_len, best_exact, best_entry)) => {
                    (len, exact, Reverse(entry)) > (best_len, best_exact, Reverse(best_entry))
                }
            };
            if better {
                best = Some((len, exact, entry));
            }
        }
        best.map(|(len, _, entry)| (entry, len))
    }
}

/// The state of one [`GlossaryMatcher::segments`] call, carried across placeholders, and scratch
/// space reused at every place a term may start.
#[derive(Default)]
struct Scan<'t> {
    sentence: SentenceStart,
    key: String,
    lowered: String,
    ends: Vec<End>,
    segments: Vec<Segment<'t>>,
}

/// Where one character of a text ends, in the text and in its lower-cased copy.
#[derive(Clone, Copy)]
struct End {
    text: usize,
    lowered: usize,
    last: char,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glossary(entries: &[(&str, &str)]) -> Vec<(String, String)> {
        entries.iter().map(|(source, target)| (source.to_string(), target.to_string())).collect()
    }

    fn term(entry: usize, capitalised: bool) -> Segment<'static> {
        Segment::Term { entry, capitalised }
    }

    #[test]
    fn terms_match_whole_words_and_prefer_the_longest() {
        let entries = glossary(&[("house", "Haus"), ("red house", "Rothaus"), ("use", "Nutzen")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("The red house, a house; houses use"),
            [
                Segment::Plain("The "),
                term(1, false),
                Segment::Plain(", a "),
                term(0, false),
                Segment::Plain("; houses "),
                term(2, false),
            ]
        );
    }

    #[test]
    fn terms_match_in_any_case() {
        let entries = glossary(&[("house", "casa"), ("Glossa", "Glosa"), ("NASA", "NASA")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("my HOUSE, glossa and Nasa"),
            [
                Segment::Plain("my "),
                term(0, false),
                Segment::Plain(", "),
                term(1, false),
                Segment::Plain(" and "),
                term(2, false),
            ]
        );
        // Case-insensitive means character by character with the simple lower-case mapping.
        let entries = glossary(&[("istanbul", "İstanbul"), ("kelvin", "Kelvin")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(matcher.segments("İSTANBUL \u{212A}elvin"), [term(0, false), Segment::Plain(" "), term(1, false)]);
        assert_eq!(matcher.segments("Istanbu"), [Segment::Plain("Istanbu")]);
    }

    #[test]
    fn an_exact_match_beats_a_case_insensitive_one_of_the_same_length() {
        let entries = glossary(&[("apple", "manzana"), ("Apple", "Apple"), ("APPLE", "APPLE")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("Apple apple APPLE aPPle"),
            [
                term(1, false),
                Segment::Plain(" "),
                term(0, false),
                Segment::Plain(" "),
                term(2, false),
                Segment::Plain(" "),
                term(0, false),
            ]
        );
        // The first in the glossary wins among equals.
        let entries = glossary(&[("bank", "banco"), ("bank", "orilla"), ("Bank", "Banco"), ("BANK", "BANCO")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(matcher.segments("bank"), [term(0, false)]);
        assert_eq!(matcher.segments("a BAnk"), [Segment::Plain("a "), term(0, false)]);
    }

    #[test]
    fn a_longer_case_insensitive_match_beats_a_shorter_exact_one() {
        let entries = glossary(&[("Red", "Rojo"), ("red house", "casa roja")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(matcher.segments("Red House"), [term(1, true)]);
        assert_eq!(matcher.segments("Red Houses"), [term(0, false), Segment::Plain(" Houses")]);
    }

    #[test]
    fn lower_case_targets_are_capitalised_at_sentence_starts_only() {
        let entries = glossary(&[("house", "casa"), ("Glossa", "glosa"), ("tokyo", "東京"), ("apple", "Manzana")]);
        let matcher = GlossaryMatcher::new(&entries);
        let capitalised = |text: &str| -> Vec<bool> {
            matcher
                .segments(text)
                .into_iter()
                .filter_map(|segment| match segment {
                    Segment::Term { capitalised, .. } => Some(capitalised),
                    _ => None,
                })
                .collect()
        };
        // At the start of the text, after a sentence end, with quotes, brackets and
        // placeholders in between.
        assert_eq!(capitalised("House. House! House? House… House"), [true, true, true, true, true]);
        assert_eq!(capitalised("<g1>«House»</g1>. (House.) ¿House? \"House\""), [true, true, true, true]);
        assert_eq!(capitalised("終わり。House"), [true]);
        // Not in the middle of a sentence, whatever the occurrence's case.
        assert_eq!(capitalised("a House, HOUSE; house: (House"), [false, false, false, false]);
        // Not when the occurrence starts lower-case.
        assert_eq!(capitalised("house. house"), [false, false]);
        // Not when the target does not start lower-case.
        assert_eq!(capitalised("Tokyo. Apple"), [false, false]);
        // The source term's case does not matter, only the occurrence's and the target's.
        assert_eq!(capitalised("Glossa rocks. My Glossa"), [true, false]);
        assert_eq!(matcher.target(1, true), "Glosa");
        assert_eq!(matcher.target(1, false), "glosa");
    }

    #[test]
    fn a_term_ending_a_sentence_starts_the_next_one() {
        let entries = glossary(&[("etc.", "etc."), ("house", "casa")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(matcher.segments("etc. House"), [term(0, false), Segment::Plain(" "), term(1, true)]);
    }

    #[test]
    fn terms_are_not_searched_inside_placeholders() {
        let entries = glossary(&[("g1", "zz"), ("x", "y")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("<g1>x</g1>"),
            [Segment::Placeholder("<g1>"), term(1, false), Segment::Placeholder("</g1>")]
        );
        // A placeholder separates words, and a term never spans one.
        let entries = glossary(&[("house", "casa"), ("red house", "casa roja")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("red <g1>house</g1>big<x2/>house"),
            [
                Segment::Plain("red "),
                Segment::Placeholder("<g1>"),
                term(0, false),
                Segment::Placeholder("</g1>"),
                Segment::Plain("big"),
                Segment::Placeholder("<x2/>"),
                term(0, false),
            ]
        );
    }

    #[test]
    fn terms_in_unspaced_scripts_match_inside_runs() {
        let entries = glossary(&[("東京", "Tokyo")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(matcher.segments("私は東京に"), [Segment::Plain("私は"), term(0, false), Segment::Plain("に")]);
    }

    #[test]
    fn terms_led_by_punctuation_match() {
        let entries = glossary(&[("C++", "C++"), ("c", "C"), (".NET", ".NET"), ("++x", "preincrement")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("c++ and c, .net; ++x"),
            [
                term(0, false),
                Segment::Plain(" and "),
                term(1, false),
                Segment::Plain(", "),
                term(2, false),
                Segment::Plain("; "),
                term(3, false),
            ]
        );
    }

    #[test]
    fn empty_and_space_led_terms_never_match() {
        let entries = glossary(&[("", "nothing"), (" house", "casa")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert!(matcher.is_empty());
        assert_eq!(matcher.segments("a house"), [Segment::Plain("a house")]);
        assert!(GlossaryMatcher::new(&[]).is_empty());
    }

    #[test]
    fn expected_terms_follow_the_occurrences() {
        let entries = glossary(&[("house", "casa"), ("red house", "casa roja"), ("Glossa", "Glossa")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.expected_terms("House of Glossa. A red house, a <g1>HOUSE</g1>."),
            ["Casa", "Glossa", "casa roja", "casa"]
        );
        assert!(matcher.expected_terms("<g1>nothing</g1>").is_empty());
    }

    #[test]
    fn large_glossaries_match_in_one_pass() {
        // 100,000 entries, 10,000 of them under the key `the`: a word start costs one lookup per
        // distinct term length under its key, not one comparison per entry.
        let entries: Vec<(String, String)> = (0..100_000)
            .map(|index| {
                let source = if index % 10 == 0 { format!("the term{index}") } else { format!("word{index}") };
                (source, format!("target{index}"))
            })
            .collect();
        let matcher = GlossaryMatcher::new(&entries);
        let text = "the word42 and word99999, then the term500. ".repeat(200);
        let expected = matcher.expected_terms(&text);
        assert_eq!(expected.len(), 600);
        assert_eq!(&expected[..3], ["target42", "target99999", "target500"]);
    }
}
