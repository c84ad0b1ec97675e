//! Component `translate`: `POST /v2/translate` with every parameter and every error, billing and
//! quotas, the engines (deterministic, a fake OpenAI-compatible server, Apertium down), and the
//! official Python client library.

use std::sync::Arc;

use e2e::{BOOTSTRAP_ADMIN_KEY, Json, Options, TestApp, json, under_spin};

fn app() -> (TestApp, String) {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    (app, key)
}

fn translate(app: &TestApp, key: &str, body: Json) -> e2e::Reply {
    app.post_json("/v2/translate", key, &body)
}

fn usage(app: &TestApp, key: &str) -> Json {
    let reply = app.call("GET", "/v2/usage", key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

#[test]
fn a_json_request_is_translated_billed_and_metered() {
    let (app, key) = app();
    let reply = translate(
        &app,
        &key,
        json!({"text": ["Hello, world!", "Καλημέρα"], "source_lang": "EN", "target_lang": "DE", "show_billed_characters": true}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let body = reply.json();
    let translations = body["translations"].as_array().unwrap();
    assert_eq!(translations.len(), 2);
    assert_eq!(translations[0]["detected_source_language"], "EN");
    assert_ne!(translations[0]["text"], "Hello, world!");
    assert_eq!(translations[0]["billed_characters"], 13);
    assert_eq!(translations[1]["billed_characters"], 8, "code points, not bytes");
    assert!(translations[0].get("model_type_used").is_none());
    assert_eq!(usage(&app, &key)["character_count"], 21);
}

#[test]
fn a_form_request_with_repeated_text_works_like_json() {
    let (app, key) = app();
    let form = translate(&app, &key, json!({"text": ["One.", "Two."], "source_lang": "EN", "target_lang": "FR"}));
    let json_reply = app.post_form("/v2/translate", &key, "text=One.&text=Two.&source_lang=EN&target_lang=FR");
    assert_eq!(json_reply.status, 200);
    assert_eq!(form.json(), json_reply.json());
}

#[test]
fn more_than_fifty_texts_are_accepted() {
    let (app, key) = app();
    let texts: Vec<String> = (0..120).map(|index| format!("Line {index}.")).collect();
    let reply = translate(&app, &key, json!({"text": texts, "source_lang": "EN", "target_lang": "ES"}));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["translations"].as_array().unwrap().len(), 120);
}

#[test]
fn the_source_language_is_detected_when_absent() {
    let (app, key) = app();
    let reply = translate(
        &app,
        &key,
        json!({"text": ["Das ist ein schöner Tag, und wir gehen spazieren.", "C'est une belle journée et nous allons nous promener."], "target_lang": "EN-US"}),
    );
    let body = reply.json();
    assert_eq!(body["translations"][0]["detected_source_language"], "DE");
    assert_eq!(body["translations"][1]["detected_source_language"], "FR");
}

#[test]
fn context_is_not_billed() {
    let (app, key) = app();
    let reply = translate(
        &app,
        &key,
        json!({"text": ["Bank"], "context": "We sat on the bank of the river.", "source_lang": "EN", "target_lang": "DE", "show_billed_characters": true}),
    );
    assert_eq!(reply.json()["translations"][0]["billed_characters"], 4);
    assert_eq!(usage(&app, &key)["character_count"], 4);
}

#[test]
fn beta_targets_are_neither_billed_nor_counted() {
    let (app, key) = app();
    for target in ["DE-CH", "FR-CA"] {
        let reply = translate(
            &app,
            &key,
            json!({"text": ["Hello"], "source_lang": "EN", "target_lang": target, "show_billed_characters": true}),
        );
        assert_eq!(reply.status, 200, "{}", reply.text());
        assert_eq!(reply.json()["translations"][0]["billed_characters"], 0);
    }
    assert_eq!(usage(&app, &key)["character_count"], 0);
}

#[test]
fn target_variants_are_accepted_in_any_case() {
    let (app, key) = app();
    for target in ["en-gb", "EN-US", "pt-br", "PT-PT", "es-419", "zh-hans", "ZH-HANT", "de-CH", "fr-ca"] {
        let reply = translate(&app, &key, json!({"text": ["Hallo Welt"], "source_lang": "de", "target_lang": target}));
        assert_eq!(reply.status, 200, "{target}: {}", reply.text());
    }
}

#[test]
fn formality_is_applied_and_refused_where_the_target_has_none() {
    let (app, key) = app();
    let text = |formality: &str| {
        let reply = translate(
            &app,
            &key,
            json!({"text": ["How are you?"], "source_lang": "EN", "target_lang": "DE", "formality": formality}),
        );
        assert_eq!(reply.status, 200, "{}", reply.text());
        reply.json()["translations"][0]["text"].as_str().unwrap().to_owned()
    };
    assert_ne!(text("more"), text("less"));
    assert_eq!(text("prefer_more"), text("more"));
    let refused = translate(
        &app,
        &key,
        json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "EN-GB", "formality": "more"}),
    );
    assert_eq!(refused.status, 400);
    assert_eq!(refused.json(), json!({"message": "Target language 'EN-GB' doesn't support formality."}));
    let fallback = translate(
        &app,
        &key,
        json!({"text": ["Hi"], "source_lang": "DE", "target_lang": "EN-GB", "formality": "prefer_less"}),
    );
    assert_eq!(fallback.status, 200);
}

#[test]
fn model_type_is_echoed_and_latency_optimized_is_refused_for_formerly_beta_languages() {
    let (app, key) = app();
    let reply = translate(
        &app,
        &key,
        json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "DE", "model_type": "prefer_quality_optimized"}),
    );
    assert_eq!(reply.json()["translations"][0]["model_type_used"], "quality_optimized");
    let latency = translate(
        &app,
        &key,
        json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "DE", "model_type": "latency_optimized"}),
    );
    assert_eq!(latency.json()["translations"][0]["model_type_used"], "latency_optimized");
    let refused = translate(
        &app,
        &key,
        json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "AF", "model_type": "latency_optimized"}),
    );
    assert_eq!(refused.status, 400);
    assert!(refused.json()["message"].as_str().unwrap().contains("'AF'"));
    let bad = translate(&app, &key, json!({"text": ["Hi"], "target_lang": "DE", "model_type": "fast"}));
    assert_eq!(bad.json(), json!({"message": "Value for 'model_type' not supported."}));
}

#[test]
fn markup_survives_xml_and_html_tag_handling() {
    let (app, key) = app();
    let xml = translate(
        &app,
        &key,
        json!({"text": ["<doc><p>Hello <b>world</b>!</p><code>x &lt; y</code></doc>"], "source_lang": "EN", "target_lang": "DE",
               "tag_handling": "xml", "ignore_tags": ["code"], "tag_handling_version": "v2"}),
    );
    assert_eq!(xml.status, 200, "{}", xml.text());
    let item = &xml.json()["translations"][0];
    assert_eq!(item["tag_handling_version"], "v2");
    let text = item["text"].as_str().unwrap();
    assert!(text.starts_with("<doc><p>") && text.ends_with("</doc>"), "{text}");
    assert!(text.contains("<b>") && text.contains("</b>"), "{text}");
    assert!(text.contains("<code>x &lt; y</code>"), "{text}");
    assert!(!text.contains("Hello"), "{text}");

    let html = translate(
        &app,
        &key,
        json!({"text": ["<p>Hello<br>world <img src=\"a.png\" alt=\"x\"></p><script>var a = 1;</script>"], "source_lang": "EN",
               "target_lang": "FR", "tag_handling": "html"}),
    );
    let text = html.json()["translations"][0]["text"].as_str().unwrap().to_owned();
    assert!(text.contains("<br>") && text.contains("<img src=\"a.png\" alt=\"x\">"), "{text}");
    assert!(text.contains("<script>var a = 1;</script>"), "{text}");
    assert_eq!(html.json()["translations"][0]["tag_handling_version"], "v1");
}

#[test]
fn malformed_xml_is_a_400_that_says_where() {
    let (app, key) = app();
    let reply = translate(
        &app,
        &key,
        json!({"text": ["<p>Hello <b>world</p>"], "source_lang": "EN", "target_lang": "DE", "tag_handling": "xml", "tag_handling_version": "v2"}),
    );
    assert_eq!(reply.status, 400);
    assert!(reply.json()["message"].as_str().unwrap().contains("byte"), "{}", reply.text());
    assert_eq!(usage(&app, &key)["character_count"], 0);
}

#[test]
fn sentence_splitting_and_preserved_formatting_change_the_output() {
    let (app, key) = app();
    let text = |extra: Json| {
        let mut body = json!({"text": ["first line\nsecond line"], "source_lang": "EN", "target_lang": "DE"});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let reply = translate(&app, &key, body);
        assert_eq!(reply.status, 200, "{}", reply.text());
        reply.json()["translations"][0]["text"].as_str().unwrap().to_owned()
    };
    assert!(text(json!({"split_sentences": "1"})).contains('\n'));
    assert!(text(json!({"split_sentences": "0"})).contains('\n'));
    let preserved = text(json!({"preserve_formatting": true}));
    assert!(preserved.starts_with(|c: char| c.is_lowercase()), "{preserved}");
    let bad = translate(&app, &key, json!({"text": ["x"], "target_lang": "DE", "split_sentences": "2"}));
    assert_eq!(bad.json(), json!({"message": "Value for 'split_sentences' not supported."}));
}

#[test]
fn custom_instructions_are_validated() {
    let (app, key) = app();
    let ok = translate(
        &app,
        &key,
        json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "DE", "custom_instructions": ["Keep it short."]}),
    );
    assert_eq!(ok.status, 200);
    let too_many =
        translate(&app, &key, json!({"text": ["Hi"], "target_lang": "DE", "custom_instructions": vec!["x"; 11]}));
    assert_eq!(too_many.status, 400);
    let unsupported = translate(&app, &key, json!({"text": ["Hi"], "target_lang": "NL", "custom_instructions": ["x"]}));
    assert_eq!(unsupported.status, 400);
}

#[test]
fn glossaries_style_rules_and_memories_are_validated_then_not_found() {
    let (app, key) = app();
    let id = "def3a26b-3e84-45b3-84ae-0c0aaf3525f7";
    let needs_source = translate(&app, &key, json!({"text": ["Hi"], "target_lang": "DE", "glossary_id": id}));
    assert_eq!(
        needs_source.json(),
        json!({"message": "Use of a glossary requires the source_lang parameter to be specified"})
    );
    let malformed =
        translate(&app, &key, json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "DE", "glossary_id": "x"}));
    assert_eq!(malformed.status, 400);
    for (name, value) in [
        ("glossary_id", json!(id)),
        ("glossary_ids", json!([id])),
        ("style_id", json!(id)),
        ("translation_memory_id", json!(id)),
    ] {
        let mut body = json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "DE"});
        body[name] = value;
        let reply = translate(&app, &key, body);
        assert_eq!(reply.status, 404, "{name}: {}", reply.text());
        assert!(reply.json()["message"].as_str().unwrap().contains(id));
    }
    let threshold =
        translate(&app, &key, json!({"text": ["Hi"], "target_lang": "DE", "translation_memory_threshold": 101}));
    assert_eq!(threshold.status, 400);
    assert_eq!(usage(&app, &key)["character_count"], 0);
}

#[test]
fn bad_requests_name_the_parameter_and_bill_nothing() {
    let (app, key) = app();
    let cases = [
        (json!({"target_lang": "DE"}), "Parameter 'text' not specified"),
        (json!({"text": ["a"]}), "Parameter 'target_lang' not specified"),
        (json!({"text": ["a"], "target_lang": "XX"}), "Value for 'target_lang' not supported."),
        (json!({"text": ["a"], "target_lang": "DE", "source_lang": "EN-GB"}), "Value for 'source_lang' not supported."),
        (
            json!({"text": ["a"], "target_lang": "DE", "show_billed_characters": "maybe"}),
            "Value for 'show_billed_characters' not supported.",
        ),
        (json!({"text": ["a"], "target_lang": "DE", "tag_handling": "md"}), "Value for 'tag_handling' not supported."),
        (
            json!({"text": ["a"], "target_lang": "DE", "tag_handling_version": "v3"}),
            "Value for 'tag_handling_version' not supported.",
        ),
    ];
    for (body, message) in cases {
        let reply = translate(&app, &key, body.clone());
        assert_eq!(reply.status, 400, "{body}");
        assert_eq!(reply.json(), json!({"message": message}), "{body}");
    }
    assert_eq!(usage(&app, &key)["character_count"], 0);
}

#[test]
fn bodies_too_large_or_of_other_types_are_refused() {
    let (app, key) = app();
    let huge = format!("text={}&target_lang=DE", "a".repeat(130 * 1024));
    assert_eq!(app.post_form("/v2/translate", &key, &huge).status, 413);
    let authorization = format!("Service-Auth-Key {key}");
    let plain = app.request(
        "POST",
        "/v2/translate",
        &[("authorization", &authorization), ("content-type", "text/plain")],
        Some(b"hi"),
    );
    assert_eq!(plain.status, 415);
    let broken = app.request(
        "POST",
        "/v2/translate",
        &[("authorization", &authorization), ("content-type", "application/json")],
        Some(b"{\"text\": "),
    );
    assert_eq!(broken.status, 400);
    assert_eq!(app.call("DELETE", "/v2/translate", &key).status, 405);
}

#[test]
fn a_body_refused_unread_still_gets_its_answer_to_the_client() {
    // The 413 comes from the announced length, before the body is read; the client is still
    // sending. Were the connection closed then, the kernel would reset it and the client would
    // see a broken pipe instead of the answer (about half the time for 3 MB, here).
    let (app, key) = app();
    let big = format!("text={}&target_lang=DE", "a".repeat(3 * 1024 * 1024));
    for _ in 0..10 {
        let reply = app.post_form("/v2/translate", &key, &big);
        assert_eq!(reply.status, 413, "{}", reply.text());
    }
    assert_eq!(usage(&app, &key)["character_count"], 0);
}

#[test]
fn get_with_query_parameters_still_works_but_is_deprecated() {
    let (app, key) = app();
    let reply = app.call("GET", "/v2/translate?text=Hello&source_lang=EN&target_lang=DE", &key);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert!(reply.header("deprecation").is_some_and(|value| value.starts_with('@')));
    let post = translate(&app, &key, json!({"text": ["Hello"], "source_lang": "EN", "target_lang": "DE"}));
    assert!(post.header("deprecation").is_none());
    assert_eq!(reply.json(), post.json());
    assert!(under_spin() || app.wait_for_log("deprecated: GET /v2/translate").is_some());
}

#[test]
fn the_v1_path_translates_and_bills_like_v2() {
    let (app, key) = app();
    let reply =
        app.post_json("/v1/translate", &key, &json!({"text": ["Hello"], "source_lang": "EN", "target_lang": "DE"}));
    assert_eq!(reply.status, 200);
    assert_eq!(usage(&app, &key)["character_count"], 5);
}

#[test]
fn reporting_tags_are_validated() {
    let (app, key) = app();
    let authorization = format!("Service-Auth-Key {key}");
    let body = json!({"text": ["Hello"], "source_lang": "EN", "target_lang": "DE"}).to_string();
    let send = |tag: &str| {
        app.request(
            "POST",
            "/v2/translate",
            &[
                ("authorization", &authorization),
                ("content-type", "application/json"),
                ("x-service-reporting-tag", tag),
            ],
            Some(body.as_bytes()),
        )
    };
    assert_eq!(send("  Team-Alpha ").status, 200);
    for bad in ["two words", &"x".repeat(101), "caf\u{e9}"] {
        let reply = send(bad);
        assert_eq!(reply.status, 400, "{bad}");
        assert!(reply.json()["message"].as_str().unwrap().contains("X-Service-Reporting-Tag"));
    }
    // Two tags for one request: the handler sees both header fields and refuses.
    let repeated = app.request(
        "POST",
        "/v2/translate",
        &[
            ("authorization", &authorization),
            ("content-type", "application/json"),
            ("x-service-reporting-tag", "team-alpha"),
            ("x-service-reporting-tag", "team-beta"),
        ],
        Some(body.as_bytes()),
    );
    assert_eq!(repeated.status, 400, "{}", repeated.text());
    assert!(repeated.json()["message"].as_str().unwrap().contains("X-Service-Reporting-Tag"), "{}", repeated.text());
    assert_eq!(usage(&app, &key)["character_count"], 5, "refused requests bill nothing");
}

#[test]
fn a_key_limit_holds_under_concurrent_requests() {
    let (app, key) = app();
    let key_id = {
        let keys = app.call("GET", "/v2/admin/developer-keys", BOOTSTRAP_ADMIN_KEY).json();
        keys.as_array().unwrap().last().unwrap()["key_id"].as_str().unwrap().to_owned()
    };
    let limits = app.request(
        "PUT",
        "/v2/admin/developer-keys/limits",
        &[("authorization", &format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}")), ("content-type", "application/json")],
        Some(json!({"key_id": key_id, "characters": 100}).to_string().as_bytes()),
    );
    assert_eq!(limits.status, 200, "{}", limits.text());

    let app = Arc::new(app);
    let workers: Vec<_> = (0..32)
        .map(|_| {
            let app = Arc::clone(&app);
            let key = key.clone();
            std::thread::spawn(move || {
                translate(&app, &key, json!({"text": ["0123456789"], "source_lang": "EN", "target_lang": "DE"})).status
            })
        })
        .collect();
    let statuses: Vec<u16> = workers.into_iter().map(|worker| worker.join().unwrap()).collect();
    assert_eq!(statuses.iter().filter(|&&status| status == 200).count(), 10, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|&&status| status == 456).count(), 22, "{statuses:?}");
    let report = usage(&app, &key);
    assert_eq!(report["api_key_character_count"], 100);
    assert_eq!(report["api_key_character_limit"], 100);
    let refused = translate(&app, &key, json!({"text": ["x"], "source_lang": "EN", "target_lang": "DE"}));
    assert_eq!(refused.json(), json!({"message": "Quota for this billing period has been exceeded."}));
}

#[test]
fn the_free_plan_stops_at_half_a_million_characters() {
    let app = TestApp::start(Options::app());
    let (_, admin) = app.create_subscription("free");
    let key = app.create_developer_key(&admin, None)["key"].as_str().unwrap().to_owned();
    assert!(key.ends_with(":fx"));
    let chunk = "a".repeat(100_000);
    for _ in 0..4 {
        let reply = translate(&app, &key, json!({"text": [chunk], "source_lang": "EN", "target_lang": "DE"}));
        assert_eq!(reply.status, 200);
    }
    let over = translate(&app, &key, json!({"text": [chunk, "b"], "source_lang": "EN", "target_lang": "DE"}));
    assert_eq!(over.status, 456);
    let exact = translate(&app, &key, json!({"text": [chunk], "source_lang": "EN", "target_lang": "DE"}));
    assert_eq!(exact.status, 200);
    assert_eq!(usage(&app, &key), json!({"character_count": 500_000, "character_limit": 500_000}));
}

#[test]
fn an_engine_that_is_down_answers_503_and_bills_nothing() {
    let dead = format!("http://127.0.0.1:{}", e2e::free_port());
    let app =
        TestApp::start(Options::app().env("SPIN_VARIABLE_ENGINE", "apertium").env("SPIN_VARIABLE_APERTIUM_URL", &dead));
    let key = app.developer_key();
    let reply = translate(&app, &key, json!({"text": ["Hello"], "source_lang": "EN", "target_lang": "ES"}));
    assert_eq!(reply.status, 503);
    assert!(reply.json()["message"].as_str().unwrap().contains("unavailable"));
    assert_eq!(usage(&app, &key)["character_count"], 0);
}

#[test]
fn the_openai_engine_sends_the_request_to_an_openai_compatible_server() {
    let (port, received) = e2e::fake_chat_server(r#"["Hallo, Welt!", "Wie geht's?"]"#);
    let app = TestApp::start(Options::app().with_openai_at(port).env("SPIN_VARIABLE_OPENAI_API_KEY", "sk-test-secret"));
    let key = app.developer_key();
    let reply = translate(
        &app,
        &key,
        json!({"text": ["Hello, world!", "How are you?"], "source_lang": "EN", "target_lang": "DE", "formality": "more",
               "context": "A letter to a customer.", "custom_instructions": ["Use British spelling."]}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let body = reply.json();
    assert_eq!(body["translations"][0]["text"], "Hallo, Welt!");
    assert_eq!(body["translations"][1]["text"], "Wie geht's?");
    let requests = received.lock().unwrap();
    assert_eq!(requests.len(), 1, "one call for the whole request");
    let request = &requests[0];
    let head = request.to_ascii_lowercase();
    assert!(head.contains("authorization: bearer sk-test-secret"), "{request}");
    assert!(head.contains("content-length: "), "the body's length is sent ahead of it, not chunked: {request}");
    for expected in
        ["test-model", "German", "formal", "A letter to a customer.", "Use British spelling.", "Hello, world!"]
    {
        assert!(request.contains(expected), "missing {expected:?} in {request}");
    }
    // The request's own line is logged after everything it logged (the Spin CLI logs none).
    assert!(under_spin() || app.wait_for_log("POST /v2/translate 200").is_some(), "{}", app.log());
    assert!(!app.log().contains("sk-test-secret"), "the API key must never be logged");
}

#[test]
fn the_official_python_client_translates_through_the_app() {
    let (app, key) = app();
    let report = app.python_client_report("client.py", &key);
    assert_eq!(report["single"]["detected_source_lang"], "EN");
    assert_eq!(report["single"]["billed_characters"], 13);
    assert_ne!(report["single"]["text"], "Hello, world!");
    assert_eq!(report["several"].as_array().unwrap().len(), 2);
    let tagged = report["tagged"].as_str().unwrap();
    assert!(tagged.starts_with("<p>") && tagged.contains("<b>") && tagged.ends_with("</p>"), "{tagged}");
    assert_eq!(report["detected"], "DE");
    assert_eq!(report["source_languages"], 101);
    assert_eq!(report["target_languages"], 106);
    assert_eq!(report["glossary_pairs"], 992);
    let refused = report["bad_target"].as_str().unwrap();
    assert!(refused.starts_with("refused") && refused.contains("target_lang"), "{refused}");
    assert!(report["usage"]["count"].as_i64().unwrap() > 13);
}

#[test]
fn the_source_language_of_markup_is_detected_from_its_text_content_only() {
    let (app, key) = app();
    let english = "and the of the to the is the that the with the for the this the you the are the";
    let html = format!(
        "<html><head><style>/* {english} */</style><script>var s = '{english}';</script></head>\
         <body><p title=\"{english}\">Das Wetter ist heute schön und wir gehen im Park spazieren.</p></body></html>"
    );
    let xml = format!(
        "<doc lang=\"{english}\"><note>{english}</note><p>Das Wetter ist heute schön und wir gehen spazieren.</p></doc>"
    );
    for (text, options) in
        [(html, json!({"tag_handling": "html"})), (xml, json!({"tag_handling": "xml", "ignore_tags": ["note"]}))]
    {
        let mut body = json!({"text": [text], "target_lang": "FR"});
        body.as_object_mut().unwrap().extend(options.as_object().unwrap().clone());
        let reply = translate(&app, &key, body);
        assert_eq!(reply.status, 200, "{}", reply.text());
        let translation = &reply.json()["translations"][0];
        assert_eq!(translation["detected_source_language"], "DE", "{options}: {translation}");
    }
}

#[test]
fn a_form_body_is_read_in_the_charset_it_declares() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let authorization = format!("Service-Auth-Key {key}");
    let send = |content_type: &str, body: &[u8]| {
        app.request(
            "POST",
            "/v2/translate",
            &[("authorization", authorization.as_str()), ("content-type", content_type)],
            Some(body),
        )
    };
    // "Grüße" in ISO-8859-1: ü = FC, ß = DF; once percent-encoded, once as raw bytes.
    let utf8 = send("application/x-www-form-urlencoded", b"text=Gr%C3%BC%C3%9Fe&source_lang=DE&target_lang=EN");
    assert_eq!(utf8.status, 200, "{}", utf8.text());
    for (charset, body) in [
        ("latin1", &b"text=Gr%FC%DFe&source_lang=DE&target_lang=EN"[..]),
        ("ISO-8859-1", &b"text=Gr\xfc\xdfe&source_lang=DE&target_lang=EN"[..]),
    ] {
        let reply = send(&format!("application/x-www-form-urlencoded; charset={charset}"), body);
        assert_eq!(reply.status, 200, "{charset}: {}", reply.text());
        assert_eq!(reply.json(), utf8.json(), "{charset}: the same text as in UTF-8");
    }
    for (content_type, charset) in [
        ("application/x-www-form-urlencoded; charset=klingon", "klingon"),
        ("application/json; charset=latin1", "latin1"),
    ] {
        let reply = send(content_type, b"text=Hallo&target_lang=EN");
        assert_eq!(reply.status, 415, "{content_type}: {}", reply.text());
        let message = reply.json()["message"].as_str().unwrap_or_default().to_owned();
        assert!(message.contains(&format!("`{charset}`")), "{content_type}: {message}");
    }
}
