//! Component `health` in the real application: `GET /health` proves that variables, the
//! database and the key-value store work, and its counters survive restarts.

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
    assert_eq!(first["checks"]["database"]["status"], "ok");
    assert_eq!(first["checks"]["database"]["checks_recorded"], 1);
    assert_eq!(first["checks"]["key_value"]["status"], "ok");
    assert!(first["checks"]["key_value"].get("previous_check_at").is_none(), "{first}");

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
