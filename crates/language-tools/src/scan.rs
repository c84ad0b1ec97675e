//! Scanned PDF pages (`/pdf/ocr`): a page rendered by `pdf_document::rasterise` is read by OCR as an
//! image is, and what was read becomes the page's text blocks, in points as `/pdf/read` gives them,
//! with the rectangles `/pdf/write` must paint over first: each line's box, in the colour around it,
//! since the scanned text is part of the page's picture.

use image::RgbaImage;
use pdf_document::Cover;
use serde::Serialize;

use crate::ocr::{Paragraph, Recognised};
use crate::render::{BoxSpec, sample};

/// How a line's ink height (an OCR line box, ascenders to descenders) compares to its font size.
pub const INK_PER_FONT_SIZE: f32 = 0.9;

/// How far a cover reaches past its line's box, as a fraction of the line's height: the glyphs'
/// anti-aliased edges and OCR boxes that clip a descender.
const COVER_MARGIN: f32 = 0.15;

/// A block read on a scanned page: a paragraph's text, its font size estimated from its lines'
/// heights, and the box of its lines, in points from the page's top-left corner.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScannedBlock {
    pub text: String,
    pub font_size: f32,
    pub x_min: f32,
    pub y_min: f32,
    pub x_max: f32,
    pub y_max: f32,
}

/// What `/pdf/ocr` answers: the language read in, the blocks, and the covers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScannedPage {
    pub language: &'static str,
    pub blocks: Vec<ScannedBlock>,
    pub covers: Vec<Cover>,
}

/// The blocks and covers of a page rendered at `dpi` (`image`, for the colours) that OCR read as
/// `recognised`. Paragraphs without text are left out.
pub fn scanned_page(recognised: Recognised, image: &RgbaImage, dpi: f32) -> ScannedPage {
    let to_points = 72.0 / dpi;
    let mut blocks = Vec::new();
    let mut covers = Vec::new();
    for paragraph in recognised.paragraphs.iter().filter(|paragraph| !paragraph.text.trim().is_empty()) {
        let boxes: Vec<BoxSpec> = paragraph
            .lines
            .iter()
            .map(|line| BoxSpec { left: line.left, top: line.top, width: line.width, height: line.height })
            .filter(|line| line.width > 0 && line.height > 0)
            .filter(|line| line.left + line.width <= image.width() && line.top + line.height <= image.height())
            .collect();
        if boxes.is_empty() {
            continue;
        }
        let background = sample(image, &boxes).background;
        let colour = [background[0], background[1], background[2]];
        for line in &boxes {
            let margin = line.height as f32 * COVER_MARGIN;
            covers.push(Cover {
                x_min: (line.left as f32 - margin).max(0.0) * to_points,
                y_min: (line.top as f32 - margin).max(0.0) * to_points,
                x_max: ((line.left + line.width) as f32 + margin).min(image.width() as f32) * to_points,
                y_max: ((line.top + line.height) as f32 + margin).min(image.height() as f32) * to_points,
                colour,
            });
        }
        blocks.push(block(paragraph, &boxes, to_points));
    }
    ScannedPage { language: recognised.language, blocks, covers }
}

/// A paragraph's block: the box around its lines, and a font size from their median height.
fn block(paragraph: &Paragraph, lines: &[BoxSpec], to_points: f32) -> ScannedBlock {
    let mut heights: Vec<u32> = lines.iter().map(|line| line.height).collect();
    heights.sort_unstable();
    let median = heights[heights.len() / 2] as f32;
    ScannedBlock {
        text: paragraph.text.trim().to_string(),
        font_size: (median * to_points / INK_PER_FONT_SIZE).max(1.0),
        x_min: lines.iter().map(|line| line.left).min().unwrap_or(0) as f32 * to_points,
        y_min: lines.iter().map(|line| line.top).min().unwrap_or(0) as f32 * to_points,
        x_max: lines.iter().map(|line| line.left + line.width).max().unwrap_or(0) as f32 * to_points,
        y_max: lines.iter().map(|line| line.top + line.height).max().unwrap_or(0) as f32 * to_points,
    }
}

#[cfg(test)]
mod tests {
    use image::Rgba;

    use super::*;
    use crate::ocr::Line;

    fn line(left: u32, top: u32, width: u32, height: u32, text: &str) -> Line {
        Line { text: text.into(), left, top, width, height, confidence: 90.0, words: vec![] }
    }

    #[test]
    fn paragraphs_become_blocks_in_points_and_lines_covers_in_the_paper_s_colour() {
        let mut image = RgbaImage::from_pixel(600, 400, Rgba([245, 240, 224, 255]));
        for x in 100..300 {
            for y in 100..130 {
                if (x + y) % 3 == 0 {
                    image.put_pixel(x, y, Rgba([20, 20, 20, 255]));
                }
            }
        }
        let recognised = Recognised {
            language: "en",
            paragraphs: vec![
                Paragraph {
                    text: "Hello scanned world and more".into(),
                    confidence: 90.0,
                    lines: vec![line(100, 100, 200, 30, "Hello scanned world"), line(100, 140, 120, 28, "and more")],
                },
                Paragraph { text: " ".into(), confidence: 10.0, lines: vec![line(10, 10, 5, 5, " ")] },
            ],
        };
        let page = scanned_page(recognised, &image, 144.0);
        assert_eq!(page.language, "en");
        assert_eq!(page.blocks.len(), 1, "the empty paragraph is left out");
        let block = &page.blocks[0];
        assert_eq!(block.text, "Hello scanned world and more");
        assert_eq!((block.x_min, block.y_min, block.x_max, block.y_max), (50.0, 50.0, 150.0, 84.0));
        // The median of 28 and 30 px is 30 px: 15 points of ink, a 16.7-point font.
        assert!((block.font_size - 15.0 / INK_PER_FONT_SIZE).abs() < 0.01, "{}", block.font_size);
        assert_eq!(page.covers.len(), 2);
        assert!(page.covers.iter().all(|cover| cover.colour == [245, 240, 224]), "{:?}", page.covers);
        let first = page.covers[0];
        assert!(first.x_min < 50.0 && first.y_min < 50.0 && first.x_max > 150.0 && first.y_max > 65.0, "{first:?}");
    }
}
