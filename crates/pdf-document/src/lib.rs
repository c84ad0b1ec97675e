//! PDF translation for Glossa's language-tools service.
//!
//! [`read`] gives the text layout of a PDF (its pages, their text blocks in reading order,
//! each with its lines, box and estimated font size), running Poppler's `pdfinfo` and
//! `pdftotext -bbox-layout` as child processes bounded in time and memory, so that a
//! malicious file ends as an error. A page without text that draws an image is marked as a
//! scan ([`Page::scanned`]); [`rasterise`] renders such a page for OCR, which the caller does.
//!
//! [`write`] takes the original PDF and the translation of each block, removes the original
//! text from every page (and from the Form XObjects the pages draw), keeps the images, vector
//! graphics and page sizes, and draws each translation in its block's box: word-wrapped,
//! shrunk down to 60 % when it does not fit, in fonts from [`Fonts`] embedded as subsets
//! (Type0, Identity-H, with widths and a /ToUnicode map, so the translation can be
//! extracted and searched). Text is shaped ([`shape`]: rustybuzz, a port of HarfBuzz, per run of
//! one script, face and direction), and right-to-left paragraphs are laid out with the Unicode
//! Bidirectional Algorithm and right-aligned.
//!
//! All data types serialise with serde, as they travel as JSON.

mod embed;
mod error;
mod fonts;
mod images;
mod layout;
mod process;
mod read;
mod scan;
#[cfg(test)]
mod script_tests;
pub mod shape;
mod typeset;
mod write;

pub use error::PdfError;
pub use fonts::{DEFAULT_FONT_PATHS, Fonts, is_rtl_language};
pub use images::{MAX_IMAGES_BYTES, MIN_IMAGE_PIXELS, PageImage, images};
pub use layout::{Block, LINE_HEIGHT_PER_FONT_SIZE, Layout, Line, Page};
pub use read::{Limits, read};
pub use scan::{OCR_DPI, Raster, rasterise};
pub use write::{BlockText, Cover, PageText, write};
