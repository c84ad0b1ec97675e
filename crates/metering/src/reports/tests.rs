//! The usage reports against an in-memory database with the real schema: sums, cursors and
//! paging, tenancy, and the query plans that keep them fast.

use std::collections::BTreeMap;
use std::time::SystemTime;

use accounts::{Actor, KeyKind, Plan, Principal, create_key};
use platform::native::SqliteDb;
use platform::{Database, Value};
use time::OffsetDateTime;
use time::macros::datetime;

use super::cursor::{CHECK_BITS, DAY_BITS, ORDINAL_BITS, SQL_TAG_AT, SQL_TAG_ORDINAL};
use super::custom_tags::Aggregation;
use super::custom_tags::{
    CUSTOM_TAG_PAGE_SIZE, MonthSplit, NO_RANGE, SQL_TAG_DAYS, SQL_TAG_PERIODS, TagBreakdown, custom_tag_report,
};
use super::keys::GroupBy;
use super::keys::{SQL_KEY_DAYS, UsageBreakdown, key_report, masked_key_id};
use crate::charge::{Charge, Product, charge};
use crate::dates::stored_day;
use crate::error::ReportError;
use crate::tags::ReportingTag;
use crate::test_support::{Fixture, Principals, at, key_query, tag_query};

fn fixture() -> Fixture {
    at(SystemTime::from(datetime!(2026-04-01 09:00 UTC)).duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs())
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

/// Records tagged usage directly in the journal, as a charge does without its checks.
fn record(db: &SqliteDb, subscription_id: &str, day: &str, key_id: &str, tag: &str, product: &str, units: i64) {
    db.execute(
        "INSERT INTO usage_journal (subscription_id, day, key_id, tag, product, period_start, units)
         VALUES (?, ?, ?, ?, ?, '2026-01-01T00:00:00Z', ?)",
        &[subscription_id.into(), day.into(), key_id.into(), tag.into(), product.into(), Value::Integer(units)],
    )
    .unwrap();
}

/// Records usage in `usage_daily` itself, as releases before the journal did.
fn record_before_the_journal(db: &SqliteDb, day: &str, key_id: &str, tag: &str, product: &str, units: i64) {
    db.execute(
        "INSERT INTO usage_daily (subscription_id, day, key_id, tag, product, period_start, units)
         VALUES ('s', ?, ?, ?, ?, '2026-01-01T00:00:00Z', ?)",
        &[day.into(), key_id.into(), tag.into(), product.into(), Value::Integer(units)],
    )
    .unwrap();
}

#[test]
fn group_by_takes_nothing_key_or_key_and_day() {
    for value in [None, Some(""), Some(" ")] {
        assert_eq!(GroupBy::parse(value).unwrap(), GroupBy::Nothing, "{value:?}");
    }
    assert_eq!(GroupBy::parse(Some("key")).unwrap(), GroupBy::Key);
    assert_eq!(GroupBy::parse(Some("key_and_day")).unwrap(), GroupBy::KeyAndDay);
    assert_eq!(
        GroupBy::parse(Some("day")).unwrap_err().to_string(),
        "Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'."
    );
}

#[test]
fn aggregate_by_takes_period_by_default_or_day() {
    for value in [None, Some(""), Some("period")] {
        assert_eq!(Aggregation::parse(value).unwrap(), Aggregation::Period, "{value:?}");
    }
    assert_eq!(Aggregation::parse(Some("day")).unwrap(), Aggregation::Day);
    assert_eq!(
        Aggregation::parse(Some("key")).unwrap_err().to_string(),
        "Value for 'aggregate_by' not supported. Allowed: '', 'period', 'day'."
    );
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

    let period = custom_tag_report(&fixture.db, subscription, &tag_query("start_date=2026-05-04&end_date=2026-05-06"));
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
            page.usage.into_iter().map(|entry| (entry.custom_tag, entry.usage_date, entry.breakdown.total_characters)),
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
            record(&fixture.db, subscription, &format!("2026-05-0{day}"), &principal.key.id, &tag, "translate", units);
            expected_days.push((tag.clone(), Some(format!("2026-05-0{day}T00:00:00Z")), units));
            total += units;
        }
        record(&fixture.db, subscription, "2026-06-01", &principal.key.id, &tag, "translate", 1);
        expected_periods.push((tag, None, total));
    }
    record(&fixture.db, subscription, "2026-06-02", &principal.key.id, "only-outside", "translate", 5);
    expected_days.sort();
    expected_periods.sort();

    let (days, pages) = walk(&fixture.db, subscription, "start_date=2026-05-01&end_date=2026-05-03&aggregate_by=day");
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
        for (principal, tag) in [(&mine, format!("t{number:03}")), (&theirs, format!("t{number:03}"))] {
            record(&fixture.db, &principal.subscription.id, "2026-05-02", &principal.key.id, &tag, "translate", 1);
        }
    }
    let report = |subscription: &str, query: &str, page: i64| {
        let mut query = tag_query(query);
        query.page = page;
        custom_tag_report(&fixture.db, subscription, &query)
    };
    let period = "start_date=2026-05-01&end_date=2026-05-03";
    let day = "start_date=2026-05-01&end_date=2026-05-03&aggregate_by=day";
    let first_page = |subscription: &str, query: &str| {
        report(subscription, query, 0).unwrap().custom_tag_usage_report.next_page.unwrap()
    };
    let (next_period, next_day) = (first_page(&mine.subscription.id, period), first_page(&mine.subscription.id, day));
    assert!(next_period > 0 && next_period < 1 << 53, "exact in JSON: {next_period}");
    assert_ne!(next_period, next_day);
    for (query, next) in [(period, next_period), (day, next_day)] {
        let second = report(&mine.subscription.id, query, next).unwrap().custom_tag_usage_report;
        assert_eq!(second.usage.iter().map(|entry| entry.custom_tag.as_str()).collect::<Vec<_>>(), ["t100"]);
    }

    let unknown = |subscription: &str, query: &str, page: i64| {
        matches!(report(subscription, query, page), Err(ReportError::UnknownPage))
    };
    let theirs_next = first_page(&theirs.subscription.id, period);
    assert_ne!(theirs_next, next_period, "the same tags in another subscription have other cursors");
    assert!(unknown(&mine.subscription.id, period, theirs_next), "another subscription's cursor");
    assert!(unknown(&theirs.subscription.id, period, next_period), "another subscription's cursor");
    assert!(unknown(&mine.subscription.id, period, next_day), "a daily cursor in a period report");
    assert!(unknown(&mine.subscription.id, day, next_period), "a period cursor in a daily report");
    assert!(unknown(&mine.subscription.id, "start_date=2026-05-02&end_date=2026-05-03", next_period), "another range");
    // Made-up numbers: none is one of this report's cursors (each fails the check, or names no tag).
    for forged in [1, 2, next_period + 1, next_period - 1, next_period ^ 1 << 40, (1 << 53) - 1, 1 << 53, i64::MAX] {
        assert!(unknown(&mine.subscription.id, period, forged), "{forged}");
    }
    for forged in [next_day + 1, next_day - 1, next_day ^ 1 << 40, 512] {
        assert!(unknown(&mine.subscription.id, day, forged), "{forged}");
    }
    assert_eq!(CHECK_BITS + ORDINAL_BITS + DAY_BITS, 53);
}

#[test]
fn a_cursor_tells_nothing_of_other_subscriptions() {
    // The same subscription's usage, in a store of its own and in one shared with a subscription
    // that has many more tags, numbered before and between its own: the cursors are the same.
    let cursors = |crowded: bool| {
        let fixture = fixture();
        let mut cursors = Vec::new();
        for number in 0..250 {
            if crowded {
                for other in 0..3 {
                    record(&fixture.db, "other", "2026-05-02", "k", &format!("o{number}-{other}"), "translate", 1);
                }
            }
            record(&fixture.db, "mine", "2026-05-02", "k", &format!("t{number:03}"), "translate", 1);
        }
        for query in
            ["start_date=2026-05-01&end_date=2026-05-03", "start_date=2026-05-01&end_date=2026-05-03&aggregate_by=day"]
        {
            let mut query = tag_query(query);
            loop {
                let page = custom_tag_report(&fixture.db, "mine", &query).unwrap().custom_tag_usage_report;
                let Some(next) = page.next_page else { break };
                cursors.push(next);
                query.page = next;
            }
        }
        cursors
    };
    let alone = cursors(false);
    assert_eq!(alone.len(), 4, "two pages after the first of each report");
    assert_eq!(cursors(true), alone);
}

#[test]
fn a_page_after_the_last_entry_is_refused() {
    let fixture = fixture();
    let subscription = "s";
    for number in 0..101 {
        record(&fixture.db, subscription, "2026-05-02", "k", &format!("t{number:03}"), "translate", 1);
    }
    let mut query = tag_query("start_date=2026-05-01&end_date=2026-05-03");
    query.page =
        custom_tag_report(&fixture.db, subscription, &query).unwrap().custom_tag_usage_report.next_page.unwrap();
    // The second page holds the last tag; a cursor naming it is one of this report's, with nothing after it.
    let last = super::cursor::Report { subscription_id: subscription, query: &query };
    let last_id =
        fixture.db.execute("SELECT id FROM usage_tags WHERE tag = 't100'", &[]).unwrap().rows[0].get(0).unwrap();
    query.page = last.cursor(&fixture.db, last_id, "t100", None).unwrap();
    assert!(matches!(custom_tag_report(&fixture.db, subscription, &query), Err(ReportError::PastTheEnd)));
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
    // A cursor's tag and a tag's ordinal: the subscription's own index entries, never the whole table.
    let own = "SEARCH usage_tags USING COVERING INDEX sqlite_autoindex_usage_tags_1 (subscription_id=?)";
    let ordinal = plan(&fixture.db, SQL_TAG_ORDINAL, &[text("s"), Value::Integer(7)]);
    assert_eq!(ordinal, own);
    let at = plan(&fixture.db, SQL_TAG_AT, &[text("s"), Value::Integer(7)]);
    assert!(at.contains(own) && !at.contains("SCAN"), "{at}");
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
    db.migrate(&[include_str!("../../../../sql/0002_accounts.sql")]).unwrap();
    record_before_the_journal(&db, "2026-05-01", "k1", "alpha", "translate", 5);
    record_before_the_journal(&db, "2026-05-01", "k2", "alpha", "translate", 6);
    record_before_the_journal(&db, "2026-05-01", "k1", "alpha", "write", 1);
    record_before_the_journal(&db, "2026-05-01", "k1", "", "translate", 100);
    record_before_the_journal(&db, "2026-05-01", "k1", "alpha", "speech", 60_000);
    let migration = include_str!("../../../../sql/0003_usage_reports.sql");
    let journal = include_str!("../../../../sql/0008_usage_journal.sql");
    db.migrate(&[migration, migration, journal]).unwrap();
    record(&db, "s", "2026-05-01", "k1", "alpha", "translate", 2);
    db.migrate(&[migration, journal]).unwrap();
    crate::journal::fold(&db).unwrap();
    let rows = db.execute("SELECT t.tag, r.day, r.translate_units, r.write_units FROM usage_tag_daily AS r JOIN usage_tags AS t ON t.id = r.tag_id", &[]).unwrap().rows;
    let rows: Vec<(String, String, i64, i64)> = rows
        .iter()
        .map(|row| (row.get(0).unwrap(), row.get(1).unwrap(), row.get(2).unwrap(), row.get(3).unwrap()))
        .collect();
    assert_eq!(rows, [("alpha".to_owned(), "2026-05-01".to_owned(), 13, 1)]);
    let tags = db.execute("SELECT count(*) FROM usage_tags", &[]).unwrap();
    assert_eq!(tags.rows[0].get::<i64>(0).unwrap(), 1);

    let sql = "SELECT key_id, product, units FROM usage_key_daily WHERE day = '2026-05-01' ORDER BY key_id, product";
    let rows = db.execute(sql, &[]).unwrap().rows;
    let rows: Vec<(String, String, i64)> =
        rows.iter().map(|row| (row.get(0).unwrap(), row.get(1).unwrap(), row.get(2).unwrap())).collect();
    let expected = [("k1", "speech", 60_000), ("k1", "translate", 107), ("k1", "write", 1), ("k2", "translate", 6)];
    let expected: Vec<(String, String, i64)> =
        expected.iter().map(|(key, product, units)| (key.to_string(), product.to_string(), *units)).collect();
    assert_eq!(rows, expected, "every product of every key, tagged or not, once");
}
