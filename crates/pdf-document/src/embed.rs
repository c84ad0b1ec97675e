//! Embedding the used glyphs of each face as a subset Type0 font (Identity-H), with widths
//! and a /ToUnicode map so that the text extracts as what was drawn.

use std::collections::BTreeMap;
use std::fmt::Write;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};
use ttf_parser::{Face, GlyphId, Tag};

use crate::PdfError;
use crate::fonts::{FontFace, Outlines};
use crate::typeset::UsedGlyphs;

/// Adds one Type0 font for `face`, subset to `used`, and returns its object id.
pub(crate) fn embed_font(doc: &mut Document, face: &FontFace, used: &UsedGlyphs) -> Result<ObjectId, PdfError> {
    let parsed = face.parse()?;
    let subset = subsetter::subset(&face.data, face.index, &used.remapper)
        .map_err(|_| PdfError::Write(format!("the font {} could not be subset", face.postscript_name)))?;
    let base_font = format!("{}+{}", subset_tag(used), face.postscript_name);
    let font_file = add_font_file(doc, face.outlines, subset)?;
    let descriptor = doc.add_object(font_descriptor(&parsed, &base_font, face.outlines, font_file));
    let descendant = doc.add_object(cid_font(&parsed, &base_font, face.outlines, descriptor, used));
    let to_unicode = doc.add_object(compressed(Dictionary::new(), to_unicode_cmap(&used.texts).into_bytes()));
    Ok(doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type0",
        "BaseFont" => Object::Name(base_font.into_bytes()),
        "Encoding" => "Identity-H",
        "DescendantFonts" => vec![Object::Reference(descendant)],
        "ToUnicode" => to_unicode,
    }))
}

/// The subset's font program: the whole TrueType file as FontFile2, or the bare CFF table of
/// an OpenType/CFF font as FontFile3 of subtype CIDFontType0C.
fn add_font_file(doc: &mut Document, outlines: Outlines, subset: Vec<u8>) -> Result<ObjectId, PdfError> {
    let stream = match outlines {
        Outlines::TrueType => {
            let length = subset.len() as i64;
            compressed(dictionary! { "Length1" => length }, subset)
        }
        Outlines::Cff => {
            let cff = cff_table(&subset)?;
            compressed(dictionary! { "Subtype" => "CIDFontType0C" }, cff)
        }
    };
    Ok(doc.add_object(stream))
}

fn cff_table(font: &[u8]) -> Result<Vec<u8>, PdfError> {
    let raw =
        ttf_parser::RawFace::parse(font, 0).map_err(|_| PdfError::Write("a font subset is damaged".to_owned()))?;
    let table =
        raw.table(Tag::from_bytes(b"CFF ")).ok_or_else(|| PdfError::Write("a font subset has no CFF".to_owned()))?;
    Ok(table.to_vec())
}

fn font_descriptor(face: &Face, base_font: &str, outlines: Outlines, font_file: ObjectId) -> Dictionary {
    let scale =
        |value: i16| -> i64 { (f32::from(value) * 1000.0 / f32::from(face.units_per_em().max(1))).round() as i64 };
    let bbox = face.global_bounding_box();
    let file_key = match outlines {
        Outlines::TrueType => "FontFile2",
        Outlines::Cff => "FontFile3",
    };
    let mut descriptor = dictionary! {
        "Type" => "FontDescriptor",
        "FontName" => Object::Name(base_font.as_bytes().to_vec()),
        "Flags" => 4,
        "FontBBox" => vec![scale(bbox.x_min).into(), scale(bbox.y_min).into(), scale(bbox.x_max).into(), scale(bbox.y_max).into()],
        "ItalicAngle" => 0,
        "Ascent" => scale(face.ascender()),
        "Descent" => scale(face.descender()),
        "CapHeight" => scale(face.capital_height().unwrap_or(face.ascender())),
        "StemV" => 80,
    };
    descriptor.set(file_key, font_file);
    descriptor
}

fn cid_font(face: &Face, base_font: &str, outlines: Outlines, descriptor: ObjectId, used: &UsedGlyphs) -> Dictionary {
    let subtype = match outlines {
        Outlines::TrueType => "CIDFontType2",
        Outlines::Cff => "CIDFontType0",
    };
    let mut font = dictionary! {
        "Type" => "Font",
        "Subtype" => subtype,
        "BaseFont" => Object::Name(base_font.as_bytes().to_vec()),
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::String(b"Adobe".to_vec(), StringFormat::Literal),
            "Ordering" => Object::String(b"Identity".to_vec(), StringFormat::Literal),
            "Supplement" => 0,
        },
        "FontDescriptor" => descriptor,
        "DW" => 1000,
        "W" => widths(face, used),
    };
    if outlines == Outlines::TrueType {
        font.set("CIDToGIDMap", "Identity");
    }
    font
}

/// The /W array: `[0 [w0 w1 …]]`, one width per new glyph id in thousandths of an em.
fn widths(face: &Face, used: &UsedGlyphs) -> Vec<Object> {
    let units = f32::from(face.units_per_em().max(1));
    let widths: Vec<Object> = used
        .remapper
        .remapped_gids()
        .map(|old| {
            let advance = face.glyph_hor_advance(GlyphId(old)).unwrap_or(0);
            Object::Integer((f32::from(advance) * 1000.0 / units).round() as i64)
        })
        .collect();
    vec![Object::Integer(0), Object::Array(widths)]
}

/// A /ToUnicode CMap mapping each new glyph id (two-byte code) to its text in UTF-16BE (several
/// characters for a ligature or a cluster). Glyphs without text of their own (the other glyphs
/// of a cluster) are left out, so they extract as nothing.
pub(crate) fn to_unicode_cmap(texts: &BTreeMap<u16, String>) -> String {
    let mut cmap = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    // A destination string holds at most 512 bytes; longer cluster texts are cut.
    let entries: Vec<(&u16, &String)> = texts.iter().filter(|(_, text)| !text.is_empty()).collect();
    for chunk in entries.chunks(100) {
        let _ = writeln!(cmap, "{} beginbfchar", chunk.len());
        for (code, text) in chunk {
            let hex: String = text.encode_utf16().take(256).map(|unit| format!("{unit:04X}")).collect();
            let _ = writeln!(cmap, "<{code:04X}> <{hex}>");
        }
        cmap.push_str("endbfchar\n");
    }
    cmap.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    cmap
}

/// Six capital letters naming the subset (PDF 32000, 9.6.4), derived from the glyphs it holds.
fn subset_tag(used: &UsedGlyphs) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for glyph in used.remapper.remapped_gids() {
        for byte in glyph.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    (0..6)
        .map(|_| {
            let letter = (b'A' + (hash % 26) as u8) as char;
            hash /= 26;
            letter
        })
        .collect()
}

/// A Flate-compressed stream (left uncompressed if compression fails, which is still valid).
pub(crate) fn compressed(dict: Dictionary, content: Vec<u8>) -> Stream {
    let mut stream = Stream::new(dict, content);
    let _ = stream.compress();
    stream
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_unicode_maps_codes_to_utf16() {
        let texts = BTreeMap::from([
            (1, "A".to_owned()),
            (2, "日".to_owned()),
            (3, "𝄞".to_owned()),
            (4, "fi".to_owned()),
            (5, String::new()),
        ]);
        let cmap = to_unicode_cmap(&texts);
        assert!(
            cmap.contains("4 beginbfchar\n<0001> <0041>\n<0002> <65E5>\n<0003> <D834DD1E>\n<0004> <00660069>\n"),
            "{cmap}"
        );
        assert!(!cmap.contains("<0005>"), "{cmap}");
    }
}
