//! The recognition pipeline of a session: decoded audio in, transcript messages out.
//!
//! It runs as its own task so that recognition and translation never hold up the socket: audio that
//! arrives while the recogniser works waits in the channel and joins the next window. Concluded segments
//! are translated into every target through the broker, and tentative ones too while that is cheap.
//! The translations into the session's speech language (closed beta) are then spoken and encoded
//! (`speech`), one `target_media_chunk` per segment. At the end of the stream the rest is recognised
//! and concluded, the speech encoder flushed, then the end messages follow in the protocol's order.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::broker::Broker;
use crate::client::CallError;
use crate::protocol::{MediaChunk, ProtocolError, Reason, ServerMessage, SourceSegment, TargetSegment};
use crate::recognizer::{RecognizeError, Recognizer, Transcription};
use crate::segmenter::{Segmenter, SegmenterConfig, Update, Window};
use crate::speech::{self, Encoder, MediaFormat};
use crate::voices::{Synthesizer, Voices};

/// What the session feeds the pipeline.
#[derive(Debug)]
pub enum Input {
    /// 16 kHz mono samples, in stream order.
    Audio(Vec<i16>),
    /// The stream ended: conclude and send the end messages.
    End,
}

/// What the pipeline tells the session.
#[derive(Debug)]
pub enum Output {
    /// A message for the client.
    Message(ServerMessage),
    /// The session must end with this error.
    Failed(ProtocolError),
    /// Every end message has been handed over.
    Done,
}

/// Everything a pipeline needs.
#[derive(Debug, Clone)]
pub struct PipelineConfig {
    pub session_id: String,
    /// The targets of `target_languages`, in order.
    pub targets: Vec<String>,
    /// The language the recogniser must use (`source_language_mode: fixed`).
    pub fixed_language: Option<String>,
    /// The session's `source_language` in auto mode: the language of a transcription whose recogniser
    /// did not say which language it heard (an OpenAI-compatible server answering only `{"text"}`).
    pub hint_language: Option<String>,
    /// The spoken terms, as the recogniser's prompt.
    pub prompt: Option<String>,
    pub segmenter: SegmenterConfig,
    /// The pause before asking a busy recogniser again.
    pub busy_delay: Duration,
    /// How often a busy recogniser is asked before the session gives up.
    pub busy_attempts: u32,
    /// Tentative segments are translated while the last translations into every target took at most this
    /// long together (zero: never).
    pub tentative_budget: Duration,
    /// Translated speech, when the session has a `target_media_languages` entry.
    pub speech: Option<SpeechConfig>,
}

/// Translated speech for one language (the API allows at most one).
#[derive(Debug, Clone)]
pub struct SpeechConfig {
    /// The speech language: one of `targets`.
    pub language: String,
    /// `target_media_voice`: `male`, `female`, or none (the Piper voice, or espeak-ng's default for the
    /// language).
    pub voice: Option<String>,
    /// `target_media_content_type`.
    pub content_type: String,
    /// The espeak-ng program.
    pub espeak: String,
    /// The inference service's Piper voices (none: espeak-ng speaks every language).
    pub voices: Option<Arc<Voices>>,
    /// The ffmpeg program.
    pub ffmpeg: String,
}

/// The speech of a session's speech language: its encoder (started with the first segment) and what
/// it has sent.
struct Speaker {
    config: SpeechConfig,
    format: MediaFormat,
    /// The synthesiser, chosen with the first segment and kept (one voice, one rate per session).
    synthesizer: Option<Synthesizer>,
    encoder: Option<Encoder>,
    /// The encoder's output not yet sent.
    pending: Vec<u8>,
    /// The first chunk (with `content_type` and `headers`) was sent.
    started: bool,
    /// Samples written to the encoder, and the milliseconds of them announced in `duration`s.
    samples: u64,
    announced_ms: u64,
}

fn synthesis_failed(language: &str, cause: &str) -> ProtocolError {
    tracing::error!(language, %cause, "speech synthesis failed");
    ProtocolError::new(Reason::SpeechSynthesisFailed, "Synthesising the translated speech failed")
}

/// Runs until the stream's end messages are out, an error, or the session drops its channels.
pub async fn run(
    config: PipelineConfig,
    broker: Broker,
    recognizer: Recognizer,
    mut input: mpsc::UnboundedReceiver<Input>,
    output: mpsc::UnboundedSender<Output>,
) {
    let speaker = match &config.speech {
        None => None,
        Some(speech) => match MediaFormat::parse(&speech.content_type) {
            Some(format) => Some(Speaker {
                config: speech.clone(),
                format,
                synthesizer: None,
                encoder: None,
                pending: Vec::new(),
                started: false,
                samples: 0,
                announced_ms: 0,
            }),
            None => {
                let cause = format!("unsupported target_media_content_type {:?}", speech.content_type);
                let _ = output.send(Output::Failed(synthesis_failed(&speech.language, &cause)));
                return;
            }
        },
    };
    let mut pipeline = Pipeline {
        segmenter: Segmenter::new(config.segmenter.clone()),
        config,
        broker,
        recognizer,
        speaker,
        costs: HashMap::new(),
        tentative_targets_sent: false,
    };
    let outcome = pipeline.work(&mut input, &output).await;
    let _ = output.send(match outcome {
        Ok(()) => Output::Done,
        Err(error) => Output::Failed(error),
    });
}

struct Pipeline {
    config: PipelineConfig,
    segmenter: Segmenter,
    broker: Broker,
    recognizer: Recognizer,
    speaker: Option<Speaker>,
    /// How long the last translation into each target took.
    costs: HashMap<String, Duration>,
    /// The last target updates carried tentative segments.
    tentative_targets_sent: bool,
}

impl Pipeline {
    async fn work(
        &mut self,
        input: &mut mpsc::UnboundedReceiver<Input>,
        output: &mpsc::UnboundedSender<Output>,
    ) -> Result<(), ProtocolError> {
        let mut ended = false;
        loop {
            if let Some((update, language)) = self.segmenter.confirm() {
                self.send(update, &language, output).await?;
                continue;
            }
            if !ended && !self.segmenter.due() {
                let Some(first) = input.recv().await else { return Ok(()) };
                ended = self.take(first);
                while let Ok(next) = input.try_recv() {
                    ended |= self.take(next);
                }
                continue;
            }
            if ended {
                break;
            }
            let window = self.segmenter.window();
            self.recognize(window, false, output).await?;
        }
        while self.segmenter.pending() {
            let window = self.segmenter.window();
            self.recognize(window, true, output).await?;
        }
        if let Some(speaker) = &mut self.speaker {
            speaker.finish(output).await?;
        }
        let send = |message| output.send(Output::Message(message)).is_ok();
        send(ServerMessage::EndOfSourceTranscript);
        for language in &self.config.targets {
            send(ServerMessage::EndOfTargetTranscript { language: language.clone() });
        }
        if let Some(speaker) = &self.speaker {
            send(ServerMessage::EndOfTargetMedia { language: speaker.config.language.clone() });
        }
        send(ServerMessage::EndOfStream);
        Ok(())
    }

    /// Takes one input; true at the end of the stream.
    fn take(&mut self, input: Input) -> bool {
        match input {
            Input::Audio(samples) => {
                self.segmenter.push(&samples);
                false
            }
            Input::End => true,
        }
    }

    /// Recognises a window and sends what changed, translated.
    async fn recognize(
        &mut self,
        window: Window,
        last: bool,
        output: &mpsc::UnboundedSender<Output>,
    ) -> Result<(), ProtocolError> {
        let started = Instant::now();
        let transcription = if window.samples.is_empty() {
            Transcription { language: String::new(), segments: Vec::new() }
        } else {
            let transcription = self.transcribe(&window).await?;
            self.segmenter.recognised_in(started.elapsed());
            transcription
        };
        tracing::debug!(
            session = %self.config.session_id,
            window_ms = window.samples.len() as u64 * 1000 / u64::from(crate::audio::RATE),
            at_pause = window.at_pause,
            last,
            took_ms = started.elapsed().as_millis() as u64,
            segments = transcription.segments.len(),
            "recognised"
        );
        let language = match (&self.config.fixed_language, &self.config.hint_language) {
            (Some(language), _) => language.clone(),
            (None, Some(hint)) if transcription.language.is_empty() => hint.clone(),
            (None, _) => transcription.language.clone(),
        };
        let update = self.segmenter.apply(&window, &language, &transcription.segments, last);
        self.send(update, &language, output).await
    }

    async fn transcribe(&self, window: &Window) -> Result<Transcription, ProtocolError> {
        let mut attempts = 0;
        loop {
            attempts += 1;
            let answer = self
                .recognizer
                .transcribe(&window.samples, self.config.fixed_language.as_deref(), self.config.prompt.as_deref())
                .await;
            match answer {
                Ok(transcription) => return Ok(transcription),
                Err(RecognizeError::Busy) if attempts < self.config.busy_attempts => {
                    tokio::time::sleep(self.config.busy_delay).await;
                }
                Err(RecognizeError::Busy) => {
                    return Err(ProtocolError::new(
                        Reason::RecognitionUnavailable,
                        "Speech recognition is busy; try again later",
                    ));
                }
                Err(RecognizeError::NoModel) => {
                    return Err(ProtocolError::new(
                        Reason::RecognitionUnavailable,
                        "Speech recognition is not available: no speech model is installed",
                    ));
                }
                Err(RecognizeError::Failed(error)) if attempts < 2 => {
                    tracing::warn!(session = %self.config.session_id, %error, "transcription failed; retrying");
                }
                Err(RecognizeError::Failed(error) | RecognizeError::Refused(error)) => {
                    tracing::error!(session = %self.config.session_id, %error, "transcription failed");
                    return Err(ProtocolError::new(Reason::Internal, "Speech recognition failed"));
                }
            }
        }
    }

    async fn send(
        &mut self,
        update: Update,
        language: &str,
        output: &mpsc::UnboundedSender<Output>,
    ) -> Result<(), ProtocolError> {
        if !update.changed {
            return Ok(());
        }
        let Update { concluded, tentative, .. } = update;
        let message =
            ServerMessage::SourceTranscriptUpdate { concluded: concluded.clone(), tentative: tentative.clone() };
        let _ = output.send(Output::Message(message));
        // Tentative targets come from the tentative source when translating is cheap; once sent, the next
        // update replaces them (with nothing, if they are no longer cheap).
        let tentative_targets = !tentative.is_empty() && self.tentative_is_cheap();
        if concluded.is_empty() && !tentative_targets && !self.tentative_targets_sent {
            return Ok(());
        }
        let targets = self.config.targets.clone();
        for target in &targets {
            let texts =
                if concluded.is_empty() { Vec::new() } else { self.translate(&concluded, language, target).await? };
            let tentative_texts = match tentative_targets {
                true => self.translate_tentative(&tentative, language, target).await,
                false => Vec::new(),
            };
            let message = ServerMessage::TargetTranscriptUpdate {
                language: target.clone(),
                concluded: target_segments(&concluded, &texts),
                tentative: target_segments(&tentative, &tentative_texts),
            };
            let _ = output.send(Output::Message(message));
            if let Some(speaker) = self.speaker.as_mut().filter(|speaker| speaker.config.language == *target) {
                for text in &texts {
                    speaker.speak(text, output).await?;
                }
            }
        }
        self.tentative_targets_sent = tentative_targets;
        Ok(())
    }

    /// Whether the last translations into every target took at most the budget, together (an unmeasured
    /// target counts as free: its first translation measures it).
    fn tentative_is_cheap(&self) -> bool {
        let budget = self.config.tentative_budget;
        let spent: Duration = self.config.targets.iter().filter_map(|target| self.costs.get(target)).sum();
        !budget.is_zero() && spent <= budget
    }

    /// Translates concluded segments, asking again once; a failure ends the session.
    async fn translate(
        &mut self,
        segments: &[SourceSegment],
        source: &str,
        target: &str,
    ) -> Result<Vec<String>, ProtocolError> {
        let mut attempts = 0;
        loop {
            attempts += 1;
            match self.translate_once(segments, source, target).await {
                Ok(translations) => return Ok(translations),
                Err(error) if attempts < 2 => {
                    tracing::warn!(session = %self.config.session_id, target, %error, "translation failed; retrying");
                }
                Err(error) => {
                    tracing::error!(session = %self.config.session_id, target, %error, "translation failed");
                    return Err(ProtocolError::new(Reason::Internal, "Translating the transcript failed"));
                }
            }
        }
    }

    /// Translates tentative segments once; a failure only leaves them untranslated.
    async fn translate_tentative(&mut self, segments: &[SourceSegment], source: &str, target: &str) -> Vec<String> {
        self.translate_once(segments, source, target).await.unwrap_or_else(|error| {
            tracing::warn!(session = %self.config.session_id, target, %error, "tentative translation failed");
            Vec::new()
        })
    }

    /// One translation through the broker (none into the source language itself), timed.
    async fn translate_once(
        &mut self,
        segments: &[SourceSegment],
        source: &str,
        target: &str,
    ) -> Result<Vec<String>, CallError> {
        let texts: Vec<String> = segments.iter().map(|segment| segment.text.clone()).collect();
        if source.eq_ignore_ascii_case(target) {
            return Ok(texts);
        }
        let started = Instant::now();
        let translations = self.broker.translate(&self.config.session_id, &texts, source, target).await?;
        self.costs.insert(target.to_string(), started.elapsed());
        Ok(translations)
    }
}

/// Translations with the times of the segments they translate (none when there are no translations).
fn target_segments(segments: &[SourceSegment], texts: &[String]) -> Vec<TargetSegment> {
    segments
        .iter()
        .zip(texts)
        .map(|(segment, text)| TargetSegment {
            text: text.clone(),
            start_time: segment.start_time,
            end_time: segment.end_time,
        })
        .collect()
}

impl Speaker {
    /// Synthesises a segment's translation, feeds it to the encoder, and sends what the encoder has
    /// written by then as one chunk carrying the text and the segment's duration.
    async fn speak(&mut self, text: &str, output: &mpsc::UnboundedSender<Output>) -> Result<(), ProtocolError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(());
        }
        let language = self.config.language.clone();
        let synthesizer = match &self.synthesizer {
            Some(synthesizer) => synthesizer,
            None => {
                let config = &self.config;
                let chosen =
                    Synthesizer::choose(&language, config.voice.as_deref(), config.voices.as_ref(), &config.espeak)
                        .await;
                tracing::info!(language, synthesizer = %chosen.describe(), "speaking the translations");
                self.synthesizer.insert(chosen)
            }
        };
        let pcm = synthesizer.speak(text).await.map_err(|cause| synthesis_failed(&language, &cause))?;
        if pcm.samples() == 0 {
            return Ok(());
        }
        let encoder = match &mut self.encoder {
            Some(encoder) => encoder,
            encoder => encoder.insert(
                Encoder::start(&self.config.ffmpeg, pcm.rate, &self.format)
                    .map_err(|cause| synthesis_failed(&language, &cause))?,
            ),
        };
        if encoder.rate != pcm.rate {
            let cause = format!("the synthesiser changed its rate from {} to {} Hz", encoder.rate, pcm.rate);
            return Err(synthesis_failed(&language, &cause));
        }
        encoder.write(&pcm.bytes).await.map_err(|cause| synthesis_failed(&language, &cause))?;
        let first = !self.started;
        let format = &self.format;
        let patience = speech::patience(first, format);
        encoder
            .take(&mut self.pending, patience, |bytes| {
                if first { format.header_length(bytes).is_some() } else { !bytes.is_empty() }
            })
            .await;
        self.samples += pcm.samples();
        let total_ms = (self.samples * 1000 + u64::from(pcm.rate) / 2) / u64::from(pcm.rate);
        let duration = total_ms - self.announced_ms;
        self.announced_ms = total_ms;
        self.send(duration, Some(text.to_string()), output);
        Ok(())
    }

    /// Flushes the encoder at the end of the stream: the rest of the stream goes out as a last chunk.
    async fn finish(&mut self, output: &mpsc::UnboundedSender<Output>) -> Result<(), ProtocolError> {
        let Some(encoder) = &mut self.encoder else { return Ok(()) };
        encoder.finish(&mut self.pending).await.map_err(|cause| synthesis_failed(&self.config.language, &cause))?;
        self.encoder = None;
        if !self.pending.is_empty() {
            self.send(0, None, output);
        }
        Ok(())
    }

    /// Sends the pending output as a chunk: on the first, the header split off as its own packet.
    fn send(&mut self, duration: u64, text: Option<String>, output: &mpsc::UnboundedSender<Output>) {
        let bytes = std::mem::take(&mut self.pending);
        let first = !self.started;
        self.started = true;
        let mut data = Vec::new();
        let mut headers = 0;
        if first && self.format.has_header() && !bytes.is_empty() {
            // An incomplete header (the encoder was slow) is sent whole as the header packet; the rest
            // follows in later chunks, so the concatenation is the same stream.
            let length = self.format.header_length(&bytes).filter(|&length| length > 0).unwrap_or(bytes.len());
            data.push(bytes[..length].to_vec());
            headers = 1;
            if length < bytes.len() {
                data.push(bytes[length..].to_vec());
            }
        } else if !bytes.is_empty() {
            data.push(bytes);
        }
        let chunk = MediaChunk {
            language: self.config.language.clone(),
            data,
            duration,
            content_type: first.then(|| self.format.content_type.clone()),
            headers: first.then_some(headers),
            text,
        };
        let _ = output.send(Output::Message(ServerMessage::TargetMediaChunk(chunk)));
    }
}
