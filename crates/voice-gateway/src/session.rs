//! One WebSocket connection: claim the token, then read, check, decode and meter the client's audio,
//! hand it to the recognition pipeline, and write the pipeline's messages back.
//!
//! The connection's task owns the socket; the pipeline, the meter and (for container formats) ffmpeg
//! run beside it and talk to it over channels. Every way a connection ends goes through [`Session::end`]:
//! the decoder and pipeline are stopped, the final usage report is sent, then the broker is told why the
//! connection ended.

use std::sync::Arc;
use std::time::Duration;

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::audio::{PcmDecoder, RATE, SourceFormat};
use crate::broker::{Claim, EndReason};
use crate::ffmpeg::{Decoded, FfmpegDecoder};
use crate::meter::{Meter, MeterEvent};
use crate::pipeline::{self, Input, Output, PipelineConfig, SpeechConfig};
use crate::protocol::{self, ClientMessage, Frame, MessageFormat, ProtocolError, Reason, ServerMessage};
use crate::server::Gateway;

/// The format of translated speech when the session names none (the API's default).
const DEFAULT_TARGET_MEDIA_TYPE: &str = "audio/webm;codecs=opus";

/// How long the final usage report and the end call may take when a connection ends.
const FINAL_REPORT_PATIENCE: Duration = Duration::from_secs(5);

/// Runs a connection from its claim to its close.
pub async fn run<S>(socket: WebSocketStream<S>, token: String, gateway: Arc<Gateway>, shutdown: watch::Receiver<bool>)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sink, mut stream) = socket.split();
    let claim = match gateway.broker.claim(&token).await {
        Ok(claim) => claim,
        Err(error) => {
            // No session, so no format: the error goes out in the API's default, JSON.
            tracing::info!(reason = error.reason.code(), "refused a connection: {}", error.message);
            send_error(&mut sink, &mut stream, MessageFormat::Json, error).await;
            return;
        }
    };
    tracing::info!(session = %claim.session_id, connection = claim.connection, "connected");
    let format = MessageFormat::parse(claim.parameters.message_format.as_deref().unwrap_or("json"));
    let Some(source) = SourceFormat::parse(&claim.parameters.source_media_content_type) else {
        let error = ProtocolError::new(Reason::AudioFormatNotSupported, "Audio format not supported");
        send_error(&mut sink, &mut stream, format, error).await;
        end_connection(&gateway, &claim, EndReason::Error).await;
        return;
    };
    let mut session = match Session::start(gateway.clone(), claim.clone(), format, source, sink) {
        Ok(session) => session,
        Err((mut sink, error)) => {
            send_error(&mut sink, &mut stream, format, error).await;
            end_connection(&gateway, &claim, EndReason::Error).await;
            return;
        }
    };
    let reason = session.serve(&mut stream, shutdown).await;
    session.end(reason, &mut stream).await;
}

/// How the connection ends: the reason the broker records, and what the client is sent.
enum Ending {
    /// `end_of_stream` was sent.
    Completed,
    /// An `error` message, then a close.
    Error(ProtocolError),
    /// A close without an error message.
    Close { code: CloseCode, reason: &'static str, record: EndReason },
    /// The client closed or vanished.
    Gone,
}

/// The decoder of the session's format.
enum Decoder {
    Pcm { decoder: Box<PcmDecoder>, frame_bytes: usize, rate: u32 },
    Ffmpeg(FfmpegDecoder),
}

/// A token bucket of audio milliseconds: at most `speed` × wall time, plus a slack for bursts.
struct RateLimit {
    capacity: f64,
    tokens: f64,
    speed: f64,
    updated: Instant,
}

impl RateLimit {
    fn new(slack_ms: u64, speed: f64) -> RateLimit {
        RateLimit { capacity: slack_ms as f64, tokens: slack_ms as f64, speed, updated: Instant::now() }
    }

    /// Takes `milliseconds` of audio; false when that is faster than allowed.
    fn take(&mut self, milliseconds: f64) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.updated).as_secs_f64() * 1000.0;
        self.updated = now;
        self.tokens = (self.tokens + elapsed * self.speed).min(self.capacity);
        self.tokens -= milliseconds;
        self.tokens >= 0.0
    }
}

type Sink<S> = SplitSink<WebSocketStream<S>, Message>;
type Stream<S> = SplitStream<WebSocketStream<S>>;

struct Session<S> {
    gateway: Arc<Gateway>,
    claim: Claim,
    format: MessageFormat,
    sink: Sink<S>,
    decoder: Decoder,
    decoded: mpsc::UnboundedReceiver<Decoded>,
    pipeline_input: mpsc::UnboundedSender<Input>,
    pipeline_output: mpsc::UnboundedReceiver<Output>,
    pipeline: tokio::task::JoinHandle<()>,
    meter: Meter,
    meter_events: mpsc::UnboundedReceiver<MeterEvent>,
    rate_limit: RateLimit,
    /// `end_of_source_media` was received.
    source_ended: bool,
    /// ffmpeg delivered its last sample.
    decoder_finished: bool,
}

impl<S> Session<S>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    fn start(
        gateway: Arc<Gateway>,
        claim: Claim,
        format: MessageFormat,
        source: SourceFormat,
        sink: Sink<S>,
    ) -> Result<Session<S>, (Sink<S>, ProtocolError)> {
        let settings = &gateway.settings;
        let (decoded_sender, decoded) = mpsc::unbounded_channel();
        let decoder = match source {
            SourceFormat::Pcm { encoding, rate } => match PcmDecoder::new(encoding, rate) {
                Ok(decoder) => Decoder::Pcm { decoder: Box::new(decoder), frame_bytes: encoding.frame_bytes(), rate },
                Err(cause) => {
                    tracing::error!(%cause, "cannot decode PCM");
                    return Err((
                        sink,
                        ProtocolError::new(Reason::AudioFormatNotSupported, "Audio format not supported"),
                    ));
                }
            },
            SourceFormat::Ffmpeg { demuxer } => match FfmpegDecoder::start(&settings.ffmpeg, demuxer, decoded_sender) {
                Ok(decoder) => Decoder::Ffmpeg(decoder),
                Err(cause) => {
                    tracing::error!(%cause, "cannot start ffmpeg");
                    return Err((sink, ProtocolError::new(Reason::Internal, "The audio decoder could not be started")));
                }
            },
        };
        let meter_rate = match &decoder {
            Decoder::Pcm { rate, .. } => *rate,
            Decoder::Ffmpeg(_) => RATE,
        };
        let (meter_sender, meter_events) = mpsc::unbounded_channel();
        let meter = Meter::start(
            gateway.broker.clone(),
            settings.meter.clone(),
            claim.session_id.clone(),
            claim.connection,
            meter_rate,
            claim.remaining_ms,
            meter_sender,
        );
        let parameters = &claim.parameters;
        let terms: Vec<&str> =
            parameters.spoken_terms.iter().map(|term| term.trim()).filter(|term| !term.is_empty()).collect();
        let mut targets = parameters.target_languages.clone();
        // At most one speech language (the application checks); it is also a text target.
        let speech =
            parameters.target_media_languages.first().filter(|language| !language.is_empty()).map(|language| {
                let language =
                    targets.iter().find(|target| target.eq_ignore_ascii_case(language)).cloned().unwrap_or_else(|| {
                        targets.push(language.clone());
                        language.clone()
                    });
                SpeechConfig {
                    language,
                    voice: parameters.target_media_voice.clone().filter(|voice| !voice.is_empty()),
                    content_type: parameters
                        .target_media_content_type
                        .clone()
                        .filter(|content_type| !content_type.is_empty())
                        .unwrap_or_else(|| DEFAULT_TARGET_MEDIA_TYPE.to_string()),
                    espeak: settings.espeak.clone(),
                    voices: settings.voices.clone(),
                    ffmpeg: settings.ffmpeg.clone(),
                }
            });
        let config = PipelineConfig {
            session_id: claim.session_id.clone(),
            targets,
            fixed_language: parameters.fixed_language().map(str::to_string),
            hint_language: parameters.source_language.clone().filter(|language| !language.is_empty()),
            prompt: (!terms.is_empty()).then(|| terms.join(", ")),
            segmenter: settings.segmenter.clone(),
            busy_delay: settings.busy_delay,
            busy_attempts: settings.busy_attempts,
            tentative_budget: settings.tentative_budget,
            speech,
        };
        let (pipeline_input, input) = mpsc::unbounded_channel();
        let (output, pipeline_output) = mpsc::unbounded_channel();
        let pipeline =
            tokio::spawn(pipeline::run(config, gateway.broker.clone(), gateway.recognizer.clone(), input, output));
        let rate_limit =
            RateLimit::new(settings.limits.speed_slack_ms.max(settings.limits.max_chunk_ms), settings.limits.max_speed);
        Ok(Session {
            gateway,
            claim,
            format,
            sink,
            decoder,
            decoded,
            pipeline_input,
            pipeline_output,
            pipeline,
            meter,
            meter_events,
            rate_limit,
            source_ended: false,
            decoder_finished: false,
        })
    }

    /// Serves the connection until it must end, and says how.
    async fn serve(&mut self, stream: &mut Stream<S>, mut shutdown: watch::Receiver<bool>) -> Ending {
        let limits = self.gateway.settings.limits.clone();
        let closes_at = Instant::now() + limits.max_connection;
        let mut idle_until = Instant::now() + limits.idle_timeout;
        loop {
            tokio::select! {
                frame = stream.next() => {
                    let frame = match frame {
                        Some(Ok(Message::Text(text))) => Frame::Text(text.as_str().to_string()),
                        Some(Ok(Message::Binary(bytes))) => Frame::Binary(bytes.to_vec()),
                        Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
                        Some(Ok(Message::Close(_))) | None => return Ending::Gone,
                        Some(Err(tokio_tungstenite::tungstenite::Error::Capacity(error))) => {
                            let message = format!("The message is too large: {error}");
                            return Ending::Error(ProtocolError::new(Reason::ChunkTooLarge, message));
                        }
                        Some(Err(error)) => {
                            tracing::debug!(session = %self.claim.session_id, %error, "socket error");
                            return Ending::Gone;
                        }
                    };
                    let message = match protocol::decode(self.format, frame) {
                        Ok(message) => message,
                        Err(error) => return Ending::Error(error),
                    };
                    if self.source_ended {
                        let error = ProtocolError::new(Reason::MessageAfterEnd, "No message may follow end_of_source_media");
                        return Ending::Error(error.with_request(message.name()));
                    }
                    match message {
                        ClientMessage::SourceMediaChunk(bytes) => {
                            idle_until = Instant::now() + limits.idle_timeout;
                            if let Err(error) = self.chunk(bytes) {
                                return Ending::Error(error.with_request("source_media_chunk"));
                            }
                        }
                        ClientMessage::EndOfSourceMedia => {
                            self.source_ended = true;
                            if let Err(error) = self.end_of_source() {
                                return Ending::Error(error.with_request("end_of_source_media"));
                            }
                        }
                    }
                }
                Some(decoded) = self.decoded.recv() => match decoded {
                    Decoded::Audio(samples) => {
                        if !self.rate_limit.take(samples.len() as f64 * 1000.0 / f64::from(RATE)) {
                            return Ending::Error(too_fast(&limits).with_request("source_media_chunk"));
                        }
                        self.meter.audio(samples.len() as u64);
                        let _ = self.pipeline_input.send(Input::Audio(samples));
                    }
                    // ffmpeg may see the end of a stream (an ogg end-of-stream page) before the client
                    // says so; the pipeline ends only at `end_of_source_media`.
                    Decoded::Finished => {
                        self.decoder_finished = true;
                        if self.source_ended {
                            let _ = self.pipeline_input.send(Input::End);
                        }
                    }
                    Decoded::Failed(cause) => {
                        tracing::info!(session = %self.claim.session_id, %cause, "ffmpeg cannot decode the stream");
                        let message = format!(
                            "Audio format not supported: the stream cannot be decoded as {}",
                            self.claim.parameters.source_media_content_type
                        );
                        return Ending::Error(ProtocolError::new(Reason::AudioFormatNotSupported, message)
                            .with_request("source_media_chunk"));
                    }
                },
                Some(output) = self.pipeline_output.recv() => match output {
                    Output::Message(message) => {
                        if !self.send(&message).await {
                            return Ending::Gone;
                        }
                    }
                    Output::Failed(error) => return Ending::Error(error),
                    Output::Done => return Ending::Completed,
                },
                Some(event) = self.meter_events.recv() => match event {
                    MeterEvent::LimitReached(message) => {
                        return Ending::Error(ProtocolError::new(Reason::SpeechLimitReached, message));
                    }
                    MeterEvent::Superseded => {
                        return Ending::Close {
                            code: CloseCode::Normal,
                            reason: "superseded: the session was reconnected",
                            record: EndReason::Closed,
                        };
                    }
                },
                () = tokio::time::sleep_until(idle_until), if !self.source_ended => {
                    let message = format!("No audio for {} seconds", limits.idle_timeout.as_secs_f32());
                    return Ending::Error(ProtocolError::new(Reason::IdleTimeout, message));
                }
                () = tokio::time::sleep_until(closes_at) => {
                    return Ending::Close {
                        code: CloseCode::Normal,
                        reason: "connection time limit reached: reconnect with a new token",
                        record: EndReason::Closed,
                    };
                }
                () = crate::server::stopped(&mut shutdown) => {
                    return Ending::Close {
                        code: CloseCode::Away,
                        reason: "the gateway is stopping: reconnect with a new token",
                        record: EndReason::Closed,
                    };
                }
            }
        }
    }

    /// Checks, decodes and meters a chunk of audio.
    fn chunk(&mut self, bytes: Vec<u8>) -> Result<(), ProtocolError> {
        let limits = &self.gateway.settings.limits;
        if bytes.len() > limits.max_chunk_bytes {
            let message =
                format!("A chunk may hold at most {} bytes; this one holds {}", limits.max_chunk_bytes, bytes.len());
            return Err(ProtocolError::new(Reason::ChunkTooLarge, message));
        }
        match &mut self.decoder {
            Decoder::Pcm { decoder, frame_bytes, rate } => {
                if !bytes.len().is_multiple_of(*frame_bytes) {
                    let message = format!("A PCM chunk must hold whole frames of {frame_bytes} bytes");
                    return Err(ProtocolError::new(Reason::PartialPcmFrame, message));
                }
                let frames = (bytes.len() / *frame_bytes) as u64;
                let milliseconds = frames as f64 * 1000.0 / f64::from(*rate);
                if milliseconds > limits.max_chunk_ms as f64 {
                    let message = format!("A chunk may hold at most {} ms of audio", limits.max_chunk_ms);
                    return Err(ProtocolError::new(Reason::ChunkTooLarge, message));
                }
                if !self.rate_limit.take(milliseconds) {
                    return Err(too_fast(limits));
                }
                let samples = decoder.decode(&bytes).map_err(|cause| {
                    tracing::error!(%cause, "PCM decoding failed");
                    ProtocolError::new(Reason::Internal, "The audio could not be decoded")
                })?;
                self.meter.audio(frames);
                let _ = self.pipeline_input.send(Input::Audio(samples));
            }
            Decoder::Ffmpeg(decoder) => decoder.write(bytes),
        }
        Ok(())
    }

    /// Flushes the decoder; the pipeline's end follows the last audio.
    fn end_of_source(&mut self) -> Result<(), ProtocolError> {
        match &mut self.decoder {
            Decoder::Pcm { decoder, .. } => {
                let samples = decoder.finish().map_err(|cause| {
                    tracing::error!(%cause, "PCM decoding failed");
                    ProtocolError::new(Reason::Internal, "The audio could not be decoded")
                })?;
                let _ = self.pipeline_input.send(Input::Audio(samples));
                let _ = self.pipeline_input.send(Input::End);
            }
            // ffmpeg flushes; `Decoded::Finished` then ends the pipeline's input.
            Decoder::Ffmpeg(decoder) => {
                decoder.finish();
                if self.decoder_finished {
                    let _ = self.pipeline_input.send(Input::End);
                }
            }
        }
        Ok(())
    }

    /// Sends a message; false when the socket is gone.
    async fn send(&mut self, message: &ServerMessage) -> bool {
        send_message(&mut self.sink, self.format, message).await
    }

    /// Ends the connection: stops the work, tells the client, reports usage, tells the broker.
    async fn end(mut self, ending: Ending, stream: &mut Stream<S>) {
        self.pipeline.abort();
        if let Decoder::Ffmpeg(decoder) = &mut self.decoder {
            decoder.kill();
        }
        let record = match ending {
            Ending::Completed => {
                close(&mut self.sink, stream, CloseCode::Normal, "end of stream").await;
                EndReason::Completed
            }
            Ending::Error(error) => {
                let record = if error.reason == Reason::IdleTimeout { EndReason::Timeout } else { EndReason::Error };
                tracing::info!(session = %self.claim.session_id, reason = error.reason.code(), "ended: {}", error.message);
                send_error(&mut self.sink, stream, self.format, error).await;
                record
            }
            Ending::Close { code, reason, record } => {
                tracing::info!(session = %self.claim.session_id, "closed: {reason}");
                close(&mut self.sink, stream, code, reason).await;
                record
            }
            Ending::Gone => EndReason::Closed,
        };
        self.meter.finish(FINAL_REPORT_PATIENCE).await;
        end_connection(&self.gateway, &self.claim, record).await;
        tracing::info!(session = %self.claim.session_id, connection = self.claim.connection, reason = record.as_str(), "connection ended");
    }
}

fn too_fast(limits: &crate::server::Limits) -> ProtocolError {
    let message = format!("Audio is arriving faster than {} times real time", limits.max_speed);
    ProtocolError::new(Reason::TooFast, message)
}

async fn send_message<S>(sink: &mut Sink<S>, format: MessageFormat, message: &ServerMessage) -> bool
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let frame = match message.encode(format) {
        Frame::Text(text) => Message::text(text),
        Frame::Binary(bytes) => Message::binary(bytes),
    };
    sink.send(frame).await.is_ok()
}

/// Sends an `error` message and closes (policy violation for the client's mistakes, internal error else).
async fn send_error<S>(sink: &mut Sink<S>, stream: &mut Stream<S>, format: MessageFormat, error: ProtocolError)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let code = if error.reason.error_code() >= 500 { CloseCode::Error } else { CloseCode::Policy };
    if send_message(sink, format, &ServerMessage::Error(error)).await {
        close(sink, stream, code, "session terminated").await;
    }
}

/// How long the closing handshake may take: the close frame going out and the client's answer.
const CLOSING_PATIENCE: Duration = Duration::from_secs(2);

/// The closing handshake: sends a close frame, then reads (and drops) what the client still sends
/// until its own close frame arrives, within `CLOSING_PATIENCE`. Dropping the socket while the
/// client's audio is unread would reset the connection, and the client could lose the error and
/// the close frame that were already on their way to it.
async fn close<S>(sink: &mut Sink<S>, stream: &mut Stream<S>, code: CloseCode, reason: &str)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let frame = CloseFrame { code, reason: reason.into() };
    let _ = tokio::time::timeout(CLOSING_PATIENCE, async {
        let _ = sink.send(Message::Close(Some(frame))).await;
        let _ = sink.flush().await;
        while let Some(Ok(message)) = stream.next().await {
            if message.is_close() {
                break;
            }
        }
        let _ = sink.close().await;
    })
    .await;
}

async fn end_connection(gateway: &Gateway, claim: &Claim, reason: EndReason) {
    let ended =
        tokio::time::timeout(FINAL_REPORT_PATIENCE, gateway.broker.end(&claim.session_id, claim.connection, reason))
            .await;
    match ended {
        Ok(Ok(())) => {}
        Ok(Err(error)) => tracing::warn!(session = %claim.session_id, %error, "recording the end failed"),
        Err(_) => tracing::warn!(session = %claim.session_id, "recording the end timed out"),
    }
}
