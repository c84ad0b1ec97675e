//! The rule-based rephraser: what `/v2/write/rephrase` does with a writing style or tone when no
//! LLM engine is configured.
//!
//! It rewrites English and German text from phrase tables kept as data (`en.rs`, `de.rs`), with
//! the engine in `rules.rs` and the text model in `text.rs`. Each style and tone is one
//! [`rules::Recipe`] per language; what it does is data too ([`rule_based_effect`]), so the
//! crate's README table is generated from it and checked against it, and a caller can always
//! say when a style or tone was not honoured ([`Rephrased::applied`]).
//!
//! The rules are conservative: a rule applies only where its guards show the result is still
//! correct (`it is` → `it's` not before a clause end, `zu dem` → `zum` only before a noun that
//! is not a time, German hedges never dropped where the verb-second order would break). Text it
//! is not sure of stays as it is.

mod de;
mod en;
mod rules;
mod text;

use catalogue::Language;

use crate::request::Change;
use rules::{Recipe, Rule};
use text::Grammar;

/// What the rule-based rephraser does with one style or tone in one language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// It rewrites the text; what it changes.
    Rewrites(&'static str),
    /// It leaves the text as it is; why.
    None(&'static str),
}

/// A text rephrased by the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rephrased {
    pub text: String,
    /// Whether the rules have this style or tone for the language ([`Effect::Rewrites`]). `true`
    /// also when no rule matched (the text already has that style); `false` means the style or
    /// tone was not honoured and the text is returned unchanged.
    pub applied: bool,
}

/// Why languages without rules have no effect.
const NO_STYLES: &str = "the API has no writing styles or tones for this language (a prefer_ value falls back to the \
                         default, any other is refused)";
const NO_RULES: &str = "no rules for this language; only an LLM engine can rephrase it";

/// The recipe for `change` in `language`, with the grammar its sentences are read with.
fn recipe(language: &Language, change: Change) -> Option<(&'static Recipe, &'static Grammar)> {
    match language.base_code() {
        "en" => Some((en::RECIPES.get(change), &en::GRAMMAR)),
        "de" => Some((de::RECIPES.get(change), &de::GRAMMAR)),
        _ => None,
    }
}

/// What the rules do with `change` in `language` (a target: `en-GB`, `de`, …).
pub fn rule_based_effect(language: &Language, change: Change) -> Effect {
    match recipe(language, change) {
        Some((recipe, _)) => Effect::Rewrites(recipe.description),
        None if change.supported_by(language) => Effect::None(NO_RULES),
        None => Effect::None(NO_STYLES),
    }
}

/// `text` rewritten in `language` (a target) for `change`.
pub fn rephrase_with_rules(language: &Language, text: &str, change: Change) -> Rephrased {
    let mut trace = Vec::new();
    rephrase_traced(language, text, change, &mut trace)
}

/// [`rephrase_with_rules`], adding every rule that fired to `trace`.
fn rephrase_traced(language: &Language, text: &str, change: Change, trace: &mut Vec<&'static Rule>) -> Rephrased {
    match recipe(language, change) {
        Some((recipe, grammar)) => Rephrased { text: recipe.run(grammar, text, trace), applied: true },
        None => Rephrased { text: text.to_owned(), applied: false },
    }
}

/// The README's table: one row per style and tone, one column per group of write languages with
/// the same effects, each cell the effect (generated from [`rule_based_effect`]).
pub fn effects_table() -> String {
    let languages: Vec<&'static Language> =
        catalogue::all().iter().filter(|language| language.supports_write()).collect();
    let mut columns: Vec<(Vec<&'static str>, Vec<Effect>)> = Vec::new();
    for language in languages {
        let effects: Vec<Effect> = Change::ALL.iter().map(|&change| rule_based_effect(language, change)).collect();
        match columns.iter_mut().find(|(_, column)| *column == effects) {
            Some((codes, _)) => codes.push(language.lang()),
            None => columns.push((vec![language.lang()], effects)),
        }
    }
    let mut table = String::from("| parameter |");
    for (codes, _) in &columns {
        table.push_str(&format!(" {} |", codes.join(", ")));
    }
    table.push_str("\n|---|");
    table.push_str(&"---|".repeat(columns.len()));
    for (row, change) in Change::ALL.iter().enumerate() {
        table.push_str(&format!("\n| `{}={}` |", change.parameter(), change.value()));
        for (_, effects) in &columns {
            let cell = match effects[row] {
                Effect::Rewrites(description) => description.to_owned(),
                Effect::None(reason) => format!("no effect: {reason}"),
            };
            table.push_str(&format!(" {} |", cell.replace('|', "\\|")));
        }
    }
    table.push('\n');
    table
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Examples as data: each language lists sentences and what each style and tone makes of
    //! them, and the checks below run them all, twice (idempotence), and require every rule of
    //! every table to fire in at least one of them.

    use std::collections::HashSet;

    use super::*;
    use crate::request::{Style, Tone};

    /// One example: a style or tone, a text, and what the rules make of it.
    pub type Example = (Change, &'static str, &'static str);

    // Short names for the examples' tables.
    pub const CASUAL_: Change = Change::Style(Style::Casual);
    pub const BUSINESS_: Change = Change::Style(Style::Business);
    pub const ACADEMIC_: Change = Change::Style(Style::Academic);
    pub const SIMPLE_: Change = Change::Style(Style::Simple);
    pub const CONFIDENT_: Change = Change::Tone(Tone::Confident);
    pub const DIPLOMATIC_: Change = Change::Tone(Tone::Diplomatic);
    pub const ENTHUSIASTIC_: Change = Change::Tone(Tone::Enthusiastic);
    pub const FRIENDLY_: Change = Change::Tone(Tone::Friendly);

    /// Runs `examples` in `language`, then checks that every rule of `recipes`' phrase tables
    /// fired in one of them.
    pub fn check(language: &str, examples: &[Example], recipes: &[&'static Recipe]) {
        let language = catalogue::find(language).unwrap();
        let mut fired: HashSet<*const Rule> = HashSet::new();
        let mut failures = Vec::new();
        for &(change, input, expected) in examples {
            let mut trace = Vec::new();
            let once = rephrase_traced(language, input, change, &mut trace);
            assert!(once.applied);
            if once.text != expected {
                failures.push(format!("{change}: {input:?}\n     gave {:?}\n expected {expected:?}", once.text));
            }
            let twice = rephrase_with_rules(language, &once.text, change).text;
            if twice != once.text {
                failures.push(format!("{change}: not idempotent on {input:?}: {:?} then {twice:?}", once.text));
            }
            fired.extend(trace.into_iter().map(|rule| rule as *const Rule));
        }
        // Every rule once, though several recipes share a table.
        let mut checked: HashSet<*const Rule> = HashSet::new();
        let rules = recipes.iter().flat_map(|recipe| recipe.steps).flat_map(|step| match step {
            rules::Step::Phrases(table) => table.iter(),
            _ => [].iter(),
        });
        for rule in rules {
            if checked.insert(rule as *const Rule) && !fired.contains(&(rule as *const Rule)) {
                failures.push(format!("no example makes the rule {:?} → {:?} fire", rule.from, rule.to));
            }
        }
        assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{Style, Tone};

    #[test]
    fn english_and_german_have_rules_for_every_style_and_tone() {
        for code in ["en", "en-GB", "en-US", "de"] {
            let language = catalogue::find(code).unwrap();
            for change in Change::ALL {
                assert!(matches!(rule_based_effect(language, change), Effect::Rewrites(_)), "{code} {change}");
            }
        }
    }

    #[test]
    fn other_write_languages_have_no_styles_and_say_so() {
        for code in ["es", "fr", "it", "ja", "ko", "pt", "pt-BR", "pt-PT", "zh", "zh-Hans"] {
            let language = catalogue::find(code).unwrap();
            assert_eq!(rule_based_effect(language, Change::Style(Style::Casual)), Effect::None(NO_STYLES), "{code}");
            let rephrased = rephrase_with_rules(language, "No se puede.", Change::Tone(Tone::Friendly));
            assert_eq!(rephrased, Rephrased { text: "No se puede.".into(), applied: false });
        }
    }

    #[test]
    fn odd_texts_never_break_the_rules_and_markup_survives() {
        let long = "We do not know, and we will not say; it is late, but I think it is fine. ".repeat(40);
        let texts = [
            "",
            "   \n\t ",
            "<",
            "a < b > c { d } % $ @ # & ; `",
            "<b>Do not</b> go <i>in das</i> Kino, ich denke, {name}.",
            "Ich denke, <g1>wir</g1> gehen. Maybe <x/> we go.",
            "It is 😀. I am ünïcödé. Do not ✓.",
            "DO NOT SHOUT. I THINK WE SHOULD GO.",
            "I think\nwe should go. Zu dem\nHaus.",
            "...!!!???",
            "'ne 'n ' 'cause '",
            long.as_str(),
        ];
        for code in ["en-US", "de"] {
            let language = catalogue::find(code).unwrap();
            for change in Change::ALL {
                for text in texts {
                    let once = rephrase_with_rules(language, text, change).text;
                    let twice = rephrase_with_rules(language, &once, change).text;
                    assert_eq!(once, twice, "{code} {change}: {text:?}");
                    for span in ["<b>", "</b>", "<i>", "</i>", "{name}", "<g1>", "</g1>", "<x/>"] {
                        assert_eq!(text.matches(span).count(), once.matches(span).count(), "{code} {change}: {text:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_readme_table_is_the_one_the_data_gives() {
        let readme = include_str!("../../README.md");
        let table = effects_table();
        assert!(readme.contains(&table), "README.md's table of effects is out of date; replace it with:\n\n{table}");
    }

    #[test]
    fn the_table_has_a_row_per_change_and_a_column_per_group() {
        let table = effects_table();
        let header = table.lines().next().unwrap();
        assert_eq!(header, "| parameter | de | en, en-GB, en-US | es, fr, it, ja, ko, pt, pt-BR, pt-PT, zh, zh-Hans |");
        assert_eq!(table.lines().count(), 2 + Change::ALL.len());
        assert!(table.contains("| `tone=friendly` |"));
    }
}
