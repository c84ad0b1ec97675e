//! The text layout of a PDF, as read from `pdftotext -bbox-layout`: pages, blocks of lines.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use serde::{Deserialize, Serialize};

use crate::PdfError;

/// pdftotext's line boxes span the font's ascent to its descent, about 1.3 times the font size
/// (measured on LibreOffice's PDFs: 12 pt text gives 15.6 pt lines, 20 pt text 26 pt lines).
pub const LINE_HEIGHT_PER_FONT_SIZE: f32 = 1.3;

/// The text layout of a whole PDF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// One entry per page, in order; pages without text have no blocks.
    pub pages: Vec<Page>,
}

/// One page: its size and its text blocks in reading order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page {
    /// Width in points (of the page as displayed, after its crop box and rotation).
    pub width: f32,
    /// Height in points.
    pub height: f32,
    /// The text blocks (paragraphs, headings, table cells), in pdftotext's reading order.
    pub blocks: Vec<Block>,
    /// Whether the page is a scan: it has no text but draws an image, so its text can only be
    /// read by OCR (see [`crate::rasterise`]).
    #[serde(default)]
    pub scanned: bool,
}

/// A block of text: a paragraph, a heading, a table cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// The lines' text joined with spaces; a word hyphenated across lines is joined again.
    pub text: String,
    /// The estimated font size in points (the median line height / [`LINE_HEIGHT_PER_FONT_SIZE`]).
    pub font_size: f32,
    /// The block's box, in points from the page's top-left corner.
    pub x_min: f32,
    pub y_min: f32,
    pub x_max: f32,
    pub y_max: f32,
    /// The block's lines, top to bottom.
    pub lines: Vec<Line>,
}

/// One line of a block, with its box in points from the page's top-left corner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub x_min: f32,
    pub y_min: f32,
    pub x_max: f32,
    pub y_max: f32,
    /// The line's words joined with single spaces.
    pub text: String,
}

impl Layout {
    /// Whether no page has any text (a scanned document: OCR is needed).
    pub fn has_text(&self) -> bool {
        self.pages.iter().any(Page::has_text)
    }
}

impl Page {
    /// Whether the page has any text; a scanned page has none.
    pub fn has_text(&self) -> bool {
        !self.blocks.is_empty()
    }
}

/// The box of a `<block>`, `<line>` or `<word>` element.
#[derive(Clone, Copy, Default)]
struct Bounds {
    x_min: f32,
    y_min: f32,
    x_max: f32,
    y_max: f32,
}

/// Parses pdftotext's `-bbox-layout` XHTML into a [`Layout`].
pub(crate) fn parse_bbox_layout(xhtml: &str) -> Result<Layout, PdfError> {
    let mut reader = Reader::from_str(xhtml);
    let mut pages = Vec::new();
    let mut parser = Parser::default();
    loop {
        let event = reader.read_event().map_err(|_| unreadable_text())?;
        match event {
            Event::Start(element) => parser.start(&element)?,
            Event::Empty(element) => {
                parser.start(&element)?;
                parser.end(element.local_name().as_ref(), &mut pages);
            }
            Event::End(element) => parser.end(element.local_name().as_ref(), &mut pages),
            Event::Text(text) if parser.in_word => parser.word.push_str(&text.xml10_content()),
            Event::GeneralRef(reference) if parser.in_word => parser.push_reference(&reference)?,
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(Layout { pages })
}

/// The elements open while reading, and what they have collected so far.
#[derive(Default)]
struct Parser {
    page: Option<Page>,
    block: Option<(Bounds, Vec<Line>)>,
    line: Option<(Bounds, Vec<String>)>,
    in_word: bool,
    word: String,
}

impl Parser {
    fn start(&mut self, element: &BytesStart) -> Result<(), PdfError> {
        match element.local_name().as_ref() {
            "page" => {
                let width = attribute(element, "width")?;
                let height = attribute(element, "height")?;
                self.page = Some(Page { width, height, blocks: Vec::new(), scanned: false });
            }
            "block" => self.block = Some((bounds(element)?, Vec::new())),
            "line" => self.line = Some((bounds(element)?, Vec::new())),
            "word" => {
                self.in_word = true;
                self.word.clear();
            }
            _ => {}
        }
        Ok(())
    }

    fn end(&mut self, name: &str, pages: &mut Vec<Page>) {
        match name {
            "word" => {
                self.in_word = false;
                let word = self.word.trim();
                if let (Some((_, words)), false) = (&mut self.line, word.is_empty()) {
                    words.push(word.to_owned());
                }
            }
            "line" => {
                if let (Some((bounds, words)), Some((_, lines))) = (self.line.take(), &mut self.block)
                    && !words.is_empty()
                {
                    lines.push(make_line(bounds, &words));
                }
            }
            "block" => {
                if let (Some((bounds, lines)), Some(page)) = (self.block.take(), &mut self.page)
                    && !lines.is_empty()
                {
                    page.blocks.push(make_block(bounds, lines));
                }
            }
            "page" => pages.extend(self.page.take()),
            _ => {}
        }
    }

    /// Appends an entity such as `&amp;` or `&#233;` inside a word.
    fn push_reference(&mut self, reference: &quick_xml::events::BytesRef) -> Result<(), PdfError> {
        if let Some(character) = reference.resolve_char_ref().map_err(|_| unreadable_text())? {
            self.word.push(character);
            return Ok(());
        }
        let name = reference.xml10_content();
        let resolved = quick_xml::escape::resolve_predefined_entity(&name).ok_or_else(unreadable_text)?;
        self.word.push_str(resolved);
        Ok(())
    }
}

fn make_line(bounds: Bounds, words: &[String]) -> Line {
    Line { x_min: bounds.x_min, y_min: bounds.y_min, x_max: bounds.x_max, y_max: bounds.y_max, text: words.join(" ") }
}

fn make_block(bounds: Bounds, lines: Vec<Line>) -> Block {
    Block {
        text: join_lines(&lines),
        font_size: estimate_font_size(&lines),
        x_min: bounds.x_min,
        y_min: bounds.y_min,
        x_max: bounds.x_max,
        y_max: bounds.y_max,
        lines,
    }
}

/// Joins lines with one space; a line ending in a hyphen after a letter, followed by a line
/// starting with a lower-case letter, is joined without the hyphen ("transla-" + "tion").
pub(crate) fn join_lines(lines: &[Line]) -> String {
    let mut text = String::new();
    for line in lines {
        if text.is_empty() {
            text.push_str(&line.text);
        } else if ends_in_word_hyphen(&text) && starts_lower_case(&line.text) {
            text.pop();
            text.push_str(&line.text);
        } else {
            text.push(' ');
            text.push_str(&line.text);
        }
    }
    text
}

fn ends_in_word_hyphen(text: &str) -> bool {
    let mut characters = text.chars().rev();
    characters.next() == Some('-') && characters.next().is_some_and(char::is_alphabetic)
}

fn starts_lower_case(text: &str) -> bool {
    text.chars().next().is_some_and(char::is_lowercase)
}

/// The median line height divided by [`LINE_HEIGHT_PER_FONT_SIZE`], rounded to a tenth of a point.
fn estimate_font_size(lines: &[Line]) -> f32 {
    let mut heights: Vec<f32> = lines.iter().map(|line| (line.y_max - line.y_min).max(0.0)).collect();
    heights.sort_by(f32::total_cmp);
    let median = heights.get(heights.len() / 2).copied().unwrap_or(0.0);
    let size = median / LINE_HEIGHT_PER_FONT_SIZE;
    (size * 10.0).round() / 10.0
}

fn bounds(element: &BytesStart) -> Result<Bounds, PdfError> {
    Ok(Bounds {
        x_min: attribute(element, "xMin")?,
        y_min: attribute(element, "yMin")?,
        x_max: attribute(element, "xMax")?,
        y_max: attribute(element, "yMax")?,
    })
}

fn attribute(element: &BytesStart, name: &str) -> Result<f32, PdfError> {
    let attribute = element.try_get_attribute(name).ok().flatten().ok_or_else(unreadable_text)?;
    attribute.value.trim().parse::<f32>().ok().filter(|value| value.is_finite()).ok_or_else(unreadable_text)
}

fn unreadable_text() -> PdfError {
    PdfError::Unreadable("its text layout could not be understood".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line { x_min: 0.0, y_min: 0.0, x_max: 10.0, y_max: 13.0, text: text.to_owned() }
    }

    #[test]
    fn hyphenated_words_are_joined_and_other_lines_get_a_space() {
        let lines = [line("the transla-"), line("tion is"), line("well-"), line("Known and"), line("x -"), line("y")];
        assert_eq!(join_lines(&lines), "the translation is well- Known and x - y");
    }

    #[test]
    fn bbox_layout_is_parsed_into_pages_blocks_and_lines() {
        let xhtml = r#"<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><body><doc>
          <page width="595.3" height="841.9">
            <flow><block xMin="10" yMin="20" xMax="100" yMax="46">
              <line xMin="10" yMin="20" xMax="100" yMax="33"><word xMin="10" yMin="20" xMax="30" yMax="33">Fish&amp;</word><word xMin="31" yMin="20" xMax="50" yMax="33">chips&#233;</word></line>
              <line xMin="10" yMin="33" xMax="60" yMax="46"><word xMin="10" yMin="33" xMax="60" yMax="46">&lt;ok&gt;</word></line>
            </block></flow>
          </page>
          <page width="300" height="400"></page>
        </doc></body></html>"#;
        let layout = parse_bbox_layout(xhtml).unwrap();
        assert_eq!(layout.pages.len(), 2);
        assert_eq!(layout.pages[0].width, 595.3);
        let block = &layout.pages[0].blocks[0];
        assert_eq!(block.text, "Fish& chipsé <ok>");
        assert_eq!(block.font_size, 10.0);
        assert_eq!(block.lines.len(), 2);
        assert!(!layout.pages[1].has_text());
    }

    #[test]
    fn broken_xml_is_an_error() {
        assert!(parse_bbox_layout("<doc><page width=\"x\" height=\"1\"></page></doc>").is_err());
    }
}
