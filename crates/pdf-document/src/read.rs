//! Reading: `pdfinfo` checks the file, `pdftotext -bbox-layout` gives the text layout.

use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

use crate::PdfError;
use crate::layout::{Layout, parse_bbox_layout};
use crate::process::{ToolOutput, failure_reason, run_tool};

/// Bounds on the work a PDF may cause while it is read.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The most pages a PDF may have (default 1000).
    pub max_pages: u32,
    /// Wall-clock time each Poppler tool may take before it is killed (default 60 s).
    pub timeout: Duration,
    /// Address space each Poppler tool may use (default 1 GiB).
    pub max_memory_bytes: u64,
    /// The most bytes a tool may print or write (default 256 MiB).
    pub max_output_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_pages: 1000,
            timeout: Duration::from_secs(60),
            max_memory_bytes: 1 << 30,
            max_output_bytes: 256 << 20,
        }
    }
}

/// Reads the text layout of a PDF: its pages' sizes and their text blocks in reading order.
/// When a page has no text, `pdfimages -list` tells whether it draws an image: a scan
/// ([`crate::Page::scanned`]).
///
/// Poppler's `pdfinfo` and `pdftotext` run as child processes within `limits`. This blocks
/// for as long as they run: call it from a blocking thread (`tokio::task::spawn_blocking`).
pub fn read(pdf: &[u8], limits: &Limits) -> Result<Layout, PdfError> {
    if !pdf.starts_with(b"%PDF-") && !pdf.get(..1024).unwrap_or(pdf).windows(5).any(|w| w == b"%PDF-") {
        return Err(PdfError::Unreadable("it is not a PDF file".to_owned()));
    }
    let dir = tempfile::tempdir().map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    let input = dir.path().join("input.pdf");
    std::fs::write(&input, pdf).map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    check_info(dir.path(), limits)?;
    let xhtml = extract_layout(dir.path(), limits)?;
    let mut layout = parse_bbox_layout(&xhtml)?;
    if layout.pages.is_empty() {
        return Err(PdfError::NoPages);
    }
    // Poppler gives a page it could not find in a looping or broken page tree a size of zero.
    if layout.pages.iter().any(|page| page.width <= 0.0 || page.height <= 0.0) {
        return Err(PdfError::Unreadable("its page tree is damaged".to_owned()));
    }
    if !layout.pages.iter().all(|page| page.has_text()) {
        let images = crate::scan::image_counts(dir.path(), limits)?;
        for (number, page) in layout.pages.iter_mut().enumerate() {
            page.scanned = !page.has_text() && images.get(&(number + 1)).is_some_and(|&count| count > 0);
        }
    }
    Ok(layout)
}

/// Runs `pdfinfo` and refuses encrypted, empty, too long or unreadable PDFs.
pub(crate) fn check_info(dir: &Path, limits: &Limits) -> Result<Info, PdfError> {
    let output = run_tool("pdfinfo", &[OsStr::new("input.pdf")], dir, limits)?;
    if !output.status.success() {
        return Err(info_failure(&output));
    }
    let info = Info::parse(&output.stdout);
    if info.encrypted {
        return Err(PdfError::Encrypted);
    }
    match info.pages {
        None => Err(PdfError::Unreadable("its page count is missing".to_owned())),
        Some(0) => Err(PdfError::NoPages),
        Some(pages) if pages > u64::from(limits.max_pages) => {
            Err(PdfError::TooManyPages { pages, max: limits.max_pages })
        }
        Some(_) => Ok(info),
    }
}

/// Turns a failed `pdfinfo` into an error: a password prompt means encryption.
fn info_failure(output: &ToolOutput) -> PdfError {
    if output.stderr.contains("password") || output.stderr.contains("Encrypt") {
        PdfError::Encrypted
    } else {
        PdfError::Unreadable(failure_reason(output))
    }
}

/// The lines of `pdfinfo`'s output this crate needs.
pub(crate) struct Info {
    pub pages: Option<u64>,
    encrypted: bool,
}

impl Info {
    /// Reads the `Pages:` and `Encrypted:` lines. pdfinfo prints them after the document's
    /// metadata, so a later line wins: a title with line breaks cannot forge them.
    fn parse(text: &str) -> Info {
        let mut info = Info { pages: None, encrypted: false };
        for line in text.lines() {
            let Some((key, value)) = line.split_once(':') else { continue };
            match key.trim() {
                "Pages" => info.pages = value.trim().parse().ok(),
                "Encrypted" => info.encrypted = !value.trim().starts_with("no"),
                _ => {}
            }
        }
        info
    }
}

/// Runs `pdftotext -bbox-layout` and returns its XHTML.
fn extract_layout(dir: &Path, limits: &Limits) -> Result<String, PdfError> {
    let args = ["-bbox-layout", "-enc", "UTF-8", "input.pdf", "layout.html"].map(OsStr::new);
    let output = run_tool("pdftotext", &args, dir, limits)?;
    if !output.status.success() {
        return Err(PdfError::Unreadable(failure_reason(&output)));
    }
    let path = dir.join("layout.html");
    let bytes = std::fs::read(path).map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    String::from_utf8(bytes).map_err(|_| PdfError::Unreadable("its text is not valid UTF-8".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdfinfo_output_gives_pages_and_encryption() {
        let info = Info::parse("Producer: x\nPages:           12\nEncrypted:       yes (print:yes copy:no)\n");
        assert_eq!(info.pages, Some(12));
        assert!(info.encrypted);
        let info = Info::parse("Title: x\nPages: 0\nEncrypted: no\nPages: 3\nEncrypted: yes\n");
        assert_eq!(info.pages, Some(3));
        assert!(info.encrypted);
    }
}
