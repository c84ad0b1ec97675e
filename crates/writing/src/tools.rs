//! [`TextTools`] over the deployment's real tools: the language-tools service for detection and
//! correction (`engines::language_tools`), with detection through the same [`Detector`] that
//! translation uses, and the configured translation engine for texts in another language than
//! the target.
//!
//! Without a language-tools service there is no corrector, so every call to correct answers
//! [`ToolsError::NotConfigured`] (a 503 naming what the operator must set up); detection alone
//! would still work (built-in), but nothing is improved without correction, so nothing is
//! attempted.

use catalogue::Language;
use engines::language_tools::{self, LanguageTools};
use engines::{Chain, ConfigError, DetectLanguage, Detector, Engine, EngineError, EngineRequest};

use crate::improve::{TextTools, ToolsError};

/// The tools of one request.
pub struct ServiceTools<'a> {
    detector: Detector<'a>,
    corrector: Option<LanguageTools<'a>>,
    /// The translation engine, or why the variables cannot give one (answered only when a text
    /// needs translating).
    engine: Result<Chain<'a>, ConfigError>,
}

impl<'a> ServiceTools<'a> {
    /// The tools the variables of `services` configure. Settings of the language-tools service
    /// that cannot work are an error at once; the engine's only when a translation needs it.
    pub fn configured(services: &platform::Services<'a>) -> Result<ServiceTools<'a>, ConfigError> {
        let corrector = language_tools::ToolsSettings::from_variables(services.vars)?
            .map(|settings| LanguageTools::new(settings, services.http));
        Ok(ServiceTools { detector: Detector::configured(services), corrector, engine: engines::configured(services) })
    }

    /// Whether a language-tools service is configured (without one, nothing can be improved).
    pub fn can_correct(&self) -> bool {
        self.corrector.is_some()
    }

    fn corrector(&self) -> Result<&LanguageTools<'a>, ToolsError> {
        self.corrector.as_ref().ok_or_else(|| {
            ToolsError::NotConfigured("language_tools_secret is not set: no language-tools service".into())
        })
    }
}

impl From<language_tools::ToolsError> for ToolsError {
    fn from(error: language_tools::ToolsError) -> ToolsError {
        match error {
            language_tools::ToolsError::Unavailable(reason) => ToolsError::Unavailable(reason),
            language_tools::ToolsError::Invalid(reason) | language_tools::ToolsError::Refused(reason) => {
                ToolsError::Invalid(reason)
            }
        }
    }
}

impl TextTools for ServiceTools<'_> {
    fn detect(&self, texts: &[String]) -> Result<Vec<Option<&'static Language>>, ToolsError> {
        Ok(self.detector.detect_each(texts).into_iter().map(|detection| detection.language).collect())
    }

    fn correct(&self, language: &'static Language, texts: &[String]) -> Result<Vec<String>, ToolsError> {
        Ok(self.corrector()?.correct(language, texts)?)
    }

    fn corrected(&self) -> Result<Vec<&'static Language>, ToolsError> {
        Ok(self.corrector()?.corrected()?)
    }

    fn translate(&self, text: &str, from: &'static Language, to: &'static Language) -> Result<String, ToolsError> {
        let engine = self.engine.as_ref().map_err(|error| ToolsError::NotConfigured(error.problem()))?;
        let texts = [text.to_owned()];
        let mut translated = engine.translate(&EngineRequest::new(from, to, &texts)).map_err(|error| match error {
            refused @ EngineError::UnsupportedPair { .. } => ToolsError::Refused(refused.to_string()),
            EngineError::Unavailable { .. } => ToolsError::Unavailable(error.to_string()),
            EngineError::Invalid(reason) => ToolsError::Invalid(reason),
        })?;
        translated.pop().ok_or_else(|| ToolsError::Invalid("the engine answered no text".into()))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use platform::{HttpError, HttpRequest, HttpResponse, OutboundHttp};

    use super::*;

    /// A language-tools service that corrects by upper-casing, or is down.
    struct Service {
        up: bool,
    }

    impl OutboundHttp for Service {
        fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
            if !self.up {
                return Err(HttpError::Unreachable { url: request.url, reason: "refused".into() });
            }
            if request.url.ends_with("/health") {
                let health = serde_json::json!({"status": "ok", "detection": ["de", "en"], "correction": ["de", "en"]});
                return Ok(HttpResponse { status: 200, headers: Vec::new(), body: health.to_string().into_bytes() });
            }
            let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
            let answer = if request.url.ends_with("/correct") {
                let texts: Vec<String> = body["texts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|text| text.as_str().unwrap().to_uppercase())
                    .collect();
                serde_json::json!({ "texts": texts })
            } else {
                let count = body["texts"].as_array().unwrap().len();
                serde_json::json!({"results": vec![serde_json::json!({"language": "en", "confidence": 0.9}); count]})
            };
            Ok(HttpResponse { status: 200, headers: Vec::new(), body: answer.to_string().into_bytes() })
        }
    }

    fn vars() -> HashMap<String, String> {
        [
            ("language_tools_url".to_owned(), "http://127.0.0.1:2740".to_owned()),
            ("language_tools_secret".to_owned(), "secret".to_owned()),
            ("engine".to_owned(), "deterministic".to_owned()),
        ]
        .into()
    }

    fn host() -> platform::native::NativeHost {
        platform::native::NativeHost::in_memory::<&str>(&[], platform::FixedClock::at_unix(0)).unwrap()
    }

    #[test]
    fn correction_goes_to_the_service_and_its_failure_is_unavailable() {
        let (host, vars) = (host(), vars());
        let english = catalogue::find("en-US").unwrap();
        let up = Service { up: true };
        let tools =
            ServiceTools::configured(&platform::Services { vars: &vars, http: &up, ..host.services() }).unwrap();
        assert!(tools.can_correct());
        assert_eq!(tools.correct(english, &["i has".to_owned()]).unwrap(), ["I HAS"]);
        let corrected: Vec<&str> = tools.corrected().unwrap().iter().map(|language| language.lang()).collect();
        assert_eq!(corrected, ["de", "en"]);
        assert_eq!(tools.detect(&["whatever".to_owned()]).unwrap(), [Some(catalogue::find("en").unwrap())]);
        let down = Service { up: false };
        let tools =
            ServiceTools::configured(&platform::Services { vars: &vars, http: &down, ..host.services() }).unwrap();
        assert!(matches!(tools.correct(english, &["x".to_owned()]), Err(ToolsError::Unavailable(_))));
        assert!(matches!(tools.corrected(), Err(ToolsError::Unavailable(_))));
        let detected = tools.detect(&["Das Wetter ist heute schön und wir gehen spazieren.".to_owned()]).unwrap();
        assert_eq!(detected, [Some(catalogue::find("de").unwrap())], "detection falls back as translation's does");
    }

    #[test]
    fn without_a_service_correction_is_not_configured() {
        let vars: HashMap<String, String> = HashMap::new();
        let host = platform::native::NativeHost::in_memory::<&str>(&[], platform::FixedClock::at_unix(0)).unwrap();
        let services = platform::Services { vars: &vars, ..host.services() };
        let tools = ServiceTools::configured(&services).unwrap();
        assert!(!tools.can_correct());
        let error = tools.correct(catalogue::find("de").unwrap(), &["Hallo".to_owned()]).unwrap_err();
        assert!(matches!(error, ToolsError::NotConfigured(_)), "{error:?}");
        assert!(matches!(tools.corrected(), Err(ToolsError::NotConfigured(_))));
    }

    #[test]
    fn translation_uses_the_engine_and_a_missing_engine_is_not_configured() {
        let (host, vars) = (host(), vars());
        let up = Service { up: true };
        let german = catalogue::find("de").unwrap();
        let english = catalogue::find("en-US").unwrap();
        let tools =
            ServiceTools::configured(&platform::Services { vars: &vars, http: &up, ..host.services() }).unwrap();
        let translated = tools.translate("Guten Morgen", german, english).unwrap();
        assert!(!translated.is_empty() && translated != "Guten Morgen", "{translated}");

        let no_engine: HashMap<String, String> = HashMap::new();
        let missing = ServiceTools::configured(&platform::Services { vars: &no_engine, ..host.services() }).unwrap();
        let error = missing.translate("Guten Morgen", german, english).unwrap_err();
        assert!(matches!(&error, ToolsError::NotConfigured(reason) if reason.contains("engine")), "{error:?}");
    }
}
