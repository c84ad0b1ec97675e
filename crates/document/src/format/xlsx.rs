//! Excel workbooks: every shared string (`si` in `xl/sharedStrings.xml`: plain, or rich text
//! whose runs are placeholders) and every inline string (`is` in `xl/worksheets/*.xml`) is one
//! piece (see [`super::ooxml`]). Formulas, numbers, dates and booleans are not strings and stay
//! as they are, and so do phonetic (ruby) runs. Sheet names, comments, charts and drawings are
//! left as they are.

use super::ooxml::{self, Kind, in_folder};
use super::{Format, Tags};

/// How a xlsx file's pieces are translated: only the string splits; rich text runs are inline;
/// phonetic runs are ignored. Names are listed bare and with the `x:` prefix some writers use.
pub(super) const TAGS: Tags =
    Tags { splitting_tags: &["si", "is", "x:si", "x:is"], ignore_tags: &["rPh", "x:rPh"], ..ooxml::TAGS };

pub(super) const KIND: Kind = Kind {
    format: Format::Xlsx,
    holds_text,
    check: |names| {
        (!names.iter().any(|name| in_folder(name, "xl/worksheets/", "")))
            .then_some("it has no worksheets (xl/worksheets/*.xml): not an Excel workbook")
    },
    pieces: &["si", "is"],
    texts: &["t"],
    ignored: &["rPh"],
    local_names: true,
    preserve_space: true,
};

fn holds_text(name: &str) -> bool {
    name == "xl/sharedStrings.xml" || in_folder(name, "xl/worksheets/", "")
}

#[cfg(test)]
mod tests {
    use super::super::FormatError;
    use super::super::ooxml::testing::{entries, package, part, upper_cased};
    use super::*;

    const STRINGS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="3" uniqueCount="3"><si><t>Revenue</t></si><si><r><t xml:space="preserve">Total </t></r><r><rPr><b/><sz val="11"/></rPr><t>net</t></r><r><t xml:space="preserve"> sales</t></r></si><si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si><si><t/></si></sst>"#;

    const SHEET: &str = r#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>42.5</v></c></row><row r="2"><c r="A2" s="1"><v>45292</v></c><c r="B2"><f>SUM(B1:B1)</f><v>42.5</v></c><c r="C2" t="inlineStr"><is><t>Inline note</t></is></c></row></sheetData></worksheet>"#;

    /// The same, as the Open XML SDK writes it, with a prefix.
    const PREFIXED: &str = r#"<x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:si><x:t>Prefixed</x:t></x:si></x:sst>"#;

    fn xlsx(strings: &str) -> Vec<u8> {
        package(&[
            ("[Content_Types].xml", b"<Types/>"),
            ("xl/workbook.xml", b"<workbook><sheets><sheet name=\"Sheet1\"/></sheets></workbook>"),
            ("xl/sharedStrings.xml", strings.as_bytes()),
            ("xl/worksheets/sheet1.xml", SHEET.as_bytes()),
            ("xl/styles.xml", b"<styleSheet/>"),
        ])
    }

    #[test]
    fn shared_and_inline_strings_are_pieces() {
        let cut = Format::Xlsx.cut(&xlsx(STRINGS), "de").unwrap();
        let texts: Vec<&str> = cut.pieces.iter().map(|piece| piece.text.as_str()).collect();
        assert_eq!(texts.len(), 4, "{texts:#?}");
        assert_eq!(texts[0], "<si><t>Revenue</t></si>");
        assert!(texts[1].contains("<b/>"));
        assert!(texts[2].starts_with("<si><t>東京</t>"));
        assert_eq!(texts[3], "<is><t>Inline note</t></is>");
        let visible = ["Revenue", "Total net sales", "東京", "Inline note"];
        assert_eq!(cut.characters, visible.iter().map(|text| text.chars().count() as i64).sum::<i64>());
    }

    #[test]
    fn a_translation_keeps_rich_text_runs_and_leaves_numbers_and_formulas_alone() {
        let file = xlsx(STRINGS);
        let cut = Format::Xlsx.cut(&file, "de").unwrap();
        let outputs: Vec<String> = cut.pieces.iter().map(|piece| upper_cased(&piece.text, TAGS)).collect();
        let translated = Format::Xlsx.assemble(Some(&file), &outputs).unwrap();
        let strings = part(&translated, "xl/sharedStrings.xml");
        assert!(strings.contains("<si><t>REVENUE</t></si>"));
        assert!(strings.contains("<rPr><b/><sz val=\"11\"/></rPr><t>NET</t>"), "{strings}");
        assert!(strings.contains("<rPh sb=\"0\" eb=\"2\"><t>トウキョウ</t></rPh>"), "phonetic runs kept");
        assert!(strings.contains("<si><t/></si>"));
        let sheet = part(&translated, "xl/worksheets/sheet1.xml");
        assert_eq!(sheet, SHEET.replace("Inline note", "INLINE NOTE"), "numbers, dates and formulas untouched");
        for (old, new) in entries(&file).iter().zip(entries(&translated)) {
            assert_eq!(old.0, new.0);
            if !holds_text(&old.0) {
                assert_eq!(old.3, new.3, "{}: byte for byte", old.0);
            }
        }
    }

    #[test]
    fn prefixed_parts_are_read_too() {
        let file = xlsx(PREFIXED);
        let cut = Format::Xlsx.cut(&file, "de").unwrap();
        assert_eq!(cut.pieces[0].text, "<x:si><x:t>Prefixed</x:t></x:si>");
        let outputs: Vec<String> = cut.pieces.iter().map(|piece| upper_cased(&piece.text, TAGS)).collect();
        assert!(
            part(&Format::Xlsx.assemble(Some(&file), &outputs).unwrap(), "xl/sharedStrings.xml")
                .contains("<x:t>PREFIXED</x:t>")
        );
    }

    #[test]
    fn a_package_without_worksheets_is_refused() {
        let file = package(&[("xl/workbook.xml", b"<workbook/>"), ("xl/sharedStrings.xml", STRINGS.as_bytes())]);
        match Format::Xlsx.cut(&file, "de") {
            Err(FormatError::Corrupt { format: "xlsx", why }) => assert!(why.contains("no worksheets"), "{why}"),
            other => panic!("refused, not {other:?}"),
        }
    }
}
