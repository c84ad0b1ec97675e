//! The language-tools service: the language work whose models are too large to load per request, loaded
//! once in a native process and served to the Wasm components over local HTTP.
//!
//! * `detect`: language detection with lingua, in the catalogue's base codes.
//! * `correct`: spelling and grammar correction (Harper for English, Hunspell dictionaries for the other
//!   languages, rule-based checks for all).
//! * `ocr`: optical character recognition of PNG and JPEG images with the Tesseract command line, its
//!   output grouped into paragraphs, lines and words, the language picked by script and detection.
//! * `render`: painting translated paragraphs back over the recognised lines (sampled colours, wrapped
//!   text, TrueType fonts rasterised by ab_glyph).
//! * `pdf`: PDF translation with the sibling crate `pdf-document` (Poppler reads a PDF's text layout, the
//!   translated PDF is written with embedded subset fonts): the fonts loaded for it, whether Poppler is
//!   installed, and the base64 PDFs `/pdf/read` and `/pdf/write` take.
//! * `scan`: scanned PDF pages (`/pdf/ocr`): a page rendered by Poppler is read by OCR, and its
//!   paragraphs become blocks in points, with the line boxes `/pdf/write` paints over first.
//! * `picture`: the images `/ocr` and `/render` take: base64, PNG or JPEG by magic bytes, size checked from
//!   the header before decoding, and encoded back in the same format.
//! * `protocol`: the request and response documents of the HTTP protocol.
//! * `server`: the HTTP server (routes, secret, limits, worker pool).
//! * `error`: loading and correction errors.
//!
//! `main.rs` is the command line around them.

pub mod correct;
pub mod detect;
pub mod error;
pub mod ocr;
pub mod pdf;
pub mod picture;
pub mod protocol;
pub mod render;
pub mod scan;
pub mod server;

#[cfg(test)]
mod testing;

use std::path::{Path, PathBuf};

pub use correct::Corrector;
pub use detect::{Detection, Detector};
pub use ocr::Ocr;
pub use pdf::Pdf;
pub use render::Fonts;

/// The font files `/render` and `/pdf/write` draw with unless told otherwise: `pdf-document`'s
/// (Debian's fonts-dejavu-core, fonts-noto-cjk and fonts-noto-core: DejaVu Sans and its bold face,
/// Noto Sans CJK, and a Noto face for each script DejaVu lacks or draws badly). Missing files are
/// skipped.
pub const DEFAULT_FONTS: [&str; 22] = pdf_document::DEFAULT_FONT_PATHS;

/// Every model the service answers with.
pub struct Tools {
    pub detector: Detector,
    pub corrector: Corrector,
    /// Tesseract and its installed language packs (none when it is not installed).
    pub ocr: Ocr,
    /// The fonts `/render` draws with (none when no file could be read).
    pub fonts: Fonts,
    /// PDF translation: the fonts `/pdf/write` draws with and whether Poppler is installed.
    pub pdf: Pdf,
}

impl Tools {
    /// Loads the detector beside the corrector, the fonts and the list of Tesseract's packs (they are
    /// independent, and the first two take seconds). Tesseract is looked up in `PATH`. PDFs are drawn
    /// with the same `fonts` and [`pdf::BOLD_FONT`] when it is installed (each file read once more, by
    /// `pdf-document`).
    pub fn load(dictionaries: &Path, fonts: &[PathBuf]) -> Tools {
        std::thread::scope(|scope| {
            let detector = scope.spawn(Detector::load);
            let ocr = scope.spawn(|| Ocr::load(Path::new("tesseract")));
            let pdf = scope.spawn(|| Pdf::load(&pdf::font_paths(fonts)));
            let fonts = scope.spawn(|| Fonts::load(fonts));
            let corrector = Corrector::load(dictionaries);
            let detector = detector.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let ocr = ocr.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let fonts = fonts.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let pdf = pdf.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            Tools { detector, corrector, ocr, fonts, pdf }
        })
    }

    /// The language of `text`: lingua's, with the correction dictionaries settling short texts; with
    /// `among`, only those languages compete (see [`Detector::detect`]).
    pub fn detect(&self, text: &str, among: Option<&[String]>) -> Detection {
        self.detector.detect(text, &self.corrector, among)
    }
}
