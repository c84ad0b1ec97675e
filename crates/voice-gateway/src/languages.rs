//! Whisper's language names and their codes, for OpenAI-compatible servers that answer
//! `"language": "english"` where the gateway (and the broker's translation) needs `"en"`.
//!
//! The table is whisper's own (`LANGUAGES` and the aliases of `TO_LANGUAGE_CODE` in its tokenizer), as
//! data. Whisper's codes are ISO 639-1 except two languages that have none (`haw` Hawaiian, `yue`
//! Cantonese, kept as whisper writes them) and Javanese, which whisper calls `jw` and ISO 639-1 `jv`.

/// (name, code) for every language whisper knows, then its aliases.
const NAMES: &[(&str, &str)] = &[
    ("english", "en"),
    ("chinese", "zh"),
    ("german", "de"),
    ("spanish", "es"),
    ("russian", "ru"),
    ("korean", "ko"),
    ("french", "fr"),
    ("japanese", "ja"),
    ("portuguese", "pt"),
    ("turkish", "tr"),
    ("polish", "pl"),
    ("catalan", "ca"),
    ("dutch", "nl"),
    ("arabic", "ar"),
    ("swedish", "sv"),
    ("italian", "it"),
    ("indonesian", "id"),
    ("hindi", "hi"),
    ("finnish", "fi"),
    ("vietnamese", "vi"),
    ("hebrew", "he"),
    ("ukrainian", "uk"),
    ("greek", "el"),
    ("malay", "ms"),
    ("czech", "cs"),
    ("romanian", "ro"),
    ("danish", "da"),
    ("hungarian", "hu"),
    ("tamil", "ta"),
    ("norwegian", "no"),
    ("thai", "th"),
    ("urdu", "ur"),
    ("croatian", "hr"),
    ("bulgarian", "bg"),
    ("lithuanian", "lt"),
    ("latin", "la"),
    ("maori", "mi"),
    ("malayalam", "ml"),
    ("welsh", "cy"),
    ("slovak", "sk"),
    ("telugu", "te"),
    ("persian", "fa"),
    ("latvian", "lv"),
    ("bengali", "bn"),
    ("serbian", "sr"),
    ("azerbaijani", "az"),
    ("slovenian", "sl"),
    ("kannada", "kn"),
    ("estonian", "et"),
    ("macedonian", "mk"),
    ("breton", "br"),
    ("basque", "eu"),
    ("icelandic", "is"),
    ("armenian", "hy"),
    ("nepali", "ne"),
    ("mongolian", "mn"),
    ("bosnian", "bs"),
    ("kazakh", "kk"),
    ("albanian", "sq"),
    ("swahili", "sw"),
    ("galician", "gl"),
    ("marathi", "mr"),
    ("punjabi", "pa"),
    ("sinhala", "si"),
    ("khmer", "km"),
    ("shona", "sn"),
    ("yoruba", "yo"),
    ("somali", "so"),
    ("afrikaans", "af"),
    ("occitan", "oc"),
    ("georgian", "ka"),
    ("belarusian", "be"),
    ("tajik", "tg"),
    ("sindhi", "sd"),
    ("gujarati", "gu"),
    ("amharic", "am"),
    ("yiddish", "yi"),
    ("lao", "lo"),
    ("uzbek", "uz"),
    ("faroese", "fo"),
    ("haitian creole", "ht"),
    ("pashto", "ps"),
    ("turkmen", "tk"),
    ("nynorsk", "nn"),
    ("maltese", "mt"),
    ("sanskrit", "sa"),
    ("luxembourgish", "lb"),
    ("myanmar", "my"),
    ("tibetan", "bo"),
    ("tagalog", "tl"),
    ("malagasy", "mg"),
    ("assamese", "as"),
    ("tatar", "tt"),
    ("hawaiian", "haw"),
    ("lingala", "ln"),
    ("hausa", "ha"),
    ("bashkir", "ba"),
    ("javanese", "jv"),
    ("sundanese", "su"),
    ("cantonese", "yue"),
    // Whisper's aliases.
    ("burmese", "my"),
    ("valencian", "ca"),
    ("flemish", "nl"),
    ("haitian", "ht"),
    ("letzeburgesch", "lb"),
    ("pushto", "ps"),
    ("panjabi", "pa"),
    ("moldavian", "ro"),
    ("moldovan", "ro"),
    ("sinhalese", "si"),
    ("castilian", "es"),
    ("mandarin", "zh"),
];

/// Codes servers may send that ISO 639-1 writes otherwise.
const CODES: &[(&str, &str)] = &[("jw", "jv")];

/// The code of a language as a server reports it: a whisper name (`"english"`, any case) becomes its
/// code (`"en"`); a code stays (`"en"`, `"EN"` → `"en"`; a region is dropped: `"en-US"` → `"en"`).
/// Anything else is returned lowercased and trimmed, as the server wrote it.
pub fn code(language: &str) -> String {
    let language = language.trim().to_ascii_lowercase();
    if let Some((_, code)) = NAMES.iter().find(|(name, _)| *name == language) {
        return (*code).to_string();
    }
    let primary = language.split(['-', '_']).next().unwrap_or_default();
    if let Some((_, code)) = CODES.iter().find(|(written, _)| *written == primary) {
        return (*code).to_string();
    }
    if NAMES.iter().any(|(_, code)| *code == primary) {
        return primary.to_string();
    }
    language
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whisper_names_become_codes() {
        assert_eq!(code("english"), "en");
        assert_eq!(code("English"), "en");
        assert_eq!(code(" german "), "de");
        assert_eq!(code("haitian creole"), "ht");
        assert_eq!(code("chinese"), "zh");
        assert_eq!(code("greek"), "el");
        assert_eq!(code("norwegian"), "no");
    }

    #[test]
    fn whisper_aliases_are_known() {
        assert_eq!(code("castilian"), "es");
        assert_eq!(code("mandarin"), "zh");
        assert_eq!(code("flemish"), "nl");
        assert_eq!(code("moldovan"), "ro");
    }

    #[test]
    fn codes_stay_codes_and_lose_their_region() {
        assert_eq!(code("en"), "en");
        assert_eq!(code("DE"), "de");
        assert_eq!(code("pt-BR"), "pt");
        assert_eq!(code("zh_Hans"), "zh");
        assert_eq!(code("yue"), "yue");
    }

    #[test]
    fn javanese_is_written_the_iso_way() {
        assert_eq!(code("javanese"), "jv");
        assert_eq!(code("jw"), "jv");
    }

    #[test]
    fn the_unknown_passes_through_lowercased() {
        assert_eq!(code("Klingon"), "klingon");
        assert_eq!(code(""), "");
    }

    #[test]
    fn the_table_has_whisper_s_hundred_languages_once_each() {
        // 100 languages and 12 aliases; no name twice, and every code ISO 639-1's two letters except
        // the two languages without one.
        assert_eq!(NAMES.len(), 112);
        let mut names: Vec<&str> = NAMES.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), NAMES.len());
        let mut codes: Vec<&str> = NAMES[..100].iter().map(|(_, code)| *code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), 100);
        for (name, code) in NAMES {
            let iso = code.len() == 2 && code.bytes().all(|byte| byte.is_ascii_lowercase());
            assert!(iso || ["haw", "yue"].contains(code), "{name}: {code}");
        }
    }
}
