//! PDFs: their text layout read, and the translated PDF written, by the language-tools service
//! ([`LayoutTools`](super::LayoutTools)), which runs Poppler and embeds the fonts.
//!
//! At upload only the file's signature is checked here; then the service reads its text blocks
//! ([`cut_layout`], at upload, so that the characters are counted and reserved like every other
//! type's): one kept piece, the [`Layout`] of every page's blocks (their boxes and font sizes,
//! as JSON), then one piece to translate per block. The translated PDF is written from those
//! ([`write_request`]): each page's text is replaced by its blocks' translations, in their boxes,
//! given the room around them ([`widen`]): a one-line block (a heading, a closing line) the
//! width of its column, so that a longer translation wraps at the column's edge rather than at
//! the end of the line it replaces, and every block one more line below, up to the next block,
//! before the writer shrinks the text.

use engines::language_tools::{PdfBlock, PdfCover, PdfLayout, PdfPageText, ScannedPage};
use serde::{Deserialize, Serialize};

use super::{Cut, Format, FormatError, corrupt};

/// Where a PDF's blocks are: per page, its blocks with their boxes and font sizes (no text), and
/// which pages are scans, read later. Its first piece.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    pub pages: Vec<Vec<PdfBlock>>,
    /// The scanned pages (counted from 0), in order: each is read by OCR in the first worker and
    /// adds its own [`ScannedLayout`] and blocks after the others ([`cut_scanned`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scanned: Vec<usize>,
}

/// A scanned page once read: its blocks' boxes and font sizes (no text), and the covers that
/// paint over its lines. The first of its pieces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScannedLayout {
    /// The page, counted from 0.
    pub page: usize,
    pub blocks: Vec<PdfBlock>,
    pub covers: Vec<PdfCover>,
}

/// The characters a scanned page counts for, billed at upload, before its text is read: about
/// a page of text.
pub const SCANNED_PAGE_CHARACTERS: i64 = 2_000;

/// Checks an uploaded PDF's signature (within its first KiB, as readers allow). Its pieces come
/// from the service.
pub(super) fn check(file: &[u8]) -> Result<Cut, FormatError> {
    let head = &file[..file.len().min(1024)];
    if !head.windows(5).any(|window| window == b"%PDF-") {
        return Err(corrupt(Format::Pdf, "it is not a PDF file"));
    }
    Ok(Cut::new())
}

/// The pieces of a PDF the service has read: its [`Layout`], kept, then each block's text, page
/// by page. Blocks without text are left out. Scanned pages are only listed, to be read by OCR
/// later, and count [`SCANNED_PAGE_CHARACTERS`] each. A PDF with neither text nor a scanned
/// page has nothing to translate.
pub fn cut_layout(read: &PdfLayout) -> Result<Cut, FormatError> {
    let pages: Vec<Vec<&PdfBlock>> = read
        .pages
        .iter()
        .map(|page| page.blocks.iter().filter(|block| !block.text.trim().is_empty()).collect())
        .collect();
    let scanned: Vec<usize> = read
        .pages
        .iter()
        .zip(&pages)
        .enumerate()
        .filter(|(_, (page, blocks))| page.scanned && blocks.is_empty())
        .map(|(number, _)| number)
        .collect();
    if pages.iter().all(Vec::is_empty) && scanned.is_empty() {
        return Err(corrupt(Format::Pdf, "it has no text to translate: no page has text or a scanned image of text"));
    }
    let layout = Layout { pages: pages.iter().map(|blocks| without_text(blocks.iter().copied())).collect(), scanned };
    let mut cut = Cut::new();
    cut.push(false, &serde_json::to_string(&layout).expect("a layout is JSON"));
    for block in pages.iter().flatten() {
        let text = block.text.trim();
        cut.push(true, text);
        cut.characters += text.chars().count() as i64;
    }
    cut.characters += SCANNED_PAGE_CHARACTERS * layout.scanned.len() as i64;
    Ok(cut)
}

/// The pieces of scanned page `page` (counted from 0) as OCR read it: its [`ScannedLayout`],
/// kept, then each block's text.
pub fn cut_scanned(page: usize, read: &ScannedPage) -> Cut {
    let blocks: Vec<&PdfBlock> = read.blocks.iter().filter(|block| !block.text.trim().is_empty()).collect();
    let layout = ScannedLayout { page, blocks: without_text(blocks.iter().copied()), covers: read.covers.clone() };
    let mut cut = Cut::new();
    cut.push(false, &serde_json::to_string(&layout).expect("a layout is JSON"));
    for block in blocks {
        cut.push(true, block.text.trim());
    }
    cut
}

/// How many of `kept`'s scanned pages are read: its pieces kept as they are, in order (the
/// document's [`Layout`], then one [`ScannedLayout`] per page read). Answers the layout and the
/// pages left to read.
pub fn scans_left(kept: &[String]) -> Result<Vec<usize>, FormatError> {
    let (layout, read) = kept.split_first().ok_or_else(|| corrupt(Format::Pdf, "it was not read"))?;
    let layout: Layout =
        serde_json::from_str(layout).map_err(|error| corrupt(Format::Pdf, format!("its layout: {error}")))?;
    Ok(layout.scanned.get(read.len()..).unwrap_or_default().to_vec())
}

fn without_text<'b>(blocks: impl Iterator<Item = &'b PdfBlock>) -> Vec<PdfBlock> {
    blocks.map(|block| PdfBlock { text: String::new(), ..block.clone() }).collect()
}

/// The pages to write, from a PDF's pieces' outputs in order: its layout and each block's
/// translation, then each scanned page's layout and its blocks' translations.
pub fn write_request(outputs: &[String]) -> Result<Vec<PdfPageText>, FormatError> {
    let (layout, mut texts) = outputs.split_first().ok_or_else(|| corrupt(Format::Pdf, "it was not read"))?;
    let layout: Layout =
        serde_json::from_str(layout).map_err(|error| corrupt(Format::Pdf, format!("its layout: {error}")))?;
    let mut pages = Vec::with_capacity(layout.pages.len());
    for blocks in layout.pages {
        pages.push(PdfPageText { blocks: translated(blocks, &mut texts)?, covers: Vec::new() });
    }
    let mut read = 0;
    while let Some((scanned, rest)) = texts.split_first() {
        texts = rest;
        let scanned: ScannedLayout = serde_json::from_str(scanned)
            .map_err(|error| corrupt(Format::Pdf, format!("a scanned page's layout: {error}")))?;
        let page = pages
            .get_mut(scanned.page)
            .ok_or_else(|| corrupt(Format::Pdf, format!("it has no page {}", scanned.page + 1)))?;
        page.blocks = translated(scanned.blocks, &mut texts)?;
        page.covers = scanned.covers;
        read += 1;
    }
    if read != layout.scanned.len() {
        return Err(corrupt(Format::Pdf, format!("{read} of its {} scanned pages were read", layout.scanned.len())));
    }
    Ok(pages)
}

/// `blocks` with the next of `texts` as their translations, given the room around them.
fn translated(blocks: Vec<PdfBlock>, texts: &mut &[String]) -> Result<Vec<PdfBlock>, FormatError> {
    if texts.len() < blocks.len() {
        return Err(corrupt(Format::Pdf, format!("{} blocks, {} translations", blocks.len(), texts.len())));
    }
    let (these, rest) = texts.split_at(blocks.len());
    *texts = rest;
    let mut blocks: Vec<PdfBlock> =
        blocks.into_iter().zip(these).map(|(block, text)| PdfBlock { text: text.clone(), ..block }).collect();
    widen(&mut blocks);
    Ok(blocks)
}

/// The space kept between a block given more room and the blocks around it (points).
const GAP: f64 = 4.0;

/// A line's height for a font size, as the writer sets lines.
const LINE_HEIGHT: f64 = 1.2;

/// Gives each block the room around it. A block of one line moves its right edge to its
/// column's: the rightmost edge of the blocks above or below it that share some of its width,
/// but never closer than [`GAP`] to a block beside it (one that shares some of its height). Every
/// block may then take one more line below, but never closer than [`GAP`] to the next block
/// that shares its width. A heading or a closing line gets the width of the paragraphs around
/// it; blocks of several lines (paragraphs, a table's cells read as one block) keep their width,
/// and nothing reaches far into space that may hold a picture.
pub fn widen(blocks: &mut [PdfBlock]) {
    let boxes = blocks.to_vec();
    for (index, block) in blocks.iter_mut().enumerate() {
        let others: Vec<&PdfBlock> =
            boxes.iter().enumerate().filter(|(other, _)| *other != index).map(|(_, other)| other).collect();
        let beside = |other: &PdfBlock| other.y_min < block.y_max && other.y_max > block.y_min;
        if block.y_max - block.y_min < 2.0 * block.font_size {
            let mut right = block.x_max;
            for other in others.iter().filter(|other| !beside(other)) {
                if other.x_min < block.x_max && other.x_max > block.x_min {
                    right = right.max(other.x_max);
                }
            }
            for other in others.iter().filter(|other| beside(other) && other.x_min >= block.x_max) {
                right = right.min(other.x_min - GAP);
            }
            block.x_max = right.max(block.x_max);
        }
        let mut bottom = block.y_max + LINE_HEIGHT * block.font_size;
        for other in others.iter().filter(|other| other.y_min >= block.y_max) {
            if other.x_min < block.x_max && other.x_max > block.x_min {
                bottom = bottom.min(other.y_min - GAP);
            }
        }
        block.y_max = bottom.max(block.y_max);
    }
}

#[cfg(test)]
mod tests {
    use engines::language_tools::PdfPage;

    use super::*;

    fn page(blocks: Vec<PdfBlock>) -> PdfPage {
        PdfPage { blocks, scanned: false }
    }

    fn block(text: &str, top: f64) -> PdfBlock {
        PdfBlock { text: text.into(), font_size: 12.0, x_min: 72.0, y_min: top, x_max: 520.0, y_max: top + 30.0 }
    }

    #[test]
    fn only_a_file_with_the_pdf_signature_is_taken() {
        assert_eq!(Format::of_file_name("Report.PDF"), Ok(Format::Pdf));
        assert!(Format::Pdf.cut(b"%PDF-1.7\n%\xe2\xe3\n1 0 obj", "de").unwrap().pieces.is_empty());
        assert!(Format::Pdf.cut(b"\xef\xbb\xbf  %PDF-1.4", "de").is_ok(), "a few bytes before the signature");
        let refused = Format::Pdf.cut(b"PK\x03\x04 a zip", "de").unwrap_err();
        assert!(refused.to_string().contains("not a PDF file"), "{refused}");
    }

    #[test]
    fn a_read_pdf_is_cut_into_its_layout_and_blocks_page_by_page_and_written_back() {
        let read = PdfLayout {
            pages: vec![
                page(vec![block("Quarterly report", 72.0), block(" ", 110.0), block("Sales grew.", 150.0)]),
                page(vec![]),
                page(vec![block("Thank you.", 72.0)]),
            ],
        };
        let cut = cut_layout(&read).unwrap();
        let texts: Vec<&str> =
            cut.pieces.iter().filter(|piece| piece.translate).map(|piece| piece.text.as_str()).collect();
        assert_eq!(texts, ["Quarterly report", "Sales grew.", "Thank you."]);
        assert_eq!(cut.characters, 16 + 11 + 10);
        let mut outputs = vec![cut.pieces[0].text.clone()];
        outputs.extend(["Quartalsbericht", "Der Umsatz wuchs.", "Danke."].map(str::to_owned));
        let pages = write_request(&outputs).unwrap();
        assert_eq!(pages.len(), 3, "every page, the empty one too");
        let room = |mut block: PdfBlock, bottom| {
            block.y_max = bottom;
            block
        };
        assert_eq!(
            pages[0].blocks,
            [room(block("Quartalsbericht", 72.0), 116.4), room(block("Der Umsatz wuchs.", 150.0), 194.4)],
            "a line more below"
        );
        assert!(pages[1].blocks.is_empty());
        assert_eq!(pages[2].blocks, [room(block("Danke.", 72.0), 116.4)]);
        assert!(write_request(&outputs[..3]).is_err(), "a translation missing");
        assert!(write_request(&[]).is_err(), "never read");
    }

    #[test]
    fn a_line_is_widened_to_its_column_but_not_over_a_block_beside_it_and_blocks_get_a_line_below() {
        let boxed = |x_min, y_min, x_max, y_max| PdfBlock { x_min, y_min, x_max, y_max, ..block("", 0.0) };
        let mut page = [
            boxed(72.0, 72.0, 200.0, 86.0),    // a heading
            boxed(72.0, 100.0, 520.0, 160.0),  // a paragraph across the column
            boxed(72.0, 170.0, 150.0, 184.0),  // a short closing line
            boxed(300.0, 168.0, 400.0, 186.0), // and a block beside it
            boxed(72.0, 300.0, 160.0, 340.0),  // a table's cells, as one block of three lines
        ];
        widen(&mut page);
        let right: Vec<f64> = page.iter().map(|block| block.x_max).collect();
        assert_eq!(right, [520.0, 520.0, 296.0, 520.0, 160.0]);
        let bottom: Vec<f64> = page.iter().map(|block| block.y_max).collect();
        assert_eq!(bottom, [96.0, 164.0, 198.4, 200.4, 354.4]);
    }

    #[test]
    fn a_pdf_without_text_or_a_scan_is_refused() {
        let blank = PdfLayout { pages: vec![page(vec![]), page(vec![block("  ", 72.0)])] };
        let refused = cut_layout(&blank).unwrap_err();
        assert!(refused.to_string().contains("no text to translate"), "{refused}");
    }

    #[test]
    fn scanned_pages_are_listed_counted_read_later_and_written_with_their_covers() {
        let scan = |blocks| PdfPage { blocks, scanned: true };
        let read =
            PdfLayout { pages: vec![scan(vec![]), page(vec![block("Contents", 72.0)]), scan(vec![]), page(vec![])] };
        let cut = cut_layout(&read).unwrap();
        assert_eq!(cut.characters, 8 + 2 * SCANNED_PAGE_CHARACTERS, "two scanned pages, counted before they are read");
        let layout = cut.pieces[0].text.clone();
        assert_eq!(scans_left(std::slice::from_ref(&layout)).unwrap(), [0, 2]);

        let cover = PdfCover { x_min: 70.0, y_min: 70.0, x_max: 300.0, y_max: 90.0, colour: [250, 245, 230] };
        let ocr = |text: &str| ScannedPage {
            language: "en".into(),
            blocks: vec![block(text, 72.0), block(" ", 200.0)],
            covers: vec![cover],
        };
        let first = cut_scanned(0, &ocr("Scanned report"));
        let texts: Vec<&str> =
            first.pieces.iter().filter(|piece| piece.translate).map(|piece| piece.text.as_str()).collect();
        assert_eq!(texts, ["Scanned report"], "the empty block is left out");
        assert_eq!(scans_left(&[layout.clone(), first.pieces[0].text.clone()]).unwrap(), [2]);
        let third = cut_scanned(2, &ocr("Last page"));

        let mut outputs = vec![layout.clone(), "Inhalt".to_owned()];
        outputs.extend([first.pieces[0].text.clone(), "Gescannter Bericht".to_owned()]);
        let pages_read_so_far = outputs.clone();
        outputs.extend([third.pieces[0].text.clone(), "Letzte Seite".to_owned()]);
        let pages = write_request(&outputs).unwrap();
        let texts: Vec<Vec<&str>> =
            pages.iter().map(|page| page.blocks.iter().map(|block| block.text.as_str()).collect()).collect();
        assert_eq!(texts, [vec!["Gescannter Bericht"], vec!["Inhalt"], vec!["Letzte Seite"], vec![]]);
        assert_eq!((pages[0].covers.as_slice(), pages[1].covers.as_slice()), (&[cover][..], &[][..]));
        let missing = write_request(&pages_read_so_far).unwrap_err();
        assert!(missing.to_string().contains("1 of its 2 scanned pages were read"), "{missing}");
    }
}
