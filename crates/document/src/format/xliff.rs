//! XLIFF 2 (being written).

use super::{Cut, FormatError, Tags};

/// How an XLIFF file's pieces are translated.
pub(super) const TAGS: Tags = Tags {
    handling: Some(markup::TagHandling::Xml),
    outline_detection: false,
    splitting_tags: &[],
    non_splitting_tags: &[],
    ignore_tags: &[],
};

pub(super) fn cut(_text: &str) -> Result<Cut, FormatError> {
    Err(FormatError::NotYet("xliff".into()))
}
