//! Word documents: every paragraph (`w:p`) with text of the body (tables included), the headers,
//! footers, footnotes, endnotes and comments is one piece, translated with its runs as
//! placeholders (see [`super::ooxml`]).
//!
//! Field codes (`w:instrText`), deleted and moved-away text of tracked changes (`w:delText`,
//! `w:moveFrom`), math and embedded objects are never translated. A drawing or picture in a paragraph is never translated as part
//! of it: the paragraphs of its text box are pieces of their own, after the paragraph holding it
//! (both the modern text box and its legacy fallback copy, so that every reader shows the
//! translation). The glossary document (`word/glossary/`), charts and SmartArt are left as they
//! are.

use super::ooxml::{self, Kind, in_folder};
use super::{Format, Tags};

/// How a docx file's pieces are translated: only the paragraph splits; runs, hyperlinks, fields
/// and the like are inline; what is never shown as text, or shown elsewhere, is ignored.
pub(super) const TAGS: Tags = Tags {
    splitting_tags: &["w:p"],
    ignore_tags: &[
        "w:instrText",
        "w:delText",
        "w:delInstrText",
        "w:moveFrom",
        "w:fldData",
        "w:drawing",
        "w:pict",
        "w:object",
        "mc:AlternateContent",
        "m:oMath",
        "m:oMathPara",
    ],
    ..ooxml::TAGS
};

pub(super) const KIND: Kind = Kind {
    format: Format::Docx,
    holds_text,
    check: |names| {
        (!names.contains(&"word/document.xml")).then_some("it has no word/document.xml: not a Word document")
    },
    pieces: &["w:p"],
    texts: &["w:t"],
    ignored: TAGS.ignore_tags,
    local_names: false,
    preserve_space: true,
};

fn holds_text(name: &str) -> bool {
    matches!(name, "word/document.xml" | "word/footnotes.xml" | "word/endnotes.xml" | "word/comments.xml")
        || in_folder(name, "word/", "header")
        || in_folder(name, "word/", "footer")
}

#[cfg(test)]
mod tests {
    use super::super::FormatError;
    use super::super::ooxml::testing::{entries, package, part, upper_cased};
    use super::*;

    const DOCUMENT: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Quarterly report</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">The </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r><w:r><w:t xml:space="preserve"> word and the </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>italic</w:t></w:r><w:r><w:t xml:space="preserve"> one, see </w:t></w:r><w:hyperlink r:id="rId9"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>the site</w:t></w:r></w:hyperlink><w:r><w:t>.</w:t></w:r></w:p><w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Page</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:del><w:r><w:delText>gone</w:delText></w:r></w:del><w:moveFrom><w:r><w:t>moved</w:t></w:r></w:moveFrom></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell text</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p><w:r><w:t>Anchor</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:positionH><wp:posOffset>12700</wp:posOffset></wp:positionH><a:graphic><wps:txbx><w:txbxContent><w:p><w:r><w:t>In the box</w:t></w:r></w:p></w:txbxContent></wps:txbx></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox><w:txbxContent><w:p><w:r><w:t>In the box</w:t></w:r></w:p></w:txbxContent></v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p><w:p><w:pPr/></w:p><w:sectPr/></w:body></w:document>"#;

    const HEADER: &str = r#"<w:hdr><w:p><w:r><w:t>Header text</w:t></w:r></w:p></w:hdr>"#;
    const FOOTER: &str = r#"<w:ftr><w:p><w:r><w:t>Footer text</w:t></w:r></w:p></w:ftr>"#;
    const STYLES: &str = r#"<w:styles><w:style><w:name w:val="Heading 1"/></w:style></w:styles>"#;

    fn docx() -> Vec<u8> {
        package(&[
            ("[Content_Types].xml", b"<Types/>"),
            ("word/document.xml", DOCUMENT.as_bytes()),
            ("word/styles.xml", STYLES.as_bytes()),
            ("word/header1.xml", HEADER.as_bytes()),
            ("word/media/image1.bin", &[0x89, b'P', b'N', b'G', 1, 2, 3]),
            ("word/footer2.xml", FOOTER.as_bytes()),
            ("word/_rels/document.xml.rels", b"<Relationships/>"),
        ])
    }

    #[test]
    fn paragraphs_of_every_part_with_text_are_pieces_in_order() {
        let cut = Format::Docx.cut(&docx(), "de").unwrap();
        let texts: Vec<&str> = cut.pieces.iter().map(|piece| piece.text.as_str()).collect();
        assert_eq!(texts.len(), 9, "{texts:#?}");
        assert!(texts[0].starts_with("<w:p><w:pPr><w:pStyle") && texts[0].contains("Quarterly report"));
        assert!(texts[1].contains("<w:b/>") && texts[1].ends_with("</w:p>"));
        assert!(texts[2].contains("PAGE"), "the field's paragraph, its code ignored in translation");
        assert_eq!(texts[3], "<w:p><w:r><w:t>Cell text</w:t></w:r></w:p>");
        assert!(texts[4].starts_with("<w:p><w:r><w:t>Anchor"));
        assert_eq!(texts[5], "<w:p><w:r><w:t>In the box</w:t></w:r></w:p>", "the text box");
        assert_eq!(texts[6], texts[5], "its legacy copy");
        assert_eq!(texts[7], "<w:p><w:r><w:t>Header text</w:t></w:r></w:p>");
        assert_eq!(texts[8], "<w:p><w:r><w:t>Footer text</w:t></w:r></w:p>");
        let visible = [
            "Quarterly report",
            "The bold word and the italic one, see the site.",
            "Page",
            "Cell text",
            "Anchor",
            "In the box",
            "In the box",
            "Header text",
            "Footer text",
        ];
        assert_eq!(cut.characters, visible.iter().map(|text| text.chars().count() as i64).sum::<i64>());
    }

    #[test]
    fn a_translation_keeps_formatting_on_its_words_and_the_rest_of_the_package_byte_for_byte() {
        let file = docx();
        let cut = Format::Docx.cut(&file, "de").unwrap();
        let outputs: Vec<String> = cut.pieces.iter().map(|piece| upper_cased(&piece.text, TAGS)).collect();
        let translated = Format::Docx.assemble(Some(&file), &outputs).unwrap();

        let document = part(&translated, "word/document.xml");
        assert!(document.contains("<w:pStyle w:val=\"Heading1\"/></w:pPr><w:r><w:t>QUARTERLY REPORT</w:t>"));
        assert!(document.contains("<w:rPr><w:b/></w:rPr><w:t>BOLD</w:t>"), "bold stays on its word: {document}");
        assert!(document.contains("<w:rPr><w:i/></w:rPr><w:t>ITALIC</w:t>"));
        assert!(document.contains(
            "<w:hyperlink r:id=\"rId9\"><w:r><w:rPr><w:rStyle w:val=\"Hyperlink\"/></w:rPr><w:t>THE SITE</w:t>"
        ));
        assert!(document.contains("<w:instrText xml:space=\"preserve\"> PAGE </w:instrText>"), "field codes untouched");
        assert!(document.contains("<w:delText>gone</w:delText>"), "deleted text untouched");
        assert!(document.contains("<w:moveFrom><w:r><w:t>moved</w:t>"), "moved-away text untouched");
        assert!(document.contains("<w:t>PAGE</w:t>"));
        assert!(document.contains("<w:t>CELL TEXT</w:t>"));
        assert!(document.contains("<wp:posOffset>12700</wp:posOffset>"));
        assert_eq!(document.matches("<w:t>IN THE BOX</w:t>").count(), 2, "the text box and its fallback");
        assert!(document.contains("<w:t>ANCHOR</w:t>"));
        assert!(document.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:document"));
        assert_eq!(part(&translated, "word/header1.xml"), HEADER.replace("Header text", "HEADER TEXT"));
        assert_eq!(part(&translated, "word/footer2.xml"), FOOTER.replace("Footer text", "FOOTER TEXT"));

        let (before, after) = (entries(&file), entries(&translated));
        let names = |entries: &[(String, Vec<u8>, zip::CompressionMethod, Vec<u8>)]| -> Vec<String> {
            entries.iter().map(|entry| entry.0.clone()).collect()
        };
        assert_eq!(names(&before), names(&after), "the same entries in the same order");
        for (old, new) in before.iter().zip(&after) {
            assert_eq!(old.2, new.2, "{}: the same compression", old.0);
            if !holds_text(&old.0) || old.0 == "word/styles.xml" {
                assert_eq!(old.3, new.3, "{}: copied byte for byte", old.0);
            }
        }
    }

    #[test]
    fn an_identity_translation_gives_the_parts_back_unchanged() {
        let file = docx();
        let cut = Format::Docx.cut(&file, "de").unwrap();
        let outputs: Vec<String> = cut.pieces.iter().map(|piece| piece.text.clone()).collect();
        let same = Format::Docx.assemble(Some(&file), &outputs).unwrap();
        for (old, new) in entries(&file).iter().zip(entries(&same)) {
            assert_eq!(old.1, new.1, "{}", old.0);
        }
    }

    #[test]
    fn a_package_without_its_document_is_refused() {
        let file = package(&[("word/styles.xml", STYLES.as_bytes())]);
        match Format::Docx.cut(&file, "de") {
            Err(FormatError::Corrupt { format: "docx", why }) => assert!(why.contains("word/document.xml"), "{why}"),
            other => panic!("refused, not {other:?}"),
        }
        assert!(matches!(Format::Docx.cut(b"plain text", "de"), Err(FormatError::Corrupt { .. })));
    }

    #[test]
    fn a_translation_that_loses_the_paragraph_fails_instead_of_writing_a_broken_file() {
        let file = docx();
        let cut = Format::Docx.cut(&file, "de").unwrap();
        let mut outputs: Vec<String> = cut.pieces.iter().map(|piece| piece.text.clone()).collect();
        outputs[3] = "<w:p><w:r><w:t>Cell</w:t></w:p>".to_owned();
        assert!(matches!(
            Format::Docx.assemble(Some(&file), &outputs),
            Err(FormatError::Corrupt { format: "docx", .. })
        ));
    }
}
