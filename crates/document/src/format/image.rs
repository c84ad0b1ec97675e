//! Images (PNG and JPEG, in beta): read by OCR, and painted with their translation, both by the
//! language-tools service ([`LayoutTools`](super::LayoutTools)); nothing here decodes pixels.
//!
//! At upload only the header is read: the type must be what the name says, and the size within
//! [`MAX_SIDE`] and [`MAX_PIXELS`], so that a small file that would decode into gigabytes (a
//! decompression bomb) is refused before anything decodes it. Its text is unknown until the
//! service has read it, so an image is cut later, by its first worker ([`cut_read`]): one kept
//! piece, the [`Layout`] of its paragraphs (their lines' boxes, as JSON), then one piece to
//! translate per paragraph. Its translation is painted from those ([`paint_request`]).

use engines::language_tools::{ReadImage, TextBox};
use serde::{Deserialize, Serialize};

use super::{Cut, Format, FormatError, corrupt};

/// The widest or tallest image read, in pixels.
pub const MAX_SIDE: usize = 10_000;

/// The most pixels an image may have: 40 megapixels.
pub const MAX_PIXELS: usize = 40_000_000;

/// Where an image's paragraphs are: per paragraph, its lines' boxes. Its first piece.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub paragraphs: Vec<Vec<TextBox>>,
}

/// Checks an uploaded image's header: its type and its size. Its pieces come later.
pub(super) fn check(format: Format, file: &[u8]) -> Result<Cut, FormatError> {
    let expected = match format {
        Format::Png => imagesize::ImageType::Png,
        _ => imagesize::ImageType::Jpeg,
    };
    let found = imagesize::image_type(file).map_err(|_| corrupt(format, "it is not an image of a known type"))?;
    if found != expected {
        return Err(corrupt(format, format!("it is a {found:?} image, not a {} one", format.as_str().to_uppercase())));
    }
    let size = imagesize::blob_size(file).map_err(|error| corrupt(format, format!("its header: {error}")))?;
    if size.width == 0 || size.height == 0 {
        return Err(corrupt(format, "it has no pixels"));
    }
    if size.width > MAX_SIDE || size.height > MAX_SIDE || size.width.saturating_mul(size.height) > MAX_PIXELS {
        return Err(corrupt(
            format,
            format!(
                "it is {} × {} pixels; at most {MAX_SIDE} pixels per side and {} megapixels are read",
                size.width,
                size.height,
                MAX_PIXELS / 1_000_000
            ),
        ));
    }
    Ok(Cut::new())
}

/// The pieces of an image OCR has read: its [`Layout`], kept, then each paragraph's text.
/// Paragraphs without text are left out.
pub fn cut_read(read: &ReadImage) -> Cut {
    let paragraphs: Vec<_> = read.paragraphs.iter().filter(|paragraph| !paragraph.text.trim().is_empty()).collect();
    let layout = Layout { paragraphs: paragraphs.iter().map(|paragraph| paragraph.lines.clone()).collect() };
    let mut cut = Cut::new();
    cut.push(false, &serde_json::to_string(&layout).expect("a layout is JSON"));
    for paragraph in paragraphs {
        cut.push(true, paragraph.text.trim());
    }
    cut
}

/// The paragraphs to paint, from an image's pieces' outputs in order (its layout, then each
/// paragraph's translation).
pub fn paint_request(format: Format, outputs: &[String]) -> Result<(Layout, &[String]), FormatError> {
    let (layout, texts) = outputs.split_first().ok_or_else(|| corrupt(format, "it was not read"))?;
    let layout: Layout =
        serde_json::from_str(layout).map_err(|error| corrupt(format, format!("its layout: {error}")))?;
    if layout.paragraphs.len() != texts.len() {
        return Err(corrupt(format, format!("{} paragraphs, {} translations", layout.paragraphs.len(), texts.len())));
    }
    Ok((layout, texts))
}

/// A PNG's signature and header chunk, claiming `width` × `height` (no pixels follow): all an
/// upload reads of it.
#[cfg(test)]
pub(crate) fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut file = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    file.extend_from_slice(&width.to_be_bytes());
    file.extend_from_slice(&height.to_be_bytes());
    file.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
    file
}

#[cfg(test)]
mod tests {
    use engines::language_tools::ReadParagraph;

    use super::*;

    #[test]
    fn a_header_within_the_limits_is_accepted_with_no_pieces_yet() {
        let cut = Format::Png.cut(&png_header(800, 600), "de").unwrap();
        assert!(cut.pieces.is_empty());
        assert_eq!(cut.characters, 0);
    }

    #[test]
    fn bombs_wrong_types_and_damaged_headers_are_refused() {
        let bomb = Format::Png.cut(&png_header(50_000, 50_000), "de").unwrap_err();
        assert!(bomb.to_string().contains("50000 × 50000 pixels"), "{bomb}");
        let tall = Format::Png.cut(&png_header(100, 10_001), "de").unwrap_err();
        assert!(tall.to_string().contains("at most 10000 pixels per side"), "{tall}");
        let many = Format::Png.cut(&png_header(8_000, 6_000), "de").unwrap_err();
        assert!(many.to_string().contains("40 megapixels"), "{many}");
        let wrong = Format::Jpeg.cut(&png_header(10, 10), "de").unwrap_err();
        assert!(wrong.to_string().contains("not a JPEG one"), "{wrong}");
        let text = Format::Png.cut(b"Hello, this is no image", "de").unwrap_err();
        assert!(text.to_string().contains("not an image"), "{text}");
        let cut_short = Format::Png.cut(&png_header(10, 10)[..18], "de").unwrap_err();
        assert!(matches!(cut_short, FormatError::Corrupt { format: "png", .. }), "{cut_short}");
        let empty = Format::Png.cut(&png_header(0, 10), "de").unwrap_err();
        assert!(empty.to_string().contains("no pixels"), "{empty}");
    }

    #[test]
    fn a_read_image_is_cut_into_its_layout_and_paragraphs_and_painted_back() {
        let line = |top| TextBox { left: 10, top, width: 200, height: 30 };
        let read = ReadImage {
            language: "en".into(),
            paragraphs: vec![
                ReadParagraph { text: "Open every day.".into(), lines: vec![line(10)] },
                ReadParagraph { text: "  ".into(), lines: vec![line(50)] },
                ReadParagraph {
                    text: "We are going to the beach with friends.".into(),
                    lines: vec![line(90), line(130)],
                },
            ],
        };
        let cut = cut_read(&read);
        let texts: Vec<&str> =
            cut.pieces.iter().filter(|piece| piece.translate).map(|piece| piece.text.as_str()).collect();
        assert_eq!(texts, ["Open every day.", "We are going to the beach with friends."]);
        assert!(!cut.pieces[0].translate);
        let outputs: Vec<String> =
            [cut.pieces[0].text.as_str(), "Abierto.", "Vamos a la playa."].map(str::to_owned).to_vec();
        let (layout, translations) = paint_request(Format::Png, &outputs).unwrap();
        assert_eq!(layout.paragraphs, [vec![line(10)], vec![line(90), line(130)]]);
        assert_eq!(translations, ["Abierto.", "Vamos a la playa."]);
        assert!(paint_request(Format::Png, &outputs[..2]).is_err(), "a translation missing");
        assert!(paint_request(Format::Png, &[]).is_err(), "never read");
    }
}
