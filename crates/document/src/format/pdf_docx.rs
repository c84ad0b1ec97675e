//! A PDF's translation as a Word document (`output_format=docx`): its blocks of text, lists,
//! tables and pictures in reading order, page by page, each page after the first beginning on a
//! new page.
//!
//! * A block is a paragraph. One whose font is clearly larger than the body's is a heading
//!   (`Heading1` at 1.5 times the body's size, `Heading2` at 1.2 times).
//! * A block that starts with a bullet (`•`, `◦`, `▪`, `–`, `-`, `*` and the like) or a number or
//!   letter and a `.` or `)` (`1.`, `2)`, `a.`, `iv.`) is a list: a real Word list, its markers
//!   removed from the text. Poppler reads a list as one block with every item in it, so a block
//!   is cut into items where the next marker comes: another bullet glyph (not `-`, `*` or `–`,
//!   which are dashes inside sentences too), or the next number of the same kind ("1. x 2. y").
//!   A numbered list starts at its first number, and a list that goes on in the next block goes
//!   on numbering. `◦` and `▪` are a second and third level; nesting shown only by indentation is
//!   not seen (the blocks have no lines). A heading that starts with a number stays a heading.
//! * Blocks of a page that follow each other in reading order side by side, row after row, with
//!   at least two of each row's blocks starting where a column of the rows before starts, are a
//!   table: one cell per block, an empty cell where a column has no block. `pdf-document` gives
//!   each cell of a table its own block when it reads the PDF, also where Poppler reads a table
//!   as one block or as a block per column; a centred header row that lines up with no column
//!   stays a paragraph above the table.
//! * A picture (from [`PdfImage`]s) is a paragraph of its own, after the last block above it
//!   (starting higher on the page; among those, the last one it shares some width with), at its
//!   size on the page, made smaller to fit the page's width and height.
//!
//! What the layout does not say is not made up: no fonts, colours, columns, borders other than a
//! table's grid, text boxes or captions, and no picture's transparency.

use std::io::{Cursor, Write};

use engines::language_tools::{PdfBlock, PdfImage, PdfPageText};
use quick_xml::escape::escape;
use zip::CompressionMethod;
use zip::write::{SimpleFileOptions, ZipWriter};

use super::{Format, FormatError, corrupt};

const PACKAGE_RELATIONSHIPS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

/// The styles the paragraphs use: the body's font size is written in when the package is made.
const STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="DejaVu Sans" w:hAnsi="DejaVu Sans" w:eastAsia="Noto Sans CJK JP" w:cs="DejaVu Sans"/><w:sz w:val="BODY"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="H1"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="200"/><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="H2"/></w:rPr></w:style></w:styles>"#;

const MAIN: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const RELATIONSHIP: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// The widest and tallest a picture or table is made (points): what A4 and US Letter pages hold
/// within margins of an inch.
const MAX_WIDTH: f64 = 451.0;
const MAX_HEIGHT: f64 = 648.0;

/// How far apart (points) two left or right edges may be and still be a table's column.
const COLUMN_TOLERANCE: f64 = 4.0;

/// The room (points) a table cell's margins take beside its text: a little more than the 5.4 points
/// on each side Word and LibreOffice give by default. A column is as wide as from its text's start
/// to the next column's, the last one as its widest text and this.
const CELL_MARGINS: f64 = 12.0;

/// The Word document of a translated PDF's pages and the pictures they draw (those of pages
/// beyond `pages`, and those that are not a PNG or JPEG file, are left out).
pub fn docx(pages: &[PdfPageText], images: &[PdfImage]) -> Result<Vec<u8>, FormatError> {
    let body = body_size(pages);
    let mut writer = Writer { body, document: String::new(), lists: Lists::default(), media: Vec::new() };
    writer.document.push_str(&format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{MAIN}" xmlns:r="{RELATIONSHIP}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><w:body>"#
    ));
    for (number, page) in pages.iter().enumerate() {
        let mut pictures: Vec<&PdfImage> =
            images.iter().filter(|image| image.page == number && picture_format(image).is_some()).collect();
        pictures.sort_by(|a, b| a.y_min.total_cmp(&b.y_min).then(a.x_min.total_cmp(&b.x_min)));
        for (index, item) in arrange(&page.blocks, &pictures).into_iter().enumerate() {
            writer.item(&item, number > 0 && index == 0);
        }
    }
    writer.document.push_str("<w:sectPr/></w:body></w:document>");
    // Sizes in half points.
    let half_points = |size: f64| ((size * 2.0).round() as i64).to_string();
    let styles = STYLES
        .replace("BODY", &half_points(body))
        .replace("H1", &half_points(body * 1.6))
        .replace("H2", &half_points(body * 1.3));

    let numbering = writer.lists.numbering();
    let types = content_types(&writer.media, numbering.is_some());
    let relationships = relationships(&writer.media, numbering.is_some());
    let mut parts: Vec<(String, &[u8], bool)> = vec![
        ("[Content_Types].xml".into(), types.as_bytes(), true),
        ("_rels/.rels".into(), PACKAGE_RELATIONSHIPS.as_bytes(), true),
        ("word/_rels/document.xml.rels".into(), relationships.as_bytes(), true),
        ("word/styles.xml".into(), styles.as_bytes(), true),
    ];
    if let Some(numbering) = &numbering {
        parts.push(("word/numbering.xml".into(), numbering.as_bytes(), true));
    }
    parts.push(("word/document.xml".into(), writer.document.as_bytes(), true));
    for (name, data) in &writer.media {
        // Pictures are compressed already.
        parts.push((format!("word/media/{name}"), *data, false));
    }
    package(&parts)
}

/// `[Content_Types].xml`: the pictures' extensions, and the numbering when there are lists.
fn content_types(media: &[(String, &[u8])], numbering: bool) -> String {
    let mut types = String::from(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>"#,
    );
    for extension in ["png", "jpeg"] {
        if media.iter().any(|(name, _)| name.ends_with(extension)) {
            types.push_str(&format!(r#"<Default Extension="{extension}" ContentType="image/{extension}"/>"#));
        }
    }
    types.push_str(r#"<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>"#);
    if numbering {
        types.push_str(r#"<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>"#);
    }
    types.push_str("</Types>");
    types
}

/// `word/_rels/document.xml.rels`: the styles (`rId1`), the numbering when there are lists
/// (`rId2`), and each picture (`rIdImageN` for `imageN`).
fn relationships(media: &[(String, &[u8])], numbering: bool) -> String {
    let mut relationships = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{RELATIONSHIP}/styles" Target="styles.xml"/>"#
    );
    if numbering {
        relationships
            .push_str(&format!(r#"<Relationship Id="rId2" Type="{RELATIONSHIP}/numbering" Target="numbering.xml"/>"#));
    }
    for (index, (name, _)) in media.iter().enumerate() {
        relationships.push_str(&format!(
            r#"<Relationship Id="rIdImage{}" Type="{RELATIONSHIP}/image" Target="media/{name}"/>"#,
            index + 1
        ));
    }
    relationships.push_str("</Relationships>");
    relationships
}

/// The body's font size: the one most of the text is set in (12 points for a PDF without text).
fn body_size(pages: &[PdfPageText]) -> f64 {
    let mut sizes: Vec<(f64, usize)> = Vec::new();
    for block in pages.iter().flat_map(|page| &page.blocks) {
        let size = (block.font_size * 2.0).round() / 2.0;
        match sizes.iter_mut().find(|(known, _)| *known == size) {
            Some((_, characters)) => *characters += block.text.chars().count(),
            None => sizes.push((size, block.text.chars().count())),
        }
    }
    sizes.into_iter().max_by_key(|(_, characters)| *characters).map_or(12.0, |(size, _)| size.max(1.0))
}

/// What a page holds, in the order it is written.
#[derive(Debug)]
enum Item<'p> {
    Paragraph(&'p PdfBlock),
    Table(Table<'p>),
    Picture(&'p PdfImage),
}

/// Blocks in rows and columns.
#[derive(Debug)]
struct Table<'p> {
    /// Each column's width, in points.
    widths: Vec<f64>,
    /// Each row's cells, one per column.
    rows: Vec<Vec<Option<&'p PdfBlock>>>,
}

/// A page's blocks as paragraphs and tables, with `pictures` (sorted top to bottom) among them:
/// each after the last block above it.
fn arrange<'p>(blocks: &'p [PdfBlock], pictures: &[&'p PdfImage]) -> Vec<Item<'p>> {
    // Each item with the index of its last block.
    let mut items: Vec<(Item<'p>, usize)> = Vec::new();
    let rows = rows(blocks);
    let mut row = 0;
    while row < rows.len() {
        if let Some((table, taken)) = table(blocks, &rows[row..]) {
            let last = rows[row + taken - 1].end - 1;
            items.push((Item::Table(table), last));
            row += taken;
            continue;
        }
        for index in rows[row].clone() {
            items.push((Item::Paragraph(&blocks[index]), index));
        }
        row += 1;
    }
    let mut first: Vec<&'p PdfImage> = Vec::new();
    let mut after: Vec<Vec<&'p PdfImage>> = vec![Vec::new(); items.len()];
    for &picture in pictures {
        match anchor(blocks, picture).and_then(|block| items.iter().position(|(_, last)| *last >= block)) {
            Some(item) => after[item].push(picture),
            None => first.push(picture),
        }
    }
    let mut arranged: Vec<Item<'p>> = first.into_iter().map(Item::Picture).collect();
    for ((item, _), pictures) in items.into_iter().zip(after) {
        arranged.push(item);
        arranged.extend(pictures.into_iter().map(Item::Picture));
    }
    arranged
}

/// The block a picture comes after: the last one in reading order that starts higher on the
/// page, preferring those that share some of its width (a picture in the left column comes after
/// the left column's blocks above it). A block's bottom edge is not used: the blocks of a
/// translation are given room below them ([`super::pdf::widen`]).
fn anchor(blocks: &[PdfBlock], picture: &PdfImage) -> Option<usize> {
    let above = |block: &PdfBlock| block.y_min <= picture.y_min;
    let shares_width = |block: &PdfBlock| block.x_min < picture.x_max && block.x_max > picture.x_min;
    blocks.iter().rposition(|block| above(block) && shares_width(block)).or_else(|| blocks.iter().rposition(above))
}

/// The blocks cut into runs that follow each other side by side, left to right at about the same
/// height: a table's rows. Most runs are one block.
fn rows(blocks: &[PdfBlock]) -> Vec<std::ops::Range<usize>> {
    let mut rows: Vec<std::ops::Range<usize>> = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        match rows.last_mut() {
            Some(row) if beside(&blocks[index - 1], block) => row.end = index + 1,
            _ => rows.push(index..index + 1),
        }
    }
    rows
}

/// Whether `next` is to the right of `block`, sharing at least half the height of the lower of the
/// two (a table's cells are often centred vertically).
fn beside(block: &PdfBlock, next: &PdfBlock) -> bool {
    let shared = block.y_max.min(next.y_max) - block.y_min.max(next.y_min);
    let lower = (block.y_max - block.y_min).min(next.y_max - next.y_min);
    next.x_min >= block.x_max - 1.0 && shared > 0.5 * lower
}

/// The table the first `rows` make, and how many of them it takes: at least two rows of two
/// blocks or more, each row after the first with at least two blocks starting (or ending) where
/// a column of the rows before does, and no two in the same column.
fn table<'p>(blocks: &'p [PdfBlock], rows: &[std::ops::Range<usize>]) -> Option<(Table<'p>, usize)> {
    // Each column's left and right edges, from the block that made it.
    let mut columns: Vec<(f64, f64)> = Vec::new();
    let mut cells: Vec<Vec<(usize, &PdfBlock)>> = Vec::new();
    for row in rows {
        if row.len() < 2 {
            break;
        }
        let mut placed: Vec<(usize, &PdfBlock)> = Vec::new();
        let mut new: Vec<&PdfBlock> = Vec::new();
        for block in &blocks[row.clone()] {
            let near = |(left, right): &(f64, f64)| {
                (left - block.x_min).abs() <= COLUMN_TOLERANCE || (right - block.x_max).abs() <= COLUMN_TOLERANCE
            };
            match columns.iter().position(near) {
                Some(column) => placed.push((column, block)),
                None => new.push(block),
            }
        }
        let mut used: Vec<usize> = placed.iter().map(|(column, _)| *column).collect();
        used.sort_unstable();
        used.dedup();
        let first = columns.is_empty();
        if !first && (placed.len() < 2 || used.len() < placed.len()) {
            break;
        }
        for block in new {
            columns.push((block.x_min, block.x_max));
            placed.push((columns.len() - 1, block));
        }
        cells.push(placed);
    }
    if cells.len() < 2 {
        return None;
    }
    // Columns left to right.
    let mut order: Vec<usize> = (0..columns.len()).collect();
    order.sort_by(|a, b| columns[*a].0.total_cmp(&columns[*b].0));
    let position = |column: usize| order.iter().position(|known| *known == column).unwrap_or(0);
    let table_rows: Vec<Vec<Option<&PdfBlock>>> = cells
        .iter()
        .map(|placed| {
            let mut row = vec![None; columns.len()];
            for (column, block) in placed {
                row[position(*column)] = Some(*block);
            }
            row
        })
        .collect();
    let right = blocks[rows[0].start..rows[cells.len() - 1].end].iter().map(|block| block.x_max).fold(0.0, f64::max);
    let lefts: Vec<f64> = order.iter().map(|column| columns[*column].0).collect();
    let mut widths: Vec<f64> = lefts
        .iter()
        .enumerate()
        .map(|(index, left)| (lefts.get(index + 1).copied().unwrap_or(right + CELL_MARGINS) - left).max(36.0))
        .collect();
    let total: f64 = widths.iter().sum();
    if total > MAX_WIDTH {
        widths.iter_mut().for_each(|width| *width *= MAX_WIDTH / total);
    }
    Some((Table { widths, rows: table_rows }, cells.len()))
}

/// A list item's marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    /// A bullet, with its level (from 0).
    Bullet(u8),
    /// A number or letter, with its value (`a` and `i` are 1) and the character after it.
    Number { kind: Numbering, value: u32, delimiter: char },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Numbering {
    Decimal,
    LowerLetter,
    LowerRoman,
}

impl Numbering {
    const ALL: [Numbering; 3] = [Numbering::Decimal, Numbering::LowerLetter, Numbering::LowerRoman];

    /// How `value` is written.
    fn label(self, value: u32) -> Option<String> {
        match self {
            Numbering::Decimal => Some(value.to_string()),
            Numbering::LowerLetter => (1..=26).contains(&value).then(|| char::from(b'a' + value as u8 - 1).to_string()),
            Numbering::LowerRoman => roman(value),
        }
    }

    /// Its name in `w:numFmt`.
    fn format(self) -> &'static str {
        match self {
            Numbering::Decimal => "decimal",
            Numbering::LowerLetter => "lowerLetter",
            Numbering::LowerRoman => "lowerRoman",
        }
    }
}

/// The bullets that are nothing but bullets, with their levels: a text is cut into items where
/// one of them stands alone.
const BULLETS: [(char, u8); 10] =
    [('•', 0), ('●', 0), ('‣', 0), ('⁃', 0), ('◦', 1), ('○', 1), ('▪', 2), ('■', 2), ('□', 2), ('▫', 2)];

/// Bullets that are dashes or stars inside sentences too: a list item only at a block's start.
const DASHES: [char; 3] = ['–', '-', '*'];

/// The marker a text starts with and the text after it (and after the space that follows it);
/// `None` when nothing follows.
fn marker(text: &str) -> Option<(Marker, &str)> {
    let text = text.trim_start();
    let first = text.chars().next()?;
    let after = |length: usize, space: bool| {
        let rest = &text[length..];
        let trimmed = rest.trim_start();
        let spaced = trimmed.len() < rest.len();
        (!trimmed.is_empty() && (spaced || !space)).then_some(trimmed)
    };
    if let Some((_, level)) = BULLETS.iter().find(|(bullet, _)| *bullet == first) {
        return Some((Marker::Bullet(*level), after(first.len_utf8(), false)?));
    }
    if DASHES.contains(&first) {
        return Some((Marker::Bullet(0), after(first.len_utf8(), true)?));
    }
    let end = text.find(['.', ')'])?;
    let (label, delimiter) = (&text[..end], char::from(text.as_bytes()[end]));
    let (kind, value) = if label.len() <= 3 && !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit()) {
        (Numbering::Decimal, label.parse().ok()?)
    } else if label.len() == 1 && label.bytes().all(|b| b.is_ascii_lowercase()) && label != "i" {
        (Numbering::LowerLetter, u32::from(label.as_bytes()[0] - b'a' + 1))
    } else if label.len() <= 9 && label.bytes().all(|b| b"ivxlc".contains(&b)) {
        (Numbering::LowerRoman, (1..=399).find(|value| roman(*value).as_deref() == Some(label))?)
    } else {
        return None;
    };
    Some((Marker::Number { kind, value, delimiter }, after(end + 1, true)?))
}

/// `value` in lower-case Roman numerals (up to 399).
fn roman(value: u32) -> Option<String> {
    if !(1..=399).contains(&value) {
        return None;
    }
    let mut rest = value;
    let mut text = String::new();
    for (amount, letters) in
        [(100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
    {
        while rest >= amount {
            text.push_str(letters);
            rest -= amount;
        }
    }
    Some(text)
}

/// A block's text as list items (each marker and the text up to the next), or `None` when it
/// does not start with a marker.
fn list_items(text: &str) -> Option<Vec<(Marker, &str)>> {
    let (first, mut rest) = marker(text)?;
    let mut items = Vec::new();
    let mut current = first;
    loop {
        let next = match current {
            Marker::Bullet(_) if DASHES.iter().any(|dash| text.trim_start().starts_with(*dash)) => None,
            Marker::Bullet(_) => next_bullet(rest),
            Marker::Number { kind, value, delimiter } => kind
                .label(value + 1)
                .and_then(|label| next_label(rest, &format!("{label}{delimiter}")))
                .map(|at| (at, Marker::Number { kind, value: value + 1, delimiter })),
        };
        let Some((at, marker)) = next else {
            items.push((current, rest.trim()));
            break;
        };
        items.push((current, rest[..at].trim()));
        rest = rest[at..].trim_start();
        // Past the marker itself.
        rest = rest.split_once(char::is_whitespace).map_or("", |(_, after)| after).trim_start();
        current = marker;
    }
    items.retain(|(_, text)| !text.is_empty());
    (!items.is_empty()).then_some(items)
}

/// Where the next bullet of [`BULLETS`] stands alone in `text` (after a space, before one), and
/// its marker.
fn next_bullet(text: &str) -> Option<(usize, Marker)> {
    let mut previous = None;
    let mut characters = text.char_indices().peekable();
    while let Some((at, character)) = characters.next() {
        if previous.is_some_and(char::is_whitespace)
            && let Some((_, level)) = BULLETS.iter().find(|(bullet, _)| *bullet == character)
            && characters.peek().is_some_and(|(_, after)| after.is_whitespace())
        {
            return Some((at, Marker::Bullet(*level)));
        }
        previous = Some(character);
    }
    None
}

/// Where `label` (a marker such as `2.`) stands alone in `text`, after a space and before one.
fn next_label(text: &str, label: &str) -> Option<usize> {
    text.match_indices(label).map(|(at, _)| at).find(|&at| {
        let before = text[..at].chars().next_back().is_some_and(char::is_whitespace);
        let after = text[at + label.len()..].chars().next().is_some_and(char::is_whitespace);
        before && after
    })
}

/// The lists written so far: each numbered list's `w:num` (its numbering and first number), and
/// the list the last paragraph was in, which the next block may go on with.
#[derive(Default)]
struct Lists {
    /// Per `w:numId` (from 1): the abstract numbering and the first number.
    nums: Vec<(usize, u32)>,
    /// The `w:numId` of bullets, once used.
    bullets: Option<usize>,
    /// The last numbered item written, when the last paragraph was one: its marker and `w:numId`.
    open: Option<(Marker, usize)>,
}

impl Lists {
    /// The abstract numberings: bullets, then each [`Numbering`] with `.` and with `)`.
    fn abstract_id(marker: Marker) -> usize {
        match marker {
            Marker::Bullet(_) => 0,
            Marker::Number { kind, delimiter, .. } => {
                let kind = Numbering::ALL.iter().position(|known| *known == kind).unwrap_or(0);
                1 + 2 * kind + usize::from(delimiter == ')')
            }
        }
    }

    /// The `w:numId` and level of an item: a number goes on with the list of the paragraph before
    /// when it is the next of the same kind.
    fn num(&mut self, marker: Marker) -> (usize, u8) {
        match marker {
            Marker::Bullet(level) => {
                self.open = None;
                let id = *self.bullets.get_or_insert_with(|| {
                    self.nums.push((0, 1));
                    self.nums.len()
                });
                (id, level)
            }
            Marker::Number { value, .. } => {
                let goes_on = match self.open {
                    Some((Marker::Number { kind, value: last, delimiter }, id)) => {
                        (Marker::Number { kind, value: last + 1, delimiter } == marker).then_some(id)
                    }
                    _ => None,
                };
                let id = goes_on.unwrap_or_else(|| {
                    self.nums.push((Self::abstract_id(marker), value));
                    self.nums.len()
                });
                self.open = Some((marker, id));
                (id, 0)
            }
        }
    }

    /// `word/numbering.xml`, when any list was written.
    fn numbering(&self) -> Option<String> {
        if self.nums.is_empty() {
            return None;
        }
        let mut xml =
            format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering xmlns:w="{MAIN}">"#);
        let level = |ilvl: u8, format: &str, text: &str| {
            let left = 720 * (u32::from(ilvl) + 1);
            format!(
                r#"<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="{format}"/><w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="{left}" w:hanging="360"/></w:pPr></w:lvl>"#
            )
        };
        xml.push_str(r#"<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="hybridMultilevel"/>"#);
        for (ilvl, glyph) in [(0, "•"), (1, "◦"), (2, "▪")] {
            xml.push_str(&level(ilvl, "bullet", glyph));
        }
        xml.push_str("</w:abstractNum>");
        for (index, kind) in Numbering::ALL.iter().enumerate() {
            for (offset, delimiter) in [".", ")"].iter().enumerate() {
                let id = 1 + 2 * index + offset;
                xml.push_str(&format!(
                    r#"<w:abstractNum w:abstractNumId="{id}"><w:multiLevelType w:val="singleLevel"/>{}</w:abstractNum>"#,
                    level(0, kind.format(), &format!("%1{delimiter}"))
                ));
            }
        }
        for (index, (abstract_id, start)) in self.nums.iter().enumerate() {
            let id = index + 1;
            let start = match abstract_id {
                0 => String::new(),
                _ => format!(r#"<w:lvlOverride w:ilvl="0"><w:startOverride w:val="{start}"/></w:lvlOverride>"#),
            };
            xml.push_str(&format!(r#"<w:num w:numId="{id}"><w:abstractNumId w:val="{abstract_id}"/>{start}</w:num>"#));
        }
        xml.push_str("</w:numbering>");
        Some(xml)
    }
}

/// The document being written.
struct Writer<'p> {
    body: f64,
    document: String,
    lists: Lists,
    /// The pictures' files, `imageN.png` or `imageN.jpeg`, in the order they are shown.
    media: Vec<(String, &'p [u8])>,
}

impl<'p> Writer<'p> {
    fn item(&mut self, item: &Item<'p>, page_break: bool) {
        match item {
            Item::Paragraph(block) => self.block(block, page_break),
            Item::Table(table) => {
                self.lists.open = None;
                self.table(table, page_break);
            }
            Item::Picture(picture) => {
                self.lists.open = None;
                self.picture(picture, page_break);
            }
        }
    }

    /// The paragraph style of a block's font size.
    fn style(&self, block: &PdfBlock) -> &'static str {
        match block.font_size / self.body {
            ratio if ratio >= 1.5 => "Heading1",
            ratio if ratio >= 1.2 => "Heading2",
            _ => "Normal",
        }
    }

    /// A block: its list items, or one paragraph.
    fn block(&mut self, block: &PdfBlock, page_break: bool) {
        let style = self.style(block);
        let items = if style == "Normal" { list_items(&block.text) } else { None };
        let Some(items) = items else {
            self.lists.open = None;
            self.paragraph(style, "", page_break, &block.text);
            return;
        };
        for (index, (marker, text)) in items.into_iter().enumerate() {
            let (id, level) = self.lists.num(marker);
            let numbering = format!(r#"<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{id}"/></w:numPr>"#);
            self.paragraph(style, &numbering, page_break && index == 0, text);
        }
    }

    /// A paragraph of `text`, its lines (`\n`) broken, with `properties` after its style.
    fn paragraph(&mut self, style: &str, properties: &str, page_break: bool, text: &str) {
        self.document.push_str(&format!(r#"<w:p><w:pPr><w:pStyle w:val="{style}"/>{properties}</w:pPr>"#));
        if page_break {
            self.document.push_str(r#"<w:r><w:br w:type="page"/></w:r>"#);
        }
        for (line, text) in text.split('\n').enumerate() {
            if line > 0 {
                self.document.push_str("<w:r><w:br/></w:r>");
            }
            self.document.push_str(&format!(r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#, escape(text)));
        }
        self.document.push_str("</w:p>");
    }

    /// A table with a single-line grid; a cell's text is a paragraph in its block's style.
    fn table(&mut self, table: &Table<'_>, page_break: bool) {
        let twips = |points: f64| (points * 20.0).round() as i64;
        self.document.push_str(r#"<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders>"#);
        for side in ["top", "left", "bottom", "right", "insideH", "insideV"] {
            self.document.push_str(&format!(r#"<w:{side} w:val="single" w:sz="4" w:space="0" w:color="auto"/>"#));
        }
        self.document.push_str(r#"</w:tblBorders><w:tblLook w:val="0000"/></w:tblPr><w:tblGrid>"#);
        for width in &table.widths {
            self.document.push_str(&format!(r#"<w:gridCol w:w="{}"/>"#, twips(*width)));
        }
        self.document.push_str("</w:tblGrid>");
        for (row_index, row) in table.rows.iter().enumerate() {
            self.document.push_str("<w:tr>");
            for (column, cell) in row.iter().enumerate() {
                let width = twips(table.widths[column]);
                self.document.push_str(&format!(r#"<w:tc><w:tcPr><w:tcW w:w="{width}" w:type="dxa"/></w:tcPr>"#));
                let before = match page_break && row_index == 0 && column == 0 {
                    true => "<w:pageBreakBefore/>",
                    false => "",
                };
                match cell {
                    Some(block) => self.paragraph(self.style(block), before, false, &block.text),
                    None => self.document.push_str(&format!("<w:p><w:pPr>{before}</w:pPr></w:p>")),
                }
                self.document.push_str("</w:tc>");
            }
            self.document.push_str("</w:tr>");
        }
        self.document.push_str("</w:tbl>");
    }

    /// A paragraph of one picture, inline, at its size on the page (made smaller to fit).
    fn picture(&mut self, picture: &'p PdfImage, page_break: bool) {
        let Some(extension) = picture_format(picture) else { return };
        let number = self.media.len() + 1;
        let name = format!("image{number}.{extension}");
        let (mut width, mut height) =
            ((picture.x_max - picture.x_min).max(1.0), (picture.y_max - picture.y_min).max(1.0));
        let scale = (MAX_WIDTH / width).min(MAX_HEIGHT / height).min(1.0);
        width *= scale;
        height *= scale;
        let (cx, cy) = ((width * 12700.0).round() as i64, (height * 12700.0).round() as i64);
        self.document.push_str("<w:p>");
        if page_break {
            self.document.push_str(r#"<w:r><w:br w:type="page"/></w:r>"#);
        }
        self.document.push_str(&format!(
            concat!(
                r#"<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="{cx}" cy="{cy}"/>"#,
                r#"<wp:docPr id="{number}" name="Picture {number}"/><wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" noChangeAspect="1"/></wp:cNvGraphicFramePr>"#,
                r#"<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">"#,
                r#"<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="{number}" name="{name}"/><pic:cNvPicPr/></pic:nvPicPr>"#,
                r#"<pic:blipFill><a:blip r:embed="rIdImage{number}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>"#,
                r#"<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>"#,
                r#"</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#
            ),
            cx = cx,
            cy = cy,
            number = number,
            name = name,
        ));
        self.media.push((name, &picture.data));
    }
}

/// A picture's file extension, `png` or `jpeg`, when its bytes are that kind of file and it has
/// an area.
fn picture_format(picture: &PdfImage) -> Option<&'static str> {
    if !(picture.x_max > picture.x_min && picture.y_max > picture.y_min) {
        return None;
    }
    match picture.format.as_str() {
        "png" if picture.data.starts_with(b"\x89PNG\r\n\x1a\n") => Some("png"),
        "jpeg" if picture.data.starts_with(&[0xFF, 0xD8, 0xFF]) => Some("jpeg"),
        _ => None,
    }
}

/// A zip package of `parts` (name, content, whether to deflate it).
fn package(parts: &[(String, &[u8], bool)]) -> Result<Vec<u8>, FormatError> {
    let failed = |error: &dyn std::fmt::Display| corrupt(Format::Pdf, format!("the docx cannot be written: {error}"));
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, content, deflate) in parts {
        let method = if *deflate { CompressionMethod::Deflated } else { CompressionMethod::Stored };
        let options = SimpleFileOptions::default().compression_method(method);
        writer.start_file(name.as_str(), options).map_err(|error| failed(&error))?;
        writer.write_all(content).map_err(|error| failed(&error))?;
    }
    Ok(writer.finish().map_err(|error| failed(&error))?.into_inner())
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use zip::ZipArchive;

    use super::*;

    fn block(text: &str, font_size: f64) -> PdfBlock {
        PdfBlock { text: text.into(), font_size, x_min: 72.0, y_min: 72.0, x_max: 520.0, y_max: 100.0 }
    }

    fn at(text: &str, x_min: f64, y_min: f64, x_max: f64, y_max: f64) -> PdfBlock {
        PdfBlock { text: text.into(), font_size: 12.0, x_min, y_min, x_max, y_max }
    }

    fn page(blocks: Vec<PdfBlock>) -> PdfPageText {
        PdfPageText { blocks, ..PdfPageText::default() }
    }

    fn part(file: &[u8], name: &str) -> String {
        let mut archive = ZipArchive::new(Cursor::new(file)).unwrap();
        let mut text = String::new();
        archive.by_name(name).unwrap().read_to_string(&mut text).unwrap();
        text
    }

    fn names(file: &[u8]) -> Vec<String> {
        let archive = ZipArchive::new(Cursor::new(file)).unwrap();
        archive.file_names().map(str::to_owned).collect()
    }

    /// The texts of `document`'s `w:t` elements, in order.
    fn texts(document: &str) -> Vec<&str> {
        document
            .split(r#"<w:t xml:space="preserve">"#)
            .skip(1)
            .map(|rest| &rest[..rest.find("</w:t>").unwrap()])
            .collect()
    }

    #[test]
    fn blocks_become_paragraphs_and_larger_ones_headings_with_a_page_break_between_pages() {
        let pages = [
            page(vec![block("Quartalsbericht", 20.0), block("Der Umsatz <wuchs> & wächst.", 12.0)]),
            page(vec![block("Ausblick", 15.0), block("Mehr im nächsten Jahr.", 12.0)]),
        ];
        let file = docx(&pages, &[]).unwrap();
        let document = part(&file, "word/document.xml");
        let styles: Vec<&str> = document.split(r#"<w:pStyle w:val=""#).skip(1).map(|rest| &rest[..8]).collect();
        assert_eq!(styles, ["Heading1", "Normal\"/", "Heading2", "Normal\"/"]);
        assert!(document.contains("Der Umsatz &lt;wuchs&gt; &amp; wächst."), "{document}");
        assert_eq!(document.matches(r#"<w:br w:type="page"/>"#).count(), 1, "a break before the second page");
        let second_page = r#"<w:pStyle w:val="Heading2"/></w:pPr><w:r><w:br w:type="page"/></w:r>"#;
        assert!(document.contains(second_page), "{document}");
        assert!(part(&file, "word/styles.xml").contains(r#"<w:sz w:val="24"/>"#), "the body's 12 points");
        assert!(part(&file, "[Content_Types].xml").contains("/word/document.xml"));
        // Without lists or pictures, nothing more is written.
        assert_eq!(
            names(&file),
            [
                "[Content_Types].xml",
                "_rels/.rels",
                "word/_rels/document.xml.rels",
                "word/styles.xml",
                "word/document.xml"
            ]
        );
        assert!(!document.contains("numPr") && !document.contains("<w:tbl>") && !document.contains("w:drawing"));
    }

    #[test]
    fn the_body_size_is_the_size_of_most_of_the_text() {
        let pages =
            [page(vec![block("A heading that is long", 18.0), block(&"body ".repeat(20), 10.8), block("x", 9.0)])];
        assert_eq!(body_size(&pages), 11.0);
        assert_eq!(body_size(&[]), 12.0);
    }

    #[test]
    fn markers_are_bullets_numbers_letters_and_roman_numerals() {
        let number = |kind, value, delimiter| Marker::Number { kind, value, delimiter };
        assert_eq!(marker("• First"), Some((Marker::Bullet(0), "First")));
        assert_eq!(marker("◦Second"), Some((Marker::Bullet(1), "Second")));
        assert_eq!(marker("  ▪ third"), Some((Marker::Bullet(2), "third")));
        assert_eq!(marker("- dash"), Some((Marker::Bullet(0), "dash")));
        assert_eq!(marker("* star"), Some((Marker::Bullet(0), "star")));
        assert_eq!(marker("1. One"), Some((number(Numbering::Decimal, 1, '.'), "One")));
        assert_eq!(marker("12) Twelve"), Some((number(Numbering::Decimal, 12, ')'), "Twelve")));
        assert_eq!(marker("a. Ay"), Some((number(Numbering::LowerLetter, 1, '.'), "Ay")));
        assert_eq!(marker("c) See"), Some((number(Numbering::LowerLetter, 3, ')'), "See")));
        assert_eq!(marker("i. One"), Some((number(Numbering::LowerRoman, 1, '.'), "One")));
        assert_eq!(marker("iv. Four"), Some((number(Numbering::LowerRoman, 4, '.'), "Four")));
        for text in
            ["-5 degrees", "3.5 million", "e.g. this", "2024 was long.", "•", "1.", "iiii. x", "*emphasis*", "Text."]
        {
            assert_eq!(marker(text), None, "{text}");
        }
        assert_eq!(roman(14).as_deref(), Some("xiv"));
        assert_eq!(roman(399).as_deref(), Some("cccxcix"));
        assert_eq!(roman(400), None);
    }

    #[test]
    fn a_block_is_cut_into_items_at_the_next_marker() {
        let items = list_items("• First item • Second ◦ nested • Third").unwrap();
        let texts: Vec<&str> = items.iter().map(|(_, text)| *text).collect();
        assert_eq!(texts, ["First item", "Second", "nested", "Third"]);
        assert_eq!(items[2].0, Marker::Bullet(1));
        let items = list_items("1. One has 2 parts 2. Two 3) not a marker 3. Three 5. Five").unwrap();
        let texts: Vec<&str> = items.iter().map(|(_, text)| *text).collect();
        assert_eq!(texts, ["One has 2 parts", "Two 3) not a marker", "Three 5. Five"]);
        let items = list_items("iv. Four v. Five").unwrap();
        assert_eq!(items[1], (Marker::Number { kind: Numbering::LowerRoman, value: 5, delimiter: '.' }, "Five"));
        // A dash is cut nowhere: it is a dash inside sentences too.
        assert_eq!(
            list_items("- Paris - the capital - is large").unwrap(),
            [(Marker::Bullet(0), "Paris - the capital - is large")]
        );
        assert_eq!(list_items("Plain text • with a bullet inside"), None);
    }

    #[test]
    fn lists_become_word_lists_without_their_markers() {
        let pages = [page(vec![
            block("1. Introduction", 20.0),
            block("Before the lists.", 12.0),
            block("• First bullet item • Second bullet item • Third bullet item", 12.0),
            block("1. Numbered one 2. Numbered two", 12.0),
            block("3. Numbered three", 12.0),
            block("a) Letter a b) Letter b", 12.0),
            block("After the lists.", 12.0),
            block("4. Four, after a paragraph", 12.0),
        ])];
        let file = docx(&pages, &[]).unwrap();
        let document = part(&file, "word/document.xml");
        assert_eq!(
            texts(&document),
            [
                "1. Introduction",
                "Before the lists.",
                "First bullet item",
                "Second bullet item",
                "Third bullet item",
                "Numbered one",
                "Numbered two",
                "Numbered three",
                "Letter a",
                "Letter b",
                "After the lists.",
                "Four, after a paragraph",
            ]
        );
        let numbered: Vec<&str> =
            document.split("<w:numId w:val=\"").skip(1).map(|rest| &rest[..rest.find('"').unwrap()]).collect();
        // Bullets, the numbered list going on in the next block, the letters, a new list at 4.
        assert_eq!(numbered, ["1", "1", "1", "2", "2", "2", "3", "3", "4"]);
        assert!(
            document.contains(r#"<w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t xml:space="preserve">1. Introduction"#)
        );

        let numbering = part(&file, "word/numbering.xml");
        assert!(numbering.contains(r#"<w:numFmt w:val="bullet"/><w:lvlText w:val="•"/>"#), "{numbering}");
        assert!(numbering.contains(r#"<w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/>"#), "{numbering}");
        for num in [
            r#"<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>"#,
            r#"<w:num w:numId="2"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>"#,
            r#"<w:num w:numId="3"><w:abstractNumId w:val="4"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>"#,
            r#"<w:num w:numId="4"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="4"/></w:lvlOverride></w:num>"#,
        ] {
            assert!(numbering.contains(num), "{num} in {numbering}");
        }
        assert!(numbering.find("<w:abstractNum ").unwrap() < numbering.find("<w:num ").unwrap());
        assert!(part(&file, "[Content_Types].xml").contains(r#"PartName="/word/numbering.xml""#));
        assert!(part(&file, "word/_rels/document.xml.rels").contains(r#"Target="numbering.xml""#));
    }

    /// A table as LibreOffice draws it and Poppler reads it: one block per cell, the cells of a
    /// row centred vertically, and an empty cell in the last row.
    fn table_page() -> PdfPageText {
        page(vec![
            at("Before the table.", 56.8, 28.1, 158.8, 43.7),
            at("Region name", 58.2, 60.4, 138.0, 76.0),
            at("Sales in the year", 165.6, 60.4, 267.5, 76.0),
            at("Growth over last year", 453.9, 53.4, 555.6, 83.0),
            at("North of the country", 58.2, 84.3, 133.1, 113.9),
            at("120 units", 165.6, 91.3, 222.5, 106.9),
            at("5 percent", 453.9, 91.3, 512.2, 106.9),
            at("South", 58.2, 122.3, 93.9, 137.9),
            at("3 percent", 453.9, 122.3, 512.2, 137.9),
            at("After the table.", 56.8, 145.4, 149.2, 161.0),
        ])
    }

    #[test]
    fn a_grid_of_blocks_becomes_a_table() {
        let file = docx(&[table_page()], &[]).unwrap();
        let document = part(&file, "word/document.xml");
        assert_eq!(document.matches("<w:tbl>").count(), 1, "{document}");
        assert_eq!(document.matches("<w:tr>").count(), 3);
        assert_eq!(document.matches("<w:tc>").count(), 9);
        assert_eq!(document.matches("<w:gridCol ").count(), 3);
        let before = document.find("Before the table.").unwrap();
        let (start, end) = (document.find("<w:tbl>").unwrap(), document.find("</w:tbl>").unwrap());
        let after = document.find("After the table.").unwrap();
        assert!(before < start && end < after, "{document}");
        let table = &document[start..end];
        assert_eq!(
            texts(table),
            [
                "Region name",
                "Sales in the year",
                "Growth over last year",
                "North of the country",
                "120 units",
                "5 percent",
                "South",
                "3 percent"
            ]
        );
        // The last row's middle cell is empty.
        let last_row = &table[table.rfind("<w:tr>").unwrap()..];
        assert_eq!(last_row.matches("<w:tc>").count(), 3);
        assert!(last_row.contains("<w:p><w:pPr></w:pPr></w:p>"), "{last_row}");
        // The columns are as wide as on the page, within the page's width.
        let widths: Vec<i64> = table
            .split(r#"<w:gridCol w:w=""#)
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].parse().unwrap())
            .collect();
        assert!(widths[0] < widths[1] && widths[1] > widths[2] && widths.iter().sum::<i64>() <= 451 * 20, "{widths:?}");
    }

    #[test]
    fn blocks_side_by_side_once_or_not_aligned_are_no_table() {
        // A running head: one row.
        let head = page(vec![
            at("Report", 56.0, 20.0, 120.0, 35.0),
            at("Page 3", 480.0, 20.0, 540.0, 35.0),
            block("Body.", 12.0),
        ]);
        // Two columns of text: read column after column, never side by side.
        let columns = page(vec![
            at("Left one.", 56.0, 100.0, 280.0, 200.0),
            at("Left two.", 56.0, 210.0, 280.0, 300.0),
            at("Right one.", 300.0, 100.0, 540.0, 200.0),
            at("Right two.", 300.0, 210.0, 540.0, 300.0),
        ]);
        // Two rows whose blocks do not line up.
        let ragged = page(vec![
            at("a", 56.0, 100.0, 100.0, 115.0),
            at("b", 200.0, 100.0, 250.0, 115.0),
            at("c", 120.0, 120.0, 180.0, 135.0),
            at("d", 300.0, 120.0, 350.0, 135.0),
        ]);
        for page in [head, columns, ragged] {
            let document = part(&docx(&[page], &[]).unwrap(), "word/document.xml");
            assert!(!document.contains("<w:tbl>"), "{document}");
        }
    }

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n-a-picture";
    const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3];

    fn picture(page: usize, format: &str, data: &[u8], x_min: f64, y_min: f64, x_max: f64, y_max: f64) -> PdfImage {
        PdfImage { page, x_min, y_min, x_max, y_max, format: format.into(), data: data.to_vec() }
    }

    #[test]
    fn pictures_are_carried_over_after_the_block_above_them() {
        let pages = [
            page(vec![at("Top text.", 56.8, 28.1, 150.0, 43.7), at("Bottom text.", 56.8, 200.0, 150.0, 215.6)]),
            page(vec![at("Second page.", 56.8, 100.0, 150.0, 115.6)]),
        ];
        let images = [
            // Below the top text: after it. 90×60 points.
            picture(0, "png", PNG, 56.7, 98.0, 146.7, 158.0),
            // Above every block of the second page: first on it, after the page break. Wider than
            // the page: made smaller.
            picture(1, "jpeg", JPEG, 0.0, 10.0, 902.0, 60.0),
            // Not what it says it is, no area, or on a page the translation does not have.
            picture(0, "png", JPEG, 56.7, 98.0, 146.7, 158.0),
            picture(0, "jpeg", JPEG, 56.7, 98.0, 56.7, 158.0),
            picture(2, "png", PNG, 56.7, 98.0, 146.7, 158.0),
        ];
        let file = docx(&pages, &images).unwrap();
        assert_eq!(names(&file)[5..], ["word/media/image1.png".to_owned(), "word/media/image2.jpeg".to_owned()]);
        let mut archive = ZipArchive::new(Cursor::new(&file)).unwrap();
        let mut png = Vec::new();
        archive.by_name("word/media/image1.png").unwrap().read_to_end(&mut png).unwrap();
        assert_eq!(png, PNG);

        let document = part(&file, "word/document.xml");
        let top = document.find("Top text.").unwrap();
        let first = document.find(r#"r:embed="rIdImage1""#).unwrap();
        let bottom = document.find("Bottom text.").unwrap();
        let page_break = document.find(r#"<w:br w:type="page"/>"#).unwrap();
        let second = document.find(r#"r:embed="rIdImage2""#).unwrap();
        let second_page = document.find("Second page.").unwrap();
        assert!(top < first && first < bottom && bottom < page_break && page_break < second && second < second_page);
        assert_eq!(document.matches(r#"<w:br w:type="page"/>"#).count(), 1);
        // 90×60 points in EMU; 902×50 made 451×25.
        assert!(document.contains(r#"<wp:extent cx="1143000" cy="762000"/>"#), "{document}");
        assert!(document.contains(r#"<wp:extent cx="5727700" cy="317500"/>"#), "{document}");
        assert!(document.contains(r#"<wp:docPr id="2" name="Picture 2"/>"#));

        let relationships = part(&file, "word/_rels/document.xml.rels");
        assert!(relationships.contains(r#"<Relationship Id="rIdImage1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/>"#));
        assert!(relationships.contains(r#"Id="rIdImage2""#) && relationships.contains(r#"Target="media/image2.jpeg""#));
        let types = part(&file, "[Content_Types].xml");
        assert!(types.contains(r#"<Default Extension="png" ContentType="image/png"/>"#), "{types}");
        assert!(types.contains(r#"<Default Extension="jpeg" ContentType="image/jpeg"/>"#), "{types}");
    }

    #[test]
    fn a_page_that_starts_with_a_table_or_a_picture_starts_on_a_new_page() {
        let mut table = table_page();
        table.blocks.remove(0);
        let pages = [page(vec![block("First page.", 12.0)]), table, page(vec![])];
        let pictures = [picture(2, "png", PNG, 56.7, 98.0, 146.7, 158.0)];
        let file = docx(&pages, &pictures).unwrap();
        let document = part(&file, "word/document.xml");
        assert!(document.contains(r#"<w:tbl><w:tblPr>"#));
        let first_cell = r#"<w:p><w:pPr><w:pStyle w:val="Normal"/><w:pageBreakBefore/></w:pPr><w:r><w:t xml:space="preserve">Region name</w:t>"#;
        assert!(document.contains(first_cell), "{document}");
        assert_eq!(document.matches("<w:pageBreakBefore/>").count(), 1);
        assert!(document.contains(r#"<w:p><w:r><w:br w:type="page"/></w:r><w:r><w:drawing>"#), "{document}");
        assert_eq!(document.matches(r#"<w:br w:type="page"/>"#).count(), 1);
    }

    #[test]
    fn a_picture_goes_after_the_blocks_of_its_own_column_and_after_a_table() {
        let columns = page(vec![
            at("Left top.", 56.0, 100.0, 280.0, 150.0),
            at("Left bottom.", 56.0, 400.0, 280.0, 450.0),
            at("Right top.", 300.0, 100.0, 540.0, 150.0),
            at("Right bottom.", 300.0, 400.0, 540.0, 450.0),
        ]);
        let left = picture(0, "png", PNG, 56.0, 200.0, 200.0, 300.0);
        let document = part(&docx(&[columns], &[left]).unwrap(), "word/document.xml");
        let image = document.find("w:drawing").unwrap();
        assert!(document.find("Left top.").unwrap() < image && image < document.find("Left bottom.").unwrap());

        let below_cells = picture(0, "png", PNG, 300.0, 130.0, 400.0, 140.0);
        let document = part(&docx(&[table_page()], &[below_cells]).unwrap(), "word/document.xml");
        let image = document.find("w:drawing").unwrap();
        assert!(document.find("</w:tbl>").unwrap() < image && image < document.find("After the table.").unwrap());
    }

    /// Runs LibreOffice on `file` in `dir`: `None` when it is not installed.
    fn soffice(dir: &std::path::Path, file: &str, to: &str, filter: Option<&str>) -> Option<()> {
        let profile = format!("-env:UserInstallation=file://{}", dir.join("profile").display());
        let mut command = std::process::Command::new("soffice");
        command.arg(profile).arg("--headless");
        if let Some(filter) = filter {
            command.arg(format!("--infilter={filter}"));
        }
        let output = command.args(["--convert-to", to, "--outdir"]).arg(dir).arg(dir.join(file)).output().ok()?;
        assert!(output.status.success(), "soffice failed: {}", String::from_utf8_lossy(&output.stderr));
        Some(())
    }

    #[test]
    fn a_libreoffice_pdf_becomes_a_word_document_libreoffice_opens() {
        let dir = tempfile::tempdir().unwrap();
        let status = std::process::Command::new("convert")
            .args(["-size", "120x80", "gradient:blue-yellow"])
            .arg(dir.path().join("picture.png"))
            .status();
        if !status.is_ok_and(|status| status.success()) {
            println!("skipped: ImageMagick's convert is not installed");
            return;
        }
        let html = r#"<html><body>
            <h1 style="font-size:20pt">Annual Report</h1>
            <p>The quick brown fox jumps over the lazy dog near the quiet river bank.</p>
            <ul><li>First bullet item</li><li>Second bullet item</li><li>Third bullet item</li></ul>
            <ol><li>Numbered one</li><li>Numbered two</li></ol>
            <table border="1" width="100%" cellpadding="6"><tr><td>Region name</td><td>Sales in the year</td><td>Growth rate</td></tr>
            <tr><td>North of the country</td><td>120 units</td><td>5 percent</td></tr>
            <tr><td>South of the country</td><td>80 units</td><td>3 percent</td></tr></table>
            <p>After the table.</p>
            <p><img src="picture.png" width="120" height="80"></p>
            <p>Closing paragraph below the picture.</p>
            </body></html>"#;
        std::fs::write(dir.path().join("report.html"), html).unwrap();
        if soffice(dir.path(), "report.html", "pdf", Some("HTML (StarWriter)")).is_none() {
            println!("skipped: LibreOffice (soffice) is not installed");
            return;
        }
        let pdf = std::fs::read(dir.path().join("report.pdf")).unwrap();

        // Read as the service reads it, cut and put back as a document's pieces are.
        let limits = pdf_document::Limits::default();
        let layout = serde_json::to_value(pdf_document::read(&pdf, &limits).unwrap()).unwrap();
        let layout: engines::language_tools::PdfLayout = serde_json::from_value(layout).unwrap();
        let cut = super::super::pdf::cut_layout(&layout).unwrap();
        let outputs: Vec<String> = cut.pieces.into_iter().map(|piece| piece.text).collect();
        let pages = super::super::pdf::write_request(&outputs).unwrap();
        let images = serde_json::to_value(pdf_document::images(&pdf, &limits).unwrap()).unwrap();
        let images: Vec<PdfImage> = serde_json::from_value(images).unwrap();
        assert_eq!(images.len(), 1);
        let file = docx(&pages, &images).unwrap();

        let document = part(&file, "word/document.xml");
        assert!(names(&file).contains(&"word/media/image1.png".to_owned()), "{:?}", names(&file));
        assert_eq!(document.matches("<w:numPr>").count(), 5, "{document}");
        assert_eq!((document.matches("<w:tbl>").count(), document.matches("<w:tc>").count()), (1, 9), "{document}");
        let picture = document.find("w:drawing").unwrap();
        assert!(document.find("After the table.").unwrap() < picture);
        assert!(picture < document.find("Closing paragraph").unwrap());

        // LibreOffice opens it: its own PDF of it has the text, the lists' markers and the picture.
        std::fs::write(dir.path().join("translated.docx"), &file).unwrap();
        soffice(dir.path(), "translated.docx", "pdf", None).unwrap();
        let rendered = dir.path().join("translated.pdf");
        let text = std::process::Command::new("pdftotext").args(["-layout"]).arg(&rendered).arg("-").output().unwrap();
        let text = String::from_utf8_lossy(&text.stdout);
        let lines: Vec<String> = text
            .lines()
            .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|line| !line.is_empty())
            .collect();
        for expected in [
            "Annual Report",
            "• First bullet item",
            "• Third bullet item",
            "1. Numbered one",
            "2. Numbered two",
            "After the table.",
            "Closing paragraph below the picture.",
        ] {
            assert!(lines.iter().any(|line| line == expected), "{expected:?} in {lines:#?}");
        }
        for cell in ["Region name", "Sales in the year", "North of the country", "120 units", "3 percent"] {
            assert!(lines.iter().any(|line| line.contains(cell)), "{cell:?} in {lines:#?}");
        }
        let list = std::process::Command::new("pdfimages").arg("-list").arg(&rendered).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&list.stdout).lines().filter(|line| line.contains(" image ")).count(), 1);
    }

    /// The Word document of the LibreOffice PDF `pdf`, read as the service reads it and its
    /// blocks put back untranslated.
    fn docx_of_pdf(pdf: &[u8]) -> Vec<u8> {
        let limits = pdf_document::Limits::default();
        let layout = serde_json::to_value(pdf_document::read(pdf, &limits).unwrap()).unwrap();
        let layout: engines::language_tools::PdfLayout = serde_json::from_value(layout).unwrap();
        let cut = super::super::pdf::cut_layout(&layout).unwrap();
        let outputs: Vec<String> = cut.pieces.into_iter().map(|piece| piece.text).collect();
        let pages = super::super::pdf::write_request(&outputs).unwrap();
        docx(&pages, &[]).unwrap()
    }

    #[test]
    fn plain_libreoffice_tables_become_word_tables() {
        // No cell padding, rows close together: Poppler reads the first table as one block per
        // column (the first taking in the paragraph after it), the second as one block of rows.
        let html = r#"<html><body>
            <p>Before the tables.</p>
            <table border="1" width="100%"><tr><td>Region name</td><td>Sales in the year</td><td>Growth rate</td></tr>
            <tr><td>North of the country</td><td>120 units</td><td>5 percent</td></tr>
            <tr><td>South of the country</td><td>80 units</td><td>3 percent</td></tr></table>
            <p>After the table.</p>
            <table border="1"><tr><td>Apples</td><td>Pears</td></tr><tr><td>Cherries</td><td>Plums</td></tr></table>
            <p>The end.</p>
            </body></html>"#;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("plain.html"), html).unwrap();
        if soffice(dir.path(), "plain.html", "pdf", Some("HTML (StarWriter)")).is_none() {
            println!("skipped: LibreOffice (soffice) is not installed");
            return;
        }
        let file = docx_of_pdf(&std::fs::read(dir.path().join("plain.pdf")).unwrap());
        let document = part(&file, "word/document.xml");
        assert_eq!(document.matches("<w:tbl>").count(), 2, "{document}");
        let first = &document[document.find("<w:tbl>").unwrap()..document.find("</w:tbl>").unwrap()];
        let second = &document[document.rfind("<w:tbl>").unwrap()..document.rfind("</w:tbl>").unwrap()];
        assert_eq!(first.matches("<w:tr>").count(), 3, "{first}");
        assert_eq!(
            texts(first),
            [
                "Region name",
                "Sales in the year",
                "Growth rate",
                "North of the country",
                "120 units",
                "5 percent",
                "South of the country",
                "80 units",
                "3 percent"
            ]
        );
        assert_eq!(second.matches("<w:tr>").count(), 2, "{second}");
        assert_eq!(texts(second), ["Apples", "Pears", "Cherries", "Plums"]);
        let paragraphs = texts(&document);
        let position = |text: &str| paragraphs.iter().position(|found| *found == text).unwrap();
        assert!(position("Before the tables.") < position("Region name"), "{paragraphs:?}");
        assert!(position("3 percent") < position("After the table."), "{paragraphs:?}");
        assert!(position("After the table.") < position("Apples"), "{paragraphs:?}");
        assert!(position("Plums") < position("The end."), "{paragraphs:?}");
    }
}
