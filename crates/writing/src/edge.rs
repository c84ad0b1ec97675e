//! What the HTTP edge needs from write: a request read from its parameters, and the answer for
//! each failure.

use api::{ApiError, Params};

use crate::improve::{ToolsError, WriteError};
use crate::request::{Kind, RawWriteRequest, RequestError, WriteRequest};

/// What every client hears when the language-tools service is down or broken: nothing internal.
const UNAVAILABLE: &str = "The language-tools service is unavailable right now; try again later.";
/// What every client hears when no language-tools service is configured.
const NOT_CONFIGURED: &str = "Text improvement is not available on this server: no language-tools service is \
                              configured. An operator must set one up.";

impl RawWriteRequest {
    /// Reads a write request's parameters (JSON or form): `text` as a JSON array or string or a
    /// repeated form key; a parameter of the wrong type is a 400 naming it.
    pub fn from_params(params: &Params) -> Result<RawWriteRequest, ApiError> {
        Ok(RawWriteRequest {
            text: params.strings("text")?,
            target_lang: params.string("target_lang")?,
            writing_style: params.string("writing_style")?,
            tone: params.string("tone")?,
        })
    }
}

impl WriteRequest {
    /// Reads and validates a request to `kind`'s endpoint.
    pub fn from_params(params: &Params, kind: Kind) -> Result<WriteRequest, ApiError> {
        Ok(WriteRequest::parse(RawWriteRequest::from_params(params)?, kind)?)
    }
}

impl From<RequestError> for ApiError {
    fn from(error: RequestError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

/// The client's mistakes are 400s; a language-tools service that is missing, down or broken is a
/// 503 whose cause goes to the log; a broken contract between our own parts is a logged 500.
/// Nothing is billed for any of them.
impl From<WriteError> for ApiError {
    fn from(error: WriteError) -> ApiError {
        match error {
            WriteError::Request(error) => error.into(),
            WriteError::Refused(message) => ApiError::bad_request(message),
            WriteError::ToolsUnavailable(cause) => {
                eprintln!("write: {cause}");
                match cause {
                    ToolsError::NotConfigured(_) => ApiError::unavailable(NOT_CONFIGURED),
                    _ => ApiError::unavailable(UNAVAILABLE),
                }
            }
            internal @ WriteError::Internal(_) => ApiError::internal(&internal),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{Change, Requested, Style};

    fn json(body: &str, kind: Kind) -> Result<WriteRequest, ApiError> {
        WriteRequest::from_params(&Params::from_json(body.as_bytes()).unwrap(), kind)
    }

    fn form(body: &str, kind: Kind) -> Result<WriteRequest, ApiError> {
        WriteRequest::from_params(&Params::from_form(body.as_bytes()), kind)
    }

    #[test]
    fn text_is_read_as_an_array_a_string_or_a_repeated_form_key() {
        assert_eq!(json(r#"{"text": ["a", "b"]}"#, Kind::Correct).unwrap().texts, ["a", "b"]);
        assert_eq!(json(r#"{"text": "a"}"#, Kind::Correct).unwrap().texts, ["a"]);
        assert_eq!(form("text=a&text=b%20c", Kind::Rephrase).unwrap().texts, ["a", "b c"]);
    }

    #[test]
    fn every_parameter_is_read_from_json_and_forms() {
        let from_json =
            json(r#"{"text": ["Hi"], "target_lang": "EN", "writing_style": "prefer_business"}"#, Kind::Rephrase)
                .unwrap();
        let from_form = form("text=Hi&target_lang=EN&writing_style=prefer_business", Kind::Rephrase).unwrap();
        assert_eq!(from_json, from_form);
        assert_eq!(from_json.target.unwrap().lang(), "en-US");
        assert_eq!(from_json.requested, Some(Requested { change: Change::Style(Style::Business), prefer: true }));
        assert!(form("text=Hi&tone=friendly", Kind::Rephrase).unwrap().requested.is_some());
    }

    #[test]
    fn refused_parameters_are_400s_in_the_api_words() {
        let message = |result: Result<WriteRequest, ApiError>| {
            let error = result.unwrap_err();
            assert_eq!(error.status, 400);
            error.message
        };
        assert_eq!(message(json(r#"{"target_lang": "de"}"#, Kind::Rephrase)), "Parameter 'text' not specified");
        assert_eq!(message(json(r#"{"text": [1]}"#, Kind::Rephrase)), "Value for 'text' not supported.");
        assert_eq!(
            message(json(r#"{"text": ["a"], "tone": ["x"]}"#, Kind::Rephrase)),
            "Value for 'tone' not supported."
        );
        assert_eq!(
            message(form("text=a&writing_style=business&tone=friendly", Kind::Rephrase)),
            "Bad request. Reason: Both writing_style and tone defined. Currently only style OR tone can be chosen for a single request."
        );
        assert_eq!(
            message(form("text=a&target_lang=it&tone=confident", Kind::Rephrase)),
            "Language Italian does not support setting a tone."
        );
        assert!(message(form("text=a&writing_style=casual", Kind::Correct)).starts_with("Parameter 'writing_style'"));
        assert!(message(form("text=a&target_lang=nl", Kind::Correct)).contains("'nl'"));
    }

    #[test]
    fn each_failure_has_its_status_and_hides_internals() {
        let answer = |error: WriteError| ApiError::from(error);
        let refused = answer(WriteError::Refused("The translation engine does not translate from EN to NL.".into()));
        assert_eq!(
            (refused.status, refused.message.as_str()),
            (400, "The translation engine does not translate from EN to NL.")
        );
        let down = answer(WriteError::ToolsUnavailable(ToolsError::Unavailable("http://10.0.0.5:9000 refused".into())));
        assert_eq!((down.status, down.message.as_str()), (503, UNAVAILABLE));
        let broken = answer(WriteError::ToolsUnavailable(ToolsError::Invalid("no JSON".into())));
        assert_eq!((broken.status, broken.message.as_str()), (503, UNAVAILABLE));
        let unset = answer(WriteError::ToolsUnavailable(ToolsError::NotConfigured("secret unset".into())));
        assert_eq!((unset.status, unset.message.as_str()), (503, NOT_CONFIGURED));
        let internal = answer(WriteError::Internal("detect answered 1 items for 2 texts".into()));
        assert_eq!((internal.status, internal.message.contains("detect")), (500, false));
        let request = answer(WriteError::Request(RequestError::Undetected(2)));
        assert_eq!(request.status, 400);
    }
}
