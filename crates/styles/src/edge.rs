//! What the HTTP edge needs from style rules: ids from paths, requests from their parameters,
//! and the answer for each failure.

use api::{ApiError, Params, Request};
use platform::Id;
use serde_json::Value;
use stylebook::ConfiguredRules;

use crate::request::{self, Listing, NewInstruction, NewList, RawInstruction, RawList, RawListing, RequestError};
use crate::store::StyleError;

/// A list's id from a path: anything but a UUID is a 400, as the API answers it.
pub fn style_id(raw: &str) -> Result<Id, ApiError> {
    Id::parse(raw).ok_or_else(|| ApiError::bad_request("Invalid style_id"))
}

/// An instruction's id from a path: anything but a UUID is a 400.
pub fn instruction_id(raw: &str) -> Result<Id, ApiError> {
    Id::parse(raw).ok_or_else(|| ApiError::bad_request("Invalid instruction_id"))
}

/// `POST /v3/style_rules`: `name`, `language`, `configured_rules`, `custom_instructions`.
pub fn new_list(params: &Params) -> Result<NewList, ApiError> {
    let raw = RawList {
        name: params.string("name")?,
        language: params.string("language")?,
        configured_rules: params.value("configured_rules").cloned(),
        custom_instructions: params.value("custom_instructions").cloned(),
    };
    Ok(raw.parse()?)
}

/// `PATCH /v3/style_rules/{id}`: the new `name`.
pub fn name(params: &Params) -> Result<String, ApiError> {
    Ok(request::name(params.string("name")?)?)
}

/// `POST`/`PUT …/custom_instructions`: `label`, `prompt`, `source_language`.
pub fn instruction(params: &Params) -> Result<NewInstruction, ApiError> {
    let raw = RawInstruction {
        label: params.string("label")?,
        prompt: params.string("prompt")?,
        source_language: params.string("source_language")?,
    };
    Ok(raw.parse()?)
}

/// `GET /v3/style_rules`: `page`, `page_size`, `detailed`.
pub fn listing(params: &Params) -> Result<Listing, ApiError> {
    let raw = RawListing {
        page: params.integer("page")?,
        page_size: params.integer("page_size")?,
        detailed: params.bool("detailed")?,
    };
    Ok(raw.parse()?)
}

/// `PUT …/configured_rules`: the JSON body is the configured rules, whole.
pub fn configured_rules(request: &Request) -> Result<ConfiguredRules, ApiError> {
    let value: Value = serde_json::from_slice(&request.body).map_err(|error| {
        ApiError::bad_request(format!("Invalid request: the body must be a JSON object of configured rules ({error})."))
    })?;
    Ok(request::configured_rules(&value)?)
}

impl From<RequestError> for ApiError {
    fn from(error: RequestError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

impl From<StyleError> for ApiError {
    fn from(error: StyleError) -> ApiError {
        match error {
            StyleError::NotFound | StyleError::InstructionNotFound => ApiError::not_found(error.to_string()),
            StyleError::TooManyLists => ApiError::new(456, error.to_string()),
            StyleError::TooManyInstructions => ApiError::bad_request(error.to_string()),
            StyleError::Store(cause) => ApiError::internal(&cause),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(json: &str) -> Params {
        Params::from_json(json.as_bytes()).unwrap()
    }

    #[test]
    fn ids_that_are_not_uuids_are_refused_by_name() {
        assert_eq!(style_id("nope").unwrap_err().message, "Invalid style_id");
        assert_eq!(instruction_id("1234").unwrap_err().status, 400);
        assert!(style_id("def3a26b-3e84-45b3-84ae-0c0aaf3525f7").is_ok());
    }

    #[test]
    fn parameters_of_the_wrong_type_are_named() {
        let error = new_list(&params(r#"{"name": ["a"], "language": "en"}"#)).unwrap_err();
        assert_eq!((error.status, error.message.as_str()), (400, "Value for 'name' not supported."));
        let error = listing(&params(r#"{"page_size": "many"}"#)).unwrap_err();
        assert_eq!(error.message, "Value for 'page_size' not supported.");
        assert_eq!(listing(&Params::from_form(b"page=1&page_size=25&detailed=1")).unwrap().page_size, 25);
    }

    #[test]
    fn configured_rules_come_from_the_whole_body() {
        let request = |body: &str| Request {
            method: "PUT".into(),
            path: "/v3/style_rules/x/configured_rules".into(),
            query: String::new(),
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
        };
        let rules = configured_rules(&request(r#"{"punctuation": {"apostrophe": "use_curly_apostrophes"}}"#)).unwrap();
        assert_eq!(rules.len(), 1);
        assert!(configured_rules(&request("[")).unwrap_err().message.contains("JSON object"));
        assert!(configured_rules(&request(r#"{"colours": {}}"#)).unwrap_err().message.contains("colours"));
    }
}
