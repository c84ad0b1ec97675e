//! Component `documents` (`/v2/document`): txt and html documents uploaded as multipart bodies,
//! polled until done, downloaded once and billed only then; their output (paragraphs and text
//! translated, blank lines, BOM and markup kept byte for byte); every refusal of an upload, of a
//! status call and of a download; quotas reserved at upload; retention (the test clock's
//! `X-Service-Test-Time`); tenancy; and the official Python and Node clients' document calls.
//!
//! The deterministic engine translates word by word, whatever the segmentation: a paragraph sent
//! to `POST /v2/translate` with the same parameters comes back exactly as the document has it.
//! A download before the document is done needs a slow engine: a fake OpenAI-compatible server
//! that takes its time over each batch.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use e2e::{BOOTSTRAP_ADMIN_KEY, Json, Options, Reply, TestApp, json};

/// An id of the right shape that names nothing.
const UNKNOWN_UUID: &str = "def3a26b-3e84-45b3-84ae-0c0aaf3525f7";
const BOUNDARY: &str = "e2e-documents-3f9b7c1d5a2e";
const MIB: usize = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Requests

/// One part of a `multipart/form-data` body.
struct Part {
    name: String,
    filename: Option<String>,
    content_type: Option<String>,
    bytes: Vec<u8>,
}

/// A form field.
fn field(name: &str, value: &str) -> Part {
    Part { name: name.to_owned(), filename: None, content_type: None, bytes: value.as_bytes().to_vec() }
}

/// The `file` part, named `filename`.
fn file(filename: &str, bytes: &[u8]) -> Part {
    Part {
        name: "file".to_owned(),
        filename: Some(filename.to_owned()),
        content_type: Some("application/octet-stream".to_owned()),
        bytes: bytes.to_vec(),
    }
}

/// A `multipart/form-data` body of these parts (with [`BOUNDARY`]).
fn multipart(parts: &[Part]) -> Vec<u8> {
    let mut body = Vec::new();
    for part in parts {
        assert!(!part.bytes.windows(BOUNDARY.len()).any(|window| window == BOUNDARY.as_bytes()));
        body.extend_from_slice(
            format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{}\"", part.name).as_bytes(),
        );
        if let Some(filename) = &part.filename {
            body.extend_from_slice(format!("; filename=\"{filename}\"").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
        if let Some(content_type) = &part.content_type {
            body.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
        body.extend_from_slice(&part.bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// `POST /v2/document` with these parts and extra headers.
fn upload_with(app: &TestApp, key: &str, parts: &[Part], headers: &[(&str, &str)]) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    let mut all = vec![("authorization", authorization.as_str()), ("content-type", content_type.as_str())];
    all.extend_from_slice(headers);
    app.request("POST", "/v2/document", &all, Some(&multipart(parts)))
}

fn upload(app: &TestApp, key: &str, parts: &[Part]) -> Reply {
    upload_with(app, key, parts, &[])
}

/// Uploads `bytes` as `filename` with these form fields.
fn upload_file(app: &TestApp, key: &str, filename: &str, bytes: &[u8], fields: &[(&str, &str)]) -> Reply {
    let mut parts = vec![file(filename, bytes)];
    parts.extend(fields.iter().map(|(name, value)| field(name, value)));
    upload(app, key, &parts)
}

/// An uploaded document's id and key.
#[derive(Debug, Clone)]
struct Doc {
    id: String,
    key: String,
}

/// Whether `text` is `length` upper-case hexadecimal digits.
fn is_upper_hex(text: &str, length: usize) -> bool {
    text.len() == length && text.chars().all(|c| c.is_ascii_digit() || ('A'..='F').contains(&c))
}

/// The document an upload answered, which must have succeeded.
fn accepted(reply: &Reply) -> Doc {
    assert_eq!(reply.status, 200, "the upload: {}", reply.text());
    let body = reply.json();
    let object = body.as_object().expect("an object");
    assert_eq!(object.len(), 2, "document_id and document_key only: {body}");
    let id = body["document_id"].as_str().expect("a document_id").to_owned();
    let key = body["document_key"].as_str().expect("a document_key").to_owned();
    assert!(is_upper_hex(&id, 32), "document_id: 32 upper-case hex digits: {id}");
    assert!(is_upper_hex(&key, 64), "document_key: 64 upper-case hex digits: {key}");
    Doc { id, key }
}

/// `POST path` with `document_key` in a form body, at a time the test names (or now).
fn keyed(app: &TestApp, path: &str, key: &str, document_key: &str, at: Option<&str>) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    let mut headers =
        vec![("authorization", authorization.as_str()), ("content-type", "application/x-www-form-urlencoded")];
    if let Some(at) = at {
        headers.push(("x-service-test-time", at));
    }
    app.request("POST", path, &headers, Some(format!("document_key={document_key}").as_bytes()))
}

fn status(app: &TestApp, key: &str, doc: &Doc) -> Reply {
    keyed(app, &format!("/v2/document/{}", doc.id), key, &doc.key, None)
}

fn status_at(app: &TestApp, key: &str, doc: &Doc, at: &str) -> Reply {
    keyed(app, &format!("/v2/document/{}", doc.id), key, &doc.key, Some(at))
}

fn result(app: &TestApp, key: &str, doc: &Doc) -> Reply {
    keyed(app, &format!("/v2/document/{}/result", doc.id), key, &doc.key, None)
}

fn result_at(app: &TestApp, key: &str, doc: &Doc, at: &str) -> Reply {
    keyed(app, &format!("/v2/document/{}/result", doc.id), key, &doc.key, Some(at))
}

/// How many status calls [`wait_until_done`] makes at most, [`POLL_PAUSE`] apart.
const POLLS: usize = 300;
const POLL_PAUSE: Duration = Duration::from_millis(100);

/// Polls the document's status until it is done (at most [`POLLS`] calls), checking every
/// answer's shape, and answers the last one.
fn wait_until_done(app: &TestApp, key: &str, doc: &Doc) -> Json {
    wait_until_finished(app, key, doc, None, "done")
}

/// [`wait_until_done`] at a time the test names, until `last` (`done` or `error`).
fn wait_until_finished(app: &TestApp, key: &str, doc: &Doc, at: Option<&str>, last: &str) -> Json {
    let mut seen = Vec::new();
    for _ in 0..POLLS {
        let reply = keyed(app, &format!("/v2/document/{}", doc.id), key, &doc.key, at);
        assert_eq!(reply.status, 200, "status of {}: {}", doc.id, reply.text());
        let body = reply.json();
        assert_eq!(body["document_id"], doc.id.as_str(), "{body}");
        let object = body.as_object().expect("an object");
        match body["status"].as_str() {
            Some("queued" | "translating") => {
                assert!(body["seconds_remaining"].is_u64(), "seconds_remaining while not done: {body}");
                assert_eq!(object.len(), 3, "document_id, status, seconds_remaining: {body}");
            }
            Some(status) if status == last => return body,
            _ => panic!("status of {}: {body} (waiting for {last}; before: {seen:?})", doc.id),
        }
        seen.push(body["status"].as_str().unwrap_or_default().to_owned());
        std::thread::sleep(POLL_PAUSE);
    }
    panic!("document {} not {last} after {POLLS} status calls {POLL_PAUSE:?} apart: {seen:?}", doc.id)
}

/// Asserts the answer every call on a document that is not there gets.
#[track_caller]
fn assert_not_found(reply: &Reply, what: &str) {
    assert_eq!(reply.status, 404, "{what}: {}", reply.text());
    assert_eq!(reply.json(), json!({"message": "Document not found"}), "{what}");
}

/// Asserts an `Invalid file data.` refusal with a reason.
#[track_caller]
fn assert_invalid_file(reply: &Reply, what: &str) {
    assert_eq!(reply.status, 400, "{what}: {}", reply.text());
    let body = reply.json();
    assert_eq!(body["message"], "Invalid file data.", "{what}: {body}");
    assert!(body["detail"].as_str().is_some_and(|detail| !detail.trim().is_empty()), "{what}: a detail: {body}");
}

/// Asserts the refusal of a document type this deployment knows but does not translate yet: the
/// detail names the type (and may go on to say what the deployment does translate).
#[track_caller]
fn assert_not_built_yet(reply: &Reply, kind: &str) {
    assert_eq!(reply.status, 400, "{kind}: {}", reply.text());
    let body = reply.json();
    assert_eq!(body["message"], "Invalid file data.", "{kind}: {body}");
    let detail = body["detail"].as_str().unwrap_or_default();
    assert!(
        detail.starts_with(&format!("documents of type {kind} are not translated by this deployment yet")),
        "{kind}: {body}"
    );
}

fn message(reply: &Reply) -> String {
    reply.json()["message"].as_str().unwrap_or_default().to_owned()
}

// ---------------------------------------------------------------------------------------------
// Keys, usage, references

/// A new developer key of `admin`'s subscription: its secret and id.
fn key_of(app: &TestApp, admin: &str) -> (String, String) {
    let created = app.create_developer_key(admin, None);
    (created["key"].as_str().unwrap().to_owned(), created["key_id"].as_str().unwrap().to_owned())
}

/// A developer key of a new Pro subscription, for translations that must not be billed to the
/// subscription a test looks at.
fn other_subscription_key(app: &TestApp) -> String {
    let (_, admin) = app.create_subscription("pro");
    key_of(app, &admin).0
}

/// Sets a developer key's character limit through the admin API.
fn limit_key(app: &TestApp, admin: &str, key_id: &str, characters: i64) {
    let reply = app.request(
        "PUT",
        "/v2/admin/developer-keys/limits",
        &[("authorization", &format!("Service-Auth-Key {admin}")), ("content-type", "application/json")],
        Some(json!({"key_id": key_id, "characters": characters}).to_string().as_bytes()),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
}

/// `/v2/usage` for `key`, at a time the test names (or now).
fn usage_at(app: &TestApp, key: &str, at: Option<&str>) -> Json {
    let authorization = format!("Service-Auth-Key {key}");
    let mut headers = vec![("authorization", authorization.as_str())];
    if let Some(at) = at {
        headers.push(("x-service-test-time", at));
    }
    let reply = app.request("GET", "/v2/usage", &headers, None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

fn character_count(app: &TestApp, key: &str) -> i64 {
    usage_at(app, key, None)["character_count"].as_i64().expect("a character_count")
}

/// The admin analytics' totals of `admin`'s subscription from yesterday to tomorrow.
fn analytics_totals(app: &TestApp, admin: &str) -> Json {
    let path = format!(
        "/v2/admin/analytics?start_date={}&end_date={}",
        day_of(unix_now() - 86_400),
        day_of(unix_now() + 86_400)
    );
    let reply = app.call("GET", &path, admin);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["usage_report"]["total_usage"].clone()
}

/// What `POST /v2/translate` makes of `texts` with these parameters (an object).
fn translated_texts(app: &TestApp, key: &str, texts: &[&str], parameters: Json) -> Vec<String> {
    let mut body = json!({"text": texts});
    body.as_object_mut().unwrap().extend(parameters.as_object().expect("an object").clone());
    app.post_json("/v2/translate", key, &body).translated_texts()
}

fn chars(texts: &[&str]) -> i64 {
    texts.iter().map(|text| text.chars().count() as i64).sum()
}

/// The files under `folder` (recursively) that hold `needle`.
fn files_holding(folder: &std::path::Path, needle: &[u8]) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).expect("read the state directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            found.extend(files_holding(&path, needle));
        } else if let Ok(bytes) = std::fs::read(&path)
            && bytes.windows(needle.len()).any(|window| window == needle)
        {
            found.push(path);
        }
    }
    found
}

// ---------------------------------------------------------------------------------------------
// Time (the test clock takes RFC 3339)

fn unix_now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_secs() as i64
}

/// The civil date (year, month, day) of a day counted from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// `YYYY-MM-DD` of a Unix time (UTC).
fn day_of(unix: i64) -> String {
    let (year, month, day) = civil_from_days(unix.div_euclid(86_400));
    format!("{year:04}-{month:02}-{day:02}")
}

/// RFC 3339 (UTC) of a Unix time.
fn rfc3339(unix: i64) -> String {
    let seconds = unix.rem_euclid(86_400);
    format!("{}T{:02}:{:02}:{:02}Z", day_of(unix), seconds / 3600, seconds / 60 % 60, seconds % 60)
}

// ---------------------------------------------------------------------------------------------
// txt

#[test]
fn a_txt_document_is_translated_by_paragraphs_downloaded_once_and_billed_only_then() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reference = other_subscription_key(&app);
    let paragraphs = [
        "The quick brown fox jumps over the lazy dog.\nIt was not amused at all.",
        "Καλημέρα κόσμε, said the second paragraph.",
        "The end.",
    ];
    let layout = |p: &[&str]| format!("\u{feff}\n{}\n\n\n{}\n\n{}\n", p[0], p[1], p[2]);
    let text = layout(&paragraphs);
    let billed = chars(&paragraphs);
    assert_eq!(character_count(&app, &key), 0);

    let fields = [("source_lang", "EN"), ("target_lang", "DE")];
    let doc = accepted(&upload_file(&app, &key, "Release notes.txt", text.as_bytes(), &fields));
    let other = accepted(&upload_file(&app, &key, "Release notes.txt", text.as_bytes(), &fields));
    assert!(doc.id != other.id && doc.key != other.key, "every upload has its own id and key");
    assert_eq!(character_count(&app, &key), 0, "nothing is billed at upload");
    assert!(!files_holding(app.state_dir().path(), doc.id.as_bytes()).is_empty(), "the scan sees the database");
    for secret in [doc.key.clone(), doc.key.to_lowercase()] {
        let holding = files_holding(app.state_dir().path(), secret.as_bytes());
        assert!(holding.is_empty(), "only a hash of the document key is stored: {holding:?}");
    }

    let done = wait_until_done(&app, &key, &doc);
    assert_eq!(done, json!({"document_id": doc.id, "status": "done", "billed_characters": billed}));
    assert_eq!(character_count(&app, &key), 0, "nor once done");
    assert_eq!(analytics_totals(&app, BOOTSTRAP_ADMIN_KEY)["document_translation_characters"], 0);

    let reply = result(&app, &key, &doc);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(reply.header("content-disposition"), Some("attachment; filename=\"Release notes.txt\""));
    assert!(reply.body.starts_with(b"\xEF\xBB\xBF\n"), "the BOM and the blank line kept: {:?}", reply.text());
    let translations =
        translated_texts(&app, &reference, &paragraphs, json!({"source_lang": "EN", "target_lang": "DE"}));
    let expected: Vec<&str> = translations.iter().map(String::as_str).collect();
    assert_eq!(reply.text(), layout(&expected), "each paragraph as /v2/translate has it, blank lines kept");
    for paragraph in paragraphs {
        assert!(!reply.text().contains(paragraph), "translated: {paragraph}");
    }

    assert_eq!(character_count(&app, &key), billed, "billed at download, exactly billed_characters");
    let totals = analytics_totals(&app, BOOTSTRAP_ADMIN_KEY);
    assert_eq!(
        (
            &totals["document_translation_characters"],
            &totals["text_translation_characters"],
            &totals["total_characters"]
        ),
        (&json!(billed), &json!(0), &json!(billed)),
        "{totals}"
    );

    // Downloaded: gone.
    assert_not_found(&result(&app, &key, &doc), "a second download");
    assert_not_found(&status(&app, &key, &doc), "the status after the download");
    assert_eq!(character_count(&app, &key), billed, "billed once");
    // The other upload of the same file is untouched, and was never billed.
    assert_eq!(wait_until_done(&app, &key, &other)["billed_characters"], billed);
    assert_eq!(character_count(&app, &key), billed);
}

#[test]
fn the_document_key_is_read_from_a_form_a_json_body_or_the_query_and_get_is_accepted() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let text = "Hello there.\n\nGoodbye.";
    let doc =
        accepted(&upload_file(&app, &key, "a.txt", text.as_bytes(), &[("source_lang", "EN"), ("target_lang", "FR")]));
    wait_until_done(&app, &key, &doc);
    let path = format!("/v2/document/{}", doc.id);
    let authorization = format!("Service-Auth-Key {key}");
    let with_key = format!("{path}?document_key={}", doc.key);
    for (how, reply) in [
        ("form", status(&app, &key, &doc)),
        ("json", app.post_json(&path, &key, &json!({"document_key": doc.key}))),
        ("POST query", app.call("POST", &with_key, &key)),
        ("GET query", app.request("GET", &with_key, &[("authorization", &authorization)], None)),
    ] {
        assert_eq!(reply.status, 200, "{how}: {}", reply.text());
        assert_eq!(
            reply.json(),
            json!({"document_id": doc.id, "status": "done", "billed_characters": 20}),
            "{how}: the paragraphs' 12 + 8 characters"
        );
    }

    // A missing key is named; an empty one too.
    for (how, reply) in [
        ("no body", app.call("POST", &path, &key)),
        ("empty json", app.post_json(&path, &key, &json!({}))),
        ("empty form", app.post_form(&path, &key, "")),
        ("GET", app.request("GET", &path, &[("authorization", &authorization)], None)),
        ("result", app.call("POST", &format!("{path}/result"), &key)),
        ("result GET", app.request("GET", &format!("{path}/result"), &[("authorization", &authorization)], None)),
    ] {
        assert_eq!(reply.status, 400, "{how}: {}", reply.text());
        assert_eq!(message(&reply), "Parameter 'document_key' not specified", "{how}");
    }

    // The download by GET with the key in the query.
    let reply = app.request(
        "GET",
        &format!("{path}/result?document_key={}", doc.key),
        &[("authorization", &authorization)],
        None,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let expected =
        translated_texts(&app, &key, &["Hello there.", "Goodbye."], json!({"source_lang": "EN", "target_lang": "FR"}));
    assert_eq!(reply.text(), format!("{}\n\n{}", expected[0], expected[1]));
    assert_not_found(&app.request("GET", &with_key, &[("authorization", &authorization)], None), "after the download");
}

#[test]
fn wrong_ids_wrong_keys_and_other_subscriptions_answer_404_and_leave_the_document_alone() {
    let app = TestApp::start(Options::app());
    let (key, _) = key_of(&app, BOOTSTRAP_ADMIN_KEY);
    let doc =
        accepted(&upload_file(&app, &key, "a.txt", b"Good morning.", &[("source_lang", "EN"), ("target_lang", "ES")]));
    wait_until_done(&app, &key, &doc);
    let (_, other_admin) = app.create_subscription("pro");
    let (stranger, _) = key_of(&app, &other_admin);
    let theirs = accepted(&upload_file(
        &app,
        &stranger,
        "b.txt",
        b"Good night.",
        &[("source_lang", "EN"), ("target_lang", "ES")],
    ));
    wait_until_done(&app, &stranger, &theirs);

    let wrong_key = Doc { id: doc.id.clone(), key: "0".repeat(64) };
    let flipped_key = Doc {
        id: doc.id.clone(),
        key: format!("{}{}", if doc.key.starts_with('A') { 'B' } else { 'A' }, &doc.key[1..]),
    };
    let cases = [
        ("a wrong key", key.clone(), wrong_key),
        ("a key one digit off", key.clone(), flipped_key),
        ("another document's key", key.clone(), Doc { id: doc.id.clone(), key: theirs.key.clone() }),
        ("an unknown id", key.clone(), Doc { id: "0123456789ABCDEF0123456789ABCDEF".to_owned(), key: doc.key.clone() }),
        ("an id of another format", key.clone(), Doc { id: "not-an-id".to_owned(), key: doc.key.clone() }),
        ("another subscription's document", key.clone(), theirs.clone()),
        ("a key of another subscription", stranger.clone(), doc.clone()),
    ];
    for (what, api_key, target) in &cases {
        assert_not_found(&status(&app, api_key, target), &format!("status with {what}"));
        assert_not_found(&result(&app, api_key, target), &format!("result with {what}"));
    }
    assert_not_found(&keyed(&app, &format!("/v2/document/{}", "A".repeat(300)), &key, &doc.key, None), "a long id");

    // Both documents are still there, done, and download for their owners.
    assert_eq!(status(&app, &key, &doc).json()["status"], "done");
    assert_eq!(result(&app, &key, &doc).status, 200);
    assert_eq!(result(&app, &stranger, &theirs).status, 200);
    assert_eq!(character_count(&app, &key), 13, "only the owner's own download");
    assert_eq!(character_count(&app, &stranger), 11);
}

// ---------------------------------------------------------------------------------------------
// html

/// A small page as (is text, piece) pieces: the markup and the text between it.
const PAGE: [(bool, &str); 13] = [
    (false, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>"),
    (true, "The printer manual"),
    (
        false,
        "</title><style>p { color: red; } /* The printer */</style><script>var label = \"Press the button\"; if (a < b) { run(); }</script></head><body><!-- Press nothing here --><h1 class=\"title\" title=\"The printer\">",
    ),
    (true, "Getting started"),
    (false, "</h1><p>"),
    (true, "Press "),
    (false, "<b data-note=\"keep me\">"),
    (true, "the red button"),
    (false, "</b>"),
    (true, " and wait."),
    (
        false,
        "</p><p><img src=\"printer.png\" alt=\"A red button\"><a href=\"https://example.com/help?topic=printer&amp;lang=en\">",
    ),
    (true, "Read the help"),
    (false, "</a></p></body></html>"),
];

#[test]
fn an_html_document_keeps_its_markup_byte_for_byte_and_translates_its_text() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reference = other_subscription_key(&app);
    let page: String = PAGE.iter().map(|(_, piece)| *piece).collect();
    let texts: Vec<&str> = PAGE.iter().filter(|(text, _)| *text).map(|(_, piece)| *piece).collect();

    // No source language: detected for the whole document (English).
    let doc = accepted(&upload_file(&app, &key, "manual.html", page.as_bytes(), &[("target_lang", "DE")]));
    let done = wait_until_done(&app, &key, &doc);
    assert_eq!(done["billed_characters"], chars(&texts), "the text's characters, not the markup's: {done}");
    let reply = result(&app, &key, &doc);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(reply.header("content-disposition"), Some("attachment; filename=\"manual.html\""));
    let output = reply.text();

    // Every piece of markup in its place, byte for byte; every text between them translated.
    let mut rest = output.as_str();
    for (index, (is_text, piece)) in PAGE.iter().enumerate() {
        if *is_text {
            let (_, next) = PAGE[index + 1];
            let end = rest.find(next).unwrap_or_else(|| panic!("no {next:?} after the text {piece:?} in {output}"));
            let translated = &rest[..end];
            assert!(
                !translated.trim().is_empty() && translated != *piece,
                "{piece:?} is translated: {translated:?} in {output}"
            );
            rest = &rest[end..];
        } else {
            assert!(rest.starts_with(piece), "markup kept byte for byte: {piece:?} at {rest:?}");
            rest = &rest[piece.len()..];
        }
    }
    assert!(rest.is_empty(), "nothing after the page: {rest:?}");
    let translated = translated_texts(
        &app,
        &reference,
        &[page.as_str()],
        json!({"source_lang": "EN", "target_lang": "DE", "tag_handling": "html"}),
    );
    assert_eq!(output, translated[0], "as /v2/translate translates it with tag_handling html");
    assert_eq!(character_count(&app, &key), chars(&texts));

    // .htm, and output formats of the document's own type.
    for (name, output_format) in [("page.htm", None), ("page.html", Some("htm")), ("page.htm", Some("html"))] {
        let mut fields = vec![("source_lang", "EN"), ("target_lang", "FR")];
        if let Some(format) = output_format {
            fields.push(("output_format", format));
        }
        let doc = accepted(&upload_file(&app, &key, name, b"<p>Hello <i>world</i></p>", &fields));
        assert_eq!(wait_until_done(&app, &key, &doc)["billed_characters"], 11, "{name}");
        let reply = result(&app, &key, &doc);
        assert_eq!(reply.status, 200, "{name}: {}", reply.text());
        assert_eq!(reply.header("content-type"), Some("text/html; charset=utf-8"), "{name}");
        assert_eq!(reply.header("content-disposition"), Some(format!("attachment; filename=\"{name}\"").as_str()));
        let text = reply.text();
        assert!(text.starts_with("<p>") && text.contains("<i>") && text.ends_with("</i></p>"), "{name}: {text}");
        assert!(!text.contains("Hello") && !text.contains("world"), "{name}: {text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Parameters

#[test]
fn formality_glossaries_memories_style_rules_and_the_filename_part_apply_to_the_document() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let glossary = |name: &str, entries: &str| {
        let body = json!({"name": name, "source_lang": "en", "target_lang": "de", "entries": entries});
        let reply = app.post_json("/v2/glossaries", &key, &body);
        assert_eq!(reply.status, 201, "{}", reply.text());
        reply.json()["glossary_id"].as_str().unwrap().to_owned()
    };
    let printers = glossary("Printers", "printer\tDrucker");
    let paper = glossary("Paper", "paper\tPapier");
    let memory = app.post_json(
        "/v3/translation_memories",
        &key,
        &json!({"name": "Manual", "source_language": "en", "target_languages": ["de"]}),
    );
    assert_eq!(memory.status, 201, "{}", memory.text());
    let memory = memory.json()["translation_memory_id"].as_str().unwrap().to_owned();
    let added = app.post_json(
        &format!("/v3/translation_memories/{memory}/segments"),
        &key,
        &json!({"segments": [{"source": "Press the red button.", "target": "Drücken Sie die rote Taste.", "target_language": "de"}]}),
    );
    assert_eq!(added.status, 201, "{}", added.text());
    let style = app.post_json(
        "/v3/style_rules",
        &key,
        &json!({"name": "German numbers", "language": "de",
                "configured_rules": {"numbers": {"decimal_separator": "use_comma_as_decimal_separator"}}}),
    );
    assert_eq!(style.status, 201, "{}", style.text());
    let style = style.json()["style_id"].as_str().unwrap().to_owned();

    let paragraphs = ["Press the red button. How are you?", "The printer has no paper.\nIt costs 3.5 euros."];
    let text = format!("{}\n\n{}\n", paragraphs[0], paragraphs[1]);
    // The file part's name is overridden by a `filename` part.
    let doc = accepted(&upload(
        &app,
        &key,
        &[
            field("source_lang", "EN"),
            field("target_lang", "DE"),
            field("formality", "less"),
            field("glossary_ids", &format!("{printers},{paper}")),
            field("translation_memory_id", &memory),
            field("translation_memory_threshold", "90"),
            field("style_id", &style),
            field("enable_beta_languages", "true"),
            field("output_format", "txt"),
            file("upload.bin", text.as_bytes()),
            field("filename", "manual.txt"),
        ],
    ));
    assert_eq!(wait_until_done(&app, &key, &doc)["billed_characters"], chars(&paragraphs));
    let reply = result(&app, &key, &doc);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-disposition"), Some("attachment; filename=\"manual.txt\""));
    let parameters = json!({"source_lang": "EN", "target_lang": "DE", "formality": "less",
                            "glossary_ids": [printers, paper], "translation_memory_id": memory,
                            "translation_memory_threshold": 90, "style_id": style});
    let expected = translated_texts(&app, &key, &paragraphs, parameters);
    assert_eq!(reply.text(), format!("{}\n\n{}\n", expected[0], expected[1]));
    let output = reply.text();
    assert!(output.starts_with("Drücken Sie die rote Taste. "), "the memory's segment: {output}");
    assert!(output.contains("Drucker") && output.contains("Papier"), "both glossaries: {output}");
    assert!(output.contains(" 3,5 "), "the style rules: {output}");
    let plain = translated_texts(&app, &key, &paragraphs[..1], json!({"source_lang": "EN", "target_lang": "DE"}));
    assert_ne!(expected[0], plain[0], "the parameters change the translation");

    // Glossaries repeated as parts, or one as glossary_id, apply the same.
    let repeated = accepted(&upload(
        &app,
        &key,
        &[
            file("again.txt", text.as_bytes()),
            field("source_lang", "EN"),
            field("target_lang", "DE"),
            field("glossary_ids", &printers),
            field("glossary_ids", &paper),
        ],
    ));
    wait_until_done(&app, &key, &repeated);
    let expected = translated_texts(
        &app,
        &key,
        &paragraphs,
        json!({"source_lang": "EN", "target_lang": "DE", "glossary_ids": [printers, paper]}),
    );
    assert_eq!(result(&app, &key, &repeated).text(), format!("{}\n\n{}\n", expected[0], expected[1]));
    let single = accepted(&upload_file(
        &app,
        &key,
        "single.txt",
        paragraphs[1].as_bytes(),
        &[("source_lang", "en"), ("target_lang", "de"), ("glossary_id", &printers)],
    ));
    wait_until_done(&app, &key, &single);
    let output = result(&app, &key, &single).text();
    assert!(output.contains("Drucker") && !output.contains("Papier"), "{output}");

    // A file part without a name, named by a `filename` part.
    let mut nameless = file("x", b"Hello.");
    nameless.filename = None;
    let named = accepted(&upload(
        &app,
        &key,
        &[nameless, field("filename", "hello.txt"), field("source_lang", "EN"), field("target_lang", "DE")],
    ));
    wait_until_done(&app, &key, &named);
    assert_eq!(result(&app, &key, &named).header("content-disposition"), Some("attachment; filename=\"hello.txt\""));
    // The `filename` part decides the type.
    let reply = upload(
        &app,
        &key,
        &[file("notes.txt", b"Hello."), field("filename", "notes.docx"), field("target_lang", "DE")],
    );
    assert_invalid_file(&reply, "a text file named as a docx");
    let detail = reply.json()["detail"].as_str().unwrap_or_default().to_owned();
    assert!(detail.starts_with("the docx file cannot be read"), "{detail}");
}

/// Upload fields, the status they get, and the message if the test names it.
type Case<'a> = (Vec<(&'a str, String)>, u16, Option<String>);

/// A form body of these fields, values percent-encoded.
fn form(fields: &[(&str, String)]) -> String {
    let encode = |text: &str| {
        text.bytes()
            .map(|byte| match byte {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (byte as char).to_string(),
                _ => format!("%{byte:02X}"),
            })
            .collect::<String>()
    };
    fields.iter().map(|(name, value)| format!("{name}={}", encode(value))).collect::<Vec<_>>().join("&")
}

#[test]
fn parameters_are_refused_as_translate_refuses_them_and_what_they_name_is_checked_at_upload() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reply = app.post_json(
        "/v2/glossaries",
        &key,
        &json!({"name": "G", "source_lang": "en", "target_lang": "de", "entries": "printer\tDrucker"}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let glossary = reply.json()["glossary_id"].as_str().unwrap().to_owned();
    let six: Vec<String> = (0..6).map(|index| format!("def3a26b-3e84-45b3-84ae-0c0aaf3525f{index}")).collect();
    let s = |text: &str| text.to_owned();
    // (the fields besides the file, the status, the message if this test names it)
    let cases: Vec<Case> = vec![
        (vec![], 400, Some(s("Parameter 'target_lang' not specified"))),
        (vec![("target_lang", s("XX"))], 400, Some(s("Value for 'target_lang' not supported."))),
        (
            vec![("target_lang", s("DE")), ("source_lang", s("EN-GB"))],
            400,
            Some(s("Value for 'source_lang' not supported.")),
        ),
        (vec![("target_lang", s("DE")), ("source_lang", s("XX"))], 400, None),
        (
            vec![("target_lang", s("EN-GB")), ("source_lang", s("DE")), ("formality", s("more"))],
            400,
            Some(s("Target language 'EN-GB' doesn't support formality.")),
        ),
        (vec![("target_lang", s("DE")), ("formality", s("very"))], 400, None),
        (
            vec![("target_lang", s("DE")), ("glossary_id", s(UNKNOWN_UUID))],
            400,
            Some(s("Use of a glossary requires the source_lang parameter to be specified")),
        ),
        (vec![("target_lang", s("DE")), ("glossary_ids", glossary.clone())], 400, None),
        (vec![("source_lang", s("EN")), ("target_lang", s("DE")), ("glossary_id", s("x"))], 400, None),
        (vec![("source_lang", s("EN")), ("target_lang", s("DE")), ("glossary_id", s(UNKNOWN_UUID))], 404, None),
        (vec![("source_lang", s("EN")), ("target_lang", s("DE")), ("glossary_ids", six.join(","))], 400, None),
        (vec![("source_lang", s("EN")), ("target_lang", s("FR")), ("glossary_id", glossary.clone())], 400, None),
        (
            vec![("source_lang", s("EN")), ("target_lang", s("DE")), ("style_id", s(UNKNOWN_UUID))],
            404,
            Some(format!("Style rule list {UNKNOWN_UUID} not found.")),
        ),
        (
            vec![("source_lang", s("EN")), ("target_lang", s("DE")), ("translation_memory_id", s(UNKNOWN_UUID))],
            404,
            Some(format!("Translation memory {UNKNOWN_UUID} not found.")),
        ),
        (vec![("target_lang", s("DE")), ("translation_memory_threshold", s("101"))], 400, None),
    ];
    for (fields, expected_status, expected_message) in &cases {
        let mut parts = vec![file("a.txt", b"Hello, printer.")];
        parts.extend(fields.iter().map(|(name, value)| field(name, value)));
        let reply = upload(&app, &key, &parts);
        assert_eq!(reply.status, *expected_status, "{fields:?}: {}", reply.text());
        if let Some(expected) = expected_message {
            assert_eq!(&message(&reply), expected, "{fields:?}");
        }
        // The same refusal as /v2/translate's (its form body takes repeated glossary_ids).
        let mut translate_fields = vec![("text", s("Hello, printer."))];
        for (name, value) in fields {
            match *name {
                "glossary_ids" => translate_fields.extend(value.split(',').map(|id| ("glossary_ids", id.to_owned()))),
                _ => translate_fields.push((name, value.clone())),
            }
        }
        let translate = app.post_form("/v2/translate", &key, &form(&translate_fields));
        assert_eq!((reply.status, reply.json()), (translate.status, translate.json()), "{fields:?}: as translate");
    }

    // What only documents refuse.
    for (source, target) in [("EN", "EN-US"), ("de", "DE"), ("PT", "pt-br")] {
        let reply = upload_file(&app, &key, "a.txt", b"Hello.", &[("source_lang", source), ("target_lang", target)]);
        assert_eq!(reply.status, 400, "{source} {target}: {}", reply.text());
        assert_eq!(message(&reply), "Value for 'target_lang' not supported: it is the document's source language.");
    }
    for (name, output_format) in
        [("a.txt", "docx"), ("a.txt", "html"), ("a.txt", "pdf"), ("a.html", "txt"), ("a.htm", "docx"), ("a.txt", "x")]
    {
        let reply =
            upload_file(&app, &key, name, b"Hello.", &[("target_lang", "DE"), ("output_format", output_format)]);
        assert_eq!(reply.status, 400, "{name} as {output_format}: {}", reply.text());
        assert!(
            message(&reply).starts_with("Value for 'output_format' not supported: "),
            "{name} as {output_format}: {}",
            reply.text()
        );
    }
    assert_eq!(character_count(&app, &key), 0, "refused uploads bill nothing");
}

// ---------------------------------------------------------------------------------------------
// Files

#[test]
fn files_that_are_missing_empty_unnamed_of_unknown_types_or_not_utf8_are_invalid_file_data() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let authorization = format!("Service-Auth-Key {key}");
    let send = |content_type: &str, body: &[u8]| {
        app.request(
            "POST",
            "/v2/document",
            &[("authorization", authorization.as_str()), ("content-type", content_type)],
            Some(body),
        )
    };
    assert_invalid_file(&send("application/x-www-form-urlencoded", b"target_lang=DE&file=Hello"), "a form body");
    assert_invalid_file(&send("application/json", br#"{"target_lang": "DE", "file": "Hello"}"#), "a JSON body");
    assert_invalid_file(&send("text/plain", b"Hello"), "a text body");
    assert_invalid_file(&app.call("POST", "/v2/document?target_lang=DE", &key), "no body");
    assert_eq!(
        send(&format!("multipart/form-data; boundary={BOUNDARY}"), b"garbage").status,
        400,
        "a broken multipart body"
    );
    assert_invalid_file(&upload(&app, &key, &[field("target_lang", "DE")]), "no file part");
    let mut other_name = file("a.txt", b"Hello.");
    other_name.name = "document".to_owned();
    assert_invalid_file(&upload(&app, &key, &[other_name, field("target_lang", "DE")]), "a file under another name");
    assert_invalid_file(&upload_file(&app, &key, "a.txt", b"", &[("target_lang", "DE")]), "an empty file");
    let mut unnamed = file("x", b"Hello.");
    unnamed.filename = None;
    assert_invalid_file(&upload(&app, &key, &[unnamed, field("target_lang", "DE")]), "a file without a name");
    for name in ["notes.xyz", "notes", "notes.", "archive.tar.gz", "page.xhtml", "script.js"] {
        let reply = upload_file(&app, &key, name, b"Hello.", &[("target_lang", "DE")]);
        assert_invalid_file(&reply, name);
    }
    for (name, bytes) in [
        ("latin1.txt", &b"Gr\xfc\xdfe aus Berlin."[..]),
        ("broken.txt", &b"Hello \xff\xfe world."[..]),
        ("latin1.html", &b"<p>Gr\xfc\xdfe</p>"[..]),
        ("utf16.txt", &b"\xff\xfeH\x00i\x00"[..]),
    ] {
        assert_invalid_file(&upload_file(&app, &key, name, bytes, &[("target_lang", "EN-GB")]), name);
    }

    // The type this deployment knows but does not translate yet: the detail names it.
    let reply = upload_file(&app, &key, "report.doc", b"PK\x03\x04 not really", &[("target_lang", "DE")]);
    assert_not_built_yet(&reply, "doc");
    // Types it translates, given files that are not of them: the detail says why they cannot be read.
    for kind in ["docx", "pptx", "xlsx", "pdf", "xlf", "xliff", "srt", "jpg", "jpeg", "png"] {
        let reply =
            upload_file(&app, &key, &format!("report.{kind}"), b"PK\x03\x04 not really", &[("target_lang", "DE")]);
        assert_invalid_file(&reply, kind);
        let detail = reply.json()["detail"].as_str().unwrap_or_default().to_owned();
        assert!(detail.contains("cannot be read"), "{kind}: {detail}");
    }
    assert_eq!(character_count(&app, &key), 0);
}

/// A txt file of exactly `bytes` bytes: one paragraph of lines of two-byte letters, so about half
/// as many characters as bytes (within every plan's characters per document).
fn txt_of_bytes(bytes: usize) -> Vec<u8> {
    let line = format!("{} ", "é".repeat(511)); // 1,023 bytes, and a line break
    let mut text = String::new();
    while text.len() + 1024 <= bytes {
        text.push_str(&line);
        text.push('\n');
    }
    let left = bytes - text.len();
    text.push_str(&"é".repeat(left / 2));
    if left % 2 == 1 {
        text.push('x');
    }
    assert_eq!(text.len(), bytes);
    text.into_bytes()
}

#[test]
fn files_past_their_size_limit_are_refused_with_413_and_files_at_it_are_accepted() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reply = upload_file(&app, &key, "big.txt", &txt_of_bytes(MIB + 1), &[("target_lang", "DE")]);
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert_eq!(message(&reply), "Document too large: a txt file may be at most 1 MiB.");
    accepted(&upload_file(&app, &key, "big.txt", &txt_of_bytes(MIB), &[("target_lang", "DE")]));

    // html: 5 MiB, most of it a comment (markup: few characters to translate).
    let page = |bytes: usize| {
        let (head, tail) = ("<html><body><!-- ", " --><p>Hello world</p></body></html>");
        format!("{head}{}{tail}", "x".repeat(bytes - head.len() - tail.len())).into_bytes()
    };
    let reply = upload_file(&app, &key, "big.html", &page(5 * MIB + 1), &[("target_lang", "DE")]);
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert!(message(&reply).starts_with("Document too large: "), "{}", reply.text());
    assert!(message(&reply).contains("5 MiB"), "{}", reply.text());
    let doc =
        accepted(&upload_file(&app, &key, "big.htm", &page(5 * MIB), &[("source_lang", "EN"), ("target_lang", "DE")]));
    assert_eq!(wait_until_done(&app, &key, &doc)["billed_characters"], 11, "the text only");
    assert_eq!(character_count(&app, &key), 0);
}

/// The raw reply to a request line (`POST /path`) with `headers` (each ending in CRLF) that
/// announces a body of `length` bytes and sends none of it: what the application answers before
/// it reads a body.
fn head_only(app: &TestApp, request_line: &str, headers: &str, length: usize) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(app.base_url.trim_start_matches("http://")).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head =
        format!("{request_line} HTTP/1.1\r\nHost: x\r\n{headers}Content-Length: {length}\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    String::from_utf8_lossy(&reply).into_owned()
}

#[test]
fn bodies_past_the_route_limit_or_unauthenticated_past_128_kib_are_refused_before_reading() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let content_type = format!("Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n");
    let authorized = format!("Authorization: Service-Auth-Key {key}\r\n{content_type}");
    let reply = head_only(&app, "POST /v2/document", &authorized, 31 * MIB + 1);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    let reply = head_only(&app, "POST /v2/document", &content_type, 200 * 1024);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
}

// ---------------------------------------------------------------------------------------------
// Characters and quotas

/// One paragraph of exactly `count` characters: words of nine letters, no outer whitespace.
fn paragraph_of(count: usize) -> String {
    let mut text = "abcdefghi ".repeat(count / 10);
    text.push_str(&"z".repeat(count % 10));
    let text = if text.ends_with(' ') { format!("{}j", &text[..text.len() - 1]) } else { text };
    assert_eq!(text.chars().count(), count);
    text
}

#[test]
fn documents_with_more_characters_than_the_plan_allows_per_document_are_refused() {
    let app = TestApp::start(Options::app());
    // The bootstrap subscription (Pro) first: the first request that names its admin key makes it.
    let pro = app.developer_key();
    let (_, free_admin) = app.create_subscription("free");
    let (free, _) = key_of(&app, &free_admin);

    let reply = upload_file(&app, &free, "long.txt", paragraph_of(500_001).as_bytes(), &[("target_lang", "DE")]);
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(message(&reply), "Document has too many characters: 500001, at most 500000 per document on this plan.");
    let reply = upload_file(&app, &pro, "long.txt", paragraph_of(1_000_001).as_bytes(), &[("target_lang", "DE")]);
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(
        message(&reply),
        "Document has too many characters: 1000001, at most 1000000 per document on this plan."
    );
    accepted(&upload_file(&app, &pro, "long.txt", paragraph_of(600_000).as_bytes(), &[("target_lang", "DE")]));

    // Exactly the Free plan's 500,000: accepted, and it reserves the whole period's quota.
    accepted(&upload_file(&app, &free, "long.txt", paragraph_of(500_000).as_bytes(), &[("target_lang", "DE")]));
    let reply = upload_file(&app, &free, "short.txt", b"Hi", &[("target_lang", "DE")]);
    assert_eq!(reply.status, 456, "{}", reply.text());
    assert_eq!(reply.json(), json!({"message": "Quota for this billing period has been exceeded."}));
    assert_eq!(character_count(&app, &free), 0, "reserved, not billed");
}

#[test]
fn a_document_a_key_limit_cannot_cover_is_refused_with_456_and_its_characters_are_reserved() {
    let app = TestApp::start(Options::app());
    let (key, key_id) = key_of(&app, BOOTSTRAP_ADMIN_KEY);
    limit_key(&app, BOOTSTRAP_ADMIN_KEY, &key_id, 10);
    let quota = json!({"message": "Quota for this billing period has been exceeded."});

    let reply = upload_file(&app, &key, "eleven.txt", b"abcdefghijk", &[("target_lang", "DE")]);
    assert_eq!((reply.status, reply.json()), (456, quota.clone()), "11 characters past a limit of 10");
    let doc =
        accepted(&upload_file(&app, &key, "ten.txt", b"abcdefghij", &[("source_lang", "EN"), ("target_lang", "DE")]));
    // Reserved at upload: nothing else fits, neither a document nor a text.
    let reply = upload_file(&app, &key, "one.txt", b"a", &[("target_lang", "DE")]);
    assert_eq!((reply.status, reply.json()), (456, quota.clone()), "the limit is reserved");
    let text = app.post_json("/v2/translate", &key, &json!({"text": ["a"], "target_lang": "DE"}));
    assert_eq!(text.status, 456, "{}", text.text());
    assert_eq!(character_count(&app, &key), 0);

    assert_eq!(wait_until_done(&app, &key, &doc)["billed_characters"], 10);
    assert_eq!(result(&app, &key, &doc).status, 200);
    let usage = usage_at(&app, &key, None);
    assert_eq!((&usage["api_key_character_count"], &usage["character_count"]), (&json!(10), &json!(10)), "{usage}");
    let reply = upload_file(&app, &key, "one.txt", b"a", &[("target_lang", "DE")]);
    assert_eq!(reply.status, 456, "billed: still nothing left: {}", reply.text());

    // Cost control holds documents too.
    let (other, _) = key_of(&app, BOOTSTRAP_ADMIN_KEY);
    let reply = app.request(
        "PUT",
        "/v2/admin/cost-control",
        &[("authorization", &format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}")), ("content-type", "application/json")],
        Some(json!({"characters": 15}).to_string().as_bytes()),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let reply = upload_file(&app, &other, "six.txt", b"abcdef", &[("target_lang", "DE")]);
    assert_eq!((reply.status, reply.json()), (456, quota), "10 + 6 past a cost control of 15");
    accepted(&upload_file(&app, &other, "five.txt", b"abcde", &[("target_lang", "DE")]));
}

#[test]
fn a_reporting_tag_is_checked_on_upload_and_like_the_reference_counts_only_for_text_translation() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reply = upload_with(
        &app,
        &key,
        &[file("a.txt", b"Tagged words.\n\nMore."), field("source_lang", "EN"), field("target_lang", "DE")],
        &[("x-service-reporting-tag", "docs-team")],
    );
    let doc = accepted(&reply);
    assert_eq!(wait_until_done(&app, &key, &doc)["billed_characters"], 18);
    assert_eq!(result(&app, &key, &doc).status, 200);
    assert_eq!(character_count(&app, &key), 18, "billed");
    let reply = upload_with(
        &app,
        &key,
        &[file("a.txt", b"Hello."), field("target_lang", "DE")],
        &[("x-service-reporting-tag", "two words")],
    );
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert!(message(&reply).contains("X-Service-Reporting-Tag"), "{}", reply.text());

    // Tags are counted for text translation only (the reference's rule), so a tagged document
    // is billed but shows under no tag.
    let path = format!(
        "/v2/admin/analytics/custom-tags?start_date={}&end_date={}",
        day_of(unix_now() - 86_400),
        day_of(unix_now() + 86_400)
    );
    let reply = app.call("GET", &path, BOOTSTRAP_ADMIN_KEY);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["custom_tag_usage_report"]["usage"], json!([]));
}

// ---------------------------------------------------------------------------------------------
// Errors and retention

#[test]
fn a_document_already_in_the_target_language_ends_in_error_and_bills_nothing() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let german = "Das Wetter ist heute schön, und wir gehen im Park spazieren.\n\nDanach trinken wir einen Kaffee.";
    let doc = accepted(&upload_file(&app, &key, "deutsch.txt", german.as_bytes(), &[("target_lang", "DE")]));
    let failed = wait_until_finished(&app, &key, &doc, None, "error");
    let error = failed["error_message"].as_str().unwrap_or_else(|| panic!("an error_message: {failed}")).to_owned();
    assert!(!error.is_empty());
    assert_eq!(
        failed,
        json!({"document_id": doc.id, "status": "error", "error_message": error, "message": error}),
        "the same text twice"
    );
    let reply = result(&app, &key, &doc);
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(reply.json(), json!({"message": format!("Document translation failed: {error}")}));
    assert_eq!(character_count(&app, &key), 0);

    // The same text to another language is translated.
    let doc = accepted(&upload_file(&app, &key, "deutsch.txt", german.as_bytes(), &[("target_lang", "EN-GB")]));
    assert_eq!(wait_until_done(&app, &key, &doc)["billed_characters"], 92);
}

#[test]
fn a_document_never_downloaded_is_deleted_after_the_retention_bills_nothing_and_frees_its_reservation() {
    let app = TestApp::start(Options::app());
    let (key, key_id) = key_of(&app, BOOTSTRAP_ADMIN_KEY);
    limit_key(&app, BOOTSTRAP_ADMIN_KEY, &key_id, 20);
    let start = unix_now();
    let at = |hours: i64, minutes: i64| rfc3339(start + hours * 3600 + minutes * 60);
    let doc = accepted(&upload_with(
        &app,
        &key,
        &[file("kept.txt", b"Twenty characters!!!"), field("source_lang", "EN"), field("target_lang", "DE")],
        &[("x-service-test-time", &at(0, 0))],
    ));
    let done = wait_until_finished(&app, &key, &doc, Some(&at(1, 0)), "done");
    assert_eq!(done["billed_characters"], 20);
    let second = upload_with(
        &app,
        &key,
        &[file("b.txt", b"x"), field("target_lang", "DE")],
        &[("x-service-test-time", &at(1, 0))],
    );
    assert_eq!(second.status, 456, "the reservation holds the limit: {}", second.text());

    let reply = status_at(&app, &key, &doc, &at(23, 0));
    assert_eq!((reply.status, &reply.json()["status"]), (200, &json!("done")), "kept for 24 hours: {}", reply.text());
    assert_not_found(&status_at(&app, &key, &doc, &at(25, 0)), "the status after 25 hours");
    assert_not_found(&result_at(&app, &key, &doc, &at(25, 1)), "the download after 25 hours");
    let usage = usage_at(&app, &key, Some(&at(25, 2)));
    assert_eq!(usage["character_count"], 0, "nothing billed: {usage}");

    // The reservation is freed: the whole limit is there again.
    let again = accepted(&upload_with(
        &app,
        &key,
        &[file("again.txt", b"Twenty characters!!!"), field("source_lang", "EN"), field("target_lang", "DE")],
        &[("x-service-test-time", &at(25, 3))],
    ));
    wait_until_finished(&app, &key, &again, Some(&at(25, 4)), "done");
    let reply = result_at(&app, &key, &again, &at(25, 5));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(usage_at(&app, &key, Some(&at(25, 6)))["character_count"], 20);
}

#[test]
fn the_retention_is_the_document_retention_hours_variable() {
    let app = TestApp::start(Options::app().env("SPIN_VARIABLE_DOCUMENT_RETENTION_HOURS", "2"));
    let key = app.developer_key();
    let start = unix_now();
    let at = |minutes: i64| rfc3339(start + minutes * 60);
    let doc = accepted(&upload_with(
        &app,
        &key,
        &[file("a.txt", b"Short lived."), field("source_lang", "EN"), field("target_lang", "DE")],
        &[("x-service-test-time", &at(0))],
    ));
    wait_until_finished(&app, &key, &doc, Some(&at(1)), "done");
    let reply = status_at(&app, &key, &doc, &at(110));
    assert_eq!(reply.status, 200, "within two hours: {}", reply.text());
    assert_not_found(&status_at(&app, &key, &doc, &at(130)), "after two hours");
}

// ---------------------------------------------------------------------------------------------
// The official clients

#[test]
fn the_official_python_and_node_clients_translate_documents_with_glossaries_and_formality() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reply = app.post_json(
        "/v2/glossaries",
        &key,
        &json!({"name": "Printers", "source_lang": "en", "target_lang": "de", "entries": "printer\tDrucker"}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let glossary = reply.json()["glossary_id"].as_str().unwrap().to_owned();
    let folder = tempfile::tempdir().expect("a folder for the files");
    let paragraphs = ["The printer is ready.\nPress start.", "How are you today?"];
    let txt = format!("{}\n\n\n{}\n", paragraphs[0], paragraphs[1]);
    let page = "<html><body><h1>Welcome</h1><p>Hello <b>dear</b> reader.</p><!-- keep --></body></html>";
    let txt_path = folder.path().join("client notes.txt");
    let html_path = folder.path().join("page.html");
    std::fs::write(&txt_path, &txt).unwrap();
    std::fs::write(&html_path, page).unwrap();
    let page_characters = chars(&["Welcome", "Hello ", "dear", " reader."]);

    let mut reports = Vec::new();
    for (client, formality) in [("python", "more"), ("node", "less")] {
        let out_path = folder.path().join(format!("{client} translated.txt"));
        let html_out_path = folder.path().join(format!("{client} page.html"));
        let args = [
            glossary.as_str(),
            txt_path.to_str().unwrap(),
            out_path.to_str().unwrap(),
            html_path.to_str().unwrap(),
            html_out_path.to_str().unwrap(),
            formality,
        ];
        let report = match client {
            "python" => app.python_client_report_with("documents.py", &key, &args),
            _ => app.node_client_report_with("documents.mjs", &key, &args),
        };
        assert_eq!(
            report["translated"],
            json!({"status": "done", "done": true, "billed_characters": chars(&paragraphs)}),
            "{client}: {report}"
        );
        let handle = &report["handle"];
        assert!(is_upper_hex(handle["document_id"].as_str().unwrap_or_default(), 32), "{client}: {report}");
        assert!(is_upper_hex(handle["document_key"].as_str().unwrap_or_default(), 64), "{client}: {report}");
        assert!(
            matches!(report["first_status"].as_str(), Some("queued" | "translating" | "done")),
            "{client}: {report}"
        );
        assert_eq!(
            report["html_status"],
            json!({"status": "done", "done": true, "billed_characters": page_characters}),
            "{client}: {report}"
        );
        for (what, expected) in [
            // (The Python client reads no message from a refused download: "Not found" only.)
            ("downloaded_again", "Not found"),
            ("status_after_download", "Document not found"),
            ("unknown_type", "Invalid file data."),
            ("docx", "Invalid file data."),
            ("same_language", "it is the document's source language"),
        ] {
            let refusal = report[what].as_str().unwrap_or_default();
            assert!(refusal.starts_with("refused") && refusal.contains(expected), "{client} {what}: {refusal}");
        }
        let translated = std::fs::read_to_string(&out_path).expect("the client wrote the translation");
        let html = std::fs::read_to_string(&html_out_path).expect("the client wrote the page");
        reports.push((client, formality, translated, html));
    }
    assert_eq!(
        character_count(&app, &key),
        2 * (chars(&paragraphs) + page_characters),
        "each document billed once, at its download"
    );

    let page_translation = translated_texts(
        &app,
        &key,
        &[page],
        json!({"source_lang": "EN", "target_lang": "FR", "tag_handling": "html"}),
    );
    for (client, formality, translated, html) in reports {
        let expected = translated_texts(
            &app,
            &key,
            &paragraphs,
            json!({"source_lang": "EN", "target_lang": "DE", "formality": formality, "glossary_id": glossary}),
        );
        assert_eq!(translated, format!("{}\n\n\n{}\n", expected[0], expected[1]), "{client}");
        assert!(translated.contains("Drucker"), "the glossary's term: {client}: {translated}");
        assert_eq!(html, page_translation[0], "{client}");
        assert!(html.contains("<!-- keep -->") && !html.contains("Welcome"), "{client}: {html}");
    }
}

// ---------------------------------------------------------------------------------------------
// Before done

/// An OpenAI-compatible chat server on a free port that answers each request after `delay`, with
/// the texts of its user message (a JSON array) upper-cased; its port and how many requests it
/// answered. Slow enough, it keeps a document of many batches unfinished for seconds.
fn slow_upper_casing_chat_server(delay: Duration) -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let answered = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = std::sync::Arc::clone(&answered);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let count = std::sync::Arc::clone(&count);
            std::thread::spawn(move || {
                let mut request = Vec::new();
                let mut buffer = [0u8; 16 * 1024];
                let body = loop {
                    let read = stream.read(&mut buffer).unwrap_or(0);
                    if read == 0 {
                        return;
                    }
                    request.extend_from_slice(&buffer[..read]);
                    let Some(end) = request.windows(4).position(|window| window == b"\r\n\r\n") else { continue };
                    let head = String::from_utf8_lossy(&request[..end]).to_ascii_lowercase();
                    let length = head
                        .lines()
                        .find_map(|line| line.strip_prefix("content-length:"))
                        .and_then(|value| value.trim().parse::<usize>().ok())
                        .expect("the engine sends a Content-Length");
                    if request.len() >= end + 4 + length {
                        break request[end + 4..end + 4 + length].to_vec();
                    }
                };
                let body: Json = serde_json::from_slice(&body).expect("a JSON request");
                let user = body["messages"][1]["content"].as_str().expect("the user message");
                let texts: Vec<String> = serde_json::from_str(user).expect("the texts, a JSON array");
                let upper: Vec<String> = texts.iter().map(|text| text.to_uppercase()).collect();
                std::thread::sleep(delay);
                let content =
                    json!({"choices": [{"message": {"role": "assistant", "content": json!(upper).to_string()}}]})
                        .to_string();
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{content}",
                    content.len()
                );
                let _ = stream.write_all(response.as_bytes());
                count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            });
        }
    });
    (port, answered)
}

#[test]
fn a_download_before_the_document_is_done_answers_503_with_retry_after() {
    // 600 paragraphs: a dozen engine calls of 700 ms each, some 8 s of work, of which a status
    // or result call does at most about 2 s (and the upload's own work holds it meanwhile).
    let (port, answered) = slow_upper_casing_chat_server(Duration::from_millis(700));
    let app = TestApp::start(Options::app().with_openai_at(port));
    let key = app.developer_key();
    let paragraphs: Vec<String> = (0..600).map(|index| format!("Paragraph number {index}.")).collect();
    let text = paragraphs.join("\n\n");
    let doc = accepted(&upload_file(
        &app,
        &key,
        "long.txt",
        text.as_bytes(),
        &[("source_lang", "EN"), ("target_lang", "DE")],
    ));

    let early = result(&app, &key, &doc);
    assert_eq!(early.status, 503, "{}", early.text());
    assert_eq!(early.json(), json!({"message": "Document translation is not done"}));
    let retry = early.header("retry-after").unwrap_or_else(|| panic!("a Retry-After: {:?}", early.headers));
    assert!(retry.trim().parse::<u64>().is_ok(), "Retry-After in seconds: {retry}");
    let reply = status(&app, &key, &doc);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let body = reply.json();
    assert!(matches!(body["status"].as_str(), Some("queued" | "translating")), "not done yet: {body}");
    assert!(body["seconds_remaining"].is_u64(), "{body}");
    assert_eq!(character_count(&app, &key), 0, "nothing billed by a download refused");

    let billed: i64 = paragraphs.iter().map(|paragraph| paragraph.chars().count() as i64).sum();
    assert_eq!(wait_until_done(&app, &key, &doc)["billed_characters"], billed);
    let reply = result(&app, &key, &doc);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let expected: Vec<String> = paragraphs.iter().map(|paragraph| paragraph.to_uppercase()).collect();
    assert_eq!(reply.text(), expected.join("\n\n"));
    assert_eq!(character_count(&app, &key), billed);
    assert!(answered.load(std::sync::atomic::Ordering::SeqCst) >= 12, "in batches");
}

#[test]
fn a_document_whose_server_is_killed_mid_work_is_finished_after_the_restart_once_and_billed_once() {
    // 600 paragraphs: a dozen engine calls of 400 ms each.
    let (port, answered) = slow_upper_casing_chat_server(Duration::from_millis(400));
    let options = Options::app().with_openai_at(port);
    let mut first = TestApp::start(options.clone());
    let key = first.developer_key();
    let paragraphs: Vec<String> = (0..600).map(|index| format!("Paragraph number {index}.")).collect();
    let doc = accepted(&upload_file(
        &first,
        &key,
        "long.txt",
        paragraphs.join("\n\n").as_bytes(),
        &[("source_lang", "EN"), ("target_lang", "DE")],
    ));
    let batches = |at_least: usize| {
        for _ in 0..POLLS {
            if answered.load(std::sync::atomic::Ordering::SeqCst) >= at_least {
                return;
            }
            std::thread::sleep(POLL_PAUSE);
        }
        panic!("the engine was not asked {at_least} times");
    };
    batches(3);
    first.kill();
    let before = answered.load(std::sync::atomic::Ordering::SeqCst);
    assert!(before < 12, "killed in the middle: {before} batches");

    // The dead worker's lease holds the document for a minute after its last batch; a status
    // call after that takes it over, from the last batch it saved.
    let second = TestApp::start_in(options, first.state_dir());
    let later = rfc3339(unix_now() + 120);
    let done = wait_until_finished(&second, &key, &doc, Some(&later), "done");
    let billed: i64 = paragraphs.iter().map(|paragraph| paragraph.chars().count() as i64).sum();
    assert_eq!(done["billed_characters"], billed);
    let reply = result_at(&second, &key, &doc, &later);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let expected: Vec<String> = paragraphs.iter().map(|paragraph| paragraph.to_uppercase()).collect();
    assert_eq!(reply.text(), expected.join("\n\n"), "every paragraph once, in order");
    assert_eq!(character_count(&second, &key), billed, "billed once");
    let all = answered.load(std::sync::atomic::Ordering::SeqCst);
    assert!(all <= 13, "resumed, not begun again: {before} batches before the kill, {all} in all");
    assert_not_found(&result_at(&second, &key, &doc, &later), "downloaded");
}
