//! Where a translation finds what its request names by id: the entries of its glossaries, its
//! style rule list, its translation memory.
//!
//! Each is a trait that a store implements (the glossary store implements [`TermSource`], which
//! lives in the `terms` crate so that the store needs nothing of the pipeline; the style rule
//! and translation memory stores will implement [`StyleSource`] and [`MemorySource`]), so this
//! crate knows no store.
//! Until a store exists, its `No…` value answers: no style rule list or translation memory is
//! stored, so every id names nothing and answers 404.

use catalogue::Language;
use platform::Id;
pub use terms::{NoGlossary, SourceError, Term, TermSource};

use crate::request::TranslateRequest;
use crate::work::TranslateError;

/// A style rule list, as far as a translation checks it: its language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StyleRules {
    pub language: &'static Language,
}

/// Where a translation finds the style rule list its request names (`style_id`).
pub trait StyleSource {
    /// The caller's list `id`; `None` when the caller has none by that id.
    fn style_rules(&self, id: &Id) -> Result<Option<StyleRules>, SourceError>;
}

/// A translation memory, as far as a translation checks it: the target languages it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    pub targets: Vec<&'static Language>,
}

/// Where a translation finds the translation memory its request names (`translation_memory_id`).
pub trait MemorySource {
    /// The caller's memory `id`; `None` when the caller has none by that id.
    fn memory(&self, id: &Id) -> Result<Option<Memory>, SourceError>;
}

/// No style rule lists are stored: every id names nothing.
pub struct NoStyleRules;

impl StyleSource for NoStyleRules {
    fn style_rules(&self, _: &Id) -> Result<Option<StyleRules>, SourceError> {
        Ok(None)
    }
}

/// No translation memories are stored: every id names nothing.
pub struct NoMemories;

impl MemorySource for NoMemories {
    fn memory(&self, _: &Id) -> Result<Option<Memory>, SourceError> {
        Ok(None)
    }
}

/// The sources of one translation.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    pub terms: &'a dyn TermSource,
    pub styles: &'a dyn StyleSource,
    pub memories: &'a dyn MemorySource,
}

impl<'a> Sources<'a> {
    /// `terms`, and the stores that do not exist yet.
    pub fn with_terms(terms: &'a dyn TermSource) -> Sources<'a> {
        Sources { terms, styles: &NoStyleRules, memories: &NoMemories }
    }
}

/// Checks that the style rule list and the translation memory the request names are the
/// caller's (404 otherwise) and fit its target: the list's language is the target's base
/// language (400), the memory holds the target (404, as the API answers it).
pub(crate) fn check_named(request: &TranslateRequest, sources: &Sources<'_>) -> Result<(), TranslateError> {
    let target = request.target;
    if let Some(id) = request.style_id {
        let rules = sources.styles.style_rules(&id).map_err(TranslateError::Source)?;
        let rules = rules.ok_or(TranslateError::StyleNotFound(id))?;
        if rules.language.base_code() != target.base_code() {
            return Err(TranslateError::StyleLanguage { list: rules.language.code(), target: target.code() });
        }
    }
    if let Some(id) = request.translation_memory_id {
        let memory = sources.memories.memory(&id).map_err(TranslateError::Source)?;
        let memory = memory.ok_or(TranslateError::MemoryNotFound(id))?;
        if !memory.targets.iter().any(|held| *held == target || *held == target.base()) {
            return Err(TranslateError::MemoryTarget { id, target: target.code() });
        }
    }
    Ok(())
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
            Ok((id.to_string() == HELD).then(|| StyleRules { language: catalogue::find("de").unwrap() }))
        }
    }

    impl MemorySource for Held {
        fn memory(&self, id: &Id) -> Result<Option<Memory>, SourceError> {
            Ok((id.to_string() == HELD).then(|| Memory { targets: vec![catalogue::find("de").unwrap()] }))
        }
    }

    fn check(json: &str, styles: &dyn StyleSource, memories: &dyn MemorySource) -> Result<(), TranslateError> {
        check_named(&request(json), &Sources { terms: &NoGlossary, styles, memories })
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
