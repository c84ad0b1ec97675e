//! The `preserve_formatting` parameter: undoing what an engine "corrected" in a unit.
//!
//! Engines tend to capitalise the first word, add a final period and trim whitespace. With
//! `preserve_formatting=1` the client wants the source's choices back. [`preserve_formatting`]
//! applies exactly three rules, to a source unit and its translation:
//!
//! 1. **Whitespace.** The result has the source's leading and trailing whitespace, and the
//!    translation's own leading and trailing whitespace is dropped.
//! 2. **Case of the first letter.** The first alphanumeric character of each text is found,
//!    skipping punctuation, symbols and placeholders (`¿`, `«`, `(`, `<g1>`). When both are
//!    letters with a case, the translation's takes the source's case: upper case is always
//!    applied; lower case is not applied when the translation's next character is also upper
//!    case, so acronyms (`USA`) survive. A digit first, or a letter without case (as in Chinese),
//!    changes nothing.
//! 3. **Final punctuation.** Final punctuation is one of `.` `!` `?` `…` and their full-width
//!    forms `。` `．` `｡` `！` `？`, looked for at the last non-whitespace character outside
//!    placeholders. When the source ends with final punctuation and the translation ends with a
//!    letter or digit, the source's whole final run (`?!`, `...`) is appended right after the
//!    translation's last character (inside a trailing `</g1>`). When the source ends with a
//!    letter or digit and the translation ends with final punctuation, the translation's final
//!    run is removed, with the whitespace before it (French `Bonjour !` becomes `Bonjour`). When
//!    either text ends with anything else (a quote, a bracket, a colon), its end is left alone,
//!    since which mark belongs where cannot be told.
//!
//! Without `preserve_formatting` the translation is used as it is.

use crate::placeholder::segment_ranges;

/// Final punctuation, in its ASCII and full-width forms.
const FINAL_PUNCTUATION: &[char] = &['.', '!', '?', '…', '。', '．', '｡', '！', '？'];

/// The translation of `source` with the source's formatting restored (see the module docs),
/// or `translation` unchanged when `enabled` is false.
pub fn preserve_formatting(source: &str, translation: &str, enabled: bool) -> String {
    if !enabled {
        return translation.to_owned();
    }
    let source_core = source.trim();
    let mut core = translation.trim().to_owned();
    if !source_core.is_empty() && !core.is_empty() {
        restore_first_letter_case(source_core, &mut core);
        restore_final_punctuation(source_core, &mut core);
    }
    let leading = &source[..source.len() - source.trim_start().len()];
    let trailing = &source[source.trim_end().len()..];
    if source_core.is_empty() {
        // A blank source has no core: keep its whitespace once, around the translation.
        return format!("{leading}{}", core);
    }
    format!("{leading}{core}{trailing}")
}

/// The byte offset and character of each character outside placeholders, in order.
fn text_characters(text: &str) -> Vec<(usize, char)> {
    segment_ranges(text)
        .into_iter()
        .filter(|(_, segment)| segment.is_none())
        .flat_map(|(range, _)| text[range.clone()].char_indices().map(move |(offset, c)| (range.start + offset, c)))
        .collect()
}

fn restore_first_letter_case(source: &str, translation: &mut String) {
    let first_alphanumeric = |characters: &[(usize, char)]| characters.iter().position(|(_, c)| c.is_alphanumeric());
    let source_characters = text_characters(source);
    let Some(source_index) = first_alphanumeric(&source_characters) else {
        return;
    };
    let source_letter = source_characters[source_index].1;
    let characters = text_characters(translation);
    let Some(index) = first_alphanumeric(&characters) else {
        return;
    };
    let (offset, letter) = characters[index];
    let replacement: String = if source_letter.is_uppercase() && letter.is_lowercase() {
        letter.to_uppercase().collect()
    } else if source_letter.is_lowercase() && letter.is_uppercase() {
        let next_is_upper = characters.get(index + 1).is_some_and(|(_, next)| next.is_uppercase());
        if next_is_upper {
            return;
        }
        letter.to_lowercase().collect()
    } else {
        return;
    };
    translation.replace_range(offset..offset + letter.len_utf8(), &replacement);
}

fn restore_final_punctuation(source: &str, translation: &mut String) {
    let source_characters = text_characters(source);
    let source_last = source_characters.iter().rev().find(|(_, c)| !c.is_whitespace());
    let Some(&(_, source_last)) = source_last else {
        return;
    };
    let characters = text_characters(translation);
    let mut from_end = characters.iter().rev().skip_while(|(_, c)| c.is_whitespace());
    let Some(&(last_offset, last)) = from_end.next() else {
        return;
    };
    if FINAL_PUNCTUATION.contains(&source_last) && last.is_alphanumeric() {
        let run: String = source_characters
            .iter()
            .rev()
            .skip_while(|(_, c)| c.is_whitespace())
            .take_while(|(_, c)| FINAL_PUNCTUATION.contains(c))
            .map(|(_, c)| *c)
            .collect::<Vec<char>>()
            .into_iter()
            .rev()
            .collect();
        translation.insert_str(last_offset + last.len_utf8(), &run);
    } else if source_last.is_alphanumeric() && FINAL_PUNCTUATION.contains(&last) {
        // Remove the final run and the whitespace just before it, but only characters that sit
        // next to each other in the same stretch of text, never across a placeholder.
        let end = last_offset + last.len_utf8();
        let mut start = last_offset;
        let mut in_run = true;
        for &(offset, c) in from_end {
            let adjacent = offset + c.len_utf8() == start;
            if adjacent && in_run && FINAL_PUNCTUATION.contains(&c) {
                start = offset;
            } else if adjacent && c.is_whitespace() {
                in_run = false;
                start = offset;
            } else {
                break;
            }
        }
        translation.replace_range(start..end, "");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preserved(source: &str, translation: &str) -> String {
        preserve_formatting(source, translation, true)
    }

    #[test]
    fn without_the_option_the_translation_is_used_as_it_is() {
        assert_eq!(preserve_formatting("  hello", "Hallo.", false), "Hallo.");
    }

    #[test]
    fn the_sources_outer_whitespace_replaces_the_translations() {
        assert_eq!(preserved("  Hello.\n", " Hallo. "), "  Hallo.\n");
        assert_eq!(preserved("Hello.", "\tHallo.\n"), "Hallo.");
    }

    #[test]
    fn the_first_letter_takes_the_sources_case() {
        assert_eq!(preserved("hello world", "Hallo Welt"), "hallo Welt");
        assert_eq!(preserved("Hello world", "hallo Welt"), "Hallo Welt");
        assert_eq!(preserved("¿qué tal", "How are you"), "how are you");
        assert_eq!(preserved("«hello»", "«Bonjour»"), "«bonjour»");
    }

    #[test]
    fn acronyms_digits_and_uncased_scripts_keep_their_case() {
        assert_eq!(preserved("the usa", "USA"), "USA");
        assert_eq!(preserved("3 apples", "3 Äpfel"), "3 Äpfel");
        assert_eq!(preserved("hello", "你好"), "你好");
        assert_eq!(preserved("你好", "hello"), "hello");
    }

    #[test]
    fn final_punctuation_missing_from_the_translation_is_added() {
        assert_eq!(preserved("Hello.", "Hallo"), "Hallo.");
        assert_eq!(preserved("Really?!", "Wirklich"), "Wirklich?!");
        assert_eq!(preserved("Wait…", "Warte"), "Warte…");
        assert_eq!(preserved("Wait...", "Warte"), "Warte...");
        assert_eq!(preserved("你好。", "Hello"), "Hello。");
    }

    #[test]
    fn final_punctuation_the_source_lacks_is_removed() {
        assert_eq!(preserved("Hello", "Hallo."), "Hallo");
        assert_eq!(preserved("Hello", "Bonjour !"), "Bonjour");
        assert_eq!(preserved("hello", "こんにちは。"), "こんにちは");
        assert_eq!(preserved("Why", "Warum？"), "Warum");
    }

    #[test]
    fn different_final_punctuation_is_left_alone() {
        assert_eq!(preserved("Hello!", "Hallo."), "Hallo.");
    }

    #[test]
    fn quotes_and_brackets_at_the_end_are_left_alone() {
        assert_eq!(preserved("He said \"hi.\"", "Il a dit « salut »."), "Il a dit « salut ».");
        assert_eq!(preserved("Hello", "« Bonjour »"), "« Bonjour »");
        assert_eq!(preserved("(Hello.)", "(Hallo)"), "(Hallo)");
    }

    #[test]
    fn placeholders_are_skipped_and_punctuation_goes_inside_a_trailing_end_tag() {
        assert_eq!(preserved("<g1>hello</g1> world.", "<g1>Hallo</g1> Welt"), "<g1>hallo</g1> Welt.");
        assert_eq!(preserved("<g1>Hello world.</g1>", "<g1>Hallo Welt</g1>"), "<g1>Hallo Welt.</g1>");
        assert_eq!(preserved("<g1>Hello world</g1><x2/>", "<g1>Hallo Welt.</g1><x2/>"), "<g1>Hallo Welt</g1><x2/>");
    }

    #[test]
    fn removal_never_crosses_a_placeholder() {
        assert_eq!(preserved("Hello <g1>world</g1>", "Hallo <g1>Welt</g1> !"), "Hallo <g1>Welt</g1>");
        assert_eq!(preserved("Hello <x1/>", "Hallo.<x1/>"), "Hallo<x1/>");
    }

    #[test]
    fn empty_texts_only_get_the_whitespace_rule() {
        assert_eq!(preserved("  ", "x"), "  x");
        assert_eq!(preserved("Hello.", ""), "");
    }
}
