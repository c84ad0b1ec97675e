//! Punctuation other than quotation marks: ranges, ellipses, dashes, colons, ampersands,
//! slashes, brackets, and Japanese periods and commas.
//!
//! * `range_indicator`: a range of two numbers (`10-20`, `10 – 20`, `10~20`) or two times
//!   (`9:00–17:00`) written with an en dash, a hyphen, a tilde, a full-width dash (`－`) or wave
//!   dash (`〜`), spaced or not, or with `to`, `bis`, `から`, `부터 … 까지`. A hyphen between
//!   numbers is read as a range only when the first is smaller and neither has a leading zero,
//!   not for three digits then four (`555-1234`, a telephone number), nor in a chain
//!   (`2024-03-05`, `978-3-16`); an en dash, tilde or wave dash is a range whatever the values.
//!   Ranges of words (`Monday–Friday`) are left alone. Not mechanical: `da … a`, `de … a`
//!   (the preposition goes before the range, where the text may already have one).
//! * `ellipsis`: `...`, `. . .`, `…`, `……`, `⋯` become the option's form. Three periods between
//!   two digits (`1...5`, a range in code) and four or more periods are left alone.
//! * `em_dash: use_double_em_dash`: a single em dash becomes two (`——`).
//! * `sentence_break_indicator`: a dash between words (an em dash, or an en dash or hyphen with
//!   spaces on both sides) becomes the option's dash; dashes between numbers, in words
//!   (`Paris–Berlin`, `well-known`) and opening a line of dialogue are left alone.
//! * `colon`: full-width `：` after Chinese or Japanese, half-width `:`; never between digits.
//! * `colon_between_hours_and_minutes_or_chapters_and_verses`: `10 : 30` → `10:30`.
//! * `ampersand_abbreviation_spacing`: `R & D` ↔ `R&D`, between capitals of one to three letters.
//! * `ampersand_usage`: full-width `＆` or half-width `&` (never in `&amp;`-style entities). Not
//!   mechanical: writing `and` or `und` instead (which ampersands belong to names is a matter of
//!   meaning).
//! * `slash: do_not_use_spaces_before_and_after_slashes`: `and / or` → `and/or`. The options that
//!   add spaces are not mechanical (`km/h`, `1/2` must stay closed).
//! * `periods_and_commas`: Japanese full-width periods (`。` or `．`) and commas (`、` or `，`);
//!   an ASCII period or comma after Japanese text becomes one too, and the space after it goes.
//! * `round_brackets`: full-width `（）` (spaces between them and Chinese or Japanese text are
//!   dropped) or half-width `()`.

use super::text::{Cursor, Lang, MaskKind, Masks, Text, is_cjk, is_han, is_kana, is_space, number_may_start, rewrite};
use crate::ConfiguredRules;

const CATEGORY: &str = "punctuation";

/// How a range is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Range {
    /// A sign between the ends (with its spaces).
    Between(&'static str),
    /// `10부터 20까지`.
    Korean,
}

fn range_indicator(option: &str) -> Option<Range> {
    use Range::*;
    Some(match option {
        "use_en_dash_with_spaces" => Between(" – "),
        "use_en_dash_without_space_on_either_side" | "use_en_dash_without_spaces" => Between("–"),
        "use_english_word_to" => Between(" to "),
        "use_full_width_dash" => Between("－"),
        "use_full_width_wave_dash" => Between("〜"),
        "use_german_word_bis" => Between(" bis "),
        "use_half_width_dash"
        | "use_hyphen"
        | "use_hyphen_without_space_on_either_side"
        | "use_hyphen_without_spaces" => Between("-"),
        "use_hyphen_with_space_on_either_side" | "use_hyphen_with_spaces" => Between(" - "),
        "use_japanese_word_から" => Between("から"),
        "use_korean_words_부터_까지" => Korean,
        "use_tilde" => Between("~"),
        _ => return None,
    })
}

fn ellipsis(option: &str) -> Option<&'static str> {
    Some(match option {
        "use_ellipsis_character" | "use_one_ellipsis_character" | "use_three_dots_at_the_bottom" => "…",
        "use_six_dots_at_the_bottom" | "use_two_ellipsis_characters" => "……",
        "use_six_dots_in_the_center" => "⋯⋯",
        "use_three_dots_in_the_center" => "⋯",
        "use_three_ellipsis_characters" => "………",
        "use_three_periods" | "use_three_periods_without_spaces" => "...",
        "use_three_spaced_periods" => ". . .",
        _ => return None,
    })
}

fn sentence_break(option: &str) -> Option<&'static str> {
    Some(match option {
        "use_em_dash_with_space_on_either_side" => " — ",
        "use_em_dash_without_space_on_either_side" => "—",
        "use_en_dash_with_space_on_either_side" => " – ",
        _ => return None,
    })
}

fn full_width(option: &str, full: &str, half: &str) -> Option<bool> {
    if option == full {
        Some(true)
    } else if option == half {
        Some(false)
    } else {
        None
    }
}

fn colon(option: &str) -> Option<bool> {
    full_width(option, "use_full_width_colon", "use_half_width_colon")
}

fn ampersand_spacing(option: &str) -> Option<bool> {
    full_width(
        option,
        "use_spaces_before_and_after_ampersand_as_part_of_abbreviation",
        "do_not_use_spaces_before_and_after_ampersand_as_part_of_abbreviation",
    )
}

fn ampersand_usage(option: &str) -> Option<bool> {
    full_width(option, "use_full_width_ampersand", "use_half_width_ampersand")
}

fn round_brackets(option: &str) -> Option<bool> {
    full_width(option, "use_full_width_round_brackets", "use_half_width_round_brackets")
}

/// The period and comma of a `periods_and_commas` option.
fn periods_and_commas(option: &str) -> Option<(char, char)> {
    Some(match option {
        "use_full_width_japanese_periods_and_full_width_japanese_commas" => ('。', '、'),
        "use_full_width_japanese_periods_and_full_width_non_japanese_commas" => ('。', '，'),
        "use_full_width_non_japanese_periods_and_full_width_japanese_commas" => ('．', '、'),
        "use_full_width_non_japanese_periods_and_full_width_non_japanese_commas" => ('．', '，'),
        _ => return None,
    })
}

/// Whether this family applies (category, rule, option).
pub(super) fn understands(category: &str, rule: &str, option: &str) -> bool {
    category == CATEGORY
        && match rule {
            "range_indicator" => range_indicator(option).is_some(),
            "ellipsis" => ellipsis(option).is_some(),
            "em_dash" => option == "use_double_em_dash",
            "sentence_break_indicator" => sentence_break(option).is_some(),
            "colon" => colon(option).is_some(),
            "colon_between_hours_and_minutes_or_chapters_and_verses" => {
                option == "do_not_use_space_before_or_after_colon"
            }
            "ampersand_abbreviation_spacing" => ampersand_spacing(option).is_some(),
            "ampersand_usage" => ampersand_usage(option).is_some(),
            "slash" => option == "do_not_use_spaces_before_and_after_slashes",
            "periods_and_commas" => periods_and_commas(option).is_some(),
            "round_brackets" => round_brackets(option).is_some(),
            _ => false,
        }
}

/// The punctuation rules of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Punctuation {
    range: Option<Range>,
    ellipsis: Option<&'static str>,
    double_em_dash: bool,
    sentence_break: Option<&'static str>,
    full_width_colon: Option<bool>,
    closed_colon: bool,
    ampersand_spaces: Option<bool>,
    full_width_ampersand: Option<bool>,
    closed_slash: bool,
    periods_and_commas: Option<(char, char)>,
    full_width_brackets: Option<bool>,
    lang: Lang,
}

type At = fn(&Punctuation, &Masks, &[char], usize) -> Option<(usize, String)>;

impl Punctuation {
    pub(super) fn new(rules: &ConfiguredRules, lang: Lang) -> Option<Punctuation> {
        let get = |rule| rules.get(CATEGORY, rule);
        let punctuation = Punctuation {
            range: get("range_indicator").and_then(range_indicator),
            ellipsis: get("ellipsis").and_then(ellipsis),
            double_em_dash: get("em_dash") == Some("use_double_em_dash"),
            sentence_break: get("sentence_break_indicator").and_then(sentence_break),
            full_width_colon: get("colon").and_then(colon),
            closed_colon: get("colon_between_hours_and_minutes_or_chapters_and_verses")
                == Some("do_not_use_space_before_or_after_colon"),
            ampersand_spaces: get("ampersand_abbreviation_spacing").and_then(ampersand_spacing),
            full_width_ampersand: get("ampersand_usage").and_then(ampersand_usage),
            closed_slash: get("slash") == Some("do_not_use_spaces_before_and_after_slashes"),
            periods_and_commas: get("periods_and_commas").and_then(periods_and_commas),
            full_width_brackets: get("round_brackets").and_then(round_brackets),
            lang,
        };
        let any = punctuation.range.is_some()
            || punctuation.ellipsis.is_some()
            || punctuation.double_em_dash
            || punctuation.sentence_break.is_some()
            || punctuation.full_width_colon.is_some()
            || punctuation.closed_colon
            || punctuation.ampersand_spaces.is_some()
            || punctuation.full_width_ampersand.is_some()
            || punctuation.closed_slash
            || punctuation.periods_and_commas.is_some()
            || punctuation.full_width_brackets.is_some();
        any.then_some(punctuation)
    }

    /// What must happen before times are read: `10 : 30` → `10:30`.
    pub(super) fn apply_before_numbers(&self, text: &mut Text) {
        if self.closed_colon {
            rewrite(text, |masks, chars, i| self.closed_colon_at(masks, chars, i));
        }
    }

    /// Ranges, once dates and times are masked and before numbers are rewritten.
    pub(super) fn apply_ranges(&self, text: &mut Text) {
        if self.range.is_some() {
            rewrite(text, |masks, chars, i| self.range_at(masks, chars, i));
        }
    }

    pub(super) fn apply(&self, text: &mut Text) {
        let passes: [(bool, At); 9] = [
            (self.ellipsis.is_some(), Punctuation::ellipsis_at),
            (self.sentence_break.is_some(), Punctuation::sentence_break_at),
            (self.double_em_dash, Punctuation::em_dash_at),
            (self.full_width_colon.is_some(), Punctuation::colon_at),
            (self.ampersand_spaces.is_some(), Punctuation::ampersand_spacing_at),
            (self.full_width_ampersand.is_some(), Punctuation::ampersand_width_at),
            (self.closed_slash, Punctuation::slash_at),
            (self.periods_and_commas.is_some(), Punctuation::periods_and_commas_at),
            (self.full_width_brackets.is_some(), Punctuation::brackets_at),
        ];
        for (enabled, at) in passes {
            if enabled {
                rewrite(text, |masks, chars, i| at(self, masks, chars, i));
            }
        }
    }

    /// `10 : 30` → `10:30`.
    fn closed_colon_at(&self, _masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        if !chars[i].is_ascii_digit() {
            return None;
        }
        let mut cursor = Cursor::new(chars, i + 1);
        let before = cursor.eat_spaces();
        let colon = cursor.peek().filter(|c| matches!(c, ':' | '：'))?;
        cursor.pos += 1;
        let after = cursor.eat_spaces();
        let digit = cursor.peek().filter(char::is_ascii_digit)?;
        (before + after > 0).then(|| (cursor.pos + 1, format!("{}{colon}{digit}", chars[i])))
    }

    /// A range of two numbers or two times at `i`.
    fn range_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let range = self.range?;
        let (first_end, first) = range_end(masks, chars, i)?;
        let mut cursor = Cursor::new(chars, first_end);
        let spaces_before = cursor.eat_spaces();
        let sign = cursor.peek()?;
        if !matches!(sign, '-' | '–' | '~' | '〜' | '～' | '－') {
            return None;
        }
        cursor.pos += 1;
        let spaces_after = cursor.eat_spaces();
        if spaces_before > 1 || spaces_after > 1 {
            return None;
        }
        let second_start = cursor.pos;
        let (second_end, second) = range_operand(masks, chars, second_start)?;
        let next = chars.get(second_end).copied();
        let after = chars.get(second_end + 1).copied();
        let ends = next.is_none_or(|c| !(c.is_ascii_digit() || c == '_'))
            && !(next.is_some_and(|c| matches!(c, '.' | ',' | ':' | '/' | '-' | '–'))
                && after.is_some_and(|c| c.is_ascii_digit()));
        if !ends {
            return None;
        }
        match (first, second) {
            (Operand::Time, Operand::Time) => {}
            (Operand::Number(low, low_digits), Operand::Number(high, high_digits)) => {
                if sign == '-' && (spaces_before != spaces_after || low >= high || low_digits == 3 && high_digits == 4)
                {
                    return None;
                }
            }
            _ => return None,
        }
        // `10부터 20까지` cannot take a counter after it (`10~20쪽`).
        if range == Range::Korean && next.is_some_and(char::is_alphanumeric) {
            return None;
        }
        let low: String = chars[i..first_end].iter().collect();
        let high: String = chars[second_start..second_end].iter().collect();
        let out = match range {
            Range::Between(sign) => format!("{low}{sign}{high}"),
            Range::Korean => format!("{low}부터 {high}까지"),
        };
        Some((second_end, out))
    }

    /// `...` → `…` and the like.
    fn ellipsis_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let target = self.ellipsis?;
        let c = chars[i];
        let prev = masks.prev(chars, i);
        let end = match c {
            '…' | '⋯' => {
                let run = chars[i..].iter().take_while(|&&d| d == c).count();
                let most = if c == '…' { 3 } else { 2 };
                if prev == Some(c) || run > most {
                    return None;
                }
                i + run
            }
            '.' => {
                let dots = chars[i..].iter().take_while(|&&d| d == '.').count();
                let spaced = chars[i..].starts_with(&['.', ' ', '.', ' ', '.']);
                let end = if dots == 3 {
                    i + 3
                } else if dots == 1 && spaced && !chars[i + 5..].starts_with(&[' ', '.']) {
                    i + 5
                } else {
                    return None;
                };
                if prev == Some('.') || chars.get(end) == Some(&'.') {
                    return None;
                }
                // `1...5`: a range in code, not an ellipsis.
                let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
                if dots == 3 && digit(prev) && digit(chars.get(end).map(|&c| masks.resolve(c))) {
                    return None;
                }
                end
            }
            _ => return None,
        };
        Some((end, target.to_owned()))
    }

    /// A dash between words, as the list writes a break in a sentence.
    fn sentence_break_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let target = self.sentence_break?;
        let mut cursor = Cursor::new(chars, i);
        let space_before = cursor.eat_space();
        let dash = cursor.peek()?;
        if !matches!(dash, '—' | '–' | '-') || space_before && i > 0 && is_space(chars[i - 1]) {
            return None;
        }
        let dash_at = cursor.pos;
        cursor.pos += 1;
        let space_after = cursor.eat_space();
        if cursor.peek().is_some_and(is_space)
            || chars.get(dash_at + 1) == Some(&dash)
            || dash_at > 0 && chars[dash_at - 1] == dash
        {
            return None;
        }
        // En dashes and hyphens break a sentence only with spaces on both sides.
        if dash != '—' && !(space_before && space_after) {
            return None;
        }
        let before = masks.prev(chars, if space_before { i } else { dash_at });
        let after = masks.next(chars, cursor.pos.saturating_sub(1));
        let ends_word = before.is_some_and(|c| {
            c.is_alphanumeric() || matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | ')' | '"' | '”' | '’' | '»' | '…')
        });
        let starts_word = after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '(' | '"' | '“' | '‘' | '«' | '„'));
        let digits = before.is_some_and(|c| c.is_ascii_digit()) && after.is_some_and(|c| c.is_ascii_digit());
        if !ends_word || !starts_word || digits {
            return None;
        }
        // Without a space before it, the dash starts here; with one, the space does.
        Some((cursor.pos, target.to_owned()))
    }

    /// `—` → `——`.
    fn em_dash_at(&self, _masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let run = chars[i..].iter().take_while(|&&c| c == '—').count();
        (run == 1 && (i == 0 || chars[i - 1] != '—')).then(|| (i + 1, "——".to_owned()))
    }

    /// `:` ↔ `：`.
    fn colon_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let full = self.full_width_colon?;
        match (chars[i], full) {
            (':', true) => {
                let prev = masks.prev(chars, i)?;
                let next = masks.next(chars, i);
                if !(is_han(prev) || is_kana(prev)) || next.is_some_and(|c| c.is_ascii_digit()) {
                    return None;
                }
                // A space after a half-width colon has no place after a full-width one.
                let mut end = i + 1;
                if chars.get(end).is_some_and(|c| is_space(*c))
                    && chars.get(end + 1).is_some_and(|c| !c.is_whitespace())
                {
                    end += 1;
                }
                Some((end, "：".to_owned()))
            }
            ('：', false) => Some((i + 1, ":".to_owned())),
            _ => None,
        }
    }

    /// `R & D` ↔ `R&D`.
    fn ampersand_spacing_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let spaced = self.ampersand_spaces?;
        let capitals = |from: usize| chars[from..].iter().take_while(|c| c.is_ascii_uppercase()).count();
        if !chars[i].is_ascii_uppercase() || masks.prev(chars, i).is_some_and(|c| c.is_alphanumeric()) {
            return None;
        }
        let left = capitals(i);
        let mut cursor = Cursor::new(chars, i + left);
        let before = cursor.eat_space();
        if !cursor.eat('&') || is_entity(chars, cursor.pos - 1) {
            return None;
        }
        let after = cursor.eat_space();
        let right_start = cursor.pos;
        let right = capitals(right_start);
        let end = right_start + right;
        let boundary = chars.get(end).is_none_or(|c| !c.is_alphanumeric());
        if !(1..=3).contains(&left) || !(1..=3).contains(&right) || !boundary || before != after {
            return None;
        }
        let left: String = chars[i..i + left].iter().collect();
        let right: String = chars[right_start..end].iter().collect();
        let sign = if spaced { " & " } else { "&" };
        Some((end, format!("{left}{sign}{right}")))
    }

    /// `&` ↔ `＆`.
    fn ampersand_width_at(&self, _masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        match (chars[i], self.full_width_ampersand?) {
            ('&', true) if !is_entity(chars, i) => Some((i + 1, "＆".to_owned())),
            ('＆', false) => Some((i + 1, "&".to_owned())),
            _ => None,
        }
    }

    /// `and / or` → `and/or`.
    fn slash_at(&self, _masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        if !chars[i].is_alphanumeric() || !chars[i + 1..].starts_with(&[' ', '/', ' ']) {
            return None;
        }
        let next = chars.get(i + 4)?;
        (!next.is_whitespace() && *next != '/').then(|| (i + 4, format!("{}/", chars[i])))
    }

    /// Japanese periods and commas.
    fn periods_and_commas_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let (period, comma) = self.periods_and_commas?;
        let c = chars[i];
        let target = match c {
            '。' | '．' | '｡' => period,
            '、' | '，' | '､' => comma,
            '.' | ',' => {
                let japanese = masks.prev(chars, i).is_some_and(|p| is_han(p) || is_kana(p));
                let next = masks.next(chars, i);
                if !japanese || next.is_some_and(|n| !(n.is_whitespace() || is_cjk(n))) {
                    return None;
                }
                // Full-width marks take no space after them.
                let mut end = i + 1;
                if chars.get(end).is_some_and(|c| is_space(*c))
                    && chars.get(end + 1).is_some_and(|c| !c.is_whitespace())
                {
                    end += 1;
                }
                return Some((end, if c == '.' { period } else { comma }.to_string()));
            }
            _ => return None,
        };
        (target != c).then(|| (i + 1, target.to_string()))
    }

    /// `(` ↔ `（`.
    fn brackets_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let full = self.full_width_brackets?;
        let c = chars[i];
        if !full {
            return match c {
                '（' => Some((i + 1, "(".to_owned())),
                '）' => Some((i + 1, ")".to_owned())),
                _ => None,
            };
        }
        // A space between CJK text and a bracket goes with the bracket.
        if is_space(c) {
            let prev = masks.prev(chars, i);
            let next = chars.get(i + 1).copied();
            return match next {
                Some('(') if prev.is_some_and(is_cjk) => Some((i + 2, "（".to_owned())),
                _ => None,
            };
        }
        match c {
            '(' => Some((i + 1, "（".to_owned())),
            ')' => {
                let mut end = i + 1;
                if chars.get(end).is_some_and(|c| is_space(*c)) && masks.next(chars, end).is_some_and(is_cjk) {
                    end += 1;
                }
                Some((end, "）".to_owned()))
            }
            _ => None,
        }
    }
}

/// Whether the `&` at `i` starts an entity (`&amp;`, `&#38;`, `&#x26;`).
fn is_entity(chars: &[char], i: usize) -> bool {
    let rest = &chars[i + 1..];
    let name = if rest.first() == Some(&'#') {
        1 + rest[1..].iter().take_while(|c| c.is_ascii_alphanumeric()).count()
    } else {
        rest.iter().take_while(|c| c.is_ascii_alphanumeric()).count()
    };
    name >= 2 && rest.get(name) == Some(&';')
}

/// One end of a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operand {
    /// A number and how many digits it has.
    Number(u32, usize),
    Time,
}

/// The first end of a range at `i`.
fn range_end(masks: &Masks, chars: &[char], i: usize) -> Option<(usize, Operand)> {
    if !number_may_start(masks, chars, i) {
        return None;
    }
    range_operand(masks, chars, i)
}

/// A number of one to four digits without a leading zero, or a time, at `i`.
fn range_operand(masks: &Masks, chars: &[char], i: usize) -> Option<(usize, Operand)> {
    let c = *chars.get(i)?;
    if masks.kind(c) == Some(MaskKind::Time) {
        return Some((i + 1, Operand::Time));
    }
    let mut cursor = Cursor::new(chars, i);
    let digits = cursor.digits(1, 4)?;
    if digits.len > 1 && c == '0' {
        return None;
    }
    Some((cursor.pos, Operand::Number(digits.value, digits.len)))
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::tests::{Example, check_examples, rewrite};

    const RANGE: &str = "range_indicator";

    /// One example or more per mechanical option of this family.
    pub(in crate::mechanical) const EXAMPLES: &[Example] = &[
        (
            "punctuation",
            RANGE,
            "use_en_dash_with_spaces",
            "en",
            "pages 10-20 and 9:00–17:00",
            "pages 10 – 20 and 9:00 – 17:00",
        ),
        ("punctuation", RANGE, "use_en_dash_without_space_on_either_side", "en", "pages 10 - 20", "pages 10–20"),
        (
            "punctuation",
            RANGE,
            "use_en_dash_without_spaces",
            "de",
            "Seiten 10-20, 1990-2000",
            "Seiten 10–20, 1990–2000",
        ),
        ("punctuation", RANGE, "use_english_word_to", "en", "pages 10–20", "pages 10 to 20"),
        ("punctuation", RANGE, "use_full_width_dash", "ja", "10〜20ページ", "10－20ページ"),
        (
            "punctuation",
            RANGE,
            "use_full_width_wave_dash",
            "ja",
            "10-20ページ、9:00～17:00",
            "10〜20ページ、9:00〜17:00",
        ),
        ("punctuation", RANGE, "use_german_word_bis", "de", "von 9:00–17:00 Uhr", "von 9:00 bis 17:00 Uhr"),
        ("punctuation", RANGE, "use_half_width_dash", "ja", "10〜20", "10-20"),
        ("punctuation", RANGE, "use_hyphen", "en", "10–20", "10-20"),
        ("punctuation", RANGE, "use_hyphen_with_space_on_either_side", "it", "10–20", "10 - 20"),
        ("punctuation", RANGE, "use_hyphen_with_spaces", "es", "10–20", "10 - 20"),
        ("punctuation", RANGE, "use_hyphen_without_space_on_either_side", "fr", "10 – 20", "10-20"),
        ("punctuation", RANGE, "use_hyphen_without_spaces", "de", "10 – 20", "10-20"),
        ("punctuation", RANGE, "use_japanese_word_から", "ja", "10-20ページ", "10から20ページ"),
        ("punctuation", RANGE, "use_korean_words_부터_까지", "ko", "10~20, 30-40쪽", "10부터 20까지, 30-40쪽"),
        ("punctuation", RANGE, "use_tilde", "ko", "10-20", "10~20"),
        ("punctuation", "ellipsis", "use_ellipsis_character", "en", "Wait... what. . . ok", "Wait… what… ok"),
        ("punctuation", "ellipsis", "use_one_ellipsis_character", "zh", "等等……好", "等等…好"),
        ("punctuation", "ellipsis", "use_six_dots_at_the_bottom", "zh", "等等…好...", "等等……好……"),
        ("punctuation", "ellipsis", "use_six_dots_in_the_center", "zh", "等等……好", "等等⋯⋯好"),
        ("punctuation", "ellipsis", "use_three_dots_at_the_bottom", "ja", "待って⋯", "待って…"),
        ("punctuation", "ellipsis", "use_three_dots_in_the_center", "ja", "待って…", "待って⋯"),
        ("punctuation", "ellipsis", "use_three_ellipsis_characters", "ja", "待って…", "待って………"),
        ("punctuation", "ellipsis", "use_three_periods", "en", "Wait… what", "Wait... what"),
        ("punctuation", "ellipsis", "use_three_periods_without_spaces", "en", "Wait. . . what", "Wait... what"),
        ("punctuation", "ellipsis", "use_three_spaced_periods", "en", "Wait... what…", "Wait. . . what. . ."),
        ("punctuation", "ellipsis", "use_two_ellipsis_characters", "ja", "待って...", "待って……"),
        ("punctuation", "em_dash", "use_double_em_dash", "zh", "他说—我们走吧", "他说——我们走吧"),
        (
            "punctuation",
            "sentence_break_indicator",
            "use_em_dash_with_space_on_either_side",
            "en",
            "It was late—very late - and cold.",
            "It was late — very late — and cold.",
        ),
        (
            "punctuation",
            "sentence_break_indicator",
            "use_em_dash_without_space_on_either_side",
            "en",
            "It was late – very late — and cold.",
            "It was late—very late—and cold.",
        ),
        (
            "punctuation",
            "sentence_break_indicator",
            "use_en_dash_with_space_on_either_side",
            "de",
            "Es war spät—sehr spät - und kalt.",
            "Es war spät – sehr spät – und kalt.",
        ),
        ("punctuation", "colon", "use_full_width_colon", "zh", "注意: 请在10:30前到达", "注意：请在10:30前到达"),
        ("punctuation", "colon", "use_half_width_colon", "ja", "注意：明日", "注意:明日"),
        (
            "punctuation",
            "colon_between_hours_and_minutes_or_chapters_and_verses",
            "do_not_use_space_before_or_after_colon",
            "en",
            "at 10 : 30, John 3 :16",
            "at 10:30, John 3:16",
        ),
        (
            "punctuation",
            "ampersand_abbreviation_spacing",
            "do_not_use_spaces_before_and_after_ampersand_as_part_of_abbreviation",
            "en",
            "R & D and Q & A, Tom & Jerry",
            "R&D and Q&A, Tom & Jerry",
        ),
        (
            "punctuation",
            "ampersand_abbreviation_spacing",
            "use_spaces_before_and_after_ampersand_as_part_of_abbreviation",
            "en",
            "R&D and AT&T",
            "R & D and AT & T",
        ),
        ("punctuation", "ampersand_usage", "use_full_width_ampersand", "ja", "研究&開発、&amp;", "研究＆開発、&amp;"),
        ("punctuation", "ampersand_usage", "use_half_width_ampersand", "ja", "研究＆開発", "研究&開発"),
        ("punctuation", "slash", "do_not_use_spaces_before_and_after_slashes", "en", "and / or, km/h", "and/or, km/h"),
        (
            "punctuation",
            "periods_and_commas",
            "use_full_width_japanese_periods_and_full_width_japanese_commas",
            "ja",
            "今日は，晴れです．明日, 雨です.",
            "今日は、晴れです。明日、雨です。",
        ),
        (
            "punctuation",
            "periods_and_commas",
            "use_full_width_japanese_periods_and_full_width_non_japanese_commas",
            "ja",
            "今日は、晴れです．",
            "今日は，晴れです。",
        ),
        (
            "punctuation",
            "periods_and_commas",
            "use_full_width_non_japanese_periods_and_full_width_japanese_commas",
            "ja",
            "今日は，晴れです。",
            "今日は、晴れです．",
        ),
        (
            "punctuation",
            "periods_and_commas",
            "use_full_width_non_japanese_periods_and_full_width_non_japanese_commas",
            "ja",
            "今日は、晴れです。",
            "今日は，晴れです．",
        ),
        (
            "punctuation",
            "round_brackets",
            "use_full_width_round_brackets",
            "ja",
            "東京 (日本) です",
            "東京（日本）です",
        ),
        ("punctuation", "round_brackets", "use_half_width_round_brackets", "zh", "东京（日本）", "东京(日本)"),
    ];

    #[test]
    fn examples_hold() {
        check_examples(EXAMPLES);
    }

    const EN_DASH: (&str, &str, &str) = ("punctuation", "range_indicator", "use_en_dash_without_spaces");

    #[test]
    fn hyphens_that_may_not_be_ranges_are_left_alone() {
        for text in [
            "555-1234",
            "2024-03-05",
            "978-3-16-148410-0",
            "a score of 3-1",
            "20-10",
            "COVID-19",
            "A4-5",
            "05-10",
            "1.5-2.5",
            "10 -20",
            "Monday-Friday",
        ] {
            assert_eq!(rewrite(&[EN_DASH], "en", text), text, "{text}");
        }
    }

    #[test]
    fn an_explicit_range_sign_is_a_range_whatever_the_values() {
        assert_eq!(rewrite(&[EN_DASH], "en", "20 ~ 10"), "20–10");
    }

    #[test]
    fn ellipses_in_code_and_longer_runs_of_periods_are_left_alone() {
        let rule = ("punctuation", "ellipsis", "use_ellipsis_character");
        for text in ["1...5", "wait....", "../dir", "x..y"] {
            assert_eq!(rewrite(&[rule], "en", text), text, "{text}");
        }
    }

    #[test]
    fn dashes_in_words_and_at_line_starts_are_not_breaks() {
        let rule = ("punctuation", "sentence_break_indicator", "use_em_dash_with_space_on_either_side");
        for text in ["well-known", "Paris–Berlin", "—Hola, dijo.", "10 – 20", "a — — b"] {
            assert_eq!(rewrite(&[rule], "en", text), text, "{text}");
        }
    }
}
