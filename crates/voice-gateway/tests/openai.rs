//! The OpenAI-compatible recogniser over real sockets: WebSocket sessions through the gateway, whose
//! speech recognition is a fake OpenAI-compatible server (`support::openai`) that checks the form it is
//! sent (the fields, the WAV file, the API key) and answers `verbose_json`; its failures; and the WAV
//! file read by ffprobe and decoded by ffmpeg (skipped, saying why, when they are missing).

mod support;

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use support::openai::{FakeOpenAi, OPENAI_KEY};
use support::*;
use tokio::net::TcpListener;
use voice_gateway::broker::Broker;
use voice_gateway::client::JsonClient;
use voice_gateway::openai::OpenAiRecognizer;
use voice_gateway::recognizer::Recognizer;
use voice_gateway::server::{Gateway, Settings, serve};

const WAIT: Duration = Duration::from_secs(30);
const MODEL: &str = "Systran/faster-whisper-large-v3";

/// The broker's double, the fake server, and a gateway between them recognising with `key`.
async fn start(key: &str) -> (std::net::SocketAddr, Doubles, FakeOpenAi) {
    let doubles = Doubles::start().await;
    let fake = FakeOpenAi::start().await;
    let mut settings = Settings::default();
    settings.limits.speed_slack_ms = 60_000;
    // A busy server is asked again quickly in the tests.
    settings.busy_delay = Duration::from_millis(20);
    settings.busy_attempts = 3;
    let broker = Broker::new(JsonClient::new(&doubles.url(), SECRET, Duration::from_secs(5)));
    let client = JsonClient::new(&format!("{}/", fake.url()), key, Duration::from_secs(5));
    let recognizer = Recognizer::OpenAi(OpenAiRecognizer::new(client, MODEL));
    let gateway = Arc::new(Gateway::new(broker, recognizer, settings));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("an address");
    tokio::spawn(serve(listener, gateway, std::future::pending()));
    (address, doubles, fake)
}

/// 1.2 s of word 1, a second of silence, 0.7 s of word 2, 0.31 s of silence: 3.21 s.
fn two_words() -> Vec<i16> {
    speech(&[(1, 1_200), (0, 1_000), (2, 700), (0, 310)], 16_000)
}

/// Streams the two words to a fresh session and returns what came back.
async fn session(gateway: std::net::SocketAddr, doubles: &Doubles, token: &str, fixed: bool) -> Received {
    let mut parameters = parameters("audio/pcm;encoding=s16le;rate=16000", "json", &["de"]);
    if fixed {
        parameters["source_language_mode"] = json!("fixed");
    }
    doubles.session(token, &format!("s-{token}"), parameters, None);
    let mut client = connect(gateway, "/v3/voice/realtime/connect", token, false).await;
    stream(&mut client, &le_bytes(&two_words()), 3_200, Duration::from_millis(25)).await;
    client.end().await;
    client.receive_all(WAIT).await
}

#[tokio::test]
async fn a_session_is_recognised_by_an_openai_compatible_server() {
    let (gateway, doubles, fake) = start(OPENAI_KEY).await;
    let received = session(gateway, &doubles, "auto", false).await;

    assert!(received.error().is_none(), "{:?}", received.messages);
    let concluded = received.concluded();
    assert_eq!(concluded.len(), 2, "{concluded:?}");
    assert_eq!((concluded[0].0.as_str(), concluded[1].0.as_str()), ("word1", "word2"));
    assert!(concluded[0].1 <= 20 && (1_180..=1_230).contains(&concluded[0].2), "{concluded:?}");
    assert!((2_180..=2_230).contains(&concluded[1].1) && (2_880..=2_930).contains(&concluded[1].2), "{concluded:?}");
    // "english" became "en": the segments' language and the translation's source.
    let languages: Vec<&str> = received
        .messages
        .iter()
        .filter_map(|message| message.get("source_transcript_update"))
        .flat_map(|update| update["concluded"].as_array().into_iter().flatten())
        .filter_map(|segment| segment["language"].as_str())
        .collect();
    assert_eq!(languages, ["en", "en"]);
    assert_eq!(received.targets("de"), ["[de] word1", "[de] word2"]);
    assert!(doubles.state.lock().unwrap().translations.iter().all(|(source, _, _)| source == "en"));
    assert_eq!(received.names().last().map(String::as_str), Some("end_of_stream"));
    assert_eq!(received.close.as_ref().map(|close| close.0), Some(1000));

    let requests = fake.requests();
    assert!(requests.len() >= 2, "{requests:?}");
    let sent = two_words();
    for request in &requests {
        assert_eq!((request.method.as_str(), request.path.as_str()), ("POST", "/v1/audio/transcriptions"));
        assert_eq!(request.authorization.as_deref(), Some(format!("Bearer {OPENAI_KEY}").as_str()));
        assert!(request.content_type.starts_with("multipart/form-data; boundary="), "{}", request.content_type);
        assert_eq!(request.multipart_error, None);
        assert_eq!(request.field("model"), [MODEL]);
        assert_eq!(request.field("response_format"), ["verbose_json"]);
        assert_eq!(request.field("timestamp_granularities[]"), ["segment"]);
        assert_eq!(request.field("prompt"), ["Glossa, Spin"]);
        // Auto mode: whisper detects the language.
        assert!(request.field("language").is_empty());
        let (file_name, part_type, _) = request.file.as_ref().expect("a file part");
        assert_eq!((file_name.as_str(), part_type.as_str()), ("audio.wav", "audio/wav"));
        let samples = request.wav.as_ref().expect("a valid WAV file");
        assert!(!samples.is_empty() && samples.len() <= sent.len());
    }
    // The first window is the stream's start, sample for sample.
    let first = requests[0].wav.as_ref().expect("a valid WAV file");
    assert_eq!(first[..], sent[..first.len()]);
    // Every request had its own boundary.
    assert_ne!(requests[0].content_type, requests[1].content_type);

    // Fixed mode sends the session's language.
    let received = session(gateway, &doubles, "fixed", true).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    assert_eq!(received.concluded().len(), 2);
    let fixed = fake.requests().split_off(requests.len());
    assert!(!fixed.is_empty());
    assert!(fixed.iter().all(|request| request.field("language") == ["en"]), "{fixed:?}");
}

#[tokio::test]
async fn a_server_that_answers_only_text_gives_one_segment_per_window() {
    let (gateway, doubles, fake) = start(OPENAI_KEY).await;
    fake.state.lock().unwrap().text_only = true;
    let received = session(gateway, &doubles, "text", false).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    // Each segment spans its window, so its times never show a pause: word 1 is the answer for the window
    // recognised when the gateway's detector heard its voice stop (200 ms after it), concluded once the
    // pause lasted; word 2 is concluded at the end. Both in the session's source language (the server
    // named none).
    let concluded = received.concluded();
    assert_eq!(concluded, [("word1".to_string(), 0, 1_400), ("word2".to_string(), 1_400, 3_210)]);
    assert_eq!(received.targets("de"), ["[de] word1", "[de] word2"]);
    assert!(doubles.state.lock().unwrap().translations.iter().all(|(source, _, _)| source == "en"));
}

/// Streams a second of audio to a fresh session against a failing server; returns the error.
async fn failure(status: Option<u16>, key: &str) -> (serde_json::Value, Received, usize, Vec<(String, u64, String)>) {
    let (gateway, doubles, fake) = start(key).await;
    fake.state.lock().unwrap().status = status;
    doubles.session("fail", "s-fail", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = connect(gateway, "/v3/voice/realtime/connect", "fail", false).await;
    stream(&mut client, &le_bytes(&speech(&[(1, 1_200)], 16_000)), 3_200, Duration::from_millis(5)).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;
    let error = received.error().cloned().expect("an error message, not a dropped socket");
    let requests = fake.requests().len();
    (error, received, requests, doubles.ends())
}

#[tokio::test]
async fn a_server_error_twice_is_the_protocol_s_internal_error() {
    let (error, received, requests, ends) = failure(Some(500), OPENAI_KEY).await;
    assert_eq!(error["error_code"], 500);
    assert_eq!(error["reason_code"], 5_000_401);
    assert_eq!(error["error_message"], "Speech recognition failed");
    // One retry, then the error.
    assert_eq!(requests, 2);
    assert_eq!(received.close.as_ref().map(|close| close.0), Some(1011));
    assert_eq!(ends, [("s-fail".to_string(), 1, "error".to_string())]);
}

#[tokio::test]
async fn an_unknown_model_is_the_protocol_s_unavailable_error() {
    let (error, _, requests, _) = failure(Some(404), OPENAI_KEY).await;
    assert_eq!(error["error_code"], 503);
    assert_eq!(error["reason_code"], 5_030_401);
    assert_eq!(requests, 1);
}

#[tokio::test]
async fn a_busy_server_is_asked_again_then_unavailable() {
    let (error, _, requests, _) = failure(Some(503), OPENAI_KEY).await;
    assert_eq!(error["reason_code"], 5_030_401);
    // `busy_attempts` in the test settings.
    assert_eq!(requests, 3);
}

#[tokio::test]
async fn a_refused_key_is_not_retried() {
    let (error, _, requests, _) = failure(None, "a-wrong-key").await;
    assert_eq!(error["reason_code"], 5_000_401);
    assert_eq!(requests, 1);
}

fn missing(program: &str) -> bool {
    let missing = Command::new(program).arg("-version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_err();
    if missing {
        eprintln!("skipped: {program} is not installed (Debian package `ffmpeg`)");
    }
    missing
}

/// The gateway's WAV file as ffprobe sees it, and decoded back by ffmpeg to the same samples.
#[test]
fn ffprobe_reads_the_wav_file_and_ffmpeg_decodes_the_same_samples() {
    if missing("ffprobe") || missing("ffmpeg") {
        return;
    }
    let samples = two_words();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gateway-{}.wav", std::process::id()));
    std::fs::write(&path, voice_gateway::wav::file(&samples)).expect("written");
    let probe = Command::new("ffprobe")
        .args(["-v", "error", "-show_streams", "-show_format", "-of", "json"])
        .arg(&path)
        .output()
        .expect("ffprobe runs");
    assert!(probe.status.success(), "{}", String::from_utf8_lossy(&probe.stderr));
    let probed: serde_json::Value = serde_json::from_slice(&probe.stdout).expect("ffprobe's JSON");
    let stream = &probed["streams"][0];
    assert_eq!(probed["streams"].as_array().map(Vec::len), Some(1), "{probed}");
    assert_eq!(probed["format"]["format_name"], "wav", "{probed}");
    assert_eq!(stream["codec_type"], "audio");
    assert_eq!(stream["codec_name"], "pcm_s16le");
    assert_eq!(stream["sample_rate"], "16000");
    assert_eq!(stream["channels"], 1);
    assert_eq!(stream["bits_per_sample"], 16);
    let duration: f64 = stream["duration"].as_str().and_then(|text| text.parse().ok()).expect("a duration");
    assert!((duration - 3.21).abs() < 0.001, "{duration}");

    let decoded = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(&path)
        .args(["-f", "s16le", "-ac", "1", "-ar", "16000", "pipe:1"])
        .output()
        .expect("ffmpeg runs");
    let _ = std::fs::remove_file(&path);
    assert!(decoded.status.success(), "{}", String::from_utf8_lossy(&decoded.stderr));
    assert_eq!(decoded.stdout, le_bytes(&samples));
}

/// The fake server's own WAV reader agrees with the gateway's writer (and refuses a broken file).
#[test]
fn the_fake_server_reads_the_gateway_s_wav_files() {
    let samples = two_words();
    let file = voice_gateway::wav::file(&samples);
    assert_eq!(support::openai::wav_samples(&file), Ok(samples));
    let mut broken = file.clone();
    broken[22] = 2;
    assert!(support::openai::wav_samples(&broken).is_err());
    assert!(support::openai::wav_samples(&file[..40]).is_err());
}
