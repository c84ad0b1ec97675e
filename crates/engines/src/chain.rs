//! The engines of the `engine` variable's priority list, as one engine.
//!
//! For each pair, the routes are tried in this order until one translates:
//!
//! 1. every engine that covers the pair itself (its own pivots included), in the list's order;
//! 2. a pivot through English: one engine from the source into English, one from English into
//!    the target, the same engine or two different ones (`ctranslate2` for zh→en, then `apertium`
//!    for en→es), ordered by the first leg's engine, then the second's.
//!
//! A route whose engine is down, times out or answers something unusable is logged and the next
//! route is tried, so a stopped inference service sends its pairs to the next engine that has
//! them; when no route is left, the last failure stands (a 503, nothing billed). A pair no
//! engine covers is [`EngineError::UnsupportedPair`], unless an engine could not say what it
//! covers: then the pair might be its, and the answer is that engine's unavailability.
//!
//! The coverage is the union of what the engines say they cover and of the English pivots
//! between them; an engine that cannot say is left out (and logged) while another can.
//! [`Chain::served_by`] names the routes that served the translations so far: an engine's name,
//! or two joined by `+` for a pivot through English.
//!
//! In a pivot, the first leg gets the request's context and the second its formality, custom
//! instructions and examples; neither gets the glossary, whose terms pair the source language with the target:
//! the translation pipeline puts them into the result, as for every engine that misses a term.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use catalogue::Language;

use crate::{Capabilities, Coverage, Engine, EngineError, EngineRequest, Formality};

/// The pivot language between engines.
const PIVOT: &str = "en";

/// One way to translate a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// The engine at this index of the list translates the pair.
    Direct(usize),
    /// The first engine translates into English, the second from English.
    Pivot(usize, usize),
}

/// The configured engines in priority order; see the module documentation.
pub struct Chain<'a> {
    engines: Vec<Box<dyn Engine + 'a>>,
    served: RefCell<Vec<String>>,
    /// Each engine's coverage, once asked, for the rest of this chain's (one request's) life:
    /// an engine that cannot say is asked once, and its failure logged once.
    coverages: RefCell<Option<Rc<Coverages>>>,
}

/// Each engine's coverage, or why it cannot say, in list order.
type Coverages = Vec<Result<Coverage, EngineError>>;

impl<'a> Chain<'a> {
    /// The engines in priority order; the list is not empty.
    pub fn new(engines: Vec<Box<dyn Engine + 'a>>) -> Chain<'a> {
        assert!(!engines.is_empty(), "a chain has at least one engine");
        Chain { engines, served: RefCell::new(Vec::new()), coverages: RefCell::new(None) }
    }

    /// The routes that served this chain's translations, in order of first use: `ctranslate2`,
    /// or `ctranslate2+apertium` for a pivot through English.
    pub fn served_by(&self) -> Vec<String> {
        self.served.borrow().clone()
    }

    /// Each engine's coverage, in list order; failures are logged.
    fn coverages(&self) -> Rc<Coverages> {
        if let Some(known) = self.coverages.borrow().as_ref() {
            return Rc::clone(known);
        }
        let found: Rc<Coverages> = Rc::new(
            self.engines
                .iter()
                .map(|engine| {
                    let coverage = engine.coverage();
                    if let Err(error) = &coverage {
                        eprintln!("engine list: {} cannot say what it covers: {error}", engine.name());
                    }
                    coverage
                })
                .collect(),
        );
        *self.coverages.borrow_mut() = Some(Rc::clone(&found));
        found
    }

    /// The routes for a pair, best first, and the first failure to learn an engine's coverage.
    fn routes(&self, source: &'static Language, target: &'static Language) -> (Vec<Route>, Option<EngineError>) {
        let coverages = self.coverages();
        let failure = coverages.iter().find_map(|coverage| coverage.as_ref().err().cloned());
        let covered: Vec<Option<&Coverage>> = coverages.iter().map(|coverage| coverage.as_ref().ok()).collect();
        let covers = |index: usize, from: &Language, to: &Language| {
            covered[index].is_some_and(|coverage| coverage.supports_pair(from, to))
        };
        let direct: Vec<usize> = (0..self.engines.len()).filter(|&index| covers(index, source, target)).collect();
        let mut routes: Vec<Route> = direct.iter().map(|&index| Route::Direct(index)).collect();
        let english = pivot_language();
        if source.base_code() != PIVOT && target.base_code() != PIVOT {
            for first in (0..self.engines.len()).filter(|&index| covers(index, source, english)) {
                for second in (0..self.engines.len()).filter(|&index| covers(index, english, target)) {
                    // An engine that covers the pair pivots on its own if it must.
                    if !(first == second && direct.contains(&first)) {
                        routes.push(Route::Pivot(first, second));
                    }
                }
            }
        }
        (routes, failure)
    }

    fn run(&self, route: Route, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError> {
        match route {
            Route::Direct(index) => self.engines[index].translate(request),
            Route::Pivot(first, second) => {
                let english = pivot_language();
                let into_english = EngineRequest {
                    target: english,
                    formality: Formality::Default,
                    custom_instructions: &[],
                    glossary: &[],
                    examples: &[],
                    ..*request
                };
                let intermediate = self.engines[first].translate(&into_english)?;
                let from_english =
                    EngineRequest { source: english, texts: &intermediate, context: None, glossary: &[], ..*request };
                self.engines[second].translate(&from_english)
            }
        }
    }

    fn route_name(&self, route: Route) -> String {
        match route {
            Route::Direct(index) => self.engines[index].name().to_owned(),
            Route::Pivot(first, second) => format!("{}+{}", self.engines[first].name(), self.engines[second].name()),
        }
    }
}

/// Whether a route, as [`Chain::served_by`] names it, used neural models only: `Some(true)` for
/// `ctranslate2` and `openai`, `Some(false)` when rule-based `apertium` took part, `None` when
/// the deterministic engine did (it is a stand-in, of no kind).
pub fn neural(route: &str) -> Option<bool> {
    let mut neural = Some(true);
    for engine in route.split('+') {
        match engine {
            crate::apertium::NAME => return Some(false),
            crate::ctranslate2::NAME | crate::openai::NAME => {}
            _ => neural = None,
        }
    }
    neural
}

/// English, the language between two legs.
fn pivot_language() -> &'static Language {
    catalogue::find(PIVOT).expect("the catalogue has English")
}

impl Engine for Chain<'_> {
    fn coverage(&self) -> Result<Coverage, EngineError> {
        let mut failure = None;
        let mut pairs = BTreeSet::new();
        let (mut into_english, mut from_english) = (BTreeSet::new(), BTreeSet::new());
        let mut known = false;
        for coverage in self.coverages().iter() {
            match coverage {
                Ok(Coverage::All) => return Ok(Coverage::All),
                Ok(Coverage::Pairs(covered)) => {
                    known = true;
                    for (source, target) in covered.iter() {
                        pairs.insert((source.to_owned(), target.to_owned()));
                        if target == PIVOT {
                            into_english.insert(source.to_owned());
                        }
                        if source == PIVOT {
                            from_english.insert(target.to_owned());
                        }
                    }
                }
                Err(error) => failure = failure.or(Some(error.clone())),
            }
        }
        if !known && let Some(error) = failure {
            return Err(error);
        }
        for source in &into_english {
            for target in from_english.iter().filter(|target| *target != source) {
                pairs.insert((source.clone(), target.clone()));
            }
        }
        Ok(Coverage::pairs(pairs))
    }

    fn check_pair(&self, source: &'static Language, target: &'static Language) -> Result<(), EngineError> {
        match self.routes(source, target) {
            (routes, _) if !routes.is_empty() => Ok(()),
            (_, Some(failure)) => Err(failure),
            (_, None) => Err(EngineError::UnsupportedPair { from: source, to: target }),
        }
    }

    fn capabilities(&self) -> Capabilities {
        let all: Vec<Capabilities> = self.engines.iter().map(|engine| engine.capabilities()).collect();
        Capabilities {
            formality: all.iter().any(|capabilities| capabilities.formality),
            context: all.iter().any(|capabilities| capabilities.context),
            custom_instructions: all.iter().any(|capabilities| capabilities.custom_instructions),
            glossary: all.iter().any(|capabilities| capabilities.glossary),
        }
    }

    fn translate(&self, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError> {
        let (routes, failure) = self.routes(request.source, request.target);
        let mut last = failure.unwrap_or(EngineError::UnsupportedPair { from: request.source, to: request.target });
        for route in routes {
            match self.run(route, request) {
                Ok(translations) => {
                    let name = self.route_name(route);
                    let mut served = self.served.borrow_mut();
                    if !served.contains(&name) {
                        served.push(name);
                    }
                    return Ok(translations);
                }
                Err(error) => {
                    eprintln!(
                        "engine list: {} failed for {}→{}, trying the next route: {error}",
                        self.route_name(route),
                        request.source.code(),
                        request.target.code()
                    );
                    last = error;
                }
            }
        }
        Err(last)
    }

    /// Whether every route that served so far ended in an engine that follows instructions (the
    /// second leg of a pivot gets them); vacuously so when none served.
    fn followed_instructions(&self) -> bool {
        self.served.borrow().iter().all(|route| {
            let last = route.rsplit('+').next().unwrap_or(route);
            self.engines.iter().any(|engine| engine.name() == last && engine.capabilities().custom_instructions)
        })
    }

    fn name(&self) -> &'static str {
        match self.engines.as_slice() {
            [only] => only.name(),
            _ => "engine list",
        }
    }
}

#[cfg(test)]
mod tests;
