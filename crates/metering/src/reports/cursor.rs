//! The custom-tag report's keyset cursor: `next_page` names the last entry of a page, so the next
//! page starts right after it, costs the same however deep it is, and never repeats or skips an
//! entry while usage is recorded meanwhile (entries only ever grow).
//!
//! A cursor is `tag number × CURSOR_DAY_SPAN + day`: the entry's tag as `usage_tags` numbers it
//! and, for daily entries, the day's Julian day number (0 for whole-range entries). A cursor is
//! checked to name an entry of this very report before it is followed.

use platform::{Database, DbError, Value};
use time::Date;

use super::custom_tags::{Aggregation, CustomTagQuery};
use crate::dates::{parse_stored_day, stored_day};
use crate::error::ReportError;

/// Every day of a four-digit year has a Julian day number between 1 and this, and tag numbers up
/// to 2^30 keep cursors exact in JSON (below 2^53).
pub(super) const CURSOR_DAY_SPAN: i64 = 1 << 23;

/// The tag `?1` of the subscription `?2`, if it has usage in the days `?3`..`?4`.
pub(super) const SQL_CURSOR_TAG: &str = "SELECT t.tag FROM usage_tags AS t
   WHERE t.id = ?1 AND t.subscription_id = ?2
     AND EXISTS (SELECT 1 FROM usage_tag_daily AS r WHERE r.tag_id = t.id AND r.day BETWEEN ?3 AND ?4)";

/// The `next_page` naming the entry of tag number `tag_id` and, for a daily entry, the stored
/// day `day`.
pub(super) fn cursor(tag_id: i64, day: Option<&str>) -> Result<i64, DbError> {
    let day_number = match day {
        Some(day) => i64::from(parse_stored_day(day)?.to_julian_day()),
        None => 0,
    };
    Ok(tag_id * CURSOR_DAY_SPAN + day_number)
}

/// The entry a cursor names: its tag, and for daily entries its day.
pub(super) struct Position {
    pub tag: String,
    pub day: Option<Date>,
}

impl Position {
    /// The entry `page` names, if it is one of this report's: a tag of this subscription with
    /// usage in the range and, for daily entries, on a day of the range.
    pub fn of(
        db: &dyn Database,
        subscription_id: &str,
        query: &CustomTagQuery,
        page: i64,
    ) -> Result<Position, ReportError> {
        let (tag_id, day_number) = (page / CURSOR_DAY_SPAN, page % CURSOR_DAY_SPAN);
        let day = match (query.aggregate_by, day_number) {
            (Aggregation::Period, 0) => None,
            (Aggregation::Day, number) => {
                let day = i32::try_from(number).ok().and_then(|number| Date::from_julian_day(number).ok());
                let in_range = |day: &Date| (query.range.first_day()..=query.range.last_day()).contains(day);
                Some(day.filter(in_range).ok_or(ReportError::UnknownPage)?)
            }
            _ => return Err(ReportError::UnknownPage),
        };
        let (first, last) = match day {
            Some(day) => (stored_day(day), stored_day(day)),
            None => query.range.stored_days(),
        };
        let params = [Value::Integer(tag_id), Value::from(subscription_id), Value::from(first), Value::from(last)];
        let found = db.execute(SQL_CURSOR_TAG, &params)?;
        let tag = found.first().ok_or(ReportError::UnknownPage)?.get(0)?;
        Ok(Position { tag, day })
    }
}
