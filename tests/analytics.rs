//! Component `analytics`: `GET /v2/admin/analytics` and `GET /v2/admin/analytics/custom-tags`
//! over usage produced by real `POST /v2/translate` requests, on chosen days (the test clock's
//! `X-Service-Test-Time` header) and with `X-Service-Reporting-Tag`: every grouping and
//! aggregation, every error, pagination, and tenancy.

use std::sync::atomic::{AtomicUsize, Ordering};

use e2e::{BOOTSTRAP_ADMIN_KEY, Json, Options, TestApp, json};

/// Translates `text` (billed: its code points) with `key` at `at` (RFC 3339), tagged or not.
fn translate(app: &TestApp, key: &str, text: &str, tag: Option<&str>, at: &str) {
    let authorization = format!("Service-Auth-Key {key}");
    let body = json!({"text": [text], "source_lang": "EN", "target_lang": "DE"}).to_string();
    let mut headers = vec![
        ("authorization", authorization.as_str()),
        ("content-type", "application/json"),
        ("x-service-test-time", at),
    ];
    if let Some(tag) = tag {
        headers.push(("x-service-reporting-tag", tag));
    }
    let reply = app.request("POST", "/v2/translate", &headers, Some(body.as_bytes()));
    assert_eq!(reply.status, 200, "{}", reply.text());
}

/// A report that must succeed.
fn report(app: &TestApp, admin: &str, path: &str) -> Json {
    let reply = app.call("GET", path, admin);
    assert_eq!(reply.status, 200, "{path}: {}", reply.text());
    reply.json()
}

/// The message of a request that must be a 400.
fn refused(app: &TestApp, admin: &str, path: &str) -> String {
    let reply = app.call("GET", path, admin);
    assert_eq!(reply.status, 400, "{path}: {}", reply.text());
    reply.json()["message"].as_str().expect("a message").to_owned()
}

/// A new developer key: its secret and its id. Keys are created at distinct times (the test
/// clock, from `KEYS_CREATED`), so that their creation order is their order in the reports.
fn developer_key(app: &TestApp, admin: &str, label: &str) -> (String, String) {
    let number = KEYS_CREATED.fetch_add(1, Ordering::Relaxed);
    let created_at = format!("2026-01-01T{:02}:{:02}:{:02}Z", number / 3600, number / 60 % 60, number % 60);
    let authorization = format!("Service-Auth-Key {admin}");
    let body = json!({ "label": label }).to_string();
    let headers = [
        ("authorization", authorization.as_str()),
        ("content-type", "application/json"),
        ("x-service-test-time", created_at.as_str()),
    ];
    let reply = app.request("POST", "/v2/admin/developer-keys", &headers, Some(body.as_bytes()));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let created = reply.json();
    (created["key"].as_str().unwrap().to_owned(), created["key_id"].as_str().unwrap().to_owned())
}

/// How many keys the tests have created.
static KEYS_CREATED: AtomicUsize = AtomicUsize::new(0);

/// A key id as the reports show it.
fn masked(key_id: &str) -> String {
    format!("{}****{}", &key_id[..4], &key_id[key_id.len() - 4..])
}

/// Day `number` of 2026 (1 is 1 January), `YYYY-MM-DD`.
fn day_of_2026(number: usize) -> String {
    let mut day = number;
    for (month, length) in [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31].into_iter().enumerate() {
        if day <= length {
            return format!("2026-{:02}-{day:02}", month + 1);
        }
        day -= length;
    }
    panic!("2026 has 365 days, not {number}");
}

/// Each entry of a key report's list as (`first` field, label, `characters` of its usage).
fn fields(list: &Json, first: &str, characters: &str) -> Vec<(String, String, i64)> {
    let entries = list.as_array().unwrap_or_else(|| panic!("not a list: {list}"));
    entries
        .iter()
        .map(|entry| {
            let text = |value: &Json| value.as_str().unwrap_or_else(|| panic!("not text: {value}")).to_owned();
            (text(&entry[first]), text(&entry["api_key_label"]), entry["usage"][characters].as_i64().unwrap())
        })
        .collect()
}

/// A custom-tag breakdown of text translation characters only.
fn breakdown(total: i64, translation: i64) -> Json {
    json!({"total_characters": total, "text_translation_characters": translation, "text_improvement_characters": 0})
}

#[test]
fn the_key_report_sums_usage_per_key_and_per_key_and_day() {
    let app = TestApp::start(Options::app());
    let (production, production_id) = developer_key(&app, BOOTSTRAP_ADMIN_KEY, "Production");
    let (staging, staging_id) = developer_key(&app, BOOTSTRAP_ADMIN_KEY, "Staging");
    developer_key(&app, BOOTSTRAP_ADMIN_KEY, "Idle");
    translate(&app, &production, "Before the range.", None, "2026-05-03T23:59:59Z");
    translate(&app, &production, "Hello", Some("web"), "2026-05-04T00:00:00Z");
    translate(&app, &staging, "Καλημέρα", None, "2026-05-04T13:00:00Z");
    translate(&app, &production, "Good night", None, "2026-05-06T23:59:59Z");
    translate(&app, &staging, "After the range.", None, "2026-05-07T00:00:00Z");

    let range = "start_date=2026-05-04T12:00:00&end_date=2026-05-06";
    let totals = report(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics?{range}"));
    assert_eq!(
        totals,
        json!({"usage_report": {
            "total_usage": {"total_characters": 23, "text_translation_characters": 23,
                            "document_translation_characters": 0, "text_improvement_characters": 0,
                            "speech_to_text_minutes": 0.0},
            "start_date": "2026-05-04T12:00:00", "end_date": "2026-05-06T00:00:00"}}),
        "whole days, end_date included; no grouping: neither list nor group_by"
    );

    let by_key = report(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics?{range}&group_by=key"));
    let usage = &by_key["usage_report"];
    assert_eq!(usage["group_by"], "key");
    assert!(usage.get("key_and_day_usages").is_none());
    let keys = fields(&usage["key_usages"], "api_key", "total_characters");
    let (production_mask, staging_mask) = (masked(&production_id), masked(&staging_id));
    assert_eq!(
        keys,
        [(production_mask, "Production".to_owned(), 15), (staging_mask.clone(), "Staging".to_owned(), 8)],
        "by creation; the idle key is left out"
    );

    let by_day = report(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics?{range}&group_by=key_and_day"));
    let usage = &by_day["usage_report"];
    assert_eq!(usage["group_by"], "key_and_day");
    assert!(usage.get("key_usages").is_none());
    let days = fields(&usage["key_and_day_usages"], "usage_date", "text_translation_characters");
    assert_eq!(
        days,
        [
            ("2026-05-04T00:00:00Z", "Production", 5),
            ("2026-05-04T00:00:00Z", "Staging", 8),
            ("2026-05-06T00:00:00Z", "Production", 10)
        ]
        .map(|(day, label, characters)| (day.to_owned(), label.to_owned(), characters))
    );
    assert_eq!(usage["key_and_day_usages"][1]["api_key"], staging_mask.as_str());

    let one_day = report(&app, BOOTSTRAP_ADMIN_KEY, "/v2/admin/analytics?start_date=2026-05-07&end_date=2026-05-07");
    assert_eq!(one_day["usage_report"]["total_usage"]["total_characters"], 16, "a range of one day, start = end");
}

#[test]
fn the_custom_tag_report_rolls_tags_up_across_keys() {
    let app = TestApp::start(Options::app());
    let (first, _) = developer_key(&app, BOOTSTRAP_ADMIN_KEY, "first");
    let (second, _) = developer_key(&app, BOOTSTRAP_ADMIN_KEY, "second");
    translate(&app, &first, "abcde", Some("Team-B"), "2026-05-04T10:00:00Z");
    translate(&app, &second, "abc", Some("team-b"), "2026-05-04T11:00:00Z");
    translate(&app, &second, "ab", Some("team-b"), "2026-05-05T11:00:00Z");
    translate(&app, &first, "abcdefg", Some("team-a"), "2026-05-05T09:00:00Z");
    translate(&app, &first, "not tagged", None, "2026-05-05T09:00:00Z");
    translate(&app, &first, "too late", Some("team-a"), "2026-05-06T00:00:00Z");

    for query in ["", "&aggregate_by=", "&aggregate_by=period"] {
        let path =
            format!("/v2/admin/analytics/custom-tags?start_date=2026-05-04&end_date=2026-05-05T08:00:00Z{query}");
        assert_eq!(
            report(&app, BOOTSTRAP_ADMIN_KEY, &path),
            json!({"custom_tag_usage_report": {
            "aggregate_by": "period", "start_date": "2026-05-04T00:00:00", "end_date": "2026-05-05T08:00:00",
            "next_page": null,
            "usage": [
                {"custom_tag": "team-a", "breakdown": breakdown(7, 7)},
                {"custom_tag": "team-b", "breakdown": breakdown(10, 10)},
            ]}}),
            "{query}"
        );
    }

    let path = "/v2/admin/analytics/custom-tags?start_date=2026-05-04&end_date=2026-05-05&aggregate_by=day";
    assert_eq!(
        report(&app, BOOTSTRAP_ADMIN_KEY, path)["custom_tag_usage_report"],
        json!({"aggregate_by": "day", "start_date": "2026-05-04T00:00:00", "end_date": "2026-05-05T00:00:00",
        "next_page": null,
        "usage": [
            {"custom_tag": "team-a", "usage_date": "2026-05-05T00:00:00Z", "breakdown": breakdown(7, 7)},
            {"custom_tag": "team-b", "usage_date": "2026-05-04T00:00:00Z", "breakdown": breakdown(8, 8)},
            {"custom_tag": "team-b", "usage_date": "2026-05-05T00:00:00Z", "breakdown": breakdown(2, 2)},
        ]})
    );
    let empty =
        report(&app, BOOTSTRAP_ADMIN_KEY, "/v2/admin/analytics/custom-tags?start_date=2026-06-01&end_date=2026-06-30");
    assert_eq!(empty["custom_tag_usage_report"]["usage"], json!([]));
    assert_eq!(empty["custom_tag_usage_report"]["next_page"], Json::Null);
}

#[test]
fn following_next_page_walks_every_entry_once_in_order() {
    let app = TestApp::start(Options::app());
    let (key, _) = developer_key(&app, BOOTSTRAP_ADMIN_KEY, "walker");
    let mut expected = Vec::new();
    for tag in ["gamma", "alpha", "beta"] {
        for day in 1..=40 {
            let date = day_of_2026(59 + day);
            let text = "x".repeat(day);
            translate(&app, &key, &text, Some(tag), &format!("{date}T12:00:00Z"));
            expected.push((tag.to_owned(), format!("{date}T00:00:00Z"), day as i64));
        }
    }
    expected.sort();

    let range = "start_date=2026-03-01&end_date=2026-04-09&aggregate_by=day";
    let mut seen = Vec::new();
    let mut pages = Vec::new();
    let mut path = format!("/v2/admin/analytics/custom-tags?{range}");
    loop {
        let page = report(&app, BOOTSTRAP_ADMIN_KEY, &path)["custom_tag_usage_report"].clone();
        let usage = page["usage"].as_array().unwrap();
        pages.push(usage.len());
        seen.extend(usage.iter().map(|entry| {
            let tag = entry["custom_tag"].as_str().unwrap().to_owned();
            (
                tag,
                entry["usage_date"].as_str().unwrap().to_owned(),
                entry["breakdown"]["total_characters"].as_i64().unwrap(),
            )
        }));
        match &page["next_page"] {
            Json::Null => break,
            next => {
                assert!(next.as_u64().is_some(), "next_page is a non-negative integer: {next}");
                path = format!("/v2/admin/analytics/custom-tags?{range}&page={next}");
            }
        }
    }
    assert_eq!(pages, [100, 20], "pages of 100 entries");
    assert_eq!(seen, expected, "every entry once, by tag then day");

    let periods =
        report(&app, BOOTSTRAP_ADMIN_KEY, "/v2/admin/analytics/custom-tags?start_date=2026-03-01&end_date=2026-04-09");
    let periods = &periods["custom_tag_usage_report"];
    assert_eq!(periods["next_page"], Json::Null);
    let tags: Vec<&str> =
        periods["usage"].as_array().unwrap().iter().map(|entry| entry["custom_tag"].as_str().unwrap()).collect();
    assert_eq!(tags, ["alpha", "beta", "gamma"]);
    assert_eq!(periods["usage"][0]["breakdown"]["total_characters"], 820, "1 + 2 + ... + 40");

    // The first page's cursor belongs to its report: not to a range ending on the day it names, nor
    // to another aggregation of the same range.
    let first = report(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics/custom-tags?{range}"));
    let cursor = &first["custom_tag_usage_report"]["next_page"];
    let other_range = refused(
        &app,
        BOOTSTRAP_ADMIN_KEY,
        &format!(
            "/v2/admin/analytics/custom-tags?start_date=2026-03-01&end_date=2026-03-20&aggregate_by=day&page={cursor}"
        ),
    );
    assert!(other_range.starts_with("Value for 'page' not supported"), "{other_range}");
    assert!(other_range.contains("not a next_page of this report"), "{other_range}");
    let wrong_aggregation = refused(
        &app,
        BOOTSTRAP_ADMIN_KEY,
        &format!("/v2/admin/analytics/custom-tags?start_date=2026-03-01&end_date=2026-04-09&page={cursor}"),
    );
    assert!(wrong_aggregation.contains("not a next_page of this report"), "{wrong_aggregation}");
}

#[test]
fn every_wrong_parameter_is_a_400_that_names_it() {
    let app = TestApp::start(Options::app());
    let (key, _) = developer_key(&app, BOOTSTRAP_ADMIN_KEY, "errors");
    translate(&app, &key, "abc", Some("tag"), "2026-05-04T10:00:00Z");
    for endpoint in ["/v2/admin/analytics", "/v2/admin/analytics/custom-tags"] {
        let message = |query: &str| refused(&app, BOOTSTRAP_ADMIN_KEY, &format!("{endpoint}?{query}"));
        assert_eq!(message("end_date=2026-05-01"), "Parameter 'start_date' not specified");
        assert_eq!(message("start_date=2026-05-01"), "Parameter 'end_date' not specified");
        assert_eq!(message("start_date=&end_date=2026-05-01"), "Parameter 'start_date' not specified");
        for wrong in ["2026-5-1", "2026-02-30", "yesterday", "2026-05-01T24:00:00", "1714000000"] {
            let text = message(&format!("start_date={wrong}&end_date=2026-05-31"));
            assert!(text.starts_with("Value for 'start_date' not supported"), "{wrong}: {text}");
            let text = message(&format!("start_date=2026-05-01&end_date={wrong}"));
            assert!(text.starts_with("Value for 'end_date' not supported"), "{wrong}: {text}");
        }
        let reversed = message("start_date=2026-05-31&end_date=2026-05-01");
        assert!(
            reversed.starts_with("Value for 'end_date' not supported") && reversed.contains("start_date"),
            "{reversed}"
        );
        // end_date is included: 2025-01-01 to 2026-01-01 covers 366 days, to 2026-01-02 367.
        for too_long in [
            "start_date=2025-01-01&end_date=2026-01-02",
            "start_date=2025-01-01T23:00:00&end_date=2026-01-02T00:00:00Z",
            "start_date=2025-01-01&end_date=2026-01-03",
        ] {
            assert_eq!(message(too_long), "Bad request. Reason: Date range cannot exceed 366 days", "{too_long}");
        }
        report(&app, BOOTSTRAP_ADMIN_KEY, &format!("{endpoint}?start_date=2025-01-01&end_date=2026-01-01"));
        report(
            &app,
            BOOTSTRAP_ADMIN_KEY,
            &format!("{endpoint}?start_date=2025-01-01T00:00:00Z&end_date=2026-01-01T23:59:59Z"),
        );
        report(&app, BOOTSTRAP_ADMIN_KEY, &format!("{endpoint}?start_date=2024-01-01&end_date=2024-12-31"));
        report(&app, BOOTSTRAP_ADMIN_KEY, &format!("{endpoint}?start_date=2026-05-04&end_date=2026-05-04"));
    }

    let analytics = |query: &str| refused(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics?{query}"));
    assert_eq!(
        analytics("start_date=2026-05-01&end_date=2026-05-31&group_by=day"),
        "Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'."
    );
    let tags = |query: &str| refused(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics/custom-tags?{query}"));
    assert_eq!(
        tags("start_date=2026-05-01&end_date=2026-05-31&aggregate_by=week"),
        "Value for 'aggregate_by' not supported. Allowed: '', 'period', 'day'."
    );
    for wrong in ["-1", "abc", "1.5", "%2B1"] {
        let text = tags(&format!("start_date=2026-05-01&end_date=2026-05-31&page={wrong}"));
        assert!(
            text.starts_with("Value for 'page' not supported") && text.contains("non-negative integer"),
            "{wrong}: {text}"
        );
    }
    for unknown in ["12345", "83886080", "999999999999999"] {
        let text = tags(&format!("start_date=2026-05-01&end_date=2026-05-31&page={unknown}"));
        assert!(text.contains("not a next_page of this report"), "{unknown}: {text}");
    }
    let first = report(
        &app,
        BOOTSTRAP_ADMIN_KEY,
        "/v2/admin/analytics/custom-tags?start_date=2026-05-01&end_date=2026-05-31&page=0",
    );
    assert_eq!(first["custom_tag_usage_report"]["usage"][0]["custom_tag"], "tag", "page 0 is the first page");
}

#[test]
fn only_admin_keys_may_read_analytics_and_only_with_get() {
    let app = TestApp::start(Options::app());
    let (key, _) = developer_key(&app, BOOTSTRAP_ADMIN_KEY, "developer");
    let query = "start_date=2026-05-01&end_date=2026-05-31";
    for endpoint in ["/v2/admin/analytics", "/v2/admin/analytics/custom-tags"] {
        let reply = app.call("GET", &format!("{endpoint}?{query}"), &key);
        assert_eq!(reply.status, 403, "{}", reply.text());
        assert!(reply.json()["message"].as_str().unwrap().contains("admin key"), "{}", reply.text());
        let reply = app.call("POST", &format!("{endpoint}?{query}"), BOOTSTRAP_ADMIN_KEY);
        assert_eq!(reply.status, 405);
        assert_eq!(reply.header("allow"), Some("GET"));
        assert_eq!(app.get(&format!("{endpoint}?{query}")).status, 403, "no key");
    }
    report(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics/?{query}"));
    let unknown = app.call("GET", "/v2/admin/analytics/keys", BOOTSTRAP_ADMIN_KEY);
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.json()["message"], "Not found.");
    assert_eq!(
        app.call("GET", "/v2/admin/developer-keys", BOOTSTRAP_ADMIN_KEY).status,
        200,
        "the admin component keeps its paths"
    );
}

#[test]
fn subscriptions_never_see_each_others_keys_tags_or_usage() {
    let app = TestApp::start(Options::app());
    let (ours, our_id) = developer_key(&app, BOOTSTRAP_ADMIN_KEY, "Ours");
    let (_, their_admin) = app.create_subscription("free");
    let (theirs, their_id) = developer_key(&app, &their_admin, "Theirs");
    for day in 1..=101 {
        translate(&app, &ours, "ours", Some("shared"), &format!("{}T08:00:00Z", day_of_2026(day)));
    }
    translate(&app, &theirs, "theirs!", Some("shared"), "2026-01-05T09:00:00Z");
    translate(&app, &theirs, "x", Some("only-theirs"), "2026-01-05T09:00:00Z");
    translate(&app, &theirs, "untagged", None, "2026-01-06T09:00:00Z");

    let range = "start_date=2026-01-01&end_date=2026-04-30";
    let their_keys = report(&app, &their_admin, &format!("/v2/admin/analytics?{range}&group_by=key"));
    assert_eq!(
        their_keys["usage_report"]["key_usages"],
        json!([{"api_key": masked(&their_id), "api_key_label": "Theirs",
                "usage": {"total_characters": 16, "text_translation_characters": 16, "document_translation_characters": 0,
                          "text_improvement_characters": 0, "speech_to_text_minutes": 0.0}}]),
        "a Free subscription's admin reads its own analytics"
    );
    let our_keys = report(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics?{range}&group_by=key_and_day"));
    let entries = our_keys["usage_report"]["key_and_day_usages"].as_array().unwrap();
    assert_eq!(entries.len(), 101);
    assert!(entries.iter().all(|entry| entry["api_key"] == masked(&our_id).as_str()));
    assert_eq!(our_keys["usage_report"]["total_usage"]["total_characters"], 404);

    let their_tags = report(&app, &their_admin, &format!("/v2/admin/analytics/custom-tags?{range}"));
    assert_eq!(
        their_tags["custom_tag_usage_report"]["usage"],
        json!([{"custom_tag": "only-theirs", "breakdown": breakdown(1, 1)}, {"custom_tag": "shared", "breakdown": breakdown(7, 7)}])
    );
    let our_tags = report(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics/custom-tags?{range}"));
    assert_eq!(
        our_tags["custom_tag_usage_report"]["usage"],
        json!([{"custom_tag": "shared", "breakdown": breakdown(404, 404)}])
    );

    // Our cursor names our tag: the other subscription cannot page with it.
    let ours_daily =
        report(&app, BOOTSTRAP_ADMIN_KEY, &format!("/v2/admin/analytics/custom-tags?{range}&aggregate_by=day"));
    let cursor = &ours_daily["custom_tag_usage_report"]["next_page"];
    assert!(cursor.is_u64(), "101 days make two pages: {cursor}");
    let message =
        refused(&app, &their_admin, &format!("/v2/admin/analytics/custom-tags?{range}&aggregate_by=day&page={cursor}"));
    assert!(message.contains("not a next_page of this report"), "{message}");
    let second = report(
        &app,
        BOOTSTRAP_ADMIN_KEY,
        &format!("/v2/admin/analytics/custom-tags?{range}&aggregate_by=day&page={cursor}"),
    );
    assert_eq!(second["custom_tag_usage_report"]["usage"].as_array().unwrap().len(), 1);
}

#[test]
fn the_audit_log_covers_at_most_366_days_too() {
    let app = TestApp::start(Options::app());
    let path = |range: &str| format!("/v2/admin/audit-log?{range}");
    report(&app, BOOTSTRAP_ADMIN_KEY, &path("start_date=2025-01-01&end_date=2026-01-01"));
    assert_eq!(
        refused(&app, BOOTSTRAP_ADMIN_KEY, &path("start_date=2025-01-01&end_date=2026-01-02")),
        "Bad request. Reason: Date range cannot exceed 366 days"
    );
}

/// Every `next_page` of a custom-tag report, following them from the first page.
fn cursors(app: &TestApp, admin: &str, query: &str) -> Vec<Json> {
    let mut cursors = Vec::new();
    let mut path = format!("/v2/admin/analytics/custom-tags?{query}");
    loop {
        let page = report(app, admin, &path)["custom_tag_usage_report"].clone();
        match page["next_page"].clone() {
            Json::Null => return cursors,
            next => {
                path = format!("/v2/admin/analytics/custom-tags?{query}&page={next}");
                cursors.push(next);
            }
        }
    }
}

#[test]
fn custom_tag_cursors_belong_to_their_subscription_and_cannot_be_made_up() {
    // Two subscriptions with the same 101 tags, recorded in turns: the same entries, other cursors.
    // (That a cursor tells nothing of other subscriptions' tags is shown beside the code: the
    // cursors of one subscription are the same whether or not another one has tags.)
    let app = TestApp::start(Options::app());
    let (_, first_admin) = app.create_subscription("pro");
    let (first, _) = developer_key(&app, &first_admin, "first");
    let (_, second_admin) = app.create_subscription("pro");
    let (second, _) = developer_key(&app, &second_admin, "second");
    for number in 0..101 {
        for key in [&first, &second] {
            translate(&app, key, "abc", Some(&format!("t{number:03}")), "2026-05-04T10:00:00Z");
        }
    }
    let query = "start_date=2026-05-01&end_date=2026-05-31";
    let (first_cursors, second_cursors) = (cursors(&app, &first_admin, query), cursors(&app, &second_admin, query));
    assert_eq!((first_cursors.len(), second_cursors.len()), (1, 1));
    assert_ne!(first_cursors, second_cursors, "each subscription's cursors are its own");

    let path = |page: &Json| format!("/v2/admin/analytics/custom-tags?{query}&page={page}");
    for (admin, page) in [(&second_admin, &first_cursors[0]), (&first_admin, &second_cursors[0])] {
        let message = refused(&app, admin, &path(page));
        assert!(message.contains("not a next_page of this report"), "{message}");
    }
    let cursor = first_cursors[0].as_u64().unwrap();
    for forged in [cursor ^ 1 << 30, cursor ^ 1 << 40, cursor + 1, 1, 512] {
        let message = refused(&app, &first_admin, &path(&json!(forged)));
        assert!(message.contains("not a next_page of this report"), "{forged}: {message}");
    }
    let last = report(&app, &first_admin, &path(&first_cursors[0]))["custom_tag_usage_report"].clone();
    assert_eq!(last["usage"], json!([{"custom_tag": "t100", "breakdown": breakdown(3, 3)}]));
}
