//! Times of day: `dates_and_times.time_format`, `hours_minutes_separator`,
//! `hours_minutes_seconds_separator`, `single_digit_hours`, `midnight_in_numerals`.
//!
//! # What is recognised
//!
//! * `14:30`, `9:05:30`: hours (0–24), two-digit minutes and seconds, with colons;
//! * `14h30`, `14 h 30`: with the letter h (but not `10 h 30 min`, a duration);
//! * `14.30`, `9 Uhr`, `5 pm`: periods, or no minutes, only before `Uhr` or a marker;
//! * a marker after any of them: `a.m.`, `p.m.`, `A.M.`, `P.M.`, `a. m.`, `p. m.`, and in English
//!   lists also `am`, `pm`, `AM`, `PM`;
//! * Korean `오후 2시 30분`, `14시`.
//!
//! A time is not read inside a word or a longer run of numbers (but both ends of a range such as
//! `9:00-17:00` are), nor when a letter follows it (`10:30h`). `3:16` is read as a time; a ratio needs one-digit minutes (`16:9`).
//!
//! # Heuristics
//!
//! A time with a marker, `Uhr`, a leading zero (`09:30`), an hour of 0 or 13–24, or in a list
//! whose language uses the 24-hour clock, is read on the 24-hour clock; `12:xx` is past noon on
//! either clock. In English (and in Korean without `오전`/`오후`) `1:00` to `11:59` without a
//! marker may be morning or evening:
//! such a time is not converted between the clocks (only its separator and zeros may change).
//!
//! A format adds or drops `Uhr` and markers only as the clock needs: `Uhr` is kept where it was
//! written, never added (`9:30–10:00 Uhr` stays one phrase), and dropped only for a marker.
//! Korean formats leave out zero minutes (`14시`).
//!
//! Not mechanical: spelled-out times, `specify_morning_or_evening`, the Chinese formats (which of
//! 上午, 下午, 早上, 晚上 to write is a matter of the day's parts), `use_12_hour_clock_with_arabic_numerals_and_colon`
//! (no marker is named), and `hours_minutes_seconds_separator: use_colon` (`10.30.15` cannot be
//! told from a version number).

use super::text::{
    Cursor, Lang, MaskKind, Masks, Text, is_hangul, is_letter, is_space, number_may_end, number_may_start,
};
use crate::ConfiguredRules;

const CATEGORY: &str = "dates_and_times";

/// A separator between hours and minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    Colon,
    Period,
    /// `14h30`
    H,
    /// `14 h 30`
    SpacedH,
}

impl Sep {
    fn text(self) -> &'static str {
        match self {
            Sep::Colon => ":",
            Sep::Period => ".",
            Sep::H => "h",
            Sep::SpacedH => " h ",
        }
    }
}

/// How a marker is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Marker {
    upper: bool,
    periods: bool,
    /// `a. m.`
    spaced: bool,
}

impl Marker {
    fn text(self, pm: bool) -> &'static str {
        match (self.upper, self.periods, self.spaced, pm) {
            (_, _, true, false) => "a. m.",
            (_, _, true, true) => "p. m.",
            (false, false, _, false) => "am",
            (false, false, _, true) => "pm",
            (true, false, _, false) => "AM",
            (true, false, _, true) => "PM",
            (false, true, _, false) => "a.m.",
            (false, true, _, true) => "p.m.",
            (true, true, _, false) => "A.M.",
            (true, true, _, true) => "P.M.",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Clock {
    Twelve {
        marker: Option<Marker>,
        noon_and_midnight: bool,
    },
    TwentyFour,
    /// The `… Uhr` formats: the 24-hour clock, minutes always written (unless said otherwise).
    Uhr,
    Korean12,
    Korean24,
}

/// What `time_format` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Format {
    clock: Clock,
    sep: Option<Sep>,
    pad: Option<bool>,
    omit_zero_minutes: bool,
}

const fn format(clock: Clock) -> Format {
    Format { clock, sep: None, pad: None, omit_zero_minutes: false }
}

const fn twelve(upper: bool, periods: bool, noon_and_midnight: bool) -> Format {
    format(Clock::Twelve { marker: Some(Marker { upper, periods, spaced: false }), noon_and_midnight })
}

fn time_format(option: &str) -> Option<Format> {
    Some(match option {
        "use_12_hour_clock_and_do_not_specify_morning_or_evening" => {
            format(Clock::Twelve { marker: None, noon_and_midnight: false })
        }
        "use_12_hour_clock_and_lowercase_am_or_pm_with_periods" => twelve(false, true, false),
        "use_12_hour_clock_and_lowercase_am_or_pm_with_periods_except_use_noon_and_midnight_instead_of_12_am_and_12_pm" => {
            twelve(false, true, true)
        }
        "use_12_hour_clock_and_lowercase_am_or_pm_without_periods" => twelve(false, false, false),
        "use_12_hour_clock_and_lowercase_am_or_pm_without_periods_except_use_noon_and_midnight_instead_of_12_am_and_12_pm" => {
            twelve(false, false, true)
        }
        "use_12_hour_clock_and_uppercase_am_or_pm_with_periods" => twelve(true, true, false),
        "use_12_hour_clock_and_uppercase_am_or_pm_with_periods_except_use_noon_and_midnight_instead_of_12_am_and_12_pm" => {
            twelve(true, true, true)
        }
        "use_12_hour_clock_and_uppercase_am_or_pm_without_periods" => twelve(true, false, false),
        "use_12_hour_clock_and_uppercase_am_or_pm_without_periods_except_use_noon_and_midnight_instead_of_12_am_and_12_pm" => {
            twelve(true, false, true)
        }
        "use_12_hour_clock_without_leading_zero_or_minutes_for_full_hours_use_colon_as_separator_and_lowercase_am_or_pm_without_periods" => {
            Format { sep: Some(Sep::Colon), pad: Some(false), omit_zero_minutes: true, ..twelve(false, false, false) }
        }
        "use_12_hour_clock_without_leading_zero_or_minutes_for_full_hours_use_colon_as_separator_and_uppercase_am_or_pm_without_periods" => {
            Format { sep: Some(Sep::Colon), pad: Some(false), omit_zero_minutes: true, ..twelve(true, false, false) }
        }
        "use_12_hour_clock_without_leading_zero_use_period_as_separator_and_lowercase_am_or_pm_with_periods_and_spaces" => {
            Format {
                clock: Clock::Twelve {
                    marker: Some(Marker { upper: false, periods: true, spaced: true }),
                    noon_and_midnight: false,
                },
                sep: Some(Sep::Period),
                pad: Some(false),
                omit_zero_minutes: false,
            }
        }
        "use_12_hour_clock_with_korean_words_시_and_분" => format(Clock::Korean12),
        "use_24_hour_clock" => format(Clock::TwentyFour),
        "use_24_hour_clock_with_arabic_numerals_and_colon" | "use_24_hour_clock_with_colon_as_separator" => {
            Format { sep: Some(Sep::Colon), ..format(Clock::TwentyFour) }
        }
        "use_24_hour_clock_with_period_as_separator" => Format { sep: Some(Sep::Period), ..format(Clock::TwentyFour) },
        "use_24_hour_clock_with_korean_words_시_and_분" => format(Clock::Korean24),
        "use_hh_colon_mm_german_word_uhr_with_leading_zeros_for_single_digit_hours" => {
            Format { sep: Some(Sep::Colon), pad: Some(true), ..format(Clock::Uhr) }
        }
        "use_hh_colon_mm_german_word_uhr_without_leading_zeros_for_single_digit_hours" => {
            Format { sep: Some(Sep::Colon), pad: Some(false), ..format(Clock::Uhr) }
        }
        "use_hh_period_mm_german_word_uhr_with_leading_zeros_for_single_digit_hours" => {
            Format { sep: Some(Sep::Period), pad: Some(true), ..format(Clock::Uhr) }
        }
        "use_hh_period_mm_german_word_uhr_without_leading_zeros_for_single_digit_hours" => {
            Format { sep: Some(Sep::Period), pad: Some(false), ..format(Clock::Uhr) }
        }
        "use_hh_period_mm_german_word_uhr_without_leading_zeros_for_single_digit_hours_and_for_full_hours_state_hour_only" => {
            Format { sep: Some(Sep::Period), pad: Some(false), omit_zero_minutes: true, ..format(Clock::Uhr) }
        }
        _ => return None,
    })
}

fn hours_minutes_separator(option: &str) -> Option<Sep> {
    match option {
        "use_colon_without_spaces" => Some(Sep::Colon),
        "use_letter_h_with_regular_space_on_either_side" => Some(Sep::SpacedH),
        "use_letter_h_without_spaces" => Some(Sep::H),
        _ => None,
    }
}

fn seconds_separator(option: &str) -> Option<Sep> {
    (option == "use_period").then_some(Sep::Period)
}

/// How midnight is written on the 24-hour clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Midnight {
    Zero,
    TwentyFour,
}

fn midnight(option: &str) -> Option<Midnight> {
    match option {
        "use_00_00" => Some(Midnight::Zero),
        "use_24_00" => Some(Midnight::TwentyFour),
        _ => None,
    }
}

fn single_digit_hours(option: &str) -> Option<bool> {
    match option {
        "use_leading_zero" => Some(true),
        "do_not_use_leading_zero" => Some(false),
        _ => None,
    }
}

/// Whether this family applies (category, rule, option).
pub(super) fn understands(category: &str, rule: &str, option: &str) -> bool {
    category == CATEGORY
        && match rule {
            "time_format" => time_format(option).is_some(),
            "hours_minutes_separator" => hours_minutes_separator(option).is_some(),
            "hours_minutes_seconds_separator" => seconds_separator(option).is_some(),
            "midnight_in_numerals" => midnight(option).is_some(),
            "single_digit_hours" => single_digit_hours(option).is_some(),
            _ => false,
        }
}

/// The time rules of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Times {
    format: Option<Format>,
    sep: Option<Sep>,
    seconds_sep: Option<Sep>,
    pad: Option<bool>,
    midnight: Option<Midnight>,
    lang: Lang,
}

impl Times {
    pub(super) fn new(rules: &ConfiguredRules, lang: Lang) -> Option<Times> {
        let get = |rule| rules.get(CATEGORY, rule);
        let format = get("time_format").and_then(time_format);
        let times = Times {
            format,
            sep: get("hours_minutes_separator").and_then(hours_minutes_separator).or(format.and_then(|f| f.sep)),
            seconds_sep: get("hours_minutes_seconds_separator").and_then(seconds_separator),
            pad: format.and_then(|f| f.pad).or(get("single_digit_hours").and_then(single_digit_hours)),
            midnight: get("midnight_in_numerals").and_then(midnight),
            lang,
        };
        let any = times.format.is_some()
            || times.sep.is_some()
            || times.seconds_sep.is_some()
            || times.pad.is_some()
            || times.midnight.is_some();
        any.then_some(times)
    }

    /// Whether these rules write times with periods (`14.30`), which the number rules must then
    /// leave alone wherever they cannot be told from decimals.
    pub(super) fn writes_periods(rules: &ConfiguredRules) -> bool {
        Times::new(rules, Lang::Other)
            .is_some_and(|times| times.sep == Some(Sep::Period) || times.seconds_sep == Some(Sep::Period))
    }
}

/// A time found in a text.
#[derive(Debug)]
struct Found {
    end: usize,
    hour: u32,
    hour_padded: bool,
    minute: Option<u32>,
    second: Option<u32>,
    sep: Option<Sep>,
    /// Whether the marker says afternoon, and the marker as written with the space before it.
    marker: Option<(bool, String)>,
    /// `Uhr` as written with the space before it.
    uhr: Option<String>,
    korean: bool,
}

impl Found {
    /// The hour on the 24-hour clock, if certain.
    fn hour24(&self, lang: Lang) -> Option<u32> {
        if let Some((pm, _)) = self.marker {
            return Some(match (pm, self.hour) {
                (false, 12) => 0,
                (true, 12) => 12,
                (false, hour) => hour,
                (true, hour) => hour + 12,
            });
        }
        // 12:xx is past noon on either clock.
        let open = self.uhr.is_none()
            && !self.hour_padded
            && (1..=11).contains(&self.hour)
            && (lang == Lang::En || lang == Lang::Other || self.korean);
        (!open).then_some(self.hour)
    }
}

/// Recognises and masks every time; rewrites them if `times` says how.
pub(super) fn apply(times: Option<&Times>, lang: Lang, text: &mut Text) -> Option<()> {
    // Markers without periods are read in English, and wherever the list writes them.
    let plain_markers = lang == Lang::En || times.is_some_and(Times::writes_plain_markers);
    let chars = std::mem::take(&mut text.chars);
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let may_start = number_may_start(&text.masks, &chars, i) || after_time_and_range_sign(&text.masks, &out);
        let starts = (chars[i].is_ascii_digit() || chars[i] == '오') && may_start;
        let found = if starts { time_at(&chars, i, plain_markers) } else { None };
        let ends =
            |found: &Found| number_may_end(&text.masks, &chars, found.end) || before_range_sign(&chars, found.end);
        let Some(found) = found.filter(ends) else {
            out.push(chars[i]);
            i += 1;
            continue;
        };
        let rendered = times.and_then(|times| times.render(&found));
        let mut end = found.end;
        // A marker's period ends the sentence too (`at 5 p.m.`).
        if rendered.as_ref().is_some_and(|time| time.ends_with('.')) && chars.get(end) == Some(&'.') {
            end += 1;
        }
        let rewritten = rendered.unwrap_or_else(|| chars[i..end].iter().collect());
        out.push(text.masks.push(rewritten, MaskKind::Time)?);
        i = end;
    }
    text.chars = out;
    Some(())
}

impl Times {
    fn writes_plain_markers(&self) -> bool {
        matches!(
            self.format,
            Some(Format { clock: Clock::Twelve { marker: Some(Marker { periods: false, .. }), .. }, .. })
        )
    }
}

/// Signs that join the two ends of a range.
fn is_range_sign(c: char) -> bool {
    matches!(c, '-' | '–' | '~' | '〜' | '～' | '－')
}

/// Whether a range sign and then a digit follow `end` (`9:00-17:00`).
fn before_range_sign(chars: &[char], end: usize) -> bool {
    let mut cursor = Cursor::new(chars, end);
    cursor.eat_space();
    if !cursor.peek().is_some_and(is_range_sign) {
        return false;
    }
    cursor.pos += 1;
    cursor.eat_space();
    cursor.peek().is_some_and(|c| c.is_ascii_digit())
}

/// Whether the text written so far ends with a time and a range sign (`9:00-`).
fn after_time_and_range_sign(masks: &Masks, out: &[char]) -> bool {
    let mut end = out.len();
    if end > 0 && is_space(out[end - 1]) {
        end -= 1;
    }
    if end == 0 || !is_range_sign(out[end - 1]) {
        return false;
    }
    end -= 1;
    if end > 0 && is_space(out[end - 1]) {
        end -= 1;
    }
    end > 0 && masks.kind(out[end - 1]) == Some(MaskKind::Time)
}

/// A marker at the cursor: whether it is afternoon, and its text.
fn marker(cursor: &mut Cursor, plain_markers: bool) -> Option<(bool, &'static str)> {
    const WITH_PERIODS: [(&str, bool); 6] =
        [("a. m.", false), ("p. m.", true), ("a.m.", false), ("p.m.", true), ("A.M.", false), ("P.M.", true)];
    const PLAIN: [(&str, bool); 4] = [("am", false), ("pm", true), ("AM", false), ("PM", true)];
    for (text, pm) in WITH_PERIODS {
        if cursor.eat_str(text) {
            return Some((pm, text));
        }
    }
    if plain_markers {
        for (text, pm) in PLAIN {
            let mut ahead = *cursor;
            if ahead.eat_str(text) && ahead.peek().is_none_or(|c| !c.is_alphanumeric()) {
                *cursor = ahead;
                return Some((pm, text));
            }
        }
    }
    None
}

/// Two-digit minutes or seconds.
fn sixty(cursor: &mut Cursor) -> Option<u32> {
    cursor.digits(2, 2).map(|digits| digits.value).filter(|value| *value < 60)
}

/// A time at `i`.
fn time_at(chars: &[char], i: usize, plain_markers: bool) -> Option<Found> {
    let mut cursor = Cursor::new(chars, i);
    if chars[i] == '오' {
        return korean_time(&mut cursor);
    }
    let hour = cursor.digits(1, 2)?;
    let hour_padded = hour.padded(chars, cursor.pos);
    let after_hour = cursor;
    if cursor.peek() == Some('시') {
        cursor.pos = i;
        return korean_time(&mut cursor);
    }
    let mut found = Found {
        end: 0,
        hour: hour.value,
        hour_padded,
        minute: None,
        second: None,
        sep: None,
        marker: None,
        uhr: None,
        korean: false,
    };
    for sep in [Sep::Colon, Sep::Period, Sep::H, Sep::SpacedH] {
        cursor = after_hour;
        if !cursor.eat_str(sep.text()) {
            continue;
        }
        let Some(minute) = sixty(&mut cursor) else {
            continue;
        };
        found.minute = Some(minute);
        found.sep = Some(sep);
        if matches!(sep, Sep::Colon | Sep::Period) {
            let mut seconds = cursor;
            if seconds.eat_str(sep.text())
                && let Some(second) = sixty(&mut seconds)
            {
                found.second = Some(second);
                cursor = seconds;
            }
        }
        break;
    }
    if found.sep.is_none() {
        cursor = after_hour;
    }
    if matches!(found.sep, Some(Sep::H | Sep::SpacedH)) {
        // `10 h 30 min` is a duration.
        let mut ahead = cursor;
        ahead.eat_spaces();
        if ahead.eat_str("min") {
            return None;
        }
    }
    // What follows: a marker, or `Uhr`.
    let mut suffix = cursor;
    let gap: String = suffix.peek().filter(|c| *c == ' ' || *c == '\u{a0}').into_iter().collect();
    suffix.eat_str(&gap);
    if let Some((pm, text)) = marker(&mut suffix, plain_markers) {
        found.marker = Some((pm, format!("{gap}{text}")));
        cursor = suffix;
    } else if suffix.eat_str("Uhr") && suffix.peek().is_none_or(|c| !is_letter(c)) {
        found.uhr = Some(format!("{gap}Uhr"));
        cursor = suffix;
    }
    let confirmed = found.marker.is_some() || found.uhr.is_some();
    let valid = match found.marker {
        Some(_) => (1..=12).contains(&found.hour),
        None => found.hour < 24 || found.hour == 24 && found.minute.unwrap_or(0) == 0 && found.second.unwrap_or(0) == 0,
    };
    let plain = matches!(found.sep, Some(Sep::Colon | Sep::H | Sep::SpacedH));
    if !valid || !(plain || confirmed) {
        return None;
    }
    found.end = cursor.pos;
    Some(found)
}

/// `오후 2시 30분`, `14시` at the cursor.
fn korean_time(cursor: &mut Cursor) -> Option<Found> {
    let marker = if cursor.eat_str("오전") {
        Some((false, "오전".to_owned()))
    } else if cursor.eat_str("오후") {
        Some((true, "오후".to_owned()))
    } else {
        None
    };
    if marker.is_some() {
        cursor.eat_spaces();
    }
    let hour = cursor.digits(1, 2)?;
    let hour_padded = hour.padded(cursor.chars, cursor.pos);
    if !cursor.eat('시') || cursor.peek().is_some_and(is_hangul) {
        return None;
    }
    let mut minute = None;
    let mut ahead = *cursor;
    ahead.eat_spaces();
    if let Some(digits) = ahead.digits(1, 2)
        && digits.value < 60
        && ahead.eat('분')
    {
        minute = Some(digits.value);
        *cursor = ahead;
    }
    let valid = match marker {
        Some(_) => (1..=12).contains(&hour.value),
        None => hour.value <= 24,
    };
    valid.then_some(Found {
        end: cursor.pos,
        hour: hour.value,
        hour_padded,
        minute,
        second: None,
        sep: None,
        marker,
        uhr: None,
        korean: true,
    })
}

fn two(value: u32, pad: bool) -> String {
    if pad { format!("{value:02}") } else { value.to_string() }
}

impl Times {
    /// `found` written by these rules; `None` to leave it as written.
    fn render(&self, found: &Found) -> Option<String> {
        let hour24 = found.hour24(self.lang);
        match self.format.map(|format| (format.clock, format.omit_zero_minutes)) {
            None => {
                if found.korean {
                    return None;
                }
                self.numeric(found, found.hour, found.hour_padded, true, found.minute)
            }
            Some((Clock::Twelve { marker, noon_and_midnight }, omit_zero_minutes)) => {
                let full_hour = found.minute.unwrap_or(0) == 0 && found.second.unwrap_or(0) == 0;
                let (hour, pm) = match hour24 {
                    Some(hour24) => (hour24 % 12, hour24 % 24 >= 12),
                    // Morning or evening: only a format without a marker can write it.
                    None if marker.is_none() && !found.korean => (found.hour, false),
                    None => return None,
                };
                if noon_and_midnight && full_hour && hour24.is_some() && hour == 0 {
                    return Some(if pm { "noon" } else { "midnight" }.to_owned());
                }
                let hour = if hour == 0 { 12 } else { hour };
                let minute = match found.minute {
                    Some(0) if omit_zero_minutes && found.second.is_none() => None,
                    minute => minute,
                };
                let padded = found.marker.is_some() && found.hour_padded;
                let mut out = self.numeric_hour(found, hour, padded, false, minute)?;
                match marker {
                    Some(marker) => {
                        out.push(' ');
                        out.push_str(marker.text(pm));
                    }
                    None => out.push_str(found.uhr.as_deref().unwrap_or_default()),
                }
                Some(out)
            }
            Some((Clock::TwentyFour, _)) => {
                let hour24 = hour24?;
                // A bare hour needs its minutes on the 24-hour clock, unless `Uhr` follows.
                let minute = found.minute.or(found.uhr.is_none().then_some(0));
                self.numeric(found, hour24, found.hour_padded, false, minute)
            }
            Some((Clock::Uhr, omit_zero_minutes)) => {
                let hour24 = hour24?;
                let minute = match found.minute.unwrap_or(0) {
                    0 if omit_zero_minutes && found.uhr.is_some() && found.second.is_none() => None,
                    minute => Some(minute),
                };
                self.numeric(found, hour24, found.hour_padded, false, minute)
            }
            Some((Clock::Korean24, _)) => {
                let hour = hour24?;
                Some(korean(hour, found.minute))
            }
            Some((Clock::Korean12, _)) => {
                let hour24 = hour24?;
                let hour = match hour24 % 12 {
                    0 => 12,
                    hour => hour,
                };
                let marker = if hour24 % 24 >= 12 { "오후" } else { "오전" };
                Some(format!("{marker} {}", korean(hour, found.minute)))
            }
        }
    }

    /// A time on the 24-hour clock (or as written), with `Uhr` kept and the marker as written.
    fn numeric(
        &self,
        found: &Found,
        hour: u32,
        padded: bool,
        keep_marker: bool,
        minute: Option<u32>,
    ) -> Option<String> {
        let mut out = self.numeric_hour(found, hour, padded, true, minute)?;
        if keep_marker && let Some((_, marker)) = &found.marker {
            out.push_str(marker);
        }
        out.push_str(found.uhr.as_deref().unwrap_or_default());
        Some(out)
    }

    /// Hours, minutes and seconds with this list's separators and zeros; midnight as the list
    /// says when `midnight_applies` and the clock is the 24-hour one.
    fn numeric_hour(
        &self,
        found: &Found,
        hour: u32,
        padded: bool,
        midnight_applies: bool,
        minute: Option<u32>,
    ) -> Option<String> {
        // A separator for hours, minutes and seconds applies to all three.
        let sep = match (found.second, self.seconds_sep) {
            (Some(_), Some(seconds_sep)) => seconds_sep,
            _ => self.sep.or(found.sep).unwrap_or(Sep::Colon),
        };
        let pad = self.pad.unwrap_or(padded);
        let is_midnight = midnight_applies
            && found.marker.is_none()
            && (hour == 0 || hour == 24)
            && minute.unwrap_or(0) == 0
            && found.second.unwrap_or(0) == 0
            && found.hour24(self.lang).is_some();
        let hour = match (is_midnight, self.midnight) {
            (true, Some(Midnight::Zero)) => "00".to_owned(),
            (true, Some(Midnight::TwentyFour)) => "24".to_owned(),
            _ => two(hour, pad),
        };
        let mut out = hour;
        if let Some(minute) = minute {
            out.push_str(sep.text());
            out.push_str(&two(minute, true));
        }
        if let Some(second) = found.second {
            let seconds_sep = match (self.seconds_sep, sep) {
                (Some(seconds_sep), _) => seconds_sep,
                (None, Sep::Colon | Sep::Period) => sep,
                // Seconds after an `h` have no agreed separator.
                (None, Sep::H | Sep::SpacedH) => return None,
            };
            out.push_str(seconds_sep.text());
            out.push_str(&two(second, true));
        }
        Some(out)
    }
}

/// `14시 30분`; zero minutes left out.
fn korean(hour: u32, minute: Option<u32>) -> String {
    match minute {
        Some(minute) if minute > 0 => format!("{hour}시 {minute}분"),
        _ => format!("{hour}시"),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::tests::{Example, check_examples, rewrite};

    const TIME_FORMAT: &str = "time_format";

    /// One example or more per mechanical option of this family.
    pub(in crate::mechanical) const EXAMPLES: &[Example] = &[
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_and_do_not_specify_morning_or_evening",
            "en",
            "at 14:30 or 09:05",
            "at 2:30 or 9:05",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_and_lowercase_am_or_pm_with_periods",
            "en",
            "at 14:30, 00:15, 12:00 PM or 9 am",
            "at 2:30 p.m., 12:15 a.m., 12:00 p.m. or 9 a.m.",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_and_lowercase_am_or_pm_with_periods_except_use_noon_and_midnight_instead_of_12_am_and_12_pm",
            "en",
            "at 12:00, 00:00, 12:30 or 18:00",
            "at noon, midnight, 12:30 p.m. or 6:00 p.m.",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_and_lowercase_am_or_pm_without_periods",
            "en",
            "at 14:30 or 9:00 A.M.",
            "at 2:30 pm or 9:00 am",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_and_lowercase_am_or_pm_without_periods_except_use_noon_and_midnight_instead_of_12_am_and_12_pm",
            "en",
            "at 12:00 or 23:45",
            "at noon or 11:45 pm",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_and_uppercase_am_or_pm_with_periods",
            "en",
            "at 14:30",
            "at 2:30 P.M.",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_and_uppercase_am_or_pm_with_periods_except_use_noon_and_midnight_instead_of_12_am_and_12_pm",
            "en",
            "from 24:00 to 07:30",
            "from midnight to 7:30 A.M.",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_and_uppercase_am_or_pm_without_periods",
            "en",
            "at 14:30 or 8 p.m.",
            "at 2:30 PM or 8 PM",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_and_uppercase_am_or_pm_without_periods_except_use_noon_and_midnight_instead_of_12_am_and_12_pm",
            "en",
            "at 12 p.m. or 13:00",
            "at noon or 1:00 PM",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_without_leading_zero_or_minutes_for_full_hours_use_colon_as_separator_and_lowercase_am_or_pm_without_periods",
            "en",
            "at 14:00 or 09:30",
            "at 2 pm or 9:30 am",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_without_leading_zero_or_minutes_for_full_hours_use_colon_as_separator_and_uppercase_am_or_pm_without_periods",
            "en",
            "at 14:00 or 09:30",
            "at 2 PM or 9:30 AM",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_without_leading_zero_use_period_as_separator_and_lowercase_am_or_pm_with_periods_and_spaces",
            "es",
            "a las 14:30 o 09:05",
            "a las 2.30 p. m. o 9.05 a. m.",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_12_hour_clock_with_korean_words_시_and_분",
            "ko",
            "14:30에, 9:00, 15시",
            "오후 2시 30분에, 오전 9시, 오후 3시",
        ),
        ("dates_and_times", TIME_FORMAT, "use_24_hour_clock", "en", "at 2:30 pm or 9 AM", "at 14:30 or 9:00"),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_24_hour_clock_with_arabic_numerals_and_colon",
            "ja",
            "午後 2.30 p.m. と 14h30",
            "午後 14:30 と 14:30",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_24_hour_clock_with_colon_as_separator",
            "fr",
            "à 14h30 ou 9 h 05",
            "à 14:30 ou 9:05",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_24_hour_clock_with_period_as_separator",
            "it",
            "alle 14:30 o alle 9:05",
            "alle 14.30 o alle 9.05",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_24_hour_clock_with_korean_words_시_and_분",
            "ko",
            "오후 2시 30분, 09:00",
            "14시 30분, 9시",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_hh_colon_mm_german_word_uhr_with_leading_zeros_for_single_digit_hours",
            "de",
            "um 9.30 Uhr oder 8 Uhr",
            "um 09:30 Uhr oder 08:00 Uhr",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_hh_colon_mm_german_word_uhr_without_leading_zeros_for_single_digit_hours",
            "de",
            "um 09.30 Uhr",
            "um 9:30 Uhr",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_hh_period_mm_german_word_uhr_with_leading_zeros_for_single_digit_hours",
            "de",
            "um 9:30 Uhr",
            "um 09.30 Uhr",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_hh_period_mm_german_word_uhr_without_leading_zeros_for_single_digit_hours",
            "de",
            "um 09:30 Uhr oder 10 Uhr",
            "um 9.30 Uhr oder 10.00 Uhr",
        ),
        (
            "dates_and_times",
            TIME_FORMAT,
            "use_hh_period_mm_german_word_uhr_without_leading_zeros_for_single_digit_hours_and_for_full_hours_state_hour_only",
            "de",
            "um 09:30 Uhr oder 10:00 Uhr",
            "um 9.30 Uhr oder 10 Uhr",
        ),
        (
            "dates_and_times",
            "hours_minutes_separator",
            "use_colon_without_spaces",
            "fr",
            "à 14h30 ou 9 h 05",
            "à 14:30 ou 9:05",
        ),
        (
            "dates_and_times",
            "hours_minutes_separator",
            "use_letter_h_with_regular_space_on_either_side",
            "fr",
            "à 14:30 ou 9h05",
            "à 14 h 30 ou 9 h 05",
        ),
        ("dates_and_times", "hours_minutes_separator", "use_letter_h_without_spaces", "fr", "à 14:30", "à 14h30"),
        (
            "dates_and_times",
            "hours_minutes_seconds_separator",
            "use_period",
            "de",
            "um 14:30:15 Uhr",
            "um 14.30.15 Uhr",
        ),
        ("dates_and_times", "midnight_in_numerals", "use_00_00", "de", "um 24:00 Uhr", "um 00:00 Uhr"),
        (
            "dates_and_times",
            "midnight_in_numerals",
            "use_24_00",
            "de",
            "bis 0:00 oder 00.00 Uhr",
            "bis 24:00 oder 24.00 Uhr",
        ),
        (
            "dates_and_times",
            "single_digit_hours",
            "use_leading_zero",
            "de",
            "um 9:30 und 9.05 Uhr",
            "um 09:30 und 09.05 Uhr",
        ),
        ("dates_and_times", "single_digit_hours", "do_not_use_leading_zero", "en", "at 09:30 am", "at 9:30 am"),
    ];

    #[test]
    fn examples_hold() {
        check_examples(EXAMPLES);
    }

    const TWENTY_FOUR: (&str, &str, &str) = ("dates_and_times", "time_format", "use_24_hour_clock");
    const TWELVE: (&str, &str, &str) =
        ("dates_and_times", "time_format", "use_12_hour_clock_and_lowercase_am_or_pm_without_periods");

    #[test]
    fn a_time_that_may_be_morning_or_evening_keeps_its_clock() {
        assert_eq!(rewrite(&[TWENTY_FOUR], "en", "at 9:30"), "at 9:30");
        assert_eq!(rewrite(&[TWELVE], "en", "at 9:30"), "at 9:30");
        // German writes the 24-hour clock: 9:30 is in the morning.
        assert_eq!(rewrite(&[TWELVE], "de", "um 9:30"), "um 9:30 am");
        assert_eq!(rewrite(&[TWENTY_FOUR], "ko", "2시"), "2시");
    }

    #[test]
    fn things_that_are_not_times_are_left_alone() {
        for text in ["16:9", "1.30", "10:30h", "10 h 30 min", "25:00", "v1:30", "1:30:4", "12:60", "10.30.15"] {
            assert_eq!(rewrite(&[TWELVE], "de", text), text);
        }
        // Only English reads a bare `am`: German `am` is a word.
        assert_eq!(rewrite(&[TWENTY_FOUR], "de", "um 5 am Bahnhof"), "um 5 am Bahnhof");
        assert_eq!(rewrite(&[TWENTY_FOUR], "en", "at 5 am"), "at 5:00");
    }

    #[test]
    fn uhr_is_kept_where_it_was_and_never_added() {
        let rule = (
            "dates_and_times",
            "time_format",
            "use_hh_period_mm_german_word_uhr_with_leading_zeros_for_single_digit_hours",
        );
        assert_eq!(rewrite(&[rule], "de", "9:30–10:00 Uhr"), "09.30–10.00 Uhr");
    }

    #[test]
    fn a_markers_period_ends_the_sentence() {
        let rule = ("dates_and_times", "time_format", "use_12_hour_clock_and_lowercase_am_or_pm_with_periods");
        assert_eq!(rewrite(&[rule], "en", "We start at 17:00."), "We start at 5:00 p.m.");
        assert_eq!(rewrite(&[rule], "en", "From 9:00 am-17:00."), "From 9:00 a.m.-5:00 p.m.");
    }

    #[test]
    fn seconds_follow_the_separator() {
        let rule = ("dates_and_times", "hours_minutes_separator", "use_letter_h_without_spaces");
        assert_eq!(rewrite(&[rule], "fr", "14:30:15"), "14:30:15");
        let rule = ("dates_and_times", "time_format", "use_24_hour_clock_with_period_as_separator");
        assert_eq!(rewrite(&[rule], "it", "14:30:15"), "14.30.15");
    }
}
