//! The glossary matcher: finds a glossary's source terms in a text in one pass.

use std::collections::HashMap;

use crate::automaton::Automaton;
use crate::placeholder::{Segment, split_placeholders};
use crate::words::{SentenceStart, capitalise, ends_word, lower, lower_text, starts_word};

/// A glossary prepared for matching.
///
/// The distinct lower-cased source terms make one Aho-Corasick automaton (leftmost-longest,
/// anchored searches). A text is lower-cased once; at each place a term may start, one anchored
/// search walks the automaton along the text for as long as some term may still match, and
/// finds the longest term there. So a text costs time linear in its length (times at most the
/// length of the longest term), whatever the glossary's size and however many terms it holds;
/// building the automaton costs time linear in the glossary's size. The matching rules are in
/// the [crate documentation](crate).
#[derive(Debug, Clone)]
pub struct GlossaryMatcher<'g> {
    glossary: &'g [(String, String)],
    /// The distinct lower-cased source terms; `None` when no entry can ever match.
    automaton: Option<Automaton>,
    /// The entries of every pattern of the automaton, each pattern's in the glossary's order:
    /// pattern `p`'s are `entries[starts[p]..starts[p + 1]]`.
    entries: Vec<usize>,
    starts: Vec<usize>,
}

impl<'g> GlossaryMatcher<'g> {
    /// Prepares a glossary of (source term, target term) pairs; entries are referred to by their
    /// index in `glossary`.
    ///
    /// # Panics
    ///
    /// When the source terms add up to gigabytes, far beyond what a glossary can hold (see
    /// `automaton.rs`).
    pub fn new(glossary: &'g [(String, String)]) -> Self {
        // Every entry that may match, with its lower-cased source term.
        let lowered: Vec<(usize, String)> = glossary
            .iter()
            .enumerate()
            // An empty term would match everywhere, and matches never start at whitespace.
            .filter(|(_, (source, _))| !source.is_empty() && !source.starts_with(char::is_whitespace))
            .map(|(entry, (source, _))| (entry, source.chars().map(lower).collect()))
            .collect();
        // The distinct lower-cased terms are the automaton's patterns; `filed` pairs every entry
        // with its pattern.
        let mut patterns: Vec<&str> = Vec::new();
        let mut pattern_of: HashMap<&str, usize> = HashMap::with_capacity(lowered.len());
        let mut filed: Vec<(usize, usize)> = Vec::with_capacity(lowered.len());
        for (entry, term) in &lowered {
            let pattern = *pattern_of.entry(term).or_insert_with(|| {
                patterns.push(term);
                patterns.len() - 1
            });
            filed.push((pattern, *entry));
        }
        // Each pattern's entries, in the glossary's order (a counting sort, which is stable).
        let mut starts = vec![0; patterns.len() + 1];
        for &(pattern, _) in &filed {
            starts[pattern + 1] += 1;
        }
        for pattern in 0..patterns.len() {
            starts[pattern + 1] += starts[pattern];
        }
        let mut next = starts.clone();
        let mut entries = vec![0; filed.len()];
        for (pattern, entry) in filed {
            entries[next[pattern]] = entry;
            next[pattern] += 1;
        }
        let automaton = (!patterns.is_empty()).then(|| Automaton::anchored_longest(&patterns));
        GlossaryMatcher { glossary, automaton, entries, starts }
    }

    /// Whether no entry can ever match (the glossary is empty, or has only empty source terms).
    pub fn is_empty(&self) -> bool {
        self.automaton.is_none()
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
        let Some(automaton) = &self.automaton else { return pieces };
        let mut scan = Scan::default();
        for piece in pieces {
            match piece {
                Segment::Plain(plain) => self.find_terms(automaton, plain, &mut scan),
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
    fn find_terms<'t>(&self, automaton: &Automaton, text: &'t str, scan: &mut Scan<'t>) {
        lower_text(text, &mut scan.lowered, &mut scan.original);
        let mut plain_from = 0;
        let mut at = 0;
        // Where `at` is in the lower-cased run.
        let mut lowered_at = 0;
        // A word may start at the beginning of the run: a placeholder separates words.
        let mut previous: Option<char> = None;
        while let Some(current) = text[at..].chars().next() {
            if !current.is_whitespace()
                && starts_word(previous, current)
                && let Some((pattern, lowered_end)) = self.match_at(automaton, &scan.lowered, lowered_at)
            {
                let end = scan.original[lowered_end];
                let occurrence = &text[at..end];
                let entry = self.best_entry(pattern, occurrence);
                if plain_from < at {
                    scan.segments.push(Segment::Plain(&text[plain_from..at]));
                }
                let capitalised = scan.sentence.here()
                    && occurrence.starts_with(char::is_uppercase)
                    && self.glossary[entry].1.starts_with(char::is_lowercase);
                scan.segments.push(Segment::Term { entry, capitalised });
                occurrence.chars().for_each(|character| scan.sentence.feed(character));
                (at, lowered_at) = (end, lowered_end);
                plain_from = at;
                previous = occurrence.chars().next_back();
                continue;
            }
            scan.sentence.feed(current);
            previous = Some(current);
            at += current.len_utf8();
            lowered_at += lower(current).len_utf8();
        }
        if plain_from < text.len() {
            scan.segments.push(Segment::Plain(&text[plain_from..]));
        }
    }

    /// The longest term that starts at `from` in the lower-cased run `lowered` and ends where a
    /// word may end, as (its pattern, where it ends in `lowered`).
    ///
    /// Word boundaries are judged on the lower-cased characters: lower-casing keeps every
    /// character's word class (see `words`).
    fn match_at(&self, automaton: &Automaton, lowered: &str, from: usize) -> Option<(usize, usize)> {
        let mut until = lowered.len();
        loop {
            let (pattern, end) = automaton.longest_at(lowered, from..until)?;
            let last = lowered[..end].chars().next_back()?;
            if ends_word(last, lowered[end..].chars().next()) {
                return Some((pattern, end));
            }
            // The longest term ending at the last place before `end` where a word may end, if any:
            // each retry searches a shorter span, at most once per word end inside the term.
            until = from + last_word_end(&lowered[from..end])?;
        }
    }

    /// The entry a pattern's occurrence stands for: the first spelled exactly as the occurrence,
    /// or else the first of the pattern in the glossary.
    fn best_entry(&self, pattern: usize, occurrence: &str) -> usize {
        let entries = &self.entries[self.starts[pattern]..self.starts[pattern + 1]];
        entries.iter().copied().find(|&entry| self.glossary[entry].0 == occurrence).unwrap_or(entries[0])
    }
}

/// The last place inside `span` (not its start or its end) where a word may end.
fn last_word_end(span: &str) -> Option<usize> {
    let mut next: Option<char> = None;
    for (at, character) in span.char_indices().rev() {
        if let Some(next) = next
            && ends_word(character, Some(next))
        {
            return Some(at + character.len_utf8());
        }
        next = Some(character);
    }
    None
}

/// The state of one [`GlossaryMatcher::segments`] call, carried across placeholders, and scratch
/// space reused for every run.
#[derive(Default)]
struct Scan<'t> {
    sentence: SentenceStart,
    /// The current run, lower-cased character by character.
    lowered: String,
    /// Where each character of `lowered` starts in the run (and the run's length at the end).
    original: Vec<usize>,
    segments: Vec<Segment<'t>>,
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;

    use super::*;
    use crate::test_support::random_cases;

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
    fn a_longest_term_that_does_not_end_a_word_gives_way_to_the_longest_that_does() {
        let entries = glossary(&[("a b c d", "1"), ("a b", "2"), ("a", "3"), ("a b c de", "4")]);
        let matcher = GlossaryMatcher::new(&entries);
        // `a b c d` runs on into `dx`, and no term ends at `a b c`: `a b` is the longest that fits.
        assert_eq!(matcher.segments("a b c dx"), [term(1, false), Segment::Plain(" c dx")]);
        assert_eq!(matcher.segments("a b c d."), [term(0, false), Segment::Plain(".")]);
        assert_eq!(matcher.segments("a b c def"), [term(1, false), Segment::Plain(" c def")]);
        assert_eq!(matcher.segments("a bc"), [term(2, false), Segment::Plain(" bc")]);
        assert_eq!(matcher.segments("ab"), [Segment::Plain("ab")]);
    }

    #[test]
    fn characters_whose_lower_case_is_shorter_keep_the_places_right() {
        // `İ` and the Kelvin sign lower-case to one byte: places in the text are not places in
        // its lower-cased copy.
        let entries = glossary(&[("house", "casa"), ("\u{212A}İ", "ki")]);
        let matcher = GlossaryMatcher::new(&entries);
        assert_eq!(
            matcher.segments("İİ\u{212A} house, \u{212A}İ kİ"),
            [
                Segment::Plain("İİ\u{212A} "),
                term(0, false),
                Segment::Plain(", "),
                term(1, false),
                Segment::Plain(" "),
                term(1, false),
            ]
        );
    }

    /// The matching rules applied the slow and obvious way: every entry tried at every place.
    fn reference_segments<'t>(entries: &[(String, String)], text: &'t str) -> Vec<Segment<'t>> {
        let mut out = Vec::new();
        let mut sentence = SentenceStart::default();
        for piece in split_placeholders(text) {
            let Segment::Plain(run) = piece else {
                out.push(piece);
                continue;
            };
            let (mut at, mut plain_from, mut previous) = (0, 0, None);
            while let Some(current) = run[at..].chars().next() {
                let mut best: Option<(usize, bool, Reverse<usize>)> = None;
                if !current.is_whitespace() && starts_word(previous, current) {
                    for (entry, (source, _)) in entries.iter().enumerate() {
                        if source.is_empty() || source.starts_with(char::is_whitespace) {
                            continue;
                        }
                        let mut len = 0;
                        let mut chars = run[at..].chars();
                        let same = source.chars().all(|wanted| {
                            chars.next().is_some_and(|found| {
                                len += found.len_utf8();
                                lower(found) == lower(wanted)
                            })
                        });
                        let last = run[..at + len].chars().next_back();
                        if same && last.is_some_and(|last| ends_word(last, run[at + len..].chars().next())) {
                            let candidate = (len, *source == run[at..at + len], Reverse(entry));
                            best = best.max(Some(candidate));
                        }
                    }
                }
                match best {
                    Some((len, _, Reverse(entry))) => {
                        if plain_from < at {
                            out.push(Segment::Plain(&run[plain_from..at]));
                        }
                        let occurrence = &run[at..at + len];
                        let capitalised = sentence.here()
                            && occurrence.starts_with(char::is_uppercase)
                            && entries[entry].1.starts_with(char::is_lowercase);
                        out.push(Segment::Term { entry, capitalised });
                        occurrence.chars().for_each(|character| sentence.feed(character));
                        previous = occurrence.chars().next_back();
                        at += len;
                        plain_from = at;
                    }
                    None => {
                        sentence.feed(current);
                        previous = Some(current);
                        at += current.len_utf8();
                    }
                }
            }
            if plain_from < run.len() {
                out.push(Segment::Plain(&run[plain_from..]));
            }
        }
        out
    }

    #[test]
    fn the_automaton_finds_what_trying_every_entry_everywhere_finds() {
        let mut found = 0;
        for (mut entries, text) in random_cases(0x9e37_79b9_7f4a_7c15) {
            // Some targets start lower-case, so that capitalisation is exercised too.
            for (index, (_, target)) in entries.iter_mut().enumerate() {
                if index % 2 == 0 {
                    *target = target.to_uppercase();
                }
            }
            let segments = GlossaryMatcher::new(&entries).segments(&text);
            assert_eq!(segments, reference_segments(&entries, &text), "{text:?} with {entries:?}");
            found += segments.iter().filter(|segment| matches!(segment, Segment::Term { .. })).count();
        }
        assert!(found > 1000, "only {found} terms found: the test checks too little");
    }

    #[test]
    fn a_text_with_fifteen_thousand_distinct_terms_finds_each_once() {
        // A 20,000-entry glossary and a text of 15,000 distinct terms (a scan per term would cost
        // the text's length times the terms found), with words between them and sentence ends.
        let entries: Vec<(String, String)> =
            (0..20_000).map(|index| (format!("Term{index}x"), format!("ziel{index}"))).collect();
        let matcher = GlossaryMatcher::new(&entries);
        let mut text = String::new();
        for index in 0..15_000 {
            text.push_str(if index % 10 == 0 { "Then term" } else { " and TERM" });
            text.push_str(&format!("{index}X{}", if index % 10 == 9 { "." } else { "" }));
        }
        let expected = matcher.expected_terms(&text);
        assert_eq!(expected.len(), 15_000);
        for (index, target) in expected.iter().enumerate() {
            assert_eq!(*target, format!("ziel{index}"), "no term starts a sentence");
        }
        let segments = matcher.segments(&text);
        // A plain run before each term, and the last sentence's full stop.
        assert_eq!(segments.len(), 30_001);
        assert_eq!(&segments[..2], [Segment::Plain("Then "), term(0, false)]);
        assert_eq!(segments.last(), Some(&Segment::Plain(".")));
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
