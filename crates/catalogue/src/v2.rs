//! The deprecated v2 listings, `GET /v2/languages` and `GET /v2/glossary-language-pairs`, still served for
//! older clients.

use serde::Serialize;

use crate::coverage::Coverage;
use crate::error::QueryError;
use crate::lookup::{all, glossary_languages};

/// When the v2 listings were deprecated in favour of `/v3/languages`: 2026-05-18, 00:00 UTC, as a Unix time.
pub const V2_DEPRECATED_AT: i64 = 1_779_062_400;

/// The `Deprecation` header of the v2 listings, as RFC 9745 writes a date: `@` and a Unix time.
pub fn v2_deprecation() -> String {
    format!("@{V2_DEPRECATED_AT}")
}

/// Which list `/v2/languages` returns, from its `type` parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Source,
    Target,
}

impl ListKind {
    /// The `type` query parameter: absent means `source`; anything but `source` or `target` is refused.
    pub fn parse(value: Option<&str>) -> Result<ListKind, QueryError> {
        match value {
            None | Some("source") => Ok(ListKind::Source),
            Some("target") => Ok(ListKind::Target),
            Some(other) => Err(QueryError::Unsupported { parameter: "type", value: other.to_owned() }),
        }
    }
}

/// One entry of `/v2/languages`: `{"language": "DE", "name": "German"}`, with `supports_formality` in the
/// target list only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct V2Language {
    pub language: &'static str,
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supports_formality: Option<bool>,
}

/// The `/v2/languages` list of that kind, limited to what the engine covers. With full coverage: 101 sources
/// (no variants, no hidden three-letter codes) and 106 targets (`EN`, `PT` replaced by their variants, no beta).
pub fn v2_languages(kind: ListKind, coverage: &Coverage) -> Vec<V2Language> {
    let listed = all().iter().filter(|language| language.listed_by_v2());
    match kind {
        ListKind::Source => listed
            .filter(|language| language.usable_as_source() && coverage.supports_source(language))
            .map(|language| V2Language { language: language.code(), name: language.name(), supports_formality: None })
            .collect(),
        ListKind::Target => listed
            .filter(|language| language.listed_as_target() && coverage.supports_target(language))
            .map(|language| V2Language {
                language: language.code(),
                name: language.v2_target_name(),
                supports_formality: Some(language.supports_formality()),
            })
            .collect(),
    }
}

/// The body of `/v2/glossary-language-pairs`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GlossaryLanguagePairs {
    pub supported_languages: Vec<GlossaryLanguagePair>,
}

/// One glossary language pair, in lower-case base codes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GlossaryLanguagePair {
    pub source_lang: &'static str,
    pub target_lang: &'static str,
}

/// Every ordered pair of distinct glossary languages that the engine covers, by source then target.
pub fn glossary_language_pairs(coverage: &Coverage) -> GlossaryLanguagePairs {
    let supported_languages = glossary_languages()
        .flat_map(|source| glossary_languages().map(move |target| (source, target)))
        .filter(|(source, target)| source != target && coverage.supports_pair(source, target))
        .map(|(source, target)| GlossaryLanguagePair {
            source_lang: source.base_code(),
            target_lang: target.base_code(),
        })
        .collect();
    GlossaryLanguagePairs { supported_languages }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::coverage::apertium_like;

    fn codes(entries: &[V2Language]) -> Vec<&'static str> {
        entries.iter().map(|entry| entry.language).collect()
    }

    #[test]
    fn the_full_source_list_has_101_languages() {
        assert_eq!(v2_languages(ListKind::Source, &Coverage::All).len(), 101);
    }

    #[test]
    fn the_full_target_list_has_106_languages() {
        assert_eq!(v2_languages(ListKind::Target, &Coverage::All).len(), 106);
    }

    #[test]
    fn the_source_list_has_no_variants_and_no_hidden_codes() {
        let sources = codes(&v2_languages(ListKind::Source, &Coverage::All));
        assert!(sources.iter().all(|code| !code.contains('-')));
        assert!(!sources.contains(&"YUE") && !sources.contains(&"ACE"));
        assert!(sources.contains(&"EN") && sources.contains(&"PT") && sources.contains(&"ZH"));
    }

    #[test]
    fn the_target_list_has_english_variants_instead_of_english() {
        let targets = codes(&v2_languages(ListKind::Target, &Coverage::All));
        assert!(!targets.contains(&"EN") && !targets.contains(&"PT"));
        for code in ["EN-GB", "EN-US", "PT-BR", "PT-PT", "ZH", "ZH-HANS", "ZH-HANT", "ES-419"] {
            assert!(targets.contains(&code), "{code}");
        }
    }

    #[test]
    fn the_target_list_leaves_out_beta_and_hidden_languages() {
        let targets = codes(&v2_languages(ListKind::Target, &Coverage::All));
        for code in ["DE-CH", "FR-CA", "YUE", "CEB"] {
            assert!(!targets.contains(&code), "{code}");
        }
    }

    #[test]
    fn chinese_is_named_simplified_in_the_target_list_only() {
        let target = v2_languages(ListKind::Target, &Coverage::All);
        let chinese = target.iter().find(|entry| entry.language == "ZH").unwrap();
        assert_eq!(chinese.name, "Chinese (simplified)");
        let source = v2_languages(ListKind::Source, &Coverage::All);
        let chinese = source.iter().find(|entry| entry.language == "ZH").unwrap();
        assert_eq!(chinese.name, "Chinese");
    }

    /// Days from 1970-01-01 to the civil date (proleptic Gregorian calendar).
    fn days_since_epoch(year: i64, month: i64, day: i64) -> i64 {
        let year = if month <= 2 { year - 1 } else { year };
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    #[test]
    fn the_v2_listings_are_deprecated_since_2026_05_18() {
        assert_eq!(days_since_epoch(1970, 1, 1), 0);
        assert_eq!(days_since_epoch(2000, 3, 1), 11_017);
        assert_eq!(V2_DEPRECATED_AT, days_since_epoch(2026, 5, 18) * 86_400);
        assert_eq!(v2_deprecation(), "@1779062400");
    }

    #[test]
    fn a_source_entry_has_code_and_name_only() {
        let sources = v2_languages(ListKind::Source, &Coverage::All);
        let german = sources.iter().find(|entry| entry.language == "DE").unwrap();
        assert_eq!(serde_json::to_value(german).unwrap(), json!({"language": "DE", "name": "German"}));
    }

    #[test]
    fn a_target_entry_says_whether_it_supports_formality() {
        let targets = v2_languages(ListKind::Target, &Coverage::All);
        let german = targets.iter().find(|entry| entry.language == "DE").unwrap();
        assert_eq!(
            serde_json::to_value(german).unwrap(),
            json!({"language": "DE", "name": "German", "supports_formality": true})
        );
        let british = targets.iter().find(|entry| entry.language == "EN-GB").unwrap();
        assert_eq!(
            serde_json::to_value(british).unwrap(),
            json!({"language": "EN-GB", "name": "English (British)", "supports_formality": false})
        );
    }

    #[test]
    fn listings_are_in_code_order() {
        let sources = codes(&v2_languages(ListKind::Source, &Coverage::All));
        assert_eq!(&sources[..3], ["AF", "AN", "AR"]);
    }

    #[test]
    fn a_small_engine_restricts_both_lists() {
        let coverage = apertium_like();
        assert_eq!(codes(&v2_languages(ListKind::Source, &coverage)), ["CA", "EN", "ES", "FR"]);
        assert_eq!(codes(&v2_languages(ListKind::Target, &coverage)), ["CA", "EN-GB", "EN-US", "ES", "ES-419", "FR"]);
    }

    #[test]
    fn the_type_parameter_defaults_to_source_and_refuses_other_values() {
        assert_eq!(ListKind::parse(None), Ok(ListKind::Source));
        assert_eq!(ListKind::parse(Some("source")), Ok(ListKind::Source));
        assert_eq!(ListKind::parse(Some("target")), Ok(ListKind::Target));
        let error = ListKind::parse(Some("both")).unwrap_err();
        assert_eq!(error.to_string(), "Value for 'type' not supported.");
    }

    #[test]
    fn glossary_pairs_cover_every_ordered_pair_of_distinct_glossary_languages() {
        let pairs = glossary_language_pairs(&Coverage::All).supported_languages;
        // 32 glossary languages (Thai excluded): 32 × 31 ordered pairs.
        assert_eq!(pairs.len(), 32 * 31);
        assert!(pairs.iter().all(|pair| pair.source_lang != pair.target_lang));
        assert!(!pairs.iter().any(|pair| pair.source_lang == "th" || pair.target_lang == "th"));
    }

    #[test]
    fn glossary_pairs_have_the_documented_shape() {
        let body = glossary_language_pairs(&Coverage::pairs([("de", "en"), ("en", "de")]));
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            json!({"supported_languages": [
                {"source_lang": "de", "target_lang": "en"},
                {"source_lang": "en", "target_lang": "de"},
            ]})
        );
    }

    #[test]
    fn a_small_engine_restricts_glossary_pairs_to_covered_glossary_languages() {
        // Catalan has no glossaries, and Spanish–French is not among the engine's pairs.
        let pairs: Vec<(&str, &str)> = glossary_language_pairs(&apertium_like())
            .supported_languages
            .iter()
            .map(|pair| (pair.source_lang, pair.target_lang))
            .collect();
        assert_eq!(pairs, [("en", "es"), ("en", "fr"), ("es", "en"), ("fr", "en")]);
    }
}
