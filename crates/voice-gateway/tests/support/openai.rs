//! Test-only: a fake OpenAI-compatible transcription server (`POST /v1/audio/transcriptions`).
//!
//! It reads the gateway's `multipart/form-data` with multer (a real parser, not the gateway's code),
//! walks the WAV file's RIFF chunks itself, records everything it was sent, and answers `verbose_json`
//! from the same scripted recogniser as the inference double (`support::words`): a run of loud audio of
//! peak ≈ 4000·k is the word `wordk`. Its language is whisper's name, `"english"`.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpListener;

use super::words;

pub const OPENAI_KEY: &str = "openai-test-key";

/// One request as the fake server read it.
#[derive(Debug, Clone)]
pub struct OpenAiRequest {
    pub method: String,
    pub path: String,
    pub authorization: Option<String>,
    pub content_type: String,
    /// The text fields, in order: (name, value).
    pub fields: Vec<(String, String)>,
    /// The `file` part: (file name, content type, bytes).
    pub file: Option<(String, String, Vec<u8>)>,
    /// The WAV file's samples, or why it is not a 16 kHz mono 16-bit PCM WAV file.
    pub wav: Result<Vec<i16>, String>,
    /// Why the body is not a valid multipart form, if it is not.
    pub multipart_error: Option<String>,
}

impl OpenAiRequest {
    /// The values of a text field.
    pub fn field(&self, name: &str) -> Vec<&str> {
        self.fields.iter().filter(|(field, _)| field == name).map(|(_, value)| value.as_str()).collect()
    }
}

/// What the fake server was asked, and how it answers.
#[derive(Debug, Default)]
pub struct OpenAiState {
    pub requests: Vec<OpenAiRequest>,
    /// A status (and an OpenAI-style error body) for every request.
    pub status: Option<u16>,
    /// Answer `{"text"}` alone, as servers without `verbose_json` do.
    pub text_only: bool,
}

pub struct FakeOpenAi {
    pub address: SocketAddr,
    pub state: Arc<Mutex<OpenAiState>>,
}

impl FakeOpenAi {
    pub async fn start() -> FakeOpenAi {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port for the fake server");
        let address = listener.local_addr().expect("an address");
        let state = Arc::new(Mutex::new(OpenAiState::default()));
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
        FakeOpenAi { address, state }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    pub fn requests(&self) -> Vec<OpenAiRequest> {
        self.state.lock().unwrap().requests.clone()
    }
}

fn reply(status: u16, body: Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = StatusCode::from_u16(status).expect("a status");
    response.headers_mut().insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    response
}

/// Reads a multipart body with multer.
async fn read_form(content_type: &str, body: Bytes, request: &mut OpenAiRequest) -> Result<(), String> {
    let boundary = multer::parse_boundary(content_type).map_err(|error| error.to_string())?;
    let stream = futures_util::stream::once(async move { Ok::<Bytes, Infallible>(body) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    while let Some(field) = multipart.next_field().await.map_err(|error| error.to_string())? {
        let name = field.name().unwrap_or_default().to_string();
        let file_name = field.file_name().map(str::to_string);
        let part_type = field.content_type().map(ToString::to_string).unwrap_or_default();
        let data = field.bytes().await.map_err(|error| error.to_string())?;
        match file_name {
            Some(file_name) => request.file = Some((file_name, part_type, data.to_vec())),
            None => request.fields.push((name, String::from_utf8(data.to_vec()).map_err(|error| error.to_string())?)),
        }
    }
    Ok(())
}

/// The samples of a 16 kHz mono 16-bit PCM WAV file, walking its RIFF chunks (any order, any extra
/// chunk skipped, odd sizes padded as RIFF says).
pub fn wav_samples(file: &[u8]) -> Result<Vec<i16>, String> {
    let u16_at = |at: usize| file.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]])).ok_or("short file");
    let u32_at =
        |at: usize| file.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok_or("short file");
    if file.get(0..4) != Some(b"RIFF") || file.get(8..12) != Some(b"WAVE") {
        return Err("not RIFF/WAVE".into());
    }
    if u32_at(4)? as usize != file.len() - 8 {
        return Err(format!("RIFF size {} for a file of {} bytes", u32_at(4)?, file.len()));
    }
    let mut at = 12;
    let mut format_ok = false;
    while at + 8 <= file.len() {
        let id = &file[at..at + 4];
        let size = u32_at(at + 4)? as usize;
        let content = at + 8;
        let end = content.checked_add(size).filter(|end| *end <= file.len()).ok_or("a chunk past the end")?;
        if id == b"fmt " {
            let fields = (u16_at(content)?, u16_at(content + 2)?, u32_at(content + 4)?, u32_at(content + 8)?);
            let layout = (u16_at(content + 12)?, u16_at(content + 14)?);
            if fields != (1, 1, 16_000, 32_000) || layout != (2, 16) || size < 16 {
                return Err(format!("fmt {fields:?} {layout:?} size {size}"));
            }
            format_ok = true;
        } else if id == b"data" {
            if !format_ok {
                return Err("data before fmt".into());
            }
            return Ok(file[content..end].chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect());
        }
        at = end + (size & 1);
    }
    Err("no data chunk".into())
}

async fn answer(state: &Mutex<OpenAiState>, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let mut recorded = OpenAiRequest {
        method: request.method().to_string(),
        path: request.uri().path().to_string(),
        authorization: request.headers().get("authorization").and_then(|value| value.to_str().ok()).map(str::to_string),
        content_type: request
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_string(),
        fields: Vec::new(),
        file: None,
        wav: Err("no file".into()),
        multipart_error: None,
    };
    let body = request.into_body().collect().await.expect("a body").to_bytes();
    let content_type = recorded.content_type.clone();
    if let Err(error) = read_form(&content_type, body, &mut recorded).await {
        recorded.multipart_error = Some(error);
    }
    if let Some((_, _, file)) = &recorded.file {
        recorded.wav = wav_samples(file);
    }
    let samples = recorded.wav.clone().unwrap_or_default();
    let authorized = recorded.authorization.as_deref() == Some(&format!("Bearer {OPENAI_KEY}"));
    let valid =
        recorded.multipart_error.is_none() && recorded.wav.is_ok() && recorded.path == "/v1/audio/transcriptions";
    let mut state = state.lock().unwrap();
    state.requests.push(recorded);
    if !authorized {
        return reply(
            401,
            json!({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}),
        );
    }
    if !valid {
        return reply(400, json!({"error": {"message": "bad request", "type": "invalid_request_error"}}));
    }
    if let Some(status) = state.status {
        return reply(status, json!({"error": {"message": "scripted failure", "type": "server_error"}}));
    }
    let words = words(&samples);
    if state.text_only {
        let text: Vec<String> = words.iter().map(|(_, _, k)| format!("word{k}")).collect();
        return reply(200, json!({"text": text.join(" ")}));
    }
    let segments: Vec<Value> = words
        .iter()
        .enumerate()
        .map(|(id, (start_ms, end_ms, k))| {
            json!({
                "id": id, "seek": 0, "start": *start_ms as f64 / 1000.0, "end": *end_ms as f64 / 1000.0,
                "text": format!(" word{k}"), "tokens": [], "temperature": 0.0, "avg_logprob": -0.2,
                "compression_ratio": 1.0, "no_speech_prob": 0.05,
            })
        })
        .collect();
    let text: Vec<String> = words.iter().map(|(_, _, k)| format!("word{k}")).collect();
    reply(
        200,
        json!({
            "task": "transcribe", "language": "english", "duration": samples.len() as f64 / 16_000.0,
            "text": text.join(" "), "segments": segments,
        }),
    )
}
