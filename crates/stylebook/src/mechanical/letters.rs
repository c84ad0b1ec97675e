//! Letter substitutions: eszett, umlauts, accents and cedillas.
//!
//! * `spelling_and_grammar.eszett: replace_eszett_with_ss`: ß → ss, ẞ → SS.
//! * `spelling_and_grammar.umlauts: replace_umlauts_with_ae_oe_ue`: ä ö ü → ae oe ue; a capital
//!   becomes `Ae` before a lower-case letter and `AE` in an all-capital word (`ÄRGER` → `AERGER`).
//! * `spelling_and_grammar.accents_and_cedillas`: `never_use` takes the accent, diaeresis or
//!   cedilla off every letter of French (à â ä ç é è ê ë î ï ô ö ù û ü ÿ) and off á í ó ú;
//!   `do_not_use_on_capital_letters` does so for capitals only (`École` → `Ecole`).
//!   `use_even_on_capital_letters` cannot be done mechanically (which accent a capital lost is a
//!   matter of spelling), so it is not mechanical.

use super::text::{Text, is_mask};
use crate::ConfiguredRules;

/// Which letters to replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Letters {
    eszett: bool,
    umlauts: bool,
    accents: Option<Accents>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Accents {
    Never,
    NotOnCapitals,
}

const CATEGORY: &str = "spelling_and_grammar";

fn accents(option: &str) -> Option<Accents> {
    match option {
        "never_use" => Some(Accents::Never),
        "do_not_use_on_capital_letters" => Some(Accents::NotOnCapitals),
        _ => None,
    }
}

/// Whether this family applies (category, rule, option).
pub(super) fn understands(category: &str, rule: &str, option: &str) -> bool {
    category == CATEGORY
        && match rule {
            "eszett" => option == "replace_eszett_with_ss",
            "umlauts" => option == "replace_umlauts_with_ae_oe_ue",
            "accents_and_cedillas" => accents(option).is_some(),
            _ => false,
        }
}

impl Letters {
    pub(super) fn new(rules: &ConfiguredRules) -> Option<Letters> {
        let eszett = rules.get(CATEGORY, "eszett") == Some("replace_eszett_with_ss");
        let umlauts = rules.get(CATEGORY, "umlauts") == Some("replace_umlauts_with_ae_oe_ue");
        let accents = rules.get(CATEGORY, "accents_and_cedillas").and_then(accents);
        (eszett || umlauts || accents.is_some()).then_some(Letters { eszett, umlauts, accents })
    }

    pub(super) fn apply(&self, text: &mut Text) {
        let chars = std::mem::take(&mut text.chars);
        let mut out = Vec::with_capacity(chars.len() + 8);
        for (i, &c) in chars.iter().enumerate() {
            if is_mask(c) {
                out.push(c);
                continue;
            }
            if self.eszett && c == 'ß' {
                out.extend(['s', 's']);
            } else if self.eszett && c == 'ẞ' {
                out.extend(['S', 'S']);
            } else if self.umlauts
                && let Some((base, e)) = umlaut(c)
            {
                out.push(base);
                let upper = base.is_uppercase() && {
                    // All capitals: the next letter is a capital, or the word ends after a capital.
                    match text.masks.next(&chars, i).filter(|n| n.is_alphabetic()) {
                        Some(next) => next.is_uppercase(),
                        None => text.masks.prev(&chars, i).is_some_and(|p| p.is_alphabetic() && p.is_uppercase()),
                    }
                };
                out.push(if upper { e.to_ascii_uppercase() } else { e });
            } else if let Some(accents) = self.accents
                && (accents == Accents::Never || c.is_uppercase())
                && let Some(plain) = unaccented(c)
            {
                out.push(plain);
            } else {
                out.push(c);
            }
        }
        text.chars = out;
    }
}

/// An umlaut's base letter and the `e` that replaces the dots.
fn umlaut(c: char) -> Option<(char, char)> {
    match c {
        'ä' => Some(('a', 'e')),
        'ö' => Some(('o', 'e')),
        'ü' => Some(('u', 'e')),
        'Ä' => Some(('A', 'e')),
        'Ö' => Some(('O', 'e')),
        'Ü' => Some(('U', 'e')),
        _ => None,
    }
}

/// A letter of French (or an acute vowel) without its accent, diaeresis or cedilla.
fn unaccented(c: char) -> Option<char> {
    Some(match c {
        'à' | 'â' | 'ä' | 'á' => 'a',
        'À' | 'Â' | 'Ä' | 'Á' => 'A',
        'ç' => 'c',
        'Ç' => 'C',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'É' | 'È' | 'Ê' | 'Ë' => 'E',
        'î' | 'ï' | 'í' => 'i',
        'Î' | 'Ï' | 'Í' => 'I',
        'ô' | 'ö' | 'ó' => 'o',
        'Ô' | 'Ö' | 'Ó' => 'O',
        'ù' | 'û' | 'ü' | 'ú' => 'u',
        'Ù' | 'Û' | 'Ü' | 'Ú' => 'U',
        'ÿ' => 'y',
        'Ÿ' => 'Y',
        _ => return None,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::tests::{Example, check_examples, rewrite};

    /// One example per mechanical option of this family.
    pub(in crate::mechanical) const EXAMPLES: &[Example] = &[
        ("spelling_and_grammar", "eszett", "replace_eszett_with_ss", "de", "Die Straße, GROẞ.", "Die Strasse, GROSS."),
        (
            "spelling_and_grammar",
            "umlauts",
            "replace_umlauts_with_ae_oe_ue",
            "de",
            "Öl, Übung, ÄRGER, Bär und Ä.",
            "Oel, Uebung, AERGER, Baer und Ae.",
        ),
        (
            "spelling_and_grammar",
            "accents_and_cedillas",
            "never_use",
            "fr",
            "À l'école, garçon, Noël.",
            "A l'ecole, garcon, Noel.",
        ),
        (
            "spelling_and_grammar",
            "accents_and_cedillas",
            "do_not_use_on_capital_letters",
            "fr",
            "École à Ça, ÉTÉ.",
            "Ecole à Ca, ETE.",
        ),
    ];

    #[test]
    fn examples_hold() {
        check_examples(EXAMPLES);
    }

    #[test]
    fn an_umlaut_at_the_end_of_a_capital_word_is_capital() {
        let rules = [("spelling_and_grammar", "umlauts", "replace_umlauts_with_ae_oe_ue")];
        assert_eq!(rewrite(&rules, "de", "GRÜN, Ü"), "GRUEN, Ue");
        assert_eq!(rewrite(&rules, "de", "MÜLLER"), "MUELLER");
    }

    #[test]
    fn urls_and_tags_keep_their_letters() {
        let rules = [("spelling_and_grammar", "eszett", "replace_eszett_with_ss")];
        assert_eq!(rewrite(&rules, "de", "https://straße.de/ß <g1>ß</g1>"), "https://straße.de/ß <g1>ss</g1>");
    }
}
