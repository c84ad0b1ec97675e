//! Component `health` in the real application: `GET /health` proves that variables, the engine
//! settings, the database and the key-value store work, and its counters survive restarts. An
//! engine setting that cannot work fails its check, and every request that needs the engine
//! answers a 503 that names it.

use e2e::{Options, TestApp};

fn is_trace_id(value: &str) -> bool {
    value.len() == 32 && value.bytes().all(|b| b.is_ascii_hexdigit())
}

#[test]
fn health_reports_ok_and_records_each_check() {
    let app = TestApp::start(Options::app());
    let first = app.get("/health");
    assert_eq!(first.status, 200, "{}", first.text());
    assert_eq!(first.header("content-type"), Some("application/json"));
    assert_eq!(first.header("cache-control"), Some("no-store"));
    assert!(first.header("x-trace-id").is_some_and(is_trace_id), "{:?}", first.headers);
    let first = first.json();
    assert_eq!(first["status"], "ok");
    assert_eq!(first["deployment"], "local");
    assert_eq!(first["checks"]["engine"], e2e::json!({"status": "ok", "engine": "deterministic"}));
    assert_eq!(first["checks"]["database"]["status"], "ok");
    assert_eq!(first["checks"]["database"]["checks_recorded"], 1);
    assert_eq!(first["checks"]["key_value"]["status"], "ok");
    assert!(first["checks"]["key_value"].get("previous_check_at").is_none(), "{first}");
    // The deterministic engine needs no inference service.
    assert_eq!(first["checks"]["inference"], e2e::json!({"status": "ok", "configured": false, "pairs": []}));

    let second = app.get("/health").json();
    assert_eq!(second["checks"]["database"]["checks_recorded"], 2);
    assert_eq!(second["checks"]["key_value"]["previous_check_at"], first["checked_at"]);
}

#[test]
fn the_deployment_name_comes_from_the_environment() {
    let app = TestApp::start(Options::app().env("SPIN_VARIABLE_DEPLOYMENT_NAME", "eu-test"));
    assert_eq!(app.get("/health").json()["deployment"], "eu-test");
}

#[test]
fn the_records_survive_a_restart() {
    let mut first = TestApp::start(Options::app());
    let before = first.get("/health").json();
    assert!(first.stop().success());
    let second = TestApp::start_in(Options::app(), first.state_dir());
    let after = second.get("/health").json();
    assert_eq!(after["checks"]["database"]["checks_recorded"], 2);
    assert_eq!(after["checks"]["key_value"]["previous_check_at"], before["checked_at"]);
}

#[test]
fn head_answers_without_a_body_and_other_methods_are_not_allowed() {
    let app = TestApp::start(Options::app());
    let head = app.request("HEAD", "/health", &[], None);
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    let post = app.request("POST", "/health", &[], Some(b"{}"));
    assert_eq!(post.status, 405);
    assert_eq!(post.header("allow"), Some("GET, HEAD"));
    assert_eq!(post.json(), e2e::json!({"message": "Method not allowed."}));
}

/// Asserts that `reply` is the 503 of an engine setting that cannot work, naming `variable` and
/// saying `problem`.
fn assert_misconfigured(reply: &e2e::Reply, variable: &str, problem: &str) {
    assert_eq!(reply.status, 503, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let message = reply.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(message.starts_with("The translation engine is not configured correctly: "), "{message}");
    assert!(message.contains(&format!("variable `{variable}`")) && message.contains(problem), "{message}");
}

#[test]
fn an_unknown_engine_is_a_failed_check_and_a_503_naming_the_variable() {
    let app = TestApp::start(Options::app().env("SPIN_VARIABLE_ENGINE", "google"));
    let health = app.get("/health");
    assert_eq!(health.status, 503, "{}", health.text());
    let report = health.json();
    assert_eq!(report["status"], "unavailable");
    assert_eq!(
        report["checks"]["engine"],
        e2e::json!({
            "status": "error",
            "variable": "engine",
            "message": "variable `engine`: unknown engine \"google\"; expected a comma-separated list of ctranslate2, apertium, openai, deterministic",
        })
    );
    assert_eq!(report["checks"]["database"]["status"], "ok");
    assert_eq!(report["checks"]["key_value"]["status"], "ok");

    // Every request that needs the engine says what is wrong; the cause is in the log.
    let key = app.developer_key();
    let body = e2e::json!({"text": ["Hello"], "target_lang": "DE"});
    let problem = "unknown engine \"google\"";
    assert_misconfigured(&app.post_json("/v2/translate", &key, &body), "engine", problem);
    assert_misconfigured(&app.call("GET", "/v3/languages?resource=translate_text", &key), "engine", problem);
    assert_misconfigured(&app.call("GET", "/v2/languages?type=target", &key), "engine", problem);
    let line = app.wait_for_log("configuration: variable `engine`").expect("the cause is logged");
    assert!(line.contains("google"), "{line}");
    // Nothing was billed.
    assert_eq!(app.call("GET", "/v2/usage", &key).json()["character_count"], 0);
}

#[test]
fn a_malformed_engine_variable_is_named_and_the_secret_never_shown() {
    let app = TestApp::start(
        Options::app()
            .env("SPIN_VARIABLE_ENGINE", "apertium")
            .env("SPIN_VARIABLE_ENGINE_TIMEOUT_MS", "soon")
            .env("SPIN_VARIABLE_OPENAI_API_KEY", "sk-never-shown"),
    );
    let health = app.get("/health");
    assert_eq!(health.status, 503, "{}", health.text());
    let check = &health.json()["checks"]["engine"];
    assert_eq!((check["status"].as_str(), check["variable"].as_str()), (Some("error"), Some("engine_timeout_ms")));
    assert!(!health.text().contains("sk-never-shown"), "{}", health.text());
    let key = app.developer_key();
    let reply = app.post_json("/v2/translate", &key, &e2e::json!({"text": ["Hello"], "target_lang": "ES"}));
    assert_misconfigured(&reply, "engine_timeout_ms", "not a positive number of milliseconds");
    assert!(!reply.text().contains("sk-never-shown"), "{}", reply.text());
}
