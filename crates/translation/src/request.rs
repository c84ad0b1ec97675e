//! The parameters of a translate request, validated.
//!
//! `edge.rs` reads a request's parameters as they were sent ([`RawTranslateRequest`]: each of
//! the right JSON or form type, nothing checked yet); [`TranslateRequest::parse`] checks every
//! one against the catalogue and the API's rules and names the one at fault.

use catalogue::{Language, LanguageError};
pub use engines::Formality;
use markup::{
    SplitSentences, TagHandling, TagHandlingVersion, TagOptions, UnknownSplitSentences, UnknownTagHandling,
    UnknownTagHandlingVersion,
};
use platform::Id;

/// How many custom instructions a request may carry, and how long each may be (characters).
const MAX_CUSTOM_INSTRUCTIONS: usize = 10;
const MAX_CUSTOM_INSTRUCTION_CHARS: usize = 300;
/// How many glossaries `glossary_ids` may name.
const MAX_GLOSSARY_IDS: usize = 5;
/// The default `translation_memory_threshold`.
const DEFAULT_TM_THRESHOLD: u8 = 75;

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

    /// What the answer reports in `model_type_used`, given the routes that served the request
    /// (`Chain::served_by`): the kind of model that translated. Neural engines
    /// (`ctranslate2`, `openai`) are `quality_optimized`; a rule-based one (`apertium`) on any
    /// route makes it `latency_optimized`. Where no engine says (nothing needed translating, or
    /// the deterministic stand-in served), it is the kind that was asked for.
    pub fn used(self, served_by: &[String]) -> &'static str {
        const LATENCY: &str = "latency_optimized";
        const QUALITY: &str = "quality_optimized";
        let kinds: Vec<Option<bool>> = served_by.iter().map(|route| engines::chain::neural(route)).collect();
        if kinds.contains(&Some(false)) {
            LATENCY
        } else if !kinds.is_empty() && kinds.iter().all(|kind| *kind == Some(true)) {
            QUALITY
        } else {
            match self {
                ModelType::LatencyOptimized => LATENCY,
                ModelType::QualityOptimized | ModelType::PreferQualityOptimized => QUALITY,
            }
        }
    }
}

/// A translate request's parameters as sent: each present one of the right type, none checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(default, deny_unknown_fields))]
pub struct RawTranslateRequest {
    pub text: Option<Vec<String>>,
    pub target_lang: Option<String>,
    pub source_lang: Option<String>,
    pub context: Option<String>,
    pub show_billed_characters: Option<bool>,
    pub split_sentences: Option<String>,
    pub preserve_formatting: Option<bool>,
    pub formality: Option<String>,
    pub model_type: Option<String>,
    pub tag_handling: Option<String>,
    pub tag_handling_version: Option<String>,
    pub outline_detection: Option<bool>,
    /// Tag lists: every item, with comma-separated items split.
    pub splitting_tags: Option<Vec<String>>,
    pub non_splitting_tags: Option<Vec<String>>,
    pub ignore_tags: Option<Vec<String>>,
    pub custom_instructions: Option<Vec<String>>,
    pub glossary_id: Option<String>,
    /// Every id, with comma-separated items split.
    pub glossary_ids: Option<Vec<String>>,
    pub style_id: Option<String>,
    pub translation_memory_id: Option<String>,
    pub translation_memory_threshold: Option<i64>,
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
    /// Glossaries to apply (from `glossary_id` or `glossary_ids`).
    pub glossary_ids: Vec<Id>,
    pub style_id: Option<Id>,
    pub translation_memory_id: Option<Id>,
    /// 0–100; values below 50 act as 50.
    pub translation_memory_threshold: u8,
}

/// Why a translate request's parameters are refused: each a 400 naming the parameter at fault,
/// in the API's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("Parameter '{0}' not specified")]
    Missing(&'static str),
    #[error("Value for '{0}' not supported.")]
    Invalid(&'static str),
    #[error("Value for 'text' not supported: at most {max} texts per request, got {count}.")]
    TooManyTexts { max: usize, count: usize },
    #[error(transparent)]
    Language(#[from] LanguageError),
    #[error(transparent)]
    SplitSentences(#[from] UnknownSplitSentences),
    #[error(transparent)]
    TagHandling(#[from] UnknownTagHandling),
    #[error(transparent)]
    TagHandlingVersion(#[from] UnknownTagHandlingVersion),
    #[error("Target language '{0}' doesn't support formality.")]
    NoFormality(&'static str),
    #[error("Language '{0}' is available only with model_type 'quality_optimized'.")]
    QualityOptimizedOnly(&'static str),
    #[error("Value for '{parameter}' not supported: `{tag}` is not a tag name.")]
    NotATagName { parameter: &'static str, tag: String },
    #[error("Value for 'custom_instructions' not supported: at most {MAX_CUSTOM_INSTRUCTIONS} instructions.")]
    TooManyInstructions,
    #[error(
        "Value for 'custom_instructions' not supported: instruction {0} is longer than {MAX_CUSTOM_INSTRUCTION_CHARS} characters."
    )]
    InstructionTooLong(usize),
    #[error("Value for 'custom_instructions' not supported: an instruction is empty.")]
    EmptyInstruction,
    #[error("Target language '{0}' does not support custom instructions.")]
    NoCustomInstructions(&'static str),
    #[error("Use either glossary_id or glossary_ids, not both.")]
    GlossaryIdAndIds,
    #[error("Value for 'glossary_ids' not supported: at most {MAX_GLOSSARY_IDS} glossaries.")]
    TooManyGlossaries,
    #[error("Use of a glossary requires the source_lang parameter to be specified")]
    GlossaryWithoutSource,
    #[error("{side} language '{code}' doesn't support glossaries.")]
    NoGlossaries { side: &'static str, code: &'static str },
    #[error("Value for '{0}' not supported: it must be a UUID.")]
    NotAUuid(&'static str),
    #[error("Value for 'translation_memory_threshold' not supported: it must be an integer from 0 to 100.")]
    Threshold,
}

impl TranslateRequest {
    /// Validates the parameters of a translate request. Nothing is looked up yet: the glossaries,
    /// style rules and translation memories it names are resolved when it is translated.
    pub fn parse(raw: RawTranslateRequest) -> Result<TranslateRequest, RequestError> {
        let texts = raw.text.filter(|texts| !texts.is_empty()).ok_or(RequestError::Missing("text"))?;
        let target_code = raw.target_lang.filter(|code| !code.trim().is_empty());
        let target =
            catalogue::parse_target(target_code.as_deref().ok_or(RequestError::Missing("target_lang"))?.trim())?;
        let source = match raw.source_lang.filter(|code| !code.trim().is_empty()) {
            Some(code) => Some(catalogue::parse_source(code.trim())?),
            None => None,
        };

        let formality = match raw.formality {
            Some(value) => Formality::parse(&value).ok_or(RequestError::Invalid("formality"))?,
            None => Formality::Default,
        };
        if matches!(formality, Formality::More | Formality::Less) && !target.supports_formality() {
            return Err(RequestError::NoFormality(target.code()));
        }

        let model_type = match raw.model_type {
            Some(value) => Some(ModelType::parse(&value).ok_or(RequestError::Invalid("model_type"))?),
            None => None,
        };
        if model_type == Some(ModelType::LatencyOptimized) {
            for language in source.iter().chain(std::iter::once(&target)) {
                if language.base().is_formerly_beta() {
                    return Err(RequestError::QualityOptimizedOnly(language.code()));
                }
            }
        }

        let tag_handling_version =
            raw.tag_handling_version.map(|value| value.parse::<TagHandlingVersion>()).transpose()?;
        let tags = match raw.tag_handling.filter(|value| !value.is_empty()) {
            Some(handling) => Some(TagOptions {
                handling: handling.parse::<TagHandling>()?,
                version: tag_handling_version.unwrap_or_default(),
                outline_detection: raw.outline_detection.unwrap_or(true),
                splitting_tags: tag_names("splitting_tags", raw.splitting_tags)?,
                non_splitting_tags: tag_names("non_splitting_tags", raw.non_splitting_tags)?,
                ignore_tags: tag_names("ignore_tags", raw.ignore_tags)?,
            }),
            None => None,
        };
        let split_sentences = match raw.split_sentences {
            Some(value) => value.parse::<SplitSentences>()?,
            None => SplitSentences::default_for(tags.as_ref().map(|options| options.handling)),
        };

        let custom_instructions = raw.custom_instructions.unwrap_or_default();
        check_custom_instructions(&custom_instructions, target)?;

        let glossary_ids = glossary_ids(raw.glossary_id, raw.glossary_ids)?;
        if !glossary_ids.is_empty() {
            let source = source.ok_or(RequestError::GlossaryWithoutSource)?;
            // A dictionary for a base language serves its variants; beta languages have none.
            for (side, language) in [("Source", source), ("Target", target)] {
                if language.is_beta() || !language.base().supports_glossary() {
                    return Err(RequestError::NoGlossaries { side, code: language.code() });
                }
            }
        }
        let style_id = raw.style_id.map(|id| uuid("style_id", &id)).transpose()?;
        let translation_memory_id =
            raw.translation_memory_id.map(|id| uuid("translation_memory_id", &id)).transpose()?;
        let translation_memory_threshold = match raw.translation_memory_threshold {
            Some(value) if (0..=100).contains(&value) => (value as u8).max(50),
            Some(_) => return Err(RequestError::Threshold),
            None => DEFAULT_TM_THRESHOLD,
        };

        Ok(TranslateRequest {
            texts,
            source,
            target,
            context: raw.context,
            show_billed_characters: raw.show_billed_characters.unwrap_or(false),
            split_sentences,
            preserve_formatting: raw.preserve_formatting.unwrap_or(false),
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

fn check_custom_instructions(instructions: &[String], target: &Language) -> Result<(), RequestError> {
    if instructions.is_empty() {
        return Ok(());
    }
    if instructions.len() > MAX_CUSTOM_INSTRUCTIONS {
        return Err(RequestError::TooManyInstructions);
    }
    if let Some(position) = instructions.iter().position(|text| text.chars().count() > MAX_CUSTOM_INSTRUCTION_CHARS) {
        return Err(RequestError::InstructionTooLong(position + 1));
    }
    if instructions.iter().any(|text| text.trim().is_empty()) {
        return Err(RequestError::EmptyInstruction);
    }
    if !target.supports_custom_instructions() {
        return Err(RequestError::NoCustomInstructions(target.code()));
    }
    Ok(())
}

/// A tag list, every item checked to be a tag name.
fn tag_names(parameter: &'static str, tags: Option<Vec<String>>) -> Result<Vec<String>, RequestError> {
    let tags = tags.unwrap_or_default();
    match tags.iter().find(|tag| !is_tag_name(tag)) {
        Some(bad) => Err(RequestError::NotATagName { parameter, tag: bad.clone() }),
        None => Ok(tags),
    }
}

/// An XML name, as far as tag lists need to check: letters, digits, `_`, `-`, `.`, `:`, not
/// starting with a digit, `-` or `.`.
fn is_tag_name(name: &str) -> bool {
    name.chars().next().is_some_and(|first| first.is_alphabetic() || first == '_' || first == ':')
        && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
}

/// The glossaries of `glossary_id` or `glossary_ids` (not both), at most five.
fn glossary_ids(single: Option<String>, several: Option<Vec<String>>) -> Result<Vec<Id>, RequestError> {
    let single = single.filter(|id| !id.is_empty());
    let several = several.unwrap_or_default();
    match (single, several.is_empty()) {
        (Some(_), false) => Err(RequestError::GlossaryIdAndIds),
        (Some(id), true) => Ok(vec![uuid("glossary_id", &id)?]),
        (None, _) if several.len() > MAX_GLOSSARY_IDS => Err(RequestError::TooManyGlossaries),
        (None, _) => several.iter().map(|id| uuid("glossary_ids", id)).collect(),
    }
}

/// The id `value` names, or a 400 naming `parameter`.
fn uuid(parameter: &'static str, value: &str) -> Result<Id, RequestError> {
    Id::parse(value).ok_or(RequestError::NotAUuid(parameter))
}
