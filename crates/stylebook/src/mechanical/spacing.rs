//! Spacing: `formatting.space_between_chinese_and_english`,
//! `space_between_chinese_characters_and_arabic_numerals`, and
//! `punctuation.spacing_and_punctuation`.
//!
//! * Between a Chinese character and a Latin letter (or a URL, address or code), or a Chinese
//!   character and a digit (or a date or time), spaces are removed; tags between them stay.
//! * `spacing_and_punctuation` puts a plain space before `; : ! ?` and inside guillemets
//!   (`use_regular_space`, replacing a no-break space), or none (`do_not_use_space`). A colon or
//!   semicolon counts only before a space or the end (`10:30`, `:)` and `a:b` are not
//!   punctuation of a sentence), `!` and `?` only when no letter follows (`Yahoo!Japan`); in a
//!   run such as `?!` only the first mark takes the space. Guillemets count as `«…»` (and `‹…›`)
//!   except in German, which writes them the other way round.
//!
//! `formatting.space_between_arabic_numerals_and_unit` is applied with the units of measure,
//! in [`super::numbers`].

use super::text::{Lang, Masks, Text, is_han, is_latin, is_space, rewrite};
use crate::ConfiguredRules;

/// The spacing rules of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Spacing {
    chinese_and_latin: bool,
    chinese_and_digits: bool,
    /// Before `; : ! ?` and inside guillemets: a plain space, or none.
    punctuation: Option<bool>,
    lang: Lang,
}

fn punctuation(option: &str) -> Option<bool> {
    match option {
        "use_regular_space" => Some(true),
        "do_not_use_space" => Some(false),
        _ => None,
    }
}

/// Whether this family applies (category, rule, option).
pub(super) fn understands(category: &str, rule: &str, option: &str) -> bool {
    match (category, rule) {
        (
            "formatting",
            "space_between_chinese_and_english" | "space_between_chinese_characters_and_arabic_numerals",
        ) => option == "do_not_use",
        ("punctuation", "spacing_and_punctuation") => punctuation(option).is_some(),
        _ => false,
    }
}

impl Spacing {
    pub(super) fn new(rules: &ConfiguredRules, lang: Lang) -> Option<Spacing> {
        let spacing = Spacing {
            chinese_and_latin: rules.get("formatting", "space_between_chinese_and_english") == Some("do_not_use"),
            chinese_and_digits: rules.get("formatting", "space_between_chinese_characters_and_arabic_numerals")
                == Some("do_not_use"),
            punctuation: rules.get("punctuation", "spacing_and_punctuation").and_then(punctuation),
            lang,
        };
        (spacing.chinese_and_latin || spacing.chinese_and_digits || spacing.punctuation.is_some()).then_some(spacing)
    }

    pub(super) fn apply(&self, text: &mut Text) {
        if self.chinese_and_latin || self.chinese_and_digits {
            rewrite(text, |masks, chars, i| self.chinese_at(masks, chars, i));
        }
        if let Some(spaced) = self.punctuation {
            rewrite(text, |masks, chars, i| self.punctuation_at(masks, chars, i, spaced));
        }
    }

    /// Spaces between Chinese and Latin letters or digits, removed.
    fn chinese_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        if !is_space(chars[i]) || i > 0 && is_space(chars[i - 1]) {
            return None;
        }
        let end = i + chars[i..].iter().take_while(|c| is_space(**c)).count();
        let prev = masks.prev(chars, i)?;
        let next = masks.next(chars, end - 1)?;
        let other = |c: char| self.chinese_and_latin && is_latin(c) || self.chinese_and_digits && c.is_ascii_digit();
        (is_han(prev) && other(next) || other(prev) && is_han(next)).then(|| (end, String::new()))
    }

    /// The space before `; : ! ?` and inside guillemets.
    fn punctuation_at(&self, masks: &Masks, chars: &[char], i: usize, spaced: bool) -> Option<(usize, String)> {
        let space = if spaced { " " } else { "" };
        let guillemets = self.lang != Lang::De;
        let c = chars[i];
        // After an opening guillemet.
        if guillemets && matches!(c, '«' | '‹') {
            let opens = masks.prev(chars, i).is_none_or(|p| p.is_whitespace() || matches!(p, '(' | '[' | '—' | '–'));
            let spaces = chars[i + 1..].iter().take_while(|c| is_space(**c)).count();
            let word = chars.get(i + 1 + spaces).is_some_and(|c| !c.is_whitespace());
            return (opens && word).then(|| (i + 1 + spaces, format!("{c}{space}")));
        }
        // Spaces (or none) before a mark that takes one.
        let spaces = chars[i..].iter().take_while(|c| is_space(**c)).count();
        if spaces > 0 && i > 0 && is_space(chars[i - 1]) {
            return None;
        }
        let mark_at = i + spaces;
        let mark = *chars.get(mark_at)?;
        let prev = masks.prev(chars, i)?;
        let next = masks.next(chars, mark_at);
        let after_word = prev.is_alphanumeric() || matches!(prev, ')' | ']' | '"' | '”' | '’' | '…' | '»' | '›');
        let takes_space = match mark {
            ';' | ':' => next.is_none_or(char::is_whitespace),
            '!' | '?' => next.is_none_or(|n| !n.is_alphanumeric()),
            '»' | '›' if guillemets => next.is_none_or(|n| !n.is_alphanumeric()),
            _ => false,
        };
        if !takes_space || !after_word || masks.is_tag(mark) {
            return None;
        }
        Some((mark_at + 1, format!("{space}{mark}")))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::tests::{Example, check_examples, rewrite};

    /// One example or more per mechanical option of this family.
    pub(in crate::mechanical) const EXAMPLES: &[Example] = &[
        (
            "formatting",
            "space_between_chinese_and_english",
            "do_not_use",
            "zh",
            "使用 API 接口和 https://x.cn 网站",
            "使用API接口和https://x.cn网站",
        ),
        (
            "formatting",
            "space_between_chinese_characters_and_arabic_numerals",
            "do_not_use",
            "zh",
            "共 5 个，于 2024-03-05 发布",
            "共5个，于2024-03-05发布",
        ),
        (
            "punctuation",
            "spacing_and_punctuation",
            "use_regular_space",
            "fr",
            "Quoi\u{202f}? Oui! Non : «oui» ; ah?!",
            "Quoi ? Oui ! Non : « oui » ; ah ?!",
        ),
        (
            "punctuation",
            "spacing_and_punctuation",
            "do_not_use_space",
            "fr",
            "Quoi ? Oui\u{202f}! Non : « oui » ; ah ?!",
            "Quoi? Oui! Non: «oui»; ah?!",
        ),
    ];

    #[test]
    fn examples_hold() {
        check_examples(EXAMPLES);
    }

    const REGULAR: (&str, &str, &str) = ("punctuation", "spacing_and_punctuation", "use_regular_space");

    #[test]
    fn colons_and_marks_that_are_not_sentence_punctuation_are_left_alone() {
        for text in ["à 10:30", "a:b", "ok :)", "Yahoo!Japan", "https://x.fr?a=1", "?! au début"] {
            assert_eq!(rewrite(&[REGULAR], "fr", text), text, "{text}");
        }
    }

    #[test]
    fn spaces_between_chinese_and_latin_go_even_around_tags() {
        let rule = ("formatting", "space_between_chinese_and_english", "do_not_use");
        assert_eq!(rewrite(&[rule], "zh", "使用 <g1>API</g1> 接口"), "使用<g1>API</g1>接口");
        assert_eq!(rewrite(&[rule], "zh", "hello world 你好"), "hello world你好");
    }

    #[test]
    fn german_guillemets_point_inwards_and_keep_their_spacing() {
        assert_eq!(rewrite(&[REGULAR], "de", "»ja« sagte er!"), "»ja« sagte er !");
    }
}
