//! Glossaries with a real engine, Apertium, whose language pairs are few: the pairs listed for
//! glossaries are exactly those that can be created, and a corpus of English sentences full of
//! glossary terms (`tests/fixtures/glossary/`), translated into Spanish with the glossary
//! attached, has every target term exactly as the glossary defines it (the test prints the
//! rate it measured).

use e2e::{Options, TestApp};
use serde_json::json;

const GLOSSARY: &str = include_str!("fixtures/glossary/glossary-en-es.tsv");
const CORPUS: &str = include_str!("fixtures/glossary/corpus-en-es.tsv");

/// The corpus: (sentence, the target terms its translation must hold).
fn corpus() -> Vec<(&'static str, Vec<&'static str>)> {
    CORPUS
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (sentence, terms) = line.split_once('\t').expect("sentence<TAB>terms");
            (sentence, terms.split('|').collect())
        })
        .collect()
}

#[test]
fn apertium_renders_every_glossary_term_of_the_corpus_as_defined() {
    let apertium = e2e::apertium();
    let app = TestApp::start(
        Options::app().env("SPIN_VARIABLE_ENGINE", "apertium").env("SPIN_VARIABLE_APERTIUM_URL", apertium),
    );
    let key = app.developer_key();
    let created = app.post_json(
        "/v2/glossaries",
        &key,
        &json!({"name": "corpus", "source_lang": "en", "target_lang": "es", "entries": GLOSSARY}),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let glossary_id = created.json()["glossary_id"].as_str().unwrap().to_owned();

    let corpus = corpus();
    let (tagged, plain): (Vec<_>, Vec<_>) = corpus.iter().partition(|(sentence, _)| sentence.starts_with("<p>"));
    let mut expected = 0;
    let mut rendered = 0;
    let mut misses = Vec::new();
    for (group, tag_handling) in [(plain, None), (tagged, Some("xml"))] {
        let mut body = json!({
            "text": group.iter().map(|(sentence, _)| *sentence).collect::<Vec<_>>(),
            "source_lang": "EN",
            "target_lang": "ES",
            "glossary_id": glossary_id,
        });
        if let Some(handling) = tag_handling {
            body["tag_handling"] = json!(handling);
        }
        let reply = app.post_json("/v2/translate", &key, &body);
        assert_eq!(reply.status, 200, "{}", reply.text());
        let answer = reply.json();
        for ((sentence, terms), item) in group.iter().zip(answer["translations"].as_array().unwrap()) {
            let translation = item["text"].as_str().unwrap();
            for term in terms {
                expected += 1;
                if translation.contains(term) {
                    rendered += 1;
                } else {
                    misses.push(format!("{term:?} missing from {translation:?} (for {sentence:?})"));
                }
            }
            if tag_handling.is_some() {
                assert!(translation.starts_with("<p>") && translation.ends_with("</p>"), "{translation}");
            }
        }
    }
    println!(
        "glossary corpus (apertium, en → es): {rendered} of {expected} terms rendered as defined ({:.1} %)",
        100.0 * rendered as f64 / expected as f64
    );
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

#[test]
fn the_glossary_pairs_listed_for_apertium_are_exactly_those_that_can_be_created() {
    let apertium = e2e::apertium();
    let app = TestApp::start(
        Options::app().env("SPIN_VARIABLE_ENGINE", "apertium").env("SPIN_VARIABLE_APERTIUM_URL", apertium),
    );
    let key = app.developer_key();
    let listed = app.call("GET", "/v2/glossary-language-pairs", &key);
    assert_eq!(listed.status, 200, "{}", listed.text());
    let pairs: Vec<(String, String)> = listed.json()["supported_languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            (pair["source_lang"].as_str().unwrap().to_owned(), pair["target_lang"].as_str().unwrap().to_owned())
        })
        .collect();
    assert!(pairs.contains(&("en".to_owned(), "es".to_owned())), "{pairs:?}");
    // One glossary with a dictionary for every listed pair.
    let dictionaries: Vec<_> = pairs
        .iter()
        .map(|(source, target)| json!({"source_lang": source, "target_lang": target, "entries": "Glossa\tGlossa"}))
        .collect();
    let created = app.post_json("/v3/glossaries", &key, &json!({"name": "every pair", "dictionaries": dictionaries}));
    assert_eq!(created.status, 201, "{}", created.text());
    assert_eq!(created.json()["dictionaries"].as_array().unwrap().len(), pairs.len());
    // Glossary languages the engine does not translate between are refused.
    for (source, target) in [("en", "de"), ("ja", "en")] {
        assert!(!pairs.contains(&(source.to_owned(), target.to_owned())));
        let refused = app.post_json(
            "/v2/glossaries",
            &key,
            &json!({"name": "n", "source_lang": source, "target_lang": target, "entries": "a\tb"}),
        );
        assert_eq!(refused.status, 400, "{}", refused.text());
        assert_eq!(
            refused.json()["message"],
            format!(
                "Glossaries are not supported for the language pair {} → {}.",
                source.to_uppercase(),
                target.to_uppercase()
            )
        );
    }
}
