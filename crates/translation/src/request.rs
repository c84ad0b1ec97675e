//! The parameters of a translate request, validated.

use api::params::{invalid, missing};
use api::{ApiError, Params};
use catalogue::Language;
pub use engines::Formality;
use markup::{SplitSentences, TagHandling, TagHandlingVersion, TagOptions};

/// How many custom instructions a request may carry, and how long each may be (characters).
const MAX_CUSTOM_INSTRUCTIONS: usize = 10;
const MAX_CUSTOM_INSTRUCTION_CHARS: usize = 300;
/// How many glossaries `glossary_ids` may name.
const MAX_GLOSSARY_IDS: usize = 5;

/// The `model_type` parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelType {
    QualityOptimized,
    PreferQualityOptimized,
    LatencyOptimized,
}

impl ModelType {
    fn parse(value: &str) -> Option<ModelType> {
        match value {
            "quality_optimized" => Some(ModelType::QualityOptimized),
            "prefer_quality_optimized" => Some(ModelType::PreferQualityOptimized),
            "latency_optimized" => Some(ModelType::LatencyOptimized),
            _ => None,
        }
    }

    /// What the answer reports in `model_type_used`.
    pub fn used(self) -> &'static str {
        match self {
            ModelType::LatencyOptimized => "latency_optimized",
            ModelType::QualityOptimized | ModelType::PreferQualityOptimized => "quality_optimized",
        }
    }
}

/// A validated translate request.
#[derive(Debug, Clone)]
pub struct TranslateRequest {
    pub texts: Vec<String>,
    /// `None`: detect each text's language.
    pub source: Option<&'static Language>,
    pub target: &'static Language,
    pub context: Option<String>,
    pub show_billed_characters: bool,
    pub split_sentences: SplitSentences,
    pub preserve_formatting: bool,
    pub formality: Formality,
    pub model_type: Option<ModelType>,
    /// With `tag_handling`: how to read the texts' markup.
    pub tags: Option<TagOptions>,
    pub custom_instructions: Vec<String>,
    /// Glossaries to apply (from `glossary_id` or `glossary_ids`), validated as UUIDs.
    pub glossary_ids: Vec<String>,
    pub style_id: Option<String>,
    pub translation_memory_id: Option<String>,
    /// 0–100; values below 50 act as 50.
    pub translation_memory_threshold: u8,
}

/// The default `translation_memory_threshold`.
const DEFAULT_TM_THRESHOLD: u8 = 75;

impl TranslateRequest {
    /// Validates the parameters of a translate request. Every error is a 400 naming the
    /// parameter at fault; nothing is looked up yet (glossaries, style rules and translation
    /// memories are checked by the caller, which has the store).
    pub fn parse(params: &Params) -> Result<TranslateRequest, ApiError> {
        let texts = params.strings("text")?.ok_or_else(|| missing("text"))?;
        if texts.is_empty() {
            return Err(missing("text"));
        }
        let target_code = params.string("target_lang")?.filter(|code| !code.trim().is_empty());
        let target = catalogue::parse_target(target_code.as_deref().ok_or_else(|| missing("target_lang"))?.trim())
            .map_err(|error| ApiError::bad_request(error.to_string()))?;
        let source = match params.string("source_lang")?.filter(|code| !code.trim().is_empty()) {
            Some(code) => {
                Some(catalogue::parse_source(code.trim()).map_err(|error| ApiError::bad_request(error.to_string()))?)
            }
            None => None,
        };
        let context = params.string("context")?;
        let show_billed_characters = params.bool("show_billed_characters")?.unwrap_or(false);
        let preserve_formatting = params.bool("preserve_formatting")?.unwrap_or(false);
        // Accepted for old clients; every language is available without it.
        params.bool("enable_beta_languages")?;

        let formality = match params.string("formality")? {
            Some(value) => Formality::parse(&value).ok_or_else(|| invalid("formality"))?,
            None => Formality::Default,
        };
        if matches!(formality, Formality::More | Formality::Less) && !target.supports_formality() {
            return Err(ApiError::bad_request(format!(
                "Target language '{}' doesn't support formality.",
                target.code()
            )));
        }

        let model_type = match params.string("model_type")? {
            Some(value) => Some(ModelType::parse(&value).ok_or_else(|| invalid("model_type"))?),
            None => None,
        };
        if model_type == Some(ModelType::LatencyOptimized) {
            for language in source.iter().chain(std::iter::once(&target)) {
                if language.base().is_formerly_beta() {
                    return Err(ApiError::bad_request(format!(
                        "Language '{}' is available only with model_type 'quality_optimized'.",
                        language.code()
                    )));
                }
            }
        }

        let tags = parse_tags(params)?;
        let split_sentences = match params.string("split_sentences")? {
            Some(value) => value.parse::<SplitSentences>().map_err(|error| ApiError::bad_request(error.to_string()))?,
            None => SplitSentences::default_for(tags.as_ref().map(|options| options.handling)),
        };

        let custom_instructions = params.strings("custom_instructions")?.unwrap_or_default();
        if !custom_instructions.is_empty() {
            if custom_instructions.len() > MAX_CUSTOM_INSTRUCTIONS {
                return Err(ApiError::bad_request(format!(
                    "Value for 'custom_instructions' not supported: at most {MAX_CUSTOM_INSTRUCTIONS} instructions."
                )));
            }
            if let Some(position) =
                custom_instructions.iter().position(|text| text.chars().count() > MAX_CUSTOM_INSTRUCTION_CHARS)
            {
                return Err(ApiError::bad_request(format!(
                    "Value for 'custom_instructions' not supported: instruction {} is longer than {MAX_CUSTOM_INSTRUCTION_CHARS} characters.",
                    position + 1
                )));
            }
            if custom_instructions.iter().any(|text| text.trim().is_empty()) {
                return Err(ApiError::bad_request(
                    "Value for 'custom_instructions' not supported: an instruction is empty.",
                ));
            }
            if !target.supports_custom_instructions() {
                return Err(ApiError::bad_request(format!(
                    "Target language '{}' does not support custom instructions.",
                    target.code()
                )));
            }
        }

        let glossary_ids = parse_glossaries(params)?;
        if !glossary_ids.is_empty() {
            let Some(source) = source else {
                return Err(ApiError::bad_request(
                    "Use of a glossary requires the source_lang parameter to be specified",
                ));
            };
            // A dictionary for a base language serves its variants; beta languages have none.
            for (side, language) in [("Source", source), ("Target", target)] {
                if language.is_beta() || !language.base().supports_glossary() {
                    return Err(ApiError::bad_request(format!(
                        "{side} language '{}' doesn't support glossaries.",
                        language.code()
                    )));
                }
            }
        }
        let style_id = params.string("style_id")?.map(|id| uuid_parameter("style_id", &id)).transpose()?;
        let translation_memory_id = params
            .string("translation_memory_id")?
            .map(|id| uuid_parameter("translation_memory_id", &id))
            .transpose()?;
        let translation_memory_threshold = match params.integer("translation_memory_threshold")? {
            Some(value) if (0..=100).contains(&value) => (value as u8).max(50),
            Some(_) => {
                return Err(ApiError::bad_request(
                    "Value for 'translation_memory_threshold' not supported: it must be an integer from 0 to 100.",
                ));
            }
            None => DEFAULT_TM_THRESHOLD,
        };

        Ok(TranslateRequest {
            texts,
            source,
            target,
            context,
            show_billed_characters,
            split_sentences,
            preserve_formatting,
            formality,
            model_type,
            tags,
            custom_instructions,
            glossary_ids,
            style_id,
            translation_memory_id,
            translation_memory_threshold,
        })
    }
}

fn parse_tags(params: &Params) -> Result<Option<TagOptions>, ApiError> {
    let version = match params.string("tag_handling_version")? {
        Some(value) => {
            Some(value.parse::<TagHandlingVersion>().map_err(|error| ApiError::bad_request(error.to_string()))?)
        }
        None => None,
    };
    let Some(handling) = params.string("tag_handling")?.filter(|value| !value.is_empty()) else {
        return Ok(None);
    };
    let handling = handling.parse::<TagHandling>().map_err(|error| ApiError::bad_request(error.to_string()))?;
    let tag_list = |name: &str| -> Result<Vec<String>, ApiError> {
        let tags = params.list(name)?.unwrap_or_default();
        if let Some(bad) = tags.iter().find(|tag| !is_tag_name(tag)) {
            return Err(ApiError::bad_request(format!("Value for '{name}' not supported: `{bad}` is not a tag name.")));
        }
        Ok(tags)
    };
    Ok(Some(TagOptions {
        handling,
        version: version.unwrap_or_default(),
        outline_detection: params.bool("outline_detection")?.unwrap_or(true),
        splitting_tags: tag_list("splitting_tags")?,
        non_splitting_tags: tag_list("non_splitting_tags")?,
        ignore_tags: tag_list("ignore_tags")?,
    }))
}

/// An XML name, as far as tag lists need to check: letters, digits, `_`, `-`, `.`, `:`, not
/// starting with a digit, `-` or `.`.
fn is_tag_name(name: &str) -> bool {
    name.chars().next().is_some_and(|first| first.is_alphabetic() || first == '_' || first == ':')
        && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
}

fn parse_glossaries(params: &Params) -> Result<Vec<String>, ApiError> {
    let single = params.string("glossary_id")?.filter(|id| !id.is_empty());
    let several = params.list("glossary_ids")?.unwrap_or_default();
    match (single, several.is_empty()) {
        (Some(_), false) => Err(ApiError::bad_request("Use either glossary_id or glossary_ids, not both.")),
        (Some(id), true) => Ok(vec![uuid_parameter("glossary_id", &id)?]),
        (None, _) => {
            if several.len() > MAX_GLOSSARY_IDS {
                return Err(ApiError::bad_request(format!(
                    "Value for 'glossary_ids' not supported: at most {MAX_GLOSSARY_IDS} glossaries."
                )));
            }
            several.iter().map(|id| uuid_parameter("glossary_ids", id)).collect()
        }
    }
}

/// Checks that `value` is a UUID, and answers it in its canonical lower-case form.
fn uuid_parameter(name: &str, value: &str) -> Result<String, ApiError> {
    uuid::Uuid::parse_str(value.trim())
        .map(|id| id.hyphenated().to_string())
        .map_err(|_| ApiError::bad_request(format!("Value for '{name}' not supported: it must be a UUID.")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<TranslateRequest, ApiError> {
        TranslateRequest::parse(&Params::from_json(json.as_bytes()).unwrap())
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
        assert_eq!(ModelType::PreferQualityOptimized.used(), "quality_optimized");
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
        assert_eq!(request.glossary_ids, [id]);
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
}
