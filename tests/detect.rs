//! Language detection: `POST /v3/detect/language` and translation's automatic source detection,
//! with the language-tools service running for real, and without it (the built-in detector
//! stands in, and says so in the log).

use e2e::{Json, Options, TestApp, free_port, json};

fn app_with_tools() -> (TestApp, String) {
    let app = TestApp::start(Options::app().with_language_tools());
    let key = app.developer_key();
    (app, key)
}

fn detect(app: &TestApp, key: &str, texts: Json) -> e2e::Reply {
    app.post_json("/v3/detect/language", key, &json!({ "text": texts }))
}

fn character_count(app: &TestApp, key: &str) -> i64 {
    let reply = app.call("GET", "/v2/usage", key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["character_count"].as_i64().unwrap()
}

#[test]
fn each_text_gets_its_language_and_status_in_order() {
    let (app, key) = app_with_tools();
    let reply = detect(
        &app,
        &key,
        json!([
            "The committee approved the new budget yesterday, but several members raised concerns about transparency.",
            "Protonenstrahl",
            "Buenas noches",
            "Děkuji za pomoc",
            "Hej, hur mår du?",
            "12345 !!",
            "आज मौसम बहुत अच्छा है और हम पार्क में टहलने जा रहे हैं।",
        ]),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(
        reply.json(),
        json!({"results": [
            {"detected_language": "en", "detection_status": "success"},
            {"detected_language": "de", "detection_status": "success"},
            {"detected_language": "es", "detection_status": "success"},
            {"detected_language": "cs", "detection_status": "success"},
            {"detected_language": "sv", "detection_status": "success"},
            {"detection_status": "no_language_detected"},
            {"detection_status": "unsupported_language"},
        ]})
    );
    assert_eq!(character_count(&app, &key), 0, "detection bills nothing");
}

#[test]
fn a_form_body_with_repeated_text_works_like_json() {
    let (app, key) = app_with_tools();
    let form = app.post_form("/v3/detect/language", &key, "text=Gute+Nacht&text=Bonne+nuit%2C+les+enfants");
    assert_eq!(form.status, 200, "{}", form.text());
    assert_eq!(form.json(), detect(&app, &key, json!(["Gute Nacht", "Bonne nuit, les enfants"])).json());
    assert_eq!(form.json()["results"][1]["detected_language"], "fr");
}

#[test]
fn bad_input_is_a_400_naming_the_parameter() {
    let (app, key) = app_with_tools();
    for (body, expected) in [
        (json!({}), "Parameter 'text' not specified"),
        (json!({"text": []}), "Parameter 'text' not specified"),
        (json!({"text": ["one", 2]}), "Value for 'text' not supported."),
        (json!({"text": vec!["Hello"; 51]}), "Value for 'text' not supported: at most 50 texts per request, got 51."),
    ] {
        let reply = app.post_json("/v3/detect/language", &key, &body);
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        assert_eq!(reply.json()["message"], expected, "{body}");
    }
    assert_eq!(detect(&app, &key, json!(vec!["Hello there, my friend"; 50])).status, 200, "50 texts are fine");
}

#[test]
fn detection_needs_a_key_and_a_post() {
    let (app, key) = app_with_tools();
    let reply = app.request(
        "POST",
        "/v3/detect/language",
        &[("content-type", "application/json")],
        Some(br#"{"text": ["Hallo"]}"#),
    );
    assert_eq!(reply.status, 403, "{}", reply.text());
    let reply = app.call("GET", "/v3/detect/language", &key);
    assert_eq!(reply.status, 405, "{}", reply.text());
    assert_eq!(reply.header("allow"), Some("POST"));
}

#[test]
fn translation_detects_its_source_with_the_service() {
    let (app, key) = app_with_tools();
    let reply = app.post_json(
        "/v2/translate",
        &key,
        &json!({"text": [
            "The committee approved the new budget yesterday, but several members raised concerns about transparency.",
            "Gute Nacht",
            "Tot ziens",
        ], "target_lang": "FR"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let body = reply.json();
    let detected: Vec<&str> = body["translations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["detected_source_language"].as_str().unwrap())
        .collect();
    assert_eq!(detected, ["EN", "DE", "NL"]);
}

#[test]
fn without_the_service_the_built_in_detector_answers_and_the_log_says_why() {
    // A secret with a URL where nothing listens: every call fails, and detection falls back.
    let url = format!("http://127.0.0.1:{}", free_port());
    let app = TestApp::start(
        Options::app()
            .env("SPIN_VARIABLE_LANGUAGE_TOOLS_URL", &url)
            .env("SPIN_VARIABLE_LANGUAGE_TOOLS_SECRET", "some-secret"),
    );
    let key = app.developer_key();
    let reply = detect(&app, &key, json!(["Das Wetter ist heute schön und wir gehen im Park spazieren."]));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json(), json!({"results": [{"detected_language": "de", "detection_status": "success"}]}));
    let translated =
        app.post_json("/v2/translate", &key, &json!({"text": ["Guten Morgen, wie geht es dir?"], "target_lang": "EN"}));
    assert_eq!(translated.status, 200, "{}", translated.text());
    assert_eq!(translated.json()["translations"][0]["detected_source_language"], "DE");
    assert!(
        app.wait_for_log("detection falls back to the built-in detector").is_some(),
        "the log says why: {}",
        app.log()
    );
    assert!(!app.log().contains("some-secret"), "the secret never reaches the log");
}
