//! The machine-translation engines behind one interface.
//!
//! The components own the API (validation, glossaries, tag handling, sentence splitting, billing);
//! an [`Engine`] only does the language work: it turns the texts of one [`EngineRequest`] into as
//! many translations, in order. Four engines implement it:
//!
//! * [`ctranslate2`]: neural models (Argos Translate / OPUS-MT packages) in Glossa's inference
//!   service, offline, one model per direct pair;
//! * [`apertium`]: Apertium APY over HTTP, rule-based and offline, pivoting through a third
//!   language where no direct pair is installed;
//! * [`openai`]: any OpenAI-compatible chat-completions endpoint, one call per request;
//! * [`deterministic`]: reproducible pseudo-translations for tests and the sandbox.
//!
//! [`configured`] builds the priority list the Spin variables name (see [`config`]) as one
//! [`Chain`], which picks an engine per pair and pivots through English across engines; an engine's
//! [`Engine::coverage`] says, in the catalogue's terms, which pairs it translates: the language
//! listings and the glossary checks ask it, not the catalogue alone. [`Detector`] guesses the
//! source language when the client sent none: through the language-tools service
//! ([`language_tools`], which also corrects texts) when one is configured, else, and whenever
//! it fails, with the built-in [`detect()`]. Requests carry the catalogue's languages, parsed
//! once; each engine maps them to its back end's codes. [`speech::recognition`] asks the same
//! inference service which spoken languages its speech models recognise (real-time voice's listing).
//!
//! The crate is platform-free: it reaches the network only through [`platform::OutboundHttp`],
//! its settings through [`platform::Variables`] and its cache through [`platform::KeyValue`], so
//! the same code runs inside a component and in native unit tests. `edge.rs` turns its errors
//! into the API's answers.

pub mod apertium;
pub mod chain;
pub mod config;
pub mod ctranslate2;
pub mod detect;
pub mod deterministic;
mod edge;
mod error;
pub mod language_tools;
pub mod openai;
pub mod speech;
mod text;

#[cfg(test)]
mod test_support;

pub use apertium::ApertiumEngine;
pub use catalogue::Coverage;
use catalogue::Language;
pub use chain::Chain;
pub use config::{EngineList, EngineSettings, configured};
pub use ctranslate2::Ctranslate2Engine;
pub use detect::{Builtin, DetectLanguage, Detector, detect};
pub use deterministic::DeterministicEngine;
pub use error::{ConfigError, EngineError};
pub use language_tools::{Detection, LanguageTools, ToolsError, ToolsSettings};
pub use openai::OpenAiEngine;

/// A machine-translation engine.
///
/// Object-safe, so the configured engine travels as `Box<dyn Engine + '_>`. Engines are built for
/// one request (a Spin instance serves one request), so they may keep per-request memos inside.
pub trait Engine {
    /// Which language pairs this engine serves, pivots included, for the language endpoints and
    /// request validation. An engine that cannot tell (its server is down) answers
    /// [`EngineError::Unavailable`] rather than a wrong listing.
    fn coverage(&self) -> Result<Coverage, EngineError>;

    /// Whether this engine translates from `source` into `target`: `Ok`, or
    /// [`EngineError::UnsupportedPair`], or the engine's failure to tell (which the caller
    /// answers as unavailability, not as a pair it lacks).
    fn check_pair(&self, source: &'static Language, target: &'static Language) -> Result<(), EngineError> {
        if self.coverage()?.supports_pair(source, target) {
            Ok(())
        } else {
            Err(EngineError::UnsupportedPair { from: source, to: target })
        }
    }

    /// What this engine does with the optional parts of a request, for the language endpoints
    /// (the catalogue's features are intersected with these).
    fn capabilities(&self) -> Capabilities;

    /// Translates every text of the request, in order: exactly one output per input.
    fn translate(&self, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError>;

    /// Whether the translations made so far followed their requests' custom instructions and
    /// examples: the engine's capability, or, for a [`Chain`], that of every route that served.
    fn followed_instructions(&self) -> bool {
        self.capabilities().custom_instructions
    }

    /// The engine's name as the `engine` variable spells it, for logs and error messages.
    fn name(&self) -> &'static str;
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
    /// The source language, a base language; always known (the caller detects it first).
    pub source: &'static Language,
    /// The target language, possibly a variant: `DE`, `EN-GB`, `PT-BR`, `ZH-HANS`, `ES-419`.
    pub target: &'static Language,
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
    /// Earlier translations of similar sentences (a translation memory's fuzzy matches), source
    /// → target, whose wording the translation should follow where it fits. Only engines that
    /// follow instructions use them.
    pub examples: &'a [(String, String)],
}

impl<'a> EngineRequest<'a> {
    /// A request with only the essentials; the optional parts are empty.
    pub fn new(source: &'static Language, target: &'static Language, texts: &'a [String]) -> Self {
        EngineRequest {
            source,
            target,
            texts,
            formality: Formality::Default,
            context: None,
            custom_instructions: &[],
            glossary: &[],
            examples: &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_can_be_boxed_as_trait_objects() {
        let engine: Box<dyn Engine + '_> = Box::new(DeterministicEngine::new());
        assert_eq!(engine.name(), "deterministic");
    }
}
