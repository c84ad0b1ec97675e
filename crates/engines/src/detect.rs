//! Source-language detection for requests without `source_lang`: the language-tools service
//! when one is configured ([`Detector`]), else (and whenever the service fails) the built-in
//! detector below, [`Builtin`], with `whatlang`.
//!
//! The built-in detection is limited to the auto-detectable sources of the API reference (§16): whatlang
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
//! [`SAMPLE_CHARS`] characters are looked at: that is plenty for either detector and keeps
//! detection cheap for the largest requests.

use catalogue::Language;
use platform::Services;
use terms::{Segment, split_placeholders};
use whatlang::Lang;

use crate::language_tools::{Detection, LanguageTools, ToolsSettings};

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

/// Detects the language of whole texts.
pub trait DetectLanguage {
    /// The language of each text (plain text, or units of markup with placeholders, joined by
    /// newlines) among the catalogue's auto-detectable sources, in order: one detection per text.
    fn detect_each(&self, texts: &[String]) -> Vec<Detection>;
}

/// The base codes of the catalogue's auto-detectable sources: the only answers a detection gives.
fn detectable_codes() -> &'static [&'static str] {
    static CODES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    CODES.get_or_init(|| {
        catalogue::all()
            .iter()
            .filter(|language| !language.is_variant() && language.auto_detectable())
            .map(|language| language.base_code())
            .collect()
    })
}

/// The detector a request uses: the language-tools service when the variables name one, with
/// [`Builtin`] standing in for it whenever it fails (the failure is logged); else [`Builtin`].
pub struct Detector<'a> {
    tools: Option<LanguageTools<'a>>,
}

impl<'a> Detector<'a> {
    /// The detector the variables of `services` configure, calling out through its outbound HTTP.
    /// Settings of the service that cannot work are logged and leave the built-in detector: a
    /// translation never fails for them (`GET /health` names them).
    pub fn configured(services: &Services<'a>) -> Detector<'a> {
        let settings = ToolsSettings::from_variables(services.vars).unwrap_or_else(|error| {
            eprintln!("detection uses the built-in detector: {error}");
            None
        });
        Detector { tools: settings.map(|settings| LanguageTools::new(settings, services.http)) }
    }

    /// Whether the language-tools service is configured (it may still fail per request).
    pub fn uses_service(&self) -> bool {
        self.tools.is_some()
    }
}

impl DetectLanguage for Detector<'_> {
    fn detect_each(&self, texts: &[String]) -> Vec<Detection> {
        if let Some(tools) = &self.tools {
            let samples: Vec<String> = texts.iter().map(|text| sample(std::slice::from_ref(text))).collect();
            match tools.detect(&samples, Some(detectable_codes())) {
                Ok(detections) => return detections,
                Err(error) => eprintln!("detection falls back to the built-in detector: {error}"),
            }
        }
        Builtin.detect_each(texts)
    }
}

/// The built-in detector: whatlang and common words, inside the component.
pub struct Builtin;

impl DetectLanguage for Builtin {
    fn detect_each(&self, texts: &[String]) -> Vec<Detection> {
        texts
            .iter()
            .map(|text| {
                let detected = detect_code(std::slice::from_ref(text));
                Detection {
                    language: detected
                        .map(|(code, _)| catalogue::find(code).expect("every detectable language is in the catalogue")),
                    confidence: detected.map_or(0.0, |(_, confidence)| confidence),
                    outside: None,
                }
            })
            .collect()
    }
}

/// The most likely source language of `texts` (text content: plain text, or units of markup with
/// placeholders) by the built-in detector, a base language of the catalogue, or `None` when they
/// contain no letter at all.
pub fn detect(texts: &[String]) -> Option<&'static Language> {
    detect_code(texts).map(|(code, _)| catalogue::find(code).expect("every detectable language is in the catalogue"))
}

/// [`detect`], as the lower-case base code and a confidence from 0 to 1: whatlang's when it
/// decided, else the share of the text's words found among the chosen language's common words.
fn detect_code(texts: &[String]) -> Option<(&'static str, f64)> {
    let sample = sample(texts);
    if !sample.chars().any(char::is_alphabetic) {
        return None;
    }
    let detector = whatlang::Detector::with_allowlist(DETECTABLE.iter().map(|(lang, _)| *lang).collect());
    let Some(info) = detector.detect(&sample) else { return Some((FALLBACK, 0.0)) };
    // whatlang decides a script with a single language (Hangul, Greek, Georgian, …) without
    // consulting the allowlist, hence the look-up.
    let detected = DETECTABLE.iter().find(|(known, _)| *known == info.lang()).map(|(_, code)| *code);
    let letters = sample.chars().filter(|c| c.is_alphabetic()).count();
    if info.is_reliable() || info.script() != whatlang::Script::Latin || letters >= SHORT_TEXT_LETTERS {
        return Some(match detected {
            Some(code) => (code, info.confidence()),
            None => (FALLBACK, 0.0),
        });
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
fn common_words_language(sample: &str, guess: Option<&'static str>) -> (&'static str, f64) {
    let words: Vec<String> =
        sample.split(|c: char| !c.is_alphabetic()).filter(|word| !word.is_empty()).map(str::to_lowercase).collect();
    let scores: Vec<(&'static str, usize)> = COMMON_WORDS
        .iter()
        .map(|(code, common)| (*code, words.iter().filter(|word| common.contains(&word.as_str())).count()))
        .collect();
    let best = scores.iter().map(|(_, score)| *score).max().unwrap_or(0);
    if best == 0 {
        return (FALLBACK, 0.0);
    }
    let leaders: Vec<&'static str> = scores.iter().filter(|(_, score)| *score == best).map(|(code, _)| *code).collect();
    let chosen = match guess {
        Some(guess) if leaders.contains(&guess) => guess,
        _ if leaders.contains(&FALLBACK) => FALLBACK,
        _ => leaders[0],
    };
    (chosen, best as f64 / words.len() as f64 / leaders.len() as f64)
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
        assert_eq!(detect_code(&texts).map(|(code, _)| code), Some("de"));
    }

    #[test]
    fn placeholders_do_not_count_as_words() {
        let texts = ["<g1>Guten Morgen</g1>, wie geht es <x2/>dir <g3>heute</g3>?".to_owned()];
        assert_eq!(detect_code(&texts).map(|(code, _)| code), Some("de"));
    }

    #[test]
    fn the_units_of_a_page_are_detected_without_its_code() {
        // What `markup` makes of an HTML page: its text units, script and style content left out.
        let units = ["Das Wetter ist heute <g1>schön</g1>.".to_owned(), "Wir gehen im Park spazieren.".to_owned()];
        assert_eq!(detect_code(&units).map(|(code, _)| code), Some("de"));
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
        assert_eq!(detect_code(&[long]).map(|(code, _)| code), Some("de"));
    }

    /// A language-tools service that answers `answer`, or is down when it is `None`; it
    /// remembers the texts it was sent.
    struct FakeService {
        answer: Option<serde_json::Value>,
        sent: std::cell::RefCell<Vec<serde_json::Value>>,
    }

    impl platform::OutboundHttp for FakeService {
        fn send(&self, request: platform::HttpRequest) -> Result<platform::HttpResponse, platform::HttpError> {
            self.sent.borrow_mut().push(serde_json::from_slice(&request.body).unwrap());
            match &self.answer {
                Some(answer) => {
                    Ok(platform::HttpResponse { status: 200, headers: Vec::new(), body: answer.to_string().into() })
                }
                None => Err(platform::HttpError::Unreachable { url: request.url, reason: "refused".into() }),
            }
        }
    }

    fn with_service(service: &FakeService) -> Detector<'_> {
        let vars: std::collections::HashMap<String, String> = [
            ("language_tools_url".to_owned(), "http://127.0.0.1:2740".to_owned()),
            ("language_tools_secret".to_owned(), "secret".to_owned()),
        ]
        .into();
        let settings = ToolsSettings::from_variables(&vars).unwrap().unwrap();
        Detector { tools: Some(LanguageTools::new(settings, service)) }
    }

    #[test]
    fn the_service_answers_when_configured_and_gets_text_without_placeholders() {
        let service = FakeService {
            answer: Some(serde_json::json!({"results": [{"language": "nl", "confidence": 0.81}]})),
            sent: Default::default(),
        };
        let detections = with_service(&service).detect_each(&["<g1>Tot</g1> ziens".to_owned()]);
        assert_eq!(detections[0].language.map(Language::base_code), Some("nl"));
        assert_eq!(detections[0].confidence, 0.81);
        let sent = &service.sent.borrow()[0];
        assert_eq!(sent["texts"], serde_json::json!(["Tot ziens\n"]));
        let among: Vec<&str> = sent["among"].as_array().unwrap().iter().map(|code| code.as_str().unwrap()).collect();
        assert!(among.contains(&"en") && among.contains(&"nl") && among.contains(&"zh"), "{among:?}");
        assert!(!among.contains(&"hi") && !among.contains(&"ca"), "only auto-detectable sources: {among:?}");
    }

    #[test]
    fn a_failing_service_falls_back_to_the_built_in_detector() {
        let service = FakeService { answer: None, sent: Default::default() };
        let texts = ["Das Wetter ist heute schön und wir gehen im Park spazieren.".to_owned(), "42".to_owned()];
        let detections = with_service(&service).detect_each(&texts);
        assert_eq!(service.sent.borrow().len(), 1, "the service was asked first");
        assert_eq!(detections[0].language.map(Language::base_code), Some("de"));
        assert!(detections[0].confidence > 0.5, "{}", detections[0].confidence);
        assert_eq!(detections[1], Detection { language: None, confidence: 0.0, outside: None });
    }

    #[test]
    fn the_built_in_confidence_says_how_sure_it_is() {
        let sure = Builtin.detect_each(&["The weather is lovely today and we are going for a walk.".to_owned()]);
        let unsure = Builtin.detect_each(&["Xyzzy".to_owned()]);
        assert!(sure[0].confidence > 0.5, "{:?}", sure[0]);
        assert_eq!(unsure[0].confidence, 0.0, "a word nobody knows is a guess");
    }

    #[test]
    fn settings_that_cannot_work_leave_the_built_in_detector() {
        let host = platform::native::NativeHost::in_memory::<&str>(&[], platform::FixedClock::at_unix(0)).unwrap();
        let vars: std::collections::HashMap<String, String> =
            [("language_tools_secret".to_owned(), "secret".to_owned())].into();
        let detector = Detector::configured(&Services { vars: &vars, ..host.services() });
        assert!(!detector.uses_service(), "a secret without a URL cannot work");
        let texts = ["Das Wetter ist heute schön und wir gehen im Park spazieren.".to_owned()];
        assert_eq!(detector.detect_each(&texts)[0].language.map(Language::base_code), Some("de"));
    }
}
