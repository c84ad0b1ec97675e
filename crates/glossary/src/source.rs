//! The glossary store as a translation's [`TermSource`]: the entries of the glossaries a
//! translate request names, read only as far as its texts need them.

use std::collections::BTreeSet;

use catalogue::Language;
use platform::{Database, Id};
use terms::{SourceError, Term, TermSource};

use crate::store::{LanguagePair, LookupError, Selection};

/// The entries of a translate request's glossaries, in the store.
pub struct Terms<'a> {
    db: &'a dyn Database,
    /// `None` when the request names no glossary.
    selection: Option<Selection>,
}

impl<'a> Terms<'a> {
    /// The glossaries `ids` (a translate request's `glossary_ids`: the request's source language
    /// is then known), of the subscription, each with a dictionary for the pair `source` →
    /// `target` (a dictionary for a base language serves its variants: EN for EN-GB). Unknown
    /// glossaries and other subscriptions' are [`LookupError::UnknownGlossary`], a glossary
    /// without the pair [`LookupError::NoDictionary`].
    pub fn resolve(
        db: &'a dyn Database,
        subscription_id: &str,
        ids: &[Id],
        source: Option<&Language>,
        target: &Language,
    ) -> Result<Terms<'a>, LookupError> {
        let selection = match source.filter(|_| !ids.is_empty()) {
            Some(source) => {
                let pair = LanguagePair::new(source.base_code(), target.base_code());
                Some(Selection::resolve(db, subscription_id, ids, &pair)?)
            }
            None => None,
        };
        Ok(Terms { db, selection })
    }
}

impl TermSource for Terms<'_> {
    fn terms_for(&self, keys: &BTreeSet<String>) -> Result<Vec<Term>, SourceError> {
        match &self.selection {
            Some(selection) => Ok(selection.entries_for(self.db, keys)?),
            None => Ok(Vec::new()),
        }
    }
}
