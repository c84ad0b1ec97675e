//! Setting a block's translation in its box: shaping, word wrapping, shrinking to fit, and the
//! content stream operators that draw it. Text is shaped by [`crate::shape`]; right-to-left
//! paragraphs are wrapped in logical order, each line drawn in visual order and right-aligned.

use std::collections::BTreeMap;
use std::fmt::Write;

use subsetter::GlyphRemapper;

use crate::fonts::GlyphPicker;
use crate::shape::{Cluster, ShapedGlyph, visual_order};
use crate::write::BlockText;

/// Lines are set this many font sizes apart.
const LEADING: f32 = 1.2;
/// The font shrinks in these steps, down to [`SMALLEST_SCALE`], until the text fits its box.
const SCALE_STEP: f32 = 0.05;
const SMALLEST_SCALE: f32 = 0.6;

/// The glyphs of one face used in the document: their new ids in the subset and their text.
#[derive(Default)]
pub(crate) struct UsedGlyphs {
    pub remapper: GlyphRemapper,
    /// New glyph id → the text it draws (for the /ToUnicode map): the text of the cluster it
    /// was first seen in; the other glyphs of a cluster of several draw no text of their own.
    pub texts: BTreeMap<u16, String>,
}

impl UsedGlyphs {
    /// Records that `new_id` draws `text`: the first text seen is kept, an empty one is replaced.
    fn record(&mut self, new_id: u16, text: &str) {
        let entry = self.texts.entry(new_id).or_default();
        if entry.is_empty() {
            text.clone_into(entry);
        }
    }
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
    lines: Vec<Vec<Cluster>>,
}

/// A glyph to show: its cluster's number on the line and, when the cluster is marked with its
/// text, that text.
struct Shown<'c> {
    glyph: ShapedGlyph,
    cluster: usize,
    actual: Option<&'c str>,
}

impl<'a> Typesetter<'a> {
    pub fn new(picker: GlyphPicker<'a>) -> Typesetter<'a> {
        Typesetter { picker, used: BTreeMap::new() }
    }

    /// The operators drawing one block, in a coordinate system with its origin at the bottom
    /// left of the displayed page and y upwards.
    pub fn draw_block(&mut self, block: &BlockText, page: &PageSpace) -> String {
        let text: String =
            block.text.chars().map(normalise_space).filter(|character| !character.is_control()).collect();
        if text.chars().all(|character| character.is_whitespace()) {
            return String::new();
        }
        let shaped = self.picker.shape(&text);
        let setting = fit(&shaped.clusters, block);
        self.operators(&setting, shaped.rtl, block, page)
    }

    fn operators(&mut self, setting: &Setting, rtl: bool, block: &BlockText, page: &PageSpace) -> String {
        let mut out = String::from("BT\n0 g\n");
        let first_baseline = block.y_min + self.picker.ascent() * setting.size;
        for (number, line) in setting.lines.iter().enumerate() {
            let baseline = first_baseline + number as f32 * LEADING * setting.size;
            let line_width: f32 = line.iter().map(|cluster| cluster.width).sum::<f32>() * setting.size;
            let x = if rtl { block.x_max - line_width } else { block.x_min };
            let _ = writeln!(out, "1 0 0 1 {} {} Tm", num(x), num(page.height - baseline));
            let levels: Vec<u8> = line.iter().map(|cluster| cluster.level).collect();
            let mut shown = Vec::new();
            for (number, index) in visual_order(&levels).into_iter().enumerate() {
                let cluster = &line[index];
                // The cluster's text goes with its first glyph in logical order.
                let first = if cluster.is_rtl() { cluster.glyphs.len().saturating_sub(1) } else { 0 };
                let mut mapped = true;
                for (position, glyph) in cluster.glyphs.iter().enumerate() {
                    let used = self.used.entry(glyph.face).or_default();
                    let new_id = used.remapper.remap(glyph.id);
                    let text = if position == first { cluster.text.as_str() } else { "" };
                    if glyph.id != 0 {
                        used.record(new_id, text);
                    }
                    mapped &= used.texts.get(&new_id).is_none_or(|recorded| recorded == text);
                }
                let actual = (cluster.glyphs.len() > 1 || !mapped).then_some(cluster.text.as_str());
                for glyph in &cluster.glyphs {
                    shown.push(Shown { glyph: *glyph, cluster: number, actual });
                }
            }
            self.show_glyphs(&mut out, &shown, setting.size);
        }
        out.push_str("ET\n");
        out
    }

    /// Shows a line's glyphs as runs of one face and one vertical offset each:
    /// `/F<slot> size Tf rise Ts [<id> adjustment <id> …] TJ`. The adjustments move each glyph
    /// from where its /W width would put it to where the shaper placed it, and the pen to the
    /// shaped end of the run. A cluster whose glyphs do not each stand for their own text (a
    /// vowel sign drawn before its consonant, a letter with marks, a glyph already mapped to
    /// another text) is marked with its text as `/Span << /ActualText … >> BDC … EMC`.
    fn show_glyphs(&mut self, out: &mut String, line: &[Shown], size: f32) {
        let mut face = None;
        let mut rise = 0.0;
        let mut open_span: Option<usize> = None;
        let mut start = 0;
        while start < line.len() {
            let first = &line[start];
            let end = line[start..]
                .iter()
                .position(|shown| {
                    shown.glyph.face != first.glyph.face
                        || shown.glyph.y_offset != first.glyph.y_offset
                        || (shown.cluster != first.cluster && (shown.actual.is_some() || first.actual.is_some()))
                })
                .map_or(line.len(), |n| start + n);
            if open_span.is_some() && open_span != first.actual.map(|_| first.cluster) {
                out.push_str("EMC\n");
                open_span = None;
            }
            if let (Some(text), None) = (first.actual, open_span) {
                let hex: String = text.encode_utf16().map(|unit| format!("{unit:04X}")).collect();
                let _ = writeln!(out, "/Span <</ActualText <FEFF{hex}>>> BDC");
                open_span = Some(first.cluster);
            }
            if face != Some(first.glyph.face) {
                let _ = writeln!(out, "/{} {} Tf", font_resource_name(first.glyph.face), num(size));
                face = Some(first.glyph.face);
            }
            if first.glyph.y_offset != rise {
                let _ = writeln!(out, "{} Ts", num(first.glyph.y_offset * size));
                rise = first.glyph.y_offset;
            }
            let used = self.used.entry(first.glyph.face).or_default();
            out.push('[');
            // How far the pen is behind the shaper's pen, in thousandths of an em.
            let mut behind: f32 = 0.0;
            for shown in &line[start..end] {
                let glyph = shown.glyph;
                let adjustment = behind + glyph.x_offset * 1000.0;
                if adjustment.abs() >= 0.005 {
                    let _ = write!(out, "{} ", num(-adjustment));
                }
                let _ = write!(out, "<{:04X}> ", used.remapper.remap(glyph.id));
                // After the glyph the pen is its /W width past the glyph's origin.
                behind = glyph.advance * 1000.0 - glyph.x_offset * 1000.0 - (glyph.width * 1000.0).round();
            }
            if behind.abs() >= 0.005 {
                let _ = write!(out, "{}", num(-behind));
            }
            out.push_str("] TJ\n");
            start = end;
        }
        if open_span.is_some() {
            out.push_str("EMC\n");
        }
        if rise != 0.0 {
            out.push_str("0 Ts\n");
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
fn fit(text: &[Cluster], block: &BlockText) -> Setting {
    let base = if block.font_size.is_finite() && block.font_size > 0.5 { block.font_size.min(400.0) } else { 10.0 };
    let width = (block.x_max - block.x_min).max(1.0);
    let height = (block.y_max - block.y_min).max(0.0);
    let mut scale = 1.0;
    loop {
        let size = base * scale;
        let lines = wrap(text, width / size);
        let needed = ((lines.len().max(1) - 1) as f32 * LEADING + 1.0) * size;
        if needed <= height * 1.02 + 0.5 || scale - SCALE_STEP < SMALLEST_SCALE - 1e-3 {
            return Setting { size, lines };
        }
        scale -= SCALE_STEP;
    }
}

/// Greedy word wrap in ems, in logical order: lines break at spaces, and between any two CJK
/// characters; a word wider than the line is broken between clusters.
fn wrap(text: &[Cluster], max_width: f32) -> Vec<Vec<Cluster>> {
    let mut lines: Vec<Vec<Cluster>> = Vec::new();
    let mut line: Vec<Cluster> = Vec::new();
    let mut line_width = 0.0;
    for piece in pieces(text) {
        let (space, word) = match piece.split_first() {
            Some((first, rest)) if first.character == ' ' => (Some(first), rest),
            _ => (None, piece),
        };
        let space_width = space.map_or(0.0, |space| space.width);
        let word_width: f32 = word.iter().map(|cluster| cluster.width).sum();
        if !line.is_empty() && line_width + space_width + word_width > max_width {
            lines.push(std::mem::take(&mut line));
            line_width = 0.0;
        }
        if let (Some(space), false) = (space, line.is_empty()) {
            line.push(space.clone());
            line_width += space_width;
        }
        for cluster in word {
            if !line.is_empty() && line_width + cluster.width > max_width {
                lines.push(std::mem::take(&mut line));
                line_width = 0.0;
            }
            line.push(cluster.clone());
            line_width += cluster.width;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Cuts the text into unbreakable pieces: a word with the space before it, or one CJK character.
fn pieces(text: &[Cluster]) -> Vec<&[Cluster]> {
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
fn trim_extra_spaces(piece: &[Cluster]) -> &[Cluster] {
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

    fn glyphed(text: &str) -> Vec<Cluster> {
        let glyph = ShapedGlyph { face: 0, id: 1, advance: 0.5, width: 0.5, x_offset: 0.0, y_offset: 0.0 };
        text.chars()
            .map(|character| Cluster {
                text: character.to_string(),
                character,
                glyphs: vec![glyph],
                width: 0.5,
                level: 0,
            })
            .collect()
    }

    fn lines_of(lines: &[Vec<Cluster>]) -> Vec<String> {
        lines.iter().map(|line| line.iter().map(|g| g.character).collect()).collect()
    }

    #[test]
    fn words_wrap_at_spaces() {
        let text = glyphed("aa bb cc dd");
        assert_eq!(lines_of(&wrap(&text, 2.5)), ["aa bb", "cc dd"]);
        assert_eq!(lines_of(&wrap(&glyphed("  aa   bb "), 2.5)), ["aa bb"]);
    }

    #[test]
    fn cjk_breaks_between_characters_and_long_words_are_cut() {
        let text = glyphed("日本語の文");
        assert_eq!(lines_of(&wrap(&text, 1.0)), ["日本", "語の", "文"]);
        assert_eq!(lines_of(&wrap(&glyphed("abcde"), 1.0)), ["ab", "cd", "e"]);
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
