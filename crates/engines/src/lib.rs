//! The machine-translation engines behind one interface.
//!
//! The components own the API (validation, glossaries, tag handling, sentence splitting, billing);
//! an [`Engine`] only does the language work: it turns the texts of one [`EngineRequest`] into as
//! many translations, in order. Three engines implement it:
//!
//! * [`apertium`]: Apertium APY over HTTP, rule-based and offline, pivoting through a third
//!   language where no direct pair is installed;
//! * [`openai`]: any OpenAI-compatible chat-completions endpoint, one call per request;
//! * [`deterministic`]: reproducible pseudo-translations for tests and the sandbox.
//!
//! [`from_variables`] picks and configures one from Spin variables (see [`config`]); [`detect()`]
//! guesses the source language when the client sent none.
//!
//! The crate is platform-free: it reaches the network only through [`platform::OutboundHttp`],
//! its settings through [`platform::Variables`] and its cache through [`platform::KeyValue`], so
//! the same code runs inside a component and in native unit tests.

pub mod apertium;
pub mod config;
pub mod detect;
pub mod deterministic;
mod error;
pub mod languages;
pub mod openai;
mod text;

#[cfg(test)]
mod test_support;

use std::collections::BTreeSet;

pub use apertium::ApertiumEngine;
pub use config::{EngineSettings, from_variables};
pub use detect::detect;
pub use deterministic::DeterministicEngine;
pub use error::{ConfigError, EngineError};
pub use openai::OpenAiEngine;

/// A machine-translation engine.
///
/// Object-safe, so the configured engine travels as `Box<dyn Engine + '_>`. Engines are built for
/// one request (a Spin instance serves one request), so they may keep per-request memos inside.
pub trait Engine {
    /// Which language pairs this engine serves, pivots included, for the language endpoints and
    /// request validation.
    fn coverage(&self) -> Result<Coverage, EngineError>;

    /// What this engine does with the optional parts of a request, for the language endpoints
    /// (the catalogue's features are intersected with these).
    fn capabilities(&self) -> Capabilities;

    /// Translates every text of the request, in order: exactly one output per input.
    fn translate(&self, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError>;

    /// The engine's name as the `engine` variable spells it, for logs and error messages.
    fn name(&self) -> &'static str;
}

/// The language pairs an engine serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Coverage {
    /// Any pair of the catalogue.
    All,
    /// Exactly these (source, target) pairs of lower-case base codes, e.g. `("en", "es")`.
    Pairs(BTreeSet<(String, String)>),
}

impl Coverage {
    /// Whether the pair is served; `target` may be a variant (`pt-br` counts as `pt`).
    pub fn supports(&self, source: &str, target: &str) -> bool {
        match self {
            Coverage::All => true,
            Coverage::Pairs(pairs) => {
                let key = (languages::base_code(source).to_owned(), languages::base_code(target).to_owned());
                pairs.contains(&key)
            }
        }
    }
}

/// What an engine honours beyond the texts themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// Formality changes the translation (for targets whose language distinguishes it).
    pub formality: bool,
    /// The context influences the translation.
    pub context: bool,
    /// Custom instructions are followed.
    pub custom_instructions: bool,
    /// Glossary terms come out as their target terms (Apertium: best effort, see its docs).
    pub glossary: bool,
}

/// The formality a request asks for (`formality` of `/v2/translate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Formality {
    #[default]
    Default,
    More,
    Less,
    /// More formal where the target language allows it, otherwise the default.
    PreferMore,
    /// Less formal where the target language allows it, otherwise the default.
    PreferLess,
}

impl Formality {
    /// The `formality` parameter's values: `default`, `more`, `less`, `prefer_more`,
    /// `prefer_less`.
    pub fn parse(value: &str) -> Option<Formality> {
        match value {
            "default" => Some(Formality::Default),
            "more" => Some(Formality::More),
            "less" => Some(Formality::Less),
            "prefer_more" => Some(Formality::PreferMore),
            "prefer_less" => Some(Formality::PreferLess),
            _ => None,
        }
    }
}

/// One translation request, as the engine sees it.
#[derive(Debug, Clone, Copy)]
pub struct EngineRequest<'a> {
    /// Lower-case base code of the source language, e.g. `en`; always known (the caller detects
    /// it first).
    pub source: &'a str,
    /// Lower-case target code, possibly a variant: `de`, `en-gb`, `pt-br`, `zh-hans`, `es-419`.
    pub target: &'a str,
    /// The units to translate. They may contain well-formed placeholders (`<g1>…</g1>`, `<x2/>`)
    /// that must survive.
    pub texts: &'a [String],
    /// The caller has already rejected `More`/`Less` for targets without formality.
    pub formality: Formality,
    /// Text that helps the translation and is not translated itself.
    pub context: Option<&'a str>,
    pub custom_instructions: &'a [String],
    /// Source term → target term pairs the output must use; may be empty. Every engine finds the
    /// source terms with [`terms::GlossaryMatcher`] (whole words, any letter case).
    pub glossary: &'a [(String, String)],
}

impl<'a> EngineRequest<'a> {
    /// A request with only the essentials; the optional parts are empty.
    pub fn new(source: &'a str, target: &'a str, texts: &'a [String]) -> Self {
        EngineRequest {
            source,
            target,
            texts,
            formality: Formality::Default,
            context: None,
            custom_instructions: &[],
            glossary: &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_coverage_compares_base_codes_of_variant_targets() {
        let coverage = Coverage::Pairs(BTreeSet::from([("en".to_owned(), "pt".to_owned())]));
        assert!(coverage.supports("en", "pt-br"));
        assert!(coverage.supports("en", "pt"));
        assert!(!coverage.supports("pt", "en"));
        assert!(Coverage::All.supports("xx", "yy"));
    }

    #[test]
    fn engines_can_be_boxed_as_trait_objects() {
        let engine: Box<dyn Engine + '_> = Box::new(DeterministicEngine::new());
        assert_eq!(engine.name(), "deterministic");
    }
}
