//! The catalogue's data: every language of the API, one row each.
//!
//! This is the only place that says which languages exist and what each supports; everything else in the crate
//! derives from these rows. It is a static table rather than a data file parsed at start-up because Spin starts a
//! fresh instance for every request, so a parse would be paid on every request, while a static costs nothing
//! and is checked by the compiler.
//!
//! Where the columns come from (the API reference):
//! * codes, names, formality, glossary, tag handling and write: the language code table (§16). The two beta
//!   variants are marked there as glossary languages, but beta languages support neither glossaries nor formality
//!   (design rule), so their rows leave both out.
//! * ISO 639-3 codes: ISO 639-3 itself, the macrolanguage's code first, then the individual languages back
//!   ends name instead (`ara`, `arb`); variants have none.
//! * `AUTO_DETECT`: the auto-detectable source list of §16.
//! * `STYLE_RULES`: `de en es fr it ja ko zh` and every variant of them (§4, §12); it also allows custom
//!   instructions.
//! * `MEMORY`: the source and target languages translation memories accept (§11).
//! * `WRITE_STYLE`: `writing_style` and `tone` for German and English (§6.1); `EN` counts because write maps it
//!   to `en-US`.
//! * `VOICE`: the source languages and target languages of real-time voice sessions (§15.1).
//! * `NOT_IN_V2`: the thirteen three-letter codes hidden from `/v2/languages`.
//! * `TARGET_BY_VARIANT`: `EN` and `PT`, advertised as targets only through their variants.
//!
//! Maturity. `DE-CH` and `FR-CA` are `Beta`. The 81 formerly-beta languages are the base languages outside the
//! long-established core, where the core is the set of base languages with glossary support in §16 plus Hebrew,
//! Thai and Vietnamese. Hebrew and Vietnamese already have glossary support, so the core is 32 glossary languages
//! plus Thai, 33 of the 114 base languages, and 114 − 33 = 81 (the thirteen codes hidden from v2 among them). A
//! variant of a core language is `Stable`. The tests pin this rule against the rows.
//!
//! Rows are in order of their v2 code, which is the order of every listing.

use crate::language::Maturity::{Beta, FormerlyBeta, Stable};
use crate::language::flag::*;
use crate::language::{Language, row};

/// Every language of the API, sorted by v2 code.
#[rustfmt::skip]
pub(crate) static LANGUAGES: [Language; 123] = [
    row("ACE",     "ace",     &["ace"],         "Acehnese",              FormerlyBeta, NOT_IN_V2),
    row("AF",      "af",      &["afr"],         "Afrikaans",             FormerlyBeta, NONE),
    row("AN",      "an",      &["arg"],         "Aragonese",             FormerlyBeta, NONE),
    row("AR",      "ar",      &["ara", "arb"],  "Arabic",                Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("AS",      "as",      &["asm"],         "Assamese",              FormerlyBeta, NONE),
    row("AY",      "ay",      &["aym"],         "Aymara",                FormerlyBeta, NONE),
    row("AZ",      "az",      &["aze", "azj"],  "Azerbaijani",           FormerlyBeta, NONE),
    row("BA",      "ba",      &["bak"],         "Bashkir",               FormerlyBeta, NONE),
    row("BE",      "be",      &["bel"],         "Belarusian",            FormerlyBeta, NONE),
    row("BG",      "bg",      &["bul"],         "Bulgarian",             Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("BHO",     "bho",     &["bho"],         "Bhojpuri",              FormerlyBeta, NOT_IN_V2),
    row("BN",      "bn",      &["ben"],         "Bengali",               FormerlyBeta, VOICE),
    row("BR",      "br",      &["bre"],         "Breton",                FormerlyBeta, NONE),
    row("BS",      "bs",      &["bos"],         "Bosnian",               FormerlyBeta, NONE),
    row("CA",      "ca",      &["cat"],         "Catalan",               FormerlyBeta, NONE),
    row("CEB",     "ceb",     &["ceb"],         "Cebuano",               FormerlyBeta, NOT_IN_V2),
    row("CKB",     "ckb",     &["ckb"],         "Kurdish (Sorani)",      FormerlyBeta, NOT_IN_V2),
    row("CS",      "cs",      &["ces"],         "Czech",                 Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("CY",      "cy",      &["cym"],         "Welsh",                 FormerlyBeta, NONE),
    row("DA",      "da",      &["dan"],         "Danish",                Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("DE",      "de",      &["deu"],         "German",                Stable,       FORMALITY | GLOSSARY | TAGS | AUTO_DETECT |
                                                                                       STYLE_RULES | MEMORY | WRITE | WRITE_STYLE |
                                                                                       VOICE),
    row("DE-CH",   "de-CH",   &[],              "German (Swiss)",        Beta,         STYLE_RULES),
    row("EL",      "el",      &["ell"],         "Greek",                 Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("EN",      "en",      &["eng"],         "English",               Stable,       TARGET_BY_VARIANT | GLOSSARY | TAGS |
                                                                                       AUTO_DETECT | STYLE_RULES | MEMORY | WRITE |
                                                                                       WRITE_STYLE | VOICE),
    row("EN-GB",   "en-GB",   &[],              "English (British)",     Stable,       GLOSSARY | TAGS | STYLE_RULES | MEMORY | WRITE |
                                                                                       WRITE_STYLE | VOICE),
    row("EN-US",   "en-US",   &[],              "English (American)",    Stable,       GLOSSARY | TAGS | STYLE_RULES | MEMORY | WRITE |
                                                                                       WRITE_STYLE | VOICE),
    row("EO",      "eo",      &["epo"],         "Esperanto",             FormerlyBeta, NONE),
    row("ES",      "es",      &["spa"],         "Spanish",               Stable,       FORMALITY | GLOSSARY | TAGS | AUTO_DETECT |
                                                                                       STYLE_RULES | MEMORY | WRITE | VOICE),
    row("ES-419",  "es-419",  &[],              "Spanish (Latin American)",Stable,       FORMALITY | GLOSSARY | TAGS | STYLE_RULES |
                                                                                         MEMORY),
    row("ET",      "et",      &["est", "ekk"],  "Estonian",              Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("EU",      "eu",      &["eus"],         "Basque",                FormerlyBeta, NONE),
    row("FA",      "fa",      &["fas", "pes"],  "Persian",               FormerlyBeta, NONE),
    row("FI",      "fi",      &["fin"],         "Finnish",               Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("FR",      "fr",      &["fra"],         "French",                Stable,       FORMALITY | GLOSSARY | TAGS | AUTO_DETECT |
                                                                                       STYLE_RULES | MEMORY | WRITE | VOICE),
    row("FR-CA",   "fr-CA",   &[],              "French (Canadian)",     Beta,         STYLE_RULES),
    row("GA",      "ga",      &["gle"],         "Irish",                 FormerlyBeta, VOICE),
    row("GL",      "gl",      &["glg"],         "Galician",              FormerlyBeta, NONE),
    row("GN",      "gn",      &["grn", "gug"],  "Guarani",               FormerlyBeta, NONE),
    row("GOM",     "gom",     &["gom"],         "Konkani",               FormerlyBeta, NOT_IN_V2),
    row("GU",      "gu",      &["guj"],         "Gujarati",              FormerlyBeta, NONE),
    row("HA",      "ha",      &["hau"],         "Hausa",                 FormerlyBeta, NONE),
    row("HE",      "he",      &["heb"],         "Hebrew",                Stable,       GLOSSARY | AUTO_DETECT | VOICE),
    row("HI",      "hi",      &["hin"],         "Hindi",                 FormerlyBeta, NONE),
    row("HR",      "hr",      &["hrv"],         "Croatian",              FormerlyBeta, VOICE),
    row("HT",      "ht",      &["hat"],         "Haitian Creole",        FormerlyBeta, NONE),
    row("HU",      "hu",      &["hun"],         "Hungarian",             Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("HY",      "hy",      &["hye"],         "Armenian",              FormerlyBeta, NONE),
    row("ID",      "id",      &["ind"],         "Indonesian",            Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("IG",      "ig",      &["ibo"],         "Igbo",                  FormerlyBeta, NONE),
    row("IS",      "is",      &["isl"],         "Icelandic",             FormerlyBeta, NONE),
    row("IT",      "it",      &["ita"],         "Italian",               Stable,       FORMALITY | GLOSSARY | TAGS | AUTO_DETECT |
                                                                                       STYLE_RULES | MEMORY | WRITE | VOICE),
    row("JA",      "ja",      &["jpn"],         "Japanese",              Stable,       FORMALITY | GLOSSARY | TAGS | AUTO_DETECT |
                                                                                       STYLE_RULES | MEMORY | WRITE | VOICE),
    row("JV",      "jv",      &["jav"],         "Javanese",              FormerlyBeta, NONE),
    row("KA",      "ka",      &["kat"],         "Georgian",              FormerlyBeta, NONE),
    row("KK",      "kk",      &["kaz"],         "Kazakh",                FormerlyBeta, NONE),
    row("KMR",     "kmr",     &["kmr"],         "Kurdish (Kurmanji)",    FormerlyBeta, NOT_IN_V2),
    row("KO",      "ko",      &["kor"],         "Korean",                Stable,       GLOSSARY | TAGS | AUTO_DETECT | STYLE_RULES |
                                                                                       MEMORY | WRITE | VOICE),
    row("KY",      "ky",      &["kir"],         "Kyrgyz",                FormerlyBeta, NONE),
    row("LA",      "la",      &["lat"],         "Latin",                 FormerlyBeta, NONE),
    row("LB",      "lb",      &["ltz"],         "Luxembourgish",         FormerlyBeta, NONE),
    row("LMO",     "lmo",     &["lmo"],         "Lombard",               FormerlyBeta, NOT_IN_V2),
    row("LN",      "ln",      &["lin"],         "Lingala",               FormerlyBeta, NONE),
    row("LT",      "lt",      &["lit"],         "Lithuanian",            Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("LV",      "lv",      &["lav", "lvs"],  "Latvian",               Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("MAI",     "mai",     &["mai"],         "Maithili",              FormerlyBeta, NOT_IN_V2),
    row("MG",      "mg",      &["mlg", "plt"],  "Malagasy",              FormerlyBeta, NONE),
    row("MI",      "mi",      &["mri"],         "Maori",                 FormerlyBeta, NONE),
    row("MK",      "mk",      &["mkd"],         "Macedonian",            FormerlyBeta, NONE),
    row("ML",      "ml",      &["mal"],         "Malayalam",             FormerlyBeta, NONE),
    row("MN",      "mn",      &["mon", "khk"],  "Mongolian",             FormerlyBeta, NONE),
    row("MR",      "mr",      &["mar"],         "Marathi",               FormerlyBeta, NONE),
    row("MS",      "ms",      &["msa", "zsm"],  "Malay",                 FormerlyBeta, NONE),
    row("MT",      "mt",      &["mlt"],         "Maltese",               FormerlyBeta, VOICE),
    row("MY",      "my",      &["mya"],         "Burmese",               FormerlyBeta, NONE),
    row("NB",      "nb",      &["nob"],         "Norwegian (bokmål)",    Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("NE",      "ne",      &["nep", "npi"],  "Nepali",                FormerlyBeta, NONE),
    row("NL",      "nl",      &["nld"],         "Dutch",                 Stable,       FORMALITY | GLOSSARY | TAGS | AUTO_DETECT |
                                                                                       VOICE),
    row("OC",      "oc",      &["oci"],         "Occitan",               FormerlyBeta, NONE),
    row("OM",      "om",      &["orm", "gaz"],  "Oromo",                 FormerlyBeta, NONE),
    row("PA",      "pa",      &["pan"],         "Punjabi",               FormerlyBeta, NONE),
    row("PAG",     "pag",     &["pag"],         "Pangasinan",            FormerlyBeta, NOT_IN_V2),
    row("PAM",     "pam",     &["pam"],         "Kapampangan",           FormerlyBeta, NOT_IN_V2),
    row("PL",      "pl",      &["pol"],         "Polish",                Stable,       FORMALITY | GLOSSARY | TAGS | AUTO_DETECT |
                                                                                       VOICE),
    row("PRS",     "prs",     &["prs"],         "Dari",                  FormerlyBeta, NOT_IN_V2),
    row("PS",      "ps",      &["pus", "pbt"],  "Pashto",                FormerlyBeta, NONE),
    row("PT",      "pt",      &["por"],         "Portuguese",            Stable,       TARGET_BY_VARIANT | FORMALITY | GLOSSARY | TAGS |
                                                                                       AUTO_DETECT | WRITE | VOICE),
    row("PT-BR",   "pt-BR",   &[],              "Portuguese (Brazilian)",Stable,       FORMALITY | GLOSSARY | TAGS | WRITE | VOICE),
    row("PT-PT",   "pt-PT",   &[],              "Portuguese (European)", Stable,       FORMALITY | GLOSSARY | TAGS | WRITE | VOICE),
    row("QU",      "qu",      &["que"],         "Quechua",               FormerlyBeta, NONE),
    row("RO",      "ro",      &["ron"],         "Romanian",              Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("RU",      "ru",      &["rus"],         "Russian",               Stable,       FORMALITY | GLOSSARY | TAGS | AUTO_DETECT |
                                                                                       VOICE),
    row("SA",      "sa",      &["san"],         "Sanskrit",              FormerlyBeta, NONE),
    row("SCN",     "scn",     &["scn"],         "Sicilian",              FormerlyBeta, NOT_IN_V2),
    row("SK",      "sk",      &["slk"],         "Slovak",                Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("SL",      "sl",      &["slv"],         "Slovenian",             Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("SQ",      "sq",      &["sqi", "als"],  "Albanian",              FormerlyBeta, NONE),
    row("SR",      "sr",      &["srp"],         "Serbian",               FormerlyBeta, NONE),
    row("ST",      "st",      &["sot"],         "Sesotho",               FormerlyBeta, NONE),
    row("SU",      "su",      &["sun"],         "Sundanese",             FormerlyBeta, NONE),
    row("SV",      "sv",      &["swe"],         "Swedish",               Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("SW",      "sw",      &["swa", "swh"],  "Swahili",               FormerlyBeta, NONE),
    row("TA",      "ta",      &["tam"],         "Tamil",                 FormerlyBeta, NONE),
    row("TE",      "te",      &["tel"],         "Telugu",                FormerlyBeta, NONE),
    row("TG",      "tg",      &["tgk"],         "Tajik",                 FormerlyBeta, NONE),
    row("TH",      "th",      &["tha"],         "Thai",                  Stable,       VOICE),
    row("TK",      "tk",      &["tuk"],         "Turkmen",               FormerlyBeta, NONE),
    row("TL",      "tl",      &["tgl"],         "Tagalog",               FormerlyBeta, VOICE),
    row("TN",      "tn",      &["tsn"],         "Tswana",                FormerlyBeta, NONE),
    row("TR",      "tr",      &["tur"],         "Turkish",               Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("TS",      "ts",      &["tso"],         "Tsonga",                FormerlyBeta, NONE),
    row("TT",      "tt",      &["tat"],         "Tatar",                 FormerlyBeta, NONE),
    row("UK",      "uk",      &["ukr"],         "Ukrainian",             Stable,       GLOSSARY | TAGS | AUTO_DETECT | VOICE),
    row("UR",      "ur",      &["urd"],         "Urdu",                  FormerlyBeta, NONE),
    row("UZ",      "uz",      &["uzb", "uzn"],  "Uzbek",                 FormerlyBeta, NONE),
    row("VI",      "vi",      &["vie"],         "Vietnamese",            Stable,       GLOSSARY | AUTO_DETECT | VOICE),
    row("WO",      "wo",      &["wol"],         "Wolof",                 FormerlyBeta, NONE),
    row("XH",      "xh",      &["xho"],         "Xhosa",                 FormerlyBeta, NONE),
    row("YI",      "yi",      &["yid", "ydd"],  "Yiddish",               FormerlyBeta, NONE),
    row("YUE",     "yue",     &["yue"],         "Cantonese",             FormerlyBeta, NOT_IN_V2),
    row("ZH",      "zh",      &["zho", "cmn"],  "Chinese",               Stable,       GLOSSARY | TAGS | AUTO_DETECT | STYLE_RULES |
                                                                                       MEMORY | WRITE | VOICE)
        .named_in_v2_targets("Chinese (simplified)"),
    row("ZH-HANS", "zh-Hans", &[],              "Chinese (simplified)",  Stable,       GLOSSARY | TAGS | STYLE_RULES | MEMORY | WRITE |
                                                                                       VOICE),
    row("ZH-HANT", "zh-Hant", &[],              "Chinese (traditional)", Stable,       GLOSSARY | TAGS | STYLE_RULES | VOICE),
    row("ZU",      "zu",      &["zul"],         "Zulu",                  FormerlyBeta, NONE),
];

#[cfg(test)]
mod tests {
    use super::LANGUAGES;
    use crate::language::flag;
    use crate::{Maturity, find};

    fn codes(filter: impl Fn(&crate::Language) -> bool) -> Vec<&'static str> {
        LANGUAGES.iter().filter(|language| filter(language)).map(|language| language.code()).collect()
    }

    #[test]
    fn rows_are_sorted_by_code_without_duplicates() {
        for pair in LANGUAGES.windows(2) {
            assert!(pair[0].code() < pair[1].code(), "{} before {}", pair[0].code(), pair[1].code());
        }
    }

    #[test]
    fn the_table_holds_114_base_languages_and_9_variants() {
        assert_eq!(LANGUAGES.len(), 123);
        assert_eq!(codes(|language| !language.is_variant()).len(), 114);
        assert_eq!(
            codes(|language| language.is_variant()),
            ["DE-CH", "EN-GB", "EN-US", "ES-419", "FR-CA", "PT-BR", "PT-PT", "ZH-HANS", "ZH-HANT"]
        );
    }

    #[test]
    fn every_variant_has_its_base_in_the_table() {
        for language in LANGUAGES.iter().filter(|language| language.is_variant()) {
            let base_code = language.code().split('-').next().unwrap();
            assert!(find(base_code).is_some(), "{}", language.code());
        }
    }

    #[test]
    fn codes_are_upper_case_and_v3_codes_use_bcp_47_casing() {
        for language in &LANGUAGES {
            assert_eq!(language.code(), language.code().to_ascii_uppercase());
            assert!(language.code().eq_ignore_ascii_case(language.lang()), "{}", language.code());
            let mut subtags = language.lang().split('-');
            let primary = subtags.next().unwrap();
            assert_eq!(primary, primary.to_ascii_lowercase(), "{}", language.lang());
            for subtag in subtags {
                let expected = match subtag.len() {
                    // A script subtag is title case.
                    4 => subtag[..1].to_ascii_uppercase() + &subtag[1..].to_ascii_lowercase(),
                    // A region subtag is upper case (or digits).
                    _ => subtag.to_ascii_uppercase(),
                };
                assert_eq!(subtag, expected, "{}", language.lang());
            }
        }
    }

    #[test]
    fn the_formerly_beta_languages_are_the_81_base_languages_outside_the_core() {
        let glossary_bases = codes(|language| !language.is_variant() && language.has(flag::GLOSSARY));
        assert_eq!(glossary_bases.len(), 32);
        let is_core = |code: &str| glossary_bases.contains(&code) || ["HE", "TH", "VI"].contains(&code);
        for language in &LANGUAGES {
            let expected = if language.is_beta() {
                Maturity::Beta
            } else if is_core(language.base().code()) {
                Maturity::Stable
            } else {
                Maturity::FormerlyBeta
            };
            assert_eq!(language.maturity(), expected, "{}", language.code());
        }
        assert_eq!(codes(|language| language.is_formerly_beta()).len(), 81);
    }

    #[test]
    fn only_the_swiss_german_and_canadian_french_targets_are_beta() {
        assert_eq!(codes(|language| language.is_beta()), ["DE-CH", "FR-CA"]);
    }

    #[test]
    fn no_beta_row_claims_glossaries_or_formality() {
        for language in LANGUAGES.iter().filter(|language| language.is_beta()) {
            assert!(!language.has(flag::GLOSSARY) && !language.has(flag::FORMALITY), "{}", language.code());
        }
    }

    #[test]
    fn thirteen_three_letter_codes_are_hidden_from_v2() {
        assert_eq!(
            codes(|language| language.has(flag::NOT_IN_V2)),
            ["ACE", "BHO", "CEB", "CKB", "GOM", "KMR", "LMO", "MAI", "PAG", "PAM", "PRS", "SCN", "YUE"]
        );
    }

    #[test]
    fn auto_detection_covers_the_reference_list() {
        let detectable: Vec<String> =
            codes(|language| language.auto_detectable()).iter().map(|code| code.to_ascii_lowercase()).collect();
        let reference =
            "ar bg cs da de el en es et fi fr he hu id it ja ko lt lv nb nl pl pt ro ru sk sl sv tr uk vi zh";
        assert_eq!(detectable.join(" "), reference);
    }

    #[test]
    fn glossary_languages_are_the_reference_list_without_thai() {
        let bases: Vec<&str> = LANGUAGES
            .iter()
            .filter(|language| !language.is_variant() && language.supports_glossary())
            .map(|language| language.lang())
            .collect();
        let reference =
            "ar bg cs da de el en es et fi fr he hu id it ja ko lt lv nb nl pl pt ro ru sk sl sv tr uk vi zh";
        assert_eq!(bases.join(" "), reference);
    }

    #[test]
    fn style_rules_cover_eight_languages_and_their_variants() {
        assert_eq!(
            codes(|language| language.supports_style_rules()),
            [
                "DE", "DE-CH", "EN", "EN-GB", "EN-US", "ES", "ES-419", "FR", "FR-CA", "IT", "JA", "KO", "ZH",
                "ZH-HANS", "ZH-HANT"
            ]
        );
    }

    #[test]
    fn translation_memories_take_the_languages_of_the_reference() {
        assert_eq!(
            codes(|language| language.supports_translation_memory()),
            ["DE", "EN", "EN-GB", "EN-US", "ES", "ES-419", "FR", "IT", "JA", "KO", "ZH", "ZH-HANS"]
        );
    }

    #[test]
    fn write_takes_the_languages_of_the_reference() {
        let write: Vec<&str> =
            LANGUAGES.iter().filter(|language| language.supports_write()).map(|language| language.lang()).collect();
        assert_eq!(write.join(" "), "de en en-GB en-US es fr it ja ko pt pt-BR pt-PT zh zh-Hans");
    }

    #[test]
    fn voice_takes_the_languages_of_the_reference() {
        let sources: Vec<&str> = LANGUAGES
            .iter()
            .filter(|language| language.supports_voice() && !language.is_variant())
            .map(|language| language.lang())
            .collect();
        assert_eq!(
            sources.join(" "),
            "ar bg bn cs da de el en es et fi fr ga he hr hu id it ja ko lt lv mt nb nl pl pt ro ru sk sl sv th tl tr \
             uk vi zh"
        );
        assert_eq!(
            codes(|language| language.supports_voice() && language.is_variant()),
            ["EN-GB", "EN-US", "PT-BR", "PT-PT", "ZH-HANS", "ZH-HANT"]
        );
    }
}
