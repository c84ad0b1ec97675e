//! Component `write`: `POST /v2/write/correct` and `/v2/write/rephrase` with every parameter and
//! error, billing and quotas, with the language-tools service running for real, and without it
//! (503, nothing billed); rephrasing by the `openai` engine (a fake chat server); the official
//! Python and Node clients' rephrase calls.

use e2e::{BOOTSTRAP_ADMIN_KEY, Json, Options, TestApp, free_port, json};

fn app_with_tools() -> (TestApp, String) {
    let app = TestApp::start(Options::app().with_language_tools());
    let key = app.developer_key();
    (app, key)
}

fn correct(app: &TestApp, key: &str, body: Json) -> e2e::Reply {
    app.post_json("/v2/write/correct", key, &body)
}

fn rephrase(app: &TestApp, key: &str, body: Json) -> e2e::Reply {
    app.post_json("/v2/write/rephrase", key, &body)
}

/// (this key's write characters, the account's) from `/v2/usage`'s product lines.
fn write_usage(app: &TestApp, key: &str) -> (i64, i64) {
    let reply = app.call("GET", "/v2/usage", key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let body = reply.json();
    let line = body["products"].as_array().unwrap().iter().find(|line| line["product_type"] == "write").cloned();
    let line = line.unwrap_or_else(|| panic!("no write line in {body}"));
    (line["api_key_character_count"].as_i64().unwrap(), line["character_count"].as_i64().unwrap())
}

#[test]
fn correct_fixes_spelling_and_grammar_and_bills_every_character() {
    let (app, key) = app_with_tools();
    let text = "I has a apple. Their going too the store tomorow.";
    let reply = correct(&app, &key, json!({"text": [text], "target_lang": "en-US"}));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(
        reply.json(),
        json!({"improvements": [{
            "text": "I have an apple. They're going to the store tomorrow.",
            "detected_source_language": "en",
            "target_language": "en-US",
        }]})
    );
    assert_eq!(write_usage(&app, &key), (49, 49), "every character of the request counts");
}

#[test]
fn german_is_corrected_with_its_dictionary_and_targets_are_named_as_the_api_names_them() {
    let (app, key) = app_with_tools();
    let reply = correct(
        &app,
        &key,
        json!({"text": ["Ich habe heute einen Apfel gekauft, er war sehr lecker. Morgen kommt meine Schwester zu besuch."], "target_lang": "DE"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let improvement = &reply.json()["improvements"][0];
    assert_eq!(improvement["detected_source_language"], "de");
    assert_eq!(improvement["target_language"], "de");
    for (target, named) in [("EN", "en-US"), ("en-gb", "en-GB"), ("PT", "pt-PT"), ("pt-br", "pt-BR")] {
        let reply = correct(&app, &key, json!({"text": ["Hello."], "target_lang": target}));
        assert_eq!(reply.status, 200, "{target}: {}", reply.text());
        assert_eq!(reply.json()["improvements"][0]["target_language"], named, "{target}");
    }
}

#[test]
fn rephrase_applies_the_style_or_tone_after_correcting() {
    let (app, key) = app_with_tools();
    let cases = [
        (json!({"writing_style": "casual"}), "We do not think it is ready.", "We don't think it's ready."),
        (json!({"writing_style": "business"}), "We don't think it's ready.", "We do not think it is ready."),
        (
            json!({"writing_style": "simple"}),
            "We left early in order to catch the train.",
            "We left early to catch the train.",
        ),
        (json!({"tone": "confident"}), "I think that the plan is good.", "The plan is good."),
        (json!({"tone": "prefer_confident"}), "I think that the plan is good.", "The plan is good."),
        (json!({"writing_style": "default"}), "I has a apple.", "I have an apple."),
    ];
    for (change, text, expected) in cases {
        let mut body = json!({"text": [text], "target_lang": "en-US"});
        body.as_object_mut().unwrap().extend(change.as_object().unwrap().clone());
        let reply = rephrase(&app, &key, body);
        assert_eq!(reply.status, 200, "{change}: {}", reply.text());
        assert_eq!(reply.json()["improvements"][0]["text"], expected, "{change}");
    }
}

#[test]
fn a_form_body_with_repeated_text_works_like_json() {
    let (app, key) = app_with_tools();
    let form = app.post_form(
        "/v2/write/rephrase",
        &key,
        "text=I+has+a+apple.&text=We+do+not+know.&target_lang=en-US&writing_style=casual",
    );
    assert_eq!(form.status, 200, "{}", form.text());
    let body = form.json();
    let texts: Vec<&str> =
        body["improvements"].as_array().unwrap().iter().map(|item| item["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["I have an apple.", "We don't know."]);
}

#[test]
fn every_bad_parameter_is_a_400_naming_it_and_bills_nothing() {
    let (app, key) = app_with_tools();
    let cases = [
        ("/v2/write/rephrase", json!({"target_lang": "en-US"}), "Parameter 'text' not specified"),
        (
            "/v2/write/rephrase",
            json!({"text": ["Hi."], "target_lang": "en-US", "writing_style": "poetic"}),
            "writing_style",
        ),
        ("/v2/write/rephrase", json!({"text": ["Hi."], "target_lang": "en-US", "tone": "angry"}), "tone"),
        ("/v2/write/rephrase", json!({"text": ["Hi."], "target_lang": "nl"}), "target_lang"),
        (
            "/v2/write/rephrase",
            json!({"text": ["Hola."], "target_lang": "es", "writing_style": "business"}),
            "Language Spanish does not support setting a writing style.",
        ),
        (
            "/v2/write/rephrase",
            json!({"text": ["Hola."], "target_lang": "es", "tone": "friendly"}),
            "Language Spanish does not support setting a tone.",
        ),
        (
            "/v2/write/rephrase",
            json!({"text": ["Hi."], "target_lang": "en-US", "writing_style": "casual", "tone": "friendly"}),
            "tone",
        ),
        (
            "/v2/write/correct",
            json!({"text": ["Hi."], "target_lang": "en-US", "writing_style": "casual"}),
            "writing_style",
        ),
        ("/v2/write/correct", json!({"text": "Hi.", "target_lang": 7}), "target_lang"),
        // Write languages of the API that the language-tools service cannot correct.
        (
            "/v2/write/correct",
            json!({"text": ["Hello."], "target_lang": "JA"}),
            "Value for 'target_lang' not supported: text improvement in Japanese is not available on this deployment",
        ),
        ("/v2/write/rephrase", json!({"text": ["Hello."], "target_lang": "zh-Hans"}), "in Chinese is not available"),
        ("/v2/write/correct", json!({"text": ["안녕하세요, 만나서 반갑습니다."]}), "Text 1 is in Korean"),
    ];
    for (path, body, expected) in cases {
        let reply = app.post_json(path, &key, &body);
        assert_eq!(reply.status, 400, "{path} {body}: {}", reply.text());
        let message = reply.json()["message"].as_str().unwrap_or_default().to_owned();
        assert!(message.contains(expected), "{path} {body}: {message}");
    }
    // A prefer_ style on a language without styles is accepted and means none.
    let reply = rephrase(
        &app,
        &key,
        json!({"text": ["Hola, ¿cómo estás?"], "target_lang": "es", "writing_style": "prefer_business"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let billed = "Hola, ¿cómo estás?".chars().count() as i64;
    assert_eq!(write_usage(&app, &key), (billed, billed), "only the accepted request is billed");
}

#[test]
fn the_body_limit_media_type_method_and_key_are_checked() {
    let (app, key) = app_with_tools();
    let big = "a".repeat(11 * 1024);
    let reply = correct(&app, &key, json!({"text": [big], "target_lang": "en-US"}));
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert!(reply.json()["message"].as_str().unwrap().contains("10 KiB"), "{}", reply.text());
    let auth = format!("Service-Auth-Key {key}");
    let reply = app.request(
        "POST",
        "/v2/write/correct",
        &[("authorization", &auth), ("content-type", "text/plain")],
        Some(b"I has a apple."),
    );
    assert_eq!(reply.status, 415, "{}", reply.text());
    let reply = app.call("GET", "/v2/write/rephrase", &key);
    assert_eq!((reply.status, reply.header("allow")), (405, Some("POST")), "{}", reply.text());
    let reply = app.request(
        "POST",
        "/v2/write/correct",
        &[("content-type", "application/json")],
        Some(br#"{"text": ["Hi."]}"#),
    );
    assert_eq!(reply.status, 403, "{}", reply.text());
    let reply = app.post_json("/v2/write/correct", BOOTSTRAP_ADMIN_KEY, &json!({"text": ["Hi."]}));
    assert_eq!(reply.status, 403, "an admin key is not a developer key: {}", reply.text());
    assert_eq!(write_usage(&app, &key), (0, 0));
}

#[test]
fn a_key_limit_stops_text_improvement_with_456() {
    let app = TestApp::start(Options::app().with_language_tools());
    let created = app.create_developer_key(BOOTSTRAP_ADMIN_KEY, None);
    let (key, key_id) = (created["key"].as_str().unwrap(), created["key_id"].as_str().unwrap());
    let auth = format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}");
    let body = json!({"key_id": key_id, "characters": 20}).to_string();
    let limited = app.request(
        "PUT",
        "/v2/admin/developer-keys/limits",
        &[("authorization", &auth), ("content-type", "application/json")],
        Some(body.as_bytes()),
    );
    assert_eq!(limited.status, 200, "{}", limited.text());
    assert_eq!(correct(&app, key, json!({"text": ["We do not know."], "target_lang": "en-US"})).status, 200);
    let over = correct(&app, key, json!({"text": ["We do not know."], "target_lang": "en-US"}));
    assert_eq!(over.status, 456, "{}", over.text());
    assert_eq!(write_usage(&app, key).0, 15, "the refused request billed nothing");
}

#[test]
fn a_text_in_another_language_is_translated_into_the_target_first() {
    let (app, key) = app_with_tools();
    let reply = correct(
        &app,
        &key,
        json!({"text": ["Das Wetter ist heute schön und wir gehen im Park spazieren."], "target_lang": "en-US"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let improvement = &reply.json()["improvements"][0];
    assert_eq!(improvement["detected_source_language"], "de");
    assert_eq!(improvement["target_language"], "en-US");
    assert_ne!(improvement["text"], "Das Wetter ist heute schön und wir gehen im Park spazieren.");
}

#[test]
fn without_a_language_tools_service_write_answers_503_and_bills_nothing() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reply = correct(&app, &key, json!({"text": ["I has a apple."], "target_lang": "en-US"}));
    assert_eq!(reply.status, 503, "{}", reply.text());
    assert!(
        reply.json()["message"].as_str().unwrap().contains("no language-tools service is configured"),
        "{}",
        reply.text()
    );

    let down = TestApp::start(
        Options::app()
            .env("SPIN_VARIABLE_LANGUAGE_TOOLS_URL", &format!("http://127.0.0.1:{}", free_port()))
            .env("SPIN_VARIABLE_LANGUAGE_TOOLS_SECRET", "some-secret"),
    );
    let down_key = down.developer_key();
    let reply = rephrase(&down, &down_key, json!({"text": ["I has a apple."], "target_lang": "en-US"}));
    assert_eq!(reply.status, 503, "{}", reply.text());
    assert!(!reply.text().contains("127.0.0.1") && !reply.text().contains("some-secret"), "{}", reply.text());
    assert_eq!(write_usage(&app, &key), (0, 0));
    assert_eq!(write_usage(&down, &down_key), (0, 0));
}

/// An application with the language-tools service and the `openai` engine on a fake chat server
/// that answers `answer`; the server's record of requests.
fn app_with_model(answer: &'static str) -> (TestApp, String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    let (port, received) = e2e::fake_chat_server(answer);
    let app = TestApp::start(
        Options::app()
            .with_language_tools()
            .with_openai_at(port)
            .env("SPIN_VARIABLE_OPENAI_API_KEY", "sk-write-secret"),
    );
    let key = app.developer_key();
    (app, key, received)
}

#[test]
fn with_the_openai_engine_the_model_rephrases_the_corrected_text_for_the_style() {
    let (app, key, received) = app_with_model(r#"["We're not sure yet, but we'll let you know soon."]"#);
    let text = "We are not sure yet, but we will let you know soon.";
    let reply = rephrase(&app, &key, json!({"text": [text], "target_lang": "en-US", "writing_style": "casual"}));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["improvements"][0]["text"], "We're not sure yet, but we'll let you know soon.");
    let requests = received.lock().unwrap().clone();
    assert_eq!(requests.len(), 1, "one call to the model");
    assert!(requests[0].to_ascii_lowercase().contains("authorization: bearer sk-write-secret"));
    for expected in ["test-model", "Use a casual style", "English (American)", text] {
        assert!(requests[0].contains(expected), "missing {expected:?} in {}", requests[0]);
    }
    assert!(!app.log().contains("sk-write-secret"), "the API key is never logged");
    let billed = text.chars().count() as i64;
    assert_eq!(write_usage(&app, &key), (billed, billed));

    // A correction never asks the model.
    let reply = correct(&app, &key, json!({"text": ["I has a apple."], "target_lang": "en-US"}));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(received.lock().unwrap().len(), 1);
}

#[test]
fn a_model_answer_in_another_language_is_not_used_and_the_corrected_text_comes_back() {
    let (app, key, _) = app_with_model(r#"["Nous ne savons pas encore, mais nous vous tiendrons au courant."]"#);
    let reply = rephrase(
        &app,
        &key,
        json!({"text": ["We do not know yet, but we will tell you soon."], "target_lang": "en-US", "tone": "friendly"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["improvements"][0]["text"], "We do not know yet, but we will tell you soon.");
    let notice = app.wait_for_log("was not used (it was in French, not English)");
    assert!(notice.is_some(), "what was not honoured is logged: {}", app.log());
}

#[test]
fn the_official_python_and_node_clients_rephrase_with_styles_and_tones() {
    let (app, key) = app_with_tools();
    for (client, report) in
        [("Python", app.python_client_report("write.py", &key)), ("Node", app.node_client_report("write.mjs", &key))]
    {
        assert_eq!(
            report["single"],
            json!({"text": "I have an apple.", "detected_source_language": "en", "target_language": "en-US"}),
            "{client}"
        );
        assert_eq!(report["styled"], json!(["We don't know.", "It's late."]), "{client}");
        assert_eq!(report["toned"], "The plan is good.", "{client}");
        let refused = report["refused"].as_str().unwrap();
        assert!(refused.contains("Language Spanish does not support setting a writing style."), "{client}: {refused}");
    }
}
