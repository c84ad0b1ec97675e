//! Checking that a translation kept the glossary's target terms.

use std::cmp::Reverse;
use std::collections::HashMap;

use crate::automaton::Automaton;
use crate::words::{lower, lower_text};

/// Whether `output` contains every term of `expected` at least as many times as it is listed
/// (see [`GlossaryMatcher::expected_terms`](crate::GlossaryMatcher::expected_terms)).
///
/// Occurrences are counted without overlaps, longer terms first, so an occurrence of `casa roja`
/// does not also count for an expected `casa`. An occurrence whose first character differs only
/// in case counts (an engine may capitalise a term at a sentence start, or lower-case one we
/// capitalised); whole words are not required (a language may inflect or join words). An empty
/// term is always there.
///
/// One automaton of the distinct terms finds all their occurrences in one pass over the output,
/// so the check costs time linear in the output, the expected terms and their occurrences.
///
/// ```
/// use terms::contains_terms;
///
/// let expected = ["casa".to_owned(), "casa roja".to_owned()];
/// assert!(contains_terms("Casa grande, casa roja.", &expected));
/// assert!(!contains_terms("Una casa roja.", &expected));
/// ```
///
/// # Panics
///
/// When the expected terms add up to gigabytes (see `automaton.rs`).
pub fn contains_terms(output: &str, expected: &[String]) -> bool {
    let wanted = Wanted::count(expected);
    if wanted.terms.is_empty() {
        return true;
    }
    // Every occurrence of every wanted term, as (its rank in claiming order, start, end).
    let mut occurrences = wanted.occurrences(output);
    occurrences.sort_unstable();
    // Longer terms claim first, terms of one length in the order they were first expected, each
    // its occurrences from the left; a claimed byte is never claimed again.
    let mut claimed = vec![false; output.len()];
    let mut occurrences = occurrences.into_iter().peekable();
    for rank in 0..wanted.terms.len() {
        let count = wanted.terms[wanted.by_rank[rank]].count;
        let mut found = 0;
        while let Some((_, start, end)) = occurrences.next_if(|&(of, _, _)| of == rank) {
            if found < count && !claimed[start..end].contains(&true) {
                claimed[start..end].fill(true);
                found += 1;
            }
        }
        if found < count {
            return false;
        }
    }
    true
}

/// The distinct expected terms, equal up to their first character's case, and how to find them.
struct Wanted<'e> {
    /// In the order they were first expected.
    terms: Vec<WantedTerm<'e>>,
    /// The terms' indexes, longest (in bytes) first, ties in the order they were first expected.
    by_rank: Vec<usize>,
    /// Each term's rank: the inverse of `by_rank`.
    rank: Vec<usize>,
    /// The distinct lower-cased terms, the automaton's patterns.
    patterns: Vec<String>,
    /// The first term of each pattern; the others follow through [`WantedTerm::next`].
    first_of_pattern: Vec<usize>,
}

struct WantedTerm<'e> {
    /// The term as first expected.
    term: &'e str,
    count: usize,
    /// The next term with the same pattern (terms that differ in case beyond their first
    /// character lower-case alike).
    next: Option<usize>,
}

impl<'e> Wanted<'e> {
    fn count(expected: &'e [String]) -> Wanted<'e> {
        let mut terms: Vec<WantedTerm<'e>> = Vec::new();
        let mut term_of: HashMap<(char, &str), usize> = HashMap::new();
        let mut patterns: Vec<String> = Vec::new();
        let mut pattern_of: HashMap<String, usize> = HashMap::new();
        let mut first_of_pattern: Vec<usize> = Vec::new();
        let mut last_of_pattern: Vec<usize> = Vec::new();
        for term in expected {
            let mut chars = term.chars();
            let Some(first) = chars.next() else { continue };
            let index = *term_of.entry((lower(first), chars.as_str())).or_insert(terms.len());
            if index < terms.len() {
                terms[index].count += 1;
                continue;
            }
            terms.push(WantedTerm { term, count: 1, next: None });
            let lowered: String = term.chars().map(lower).collect();
            match pattern_of.get(&lowered) {
                Some(&pattern) => {
                    terms[last_of_pattern[pattern]].next = Some(index);
                    last_of_pattern[pattern] = index;
                }
                None => {
                    pattern_of.insert(lowered.clone(), patterns.len());
                    patterns.push(lowered);
                    first_of_pattern.push(index);
                    last_of_pattern.push(index);
                }
            }
        }
        let mut by_rank: Vec<usize> = (0..terms.len()).collect();
        by_rank.sort_by_key(|&index| Reverse(terms[index].term.len()));
        let mut rank = vec![0; terms.len()];
        for (position, &index) in by_rank.iter().enumerate() {
            rank[index] = position;
        }
        Wanted { terms, by_rank, rank, patterns, first_of_pattern }
    }

    /// Every occurrence in `output` of every term, overlapping ones included, as (the term's
    /// rank, start, end) in bytes of `output`.
    fn occurrences(&self, output: &str) -> Vec<(usize, usize, usize)> {
        let automaton = Automaton::overlapping(&self.patterns);
        let (mut lowered, mut original) = (String::new(), Vec::new());
        lower_text(output, &mut lowered, &mut original);
        let mut occurrences = Vec::new();
        for (pattern, found) in automaton.all_in(&lowered) {
            // The text lower-cases as the pattern does; each term of the pattern must also match
            // exactly after its first character.
            let (start, end) = (original[found.start], original[found.end]);
            let mut chars = output[start..end].chars();
            chars.next();
            let rest = chars.as_str();
            let mut next = Some(self.first_of_pattern[pattern]);
            while let Some(index) = next {
                let term = &self.terms[index];
                if is_rest(term.term, rest) {
                    occurrences.push((self.rank[index], start, end));
                }
                next = term.next;
            }
        }
        occurrences
    }
}

/// Whether `rest` is `term` without its first character.
fn is_rest(term: &str, rest: &str) -> bool {
    let mut chars = term.chars();
    chars.next();
    chars.as_str() == rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{PIECES, XorShift};
    use crate::words::same_ignoring_case;

    fn terms(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| item.to_string()).collect()
    }

    #[test]
    fn every_expected_term_must_occur() {
        assert!(contains_terms("La casa es roja.", &terms(&["casa"])));
        assert!(!contains_terms("El hogar es rojo.", &terms(&["casa"])));
        assert!(contains_terms("Anything at all", &[]));
        assert!(contains_terms("", &terms(&[""])));
        assert!(!contains_terms("", &terms(&["casa"])));
    }

    #[test]
    fn terms_are_counted_per_occurrence() {
        let expected = terms(&["casa", "casa"]);
        assert!(contains_terms("casa y casa", &expected));
        assert!(!contains_terms("una casa", &expected));
        // More occurrences than expected are fine: the output may use the term elsewhere too.
        assert!(contains_terms("casa, casa, casa", &expected));
        // Occurrences do not overlap.
        assert!(!contains_terms("aaa", &terms(&["aa", "aa"])));
        assert!(contains_terms("aaaa", &terms(&["aa", "aa"])));
    }

    #[test]
    fn the_first_letter_may_differ_in_case() {
        assert!(contains_terms("Casa grande.", &terms(&["casa"])));
        assert!(contains_terms("Una casa.", &terms(&["Casa"])));
        assert!(contains_terms("Casa y casa", &terms(&["Casa", "casa"])));
        assert!(!contains_terms("Casa", &terms(&["Casa", "casa"])));
        assert!(contains_terms("État", &terms(&["état"])));
        // Only the first letter.
        assert!(!contains_terms("CASA", &terms(&["casa"])));
        assert!(!contains_terms("casa", &terms(&["cASA"])));
    }

    #[test]
    fn longer_terms_claim_their_occurrences_first() {
        let expected = terms(&["casa", "casa roja"]);
        assert!(!contains_terms("una casa roja", &expected));
        assert!(contains_terms("una casa roja y otra casa", &expected));
        // Whole words are not required.
        assert!(contains_terms("casas rojas", &terms(&["casa"])));
        assert!(contains_terms("東京に", &terms(&["東京"])));
    }

    /// The rules applied the slow and obvious way: each distinct term, longest first, scans the
    /// whole output for unclaimed occurrences.
    fn reference(output: &str, expected: &[String]) -> bool {
        let mut wanted: Vec<(&str, usize)> = Vec::new();
        for term in expected.iter().filter(|term| !term.is_empty()) {
            let same = |other: &str| {
                let (mut left, mut right) = (other.chars(), term.chars());
                same_ignoring_case(left.next().unwrap(), right.next().unwrap()) && left.as_str() == right.as_str()
            };
            match wanted.iter_mut().find(|(other, _)| same(other)) {
                Some((_, count)) => *count += 1,
                None => wanted.push((term, 1)),
            }
        }
        wanted.sort_by_key(|(term, _)| Reverse(term.len()));
        let mut claimed = vec![false; output.len()];
        wanted.into_iter().all(|(term, count)| {
            let (mut found, mut at) = (0, 0);
            while found < count
                && let Some(current) = output[at..].chars().next()
            {
                let mut term_chars = term.chars();
                let term_first = term_chars.next().unwrap();
                let mut text_chars = output[at..].chars();
                let text_first = text_chars.next().unwrap();
                let len = (same_ignoring_case(text_first, term_first)
                    && text_chars.as_str().starts_with(term_chars.as_str()))
                .then(|| text_first.len_utf8() + term_chars.as_str().len());
                match len {
                    Some(len) if !claimed[at..at + len].contains(&true) => {
                        claimed[at..at + len].fill(true);
                        found += 1;
                        at += len;
                    }
                    _ => at += current.len_utf8(),
                }
            }
            found == count
        })
    }

    #[test]
    fn one_pass_decides_as_scanning_for_each_term_does() {
        // Outputs and expected terms drawn from the same pieces, so that terms overlap, nest,
        // differ in case and occur several times; a fixed seed keeps the test reproducible.
        let mut random = XorShift(0x0123_4567_89ab_cdef);
        let mut outcomes = [0, 0];
        for _ in 0..3_000 {
            let pieces = random.pieces(PIECES, 40);
            let output = pieces.concat();
            let expected: Vec<String> = (0..1 + random.below(8))
                .map(|_| {
                    let from = random.below(pieces.len());
                    let to = (from + 1 + random.below(4)).min(pieces.len());
                    let term = pieces[from..to].concat();
                    match random.below(4) {
                        0 => term.to_uppercase(),
                        1 => crate::capitalise(&term),
                        2 => random.pieces(PIECES, 3).concat(),
                        _ => term,
                    }
                })
                .collect();
            let outcome = contains_terms(&output, &expected);
            assert_eq!(outcome, reference(&output, &expected), "{expected:?} in {output:?}");
            outcomes[usize::from(outcome)] += 1;
        }
        assert!(outcomes.iter().all(|&count| count > 300), "{outcomes:?}: the test checks too little");
    }

    #[test]
    fn fifteen_thousand_distinct_terms_are_checked_in_one_pass() {
        let expected: Vec<String> = (0..15_000).map(|index| format!("ziel{index}q")).collect();
        let output: String = expected.iter().rev().map(|term| format!("{term} xyz ")).collect();
        assert!(contains_terms(&output, &expected));
        // Each term once, and the same count twice is one too many.
        let mut twice = expected.clone();
        twice.push("ziel7q".into());
        assert!(!contains_terms(&output, &twice));
        let missing = output.replace("ziel14999q ", "");
        assert!(!contains_terms(&missing, &expected));
        // `ziel1q` never counts inside `ziel10q`: occurrences of longer terms are claimed first.
        let shorter = output.replace("ziel1q ", "");
        assert!(!contains_terms(&shorter, &expected));
    }

    #[test]
    fn characters_whose_lower_case_is_shorter_keep_the_places_right() {
        // `İ` and the Kelvin sign lower-case to one byte.
        assert!(contains_terms("İİ \u{212A}elvin, istanbul", &terms(&["kelvin", "İstanbul"])));
        assert!(!contains_terms("İİ \u{212A}ELVIN", &terms(&["kelvin"])));
        assert!(contains_terms("\u{212A}elvin kelvin", &terms(&["Kelvin", "kelvin"])));
        assert!(!contains_terms("\u{212A}elvin", &terms(&["Kelvin", "kelvin"])));
    }
}
