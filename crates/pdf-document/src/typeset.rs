//! Setting a block's translation in its box: word wrapping, shrinking to fit, and the content
//! stream operators that draw it. No shaping: glyphs are placed left to right, one per character.

use std::collections::BTreeMap;
use std::fmt::Write;

use subsetter::GlyphRemapper;

use crate::fonts::{Glyph, GlyphPicker};
use crate::write::BlockText;

/// Lines are set this many font sizes apart.
const LEADING: f32 = 1.2;
/// The font shrinks in these steps, down to [`SMALLEST_SCALE`], until the text fits its box.
const SCALE_STEP: f32 = 0.05;
const SMALLEST_SCALE: f32 = 0.6;

/// The glyphs of one face used in the document: their new ids in the subset, widths and text.
#[derive(Default)]
pub(crate) struct UsedGlyphs {
    pub remapper: GlyphRemapper,
    /// New glyph id → the character it draws (for the /ToUnicode map).
    pub characters: BTreeMap<u16, char>,
}

/// Sets blocks in page space and collects the glyphs used, face by face.
pub(crate) struct Typesetter<'a> {
    picker: GlyphPicker<'a>,
    /// Indexed by the face's slot in [`crate::Fonts`].
    pub used: BTreeMap<usize, UsedGlyphs>,
}

/// Where a page's display space (top-left origin, pdftotext's coordinates) lies: its height,
/// so that y can be turned upwards.
pub(crate) struct PageSpace {
    pub height: f32,
}

/// A block's text broken into lines at a font size.
struct Setting {
    size: f32,
    lines: Vec<Vec<Glyphed>>,
}

/// A character with its glyph.
#[derive(Clone, Copy)]
struct Glyphed {
    character: char,
    glyph: Glyph,
}

impl<'a> Typesetter<'a> {
    pub fn new(picker: GlyphPicker<'a>) -> Typesetter<'a> {
        Typesetter { picker, used: BTreeMap::new() }
    }

    /// The operators drawing one block, in a coordinate system with its origin at the bottom
    /// left of the displayed page and y upwards.
    pub fn draw_block(&mut self, block: &BlockText, page: &PageSpace) -> String {
        let text: Vec<Glyphed> = block
            .text
            .chars()
            .map(normalise_space)
            .filter(|character| !character.is_control())
            .map(|character| Glyphed { character, glyph: self.picker.glyph(character) })
            .collect();
        if text.iter().all(|glyphed| glyphed.character.is_whitespace()) {
            return String::new();
        }
        let setting = fit(&text, block);
        self.operators(&setting, block, page)
    }

    fn operators(&mut self, setting: &Setting, block: &BlockText, page: &PageSpace) -> String {
        let mut out = String::from("BT\n0 g\n");
        let first_baseline = block.y_min + self.picker.ascent() * setting.size;
        for (number, line) in setting.lines.iter().enumerate() {
            let baseline = first_baseline + number as f32 * LEADING * setting.size;
            let _ = writeln!(out, "1 0 0 1 {} {} Tm", num(block.x_min), num(page.height - baseline));
            self.show_runs(&mut out, line, setting.size);
        }
        out.push_str("ET\n");
        out
    }

    /// Shows a line as runs of glyphs of one face each: `/F<slot> size Tf <ids> Tj`.
    fn show_runs(&mut self, out: &mut String, line: &[Glyphed], size: f32) {
        let mut start = 0;
        while start < line.len() {
            let slot = line[start].glyph.slot;
            let end = line[start..].iter().position(|g| g.glyph.slot != slot).map_or(line.len(), |n| start + n);
            let used = self.used.entry(slot).or_default();
            let _ = write!(out, "/{} {} Tf <", font_resource_name(slot), num(size));
            for glyphed in &line[start..end] {
                let new_id = used.remapper.remap(glyphed.glyph.glyph);
                if glyphed.glyph.glyph != 0 {
                    used.characters.entry(new_id).or_insert(glyphed.character);
                }
                let _ = write!(out, "{new_id:04X}");
            }
            out.push_str("> Tj\n");
            start = end;
        }
    }
}

/// The resource name of the face in `slot` on every page.
pub(crate) fn font_resource_name(slot: usize) -> String {
    format!("GlossaF{slot}")
}

/// Tabs, line breaks and no-break spaces become plain spaces.
fn normalise_space(character: char) -> char {
    if character.is_whitespace() { ' ' } else { character }
}

/// Breaks the text into lines at the block's font size, shrinking the size in steps down to
/// 60 % until the lines fit the box's height; past that the text runs below the box.
fn fit(text: &[Glyphed], block: &BlockText) -> Setting {
    let base = if block.font_size.is_finite() && block.font_size > 0.5 { block.font_size.min(400.0) } else { 10.0 };
    let width = (block.x_max - block.x_min).max(1.0);
    let height = (block.y_max - block.y_min).max(0.0);
    let mut scale = 1.0;
    loop {
        let size = base * scale;
        let lines = wrap(text, width / size * 1000.0);
        let needed = ((lines.len().max(1) - 1) as f32 * LEADING + 1.0) * size;
        if needed <= height * 1.02 + 0.5 || scale - SCALE_STEP < SMALLEST_SCALE - 1e-3 {
            return Setting { size, lines };
        }
        scale -= SCALE_STEP;
    }
}

/// Greedy word wrap in thousandths of an em: lines break at spaces, and between any two
/// CJK characters; a word wider than the line is broken between characters.
fn wrap(text: &[Glyphed], max_width: f32) -> Vec<Vec<Glyphed>> {
    let mut lines: Vec<Vec<Glyphed>> = Vec::new();
    let mut line: Vec<Glyphed> = Vec::new();
    let mut line_width = 0.0;
    for piece in pieces(text) {
        let (space, word) = match piece.split_first() {
            Some((first, rest)) if first.character == ' ' => (Some(*first), rest),
            _ => (None, piece),
        };
        let space_width = space.map_or(0.0, |space| space.glyph.width);
        let word_width: f32 = word.iter().map(|glyphed| glyphed.glyph.width).sum();
        if !line.is_empty() && line_width + space_width + word_width > max_width {
            lines.push(std::mem::take(&mut line));
            line_width = 0.0;
        }
        if let (Some(space), false) = (space, line.is_empty()) {
            line.push(space);
            line_width += space_width;
        }
        for glyphed in word {
            if !line.is_empty() && line_width + glyphed.glyph.width > max_width {
                lines.push(std::mem::take(&mut line));
                line_width = 0.0;
            }
            line.push(*glyphed);
            line_width += glyphed.glyph.width;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Cuts the text into unbreakable pieces: a word with the space before it, or one CJK character.
fn pieces(text: &[Glyphed]) -> Vec<&[Glyphed]> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for index in 1..=text.len() {
        let breaks = index == text.len()
            || text[index].character == ' '
            || is_cjk(text[index].character)
            || is_cjk(text[index - 1].character);
        if breaks {
            let piece = &text[start..index];
            if !piece.is_empty() {
                pieces.push(piece);
            }
            start = index;
        }
    }
    // A piece is [space?, word...]; collapse runs of spaces into the first.
    pieces.into_iter().map(trim_extra_spaces).filter(|piece| !piece.is_empty()).collect()
}

/// Keeps one leading space of a piece; a piece of spaces only keeps none, since the next word
/// brings its own.
fn trim_extra_spaces(piece: &[Glyphed]) -> &[Glyphed] {
    if piece.iter().all(|g| g.character == ' ') {
        return &piece[..0];
    }
    piece
}

/// Characters that may break a line on either side: Han, kana, CJK punctuation, full-width forms.
fn is_cjk(character: char) -> bool {
    matches!(character as u32,
        0x2E80..=0x303F | 0x3040..=0x30FF | 0x31F0..=0x31FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x2FFFF)
}

/// A number for a content stream: two decimals, no exponent.
fn num(value: f32) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_owned() } else { text.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyphed(text: &str) -> Vec<Glyphed> {
        text.chars().map(|character| Glyphed { character, glyph: Glyph { slot: 0, glyph: 1, width: 500.0 } }).collect()
    }

    fn lines_of(lines: &[Vec<Glyphed>]) -> Vec<String> {
        lines.iter().map(|line| line.iter().map(|g| g.character).collect()).collect()
    }

    #[test]
    fn words_wrap_at_spaces() {
        let text = glyphed("aa bb cc dd");
        assert_eq!(lines_of(&wrap(&text, 2500.0)), ["aa bb", "cc dd"]);
        assert_eq!(lines_of(&wrap(&glyphed("  aa   bb "), 2500.0)), ["aa bb"]);
    }

    #[test]
    fn cjk_breaks_between_characters_and_long_words_are_cut() {
        let text = glyphed("日本語の文");
        assert_eq!(lines_of(&wrap(&text, 1000.0)), ["日本", "語の", "文"]);
        assert_eq!(lines_of(&wrap(&glyphed("abcde"), 1000.0)), ["ab", "cd", "e"]);
    }

    #[test]
    fn the_font_shrinks_to_fit_then_stops_at_sixty_percent() {
        let block = |height| BlockText {
            text: String::new(),
            x_min: 0.0,
            y_min: 0.0,
            x_max: 10.0,
            y_max: height,
            font_size: 10.0,
        };
        let text = glyphed("aa bb");
        assert_eq!(fit(&text, &block(100.0)).size, 10.0);
        let small = fit(&text, &block(1.0));
        assert!((small.size - 6.0).abs() < 0.01, "{}", small.size);
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.345), "12.35");
        assert_eq!(num(-0.001), "0");
    }
}
