//! Images: the pictures a PDF's pages draw, each with its box on its page and its bytes as a PNG
//! or JPEG file, for carrying them over into another document.
//!
//! Poppler's `pdfinfo` checks the file as [`crate::read`] does; `pdfimages -list` then says how
//! large each page's pictures are without writing them, so that only the pages whose pictures fit
//! within [`MAX_IMAGES_BYTES`] are extracted; `pdftohtml -xml -zoom 1` writes those pages'
//! pictures as files (a JPEG as it is stored, anything else as a PNG) and says where each is
//! drawn, in points from the page's top-left corner. All three run as child processes within the
//! [`Limits`]. Pictures smaller than [`MIN_IMAGE_PIXELS`] on a side (masks, dots, lines) are left
//! out, and so is a picture's transparency (a soft mask): the file holds its colours only.

use std::ffi::OsStr;
use std::path::Path;

use quick_xml::Reader;
use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};
use serde::{Deserialize, Serialize};

use crate::process::{ToolOutput, failure_reason, run_tool};
use crate::{Limits, PdfError};

/// The most bytes of pictures [`images`] returns: pages whose pictures would go beyond it are
/// left out, and so is any picture that would.
pub const MAX_IMAGES_BYTES: u64 = 40 << 20;

/// The fewest pixels a picture has on each side to be returned.
pub const MIN_IMAGE_PIXELS: u32 = 8;

/// The most `pdftohtml` runs one call makes (one per run of consecutive pages whose pictures are
/// extracted).
const MAX_RUNS: usize = 16;

/// A picture drawn on a page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageImage {
    /// The page, counted from 0.
    pub page: usize,
    /// The box it is drawn in, in points from the page's top-left corner (as a [`crate::Block`]'s).
    pub x_min: f32,
    pub y_min: f32,
    pub x_max: f32,
    pub y_max: f32,
    /// `png` or `jpeg`.
    pub format: String,
    /// The file, as standard base64 in JSON.
    #[serde(with = "base64_data")]
    pub data: Vec<u8>,
}

/// The pictures of a PDF, page by page, each page's in the order they are drawn.
///
/// Poppler's `pdfinfo`, `pdfimages` and `pdftohtml` run as child processes within `limits`. This
/// blocks for as long as they run: call it from a blocking thread (`tokio::task::spawn_blocking`).
pub fn images(pdf: &[u8], limits: &Limits) -> Result<Vec<PageImage>, PdfError> {
    if !pdf.get(..1024).unwrap_or(pdf).windows(5).any(|window| window == b"%PDF-") {
        return Err(PdfError::Unreadable("it is not a PDF file".to_owned()));
    }
    let dir = tempfile::tempdir().map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    std::fs::write(dir.path().join("input.pdf"), pdf).map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    crate::read::check_info(dir.path(), limits)?;
    let listed = list(dir.path(), limits)?;
    let mut images = Vec::new();
    let mut total = 0;
    for (run, (first, last)) in page_runs(&listed, MAX_IMAGES_BYTES).into_iter().enumerate() {
        let name = format!("images{run}");
        let (first, last) = (first.to_string(), last.to_string());
        let args = ["-xml", "-zoom", "1", "-q", "-f", &first, "-l", &last, "input.pdf", &name].map(OsStr::new);
        let output = run_tool("pdftohtml", &args, dir.path(), limits)?;
        if !output.status.success() {
            return Err(PdfError::Unreadable(failure_reason(&output)));
        }
        let xml = std::fs::read(dir.path().join(format!("{name}.xml")))
            .map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
        for drawn in parse_xml(&String::from_utf8_lossy(&xml))? {
            let Some(image) = load(dir.path(), drawn, MAX_IMAGES_BYTES - total) else { continue };
            total += image.data.len() as u64;
            images.push(image);
        }
    }
    Ok(images)
}

/// A picture `pdfimages -list` lists: its page (from 1), how many bytes its file may take, and
/// whether it is a stencil mask (a shape filled with a colour) rather than an image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Listed {
    pub page: u32,
    pub bytes: u64,
    pub stencil: bool,
}

/// Runs `pdfimages -list`: every picture drawn, without writing any.
pub(crate) fn list(dir: &Path, limits: &Limits) -> Result<Vec<Listed>, PdfError> {
    let output: ToolOutput = run_tool("pdfimages", &["-list", "input.pdf"].map(OsStr::new), dir, limits)?;
    if !output.status.success() {
        return Err(PdfError::Unreadable(failure_reason(&output)));
    }
    Ok(parse_list(&output.stdout))
}

/// The pictures of `pdfimages -list`'s table (`page num type width height color comp bpc enc
/// interp object ID x-ppi y-ppi size ratio`). Soft masks and masks are drawn with their picture,
/// not on their own, and are left out. A JPEG in grey or RGB is written as it is stored (its
/// `size`); anything else as a PNG of 8-bit RGB, at most about 3 bytes a pixel.
fn parse_list(text: &str) -> Vec<Listed> {
    let mut listed = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        // An inline image's object number and generation are one field, `[inline]`.
        if fields.len() < 14 || !matches!(fields[2], "image" | "stencil") {
            continue;
        }
        let (Ok(page), Ok(width), Ok(height)) = (fields[0].parse(), fields[3].parse::<u64>(), fields[4].parse::<u64>())
        else {
            continue;
        };
        let stored = matches!((fields[8], fields[5]), ("jpeg", "rgb" | "gray"))
            .then(|| size(fields[fields.len() - 2]))
            .flatten();
        let bytes =
            stored.unwrap_or_else(|| width.saturating_mul(height).saturating_mul(3).saturating_add(height + 4096));
        listed.push(Listed { page, bytes, stencil: fields[2] == "stencil" });
    }
    listed
}

/// A size of `pdfimages -list` in bytes: `1656B`, `12.5K`, `3.1M`, `1G`.
fn size(text: &str) -> Option<u64> {
    let (number, unit) = text.split_at(text.find(|c: char| c.is_ascii_alphabetic())?);
    let scale = match unit {
        "B" => 1.0,
        "K" => 1024.0,
        "M" => 1024.0 * 1024.0,
        "G" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    number.parse::<f64>().ok().filter(|value| value.is_finite() && *value >= 0.0).map(|value| (value * scale) as u64)
}

/// The runs of consecutive pages (from 1, inclusive) whose pictures fit within `budget` bytes
/// together, taking pages in order: a page whose pictures do not fit in what is left is skipped,
/// and a run never spans a skipped page. Pages without pictures cost nothing.
fn page_runs(listed: &[Listed], budget: u64) -> Vec<(u32, u32)> {
    let mut pages: Vec<(u32, u64)> = Vec::new();
    for picture in listed {
        match pages.last_mut() {
            Some((page, bytes)) if *page == picture.page => *bytes = bytes.saturating_add(picture.bytes),
            _ => pages.push((picture.page, picture.bytes)),
        }
    }
    let mut runs: Vec<(u32, u32)> = Vec::new();
    let (mut total, mut skipped) = (0u64, true);
    for (page, bytes) in pages {
        if total.saturating_add(bytes) > budget {
            skipped = true;
            continue;
        }
        total += bytes;
        match runs.last_mut() {
            Some((_, last)) if !skipped => *last = page,
            _ => runs.push((page, page)),
        }
        skipped = false;
    }
    runs.truncate(MAX_RUNS);
    runs
}

/// A picture `pdftohtml -xml` wrote: its page (from 1), its box in points and its file's name.
#[derive(Debug, Clone, PartialEq)]
struct Drawn {
    page: usize,
    left: f32,
    top: f32,
    width: f32,
    height: f32,
    file: String,
}

/// The `<image>` elements of `pdftohtml -xml`'s output, with the `number` of their `<page>`.
fn parse_xml(xml: &str) -> Result<Vec<Drawn>, PdfError> {
    let unreadable = || PdfError::Unreadable("its pictures could not be listed".to_owned());
    let mut reader = Reader::from_str(xml);
    let mut page = None;
    let mut drawn = Vec::new();
    loop {
        match reader.read_event().map_err(|_| unreadable())? {
            Event::Start(element) | Event::Empty(element) => match element.local_name().as_ref() {
                "page" => page = number(&element, "number").map(|number| number as usize),
                "image" => {
                    let (Some(page), Some(left), Some(top), Some(width), Some(height), Some(file)) = (
                        page,
                        number(&element, "left"),
                        number(&element, "top"),
                        number(&element, "width"),
                        number(&element, "height"),
                        text(&element, "src"),
                    ) else {
                        continue;
                    };
                    drawn.push(Drawn { page, left, top, width, height, file });
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(drawn)
}

fn text(element: &BytesStart, name: &str) -> Option<String> {
    let attribute = element.try_get_attribute(name).ok().flatten()?;
    attribute.normalized_value(XmlVersion::Implicit1_0).ok().map(|value| value.into_owned())
}

fn number(element: &BytesStart, name: &str) -> Option<f32> {
    text(element, name)?.trim().parse::<f32>().ok().filter(|value| value.is_finite())
}

/// The picture `drawn` names, read from `dir`: `None` for a file larger than `room` bytes or that
/// is not a PNG or JPEG, a picture smaller than [`MIN_IMAGE_PIXELS`] on a side, or one drawn
/// without area.
fn load(dir: &Path, drawn: Drawn, room: u64) -> Option<PageImage> {
    if drawn.page == 0 || drawn.width <= 0.0 || drawn.height <= 0.0 {
        return None;
    }
    let path = dir.join(Path::new(&drawn.file).file_name()?);
    if std::fs::metadata(&path).ok()?.len() > room {
        return None;
    }
    let data = std::fs::read(path).ok()?;
    let (format, width, height) = picture_size(&data)?;
    if width < MIN_IMAGE_PIXELS || height < MIN_IMAGE_PIXELS {
        return None;
    }
    Some(PageImage {
        page: drawn.page - 1,
        x_min: drawn.left,
        y_min: drawn.top,
        x_max: drawn.left + drawn.width,
        y_max: drawn.top + drawn.height,
        format: format.to_owned(),
        data,
    })
}

/// A PNG's or JPEG's format and size in pixels, from its header (a JPEG's first frame header).
fn picture_size(data: &[u8]) -> Option<(&'static str, u32, u32)> {
    let be16 = |at: usize| Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?));
    let be32 = |at: usize| Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?));
    if data.starts_with(b"\x89PNG\r\n\x1a\n") && data.get(12..16) == Some(b"IHDR") {
        return Some(("png", be32(16)?, be32(20)?));
    }
    if !data.starts_with(&[0xFF, 0xD8]) {
        return None;
    }
    let mut at = 2;
    loop {
        // Markers may be padded with 0xFF bytes.
        while data.get(at) == Some(&0xFF) && data.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        if *data.get(at)? != 0xFF {
            return None;
        }
        let marker = *data.get(at + 1)?;
        match marker {
            // Start of frame (not DHT 0xC4, JPG 0xC8, DAC 0xCC): precision, height, width.
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                return Some(("jpeg", u32::from(be16(at + 7)?), u32::from(be16(at + 5)?)));
            }
            0xD8 | 0x01 | 0xD0..=0xD7 => at += 2,
            0xD9 | 0xDA => return None,
            _ => at += 2 + usize::from(be16(at + 2)?),
        }
    }
}

/// `data` as standard base64 in serialised forms.
mod base64_data {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(data: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&STANDARD.encode(data))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(deserializer)?;
        STANDARD.decode(text.as_bytes()).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    #[test]
    fn the_list_gives_each_pictures_page_and_cost() {
        let text = "page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio\n\
            --------------------------------------------------------------------------------------------\n\
               1     0 image     200   100  rgb     3   8  jpeg   no         4  0    96    96 1656B 2.8%\n\
               1     1 image      64    64  rgb     3   8  image  no         6  0    96    96  167B 1.4%\n\
               1     2 smask      64    64  gray    1   8  image  no         6  0    96    96  267B 6.5%\n\
               3     3 image     100    10  cmyk    4   8  jpeg   no         7  0    96    96 1.5K 2.8%\n\
               4     4 image      50    50  gray    1   8  jpeg   no   [inline]      96    96 2.5K 2.8%\n\
               5     5 stencil    10    10  -       1   1  image  no         9  0    72    72   13B 100%\n";
        let listed = parse_list(text);
        let pixels = |width: u64, height: u64| width * height * 3 + height + 4096;
        assert_eq!(
            listed,
            [
                Listed { page: 1, bytes: 1656, stencil: false },
                Listed { page: 1, bytes: pixels(64, 64), stencil: false },
                Listed { page: 3, bytes: pixels(100, 10), stencil: false },
                Listed { page: 4, bytes: 2560, stencil: false },
                Listed { page: 5, bytes: pixels(10, 10), stencil: true },
            ]
        );
        assert_eq!(size("12.5K"), Some(12800));
        assert_eq!(size("2M"), Some(2 << 20));
        assert_eq!(size("12"), None);
    }

    #[test]
    fn pages_are_extracted_in_runs_within_the_budget() {
        let listed = |pages: &[(u32, u64)]| -> Vec<Listed> {
            pages.iter().map(|&(page, bytes)| Listed { page, bytes, stencil: false }).collect()
        };
        assert_eq!(page_runs(&listed(&[(1, 10), (1, 10), (4, 30)]), 100), [(1, 4)]);
        assert_eq!(page_runs(&listed(&[(1, 10), (2, 95), (3, 20), (5, 71), (6, 1)]), 100), [(1, 1), (3, 3), (6, 6)]);
        assert!(page_runs(&[], 100).is_empty());
    }

    #[test]
    fn the_xml_gives_each_pictures_page_box_and_file() {
        let xml = r##"<?xml version="1.0" encoding="UTF-8"?>
            <pdf2xml producer="poppler" version="22.12.0">
            <page number="2" position="absolute" top="0" left="0" height="841" width="595">
            <fontspec id="0" size="12" family="X" color="#000000"/>
            <image top="51" left="57.5" width="150" height="75" src="dir/images0-2_1.jpg"/>
            <text top="60" left="85" width="245" height="39" font="0"><b>Title</b></text>
            <image top="x" left="1" width="1" height="1" src="bad.png"/>
            </page></pdf2xml>"##;
        let drawn = parse_xml(xml).unwrap();
        let expected =
            Drawn { page: 2, left: 57.5, top: 51.0, width: 150.0, height: 75.0, file: "dir/images0-2_1.jpg".into() };
        assert_eq!(drawn, [expected]);
    }

    #[test]
    fn picture_sizes_come_from_png_and_jpeg_headers() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&[0, 0, 0, 120, 0, 0, 0, 80]);
        assert_eq!(picture_size(&png), Some(("png", 120, 80)));
        // SOI, an APP0 segment of 4 bytes, then SOF0: length, precision 8, height 100, width 200.
        let jpeg = [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 17, 8, 0, 100, 0, 200, 3];
        assert_eq!(picture_size(&jpeg), Some(("jpeg", 200, 100)));
        assert_eq!(picture_size(b"GIF89a"), None);
        assert_eq!(picture_size(&[0xFF, 0xD8, 0xFF, 0xDA]), None);
    }

    /// Makes `name` in `dir` with ImageMagick's `convert`.
    fn convert(dir: &Path, args: &[&str], name: &str) {
        let status = Command::new("convert")
            .args(args)
            .arg(dir.join(name))
            .status()
            .expect("ImageMagick's convert is needed: apt-get install imagemagick");
        assert!(status.success(), "convert made no {name}");
    }

    #[test]
    fn a_pictures_page_box_and_bytes_are_read_from_a_real_pdf() {
        let dir = tempfile::tempdir().unwrap();
        convert(dir.path(), &["-size", "200x100", "gradient:blue-yellow"], "photo.jpg");
        convert(dir.path(), &["-size", "120x80", "xc:red"], "red.png");
        convert(dir.path(), &["-size", "4x4", "xc:green"], "dot.png");
        let html = "<html><body><p>First page.</p><p><img src=\"photo.jpg\" width=\"200\" height=\"100\"></p>\
            <p style=\"page-break-before: always\">Second page.</p>\
            <p><img src=\"dot.png\" width=\"4\" height=\"4\"> <img src=\"red.png\" width=\"120\" height=\"80\"></p>\
            </body></html>";
        std::fs::write(dir.path().join("pictures.html"), html).unwrap();
        let profile = format!("-env:UserInstallation=file://{}", dir.path().join("profile").display());
        let output = Command::new("soffice")
            .args([profile.as_str(), "--headless", "--infilter=HTML (StarWriter)", "--convert-to", "pdf", "--outdir"])
            .arg(dir.path())
            .arg(dir.path().join("pictures.html"))
            .output()
            .expect("LibreOffice (soffice) is needed: apt-get install libreoffice-writer-nogui");
        let pdf = std::fs::read(dir.path().join("pictures.pdf"))
            .unwrap_or_else(|_| panic!("soffice made no PDF: {}", String::from_utf8_lossy(&output.stderr)));

        let images = images(&pdf, &Limits::default()).unwrap();
        assert_eq!(images.len(), 2, "the 4×4 dot is left out: {images:?}");
        let (photo, red) = (&images[0], &images[1]);
        assert_eq!((photo.page, photo.format.as_str()), (0, "jpeg"));
        assert_eq!((red.page, red.format.as_str()), (1, "png"));
        // 200×100 pixels at 96 per inch are 150×75 points; 120×80 are 90×60.
        assert!((photo.x_max - photo.x_min - 150.0).abs() <= 1.0 && (photo.y_max - photo.y_min - 75.0).abs() <= 1.0);
        assert!((red.x_max - red.x_min - 90.0).abs() <= 1.0 && (red.y_max - red.y_min - 60.0).abs() <= 1.0);
        // Below the first line of text, on the left margin (LibreOffice's 2 cm: 56.7 points).
        assert!(photo.y_min > 40.0 && photo.y_min < 120.0 && (photo.x_min - 56.7).abs() < 2.0, "{photo:?}");
        assert_eq!(picture_size(&photo.data), Some(("jpeg", 200, 100)));
        assert_eq!(picture_size(&red.data), Some(("png", 120, 80)));
        // ImageMagick decodes both.
        for (image, expected) in [(photo, "JPEG 200 100"), (red, "PNG 120 80")] {
            let path = dir.path().join(format!("back.{}", image.format));
            std::fs::write(&path, &image.data).unwrap();
            let output = Command::new("identify").args(["-format", "%m %w %h"]).arg(&path).output().unwrap();
            assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
        }

        let json = serde_json::to_value(photo).unwrap();
        assert_eq!(json["format"], "jpeg");
        assert!(json["data"].as_str().unwrap().starts_with("/9j/"), "standard base64 of a JPEG");
        let back: PageImage = serde_json::from_value(json).unwrap();
        assert_eq!(&back, photo);
    }

    #[test]
    fn what_is_not_a_readable_pdf_is_refused() {
        assert!(matches!(images(b"GIF89a", &Limits::default()), Err(PdfError::Unreadable(_))));
        let broken = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";
        assert!(images(broken, &Limits::default()).is_err());
    }
}
