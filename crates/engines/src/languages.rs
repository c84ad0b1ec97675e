//! What the engines need to know about language codes beyond the catalogue: the ISO 639-3 codes
//! back ends such as Apertium use. Names and features come from the `catalogue` crate.
//!
//! The API's codes are lower-case here: base codes (`en`, `pt`, `yue`) and target variants
//! (`en-gb`, `pt-br`, `zh-hans`, `es-419`).

/// One base language of the catalogue and its ISO 639-3 codes, the usual one first (Apertium uses
/// `spa`, `eng`, but also individual-language codes such as `pes` for Persian).
struct Language {
    code: &'static str,
    iso639_3: &'static [&'static str],
}

const fn lang(code: &'static str, iso639_3: &'static [&'static str]) -> Language {
    Language { code, iso639_3 }
}

/// Every base language of the catalogue (§16).
const LANGUAGES: &[Language] = &[
    lang("ace", &["ace"]),
    lang("af", &["afr"]),
    lang("an", &["arg"]),
    lang("ar", &["ara", "arb"]),
    lang("as", &["asm"]),
    lang("ay", &["aym"]),
    lang("az", &["aze", "azj"]),
    lang("ba", &["bak"]),
    lang("be", &["bel"]),
    lang("bg", &["bul"]),
    lang("bho", &["bho"]),
    lang("bn", &["ben"]),
    lang("br", &["bre"]),
    lang("bs", &["bos"]),
    lang("ca", &["cat"]),
    lang("ceb", &["ceb"]),
    lang("ckb", &["ckb"]),
    lang("cs", &["ces"]),
    lang("cy", &["cym"]),
    lang("da", &["dan"]),
    lang("de", &["deu"]),
    lang("el", &["ell"]),
    lang("en", &["eng"]),
    lang("eo", &["epo"]),
    lang("es", &["spa"]),
    lang("et", &["est", "ekk"]),
    lang("eu", &["eus"]),
    lang("fa", &["fas", "pes"]),
    lang("fi", &["fin"]),
    lang("fr", &["fra"]),
    lang("ga", &["gle"]),
    lang("gl", &["glg"]),
    lang("gn", &["grn", "gug"]),
    lang("gom", &["gom"]),
    lang("gu", &["guj"]),
    lang("ha", &["hau"]),
    lang("he", &["heb"]),
    lang("hi", &["hin"]),
    lang("hr", &["hrv"]),
    lang("ht", &["hat"]),
    lang("hu", &["hun"]),
    lang("hy", &["hye"]),
    lang("id", &["ind"]),
    lang("ig", &["ibo"]),
    lang("is", &["isl"]),
    lang("it", &["ita"]),
    lang("ja", &["jpn"]),
    lang("jv", &["jav"]),
    lang("ka", &["kat"]),
    lang("kk", &["kaz"]),
    lang("kmr", &["kmr"]),
    lang("ko", &["kor"]),
    lang("ky", &["kir"]),
    lang("la", &["lat"]),
    lang("lb", &["ltz"]),
    lang("lmo", &["lmo"]),
    lang("ln", &["lin"]),
    lang("lt", &["lit"]),
    lang("lv", &["lav", "lvs"]),
    lang("mai", &["mai"]),
    lang("mg", &["mlg", "plt"]),
    lang("mi", &["mri"]),
    lang("mk", &["mkd"]),
    lang("ml", &["mal"]),
    lang("mn", &["mon", "khk"]),
    lang("mr", &["mar"]),
    lang("ms", &["msa", "zsm"]),
    lang("mt", &["mlt"]),
    lang("my", &["mya"]),
    lang("nb", &["nob"]),
    lang("ne", &["nep", "npi"]),
    lang("nl", &["nld"]),
    lang("oc", &["oci"]),
    lang("om", &["orm", "gaz"]),
    lang("pa", &["pan"]),
    lang("pag", &["pag"]),
    lang("pam", &["pam"]),
    lang("pl", &["pol"]),
    lang("prs", &["prs"]),
    lang("ps", &["pus", "pbt"]),
    lang("pt", &["por"]),
    lang("qu", &["que"]),
    lang("ro", &["ron"]),
    lang("ru", &["rus"]),
    lang("sa", &["san"]),
    lang("scn", &["scn"]),
    lang("sk", &["slk"]),
    lang("sl", &["slv"]),
    lang("sq", &["sqi", "als"]),
    lang("sr", &["srp"]),
    lang("st", &["sot"]),
    lang("su", &["sun"]),
    lang("sv", &["swe"]),
    lang("sw", &["swa", "swh"]),
    lang("ta", &["tam"]),
    lang("te", &["tel"]),
    lang("tg", &["tgk"]),
    lang("th", &["tha"]),
    lang("tk", &["tuk"]),
    lang("tl", &["tgl"]),
    lang("tn", &["tsn"]),
    lang("tr", &["tur"]),
    lang("ts", &["tso"]),
    lang("tt", &["tat"]),
    lang("uk", &["ukr"]),
    lang("ur", &["urd"]),
    lang("uz", &["uzb", "uzn"]),
    lang("vi", &["vie"]),
    lang("wo", &["wol"]),
    lang("xh", &["xho"]),
    lang("yi", &["yid", "ydd"]),
    lang("yue", &["yue"]),
    lang("zh", &["zho", "cmn"]),
    lang("zu", &["zul"]),
];

/// The base code of a code: `pt` for `pt-br`, `zh` for `zh-hans`, the code itself otherwise.
pub fn base_code(code: &str) -> &str {
    code.split_once('-').map_or(code, |(base, _)| base)
}

/// The part after the base code, if any: `br` for `pt-br`, `419` for `es-419`.
pub fn variant_of(code: &str) -> Option<&str> {
    code.split_once('-').map(|(_, variant)| variant)
}

/// The English name of a code, variant names included; `None` for unknown codes.
pub fn english_name(code: &str) -> Option<&'static str> {
    catalogue::find(code).map(|language| language.name())
}

/// Whether formality applies to this target code.
pub fn supports_formality(target: &str) -> bool {
    catalogue::find(target).is_some_and(|language| language.supports_formality())
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
        assert_eq!(english_name("nb"), Some("Norwegian (bokmål)"));
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
    fn every_base_language_of_the_catalogue_has_its_codes() {
        for language in catalogue::all().iter().filter(|language| !language.is_variant()) {
            assert_eq!(from_iso639(language.base_code()), Some(language.base_code()));
        }
        assert_eq!(LANGUAGES.len(), catalogue::all().iter().filter(|language| !language.is_variant()).count());
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
