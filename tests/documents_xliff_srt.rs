//! Component `documents` (`/v2/document`) with XLIFF 2 and SubRip files: uploaded as multipart
//! bodies, polled until done, downloaded and checked.
//!
//! XLIFF: every segment to translate gets one `<target>` equal to what `POST /v2/translate`
//! makes of its source with `tag_handling=xml` and `outline_detection=false` (the type's tag
//! options), inline codes included; final segments and units with `translate="no"` come back
//! byte for byte, and the output is well-formed XML (read with quick-xml). XLIFF 1.2 is refused.
//!
//! SubRip: numbering and timings come back byte for byte (CRLF line endings too), each cue's
//! text as `/v2/translate` translates it (plain text). A malformed file is refused, and one past
//! 150 KiB too.
//!
//! The deterministic engine translates word by word, whatever the segmentation, so a text sent
//! to `/v2/translate` with the same parameters comes back as the document has it.

use e2e::{Json, Options, Reply, TestApp, json};
use quick_xml::events::Event;
use quick_xml::reader::Reader;

const BOUNDARY: &str = "e2e-documents-xliff-srt-7c41d2";

// ---------------------------------------------------------------------------------------------
// Requests (as in documents.rs)

/// A `multipart/form-data` body: the `file` part, then form fields.
fn multipart(filename: &str, bytes: &[u8], fields: &[(&str, &str)]) -> Vec<u8> {
    assert!(!bytes.windows(BOUNDARY.len()).any(|window| window == BOUNDARY.as_bytes()));
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(b"\r\n");
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes(),
        );
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

fn upload(app: &TestApp, key: &str, filename: &str, bytes: &[u8], fields: &[(&str, &str)]) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    let headers = [("authorization", authorization.as_str()), ("content-type", content_type.as_str())];
    app.request("POST", "/v2/document", &headers, Some(&multipart(filename, bytes, fields)))
}

/// An uploaded document's id and key.
struct Doc {
    id: String,
    key: String,
}

fn accepted(reply: &Reply) -> Doc {
    assert_eq!(reply.status, 200, "the upload: {}", reply.text());
    let body = reply.json();
    Doc {
        id: body["document_id"].as_str().expect("a document_id").to_owned(),
        key: body["document_key"].as_str().expect("a document_key").to_owned(),
    }
}

fn keyed(app: &TestApp, path: &str, key: &str, document_key: &str) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    let headers = [("authorization", authorization.as_str()), ("content-type", "application/x-www-form-urlencoded")];
    app.request("POST", path, &headers, Some(format!("document_key={document_key}").as_bytes()))
}

/// Polls the document's status until it is done, and answers that status.
fn wait_until_done(app: &TestApp, key: &str, doc: &Doc) -> Json {
    let mut seen = Vec::new();
    for _ in 0..300 {
        let reply = keyed(app, &format!("/v2/document/{}", doc.id), key, &doc.key);
        assert_eq!(reply.status, 200, "status of {}: {}", doc.id, reply.text());
        let body = reply.json();
        match body["status"].as_str() {
            Some("queued" | "translating") => seen.push(body["status"].to_string()),
            Some("done") => return body,
            _ => panic!("status of {}: {body} (before: {seen:?})", doc.id),
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("document {} not done: {seen:?}", doc.id)
}

fn result(app: &TestApp, key: &str, doc: &Doc) -> Reply {
    keyed(app, &format!("/v2/document/{}/result", doc.id), key, &doc.key)
}

/// What `POST /v2/translate` makes of `texts` with these parameters (an object).
fn translated_texts(app: &TestApp, key: &str, texts: &[&str], parameters: Json) -> Vec<String> {
    let mut body = json!({"text": texts});
    body.as_object_mut().unwrap().extend(parameters.as_object().expect("an object").clone());
    app.post_json("/v2/translate", key, &body).translated_texts()
}

/// A developer key of another subscription, for the reference translations.
fn other_subscription_key(app: &TestApp) -> String {
    let (_, admin) = app.create_subscription("pro");
    app.create_developer_key(&admin, None)["key"].as_str().unwrap().to_owned()
}

fn chars(texts: &[&str]) -> i64 {
    texts.iter().map(|text| text.chars().count() as i64).sum()
}

/// Asserts an `Invalid file data.` refusal whose detail holds `needle`.
#[track_caller]
fn assert_invalid_file(reply: &Reply, needle: &str) {
    assert_eq!(reply.status, 400, "{}", reply.text());
    let body = reply.json();
    assert_eq!(body["message"], "Invalid file data.", "{body}");
    let detail = body["detail"].as_str().unwrap_or_default();
    assert!(detail.contains(needle), "the detail names {needle:?}: {body}");
}

// ---------------------------------------------------------------------------------------------
// XLIFF 2.1

/// Sources of the segments to translate, by segment id.
const SOURCES: [(&str, &str); 3] = [
    ("1", r#"Welcome to <pc id="1">our new shop</pc>, dear customer."#),
    ("2", r#"Press <ph id="2"/> to continue &amp; save."#),
    ("5", r#"The <mrk id="m1" type="term">glossary</mrk> is <sc id="3"/>shared<ec startRef="3"/> by every team."#),
];

/// Their text, as billed: tags left out, references read.
const SOURCE_TEXTS: [&str; 3] =
    ["Welcome to our new shop, dear customer.", "Press  to continue & save.", "The glossary is shared by every team."];

const FINAL_SEGMENT: &str = r#"<segment id="3" state="final">
        <source>Terms and conditions apply.</source>
        <target>Es gelten die AGB.</target>
      </segment>"#;

const UNTRANSLATABLE_UNIT: &str = r#"<unit id="brand" translate="no">
      <segment id="4">
        <source>Glossa Translate is our name.</source>
      </segment>
    </unit>"#;

fn xliff_file() -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="fr">
  <file id="f1" original="ui.json">
    <unit id="greeting">
      <segment id="1">
        <source>{}</source>
      </segment>
      <segment id="2" state="initial">
        <source>{}</source>
        <target>alt</target>
      </segment>
    </unit>
    <unit id="legal">
      {FINAL_SEGMENT}
    </unit>
    {UNTRANSLATABLE_UNIT}
    <unit id="term">
      <segment id="5"><source>{}</source></segment>
    </unit>
  </file>
</xliff>
"#,
        SOURCES[0].1, SOURCES[1].1, SOURCES[2].1
    )
}

/// A segment as read from an XLIFF file: its id, state, and the inner XML of its source and of
/// each of its targets.
#[derive(Debug, Default, PartialEq)]
struct Segment {
    id: String,
    state: Option<String>,
    source: String,
    targets: Vec<String>,
}

/// Reads an XLIFF file to its end with quick-xml (which fails on XML that is not well-formed)
/// and answers its segments.
fn read_segments(xml: &str) -> Vec<Segment> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    let attribute = |tag: &quick_xml::events::BytesStart<'_>, name: &str| {
        tag.try_get_attribute(name)
            .expect("attributes")
            .map(|value| value.normalized_value(quick_xml::XmlVersion::Implicit1_0).expect("a value").into_owned())
    };
    let mut segments: Vec<Segment> = Vec::new();
    // The open elements: their names, and where their content starts.
    let mut open: Vec<(String, usize)> = Vec::new();
    loop {
        let start = reader.buffer_position() as usize;
        let event = reader.read_event().unwrap_or_else(|error| panic!("not well-formed: {error}\n{xml}"));
        let end = reader.buffer_position() as usize;
        let parent = open.last().map(|(name, _)| name.as_str());
        match event {
            Event::Eof => break,
            Event::Start(tag) => {
                let name = tag.name().as_ref().to_owned();
                if name == "segment" {
                    let id = attribute(&tag, "id").expect("an id");
                    segments.push(Segment { id, state: attribute(&tag, "state"), ..Segment::default() });
                }
                open.push((name, end));
            }
            Event::Empty(tag) if parent == Some("segment") && tag.name().as_ref() == "target" => {
                segments.last_mut().unwrap().targets.push(String::new());
            }
            Event::End(_) => {
                let (name, content_start) = open.pop().expect("an element open");
                if open.last().is_some_and(|(parent, _)| parent == "segment") {
                    let segment = segments.last_mut().unwrap();
                    match name.as_str() {
                        "source" => segment.source = xml[content_start..start].to_owned(),
                        "target" => segment.targets.push(xml[content_start..start].to_owned()),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    assert!(open.is_empty(), "every element closed");
    segments
}

#[test]
fn an_xliff_2_1_file_gets_its_targets_with_inline_codes_and_leaves_final_and_untranslatable_segments() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reference = other_subscription_key(&app);
    let file = xliff_file();

    let doc =
        accepted(&upload(&app, &key, "strings.xlf", file.as_bytes(), &[("source_lang", "EN"), ("target_lang", "DE")]));
    let done = wait_until_done(&app, &key, &doc);
    assert_eq!(done["billed_characters"], chars(&SOURCE_TEXTS), "the sources' text, not their codes: {done}");
    let reply = result(&app, &key, &doc);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/xliff+xml"));
    assert_eq!(reply.header("content-disposition"), Some("attachment; filename=\"strings.xlf\""));
    let output = reply.text();

    let sources: Vec<&str> = SOURCES.iter().map(|(_, source)| *source).collect();
    let expected = translated_texts(
        &app,
        &reference,
        &sources,
        json!({"source_lang": "EN", "target_lang": "DE", "tag_handling": "xml", "outline_detection": false}),
    );
    let segments = read_segments(&output);
    assert_eq!(segments.len(), 5, "{output}");
    for ((id, source), translation) in SOURCES.iter().zip(&expected) {
        let segment = segments.iter().find(|segment| segment.id == *id).expect("the segment");
        assert_eq!(segment.source, *source, "the source kept");
        assert_eq!(segment.state.as_deref(), Some("translated"), "segment {id}");
        assert_eq!(
            segment.targets,
            std::slice::from_ref(translation),
            "segment {id}: one target, as /v2/translate has it"
        );
        assert_ne!(translation, source, "translated");
    }
    for code in [
        r#"<pc id="1">"#,
        "</pc>",
        r#"<ph id="2"/>"#,
        r#"<mrk id="m1" type="term">"#,
        "</mrk>",
        r#"<sc id="3"/>"#,
        r#"<ec startRef="3"/>"#,
    ] {
        assert_eq!(output.matches(code).count(), 2, "{code} in the source and in the target: {output}");
    }
    let untouched = |id: &str| segments.iter().find(|segment| segment.id == id).expect("the segment");
    assert_eq!(untouched("3").targets, ["Es gelten die AGB."]);
    assert_eq!(untouched("3").state.as_deref(), Some("final"));
    assert!(untouched("4").targets.is_empty() && untouched("4").state.is_none());
    assert!(output.contains(FINAL_SEGMENT) && output.contains(UNTRANSLATABLE_UNIT), "byte for byte: {output}");

    // Byte for byte, the rest of the file too: the targets and states are all that changed.
    let expected_file = file
        // The root names the language the file was translated into.
        .replace(r#"trgLang="fr""#, r#"trgLang="de""#)
        .replace(r#"<segment id="1">"#, r#"<segment id="1" state="translated">"#)
        .replace(
            &format!("{}</source>", SOURCES[0].1),
            &format!("{}</source><target>{}</target>", SOURCES[0].1, expected[0]),
        )
        .replace(r#"state="initial""#, r#"state="translated""#)
        .replace("<target>alt</target>", &format!("<target>{}</target>", expected[1]))
        .replace(r#"<segment id="5">"#, r#"<segment id="5" state="translated">"#)
        .replace(
            &format!("{}</source>", SOURCES[2].1),
            &format!("{}</source><target>{}</target>", SOURCES[2].1, expected[2]),
        );
    assert_eq!(output, expected_file);
}

#[test]
fn xliff_1_2_is_refused_with_a_detail_naming_it() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let v12 = r#"<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" target-language="de" datatype="plaintext" original="ui">
    <body><trans-unit id="1"><source>Hello</source></trans-unit></body>
  </file>
</xliff>"#;
    for name in ["old.xlf", "old.xliff"] {
        assert_invalid_file(&upload(&app, &key, name, v12.as_bytes(), &[("target_lang", "DE")]), "1.2");
    }
    let doctype = format!(
        "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"aaaa\">]>{}",
        xliff_file().split_once("?>").unwrap().1
    );
    assert_invalid_file(&upload(&app, &key, "bomb.xlf", doctype.as_bytes(), &[("target_lang", "DE")]), "DOCTYPE");
}

// ---------------------------------------------------------------------------------------------
// SubRip

/// Cues: number and timing line, then text lines.
const CUES: [(&str, &str, &[&str]); 4] = [
    ("1", "00:00:01,000 --> 00:00:03,500", &["The quick brown fox jumps", "over the lazy dog."]),
    ("2", "00:00:04,000 --> 00:00:06,000", &["Hello, world!"]),
    ("3", "00:00:06,500 --> 00:00:09,000 X1:100 X2:600", &["- Where are you going?", "- Home, to my family."]),
    ("4", "00:01:00,000 --> 00:01:02,250", &["The end."]),
];

/// A subtitle file of `cues` with the texts given, lines ending in CRLF.
fn subtitles(texts: &[String]) -> String {
    CUES.iter()
        .zip(texts)
        .map(|((number, timing, _), text)| format!("{number}\r\n{timing}\r\n{text}\r\n"))
        .collect::<Vec<_>>()
        .join("\r\n")
}

#[test]
fn an_srt_file_keeps_its_numbers_timings_and_crlf_and_translates_each_cue() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reference = other_subscription_key(&app);
    let texts: Vec<String> = CUES.iter().map(|(_, _, lines)| lines.join("\r\n")).collect();
    let file = subtitles(&texts);

    let doc =
        accepted(&upload(&app, &key, "movie.srt", file.as_bytes(), &[("source_lang", "EN"), ("target_lang", "DE")]));
    let done = wait_until_done(&app, &key, &doc);
    let text_refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    assert_eq!(done["billed_characters"], chars(&text_refs), "the cues' text: {done}");
    let reply = result(&app, &key, &doc);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/x-subrip"));
    let output = reply.text();

    let expected = translated_texts(&app, &reference, &text_refs, json!({"source_lang": "EN", "target_lang": "DE"}));
    assert_eq!(output, subtitles(&expected), "each cue's text as /v2/translate has it, the rest byte for byte");
    let blocks: Vec<&str> = output.split("\r\n\r\n").collect();
    assert_eq!(blocks.len(), CUES.len());
    for ((number, timing, lines), (block, translation)) in CUES.iter().zip(blocks.iter().zip(&expected)) {
        let mut block_lines = block.trim_end_matches("\r\n").split("\r\n");
        assert_eq!(block_lines.next(), Some(*number), "the number kept: {block:?}");
        assert_eq!(block_lines.next(), Some(*timing), "the timing kept: {block:?}");
        let translated: Vec<&str> = block_lines.collect();
        assert_eq!(translated.len(), lines.len(), "as many lines as the cue had: {block:?}");
        assert_eq!(translated.join("\r\n"), *translation);
        assert_ne!(translated, *lines, "translated");
    }
    assert!(!output.replace("\r\n", "").contains('\n'), "only CRLF line endings: {output:?}");
}

#[test]
fn malformed_srt_files_are_refused_and_large_ones_too() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let fields = [("target_lang", "DE")];
    let bad_timing =
        "1\r\n00:00:01,000 --> 00:00:02,000\r\nFine.\r\n\r\n2\r\n00:00:03 --> 00:00:04\r\nNo milliseconds.\r\n";
    assert_invalid_file(&upload(&app, &key, "bad.srt", bad_timing.as_bytes(), &fields), "line 6");
    assert_invalid_file(&upload(&app, &key, "prose.srt", b"Just some text.\n", &fields), "line 1");
    assert_invalid_file(
        &upload(&app, &key, "latin1.srt", b"1\n00:00:01,000 --> 00:00:02,000\nGr\xfc\xdfe\n", &fields),
        "UTF-8",
    );

    // 150 KiB at most: a cue file one byte past it, and one at it.
    let of_bytes = |bytes: usize| {
        let cue = |number: usize| format!("{number}\n00:00:01,000 --> 00:00:02,000\nA line of subtitle text.\n\n");
        let mut file = String::new();
        let mut number = 1;
        while file.len() + 2 * cue(number + 1).len() < bytes {
            file.push_str(&cue(number));
            number += 1;
        }
        let last = format!("{number}\n00:00:01,000 --> 00:00:02,000\n");
        let fill = bytes - file.len() - last.len() - 1;
        file.push_str(&last);
        file.push_str(&"x".repeat(fill));
        file.push('\n');
        assert_eq!(file.len(), bytes);
        file.into_bytes()
    };
    let reply = upload(&app, &key, "long.srt", &of_bytes(150 * 1024 + 1), &fields);
    assert_eq!(reply.status, 413, "{}", reply.text());
    let message = reply.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(message.starts_with("Document too large: a srt file"), "{message}");
    accepted(&upload(&app, &key, "long.srt", &of_bytes(150 * 1024), &fields));
}
