//! Checking that a translation kept the glossary's target terms.

use std::cmp::Reverse;

use crate::words::same_ignoring_case;

/// Whether `output` contains every term of `expected` at least as many times as it is listed
/// (see [`GlossaryMatcher::expected_terms`](crate::GlossaryMatcher::expected_terms)).
///
/// Occurrences are counted without overlaps, longer terms first, so an occurrence of `casa roja`
/// does not also count for an expected `casa`. An occurrence whose first character differs only
/// in case counts (an engine may capitalise a term at a sentence start, or lower-case one we
/// capitalised); whole words are not required (a language may inflect or join words). An empty
/// term is always there.
///
/// ```
/// use terms::contains_terms;
///
/// let expected = ["casa".to_owned(), "casa roja".to_owned()];
/// assert!(contains_terms("Casa grande, casa roja.", &expected));
/// assert!(!contains_terms("Una casa roja.", &expected));
/// ```
pub fn contains_terms(output: &str, expected: &[String]) -> bool {
    // The distinct terms (equal up to their first character's case) and how often each is expected.
    let mut wanted: Vec<(&str, usize)> = Vec::new();
    for term in expected.iter().filter(|term| !term.is_empty()) {
        match wanted.iter_mut().find(|(other, _)| same_but_first_case(other, term)) {
            Some((_, count)) => *count += 1,
            None => wanted.push((term, 1)),
        }
    }
    wanted.sort_by_key(|(term, _)| Reverse(term.len()));
    let mut claimed = vec![false; output.len()];
    wanted.into_iter().all(|(term, count)| claim(output, term, count, &mut claimed))
}

/// Marks `count` unclaimed occurrences of `term` in `output` as claimed; false when there are
/// fewer.
fn claim(output: &str, term: &str, count: usize, claimed: &mut [bool]) -> bool {
    let mut found = 0;
    let mut at = 0;
    while found < count
        && let Some(current) = output[at..].chars().next()
    {
        if let Some(len) = occurrence_len(&output[at..], term)
            && !claimed[at..at + len].contains(&true)
        {
            claimed[at..at + len].fill(true);
            found += 1;
            at += len;
        } else {
            at += current.len_utf8();
        }
    }
    found == count
}

/// The byte length of the occurrence of `term` at the start of `text`, if one starts there
/// (its first character may differ in case).
fn occurrence_len(text: &str, term: &str) -> Option<usize> {
    let mut term_chars = term.chars();
    let term_first = term_chars.next()?;
    let mut text_chars = text.chars();
    let text_first = text_chars.next()?;
    (same_ignoring_case(text_first, term_first) && text_chars.as_str().starts_with(term_chars.as_str()))
        .then(|| text_first.len_utf8() + term_chars.as_str().len())
}

/// Whether two terms are equal but for their first character's case.
fn same_but_first_case(left: &str, right: &str) -> bool {
    let mut left_chars = left.chars();
    let mut right_chars = right.chars();
    match (left_chars.next(), right_chars.next()) {
        (Some(left_first), Some(right_first)) => {
            same_ignoring_case(left_first, right_first) && left_chars.as_str() == right_chars.as_str()
        }
        (None, None) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
