//! What style rule requests carry, validated: a new list, a name, configured rules, custom
//! instructions, a listing's page.
//!
//! `edge.rs` reads the parameters as sent (`Raw…`, each of the right JSON type, nothing checked);
//! the functions here check them and name the parameter at fault, with the API's texts.

use catalogue::Language;
use serde_json::Value;
use stylebook::{ConfiguredRules, RuleError};

use crate::limits::{
    DEFAULT_PAGE_SIZE, MAX_INSTRUCTIONS, MAX_LABEL_CHARS, MAX_NAME_CHARS, MAX_PAGE_SIZE, MAX_PROMPT_CHARS,
};

/// Why a style rule request is refused: each a 400.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("Parameter '{0}' not specified")]
    Missing(String),
    #[error("Value for '{0}' not supported.")]
    Invalid(String),
    #[error("Value for '{field}' not supported: it may have at most {max} characters.")]
    TooLong { field: String, max: usize },
    #[error("Value for '{field}' not supported: it contains a control character.")]
    ControlCharacter { field: String },
    #[error(
        "Value for 'language' not supported: style rule lists are written for de, en, es, fr, it, ja, ko or zh, not '{0}'."
    )]
    Language(String),
    #[error("Value for '{field}' not supported: '{code}' is not a source language.")]
    SourceLanguage { field: String, code: String },
    #[error(
        "Value for 'custom_instructions' not supported: a style rule list holds at most {MAX_INSTRUCTIONS} custom instructions."
    )]
    TooManyInstructions,
    #[error("Value for 'custom_instructions' not supported: it must be an array of objects with 'label' and 'prompt'.")]
    NotInstructions,
    #[error(transparent)]
    Rules(#[from] RuleError),
    #[error("Value for 'page' not supported: it must be an integer of at least 0.")]
    Page,
    #[error("Value for 'page_size' not supported: it must be an integer from 1 to {MAX_PAGE_SIZE}.")]
    PageSize,
}

/// `POST /v3/style_rules` as sent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawList {
    pub name: Option<String>,
    pub language: Option<String>,
    pub configured_rules: Option<Value>,
    pub custom_instructions: Option<Value>,
}

/// A custom instruction as sent: `label`, `prompt`, `source_language`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawInstruction {
    pub label: Option<String>,
    pub prompt: Option<String>,
    pub source_language: Option<String>,
}

/// A listing's query as sent: `page`, `page_size`, `detailed`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RawListing {
    pub page: Option<i64>,
    pub page_size: Option<i64>,
    pub detailed: Option<bool>,
}

/// A new list, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct NewList {
    pub name: String,
    pub language: &'static Language,
    pub rules: ConfiguredRules,
    pub instructions: Vec<NewInstruction>,
}

/// A custom instruction, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewInstruction {
    pub label: String,
    pub prompt: String,
    /// The source language the instruction is for; `None`: every source.
    pub source_language: Option<&'static Language>,
}

/// Which page of the caller's lists, and in which shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listing {
    pub page: i64,
    pub page_size: i64,
    pub detailed: bool,
}

impl RawList {
    pub fn parse(self) -> Result<NewList, RequestError> {
        let name = name(self.name)?;
        let language = list_language(self.language.as_deref())?;
        let rules = match self.configured_rules {
            None | Some(Value::Null) => ConfiguredRules::default(),
            Some(value) => ConfiguredRules::parse(&value)?,
        };
        let instructions = match self.custom_instructions {
            None | Some(Value::Null) => Vec::new(),
            Some(value) => instructions(&value)?,
        };
        Ok(NewList { name, language, rules, instructions })
    }
}

impl RawInstruction {
    /// An instruction sent on its own (`POST`/`PUT …/custom_instructions`).
    pub fn parse(self) -> Result<NewInstruction, RequestError> {
        self.parse_as("")
    }

    /// `prefix` names where the instruction sits (`custom_instructions[3].`), for the messages.
    fn parse_as(self, prefix: &str) -> Result<NewInstruction, RequestError> {
        let field = |name: &str| format!("{prefix}{name}");
        let label = required_text(self.label, &field("label"), MAX_LABEL_CHARS)?;
        let prompt = required_text(self.prompt, &field("prompt"), MAX_PROMPT_CHARS)?;
        let source_language = match self.source_language.as_deref().map(str::trim).filter(|code| !code.is_empty()) {
            None => None,
            Some(code) => Some(catalogue::parse_source(code).map_err(|_| RequestError::SourceLanguage {
                field: field("source_language"),
                code: code.to_owned(),
            })?),
        };
        Ok(NewInstruction { label, prompt, source_language })
    }
}

impl RawListing {
    pub fn parse(self) -> Result<Listing, RequestError> {
        let page = self.page.unwrap_or(0);
        if page < 0 {
            return Err(RequestError::Page);
        }
        let page_size = self.page_size.unwrap_or(DEFAULT_PAGE_SIZE);
        if !(1..=MAX_PAGE_SIZE).contains(&page_size) {
            return Err(RequestError::PageSize);
        }
        Ok(Listing { page, page_size, detailed: self.detailed.unwrap_or(false) })
    }
}

/// A list's `name`: required, at most [`MAX_NAME_CHARS`] characters, no control characters.
pub fn name(raw: Option<String>) -> Result<String, RequestError> {
    required_text(raw, "name", MAX_NAME_CHARS)
}

/// Configured rules sent as a whole (`PUT …/configured_rules`): the body's object.
pub fn configured_rules(value: &Value) -> Result<ConfiguredRules, RequestError> {
    Ok(ConfiguredRules::parse(value)?)
}

/// A list's `language`: one of the eight style rule languages, a base code in any case.
fn list_language(raw: Option<&str>) -> Result<&'static Language, RequestError> {
    let code = raw.map(str::trim).filter(|code| !code.is_empty()).ok_or(RequestError::Missing("language".into()))?;
    match catalogue::find(code) {
        Some(language) if !language.is_variant() && language.supports_style_rules() => Ok(language),
        _ => Err(RequestError::Language(code.to_owned())),
    }
}

/// The `custom_instructions` of a new list: an array of instruction objects.
fn instructions(value: &Value) -> Result<Vec<NewInstruction>, RequestError> {
    let items = value.as_array().ok_or(RequestError::NotInstructions)?;
    if items.len() > MAX_INSTRUCTIONS {
        return Err(RequestError::TooManyInstructions);
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let object = item.as_object().ok_or(RequestError::NotInstructions)?;
            let prefix = format!("custom_instructions[{index}].");
            let text = |name: &str| -> Result<Option<String>, RequestError> {
                match object.get(name) {
                    None | Some(Value::Null) => Ok(None),
                    Some(Value::String(text)) => Ok(Some(text.clone())),
                    Some(_) => Err(RequestError::Invalid(format!("{prefix}{name}"))),
                }
            };
            if let Some(unknown) =
                object.keys().find(|key| !["label", "prompt", "source_language"].contains(&key.as_str()))
            {
                return Err(RequestError::Invalid(format!("{prefix}{unknown}")));
            }
            RawInstruction { label: text("label")?, prompt: text("prompt")?, source_language: text("source_language")? }
                .parse_as(&prefix)
        })
        .collect()
}

/// A required text: present and not blank (else `Missing`), at most `max` characters, no
/// control characters but line breaks and tabs.
fn required_text(raw: Option<String>, field: &str, max: usize) -> Result<String, RequestError> {
    let text = raw.filter(|text| !text.trim().is_empty()).ok_or_else(|| RequestError::Missing(field.to_owned()))?;
    if text.chars().count() > max {
        return Err(RequestError::TooLong { field: field.to_owned(), max });
    }
    if text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r')) {
        return Err(RequestError::ControlCharacter { field: field.to_owned() });
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn list(value: Value) -> Result<NewList, RequestError> {
        let text = |name: &str| value.get(name).and_then(Value::as_str).map(str::to_owned);
        RawList {
            name: text("name"),
            language: text("language"),
            configured_rules: value.get("configured_rules").cloned(),
            custom_instructions: value.get("custom_instructions").cloned(),
        }
        .parse()
    }

    fn message(value: Value) -> String {
        list(value).unwrap_err().to_string()
    }

    #[test]
    fn a_list_needs_a_name_and_one_of_eight_languages() {
        let created = list(json!({"name": "House style", "language": "EN"})).unwrap();
        assert_eq!(created.language.base_code(), "en");
        assert!(created.rules.is_empty() && created.instructions.is_empty());
        for code in ["de", "es", "fr", "it", "ja", "ko", "zh"] {
            assert!(list(json!({"name": "x", "language": code})).is_ok(), "{code}");
        }
        assert_eq!(message(json!({"language": "en"})), "Parameter 'name' not specified");
        assert_eq!(message(json!({"name": "  ", "language": "en"})), "Parameter 'name' not specified");
        assert_eq!(message(json!({"name": "x"})), "Parameter 'language' not specified");
        for code in ["nl", "en-GB", "xx"] {
            assert!(message(json!({"name": "x", "language": code})).contains(&format!("not '{code}'")), "{code}");
        }
    }

    #[test]
    fn names_are_limited_to_1024_characters() {
        assert!(list(json!({"name": "é".repeat(1024), "language": "fr"})).is_ok());
        assert_eq!(
            message(json!({"name": "é".repeat(1025), "language": "fr"})),
            "Value for 'name' not supported: it may have at most 1024 characters."
        );
        assert!(message(json!({"name": "a\u{7}b", "language": "fr"})).contains("control character"));
    }

    #[test]
    fn configured_rules_are_checked_against_the_catalogue() {
        let created = list(json!({"name": "x", "language": "en",
            "configured_rules": {"punctuation": {"apostrophe": "use_curly_apostrophes"}}}))
        .unwrap();
        assert_eq!(created.rules.len(), 1);
        let unknown =
            message(json!({"name": "x", "language": "en", "configured_rules": {"punctuation": {"nope": "x"}}}));
        assert!(unknown.contains("punctuation.nope"), "{unknown}");
    }

    #[test]
    fn custom_instructions_are_checked_one_by_one() {
        let created = list(json!({"name": "x", "language": "de", "custom_instructions": [
            {"label": "Tone", "prompt": "Be concise.", "source_language": "EN"},
            {"label": "Brand", "prompt": "Never translate Glossa."}]}))
        .unwrap();
        assert_eq!(created.instructions.len(), 2);
        assert_eq!(created.instructions[0].source_language.map(|language| language.code()), Some("EN"));
        let base =
            |instructions: Value| message(json!({"name": "x", "language": "de", "custom_instructions": instructions}));
        assert_eq!(base(json!([{"prompt": "p"}])), "Parameter 'custom_instructions[0].label' not specified");
        assert_eq!(
            base(json!([{"label": "l", "prompt": "p"}, {"label": "l", "prompt": "p".repeat(301)}])),
            "Value for 'custom_instructions[1].prompt' not supported: it may have at most 300 characters."
        );
        assert_eq!(
            base(json!([{"label": "l".repeat(101), "prompt": "p"}])),
            "Value for 'custom_instructions[0].label' not supported: it may have at most 100 characters."
        );
        assert!(base(json!([{"label": "l", "prompt": "p", "source_language": "EN-GB"}])).contains("'EN-GB'"));
        assert_eq!(
            base(json!([{"label": "l", "prompt": "p", "colour": "red"}])),
            "Value for 'custom_instructions[0].colour' not supported."
        );
        assert!(base(json!("be brief")).contains("array of objects"));
        let many: Vec<Value> = (0..201).map(|index| json!({"label": format!("{index}"), "prompt": "p"})).collect();
        assert!(base(Value::from(many)).contains("at most 200 custom instructions"));
    }

    #[test]
    fn listings_take_a_page_and_a_page_size_from_1_to_25() {
        assert_eq!(RawListing::default().parse().unwrap(), Listing { page: 0, page_size: 10, detailed: false });
        assert_eq!(RawListing { page: Some(-1), ..RawListing::default() }.parse(), Err(RequestError::Page));
        for size in [0, 26] {
            assert_eq!(
                RawListing { page_size: Some(size), ..RawListing::default() }.parse(),
                Err(RequestError::PageSize)
            );
        }
        assert!(RawListing { page: Some(3), page_size: Some(25), detailed: Some(true) }.parse().unwrap().detailed);
    }
}
