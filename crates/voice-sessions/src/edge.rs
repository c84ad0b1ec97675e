//! What the HTTP edge needs from voice: session requests from their parameters, spoken terms
//! lists from theirs and their ids from paths, the gateway's calls from their bodies, and the
//! answer for each failure.

use api::{ApiError, Params};
use platform::Id;

use crate::broker::OpenError;
use crate::gateway::{ClaimError, TranslateError, UsageAnswer};
use crate::request::{RawSessionRequest, RequestError, SessionParameters};
use crate::spoken_terms::request::{NewTermsList, RawTermsList, TermsChange};
use crate::spoken_terms::store::TermsError;
use crate::store::{Ending, SessionError, UsageOutcome, UsageReport};
use crate::token::TokenError;

/// `POST /v3/voice/realtime`: every parameter of the session.
pub fn session_request(params: &Params) -> Result<SessionParameters, ApiError> {
    let raw = RawSessionRequest {
        source_media_content_type: params.string("source_media_content_type")?,
        message_format: params.string("message_format")?,
        source_language: params.string("source_language")?,
        source_language_mode: params.string("source_language_mode")?,
        target_languages: params.strings("target_languages")?,
        target_media_languages: params.strings("target_media_languages")?,
        target_media_content_type: params.string("target_media_content_type")?,
        target_media_voice: params.string("target_media_voice")?,
        spoken_terms_id: params.string("spoken_terms_id")?,
        glossary_id: params.string("glossary_id")?,
        formality: params.string("formality")?,
    };
    Ok(raw.parse()?)
}

/// A spoken terms list's id from a path (`/v2/admin/spoken-terms/{id}`): anything but a UUID
/// is a 400.
pub fn spoken_terms_id(raw: &str) -> Result<Id, ApiError> {
    Id::parse(raw.trim()).ok_or_else(|| ApiError::bad_request("Value for 'spoken_terms_id' not supported: not a UUID."))
}

/// `POST /v2/admin/spoken-terms`: `name` and `terms`.
pub fn new_spoken_terms(params: &Params) -> Result<NewTermsList, ApiError> {
    Ok(raw_terms_list(params)?.parse_new()?)
}

/// `PUT /v2/admin/spoken-terms/{id}`: `name`, `terms` or both.
pub fn spoken_terms_change(params: &Params) -> Result<TermsChange, ApiError> {
    Ok(raw_terms_list(params)?.parse_change()?)
}

fn raw_terms_list(params: &Params) -> Result<RawTermsList, ApiError> {
    Ok(RawTermsList { name: params.string("name")?, terms: params.strings("terms")? })
}

/// `PUT /v2/admin/translated-speech`: `enabled`, `true` or `false`.
pub fn translated_speech_enabled(params: &Params) -> Result<bool, ApiError> {
    params.bool("enabled")?.ok_or_else(|| api::params::missing("enabled"))
}

/// The `token` of a reconnect or a claim.
pub fn token(params: &Params) -> Result<String, ApiError> {
    params.required_string("token")
}

/// The `session_id` of a gateway call.
pub fn session_id(params: &Params) -> Result<Id, ApiError> {
    let raw = params.required_string("session_id")?;
    Id::parse(raw.trim()).ok_or_else(|| ApiError::bad_request("Value for 'session_id' not supported: not a UUID."))
}

/// A count a gateway call must give: a whole number, at least `min`.
fn count(params: &Params, name: &str, min: i64) -> Result<i64, ApiError> {
    match params.integer(name)? {
        Some(value) if value >= min => Ok(value),
        Some(_) => Err(ApiError::bad_request(format!("Value for '{name}' not supported: it must be at least {min}."))),
        None => Err(api::params::missing(name)),
    }
}

/// `POST /internal/voice/usage`: `connection`, `sequence`, `milliseconds`.
pub fn usage_report(params: &Params) -> Result<UsageReport, ApiError> {
    Ok(UsageReport {
        connection: count(params, "connection", 1)?,
        sequence: count(params, "sequence", 1)?,
        milliseconds: count(params, "milliseconds", 0)?,
    })
}

/// `POST /internal/voice/end`: `connection` and `reason`.
pub fn ending(params: &Params) -> Result<(i64, Ending), ApiError> {
    let ending = match params.required_string("reason")?.as_str() {
        "completed" => Ending::Completed,
        "error" => Ending::Error,
        "timeout" => Ending::Timeout,
        "closed" => Ending::Closed,
        other => {
            return Err(ApiError::bad_request(format!(
                "Value for 'reason' not supported: '{other}'; use completed, error, timeout or closed."
            )));
        }
    };
    Ok((count(params, "connection", 1)?, ending))
}

/// `POST /internal/voice/translate`: `texts`, `source_lang`, `target_lang`.
pub fn segments(params: &Params) -> Result<(Vec<String>, String, String), ApiError> {
    let texts = params.strings("texts")?.ok_or_else(|| api::params::missing("texts"))?;
    Ok((texts, params.required_string("source_lang")?, params.required_string("target_lang")?))
}

/// What a usage report answers the gateway: go on with what is left, or why the connection
/// ends (409 with code `superseded` or `session_ended`, 456, 403).
pub fn usage_answer(outcome: UsageOutcome) -> Result<UsageAnswer, ApiError> {
    match outcome {
        UsageOutcome::Continue { remaining_ms } => Ok(UsageAnswer { remaining_ms }),
        UsageOutcome::Superseded => {
            Err(ApiError::new(409, "A reconnect was requested: this connection ends.").with_code("superseded"))
        }
        UsageOutcome::Ended => Err(ApiError::new(409, "The session has ended.").with_code("session_ended")),
        UsageOutcome::LimitReached => {
            Err(ApiError::new(456, "Quota for this billing period has been exceeded: no speech-to-text time is left."))
        }
        UsageOutcome::Deactivated => Err(ApiError::new(403, "Authorization failure: the key has been deactivated.")),
    }
}

impl From<RequestError> for ApiError {
    fn from(error: RequestError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

impl From<TokenError> for ApiError {
    fn from(error: TokenError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

impl From<SessionError> for ApiError {
    fn from(error: SessionError) -> ApiError {
        match error {
            SessionError::NotFound | SessionError::UnknownConnection(_) => ApiError::not_found(error.to_string()),
            SessionError::Ended | SessionError::Outdated | SessionError::Reused => {
                ApiError::bad_request(error.to_string())
            }
            SessionError::Store(cause) => ApiError::internal(&cause),
        }
    }
}

impl From<OpenError> for ApiError {
    fn from(error: OpenError) -> ApiError {
        match error {
            OpenError::FreePlan | OpenError::SpeechNotEnabled => ApiError::new(403, error.to_string()),
            OpenError::GlossaryNotFound(_) | OpenError::SpokenTermsNotFound => ApiError::not_found(error.to_string()),
            OpenError::QuotaExceeded => ApiError::new(456, error.to_string()),
            OpenError::Token(error) => error.into(),
            OpenError::Session(error) => error.into(),
        }
    }
}

impl From<TermsError> for ApiError {
    fn from(error: TermsError) -> ApiError {
        match error {
            TermsError::NotFound => ApiError::not_found(error.to_string()),
            TermsError::TooManyLists => ApiError::new(456, error.to_string()),
            TermsError::Store(cause) => ApiError::internal(&cause),
            TermsError::Audit(cause) => ApiError::internal(&cause),
        }
    }
}

impl From<ClaimError> for ApiError {
    fn from(error: ClaimError) -> ApiError {
        match error {
            // An unknown or expired token names no session a gateway may open.
            ClaimError::Token(error) => ApiError::not_found(error.to_string()),
            ClaimError::Session(SessionError::Store(cause)) => ApiError::internal(&cause),
            ClaimError::Session(SessionError::NotFound) => ApiError::not_found(SessionError::NotFound.to_string()),
            ClaimError::Session(error) => ApiError::new(409, error.to_string()).with_code(reason(&error)),
        }
    }
}

/// The reason a gateway is given for a claim refused on the session's state.
fn reason(error: &SessionError) -> &'static str {
    match error {
        SessionError::Reused => "token_reused",
        SessionError::Outdated => "token_outdated",
        _ => "session_ended",
    }
}

impl From<TranslateError> for ApiError {
    fn from(error: TranslateError) -> ApiError {
        match error {
            TranslateError::Session(error) => error.into(),
            TranslateError::Invalid(..) => ApiError::bad_request(error.to_string()),
            TranslateError::Translation(error) => error.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(body: &str) -> Params {
        Params::from_json(body.as_bytes()).unwrap()
    }

    #[test]
    fn spoken_terms_lists_are_read_from_json_and_forms_and_their_ids_from_paths() {
        let error = spoken_terms_id("nope").unwrap_err();
        assert_eq!(
            (error.status, error.message.as_str()),
            (400, "Value for 'spoken_terms_id' not supported: not a UUID.")
        );
        assert!(spoken_terms_id("DEF3A26B-3E84-45B3-84AE-0C0AAF3525F7").is_ok());
        let list = new_spoken_terms(&json(r#"{"name": "n", "terms": "one"}"#)).unwrap();
        assert_eq!(list.terms, ["one"], "a single string is a list of one");
        let error = new_spoken_terms(&json(r#"{"name": {}, "terms": ["a"]}"#)).unwrap_err();
        assert_eq!((error.status, error.message.as_str()), (400, "Value for 'name' not supported."));
        let error = new_spoken_terms(&json(r#"{"name": "n", "terms": [1]}"#)).unwrap_err();
        assert_eq!(error.message, "Value for 'terms' not supported.");
        let change = spoken_terms_change(&Params::from_form(b"terms=a&terms=b")).unwrap();
        assert_eq!((change.name, change.terms), (None, Some(vec!["a".to_owned(), "b".to_owned()])));
        let error = spoken_terms_change(&json("{}")).unwrap_err();
        assert_eq!(error.message, "Parameter 'name' or 'terms' not specified");
    }

    #[test]
    fn spoken_terms_failures_answer_their_statuses() {
        let not_found = ApiError::from(TermsError::NotFound);
        assert_eq!((not_found.status, not_found.message.as_str()), (404, "Spoken terms list not found."));
        assert_eq!(ApiError::from(TermsError::TooManyLists).status, 456);
        let session = ApiError::from(OpenError::SpokenTermsNotFound);
        assert_eq!((session.status, session.message.as_str()), (404, "Spoken terms list not found."));
    }
}
