//! What the voice gateway asks of the application, through the internal routes
//! `/internal/voice/*`: claim a token (the answer carries the terms of the session's spoken terms
//! list, read at the claim), report usage, translate concluded segments, end a
//! connection. The gateway has no database of its own; it proves itself with the shared secret
//! of variable [`GATEWAY_SECRET_VARIABLE`].

use engines::{DetectLanguage, Engine};
use platform::{Id, Services, Variables};
use serde::Serialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use translation::{RawTranslateRequest, Sources, TranslateRequest};

use crate::request::SessionParameters;
use crate::spoken_terms::{self, store::TermsError};
use crate::store::{self, Session, SessionError};
use crate::token::{TokenError, TokenSecret};

/// The variable holding the secret the gateway sends as `Authorization: Bearer <secret>`.
pub const GATEWAY_SECRET_VARIABLE: &str = "voice_gateway_secret";

/// At most this many texts per translate call (a gateway sends a few concluded segments).
pub const MAX_TEXTS: usize = 50;

/// The gateway's secret, compared as SHA-256 digests in constant time.
pub struct GatewaySecret([u8; 32]);

impl GatewaySecret {
    /// The secret from [`GATEWAY_SECRET_VARIABLE`], if it is set (16 bytes or more).
    pub fn configured(vars: &dyn Variables) -> Option<GatewaySecret> {
        let secret = vars.get(GATEWAY_SECRET_VARIABLE).ok().flatten()?;
        let secret = secret.trim();
        (secret.len() >= 16).then(|| GatewaySecret(Sha256::digest(secret.as_bytes()).into()))
    }

    /// Whether an `Authorization` header carries the secret.
    pub fn admits(&self, authorization: Option<&str>) -> bool {
        let Some(given) = authorization.and_then(|value| value.trim().strip_prefix("Bearer ")) else { return false };
        let digest: [u8; 32] = Sha256::digest(given.trim().as_bytes()).into();
        bool::from(digest.ct_eq(&self.0))
    }
}

/// What a claim answers the gateway: the session's parameters and what it may still use.
///
/// The gateway reads the terms inside `parameters` (`parameters.spoken_terms`); they are
/// answered there and, as documented first, beside `parameters` too.
#[derive(Debug)]
pub struct Claimed {
    pub session_id: String,
    /// The token generation this connection was opened with; its usage reports name it.
    pub connection: i64,
    pub parameters: SessionParameters,
    /// The terms of the session's spoken terms list as it is at the claim, in order; none when
    /// the session names no list, or the list was deleted since.
    pub spoken_terms: Vec<String>,
    /// Milliseconds the key and subscription still allow; `None`: no limit.
    pub remaining_ms: Option<i64>,
}

/// [`Claimed`] as it is sent.
#[derive(Serialize)]
struct ClaimedWire<'a> {
    session_id: &'a str,
    connection: i64,
    parameters: ParametersWire<'a>,
    spoken_terms: &'a [String],
    remaining_ms: Option<i64>,
}

/// The session's parameters with the list's terms.
#[derive(Serialize)]
struct ParametersWire<'a> {
    #[serde(flatten)]
    parameters: &'a SessionParameters,
    spoken_terms: &'a [String],
}

impl Serialize for Claimed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ClaimedWire {
            session_id: &self.session_id,
            connection: self.connection,
            parameters: ParametersWire { parameters: &self.parameters, spoken_terms: &self.spoken_terms },
            spoken_terms: &self.spoken_terms,
            remaining_ms: self.remaining_ms,
        }
        .serialize(serializer)
    }
}

/// Why a gateway could not claim a token.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    #[error(transparent)]
    Token(#[from] TokenError),
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// A gateway connects a client with `token`: the token must be this deployment's, fresh, the
/// session's newest and unused (see [`store::claim`]).
pub fn claim(services: &Services<'_>, secret: &TokenSecret, token: &str) -> Result<Claimed, ClaimError> {
    let now = services.clock.now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let token = secret.verify(token)?.fresh(i64::try_from(now.as_millis()).unwrap_or(i64::MAX))?;
    let session = store::claim(services, &token)?;
    Ok(claimed(services, session)?)
}

/// What the gateway is told of `session`, which it has just claimed.
fn claimed(services: &Services<'_>, session: Session) -> Result<Claimed, SessionError> {
    let principal = store::principal(services, &session)?.ok_or(SessionError::NotFound)?;
    let remaining_ms = metering::speech_remaining(services, &principal).map_err(|error| match error {
        metering::ReportError::Store(error) => SessionError::Store(error),
        other => SessionError::Store(platform::DbError::Other(other.to_string())),
    })?;
    let spoken_terms = spoken_terms_of(services, &session)?;
    Ok(Claimed {
        session_id: session.id.to_string(),
        connection: session.claimed_generation,
        parameters: session.parameters,
        spoken_terms,
        remaining_ms,
    })
}

/// The terms of the list `session` names, read now, from its subscription's lists; none when it
/// names none or the list has been deleted since the session was opened.
fn spoken_terms_of(services: &Services<'_>, session: &Session) -> Result<Vec<String>, SessionError> {
    let Some(id) = session.parameters.spoken_terms_id.as_deref().and_then(Id::parse) else {
        return Ok(Vec::new());
    };
    match spoken_terms::store::get(services.db, &session.subscription_id, &id) {
        Ok(list) => Ok(list.terms),
        Err(TermsError::NotFound) => Ok(Vec::new()),
        Err(TermsError::Store(error)) => Err(SessionError::Store(error)),
        Err(error) => Err(SessionError::Store(platform::DbError::Other(error.to_string()))),
    }
}

/// What a usage report answers while the connection may go on.
#[derive(Debug, Serialize)]
pub struct UsageAnswer {
    /// Milliseconds still allowed; `None`: no limit.
    pub remaining_ms: Option<i64>,
}

/// Translated segments, in the order given.
#[derive(Debug, Serialize)]
pub struct Translated {
    pub translations: Vec<String>,
}

/// Why segments could not be translated.
#[derive(Debug, thiserror::Error)]
pub enum TranslateError {
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error("Value for '{0}' not supported: {1}")]
    Invalid(&'static str, String),
    #[error(transparent)]
    Translation(#[from] translation::TranslateError),
}

/// The source language of segments as translation takes it: the recogniser's code where the
/// catalogue knows it as a source (whisper's `no` is `nb`), else none, and the text's language
/// is detected (a recogniser may name languages the API does not translate from).
fn source_language(code: &str) -> Option<String> {
    let code = match code.trim().to_ascii_lowercase().as_str() {
        "no" => "nb".to_owned(),
        other => other.to_owned(),
    };
    catalogue::parse_source(&code).ok().map(|_| code)
}

/// The texts of concluded segments of session `id`, from `source` into `target` (one of the
/// session's targets), with the session's formality and glossary (where it has the pair).
/// Speech is billed by the millisecond: translating it bills no characters.
pub fn translate(
    services: &Services<'_>,
    engine: &dyn Engine,
    detector: &dyn DetectLanguage,
    id: &Id,
    texts: Vec<String>,
    source: &str,
    target: &str,
) -> Result<Translated, TranslateError> {
    let session = store::find(services, id).map_err(SessionError::from)?.ok_or(SessionError::NotFound)?;
    let parameters = &session.parameters;
    if !parameters.target_languages.iter().any(|language| language.eq_ignore_ascii_case(target)) {
        return Err(TranslateError::Invalid("target_lang", format!("'{target}' is not a target of this session.")));
    }
    if texts.is_empty() || texts.len() > MAX_TEXTS {
        return Err(TranslateError::Invalid("texts", format!("give 1 to {MAX_TEXTS} texts.")));
    }
    let formality = match parameters.formality.as_str() {
        "formal" | "more" => Some("prefer_more".to_owned()),
        "informal" | "less" => Some("prefer_less".to_owned()),
        _ => None,
    };
    let raw = RawTranslateRequest {
        text: Some(texts),
        source_lang: source_language(source),
        target_lang: Some(target.to_owned()),
        formality,
        ..RawTranslateRequest::default()
    };
    let request =
        TranslateRequest::parse(raw).map_err(|error| TranslateError::Invalid("source_lang", error.to_string()))?;
    let glossary_ids: Vec<Id> = parameters.glossary_id.as_deref().and_then(Id::parse).into_iter().collect();
    let subscription = session.subscription_id.as_str();
    // A session's glossary serves the pairs it has dictionaries for; the others go without.
    let terms = match glossary::Terms::resolve(services.db, subscription, &glossary_ids, request.source, request.target)
    {
        Ok(terms) => terms,
        Err(glossary::LookupError::Store(error)) => return Err(SessionError::Store(error).into()),
        Err(_) => glossary::Terms::resolve(services.db, subscription, &[], request.source, request.target)
            .map_err(|error| SessionError::Store(platform::DbError::Other(error.to_string())))?,
    };
    let styles = styles::Styles::new(services.db, subscription);
    let memories = memory::Memories::new(services.db, subscription);
    let sources = Sources { terms: &terms, styles: &styles, memories: &memories };
    let translations = translation::translate(&request, engine, &sources, detector)?;
    Ok(Translated { translations: translations.items.into_iter().map(|item| item.text).collect() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_configured_secret_is_admitted() {
        let vars: std::collections::HashMap<String, String> =
            [(GATEWAY_SECRET_VARIABLE.to_owned(), " a gateway secret, long enough ".to_owned())].into();
        let secret = GatewaySecret::configured(&vars).unwrap();
        assert!(secret.admits(Some("Bearer a gateway secret, long enough")));
        assert!(!secret.admits(Some("Bearer a gateway secret, long enougH")));
        assert!(!secret.admits(Some("a gateway secret, long enough")));
        assert!(!secret.admits(None));
        let short: std::collections::HashMap<String, String> =
            [(GATEWAY_SECRET_VARIABLE.to_owned(), "short".to_owned())].into();
        assert!(GatewaySecret::configured(&short).is_none());
    }
}
