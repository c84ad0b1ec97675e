//! What the engines need to know about language codes: English names (for prompts), the
//! ISO 639-3 codes Apertium uses, and which targets distinguish formality.
//!
//! The API's codes are lower-case here: base codes (`en`, `pt`, `yue`) and target variants
//! (`en-gb`, `pt-br`, `zh-hans`, `es-419`). The rows follow the language table of the API
//! reference (§16); the catalogue crate owns what the API advertises, this table only what the
//! engines need to talk to their back ends.

/// One base language of the catalogue.
struct Language {
    /// The API's base code, lower-case.
    code: &'static str,
    /// The English name, as a prompt names it.
    name: &'static str,
    /// The ISO 639-3 codes a back end may use for it, the usual one first (Apertium uses `spa`,
    /// `eng`, but also individual-language codes such as `pes` for Persian).
    iso639_3: &'static [&'static str],
}

const fn lang(code: &'static str, name: &'static str, iso639_3: &'static [&'static str]) -> Language {
    Language { code, name, iso639_3 }
}

/// Every base language of the catalogue (§16).
const LANGUAGES: &[Language] = &[
    lang("ace", "Acehnese", &["ace"]),
    lang("af", "Afrikaans", &["afr"]),
    lang("an", "Aragonese", &["arg"]),
    lang("ar", "Arabic", &["ara", "arb"]),
    lang("as", "Assamese", &["asm"]),
    lang("ay", "Aymara", &["aym"]),
    lang("az", "Azerbaijani", &["aze", "azj"]),
    lang("ba", "Bashkir", &["bak"]),
    lang("be", "Belarusian", &["bel"]),
    lang("bg", "Bulgarian", &["bul"]),
    lang("bho", "Bhojpuri", &["bho"]),
    lang("bn", "Bengali", &["ben"]),
    lang("br", "Breton", &["bre"]),
    lang("bs", "Bosnian", &["bos"]),
    lang("ca", "Catalan", &["cat"]),
    lang("ceb", "Cebuano", &["ceb"]),
    lang("ckb", "Kurdish (Sorani)", &["ckb"]),
    lang("cs", "Czech", &["ces"]),
    lang("cy", "Welsh", &["cym"]),
    lang("da", "Danish", &["dan"]),
    lang("de", "German", &["deu"]),
    lang("el", "Greek", &["ell"]),
    lang("en", "English", &["eng"]),
    lang("eo", "Esperanto", &["epo"]),
    lang("es", "Spanish", &["spa"]),
    lang("et", "Estonian", &["est", "ekk"]),
    lang("eu", "Basque", &["eus"]),
    lang("fa", "Persian", &["fas", "pes"]),
    lang("fi", "Finnish", &["fin"]),
    lang("fr", "French", &["fra"]),
    lang("ga", "Irish", &["gle"]),
    lang("gl", "Galician", &["glg"]),
    lang("gn", "Guarani", &["grn", "gug"]),
    lang("gom", "Konkani", &["gom"]),
    lang("gu", "Gujarati", &["guj"]),
    lang("ha", "Hausa", &["hau"]),
    lang("he", "Hebrew", &["heb"]),
    lang("hi", "Hindi", &["hin"]),
    lang("hr", "Croatian", &["hrv"]),
    lang("ht", "Haitian Creole", &["hat"]),
    lang("hu", "Hungarian", &["hun"]),
    lang("hy", "Armenian", &["hye"]),
    lang("id", "Indonesian", &["ind"]),
    lang("ig", "Igbo", &["ibo"]),
    lang("is", "Icelandic", &["isl"]),
    lang("it", "Italian", &["ita"]),
    lang("ja", "Japanese", &["jpn"]),
    lang("jv", "Javanese", &["jav"]),
    lang("ka", "Georgian", &["kat"]),
    lang("kk", "Kazakh", &["kaz"]),
    lang("kmr", "Kurdish (Kurmanji)", &["kmr"]),
    lang("ko", "Korean", &["kor"]),
    lang("ky", "Kyrgyz", &["kir"]),
    lang("la", "Latin", &["lat"]),
    lang("lb", "Luxembourgish", &["ltz"]),
    lang("lmo", "Lombard", &["lmo"]),
    lang("ln", "Lingala", &["lin"]),
    lang("lt", "Lithuanian", &["lit"]),
    lang("lv", "Latvian", &["lav", "lvs"]),
    lang("mai", "Maithili", &["mai"]),
    lang("mg", "Malagasy", &["mlg", "plt"]),
    lang("mi", "Maori", &["mri"]),
    lang("mk", "Macedonian", &["mkd"]),
    lang("ml", "Malayalam", &["mal"]),
    lang("mn", "Mongolian", &["mon", "khk"]),
    lang("mr", "Marathi", &["mar"]),
    lang("ms", "Malay", &["msa", "zsm"]),
    lang("mt", "Maltese", &["mlt"]),
    lang("my", "Burmese", &["mya"]),
    lang("nb", "Norwegian (Bokmål)", &["nob"]),
    lang("ne", "Nepali", &["nep", "npi"]),
    lang("nl", "Dutch", &["nld"]),
    lang("oc", "Occitan", &["oci"]),
    lang("om", "Oromo", &["orm", "gaz"]),
    lang("pa", "Punjabi", &["pan"]),
    lang("pag", "Pangasinan", &["pag"]),
    lang("pam", "Kapampangan", &["pam"]),
    lang("pl", "Polish", &["pol"]),
    lang("prs", "Dari", &["prs"]),
    lang("ps", "Pashto", &["pus", "pbt"]),
    lang("pt", "Portuguese", &["por"]),
    lang("qu", "Quechua", &["que"]),
    lang("ro", "Romanian", &["ron"]),
    lang("ru", "Russian", &["rus"]),
    lang("sa", "Sanskrit", &["san"]),
    lang("scn", "Sicilian", &["scn"]),
    lang("sk", "Slovak", &["slk"]),
    lang("sl", "Slovenian", &["slv"]),
    lang("sq", "Albanian", &["sqi", "als"]),
    lang("sr", "Serbian", &["srp"]),
    lang("st", "Sesotho", &["sot"]),
    lang("su", "Sundanese", &["sun"]),
    lang("sv", "Swedish", &["swe"]),
    lang("sw", "Swahili", &["swa", "swh"]),
    lang("ta", "Tamil", &["tam"]),
    lang("te", "Telugu", &["tel"]),
    lang("tg", "Tajik", &["tgk"]),
    lang("th", "Thai", &["tha"]),
    lang("tk", "Turkmen", &["tuk"]),
    lang("tl", "Tagalog", &["tgl"]),
    lang("tn", "Tswana", &["tsn"]),
    lang("tr", "Turkish", &["tur"]),
    lang("ts", "Tsonga", &["tso"]),
    lang("tt", "Tatar", &["tat"]),
    lang("uk", "Ukrainian", &["ukr"]),
    lang("ur", "Urdu", &["urd"]),
    lang("uz", "Uzbek", &["uzb", "uzn"]),
    lang("vi", "Vietnamese", &["vie"]),
    lang("wo", "Wolof", &["wol"]),
    lang("xh", "Xhosa", &["xho"]),
    lang("yi", "Yiddish", &["yid", "ydd"]),
    lang("yue", "Cantonese", &["yue"]),
    lang("zh", "Chinese", &["zho", "cmn"]),
    lang("zu", "Zulu", &["zul"]),
];

/// English names of the target variants (§16).
const VARIANT_NAMES: &[(&str, &str)] = &[
    ("de-ch", "German (Swiss)"),
    ("en-gb", "English (British)"),
    ("en-us", "English (American)"),
    ("es-419", "Spanish (Latin American)"),
    ("fr-ca", "French (Canadian)"),
    ("pt-br", "Portuguese (Brazilian)"),
    ("pt-pt", "Portuguese (European)"),
    ("zh-hans", "Chinese (simplified)"),
    ("zh-hant", "Chinese (traditional)"),
];

/// Targets whose language distinguishes formal and informal address (§16, "Formality").
const FORMALITY_TARGETS: &[&str] = &["de", "es", "es-419", "fr", "it", "ja", "nl", "pl", "pt", "pt-br", "pt-pt", "ru"];

/// The base code of a code: `pt` for `pt-br`, `zh` for `zh-hans`, the code itself otherwise.
pub fn base_code(code: &str) -> &str {
    code.split_once('-').map_or(code, |(base, _)| base)
}

/// The part after the base code, if any: `br` for `pt-br`, `419` for `es-419`.
pub fn variant_of(code: &str) -> Option<&str> {
    code.split_once('-').map(|(_, variant)| variant)
}

/// The English name of a (lower-case) code, variant names included; `None` for unknown codes.
pub fn english_name(code: &str) -> Option<&'static str> {
    let variant = VARIANT_NAMES.iter().find(|(variant, _)| *variant == code).map(|(_, name)| *name);
    variant.or_else(|| find(base_code(code)).map(|language| language.name))
}

/// Whether formality applies to this target code.
pub fn supports_formality(target: &str) -> bool {
    FORMALITY_TARGETS.contains(&target) || FORMALITY_TARGETS.contains(&base_code(target))
}

/// Our base code for a language code as a back end writes it: ISO 639-3 (`spa`, `pes`) or the
/// ISO 639-1 code that is also ours (`es`). Case-insensitive; `None` for languages outside the
/// catalogue.
pub fn from_iso639(code: &str) -> Option<&'static str> {
    let code = code.to_ascii_lowercase();
    LANGUAGES
        .iter()
        .find(|language| language.code == code || language.iso639_3.contains(&code.as_str()))
        .map(|language| language.code)
}

fn find(code: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|language| language.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_codes_drop_the_variant() {
        assert_eq!(base_code("pt-br"), "pt");
        assert_eq!(base_code("es-419"), "es");
        assert_eq!(base_code("de"), "de");
        assert_eq!(variant_of("zh-hans"), Some("hans"));
        assert_eq!(variant_of("de"), None);
    }

    #[test]
    fn names_cover_variants_and_bases() {
        assert_eq!(english_name("pt-br"), Some("Portuguese (Brazilian)"));
        assert_eq!(english_name("de"), Some("German"));
        assert_eq!(english_name("nb"), Some("Norwegian (Bokmål)"));
        assert_eq!(english_name("xx"), None);
    }

    #[test]
    fn formality_follows_the_reference_table() {
        assert!(supports_formality("de"));
        assert!(supports_formality("pt-br"));
        assert!(supports_formality("es-419"));
        assert!(!supports_formality("en-gb"));
        assert!(!supports_formality("zh"));
    }

    #[test]
    fn both_iso_639_styles_map_to_our_codes() {
        assert_eq!(from_iso639("spa"), Some("es"));
        assert_eq!(from_iso639("es"), Some("es"));
        assert_eq!(from_iso639("GLG"), Some("gl"));
        assert_eq!(from_iso639("nob"), Some("nb"));
        assert_eq!(from_iso639("cmn"), Some("zh"));
        assert_eq!(from_iso639("ceb"), Some("ceb"));
        assert_eq!(from_iso639("nno"), None);
        assert_eq!(from_iso639("hbs"), None);
    }

    #[test]
    fn codes_in_the_table_are_unique_in_both_styles() {
        let mut seen = std::collections::HashSet::new();
        for language in LANGUAGES {
            assert!(seen.insert(language.code), "duplicate {}", language.code);
            for code in language.iso639_3 {
                assert!(code.len() == 3, "{code} is not ISO 639-3");
                if *code != language.code {
                    assert!(seen.insert(code), "duplicate {code}");
                }
            }
        }
    }
}
