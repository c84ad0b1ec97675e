//! The Apertium engine against a real APY (Debian's, started once per test process): direct
//! pairs, pivots, variants, what comes back around the texts, and glossary terms. The engine's
//! own unit tests script APY's answers instead.

use std::time::Duration;

use catalogue::Language;
use engines::apertium::{ApertiumEngine, ApertiumSettings};
use engines::{Engine, EngineRequest};
use platform::native::UreqHttp;

/// An engine for the APY this test process started.
fn real_engine() -> ApertiumEngine<'static> {
    let settings = ApertiumSettings { url: e2e::apertium().to_owned(), timeout: Duration::from_secs(20) };
    ApertiumEngine::new(settings, &UreqHttp, None)
}

fn texts(items: &[&str]) -> Vec<String> {
    items.iter().map(|text| text.to_string()).collect()
}

/// A language of the catalogue by its code.
fn language(code: &str) -> &'static Language {
    catalogue::find(code).unwrap()
}

#[test]
fn real_apy_translates_english_to_spanish() {
    let input = texts(&["Hello world.", "The dog eats."]);
    let outputs = real_engine().translate(&EngineRequest::new(language("en"), language("es"), &input)).unwrap();
    assert!(outputs[0].contains("Hola"), "{outputs:?}");
    assert!(outputs[1].contains("perro"), "{outputs:?}");
}

#[test]
fn real_apy_pivots_english_to_french_through_spanish() {
    let input = texts(&["I like to read books."]);
    let outputs = real_engine().translate(&EngineRequest::new(language("en"), language("fr"), &input)).unwrap();
    assert!(outputs[0].contains("livres"), "{outputs:?}");
}

#[test]
fn real_apy_serves_brazilian_portuguese_through_a_pivot() {
    let input = texts(&["I like books."]);
    let outputs = real_engine().translate(&EngineRequest::new(language("en"), language("pt-br"), &input)).unwrap();
    assert!(outputs[0].contains("livros"), "{outputs:?}");
}

#[test]
fn real_apy_coverage_includes_pivots() {
    let coverage = real_engine().coverage().unwrap();
    for (source, target) in
        [("en", "es"), ("es", "en"), ("en", "fr"), ("fr", "en"), ("it", "en"), ("en", "pt"), ("gl", "ca")]
    {
        assert!(coverage.supports_pair(language(source), language(target)), "{source} → {target}");
    }
    assert!(!coverage.supports_pair(language("en"), language("de")));
}

#[test]
fn real_apy_keeps_outer_whitespace_and_survives_placeholders() {
    let input = texts(&[" Hi there ", "The <g1>red</g1> house<x2/>.", "\n", "Unknownish xyzzy words."]);
    let outputs = real_engine().translate(&EngineRequest::new(language("en"), language("es"), &input)).unwrap();
    assert_eq!(outputs.len(), 4);
    assert!(outputs[0].starts_with(' ') && outputs[0].ends_with(' ') && !outputs[0].starts_with("  "), "{outputs:?}");
    assert!(outputs[1].contains("<x2/>"), "{outputs:?}");
    assert_eq!(outputs[2], "\n");
    assert!(outputs[3].contains("xyzzy") && !outputs[3].contains('*'), "{outputs:?}");
}

#[test]
fn real_apy_applies_glossary_terms_through_a_pivot() {
    let input = texts(&["The house is big. House prices rise."]);
    let glossary = vec![("house".to_owned(), "maison individuelle".to_owned())];
    let request = EngineRequest { glossary: &glossary, ..EngineRequest::new(language("en"), language("fr"), &input) };
    let outputs = real_engine().translate(&request).unwrap();
    assert!(outputs[0].contains("maison individuelle"), "{outputs:?}");
    assert!(outputs[0].contains("Maison individuelle"), "{outputs:?}");
    assert!(!outputs[0].to_lowercase().contains("qzx"), "{outputs:?}");
}
