//! The `voice-gateway` program itself: its refusal to start without a secret, the `Serving` line,
//! `/health`, and SIGTERM with a live session (closed after its final usage report, exit 0).

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const BINARY: &str = env!("CARGO_BIN_EXE_voice-gateway");

#[test]
fn the_secret_is_required() {
    let output = Command::new(BINARY)
        .args(["--listen", "127.0.0.1:0"])
        .env_remove("VOICE_GATEWAY_SECRET")
        .output()
        .expect("the program runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("VOICE_GATEWAY_SECRET"), "{stderr}");
}

/// Starts the program against the doubles and returns it with the address from its `Serving` line.
fn start(doubles: &Doubles) -> (Child, String) {
    let mut child = Command::new(BINARY)
        .args(["--listen", "127.0.0.1:0", "--app-url", &doubles.url(), "--inference-url", &doubles.url()])
        .env("VOICE_GATEWAY_SECRET", SECRET)
        .env("INFERENCE_SECRET", INFERENCE_SECRET)
        .env("GLOSSA_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let address = loop {
        let line = lines.next().expect("a Serving line").expect("readable");
        if let Some(address) = line.strip_prefix("Serving http://") {
            break address.trim().to_string();
        }
    };
    // Keep draining the log so the program never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, address)
}

#[tokio::test]
async fn serves_health_and_stops_on_sigterm_after_the_final_report() {
    let doubles = Doubles::start().await;
    let (mut child, address) = start(&doubles);

    let mut stream = tokio::net::TcpStream::connect(&address).await.expect("connected");
    stream.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.expect("sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 200") && answer.contains(r#""status":"ok""#), "{answer}");

    doubles.session("bin", "s-bin", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = connect(address.parse().expect("an address"), "/v3/voice/realtime/connect", "bin", false).await;
    client.chunk(&[0; 16_000]).await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    let stopped_at = Instant::now();
    // SAFETY: kill(2) on the child this test started.
    let signalled = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(signalled, 0);
    let received = client.receive_all(Duration::from_secs(10)).await;
    assert_eq!(received.close.as_ref().map(|close| close.0), Some(1001), "{received:?}");
    let status = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break status;
        }
        assert!(stopped_at.elapsed() < Duration::from_secs(8), "still running after SIGTERM");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "{status}");
    assert_eq!(doubles.usage_total("s-bin"), 500);
    assert_eq!(doubles.ends(), [("s-bin".to_string(), 1, "closed".to_string())]);
}

#[test]
fn the_openai_recognizer_needs_an_http_url_and_a_model() {
    let run = |args: &[&str]| {
        Command::new(BINARY)
            .args(["--listen", "127.0.0.1:0", "--recognizer", "openai"])
            .args(args)
            .env("VOICE_GATEWAY_SECRET", SECRET)
            .env_remove("VOICE_OPENAI_URL")
            .env_remove("VOICE_OPENAI_MODEL")
            .output()
            .expect("the program runs")
    };
    for (args, expected) in [
        (&["--openai-model", "whisper-1"][..], "--openai-url"),
        (&["--openai-url", "http://127.0.0.1:9"][..], "--openai-model"),
        (&["--openai-url", "https://gpu-box", "--openai-model", "whisper-1"][..], "http://"),
        (&["--openai-url", "http://gpu-box:8000/v1/", "--openai-model", "whisper-1"][..], "without /v1"),
    ] {
        let output = run(args);
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn the_openai_recognizer_starts_and_never_logs_its_key() {
    let key = "sk-never-in-the-log-1234";
    let mut child = Command::new(BINARY)
        .args(["--listen", "127.0.0.1:0", "--recognizer", "openai", "--openai-model", "whisper-1"])
        .env("VOICE_GATEWAY_SECRET", SECRET)
        .env("VOICE_OPENAI_URL", "http://127.0.0.1:9")
        .env("VOICE_OPENAI_API_KEY", key)
        .env("GLOSSA_LOG", "debug")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let mut log = Vec::new();
    loop {
        let line = lines.next().expect("a Serving line").expect("readable");
        let serving = line.starts_with("Serving http://");
        log.push(line);
        if serving {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let log = log.join("\n");
    assert!(log.contains("openai") && log.contains("whisper-1") && log.contains("with an API key"), "{log}");
    assert!(!log.contains(key), "{log}");
}
