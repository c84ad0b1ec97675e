//! Component `glossaries` (v2 and v3 glossary endpoints) and glossaries in `POST /v2/translate`:
//! creation in every format, listing, reading, merging (concurrent merges included), replacing
//! and deleting, every entry validation rule, tenancy, terms in translations (plain text, XML,
//! HTML), a 100,000-entry glossary, and the official Python client library.
//!
//! The deterministic engine turns every word into a pseudo-word of the same length and keeps
//! everything else, so an expected translation is built from the pseudo-words of its non-term
//! words (asked for without a glossary, see [`pseudo`]) and the target terms.

use e2e::{BOOTSTRAP_ADMIN_KEY, Json, Options, Reply, TestApp, json};

/// The message of every entry validation error.
const INVALID_ENTRIES: &str = "Invalid glossary entries provided";
/// A glossary id no subscription has.
const UNKNOWN_ID: &str = "0b5a3e1c-7d2f-4c1a-9e8b-3f6d2a1c0e9f";

fn app() -> (TestApp, String) {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    (app, key)
}

/// A request with `key`, an optional JSON body and extra headers.
fn send(app: &TestApp, method: &str, path: &str, key: &str, body: Option<&Json>, extra: &[(&str, &str)]) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    let mut headers = vec![("authorization", authorization.as_str())];
    let body = body.map(|body| body.to_string());
    if body.is_some() {
        headers.push(("content-type", "application/json"));
    }
    headers.extend_from_slice(extra);
    app.request(method, path, &headers, body.as_deref().map(str::as_bytes))
}

fn json_call(app: &TestApp, method: &str, path: &str, key: &str, body: &Json) -> Reply {
    send(app, method, path, key, Some(body), &[])
}

/// `application/x-www-form-urlencoded` for these pairs.
fn form(pairs: &[(&str, &str)]) -> String {
    let encode = |text: &str| {
        text.bytes()
            .map(|byte| match byte {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (byte as char).to_string(),
                _ => format!("%{byte:02X}"),
            })
            .collect::<String>()
    };
    pairs.iter().map(|(name, value)| format!("{}={}", encode(name), encode(value))).collect::<Vec<_>>().join("&")
}

fn message(reply: &Reply) -> String {
    reply.json()["message"].as_str().unwrap_or_default().to_owned()
}

/// Creates a v2 glossary and answers the created glossary.
fn create_v2(app: &TestApp, key: &str, name: &str, source: &str, target: &str, entries: &str) -> Json {
    let body = json!({"name": name, "source_lang": source, "target_lang": target, "entries": entries});
    let reply = app.post_json("/v2/glossaries", key, &body);
    assert_eq!(reply.status, 201, "creating {name}: {}", reply.text());
    reply.json()
}

/// Creates a v3 glossary and answers the created glossary.
fn create_v3(app: &TestApp, key: &str, name: &str, dictionaries: Json) -> Json {
    let reply = app.post_json("/v3/glossaries", key, &json!({"name": name, "dictionaries": dictionaries}));
    assert_eq!(reply.status, 201, "creating {name}: {}", reply.text());
    reply.json()
}

fn id_of(glossary: &Json) -> String {
    glossary["glossary_id"].as_str().expect("a glossary id").to_owned()
}

/// The ids of a listing, in its order.
fn listed(app: &TestApp, key: &str, version: &str) -> Vec<String> {
    let reply = app.call("GET", &format!("/{version}/glossaries"), key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["glossaries"].as_array().expect("a list").iter().map(id_of).collect()
}

/// The v2 entries of a glossary (TSV).
fn v2_entries(app: &TestApp, key: &str, id: &str) -> String {
    let reply = app.call("GET", &format!("/v2/glossaries/{id}/entries"), key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.text()
}

/// The v3 entries of one dictionary (TSV).
fn v3_entries(app: &TestApp, key: &str, id: &str, source: &str, target: &str) -> String {
    let reply = app.call("GET", &format!("/v3/glossaries/{id}/entries?source_lang={source}&target_lang={target}"), key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["dictionaries"][0]["entries"].as_str().expect("entries").to_owned()
}

/// Lines of a TSV, sorted, for comparisons that do not depend on order.
fn sorted_lines(tsv: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = tsv.split('\n').collect();
    lines.sort_unstable();
    lines
}

/// Whether `text` is `YYYY-MM-DDTHH:MM:SS.mmmZ`.
fn is_timestamp(text: &str) -> bool {
    let shape = "dddd-dd-ddTdd:dd:dd.dddZ";
    text.len() == shape.len()
        && text.bytes().zip(shape.bytes()).all(|(byte, want)| match want {
            b'd' => byte.is_ascii_digit(),
            other => byte == other,
        })
}

/// Whether `text` is a lower-case hyphenated UUID.
fn is_lower_case_uuid(text: &str) -> bool {
    text.len() == 36
        && text.char_indices().all(|(at, character)| match at {
            8 | 13 | 18 | 23 => character == '-',
            _ => character.is_ascii_digit() || ('a'..='f').contains(&character),
        })
}

fn translate(app: &TestApp, key: &str, body: Json) -> Reply {
    app.post_json("/v2/translate", key, &body)
}

/// The translations of a request that must succeed.
fn translated(app: &TestApp, key: &str, body: Json) -> Vec<String> {
    translate(app, key, body).translated_texts()
}

/// The pseudo-words the deterministic engine makes of `words` for this pair, without a glossary.
fn pseudo(app: &TestApp, key: &str, source: &str, target: &str, words: &[&str]) -> Vec<String> {
    translated(app, key, json!({"text": words, "source_lang": source, "target_lang": target}))
}

fn character_count(app: &TestApp, key: &str) -> i64 {
    app.call("GET", "/v2/usage", key).json()["character_count"].as_i64().expect("a count")
}

#[test]
fn a_v2_glossary_is_created_listed_read_and_deleted() {
    let (app, key) = app();

    // JSON body, TSV by default, with CRLF, a blank line and a trailing newline; a request time
    // with an offset comes out in UTC with milliseconds.
    let reply = send(
        &app,
        "POST",
        "/v2/glossaries",
        &key,
        Some(
            &json!({"name": "Product terms", "source_lang": "EN", "target_lang": "De", "entries": "world\tWelt\r\n\r\nHello\tHallo\n"}),
        ),
        &[("x-service-test-time", "2026-11-21T12:00:00.5+02:00")],
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let created = reply.json();
    let id = id_of(&created);
    assert!(is_lower_case_uuid(&id), "{id}");
    assert_eq!(
        created,
        json!({"glossary_id": id, "name": "Product terms", "ready": true, "source_lang": "en", "target_lang": "de",
               "creation_time": "2026-11-21T10:00:00.500Z", "entry_count": 2})
    );

    // A form body, and the wall clock.
    let body = form(&[
        ("name", "Form terms"),
        ("source_lang", "en"),
        ("target_lang", "FR"),
        ("entries", "house\tmaison\ncar\tvoiture"),
        ("entries_format", "tsv"),
    ]);
    let reply = app.post_form("/v2/glossaries", &key, &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let from_form = reply.json();
    assert_eq!(from_form["name"], "Form terms");
    assert_eq!((&from_form["source_lang"], &from_form["target_lang"]), (&json!("en"), &json!("fr")));
    assert_eq!(from_form["entry_count"], 2);
    assert_eq!(from_form["ready"], true);
    let wall_clock = from_form["creation_time"].as_str().unwrap();
    assert!(is_timestamp(wall_clock), "{wall_clock}");

    // CSV with quoting and language columns: rows for another pair are skipped.
    let csv = "\"Hello, world\",\"Hallo, \"\"Welt\"\"\"\nhouse,Haus,en,de\ncar,voiture,en,fr\ntree,Baum,EN,DE\n\nsky,Himmel,en\n";
    let reply = app.post_json(
        "/v2/glossaries",
        &key,
        &json!({"name": "CSV terms", "source_lang": "EN", "target_lang": "DE", "entries": csv, "entries_format": "csv"}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let from_csv = reply.json();
    assert_eq!(from_csv["entry_count"], 4);
    assert_eq!(
        v2_entries(&app, &key, &id_of(&from_csv)),
        "Hello, world\tHallo, \"Welt\"\nhouse\tHaus\ntree\tBaum\nsky\tHimmel"
    );

    // Listed oldest first, each as created; read one by one.
    let listing = app.call("GET", "/v2/glossaries", &key).json();
    assert_eq!(listing, json!({"glossaries": [created, from_form, from_csv]}));
    let read = app.call("GET", &format!("/v2/glossaries/{id}"), &key);
    assert_eq!(read.status, 200);
    assert_eq!(read.json(), created);

    // Entries: TSV in upload order, whatever Accept allows it.
    let entries_path = format!("/v2/glossaries/{id}/entries");
    let authorization = format!("Service-Auth-Key {key}");
    for accept in [
        None,
        Some("*/*"),
        Some("text/*"),
        Some("text/tab-separated-values"),
        Some("application/json, text/tab-separated-values;q=0.5"),
    ] {
        let mut headers = vec![("authorization", authorization.as_str())];
        if let Some(accept) = accept {
            headers.push(("accept", accept));
        }
        let reply = app.request("GET", &entries_path, &headers, None);
        assert_eq!(reply.status, 200, "Accept {accept:?}: {}", reply.text());
        assert_eq!(reply.header("content-type"), Some("text/tab-separated-values; charset=UTF-8"), "Accept {accept:?}");
        assert_eq!(reply.text(), "world\tWelt\nHello\tHallo", "Accept {accept:?}");
    }
    let refused =
        app.request("GET", &entries_path, &[("authorization", &authorization), ("accept", "application/json")], None);
    assert_eq!(refused.status, 415);
    assert_eq!(refused.json(), json!({"message": "No supported media type specified in Accept header"}));

    // Deleted: gone everywhere.
    let deleted = app.call("DELETE", &format!("/v2/glossaries/{id}"), &key);
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    assert!(deleted.body.is_empty());
    let not_found = json!({"message": "Glossary not found."});
    for (method, path) in
        [("GET", format!("/v2/glossaries/{id}")), ("GET", entries_path), ("DELETE", format!("/v2/glossaries/{id}"))]
    {
        let reply = app.call(method, &path, &key);
        assert_eq!(reply.status, 404, "{method} {path}");
        assert_eq!(reply.json(), not_found, "{method} {path}");
    }
    assert_eq!(listed(&app, &key, "v2"), [id_of(&from_form), id_of(&from_csv)]);
}

#[test]
fn a_v3_glossary_holds_dictionaries_that_are_merged_replaced_and_deleted() {
    let (app, key) = app();
    let created = create_v3(
        &app,
        &key,
        "Multilingual",
        json!([
            {"source_lang": "EN", "target_lang": "DE", "entries": "Hello\tHallo\nworld\tWelt"},
            {"source_lang": "de", "target_lang": "en", "entries": "Haus\thouse", "entries_format": "tsv"},
        ]),
    );
    let id = id_of(&created);
    assert!(is_lower_case_uuid(&id), "{id}");
    assert!(is_timestamp(created["creation_time"].as_str().unwrap()), "{created}");
    assert_eq!(
        created,
        json!({"glossary_id": id, "name": "Multilingual", "creation_time": created["creation_time"],
               "dictionaries": [{"source_lang": "en", "target_lang": "de", "entry_count": 2},
                                {"source_lang": "de", "target_lang": "en", "entry_count": 1}]})
    );
    // A form carries the dictionaries as JSON text.
    let from_form = app.post_form(
        "/v3/glossaries",
        &key,
        &form(&[
            ("name", "From a form"),
            ("dictionaries", r#"[{"source_lang": "EN", "target_lang": "IT", "entries": "a\tb"}]"#),
        ]),
    );
    assert_eq!(from_form.status, 201, "{}", from_form.text());
    assert_eq!(from_form.json()["dictionaries"], json!([{"source_lang": "en", "target_lang": "it", "entry_count": 1}]));
    let from_form_id = id_of(&from_form.json());
    assert_eq!(app.call("DELETE", &format!("/v3/glossaries/{from_form_id}"), &key).status, 204);
    let one_pair = create_v2(&app, &key, "One pair", "EN", "FR", "Hello\tBonjour");
    let one_pair_id = id_of(&one_pair);

    // v3 lists everything (a v2 glossary as one dictionary); v2 only what has one dictionary.
    assert_eq!(listed(&app, &key, "v3"), [id.as_str(), one_pair_id.as_str()]);
    assert_eq!(listed(&app, &key, "v2"), [one_pair_id.as_str()]);
    let as_v3 = app.call("GET", &format!("/v3/glossaries/{one_pair_id}"), &key).json();
    assert_eq!(
        as_v3,
        json!({"glossary_id": one_pair_id, "name": "One pair", "creation_time": one_pair["creation_time"],
               "dictionaries": [{"source_lang": "en", "target_lang": "fr", "entry_count": 1}]})
    );
    assert_eq!(app.call("GET", &format!("/v3/glossaries/{id}"), &key).json(), created);

    // v2 cannot describe two dictionaries and says where to look.
    let pointer = json!({"message": format!("Glossary {id} holds 2 dictionaries: read it with /v3/glossaries/{id}.")});
    for path in [format!("/v2/glossaries/{id}"), format!("/v2/glossaries/{id}/entries")] {
        let reply = app.call("GET", &path, &key);
        assert_eq!(reply.status, 400, "{path}");
        assert_eq!(reply.json(), pointer, "{path}");
    }

    // Rename.
    let path = format!("/v3/glossaries/{id}");
    let renamed = json_call(&app, "PATCH", &path, &key, &json!({"name": "Renamed"}));
    assert_eq!(renamed.status, 200, "{}", renamed.text());
    assert_eq!(renamed.json()["name"], "Renamed");
    assert_eq!(renamed.json()["dictionaries"], created["dictionaries"]);
    assert_eq!(app.call("GET", &path, &key).json()["name"], "Renamed");

    // Merge: a new source is added, an existing source gets the new target.
    let merged = json_call(
        &app,
        "PATCH",
        &path,
        &key,
        &json!({"dictionaries": [{"source_lang": "EN", "target_lang": "DE", "entries": "world\tErde\ncar\tAuto"}]}),
    );
    assert_eq!(merged.status, 200, "{}", merged.text());
    assert_eq!(
        merged.json()["dictionaries"],
        json!([{"source_lang": "en", "target_lang": "de", "entry_count": 3}, {"source_lang": "de", "target_lang": "en", "entry_count": 1}]),
        "the merged dictionary keeps its place"
    );
    assert_eq!(sorted_lines(&v3_entries(&app, &key, &id, "en", "de")), ["Hello\tHallo", "car\tAuto", "world\tErde"]);

    // A merge into a pair the glossary lacks creates its dictionary.
    let added = json_call(
        &app,
        "PATCH",
        &path,
        &key,
        &json!({"name": "Three pairs", "dictionaries": [{"source_lang": "en", "target_lang": "fr", "entries": "Hello\tBonjour"}]}),
    );
    assert_eq!(added.status, 200, "{}", added.text());
    assert_eq!(added.json()["name"], "Three pairs");
    assert_eq!(added.json()["dictionaries"].as_array().unwrap().len(), 3);

    // A PATCH with two dictionaries, or with nothing, changes nothing.
    let two = json_call(
        &app,
        "PATCH",
        &path,
        &key,
        &json!({"name": "Not this", "dictionaries": [
            {"source_lang": "en", "target_lang": "de", "entries": "sun\tSonne"},
            {"source_lang": "en", "target_lang": "fr", "entries": "sun\tsoleil"},
        ]}),
    );
    assert_eq!(two.status, 400, "{}", two.text());
    let nothing = json_call(&app, "PATCH", &path, &key, &json!({}));
    assert_eq!(nothing.status, 400);
    assert_eq!(nothing.json(), json!({"message": "Parameter 'name' or 'dictionaries' not specified"}));
    assert_eq!(app.call("GET", &path, &key).json(), added.json());

    // PUT replaces a whole dictionary (JSON), or creates one (form).
    let dictionaries_path = format!("/v3/glossaries/{id}/dictionaries");
    let replaced = json_call(
        &app,
        "PUT",
        &dictionaries_path,
        &key,
        &json!({"source_lang": "EN", "target_lang": "DE", "entries": "car\tWagen", "entries_format": "tsv"}),
    );
    assert_eq!(replaced.status, 200, "{}", replaced.text());
    assert_eq!(replaced.json(), json!({"source_lang": "en", "target_lang": "de", "entry_count": 1}));
    let entries = app.call("GET", &format!("/v3/glossaries/{id}/entries?source_lang=EN&target_lang=DE"), &key);
    assert_eq!(entries.status, 200);
    assert_eq!(
        entries.json(),
        json!({"dictionaries": [{"source_lang": "en", "target_lang": "de", "entries": "car\tWagen", "entries_format": "tsv"}]})
    );
    let put_form =
        form(&[("source_lang", "en"), ("target_lang", "es"), ("entries", "car,coche"), ("entries_format", "csv")]);
    let authorization = format!("Service-Auth-Key {key}");
    let created_pair = app.request(
        "PUT",
        &dictionaries_path,
        &[("authorization", &authorization), ("content-type", "application/x-www-form-urlencoded")],
        Some(put_form.as_bytes()),
    );
    assert_eq!(created_pair.status, 200, "{}", created_pair.text());
    assert_eq!(created_pair.json(), json!({"source_lang": "en", "target_lang": "es", "entry_count": 1}));
    let pairs: Vec<(String, String)> = app.call("GET", &path, &key).json()["dictionaries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|info| {
            (info["source_lang"].as_str().unwrap().to_owned(), info["target_lang"].as_str().unwrap().to_owned())
        })
        .collect();
    let pair = |source: &str, target: &str| (source.to_owned(), target.to_owned());
    assert_eq!(
        pairs,
        [pair("en", "de"), pair("de", "en"), pair("en", "fr"), pair("en", "es")],
        "in the order they were sent; a replaced dictionary keeps its place"
    );

    // Entries need both languages, and a pair the glossary has.
    let missing = app.call("GET", &format!("/v3/glossaries/{id}/entries?target_lang=de"), &key);
    assert_eq!(missing.status, 400);
    assert_eq!(missing.json(), json!({"message": "Parameter 'source_lang' not specified"}));
    let missing = app.call("GET", &format!("/v3/glossaries/{id}/entries?source_lang=en"), &key);
    assert_eq!(missing.json(), json!({"message": "Parameter 'target_lang' not specified"}));
    let no_dictionary = json!({"message": "Glossary dictionary not found."});
    let unknown_pair = app.call("GET", &format!("/v3/glossaries/{id}/entries?source_lang=en&target_lang=it"), &key);
    assert_eq!(unknown_pair.status, 404);
    assert_eq!(unknown_pair.json(), no_dictionary);

    // Deleting dictionaries: by query string, then by a JSON body.
    let delete_fr = format!("{dictionaries_path}?source_lang=EN&target_lang=FR");
    let deleted = app.call("DELETE", &delete_fr, &key);
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    let again = app.call("DELETE", &delete_fr, &key);
    assert_eq!(again.status, 404);
    assert_eq!(again.json(), no_dictionary);
    let gone = app.call("GET", &format!("/v3/glossaries/{id}/entries?source_lang=en&target_lang=fr"), &key);
    assert_eq!(gone.status, 404);
    let deleted =
        json_call(&app, "DELETE", &dictionaries_path, &key, &json!({"source_lang": "de", "target_lang": "en"}));
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    let deleted = app.call("DELETE", &format!("{dictionaries_path}?source_lang=en&target_lang=es"), &key);
    assert_eq!(deleted.status, 204, "{}", deleted.text());

    // Down to one dictionary, the glossary is a v2 glossary too.
    let as_v2 = app.call("GET", &format!("/v2/glossaries/{id}"), &key);
    assert_eq!(as_v2.status, 200, "{}", as_v2.text());
    assert_eq!(
        as_v2.json(),
        json!({"glossary_id": id, "name": "Three pairs", "ready": true, "source_lang": "en", "target_lang": "de",
               "creation_time": created["creation_time"], "entry_count": 1})
    );
    assert_eq!(listed(&app, &key, "v2"), [id.as_str(), one_pair_id.as_str()]);
    assert_eq!(v2_entries(&app, &key, &id), "car\tWagen");

    let deleted = app.call("DELETE", &path, &key);
    assert_eq!(deleted.status, 204);
    let reply = app.call("GET", &path, &key);
    assert_eq!(reply.status, 404);
    assert_eq!(reply.json(), json!({"message": "Glossary not found."}));
    assert_eq!(listed(&app, &key, "v3"), [one_pair_id.as_str()]);
    // A v2 glossary is deleted through v3 too.
    assert_eq!(app.call("DELETE", &format!("/v3/glossaries/{one_pair_id}"), &key).status, 204);
    assert!(listed(&app, &key, "v3").is_empty());
}

#[test]
fn every_broken_entry_rule_is_a_400_with_a_detail_and_creates_nothing() {
    let (app, key) = app();
    let kept = create_v2(&app, &key, "Kept", "EN", "DE", "Hello\tHallo");
    let kept_id = id_of(&kept);
    let at = |index: usize, position: usize, what: &str| {
        format!("Entry with the index {index} (starting at position {position}) {what}")
    };
    let long = "a".repeat(1025);
    let tsv_cases: Vec<(String, String)> = vec![
        ("Hello\tHallo\nworld\tWelt\nno tab here".into(), at(2, 23, "misses tab separator")),
        ("Hello\tHallo\r\n\r\nno tab".into(), at(1, 15, "misses tab separator")),
        ("a\tb\tc".into(), at(0, 0, "has more than one tab separator")),
        (
            "Hello\tHallo\nworld\tWelt\nHello\tServus".into(),
            "Key with the index 2 (starting at position 23) duplicates key with the index 0 (starting at position 0)"
                .into(),
        ),
        ("\tHallo".into(), at(0, 0, "has an empty source term")),
        ("Hello\tHallo\nworld\t".into(), at(1, 12, "has an empty target term")),
        ("Hello\tHal\u{7}lo".into(), at(0, 0, "contains a control character (U+0007) in its target term")),
        ("Hel\u{85}lo\tHallo".into(), at(0, 0, "contains a control character (U+0085) in its source term")),
        ("Hello\tHal\u{7f}lo".into(), at(0, 0, "contains a control character (U+007F) in its target term")),
        ("Hello\u{2028}world\tHallo".into(), at(0, 0, "contains a control character (U+2028) in its source term")),
        ("Hello\tHal\u{2029}lo".into(), at(0, 0, "contains a control character (U+2029) in its target term")),
        (" Hello\tHallo".into(), at(0, 0, "has leading or trailing whitespace in its source term")),
        ("Hello\tHallo ".into(), at(0, 0, "has leading or trailing whitespace in its target term")),
        ("Hello\u{a0}\tHallo".into(), at(0, 0, "has leading or trailing whitespace in its source term")),
        (format!("{long}\tx"), at(0, 0, "has a source term longer than 1024 UTF-8 bytes")),
        (format!("x\t{}", "é".repeat(513)), at(0, 0, "has a target term longer than 1024 UTF-8 bytes")),
        ("\n \r\n".into(), "No entries provided".into()),
    ];
    for (entries, detail) in &tsv_cases {
        let body = json!({"name": "Broken", "source_lang": "EN", "target_lang": "DE", "entries": entries});
        let reply = app.post_json("/v2/glossaries", &key, &body);
        assert_eq!(reply.status, 400, "{entries:?}: {}", reply.text());
        assert_eq!(reply.json(), json!({"message": INVALID_ENTRIES, "detail": detail}), "{entries:?}");
    }
    let csv_cases = [
        ("a,b\nc,d,en,de,x", at(1, 4, "has 5 columns; expected 2 to 4")),
        ("car,voiture,en,fr\nbike,vélo,EN,FR", "No entries provided".to_owned()),
        (
            "Hello,Hallo\n\"Hello\",Servus",
            "Key with the index 1 (starting at position 12) duplicates key with the index 0 (starting at position 0)"
                .to_owned(),
        ),
        ("Hello,\" Hallo\"", at(0, 0, "has leading or trailing whitespace in its target term")),
    ];
    for (entries, detail) in &csv_cases {
        let body = json!({"name": "Broken", "source_lang": "EN", "target_lang": "DE", "entries": entries, "entries_format": "csv"});
        let reply = app.post_json("/v2/glossaries", &key, &body);
        assert_eq!(reply.status, 400, "{entries:?}: {}", reply.text());
        assert_eq!(reply.json(), json!({"message": INVALID_ENTRIES, "detail": detail}), "{entries:?}");
    }
    // Exactly 1024 bytes is allowed.
    let longest = create_v2(&app, &key, "Longest", "EN", "DE", &format!("{}\t{}", "é".repeat(512), "b".repeat(1024)));
    assert_eq!(longest["entry_count"], 1);
    assert_eq!(app.call("DELETE", &format!("/v2/glossaries/{}", id_of(&longest)), &key).status, 204);

    // The same rules hold in every v3 dictionary; a broken second dictionary creates nothing.
    let reply = app.post_json(
        "/v3/glossaries",
        &key,
        &json!({"name": "Broken", "dictionaries": [
            {"source_lang": "EN", "target_lang": "FR", "entries": "Hello\tBonjour"},
            {"source_lang": "EN", "target_lang": "ES", "entries": "Hello\tHola\nHello\tBuenas"},
        ]}),
    );
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.json(),
        json!({"message": INVALID_ENTRIES,
               "detail": "Key with the index 1 (starting at position 11) duplicates key with the index 0 (starting at position 0)"})
    );

    // Broken entries in a PATCH or a PUT change nothing.
    let patch = json_call(
        &app,
        "PATCH",
        &format!("/v3/glossaries/{kept_id}"),
        &key,
        &json!({"name": "Changed", "dictionaries": [{"source_lang": "EN", "target_lang": "DE", "entries": "world\tWelt\nbad"}]}),
    );
    assert_eq!(patch.status, 400);
    assert_eq!(patch.json()["detail"], at(1, 11, "misses tab separator"));
    let put = json_call(
        &app,
        "PUT",
        &format!("/v3/glossaries/{kept_id}/dictionaries"),
        &key,
        &json!({"source_lang": "EN", "target_lang": "DE", "entries": "\tWelt"}),
    );
    assert_eq!(put.status, 400);
    assert_eq!(put.json()["detail"], at(0, 0, "has an empty source term"));
    assert_eq!(app.call("GET", &format!("/v2/glossaries/{kept_id}"), &key).json(), kept);
    assert_eq!(v2_entries(&app, &key, &kept_id), "Hello\tHallo");

    assert_eq!(listed(&app, &key, "v2"), [kept_id.as_str()], "no refused create left anything");
    assert_eq!(listed(&app, &key, "v3"), [kept_id]);
}

/// The start of a reply's text, for failure messages about huge requests.
fn excerpt(reply: &Reply) -> String {
    reply.text().chars().take(300).collect()
}

#[test]
fn entries_over_10_mib_are_refused() {
    let (app, key) = app();
    let line = "abcdefghijklmnopqrstuvwxyz0123456789\tABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\n";
    let mut entries = line.repeat((10 << 20) / line.len() + 1);
    entries.truncate((10 << 20) + 1);
    let reply = app.post_json(
        "/v2/glossaries",
        &key,
        &json!({"name": "Huge", "source_lang": "EN", "target_lang": "DE", "entries": entries}),
    );
    assert_eq!(reply.status, 413, "{}", excerpt(&reply));
    let message = message(&reply);
    assert!(message.contains("may not exceed 10 MiB (10485760 bytes)"), "{message}");
    assert!(listed(&app, &key, "v3").is_empty());
}

#[test]
fn bodies_over_64_mib_are_refused() {
    use std::io::{Read, Write};
    let (app, key) = app();
    // Announced as 64 MiB and a byte: refused before a byte of it is read, so the client need not
    // send it (a client that sends it anyway finds the connection closed).
    let mut stream = std::net::TcpStream::connect(app.base_url.trim_start_matches("http://")).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST /v2/glossaries HTTP/1.1\r\nHost: x\r\nAuthorization: Service-Auth-Key {key}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        (64 << 20) + 1
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(b"name=Huge&source_lang=EN&target_lang=DE&entries=").unwrap();
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(reply.contains("64 MiB"), "{reply}");
    assert!(listed(&app, &key, "v3").is_empty());
}

#[test]
fn bad_parameters_are_400s_that_name_them_and_create_nothing() {
    let (app, key) = app();
    let kept = id_of(&create_v2(&app, &key, "Kept", "EN", "DE", "Hello\tHallo"));
    let valid = json!({"name": "Terms", "source_lang": "EN", "target_lang": "DE", "entries": "Hello\tHallo"});
    // The valid body with one parameter changed, or removed (`null`).
    let with = |name: &str, value: Json| {
        let mut body = valid.clone();
        match value {
            Json::Null => {
                body.as_object_mut().unwrap().remove(name);
            }
            value => body[name] = value,
        }
        body
    };
    let not_supported = |name: &str| format!("Value for '{name}' not supported.");
    let cases = [
        (with("name", Json::Null), "Parameter 'name' not specified".to_owned()),
        (with("name", json!("")), "Parameter 'name' not specified".to_owned()),
        (with("entries", Json::Null), "Parameter 'entries' not specified".to_owned()),
        (with("entries", json!("")), "Parameter 'entries' not specified".to_owned()),
        (with("source_lang", Json::Null), "Parameter 'source_lang' not specified".to_owned()),
        (with("target_lang", Json::Null), "Parameter 'target_lang' not specified".to_owned()),
        (with("entries_format", json!("xlsx")), not_supported("entries_format")),
        (with("source_lang", json!("TH")), not_supported("source_lang")),
        (with("target_lang", json!("th")), not_supported("target_lang")),
        (with("source_lang", json!("XX")), not_supported("source_lang")),
        (with("target_lang", json!("en-GB")), "Glossaries are not supported for the language pair EN → EN.".to_owned()),
        (with("target_lang", json!("EN")), "Glossaries are not supported for the language pair EN → EN.".to_owned()),
    ];
    for (body, expected) in &cases {
        let reply = app.post_json("/v2/glossaries", &key, body);
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        assert_eq!(reply.json(), json!({"message": expected}), "{body}");
    }
    for name in ["n".repeat(1025), "é".repeat(513), "Tab\tin name".to_owned(), "Bell\u{7}".to_owned()] {
        let reply = app.post_json("/v2/glossaries", &key, &with("name", json!(name)));
        assert_eq!(reply.status, 400, "{name:?}: {}", reply.text());
        assert!(message(&reply).starts_with("Value for 'name' not supported: "), "{name:?}: {}", reply.text());
    }
    let longest_name = "é".repeat(512);
    let created = app.post_json("/v2/glossaries", &key, &with("name", json!(longest_name)));
    assert_eq!(created.status, 201, "a name of exactly 1024 bytes: {}", created.text());
    assert_eq!(created.json()["name"], longest_name.as_str());
    assert_eq!(app.call("DELETE", &format!("/v2/glossaries/{}", id_of(&created.json())), &key).status, 204);

    // v3: dictionaries are required, non-empty, one per pair; a rename needs a valid name too.
    for (body, expected) in [
        (json!({"name": "Terms"}), Some("Parameter 'dictionaries' not specified")),
        (json!({"name": "Terms", "dictionaries": []}), Some("Parameter 'dictionaries' not specified")),
        (
            json!({"dictionaries": [{"source_lang": "EN", "target_lang": "DE", "entries": "a\tb"}]}),
            Some("Parameter 'name' not specified"),
        ),
        (
            json!({"name": "Terms", "dictionaries": [{"source_lang": "EN", "target_lang": "TH", "entries": "a\tb"}]}),
            Some("Value for 'target_lang' not supported."),
        ),
        (
            json!({"name": "Terms", "dictionaries": [
                {"source_lang": "EN", "target_lang": "DE", "entries": "a\tb"},
                {"source_lang": "en", "target_lang": "de-DE", "entries": "c\td"},
            ]}),
            None,
        ),
    ] {
        let reply = app.post_json("/v3/glossaries", &key, &body);
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        if let Some(expected) = expected {
            assert_eq!(reply.json(), json!({"message": expected}), "{body}");
        }
    }
    let rename = json_call(&app, "PATCH", &format!("/v3/glossaries/{kept}"), &key, &json!({"name": "x".repeat(1025)}));
    assert_eq!(rename.status, 400);
    assert!(message(&rename).starts_with("Value for 'name' not supported: "), "{}", rename.text());

    assert_eq!(listed(&app, &key, "v3"), [kept.as_str()], "no refused request created anything");
    assert_eq!(app.call("GET", &format!("/v3/glossaries/{kept}"), &key).json()["name"], "Kept");
}

#[test]
fn a_subscription_never_reaches_another_ones_glossaries() {
    let (app, key) = app();
    let one_pair = create_v2(&app, &key, "Mine", "EN", "DE", "house\tHaus");
    let one_pair_id = id_of(&one_pair);
    let two_pairs = create_v3(
        &app,
        &key,
        "Mine too",
        json!([{"source_lang": "EN", "target_lang": "DE", "entries": "car\tAuto"},
               {"source_lang": "EN", "target_lang": "FR", "entries": "car\tvoiture"}]),
    );
    let two_pairs_id = id_of(&two_pairs);

    let (_, other_admin) = app.create_subscription("pro");
    let other = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    assert!(listed(&app, &other, "v2").is_empty());
    assert!(listed(&app, &other, "v3").is_empty());
    let not_found = json!({"message": "Glossary not found."});
    let dictionary = json!({"source_lang": "EN", "target_lang": "DE", "entries": "house\tGebäude"});
    for id in [&one_pair_id, &two_pairs_id] {
        let attempts = [
            send(&app, "GET", &format!("/v2/glossaries/{id}"), &other, None, &[]),
            send(&app, "GET", &format!("/v2/glossaries/{id}/entries"), &other, None, &[]),
            send(&app, "GET", &format!("/v3/glossaries/{id}"), &other, None, &[]),
            send(&app, "GET", &format!("/v3/glossaries/{id}/entries?source_lang=en&target_lang=de"), &other, None, &[]),
            json_call(&app, "PATCH", &format!("/v3/glossaries/{id}"), &other, &json!({"name": "Stolen"})),
            json_call(&app, "PATCH", &format!("/v3/glossaries/{id}"), &other, &json!({"dictionaries": [dictionary]})),
            json_call(&app, "PUT", &format!("/v3/glossaries/{id}/dictionaries"), &other, &dictionary),
            send(
                &app,
                "DELETE",
                &format!("/v3/glossaries/{id}/dictionaries?source_lang=en&target_lang=de"),
                &other,
                None,
                &[],
            ),
            send(&app, "DELETE", &format!("/v3/glossaries/{id}"), &other, None, &[]),
            send(&app, "DELETE", &format!("/v2/glossaries/{id}"), &other, None, &[]),
        ];
        for (index, reply) in attempts.iter().enumerate() {
            assert_eq!(reply.status, 404, "attempt {index} on {id}: {}", reply.text());
            assert_eq!(reply.json(), not_found, "attempt {index} on {id}");
        }
        let used = translate(
            &app,
            &other,
            json!({"text": ["a house"], "source_lang": "EN", "target_lang": "DE", "glossary_id": id}),
        );
        assert_eq!(used.status, 404);
        assert_eq!(used.json(), json!({"message": format!("Glossary {id} not found.")}));
    }
    // The owner's glossaries are untouched.
    assert_eq!(app.call("GET", &format!("/v2/glossaries/{one_pair_id}"), &key).json(), one_pair);
    assert_eq!(v2_entries(&app, &key, &one_pair_id), "house\tHaus");
    assert_eq!(app.call("GET", &format!("/v3/glossaries/{two_pairs_id}"), &key).json(), two_pairs);

    // Admin keys and requests without a key are refused; malformed ids name nothing.
    for (method, path) in [
        ("GET", "/v2/glossaries".to_owned()),
        ("GET", "/v3/glossaries".to_owned()),
        ("GET", format!("/v2/glossaries/{one_pair_id}")),
        ("DELETE", format!("/v3/glossaries/{two_pairs_id}")),
    ] {
        assert_eq!(app.call(method, &path, BOOTSTRAP_ADMIN_KEY).status, 403, "{method} {path} with an admin key");
        assert_eq!(app.request(method, &path, &[], None).status, 403, "{method} {path} without a key");
    }
    let by_admin = app.post_json(
        "/v2/glossaries",
        BOOTSTRAP_ADMIN_KEY,
        &json!({"name": "Admin", "source_lang": "EN", "target_lang": "DE", "entries": "a\tb"}),
    );
    assert_eq!(by_admin.status, 403);
    for path in [
        "/v2/glossaries/not-a-uuid",
        "/v2/glossaries/not-a-uuid/entries",
        "/v3/glossaries/1234",
        "/v3/glossaries/1234/entries?source_lang=en&target_lang=de",
    ] {
        let reply = app.call("GET", path, &key);
        assert_eq!(reply.status, 404, "{path}");
        assert_eq!(reply.json(), not_found, "{path}");
    }
    assert_eq!(app.call("DELETE", "/v3/glossaries/not-a-uuid", &key).json(), not_found);
    assert_eq!(listed(&app, &key, "v3"), [one_pair_id, two_pairs_id]);
}

#[test]
fn translations_use_the_terms_of_v2_and_v3_glossaries_in_text_xml_and_html() {
    let (app, key) = app();
    let v2 = id_of(&create_v2(&app, &key, "German", "EN", "DE", "house\tHaus\nbig\tgroß"));
    let v3 = id_of(&create_v3(
        &app,
        &key,
        "Two pairs",
        json!([{"source_lang": "EN", "target_lang": "DE", "entries": "house\tGebäude"},
               {"source_lang": "EN", "target_lang": "FR", "entries": "house\tmaison"}]),
    ));
    let de = pseudo(&app, &key, "EN", "DE", &["The", "is", "big", "My"]);
    let (the, is, big, my) = (&de[0], &de[1], &de[2], &de[3]);

    let plain = |glossary: &str, target: &str, extra: Json| {
        let mut body =
            json!({"text": ["The house is big."], "source_lang": "EN", "target_lang": target, "glossary_id": glossary});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        translated(&app, &key, body).remove(0)
    };
    assert_eq!(plain(&v2, "DE", json!({})), format!("{the} Haus {is} groß."));
    assert_eq!(plain(&v3, "DE", json!({})), format!("{the} Gebäude {is} {big}."));
    let fr = pseudo(&app, &key, "EN", "FR", &["The", "is", "big"]);
    assert_eq!(plain(&v3, "FR", json!({})), format!("{} maison {} {}.", fr[0], fr[1], fr[2]));

    // A term inside a tag, in XML and HTML.
    for handling in ["xml", "html"] {
        let reply = translated(
            &app,
            &key,
            json!({"text": ["<p>The <b>house</b> is big.</p>"], "source_lang": "EN", "target_lang": "DE",
                   "glossary_id": v2, "tag_handling": handling}),
        );
        assert_eq!(reply[0], format!("<p>{the} <b>Haus</b> {is} groß.</p>"), "{handling}");
    }

    // With and without sentence splitting; a capitalised occurrence starting a sentence gives
    // a capitalised target term.
    let fr_words = pseudo(&app, &key, "EN", "FR", &["My", "is", "big"]);
    for split in ["0", "1"] {
        let german = plain(&v2, "DE", json!({"split_sentences": split}));
        assert_eq!(german, format!("{the} Haus {is} groß."), "split_sentences={split}");
        let reply = translated(
            &app,
            &key,
            json!({"text": ["My house is big. House is big!"], "source_lang": "EN", "target_lang": "DE",
                   "glossary_id": v2, "split_sentences": split}),
        );
        assert_eq!(reply[0], format!("{my} Haus {is} groß. Haus {is} groß!"), "split_sentences={split}");
        let reply = translated(
            &app,
            &key,
            json!({"text": ["My house is big. House is big!"], "source_lang": "EN", "target_lang": "FR",
                   "glossary_id": v3, "split_sentences": split}),
        );
        let (fr_my, fr_is, fr_big) = (&fr_words[0], &fr_words[1], &fr_words[2]);
        assert_eq!(
            reply[0],
            format!("{fr_my} maison {fr_is} {fr_big}. Maison {fr_is} {fr_big}!"),
            "split_sentences={split}"
        );
    }
}

#[test]
fn the_longest_term_wins_and_an_exact_case_entry_beats_a_case_insensitive_one() {
    let (app, key) = app();
    let glossary = id_of(&create_v2(
        &app,
        &key,
        "Spanish",
        "EN",
        "ES",
        "red house\tcasa roja\nhouse\tcasa\nred\trojo\napple\tmanzana\nApple\tApple",
    ));
    let words = pseudo(&app, &key, "EN", "ES", &["The", "and", "the", "car", "sells", "juice", "rules", "A", "my"]);
    let [the_upper, and, the, car, sells, juice, rules, a, my] = <[String; 9]>::try_from(words).unwrap();
    let reply = translated(
        &app,
        &key,
        json!({"text": [
            "The red house and the red car.",
            "Apple sells apple juice.",
            "House rules. A house, my HOUSE.",
            "Red House rules.",
        ], "source_lang": "EN", "target_lang": "ES", "glossary_id": glossary}),
    );
    assert_eq!(reply[0], format!("{the_upper} casa roja {and} {the} rojo {car}."));
    assert_eq!(reply[1], format!("Apple {sells} manzana {juice}."));
    assert_eq!(reply[2], format!("Casa {rules}. {a} casa, {my} casa."));
    assert_eq!(reply[3], format!("Casa roja {rules}."));
}

#[test]
fn a_capitalised_occurrence_inside_a_sentence_keeps_the_target_term_as_defined() {
    let (app, key) = app();
    let glossary = id_of(&create_v2(&app, &key, "Spanish", "EN", "ES", "house\tcasa"));
    let words = pseudo(&app, &key, "EN", "ES", &["We", "paint", "today"]);
    let reply = translated(
        &app,
        &key,
        json!({"text": ["We paint House today."], "source_lang": "EN", "target_lang": "ES", "glossary_id": glossary}),
    );
    assert_eq!(reply[0], format!("{} {} casa {}.", words[0], words[1], words[2]));
}

#[test]
fn a_target_term_keeps_its_case_with_preserve_formatting() {
    let (app, key) = app();
    let glossary = id_of(&create_v2(&app, &key, "German", "EN", "DE", "house\tHaus"));
    let words = pseudo(&app, &key, "EN", "DE", &["prices", "rise"]);
    let reply = translated(
        &app,
        &key,
        json!({"text": ["house prices rise"], "source_lang": "EN", "target_lang": "DE", "glossary_id": glossary,
               "preserve_formatting": true}),
    );
    assert_eq!(reply[0], format!("Haus {} {}", words[0], words[1]));
}

#[test]
fn with_several_glossaries_the_first_named_wins() {
    let (app, key) = app();
    let first = id_of(&create_v2(&app, &key, "First", "EN", "DE", "house\tHaus\nred\trot"));
    let second = id_of(&create_v3(
        &app,
        &key,
        "Second",
        json!([{"source_lang": "EN", "target_lang": "DE", "entries": "house\tGebäude\ncar\tAuto"}]),
    ));
    let words = pseudo(&app, &key, "EN", "DE", &["The", "and"]);
    let (the, and) = (&words[0], &words[1]);
    let with = |ids: Json| {
        translated(
            &app,
            &key,
            json!({"text": ["The red house and car."], "source_lang": "EN", "target_lang": "DE", "glossary_ids": ids}),
        )
        .remove(0)
    };
    assert_eq!(with(json!([first, second])), format!("{the} rot Haus {and} Auto."));
    assert_eq!(with(json!([second, first])), format!("{the} rot Gebäude {and} Auto."));
    assert_eq!(
        with(json!([second])),
        format!("{the} {} Gebäude {and} Auto.", pseudo(&app, &key, "EN", "DE", &["red"])[0])
    );
    let six = vec![first.clone(); 6];
    let reply =
        translate(&app, &key, json!({"text": ["x"], "source_lang": "EN", "target_lang": "DE", "glossary_ids": six}));
    assert_eq!(reply.status, 400, "{}", reply.text());
}

#[test]
fn glossaries_that_cannot_apply_are_refused_and_bill_nothing() {
    let (app, key) = app();
    let english_german = id_of(&create_v2(&app, &key, "EN-DE", "EN", "DE", "house\tHaus"));
    let before = character_count(&app, &key);

    let no_source =
        translate(&app, &key, json!({"text": ["a house"], "target_lang": "DE", "glossary_id": english_german}));
    assert_eq!(no_source.status, 400);
    assert_eq!(
        no_source.json(),
        json!({"message": "Use of a glossary requires the source_lang parameter to be specified"})
    );

    let unknown = translate(
        &app,
        &key,
        json!({"text": ["a house"], "source_lang": "EN", "target_lang": "DE", "glossary_id": UNKNOWN_ID}),
    );
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.json(), json!({"message": format!("Glossary {UNKNOWN_ID} not found.")}));
    let one_unknown = translate(
        &app,
        &key,
        json!({"text": ["a house"], "source_lang": "EN", "target_lang": "DE", "glossary_ids": [english_german, UNKNOWN_ID]}),
    );
    assert_eq!(one_unknown.status, 404);
    assert_eq!(one_unknown.json(), json!({"message": format!("Glossary {UNKNOWN_ID} not found.")}));

    for (source, target, pair) in [("EN", "FR", "EN-FR"), ("DE", "EN-GB", "DE-EN")] {
        let reply = translate(
            &app,
            &key,
            json!({"text": ["a house"], "source_lang": source, "target_lang": target, "glossary_id": english_german}),
        );
        assert_eq!(reply.status, 400, "{source} → {target}: {}", reply.text());
        assert_eq!(reply.json(), json!({"message": format!("No dictionary found for language pair {pair}")}));
    }
    let applied = translate(
        &app,
        &key,
        json!({"text": ["a house"], "source_lang": "en", "target_lang": "de", "glossary_id": english_german}),
    );
    assert_eq!(applied.status, 200, "{}", applied.text());
    let deleted = app.call("DELETE", &format!("/v2/glossaries/{english_german}"), &key);
    assert_eq!(deleted.status, 204);
    let after_delete = translate(
        &app,
        &key,
        json!({"text": ["a house"], "source_lang": "EN", "target_lang": "DE", "glossary_id": english_german}),
    );
    assert_eq!(after_delete.status, 404);
    assert_eq!(character_count(&app, &key), before + "a house".len() as i64, "only the successful request is billed");
}

#[test]
fn a_dictionary_for_a_base_language_serves_its_variants() {
    let (app, key) = app();
    let created = create_v2(&app, &key, "German-English", "de", "en-GB", "Haus\thouse");
    assert_eq!((&created["source_lang"], &created["target_lang"]), (&json!("de"), &json!("en")));
    let glossary = id_of(&created);
    for target in ["EN-GB", "EN-US", "en-us"] {
        let words = pseudo(&app, &key, "DE", target, &["Das", "ist", "groß"]);
        let reply = translated(
            &app,
            &key,
            json!({"text": ["Das Haus ist groß."], "source_lang": "DE", "target_lang": target, "glossary_id": glossary}),
        );
        assert_eq!(reply[0], format!("{} house {} {}.", words[0], words[1], words[2]), "{target}");
    }
}

#[test]
fn apertium_applies_glossary_terms_and_refuses_pairs_it_cannot_translate() {
    let apertium = e2e::apertium();
    let app = TestApp::start(
        Options::app().env("SPIN_VARIABLE_ENGINE", "apertium").env("SPIN_VARIABLE_APERTIUM_URL", apertium),
    );
    let key = app.developer_key();
    let glossary = id_of(&create_v2(&app, &key, "Spanish", "EN", "ES", "house\tvivienda"));
    let body = |text: &str, tags: Option<&str>, glossary: Option<&str>| {
        let mut body = json!({"text": [text], "source_lang": "EN", "target_lang": "ES"});
        if let Some(tags) = tags {
            body["tag_handling"] = json!(tags);
        }
        if let Some(glossary) = glossary {
            body["glossary_id"] = json!(glossary);
        }
        body
    };
    let without = translated(&app, &key, body("The house is big.", None, None)).remove(0);
    assert!(without.contains("casa") && !without.contains("vivienda"), "{without}");
    let with = translated(&app, &key, body("The house is big.", None, Some(&glossary))).remove(0);
    assert!(with.contains("vivienda") && !with.contains("casa"), "{with}");
    let tagged =
        translated(&app, &key, body("<p>The <b>house</b> is big.</p>", Some("xml"), Some(&glossary))).remove(0);
    assert!(tagged.starts_with("<p>") && tagged.contains("<b>vivienda</b>"), "{tagged}");

    let unsupported = app.post_json(
        "/v2/glossaries",
        &key,
        &json!({"name": "Japanese", "source_lang": "EN", "target_lang": "JA", "entries": "house\t家"}),
    );
    assert_eq!(unsupported.status, 400, "{}", unsupported.text());
    assert_eq!(unsupported.json(), json!({"message": "Glossaries are not supported for the language pair EN → JA."}));
}

#[test]
fn a_glossary_of_100000_entries_is_stored_read_back_and_applied() {
    let (app, key) = app();
    let entries: Vec<String> = (0..100_000).map(|index| format!("term{index}\tZiel{index}")).collect();
    let tsv = entries.join("\n");
    let created = create_v2(&app, &key, "Large", "EN", "DE", &tsv);
    assert_eq!(created["entry_count"], 100_000);
    let id = id_of(&created);

    let read_back = v2_entries(&app, &key, &id);
    assert_eq!(read_back.len(), tsv.len());
    assert!(read_back == tsv, "the entries came back changed or reordered");
    assert!(v3_entries(&app, &key, &id, "en", "de") == tsv, "v3 reads the same entries");
    let listing = app.call("GET", "/v3/glossaries", &key).json();
    assert_eq!(listing["glossaries"][0]["dictionaries"][0]["entry_count"], 100_000);

    let words = pseudo(&app, &key, "EN", "DE", &["Find", "and", "now"]);
    let reply = translated(
        &app,
        &key,
        json!({"text": ["Find term50000 and term99999 now."], "source_lang": "EN", "target_lang": "DE", "glossary_id": id}),
    );
    assert_eq!(reply[0], format!("{} Ziel50000 {} Ziel99999 {}.", words[0], words[1], words[2]));
}

#[test]
fn a_subscription_holds_at_most_1000_glossaries() {
    let (app, key) = app();
    let mut first = String::new();
    for index in 0..1000 {
        let created = create_v2(&app, &key, &format!("Glossary {index}"), "EN", "DE", "a\tb");
        if index == 0 {
            first = id_of(&created);
        }
    }
    let body = json!({"name": "One too many", "source_lang": "EN", "target_lang": "DE", "entries": "a\tb"});
    let refused = app.post_json("/v2/glossaries", &key, &body);
    assert_eq!(refused.status, 456);
    assert_eq!(
        refused.json(),
        json!({"message": "Quota exceeded. The maximum number of glossaries (1000) has been reached."})
    );
    let refused = app.post_json(
        "/v3/glossaries",
        &key,
        &json!({"name": "One too many", "dictionaries": [{"source_lang": "EN", "target_lang": "DE", "entries": "a\tb"}]}),
    );
    assert_eq!(refused.status, 456);
    assert_eq!(listed(&app, &key, "v3").len(), 1000);
    assert_eq!(app.call("DELETE", &format!("/v2/glossaries/{first}"), &key).status, 204);
    assert_eq!(app.post_json("/v2/glossaries", &key, &body).status, 201, "room again after a delete");
}

#[test]
fn the_official_python_client_manages_and_uses_glossaries() {
    let (app, key) = app();
    let report = app.python_client_report("glossaries.py", &key);
    let words = pseudo(&app, &key, "EN", "DE", &["The", "and", "the"]);
    let (the_upper, and, the) = (&words[0], &words[1], &words[2]);

    let one = &report["one"];
    let id = one["created"]["glossary_id"].as_str().unwrap();
    assert!(is_lower_case_uuid(id), "{id}");
    assert_eq!(one["created"]["name"], "Client terms");
    assert_eq!(one["created"]["ready"], true);
    assert_eq!((&one["created"]["source_lang"], &one["created"]["target_lang"]), (&json!("EN"), &json!("DE")));
    assert_eq!(one["created"]["entry_count"], 2);
    assert!(one["created"]["creation_time"].as_str().unwrap().ends_with("+00:00"), "{one}");
    assert_eq!(one["listed"], json!([id]));
    assert_eq!(one["got"], one["created"]);
    assert_eq!(one["entries"], json!({"house": "Haus", "car": "Auto"}));
    assert_eq!(one["translated"], format!("{the_upper} Haus {and} {the} Auto."));
    let after_delete = one["after_delete"].as_str().unwrap();
    assert!(after_delete.starts_with("not found"), "{after_delete}");

    let several = &report["several"];
    let id = several["created"]["glossary_id"].as_str().unwrap();
    assert_eq!(
        several["created"],
        json!({"glossary_id": id, "name": "Client dictionaries", "dictionaries": [["EN", "DE", 1], ["EN", "FR", 2]]})
    );
    assert_eq!(several["entries_de"], "house\tHaus");
    assert_eq!(several["updated"]["dictionaries"], json!([["EN", "DE", 2], ["EN", "FR", 2]]));
    assert_eq!(sorted_lines(several["entries_de_updated"].as_str().unwrap()), ["car\tAuto", "house\tGebäude"]);
    assert_eq!(several["replaced"], json!(["EN", "FR", 1]));
    assert_eq!(several["entries_fr_replaced"], "bicycle\tvélo");
    assert_eq!(several["translated_de"], format!("{the_upper} Gebäude {and} {the} Auto."));
    assert_eq!(several["renamed"], "Renamed dictionaries");
    assert_eq!(
        several["listed"],
        json!([{"glossary_id": id, "name": "Renamed dictionaries", "dictionaries": [["EN", "DE", 2], ["EN", "FR", 1]]}])
    );
    assert_eq!(several["after_dictionary_delete"]["dictionaries"], json!([["EN", "DE", 2]]));
    let deleted_dictionary = several["deleted_dictionary_entries"].as_str().unwrap();
    assert!(deleted_dictionary.starts_with("not found"), "{deleted_dictionary}");
    let after_delete = several["after_delete"].as_str().unwrap();
    assert!(after_delete.starts_with("not found"), "{after_delete}");
    assert!(listed(&app, &key, "v3").is_empty());
}

/// A request with `key` and a form body.
fn form_call(app: &TestApp, method: &str, path: &str, key: &str, body: &str) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    app.request(
        method,
        path,
        &[("authorization", &authorization), ("content-type", "application/x-www-form-urlencoded")],
        Some(body.as_bytes()),
    )
}

/// The pairs of a v3 glossary's dictionaries with their entry counts, in the order answered.
fn dictionary_pairs(glossary: &Json) -> Vec<(String, i64)> {
    glossary["dictionaries"]
        .as_array()
        .expect("dictionaries")
        .iter()
        .map(|info| {
            let pair = format!("{}-{}", info["source_lang"].as_str().unwrap(), info["target_lang"].as_str().unwrap());
            (pair, info["entry_count"].as_i64().unwrap())
        })
        .collect()
}

#[test]
fn the_node_client_s_indexed_form_creates_and_patches_v3_glossaries() {
    let (app, key) = app();
    // As the official Node client sends them: `dictionaries[i].field`, percent-encoded brackets.
    let created = app.post_form(
        "/v3/glossaries",
        &key,
        &form(&[
            ("name", "Indexed"),
            ("dictionaries[0].source_lang", "en"),
            ("dictionaries[0].target_lang", "de"),
            ("dictionaries[0].entries", "Hello\tHallo\nworld\tWelt"),
            ("dictionaries[0].entries_format", "tsv"),
            ("dictionaries[1].source_lang", "de"),
            ("dictionaries[1].target_lang", "en"),
            ("dictionaries[1].entries", "Haus,house"),
            ("dictionaries[1].entries_format", "csv"),
            ("dictionaries[2].source_lang", "en"),
            ("dictionaries[2].target_lang", "fr"),
            ("dictionaries[2].entries", "Hello\tBonjour"),
        ]),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    let id = id_of(&created);
    let pairs =
        |pairs: &[(&str, i64)]| pairs.iter().map(|(pair, count)| (pair.to_string(), *count)).collect::<Vec<_>>();
    assert_eq!(dictionary_pairs(&created), pairs(&[("en-de", 2), ("de-en", 1), ("en-fr", 1)]), "in the order sent");
    let path = format!("/v3/glossaries/{id}");
    assert_eq!(app.call("GET", &path, &key).json(), created, "GET answers the same order");
    assert_eq!(v3_entries(&app, &key, &id, "de", "en"), "Haus\thouse");

    // PATCH with the same keys merges into one dictionary and renames; nothing is ignored.
    let patched = form_call(
        &app,
        "PATCH",
        &path,
        &key,
        &form(&[
            ("name", "Patched"),
            ("dictionaries[0].source_lang", "en"),
            ("dictionaries[0].target_lang", "de"),
            ("dictionaries[0].entries", "world\tErde\ncar\tAuto"),
            ("dictionaries[0].entries_format", "tsv"),
        ]),
    );
    assert_eq!(patched.status, 200, "{}", patched.text());
    assert_eq!(patched.json()["name"], "Patched");
    assert_eq!(dictionary_pairs(&patched.json()), pairs(&[("en-de", 3), ("de-en", 1), ("en-fr", 1)]));
    assert_eq!(sorted_lines(&v3_entries(&app, &key, &id, "en", "de")), ["Hello\tHallo", "car\tAuto", "world\tErde"]);
    let added = form_call(
        &app,
        "PATCH",
        &path,
        &key,
        &form(&[
            ("dictionaries[0].source_lang", "en"),
            ("dictionaries[0].target_lang", "it"),
            ("dictionaries[0].entries", "car\tmacchina"),
        ]),
    );
    assert_eq!(added.status, 200, "{}", added.text());
    assert_eq!(
        dictionary_pairs(&added.json()),
        pairs(&[("en-de", 3), ("de-en", 1), ("en-fr", 1), ("en-it", 1)]),
        "a new pair comes last"
    );

    // Broken keys are refused, naming the key; a refused request changes nothing.
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);
    let cases: [Case; 6] = [
        (
            "POST",
            vec![("name", "Gap"), ("dictionaries[0].source_lang", "en"), ("dictionaries[2].source_lang", "en")],
            "Value for 'dictionaries[2]' not supported: 'dictionaries[1]' was not sent; dictionaries are numbered from 0 without gaps.",
        ),
        (
            "POST",
            vec![("name", "Letters"), ("dictionaries[x].source_lang", "en")],
            "Value for 'dictionaries[x].source_lang' not supported: the key must be dictionaries[<index>].<field>, the index a number from 0.",
        ),
        (
            "POST",
            vec![("name", "Field"), ("dictionaries[0].entries_fmt", "tsv")],
            "Value for 'dictionaries[0].entries_fmt' not supported: a dictionary has the fields source_lang, target_lang, entries and entries_format.",
        ),
        (
            "PATCH",
            vec![("dictionaries[0].target", "de")],
            "Value for 'dictionaries[0].target' not supported: a dictionary has the fields source_lang, target_lang, entries and entries_format.",
        ),
        (
            "PATCH",
            vec![("name", "x"), ("entries", "a\tb")],
            "Unknown parameter 'entries': this request takes 'name', 'dictionaries'.",
        ),
        (
            "PATCH",
            vec![("name", "x"), ("source_lang", "en")],
            "Unknown parameter 'source_lang': this request takes 'name', 'dictionaries'.",
        ),
    ];
    for (method, pairs, expected) in &cases {
        let target = if *method == "POST" { "/v3/glossaries".to_owned() } else { path.clone() };
        let reply = form_call(&app, method, &target, &key, &form(pairs));
        assert_eq!(reply.status, 400, "{method} {pairs:?}: {}", reply.text());
        assert_eq!(reply.json(), json!({"message": expected}), "{method} {pairs:?}");
    }
    let unknown_json = json_call(&app, "PATCH", &path, &key, &json!({"name": "x", "entries_format": "tsv"}));
    assert_eq!(unknown_json.status, 400);
    assert!(message(&unknown_json).starts_with("Unknown parameter 'entries_format'"), "{}", unknown_json.text());
    assert_eq!(listed(&app, &key, "v3"), [id.as_str()]);
    assert_eq!(app.call("GET", &path, &key).json(), added.json());
}

#[test]
fn a_huge_upload_is_refused_at_its_limit_and_the_service_keeps_answering() {
    let (app, key) = app();
    // 600,000 dictionaries in 40 MB of JSON: reading stops at the one past the limit.
    let item = r#"{"source_lang":"en","target_lang":"de","entries":"Hello\tHallo"},"#;
    let mut body = String::with_capacity(600_000 * item.len() + 64);
    body.push_str(r#"{"name":"Huge","dictionaries":["#);
    for _ in 0..600_000 {
        body.push_str(item);
    }
    body.pop();
    body.push_str("]}");
    assert!(body.len() > 38_000_000, "{} bytes", body.len());
    let authorization = format!("Service-Auth-Key {key}");
    let headers = [("authorization", authorization.as_str()), ("content-type", "application/json")];
    let reply = app.request("POST", "/v3/glossaries", &headers, Some(body.as_bytes()));
    assert_eq!(reply.status, 400, "{}", excerpt(&reply));
    assert_eq!(
        reply.json(),
        json!({"message": "Value for 'dictionaries' not supported: a glossary holds at most 100 dictionaries."})
    );
    // The same as an indexed form: the first index past the limit stops the reading.
    let form_body = form(&[("name", "Huge"), ("dictionaries[100].source_lang", "en")]);
    let reply = app.post_form("/v3/glossaries", &key, &form_body);
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert!(message(&reply).contains("at most 100 dictionaries"), "{}", reply.text());

    // One dictionary of too many entries (600,000 × "tN\tz", 6 MB), and too many bytes.
    let entries: String = (0..600_000).map(|index| format!("t{index}\tz\n")).collect();
    let reply = app.post_json(
        "/v3/glossaries",
        &key,
        &json!({"name": "Many", "dictionaries": [{"source_lang": "en", "target_lang": "de", "entries": entries}]}),
    );
    assert_eq!(reply.status, 400, "{}", excerpt(&reply));
    assert_eq!(
        reply.json(),
        json!({"message": "Value for 'entries' not supported: a dictionary holds at most 500000 entries."})
    );
    let big = "x".repeat((10 << 20) + 1);
    let reply = app.post_form(
        "/v3/glossaries",
        &key,
        &form(&[("name", "Big"), ("dictionaries[0].source_lang", "en"), ("dictionaries[0].entries", &big)]),
    );
    assert_eq!(reply.status, 413, "{}", excerpt(&reply));
    assert!(message(&reply).contains("'dictionaries[0].entries'"), "{}", excerpt(&reply));
    assert!(message(&reply).contains("10 MiB"), "{}", excerpt(&reply));

    // The service still answers, and nothing was created.
    assert!(listed(&app, &key, "v3").is_empty());
    let created =
        create_v3(&app, &key, "After", json!([{"source_lang": "en", "target_lang": "de", "entries": "a\tb"}]));
    assert_eq!(listed(&app, &key, "v3"), [id_of(&created)]);
}

#[test]
fn other_tenants_translate_while_a_large_glossary_is_uploaded_and_never_see_it_half_written() {
    let (app, key) = app();
    let (_, other_admin) = app.create_subscription("pro");
    let other = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    let entries: Vec<String> = (0..100_000).map(|index| format!("term{index}\tZiel{index}")).collect();
    let body = json!({"name": "Large", "dictionaries": [
        {"source_lang": "en", "target_lang": "de", "entries": entries.join("\n")},
        {"source_lang": "de", "target_lang": "en", "entries": "Haus\thouse"},
    ]});
    let uploading = std::sync::atomic::AtomicBool::new(true);
    let (created, seen) = std::thread::scope(|scope| {
        let upload = scope.spawn(|| {
            let reply = app.post_json("/v3/glossaries", &key, &body);
            uploading.store(false, std::sync::atomic::Ordering::SeqCst);
            reply
        });
        // Another tenant translates throughout, and the uploader's own listings never show
        // the glossary before it is whole.
        let translating = scope.spawn(|| {
            let mut translations = 0;
            while uploading.load(std::sync::atomic::Ordering::SeqCst) || translations == 0 {
                let reply = translate(&app, &other, json!({"text": ["Hello world"], "target_lang": "DE"}));
                assert_eq!(reply.status, 200, "another tenant's translation during the upload: {}", reply.text());
                translations += 1;
            }
            translations
        });
        let mut seen = Vec::new();
        while uploading.load(std::sync::atomic::Ordering::SeqCst) {
            let listing = app.call("GET", "/v3/glossaries", &key);
            assert_eq!(listing.status, 200, "{}", listing.text());
            for glossary in listing.json()["glossaries"].as_array().unwrap() {
                seen.push(dictionary_pairs(glossary));
            }
        }
        let translations = translating.join().unwrap();
        assert!(translations > 0);
        (upload.join().unwrap(), seen)
    });
    assert_eq!(created.status, 201, "{}", excerpt(&created));
    let whole = vec![("en-de".to_owned(), 100_000), ("de-en".to_owned(), 1)];
    assert_eq!(dictionary_pairs(&created.json()), whole);
    for listed in &seen {
        assert_eq!(listed, &whole, "a listing during the upload showed it half-written");
    }
    assert_eq!(listed(&app, &key, "v3"), [id_of(&created.json())]);
}

#[test]
fn small_patches_during_a_large_patch_of_the_same_dictionary_are_all_kept() {
    let (app, key) = app();
    let created =
        create_v3(&app, &key, "Busy", json!([{"source_lang": "en", "target_lang": "de", "entries": "house\tHaus"}]));
    let path = format!("/v3/glossaries/{}", id_of(&created));
    let patch = |entries: &str| json!({"dictionaries": [{"source_lang": "en", "target_lang": "de", "entries": entries, "entries_format": "tsv"}]});
    // 30,000 entries are merged beside the dictionary, in chunks; a small merge lands in place at
    // once. Two of them while the large one is written: it meets a changed dictionary at most
    // twice, and is merged again each time (three attempts in all), so it succeeds too.
    let large: Vec<String> = (0..30_000).map(|index| format!("term{index}\tZiel{index}")).collect();
    let large = large.join("\n");
    let (large_reply, small_replies) = std::thread::scope(|scope| {
        let merging = scope.spawn(|| json_call(&app, "PATCH", &path, &key, &patch(&large)));
        std::thread::sleep(std::time::Duration::from_millis(300));
        let small: Vec<Reply> = ["car\tAuto", "house\tMaus"]
            .into_iter()
            .map(|entries| json_call(&app, "PATCH", &path, &key, &patch(entries)))
            .collect();
        (merging.join().unwrap(), small)
    });
    for reply in small_replies {
        assert_eq!(reply.status, 200, "{}", reply.text());
    }
    assert_eq!(large_reply.status, 200, "{}", excerpt(&large_reply));

    let entries = v3_entries(&app, &key, &id_of(&created), "en", "de");
    let lines: std::collections::HashSet<&str> = entries.split('\n').collect();
    assert_eq!(lines.len(), 30_000 + 2, "{}", &entries[..entries.len().min(200)]);
    assert!(lines.contains("car\tAuto") && lines.contains("house\tMaus"), "the small merges were kept");
    assert!(large.split('\n').all(|line| lines.contains(line)), "the large merge was kept");
    let glossary = app.call("GET", &path, &key).json();
    assert_eq!(glossary["dictionaries"][0]["entry_count"], 30_000 + 2);
}

#[test]
fn a_text_with_15000_distinct_terms_comes_back_with_every_term() {
    // 20,000 numbered terms (every prefix past `t` is a term), 15,000 of them in one 94 KB
    // text: what once took seconds, growing with the square of the distinct terms found.
    let (app, key) = app();
    let entries: Vec<String> = (0..20_000).map(|index| format!("t{index}\tz{index}")).collect();
    let id = id_of(&create_v2(&app, &key, "Numbered", "EN", "DE", &entries.join("\n")));

    // One sentence ends in the middle: the term after it starts upper-case and so does its
    // target (the target is lower-case, the occurrence starts a sentence).
    let sources: Vec<String> =
        (0..15_000).map(|index| if index == 7_500 { format!("T{index}") } else { format!("t{index}") }).collect();
    let (first, second) = sources.split_at(7_500);
    let text = format!("Begin {}. {} end", first.join(" "), second.join(" "));
    assert!(text.len() > 90_000, "{} bytes", text.len());

    let words = pseudo(&app, &key, "EN", "DE", &["Begin", "end"]);
    let targets: Vec<String> =
        (0..15_000).map(|index| if index == 7_500 { format!("Z{index}") } else { format!("z{index}") }).collect();
    let (first, second) = targets.split_at(7_500);
    let expected = format!("{} {}. {} {}", words[0], first.join(" "), second.join(" "), words[1]);

    let body = json!({"text": [text], "source_lang": "EN", "target_lang": "DE", "glossary_id": id,
                      "show_billed_characters": true});
    let reply = translate(&app, &key, body);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let answer = &reply.json()["translations"][0];
    let translated = answer["text"].as_str().expect("a text");
    assert!(translated == expected, "{} bytes came back, {} expected", translated.len(), expected.len());
    assert_eq!(answer["billed_characters"], text.chars().count());
}
