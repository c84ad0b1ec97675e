//! Where a translation finds the style rule list its request names (`style_id`): the
//! [`StyleSource`] the style rule store implements, and what it answers.

use catalogue::Language;
use platform::Id;

use crate::configured::ConfiguredRules;

/// Why a source could not answer: its store failed.
pub type SourceError = Box<dyn std::error::Error + Send + Sync>;

/// A style rule list, as a translation applies it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleRules {
    /// The language the list is written for: a base language.
    pub language: &'static Language,
    pub rules: ConfiguredRules,
    /// In the list's order.
    pub instructions: Vec<CustomInstruction>,
}

/// A custom instruction, as a translation applies it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomInstruction {
    pub prompt: String,
    /// Only for texts in this source language; `None`: for every text.
    pub source_language: Option<&'static Language>,
}

/// Where a translation finds the style rule list its request names.
pub trait StyleSource {
    /// The caller's list `id`, in full; `None` when the caller has none by that id.
    fn style_rules(&self, id: &Id) -> Result<Option<StyleRules>, SourceError>;
}

/// No style rule lists: every id names nothing.
pub struct NoStyleRules;

impl StyleSource for NoStyleRules {
    fn style_rules(&self, _: &Id) -> Result<Option<StyleRules>, SourceError> {
        Ok(None)
    }
}
