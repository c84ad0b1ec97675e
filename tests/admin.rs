//! The admin API beyond developer keys: admin keys, per-key limits on the next request, the
//! active-key cap, cost control, and the audit log (Pro only), each within its subscription.

use std::path::Path;
use std::sync::Arc;

use e2e::{BOOTSTRAP_ADMIN_KEY, Json, Options, Reply, TestApp, json};

/// A request with `key` and a JSON body, optionally at a time the test names.
fn send(app: &TestApp, method: &str, path: &str, key: &str, body: &Json, at: Option<&str>) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    let mut headers = vec![("authorization", authorization.as_str()), ("content-type", "application/json")];
    if let Some(at) = at {
        headers.push(("x-service-test-time", at));
    }
    app.request(method, path, &headers, Some(body.to_string().as_bytes()))
}

fn put(app: &TestApp, path: &str, key: &str, body: Json) -> Reply {
    send(app, "PUT", path, key, &body, None)
}

fn translate(app: &TestApp, key: &str, text: &str) -> Reply {
    app.post_json("/v2/translate", key, &json!({"text": [text], "source_lang": "EN", "target_lang": "DE"}))
}

fn message(reply: &Reply) -> String {
    reply.json()["message"].as_str().unwrap_or_default().to_owned()
}

#[test]
fn admin_keys_are_created_listed_relabelled_and_deactivated_but_never_the_last() {
    let app = TestApp::start(Options::app());
    let created = app.post_json("/v2/admin/admin-keys", BOOTSTRAP_ADMIN_KEY, &json!({}));
    assert_eq!(created.status, 200, "{}", created.text());
    let created = created.json();
    assert_eq!(created["label"], "Service Admin Key");
    assert_eq!(created["usage_limits"], json!({"characters": null, "speech_to_text_milliseconds": null}));
    let second_admin = created["key"].as_str().unwrap().to_owned();
    let second_id = created["key_id"].as_str().unwrap().to_owned();
    assert!(second_admin.ends_with(":adm"));
    assert_eq!(app.call("GET", "/v2/admin/developer-keys", &second_admin).status, 200, "the new admin key works");

    let listed = app.call("GET", "/v2/admin/admin-keys", &second_admin).json();
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 2, "the bootstrap key and the new one: {listed:?}");
    assert!(listed.iter().all(|key| key.get("key").is_none()), "secrets are shown only at creation");
    let ids: Vec<&str> = listed.iter().map(|key| key["key_id"].as_str().unwrap()).collect();
    assert!(ids.contains(&second_id.as_str()), "{listed:?}");
    let bootstrap_id = ids.iter().find(|id| **id != second_id).unwrap().to_string();
    assert!(app.call("GET", "/v2/admin/developer-keys", BOOTSTRAP_ADMIN_KEY).json().as_array().unwrap().is_empty());

    let relabelled =
        put(&app, "/v2/admin/admin-keys/label", &second_admin, json!({"key_id": second_id, "label": "Ops"}));
    assert_eq!(relabelled.json()["label"], "Ops");

    // The bootstrap key deactivates itself: it stops working at once.
    let deactivated =
        put(&app, "/v2/admin/admin-keys/deactivate", BOOTSTRAP_ADMIN_KEY, json!({"key_id": bootstrap_id}));
    assert_eq!(deactivated.status, 200, "{}", deactivated.text());
    assert_eq!(deactivated.json()["is_deactivated"], true);
    assert!(deactivated.json()["deactivated_time"].as_str().unwrap().ends_with('Z'));
    assert_eq!(app.call("GET", "/v2/admin/admin-keys", BOOTSTRAP_ADMIN_KEY).status, 403);

    let last = put(&app, "/v2/admin/admin-keys/deactivate", &second_admin, json!({"key_id": second_id}));
    assert_eq!(last.status, 400, "{}", last.text());
    assert!(message(&last).contains("last active admin key"), "{}", last.text());
    assert_eq!(app.call("GET", "/v2/admin/admin-keys", &second_admin).status, 200, "the last admin key still works");

    // Kinds do not mix, admin keys have no usage limits, and developer keys cannot manage admin keys.
    let developer = app.create_developer_key(&second_admin, None);
    let developer_id = developer["key_id"].as_str().unwrap();
    let wrong_kind = put(&app, "/v2/admin/admin-keys/deactivate", &second_admin, json!({"key_id": developer_id}));
    assert_eq!(wrong_kind.status, 404);
    assert!(message(&wrong_kind).starts_with("Admin key "), "{}", wrong_kind.text());
    let wrong_kind =
        put(&app, "/v2/admin/developer-keys/label", &second_admin, json!({"key_id": second_id, "label": "x"}));
    assert_eq!(wrong_kind.status, 404);
    let limits = put(&app, "/v2/admin/admin-keys/limits", &second_admin, json!({"key_id": second_id, "characters": 1}));
    assert_eq!(limits.status, 404);
    let developer_secret = developer["key"].as_str().unwrap();
    assert_eq!(app.call("GET", "/v2/admin/admin-keys", developer_secret).status, 403);
    assert_eq!(app.post_json("/v2/admin/admin-keys", developer_secret, &json!({})).status, 403);
    for (path, body) in [
        ("/v2/admin/admin-keys/label", json!({"key_id": second_id})),
        ("/v2/admin/admin-keys/label", json!({"key_id": second_id, "label": "   "})),
        ("/v2/admin/admin-keys/deactivate", json!({})),
    ] {
        let reply = put(&app, path, &second_admin, body.clone());
        assert_eq!(reply.status, 400, "{path} {body}: {}", reply.text());
    }
    assert_eq!(app.call("DELETE", "/v2/admin/admin-keys", &second_admin).status, 405);

    // Another subscription sees none of these keys.
    let (_, other_admin) = app.create_subscription("pro");
    let listed = app.call("GET", "/v2/admin/admin-keys", &other_admin).json();
    assert_eq!(listed.as_array().unwrap().len(), 1, "only its own admin key: {listed}");
    let foreign = put(&app, "/v2/admin/admin-keys/label", &other_admin, json!({"key_id": second_id, "label": "mine"}));
    assert_eq!(foreign.status, 404);
}

#[test]
fn a_subscription_has_at_most_25_active_developer_keys() {
    let app = TestApp::start(Options::app());
    let ids: Vec<String> = (0..25)
        .map(|n| app.create_developer_key(BOOTSTRAP_ADMIN_KEY, Some(&format!("key {n}")))["key_id"].to_string())
        .collect();
    let refused = app.post_json("/v2/admin/developer-keys", BOOTSTRAP_ADMIN_KEY, &json!({}));
    assert_eq!(refused.status, 400);
    assert_eq!(message(&refused), "A subscription may have at most 25 active developer keys; deactivate one first.");
    let first: Json = serde_json::from_str(&ids[0]).unwrap();
    assert_eq!(
        put(&app, "/v2/admin/developer-keys/deactivate", BOOTSTRAP_ADMIN_KEY, json!({"key_id": first})).status,
        200
    );
    app.create_developer_key(BOOTSTRAP_ADMIN_KEY, None);
    assert_eq!(app.call("GET", "/v2/admin/developer-keys", BOOTSTRAP_ADMIN_KEY).json().as_array().unwrap().len(), 26);
}

#[test]
fn key_limits_and_deactivation_apply_to_the_next_request() {
    let app = TestApp::start(Options::app());
    let created = app.create_developer_key(BOOTSTRAP_ADMIN_KEY, None);
    let (key, key_id) = (created["key"].as_str().unwrap(), created["key_id"].as_str().unwrap());
    assert_eq!(translate(&app, key, "Hello").status, 200);
    let limits = json!({"key_id": key_id, "characters": 8});
    assert_eq!(put(&app, "/v2/admin/developer-keys/limits", BOOTSTRAP_ADMIN_KEY, limits).status, 200);
    assert_eq!(translate(&app, key, "Hello").status, 456, "5 + 5 characters pass a limit of 8");
    assert_eq!(translate(&app, key, "Hey").status, 200, "5 + 3 reach it exactly");
    let deactivate = json!({"key_id": key_id});
    assert_eq!(put(&app, "/v2/admin/developer-keys/deactivate", BOOTSTRAP_ADMIN_KEY, deactivate).status, 200);
    assert_eq!(translate(&app, key, "").status, 403);
}

#[test]
fn cost_control_limits_a_pro_subscription_and_shows_in_usage() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let get = |admin: &str| app.call("GET", "/v2/admin/cost-control", admin);
    assert_eq!(get(BOOTSTRAP_ADMIN_KEY).json(), json!({"characters": null}));
    assert_eq!(translate(&app, &key, "Hello").status, 200);

    let set = put(&app, "/v2/admin/cost-control", BOOTSTRAP_ADMIN_KEY, json!({"characters": 12}));
    assert_eq!(set.status, 200, "{}", set.text());
    assert_eq!(set.json(), json!({"characters": 12}));
    assert_eq!(get(BOOTSTRAP_ADMIN_KEY).json(), json!({"characters": 12}));
    let usage = app.call("GET", "/v2/usage", &key).json();
    assert_eq!((usage["character_count"].as_i64(), usage["character_limit"].as_i64()), (Some(5), Some(12)));
    let second_key = app.developer_key();
    assert_eq!(translate(&app, &second_key, "Hello, world").status, 456, "the limit holds across keys");
    assert_eq!(translate(&app, &second_key, "Goodbye").status, 200, "5 + 7 reach it exactly");
    assert_eq!(translate(&app, &key, "!").status, 456);

    let cleared = put(&app, "/v2/admin/cost-control", BOOTSTRAP_ADMIN_KEY, json!({"characters": null}));
    assert_eq!(cleared.json(), json!({"characters": null}));
    assert_eq!(app.call("GET", "/v2/usage", &key).json()["character_limit"], 1_000_000_000_000_i64);
    assert_eq!(translate(&app, &key, "Hello").status, 200);

    for body in [json!({}), json!({"characters": -1}), json!({"characters": "ten"})] {
        let reply = put(&app, "/v2/admin/cost-control", BOOTSTRAP_ADMIN_KEY, body.clone());
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        assert!(message(&reply).contains("'characters'"), "{}", reply.text());
    }
    assert_eq!(get(&key).status, 403, "developer keys cannot see it");

    let (_, free_admin) = app.create_subscription("free");
    let refused = get(&free_admin);
    assert_eq!(refused.status, 403);
    assert!(message(&refused).contains("Pro feature"), "{}", refused.text());
    assert_eq!(put(&app, "/v2/admin/cost-control", &free_admin, json!({"characters": 5})).status, 403);
}

#[test]
fn the_audit_log_records_every_change_with_its_admin_and_never_a_secret() {
    let app = TestApp::start(Options::app());
    let at = |day: &str| format!("{day}T10:00:00Z");
    let created = send(
        &app,
        "POST",
        "/v2/admin/admin-keys",
        BOOTSTRAP_ADMIN_KEY,
        &json!({"label": "Ops"}),
        Some(&at("2026-05-03")),
    );
    let ops = created.json();
    let (ops_key, ops_id) = (ops["key"].as_str().unwrap().to_owned(), ops["key_id"].as_str().unwrap().to_owned());
    let developer =
        send(&app, "POST", "/v2/admin/developer-keys", &ops_key, &json!({"label": "CI"}), Some(&at("2026-05-04")))
            .json();
    let developer_id = developer["key_id"].as_str().unwrap().to_owned();
    let change = |path: &str, body: Json, day: &str| {
        let reply = send(&app, "PUT", path, &ops_key, &body, Some(&at(day)));
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
    };
    change("/v2/admin/developer-keys/label", json!({"key_id": developer_id, "label": "Build"}), "2026-05-04");
    change("/v2/admin/developer-keys/label", json!({"key_id": developer_id, "label": "Build"}), "2026-05-04");
    change("/v2/admin/developer-keys/limits", json!({"key_id": developer_id, "characters": 100}), "2026-05-05");
    change("/v2/admin/cost-control", json!({"characters": 5000}), "2026-05-05");
    change("/v2/admin/developer-keys/deactivate", json!({"key_id": developer_id}), "2026-05-06");

    let log = |query: &str, key: &str| app.call("GET", &format!("/v2/admin/audit-log?{query}"), key);
    let reply = log("start_date=2026-05-01&end_date=2026-05-31", BOOTSTRAP_ADMIN_KEY);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let body = reply.text();
    assert!(!body.contains(&ops_key) && !body.contains(developer["key"].as_str().unwrap()), "no secret: {body}");
    let report = &reply.json()["audit_log"];
    assert_eq!(report["start_date"], "2026-05-01T00:00:00");
    assert_eq!(report["end_date"], "2026-05-31T00:00:00");
    assert_eq!(report["next_page"], Json::Null);
    let entries = report["entries"].as_array().unwrap();
    let summary: Vec<(&str, &str, &str)> = entries
        .iter()
        .map(|entry| {
            (entry["action"].as_str().unwrap(), entry["target_type"].as_str().unwrap(), entry["time"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("deactivate_key", "developer_key", "2026-05-06T10:00:00Z"),
            ("change_cost_control", "subscription", "2026-05-05T10:00:00Z"),
            ("change_key_limits", "developer_key", "2026-05-05T10:00:00Z"),
            ("relabel_key", "developer_key", "2026-05-04T10:00:00Z"),
            ("create_key", "developer_key", "2026-05-04T10:00:00Z"),
            ("create_key", "admin_key", "2026-05-03T10:00:00Z"),
            ("create_key", "admin_key", "2026-05-03T10:00:00Z"),
        ],
        "newest first; relabelling to the same label changes nothing"
    );
    assert!(entries[..5].iter().all(|entry| entry["admin_key_id"] == ops_id.as_str() && entry["actor"] == "admin_key"));
    assert_eq!(entries[5]["target_id"], ops_id.as_str());
    assert_eq!(entries[5]["actor"], "admin_key", "the bootstrap key created the Ops key");
    assert_ne!(entries[5]["admin_key_id"], ops_id.as_str());
    assert_eq!(entries[6]["target_id"], entries[5]["admin_key_id"], "first the bootstrap key itself was created");
    assert_eq!((&entries[6]["actor"], &entries[6]["admin_key_id"]), (&json!("operator"), &Json::Null));
    assert_eq!(entries[2]["old_value"], json!({"characters": null, "speech_to_text_milliseconds": null}));
    assert_eq!(entries[2]["new_value"], json!({"characters": 100, "speech_to_text_milliseconds": null}));
    assert_eq!(entries[3]["old_value"], json!({"label": "CI"}));
    assert_eq!(entries[3]["target_id"], developer_id.as_str());

    // Both dates are included; days outside the range are not.
    let narrow = log("start_date=2026-05-04&end_date=2026-05-05", BOOTSTRAP_ADMIN_KEY).json();
    assert_eq!(narrow["audit_log"]["entries"].as_array().unwrap().len(), 4);

    for (query, expected) in [
        ("end_date=2026-05-31", "'start_date'"),
        ("start_date=2026-05-01", "'end_date'"),
        ("start_date=2026-13-01&end_date=2026-05-31", "'start_date'"),
        ("start_date=2026-05-31&end_date=2026-05-01", "end_date"),
        ("start_date=2025-05-01&end_date=2026-05-03", "Date range cannot exceed 366 days"),
        ("start_date=2026-05-01&end_date=2026-05-31&page=-1", "'page'"),
        ("start_date=2026-05-01&end_date=2026-05-31&page=999999", "'page'"),
    ] {
        let reply = log(query, BOOTSTRAP_ADMIN_KEY);
        assert_eq!(reply.status, 400, "{query}: {}", reply.text());
        assert!(message(&reply).contains(expected), "{query}: {}", reply.text());
    }
    assert_eq!(log("start_date=2025-05-01&end_date=2026-05-01", BOOTSTRAP_ADMIN_KEY).status, 200, "366 days");
    assert_eq!(log("start_date=2025-05-01&end_date=2026-05-02", BOOTSTRAP_ADMIN_KEY).status, 400, "367 days");

    let developer_key = app.developer_key();
    assert_eq!(log("start_date=2026-05-01&end_date=2026-05-31", &developer_key).status, 403);
    let (_, other_admin) = app.create_subscription("pro");
    let theirs = log("start_date=2026-05-01&end_date=2026-05-31", &other_admin).json();
    assert_eq!(theirs["audit_log"]["entries"], json!([]), "another subscription sees none of it");
    let (_, free_admin) = app.create_subscription("free");
    let refused = log("start_date=2026-05-01&end_date=2026-05-31", &free_admin);
    assert_eq!(refused.status, 403);
    assert!(message(&refused).contains("Pro feature"), "{}", refused.text());
}

#[test]
fn the_audit_log_is_read_page_by_page() {
    let app = TestApp::start(Options::app());
    let at = Some("2026-06-01T09:00:00Z");
    let created = send(&app, "POST", "/v2/admin/developer-keys", BOOTSTRAP_ADMIN_KEY, &json!({}), at).json();
    let key_id = created["key_id"].as_str().unwrap().to_owned();
    let changes = 130;
    for n in 0..changes {
        let body = json!({"key_id": key_id, "label": format!("label {n}")});
        assert_eq!(send(&app, "PUT", "/v2/admin/developer-keys/label", BOOTSTRAP_ADMIN_KEY, &body, at).status, 200);
    }
    let read = |range: &str, page: &Json| {
        app.call("GET", &format!("/v2/admin/audit-log?{range}&page={page}"), BOOTSTRAP_ADMIN_KEY)
    };
    let june = "start_date=2026-06-01&end_date=2026-06-01";
    let mut labels = Vec::new();
    let mut page = Json::from(0);
    let mut pages = 0;
    loop {
        let report = read(june, &page).json()["audit_log"].clone();
        pages += 1;
        for entry in report["entries"].as_array().unwrap() {
            labels.push(entry["new_value"]["label"].as_str().unwrap().to_owned());
        }
        match &report["next_page"] {
            Json::Null => break,
            next => {
                let elsewhere = read("start_date=2026-07-01&end_date=2026-07-31", next);
                assert_eq!(elsewhere.status, 400, "a cursor belongs to its range: {}", elsewhere.text());
                page = next.clone();
            }
        }
    }
    assert_eq!(pages, 2, "100 entries a page");
    let mut expected: Vec<String> = (0..changes).rev().map(|n| format!("label {n}")).collect();
    // The key's creation, and before it the bootstrap admin key's, made by the same first request.
    expected.extend(["Service API Key".into(), "Service Admin Key".into()]);
    assert_eq!(labels, expected, "every entry once, newest first");
    let oldest = read(june, &page).json()["audit_log"]["entries"].as_array().unwrap().len();
    assert_eq!(oldest, changes + 2 - 100);
    let july = read("start_date=2026-07-01&end_date=2026-07-31", &Json::from(0));
    assert_eq!(
        july.json()["audit_log"],
        json!({"start_date": "2026-07-01T00:00:00", "end_date": "2026-07-31T00:00:00", "next_page": null, "entries": []})
    );
}

/// Copies the directory `from` (a stopped application's state) into `to`, with everything in it.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn an_audit_log_cursor_tells_nothing_of_other_subscriptions_and_works_for_its_own_only() {
    // One store, copied: in the copy another subscription writes over a page of entries before
    // the bootstrap subscription makes the same changes in both. Its cursors are the same in both.
    let at = Some("2026-08-03T09:00:00Z");
    let relabel = |app: &TestApp, admin: &str, key_id: &str, times: usize| {
        for n in 0..times {
            let body = json!({"key_id": key_id, "label": format!("label {n}")});
            assert_eq!(send(app, "PUT", "/v2/admin/developer-keys/label", admin, &body, at).status, 200);
        }
    };
    let create_key = |app: &TestApp, admin: &str| {
        let created = send(app, "POST", "/v2/admin/developer-keys", admin, &json!({}), at).json();
        created["key_id"].as_str().unwrap().to_owned()
    };
    let mut first = TestApp::start(Options::app());
    let key_id = create_key(&first, BOOTSTRAP_ADMIN_KEY);
    first.stop();
    let copy = Arc::new(tempfile::tempdir().unwrap());
    copy_dir(first.state_dir().path(), copy.path());
    let alone = TestApp::start_in(Options::app(), first.state_dir());
    let crowded = TestApp::start_in(Options::app(), copy);
    let (_, other_admin) = crowded.create_subscription("pro");
    let their_key_id = create_key(&crowded, &other_admin);
    relabel(&crowded, &other_admin, &their_key_id, 101);
    for app in [&alone, &crowded] {
        relabel(app, BOOTSTRAP_ADMIN_KEY, &key_id, 101);
    }

    let august = "start_date=2026-08-01&end_date=2026-08-31";
    let read = |app: &TestApp, admin: &str, page: &Json| {
        app.call("GET", &format!("/v2/admin/audit-log?{august}&page={page}"), admin)
    };
    let cursors = |app: &TestApp, admin: &str| {
        let mut cursors = Vec::new();
        let mut page = Json::from(0);
        loop {
            let reply = read(app, admin, &page);
            assert_eq!(reply.status, 200, "{}", reply.text());
            match &reply.json()["audit_log"]["next_page"] {
                Json::Null => return cursors,
                next => {
                    cursors.push(next.clone());
                    page = next.clone();
                }
            }
        }
    };
    let mine = cursors(&alone, BOOTSTRAP_ADMIN_KEY);
    assert_eq!(mine.len(), 1, "104 entries: two pages");
    assert!(mine[0].is_i64(), "next_page is an integer: {}", mine[0]);
    assert_eq!(cursors(&crowded, BOOTSTRAP_ADMIN_KEY), mine, "the other subscription's entries change nothing");

    // A cursor works for its own subscription's log only.
    let theirs = cursors(&crowded, &other_admin);
    assert_eq!(theirs.len(), 1, "{theirs:?}");
    for (admin, page) in [(BOOTSTRAP_ADMIN_KEY, &theirs[0]), (other_admin.as_str(), &mine[0])] {
        let foreign = read(&crowded, admin, page);
        assert_eq!(foreign.status, 400, "{}", foreign.text());
        assert!(message(&foreign).contains("'page'"), "{}", foreign.text());
    }
}

#[test]
fn a_deactivated_key_cannot_be_relabelled_or_limited_and_nothing_is_audited() {
    let app = TestApp::start(Options::app());
    let at = Some("2026-05-04T10:00:00Z");
    let admin = |method: &str, path: &str, body: Json| send(&app, method, path, BOOTSTRAP_ADMIN_KEY, &body, at);
    let developer = admin("POST", "/v2/admin/developer-keys", json!({"label": "CI"})).json();
    let ops = admin("POST", "/v2/admin/admin-keys", json!({"label": "CI"})).json();
    let keys = [
        ("developer-keys", "Developer key", developer["key_id"].as_str().unwrap().to_owned()),
        ("admin-keys", "Admin key", ops["key_id"].as_str().unwrap().to_owned()),
    ];
    for (kind, _, id) in &keys {
        let deactivated = admin("PUT", &format!("/v2/admin/{kind}/deactivate"), json!({"key_id": id}));
        assert_eq!(deactivated.status, 200, "{}", deactivated.text());
    }
    let audit =
        || app.call("GET", "/v2/admin/audit-log?start_date=2026-05-01&end_date=2026-05-31", BOOTSTRAP_ADMIN_KEY);
    let before = audit().json();
    // The bootstrap key's creation (at the first request), two keys created, two deactivated.
    assert_eq!(before["audit_log"]["entries"].as_array().unwrap().len(), 5, "{before}");

    for (kind, title, id) in &keys {
        // A new label and the label it already has are refused alike.
        for label in ["Renamed", "CI"] {
            let reply = admin("PUT", &format!("/v2/admin/{kind}/label"), json!({"key_id": id, "label": label}));
            assert_eq!(reply.status, 400, "{kind} {label}: {}", reply.text());
            assert_eq!(
                reply.json(),
                json!({"message": format!("{title} {id} is deactivated; a deactivated key cannot be changed.")})
            );
        }
    }
    let developer_id = &keys[0].2;
    let refused = admin("PUT", "/v2/admin/developer-keys/limits", json!({"key_id": developer_id, "characters": 10}));
    assert_eq!(refused.status, 400, "{}", refused.text());
    assert!(message(&refused).ends_with("is deactivated; a deactivated key cannot be changed."), "{}", refused.text());

    let listed = app.call("GET", "/v2/admin/developer-keys", BOOTSTRAP_ADMIN_KEY).json();
    let key = listed.as_array().unwrap().iter().find(|key| key["key_id"] == developer_id.as_str()).unwrap().clone();
    assert_eq!((&key["label"], &key["usage_limits"]["characters"]), (&json!("CI"), &Json::Null));
    assert_eq!(audit().json(), before, "a refused change writes nothing to the audit log");
}
