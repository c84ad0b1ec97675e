//! `scripts/up.sh`, what `make up` runs: it installs the zh→en and speech models and starts the
//! inference service, Apertium APY, the language-tools service and the voice gateway on loopback
//! beside the runner, serves real translations from both engines and voice sessions, says once
//! at start whether the settings can work, and stops them all when it is told to stop.

use std::net::{IpAddr, TcpStream, UdpSocket};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use e2e::{
    BOOTSTRAP_ADMIN_KEY, built_language_tools, built_runner, built_voice_gateway, free_port, json, request, workspace,
};

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
fn up_serves_neural_and_apertium_translations_with_its_services_on_loopback_and_stops_everything() {
    let runner = built_runner();
    let state = tempfile::tempdir().unwrap();
    let (port, apy_port, tools_port, inference_port) = (free_port(), free_port(), free_port(), free_port());
    let voice_port = free_port();
    let voice = format!("http://127.0.0.1:{voice_port}");
    let base = format!("http://127.0.0.1:{port}");
    let apy = format!("http://127.0.0.1:{apy_port}");
    let tools = format!("http://127.0.0.1:{tools_port}");
    let inference = format!("http://127.0.0.1:{inference_port}");
    let mut up = Command::new("bash")
        .arg(workspace().join("scripts/up.sh"))
        .env("RUNNER", &runner)
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("STATE_DIR", state.path())
        // The manifest's default engine list, `ctranslate2,apertium`.
        .env_remove("SPIN_VARIABLE_ENGINE")
        .env("SPIN_VARIABLE_APERTIUM_URL", &apy)
        .env("SPIN_VARIABLE_INFERENCE_URL", &inference)
        .env_remove("SPIN_VARIABLE_INFERENCE_SECRET")
        .env_remove("GLOSSA_MODELS_DIR")
        .env("SPIN_VARIABLE_BOOTSTRAP_ADMIN_KEY", BOOTSTRAP_ADMIN_KEY)
        .env("LANGUAGE_TOOLS", built_language_tools())
        .env("SPIN_VARIABLE_LANGUAGE_TOOLS_URL", &tools)
        .env_remove("SPIN_VARIABLE_LANGUAGE_TOOLS_SECRET")
        .env("VOICE_GATEWAY", built_voice_gateway())
        .env("SPIN_VARIABLE_VOICE_PUBLIC_URL", format!("ws://127.0.0.1:{voice_port}"))
        .env_remove("SPIN_VARIABLE_VOICE_TOKEN_SECRET")
        .env_remove("SPIN_VARIABLE_VOICE_GATEWAY_SECRET")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run scripts/up.sh");

    let started = answers(&base, "/health", Duration::from_secs(180));
    let apy_started = answers(&apy, "/listPairs", Duration::from_secs(1));
    // up.sh made a secret for this run and gave it to both: the application uses the service.
    let health = started.then(|| request(&base, "GET", "/health", &[], None).unwrap().json());
    let translations = started.then(|| {
        let auth = format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}");
        let created = request(&base, "POST", "/v2/admin/developer-keys", &[("Authorization", &auth)], None).unwrap();
        let key = created.json()["key"].as_str().expect("a developer key").to_owned();
        let auth = format!("Service-Auth-Key {key}");
        let headers = [("Authorization", auth.as_str()), ("Content-Type", "application/json")];
        let translate = |text: &str, source: &str, target: &str| {
            let body = json!({"text": [text], "source_lang": source, "target_lang": target}).to_string();
            request(&base, "POST", "/v2/translate", &headers, Some(body.as_bytes())).unwrap()
        };
        let session = json!({"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000"}).to_string();
        let voice = request(&base, "POST", "/v3/voice/realtime", &headers, Some(session.as_bytes())).unwrap();
        (translate("Hello, how are you?", "EN", "ES"), translate("我喜欢读书。", "ZH", "EN-US"), voice)
    });
    let gateway_started = answers(&voice, "/health", Duration::from_secs(1));
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
    let (spanish, english, session) = translations.unwrap();
    assert!(gateway_started, "the voice gateway is not answering on {voice}");
    assert_eq!(session.status, 200, "up.sh set up real-time voice: {}", session.text());
    assert_eq!(session.json()["streaming_url"], format!("ws://127.0.0.1:{voice_port}/v3/voice/realtime/connect"));
    assert_eq!(spanish.status, 200, "{}", spanish.text());
    let text = spanish.json()["translations"][0]["text"].as_str().unwrap_or_default().to_owned();
    assert!(text.contains("Hola"), "{text}");
    assert_eq!(english.status, 200, "{}", english.text());
    assert_eq!(english.header("x-service-engine"), Some("ctranslate2"));
    let text = english.json()["translations"][0]["text"].as_str().unwrap_or_default().to_owned();
    assert!(text.contains("read"), "{text}");
    assert!(state.path().join("models/zh-en/installed.json").exists(), "up.sh installed the model");
    assert_ne!(reachable_from_outside, Some(true), "APY answers on a non-loopback address");
    assert!(status.is_some(), "scripts/up.sh did not stop within 30 s of SIGTERM");
    assert!(!answers(&base, "/health", Duration::ZERO), "the runner still answers after up.sh stopped");
    assert!(!answers(&apy, "/listPairs", Duration::ZERO), "APY still answers after up.sh stopped");
    let health = health.unwrap();
    assert_eq!(health["checks"]["language_tools"]["detection"], "language-tools", "{health}");
    assert!(
        !answers(&tools, "/health", Duration::ZERO),
        "the language-tools service still answers after up.sh stopped"
    );
    assert!(!answers(&inference, "/health", Duration::ZERO), "the inference service still answers after up.sh stopped");
    assert!(!answers(&voice, "/health", Duration::ZERO), "the voice gateway still answers after up.sh stopped");
    assert!(state.path().join("models/whisper-base/installed.json").exists(), "up.sh installed the speech models");
}

#[test]
fn up_reports_a_setting_that_cannot_work_once_at_start() {
    use std::io::BufRead;
    use std::os::unix::process::CommandExt;

    let runner = built_runner();
    let state = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut up = Command::new("bash")
        .arg(workspace().join("scripts/up.sh"))
        .env("RUNNER", &runner)
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("STATE_DIR", state.path())
        .env("SPIN_VARIABLE_ENGINE", "nonsense")
        // Not on this machine: up.sh starts no language-tools service.
        .env("SPIN_VARIABLE_LANGUAGE_TOOLS_URL", "http://language-tools.invalid:2740")
        // Nor a voice gateway.
        .env("SPIN_VARIABLE_VOICE_PUBLIC_URL", "wss://voice.invalid")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        // Its own process group, so that the script and the runner it started stop together.
        .process_group(0)
        .spawn()
        .expect("run scripts/up.sh");
    // Every line up.sh and the runner write, read to the end on a thread of its own.
    let stderr = up.stderr.take().expect("stderr");
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut reported = None;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match received.recv_timeout(left) {
            Ok(line) if line.contains("GET /health reports a problem") => {
                reported = Some(line);
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let group = -(up.id() as i32);
    unsafe { libc::kill(group, libc::SIGTERM) };
    let stop_by = Instant::now() + Duration::from_secs(30);
    while up.try_wait().unwrap().is_none() && Instant::now() < stop_by {
        std::thread::sleep(Duration::from_millis(100));
    }
    unsafe { libc::kill(group, libc::SIGKILL) };
    let _ = up.wait();
    let reported = reported.expect("up.sh said nothing about the unknown engine");
    assert!(reported.contains("engine") && reported.contains("nonsense"), "{reported}");
}
