//! Where a translation finds a glossary's entries: the [`TermSource`] a glossary store
//! implements and the translation pipeline reads (and re-exports as its own).

use std::collections::BTreeSet;

/// Why a source could not answer (its store failed).
pub type SourceError = Box<dyn std::error::Error + Send + Sync>;

/// A glossary entry: a source term and the target term it must become.
pub type Term = (String, String);

/// Where a translation finds the glossary entries of its request's glossaries.
///
/// A glossary may hold 100,000 entries; a translation asks only for those whose source term
/// starts with one of `keys` (the [`crate::first_key`] of every place a term could start in its
/// texts, see [`crate::text_keys`]), which are all that can match.
pub trait TermSource {
    fn terms_for(&self, keys: &BTreeSet<String>) -> Result<Vec<Term>, SourceError>;
}

/// No glossary: the request named none.
pub struct NoGlossary;

impl TermSource for NoGlossary {
    fn terms_for(&self, _: &BTreeSet<String>) -> Result<Vec<Term>, SourceError> {
        Ok(Vec::new())
    }
}
