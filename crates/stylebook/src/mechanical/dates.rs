//! Dates: `dates_and_times.date_format`, `dates_in_numerical_form`, `writing_dates`,
//! `single_digit_days_and_months`.
//!
//! # What is recognised
//!
//! Only whole dates with a four-digit year (1000–2999) that exist in the calendar:
//!
//! * numeric, year first: `2024-03-05`, `2024/3/5`, `2024.03.05`, `2024. 3. 5.`;
//! * numeric, year last: `5.3.2024`, `05. 03. 2024`, `5/3/2024`, `05-03-2024`;
//! * Chinese and Japanese `2024年3月5日`, Korean `2024년 3월 5일`;
//! * with a month name of the list's language: `5 March 2024`, `March 5, 2024`,
//!   `5. März 2024` (also the German abbreviations `5. Mrz. 2024`, `5. Sept. 2024`),
//!   `5 de marzo de 2024`, `1er mars 2024`, `5 marzo 2024`.
//!
//! A date is not read inside a word, a version number or a longer run of numbers
//! (`1.2.2024.5`, `v5.3.2024`), nor when a letter follows it (`2024-03-05T10:00`).
//!
//! # Heuristics
//!
//! A year-last date with dots is day first in every language. One with slashes or hyphens is day
//! first in German, Spanish, French and Italian lists; in the others it may be either (`3/5/2024`
//! is 3 May or 5 March) unless a number above 12 decides. The date is rewritten only if every
//! reading gives the same result (changing only leading zeros, say), else left as it is.
//!
//! Two-digit years are never read (`5.3.24` may be a version number); a format with a two-digit
//! year only writes them.
//!
//! # Formats
//!
//! `date_format` and `writing_dates` rewrite every date recognised; `dates_in_numerical_form`
//! only numeric ones (and loses to `date_format` when both are set). A format that does not
//! say whether days and months take a leading zero follows `single_digit_days_and_months`, or
//! else keeps the zeros as written. `single_digit_days_and_months` alone only adds or removes
//! the zeros of numeric dates.
//!
//! Month names come from the list's language (German, English, Spanish, French, Italian), or
//! from the option when it names them (the German abbreviations, Spanish `septiembre` or
//! `setiembre`); Spanish dates take `de` (`5 de marzo de 2024`), and French writes the first
//! day of a month `1er`. In a Chinese, Japanese or Korean list, an option that needs month
//! names of the list's language is not mechanical ([`available_in`]).
//!
//! Not mechanical: the era and traditional-calendar formats, and `use_numerals_only_…`,
//! `writing_dates: use_numerals`, which do not say which separator to use.

use super::text::{Cursor, Digits, Lang, MaskKind, Masks, Text, is_letter, number_may_end, number_may_start};
use crate::ConfiguredRules;

const CATEGORY: &str = "dates_and_times";

/// Whether days and months take a leading zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Zeros {
    Pad,
    NoPad,
    Keep,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Dmy,
    Mdy,
    Ymd,
}

/// Where month names come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Months {
    /// The list's language.
    Lang,
    Table(&'static [&'static str; 12]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spelled {
    /// `5 March 2024`, `5 de marzo de 2024`.
    DayMonth,
    /// `5. März 2024`.
    DayDotMonth,
    /// `March 5, 2024`.
    MonthDay,
}

/// How a date is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Numeric {
        order: Order,
        sep: &'static str,
        short_year: bool,
    },
    /// `2024. 3. 5.`
    KoreanNumeric,
    /// `2024年3月5日`
    Chinese,
    /// `二〇二四年三月五日`
    ChineseNumerals,
    /// `2024년 3월 5일`
    Korean,
    Spelled {
        form: Spelled,
        months: Months,
    },
    /// As written: only the leading zeros change.
    Same,
}

/// What an option asks for: a layout, and leading zeros if it says.
type Spec = (Layout, Option<Zeros>);

const fn numeric(order: Order, sep: &'static str) -> Layout {
    Layout::Numeric { order, sep, short_year: false }
}

const fn spelled(form: Spelled, months: Months) -> Layout {
    Layout::Spelled { form, months }
}

fn date_format(option: &str) -> Option<Spec> {
    use Order::*;
    use Spelled::*;
    let pad = Some(Zeros::Pad);
    let no_pad = Some(Zeros::NoPad);
    Some(match option {
        "use_dd_period_mm_period_yy_with_leading_zeros_for_single_digit_days_and_months" => {
            (Layout::Numeric { order: Dmy, sep: ".", short_year: true }, pad)
        }
        "use_dd_period_mm_period_yyyy" => (numeric(Dmy, "."), None),
        "use_dd_period_mm_period_yyyy_with_leading_zeros_for_single_digit_days_and_months" => (numeric(Dmy, "."), pad),
        "use_dd_period_space_abbreviated_month_yyyy_with_abbreviations_jan_period_feb_period_mrz_period_apr_period_mai_jun_period_jul_period_aug_period_sep_period_okt_period_nov_period_dez_period_without_leading_zeros_for_single_digit_days" => {
            (spelled(DayDotMonth, Months::Table(&GERMAN_SHORT)), no_pad)
        }
        "use_dd_period_space_abbreviated_month_yyyy_with_abbreviations_jan_period_febr_period_maerz_apr_period_mai_juni_juli_aug_period_sept_period_okt_period_nov_period_dez_period_without_leading_zeros_for_single_digit_days" => {
            (spelled(DayDotMonth, Months::Table(&GERMAN_SHORT_LONGER)), no_pad)
        }
        "use_dd_period_space_month_yyyy_without_leading_zeros_for_single_digit_days" => {
            (spelled(DayDotMonth, Months::Lang), no_pad)
        }
        "use_dd_slash_mm_slash_yyyy" => (numeric(Dmy, "/"), None),
        "use_dd_slash_mm_slash_yyyy_with_leading_zeros_for_single_digit_days_and_months" => (numeric(Dmy, "/"), pad),
        "use_dd_space_spelled_out_month_space_yyyy" => (spelled(DayMonth, Months::Lang), None),
        "use_dd_space_spelled_out_month_space_yyyy_and_use_spanish_word_septiembre_for_ninth_month" => {
            (spelled(DayMonth, Months::Table(&SPANISH)), None)
        }
        "use_dd_space_spelled_out_month_space_yyyy_and_use_spanish_word_setiembre_for_ninth_month" => {
            (spelled(DayMonth, Months::Table(&SPANISH_SETIEMBRE)), None)
        }
        "use_dd_space_spelled_out_month_space_yyyy_without_leading_zeros_for_single_digit_days" => {
            (spelled(DayMonth, Months::Lang), no_pad)
        }
        "use_mm_slash_dd_slash_yyyy_with_leading_zeros_for_single_digit_days_and_months" => (numeric(Mdy, "/"), pad),
        "use_spelled_out_month_space_dd_comma_space_yyyy_and_use_spanish_word_septiembre_for_ninth_month" => {
            (spelled(MonthDay, Months::Table(&SPANISH)), None)
        }
        "use_spelled_out_month_space_dd_comma_space_yyyy_without_leading_zeros_for_single_digit_days" => {
            (spelled(MonthDay, Months::Lang), no_pad)
        }
        "use_yyyy_chinese_word_年_mm_chinese_word_月_dd_chinese_word_日_with_chinese_numbers" => {
            (Layout::ChineseNumerals, no_pad)
        }
        "use_yyyy_chinese_word_年_mm_chinese_word_月_dd_chinese_word_日_without_leading_zero_for_single_digit_months_and_days" => {
            (Layout::Chinese, no_pad)
        }
        "use_yyyy_hyphen_mm_hyphen_dd_with_leading_zero_for_single_digit_days_and_months"
        | "use_yyyy_hyphen_mm_hyphen_dd_with_leading_zeros_for_single_digit_days_and_months" => {
            (numeric(Ymd, "-"), pad)
        }
        "use_yyyy_korean word_년_space_mm_korean word_월_space_dd_korean word_일_without_leading_zero_for_single_digit_days_and_months" => {
            (Layout::Korean, no_pad)
        }
        "use_yyyy_period_mm_period_dd" => (numeric(Ymd, "."), None),
        "use_yyyy_period_space_mm_period_space_dd_period_space_without_leading_zero_for_single_digit_days_and_months" => {
            (Layout::KoreanNumeric, no_pad)
        }
        "use_yyyy_slash_mm_slash_dd" => (numeric(Ymd, "/"), None),
        "use_yyyy_slash_mm_slash_dd_with_leading_zero_for_single_digit_days_and_months" => (numeric(Ymd, "/"), pad),
        _ => return None,
    })
}

fn numerical_form(option: &str) -> Option<Spec> {
    Some(match option {
        "use_dd_hyphen_mm_hyphen_yyyy" => (numeric(Order::Dmy, "-"), None),
        "use_dd_period_mm_period_yyyy" => (numeric(Order::Dmy, "."), None),
        "use_dd_slash_mm_slash_yyyy" => (numeric(Order::Dmy, "/"), None),
        _ => return None,
    })
}

fn writing_dates(option: &str) -> Option<Spec> {
    match option {
        "use_dd_space_spelled_out_month_space_yyyy" => Some((spelled(Spelled::DayMonth, Months::Lang), None)),
        _ => None,
    }
}

fn single_digit(option: &str) -> Option<Zeros> {
    match option {
        "use_leading_zero" => Some(Zeros::Pad),
        "do_not_use_leading_zero" => Some(Zeros::NoPad),
        _ => None,
    }
}

/// The spec of a date rule's option, if it is one of this family's.
fn spec(rule: &str, option: &str) -> Option<Spec> {
    match rule {
        "date_format" => date_format(option),
        "dates_in_numerical_form" => numerical_form(option),
        "writing_dates" => writing_dates(option),
        _ => None,
    }
}

/// Whether this family applies (category, rule, option).
pub(super) fn understands(category: &str, rule: &str, option: &str) -> bool {
    category == CATEGORY
        && (spec(rule, option).is_some() || rule == "single_digit_days_and_months" && single_digit(option).is_some())
}

/// Whether a mechanical option works in a list for `lang`: the options that need the list's
/// month names do not in languages without them.
pub(super) fn available_in(category: &str, rule: &str, option: &str, lang: Lang) -> bool {
    match spec(rule, option) {
        Some((Layout::Spelled { months: Months::Lang, .. }, _)) if category == CATEGORY => month_names(lang).is_some(),
        _ => true,
    }
}

const ENGLISH: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const GERMAN: [&str; 12] = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
];
/// The abbreviations `jan. feb. mrz. apr. mai jun. jul. aug. sep. okt. nov. dez.`
const GERMAN_SHORT: [&str; 12] =
    ["Jan.", "Feb.", "Mrz.", "Apr.", "Mai", "Jun.", "Jul.", "Aug.", "Sep.", "Okt.", "Nov.", "Dez."];
/// The abbreviations `jan. febr. märz apr. mai juni juli aug. sept. okt. nov. dez.`
const GERMAN_SHORT_LONGER: [&str; 12] =
    ["Jan.", "Febr.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."];
const SPANISH: [&str; 12] = [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
];
const SPANISH_SETIEMBRE: [&str; 12] = [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "setiembre",
    "octubre",
    "noviembre",
    "diciembre",
];
const FRENCH: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];
const ITALIAN: [&str; 12] = [
    "gennaio",
    "febbraio",
    "marzo",
    "aprile",
    "maggio",
    "giugno",
    "luglio",
    "agosto",
    "settembre",
    "ottobre",
    "novembre",
    "dicembre",
];

fn month_names(lang: Lang) -> Option<&'static [&'static str; 12]> {
    match lang {
        Lang::De => Some(&GERMAN),
        Lang::En => Some(&ENGLISH),
        Lang::Es => Some(&SPANISH),
        Lang::Fr => Some(&FRENCH),
        Lang::It => Some(&ITALIAN),
        Lang::Ja | Lang::Ko | Lang::Zh | Lang::Other => None,
    }
}

/// The month names a list in `lang` may already use.
fn known_months(lang: Lang) -> &'static [&'static [&'static str; 12]] {
    match lang {
        Lang::De => &[&GERMAN, &GERMAN_SHORT, &GERMAN_SHORT_LONGER],
        Lang::En => &[&ENGLISH],
        Lang::Es => &[&SPANISH, &SPANISH_SETIEMBRE],
        Lang::Fr => &[&FRENCH],
        Lang::It => &[&ITALIAN],
        Lang::Ja | Lang::Ko | Lang::Zh | Lang::Other => &[],
    }
}

/// The date format of a list, resolved for its language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Dates {
    layout: Resolved,
    zeros: Zeros,
    /// Only numeric dates are rewritten.
    numeric_only: bool,
    /// Month names recognised in the input.
    months: Vec<&'static [&'static str; 12]>,
    lang: Lang,
}

/// A layout with its month names chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resolved {
    Layout(Layout),
    Spelled { form: Spelled, names: &'static [&'static str; 12] },
}

impl Dates {
    pub(super) fn new(rules: &ConfiguredRules, lang: Lang) -> Option<Dates> {
        let single = rules.get(CATEGORY, "single_digit_days_and_months").and_then(single_digit);
        let chosen = [("date_format", false), ("writing_dates", false), ("dates_in_numerical_form", true)]
            .into_iter()
            .find_map(|(rule, numeric_only)| Some((spec(rule, rules.get(CATEGORY, rule)?)?, numeric_only)));
        let ((layout, zeros), numeric_only) = match chosen {
            Some(chosen) => chosen,
            None => ((Layout::Same, None), true),
        };
        let (layout, zeros) = match layout {
            Layout::Spelled { form, months } => {
                let names = match months {
                    Months::Lang => month_names(lang)?,
                    Months::Table(names) => names,
                };
                (Resolved::Spelled { form, names }, zeros.unwrap_or(Zeros::NoPad))
            }
            Layout::Same => (Resolved::Layout(Layout::Same), single?),
            layout => (Resolved::Layout(layout), zeros.or(single).unwrap_or(Zeros::Keep)),
        };
        let mut months = known_months(lang).to_vec();
        if let Resolved::Spelled { names, .. } = layout
            && !months.contains(&names)
        {
            months.push(names);
        }
        Some(Dates { layout, zeros, numeric_only, months, lang })
    }
}

/// One reading of a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ymd {
    year: u32,
    month: u32,
    day: u32,
    month_padded: bool,
    day_padded: bool,
}

/// A date found in a text.
#[derive(Debug)]
struct Found {
    start: usize,
    end: usize,
    /// One reading, or two when the order of day and month is open.
    readings: Vec<Ymd>,
    /// For a numeric date, the positions (start, end) of its day and month numbers.
    numeric: Option<[(usize, usize); 2]>,
}

/// Recognises and masks every date; rewrites them if `dates` says how.
pub(super) fn apply(dates: Option<&Dates>, lang: Lang, text: &mut Text) -> Option<()> {
    let chars = std::mem::take(&mut text.chars);
    let no_months = Vec::new();
    let months = dates.map_or(&no_months, |dates| &dates.months);
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let found = if chars[i].is_ascii_digit() && number_may_start(&text.masks, &chars, i) {
            numeric_date(&chars, i, lang, dates.and_then(Dates::numeric_layout))
                .or_else(|| chinese_date(&chars, i))
                .or_else(|| day_first_date(&chars, i, months))
                .filter(|found| number_may_end(&text.masks, &chars, found.end))
        } else if is_letter(chars[i]) && text.masks.prev(&chars, i).is_none_or(|p| !p.is_alphanumeric()) {
            month_first_date(&chars, i, months).filter(|found| number_may_end(&text.masks, &chars, found.end))
        } else {
            None
        };
        let Some(found) = found else {
            out.push(chars[i]);
            i += 1;
            continue;
        };
        let original = || chars[i..found.end].iter().collect::<String>();
        let rewritten = match dates {
            Some(dates) if !dates.numeric_only || found.numeric.is_some() => {
                let at_start = sentence_starts_at(&text.masks, &chars, i);
                let next = chars.get(found.end).copied();
                let mut renderings = found.readings.iter().map(|ymd| dates.render(ymd, &found, &chars, at_start, next));
                let first = renderings.next().flatten();
                match first {
                    Some(first) if renderings.all(|other| other.as_ref() == Some(&first)) => first,
                    _ => original(),
                }
            }
            _ => original(),
        };
        out.push(text.masks.push(rewritten, MaskKind::Date)?);
        i = found.end;
    }
    text.chars = out;
    Some(())
}

/// Whether a sentence starts at `i`: nothing but spaces before it, or the end of a sentence.
fn sentence_starts_at(masks: &Masks, chars: &[char], i: usize) -> bool {
    let before = (0..i).rev().map(|j| chars[j]).find(|&c| !c.is_whitespace() && !masks.is_tag(c));
    before.is_none_or(|c| matches!(c, '.' | '!' | '?' | '¡' | '¿'))
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn valid(year: u32, month: u32, day: u32) -> bool {
    (1000..=2999).contains(&year) && (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
}

/// A separator between the numbers of a numeric date: `-`, `/`, `.` or `. `.
fn separator(cursor: &mut Cursor) -> Option<&'static str> {
    if cursor.eat('-') {
        Some("-")
    } else if cursor.eat('/') {
        Some("/")
    } else if cursor.eat('.') {
        Some(if cursor.eat(' ') { ". " } else { "." })
    } else {
        None
    }
}

impl Dates {
    /// The order and separator of a numeric format, if this is one.
    fn numeric_layout(&self) -> Option<(Order, &'static str)> {
        match self.layout {
            Resolved::Layout(Layout::Numeric { order, sep, short_year: false }) => Some((order, sep)),
            _ => None,
        }
    }
}

/// A numeric date at `i`: year first, or year last. A year-last date written with the
/// separator of the list's own numeric format (`written`) is read in that format's order if it
/// can be.
fn numeric_date(chars: &[char], i: usize, lang: Lang, written: Option<(Order, &str)>) -> Option<Found> {
    let mut cursor = Cursor::new(chars, i);
    let first = cursor.digits(1, 4)?;
    let first_end = cursor.pos;
    let sep = separator(&mut cursor)?;
    let second_start = cursor.pos;
    let second = cursor.digits(1, 2)?;
    let second_end = cursor.pos;
    if !cursor.eat_str(sep) {
        return None;
    }
    let third_start = cursor.pos;
    let third = cursor.digits(if first.len == 4 { 1 } else { 4 }, if first.len == 4 { 2 } else { 4 })?;
    let third_end = cursor.pos;
    if first.len == 4 {
        // Korean style ends with a period too.
        if sep == ". " {
            cursor.eat('.');
        }
        let ymd = reading(chars, (first, first_end), (second, second_end), (third, third_end))?;
        let numeric = Some([(second_start, second_end), (third_start, third_end)]);
        return Some(Found { start: i, end: cursor.pos, readings: vec![ymd], numeric });
    }
    if first.len > 2 {
        return None;
    }
    let year = (third, third_end);
    let day_first = reading(chars, year, (second, second_end), (first, first_end));
    let month_first = reading(chars, year, (first, first_end), (second, second_end));
    let day_first_only = sep.starts_with('.') || matches!(lang, Lang::De | Lang::Es | Lang::Fr | Lang::It);
    let mut readings: Vec<Ymd> = match written {
        Some((Order::Dmy, written)) if written == sep && day_first.is_some() => day_first.into_iter().collect(),
        Some((Order::Mdy, written)) if written == sep && month_first.is_some() => month_first.into_iter().collect(),
        _ => Vec::new(),
    };
    if readings.is_empty() {
        readings.extend(day_first);
        if !day_first_only {
            readings.extend(month_first.filter(|reading| Some(*reading) != day_first));
        }
    }
    // The positions of the two numbers that are not the year, whichever is the day.
    let numeric = Some([(i, first_end), (second_start, second_end)]);
    (!readings.is_empty()).then_some(Found { start: i, end: cursor.pos, readings, numeric })
}

fn reading(chars: &[char], year: (Digits, usize), month: (Digits, usize), day: (Digits, usize)) -> Option<Ymd> {
    let ymd = Ymd {
        year: year.0.value,
        month: month.0.value,
        day: day.0.value,
        month_padded: month.0.padded(chars, month.1),
        day_padded: day.0.padded(chars, day.1),
    };
    valid(ymd.year, ymd.month, ymd.day).then_some(ymd)
}

/// `2024年3月5日` or `2024년 3월 5일` at `i`.
fn chinese_date(chars: &[char], i: usize) -> Option<Found> {
    let mut cursor = Cursor::new(chars, i);
    let year = cursor.digits(4, 4)?;
    let year_end = cursor.pos;
    cursor.eat_spaces();
    let units = match cursor.peek()? {
        '年' => ['年', '月', '日'],
        '년' => ['년', '월', '일'],
        _ => return None,
    };
    cursor.pos += 1;
    cursor.eat_spaces();
    let month = cursor.digits(1, 2)?;
    let month_end = cursor.pos;
    cursor.eat_spaces();
    if !cursor.eat(units[1]) {
        return None;
    }
    cursor.eat_spaces();
    let day = cursor.digits(1, 2)?;
    let day_end = cursor.pos;
    cursor.eat_spaces();
    if !cursor.eat(units[2]) {
        return None;
    }
    let ymd = reading(chars, (year, year_end), (month, month_end), (day, day_end))?;
    // A unit word may run on into a word (`5일에`): the date ends at its last unit.
    Some(Found { start: i, end: cursor.pos, readings: vec![ymd], numeric: None })
}

/// The month named at the cursor, from `tables`: its number (1–12); the longest name wins.
fn month_name(cursor: &mut Cursor, tables: &[&'static [&'static str; 12]]) -> Option<u32> {
    // A name starts a word: most places are rejected here, before any table is read.
    let first = *cursor.chars.get(cursor.pos)?;
    if !first.is_alphabetic() || cursor.pos > 0 && cursor.chars[cursor.pos - 1].is_alphabetic() {
        return None;
    }
    let mut best: Option<(usize, u32)> = None;
    for table in tables {
        for (index, name) in table.iter().enumerate() {
            let mut expected = name.chars();
            // The first letter in either case; the rest as the table writes it.
            if !expected.next().is_some_and(|e| e.to_lowercase().eq(first.to_lowercase())) {
                continue;
            }
            let len = name.chars().count();
            let Some(candidate) = cursor.chars.get(cursor.pos + 1..cursor.pos + len) else {
                continue;
            };
            let ends = name.ends_with('.') || cursor.chars.get(cursor.pos + len).is_none_or(|c| !c.is_alphabetic());
            if expected.eq(candidate.iter().copied()) && ends && best.is_none_or(|(best, _)| len > best) {
                best = Some((len, index as u32 + 1));
            }
        }
    }
    let (len, month) = best?;
    cursor.pos += len;
    Some(month)
}

/// `5 March 2024`, `1er mars 2024`, `5. März 2024`, `5 de marzo de 2024` at `i`.
fn day_first_date(chars: &[char], i: usize, months: &[&'static [&'static str; 12]]) -> Option<Found> {
    if months.is_empty() {
        return None;
    }
    let mut cursor = Cursor::new(chars, i);
    let day = cursor.digits(1, 2)?;
    let day_end = cursor.pos;
    if day.value == 1 {
        cursor.eat_str("er");
    }
    let dotted = cursor.eat('.');
    if !cursor.eat_space() {
        return None;
    }
    let spanish = !dotted && cursor.eat_str("de ");
    let month = month_name(&mut cursor, months)?;
    if !cursor.eat_space() || spanish && !cursor.eat_str("de ") {
        return None;
    }
    let year = cursor.digits(4, 4)?;
    let ymd =
        Ymd { year: year.value, month, day: day.value, month_padded: false, day_padded: day.padded(chars, day_end) };
    valid(ymd.year, ymd.month, ymd.day).then_some(Found {
        start: i,
        end: cursor.pos,
        readings: vec![ymd],
        numeric: None,
    })
}

/// `March 5, 2024` at `i`.
fn month_first_date(chars: &[char], i: usize, months: &[&'static [&'static str; 12]]) -> Option<Found> {
    if months.is_empty() {
        return None;
    }
    let mut cursor = Cursor::new(chars, i);
    let month = month_name(&mut cursor, months)?;
    if !cursor.eat_space() {
        return None;
    }
    let day = cursor.digits(1, 2)?;
    let day_end = cursor.pos;
    if !cursor.eat(',') || !cursor.eat_space() {
        return None;
    }
    let year = cursor.digits(4, 4)?;
    let ymd =
        Ymd { year: year.value, month, day: day.value, month_padded: false, day_padded: day.padded(chars, day_end) };
    valid(ymd.year, ymd.month, ymd.day).then_some(Found {
        start: i,
        end: cursor.pos,
        readings: vec![ymd],
        numeric: None,
    })
}

/// `value` with a leading zero if `pad`.
fn number(value: u32, pad: bool) -> String {
    if pad { format!("{value:02}") } else { value.to_string() }
}

/// `value` (0–31, or a year digit by digit) in Chinese numerals.
fn chinese_number(value: u32) -> String {
    const DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let (tens, ones) = (value / 10, value % 10);
    let mut out = String::new();
    if tens > 1 {
        out.push(DIGITS[tens as usize]);
    }
    if tens > 0 {
        out.push('十');
    }
    if ones > 0 || tens == 0 {
        out.push(DIGITS[ones as usize]);
    }
    out
}

fn chinese_year(year: u32) -> String {
    const DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    year.to_string().chars().map(|digit| DIGITS[digit as usize - '0' as usize]).collect()
}

impl Dates {
    /// A reading of `found` in this format; `None` when the format cannot write it.
    fn render(&self, ymd: &Ymd, found: &Found, chars: &[char], at_start: bool, next: Option<char>) -> Option<String> {
        let (day_pad, month_pad) = match self.zeros {
            Zeros::Pad => (true, true),
            Zeros::NoPad => (false, false),
            Zeros::Keep => (ymd.day_padded, ymd.month_padded),
        };
        let day = number(ymd.day, day_pad);
        let month = number(ymd.month, month_pad);
        let year = ymd.year;
        Some(match self.layout {
            Resolved::Layout(Layout::Numeric { order, sep, short_year }) => {
                let year = if short_year { format!("{:02}", year % 100) } else { year.to_string() };
                match order {
                    Order::Dmy => format!("{day}{sep}{month}{sep}{year}"),
                    Order::Mdy => format!("{month}{sep}{day}{sep}{year}"),
                    Order::Ymd => format!("{year}{sep}{month}{sep}{day}"),
                }
            }
            Resolved::Layout(Layout::KoreanNumeric) => {
                let end = if next == Some('.') { "" } else { "." };
                format!("{year}. {month}. {day}{end}")
            }
            Resolved::Layout(Layout::Chinese) => format!("{year}年{month}月{day}日"),
            Resolved::Layout(Layout::ChineseNumerals) => {
                format!("{}年{}月{}日", chinese_year(year), chinese_number(ymd.month), chinese_number(ymd.day))
            }
            Resolved::Layout(Layout::Korean) => format!("{year}년 {month}월 {day}일"),
            Resolved::Layout(Layout::Same) => {
                // Only the two numbers that are not the year change.
                let [first, second] = found.numeric?;
                let mut out = String::new();
                let mut at = found.start;
                for (from, to) in [first, second] {
                    out.extend(&chars[at..from]);
                    let digits: String = chars[from..to].iter().collect();
                    let value: u32 = digits.parse().ok()?;
                    out.push_str(&number(value, self.zeros == Zeros::Pad));
                    at = to;
                }
                out.extend(&chars[at..found.end]);
                out
            }
            Resolved::Layout(Layout::Spelled { .. }) => return None,
            Resolved::Spelled { form, names } => {
                let name = names[ymd.month as usize - 1];
                let spanish = std::ptr::eq(names, &SPANISH) || std::ptr::eq(names, &SPANISH_SETIEMBRE);
                match form {
                    Spelled::DayMonth if spanish => format!("{day} de {name} de {year}"),
                    Spelled::DayMonth if self.lang == Lang::Fr && ymd.day == 1 && std::ptr::eq(names, &FRENCH) => {
                        format!("1er {name} {year}")
                    }
                    Spelled::DayMonth => format!("{day} {name} {year}"),
                    Spelled::DayDotMonth => format!("{day}. {name} {year}"),
                    Spelled::MonthDay => {
                        let mut letters = name.chars();
                        let first = letters.next()?;
                        let first: String = if at_start { first.to_uppercase().collect() } else { first.to_string() };
                        format!("{first}{} {day}, {year}", letters.as_str())
                    }
                }
            }
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::tests::{Example, check_examples, rewrite};

    const DATE_FORMAT: &str = "date_format";

    /// One example or more per mechanical option of this family.
    pub(in crate::mechanical) const EXAMPLES: &[Example] = &[
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_period_mm_period_yy_with_leading_zeros_for_single_digit_days_and_months",
            "de",
            "am 2024-03-05 und 5.3.2024",
            "am 05.03.24 und 05.03.24",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_period_mm_period_yyyy",
            "de",
            "am 2024-03-05, 5/3/2024",
            "am 05.03.2024, 5.3.2024",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_period_mm_period_yyyy_with_leading_zeros_for_single_digit_days_and_months",
            "de",
            "am 5. März 2024 und 2024/3/5",
            "am 05.03.2024 und 05.03.2024",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_period_space_abbreviated_month_yyyy_with_abbreviations_jan_period_feb_period_mrz_period_apr_period_mai_jun_period_jul_period_aug_period_sep_period_okt_period_nov_period_dez_period_without_leading_zeros_for_single_digit_days",
            "de",
            "Am 05.03.2024, 1. Mai 2024 und 9. September 2024.",
            "Am 5. Mrz. 2024, 1. Mai 2024 und 9. Sep. 2024.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_period_space_abbreviated_month_yyyy_with_abbreviations_jan_period_febr_period_maerz_apr_period_mai_juni_juli_aug_period_sept_period_okt_period_nov_period_dez_period_without_leading_zeros_for_single_digit_days",
            "de",
            "Am 05.03.2024, 01.02.2024 und 9. Sep. 2024.",
            "Am 5. März 2024, 1. Febr. 2024 und 9. Sept. 2024.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_period_space_month_yyyy_without_leading_zeros_for_single_digit_days",
            "de",
            "Am 05.03.2024 und 5. Mrz. 2024.",
            "Am 5. März 2024 und 5. März 2024.",
        ),
        ("dates_and_times", DATE_FORMAT, "use_dd_slash_mm_slash_yyyy", "fr", "le 2024-03-05", "le 05/03/2024"),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_slash_mm_slash_yyyy_with_leading_zeros_for_single_digit_days_and_months",
            "it",
            "il 5.3.2024 e il 5 marzo 2024",
            "il 05/03/2024 e il 05/03/2024",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_space_spelled_out_month_space_yyyy",
            "en",
            "On March 5, 2024 and 2024-12-25.",
            "On 5 March 2024 and 25 December 2024.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_space_spelled_out_month_space_yyyy",
            "fr",
            "Le 01/03/2024 et le 2024-03-15.",
            "Le 1er mars 2024 et le 15 mars 2024.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_space_spelled_out_month_space_yyyy_and_use_spanish_word_septiembre_for_ninth_month",
            "es",
            "El 09/09/2024 y el 5 de setiembre de 2024.",
            "El 9 de septiembre de 2024 y el 5 de septiembre de 2024.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_space_spelled_out_month_space_yyyy_and_use_spanish_word_setiembre_for_ninth_month",
            "es",
            "El 9/9/2024 y el 5 de septiembre de 2024.",
            "El 9 de setiembre de 2024 y el 5 de setiembre de 2024.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_dd_space_spelled_out_month_space_yyyy_without_leading_zeros_for_single_digit_days",
            "it",
            "Il 05/03/2024.",
            "Il 5 marzo 2024.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_mm_slash_dd_slash_yyyy_with_leading_zeros_for_single_digit_days_and_months",
            "en",
            "On 2024-3-5, March 7, 2024 and 25/12/2024.",
            "On 03/05/2024, 03/07/2024 and 12/25/2024.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_spelled_out_month_space_dd_comma_space_yyyy_and_use_spanish_word_septiembre_for_ninth_month",
            "es",
            "Desde 09/09/2024 y el 5 de marzo de 2024",
            "Desde septiembre 9, 2024 y el marzo 5, 2024",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_spelled_out_month_space_dd_comma_space_yyyy_without_leading_zeros_for_single_digit_days",
            "en",
            "Due 05 March 2024 or 2024-12-01.",
            "Due March 5, 2024 or December 1, 2024.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_yyyy_chinese_word_年_mm_chinese_word_月_dd_chinese_word_日_with_chinese_numbers",
            "zh",
            "日期：2024-03-15，2024年10月31日。",
            "日期：二〇二四年三月十五日，二〇二四年十月三十一日。",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_yyyy_chinese_word_年_mm_chinese_word_月_dd_chinese_word_日_without_leading_zero_for_single_digit_months_and_days",
            "ja",
            "2024/03/05と2024年03月05日",
            "2024年3月5日と2024年3月5日",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_yyyy_hyphen_mm_hyphen_dd_with_leading_zero_for_single_digit_days_and_months",
            "en",
            "On 2024/3/5 and 25/12/2024.",
            "On 2024-03-05 and 2024-12-25.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_yyyy_hyphen_mm_hyphen_dd_with_leading_zeros_for_single_digit_days_and_months",
            "de",
            "Am 5.3.2024.",
            "Am 2024-03-05.",
        ),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_yyyy_korean word_년_space_mm_korean word_월_space_dd_korean word_일_without_leading_zero_for_single_digit_days_and_months",
            "ko",
            "2024-03-05에, 2024년03월05일",
            "2024년 3월 5일에, 2024년 3월 5일",
        ),
        ("dates_and_times", DATE_FORMAT, "use_yyyy_period_mm_period_dd", "ko", "2024-03-05", "2024.03.05"),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_yyyy_period_space_mm_period_space_dd_period_space_without_leading_zero_for_single_digit_days_and_months",
            "ko",
            "2024-03-05 그리고 2024.03.05.",
            "2024. 3. 5. 그리고 2024. 3. 5.",
        ),
        ("dates_and_times", DATE_FORMAT, "use_yyyy_slash_mm_slash_dd", "ja", "2024-3-05", "2024/3/05"),
        (
            "dates_and_times",
            DATE_FORMAT,
            "use_yyyy_slash_mm_slash_dd_with_leading_zero_for_single_digit_days_and_months",
            "ja",
            "2024年3月5日",
            "2024/03/05",
        ),
        (
            "dates_and_times",
            "dates_in_numerical_form",
            "use_dd_hyphen_mm_hyphen_yyyy",
            "es",
            "el 5/3/2024",
            "el 5-3-2024",
        ),
        (
            "dates_and_times",
            "dates_in_numerical_form",
            "use_dd_period_mm_period_yyyy",
            "de",
            "am 2024-03-05 oder 5. März 2024",
            "am 05.03.2024 oder 5. März 2024",
        ),
        (
            "dates_and_times",
            "dates_in_numerical_form",
            "use_dd_slash_mm_slash_yyyy",
            "fr",
            "le 05.03.2024",
            "le 05/03/2024",
        ),
        (
            "dates_and_times",
            "writing_dates",
            "use_dd_space_spelled_out_month_space_yyyy",
            "fr",
            "le 05.03.2024",
            "le 5 mars 2024",
        ),
        (
            "dates_and_times",
            "single_digit_days_and_months",
            "use_leading_zero",
            "en",
            "On 3/5/2024 and 2024-3-5.",
            "On 03/05/2024 and 2024-03-05.",
        ),
        (
            "dates_and_times",
            "single_digit_days_and_months",
            "do_not_use_leading_zero",
            "de",
            "Am 05.03.2024.",
            "Am 5.3.2024.",
        ),
    ];

    #[test]
    fn examples_hold() {
        check_examples(EXAMPLES);
    }

    const ISO: (&str, &str, &str) = (
        "dates_and_times",
        "date_format",
        "use_yyyy_hyphen_mm_hyphen_dd_with_leading_zeros_for_single_digit_days_and_months",
    );

    #[test]
    fn an_ambiguous_order_of_day_and_month_is_left_alone() {
        assert_eq!(rewrite(&[ISO], "en", "3/5/2024"), "3/5/2024");
        assert_eq!(rewrite(&[ISO], "en", "3/13/2024"), "2024-03-13");
        assert_eq!(rewrite(&[ISO], "en", "13/3/2024"), "2024-03-13");
        assert_eq!(rewrite(&[ISO], "en", "3/3/2024"), "2024-03-03");
        // Day first in languages that write it so, and with dots everywhere.
        assert_eq!(rewrite(&[ISO], "de", "3/5/2024"), "2024-05-03");
        assert_eq!(rewrite(&[ISO], "en", "3.5.2024"), "2024-05-03");
    }

    #[test]
    fn things_that_are_not_dates_are_left_alone() {
        for text in [
            "1.2.3",
            "5.3.24",
            "v5.3.2024",
            "1.5.3.2024",
            "5.3.2024.1",
            "2024-03-05T10:00",
            "31.02.2024",
            "13/13/2024",
            "2024-13-01",
            "0.3.2024",
            "ID 12-05-2024x",
            "5 Mayo 2024",
        ] {
            assert_eq!(rewrite(&[ISO], "de", text), text);
            assert_eq!(rewrite(&[ISO], "en", text), text);
        }
    }

    #[test]
    fn dates_between_tags_and_at_sentence_ends_are_rewritten() {
        assert_eq!(rewrite(&[ISO], "de", "<g1>5.3.2024</g1>."), "<g1>2024-03-05</g1>.");
        assert_eq!(rewrite(&[ISO], "de", "(5.3.2024)"), "(2024-03-05)");
    }

    #[test]
    fn a_leap_day_exists_only_in_leap_years() {
        assert_eq!(rewrite(&[ISO], "de", "29.2.2024"), "2024-02-29");
        assert_eq!(rewrite(&[ISO], "de", "29.2.2023"), "29.2.2023");
        assert_eq!(rewrite(&[ISO], "de", "29.2.2000"), "2000-02-29");
        assert_eq!(rewrite(&[ISO], "de", "29.2.1900"), "29.2.1900");
    }

    #[test]
    fn month_first_dates_keep_a_lower_case_month_inside_a_sentence() {
        let rule = (
            "dates_and_times",
            "date_format",
            "use_spelled_out_month_space_dd_comma_space_yyyy_and_use_spanish_word_septiembre_for_ninth_month",
        );
        assert_eq!(rewrite(&[rule], "es", "Desde el 1/9/2024."), "Desde el septiembre 1, 2024.");
        assert_eq!(rewrite(&[rule], "es", "1/9/2024: inicio."), "Septiembre 1, 2024: inicio.");
        assert_eq!(rewrite(&[rule], "es", "Fin. 1/9/2024: inicio."), "Fin. Septiembre 1, 2024: inicio.");
    }

    #[test]
    fn month_names_need_the_lists_language() {
        let rule = ("dates_and_times", "date_format", "use_dd_space_spelled_out_month_space_yyyy");
        assert_eq!(rewrite(&[rule], "ja", "2024-03-05"), "2024-03-05");
        assert_eq!(rewrite(&[rule], "de", "2024-03-05"), "5 März 2024");
    }

    #[test]
    fn the_korean_numeric_form_shares_a_sentence_final_period() {
        let rule = (
            "dates_and_times",
            "date_format",
            "use_yyyy_period_space_mm_period_space_dd_period_space_without_leading_zero_for_single_digit_days_and_months",
        );
        assert_eq!(rewrite(&[rule], "ko", "날짜는 2024-03-05."), "날짜는 2024. 3. 5.");
    }
}
