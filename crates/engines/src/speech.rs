//! What the inference service's speech family recognises: `GET /v1/speech/models` (with the
//! `inference_secret`), each model with the languages it recognises. Real-time voice lists its
//! spoken languages from it; the voice gateway does the recognising.

use std::collections::BTreeSet;

use platform::{OutboundHttp, Variables};
use serde::Deserialize;

use crate::ctranslate2::Ctranslate2Settings;
use crate::{ConfigError, EngineError};

/// The family's name in errors.
const NAME: &str = "speech recognition";

/// The languages the installed speech models recognise (ISO 639-1 codes, as whisper names them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recognition {
    pub languages: BTreeSet<String>,
    /// Whether a model recognises several languages, and so tells which one is spoken.
    pub detects_language: bool,
}

#[derive(Deserialize)]
struct ModelList {
    models: Vec<SpeechModel>,
}

#[derive(Deserialize)]
struct SpeechModel {
    languages: Vec<String>,
    multilingual: bool,
}

/// A recogniser's language code as the API spells it: whisper names Norwegian `no`, the API `nb`.
fn api_code(code: &str) -> String {
    match code.to_ascii_lowercase().as_str() {
        "no" => "nb".to_owned(),
        other => other.to_owned(),
    }
}

/// Asks the inference service the variables name; `Ok(None)` when no secret is configured (no
/// service to ask).
pub fn recognition(vars: &dyn Variables, http: &dyn OutboundHttp) -> Result<Option<Recognition>, EngineError> {
    let settings = match Ctranslate2Settings::from_variables(vars, crate::config::DEFAULT_TIMEOUT, true) {
        Ok(settings) => settings,
        Err(ConfigError::Missing { .. }) => return Ok(None),
        Err(error) => return Err(EngineError::Unavailable { engine: NAME, reason: error.to_string() }),
    };
    let list: ModelList = settings.get_json(http, "/v1/speech/models", NAME)?;
    let mut recognition = Recognition::default();
    for model in list.models {
        recognition.detects_language |= model.multilingual;
        recognition.languages.extend(model.languages.iter().map(|code| api_code(code)));
    }
    Ok(Some(recognition))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::test_support::{FakeHttp, json_response};

    fn vars(secret: Option<&str>) -> HashMap<String, String> {
        let mut vars = HashMap::from([("inference_url".to_owned(), "http://speech.test:2741".to_owned())]);
        if let Some(secret) = secret {
            vars.insert("inference_secret".to_owned(), secret.to_owned());
        }
        vars
    }

    #[test]
    fn the_languages_of_every_installed_model_with_the_secret() {
        let http = FakeHttp::new(|_| {
            json_response(
                200,
                r#"{"models": [{"name": "whisper-base", "languages": ["en", "de", "no"], "multilingual": true},
                               {"name": "whisper-tiny.en", "languages": ["en"], "multilingual": false}]}"#,
            )
        });
        let found = recognition(&vars(Some("s3cret")), &http).unwrap().unwrap();
        assert_eq!(found.languages.into_iter().collect::<Vec<_>>(), ["de", "en", "nb"]);
        assert!(found.detects_language);
        let sent = &http.requests.borrow()[0];
        assert_eq!(sent.url, "http://speech.test:2741/v1/speech/models");
        assert!(sent.headers.iter().any(|(name, value)| name == "authorization" && value == "Bearer s3cret"));
    }

    #[test]
    fn no_secret_asks_nothing_and_a_failing_service_is_an_error() {
        let http = FakeHttp::new(|_| json_response(200, r#"{"models": []}"#));
        assert_eq!(recognition(&vars(None), &http).unwrap(), None);
        assert_eq!(http.count("/v1/speech/models"), 0);
        let only_english = FakeHttp::new(|_| {
            json_response(200, r#"{"models": [{"name": "t", "languages": ["en"], "multilingual": false}]}"#)
        });
        let found = recognition(&vars(Some("s")), &only_english).unwrap().unwrap();
        assert!(!found.detects_language);
        let failing = FakeHttp::new(|_| json_response(401, r#"{"message": "wrong secret"}"#));
        let error = recognition(&vars(Some("s")), &failing).unwrap_err();
        assert!(error.to_string().contains("401"), "{error}");
    }
}
