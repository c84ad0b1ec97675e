//! Aho-Corasick automata over many terms, built in time linear in the terms.
//!
//! The `aho-corasick` crate (1.1) finishes every build by moving the states where a pattern ends
//! to the front of its state table, through a sequence of swaps whose bookkeeping walks each
//! cycle of the resulting permutation once per state in it. When nearly every state ends a
//! pattern behind a few that do not (numbered families such as `term1` … `term20000`, where
//! every prefix past `term` is itself a term) the cycles are as long as the table divided by
//! those few states, and the build takes time quadratic in the terms: 20,000 such terms took
//! 0.8 s to build, 10 ms with the guard below.
//!
//! So every automaton here starts with a guard pattern: as many `0xFF` bytes as there are
//! terms. Its states come first and do not end a pattern (but its last), which keeps every
//! cycle short; and `0xFF` never occurs in UTF-8, so the guard never matches a `&str`. It costs
//! one state per term.

use std::iter;
use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Anchored, Input, MatchKind, StartKind};

/// An automaton over a list of terms (`patterns`), which names them by their index in the list.
#[derive(Debug, Clone)]
pub(crate) struct Automaton {
    inner: AhoCorasick,
}

impl Automaton {
    /// For [`Automaton::longest_at`]: anchored searches for the longest term.
    pub(crate) fn anchored_longest<P: AsRef<str>>(patterns: &[P]) -> Automaton {
        let mut builder = AhoCorasick::builder();
        builder
            .match_kind(MatchKind::LeftmostLongest)
            .start_kind(StartKind::Anchored)
            // Anchored searches never use a prefilter: building one would be wasted.
            .prefilter(false);
        Automaton::build(&builder, patterns)
    }

    /// For [`Automaton::all_in`]: every occurrence of every term, overlapping ones included.
    pub(crate) fn overlapping<P: AsRef<str>>(patterns: &[P]) -> Automaton {
        let mut builder = AhoCorasick::builder();
        builder.match_kind(MatchKind::Standard);
        Automaton::build(&builder, patterns)
    }

    /// # Panics
    ///
    /// When the automaton would need more than about 2^31 states: terms adding up to gigabytes,
    /// far more than a request or a glossary can hold.
    fn build<P: AsRef<str>>(builder: &AhoCorasickBuilder, patterns: &[P]) -> Automaton {
        let guard = vec![0xFF; patterns.len()];
        let patterns = iter::once(guard.as_slice()).chain(patterns.iter().map(|pattern| pattern.as_ref().as_bytes()));
        Automaton { inner: builder.build(patterns).expect("the terms fit in an automaton") }
    }

    /// The longest term that starts at `span.start` in `haystack` and ends within `span`, as (its
    /// index, where it ends). Only for automata built by [`Automaton::anchored_longest`].
    pub(crate) fn longest_at(&self, haystack: &str, span: Range<usize>) -> Option<(usize, usize)> {
        let found = self.inner.find(Input::new(haystack).range(span).anchored(Anchored::Yes))?;
        Some((found.pattern().as_usize() - 1, found.end()))
    }

    /// Every occurrence of every term in `haystack`, overlapping ones included, as (its index,
    /// where it is), in the order they end. Only for automata built by
    /// [`Automaton::overlapping`].
    pub(crate) fn all_in<'a>(&'a self, haystack: &'a str) -> impl Iterator<Item = (usize, Range<usize>)> + 'a {
        self.inner.find_overlapping_iter(haystack).map(|found| (found.pattern().as_usize() - 1, found.range()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_named_by_their_index_and_the_guard_never_matches() {
        let automaton = Automaton::anchored_longest(&["b", "ab", "abc"]);
        assert_eq!(automaton.longest_at("xabcd", 1..5), Some((2, 4)));
        assert_eq!(automaton.longest_at("xabcd", 1..3), Some((1, 3)));
        assert_eq!(automaton.longest_at("xabcd", 0..5), None, "anchored at the span's start");
        assert_eq!(automaton.longest_at("ÿÿÿÿ", 0..8), None, "`ÿ` is 0xC3 0xBF, never 0xFF");
        let automaton = Automaton::overlapping(&["b", "ab", "abc"]);
        let all: Vec<(usize, Range<usize>)> = automaton.all_in("xabcd ab").collect();
        assert_eq!(all, [(1, 1..3), (0, 2..3), (2, 1..4), (1, 6..8), (0, 7..8)]);
        assert_eq!(Automaton::overlapping(&["a"]).all_in("\u{FFFF}\u{10FFFF}").count(), 0);
    }

    #[test]
    fn numbered_families_build_and_match() {
        // Every prefix past `term` is a term: the shape that made builds quadratic without the
        // guard (see the module documentation and `cargo bench -p terms`).
        let terms: Vec<String> = (0..20_000).map(|index| format!("term{index}")).collect();
        let automaton = Automaton::anchored_longest(&terms);
        assert_eq!(automaton.longest_at("term1999x", 0..9), Some((1999, 8)));
        assert_eq!(automaton.longest_at("term1999x", 0..6), Some((19, 6)));
        let automaton = Automaton::overlapping(&terms);
        assert_eq!(automaton.all_in("term123").map(|(index, _)| index).collect::<Vec<_>>(), [1, 12, 123]);
    }
}
