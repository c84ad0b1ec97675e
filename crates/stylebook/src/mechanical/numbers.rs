//! Numbers: separators, decimals below one, percentages, temperatures, currency symbols, units
//! of measure and dimensions.
//!
//! # Separators
//!
//! `numbers.decimal_separator`, `thousands_separator`, `number_format`, the comma option of
//! `large_number_format`, and `numbers_up_to_4_digits` / `numbers_of_5_digits_or_more` (which
//! apply by the number of digits before the decimal separator, and win over the others) say
//! which characters separate decimals and groups of three digits. A separator the rules leave
//! open is kept as written, unless it would clash (a comma for thousands when decimals take the
//! comma becomes a period, or a narrow no-break space in French).
//!
//! How a number is read:
//!
//! * Two different separators (`1,234.5`, `1.234,5`): the last is the decimal separator.
//! * One separator used twice or more (`1.234.567`): groups of three digits.
//! * One separator once, with not three digits after it (`3.14`, `2,5`): decimals.
//! * One separator once with three digits after it (`1.000`, `1,000`): decimals if it is the
//!   list language's decimal separator, else thousands; in a language without a list it is left
//!   alone. `0,125` and `1234,567` can only be decimals.
//! * Spaces (no-break, narrow, thin; a plain space in French lists only) and apostrophes group
//!   thousands.
//! * Anything else is left alone: groups of the wrong size (`1.2.3`, `192.168.0.1`), numbers
//!   inside words or codes (`v1.2`, `A4`), after `version`, `release` or `build`, and what may
//!   be a time written with a period (`10.15`): in a list whose times are written so, and in
//!   languages whose decimals take a comma unless a unit, sign or currency follows (`10.15 €`).
//!
//! A number written without any separator gets thousands separators only when it is clearly a
//! quantity: five digits or more before a decimal part, or next to a currency symbol or code, a
//! percent sign or a unit (`12000 €` → `12.000 €`); alone it may be a postal code, a year or an
//! identifier (`75001 Paris`, `2024`, `order 123456`). A four-digit number is grouped only if it
//! was grouped or has decimals. Numbers with a leading zero (`007`) are left alone. A radio
//! frequency (`98.5 FM`, `98,5 MHz`) takes a period and no grouping where an option says so.
//!
//! A space written as a thousands separator is a narrow no-break space (U+202F).
//!
//! # Next to numbers
//!
//! * `decimal_numbers_less_than_one: always_use_0_before_decimal_separator`: `.5` → `0.5`
//!   (`,5` → `0,5` in lists whose decimals take the comma).
//! * `percentage_format`: the percent sign, full-width `％`, or the word the option names, with
//!   or without a space; `5 percent`, `5 Prozent`, `5 por ciento`, … are read too. Not
//!   mechanical: Chinese numbers with 百分之.
//! * `temperature_format`: `20 °C` ↔ `20°C` (also `℃`, `°F`, `℉`), or `20度`, `20도`. Not
//!   mechanical: units spelled out, `grado`.
//! * `currency_format`: the symbol before or after the amount, with or without a space, and
//!   full- or half-width `¥ $ £ ₩ ¢`. An amount followed by a word of size (`$5 million`) or
//!   part of a range (`5–10 €`) is left alone. Not mechanical: ISO codes and currency names
//!   (a symbol such as `$` or `¥` names several currencies), amounts in other numerals.
//! * `units_of_measure_spacing`, `formatting.space_between_arabic_numerals_and_unit`: a space
//!   between a number and a unit symbol (`5 kg`, `100 km/h`, `3 GB`), or none.
//! * `dimensions_separator`: `10 × 20`, `10×20`, `10 x 20`, `10x20` (units may follow each
//!   number: `10 cm × 20 cm`); `0x1F` is not a dimension.
//!
//! A space inserted between a number and its sign, symbol or unit is a no-break space (U+00A0),
//! and a space already there is kept as it is; words and dimension signs take a plain space.

use super::text::{Cursor, Lang, Masks, Text, is_cjk, is_mask, is_space, number_may_start, rewrite};
use super::times::Times;
use crate::ConfiguredRules;

const CATEGORY: &str = "numbers";

/// A thousands separator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    Comma,
    Period,
    Space,
    Apostrophe,
}

impl Group {
    fn char(self) -> char {
        match self {
            Group::Comma => ',',
            Group::Period => '.',
            Group::Space => '\u{202f}',
            Group::Apostrophe => '\'',
        }
    }
}

/// What the rules say about separators (for numbers of one size).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Separators {
    decimal: Option<char>,
    /// `Some(None)`: no thousands separator.
    thousands: Option<Option<Group>>,
    /// Radio frequencies take a period and no grouping.
    radio: bool,
}

impl Separators {
    fn is_set(&self) -> bool {
        self.decimal.is_some() || self.thousands.is_some() || self.radio
    }

    /// `self`, with what `other` says instead.
    fn with(self, other: Separators) -> Separators {
        Separators {
            decimal: other.decimal.or(self.decimal),
            thousands: other.thousands.or(self.thousands),
            radio: other.radio || self.radio,
        }
    }
}

const fn separators(decimal: Option<char>, thousands: Option<Option<Group>>, radio: bool) -> Separators {
    Separators { decimal, thousands, radio }
}

fn decimal_separator(option: &str) -> Option<Separators> {
    Some(match option {
        "use_comma_and_do_not_use_thousands_separator" => separators(Some(','), Some(None), false),
        "use_comma_as_decimal_separator" => separators(Some(','), None, false),
        "use_comma_do_not_use_thousands_separator_and_use_period_only_for_radio_stations" => {
            separators(Some(','), Some(None), true)
        }
        "use_period_and_do_not_use_thousands_separator" => separators(Some('.'), Some(None), false),
        "use_period_as_decimal_separator" => separators(Some('.'), None, false),
        _ => return None,
    })
}

fn thousands_separator(option: &str) -> Option<Separators> {
    let group = match option {
        "do_not_use" | "do_not_use_thousands_separator" => None,
        "use_comma" | "use_comma_to_separate_large_numbers_into_units_of_three" => Some(Group::Comma),
        "use_period" | "use_period_as_thousands_separator" => Some(Group::Period),
        "use_space"
        | "use_space_as_thousands_separator"
        | "use_space_to_separate_large_numbers_into_units_of_three" => Some(Group::Space),
        "use_straight_apostrophe_as_thousands_separator" => Some(Group::Apostrophe),
        _ => return None,
    };
    Some(separators(None, Some(group), false))
}

fn large_number_format(option: &str) -> Option<Separators> {
    (option == "use_comma_to_separate_large_numbers_into_units_of_three_except_for_calendar_years")
        .then_some(separators(None, Some(Some(Group::Comma)), false))
}

fn number_format(option: &str) -> Option<Separators> {
    (option
        == "use_half_width_comma_to_separate_large_numbers_into_units_of_three_except_for_calendar_years_and_use_half_width_period_as_decimal_separator")
        .then_some(separators(Some('.'), Some(Some(Group::Comma)), false))
}

/// `numbers_up_to_4_digits` and `numbers_of_5_digits_or_more`.
fn by_size(option: &str) -> Option<Separators> {
    let (decimal, group, radio) = match option {
        "use_comma_as_decimal_separator_and_period_as_thousands_separator" => (',', Group::Period, false),
        "use_comma_as_decimal_separator_and_space_as_thousands_separator" => (',', Group::Space, false),
        "use_comma_as_decimal_separator_period_as_thousands_separator_and_period_for_radio_stations" => {
            (',', Group::Period, true)
        }
        "use_comma_as_decimal_separator_space_as_thousands_separator_and_period_for_radio_stations" => {
            (',', Group::Space, true)
        }
        "use_period_as_decimal_separator_and_comma_as_thousands_separator" => ('.', Group::Comma, false),
        "use_period_as_decimal_separator_and_space_as_thousands_separator" => ('.', Group::Space, false),
        _ => return None,
    };
    Some(separators(Some(decimal), Some(Some(group)), radio))
}

/// A percentage's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Percent {
    /// The sign; `space: None` keeps the spacing as written.
    Sign {
        space: Option<bool>,
        full_width: bool,
    },
    Word {
        word: &'static str,
        space: bool,
    },
}

fn percentage_format(option: &str) -> Option<Percent> {
    use Percent::*;
    Some(match option {
        "use_arabic_numerals_followed_by_percent_symbol_without_space" => {
            Sign { space: Some(false), full_width: false }
        }
        "use_numerals_followed_by_full_width_percent_symbol_without_space" => {
            Sign { space: Some(false), full_width: true }
        }
        "use_numerals_followed_by_japanese_word_パーセント_without_space" => {
            Word { word: "パーセント", space: false }
        }
        "use_numerals_followed_by_korean_word_퍼센트" => Word { word: "퍼센트", space: false },
        "use_numerals_followed_by_percent_symbol" => Sign { space: None, full_width: false },
        "use_numerals_followed_by_space_then_german_word_prozent" => Word { word: "Prozent", space: true },
        "use_numerals_followed_by_space_then_half_width_percent_symbol"
        | "use_numerals_followed_by_space_then_percent_symbol" => Sign { space: Some(true), full_width: false },
        "use_numerals_followed_by_space_then_italian_word_per_cento" => Word { word: "per cento", space: true },
        "use_numerals_followed_by_space_then_italian_word_percento" => Word { word: "percento", space: true },
        "use_numerals_followed_by_space_then_korean_word_퍼센트" => Word { word: "퍼센트", space: true },
        "use_numerals_followed_by_space_then_spell_out_per_cent" => Word { word: "per cent", space: true },
        "use_numerals_followed_by_space_then_spell_out_percent" => Word { word: "percent", space: true },
        "use_spanish_word_por_cien" => Word { word: "por cien", space: true },
        "use_spanish_word_por_ciento" => Word { word: "por ciento", space: true },
        _ => return None,
    })
}

/// Words for per cent, longest first so that `por ciento` is not read as `por cien`.
const PERCENT_WORDS: &[&str] = &[
    "por ciento",
    "パーセント",
    "per cento",
    "pour cent",
    "por cien",
    "per cent",
    "percento",
    "Prozent",
    "percent",
    "퍼센트",
];

/// A temperature's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Temperature {
    Symbol { space: bool },
    Word(&'static str),
}

fn temperature_format(option: &str) -> Option<Temperature> {
    Some(match option {
        "use_arabic_numerals_followed_by_unit_symbol_without_space"
        | "use_numerals_followed_by_unit_symbol_without_space" => Temperature::Symbol { space: false },
        "use_numerals_followed_by_space_then_unit_symbol" => Temperature::Symbol { space: true },
        "use_numerals_followed_by_japanese_word_度_without_space" => Temperature::Word("度"),
        "use_numerals_followed_by_korean_word_도" => Temperature::Word("도"),
        _ => return None,
    })
}

/// Temperature symbols as written, and how they are written by a symbol format.
const TEMPERATURE_SYMBOLS: &[(&str, &str)] =
    &[("°C", "°C"), ("°F", "°F"), ("° C", "°C"), ("° F", "°F"), ("℃", "℃"), ("℉", "℉")];

/// Where a currency symbol goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Currency {
    before: bool,
    space: bool,
    width: Width,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Width {
    Keep,
    Full,
    Half,
}

fn currency_format(option: &str) -> Option<Currency> {
    let (before, space, width) = match option {
        "use_amount_followed_by_currency_symbol_without_space" => (false, false, Width::Keep),
        "use_amount_followed_by_space_then_currency_symbol" => (false, true, Width::Keep),
        "use_currency_symbol_followed_by_amount_without_space" => (true, false, Width::Keep),
        "use_currency_symbol_followed_by_space_then_amount" => (true, true, Width::Keep),
        "use_full_width_currency_symbol_followed_by_amount_without_space" => (true, false, Width::Full),
        "use_half_width_currency_symbol_followed_by_amount_without_space" => (true, false, Width::Half),
        "use_half_width_currency_symbol_followed_by_space_then_amount" => (true, true, Width::Half),
        _ => return None,
    };
    Some(Currency { before, space, width })
}

/// Currency symbols; `$` may carry a country prefix (`US$`).
const CURRENCY_SYMBOLS: &[char] =
    &['€', '£', '$', '¥', '₩', '₹', '₽', '₺', '₪', '฿', '₫', '₴', '₦', '₱', '¢', '￥', '＄', '￡', '￦', '￠'];
const DOLLAR_PREFIXES: &[&str] = &["US", "NZ", "HK", "NT", "MX", "C", "A", "R", "S"];
/// Currency words written as one character after an amount (`12000円`).
const CURRENCY_CHARACTERS: &[char] = &['円', '元', '원', '圓'];
/// Codes that make a bare number an amount (`12000 EUR`).
const CURRENCY_CODES: &[&str] = &["EUR", "USD", "GBP", "JPY", "CHF", "CNY", "KRW", "CAD", "AUD", "INR", "RMB"];
/// Words of size after an amount, which a symbol must not be put after.
const MAGNITUDES: &[&str] = &[
    "million",
    "millions",
    "billion",
    "billions",
    "trillion",
    "bn",
    "mn",
    "m",
    "k",
    "Mio",
    "Mrd",
    "Md",
    "Mia",
    "Millionen",
    "Milliarden",
    "milliards",
    "milliard",
    "milioni",
    "milione",
    "miliardi",
    "miliardo",
    "millones",
    "millón",
    "mil",
    "millardos",
];

fn width(c: char, width: Width) -> char {
    const PAIRS: [(char, char); 5] = [('¥', '￥'), ('$', '＄'), ('£', '￡'), ('₩', '￦'), ('¢', '￠')];
    match width {
        Width::Keep => c,
        Width::Full => PAIRS.iter().find(|(half, _)| *half == c).map_or(c, |(_, full)| *full),
        Width::Half => PAIRS.iter().find(|(_, full)| *full == c).map_or(c, |(half, _)| *half),
    }
}

fn units_spacing(category: &str, rule: &str, option: &str) -> Option<bool> {
    match (category, rule, option) {
        ("numbers", "units_of_measure_spacing", "use_space_between_numeral_and_unit_of_measure") => Some(true),
        ("numbers", "units_of_measure_spacing", "do_not_use_space_between_numeral_and_unit_of_measure")
        | ("formatting", "space_between_arabic_numerals_and_unit", "do_not_use") => Some(false),
        _ => None,
    }
}

/// Unit symbols, longest first.
const UNITS: &[&str] = &[
    "km/h", "kWh", "kcal", "Mbit", "Gbit", "kbit", "Mbps", "Gbps", "kbps", "mbar", "cm²", "cm³", "km²", "mm²", "m/s",
    "m²", "m³", "kHz", "MHz", "GHz", "kPa", "hPa", "MPa", "mph", "min", "bar", "cal", "mm", "cm", "dm", "km", "µm",
    "μm", "nm", "mg", "kg", "ml", "mL", "cl", "cL", "dl", "dL", "ms", "Hz", "kW", "MW", "GW", "Wh", "mV", "kV", "mA",
    "Pa", "KB", "kB", "MB", "GB", "TB", "PB", "dB", "ft", "lb", "lbs", "oz", "m", "g", "l", "L", "h", "W", "V", "t",
];

/// A dimension sign and whether spaces go around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Dimensions {
    sign: char,
    space: bool,
}

fn dimensions_separator(option: &str) -> Option<Dimensions> {
    Some(match option {
        "use_multiplication_sign_between_dimensions_with_space_on_either_side" => {
            Dimensions { sign: '×', space: true }
        }
        "use_multiplication_sign_between_dimensions_without_space_on_either_side" => {
            Dimensions { sign: '×', space: false }
        }
        "use_x_between_dimensions_with_space_on_either_side" => Dimensions { sign: 'x', space: true },
        "use_x_between_dimensions_without_space_on_either_side" => Dimensions { sign: 'x', space: false },
        _ => return None,
    })
}

/// Whether this family applies (category, rule, option).
pub(super) fn understands(category: &str, rule: &str, option: &str) -> bool {
    if units_spacing(category, rule, option).is_some() {
        return true;
    }
    category == CATEGORY
        && match rule {
            "decimal_separator" => decimal_separator(option).is_some(),
            "thousands_separator" => thousands_separator(option).is_some(),
            "large_number_format" => large_number_format(option).is_some(),
            "number_format" => number_format(option).is_some(),
            "numbers_up_to_4_digits" | "numbers_of_5_digits_or_more" => by_size(option).is_some(),
            "decimal_numbers_less_than_one" => option == "always_use_0_before_decimal_separator",
            "percentage_format" => percentage_format(option).is_some(),
            "temperature_format" => temperature_format(option).is_some(),
            "currency_format" => currency_format(option).is_some(),
            "dimensions_separator" => dimensions_separator(option).is_some(),
            _ => false,
        }
}

/// The number rules of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Numbers {
    /// Separators for numbers of up to four digits before the decimal separator, and longer.
    small: Separators,
    large: Separators,
    leading_zero: bool,
    percent: Option<Percent>,
    temperature: Option<Temperature>,
    currency: Option<Currency>,
    units: Option<bool>,
    dimensions: Option<Dimensions>,
    /// Times are written `14.30`: such numbers are left alone.
    period_times: bool,
    lang: Lang,
}

impl Numbers {
    pub(super) fn new(rules: &ConfiguredRules, lang: Lang) -> Option<Numbers> {
        let get = |rule| rules.get(CATEGORY, rule);
        let mut base = Separators::default();
        // The general rules first, the specific ones over them.
        for (rule, read) in [
            ("large_number_format", large_number_format as fn(&str) -> Option<Separators>),
            ("number_format", number_format),
            ("thousands_separator", thousands_separator),
            ("decimal_separator", decimal_separator),
        ] {
            if let Some(separators) = get(rule).and_then(read) {
                base = base.with(separators);
            }
        }
        let small = base.with(get("numbers_up_to_4_digits").and_then(by_size).unwrap_or_default());
        let large = base.with(get("numbers_of_5_digits_or_more").and_then(by_size).unwrap_or_default());
        let units = [("numbers", "units_of_measure_spacing"), ("formatting", "space_between_arabic_numerals_and_unit")]
            .into_iter()
            .find_map(|(category, rule)| units_spacing(category, rule, rules.get(category, rule)?));
        let numbers = Numbers {
            small,
            large,
            leading_zero: get("decimal_numbers_less_than_one") == Some("always_use_0_before_decimal_separator"),
            percent: get("percentage_format").and_then(percentage_format),
            temperature: get("temperature_format").and_then(temperature_format),
            currency: get("currency_format").and_then(currency_format),
            units,
            dimensions: get("dimensions_separator").and_then(dimensions_separator),
            period_times: Times::writes_periods(rules),
            lang,
        };
        let any = numbers.small.is_set()
            || numbers.large.is_set()
            || numbers.leading_zero
            || numbers.percent.is_some()
            || numbers.temperature.is_some()
            || numbers.currency.is_some()
            || numbers.units.is_some()
            || numbers.dimensions.is_some();
        any.then_some(numbers)
    }

    pub(super) fn apply(&self, text: &mut Text) {
        if self.leading_zero {
            rewrite(text, |masks, chars, i| self.leading_zero_at(masks, chars, i));
        }
        if self.small.is_set() || self.large.is_set() {
            rewrite(text, |masks, chars, i| self.separators_at(masks, chars, i));
        }
        if self.percent.is_some() {
            rewrite(text, |masks, chars, i| self.percent_at(masks, chars, i));
        }
        if self.temperature.is_some() {
            rewrite(text, |masks, chars, i| self.temperature_at(masks, chars, i));
        }
        if self.currency.is_some() {
            rewrite(text, |masks, chars, i| self.currency_at(masks, chars, i));
        }
        if self.dimensions.is_some() {
            rewrite(text, |masks, chars, i| self.dimensions_at(masks, chars, i));
        }
        if self.units.is_some() {
            rewrite(text, |masks, chars, i| self.units_at(masks, chars, i));
        }
    }
}

/// Characters that may group thousands inside a number (a plain space only in French).
fn is_group_char(c: char, lang: Lang) -> bool {
    matches!(c, '\'' | '’' | '\u{a0}' | '\u{202f}' | '\u{2009}') || c == ' ' && lang == Lang::Fr
}

/// A number as written: digit groups and the separators between them.
#[derive(Debug)]
struct Token {
    end: usize,
    groups: Vec<String>,
    seps: Vec<char>,
}

/// The number starting at `i` (digits, and separators between digits).
fn token(chars: &[char], i: usize, lang: Lang) -> Option<Token> {
    if !chars.get(i)?.is_ascii_digit() {
        return None;
    }
    let mut groups = vec![String::new()];
    let mut seps = Vec::new();
    let mut j = i;
    while j < chars.len() {
        let c = chars[j];
        if c.is_ascii_digit() {
            groups.last_mut()?.push(c);
            j += 1;
        } else if (matches!(c, '.' | ',') || is_group_char(c, lang))
            && chars.get(j + 1).is_some_and(char::is_ascii_digit)
        {
            seps.push(c);
            groups.push(String::new());
            j += 1;
        } else {
            break;
        }
    }
    Some(Token { end: j, groups, seps })
}

/// The end of the number starting at `i`, if one may start there.
fn number_end(masks: &Masks, chars: &[char], i: usize, lang: Lang) -> Option<usize> {
    if !chars.get(i).is_some_and(char::is_ascii_digit) || !number_may_start(masks, chars, i) {
        return None;
    }
    token(chars, i, lang).map(|token| token.end)
}

/// A number read: its integer digits, decimals, and the separators it was written with.
#[derive(Debug, PartialEq, Eq)]
struct Reading {
    integer: String,
    decimals: Option<String>,
    thousands: Option<char>,
    decimal: Option<char>,
}

impl Token {
    /// How the number reads, if it reads one way (see the module's documentation);
    /// `decimal_mark(c)` tells whether one `c` before three digits marks decimals.
    fn read(&self, decimal_mark: impl Fn(char) -> Option<bool>) -> Option<Reading> {
        let plain = |c: char| matches!(c, '.' | ',');
        let grouped = |groups: &[String]| {
            groups.first().is_some_and(|g| (1..=3).contains(&g.len()) && !g.starts_with('0'))
                && groups[1..].iter().all(|g| g.len() == 3)
        };
        let decimals = |thousands: Option<char>, decimal: char| {
            let (last, integer) = self.groups.split_last()?;
            (thousands.is_none() || grouped(integer)).then(|| Reading {
                integer: integer.concat(),
                decimals: Some(last.clone()),
                thousands,
                decimal: Some(decimal),
            })
        };
        let thousands = |sep: char| {
            grouped(&self.groups).then(|| Reading {
                integer: self.groups.concat(),
                decimals: None,
                thousands: Some(sep),
                decimal: None,
            })
        };
        match self.seps.as_slice() {
            [] => Some(Reading { integer: self.groups[0].clone(), decimals: None, thousands: None, decimal: None }),
            [sep] if !plain(*sep) => thousands(*sep),
            [sep] => {
                let (first, last) = (&self.groups[0], &self.groups[1]);
                if last.len() != 3 || first.starts_with('0') || first.len() > 3 {
                    return decimals(None, *sep);
                }
                match decimal_mark(*sep)? {
                    true => decimals(None, *sep),
                    false => thousands(*sep),
                }
            }
            [rest @ .., last] => {
                let first = rest[0];
                if rest.iter().any(|sep| *sep != first) {
                    return None;
                }
                if *last == first {
                    thousands(first)
                } else if plain(*last) {
                    decimals(Some(first), *last)
                } else {
                    None
                }
            }
        }
    }
}

/// Whether a word for a version comes just before `i` (`version 3.12`).
fn after_version_word(chars: &[char], i: usize) -> bool {
    let mut end = i;
    while end > 0 && is_space(chars[end - 1]) {
        end -= 1;
    }
    let start = chars[..end].iter().rposition(|c| !c.is_alphabetic()).map_or(0, |p| p + 1);
    let word: String = chars[start..end].iter().collect::<String>().to_lowercase();
    end < i && matches!(word.as_str(), "version" | "versión" | "versione" | "release" | "build" | "ver")
}

/// Whether a space, then one of `words`, starts at `i` and ends a word.
fn word_after(chars: &[char], i: usize, words: &[&str]) -> bool {
    let mut cursor = Cursor::new(chars, i);
    cursor.eat_space();
    words.iter().any(|word| {
        let mut ahead = cursor;
        ahead.eat_str(word) && ahead.peek().is_none_or(|c| !c.is_alphanumeric())
    })
}

/// Whether the number `start..end` is clearly an amount or a measure: a currency, percent sign
/// or unit comes right before or after it.
fn is_quantity(chars: &[char], start: usize, end: usize) -> bool {
    let mut before = start;
    while before > 0 && is_space(chars[before - 1]) {
        before -= 1;
    }
    let before = before.checked_sub(1).map(|j| chars[j]);
    let mut after = Cursor::new(chars, end);
    after.eat_space();
    let next = after.peek();
    before.is_some_and(|c| CURRENCY_SYMBOLS.contains(&c))
        || next.is_some_and(|c| {
            CURRENCY_SYMBOLS.contains(&c)
                || CURRENCY_CHARACTERS.contains(&c)
                || matches!(c, '%' | '％' | '°' | '℃' | '℉')
        })
        || word_after(chars, end, CURRENCY_CODES)
        || word_after(chars, end, UNITS)
        || word_after(chars, end, PERCENT_WORDS)
}

impl Numbers {
    /// Whether one `sep` before three digits (`1.000`, `1,000`) marks decimals: as the list's
    /// language and rules write them; unknown when they disagree (the text may follow either),
    /// or when the language has no list.
    fn decimal_mark(&self, sep: char) -> Option<bool> {
        let by_rules = [self.small, self.large].into_iter().find_map(|rules| {
            if rules.decimal == Some(sep) {
                Some(true)
            } else if rules.thousands.flatten().is_some_and(|group| group.char() == sep) {
                Some(false)
            } else {
                None
            }
        });
        let by_language = match self.lang {
            Lang::Other => None,
            lang => Some((sep == ',') == lang.decimal_comma()),
        };
        match (by_rules, by_language) {
            (Some(rules), Some(language)) if rules != language => None,
            (rules, language) => rules.or(language),
        }
    }

    /// `.5` → `0.5`.
    fn leading_zero_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let sep = chars[i];
        if !(sep == '.' || sep == ',' && self.lang.decimal_comma()) {
            return None;
        }
        let prev = masks.prev(chars, i);
        let starts = prev
            .is_none_or(|p| p.is_whitespace() || matches!(p, '(' | '[' | '-' | '−' | '+' | '±' | '~' | '≈'))
            || prev.is_some_and(|p| CURRENCY_SYMBOLS.contains(&p));
        let digits = chars[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let end = i + 1 + digits;
        let ends = chars.get(end).is_none_or(|&c| {
            !(c.is_ascii_digit() || matches!(c, '.' | ',') && chars.get(end + 1).is_some_and(char::is_ascii_digit))
        });
        (starts && digits > 0 && ends).then(|| (end, format!("0{}", chars[i..end].iter().collect::<String>())))
    }

    /// Separators: a number rewritten as the list says.
    fn separators_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        if !chars[i].is_ascii_digit() || !number_may_start(masks, chars, i) {
            return None;
        }
        let token = token(chars, i, self.lang)?;
        let skip = Some((token.end, chars[i..token.end].iter().collect()));
        let next = chars.get(token.end).copied();
        if next.is_some_and(|c| matches!(c, '_' | '@') || is_mask(c) && masks.resolve(c) != '\u{FFFC}')
            || matches!(next, Some('/' | ':')) && chars.get(token.end + 1).is_some_and(char::is_ascii_digit)
            || after_version_word(chars, i)
        {
            return skip;
        }
        // `10.15` may be a time where the list writes times so, or where a period does not
        // mark decimals (German `kommt 10.15 an`), unless it is clearly a quantity.
        let times_possible = self.period_times || self.lang.decimal_comma() && !is_quantity(chars, i, token.end);
        let is_period_time = times_possible
            && token.seps == ['.']
            && token.groups[0].len() <= 2
            && token.groups[1].len() == 2
            && token.groups[0].parse::<u32>().is_ok_and(|h| h <= 24)
            && token.groups[1].parse::<u32>().is_ok_and(|m| m < 60);
        if is_period_time {
            return skip;
        }
        let Some(reading) = token.read(|sep| self.decimal_mark(sep)) else {
            return skip;
        };
        if reading.integer.len() > 1 && reading.integer.starts_with('0') {
            return skip;
        }
        // A frequency is a frequency whatever its size.
        let radio = (self.small.radio || self.large.radio) && word_after(chars, token.end, &["FM", "MHz"]);
        let rules = if reading.integer.len() <= 4 { self.small } else { self.large };
        let decimal = if radio {
            '.'
        } else {
            rules.decimal.or(reading.decimal).unwrap_or(if self.lang.decimal_comma() { ',' } else { '.' })
        };
        let default_group = || match decimal {
            ',' if self.lang == Lang::Fr => '\u{202f}',
            ',' => '.',
            _ => ',',
        };
        let group = match rules.thousands {
            _ if radio => None,
            Some(None) => None,
            Some(Some(group)) => {
                let wanted = match group {
                    // A space keeps the kind of space it was written with.
                    Group::Space => reading.thousands.filter(|c| is_space(*c)).unwrap_or(group.char()),
                    group => group.char(),
                };
                let digits = reading.integer.len();
                let groups = digits >= 5
                    && (reading.thousands.is_some() || reading.decimals.is_some() || is_quantity(chars, i, token.end))
                    || digits == 4 && (reading.thousands.is_some() || reading.decimals.is_some());
                groups.then_some(wanted)
            }
            None => reading.thousands.map(|c| if c == decimal { default_group() } else { c }),
        };
        let mut out = String::with_capacity(token.end - i + 4);
        let digits: Vec<char> = reading.integer.chars().collect();
        for (n, digit) in digits.iter().enumerate() {
            if n > 0
                && (digits.len() - n).is_multiple_of(3)
                && let Some(group) = group
            {
                out.push(group);
            }
            out.push(*digit);
        }
        if let Some(decimals) = &reading.decimals {
            out.push(decimal);
            out.push_str(decimals);
        }
        Some((token.end, out))
    }

    /// `5 %` ↔ `5%`, `5 percent`, …
    fn percent_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let end = number_end(masks, chars, i, self.lang)?;
        let mut cursor = Cursor::new(chars, end);
        let space: String = cursor.peek().filter(|c| is_space(*c)).into_iter().collect();
        cursor.eat_space();
        let found = if cursor.eat('%') || cursor.eat('％') {
            true
        } else {
            let word = PERCENT_WORDS.iter().find(|word| {
                let mut ahead = cursor;
                // A word after a space, or a Korean or Japanese word right after the number.
                let cjk = word.chars().next().is_some_and(is_cjk);
                (!space.is_empty() || cjk)
                    && ahead.eat_str(word)
                    && (cjk || ahead.peek().is_none_or(|c| !c.is_alphanumeric()))
            });
            word.is_some_and(|word| cursor.eat_str(word))
        };
        if !found {
            return None;
        }
        let number: String = chars[i..end].iter().collect();
        let out = match self.percent? {
            Percent::Sign { space: keep, full_width } => {
                let sign = if full_width { '％' } else { '%' };
                let space = match keep {
                    None => space,
                    Some(true) if space.is_empty() => "\u{a0}".to_owned(),
                    Some(true) => space,
                    Some(false) => String::new(),
                };
                format!("{number}{space}{sign}")
            }
            Percent::Word { word, space: true } => {
                let space = if space.is_empty() { " ".to_owned() } else { space };
                format!("{number}{space}{word}")
            }
            Percent::Word { word, space: false } => format!("{number}{word}"),
        };
        Some((cursor.pos, out))
    }

    /// `20 °C` ↔ `20°C`, `20度`.
    fn temperature_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let end = number_end(masks, chars, i, self.lang)?;
        let mut cursor = Cursor::new(chars, end);
        let space: String = cursor.peek().filter(|c| is_space(*c)).into_iter().collect();
        cursor.eat_space();
        let (_, symbol) = TEMPERATURE_SYMBOLS.iter().find(|(written, _)| cursor.eat_str(written))?;
        if cursor.peek().is_some_and(|c| c.is_alphanumeric() && !is_cjk(c)) {
            return None;
        }
        let number: String = chars[i..end].iter().collect();
        let out = match self.temperature? {
            Temperature::Symbol { space: false } => format!("{number}{symbol}"),
            Temperature::Symbol { space: true } => {
                let space = if space.is_empty() { "\u{a0}".to_owned() } else { space };
                format!("{number}{space}{symbol}")
            }
            Temperature::Word(word) => format!("{number}{word}"),
        };
        Some((cursor.pos, out))
    }

    /// A currency symbol before or after an amount, moved and spaced as the list says.
    fn currency_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let currency = self.currency?;
        // The symbol first: `€5`, `US$ 5`.
        if let Some((symbol, symbol_end)) = currency_symbol(masks, chars, i) {
            let mut cursor = Cursor::new(chars, symbol_end);
            let space: String = cursor.peek().filter(|c| is_space(*c)).into_iter().collect();
            cursor.eat_space();
            let amount_start = cursor.pos;
            let amount_end = number_end(masks, chars, amount_start, self.lang)?;
            let amount: String = chars[amount_start..amount_end].iter().collect();
            if !currency.before && !amount_ends(chars, amount_end) {
                return None;
            }
            return Some((amount_end, self.amount(&symbol, &amount, &space)));
        }
        // The amount first: `5 €`.
        let amount_end = number_end(masks, chars, i, self.lang)?;
        if currency.before && in_range_before(chars, i) {
            return None;
        }
        let mut cursor = Cursor::new(chars, amount_end);
        let space: String = cursor.peek().filter(|c| is_space(*c)).into_iter().collect();
        cursor.eat_space();
        let symbol_start = cursor.pos;
        let symbol_end = symbol_after(chars, symbol_start)?;
        let symbol: String = chars[symbol_start..symbol_end].iter().collect();
        let amount: String = chars[i..amount_end].iter().collect();
        Some((symbol_end, self.amount(&symbol, &amount, &space)))
    }

    /// An amount and its symbol as the list writes them; `space` is the space written between
    /// them, if any.
    fn amount(&self, symbol: &str, amount: &str, space: &str) -> String {
        let Some(currency) = self.currency else {
            return String::new();
        };
        let symbol: String = symbol.chars().map(|c| width(c, currency.width)).collect();
        let space = match (currency.space, space.is_empty()) {
            (false, _) => "",
            (true, true) => "\u{a0}",
            (true, false) => space,
        };
        if currency.before { format!("{symbol}{space}{amount}") } else { format!("{amount}{space}{symbol}") }
    }

    /// A space between a number and a unit, or none.
    fn units_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let spaced = self.units?;
        let end = number_end(masks, chars, i, self.lang)?;
        let mut cursor = Cursor::new(chars, end);
        let space: String = cursor.peek().filter(|c| is_space(*c)).into_iter().collect();
        cursor.eat_space();
        let unit = unit_at(chars, cursor.pos)?;
        let number: String = chars[i..end].iter().collect();
        let space = match (spaced, space.is_empty()) {
            (false, _) => "",
            (true, true) => "\u{a0}",
            (true, false) => &space,
        };
        Some((cursor.pos + unit.chars().count(), format!("{number}{space}{unit}")))
    }

    /// `10 x 20 cm` → `10 × 20 cm`.
    fn dimensions_at(&self, masks: &Masks, chars: &[char], i: usize) -> Option<(usize, String)> {
        let dimensions = self.dimensions?;
        let mut end = number_end(masks, chars, i, self.lang)?;
        let mut out: String = chars[i..end].iter().collect();
        let mut signs = 0;
        loop {
            let mut cursor = Cursor::new(chars, end);
            // A unit may follow each number: `10 cm x 20 cm`.
            let mut unit = String::new();
            let mut with_unit = cursor;
            with_unit.eat_space();
            if let Some(found) = unit_at(chars, with_unit.pos) {
                let mut after_unit = with_unit;
                after_unit.pos += found.chars().count();
                let mut ahead = after_unit;
                ahead.eat_space();
                if matches!(ahead.peek(), Some('x' | 'X' | '×')) {
                    unit = chars[cursor.pos..after_unit.pos].iter().collect();
                    cursor = after_unit;
                }
            }
            let spaces_before = cursor.eat_spaces();
            if !matches!(cursor.peek(), Some('x' | 'X' | '×')) {
                break;
            }
            // `0x1F` is hexadecimal.
            if signs == 0 && unit.is_empty() && spaces_before == 0 && out == "0" {
                return None;
            }
            cursor.pos += 1;
            let spaces_after = cursor.eat_spaces();
            if spaces_before > 1 || spaces_after > 1 {
                break;
            }
            let Some(next_end) = chars
                .get(cursor.pos)
                .filter(|c| c.is_ascii_digit())
                .and_then(|_| token(chars, cursor.pos, self.lang).map(|token| token.end))
            else {
                break;
            };
            out.push_str(&unit);
            if dimensions.space {
                out.push(' ');
                out.push(dimensions.sign);
                out.push(' ');
            } else {
                out.push(dimensions.sign);
            }
            out.extend(&chars[cursor.pos..next_end]);
            end = next_end;
            signs += 1;
        }
        (signs > 0).then_some((end, out))
    }
}

/// A currency symbol at `i` (with a dollar's country prefix): the symbol and its end.
fn currency_symbol(masks: &Masks, chars: &[char], i: usize) -> Option<(String, usize)> {
    if masks.prev(chars, i).is_some_and(|p| p.is_alphanumeric() && !is_cjk(p)) {
        return None;
    }
    let mut cursor = Cursor::new(chars, i);
    for prefix in DOLLAR_PREFIXES {
        let mut ahead = cursor;
        if ahead.eat_str(prefix) && ahead.eat('$') {
            return Some((chars[i..ahead.pos].iter().collect(), ahead.pos));
        }
    }
    let c = cursor.peek()?;
    CURRENCY_SYMBOLS.contains(&c).then(|| {
        cursor.pos += 1;
        (c.to_string(), cursor.pos)
    })
}

/// The end of a currency symbol at `i`, after an amount.
fn symbol_after(chars: &[char], i: usize) -> Option<usize> {
    let mut cursor = Cursor::new(chars, i);
    let matched = DOLLAR_PREFIXES.iter().any(|prefix| {
        let mut ahead = cursor;
        let found = ahead.eat_str(prefix) && ahead.eat('$');
        if found {
            cursor = ahead;
        }
        found
    }) || cursor.peek().is_some_and(|c| CURRENCY_SYMBOLS.contains(&c)) && {
        cursor.pos += 1;
        true
    };
    let ends = cursor.peek().is_none_or(|c| !c.is_alphanumeric() || is_cjk(c));
    (matched && ends).then_some(cursor.pos)
}

/// Whether an amount ending at `end` ends there: no word of size, letter or range follows.
fn amount_ends(chars: &[char], end: usize) -> bool {
    let next = chars.get(end).copied();
    if next.is_some_and(|c| c.is_alphanumeric()) || word_after(chars, end, MAGNITUDES) {
        return false;
    }
    let mut cursor = Cursor::new(chars, end);
    cursor.eat_space();
    let dash = cursor.peek().is_some_and(|c| matches!(c, '-' | '–' | '—' | '~' | '〜' | '～'));
    cursor.pos += 1;
    cursor.eat_space();
    !(dash && cursor.peek().is_some_and(|c| c.is_ascii_digit()))
}

/// Whether the number at `i` ends a range (`5–10 €`).
fn in_range_before(chars: &[char], i: usize) -> bool {
    let mut j = i;
    while j > 0 && is_space(chars[j - 1]) {
        j -= 1;
    }
    if j == 0 || !matches!(chars[j - 1], '-' | '–' | '—' | '~' | '〜' | '～') {
        return false;
    }
    j -= 1;
    while j > 0 && is_space(chars[j - 1]) {
        j -= 1;
    }
    j > 0 && chars[j - 1].is_ascii_digit()
}

/// The unit symbol at `i` that ends a word there.
fn unit_at(chars: &[char], i: usize) -> Option<&'static str> {
    UNITS.iter().copied().find(|unit| {
        let mut cursor = Cursor::new(chars, i);
        cursor.eat_str(unit)
            && cursor.peek().is_none_or(|c| (!c.is_alphanumeric() || is_cjk(c)) && !matches!(c, '\'' | '’' | '/'))
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::tests::{Example, check_examples, rewrite};

    /// One example or more per mechanical option of this family.
    pub(in crate::mechanical) const EXAMPLES: &[Example] = &[
        // Separators.
        (
            "numbers",
            "decimal_separator",
            "use_comma_and_do_not_use_thousands_separator",
            "de",
            "1.234.567,5 und 12.000 €",
            "1234567,5 und 12000 €",
        ),
        (
            "numbers",
            "decimal_separator",
            "use_comma_as_decimal_separator",
            "en",
            "1,234.5 and 3.14",
            "1.234,5 and 3,14",
        ),
        (
            "numbers",
            "decimal_separator",
            "use_comma_do_not_use_thousands_separator_and_use_period_only_for_radio_stations",
            "es",
            "1.234,5 y 3.5; Radio 98,5 FM",
            "1234,5 y 3,5; Radio 98.5 FM",
        ),
        (
            "numbers",
            "decimal_separator",
            "use_period_and_do_not_use_thousands_separator",
            "fr",
            "1 234,5 et 0,5",
            "1234.5 et 0.5",
        ),
        ("numbers", "decimal_separator", "use_period_as_decimal_separator", "de", "1.234,5 und 2,5", "1,234.5 und 2.5"),
        ("numbers", "thousands_separator", "do_not_use", "en", "1,234,567 and 12,345.5", "1234567 and 12345.5"),
        ("numbers", "thousands_separator", "do_not_use_thousands_separator", "de", "1.234.567", "1234567"),
        (
            "numbers",
            "thousands_separator",
            "use_comma",
            "en",
            "1\u{a0}234\u{a0}567 and 12000 USD",
            "1,234,567 and 12,000 USD",
        ),
        (
            "numbers",
            "thousands_separator",
            "use_comma_to_separate_large_numbers_into_units_of_three",
            "ja",
            "12345.5円",
            "12,345.5円",
        ),
        (
            "numbers",
            "thousands_separator",
            "use_period",
            "it",
            "1\u{a0}234\u{a0}567 e 20000 km",
            "1.234.567 e 20.000 km",
        ),
        ("numbers", "thousands_separator", "use_period_as_thousands_separator", "es", "1\u{a0}234,5", "1.234,5"),
        ("numbers", "thousands_separator", "use_space", "fr", "1.234.567,5", "1\u{202f}234\u{202f}567,5"),
        ("numbers", "thousands_separator", "use_space_as_thousands_separator", "de", "1.234,5 kg", "1\u{202f}234,5 kg"),
        (
            "numbers",
            "thousands_separator",
            "use_space_to_separate_large_numbers_into_units_of_three",
            "en",
            "1,234,567.5",
            "1\u{202f}234\u{202f}567.5",
        ),
        (
            "numbers",
            "thousands_separator",
            "use_straight_apostrophe_as_thousands_separator",
            "de",
            "1.234.567,5 CHF",
            "1'234'567,5 CHF",
        ),
        (
            "numbers",
            "large_number_format",
            "use_comma_to_separate_large_numbers_into_units_of_three_except_for_calendar_years",
            "en",
            "In 2024, 12345678 USD and 1\u{a0}234\u{a0}567.5",
            "In 2024, 12,345,678 USD and 1,234,567.5",
        ),
        (
            "numbers",
            "number_format",
            "use_half_width_comma_to_separate_large_numbers_into_units_of_three_except_for_calendar_years_and_use_half_width_period_as_decimal_separator",
            "ja",
            "2024年に12345678円、3,5",
            "2024年に12,345,678円、3.5",
        ),
        (
            "numbers",
            "numbers_of_5_digits_or_more",
            "use_comma_as_decimal_separator_and_period_as_thousands_separator",
            "es",
            "12\u{a0}345,5 y 1234,5",
            "12.345,5 y 1234,5",
        ),
        (
            "numbers",
            "numbers_of_5_digits_or_more",
            "use_comma_as_decimal_separator_and_space_as_thousands_separator",
            "es",
            "12.345,5 y 1.234,5",
            "12\u{202f}345,5 y 1.234,5",
        ),
        (
            "numbers",
            "numbers_of_5_digits_or_more",
            "use_comma_as_decimal_separator_period_as_thousands_separator_and_period_for_radio_stations",
            "it",
            "12\u{a0}345,5 e 104,5 MHz",
            "12.345,5 e 104.5 MHz",
        ),
        (
            "numbers",
            "numbers_of_5_digits_or_more",
            "use_comma_as_decimal_separator_space_as_thousands_separator_and_period_for_radio_stations",
            "it",
            "12.345,5",
            "12\u{202f}345,5",
        ),
        (
            "numbers",
            "numbers_of_5_digits_or_more",
            "use_period_as_decimal_separator_and_comma_as_thousands_separator",
            "es",
            "12.345,5",
            "12,345.5",
        ),
        (
            "numbers",
            "numbers_of_5_digits_or_more",
            "use_period_as_decimal_separator_and_space_as_thousands_separator",
            "es",
            "12.345,5",
            "12\u{202f}345.5",
        ),
        (
            "numbers",
            "numbers_up_to_4_digits",
            "use_comma_as_decimal_separator_and_period_as_thousands_separator",
            "es",
            "1\u{a0}234.5 y 12345.5",
            "1.234,5 y 12345.5",
        ),
        (
            "numbers",
            "numbers_up_to_4_digits",
            "use_comma_as_decimal_separator_and_space_as_thousands_separator",
            "es",
            "1.234,5",
            "1\u{202f}234,5",
        ),
        (
            "numbers",
            "numbers_up_to_4_digits",
            "use_comma_as_decimal_separator_period_as_thousands_separator_and_period_for_radio_stations",
            "it",
            "1\u{a0}234,5 e 98,5 FM",
            "1.234,5 e 98.5 FM",
        ),
        (
            "numbers",
            "numbers_up_to_4_digits",
            "use_comma_as_decimal_separator_space_as_thousands_separator_and_period_for_radio_stations",
            "it",
            "1.234,5 e 98,5 FM",
            "1\u{202f}234,5 e 98.5 FM",
        ),
        (
            "numbers",
            "numbers_up_to_4_digits",
            "use_period_as_decimal_separator_and_comma_as_thousands_separator",
            "es",
            "1.234,5",
            "1,234.5",
        ),
        (
            "numbers",
            "numbers_up_to_4_digits",
            "use_period_as_decimal_separator_and_space_as_thousands_separator",
            "es",
            "1.234,5",
            "1\u{202f}234.5",
        ),
        (
            "numbers",
            "decimal_numbers_less_than_one",
            "always_use_0_before_decimal_separator",
            "en",
            "a .5 mm gap, (.25)",
            "a 0.5 mm gap, (0.25)",
        ),
        // Percentages.
        (
            "numbers",
            "percentage_format",
            "use_arabic_numerals_followed_by_percent_symbol_without_space",
            "en",
            "5 % and 10 percent",
            "5% and 10%",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_full_width_percent_symbol_without_space",
            "ja",
            "5%と10 %",
            "5％と10％",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_japanese_word_パーセント_without_space",
            "ja",
            "5%と10％",
            "5パーセントと10パーセント",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_korean_word_퍼센트",
            "ko",
            "5 %와 10%",
            "5퍼센트와 10퍼센트",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_percent_symbol",
            "en",
            "5 percent, 6％, 7 %",
            "5 %, 6%, 7 %",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_space_then_german_word_prozent",
            "de",
            "5 % und 10%",
            "5 Prozent und 10 Prozent",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_space_then_half_width_percent_symbol",
            "ja",
            "5％",
            "5\u{a0}%",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_space_then_italian_word_per_cento",
            "it",
            "5% e 10 percento",
            "5 per cento e 10 per cento",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_space_then_italian_word_percento",
            "it",
            "5% e 10 per cento",
            "5 percento e 10 percento",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_space_then_korean_word_퍼센트",
            "ko",
            "5%",
            "5 퍼센트",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_space_then_percent_symbol",
            "fr",
            "5%, 6 %",
            "5\u{a0}%, 6 %",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_space_then_spell_out_per_cent",
            "en",
            "5%",
            "5 per cent",
        ),
        (
            "numbers",
            "percentage_format",
            "use_numerals_followed_by_space_then_spell_out_percent",
            "en",
            "5 per cent",
            "5 percent",
        ),
        ("numbers", "percentage_format", "use_spanish_word_por_cien", "es", "el 5 %", "el 5 por cien"),
        (
            "numbers",
            "percentage_format",
            "use_spanish_word_por_ciento",
            "es",
            "el 5 % y 6 por cien",
            "el 5 por ciento y 6 por ciento",
        ),
        // Temperatures.
        (
            "numbers",
            "temperature_format",
            "use_arabic_numerals_followed_by_unit_symbol_without_space",
            "zh",
            "20 °C，-5 ℃",
            "20°C，-5℃",
        ),
        ("numbers", "temperature_format", "use_numerals_followed_by_unit_symbol_without_space", "en", "68 °F", "68°F"),
        (
            "numbers",
            "temperature_format",
            "use_numerals_followed_by_space_then_unit_symbol",
            "de",
            "20°C und 5 ° C",
            "20\u{a0}°C und 5 °C",
        ),
        (
            "numbers",
            "temperature_format",
            "use_numerals_followed_by_japanese_word_度_without_space",
            "ja",
            "20℃",
            "20度",
        ),
        ("numbers", "temperature_format", "use_numerals_followed_by_korean_word_도", "ko", "20 °C", "20도"),
        // Currency.
        (
            "numbers",
            "currency_format",
            "use_amount_followed_by_currency_symbol_without_space",
            "de",
            "€5 und 7 €",
            "5€ und 7€",
        ),
        (
            "numbers",
            "currency_format",
            "use_amount_followed_by_space_then_currency_symbol",
            "fr",
            "€5, US$ 7 et 8€",
            "5\u{a0}€, 7 US$ et 8\u{a0}€",
        ),
        (
            "numbers",
            "currency_format",
            "use_currency_symbol_followed_by_amount_without_space",
            "en",
            "5 € and $ 7",
            "€5 and $7",
        ),
        (
            "numbers",
            "currency_format",
            "use_currency_symbol_followed_by_space_then_amount",
            "it",
            "5€ e € 7",
            "€\u{a0}5 e € 7",
        ),
        (
            "numbers",
            "currency_format",
            "use_full_width_currency_symbol_followed_by_amount_without_space",
            "ja",
            "¥500と500 ￥",
            "￥500と￥500",
        ),
        (
            "numbers",
            "currency_format",
            "use_half_width_currency_symbol_followed_by_amount_without_space",
            "ja",
            "￥500と500¥",
            "¥500と¥500",
        ),
        (
            "numbers",
            "currency_format",
            "use_half_width_currency_symbol_followed_by_space_then_amount",
            "zh",
            "￥500",
            "¥\u{a0}500",
        ),
        // Units and dimensions.
        (
            "numbers",
            "units_of_measure_spacing",
            "do_not_use_space_between_numeral_and_unit_of_measure",
            "en",
            "5 kg, 100 km/h and 3 GB",
            "5kg, 100km/h and 3GB",
        ),
        (
            "numbers",
            "units_of_measure_spacing",
            "use_space_between_numeral_and_unit_of_measure",
            "de",
            "5kg, 100km/h und 3 GB",
            "5\u{a0}kg, 100\u{a0}km/h und 3 GB",
        ),
        (
            "formatting",
            "space_between_arabic_numerals_and_unit",
            "do_not_use",
            "zh",
            "重 5 kg，长 20 cm",
            "重 5kg，长 20cm",
        ),
        (
            "numbers",
            "dimensions_separator",
            "use_multiplication_sign_between_dimensions_with_space_on_either_side",
            "de",
            "10x20 cm und 1920 x 1080",
            "10 × 20 cm und 1920 × 1080",
        ),
        (
            "numbers",
            "dimensions_separator",
            "use_multiplication_sign_between_dimensions_without_space_on_either_side",
            "en",
            "10 cm x 20 cm x 5 cm",
            "10 cm×20 cm×5 cm",
        ),
        (
            "numbers",
            "dimensions_separator",
            "use_x_between_dimensions_with_space_on_either_side",
            "fr",
            "10×20",
            "10 x 20",
        ),
        (
            "numbers",
            "dimensions_separator",
            "use_x_between_dimensions_without_space_on_either_side",
            "en",
            "10 × 20 mm",
            "10x20 mm",
        ),
    ];

    #[test]
    fn examples_hold() {
        check_examples(EXAMPLES);
    }

    const COMMA: (&str, &str, &str) = ("numbers", "decimal_separator", "use_comma_as_decimal_separator");
    const PERIOD: (&str, &str, &str) = ("numbers", "decimal_separator", "use_period_as_decimal_separator");

    #[test]
    fn one_separator_and_three_digits_follow_the_lists_language_and_rules() {
        // In English `1.000` is one with three decimals; `1,000` is a thousand in English but
        // one with three decimals under this rule: left alone.
        assert_eq!(rewrite(&[COMMA], "en", "1.000 and 1,000"), "1,000 and 1,000");
        // In German `1,000` is one with three decimals; `1.000` is a thousand in German but
        // one with three decimals under this rule: left alone.
        assert_eq!(rewrite(&[PERIOD], "de", "1.000 und 1,000"), "1.000 und 1.000");
        // Where language and rules agree, the number is rewritten.
        let thousands = ("numbers", "thousands_separator", "use_space");
        assert_eq!(rewrite(&[thousands], "en", "1,000 and 1.000"), "1\u{202f}000 and 1.000");
        // Only decimals can start with a zero or have four digits before the separator.
        assert_eq!(rewrite(&[PERIOD], "de", "0,125 und 1234,567"), "0.125 und 1234.567");
    }

    #[test]
    fn numbers_that_may_be_something_else_are_left_alone() {
        for text in [
            "1.2.3",
            "192.168.0.1",
            "v1.2",
            "A4",
            "COVID-19",
            "Version 3.12",
            "version 3,12",
            "007",
            "0,5.3",
            "1,2,3",
            "ratio 1.5:1",
            "x_1.5",
            "1.5@x",
            "12.34.56",
        ] {
            assert_eq!(rewrite(&[COMMA], "en", text), text, "{text}");
        }
    }

    #[test]
    fn plain_integers_are_grouped_only_as_quantities() {
        let rule = ("numbers", "thousands_separator", "use_period");
        assert_eq!(
            rewrite(&[rule], "de", "75001 Paris, Bestellung 123456, 2024"),
            "75001 Paris, Bestellung 123456, 2024"
        );
        assert_eq!(rewrite(&[rule], "de", "12000 € und 12000 km"), "12.000 € und 12.000 km");
        assert_eq!(rewrite(&[rule], "de", "1234 € und 1,234"), "1234 € und 1,234");
        assert_eq!(rewrite(&[rule], "en", "1,234 and 12345.5"), "1.234 and 12.345.5");
    }

    #[test]
    fn a_thousands_separator_that_would_clash_is_replaced() {
        assert_eq!(rewrite(&[COMMA], "en", "1,234,567.89"), "1.234.567,89");
        assert_eq!(rewrite(&[COMMA], "fr", "1,234,567.89"), "1\u{202f}234\u{202f}567,89");
        assert_eq!(rewrite(&[PERIOD], "de", "1.234.567,89"), "1,234,567.89");
    }

    #[test]
    fn period_times_are_not_decimals_where_the_list_writes_times_so() {
        let time = ("dates_and_times", "time_format", "use_24_hour_clock_with_period_as_separator");
        let once = rewrite(&[time, COMMA], "it", "alle 14:30, 3.5 kg");
        assert_eq!(once, "alle 14.30, 3,5 kg");
        assert_eq!(rewrite(&[time, COMMA], "it", &once), once);
    }

    #[test]
    fn dates_and_times_are_not_numbers() {
        assert_eq!(rewrite(&[COMMA], "en", "24.12.2024 at 10.30 a.m."), "24.12.2024 at 10.30 a.m.");
        assert_eq!(rewrite(&[PERIOD], "de", "am 24.12.2024 um 10.30 Uhr"), "am 24.12.2024 um 10.30 Uhr");
    }

    #[test]
    fn a_symbol_stays_before_an_amount_with_a_word_of_size_or_a_range() {
        let rule = ("numbers", "currency_format", "use_amount_followed_by_space_then_currency_symbol");
        assert_eq!(rewrite(&[rule], "en", "$5 million, €5–10, $5m"), "$5 million, €5–10, $5m");
        let rule = ("numbers", "currency_format", "use_currency_symbol_followed_by_amount_without_space");
        assert_eq!(rewrite(&[rule], "en", "5–10 €"), "5–10 €");
    }

    #[test]
    fn hexadecimal_is_not_a_dimension() {
        let rule =
            ("numbers", "dimensions_separator", "use_multiplication_sign_between_dimensions_with_space_on_either_side");
        assert_eq!(rewrite(&[rule], "en", "0x1F and 2x faster"), "0x1F and 2x faster");
    }

    #[test]
    fn units_need_a_word_boundary() {
        let rule = ("numbers", "units_of_measure_spacing", "do_not_use_space_between_numeral_and_unit_of_measure");
        assert_eq!(rewrite(&[rule], "fr", "5 millions, 3 l'eau, 2 mois"), "5 millions, 3 l'eau, 2 mois");
    }
}
