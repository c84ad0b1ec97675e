//! The voice gateway: the native half of the Service API's real-time voice.
//!
//! Spin has no inbound WebSocket, so this program terminates
//! `GET /v3/voice/realtime/connect?token=…` and speaks the voice message protocol. It keeps no state of
//! its own: a session's parameters come from the application's `voice` component (the broker), usage
//! goes back to it, and speech recognition comes from the inference service (or, if the operator
//! chooses, an OpenAI-compatible transcription server).
//!
//! * `server`: the HTTP server, the upgrade, `/health`, shutdown; the settings and limits.
//! * `session`: one connection, from claim to close: checks, decoding, metering, limits.
//! * `protocol`: the messages in JSON and MessagePack, and the error reason codes.
//! * `audio`: the source formats, PCM and G.711 decoding, resampling to 16 kHz; `ffmpeg`: the rest.
//! * `segmenter`: cutting recognised speech into tentative and concluded segments, concluding at the
//!   pauses that `activity` (a frame-energy voice detector) hears.
//! * `pipeline`: recognition and translation of a session, and the end messages.
//! * `speech`: translated speech (closed beta): espeak-ng per segment, one streaming ffmpeg encoder;
//!   `voices`: the synthesiser of a session, a Piper voice of the inference service where one speaks
//!   the language, else espeak-ng.
//! * `meter`: usage reports.
//! * `broker`, `recognizer`, `client`: the services the gateway calls; `recognizer` is the recogniser
//!   chosen at start: the inference service, or an OpenAI-compatible server (`openai`, which sends a
//!   `wav` file in a `multipart` form and maps whisper's language names through `languages`).
//!
//! `main.rs` is the command line around them.

pub mod activity;
pub mod audio;
pub mod broker;
pub mod client;
pub mod ffmpeg;
pub mod languages;
pub mod meter;
pub mod multipart;
pub mod openai;
pub mod pipeline;
pub mod protocol;
pub mod recognizer;
pub mod segmenter;
pub mod server;
pub mod session;
pub mod speech;
pub mod voices;
pub mod wav;
