//! Real-time voice, the application's half: sessions for developer keys, and what the native
//! voice gateway (which carries the audio over WebSocket) asks of the application.
//!
//! * `request.rs`: `POST /v3/voice/realtime`'s parameters ([`RawSessionRequest::parse`]), each
//!   checked against the reference's lists and the catalogue's voice languages.
//! * `token.rs`: tokens, signed with HMAC-SHA-256 under variable `voice_token_secret`, naming a
//!   session and a generation, valid for [`TOKEN_LIFETIME_MS`] to connect.
//! * `broker.rs`: [`open`] and [`reopen`] (reconnect): Pro plans only, speech time left, the
//!   session's glossary and spoken terms list found; the answer's `streaming_url` is variable
//!   `voice_public_url`'s.
//! * `store.rs`: the session record (`sql/0015_voice.sql`): single-use claims, usage reports
//!   billed once in milliseconds within the key's and the subscription's speech limits, endings.
//! * `gateway.rs`: the gateway's calls (`/internal/voice/*`), admitted by the shared secret of
//!   variable `voice_gateway_secret`: the claim's answer and the translation of segments.
//! * `spoken_terms.rs` (beta): spoken terms lists, a name and terms for each, managed by admin
//!   keys (`/v2/admin/spoken-terms`); their limits, requests and store (`sql/0016_spoken_terms.sql`),
//!   each change written to the audit log in its transaction (`accounts::record_spoken_terms`).
//! * `settings.rs`: a subscription's voice settings: whether its sessions may ask for translated
//!   speech (a closed beta), set by admin keys; the switch and its audit entries are `accounts`'
//!   (`sql/0017_voice_settings.sql`), which the languages listing reads too.
//! * `edge.rs`: the only file that knows HTTP.

mod broker;
mod edge;
pub mod gateway;
mod request;
pub mod settings;
pub mod spoken_terms;
pub mod store;
mod token;

#[cfg(test)]
mod tests;

pub use broker::{OpenError, PUBLIC_URL_VARIABLE, StreamingAnswer, open, reopen};
pub use edge::{
    ending, new_spoken_terms, segments, session_id, session_request, spoken_terms_change, spoken_terms_id, token,
    translated_speech_enabled, usage_answer, usage_report,
};
pub use request::{
    DEFAULT_TARGET_MEDIA_TYPE, MAX_SPEECH_TARGETS, MAX_TARGETS, MessageFormat, RawSessionRequest, RequestError,
    SOURCE_MEDIA_TYPES, SessionParameters, SourceLanguageMode, TARGET_MEDIA_TYPES, Voice,
};
pub use token::{TOKEN_LIFETIME_MS, TOKEN_SECRET_VARIABLE, Token, TokenError, TokenSecret};
