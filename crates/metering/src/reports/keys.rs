//! `GET /v2/admin/analytics`: a subscription's usage in a range of days, in total, per key, or
//! per key and day.
//!
//! It folds the usage journal first (`journal.rs`), then reads `usage_key_daily`, the rollup of
//! usage per day, key and product (across tags and billing periods), through its primary key `(subscription_id, day,
//! key_id, product)`: one range of days, grouped per day and key in key order without a sort.
//! Its cost grows with keys × products × days, not with the number of tags.

use std::collections::BTreeMap;

use platform::{Database, Value};
use serde::Serialize;

use super::usage_date;
use crate::dates::DateRange;
use crate::error::{QueryError, ReportError};

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
    pub fn parse(value: Option<&str>) -> Result<GroupBy, QueryError> {
        match value.map(str::trim) {
            None | Some("") => Ok(GroupBy::Nothing),
            Some("key") => Ok(GroupBy::Key),
            Some("key_and_day") => Ok(GroupBy::KeyAndDay),
            Some(_) => Err(QueryError::GroupBy),
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
pub(super) const SQL_KEY_DAYS: &str =
    "SELECT d.day, d.key_id, k.label, k.created_at, d.translate, d.document, d.write, d.speech
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
pub fn key_report(db: &dyn Database, subscription_id: &str, query: &KeyReportQuery) -> Result<KeyReport, ReportError> {
    crate::journal::fold(db)?;
    let (first, last) = query.range.stored_days();
    let rows = db.execute(SQL_KEY_DAYS, &[Value::from(subscription_id), Value::from(first), Value::from(last)])?.rows;
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
