//! One language of the catalogue: its codes, its name, its maturity and what it can be used for.
//!
//! The values live only in the static table (`table.rs`); nothing outside this crate can make one, so a
//! `&Language` is always a language the API knows.

use crate::lookup;

/// How established a language is, which decides billing and which model types it works with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Maturity {
    /// Part of the long-established set.
    Stable,
    /// Standard since 2026-01-08 (one of the 81 formerly-beta languages). Such languages work only with
    /// `quality_optimized` or no `model_type`; `latency_optimized` is refused.
    FormerlyBeta,
    /// Still in beta (`DE-CH`, `FR-CA` as targets): not billed, not counted against limits, no glossaries and
    /// no formality, and left out of the deprecated v2 listings.
    Beta,
}

/// What a language supports, as bits, so the table can say it in one expression per row.
pub(crate) mod flag {
    /// No optional feature.
    pub const NONE: u16 = 0;
    /// Left out of the deprecated `/v2/languages` listings (the newer three-letter codes).
    pub const NOT_IN_V2: u16 = 1 << 0;
    /// A base language that is accepted as a target but advertised as a target only through its variants
    /// (`EN` → `EN-GB`/`EN-US`, `PT` → `PT-BR`/`PT-PT`), in the v2 list and in the v3 translation listings.
    pub const TARGET_BY_VARIANT: u16 = 1 << 1;
    /// `formality` other than `default` (checked on the target).
    pub const FORMALITY: u16 = 1 << 2;
    /// Glossaries (checked on source and target).
    pub const GLOSSARY: u16 = 1 << 3;
    /// `tag_handling` (checked on source and target).
    pub const TAGS: u16 = 1 << 4;
    /// Detected when the client omits `source_lang`.
    pub const AUTO_DETECT: u16 = 1 << 5;
    /// Style rule lists and custom instructions (checked on the target).
    pub const STYLE_RULES: u16 = 1 << 6;
    /// Translation memories (a base language as source or target, a variant as target).
    pub const MEMORY: u16 = 1 << 7;
    /// `/v2/write/*` (a base language as the text's language or target, a variant as target).
    pub const WRITE: u16 = 1 << 8;
    /// `writing_style` and `tone` in `/v2/write/rephrase` (checked on the target).
    pub const WRITE_STYLE: u16 = 1 << 9;
    /// Real-time voice (a base language as spoken or target language, a variant as target).
    pub const VOICE: u16 = 1 << 10;
}

/// A language of the catalogue, either a base language (`DE`) or a target-only variant (`EN-GB`).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Language {
    code: &'static str,
    lang: &'static str,
    iso639_3: &'static [&'static str],
    name: &'static str,
    maturity: Maturity,
    flags: u16,
    v2_target_name: Option<&'static str>,
}

/// A row of the table. A code with a `-` is a variant of the language before the dash.
pub(crate) const fn row(
    code: &'static str,
    lang: &'static str,
    iso639_3: &'static [&'static str],
    name: &'static str,
    maturity: Maturity,
    flags: u16,
) -> Language {
    Language { code, lang, iso639_3, name, maturity, flags, v2_target_name: None }
}

impl Language {
    /// The same row with another name in the `/v2/languages?type=target` list.
    pub(crate) const fn named_in_v2_targets(self, name: &'static str) -> Language {
        Language { v2_target_name: Some(name), ..self }
    }

    /// The v2 code, upper case: `DE`, `EN-GB`, `ZH-HANS`, `ES-419`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The v3 code in BCP 47 casing: `de`, `en-GB`, `zh-Hans`, `es-419`.
    pub fn lang(&self) -> &'static str {
        self.lang
    }

    /// The base language's ISO 639-3 codes, the usual one first: what back ends such as Apertium
    /// call it (`spa`; `fas` and `pes` for Persian). Empty for a variant: back ends name variants
    /// their own ways.
    pub fn iso639_3(&self) -> &'static [&'static str] {
        self.iso639_3
    }

    /// The English name: `German`, `English (British)`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The name in the `/v2/languages?type=target` list, which calls `ZH` "Chinese (simplified)".
    pub fn v2_target_name(&self) -> &'static str {
        self.v2_target_name.unwrap_or(self.name)
    }

    /// Whether this is a regional or script variant (`EN-GB`, `ZH-HANT`, `ES-419`).
    pub fn is_variant(&self) -> bool {
        self.code.contains('-')
    }

    /// The base language: `EN` for `EN-GB`, the language itself for a base language.
    pub fn base(&self) -> &'static Language {
        let base_code = self.code.split('-').next().unwrap_or(self.code);
        // Every variant's base is a row of the table; `every_variant_has_its_base_in_the_table` pins it.
        lookup::find(base_code).expect("every variant's base language is in the catalogue")
    }

    /// The base language's code in lower case, the form glossaries, style rules, translation memories and
    /// engine coverage use (`en` for `EN-GB`).
    pub fn base_code(&self) -> &'static str {
        // A base language's v3 code is its lower-case code.
        self.base().lang
    }

    /// Whether it may be a `source_lang`. Variants are targets only.
    pub fn usable_as_source(&self) -> bool {
        !self.is_variant()
    }

    /// Whether it may be a `target_lang`: every language of the catalogue may.
    pub fn usable_as_target(&self) -> bool {
        true
    }

    /// Whether the translation listings advertise it as a target. `EN` and `PT` are still accepted as targets
    /// but are advertised through their variants.
    pub fn listed_as_target(&self) -> bool {
        !self.has(flag::TARGET_BY_VARIANT)
    }

    pub fn maturity(&self) -> Maturity {
        self.maturity
    }

    pub fn is_beta(&self) -> bool {
        self.maturity == Maturity::Beta
    }

    /// Whether it is one of the 81 languages that left beta on 2026-01-08 (they refuse `latency_optimized`).
    pub fn is_formerly_beta(&self) -> bool {
        self.maturity == Maturity::FormerlyBeta
    }

    /// Whether characters translated into it are billed and counted against limits: not while it is in beta.
    pub fn is_billed(&self) -> bool {
        !self.is_beta()
    }

    /// Whether `formality` `more`/`less` is honoured with it as the target.
    pub fn supports_formality(&self) -> bool {
        // Beta languages never support formality, whatever a row says.
        self.has(flag::FORMALITY) && !self.is_beta()
    }

    /// Whether glossaries can hold it (Thai and beta languages cannot).
    pub fn supports_glossary(&self) -> bool {
        // Beta languages never support glossaries, whatever a row says.
        self.has(flag::GLOSSARY) && !self.is_beta()
    }

    pub fn supports_tag_handling(&self) -> bool {
        self.has(flag::TAGS)
    }

    /// Whether it is detected when the client omits `source_lang`.
    pub fn auto_detectable(&self) -> bool {
        self.has(flag::AUTO_DETECT)
    }

    /// Whether a style rule list can apply to it as a target.
    pub fn supports_style_rules(&self) -> bool {
        self.has(flag::STYLE_RULES)
    }

    /// Whether `custom_instructions` are accepted with it as the target: the same languages as style rules.
    pub fn supports_custom_instructions(&self) -> bool {
        self.supports_style_rules()
    }

    pub fn supports_translation_memory(&self) -> bool {
        self.has(flag::MEMORY)
    }

    /// Whether `/v2/write/*` works with it.
    pub fn supports_write(&self) -> bool {
        self.has(flag::WRITE)
    }

    /// Whether `writing_style` is honoured with it as the target.
    pub fn supports_writing_style(&self) -> bool {
        self.has(flag::WRITE_STYLE)
    }

    /// Whether `tone` is honoured with it as the target.
    pub fn supports_tone(&self) -> bool {
        self.has(flag::WRITE_STYLE)
    }

    /// Whether real-time voice sessions accept it.
    pub fn supports_voice(&self) -> bool {
        self.has(flag::VOICE)
    }

    /// Whether the deprecated `/v2/languages` lists it at all (as a source or a target).
    pub fn listed_by_v2(&self) -> bool {
        !self.has(flag::NOT_IN_V2) && !self.is_beta()
    }

    pub(crate) fn has(&self, flag: u16) -> bool {
        self.flags & flag == flag
    }
}

#[cfg(test)]
mod tests {
    use crate::{Maturity, find};

    #[test]
    fn a_variant_knows_its_base_language() {
        let british = find("EN-GB").unwrap();
        assert!(british.is_variant());
        assert_eq!(british.base().code(), "EN");
        assert_eq!(british.base_code(), "en");
        assert_eq!(find("ZH-HANT").unwrap().base_code(), "zh");
        assert_eq!(find("ES-419").unwrap().base_code(), "es");
    }

    #[test]
    fn a_base_language_is_its_own_base() {
        let german = find("DE").unwrap();
        assert!(!german.is_variant());
        assert_eq!(german.base(), german);
        assert_eq!(find("YUE").unwrap().base_code(), "yue");
    }

    #[test]
    fn variants_are_targets_only() {
        let brazilian = find("PT-BR").unwrap();
        assert!(!brazilian.usable_as_source());
        assert!(brazilian.usable_as_target());
        assert!(find("PT").unwrap().usable_as_source());
    }

    #[test]
    fn beta_targets_have_neither_glossaries_nor_formality_and_are_not_billed() {
        for code in ["DE-CH", "FR-CA"] {
            let language = find(code).unwrap();
            assert_eq!(language.maturity(), Maturity::Beta);
            assert!(language.is_beta());
            assert!(!language.supports_glossary(), "{code}");
            assert!(!language.supports_formality(), "{code}");
            assert!(!language.is_billed(), "{code}");
            assert!(!language.listed_by_v2(), "{code}");
        }
    }

    #[test]
    fn stable_and_formerly_beta_languages_are_billed() {
        assert!(find("DE").unwrap().is_billed());
        assert!(find("CA").unwrap().is_billed());
    }

    #[test]
    fn thai_has_no_glossary_support() {
        let thai = find("TH").unwrap();
        assert!(!thai.supports_glossary());
        assert_eq!(thai.maturity(), Maturity::Stable);
    }

    #[test]
    fn formality_follows_the_reference_list() {
        let with_formality: Vec<&str> = crate::all()
            .iter()
            .filter(|language| language.supports_formality())
            .map(|language| language.code())
            .collect();
        assert_eq!(with_formality, ["DE", "ES", "ES-419", "FR", "IT", "JA", "NL", "PL", "PT", "PT-BR", "PT-PT", "RU"]);
    }

    #[test]
    fn english_and_portuguese_are_accepted_targets_advertised_through_their_variants() {
        for code in ["EN", "PT"] {
            let language = find(code).unwrap();
            assert!(language.usable_as_target());
            assert!(!language.listed_as_target());
        }
        assert!(find("ZH").unwrap().listed_as_target());
    }

    #[test]
    fn chinese_has_another_name_in_the_v2_target_list() {
        let chinese = find("ZH").unwrap();
        assert_eq!(chinese.name(), "Chinese");
        assert_eq!(chinese.v2_target_name(), "Chinese (simplified)");
        assert_eq!(find("DE").unwrap().v2_target_name(), "German");
    }

    #[test]
    fn write_style_and_tone_are_for_german_and_english() {
        let with_style: Vec<&str> = crate::all()
            .iter()
            .filter(|language| language.supports_writing_style() && language.supports_tone())
            .map(|language| language.code())
            .collect();
        assert_eq!(with_style, ["DE", "EN", "EN-GB", "EN-US"]);
    }
}
