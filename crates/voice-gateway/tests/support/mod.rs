//! Test-only doubles of the two services the gateway calls, and a WebSocket client.
//!
//! `Doubles` is one small hyper server answering both contracts: the application's internal voice
//! routes (claim, usage, translate, end) and the inference service's `POST /v1/speech/transcribe`. Its
//! recogniser is scripted by the audio itself: a "word" is a run of loud audio, and its loudness names it
//! (peak ≈ 4000·k → the text `wordk`), so the tests build speech from words and silences and know exactly
//! what the recogniser will say and when. Its voices (`GET /v1/speech/voices`, `POST /v1/speech/synthesize`)
//! speak [`VOICE_MS_PER_CHARACTER`] of a tone per character of the text, at the voice's rate, so a test
//! knows how long the speech of a text is. `openai::FakeOpenAi` answers an OpenAI-compatible
//! `POST /v1/audio/transcriptions` from the same script.

#![allow(dead_code)]

pub mod openai;

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const SECRET: &str = "gateway-test-secret";
pub const INFERENCE_SECRET: &str = "inference-test-secret";

/// How long the doubles' voices speak per character of text.
pub const VOICE_MS_PER_CHARACTER: u64 = 50;

/// The loudness step between two words' names.
pub const WORD_STEP: i16 = 4_000;

/// What the doubles were asked, and how they answer.
#[derive(Default)]
pub struct State {
    /// token → the claim answer (status, body).
    pub claims: HashMap<String, (u16, Value)>,
    pub claimed: Vec<String>,
    /// Every usage report: (session, connection, sequence, milliseconds).
    pub usage: Vec<(String, u64, u64, u64)>,
    /// 456 once the recorded milliseconds would pass this.
    pub limit_ms: Option<u64>,
    /// 409 superseded from this report number on (1-based).
    pub supersede_from: Option<usize>,
    /// Every translate request: (source, target, texts).
    pub translations: Vec<(String, String, Vec<String>)>,
    /// Every end: (session, connection, reason).
    pub ends: Vec<(String, u64, String)>,
    /// Every transcribe request: (milliseconds of audio, language, prompt).
    pub transcriptions: Vec<(u64, Option<String>, Option<String>)>,
    /// A status for every transcribe request (404: no model).
    pub transcribe_status: Option<u16>,
    /// The voices `GET /v1/speech/voices` lists (`{"name", "language", "sample_rate", "gender"}`).
    pub voices: Vec<Value>,
    /// Every synthesize request: (voice, text).
    pub syntheses: Vec<(String, String)>,
    /// A status for every synthesize request.
    pub synthesize_status: Option<u16>,
    /// Requests with a wrong secret.
    pub unauthorized: usize,
}

/// The doubles' server.
pub struct Doubles {
    pub address: SocketAddr,
    pub state: Arc<Mutex<State>>,
}

impl Doubles {
    pub async fn start() -> Doubles {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port for the doubles");
        let address = listener.local_addr().expect("an address");
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { return };
                let state = shared.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |request| {
                        let state = state.clone();
                        async move { Ok::<_, Infallible>(answer(&state, request).await) }
                    });
                    let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
                });
            }
        });
        Doubles { address, state }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Registers a token whose claim succeeds with these parameters.
    pub fn session(&self, token: &str, session_id: &str, parameters: Value, remaining_ms: Option<u64>) {
        let body =
            json!({"session_id": session_id, "connection": 1, "parameters": parameters, "remaining_ms": remaining_ms});
        self.state.lock().unwrap().claims.insert(token.to_string(), (200, body));
    }

    pub fn usage_total(&self, session_id: &str) -> u64 {
        self.state.lock().unwrap().usage.iter().filter(|report| report.0 == session_id).map(|report| report.3).sum()
    }

    pub fn ends(&self) -> Vec<(String, u64, String)> {
        self.state.lock().unwrap().ends.clone()
    }
}

/// Session parameters as the broker returns them.
pub fn parameters(content_type: &str, format: &str, targets: &[&str]) -> Value {
    json!({
        "source_media_content_type": content_type, "message_format": format, "source_language": "en",
        "source_language_mode": "auto", "target_languages": targets, "target_media_languages": [],
        "target_media_content_type": "audio/webm;codecs=opus", "target_media_voice": null,
        "formality": "default", "glossary_id": null, "spoken_terms": ["Glossa", "Spin"],
    })
}

fn reply(status: u16, body: Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = StatusCode::from_u16(status).expect("a status");
    response
}

async fn answer(state: &Mutex<State>, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let path = request.uri().path().to_string();
    let authorization =
        request.headers().get("authorization").and_then(|value| value.to_str().ok()).map(str::to_string);
    let body = request.into_body().collect().await.expect("a body").to_bytes();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let expected = if path.starts_with("/v1/speech") { INFERENCE_SECRET } else { SECRET };
    let mut state = state.lock().unwrap();
    if authorization.as_deref() != Some(&format!("Bearer {expected}")) {
        state.unauthorized += 1;
        return reply(401, json!({"message": "bad secret"}));
    }
    match path.as_str() {
        "/internal/voice/claim" => {
            let token = body["token"].as_str().unwrap_or_default().to_string();
            state.claimed.push(token.clone());
            match state.claims.get(&token) {
                Some((status, body)) => reply(*status, body.clone()),
                None => reply(404, json!({"message": "unknown token"})),
            }
        }
        "/internal/voice/usage" => {
            let session = body["session_id"].as_str().unwrap_or_default().to_string();
            let connection = body["connection"].as_u64().unwrap_or_default();
            let sequence = body["sequence"].as_u64().unwrap_or_default();
            let milliseconds = body["milliseconds"].as_u64().unwrap_or_default();
            if state.usage.iter().any(|report| report.0 == session && report.1 == connection && report.2 == sequence) {
                return reply(200, json!({"remaining_ms": null}));
            }
            if state.supersede_from.is_some_and(|from| state.usage.len() + 1 >= from) {
                return reply(409, json!({"message": "superseded", "code": "superseded"}));
            }
            let total: u64 = state.usage.iter().map(|report| report.3).sum::<u64>() + milliseconds;
            state.usage.push((session, connection, sequence, milliseconds));
            match state.limit_ms {
                Some(limit) if total >= limit => {
                    reply(456, json!({"message": "Quota for this billing period has been exceeded"}))
                }
                Some(limit) => reply(200, json!({"remaining_ms": limit - total})),
                None => reply(200, json!({"remaining_ms": null})),
            }
        }
        "/internal/voice/translate" => {
            let source = body["source_lang"].as_str().unwrap_or_default().to_string();
            let target = body["target_lang"].as_str().unwrap_or_default().to_string();
            let texts: Vec<String> = body["texts"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|text| text.as_str().map(str::to_string))
                .collect();
            let translations: Vec<String> = texts.iter().map(|text| format!("[{target}] {text}")).collect();
            state.translations.push((source, target, texts));
            reply(200, json!({"translations": translations}))
        }
        "/internal/voice/end" => {
            let session = body["session_id"].as_str().unwrap_or_default().to_string();
            let connection = body["connection"].as_u64().unwrap_or_default();
            let reason = body["reason"].as_str().unwrap_or_default().to_string();
            state.ends.push((session, connection, reason));
            let mut response = Response::new(Full::new(Bytes::new()));
            *response.status_mut() = StatusCode::NO_CONTENT;
            response
        }
        "/v1/speech/transcribe" => {
            let audio = BASE64.decode(body["audio"].as_str().unwrap_or_default()).expect("base64 audio");
            let samples: Vec<i16> = audio.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect();
            let language = body["language"].as_str().map(str::to_string);
            let prompt = body["prompt"].as_str().map(str::to_string);
            state.transcriptions.push((samples.len() as u64 / 16, language.clone(), prompt));
            if let Some(status) = state.transcribe_status {
                return reply(status, json!({"message": "scripted failure"}));
            }
            // The gateway asks for one decoding per window, never whisper's retries.
            if body["fallback"] != json!(false) {
                return reply(400, json!({"message": "the gateway must send fallback: false"}));
            }
            let segments: Vec<Value> = words(&samples)
                .into_iter()
                .map(|(start_ms, end_ms, k)| {
                    json!({"text": format!(" word{k}"), "start_ms": start_ms, "end_ms": end_ms, "no_speech_probability": 0.05})
                })
                .collect();
            reply(
                200,
                json!({
                    "model": "scripted", "language": language.unwrap_or_else(|| "en".to_string()),
                    "language_probability": 0.99, "duration_ms": samples.len() / 16, "segments": segments,
                }),
            )
        }
        "/v1/speech/voices" => reply(200, json!({"voices": state.voices})),
        "/v1/speech/synthesize" => {
            let voice = body["voice"].as_str().unwrap_or_default().to_string();
            let text = body["text"].as_str().unwrap_or_default().to_string();
            state.syntheses.push((voice.clone(), text.clone()));
            if let Some(status) = state.synthesize_status {
                return reply(status, json!({"message": "scripted failure"}));
            }
            let Some(rate) = state
                .voices
                .iter()
                .find(|listed| listed["name"] == voice.as_str())
                .map(|listed| listed["sample_rate"].as_u64().unwrap_or_default())
            else {
                return reply(404, json!({"message": "Field 'voice': no such voice"}));
            };
            let count = text.chars().count() as u64 * VOICE_MS_PER_CHARACTER * rate / 1000;
            let samples: Vec<i16> = (0..count)
                .map(|n| (8000.0 * (n as f64 * 440.0 * std::f64::consts::TAU / rate as f64).sin()) as i16)
                .collect();
            let duration_ms = count * 1000 / rate;
            reply(
                200,
                json!({"voice": voice, "sample_rate": rate, "duration_ms": duration_ms, "audio": BASE64.encode(le_bytes(&samples))}),
            )
        }
        _ => reply(404, json!({"message": "no route"})),
    }
}

/// The words in 16 kHz audio: runs of 10 ms frames louder than 1000 (gaps under 100 ms bridged), each
/// named by its peak: (start ms, end ms, k).
pub fn words(samples: &[i16]) -> Vec<(u64, u64, i32)> {
    let frames: Vec<i32> = samples
        .chunks(160)
        .map(|frame| frame.iter().map(|sample| i32::from(*sample).abs()).max().unwrap_or(0))
        .collect();
    let mut words = Vec::new();
    let mut current: Option<(usize, usize, i32)> = None;
    for (index, peak) in frames.iter().enumerate() {
        if *peak > 1_000 {
            current = match current {
                Some((start, end, top)) if index - end <= 10 => Some((start, index, top.max(*peak))),
                Some(word) => {
                    words.push(word);
                    Some((index, index, *peak))
                }
                None => Some((index, index, *peak)),
            };
        }
    }
    words.extend(current);
    words
        .into_iter()
        .map(|(start, end, peak)| {
            let k = (f64::from(peak) / f64::from(WORD_STEP)).round() as i32;
            (start as u64 * 10, (end as u64 + 1) * 10, k)
        })
        .collect()
}

/// 16 kHz speech: each part is (k, milliseconds): k > 0 a word (a 300 Hz tone of peak 4000·k), 0 silence.
pub fn speech(parts: &[(i16, u64)], rate: u32) -> Vec<i16> {
    let mut samples = Vec::new();
    for &(k, milliseconds) in parts {
        let count = (milliseconds * u64::from(rate) / 1000) as usize;
        for n in 0..count {
            let value = if k == 0 {
                0.0
            } else {
                (n as f64 * 300.0 * std::f64::consts::TAU / f64::from(rate)).sin() * f64::from(k * WORD_STEP)
            };
            samples.push(value as i16);
        }
    }
    samples
}

pub fn le_bytes(samples: &[i16]) -> Vec<u8> {
    samples.iter().flat_map(|sample| sample.to_le_bytes()).collect()
}

/// A voice client.
pub struct Client {
    pub socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub msgpack: bool,
}

pub async fn connect(gateway: SocketAddr, path: &str, token: &str, msgpack: bool) -> Client {
    let url = format!("ws://{gateway}{path}?token={token}");
    let (socket, _) = tokio_tungstenite::connect_async(url).await.expect("the WebSocket handshake");
    Client { socket, msgpack }
}

/// A MessagePack tree as JSON (binary as an array of bytes).
pub fn msgpack_to_json(value: &rmpv::Value) -> Value {
    match value {
        rmpv::Value::Nil => Value::Null,
        rmpv::Value::Boolean(flag) => json!(flag),
        rmpv::Value::Integer(number) => number.as_u64().map_or_else(|| json!(number.as_i64()), |n| json!(n)),
        rmpv::Value::F32(number) => json!(number),
        rmpv::Value::F64(number) => json!(number),
        rmpv::Value::String(text) => json!(text.as_str()),
        rmpv::Value::Binary(bytes) => json!(bytes),
        rmpv::Value::Array(items) => Value::Array(items.iter().map(msgpack_to_json).collect()),
        rmpv::Value::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(key, value)| (key.as_str().unwrap_or_default().to_string(), msgpack_to_json(value)))
                .collect(),
        ),
        rmpv::Value::Ext(..) => Value::Null,
    }
}

/// What the client received until the server closed.
#[derive(Debug, Default)]
pub struct Received {
    pub messages: Vec<Value>,
    /// The close frame's code and reason.
    pub close: Option<(u16, String)>,
    /// A frame of the other type than the session's format arrived.
    pub wrong_frames: usize,
}

impl Received {
    pub fn names(&self) -> Vec<String> {
        self.messages.iter().filter_map(|message| message.as_object()?.keys().next().cloned()).collect()
    }

    pub fn error(&self) -> Option<&Value> {
        self.messages.iter().find_map(|message| message.get("error"))
    }

    /// Every concluded source segment, in order, as (text, start, end).
    pub fn concluded(&self) -> Vec<(String, u64, u64)> {
        self.messages
            .iter()
            .filter_map(|message| message.get("source_transcript_update"))
            .flat_map(|update| update["concluded"].as_array().cloned().unwrap_or_default())
            .map(|segment| {
                (
                    segment["text"].as_str().unwrap_or_default().to_string(),
                    segment["start_time"].as_u64().unwrap_or_default(),
                    segment["end_time"].as_u64().unwrap_or_default(),
                )
            })
            .collect()
    }

    /// Every concluded target text for a language, in order.
    pub fn targets(&self, language: &str) -> Vec<String> {
        self.messages
            .iter()
            .filter_map(|message| message.get("target_transcript_update"))
            .filter(|update| update["language"] == language)
            .flat_map(|update| update["concluded"].as_array().cloned().unwrap_or_default())
            .map(|segment| segment["text"].as_str().unwrap_or_default().to_string())
            .collect()
    }
}

impl Client {
    pub async fn send_value(&mut self, value: Value) {
        let message = if self.msgpack {
            let mut bytes = Vec::new();
            rmpv::encode::write_value(&mut bytes, &voice_gateway::protocol::to_msgpack(&value)).expect("encoded");
            Message::binary(bytes)
        } else {
            Message::text(value.to_string())
        };
        self.socket.send(message).await.expect("sent");
    }

    /// Sends a chunk of audio in the session's format.
    pub async fn chunk(&mut self, bytes: &[u8]) {
        if self.msgpack {
            let message = rmpv::Value::Map(vec![(
                "source_media_chunk".into(),
                rmpv::Value::Map(vec![("data".into(), rmpv::Value::Binary(bytes.to_vec()))]),
            )]);
            let mut encoded = Vec::new();
            rmpv::encode::write_value(&mut encoded, &message).expect("encoded");
            let _ = self.socket.send(Message::binary(encoded)).await;
        } else {
            let _ = self
                .socket
                .send(Message::text(json!({"source_media_chunk": {"data": BASE64.encode(bytes)}}).to_string()))
                .await;
        }
    }

    /// Sends `end_of_source_media` (the server may already have closed after an error).
    pub async fn end(&mut self) {
        let value = json!({"end_of_source_media": {}});
        let message = if self.msgpack {
            let mut bytes = Vec::new();
            rmpv::encode::write_value(&mut bytes, &voice_gateway::protocol::to_msgpack(&value)).expect("encoded");
            Message::binary(bytes)
        } else {
            Message::text(value.to_string())
        };
        let _ = self.socket.send(message).await;
    }

    /// The next message (None when the socket closed).
    pub async fn next_message(&mut self, within: Duration) -> Option<Value> {
        let reading = async {
            while let Some(frame) = self.socket.next().await {
                match frame {
                    Ok(Message::Text(text)) => return serde_json::from_str(text.as_str()).ok(),
                    Ok(Message::Binary(bytes)) => {
                        return rmpv::decode::read_value(&mut bytes.as_ref()).ok().map(|value| msgpack_to_json(&value));
                    }
                    Ok(Message::Close(_)) | Err(_) => return None,
                    Ok(_) => {}
                }
            }
            None
        };
        tokio::time::timeout(within, reading).await.expect("a message in time")
    }

    /// Reads until the server closes (or `within` passes: a test failure).
    pub async fn receive_all(&mut self, within: Duration) -> Received {
        let mut received = Received::default();
        let reading = async {
            while let Some(frame) = self.socket.next().await {
                match frame {
                    Ok(Message::Text(text)) => {
                        received.wrong_frames += usize::from(self.msgpack);
                        received.messages.push(serde_json::from_str(text.as_str()).expect("JSON"));
                    }
                    Ok(Message::Binary(bytes)) => {
                        received.wrong_frames += usize::from(!self.msgpack);
                        let value = rmpv::decode::read_value(&mut bytes.as_ref()).expect("msgpack");
                        received.messages.push(msgpack_to_json(&value));
                    }
                    Ok(Message::Close(frame)) => {
                        received.close = frame.map(|frame| (u16::from(frame.code), frame.reason.as_str().to_string()));
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
        };
        tokio::time::timeout(within, reading).await.expect("the server closed in time");
        received
    }
}

/// Streams audio bytes in chunks of `chunk_bytes`, `pause` apart.
pub async fn stream(client: &mut Client, bytes: &[u8], chunk_bytes: usize, pause: Duration) {
    for chunk in bytes.chunks(chunk_bytes) {
        client.chunk(chunk).await;
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
    }
}
