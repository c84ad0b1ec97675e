//! Fixtures made at test time by real tools (LibreOffice, ImageMagick, lopdf) and helpers
//! that run Poppler on the results.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};

/// The texts of the LibreOffice fixture, in reading order.
pub const HEADING: &str = "Annual Report";
pub const FIRST_PARAGRAPH: &str = "The quick brown fox jumps over the lazy dog. This first paragraph is long enough to wrap onto a second line of text in the rendered document, which lets the reader join lines into one block.";
pub const SECOND_PARAGRAPH: &str = "A second paragraph follows the first one.";

/// A one-page PDF made by LibreOffice from HTML: a 20 pt heading, two 12 pt paragraphs,
/// a table and an image drawn by ImageMagick. Made once per test binary.
pub fn office_pdf() -> &'static [u8] {
    static PDF: OnceLock<Vec<u8>> = OnceLock::new();
    PDF.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let status = Command::new("convert")
            .args(["-size", "120x80", "gradient:blue-yellow"])
            .arg(dir.path().join("image.png"))
            .status()
            .expect("ImageMagick's convert is needed for the image fixture: apt-get install imagemagick");
        assert!(status.success(), "convert failed");
        let html = format!(
            "<html><body>\n<h1 style=\"font-size:20pt\">{HEADING}</h1>\n\
             <p style=\"font-size:12pt\">{FIRST_PARAGRAPH}</p>\n<p style=\"font-size:12pt\">{SECOND_PARAGRAPH}</p>\n\
             <table border=\"1\"><tr><td>Apples</td><td>Pears</td></tr><tr><td>Cherries</td><td>Plums</td></tr></table>\n\
             <p><img src=\"image.png\" width=\"120\" height=\"80\"></p>\n</body></html>\n"
        );
        office_to_pdf(dir.path(), "document.html", &html)
    })
}

/// The texts of the tables fixture: a paragraph after each table, a justified paragraph, a list
/// and two columns of prose.
pub const AFTER_FIRST_TABLE: &str = "The first table ends here.";
pub const AFTER_SECOND_TABLE: &str = "This paragraph follows the second table closely and runs across the whole width of the page, so that it wraps onto a second line.";
pub const JUSTIFIED: &str = "Justified text is spread across the whole width of the column so that both of its edges are straight, which makes the gaps between the words wider than a normal space on every line but the last one of the paragraph, and this sentence goes on long enough to wrap several times.";
pub const BULLETS: &str = "• First bullet item • Second bullet item • Third bullet item";
pub const LEFT_PROSE: &str = "The left column of prose is a long paragraph that wraps over several lines inside its column, as a two column page layout would look in a newsletter or a journal.";
pub const RIGHT_PROSE: &str = "The right column of prose is another long paragraph that wraps over several lines too, set beside the first one, and it must not be cut into cells.";

/// A one-page PDF made by LibreOffice from HTML with plain tables (no padding, rows close
/// together): a 3×3 table with a header row, which Poppler reads as one block with the paragraph
/// after it; a 3×3 table followed by a long paragraph, which Poppler reads as one block per
/// column (the first one taking in the paragraph) or as one block with a line per cell; then a
/// justified paragraph, a bullet list and two columns of prose (CSS columns), none of them a
/// table.
pub fn tables_pdf() -> &'static [u8] {
    static PDF: OnceLock<Vec<u8>> = OnceLock::new();
    PDF.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let html = format!(
            "<html><body>\n\
             <table border=\"1\"><tr><th>Fruit</th><th>Colour</th><th>Price</th></tr>\
             <tr><td>Apples</td><td>Red</td><td>2 euros</td></tr>\
             <tr><td>Bananas</td><td>Yellow</td><td>3 euros</td></tr></table>\n\
             <p>{AFTER_FIRST_TABLE}</p>\n\
             <table border=\"1\" width=\"100%\"><tr><td>Region name</td><td>Sales in the year</td><td>Growth rate</td></tr>\
             <tr><td>North of the country</td><td>120 units</td><td>5 percent</td></tr>\
             <tr><td>South of the country</td><td>80 units</td><td>3 percent</td></tr></table>\n\
             <p>{AFTER_SECOND_TABLE}</p>\n\
             <p style=\"text-align:justify\">{JUSTIFIED}</p>\n\
             <ul><li>First bullet item</li><li>Second bullet item</li><li>Third bullet item</li></ul>\n\
             <div style=\"column-count:2\"><p>{LEFT_PROSE}</p><p>{RIGHT_PROSE}</p></div>\n\
             </body></html>\n"
        );
        office_to_pdf(dir.path(), "tables.html", &html)
    })
}

/// A one-page PDF made by LibreOffice from HTML: a plain 3×3 table followed directly by a short
/// paragraph, which Poppler reads as one block per column, the first column's block taking in
/// the paragraph.
pub fn column_table_pdf() -> &'static [u8] {
    static PDF: OnceLock<Vec<u8>> = OnceLock::new();
    PDF.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let html = "<html><body>\n<p>Before the table.</p>\n\
             <table border=\"1\" width=\"100%\"><tr><td>Region name</td><td>Sales in the year</td><td>Growth rate</td></tr>\
             <tr><td>North of the country</td><td>120 units</td><td>5 percent</td></tr>\
             <tr><td>South of the country</td><td>80 units</td><td>3 percent</td></tr></table>\n\
             <p>After the table.</p>\n</body></html>\n";
        office_to_pdf(dir.path(), "columns.html", html)
    })
}

/// A one-page PDF made by LibreOffice from HTML: a plain table with empty cells (the top left
/// one among them) followed by a paragraph, then a code block in a monospaced font.
pub fn empty_cells_pdf() -> &'static [u8] {
    static PDF: OnceLock<Vec<u8>> = OnceLock::new();
    PDF.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let html = "<html><body>\n\
             <table border=\"1\" width=\"100%\"><tr><td></td><td>Q1</td><td>Q2</td></tr>\
             <tr><td>North</td><td>5</td><td>6</td></tr><tr><td>South</td><td></td><td>8</td></tr></table>\n\
             <p>After the table with empty cells.</p>\n\
             <pre>let x = 5;\nlet y = 6;\nlet zed = 7;</pre>\n</body></html>\n";
        office_to_pdf(dir.path(), "empty.html", html)
    })
}

/// A 20-page PDF made by LibreOffice: on each page a heading "Chapter N" and three paragraphs.
pub fn twenty_page_pdf() -> &'static [u8] {
    static PDF: OnceLock<Vec<u8>> = OnceLock::new();
    PDF.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let mut html = String::from("<html><body>\n");
        for page in 1..=20 {
            let style = if page > 1 { " style=\"page-break-before: always\"" } else { "" };
            html.push_str(&format!("<h1{style}>Chapter {page}</h1>\n"));
            for paragraph in 1..=3 {
                html.push_str(&format!(
                    "<p>Paragraph {paragraph} of chapter {page}. {}</p>\n",
                    "Words fill the page so that the layout has lines to wrap and blocks to join. ".repeat(6)
                ));
            }
        }
        html.push_str("</body></html>\n");
        office_to_pdf(dir.path(), "book.html", &html)
    })
}

/// Converts `source` (written to `dir` under `name`) to PDF with LibreOffice Writer.
fn office_to_pdf(dir: &Path, name: &str, source: &str) -> Vec<u8> {
    std::fs::write(dir.join(name), source).unwrap();
    let profile = format!("-env:UserInstallation=file://{}", dir.join("profile").display());
    let output = Command::new("soffice")
        .args([profile.as_str(), "--headless", "--infilter=HTML (StarWriter)", "--convert-to", "pdf", "--outdir"])
        .arg(dir)
        .arg(dir.join(name))
        .output()
        .unwrap_or_else(|_| {
            panic!("LibreOffice (soffice) is needed for the fixtures: apt-get install libreoffice-writer-nogui")
        });
    let pdf = dir.join(Path::new(name).with_extension("pdf"));
    std::fs::read(&pdf).unwrap_or_else(|_| panic!("soffice made no PDF: {}", String::from_utf8_lossy(&output.stderr)))
}

/// A PDF of `pages` pages drawn with lopdf, each showing `lines` in 12 pt Helvetica.
pub fn simple_pdf(pages: &[&[&str]]) -> Document {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" });
    let resources_id = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font_id } });
    let mut kids = Vec::new();
    for lines in pages {
        let mut operations = vec![Operation::new("BT", vec![]), Operation::new("Tf", vec!["F1".into(), 12.into()])];
        operations.push(Operation::new("Td", vec![72.into(), 720.into()]));
        for line in lines.iter() {
            operations.push(Operation::new("Tj", vec![Object::string_literal(*line)]));
            operations.push(Operation::new("Td", vec![0.into(), (-16).into()]));
        }
        operations.push(Operation::new("ET", vec![]));
        let content = Content { operations }.encode().unwrap();
        let content_id = doc.add_object(Stream::new(dictionary! {}, content));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        });
        kids.push(page_id.into());
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count, "Resources" => resources_id },
        ),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    doc
}

pub fn save(doc: &mut Document) -> Vec<u8> {
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    bytes
}

/// Runs a Poppler tool on `pdf` with `args` before the file name; returns its standard output.
pub fn poppler(tool: &str, args: &[&str], pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("file.pdf");
    std::fs::write(&path, pdf).unwrap();
    let mut command = Command::new(tool);
    command.args(args).arg(&path);
    if tool == "pdftotext" {
        command.arg("-");
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{tool} failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The text of `pdf` (or one page of it) as `pdftotext` extracts it, whitespace collapsed.
pub fn extracted_text(pdf: &[u8], page: Option<usize>) -> String {
    let page = page.map(|page| page.to_string());
    let args: Vec<&str> = match &page {
        Some(page) => vec!["-f", page, "-l", page],
        None => vec![],
    };
    poppler("pdftotext", &args, pdf).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Writes `pdf` to `$PDF_DOCUMENT_DUMP/name` when that variable is set, to look at by hand.
pub fn dump(name: &str, pdf: &[u8]) {
    if let Some(dir) = std::env::var_os("PDF_DOCUMENT_DUMP") {
        std::fs::write(Path::new(&dir).join(name), pdf).unwrap();
    }
}
