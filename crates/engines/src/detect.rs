//! Source-language detection for requests without `source_lang`, with `whatlang`.
//!
//! Detection is limited to the auto-detectable sources of the API reference (§16): whatlang
//! chooses only among those, so a low-confidence guess is still the most likely supported
//! language. A text in a script none of them uses (Thai, Devanagari, Georgian, …) is reported as
//! English, the catalogue's most common source; only a text without any letter has no language.
//!
//! Trigram statistics say little about a few words ("Hello, world!" came out as Dutch), so when
//! whatlang is not sure of a short text, its words are looked up in short lists of the most common words
//! of the most used languages, and a text with none of them is taken for English, the most
//! common source language.
//!
//! Detection reads text content only. Markup is the caller's to take apart: with tag handling,
//! `translation` passes the units `markup` cuts a text into, where inline tags are placeholders
//! and neither attributes, HTML `script` and `style` content nor ignored elements appear (code
//! and style sheets are full of English words, whatever the page's language). The placeholders
//! (`<g1>`, `<x2/>`) are removed here (their letters are not language), and only the first
//! [`SAMPLE_CHARS`] characters are looked at: that is plenty for a trigram model and keeps
//! detection cheap for the largest requests.

use catalogue::Language;
use terms::{Segment, split_placeholders};
use whatlang::{Detector, Lang};

/// How many characters of the request are looked at.
pub const SAMPLE_CHARS: usize = 4096;

/// The answer when the text has letters but no detectable supported language.
const FALLBACK: &str = "en";

/// whatlang's language → our base code, for every auto-detectable source of §16.
const DETECTABLE: &[(Lang, &str)] = &[
    (Lang::Ara, "ar"),
    (Lang::Bul, "bg"),
    (Lang::Ces, "cs"),
    (Lang::Dan, "da"),
    (Lang::Deu, "de"),
    (Lang::Ell, "el"),
    (Lang::Eng, "en"),
    (Lang::Spa, "es"),
    (Lang::Est, "et"),
    (Lang::Fin, "fi"),
    (Lang::Fra, "fr"),
    (Lang::Heb, "he"),
    (Lang::Hun, "hu"),
    (Lang::Ind, "id"),
    (Lang::Ita, "it"),
    (Lang::Jpn, "ja"),
    (Lang::Kor, "ko"),
    (Lang::Lit, "lt"),
    (Lang::Lav, "lv"),
    (Lang::Nob, "nb"),
    (Lang::Nld, "nl"),
    (Lang::Pol, "pl"),
    (Lang::Por, "pt"),
    (Lang::Ron, "ro"),
    (Lang::Rus, "ru"),
    (Lang::Slk, "sk"),
    (Lang::Slv, "sl"),
    (Lang::Swe, "sv"),
    (Lang::Tur, "tr"),
    (Lang::Ukr, "uk"),
    (Lang::Vie, "vi"),
    (Lang::Cmn, "zh"),
];

/// The most likely source language of `texts` (text content: plain text, or units of markup with
/// placeholders), a base language of the catalogue, or `None` when they contain no letter at all.
pub fn detect(texts: &[String]) -> Option<&'static Language> {
    detect_code(texts).map(|code| catalogue::find(code).expect("every detectable language is in the catalogue"))
}

/// [`detect`], as the lower-case base code.
fn detect_code(texts: &[String]) -> Option<&'static str> {
    let sample = sample(texts);
    if !sample.chars().any(char::is_alphabetic) {
        return None;
    }
    let detector = Detector::with_allowlist(DETECTABLE.iter().map(|(lang, _)| *lang).collect());
    let Some(info) = detector.detect(&sample) else { return Some(FALLBACK) };
    // whatlang decides a script with a single language (Hangul, Greek, Georgian, …) without
    // consulting the allowlist, hence the look-up.
    let detected = DETECTABLE.iter().find(|(known, _)| *known == info.lang()).map(|(_, code)| *code);
    let letters = sample.chars().filter(|c| c.is_alphabetic()).count();
    if info.is_reliable() || info.script() != whatlang::Script::Latin || letters >= SHORT_TEXT_LETTERS {
        return Some(detected.unwrap_or(FALLBACK));
    }
    Some(common_words_language(&sample, detected))
}

/// Below this many letters, an unsure guess is checked against common words.
const SHORT_TEXT_LETTERS: usize = 40;

/// Very common words of the most used source languages written in Latin script.
const COMMON_WORDS: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "the", "a", "an", "and", "is", "are", "of", "to", "in", "you", "i", "it", "this", "that", "hello", "hi",
            "world", "thanks", "thank", "please", "yes", "no", "good", "what", "how", "with", "for", "my", "we",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "das", "und", "ist", "ein", "eine", "nicht", "ich", "du", "hallo", "welt", "danke", "bitte",
            "ja", "nein", "gut", "mit", "für", "wie", "guten", "tag", "morgen", "wir",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "et", "est", "un", "une", "je", "tu", "bonjour", "monde", "merci", "oui", "non", "avec",
            "pour", "que", "des", "du", "nous", "vous", "salut",
        ],
    ),
    (
        "es",
        &[
            "el", "los", "las", "y", "es", "una", "yo", "hola", "mundo", "gracias", "sí", "con", "para", "que", "del",
            "por", "buenos", "días", "nosotros",
        ],
    ),
    (
        "it",
        &[
            "il",
            "lo",
            "gli",
            "e",
            "è",
            "una",
            "io",
            "ciao",
            "mondo",
            "grazie",
            "con",
            "per",
            "che",
            "di",
            "buongiorno",
            "noi",
        ],
    ),
    (
        "pt",
        &[
            "o", "os", "as", "e", "é", "um", "uma", "eu", "olá", "mundo", "obrigado", "obrigada", "com", "para", "que",
            "de", "bom", "dia", "nós", "não",
        ],
    ),
    (
        "nl",
        &[
            "de",
            "het",
            "een",
            "en",
            "is",
            "ik",
            "hallo",
            "wereld",
            "bedankt",
            "met",
            "voor",
            "niet",
            "goedemorgen",
            "wij",
            "jij",
        ],
    ),
];

/// The language whose common words the text uses most; on a tie whatlang's guess if it is one
/// of them, else English.
fn common_words_language(sample: &str, guess: Option<&'static str>) -> &'static str {
    let words: Vec<String> =
        sample.split(|c: char| !c.is_alphabetic()).filter(|word| !word.is_empty()).map(str::to_lowercase).collect();
    let scores: Vec<(&'static str, usize)> = COMMON_WORDS
        .iter()
        .map(|(code, common)| (*code, words.iter().filter(|word| common.contains(&word.as_str())).count()))
        .collect();
    let best = scores.iter().map(|(_, score)| *score).max().unwrap_or(0);
    if best == 0 {
        return FALLBACK;
    }
    let leaders: Vec<&'static str> = scores.iter().filter(|(_, score)| *score == best).map(|(code, _)| *code).collect();
    match guess {
        Some(guess) if leaders.contains(&guess) => guess,
        _ if leaders.contains(&FALLBACK) => FALLBACK,
        _ => leaders[0],
    }
}

/// The texts without placeholders, joined by newlines, at most [`SAMPLE_CHARS`] characters.
fn sample(texts: &[String]) -> String {
    let mut sample = String::new();
    let mut room = SAMPLE_CHARS;
    for text in texts {
        for segment in split_placeholders(text) {
            if let Segment::Plain(plain) = segment {
                let mut taken = 0;
                for character in plain.chars().take(room) {
                    sample.push(character);
                    taken += 1;
                }
                room -= taken;
            }
        }
        if room == 0 {
            break;
        }
        sample.push('\n');
        room -= 1;
    }
    sample
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect_one(text: &str) -> Option<&'static str> {
        detect(&[text.to_owned()]).map(Language::base_code)
    }

    #[test]
    fn every_detectable_language_is_a_base_language_of_the_catalogue() {
        let codes = DETECTABLE.iter().map(|(_, code)| *code).chain(COMMON_WORDS.iter().map(|(code, _)| *code));
        for code in codes.chain([FALLBACK]) {
            assert_eq!(catalogue::find(code).map(Language::base_code), Some(code));
        }
    }

    #[test]
    fn common_sentences_are_recognised() {
        let cases = [
            ("The weather is lovely today and we are going for a walk in the park.", "en"),
            ("Das Wetter ist heute schön und wir gehen im Park spazieren.", "de"),
            ("Hoy hace buen tiempo y vamos a dar un paseo por el parque.", "es"),
            ("Il fait beau aujourd'hui et nous allons nous promener dans le parc.", "fr"),
            ("Oggi il tempo è bello e andiamo a fare una passeggiata nel parco.", "it"),
            ("Hoje o tempo está bom e vamos passear no parque com os nossos amigos.", "pt"),
            ("Het weer is vandaag mooi en we gaan wandelen in het park.", "nl"),
            ("Dzisiaj jest piękna pogoda i idziemy na spacer do parku.", "pl"),
            ("Сегодня хорошая погода, и мы идём гулять в парк.", "ru"),
            ("Сьогодні гарна погода, і ми йдемо гуляти в парк.", "uk"),
            ("今日はいい天気なので、公園に散歩に行きます。", "ja"),
            ("今天天气很好，我们去公园散步。", "zh"),
            ("오늘은 날씨가 좋아서 공원에 산책하러 갑니다.", "ko"),
            ("Σήμερα ο καιρός είναι ωραίος και πάμε βόλτα στο πάρκο.", "el"),
            ("Bugün hava çok güzel ve parkta yürüyüşe çıkıyoruz.", "tr"),
            ("Idag är vädret fint och vi går en promenad i parken.", "sv"),
        ];
        for (text, expected) in cases {
            assert_eq!(detect_one(text), Some(expected), "{text}");
        }
    }

    #[test]
    fn all_texts_of_a_request_count_together() {
        let texts = ["Hallo".to_owned(), "wie geht es dir heute, mein Freund?".to_owned()];
        assert_eq!(detect_code(&texts), Some("de"));
    }

    #[test]
    fn placeholders_do_not_count_as_words() {
        let texts = ["<g1>Guten Morgen</g1>, wie geht es <x2/>dir <g3>heute</g3>?".to_owned()];
        assert_eq!(detect_code(&texts), Some("de"));
    }

    #[test]
    fn the_units_of_a_page_are_detected_without_its_code() {
        // What `markup` makes of an HTML page: its text units, script and style content left out.
        let units = ["Das Wetter ist heute <g1>schön</g1>.".to_owned(), "Wir gehen im Park spazieren.".to_owned()];
        assert_eq!(detect_code(&units), Some("de"));
        assert!(!sample(&units).contains("g1"), "{}", sample(&units));
    }

    #[test]
    fn unsupported_languages_fall_back_to_a_supported_one() {
        // Catalan and Galician are not auto-detectable: the nearest supported language wins.
        let catalan = detect_one("Avui fa bon temps i anem a passejar pel parc amb els amics.");
        assert!(matches!(catalan, Some("es" | "fr" | "it" | "pt")), "{catalan:?}");
        // Georgian and Hindi scripts have no supported language at all.
        assert_eq!(detect_one("დღეს კარგი ამინდია"), Some("en"));
        assert_eq!(detect_one("आज मौसम अच्छा है"), Some("en"));
    }

    #[test]
    fn short_or_ambiguous_text_still_gets_a_supported_language() {
        assert!(detect_one("ok").is_some());
        assert!(detect_one("a").is_some());
    }

    #[test]
    fn short_greetings_are_recognised_by_their_words() {
        assert_eq!(detect_one("Hello, world!"), Some("en"));
        assert_eq!(detect_one("Hello"), Some("en"));
        assert_eq!(detect_one("Hallo Welt"), Some("de"));
        assert_eq!(detect_one("Bonjour le monde"), Some("fr"));
        assert_eq!(detect_one("Hola mundo"), Some("es"));
        assert_eq!(detect_one("Xyzzy"), Some("en"), "a word nobody knows is taken for English");
    }

    #[test]
    fn text_without_letters_has_no_language() {
        assert_eq!(detect_one("12345 !?"), None);
        assert_eq!(detect_one("<g1></g1> <x2/>"), None);
        assert_eq!(detect(&[]), None);
        assert_eq!(detect_code(&["".to_owned(), "  ".to_owned()]), None);
    }

    #[test]
    fn only_the_start_of_a_long_request_is_sampled() {
        let long = "Guten Morgen, wie geht es dir? ".repeat(1000);
        assert_eq!(sample(std::slice::from_ref(&long)).chars().count(), SAMPLE_CHARS);
        assert_eq!(detect_code(&[long]), Some("de"));
    }
}
