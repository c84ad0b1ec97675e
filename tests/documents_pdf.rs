//! Component `documents` with PDFs, with the language-tools service running for real (Poppler
//! reads the text blocks, the translated PDF is written with embedded fonts) and Apertium
//! translating: a report with a heading, paragraphs, a table and an image, made at test time by
//! LibreOffice, comes back as a PDF of the same pages, in which Poppler's own `pdftotext` finds
//! the translation and not the source, the image is still there and every font is embedded. A
//! PDF bills at least 50,000 characters. A scanned PDF (a picture of text drawn by ImageMagick,
//! placed on a page by LibreOffice) is read by OCR: its lines are painted over and the
//! translation drawn on them, which Tesseract reads back. Bad files (truncated, encrypted,
//! without pages, a page tree that loops, a page with neither text nor a picture, too large for
//! the plan) are refused at upload with the reason, and a deployment without the
//! language-tools service refuses PDFs with a 503.

use std::path::Path;
use std::process::Command;

use e2e::documents::{
    accepted, app_with_language_tools as app, assert_refused, keyed, spanish_words, upload, wait_until_done,
};
use e2e::{Options, TestApp};

/// The report's texts, as a reader sees them.
const TEXTS: [&str; 4] = [
    "Quarterly report",
    "The weather is nice today. We are going to the beach with our friends.",
    "Apples Pears Cherries Plums",
    "Open every day.",
];

/// The report's bullet list.
const LIST: [&str; 2] = ["Fresh bread", "Cold water"];

/// Runs `program` with `args`; the test fails when it does.
fn run(program: &str, args: &[&str], dir: &Path) -> String {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|error| panic!("{program} runs (make setup installs it): {error}"));
    assert!(output.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Converts `name` in `dir` to a PDF with LibreOffice (`filter` after `pdf:`, if any), and
/// answers the PDF.
fn libreoffice_pdf(dir: &Path, name: &str, filter: &str) -> Vec<u8> {
    let profile = format!("-env:UserInstallation=file://{}", dir.join("profile").display());
    let out = dir.join(format!("out-{}", filter.len()));
    let target = if filter.is_empty() { "pdf".to_owned() } else { format!("pdf:writer_pdf_Export:{filter}") };
    let out_dir = out.to_string_lossy().into_owned();
    run(
        "soffice",
        &[&profile, "--headless", "--infilter=HTML (StarWriter)", "--convert-to", &target, "--outdir", &out_dir, name],
        dir,
    );
    std::fs::read(out.join(Path::new(name).with_extension("pdf"))).expect("LibreOffice wrote the PDF")
}

/// The report: a heading, a paragraph, a table and an image drawn by ImageMagick, and a closing
/// line, as a word processor's HTML, in `dir`.
fn write_report(dir: &Path) {
    run(
        "/usr/bin/convert",
        &["-size", "200x120", "xc:#3366cc", "-fill", "white", "-draw", "circle 100,60 100,20", "logo.png"],
        dir,
    );
    let html = format!(
        "<html><body><h1 style=\"font-size:20pt\">{}</h1><p style=\"font-size:12pt\">{}</p>\
         <table border=\"1\"><tr><td>Apples</td><td>Pears</td></tr><tr><td>Cherries</td><td>Plums</td></tr></table>\
         <p><img src=\"logo.png\" width=\"200\" height=\"120\"></p><p style=\"font-size:12pt\">{}</p>\
         <ul><li>{}</li><li>{}</li></ul></body></html>",
        TEXTS[0], TEXTS[1], TEXTS[3], LIST[0], LIST[1]
    );
    std::fs::write(dir.join("report.html"), html).expect("the report");
}

/// A page's size, as pdfinfo prints it (`612 x 792 pts (letter)`).
fn page_size(info: &str) -> &str {
    info.lines().find_map(|line| line.strip_prefix("Page size:")).map(str::trim).expect("a page size")
}

/// The English words the translation replaces.
const ENGLISH: [&str; 5] = ["quarterly", "weather", "beach", "friends", "every"];

/// Asserts that a real tool's reading of a translated report holds the translation.
#[track_caller]
fn assert_translated(text: &str, expected: &[String], what: &str) {
    e2e::documents::assert_translated(text, expected, &ENGLISH, what);
}

#[test]
fn a_report_made_by_libreoffice_comes_back_as_a_translated_pdf_with_its_image_and_embedded_fonts() {
    let app = app();
    let key = app.developer_key();
    let folder = tempfile::tempdir().expect("a temporary folder");
    write_report(folder.path());
    let pdf = libreoffice_pdf(folder.path(), "report.html", "");
    std::fs::write(folder.path().join("report.pdf"), &pdf).expect("saved");
    let expected = spanish_words(&app, &key, &TEXTS);

    let doc = accepted(&upload(&app, &key, "report.pdf", &pdf, &[("source_lang", "EN"), ("target_lang", "ES")]), "pdf");
    let done = wait_until_done(&app, &key, &doc, "report.pdf");
    assert_eq!(done["billed_characters"], 50_000, "a PDF bills at least 50,000 characters: {done}");
    let result = keyed(&app, &format!("/v2/document/{}/result", doc.id), &key, &doc);
    assert_eq!(result.status, 200, "{}", result.text());
    assert_eq!(result.header("content-type"), Some("application/pdf"));
    let translated = folder.path().join("translated.pdf");
    std::fs::write(&translated, &result.body).expect("saved");

    let before = run("pdfinfo", &["report.pdf"], folder.path());
    let after = run("pdfinfo", &["translated.pdf"], folder.path());
    assert_eq!(page_size(&after), page_size(&before), "the page size is kept");
    let pages = |info: &str| info.lines().find(|line| line.starts_with("Pages:")).map(str::to_owned);
    assert_eq!(pages(&after), pages(&before), "every page is kept");

    assert_translated(&run("pdftotext", &["translated.pdf", "-"], folder.path()), &expected, "pdftotext");
    let images = run("pdfimages", &["-list", "translated.pdf"], folder.path());
    assert_eq!(images.lines().skip(2).count(), 1, "the image is kept: {images}");
    let fonts = run("pdffonts", &["translated.pdf"], folder.path());
    for font in fonts.lines().skip(2) {
        let columns: Vec<&str> = font.split_whitespace().collect();
        let embedded = columns.iter().rev().nth(4).copied();
        assert_eq!(embedded, Some("yes"), "every font is embedded: {fonts}");
    }
}

#[test]
fn a_scanned_pdf_is_read_by_ocr_and_its_translation_drawn_over_the_scanned_lines() {
    let app = app();
    let key = app.developer_key();
    let folder = tempfile::tempdir().expect("a temporary folder");
    let lines = [TEXTS[1].split(". ").next().expect("a sentence"), "We are going to the beach."];
    let mut draw = vec!["-size", "1800x400", "xc:#f4f0e0", "-font", "DejaVu-Sans", "-fill", "#202020"];
    let first = format!("{}.", lines[0]);
    draw.extend(["-pointsize", "64", "-annotate", "+60+150", &first, "-annotate", "+60+300", lines[1], "scan.png"]);
    run("/usr/bin/convert", &draw, folder.path());
    let html = "<html><body><p><img src=\"scan.png\" width=\"600\" height=\"133\"></p></body></html>";
    std::fs::write(folder.path().join("scan.html"), html).expect("the page");
    let pdf = libreoffice_pdf(folder.path(), "scan.html", "");
    let text = run("pdftotext", &["out-0/scan.pdf", "-"], folder.path());
    assert!(text.trim().is_empty(), "a scan has no text layer: {text}");
    let expected = spanish_words(&app, &key, &[&first, lines[1]]);

    let doc = accepted(&upload(&app, &key, "scan.pdf", &pdf, &[("target_lang", "ES")]), "scanned pdf");
    let done = wait_until_done(&app, &key, &doc, "scan.pdf");
    assert_eq!(done["billed_characters"], 50_000, "{done}");
    let result = keyed(&app, &format!("/v2/document/{}/result", doc.id), &key, &doc);
    assert_eq!((result.status, result.header("content-type")), (200, Some("application/pdf")), "{}", result.text());
    std::fs::write(folder.path().join("translated.pdf"), &result.body).expect("saved");

    assert_translated(&run("pdftotext", &["translated.pdf", "-"], folder.path()), &expected, "pdftotext");
    run("pdftoppm", &["-r", "300", "-png", "-singlefile", "translated.pdf", "page"], folder.path());
    let seen = run("tesseract", &["page.png", "-", "-l", "spa"], folder.path());
    let seen = seen.to_lowercase();
    assert!(!seen.contains("weather") && !seen.contains("beach"), "the scanned English is painted over: {seen}");
    let found = expected.iter().filter(|word| seen.contains(word.as_str())).count();
    assert!(found * 2 >= expected.len(), "Tesseract reads most of {expected:?} in {seen}");
}

/// A hand-written PDF whose page tree is `pages` (the object after `/Pages`).
fn tiny_pdf(pages: &str) -> Vec<u8> {
    format!(
        "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj {pages} endobj\n\
         trailer << /Root 1 0 R /Size 3 >>\n%%EOF\n"
    )
    .into_bytes()
}

#[test]
fn bad_pdfs_are_refused_at_upload_with_the_reason() {
    let app = app();
    let key = app.developer_key();
    let folder = tempfile::tempdir().expect("a temporary folder");
    write_report(folder.path());
    let pdf = libreoffice_pdf(folder.path(), "report.html", "");
    let target = [("target_lang", "DE")];
    let refused = |name: &str, file: &[u8], why: &str| {
        let reply = upload(&app, &key, name, file, &target);
        assert_refused(&reply, name, why);
    };

    refused("notes.pdf", b"Just some text, not a PDF.", "not a PDF file");
    refused("cut.pdf", &pdf[..pdf.len() / 2], "cannot be read");
    let encrypted = libreoffice_pdf(
        folder.path(),
        "report.html",
        r#"{"EncryptFile":{"type":"boolean","value":"true"},"DocumentOpenPassword":{"type":"string","value":"secret"}}"#,
    );
    refused("secret.pdf", &encrypted, "encrypted");
    refused("empty.pdf", &tiny_pdf("<< /Type /Pages /Kids [] /Count 0 >>"), "invalid page count 0");
    refused("loop.pdf", &tiny_pdf("<< /Type /Pages /Kids [2 0 R] /Count 1 >>"), "cannot be read");
    std::fs::write(folder.path().join("blank.html"), "<html><body><p></p></body></html>").expect("a blank page");
    refused("blank.pdf", &libreoffice_pdf(folder.path(), "blank.html", ""), "no text to translate");

    let xlsx = upload(&app, &key, "report.pdf", &pdf, &[("target_lang", "DE"), ("output_format", "xlsx")]);
    assert_eq!(xlsx.status, 400, "{}", xlsx.text());
    assert!(xlsx.json()["message"].as_str().unwrap_or_default().contains("'output_format'"), "{}", xlsx.text());

    let mut large = pdf.clone();
    large.resize(10 * 1024 * 1024 + 1, b' ');
    let (_, free_admin) = app.create_subscription("free");
    let free_key = app.create_developer_key(&free_admin, None)["key"].as_str().expect("a key").to_owned();
    let too_large = upload(&app, &free_key, "large.pdf", &large, &target);
    assert_eq!(too_large.status, 413, "over 10 MiB on Free: {}", too_large.text());
    let usage = app.call("GET", "/v2/usage", &key).json();
    assert_eq!(usage["character_count"], 0, "nothing billed: {usage}");
}

#[test]
fn without_a_language_tools_service_pdfs_are_refused_with_a_503() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reply = upload(&app, &key, "report.pdf", b"%PDF-1.7\n", &[("target_lang", "DE")]);
    assert_eq!(reply.status, 503, "{}", reply.text());
    assert!(
        reply.json()["message"].as_str().unwrap_or_default().contains("language-tools service"),
        "{}",
        reply.text()
    );
}

#[test]
fn a_pdf_asked_for_as_docx_comes_back_as_a_word_document_libreoffice_opens() {
    let app = app();
    let key = app.developer_key();
    let folder = tempfile::tempdir().expect("a temporary folder");
    write_report(folder.path());
    let pdf = libreoffice_pdf(folder.path(), "report.html", "");
    let expected = spanish_words(&app, &key, &TEXTS);
    let fields = [("source_lang", "EN"), ("target_lang", "ES"), ("output_format", "docx")];
    let doc = accepted(&upload(&app, &key, "report.pdf", &pdf, &fields), "docx");
    let done = wait_until_done(&app, &key, &doc, "report.pdf as docx");
    assert_eq!(done["billed_characters"], 50_000, "{done}");
    let result = keyed(&app, &format!("/v2/document/{}/result", doc.id), &key, &doc);
    assert_eq!(result.status, 200, "{}", result.text());
    assert_eq!(
        result.header("content-type"),
        Some("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    );
    assert_eq!(result.header("content-disposition"), Some("attachment; filename=\"report.docx\""));
    std::fs::write(folder.path().join("translated.docx"), &result.body).expect("saved");
    // LibreOffice opens it and saves its text, and prints it as a PDF.
    let profile = format!("-env:UserInstallation=file://{}", folder.path().join("profile").display());
    run("soffice", &[&profile, "--headless", "--convert-to", "txt:Text", "translated.docx"], folder.path());
    let text = std::fs::read_to_string(folder.path().join("translated.txt")).expect("LibreOffice wrote the text");
    assert_translated(&text, &expected, "the docx, as LibreOffice reads it");
    run("soffice", &[&profile, "--headless", "--convert-to", "pdf", "translated.docx"], folder.path());
    let printed = run("pdftotext", &["translated.pdf", "-"], folder.path());
    let items = spanish_words(&app, &key, &LIST);
    let bullets: Vec<&str> = printed.lines().filter(|line| line.trim_start().starts_with('•')).collect();
    assert_eq!(bullets.len(), 2, "the list's items are a list again: {printed}");
    assert!(items.iter().all(|word| bullets.join(" ").to_lowercase().contains(word.as_str())), "{bullets:?} {items:?}");
    let images = run("pdfimages", &["-list", "translated.pdf"], folder.path());
    assert_eq!(images.lines().skip(2).count(), 1, "the picture is carried over: {images}");
}
