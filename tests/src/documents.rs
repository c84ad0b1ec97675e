//! Document translation as a client drives it: a multipart upload, status calls until the
//! document is done, and refusals checked for their reason.

use std::time::Duration;

use crate::{Json, Options, Reply, TestApp, json};

const BOUNDARY: &str = "e2e-documents-7c41d9a2b5e3";

/// `POST /v2/document` with `file` named `filename` and these form fields.
pub fn upload(app: &TestApp, key: &str, filename: &str, file: &[u8], fields: &[(&str, &str)]) -> Reply {
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    assert!(!file.windows(BOUNDARY.len()).any(|window| window == BOUNDARY.as_bytes()));
    body.extend_from_slice(file);
    body.extend_from_slice(b"\r\n");
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes(),
        );
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    let authorization = format!("Service-Auth-Key {key}");
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    app.request(
        "POST",
        "/v2/document",
        &[("authorization", authorization.as_str()), ("content-type", content_type.as_str())],
        Some(&body),
    )
}

/// An uploaded document: its id and key.
pub struct Doc {
    pub id: String,
    pub key: String,
}

/// The document an upload answered (the test fails on anything else).
#[track_caller]
pub fn accepted(reply: &Reply, what: &str) -> Doc {
    assert_eq!(reply.status, 200, "{what}: {}", reply.text());
    let body = reply.json();
    Doc {
        id: body["document_id"].as_str().expect("a document_id").to_owned(),
        key: body["document_key"].as_str().expect("a document_key").to_owned(),
    }
}

/// `POST path` with the document key in a form body.
pub fn keyed(app: &TestApp, path: &str, key: &str, doc: &Doc) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    app.request(
        "POST",
        path,
        &[("authorization", authorization.as_str()), ("content-type", "application/x-www-form-urlencoded")],
        Some(format!("document_key={}", doc.key).as_bytes()),
    )
}

/// Polls the status until the document is done or has failed (queued and translating are
/// waited through), and answers the last status.
pub fn wait_until_finished(app: &TestApp, key: &str, doc: &Doc, what: &str) -> Json {
    let mut seen = Vec::new();
    for _ in 0..300 {
        let reply = keyed(app, &format!("/v2/document/{}", doc.id), key, doc);
        assert_eq!(reply.status, 200, "{what}: status: {}", reply.text());
        let body = reply.json();
        match body["status"].as_str() {
            Some("queued" | "translating") => seen.push(body["status"].clone()),
            _ => return body,
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{what}: not finished after 300 status calls: {seen:?}")
}

/// Polls the status until the document is done (or fails the test), and answers it.
pub fn wait_until_done(app: &TestApp, key: &str, doc: &Doc, what: &str) -> Json {
    let body = wait_until_finished(app, key, doc, what);
    assert_eq!(body["status"], "done", "{what}: {body}\n{}", app.log());
    body
}

/// Asserts an `Invalid file data.` refusal whose detail holds `why`.
#[track_caller]
pub fn assert_refused(reply: &Reply, what: &str, why: &str) {
    assert_eq!(reply.status, 400, "{what}: {}", reply.text());
    let body = reply.json();
    assert_eq!(body["message"], "Invalid file data.", "{what}: {body}");
    let detail = body["detail"].as_str().unwrap_or_default();
    assert!(detail.contains(why), "{what}: the detail says why ({why}): {body}");
}

/// The application with the tests' language-tools service (which reads and writes PDFs and
/// images), translating with Apertium (so that what comes back is real words).
pub fn app_with_language_tools() -> TestApp {
    TestApp::start(
        Options::app()
            .env("SPIN_VARIABLE_ENGINE", "apertium")
            .env("SPIN_VARIABLE_APERTIUM_URL", crate::apertium())
            .with_language_tools(),
    )
}

/// The words of `text`, lower-cased, without punctuation.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()).map(str::to_lowercase).collect()
}

/// The words of `texts` translated from English into Spanish, as `POST /v2/translate` gives them.
pub fn spanish_words(app: &TestApp, key: &str, texts: &[&str]) -> Vec<String> {
    let reply = app.post_json("/v2/translate", key, &json!({"text": texts, "source_lang": "EN", "target_lang": "ES"}));
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.translated_texts().iter().flat_map(|text| words(text)).collect()
}

/// Asserts that `text` (what a real tool read in a translated file) holds at least 80 % of the
/// `expected` words, and none of the `english` ones the translation replaced.
#[track_caller]
pub fn assert_translated(text: &str, expected: &[String], english: &[&str], what: &str) {
    let read = words(text);
    let found = expected.iter().filter(|word| read.contains(word)).count();
    assert!(found * 10 >= expected.len() * 8, "{what}: {found} of {} translated words: {text:?}", expected.len());
    for english in english {
        assert!(!read.iter().any(|word| word == english), "{what}: {english:?} is still there: {text:?}");
    }
}
