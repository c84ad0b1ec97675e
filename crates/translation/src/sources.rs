//! Where a translation finds what its request names by id: the entries of its glossaries, its
//! style rule list, its translation memory.
//!
//! Each is a trait that a store implements, defined beside the data it serves so that the store
//! needs nothing of the pipeline: [`TermSource`] in `terms` (the glossary store), [`StyleSource`]
//! in `stylebook` (the style rule store), [`MemorySource`] in `memory-match` (the translation
//! memory store). So this crate knows no store. Their `No…` values answer where a request names
//! nothing, and in tests.

pub use memory_match::{Memory, MemoryMatch, MemorySource, NoMemories};
use platform::Id;
pub use stylebook::{CustomInstruction, NoStyleRules, StyleRules, StyleSource};
pub use terms::{NoGlossary, SourceError, Term, TermSource};

use crate::request::TranslateRequest;
use crate::work::TranslateError;

/// The sources of one translation.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    pub terms: &'a dyn TermSource,
    pub styles: &'a dyn StyleSource,
    pub memories: &'a dyn MemorySource,
}

impl<'a> Sources<'a> {
    /// `terms` only: the request names no style rule list and no translation memory (one that
    /// does is answered 404).
    pub fn with_terms(terms: &'a dyn TermSource) -> Sources<'a> {
        Sources { terms, styles: &NoStyleRules, memories: &NoMemories }
    }
}

/// What a request names by id besides its glossaries, once checked.
pub(crate) struct Named {
    /// The style rule list, read in full.
    pub style: Option<StyleRules>,
    /// The translation memory's id, known to hold the target.
    pub memory: Option<Id>,
}

/// Checks that the style rule list and the translation memory the request names are the
/// caller's (404 otherwise) and fit its target: the list's language is the target's base
/// language (400), the memory holds the target (404, as the API answers it).
pub(crate) fn check_named(request: &TranslateRequest, sources: &Sources<'_>) -> Result<Named, TranslateError> {
    let target = request.target;
    let style = match request.style_id {
        Some(id) => {
            let rules = sources.styles.style_rules(&id).map_err(TranslateError::Source)?;
            let rules = rules.ok_or(TranslateError::StyleNotFound(id))?;
            if rules.language.base_code() != target.base_code() {
                return Err(TranslateError::StyleLanguage { list: rules.language.code(), target: target.code() });
            }
            Some(rules)
        }
        None => None,
    };
    if let Some(id) = request.translation_memory_id {
        let memory = sources.memories.memory(&id).map_err(TranslateError::Source)?;
        let memory = memory.ok_or(TranslateError::MemoryNotFound(id))?;
        if !memory.targets.iter().any(|held| *held == target || *held == target.base()) {
            return Err(TranslateError::MemoryTarget { id, target: target.code() });
        }
    }
    Ok(Named { style, memory: request.translation_memory_id })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::request;

    /// Stores that hold one style rule list and one translation memory, both for German.
    struct Held;

    const HELD: &str = "def3a26b-3e84-45b3-84ae-0c0aaf3525f7";

    impl StyleSource for Held {
        fn style_rules(&self, id: &Id) -> Result<Option<StyleRules>, SourceError> {
            Ok((id.to_string() == HELD).then(|| StyleRules {
                language: catalogue::find("de").unwrap(),
                rules: Default::default(),
                instructions: Vec::new(),
            }))
        }
    }

    impl MemorySource for Held {
        fn memory(&self, id: &Id) -> Result<Option<Memory>, SourceError> {
            Ok((id.to_string() == HELD).then(|| Memory { targets: vec![catalogue::find("de").unwrap()] }))
        }

        fn lookup(
            &self,
            _: &Id,
            _: &'static catalogue::Language,
            segments: &[String],
            _: u8,
            _: bool,
        ) -> Result<Vec<Option<MemoryMatch>>, SourceError> {
            Ok(segments.iter().map(|_| None).collect())
        }
    }

    fn check(json: &str, styles: &dyn StyleSource, memories: &dyn MemorySource) -> Result<(), TranslateError> {
        check_named(&request(json), &Sources { terms: &NoGlossary, styles, memories }).map(|_| ())
    }

    #[test]
    fn without_stores_every_named_list_and_memory_is_unknown() {
        let style = check(
            &format!(r#"{{"text": ["a"], "target_lang": "DE", "style_id": "{HELD}"}}"#),
            &NoStyleRules,
            &NoMemories,
        );
        assert_eq!(style.unwrap_err().to_string(), format!("Style rule list {HELD} not found."));
        let memory = check(
            &format!(r#"{{"text": ["a"], "target_lang": "DE", "translation_memory_id": "{HELD}"}}"#),
            &NoStyleRules,
            &NoMemories,
        );
        assert_eq!(memory.unwrap_err().to_string(), format!("Translation memory {HELD} not found."));
        assert!(check(r#"{"text": ["a"], "target_lang": "DE"}"#, &NoStyleRules, &NoMemories).is_ok());
    }

    #[test]
    fn a_style_rule_list_applies_to_its_language_and_its_variants_only() {
        for target in ["DE", "DE-CH"] {
            let json = format!(r#"{{"text": ["a"], "target_lang": "{target}", "style_id": "{HELD}"}}"#);
            assert!(check(&json, &Held, &NoMemories).is_ok(), "{target}");
        }
        let french =
            check(&format!(r#"{{"text": ["a"], "target_lang": "FR", "style_id": "{HELD}"}}"#), &Held, &NoMemories);
        assert!(matches!(french, Err(TranslateError::StyleLanguage { list: "DE", target: "FR" })), "{french:?}");
        let other = "0b7a2c2e-75a4-4c4e-9a77-0d3a1c5e6f01";
        let unknown =
            check(&format!(r#"{{"text": ["a"], "target_lang": "DE", "style_id": "{other}"}}"#), &Held, &NoMemories);
        assert!(matches!(unknown, Err(TranslateError::StyleNotFound(_))));
    }

    #[test]
    fn a_translation_memory_serves_the_targets_it_holds() {
        let json = |target: &str| {
            format!(r#"{{"text": ["a"], "target_lang": "{target}", "translation_memory_id": "{HELD}"}}"#)
        };
        assert!(check(&json("DE"), &NoStyleRules, &Held).is_ok());
        let french = check(&json("FR"), &NoStyleRules, &Held).unwrap_err();
        assert_eq!(french.to_string(), format!("Translation Memory {HELD} does not support the target language FR"));
    }
}
