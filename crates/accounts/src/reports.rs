//! Usage analytics for admins: `GET /v2/admin/analytics` (usage in total, per key, and per key
//! and day) and `GET /v2/admin/analytics/custom-tags` (tagged usage per tag, for the whole
//! range or per day).
//!
//! Both read what metering recorded, in real time (today included), of one subscription only.
//! Usage is kept per UTC day, so a date-time selects its whole day and `end_date` is included.
//! The key report reads `usage_key_daily`, the per-day-and-key rollup triggers keep beside
//! `usage_daily`, through its primary key: one range of days. The
//! custom-tag report reads the rollups that triggers keep beside it
//! (`sql/0003_usage_reports.sql`): per tag one range of `usage_tag_daily` for daily entries, or
//! for the whole range the whole months of `usage_tag_monthly` and the days around them. It
//! pages with keyset cursors: `next_page` names the last entry returned (its tag's number in
//! `usage_tags` and, for daily entries, the day), so every page costs about the same however
//! deep it is, and usage recorded meanwhile never moves an entry from one page to another.

use std::collections::BTreeMap;

use api::{ApiError, Params};
use platform::{Database, Row, Value};
use serde::Serialize;
use time::Date;
use time::macros::format_description;

use crate::dates::DateRange;
use crate::error::StoreError;
use crate::period::day_of;

/// Entries per page of the custom-tag report.
pub const CUSTOM_TAG_PAGE_SIZE: usize = 100;

/// A cursor is `tag number × CURSOR_DAY_SPAN + day`, where day is the entry's Julian day number
/// for daily entries and 0 for whole-range ones. Every day of a four-digit year has a Julian
/// day number between 1 and this, and tag numbers up to 2^30 keep cursors exact in JSON
/// (below 2^53).
const CURSOR_DAY_SPAN: i64 = 1 << 23;

/// The range's first and last day as stored (`YYYY-MM-DD`).
fn stored_days(range: &DateRange) -> (Value, Value) {
    (Value::from(stored_day(range.first_day())), Value::from(stored_day(range.last_day())))
}

/// `YYYY-MM-DD`, as days are stored.
fn stored_day(day: Date) -> String {
    day_of(day.midnight().assume_utc())
}

/// `YYYY-MM-DDT00:00:00Z`, as the reports answer a usage day.
fn usage_date(stored: &str) -> String {
    format!("{stored}T00:00:00Z")
}

/// How `GET /v2/admin/analytics` breaks the usage down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    /// Totals only.
    Nothing,
    Key,
    KeyAndDay,
}

impl GroupBy {
    /// The optional `group_by`: absent or empty, `key` or `key_and_day`.
    pub fn from_params(params: &Params) -> Result<GroupBy, ApiError> {
        match params.string("group_by")?.as_deref().map(str::trim) {
            None | Some("") => Ok(GroupBy::Nothing),
            Some("key") => Ok(GroupBy::Key),
            Some("key_and_day") => Ok(GroupBy::KeyAndDay),
            Some(_) => {
                Err(ApiError::bad_request("Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'."))
            }
        }
    }

    fn name(self) -> Option<&'static str> {
        match self {
            GroupBy::Nothing => None,
            GroupBy::Key => Some("key"),
            GroupBy::KeyAndDay => Some("key_and_day"),
        }
    }
}

/// What `GET /v2/admin/analytics` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyReportQuery {
    pub range: DateRange,
    pub group_by: GroupBy,
}

impl KeyReportQuery {
    pub fn from_params(params: &Params) -> Result<KeyReportQuery, ApiError> {
        Ok(KeyReportQuery { range: DateRange::from_params(params)?, group_by: GroupBy::from_params(params)? })
    }
}

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
    pub fn from_params(params: &Params) -> Result<Aggregation, ApiError> {
        match params.string("aggregate_by")?.as_deref().map(str::trim) {
            None | Some("" | "period") => Ok(Aggregation::Period),
            Some("day") => Ok(Aggregation::Day),
            Some(_) => {
                Err(ApiError::bad_request("Value for 'aggregate_by' not supported. Allowed: '', 'period', 'day'."))
            }
        }
    }

    fn name(self) -> &'static str {
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

impl CustomTagQuery {
    pub fn from_params(params: &Params) -> Result<CustomTagQuery, ApiError> {
        Ok(CustomTagQuery {
            range: DateRange::from_params(params)?,
            aggregate_by: Aggregation::from_params(params)?,
            page: page(params)?,
        })
    }
}

/// The optional `page` of a paged report: a non-negative integer (absent or empty: 0, the first
/// page).
pub fn page(params: &Params) -> Result<i64, ApiError> {
    let Some(text) = params.string("page")? else { return Ok(0) };
    let text = text.trim();
    if text.is_empty() {
        return Ok(0);
    }
    match text.parse::<i64>() {
        Ok(page) if text.bytes().all(|byte| byte.is_ascii_digit()) => Ok(page),
        _ => Err(ApiError::bad_request(
            "Value for 'page' not supported: it must be a non-negative integer (a next_page of the previous page).",
        )),
    }
}

/// Why a page of a paged report (custom tags, audit log) cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// 400: `page` is no `next_page` this report gave (another range, aggregation or
    /// subscription, or made up).
    #[error("Value for 'page' not supported: it is not a next_page of this report.")]
    UnknownPage,
    /// 400: nothing follows the entry `page` names.
    #[error("Value for 'page' not supported: no entries follow it (the previous page was the last).")]
    PastTheEnd,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<ReportError> for ApiError {
    fn from(error: ReportError) -> ApiError {
        match error {
            ReportError::Store(error) => ApiError::internal(&error),
            page => ApiError::bad_request(page.to_string()),
        }
    }
}

impl From<platform::DbError> for ReportError {
    fn from(error: platform::DbError) -> Self {
        ReportError::Store(StoreError::Db(error))
    }
}

/// Characters and speech, as both key reports break them down.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct UsageBreakdown {
    pub total_characters: i64,
    pub text_translation_characters: i64,
    pub document_translation_characters: i64,
    pub text_improvement_characters: i64,
    /// Milliseconds / 60,000, to two decimals.
    pub speech_to_text_minutes: f64,
}

/// The sums behind a [`UsageBreakdown`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Units {
    translate: i64,
    document: i64,
    write: i64,
    speech_ms: i64,
}

impl Units {
    fn add(&mut self, other: Units) {
        self.translate += other.translate;
        self.document += other.document;
        self.write += other.write;
        self.speech_ms += other.speech_ms;
    }

    fn breakdown(self) -> UsageBreakdown {
        UsageBreakdown {
            total_characters: self.translate + self.document + self.write,
            text_translation_characters: self.translate,
            document_translation_characters: self.document,
            text_improvement_characters: self.write,
            speech_to_text_minutes: (self.speech_ms as f64 / 600.0).round() / 100.0,
        }
    }
}

/// `GET /v2/admin/analytics`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyReport {
    pub usage_report: KeyUsageReport,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyUsageReport {
    pub total_usage: UsageBreakdown,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_by: Option<&'static str>,
    pub start_date: String,
    pub end_date: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_usages: Option<Vec<KeyUsage>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_and_day_usages: Option<Vec<KeyDayUsage>>,
}

/// One key's usage in the range.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyUsage {
    /// The key's id, masked ([`masked_key_id`]).
    pub api_key: String,
    pub api_key_label: String,
    pub usage: UsageBreakdown,
}

/// One key's usage on one day.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyDayUsage {
    pub api_key: String,
    pub api_key_label: String,
    /// `YYYY-MM-DDT00:00:00Z`.
    pub usage_date: String,
    pub usage: UsageBreakdown,
}

/// A key id as the reports show it: its first and last four characters around `****`. The
/// secret is never stored, so the id (which the admin API lists) stands for the key.
pub fn masked_key_id(key_id: &str) -> String {
    let characters: Vec<char> = key_id.chars().collect();
    if characters.len() <= 8 {
        return "****".to_owned();
    }
    let first: String = characters[..4].iter().collect();
    let last: String = characters[characters.len() - 4..].iter().collect();
    format!("{first}****{last}")
}

/// Each key's usage per day in the range (`?1` subscription, `?2`..`?3` days), in day order and
/// then by the key's creation. The inner grouping follows `usage_key_daily`'s primary key
/// (subscription_id, day, key_id, product), so it reads one range and sorts nothing; only its
/// result (a row per key and day) is joined, each key found by its id, and ordered.
const SQL_KEY_DAYS: &str = "SELECT d.day, d.key_id, k.label, k.created_at, d.translate, d.document, d.write, d.speech
    FROM (SELECT day, key_id,
                 SUM(CASE product WHEN 'translate' THEN units ELSE 0 END) AS translate,
                 SUM(CASE product WHEN 'document' THEN units ELSE 0 END) AS document,
                 SUM(CASE product WHEN 'write' THEN units ELSE 0 END) AS write,
                 SUM(CASE product WHEN 'speech' THEN units ELSE 0 END) AS speech
            FROM usage_key_daily
           WHERE subscription_id = ?1 AND day BETWEEN ?2 AND ?3
           GROUP BY day, key_id) AS d
    CROSS JOIN api_keys AS k
   WHERE k.id = d.key_id AND k.subscription_id = ?1
   ORDER BY d.day, k.created_at, k.id";

/// The subscription's usage in the range: in total and, as `group_by` asks, per key (ordered
/// by the keys' creation) or per key and day (by day, then the keys' creation). Keys without
/// usage in the range are left out.
pub fn key_report(db: &dyn Database, subscription_id: &str, query: &KeyReportQuery) -> Result<KeyReport, StoreError> {
    let (first, last) = stored_days(&query.range);
    let rows = db.execute(SQL_KEY_DAYS, &[Value::from(subscription_id), first, last])?.rows;
    let mut total = Units::default();
    let mut per_key: BTreeMap<(String, String), (String, Units)> = BTreeMap::new();
    let mut per_day = Vec::new();
    for row in &rows {
        let day: String = row.get(0)?;
        let key_id: String = row.get(1)?;
        let label: String = row.get(2)?;
        let created_at: String = row.get(3)?;
        let units = Units { translate: row.get(4)?, document: row.get(5)?, write: row.get(6)?, speech_ms: row.get(7)? };
        total.add(units);
        match query.group_by {
            GroupBy::Nothing => {}
            GroupBy::Key => {
                let entry = per_key.entry((created_at, key_id)).or_insert_with(|| (label, Units::default()));
                entry.1.add(units);
            }
            GroupBy::KeyAndDay => per_day.push(KeyDayUsage {
                api_key: masked_key_id(&key_id),
                api_key_label: label,
                usage_date: usage_date(&day),
                usage: units.breakdown(),
            }),
        }
    }
    let key_usages = (query.group_by == GroupBy::Key).then(|| {
        per_key
            .into_iter()
            .map(|((_, key_id), (label, units))| KeyUsage {
                api_key: masked_key_id(&key_id),
                api_key_label: label,
                usage: units.breakdown(),
            })
            .collect()
    });
    Ok(KeyReport {
        usage_report: KeyUsageReport {
            total_usage: total.breakdown(),
            group_by: query.group_by.name(),
            start_date: query.range.start_text(),
            end_date: query.range.end_text(),
            key_usages,
            key_and_day_usages: (query.group_by == GroupBy::KeyAndDay).then_some(per_day),
        },
    })
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
const SQL_TAG_PERIODS: &str = "WITH page (id, tag) AS (
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
const NO_RANGE: (&str, &str) = ("1", "0");

/// A range of days cut into the whole calendar months it holds and the days before and after
/// them, each as stored bounds (`YYYY-MM-DD`, `YYYY-MM`), [`NO_RANGE`] for an empty part.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MonthSplit {
    head: (String, String),
    months: (String, String),
    tail: (String, String),
}

impl MonthSplit {
    fn of(range: &DateRange) -> MonthSplit {
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
const SQL_TAG_DAYS: &str = "SELECT t.id, t.tag, r.day, r.translate_units, r.write_units
    FROM usage_tags AS t CROSS JOIN usage_tag_daily AS r
   WHERE t.subscription_id = ?1 AND t.tag >= ?2
     AND r.tag_id = t.id AND r.day BETWEEN ?4 AND ?5
     AND (t.tag > ?2 OR r.day > ?3)
   ORDER BY t.tag, r.day
   LIMIT ?6";

/// The tag `?1` of the subscription `?2`, if it has usage in the days `?3`..`?4`.
const SQL_CURSOR_TAG: &str = "SELECT t.tag FROM usage_tags AS t
   WHERE t.id = ?1 AND t.subscription_id = ?2
     AND EXISTS (SELECT 1 FROM usage_tag_daily AS r WHERE r.tag_id = t.id AND r.day BETWEEN ?3 AND ?4)";

/// The entry a cursor names: its tag, and for daily entries its day.
struct Position {
    tag: String,
    day: Option<Date>,
}

/// One page of the subscription's tagged usage in the range, summed across keys: per tag (in
/// byte order) for the whole range, or per tag and day. `query.page` 0 starts at the first
/// entry; any other value must be a `next_page` this report answered.
pub fn custom_tag_report(
    db: &dyn Database,
    subscription_id: &str,
    query: &CustomTagQuery,
) -> Result<CustomTagReport, ReportError> {
    let after = match query.page {
        0 => None,
        page => Some(position(db, subscription_id, query, page)?),
    };
    let after_tag = after.as_ref().map_or("", |position| position.tag.as_str());
    let mut entries = match query.aggregate_by {
        Aggregation::Period => period_entries(db, subscription_id, after_tag, &query.range)?,
        Aggregation::Day => {
            let after_day = after.as_ref().and_then(|position| position.day).map_or_else(String::new, stored_day);
            let (first, last) = stored_days(&query.range);
            let params = [
                Value::from(subscription_id),
                Value::from(after_tag),
                Value::from(after_day),
                first,
                last,
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
        Some(entry) if more => Some(entry.cursor()?),
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

/// The entry `page` names, if it is one of this report's: a tag of this subscription with
/// usage in the range and, for daily entries, on a day of the range.
fn position(
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
        Some(day) => (Value::from(stored_day(day)), Value::from(stored_day(day))),
        None => stored_days(&query.range),
    };
    let found = db.execute(SQL_CURSOR_TAG, &[Value::Integer(tag_id), Value::from(subscription_id), first, last])?;
    let tag = found.first().ok_or(ReportError::UnknownPage)?.get(0)?;
    Ok(Position { tag, day })
}

/// The entries after `after_tag` for the whole range, at most a page and one more, in tag order.
fn period_entries(
    db: &dyn Database,
    subscription_id: &str,
    after_tag: &str,
    range: &DateRange,
) -> Result<Vec<Entry>, StoreError> {
    let (first, last) = stored_days(range);
    let split = MonthSplit::of(range);
    let mut params = vec![
        Value::from(subscription_id),
        Value::from(after_tag),
        first,
        last,
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
    fn from_day_row(row: &Row) -> Result<Entry, StoreError> {
        Ok(Entry {
            tag_id: row.get(0)?,
            tag: row.get(1)?,
            day: row.get(2)?,
            translate: row.get(3)?,
            write: row.get(4)?,
        })
    }

    /// The `next_page` naming this entry.
    fn cursor(&self) -> Result<i64, StoreError> {
        let day_number = match &self.day {
            Some(day) => i64::from(parse_stored_day(day)?.to_julian_day()),
            None => 0,
        };
        Ok(self.tag_id * CURSOR_DAY_SPAN + day_number)
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

fn parse_stored_day(text: &str) -> Result<Date, StoreError> {
    Date::parse(text, format_description!("[year]-[month]-[day]"))
        .map_err(|_| StoreError::Corrupt { what: "usage day", value: text.to_owned() })
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use platform::native::SqliteDb;
    use time::OffsetDateTime;
    use time::macros::datetime;

    use super::*;
    use crate::audit::Actor;
    use crate::auth::Principal;
    use crate::keys::{KeyKind, create_key};
    use crate::subscriptions::Plan;
    use crate::tags::ReportingTag;
    use crate::test_support::Fixture;
    use crate::usage::{Charge, Product, charge};

    fn fixture() -> Fixture {
        Fixture::at(
            SystemTime::from(datetime!(2026-04-01 09:00 UTC)).duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs(),
        )
    }

    fn params(query: &str) -> Params {
        Params::from_form(query.as_bytes())
    }

    fn key_query(query: &str) -> KeyReportQuery {
        KeyReportQuery::from_params(&params(query)).unwrap()
    }

    fn tag_query(query: &str) -> CustomTagQuery {
        CustomTagQuery::from_params(&params(query)).unwrap()
    }

    /// Charges `units` of `product` to `principal` at `moment`, with `tag`.
    fn charge_at(
        fixture: &Fixture,
        principal: &Principal,
        moment: OffsetDateTime,
        product: Product,
        units: i64,
        tag: Option<&str>,
    ) {
        fixture.clock.set(SystemTime::from(moment));
        let tag = tag.map(|tag| ReportingTag::parse(tag.as_bytes()).unwrap());
        charge(&fixture.services(), Charge { principal, product, units, tag: tag.as_ref() }).unwrap();
    }

    /// Another developer key of `principal`'s subscription, created at `moment`.
    fn second_key(fixture: &Fixture, principal: &Principal, moment: OffsetDateTime, label: &str) -> Principal {
        fixture.clock.set(SystemTime::from(moment));
        let key =
            create_key(&fixture.services(), &principal.subscription, KeyKind::Developer, Some(label), Actor::Operator)
                .unwrap()
                .key;
        Principal { subscription: principal.subscription.clone(), key }
    }

    /// Records tagged usage directly (the triggers roll it up as they do for charges).
    fn record(db: &SqliteDb, subscription_id: &str, day: &str, key_id: &str, tag: &str, product: &str, units: i64) {
        db.execute(
            "INSERT INTO usage_daily (subscription_id, day, key_id, tag, product, period_start, units)
             VALUES (?, ?, ?, ?, ?, '2026-01-01T00:00:00Z', ?)
             ON CONFLICT (subscription_id, day, key_id, tag, product, period_start) DO UPDATE SET units = units + excluded.units",
            &[subscription_id.into(), day.into(), key_id.into(), tag.into(), product.into(), Value::Integer(units)],
        )
        .unwrap();
    }

    fn message(result: Result<impl std::fmt::Debug, ApiError>) -> String {
        result.unwrap_err().message
    }

    #[test]
    fn group_by_takes_nothing_key_or_key_and_day() {
        assert_eq!(GroupBy::from_params(&params("")).unwrap(), GroupBy::Nothing);
        assert_eq!(GroupBy::from_params(&params("group_by=")).unwrap(), GroupBy::Nothing);
        assert_eq!(GroupBy::from_params(&params("group_by=key")).unwrap(), GroupBy::Key);
        assert_eq!(GroupBy::from_params(&params("group_by=key_and_day")).unwrap(), GroupBy::KeyAndDay);
        assert_eq!(
            message(GroupBy::from_params(&params("group_by=day"))),
            "Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'."
        );
    }

    #[test]
    fn aggregate_by_takes_period_by_default_or_day() {
        for query in ["", "aggregate_by=", "aggregate_by=period"] {
            assert_eq!(Aggregation::from_params(&params(query)).unwrap(), Aggregation::Period, "{query}");
        }
        assert_eq!(Aggregation::from_params(&params("aggregate_by=day")).unwrap(), Aggregation::Day);
        assert_eq!(
            message(Aggregation::from_params(&params("aggregate_by=key"))),
            "Value for 'aggregate_by' not supported. Allowed: '', 'period', 'day'."
        );
    }

    #[test]
    fn page_is_a_non_negative_integer_and_absent_means_the_first() {
        for (query, expected) in [("", 0), ("page=", 0), ("page=0", 0), ("page=8388609", 8_388_609)] {
            assert_eq!(page(&params(query)).unwrap(), expected, "{query}");
        }
        for wrong in ["-1", "%2B3", "1.5", "abc", "99999999999999999999"] {
            let error = message(page(&params(&format!("page={wrong}"))));
            assert!(error.starts_with("Value for 'page' not supported"), "{wrong}: {error}");
        }
        let json = Params::from_json(br#"{"page": -2}"#).unwrap();
        assert!(page(&json).is_err());
    }

    #[test]
    fn the_queries_check_the_dates_first() {
        let error = CustomTagQuery::from_params(&params("end_date=2026-05-01&aggregate_by=day")).unwrap_err();
        assert_eq!(error.message, "Parameter 'start_date' not specified");
        let error = KeyReportQuery::from_params(&params("start_date=2026-05-01&end_date=2026-05-02&group_by=x"));
        assert!(message(error).contains("'group_by'"));
    }

    #[test]
    fn key_ids_are_masked_to_their_first_and_last_four_characters() {
        assert_eq!(
            masked_key_id("dc88e2a1-0000-4000-8000-000000000000:7c1a0000-0000-4000-8000-00000f2d3a2c"),
            "dc88****3a2c"
        );
        assert_eq!(masked_key_id("short"), "****");
    }

    #[test]
    fn the_key_report_sums_every_product_per_key_and_day() {
        let fixture = fixture();
        let first = fixture.principal(Plan::Pro);
        let second = second_key(&fixture, &first, datetime!(2026-04-02 09:00 UTC), "Staging");
        charge_at(&fixture, &first, datetime!(2026-05-03 23:59:59 UTC), Product::Translate, 1000, None);
        charge_at(&fixture, &first, datetime!(2026-05-04 00:00:00 UTC), Product::Translate, 10, Some("a"));
        charge_at(&fixture, &first, datetime!(2026-05-04 12:00:00 UTC), Product::Translate, 5, None);
        charge_at(&fixture, &first, datetime!(2026-05-04 13:00:00 UTC), Product::Write, 7, None);
        charge_at(&fixture, &second, datetime!(2026-05-04 14:00:00 UTC), Product::Document, 100, None);
        charge_at(&fixture, &second, datetime!(2026-05-05 14:00:00 UTC), Product::Speech, 90_000, None);
        charge_at(&fixture, &first, datetime!(2026-05-06 23:59:59 UTC), Product::Translate, 3, Some("b"));
        charge_at(&fixture, &first, datetime!(2026-05-07 00:00:00 UTC), Product::Translate, 2000, None);
        let other = fixture.principal(Plan::Pro);
        charge_at(&fixture, &other, datetime!(2026-05-05 10:00:00 UTC), Product::Translate, 500, Some("a"));
        let subscription = &first.subscription.id;

        let range = "start_date=2026-05-04T18:00:00&end_date=2026-05-06";
        let totals = key_report(&fixture.db, subscription, &key_query(range)).unwrap();
        let json = serde_json::to_value(&totals).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"usage_report": {
                "total_usage": {"total_characters": 125, "text_translation_characters": 18,
                                "document_translation_characters": 100, "text_improvement_characters": 7,
                                "speech_to_text_minutes": 1.5},
                "start_date": "2026-05-04T18:00:00", "end_date": "2026-05-06T00:00:00"}}),
            "a date-time selects its whole day, the end day included, other days and subscriptions left out"
        );

        let by_key = key_report(&fixture.db, subscription, &key_query(&format!("{range}&group_by=key"))).unwrap();
        let report = by_key.usage_report;
        assert_eq!(report.group_by, Some("key"));
        assert!(report.key_and_day_usages.is_none());
        let keys = report.key_usages.unwrap();
        assert_eq!(keys.len(), 2);
        assert_eq!(keys[0].api_key, masked_key_id(&first.key.id), "the older key first");
        assert_eq!(keys[0].usage.total_characters, 25);
        assert_eq!((keys[1].api_key_label.as_str(), keys[1].usage.document_translation_characters), ("Staging", 100));
        assert_eq!(keys[1].usage.speech_to_text_minutes, 1.5);

        let query = key_query(&format!("{range}&group_by=key_and_day"));
        let days = key_report(&fixture.db, subscription, &query).unwrap().usage_report.key_and_day_usages.unwrap();
        let rows: Vec<(&str, &str, i64)> = days
            .iter()
            .map(|entry| (entry.usage_date.as_str(), entry.api_key_label.as_str(), entry.usage.total_characters))
            .collect();
        let label = first.key.label.as_str();
        assert_eq!(
            rows,
            [
                ("2026-05-04T00:00:00Z", label, 22),
                ("2026-05-04T00:00:00Z", "Staging", 100),
                ("2026-05-05T00:00:00Z", "Staging", 0),
                ("2026-05-06T00:00:00Z", label, 3),
            ]
        );
    }

    #[test]
    fn keys_without_usage_in_the_range_are_left_out() {
        let fixture = fixture();
        let first = fixture.principal(Plan::Free);
        second_key(&fixture, &first, datetime!(2026-04-02 09:00 UTC), "idle");
        charge_at(&fixture, &first, datetime!(2026-05-04 10:00 UTC), Product::Translate, 4, None);
        let query = key_query("start_date=2026-05-01&end_date=2026-05-31&group_by=key");
        let keys = key_report(&fixture.db, &first.subscription.id, &query).unwrap().usage_report.key_usages.unwrap();
        assert_eq!(keys.len(), 1);
        let empty = key_query("start_date=2026-06-01&end_date=2026-06-30&group_by=key_and_day");
        let report = key_report(&fixture.db, &first.subscription.id, &empty).unwrap().usage_report;
        assert_eq!(report.key_and_day_usages, Some(Vec::new()));
        assert_eq!(report.total_usage, UsageBreakdown::default());
    }

    #[test]
    fn the_tag_report_rolls_tags_up_across_keys_in_byte_order() {
        let fixture = fixture();
        let first = fixture.principal(Plan::Pro);
        let second = second_key(&fixture, &first, datetime!(2026-04-02 09:00 UTC), "second");
        let other = fixture.principal(Plan::Pro);
        charge_at(&fixture, &first, datetime!(2026-05-04 10:00 UTC), Product::Translate, 10, Some("Team-B"));
        charge_at(&fixture, &second, datetime!(2026-05-04 11:00 UTC), Product::Translate, 5, Some("team-b"));
        charge_at(&fixture, &second, datetime!(2026-05-06 11:00 UTC), Product::Translate, 1, Some("team-b"));
        charge_at(&fixture, &first, datetime!(2026-05-05 10:00 UTC), Product::Translate, 7, Some("Team-A"));
        charge_at(&fixture, &first, datetime!(2026-05-05 10:00 UTC), Product::Translate, 100, None);
        charge_at(&fixture, &first, datetime!(2026-05-09 10:00 UTC), Product::Translate, 1000, Some("late"));
        charge_at(&fixture, &other, datetime!(2026-05-04 10:00 UTC), Product::Translate, 300, Some("team-a"));
        record(&fixture.db, &first.subscription.id, "2026-05-05", &first.key.id, "team-a", "write", 2);
        let subscription = &first.subscription.id;

        let period =
            custom_tag_report(&fixture.db, subscription, &tag_query("start_date=2026-05-04&end_date=2026-05-06"));
        assert_eq!(
            serde_json::to_value(period.unwrap()).unwrap(),
            serde_json::json!({"custom_tag_usage_report": {
            "aggregate_by": "period", "start_date": "2026-05-04T00:00:00", "end_date": "2026-05-06T00:00:00",
            "next_page": null,
            "usage": [
                {"custom_tag": "team-a", "breakdown": {"total_characters": 9, "text_translation_characters": 7, "text_improvement_characters": 2}},
                {"custom_tag": "team-b", "breakdown": {"total_characters": 16, "text_translation_characters": 16, "text_improvement_characters": 0}}
            ]}})
        );

        let daily = custom_tag_report(
            &fixture.db,
            subscription,
            &tag_query("start_date=2026-05-04T23:00:00Z&end_date=2026-05-05&aggregate_by=day"),
        )
        .unwrap()
        .custom_tag_usage_report;
        let entries: Vec<(&str, &str, i64)> = daily
            .usage
            .iter()
            .map(|entry| {
                (entry.custom_tag.as_str(), entry.usage_date.as_deref().unwrap(), entry.breakdown.total_characters)
            })
            .collect();
        assert_eq!(entries, [("team-a", "2026-05-05T00:00:00Z", 9), ("team-b", "2026-05-04T00:00:00Z", 15)]);
        assert_eq!(daily.aggregate_by, "day");
        assert_eq!(daily.next_page, None);
    }

    /// Every entry of a report, following `next_page` from the first page.
    fn walk(db: &SqliteDb, subscription_id: &str, query: &str) -> (Vec<(String, Option<String>, i64)>, usize) {
        let mut query = tag_query(query);
        let mut entries = Vec::new();
        let mut pages = 0;
        loop {
            let page = custom_tag_report(db, subscription_id, &query).unwrap().custom_tag_usage_report;
            pages += 1;
            assert!(page.usage.len() <= CUSTOM_TAG_PAGE_SIZE);
            entries.extend(
                page.usage
                    .into_iter()
                    .map(|entry| (entry.custom_tag, entry.usage_date, entry.breakdown.total_characters)),
            );
            match page.next_page {
                Some(next) => {
                    assert!(next > 0);
                    query.page = next;
                }
                None => return (entries, pages),
            }
        }
    }

    #[test]
    fn following_next_page_yields_every_entry_once_in_order() {
        let fixture = fixture();
        let principal = fixture.principal(Plan::Pro);
        let subscription = &principal.subscription.id;
        let mut expected_days = Vec::new();
        let mut expected_periods = Vec::new();
        // 120 tags inserted out of order, some with usage outside the range too.
        for number in (0..120).rev() {
            let tag = format!("tag-{number:03}");
            let mut total = 0;
            for day in 1..=3 {
                let units = number * 10 + day;
                record(
                    &fixture.db,
                    subscription,
                    &format!("2026-05-0{day}"),
                    &principal.key.id,
                    &tag,
                    "translate",
                    units,
                );
                expected_days.push((tag.clone(), Some(format!("2026-05-0{day}T00:00:00Z")), units));
                total += units;
            }
            record(&fixture.db, subscription, "2026-06-01", &principal.key.id, &tag, "translate", 1);
            expected_periods.push((tag, None, total));
        }
        record(&fixture.db, subscription, "2026-06-02", &principal.key.id, "only-outside", "translate", 5);
        expected_days.sort();
        expected_periods.sort();

        let (days, pages) =
            walk(&fixture.db, subscription, "start_date=2026-05-01&end_date=2026-05-03&aggregate_by=day");
        assert_eq!(pages, 4, "360 entries in pages of 100");
        assert_eq!(days, expected_days);
        let (periods, pages) = walk(&fixture.db, subscription, "start_date=2026-05-01&end_date=2026-05-03");
        assert_eq!(pages, 2);
        assert_eq!(periods, expected_periods);
    }

    #[test]
    fn usage_recorded_between_pages_never_repeats_or_moves_an_entry() {
        let fixture = fixture();
        let principal = fixture.principal(Plan::Pro);
        let subscription = &principal.subscription.id;
        let key = &principal.key.id;
        for number in 0..150 {
            record(&fixture.db, subscription, "2026-05-01", key, &format!("t{number:03}"), "translate", 1);
        }
        let mut query = tag_query("start_date=2026-05-01&end_date=2026-05-02&aggregate_by=day");
        let first = custom_tag_report(&fixture.db, subscription, &query).unwrap().custom_tag_usage_report;
        assert_eq!(first.usage.last().unwrap().custom_tag, "t099");
        // Before the cursor (a new day of a tag already shown), at it, and after it.
        record(&fixture.db, subscription, "2026-05-02", key, "t000", "translate", 1);
        record(&fixture.db, subscription, "2026-05-01", key, "t099", "translate", 1);
        record(&fixture.db, subscription, "2026-05-02", key, "t099", "translate", 1);
        record(&fixture.db, subscription, "2026-05-01", key, "t1000", "translate", 1);
        query.page = first.next_page.unwrap();
        let second = custom_tag_report(&fixture.db, subscription, &query).unwrap().custom_tag_usage_report;
        let tags: Vec<(&str, &str)> = second
            .usage
            .iter()
            .map(|entry| (entry.custom_tag.as_str(), entry.usage_date.as_deref().unwrap()))
            .take(3)
            .collect();
        assert_eq!(
            tags,
            [("t099", "2026-05-02T00:00:00Z"), ("t100", "2026-05-01T00:00:00Z"), ("t1000", "2026-05-01T00:00:00Z")]
        );
        assert_eq!(second.usage.len(), 52);
        assert_eq!(second.next_page, None);
    }

    #[test]
    fn a_page_that_is_not_one_of_this_reports_cursors_is_refused() {
        let fixture = fixture();
        let mine = fixture.principal(Plan::Pro);
        let theirs = fixture.principal(Plan::Pro);
        for number in 0..101 {
            record(
                &fixture.db,
                &mine.subscription.id,
                "2026-05-02",
                &mine.key.id,
                &format!("t{number:03}"),
                "translate",
                1,
            );
        }
        record(&fixture.db, &theirs.subscription.id, "2026-05-02", &theirs.key.id, "theirs", "translate", 1);
        let report = |subscription: &str, query: &str, page: i64| {
            let mut query = tag_query(query);
            query.page = page;
            custom_tag_report(&fixture.db, subscription, &query)
        };
        let period = "start_date=2026-05-01&end_date=2026-05-03";
        let day = "start_date=2026-05-01&end_date=2026-05-03&aggregate_by=day";
        let next_period = report(&mine.subscription.id, period, 0).unwrap().custom_tag_usage_report.next_page.unwrap();
        let next_day = report(&mine.subscription.id, day, 0).unwrap().custom_tag_usage_report.next_page.unwrap();
        assert_eq!(next_period % CURSOR_DAY_SPAN, 0);
        assert_eq!(next_day - next_period, i64::from(time::macros::date!(2026 - 05 - 02).to_julian_day()));
        assert_eq!(report(&mine.subscription.id, day, next_day).unwrap().custom_tag_usage_report.usage.len(), 1);

        let unknown = |subscription: &str, query: &str, page: i64| {
            matches!(report(subscription, query, page), Err(ReportError::UnknownPage))
        };
        assert!(unknown(&mine.subscription.id, period, next_day), "a daily cursor in a period report");
        assert!(unknown(&mine.subscription.id, day, next_period), "a period cursor in a daily report");
        assert!(unknown(&theirs.subscription.id, period, next_period), "another subscription's tag");
        assert!(
            unknown(&mine.subscription.id, "start_date=2026-05-03&end_date=2026-05-04", next_period),
            "no usage in the range"
        );
        assert!(unknown(&mine.subscription.id, "start_date=2026-05-03&end_date=2026-05-04&aggregate_by=day", next_day));
        assert!(unknown(&mine.subscription.id, period, 999 * CURSOR_DAY_SPAN), "an unknown tag");
        assert!(unknown(&mine.subscription.id, day, next_day + 1), "a day without usage");
        assert!(unknown(&mine.subscription.id, period, 1));

        let last_tag = fixture.db.execute("SELECT id FROM usage_tags WHERE tag = 't100'", &[]).unwrap();
        let last = last_tag.rows[0].get::<i64>(0).unwrap() * CURSOR_DAY_SPAN;
        assert!(matches!(report(&mine.subscription.id, period, last), Err(ReportError::PastTheEnd)));
        let error = ApiError::from(ReportError::PastTheEnd);
        assert_eq!(error.status, 400);
        assert!(error.message.starts_with("Value for 'page' not supported"));
    }

    /// SQLite's plan for `sql`, one line per step.
    fn plan(db: &SqliteDb, sql: &str, params: &[Value]) -> String {
        let rows = db.execute(&format!("EXPLAIN QUERY PLAN {sql}"), params).unwrap().rows;
        rows.iter().map(|row| row.get::<String>(3).unwrap()).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn the_reports_read_index_ranges_and_sort_nothing_large() {
        let fixture = fixture();
        let text = |value: &str| Value::from(value);
        let tags = "SEARCH t USING COVERING INDEX sqlite_autoindex_usage_tags_1 (subscription_id=? AND tag>";
        let days_range = "USING PRIMARY KEY (tag_id=? AND day>? AND day<?)";
        let mut params = vec![text("s"), text(""), text("2026-01-01"), text("2026-12-31"), Value::Integer(101)];
        params.extend(["2026-01-01", "2026-01-31", "2026-02", "2026-11", "2026-12-01", "2026-12-31"].map(text));
        let periods = plan(&fixture.db, SQL_TAG_PERIODS, &params);
        assert!(periods.contains(tags) && periods.contains("MATERIALIZE page"), "{periods}");
        assert_eq!(periods.matches(days_range).count(), 3, "the existence probe, head and tail: {periods}");
        assert!(periods.contains("SEARCH m USING PRIMARY KEY (tag_id=? AND month>? AND month<?)"), "{periods}");
        let scans: Vec<&str> = periods.lines().filter(|line| line.starts_with("SCAN")).collect();
        assert_eq!(scans, ["SCAN p"; 3], "only the page's own tags are scanned: {periods}");

        let days = plan(
            &fixture.db,
            SQL_TAG_DAYS,
            &[text("s"), text("t"), text("2026-01-02"), text("2026-01-01"), text("2026-12-31"), Value::Integer(101)],
        );
        assert!(days.contains(tags) && days.contains(days_range), "{days}");
        assert!(!days.contains("TEMP B-TREE") && !days.contains("SCAN"), "{days}");

        let keys = plan(&fixture.db, SQL_KEY_DAYS, &[text("s"), text("2026-01-01"), text("2026-12-31")]);
        assert!(
            keys.contains("SEARCH usage_key_daily USING PRIMARY KEY (subscription_id=? AND day>? AND day<?)"),
            "{keys}"
        );
        assert!(!keys.contains("TEMP B-TREE FOR GROUP BY"), "the grouping follows the primary key: {keys}");
        assert!(keys.contains("SEARCH k USING INDEX sqlite_autoindex_api_keys_1 (id=?)"), "{keys}");
        let cursor =
            plan(&fixture.db, SQL_CURSOR_TAG, &[Value::Integer(1), text("s"), text("2026-01-01"), text("2026-01-01")]);
        assert!(cursor.contains("SEARCH t USING INTEGER PRIMARY KEY (rowid=?)"), "{cursor}");
    }

    fn split(query: &str) -> [(String, String); 3] {
        let MonthSplit { head, months, tail } = MonthSplit::of(&tag_query(query).range);
        [head, months, tail]
    }

    fn bounds(low: &str, high: &str) -> (String, String) {
        (low.to_owned(), high.to_owned())
    }

    #[test]
    fn a_range_is_cut_into_whole_months_and_the_days_around_them() {
        let none = || bounds(NO_RANGE.0, NO_RANGE.1);
        assert_eq!(
            split("start_date=2025-01-16&end_date=2026-01-15T10:00:00"),
            [bounds("2025-01-16", "2025-01-31"), bounds("2025-02", "2025-12"), bounds("2026-01-01", "2026-01-15")]
        );
        assert_eq!(
            split("start_date=2025-01-01&end_date=2026-01-01"),
            [none(), bounds("2025-01", "2025-12"), bounds("2026-01-01", "2026-01-01")]
        );
        assert_eq!(split("start_date=2024-02-01&end_date=2024-02-29"), [none(), bounds("2024-02", "2024-02"), none()]);
        assert_eq!(
            split("start_date=2026-04-30&end_date=2026-05-01"),
            [bounds("2026-04-30", "2026-05-01"), none(), none()],
            "no whole month"
        );
        assert_eq!(
            split("start_date=2026-05-04&end_date=2026-05-04"),
            [bounds("2026-05-04", "2026-05-04"), none(), none()]
        );
        assert_eq!(
            split("start_date=9999-11-15&end_date=9999-12-31"),
            [bounds("9999-11-15", "9999-11-30"), bounds("9999-12", "9999-12"), none()]
        );
    }

    #[test]
    fn a_tags_sum_for_the_period_is_the_sum_of_its_days() {
        let fixture = fixture();
        let principal = fixture.principal(Plan::Pro);
        let subscription = &principal.subscription.id;
        let mut day = time::macros::date!(2025 - 11 - 20);
        for number in 0..200_i64 {
            for (tag, product) in [("north", "translate"), ("south", "translate"), ("south", "write")] {
                if (number + tag.len() as i64) % 3 != 0 {
                    record(&fixture.db, subscription, &stored_day(day), &principal.key.id, tag, product, number + 1);
                }
            }
            day = day.next_day().unwrap();
        }
        for range in [
            "start_date=2025-11-20&end_date=2026-06-07",
            "start_date=2025-12-01&end_date=2026-02-28",
            "start_date=2025-12-31&end_date=2026-03-01",
            "start_date=2026-01-10&end_date=2026-01-20",
            "start_date=2025-01-01&end_date=2025-12-31",
        ] {
            let periods = custom_tag_report(&fixture.db, subscription, &tag_query(range)).unwrap();
            let mut days = Vec::new();
            let mut query = tag_query(&format!("{range}&aggregate_by=day"));
            loop {
                let page = custom_tag_report(&fixture.db, subscription, &query).unwrap().custom_tag_usage_report;
                days.extend(page.usage);
                let Some(next) = page.next_page else { break };
                query.page = next;
            }
            let mut expected: BTreeMap<String, TagBreakdown> = BTreeMap::new();
            for entry in days {
                let sum = expected.entry(entry.custom_tag).or_insert(TagBreakdown {
                    total_characters: 0,
                    text_translation_characters: 0,
                    text_improvement_characters: 0,
                });
                sum.total_characters += entry.breakdown.total_characters;
                sum.text_translation_characters += entry.breakdown.text_translation_characters;
                sum.text_improvement_characters += entry.breakdown.text_improvement_characters;
            }
            let found: BTreeMap<String, TagBreakdown> = periods
                .custom_tag_usage_report
                .usage
                .into_iter()
                .map(|entry| (entry.custom_tag, entry.breakdown))
                .collect();
            assert_eq!(found, expected, "{range}");
        }
    }

    #[test]
    fn the_migration_rolls_up_earlier_usage_once() {
        let db = SqliteDb::open_in_memory().unwrap();
        db.migrate(&[include_str!("../../../sql/0002_accounts.sql")]).unwrap();
        record(&db, "s", "2026-05-01", "k1", "alpha", "translate", 5);
        record(&db, "s", "2026-05-01", "k2", "alpha", "translate", 6);
        record(&db, "s", "2026-05-01", "k1", "alpha", "write", 1);
        record(&db, "s", "2026-05-01", "k1", "", "translate", 100);
        record(&db, "s", "2026-05-01", "k1", "alpha", "speech", 60_000);
        let migration = include_str!("../../../sql/0003_usage_reports.sql");
        db.migrate(&[migration, migration]).unwrap();
        record(&db, "s", "2026-05-01", "k1", "alpha", "translate", 2);
        db.migrate(&[migration]).unwrap();
        let rows = db.execute("SELECT t.tag, r.day, r.translate_units, r.write_units FROM usage_tag_daily AS r JOIN usage_tags AS t ON t.id = r.tag_id", &[]).unwrap().rows;
        let rows: Vec<(String, String, i64, i64)> = rows
            .iter()
            .map(|row| (row.get(0).unwrap(), row.get(1).unwrap(), row.get(2).unwrap(), row.get(3).unwrap()))
            .collect();
        assert_eq!(rows, [("alpha".to_owned(), "2026-05-01".to_owned(), 13, 1)]);
        let tags = db.execute("SELECT count(*) FROM usage_tags", &[]).unwrap();
        assert_eq!(tags.rows[0].get::<i64>(0).unwrap(), 1);

        let sql =
            "SELECT key_id, product, units FROM usage_key_daily WHERE day = '2026-05-01' ORDER BY key_id, product";
        let rows = db.execute(sql, &[]).unwrap().rows;
        let rows: Vec<(String, String, i64)> =
            rows.iter().map(|row| (row.get(0).unwrap(), row.get(1).unwrap(), row.get(2).unwrap())).collect();
        let expected = [("k1", "speech", 60_000), ("k1", "translate", 107), ("k1", "write", 1), ("k2", "translate", 6)];
        let expected: Vec<(String, String, i64)> =
            expected.iter().map(|(key, product, units)| (key.to_string(), product.to_string(), *units)).collect();
        assert_eq!(rows, expected, "every product of every key, tagged or not, once");
    }
}
