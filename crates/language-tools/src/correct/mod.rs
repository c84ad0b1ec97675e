//! Correction: fixing spelling and grammar while keeping the text otherwise as it is.
//!
//! * `english`: Harper's rules and dictionary, then `confusions`, our table of English confusions in
//!   context that Harper does not fix.
//! * `hunspell`: the other languages, each with a Hunspell dictionary found at start.
//! * `typography`: the rules every language gets last (repeated words, spacing, sentence capitals).
//! * `text`: the word and chunk helpers the passes share.
//!
//! The languages offered are English and every language with a dictionary, by catalogue base code.

mod confusions;
mod english;
mod hunspell;
mod text;
mod typography;

use std::collections::BTreeMap;
use std::path::Path;

pub use english::English;
pub use hunspell::{DictionaryFiles, Speller, discover};
pub use text::{Word, words};

use crate::detect::Lexicon;
use crate::error::CorrectError;

/// Everything correction needs, loaded once.
pub struct Corrector {
    english: English,
    spellers: BTreeMap<&'static str, Speller>,
}

impl Corrector {
    /// Loads Harper and every Hunspell dictionary in `dictionaries`, in parallel.
    pub fn load(dictionaries: &Path) -> Corrector {
        let (english, spellers) = std::thread::scope(|scope| {
            let english = scope.spawn(English::load);
            let spellers = hunspell::load_all(dictionaries);
            (english.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), spellers)
        });
        Corrector::new(english, spellers)
    }

    /// A corrector from parts already loaded.
    pub fn new(english: English, spellers: BTreeMap<&'static str, Speller>) -> Corrector {
        Corrector { english, spellers }
    }

    /// Harper's English pass.
    pub fn english(&self) -> &English {
        &self.english
    }

    /// The Hunspell dictionary of a language, if one was loaded.
    pub fn speller(&self, language: &str) -> Option<&Speller> {
        self.spellers.get(language)
    }

    /// The catalogue base codes correction covers, sorted.
    pub fn languages(&self) -> Vec<&'static str> {
        let mut languages: Vec<&'static str> = self.spellers.keys().copied().collect();
        languages.push("en");
        languages.sort_unstable();
        languages
    }

    /// The language as offered (its code, whatever the case the request used), or the refusal naming it.
    pub fn supported(&self, language: &str) -> Result<&'static str, CorrectError> {
        self.languages()
            .into_iter()
            .find(|code| code.eq_ignore_ascii_case(language))
            .ok_or_else(|| CorrectError::Unsupported(language.to_string()))
    }

    /// `text` corrected in `language` (a code [`Corrector::supported`] accepted).
    pub fn correct(&self, language: &str, text: &str) -> Result<String, CorrectError> {
        let language = self.supported(language)?;
        let spelled = match self.spellers.get(language) {
            Some(speller) => speller.correct(text),
            None => self.english.correct(text),
        };
        Ok(typography::apply(language, &spelled))
    }
}

/// The correction dictionaries, lent to detection: Harper's for English, Hunspell's for the others.
impl Lexicon for Corrector {
    fn knows(&self, language: &str, word: &str) -> Option<bool> {
        match self.spellers.get(language) {
            Some(speller) => Some(speller.knows(word)),
            None => (language == "en").then(|| self.english.knows(word)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::error::CorrectError;
    use crate::testing::corrector;

    #[test]
    fn the_required_languages_are_offered() {
        let languages = corrector().languages();
        for code in ["de", "en", "es", "fr", "it", "nl", "pl", "pt", "sv"] {
            assert!(languages.contains(&code), "{code} is not offered: {languages:?}");
        }
        assert!(languages.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn unsupported_languages_are_refused_by_name() {
        let error = corrector().correct("xx", "text").expect_err("xx is not offered");
        assert_eq!(error, CorrectError::Unsupported("xx".to_string()));
        assert_eq!(error.to_string(), "Language 'xx' is not supported for correction");
        assert_eq!(corrector().supported("DE"), Ok("de"));
    }

    #[test]
    fn the_example_sentence_is_fixed() {
        assert_eq!(
            corrector().correct("en", "I has a apple. Their going too the store tomorow.").as_deref(),
            Ok("I have an apple. They're going to the store tomorrow.")
        );
    }

    #[test]
    fn every_pass_runs() {
        assert_eq!(
            corrector().correct("en", "the the weather is nice today ,isn't it?").as_deref(),
            Ok("The weather is nice today, isn't it?")
        );
        assert_eq!(
            corrector().correct("de", "ich habe das Buch gelessen . danach schlief ich").as_deref(),
            Ok("Ich habe das Buch gelesen. Danach schlief ich")
        );
        assert_eq!(
            corrector().correct("fr", "merci beaucop! à bientôt").as_deref(),
            Ok("Merci beaucoup\u{202F}! À bientôt")
        );
    }

    #[test]
    fn correct_paragraphs_come_back_unchanged() {
        let english = "The committee approved the new budget yesterday, but several members raised concerns \
                       about transparency. Dr. Smith, who chairs the finance group, said the figures would be \
                       published on 3 March. \"We have nothing to hide,\" she added. Costs rose by 4.5% last \
                       year, mainly because of energy prices; see https://example.org/budget for details.";
        assert_eq!(corrector().correct("en", english).as_deref(), Ok(english));
        let german = "Der Ausschuss hat den neuen Haushalt gestern genehmigt, aber mehrere Mitglieder äußerten \
                      Bedenken zur Transparenz. Die Zahlen werden am 3. März veröffentlicht, sagte die \
                      Vorsitzende. Die Kosten sind im letzten Jahr um 4,5 % gestiegen, vor allem wegen der \
                      Energiepreise.";
        assert_eq!(corrector().correct("de", german).as_deref(), Ok(german));
    }

    #[test]
    fn correct_text_in_every_dictionary_language_comes_back_unchanged() {
        let texts = [
            (
                "fr",
                "Le comité a approuvé hier le nouveau budget, mais plusieurs membres ont exprimé des inquiétudes \
                 quant à la transparence. « Nous n’avons rien à cacher », a déclaré la présidente. L'entreprise \
                 s'est développée rapidement depuis 2019.",
            ),
            (
                "es",
                "El comité aprobó ayer el nuevo presupuesto, pero varios miembros expresaron su preocupación por la \
                 transparencia. ¿Qué opinas tú? ¡Me parece muy bien!",
            ),
            (
                "it",
                "Il comitato ha approvato ieri il nuovo bilancio. L'azienda è cresciuta rapidamente dall'anno scorso.",
            ),
            ("pt", "O comité aprovou ontem o novo orçamento, mas vários membros manifestaram preocupações."),
            (
                "nl",
                "De commissie heeft gisteren de nieuwe begroting goedgekeurd. Het bedrijf is sinds 2019 snel gegroeid.",
            ),
            (
                "pl",
                "Komisja zatwierdziła wczoraj nowy budżet, ale kilku członków wyraziło obawy dotyczące przejrzystości.",
            ),
            ("sv", "Kommittén godkände i går den nya budgeten, men flera ledamöter uttryckte oro över öppenheten."),
            ("da", "Udvalget godkendte i går det nye budget. Virksomheden er vokset hurtigt siden 2019."),
            ("cs", "Výbor včera schválil nový rozpočet, ale několik členů vyjádřilo obavy ohledně transparentnosti."),
            ("ro", "Comitetul a aprobat ieri noul buget, dar mai mulți membri și-au exprimat îngrijorarea."),
            ("ru", "Комитет вчера утвердил новый бюджет, но несколько членов выразили обеспокоенность."),
            (
                "de",
                "Herr Schmidtke und Frau Özdemir trafen sich in Berlin-Kreuzberg mit Vertretern der Deutschen Bahn. \
                 Das Ergebnis: ein Vertrag über 2,5 Mio. Euro.",
            ),
        ];
        for (language, text) in texts {
            assert_eq!(corrector().correct(language, text).as_deref(), Ok(text), "{language}");
        }
    }

    #[test]
    fn correction_is_idempotent() {
        for (language, text) in [
            ("en", "I has a apple. Their going too the store tomorow."),
            ("de", "ich habe das Buch gelessen . danach schlief ich"),
        ] {
            let once = corrector().correct(language, text).expect("supported");
            assert_eq!(corrector().correct(language, &once).as_deref(), Ok(once.as_str()));
        }
    }
}
