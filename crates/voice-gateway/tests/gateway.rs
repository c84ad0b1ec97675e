//! The gateway's server function over real sockets: WebSocket clients against the gateway, which talks
//! to test doubles of the broker and the inference service (`support`). One test per behaviour of the
//! protocol, the limits, the claim, metering and the segmenting.

mod support;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use support::*;
use tokio::net::TcpListener;
use voice_gateway::broker::Broker;
use voice_gateway::client::JsonClient;
use voice_gateway::recognizer::Recognizer;
use voice_gateway::server::{Gateway, Settings, serve};
use voice_gateway::voices::Voices;

const CONNECT: &str = "/v3/voice/realtime/connect";
const WAIT: Duration = Duration::from_secs(30);

/// A running gateway and its doubles; the gateway stops when `stop` is sent.
struct Harness {
    gateway: SocketAddr,
    doubles: Doubles,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<()>>,
}

impl Harness {
    async fn start(adjust: impl FnOnce(&mut Settings)) -> Harness {
        let doubles = Doubles::start().await;
        let mut settings = Settings::default();
        // Tests stream faster than real time; the speed test lowers this again.
        settings.limits.speed_slack_ms = 60_000;
        // Translated speech asks the doubles' voices (none unless a test lists some).
        settings.voices = Some(Arc::new(Voices::new(&doubles.url(), INFERENCE_SECRET)));
        adjust(&mut settings);
        let broker = Broker::new(JsonClient::new(&doubles.url(), SECRET, Duration::from_secs(5)));
        let recognizer =
            Recognizer::inference(JsonClient::new(&doubles.url(), INFERENCE_SECRET, Duration::from_secs(5)));
        let gateway = Arc::new(Gateway::new(broker, recognizer, settings));
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let address = listener.local_addr().expect("an address");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            serve(listener, gateway, async {
                let _ = stopped.await;
            })
            .await;
        });
        Harness { gateway: address, doubles, stop: Some(stop), server: Some(server) }
    }

    async fn client(&self, token: &str, msgpack: bool) -> Client {
        connect(self.gateway, CONNECT, token, msgpack).await
    }

    async fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(server) = self.server.take() {
            tokio::time::timeout(Duration::from_secs(10), server).await.expect("stopped in time").expect("no panic");
        }
    }
}

/// 1.2 s of word 1, a second of silence, 0.7 s of word 2, 0.31 s of silence: 3.21 s.
fn two_words(rate: u32) -> Vec<i16> {
    speech(&[(1, 1_200), (0, 1_000), (2, 700), (0, 310)], rate)
}

fn assert_end_order(received: &Received, targets: &[&str]) {
    let names = received.names();
    let tail: Vec<&str> = names.iter().map(String::as_str).skip_while(|name| !name.starts_with("end_of")).collect();
    let mut expected = vec!["end_of_source_transcript"];
    expected.extend(targets.iter().map(|_| "end_of_target_transcript"));
    expected.push("end_of_stream");
    assert_eq!(tail, expected, "{names:?}");
    let languages: Vec<&str> = received
        .messages
        .iter()
        .filter_map(|message| message.get("end_of_target_transcript")?["language"].as_str())
        .collect();
    assert_eq!(languages, targets);
}

/// Asserts the two words came back concluded once each, at their times, and translated into each target.
fn assert_two_words(received: &Received, targets: &[&str]) {
    let concluded = received.concluded();
    assert_eq!(concluded.len(), 2, "{concluded:?}");
    assert_eq!(concluded[0].0, "word1");
    assert_eq!(concluded[1].0, "word2");
    assert!(concluded[0].1 <= 20 && (1_180..=1_230).contains(&concluded[0].2), "{concluded:?}");
    assert!((2_180..=2_230).contains(&concluded[1].1) && (2_880..=2_930).contains(&concluded[1].2), "{concluded:?}");
    for target in targets {
        assert_eq!(received.targets(target), [format!("[{target}] word1"), format!("[{target}] word2")]);
    }
}

#[tokio::test]
async fn a_json_session_is_transcribed_translated_metered_and_ended_in_order() {
    let mut harness = Harness::start(|_| {}).await;
    let parameters = parameters("audio/pcm;encoding=s16le;rate=16000", "json", &["de", "fr"]);
    harness.doubles.session("t1", "s1", parameters, None);
    let mut client = harness.client("t1", false).await;
    let audio = le_bytes(&two_words(16_000));
    // 100 ms chunks, at about four times real time.
    stream(&mut client, &audio, 3_200, Duration::from_millis(25)).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;

    assert_eq!(received.wrong_frames, 0);
    assert!(received.error().is_none(), "{:?}", received.messages);
    assert_two_words(&received, &["de", "fr"]);
    assert_end_order(&received, &["de", "fr"]);
    assert_eq!(received.close.as_ref().map(|close| close.0), Some(1000));
    // Every millisecond of the 3.21 s is reported, once.
    assert_eq!(harness.doubles.usage_total("s1"), 3_210);
    assert_eq!(harness.doubles.ends(), [("s1".to_string(), 1, "completed".to_string())]);
    {
        let state = harness.doubles.state.lock().unwrap();
        assert_eq!(state.unauthorized, 0);
        // Auto mode sends no language; the spoken terms are the prompt.
        assert!(
            state
                .transcriptions
                .iter()
                .all(|(_, language, prompt)| { language.is_none() && prompt.as_deref() == Some("Glossa, Spin") })
        );
        // Word 1 was concluded mid-stream and its audio dropped: no window held the whole stream.
        assert!(state.transcriptions.len() >= 2);
        assert!(
            state.transcriptions.iter().all(|(milliseconds, _, _)| *milliseconds < 3_000),
            "{:?}",
            state.transcriptions
        );
        assert!(state.translations.iter().all(|(source, _, _)| source == "en"));
    }
    harness.stop().await;
}

#[tokio::test]
async fn a_msgpack_session_at_48_khz_works_the_same_with_binary_frames() {
    let mut harness = Harness::start(|_| {}).await;
    let mut parameters = parameters("audio/pcm;encoding=s16le;rate=48000", "msgpack", &["es"]);
    parameters["source_language_mode"] = json!("fixed");
    harness.doubles.session("t2", "s2", parameters, None);
    let mut client = harness.client("t2", true).await;
    let audio = le_bytes(&two_words(48_000));
    stream(&mut client, &audio, 9_600, Duration::from_millis(25)).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;

    assert_eq!(received.wrong_frames, 0);
    assert!(received.error().is_none(), "{:?}", received.messages);
    assert_two_words(&received, &["es"]);
    assert_end_order(&received, &["es"]);
    assert_eq!(harness.doubles.usage_total("s2"), 3_210);
    // Fixed mode forces the session's language.
    {
        let state = harness.doubles.state.lock().unwrap();
        assert!(state.transcriptions.iter().all(|(_, language, _)| language.as_deref() == Some("en")));
    }
    harness.stop().await;
}

#[tokio::test]
async fn mulaw_audio_is_decoded_and_upsampled() {
    let mut harness = Harness::start(|_| {}).await;
    harness.doubles.session("t3", "s3", parameters("audio/pcm;encoding=ulaw;rate=8000", "json", &[]), None);
    let mut client = harness.client("t3", false).await;
    // µ-law by the standard's encoder: sign, exponent and mantissa of the biased magnitude.
    let encode = |sample: i16| -> u8 {
        let sign = if sample < 0 { 0x80u8 } else { 0 };
        let magnitude = (i32::from(sample).abs().min(32_635) + 0x84) as u32;
        let exponent = (31 - magnitude.leading_zeros()).saturating_sub(7).min(7);
        let mantissa = ((magnitude >> (exponent + 3)) & 0x0f) as u8;
        !(sign | ((exponent as u8) << 4) | mantissa)
    };
    let audio: Vec<u8> = two_words(8_000).into_iter().map(encode).collect();
    stream(&mut client, &audio, 800, Duration::from_millis(25)).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    assert_eq!(received.concluded().iter().map(|word| word.0.as_str()).collect::<Vec<_>>(), ["word1", "word2"]);
    assert_end_order(&received, &[]);
    assert_eq!(harness.doubles.usage_total("s3"), 3_210);
    harness.stop().await;
}

/// Sends `send` (a raw WebSocket message) to a fresh session and returns the error it caused.
async fn error_for(
    harness: &Harness,
    token: &str,
    msgpack: bool,
    send: tokio_tungstenite::tungstenite::Message,
) -> serde_json::Value {
    use futures_util::SinkExt;
    let format = if msgpack { "msgpack" } else { "json" };
    harness.doubles.session(
        token,
        &format!("session-{token}"),
        parameters("audio/pcm;encoding=s16le;rate=16000", format, &[]),
        None,
    );
    let mut client = harness.client(token, msgpack).await;
    client.socket.send(send).await.expect("sent");
    let received = client.receive_all(WAIT).await;
    assert_eq!(received.messages.len(), 1, "{:?}", received.messages);
    // A frame over the WebSocket layer's own limit breaks the read side: the error still goes out,
    // the close frame may not.
    assert!(received.close.is_some() || token == "huge-frame", "closed with a close frame");
    received.error().cloned().expect("an error message")
}

#[tokio::test]
async fn protocol_violations_end_the_session_with_an_error() {
    use base64::Engine as _;
    use tokio_tungstenite::tungstenite::Message;
    let mut harness = Harness::start(|_| {}).await;
    let chunk = |bytes: &[u8]| {
        let data = base64::engine::general_purpose::STANDARD.encode(bytes);
        Message::text(json!({"source_media_chunk": {"data": data}}).to_string())
    };
    let cases = [
        ("wrong-type-json", false, Message::binary(vec![0x80]), 4_000_401),
        ("wrong-type-msgpack", true, Message::text("{}"), 4_000_401),
        ("bad-json", false, Message::text("{\"source_media_chunk\":"), 4_000_400),
        ("unknown", false, Message::text(r#"{"hello": {}}"#), 4_000_400),
        ("oversize", false, chunk(&vec![0; 102_402]), 4_000_402),
        ("too-long", false, chunk(&vec![0; 32_002]), 4_000_402),
        ("odd-bytes", false, chunk(&[0; 3_201]), 4_000_404),
        ("huge-frame", false, chunk(&vec![0; 1_200_000]), 4_000_402),
    ];
    for (token, msgpack, message, reason) in cases {
        let error = error_for(&harness, token, msgpack, message).await;
        assert_eq!(error["reason_code"], reason, "{token}: {error}");
        assert_eq!(error["error_code"], reason / 10_000, "{token}");
        assert!(error["error_message"].as_str().is_some_and(|text| !text.is_empty()));
        assert!(error["request_type"].is_string());
    }
    let ends = harness.doubles.ends();
    assert_eq!(ends.len(), 8);
    assert!(ends.iter().all(|end| end.2 == "error"), "{ends:?}");
    harness.stop().await;
}

#[tokio::test]
async fn a_message_after_the_end_is_an_error() {
    let mut harness = Harness::start(|settings| settings.segmenter.interval_ms = 60_000).await;
    harness.doubles.session("after", "s-after", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = harness.client("after", false).await;
    client.end().await;
    client.end().await;
    let received = client.receive_all(WAIT).await;
    // Either the stream already ended (nothing was sent) or the second end is refused.
    if let Some(error) = received.error() {
        assert_eq!(error["reason_code"], 4_000_405);
    } else {
        assert_end_order(&received, &[]);
    }
    harness.stop().await;
}

#[tokio::test]
async fn streaming_faster_than_twice_real_time_is_refused() {
    let mut harness = Harness::start(|settings| settings.limits.speed_slack_ms = 1_000).await;
    harness.doubles.session("fast", "s-fast", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = harness.client("fast", false).await;
    // Ten seconds of audio at once.
    stream(&mut client, &vec![0; 320_000], 16_000, Duration::ZERO).await;
    let received = client.receive_all(WAIT).await;
    let error = received.error().expect("an error");
    assert_eq!(error["reason_code"], 4_290_401);
    assert_eq!(error["error_code"], 429);
    harness.stop().await;
}

#[tokio::test]
async fn streaming_at_real_time_within_the_slack_is_accepted() {
    let mut harness = Harness::start(|settings| settings.limits.speed_slack_ms = 1_000).await;
    harness.doubles.session("paced", "s-paced", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = harness.client("paced", false).await;
    // 2 s of audio as 250 ms chunks every 125 ms: exactly twice real time.
    stream(&mut client, &vec![0; 64_000], 8_000, Duration::from_millis(125)).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    assert_eq!(harness.doubles.usage_total("s-paced"), 2_000);
    harness.stop().await;
}

#[tokio::test]
async fn a_silent_client_times_out() {
    let mut harness = Harness::start(|settings| settings.limits.idle_timeout = Duration::from_millis(400)).await;
    harness.doubles.session("idle", "s-idle", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = harness.client("idle", false).await;
    client.chunk(&[0; 3_200]).await;
    let received = client.receive_all(WAIT).await;
    let error = received.error().expect("an error");
    assert_eq!(error["reason_code"], 4_080_401);
    assert_eq!(harness.doubles.ends(), [("s-idle".to_string(), 1, "timeout".to_string())]);
    assert_eq!(harness.doubles.usage_total("s-idle"), 100);
    harness.stop().await;
}

#[tokio::test]
async fn a_connection_is_closed_at_its_time_limit() {
    let mut harness = Harness::start(|settings| settings.limits.max_connection = Duration::from_millis(500)).await;
    harness.doubles.session("hour", "s-hour", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = harness.client("hour", false).await;
    client.chunk(&[0; 3_200]).await;
    let received = client.receive_all(WAIT).await;
    assert!(received.error().is_none());
    let (code, reason) = received.close.expect("a close frame");
    assert_eq!(code, 1000);
    assert!(reason.contains("reconnect"), "{reason}");
    assert_eq!(harness.doubles.ends(), [("s-hour".to_string(), 1, "closed".to_string())]);
    harness.stop().await;
}

#[tokio::test]
async fn refused_claims_are_answered_inside_the_websocket() {
    let mut harness = Harness::start(|_| {}).await;
    {
        let mut state = harness.doubles.state.lock().unwrap();
        state.claims.insert("reused".into(), (409, json!({"message": "reused", "code": "token_reused"})));
        state.claims.insert("outdated".into(), (409, json!({"message": "outdated", "code": "token_outdated"})));
        state.claims.insert("ended".into(), (409, json!({"message": "ended", "code": "session_ended"})));
        state.claims.insert("broken".into(), (500, json!({"message": "boom"})));
    }
    for (token, reason) in [
        ("unknown", 4_010_401),
        ("reused", 4_030_401),
        ("outdated", 4_030_402),
        ("ended", 4_030_403),
        ("broken", 5_000_401),
    ] {
        let mut client = harness.client(token, false).await;
        let received = client.receive_all(WAIT).await;
        assert_eq!(received.messages.len(), 1, "{token}");
        assert_eq!(received.error().expect("an error")["reason_code"], reason, "{token}");
        assert!(received.close.is_some());
    }
    // No session, so nothing to end.
    assert!(harness.doubles.ends().is_empty());
    harness.stop().await;
}

#[tokio::test]
async fn the_speech_limit_ends_the_session_with_456() {
    let mut harness = Harness::start(|settings| settings.meter.every_ms = 500).await;
    harness.doubles.state.lock().unwrap().limit_ms = Some(1_500);
    harness.doubles.session(
        "limit",
        "s-limit",
        parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]),
        Some(1_500),
    );
    let mut client = harness.client("limit", false).await;
    stream(&mut client, &vec![0; 160_000], 3_200, Duration::from_millis(10)).await;
    let received = client.receive_all(WAIT).await;
    let error = received.error().expect("an error");
    assert_eq!(error["error_code"], 456);
    assert_eq!(error["reason_code"], 4_560_401);
    assert_eq!(harness.doubles.ends(), [("s-limit".to_string(), 1, "error".to_string())]);
    harness.stop().await;
}

#[tokio::test]
async fn a_superseded_connection_closes_normally() {
    let mut harness = Harness::start(|settings| settings.meter.every_ms = 300).await;
    harness.doubles.state.lock().unwrap().supersede_from = Some(2);
    harness.doubles.session("old", "s-old", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = harness.client("old", false).await;
    stream(&mut client, &vec![0; 64_000], 3_200, Duration::from_millis(10)).await;
    let received = client.receive_all(WAIT).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    let (code, reason) = received.close.expect("a close frame");
    assert_eq!(code, 1000);
    assert!(reason.contains("superseded"), "{reason}");
    harness.stop().await;
}

#[tokio::test]
async fn usage_reports_add_up_to_the_audio_and_are_sequenced() {
    let mut harness = Harness::start(|settings| settings.meter.every_ms = 700).await;
    harness.doubles.session("meter", "s-meter", parameters("audio/pcm;encoding=s16le;rate=44100", "json", &[]), None);
    let mut client = harness.client("meter", false).await;
    // 2.5 s and 13 frames at 44.1 kHz, in chunks of 4410 frames (100 ms) and a remainder.
    let frames = 110_250 + 13;
    stream(&mut client, &vec![0; frames * 2], 8_820, Duration::from_millis(5)).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    {
        let state = harness.doubles.state.lock().unwrap();
        let sequences: Vec<u64> = state.usage.iter().map(|report| report.2).collect();
        assert_eq!(sequences, (1..=sequences.len() as u64).collect::<Vec<_>>());
        assert!(sequences.len() >= 3, "{:?}", state.usage);
        assert_eq!(state.usage.iter().map(|report| report.3).sum::<u64>(), (frames as u64 * 1000) / 44_100);
    }
    harness.stop().await;
}

#[tokio::test]
async fn a_missing_speech_model_is_a_503_error() {
    let mut harness = Harness::start(|_| {}).await;
    harness.doubles.state.lock().unwrap().transcribe_status = Some(404);
    harness.doubles.session(
        "nomodel",
        "s-nomodel",
        parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]),
        None,
    );
    let mut client = harness.client("nomodel", false).await;
    stream(&mut client, &vec![0; 40_000], 3_200, Duration::from_millis(5)).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;
    assert_eq!(received.error().expect("an error")["reason_code"], 5_030_401);
    harness.stop().await;
}

#[tokio::test]
async fn an_unsupported_content_type_is_refused() {
    let mut harness = Harness::start(|_| {}).await;
    harness.doubles.session("wav", "s-wav", parameters("audio/wav", "json", &[]), None);
    let mut client = harness.client("wav", false).await;
    let received = client.receive_all(WAIT).await;
    assert_eq!(received.error().expect("an error")["reason_code"], 4_000_403);
    harness.stop().await;
}

#[tokio::test]
async fn malformed_upgrades_get_plain_http_errors_and_health_answers() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut harness = Harness::start(|settings| settings.path_prefix = "/voice".to_string()).await;
    let address = harness.gateway;
    let ask = |request: String| async move {
        let mut stream = tokio::net::TcpStream::connect(address).await.expect("connected");
        stream.write_all(request.as_bytes()).await.expect("sent");
        let mut answer = String::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer)).await;
        answer
    };
    let plain =
        "GET /voice/v3/voice/realtime/connect?token=x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_string();
    let answer = ask(plain).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    let no_token = "GET /voice/v1/voice/realtime/connect HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".to_string();
    let answer = ask(no_token).await;
    assert!(answer.starts_with("HTTP/1.1 400") && answer.contains("token"), "{answer}");
    let health = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_string();
    let answer = ask(health).await;
    assert!(answer.starts_with("HTTP/1.1 200") && answer.contains(r#""status":"ok""#), "{answer}");
    let unprefixed =
        "GET /v3/voice/realtime/connect?token=x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_string();
    let answer = ask(unprefixed).await;
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");

    // The prefixed path serves WebSockets, on v1 too.
    harness.doubles.session("v1", "s-v1", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = connect(address, "/voice/v1/voice/realtime/connect", "v1", false).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;
    assert_end_order(&received, &[]);
    harness.stop().await;
}

#[tokio::test]
async fn stopping_closes_live_sessions_after_their_final_report() {
    let mut harness = Harness::start(|_| {}).await;
    harness.doubles.session("live", "s-live", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &[]), None);
    let mut client = harness.client("live", false).await;
    stream(&mut client, &vec![0; 8_000], 3_200, Duration::ZERO).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    harness.stop().await;
    let received = client.receive_all(WAIT).await;
    assert_eq!(received.close.as_ref().map(|close| close.0), Some(1001));
    assert_eq!(harness.doubles.usage_total("s-live"), 250);
    assert_eq!(harness.doubles.ends(), [("s-live".to_string(), 1, "closed".to_string())]);
}

/// The segmenting rule over the socket: a word still being spoken is tentative; once a pause follows it,
/// it is concluded (once) and translated, and the next update no longer carries it.
#[tokio::test]
async fn a_word_is_tentative_until_a_pause_follows_it() {
    let mut harness = Harness::start(|_| {}).await;
    harness.doubles.session("seg", "s-seg", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &["de"]), None);
    let mut client = harness.client("seg", false).await;
    // 1.2 s of word 3, loud to the end: the recognition after the first second sees it unfinished.
    stream(&mut client, &le_bytes(&speech(&[(3, 1_200)], 16_000)), 3_200, Duration::ZERO).await;
    let first = client.next_message(WAIT).await.expect("an update");
    let update = &first["source_transcript_update"];
    assert_eq!(update["concluded"], json!([]), "{first}");
    assert_eq!(update["tentative"][0]["text"], "word3", "{first}");
    assert_eq!(update["tentative"][0]["start_time"], 0);
    // Translating is cheap here: the tentative source has a tentative translation.
    let tentative = client.next_message(WAIT).await.expect("a target update");
    let target = &tentative["target_transcript_update"];
    assert_eq!((target["language"].as_str(), &target["concluded"]), (Some("de"), &json!([])), "{tentative}");
    assert_eq!(target["tentative"], json!([{"text": "[de] word3", "start_time": 0, "end_time": 1_200}]));
    // A second of silence: the gateway hears the pause and concludes the word.
    stream(&mut client, &le_bytes(&speech(&[(0, 1_000)], 16_000)), 3_200, Duration::ZERO).await;
    let mut concluded = None;
    while concluded.is_none() {
        let message = client.next_message(WAIT).await.expect("an update");
        if let Some(update) = message.get("source_transcript_update")
            && let Some(segment) = update["concluded"].as_array().and_then(|segments| segments.first())
        {
            assert_eq!(update["tentative"], json!([]));
            concluded = Some(segment.clone());
        }
    }
    let segment = concluded.expect("concluded");
    assert_eq!(segment["text"], "word3");
    assert_eq!((segment["start_time"].as_u64(), segment["end_time"].as_u64()), (Some(0), Some(1_200)));
    let translated = client.next_message(WAIT).await.expect("a target update");
    assert_eq!(translated["target_transcript_update"]["language"], "de");
    assert_eq!(translated["target_transcript_update"]["concluded"][0]["text"], "[de] word3");
    assert_eq!(translated["target_transcript_update"]["concluded"][0]["end_time"], 1_200);
    assert_eq!(translated["target_transcript_update"]["tentative"], json!([]));
    client.end().await;
    let rest = client.receive_all(WAIT).await;
    assert!(rest.concluded().is_empty(), "{:?}", rest.messages);
    assert_end_order(&rest, &["de"]);
    harness.stop().await;
}

/// With no budget for tentative translations, targets follow concluded segments only.
#[tokio::test]
async fn tentative_targets_can_be_switched_off() {
    let mut harness = Harness::start(|settings| settings.tentative_budget = Duration::ZERO).await;
    harness.doubles.session("off", "s-off", parameters("audio/pcm;encoding=s16le;rate=16000", "json", &["de"]), None);
    let mut client = harness.client("off", false).await;
    stream(&mut client, &le_bytes(&speech(&[(3, 1_200)], 16_000)), 3_200, Duration::ZERO).await;
    let first = client.next_message(WAIT).await.expect("an update");
    assert_eq!(first["source_transcript_update"]["tentative"][0]["text"], "word3", "{first}");
    stream(&mut client, &le_bytes(&speech(&[(0, 1_000)], 16_000)), 3_200, Duration::ZERO).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;
    let targets: Vec<&serde_json::Value> =
        received.messages.iter().filter_map(|message| message.get("target_transcript_update")).collect();
    assert_eq!(targets.len(), 1, "{:?}", received.messages);
    assert_eq!(targets[0]["concluded"][0]["text"], "[de] word3");
    assert_eq!(targets[0]["tentative"], json!([]));
    harness.stop().await;
}

/// Session parameters with translated speech into German in `content_type`.
fn speech_parameters(format: &str, content_type: &str, voice: Option<&str>) -> serde_json::Value {
    let mut parameters = parameters("audio/pcm;encoding=s16le;rate=16000", format, &["fr", "de"]);
    parameters["target_media_languages"] = json!(["de"]);
    parameters["target_media_content_type"] = json!(content_type);
    parameters["target_media_voice"] = json!(voice);
    parameters
}

fn installed(program: &str) -> bool {
    std::process::Command::new(program).arg("-version").output().is_ok()
}

/// A `target_media_chunk`'s packets (base64 strings in json, byte arrays once msgpack is read as JSON).
fn packets(chunk: &serde_json::Value) -> Vec<Vec<u8>> {
    use base64::Engine as _;
    chunk["data"]
        .as_array()
        .expect("data is an array")
        .iter()
        .map(|packet| match packet {
            serde_json::Value::String(text) => {
                base64::engine::general_purpose::STANDARD.decode(text).expect("base64 packet")
            }
            serde_json::Value::Array(bytes) => bytes.iter().map(|byte| byte.as_u64().expect("a byte") as u8).collect(),
            other => panic!("a packet of the wrong type: {other}"),
        })
        .collect()
}

/// Decodes a stream with ffmpeg: its length in ms, and ffprobe's format and codec names.
fn decode_stream(bytes: &[u8], input: &[&str], name: &str) -> (u64, String) {
    let path = std::env::temp_dir().join(format!("voice-gateway-speech-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).expect("the stream written");
    let decoded = std::process::Command::new("ffmpeg")
        .args(["-hide_banner", "-nostdin", "-v", "error"])
        .args(input)
        .arg("-i")
        .arg(&path)
        .args(["-ac", "1", "-ar", "16000", "-f", "s16le", "-"])
        .output()
        .expect("ffmpeg ran");
    assert!(decoded.status.success(), "ffmpeg cannot decode it: {}", String::from_utf8_lossy(&decoded.stderr));
    let probe = std::process::Command::new("ffprobe")
        .args(["-v", "error", "-show_entries", "format=format_name:stream=codec_name", "-of", "compact"])
        .args(input)
        .arg(&path)
        .output()
        .expect("ffprobe ran");
    let _ = std::fs::remove_file(&path);
    (decoded.stdout.len() as u64 / 32, String::from_utf8_lossy(&probe.stdout).into_owned())
}

/// Streams two words with speech into German in `content_type`, and checks the chunks, their order,
/// the stream they make and the end messages.
async fn speech_is_streamed(content_type: &str, msgpack: bool, input: &[&str], expected: &[&str], magic: &[u8]) {
    if !installed("ffmpeg") || !installed("ffprobe") || !installed("espeak-ng") {
        eprintln!("skipped: ffmpeg, ffprobe or espeak-ng is not installed");
        return;
    }
    let mut harness = Harness::start(|_| {}).await;
    let format = if msgpack { "msgpack" } else { "json" };
    harness.doubles.session("t1", "s1", speech_parameters(format, content_type, Some("female")), None);
    let mut client = harness.client("t1", msgpack).await;
    let audio = le_bytes(&two_words(16_000));
    stream(&mut client, &audio, 3_200, Duration::from_millis(25)).await;
    client.end().await;
    let received = client.receive_all(Duration::from_secs(90)).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    assert_two_words(&received, &["fr", "de"]);

    // Every chunk follows the German update whose text it speaks; the first names the format.
    let mut spoken = Vec::new();
    let mut chunks = Vec::new();
    for message in &received.messages {
        if let Some(update) = message.get("target_transcript_update").filter(|update| update["language"] == "de") {
            spoken.extend(update["concluded"].as_array().unwrap().iter().map(|segment| segment["text"].clone()));
        }
        if let Some(chunk) = message.get("target_media_chunk") {
            assert_eq!(chunk["language"], "de");
            if !chunk["text"].is_null() {
                assert!(spoken.contains(&chunk["text"]), "a chunk before its update: {chunk}");
            }
            chunks.push(chunk.clone());
        }
    }
    let texts: Vec<&serde_json::Value> =
        chunks.iter().map(|chunk| &chunk["text"]).filter(|text| !text.is_null()).collect();
    assert_eq!(texts, [&json!("[de] word1"), &json!("[de] word2")]);
    assert_eq!(chunks[0]["content_type"], content_type);
    let headers = chunks[0]["headers"].as_u64().expect("headers on the first chunk");
    assert!(chunks[1..].iter().all(|chunk| chunk.get("content_type").is_none() && chunk.get("headers").is_none()));

    // The packets, concatenated, are one stream as long as the durations say.
    let all: Vec<Vec<u8>> = chunks.iter().flat_map(packets).collect();
    let first = packets(&chunks[0]);
    assert!(headers as usize <= first.len());
    if magic.is_empty() {
        assert_eq!(headers, 0, "a format without a header");
    } else {
        assert_eq!(headers, 1, "the container's header is one packet");
        assert!(first[0].starts_with(magic), "the first packet starts the container");
        eprintln!("{content_type}: header of {} bytes, {} packets in the first chunk", first[0].len(), first.len());
    }
    let bytes: Vec<u8> = all.concat();
    let announced: u64 = chunks.iter().map(|chunk| chunk["duration"].as_u64().expect("a duration")).sum();
    assert!(announced > 500, "{announced} ms of speech");
    let (decoded_ms, probe) = decode_stream(&bytes, input, &content_type.replace(['/', ';', '='], "_"));
    let tolerance = (announced / 20).max(100);
    assert!(decoded_ms.abs_diff(announced) <= tolerance, "decoded {decoded_ms} ms, announced {announced} ms");
    for name in expected {
        assert!(probe.contains(name), "{probe}");
    }

    let names = received.names();
    let tail: Vec<&str> = names.iter().map(String::as_str).skip_while(|name| !name.starts_with("end_of")).collect();
    assert_eq!(
        tail,
        [
            "end_of_source_transcript",
            "end_of_target_transcript",
            "end_of_target_transcript",
            "end_of_target_media",
            "end_of_stream"
        ],
        "{names:?}"
    );
    let media_end = received.messages.iter().find_map(|message| message.get("end_of_target_media")).unwrap();
    assert_eq!(media_end, &json!({"language": "de"}));
    assert_eq!(received.close.as_ref().map(|close| close.0), Some(1000));
    harness.stop().await;
}

#[tokio::test]
async fn translated_speech_streams_as_one_webm_opus_file() {
    speech_is_streamed("audio/webm;codecs=opus", false, &[], &["matroska,webm", "opus"], &[0x1a, 0x45, 0xdf, 0xa3])
        .await;
}

#[tokio::test]
async fn translated_speech_streams_as_pcm_at_24_khz_in_msgpack() {
    speech_is_streamed(
        "audio/pcm;encoding=s16le;rate=24000",
        true,
        &["-f", "s16le", "-ar", "24000", "-ac", "1"],
        &["s16le"],
        &[],
    )
    .await;
}

#[tokio::test]
async fn translated_speech_streams_as_ogg_opus() {
    speech_is_streamed("audio/ogg;codecs=opus", false, &[], &["ogg", "opus"], b"OggS").await;
}

#[tokio::test]
async fn translated_speech_streams_as_flac_in_msgpack() {
    speech_is_streamed("audio/flac", true, &[], &["flac"], b"fLaC").await;
}

#[tokio::test]
async fn translated_speech_streams_as_mpeg_ts_with_aac() {
    speech_is_streamed("video/mp2t;codecs=aac", false, &[], &["mpegts", "aac"], &[]).await;
}

#[tokio::test]
async fn a_missing_synthesiser_ends_the_session_with_an_error() {
    let mut harness = Harness::start(|settings| settings.espeak = "/nonexistent/espeak-ng".to_string()).await;
    harness.doubles.session("t1", "s1", speech_parameters("json", "audio/webm;codecs=opus", None), None);
    let mut client = harness.client("t1", false).await;
    let audio = le_bytes(&two_words(16_000));
    stream(&mut client, &audio, 3_200, Duration::from_millis(25)).await;
    client.end().await;
    let received = client.receive_all(WAIT).await;
    let error = received.error().expect("an error message");
    assert_eq!(error["error_code"], 500);
    assert_eq!(error["reason_code"], 5000402);
    assert_eq!(received.close.as_ref().map(|close| close.0), Some(1011));
    harness.stop().await;
}

/// Session parameters with translated speech into American English (and text into French).
fn english_speech_parameters(voice: Option<&str>) -> serde_json::Value {
    let mut parameters = parameters("audio/pcm;encoding=s16le;rate=16000", "json", &["fr", "EN-US"]);
    parameters["target_media_languages"] = json!(["EN-US"]);
    parameters["target_media_content_type"] = json!("audio/webm;codecs=opus");
    parameters["target_media_voice"] = json!(voice);
    parameters
}

/// The doubles' male American English voice, at 16 kHz (espeak-ng speaks at 22,050 Hz).
fn piper_voice() -> serde_json::Value {
    json!({"name": "en_US-test-medium", "language": "en-us", "sample_rate": 16000, "gender": "male"})
}

/// Streams two words into a session with `parameters`: the messages, and the chunks' texts and durations.
async fn speak_two_words(harness: &Harness, parameters: serde_json::Value) -> (Received, Vec<(String, u64)>) {
    harness.doubles.session("t1", "s1", parameters, None);
    let mut client = harness.client("t1", false).await;
    stream(&mut client, &le_bytes(&two_words(16_000)), 3_200, Duration::from_millis(25)).await;
    client.end().await;
    let received = client.receive_all(Duration::from_secs(90)).await;
    let spoken = received
        .messages
        .iter()
        .filter_map(|message| message.get("target_media_chunk"))
        .filter(|chunk| !chunk["text"].is_null())
        .map(|chunk| (chunk["text"].as_str().unwrap().to_string(), chunk["duration"].as_u64().unwrap()))
        .collect();
    (received, spoken)
}

#[tokio::test]
async fn a_language_with_a_piper_voice_is_spoken_by_the_inference_service() {
    if !installed("ffmpeg") || !installed("ffprobe") {
        eprintln!("skipped: ffmpeg or ffprobe is not installed");
        return;
    }
    let mut harness = Harness::start(|_| {}).await;
    harness.doubles.state.lock().unwrap().voices = vec![piper_voice()];
    let (received, spoken) = speak_two_words(&harness, english_speech_parameters(None)).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    // The service's voice spoke each translation (50 ms a character: 13 characters, 650 ms each).
    let texts = ["[EN-US] word1", "[EN-US] word2"];
    assert_eq!(spoken, texts.map(|text| (text.to_string(), 650)));
    let syntheses = harness.doubles.state.lock().unwrap().syntheses.clone();
    assert_eq!(syntheses, texts.map(|text| ("en_US-test-medium".to_string(), text.to_string())));
    assert_eq!(harness.doubles.state.lock().unwrap().unauthorized, 0);
    // Its 16 kHz speech is encoded into one WebM/Opus stream as long as the durations say.
    let chunks: Vec<&serde_json::Value> =
        received.messages.iter().filter_map(|message| message.get("target_media_chunk")).collect();
    let bytes: Vec<u8> = chunks.iter().flat_map(|chunk| packets(chunk)).collect::<Vec<_>>().concat();
    let (decoded_ms, probe) = decode_stream(&bytes, &[], "piper.webm");
    assert!(decoded_ms.abs_diff(1_300) <= 100, "decoded {decoded_ms} ms");
    assert!(probe.contains("opus"), "{probe}");
    assert_eq!(received.close.as_ref().map(|close| close.0), Some(1000));
    harness.stop().await;
}

#[tokio::test]
async fn a_female_voice_or_an_unreachable_service_leaves_english_to_espeak() {
    if !installed("ffmpeg") || !installed("espeak-ng") {
        eprintln!("skipped: ffmpeg or espeak-ng is not installed");
        return;
    }
    // The only Piper voice is male: a female voice is espeak-ng's.
    let mut harness = Harness::start(|_| {}).await;
    harness.doubles.state.lock().unwrap().voices = vec![piper_voice()];
    let (received, spoken) = speak_two_words(&harness, english_speech_parameters(Some("female"))).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    assert_eq!(spoken.len(), 2, "{spoken:?}");
    assert!(spoken.iter().all(|(_, duration)| *duration != 650 && *duration > 0), "{spoken:?}");
    assert!(harness.doubles.state.lock().unwrap().syntheses.is_empty());
    harness.stop().await;

    // A service that does not answer: espeak-ng speaks, the session goes on.
    let mut harness = Harness::start(|settings| {
        settings.voices = Some(Arc::new(Voices::new("http://127.0.0.1:9", INFERENCE_SECRET)));
    })
    .await;
    let (received, spoken) = speak_two_words(&harness, english_speech_parameters(None)).await;
    assert!(received.error().is_none(), "{:?}", received.messages);
    assert_eq!(spoken.len(), 2, "{spoken:?}");
    harness.stop().await;
}

#[tokio::test]
async fn a_failing_piper_voice_ends_the_session_with_an_error_after_one_retry() {
    let mut harness = Harness::start(|_| {}).await;
    {
        let mut state = harness.doubles.state.lock().unwrap();
        state.voices = vec![piper_voice()];
        state.synthesize_status = Some(500);
    }
    let (received, _) = speak_two_words(&harness, english_speech_parameters(Some("male"))).await;
    let error = received.error().expect("an error message");
    assert_eq!((error["error_code"].as_u64(), error["reason_code"].as_u64()), (Some(500), Some(5000402)));
    assert_eq!(received.close.as_ref().map(|close| close.0), Some(1011));
    assert_eq!(harness.doubles.state.lock().unwrap().syntheses.len(), 2);
    harness.stop().await;
}
