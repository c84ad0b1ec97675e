//! A PDF's translation as a Word document (`output_format=docx`): each block of text a
//! paragraph, in reading order, page by page. A block whose font is clearly larger than the
//! body's is a heading (`Heading1` at 1.5 times the body's size, `Heading2` at 1.2 times), and
//! each page after the first begins on a new page. What the PDF's layout does not say is not
//! made up: a table read as one block is one paragraph, and images are not carried over.

use std::io::{Cursor, Write};

use engines::language_tools::PdfPageText;
use quick_xml::escape::escape;
use zip::write::{SimpleFileOptions, ZipWriter};

use super::{Format, FormatError, corrupt};

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>"#;

const PACKAGE_RELATIONSHIPS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

const DOCUMENT_RELATIONSHIPS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#;

/// The styles the paragraphs use: the body's font size is written in when the package is made.
const STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="DejaVu Sans" w:hAnsi="DejaVu Sans" w:eastAsia="Noto Sans CJK JP" w:cs="DejaVu Sans"/><w:sz w:val="BODY"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="H1"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="200"/><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="H2"/></w:rPr></w:style></w:styles>"#;

/// The Word document of a translated PDF's pages.
pub fn docx(pages: &[PdfPageText]) -> Result<Vec<u8>, FormatError> {
    let body = body_size(pages);
    let mut document = String::from(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>"#,
    );
    for (number, page) in pages.iter().enumerate() {
        for (index, block) in page.blocks.iter().enumerate() {
            let style = match block.font_size / body {
                ratio if ratio >= 1.5 => "Heading1",
                ratio if ratio >= 1.2 => "Heading2",
                _ => "Normal",
            };
            document.push_str(&format!(r#"<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr>"#));
            if number > 0 && index == 0 {
                document.push_str(r#"<w:r><w:br w:type="page"/></w:r>"#);
            }
            for (line, text) in block.text.split('\n').enumerate() {
                if line > 0 {
                    document.push_str("<w:r><w:br/></w:r>");
                }
                document.push_str(&format!(r#"<w:r><w:t xml:space="preserve">{}</w:t></w:r>"#, escape(text)));
            }
            document.push_str("</w:p>");
        }
    }
    document.push_str("<w:sectPr/></w:body></w:document>");
    // Sizes in half points.
    let half_points = |size: f64| ((size * 2.0).round() as i64).to_string();
    let styles = STYLES
        .replace("BODY", &half_points(body))
        .replace("H1", &half_points(body * 1.6))
        .replace("H2", &half_points(body * 1.3));
    package(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("_rels/.rels", PACKAGE_RELATIONSHIPS),
        ("word/_rels/document.xml.rels", DOCUMENT_RELATIONSHIPS),
        ("word/styles.xml", &styles),
        ("word/document.xml", &document),
    ])
}

/// The body's font size: the one most of the text is set in (12 points for a PDF without text).
fn body_size(pages: &[PdfPageText]) -> f64 {
    let mut sizes: Vec<(f64, usize)> = Vec::new();
    for block in pages.iter().flat_map(|page| &page.blocks) {
        let size = (block.font_size * 2.0).round() / 2.0;
        match sizes.iter_mut().find(|(known, _)| *known == size) {
            Some((_, characters)) => *characters += block.text.chars().count(),
            None => sizes.push((size, block.text.chars().count())),
        }
    }
    sizes.into_iter().max_by_key(|(_, characters)| *characters).map_or(12.0, |(size, _)| size.max(1.0))
}

/// A zip package of `parts`, deflated.
fn package(parts: &[(&str, &str)]) -> Result<Vec<u8>, FormatError> {
    let failed = |error: &dyn std::fmt::Display| corrupt(Format::Pdf, format!("the docx cannot be written: {error}"));
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, content) in parts {
        writer.start_file(*name, SimpleFileOptions::default()).map_err(|error| failed(&error))?;
        writer.write_all(content.as_bytes()).map_err(|error| failed(&error))?;
    }
    Ok(writer.finish().map_err(|error| failed(&error))?.into_inner())
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use engines::language_tools::PdfBlock;
    use zip::ZipArchive;

    use super::*;

    fn block(text: &str, font_size: f64) -> PdfBlock {
        PdfBlock { text: text.into(), font_size, x_min: 72.0, y_min: 72.0, x_max: 520.0, y_max: 100.0 }
    }

    fn part(file: &[u8], name: &str) -> String {
        let mut archive = ZipArchive::new(Cursor::new(file)).unwrap();
        let mut text = String::new();
        archive.by_name(name).unwrap().read_to_string(&mut text).unwrap();
        text
    }

    #[test]
    fn blocks_become_paragraphs_and_larger_ones_headings_with_a_page_break_between_pages() {
        let pages = [
            PdfPageText { blocks: vec![block("Quartalsbericht", 20.0), block("Der Umsatz <wuchs> & wächst.", 12.0)] },
            PdfPageText { blocks: vec![block("Ausblick", 15.0), block("Mehr im nächsten Jahr.", 12.0)] },
        ];
        let file = docx(&pages).unwrap();
        let document = part(&file, "word/document.xml");
        let styles: Vec<&str> = document.split(r#"<w:pStyle w:val=""#).skip(1).map(|rest| &rest[..8]).collect();
        assert_eq!(styles, ["Heading1", "Normal\"/", "Heading2", "Normal\"/"]);
        assert!(document.contains("Der Umsatz &lt;wuchs&gt; &amp; wächst."), "{document}");
        assert_eq!(document.matches(r#"<w:br w:type="page"/>"#).count(), 1, "a break before the second page");
        let second_page = r#"<w:pStyle w:val="Heading2"/></w:pPr><w:r><w:br w:type="page"/></w:r>"#;
        assert!(document.contains(second_page), "{document}");
        assert!(part(&file, "word/styles.xml").contains(r#"<w:sz w:val="24"/>"#), "the body's 12 points");
        assert!(part(&file, "[Content_Types].xml").contains("/word/document.xml"));
    }

    #[test]
    fn the_body_size_is_the_size_of_most_of_the_text() {
        let pages = [PdfPageText {
            blocks: vec![block("A heading that is long", 18.0), block(&"body ".repeat(20), 10.8), block("x", 9.0)],
        }];
        assert_eq!(body_size(&pages), 11.0);
        assert_eq!(body_size(&[]), 12.0);
    }
}
