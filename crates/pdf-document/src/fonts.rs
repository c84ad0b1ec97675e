//! The fonts the translation is drawn with, loaded once, and the choice of a font for each character.

use std::path::Path;
use std::sync::Arc;

use ttf_parser::{Face, name_id};

use crate::PdfError;
use crate::shape::{ShapedText, Shaper};

/// The font files of a Debian machine with `fonts-dejavu-core`, `fonts-noto-cjk` and
/// `fonts-noto-core`: DejaVu Sans for Latin, Greek, Cyrillic and more, Noto Sans CJK for Chinese,
/// Japanese and Korean, and a Noto face for each script DejaVu lacks or draws badly (Arabic,
/// Hebrew, Thai, the Indic scripts, Armenian, Georgian, Ethiopic and others). A machine without
/// `fonts-noto-core` skips those files and draws fewer scripts.
pub const DEFAULT_FONT_PATHS: [&str; 22] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansTamil-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansTelugu-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansGujarati-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansGurmukhi-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansKannada-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansMalayalam-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansOriya-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansSinhala-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansKhmer-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansLao-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansMyanmar-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansGeorgian-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansArmenian-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansEthiopic-Regular.ttf",
];

/// The CJK regions a face is designed for (the faces of a Noto Sans CJK collection).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Region {
    Japanese,
    Korean,
    SimplifiedChinese,
    TraditionalChinese,
    HongKong,
}

/// How a face's glyphs are drawn, which decides how it is embedded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outlines {
    /// `glyf` outlines: a CIDFontType2 with a FontFile2.
    TrueType,
    /// `CFF ` outlines: a CIDFontType0 with a FontFile3 (CIDFontType0C).
    Cff,
}

/// One face of a loaded font file.
#[derive(Clone)]
pub(crate) struct FontFace {
    /// The whole file, shared by the faces of a collection.
    pub data: Arc<Vec<u8>>,
    /// The face's index in a collection (0 for a single font).
    pub index: u32,
    /// The PostScript name, for the PDF's /BaseFont.
    pub postscript_name: String,
    pub outlines: Outlines,
    region: Option<Region>,
    bold: bool,
}

/// Names the face and its kind, without the bytes of the font.
impl std::fmt::Debug for FontFace {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("FontFace")
            .field("postscript_name", &self.postscript_name)
            .field("index", &self.index)
            .field("outlines", &self.outlines)
            .field("region", &self.region)
            .field("bold", &self.bold)
            .finish()
    }
}

impl FontFace {
    /// Parses the face; it parsed when it was loaded, so this only fails if the data changed.
    pub fn parse(&self) -> Result<Face<'_>, PdfError> {
        Face::parse(&self.data, self.index).map_err(|_| PdfError::NoFont)
    }
}

/// The font faces translations are drawn with, loaded once and kept by the service.
#[derive(Debug, Clone)]
pub struct Fonts {
    faces: Vec<FontFace>,
}

impl Fonts {
    /// Loads the font files (TrueType, OpenType or collections) at `paths`. Files that are
    /// missing or unreadable are skipped; when no face at all can be used, that is an error.
    pub fn load<P: AsRef<Path>>(paths: &[P]) -> Result<Fonts, PdfError> {
        let mut faces = Vec::new();
        for path in paths {
            if let Ok(data) = std::fs::read(path) {
                faces.extend(faces_of(Arc::new(data)));
            }
        }
        if faces.is_empty() {
            return Err(PdfError::NoFont);
        }
        Ok(Fonts { faces })
    }

    /// Loads [`DEFAULT_FONT_PATHS`].
    pub fn load_default() -> Result<Fonts, PdfError> {
        Fonts::load(&DEFAULT_FONT_PATHS)
    }

    /// The PostScript names of the loaded faces, in load order.
    pub fn face_names(&self) -> Vec<&str> {
        self.faces.iter().map(|face| face.postscript_name.as_str()).collect()
    }

    /// Each face's font data and index in its file, in load order (for a [`crate::shape::Shaper`]).
    pub fn faces_data(&self) -> impl Iterator<Item = (&[u8], u32)> {
        self.faces.iter().map(|face| (face.data.as_slice(), face.index))
    }

    pub(crate) fn face(&self, slot: usize) -> &FontFace {
        &self.faces[slot]
    }

    /// The faces to try for each character of a text in `language`, best first: for Chinese,
    /// Japanese and Korean the face of that region, then the non-CJK faces, then the other CJK
    /// faces; regular faces before bold ones.
    pub(crate) fn fallback_order(&self, language: &str) -> Vec<usize> {
        let wanted = region_of_language(language);
        let rank = |face: &FontFace| -> (bool, u8) {
            let place = match (face.region, wanted) {
                (Some(region), Some(wanted)) if region == wanted => 0,
                (None, _) => 1,
                (Some(region), _) => 2 + region as u8,
            };
            (face.bold, place)
        };
        let mut order: Vec<usize> = (0..self.faces.len()).collect();
        order.sort_by_key(|&slot| rank(&self.faces[slot]));
        order
    }
}

/// The region of a CJK language code ("ja", "ko", "zh", "zh-tw", "zh-hant", "zh-hk"), if any.
fn region_of_language(language: &str) -> Option<Region> {
    let language = language.trim().to_ascii_lowercase().replace('_', "-");
    let mut parts = language.split('-');
    match parts.next()? {
        "ja" => Some(Region::Japanese),
        "ko" => Some(Region::Korean),
        "zh" | "yue" => Some(match parts.collect::<Vec<_>>().as_slice() {
            [.., "hk" | "mo"] => Region::HongKong,
            [.., "tw" | "hant"] | ["hant", ..] => Region::TraditionalChinese,
            _ => Region::SimplifiedChinese,
        }),
        _ => None,
    }
}

/// The usable faces of one font file.
fn faces_of(data: Arc<Vec<u8>>) -> Vec<FontFace> {
    let count = ttf_parser::fonts_in_collection(&data).unwrap_or(1);
    (0..count).filter_map(|index| describe_face(&data, index)).collect()
}

/// Describes a face that can be embedded (TrueType or CFF outlines, with a Unicode cmap).
fn describe_face(data: &Arc<Vec<u8>>, index: u32) -> Option<FontFace> {
    let face = Face::parse(data, index).ok()?;
    let tables = face.tables();
    let outlines = if tables.glyf.is_some() {
        Outlines::TrueType
    } else if tables.cff.is_some() {
        Outlines::Cff
    } else {
        return None;
    };
    let unicode = tables.cmap.is_some_and(|cmap| cmap.subtables.into_iter().any(|subtable| subtable.is_unicode()));
    if !unicode {
        return None;
    }
    let family = name_of(&face, name_id::FAMILY).unwrap_or_default();
    let postscript_name = name_of(&face, name_id::POST_SCRIPT_NAME).unwrap_or_else(|| family.clone());
    Some(FontFace {
        data: Arc::clone(data),
        index,
        postscript_name: sanitise_name(&postscript_name),
        outlines,
        region: region_of_family(&family),
        bold: face.is_bold(),
    })
}

fn name_of(face: &Face, id: u16) -> Option<String> {
    face.names().into_iter().filter(|name| name.name_id == id).find_map(|name| name.to_string())
}

/// The CJK region a family name declares ("Noto Sans CJK JP", "Source Han Sans KR").
fn region_of_family(family: &str) -> Option<Region> {
    let last = family.split_whitespace().last()?;
    match last {
        "JP" => Some(Region::Japanese),
        "KR" => Some(Region::Korean),
        "SC" => Some(Region::SimplifiedChinese),
        "TC" => Some(Region::TraditionalChinese),
        "HK" => Some(Region::HongKong),
        _ => None,
    }
}

/// Keeps the characters a PDF name can hold without escapes.
fn sanitise_name(name: &str) -> String {
    let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(60).collect();
    if name.is_empty() { "Font".to_owned() } else { name }
}

/// Shapes text in the faces of [`Fonts`], in the fallback order of a language.
pub(crate) struct GlyphPicker<'a> {
    shaper: Shaper<'a>,
    order: Vec<usize>,
    rtl: bool,
}

impl<'a> GlyphPicker<'a> {
    pub fn new(fonts: &'a Fonts, language: &str) -> Result<GlyphPicker<'a>, PdfError> {
        let shaper = Shaper::new(fonts.faces_data()).ok_or(PdfError::NoFont)?;
        Ok(GlyphPicker { shaper, order: fonts.fallback_order(language), rtl: is_rtl_language(language) })
    }

    /// Shapes one paragraph. A character no face has is drawn as the first face's `.notdef`
    /// glyph (and still extracts as itself).
    pub fn shape(&self, text: &str) -> ShapedText {
        self.shaper.shape(text, &self.order, self.rtl)
    }

    /// The ascent of the first face, as a fraction of the font size.
    pub fn ascent(&self) -> f32 {
        self.shaper.ascent(self.order[0])
    }
}

/// Whether a language (a base code or a code with a region or script) is written right to left.
pub fn is_rtl_language(language: &str) -> bool {
    let language = language.trim().to_ascii_lowercase().replace('_', "-");
    let base = language.split('-').next().unwrap_or("");
    matches!(
        base,
        "ar" | "ara"
            | "arb"
            | "fa"
            | "fas"
            | "pes"
            | "prs"
            | "ur"
            | "urd"
            | "ps"
            | "pus"
            | "pbt"
            | "ckb"
            | "he"
            | "heb"
            | "yi"
            | "yid"
            | "ydd"
            | "dv"
            | "sd"
            | "ug"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_map_to_cjk_regions() {
        assert_eq!(region_of_language("ja"), Some(Region::Japanese));
        assert_eq!(region_of_language("zh"), Some(Region::SimplifiedChinese));
        assert_eq!(region_of_language("zh-TW"), Some(Region::TraditionalChinese));
        assert_eq!(region_of_language("zh-Hant"), Some(Region::TraditionalChinese));
        assert_eq!(region_of_language("ko"), Some(Region::Korean));
        assert_eq!(region_of_language("de"), None);
    }

    #[test]
    fn the_language_chooses_the_first_face_and_regular_comes_before_bold() {
        let fonts = Fonts::load_default().expect("fonts-dejavu-core and fonts-noto-cjk are needed");
        let first = |language| fonts.face(fonts.fallback_order(language)[0]).postscript_name.clone();
        assert_eq!(first("de"), "DejaVuSans");
        assert_eq!(first("ja"), "NotoSansCJKjp-Regular");
        assert_eq!(first("ko"), "NotoSansCJKkr-Regular");
        assert_eq!(first("zh"), "NotoSansCJKsc-Regular");
        assert_eq!(first("zh-TW"), "NotoSansCJKtc-Regular");
        let order = fonts.fallback_order("de");
        assert_eq!(fonts.face(*order.last().unwrap()).postscript_name, "DejaVuSans-Bold");
    }

    #[test]
    fn a_file_that_is_not_a_font_is_skipped() {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), b"not a font").unwrap();
        assert!(matches!(Fonts::load(&[file.path()]), Err(PdfError::NoFont)));
        let fonts = Fonts::load(&[file.path(), Path::new(DEFAULT_FONT_PATHS[0])]).unwrap();
        assert_eq!(fonts.face_names(), ["DejaVuSans"]);
    }

    #[test]
    fn missing_font_files_are_skipped_and_none_is_an_error() {
        assert!(matches!(Fonts::load(&["/nonexistent/font.ttf"]), Err(PdfError::NoFont)));
    }
}
