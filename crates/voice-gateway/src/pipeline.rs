//! The recognition pipeline of a session: decoded audio in, transcript messages out.
//!
//! It runs as its own task so that recognition and translation never hold up the socket: audio that
//! arrives while the recogniser works waits in the channel and joins the next window. Concluded segments
//! are translated into every target through the broker; tentative ones are sent for the source only. At
//! the end of the stream the rest is recognised and concluded, then the end messages follow in the
//! protocol's order.

use std::time::Duration;

use tokio::sync::mpsc;

use crate::broker::Broker;
use crate::protocol::{ProtocolError, Reason, ServerMessage, SourceSegment, TargetSegment};
use crate::recognizer::{RecognizeError, Recognizer, Transcription};
use crate::segmenter::{Segmenter, SegmenterConfig, Update, Window};

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
}

/// Runs until the stream's end messages are out, an error, or the session drops its channels.
pub async fn run(
    config: PipelineConfig,
    broker: Broker,
    recognizer: Recognizer,
    mut input: mpsc::UnboundedReceiver<Input>,
    output: mpsc::UnboundedSender<Output>,
) {
    let mut pipeline = Pipeline { segmenter: Segmenter::new(config.segmenter.clone()), config, broker, recognizer };
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
}

impl Pipeline {
    async fn work(
        &mut self,
        input: &mut mpsc::UnboundedReceiver<Input>,
        output: &mpsc::UnboundedSender<Output>,
    ) -> Result<(), ProtocolError> {
        let mut ended = false;
        loop {
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
        let send = |message| output.send(Output::Message(message)).is_ok();
        send(ServerMessage::EndOfSourceTranscript);
        for language in &self.config.targets {
            send(ServerMessage::EndOfTargetTranscript { language: language.clone() });
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
        let transcription = if window.samples.is_empty() {
            Transcription { language: String::new(), segments: Vec::new() }
        } else {
            self.transcribe(&window).await?
        };
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
        &self,
        update: Update,
        language: &str,
        output: &mpsc::UnboundedSender<Output>,
    ) -> Result<(), ProtocolError> {
        if !update.changed {
            return Ok(());
        }
        let concluded = update.concluded;
        let message =
            ServerMessage::SourceTranscriptUpdate { concluded: concluded.clone(), tentative: update.tentative };
        let _ = output.send(Output::Message(message));
        if concluded.is_empty() {
            return Ok(());
        }
        for target in &self.config.targets {
            let translations = self.translate(&concluded, language, target).await?;
            let concluded = concluded
                .iter()
                .zip(translations)
                .map(|(segment, text)| TargetSegment {
                    text,
                    start_time: segment.start_time,
                    end_time: segment.end_time,
                })
                .collect();
            let message =
                ServerMessage::TargetTranscriptUpdate { language: target.clone(), concluded, tentative: Vec::new() };
            let _ = output.send(Output::Message(message));
        }
        Ok(())
    }

    async fn translate(
        &self,
        segments: &[SourceSegment],
        source: &str,
        target: &str,
    ) -> Result<Vec<String>, ProtocolError> {
        let texts: Vec<String> = segments.iter().map(|segment| segment.text.clone()).collect();
        if source.eq_ignore_ascii_case(target) {
            return Ok(texts);
        }
        let mut attempts = 0;
        loop {
            attempts += 1;
            match self.broker.translate(&self.config.session_id, &texts, source, target).await {
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
}
