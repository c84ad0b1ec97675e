//! Component `languages`: the v3 and (deprecated) v2 listings, limited to what the configured
//! engine translates and (write) to what the language-tools service corrects; and one real
//! translation through Apertium.

use e2e::{Options, TestApp, free_port, json};

fn app() -> (TestApp, String) {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    (app, key)
}

#[test]
fn the_v2_listings_cover_the_whole_catalogue_with_the_deterministic_engine() {
    let (app, key) = app();
    let sources = app.call("GET", "/v2/languages", &key);
    assert_eq!(sources.status, 200);
    assert_eq!(sources.json().as_array().unwrap().len(), 101);
    assert!(sources.json()[0].get("supports_formality").is_none());
    let targets = app.call("GET", "/v2/languages?type=target", &key).json();
    let targets = targets.as_array().unwrap();
    assert_eq!(targets.len(), 106);
    let codes: Vec<&str> = targets.iter().map(|language| language["language"].as_str().unwrap()).collect();
    for listed in ["EN-GB", "EN-US", "PT-BR", "PT-PT", "ES-419", "ZH", "ZH-HANS", "ZH-HANT"] {
        assert!(codes.contains(&listed), "{listed}");
    }
    for absent in ["EN", "PT", "DE-CH", "FR-CA", "ACE"] {
        assert!(!codes.contains(&absent), "{absent}");
    }
    let german = targets.iter().find(|language| language["language"] == "DE").unwrap();
    assert_eq!(german, &json!({"language": "DE", "name": "German", "supports_formality": true}));
    assert_eq!(
        app.call("GET", "/v2/languages?type=both", &key).json(),
        json!({"message": "Value for 'type' not supported."})
    );
}

#[test]
fn the_listings_see_the_time_a_test_names_like_every_other_component() {
    // With the brownout schedule `00-09`, the legacy `auth_key` parameter is refused to Pro
    // subscriptions in the first ten minutes of every hour: at 10:05 the listing refuses it, at
    // 10:20 it answers.
    let app = TestApp::start(Options::app().env("SPIN_VARIABLE_LEGACY_AUTH_BROWNOUT", "00-09"));
    let key = app.developer_key();
    let path = format!("/v2/languages?auth_key={key}");
    let at = |time: &str| app.request("GET", &path, &[("x-service-test-time", time)], None);
    let refused = at("2026-05-04T10:05:00Z");
    assert_eq!(refused.status, 403, "{}", refused.text());
    assert!(refused.json()["message"].as_str().unwrap().contains("brownout"));
    assert_eq!(at("2026-05-04T10:20:00Z").status, 200);
}

#[test]
fn the_v2_listings_are_deprecated_with_a_link_to_their_successor() {
    let (app, key) = app();
    for (path, successor) in [
        ("/v2/languages", "</v3/languages?resource=translate_text>; rel=\"successor-version\""),
        ("/v2/glossary-language-pairs", "</v3/languages?resource=glossary>; rel=\"successor-version\""),
    ] {
        let reply = app.call("GET", path, &key);
        assert_eq!(reply.status, 200);
        // Deprecated on 2026-05-18, 00:00 UTC (RFC 9745: `@` and a Unix time); no sunset is announced.
        assert_eq!(reply.header("deprecation"), Some("@1779062400"), "{path}");
        assert!(reply.header("sunset").is_none(), "{path}");
        assert_eq!(reply.header("link"), Some(successor));
    }
    let v3 = app.call("GET", "/v3/languages?resource=translate_text", &key);
    assert!(v3.header("deprecation").is_none());
}

#[test]
fn glossary_pairs_are_every_ordered_pair_of_glossary_languages() {
    let (app, key) = app();
    let pairs = app.call("GET", "/v2/glossary-language-pairs", &key).json();
    let pairs = pairs["supported_languages"].as_array().unwrap();
    assert_eq!(pairs.len(), 32 * 31);
    assert!(pairs.contains(&json!({"source_lang": "de", "target_lang": "en"})));
    assert!(!pairs.iter().any(|pair| pair["source_lang"] == "th" || pair["target_lang"] == "th"));
}

#[test]
fn v3_languages_list_features_and_beta_languages_on_request() {
    let (app, key) = app();
    let stable = app.call("GET", "/v3/languages?resource=translate_text", &key).json();
    let german = stable.as_array().unwrap().iter().find(|language| language["lang"] == "de").unwrap().clone();
    assert_eq!(german["usable_as_source"], true);
    assert_eq!(german["usable_as_target"], true);
    assert_eq!(german["status"], "stable");
    assert_eq!(german["features"]["formality"], json!({"status": "stable"}));
    assert!(!stable.as_array().unwrap().iter().any(|language| language["lang"] == "de-CH"));
    let with_beta = app.call("GET", "/v3/languages?resource=translate_text&include=beta", &key).json();
    let swiss = with_beta.as_array().unwrap().iter().find(|language| language["lang"] == "de-CH").unwrap().clone();
    assert_eq!(swiss["status"], "beta");
    assert!(swiss["features"].get("formality").is_none() && swiss["features"].get("glossary").is_none());
}

/// Each resource of the API, and an endpoint of its own that answers something other than 404
/// once the resource is served (`POST` with an empty JSON body: a served endpoint answers 400).
const RESOURCE_ENDPOINTS: [(&str, &str, &str); 7] = [
    ("translate_text", "POST", "/v2/translate"),
    ("translate_document", "POST", "/v2/document"),
    ("glossary", "GET", "/v3/glossaries"),
    ("voice", "POST", "/v3/voice/realtime"),
    ("write", "POST", "/v2/write/rephrase"),
    ("style_rules", "GET", "/v3/style_rules"),
    ("translation_memory", "GET", "/v3/translation_memories"),
];

#[test]
fn only_the_resources_this_deployment_serves_are_advertised() {
    let app = TestApp::start(Options::app().with_language_tools());
    let key = app.developer_key();
    let resources = app.call("GET", "/v3/languages/resources", &key).json();
    let names: Vec<&str> =
        resources.as_array().unwrap().iter().map(|resource| resource["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["translate_text", "translate_document", "glossary", "write", "style_rules", "translation_memory"]
    );
    for (resource, method, path) in RESOURCE_ENDPOINTS {
        let endpoint =
            app.request(method, path, &[("authorization", &format!("Service-Auth-Key {key}"))], Some(b"{}".as_slice()));
        let listing = app.call("GET", &format!("/v3/languages?resource={resource}"), &key);
        if names.contains(&resource) {
            assert_ne!(endpoint.status, 404, "{resource} is listed, so {method} {path} is served");
            assert_eq!(listing.status, 200, "{resource}");
        } else {
            // Voice is built, but not set up here: its endpoint says so.
            let unserved = if resource == "voice" { 503 } else { 404 };
            assert_eq!(endpoint.status, unserved, "{resource} is not listed, and {method} {path} is not served");
            assert_eq!(listing.status, 400, "{resource}");
            assert_eq!(listing.json(), json!({"message": "Value for 'resource' not supported."}), "{resource}");
        }
    }
    assert_eq!(app.call("POST", "/v3/voice/realtime/connect", &key).status, 404);

    // Translation features rest on resources that are served: style rule lists and translation
    // memories.
    let translate = app.call("GET", "/v3/languages?resource=translate_text", &key).json();
    let german = translate.as_array().unwrap().iter().find(|language| language["lang"] == "de").unwrap().clone();
    assert_eq!(
        german["features"],
        json!({"formality": {"status": "stable"}, "style_rules": {"status": "stable"}, "tag_handling": {"status": "stable"},
               "glossary": {"status": "stable"}, "auto_detection": {"status": "stable"},
               "translation_memory": {"status": "stable"}})
    );
    let features: Vec<&str> =
        resources[0]["features"].as_array().unwrap().iter().map(|feature| feature["name"].as_str().unwrap()).collect();
    assert_eq!(
        features,
        ["formality", "style_rules", "tag_handling", "glossary", "auto_detection", "translation_memory"]
    );
}

fn listed(listing: &e2e::Json) -> Vec<&str> {
    listing.as_array().unwrap().iter().map(|language| language["lang"].as_str().unwrap()).collect()
}

#[test]
fn write_is_listed_with_the_languages_the_language_tools_service_corrects_and_only_with_one() {
    let served = TestApp::start(Options::app().with_language_tools());
    let key = served.developer_key();
    let write = served.call("GET", "/v3/languages?resource=write", &key);
    assert_eq!(write.status, 200, "{}", write.text());
    // Japanese, Korean and Chinese are write languages of the API, but the service has no
    // corrector for them.
    assert_eq!(listed(&write.json()), ["de", "en", "en-GB", "en-US", "es", "fr", "it", "pt", "pt-BR", "pt-PT"]);
    let english = write.json().as_array().unwrap().iter().find(|language| language["lang"] == "en-US").cloned();
    assert_eq!(
        english.unwrap()["features"],
        json!({"writing_style": {"status": "stable"}, "tone": {"status": "stable"}})
    );

    let (bare, bare_key) = app();
    let resources = bare.call("GET", "/v3/languages/resources", &bare_key).json();
    let names: Vec<&str> =
        resources.as_array().unwrap().iter().map(|resource| resource["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["translate_text", "translate_document", "glossary", "style_rules", "translation_memory"],
        "no language-tools service: nothing can be improved"
    );
    let refused = bare.call("GET", "/v3/languages?resource=write", &bare_key);
    assert_eq!((refused.status, refused.json()), (400, json!({"message": "Value for 'resource' not supported."})));

    let down = TestApp::start(
        Options::app()
            .env("SPIN_VARIABLE_LANGUAGE_TOOLS_URL", &format!("http://127.0.0.1:{}", free_port()))
            .env("SPIN_VARIABLE_LANGUAGE_TOOLS_SECRET", "configured-but-down"),
    );
    let down_key = down.developer_key();
    let unavailable = down.call("GET", "/v3/languages?resource=write", &down_key);
    assert_eq!(unavailable.status, 503, "{}", unavailable.text());
    assert_eq!(
        unavailable.json(),
        json!({"message": "The language-tools service is unavailable right now; try again later."})
    );
    assert!(down.wait_for_log("cannot list the write languages").is_some(), "the cause is logged");
    let resources = down.call("GET", "/v3/languages/resources", &down_key).json();
    assert_eq!(resources.as_array().unwrap().len(), 6, "write is configured, so it is served");
}

#[test]
fn voice_is_listed_where_it_is_set_up_with_the_spoken_languages_the_models_recognise() {
    let port = e2e::free_port();
    let app = TestApp::start(Options::app().with_inference().with_voice(port));
    let key = app.developer_key();
    let resources = app.call("GET", "/v3/languages/resources", &key).json();
    let voice = resources.as_array().unwrap().iter().find(|resource| resource["name"] == "voice");
    assert!(voice.is_some(), "{resources}");
    let listing = app.call("GET", "/v3/languages?resource=voice", &key);
    assert_eq!(listing.status, 200, "{}", listing.text());
    let listing = listing.json();
    let languages = listing.as_array().unwrap();
    let side = |flag: &str| -> Vec<String> {
        languages
            .iter()
            .filter(|language| language[flag] == true)
            .map(|language| language["lang"].as_str().unwrap().to_owned())
            .collect()
    };
    let (sources, targets) = (side("usable_as_source"), side("usable_as_target"));
    // whisper base recognises every spoken language of the API but Irish.
    for spoken in ["ar", "de", "en", "ja", "nb", "tl", "zh"] {
        assert!(sources.contains(&spoken.to_owned()), "{spoken} in {sources:?}");
    }
    assert!(!sources.contains(&"ga".to_owned()), "Irish is not recognised: {sources:?}");
    assert!(targets.contains(&"ga".to_owned()) && targets.contains(&"en-GB".to_owned()), "{targets:?}");
    let german = languages.iter().find(|language| language["lang"] == "de").unwrap();
    assert_eq!(german["features"]["transcription"], json!({"status": "stable"}), "{german}");
    assert!(german["features"].get("spoken_terms").is_none(), "a beta feature only with include=beta");
    let beta = app.call("GET", "/v3/languages?resource=voice&include=beta", &key).json();
    let english = beta.as_array().unwrap().iter().find(|language| language["lang"] == "en").unwrap().clone();
    assert_eq!(english["features"]["spoken_terms"], json!({"status": "beta"}), "{english}");

    // Translated speech, a closed beta: offered only once the subscription's admins switch it on,
    // as a beta feature of the targets the synthesiser speaks.
    let speech = |include: &str| -> Vec<String> {
        let listing = app.call("GET", &format!("/v3/languages?resource=voice{include}"), &key).json();
        let spoken = listing.as_array().unwrap().iter().filter(|language| {
            let feature = &language["features"]["translated_speech"];
            assert!(feature.is_null() || *feature == json!({"status": "beta"}), "{language}");
            !feature.is_null()
        });
        spoken.map(|language| language["lang"].as_str().unwrap().to_owned()).collect()
    };
    let voice_features = || -> String {
        let resources = app.call("GET", "/v3/languages/resources", &key).json();
        let voice = resources.as_array().unwrap().iter().find(|resource| resource["name"] == "voice").cloned();
        voice.unwrap()["features"].to_string()
    };
    assert!(speech("&include=beta").is_empty(), "switched off");
    assert!(!voice_features().contains("translated_speech"));
    let authorization = format!("Service-Auth-Key {}", e2e::BOOTSTRAP_ADMIN_KEY);
    let on = app.request(
        "PUT",
        "/v2/admin/translated-speech",
        &[("authorization", &authorization), ("content-type", "application/json")],
        Some(br#"{"enabled": true}"#.as_slice()),
    );
    assert_eq!(on.status, 200, "{}", on.text());
    let spoken = speech("&include=beta");
    for target in ["de", "en-GB", "fr", "zh-Hant"] {
        assert!(spoken.contains(&target.to_owned()), "{target} in {spoken:?}");
    }
    assert!(!spoken.contains(&"ja".to_owned()), "kanji are not spoken: {spoken:?}");
    assert!(speech("").is_empty(), "a beta feature only with include=beta");
    assert!(
        voice_features().contains(r#"{"name":"translated_speech","needs_target_support":true}"#),
        "{}",
        voice_features()
    );
    let (_, other_admin) = app.create_subscription("pro");
    let other_key = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    let other = app.call("GET", "/v3/languages?resource=voice&include=beta", &other_key).json();
    assert!(!other.to_string().contains("translated_speech"), "one subscription's switch only");
}

#[test]
fn v3_query_mistakes_are_named() {
    let (app, key) = app();
    let cases = [
        ("/v3/languages", "Parameter 'resource' not specified"),
        ("/v3/languages?resource=nope", "Value for 'resource' not supported."),
        (
            "/v3/languages?product=translate_text",
            "Bad request. Reason: The 'product' parameter has been renamed to 'resource'.",
        ),
        ("/v3/languages?resource=glossary&include=everything", "Value for 'include' not supported."),
        ("/v3/languages?resource=voice", "Value for 'resource' not supported."),
    ];
    for (path, message) in cases {
        let reply = app.call("GET", path, &key);
        assert_eq!(reply.status, 400, "{path}");
        assert_eq!(reply.json(), json!({"message": message}), "{path}");
    }
    assert_eq!(app.call("DELETE", "/v3/languages", &key).status, 405);
    assert_eq!(app.request("GET", "/v3/languages?resource=glossary", &[], None).status, 403);
}

#[test]
fn apertium_translates_for_real_and_the_listings_follow_its_pairs() {
    let apertium = e2e::apertium();
    let app = TestApp::start(
        Options::app().env("SPIN_VARIABLE_ENGINE", "apertium").env("SPIN_VARIABLE_APERTIUM_URL", apertium),
    );
    let key = app.developer_key();
    let reply = app.post_json(
        "/v2/translate",
        &key,
        &json!({"text": ["Hello world. The cat sleeps."], "source_lang": "EN", "target_lang": "ES"}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let text = reply.json()["translations"][0]["text"].as_str().unwrap().to_owned();
    assert!(text.contains("Hola") && text.contains("gato"), "{text}");
    assert!(!text.contains('*'), "unknown-word marks are removed: {text}");

    let pivot = app.post_json(
        "/v2/translate",
        &key,
        &json!({"text": ["The house is big."], "source_lang": "EN", "target_lang": "FR"}),
    );
    assert_eq!(pivot.status, 200, "English to French goes through Spanish: {}", pivot.text());

    let unsupported =
        app.post_json("/v2/translate", &key, &json!({"text": ["Hello"], "source_lang": "EN", "target_lang": "JA"}));
    assert_eq!(unsupported.status, 400);
    assert!(unsupported.json()["message"].as_str().unwrap().contains("EN to JA"));

    let targets = app.call("GET", "/v2/languages?type=target", &key).json();
    let codes: Vec<&str> =
        targets.as_array().unwrap().iter().map(|language| language["language"].as_str().unwrap()).collect();
    for covered in ["ES", "CA", "FR", "PT-BR", "IT", "GL", "EN-GB"] {
        assert!(codes.contains(&covered), "{covered} in {codes:?}");
    }
    assert!(!codes.contains(&"JA"), "{codes:?}");
}
