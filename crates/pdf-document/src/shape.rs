//! Shaping: a paragraph's text cut into runs of one face, script and direction, each run shaped
//! by rustybuzz (a port of HarfBuzz), and the glyphs grouped into clusters that lines can break
//! between. Used for the PDFs drawn here and for the images the language-tools service paints.
//!
//! Each character takes its face from a fallback order given by the caller. For the scripts
//! that need a face of their own ([`DEDICATED_SCRIPTS`]: Arabic, Hebrew, Thai, the Indic
//! scripts and others) the faces that have the script come first, the most specialised (the
//! one covering the fewest of those scripts, such as Noto Sans Arabic before DejaVu Sans)
//! before the others. Spaces, digits, punctuation and combining marks keep the face and script
//! of the character before them when that face has them.
//!
//! The direction comes from the Unicode Bidirectional Algorithm (`unicode-bidi`): a paragraph
//! is shaped in logical order with each run's direction, wrapped in logical order, and each
//! line is put in visual order with [`visual_order`].

use std::collections::HashMap;
use std::ops::Range;

use rustybuzz::{Direction, UnicodeBuffer};
use unicode_bidi::{BidiInfo, Level};
use unicode_script::{Script, UnicodeScript};

/// A letter of each script that is best drawn by a face made for it, with the face chosen by
/// this letter: a face has the script if it has the letter.
const DEDICATED_SCRIPTS: [char; 24] = [
    '\u{0628}', // Arabic
    '\u{05D0}', // Hebrew
    '\u{0E01}', // Thai
    '\u{0915}', // Devanagari
    '\u{0995}', // Bengali
    '\u{0B95}', // Tamil
    '\u{0C15}', // Telugu
    '\u{0A95}', // Gujarati
    '\u{0A15}', // Gurmukhi
    '\u{0C95}', // Kannada
    '\u{0D15}', // Malayalam
    '\u{0D9A}', // Sinhala
    '\u{0B15}', // Oriya
    '\u{1780}', // Khmer
    '\u{0E81}', // Lao
    '\u{1000}', // Myanmar
    '\u{10D0}', // Georgian
    '\u{0561}', // Armenian
    '\u{1200}', // Ethiopic
    '\u{0780}', // Thaana
    '\u{0F40}', // Tibetan
    '\u{0710}', // Syriac
    '\u{07CA}', // Nko
    '\u{1820}', // Mongolian
];

/// One glyph as the shaper placed it, in ems.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapedGlyph {
    /// The face's index in the list given to [`Shaper::new`].
    pub face: usize,
    /// The glyph id in that face (0, `.notdef`, when no face has the character).
    pub id: u16,
    /// How far the pen moves after the glyph (kerning and mark positioning included).
    pub advance: f32,
    /// The glyph's own advance in the face's `hmtx` table, without shaping.
    pub width: f32,
    /// How far the glyph is moved right and up from the pen, not moving the pen.
    pub x_offset: f32,
    pub y_offset: f32,
}

/// The smallest piece of shaped text a line can break before: one or more characters and the
/// glyphs drawing them (a ligature, a consonant with its vowel signs, a letter and its marks).
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// The characters, in logical order.
    pub text: String,
    /// The first character (a space, a CJK character, a letter), for line breaking.
    pub character: char,
    /// The glyphs in visual order (left to right).
    pub glyphs: Vec<ShapedGlyph>,
    /// The sum of the glyphs' advances, in ems.
    pub width: f32,
    /// The bidirectional embedding level: odd is right to left.
    pub level: u8,
}

impl Cluster {
    pub fn is_rtl(&self) -> bool {
        self.level % 2 == 1
    }
}

/// A shaped paragraph: its clusters in logical order and its base direction.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapedText {
    pub clusters: Vec<Cluster>,
    /// Whether the paragraph runs right to left (its lines are then right-aligned).
    pub rtl: bool,
}

/// One parsed face, with the dedicated scripts it covers.
struct ShaperFace<'a> {
    face: rustybuzz::Face<'a>,
    scripts: Vec<Script>,
    units_per_em: f32,
}

/// The faces text is shaped with, parsed once.
pub struct Shaper<'a> {
    faces: Vec<ShaperFace<'a>>,
}

impl std::fmt::Debug for Shaper<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Shaper").field("faces", &self.faces.len()).finish()
    }
}

impl<'a> Shaper<'a> {
    /// Parses each face (font data and index in a collection); `None` if one does not parse.
    pub fn new(faces: impl IntoIterator<Item = (&'a [u8], u32)>) -> Option<Shaper<'a>> {
        let faces = faces
            .into_iter()
            .map(|(data, index)| {
                let face = rustybuzz::Face::from_slice(data, index)?;
                let scripts = DEDICATED_SCRIPTS
                    .iter()
                    .filter(|&&letter| face.glyph_index(letter).is_some())
                    .map(|letter| letter.script())
                    .collect();
                let units_per_em = f32::from(face.units_per_em().max(1) as u16);
                Some(ShaperFace { face, scripts, units_per_em })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Shaper { faces })
    }

    /// The number of faces.
    pub fn len(&self) -> usize {
        self.faces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// Whether face `face` has a glyph for `character`.
    pub fn has(&self, face: usize, character: char) -> bool {
        self.faces.get(face).is_some_and(|face| face.face.glyph_index(character).is_some())
    }

    /// The ascent of face `face`, in ems.
    pub fn ascent(&self, face: usize) -> f32 {
        self.faces.get(face).map_or(0.8, |face| f32::from(face.face.ascender()) / face.units_per_em)
    }

    /// Shapes `text` (one paragraph, without line breaks). `order` is the fallback order of the
    /// faces, best first (it must not be empty); `rtl` forces the paragraph's base direction
    /// (right to left for a language written so), otherwise the first strong character decides.
    pub fn shape(&self, text: &str, order: &[usize], rtl: bool) -> ShapedText {
        if text.is_empty() || order.is_empty() {
            return ShapedText { clusters: Vec::new(), rtl };
        }
        let bidi = BidiInfo::new(text, rtl.then(Level::rtl));
        let paragraph_rtl = bidi.paragraphs.first().is_some_and(|paragraph| paragraph.level.is_rtl());
        let characters: Vec<(usize, char)> = text.char_indices().collect();
        let scripts = resolved_scripts(&characters);
        let mut picker = FacePicker { shaper: self, order, cache: HashMap::new() };
        let mut faces: Vec<usize> = Vec::with_capacity(characters.len());
        for (position, &(_, character)) in characters.iter().enumerate() {
            let previous = position.checked_sub(1).map(|before| faces[before]);
            faces.push(picker.pick(character, scripts[position], previous));
        }
        let mut clusters = Vec::new();
        let mut start = 0;
        while start < characters.len() {
            let key = |position: usize| (faces[position], scripts[position], bidi.levels[characters[position].0]);
            let end =
                (start + 1..characters.len()).find(|&position| key(position) != key(start)).unwrap_or(characters.len());
            let byte_start = characters[start].0;
            let byte_end = characters.get(end).map_or(text.len(), |(byte, _)| *byte);
            let (face, script, level) = key(start);
            clusters.extend(self.shape_run(text, byte_start..byte_end, face, script, level.number()));
            start = end;
        }
        ShapedText { clusters, rtl: paragraph_rtl }
    }

    /// Shapes one run of one face, script and level into clusters in logical order.
    fn shape_run(&self, text: &str, range: Range<usize>, face_index: usize, script: Script, level: u8) -> Vec<Cluster> {
        let face = &self.faces[face_index];
        let run = &text[range.clone()];
        let mut buffer = UnicodeBuffer::new();
        buffer.push_str(run);
        buffer.set_pre_context(&text[..range.start]);
        buffer.set_post_context(&text[range.end..]);
        buffer.set_direction(if level % 2 == 1 { Direction::RightToLeft } else { Direction::LeftToRight });
        let tag = rustybuzz::ttf_parser::Tag::from_bytes_lossy(script.short_name().as_bytes());
        if let Some(script) = rustybuzz::Script::from_iso15924_tag(tag) {
            buffer.set_script(script);
        }
        buffer.guess_segment_properties();
        let output = rustybuzz::shape(&face.face, &[], buffer);
        let units = face.units_per_em;
        // Glyphs in visual order, grouped by cluster (the byte offset of its first character).
        let mut groups: Vec<(usize, Vec<ShapedGlyph>)> = Vec::new();
        for (info, position) in output.glyph_infos().iter().zip(output.glyph_positions()) {
            let id = info.glyph_id as u16;
            let glyph = ShapedGlyph {
                face: face_index,
                id,
                advance: position.x_advance as f32 / units,
                width: f32::from(face.face.glyph_hor_advance(rustybuzz::ttf_parser::GlyphId(id)).unwrap_or(0)) / units,
                x_offset: position.x_offset as f32 / units,
                y_offset: position.y_offset as f32 / units,
            };
            let cluster = info.cluster as usize;
            match groups.last_mut() {
                Some((last, glyphs)) if *last == cluster => glyphs.push(glyph),
                _ => groups.push((cluster, vec![glyph])),
            }
        }
        groups.sort_by_key(|(cluster, _)| *cluster);
        // A right-to-left run's clusters came in visual order, right to left: the sort made it
        // logical; a cluster repeated (glyphs of one cluster apart) is joined.
        let mut merged: Vec<(usize, Vec<ShapedGlyph>)> = Vec::new();
        for (cluster, glyphs) in groups {
            match merged.last_mut() {
                Some((last, existing)) if *last == cluster => existing.extend(glyphs),
                _ => merged.push((cluster, glyphs)),
            }
        }
        let starts: Vec<usize> = merged.iter().map(|(cluster, _)| *cluster).collect();
        merged
            .into_iter()
            .enumerate()
            .map(|(number, (cluster, glyphs))| {
                let end = starts.get(number + 1).copied().unwrap_or(run.len());
                let text = run[cluster.min(run.len())..end.min(run.len())].to_owned();
                let character = text.chars().next().unwrap_or(' ');
                let width = glyphs.iter().map(|glyph| glyph.advance).sum();
                Cluster { text, character, glyphs, width, level }
            })
            .collect()
    }
}

/// Chooses each character's face, remembering the choice per character and script.
struct FacePicker<'s, 'a> {
    shaper: &'s Shaper<'a>,
    order: &'s [usize],
    cache: HashMap<(char, Script), usize>,
}

impl FacePicker<'_, '_> {
    fn pick(&mut self, character: char, script: Script, previous: Option<usize>) -> usize {
        let neutral = matches!(character.script(), Script::Common | Script::Inherited);
        if let Some(previous) = previous.filter(|&previous| neutral && self.shaper.has(previous, character)) {
            return previous;
        }
        if let Some(face) = self.cache.get(&(character, script)) {
            return *face;
        }
        let face =
            self.candidates(script).into_iter().find(|&face| self.shaper.has(face, character)).unwrap_or(self.order[0]);
        self.cache.insert((character, script), face);
        face
    }

    /// The faces to try for a character of `script`: for a dedicated script the faces that
    /// have it, most specialised first, then the fallback order.
    fn candidates(&self, script: Script) -> Vec<usize> {
        let mut candidates: Vec<usize> =
            self.order.iter().copied().filter(|&face| self.shaper.faces[face].scripts.contains(&script)).collect();
        candidates.sort_by_key(|&face| self.shaper.faces[face].scripts.len());
        candidates.extend(self.order.iter().copied());
        candidates
    }
}

/// Each character's script, with spaces, digits, punctuation and marks (Common, Inherited)
/// taking the script of the character before them, or after them at the start.
fn resolved_scripts(characters: &[(usize, char)]) -> Vec<Script> {
    let own: Vec<Script> = characters.iter().map(|(_, character)| character.script()).collect();
    let strong = |script: &Script| !matches!(script, Script::Common | Script::Inherited | Script::Unknown);
    let mut current = own.iter().copied().find(strong).unwrap_or(Script::Common);
    own.iter()
        .map(|script| {
            if strong(script) {
                current = *script;
            }
            current
        })
        .collect()
}

/// The order in which to draw a line's clusters, left to right, from their embedding levels
/// (rule L2 of the Unicode Bidirectional Algorithm: from the highest level down to the lowest
/// odd one, every run at that level or higher is reversed).
pub fn visual_order(levels: &[u8]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..levels.len()).collect();
    let Some(&highest) = levels.iter().max() else { return order };
    let Some(lowest_odd) = levels.iter().copied().filter(|level| level % 2 == 1).min() else { return order };
    for level in (lowest_odd..=highest).rev() {
        let mut start = 0;
        while start < order.len() {
            if levels[order[start]] < level {
                start += 1;
                continue;
            }
            let end = (start..order.len()).find(|&position| levels[order[position]] < level).unwrap_or(order.len());
            order[start..end].reverse();
            start = end;
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_reordered_as_the_bidi_algorithm_says() {
        assert_eq!(visual_order(&[0, 0, 0]), [0, 1, 2]);
        assert_eq!(visual_order(&[1, 1, 1]), [2, 1, 0]);
        // Left-to-right words inside a right-to-left line keep their own order.
        assert_eq!(visual_order(&[1, 1, 2, 2, 1]), [4, 2, 3, 1, 0]);
        assert_eq!(visual_order(&[0, 1, 1, 0]), [0, 2, 1, 3]);
    }

    #[test]
    fn neutral_characters_take_the_script_before_them() {
        let characters: Vec<(usize, char)> = "1 שלום, abc".char_indices().collect();
        let scripts = resolved_scripts(&characters);
        assert_eq!(scripts[0], Script::Hebrew);
        assert_eq!(scripts[6], Script::Hebrew);
        assert_eq!(scripts[8], Script::Latin);
    }
}
