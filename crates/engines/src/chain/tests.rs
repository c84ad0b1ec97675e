use std::cell::{Cell, RefCell};

use super::*;
use crate::test_support::language;

/// An engine with a fixed coverage that tags each text with its name and pair, and records
/// what it was asked; it may be down or unable to say what it covers.
struct Scripted {
    name: &'static str,
    pairs: Vec<(&'static str, &'static str)>,
    down: bool,
    blind: bool,
    asked: RefCell<Vec<String>>,
    coverage_asked: Cell<usize>,
}

fn scripted(name: &'static str, pairs: &[(&'static str, &'static str)]) -> Scripted {
    Scripted {
        name,
        pairs: pairs.to_vec(),
        down: false,
        blind: false,
        asked: RefCell::new(Vec::new()),
        coverage_asked: Cell::new(0),
    }
}

fn unavailable(engine: &'static str) -> EngineError {
    EngineError::Unavailable { engine, reason: "stopped".into() }
}

impl Engine for &Scripted {
    fn coverage(&self) -> Result<Coverage, EngineError> {
        self.coverage_asked.set(self.coverage_asked.get() + 1);
        if self.blind { Err(unavailable(self.name)) } else { Ok(Coverage::pairs(self.pairs.iter().copied())) }
    }

    fn capabilities(&self) -> Capabilities {
        let openai = self.name == "openai";
        Capabilities { formality: openai, context: false, custom_instructions: openai, glossary: false }
    }

    fn translate(&self, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError> {
        let pair = format!("{}>{}", request.source.base_code(), request.target.base_code());
        self.asked.borrow_mut().push(format!(
            "{pair} formality={:?} context={:?} glossary={}",
            request.formality,
            request.context,
            request.glossary.len()
        ));
        if self.down {
            return Err(unavailable(self.name));
        }
        Ok(request.texts.iter().map(|text| format!("{text} [{} {pair}]", self.name)).collect())
    }

    fn name(&self) -> &'static str {
        self.name
    }
}

fn chain_of<'a>(engines: &'a [&'a Scripted]) -> Chain<'a> {
    Chain::new(engines.iter().map(|engine| Box::new(*engine) as Box<dyn Engine + 'a>).collect())
}

fn texts(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| item.to_string()).collect()
}

#[test]
fn the_first_engine_that_covers_a_pair_translates_it() {
    let neural = scripted("ctranslate2", &[("zh", "en"), ("de", "en")]);
    let rules = scripted("apertium", &[("en", "es"), ("de", "en"), ("es", "ca")]);
    let engines = [&neural, &rules];
    let chain = chain_of(&engines);
    let inputs = texts(&["a"]);
    assert_eq!(
        chain.translate(&EngineRequest::new(language("DE"), language("EN-GB"), &inputs)).unwrap(),
        ["a [ctranslate2 de>en]"]
    );
    assert_eq!(
        chain.translate(&EngineRequest::new(language("ES"), language("CA"), &inputs)).unwrap(),
        ["a [apertium es>ca]"]
    );
    assert_eq!(chain.served_by(), ["ctranslate2", "apertium"]);
}

#[test]
fn a_pair_no_engine_has_pivots_through_english_across_engines() {
    let neural = scripted("ctranslate2", &[("zh", "en")]);
    let rules = scripted("apertium", &[("en", "es")]);
    let engines = [&neural, &rules];
    let chain = chain_of(&engines);
    let inputs = texts(&["ni hao"]);
    let request = EngineRequest {
        formality: Formality::PreferMore,
        context: Some("greeting"),
        glossary: &[("ni".into(), "tu".into())],
        ..EngineRequest::new(language("ZH"), language("ES"), &inputs)
    };
    assert_eq!(chain.translate(&request).unwrap(), ["ni hao [ctranslate2 zh>en] [apertium en>es]"]);
    assert_eq!(chain.served_by(), ["ctranslate2+apertium"]);
    // The first leg gets the context, the second the formality; neither the glossary.
    assert_eq!(neural.asked.borrow().as_slice(), ["zh>en formality=Default context=Some(\"greeting\") glossary=0"]);
    assert_eq!(rules.asked.borrow().as_slice(), ["en>es formality=PreferMore context=None glossary=0"]);
    let coverage = chain.coverage().unwrap();
    assert!(coverage.supports_pair(language("ZH"), language("ES")));
    assert!(coverage.supports_pair(language("ZH"), language("EN")));
    assert!(!coverage.supports_pair(language("ES"), language("ZH")));
    assert!(chain.check_pair(language("ZH"), language("ES")).is_ok());
}

#[test]
fn an_engine_that_is_down_hands_its_pairs_to_the_next_route() {
    let mut neural = scripted("ctranslate2", &[("zh", "en"), ("en", "es")]);
    neural.down = true;
    let rules = scripted("apertium", &[("en", "es")]);
    let engines = [&neural, &rules];
    let chain = chain_of(&engines);
    let inputs = texts(&["hi"]);
    assert_eq!(
        chain.translate(&EngineRequest::new(language("EN"), language("ES"), &inputs)).unwrap(),
        ["hi [apertium en>es]"]
    );
    assert_eq!(chain.served_by(), ["apertium"]);
    // Nobody else has zh→en: the engine's failure stands.
    let error = chain.translate(&EngineRequest::new(language("ZH"), language("EN"), &inputs)).unwrap_err();
    assert_eq!(error, unavailable("ctranslate2"));
}

#[test]
fn an_engine_that_cannot_say_what_it_covers_makes_unknown_pairs_unavailable_not_unsupported() {
    let mut neural = scripted("ctranslate2", &[("zh", "en")]);
    neural.blind = true;
    let rules = scripted("apertium", &[("en", "es")]);
    let engines = [&neural, &rules];
    let chain = chain_of(&engines);
    // The listing shows what the others cover.
    let coverage = chain.coverage().unwrap();
    assert!(coverage.supports_pair(language("EN"), language("ES")));
    assert!(!coverage.supports_pair(language("ZH"), language("EN")));
    assert_eq!(chain.check_pair(language("ZH"), language("EN")), Err(unavailable("ctranslate2")));
    assert!(chain.check_pair(language("EN"), language("ES")).is_ok());
    assert_eq!(neural.coverage_asked.get(), 1, "a chain asks each engine once");

    let alone = [&neural];
    assert_eq!(chain_of(&alone).coverage().unwrap_err(), unavailable("ctranslate2"));
}

#[test]
fn a_pair_nobody_covers_is_unsupported() {
    let rules = scripted("apertium", &[("en", "es")]);
    let engines = [&rules];
    let chain = chain_of(&engines);
    let error = chain.check_pair(language("JA"), language("ES")).unwrap_err();
    assert!(matches!(error, EngineError::UnsupportedPair { .. }), "{error:?}");
    let error = chain.translate(&EngineRequest::new(language("JA"), language("ES"), &texts(&["x"]))).unwrap_err();
    assert!(matches!(error, EngineError::UnsupportedPair { .. }), "{error:?}");
    assert!(chain.served_by().is_empty());
    assert_eq!(chain.name(), "apertium");
}

#[test]
fn an_engine_covering_everything_makes_the_coverage_everything_and_capabilities_add_up() {
    let rules = scripted("apertium", &[("en", "es")]);
    let engines: Vec<Box<dyn Engine>> = vec![Box::new(&rules), Box::new(crate::DeterministicEngine::new())];
    let chain = Chain::new(engines);
    assert_eq!(chain.coverage().unwrap(), Coverage::All);
    assert_eq!(chain.name(), "engine list");
    let openai = scripted("openai", &[]);
    let both = [&rules, &openai];
    assert!(chain_of(&both).capabilities().formality);
}

#[test]
fn routes_are_named_by_their_kind_of_model() {
    assert_eq!(neural("ctranslate2"), Some(true));
    assert_eq!(neural("openai"), Some(true));
    assert_eq!(neural("ctranslate2+apertium"), Some(false));
    assert_eq!(neural("apertium"), Some(false));
    assert_eq!(neural("deterministic"), None);
    assert_eq!(neural("ctranslate2+deterministic"), None);
}

#[test]
fn instructions_count_as_followed_only_when_every_serving_route_ends_in_an_engine_that_follows_them() {
    let llm = scripted("openai", &[("de", "en"), ("en", "fr")]);
    let rules = scripted("apertium", &[("en", "es"), ("es", "en")]);
    let engines = [&llm, &rules];
    let inputs = texts(&["a"]);
    let chain = chain_of(&engines);
    assert!(chain.followed_instructions(), "nothing translated yet: nothing was dropped");
    chain.translate(&EngineRequest::new(language("ES"), language("FR"), &inputs)).unwrap();
    assert_eq!(chain.served_by(), ["apertium+openai"]);
    assert!(chain.followed_instructions(), "the second leg of a pivot gets the instructions");
    chain.translate(&EngineRequest::new(language("DE"), language("ES"), &inputs)).unwrap();
    assert_eq!(chain.served_by(), ["apertium+openai", "openai+apertium"]);
    assert!(!chain.followed_instructions());
}
