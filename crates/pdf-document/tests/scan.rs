//! Scanned pages: a page that only draws an image (a JPEG drawn by ImageMagick, placed on the
//! page as a scanner does) is marked as a scan, rendered for OCR, and written with its lines
//! covered and the translation drawn over them, checked with Poppler and Tesseract.

mod common;

use std::process::Command;

use common::*;
use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};
use pdf_document::{BlockText, Cover, Fonts, Limits, OCR_DPI, PageText, rasterise, read, write};

/// The page's colour and the text's line boxes in the scan (pixels at 150 dpi).
const PAPER: [u8; 3] = [0xf5, 0xf0, 0xe0];

/// An A4 page at 150 dpi, "Hello scanned world" written on it, as a JPEG.
fn scan_jpeg() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scan.jpg");
    let status = Command::new("convert")
        .args(["-size", "1240x1754", "xc:#f5f0e0", "-fill", "#222222", "-font", "DejaVu-Sans", "-pointsize", "40"])
        .args(["-annotate", "+100+200", "Hello scanned world", "-quality", "90"])
        .arg(&path)
        .status()
        .expect("ImageMagick's convert is needed: apt-get install imagemagick");
    assert!(status.success());
    std::fs::read(path).unwrap()
}

/// A PDF of one A4 page that draws `jpeg` (1240 × 1754 px) over the whole page, as scanners write them.
fn scanned_pdf(jpeg: Vec<u8>) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let image = Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 1240, "Height" => 1754,
            "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8, "Filter" => "DCTDecode",
        },
        jpeg,
    );
    let image_id = doc.add_object(image);
    let content = Content {
        operations: vec![
            Operation::new("q", vec![]),
            Operation::new("cm", vec![595.2.into(), 0.into(), 0.into(), 841.92.into(), 0.into(), 0.into()]),
            Operation::new("Do", vec![Object::Name(b"Im0".to_vec())]),
            Operation::new("Q", vec![]),
        ],
    };
    let content_id = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        "MediaBox" => vec![0.into(), 0.into(), 595.2.into(), 841.92.into()],
        "Resources" => dictionary! { "XObject" => dictionary! { "Im0" => image_id } },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1 }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    save(&mut doc)
}

/// What Tesseract reads on a PNG, whitespace collapsed.
fn tesseract(png: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.png");
    std::fs::write(&path, png).unwrap();
    let output = Command::new("tesseract").arg(&path).args(["-", "-l", "eng+deu"]).output().expect("tesseract-ocr");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A PNG's width and height, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let number = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (number(16), number(20))
}

#[test]
fn a_page_that_only_draws_an_image_is_a_scan_and_blank_or_text_pages_are_not() {
    let layout = read(&scanned_pdf(scan_jpeg()), &Limits::default()).unwrap();
    assert_eq!(layout.pages.len(), 1);
    assert!(layout.pages[0].scanned && layout.pages[0].blocks.is_empty());
    assert!(!layout.has_text());
    let mut doc = simple_pdf(&[&["Some text"], &[]]);
    let layout = read(&save(&mut doc), &Limits::default()).unwrap();
    assert!(!layout.pages[0].scanned, "text");
    assert!(!layout.pages[1].scanned, "a blank page draws no image");
    assert!(!read(office_pdf(), &Limits::default()).unwrap().pages[0].scanned, "text and an image");
}

#[test]
fn a_scanned_page_is_rendered_for_ocr_at_300_dpi() {
    let pdf = scanned_pdf(scan_jpeg());
    let raster = rasterise(&pdf, 1, &Limits::default()).unwrap();
    assert_eq!(raster.dpi, OCR_DPI);
    let (width, height) = png_size(&raster.png);
    assert_eq!((width, height), (2480, 3508), "A4 at 300 dpi");
    assert!(tesseract(&raster.png).contains("Hello scanned world"));
    let missing = rasterise(&pdf, 2, &Limits::default()).unwrap_err();
    assert_eq!(missing.to_string(), "the PDF cannot be read: it has no page 2");
    assert!(rasterise(b"%PDF-1.4 nothing else", 1, &Limits::default()).is_err());
}

#[test]
fn covers_paint_over_the_scanned_text_and_the_translation_is_drawn_on_them() {
    let pdf = scanned_pdf(scan_jpeg());
    // The text's box at 150 dpi: from (100, 168) to (540, 212) px, about; in points × 72 / 150.
    let points = |pixels: f32| pixels * 72.0 / 150.0;
    let (x_min, y_min, x_max, y_max) = (points(90.0), points(160.0), points(560.0), points(215.0));
    let page = PageText {
        blocks: vec![BlockText { text: "Hallo gescannte Welt".into(), x_min, y_min, x_max, y_max, font_size: 18.0 }],
        covers: vec![Cover { x_min, y_min, x_max, y_max, colour: PAPER }],
    };
    let fonts = Fonts::load_default().unwrap();
    let written = write(&pdf, &[page], &fonts, "de").unwrap();
    dump("scan.pdf", &written);
    assert_eq!(extracted_text(&written, None), "Hallo gescannte Welt");
    let seen = tesseract(&rasterise(&written, 1, &Limits::default()).unwrap().png);
    assert!(seen.contains("Hallo gescannte Welt"), "{seen}");
    assert!(!seen.contains("scanned"), "the scanned text is covered: {seen}");
    assert_eq!(poppler("pdfimages", &["-list"], &written).lines().count(), 3, "the scan is kept");
}
