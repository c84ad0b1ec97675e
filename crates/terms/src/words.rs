//! Characters: word boundaries, letter case and sentence starts.

/// Whether a word may start at `current` after `previous` (`None` at the start of a text or right
/// after a placeholder): after a non-word character, and anywhere next to a character of an
/// unspaced script.
pub fn starts_word(previous: Option<char>, current: char) -> bool {
    match previous {
        None => true,
        Some(previous) => !is_word_char(previous) || is_unspaced(previous) || is_unspaced(current),
    }
}

/// Whether a word may end at `last` before `next` (`None` at the end of a text or right before a
/// placeholder): before a non-word character, and anywhere next to a character of an unspaced
/// script.
pub fn ends_word(last: char, next: Option<char>) -> bool {
    match next {
        None => true,
        Some(next) => !is_word_char(next) || is_unspaced(next) || is_unspaced(last),
    }
}

/// Whether a character belongs to words: letters and digits of any script.
pub fn is_word_char(character: char) -> bool {
    character.is_alphanumeric()
}

/// Whether a character belongs to a script written without spaces between words (Thai, Lao,
/// Myanmar, Khmer, kana, CJK ideographs), where a term may start or end next to any character.
pub fn is_unspaced(character: char) -> bool {
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

/// The text with its first character upper-cased.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A character's simple lower-case mapping: the first character of its lower-case form, so that
/// comparing two texts character by character never changes their lengths in characters.
pub(crate) fn lower(character: char) -> char {
    character.to_lowercase().next().unwrap_or(character)
}

/// Lower-cases `text` character by character into `lowered` (see [`lower`]), and records in
/// `original`, for every byte of `lowered`, where the character it belongs to starts in `text`,
/// plus `text.len()` at the end: a place between characters in `lowered` maps back to `text`.
/// Both buffers are cleared first.
pub(crate) fn lower_text(text: &str, lowered: &mut String, original: &mut Vec<usize>) {
    lowered.clear();
    original.clear();
    lowered.reserve(text.len());
    original.reserve(text.len() + 1);
    for (at, character) in text.char_indices() {
        let character = lower(character);
        lowered.push(character);
        original.resize(original.len() + character.len_utf8(), at);
    }
    original.push(text.len());
}

/// Whether two characters are equal once lower-cased.
#[cfg(test)]
pub(crate) fn same_ignoring_case(left: char, right: char) -> bool {
    left == right || lower(left) == lower(right)
}

/// Where sentences start, followed one character at a time.
///
/// A sentence starts at the beginning of the text and after a sentence-ending mark; whitespace,
/// placeholders (which are never fed in), quotes, brackets, `¿` and `¡` leave the state as it
/// is, so `Stop. «House` and `<g1>"House` start sentences at `House`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SentenceStart(bool);

impl Default for SentenceStart {
    /// The state at the beginning of a text: a sentence starts here.
    fn default() -> Self {
        SentenceStart(true)
    }
}

impl SentenceStart {
    /// Whether a sentence starts at the next character.
    pub(crate) fn here(self) -> bool {
        self.0
    }

    /// Moves past one character.
    pub(crate) fn feed(&mut self, character: char) {
        if !character.is_whitespace() && !is_quote_or_bracket(character) {
            self.0 = is_sentence_end(character);
        }
    }
}

/// Marks that end a sentence.
fn is_sentence_end(character: char) -> bool {
    matches!(character, '.' | '!' | '?' | '…' | '。' | '！' | '？')
}

/// Quotes and brackets, opening or closing (several quotes are both, depending on the language),
/// and the Spanish opening marks: what may stand between a sentence end and the next sentence's
/// first word.
const QUOTES_AND_BRACKETS: &str = "\"'«»‹›“”„‟‘’‚‛＂＇()[]{}（）［］｛｝「」『』｢｣【】〈〉《》〔〕⟨⟩¿¡";

fn is_quote_or_bracket(character: char) -> bool {
    QUOTES_AND_BRACKETS.contains(character)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts_at_end(text: &str) -> bool {
        let mut sentence = SentenceStart::default();
        text.chars().for_each(|character| sentence.feed(character));
        sentence.here()
    }

    #[test]
    fn words_start_and_end_at_non_word_characters_and_inside_unspaced_scripts() {
        assert!(starts_word(None, 'a'));
        assert!(starts_word(Some(' '), 'a'));
        assert!(starts_word(Some('-'), 'a'));
        assert!(!starts_word(Some('x'), 'a'));
        assert!(!starts_word(Some('9'), '+'));
        assert!(starts_word(Some('は'), '東'));
        assert!(starts_word(Some('a'), '東'));
        assert!(ends_word('e', None));
        assert!(ends_word('e', Some(',')));
        assert!(!ends_word('e', Some('s')));
        assert!(ends_word('京', Some('に')));
        assert!(ends_word('e', Some('に')));
        assert!(is_word_char('é') && is_word_char('7') && is_word_char('東') && !is_word_char('_'));
    }

    #[test]
    fn capitalising_upper_cases_the_first_character_only() {
        assert_eq!(capitalise("casa roja"), "Casa roja");
        assert_eq!(capitalise("état"), "État");
        assert_eq!(capitalise("iPhone"), "IPhone");
        assert_eq!(capitalise(""), "");
    }

    #[test]
    fn simple_lower_case_keeps_one_character() {
        assert_eq!(lower('A'), 'a');
        assert_eq!(lower('İ'), 'i');
        assert_eq!(lower('\u{212A}'), 'k', "the Kelvin sign");
        assert_eq!(lower('東'), '東');
        assert!(same_ignoring_case('Ä', 'ä') && !same_ignoring_case('a', 'ä'));
    }

    #[test]
    fn lower_cased_texts_map_back_to_their_original_places() {
        let (mut lowered, mut original) = (String::from("stale"), vec![9]);
        lower_text("İx\u{212A}É東", &mut lowered, &mut original);
        assert_eq!(lowered, "ixké東");
        // `İ` (2 bytes) and the Kelvin sign (3 bytes) lower-case to one byte each; `É` and `東`
        // keep their lengths.
        assert_eq!(original, [0, 2, 3, 6, 6, 8, 8, 8, 11]);
        lower_text("", &mut lowered, &mut original);
        assert_eq!((lowered.as_str(), original.as_slice()), ("", &[0][..]));
    }

    #[test]
    fn sentences_start_at_the_beginning_and_after_sentence_ends() {
        assert!(starts_at_end(""));
        assert!(starts_at_end("  ¿(« "));
        assert!(starts_at_end("Done. "));
        assert!(starts_at_end("Done!\" ("));
        assert!(starts_at_end("Really? «"));
        assert!(starts_at_end("終わり。"));
        assert!(starts_at_end("Wait…"));
        assert!(!starts_at_end("The "));
        assert!(!starts_at_end("Done, "));
        assert!(!starts_at_end("Done: \""));
    }

    #[test]
    fn word_classes_do_not_change_when_lower_cased() {
        // The lookup keys rely on this: a term and the text it matches case-insensitively cut
        // into the same tokens.
        for character in (0..=0x10FFFF).filter_map(char::from_u32) {
            let lowered = lower(character);
            assert_eq!(is_word_char(character), is_word_char(lowered), "{character:?}");
            assert_eq!(is_unspaced(character), is_unspaced(lowered), "{character:?}");
            assert_eq!(character.is_whitespace(), lowered.is_whitespace(), "{character:?}");
        }
    }
}
