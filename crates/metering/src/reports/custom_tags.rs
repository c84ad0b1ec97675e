//! `GET /v2/admin/analytics/custom-tags`: a subscription's tagged usage, summed across keys, per
//! tag for the whole range or per tag and day, a page of [`CUSTOM_TAG_PAGE_SIZE`] entries at a
//! time.
//!
//! It folds the usage journal first (`journal.rs`), then reads the rollups folding keeps
//! (`sql/0003_usage_reports.sql`): `usage_tags` numbers each (subscription, tag) once and for
//! all, `usage_tag_daily` (primary key `(tag_id, day)`) and `usage_tag_monthly` (`(tag_id,
//! month)`) sum text translation and text improvement per tag. A page walks `usage_tags` through
//! its unique index `(subscription_id, tag)` in byte order from the cursor's tag (`cursor.rs`):
//! per tag one range of `usage_tag_daily` for daily entries, or for the whole range the whole
//! months of `usage_tag_monthly` and the days before and after them ([`MonthSplit`]), so reading
//! a page costs the same however deep it is (turning a cursor into its tag and back reads the
//! subscription's own entries of that index, `cursor.rs`).

use std::collections::BTreeMap;

use platform::{Database, DbError, Row, Value};
use serde::Serialize;
use time::Date;

use super::cursor::{Position, Report};
use super::usage_date;
use crate::dates::{DateRange, stored_day};
use crate::error::{QueryError, ReportError};

/// Entries per page of the custom-tag report.
pub const CUSTOM_TAG_PAGE_SIZE: usize = 100;

/// How `GET /v2/admin/analytics/custom-tags` sums a tag's usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// One entry per tag for the whole range.
    Period,
    /// One entry per tag and day with usage.
    Day,
}

impl Aggregation {
    /// The optional `aggregate_by`: `period` (also when absent or empty) or `day`.
    pub fn parse(value: Option<&str>) -> Result<Aggregation, QueryError> {
        match value.map(str::trim) {
            None | Some("" | "period") => Ok(Aggregation::Period),
            Some("day") => Ok(Aggregation::Day),
            Some(_) => Err(QueryError::AggregateBy),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Aggregation::Period => "period",
            Aggregation::Day => "day",
        }
    }
}

/// What `GET /v2/admin/analytics/custom-tags` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CustomTagQuery {
    pub range: DateRange,
    pub aggregate_by: Aggregation,
    /// A `next_page` of an earlier answer; 0 for the first page.
    pub page: i64,
}

/// `GET /v2/admin/analytics/custom-tags`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CustomTagReport {
    pub custom_tag_usage_report: CustomTagUsageReport,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CustomTagUsageReport {
    pub aggregate_by: &'static str,
    pub start_date: String,
    pub end_date: String,
    /// The `page` that answers the entries after these; `None` (`null`) when none follow.
    pub next_page: Option<i64>,
    pub usage: Vec<TagUsage>,
}

/// One tag's usage, in the range or on one day.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TagUsage {
    pub custom_tag: String,
    /// `YYYY-MM-DDT00:00:00Z`, with `aggregate_by=day` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage_date: Option<String>,
    pub breakdown: TagBreakdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TagBreakdown {
    pub total_characters: i64,
    pub text_translation_characters: i64,
    pub text_improvement_characters: i64,
}

/// Tags after `?2` in byte order (`?1` subscription) with usage in the days `?3`..`?4`, at
/// most `?5` of them (`page`), each with its sums over the head days `?6`..`?7`, the whole
/// months `?8`..`?9` and the tail days `?10`..`?11` ([`MonthSplit`]): a row per tag and part
/// with usage, to be added up. CROSS JOIN keeps `usage_tags` the outer loop, walked in order
/// through its unique index from the cursor's tag (so LIMIT stops the walk) with one probe of
/// `usage_tag_daily` per tag; each part is one range of a rollup's primary key per tag.
pub(super) const SQL_TAG_PERIODS: &str = "WITH page (id, tag) AS (
    SELECT t.id, t.tag FROM usage_tags AS t
     WHERE t.subscription_id = ?1 AND t.tag > ?2
       AND EXISTS (SELECT 1 FROM usage_tag_daily AS r WHERE r.tag_id = t.id AND r.day BETWEEN ?3 AND ?4)
     ORDER BY t.tag
     LIMIT ?5)
SELECT p.id, p.tag, SUM(r.translate_units), SUM(r.write_units)
  FROM page AS p CROSS JOIN usage_tag_daily AS r
 WHERE r.tag_id = p.id AND r.day BETWEEN ?6 AND ?7
 GROUP BY p.id
UNION ALL
SELECT p.id, p.tag, SUM(m.translate_units), SUM(m.write_units)
  FROM page AS p CROSS JOIN usage_tag_monthly AS m
 WHERE m.tag_id = p.id AND m.month BETWEEN ?8 AND ?9
 GROUP BY p.id
UNION ALL
SELECT p.id, p.tag, SUM(r.translate_units), SUM(r.write_units)
  FROM page AS p CROSS JOIN usage_tag_daily AS r
 WHERE r.tag_id = p.id AND r.day BETWEEN ?10 AND ?11
 GROUP BY p.id";

/// Bounds no day or month falls between: the low one is above the high one.
pub(super) const NO_RANGE: (&str, &str) = ("1", "0");

/// A range of days cut into the whole calendar months it holds and the days before and after
/// them, each as stored bounds (`YYYY-MM-DD`, `YYYY-MM`), [`NO_RANGE`] for an empty part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MonthSplit {
    pub head: (String, String),
    pub months: (String, String),
    pub tail: (String, String),
}

impl MonthSplit {
    pub fn of(range: &DateRange) -> MonthSplit {
        let (first, last) = (range.first_day(), range.last_day());
        let nothing = || (NO_RANGE.0.to_owned(), NO_RANGE.1.to_owned());
        let days = |from: Date, to: Date| if from <= to { (stored_day(from), stored_day(to)) } else { nothing() };
        let months_from = if first.day() == 1 { Some(first) } else { next_month(first) };
        let months_to = if last.day() == last.month().length(last.year()) {
            Some(last)
        } else {
            last.replace_day(1).ok().and_then(Date::previous_day)
        };
        match (months_from, months_to) {
            (Some(from), Some(to)) if from <= to => MonthSplit {
                head: from.previous_day().map_or_else(nothing, |end| days(first, end)),
                months: (stored_month(from), stored_month(to)),
                tail: to.next_day().map_or_else(nothing, |start| days(start, last)),
            },
            _ => MonthSplit { head: days(first, last), months: nothing(), tail: nothing() },
        }
    }
}

/// The first day of the month after `day`'s.
fn next_month(day: Date) -> Option<Date> {
    let (year, month) = match day.month() {
        time::Month::December => (day.year() + 1, time::Month::January),
        month => (day.year(), month.next()),
    };
    Date::from_calendar_date(year, month, 1).ok()
}

/// `YYYY-MM`, as months are stored.
fn stored_month(day: Date) -> String {
    stored_day(day)[..7].to_owned()
}

/// Tag-day entries after the entry (`?2` tag, `?3` day) in order of tag and day (`?1`
/// subscription), within the days `?4`..`?5`, at most `?6` of them; on the first page `?2` and
/// `?3` are empty, before every tag. CROSS JOIN keeps `usage_tags` the outer loop, walked in
/// order through its unique index (so nothing is sorted and LIMIT stops the walk), and each
/// tag's days are one range of `usage_tag_daily`'s primary key (the days of the cursor's tag up
/// to its day are read and passed over: at most a range's worth, once).
pub(super) const SQL_TAG_DAYS: &str = "SELECT t.id, t.tag, r.day, r.translate_units, r.write_units
    FROM usage_tags AS t CROSS JOIN usage_tag_daily AS r
   WHERE t.subscription_id = ?1 AND t.tag >= ?2
     AND r.tag_id = t.id AND r.day BETWEEN ?4 AND ?5
     AND (t.tag > ?2 OR r.day > ?3)
   ORDER BY t.tag, r.day
   LIMIT ?6";

/// One page of the subscription's tagged usage in the range, summed across keys: per tag (in
/// byte order) for the whole range, or per tag and day. `query.page` 0 starts at the first
/// entry; any other value must be a `next_page` this report answered (`cursor.rs`: opaque, and
/// valid for this subscription's report of this range and aggregation only).
pub fn custom_tag_report(
    db: &dyn Database,
    subscription_id: &str,
    query: &CustomTagQuery,
) -> Result<CustomTagReport, ReportError> {
    crate::journal::fold(db)?;
    let report = Report { subscription_id, query };
    let after = match query.page {
        0 => None,
        page => Some(Position::of(db, &report, page)?),
    };
    let after_tag = after.as_ref().map_or("", |position| position.tag.as_str());
    let mut entries = match query.aggregate_by {
        Aggregation::Period => period_entries(db, subscription_id, after_tag, &query.range)?,
        Aggregation::Day => {
            let after_day = after.as_ref().and_then(|position| position.day).map_or_else(String::new, stored_day);
            let (first, last) = query.range.stored_days();
            let params = [
                Value::from(subscription_id),
                Value::from(after_tag),
                Value::from(after_day),
                Value::from(first),
                Value::from(last),
                Value::Integer(CUSTOM_TAG_PAGE_SIZE as i64 + 1),
            ];
            let rows = db.execute(SQL_TAG_DAYS, &params)?.rows;
            rows.iter().map(Entry::from_day_row).collect::<Result<Vec<_>, _>>()?
        }
    };
    if after.is_some() && entries.is_empty() {
        return Err(ReportError::PastTheEnd);
    }
    let more = entries.len() > CUSTOM_TAG_PAGE_SIZE;
    entries.truncate(CUSTOM_TAG_PAGE_SIZE);
    let next_page = match entries.last() {
        Some(entry) if more => Some(report.cursor(db, entry.tag_id, &entry.tag, entry.day.as_deref())?),
        _ => None,
    };
    let usage = entries.into_iter().map(Entry::into_usage).collect();
    Ok(CustomTagReport {
        custom_tag_usage_report: CustomTagUsageReport {
            aggregate_by: query.aggregate_by.name(),
            start_date: query.range.start_text(),
            end_date: query.range.end_text(),
            next_page,
            usage,
        },
    })
}

/// The entries after `after_tag` for the whole range, at most a page and one more, in tag order.
fn period_entries(
    db: &dyn Database,
    subscription_id: &str,
    after_tag: &str,
    range: &DateRange,
) -> Result<Vec<Entry>, DbError> {
    let (first, last) = range.stored_days();
    let split = MonthSplit::of(range);
    let mut params = vec![
        Value::from(subscription_id),
        Value::from(after_tag),
        Value::from(first),
        Value::from(last),
        Value::Integer(CUSTOM_TAG_PAGE_SIZE as i64 + 1),
    ];
    for (low, high) in [split.head, split.months, split.tail] {
        params.extend([Value::from(low), Value::from(high)]);
    }
    let mut sums: BTreeMap<String, Entry> = BTreeMap::new();
    for row in &db.execute(SQL_TAG_PERIODS, &params)?.rows {
        let tag: String = row.get(1)?;
        let tag_id = row.get(0)?;
        let entry = sums.entry(tag.clone()).or_insert_with(|| Entry { tag_id, tag, day: None, translate: 0, write: 0 });
        entry.translate += row.get::<i64>(2)?;
        entry.write += row.get::<i64>(3)?;
    }
    Ok(sums.into_values().collect())
}

/// One entry of the custom-tag report, as read.
struct Entry {
    tag_id: i64,
    tag: String,
    /// `YYYY-MM-DD` for daily entries.
    day: Option<String>,
    translate: i64,
    write: i64,
}

impl Entry {
    /// A row of [`SQL_TAG_DAYS`].
    fn from_day_row(row: &Row) -> Result<Entry, DbError> {
        Ok(Entry {
            tag_id: row.get(0)?,
            tag: row.get(1)?,
            day: row.get(2)?,
            translate: row.get(3)?,
            write: row.get(4)?,
        })
    }

    fn into_usage(self) -> TagUsage {
        TagUsage {
            custom_tag: self.tag,
            usage_date: self.day.as_deref().map(usage_date),
            breakdown: TagBreakdown {
                total_characters: self.translate + self.write,
                text_translation_characters: self.translate,
                text_improvement_characters: self.write,
            },
        }
    }
}
