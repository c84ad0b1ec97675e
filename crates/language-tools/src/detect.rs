//! Language detection: lingua's n-gram models for every catalogue language lingua knows, loaded once at
//! start and asked per text.
//!
//! The detector speaks the catalogue's language: lingua's languages are mapped to the catalogue's lower-case
//! base codes through their ISO 639 codes (lingua's Bokmal is `nb`, Chinese `zh`), and only languages the
//! catalogue has are loaded (the crate's lingua features name them; a test pins that each one maps).
//!
//! A text of a few words gives n-grams little to go on, and lingua then often prefers a language that merely
//! looks alike ("Tot ziens" scores Latvian above Dutch, "La mulți ani" Tagalog above Romanian). Where a
//! [`Lexicon`] (the correction dictionaries) is at hand, a short text goes to the most likely of lingua's
//! close candidates whose dictionary knows every one of its words, unless lingua's first choice has a
//! dictionary that knows them all itself.

use std::collections::HashMap;

use lingua::{Language as LinguaLanguage, LanguageDetector, LanguageDetectorBuilder};
use serde::Serialize;

use crate::correct::words;

/// How many characters of a text the detector looks at; the rest is cut, not refused. Lingua's accuracy
/// stops growing long before this, and its time grows with the text.
pub const MAX_DETECTED_CHARS: usize = 20_000;

/// The outcome for one text, as `/detect` answers it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Detection {
    /// The catalogue base code of the most likely language (among the languages asked about, when the
    /// request names some); `None` only when the text has no letter.
    pub language: Option<&'static str>,
    /// Lingua's confidence for that language, 0..=1 (shares of the languages asked about, when the
    /// request names some).
    pub confidence: f64,
    /// The most likely language of all, when the request names languages and it is none of them: a text
    /// in Hindi asked about European languages says so here, with its confidence among all languages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<Outside>,
}

/// The most likely language of all, outside the languages a request asked about, when it is at least
/// [`OUTSIDE_RATIO`] times as likely as the best of them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Outside {
    pub language: &'static str,
    pub confidence: f64,
}

impl Detection {
    const NONE: Detection = Detection { language: None, confidence: 0.0, outside: None };
}

/// How many times as likely as the best of the languages asked about the winner of all must be to be named
/// `outside`: a text in Hindi is a hundred times as likely Hindi as anything asked about, but Indonesian is
/// often only a little more likely Malay than Indonesian, and naming Malay would refuse a text that is right.
pub const OUTSIDE_RATIO: f64 = 3.0;

/// Pairs of languages lingua cannot tell apart reliably, the first never named `outside` when the second is
/// asked about: lingua scores a quarter of the Indonesian sentences of the detection benchmark as Malay with
/// 0.9 or more, so a Malay winner is no evidence against Indonesian. (A Malay text is then answered as
/// Indonesian, whose translation reads well to a Malay reader; an Indonesian one refused would not.)
const INSEPARABLE: &[(&str, &str)] = &[("ms", "id")];

/// The longest text, in words, whose detection a lexicon may settle.
const SHORT_TEXT_WORDS: usize = 5;

/// How far below lingua's first choice a candidate's confidence may lie and still be settled by a lexicon:
/// a quarter of it. Farther down, lingua has seen real evidence against the candidate.
const CANDIDATE_RATIO: f64 = 0.25;

/// The words a language's dictionary knows: evidence that n-grams lack in a text of a few words.
pub trait Lexicon {
    /// Whether the dictionary of `language` (a catalogue base code) knows `word`; `None` without one.
    fn knows(&self, language: &str, word: &str) -> Option<bool>;
}

/// No dictionaries: lingua decides alone.
pub struct NoLexicon;

impl Lexicon for NoLexicon {
    fn knows(&self, _language: &str, _word: &str) -> Option<bool> {
        None
    }
}

/// Lingua's detector with every catalogue language it knows, models preloaded, high-accuracy mode.
pub struct Detector {
    detector: LanguageDetector,
    codes: HashMap<LinguaLanguage, &'static str>,
    languages: Vec<&'static str>,
}

impl Detector {
    /// Builds the detector and loads every model (seconds in a release build; once per process).
    pub fn load() -> Detector {
        let codes: HashMap<LinguaLanguage, &'static str> = LinguaLanguage::all()
            .into_iter()
            .filter_map(|language| Some((language, catalogue_code(language)?)))
            .collect();
        let loaded: Vec<LinguaLanguage> = codes.keys().copied().collect();
        // Preloading makes the first requests as fast as the later ones; high-accuracy mode (the default)
        // is what makes short texts ("Gute Nacht") come out right.
        let detector = LanguageDetectorBuilder::from_languages(&loaded).with_preloaded_language_models().build();
        let mut languages: Vec<&'static str> = codes.values().copied().collect();
        languages.sort_unstable();
        Detector { detector, codes, languages }
    }

    /// The catalogue base codes the detector can answer, sorted.
    pub fn languages(&self) -> &[&'static str] {
        &self.languages
    }

    /// The most likely language of `text` (its first [`MAX_DETECTED_CHARS`] characters), even when unsure:
    /// the confidence says how sure. A text without any letter has no language. A short text may be settled
    /// by `lexicon` (see the module's documentation). With `among`, only those languages compete (their
    /// confidences rescaled to add up to 1), and the winner of all is reported as `outside` when it is not
    /// one of them.
    pub fn detect(&self, text: &str, lexicon: &impl Lexicon, among: Option<&[String]>) -> Detection {
        let text = first_chars(text, MAX_DETECTED_CHARS);
        if !text.chars().any(char::is_alphabetic) {
            return Detection::NONE;
        }
        let mut ranked: Vec<(&'static str, f64)> = self
            .detector
            .compute_language_confidence_values(text)
            .into_iter()
            .filter_map(|(language, confidence)| {
                let confidence = if confidence.is_finite() { confidence.clamp(0.0, 1.0) } else { 0.0 };
                Some((*self.codes.get(&language)?, confidence))
            })
            .collect();
        // The highest confidence first; among equals (all 0.0 for a script no loaded language uses) the first
        // code, so the answer never depends on hash order.
        ranked.sort_by(|(code_a, a), (code_b, b)| b.total_cmp(a).then_with(|| code_a.cmp(code_b)));
        let mut outside = None;
        if let Some(among) = among {
            let winner = ranked.first().copied();
            ranked.retain(|(code, _)| among.iter().any(|allowed| allowed == code));
            let best_among = ranked.first().map_or(0.0, |(_, confidence)| *confidence);
            let inseparable = |language: &str| {
                INSEPARABLE
                    .iter()
                    .any(|&(outside, inside)| outside == language && among.iter().any(|allowed| allowed == inside))
            };
            if let Some((language, confidence)) = winner
                && !among.iter().any(|code| code == language)
                && confidence >= best_among * OUTSIDE_RATIO
                && !inseparable(language)
            {
                outside = Some(Outside { language, confidence });
            }
            let total: f64 = ranked.iter().map(|(_, confidence)| confidence).sum();
            if total > 0.0 {
                ranked.iter_mut().for_each(|(_, confidence)| *confidence /= total);
            }
        }
        let Some(&(first, top)) = ranked.first() else {
            return Detection::NONE;
        };
        let words: Vec<&str> =
            words(text).into_iter().map(|word| word.text).filter(|word| !word.chars().any(char::is_numeric)).collect();
        if words.is_empty() || words.len() > SHORT_TEXT_WORDS || knows_all(lexicon, first, &words) == Some(true) {
            return Detection { language: Some(first), confidence: top, outside };
        }
        let settled = ranked
            .iter()
            .skip(1)
            .take_while(|(_, confidence)| *confidence > 0.0 && *confidence >= top * CANDIDATE_RATIO)
            .find(|(code, _)| knows_all(lexicon, code, &words) == Some(true));
        let (language, confidence) = settled.copied().unwrap_or((first, top));
        Detection { language: Some(language), confidence, outside }
    }
}

/// Whether `language`'s dictionary knows every word; `None` without a dictionary.
fn knows_all(lexicon: &impl Lexicon, language: &str, words: &[&str]) -> Option<bool> {
    let mut all = true;
    for word in words {
        all &= lexicon.knows(language, word)?;
    }
    Some(all)
}

/// The catalogue base code of a lingua language, by its ISO 639-1 code and else its ISO 639-3 code.
fn catalogue_code(language: LinguaLanguage) -> Option<&'static str> {
    let iso639_1 = language.iso_code_639_1().to_string();
    let iso639_3 = language.iso_code_639_3().to_string();
    catalogue::from_iso639(&iso639_1).or_else(|| catalogue::from_iso639(&iso639_3)).map(|language| language.base_code())
}

/// The first `limit` characters of `text` (all of it when shorter), cut on a character boundary.
fn first_chars(text: &str, limit: usize) -> &str {
    match text.char_indices().nth(limit) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{detector, tools};

    /// A lexicon that knows the listed words of the listed languages.
    struct Listed(&'static [(&'static str, &'static [&'static str])]);

    impl Lexicon for Listed {
        fn knows(&self, language: &str, word: &str) -> Option<bool> {
            let (_, words) = self.0.iter().find(|(code, _)| *code == language)?;
            Some(words.iter().any(|known| known.eq_ignore_ascii_case(word)))
        }
    }

    #[test]
    fn every_compiled_lingua_language_maps_to_a_catalogue_base_language() {
        for language in LinguaLanguage::all() {
            let code = catalogue_code(language);
            assert!(code.is_some(), "lingua's {language:?} has no catalogue language: drop its feature");
        }
        let languages = detector().languages();
        assert_eq!(languages.len(), LinguaLanguage::all().len());
        assert_eq!(languages.len(), 70);
        for code in ["en", "de", "pt", "zh", "nb", "sl", "st", "tl", "ms", "fa", "sq"] {
            assert!(languages.contains(&code), "{code} is not detected");
        }
        assert!(languages.windows(2).all(|pair| pair[0] < pair[1]), "sorted and unique");
    }

    #[test]
    fn detects_long_and_short_texts() {
        let cases = [
            (
                "The committee approved the new budget yesterday, but several members raised concerns about \
                 transparency.",
                "en",
            ),
            ("Protonenstrahl", "de"),
            ("Gute Nacht", "de"),
            ("Buenas noches", "es"),
            ("Děkuji za pomoc", "cs"),
            ("Tot ziens", "nl"),
            ("Hej, hur mår du?", "sv"),
            ("La mulți ani", "ro"),
            ("Obrigado pela ajuda, até amanhã.", "pt"),
            ("Ha en fin dag, vi ses i morgen på kontoret.", "nb"),
            ("我们明天去北京。", "zh"),
            // Short texts lingua alone gets wrong, settled by the dictionaries.
            ("Alles gut", "de"),
            ("Lekker weer", "nl"),
            ("Va bene", "it"),
            ("Pas mal", "fr"),
            ("D'accord", "fr"),
        ];
        for (text, expected) in cases {
            assert_eq!(tools().detect(text, None).language, Some(expected), "{text}");
        }
    }

    #[test]
    fn a_lexicon_settles_short_texts_among_close_candidates_only() {
        // Lingua alone: Latvian before Dutch.
        assert_eq!(detector().detect("Tot ziens", &NoLexicon, None).language, Some("lv"));
        let dutch = Listed(&[("nl", &["tot", "ziens"])]);
        let settled = detector().detect("Tot ziens", &dutch, None);
        assert_eq!(settled.language, Some("nl"));
        assert!(settled.confidence > 0.0 && settled.confidence < 0.5, "lingua's confidence for Dutch: {settled:?}");
        // A first choice whose dictionary knows the words stays, even when another one knows them too.
        let both = Listed(&[("lv", &["tot", "ziens"]), ("nl", &["tot", "ziens"])]);
        assert_eq!(detector().detect("Tot ziens", &both, None).language, Some("lv"));
        // Every word must be known.
        let partly = Listed(&[("nl", &["tot"])]);
        assert_eq!(detector().detect("Tot ziens", &partly, None).language, Some("lv"));
        // A far candidate is not promoted: lingua is sure this is German.
        let english = Listed(&[("en", &["gute", "nacht"])]);
        assert_eq!(detector().detect("Gute Nacht", &english, None).language, Some("de"));
        // Long texts are lingua's alone.
        let long = "Tot ziens en tot morgen, zei hij";
        let all_dutch = Listed(&[("af", &["tot", "ziens", "en", "morgen", "zei", "hij"])]);
        assert_eq!(
            detector().detect(long, &all_dutch, None).language,
            detector().detect(long, &NoLexicon, None).language
        );
    }

    #[test]
    fn a_text_without_letters_has_no_language() {
        assert_eq!(tools().detect("12345 !!", None), Detection::NONE);
        assert_eq!(tools().detect("", None), Detection::NONE);
        assert_eq!(tools().detect("  \n\t 3.14 -- ?", None), Detection::NONE);
    }

    #[test]
    fn confidence_is_a_probability_and_high_for_a_clear_text() {
        let detection = tools().detect("Das ist ein ganz normaler deutscher Satz über das Wetter von morgen.", None);
        assert_eq!(detection.language, Some("de"));
        assert!(detection.confidence > 0.5 && detection.confidence <= 1.0, "{detection:?}");
        let unsure = tools().detect("ok", None);
        assert!(unsure.language.is_some());
        assert!((0.0..=1.0).contains(&unsure.confidence));
    }

    #[test]
    fn among_limits_the_answer_and_reports_a_stronger_language_outside() {
        let european: Vec<String> = ["de", "en", "es", "fr", "nl"].map(String::from).to_vec();
        // Among all languages, a greeting of one word may look like another language altogether.
        let hello = tools().detect("Hello", Some(&european));
        assert_eq!(hello.language, Some("en"));
        assert!(hello.confidence > tools().detect("Hello", None).confidence.min(0.99), "{hello:?}");
        // Hindi is not among them: the best of them is answered, and Hindi is named outside.
        let hindi = tools().detect("आज मौसम बहुत अच्छा है और हम पार्क में टहलने जा रहे हैं।", Some(&european));
        let outside = hindi.outside.expect("Hindi outside");
        assert_eq!(outside.language, "hi");
        assert!(outside.confidence > 0.9, "{outside:?}");
        // A language among them is not named outside.
        assert_eq!(tools().detect("Guten Morgen, wie geht es dir?", Some(&european)).outside, None);
        // Nor is a close relative that is only a little more likely: this Indonesian sentence scores Malay
        // above Indonesian.
        let indonesian = "Setiap orang berhak atas kebebasan mempunyai dan mengeluarkan pendapat.";
        assert_eq!(tools().detect(indonesian, None).language, Some("ms"), "the case this guards against");
        let among: Vec<String> = ["de", "en", "id", "nl"].map(String::from).to_vec();
        let detection = tools().detect(indonesian, Some(&among));
        assert_eq!((detection.language, detection.outside), (Some("id"), None));
        // Some Indonesian sentences lingua is sure are Malay: Malay is never named outside beside Indonesian.
        let surely_malay = "Tidak satu pun di dalam Pernyataan ini boleh ditafsirkan memberikan sesuatu Negara, \
                            kelompok ataupun seseorang, hak untuk terlibat di dalam kegiatan apa pun atau melakukan \
                            perbuatan yang bertujuan untuk merusak hak-hak dan kebebasan-kebebasan yang mana pun yang \
                            termaktub di dalam Pernyataan ini.";
        assert_eq!(tools().detect(surely_malay, None).language, Some("ms"));
        assert_eq!(tools().detect(surely_malay, Some(&among)).outside, None);
        let without_indonesian: Vec<String> = ["de", "en", "nl"].map(String::from).to_vec();
        let outside = tools().detect(surely_malay, Some(&without_indonesian)).outside.expect("Malay outside");
        assert_eq!(outside.language, "ms");
        assert_eq!(tools().detect("12345", Some(&european)), Detection::NONE);
    }

    #[test]
    fn long_texts_are_cut_not_refused() {
        let long = "Dies ist ein Satz. ".repeat(5_000);
        assert!(long.chars().count() > MAX_DETECTED_CHARS);
        assert_eq!(tools().detect(&long, None).language, Some("de"));
        assert_eq!(first_chars("äöü", 2), "äö");
        assert_eq!(first_chars("äöü", 5), "äöü");
    }
}
