//! PowerPoint presentations: every paragraph (`a:p`) with text of the slides
//! (`ppt/slides/*.xml`: titles, text boxes, shapes, tables) and the notes
//! (`ppt/notesSlides/*.xml`) is one piece, translated with its runs as placeholders (see
//! [`super::ooxml`]). Fields (slide numbers, dates) are never translated.
//!
//! Slide layouts and masters are left as they are: their text is placeholder prompts ("Click to
//! edit the title") that a slide show does not show, and a translated master would change every
//! deck built on it. Charts, diagrams (SmartArt) and comments are left as they are too.

use super::ooxml::{self, Kind, in_folder};
use super::{Format, Tags};

/// How a pptx file's pieces are translated: only the paragraph splits; runs and line breaks are
/// inline; fields and alternate content (equations) are ignored.
pub(super) const TAGS: Tags =
    Tags { splitting_tags: &["a:p"], ignore_tags: &["a:fld", "mc:AlternateContent", "a:extLst"], ..ooxml::TAGS };

pub(super) const KIND: Kind = Kind {
    format: Format::Pptx,
    holds_text,
    check: |names| {
        (!names.iter().any(|name| in_folder(name, "ppt/slides/", "")))
            .then_some("it has no slides (ppt/slides/*.xml): not a PowerPoint presentation")
    },
    pieces: &["a:p"],
    texts: &["a:t"],
    ignored: TAGS.ignore_tags,
    local_names: false,
    // DrawingML keeps the whitespace of `a:t`.
    preserve_space: false,
};

fn holds_text(name: &str) -> bool {
    in_folder(name, "ppt/slides/", "") || in_folder(name, "ppt/notesSlides/", "")
}

#[cfg(test)]
mod tests {
    use super::super::FormatError;
    use super::super::ooxml::testing::{entries, package, part, upper_cased};
    use super::*;

    const SLIDE: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/></p:nvSpPr><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>Launch plan</a:t></a:r></a:p></p:txBody></p:sp><p:sp><p:txBody><a:p><a:r><a:rPr lang="en-US"/><a:t xml:space="preserve">A </a:t></a:r><a:r><a:rPr lang="en-US" b="1"/><a:t>bold</a:t></a:r><a:r><a:rPr lang="en-US"/><a:t> step</a:t></a:r><a:br><a:rPr lang="en-US"/></a:br><a:r><a:t>next line</a:t></a:r></a:p><a:p><a:endParaRPr lang="en-US"/></a:p><a:p><a:fld id="{1}" type="slidenum"><a:t>3</a:t></a:fld></a:p></p:txBody></p:sp><p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr h="370840"><a:tc><a:txBody><a:p><a:r><a:t>Cell one</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame></p:spTree></p:cSld></p:sld>"#;

    const NOTES: &str = r#"<p:notes><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>Speak slowly</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>"#;
    const LAYOUT: &str = r#"<p:sldLayout><a:p><a:r><a:t>Click to edit the title</a:t></a:r></a:p></p:sldLayout>"#;

    fn pptx() -> Vec<u8> {
        package(&[
            ("[Content_Types].xml", b"<Types/>"),
            ("ppt/presentation.xml", b"<p:presentation/>"),
            ("ppt/slides/slide1.xml", SLIDE.as_bytes()),
            ("ppt/slides/_rels/slide1.xml.rels", b"<Relationships/>"),
            ("ppt/slideLayouts/slideLayout1.xml", LAYOUT.as_bytes()),
            ("ppt/notesSlides/notesSlide1.xml", NOTES.as_bytes()),
            ("ppt/media/image1.bin", b"\x89PNG"),
        ])
    }

    #[test]
    fn slide_table_and_notes_paragraphs_are_pieces_and_layouts_are_not() {
        let cut = Format::Pptx.cut(&pptx(), "de").unwrap();
        let texts: Vec<&str> = cut.pieces.iter().map(|piece| piece.text.as_str()).collect();
        assert_eq!(texts.len(), 4, "{texts:#?}");
        assert!(texts[0].contains("Launch plan"));
        assert!(texts[1].contains("b=\"1\"") && texts[1].contains("next line"));
        assert_eq!(texts[2], "<a:p><a:r><a:t>Cell one</a:t></a:r></a:p>");
        assert_eq!(texts[3], "<a:p><a:r><a:t>Speak slowly</a:t></a:r></a:p>");
        let visible = ["Launch plan", "A bold step", "next line", "Cell one", "Speak slowly"];
        assert_eq!(cut.characters, visible.iter().map(|text| text.chars().count() as i64).sum::<i64>());
    }

    #[test]
    fn a_translation_keeps_runs_on_their_words_and_the_rest_byte_for_byte() {
        let file = pptx();
        let cut = Format::Pptx.cut(&file, "de").unwrap();
        let outputs: Vec<String> = cut.pieces.iter().map(|piece| upper_cased(&piece.text, TAGS)).collect();
        let translated = Format::Pptx.assemble(Some(&file), &outputs).unwrap();
        let slide = part(&translated, "ppt/slides/slide1.xml");
        assert!(slide.contains("<a:t>LAUNCH PLAN</a:t>"));
        assert!(slide.contains("<a:rPr lang=\"en-US\" b=\"1\"/><a:t>BOLD</a:t>"), "{slide}");
        assert!(slide.contains("<a:t> STEP</a:t>") && slide.contains("<a:t>NEXT LINE</a:t>"));
        assert!(slide.contains("<a:t>3</a:t>") && slide.contains("<a:t>CELL ONE</a:t>"));
        assert!(part(&translated, "ppt/notesSlides/notesSlide1.xml").contains("SPEAK SLOWLY"));
        for (old, new) in entries(&file).iter().zip(entries(&translated)) {
            assert_eq!(old.0, new.0);
            if !holds_text(&old.0) {
                assert_eq!(old.3, new.3, "{}: byte for byte", old.0);
            }
        }
    }

    #[test]
    fn a_package_without_slides_is_refused() {
        let file = package(&[("ppt/presentation.xml", b"<p:presentation/>"), ("ppt/slides/_rels/x.rels", b"<r/>")]);
        match Format::Pptx.cut(&file, "de") {
            Err(FormatError::Corrupt { format: "pptx", why }) => assert!(why.contains("no slides"), "{why}"),
            other => panic!("refused, not {other:?}"),
        }
    }
}
