//! Time: RFC 3339 timestamps and monthly billing periods.

use time::format_description::well_known::Rfc3339;
use time::{Date, Month, OffsetDateTime, UtcOffset};

use crate::error::StoreError;

/// A billing period: from `start` (included) to `end` (excluded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BillingPeriod {
    pub start: OffsetDateTime,
    pub end: OffsetDateTime,
}

impl BillingPeriod {
    /// The period's start as stored (RFC 3339, UTC, whole seconds).
    pub fn key(&self) -> String {
        rfc3339(self.start)
    }
}

/// The monthly period containing `now` for a subscription whose first period began at
/// `anchor`: periods start on the anchor's day of the month at its time of day, and on the
/// month's last day when the month is shorter (an anchor on the 31st starts on 28 February).
pub fn billing_period(anchor: OffsetDateTime, now: OffsetDateTime) -> BillingPeriod {
    let anchor = anchor.to_offset(UtcOffset::UTC);
    let now = now.to_offset(UtcOffset::UTC);
    if now < anchor {
        return BillingPeriod { start: anchor, end: add_months(anchor, 1) };
    }
    let mut months = (now.year() - anchor.year()) * 12 + (now.month() as i32 - anchor.month() as i32);
    let mut start = add_months(anchor, months);
    if start > now {
        months -= 1;
        start = add_months(anchor, months);
    }
    BillingPeriod { start, end: add_months(anchor, months + 1) }
}

fn add_months(anchor: OffsetDateTime, months: i32) -> OffsetDateTime {
    let index = anchor.year() * 12 + (anchor.month() as i32 - 1) + months;
    let year = index.div_euclid(12);
    let month = Month::try_from((index.rem_euclid(12) + 1) as u8).expect("a month number in 1..=12");
    let last_day = month.length(year);
    let day = anchor.day().min(last_day);
    let date = Date::from_calendar_date(year, month, day).expect("a valid calendar date");
    anchor.replace_date(date)
}

/// RFC 3339 in UTC with whole seconds, the form timestamps are stored and answered in.
pub fn rfc3339(moment: OffsetDateTime) -> String {
    let moment = moment.to_offset(UtcOffset::UTC).replace_nanosecond(0).expect("zero nanoseconds are valid");
    moment.format(&Rfc3339).expect("a UTC timestamp formats as RFC 3339")
}

pub(crate) fn now(clock: &dyn platform::Clock) -> OffsetDateTime {
    OffsetDateTime::from(clock.now())
}

pub(crate) fn parse_stored(text: &str) -> Result<OffsetDateTime, StoreError> {
    OffsetDateTime::parse(text, &Rfc3339).map_err(|_| StoreError::Corrupt { what: "timestamp", value: text.to_owned() })
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn a_period_runs_from_the_anchor_day_to_the_same_day_next_month() {
        let anchor = datetime!(2026-01-15 10:30:00 UTC);
        let period = billing_period(anchor, datetime!(2026-03-20 08:00:00 UTC));
        assert_eq!(period.start, datetime!(2026-03-15 10:30:00 UTC));
        assert_eq!(period.end, datetime!(2026-04-15 10:30:00 UTC));
        let before_the_time_of_day = billing_period(anchor, datetime!(2026-03-15 10:29:59 UTC));
        assert_eq!(before_the_time_of_day.start, datetime!(2026-02-15 10:30:00 UTC));
    }

    #[test]
    fn an_anchor_at_the_end_of_a_month_starts_short_months_on_their_last_day() {
        let anchor = datetime!(2026-01-31 00:00:00 UTC);
        let february = billing_period(anchor, datetime!(2026-03-01 00:00:00 UTC));
        assert_eq!(february.start, datetime!(2026-02-28 00:00:00 UTC));
        assert_eq!(february.end, datetime!(2026-03-31 00:00:00 UTC));
    }

    #[test]
    fn periods_cross_years() {
        let anchor = datetime!(2025-11-03 04:05:06 UTC);
        let period = billing_period(anchor, datetime!(2026-01-10 00:00:00 UTC));
        assert_eq!(period.start, datetime!(2026-01-03 04:05:06 UTC));
        assert_eq!(period.end, datetime!(2026-02-03 04:05:06 UTC));
    }

    #[test]
    fn timestamps_and_days_are_utc() {
        let moment = datetime!(2026-11-21 23:30:00.123 -02:00);
        assert_eq!(rfc3339(moment), "2026-11-22T01:30:00Z");
    }
}
