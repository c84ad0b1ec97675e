//! The local runner, seen from outside: routing, the headers and host interfaces a component
//! gets, storage that survives restarts, failures that stay contained, and clear startup errors.
//! Most tests start `tests/fixtures/spin.toml`, whose `probe` component reports what it saw.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use e2e::{Json, Options, TestApp, json, under_spin};
use platform::native::Sharing;

fn probe() -> TestApp {
    TestApp::start(Options::probe())
}

#[test]
fn exact_routes_beat_wildcards_and_longer_prefixes_beat_shorter_ones() {
    let app = probe();
    let label = |path: &str| app.get(path).json()["label"].clone();
    assert_eq!(label("/probe/exact"), "exact");
    assert_eq!(label("/probe/exact/"), "exact");
    assert_eq!(label("/probe/other"), "wildcard");
    assert_eq!(label("/probe/exact/more"), "wildcard");
    assert_eq!(label("/probe/deeper"), "deeper");
    assert_eq!(label("/probe/deeper/and/deeper"), "deeper");
    assert_eq!(label("/probe"), "wildcard");
}

#[test]
fn components_get_the_spin_request_headers() {
    let app = probe();
    let seen = app.get("/probe/deeper/a/b?x=1").json();
    let port = app.base_url.rsplit(':').next().unwrap().to_owned();
    assert_eq!(seen["method"], "GET");
    assert_eq!(seen["uri"], format!("http://127.0.0.1:{port}/probe/deeper/a/b?x=1"));
    assert_eq!(seen["full_url"], format!("http://127.0.0.1:{port}/probe/deeper/a/b?x=1"));
    assert_eq!(seen["path_info"], "/a/b");
    assert_eq!(seen["matched_route"], "/probe/deeper/...");
    assert_eq!(seen["raw_component_route"], "/probe/deeper/...");
    assert_eq!(seen["component_route"], "/probe/deeper");
    assert_eq!(seen["base_path"], "/");
    assert!(seen["client_addr"].as_str().unwrap().starts_with("127.0.0.1:"), "{seen}");

    let item = app.get("/items/42").json();
    assert_eq!(item["label"], "param");
    assert_eq!(item["path_info"], "");
    assert_eq!(item["path_matches"], json!({"spin-path-match-item-id": "42"}));
}

#[test]
fn an_unknown_path_is_a_404_with_an_empty_body() {
    let app = probe();
    for path in ["/", "/nothing", "/items", "/items/42/more", "/probes"] {
        let reply = app.get(path);
        assert_eq!(reply.status, 404, "{path}");
        assert!(reply.body.is_empty(), "{path}: {}", reply.text());
    }
}

#[test]
fn the_host_answers_its_reserved_paths() {
    let app = probe();
    let health = app.get("/.well-known/spin/health");
    assert_eq!((health.status, health.text().as_str()), (200, "OK"));
    let info = app.get("/.well-known/spin/info");
    assert_eq!(info.status, 200);
    assert_eq!(info.json()["name"], "runner-probe");
    assert_eq!(app.get("/.well-known/spin/other").status, 404);
}

/// A one-shot HTTP server on a free port that counts the connections it accepted.
fn tiny_server(body: &'static str) -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&accepted);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            counter.fetch_add(1, Ordering::SeqCst);
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let response =
                format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len());
            let _ = stream.write_all(response.as_bytes());
        }
    });
    (port, accepted)
}

#[test]
fn outbound_requests_reach_allowed_hosts_and_are_refused_elsewhere() {
    let (allowed_port, allowed_hits) = tiny_server("from the allowed host");
    let (other_port, other_hits) = tiny_server("from another host");
    let app = TestApp::start(Options::probe().env("SPIN_VARIABLE_ALLOWED_PORT", &allowed_port.to_string()));

    let reached = app.get(&format!("/probe/outbound?url=http://127.0.0.1:{allowed_port}/hello")).json();
    assert_eq!(reached, json!({"status": 200, "body": "from the allowed host"}));
    assert_eq!(allowed_hits.load(Ordering::SeqCst), 1);

    let refused = app.get(&format!("/probe/outbound?url=http://127.0.0.1:{other_port}/hello")).json();
    assert_eq!(refused, json!({"error": "HttpRequestDenied"}));
    assert_eq!(other_hits.load(Ordering::SeqCst), 0, "a refused request must never leave the host");
    if !under_spin() {
        assert!(
            app.wait_for_log(&format!("outbound request to http://127.0.0.1:{other_port} refused")).is_some(),
            "{}",
            app.log()
        );
    }
}

#[test]
fn sqlite_and_key_value_data_survive_a_restart_on_the_same_state_dir() {
    let mut first = probe();
    assert_eq!(first.get("/probe/sqlite/put?key=colour&value=blue").json(), json!({"changes": 1}));
    assert_eq!(first.get("/probe/kv/put?key=shape&value=round").json(), json!({"stored": "shape"}));
    assert_eq!(first.get("/probe/kv/put?key=size&value=large").json(), json!({"stored": "size"}));
    assert_eq!(first.get("/probe/kv/delete?key=size").json(), json!({"deleted": "size"}));
    assert!(first.stop().success());

    let second = TestApp::start_in(Options::probe(), first.state_dir());
    assert_eq!(second.get("/probe/sqlite/get?key=colour").json(), json!({"value": "blue"}));
    assert_eq!(second.get("/probe/kv/get?key=shape").json(), json!({"value": "round"}));
    assert_eq!(second.get("/probe/kv/get?key=size").json(), json!({"value": null}));
    assert_eq!(second.get("/probe/kv/get?key=never-set").json(), json!({"value": null}));
}

/// Polls the probe's database until `key` holds a value (or 20 s pass).
fn eventually_stored(app: &TestApp, key: &str) -> Json {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let value = app.get(&format!("/probe/sqlite/get?key={key}")).json()["value"].clone();
        if !value.is_null() || std::time::Instant::now() > deadline {
            return value;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_component_goes_on_working_after_its_response_as_under_spin() {
    let app = probe();
    // The answer comes while the guest still waits to write: the write is not there yet.
    let reply = app.get("/probe/after?ms=3000&key=later&value=written");
    assert_eq!((reply.status, reply.json()), (200, json!({"scheduled": true})));
    assert_eq!(app.get("/probe/sqlite/get?key=later").json(), json!({"value": null}), "answered before the work");
    assert_eq!(eventually_stored(&app, "later"), json!("written"), "{}", app.log());
    assert!(app.wait_for_log("after the response: ").is_some(), "{}", app.log());

    // A failure after the response is the component's, and logged as such.
    let reply = app.get("/probe/after?ms=10&then=panic");
    assert_eq!(reply.status, 200);
    assert!(app.wait_for_log("failed after its response").is_some(), "{}", app.log());
    assert_eq!(app.get("/probe/echo").status, 200, "the runner serves on");
}

#[test]
#[cfg_attr(spin_host, ignore = "runner-only: how a host stops is its own")]
fn shutting_down_waits_for_work_after_a_response() {
    let mut first = probe();
    let reply = first.get("/probe/after?ms=1500&key=finished&value=before-stopping");
    assert_eq!(reply.status, 200);
    assert!(first.stop().success(), "{}", first.log());
    let second = TestApp::start_in(Options::probe(), first.state_dir());
    assert_eq!(
        second.get("/probe/sqlite/get?key=finished").json(),
        json!({"value": "before-stopping"}),
        "{}",
        first.log()
    );
}

#[test]
#[cfg_attr(spin_host, ignore = "runner-only: Spin leaves both files open to other processes")]
fn the_runner_keeps_its_key_value_file_to_itself_and_its_database_open_to_others() {
    let mut app = probe();
    assert_eq!(app.get("/probe/sqlite/put?key=colour&value=blue").json(), json!({"changes": 1}));
    assert_eq!(app.get("/probe/kv/put?key=shape&value=round").json(), json!({"stored": "shape"}));
    let state_dir = app.state_dir();
    // Another process, here this test, reading each file without waiting for locks.
    let read = |file: &str, sql: &str| {
        let connection = platform::native::open_file(&state_dir.path().join(file), Sharing::Processes).unwrap();
        connection.busy_timeout(Duration::ZERO).unwrap();
        connection.query_row(sql, [], |row| row.get::<_, String>(0)).map_err(|error| error.to_string())
    };
    let database = "sqlite_db.db";
    let key_value = "sqlite_key_value.db";
    assert_eq!(read(database, "SELECT value FROM probe WHERE key = 'colour'"), Ok("blue".to_owned()));
    let kept = read(key_value, "SELECT key FROM spin_key_value");
    assert!(kept.as_ref().is_err_and(|error| error.contains("locked")), "{kept:?}");
    assert!(app.stop().success());
    assert_eq!(
        read(key_value, "SELECT CAST(value AS TEXT) FROM spin_key_value WHERE key = 'shape'"),
        Ok("round".to_owned())
    );
}

#[test]
fn variables_take_their_default_and_the_environment_overrides_it() {
    let defaulted = probe();
    assert_eq!(defaulted.get("/probe/variable?name=greeting").json(), json!({"value": "hello, world"}));
    let undefined = defaulted.get("/probe/variable?name=nothing").json();
    assert!(undefined["error"].as_str().unwrap().starts_with("Undefined("), "{undefined}");
    let invalid = defaulted.get("/probe/variable?name=Not-Valid").json();
    assert!(invalid["error"].as_str().unwrap().starts_with("InvalidName("), "{invalid}");

    let overridden = TestApp::start(Options::probe().env("SPIN_VARIABLE_GREETING", "bonjour"));
    assert_eq!(overridden.get("/probe/variable?name=greeting").json(), json!({"value": "bonjour, world"}));
}

#[test]
fn a_trapping_component_answers_500_and_the_next_request_succeeds() {
    let mut app = probe();
    let trapped = app.get("/probe/panic");
    assert_eq!(trapped.status, 500);
    assert!(trapped.body.is_empty(), "{}", trapped.text());
    let next = app.get("/probe/echo");
    assert_eq!(next.status, 200);
    assert_eq!(next.json()["label"], "wildcard");
    assert!(app.is_running());
    if !under_spin() {
        assert!(app.wait_for_log("the probe was asked to panic").is_some(), "{}", app.log());
    }
}

#[test]
#[cfg_attr(spin_host, ignore = "runner-only: the request time budget is the local runner's (--request-timeout)")]
fn a_guest_that_runs_past_the_request_budget_is_stopped_with_a_504() {
    let mut app = TestApp::start(Options::probe().arg("--request-timeout").arg("1"));
    let stopped = app.get("/probe/busy?ms=5000");
    assert_eq!(stopped.status, 504, "{}", stopped.text());
    assert_eq!(stopped.header("content-type"), Some("application/json"));
    assert!(stopped.json()["message"].as_str().unwrap().contains("1 s"), "{}", stopped.text());
    assert!(stopped.header("x-trace-id").is_some());
    assert_eq!(app.get("/probe/busy?ms=10").status, 200, "a short computation finishes");
    assert!(app.is_running());
}

#[test]
#[cfg_attr(spin_host, ignore = "runner-only: the guest limit is the local runner's (--max-requests)")]
fn with_one_guest_back_to_back_requests_wait_or_get_503_never_500() {
    // A guest's slot in the instance pool is freed when its store is dropped, a moment after the
    // response head went out: the next request admitted must not find the pool still full.
    let app = Arc::new(TestApp::start(Options::probe().arg("--max-requests").arg("1")));
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let app = Arc::clone(&app);
            std::thread::spawn(move || (0..150).map(|_| app.get("/probe/trivial").status).collect::<Vec<u16>>())
        })
        .collect();
    let statuses: Vec<u16> = workers.into_iter().flat_map(|worker| worker.join().unwrap()).collect();
    assert!(statuses.iter().all(|status| matches!(status, 200 | 503)), "{statuses:?}\n{}", app.log());
    assert!(statuses.iter().filter(|&&status| status == 200).count() > 300, "{statuses:?}");
}

#[test]
fn fifty_concurrent_requests_are_all_answered() {
    let app = Arc::new(probe());
    // Every one writes, half to the database and half to the key-value store, so they queue at
    // the files' write gates; each write must land once, on its own key.
    let workers: Vec<_> = (0..50)
        .map(|index| {
            let app = Arc::clone(&app);
            let service = if index % 2 == 0 { "sqlite" } else { "kv" };
            std::thread::spawn(move || app.get(&format!("/probe/{service}/put?key=k{index}&value=v{index}")))
        })
        .collect();
    for (index, worker) in workers.into_iter().enumerate() {
        let reply = worker.join().unwrap();
        assert_eq!(reply.status, 200, "{}", reply.text());
        let expected = if index % 2 == 0 { json!({"changes": 1}) } else { json!({"stored": format!("k{index}")}) };
        assert_eq!(reply.json(), expected);
    }
    for index in 0..50 {
        let service = if index % 2 == 0 { "sqlite" } else { "kv" };
        let stored = app.get(&format!("/probe/{service}/get?key=k{index}")).json();
        assert_eq!(stored, json!({"value": format!("v{index}")}), "{service} key k{index}");
    }
}

#[test]
fn the_environment_and_mounted_files_reach_the_component() {
    let app = probe();
    assert_eq!(app.get("/probe/env?name=PROBE_MODE").json(), json!({"value": "testing"}));
    assert_eq!(
        app.get("/probe/file?path=/static/mounted.txt").json(),
        json!({"text": "a file mounted into the component\n"})
    );
    let missing = app.get("/probe/file?path=/etc/passwd").json();
    assert!(missing["error"].is_string(), "{missing}");
}

#[test]
fn databases_and_stores_a_component_does_not_list_are_denied() {
    let app = probe();
    assert_eq!(app.get("/probe/sqlite/open?database=other").json(), json!({"error": "AccessDenied"}));
    assert_eq!(app.get("/probe/kv/open?store=other").json(), json!({"error": "AccessDenied"}));
    assert_eq!(app.get("/probe/sqlite/select1").json(), json!({"value": 1}));
}

#[test]
fn a_transaction_a_request_left_open_is_not_inherited_by_the_next_one() {
    let app = probe();
    assert_eq!(app.get("/probe/sqlite/leave-transaction-open?key=ghost&value=boo").json(), json!({"left_open": true}));
    assert_eq!(app.get("/probe/sqlite/get?key=ghost").json(), json!({"value": null}));
    assert_eq!(app.get("/probe/sqlite/put?key=after&value=ok").json(), json!({"changes": 1}));
    assert_eq!(app.get("/probe/sqlite/get?key=after").json(), json!({"value": "ok"}));
}

#[test]
#[cfg_attr(spin_host, ignore = "runner-only: the log line is the local runner's format")]
fn every_request_gets_one_log_line() {
    let app = probe();
    app.get("/probe/echo");
    app.get("/nowhere");
    let served = app.wait_for_log("GET /probe/echo 200 probe-wildcard").expect("a log line for the request");
    assert!(served.contains(" ms (instantiated in "), "{served}");
    assert!(app.wait_for_log("GET /nowhere 404 -").is_some(), "{}", app.log());
}

#[test]
#[cfg_attr(spin_host, ignore = "runner-only: Spin cancels the requests in flight at once on SIGTERM")]
fn sigterm_lets_requests_in_flight_finish() {
    let mut app = probe();
    let base_url = app.base_url.clone();
    let slow = std::thread::spawn(move || {
        let reply = e2e::request(&base_url, "GET", "/probe/sleep?ms=1500", &[], None).expect("the slow request");
        (reply.status, reply.text())
    });
    assert!(app.wait_for_log("[probe-wildcard] sleeping for 1500 ms").is_some(), "{}", app.log());
    let status = app.stop();
    let (code, body) = slow.join().unwrap();
    assert_eq!((code, body.as_str()), (200, r#"{"slept_ms":"1500"}"#));
    assert!(status.success(), "{status}\n{}", app.log());
}

/// Starts the runner on a throwaway manifest and returns its exit status and output.
fn runner_fails_with(manifest: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("spin.toml"), manifest).unwrap();
    std::fs::write(dir.path().join("imports-llm.wat"), r#"(component (import "fermyon:spin/llm@2.0.0" (instance)))"#)
        .unwrap();
    let runner = e2e::workspace().join("target/debug/glossa");
    let output = std::process::Command::new(runner)
        .arg("up")
        .arg("-f")
        .arg(dir.path().join("spin.toml"))
        .arg("--state-dir")
        .arg(dir.path().join("state"))
        .args(extra)
        .output()
        .expect("run the runner");
    assert!(!output.status.success(), "the runner should have refused to start");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn manifest_with(component: &str) -> String {
    let probe = e2e::workspace().join("target/wasm32-wasip2/release/probe.wasm");
    format!(
        "spin_manifest_version = 2\n[application]\nname = \"broken\"\n[[trigger.http]]\nroute = \"/...\"\ncomponent = \"web\"\n[component.web]\nsource = {:?}\n{component}\n",
        probe.display().to_string()
    )
}

#[test]
#[cfg_attr(spin_host, ignore = "runner-only: the messages are the local runner's")]
fn startup_errors_say_what_is_wrong() {
    // Build the runner and the probe.
    drop(probe());

    let unknown_field = runner_fails_with(&manifest_with("key_value_store = [\"default\"]"), &[]);
    assert!(unknown_field.contains("unknown field `key_value_store`"), "{unknown_field}");

    let missing_wasm = runner_fails_with(&manifest_with("").replace("probe.wasm", "missing.wasm"), &[]);
    assert!(missing_wasm.contains("missing.wasm does not exist"), "{missing_wasm}");

    let llm = manifest_with("").replace(
        &format!("{:?}", e2e::workspace().join("target/wasm32-wasip2/release/probe.wasm").display().to_string()),
        "\"imports-llm.wat\"",
    );
    let unknown_import = runner_fails_with(&llm, &[]);
    assert!(unknown_import.contains("fermyon:spin/llm@2.0.0"), "{unknown_import}");

    let undefined_database = runner_fails_with(&manifest_with("sqlite_databases = [\"analytics\"]"), &[]);
    assert!(undefined_database.contains("SQLite database `analytics`, which is not defined"), "{undefined_database}");

    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let port_in_use = runner_fails_with(&manifest_with(""), &["--listen", &address]);
    assert!(port_in_use.contains(&format!("{address} is already in use")), "{port_in_use}");

    let required =
        manifest_with("").replace("[[trigger.http]]", "[variables]\ntoken = { required = true }\n[[trigger.http]]");
    let missing_variable = runner_fails_with(&required, &[]);
    assert!(missing_variable.contains("`token`"), "{missing_variable}");
}
