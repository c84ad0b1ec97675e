//! Translation memory matching: how segments are compared, and where a translation finds them.
//!
//! A translation memory holds segments (a source text and its translation into one target
//! language). A translation looks each of its sentences up in the memory it names: a sentence
//! that is the same as a stored source, after [`normalise`], is an exact match (score 100),
//! found by its [`exact_key`]; one that differs a little is a fuzzy match, found through the
//! stored sources' [`tokens`] and scored by [`score`]. The store (crate `memory`) implements
//! [`MemorySource`]; the translation pipeline calls it. Nothing here knows a database.
//!
//! # Normalisation
//!
//! [`normalise`] makes the text that matching compares, in this order:
//!
//! 1. Typographic quote variants that Unicode does not class as punctuation (`` ` ``, `´`,
//!    `ʹ`, `ʺ`, `ʻ`, `ʼ`, `ʽ`) become the apostrophe `'`, so that step 4 treats them as the
//!    punctuation they stand for.
//! 2. Unicode normalisation form NFKC: composed and decomposed accents are the same
//!    (`é` = `e` + U+0301), and so are full-width and half-width forms (`Ａ１` = `A1`),
//!    ligatures (`ﬁ` = `fi`) and the no-break space (= space).
//! 3. Lower case, by Unicode's full case mapping (`Straße` stays `straße`, `ÉTÉ` is `été`).
//! 4. Punctuation (general categories Pc, Pd, Ps, Pe, Pi, Pf, Po: `. , ; : ! ? ¿ ¡ - – — ( ) [ ]
//!    « » “ ” ‘ ’ " ' 「 」 。 、 ！ ？ …`) separates words like a space, except between two
//!    decimal digits, where it is part of a number and kept: `3.14`, `1,000`, `12:30`, `2024-05-01`,
//!    `1/2`. Unicode counts `% & @ # *` as punctuation too; symbols (category S*: `$ € + = < > ©
//!    ^ ~ |`) are kept as part of their word.
//! 5. White space (Unicode's `White_Space`) separates words; format characters (category Cf:
//!    soft hyphen, zero-width space and joiners, bidirectional marks, byte order mark) and other
//!    control characters are dropped without separating anything.
//! 6. Words are joined by one space, without space before the first or after the last.
//!
//! So `“Hello,  World!”` and `hello world` are the same text, and `don't` and `don’t` are both
//! `don t`; `3.5 kg` and `3,5 kg` are not the same (the separator is part of the number).
//!
//! # Tokens
//!
//! [`tokens`] are the words of the normalised text, and in Chinese and Japanese, which do not
//! put spaces between words, every Han character (CJK ideographs, extensions and compatibility
//! ideographs), every kana (Hiragana, Katakana, Katakana phonetic extensions and half-width
//! Katakana) and the iteration marks `々 〆 〇` is a token of its own: `東京タワー` is seven
//! tokens. Korean separates its words with spaces, so a Hangul word is one token. A run of other
//! characters inside a CJK text is one token: `iPhone手机` is `iphone`, `手`, `机`.
//!
//! # Scores
//!
//! [`score`] is `100 × (1 − d / n)`, rounded down, where `d` is the edit distance between the two
//! texts' token sequences (insertions, deletions and substitutions of whole tokens, each
//! costing 1) and `n` the larger number of tokens. Two texts score 100 only when they are the
//! same after normalisation; texts that differ only in where spaces fall between CJK
//! characters have the same tokens and score 99.

use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

pub use terms::SourceError;

/// A translation memory, as a translation checks it: the target languages it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    pub targets: Vec<&'static catalogue::Language>,
}

/// One match: the stored source and target, and its score (100 = same text after
/// normalisation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryMatch {
    pub source: String,
    pub target: String,
    pub score: u8,
}

/// Where a translation finds the translation memory its request names.
pub trait MemorySource {
    /// The caller's memory `id`; None when the caller has none by that id.
    fn memory(&self, id: &platform::Id) -> Result<Option<Memory>, SourceError>;

    /// For each of `segments` (in order), the best match in memory `id` whose target language
    /// is `target` (or `target`'s base language when the memory holds only that), scoring at
    /// least `threshold`; with `fuzzy == false`, only matches that score 100 (exact after
    /// normalisation: looked up by the normalised key only, no token search).
    fn lookup(
        &self,
        id: &platform::Id,
        target: &'static catalogue::Language,
        segments: &[String],
        threshold: u8,
        fuzzy: bool,
    ) -> Result<Vec<Option<MemoryMatch>>, SourceError>;
}

/// No memories stored: every id names nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoMemories;

impl MemorySource for NoMemories {
    fn memory(&self, _: &platform::Id) -> Result<Option<Memory>, SourceError> {
        Ok(None)
    }

    fn lookup(
        &self,
        _: &platform::Id,
        _: &'static catalogue::Language,
        segments: &[String],
        _: u8,
        _: bool,
    ) -> Result<Vec<Option<MemoryMatch>>, SourceError> {
        Ok(vec![None; segments.len()])
    }
}

/// Quote marks that Unicode classes as letters or symbols rather than punctuation, treated as
/// the apostrophe (step 1 of the crate's normalisation).
const QUOTE_VARIANTS: [char; 7] = ['\u{60}', '\u{B4}', '\u{2B9}', '\u{2BA}', '\u{2BB}', '\u{2BC}', '\u{2BD}'];

/// The text matching compares: NFKC, lower case, punctuation and white space as single spaces
/// between words (punctuation between two digits kept), format and control characters dropped.
/// See the crate's documentation for every step.
pub fn normalise(text: &str) -> String {
    let unquoted = |character: char| if QUOTE_VARIANTS.contains(&character) { '\'' } else { character };
    // ASCII is its own NFKC, and its lower case is ASCII's: the common case, without tables.
    let chars: Vec<char> = if text.is_ascii() {
        text.chars().map(|character| unquoted(character).to_ascii_lowercase()).collect()
    } else {
        text.chars().map(unquoted).nfkc().flat_map(char::to_lowercase).collect()
    };
    let mut normalised = String::with_capacity(text.len());
    let mut space = false;
    for (at, &character) in chars.iter().enumerate() {
        let separates = match class(character) {
            Class::Space => true,
            Class::Punctuation => {
                !(at > 0 && is_digit(chars[at - 1]) && chars.get(at + 1).is_some_and(|&next| is_digit(next)))
            }
            Class::Dropped => continue,
            Class::Kept => false,
        };
        if separates {
            space = true;
            continue;
        }
        if space && !normalised.is_empty() {
            normalised.push(' ');
        }
        space = false;
        normalised.push(character);
    }
    normalised
}

/// What [`normalise`] does with a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// White space: separates words.
    Space,
    /// Punctuation: separates words, but between two digits.
    Punctuation,
    /// Format and control characters: dropped.
    Dropped,
    /// Part of a word.
    Kept,
}

fn class(character: char) -> Class {
    if character.is_whitespace() {
        return Class::Space;
    }
    if character.is_ascii() {
        // ASCII punctuation but the symbols (categories Sc, Sk, Sm).
        return if character.is_ascii_control() {
            Class::Dropped
        } else if character.is_ascii_punctuation()
            && !matches!(character, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~')
        {
            Class::Punctuation
        } else {
            Class::Kept
        };
    }
    match character.general_category() {
        GeneralCategory::Format | GeneralCategory::Control => Class::Dropped,
        GeneralCategory::ConnectorPunctuation
        | GeneralCategory::DashPunctuation
        | GeneralCategory::OpenPunctuation
        | GeneralCategory::ClosePunctuation
        | GeneralCategory::InitialPunctuation
        | GeneralCategory::FinalPunctuation
        | GeneralCategory::OtherPunctuation => Class::Punctuation,
        _ => Class::Kept,
    }
}

/// A stable 64-bit hash of [`normalise`]`(text)`: the first 8 bytes of its SHA-256, big-endian.
/// Stored with every segment, so it is the same on every host and must never change.
pub fn exact_key(text: &str) -> i64 {
    key_of_normalised(&normalise(text))
}

/// [`exact_key`] of a text already normalised.
fn key_of_normalised(normalised: &str) -> i64 {
    let digest = Sha256::digest(normalised.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(first)
}

/// The normalised word tokens of `text`, in order, repeats included: the words of
/// [`normalise`]`(text)`, with every Han character and kana a token of its own (see the crate's
/// documentation).
pub fn tokens(text: &str) -> Vec<String> {
    split(&normalise(text)).into_iter().map(str::to_owned).collect()
}

/// The tokens of a normalised text, borrowed from it.
fn split(normalised: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    for word in normalised.split(' ').filter(|word| !word.is_empty()) {
        let mut start = 0;
        for (at, character) in word.char_indices() {
            if is_cjk(character) {
                if start < at {
                    tokens.push(&word[start..at]);
                }
                let end = at + character.len_utf8();
                tokens.push(&word[at..end]);
                start = end;
            }
        }
        if start < word.len() {
            tokens.push(&word[start..]);
        }
    }
    tokens
}

/// How alike two texts are, from 0 to 100: `100 × (1 − token edit distance / larger token
/// count)`, rounded down; 100 only when `normalise(a) == normalise(b)`.
pub fn score(a: &str, b: &str) -> u8 {
    let (a, b) = (normalise(a), normalise(b));
    if a == b {
        return 100;
    }
    let (a, b) = (split(&a), split(&b));
    let longest = a.len().max(b.len());
    if longest == 0 {
        // Both have no token but differ: impossible (a normalised text without tokens is empty).
        return 0;
    }
    let distance = edit_distance(&a, &b);
    let score = 100 * (longest - distance) / longest;
    // Texts that differ only in the spaces between CJK characters have the same tokens.
    score.min(99) as u8
}

/// The Levenshtein distance between two token sequences: the fewest insertions, deletions and
/// substitutions of one token that turn one into the other. Two rows of the table at a time.
fn edit_distance(a: &[&str], b: &[&str]) -> usize {
    let (a, b) = if a.len() < b.len() { (b, a) } else { (a, b) };
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (row, token) in a.iter().enumerate() {
        current[0] = row + 1;
        for (column, other) in b.iter().enumerate() {
            let substitution = previous[column] + usize::from(token != other);
            current[column + 1] = substitution.min(previous[column + 1] + 1).min(current[column] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

fn is_digit(character: char) -> bool {
    character.is_ascii_digit()
        || (!character.is_ascii() && character.general_category() == GeneralCategory::DecimalNumber)
}

/// Han characters, kana and the CJK iteration marks: each a token of its own.
fn is_cjk(character: char) -> bool {
    matches!(
        character,
        '\u{3005}'..='\u{3007}'         // 々 〆 〇
        | '\u{3040}'..='\u{309F}'       // Hiragana
        | '\u{30A0}'..='\u{30FF}'       // Katakana
        | '\u{31F0}'..='\u{31FF}'       // Katakana phonetic extensions
        | '\u{3400}'..='\u{4DBF}'       // CJK extension A
        | '\u{4E00}'..='\u{9FFF}'       // CJK unified ideographs
        | '\u{F900}'..='\u{FAFF}'       // CJK compatibility ideographs
        | '\u{FF66}'..='\u{FF9F}'       // half-width Katakana
        | '\u{20000}'..='\u{2FA1F}'     // CJK extensions B to F, compatibility supplement
        | '\u{30000}'..='\u{3134F}' // CJK extensions G and H
    )
}

#[cfg(test)]
mod tests {
    use unicode_properties::GeneralCategoryGroup;

    use super::*;

    #[test]
    fn normalising_folds_case_width_accents_quotes_and_spacing() {
        assert_eq!(normalise("  “Hello,  World!”\t"), "hello world");
        assert_eq!(normalise("hello world"), "hello world");
        assert_eq!(normalise("ÉTÉ"), "été");
        assert_eq!(normalise("e\u{301}te\u{301}"), "été", "decomposed accents compose");
        assert_eq!(normalise("Ｈｅｌｌｏ　ＷＯＲＬＤ１２"), "hello world12", "full-width forms and space");
        assert_eq!(normalise("ﬁne\u{A0}day"), "fine day");
        assert_eq!(normalise("Straße"), "straße");
        for apostrophe in ["don't", "don’t", "don`t", "don´t", "donʼt", "don‘t"] {
            assert_eq!(normalise(apostrophe), "don t", "{apostrophe}");
        }
        assert_eq!(normalise("«Bonjour» — dit-il ; ¿qué? ¡sí!"), "bonjour dit il qué sí");
        assert_eq!(normalise("「こんにちは」、世界。"), "こんにちは 世界");
    }

    #[test]
    fn punctuation_inside_numbers_is_kept_and_symbols_stay() {
        assert_eq!(normalise("Pi is 3.14, not 3."), "pi is 3.14 not 3");
        assert_eq!(normalise("1,000 at 12:30 on 2024-05-01 (1/2)"), "1,000 at 12:30 on 2024-05-01 1/2");
        assert_ne!(normalise("3.5 kg"), normalise("3,5 kg"));
        assert_eq!(normalise("C++ costs $5 + 20% (€)"), "c++ costs $5 + 20 €", "% is punctuation, $ + € symbols");
        assert_eq!(normalise("-5 or 5-"), "5 or 5", "a dash next to only one digit separates");
    }

    #[test]
    fn the_ascii_shortcut_agrees_with_the_unicode_tables() {
        for character in (0u8..128).map(char::from) {
            let by_table = if character.is_whitespace() {
                Class::Space
            } else {
                match character.general_category_group() {
                    _ if character.general_category() == GeneralCategory::Format => Class::Dropped,
                    _ if character.general_category() == GeneralCategory::Control => Class::Dropped,
                    GeneralCategoryGroup::Punctuation => Class::Punctuation,
                    _ => Class::Kept,
                }
            };
            assert_eq!(class(character), by_table, "{character:?}");
            assert_eq!(is_digit(character), character.general_category() == GeneralCategory::DecimalNumber);
        }
        assert_eq!(normalise("Don`t"), normalise("don't"));
    }

    #[test]
    fn format_and_control_characters_are_dropped_without_separating() {
        assert_eq!(normalise("co\u{AD}operate"), "cooperate", "soft hyphen");
        assert_eq!(normalise("\u{FEFF}zero\u{200B}width\u{200D}"), "zerowidth");
        assert_eq!(normalise("bell\u{7}s and\nlines"), "bells and lines");
        assert_eq!(normalise(""), "");
        assert_eq!(normalise(" ... !!! "), "", "punctuation only");
    }

    #[test]
    fn normalising_twice_changes_nothing() {
        for text in ["“Hello,  World!”", "İstanbul'da", "東京タワー、高い！", "3.14 – ﬁne", "Ǆemal ΣΑΣ"]
        {
            let once = normalise(text);
            assert_eq!(normalise(&once), once, "{text}");
        }
    }

    #[test]
    fn tokens_are_words_and_each_han_character_or_kana() {
        assert_eq!(tokens("The cat, the hat."), ["the", "cat", "the", "hat"]);
        assert_eq!(tokens("東京タワー"), ["東", "京", "タ", "ワ", "ー"]);
        assert_eq!(tokens("iPhone手机很好"), ["iphone", "手", "机", "很", "好"]);
        assert_eq!(tokens("我们 在 3.5km"), ["我", "们", "在", "3.5km"]);
        assert_eq!(tokens("안녕하세요 세계"), ["안녕하세요", "세계"], "Hangul words are tokens");
        assert_eq!(tokens("ﾃｽﾄ"), ["テ", "ス", "ト"], "half-width kana become full-width");
        assert!(tokens("?!").is_empty());
    }

    #[test]
    fn exact_keys_are_the_sha256_of_the_normalised_text() {
        // SHA-256("hello world") = b94d27b9934d3e08…
        let pinned = i64::from_be_bytes([0xb9, 0x4d, 0x27, 0xb9, 0x93, 0x4d, 0x3e, 0x08]);
        assert_eq!(exact_key("hello world"), pinned);
        assert_eq!(exact_key("  Hello, World! "), pinned);
        assert_ne!(exact_key("hello world."), exact_key("hello worlds"));
        assert_eq!(exact_key("don’t"), exact_key("don't"));
    }

    #[test]
    fn scores_count_token_edits_against_the_longer_text() {
        assert_eq!(score("The cat sat.", "the cat sat"), 100);
        assert_eq!(score("the cat sat", "the cat sat down"), 75, "one insertion in four tokens");
        assert_eq!(score("the cat sat down", "the cat sat"), 75, "symmetric");
        assert_eq!(score("the cat sat on the mat", "the dog sat on the mat"), 83, "5/6 rounded down");
        assert_eq!(score("one two three", "four five six"), 0);
        assert_eq!(score("a b c", ""), 0);
        assert_eq!(score("東京タワー", "東京タワ"), 80);
        let hundred: Vec<String> = (0..100).map(|index| format!("w{index}")).collect();
        let mut edited = hundred.clone();
        edited[50] = "other".to_owned();
        assert_eq!(score(&hundred.join(" "), &edited.join(" ")), 99, "one edit in 100 tokens");
    }

    #[test]
    fn only_the_same_normalised_text_scores_100() {
        // The same tokens, but the space between CJK characters differs.
        assert_eq!(tokens("東京 タワー"), tokens("東京タワー"));
        assert_ne!(normalise("東京 タワー"), normalise("東京タワー"));
        assert_eq!(score("東京 タワー", "東京タワー"), 99);
        assert_eq!(score("Hello!", "hello"), 100);
    }

    #[test]
    fn without_memories_every_id_names_nothing() {
        let id = platform::Id::parse("def3a26b-3e84-45b3-84ae-0c0aaf3525f7").unwrap();
        assert_eq!(NoMemories.memory(&id).unwrap(), None);
        let german = catalogue::find("de").unwrap();
        let segments = vec!["a".to_owned(), "b".to_owned()];
        assert_eq!(NoMemories.lookup(&id, german, &segments, 0, true).unwrap(), vec![None, None]);
    }
}
