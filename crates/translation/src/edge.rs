//! What the HTTP edge needs from translation: a translate request read from its parameters, and
//! the answer for each failure.

use api::{ApiError, Params};

use crate::detection::DetectRequest;
use crate::request::{RawTranslateRequest, RequestError, TranslateRequest};
use crate::work::TranslateError;

impl TranslateRequest {
    /// Reads and validates a translate request's parameters (JSON or form): a parameter of the
    /// wrong type, then one whose value is refused, is a 400 naming it.
    pub fn from_params(params: &Params) -> Result<TranslateRequest, ApiError> {
        // Accepted for old clients; every language is available without it.
        params.bool("enable_beta_languages")?;
        let raw = RawTranslateRequest {
            text: params.strings("text")?,
            target_lang: params.string("target_lang")?,
            source_lang: params.string("source_lang")?,
            context: params.string("context")?,
            show_billed_characters: params.bool("show_billed_characters")?,
            split_sentences: params.string("split_sentences")?,
            preserve_formatting: params.bool("preserve_formatting")?,
            formality: params.string("formality")?,
            model_type: params.string("model_type")?,
            tag_handling: params.string("tag_handling")?,
            tag_handling_version: params.string("tag_handling_version")?,
            outline_detection: params.bool("outline_detection")?,
            splitting_tags: params.list("splitting_tags")?,
            non_splitting_tags: params.list("non_splitting_tags")?,
            ignore_tags: params.list("ignore_tags")?,
            custom_instructions: params.strings("custom_instructions")?,
            glossary_id: params.string("glossary_id")?,
            glossary_ids: params.list("glossary_ids")?,
            style_id: params.string("style_id")?,
            translation_memory_id: params.string("translation_memory_id")?,
            translation_memory_threshold: params.integer("translation_memory_threshold")?,
        };
        Ok(TranslateRequest::parse(raw)?)
    }
}

impl DetectRequest {
    /// Reads and checks a detection request's `text` (a JSON array or string, or repeated form
    /// keys): a text that is not a string is a 400 naming the parameter.
    pub fn from_params(params: &Params) -> Result<DetectRequest, ApiError> {
        Ok(DetectRequest::parse(params.strings("text")?)?)
    }
}

impl From<RequestError> for ApiError {
    fn from(error: RequestError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

/// The client's mistakes are 400s and resources it named that do not exist 404s; the engine's
/// failures are answered by `engines`; anything else is logged and answered with a generic 500.
/// Nothing is billed for any of them.
impl From<TranslateError> for ApiError {
    fn from(error: TranslateError) -> ApiError {
        match error {
            TranslateError::Engine(error) => error.into(),
            mistake @ (TranslateError::Markup(_) | TranslateError::StyleLanguage { .. }) => {
                ApiError::bad_request(mistake.to_string())
            }
            missing @ (TranslateError::StyleNotFound(_)
            | TranslateError::MemoryNotFound(_)
            | TranslateError::MemoryTarget { .. }) => ApiError::not_found(missing.to_string()),
            internal @ (TranslateError::Render(_) | TranslateError::Source(_)) => ApiError::internal(&internal),
        }
    }
}

#[cfg(test)]
mod tests {
    use engines::EngineError;
    use markup::{SplitSentences, TagHandlingVersion};

    use super::*;
    use crate::request::Formality;
    use crate::request::ModelType;

    fn parse(json: &str) -> Result<TranslateRequest, ApiError> {
        TranslateRequest::from_params(&Params::from_json(json.as_bytes()).unwrap())
    }

    fn message(json: &str) -> String {
        parse(json).unwrap_err().message
    }

    #[test]
    fn the_minimal_request_gets_the_defaults() {
        let request = parse(r#"{"text": ["Hello"], "target_lang": "de"}"#).unwrap();
        assert_eq!(request.target.code(), "DE");
        assert!(request.source.is_none());
        assert_eq!(request.split_sentences, SplitSentences::On);
        assert_eq!(request.formality, Formality::Default);
        assert!(!request.show_billed_characters && !request.preserve_formatting);
        assert_eq!(request.translation_memory_threshold, 75);
        assert!(request.tags.is_none());
    }

    #[test]
    fn required_parameters_are_named() {
        assert_eq!(message(r#"{"target_lang": "DE"}"#), "Parameter 'text' not specified");
        assert_eq!(message(r#"{"text": [], "target_lang": "DE"}"#), "Parameter 'text' not specified");
        assert_eq!(message(r#"{"text": ["a"]}"#), "Parameter 'target_lang' not specified");
        assert_eq!(message(r#"{"text": ["a"], "target_lang": "XX"}"#), "Value for 'target_lang' not supported.");
        assert_eq!(
            message(r#"{"text": ["a"], "target_lang": "DE", "source_lang": "EN-GB"}"#),
            "Value for 'source_lang' not supported."
        );
    }

    #[test]
    fn variants_are_accepted_as_targets_in_any_case() {
        for code in ["en-gb", "EN-US", "pt-BR", "ZH-HANT", "es-419", "de-ch"] {
            assert!(parse(&format!(r#"{{"text": ["a"], "target_lang": "{code}"}}"#)).is_ok(), "{code}");
        }
    }

    #[test]
    fn formality_more_or_less_needs_a_target_with_formality() {
        assert!(parse(r#"{"text": ["a"], "target_lang": "DE", "formality": "more"}"#).is_ok());
        assert_eq!(
            message(r#"{"text": ["a"], "target_lang": "EN-GB", "formality": "less"}"#),
            "Target language 'EN-GB' doesn't support formality."
        );
        assert_eq!(
            message(r#"{"text": ["a"], "target_lang": "DE-CH", "formality": "more"}"#),
            "Target language 'DE-CH' doesn't support formality."
        );
        let prefer = parse(r#"{"text": ["a"], "target_lang": "EN-GB", "formality": "prefer_less"}"#).unwrap();
        assert_eq!(prefer.formality, Formality::PreferLess);
        assert_eq!(
            message(r#"{"text": ["a"], "target_lang": "DE", "formality": "polite"}"#),
            "Value for 'formality' not supported."
        );
    }

    #[test]
    fn latency_optimized_is_refused_for_formerly_beta_languages() {
        assert!(parse(r#"{"text": ["a"], "target_lang": "DE", "model_type": "latency_optimized"}"#).is_ok());
        let refused = message(r#"{"text": ["a"], "target_lang": "AF", "model_type": "latency_optimized"}"#);
        assert!(refused.contains("'AF'") && refused.contains("quality_optimized"), "{refused}");
        assert!(parse(r#"{"text": ["a"], "target_lang": "AF", "model_type": "quality_optimized"}"#).is_ok());
        assert_eq!(ModelType::PreferQualityOptimized.used(&[]), "quality_optimized");
    }

    #[test]
    fn the_model_type_used_is_the_kind_of_model_that_served() {
        let routes = |names: &[&str]| names.iter().map(|name| name.to_string()).collect::<Vec<_>>();
        let latency = ModelType::LatencyOptimized;
        let quality = ModelType::QualityOptimized;
        assert_eq!(latency.used(&routes(&["ctranslate2"])), "quality_optimized");
        assert_eq!(quality.used(&routes(&["ctranslate2", "openai"])), "quality_optimized");
        assert_eq!(quality.used(&routes(&["ctranslate2+apertium"])), "latency_optimized");
        assert_eq!(quality.used(&routes(&["ctranslate2", "apertium"])), "latency_optimized");
        // The deterministic stand-in, or nothing to translate: what was asked.
        assert_eq!(latency.used(&routes(&["deterministic"])), "latency_optimized");
        assert_eq!(quality.used(&routes(&["deterministic"])), "quality_optimized");
        assert_eq!(latency.used(&[]), "latency_optimized");
    }

    #[test]
    fn tag_handling_options_are_read_from_json_and_forms() {
        let request = parse(
            r#"{"text": ["<p>a</p>"], "target_lang": "DE", "tag_handling": "xml", "outline_detection": false,
                "splitting_tags": ["p", "div"], "ignore_tags": "code,pre", "tag_handling_version": "v2"}"#,
        )
        .unwrap();
        let tags = request.tags.unwrap();
        assert_eq!(tags.version, TagHandlingVersion::V2);
        assert!(!tags.outline_detection);
        assert_eq!(tags.splitting_tags, ["p", "div"]);
        assert_eq!(tags.ignore_tags, ["code", "pre"]);
        let html = parse(r#"{"text": ["a"], "target_lang": "DE", "tag_handling": "html"}"#).unwrap();
        assert_eq!(html.split_sentences, SplitSentences::NoNewlines);
        assert_eq!(
            message(r#"{"text": ["a"], "target_lang": "DE", "tag_handling": "md"}"#),
            "Value for 'tag_handling' not supported."
        );
        assert!(
            message(r#"{"text": ["a"], "target_lang": "DE", "tag_handling": "xml", "ignore_tags": ["a b"]}"#)
                .contains("'ignore_tags'")
        );
    }

    #[test]
    fn custom_instructions_are_limited_and_need_a_supporting_target() {
        assert!(parse(r#"{"text": ["a"], "target_lang": "DE", "custom_instructions": ["Be brief."]}"#).is_ok());
        let eleven = format!(r#"{{"text": ["a"], "target_lang": "DE", "custom_instructions": {:?}}}"#, vec!["x"; 11]);
        assert!(message(&eleven).contains("at most 10"));
        let long = format!(r#"{{"text": ["a"], "target_lang": "DE", "custom_instructions": ["{}"]}}"#, "y".repeat(301));
        assert!(message(&long).contains("longer than 300"));
        assert!(message(r#"{"text": ["a"], "target_lang": "NL", "custom_instructions": ["x"]}"#).contains("'NL'"));
    }

    #[test]
    fn glossaries_need_a_source_language_and_uuids() {
        let id = "def3a26b-3e84-45b3-84ae-0c0aaf3525f7";
        assert_eq!(
            message(&format!(r#"{{"text": ["a"], "target_lang": "DE", "glossary_id": "{id}"}}"#)),
            "Use of a glossary requires the source_lang parameter to be specified"
        );
        let request =
            parse(&format!(r#"{{"text": ["a"], "target_lang": "DE", "source_lang": "EN", "glossary_id": "{id}"}}"#))
                .unwrap();
        let ids: Vec<String> = request.glossary_ids.iter().map(ToString::to_string).collect();
        assert_eq!(ids, [id]);
        assert!(
            message(r#"{"text": ["a"], "target_lang": "DE", "source_lang": "EN", "glossary_id": "nope"}"#)
                .contains("UUID")
        );
        assert!(message(&format!(
            r#"{{"text": ["a"], "target_lang": "DE", "source_lang": "EN", "glossary_id": "{id}", "glossary_ids": ["{id}"]}}"#
        ))
        .contains("not both"));
        let beta = format!(r#"{{"text": ["a"], "target_lang": "DE-CH", "source_lang": "EN", "glossary_id": "{id}"}}"#);
        assert_eq!(message(&beta), "Target language 'DE-CH' doesn't support glossaries.");
        let thai = format!(r#"{{"text": ["a"], "target_lang": "EN-GB", "source_lang": "TH", "glossary_id": "{id}"}}"#);
        assert_eq!(message(&thai), "Source language 'TH' doesn't support glossaries.");
        for target in ["EN-GB", "EN-US", "PT-BR", "ZH-HANT", "ES-419"] {
            let variant =
                format!(r#"{{"text": ["a"], "target_lang": "{target}", "source_lang": "DE", "glossary_id": "{id}"}}"#);
            assert!(parse(&variant).is_ok(), "{target}");
        }
        let six = format!(
            r#"{{"text": ["a"], "target_lang": "DE", "source_lang": "EN", "glossary_ids": {:?}}}"#,
            vec![id; 6]
        );
        assert!(message(&six).contains("at most 5"));
    }

    #[test]
    fn the_translation_memory_threshold_is_checked_and_raised_to_fifty() {
        let low = parse(r#"{"text": ["a"], "target_lang": "DE", "translation_memory_threshold": 10}"#).unwrap();
        assert_eq!(low.translation_memory_threshold, 50);
        assert!(
            message(r#"{"text": ["a"], "target_lang": "DE", "translation_memory_threshold": 101}"#)
                .contains("0 to 100")
        );
        assert!(
            message(r#"{"text": ["a"], "target_lang": "DE", "translation_memory_threshold": "x"}"#)
                .contains("translation_memory_threshold")
        );
        assert!(message(r#"{"text": ["a"], "target_lang": "DE", "style_id": "nope"}"#).contains("'style_id'"));
    }

    #[test]
    fn a_parameter_of_the_wrong_type_is_named_before_any_value_is_checked() {
        assert_eq!(
            message(r#"{"text": "a", "target_lang": "DE", "formality": ["more"]}"#),
            "Value for 'formality' not supported."
        );
        assert_eq!(
            message(r#"{"text": ["a"], "target_lang": "DE", "enable_beta_languages": "maybe"}"#),
            "Value for 'enable_beta_languages' not supported."
        );
    }

    #[test]
    fn each_translation_failure_has_its_status() {
        let status = |error: TranslateError| ApiError::from(error).status;
        let (en, de) = (catalogue::find("EN").unwrap(), catalogue::find("DE").unwrap());
        assert_eq!(status(EngineError::UnsupportedPair { from: en, to: de }.into()), 400);
        assert_eq!(status(EngineError::Unavailable { engine: "apertium", reason: "refused".into() }.into()), 503);
        let id = platform::Id::parse("def3a26b-3e84-45b3-84ae-0c0aaf3525f7").unwrap();
        let missing = ApiError::from(TranslateError::StyleNotFound(id));
        assert_eq!(
            (missing.status, missing.message.as_str()),
            (404, "Style rule list def3a26b-3e84-45b3-84ae-0c0aaf3525f7 not found.")
        );
        assert_eq!(status(TranslateError::MemoryNotFound(id)), 404);
        assert_eq!(status(TranslateError::MemoryTarget { id, target: "DE" }), 404);
        assert_eq!(status(TranslateError::StyleLanguage { list: "EN", target: "DE" }), 400);
        let store = ApiError::from(TranslateError::Source("disk I/O error at /var/lib".into()));
        assert_eq!((store.status, store.message.contains("/var/lib")), (500, false));
    }
}
