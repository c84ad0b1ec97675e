//! Per-key request rates: a request over its key's rate is a 429 with `Retry-After` that bills
//! and changes nothing; the key recovers once its next slot comes; other keys go on; every
//! authenticating component counts, and a glossary upload whose key is checked before its body
//! is read counts once; the admin API reads, changes (Pro only) and audits the limit; the
//! official Python client waits and retries through 429s.
//!
//! The requests name their time (`X-Service-Test-Time`, the app runs with the test clock), so
//! the limiter sees exactly the instants the test chooses.

use e2e::{BOOTSTRAP_ADMIN_KEY, Json, Options, Reply, TestApp, json};

const RATE_LIMIT: &str = "/v2/admin/rate-limit";

/// A request with `key`, at `at` when given, with a JSON body when given.
fn send(app: &TestApp, method: &str, path: &str, key: &str, body: Option<&Json>, at: Option<&str>) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    let mut headers = vec![("authorization", authorization.as_str())];
    if body.is_some() {
        headers.push(("content-type", "application/json"));
    }
    if let Some(at) = at {
        headers.push(("x-service-test-time", at));
    }
    let body = body.map(Json::to_string);
    app.request(method, path, &headers, body.as_deref().map(str::as_bytes))
}

fn translate(app: &TestApp, key: &str, text: &str, at: &str) -> Reply {
    let body = json!({"text": [text], "source_lang": "EN", "target_lang": "DE"});
    send(app, "POST", "/v2/translate", key, Some(&body), Some(at))
}

fn set_rate_limit(app: &TestApp, admin_key: &str, body: Json) -> Reply {
    send(app, "PUT", RATE_LIMIT, admin_key, Some(&body), None)
}

fn message(reply: &Reply) -> String {
    reply.json()["message"].as_str().unwrap_or_default().to_owned()
}

/// Checks that `reply` is the refusal of a key over its rate, and answers its message.
fn assert_too_many(reply: &Reply) -> String {
    assert_eq!(reply.status, 429, "{}", reply.text());
    assert_eq!(reply.header("retry-after"), Some("1"), "whole seconds, at least 1");
    assert!(reply.header("content-type").is_some_and(|value| value.starts_with("application/json")));
    let message = message(reply);
    assert!(message.starts_with("Too many requests: this key sent more than its limit"), "{message}");
    assert!(message.ends_with("Retry after 1 second."), "{message}");
    message
}

#[test]
fn a_key_over_its_rate_gets_429_bills_nothing_and_recovers_while_other_keys_go_on() {
    let app = TestApp::start(Options::app());
    let first = app.developer_key();
    let second = app.developer_key();
    let set = set_rate_limit(&app, BOOTSTRAP_ADMIN_KEY, json!({"requests_per_second": 2, "burst": 3}));
    assert_eq!(set.status, 200, "{}", set.text());
    assert_eq!(
        set.json(),
        json!({"requests_per_second": 2, "burst": 3, "defaults": {"requests_per_second": 100, "burst": 1000}})
    );

    // A burst of three at one instant, then one request every 500 ms.
    let at = "2027-03-01T12:00:00Z";
    for text in ["one", "two", "three"] {
        assert_eq!(translate(&app, &first, text, at).status, 200);
    }
    let refused = translate(&app, &first, "fourth", at);
    let text = assert_too_many(&refused);
    assert!(text.contains("2 requests per second (bursts of up to 3)"), "{text}");
    assert!(refused.header("x-trace-id").is_some());
    assert_eq!(translate(&app, &second, "other key", at).status, 200, "another key has its own rate");
    assert_too_many(&translate(&app, &first, "too early", "2027-03-01T12:00:00.400Z"));
    assert_eq!(translate(&app, &first, "again", "2027-03-01T12:00:00.500Z").status, 200);
    assert_too_many(&translate(&app, &first, "and again", "2027-03-01T12:00:00.500Z"));

    // Only the admitted translations were billed: "one", "two", "three", "again".
    let usage = send(&app, "GET", "/v2/usage", &first, None, Some("2027-03-01T13:00:00Z"));
    assert_eq!(usage.status, 200, "{}", usage.text());
    assert_eq!(usage.json()["api_key_character_count"], 3 + 3 + 5 + 5);

    // Every component that authenticates counts the key's requests, and refuses over the rate.
    let later = Some("2027-03-01T14:00:00Z");
    for path in ["/v2/usage", "/v3/languages?resource=translate_text", "/v2/glossaries"] {
        assert_eq!(send(&app, "GET", path, &second, None, later).status, 200, "{path}");
    }
    for path in ["/v2/usage", "/v3/languages?resource=translate_text", "/v2/glossaries", "/v2/translate"] {
        assert_too_many(&send(&app, "GET", path, &second, None, later));
    }
    // The admin key is one of the subscription's keys: the admin API and analytics count too.
    for _ in 0..3 {
        assert_eq!(send(&app, "GET", RATE_LIMIT, BOOTSTRAP_ADMIN_KEY, None, later).status, 200);
    }
    assert_too_many(&send(&app, "GET", RATE_LIMIT, BOOTSTRAP_ADMIN_KEY, None, later));
    let analytics = "/v2/admin/analytics?start_date=2027-03-01&end_date=2027-03-01";
    assert_too_many(&send(&app, "GET", analytics, BOOTSTRAP_ADMIN_KEY, None, later));
    // A refused change changes nothing.
    let refused_change = send(&app, "PUT", RATE_LIMIT, BOOTSTRAP_ADMIN_KEY, Some(&json!({"burst": 50})), later);
    assert_too_many(&refused_change);
    let unchanged = send(&app, "GET", RATE_LIMIT, BOOTSTRAP_ADMIN_KEY, None, Some("2027-03-01T15:00:00Z"));
    assert_eq!(unchanged.json()["burst"], 3);
}

#[test]
fn a_glossary_upload_larger_than_an_unauthenticated_body_counts_once_against_the_rate() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let set = set_rate_limit(&app, BOOTSTRAP_ADMIN_KEY, json!({"requests_per_second": 1, "burst": 2}));
    assert_eq!(set.status, 200, "{}", set.text());
    // 8,000 entries, about 160 KB: the key is checked before the body is read past 128 KiB.
    let entries: Vec<String> = (0..8_000).map(|index| format!("term{index}\tBegriff{index}")).collect();
    let upload = json!({
        "name": "Large", "source_lang": "EN", "target_lang": "DE", "entries": entries.join("\n"), "entries_format": "tsv"
    });
    assert!(upload.to_string().len() > 128 * 1024, "{} bytes", upload.to_string().len());

    // A burst of two at one instant: the upload, then one more request.
    let at = Some("2027-07-01T10:00:00Z");
    let created = send(&app, "POST", "/v2/glossaries", &key, Some(&upload), at);
    assert_eq!(created.status, 201, "{}", created.text());
    assert_eq!(created.json()["entry_count"], 8_000);
    let listing = send(&app, "GET", "/v2/glossaries", &key, None, at);
    assert_eq!(listing.status, 200, "the upload counted once: {}", listing.text());
    assert_too_many(&send(&app, "GET", "/v2/glossaries", &key, None, at));

    // With a burst of one, the upload alone is admitted.
    assert_eq!(set_rate_limit(&app, BOOTSTRAP_ADMIN_KEY, json!({"burst": 1})).status, 200);
    let later = Some("2027-07-01T11:00:00Z");
    let again = send(&app, "POST", "/v2/glossaries", &key, Some(&upload), later);
    assert_eq!(again.status, 201, "{}", again.text());
    assert_too_many(&send(&app, "GET", "/v2/glossaries", &key, None, later));
}

#[test]
fn the_default_limit_is_a_burst_of_1000_then_100_requests_per_second() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let at = "2027-04-01T08:00:00Z";
    for n in 0..1000 {
        let reply = send(&app, "GET", "/v2/usage", &key, None, Some(at));
        assert_eq!(reply.status, 200, "request {n}: {}", reply.text());
    }
    let text = assert_too_many(&send(&app, "GET", "/v2/usage", &key, None, Some(at)));
    assert!(text.contains("100 requests per second (bursts of up to 1000)"), "{text}");
    // 10 ms later, one more slot.
    let later = Some("2027-04-01T08:00:00.010Z");
    assert_eq!(send(&app, "GET", "/v2/usage", &key, None, later).status, 200);
    assert_too_many(&send(&app, "GET", "/v2/usage", &key, None, later));
}

#[test]
fn the_admin_api_reads_checks_changes_and_audits_the_rate_limit() {
    let app = TestApp::start(Options::app());
    let defaults = json!({"requests_per_second": 100, "burst": 1000});
    let read = app.call("GET", RATE_LIMIT, BOOTSTRAP_ADMIN_KEY);
    assert_eq!(read.status, 200, "{}", read.text());
    assert_eq!(read.json(), json!({"requests_per_second": 100, "burst": 1000, "defaults": defaults}));

    for (body, field) in [
        (json!({"requests_per_second": 0}), "requests_per_second"),
        (json!({"requests_per_second": -1}), "requests_per_second"),
        (json!({"requests_per_second": 1.5}), "requests_per_second"),
        (json!({"requests_per_second": 100_001}), "requests_per_second"),
        (json!({"requests_per_second": "fast"}), "requests_per_second"),
        (json!({"requests_per_second": 10, "burst": 0}), "burst"),
        (json!({"burst": 100_001}), "burst"),
        (json!({"burst": [5]}), "burst"),
    ] {
        let reply = set_rate_limit(&app, BOOTSTRAP_ADMIN_KEY, body.clone());
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        assert!(message(&reply).starts_with(&format!("Value for '{field}' not supported")), "{}", reply.text());
    }
    let nothing = set_rate_limit(&app, BOOTSTRAP_ADMIN_KEY, json!({}));
    assert_eq!(
        (nothing.status, message(&nothing)),
        (400, "Parameter 'requests_per_second' or 'burst' not specified".into())
    );
    assert_eq!(app.call("GET", RATE_LIMIT, BOOTSTRAP_ADMIN_KEY).json()["burst"], 1000, "nothing was changed");

    let developer = app.developer_key();
    assert_eq!(app.call("GET", RATE_LIMIT, &developer).status, 403, "admin keys only");
    assert_eq!(app.call("POST", RATE_LIMIT, BOOTSTRAP_ADMIN_KEY).status, 405);

    let change = |body: Json, day: &str| {
        let at = format!("{day}T10:00:00Z");
        let reply = send(&app, "PUT", RATE_LIMIT, BOOTSTRAP_ADMIN_KEY, Some(&body), Some(&at));
        assert_eq!(reply.status, 200, "{body}: {}", reply.text());
        reply.json()
    };
    assert_eq!(change(json!({"burst": 5}), "2027-05-02")["burst"], 5);
    let both = change(json!({"requests_per_second": "50", "burst": null}), "2027-05-03");
    assert_eq!(both, json!({"requests_per_second": 50, "burst": 1000, "defaults": defaults}));
    change(json!({"requests_per_second": 50}), "2027-05-04"); // the same: no audit entry
    let restored = change(json!({"requests_per_second": null}), "2027-05-05");
    assert_eq!(restored, json!({"requests_per_second": 100, "burst": 1000, "defaults": defaults}));

    let log = app.call("GET", "/v2/admin/audit-log?start_date=2027-05-01&end_date=2027-05-31", BOOTSTRAP_ADMIN_KEY);
    assert_eq!(log.status, 200, "{}", log.text());
    let entries: Vec<(Json, Json, Json, Json)> = log.json()["audit_log"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            (
                entry["action"].clone(),
                entry["target_type"].clone(),
                entry["old_value"].clone(),
                entry["new_value"].clone(),
            )
        })
        .collect();
    let settings = |rps: Json, burst: Json| json!({"requests_per_second": rps, "burst": burst});
    let entry = |old: Json, new: Json| (json!("change_rate_limit"), json!("subscription"), old, new);
    assert_eq!(
        entries,
        [
            entry(settings(json!(50), Json::Null), settings(Json::Null, Json::Null)),
            entry(settings(Json::Null, json!(5)), settings(json!(50), Json::Null)),
            entry(settings(Json::Null, Json::Null), settings(Json::Null, json!(5))),
        ],
        "newest first; the unchanged one left none"
    );

    // Free subscriptions read the default and cannot change it.
    let (_, free_admin) = app.create_subscription("free");
    let free = app.call("GET", RATE_LIMIT, &free_admin);
    assert_eq!(free.json(), json!({"requests_per_second": 100, "burst": 1000, "defaults": defaults}));
    let refused = set_rate_limit(&app, &free_admin, json!({"requests_per_second": 1000}));
    assert_eq!(refused.status, 403, "{}", refused.text());
    assert!(message(&refused).contains("Pro feature"), "{}", refused.text());
}

#[test]
fn a_changed_limit_applies_from_the_next_request_and_only_to_its_subscription() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let (_, other_admin) = app.create_subscription("pro");
    let other = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    let at = "2027-06-01T09:00:00Z";
    for _ in 0..3 {
        assert_eq!(translate(&app, &key, "Hello", at).status, 200);
    }
    assert_eq!(set_rate_limit(&app, BOOTSTRAP_ADMIN_KEY, json!({"requests_per_second": 1, "burst": 1})).status, 200);
    let at = "2027-06-01T09:00:01Z";
    assert_eq!(translate(&app, &key, "Hello", at).status, 200);
    assert_too_many(&translate(&app, &key, "Hello", at));
    for _ in 0..5 {
        assert_eq!(translate(&app, &other, "Hello", at).status, 200, "another subscription keeps the default");
    }
    // Raised again: the key's next request is admitted at once.
    assert_eq!(set_rate_limit(&app, BOOTSTRAP_ADMIN_KEY, json!({"burst": 10})).status, 200);
    for _ in 0..5 {
        assert_eq!(translate(&app, &key, "Hello", at).status, 200);
    }
}

#[test]
fn the_official_python_client_waits_through_429s_and_succeeds() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let set = set_rate_limit(&app, BOOTSTRAP_ADMIN_KEY, json!({"requests_per_second": 1, "burst": 1}));
    assert_eq!(set.status, 200, "{}", set.text());
    let report = app.python_client_report("rate_limited.py", &key);
    let texts = report["texts"].as_array().unwrap();
    assert_eq!(texts.len(), 4, "{report}");
    assert!(texts.iter().all(|text| !text.as_str().unwrap().is_empty()), "{report}");
    assert!(report["retries"].as_u64().unwrap() >= 1, "the client met a 429 and retried: {report}");
    // "One." "Two." "Three." "Four.": billed once each, however often retried.
    assert_eq!(report["usage"], 4 + 4 + 6 + 5, "{report}");
}
