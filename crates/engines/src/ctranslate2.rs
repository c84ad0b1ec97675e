//! The `ctranslate2` engine: a client of Glossa's inference service (`services/inference`), which
//! keeps CTranslate2 translation models (Argos Translate / OPUS-MT packages, installed with
//! `glossa models install`) loaded and batches the requests of every component instance.
//!
//! | variable | meaning |
//! |---|---|
//! | `inference_url` | the service's base URL; default `http://127.0.0.1:2741`, where `make up` starts it |
//! | `inference_secret` | the shared secret the service was started with, sent as `Authorization: Bearer`; required by this engine, never logged |
//!
//! The protocol, JSON both ways, every call with the secret: `GET /v1/translation/models`
//! answers `{"models": [{"source", "target", "name", "version"}]}`, one model per direct pair;
//! `POST /v1/translation/translate {"source", "target", "texts"}` answers `{"translations"}`,
//! one per text, in order. The service keeps each text's outer whitespace and lines, and puts
//! Glossa's placeholders (`<gN>…</gN>`, `<xN/>`) back where the model's attention says their
//! words went, so markup survives in one pass.
//!
//! # Coverage
//!
//! The direct pairs of the installed models. The list is cached in the key-value store for
//! [`MODELS_TTL`], so a newly installed model is listed and used within that time. When the
//! service cannot be asked, the last list it gave stands (its pairs then fail over to the next
//! engine, or answer 503); only a service never reached has no coverage. Pivots through English
//! (zh→en→de on two models, or across engines) are the [`Chain`](crate::chain::Chain)'s business.
//!
//! # Glossaries
//!
//! Each glossary term (found by [`terms::GlossaryMatcher`]) is sent wrapped in a placeholder pair
//! numbered above the unit's own, so the model translates it in context and the alignment marks
//! where it went; that span is then replaced by the glossary's target term. A term the model
//! loses is put back by the translation pipeline, as for every engine.
//!
//! Formality, context and custom instructions are not supported by these models and are ignored.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, UNIX_EPOCH};

use platform::{Clock, HttpRequest, KeyValue, OutboundHttp, SystemClock, Variables};
use serde::{Deserialize, Serialize};
use terms::{GlossaryMatcher, Segment};

use crate::config::{parse_url, read};
use crate::error::{server_message, unreachable};
use crate::{Capabilities, ConfigError, Coverage, Engine, EngineError, EngineRequest};

/// The engine's name, as the `engine` variable spells it.
pub const NAME: &str = "ctranslate2";
pub const URL_VARIABLE: &str = "inference_url";
pub const SECRET_VARIABLE: &str = "inference_secret";
/// Where the service listens unless `inference_url` says otherwise.
pub const DEFAULT_URL: &str = "http://127.0.0.1:2741";
/// How long the key-value store's copy of the model list is trusted before the service is asked
/// again: a newly installed model is used within this time.
pub const MODELS_TTL: Duration = Duration::from_secs(15);
/// The most texts sent in one call (the service takes up to 2,000).
pub const BATCH: usize = 500;

/// Where the service is and how to prove to it who is calling.
#[derive(Clone, PartialEq, Eq)]
pub struct Ctranslate2Settings {
    /// The base URL, without a trailing slash.
    pub url: String,
    secret: String,
    pub timeout: Duration,
}

impl std::fmt::Debug for Ctranslate2Settings {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Ctranslate2Settings")
            .field("url", &self.url)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Ctranslate2Settings {
    /// The settings the variables describe; the secret is required, and read only when
    /// `read_secret` (the health check validates the rest without it).
    pub(crate) fn from_variables(
        vars: &dyn Variables,
        timeout: Duration,
        read_secret: bool,
    ) -> Result<Ctranslate2Settings, ConfigError> {
        let url = match read(vars, URL_VARIABLE)? {
            Some(url) => parse_url(URL_VARIABLE, &url)?,
            None => DEFAULT_URL.to_owned(),
        };
        let secret = if read_secret {
            read(vars, SECRET_VARIABLE)?.ok_or(ConfigError::Missing {
                variable: SECRET_VARIABLE,
                expected: "the secret the inference service was started with (the ctranslate2 engine needs it)",
            })?
        } else {
            String::new()
        };
        Ok(Ctranslate2Settings { url, secret, timeout })
    }

    /// `GET path` of the service with the secret, its JSON answer read as `T`; `caller` names
    /// the engine or family in errors (the speech family's listing uses it too).
    pub(crate) fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        http: &dyn OutboundHttp,
        path: &str,
        caller: &'static str,
    ) -> Result<T, EngineError> {
        let url = format!("{}{path}", self.url);
        let request = HttpRequest::new("GET", url.as_str())
            .header("authorization", format!("Bearer {}", self.secret))
            .timeout(self.timeout);
        let response = http.send(request).map_err(|error| unreachable(caller, error, self.timeout))?;
        if response.status != 200 {
            return Err(EngineError::Unavailable {
                engine: caller,
                reason: format!("{url} answered status {}: {}", response.status, server_message(&response.body)),
            });
        }
        serde_json::from_slice(&response.body)
            .map_err(|error| EngineError::Invalid(format!("{url} answered unexpected JSON: {error}")))
    }

    /// Settings for tests and tools that know the secret.
    pub fn new(url: impl Into<String>, secret: impl Into<String>, timeout: Duration) -> Ctranslate2Settings {
        Ctranslate2Settings { url: url.into(), secret: secret.into(), timeout }
    }
}

/// One installed model, as the service lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    pub source: String,
    pub target: String,
    pub name: String,
    pub version: String,
}

#[derive(Serialize, Deserialize)]
struct ModelList {
    models: Vec<Model>,
}

/// The key-value entry holding the last model list.
#[derive(Serialize, Deserialize)]
struct CachedModels {
    /// Seconds since the Unix epoch.
    fetched_at: u64,
    models: Vec<Model>,
}

#[derive(Serialize)]
struct TranslateBody<'t> {
    source: &'t str,
    target: &'t str,
    texts: &'t [String],
}

#[derive(Deserialize)]
struct TranslateAnswer {
    translations: Vec<String>,
}

/// The inference service's translation models over HTTP; see the module documentation.
pub struct Ctranslate2Engine<'a> {
    settings: Ctranslate2Settings,
    http: &'a dyn OutboundHttp,
    cache: Option<&'a dyn KeyValue>,
    clock: &'a dyn Clock,
    /// The model list, once known, for the rest of this engine's (one request's) life.
    models: RefCell<Option<Rc<Vec<Model>>>>,
}

impl<'a> Ctranslate2Engine<'a> {
    pub fn new(settings: Ctranslate2Settings, http: &'a dyn OutboundHttp, cache: Option<&'a dyn KeyValue>) -> Self {
        Ctranslate2Engine { settings, http, cache, clock: &SystemClock, models: RefCell::new(None) }
    }

    /// Uses `clock` to decide whether the cached model list has expired.
    pub fn with_clock(mut self, clock: &'a dyn Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The installed models: from this engine's memo, a fresh copy in the key-value store, the
    /// service, or (when the service cannot be asked) the last copy it gave.
    pub fn models(&self) -> Result<Rc<Vec<Model>>, EngineError> {
        if let Some(models) = self.models.borrow().as_ref() {
            return Ok(Rc::clone(models));
        }
        let cached = self.cached_models();
        let models = match cached {
            Some((fetched_at, models)) if self.now_secs().abs_diff(fetched_at) < MODELS_TTL.as_secs() => models,
            stale => match self.fetch_models() {
                Ok(models) => {
                    self.store_models(&models);
                    models
                }
                Err(error) => match stale {
                    Some((_, models)) => {
                        eprintln!("ctranslate2: using the last model list: {error}");
                        models
                    }
                    None => return Err(error),
                },
            },
        };
        let models = Rc::new(models);
        *self.models.borrow_mut() = Some(Rc::clone(&models));
        Ok(models)
    }

    fn cache_key(&self) -> String {
        format!("engines:ctranslate2:models:{}", self.settings.url)
    }

    fn now_secs(&self) -> u64 {
        self.clock.now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs())
    }

    /// The cached list and when it was fetched; a store that fails or holds something
    /// unreadable counts as empty (the cache is an optimisation).
    fn cached_models(&self) -> Option<(u64, Vec<Model>)> {
        let bytes = self.cache?.get(&self.cache_key()).ok()??;
        let cached: CachedModels = serde_json::from_slice(&bytes).ok()?;
        Some((cached.fetched_at, cached.models))
    }

    fn store_models(&self, models: &[Model]) {
        if let Some(cache) = self.cache {
            let entry = CachedModels { fetched_at: self.now_secs(), models: models.to_vec() };
            if let Ok(bytes) = serde_json::to_vec(&entry) {
                let _ = cache.set(&self.cache_key(), &bytes);
            }
        }
    }

    fn fetch_models(&self) -> Result<Vec<Model>, EngineError> {
        let list: ModelList = self.settings.get_json(self.http, "/v1/translation/models", NAME)?;
        Ok(list.models)
    }

    /// One call of `/v1/translation/translate` for at most [`BATCH`] texts.
    fn translate_batch(&self, source: &str, target: &str, texts: &[String]) -> Result<Vec<String>, EngineError> {
        let url = format!("{}/v1/translation/translate", self.settings.url);
        let body = serde_json::to_vec(&TranslateBody { source, target, texts })
            .map_err(|error| EngineError::Invalid(error.to_string()))?;
        let request = HttpRequest::new("POST", url.as_str())
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {}", self.settings.secret))
            .body(body)
            .timeout(self.settings.timeout);
        let response = self.http.send(request).map_err(|error| unreachable(NAME, error, self.settings.timeout))?;
        if response.status != 200 {
            if response.status == 404 {
                // The model was removed since the list was cached.
                self.forget_models();
            }
            return Err(EngineError::Unavailable {
                engine: NAME,
                reason: format!(
                    "{url} answered status {} for {source}→{target}: {}",
                    response.status,
                    server_message(&response.body)
                ),
            });
        }
        let answer: TranslateAnswer = serde_json::from_slice(&response.body)
            .map_err(|error| EngineError::Invalid(format!("{url} answered unexpected JSON: {error}")))?;
        if answer.translations.len() != texts.len() {
            return Err(EngineError::Invalid(format!(
                "{url} answered {} translations for {} texts",
                answer.translations.len(),
                texts.len()
            )));
        }
        Ok(answer.translations)
    }

    fn forget_models(&self) {
        if let Some(cache) = self.cache {
            let _ = cache.delete(&self.cache_key());
        }
    }
}

impl Engine for Ctranslate2Engine<'_> {
    fn coverage(&self) -> Result<Coverage, EngineError> {
        let models = self.models()?;
        Ok(Coverage::pairs(models.iter().map(|model| (model.source.as_str(), model.target.as_str()))))
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { formality: false, context: false, custom_instructions: false, glossary: true }
    }

    fn translate(&self, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError> {
        let (source, target) = (request.source.base_code(), request.target.base_code());
        let models = self.models()?;
        if !models.iter().any(|model| model.source == source && model.target == target) {
            return Err(EngineError::UnsupportedPair { from: request.source, to: request.target });
        }
        let glossary = GlossaryMatcher::new(request.glossary);
        let marked: Vec<Marked> = request.texts.iter().map(|text| mark_terms(text, &glossary)).collect();
        let sent: Vec<String> = marked.iter().map(|marked| marked.text.clone()).collect();
        let mut outputs = Vec::with_capacity(sent.len());
        for batch in sent.chunks(BATCH) {
            outputs.extend(self.translate_batch(source, target, batch)?);
        }
        Ok(outputs.iter().zip(&marked).map(|(output, marked)| replace_terms(output, marked)).collect())
    }

    fn name(&self) -> &'static str {
        NAME
    }
}

/// A text with its glossary terms wrapped in placeholder pairs, and each pair's target term.
#[derive(Debug, PartialEq, Eq)]
struct Marked {
    text: String,
    /// (placeholder number, target term) for each wrapped occurrence.
    terms: Vec<(u32, String)>,
}

/// Wraps each glossary term of `text` in `<gN>…</gN>`, numbered above every placeholder the
/// text already has. Two terms that touch (no plain run between them) are left unwrapped: where
/// one ends is not known, and the pipeline puts their target terms in.
fn mark_terms(text: &str, glossary: &GlossaryMatcher<'_>) -> Marked {
    if glossary.is_empty() {
        return Marked { text: text.to_owned(), terms: Vec::new() };
    }
    let segments = glossary.segments(text);
    // Plain runs and placeholders are slices of `text`: where each starts.
    let offset = |piece: &str| piece.as_ptr() as usize - text.as_ptr() as usize;
    let start_of = |index: usize| match segments.get(index) {
        None => Some(text.len()),
        Some(Segment::Plain(piece) | Segment::Placeholder(piece)) => Some(offset(piece)),
        Some(Segment::Term { .. }) => None,
    };
    let mut next = 1 + segments
        .iter()
        .filter_map(|segment| match segment {
            Segment::Placeholder(placeholder) => placeholder_number(placeholder),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut marked = String::with_capacity(text.len() + 16);
    let mut terms = Vec::new();
    let mut at = 0;
    for (index, segment) in segments.iter().enumerate() {
        let Segment::Term { entry, capitalised } = *segment else { continue };
        let start = if index == 0 { Some(0) } else { end_of(&segments, index - 1, offset) };
        let (Some(start), Some(end)) = (start, start_of(index + 1)) else { continue };
        marked.push_str(&text[at..start]);
        marked.push_str(&format!("<g{next}>{}</g{next}>", &text[start..end]));
        terms.push((next, glossary.target(entry, capitalised)));
        at = end;
        next += 1;
    }
    marked.push_str(&text[at..]);
    Marked { text: marked, terms }
}

/// Where the segment at `index` ends, when it is a plain run or a placeholder.
fn end_of(segments: &[Segment<'_>], index: usize, offset: impl Fn(&str) -> usize) -> Option<usize> {
    match &segments[index] {
        Segment::Plain(piece) | Segment::Placeholder(piece) => Some(offset(piece) + piece.len()),
        Segment::Term { .. } => None,
    }
}

/// The number of a placeholder spelled `<gN>`, `</gN>` or `<xN/>`.
fn placeholder_number(placeholder: &str) -> Option<u32> {
    let digits: String = placeholder.chars().filter(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Replaces each wrapped term's span in the translation by its target term; a pair the output
/// lacks is left to the pipeline's check.
fn replace_terms(output: &str, marked: &Marked) -> String {
    let mut result = output.to_owned();
    for (number, term) in &marked.terms {
        let (open, close) = (format!("<g{number}>"), format!("</g{number}>"));
        if let Some(start) = result.find(&open)
            && let Some(end) = result[start..].find(&close).map(|offset| start + offset)
        {
            result.replace_range(start..end + close.len(), term);
        }
    }
    result
}

#[cfg(test)]
mod tests;
