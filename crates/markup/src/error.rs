//! The crate's errors: one for input a client sent (a 400), one for a caller's mistake.

use std::fmt;

/// Why a text sent with `tag_handling=xml` cannot be read, and where.
///
/// The message names the problem and its byte offset in the text, e.g.
/// `Invalid XML at byte 12: end tag </b> does not match the start tag <i> at byte 3`, so it can
/// be answered as a 400 as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Invalid XML at byte {offset}: {problem}")]
pub struct MarkupError {
    /// Byte offset in the text where the problem starts.
    pub offset: usize,
    pub problem: XmlProblem,
}

/// What is wrong with an XML text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XmlProblem {
    /// An end tag closes an element other than the innermost open one.
    MismatchedEndTag { expected: String, found: String, opened_at: usize },
    /// An end tag with no open element.
    UnmatchedEndTag { name: String },
    /// A start tag whose element is still open at the end of the text.
    UnclosedElement { name: String },
    /// `&name;` for a name XML does not predefine.
    UnknownEntity { name: String },
    /// `&#…;` that is not a valid character.
    InvalidCharacterReference { reference: String },
    /// A malformed attribute (no quotes, no value, given twice).
    InvalidAttribute { detail: String },
    /// Anything else the XML reader rejected (an unclosed tag, comment or CDATA section, a lone
    /// `&` or `<`), in the reader's words.
    Syntax { detail: String },
}

impl fmt::Display for XmlProblem {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XmlProblem::MismatchedEndTag { expected, found, opened_at } => {
                write!(formatter, "end tag </{found}> does not match the start tag <{expected}> at byte {opened_at}")
            }
            XmlProblem::UnmatchedEndTag { name } => write!(formatter, "end tag </{name}> has no start tag"),
            XmlProblem::UnclosedElement { name } => write!(formatter, "start tag <{name}> is never closed"),
            XmlProblem::UnknownEntity { name } => write!(formatter, "unknown entity &{name};"),
            XmlProblem::InvalidCharacterReference { reference } => {
                write!(formatter, "invalid character reference &{reference};")
            }
            XmlProblem::InvalidAttribute { detail } => write!(formatter, "invalid attribute: {detail}"),
            XmlProblem::Syntax { detail } => formatter.write_str(detail),
        }
    }
}

/// Results handed to `Markup::render` that do not fit the units: a bug in the caller, not in the
/// client's request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("{found} results for {expected} units")]
    WrongNumberOfResults { expected: usize, found: usize },
    #[error("the translation of unit {unit} does not keep its placeholders")]
    PlaceholdersNotKept { unit: usize },
    #[error("{found} pieces for the {expected} pieces of unit {unit}")]
    WrongNumberOfPieces { unit: usize, expected: usize, found: usize },
}
