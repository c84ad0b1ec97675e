//! Language detection as an endpoint of its own, `POST /v3/detect/language`: the language of
//! each of up to [`MAX_TEXTS`] texts, by the same detector that translation's automatic source
//! detection uses (the language-tools service when configured, else the built-in one).
//!
//! The detector answers among the catalogue's auto-detectable sources, and names the most likely
//! language of all when it is another one. Each text gets one status: `success` (with
//! `detected_language`, the lower-case base code), `no_language_detected` (the text has no
//! letter), `unsupported_language` (the detector is at least [`OUTSIDE_CONFIDENT`] sure the text
//! is in a language that cannot be auto-detected as a source, such as Hindi) or
//! `insufficient_confidence` (the best guess among the sources is below [`CONFIDENT`]). Only
//! `success` names a language, as the reference shows. Detection bills nothing.

use engines::DetectLanguage;
use serde::Serialize;

use crate::request::RequestError;

/// The most texts one request may carry.
pub const MAX_TEXTS: usize = 50;

/// The confidence from which a detection is a `success`. The service's confidence (lingua's) is
/// the winner's share of the evidence among the 30-odd auto-detectable sources, so on short
/// texts even a right answer has a modest share ("Hej, hur mår du?": Swedish at about 0.2);
/// a single ambiguous word ("ok", "Hola") stays below it.
pub const CONFIDENT: f64 = 0.1;

/// How sure the detector must be of a language outside the auto-detectable sources for the text
/// to be `unsupported_language` rather than the best guess among them.
pub const OUTSIDE_CONFIDENT: f64 = 0.5;

/// A checked detection request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetectRequest {
    pub texts: Vec<String>,
}

impl DetectRequest {
    /// The request for `texts` (the `text` parameter: one string or an array of them).
    pub fn parse(texts: Option<Vec<String>>) -> Result<DetectRequest, RequestError> {
        let texts = texts.filter(|texts| !texts.is_empty()).ok_or(RequestError::Missing("text"))?;
        if texts.len() > MAX_TEXTS {
            return Err(RequestError::TooManyTexts { max: MAX_TEXTS, count: texts.len() });
        }
        Ok(DetectRequest { texts })
    }
}

/// How sure the detection of one text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DetectionStatus {
    Success,
    InsufficientConfidence,
    UnsupportedLanguage,
    NoLanguageDetected,
}

/// The answer for one text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DetectionResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detected_language: Option<&'static str>,
    pub detection_status: DetectionStatus,
}

/// The answer to a detection request, one result per text in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Detections {
    pub results: Vec<DetectionResult>,
}

/// Detects the language of each text of `request` with `detector`.
pub fn detect_languages(request: &DetectRequest, detector: &dyn DetectLanguage) -> Detections {
    let results = detector
        .detect_each(&request.texts)
        .into_iter()
        .map(|detection| match detection.language {
            None => DetectionResult { detected_language: None, detection_status: DetectionStatus::NoLanguageDetected },
            Some(_) if detection.outside.is_some_and(|(_, confidence)| confidence >= OUTSIDE_CONFIDENT) => {
                DetectionResult { detected_language: None, detection_status: DetectionStatus::UnsupportedLanguage }
            }
            Some(language) if !language.base().auto_detectable() => {
                DetectionResult { detected_language: None, detection_status: DetectionStatus::UnsupportedLanguage }
            }
            Some(_) if detection.confidence < CONFIDENT => {
                DetectionResult { detected_language: None, detection_status: DetectionStatus::InsufficientConfidence }
            }
            Some(language) => DetectionResult {
                detected_language: Some(language.base().lang()),
                detection_status: DetectionStatus::Success,
            },
        })
        .collect();
    Detections { results }
}

#[cfg(test)]
mod tests {
    use engines::Detection;

    use super::*;

    /// A detector that answers what it is told, one detection per text.
    struct Told(Vec<Detection>);

    impl DetectLanguage for Told {
        fn detect_each(&self, texts: &[String]) -> Vec<Detection> {
            assert_eq!(texts.len(), self.0.len());
            self.0.clone()
        }
    }

    fn detection(code: Option<&str>, confidence: f64) -> Detection {
        Detection { language: code.map(|code| catalogue::find(code).unwrap()), confidence, outside: None }
    }

    #[test]
    fn text_is_required_and_at_most_fifty() {
        assert_eq!(DetectRequest::parse(None).unwrap_err().to_string(), "Parameter 'text' not specified");
        assert_eq!(DetectRequest::parse(Some(vec![])).unwrap_err().to_string(), "Parameter 'text' not specified");
        assert!(DetectRequest::parse(Some(vec!["x".into(); MAX_TEXTS])).is_ok());
        let error = DetectRequest::parse(Some(vec!["x".into(); MAX_TEXTS + 1])).unwrap_err().to_string();
        assert!(error.contains("'text'") && error.contains("at most 50"), "{error}");
    }

    #[test]
    fn each_status_comes_from_the_detection() {
        let request = DetectRequest { texts: ["a", "b", "c", "d", "e", "f", "g"].map(String::from).to_vec() };
        let hindi = catalogue::find("hi").unwrap();
        let detector = Told(vec![
            detection(Some("de"), 0.97),
            detection(None, 0.0),
            Detection { outside: Some((hindi, OUTSIDE_CONFIDENT)), ..detection(Some("en"), 0.4) },
            detection(Some("nl"), CONFIDENT / 2.0),
            detection(Some("pt-BR"), CONFIDENT),
            Detection { outside: Some((hindi, OUTSIDE_CONFIDENT / 2.0)), ..detection(Some("en"), 0.4) },
            detection(Some("hi"), 0.99),
        ]);
        let answer = serde_json::to_value(detect_languages(&request, &detector)).unwrap();
        assert_eq!(
            answer,
            serde_json::json!({"results": [
                {"detected_language": "de", "detection_status": "success"},
                {"detection_status": "no_language_detected"},
                {"detection_status": "unsupported_language"},
                {"detection_status": "insufficient_confidence"},
                {"detected_language": "pt", "detection_status": "success"},
                {"detected_language": "en", "detection_status": "success"},
                {"detection_status": "unsupported_language"},
            ]})
        );
    }

    #[test]
    fn the_built_in_detector_serves_when_no_service_is_configured() {
        let request = DetectRequest {
            texts: vec!["Das Wetter ist heute schön und wir gehen im Park spazieren.".into(), "12345".into()],
        };
        let answer = detect_languages(&request, &engines::Builtin);
        assert_eq!(answer.results[0].detected_language, Some("de"));
        assert_eq!(answer.results[1].detection_status, DetectionStatus::NoLanguageDetected);
    }
}
