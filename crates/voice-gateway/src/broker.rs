//! The application's internal voice routes (the broker): claiming a token, reporting usage, translating
//! concluded segments, ending a connection. Every call carries the gateway's shared secret.

use http::StatusCode;
use serde::Deserialize;
use serde_json::json;

use crate::client::{CallError, JsonClient, parse_ok};
use crate::protocol::{ProtocolError, Reason};

/// What the broker knows about the session the token names.
#[derive(Debug, Clone, Deserialize)]
pub struct Claim {
    pub session_id: String,
    /// This connection's number within the session (1, then one more per reconnect).
    pub connection: u64,
    pub parameters: SessionParameters,
    /// The speech milliseconds left under the key's and subscription's limits; `None`: unlimited.
    #[serde(default)]
    pub remaining_ms: Option<u64>,
}

/// The session's parameters, as requested when the session was created.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct SessionParameters {
    pub source_media_content_type: String,
    pub message_format: Option<String>,
    pub source_language: Option<String>,
    pub source_language_mode: Option<String>,
    pub target_languages: Vec<String>,
    pub target_media_languages: Vec<String>,
    pub target_media_content_type: Option<String>,
    pub target_media_voice: Option<String>,
    pub formality: Option<String>,
    pub glossary_id: Option<String>,
    pub spoken_terms: Vec<String>,
}

impl SessionParameters {
    /// The language the recogniser must use: the source language when its mode is `fixed`.
    pub fn fixed_language(&self) -> Option<&str> {
        let fixed = self.source_language_mode.as_deref().is_some_and(|mode| mode.eq_ignore_ascii_case("fixed"));
        self.source_language.as_deref().filter(|language| fixed && !language.is_empty())
    }
}

/// How a usage report was answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UsageOutcome {
    /// Recorded; the milliseconds left (`None`: unlimited).
    Recorded { remaining_ms: Option<u64> },
    /// The key's or subscription's speech limit is reached (456): the broker's message.
    LimitReached(String),
    /// A reconnect token was issued: this connection must close.
    Superseded,
}

/// Why a connection ended, as the broker records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// The stream ended with `end_of_stream`.
    Completed,
    /// The session ended with an `error` message.
    Error,
    /// No audio within the idle limit.
    Timeout,
    /// The socket closed without ending the session (client close, reconnect, the connection limit,
    /// the gateway stopping).
    Closed,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Completed => "completed",
            EndReason::Error => "error",
            EndReason::Timeout => "timeout",
            EndReason::Closed => "closed",
        }
    }
}

/// The broker's client.
#[derive(Debug, Clone)]
pub struct Broker {
    client: JsonClient,
}

impl Broker {
    pub fn new(client: JsonClient) -> Broker {
        Broker { client }
    }

    /// Claims the token of a connection: the session, or the `error` to send the client.
    pub async fn claim(&self, token: &str) -> Result<Claim, ProtocolError> {
        let internal = |cause: &dyn std::fmt::Display| {
            tracing::error!(%cause, "claiming a token failed");
            ProtocolError::new(Reason::Internal, "The session could not be started")
        };
        let (status, answer) = self
            .client
            .post("/internal/voice/claim", &json!({"token": token}))
            .await
            .map_err(|error| internal(&error))?;
        match status {
            StatusCode::OK => parse_ok(status, &answer).map_err(|error| internal(&error)),
            StatusCode::NOT_FOUND => {
                Err(ProtocolError::new(Reason::TokenInvalid, "The token is unknown or has expired"))
            }
            StatusCode::CONFLICT => {
                let error = CallError::Status { status, body: String::from_utf8_lossy(&answer).into_owned() };
                let (reason, message) = match error.field("code").as_deref() {
                    Some("token_reused") => {
                        (Reason::TokenReused, "The token was already used; the session is terminated")
                    }
                    Some("token_outdated") => {
                        (Reason::TokenOutdated, "A newer token exists for this session; the session is terminated")
                    }
                    _ => (Reason::SessionEnded, "The session has ended"),
                };
                Err(ProtocolError::new(reason, message))
            }
            other => Err(internal(&format!("status {other}"))),
        }
    }

    /// Reports the audio milliseconds processed since the previous report of this connection.
    pub async fn report_usage(
        &self,
        session_id: &str,
        connection: u64,
        sequence: u64,
        milliseconds: u64,
    ) -> Result<UsageOutcome, CallError> {
        #[derive(Deserialize)]
        struct Recorded {
            #[serde(default)]
            remaining_ms: Option<u64>,
        }
        let body = json!({
            "session_id": session_id, "connection": connection, "sequence": sequence, "milliseconds": milliseconds,
        });
        let (status, answer) = self.client.post("/internal/voice/usage", &body).await?;
        match status.as_u16() {
            200 => parse_ok::<Recorded>(status, &answer)
                .map(|recorded| UsageOutcome::Recorded { remaining_ms: recorded.remaining_ms }),
            456 => {
                let error = CallError::Status { status, body: String::from_utf8_lossy(&answer).into_owned() };
                let message = error.field("message").unwrap_or_else(|| "The speech limit is reached".to_string());
                Ok(UsageOutcome::LimitReached(message))
            }
            409 => Ok(UsageOutcome::Superseded),
            _ => Err(CallError::Status { status, body: String::from_utf8_lossy(&answer).into_owned() }),
        }
    }

    /// Translates segments (the broker applies the session's glossary and formality).
    pub async fn translate(
        &self,
        session_id: &str,
        texts: &[String],
        source_lang: &str,
        target_lang: &str,
    ) -> Result<Vec<String>, CallError> {
        #[derive(Deserialize)]
        struct Translations {
            translations: Vec<String>,
        }
        let body =
            json!({"session_id": session_id, "texts": texts, "source_lang": source_lang, "target_lang": target_lang});
        let answer: Translations = self.client.post_json("/internal/voice/translate", &body).await?;
        if answer.translations.len() != texts.len() {
            return Err(CallError::Invalid(format!(
                "{} translations for {} texts",
                answer.translations.len(),
                texts.len()
            )));
        }
        Ok(answer.translations)
    }

    /// Records the end of a connection.
    pub async fn end(&self, session_id: &str, connection: u64, reason: EndReason) -> Result<(), CallError> {
        let body = json!({"session_id": session_id, "connection": connection, "reason": reason.as_str()});
        let (status, answer) = self.client.post("/internal/voice/end", &body).await?;
        if status.is_success() {
            Ok(())
        } else {
            Err(CallError::Status { status, body: String::from_utf8_lossy(&answer).into_owned() })
        }
    }
}
