//! The date ranges reports are asked for: `start_date` and `end_date`.
//!
//! Usage and audit entries are kept per UTC day, so a range is a run of whole days: a date-time
//! selects its day, and `end_date` is included. A range spans at most 366 days (`end_date` at
//! most 366 days after `start_date`).

use api::{ApiError, Params};
use time::macros::format_description;
use time::{Date, PrimitiveDateTime, Time};

/// The longest range, in days between `start_date` and `end_date`.
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
    /// Reads and checks `start_date` and `end_date`.
    pub fn from_params(params: &Params) -> Result<DateRange, ApiError> {
        let start = required_date(params, "start_date")?;
        let end = required_date(params, "end_date")?;
        if end < start {
            return Err(ApiError::bad_request(
                "Value for 'end_date' not supported: it must not be before 'start_date'.",
            ));
        }
        if (end.date() - start.date()).whole_days() > MAX_RANGE_DAYS {
            return Err(ApiError::bad_request("Bad request. Reason: Date range cannot exceed 366 days"));
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

    /// `start_date` as reports echo it: `YYYY-MM-DDTHH:MM:SS`.
    pub fn start_text(&self) -> String {
        echo(self.start)
    }

    /// `end_date` as reports echo it: `YYYY-MM-DDTHH:MM:SS`.
    pub fn end_text(&self) -> String {
        echo(self.end)
    }
}

fn echo(moment: PrimitiveDateTime) -> String {
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    moment.format(&format).unwrap_or_default()
}

/// A required date parameter: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS`, optionally ending in `Z`.
fn required_date(params: &Params, name: &str) -> Result<PrimitiveDateTime, ApiError> {
    let text = params.string(name)?.filter(|text| !text.trim().is_empty()).ok_or_else(|| api::params::missing(name))?;
    parse(text.trim()).ok_or_else(|| {
        ApiError::bad_request(format!(
            "Value for '{name}' not supported: expected a date (YYYY-MM-DD) or a date-time (YYYY-MM-DDTHH:MM:SS), UTC."
        ))
    })
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

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn range(query: &str) -> Result<DateRange, String> {
        DateRange::from_params(&Params::from_form(query.as_bytes())).map_err(|error| error.message)
    }

    #[test]
    fn dates_and_date_times_select_whole_days() {
        let dates = range("start_date=2026-05-03&end_date=2026-05-15").unwrap();
        assert_eq!((dates.first_day(), dates.last_day()), (date!(2026 - 05 - 03), date!(2026 - 05 - 15)));
        assert_eq!(
            (dates.start_text(), dates.end_text()),
            ("2026-05-03T00:00:00".into(), "2026-05-15T00:00:00".into())
        );
        let times = range("start_date=2026-05-03T12:30:00&end_date=2026-05-03T18:00:00Z").unwrap();
        assert_eq!((times.first_day(), times.last_day()), (date!(2026 - 05 - 03), date!(2026 - 05 - 03)));
        assert_eq!(times.start_text(), "2026-05-03T12:30:00");
    }

    #[test]
    fn a_range_spans_at_most_366_days() {
        assert!(range("start_date=2024-01-01&end_date=2025-01-01").is_ok(), "366 days (2024 is a leap year)");
        assert_eq!(
            range("start_date=2024-01-01&end_date=2025-01-02").unwrap_err(),
            "Bad request. Reason: Date range cannot exceed 366 days"
        );
    }

    #[test]
    fn missing_malformed_and_reversed_dates_are_named() {
        assert_eq!(range("end_date=2026-05-01").unwrap_err(), "Parameter 'start_date' not specified");
        assert_eq!(range("start_date=2026-05-01&end_date=").unwrap_err(), "Parameter 'end_date' not specified");
        for wrong in ["2026-5-1", "2026-02-30", "yesterday", "2026-05-01T25:00:00", "2026-05-01 10:00:00"] {
            let message = range(&format!("start_date={wrong}&end_date=2026-05-31")).unwrap_err();
            assert!(message.starts_with("Value for 'start_date' not supported"), "{wrong}: {message}");
        }
        let reversed = range("start_date=2026-05-31&end_date=2026-05-01").unwrap_err();
        assert!(reversed.contains("'end_date'"), "{reversed}");
    }
}
