//! Hostile and careless clients against the real application: slow bodies, idle connections,
//! oversized bodies, a saturated server. Each test reproduces an attack and asserts that the
//! service stays up and answers in the API's error shape; how fast it copes is measured by
//! `make bench`, not here.
//!
//! The timeouts and the guest limit are the local runner's (`glossa up --body-timeout`, ...);
//! the tests that need them say so and are ignored under another host (`SPIN_BIN`). The body
//! limits are the components' own and hold under any host.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use e2e::{BOOTSTRAP_ADMIN_KEY, Options, Reply, TestApp, json};

/// The application with short timeouts, so that the tests see them end.
fn app_with(args: &[&str]) -> TestApp {
    let mut options = Options::app();
    for arg in args {
        options = options.arg(arg);
    }
    TestApp::start(options)
}

fn address(app: &TestApp) -> String {
    app.base_url.trim_start_matches("http://").to_owned()
}

/// Opens a connection and sends `head` (a request line and headers, without the blank line).
fn send_head(app: &TestApp, head: &str) -> TcpStream {
    let mut stream = TcpStream::connect(address(app)).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    stream.write_all(format!("{head}\r\n\r\n").as_bytes()).expect("send the head");
    stream
}

/// Reads one response from `stream`: its status line, headers and body (by Content-Length).
fn read_reply(stream: &mut TcpStream) -> (String, Reply) {
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).expect("a status line");
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a header line");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').expect("name: value");
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let header = |wanted: &str| headers.iter().find(|(name, _)| name == wanted).map(|(_, value)| value.clone());
    let mut body = Vec::new();
    if header("transfer-encoding").is_some_and(|coding| coding.eq_ignore_ascii_case("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).expect("a chunk size");
            let size = usize::from_str_radix(size.trim(), 16).expect("a hex chunk size");
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).expect("a chunk");
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else {
        let length: usize = header("content-length").map_or(0, |length| length.parse().expect("a length"));
        body.resize(length, 0);
        reader.read_exact(&mut body).expect("the body");
    }
    let status = status_line.split(' ').nth(1).expect("a status code").parse().expect("a number");
    (status_line.trim_end().to_owned(), Reply { status, headers, body })
}

/// Whether the server has closed `stream` (a read finds its end, or the connection reset).
fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut byte = [0u8; 1];
    matches!(stream.read(&mut byte), Ok(0) | Err(_))
}

fn assert_error_shape(reply: &Reply) {
    assert_eq!(reply.header("content-type"), Some("application/json"), "{}", reply.text());
    assert!(reply.json()["message"].as_str().is_some_and(|message| !message.is_empty()), "{}", reply.text());
    let trace = reply.header("x-trace-id").expect("an X-Trace-ID");
    assert_eq!(trace.len(), 32, "{trace}");
}

#[test]
#[cfg_attr(spin_host, ignore = "the body timeout is the local runner's (glossa up --body-timeout)")]
fn clients_that_trickle_their_bodies_are_cut_off_and_hold_nothing_meanwhile() {
    let app = app_with(&["--body-timeout", "2", "--max-requests", "4"]);
    let key = app.developer_key();
    let authorization = format!("Authorization: Service-Auth-Key {key}");
    // More trickling clients than guests may run: none of them may take one.
    let mut slow: Vec<TcpStream> = (0..40)
        .map(|_| {
            let head = format!(
                "POST /v2/translate HTTP/1.1\r\nHost: x\r\n{authorization}\r\nContent-Type: application/json\r\nContent-Length: 200"
            );
            let mut stream = send_head(&app, &head);
            stream.write_all(b"{\"text\"").unwrap();
            stream
        })
        .collect();
    let started = Instant::now();
    for _ in 0..5 {
        assert_eq!(app.get("/health").status, 200);
        let translated = app.post_json("/v2/translate", &key, &json!({"text": ["Hello"], "target_lang": "DE"}));
        assert_eq!(translated.status, 200, "{}", translated.text());
    }
    assert!(started.elapsed() < Duration::from_secs(2), "served while the slow clients trickled");
    for stream in &mut slow {
        let (_, reply) = read_reply(stream);
        assert_eq!(reply.status, 408, "{}", reply.text());
        assert_error_shape(&reply);
        assert!(closed_by_server(stream));
    }
    assert_eq!(app.get("/health").status, 200);
}

#[test]
#[cfg_attr(spin_host, ignore = "the header timeout is the local runner's (glossa up --header-timeout)")]
fn idle_connections_are_closed_after_the_header_timeout() {
    let app = app_with(&["--header-timeout", "1"]);
    let mut idle: Vec<TcpStream> = (0..300)
        .map(|_| {
            let stream = TcpStream::connect(address(&app)).expect("connect");
            stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
            stream
        })
        .collect();
    // A connection that sent half a head is closed too.
    let mut half = TcpStream::connect(address(&app)).unwrap();
    half.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    half.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n").unwrap();
    assert_eq!(app.get("/health").status, 200, "served beside the idle connections");
    for stream in idle.iter_mut().chain(std::iter::once(&mut half)) {
        assert!(closed_by_server(stream), "an idle connection stayed open");
    }
    assert_eq!(app.get("/health").status, 200);
}

#[test]
#[cfg_attr(spin_host, ignore = "the guest limit and its 503 are the local runner's (glossa up --max-requests)")]
fn a_saturated_server_answers_503_with_retry_after_and_recovers() {
    let app = app_with(&["--max-requests", "1", "--body-timeout", "20"]);
    let key = app.developer_key();
    // A glossary upload that sends 100 KiB of a 200 KiB body, then stalls: the runner has read
    // ahead what it reads ahead, and the one guest waits for the rest.
    let head = format!(
        "POST /v2/glossaries HTTP/1.1\r\nHost: x\r\nAuthorization: Service-Auth-Key {key}\r\nContent-Type: application/json\r\nContent-Length: 204800"
    );
    let mut stalled = send_head(&app, &head);
    stalled.write_all(&vec![b' '; 100 * 1024]).unwrap();

    // Once the upload holds the one guest (on a loaded machine it may take a moment to get
    // there), every other request waits for it, then gets a 503.
    let deadline = Instant::now() + Duration::from_secs(10);
    let busy = loop {
        let answer = app.get("/health");
        if answer.status != 200 || Instant::now() > deadline {
            break answer;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(busy.status, 503, "{}\n{}", busy.text(), app.log());
    assert_eq!(busy.header("retry-after"), Some("1"));
    assert_error_shape(&busy);

    drop(stalled);
    let deadline = Instant::now() + Duration::from_secs(10);
    while app.get("/health").status != 200 {
        assert!(Instant::now() < deadline, "the server did not recover once the load was gone");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn oversized_bodies_are_refused_before_they_are_read() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();

    // 600 MB announced: refused at once, without waiting for a byte of it.
    let mut huge = send_head(
        &app,
        &format!(
            "POST /v2/translate HTTP/1.1\r\nHost: x\r\nAuthorization: Service-Auth-Key {key}\r\nContent-Type: application/json\r\nContent-Length: 600000000"
        ),
    );
    let (_, reply) = read_reply(&mut huge);
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert_error_shape(&reply);
    assert!(reply.json()["message"].as_str().unwrap().contains("128 KiB"), "{}", reply.text());

    // A large glossary upload without a key header: refused before any large read.
    let mut anonymous = send_head(
        &app,
        "POST /v3/glossaries HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000000",
    );
    let (_, reply) = read_reply(&mut anonymous);
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert!(reply.json()["message"].as_str().unwrap().contains("Authorization"), "{}", reply.text());

    // With a key that does not exist: 403, still before the body is read.
    let mut forged = send_head(
        &app,
        "POST /v3/glossaries HTTP/1.1\r\nHost: x\r\nAuthorization: Service-Auth-Key 00000000-0000-0000-0000-000000000000\r\nContent-Type: application/json\r\nContent-Length: 5000000",
    );
    let (_, reply) = read_reply(&mut forged);
    assert_eq!(reply.status, 403, "{}", reply.text());
    assert_error_shape(&reply);

    // A body without a length that streams past the limit is cut off at it.
    let mut chunked = send_head(
        &app,
        &format!(
            "POST /v2/translate HTTP/1.1\r\nHost: x\r\nAuthorization: Service-Auth-Key {key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked"
        ),
    );
    let chunk = vec![b' '; 16 * 1024];
    for _ in 0..12 {
        if chunked.write_all(format!("{:x}\r\n", chunk.len()).as_bytes()).is_err()
            || chunked.write_all(&chunk).is_err()
            || chunked.write_all(b"\r\n").is_err()
        {
            break;
        }
    }
    let (_, reply) = read_reply(&mut chunked);
    assert_eq!(reply.status, 413, "{}", reply.text());

    // And the service carries on.
    let translated = app.post_json("/v2/translate", &key, &json!({"text": ["Hello"], "target_lang": "DE"}));
    assert_eq!(translated.status, 200, "{}", translated.text());
}

#[test]
fn unknown_paths_answer_404_in_the_error_shape() {
    let app = TestApp::start(Options::app());
    for path in ["/", "/v2/nothing", "/v9/translate", "/health/extra"] {
        let reply = app.get(path);
        assert_eq!(reply.status, 404, "{path}");
        assert_error_shape(&reply);
    }
    let reply = app.request("POST", "/v2/documents", &[], Some(b"x"));
    assert_eq!(reply.status, 404);
    assert_error_shape(&reply);
}

#[test]
#[cfg_attr(spin_host, ignore = "wasi:http carries no reason phrase; the local runner adds 456's")]
fn a_456_names_its_reason() {
    let app = TestApp::start(Options::app());
    let created = app.create_developer_key(BOOTSTRAP_ADMIN_KEY, None);
    let limited = app.request(
        "PUT",
        "/v2/admin/developer-keys/limits",
        &[("authorization", &format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}")), ("content-type", "application/json")],
        Some(json!({"key_id": created["key_id"], "characters": 0}).to_string().as_bytes()),
    );
    assert_eq!(limited.status, 200, "{}", limited.text());
    let body = r#"{"text": ["Hello"], "target_lang": "DE"}"#;
    let mut stream = send_head(
        &app,
        &format!(
            "POST /v2/translate HTTP/1.1\r\nHost: x\r\nAuthorization: Service-Auth-Key {}\r\nContent-Type: application/json\r\nContent-Length: {}",
            created["key"].as_str().unwrap(),
            body.len()
        ),
    );
    stream.write_all(body.as_bytes()).unwrap();
    let (status_line, reply) = read_reply(&mut stream);
    assert_eq!(status_line, "HTTP/1.1 456 Quota Exceeded");
    assert_error_shape(&reply);
}
