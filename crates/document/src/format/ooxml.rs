//! What the office packages share (being written).

use super::Tags;

/// How an office part's paragraphs are translated.
pub(super) const TAGS: Tags = Tags {
    handling: Some(markup::TagHandling::Xml),
    outline_detection: false,
    splitting_tags: &[],
    non_splitting_tags: &[],
    ignore_tags: &[],
};
