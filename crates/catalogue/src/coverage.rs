//! What the configured translation engine can serve, so that listings and requests advertise and accept only
//! what it can do.
//!
//! Coverage is in base languages: an engine that translates English into Spanish serves `ES` and `ES-419`
//! alike. Pivoting through a third language is the engine's business; the engine reports the pairs it can serve
//! with its pivots included, and this type takes them as they are.

use std::collections::BTreeSet;

use crate::language::Language;

/// The languages and pairs the engine can translate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Coverage {
    /// Every language of the catalogue, in every pair.
    All,
    /// Only these ordered pairs of base languages.
    Pairs(PairSet),
}

/// Ordered (source, target) pairs of lower-case base codes, such as `("en", "es")`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PairSet(BTreeSet<(String, String)>);

impl PairSet {
    pub fn contains(&self, source: &str, target: &str) -> bool {
        // A set of owned tuples is looked up with an owned tuple; two short strings are cheap.
        self.0.contains(&(source.to_owned(), target.to_owned()))
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(source, target)| (source.as_str(), target.as_str()))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Coverage {
    /// Coverage of exactly these (source, target) pairs of base codes, in any case (`("en", "es")`).
    pub fn pairs<S: AsRef<str>, T: AsRef<str>>(pairs: impl IntoIterator<Item = (S, T)>) -> Coverage {
        let pairs = pairs
            .into_iter()
            .map(|(source, target)| (source.as_ref().to_ascii_lowercase(), target.as_ref().to_ascii_lowercase()))
            .collect();
        Coverage::Pairs(PairSet(pairs))
    }

    /// Whether the engine translates from this language into anything.
    pub fn supports_source(&self, source: &Language) -> bool {
        match self {
            Coverage::All => true,
            Coverage::Pairs(pairs) => pairs.iter().any(|(from, _)| from == source.base_code()),
        }
    }

    /// Whether the engine translates into this language (a variant through its base) from anything.
    pub fn supports_target(&self, target: &Language) -> bool {
        match self {
            Coverage::All => true,
            Coverage::Pairs(pairs) => pairs.iter().any(|(_, to)| to == target.base_code()),
        }
    }

    /// Whether the engine translates from `source` into `target`; `EN` into `EN-GB` needs the pair (`en`, `en`).
    pub fn supports_pair(&self, source: &Language, target: &Language) -> bool {
        match self {
            Coverage::All => true,
            Coverage::Pairs(pairs) => pairs.contains(source.base_code(), target.base_code()),
        }
    }
}

/// The coverage of a small rule-based engine, for the listings' tests: English, Spanish and Catalan in every
/// direction, and English with French both ways through a pivot.
#[cfg(test)]
pub(crate) fn apertium_like() -> Coverage {
    Coverage::pairs([
        ("en", "es"),
        ("es", "en"),
        ("en", "ca"),
        ("ca", "en"),
        ("es", "ca"),
        ("ca", "es"),
        ("en", "fr"),
        ("fr", "en"),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;

    fn language(code: &str) -> &'static Language {
        find(code).unwrap()
    }

    #[test]
    fn full_coverage_supports_every_language_and_pair() {
        assert!(Coverage::All.supports_source(language("YUE")));
        assert!(Coverage::All.supports_target(language("DE-CH")));
        assert!(Coverage::All.supports_pair(language("JA"), language("PT-BR")));
    }

    #[test]
    fn pair_coverage_supports_exactly_its_pairs() {
        let coverage = Coverage::pairs([("en", "es"), ("es", "ca")]);
        assert!(coverage.supports_pair(language("EN"), language("ES")));
        assert!(coverage.supports_pair(language("ES"), language("CA")));
        assert!(!coverage.supports_pair(language("ES"), language("EN")));
        assert!(!coverage.supports_pair(language("EN"), language("CA")));
    }

    #[test]
    fn a_variant_target_is_supported_when_its_base_pair_is() {
        let coverage = Coverage::pairs([("en", "es"), ("es", "en")]);
        assert!(coverage.supports_pair(language("ES"), language("EN-GB")));
        assert!(coverage.supports_pair(language("EN"), language("ES-419")));
        assert!(coverage.supports_target(language("EN-US")));
        assert!(!coverage.supports_target(language("PT-BR")));
    }

    #[test]
    fn sources_and_targets_are_supported_by_the_side_they_appear_on() {
        let coverage = Coverage::pairs([("en", "fr")]);
        assert!(coverage.supports_source(language("EN")));
        assert!(!coverage.supports_target(language("EN")));
        assert!(coverage.supports_target(language("FR")));
        assert!(!coverage.supports_source(language("FR")));
    }

    #[test]
    fn pairs_are_taken_in_any_case() {
        let coverage = Coverage::pairs([("EN", "Es")]);
        assert!(coverage.supports_pair(language("en"), language("es")));
    }

    #[test]
    fn no_pairs_support_nothing() {
        let coverage = Coverage::pairs(Vec::<(&str, &str)>::new());
        assert!(!coverage.supports_source(language("EN")));
        assert!(!coverage.supports_target(language("EN")));
    }
}
