//! Reading real PDFs made by LibreOffice and writing their translations, checked with Poppler.

mod common;

use std::time::Instant;

use common::*;
use lopdf::dictionary;
use pdf_document::{BlockText, Fonts, Layout, Limits, PageText, read, write};

fn fonts() -> Fonts {
    Fonts::load_default().expect("fonts-dejavu-core and fonts-noto-cjk are needed")
}

/// One translation per block of the fixture, in reading order.
fn translate(layout: &Layout, texts: &[&str]) -> Vec<PageText> {
    let mut next = texts.iter().cycle();
    layout
        .pages
        .iter()
        .map(|page| PageText {
            blocks: page.blocks.iter().map(|block| BlockText::from_block(block, *next.next().unwrap())).collect(),
            covers: vec![],
        })
        .collect()
}

#[test]
fn reads_pages_blocks_texts_boxes_and_font_sizes() {
    let layout = read(office_pdf(), &Limits::default()).unwrap();
    assert_eq!(layout.pages.len(), 1);
    let page = &layout.pages[0];
    assert!((page.width - 595.3).abs() < 0.5 && (page.height - 841.9).abs() < 0.5, "{} x {}", page.width, page.height);
    assert!(page.has_text());
    let texts: Vec<&str> = page.blocks.iter().map(|block| block.text.as_str()).collect();
    // pdftotext reads the table as one block of two rows: it is cut into its cells, row by row.
    assert_eq!(
        texts,
        [HEADING, FIRST_PARAGRAPH, SECOND_PARAGRAPH, "Apples", "Pears", "Cherries", "Plums"],
        "{texts:#?}"
    );
    for cell in &page.blocks[3..] {
        assert_eq!(cell.lines.len(), 1, "{cell:?}");
        assert!((cell.font_size - 12.0).abs() <= 0.5, "{cell:?}");
        assert!(cell.x_max - cell.x_min < 60.0, "a cell is as wide as its text: {cell:?}");
    }
    let (apples, pears, cherries) = (&page.blocks[3], &page.blocks[4], &page.blocks[5]);
    assert!(apples.x_max < pears.x_min && (apples.y_min - pears.y_min).abs() < 1.0, "{apples:?} {pears:?}");
    assert!(apples.y_max <= cherries.y_min + 1.0 && (apples.x_min - cherries.x_min).abs() < 1.0);
    assert_eq!(page.blocks[1].lines.len(), 3);
    let sizes: Vec<f32> = page.blocks.iter().map(|block| block.font_size).collect();
    assert!((sizes[0] - 20.0).abs() <= 1.0, "heading {sizes:?}");
    assert!((sizes[1] - 12.0).abs() <= 0.5 && (sizes[2] - 12.0).abs() <= 0.5, "paragraphs {sizes:?}");
    let mut previous_top = 0.0;
    for block in &page.blocks[..3] {
        assert!(0.0 < block.x_min && block.x_min < block.x_max && block.x_max < page.width, "{block:?}");
        assert!(previous_top < block.y_min && block.y_min < block.y_max && block.y_max < page.height, "{block:?}");
        for line in &block.lines {
            assert!(line.y_min >= block.y_min - 0.01 && line.y_max <= block.y_max + 0.01);
        }
        previous_top = block.y_max;
    }
}

#[test]
fn layout_travels_as_json() {
    let layout = read(office_pdf(), &Limits::default()).unwrap();
    let json = serde_json::to_value(&layout).unwrap();
    let block = &json["pages"][0]["blocks"][0];
    assert_eq!(block["text"], HEADING);
    for key in ["font_size", "x_min", "y_min", "x_max", "y_max", "lines"] {
        assert!(block.get(key).is_some(), "{key} missing in {block}");
    }
    assert_eq!(block["lines"][0]["text"], HEADING);
    assert!(json["pages"][0]["width"].is_number());
    let back: Layout = serde_json::from_value(json).unwrap();
    assert_eq!(back, layout);
    let page_text =
        PageText { blocks: vec![BlockText::from_block(&layout.pages[0].blocks[0], "Jahresbericht")], covers: vec![] };
    let json = serde_json::to_string(&page_text).unwrap();
    assert!(json.starts_with(r#"{"blocks":[{"text":"Jahresbericht","x_min":"#), "{json}");
    assert_eq!(serde_json::from_str::<PageText>(&json).unwrap(), page_text);
}

const GERMAN: [&str; 7] = [
    "Jahresbericht",
    "Der schnelle braune Fuchs springt über den faulen Hund. Dieser erste Absatz ist lang genug, um im gerenderten Dokument auf eine zweite Zeile umzubrechen.",
    "Ein zweiter Absatz folgt dem ersten.",
    "Äpfel",
    "Birnen",
    "Kirschen",
    "Pflaumen",
];

#[test]
fn german_translation_replaces_the_text_and_keeps_image_and_page() {
    let original = office_pdf();
    let layout = read(original, &Limits::default()).unwrap();
    let translated = translate(&layout, &GERMAN);
    let output = write(original, &translated, &fonts(), "de").unwrap();
    dump("original.pdf", original);
    dump("german.pdf", &output);

    let text = extracted_text(&output, None);
    for german in [
        "Jahresbericht",
        "Der schnelle braune Fuchs springt über den faulen Hund.",
        "Ein zweiter Absatz folgt dem ersten.",
        "Äpfel",
        "Birnen",
        "Kirschen",
        "Pflaumen",
    ] {
        assert!(text.contains(german), "{german:?} missing from {text:?}");
    }
    for english in ["Annual", "quick brown", "second paragraph", "Apples", "Cherries"] {
        assert!(!text.contains(english), "{english:?} still in {text:?}");
    }
    let images = poppler("pdfimages", &["-list"], &output);
    assert_eq!(images.lines().count(), 3, "one image expected:\n{images}");
    assert!(images.contains("120    80"), "{images}");
    let info = poppler("pdfinfo", &[], &output);
    assert!(info.contains("Page size:       595.304 x 841.89 pts"), "{info}");
    assert_fonts_embedded_and_subset(&output, &["DejaVuSans"]);
    assert!(output.len() < original.len() + 1_000_000, "{} bytes from {}", output.len(), original.len());

    // The translation is where the original was.
    let reread = read(&output, &Limits::default()).unwrap();
    let heading = &reread.pages[0].blocks[0];
    assert_eq!(heading.text, "Jahresbericht");
    let original_heading = &layout.pages[0].blocks[0];
    assert!((heading.x_min - original_heading.x_min).abs() < 2.0, "{heading:?} vs {original_heading:?}");
    assert!((heading.y_min - original_heading.y_min).abs() < 4.0, "{heading:?} vs {original_heading:?}");
    assert!((heading.font_size - original_heading.font_size).abs() < 2.5, "{heading:?} vs {original_heading:?}");
}

/// Every font `pdffonts` lists is embedded and a subset, and each of `names` is among them.
fn assert_fonts_embedded_and_subset(pdf: &[u8], names: &[&str]) {
    let listing = poppler("pdffonts", &[], pdf);
    let fonts: Vec<&str> = listing.lines().skip(2).collect();
    assert!(!fonts.is_empty(), "no fonts:\n{listing}");
    for font in &fonts {
        let columns: Vec<&str> = font.split_whitespace().collect();
        let emb_sub = &columns[columns.len() - 5..columns.len() - 3];
        assert_eq!(emb_sub, ["yes", "yes"], "not embedded and subset:\n{listing}");
        assert!(columns[0].as_bytes()[6] == b'+', "no subset tag:\n{listing}");
    }
    for name in names {
        assert!(fonts.iter().any(|font| font.contains(&format!("+{name} "))), "{name} missing:\n{listing}");
    }
}

#[test]
fn japanese_translation_uses_the_japanese_face_and_extracts() {
    let original = office_pdf();
    let layout = read(original, &Limits::default()).unwrap();
    let japanese = [
        "年次報告書",
        "素早い茶色の狐が怠け者の犬を飛び越えます。この最初の段落は、二行目に折り返すほど長いです。",
        "二番目の段落が最初の段落に続きます。",
        "りんご",
        "なし",
        "さくらんぼ",
        "プラム",
    ];
    let output = write(original, &translate(&layout, &japanese), &fonts(), "ja").unwrap();
    dump("japanese.pdf", &output);
    let text: String = extracted_text(&output, None).chars().filter(|c| !c.is_whitespace()).collect();
    for expected in japanese {
        let expected: String = expected.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(text.contains(&expected), "{expected:?} missing from {text:?}");
    }
    assert_fonts_embedded_and_subset(&output, &["NotoSansCJKjp-Regular"]);
    assert!(output.len() < original.len() + 1_000_000, "{} bytes from {}", output.len(), original.len());
}

#[test]
fn characters_fall_back_to_a_font_that_has_them() {
    let original = office_pdf();
    let layout = read(original, &Limits::default()).unwrap();
    let mixed = ["Straße Ελληνικά Кириллица 日本語", "ok", "ok", "ok"];
    let output = write(original, &translate(&layout, &mixed), &fonts(), "de").unwrap();
    let text = extracted_text(&output, None);
    // pdftotext joins a CJK word to the word before it.
    assert!(text.contains("Straße Ελληνικά Кириллица日本語"), "{text}");
    assert_fonts_embedded_and_subset(&output, &["DejaVuSans", "NotoSansCJKjp-Regular"]);
}

#[test]
fn long_translations_shrink_and_wrap_in_their_box() {
    let original = office_pdf();
    let layout = read(original, &Limits::default()).unwrap();
    let long = "Ein sehr viel längerer zweiter Absatz, der nicht mehr in eine Zeile passt und deshalb umbrochen und kleiner gesetzt werden muss, damit er in seinem Kasten bleibt.";
    let mut translated = translate(&layout, &GERMAN);
    translated[0].blocks[2].text = long.to_owned();
    let output = write(original, &translated, &fonts(), "de").unwrap();
    dump("long.pdf", &output);
    let reread = read(&output, &Limits::default()).unwrap();
    let block = reread.pages[0].blocks.iter().find(|block| block.text.starts_with("Ein sehr")).unwrap();
    assert_eq!(block.text, long);
    let original_block = &layout.pages[0].blocks[2];
    assert!(block.lines.len() >= 2, "{block:?}");
    assert!(block.x_max <= original_block.x_max + 1.0, "{block:?} wider than {original_block:?}");
    assert!(block.font_size < original_block.font_size * 0.9, "{block:?} not shrunk");
    assert!(block.font_size > original_block.font_size * 0.5, "{block:?} shrunk too far");
}

#[test]
fn twenty_pages_are_read_and_written_page_by_page() {
    let original = twenty_page_pdf();
    let started = Instant::now();
    let layout = read(original, &Limits::default()).unwrap();
    let read_time = started.elapsed();
    assert_eq!(layout.pages.len(), 20);
    for (number, page) in layout.pages.iter().enumerate() {
        assert_eq!(page.blocks[0].text, format!("Chapter {}", number + 1));
        assert!(page.blocks.len() >= 4, "page {number}: {:?}", page.blocks);
    }
    let translated: Vec<PageText> = layout
        .pages
        .iter()
        .enumerate()
        .map(|(number, page)| PageText {
            blocks: page
                .blocks
                .iter()
                .map(|block| {
                    BlockText::from_block(
                        block,
                        format!("Kapitel {} übersetzt. {}", number + 1, "Wörter füllen die Seite. ".repeat(8)),
                    )
                })
                .collect(),
            covers: vec![],
        })
        .collect();
    let started = Instant::now();
    let output = write(original, &translated, &fonts(), "de").unwrap();
    let write_time = started.elapsed();
    dump("twenty.pdf", &output);
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak = status.lines().find(|line| line.starts_with("VmHWM")).unwrap_or("VmHWM: unknown");
    eprintln!(
        "20 pages: read {read_time:?}, write {write_time:?}, {} -> {} bytes, {peak}",
        original.len(),
        output.len()
    );
    for page in [1, 7, 20] {
        let text = extracted_text(&output, Some(page));
        assert!(text.contains(&format!("Kapitel {page} übersetzt.")), "page {page}: {text}");
        assert!(!text.contains("Chapter") && !text.contains("Paragraph"), "page {page}: {text}");
        let other = if page == 20 { 19 } else { page + 1 };
        assert!(!text.contains(&format!("Kapitel {other} übersetzt.")), "page {page}: {text}");
    }
    assert!(output.len() < original.len() + 1_000_000);
}

#[test]
fn a_page_without_text_has_no_blocks() {
    let mut doc = simple_pdf(&[&["Some text"], &[]]);
    let layout = read(&save(&mut doc), &Limits::default()).unwrap();
    assert!(layout.pages[0].has_text());
    assert!(!layout.pages[1].has_text());
    assert!(layout.has_text());
}

#[test]
fn a_wrong_number_of_pages_is_refused() {
    let original = office_pdf();
    let error = write(original, &[], &fonts(), "de").unwrap_err();
    assert_eq!(error.to_string(), "the translation has 0 pages but the PDF has 1");
}

/// Reads `pdf`, writes "Hallo Welt" over its first block, and checks that the translation is
/// read back where the original block was.
fn assert_translation_lands_on_the_block(pdf: &[u8], what: &str) {
    let layout = read(pdf, &Limits::default()).unwrap();
    let block = &layout.pages[0].blocks[0];
    assert_eq!(block.text, "Hello world Second line", "{what}");
    let translated = [PageText { blocks: vec![BlockText::from_block(block, "Hallo Welt")], covers: vec![] }];
    let output = write(pdf, &translated, &fonts(), "de").unwrap();
    let reread = read(&output, &Limits::default()).unwrap();
    assert_eq!((reread.pages[0].width, reread.pages[0].height), (layout.pages[0].width, layout.pages[0].height));
    let new_block = &reread.pages[0].blocks[0];
    assert_eq!(new_block.text, "Hallo Welt", "{what}");
    assert!((new_block.x_min - block.x_min).abs() < 2.0, "{what}: {new_block:?} vs {block:?}");
    assert!((new_block.y_min - block.y_min).abs() < 4.0, "{what}: {new_block:?} vs {block:?}");
}

#[test]
fn rotated_and_cropped_pages_get_the_translation_where_the_text_was() {
    // On a rotated page the text is drawn turned back, so that it reads upright on screen.
    let upright = [(0, "1 0 0 1 0 0"), (90, "0 1 -1 0 612 0"), (180, "-1 0 0 -1 612 792"), (270, "0 -1 1 0 0 792")];
    for (rotation, matrix) in upright {
        for crop in [false, true] {
            let mut doc = simple_pdf(&[&["Hello world", "Second line"]]);
            let page_id = *doc.get_pages().values().next().unwrap();
            let content_id = doc.get_page_contents(page_id)[0];
            let stream = doc.get_object_mut(content_id).unwrap().as_stream_mut().unwrap();
            let text = String::from_utf8(stream.content.clone()).unwrap().replace("72 720 Td", "72 500 Td");
            stream.set_plain_content(format!("q {matrix} cm\n{text}\nQ\n").into_bytes());
            let page = doc.get_dictionary_mut(page_id).unwrap();
            page.set("Rotate", rotation);
            if crop {
                page.set("CropBox", vec![36.into(), 100.into(), 500.into(), 760.into()]);
            }
            assert_translation_lands_on_the_block(&save(&mut doc), &format!("rotation {rotation}, crop {crop}"));
        }
    }
}

#[test]
fn text_inside_form_xobjects_is_removed() {
    let mut doc = simple_pdf(&[&["Page text"]]);
    let font_id = doc.add_object(dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" });
    let form = lopdf::Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "F9" => font_id } },
        },
        b"0 0 1 rg 72 500 100 20 re f BT /F9 14 Tf 72 600 Td (Inside the form) Tj ET".to_vec(),
    );
    let form_id = doc.add_object(form);
    let page_id = *doc.get_pages().values().next().unwrap();
    let content_id = doc.get_page_contents(page_id)[0];
    let stream = doc.get_object_mut(content_id).unwrap().as_stream_mut().unwrap();
    let mut content = stream.content.clone();
    content.extend_from_slice(b"\n/Fm1 Do\n");
    stream.set_plain_content(content);
    let pages_id = doc.catalog().unwrap().get(b"Pages").unwrap().as_reference().unwrap();
    let resources_id = doc.get_dictionary(pages_id).unwrap().get(b"Resources").unwrap().as_reference().unwrap();
    let resources = doc.get_dictionary_mut(resources_id).unwrap();
    resources.set("XObject", dictionary! { "Fm1" => form_id });
    let pdf = save(&mut doc);

    let layout = read(&pdf, &Limits::default()).unwrap();
    let texts: Vec<&str> = layout.pages[0].blocks.iter().map(|block| block.text.as_str()).collect();
    assert_eq!(texts, ["Page text", "Inside the form"]);
    let output = write(&pdf, &translate(&layout, &["Seitentext", "Im Formular"]), &fonts(), "de").unwrap();
    assert_eq!(extracted_text(&output, None), "Seitentext Im Formular");
    // The form's rectangle is still drawn: a blue area where it was.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("out.pdf"), &output).unwrap();
    let status = std::process::Command::new("pdftoppm")
        .args(["-r", "72", "-x", "100", "-y", "280", "-W", "1", "-H", "1"])
        .arg(dir.path().join("out.pdf"))
        .arg(dir.path().join("pixel"))
        .status()
        .unwrap();
    assert!(status.success());
    let pixel = std::fs::read(dir.path().join("pixel-1.ppm")).unwrap();
    assert_eq!(&pixel[pixel.len() - 3..], [0, 0, 255], "the form's blue rectangle is gone");
}

/// The texts of a page's blocks.
fn texts(layout: &Layout, page: usize) -> Vec<&str> {
    layout.pages[page].blocks.iter().map(|block| block.text.as_str()).collect()
}

#[test]
fn plain_tables_are_read_one_block_per_cell_and_prose_stays_whole() {
    let layout = read(tables_pdf(), &Limits::default()).unwrap();
    dump("tables.pdf", tables_pdf());
    let texts = texts(&layout, 0);
    assert_eq!(
        texts,
        [
            // The header row is centred, bold: it does not line up with the rows below.
            "Fruit",
            "Colour",
            "Price",
            "Apples",
            "Red",
            "2 euros",
            "Bananas",
            "Yellow",
            "3 euros",
            AFTER_FIRST_TABLE,
            "Region name",
            "Sales in the year",
            "Growth rate",
            "North of the country",
            "120 units",
            "5 percent",
            "South of the country",
            "80 units",
            "3 percent",
            AFTER_SECOND_TABLE,
            JUSTIFIED,
            BULLETS,
            LEFT_PROSE,
            RIGHT_PROSE,
        ],
        "{texts:#?}"
    );
    let blocks = &layout.pages[0].blocks;
    // Cells are one line each, in rows left to right, the size of the table's text.
    for cell in blocks[..9].iter().chain(&blocks[10..19]) {
        assert_eq!(cell.lines.len(), 1, "{cell:?}");
        assert_eq!(cell.lines[0].text, cell.text);
        assert!((cell.font_size - 12.0).abs() <= 0.5, "{cell:?}");
    }
    for row in blocks[..9].chunks(3).chain(blocks[10..19].chunks(3)) {
        assert!(row[0].x_max < row[1].x_min && row[1].x_max < row[2].x_min, "{row:?}");
        assert!(row.iter().all(|cell| (cell.y_min - row[0].y_min).abs() < 1.0), "{row:?}");
    }
    assert!(blocks[20].lines.len() >= 3 && blocks[21].lines.len() == 3, "{:?}", &blocks[20..22]);
    assert!(blocks[22].lines.len() >= 3 && blocks[23].lines.len() >= 3, "{:?}", &blocks[22..]);
}

#[test]
fn a_table_read_as_column_blocks_is_cut_into_cells() {
    let layout = read(column_table_pdf(), &Limits::default()).unwrap();
    let texts = texts(&layout, 0);
    assert_eq!(
        texts,
        [
            "Before the table.",
            "Region name",
            "Sales in the year",
            "Growth rate",
            "North of the country",
            "120 units",
            "5 percent",
            "South of the country",
            "80 units",
            "3 percent",
            "After the table.",
        ],
        "{texts:#?}"
    );
    let blocks = &layout.pages[0].blocks;
    let (first, second) = (&blocks[1], &blocks[4]);
    assert!(first.y_max <= second.y_min + 1.0 && (first.x_min - second.x_min).abs() < 1.0, "{first:?} {second:?}");
    assert!(blocks[10].y_min >= blocks[9].y_max - 1.0, "the paragraph after the table: {:?}", blocks[10]);
}

#[test]
fn a_table_with_empty_cells_is_cut_into_its_cells_and_code_stays_whole() {
    let layout = read(empty_cells_pdf(), &Limits::default()).unwrap();
    let texts = texts(&layout, 0);
    assert_eq!(
        texts,
        [
            "Q1",
            "Q2",
            "North",
            "5",
            "6",
            "South",
            "8",
            "After the table with empty cells.",
            "let x = 5; let y = 6; let zed = 7;"
        ],
        "{texts:#?}"
    );
}

#[test]
fn table_cells_are_translated_in_their_cells() {
    let original = tables_pdf();
    let layout = read(original, &Limits::default()).unwrap();
    let blocks = &layout.pages[0].blocks;
    let german: Vec<String> = blocks
        .iter()
        .enumerate()
        .map(|(index, block)| if block.lines.len() == 1 { format!("Zelle{index}") } else { format!("Absatz {index}.") })
        .collect();
    let german: Vec<&str> = german.iter().map(String::as_str).collect();
    let output = write(original, &translate(&layout, &german), &fonts(), "de").unwrap();
    dump("tables-german.pdf", &output);
    let text = extracted_text(&output, None);
    for english in ["Fruit", "Bananas", "Region", "units", "percent"] {
        assert!(!text.contains(english), "{english:?} still in {text:?}");
    }
    // Each cell's translation is drawn where the cell was: its word starts at the cell's start.
    let words = word_boxes(&output);
    for (index, cell) in blocks.iter().enumerate().filter(|(_, block)| block.lines.len() == 1) {
        let expected = format!("Zelle{index}");
        let found = words.iter().filter(|(text, ..)| *text == expected).collect::<Vec<_>>();
        assert_eq!(found.len(), 1, "{expected} in {words:?}");
        let (_, x_min, y_min, _, _) = *found[0];
        assert!((x_min - cell.x_min).abs() < 2.0 && (y_min - cell.y_min).abs() < 4.0, "{:?} vs {cell:?}", found[0]);
    }
    // The paragraphs' too.
    for (index, block) in blocks.iter().enumerate().filter(|(_, block)| block.lines.len() > 1) {
        let number = format!("{index}.");
        let (_, x_min, y_min, _, _) = words.iter().find(|(text, ..)| *text == number).unwrap();
        assert!(block.x_min - 1.0 < *x_min && *x_min < block.x_max && (y_min - block.y_min).abs() < 4.0, "{block:?}");
    }
}

/// The words `pdftotext -bbox` reads from `pdf`'s first page, with their boxes.
fn word_boxes(pdf: &[u8]) -> Vec<(String, f32, f32, f32, f32)> {
    let xhtml = poppler("pdftotext", &["-bbox", "-f", "1", "-l", "1"], pdf);
    xhtml
        .lines()
        .filter_map(|line| {
            let line = line.trim().strip_prefix("<word ")?;
            let (attributes, rest) = line.split_once('>')?;
            let text = rest.strip_suffix("</word>")?.to_owned();
            let value = |name: &str| -> f32 {
                let start = attributes.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                attributes[start..].split('"').next().unwrap().parse().unwrap()
            };
            Some((text, value("xMin"), value("yMin"), value("xMax"), value("yMax")))
        })
        .collect()
}
