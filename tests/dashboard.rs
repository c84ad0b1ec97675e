//! Component `dashboard`: the admin web app under `/admin/`.
//!
//! Over HTTP: the files with their types and security headers, the redirect from `/admin`, and
//! the API's 404 for anything else (traversal included). In a real browser: the scenario of
//! `tests/python/dashboard.py` (headless Chromium driven by Selenium, with axe-core), whose
//! screenshots are kept in `target/dashboard-screenshots/` as the run's artefacts.

use std::io::{Read, Write};
use std::net::TcpStream;

use e2e::{BOOTSTRAP_ADMIN_KEY, Options, TestApp, json, workspace};

/// The policy every file of the site carries.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Sends `GET <path>` as written, over a raw HTTP/1.0 connection (a body without chunks): an
/// HTTP client would follow the redirect, or remove the `..` segments before sending. Answers
/// the status code, the headers (names in lower case) and the body.
fn raw_get(app: &TestApp, path: &str) -> (u16, Vec<(String, String)>, String) {
    let address = app.base_url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).expect("connect to the application");
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {address}\r\n\r\n").expect("send the request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read the answer");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    let mut lines = head.lines();
    let status_line = lines.next().expect("a status line");
    let status = status_line.split(' ').nth(1).and_then(|code| code.parse().ok()).expect("a status code");
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
}

#[test]
fn the_site_is_served_with_its_types_and_security_headers() {
    let app = TestApp::start(Options::app());
    for (path, content_type, cache) in [
        ("/admin/", "text/html; charset=utf-8", "no-cache"),
        ("/admin/index.html", "text/html; charset=utf-8", "no-cache"),
        ("/admin/app.js", "text/javascript; charset=utf-8", "max-age=300"),
        ("/admin/views/usage.js", "text/javascript; charset=utf-8", "max-age=300"),
        ("/admin/app.css", "text/css; charset=utf-8", "max-age=300"),
        ("/admin/vendor/uPlot.iife.min.js", "text/javascript; charset=utf-8", "max-age=300"),
        ("/admin/vendor/uPlot.min.css", "text/css; charset=utf-8", "max-age=300"),
    ] {
        let reply = app.get(path);
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
        assert_eq!(reply.header("content-type"), Some(content_type), "{path}");
        assert_eq!(reply.header("cache-control"), Some(cache), "{path}");
        assert_eq!(reply.header("content-security-policy"), Some(POLICY), "{path}");
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(reply.header("referrer-policy"), Some("no-referrer"), "{path}");
        assert!(reply.header("set-cookie").is_none(), "{path}");
    }
    let page = app.get("/admin/").text();
    assert!(page.contains(r#"<script type="module" src="app.js"></script>"#), "{page}");
    // Nothing inline: every script and style is a file of this origin.
    assert!(!page.contains("<style") && !page.contains("style=") && !page.contains("<script>"), "{page}");
    assert!(!page.contains("http://") && !page.contains("https://"), "nothing loads from another site: {page}");

    let head = app.request("HEAD", "/admin/app.js", &[], None);
    assert_eq!((head.status, head.body.len()), (200, 0));
    let post = app.request("POST", "/admin/app.js", &[], Some(b"x"));
    assert_eq!((post.status, post.header("allow")), (405, Some("GET, HEAD")));
}

#[test]
fn admin_without_its_slash_redirects_and_unknown_or_escaping_paths_are_the_apps_404() {
    let app = TestApp::start(Options::app());
    let (status, headers, _) = raw_get(&app, "/admin");
    assert_eq!(status, 308);
    assert_eq!(header(&headers, "location"), Some("/admin/"));

    for path in [
        "/admin/missing.js",
        "/admin/keys",
        "/admin/vendor/",
        "/admin/../spin.toml",
        "/admin/vendor/../../Cargo.toml",
        "/admin/%2e%2e/spin.toml",
        "/admin/..%2f..%2fspin.toml",
        "/admin/.hidden.js",
    ] {
        let (status, headers, body) = raw_get(&app, path);
        assert_eq!(status, 404, "{path}");
        assert_eq!(header(&headers, "content-type"), Some("application/json"), "{path}");
        let expected = json!({"message": format!("Not found: nothing is served at {path}.")});
        assert_eq!(serde_json::from_str::<serde_json::Value>(&body).ok(), Some(expected), "{path}: {body}");
    }
    // The same shape as any path nothing serves.
    let unknown = app.get("/no/such/path");
    assert_eq!(unknown.json(), json!({"message": "Not found: nothing is served at /no/such/path."}));
}

#[test]
fn an_admin_manages_keys_and_reads_exact_usage_in_a_real_browser() {
    let app = TestApp::start(Options::app());
    // The first request with the bootstrap key creates the subscription whose admin key it is.
    let usage = app.call("GET", "/v2/usage", BOOTSTRAP_ADMIN_KEY);
    assert_eq!(usage.status, 200, "{}", usage.text());

    let screenshots = workspace().join("target/dashboard-screenshots");
    let screenshots = screenshots.to_str().expect("a UTF-8 path");
    let report = app.python_client_report_with("dashboard.py", BOOTSTRAP_ADMIN_KEY, &["--screenshots", screenshots]);

    // Characters of the texts translated with each tag (tests/python/dashboard.py).
    assert_eq!(report["usage_by_tag"]["table"], json!({"alpha": 23, "beta": 8}), "{report:#}");
    assert_eq!(report["usage_by_tag"]["csv"], json!({"alpha": 23, "beta": 8}), "{report:#}");
    assert_eq!(report["usage_by_key"]["table"], json!({"Text translation": "31", "Total characters": "31"}));
    assert_eq!(report["usage_by_key"]["csv"]["Total characters"], "31");
    assert!(report["usage_by_key"]["chart_pixels"].as_i64() > Some(500), "{report:#}");
    assert_eq!(report["overview_after"]["breakdown"]["Text translation"], "31");
    assert_eq!(report["key_limit"], 1000);
    assert_eq!(report["cost_control"], 5_000_000);
    assert_eq!(report["deactivated_translation_status"], 403);
    assert!(report["rate_limited_alert"].as_str().is_some_and(|text| text.starts_with("Too many requests")));
    assert!(report["developer_key_login"].as_str().is_some_and(|text| text.starts_with("This is not an admin key")));
    let views = report["axe"].as_object().expect("axe results by view");
    assert!(views.len() >= 10, "{report:#}");
    for (view, result) in views {
        assert_eq!(result["serious_or_critical"], 0, "{view}: {result}");
    }
    assert!(report["screenshots"].as_array().is_some_and(|shots| shots.len() >= 8), "{report:#}");
}
