//! Subscriptions, keys and authentication across the components: the bootstrap key, the
//! `glossa admin` commands, `Authorization: Service-Auth-Key`, the legacy `auth_key`
//! parameter, admin versus developer keys, `/v2/usage`, and the developer-key admin endpoints.

use e2e::{BOOTSTRAP_ADMIN_KEY, Options, TestApp, json};

fn translate_body() -> String {
    json!({"text": ["Hello"], "source_lang": "EN", "target_lang": "DE"}).to_string()
}

#[test]
fn the_bootstrap_key_creates_a_pro_subscription_on_first_use() {
    let app = TestApp::start(Options::app());
    let usage = app.call("GET", "/v2/usage", BOOTSTRAP_ADMIN_KEY);
    assert_eq!(usage.status, 200, "{}", usage.text());
    let usage = usage.json();
    assert_eq!(usage["character_limit"], 1_000_000_000_000_i64);
    assert!(usage.get("products").is_some(), "a Pro subscription reports products: {usage}");
    assert!(app.admin_command(&["list-subscriptions"]).contains("plan pro"));
}

#[test]
fn without_a_bootstrap_key_nothing_is_created() {
    let app = TestApp::start(Options::app().env("SPIN_VARIABLE_BOOTSTRAP_ADMIN_KEY", ""));
    assert_eq!(app.call("GET", "/v2/usage", BOOTSTRAP_ADMIN_KEY).status, 403);
    assert!(app.admin_command(&["list-subscriptions"]).contains("No subscriptions yet"));
}

#[test]
fn the_admin_command_creates_subscriptions_and_keys() {
    let app = TestApp::start(Options::app());
    let (subscription, admin) = app.create_subscription("pro");
    assert!(admin.ends_with(":adm"));
    let created = app.admin_command(&["create-key", "--subscription", &subscription, "--label", "ci"]);
    let key = created.lines().find_map(|line| line.strip_prefix("Key (shown only now, keep it safe): ")).unwrap();
    let reply = app.post_json("/v2/translate", key, &serde_json::from_str(&translate_body()).unwrap());
    assert_eq!(reply.status, 200, "{}", reply.text());
    let keys = app.call("GET", "/v2/admin/developer-keys", &admin).json();
    assert_eq!(keys[0]["label"], "ci");
}

#[test]
fn missing_malformed_unknown_and_deactivated_keys_get_403() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let body = translate_body();
    let send = |authorization: Option<&str>| {
        let mut headers = vec![("content-type", "application/json")];
        if let Some(authorization) = authorization {
            headers.push(("authorization", authorization));
        }
        app.request("POST", "/v2/translate", &headers, Some(body.as_bytes()))
    };
    for (authorization, expected) in [
        (None, "no key given"),
        (Some("Bearer abc"), "must be `Service-Auth-Key <key>`"),
        (Some("Service-Auth-Key 00000000-0000-0000-0000-000000000000"), "not valid"),
    ] {
        let reply = send(authorization);
        assert_eq!(reply.status, 403, "{authorization:?}");
        assert!(reply.json()["message"].as_str().unwrap().contains(expected), "{}", reply.text());
    }
    assert_eq!(send(Some(&format!("service-auth-key {key}"))).status, 200, "the scheme is case-insensitive");

    let key_id = app.call("GET", "/v2/admin/developer-keys", BOOTSTRAP_ADMIN_KEY).json()[0]["key_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let deactivated = app.request(
        "PUT",
        "/v2/admin/developer-keys/deactivate",
        &admin_headers(),
        Some(json!({"key_id": key_id}).to_string().as_bytes()),
    );
    assert_eq!(deactivated.status, 200, "{}", deactivated.text());
    assert_eq!(deactivated.json()["is_deactivated"], true);
    let reply = send(Some(&format!("Service-Auth-Key {key}")));
    assert_eq!(reply.status, 403);
    assert!(reply.json()["message"].as_str().unwrap().contains("deactivated"));
}

fn admin_headers() -> Vec<(&'static str, &'static str)> {
    let authorization: &'static str = Box::leak(format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}").into_boxed_str());
    vec![("authorization", authorization), ("content-type", "application/json")]
}

#[test]
fn admin_and_developer_keys_each_get_403_on_the_others_endpoints() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let admin_translates =
        app.post_json("/v2/translate", BOOTSTRAP_ADMIN_KEY, &serde_json::from_str(&translate_body()).unwrap());
    assert_eq!(admin_translates.status, 403);
    assert!(admin_translates.json()["message"].as_str().unwrap().contains("developer key"));
    assert_eq!(app.call("GET", "/v2/languages", BOOTSTRAP_ADMIN_KEY).status, 403);
    let developer_administers = app.call("GET", "/v2/admin/developer-keys", &key);
    assert_eq!(developer_administers.status, 403);
    assert!(developer_administers.json()["message"].as_str().unwrap().contains("admin key"));
    assert_eq!(app.call("GET", "/v2/usage", &key).status, 200, "/v2/usage takes either kind");
    assert_eq!(app.call("GET", "/v2/usage", BOOTSTRAP_ADMIN_KEY).status, 200);
}

#[test]
fn the_legacy_auth_key_parameter_is_refused_to_free_and_to_pro_during_brownouts() {
    let app = TestApp::start(Options::app());
    let pro_key = app.developer_key();
    let (_, free_admin) = app.create_subscription("free");
    let free_key = app.create_developer_key(&free_admin, None)["key"].as_str().unwrap().to_owned();
    let form = |key: &str| format!("auth_key={key}&text=Hello&source_lang=EN&target_lang=DE");
    let send = |key: &str| {
        app.request(
            "POST",
            "/v2/translate",
            &[("content-type", "application/x-www-form-urlencoded")],
            Some(form(key).as_bytes()),
        )
    };
    assert_eq!(send(&pro_key).status, 200);
    let free = send(&free_key);
    assert_eq!(free.status, 403);
    assert!(free.json()["message"].as_str().unwrap().contains("Free"));
    let query = app.request("GET", &format!("/v2/usage?auth_key={pro_key}"), &[], None);
    assert_eq!(query.status, 200, "auth_key in the query string works too");

    let brownout = TestApp::start(Options::app().env("SPIN_VARIABLE_LEGACY_AUTH_BROWNOUT", "always"));
    let key = brownout.developer_key();
    let refused = brownout.request(
        "POST",
        "/v2/translate",
        &[("content-type", "application/x-www-form-urlencoded")],
        Some(form(&key).as_bytes()),
    );
    assert_eq!(refused.status, 403);
    assert!(refused.json()["message"].as_str().unwrap().contains("brownout"));
    assert_eq!(
        brownout.post_json("/v2/translate", &key, &serde_json::from_str(&translate_body()).unwrap()).status,
        200
    );
}

#[test]
fn usage_reports_each_key_and_the_whole_account() {
    let app = TestApp::start(Options::app());
    let first = app.developer_key();
    let second = app.developer_key();
    let translate = |key: &str, text: &str| {
        let reply =
            app.post_json("/v2/translate", key, &json!({"text": [text], "source_lang": "EN", "target_lang": "DE"}));
        assert_eq!(reply.status, 200);
    };
    translate(&first, "Hello");
    translate(&second, "Good morning");
    let report = app.call("GET", "/v2/usage", &first).json();
    assert_eq!(report["character_count"], 17);
    assert_eq!(report["api_key_character_count"], 5);
    assert_eq!(
        report["products"][0],
        json!({"product_type": "translate", "billing_unit": "characters", "api_key_unit_count": 5, "account_unit_count": 17, "api_key_character_count": 5, "character_count": 17})
    );
    assert_eq!(report["speech_to_text_milliseconds_count"], 0);
    for field in ["start_time", "end_time"] {
        assert!(report[field].as_str().unwrap().ends_with('Z'), "{report}");
    }
    assert_eq!(app.call("POST", "/v2/usage", &first).json()["character_count"], 17, "POST works like GET");
}

#[test]
fn developer_keys_are_created_listed_relabelled_limited_and_invisible_to_others() {
    let app = TestApp::start(Options::app());
    let created = app.create_developer_key(BOOTSTRAP_ADMIN_KEY, Some("Staging"));
    let key_id = created["key_id"].as_str().unwrap().to_owned();
    assert_eq!(created["label"], "Staging");
    assert_eq!(created["is_deactivated"], false);
    assert_eq!(created["usage_limits"], json!({"characters": null, "speech_to_text_milliseconds": null}));
    assert!(created["key"].as_str().is_some());
    let (first, second) = key_id.split_once(':').unwrap();
    assert_eq!((first.len(), second.len()), (36, 36));

    let unlabelled = app.create_developer_key(BOOTSTRAP_ADMIN_KEY, None);
    assert_eq!(unlabelled["label"], "Service API Key");
    let listed = app.call("GET", "/v2/admin/developer-keys", BOOTSTRAP_ADMIN_KEY).json();
    assert_eq!(listed.as_array().unwrap().len(), 2);
    assert!(listed[0].get("key").is_none(), "the secret is shown only at creation");

    let put = |path: &str, body: serde_json::Value| {
        app.request("PUT", path, &admin_headers(), Some(body.to_string().as_bytes()))
    };
    let relabelled = put("/v2/admin/developer-keys/label", json!({"key_id": key_id, "label": "Production"}));
    assert_eq!(relabelled.json()["label"], "Production");
    let limited = put(
        "/v2/admin/developer-keys/limits",
        json!({"key_id": key_id, "characters": 0, "speech_to_text_milliseconds": 60000}),
    );
    assert_eq!(limited.json()["usage_limits"], json!({"characters": 0, "speech_to_text_milliseconds": 60000}));
    let blocked = app.post_json(
        "/v2/translate",
        created["key"].as_str().unwrap(),
        &serde_json::from_str(&translate_body()).unwrap(),
    );
    assert_eq!(blocked.status, 456, "a limit of 0 blocks the key");
    let cleared = put("/v2/admin/developer-keys/limits", json!({"key_id": key_id, "characters": null}));
    assert_eq!(cleared.json()["usage_limits"], json!({"characters": null, "speech_to_text_milliseconds": 60000}));

    for (path, body, status) in [
        ("/v2/admin/developer-keys/label", json!({"key_id": key_id}), 400),
        ("/v2/admin/developer-keys/label", json!({"key_id": key_id, "label": ""}), 400),
        ("/v2/admin/developer-keys/limits", json!({"key_id": key_id, "characters": -5}), 400),
        ("/v2/admin/developer-keys/deactivate", json!({}), 400),
        ("/v2/admin/developer-keys/deactivate", json!({"key_id": "nope:nope"}), 404),
    ] {
        let reply = put(path, body.clone());
        assert_eq!(reply.status, status, "{path} {body}: {}", reply.text());
        assert!(reply.json()["message"].is_string());
    }

    let (_, other_admin) = app.create_subscription("pro");
    let foreign = app.request(
        "PUT",
        "/v2/admin/developer-keys/deactivate",
        &[("authorization", &format!("Service-Auth-Key {other_admin}")), ("content-type", "application/json")],
        Some(json!({"key_id": key_id}).to_string().as_bytes()),
    );
    assert_eq!(foreign.status, 404, "another subscription's key is invisible");
    assert_eq!(app.call("GET", "/v2/admin/developer-keys", &other_admin).json(), json!([]));
    assert_eq!(app.call("GET", "/v2/admin/nothing", BOOTSTRAP_ADMIN_KEY).status, 404);
}
