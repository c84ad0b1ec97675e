//! Speech recognition: the recogniser the operator chose, and the inference service's
//! (`POST /v1/speech/transcribe`).
//!
//! [`Recognizer`] is what the pipeline calls: one of the two recognisers, chosen at start, each turning
//! a window of 16 kHz mono samples into the same [`Transcription`] and failing with the same
//! [`RecognizeError`]s, so the pipeline never knows which one it talks to.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;
use serde_json::json;

use crate::client::{CallError, JsonClient, parse_ok};
use crate::openai::OpenAiRecognizer;
use crate::segmenter::Recognized;

/// A transcription: the language recognised and the segments, times relative to the audio sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcription {
    pub language: String,
    pub segments: Vec<Recognized>,
}

/// Why a transcription failed.
#[derive(Debug, thiserror::Error)]
pub enum RecognizeError {
    /// No speech model is installed (404).
    #[error("no speech recognition model is installed")]
    NoModel,
    /// The service is busy (503): try again.
    #[error("the speech recogniser is busy")]
    Busy,
    /// No answer, a server error, or an answer that cannot be read: worth one more try.
    #[error("speech recognition failed: {0}")]
    Failed(CallError),
    /// The server refused the request (a 4xx other than "no model" and "busy"): asking again would
    /// get the same answer.
    #[error("speech recognition refused the request: {0}")]
    Refused(CallError),
}

/// The recogniser of every session: the inference service, or an OpenAI-compatible server.
#[derive(Debug, Clone)]
pub enum Recognizer {
    Inference(InferenceRecognizer),
    OpenAi(OpenAiRecognizer),
}

impl Recognizer {
    /// The inference service at `client`'s base URL.
    pub fn inference(client: JsonClient) -> Recognizer {
        Recognizer::Inference(InferenceRecognizer::new(client))
    }

    /// Which one it is, for the logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Recognizer::Inference(_) => "inference",
            Recognizer::OpenAi(_) => "openai",
        }
    }

    /// Transcribes 16 kHz mono samples; `language` forces the language (the session's, in fixed mode),
    /// `prompt` names spoken terms.
    pub async fn transcribe(
        &self,
        samples: &[i16],
        language: Option<&str>,
        prompt: Option<&str>,
    ) -> Result<Transcription, RecognizeError> {
        match self {
            Recognizer::Inference(recognizer) => recognizer.transcribe(samples, language, prompt).await,
            Recognizer::OpenAi(recognizer) => recognizer.transcribe(samples, language, prompt).await,
        }
    }
}

/// The inference service's client.
#[derive(Debug, Clone)]
pub struct InferenceRecognizer {
    client: JsonClient,
}

impl InferenceRecognizer {
    pub fn new(client: JsonClient) -> InferenceRecognizer {
        InferenceRecognizer { client }
    }

    /// Transcribes 16 kHz mono samples; `language` forces the language, `prompt` names spoken terms.
    pub async fn transcribe(
        &self,
        samples: &[i16],
        language: Option<&str>,
        prompt: Option<&str>,
    ) -> Result<Transcription, RecognizeError> {
        #[derive(Deserialize)]
        struct Answer {
            language: String,
            segments: Vec<Segment>,
        }
        #[derive(Deserialize)]
        struct Segment {
            text: String,
            start_ms: f64,
            end_ms: f64,
            #[serde(default)]
            no_speech_probability: f64,
        }
        let bytes: Vec<u8> = samples.iter().flat_map(|sample| sample.to_le_bytes()).collect();
        // One decoding per window: whisper's retries at higher temperatures can take several times as
        // long, and a real-time transcript cannot wait for them (the next window decodes again anyway).
        let mut body = json!({"audio": BASE64.encode(&bytes), "language": language, "vad": true, "fallback": false});
        if let Some(prompt) = prompt {
            body["prompt"] = json!(prompt);
        }
        let (status, answer) =
            self.client.post("/v1/speech/transcribe", &body).await.map_err(RecognizeError::Failed)?;
        match status.as_u16() {
            404 => return Err(RecognizeError::NoModel),
            503 => return Err(RecognizeError::Busy),
            _ => {}
        }
        let answer: Answer = parse_ok(status, &answer).map_err(RecognizeError::Failed)?;
        let segments = answer
            .segments
            .into_iter()
            .map(|segment| Recognized {
                text: segment.text,
                start_ms: segment.start_ms.max(0.0).round() as u64,
                end_ms: segment.end_ms.max(0.0).round() as u64,
                no_speech_probability: segment.no_speech_probability,
            })
            .collect();
        Ok(Transcription { language: answer.language, segments })
    }
}
