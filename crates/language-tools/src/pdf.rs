//! PDF translation (`/pdf/read`, `/pdf/write`) with the sibling crate `pdf-document`: what the service
//! loads once for it (the fonts a translation is drawn with, whether Poppler is installed) and the PDFs
//! the two paths take (standard base64 of a file that starts with `%PDF-`).

use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// The bold face of DejaVu Sans (Debian's fonts-dejavu-core): loaded for PDFs beside the `--fonts`
/// files when it is there, as a last fallback for characters the regular faces lack.
pub const BOLD_FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

/// What PDF translation needs, loaded at start-up.
pub struct Pdf {
    /// The faces translations are drawn with (`None` when no font file could be read: `/pdf/write`
    /// answers 503).
    pub fonts: Option<pdf_document::Fonts>,
    /// Whether Poppler's `pdftotext` was found (`/pdf/read` and `/pdf/write` answer 503 otherwise).
    pub available: bool,
}

impl Pdf {
    /// Loads the font files at `fonts` (missing or unreadable ones skipped) and looks for `pdftotext`
    /// in `PATH` and in `/usr/bin`.
    pub fn load(fonts: &[PathBuf]) -> Pdf {
        Pdf { fonts: pdf_document::Fonts::load(fonts).ok(), available: pdftotext_installed() }
    }

    /// The PostScript names of the loaded faces.
    pub fn font_names(&self) -> Vec<&str> {
        self.fonts.as_ref().map(pdf_document::Fonts::face_names).unwrap_or_default()
    }
}

/// The font files for PDFs: the `--fonts` list and [`BOLD_FONT`] after it, unless it is named already.
pub fn font_paths(fonts: &[PathBuf]) -> Vec<PathBuf> {
    let mut paths = fonts.to_vec();
    if !paths.iter().any(|path| path == Path::new(BOLD_FONT)) {
        paths.push(PathBuf::from(BOLD_FONT));
    }
    paths
}

/// Whether an executable `pdftotext` is in one of `PATH`'s directories or in `/usr/bin`.
pub fn pdftotext_installed() -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(std::iter::once(PathBuf::from("/usr/bin")))
        .any(|directory| is_executable(&directory.join("pdftotext")))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

/// Why a `pdf` field is refused: the message of a 400.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdfFieldError {
    #[error("Field 'pdf' is not valid base64")]
    Base64,
    #[error("Field 'pdf' is not a PDF file")]
    NotAPdf,
}

/// The bytes of the base64 text of a PDF file (line breaks inside the text are allowed). A PDF starts
/// with `%PDF-`; as PDF readers do, the header is also found after up to 1,024 bytes of leading junk.
pub fn decode(text: &str) -> Result<Vec<u8>, PdfFieldError> {
    let compact: String = text.chars().filter(|c| !matches!(c, '\n' | '\r')).collect();
    let bytes = STANDARD.decode(compact.trim()).map_err(|_| PdfFieldError::Base64)?;
    let head = &bytes[..bytes.len().min(1024)];
    if head.windows(5).any(|window| window == b"%PDF-") { Ok(bytes) } else { Err(PdfFieldError::NotAPdf) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_pdfs_and_refuses_the_rest() {
        let pdf = STANDARD.encode(b"%PDF-1.7\n...");
        assert_eq!(decode(&pdf), Ok(b"%PDF-1.7\n...".to_vec()));
        let wrapped = format!("{}\r\n{}\n", &pdf[..8], &pdf[8..]);
        assert_eq!(decode(&wrapped), Ok(b"%PDF-1.7\n...".to_vec()));
        assert_eq!(decode(&STANDARD.encode(b"junk\n%PDF-1.4\n")), Ok(b"junk\n%PDF-1.4\n".to_vec()));
        assert_eq!(decode("%%%"), Err(PdfFieldError::Base64));
        assert_eq!(decode(&STANDARD.encode(b"GIF89a")), Err(PdfFieldError::NotAPdf));
        assert_eq!(decode(""), Err(PdfFieldError::NotAPdf));
        let late = [vec![b' '; 1024], b"%PDF-1.4".to_vec()].concat();
        assert_eq!(decode(&STANDARD.encode(late)), Err(PdfFieldError::NotAPdf));
    }

    #[test]
    fn the_bold_face_is_added_once() {
        let given = vec![PathBuf::from("/a.ttf")];
        assert_eq!(font_paths(&given), [PathBuf::from("/a.ttf"), PathBuf::from(BOLD_FONT)]);
        let named = vec![PathBuf::from(BOLD_FONT)];
        assert_eq!(font_paths(&named), named);
    }

    #[test]
    fn finds_poppler_and_skips_missing_fonts() {
        assert!(pdftotext_installed(), "install poppler-utils");
        let pdf = Pdf::load(&[PathBuf::from("/nonexistent.ttf")]);
        assert!(pdf.fonts.is_none() && pdf.font_names().is_empty());
        let pdf = Pdf::load(&font_paths(&[PathBuf::from(crate::DEFAULT_FONTS[0]), PathBuf::from("/nonexistent.ttf")]));
        assert_eq!(pdf.font_names(), ["DejaVuSans", "DejaVuSans-Bold"]);
    }
}
