//! Container formats through the ffmpeg path: an ogg/opus stream made by ffmpeg itself is decoded,
//! recognised and metered; a corrupt stream ends with the unsupported-format error, never a dropped
//! socket. Skipped, saying why, when ffmpeg is not installed.

mod support;

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use std::io::Write as _;
use support::*;
use tokio::net::TcpListener;
use voice_gateway::broker::Broker;
use voice_gateway::client::JsonClient;
use voice_gateway::recognizer::Recognizer;
use voice_gateway::server::{Gateway, Settings, serve};

fn ffmpeg_missing() -> bool {
    let missing = Command::new("ffmpeg").arg("-version").stdout(Stdio::null()).status().is_err();
    if missing {
        eprintln!("skipped: ffmpeg is not installed (Debian package `ffmpeg`)");
    }
    missing
}

/// Encodes 16 kHz mono samples as ogg/opus with ffmpeg.
fn ogg_opus(samples: &[i16]) -> Vec<u8> {
    let mut child = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-f", "s16le", "-ar", "16000", "-ac", "1", "-i", "pipe:0"])
        .args(["-c:a", "libopus", "-b:a", "48k", "-f", "ogg", "pipe:1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ffmpeg runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = le_bytes(samples);
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("ffmpeg finished");
    writer.join().expect("no panic").expect("written");
    assert!(output.status.success(), "ffmpeg encoded");
    output.stdout
}

async fn gateway(doubles: &Doubles) -> std::net::SocketAddr {
    let mut settings = Settings::default();
    settings.limits.speed_slack_ms = 60_000;
    let broker = Broker::new(JsonClient::new(&doubles.url(), SECRET, Duration::from_secs(5)));
    let recognizer = Recognizer::inference(JsonClient::new(&doubles.url(), INFERENCE_SECRET, Duration::from_secs(5)));
    let gateway = Arc::new(Gateway::new(broker, recognizer, settings));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("an address");
    tokio::spawn(serve(listener, gateway, std::future::pending()));
    address
}

#[tokio::test]
async fn an_ogg_opus_stream_is_decoded_by_ffmpeg() {
    if ffmpeg_missing() {
        return;
    }
    let doubles = Doubles::start().await;
    let address = gateway(&doubles).await;
    let audio = ogg_opus(&speech(&[(1, 1_200), (0, 1_000), (2, 700), (0, 500)], 16_000));
    for (token, format, msgpack) in [("ogg-json", "json", false), ("ogg-msgpack", "msgpack", true)] {
        doubles.session(token, token, parameters("audio/ogg;codecs=opus", format, &["de"]), None);
        let mut client = connect(address, "/v3/voice/realtime/connect", token, msgpack).await;
        stream(&mut client, &audio, 2_000, Duration::from_millis(20)).await;
        client.end().await;
        let received = client.receive_all(Duration::from_secs(30)).await;
        assert!(received.error().is_none(), "{:?}", received.messages);
        let concluded = received.concluded();
        let words: Vec<&str> = concluded.iter().map(|word| word.0.as_str()).collect();
        assert_eq!(words, ["word1", "word2"], "{concluded:?}");
        // Opus is lossy and its frames are 20 ms: the times are close to the source's.
        assert!(concluded[0].1 <= 40 && concluded[0].2.abs_diff(1_200) <= 60, "{concluded:?}");
        assert!(concluded[1].1.abs_diff(2_200) <= 60 && concluded[1].2.abs_diff(2_900) <= 60, "{concluded:?}");
        assert_eq!(received.targets("de"), ["[de] word1", "[de] word2"]);
        let names = received.names();
        assert_eq!(names[names.len() - 3..], ["end_of_source_transcript", "end_of_target_transcript", "end_of_stream"]);
        // Metered from the decoded samples: the 3.4 s encoded.
        assert!(doubles.usage_total(token).abs_diff(3_400) <= 40, "{}", doubles.usage_total(token));
        assert_eq!(doubles.ends().last().map(|end| end.2.clone()), Some("completed".to_string()));
    }
}

#[tokio::test]
async fn a_corrupt_stream_is_an_unsupported_format_error() {
    if ffmpeg_missing() {
        return;
    }
    let doubles = Doubles::start().await;
    let address = gateway(&doubles).await;
    doubles.session("corrupt", "corrupt", parameters("audio/ogg;codecs=opus", "json", &[]), None);
    let mut client = connect(address, "/v3/voice/realtime/connect", "corrupt", false).await;
    let garbage: Vec<u8> = (0..40_000u32).map(|n| (n.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    stream(&mut client, &garbage, 4_000, Duration::from_millis(10)).await;
    client.end().await;
    let received = client.receive_all(Duration::from_secs(30)).await;
    let error = received.error().expect("an error message, not a dropped socket");
    assert_eq!(error["reason_code"], 4_000_403);
    assert_eq!(error["error_code"], 400);
    assert_eq!(doubles.ends().last().map(|end| end.2.clone()), Some("error".to_string()));
}
