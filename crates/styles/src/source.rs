//! The style rule store as a translation's [`StyleSource`]: the list a translate request names,
//! read in full, within the caller's subscription.

use platform::{Database, Id};
use stylebook::{CustomInstruction, SourceError, StyleRules, StyleSource};

use crate::store::{self, StyleError};

/// The caller's style rule lists, in the store.
pub struct Styles<'a> {
    db: &'a dyn Database,
    subscription_id: &'a str,
}

impl<'a> Styles<'a> {
    pub fn new(db: &'a dyn Database, subscription_id: &'a str) -> Styles<'a> {
        Styles { db, subscription_id }
    }
}

impl StyleSource for Styles<'_> {
    fn style_rules(&self, id: &Id) -> Result<Option<StyleRules>, SourceError> {
        let list = match store::get(self.db, self.subscription_id, id) {
            Ok(list) => list,
            Err(StyleError::NotFound) => return Ok(None),
            Err(error) => return Err(error.into()),
        };
        let language = catalogue::find(&list.language)
            .ok_or_else(|| format!("style rule list {id} has the unknown language '{}'", list.language))?;
        let details = list.details.ok_or("a style rule list read in full has its details")?;
        let instructions = details
            .instructions
            .into_iter()
            .map(|instruction| CustomInstruction {
                prompt: instruction.prompt,
                source_language: instruction.source_language.as_deref().and_then(catalogue::find),
            })
            .collect();
        Ok(Some(StyleRules { language, rules: details.rules, instructions }))
    }
}
