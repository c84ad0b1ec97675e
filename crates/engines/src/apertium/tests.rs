//! The Apertium engine's tests: output clean-up and glossary tokens as pure functions, caching
//! and failures against a scripted HTTP client (`tests/apertium.rs` translates with a real APY).

use std::time::Duration;

use platform::native::{SqliteKv, UreqHttp};
use platform::{FixedClock, HttpError, HttpResponse};

use super::*;
use crate::test_support::{FakeHttp, dead_url, json_response, language};

const LIST_PAIRS: &str = r#"{"responseData": [
    {"sourceLanguage": "eng", "targetLanguage": "spa"},
    {"sourceLanguage": "spa", "targetLanguage": "fra"}
], "responseDetails": null, "responseStatus": 200}"#;

fn settings(url: &str) -> ApertiumSettings {
    ApertiumSettings { url: url.to_owned(), timeout: Duration::from_secs(20) }
}

fn texts(items: &[&str]) -> Vec<String> {
    items.iter().map(|text| text.to_string()).collect()
}

/// APY as a script: `listPairs` answers [`LIST_PAIRS`], `translate` echoes `q` upper-cased.
fn scripted_apy(request: &HttpRequest) -> Result<HttpResponse, HttpError> {
    if request.url.ends_with("/listPairs") {
        return json_response(200, LIST_PAIRS);
    }
    let q = form_urlencoded::parse(&request.body).find(|(name, _)| name == "q").unwrap().1.into_owned();
    let body = serde_json::json!({"responseData": {"translatedText": q.to_uppercase()}, "responseStatus": 200});
    json_response(200, &body.to_string())
}

#[test]
fn marks_absent_from_the_input_are_stripped() {
    assert_eq!(strip_marks("El *xyzzy #perro @come.", "The xyzzy dog eats."), "El xyzzy perro come.");
    // A hashtag in the input is not a mark.
    assert_eq!(strip_marks("Sigue #glossa y *hoy", "Follow #glossa today"), "Sigue #glossa y hoy");
}

#[test]
fn glossary_terms_become_tokens_and_come_back() {
    let glossary = vec![("house".to_owned(), "casa".to_owned()), ("Glossa".to_owned(), "Glosa".to_owned())];
    let matcher = GlossaryMatcher::new(&glossary);
    let (protected, terms) = protect_terms("House of Glossa, a <g1>house</g1>.", &matcher);
    assert_eq!(protected, "qzx0qz of qzx1qz, a <g1>qzx2qz</g1>.");
    assert_eq!(terms, ["Casa", "Glosa", "casa"]);
    assert_eq!(
        restore_terms("La Qzx2qz de qzx1qz: qzx0qz, qzx9qz, qzx", &terms),
        "La Casa de Glosa: Casa, qzx9qz, qzx"
    );
}

#[test]
fn glossary_tokens_follow_the_matching_rules_of_terms() {
    // Any case matches; only a capitalised occurrence at a sentence start capitalises the target.
    let glossary = vec![("house".to_owned(), "casa".to_owned()), ("red house".to_owned(), "casa roja".to_owned())];
    let (protected, terms) = protect_terms("The HOUSE. Red House, a red HOUSE", &GlossaryMatcher::new(&glossary));
    assert_eq!(protected, "The qzx0qz. qzx1qz, a qzx2qz");
    assert_eq!(terms, ["casa", "Casa roja", "casa roja"]);
}

#[test]
fn texts_that_already_contain_the_token_are_not_protected() {
    let glossary = vec![("house".to_owned(), "casa".to_owned())];
    let (protected, terms) = protect_terms("QZX7QZ house", &GlossaryMatcher::new(&glossary));
    assert_eq!((protected.as_str(), terms.len()), ("QZX7QZ house", 0));
}

#[test]
fn one_request_fetches_the_pair_list_once_and_translates_each_distinct_text_once() {
    let http = FakeHttp::new(scripted_apy);
    let engine = ApertiumEngine::new(settings("http://apy"), &http, None);
    assert!(engine.coverage().unwrap().supports_pair(language("en"), language("fr")));
    let input = texts(&["one", "two", "one", "  ", " three\n"]);
    let outputs = engine.translate(&EngineRequest::new(language("en"), language("fr"), &input)).unwrap();
    assert_eq!(outputs, ["ONE", "TWO", "ONE", "  ", " THREE\n"]);
    assert_eq!(http.count("/listPairs"), 1);
    // Three distinct non-blank texts, two legs each (through Spanish).
    assert_eq!(http.count("/translate"), 6);
    let first = &http.requests.borrow()[1];
    assert_eq!(first.method, "POST");
    assert_eq!(first.timeout, Some(Duration::from_secs(20)));
    let form: Vec<(String, String)> = form_urlencoded::parse(&first.body).into_owned().collect();
    assert!(form.contains(&("langpair".into(), "eng|spa".into())), "{form:?}");
    assert!(form.contains(&("markUnknown".into(), "no".into())));
}

#[test]
fn the_pair_list_is_cached_in_the_store_for_five_minutes() {
    let http = FakeHttp::new(scripted_apy);
    let store = SqliteKv::open_in_memory("default").unwrap();
    let clock = FixedClock::at_unix(1_700_000_000);
    let engine = || ApertiumEngine::new(settings("http://apy"), &http, Some(&store)).with_clock(&clock);
    engine().coverage().unwrap();
    engine().coverage().unwrap();
    assert_eq!(http.count("/listPairs"), 1, "the second request reads the store");
    clock.advance(PAIRS_TTL - Duration::from_secs(1));
    engine().coverage().unwrap();
    assert_eq!(http.count("/listPairs"), 1);
    clock.advance(Duration::from_secs(1));
    engine().coverage().unwrap();
    assert_eq!(http.count("/listPairs"), 2, "an expired copy is fetched again");
}

#[test]
fn a_refused_pair_forgets_the_cached_list() {
    let http = FakeHttp::new(|request: &HttpRequest| {
        if request.url.ends_with("/listPairs") {
            json_response(200, LIST_PAIRS)
        } else {
            json_response(400, r#"{"status": "error", "code": 400, "explanation": "That pair is not installed"}"#)
        }
    });
    let store = SqliteKv::open_in_memory("default").unwrap();
    let engine = ApertiumEngine::new(settings("http://apy"), &http, Some(&store));
    let input = texts(&["Hello"]);
    let error = engine.translate(&EngineRequest::new(language("en"), language("es"), &input)).unwrap_err();
    assert!(
        matches!(&error, EngineError::Unavailable { engine: "apertium", reason } if reason.contains("That pair is not installed")),
        "{error:?}"
    );
    assert_eq!(store.keys().unwrap(), Vec::<String>::new());
}

#[test]
fn unserved_pairs_are_reported_as_unsupported() {
    let http = FakeHttp::new(scripted_apy);
    let engine = ApertiumEngine::new(settings("http://apy"), &http, None);
    let input = texts(&["Hallo"]);
    let error = engine.translate(&EngineRequest::new(language("de"), language("en-gb"), &input)).unwrap_err();
    assert_eq!(error, EngineError::UnsupportedPair { from: language("de"), to: language("en-gb") });
    assert_eq!(http.count("/translate"), 0);
}

#[test]
fn server_errors_and_unusable_answers_are_told_apart() {
    let http = FakeHttp::new(|request: &HttpRequest| {
        if request.url.ends_with("/listPairs") { json_response(503, "busy") } else { json_response(200, "{}") }
    });
    let engine = ApertiumEngine::new(settings("http://apy"), &http, None);
    assert!(matches!(engine.coverage(), Err(EngineError::Unavailable { .. })));

    let http = FakeHttp::new(|request: &HttpRequest| {
        if request.url.ends_with("/listPairs") { json_response(200, LIST_PAIRS) } else { json_response(200, "[]") }
    });
    let engine = ApertiumEngine::new(settings("http://apy"), &http, None);
    let input = texts(&["Hello"]);
    assert!(matches!(
        engine.translate(&EngineRequest::new(language("en"), language("es"), &input)),
        Err(EngineError::Invalid(_))
    ));
}

#[test]
fn a_timeout_is_unavailable_and_says_how_long_it_waited() {
    let http = FakeHttp::new(|request: &HttpRequest| Err(HttpError::Timeout(request.url.clone())));
    let engine = ApertiumEngine::new(settings("http://apy"), &http, None);
    let error = engine.coverage().unwrap_err();
    assert_eq!(
        error,
        EngineError::Unavailable {
            engine: "apertium",
            reason: "no answer from http://apy/listPairs within 20000 ms".into()
        }
    );
}

#[test]
fn apy_down_is_unavailable() {
    let url = dead_url();
    let engine = ApertiumEngine::new(settings(&url), &UreqHttp, None);
    let input = texts(&["Hello"]);
    let error = engine.translate(&EngineRequest::new(language("en"), language("es"), &input)).unwrap_err();
    match error {
        EngineError::Unavailable { engine, reason } => {
            assert_eq!(engine, "apertium");
            assert!(reason.contains(&url), "{reason}");
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
}
