//! The Apertium engine: a client of Apertium APY's HTTP API.
//!
//! * `GET {url}/listPairs` says which pairs are installed. The answer is cached in the key-value
//!   store (when one is given) for [`PAIRS_TTL`], and in the engine for its lifetime, so a request
//!   that asks for the coverage and then translates calls APY once. [`pairs`] turns it into our
//!   codes, chooses variants and plans pivots.
//! * `POST {url}/translate` with `langpair`, `q` and `markUnknown=no` translates one text, once
//!   per leg of the plan (two legs through a pivot).
//!
//! # One request per text
//!
//! Texts are not batched into one `q`: Apertium's transfer rules reorder words across newlines,
//! even blank lines (`"The red\n\nhouse is big"` comes back as `"La casa\n\nroja es grande"`), so
//! no separator splits a batched answer back reliably. Identical texts of one request are
//! translated once.
//!
//! # What comes back
//!
//! APY drops leading and trailing whitespace and sometimes adds a leading space, so each output
//! gets its input's outer whitespace back around its trimmed body. With `markUnknown=no` APY
//! removes its `*` marks for unknown words; `#` (generation errors) and `@` (transfer errors) may
//! remain. Any of these three characters that does not occur in a leg's input is removed from
//! its output; where the input has one, the output is left alone (a hashtag is not a mark).
//! Placeholders reach APY as markup (its default HTML deformatter), which keeps them but may
//! move them to another word; the caller copes with that.
//!
//! Formality, context and custom instructions are not supported by Apertium and are ignored.
//!
//! # Glossaries, best effort
//!
//! Apertium copies unknown words unchanged, so each glossary term (found by
//! [`terms::GlossaryMatcher`]) is replaced by a token no dictionary knows (`qzx0qz`, `qzx1qz`, …)
//! before translation, and each token by its target term afterwards. The surrounding words are
//! translated without knowing the term (agreement may suffer), and a token the pipeline mangles
//! leaves its term out; a text that already contains `qzx` is sent without this protection.

pub mod pairs;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, UNIX_EPOCH};

use platform::{Clock, HttpRequest, KeyValue, OutboundHttp, SystemClock};
use serde::{Deserialize, Serialize};
use terms::{GlossaryMatcher, Segment, capitalise};

use self::pairs::{Leg, PairTable, Plan, RawPairs};
use crate::error::{server_message, unreachable};
use crate::text::split_outer_whitespace;
use crate::{Capabilities, Coverage, Engine, EngineError, EngineRequest};

/// The engine's name, as the `engine` variable spells it.
pub const NAME: &str = "apertium";
/// Where APY listens unless `apertium_url` says otherwise (APY's default port).
pub const DEFAULT_URL: &str = "http://127.0.0.1:2737";
/// How long the key-value store's copy of `/listPairs` is trusted: installing a pair shows up
/// within this time.
pub const PAIRS_TTL: Duration = Duration::from_secs(5 * 60);

/// The start and end of a glossary token; the entry's number goes between them.
const TOKEN_START: &str = "qzx";
const TOKEN_END: &str = "qz";

/// Where APY is and how long to wait for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApertiumSettings {
    /// The base URL, without a trailing slash.
    pub url: String,
    pub timeout: Duration,
}

/// The key-value entry holding a copy of `/listPairs`.
#[derive(Serialize, Deserialize)]
struct CachedPairs {
    /// Seconds since the Unix epoch.
    fetched_at: u64,
    pairs: RawPairs,
}

#[derive(Deserialize)]
struct TranslateResponse {
    #[serde(rename = "responseData")]
    response_data: TranslatedData,
    #[serde(rename = "responseStatus")]
    response_status: Option<u16>,
}

#[derive(Deserialize)]
struct TranslatedData {
    #[serde(rename = "translatedText")]
    translated_text: String,
}

/// Apertium APY over HTTP; see the module documentation.
pub struct ApertiumEngine<'a> {
    settings: ApertiumSettings,
    http: &'a dyn OutboundHttp,
    cache: Option<&'a dyn KeyValue>,
    clock: &'a dyn Clock,
    /// The pair table, once known, for the rest of this engine's (one request's) life.
    pairs: RefCell<Option<Rc<PairTable>>>,
}

impl<'a> ApertiumEngine<'a> {
    pub fn new(settings: ApertiumSettings, http: &'a dyn OutboundHttp, cache: Option<&'a dyn KeyValue>) -> Self {
        ApertiumEngine { settings, http, cache, clock: &SystemClock, pairs: RefCell::new(None) }
    }

    /// Uses `clock` to decide whether the cached pair list has expired.
    pub fn with_clock(mut self, clock: &'a dyn Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The pairs APY serves: from this engine's memo, the key-value store, or APY.
    fn pair_table(&self) -> Result<Rc<PairTable>, EngineError> {
        if let Some(table) = self.pairs.borrow().as_ref() {
            return Ok(Rc::clone(table));
        }
        let raw = match self.cached_pairs() {
            Some(raw) => raw,
            None => {
                let raw = self.fetch_pairs()?;
                self.store_pairs(&raw);
                raw
            }
        };
        let table = Rc::new(PairTable::new(&raw));
        *self.pairs.borrow_mut() = Some(Rc::clone(&table));
        Ok(table)
    }

    fn cache_key(&self) -> String {
        format!("engines:apertium:pairs:{}", self.settings.url)
    }

    fn now_secs(&self) -> u64 {
        self.clock.now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs())
    }

    /// The cached pair list if it is fresh. The cache is an optimisation: a store that fails or
    /// holds something unreadable counts as empty.
    fn cached_pairs(&self) -> Option<RawPairs> {
        let bytes = self.cache?.get(&self.cache_key()).ok()??;
        let cached: CachedPairs = serde_json::from_slice(&bytes).ok()?;
        // A copy from the future (clocks of several hosts disagree) is trusted no longer either.
        (self.now_secs().abs_diff(cached.fetched_at) < PAIRS_TTL.as_secs()).then_some(cached.pairs)
    }

    fn store_pairs(&self, raw: &RawPairs) {
        if let Some(cache) = self.cache {
            let entry = CachedPairs { fetched_at: self.now_secs(), pairs: raw.clone() };
            if let Ok(bytes) = serde_json::to_vec(&entry) {
                // Best effort, like reading: the next request fetches the list again.
                let _ = cache.set(&self.cache_key(), &bytes);
            }
        }
    }

    /// Forgets the cached pair list, after APY refused a pair it listed.
    fn forget_pairs(&self) {
        if let Some(cache) = self.cache {
            let _ = cache.delete(&self.cache_key());
        }
    }

    fn fetch_pairs(&self) -> Result<RawPairs, EngineError> {
        let url = format!("{}/listPairs", self.settings.url);
        let request = HttpRequest::new("GET", url.as_str()).timeout(self.settings.timeout);
        let response = self.http.send(request).map_err(|error| unreachable(NAME, error, self.settings.timeout))?;
        if response.status != 200 {
            return Err(EngineError::Unavailable {
                engine: NAME,
                reason: format!("{url} answered status {}", response.status),
            });
        }
        RawPairs::from_list_pairs(&response.body).map_err(|reason| EngineError::Invalid(format!("{url}: {reason}")))
    }

    /// Translates one text along the plan.
    fn translate_text(&self, plan: &Plan, text: &str, glossary: &GlossaryMatcher<'_>) -> Result<String, EngineError> {
        let (leading, body, trailing) = split_outer_whitespace(text);
        if body.is_empty() {
            return Ok(text.to_owned());
        }
        let (mut current, terms) = protect_terms(body, glossary);
        for leg in &plan.legs {
            let translated = self.translate_leg(leg, &current)?;
            current = strip_marks(&translated, &current);
        }
        let restored = restore_terms(&current, &terms);
        Ok(format!("{leading}{}{trailing}", restored.trim()))
    }

    /// One call of `/translate`.
    fn translate_leg(&self, leg: &Leg, text: &str) -> Result<String, EngineError> {
        let url = format!("{}/translate", self.settings.url);
        let langpair = leg.langpair();
        let form = form_urlencoded::Serializer::new(String::new())
            .append_pair("langpair", &langpair)
            .append_pair("q", text)
            .append_pair("markUnknown", "no")
            .finish();
        let request = HttpRequest::new("POST", url.as_str())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(form)
            .timeout(self.settings.timeout);
        let response = self.http.send(request).map_err(|error| unreachable(NAME, error, self.settings.timeout))?;
        if response.status != 200 {
            if response.status == 400 {
                // APY refuses pairs it does not have: the cached list may be out of date.
                self.forget_pairs();
            }
            return Err(EngineError::Unavailable {
                engine: NAME,
                reason: format!(
                    "{url} answered status {} for {langpair}: {}",
                    response.status,
                    server_message(&response.body)
                ),
            });
        }
        let parsed: TranslateResponse = serde_json::from_slice(&response.body).map_err(|error| {
            EngineError::Invalid(format!("{url} answered {langpair} with unexpected JSON: {error}"))
        })?;
        match parsed.response_status {
            None | Some(200) => Ok(parsed.response_data.translated_text),
            Some(status) => Err(EngineError::Unavailable {
                engine: NAME,
                reason: format!("{url} reported status {status} for {langpair}"),
            }),
        }
    }
}

impl Engine for ApertiumEngine<'_> {
    fn coverage(&self) -> Result<Coverage, EngineError> {
        Ok(Coverage::pairs(self.pair_table()?.coverage()))
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { formality: false, context: false, custom_instructions: false, glossary: true }
    }

    fn translate(&self, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError> {
        let table = self.pair_table()?;
        let plan = table
            .plan(request.source, request.target)
            .ok_or(EngineError::UnsupportedPair { from: request.source, to: request.target })?;
        let glossary = GlossaryMatcher::new(request.glossary);
        let mut done: HashMap<&str, String> = HashMap::new();
        let mut outputs = Vec::with_capacity(request.texts.len());
        for text in request.texts {
            let output = match done.get(text.as_str()) {
                Some(output) => output.clone(),
                None => {
                    let output = self.translate_text(&plan, text, &glossary)?;
                    done.insert(text, output.clone());
                    output
                }
            };
            outputs.push(output);
        }
        Ok(outputs)
    }

    fn name(&self) -> &'static str {
        NAME
    }
}

/// Replaces the glossary terms of `text` by tokens; returns the text and each token's target term.
fn protect_terms(text: &str, glossary: &GlossaryMatcher<'_>) -> (String, Vec<String>) {
    if glossary.is_empty() || text.to_ascii_lowercase().contains(TOKEN_START) {
        return (text.to_owned(), Vec::new());
    }
    let mut protected = String::with_capacity(text.len());
    let mut terms = Vec::new();
    for segment in glossary.segments(text) {
        match segment {
            Segment::Plain(plain) | Segment::Placeholder(plain) => protected.push_str(plain),
            Segment::Term { entry, capitalised } => {
                protected.push_str(&format!("{TOKEN_START}{}{TOKEN_END}", terms.len()));
                terms.push(glossary.target(entry, capitalised));
            }
        }
    }
    (protected, terms)
}

/// Replaces the tokens of [`protect_terms`] by their terms; APY may have capitalised a token.
fn restore_terms(text: &str, terms: &[String]) -> String {
    if terms.is_empty() {
        return text.to_owned();
    }
    let mut restored = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(at) = find_ignoring_ascii_case(rest, TOKEN_START) {
        let after_start = &rest[at + TOKEN_START.len()..];
        let digits = after_start.bytes().take_while(u8::is_ascii_digit).count();
        let after_digits = &after_start[digits..];
        let term = after_start[..digits].parse::<usize>().ok().and_then(|index| terms.get(index));
        match term {
            Some(term)
                if after_digits.get(..TOKEN_END.len()).is_some_and(|end| end.eq_ignore_ascii_case(TOKEN_END)) =>
            {
                restored.push_str(&rest[..at]);
                let capitalised = rest[at..].starts_with(|c: char| c.is_ascii_uppercase());
                restored.push_str(&if capitalised { capitalise(term) } else { term.clone() });
                rest = &after_digits[TOKEN_END.len()..];
            }
            _ => {
                restored.push_str(&rest[..at + TOKEN_START.len()]);
                rest = after_start;
            }
        }
    }
    restored.push_str(rest);
    restored
}

fn find_ignoring_ascii_case(haystack: &str, needle: &str) -> Option<usize> {
    haystack.as_bytes().windows(needle.len()).position(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Removes Apertium's marks (`*`, `#`, `@`) from `output` unless `input` has that character.
fn strip_marks(output: &str, input: &str) -> String {
    let marks: Vec<char> = ['*', '#', '@'].into_iter().filter(|mark| !input.contains(*mark)).collect();
    if marks.is_empty() {
        return output.to_owned();
    }
    output.chars().filter(|character| !marks.contains(character)).collect()
}

#[cfg(test)]
mod tests;
