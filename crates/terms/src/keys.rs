//! Lookup keys: what a store files a glossary entry under, and which keys a text asks for.
//!
//! A key is the lower-cased first token of a text, where a token is a run of word characters
//! ([`is_word_char`]), or a single character of an unspaced script ([`is_unspaced`]), or a single
//! other non-space character. Lower-casing is per character (its simple lower-case mapping), as
//! in matching.
//!
//! **Invariant:** whenever the matcher finds an entry in a text, the entry's [`first_key`] is
//! among the text's [`text_keys`]. A match starts where a term may start (where the text's keys
//! are taken), compares lower-cased characters one by one (which keeps word classes, see the test
//! in `words`), and ends where a word may end, which is where a token ends: so the entry's first
//! token is the text's token there. The tests below check this against random texts and terms.

use std::collections::BTreeSet;

use crate::placeholder::{Segment, split_placeholders};
use crate::words::{is_unspaced, is_word_char, lower, starts_word};

/// The key a glossary entry is filed under: the lower-cased first token of its source term.
///
/// Leading whitespace is skipped (whitespace is not a token); a term with nothing else has the
/// empty key, which no text asks for.
///
/// ```
/// use terms::first_key;
///
/// assert_eq!(first_key("Red House"), "red");
/// assert_eq!(first_key("C++"), "c");
/// assert_eq!(first_key("e-mail"), "e");
/// assert_eq!(first_key("++x"), "+");
/// assert_eq!(first_key("東京"), "東");
/// ```
pub fn first_key(term: &str) -> String {
    let mut key = String::new();
    push_key(term.trim_start(), &mut key);
    key
}

/// The keys of every place in `text` where a glossary term may start (outside placeholders):
/// fetching the entries filed under these keys fetches every entry that may match in the text.
///
/// ```
/// use terms::text_keys;
///
/// let keys = text_keys("Use C++, <g1>e-mail</g1> 東京!");
/// assert_eq!(Vec::from_iter(keys), ["!", "+", ",", "c", "e", "mail", "use", "京", "東"]);
/// ```
pub fn text_keys(text: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    let mut key = String::new();
    for segment in split_placeholders(text) {
        let Segment::Plain(plain) = segment else { continue };
        let mut previous = None;
        for (at, current) in plain.char_indices() {
            if !current.is_whitespace() && starts_word(previous, current) {
                key.clear();
                push_key(&plain[at..], &mut key);
                if !keys.contains(&key) {
                    keys.insert(key.clone());
                }
            }
            previous = Some(current);
        }
    }
    keys
}

/// Appends the lower-cased first token of `text` (which must not start with whitespace) to `key`.
pub(crate) fn push_key(text: &str, key: &mut String) {
    let mut chars = text.chars().map(lower);
    let Some(first) = chars.next() else { return };
    key.push(first);
    if is_word_char(first) && !is_unspaced(first) {
        key.extend(chars.take_while(|&character| is_word_char(character) && !is_unspaced(character)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GlossaryMatcher;
    use crate::test_support::random_cases;

    fn glossary(sources: &[&str]) -> Vec<(String, String)> {
        sources.iter().enumerate().map(|(index, source)| (source.to_string(), format!("t{index}"))).collect()
    }

    /// The terms found in `text`, as (source, target, capitalised), with a glossary.
    fn found(entries: &[(String, String)], text: &str) -> Vec<(String, String, bool)> {
        let matcher = GlossaryMatcher::new(entries);
        matcher
            .segments(text)
            .into_iter()
            .filter_map(|segment| match segment {
                Segment::Term { entry, capitalised } => {
                    Some((entries[entry].0.clone(), entries[entry].1.clone(), capitalised))
                }
                _ => None,
            })
            .collect()
    }

    /// Checks the invariant for one glossary and one text: every entry found is filed under a key
    /// of the text, and the glossary filtered by the text's keys finds exactly the same terms.
    /// Returns how many terms were found.
    fn check(entries: &[(String, String)], text: &str) -> usize {
        let keys = text_keys(text);
        let all = found(entries, text);
        for (source, _, _) in &all {
            assert!(keys.contains(&first_key(source)), "{source:?} found in {text:?}, keys {keys:?}");
        }
        let filtered: Vec<(String, String)> =
            entries.iter().filter(|(source, _)| keys.contains(&first_key(source))).cloned().collect();
        assert_eq!(found(&filtered, text), all, "filtered by {keys:?} in {text:?}");
        all.len()
    }

    #[test]
    fn keys_are_lower_cased_first_tokens() {
        assert_eq!(first_key("Red House"), "red");
        assert_eq!(first_key("C++"), "c");
        assert_eq!(first_key("e-mail"), "e");
        assert_eq!(first_key("++x"), "+");
        assert_eq!(first_key("東京"), "東");
        assert_eq!(first_key("กรุงเทพ"), "ก");
        assert_eq!(first_key("ÉTAT-major"), "état");
        assert_eq!(first_key("İstanbul"), "istanbul");
        assert_eq!(first_key("3D printer"), "3d");
        assert_eq!(first_key("abc東京"), "abc");
        assert_eq!(first_key("  padded"), "padded");
        assert_eq!(first_key(" "), "");
        assert_eq!(first_key(""), "");
    }

    #[test]
    fn text_keys_skip_placeholders_and_positions_inside_words() {
        let keys = text_keys("The <g1>Red</g1> house's e-mail, 私は東京");
        // Not `'`, `-` or `,`: a term may not start right after a letter.
        let expected = ["e", "house", "mail", "red", "s", "the", "は", "京", "東", "私"];
        assert_eq!(Vec::from_iter(keys), expected);
        // A word may start right after a placeholder, even inside a word.
        assert!(text_keys("big<x1/>house").contains("house"));
        assert!(text_keys("").is_empty());
    }

    #[test]
    fn filtering_a_glossary_by_text_keys_never_changes_the_matches() {
        let entries = glossary(&[
            "house",
            "House",
            "red house",
            "Red House",
            "HOUSE",
            "C++",
            "c",
            "e-mail",
            "E-Mail",
            "mail",
            "++x",
            "+",
            "東京",
            "京都",
            "東",
            "Tokyo",
            "東京 tower",
            "ÉTAT",
            "état-major",
            "İstanbul",
            "istanbul",
            "\u{212A}elvin",
            "kelvin",
            "g1",
            "x2",
            "<g1>",
            "«house»",
            "(red)",
            "3D",
            "it's",
            "s",
            "  padded",
            "trailing ",
            "",
            "ẞtraße",
            "straße",
        ]);
        let texts = [
            "The red house and the House. HOUSE! Red House?",
            "«House» (red) houses, a red  house",
            "I write C++ and c, not C+++ or c#.",
            "E-mail me; e-mail, EMAIL, mail-box, e-mailer",
            "++x; y++x; +x ++X",
            "私は東京に住んでいます。京都と東京タワー、東京 tower",
            "ÉTAT et état-major: ÉTAT-MAJOR, Etat",
            "İstanbul, ISTANBUL, istanbul",
            "\u{212A}ELVIN kelvin KELVIN \u{212A}elvin",
            "<g1>house</g1><x2/>g1 x2 <g1> house<g1>red</g1> house",
            "It's 3D; IT'S 3d; it's, its",
            "  padded trailing  trailing",
            "STRASSE straße ẞTRASSE Straße ẞtraße",
            "",
            "   ",
            "<x1/>",
        ];
        for text in texts {
            check(&entries, text);
        }
    }

    #[test]
    fn filtering_by_text_keys_never_changes_the_matches_of_random_texts() {
        // A fixed seed keeps the test reproducible.
        let total: usize = random_cases(0x2545_f491_4f6c_dd1d).iter().map(|(entries, text)| check(entries, text)).sum();
        assert!(total > 1000, "only {total} terms found: the test checks too little");
    }
}
