//! Documents from upload to download, against an in-memory database with the real schema and
//! the deterministic engine.

use std::time::Duration;

use accounts::{Actor, KeyKind, Plan, Principal, create_key, create_subscription};
use engines::DeterministicEngine;
use platform::native::NativeHost;
use platform::{Database, FixedClock};

use super::*;
use crate::request::{Options, RawUpload};

/// A store with the application's schema: documents read glossaries, style rules and memories,
/// and charge.
fn fixture() -> NativeHost {
    NativeHost::with_app_schema(FixedClock::at_unix(1_795_255_200)).expect("set up the host")
}

fn principal(fixture: &NativeHost, plan: Plan) -> Principal {
    let services = fixture.services();
    let subscription = create_subscription(&services, plan).unwrap();
    let key = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).unwrap().key;
    Principal { subscription, key }
}

fn upload(name: &str, text: &str) -> Upload {
    let raw = RawUpload {
        file: Some((Some(name.into()), text.as_bytes().to_vec())),
        options: Options { target_lang: Some("DE".into()), source_lang: Some("EN".into()), ..Options::default() },
        ..RawUpload::default()
    };
    request::parse(raw, Plan::Pro).unwrap()
}

const ENGINES: Engines<'static> =
    Engines { engine: &DeterministicEngine, detector: &engines::detect::Builtin, tools: None };

/// Characters charged to the subscription so far.
fn charged(fixture: &NativeHost) -> i64 {
    let rows = fixture.db.execute("SELECT COALESCE(SUM(units), 0) FROM usage_journal", &[]).unwrap();
    rows.first().unwrap().get(0).unwrap()
}

fn reserved(fixture: &NativeHost) -> i64 {
    let rows = fixture.db.execute("SELECT COALESCE(SUM(units), 0) FROM usage_reservations", &[]).unwrap();
    rows.first().unwrap().get(0).unwrap()
}

const TEXT: &str = "The first paragraph.\nIt has two lines.\n\nThe second one.\n";

#[test]
fn a_document_is_translated_downloaded_once_and_charged_then() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    let handle = create(&services, &who, upload("notes.txt", TEXT)).unwrap();
    assert_eq!(handle.document_id.len(), 32);
    assert_eq!(handle.document_key.len(), 64);
    assert!(handle.document_key.chars().all(|c| c.is_ascii_digit() || c.is_ascii_uppercase()));
    assert_eq!((reserved(&fixture), charged(&fixture)), (53, 0), "reserved at upload, not charged");

    let (id, key) = (handle.document_id.as_str(), handle.document_key.as_str());
    let done = status(&services, ENGINES, &who, id, key).unwrap();
    assert_eq!((done.status, done.characters), (Status::Done, 53));
    let file = download(&services, ENGINES, &who, id, key).unwrap();
    let text = String::from_utf8(file.bytes).unwrap();
    let lines: Vec<&str> = text.split('\n').collect();
    assert_eq!(lines.len(), 5, "the lines and blank lines are kept: {text:?}");
    assert_eq!((lines[2], lines[4]), ("", ""));
    assert_ne!(lines[0], "The first paragraph.", "translated");
    assert_eq!((reserved(&fixture), charged(&fixture)), (0, 53), "charged at the download");

    assert!(matches!(status(&services, ENGINES, &who, id, key), Err(DocumentError::NotFound)));
    assert!(matches!(download(&services, ENGINES, &who, id, key), Err(DocumentError::NotFound)));
    assert_eq!(charged(&fixture), 53, "charged once");
}

#[test]
fn a_wrong_key_or_another_subscription_finds_nothing() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    let other = principal(&fixture, Plan::Pro);
    let handle = create(&services, &who, upload("notes.txt", TEXT)).unwrap();
    let id = handle.document_id.as_str();
    let wrong = "0".repeat(64);
    assert!(matches!(status(&services, ENGINES, &who, id, &wrong), Err(DocumentError::NotFound)));
    assert!(matches!(status(&services, ENGINES, &other, id, &handle.document_key), Err(DocumentError::NotFound)));
    assert!(matches!(status(&services, ENGINES, &who, "nonsense", &handle.document_key), Err(DocumentError::NotFound)));
}

#[test]
fn a_held_lease_keeps_other_workers_out_until_it_ends() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    let handle = create(&services, &who, upload("notes.txt", TEXT)).unwrap();
    let id = handle.document_id.as_str();
    let now = work::unix_ms(&services);
    // A worker that took the document and died.
    assert!(store::claim(&fixture.db, id, "dead", now, now + work::LEASE_MS).unwrap().is_some());
    assert!(store::claim(&fixture.db, id, "other", now, now + work::LEASE_MS).unwrap().is_none());
    let held = status(&services, ENGINES, &who, id, &handle.document_key).unwrap();
    assert_eq!(held.status, Status::Translating, "nobody works while the lease holds");
    assert!(work::seconds_remaining(&held) >= 1);

    fixture.clock.advance(Duration::from_millis(work::LEASE_MS as u64 + 1));
    let resumed = status(&services, ENGINES, &who, id, &handle.document_key).unwrap();
    assert_eq!(resumed.status, Status::Done, "the next call took over");
    // The dead worker's late progress is not written.
    assert!(!store::save(&fixture.db, id, "dead", &[(1, "late".into())], 1, now).unwrap());
}

#[test]
fn work_goes_on_from_the_last_batch_saved() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    let text = (0..120).map(|n| format!("Paragraph number {n}.\n\n")).collect::<String>();
    let handle = create(&services, &who, upload("long.txt", &text)).unwrap();
    let id = handle.document_id.as_str();
    // A budget of nothing: one batch, then the lease is given back.
    assert!(work::advance(&services, ENGINES, id, Duration::ZERO).unwrap());
    let partial = store::get(&fixture.db, id).unwrap().unwrap();
    assert_eq!((partial.status, partial.units_done, partial.units), (Status::Translating, 50, 120));
    assert!(partial.lease_until.is_none());
    while work::advance(&services, ENGINES, id, Duration::ZERO).unwrap() {}
    let done = store::get(&fixture.db, id).unwrap().unwrap();
    assert_eq!((done.status, done.units_done), (Status::Done, 120));
    let output = String::from_utf8(store::file(&fixture.db, id, store::FileKind::Result).unwrap()).unwrap();
    assert_eq!(output.matches("\n\n").count(), 120, "every paragraph once, in order");
}

#[test]
fn a_document_in_its_target_language_ends_as_error_and_bills_nothing() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    let mut raw = RawUpload {
        file: Some((Some("de.txt".into()), "Das ist ein ganz normaler deutscher Satz über das Wetter.".into())),
        options: Options { target_lang: Some("DE".into()), ..Options::default() },
        ..RawUpload::default()
    };
    raw.output_format = None;
    let upload = request::parse(raw, Plan::Pro).unwrap();
    let handle = create(&services, &who, upload).unwrap();
    let failed = status(&services, ENGINES, &who, &handle.document_id, &handle.document_key).unwrap();
    assert_eq!(failed.status, Status::Error);
    assert!(failed.error_message.unwrap().contains("DE"));
    assert_eq!(reserved(&fixture), 0, "the reservation was given back");
    let result = download(&services, ENGINES, &who, &handle.document_id, &handle.document_key);
    assert!(matches!(result, Err(DocumentError::Failed(_))));
    assert_eq!(charged(&fixture), 0);
}

#[test]
fn documents_never_downloaded_are_removed_after_their_retention_and_bill_nothing() {
    let mut fixture = fixture();
    fixture.vars.insert("document_retention_hours".into(), "2".into());
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    let handle = create(&services, &who, upload("notes.txt", TEXT)).unwrap();
    fixture.clock.advance(Duration::from_secs(2 * 3600));
    let services = fixture.services();
    assert!(matches!(
        status(&services, ENGINES, &who, &handle.document_id, &handle.document_key),
        Err(DocumentError::NotFound)
    ));
    assert!(store::get(&fixture.db, &handle.document_id).unwrap().is_none(), "swept by the status call");
    assert_eq!(reserved(&fixture), 0, "its reservation given back");
    create(&services, &who, upload("next.txt", TEXT)).unwrap();
    assert_eq!((reserved(&fixture), charged(&fixture)), (53, 0), "only the new document's reservation");

    fixture.vars.insert("document_retention_hours".into(), "soon".into());
    assert!(matches!(create(&fixture.services(), &who, upload("a.txt", TEXT)), Err(DocumentError::Retention(_))));
}

#[test]
fn an_upload_the_quota_cannot_cover_is_refused() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    fixture.db.execute("UPDATE api_keys SET character_limit = 60", &[]).unwrap();
    create(&services, &who, upload("a.txt", TEXT)).unwrap();
    let refused = create(&services, &who, upload("b.txt", TEXT));
    assert!(matches!(refused, Err(DocumentError::Charge(metering::ChargeError::QuotaExceeded))));
}

#[test]
fn html_comes_back_with_its_markup() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    let html =
        "<html><head><style>p { color: red }</style></head><body><p class=\"x\">Hello <b>world</b>.</p></body></html>";
    let handle = create(&services, &who, upload("page.html", html)).unwrap();
    let file = download(&services, ENGINES, &who, &handle.document_id, &handle.document_key).unwrap();
    let output = String::from_utf8(file.bytes).unwrap();
    assert!(output.starts_with("<html><head><style>p { color: red }</style></head><body><p class=\"x\">"), "{output}");
    assert!(output.contains("<b>") && output.ends_with("</p></body></html>"), "{output}");
    assert!(!output.contains("Hello"), "translated: {output}");
}

/// An engine that is down.
struct Down;

impl engines::Engine for Down {
    fn coverage(&self) -> Result<catalogue::Coverage, engines::EngineError> {
        Ok(catalogue::Coverage::All)
    }

    fn capabilities(&self) -> engines::Capabilities {
        DeterministicEngine.capabilities()
    }

    fn translate(&self, _: &engines::EngineRequest<'_>) -> Result<Vec<String>, engines::EngineError> {
        Err(engines::EngineError::Unavailable { engine: "down", reason: "connection refused".into() })
    }

    fn name(&self) -> &'static str {
        "down"
    }
}

#[test]
fn an_engine_that_stays_down_is_tried_again_later_and_then_ends_the_document_billing_nothing() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    let down = Engines { engine: &Down, detector: &engines::detect::Builtin, tools: None };
    let handle = create(&services, &who, upload("notes.txt", TEXT)).unwrap();
    let id = handle.document_id.as_str();
    for attempt in 1..work::ENGINE_ATTEMPTS {
        assert!(work::advance(&services, down, id, Duration::from_secs(5)).unwrap());
        let waiting = store::get(&fixture.db, id).unwrap().unwrap();
        assert_eq!((waiting.status, waiting.attempts), (Status::Translating, attempt));
        assert!(!work::advance(&services, down, id, Duration::from_secs(5)).unwrap(), "not before its time");
        fixture.clock.advance(Duration::from_millis((work::ENGINE_RETRY_MS * attempt) as u64));
    }
    assert!(work::advance(&services, down, id, Duration::from_secs(5)).unwrap());
    let failed = store::get(&fixture.db, id).unwrap().unwrap();
    assert_eq!(failed.status, Status::Error);
    assert!(failed.error_message.unwrap().contains("engine failed"));
    assert_eq!((reserved(&fixture), charged(&fixture)), (0, 0));
}

/// The language-tools service's document work, as a double: OCR reads `paragraphs` in `language`
/// (or answers `failure`), and painting answers the image's bytes followed by each text; a PDF
/// is read as one page with a block per paragraph followed by `scans` scanned pages, a scanned
/// page is read as a block per paragraph with one cover, and a PDF is written as its bytes
/// followed by each block's text (and `#` per cover).
struct FakeTools {
    language: &'static str,
    paragraphs: &'static [&'static str],
    failure: Option<engines::language_tools::ToolsError>,
    asked: std::cell::RefCell<Vec<Option<String>>>,
    scans: usize,
    scans_read: std::cell::RefCell<Vec<usize>>,
}

impl FakeTools {
    fn reading(language: &'static str, paragraphs: &'static [&'static str]) -> FakeTools {
        FakeTools {
            language,
            paragraphs,
            failure: None,
            asked: Default::default(),
            scans: 0,
            scans_read: Default::default(),
        }
    }

    fn blocks(&self) -> Vec<engines::language_tools::PdfBlock> {
        self.paragraphs
            .iter()
            .zip(0..)
            .map(|(text, n)| engines::language_tools::PdfBlock {
                text: (*text).into(),
                font_size: 12.0,
                x_min: 72.0,
                y_min: 72.0 + 40.0 * f64::from(n),
                x_max: 500.0,
                y_max: 100.0 + 40.0 * f64::from(n),
            })
            .collect()
    }
}

impl format::LayoutTools for FakeTools {
    fn ocr(
        &self,
        _: &[u8],
        language: Option<&str>,
    ) -> Result<engines::language_tools::ReadImage, engines::language_tools::ToolsError> {
        use engines::language_tools::{ReadImage, ReadParagraph, TextBox};
        self.asked.borrow_mut().push(language.map(str::to_owned));
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        let paragraphs = self
            .paragraphs
            .iter()
            .zip(0u32..)
            .map(|(text, n)| ReadParagraph {
                text: (*text).into(),
                lines: vec![TextBox { left: 5, top: 40 * n, width: 300, height: 30 }],
            })
            .collect();
        Ok(ReadImage { language: language.unwrap_or(self.language).into(), paragraphs })
    }

    fn render(
        &self,
        image: &[u8],
        language: &str,
        paragraphs: &[engines::language_tools::PaintParagraph<'_>],
    ) -> Result<Vec<u8>, engines::language_tools::ToolsError> {
        let mut painted = image.to_vec();
        painted.extend_from_slice(language.as_bytes());
        for paragraph in paragraphs {
            assert_eq!(paragraph.lines.len(), 1, "each paragraph keeps its boxes");
            painted.extend_from_slice(format!("|{}", paragraph.text).as_bytes());
        }
        Ok(painted)
    }

    fn read_pdf(&self, _: &[u8]) -> Result<engines::language_tools::PdfLayout, engines::language_tools::ToolsError> {
        use engines::language_tools::{PdfLayout, PdfPage};
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        let text = match self.scans {
            0 => self.blocks(),
            _ => vec![],
        };
        let mut pages = vec![PdfPage { blocks: text, scanned: false }];
        pages.extend((0..self.scans).map(|_| PdfPage { blocks: vec![], scanned: true }));
        Ok(PdfLayout { pages })
    }

    fn read_scanned_page(
        &self,
        _: &[u8],
        page: usize,
        language: Option<&str>,
    ) -> Result<engines::language_tools::ScannedPage, engines::language_tools::ToolsError> {
        use engines::language_tools::{PdfCover, ScannedPage};
        self.scans_read.borrow_mut().push(page);
        self.asked.borrow_mut().push(language.map(str::to_owned));
        if let Some(failure) = &self.failure {
            return Err(failure.clone());
        }
        let cover = PdfCover { x_min: 70.0, y_min: 70.0, x_max: 502.0, y_max: 102.0, colour: [255, 255, 255] };
        Ok(ScannedPage { language: self.language.into(), blocks: self.blocks(), covers: vec![cover] })
    }

    fn pdf_images(
        &self,
        _: &[u8],
    ) -> Result<Vec<engines::language_tools::PdfImage>, engines::language_tools::ToolsError> {
        let png = format::image::png_header(2, 2);
        let image = engines::language_tools::PdfImage {
            page: 0,
            x_min: 72.0,
            y_min: 300.0,
            x_max: 172.0,
            y_max: 400.0,
            format: "png".into(),
            data: png,
        };
        Ok(vec![image])
    }

    fn write_pdf(
        &self,
        pdf: &[u8],
        language: &str,
        pages: &[engines::language_tools::PdfPageText],
    ) -> Result<Vec<u8>, engines::language_tools::ToolsError> {
        let mut written = pdf.to_vec();
        written.extend_from_slice(language.as_bytes());
        for page in pages {
            written.extend(page.covers.iter().map(|_| b'#'));
            for block in &page.blocks {
                written.extend_from_slice(format!("|{}", block.text).as_bytes());
            }
        }
        Ok(written)
    }
}

fn png() -> Vec<u8> {
    format::image::png_header(640, 480)
}

fn image_upload(source: Option<&str>) -> Upload {
    let raw = RawUpload {
        file: Some((Some("sign.png".into()), png())),
        options: Options {
            target_lang: Some("DE".into()),
            source_lang: source.map(str::to_owned),
            ..Options::default()
        },
        ..RawUpload::default()
    };
    request::parse(raw, Plan::Free).unwrap()
}

#[test]
fn an_image_is_read_translated_by_paragraph_painted_and_bills_nothing() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Free);
    let images = FakeTools::reading("en", &["Open every day.", "Closed on Sunday."]);
    let engines = Engines { tools: Some(&images), ..ENGINES };
    assert!(matches!(read_layout(ENGINES, image_upload(None), Plan::Free), Err(DocumentError::NoTools)));
    let upload = read_layout(engines, image_upload(None), Plan::Free).unwrap();
    check_named(&services, engines, &who, &upload).unwrap();
    let handle = create(&services, &who, upload).unwrap();
    let (id, key) = (handle.document_id.as_str(), handle.document_key.as_str());
    let done = status(&services, engines, &who, id, key).unwrap();
    assert_eq!((done.status, done.source_lang.as_deref(), done.units), (Status::Done, Some("EN"), 2));
    assert_eq!(*images.asked.borrow(), [None], "read once, in the language the service finds");
    let file = download(&services, engines, &who, id, key).unwrap();
    let painted = file.bytes.strip_prefix(png().as_slice()).expect("the uploaded image, painted");
    let painted = std::str::from_utf8(painted).unwrap();
    let texts: Vec<&str> = painted.strip_prefix("de|").expect("in German's fonts").split('|').collect();
    assert_eq!(texts.len(), 2, "one text per paragraph: {painted}");
    // The deterministic engine keeps each word's length and the punctuation.
    for (text, source) in texts.iter().zip(["Open every day.", "Closed on Sunday."]) {
        assert!(*text != source && text.len() == source.len() && text.ends_with('.'), "{text:?}");
    }
    assert_eq!(file.format.content_type(), "image/png");
    assert_eq!((reserved(&fixture), charged(&fixture)), (0, 0), "beta images bill nothing");
}

#[test]
fn an_image_is_read_in_its_given_source_language_and_one_without_text_comes_back_as_it_was() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Free);
    let images = FakeTools::reading("en", &[]);
    let engines = Engines { tools: Some(&images), ..ENGINES };
    let handle = create(&services, &who, image_upload(Some("FR"))).unwrap();
    let (id, key) = (handle.document_id.as_str(), handle.document_key.as_str());
    assert_eq!(status(&services, engines, &who, id, key).unwrap().status, Status::Done);
    assert_eq!(*images.asked.borrow(), [Some("fr".to_owned())]);
    assert_eq!(download(&services, engines, &who, id, key).unwrap().bytes, png());
}

#[test]
fn an_image_in_its_target_language_or_refused_by_the_service_ends_as_error() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Free);
    let german = FakeTools::reading("de", &["Heute geöffnet."]);
    let engines = Engines { tools: Some(&german), ..ENGINES };
    let handle = create(&services, &who, image_upload(None)).unwrap();
    let failed = status(&services, engines, &who, &handle.document_id, &handle.document_key).unwrap();
    assert_eq!(failed.status, Status::Error);
    assert!(failed.error_message.unwrap().contains("detected as DE"));

    let refusal = engines::language_tools::ToolsError::Refused("Field 'image' cannot be read: truncated".into());
    let refusing = FakeTools { failure: Some(refusal), ..FakeTools::reading("en", &[]) };
    let engines = Engines { tools: Some(&refusing), ..ENGINES };
    let handle = create(&services, &who, image_upload(None)).unwrap();
    let failed = status(&services, engines, &who, &handle.document_id, &handle.document_key).unwrap();
    assert_eq!(failed.status, Status::Error);
    assert_eq!(
        failed.error_message.as_deref(),
        Some("The document cannot be translated: Field 'image' cannot be read: truncated")
    );
}

#[test]
fn an_image_service_that_is_down_is_tried_again_later() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Free);
    let down = engines::language_tools::ToolsError::Unavailable("connection refused".into());
    let images = FakeTools { failure: Some(down), ..FakeTools::reading("en", &[]) };
    let engines = Engines { tools: Some(&images), ..ENGINES };
    let handle = create(&services, &who, image_upload(None)).unwrap();
    let id = handle.document_id.as_str();
    assert!(work::advance(&services, engines, id, Duration::from_secs(5)).unwrap());
    let waiting = store::get(&fixture.db, id).unwrap().unwrap();
    assert_eq!((waiting.status, waiting.attempts, waiting.units), (Status::Translating, 1, 0));
    assert!(!store::is_cut(&fixture.db, id).unwrap(), "nothing saved: the next worker reads it again");
}

fn pdf_upload_as(output_format: Option<&str>) -> Upload {
    let raw = RawUpload {
        file: Some((Some("report.pdf".into()), b"%PDF-1.7\n% a stand-in\n".to_vec())),
        options: Options { target_lang: Some("DE".into()), source_lang: Some("EN".into()), ..Options::default() },
        output_format: output_format.map(str::to_owned),
        ..RawUpload::default()
    };
    request::parse(raw, Plan::Free).unwrap()
}

fn pdf_upload() -> Upload {
    pdf_upload_as(None)
}

#[test]
fn a_pdf_asked_for_as_docx_is_downloaded_as_a_word_document() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Free);
    let tools = FakeTools::reading("en", &["Quarterly report", "Sales grew."]);
    let engines = Engines { tools: Some(&tools), ..ENGINES };
    let upload = read_layout(engines, pdf_upload_as(Some("DOCX")), Plan::Free).unwrap();
    let handle = create(&services, &who, upload).unwrap();
    let (id, key) = (handle.document_id.as_str(), handle.document_key.as_str());
    assert_eq!(status(&services, engines, &who, id, key).unwrap().status, Status::Done);
    let file = download(&services, engines, &who, id, key).unwrap();
    assert_eq!((file.format, file.file_name.as_str()), (Format::Docx, "report.docx"));
    assert!(file.bytes.starts_with(b"PK\x03\x04"), "a zip package");
    let cut = Format::Docx.cut(&file.bytes, "de").unwrap();
    assert_eq!(cut.pieces.iter().filter(|piece| piece.translate).count(), 2, "a paragraph per block");
    let package = zip::ZipArchive::new(std::io::Cursor::new(&file.bytes)).unwrap();
    assert!(package.file_names().any(|name| name == "word/media/image1.png"), "the PDF's picture is carried over");
    assert_eq!(charged(&fixture), 50_000);
}

#[test]
fn a_pdf_is_read_at_upload_billed_at_least_50000_characters_and_written_with_its_blocks_translations() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Free);
    let tools = FakeTools::reading("en", &["Quarterly report", "Sales grew."]);
    let engines = Engines { tools: Some(&tools), ..ENGINES };
    assert!(matches!(read_layout(ENGINES, pdf_upload(), Plan::Free), Err(DocumentError::NoTools)));
    let upload = read_layout(engines, pdf_upload(), Plan::Free).unwrap();
    assert_eq!((upload.cut.characters, upload.billed_characters()), (27, 50_000));
    let handle = create(&services, &who, upload).unwrap();
    assert_eq!(reserved(&fixture), 50_000);
    let (id, key) = (handle.document_id.as_str(), handle.document_key.as_str());
    assert_eq!(status(&services, engines, &who, id, key).unwrap().status, Status::Done);
    let file = download(&services, engines, &who, id, key).unwrap();
    let written = String::from_utf8(file.bytes).unwrap();
    let texts: Vec<&str> = written.strip_prefix("%PDF-1.7\n% a stand-in\nde|").expect("written").split('|').collect();
    assert_eq!(texts.len(), 2, "{written}");
    assert!(texts[0].len() == "Quarterly report".len() && texts[0] != "Quarterly report", "{texts:?}");
    assert_eq!((file.format.content_type(), charged(&fixture)), ("application/pdf", 50_000));
}

#[test]
fn a_pdf_the_service_refuses_or_cannot_read_is_not_taken() {
    use engines::language_tools::ToolsError;
    let encrypted = ToolsError::Refused("the PDF is encrypted: remove its password".into());
    let refusing = FakeTools { failure: Some(encrypted), ..FakeTools::reading("en", &[]) };
    let refused = read_layout(Engines { tools: Some(&refusing), ..ENGINES }, pdf_upload(), Plan::Free).unwrap_err();
    assert!(
        matches!(&refused, DocumentError::Upload(UploadError::InvalidFile(why)) if why.contains("encrypted")),
        "{refused:?}"
    );
    let down = FakeTools { failure: Some(ToolsError::Unavailable("refused".into())), ..FakeTools::reading("en", &[]) };
    let unread = read_layout(Engines { tools: Some(&down), ..ENGINES }, pdf_upload(), Plan::Free).unwrap_err();
    assert!(matches!(unread, DocumentError::ToolsUnavailable), "{unread:?}");
    let blank = FakeTools::reading("en", &[]);
    let blank = read_layout(Engines { tools: Some(&blank), ..ENGINES }, pdf_upload(), Plan::Free).unwrap_err();
    assert!(matches!(&blank, DocumentError::Upload(UploadError::InvalidFile(why)) if why.contains("no text")));
}

#[test]
fn a_scanned_pdf_s_pages_are_read_by_ocr_one_per_slice_translated_and_written_over_their_covers() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Pro);
    let tools = FakeTools { scans: 3, ..FakeTools::reading("en", &["Scanned report", "Sales grew."]) };
    let engines = Engines { tools: Some(&tools), ..ENGINES };
    let upload = read_layout(engines, pdf_upload(), Plan::Pro).unwrap();
    assert_eq!(upload.cut.characters, 3 * format::pdf::SCANNED_PAGE_CHARACTERS);
    let handle = create(&services, &who, upload).unwrap();
    let (id, key) = (handle.document_id.as_str(), handle.document_key.as_str());
    // A worker without time reads one page, saves it and stops; the next goes on from there.
    assert!(work::advance(&services, engines, id, Duration::ZERO).unwrap());
    assert_eq!(*tools.scans_read.borrow(), [2]);
    let waiting = store::get(&fixture.db, id).unwrap().unwrap();
    assert_eq!((waiting.status, waiting.units, waiting.units_done), (Status::Translating, 2, 0));
    assert_eq!(status(&services, engines, &who, id, key).unwrap().status, Status::Done);
    assert_eq!(*tools.scans_read.borrow(), [2, 3, 4], "each page once, counted from 1");
    assert_eq!(*tools.asked.borrow(), vec![Some("en".to_owned()); 3], "in the source language given");
    let file = download(&services, engines, &who, id, key).unwrap();
    let written = String::from_utf8(file.bytes).unwrap();
    let pages = written.strip_prefix("%PDF-1.7\n% a stand-in\nde").expect("written");
    // Three pages of a cover and two blocks each.
    assert_eq!(pages.matches('#').count(), 3, "{pages}");
    assert_eq!(pages.split('|').count(), 1 + 6, "{pages}");
    assert!(!pages.contains("Scanned report"), "translated: {pages}");
    assert_eq!(charged(&fixture), 50_000, "three scanned pages bill 6,000 characters: the minimum");
}

#[test]
fn a_scanned_page_the_service_cannot_read_ends_the_pdf_as_error_and_bills_nothing() {
    let fixture = fixture();
    let services = fixture.services();
    let who = principal(&fixture, Plan::Free);
    let tools = FakeTools { scans: 1, ..FakeTools::reading("en", &["Text"]) };
    let upload = read_layout(Engines { tools: Some(&tools), ..ENGINES }, pdf_upload(), Plan::Free).unwrap();
    let handle = create(&services, &who, upload).unwrap();
    let refusal = engines::language_tools::ToolsError::Refused("the PDF cannot be read: it has no page 2".into());
    let refusing = FakeTools { failure: Some(refusal), ..FakeTools::reading("en", &[]) };
    let engines = Engines { tools: Some(&refusing), ..ENGINES };
    let failed = status(&services, engines, &who, &handle.document_id, &handle.document_key).unwrap();
    assert_eq!(failed.status, Status::Error);
    assert_eq!(
        failed.error_message.as_deref(),
        Some("The document cannot be translated: the PDF cannot be read: it has no page 2")
    );
    assert_eq!((reserved(&fixture), charged(&fixture)), (0, 0));
}
