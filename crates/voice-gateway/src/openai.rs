//! Speech recognition by any OpenAI-compatible server (`POST {url}/v1/audio/transcriptions`): a GPU
//! box running a whisper server, for operators who do not use the inference service.
//!
//! Each window the pipeline recognises goes out as a `multipart/form-data` form: `file` (the samples as
//! a 16 kHz mono 16-bit WAV file), `model`, `response_format=verbose_json`,
//! `timestamp_granularities[]=segment`, `language` (only when the session's language is fixed: whisper
//! takes it as an order, not a hint) and `prompt` (the spoken terms). The `verbose_json` answer
//! (`language` as a name or a code, `segments` with times in seconds and `no_speech_prob`) becomes the
//! same [`Transcription`] the inference service's answer does; a server that answers only `{"text"}`
//! gets one segment spanning the window.
//!
//! Failures map onto the same [`RecognizeError`]s: 404 (an unknown model, or no such route) is "no
//! model", 429 and 503 are "busy" (asked again, as the inference service is), another 4xx is a refusal
//! (not retried), and a 5xx, no answer or an unreadable one is a failure (retried once).

use bytes::Bytes;
use serde::Deserialize;

use crate::audio::RATE;
use crate::client::{CallError, JsonClient};
use crate::multipart::{Form, Part, form, random_boundary};
use crate::recognizer::{RecognizeError, Transcription};
use crate::segmenter::Recognized;
use crate::{languages, wav};

/// The route, after the server's origin.
pub const PATH: &str = "/v1/audio/transcriptions";

/// An OpenAI-compatible transcription server and the model to ask for.
#[derive(Debug, Clone)]
pub struct OpenAiRecognizer {
    /// The server's origin, and the API key as its bearer secret (never shown by `Debug`).
    client: JsonClient,
    model: String,
}

impl OpenAiRecognizer {
    pub fn new(client: JsonClient, model: &str) -> OpenAiRecognizer {
        OpenAiRecognizer { client, model: model.to_string() }
    }

    /// Transcribes 16 kHz mono samples; `language` forces the language, `prompt` names spoken terms.
    pub async fn transcribe(
        &self,
        samples: &[i16],
        language: Option<&str>,
        prompt: Option<&str>,
    ) -> Result<Transcription, RecognizeError> {
        let form = request(samples, &self.model, language, prompt, random_boundary());
        let (status, answer) = self
            .client
            .post_body(PATH, &form.content_type, Bytes::from(form.body))
            .await
            .map_err(RecognizeError::Failed)?;
        if !status.is_success() {
            let body = String::from_utf8_lossy(&answer[..answer.len().min(1024)]).into_owned();
            if status.is_client_error() {
                // The server's own words (an unknown model, a wrong key) are what an operator needs.
                tracing::warn!(status = status.as_u16(), %body, "the OpenAI-compatible server refused a transcription");
            }
            return Err(status_error(CallError::Status { status, body }));
        }
        let window_ms = samples.len() as u64 * 1000 / u64::from(RATE);
        transcription(&answer, window_ms).map_err(RecognizeError::Failed)
    }
}

/// The form for one window.
pub fn request(samples: &[i16], model: &str, language: Option<&str>, prompt: Option<&str>, boundary: String) -> Form {
    let audio = wav::file(samples);
    let mut parts = vec![
        Part::File { name: "file", filename: "audio.wav", content_type: "audio/wav", data: &audio },
        Part::Text { name: "model", value: model },
        Part::Text { name: "response_format", value: "verbose_json" },
        Part::Text { name: "timestamp_granularities[]", value: "segment" },
    ];
    if let Some(language) = language {
        parts.push(Part::Text { name: "language", value: language });
    }
    if let Some(prompt) = prompt {
        parts.push(Part::Text { name: "prompt", value: prompt });
    }
    form(&parts, boundary)
}

/// What a status other than 2xx means (`error` is a [`CallError::Status`]).
pub fn status_error(error: CallError) -> RecognizeError {
    let status = match &error {
        CallError::Status { status, .. } => status.as_u16(),
        _ => return RecognizeError::Failed(error),
    };
    match status {
        404 => RecognizeError::NoModel,
        429 | 503 => RecognizeError::Busy,
        400..=499 => RecognizeError::Refused(error),
        _ => RecognizeError::Failed(error),
    }
}

/// A `verbose_json` answer (or a plain `{"text"}`) for a window of `window_ms`, times in milliseconds
/// relative to the window, the language as a code (empty when the server did not say).
pub fn transcription(answer: &[u8], window_ms: u64) -> Result<Transcription, CallError> {
    #[derive(Deserialize)]
    struct Answer {
        #[serde(default)]
        language: Option<String>,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        segments: Option<Vec<Segment>>,
    }
    #[derive(Deserialize)]
    struct Segment {
        #[serde(default)]
        text: String,
        start: f64,
        end: f64,
        #[serde(default)]
        no_speech_prob: Option<f64>,
    }
    let answer: Answer = serde_json::from_slice(answer).map_err(|error| CallError::Invalid(error.to_string()))?;
    let millis = |seconds: f64| ((seconds.max(0.0) * 1000.0).round() as u64).min(window_ms);
    let text = answer.text.unwrap_or_default();
    let segments = match answer.segments {
        Some(segments) if !segments.is_empty() || text.trim().is_empty() => segments
            .into_iter()
            .map(|segment| {
                let start_ms = millis(segment.start);
                Recognized {
                    text: segment.text,
                    start_ms,
                    end_ms: millis(segment.end).max(start_ms),
                    no_speech_probability: segment.no_speech_prob.unwrap_or(0.0),
                }
            })
            .collect(),
        // No segments, but words: they span the window.
        _ if !text.trim().is_empty() => {
            vec![Recognized { text, start_ms: 0, end_ms: window_ms, no_speech_probability: 0.0 }]
        }
        _ => Vec::new(),
    };
    let language = answer.language.as_deref().map(languages::code).unwrap_or_default();
    Ok(Transcription { language, segments })
}

#[cfg(test)]
mod tests {
    use http::StatusCode;

    use super::*;

    fn status(code: u16) -> RecognizeError {
        status_error(CallError::Status { status: StatusCode::from_u16(code).expect("a status"), body: String::new() })
    }

    #[test]
    fn verbose_json_becomes_a_transcription_in_milliseconds() {
        let answer = br#"{"task": "transcribe", "language": "english", "duration": 3.2, "text": "Hello world",
            "segments": [
                {"id": 0, "start": 0.0, "end": 1.24, "text": " Hello", "no_speech_prob": 0.01, "avg_logprob": -0.2},
                {"id": 1, "start": 2.5, "end": 2.9995, "text": " world", "no_speech_prob": 0.9}
            ]}"#;
        let parsed = transcription(answer, 3_200).expect("parsed");
        assert_eq!(parsed.language, "en");
        assert_eq!(
            parsed.segments,
            [
                Recognized { text: " Hello".into(), start_ms: 0, end_ms: 1_240, no_speech_probability: 0.01 },
                Recognized { text: " world".into(), start_ms: 2_500, end_ms: 3_000, no_speech_probability: 0.9 },
            ]
        );
    }

    #[test]
    fn codes_stay_and_times_stay_inside_the_window() {
        let answer = br#"{"language": "de", "segments": [{"start": -0.5, "end": 29.99, "text": "Hallo"}]}"#;
        let parsed = transcription(answer, 2_000).expect("parsed");
        assert_eq!(parsed.language, "de");
        assert_eq!(parsed.segments[0].start_ms, 0);
        assert_eq!(parsed.segments[0].end_ms, 2_000);
        assert_eq!(parsed.segments[0].no_speech_probability, 0.0);
    }

    #[test]
    fn text_alone_spans_the_window() {
        let parsed = transcription(br#"{"text": " Hello there"}"#, 1_500).expect("parsed");
        assert_eq!(parsed.language, "");
        assert_eq!(
            parsed.segments,
            [Recognized { text: " Hello there".into(), start_ms: 0, end_ms: 1_500, no_speech_probability: 0.0 }]
        );
        // Empty segments with text: the same.
        let parsed = transcription(br#"{"text": "Hi", "segments": []}"#, 900).expect("parsed");
        assert_eq!(parsed.segments.len(), 1);
        assert_eq!(parsed.segments[0].end_ms, 900);
    }

    #[test]
    fn silence_is_no_segment() {
        assert!(transcription(br#"{"text": "", "segments": []}"#, 1_000).expect("parsed").segments.is_empty());
        assert!(transcription(br#"{"text": "  "}"#, 1_000).expect("parsed").segments.is_empty());
        assert!(transcription(br#"{"language": "english"}"#, 1_000).expect("parsed").segments.is_empty());
    }

    #[test]
    fn an_unreadable_answer_is_invalid() {
        assert!(matches!(transcription(b"<html>", 1_000), Err(CallError::Invalid(_))));
        assert!(matches!(transcription(br#"{"segments": [{"text": "x"}]}"#, 1_000), Err(CallError::Invalid(_))));
    }

    #[test]
    fn statuses_map_to_the_recognisers_errors() {
        assert!(matches!(status(404), RecognizeError::NoModel));
        assert!(matches!(status(503), RecognizeError::Busy));
        assert!(matches!(status(429), RecognizeError::Busy));
        assert!(matches!(status(400), RecognizeError::Refused(_)));
        assert!(matches!(status(401), RecognizeError::Refused(_)));
        assert!(matches!(status(413), RecognizeError::Refused(_)));
        assert!(matches!(status(500), RecognizeError::Failed(_)));
        assert!(matches!(status(502), RecognizeError::Failed(_)));
        assert!(matches!(
            status_error(CallError::Transport("refused".into())),
            RecognizeError::Failed(CallError::Transport(_))
        ));
    }

    #[test]
    fn the_request_holds_the_wav_and_every_field() {
        let form = request(&[1, 2, 3], "whisper-1", Some("en"), Some("Glossa, Spin"), "BOUNDARY".into());
        assert_eq!(form.content_type, "multipart/form-data; boundary=BOUNDARY");
        let mut expected = b"--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"audio.wav\"\r\n\
            Content-Type: audio/wav\r\n\r\n"
            .to_vec();
        expected.extend_from_slice(&wav::file(&[1, 2, 3]));
        expected.extend_from_slice(
            b"\r\n--BOUNDARY\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-1\r\n\
            --BOUNDARY\r\nContent-Disposition: form-data; name=\"response_format\"\r\n\r\nverbose_json\r\n\
            --BOUNDARY\r\nContent-Disposition: form-data; name=\"timestamp_granularities[]\"\r\n\r\nsegment\r\n\
            --BOUNDARY\r\nContent-Disposition: form-data; name=\"language\"\r\n\r\nen\r\n\
            --BOUNDARY\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\nGlossa, Spin\r\n\
            --BOUNDARY--\r\n",
        );
        assert_eq!(form.body, expected);
    }

    #[test]
    fn without_a_fixed_language_or_terms_those_fields_are_left_out() {
        let form = request(&[0; 16], "m", None, None, "B0".into());
        let text = String::from_utf8_lossy(&form.body);
        assert!(!text.contains("name=\"language\""));
        assert!(!text.contains("name=\"prompt\""));
        assert!(text.contains("name=\"model\"\r\n\r\nm\r\n"));
    }
}
