//! Excel workbooks (being written).

use super::{Cut, FormatError, Tags};

/// How a xlsx file's pieces are translated.
pub(super) const TAGS: Tags = super::ooxml::TAGS;

pub(super) fn cut(_file: &[u8]) -> Result<Cut, FormatError> {
    Err(FormatError::NotYet("xlsx".into()))
}

pub(super) fn assemble(_file: &[u8], _outputs: &[String]) -> Result<Vec<u8>, FormatError> {
    Err(FormatError::NotYet("xlsx".into()))
}
