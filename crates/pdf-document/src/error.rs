//! The one error type of the crate.

/// Why a PDF could not be read or written. The messages are meant for the person who uploaded
/// the file: they name no path and nothing of the machine.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// The PDF has an encryption dictionary, with or without a user password.
    #[error("the PDF is encrypted: remove its password and protection, then upload it again")]
    Encrypted,
    /// The PDF's page tree holds no page.
    #[error("the PDF has no pages")]
    NoPages,
    /// The PDF has more pages than the limits allow.
    #[error("the PDF has {pages} pages, more than the {max} allowed: split it into smaller files")]
    TooManyPages {
        /// The page count the PDF declares.
        pages: u64,
        /// The most pages allowed.
        max: u32,
    },
    /// The PDF is damaged or not a PDF at all.
    #[error("the PDF cannot be read: {0}")]
    Unreadable(String),
    /// A reader took longer than its time limit (a very large or malicious file).
    #[error("the PDF took longer than {0} seconds to read: it is too large or damaged")]
    TimedOut(u64),
    /// A Poppler tool is not installed on this machine.
    #[error("the PDF tools are missing on the server ({0} from Poppler is not installed)")]
    ToolMissing(&'static str),
    /// A temporary file could not be written or read back.
    #[error("the server could not store a temporary file: {0}")]
    TempFile(String),
    /// None of the font files given to [`crate::Fonts::load`] could be read.
    #[error("no usable font file was found for drawing the translation")]
    NoFont,
    /// The translation names a page the PDF does not have.
    #[error("the translation has {given} pages but the PDF has {expected}")]
    PageCount {
        /// Pages in the translation.
        given: usize,
        /// Pages in the PDF.
        expected: usize,
    },
    /// The translated PDF could not be built.
    #[error("the translated PDF cannot be written: {0}")]
    Write(String),
}
