//! Finding a language by code, and turning a client's `source_lang`/`target_lang` into a catalogue language.

use crate::error::LanguageError;
use crate::language::Language;
use crate::table::LANGUAGES;

/// Every language of the catalogue, in order of v2 code.
pub fn all() -> &'static [Language] {
    &LANGUAGES
}

/// The language with this code, v2 or v3 form, in any casing (`en-gb`, `EN-GB`, `zh-hans`, `es-419`).
pub fn find(code: &str) -> Option<&'static Language> {
    // The v2 and v3 forms differ only in case, so one case-insensitive comparison covers both.
    LANGUAGES.iter().find(|language| language.code().eq_ignore_ascii_case(code))
}

/// The base language a back end names by its ISO 639-3 code (`spa`, `pes`) or by the ISO 639-1
/// code that is also ours (`es`), in any case; `None` for languages outside the catalogue.
pub fn from_iso639(code: &str) -> Option<&'static Language> {
    LANGUAGES.iter().filter(|language| !language.is_variant()).find(|language| {
        language.lang().eq_ignore_ascii_case(code)
            || language.iso639_3().iter().any(|iso| iso.eq_ignore_ascii_case(code))
    })
}

/// A `source_lang`: a known base language. Variants are targets only.
pub fn parse_source(code: &str) -> Result<&'static Language, LanguageError> {
    const PARAMETER: &str = "source_lang";
    match find(code) {
        Some(language) if language.usable_as_source() => Ok(language),
        Some(_) => Err(LanguageError::TargetOnly { parameter: PARAMETER, value: code.to_owned() }),
        None => Err(LanguageError::Unknown { parameter: PARAMETER, value: code.to_owned() }),
    }
}

/// A `target_lang`: any known language, variants and beta languages included (`enable_beta_languages` is not
/// needed). Whether the configured engine can serve it is a separate question, for [`crate::Coverage`].
pub fn parse_target(code: &str) -> Result<&'static Language, LanguageError> {
    match find(code) {
        Some(language) if language.usable_as_target() => Ok(language),
        _ => Err(LanguageError::Unknown { parameter: "target_lang", value: code.to_owned() }),
    }
}

/// The targets that accept `custom_instructions`: German, English, Spanish, French, Italian, Japanese, Korean
/// and Chinese, with their variants.
pub fn custom_instruction_targets() -> impl Iterator<Item = &'static Language> {
    LANGUAGES.iter().filter(|language| language.supports_custom_instructions())
}

/// The base languages glossaries can hold, as used by glossary requests and listings.
pub fn glossary_languages() -> impl Iterator<Item = &'static Language> {
    LANGUAGES.iter().filter(|language| !language.is_variant() && language.supports_glossary())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_iso_639_styles_find_the_base_language() {
        let code = |iso: &str| from_iso639(iso).map(Language::base_code);
        assert_eq!(code("spa"), Some("es"));
        assert_eq!(code("es"), Some("es"));
        assert_eq!(code("GLG"), Some("gl"));
        assert_eq!(code("nob"), Some("nb"));
        assert_eq!(code("cmn"), Some("zh"));
        assert_eq!(code("ceb"), Some("ceb"));
        assert_eq!(code("nno"), None);
        assert_eq!(code("hbs"), None);
        assert_eq!(code("pt-br"), None, "variants have no ISO 639 code of their own");
    }

    #[test]
    fn every_base_language_has_iso_639_3_codes_unique_across_the_catalogue() {
        let mut seen = std::collections::HashSet::new();
        for language in all() {
            if language.is_variant() {
                assert!(language.iso639_3().is_empty(), "{}", language.code());
                continue;
            }
            assert!(!language.iso639_3().is_empty(), "{}", language.code());
            assert_eq!(from_iso639(language.base_code()), Some(language));
            assert!(seen.insert(language.base_code()), "duplicate {}", language.base_code());
            for iso in language.iso639_3() {
                assert_eq!(iso.len(), 3, "{iso} is not ISO 639-3");
                assert_eq!(from_iso639(iso), Some(language), "{iso}");
                if *iso != language.base_code() {
                    assert!(seen.insert(iso), "duplicate {iso}");
                }
            }
        }
    }

    #[test]
    fn lookup_ignores_case_in_v2_and_v3_forms() {
        for code in ["en-gb", "EN-GB", "en-GB", "En-Gb"] {
            assert_eq!(find(code).map(Language::code), Some("EN-GB"), "{code}");
        }
        for code in ["zh-hans", "ZH-HANS", "zh-Hans"] {
            assert_eq!(find(code).map(Language::lang), Some("zh-Hans"), "{code}");
        }
        assert_eq!(find("es-419").map(Language::code), Some("ES-419"));
        assert_eq!(find("de").map(Language::code), Some("DE"));
        assert_eq!(find("Yue").map(Language::code), Some("YUE"));
    }

    #[test]
    fn lookup_of_an_unknown_code_finds_nothing() {
        for code in ["", "xx", "en-", "en_GB", "EN-AU", " de"] {
            assert!(find(code).is_none(), "{code:?}");
        }
    }

    #[test]
    fn a_base_language_parses_as_a_source_in_any_case() {
        assert_eq!(parse_source("de").unwrap().code(), "DE");
        assert_eq!(parse_source("PT").unwrap().code(), "PT");
    }

    #[test]
    fn a_variant_is_rejected_as_a_source() {
        for code in ["EN-GB", "en-us", "zh-Hans", "ES-419", "DE-CH"] {
            let error = parse_source(code).unwrap_err();
            assert!(matches!(error, LanguageError::TargetOnly { .. }), "{code}");
            assert_eq!(error.to_string(), "Value for 'source_lang' not supported.");
        }
    }

    #[test]
    fn an_unknown_source_is_rejected_with_the_parameter_name() {
        let error = parse_source("klingon").unwrap_err();
        assert_eq!(error, LanguageError::Unknown { parameter: "source_lang", value: "klingon".into() });
    }

    #[test]
    fn targets_include_variants_beta_languages_and_bare_english() {
        for code in ["EN-GB", "zh-hant", "es-419", "de-ch", "FR-CA", "EN", "pt", "ZH"] {
            assert!(parse_target(code).is_ok(), "{code}");
        }
    }

    #[test]
    fn an_unknown_target_is_rejected_with_the_api_message() {
        let error = parse_target("EN-AU").unwrap_err();
        assert_eq!(error.parameter(), "target_lang");
        assert_eq!(error.to_string(), "Value for 'target_lang' not supported.");
    }

    #[test]
    fn custom_instructions_are_for_eight_languages_and_their_variants() {
        let bases: std::collections::BTreeSet<&str> = custom_instruction_targets().map(Language::base_code).collect();
        assert_eq!(bases.into_iter().collect::<Vec<_>>(), ["de", "en", "es", "fr", "it", "ja", "ko", "zh"]);
        assert!(custom_instruction_targets().any(|language| language.code() == "EN-GB"));
        assert!(!custom_instruction_targets().any(|language| language.code() == "PT-BR"));
    }
}
