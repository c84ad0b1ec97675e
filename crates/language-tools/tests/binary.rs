//! The command line as an operator meets it: the secret is required, the ready line comes after the models
//! are loaded and names the address, `/health` answers, and SIGTERM stops the service cleanly.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const BINARY: &str = env!("CARGO_BIN_EXE_glossa-language-tools");

/// Starts the service on a free port with `args` after `--listen`, its log piped, and answers it
/// with its ready line once that is printed.
fn start(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(BINARY)
        .env("LANGUAGE_TOOLS_SECRET", "binary-test-secret")
        .env("GLOSSA_LOG", "warn")
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut ready = String::new();
    BufReader::new(stdout).read_line(&mut ready).expect("a ready line");
    assert!(ready.starts_with("language-tools listening on 127.0.0.1:"), "{ready}");
    (child, ready)
}

#[test]
fn refuses_to_start_without_a_secret() {
    let output = Command::new(BINARY)
        .env_remove("LANGUAGE_TOOLS_SECRET")
        .args(["--listen", "127.0.0.1:0"])
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--secret") && stderr.contains("LANGUAGE_TOOLS_SECRET"), "{stderr}");
}

#[test]
fn serves_after_the_ready_line_and_stops_on_sigterm() {
    let (mut child, ready) = start(&[]);
    assert!(ready.contains("detection: 70 languages") && ready.contains("correction: "), "{ready}");
    assert!(ready.contains(", ocr: ") && ready.trim_end().ends_with(" languages)"), "{ready}");
    let address = ready.split_whitespace().nth(3).expect("the address");

    let mut stream = TcpStream::connect(address).expect("connected");
    stream.set_read_timeout(Some(Duration::from_secs(10))).expect("a timeout");
    stream.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").expect("sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""status":"ok""#), "{answer}");
    assert!(answer.contains(r#""ocr":["#), "{answer}");
    assert!(answer.contains(r#""pdf":true"#), "install poppler-utils: {answer}");

    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(killed.success());
    let status = child.wait().expect("the service stops");
    assert!(status.success(), "{status:?}");
}

/// `--fonts` names the font files; missing ones are skipped, and without any `/render` answers 503 while
/// the rest of the service runs.
#[test]
fn missing_fonts_are_skipped_and_render_is_unavailable() {
    let (mut child, ready) = start(&["--fonts", "/nonexistent/one.ttf,/nonexistent/two.ttc"]);
    let address = ready.split_whitespace().nth(3).expect("the address");

    let body = r#"{"image": "iVBORw0KGgo=", "language": "de", "paragraphs": []}"#;
    let mut stream = TcpStream::connect(address).expect("connected");
    stream.set_read_timeout(Some(Duration::from_secs(10))).expect("a timeout");
    let head = format!(
        "POST /render HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer binary-test-secret\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(format!("{head}{body}").as_bytes()).expect("sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("Rendering is unavailable: no font is installed"), "{answer}");

    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(killed.success());
    assert!(child.wait().expect("the service stops").success());
    let mut stderr = String::new();
    child.stderr.take().expect("stderr is piped").read_to_string(&mut stderr).expect("the log");
    assert!(stderr.contains("font file skipped") && stderr.contains("/nonexistent/two.ttc"), "{stderr}");
}
