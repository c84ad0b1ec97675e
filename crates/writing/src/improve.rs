//! The pipeline the write component calls: from a validated request to the improved texts.
//!
//! For each text, in order:
//!
//! 1. **Detect** its language ([`TextTools::detect`], one call for the whole request).
//! 2. **Choose the target.** With `target_lang`, the request's; a text whose detected language
//!    has another base language is **translated** into it first ([`TextTools::translate`]); a text
//!    whose language cannot be detected is taken to be in the target's language. Without
//!    `target_lang`, the text's own language, which must be a write language (else a 400 that
//!    says so), named as the answers name targets (`en` → `en-US`, `pt` → `pt-PT`, see
//!    [`answered_target`]); a style or tone is then checked against it.
//!    A target whose base language the corrector does not cover ([`TextTools::corrected`]) is
//!    refused (400) before anything is translated.
//! 3. **Correct** it in the target language ([`TextTools::correct`], one call per target; the
//!    target is passed with its regional variant, so a checker can apply `en-GB` or `pt-BR`
//!    spelling).
//! 4. **Rephrase** (`/v2/write/rephrase` only): with an LLM engine ([`Rephraser`]), whose
//!    output is accepted only if it passes [`check_output`] (not empty, a length in proportion to
//!    the text's) and is in the target's language ([`TextTools::detect`] again, one call); else
//!    with the rule-based rephraser for the style or tone asked. Whatever was asked and not
//!    honoured is reported in each improvement's [`Outcome`], never dropped silently.
//!
//! Blank texts go through unchanged (no tool sees them). Nothing here bills: the component
//! charges [`billed_characters`] once [`improve`] succeeded.

use std::fmt;

use catalogue::Language;
use serde::Serialize;

use crate::rephrase::{Effect, rephrase_with_rules, rule_based_effect};
use crate::request::{Change, Kind, RequestError, Resolved, WriteRequest, answered_target, improvable_codes};

/// An engine's output is refused if it has fewer than 1/`LENGTH_FACTOR` of its input's characters
/// or more than `LENGTH_FACTOR` times as many plus [`LENGTH_SLACK`] …
pub const LENGTH_FACTOR: usize = 2;
/// … characters, so that a short text may gain a few words ("Hi" → "Hello there!").
pub const LENGTH_SLACK: usize = 10;

/// What the pipeline needs from the language-tools service (the component implements it over
/// HTTP; the translation goes to the configured translation engine).
pub trait TextTools {
    /// The language of each text (a base language of the catalogue), in order; `None` for a text
    /// whose language cannot be told (no letters).
    fn detect(&self, texts: &[String]) -> Result<Vec<Option<&'static Language>>, ToolsError>;

    /// Each text with its spelling and grammar corrected, in order. `language` is the target as
    /// the answer names it (`en-US`, `en-GB`, `pt-BR`, `de`); `language.base()` for a checker
    /// without regional variants.
    fn correct(&self, language: &'static Language, texts: &[String]) -> Result<Vec<String>, ToolsError>;

    /// `text` translated from `from` (a base language) into `to` (a write target).
    fn translate(&self, text: &str, from: &'static Language, to: &'static Language) -> Result<String, ToolsError>;

    /// The base languages [`TextTools::correct`] covers.
    fn corrected(&self) -> Result<Vec<&'static Language>, ToolsError>;
}

/// An LLM-backed rephraser.
pub trait Rephraser {
    /// `text` (already corrected, in `language`) rewritten in `language` with `change`, or
    /// improved without changing its style and tone when `change` is `None`.
    fn rephrase(&self, language: &'static Language, text: &str, change: Option<Change>) -> Result<String, ToolsError>;
}

/// Why a tool could not do its part.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolsError {
    /// No language-tools service (or engine) is configured: the operator must set one up.
    #[error("not configured: {0}")]
    NotConfigured(String),
    /// The service is down, too slow, or answered a server error.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// The service answered something unusable.
    #[error("answered something unusable: {0}")]
    Invalid(String),
    /// The tool refused this input as the client's mistake (a language pair the translation
    /// engine does not serve); the message is the client's to read.
    #[error("{0}")]
    Refused(String),
}

/// Why a write request failed. Nothing is billed for any of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The client's mistake (400).
    #[error(transparent)]
    Request(#[from] RequestError),
    /// A tool refused a text as the client's mistake (400 with the tool's message).
    #[error("{0}")]
    Refused(String),
    /// The language-tools service (or the engine) is not configured, down or broken (503).
    #[error("the text tools cannot serve the request: {0}")]
    ToolsUnavailable(#[source] ToolsError),
    /// A tool broke its contract (an answer for the wrong number of texts): our bug (500).
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<ToolsError> for WriteError {
    fn from(error: ToolsError) -> WriteError {
        match error {
            ToolsError::Refused(message) => WriteError::Refused(message),
            other => WriteError::ToolsUnavailable(other),
        }
    }
}

/// The answer: `{"improvements": [...]}`, one per text, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Improvements {
    pub improvements: Vec<Improvement>,
}

impl Improvements {
    /// Everything asked for and not honoured, with the (0-based) text it concerns.
    pub fn not_honoured(&self) -> impl Iterator<Item = (usize, &NotHonoured)> {
        self.improvements
            .iter()
            .enumerate()
            .flat_map(|(index, improvement)| improvement.outcome.not_honoured.iter().map(move |notice| (index, notice)))
    }
}

/// One improved text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Improvement {
    pub text: String,
    /// The base language the text was written in, lower case: `en`, `de`.
    pub detected_source_language: &'static str,
    /// The language of the improved text, BCP 47: `en-US`, `de`, `pt-BR`.
    pub target_language: &'static str,
    /// How the text was made; not part of the answer.
    #[serde(skip)]
    pub outcome: Outcome,
}

/// How an improved text was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub rewriter: Rewriter,
    /// What was asked and not done (empty when everything was).
    pub not_honoured: Vec<NotHonoured>,
}

/// What made the final text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rewriter {
    /// Correction (after translation, if any) only.
    Corrector,
    /// The LLM engine rephrased the corrected text.
    Engine,
    /// The rule-based rephraser applied the style or tone asked for.
    Rules,
}

/// Something a request asked for that the answer does not do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotHonoured {
    /// A `prefer_…` style or tone for a language without it: the default, as the API documents.
    Unavailable { change: Change, language: &'static Language },
    /// No LLM engine, and the rules have nothing for this style or tone in this language.
    NoRules { change: Change, reason: &'static str },
    /// The engine's rephrasing failed the output check; the corrected text is answered.
    EngineRejected { change: Option<Change>, rejection: Rejection },
}

impl fmt::Display for NotHonoured {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotHonoured::Unavailable { change, language } => {
                write!(formatter, "{change} is not available for {}; the default was used", language.name())
            }
            NotHonoured::NoRules { change, reason } => write!(formatter, "{change} was not applied: {reason}"),
            NotHonoured::EngineRejected { change, rejection } => {
                let what =
                    change.map_or_else(|| "the rephrasing".to_owned(), |change| format!("the rephrasing for {change}"));
                write!(formatter, "{what} was not used ({rejection}); the corrected text was returned")
            }
        }
    }
}

/// Why an engine's output was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    Empty,
    /// Characters in and out.
    Length {
        input: usize,
        output: usize,
    },
    Language {
        expected: &'static Language,
        found: &'static Language,
    },
}

impl fmt::Display for Rejection {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Empty => formatter.write_str("it was empty"),
            Rejection::Length { input, output } => {
                write!(formatter, "it had {output} characters for a text of {input}")
            }
            Rejection::Language { expected, found } => {
                write!(formatter, "it was in {}, not {}", found.name(), expected.name())
            }
        }
    }
}

/// Whether an engine's `output` for `input` may be used as far as its length says: not blank, at
/// least half as long, at most twice as long plus [`LENGTH_SLACK`] characters.
pub fn check_output(input: &str, output: &str) -> Result<(), Rejection> {
    let (input_chars, output_chars) = (input.chars().count(), output.chars().count());
    if output.trim().is_empty() {
        Err(Rejection::Empty)
    } else if output_chars * LENGTH_FACTOR < input_chars || output_chars > input_chars * LENGTH_FACTOR + LENGTH_SLACK {
        Err(Rejection::Length { input: input_chars, output: output_chars })
    } else {
        Ok(())
    }
}

/// The characters a request is billed for: every code point of its texts (all characters of a
/// request count, whatever was changed).
pub fn billed_characters(request: &WriteRequest) -> i64 {
    request.texts.iter().map(|text| text.chars().count() as i64).sum()
}

/// What the pipeline does with one text.
#[derive(Debug, Clone, Copy)]
struct Plan {
    /// The base language it is written in.
    source: &'static Language,
    /// The language it is improved in, as the answer names it.
    target: &'static Language,
    resolved: Resolved,
    blank: bool,
}

/// Improves every text of `request` (see the module's documentation for the steps).
pub fn improve(
    request: &WriteRequest,
    tools: &dyn TextTools,
    engine: Option<&dyn Rephraser>,
) -> Result<Improvements, WriteError> {
    let detected = tools.detect(&request.texts)?;
    same_count("detect", request.texts.len(), detected.len())?;
    let plans = request
        .texts
        .iter()
        .zip(detected)
        .enumerate()
        .map(|(index, (text, detected))| plan(request, index, text, detected))
        .collect::<Result<Vec<Plan>, WriteError>>()?;
    improvable(tools, request, &plans)?;

    let mut texts = request.texts.clone();
    for (text, plan) in texts.iter_mut().zip(&plans) {
        if !plan.blank && plan.source != plan.target.base() {
            *text = tools.translate(text, plan.source, plan.target)?;
        }
    }
    correct(tools, &mut texts, &plans)?;
    let outcomes = match request.kind {
        Kind::Correct => vec![Outcome { rewriter: Rewriter::Corrector, not_honoured: Vec::new() }; plans.len()],
        Kind::Rephrase => rephrase(tools, engine, &mut texts, &plans)?,
    };
    let improvements = texts
        .into_iter()
        .zip(plans)
        .zip(outcomes)
        .map(|((text, plan), outcome)| Improvement {
            text,
            detected_source_language: plan.source.base_code(),
            target_language: plan.target.lang(),
            outcome,
        })
        .collect();
    Ok(Improvements { improvements })
}

/// The plan for the text at `index`, in the language `detected`.
fn plan(
    request: &WriteRequest,
    index: usize,
    text: &str,
    detected: Option<&'static Language>,
) -> Result<Plan, WriteError> {
    let detected = detected.map(Language::base);
    let (source, target) = match request.target {
        Some(target) => (detected.unwrap_or(target.base()), target),
        None => {
            let source = detected.ok_or(RequestError::Undetected(index + 1))?;
            if !source.supports_write() {
                return Err(RequestError::NotAWriteLanguage { index: index + 1, language: source.name() }.into());
            }
            (source, answered_target(source))
        }
    };
    let resolved = match request.kind {
        Kind::Rephrase => request.resolve(target)?,
        Kind::Correct => Resolved::Default,
    };
    Ok(Plan { source, target, resolved, blank: text.trim().is_empty() })
}

/// Refuses the request, before any translation, when a target's language is one the corrector
/// does not cover: the answer would come back uncorrected.
fn improvable(tools: &dyn TextTools, request: &WriteRequest, plans: &[Plan]) -> Result<(), WriteError> {
    if plans.iter().all(|plan| plan.blank) {
        return Ok(());
    }
    let corrected = tools.corrected()?;
    let covered = |language: &'static Language| corrected.contains(&language.base());
    let Some((index, plan)) = plans.iter().enumerate().find(|(_, plan)| !plan.blank && !covered(plan.target)) else {
        return Ok(());
    };
    let (language, offered) = (plan.target.base().name(), improvable_codes(covered));
    Err(match request.target {
        Some(_) => RequestError::NotImprovable { language, offered },
        None => RequestError::NotImprovableText { index: index + 1, language, offered },
    }
    .into())
}

/// Corrects every text that is not blank, one call per target language.
fn correct(tools: &dyn TextTools, texts: &mut [String], plans: &[Plan]) -> Result<(), WriteError> {
    let mut done: Vec<bool> = plans.iter().map(|plan| plan.blank).collect();
    for first in 0..plans.len() {
        if done[first] {
            continue;
        }
        let target = plans[first].target;
        let group: Vec<usize> =
            (first..plans.len()).filter(|&index| !done[index] && plans[index].target == target).collect();
        let batch: Vec<String> = group.iter().map(|&index| texts[index].clone()).collect();
        let corrected = tools.correct(target, &batch)?;
        same_count("correct", batch.len(), corrected.len())?;
        for (index, text) in group.into_iter().zip(corrected) {
            texts[index] = text;
            done[index] = true;
        }
    }
    Ok(())
}

/// Rephrases every text that is not blank, with the engine if there is one, else with the rules.
fn rephrase(
    tools: &dyn TextTools,
    engine: Option<&dyn Rephraser>,
    texts: &mut [String],
    plans: &[Plan],
) -> Result<Vec<Outcome>, WriteError> {
    let mut outcomes = Vec::with_capacity(plans.len());
    // Engine outputs of the right length, to be checked for their language in one call.
    let mut candidates: Vec<(usize, String, Option<Change>)> = Vec::new();
    for (index, plan) in plans.iter().enumerate() {
        let (change, mut not_honoured) = match plan.resolved {
            Resolved::Default => (None, Vec::new()),
            Resolved::Apply(change) => (Some(change), Vec::new()),
            Resolved::Unavailable(change) => (None, vec![NotHonoured::Unavailable { change, language: plan.target }]),
        };
        if plan.blank {
            outcomes.push(Outcome { rewriter: Rewriter::Corrector, not_honoured });
            continue;
        }
        let rewriter = match engine {
            Some(engine) => {
                let output = engine.rephrase(plan.target, &texts[index], change)?;
                match check_output(&texts[index], &output) {
                    Ok(()) => {
                        candidates.push((index, output, change));
                        Rewriter::Engine
                    }
                    Err(rejection) => {
                        not_honoured.push(NotHonoured::EngineRejected { change, rejection });
                        Rewriter::Corrector
                    }
                }
            }
            None => match change {
                None => Rewriter::Corrector,
                Some(change) => {
                    let rephrased = rephrase_with_rules(plan.target, &texts[index], change);
                    if rephrased.applied {
                        texts[index] = rephrased.text;
                        Rewriter::Rules
                    } else {
                        let reason = match rule_based_effect(plan.target, change) {
                            Effect::None(reason) => reason,
                            Effect::Rewrites(_) => "the rules did not apply",
                        };
                        not_honoured.push(NotHonoured::NoRules { change, reason });
                        Rewriter::Corrector
                    }
                }
            },
        };
        outcomes.push(Outcome { rewriter, not_honoured });
    }
    if !candidates.is_empty() {
        let outputs: Vec<String> = candidates.iter().map(|(_, output, _)| output.clone()).collect();
        let languages = tools.detect(&outputs)?;
        same_count("detect", outputs.len(), languages.len())?;
        for ((index, output, change), language) in candidates.into_iter().zip(languages) {
            let expected = plans[index].target.base();
            match language.map(Language::base) {
                Some(found) if found != expected => {
                    let outcome = &mut outcomes[index];
                    outcome.rewriter = Rewriter::Corrector;
                    outcome.not_honoured.push(NotHonoured::EngineRejected {
                        change,
                        rejection: Rejection::Language { expected, found },
                    });
                }
                _ => texts[index] = output,
            }
        }
    }
    Ok(outcomes)
}

/// A tool's answer must have one item per text.
fn same_count(tool: &str, sent: usize, answered: usize) -> Result<(), WriteError> {
    if sent == answered {
        Ok(())
    } else {
        Err(WriteError::Internal(format!("{tool} answered {answered} items for {sent} texts")))
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;
    use crate::request::{RawWriteRequest, Style, Tone};

    fn language(code: &str) -> &'static Language {
        catalogue::find(code).unwrap()
    }

    /// Tools with fixed answers: languages by marker words, corrections of "teh" and "ist nich",
    /// translations by a small table; every call recorded.
    #[derive(Default)]
    struct Tools {
        calls: RefCell<Vec<String>>,
        fail: Option<ToolsError>,
        short_answers: bool,
        /// Base languages the corrector does not cover (it covers every other one).
        uncorrected: Vec<&'static str>,
    }

    impl Tools {
        fn failing(error: ToolsError) -> Tools {
            Tools { fail: Some(error), ..Tools::default() }
        }

        fn calls(&self) -> Vec<String> {
            self.calls.borrow().clone()
        }

        fn detect_one(text: &str) -> Option<&'static Language> {
            let words: Vec<String> = text.split(|c: char| !c.is_alphabetic()).map(str::to_lowercase).collect();
            let has = |word: &str| words.iter().any(|w| w == word);
            if !text.chars().any(char::is_alphabetic) {
                None
            } else if has("ist") || has("wir") || has("das") {
                Some(language("de"))
            } else if has("est") || has("le") {
                Some(language("fr"))
            } else if has("het") {
                Some(language("nl"))
            } else if has("es") || has("el") {
                Some(language("es"))
            } else if has("é") || has("muito") {
                Some(language("pt"))
            } else {
                Some(language("en"))
            }
        }
    }

    impl TextTools for Tools {
        fn detect(&self, texts: &[String]) -> Result<Vec<Option<&'static Language>>, ToolsError> {
            self.calls.borrow_mut().push(format!("detect {}", texts.len()));
            if let Some(error) = &self.fail {
                return Err(error.clone());
            }
            let mut languages: Vec<_> = texts.iter().map(|text| Tools::detect_one(text)).collect();
            if self.short_answers {
                languages.pop();
            }
            Ok(languages)
        }

        fn correct(&self, language: &'static Language, texts: &[String]) -> Result<Vec<String>, ToolsError> {
            self.calls.borrow_mut().push(format!("correct {} {}", language.lang(), texts.join(" | ")));
            Ok(texts.iter().map(|text| text.replace("teh", "the").replace("ist nich", "ist nicht")).collect())
        }

        fn translate(&self, text: &str, from: &'static Language, to: &'static Language) -> Result<String, ToolsError> {
            self.calls.borrow_mut().push(format!("translate {} {}", from.lang(), to.lang()));
            match (text, to.base_code()) {
                ("Das ist teh Plan.", "en") => Ok("That is teh plan.".into()),
                ("Hello.", "fr") => Ok("Bonjour.".into()),
                ("Hello.", "nl") => {
                    Err(ToolsError::Refused("The translation engine does not translate from EN to NL.".into()))
                }
                _ => Ok(format!("{text} [{}]", to.lang())),
            }
        }

        fn corrected(&self) -> Result<Vec<&'static Language>, ToolsError> {
            let all = catalogue::all().iter().filter(|language| !language.is_variant());
            Ok(all.filter(|language| !self.uncorrected.contains(&language.lang())).collect())
        }
    }

    /// An engine that answers what it is told.
    struct Engine {
        answer: fn(&str) -> String,
        calls: RefCell<Vec<(String, Option<Change>)>>,
    }

    impl Engine {
        fn new(answer: fn(&str) -> String) -> Engine {
            Engine { answer, calls: RefCell::new(Vec::new()) }
        }
    }

    impl Rephraser for Engine {
        fn rephrase(
            &self,
            language: &'static Language,
            text: &str,
            change: Option<Change>,
        ) -> Result<String, ToolsError> {
            self.calls.borrow_mut().push((format!("{} {text}", language.lang()), change));
            if text == "fail" {
                return Err(ToolsError::Unavailable("connection refused".into()));
            }
            Ok((self.answer)(text))
        }
    }

    fn request(
        kind: Kind,
        texts: &[&str],
        target: Option<&str>,
        style: Option<&str>,
        tone: Option<&str>,
    ) -> WriteRequest {
        let raw = RawWriteRequest {
            text: Some(texts.iter().map(|text| text.to_string()).collect()),
            target_lang: target.map(str::to_owned),
            writing_style: style.map(str::to_owned),
            tone: tone.map(str::to_owned),
        };
        WriteRequest::parse(raw, kind).unwrap()
    }

    fn answer(improvements: &Improvements) -> Vec<(&str, &str, &str)> {
        improvements
            .improvements
            .iter()
            .map(|improvement| {
                (improvement.text.as_str(), improvement.detected_source_language, improvement.target_language)
            })
            .collect()
    }

    #[test]
    fn a_correction_detects_then_corrects_in_the_target_language() {
        let tools = Tools::default();
        let request = request(Kind::Correct, &["I saw teh cat.", "The end."], Some("EN"), None, None);
        let improved = improve(&request, &tools, None).unwrap();
        assert_eq!(answer(&improved), [("I saw the cat.", "en", "en-US"), ("The end.", "en", "en-US")]);
        assert_eq!(tools.calls(), ["detect 2", "correct en-US I saw teh cat. | The end."]);
        assert!(improved.improvements.iter().all(|improvement| improvement.outcome.rewriter == Rewriter::Corrector));
        assert_eq!(improved.not_honoured().count(), 0);
    }

    #[test]
    fn the_answer_has_the_documented_shape_and_no_more() {
        let tools = Tools::default();
        let improved = improve(&request(Kind::Correct, &["teh cat"], Some("en-GB"), None, None), &tools, None).unwrap();
        assert_eq!(
            serde_json::to_value(&improved).unwrap(),
            serde_json::json!({"improvements": [
                {"text": "the cat", "detected_source_language": "en", "target_language": "en-GB"}
            ]})
        );
    }

    #[test]
    fn a_rephrase_without_an_engine_corrects_then_applies_the_rules() {
        let tools = Tools::default();
        let request = request(Kind::Rephrase, &["We do not know teh answer."], Some("en"), Some("casual"), None);
        let improved = improve(&request, &tools, None).unwrap();
        assert_eq!(answer(&improved), [("We don't know the answer.", "en", "en-US")]);
        assert_eq!(improved.improvements[0].outcome, Outcome { rewriter: Rewriter::Rules, not_honoured: Vec::new() });
    }

    #[test]
    fn a_rephrase_with_the_default_style_and_no_engine_is_a_correction() {
        let tools = Tools::default();
        let improved = improve(&request(Kind::Rephrase, &["I do not know."], None, None, None), &tools, None).unwrap();
        assert_eq!(answer(&improved), [("I do not know.", "en", "en-US")]);
        assert_eq!(improved.improvements[0].outcome.rewriter, Rewriter::Corrector);
    }

    #[test]
    fn without_a_target_each_text_is_improved_in_its_own_language() {
        let tools = Tools::default();
        let texts = ["Das ist nich gut, nicht wahr?", "It is teh end.", "Não é muito bom.", "C'est le plan."];
        let request = request(Kind::Rephrase, &texts, None, Some("prefer_casual"), None);
        let improved = improve(&request, &tools, None).unwrap();
        assert_eq!(
            answer(&improved),
            [
                ("Das ist nicht gut, oder?", "de", "de"),
                ("It's the end.", "en", "en-US"),
                ("Não é muito bom.", "pt", "pt-PT"),
                ("C'est le plan.", "fr", "fr"),
            ]
        );
        // One correction per language, never a translation.
        assert_eq!(
            tools.calls(),
            [
                "detect 4",
                "correct de Das ist nich gut, nicht wahr?",
                "correct en-US It is teh end.",
                "correct pt-PT Não é muito bom.",
                "correct fr C'est le plan.",
            ]
        );
        let casual = Change::Style(Style::Casual);
        let notices: Vec<String> =
            improved.not_honoured().map(|(index, notice)| format!("{index}: {notice}")).collect();
        assert_eq!(
            notices,
            [
                "2: writing_style 'casual' is not available for Portuguese (European); the default was used",
                "3: writing_style 'casual' is not available for French; the default was used",
            ]
        );
        assert_eq!(
            improved.improvements[2].outcome.not_honoured,
            [NotHonoured::Unavailable { change: casual, language: language("pt-PT") }]
        );
    }

    #[test]
    fn texts_for_one_target_are_corrected_in_one_call() {
        let tools = Tools::default();
        let texts = ["It is teh end.", "Das ist gut.", "Teh end is near."];
        improve(&request(Kind::Correct, &texts, None, None, None), &tools, None).unwrap();
        assert_eq!(
            tools.calls(),
            ["detect 3", "correct en-US It is teh end. | Teh end is near.", "correct de Das ist gut."]
        );
    }

    #[test]
    fn without_a_target_a_plain_style_needs_the_texts_language_to_have_it() {
        let tools = Tools::default();
        let error =
            improve(&request(Kind::Rephrase, &["El plan es bueno."], None, Some("business"), None), &tools, None);
        assert_eq!(error, Err(WriteError::Request(RequestError::NoWritingStyle("Spanish"))));
        let tone =
            improve(&request(Kind::Rephrase, &["El plan es bueno."], None, None, Some("friendly")), &tools, None);
        assert_eq!(tone.unwrap_err().to_string(), "Language Spanish does not support setting a tone.");
    }

    #[test]
    fn without_a_target_a_text_must_be_in_a_detectable_write_language() {
        let tools = Tools::default();
        let dutch = improve(&request(Kind::Correct, &["Hi.", "Het is goed."], None, None, None), &tools, None);
        assert_eq!(
            dutch.unwrap_err().to_string(),
            "Text 2 is in Dutch, which text improvement does not support; set 'target_lang' to one of de, en, en-GB, \
             en-US, es, fr, it, ja, ko, pt, pt-BR, pt-PT, zh, zh-Hans to have it translated first."
        );
        let symbols = improve(&request(Kind::Correct, &["1 + 1 = 2"], None, None, None), &tools, None);
        assert_eq!(
            symbols.unwrap_err().to_string(),
            "The language of text 1 could not be detected; set 'target_lang' to name it."
        );
    }

    #[test]
    fn a_text_in_another_language_than_the_target_is_translated_first() {
        let tools = Tools::default();
        let request =
            request(Kind::Rephrase, &["Das ist teh Plan.", "Het is goed."], Some("en-GB"), Some("casual"), None);
        let improved = improve(&request, &tools, None).unwrap();
        assert_eq!(answer(&improved), [("That's the plan.", "de", "en-GB"), ("Het is goed. [en-GB]", "nl", "en-GB")]);
        assert_eq!(
            tools.calls(),
            [
                "detect 2",
                "translate de en-GB",
                "translate nl en-GB",
                "correct en-GB That is teh plan. | Het is goed. [en-GB]"
            ]
        );
    }

    #[test]
    fn with_a_target_an_undetectable_text_is_taken_to_be_in_it() {
        let tools = Tools::default();
        let improved = improve(&request(Kind::Correct, &["42"], Some("de"), None, None), &tools, None).unwrap();
        assert_eq!(answer(&improved), [("42", "de", "de")]);
        assert_eq!(tools.calls(), ["detect 1", "correct de 42"]);
    }

    #[test]
    fn blank_texts_go_through_untouched() {
        let tools = Tools::default();
        let request = request(Kind::Rephrase, &["", "It is teh end.", "  "], Some("en"), Some("business"), None);
        let improved = improve(&request, &tools, None).unwrap();
        assert_eq!(answer(&improved), [("", "en", "en-US"), ("It is the end.", "en", "en-US"), ("  ", "en", "en-US")]);
        assert_eq!(tools.calls(), ["detect 3", "correct en-US It is teh end."]);
    }

    #[test]
    fn the_engine_rephrases_when_there_is_one() {
        let tools = Tools::default();
        let engine = Engine::new(|text| text.replace("I do not", "I really don't"));
        let request = request(Kind::Rephrase, &["I do not see teh point."], Some("en-GB"), None, Some("diplomatic"));
        let improved = improve(&request, &tools, Some(&engine)).unwrap();
        assert_eq!(answer(&improved), [("I really don't see the point.", "en", "en-GB")]);
        assert_eq!(improved.improvements[0].outcome, Outcome { rewriter: Rewriter::Engine, not_honoured: Vec::new() });
        assert_eq!(
            engine.calls.borrow().clone(),
            [("en-GB I do not see the point.".to_owned(), Some(Change::Tone(Tone::Diplomatic)))]
        );
        // The engine's output was checked for its language.
        assert_eq!(tools.calls(), ["detect 1", "correct en-GB I do not see teh point.", "detect 1"]);
    }

    #[test]
    fn the_engine_rephrases_without_a_change_when_a_preferred_one_is_unavailable() {
        let tools = Tools::default();
        let engine = Engine::new(|text| text.replace("bueno", "muy bueno"));
        let request = request(Kind::Rephrase, &["El plan es bueno."], Some("es"), None, Some("prefer_friendly"));
        let improved = improve(&request, &tools, Some(&engine)).unwrap();
        assert_eq!(answer(&improved), [("El plan es muy bueno.", "es", "es")]);
        assert_eq!(engine.calls.borrow()[0].1, None);
        assert_eq!(
            improved.improvements[0].outcome.not_honoured,
            [NotHonoured::Unavailable { change: Change::Tone(Tone::Friendly), language: language("es") }]
        );
    }

    #[test]
    fn an_engine_output_out_of_proportion_or_empty_or_in_another_language_falls_back_to_the_correction() {
        type Answer = fn(&str) -> String;
        let cases: [(Answer, Rejection); 4] = [
            (|text| text.repeat(3), Rejection::Length { input: 20, output: 60 }),
            (|_| "Short.".into(), Rejection::Length { input: 20, output: 6 }),
            (|_| "   ".into(), Rejection::Empty),
            (|_| "C'est le bon plan.".into(), Rejection::Language { expected: language("en"), found: language("fr") }),
        ];
        for (answer_with, rejection) in cases {
            let tools = Tools::default();
            let engine = Engine::new(answer_with);
            let request = request(Kind::Rephrase, &["This is teh plan, ok"], Some("en"), Some("business"), None);
            let improved = improve(&request, &tools, Some(&engine)).unwrap();
            assert_eq!(answer(&improved), [("This is the plan, ok", "en", "en-US")]);
            let change = Some(Change::Style(Style::Business));
            assert_eq!(
                improved.improvements[0].outcome,
                Outcome {
                    rewriter: Rewriter::Corrector,
                    not_honoured: vec![NotHonoured::EngineRejected { change, rejection }]
                }
            );
        }
    }

    #[test]
    fn the_output_check_allows_half_to_twice_the_length_and_a_little_more_for_short_texts() {
        assert_eq!(check_output("abcd", "ab"), Ok(()));
        assert_eq!(check_output("abcd", "a"), Err(Rejection::Length { input: 4, output: 1 }));
        assert_eq!(check_output("Hi", "Hello there!"), Ok(()));
        assert!(check_output("Hi", "Hello there, my friend").is_err());
        assert_eq!(check_output(&"x".repeat(100), &"y".repeat(210)), Ok(()));
        assert_eq!(
            check_output(&"x".repeat(100), &"y".repeat(211)),
            Err(Rejection::Length { input: 100, output: 211 })
        );
        assert_eq!(check_output("Hi", ""), Err(Rejection::Empty));
        assert_eq!(
            NotHonoured::EngineRejected { change: None, rejection: Rejection::Length { input: 4, output: 1 } }
                .to_string(),
            "the rephrasing was not used (it had 1 characters for a text of 4); the corrected text was returned"
        );
    }

    #[test]
    fn a_language_without_rules_is_reported_not_silently_skipped() {
        let tools = Tools::default();
        let spanish = language("es");
        let change = Change::Style(Style::Business);
        let plans = [Plan { source: spanish, target: spanish, resolved: Resolved::Apply(change), blank: false }];
        let mut texts = vec!["El plan es bueno.".to_owned()];
        let outcomes = rephrase(&tools, None, &mut texts, &plans).unwrap();
        assert_eq!(texts, ["El plan es bueno."]);
        let notice = &outcomes[0].not_honoured[0];
        assert!(matches!(notice, NotHonoured::NoRules { change: c, .. } if *c == change));
        assert!(notice.to_string().starts_with("writing_style 'business' was not applied: "), "{notice}");
    }

    #[test]
    fn tool_failures_are_typed_for_their_answers() {
        let request = request(Kind::Correct, &["Hello."], Some("en"), None, None);
        let down = ToolsError::Unavailable("connection refused".into());
        assert_eq!(improve(&request, &Tools::failing(down.clone()), None), Err(WriteError::ToolsUnavailable(down)));
        let unset = ToolsError::NotConfigured("language_tools_secret is not set".into());
        assert_eq!(improve(&request, &Tools::failing(unset.clone()), None), Err(WriteError::ToolsUnavailable(unset)));
        let short = Tools { short_answers: true, ..Tools::default() };
        assert!(matches!(improve(&request, &short, None), Err(WriteError::Internal(_))));
        let refused = improve(&request_to("nl"), &Tools::default(), None);
        assert_eq!(
            refused,
            Err(WriteError::Refused("The translation engine does not translate from EN to NL.".into()))
        );
        let engine = Engine::new(str::to_owned);
        let failing = request_with_text("fail");
        assert!(matches!(
            improve(&failing, &Tools::default(), Some(&engine)),
            Err(WriteError::ToolsUnavailable(ToolsError::Unavailable(_)))
        ));
    }

    #[test]
    fn a_target_the_corrector_does_not_cover_is_refused_before_any_translation() {
        let tools = Tools { uncorrected: vec!["ja", "ko", "zh"], ..Tools::default() };
        let refused = improve(&request(Kind::Correct, &["Das ist teh Plan."], Some("ja"), None, None), &tools, None);
        let expected = "Value for 'target_lang' not supported: text improvement in Japanese is not available on this \
                        deployment (it improves de, en, en-GB, en-US, es, fr, it, pt, pt-BR, pt-PT).";
        assert_eq!(refused.map_err(|error| error.to_string()), Err(expected.to_owned()));
        assert_eq!(tools.calls(), ["detect 1"], "nothing translated or corrected");

        let tools = Tools { uncorrected: vec!["pt"], ..Tools::default() };
        let texts = ["It is teh end.", "Não é muito bom."];
        let refused = improve(&request(Kind::Rephrase, &texts, None, None, None), &tools, None).unwrap_err();
        assert!(
            refused.to_string().starts_with("Text 2 is in Portuguese, which this deployment cannot improve; set "),
            "{refused}"
        );
        let blank = improve(&request(Kind::Correct, &["   "], Some("pt-BR"), None, None), &tools, None).unwrap();
        assert_eq!(answer(&blank), [("   ", "pt", "pt-BR")], "a blank text needs no corrector");
    }

    /// A request for "Hello." into `target`, which no write request can name: the translation
    /// case with a refusing engine.
    fn request_to(target: &str) -> WriteRequest {
        WriteRequest {
            kind: Kind::Correct,
            texts: vec!["Hello.".into()],
            target: Some(language(target)),
            requested: None,
        }
    }

    fn request_with_text(text: &str) -> WriteRequest {
        request(Kind::Rephrase, &[text], Some("en"), None, None)
    }

    #[test]
    fn every_character_of_every_text_is_billed_as_a_code_point() {
        let request = request(Kind::Correct, &["Δ深あ😀", "", "ab"], Some("en"), None, None);
        assert_eq!(billed_characters(&request), 6);
    }
}
