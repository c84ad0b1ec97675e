use std::cell::Cell;
use std::time::Duration;

use platform::native::SqliteKv;
use platform::{FixedClock, HttpError, HttpResponse};

use super::*;
use crate::test_support::{FakeHttp, dead_url, json_response, language};

const MODELS: &str =
    r#"{"models": [{"source": "zh", "target": "en", "name": "translate-zh_en-1_9", "version": "1.9"}]}"#;

fn settings(url: &str) -> Ctranslate2Settings {
    Ctranslate2Settings::new(url, "the-secret", Duration::from_secs(5))
}

fn texts(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| item.to_string()).collect()
}

/// A service with the zh→en model that translates by upper-casing, echoing placeholders.
fn scripted_service(request: &HttpRequest) -> Result<HttpResponse, HttpError> {
    assert!(request.headers.iter().any(|(name, value)| name == "authorization" && value == "Bearer the-secret"));
    if request.url.ends_with("/v1/translation/models") {
        return json_response(200, MODELS);
    }
    let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
    let translations: Vec<String> =
        body["texts"].as_array().unwrap().iter().map(|text| text.as_str().unwrap().to_uppercase()).collect();
    json_response(200, &serde_json::json!({ "translations": translations }).to_string())
}

#[test]
fn the_coverage_is_the_installed_models_direct_pairs() {
    let http = FakeHttp::new(scripted_service);
    let engine = Ctranslate2Engine::new(settings("http://inference"), &http, None);
    let coverage = engine.coverage().unwrap();
    assert!(coverage.supports_pair(language("ZH"), language("EN-US")));
    assert!(!coverage.supports_pair(language("EN"), language("ZH")));
    assert!(!coverage.supports_pair(language("ZH"), language("DE")));
}

#[test]
fn texts_go_to_the_service_in_one_call_with_the_pair_and_the_secret() {
    let http = FakeHttp::new(scripted_service);
    let engine = Ctranslate2Engine::new(settings("http://inference"), &http, None);
    let inputs = texts(&["ni hao", " <g1>shi</g1> jie\n"]);
    let out = engine.translate(&EngineRequest::new(language("ZH"), language("EN-GB"), &inputs)).unwrap();
    assert_eq!(out, ["NI HAO", " <G1>SHI</G1> JIE\n"]);
    assert_eq!(http.count("/v1/translation/translate"), 1);
    assert_eq!(http.count("/v1/translation/models"), 1, "the list is asked once per engine");
    let sent = http.requests.borrow().last().unwrap().clone();
    let body: serde_json::Value = serde_json::from_slice(&sent.body).unwrap();
    assert_eq!(body["source"], "zh");
    assert_eq!(body["target"], "en");
}

#[test]
fn a_pair_without_a_model_is_unsupported_without_calling_translate() {
    let http = FakeHttp::new(scripted_service);
    let engine = Ctranslate2Engine::new(settings("http://inference"), &http, None);
    let error = engine.translate(&EngineRequest::new(language("EN"), language("ZH"), &texts(&["hi"]))).unwrap_err();
    assert!(matches!(error, EngineError::UnsupportedPair { .. }), "{error:?}");
    assert_eq!(http.count("/v1/translation/translate"), 0);
}

#[test]
fn the_model_list_is_cached_and_the_last_one_stands_while_the_service_is_down() {
    let down = Cell::new(false);
    let http = FakeHttp::new(|request: &HttpRequest| {
        if down.get() {
            return Err(HttpError::Unreachable { url: request.url.clone(), reason: "connection refused".into() });
        }
        scripted_service(request)
    });
    let store = SqliteKv::open_in_memory("default").unwrap();
    let clock = FixedClock::at_unix(1_700_000_000);
    let engine = || Ctranslate2Engine::new(settings("http://inference"), &http, Some(&store)).with_clock(&clock);
    engine().coverage().unwrap();
    engine().coverage().unwrap();
    assert_eq!(http.count("/v1/translation/models"), 1, "the second request reads the store");
    clock.advance(MODELS_TTL);
    engine().coverage().unwrap();
    assert_eq!(http.count("/v1/translation/models"), 2, "an expired copy is fetched again");

    down.set(true);
    clock.advance(MODELS_TTL);
    let coverage = engine().coverage().unwrap();
    assert!(coverage.supports_pair(language("ZH"), language("EN")), "the last list stands");
    let error = engine().translate(&EngineRequest::new(language("ZH"), language("EN"), &texts(&["x"]))).unwrap_err();
    assert!(matches!(error, EngineError::Unavailable { engine: "ctranslate2", .. }), "{error:?}");
}

#[test]
fn a_service_never_reached_is_unavailable_and_says_where() {
    let http = platform::native::UreqHttp;
    let url = dead_url();
    let engine = Ctranslate2Engine::new(settings(&url), &http, None);
    let error = engine.coverage().unwrap_err();
    assert!(matches!(&error, EngineError::Unavailable { engine: "ctranslate2", reason } if reason.contains(&url)));
}

#[test]
fn refusals_and_unusable_answers_are_told_apart_and_a_removed_model_forgets_the_list() {
    let status = Cell::new(401);
    let http = FakeHttp::new(|request: &HttpRequest| {
        if request.url.ends_with("/models") {
            return json_response(200, MODELS);
        }
        match status.get() {
            200 => json_response(200, r#"{"translations": ["one", "two"]}"#),
            code => json_response(code, r#"{"message": "No model translates zh to en."}"#),
        }
    });
    let store = SqliteKv::open_in_memory("default").unwrap();
    let inputs = texts(&["x"]);
    let request = EngineRequest::new(language("ZH"), language("EN"), &inputs);
    let engine = || Ctranslate2Engine::new(settings("http://inference"), &http, Some(&store));
    let error = engine().translate(&request).unwrap_err();
    assert!(matches!(&error, EngineError::Unavailable { reason, .. } if reason.contains("status 401")), "{error:?}");
    status.set(200);
    let error = engine().translate(&request).unwrap_err();
    assert!(matches!(&error, EngineError::Invalid(reason) if reason.contains("2 translations for 1")), "{error:?}");
    status.set(404);
    let error = engine().translate(&request).unwrap_err();
    assert!(matches!(&error, EngineError::Unavailable { reason, .. } if reason.contains("No model")), "{error:?}");
    assert!(!store.exists("engines:ctranslate2:models:http://inference").unwrap(), "the list is forgotten");
}

#[test]
fn glossary_terms_are_wrapped_above_the_units_placeholders_and_replaced_after() {
    let glossary = vec![("按钮".to_owned(), "push-button".to_owned()), ("继续".to_owned(), "proceed".to_owned())];
    let matcher = GlossaryMatcher::new(&glossary);
    let marked = mark_terms("请按<g1>这个按钮</g1>继续。", &matcher);
    assert_eq!(marked.text, "请按<g1>这个<g2>按钮</g2></g1><g3>继续</g3>。");
    assert_eq!(marked.terms, [(2, "push-button".to_owned()), (3, "proceed".to_owned())]);
    let translated = "Please press <g1>this <g2>button</g2></g1> to <g3>continue</g3>.";
    assert_eq!(replace_terms(translated, &marked), "Please press <g1>this push-button</g1> to proceed.");
    // A pair the model lost leaves the text as it came; the pipeline puts the term in.
    assert_eq!(replace_terms("Please press this button.", &marked), "Please press this button.");
    // No glossary, no change.
    let none = GlossaryMatcher::new(&[]);
    assert_eq!(mark_terms("a <x1/> b", &none), Marked { text: "a <x1/> b".into(), terms: vec![] });
}

#[test]
fn capitalised_terms_come_out_capitalised_and_the_service_gets_the_wrapped_text() {
    let glossary = vec![("house".to_owned(), "casa".to_owned())];
    let http = FakeHttp::new(|request: &HttpRequest| {
        if request.url.ends_with("/models") {
            return json_response(
                200,
                r#"{"models": [{"source": "en", "target": "es", "name": "m", "version": "1"}]}"#,
            );
        }
        let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
        assert_eq!(body["texts"][0], "<g1>House</g1> and <g2>house</g2>");
        json_response(200, r#"{"translations": ["<g1>Casa</g1> y <g2>casa</g2>"]}"#)
    });
    let engine = Ctranslate2Engine::new(settings("http://inference"), &http, None);
    let inputs = texts(&["House and house"]);
    let request = EngineRequest { glossary: &glossary, ..EngineRequest::new(language("EN"), language("ES"), &inputs) };
    assert_eq!(engine.translate(&request).unwrap(), ["Casa y casa"]);
}
