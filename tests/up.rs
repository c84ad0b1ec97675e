//! `scripts/up.sh`, what `make up` runs: it starts Apertium APY on loopback beside the runner,
//! serves real translations, says once at start whether the settings can work, and stops both
//! when it is told to stop.

use std::net::{IpAddr, TcpStream, UdpSocket};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use e2e::{BOOTSTRAP_ADMIN_KEY, built_runner, free_port, json, request, workspace};

/// Polls `url` + `path` until it answers 200 (true) or `timeout` passes (false).
fn answers(url: &str, path: &str, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        if request(url, "GET", path, &[], None).is_ok_and(|reply| reply.status == 200) {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The address this machine uses towards other hosts, if it has one besides loopback.
fn outward_address() -> Option<IpAddr> {
    let socket = UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?; // no packet is sent; this only picks a route
    let address = socket.local_addr().ok()?.ip();
    (!address.is_loopback()).then_some(address)
}

#[test]
fn up_serves_apertium_translations_with_apy_on_loopback_and_stops_everything() {
    let runner = built_runner();
    let state = tempfile::tempdir().unwrap();
    let (port, apy_port) = (free_port(), free_port());
    let base = format!("http://127.0.0.1:{port}");
    let apy = format!("http://127.0.0.1:{apy_port}");
    let mut up = Command::new("bash")
        .arg(workspace().join("scripts/up.sh"))
        .env("RUNNER", &runner)
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("STATE_DIR", state.path())
        .env("SPIN_VARIABLE_ENGINE", "apertium")
        .env("SPIN_VARIABLE_APERTIUM_URL", &apy)
        .env("SPIN_VARIABLE_BOOTSTRAP_ADMIN_KEY", BOOTSTRAP_ADMIN_KEY)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run scripts/up.sh");

    let started = answers(&base, "/health", Duration::from_secs(120));
    let apy_started = answers(&apy, "/listPairs", Duration::from_secs(1));
    let translation = started.then(|| {
        let auth = format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}");
        let created = request(&base, "POST", "/v2/admin/developer-keys", &[("Authorization", &auth)], None).unwrap();
        let key = created.json()["key"].as_str().expect("a developer key").to_owned();
        let body = json!({"text": ["Hello, how are you?"], "source_lang": "EN", "target_lang": "ES"}).to_string();
        let auth = format!("Service-Auth-Key {key}");
        let headers = [("Authorization", auth.as_str()), ("Content-Type", "application/json")];
        request(&base, "POST", "/v2/translate", &headers, Some(body.as_bytes())).unwrap()
    });
    // APY listens on loopback only: the machine's outward address does not reach it.
    let reachable_from_outside = outward_address()
        .map(|address| TcpStream::connect_timeout(&(address, apy_port).into(), Duration::from_secs(1)).is_ok());

    unsafe { libc::kill(up.id() as i32, libc::SIGTERM) };
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = up.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = up.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let log = std::fs::read_to_string(state.path().join("apertium-apy.log")).unwrap_or_default();

    assert!(started, "the application did not answer on {base}");
    assert!(apy_started, "APY is not answering on {apy}; its log:\n{log}");
    let translation = translation.unwrap();
    assert_eq!(translation.status, 200, "{}", translation.text());
    let text = translation.json()["translations"][0]["text"].as_str().unwrap_or_default().to_owned();
    assert!(text.contains("Hola"), "{text}");
    assert_ne!(reachable_from_outside, Some(true), "APY answers on a non-loopback address");
    assert!(status.is_some(), "scripts/up.sh did not stop within 30 s of SIGTERM");
    assert!(!answers(&base, "/health", Duration::ZERO), "the runner still answers after up.sh stopped");
    assert!(!answers(&apy, "/listPairs", Duration::ZERO), "APY still answers after up.sh stopped");
}

#[test]
fn up_reports_a_setting_that_cannot_work_once_at_start() {
    let runner = built_runner();
    let state = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut up = Command::new("bash")
        .arg(workspace().join("scripts/up.sh"))
        .env("RUNNER", &runner)
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("STATE_DIR", state.path())
        .env("SPIN_VARIABLE_ENGINE", "nonsense")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run scripts/up.sh");
    let mut stderr = std::io::BufReader::new(up.stderr.take().expect("stderr"));
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut reported = None;
    let mut line = String::new();
    while Instant::now() < deadline {
        line.clear();
        if std::io::BufRead::read_line(&mut stderr, &mut line).unwrap_or(0) == 0 {
            break;
        }
        if line.contains("GET /health reports a problem") {
            reported = Some(line.clone());
            break;
        }
    }
    unsafe { libc::kill(up.id() as i32, libc::SIGTERM) };
    let _ = up.wait();
    let reported = reported.expect("up.sh said nothing about the unknown engine");
    assert!(reported.contains("engine") && reported.contains("nonsense"), "{reported}");
}
