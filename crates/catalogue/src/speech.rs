//! Translated speech (a closed beta of real-time voice): which voice targets the speech synthesiser
//! speaks, and with which of its voices. This is the one place that knows it: the languages listing
//! offers `translated_speech` on exactly these targets, a session's `target_media_languages` are
//! checked against them (`voice-sessions`), and the voice gateway runs `espeak-ng -v <voice>`.
//!
//! The synthesiser is espeak-ng 1.51 (Debian's `espeak-ng` package, as `espeak-ng --voices` lists
//! its voices). Of the voice targets it speaks every one but two:
//!
//! * Tagalog (`tl`): espeak-ng has no voice for it.
//! * Japanese (`ja`): its voice reads kana only, and says "Chinese letter" in English for every
//!   kanji, which any translation into Japanese is full of.
//!
//! Chinese in either script is spoken by `cmn-latn-pinyin`: espeak-ng's plain `cmn` voice reads
//! the pinyin of most characters by English rules (`你好` becomes "nee three hay three").
//! Variants have their own voices where espeak-ng has one (`en-GB`, `en-US`, `pt-BR`); bare `EN`
//! is American English, `PT` and `PT-PT` European Portuguese.

use crate::language::Language;

/// Each language translated speech speaks, by its v3 code, and its espeak-ng voice.
const VOICES: [(&str, &str); 42] = [
    ("ar", "ar"),
    ("bg", "bg"),
    ("bn", "bn"),
    ("cs", "cs"),
    ("da", "da"),
    ("de", "de"),
    ("el", "el"),
    ("en", "en-us"),
    ("en-GB", "en-gb"),
    ("en-US", "en-us"),
    ("es", "es"),
    ("et", "et"),
    ("fi", "fi"),
    ("fr", "fr"),
    ("ga", "ga"),
    ("he", "he"),
    ("hr", "hr"),
    ("hu", "hu"),
    ("id", "id"),
    ("it", "it"),
    ("ko", "ko"),
    ("lt", "lt"),
    ("lv", "lv"),
    ("mt", "mt"),
    ("nb", "nb"),
    ("nl", "nl"),
    ("pl", "pl"),
    ("pt", "pt"),
    ("pt-BR", "pt-br"),
    ("pt-PT", "pt"),
    ("ro", "ro"),
    ("ru", "ru"),
    ("sk", "sk"),
    ("sl", "sl"),
    ("sv", "sv"),
    ("th", "th"),
    ("tr", "tr"),
    ("uk", "uk"),
    ("vi", "vi"),
    ("zh", "cmn-latn-pinyin"),
    ("zh-Hans", "cmn-latn-pinyin"),
    ("zh-Hant", "cmn-latn-pinyin"),
];

/// The espeak-ng voice translated speech into `language` is spoken with (`espeak-ng -v <voice>`;
/// `+m3` or `+f3` appended picks a male or female variant), or `None` when the synthesiser cannot
/// speak it and the language takes no translated speech.
pub fn speech_voice(language: &Language) -> Option<&'static str> {
    if !language.supports_voice() {
        return None;
    }
    VOICES.iter().find(|(lang, _)| *lang == language.lang()).map(|(_, voice)| *voice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lookup::{all, find};

    fn voice(code: &str) -> Option<&'static str> {
        speech_voice(find(code).unwrap())
    }

    #[test]
    fn every_voice_target_is_spoken_but_tagalog_and_japanese() {
        let unspoken: Vec<&str> = all()
            .iter()
            .filter(|language| language.supports_voice() && speech_voice(language).is_none())
            .map(|language| language.lang())
            .collect();
        assert_eq!(unspoken, ["ja", "tl"]);
        for (lang, _) in VOICES {
            assert!(find(lang).is_some_and(Language::supports_voice), "{lang} is a voice target");
        }
    }

    #[test]
    fn codes_map_to_espeak_voices_in_any_case() {
        assert_eq!(voice("DE"), Some("de"));
        assert_eq!(voice("en"), Some("en-us"));
        assert_eq!(voice("EN-GB"), Some("en-gb"));
        assert_eq!(voice("pt-PT"), Some("pt"));
        assert_eq!(voice("PT-BR"), Some("pt-br"));
        for chinese in ["zh", "ZH-HANS", "zh-hant"] {
            assert_eq!(voice(chinese), Some("cmn-latn-pinyin"), "{chinese}");
        }
        assert_eq!(voice("ja"), None);
        assert_eq!(voice("es-419"), None, "not a voice target");
        assert_eq!(voice("ca"), None, "not a voice target, though espeak-ng speaks it");
    }

    /// With espeak-ng installed (as on the gateway's hosts), every voice of the table is one it
    /// speaks with: asking for one it lacks fails ("The specified espeak-ng voice does not exist").
    #[test]
    fn every_voice_is_one_espeak_ng_speaks_with() {
        let speaks = |voice: &str| {
            let variant = format!("{voice}+f3");
            std::process::Command::new("espeak-ng").args(["-q", "-v", &variant, "--", "1"]).output()
        };
        let Ok(unknown) = speaks("xx-none") else {
            eprintln!("espeak-ng is not installed: its voices are not checked");
            return;
        };
        assert!(!unknown.status.success(), "a voice espeak-ng lacks fails");
        for (lang, voice) in VOICES {
            let spoken = speaks(voice).unwrap();
            assert!(spoken.status.success(), "{lang}: {voice}: {}", String::from_utf8_lossy(&spoken.stderr));
        }
    }
}
