//! The deterministic engine: reproducible pseudo-translations for tests and the sandbox.
//!
//! It never calls anything and never fails. Each word (a run of letters) becomes a pseudo-word
//! of the same length, drawn from a hash of the word keyed by the target code and the formality
//! register, so:
//!
//! * the same text, target and formality always give the same output, and the same word always
//!   gives the same pseudo-word (the output looks like a consistent language);
//! * different targets give different outputs;
//! * for targets that distinguish formality (§16), `More`/`PreferMore` and `Less`/`PreferLess`
//!   give different outputs from each other and from `Default`; elsewhere formality is ignored,
//!   as a real engine would;
//! * letter case follows the source letter by letter; digits, punctuation, whitespace and every
//!   non-letter character are copied unchanged, as are the placeholders `<gN>`, `</gN>`, `<xN/>`;
//! * every occurrence of a glossary source term, found by [`terms::GlossaryMatcher`] (whole words,
//!   any letter case, the longest term first), comes out as its target term: as the glossary
//!   spells it, or with its first letter upper-cased where a capitalised word starts a sentence
//!   and the target starts lower-case;
//! * the context and the custom instructions are accepted and ignored: they never change the
//!   output.
//!
//! The source language does not enter the key: the same text gives the same output whatever
//! language the caller detected.

use catalogue::Language;
use terms::{GlossaryMatcher, Segment};

use crate::{Capabilities, Coverage, Engine, EngineError, EngineRequest, Formality};

/// The engine's name, as the `engine` variable spells it.
pub const NAME: &str = "deterministic";

const CONSONANTS: &[u8] = b"bcdfghjklmnprstvwz";
const VOWELS: &[u8] = b"aeiou";

/// Reproducible pseudo-translations; see the module documentation.
#[derive(Debug, Clone, Copy, Default)]
pub struct DeterministicEngine;

impl DeterministicEngine {
    pub fn new() -> Self {
        DeterministicEngine
    }

    /// The pseudo-translation of one text.
    fn translate_text(
        &self,
        text: &str,
        target: &Language,
        formality: Formality,
        glossary: &GlossaryMatcher<'_>,
    ) -> String {
        let key = Key::new(target, formality);
        let mut output = String::with_capacity(text.len() + 8);
        for segment in glossary.segments(text) {
            match segment {
                Segment::Plain(plain) => pseudo_translate(plain, &key, &mut output),
                Segment::Placeholder(placeholder) => output.push_str(placeholder),
                Segment::Term { entry, capitalised } => output.push_str(&glossary.target(entry, capitalised)),
            }
        }
        output
    }
}

impl Engine for DeterministicEngine {
    fn coverage(&self) -> Result<Coverage, EngineError> {
        Ok(Coverage::All)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { formality: true, context: false, custom_instructions: false, glossary: true }
    }

    fn translate(&self, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError> {
        let glossary = GlossaryMatcher::new(request.glossary);
        Ok(request
            .texts
            .iter()
            .map(|text| self.translate_text(text, request.target, request.formality, &glossary))
            .collect())
    }

    fn name(&self) -> &'static str {
        NAME
    }
}

/// The hash state after the target code and the register: every word's hash starts from it.
struct Key(u64);

impl Key {
    fn new(target: &Language, formality: Formality) -> Self {
        let register = match formality {
            _ if !target.supports_formality() => "",
            Formality::Default => "",
            Formality::More | Formality::PreferMore => "formal",
            Formality::Less | Formality::PreferLess => "informal",
        };
        let mut hash = Fnv::new();
        // The target's lower-case code (`de`, `en-gb`), as the outputs have always been keyed.
        hash.write(target.lang().to_ascii_lowercase().as_bytes());
        hash.write(&[0]);
        hash.write(register.as_bytes());
        hash.write(&[0]);
        Key(hash.0)
    }
}

/// Copies `text` to `output`, replacing every word by its pseudo-word.
fn pseudo_translate(text: &str, key: &Key, output: &mut String) {
    let mut word_start: Option<usize> = None;
    for (at, character) in text.char_indices() {
        match (character.is_alphabetic(), word_start) {
            (true, None) => word_start = Some(at),
            (true, Some(_)) => {}
            (false, Some(start)) => {
                pseudo_word(&text[start..at], key, output);
                word_start = None;
                output.push(character);
            }
            (false, None) => output.push(character),
        }
    }
    if let Some(start) = word_start {
        pseudo_word(&text[start..], key, output);
    }
}

/// Appends the pseudo-word of `word` (letters only): as many ASCII letters, alternating
/// consonants and vowels, upper-case where the source letter is.
fn pseudo_word(word: &str, key: &Key, output: &mut String) {
    let mut hash = Fnv(key.0);
    for character in word.chars().flat_map(char::to_lowercase) {
        hash.write_char(character);
    }
    let mut random = SplitMix(hash.0);
    let mut vowel_next = random.next() & 1 == 0;
    let start = output.len();
    let mut unchanged = true;
    for source in word.chars() {
        let alphabet = if vowel_next { VOWELS } else { CONSONANTS };
        let mut letter = alphabet[(random.next() % alphabet.len() as u64) as usize] as char;
        // An occasional double consonant keeps the pseudo-words from all looking alike.
        vowel_next = !vowel_next && !random.next().is_multiple_of(5);
        unchanged &= source.to_lowercase().eq(std::iter::once(letter));
        if source.is_uppercase() {
            letter = letter.to_ascii_uppercase();
        }
        output.push(letter);
    }
    if unchanged {
        // The pseudo-word happened to equal the word (likely only for one or two letters): shift
        // its first letter so the output always visibly differs from the input.
        let first = output.as_bytes()[start];
        let shifted = if first.is_ascii_uppercase() {
            (b'A' + (first - b'A' + 1) % 26) as char
        } else {
            (b'a' + (first - b'a' + 1) % 26) as char
        };
        output.replace_range(start..start + 1, shifted.encode_utf8(&mut [0; 4]));
    }
}

/// 64-bit FNV-1a: tiny, fast and stable across platforms and releases (unlike `DefaultHasher`).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn write_char(&mut self, character: char) {
        self.write(character.encode_utf8(&mut [0; 4]).as_bytes());
    }
}

/// SplitMix64, to draw several letters from one hash.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::language;

    fn texts(items: &[&str]) -> Vec<String> {
        items.iter().map(|text| text.to_string()).collect()
    }

    fn translate(request: &EngineRequest<'_>) -> Vec<String> {
        DeterministicEngine::new().translate(request).unwrap()
    }

    fn one(text: &str, target: &str) -> String {
        let texts = texts(&[text]);
        translate(&EngineRequest::new(language("en"), language(target), &texts)).remove(0)
    }

    #[test]
    fn the_same_input_always_gives_the_same_output() {
        let input = texts(&["Hello, world!", "Second text."]);
        let request = EngineRequest::new(language("en"), language("de"), &input);
        assert_eq!(translate(&request), translate(&request));
        assert_eq!(translate(&request).len(), 2);
    }

    #[test]
    fn outputs_are_golden_across_releases() {
        // Tests elsewhere may compare pseudo-translations verbatim; changing the algorithm
        // changes this value, which should be a deliberate decision.
        assert_eq!(one("Hello, world!", "de"), "Fladr, selot!");
        assert_eq!(one("Click <g1>here</g1> to continue.", "fr"), "Esiru <g1>izto</g1> eg okopupod.");
    }

    #[test]
    fn outputs_differ_by_target_language() {
        let german = one("The quick brown fox", "de");
        let french = one("The quick brown fox", "fr");
        let british = one("The quick brown fox", "en-gb");
        assert_ne!(german, french);
        assert_ne!(german, british);
        assert_ne!(german, "The quick brown fox");
    }

    #[test]
    fn case_digits_punctuation_and_whitespace_are_kept() {
        let output = one("Hello WORLD, it's 2024!\n\tBye.", "de");
        let shape = |text: &str| {
            text.chars()
                .map(|c| match c {
                    c if c.is_uppercase() => 'A',
                    c if c.is_lowercase() => 'a',
                    c => c,
                })
                .collect::<String>()
        };
        assert_eq!(shape(&output), shape("Hello WORLD, it's 2024!\n\tBye."));
        assert!(output.contains("2024!\n\t"));
    }

    #[test]
    fn the_same_word_gives_the_same_pseudo_word() {
        let output = one("cat cat Cat", "es");
        let words: Vec<&str> = output.split(' ').collect();
        assert_eq!(words[0], words[1]);
        assert_eq!(words[2].to_lowercase(), words[0]);
    }

    #[test]
    fn every_word_visibly_changes_even_single_letters() {
        for target in ["de", "fr", "es", "ja", "it", "nl"] {
            for word in ["a", "I", "o", "e", "an", "to"] {
                assert_ne!(one(word, target), word, "{word} → {target}");
            }
        }
    }

    #[test]
    fn placeholders_pass_through_unchanged() {
        let output = one("Click <g1>here</g1> to <x2/>continue<g10>.</g10>", "fr");
        assert!(output.contains("<g1>"), "{output}");
        assert!(output.contains("</g1>"));
        assert!(output.contains("<x2/>"));
        assert!(output.contains("<g10>.</g10>"));
        assert!(!output.contains("here"));
        // Markup that is not a placeholder is text like any other.
        assert!(!one("<b>bold</b>", "fr").contains("<b>"));
    }

    #[test]
    fn formality_is_visible_for_targets_that_distinguish_it() {
        let input = texts(&["How are you today?"]);
        let with = |target, formality| {
            translate(&EngineRequest { formality, ..EngineRequest::new(language("en"), language(target), &input) })
                .remove(0)
        };
        let formal = with("de", Formality::More);
        let informal = with("de", Formality::Less);
        let default = with("de", Formality::Default);
        assert_ne!(formal, informal);
        assert_ne!(formal, default);
        assert_ne!(informal, default);
        assert_eq!(with("de", Formality::PreferMore), formal);
        assert_eq!(with("pt-br", Formality::PreferLess), with("pt-br", Formality::Less));
        // English has no formal address: preferences fall back to the default silently.
        assert_eq!(with("en-gb", Formality::PreferMore), with("en-gb", Formality::Default));
    }

    #[test]
    fn glossary_terms_come_out_as_their_target_terms() {
        let input = texts(&["The house is a house; my Glossa house.", "House rules. Houses."]);
        let glossary = vec![("house".to_owned(), "Haus".to_owned()), ("Glossa".to_owned(), "GLOSSA".to_owned())];
        let outputs = translate(&EngineRequest {
            glossary: &glossary,
            ..EngineRequest::new(language("en"), language("de"), &input)
        });
        assert_eq!(outputs[0].matches("Haus").count(), 3, "{}", outputs[0]);
        assert!(outputs[0].contains("GLOSSA Haus."));
        // Capitalised at the start of a sentence; not inside a longer word.
        assert!(outputs[1].starts_with("Haus "), "{}", outputs[1]);
        assert_eq!(outputs[1].matches("Haus").count(), 1);
    }

    #[test]
    fn glossary_terms_match_in_any_case_and_are_capitalised_only_at_sentence_starts() {
        let input = texts(&["House rules. The HOUSE, my House. «House»"]);
        let glossary = vec![("house".to_owned(), "casa".to_owned())];
        let output = translate(&EngineRequest {
            glossary: &glossary,
            ..EngineRequest::new(language("en"), language("es"), &input)
        })
        .remove(0);
        assert!(output.starts_with("Casa "), "{output}");
        assert!(output.contains(" casa, "), "{output}");
        assert!(output.ends_with(" casa. «Casa»"), "{output}");
        // The output passes the pipeline's check.
        let expected = GlossaryMatcher::new(&glossary).expected_terms(&input[0]);
        assert_eq!(expected, ["Casa", "casa", "casa", "Casa"]);
        assert!(terms::contains_terms(&output, &expected));
    }

    #[test]
    fn context_and_custom_instructions_do_not_change_the_output() {
        let input = texts(&["Keep this sentence."]);
        let instructions = texts(&["Use uppercase only."]);
        let plain = translate(&EngineRequest::new(language("en"), language("it"), &input));
        let decorated = translate(&EngineRequest {
            context: Some("A note about something else."),
            custom_instructions: &instructions,
            ..EngineRequest::new(language("en"), language("it"), &input)
        });
        assert_eq!(plain, decorated);
    }

    #[test]
    fn non_latin_words_and_empty_texts_are_handled() {
        assert_eq!(one("", "de"), "");
        assert_eq!(one("  \n", "de"), "  \n");
        let output = one("Привет, мир! 東京", "en");
        assert_eq!(output.chars().count(), "Привет, мир! 東京".chars().count());
        assert!(output.is_ascii());
    }

    #[test]
    fn coverage_is_everything() {
        assert_eq!(DeterministicEngine::new().coverage().unwrap(), Coverage::All);
    }
}
