//! Component `style-rules` (`/v3/style_rules`) and style rules in `POST /v2/translate`: every
//! endpoint, every validation rule, paging, tenancy, the rules Glossa applies itself after the
//! deterministic and Apertium engines, the header that names what an engine could not honour,
//! and the official Python and Node client libraries.

use e2e::{Json, Options, Reply, TestApp, json};

/// A UUID no list has.
const UNKNOWN_ID: &str = "0b5a3e1c-7d2f-4c1a-9e8b-3f6d2a1c0e9f";
/// The header that lists the rules and instructions the serving engine could not honour.
const NOT_APPLIED: &str = "x-service-rules-not-applied";

fn app() -> (TestApp, String) {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    (app, key)
}

/// A request with `key` and an optional JSON body.
fn send(app: &TestApp, method: &str, path: &str, key: &str, body: Option<&Json>) -> Reply {
    let authorization = format!("Service-Auth-Key {key}");
    let mut headers = vec![("authorization", authorization.as_str())];
    let body = body.map(|body| body.to_string());
    if body.is_some() {
        headers.push(("content-type", "application/json"));
    }
    app.request(method, path, &headers, body.as_deref().map(str::as_bytes))
}

fn message(reply: &Reply) -> String {
    reply.json()["message"].as_str().unwrap_or_default().to_owned()
}

/// Creates a list and answers it.
fn create(app: &TestApp, key: &str, body: Json) -> Json {
    let reply = send(app, "POST", "/v3/style_rules", key, Some(&body));
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

fn id_of(list: &Json) -> String {
    list["style_id"].as_str().expect("a style_id").to_owned()
}

/// `POST /v2/translate` with `body`.
fn translate(app: &TestApp, key: &str, body: Json) -> Reply {
    app.post_json("/v2/translate", key, &body)
}

#[test]
fn a_list_is_created_read_renamed_configured_and_deleted() {
    let (app, key) = app();
    let created = create(
        &app,
        &key,
        json!({"name": "House style", "language": "DE",
               "configured_rules": {"punctuation": {"apostrophe": "use_curly_apostrophes"}},
               "custom_instructions": [{"label": "Brand", "prompt": "Never translate Glossa.", "source_language": "en"}]}),
    );
    let id = id_of(&created);
    assert_eq!(created["name"], "House style");
    assert_eq!(created["language"], "de");
    assert_eq!(created["version"], 1);
    assert_eq!(created["creation_time"], created["updated_time"]);
    assert!(created["creation_time"].as_str().unwrap().ends_with('Z'));
    assert_eq!(created["configured_rules"], json!({"punctuation": {"apostrophe": "use_curly_apostrophes"}}));
    let instruction = &created["custom_instructions"][0];
    assert_eq!((&instruction["label"], &instruction["prompt"]), (&json!("Brand"), &json!("Never translate Glossa.")));
    assert_eq!(instruction["source_language"], "en");
    assert_eq!(instruction["id"].as_str().unwrap().len(), 36);

    let got = send(&app, "GET", &format!("/v3/style_rules/{id}"), &key, None);
    assert_eq!(got.status, 200);
    assert_eq!(got.json(), created);

    let renamed = send(&app, "PATCH", &format!("/v3/style_rules/{id}"), &key, Some(&json!({"name": "Hausstil"})));
    assert_eq!(renamed.status, 200, "{}", renamed.text());
    assert_eq!((&renamed.json()["name"], &renamed.json()["version"]), (&json!("Hausstil"), &json!(2)));

    let rules = json!({"numbers": {"decimal_separator": "use_comma_as_decimal_separator"},
                       "punctuation": {"quotation_mark": "use_guillemets"}});
    let replaced = send(&app, "PUT", &format!("/v3/style_rules/{id}/configured_rules"), &key, Some(&rules));
    assert_eq!(replaced.status, 200, "{}", replaced.text());
    assert_eq!(replaced.json()["configured_rules"], rules);
    assert_eq!(replaced.json()["version"], 3);
    assert_eq!(replaced.json()["custom_instructions"].as_array().unwrap().len(), 1);

    let deleted = send(&app, "DELETE", &format!("/v3/style_rules/{id}"), &key, None);
    assert_eq!((deleted.status, deleted.body.len()), (204, 0));
    let gone = send(&app, "GET", &format!("/v3/style_rules/{id}"), &key, None);
    assert_eq!((gone.status, message(&gone).as_str()), (404, "Style rule list not found."));
    assert_eq!(send(&app, "DELETE", &format!("/v3/style_rules/{id}"), &key, None).status, 404);
}

#[test]
fn custom_instructions_are_added_read_replaced_and_deleted() {
    let (app, key) = app();
    let id = id_of(&create(&app, &key, json!({"name": "x", "language": "en"})));
    let base = format!("/v3/style_rules/{id}/custom_instructions");
    let added = send(&app, "POST", &base, &key, Some(&json!({"label": "Tone", "prompt": "Be brief."})));
    assert_eq!(added.status, 201, "{}", added.text());
    let added = added.json();
    assert!(added.get("source_language").is_none(), "{added}");
    let instruction = format!("{base}/{}", added["id"].as_str().unwrap());
    assert_eq!(send(&app, "GET", &instruction, &key, None).json(), added);

    let replaced = send(
        &app,
        "PUT",
        &instruction,
        &key,
        Some(&json!({"label": "Tone", "prompt": "Be briefer.", "source_language": "FR"})),
    );
    assert_eq!(replaced.status, 200, "{}", replaced.text());
    assert_eq!(replaced.json()["prompt"], "Be briefer.");
    assert_eq!(replaced.json()["source_language"], "fr");
    assert_eq!(replaced.json()["id"], added["id"]);

    let list = send(&app, "GET", &format!("/v3/style_rules/{id}"), &key, None).json();
    assert_eq!(list["version"], 3);
    assert_eq!(list["custom_instructions"][0]["prompt"], "Be briefer.");

    assert_eq!(send(&app, "DELETE", &instruction, &key, None).status, 204);
    let gone = send(&app, "GET", &instruction, &key, None);
    assert_eq!((gone.status, message(&gone).as_str()), (404, "Custom instruction not found."));
    assert_eq!(send(&app, "DELETE", &instruction, &key, None).status, 404);
    let missing = send(&app, "PUT", &format!("{base}/{UNKNOWN_ID}"), &key, Some(&json!({"label": "a", "prompt": "b"})));
    assert_eq!(missing.status, 404);
    assert_eq!(send(&app, "GET", &format!("/v3/style_rules/{id}"), &key, None).json()["version"], 4);
}

#[test]
fn every_field_is_validated_with_a_message_naming_it() {
    let (app, key) = app();
    let refused = |body: Json| {
        let reply = send(&app, "POST", "/v3/style_rules", &key, Some(&body));
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        message(&reply)
    };
    assert_eq!(refused(json!({"language": "en"})), "Parameter 'name' not specified");
    assert_eq!(refused(json!({"name": "x"})), "Parameter 'language' not specified");
    assert!(refused(json!({"name": "x", "language": "nl"})).contains("de, en, es, fr, it, ja, ko or zh"));
    assert!(refused(json!({"name": "x".repeat(1025), "language": "en"})).contains("at most 1024 characters"));
    assert!(refused(json!({"name": "x", "language": "en", "configured_rules": {"colours": {}}})).contains("'colours'"));
    assert!(
        refused(json!({"name": "x", "language": "en", "configured_rules": {"punctuation": {"commas": "many"}}}))
            .contains("punctuation.commas")
    );
    let bad_option =
        refused(json!({"name": "x", "language": "en", "configured_rules": {"punctuation": {"apostrophe": "wavy"}}}));
    assert!(bad_option.contains("wavy") && bad_option.contains("punctuation.apostrophe"), "{bad_option}");
    let long_prompt = json!([{"label": "l", "prompt": "p".repeat(301)}]);
    assert_eq!(
        refused(json!({"name": "x", "language": "en", "custom_instructions": long_prompt})),
        "Value for 'custom_instructions[0].prompt' not supported: it may have at most 300 characters."
    );
    let many: Vec<Json> = (0..201).map(|index| json!({"label": format!("{index}"), "prompt": "p"})).collect();
    assert!(refused(json!({"name": "x", "language": "en", "custom_instructions": many})).contains("at most 200"));
    // Nothing refused was stored.
    let listed = send(&app, "GET", "/v3/style_rules", &key, None);
    assert_eq!(listed.json(), json!({"style_rules": []}));

    let id = id_of(&create(&app, &key, json!({"name": "x", "language": "en"})));
    let instructions = format!("/v3/style_rules/{id}/custom_instructions");
    let reply = send(&app, "POST", &instructions, &key, Some(&json!({"label": "l".repeat(101), "prompt": "p"})));
    assert_eq!(
        (reply.status, message(&reply).as_str()),
        (400, "Value for 'label' not supported: it may have at most 100 characters.")
    );
    let reply = send(&app, "POST", &instructions, &key, Some(&json!({"label": "l"})));
    assert_eq!(message(&reply), "Parameter 'prompt' not specified");
    let reply = send(&app, "PATCH", &format!("/v3/style_rules/{id}"), &key, Some(&json!({})));
    assert_eq!((reply.status, message(&reply).as_str()), (400, "Parameter 'name' not specified"));
    let reply = send(&app, "PUT", &format!("/v3/style_rules/{id}/configured_rules"), &key, Some(&json!(["x"])));
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(send(&app, "GET", &format!("/v3/style_rules/{id}"), &key, None).json()["version"], 1);

    for path in ["/v3/style_rules/not-a-uuid", "/v3/style_rules/12345/configured_rules"] {
        let reply = send(&app, "GET", path, &key, None);
        let reply = if reply.status == 405 { send(&app, "PUT", path, &key, Some(&json!({}))) } else { reply };
        assert_eq!((reply.status, message(&reply).as_str()), (400, "Invalid style_id"), "{path}");
    }
    let reply = send(&app, "GET", &format!("/v3/style_rules/{id}/custom_instructions/nope"), &key, None);
    assert_eq!((reply.status, message(&reply).as_str()), (400, "Invalid instruction_id"));
    let reply = send(&app, "GET", &format!("/v3/style_rules/{UNKNOWN_ID}"), &key, None);
    assert_eq!(reply.status, 404);
}

#[test]
fn listings_are_paged_and_detailed_on_request() {
    let (app, key) = app();
    for index in 0..12 {
        create(
            &app,
            &key,
            json!({"name": format!("list {index:02}"), "language": "fr",
                   "custom_instructions": [{"label": "l", "prompt": "p"}]}),
        );
    }
    let page = |query: &str| {
        let reply = send(&app, "GET", &format!("/v3/style_rules{query}"), &key, None);
        assert_eq!(reply.status, 200, "{query}: {}", reply.text());
        reply.json()["style_rules"].as_array().unwrap().clone()
    };
    assert_eq!(page("").len(), 10);
    let second = page("?page=1&page_size=5");
    let names: Vec<&str> = second.iter().map(|list| list["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["list 05", "list 06", "list 07", "list 08", "list 09"]);
    assert!(page("?page=3&page_size=5").is_empty());
    assert!(second[0].get("configured_rules").is_none() && second[0].get("custom_instructions").is_none());
    let detailed = page("?page=0&page_size=25&detailed=true");
    assert_eq!(detailed.len(), 12);
    assert_eq!(detailed[0]["custom_instructions"][0]["prompt"], "p");
    assert_eq!(detailed[0]["configured_rules"], json!({}));
    for query in ["?page_size=0", "?page_size=26", "?page=-1", "?detailed=maybe"] {
        assert_eq!(send(&app, "GET", &format!("/v3/style_rules{query}"), &key, None).status, 400, "{query}");
    }
}

#[test]
fn another_subscriptions_lists_are_not_found_and_admin_keys_are_refused() {
    let (app, key) = app();
    let id = id_of(&create(
        &app,
        &key,
        json!({"name": "mine", "language": "en",
        "custom_instructions": [{"label": "l", "prompt": "p"}]}),
    ));
    let (_, other_admin) = app.create_subscription("pro");
    let other = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    let list = format!("/v3/style_rules/{id}");
    for (method, path, body) in [
        ("GET", list.clone(), None),
        ("PATCH", list.clone(), Some(json!({"name": "theirs"}))),
        ("DELETE", list.clone(), None),
        ("PUT", format!("{list}/configured_rules"), Some(json!({}))),
        ("POST", format!("{list}/custom_instructions"), Some(json!({"label": "l", "prompt": "p"}))),
    ] {
        let reply = send(&app, method, &path, &other, body.as_ref());
        assert_eq!(reply.status, 404, "{method} {path}: {}", reply.text());
    }
    assert_eq!(send(&app, "GET", "/v3/style_rules", &other, None).json(), json!({"style_rules": []}));
    let translated =
        translate(&app, &other, json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "EN-GB", "style_id": id}));
    assert_eq!(translated.status, 404, "{}", translated.text());
    // Untouched by all of that.
    assert_eq!(send(&app, "GET", &list, &key, None).json()["version"], 1);

    let admin = send(&app, "GET", "/v3/style_rules", e2e::BOOTSTRAP_ADMIN_KEY, None);
    assert_eq!(admin.status, 403);
    assert_eq!(app.request("GET", "/v3/style_rules", &[], None).status, 403);
    let wrong = send(&app, "POST", &list, &key, Some(&json!({})));
    assert_eq!(wrong.status, 405);
    assert_eq!(wrong.header("allow"), Some("GET, PATCH, DELETE"));
    assert_eq!(send(&app, "GET", "/v3/style_rules/a/b/c/d", &key, None).status, 404);
}

/// A German list whose rules Glossa applies itself, and one rule it cannot.
fn german_list(app: &TestApp, key: &str) -> String {
    id_of(&create(
        app,
        key,
        json!({"name": "German house style", "language": "de", "configured_rules": {
            "numbers": {"decimal_separator": "use_comma_as_decimal_separator"},
            "dates_and_times": {"dates_in_numerical_form": "use_dd_period_mm_period_yyyy"},
            "punctuation": {"quotation_mark": "use_guillemets", "range_indicator": "use_en_dash_without_spaces"},
        }}),
    ))
}

#[test]
fn mechanical_rules_rewrite_numbers_dates_and_quotes_after_the_deterministic_engine() {
    let (app, key) = app();
    let list = german_list(&app, &key);
    let text = r#"It costs 3.5 euros on 2026-11-25, pages 10-20. He said "yes"."#;
    let plain = translate(&app, &key, json!({"text": [text], "source_lang": "EN", "target_lang": "DE"}));
    let plain = plain.json()["translations"][0]["text"].as_str().unwrap().to_owned();
    assert!(plain.contains("3.5") && plain.contains("2026-11-25") && plain.contains("10-20"), "{plain}");
    let styled = translate(
        &app,
        &key,
        json!({"text": [text], "source_lang": "EN", "target_lang": "DE", "style_id": list, "show_billed_characters": true}),
    );
    assert_eq!(styled.status, 200, "{}", styled.text());
    assert_eq!(styled.header(NOT_APPLIED), None, "every rule was applied: {:?}", styled.headers);
    let item = &styled.json()["translations"][0];
    let out = item["text"].as_str().unwrap();
    assert!(out.contains(" 3,5 ") && out.contains("25.11.2026") && out.contains("10–20"), "{out}");
    assert!(out.contains('»') && out.contains('«') && !out.contains('"'), "{out}");
    // Only the rules' places changed: everything else is the plain translation.
    let expected =
        plain.replace("3.5", "3,5").replace("2026-11-25", "25.11.2026").replace("10-20", "10–20").replacen('"', "»", 1);
    assert_eq!(out, expected.replacen('"', "«", 1));
    assert_eq!(item["billed_characters"], text.chars().count());
    // A list applies to its language's variants too.
    let swiss =
        translate(&app, &key, json!({"text": [text], "source_lang": "EN", "target_lang": "DE-CH", "style_id": list}));
    assert!(swiss.json()["translations"][0]["text"].as_str().unwrap().contains("25.11.2026"), "{}", swiss.text());

    // Another target language than the list's: 400, nothing billed.
    let usage = |app: &TestApp| app.call("GET", "/v2/usage", &key).json()["character_count"].clone();
    let before = usage(&app);
    let wrong =
        translate(&app, &key, json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "FR", "style_id": list}));
    assert_eq!(wrong.status, 400);
    assert!(message(&wrong).contains("cannot apply to the target language 'FR'"), "{}", message(&wrong));
    let unknown = translate(
        &app,
        &key,
        json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "DE", "style_id": UNKNOWN_ID}),
    );
    assert_eq!(unknown.status, 404);
    let malformed =
        translate(&app, &key, json!({"text": ["Hi"], "source_lang": "EN", "target_lang": "DE", "style_id": "nope"}));
    assert_eq!(malformed.status, 400);
    assert_eq!(usage(&app), before);
}

#[test]
fn rules_and_instructions_the_engine_cannot_honour_are_named_in_a_header() {
    let (app, key) = app();
    let list = id_of(&create(
        &app,
        &key,
        json!({"name": "x", "language": "en", "configured_rules": {
                "style_and_tone": {"formality": "use_formal_tone"},
                "punctuation": {"apostrophe": "use_curly_apostrophes"}},
               "custom_instructions": [{"label": "l", "prompt": "Only for German texts.", "source_language": "de"}]}),
    ));
    let reply = translate(
        &app,
        &key,
        json!({"text": ["Bonjour, c'est moi."], "source_lang": "FR", "target_lang": "EN-GB", "style_id": list}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header(NOT_APPLIED), Some("style_and_tone.formality"), "the instruction is for German texts");
    assert!(reply.json()["translations"][0]["text"].as_str().unwrap().contains('’'), "{}", reply.text());
    let reply = translate(
        &app,
        &key,
        json!({"text": ["Hallo."], "source_lang": "DE", "target_lang": "EN-US", "style_id": list,
               "custom_instructions": ["Be brief."]}),
    );
    assert_eq!(reply.header(NOT_APPLIED), Some("style_and_tone.formality, custom_instructions"));
    let reply = translate(
        &app,
        &key,
        json!({"text": ["Hallo."], "source_lang": "DE", "target_lang": "FR", "custom_instructions": ["Be brief."]}),
    );
    assert_eq!(reply.header(NOT_APPLIED), Some("custom_instructions"));
    // Nothing to translate: nothing was dropped.
    let reply =
        translate(&app, &key, json!({"text": ["Hi."], "source_lang": "EN", "target_lang": "EN-GB", "style_id": list}));
    assert_eq!(reply.header(NOT_APPLIED), None);
}

#[test]
fn an_engine_that_follows_instructions_gets_the_rules_and_instructions_in_its_prompt() {
    let (port, received) = e2e::fake_chat_server(r#"["Es kostet 3.5 Euro."]"#);
    let app = TestApp::start(Options::app().with_openai_at(port));
    let key = app.developer_key();
    let list = id_of(&create(
        &app,
        &key,
        json!({"name": "x", "language": "de", "configured_rules": {
                "style_and_tone": {"formality": "use_formal_tone"},
                "numbers": {"decimal_separator": "use_comma_as_decimal_separator"}},
               "custom_instructions": [{"label": "Brand", "prompt": "Never translate the word Glossa."}]}),
    ));
    let reply = translate(
        &app,
        &key,
        json!({"text": ["It costs 3.5 euros."], "source_lang": "EN", "target_lang": "DE", "style_id": list,
               "custom_instructions": ["Keep it short."]}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header(NOT_APPLIED), None);
    assert_eq!(reply.json()["translations"][0]["text"], "Es kostet 3,5 Euro.", "the mechanical rule after the engine");
    let prompt = received.lock().unwrap()[0].clone();
    for expected in
        ["Style and tone, formality: use formal tone.", "Never translate the word Glossa.", "Keep it short."]
    {
        assert!(prompt.contains(expected), "missing {expected:?} in {prompt}");
    }
    assert!(!prompt.contains("decimal separator"), "mechanical rules are applied, not asked for: {prompt}");
}

#[test]
fn mechanical_rules_apply_after_apertium() {
    let app = TestApp::start(
        Options::app().env("SPIN_VARIABLE_ENGINE", "apertium").env("SPIN_VARIABLE_APERTIUM_URL", e2e::apertium()),
    );
    let key = app.developer_key();
    let list = id_of(&create(
        &app,
        &key,
        json!({"name": "Spanish", "language": "es", "configured_rules": {
            "numbers": {"decimal_separator": "use_comma_as_decimal_separator"},
            "dates_and_times": {"dates_in_numerical_form": "use_dd_slash_mm_slash_yyyy"},
            "punctuation": {"quotation_mark": "use_guillemets"}}}),
    ));
    let text = r#"The price is 3.5 euros since 2026-11-25. He said "hello"."#;
    let plain = translate(&app, &key, json!({"text": [text], "source_lang": "EN", "target_lang": "ES"}));
    assert_eq!(plain.status, 200, "{}", plain.text());
    let plain = plain.json()["translations"][0]["text"].as_str().unwrap().to_owned();
    let styled =
        translate(&app, &key, json!({"text": [text], "source_lang": "EN", "target_lang": "ES", "style_id": list}));
    assert_eq!(styled.status, 200, "{}", styled.text());
    assert_eq!(styled.header("x-service-engine"), Some("apertium"));
    let out = styled.json()["translations"][0]["text"].as_str().unwrap().to_owned();
    assert!(plain.contains("3.5") && plain.contains("2026-11-25"), "{plain}");
    assert!(out.contains("3,5") && out.contains("25/11/2026") && out.contains('«') && out.contains('»'), "{out}");
    assert!(!out.contains('"'), "{out}");
}

#[test]
fn the_official_python_and_node_clients_manage_and_apply_style_rules() {
    let (app, key) = app();
    let python = app.python_client_report("style_rules.py", &key);
    assert_eq!(python["created"]["name"], "Client house style");
    assert_eq!(python["created"]["language"], "de");
    assert_eq!(python["created"]["version"], 1);
    assert_eq!(python["created_rules"], json!({"quotation_mark": "use_guillemets"}));
    assert_eq!(python["created_instructions"][0]["prompt"], "Never translate the word Glossa.");
    assert_eq!(python["listed"], json!([python["created"]["style_id"]]));
    assert_eq!(python["listed_detailed"], json!([1]));
    assert_eq!(python["got"]["style_id"], python["created"]["style_id"]);
    assert_eq!((&python["renamed"]["name"], &python["renamed"]["version"]), (&json!("Renamed house style"), &json!(2)));
    assert_eq!(python["updated_rules"], json!({"decimal_separator": "use_comma_as_decimal_separator"}));
    assert_eq!(python["added"]["source_language"], "en");
    assert_eq!(python["fetched"], python["added"]);
    assert_eq!(python["replaced"]["prompt"], "Keep sentences very short.");
    assert_eq!(python["replaced"]["source_language"], json!(null));
    assert!(python["after_instruction_delete"].as_str().unwrap().starts_with("refused"), "{python}");
    assert!(python["translated"].as_str().unwrap().contains("3,5"), "{python}");
    assert!(python["wrong_language"].as_str().unwrap().contains("cannot apply"), "{python}");
    assert_eq!(python["final_version"], 6);
    assert!(python["after_delete"].as_str().unwrap().starts_with("refused"), "{python}");

    let node = app.node_client_report("style_rules.mjs", &key);
    assert_eq!(node["created"]["language"], "en");
    assert_eq!(node["created_rules"], json!({"punctuation": {"apostrophe": "use_curly_apostrophes"}}));
    assert_eq!(node["got"]["style_id"], node["created"]["style_id"]);
    assert_eq!(node["renamed"]["name"], "Renamed");
    assert_eq!(node["updated"]["version"], 3);
    assert_eq!(node["added"], json!({"label": "Tone", "prompt": "Be brief.", "has_id": true}));
    assert_eq!((&node["fetched"], &node["replaced"]), (&json!("Be brief."), &json!("Be briefer.")));
    let translated = node["translated"].as_str().unwrap();
    assert!(translated.contains('\'') && !translated.contains('’'), "straight apostrophes: {translated}");
    assert!(node["wrong_language"].as_str().unwrap().contains("cannot apply"), "{node}");
    assert!(node["after_delete"].as_str().unwrap().contains("not found"), "{node}");
}
