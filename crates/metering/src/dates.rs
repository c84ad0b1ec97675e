//! Days: the UTC day usage is recorded on, and the ranges of days reports cover.
//!
//! Usage and audit entries are kept per UTC day, so a report's range (`start_date`, `end_date`)
//! is a run of whole days: a date-time selects its day, and `end_date` is included. A range
//! covers at most 366 days of usage, both ends counted (`end_date` at most 365 days after
//! `start_date`): every report (analytics, custom tags, audit log) reads its range through here.

use time::macros::format_description;
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

use crate::error::QueryError;

/// The longest range, in days covered (`start_date` and `end_date` both included).
pub const MAX_RANGE_DAYS: i64 = 366;

/// A validated range of UTC days, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateRange {
    /// `start_date` as given (midnight for a date).
    pub start: PrimitiveDateTime,
    /// `end_date` as given (midnight for a date).
    pub end: PrimitiveDateTime,
}

impl DateRange {
    /// Checks `start_date` and `end_date` as given (`None` or blank: not given): each a date
    /// (`YYYY-MM-DD`) or a date-time (`YYYY-MM-DDTHH:MM:SS`, optionally ending in `Z`), the end
    /// not before the start, covering at most [`MAX_RANGE_DAYS`] days with both ends.
    pub fn parse(start_date: Option<&str>, end_date: Option<&str>) -> Result<DateRange, QueryError> {
        let start = required_date("start_date", start_date)?;
        let end = required_date("end_date", end_date)?;
        if end < start {
            return Err(QueryError::EndBeforeStart);
        }
        if (end.date() - start.date()).whole_days() + 1 > MAX_RANGE_DAYS {
            return Err(QueryError::RangeTooLong);
        }
        Ok(DateRange { start, end })
    }

    /// The first day of the range.
    pub fn first_day(&self) -> Date {
        self.start.date()
    }

    /// The last day of the range (included).
    pub fn last_day(&self) -> Date {
        self.end.date()
    }

    /// How many days the range covers, both ends included (1 to [`MAX_RANGE_DAYS`]).
    pub fn days(&self) -> i64 {
        (self.last_day() - self.first_day()).whole_days() + 1
    }

    /// `start_date` as reports echo it: `YYYY-MM-DDTHH:MM:SS`.
    pub fn start_text(&self) -> String {
        echo(self.start)
    }

    /// `end_date` as reports echo it: `YYYY-MM-DDTHH:MM:SS`.
    pub fn end_text(&self) -> String {
        echo(self.end)
    }

    /// The range's first and last day as stored (`YYYY-MM-DD`).
    pub(crate) fn stored_days(&self) -> (String, String) {
        (stored_day(self.first_day()), stored_day(self.last_day()))
    }
}

fn echo(moment: PrimitiveDateTime) -> String {
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    moment.format(&format).unwrap_or_default()
}

fn required_date(name: &'static str, text: Option<&str>) -> Result<PrimitiveDateTime, QueryError> {
    let text = text.map(str::trim).filter(|text| !text.is_empty()).ok_or(QueryError::Missing(name))?;
    parse(text).ok_or(QueryError::NotADate(name))
}

fn parse(text: &str) -> Option<PrimitiveDateTime> {
    let text = text.strip_suffix('Z').unwrap_or(text);
    let date = format_description!("[year]-[month]-[day]");
    let date_time = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    match text.len() {
        10 => Date::parse(text, &date).ok().map(|date| date.with_time(Time::MIDNIGHT)),
        _ => PrimitiveDateTime::parse(text, &date_time).ok(),
    }
}

/// The UTC day of `moment`, `YYYY-MM-DD`: the day its usage is recorded on.
pub fn day_of(moment: OffsetDateTime) -> String {
    stored_day(moment.to_offset(UtcOffset::UTC).date())
}

/// `YYYY-MM-DD`, as days are stored.
pub(crate) fn stored_day(day: Date) -> String {
    format!("{:04}-{:02}-{:02}", day.year(), day.month() as u8, day.day())
}

/// A day as stored, read back.
pub(crate) fn parse_stored_day(text: &str) -> Result<Date, platform::DbError> {
    Date::parse(text, format_description!("[year]-[month]-[day]"))
        .map_err(|_| platform::DbError::Decode(format!("usage store holds an invalid day: {text:?}")))
}

#[cfg(test)]
mod tests {
    use time::macros::{date, datetime};

    use super::*;

    /// The range from `start` to `end`, `-` standing for a date not given.
    fn range(start: &str, end: &str) -> Result<DateRange, String> {
        let given = |text: &str| (text != "-").then(|| text.to_owned());
        DateRange::parse(given(start).as_deref(), given(end).as_deref()).map_err(|error| error.to_string())
    }

    #[test]
    fn dates_and_date_times_select_whole_days() {
        let dates = range("2026-05-03", "2026-05-15").unwrap();
        assert_eq!((dates.first_day(), dates.last_day()), (date!(2026 - 05 - 03), date!(2026 - 05 - 15)));
        assert_eq!(
            (dates.start_text(), dates.end_text()),
            ("2026-05-03T00:00:00".into(), "2026-05-15T00:00:00".into())
        );
        let times = range("2026-05-03T12:30:00", "2026-05-03T18:00:00Z").unwrap();
        assert_eq!((times.first_day(), times.last_day()), (date!(2026 - 05 - 03), date!(2026 - 05 - 03)));
        assert_eq!(times.start_text(), "2026-05-03T12:30:00");
    }

    #[test]
    fn a_range_covers_at_most_366_days_both_ends_included() {
        let leap_year = range("2024-01-01", "2024-12-31").unwrap();
        assert_eq!(leap_year.days(), 366, "2024 is a leap year");
        assert_eq!(range("2025-03-01", "2026-03-01").unwrap().days(), 366);
        assert_eq!(range("2026-05-03T08:00:00", "2026-05-03T23:00:00").unwrap().days(), 1);
        let too_long = "Bad request. Reason: Date range cannot exceed 366 days";
        // 367 calendar days: end_date is included, so the day after a year and a day is one too many.
        assert_eq!(range("2024-01-01", "2025-01-01").unwrap_err(), too_long);
        assert_eq!(range("2025-03-01", "2026-03-02").unwrap_err(), too_long);
        assert_eq!(range("2025-03-01T00:00:00", "2026-03-02T00:00:00Z").unwrap_err(), too_long);
    }

    #[test]
    fn missing_malformed_and_reversed_dates_are_named() {
        assert_eq!(range("-", "2026-05-01").unwrap_err(), "Parameter 'start_date' not specified");
        assert_eq!(range("2026-05-01", " ").unwrap_err(), "Parameter 'end_date' not specified");
        for wrong in ["2026-5-1", "2026-02-30", "yesterday", "2026-05-01T25:00:00", "2026-05-01 10:00:00"] {
            let message = range(wrong, "2026-05-31").unwrap_err();
            assert!(message.starts_with("Value for 'start_date' not supported"), "{wrong}: {message}");
        }
        let reversed = range("2026-05-31", "2026-05-01").unwrap_err();
        assert!(reversed.contains("'end_date'"), "{reversed}");
    }

    #[test]
    fn usage_days_are_utc() {
        assert_eq!(day_of(datetime!(2026-11-21 23:30:00.123 -02:00)), "2026-11-22");
        assert_eq!(parse_stored_day("2026-11-22").unwrap(), date!(2026 - 11 - 22));
        assert!(parse_stored_day("22/11/2026").is_err());
    }
}
