//! English grammar and spelling: Harper's curated rules and dictionary, then our own confusion table
//! ([`super::confusions`]) for what Harper leaves alone.
//!
//! Harper's linter caches per document and so needs `&mut` to lint; one is kept per concurrent request in a
//! small pool (they share the one dictionary, and a new one costs milliseconds), so requests never wait for
//! each other's linting.

use std::sync::{Arc, Mutex, PoisonError};

use harper_core::linting::{Lint, LintGroup, LintKind, Linter, Suggestion};
use harper_core::spell::{Dictionary as _, FstDictionary};
use harper_core::{Dialect, Document, remove_overlaps};

use super::confusions;
use super::text::{edit_distance, has_inner_capital, is_all_caps};

/// Harper with its curated dictionary, and a pool of linters.
pub struct English {
    dictionary: Arc<FstDictionary>,
    idle: Mutex<Vec<LintGroup>>,
}

impl English {
    /// Loads Harper's dictionary and rules (about half a second in a release build) and lints once, so the
    /// first request does not pay for Harper's lazily built parts.
    pub fn load() -> English {
        let dictionary = FstDictionary::curated();
        let english = English { idle: Mutex::new(vec![new_linter(&dictionary)]), dictionary };
        english.harper("I has a apple.");
        english
    }

    /// Whether Harper's dictionary (every dialect) knows `word`.
    pub fn knows(&self, word: &str) -> bool {
        self.dictionary.contains_word_str(word)
    }

    /// `text` with Harper's fixes, then the confusion table's.
    pub fn correct(&self, text: &str) -> String {
        confusions::apply(&self.harper(text))
    }

    /// `text` with the first suggestion of each of Harper's lints that fix errors (not style), applied from
    /// the end backwards so that earlier spans stay valid; where lints overlap, Harper's `remove_overlaps`
    /// keeps one.
    fn harper(&self, text: &str) -> String {
        let document = Document::new_plain_english_curated(text);
        let source = document.get_source();
        let mut lints = self.with_linter(|linter| linter.lint(&document));
        lints.retain(|lint| self.fixes_an_error(lint, source));
        remove_overlaps(&mut lints);
        lints.sort_by_key(|lint| std::cmp::Reverse(lint.span.start));
        let mut chars = source.to_vec();
        for lint in lints {
            let span = lint.span;
            if span.start <= span.end
                && span.end <= chars.len()
                && let Some(suggestion) = chosen(&lint, &source[span.start..span.end])
            {
                suggestion.apply(span, &mut chars);
            }
        }
        chars.into_iter().collect()
    }

    /// Whether a lint corrects an error rather than suggesting a style, and is safe to apply unseen.
    fn fixes_an_error(&self, lint: &Lint, source: &[char]) -> bool {
        if lint.suggestions.is_empty() || lint.span.end > source.len() {
            return false;
        }
        match lint.lint_kind {
            // Choices between correct forms, not errors: they would change correct text.
            LintKind::Enhancement
            | LintKind::Readability
            | LintKind::Redundancy
            | LintKind::Regionalism
            | LintKind::Style
            | LintKind::Formatting => false,
            LintKind::Spelling => self.is_a_misspelling(lint, &source[lint.span.start..lint.span.end]),
            _ => true,
        }
    }

    /// A spelling lint is applied only for a word that no English dialect has (British "colour" stays in an
    /// American-dialect linter), that is not an acronym or a brand, and whose suggestion is close enough to be
    /// a correction rather than a guess (a name the dictionary lacks stays a name).
    fn is_a_misspelling(&self, lint: &Lint, word: &[char]) -> bool {
        let text: String = word.iter().collect();
        if self.dictionary.contains_word(word) || is_all_caps(&text) || has_inner_capital(&text) {
            return false;
        }
        let Some(Suggestion::ReplaceWith(replacement)) = chosen(lint, word) else {
            return false;
        };
        let replacement: String = replacement.iter().collect();
        edit_distance(&text, &replacement) <= 1 + word.len() / 3
    }

    fn with_linter<R>(&self, work: impl FnOnce(&mut LintGroup) -> R) -> R {
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let mut linter = idle.unwrap_or_else(|| new_linter(&self.dictionary));
        let result = work(&mut linter);
        self.idle.lock().unwrap_or_else(PoisonError::into_inner).push(linter);
        result
    }
}

/// The suggestion applied for a lint: Harper's first, except for a misspelling, where the closest
/// replacement wins and, between equally close ones, a single word over a split ("usefull" →
/// "useful", not "use full").
fn chosen<'l>(lint: &'l Lint, word: &[char]) -> Option<&'l Suggestion> {
    if lint.lint_kind != LintKind::Spelling {
        return lint.suggestions.first();
    }
    let word: String = word.iter().collect();
    lint.suggestions.iter().min_by_key(|suggestion| match suggestion {
        Suggestion::ReplaceWith(replacement) => {
            let replacement: String = replacement.iter().collect();
            (edit_distance(&word, &replacement), replacement.contains(' '))
        }
        _ => (usize::MAX, true),
    })
}

fn new_linter(dictionary: &Arc<FstDictionary>) -> LintGroup {
    // American spelling decides suggestions; other dialects' spellings are kept (see `is_a_misspelling`).
    LintGroup::new_curated(dictionary.clone(), Dialect::American)
}

#[cfg(test)]
mod tests {
    use crate::testing::english;

    #[test]
    fn fixes_grammar_and_spelling() {
        assert_eq!(
            english().correct("I has a apple. Their going too the store tomorow."),
            "I have an apple. They're going to the store tomorrow."
        );
        assert_eq!(english().correct("He could of gone."), "He could have gone.");
        assert_eq!(english().correct("She don't know where it is."), "She doesn't know where it is.");
        assert_eq!(english().correct("We recieved the package."), "We received the package.");
        assert_eq!(english().correct("This tool is very usefull."), "This tool is very useful.");
    }

    #[test]
    fn leaves_correct_text_and_other_dialects_alone() {
        for text in [
            "The committee approved the new budget yesterday, but several members raised concerns about transparency.",
            "The colour of the sky was grey, and the neighbours organised a party.",
            "NASA and the iPhone team met Mr. Schwarzenegger in Ohio.",
        ] {
            assert_eq!(english().correct(text), text);
        }
    }

    #[test]
    fn concurrent_requests_each_get_a_linter() {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4).map(|_| scope.spawn(|| english().correct("I has a apple."))).collect();
            for handle in handles {
                assert_eq!(handle.join().expect("no panic"), "I have an apple.");
            }
        });
    }
}
