//! Writing: the original's text is removed from every page and the translation drawn in its place.

use std::collections::{BTreeMap, HashSet};

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId};
use serde::{Deserialize, Serialize};

use crate::PdfError;
use crate::embed::{compressed, embed_font};
use crate::fonts::{Fonts, GlyphPicker};
use crate::layout::Block;
use crate::typeset::{PageSpace, Typesetter, font_resource_name};

/// The most bytes one decompressed content stream may have.
const MAX_STREAM_BYTES: usize = 256 << 20;
/// How deep Form XObjects may nest (and page-tree parents be followed).
const MAX_DEPTH: usize = 32;

/// The translation of one page: its blocks, in any order, and the areas to paint over first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageText {
    pub blocks: Vec<BlockText>,
    /// Filled rectangles drawn before the blocks: on a scanned page, the text is part of the
    /// page's image, so each line OCR read is painted over in its background colour.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<Cover>,
}

/// A rectangle filled with one colour, in points from the page's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Cover {
    pub x_min: f32,
    pub y_min: f32,
    pub x_max: f32,
    pub y_max: f32,
    /// Red, green and blue, 0 to 255.
    pub colour: [u8; 3],
}

/// One block's translation and the box it is drawn in (the box and font size read from the
/// original, in points from the page's top-left corner).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockText {
    pub text: String,
    pub x_min: f32,
    pub y_min: f32,
    pub x_max: f32,
    pub y_max: f32,
    pub font_size: f32,
}

impl BlockText {
    /// The translation `text` of a block read by [`crate::read`], in that block's box.
    pub fn from_block(block: &Block, text: impl Into<String>) -> BlockText {
        BlockText {
            text: text.into(),
            x_min: block.x_min,
            y_min: block.y_min,
            x_max: block.x_max,
            y_max: block.y_max,
            font_size: block.font_size,
        }
    }
}

/// Writes the translated PDF: every page of `original` keeps its images, vector graphics and
/// size, loses its text, has its entry of `translated`'s covers painted (a scanned page's
/// lines), and gets that entry's blocks drawn in black in their boxes, shaped, right-to-left
/// lines right-aligned, with subsets of `fonts` embedded. `language` (a base code such as "de",
/// "ja", "ar") chooses the CJK face and the paragraphs' direction.
///
/// `original` should be a PDF that [`crate::read`] accepted. CPU-bound: call it from a
/// blocking thread.
pub fn write(original: &[u8], translated: &[PageText], fonts: &Fonts, language: &str) -> Result<Vec<u8>, PdfError> {
    let mut doc =
        Document::load_mem(original).map_err(|_| PdfError::Unreadable("its structure is damaged".to_owned()))?;
    if doc.is_encrypted() || doc.was_encrypted() {
        return Err(PdfError::Encrypted);
    }
    let pages: Vec<ObjectId> = doc.get_pages().into_values().collect();
    if pages.len() != translated.len() {
        return Err(PdfError::PageCount { given: translated.len(), expected: pages.len() });
    }
    let mut typesetter = Typesetter::new(GlyphPicker::new(fonts, language)?);
    let mut drawings = Vec::with_capacity(pages.len());
    for (&page_id, page_text) in pages.iter().zip(translated) {
        drawings.push(draw_page(&doc, page_id, page_text, &mut typesetter));
    }
    let mut font_ids = BTreeMap::new();
    for (slot, used) in &typesetter.used {
        font_ids.insert(font_resource_name(*slot), embed_font(&mut doc, fonts.face(*slot), used)?);
    }
    let mut stripped_forms = HashSet::new();
    for (&page_id, drawing) in pages.iter().zip(drawings) {
        replace_page_content(&mut doc, page_id, &drawing, &font_ids, &mut stripped_forms)?;
    }
    doc.prune_objects();
    let mut output = Vec::new();
    doc.save_modern(&mut output).map_err(|_| PdfError::Write("the file could not be assembled".to_owned()))?;
    Ok(output)
}

/// The operators drawing a page's translated blocks, starting in the page's default space.
fn draw_page(doc: &Document, page_id: ObjectId, page: &PageText, typesetter: &mut Typesetter) -> String {
    let geometry = PageGeometry::of(doc, page_id);
    let mut out = format!("q\n{} cm\n", geometry.matrix());
    let space = PageSpace { height: geometry.display_height() };
    for cover in &page.covers {
        out.push_str(&fill(cover, &space));
    }
    for block in &page.blocks {
        out.push_str(&typesetter.draw_block(block, &space));
    }
    out.push_str("Q\n");
    out
}

/// The operators filling `cover` with its colour (in the displayed page's space, y up).
fn fill(cover: &Cover, space: &PageSpace) -> String {
    let [red, green, blue] = cover.colour.map(|channel| f32::from(channel) / 255.0);
    let (width, height) = (cover.x_max - cover.x_min, cover.y_max - cover.y_min);
    format!(
        "q {red:.3} {green:.3} {blue:.3} rg {:.2} {:.2} {width:.2} {height:.2} re f Q\n",
        cover.x_min,
        space.height - cover.y_max
    )
}

/// A page's media box and rotation, which place pdftotext's coordinates on the page
/// (pdftotext measures from the media box's top-left corner, not the crop box's).
struct PageGeometry {
    media: [f32; 4],
    rotation: i64,
}

impl PageGeometry {
    fn of(doc: &Document, page_id: ObjectId) -> PageGeometry {
        let media = inherited(doc, page_id, b"MediaBox").and_then(|object| rectangle(doc, object));
        let media = media.unwrap_or([0.0, 0.0, 612.0, 792.0]);
        let rotation = inherited(doc, page_id, b"Rotate").and_then(|object| object.as_i64().ok()).unwrap_or(0);
        PageGeometry { media, rotation: rotation.rem_euclid(360) / 90 * 90 }
    }

    /// Height of the page as displayed (after rotation).
    fn display_height(&self) -> f32 {
        let [x0, y0, x1, y1] = self.media;
        if self.rotation % 180 == 0 { y1 - y0 } else { x1 - x0 }
    }

    /// The `cm` matrix from the displayed page (origin bottom left, y up) to user space.
    fn matrix(&self) -> String {
        let [x0, y0, x1, y1] = self.media;
        let [a, b, c, d, e, f] = match self.rotation {
            90 => [0.0, 1.0, -1.0, 0.0, x1, y0],
            180 => [-1.0, 0.0, 0.0, -1.0, x1, y1],
            270 => [0.0, -1.0, 1.0, 0.0, x0, y1],
            _ => [1.0, 0.0, 0.0, 1.0, x0, y0],
        };
        format!("{a} {b} {c} {d} {e:.3} {f:.3}")
    }
}

/// A page attribute, looked up in the page and then its ancestors (MediaBox, CropBox, Rotate, Resources).
fn inherited<'a>(doc: &'a Document, page_id: ObjectId, key: &[u8]) -> Option<&'a Object> {
    let mut node = doc.get_dictionary(page_id).ok()?;
    for _ in 0..MAX_DEPTH {
        if let Ok(value) = node.get(key) {
            return Some(value);
        }
        let parent = node.get(b"Parent").and_then(Object::as_reference).ok()?;
        node = doc.get_dictionary(parent).ok()?;
    }
    None
}

fn rectangle(doc: &Document, object: &Object) -> Option<[f32; 4]> {
    let array = doc.dereference(object).ok()?.1.as_array().ok()?;
    let mut values = array.iter().filter_map(|value| doc.dereference(value).ok()?.1.as_float().ok());
    let (a, b, c, d) = (values.next()?, values.next()?, values.next()?, values.next()?);
    Some([a.min(c), b.min(d), a.max(c), b.max(d)])
}

/// Replaces a page's content with its original content less the text, then the drawing; the
/// page's fonts are replaced by the embedded ones; text is removed from its Form XObjects too.
fn replace_page_content(
    doc: &mut Document,
    page_id: ObjectId,
    drawing: &str,
    font_ids: &BTreeMap<String, ObjectId>,
    stripped_forms: &mut HashSet<ObjectId>,
) -> Result<(), PdfError> {
    let original = page_content(doc, page_id)?;
    let mut content = b"q\n".to_vec();
    content.extend(strip_text(&original)?);
    content.extend_from_slice(b"\nQ\n");
    content.extend_from_slice(drawing.as_bytes());
    let mut resources = page_resources(doc, page_id);
    strip_forms(doc, &resources, stripped_forms, 0)?;
    let fonts: Dictionary = font_ids.iter().map(|(name, id)| (name.clone(), Object::Reference(*id))).collect();
    resources.set("Font", fonts);
    let stream_id = doc.add_object(compressed(Dictionary::new(), content));
    let page = doc.get_dictionary_mut(page_id).map_err(|_| damaged())?;
    page.set("Contents", stream_id);
    page.set("Resources", resources);
    Ok(())
}

/// The page's content streams, decoded and joined.
fn page_content(doc: &Document, page_id: ObjectId) -> Result<Vec<u8>, PdfError> {
    let mut content = Vec::new();
    for stream_id in doc.get_page_contents(page_id) {
        let Ok(stream) = doc.get_object(stream_id).and_then(Object::as_stream) else { continue };
        content.extend(stream.decompressed_content_with_limit(MAX_STREAM_BYTES).map_err(|_| damaged())?);
        content.push(b'\n');
    }
    Ok(content)
}

/// A copy of the page's resources (its own or inherited), with references to its sub-dictionaries resolved one level.
fn page_resources(doc: &Document, page_id: ObjectId) -> Dictionary {
    let Some(object) = inherited(doc, page_id, b"Resources") else { return Dictionary::new() };
    let Ok((_, Object::Dictionary(resources))) = doc.dereference(object) else { return Dictionary::new() };
    resources.clone()
}

/// The operators that delimit text objects, position or show text, and select fonts (the
/// page's fonts are replaced). Everything else inside `BT … ET` (colours, graphics state,
/// marked content, other text state) is kept, since its effect lasts past `ET`.
const TEXT_OPERATORS: [&str; 11] = ["BT", "ET", "Td", "TD", "Tm", "T*", "Tj", "TJ", "'", "\"", "Tf"];

/// Removes the text objects of a content stream, keeping every other operator.
fn strip_text(content: &[u8]) -> Result<Vec<u8>, PdfError> {
    let content = Content::decode(content).map_err(|_| damaged())?;
    let operations: Vec<Operation> = content
        .operations
        .into_iter()
        .filter(|operation| !TEXT_OPERATORS.contains(&operation.operator.as_str()))
        .collect();
    Content { operations }.encode().map_err(|_| damaged())
}

/// Removes the text from the Form XObjects `resources` names, and from the forms they name.
fn strip_forms(
    doc: &mut Document,
    resources: &Dictionary,
    done: &mut HashSet<ObjectId>,
    depth: usize,
) -> Result<(), PdfError> {
    if depth >= MAX_DEPTH {
        return Ok(());
    }
    let Ok(xobjects) =
        resources.get(b"XObject").and_then(|object| doc.dereference(object)).and_then(|(_, object)| object.as_dict())
    else {
        return Ok(());
    };
    let ids: Vec<ObjectId> = xobjects.iter().filter_map(|(_, object)| object.as_reference().ok()).collect();
    for id in ids {
        if !done.insert(id) {
            continue;
        }
        let Some(form_resources) = strip_form(doc, id)? else { continue };
        strip_forms(doc, &form_resources, done, depth + 1)?;
    }
    Ok(())
}

/// Removes the text of one Form XObject; returns its resources, or None if it is not a form.
fn strip_form(doc: &mut Document, id: ObjectId) -> Result<Option<Dictionary>, PdfError> {
    let Ok(stream) = doc.get_object(id).and_then(Object::as_stream) else { return Ok(None) };
    if stream.dict.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Form".as_slice()) {
        return Ok(None);
    }
    let resources = match stream.dict.get(b"Resources").and_then(|object| doc.dereference(object)) {
        Ok((_, Object::Dictionary(resources))) => resources.clone(),
        _ => Dictionary::new(),
    };
    let content = stream.decompressed_content_with_limit(MAX_STREAM_BYTES).map_err(|_| damaged())?;
    let stripped = strip_text(&content)?;
    let stream = doc.get_object_mut(id).and_then(Object::as_stream_mut).map_err(|_| damaged())?;
    stream.dict.remove(b"DecodeParms");
    stream.dict.remove(b"Filter");
    stream.set_plain_content(stripped);
    let _ = stream.compress();
    Ok(Some(resources))
}

fn damaged() -> PdfError {
    PdfError::Unreadable("a page's content is damaged".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_objects_are_removed_and_graphics_kept() {
        let content = b"q 1 0 0 RG 0 0 10 10 re S Q BT /F1 12 Tf 0 0 1 rg 10 20 Td (Hello) Tj [(W) 10 (orld)] TJ ET 5 5 m 6 6 l S";
        let stripped = String::from_utf8(strip_text(content).unwrap()).unwrap();
        assert!(!stripped.contains("Hello") && !stripped.contains("orld") && !stripped.contains("BT"), "{stripped}");
        assert!(stripped.contains("re") && stripped.contains("rg") && !stripped.contains("Tf"), "{stripped}");
    }
}
