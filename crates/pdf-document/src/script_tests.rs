//! Translations in scripts that need shaping or run right to left, written into a PDF and read
//! back with Poppler (`pdftotext`, `pdffonts`), as a reader's viewer or search would.

use std::process::Command;

use lopdf::{Document, Object, Stream, dictionary};

use crate::shape::Shaper;
use crate::{Fonts, PageText, write};

/// A blank one-page PDF (US Letter) drawn with lopdf.
fn blank_pdf() -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let content_id = doc.add_object(Stream::new(dictionary! {}, b"0 0 m\n".to_vec()));
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1 }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    bytes
}

fn fonts() -> Fonts {
    let fonts = Fonts::load_default().unwrap();
    for needed in
        ["NotoNaskhArabic-Regular", "NotoSansHebrew-Regular", "NotoSansDevanagari-Regular", "NotoSansThai-Regular"]
    {
        assert!(fonts.face_names().contains(&needed), "install fonts-noto-core: {:?}", fonts.face_names());
    }
    fonts
}

/// Writes `paragraphs` as blocks one under the other in a 300 pt wide column.
fn written(paragraphs: &[&str], language: &str) -> Vec<u8> {
    let blocks: Vec<serde_json::Value> = paragraphs
        .iter()
        .enumerate()
        .map(|(number, text)| {
            let top = 60.0 + number as f32 * 80.0;
            serde_json::json!({"text": text, "x_min": 72.0, "y_min": top, "x_max": 372.0, "y_max": top + 60.0, "font_size": 14.0})
        })
        .collect();
    let page: PageText = serde_json::from_value(serde_json::json!({ "blocks": blocks })).unwrap();
    let pdf = write(&blank_pdf(), &[page], &fonts(), language).unwrap();
    if let Ok(dir) = std::env::var("PDF_DOCUMENT_DUMP") {
        std::fs::write(std::path::Path::new(&dir).join(format!("script-{language}.pdf")), &pdf).unwrap();
    }
    pdf
}

/// Runs a Poppler tool on `pdf`; returns its standard output.
fn poppler(tool: &str, args: &[&str], pdf: &[u8]) -> String {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), pdf).unwrap();
    let output = Command::new(tool)
        .args(args)
        .arg(file.path())
        .args(if tool == "pdftotext" { &["-"][..] } else { &[][..] })
        .output()
        .unwrap_or_else(|_| panic!("{tool} is needed: apt-get install poppler-utils"));
    assert!(output.status.success(), "{tool}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The words of an extracted text, without the bidirectional embedding marks Poppler puts
/// around right-to-left text and the left-to-right words inside it (U+202A to U+202E).
fn words(text: &str) -> String {
    let text: String = text.chars().filter(|character| !('\u{202A}'..='\u{202E}').contains(character)).collect();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn letters(text: &str) -> String {
    words(text).chars().filter(|character| !character.is_whitespace()).collect()
}

/// Every font `pdffonts` lists is embedded, and each of `names` is among them.
fn assert_embedded(pdf: &[u8], names: &[&str]) {
    let listing = poppler("pdffonts", &[], pdf);
    for name in names {
        let line = listing.lines().find(|line| line.contains(name)).unwrap_or_else(|| panic!("{name}: {listing}"));
        assert!(line.contains(" yes yes "), "{line}");
    }
}

const ARABIC: &str = "مرحبا بكم في التقرير السنوي";
const ARABIC_MIXED: &str = "صدر التقرير في عام 2024 عن شركة Glossa للترجمة";
const HEBREW: &str = "שלום וברוכים הבאים לדוח השנתי";
const HINDI: &str = "वार्षिक रिपोर्ट में आपका स्वागत है";
const THAI: &str = "ยินดีต้อนรับสู่รายงานประจำปี";

#[test]
fn arabic_is_embedded_in_noto_and_extracts_in_logical_order() {
    let pdf = written(&[ARABIC], "ar");
    assert_embedded(&pdf, &["NotoNaskhArabic-Regular"]);
    // Poppler puts right-to-left text drawn in visual order back into logical order.
    assert_eq!(words(&poppler("pdftotext", &[], &pdf)), ARABIC);
    // With digits and a Latin word inside, every letter comes back in logical order (Poppler
    // drops the space after an embedded left-to-right word).
    let pdf = written(&[ARABIC_MIXED], "ar");
    assert_eq!(letters(&poppler("pdftotext", &[], &pdf)), letters(ARABIC_MIXED));
}

#[test]
fn hebrew_is_embedded_in_noto_and_extracts_in_logical_order() {
    let pdf = written(&[HEBREW], "he");
    assert_embedded(&pdf, &["NotoSansHebrew-Regular"]);
    assert_eq!(words(&poppler("pdftotext", &[], &pdf)), HEBREW);
}

#[test]
fn hindi_and_thai_are_shaped_embedded_and_extract() {
    let pdf = written(&[HINDI], "hi");
    assert_embedded(&pdf, &["NotoSansDevanagari-Regular"]);
    assert_eq!(words(&poppler("pdftotext", &[], &pdf)), HINDI);
    let pdf = written(&[THAI], "th");
    assert_embedded(&pdf, &["NotoSansThai-Regular"]);
    assert_eq!(words(&poppler("pdftotext", &[], &pdf)), THAI);
}

#[test]
fn right_to_left_lines_are_right_aligned_in_their_box() {
    let pdf = written(&[HEBREW], "he");
    let boxes = poppler("pdftotext", &["-bbox"], &pdf);
    let x_max: Vec<f32> = boxes
        .lines()
        .filter(|line| line.contains("<word"))
        .filter_map(|line| line.split("xMax=\"").nth(1)?.split('"').next()?.parse().ok())
        .collect();
    let right = x_max.iter().copied().fold(0.0, f32::max);
    assert!((right - 372.0).abs() < 2.0, "{boxes}");
}

#[test]
fn arabic_letters_take_their_joined_forms() {
    let fonts = fonts();
    let shaper = Shaper::new(fonts.faces_data()).unwrap();
    let order = fonts.fallback_order("ar");
    let isolated = |letter: &str| shaper.shape(letter, &order, true).clusters[0].glyphs[0].id;
    // "بيت": beh initial, yeh medial, teh final; each differs from the isolated letter.
    let shaped = shaper.shape("بيت", &order, true);
    assert!(shaped.rtl);
    let ids: Vec<u16> = shaped.clusters.iter().map(|cluster| cluster.glyphs[0].id).collect();
    assert_eq!(ids.len(), 3);
    assert_ne!(ids[0], isolated("ب"));
    assert_ne!(ids[1], isolated("ي"));
    assert_ne!(ids[2], isolated("ت"));
    // Lam before alef takes the form that joins it.
    let lam_alef = shaper.shape("لا", &order, true);
    assert_ne!(lam_alef.clusters[0].glyphs[0].id, isolated("ل"));
}

#[test]
fn devanagari_vowel_signs_move_and_conjuncts_form() {
    let fonts = fonts();
    let shaper = Shaper::new(fonts.faces_data()).unwrap();
    let order = fonts.fallback_order("hi");
    let nominal = |letter: &str| shaper.shape(letter, &order, false).clusters[0].glyphs[0].id;
    // "कि": the vowel sign i is drawn before the consonant it follows in the text.
    let ki = shaper.shape("कि", &order, false);
    assert_eq!(ki.clusters.len(), 1);
    let glyphs: Vec<u16> = ki.clusters[0].glyphs.iter().map(|glyph| glyph.id).collect();
    assert_eq!(glyphs.len(), 2);
    assert_eq!(glyphs[1], nominal("क"));
    assert_ne!(glyphs[0], nominal("क"));
    // "क्ष": ka, virama, ssa become one conjunct glyph.
    let kssa = shaper.shape("क्ष", &order, false);
    assert_eq!(kssa.clusters.len(), 1);
    assert_eq!(kssa.clusters[0].glyphs.len(), 1);
    assert_ne!(kssa.clusters[0].glyphs[0].id, nominal("क"));
}

#[test]
fn latin_stays_in_dejavu_and_script_letters_take_their_noto_face() {
    let fonts = fonts();
    let shaper = Shaper::new(fonts.faces_data()).unwrap();
    let order = fonts.fallback_order("de");
    let shaped = shaper.shape("Hallo שלום 42", &order, false);
    let face_of = |text: &str| {
        let cluster = shaped.clusters.iter().find(|cluster| cluster.text == text).unwrap();
        fonts.face(cluster.glyphs[0].face).postscript_name.clone()
    };
    assert_eq!(face_of("H"), "DejaVuSans");
    assert_eq!(face_of("ש"), "NotoSansHebrew-Regular");
    assert_eq!(face_of("4"), "DejaVuSans");
    assert!(!shaped.rtl);
}

#[test]
fn the_other_scripts_of_the_catalogue_take_their_noto_faces_and_extract() {
    let texts = [
        ("বার্ষিক প্রতিবেদন", "NotoSansBengali"),
        ("ஆண்டு அறிக்கை", "NotoSansTamil"),
        ("వార్షిక నివేదిక", "NotoSansTelugu"),
        ("વાર્ષિક અહેવાલ", "NotoSansGujarati"),
        ("ਸਾਲਾਨਾ ਰਿਪੋਰਟ", "NotoSansGurmukhi"),
        ("വാർഷിക റിപ്പോർട്ട്", "NotoSansMalayalam"),
        ("ವಾರ್ಷಿಕ ವರದಿ", "NotoSansKannada"),
        ("წლიური ანგარიში", "NotoSansGeorgian"),
        ("Տարեկան հաշվետվություն", "NotoSansArmenian"),
        ("ዓመታዊ ሪፖርት", "NotoSansEthiopic"),
    ];
    let paragraphs: Vec<&str> = texts.iter().map(|(text, _)| *text).collect();
    let faces: Vec<&str> = texts.iter().map(|(_, face)| *face).collect();
    for chunk in [0..5, 5..10] {
        let pdf = written(&paragraphs[chunk.clone()], "xx");
        assert_embedded(&pdf, &faces[chunk.clone()]);
        assert_eq!(words(&poppler("pdftotext", &[], &pdf)), words(&paragraphs[chunk].join(" ")));
    }
}
