//! Component `documents` with office files: a Word document, a PowerPoint presentation and two
//! Excel workbooks (inline and shared strings) made at test time by python-docx, python-pptx,
//! openpyxl and XlsxWriter (`tests/python/office.py`), uploaded, polled until done, downloaded,
//! and opened again by the same tools: every text translated exactly as `POST /v2/translate`
//! translates it, the formatting of each run on its translated words, numbers, dates and formulas
//! untouched. Each is billed at least 50,000 characters. Bad packages (a corrupt zip, a docx
//! without `word/document.xml`, a zip bomb) are refused at upload with the reason, and a docx
//! past 10 MiB is too large on the Free plan but not on Pro.
//!
//! The deterministic engine translates word by word, whatever the segmentation: so a run's text
//! translated alone is what the document has in that run.

use std::path::Path;

use e2e::documents::{Doc, accepted, assert_refused, keyed, upload, wait_until_done};
use e2e::{Json, Options, TestApp};

fn read(path: &Json) -> Vec<u8> {
    std::fs::read(path.as_str().expect("a path")).expect("read the fixture")
}

/// A new developer key of a new subscription on `plan`.
fn key_on(app: &TestApp, plan: &str) -> String {
    let (_, admin) = app.create_subscription(plan);
    app.create_developer_key(&admin, None)["key"].as_str().expect("a key").to_owned()
}

#[test]
fn office_documents_made_by_real_tools_come_back_translated_with_their_formatting() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    // `/v2/translate` for the references is billed elsewhere.
    let reference = key_on(&app, "pro");
    let folder = tempfile::tempdir().expect("a temporary folder");
    let fixtures = app.python_client_report_with("office.py", &key, &["make", &folder.path().to_string_lossy()]);

    let cases = [
        ("docx", "report.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("pptx", "deck.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
        ("xlsx", "book.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("shared_xlsx", "shared.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ];
    // Upload all first: they are translated side by side.
    let docs: Vec<Doc> = cases
        .iter()
        .map(|(fixture, name, _)| {
            let reply =
                upload(&app, &key, name, &read(&fixtures[fixture]), &[("source_lang", "EN"), ("target_lang", "DE")]);
            accepted(&reply, name)
        })
        .collect();
    for ((fixture, name, content_type), doc) in cases.iter().zip(&docs) {
        let done = wait_until_done(&app, &key, doc, name);
        let billed = done["billed_characters"].as_i64().expect("billed_characters");
        assert!(billed >= 50_000, "{name}: an office document is billed at least 50,000 characters: {done}");

        let reply = keyed(&app, &format!("/v2/document/{}/result", doc.id), &key, doc);
        assert_eq!(reply.status, 200, "{name}: the download: {}", reply.text());
        assert_eq!(reply.header("content-type"), Some(*content_type), "{name}");
        assert!(reply.body.starts_with(b"PK"), "{name}: a zip package");
        let translated = folder.path().join(format!("translated-{name}"));
        std::fs::write(&translated, &reply.body).expect("write the translation");

        let kind = if fixture.ends_with("xlsx") { "xlsx" } else { fixture };
        let source = fixtures[fixture].as_str().expect("a path");
        let report = app.python_client_report_with(
            "office.py",
            &reference,
            &["check", kind, source, &translated.to_string_lossy()],
        );
        assert_eq!(report["problems"], Json::Array(Vec::new()), "{name}: {report}");
        assert!(report["checked"].as_u64().unwrap_or(0) >= 5, "{name}: texts were checked: {report}");
        match kind {
            "docx" | "pptx" => assert!(report["formatted_runs"].as_u64() >= Some(1), "{name}: {report}"),
            _ => {
                assert!(report["rich_text"].as_u64() >= Some(1), "{name}: {report}");
                assert!(report["kept"].as_u64() >= Some(4), "{name}: numbers, a date, a formula: {report}");
            }
        }
        assert_eq!(same_entries(source, &translated), Ok(()), "{name}");
    }
}

/// Whether the translated package has the entries of the source, in the same order (read from
/// the zip's central directory with Python's standard library).
fn same_entries(source: &str, translated: &Path) -> Result<(), String> {
    let script = "import sys, zipfile\n\
                  names = [[info.filename for info in zipfile.ZipFile(path).infolist()] for path in sys.argv[1:3]]\n\
                  sys.exit(0 if names[0] == names[1] else f'{names[0]} != {names[1]}')\n";
    let output = std::process::Command::new(e2e::python())
        .args(["-c", script, source, &translated.to_string_lossy()])
        .output()
        .expect("run python");
    match output.status.success() {
        true => Ok(()),
        false => Err(String::from_utf8_lossy(&output.stderr).into_owned()),
    }
}

#[test]
fn bad_packages_are_refused_at_upload_and_large_ones_follow_the_plan() {
    let app = TestApp::start(Options::app());
    let pro = app.developer_key();
    let free = key_on(&app, "free");
    let folder = tempfile::tempdir().expect("a temporary folder");
    let files = app.python_client_report_with("office.py", &pro, &["bad", &folder.path().to_string_lossy()]);
    let fields = [("target_lang", "DE")];

    let reply = upload(&app, &pro, "corrupt.docx", &read(&files["corrupt"]), &fields);
    assert_refused(&reply, "a corrupt zip", "not a zip package");
    let reply = upload(&app, &pro, "report.docx", &read(&files["no_document"]), &fields);
    assert_refused(&reply, "a docx without its document", "word/document.xml");
    let reply = upload(&app, &pro, "bomb.docx", &read(&files["bomb"]), &fields);
    assert_refused(&reply, "a zip bomb", "zip bomb");
    // The same packages under the other office types' names.
    let reply = upload(&app, &pro, "deck.pptx", &read(&files["no_document"]), &fields);
    assert_refused(&reply, "a pptx without slides", "no slides");
    let reply = upload(&app, &pro, "book.xlsx", &read(&files["corrupt"]), &fields);
    assert_refused(&reply, "a corrupt xlsx", "not a zip package");

    let large = read(&files["large"]);
    assert!(large.len() > 10 * 1024 * 1024 && large.len() < 30 * 1024 * 1024, "{}", large.len());
    let reply = upload(&app, &free, "large.docx", &large, &fields);
    assert_eq!(reply.status, 413, "past 10 MiB on Free: {}", reply.text());
    assert!(reply.json()["message"].as_str().unwrap_or_default().contains("10 MiB"), "{}", reply.text());
    let doc = accepted(
        &upload(&app, &pro, "large.docx", &large, &[("source_lang", "EN"), ("target_lang", "DE")]),
        "large on Pro",
    );
    let done = wait_until_done(&app, &pro, &doc, "large.docx");
    assert!(done["billed_characters"].as_i64() >= Some(50_000), "{done}");
    let reply = keyed(&app, &format!("/v2/document/{}/result", doc.id), &pro, &doc);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert!(reply.body.len() > 11 * 1024 * 1024, "the media copied: {} bytes", reply.body.len());
}
