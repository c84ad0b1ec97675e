//! Looking names up in the catalogue, and the catalogue as a JSON schema object.
//!
//! The catalogue is sorted by code point, so every lookup is a binary search.

use serde_json::{Map, Value, json};

use crate::catalogue::{CATEGORIES, Category, Rule};

/// The category named `name`, if the catalogue has one.
pub fn category(name: &str) -> Option<&'static Category> {
    CATEGORIES.binary_search_by(|category| category.name.cmp(name)).ok().map(|index| &CATEGORIES[index])
}

/// The rule `rule` of the category `category`, if the catalogue has one.
pub fn rule(category: &str, rule: &str) -> Option<&'static Rule> {
    let rules = self::category(category)?.rules;
    rules.binary_search_by(|known| known.name.cmp(rule)).ok().map(|index| &rules[index])
}

/// Whether `option` is one of the options of the rule `category`.`rule`.
pub fn is_known_option(category: &str, rule: &str, option: &str) -> bool {
    self::rule(category, rule).is_some_and(|rule| rule.has_option(option))
}

impl Rule {
    /// Whether `option` is one of this rule's options.
    pub fn has_option(&self, option: &str) -> bool {
        self.options.binary_search(&option).is_ok()
    }
}

impl Category {
    /// This category's rule named `name`, if it has one.
    pub fn rule(&self, name: &str) -> Option<&'static Rule> {
        self.rules.binary_search_by(|rule| rule.name.cmp(name)).ok().map(|index| &self.rules[index])
    }
}

/// The catalogue as an OpenAPI schema object: an object of categories, each an object of rules,
/// each a string with the enum of its options; no other property is allowed at either level.
///
/// The project's OpenAPI description can be generated from it or checked against it.
pub fn catalogue_json() -> Value {
    let mut categories = Map::new();
    for category in CATEGORIES {
        let mut rules = Map::new();
        for rule in category.rules {
            rules.insert(rule.name.to_owned(), json!({ "type": "string", "enum": rule.options }));
        }
        categories.insert(
            category.name.to_owned(),
            json!({ "type": "object", "additionalProperties": false, "properties": rules }),
        );
    }
    json!({ "type": "object", "additionalProperties": false, "properties": categories })
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::PathBuf;

    use yaml_rust2::{Yaml, YamlLoader};

    use super::*;

    #[test]
    fn categories_rules_and_options_are_sorted_and_unique() {
        assert!(CATEGORIES.windows(2).all(|pair| pair[0].name < pair[1].name));
        for category in CATEGORIES {
            assert!(!category.rules.is_empty(), "{}", category.name);
            assert!(category.rules.windows(2).all(|pair| pair[0].name < pair[1].name), "{}", category.name);
            for rule in category.rules {
                assert!(!rule.options.is_empty(), "{}.{}", category.name, rule.name);
                assert!(rule.options.windows(2).all(|pair| pair[0] < pair[1]), "{}.{}", category.name, rule.name);
            }
        }
    }

    #[test]
    fn lookups_find_every_name_and_nothing_else() {
        for category in CATEGORIES {
            assert_eq!(self::category(category.name), Some(category));
            for rule in category.rules {
                assert_eq!(self::rule(category.name, rule.name), Some(rule));
                assert_eq!(category.rule(rule.name), Some(rule));
                for option in rule.options {
                    assert!(is_known_option(category.name, rule.name, option));
                }
                assert!(!is_known_option(category.name, rule.name, "use_nothing_at_all"));
            }
        }
        assert_eq!(self::category("foo"), None);
        assert_eq!(self::rule("punctuation", "foo"), None);
        assert_eq!(self::rule("foo", "apostrophe"), None);
        assert!(is_known_option("punctuation", "apostrophe", "use_curly_apostrophes"));
        assert!(!is_known_option("punctuation", "apostrophe", "use_curly_apostrophes "));
    }

    #[test]
    fn options_keep_their_exact_spelling() {
        assert!(is_known_option(
            "dates_and_times",
            "date_format",
            "use_yyyy_korean word_년_space_mm_korean word_월_space_dd_korean word_일_without_leading_zero_for_single_digit_days_and_months"
        ));
        assert!(self::rule("spelling_and_grammar", "accents_in_verbs_conjugated_like_french_word_céder").is_some());
    }

    #[test]
    fn catalogue_json_is_a_closed_schema_of_every_rule() {
        let schema = catalogue_json();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["additionalProperties"], false);
        let categories = schema["properties"].as_object().unwrap();
        assert_eq!(categories.len(), CATEGORIES.len());
        let apostrophe = &schema["properties"]["punctuation"]["properties"]["apostrophe"];
        assert_eq!(
            *apostrophe,
            json!({ "type": "string", "enum": ["use_curly_apostrophes", "use_straight_apostrophes"] })
        );
        assert_eq!(schema["properties"]["punctuation"]["additionalProperties"], false);
    }

    /// Category → rule → options, as sets.
    type Names = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

    fn catalogue_names() -> Names {
        CATEGORIES
            .iter()
            .map(|category| {
                let rules = category
                    .rules
                    .iter()
                    .map(|rule| (rule.name.to_owned(), rule.options.iter().map(|o| (*o).to_owned()).collect()))
                    .collect();
                (category.name.to_owned(), rules)
            })
            .collect()
    }

    fn schema_names(schema: &Yaml) -> Names {
        let mut names = Names::new();
        let categories = schema["properties"].as_hash().expect("ConfiguredRules has properties");
        for (category_name, category) in categories {
            let category_name = category_name.as_str().expect("a category name is a string");
            assert_eq!(category["type"].as_str(), Some("object"), "{category_name}");
            let rules = category["properties"].as_hash().expect("a category has properties");
            let entry = names.entry(category_name.to_owned()).or_default();
            for (rule_name, rule) in rules {
                let rule_name = rule_name.as_str().expect("a rule name is a string");
                assert_eq!(rule["type"].as_str(), Some("string"), "{category_name}.{rule_name}");
                let options = rule["enum"].as_vec().expect("a rule has an enum");
                let options = options.iter().map(|option| option.as_str().expect("a string option").to_owned());
                entry.insert(rule_name.to_owned(), options.collect());
            }
        }
        names
    }

    /// The reference description: `GLOSSA_REFERENCE_SPEC`, else the checkout's shared reference.
    fn reference_spec() -> PathBuf {
        match std::env::var_os("GLOSSA_REFERENCE_SPEC") {
            Some(path) => PathBuf::from(path),
            None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference/spec/openapi.yaml"),
        }
    }

    #[test]
    fn catalogue_matches_the_reference_schema() {
        let path = reference_spec();
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!(
                "skipped: no reference OpenAPI description at {} (set GLOSSA_REFERENCE_SPEC to check the catalogue)",
                path.display()
            );
            return;
        };
        let documents = YamlLoader::load_from_str(&text).expect("the reference description is YAML");
        let schema = &documents[0]["components"]["schemas"]["ConfiguredRules"];
        assert!(!schema.is_badvalue(), "the reference description has no ConfiguredRules schema");
        assert_eq!(catalogue_names(), schema_names(schema));
    }
}
