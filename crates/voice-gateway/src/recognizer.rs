//! The inference service's speech recognition (`POST /v1/speech/transcribe`).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;
use serde_json::json;

use crate::client::{CallError, JsonClient, parse_ok};
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
    #[error("speech recognition failed: {0}")]
    Failed(CallError),
}

/// The inference service's client.
#[derive(Debug, Clone)]
pub struct Recognizer {
    client: JsonClient,
}

impl Recognizer {
    pub fn new(client: JsonClient) -> Recognizer {
        Recognizer { client }
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
        let mut body = json!({"audio": BASE64.encode(&bytes), "language": language, "vad": true});
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
