//! Scanned pages: which pages are scans (no text, an image drawn), and a page rendered to
//! pixels for OCR, both by Poppler run as bounded child processes.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::Path;

use crate::PdfError;
use crate::process::{failure_reason, run_tool};
use crate::read::Limits;

/// The resolution a page is rendered at for OCR, unless the page is so large that this would
/// pass [`MAX_PIXELS`] or [`MAX_SIDE`].
pub const OCR_DPI: f32 = 300.0;

/// The most pixels a rendered page may have (40 megapixels, as for an uploaded image).
pub const MAX_PIXELS: f32 = 40_000_000.0;

/// The widest or tallest a rendered page may be, in pixels.
pub const MAX_SIDE: f32 = 10_000.0;

/// A page rendered for OCR: a PNG, and its resolution (pixels per inch), so that a box in its
/// pixels is a box in points times `dpi / 72`, from the top-left corner of the page as
/// displayed (from its media box's top-left corner, rotated), as the boxes [`crate::read`] gives.
#[derive(Debug, Clone, PartialEq)]
pub struct Raster {
    pub png: Vec<u8>,
    pub dpi: f32,
}

/// How many images each page draws (1-based page numbers), from `pdfimages -list`. Masks
/// (`smask`, `stencil`) are not counted.
pub(crate) fn image_counts(dir: &Path, limits: &Limits) -> Result<BTreeMap<usize, usize>, PdfError> {
    let mut counts = BTreeMap::new();
    for listed in crate::images::list(dir, limits)?.into_iter().filter(|listed| !listed.stencil) {
        *counts.entry(listed.page as usize).or_default() += 1;
    }
    Ok(counts)
}

/// Renders page `page` (1-based) of `pdf` as a PNG for OCR, at [`OCR_DPI`] or less for a page
/// too large for that, with `pdfinfo` and `pdftoppm` as child processes within `limits`. An
/// encrypted or damaged file, or a page the PDF does not have, is an error.
///
/// Blocks while the tools run: call it from a blocking thread.
pub fn rasterise(pdf: &[u8], page: usize, limits: &Limits) -> Result<Raster, PdfError> {
    let dir = tempfile::tempdir().map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    std::fs::write(dir.path().join("input.pdf"), pdf).map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    let number = page.to_string();
    let info = crate::read::check_info(dir.path(), limits)?;
    if page == 0 || page as u64 > info.pages.unwrap_or(0) {
        return Err(PdfError::Unreadable(format!("it has no page {page}")));
    }
    let range = ["-f", &number, "-l", &number, "input.pdf"].map(OsStr::new);
    let output = run_tool("pdfinfo", &range, dir.path(), limits)?;
    let size = page_size(&output.stdout, page)
        .ok_or_else(|| PdfError::Unreadable(format!("the size of page {page} is missing")))?;
    let dpi = resolution(size);
    let resolution = format!("{dpi:.2}");
    let args =
        ["-r", &resolution, "-f", &number, "-l", &number, "-png", "-singlefile", "input.pdf", "page"].map(OsStr::new);
    let output = run_tool("pdftoppm", &args, dir.path(), limits)?;
    if !output.status.success() {
        return Err(PdfError::Unreadable(failure_reason(&output)));
    }
    let png =
        std::fs::read(dir.path().join("page.png")).map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    Ok(Raster { png, dpi: resolution.parse().unwrap_or(dpi) })
}

/// The width and height in points of page `page` in `pdfinfo -f N -l N`'s output (its `Page N
/// size: W x H pts` line): its media box, which is what is rendered.
fn page_size(text: &str, page: usize) -> Option<(f32, f32)> {
    let prefix = format!("Page {page} size:");
    text.lines().find_map(|line| {
        let compact = line.split_whitespace().collect::<Vec<_>>().join(" ");
        let rest = compact.strip_prefix(&prefix)?;
        let mut numbers = rest.split_whitespace();
        let width = numbers.next()?.parse::<f32>().ok()?;
        let _by = numbers.next()?;
        let height = numbers.next()?.parse::<f32>().ok()?;
        (width > 0.0 && height > 0.0).then_some((width, height))
    })
}

/// [`OCR_DPI`], lowered for a page whose rendering would pass [`MAX_PIXELS`] or [`MAX_SIDE`].
fn resolution((width, height): (f32, f32)) -> f32 {
    let (width, height) = (width / 72.0, height / 72.0);
    let by_pixels = (MAX_PIXELS / (width * height)).sqrt();
    let by_side = MAX_SIDE / width.max(height);
    OCR_DPI.min(by_pixels).min(by_side).max(1.0).floor()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_size_is_read_from_pdfinfo() {
        let info = "Pages:           3\nPage    2 size: 595.276 x 841.89 pts (A4)\nPage    2 rot:  0\n";
        assert_eq!(page_size(info, 2), Some((595.276, 841.89)));
        assert_eq!(page_size(info, 1), None);
    }

    #[test]
    fn large_pages_are_rendered_at_a_lower_resolution() {
        assert_eq!(resolution((595.0, 842.0)), 300.0, "A4");
        let a0 = resolution((2384.0, 3370.0));
        assert!(a0 < 300.0 && (2384.0 / 72.0 * a0) * (3370.0 / 72.0 * a0) <= MAX_PIXELS, "{a0}");
        let banner = resolution((72.0 * 200.0, 72.0));
        assert!(200.0 * banner <= MAX_SIDE, "{banner}");
    }
}
