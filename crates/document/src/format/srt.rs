//! SubRip subtitles (being written).

use super::{Cut, FormatError};

pub(super) fn cut(_text: &str) -> Result<Cut, FormatError> {
    Err(FormatError::NotYet("srt".into()))
}
