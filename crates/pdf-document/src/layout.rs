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
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Bounds {
    x_min: f32,
    y_min: f32,
    x_max: f32,
    y_max: f32,
}

impl Bounds {
    /// The smallest box around all of `boxes` (the default box when there are none).
    fn union(boxes: impl IntoIterator<Item = Bounds>) -> Bounds {
        boxes
            .into_iter()
            .reduce(|a, b| Bounds {
                x_min: a.x_min.min(b.x_min),
                y_min: a.y_min.min(b.y_min),
                x_max: a.x_max.max(b.x_max),
                y_max: a.y_max.max(b.y_max),
            })
            .unwrap_or_default()
    }
}

/// A word as read, with its horizontal extent: a table's cells are found from the gaps between
/// words.
#[derive(Debug, Clone, PartialEq)]
struct Word {
    x_min: f32,
    x_max: f32,
    text: String,
}

/// A line as read, with its words.
#[derive(Debug, Clone, PartialEq)]
struct RawLine {
    bounds: Bounds,
    words: Vec<Word>,
}

/// A block as read (or a table cell cut out of one), before it becomes a [`Block`].
#[derive(Debug, Clone, PartialEq)]
struct RawBlock {
    bounds: Bounds,
    lines: Vec<RawLine>,
    /// The font size of the block a cell was cut from; `None`: estimated from the lines.
    font_size: Option<f32>,
}

impl RawBlock {
    /// A block of `lines` (at least one), its box theirs.
    fn of_lines(lines: Vec<RawLine>, font_size: Option<f32>) -> RawBlock {
        RawBlock { bounds: Bounds::union(lines.iter().map(|line| line.bounds)), lines, font_size }
    }

    fn font_size(&self) -> f32 {
        self.font_size.unwrap_or_else(|| estimate_font_size(self.lines.iter().map(|line| line.bounds)))
    }

    fn into_block(self) -> Block {
        let font_size = self.font_size();
        let lines: Vec<Line> = self.lines.iter().map(make_line).collect();
        Block {
            text: join_lines(&lines),
            font_size,
            x_min: self.bounds.x_min,
            y_min: self.bounds.y_min,
            x_max: self.bounds.x_max,
            y_max: self.bounds.y_max,
            lines,
        }
    }
}

/// Parses pdftotext's `-bbox-layout` XHTML into a [`Layout`]; tables that pdftotext reads as one
/// block, or as one block per column, are cut into one block per cell ([`split_tables`]).
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
            Event::Text(text) if parser.word.is_some() => parser.push_text(&text.xml10_content()),
            Event::GeneralRef(reference) if parser.word.is_some() => parser.push_reference(&reference)?,
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(Layout { pages })
}

/// The elements open while reading, and what they have collected so far.
#[derive(Default)]
struct Parser {
    page: Option<(Page, Vec<RawBlock>)>,
    block: Option<(Bounds, Vec<RawLine>)>,
    line: Option<RawLine>,
    word: Option<Word>,
}

impl Parser {
    fn start(&mut self, element: &BytesStart) -> Result<(), PdfError> {
        match element.local_name().as_ref() {
            "page" => {
                let width = attribute(element, "width")?;
                let height = attribute(element, "height")?;
                self.page = Some((Page { width, height, blocks: Vec::new(), scanned: false }, Vec::new()));
            }
            "block" => self.block = Some((bounds(element)?, Vec::new())),
            "line" => self.line = Some(RawLine { bounds: bounds(element)?, words: Vec::new() }),
            "word" => {
                let bounds = bounds(element)?;
                self.word = Some(Word { x_min: bounds.x_min, x_max: bounds.x_max, text: String::new() });
            }
            _ => {}
        }
        Ok(())
    }

    fn end(&mut self, name: &str, pages: &mut Vec<Page>) {
        match name {
            "word" => {
                if let (Some(mut word), Some(line)) = (self.word.take(), &mut self.line) {
                    let trimmed = word.text.trim();
                    if !trimmed.is_empty() {
                        word.text = trimmed.to_owned();
                        line.words.push(word);
                    }
                }
            }
            "line" => {
                if let (Some(line), Some((_, lines))) = (self.line.take(), &mut self.block)
                    && !line.words.is_empty()
                {
                    lines.push(line);
                }
            }
            "block" => {
                if let (Some((bounds, lines)), Some((_, blocks))) = (self.block.take(), &mut self.page)
                    && !lines.is_empty()
                {
                    blocks.push(RawBlock { bounds, lines, font_size: None });
                }
            }
            "page" => {
                if let Some((mut page, blocks)) = self.page.take() {
                    page.blocks = split_tables(blocks, page.width).into_iter().map(RawBlock::into_block).collect();
                    pages.push(page);
                }
            }
            _ => {}
        }
    }

    fn push_text(&mut self, text: &str) {
        if let Some(word) = &mut self.word {
            word.text.push_str(text);
        }
    }

    /// Appends an entity such as `&amp;` or `&#233;` inside a word.
    fn push_reference(&mut self, reference: &quick_xml::events::BytesRef) -> Result<(), PdfError> {
        if let Some(character) = reference.resolve_char_ref().map_err(|_| unreadable_text())? {
            self.push_text(character.encode_utf8(&mut [0; 4]));
            return Ok(());
        }
        let name = reference.xml10_content();
        let resolved = quick_xml::escape::resolve_predefined_entity(&name).ok_or_else(unreadable_text)?;
        self.push_text(resolved);
        Ok(())
    }
}

fn make_line(line: &RawLine) -> Line {
    let text = line.words.iter().map(|word| word.text.as_str()).collect::<Vec<_>>().join(" ");
    Line {
        x_min: line.bounds.x_min,
        y_min: line.bounds.y_min,
        x_max: line.bounds.x_max,
        y_max: line.bounds.y_max,
        text,
    }
}

/// How far apart (points) the tops of two lines may be and still be one row of a table.
const ROW_TOLERANCE: f32 = 2.0;

/// How far apart (points) the edges of cells may be and still line up in a column.
const EDGE_TOLERANCE: f32 = 2.0;

/// The narrowest gap between two words of a line (in ems of the block's font size) that may
/// part two table cells. A space is 0.25–0.32 em (Times, Arial, DejaVu: LibreOffice draws 12 pt
/// DejaVu Serif spaces as 3.8 pt gaps); the cells of a plain LibreOffice table, as narrow as
/// their text, are 5.3 pt apart at 12 pt (0.44 em); justified lines stretch their spaces further,
/// but the words of two justified lines do not line up in columns.
const CELL_GAP_PER_FONT_SIZE: f32 = 0.36;

/// The widest a table cell's line may be, as a share of the page's width: the lines of a page's
/// columns of prose are wider.
const MAX_CELL_WIDTH_PER_PAGE_WIDTH: f32 = 0.45;

/// The most words the cells of a table of column blocks have, in the median: the lines of
/// columns of prose side by side have more.
const MAX_MEDIAN_CELL_WORDS: usize = 5;

/// Cuts the tables among a page's blocks (in reading order) into one block per cell, row by row.
///
/// pdftotext reads a table whose rows sit close together either as one block, each row a line
/// (or several lines at the same height) whose cells are parted only by wide gaps between
/// words, or as one block per column, side by side with their lines at the same heights; the
/// first column's block often takes in the paragraph after the table too. Such blocks become one
/// block per cell, and the lines after the table a block of their own. Paragraphs, lists,
/// headings and columns of prose stay whole.
fn split_tables(blocks: Vec<RawBlock>, page_width: f32) -> Vec<RawBlock> {
    let mut blocks: Vec<Option<RawBlock>> = blocks.into_iter().map(Some).collect();
    let mut columns_cut = Vec::with_capacity(blocks.len());
    for index in 0..blocks.len() {
        if blocks[index].is_none() {
            continue;
        }
        // The blocks after it on the page that may be the next columns of a table it starts:
        // those with any line at the height of a line of the columns so far (a column may start
        // lower, below an empty cell), else those whose first line is.
        let mut found = None;
        for any_line in [true, false] {
            let members = columns_beside(&blocks, index, any_line);
            if members.len() < 2 {
                continue;
            }
            let refs: Vec<&RawBlock> = members.iter().filter_map(|&member| blocks[member].as_ref()).collect();
            if let Some(cells) = column_table(&refs, page_width) {
                found = Some((members, cells));
                break;
            }
        }
        let cells = found.map(|(members, cells)| {
            for member in members {
                blocks[member] = None;
            }
            cells
        });
        match cells {
            Some(cells) => columns_cut.extend(cells),
            None => columns_cut.extend(blocks[index].take()),
        }
    }
    let mut split = Vec::with_capacity(columns_cut.len());
    for block in columns_cut {
        split_rows(block, page_width, &mut split);
    }
    split
}

/// `index` and the blocks after it that may be the next columns of a table it starts: of two
/// lines or more, level with it, clear of the columns so far at their side, and with a line (its
/// first, unless `any_line`) at the height of one of theirs.
fn columns_beside(blocks: &[Option<RawBlock>], index: usize, any_line: bool) -> Vec<usize> {
    let mut members = vec![index];
    let Some(first) = &blocks[index] else {
        return members;
    };
    if first.lines.len() < 2 {
        return members;
    }
    for (later, block) in blocks.iter().enumerate().skip(index + 1) {
        let Some(block) = block else {
            continue;
        };
        let columns = || members.iter().filter_map(|&member| blocks[member].as_ref());
        let lines = if any_line { &block.lines[..] } else { &block.lines[..1] };
        let joins = block.lines.len() >= 2
            && block.bounds.y_min < first.bounds.y_max
            && block.bounds.y_max > first.bounds.y_min
            && columns().all(|member| apart(member, block))
            && columns()
                .any(|member| member.lines.iter().any(|line| lines.iter().any(|other| same_height(line, other))));
        if joins {
            members.push(later);
        }
    }
    members
}

/// Whether two lines' tops are at the same height: they may be in one table row.
fn same_height(a: &RawLine, b: &RawLine) -> bool {
    (a.bounds.y_min - b.bounds.y_min).abs() <= ROW_TOLERANCE
}

/// A table cell found in a line: its words and their box.
#[derive(Debug, Clone, PartialEq)]
struct Cell {
    bounds: Bounds,
    words: Vec<Word>,
}

impl Cell {
    fn left(&self) -> f32 {
        self.bounds.x_min
    }

    fn right(&self) -> f32 {
        self.bounds.x_max
    }

    fn centre(&self) -> f32 {
        (self.bounds.x_min + self.bounds.x_max) / 2.0
    }

    fn text(&self) -> String {
        self.words.iter().map(|word| word.text.as_str()).collect::<Vec<_>>().join(" ")
    }

    fn into_block(self, font_size: f32) -> RawBlock {
        RawBlock {
            bounds: self.bounds,
            lines: vec![RawLine { bounds: self.bounds, words: self.words }],
            font_size: Some(font_size),
        }
    }
}

/// The lines of a block grouped into rows: consecutive lines whose tops are at the same height
/// (pdftotext may read the cells of one table row as lines of their own). Each row is the range
/// of its lines.
fn rows(lines: &[RawLine]) -> Vec<std::ops::Range<usize>> {
    let mut rows: Vec<std::ops::Range<usize>> = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        match rows.last_mut() {
            Some(row) if (lines[row.start].bounds.y_min - line.bounds.y_min).abs() <= ROW_TOLERANCE => {
                row.end = index + 1
            }
            _ => rows.push(index..index + 1),
        }
    }
    rows
}

/// The width of every character of `lines` when it is one for all of them: a monospaced font,
/// whose spaces are as wide (0.6 em). Four words with letters or more are needed to tell.
fn monospaced_width(lines: &[RawLine]) -> Option<f32> {
    let words: Vec<&Word> = lines.iter().flat_map(|line| &line.words).collect();
    if words.iter().filter(|word| word.text.chars().any(char::is_alphabetic)).count() < 4 {
        return None;
    }
    let characters = |word: &Word| word.text.chars().count().max(1) as f32;
    let mut widths: Vec<f32> = words.iter().map(|word| (word.x_max - word.x_min) / characters(word)).collect();
    widths.sort_by(f32::total_cmp);
    let width = widths[widths.len() / 2];
    // pdftotext's boxes are rounded to hundredths of a point.
    let fits = |word: &&Word| {
        let expected = width * characters(word);
        (word.x_max - word.x_min - expected).abs() <= 0.1 + 0.005 * expected
    };
    (width > 0.0 && words.iter().all(fits)).then_some(width)
}

/// A row's words, left to right, cut into cells where the gap between two words is at least
/// `min_gap`.
fn cells(lines: &[RawLine], min_gap: f32) -> Vec<Cell> {
    let y_min = lines.iter().map(|line| line.bounds.y_min).fold(f32::INFINITY, f32::min);
    let y_max = lines.iter().map(|line| line.bounds.y_max).fold(f32::NEG_INFINITY, f32::max);
    let mut words: Vec<&Word> = lines.iter().flat_map(|line| &line.words).collect();
    words.sort_by(|a, b| a.x_min.total_cmp(&b.x_min));
    let mut cells: Vec<Cell> = Vec::new();
    for word in words {
        match cells.last_mut() {
            Some(cell) if word.x_min - cell.bounds.x_max < min_gap => {
                cell.bounds.x_max = cell.bounds.x_max.max(word.x_max);
                cell.words.push(word.clone());
            }
            _ => cells.push(Cell {
                bounds: Bounds { x_min: word.x_min, y_min, x_max: word.x_max, y_max },
                words: vec![word.clone()],
            }),
        }
    }
    cells
}

/// Whether rows of cells (at least two, each with as many cells) are a table's: every cell
/// narrow, each column clear of the next (the rightmost edge of a column left of the leftmost
/// edge of the next), the cells of each column lined up by their left or right edges or their
/// centres (a header row above two or more rows may be set otherwise), and not a list (a marker
/// such as `•` or `1.` first in every row).
fn is_grid(rows: &[Vec<Cell>], page_width: f32) -> bool {
    let columns = rows[0].len();
    if rows.len() < 2 || columns < 2 || rows.iter().any(|row| row.len() != columns) {
        return false;
    }
    let max_width = MAX_CELL_WIDTH_PER_PAGE_WIDTH * page_width;
    if rows.iter().flatten().any(|cell| cell.right() - cell.left() > max_width) {
        return false;
    }
    for column in 0..columns - 1 {
        let right = rows.iter().map(|row| row[column].right()).fold(f32::NEG_INFINITY, f32::max);
        let left = rows.iter().map(|row| row[column + 1].left()).fold(f32::INFINITY, f32::min);
        if right >= left {
            return false;
        }
    }
    let body = if rows.len() >= 3 { &rows[1..] } else { rows };
    let lined_up = |edge: fn(&Cell) -> f32, column: usize| {
        let edges = body.iter().map(|row| edge(&row[column]));
        let (low, high) = edges.fold((f32::INFINITY, f32::NEG_INFINITY), |(low, high), x| (low.min(x), high.max(x)));
        high - low <= EDGE_TOLERANCE
    };
    let aligned = (0..columns)
        .all(|column| [Cell::left, Cell::right, Cell::centre].into_iter().any(|edge| lined_up(edge, column)));
    aligned && !rows.iter().all(|row| is_marker(&row[0].text()))
}

/// Whether `text` is a list item's marker: a bullet or dash, or a number, letter or roman numeral
/// with `.` or `)` (`1.`, `a)`, `iv.`, `(2)`).
fn is_marker(text: &str) -> bool {
    const BULLETS: &[&str] =
        &["•", "◦", "▪", "▫", "‣", "●", "○", "■", "□", "◆", "◇", "►", "▸", "–", "—", "-", "*", "·", "✓", "✔"];
    if BULLETS.contains(&text) {
        return true;
    }
    let inner = text.strip_prefix('(').unwrap_or(text);
    let Some(label) = inner.strip_suffix('.').or_else(|| inner.strip_suffix(')')) else {
        return false;
    };
    let digits = !label.is_empty() && label.len() <= 3 && label.chars().all(|c| c.is_ascii_digit());
    let letter = label.chars().count() == 1 && label.chars().all(char::is_alphabetic);
    let roman = !label.is_empty() && label.len() <= 5 && label.chars().all(|c| "ivxlcdmIVXLCDM".contains(c));
    digits || letter || roman
}

/// Cuts a block whose leading lines are rows of a table into one block per cell, row by row; its
/// lines after the table (a paragraph pdftotext joined to it) are a block of their own, itself
/// cut when it starts with a table. Other blocks are pushed as they are.
fn split_rows(block: RawBlock, page_width: f32, out: &mut Vec<RawBlock>) {
    if block.lines.len() < 2 {
        out.push(block);
        return;
    }
    let font_size = block.font_size();
    let rows = rows(&block.lines);
    // In a monospaced font a space is 0.6 em: cells are two spaces apart or more.
    let mut min_gap = CELL_GAP_PER_FONT_SIZE * font_size;
    if let Some(width) = monospaced_width(&block.lines) {
        min_gap = min_gap.max(1.5 * width);
    }
    let cut: Vec<Vec<Cell>> = rows.iter().map(|row| cells(&block.lines[row.clone()], min_gap)).collect();
    let columns = cut[0].len();
    let same = cut.iter().take_while(|row| row.len() == columns).count();
    let Some(taken) = (2..=same).rev().find(|&taken| is_grid(&cut[..taken], page_width)) else {
        out.push(block);
        return;
    };
    let after = rows.get(taken).map(|row| row.start);
    let mut lines = block.lines;
    let rest = after.map(|start| lines.split_off(start));
    out.extend(cut.into_iter().take(taken).flatten().map(|cell| cell.into_block(font_size)));
    if let Some(rest) = rest {
        split_rows(RawBlock::of_lines(rest, None), page_width, out);
    }
}

/// Whether two lines share some height, at least half of the lower one's.
fn level(a: &Bounds, b: &Bounds) -> bool {
    let shared = a.y_max.min(b.y_max) - a.y_min.max(b.y_min);
    shared > 0.5 * (a.y_max - a.y_min).min(b.y_max - b.y_min)
}

/// Whether no line of `a` overlaps a line of `b` at its side.
fn apart(a: &RawBlock, b: &RawBlock) -> bool {
    a.lines.iter().all(|one| {
        b.lines.iter().all(|other| {
            !level(&one.bounds, &other.bounds)
                || one.bounds.x_max <= other.bounds.x_min + 0.5
                || other.bounds.x_max <= one.bounds.x_min + 0.5
        })
    })
}

/// The cells of the table that `members` make when they are its columns: two or more blocks of
/// a page (the first in reading order, then later ones beside it), of two lines or more, side by
/// side, whose lines sit at the same heights (a table's rows: each a height at which two or more of the blocks have a
/// line). A block's line between two rows goes on the cell above it; its lines below the last
/// row (the paragraph after the table) are a block of their own after the cells. The cells are
/// ordered row by row, left to right. Columns of prose (wide lines, many words, lines going on
/// in lower case) and a column of list markers beside their items are not a table.
fn column_table(members: &[&RawBlock], page_width: f32) -> Option<Vec<RawBlock>> {
    if members.len() < 2 || members.iter().any(|member| member.lines.len() < 2) {
        return None;
    }
    // The rows' heights: the tops of lines that another member has a line beside.
    let mut tops: Vec<f32> = Vec::new();
    for (index, member) in members.iter().enumerate() {
        for line in &member.lines {
            let shared = members
                .iter()
                .enumerate()
                .any(|(other, block)| other != index && block.lines.iter().any(|beside| same_height(line, beside)));
            if shared {
                tops.push(line.bounds.y_min);
            }
        }
    }
    tops.sort_by(f32::total_cmp);
    let mut heights: Vec<f32> = Vec::new();
    for top in tops {
        if heights.last().is_none_or(|last| top - last > ROW_TOLERANCE) {
            heights.push(top);
        }
    }
    let last_row = *heights.last()?;
    if heights.len() < 2 {
        return None;
    }
    let row_of = |line: &RawLine| heights.iter().position(|top| (line.bounds.y_min - top).abs() <= ROW_TOLERANCE);

    // Members left to right; each one's cells by row, and its lines after the table.
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|a, b| members[*a].bounds.x_min.total_cmp(&members[*b].bounds.x_min));
    let mut grid: Vec<Vec<Option<Vec<RawLine>>>> = vec![vec![None; members.len()]; heights.len()];
    let mut after: Vec<Vec<RawLine>> = vec![Vec::new(); members.len()];
    for (column, &member) in order.iter().enumerate() {
        let mut current: Option<usize> = None;
        let mut in_rows = 0;
        for (index, line) in members[member].lines.iter().enumerate() {
            if let Some(row) = row_of(line) {
                if grid[row][column].is_some() || current.is_some_and(|current| current >= row) {
                    return None;
                }
                grid[row][column] = Some(vec![line.clone()]);
                current = Some(row);
                in_rows += 1;
            } else if line.bounds.y_min > last_row + ROW_TOLERANCE {
                after[member] = members[member].lines[index..].to_vec();
                break;
            } else {
                grid[current?][column].as_mut()?.push(line.clone());
            }
        }
        if in_rows < 2 {
            return None;
        }
    }

    let cell_lines: Vec<&RawLine> = grid.iter().flatten().flatten().flatten().collect();
    let max_width = MAX_CELL_WIDTH_PER_PAGE_WIDTH * page_width;
    if cell_lines.iter().any(|line| line.bounds.x_max - line.bounds.x_min > max_width) {
        return None;
    }
    let mut words: Vec<usize> = cell_lines.iter().map(|line| line.words.len()).collect();
    words.sort_unstable();
    if words[words.len() / 2] > MAX_MEDIAN_CELL_WORDS {
        return None;
    }
    // Prose goes on from line to line in lower case; table cells mostly start anew.
    let starts: Vec<&RawLine> = grid.iter().skip(1).flatten().flatten().filter_map(|lines| lines.first()).collect();
    let going_on =
        starts.iter().filter(|line| line.words.first().is_some_and(|word| starts_lower_case(&word.text))).count();
    if 2 * going_on > starts.len() {
        return None;
    }
    let first_column = grid.iter().filter_map(|row| row[0].as_ref());
    let markers = first_column
        .clone()
        .all(|lines| lines.len() == 1 && lines[0].words.len() == 1 && is_marker(&lines[0].words[0].text));
    if markers {
        return None;
    }

    let sizes: Vec<f32> = members.iter().map(|member| member.font_size()).collect();
    let mut split: Vec<RawBlock> = Vec::new();
    for row in grid {
        for (column, lines) in row.into_iter().enumerate() {
            if let Some(lines) = lines {
                split.push(RawBlock::of_lines(lines, Some(sizes[order[column]])));
            }
        }
    }
    split.extend(after.into_iter().filter(|lines| !lines.is_empty()).map(|lines| RawBlock::of_lines(lines, None)));
    Some(split)
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
fn estimate_font_size(lines: impl Iterator<Item = Bounds>) -> f32 {
    let mut heights: Vec<f32> = lines.map(|line| (line.y_max - line.y_min).max(0.0)).collect();
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

    /// The width of `text` in a proportional font at 12 pt, roughly.
    fn width(text: &str) -> f32 {
        let character = |c: char| match c {
            'i' | 'l' | 't' | 'f' | 'r' | '.' | ',' | ':' | ';' | '1' => 3.5,
            'm' | 'w' | 'M' | 'W' => 9.0,
            c if c.is_uppercase() => 7.5,
            _ => 6.0,
        };
        text.chars().map(character).sum()
    }

    /// A line at `top` (15.6 pt high, as 12 pt text) of words starting at the given x.
    fn raw_line(top: f32, words: &[(f32, &str)]) -> RawLine {
        let words: Vec<Word> = words
            .iter()
            .map(|(x, text)| Word { x_min: *x, x_max: x + width(text), text: (*text).to_owned() })
            .collect();
        let bounds =
            Bounds { x_min: words[0].x_min, y_min: top, x_max: words[words.len() - 1].x_max, y_max: top + 15.6 };
        RawLine { bounds, words }
    }

    /// A line of `text`'s words at `top` from `left`, one 4 pt space apart.
    fn prose(top: f32, left: f32, text: &str) -> RawLine {
        let mut x = left;
        let mut words = Vec::new();
        for word in text.split(' ') {
            words.push((x, word));
            x += width(word) + 4.0;
        }
        raw_line(top, &words)
    }

    fn raw_block(lines: Vec<RawLine>) -> RawBlock {
        RawBlock::of_lines(lines, None)
    }

    fn texts(blocks: Vec<RawBlock>) -> Vec<String> {
        blocks.into_iter().map(|block| block.into_block().text).collect()
    }

    #[test]
    fn a_block_of_table_rows_becomes_a_block_per_cell_and_the_paragraph_after_it_its_own() {
        // Cells 5.3 pt apart (a plain LibreOffice table as narrow as its text), words 3.8 apart.
        let block = raw_block(vec![
            raw_line(100.0, &[(58.0, "Apples"), (105.3, "Pears"), (150.0, "2"), (159.8, "euros")]),
            raw_line(117.0, &[(58.0, "Cherries"), (105.3, "Plums"), (150.0, "3"), (159.8, "euros")]),
            prose(134.0, 56.8, "A paragraph after the table."),
            prose(150.0, 56.8, "It goes on."),
        ]);
        let split = split_tables(vec![block], 595.0);
        assert!(split[..6].iter().all(|cell| cell.font_size == Some(12.0) && cell.lines.len() == 1));
        let pears = split[1].clone().into_block();
        assert_eq!((pears.x_min, pears.y_min, pears.x_max, pears.y_max), (105.3, 100.0, 134.3, 115.6));
        assert_eq!(pears.lines[0].text, "Pears");
        assert_eq!(
            texts(split),
            ["Apples", "Pears", "2 euros", "Cherries", "Plums", "3 euros", "A paragraph after the table. It goes on."]
        );
    }

    #[test]
    fn cells_on_lines_of_their_own_make_one_row_and_a_centred_header_row_may_lead() {
        let block = raw_block(vec![
            raw_line(100.0, &[(70.0, "Fruit"), (125.0, "Colour")]),
            raw_line(117.0, &[(58.0, "Apples")]),
            raw_line(117.0, &[(116.0, "Red")]),
            raw_line(134.0, &[(58.0, "Bananas"), (116.0, "Yellow")]),
        ]);
        assert_eq!(texts(split_tables(vec![block], 595.0)), ["Fruit", "Colour", "Apples", "Red", "Bananas", "Yellow"]);
        // With only two rows, both must line up.
        let block = raw_block(vec![
            raw_line(100.0, &[(70.0, "Fruit"), (125.0, "Colour")]),
            raw_line(117.0, &[(58.0, "Apples"), (116.0, "Red")]),
        ]);
        assert_eq!(texts(split_tables(vec![block], 595.0)), ["Fruit Colour Apples Red"]);
    }

    #[test]
    fn paragraphs_justified_lines_and_lists_stay_whole() {
        // Justified: every gap wide, but the words of the lines do not line up.
        let justified = raw_block(vec![
            raw_line(100.0, &[(56.8, "Justified"), (117.0, "text"), (147.0, "is"), (165.0, "spread")]),
            raw_line(117.0, &[(56.8, "across"), (99.0, "the"), (124.0, "whole"), (161.0, "width")]),
            prose(134.0, 56.8, "of the column."),
        ]);
        let bullets = raw_block(vec![
            raw_line(100.0, &[(78.0, "•"), (94.0, "First"), (122.0, "item")]),
            raw_line(117.0, &[(78.0, "•"), (94.0, "Second"), (135.5, "item")]),
        ]);
        let numbers = raw_block(vec![
            raw_line(100.0, &[(78.0, "1."), (100.0, "One")]),
            raw_line(117.0, &[(78.0, "2."), (100.0, "Two")]),
            raw_line(134.0, &[(78.0, "10."), (100.0, "Ten")]),
        ]);
        let paragraph = raw_block(vec![
            prose(200.0, 56.8, "An ordinary paragraph with"),
            prose(217.0, 56.8, "normal spaces between words."),
        ]);
        let heading = raw_block(vec![raw_line(300.0, &[(56.8, "Annual"), (110.0, "Report")])]);
        // A monospaced font's spaces are 0.6 em wide, and its words line up.
        let mono = |top: f32, words: &[&str]| {
            let mut x = 56.8;
            let mut placed = Vec::new();
            for word in words {
                placed.push(Word { x_min: x, x_max: x + 6.0 * word.len() as f32, text: (*word).to_owned() });
                x += 6.0 * (word.len() + 1) as f32;
            }
            RawLine { bounds: Bounds { x_min: 56.8, y_min: top, x_max: x - 6.0, y_max: top + 13.0 }, words: placed }
        };
        let code = raw_block(vec![mono(400.0, &["let", "x", "=", "5;"]), mono(412.0, &["let", "y", "=", "6;"])]);
        let blocks = vec![justified, bullets, numbers, paragraph, heading, code];
        assert_eq!(split_tables(blocks.clone(), 595.0), blocks);
    }

    #[test]
    fn blocks_side_by_side_with_lines_at_the_same_heights_are_a_tables_columns() {
        let first = raw_block(vec![
            prose(100.0, 58.0, "Region name"),
            prose(117.0, 58.0, "North of the country"),
            prose(134.0, 58.0, "South"),
            prose(150.0, 56.8, "After the table."),
        ]);
        let second = raw_block(vec![
            prose(100.0, 268.0, "Sales"),
            prose(117.0, 268.0, "120 units"),
            prose(134.0, 268.0, "80 units"),
        ]);
        let third =
            raw_block(vec![prose(100.5, 437.0, "Growth"), prose(117.0, 437.0, "5 %"), prose(134.0, 437.0, "3 %")]);
        let after = raw_block(vec![prose(200.0, 56.8, "Later."), prose(217.0, 56.8, "Much later.")]);
        let split = split_tables(vec![first, second, third, after], 595.0);
        assert!(split[..9].iter().all(|cell| cell.font_size == Some(12.0)));
        assert_eq!(
            texts(split),
            [
                "Region name",
                "Sales",
                "Growth",
                "North of the country",
                "120 units",
                "5 %",
                "South",
                "80 units",
                "3 %",
                "After the table.",
                "Later. Much later.",
            ]
        );
        // A column that starts lower, below an empty cell: it joins by a line lower down.
        let first =
            raw_block(vec![prose(117.0, 58.0, "North"), prose(134.0, 58.0, "South"), prose(150.0, 56.8, "After.")]);
        let second = raw_block(vec![prose(100.0, 268.0, "Q1"), prose(117.0, 268.0, "5")]);
        let third = raw_block(vec![prose(100.0, 437.0, "Q2"), prose(117.0, 437.0, "6"), prose(134.0, 437.0, "8")]);
        assert_eq!(
            texts(split_tables(vec![first, second, third], 595.0)),
            ["Q1", "Q2", "North", "5", "6", "South", "8", "After."]
        );
        // Between the columns, in reading order, a block that is no column: they still join.
        let left = raw_block(vec![prose(100.0, 58.0, "Name"), prose(117.0, 58.0, "Alice")]);
        let other = raw_block(vec![prose(20.0, 58.0, "Page header")]);
        let right = raw_block(vec![prose(100.0, 200.0, "Age"), prose(117.0, 200.0, "30")]);
        assert_eq!(texts(split_tables(vec![left, other, right], 595.0)), ["Name", "Age", "Alice", "30", "Page header"]);
    }

    #[test]
    fn columns_of_prose_and_a_column_of_bullets_are_no_table() {
        let left = raw_block(vec![
            prose(100.0, 56.8, "The left column of prose is a long"),
            prose(116.0, 56.8, "paragraph that wraps over several"),
            prose(132.0, 56.8, "lines inside its column of the page."),
        ]);
        let right = raw_block(vec![
            prose(100.0, 320.0, "The right column of prose is another"),
            prose(116.0, 320.0, "paragraph that wraps over several"),
            prose(132.0, 320.0, "lines too, beside the first one."),
        ]);
        let blocks = vec![left, right];
        assert_eq!(split_tables(blocks.clone(), 595.0), blocks);
        // Short lines, but each going on from the one above in lower case.
        let left = raw_block(vec![
            prose(100.0, 56.8, "Short lines"),
            prose(116.0, 56.8, "that go on"),
            prose(132.0, 56.8, "and on"),
        ]);
        let right = raw_block(vec![
            prose(100.0, 320.0, "Other lines"),
            prose(116.0, 320.0, "going on"),
            prose(132.0, 320.0, "as well"),
        ]);
        let blocks = vec![left, right];
        assert_eq!(split_tables(blocks.clone(), 595.0), blocks);
        let bullets = raw_block(vec![prose(100.0, 78.0, "•"), prose(116.0, 78.0, "•")]);
        let items = raw_block(vec![prose(100.0, 96.0, "First item"), prose(116.0, 96.0, "Second item")]);
        let blocks = vec![bullets, items];
        assert_eq!(split_tables(blocks.clone(), 595.0), blocks);
        // Lines at different heights.
        let left = raw_block(vec![prose(100.0, 58.0, "Name"), prose(117.0, 58.0, "Alice")]);
        let right = raw_block(vec![prose(107.0, 200.0, "Age"), prose(124.0, 200.0, "30")]);
        let blocks = vec![left, right];
        assert_eq!(split_tables(blocks.clone(), 595.0), blocks);
    }

    #[test]
    fn markers_are_bullets_and_numbered_labels() {
        for marker in ["•", "◦", "▪", "-", "*", "1.", "12)", "a)", "B.", "iv.", "(3)"] {
            assert!(is_marker(marker), "{marker}");
        }
        for text in ["Apples", "1", "2024.", "euros", "x1.", ""] {
            assert!(!is_marker(text), "{text}");
        }
    }
}
