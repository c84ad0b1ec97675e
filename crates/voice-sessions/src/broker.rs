//! `POST /v3/voice/realtime` and its reconnect: a session for a developer key, and the token
//! and URL its client connects to the gateway with. The glossary and the spoken terms list a
//! session names must be its subscription's.

use accounts::{Plan, Principal};
use platform::{DbError, Id, Services};
use serde::Serialize;

use crate::request::SessionParameters;
use crate::spoken_terms::{self, store::TermsError};
use crate::store::{self, Session, SessionError};
use crate::token::{TOKEN_LIFETIME_MS, Token, TokenError, TokenSecret};

/// The variable naming the gateway's public origin (`wss://voice.example.com`).
pub const PUBLIC_URL_VARIABLE: &str = "voice_public_url";

/// What a session request or a reconnect answers.
#[derive(Debug, Serialize)]
pub struct StreamingAnswer {
    pub streaming_url: String,
    pub token: String,
    pub session_id: String,
}

/// Why a session could not be opened or reopened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("Real-time voice is available to Pro subscriptions only.")]
    FreePlan,
    #[error(
        "Translated speech is in closed beta and is not enabled for this subscription (its admins can turn it on: PUT /v2/admin/translated-speech)."
    )]
    SpeechNotEnabled,
    #[error("Glossary {0} not found.")]
    GlossaryNotFound(String),
    /// Unknown, or another subscription's.
    #[error("Spoken terms list not found.")]
    SpokenTermsNotFound,
    #[error("Quota for this billing period has been exceeded: no speech-to-text time is left.")]
    QuotaExceeded,
    #[error(transparent)]
    Token(#[from] TokenError),
    #[error(transparent)]
    Session(#[from] SessionError),
}

impl From<DbError> for OpenError {
    fn from(error: DbError) -> OpenError {
        OpenError::Session(SessionError::Store(error))
    }
}

fn unix_ms(services: &Services<'_>) -> i64 {
    let since = services.clock.now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

/// The answer for `session` at its newest generation; `version` is the path's (`v3` or `v1`).
fn answer(
    services: &Services<'_>,
    secret: &TokenSecret,
    session: &Session,
    public_url: &str,
    version: &str,
) -> StreamingAnswer {
    let token = Token {
        session: session.id,
        generation: session.token_generation,
        expires_ms: unix_ms(services) + TOKEN_LIFETIME_MS,
    };
    StreamingAnswer {
        streaming_url: format!("{}/{version}/voice/realtime/connect", public_url.trim_end_matches('/')),
        token: secret.sign(&token),
        session_id: session.id.to_string(),
    }
}

/// Whether `principal` may stream now: a Pro plan with speech time left.
fn check_allowed(services: &Services<'_>, principal: &Principal) -> Result<(), OpenError> {
    if principal.subscription.plan != Plan::Pro {
        return Err(OpenError::FreePlan);
    }
    let remaining = metering::speech_remaining(services, principal).map_err(|error| match error {
        metering::ReportError::Store(error) => OpenError::from(error),
        other => OpenError::from(DbError::Other(other.to_string())),
    })?;
    if remaining == Some(0) {
        return Err(OpenError::QuotaExceeded);
    }
    Ok(())
}

/// Opens a session for `principal` with `parameters`.
pub fn open(
    services: &Services<'_>,
    principal: &Principal,
    parameters: SessionParameters,
    secret: &TokenSecret,
    public_url: &str,
    version: &str,
) -> Result<StreamingAnswer, OpenError> {
    check_allowed(services, principal)?;
    if let Some(id) = parameters.glossary_id.as_deref().and_then(Id::parse) {
        match glossary::store::get(services.db, &principal.subscription.id, &id) {
            Ok(_) => {}
            Err(glossary::GlossaryError::NotFound) => return Err(OpenError::GlossaryNotFound(id.to_string())),
            Err(error) => return Err(DbError::Other(error.to_string()).into()),
        }
    }
    if let Some(id) = parameters.spoken_terms_id.as_deref().and_then(Id::parse) {
        match spoken_terms::store::get(services.db, &principal.subscription.id, &id) {
            Ok(_) => {}
            Err(TermsError::NotFound) => return Err(OpenError::SpokenTermsNotFound),
            Err(TermsError::Store(error)) => return Err(error.into()),
            Err(error) => return Err(DbError::Other(error.to_string()).into()),
        }
    }
    // Translated speech is a closed beta: off unless the subscription's admins turned it on.
    let subscription = principal.subscription.id.as_str();
    if !parameters.target_media_languages.is_empty()
        && !crate::settings::translated_speech(services, subscription)?.translated_speech
    {
        return Err(OpenError::SpeechNotEnabled);
    }
    let session = store::create(services, principal, parameters)?;
    Ok(answer(services, secret, &session, public_url, version))
}

/// A fresh token for the session the newest `token` names; the connection that token opened
/// (if any) is superseded.
pub fn reopen(
    services: &Services<'_>,
    principal: &Principal,
    token: &str,
    secret: &TokenSecret,
    public_url: &str,
    version: &str,
) -> Result<StreamingAnswer, OpenError> {
    check_allowed(services, principal)?;
    let token = secret.verify(token)?;
    let session = store::reconnect(services, principal, &token)?;
    Ok(answer(services, secret, &session, public_url, version))
}
