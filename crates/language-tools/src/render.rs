//! Painting translated text back into an image (`/render`).
//!
//! For each paragraph, the colours are sampled from the original image before anything is painted: the
//! background as the most common colour of a thin ring just outside each line box, the text as the mean of
//! the pixels inside the boxes that are far from the background. Then every line box (grown by
//! [`GROW`] px) is covered with the background, and the new text is drawn wrapped into the paragraph: the
//! first line at the first box's top-left, the next ones at the original line pitch (1.25 × the line height
//! for a one-line paragraph), each as wide as the widest box. The font size follows the median box height;
//! a text that does not fit is drawn smaller, in steps down to 60 %, and then given extra lines below
//! (clipped at the image's edge). Words wrap at spaces; Chinese and Japanese at any character.
//!
//! The text is shaped by pdf-document's [`shape`] module (rustybuzz, a port of HarfBuzz): it is cut into
//! runs of one face, script and direction, each run shaped (Arabic joining, Indic vowel signs and
//! conjuncts, Thai marks, kerning), and drawn glyph by glyph at the shaped positions. Right-to-left
//! paragraphs (Arabic, Hebrew, Persian, Urdu, by the language or by their first strong letter) are wrapped
//! in logical order, each line put in visual order by the Unicode Bidirectional Algorithm and
//! right-aligned in the paragraph's width. Faces come from the language's font (the Noto Sans CJK face for
//! Japanese, Korean and Chinese, otherwise the first font that is not CJK, DejaVu Sans by default),
//! falling back per character to the CJK face and then to every other loaded font; letters of a script
//! with a face of its own (Noto Sans Arabic, Hebrew, Thai, Devanagari, ...) take that face first.
//! Anti-aliased coverage is blended onto the pixels.

use std::path::PathBuf;

use ab_glyph::{Font, FontRef, GlyphId, PxScale, point};
use image::{DynamicImage, Rgba, RgbaImage};
use pdf_document::shape::{self, Cluster, Shaper};

/// How far each line box is grown when it is covered with the background.
pub const GROW: u32 = 2;

/// The font sizes tried, as fractions of the size the boxes suggest.
const SHRINK_STEPS: [f32; 5] = [1.0, 0.9, 0.8, 0.7, 0.6];

/// A box in pixels from the image's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoxSpec {
    pub left: u32,
    pub top: u32,
    pub width: u32,
    pub height: u32,
}

/// A paragraph to paint: its new text and the boxes OCR found for its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextBlock {
    pub text: String,
    pub lines: Vec<BoxSpec>,
}

/// One loaded face.
struct Face {
    name: String,
    font: FontRef<'static>,
    /// The font file's bytes and the face's index in it, for the shaper.
    data: &'static [u8],
    index: u32,
    /// `ascent - descent` per em: turns an em size into ab_glyph's [`PxScale`].
    height_per_em: f32,
    /// The CJK region a Noto Sans CJK face is for (`JP`, `KR`, `SC`, `TC`, `HK`); `None` otherwise.
    cjk: Option<String>,
    monospace: bool,
}

impl Face {
    fn scale(&self, em: f32) -> PxScale {
        PxScale::from(em * self.height_per_em)
    }

    /// How far `character`'s ink reaches above and below the baseline, per em.
    fn ink(&self, character: char) -> Option<(f32, f32)> {
        let id = self.font.glyph_id(character);
        if id == GlyphId(0) {
            return None;
        }
        let outlined = self.font.outline_glyph(id.with_scale_and_position(self.scale(1000.0), point(0.0, 0.0)))?;
        let bounds = outlined.px_bounds();
        Some((-bounds.min.y / 1000.0, bounds.max.y.max(0.0) / 1000.0))
    }
}

/// The fonts `/render` draws with, loaded once at start-up.
pub struct Fonts {
    faces: Vec<Face>,
    /// The same faces parsed for shaping (`None` only when none is loaded).
    shaper: Option<Shaper<'static>>,
}

impl Fonts {
    /// The faces of `paths` (every face of a collection such as `NotoSansCJK-Regular.ttc`). A missing or
    /// unreadable file is skipped with a warning. The files' bytes live as long as the process.
    pub fn load(paths: &[PathBuf]) -> Fonts {
        let mut faces = Vec::new();
        for path in paths {
            let data = match std::fs::read(path) {
                Ok(data) => data,
                Err(error) => {
                    tracing::warn!(path = %path.display(), %error, "font file skipped");
                    continue;
                }
            };
            // Read once and kept for the process's life: glyphs are drawn from it on every request.
            let data: &'static [u8] = Box::leak(data.into_boxed_slice());
            let count = ttf_parser::fonts_in_collection(data).unwrap_or(1);
            let before = faces.len();
            for index in 0..count {
                let Ok(font) = FontRef::try_from_slice_and_index(data, index) else { continue };
                let name = ttf_parser::Face::parse(data, index)
                    .ok()
                    .and_then(|face| {
                        face.names()
                            .into_iter()
                            .filter(|name| name.name_id == ttf_parser::name_id::FULL_NAME)
                            .find_map(|name| name.to_string())
                    })
                    .unwrap_or_else(|| format!("{} #{index}", path.display()));
                let Some(units_per_em) = font.units_per_em() else { continue };
                let height_per_em = font.height_unscaled() / units_per_em;
                let cjk = name
                    .split_once("CJK ")
                    .map(|(_, region)| region.split_whitespace().next().unwrap_or("").to_string());
                let monospace = name.contains("Mono");
                faces.push(Face { name, font, data, index, height_per_em, cjk, monospace });
            }
            if faces.len() == before {
                tracing::warn!(path = %path.display(), "font file skipped: no face could be read");
            }
        }
        let shaper = Shaper::new(faces.iter().map(|face| (face.data, face.index)));
        Fonts { faces, shaper }
    }

    /// Whether any face is loaded (`/render` answers 503 otherwise).
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// The loaded faces' names.
    pub fn names(&self) -> Vec<&str> {
        self.faces.iter().map(|face| face.name.as_str()).collect()
    }

    /// The faces for `language` (indices), the preferred first: the language's own, the CJK face, then
    /// all others.
    fn chain(&self, language: &str) -> Vec<usize> {
        let region = cjk_region(language);
        let cjk_face =
            |region: &str| self.faces.iter().position(|face| face.cjk.as_deref() == Some(region) && !face.monospace);
        let any_cjk = || self.faces.iter().position(|face| face.cjk.is_some() && !face.monospace);
        let mut order: Vec<usize> = Vec::new();
        match region {
            Some(region) => order.extend(cjk_face(region).or_else(any_cjk)),
            None => order.extend(self.faces.iter().position(|face| face.cjk.is_none())),
        }
        order.extend(cjk_face(region.unwrap_or("SC")).or_else(any_cjk));
        order.extend(0..self.faces.len());
        let mut seen = vec![false; self.faces.len()];
        order.into_iter().filter(|&index| !std::mem::replace(&mut seen[index], true)).collect()
    }
}

/// The Noto Sans CJK region for a catalogue code, `None` for a language that is not Chinese, Japanese or
/// Korean.
fn cjk_region(language: &str) -> Option<&'static str> {
    let language = language.to_ascii_lowercase();
    match language.as_str() {
        "ja" => Some("JP"),
        "ko" => Some("KR"),
        "zh-hant" | "zh-tw" => Some("TC"),
        "zh-hk" | "yue" => Some("HK"),
        code if code == "zh" || code.starts_with("zh-") => Some("SC"),
        _ => None,
    }
}

/// The colours sampled for a paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Colours {
    pub background: Rgba<u8>,
    pub text: Rgba<u8>,
}

/// Paints `blocks` into `image` (see the module documentation); `language` is the new text's.
pub fn render(image: &DynamicImage, language: &str, blocks: &[TextBlock], fonts: &Fonts) -> DynamicImage {
    let had_alpha = image.color().has_alpha();
    let mut canvas = image.to_rgba8();
    let (width, height) = canvas.dimensions();
    let chain = fonts.chain(language);
    // Boxes clamped to the image; a paragraph without a box inside it is left alone.
    let blocks: Vec<(Vec<BoxSpec>, &str)> = blocks
        .iter()
        .map(|block| {
            (block.lines.iter().filter_map(|line| clamp(*line, width, height)).collect::<Vec<_>>(), block.text.as_str())
        })
        .filter(|(lines, _)| !lines.is_empty())
        .collect();
    // Every colour is sampled before anything is painted: a paragraph's ring may touch another's boxes.
    let colours: Vec<Colours> = blocks.iter().map(|(lines, _)| sample(&canvas, lines)).collect();
    for ((lines, _), colours) in blocks.iter().zip(&colours) {
        for line in lines {
            fill(&mut canvas, *line, GROW, colours.background);
        }
    }
    if let (false, Some(shaper)) = (chain.is_empty(), &fonts.shaper) {
        let script = Script {
            faces: &fonts.faces,
            shaper,
            chain: &chain,
            cjk: cjk_region(language).is_some_and(|region| region != "KR"),
            rtl: pdf_document::is_rtl_language(language),
        };
        for ((lines, text), colours) in blocks.iter().zip(&colours) {
            draw_paragraph(&mut canvas, &script, lines, text, colours.text);
        }
    }
    if had_alpha {
        DynamicImage::ImageRgba8(canvas)
    } else {
        DynamicImage::ImageRgb8(DynamicImage::ImageRgba8(canvas).to_rgb8())
    }
}

fn clamp(line: BoxSpec, width: u32, height: u32) -> Option<BoxSpec> {
    if line.left >= width || line.top >= height || line.width == 0 || line.height == 0 {
        return None;
    }
    let right = line.left.saturating_add(line.width).min(width);
    let bottom = line.top.saturating_add(line.height).min(height);
    Some(BoxSpec { left: line.left, top: line.top, width: right - line.left, height: bottom - line.top })
}

pub(crate) fn sample(canvas: &RgbaImage, lines: &[BoxSpec]) -> Colours {
    let (width, height) = canvas.dimensions();
    // The background: the most common colour (by 16 levels a channel) of the ring 1..=3 px outside each box,
    // as the mean of the ring's pixels of that colour.
    let mut ring: Vec<Rgba<u8>> = Vec::new();
    for line in lines {
        let (left, top) = (line.left.saturating_sub(3), line.top.saturating_sub(3));
        let right = (line.left + line.width + 3).min(width);
        let bottom = (line.top + line.height + 3).min(height);
        for y in top..bottom {
            for x in left..right {
                let inside =
                    x >= line.left && x < line.left + line.width && y >= line.top && y < line.top + line.height;
                if !inside {
                    ring.push(*canvas.get_pixel(x, y));
                }
            }
        }
    }
    if ring.is_empty() {
        // The boxes cover the whole image: the edge pixels of the boxes stand in.
        for line in lines {
            ring.push(*canvas.get_pixel(line.left, line.top));
            ring.push(*canvas.get_pixel(line.left + line.width - 1, line.top + line.height - 1));
        }
    }
    let bin = |pixel: &Rgba<u8>| {
        (usize::from(pixel[0] >> 4) << 8) | (usize::from(pixel[1] >> 4) << 4) | usize::from(pixel[2] >> 4)
    };
    let mut counts = vec![0u32; 4096];
    for pixel in &ring {
        counts[bin(pixel)] += 1;
    }
    let most = (0..counts.len()).max_by_key(|&index| counts[index]).unwrap_or(0);
    let background = mean(ring.iter().filter(|pixel| bin(pixel) == most)).unwrap_or(Rgba([255, 255, 255, 255]));

    // The text: the mean of the pixels inside the boxes at least half as far from the background as the
    // farthest one (the glyphs' cores, not their anti-aliased edges).
    // Two passes over the boxes rather than a copy of their pixels: a box may be most of a large image.
    let inside = || {
        lines.iter().flat_map(move |line| {
            (line.top..line.top + line.height)
                .flat_map(move |y| (line.left..line.left + line.width).map(move |x| canvas.get_pixel(x, y)))
        })
    };
    let farthest = inside().map(|pixel| distance(*pixel, background)).max().unwrap_or(0);
    let text = if farthest < 48 {
        contrasting(background)
    } else {
        mean(inside().filter(|pixel| distance(**pixel, background) * 2 >= farthest))
            .unwrap_or_else(|| contrasting(background))
    };
    Colours { background, text: Rgba([text[0], text[1], text[2], 255]) }
}

/// The sum of the absolute channel differences (colour only).
fn distance(a: Rgba<u8>, b: Rgba<u8>) -> u32 {
    (0..3).map(|channel| u32::from(a[channel].abs_diff(b[channel]))).sum()
}

/// Black on a light background, white on a dark one.
fn contrasting(background: Rgba<u8>) -> Rgba<u8> {
    let luma = 299 * u32::from(background[0]) + 587 * u32::from(background[1]) + 114 * u32::from(background[2]);
    if luma > 128_000 { Rgba([0, 0, 0, 255]) } else { Rgba([255, 255, 255, 255]) }
}

fn mean<'a>(pixels: impl Iterator<Item = &'a Rgba<u8>>) -> Option<Rgba<u8>> {
    let mut sums = [0u64; 4];
    let mut count = 0u64;
    for pixel in pixels {
        for channel in 0..4 {
            sums[channel] += u64::from(pixel[channel]);
        }
        count += 1;
    }
    (count > 0).then(|| Rgba(sums.map(|sum| (sum / count) as u8)))
}

fn fill(canvas: &mut RgbaImage, line: BoxSpec, grow: u32, colour: Rgba<u8>) {
    let (width, height) = canvas.dimensions();
    let right = (line.left + line.width + grow).min(width);
    let bottom = (line.top + line.height + grow).min(height);
    for y in line.top.saturating_sub(grow)..bottom {
        for x in line.left.saturating_sub(grow)..right {
            canvas.put_pixel(x, y, colour);
        }
    }
}

/// How a paragraph's text is set: the faces, their shaper and order, and the language's ways.
struct Script<'f> {
    faces: &'f [Face],
    shaper: &'f Shaper<'static>,
    /// The faces' fallback order, the language's first.
    chain: &'f [usize],
    /// Chinese or Japanese: lines break between any two characters.
    cjk: bool,
    /// A right-to-left language: paragraphs run right to left whatever their first letter.
    rtl: bool,
}

/// The width of shaped clusters at `em` px per em.
fn advance(clusters: &[Cluster], em: f32) -> f32 {
    clusters.iter().map(|cluster| cluster.width).sum::<f32>() * em
}

/// The text cut into lines at most `width` px wide at `em` px per em: at spaces (any character for `cjk`).
/// A word wider than a line gets a line of its own, running past `width` up to `hard_width` (the image's
/// edge), and is cut only beyond that.
fn wrap(glyphs: Vec<Cluster>, em: f32, width: f32, hard_width: f32, cjk: bool) -> Vec<Vec<Cluster>> {
    // Units that are never split: words with their following spaces, or single clusters for CJK.
    let mut units: Vec<Vec<Cluster>> = Vec::new();
    for glyph in glyphs {
        let space = glyph.character.is_whitespace();
        let starts = match units.last() {
            None => true,
            Some(last) => {
                let last_space = last.last().is_some_and(|glyph| glyph.character.is_whitespace());
                if space {
                    false
                } else if cjk {
                    !is_closing(glyph.character) || last_space
                } else {
                    last_space
                }
            }
        };
        if starts {
            units.push(Vec::new());
        }
        if let Some(last) = units.last_mut() {
            last.push(glyph);
        }
    }
    let trimmed_width = |glyphs: &[Cluster]| {
        let end = glyphs.iter().rposition(|glyph| !glyph.character.is_whitespace()).map_or(0, |index| index + 1);
        advance(&glyphs[..end], em)
    };
    let mut lines: Vec<Vec<Cluster>> = vec![Vec::new()];
    for unit in units {
        let unit_width = trimmed_width(&unit);
        let current = lines.last_mut().expect("a line");
        if !current.is_empty() && advance(current, em) + unit_width > width {
            lines.push(Vec::new());
        }
        if unit_width <= width.max(hard_width) {
            lines.last_mut().expect("a line").extend(unit);
            if unit_width > width {
                lines.push(Vec::new());
            }
            continue;
        }
        // A word wider than the image: cut where it must.
        for glyph in unit {
            let current = lines.last_mut().expect("a line");
            let overflows = advance(current, em) + advance(std::slice::from_ref(&glyph), em) > width.max(hard_width);
            if !current.is_empty() && !glyph.character.is_whitespace() && overflows {
                lines.push(Vec::new());
            }
            lines.last_mut().expect("a line").push(glyph);
        }
    }
    for line in &mut lines {
        while line.last().is_some_and(|glyph| glyph.character.is_whitespace()) {
            line.pop();
        }
    }
    lines.retain(|line| !line.is_empty());
    lines
}

/// Punctuation that must not start a line in Chinese and Japanese.
fn is_closing(character: char) -> bool {
    "、。，．,.！？!?：；:;）)」』】〕〉》”’ー…・々ぁぃぅぇぉっゃゅょァィゥェォッャュョ".contains(character)
}

fn draw_paragraph(canvas: &mut RgbaImage, script: &Script<'_>, lines: &[BoxSpec], text: &str, colour: Rgba<u8>) {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return;
    }
    let primary = &script.faces[script.chain[0]];
    // The boxes' ink spans from the tallest letters' tops to the descenders' bottoms (for CJK text, the
    // ideographs' height): the em size that gives the median box that span.
    let (above, below) = if script.cjk || primary.cjk.is_some() {
        primary.ink('国').or_else(|| primary.ink('H')).unwrap_or((0.88, 0.12))
    } else {
        let (above, _) = primary.ink('H').unwrap_or((0.73, 0.0));
        let (_, below) = primary.ink('g').unwrap_or((0.0, 0.24));
        (above, below)
    };
    let mut heights: Vec<u32> = lines.iter().map(|line| line.height).collect();
    heights.sort_unstable();
    let median = heights[heights.len() / 2] as f32;
    let base_em = (median / (above + below).max(0.5)).max(4.0);
    let first = lines[0];
    let pitch = if lines.len() > 1 {
        let last = lines[lines.len() - 1];
        (last.top as f32 - first.top as f32) / (lines.len() - 1) as f32
    } else {
        first.height as f32 * 1.25
    };
    let pitch = if pitch < 1.0 { first.height as f32 * 1.25 } else { pitch };
    let width = lines.iter().map(|line| line.width).max().unwrap_or(1) as f32;
    let hard_width = canvas.width().saturating_sub(first.left) as f32;

    // Shaped once: the clusters' widths scale with the size.
    let shaped = script.shaper.shape(&text, script.chain, script.rtl);
    let mut chosen = None;
    for step in SHRINK_STEPS {
        let em = base_em * step;
        let wrapped = wrap(shaped.clusters.clone(), em, width, hard_width, script.cjk);
        let fits = wrapped.len() <= lines.len() && wrapped.iter().all(|line| advance(line, em) <= width + 0.5);
        chosen = Some((em, wrapped));
        if fits {
            break;
        }
    }
    let Some((em, wrapped)) = chosen else { return };
    // The text's tops where the boxes' tops were: the baseline one ink-height down (the chosen size's).
    let baseline_offset = above * em;
    for (index, line) in wrapped.iter().enumerate() {
        let top = first.top as f32 + index as f32 * pitch;
        if top >= canvas.height() as f32 {
            break;
        }
        // A right-to-left line ends at the paragraph's right edge (or starts at its left one when wider).
        let left =
            if shaped.rtl { (first.left as f32 + width - advance(line, em)).max(0.0) } else { first.left as f32 };
        draw_line(canvas, script.faces, line, em, left, top + baseline_offset, colour);
    }
}

/// Draws a line's clusters in visual order from `left`, each glyph at its shaped position.
fn draw_line(
    canvas: &mut RgbaImage,
    faces: &[Face],
    clusters: &[Cluster],
    em: f32,
    left: f32,
    baseline: f32,
    colour: Rgba<u8>,
) {
    let (width, height) = canvas.dimensions();
    let levels: Vec<u8> = clusters.iter().map(|cluster| cluster.level).collect();
    let mut x = left;
    for index in shape::visual_order(&levels) {
        for glyph in &clusters[index].glyphs {
            let face = &faces[glyph.face];
            let position = point(x + glyph.x_offset * em, baseline - glyph.y_offset * em);
            x += glyph.advance * em;
            let positioned = GlyphId(glyph.id).with_scale_and_position(face.scale(em), position);
            let Some(outlined) = face.font.outline_glyph(positioned) else { continue };
            let bounds = outlined.px_bounds();
            outlined.draw(|gx, gy, coverage| {
                let px = bounds.min.x as i64 + i64::from(gx);
                let py = bounds.min.y as i64 + i64::from(gy);
                if px < 0 || py < 0 || px >= i64::from(width) || py >= i64::from(height) {
                    return;
                }
                let coverage = coverage.clamp(0.0, 1.0);
                let pixel = canvas.get_pixel_mut(px as u32, py as u32);
                for channel in 0..3 {
                    let old = f32::from(pixel[channel]);
                    pixel[channel] = (old + (f32::from(colour[channel]) - old) * coverage).round() as u8;
                }
                let alpha = f32::from(pixel[3]);
                pixel[3] = (alpha + (255.0 - alpha) * coverage).round() as u8;
            });
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::OnceLock;

    pub const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    pub const NOTO_CJK: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";

    /// The default fonts, loaded once per test binary; missing ones fail the tests that need them.
    pub fn fonts() -> &'static Fonts {
        static FONTS: OnceLock<Fonts> = OnceLock::new();
        FONTS.get_or_init(|| {
            let fonts = Fonts::load(&[PathBuf::from(DEJAVU), PathBuf::from(NOTO_CJK)]);
            let names = fonts.names();
            assert!(
                names.contains(&"DejaVu Sans") && names.contains(&"Noto Sans CJK JP"),
                "install fonts-dejavu-core and fonts-noto-cjk: {names:?}"
            );
            fonts
        })
    }

    /// The faces of `text`'s clusters when set in `language`.
    fn faces_of(fonts: &Fonts, language: &str, text: &str) -> Vec<String> {
        let chain = fonts.chain(language);
        let shaped = fonts.shaper.as_ref().unwrap().shape(text, &chain, false);
        shaped.clusters.iter().map(|cluster| fonts.faces[cluster.glyphs[0].face].name.clone()).collect()
    }

    /// Shapes `text` in the fonts' order for `language`.
    fn clusters(fonts: &Fonts, language: &str, text: &str) -> Vec<Cluster> {
        fonts.shaper.as_ref().unwrap().shape(text, &fonts.chain(language), false).clusters
    }

    #[test]
    fn fonts_are_chosen_by_language() {
        let fonts = fonts();
        let names = |language: &str| {
            fonts.chain(language).iter().take(2).map(|&index| fonts.faces[index].name.clone()).collect::<Vec<_>>()
        };
        assert_eq!(names("de"), ["DejaVu Sans", "Noto Sans CJK SC"]);
        assert_eq!(names("ja"), ["Noto Sans CJK JP", "DejaVu Sans"]);
        assert_eq!(names("ko")[0], "Noto Sans CJK KR");
        assert_eq!(names("zh")[0], "Noto Sans CJK SC");
        assert_eq!(names("zh-hant")[0], "Noto Sans CJK TC");
        assert_eq!(fonts.chain("de").len(), fonts.names().len());
        // Per-character fallback: DejaVu has no ideographs.
        assert_eq!(faces_of(fonts, "de", "a海"), ["DejaVu Sans", "Noto Sans CJK SC"]);
        // A missing file is skipped.
        assert!(Fonts::load(&[PathBuf::from("/nonexistent/font.ttf")]).is_empty());
    }

    #[test]
    fn wraps_at_spaces_and_cjk_at_any_character() {
        let glyphs = |text: &str| clusters(fonts(), "en", text);
        let text = |lines: Vec<Vec<Cluster>>| {
            lines
                .iter()
                .map(|line| line.iter().map(|cluster| cluster.text.as_str()).collect::<String>())
                .collect::<Vec<_>>()
        };
        let one_word = advance(&glyphs("going"), 20.0);
        let lines = wrap(glyphs("we are going to the beach"), 20.0, one_word * 2.0, 0.0, false);
        assert_eq!(text(lines), ["we are", "going to", "the beach"]);
        // A word wider than the line runs past it, up to the image's edge, and is cut only beyond.
        let lines = wrap(glyphs("a incomprehensibilities b"), 20.0, one_word, one_word * 10.0, false);
        assert_eq!(text(lines), ["a", "incomprehensibilities", "b"]);
        let lines = wrap(glyphs("incomprehensibilities"), 20.0, one_word, one_word * 1.5, false);
        assert!(text(lines).len() > 2);
        let glyphs = |text: &str| clusters(fonts(), "ja", text);
        let lines = wrap(glyphs("友達と海に行きます。"), 20.0, 20.0 * 3.5, 0.0, true);
        // Three characters a line, the full stop kept with the character before it rather than
        // starting a line.
        assert_eq!(text(lines), ["友達と", "海に行", "きま", "す。"]);
    }

    #[test]
    fn renders_over_the_boxes_in_the_sampled_colours() {
        let background = Rgba([244, 240, 224, 255]);
        let ink = Rgba([32, 32, 96, 255]);
        let mut canvas = RgbaImage::from_pixel(400, 160, background);
        // "Text": solid bars inside two line boxes, with anti-aliased-looking edges.
        let boxes = [
            BoxSpec { left: 20, top: 30, width: 300, height: 30 },
            BoxSpec { left: 20, top: 80, width: 250, height: 30 },
        ];
        for line in boxes {
            for y in line.top + 4..line.top + line.height - 4 {
                for x in line.left..line.left + line.width {
                    let colour = if x % 12 < 6 {
                        ink
                    } else if x % 12 == 6 {
                        Rgba([140, 138, 160, 255])
                    } else {
                        background
                    };
                    canvas.put_pixel(x, y, colour);
                }
            }
        }
        let sampled = sample(&canvas, &boxes);
        assert_eq!(sampled.background, background);
        assert!(distance(sampled.text, ink) <= 6, "{:?}", sampled.text);

        let original = DynamicImage::ImageRgb8(DynamicImage::ImageRgba8(canvas).to_rgb8());
        let blocks = [
            TextBlock { text: "Wir gehen".to_string(), lines: boxes.to_vec() },
            // Fully outside: ignored.
            TextBlock {
                text: "nothing".to_string(),
                lines: vec![BoxSpec { left: 500, top: 10, width: 40, height: 20 }],
            },
        ];
        let rendered = render(&original, "de", &blocks, fonts());
        assert!(matches!(rendered, DynamicImage::ImageRgb8(_)));
        assert_eq!((rendered.width(), rendered.height()), (400, 160));
        let rendered = rendered.to_rgba8();
        // The old stripes are gone: the second box holds no ink (the new text fits on the first line).
        for x in 18..272 {
            for y in 78..112 {
                assert_eq!(*rendered.get_pixel(x, y), background, "({x}, {y})");
            }
        }
        // The new text is drawn in the text colour.
        let inked = (20..320)
            .flat_map(|x| (30..60).map(move |y| (x, y)))
            .filter(|&(x, y)| distance(*rendered.get_pixel(x, y), ink) <= 12)
            .count();
        assert!(inked > 200, "{inked}");
        // Outside the grown boxes nothing changed.
        assert_eq!(*rendered.get_pixel(5, 5), background);
        assert_eq!(*rendered.get_pixel(390, 150), background);

        // RGBA stays RGBA; a CJK language draws with the CJK face.
        let rgba = DynamicImage::ImageRgba8(RgbaImage::from_pixel(200, 60, Rgba([255, 255, 255, 255])));
        let block = TextBlock {
            text: "海に行きます".to_string(),
            lines: vec![BoxSpec { left: 5, top: 10, width: 180, height: 30 }],
        };
        let rendered = render(&rgba, "ja", &[block], fonts());
        assert!(matches!(rendered, DynamicImage::ImageRgba8(_)));
        let dark = rendered.to_rgba8().pixels().filter(|pixel| pixel[0] < 100).count();
        assert!(dark > 100, "{dark}");
    }

    /// Every default font, loaded once per test binary: the Noto faces need fonts-noto-core.
    fn all_fonts() -> &'static Fonts {
        static FONTS: OnceLock<Fonts> = OnceLock::new();
        FONTS.get_or_init(|| {
            let fonts = Fonts::load(&crate::DEFAULT_FONTS.map(PathBuf::from));
            let names = fonts.names();
            for needed in [
                "Noto Naskh Arabic Regular",
                "Noto Sans Hebrew Regular",
                "Noto Sans Thai Regular",
                "Noto Sans Devanagari Regular",
            ] {
                assert!(names.contains(&needed), "install fonts-noto-core: {names:?}");
            }
            fonts
        })
    }

    /// Renders `text` in black on white into two line boxes and reads it back with Tesseract's `pack`.
    fn render_and_read(text: &str, language: &str, pack: &str) -> (RgbaImage, String) {
        let canvas = DynamicImage::ImageRgb8(image::RgbImage::from_pixel(900, 220, image::Rgb([255, 255, 255])));
        let lines = vec![
            BoxSpec { left: 40, top: 40, width: 800, height: 44 },
            BoxSpec { left: 40, top: 110, width: 800, height: 44 },
        ];
        let rendered = render(&canvas, language, &[TextBlock { text: text.to_string(), lines }], all_fonts());
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("rendered.png");
        rendered.save(&path).unwrap();
        if let Ok(dump) = std::env::var("RENDER_DUMP") {
            rendered.save(std::path::Path::new(&dump).join(format!("render-{language}.png"))).unwrap();
        }
        let output = std::process::Command::new("tesseract")
            .arg(&path)
            .args(["-", "-l", pack, "--psm", "6"])
            .output()
            .expect("install tesseract-ocr");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        (rendered.to_rgba8(), String::from_utf8(output.stdout).unwrap())
    }

    /// The share of `text`'s words that Tesseract's reading holds (spaces and direction marks aside,
    /// as Tesseract spaces Thai and right-to-left text its own way; it writes Thai sara am as nikhahit
    /// and sara aa).
    fn share_read(text: &str, read: &str) -> f32 {
        let read = read.replace("\u{0E4D}\u{0E32}", "\u{0E33}");
        let read: String = read
            .chars()
            .filter(|character| !character.is_whitespace() && !('\u{200E}'..='\u{200F}').contains(character))
            .filter(|character| !('\u{202A}'..='\u{202E}').contains(character))
            .collect();
        let words: Vec<&str> = text.split_whitespace().collect();
        words.iter().filter(|word| read.contains(*word)).count() as f32 / words.len() as f32
    }

    #[test]
    fn arabic_is_joined_right_to_left_and_reads_back() {
        let text = "مرحبا بكم في التقرير السنوي للشركة";
        let (_, read) = render_and_read(text, "ar", "ara");
        assert!(share_read(text, &read) >= 0.66, "{read}");
    }

    #[test]
    fn hebrew_is_right_aligned_and_reads_back() {
        let text = "שלום וברוכים הבאים לדוח השנתי";
        let (rendered, read) = render_and_read(text, "he", "heb");
        assert!(share_read(text, &read) >= 0.66, "{read}");
        // The line ends at the box's right edge (840 px), not its left.
        let inked: Vec<u32> = (0..900).filter(|&x| (40..90).any(|y| rendered.get_pixel(x, y)[0] < 128)).collect();
        let (first, last) = (inked[0], inked[inked.len() - 1]);
        assert!((825..=842).contains(&last), "{first}..{last}");
        assert!(first > 100, "{first}..{last}");
    }

    #[test]
    fn thai_is_drawn_with_its_marks_and_reads_back() {
        let text = "ยินดีต้อนรับ สู่รายงาน ประจำปี ของบริษัท";
        let (_, read) = render_and_read(text, "th", "tha");
        assert!(share_read(text, &read) >= 0.66, "{read}");
    }

    #[test]
    fn script_letters_take_their_noto_face() {
        let fonts = all_fonts();
        assert_eq!(faces_of(fonts, "de", "aש"), ["DejaVu Sans", "Noto Sans Hebrew Regular"]);
        assert_eq!(faces_of(fonts, "ar", "ب")[0], "Noto Naskh Arabic Regular");
        assert_eq!(faces_of(fonts, "hi", "क")[0], "Noto Sans Devanagari Regular");
    }

    #[test]
    fn long_text_shrinks_and_then_runs_below() {
        let background = Rgba([255, 255, 255, 255]);
        let canvas = DynamicImage::ImageRgba8(RgbaImage::from_pixel(300, 200, background));
        let line = BoxSpec { left: 10, top: 10, width: 200, height: 20 };
        let block = TextBlock {
            text: "one two three four five six seven eight nine ten eleven twelve".to_string(),
            lines: vec![line],
        };
        let rendered = render(&canvas, "en", &[block], fonts()).to_rgba8();
        let rows_with_ink: Vec<u32> =
            (0..200).filter(|&y| (0..300).any(|x| rendered.get_pixel(x, y)[0] < 128)).collect();
        // Below the single box (at 1.25 × its height a line) there is more text.
        assert!(rows_with_ink.iter().any(|&y| y > 40), "{rows_with_ink:?}");
        // Nothing drawn right of the box's width.
        assert!((0..200).all(|y| (215..300).all(|x| rendered.get_pixel(x, y)[0] >= 128)));
    }
}
