//! Mechanical rules: the configured rules Glossa applies itself, by deterministic rewrites of
//! the translated text, after any translation engine.
//!
//! An option is mechanical when a rewrite can honour it without understanding the text: a
//! separator, a symbol's position, a quotation mark's shape. Each family has its own module,
//! which says which options it applies and how it reads ambiguous input:
//!
//! * `letters`: eszett, umlauts, accents and cedillas.
//! * `dates`: numeric dates, dates with month names, Chinese, Japanese and Korean dates.
//! * `times`: 12- and 24-hour clocks, separators, leading zeros, midnight.
//! * `numbers`: decimal and thousands separators, decimals below one, percentages,
//!   temperatures, currency symbols, units of measure, dimensions.
//! * `quotes`: quotation marks and apostrophes.
//! * `punctuation`: ranges, ellipses, dashes, colons, brackets, ampersands, slashes, Japanese
//!   periods and commas.
//! * `spacing`: spaces between Chinese and Latin letters or numerals, and before `; : ! ?`.
//!
//! Every rewrite holds to the same rules:
//!
//! * Placeholder tags (`<gN>`, `</gN>`, `<xN/>`), URLs, e-mail addresses, `` `code` `` and
//!   `{placeholders}` are masked first and come out byte for byte (see `text`); tags are
//!   transparent, so text on both sides of a tag is one text.
//! * Applying a [`Rewriter`] twice gives what applying it once gave: every rule's output is a
//!   form the same rule leaves as it is.
//! * A rule rewrites only what it recognises beyond doubt; when the input could mean two things
//!   that the rule would write differently, the text is left as it was.
//!
//! A rewriter runs its families in a fixed order: letters, closing up `10 : 30`, dates, times,
//! ranges, numbers, quotes, the other punctuation, spacing. Dates and times, once recognised, are masked, so the number
//! rules never read `24.12.2024` or `10.30 Uhr` as numbers.

mod dates;
mod letters;
mod numbers;
mod punctuation;
mod quotes;
mod spacing;
mod text;
mod times;

use text::{Lang, Text};

use crate::ConfiguredRules;
use crate::catalogue::CATEGORIES;

/// The languages style rule lists are written for (base codes).
pub const LANGUAGES: &[&str] = &["de", "en", "es", "fr", "it", "ja", "ko", "zh"];

/// Whether Glossa applies (category, rule, option) itself, by a deterministic rewrite.
///
/// A few options need words of the list's language (month names): these are mechanical in the
/// languages that have them, see [`is_mechanical_in`].
pub fn is_mechanical(category: &str, rule: &str, option: &str) -> bool {
    letters::understands(category, rule, option)
        || dates::understands(category, rule, option)
        || times::understands(category, rule, option)
        || numbers::understands(category, rule, option)
        || quotes::understands(category, rule, option)
        || punctuation::understands(category, rule, option)
        || spacing::understands(category, rule, option)
}

/// Whether Glossa applies (category, rule, option) itself in a list for `language`.
pub fn is_mechanical_in(category: &str, rule: &str, option: &str, language: &str) -> bool {
    is_mechanical(category, rule, option) && dates::available_in(category, rule, option, Lang::parse(language))
}

/// The mechanical options, for documentation: (category, rule, option) in catalogue order.
pub fn mechanical_options() -> Vec<(&'static str, &'static str, &'static str)> {
    let mut options = Vec::new();
    for category in CATEGORIES {
        for rule in category.rules {
            for option in rule.options {
                if is_mechanical(category.name, rule.name, option) {
                    options.push((category.name, rule.name, *option));
                }
            }
        }
    }
    options
}

impl ConfiguredRules {
    /// The configured rules that are not mechanical (category, rule, option), in order.
    pub fn not_mechanical(&self) -> Vec<(&str, &str, &str)> {
        self.iter().filter(|&(category, rule, option)| !is_mechanical(category, rule, option)).collect()
    }

    /// The configured rules that a [`Rewriter`] for `language` does not apply, in order: those
    /// not mechanical, and those that need words `language` lacks.
    pub fn not_mechanical_in(&self, language: &str) -> Vec<(&str, &str, &str)> {
        self.iter().filter(|&(category, rule, option)| !is_mechanical_in(category, rule, option, language)).collect()
    }
}

/// The mechanical rules of a style rule list, ready to rewrite texts in its language.
///
/// Building one reads the configured rules once; it compiles nothing and allocates little, and
/// [`Rewriter::apply`] scans the text a few times, in time linear in its length.
#[derive(Debug)]
pub struct Rewriter {
    lang: Lang,
    letters: Option<letters::Letters>,
    dates: Option<dates::Dates>,
    times: Option<times::Times>,
    numbers: Option<numbers::Numbers>,
    quotes: Option<quotes::Quotes>,
    punctuation: Option<punctuation::Punctuation>,
    spacing: Option<spacing::Spacing>,
}

impl Rewriter {
    /// The mechanical rules of `rules`, for text in `language` (a base code: "de", "en", "fr",
    /// "es", "it", "ja", "ko", "zh"; a regional code such as "en-GB" counts as its base).
    pub fn new(rules: &ConfiguredRules, language: &str) -> Rewriter {
        let lang = Lang::parse(language);
        Rewriter {
            lang,
            letters: letters::Letters::new(rules),
            dates: dates::Dates::new(rules, lang),
            times: times::Times::new(rules, lang),
            numbers: numbers::Numbers::new(rules, lang),
            quotes: quotes::Quotes::new(rules, lang),
            punctuation: punctuation::Punctuation::new(rules, lang),
            spacing: spacing::Spacing::new(rules, lang),
        }
    }

    /// Whether there is no mechanical rule to apply.
    pub fn is_empty(&self) -> bool {
        self.letters.is_none()
            && self.dates.is_none()
            && self.times.is_none()
            && self.numbers.is_none()
            && self.quotes.is_none()
            && self.punctuation.is_none()
            && self.spacing.is_none()
    }

    /// `text` with every mechanical rule applied.
    pub fn apply(&self, text: &str) -> String {
        if self.is_empty() {
            return text.to_owned();
        }
        let Some(mut masked) = Text::mask(text) else {
            return text.to_owned();
        };
        if self.rewrite(&mut masked).is_none() {
            return text.to_owned();
        }
        masked.unmask()
    }

    /// Runs the families in order; `None` when the text ran out of masks.
    fn rewrite(&self, text: &mut Text) -> Option<()> {
        if let Some(letters) = &self.letters {
            letters.apply(text);
        }
        if let Some(punctuation) = &self.punctuation {
            punctuation.apply_before_numbers(text);
        }
        // Dates and times are recognised (and masked) even without a rule of their own, so
        // that no later rule mistakes them for numbers.
        dates::apply(self.dates.as_ref(), self.lang, text)?;
        times::apply(self.times.as_ref(), self.lang, text)?;
        if let Some(punctuation) = &self.punctuation {
            punctuation.apply_ranges(text);
        }
        if let Some(numbers) = &self.numbers {
            numbers.apply(text);
        }
        if let Some(quotes) = &self.quotes {
            quotes.apply(text);
        }
        if let Some(punctuation) = &self.punctuation {
            punctuation.apply(text);
        }
        if let Some(spacing) = &self.spacing {
            spacing.apply(text);
        }
        Some(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeSet;

    use serde_json::{Map, Value};

    use super::*;
    use crate::lookup;

    /// (category, rule, option, language, before, after): one rule alone rewrites `before` in a
    /// list for `language` into `after`.
    pub(crate) type Example = (&'static str, &'static str, &'static str, &'static str, &'static str, &'static str);

    /// Configured rules of the given (category, rule, option).
    pub(crate) fn configured(rules: &[(&str, &str, &str)]) -> ConfiguredRules {
        let mut categories = Map::new();
        for (category, rule, option) in rules {
            let entry = categories.entry(*category).or_insert_with(|| Value::Object(Map::new()));
            entry.as_object_mut().unwrap().insert((*rule).to_owned(), Value::String((*option).to_owned()));
        }
        ConfiguredRules::parse(&Value::Object(categories)).unwrap()
    }

    /// `input` rewritten by the given rules for `language`.
    pub(crate) fn rewrite(rules: &[(&str, &str, &str)], language: &str, input: &str) -> String {
        Rewriter::new(&configured(rules), language).apply(input)
    }

    /// Checks each example: the rewrite, its idempotence, and that tags around and inside the
    /// text change nothing.
    pub(crate) fn check_examples(examples: &[Example]) {
        for &(category, rule, option, language, before, after) in examples {
            let rules = [(category, rule, option)];
            let context = format!("{category}.{rule}: {option} ({language}) on {before:?}");
            assert!(is_mechanical_in(category, rule, option, language), "{context}: not mechanical");
            assert_eq!(rewrite(&rules, language, before), after, "{context}");
            assert_eq!(rewrite(&rules, language, after), after, "{context}: not idempotent");
            let tagged = format!("<x7/><g1>{before}</g1><x8/>");
            assert_eq!(rewrite(&rules, language, &tagged), format!("<x7/><g1>{after}</g1><x8/>"), "{context}: tags");
            let spaced = format!("<g2>{before}</g2> <g3>{before}</g3>");
            let expected = format!("<g2>{after}</g2> <g3>{after}</g3>");
            assert_eq!(rewrite(&rules, language, &spaced), expected, "{context}: tags between");
        }
    }

    fn all_examples() -> Vec<Example> {
        [
            letters::tests::EXAMPLES,
            dates::tests::EXAMPLES,
            times::tests::EXAMPLES,
            numbers::tests::EXAMPLES,
            quotes::tests::EXAMPLES,
            punctuation::tests::EXAMPLES,
            spacing::tests::EXAMPLES,
        ]
        .concat()
    }

    #[test]
    fn every_mechanical_option_has_an_example_that_changes_text() {
        let examples = all_examples();
        let shown: BTreeSet<_> = examples
            .iter()
            .filter(|example| example.4 != example.5)
            .map(|&(category, rule, option, ..)| (category, rule, option))
            .collect();
        let missing: Vec<_> = mechanical_options().into_iter().filter(|option| !shown.contains(option)).collect();
        assert!(missing.is_empty(), "mechanical options without an example: {missing:#?}");
        for (category, rule, option, ..) in examples {
            assert!(
                lookup::is_known_option(category, rule, option),
                "{category}.{rule}: {option} is not in the catalogue"
            );
        }
    }

    #[test]
    fn a_rewriter_has_work_exactly_for_mechanical_options() {
        for category in CATEGORIES {
            for rule in category.rules {
                for option in rule.options {
                    for language in LANGUAGES {
                        let rules = configured(&[(category.name, rule.name, option)]);
                        let rewriter = Rewriter::new(&rules, language);
                        assert_eq!(
                            !rewriter.is_empty(),
                            is_mechanical_in(category.name, rule.name, option, language),
                            "{}.{}: {option} ({language})",
                            category.name,
                            rule.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn not_mechanical_lists_the_rest_in_order() {
        let rules = configured(&[
            ("punctuation", "apostrophe", "use_curly_apostrophes"),
            ("style_and_tone", "formality", "use_formal_tone"),
            ("numbers", "approximate_numbers", "use_kanji_numbers"),
            ("dates_and_times", "date_format", "use_dd_space_spelled_out_month_space_yyyy"),
        ]);
        assert_eq!(
            rules.not_mechanical(),
            [
                ("numbers", "approximate_numbers", "use_kanji_numbers"),
                ("style_and_tone", "formality", "use_formal_tone")
            ]
        );
        assert_eq!(rules.not_mechanical_in("en"), rules.not_mechanical());
        assert_eq!(
            rules.not_mechanical_in("ja"),
            [
                ("dates_and_times", "date_format", "use_dd_space_spelled_out_month_space_yyyy"),
                ("numbers", "approximate_numbers", "use_kanji_numbers"),
                ("style_and_tone", "formality", "use_formal_tone")
            ]
        );
    }

    #[test]
    fn an_empty_rewriter_returns_the_text() {
        let rewriter = Rewriter::new(&configured(&[("style_and_tone", "formality", "use_formal_tone")]), "de");
        assert!(rewriter.is_empty());
        assert_eq!(rewriter.apply("\"1.000\" <g1>x"), "\"1.000\" <g1>x");
    }

    /// Every mechanical option alone, on texts of many kinds.
    #[test]
    fn each_rule_is_idempotent_and_keeps_placeholders() {
        let texts = [
            "He said \"it's 10:30 pm on 3/14/2024\" - and paid $1,234.50 (5 %).",
            "Am 24.12.2024 um 9.30 Uhr: „Los!“ Preis: 1.234,5 € … siehe https://x.de/a?b=1.000.",
            "Le 5 mars 2024, « bonjour » : 20 °C ; 10-20 kg !",
            "版本 1.2.3 发布于 2024年3月5日 上午，价格 ¥5,000 (约 10 %)。",
            "<g1>\"Hello</g1> <x2/>world\" 1.000 <g3>2024-03-05</g3> 192.168.0.1 v1.2",
            "'Tis the '90s: rock'n'roll, the boys' toys... 10 x 20 cm",
            "2024년 3월 5일 오후 2시 30분, 50 퍼센트",
        ];
        for (category, rule, option) in mechanical_options() {
            for language in LANGUAGES {
                let rules = [(category, rule, option)];
                for text in texts {
                    let once = rewrite(&rules, language, text);
                    let twice = rewrite(&rules, language, &once);
                    assert_eq!(once, twice, "{category}.{rule}: {option} ({language}) on {text:?}");
                    for tag in ["<g1>", "</g1>", "<x2/>", "<g3>", "</g3>"] {
                        assert_eq!(text.matches(tag).count(), once.matches(tag).count(), "{option}: {tag}");
                    }
                }
            }
        }
    }

    /// Lists with a mechanical option for every rule at once, chosen in turn.
    #[test]
    fn many_rules_together_are_idempotent_and_keep_placeholders() {
        let texts = [
            "He said \"it's 10:30 pm on 3/14/2024\" - and paid $1,234.50 (5 %) for 10x20 cm...",
            "Am 24.12.2024 um 9.30 Uhr: „Los!“ Preis: 1.234,5 € (20°C), Seiten 10-20 — R & D.",
            "Le 5 mars 2024, « bonjour » : 20 °C ; 10-20 kg ! 14h30-16h00, .5 l",
            "我们使用 GitHub 发布于 2024年3月5日 上午，价格 ¥5,000 (约 10 %)。他说—好的...",
            "彼は\"こんにちは\"と言った. 価格は12345円 (税込) です, 10-20%割引: 明日&明後日",
            "<g1>\"Hello</g1> <x2/>world\" 1.000 <g3>2024-03-05</g3> 9:00-17:00 <x4/>",
            "2024년 3월 5일 오후 2시 30분, 50 퍼센트, 오전 9시–오후 5시",
        ];
        let mut rules_by_turn: Vec<Vec<(&str, &str, &str)>> = vec![Vec::new(); 4];
        for category in CATEGORIES {
            for rule in category.rules {
                let options: Vec<_> =
                    rule.options.iter().filter(|option| is_mechanical(category.name, rule.name, option)).collect();
                for (turn, rules) in rules_by_turn.iter_mut().enumerate() {
                    if !options.is_empty() {
                        rules.push((category.name, rule.name, options[turn % options.len()]));
                    }
                }
            }
        }
        for rules in &rules_by_turn {
            for language in LANGUAGES {
                for text in texts {
                    let once = rewrite(rules, language, text);
                    assert_eq!(rewrite(rules, language, &once), once, "({language}) {text:?}");
                    for tag in ["<g1>", "</g1>", "<x2/>", "<g3>", "</g3>", "<x4/>"] {
                        assert_eq!(text.matches(tag).count(), once.matches(tag).count(), "({language}) {text:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_user_documentation_lists_every_mechanical_rule() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/style-rules.md");
        let page = std::fs::read_to_string(path).expect("docs/style-rules.md is readable");
        for (category, rule, _) in mechanical_options() {
            let row = page.lines().any(|line| {
                line.starts_with(&format!("| `{category}` | "))
                    && line.split(" | ").nth(1).is_some_and(|rules| rules.contains(&format!("`{rule}`")))
            });
            assert!(row, "docs/style-rules.md has no row for {category}.{rule}");
        }
    }

    #[test]
    fn urls_addresses_versions_and_ip_addresses_are_never_touched() {
        let every_rule = mechanical_options();
        let untouchable = [
            "https://example.com/a-b/1.000,5?q=x&y=it's-1...2",
            "ana.b@example.co.uk",
            "1.2.3",
            "192.168.0.1",
            "v2.10",
            "`a \"b\" 1,000`",
            "{count}",
        ];
        for (category, rule, option) in every_rule {
            for language in LANGUAGES {
                for text in untouchable {
                    let rules = [(category, rule, option)];
                    assert_eq!(rewrite(&rules, language, text), text, "{category}.{rule}: {option} ({language})");
                }
            }
        }
    }
}
