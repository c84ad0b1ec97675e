//! APY's language pairs, understood: parsing `/listPairs`, mapping APY's codes to ours, choosing
//! variants, planning pivots and computing the coverage. Pure functions, no I/O.
//!
//! # Codes
//!
//! APY names a language by its ISO 639-3 code (`eng`, `spa`, `glg`) or, for some pairs, by the
//! ISO 639-1 code of the mode file (`en`, `gl`); either may carry a variant after an underscore
//! (`por_BR`, `cat_valencia`, `cat_iec2017`, `eng_US`). Both styles map to the catalogue's base
//! languages through [`catalogue::from_iso639`]; codes outside the catalogue (`nno`, `hbs`, `ast`,
//! …) are ignored.
//!
//! # Choosing among the pairs for one request
//!
//! Several APY pairs may serve one of our pairs (`spa → cat`, `spa → cat_valencia`,
//! `spa → cat_iec2017`). For the target, in this order:
//!
//! 1. the variant the target names, compared case-insensitively (`PT-BR` → `por_BR`,
//!    `EN-US` → `eng_US`);
//! 2. the plain language (`pt`, `pt-pt` → `por`; `ca` → `cat` rather than `cat_valencia`;
//!    `en-gb` → `eng`, Apertium's English being British; `es-419` → `spa`);
//! 3. any other variant, so a language offered only as a variant is still served.
//!
//! Ties are broken by preferring ISO 639-3 spellings, then by the code's spelling, so the choice
//! never depends on the order of APY's list. The source side prefers the plain language the same
//! way.
//!
//! # Pivots
//!
//! Where no direct pair exists, the text goes through one pivot language: Spanish if both legs
//! exist, else English (Apertium's best-connected languages). Only one pivot, never a chain of
//! two: each leg loses quality.

use std::collections::BTreeSet;

use catalogue::Language;
use serde::{Deserialize, Serialize};

/// The pivot languages, in order of preference.
pub const PIVOTS: &[&str] = &["es", "en"];

/// A language code as APY writes it, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApyCode {
    /// Exactly as APY wrote it, to send back in `langpair`.
    pub raw: String,
    /// Our base code.
    pub base: &'static str,
    /// The part after the underscore, if any (`BR`, `valencia`).
    pub variant: Option<String>,
}

impl ApyCode {
    /// `None` for languages outside the catalogue.
    pub fn parse(raw: &str) -> Option<ApyCode> {
        let (language, variant) = match raw.split_once('_') {
            Some((language, variant)) => (language, Some(variant.to_owned())),
            None => (raw, None),
        };
        let base = catalogue::from_iso639(language)?.base_code();
        Some(ApyCode { raw: raw.to_owned(), base, variant })
    }

    /// Whether the language part is spelled in ISO 639-3, APY's current convention.
    fn is_iso639_3(&self) -> bool {
        self.raw.split('_').next().is_some_and(|language| language.len() == 3)
    }
}

/// One APY translation step: the `langpair` to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    pub from: String,
    pub to: String,
}

impl Leg {
    /// The `langpair` parameter, e.g. `eng|spa`.
    pub fn langpair(&self) -> String {
        format!("{}|{}", self.from, self.to)
    }
}

/// How to translate one of our pairs: one leg, or two through a pivot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub legs: Vec<Leg>,
}

/// The pairs an APY serves, as (source, target) codes exactly as it lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawPairs(pub Vec<(String, String)>);

#[derive(Deserialize)]
struct ListPairsResponse {
    #[serde(rename = "responseData")]
    response_data: Vec<ListedPair>,
    #[serde(rename = "responseStatus")]
    response_status: Option<u16>,
}

#[derive(Deserialize)]
struct ListedPair {
    #[serde(rename = "sourceLanguage")]
    source_language: String,
    #[serde(rename = "targetLanguage")]
    target_language: String,
}

impl RawPairs {
    /// Parses the body of `GET /listPairs`.
    pub fn from_list_pairs(body: &[u8]) -> Result<RawPairs, String> {
        let response: ListPairsResponse =
            serde_json::from_slice(body).map_err(|error| format!("listPairs is not the expected JSON: {error}"))?;
        if let Some(status) = response.response_status.filter(|status| *status != 200) {
            return Err(format!("listPairs reported status {status}"));
        }
        Ok(RawPairs(
            response.response_data.into_iter().map(|pair| (pair.source_language, pair.target_language)).collect(),
        ))
    }
}

/// The pairs an APY serves, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairTable {
    pairs: Vec<(ApyCode, ApyCode)>,
}

impl PairTable {
    pub fn new(raw: &RawPairs) -> PairTable {
        let pairs = raw
            .0
            .iter()
            .filter_map(|(source, target)| Some((ApyCode::parse(source)?, ApyCode::parse(target)?)))
            .filter(|(source, target)| source.base != target.base)
            .collect();
        PairTable { pairs }
    }

    /// How to translate from `source` to `target` (possibly a variant); `None` when neither a
    /// direct pair nor a pivot serves it.
    pub fn plan(&self, source: &Language, target: &Language) -> Option<Plan> {
        let (source, target_base) = (source.base_code(), target.base_code());
        if source == target_base {
            return None;
        }
        let variant = target.lang().split_once('-').map(|(_, variant)| variant);
        if let Some(leg) = self.direct(source, target_base, variant) {
            return Some(Plan { legs: vec![leg] });
        }
        PIVOTS.iter().filter(|pivot| **pivot != source && **pivot != target_base).find_map(|pivot| {
            let first = self.direct(source, pivot, None)?;
            let second = self.direct(pivot, target_base, variant)?;
            Some(Plan { legs: vec![first, second] })
        })
    }

    /// Every (source, target) pair of base codes served directly or through a pivot.
    pub fn coverage(&self) -> BTreeSet<(String, String)> {
        let direct: BTreeSet<(&str, &str)> =
            self.pairs.iter().map(|(source, target)| (source.base, target.base)).collect();
        let mut coverage: BTreeSet<(String, String)> =
            direct.iter().map(|(source, target)| (source.to_string(), target.to_string())).collect();
        for pivot in PIVOTS {
            for (source, _) in direct.iter().filter(|(_, target)| target == pivot) {
                for (_, target) in direct.iter().filter(|(from, _)| from == pivot) {
                    if source != target {
                        coverage.insert((source.to_string(), target.to_string()));
                    }
                }
            }
        }
        coverage
    }

    /// The best direct pair from the base code `source` to the base code `target_base`, in the
    /// variant `wanted_variant` where APY has it.
    fn direct(&self, source: &str, target_base: &str, wanted_variant: Option<&str>) -> Option<Leg> {
        self.pairs
            .iter()
            .filter(|(from, to)| from.base == source && to.base == target_base)
            .min_by_key(|(from, to)| (preference(to, wanted_variant), preference(from, None)))
            .map(|(from, to)| Leg { from: from.raw.clone(), to: to.raw.clone() })
    }
}

/// Sort key for choosing among codes of one language: smaller is better (see the module docs).
fn preference<'c>(code: &'c ApyCode, wanted_variant: Option<&str>) -> (u8, bool, &'c str) {
    let rank = match (code.variant.as_deref(), wanted_variant) {
        (Some(variant), Some(wanted)) if variant.eq_ignore_ascii_case(wanted) => 0,
        (None, _) => 1,
        (Some(variant), Some(wanted))
            if variant.get(..wanted.len()).is_some_and(|prefix| prefix.eq_ignore_ascii_case(wanted)) =>
        {
            2
        }
        (Some(_), _) => 3,
    };
    (rank, !code.is_iso639_3(), code.raw.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the APY on the development machine lists, plus a few ISO 639-1 modes other APY
    /// versions list as they are, and a language outside the catalogue.
    const SAMPLE: &str = r#"{"responseData": [
        {"sourceLanguage": "spa", "targetLanguage": "cat_iec2017"},
        {"sourceLanguage": "glg", "targetLanguage": "spa"},
        {"sourceLanguage": "spa", "targetLanguage": "glg"},
        {"sourceLanguage": "eng", "targetLanguage": "cat_iec2017"},
        {"sourceLanguage": "eng", "targetLanguage": "cat_valencia"},
        {"sourceLanguage": "por", "targetLanguage": "cat_pre2017"},
        {"sourceLanguage": "ita", "targetLanguage": "spa"},
        {"sourceLanguage": "cat", "targetLanguage": "por_BR"},
        {"sourceLanguage": "por", "targetLanguage": "cat"},
        {"sourceLanguage": "cat", "targetLanguage": "fra"},
        {"sourceLanguage": "eng", "targetLanguage": "cat"},
        {"sourceLanguage": "fra", "targetLanguage": "cat"},
        {"sourceLanguage": "spa", "targetLanguage": "eng"},
        {"sourceLanguage": "spa", "targetLanguage": "cat"},
        {"sourceLanguage": "cat", "targetLanguage": "por_PTpre1990"},
        {"sourceLanguage": "spa", "targetLanguage": "por_BR"},
        {"sourceLanguage": "por", "targetLanguage": "spa"},
        {"sourceLanguage": "spa", "targetLanguage": "fra"},
        {"sourceLanguage": "spa", "targetLanguage": "eng_US"},
        {"sourceLanguage": "spa", "targetLanguage": "ita"},
        {"sourceLanguage": "eng", "targetLanguage": "spa"},
        {"sourceLanguage": "spa", "targetLanguage": "por"},
        {"sourceLanguage": "cat", "targetLanguage": "eng"},
        {"sourceLanguage": "glg", "targetLanguage": "eng"},
        {"sourceLanguage": "eng", "targetLanguage": "glg"},
        {"sourceLanguage": "en", "targetLanguage": "gl"},
        {"sourceLanguage": "gl", "targetLanguage": "en"},
        {"sourceLanguage": "fra", "targetLanguage": "spa"},
        {"sourceLanguage": "nno", "targetLanguage": "nob"}
    ], "responseDetails": null, "responseStatus": 200}"#;

    fn table() -> PairTable {
        PairTable::new(&RawPairs::from_list_pairs(SAMPLE.as_bytes()).unwrap())
    }

    /// A language of the catalogue by its code.
    fn language(code: &str) -> &'static Language {
        catalogue::find(code).unwrap()
    }

    /// The plan from `source` to `target`, by their codes.
    fn plan(table: &PairTable, source: &str, target: &str) -> Option<Plan> {
        table.plan(language(source), language(target))
    }

    fn legs(plan: Option<Plan>) -> Vec<String> {
        plan.expect("a plan").legs.iter().map(Leg::langpair).collect()
    }

    #[test]
    fn apy_codes_of_both_styles_map_to_base_codes() {
        let code = ApyCode::parse("por_BR").unwrap();
        assert_eq!((code.base, code.variant.as_deref()), ("pt", Some("BR")));
        assert_eq!(ApyCode::parse("cat_valencia_uni").unwrap().variant.as_deref(), Some("valencia_uni"));
        assert_eq!(ApyCode::parse("gl").unwrap().base, "gl");
        assert_eq!(ApyCode::parse("eng").unwrap().base, "en");
        assert_eq!(ApyCode::parse("nno"), None);
    }

    #[test]
    fn list_pairs_parses_and_rejects_other_documents() {
        let raw = RawPairs::from_list_pairs(SAMPLE.as_bytes()).unwrap();
        assert_eq!(raw.0[0], ("spa".to_owned(), "cat_iec2017".to_owned()));
        assert!(RawPairs::from_list_pairs(b"<html>").is_err());
        assert!(RawPairs::from_list_pairs(br#"{"responseData": [], "responseStatus": 500}"#).is_err());
    }

    #[test]
    fn direct_pairs_use_a_single_leg() {
        assert_eq!(legs(plan(&table(), "en", "es")), ["eng|spa"]);
        assert_eq!(legs(plan(&table(), "es", "fr")), ["spa|fra"]);
    }

    #[test]
    fn variant_targets_prefer_the_named_variant_then_the_plain_language() {
        let table = table();
        assert_eq!(legs(plan(&table, "es", "pt-br")), ["spa|por_BR"]);
        assert_eq!(legs(plan(&table, "es", "pt-pt")), ["spa|por"]);
        assert_eq!(legs(plan(&table, "es", "pt")), ["spa|por"]);
        assert_eq!(legs(plan(&table, "es", "en-us")), ["spa|eng_US"]);
        assert_eq!(legs(plan(&table, "es", "en-gb")), ["spa|eng"]);
        assert_eq!(legs(plan(&table, "en", "ca")), ["eng|cat"]);
        assert_eq!(legs(plan(&table, "es", "ca")), ["spa|cat"]);
    }

    #[test]
    fn a_language_offered_only_as_variants_is_still_served() {
        // cat → pt exists only as por_BR and por_PTpre1990.
        assert_eq!(legs(plan(&table(), "ca", "pt-br")), ["cat|por_BR"]);
        assert_eq!(legs(plan(&table(), "ca", "pt-pt")), ["cat|por_PTpre1990"]);
        // Plain `pt` names no variant: the spelling decides, whatever the order of the list.
        assert_eq!(legs(plan(&table(), "ca", "pt")), ["cat|por_BR"]);
    }

    #[test]
    fn iso_639_3_spellings_win_over_two_letter_modes() {
        assert_eq!(legs(plan(&table(), "en", "gl")), ["eng|glg"]);
        let two_letter_only = RawPairs(vec![("en".into(), "gl".into())]);
        assert_eq!(legs(plan(&PairTable::new(&two_letter_only), "en", "gl")), ["en|gl"]);
    }

    #[test]
    fn missing_pairs_pivot_through_spanish_first() {
        let table = table();
        assert_eq!(legs(plan(&table, "en", "fr")), ["eng|spa", "spa|fra"]);
        assert_eq!(legs(plan(&table, "en", "pt-br")), ["eng|spa", "spa|por_BR"]);
        assert_eq!(legs(plan(&table, "en", "it")), ["eng|spa", "spa|ita"]);
        assert_eq!(legs(plan(&table, "it", "en")), ["ita|spa", "spa|eng"]);
        assert_eq!(legs(plan(&table, "fr", "gl")), ["fra|spa", "spa|glg"]);
    }

    #[test]
    fn english_is_the_pivot_when_spanish_cannot_be() {
        let raw =
            RawPairs(vec![("cat".into(), "eng".into()), ("eng".into(), "glg".into()), ("eng".into(), "spa".into())]);
        let table = PairTable::new(&raw);
        assert_eq!(legs(plan(&table, "ca", "gl")), ["cat|eng", "eng|glg"]);
        // Spanish as the target cannot be its own pivot.
        assert_eq!(legs(plan(&table, "ca", "es")), ["cat|eng", "eng|spa"]);
    }

    #[test]
    fn unserved_pairs_have_no_plan() {
        let table = table();
        assert_eq!(plan(&table, "en", "de"), None);
        assert_eq!(plan(&table, "de", "en"), None);
        assert_eq!(plan(&table, "en", "en-us"), None);
        // Norwegian is not reachable: nno is outside the catalogue, so the pair is dropped.
        assert_eq!(plan(&table, "nb", "es"), None);
    }

    #[test]
    fn coverage_lists_direct_and_pivot_pairs_as_base_codes() {
        let coverage = table().coverage();
        let has = |source: &str, target: &str| coverage.contains(&(source.to_owned(), target.to_owned()));
        assert!(has("en", "es"));
        assert!(has("es", "pt"));
        assert!(has("en", "fr"), "pivot through Spanish");
        assert!(has("it", "en"), "pivot through Spanish");
        assert!(has("it", "ca"));
        assert!(!has("en", "en"));
        assert!(!has("en", "de"));
        assert!(coverage.iter().all(|(source, target)| source != target && !target.contains('_')));
        // Every listed pair has a plan.
        for (source, target) in &coverage {
            assert!(plan(&table(), source, target).is_some(), "{source} → {target}");
        }
    }
}
