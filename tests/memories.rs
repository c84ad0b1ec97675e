//! Component `memories` (`/v3/translation_memories`): memories created, listed, read, renamed
//! and deleted; segments added, listed and deleted; TMX files imported (appended and replacing,
//! raw and as multipart parts, with several languages and inline markup) and exported; every
//! parameter and error path; tenancy; oversized bodies. And memories in `POST /v2/translate`:
//! what a memory holds comes back verbatim with every engine, close matches reach an engine that
//! follows instructions as examples only at or above the threshold.

use e2e::{BOOTSTRAP_ADMIN_KEY, Json, Options, Reply, TestApp, json};

/// A memory id no subscription has.
const UNKNOWN_ID: &str = "0b5a3e1c-7d2f-4c1a-9e8b-3f6d2a1c0e9f";
const TMX: &str = "application/x-tmx+xml";

fn app() -> (TestApp, String) {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    (app, key)
}

/// A request with `key`, and a body of a media type if given.
fn send(app: &TestApp, method: &str, path: &str, key: &str, body: Option<(&str, &[u8])>) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    let mut headers = vec![("authorization", authorization.as_str())];
    if let Some((content_type, _)) = body {
        headers.push(("content-type", content_type));
    }
    app.request(method, path, &headers, body.map(|(_, bytes)| bytes))
}

fn json_call(app: &TestApp, method: &str, path: &str, key: &str, body: &Json) -> Reply {
    let body = body.to_string();
    send(app, method, path, key, Some(("application/json", body.as_bytes())))
}

fn message(reply: &Reply) -> String {
    reply.json()["message"].as_str().unwrap_or_default().to_owned()
}

/// Asserts a 400 with this message.
fn assert_400(reply: &Reply, expected: &str) {
    assert_eq!((reply.status, message(reply).as_str()), (400, expected), "{}", reply.text());
}

/// Creates a memory and answers it.
fn create(app: &TestApp, key: &str, name: &str, source: &str, targets: &[&str]) -> Json {
    let reply = app.post_json(
        "/v3/translation_memories",
        key,
        &json!({"name": name, "source_language": source, "target_languages": targets}),
    );
    assert_eq!(reply.status, 201, "creating {name}: {}", reply.text());
    reply.json()
}

fn id_of(memory: &Json) -> String {
    memory["translation_memory_id"].as_str().expect("a memory id").to_owned()
}

/// Whether `text` is a lower-case hyphenated UUID.
fn is_lower_case_uuid(text: &str) -> bool {
    text.len() == 36
        && text.char_indices().all(|(at, character)| match at {
            8 | 13 | 18 | 23 => character == '-',
            _ => character.is_ascii_digit() || ('a'..='f').contains(&character),
        })
}

/// Every segment of a memory as (target language, source, target), sorted, read page by page
/// following the listing's cursors; each source text is listed once, with its translations.
fn all_segments(app: &TestApp, key: &str, id: &str) -> Vec<(String, String, String)> {
    listed_segments(app, key, id, "page_size=100")
}

/// [`all_segments`] of a listing with this query (a filter, a page size).
fn listed_segments(app: &TestApp, key: &str, id: &str, query: &str) -> Vec<(String, String, String)> {
    let mut all = Vec::new();
    let mut sources = Vec::new();
    let mut cursor = String::new();
    loop {
        let path = format!("/v3/translation_memories/{id}/segments?{query}{cursor}");
        let reply = app.call("GET", &path, key);
        assert_eq!(reply.status, 200, "{}", reply.text());
        let body = reply.json();
        for segment in body["segments"].as_array().expect("segments") {
            let source = segment["source_text"].as_str().expect("a source").to_owned();
            assert!(is_lower_case_uuid(segment["source_segment_id"].as_str().unwrap()), "{segment}");
            assert!(!sources.contains(&source), "{source} listed twice");
            sources.push(source.clone());
            for target in segment["targets"].as_array().expect("targets") {
                let text = |field: &str| target[field].as_str().expect("a text").to_owned();
                assert!(is_lower_case_uuid(&text("target_segment_id")), "{target}");
                all.push((text("target_language"), source.clone(), text("target_text")));
            }
        }
        match body["next_page_cursor"].as_str() {
            Some(next) => cursor = format!("&page_cursor={next}"),
            None => break,
        }
    }
    all.sort();
    all
}

fn triple(language: &str, source: &str, target: &str) -> (String, String, String) {
    (language.to_owned(), source.to_owned(), target.to_owned())
}

fn segment_count(app: &TestApp, key: &str, id: &str) -> i64 {
    let reply = app.call("GET", &format!("/v3/translation_memories/{id}"), key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["segment_count"].as_i64().expect("a count")
}

#[test]
fn a_memory_is_created_listed_read_renamed_and_deleted() {
    let (app, key) = app();
    let created = create(&app, &key, "Support articles", "EN", &["de", "EN-gb", "zh-HANS"]);
    let id = id_of(&created);
    assert!(is_lower_case_uuid(&id), "{id}");
    assert_eq!(
        created,
        json!({"translation_memory_id": id, "name": "Support articles", "source_language": "en",
               "target_languages": ["de", "en-gb", "zh-hans"], "segment_count": 0})
    );

    // A form body: targets repeated or comma-separated.
    let reply = app.post_form(
        "/v3/translation_memories",
        &key,
        "name=Second&source_language=de&target_languages=en-US&target_languages=fr,es-419",
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let second = reply.json();
    assert_eq!(second["target_languages"], json!(["en-us", "fr", "es-419"]));
    let third = create(&app, &key, "Third", "ja", &["ko", "zh"]);

    let reply = app.call("GET", "/v3/translation_memories", &key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json(), json!({"translation_memories": [created, second, third], "total_count": 3}));
    let reply = app.call("GET", "/v3/translation_memories?page=1&page_size=2", &key);
    assert_eq!(reply.json(), json!({"translation_memories": [third], "total_count": 3}), "oldest first, by pages");
    let reply = app.call("GET", "/v3/translation_memories?page=5", &key);
    assert_eq!(reply.json(), json!({"translation_memories": [], "total_count": 3}));

    let reply = app.call("GET", &format!("/v3/translation_memories/{id}"), &key);
    assert_eq!((reply.status, reply.json()), (200, created.clone()));
    let reply = app.call("GET", &format!("/v3/translation_memories/{}", id.to_uppercase()), &key);
    assert_eq!(reply.status, 200, "ids in any case: {}", reply.text());

    let reply = json_call(&app, "PATCH", &format!("/v3/translation_memories/{id}"), &key, &json!({"name": "Renamed"}));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["name"], "Renamed");
    assert_eq!(reply.json()["target_languages"], created["target_languages"]);

    let reply = app.call("DELETE", &format!("/v3/translation_memories/{id}"), &key);
    assert_eq!((reply.status, reply.body.len()), (204, 0));
    let reply = app.call("GET", &format!("/v3/translation_memories/{id}"), &key);
    assert_eq!((reply.status, message(&reply).as_str()), (404, "Translation memory not found."));
    let reply = app.call("DELETE", &format!("/v3/translation_memories/{id}"), &key);
    assert_eq!(reply.status, 404);
    assert_eq!(app.call("GET", "/v3/translation_memories", &key).json()["total_count"], 2);
}

#[test]
fn bad_parameters_and_methods_are_refused_naming_them_and_create_nothing() {
    let (app, key) = app();
    let valid = json!({"name": "TM", "source_language": "en", "target_languages": ["de"]});
    let with = |field: &str, value: Json| {
        let mut body = valid.clone();
        body[field] = value;
        app.post_json("/v3/translation_memories", &key, &body)
    };
    let without = |field: &str| {
        let mut body = valid.clone();
        body.as_object_mut().unwrap().remove(field);
        app.post_json("/v3/translation_memories", &key, &body)
    };
    assert_400(&without("name"), "Parameter 'name' not specified");
    assert_400(&with("name", json!("  ")), "Parameter 'name' not specified");
    assert_400(
        &with("name", json!("n".repeat(1025))),
        "Value for 'name' not supported: it is longer than 1024 characters.",
    );
    assert_eq!(with("name", json!("é".repeat(1024))).status, 201, "1024 characters are fine");
    assert_400(&with("name", json!(["a"])), "Value for 'name' not supported.");
    assert_400(&without("source_language"), "Parameter 'source_language' not specified");
    let unsupported_source = "Value for 'source_language' not supported: translation memories translate from de, en, es, fr, it, ja, ko or zh.";
    assert_400(&with("source_language", json!("pt")), unsupported_source);
    assert_400(&with("source_language", json!("en-GB")), unsupported_source);
    assert_400(&without("target_languages"), "Parameter 'target_languages' not specified");
    assert_400(&with("target_languages", json!([])), "Parameter 'target_languages' not specified");
    assert_400(
        &with("target_languages", json!(["de", "pt-BR"])),
        "Value for 'target_languages' not supported: 'pt-BR' is not a language translation memories translate into.",
    );
    assert_400(
        &with("target_languages", json!(["de", "DE"])),
        "Value for 'target_languages' not supported: 'de' is listed twice.",
    );
    assert_400(
        &with("target_languages", json!(["EN"])),
        "Value for 'target_languages' not supported: 'en' is the source language.",
    );
    assert_400(&with("target_languages", json!([5])), "Value for 'target_languages' not supported.");
    assert_400(
        &with("tags", json!("x")),
        "Unknown parameter 'tags': this request takes 'name', 'source_language', 'target_languages'.",
    );
    let reply = send(&app, "POST", "/v3/translation_memories", &key, Some(("text/plain", b"name=x")));
    assert_eq!(reply.status, 415, "{}", reply.text());
    let reply = send(&app, "POST", "/v3/translation_memories", &key, Some(("application/json", b"{")));
    assert_eq!(reply.status, 400);
    assert!(message(&reply).starts_with("Invalid request: the body is not valid JSON"), "{}", reply.text());
    let created = app.call("GET", "/v3/translation_memories", &key).json();
    assert_eq!(created["total_count"], 1, "only the valid one: {created}");
    let id = id_of(&created["translation_memories"][0]);

    for (query, expected) in [
        ("page_size=0", "Value for 'page_size' not supported: it must be an integer from 1 to 25."),
        ("page_size=26", "Value for 'page_size' not supported: it must be an integer from 1 to 25."),
        ("page=-1", "Value for 'page' not supported: it must be an integer from 0."),
        ("page=one", "Value for 'page' not supported."),
        ("size=1", "Unknown parameter 'size': this request takes 'page', 'page_size'."),
    ] {
        assert_400(&app.call("GET", &format!("/v3/translation_memories?{query}"), &key), expected);
    }

    let path = format!("/v3/translation_memories/{id}");
    assert_400(&json_call(&app, "PATCH", &path, &key, &json!({})), "Parameter 'name' not specified");
    assert_400(
        &json_call(&app, "PATCH", &path, &key, &json!({"name": "x", "source_language": "de"})),
        "Unknown parameter 'source_language': this request takes 'name'.",
    );
    assert_400(&app.call("GET", "/v3/translation_memories/not-a-uuid", &key), "Invalid translation_memory_id");
    assert_400(&app.call("GET", "/v3/translation_memories/123/segments", &key), "Invalid translation_memory_id");
    assert_400(&app.call("GET", "/v3/translation_memories/x/tmx", &key), "Invalid translation_memory_id");
    assert_400(&app.call("DELETE", &format!("{path}/segments/not-a-uuid"), &key), "Invalid segment_id");
    for (method, unknown) in [
        ("GET", format!("/v3/translation_memories/{UNKNOWN_ID}")),
        ("DELETE", format!("/v3/translation_memories/{UNKNOWN_ID}")),
        ("GET", format!("/v3/translation_memories/{UNKNOWN_ID}/segments")),
        ("GET", format!("/v3/translation_memories/{UNKNOWN_ID}/tmx")),
        ("DELETE", format!("/v3/translation_memories/{UNKNOWN_ID}/segments/{UNKNOWN_ID}")),
    ] {
        let reply = app.call(method, &unknown, &key);
        assert_eq!(
            (reply.status, message(&reply).as_str()),
            (404, "Translation memory not found."),
            "{method} {unknown}"
        );
    }
    let reply = app.call("DELETE", &format!("{path}/segments/{UNKNOWN_ID}"), &key);
    assert_eq!((reply.status, message(&reply).as_str()), (404, "Segment not found."));

    for (method, target, allowed) in [
        ("PUT", "/v3/translation_memories".to_owned(), "GET, POST"),
        ("POST", path.clone(), "GET, PATCH, DELETE"),
        ("PATCH", format!("{path}/segments"), "GET, POST"),
        ("GET", format!("{path}/segments/{UNKNOWN_ID}"), "DELETE"),
        ("DELETE", format!("{path}/tmx"), "GET, POST, PUT"),
    ] {
        let reply = app.call(method, &target, &key);
        assert_eq!(reply.status, 405, "{method} {target}: {}", reply.text());
        assert_eq!(reply.header("allow"), Some(allowed), "{method} {target}");
    }
    let reply = app.call("GET", &format!("{path}/entries"), &key);
    assert_eq!(reply.status, 404);
    let reply = app.call("GET", "/v3/translation_memoriesx", &key);
    assert_eq!(reply.status, 404);

    // Developer keys only.
    let reply = app.call("GET", "/v3/translation_memories", BOOTSTRAP_ADMIN_KEY);
    assert_eq!(reply.status, 403, "{}", reply.text());
    let reply = app.request("GET", "/v3/translation_memories", &[], None);
    assert_eq!(reply.status, 403);
    assert_eq!(segment_count(&app, &key, &id), 0);
}

#[test]
fn segments_are_added_listed_filtered_and_deleted() {
    let (app, key) = app();
    let id = id_of(&create(&app, &key, "TM", "en", &["de", "fr", "en-gb"]));
    let path = format!("/v3/translation_memories/{id}/segments");
    let reply = app.post_json(
        &path,
        &key,
        &json!({"segments": [
            {"source": " Hello, world! ", "target": "Hallo, Welt!", "target_language": "DE"},
            {"source": "The color", "target": "The colour", "target_language": "en-GB"},
            {"source": "Hello, world!", "target": "Hallo, Welt!", "target_language": "de"},
        ]}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let added = reply.json();
    assert_eq!(added["translation_memory_id"], id);
    assert_eq!(added["segment_count"], 2, "a segment sent twice is stored once");
    let segments = added["segments"].as_array().unwrap();
    assert_eq!(segments.len(), 3);
    assert_eq!(segments[0]["source"], "Hello, world!", "trimmed");
    assert_eq!(segments[0]["target_language"], "de");
    assert_eq!(segments[1]["target_language"], "en-gb");
    assert_eq!(segments[0]["segment_id"], segments[2]["segment_id"]);
    let hello = segments[0]["segment_id"].as_str().unwrap().to_owned();

    // A form body carries the segments as JSON text.
    let form = format!(
        "segments={}",
        "%5B%7B%22source%22%3A%22Good%20morning%22%2C%22target%22%3A%22Bonjour%22%2C%22target_language%22%3A%22fr%22%7D%5D"
    );
    let reply = app.post_form(&path, &key, &form);
    assert_eq!(reply.status, 201, "{}", reply.text());
    assert_eq!(reply.json()["segment_count"], 3);
    let reply = app.post_json(
        &path,
        &key,
        &json!({"segments": [{"source": "Hello, world!", "target": "Hallo, Welt!", "target_language": "de"},
                             {"source": "Hello, world!", "target": "Servus, Welt!", "target_language": "de"}]}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    assert_eq!(reply.json()["segments"][0]["segment_id"], hello.as_str(), "held already: answered as stored");
    assert_eq!(reply.json()["segment_count"], 4, "another translation is another segment");

    assert_eq!(
        all_segments(&app, &key, &id),
        [
            triple("de", "Hello, world!", "Hallo, Welt!"),
            triple("de", "Hello, world!", "Servus, Welt!"),
            triple("en-gb", "The color", "The colour"),
            triple("fr", "Good morning", "Bonjour"),
        ]
    );
    let reply = app.call("GET", &format!("{path}?page_size=2"), &key);
    let listed = reply.json();
    assert_eq!(listed["segment_count"], 4, "the translations the memory holds");
    assert_eq!(listed["segments"].as_array().unwrap().len(), 2, "source segments: {listed}");
    let next = listed["next_page_cursor"].as_str().expect("a second page").to_owned();
    let reply = app.call("GET", &format!("{path}?page_size=2&page_cursor={next}"), &key);
    assert_eq!(
        (reply.json()["segments"].as_array().unwrap().len(), &reply.json()["next_page_cursor"]),
        (1, &Json::Null)
    );
    let hellos = app.call("GET", &format!("{path}?filter_text=hello%2C%20WORLD"), &key).json();
    assert_eq!(hellos["segments"].as_array().unwrap().len(), 1, "{hellos}");
    let hello_segment = &hellos["segments"][0];
    assert_eq!(hello_segment["source_text"], "Hello, world!");
    let targets: Vec<&str> =
        hello_segment["targets"].as_array().unwrap().iter().map(|t| t["target_text"].as_str().unwrap()).collect();
    assert_eq!(targets, ["Hallo, Welt!", "Servus, Welt!"], "one source segment, its translations in the order added");
    assert_eq!(hello_segment["targets"][0]["target_segment_id"], hello.as_str(), "the id POST answered");
    assert_eq!(
        listed_segments(&app, &key, &id, "filter_text=bonjour&page_size=1"),
        [triple("fr", "Good morning", "Bonjour")],
        "targets are searched too"
    );
    assert!(listed_segments(&app, &key, &id, "filter_text=bonjour&filter_case_sensitive=true").is_empty());
    assert_400(
        &app.call("GET", &format!("{path}?filter_text=H"), &key),
        "Value for 'filter_text' not supported: it must be at least 2 characters long.",
    );
    assert_400(&app.call("GET", &format!("{path}?page_cursor=nope"), &key), "Value for 'page_cursor' not supported.");
    assert_400(
        &app.call("GET", &format!("{path}?page=1"), &key),
        "Unknown parameter 'page': this request takes 'page_size', 'page_cursor', 'filter_text', 'filter_case_sensitive'.",
    );
    assert_400(
        &app.call("GET", &format!("{path}?page_size=101"), &key),
        "Value for 'page_size' not supported: it must be an integer from 1 to 100.",
    );

    let one = |segment: Json| app.post_json(&path, &key, &json!({"segments": [segment]}));
    let ok = json!({"source": "a", "target": "b", "target_language": "de"});
    let with = |field: &str, value: Json| {
        let mut segment = ok.clone();
        segment[field] = value;
        one(segment)
    };
    assert_400(
        &with("target_language", json!("it")),
        "Value for 'segments[0].target_language' not supported: the translation memory's target languages are de, fr, en-gb.",
    );
    assert_400(&with("source", json!(" ")), "Parameter 'segments[0].source' not specified");
    assert_400(&with("target", json!(null)), "Parameter 'segments[0].target' not specified");
    assert_400(&with("source", json!(1)), "Value for 'segments[0].source' not supported.");
    assert_400(
        &with("target", json!("x".repeat(2001))),
        "Value for 'segments[0].target' not supported: it is longer than 2000 characters.",
    );
    assert_400(
        &with("source", json!("bell \u{7}")),
        "Value for 'segments[0].source' not supported: it contains a control character, which a TMX file cannot carry.",
    );
    assert_400(
        &with("note", json!("x")),
        "Value for 'segments[0].note' not supported: a segment has the fields source, target and target_language.",
    );
    assert_400(&app.post_json(&path, &key, &json!({})), "Parameter 'segments' not specified");
    assert_400(&app.post_json(&path, &key, &json!({"segments": []})), "Parameter 'segments' not specified");
    assert_400(
        &app.post_json(&path, &key, &json!({"segments": {"source": "a"}})),
        "Value for 'segments' not supported: it must be an array of segment objects.",
    );
    assert_400(
        &app.post_json(&path, &key, &json!({"segments": [ok], "name": "x"})),
        "Unknown parameter 'name': this request takes 'segments'.",
    );
    let many: Vec<Json> =
        (0..501).map(|index| json!({"source": format!("s{index}"), "target": "t", "target_language": "de"})).collect();
    assert_400(
        &app.post_json(&path, &key, &json!({"segments": many})),
        "Value for 'segments' not supported: one request adds at most 500 segments; import more as a TMX file.",
    );
    assert_eq!(segment_count(&app, &key, &id), 4, "refused requests add nothing");
    let fine: Vec<Json> =
        (0..500).map(|index| json!({"source": format!("s{index}"), "target": "t", "target_language": "de"})).collect();
    let reply = app.post_json(&path, &key, &json!({"segments": fine}));
    assert_eq!((reply.status, &reply.json()["segment_count"]), (201, &json!(504)));

    let reply = app.call("DELETE", &format!("{path}/{hello}"), &key);
    assert_eq!((reply.status, reply.body.len()), (204, 0));
    let reply = app.call("DELETE", &format!("{path}/{hello}"), &key);
    assert_eq!((reply.status, message(&reply).as_str()), (404, "Segment not found."));
    assert_eq!(segment_count(&app, &key, &id), 503);
    assert!(!all_segments(&app, &key, &id).contains(&triple("de", "Hello, world!", "Hallo, Welt!")));
}

/// A TMX 1.4 file of these units, each a list of (language, the `<seg>`'s content as XML).
fn tmx(units: &[&[(&str, &str)]]) -> String {
    let mut file = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE tmx SYSTEM \"tmx14.dtd\">\n<tmx version=\"1.4\">\n\
         <header creationtool=\"e2e\" creationtoolversion=\"1\" datatype=\"html\" segtype=\"sentence\" \
         adminlang=\"en-US\" srclang=\"en-US\" o-tmf=\"e2e\"><note>made by the test</note></header>\n<body>\n",
    );
    for unit in units {
        file.push_str("  <tu>\n    <prop type=\"x-origin\">test</prop>\n");
        for (language, content) in *unit {
            file.push_str(&format!("    <tuv xml:lang=\"{language}\"><seg>{content}</seg></tuv>\n"));
        }
        file.push_str("  </tu>\n");
    }
    file.push_str("</body>\n</tmx>\n");
    file
}

/// `multipart/form-data` with one part `name` holding `content`.
fn multipart(name: &str, content: &str) -> (String, Vec<u8>) {
    let boundary = "----e2e-boundary-7MA4YWxkTrZu0gW";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"memory.tmx\"\r\n\
         Content-Type: application/x-tmx+xml\r\n\r\n{content}\r\n--{boundary}--\r\n"
    );
    (format!("multipart/form-data; boundary={boundary}"), body.into_bytes())
}

#[test]
fn tmx_files_are_appended_replaced_and_exported_keeping_text_and_dropping_codes() {
    let (app, key) = app();
    let id = id_of(&create(&app, &key, "TM", "en", &["de", "fr", "en-gb"]));
    let path = format!("/v3/translation_memories/{id}/tmx");
    let file = tmx(&[
        &[
            ("en-US", "Click <bpt i=\"1\">&lt;b&gt;</bpt>Save<ept i=\"1\">&lt;/b&gt;</ept> to keep your changes."),
            (
                "de-DE",
                "Klicken Sie auf <bpt i=\"1\">&lt;b&gt;</bpt>Speichern<ept i=\"1\">&lt;/b&gt;</ept>, um Ihre Änderungen zu behalten.",
            ),
            (
                "fr-FR",
                "Cliquez sur <ph x=\"1\">&lt;img alt=\"<sub>Disquette</sub>\"/&gt;</ph>Enregistrer pour conserver vos modifications.",
            ),
            ("ja-JP", "保存をクリックします。"),
        ],
        &[
            ("en", "The color is <hi type=\"b\">red</hi> &amp; bright."),
            ("en-GB", "The colour is red &amp; bright."),
            ("DE", "Die Farbe ist rot &amp; hell."),
        ],
        &[("de", "Ohne Quelle"), ("fr", "Sans source")],
        &[("en", "Empty"), ("de", "  ")],
    ]);
    let reply = send(&app, "POST", &path, &key, Some((TMX, file.as_bytes())));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let imported = reply.json();
    assert_eq!(
        (&imported["imported"], &imported["duplicates"], &imported["skipped"], &imported["segment_count"]),
        (&json!(4), &json!(0), &json!(4), &json!(4)),
        "{imported}"
    );
    assert_eq!(imported["translation_memory_id"], id);
    let expected = vec![
        triple("de", "Click Save to keep your changes.", "Klicken Sie auf Speichern, um Ihre Änderungen zu behalten."),
        triple("de", "The color is red & bright.", "Die Farbe ist rot & hell."),
        triple("en-gb", "The color is red & bright.", "The colour is red & bright."),
        triple("fr", "Click Save to keep your changes.", "Cliquez sur Enregistrer pour conserver vos modifications."),
    ];
    assert_eq!(all_segments(&app, &key, &id), expected);

    // The same file again, as application/xml: nothing new.
    let reply = send(&app, "POST", &path, &key, Some(("application/xml", file.as_bytes())));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let again = reply.json();
    assert_eq!((&again["imported"], &again["duplicates"], &again["segment_count"]), (&json!(0), &json!(4), &json!(4)));

    // A multipart body's `file` part appends too.
    let (content_type, body) = multipart("file", &tmx(&[&[("en", "Good morning"), ("fr", "Bonjour")]]));
    let reply = send(&app, "POST", &path, &key, Some((&content_type, &body)));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!((&reply.json()["imported"], &reply.json()["segment_count"]), (&json!(1), &json!(5)));

    // The export is TMX 1.4 that reads back as the same segments.
    let reply = app.call("GET", &path, &key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/x-tmx+xml; charset=UTF-8"));
    let exported = reply.text();
    assert!(exported.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tmx version=\"1.4\">"), "{exported}");
    assert!(exported.contains("srclang=\"en\""), "{exported}");
    assert!(
        exported.contains("<tuv xml:lang=\"en-GB\"><seg>The colour is red &amp; bright.</seg></tuv>"),
        "{exported}"
    );
    let before = all_segments(&app, &key, &id);
    let copy = id_of(&create(&app, &key, "Copy", "en", &["de", "fr", "en-gb"]));
    let reply =
        send(&app, "PUT", &format!("/v3/translation_memories/{copy}/tmx"), &key, Some((TMX, exported.as_bytes())));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!((&reply.json()["imported"], &reply.json()["skipped"]), (&json!(5), &json!(0)));
    assert_eq!(all_segments(&app, &key, &copy), before, "the round trip keeps every segment");
    let (content_type, body) = multipart("file", &exported);
    let reply = send(&app, "PUT", &path, &key, Some((&content_type, &body)));
    assert_eq!((reply.status, &reply.json()["duplicates"]), (200, &json!(0)), "{}", reply.text());
    assert_eq!(all_segments(&app, &key, &id), before);

    // PUT replaces every segment.
    let reply = send(
        &app,
        "PUT",
        &path,
        &key,
        Some(("text/xml", tmx(&[&[("en", "Only this"), ("de", "Nur das")]]).as_bytes())),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!((&reply.json()["imported"], &reply.json()["segment_count"]), (&json!(1), &json!(1)));
    assert_eq!(all_segments(&app, &key, &id), [triple("de", "Only this", "Nur das")]);
}

#[test]
fn broken_tmx_files_are_refused_naming_the_line_and_change_nothing() {
    let (app, key) = app();
    let id = id_of(&create(&app, &key, "TM", "en", &["de"]));
    let path = format!("/v3/translation_memories/{id}/tmx");
    let post = |content_type: &str, body: &[u8]| send(&app, "POST", &path, &key, Some((content_type, body)));

    let unclosed = "<tmx version=\"1.4\">\n<body>\n<tu>\n<tuv xml:lang=\"en\"><seg>a</tuv>\n</tu></body></tmx>";
    let reply = post(TMX, unclosed.as_bytes());
    assert_eq!(reply.status, 400, "{}", reply.text());
    let refused = message(&reply);
    assert!(refused.starts_with("Invalid TMX file: ") && refused.ends_with("(line 4)."), "{refused}");
    let entity = "<tmx>\n<body>\n<tu>\n<tuv xml:lang=\"en\"><seg>a</seg></tuv>\n<tuv xml:lang=\"de\"><seg>&nbsp;</seg></tuv></tu></body></tmx>";
    assert_400(&post(TMX, entity.as_bytes()), "Invalid TMX file: unknown entity &nbsp; (line 5).");
    assert_400(
        &post(TMX, b"<?xml version=\"1.0\"?>\n<xliff/>"),
        "Invalid TMX file: the root element is <xliff>, not <tmx> (line 2).",
    );
    assert_400(
        &post(TMX, b"<tmx>\n<body>\n<tu>\n<tuv><seg>a</seg></tuv></tu></body></tmx>"),
        "Invalid TMX file: a <tuv> has no xml:lang attribute (line 4).",
    );
    let long = format!("<tmx><body>\n<tu><tuv xml:lang=\"en\"><seg>{}</seg></tuv></tu></body></tmx>", "a".repeat(2001));
    assert_400(&post(TMX, long.as_bytes()), "Invalid TMX file: a segment is longer than 2000 characters (line 2).");
    assert_400(&post(TMX, b"<tmx>\n\xff</tmx>"), "Invalid TMX file: it is not valid UTF-8 (line 2).");
    assert_400(&post(TMX, b""), "Parameter 'file' not specified");
    let (content_type, body) = multipart("document", "<tmx/>");
    assert_400(&post(&content_type, &body), "Unknown parameter 'document': this request takes 'file'.");
    assert_400(
        &post("multipart/form-data; boundary=nope", b"garbage"),
        "Invalid multipart/form-data body: incomplete multipart stream.",
    );
    let reply = post("application/x-www-form-urlencoded", b"file=x");
    assert_eq!(reply.status, 415, "{}", reply.text());
    assert!(message(&reply).contains("application/x-tmx+xml"), "{}", reply.text());
    assert_400(
        &app.call("POST", &format!("{path}?mode=replace"), &key),
        "Unknown parameter 'mode': this request takes no parameters.",
    );
    assert_eq!(segment_count(&app, &key, &id), 0);
}

#[test]
fn a_large_tmx_file_is_imported_in_chunks_appended_and_replaced() {
    let (app, key) = app();
    let id = id_of(&create(&app, &key, "Large", "en", &["de", "fr"]));
    let path = format!("/v3/translation_memories/{id}/tmx");
    let units: Vec<[(String, String); 3]> = (0..3000)
        .map(|index| {
            [
                ("en".to_owned(), format!("Sentence number {index} about the <hi>printer</hi>.")),
                ("de".to_owned(), format!("Satz Nummer {index} über den Drucker.")),
                ("fr".to_owned(), format!("Phrase numéro {index} sur l'imprimante.")),
            ]
        })
        .collect();
    let file = |units: &[[(String, String); 3]]| {
        let borrowed: Vec<Vec<(&str, &str)>> = units
            .iter()
            .map(|unit| unit.iter().map(|(language, text)| (language.as_str(), text.as_str())).collect())
            .collect();
        let slices: Vec<&[(&str, &str)]> = borrowed.iter().map(Vec::as_slice).collect();
        tmx(&slices)
    };
    let started = std::time::Instant::now();
    let reply = send(&app, "PUT", &path, &key, Some((TMX, file(&units[..2000]).as_bytes())));
    eprintln!("replaced with 4,000 segments in {:?}", started.elapsed());
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!((&reply.json()["imported"], &reply.json()["segment_count"]), (&json!(4000), &json!(4000)));
    // An append larger than one transaction: written beside the memory's segments.
    let started = std::time::Instant::now();
    let reply = send(&app, "POST", &path, &key, Some((TMX, file(&units[1000..]).as_bytes())));
    eprintln!("appended 4,000 segments (2,000 new) to 4,000 in {:?}", started.elapsed());
    assert_eq!(reply.status, 200, "{}", reply.text());
    let appended = reply.json();
    assert_eq!(
        (&appended["imported"], &appended["duplicates"], &appended["segment_count"]),
        (&json!(2000), &json!(2000), &json!(6000))
    );
    let reply = app.call(
        "GET",
        &format!("/v3/translation_memories/{id}/segments?filter_text=number%200%20about&page_size=1"),
        &key,
    );
    assert_eq!(reply.json()["segment_count"], 6000);
    assert_eq!(reply.json()["segments"][0]["source_text"], "Sentence number 0 about the printer.");
    assert_eq!(reply.json()["segments"][0]["targets"].as_array().unwrap().len(), 2, "its two translations");
    assert_eq!(all_segments(&app, &key, &id).len(), 6000, "3,000 source segments, paged by their cursors");
    let exported = app.call("GET", &path, &key).text();
    assert_eq!(exported.matches("<tu>").count(), 3000, "one unit per source");
    let reply = send(&app, "PUT", &path, &key, Some((TMX, exported.as_bytes())));
    assert_eq!((&reply.json()["imported"], &reply.json()["segment_count"]), (&json!(6000), &json!(6000)));
}

#[test]
fn a_subscription_never_reaches_another_ones_memories() {
    let (app, key) = app();
    let id = id_of(&create(&app, &key, "Mine", "en", &["de"]));
    let added = app.post_json(
        &format!("/v3/translation_memories/{id}/segments"),
        &key,
        &json!({"segments": [{"source": "Hello", "target": "Hallo", "target_language": "de"}]}),
    );
    let segment = added.json()["segments"][0]["segment_id"].as_str().unwrap().to_owned();

    let (_, other_admin) = app.create_subscription("pro");
    let other = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    let reply = app.call("GET", "/v3/translation_memories", &other);
    assert_eq!(reply.json(), json!({"translation_memories": [], "total_count": 0}));
    let file = tmx(&[&[("en", "Stolen"), ("de", "Gestohlen")]]);
    let segments = json!({"segments": [{"source": "x", "target": "y", "target_language": "de"}]}).to_string();
    let base = format!("/v3/translation_memories/{id}");
    let attempts = [
        send(&app, "GET", &base, &other, None),
        json_call(&app, "PATCH", &base, &other, &json!({"name": "Mine now"})),
        send(&app, "GET", &format!("{base}/segments"), &other, None),
        send(&app, "POST", &format!("{base}/segments"), &other, Some(("application/json", segments.as_bytes()))),
        send(&app, "DELETE", &format!("{base}/segments/{segment}"), &other, None),
        send(&app, "GET", &format!("{base}/tmx"), &other, None),
        send(&app, "POST", &format!("{base}/tmx"), &other, Some((TMX, file.as_bytes()))),
        send(&app, "PUT", &format!("{base}/tmx"), &other, Some((TMX, file.as_bytes()))),
        send(&app, "DELETE", &base, &other, None),
    ];
    for reply in attempts {
        assert_eq!(
            (reply.status, message(&reply).as_str()),
            (404, "Translation memory not found."),
            "{}",
            reply.text()
        );
    }
    let mine = app.call("GET", &base, &key).json();
    assert_eq!((&mine["name"], &mine["segment_count"]), (&json!("Mine"), &json!(1)), "untouched");
}

#[test]
fn oversized_bodies_are_refused() {
    use std::io::{Read, Write};
    let (app, key) = app();
    let id = id_of(&create(&app, &key, "TM", "en", &["de"]));
    // Announced as 64 MiB and a byte: refused before a byte of it is read.
    let mut stream = std::net::TcpStream::connect(app.base_url.trim_start_matches("http://")).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
    let head = format!(
        "PUT /v3/translation_memories/{id}/tmx HTTP/1.1\r\nHost: x\r\nAuthorization: Service-Auth-Key {key}\r\nContent-Type: {TMX}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        (64 << 20) + 1
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(b"<tmx>").unwrap();
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(reply.contains("64 MiB"), "{reply}");

    // Without an Authorization header, no more than 128 KiB is read: 200 KiB announced is refused
    // before a byte of it is read (sent as a head only, so the refusal cannot break the upload).
    let reply = head_only(
        &app,
        &format!("POST /v3/translation_memories/{id}/tmx"),
        &format!("Content-Type: {TMX}\r\n"),
        200 * 1024,
    );
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(reply.contains("Authorization"), "{reply}");
    // A request of a few parameters is read up to 64 KiB.
    let name = "n".repeat(70 * 1024);
    let reply = app.post_json(
        "/v3/translation_memories",
        &key,
        &json!({"name": name, "source_language": "en", "target_languages": ["de"]}),
    );
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert_eq!(segment_count(&app, &key, &id), 0);
}

/// The raw reply to a request line (`PUT /path`) with `headers` (each ending in CRLF) that
/// announces a body of `length` bytes and sends none of it: what the application answers before
/// it reads a body.
fn head_only(app: &TestApp, request_line: &str, headers: &str, length: usize) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(app.base_url.trim_start_matches("http://")).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
    let head =
        format!("{request_line} HTTP/1.1\r\nHost: x\r\n{headers}Content-Length: {length}\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    String::from_utf8_lossy(&reply).into_owned()
}

/// Adds segments (source, target, target language) to a memory.
fn add_segments(app: &TestApp, key: &str, id: &str, segments: &[(&str, &str, &str)]) {
    let segments: Vec<Json> = segments
        .iter()
        .map(|(source, target, language)| json!({"source": source, "target": target, "target_language": language}))
        .collect();
    let reply = app.post_json(&format!("/v3/translation_memories/{id}/segments"), key, &json!({"segments": segments}));
    assert_eq!(reply.status, 201, "{}", reply.text());
}

fn translated(reply: &Reply) -> String {
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["translations"][0]["text"].as_str().unwrap().to_owned()
}

#[test]
fn a_segment_the_memory_holds_comes_back_verbatim_and_others_are_translated() {
    let (app, key) = app();
    let id = id_of(&create(&app, &key, "Manual", "en", &["de", "fr"]));
    add_segments(
        &app,
        &key,
        &id,
        &[
            ("Press the red button.", "Drücken Sie die rote Taste.", "de"),
            ("Press the red button.", "Appuyez sur le bouton rouge.", "fr"),
        ],
    );
    let text = "press the RED button! Press the green button.";
    let request = |text: &str, target: &str, memory: Option<&str>, threshold: u64| {
        let mut body = json!({"text": [text], "source_lang": "EN", "target_lang": target,
                              "translation_memory_threshold": threshold, "show_billed_characters": true});
        if let Some(memory) = memory {
            body["translation_memory_id"] = json!(memory);
        }
        app.post_json("/v2/translate", &key, &body)
    };
    // The first sentence is the memory's (the same words after normalising case and punctuation);
    // the second, a close match only, is the engine's: the deterministic engine takes no examples.
    let second = translated(&request("Press the green button.", "DE", None, 75));
    let with_memory = request(text, "DE", Some(&id), 75);
    assert_eq!(translated(&with_memory), format!("Drücken Sie die rote Taste. {second}"));
    assert_eq!(with_memory.json()["translations"][0]["billed_characters"], text.chars().count(), "billed as usual");
    assert!(translated(&request(text, "FR", Some(&id), 100)).starts_with("Appuyez sur le bouton rouge. "));

    // A target the memory does not hold, an unknown memory, another subscription's memory: no
    // translation, nothing billed.
    let usage = || app.call("GET", "/v2/usage", &key).json()["character_count"].clone();
    let before = usage();
    let refused = request(text, "IT", Some(&id), 75);
    assert_eq!(refused.status, 404);
    assert_eq!(message(&refused), format!("Translation Memory {id} does not support the target language IT"));
    assert_eq!(request(text, "DE", Some(UNKNOWN_ID), 75).status, 404);
    let (_, other_admin) = app.create_subscription("pro");
    let other = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    let theirs = app.post_json(
        "/v2/translate",
        &other,
        &json!({"text": [text], "source_lang": "EN", "target_lang": "DE", "translation_memory_id": id}),
    );
    assert_eq!(theirs.status, 404, "{}", theirs.text());
    assert_eq!(usage(), before);
}

#[test]
fn close_matches_reach_an_engine_that_follows_instructions_only_from_the_threshold() {
    let (port, received) = e2e::fake_chat_server(r#"["Drücken Sie die grüne Taste."]"#);
    let app = TestApp::start(Options::app().with_openai_at(port));
    let key = app.developer_key();
    let id = id_of(&create(&app, &key, "Manual", "en", &["de"]));
    add_segments(&app, &key, &id, &[("Press the red button now.", "Drücken Sie jetzt die rote Taste.", "de")]);
    // "Press the green button now." differs from the stored source by one word in five: 80.
    let ask = |threshold: u64| {
        let reply = app.post_json(
            "/v2/translate",
            &key,
            &json!({"text": ["Press the green button now."], "source_lang": "EN", "target_lang": "DE",
                    "translation_memory_id": id, "translation_memory_threshold": threshold}),
        );
        assert_eq!(translated(&reply), "Drücken Sie die grüne Taste.");
        received.lock().unwrap().last().cloned().unwrap()
    };
    let prompt = ask(75);
    assert!(prompt.contains("Earlier approved translations"), "{prompt}");
    assert!(prompt.contains("Drücken Sie jetzt die rote Taste."), "{prompt}");
    let prompt = ask(85);
    assert!(!prompt.contains("Earlier approved translations"), "below the threshold: {prompt}");
    assert!(!prompt.contains("rote Taste"), "{prompt}");
}

#[test]
fn the_official_python_and_node_clients_list_read_apply_delete_import_page_and_export_memories() {
    let (app, key) = app();
    let folder = tempfile::tempdir().expect("a folder for the files");
    let file = tmx(&[
        &[("en-US", "Press the red button."), ("de-DE", "Drücken Sie die rote Taste."), ("pt-BR", "Aperte o botão.")],
        &[("en-US", "Wait."), ("fr-FR", "Attendez."), ("de-DE", "Warten Sie.")],
    ]);
    let tmx_path = folder.path().join("client import.tmx");
    std::fs::write(&tmx_path, &file).expect("write the TMX file");
    let tmx_path = tmx_path.to_str().unwrap();
    for (client, name) in [("python", "Python memory"), ("node", "Node memory")] {
        let id = id_of(&create(&app, &key, name, "en", &["de", "fr"]));
        add_segments(&app, &key, &id, &[("Press the red button.", "Drücken Sie die rote Taste.", "de")]);
        let export_path = folder.path().join(format!("{client} export.tmx"));
        let args = [id.as_str(), tmx_path, export_path.to_str().unwrap()];
        let report = match client {
            "python" => app.python_client_report_with("memories.py", &key, &args),
            _ => app.node_client_report_with("memories.mjs", &key, &args),
        };
        let expected = json!({"translation_memory_id": id, "name": name, "source_language": "en",
                              "target_languages": ["de", "fr"], "segment_count": 1});
        assert_eq!(report["listed"], json!([expected]), "{client}: {report}");
        assert_eq!(report["got"], expected, "{client}");
        let translated = report["translated"].as_str().unwrap();
        assert!(translated.starts_with("Drücken Sie die rote Taste. "), "{client}: {translated}");
        let wrong = report["wrong_target"].as_str().unwrap();
        assert!(wrong.contains("does not support the target language IT"), "{client}: {wrong}");
        let gone = report["after_delete"].as_str().unwrap();
        assert!(gone.contains("not found") || gone.contains("Not found"), "{client}: {gone}");

        // Import, listing, export: the job-based calls.
        let imported_id = report["import"]["result_memory"].as_str().expect("the imported memory").to_owned();
        assert_eq!(
            report["import"],
            json!({"operation": "import", "status": "completed", "display_name": "Client import",
                   "translation_memory_id": null, "result_memory": imported_id, "skipped": 1,
                   "has_download_url": false}),
            "{client}"
        );
        assert_eq!(
            report["imported"],
            json!({"translation_memory_id": imported_id, "name": "Client import", "source_language": "en",
                   "target_languages": ["de", "fr"], "segment_count": 3}),
            "{client}"
        );
        let mut pages: Vec<Json> = report["pages"].as_array().unwrap().clone();
        assert_eq!(pages.len(), 2, "one source segment a page: {client}: {pages:?}");
        pages.sort_by_key(|page| page.to_string());
        assert_eq!(
            json!(pages),
            json!([
                [["Press the red button.", [["de", "Drücken Sie die rote Taste."]]]],
                [["Wait.", [["de", "Warten Sie."], ["fr", "Attendez."]]]],
            ]),
            "{client}"
        );
        assert_eq!(
            (&report["segment_count"], &report["filtered"]),
            (&json!(3), &json!(["Press the red button."])),
            "{client}"
        );
        assert_eq!(report["translated_with_import"], "Attendez.", "{client}");
        assert_eq!(report["export_reused"], json!([false, true, true]), "{client}");
        assert_eq!(
            report["export"],
            json!({"operation": "export", "status": "completed", "display_name": null,
                   "translation_memory_id": imported_id, "result_memory": null, "skipped": null,
                   "has_download_url": true}),
            "{client}"
        );
        let exported = std::fs::read_to_string(&export_path).expect("the client wrote the export");
        assert!(
            exported.contains("<seg>Attendez.</seg>") && exported.contains("<seg>Warten Sie.</seg>"),
            "{client}: {exported}"
        );
        if client == "python" {
            // Read back by the standard library's XML parser.
            assert_eq!(
                report["exported_units"],
                json!([
                    [["en", "Press the red button."], ["de", "Drücken Sie die rote Taste."]],
                    [["en", "Wait."], ["de", "Warten Sie."], ["fr", "Attendez."]],
                ]),
                "{exported}"
            );
        }
        assert_eq!(app.call("GET", &format!("/v3/translation_memories/{imported_id}"), &key).status, 404, "deleted");
    }
}

/// The path and query of an absolute URL the application answered, which must point at it.
fn path_of(app: &TestApp, url: &str) -> String {
    let path = url.strip_prefix(app.base_url.as_str()).unwrap_or_else(|| panic!("{url} is not at {}", app.base_url));
    path.to_owned()
}

/// A job's one result.
fn result_of(job: &Json) -> Json {
    let results = job["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{job}");
    results[0].clone()
}

#[test]
fn a_tmx_file_is_imported_and_a_memory_exported_through_jobs_and_their_urls() {
    let (app, key) = app();
    let file = tmx(&[
        &[("en-US", "Press the red button."), ("de-DE", "Drücken Sie die rote Taste."), ("pt-BR", "Aperte o botão.")],
        &[("en-US", "Wait."), ("fr-FR", "Attendez."), ("de-DE", "Warten Sie.")],
    ]);
    let length = file.len().to_string();
    let declare = |name: &str, length: usize, content_type: Option<&str>| {
        let mut source_file = json!({"file_name": name, "content_length": length});
        if let Some(content_type) = content_type {
            source_file["content_type"] = json!(content_type);
        }
        app.post_json(
            "/v3/translation_memories/import",
            &key,
            &json!({"source_file": source_file, "parameters": {"display_name": "Imported"}}),
        )
    };
    let reply = declare("legal.tmx", file.len(), None);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let created = reply.json();
    let job_id = created["job_id"].as_str().unwrap().to_owned();
    assert!(is_lower_case_uuid(&job_id));
    assert_eq!((&created["operation"], &created["product"]), (&json!("import"), &json!("translation_memory")));
    assert_eq!(
        created["source_file"],
        json!({"file_name": "legal.tmx", "content_type": "application/xml", "content_length": file.len()})
    );
    assert_eq!(result_of(&created)["status"], "awaiting_input");
    assert!(created["expires_at"].as_str().unwrap().ends_with('Z'));
    let upload = path_of(&app, created["upload_url"].as_str().unwrap());
    assert!(upload.starts_with(&format!("/v3/translation_memories/jobs/{job_id}/file?token=")), "{upload}");

    let job_path = format!("/v3/translation_memories/jobs/{job_id}");
    let waiting = app.call("GET", &job_path, &key).json();
    assert_eq!(result_of(&waiting)["status"], "awaiting_input", "{waiting}");
    assert!(result_of(&waiting)["status_metadata"]["required_action"].is_string());

    // The upload URL takes the file without a key, as declared, once.
    let put = |path: &str, content_type: &str, body: &[u8]| {
        app.request("PUT", path, &[("content-type", content_type)], Some(body))
    };
    let wrong_token = upload.replace("token=", "token=0");
    assert_eq!(put(&wrong_token, "application/xml", file.as_bytes()).status, 404);
    // A body past what unauthenticated requests may send is refused by its URL before it is read.
    // (Sent as heads only, announcing 1 MiB, so that the refusal cannot break the upload.)
    let reply = head_only(&app, &format!("PUT {wrong_token}"), "Content-Type: application/xml\r\n", 1 << 20);
    assert!(reply.starts_with("HTTP/1.1 404"), "{reply}");
    let reply = head_only(&app, &format!("PUT {upload}"), "Content-Type: application/xml\r\n", 1 << 20);
    assert!(
        reply.starts_with("HTTP/1.1 400") && reply.contains("The file has 1048576 bytes"),
        "not the declared length: {reply}"
    );
    let reply = put(&upload, "text/plain", file.as_bytes());
    assert_eq!(
        (reply.status, message(&reply).as_str()),
        (
            400,
            "The file's Content-Type is 'text/plain', not 'application/xml' as declared when the import was created."
        )
    );
    let reply = put(&upload, "application/xml", b"<tmx/>");
    assert_eq!(
        (reply.status, message(&reply)),
        (400, format!("The file has 6 bytes, not {length} as declared when the import was created."))
    );
    let reply = put(&upload, "application/xml; charset=utf-8", file.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
    let done = result_of(&reply.json());
    assert_eq!((&done["status"], &done["skipped_segment_count"]), (&json!("completed"), &json!(1)), "{done}");
    let memory_id = done["translation_memory_id"].as_str().unwrap().to_owned();
    let reply = put(&upload, "application/xml", file.as_bytes());
    assert_eq!(
        (reply.status, message(&reply).as_str()),
        (409, "This upload URL was used already: create a new import.")
    );
    let finished = app.call("GET", &job_path, &key).json();
    assert_eq!(result_of(&finished)["translation_memory_id"], memory_id.as_str());

    let memory = app.call("GET", &format!("/v3/translation_memories/{memory_id}"), &key).json();
    assert_eq!(
        memory,
        json!({"translation_memory_id": memory_id, "name": "Imported", "source_language": "en",
               "target_languages": ["de", "fr"], "segment_count": 3})
    );
    assert_eq!(
        all_segments(&app, &key, &memory_id),
        [
            triple("de", "Press the red button.", "Drücken Sie die rote Taste."),
            triple("de", "Wait.", "Warten Sie."),
            triple("fr", "Wait.", "Attendez."),
        ]
    );
    let reply = app.post_json(
        "/v2/translate",
        &key,
        &json!({"text": ["Wait."], "source_lang": "EN", "target_lang": "FR", "translation_memory_id": memory_id}),
    );
    assert_eq!(translated(&reply), "Attendez.", "the imported memory is used");

    // A file that cannot be imported fails its job, says why, and leaves no memory.
    let broken = "<tmx><header srclang=\"en\"/><body>\n<tu><tuv xml:lang=\"en\"><seg>a</seg></tuv>\n<tuv xml:lang=\"de\"><seg>b</tuv></tu></body></tmx>";
    let reply = declare("broken.tmx", broken.len(), Some("application/x-tmx+xml"));
    let broken_upload = path_of(&app, reply.json()["upload_url"].as_str().unwrap());
    let broken_job = reply.json()["job_id"].as_str().unwrap().to_owned();
    let reply = put(&broken_upload, "application/x-tmx+xml", broken.as_bytes());
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert!(
        message(&reply).starts_with("Invalid TMX file:") && message(&reply).contains("(line 3)"),
        "{}",
        reply.text()
    );
    let failed = result_of(&app.call("GET", &format!("/v3/translation_memories/jobs/{broken_job}"), &key).json());
    assert_eq!((&failed["status"], &failed["error"]["message"]), (&json!("failed"), &json!(message(&reply))));
    assert_eq!(app.call("GET", "/v3/translation_memories", &key).json()["total_count"], 1);

    // Bad declarations are refused naming the field.
    for (body, status, expected) in [
        (json!({}), 400, "Parameter 'source_file' not specified"),
        (json!({"source_file": {"content_length": 1}}), 400, "Parameter 'source_file.file_name' not specified"),
        (
            json!({"source_file": {"file_name": "a.tmx", "content_length": 0}}),
            400,
            "Value for 'source_file.content_length' not supported: it must be an integer from 1 to 67108864.",
        ),
        (
            json!({"source_file": {"file_name": "a.tmx", "content_length": 67108865}}),
            413,
            "Request Entity Too Large: a TMX file may not exceed 64 MiB (67108864 bytes).",
        ),
        (
            json!({"source_file": {"file_name": "a.tmx", "content_length": 1, "content_type": "text/csv"}}),
            400,
            "Value for 'source_file.content_type' not supported: 'text/csv' is no TMX media type (application/xml, text/xml or application/x-tmx+xml).",
        ),
        (
            json!({"source_file": {"file_name": "a.tmx", "content_length": 1}, "parameters": {"glossary": "x"}}),
            400,
            "Value for 'parameters.glossary' not supported.",
        ),
        (
            json!({"source_file": {"file_name": "a.tmx", "content_length": 1}, "name": "x"}),
            400,
            "Unknown parameter 'name': this request takes 'source_file', 'parameters'.",
        ),
    ] {
        let reply = app.post_json("/v3/translation_memories/import", &key, &body);
        assert_eq!((reply.status, message(&reply).as_str()), (status, expected), "{body}");
    }
    assert_400(&app.call("GET", "/v3/translation_memories/jobs/nope", &key), "Invalid job_id");
    let reply = app.call("GET", &format!("/v3/translation_memories/jobs/{UNKNOWN_ID}"), &key);
    assert_eq!((reply.status, message(&reply).as_str()), (404, "Job not found."));
    assert_eq!(app.request("GET", &job_path, &[], None).status, 403, "a job is read with a key");
    let reply = app.call("GET", "/v3/translation_memories/import", &key);
    assert_eq!((reply.status, reply.header("allow")), (405, Some("POST")));

    // An export: made at once, reused while the memory is unchanged, downloaded without a key.
    let export_path = format!("/v3/translation_memories/{memory_id}/export");
    let reply = app.call("POST", &export_path, &key);
    assert_eq!(reply.status, 202, "{}", reply.text());
    let export = reply.json();
    assert_eq!(
        (&export["operation"], &export["parameters"]["translation_memory_id"]),
        (&json!("export"), &json!(memory_id))
    );
    let export_result = result_of(&export);
    assert_eq!(export_result["status"], "completed");
    let reply = app.call("POST", &export_path, &key);
    assert_eq!((reply.status, &reply.json()["job_id"]), (200, &export["job_id"]), "reused");
    let download = path_of(&app, export_result["download_url"].as_str().unwrap());
    let reply = app.get(&download);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/x-tmx+xml; charset=UTF-8"));
    assert_eq!(reply.header("content-disposition"), Some("attachment; filename=\"Imported.tmx\""));
    let exported = reply.text();
    assert_eq!(exported.matches("<tu>").count(), 2, "one unit per source: {exported}");
    assert!(exported.contains("Drücken Sie die rote Taste.") && exported.contains("Attendez."), "{exported}");
    let export_job = format!("/v3/translation_memories/jobs/{}", export["job_id"].as_str().unwrap());
    assert_eq!(result_of(&app.call("GET", &export_job, &key).json())["status"], "downloaded");
    assert_eq!(app.get(&download.replace("token=", "token=1")).status, 404);
    assert_eq!(
        app.get(&upload.replace(&job_id, export["job_id"].as_str().unwrap())).status,
        404,
        "another job's token"
    );

    // The memory changes: the export expires, and a new one has the change.
    add_segments(&app, &key, &memory_id, &[("Yes.", "Ja.", "de")]);
    let reply = app.get(&download);
    assert_eq!(reply.status, 410, "{}", reply.text());
    let expired = result_of(&app.call("GET", &export_job, &key).json());
    assert_eq!(expired["status"], "expired", "{expired}");
    assert!(expired["error"]["message"].as_str().unwrap().contains("create a new export"));
    let reply = app.call("POST", &export_path, &key);
    assert_eq!(reply.status, 202);
    let fresh = path_of(&app, result_of(&reply.json())["download_url"].as_str().unwrap());
    assert!(app.get(&fresh).text().contains("<seg>Ja.</seg>"));

    // A file larger than an unauthenticated request may send goes to its upload URL too.
    let units: Vec<[(&str, String); 2]> = (0..2000)
        .map(|index| {
            [
                ("en", format!("Sentence number {index} about the printer.")),
                ("es", format!("Frase número {index} sobre la impresora.")),
            ]
        })
        .collect();
    let borrowed: Vec<Vec<(&str, &str)>> =
        units.iter().map(|unit| unit.iter().map(|(language, text)| (*language, text.as_str())).collect()).collect();
    let slices: Vec<&[(&str, &str)]> = borrowed.iter().map(Vec::as_slice).collect();
    let large_file = tmx(&slices);
    assert!(large_file.len() > 128 * 1024);
    let reply = declare("large.tmx", large_file.len(), None);
    let large_upload = path_of(&app, reply.json()["upload_url"].as_str().unwrap());
    let reply = put(&large_upload, "application/xml", large_file.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
    let large_memory = result_of(&reply.json())["translation_memory_id"].as_str().unwrap().to_owned();
    assert_eq!(segment_count(&app, &key, &large_memory), 2000);

    // Another subscription reaches neither the jobs nor the memory's export.
    let (_, other_admin) = app.create_subscription("pro");
    let other = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    assert_eq!(app.call("GET", &job_path, &other).status, 404);
    assert_eq!(app.call("POST", &export_path, &other).status, 404);
    assert_eq!(app.call("POST", &format!("/v3/translation_memories/{UNKNOWN_ID}/export"), &key).status, 404);
}
