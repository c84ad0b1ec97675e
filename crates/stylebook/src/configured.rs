//! Configured rules: a style rule list's `{"<category>": {"<rule>": "<option>"}}` object, checked
//! against the catalogue.
//!
//! [`ConfiguredRules::parse`] is the only way to build one, so a value of the type names only
//! known categories, rules and options. An empty object, or an empty category, is valid.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::lookup;

/// Why a `configured_rules` value was refused; the messages are the API's 400 messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The value is not a JSON object.
    #[error("'configured_rules' must be an object.")]
    NotAnObject,
    /// A key of the object is not a category of the catalogue.
    #[error("Unknown style rule category '{0}'.")]
    UnknownCategory(String),
    /// A category's value is not a JSON object.
    #[error("Style rule category '{0}' must be an object.")]
    CategoryNotAnObject(String),
    /// A key of a category's object is not one of its rules.
    #[error("Unknown style rule '{category}.{rule}'.")]
    UnknownRule { category: String, rule: String },
    /// A rule's value is not a string.
    #[error("Style rule '{category}.{rule}' must be a string option.")]
    OptionNotAString { category: String, rule: String },
    /// A rule's value is not one of its options.
    #[error("Option '{option}' is not valid for style rule '{category}.{rule}'.")]
    UnknownOption { category: String, rule: String, option: String },
}

/// Validated configured rules: category → rule → option, ordered by name.
///
/// Serialises to the same JSON shape it was parsed from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ConfiguredRules {
    rules: BTreeMap<String, BTreeMap<String, String>>,
}

impl ConfiguredRules {
    /// Checks a `configured_rules` value: every category, rule and option must be in the
    /// catalogue. The first problem (in the order of the value's keys) is the error.
    pub fn parse(value: &Value) -> Result<ConfiguredRules, RuleError> {
        let Value::Object(categories) = value else {
            return Err(RuleError::NotAnObject);
        };
        let mut rules = BTreeMap::new();
        for (category_name, category_value) in categories {
            let Some(category) = lookup::category(category_name) else {
                return Err(RuleError::UnknownCategory(category_name.clone()));
            };
            let Value::Object(options) = category_value else {
                return Err(RuleError::CategoryNotAnObject(category_name.clone()));
            };
            let mut chosen = BTreeMap::new();
            for (rule_name, option) in options {
                let Some(rule) = category.rule(rule_name) else {
                    return Err(RuleError::UnknownRule { category: category_name.clone(), rule: rule_name.clone() });
                };
                let Value::String(option) = option else {
                    return Err(RuleError::OptionNotAString {
                        category: category_name.clone(),
                        rule: rule_name.clone(),
                    });
                };
                if !rule.has_option(option) {
                    return Err(RuleError::UnknownOption {
                        category: category_name.clone(),
                        rule: rule_name.clone(),
                        option: option.clone(),
                    });
                }
                chosen.insert(rule_name.clone(), option.clone());
            }
            rules.insert(category_name.clone(), chosen);
        }
        Ok(ConfiguredRules { rules })
    }

    /// The option chosen for `category`.`rule`, if the rule is configured.
    pub fn get(&self, category: &str, rule: &str) -> Option<&str> {
        self.rules.get(category)?.get(rule).map(String::as_str)
    }

    /// Every configured rule as (category, rule, option), ordered by category, then rule.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.rules.iter().flat_map(|(category, rules)| {
            rules.iter().map(move |(rule, option)| (category.as_str(), rule.as_str(), option.as_str()))
        })
    }

    /// The number of configured rules (not categories).
    pub fn len(&self) -> usize {
        self.rules.values().map(BTreeMap::len).sum()
    }

    /// Whether no rule is configured (an empty object, or only empty categories).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl TryFrom<&Value> for ConfiguredRules {
    type Error = RuleError;

    fn try_from(value: &Value) -> Result<Self, Self::Error> {
        ConfiguredRules::parse(value)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn error(value: Value) -> String {
        ConfiguredRules::parse(&value).unwrap_err().to_string()
    }

    #[test]
    fn known_rules_parse_and_serialise_to_the_same_shape() {
        let value = json!({
            "punctuation": { "apostrophe": "use_curly_apostrophes", "quotation_mark": "use_guillemets" },
            "numbers": { "decimal_separator": "use_comma_as_decimal_separator" },
        });
        let rules = ConfiguredRules::parse(&value).unwrap();
        assert_eq!(serde_json::to_value(&rules).unwrap(), value);
        assert_eq!(rules.len(), 3);
        assert!(!rules.is_empty());
        assert_eq!(rules.get("punctuation", "apostrophe"), Some("use_curly_apostrophes"));
        assert_eq!(rules.get("punctuation", "dash"), None);
        let listed: Vec<_> = rules.iter().collect();
        assert_eq!(
            listed,
            [
                ("numbers", "decimal_separator", "use_comma_as_decimal_separator"),
                ("punctuation", "apostrophe", "use_curly_apostrophes"),
                ("punctuation", "quotation_mark", "use_guillemets"),
            ]
        );
    }

    #[test]
    fn an_empty_object_or_empty_category_is_valid() {
        let rules = ConfiguredRules::parse(&json!({})).unwrap();
        assert!(rules.is_empty());
        let rules = ConfiguredRules::parse(&json!({ "punctuation": {} })).unwrap();
        assert!(rules.is_empty());
        assert_eq!(rules.len(), 0);
        assert_eq!(serde_json::to_value(&rules).unwrap(), json!({ "punctuation": {} }));
    }

    #[test]
    fn options_with_spaces_and_non_ascii_characters_are_accepted_verbatim() {
        let option = "use_yyyy_korean word_년_space_mm_korean word_월_space_dd_korean word_일_without_leading_zero_for_single_digit_days_and_months";
        let rules = ConfiguredRules::parse(&json!({ "dates_and_times": { "date_format": option } })).unwrap();
        assert_eq!(rules.get("dates_and_times", "date_format"), Some(option));
    }

    #[test]
    fn a_value_that_is_not_an_object_is_refused() {
        assert_eq!(error(json!([])), "'configured_rules' must be an object.");
        assert_eq!(error(json!("punctuation")), "'configured_rules' must be an object.");
        assert_eq!(error(Value::Null), "'configured_rules' must be an object.");
    }

    #[test]
    fn unknown_names_are_refused_by_name() {
        assert_eq!(error(json!({ "foo": {} })), "Unknown style rule category 'foo'.");
        assert_eq!(error(json!({ "punctuation": { "foo": "use" } })), "Unknown style rule 'punctuation.foo'.");
        assert_eq!(
            error(json!({ "punctuation": { "apostrophe": "bar" } })),
            "Option 'bar' is not valid for style rule 'punctuation.apostrophe'."
        );
        // A rule of another category is unknown in this one.
        assert_eq!(
            error(json!({ "numbers": { "apostrophe": "use_curly_apostrophes" } })),
            "Unknown style rule 'numbers.apostrophe'."
        );
        // An option of another rule is not valid for this one.
        assert_eq!(
            error(json!({ "punctuation": { "apostrophe": "use_guillemets" } })),
            "Option 'use_guillemets' is not valid for style rule 'punctuation.apostrophe'."
        );
    }

    #[test]
    fn values_of_the_wrong_type_are_refused() {
        assert_eq!(
            error(json!({ "punctuation": "use_curly_apostrophes" })),
            "Style rule category 'punctuation' must be an object."
        );
        assert_eq!(error(json!({ "punctuation": null })), "Style rule category 'punctuation' must be an object.");
        assert_eq!(
            error(json!({ "punctuation": { "apostrophe": 1 } })),
            "Style rule 'punctuation.apostrophe' must be a string option."
        );
        assert_eq!(
            error(json!({ "punctuation": { "apostrophe": ["use_curly_apostrophes"] } })),
            "Style rule 'punctuation.apostrophe' must be a string option."
        );
    }

    #[test]
    fn try_from_is_parse() {
        let value = json!({ "punctuation": { "apostrophe": "use_straight_apostrophes" } });
        assert_eq!(ConfiguredRules::try_from(&value), ConfiguredRules::parse(&value));
    }
}
