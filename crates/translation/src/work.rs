//! The translation itself: source languages, units, engine calls, reassembly.

use std::collections::{BTreeMap, BTreeSet};

use catalogue::Language;
use engines::{DetectLanguage, Engine, EngineError, EngineRequest};
use markup::{Markup, MarkupError, RenderError, TextPiece, UnitResult};
use terms::{GlossaryMatcher, Segment};

use platform::Id;
use stylebook::{Rewriter, StyleRules};

use crate::request::{Formality, TranslateRequest};
use crate::sources::{MemorySource, SourceError, Sources, Term, TermSource, check_named};

/// One translated text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    /// The source language (given or detected), as the answer names it: `EN`, `DE`, ...
    pub detected_source_language: &'static str,
    pub text: String,
    /// What this text costs: its code points, or 0 for unbilled (beta) targets.
    pub billed_characters: i64,
}

/// Every text of a request, translated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translations {
    pub items: Vec<Translation>,
    /// What the request asked that only an engine following instructions honours, as the
    /// `X-Service-Rules-Not-Applied` header names it: each style rule Glossa does not apply
    /// itself (`style_and_tone.formality`), and `custom_instructions` (the request's or the
    /// list's); only for texts an engine translated. Empty when there was none.
    pub instructed: Vec<String>,
}

impl Translations {
    /// What the whole request costs.
    pub fn billed_characters(&self) -> i64 {
        self.items.iter().map(|item| item.billed_characters).sum()
    }
}

/// Why a request could not be translated.
#[derive(Debug, thiserror::Error)]
pub enum TranslateError {
    /// The engine failed, or does not translate the pair (checked before any engine call).
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Markup(#[from] MarkupError),
    #[error("the translated units did not fit the markup: {0}")]
    Render(#[from] RenderError),
    /// A store behind the request's glossaries, style rules or translation memory failed.
    #[error("reading what the request names failed: {0}")]
    Source(SourceError),
    #[error("Style rule list {0} not found.")]
    StyleNotFound(Id),
    #[error("Style rule list is for '{list}'; it cannot apply to the target language '{target}'.")]
    StyleLanguage { list: &'static str, target: &'static str },
    #[error("Translation memory {0} not found.")]
    MemoryNotFound(Id),
    #[error("Translation Memory {id} does not support the target language {target}")]
    MemoryTarget { id: Id, target: &'static str },
}

/// The language of a text that has no letters, where detection cannot tell: English.
fn fallback_source() -> &'static Language {
    catalogue::find("en").expect("the catalogue has English")
}

/// Translates every text of `request` with `engine`, after checking what it names by id in
/// `sources` ([`check_named`]), with the glossary entries `sources.terms` has for its texts (see
/// [`TermSource`]).
///
/// Every occurrence of a glossary source term comes out as its target term, whatever the
/// engine: the engine gets the matching entries (and applies them its own way), and each unit
/// whose translation lacks one of its terms is translated again piece by piece, the text
/// between the terms by the engine and the terms as the glossary defines them.
///
/// With a translation memory, each unit the memory holds (the same text after normalisation)
/// comes out as the memory's target, verbatim, and is not sent to the engine; closer matches
/// than the threshold go to the engine as examples. With a style rule list, the rules Glossa
/// applies itself rewrite every unit the engine translated (a rewrite that would lose a
/// glossary term is not made); the others, and the custom instructions, go to the engine as
/// instructions.
pub fn translate(
    request: &TranslateRequest,
    engine: &dyn Engine,
    sources: &Sources<'_>,
    detector: &dyn DetectLanguage,
) -> Result<Translations, TranslateError> {
    let named = check_named(request, sources)?;
    let style = Style::of(named.style.as_ref(), request);
    let target = request.target;
    let languages: Vec<&'static Language> = match request.source {
        Some(source) => vec![source; request.texts.len()],
        None => detect(request, detector)?,
    };

    let mut checked = BTreeSet::new();
    for &source in &languages {
        if source.base_code() != target.base_code() && checked.insert(source.base_code()) {
            engine.check_pair(source.base(), target)?;
        }
    }

    // One engine call per source language, for all of its texts' units.
    let mut by_source: BTreeMap<&'static str, (&'static Language, Vec<usize>)> = BTreeMap::new();
    for (index, source) in languages.iter().enumerate() {
        by_source.entry(source.base_code()).or_insert((source.base(), Vec::new())).1.push(index);
    }
    let mut texts: Vec<Option<String>> = vec![None; request.texts.len()];
    let mut instructed: Vec<String> = Vec::new();
    for (source, indexes) in by_source.into_values() {
        let group: Vec<&str> = indexes.iter().map(|&index| request.texts[index].as_str()).collect();
        let translated = if source.base_code() == target.base_code() {
            group.iter().map(|text| (*text).to_owned()).collect()
        } else {
            let call = Call {
                request,
                engine,
                source,
                instructions: style.instructions(source),
                examples: Vec::new(),
                rewriter: style.rewriter.as_ref(),
            };
            for name in style.instructed(source) {
                if !instructed.contains(&name) {
                    instructed.push(name);
                }
            }
            let memory = named.memory.map(|id| (sources.memories, id));
            translate_group(call, sources.terms, memory, &group)?
        };
        for (index, text) in indexes.into_iter().zip(translated) {
            texts[index] = Some(text);
        }
    }

    let items = texts
        .into_iter()
        .zip(&languages)
        .zip(&request.texts)
        .map(|((text, source), original)| Translation {
            detected_source_language: source.base().code(),
            text: text.expect("every text belongs to one group"),
            billed_characters: if target.is_billed() { original.chars().count() as i64 } else { 0 },
        })
        .collect();
    Ok(Translations { items, instructed })
}

/// What a style rule list and the request's `custom_instructions` ask of a translation.
struct Style<'a> {
    /// The list's mechanical rules, for the list's language.
    rewriter: Option<Rewriter>,
    /// The list's other rules, as instructions, each with its name (`category.rule`).
    rules: Vec<(String, String)>,
    list: Option<&'a StyleRules>,
    request: &'a TranslateRequest,
}

impl<'a> Style<'a> {
    fn of(list: Option<&'a StyleRules>, request: &'a TranslateRequest) -> Style<'a> {
        let rewriter = list
            .map(|list| Rewriter::new(&list.rules, list.language.base_code()))
            .filter(|rewriter| !rewriter.is_empty());
        let rules = list
            .map(|list| {
                list.rules
                    .not_mechanical_in(list.language.base_code())
                    .into_iter()
                    .map(|(category, rule, option)| {
                        (format!("{category}.{rule}"), stylebook::instruction(category, rule, option))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Style { rewriter, rules, list, request }
    }

    /// The list's instructions for texts in `source` (those for every source, and those for
    /// it).
    fn list_instructions(&self, source: &'static Language) -> impl Iterator<Item = &'a str> + '_ {
        self.list.into_iter().flat_map(move |list| {
            list.instructions
                .iter()
                .filter(move |instruction| {
                    instruction.source_language.is_none_or(|language| language.base_code() == source.base_code())
                })
                .map(|instruction| instruction.prompt.as_str())
        })
    }

    /// Every instruction for texts in `source`: the list's rules, the list's instructions, the
    /// request's.
    fn instructions(&self, source: &'static Language) -> Vec<String> {
        let rules = self.rules.iter().map(|(_, instruction)| instruction.clone());
        let custom = self.list_instructions(source).chain(self.request.custom_instructions.iter().map(String::as_str));
        rules.chain(custom.map(str::to_owned)).collect()
    }

    /// The names of what [`Style::instructions`] asks, for the header naming what an engine did
    /// not honour.
    fn instructed(&self, source: &'static Language) -> Vec<String> {
        let mut names: Vec<String> = self.rules.iter().map(|(name, _)| name.clone()).collect();
        if self.list_instructions(source).next().is_some() || !self.request.custom_instructions.is_empty() {
            names.push("custom_instructions".to_owned());
        }
        names
    }
}

/// How one group of units (one source language) is translated.
struct Call<'a> {
    request: &'a TranslateRequest,
    engine: &'a dyn Engine,
    source: &'static Language,
    instructions: Vec<String>,
    /// A translation memory's close matches for the group's units.
    examples: Vec<(String, String)>,
    rewriter: Option<&'a Rewriter>,
}

/// The language of each text, detected from its text content only: with tag handling, from the
/// units `markup` cuts it into, so that tags, attributes, and what is never translated (HTML
/// `script` and `style`, `ignore_tags`) say nothing of its language. One call of the detector
/// for all of them.
fn detect(request: &TranslateRequest, detector: &dyn DetectLanguage) -> Result<Vec<&'static Language>, TranslateError> {
    let contents = request
        .texts
        .iter()
        .map(|text| match &request.tags {
            Some(options) => Ok(Markup::parse(text, options, request.split_sentences)?
                .units()
                .iter()
                .map(|unit| unit.text())
                .collect::<Vec<_>>()
                .join("\n")),
            None => Ok(text.clone()),
        })
        .collect::<Result<Vec<String>, TranslateError>>()?;
    Ok(detector
        .detect_each(&contents)
        .into_iter()
        .map(|detection| detection.language.map(Language::base).unwrap_or_else(fallback_source))
        .collect())
}

/// How the texts of one source language are cut, for putting them back together.
enum Shape<'t> {
    Plain(Vec<TextPiece<'t>>),
    Tagged(Markup),
}

fn translate_group(
    mut call: Call<'_>,
    glossary: &dyn TermSource,
    memory: Option<(&dyn MemorySource, Id)>,
    texts: &[&str],
) -> Result<Vec<String>, TranslateError> {
    let request = call.request;
    let shapes: Vec<Shape<'_>> = texts
        .iter()
        .map(|text| match &request.tags {
            Some(options) => Markup::parse(text, options, request.split_sentences).map(Shape::Tagged),
            None => Ok(Shape::Plain(markup::split_sentences(text, request.split_sentences))),
        })
        .collect::<Result<_, _>>()?;

    let mut units: Vec<String> = Vec::new();
    for shape in &shapes {
        match shape {
            Shape::Plain(pieces) => units.extend(pieces.iter().filter_map(|piece| match piece {
                TextPiece::Unit(unit) => Some((*unit).to_owned()),
                TextPiece::Separator(_) => None,
            })),
            Shape::Tagged(markup) => units.extend(markup.units().iter().map(|unit| unit.text().to_owned())),
        }
    }
    let glossary = if request.glossary_ids.is_empty() {
        Vec::new()
    } else {
        let keys: BTreeSet<String> = units.iter().flat_map(|unit| terms::text_keys(unit)).collect();
        glossary.terms_for(&keys).map_err(TranslateError::Source)?
    };
    let matcher = GlossaryMatcher::new(&glossary);

    // Units the memory holds come out as its targets, verbatim; the engine gets the others, with
    // the closer matches as examples (used by engines that follow instructions).
    let mut remembered: Vec<Option<String>> = vec![None; units.len()];
    if let Some((memories, id)) = memory {
        let fuzzy = call.engine.capabilities().custom_instructions;
        let threshold = request.translation_memory_threshold;
        let matches = memories.lookup(&id, request.target, &units, threshold, fuzzy).map_err(TranslateError::Source)?;
        for (slot, found) in remembered.iter_mut().zip(matches) {
            match found {
                Some(found) if found.score >= 100 => *slot = Some(found.target),
                Some(found) => {
                    let example = (found.source, found.target);
                    if !call.examples.contains(&example) {
                        call.examples.push(example);
                    }
                }
                None => {}
            }
        }
    }
    let wanted: Vec<String> =
        units.iter().zip(&remembered).filter(|(_, found)| found.is_none()).map(|(unit, _)| unit.clone()).collect();
    let mut fresh = translate_units(&call, &wanted, &glossary, &matcher)?.into_iter();
    // Each unit's translation, and whether it is the memory's (used as it is).
    let mut translated = remembered
        .into_iter()
        .map(|found| match found {
            Some(target) => (target, true),
            None => (fresh.next().unwrap_or_default(), false),
        })
        .collect::<Vec<_>>()
        .into_iter();

    // Units whose translation lost or duplicated a placeholder are translated again, piece by
    // piece (the text runs between their tags), so the markup always comes back intact.
    let mut results: Vec<Vec<UnitResult>> = Vec::with_capacity(shapes.len());
    let mut fallback_pieces: Vec<String> = Vec::new();
    let mut plain: Vec<Vec<String>> = Vec::with_capacity(shapes.len());
    for shape in &shapes {
        match shape {
            Shape::Plain(pieces) => {
                let mut out = Vec::new();
                for piece in pieces {
                    if let TextPiece::Unit(unit) = piece {
                        let (translation, remembered) = translated.next().unwrap_or_default();
                        out.push(if remembered { translation } else { formatted(&call, &matcher, unit, &translation) });
                    }
                }
                plain.push(out);
                results.push(Vec::new());
            }
            Shape::Tagged(markup) => {
                let mut unit_results = Vec::new();
                for unit in markup.units() {
                    let (translation, remembered) = translated.next().unwrap_or_default();
                    let translation =
                        if remembered { translation } else { formatted(&call, &matcher, unit.text(), &translation) };
                    if unit.accepts(&translation) {
                        unit_results.push(UnitResult::Translated(translation));
                    } else {
                        fallback_pieces.extend(unit.pieces().iter().cloned());
                        unit_results.push(UnitResult::Pieces(Vec::new()));
                    }
                }
                results.push(unit_results);
                plain.push(Vec::new());
            }
        }
    }
    let mut fallback = if fallback_pieces.is_empty() {
        Vec::new().into_iter()
    } else {
        translate_units(&call, &fallback_pieces, &glossary, &matcher)?.into_iter()
    };

    let mut out = Vec::with_capacity(shapes.len());
    for ((shape, mut unit_results), translated_units) in shapes.iter().zip(results).zip(plain) {
        match shape {
            Shape::Plain(pieces) => {
                let mut translated_units = translated_units.into_iter();
                let mut text = String::new();
                for piece in pieces {
                    match piece {
                        TextPiece::Unit(_) => text.push_str(&translated_units.next().unwrap_or_default()),
                        TextPiece::Separator(separator) => text.push_str(separator),
                    }
                }
                out.push(text);
            }
            Shape::Tagged(markup) => {
                for (unit, result) in markup.units().iter().zip(unit_results.iter_mut()) {
                    if let UnitResult::Pieces(pieces) = result {
                        *pieces = unit
                            .pieces()
                            .iter()
                            .map(|piece| {
                                let translation = fallback.next().unwrap_or_default();
                                formatted(&call, &matcher, piece, &translation)
                            })
                            .collect();
                    }
                }
                out.push(markup.render(&unit_results)?);
            }
        }
    }
    Ok(out)
}

/// Translates units with the glossary, then checks that every unit's translation has each of
/// its terms; a unit that lacks one is put together from its pieces instead: the text between
/// its terms and placeholders translated without the glossary, the terms as the glossary says.
fn translate_units(
    call: &Call<'_>,
    units: &[String],
    glossary: &[Term],
    matcher: &GlossaryMatcher<'_>,
) -> Result<Vec<String>, TranslateError> {
    let mut translated = call_engine(call, units, glossary)?;
    if matcher.is_empty() {
        return Ok(translated);
    }
    let failing: Vec<(usize, Vec<Segment<'_>>)> = units
        .iter()
        .zip(&translated)
        .enumerate()
        .filter(|(_, (unit, output))| !terms::contains_terms(output, &matcher.expected_terms(unit)))
        .map(|(index, (unit, _))| (index, matcher.segments(unit)))
        .collect();
    if failing.is_empty() {
        return Ok(translated);
    }
    // The plain runs of every failing unit, without their outer whitespace, in one engine call.
    let runs: Vec<String> = failing
        .iter()
        .flat_map(|(_, segments)| segments.iter())
        .filter_map(|segment| match segment {
            Segment::Plain(text) if !text.trim().is_empty() => Some(text.trim().to_owned()),
            _ => None,
        })
        .collect();
    let mut runs = call_engine(call, &runs, &[])?.into_iter();
    for (index, segments) in failing {
        let mut rebuilt = String::with_capacity(units[index].len() + 16);
        for segment in segments {
            match segment {
                Segment::Plain(text) if text.trim().is_empty() => rebuilt.push_str(text),
                Segment::Plain(text) => {
                    let body = text.trim();
                    let start = text.len() - text.trim_start().len();
                    rebuilt.push_str(&text[..start]);
                    rebuilt.push_str(runs.next().as_deref().unwrap_or(body));
                    rebuilt.push_str(&text[start + body.len()..]);
                }
                Segment::Placeholder(placeholder) => rebuilt.push_str(placeholder),
                Segment::Term { entry, capitalised } => rebuilt.push_str(&matcher.target(entry, capitalised)),
            }
        }
        translated[index] = rebuilt;
    }
    Ok(translated)
}

/// The engine's translation of `unit` as it is answered: with `preserve_formatting` applied
/// ([`preserve_formatting`]), then the style rule list's mechanical rules, unless rewriting would
/// lose a glossary term the translation has.
fn formatted(call: &Call<'_>, matcher: &GlossaryMatcher<'_>, unit: &str, translation: &str) -> String {
    let out = preserve_formatting(call.request, matcher, unit, translation);
    let Some(rewriter) = call.rewriter else { return out };
    let rewritten = rewriter.apply(&out);
    if matcher.is_empty() || rewritten == out {
        return rewritten;
    }
    let expected = matcher.expected_terms(unit);
    if terms::contains_terms(&rewritten, &expected) || !terms::contains_terms(&out, &expected) {
        rewritten
    } else {
        out
    }
}

/// The translation of `unit` with `preserve_formatting` applied, except that a glossary term
/// starting the unit keeps the case its glossary gives it (formatting would copy the case of
/// the source's first letter onto it).
fn preserve_formatting(
    request: &TranslateRequest,
    matcher: &GlossaryMatcher<'_>,
    unit: &str,
    translation: &str,
) -> String {
    let out = markup::preserve_formatting(unit, translation, request.preserve_formatting);
    if !request.preserve_formatting || matcher.is_empty() {
        return out;
    }
    let starts_with_term = matcher
        .segments(unit)
        .iter()
        .find(|segment| !matches!(segment, Segment::Plain(text) if text.trim().is_empty()))
        .is_some_and(|segment| matches!(segment, Segment::Term { .. }));
    let first_letter = |text: &str| text.char_indices().find(|(_, c)| c.is_alphabetic());
    match (starts_with_term, first_letter(&out), first_letter(translation)) {
        (true, Some((at, changed)), Some((_, defined)))
            if changed != defined && changed.to_lowercase().eq(defined.to_lowercase()) =>
        {
            format!("{}{defined}{}", &out[..at], &out[at + changed.len_utf8()..])
        }
        _ => out,
    }
}

fn call_engine(call: &Call<'_>, units: &[String], glossary: &[Term]) -> Result<Vec<String>, TranslateError> {
    let (request, engine) = (call.request, call.engine);
    if units.is_empty() {
        return Ok(Vec::new());
    }
    // `more`/`less` were refused for targets without formality; `prefer_*` falls back silently.
    let formality = if request.target.supports_formality() { request.formality } else { Formality::Default };
    let engine_request = EngineRequest {
        source: call.source,
        target: request.target,
        texts: units,
        formality,
        context: request.context.as_deref(),
        custom_instructions: &call.instructions,
        glossary,
        examples: &call.examples,
    };
    let translated = engine.translate(&engine_request)?;
    if translated.len() != units.len() {
        return Err(TranslateError::Engine(EngineError::Invalid(format!(
            "{} answered {} translations for {} texts",
            engine.name(),
            translated.len(),
            units.len()
        ))));
    }
    Ok(translated)
}

#[cfg(test)]
mod tests {
    use engines::{Capabilities, Coverage, DeterministicEngine};

    use super::*;
    use crate::sources::NoGlossary;
    use crate::test_support::request;

    fn translate(request: &TranslateRequest, engine: &dyn Engine) -> Result<Translations, TranslateError> {
        super::translate(request, engine, &Sources::with_terms(&NoGlossary), &engines::Builtin)
    }

    /// A glossary in memory that answers, like the store, only the entries whose first key was
    /// asked for, and remembers the keys.
    struct Glossary {
        entries: Vec<Term>,
        asked: std::cell::RefCell<BTreeSet<String>>,
    }

    impl Glossary {
        fn new(entries: &[(&str, &str)]) -> Glossary {
            Glossary {
                entries: entries.iter().map(|(s, t)| (s.to_string(), t.to_string())).collect(),
                asked: Default::default(),
            }
        }
    }

    impl TermSource for Glossary {
        fn terms_for(&self, keys: &BTreeSet<String>) -> Result<Vec<Term>, SourceError> {
            self.asked.borrow_mut().extend(keys.iter().cloned());
            Ok(self.entries.iter().filter(|(source, _)| keys.contains(&terms::first_key(source))).cloned().collect())
        }
    }

    const WITH_GLOSSARY: &str = r#""source_lang": "EN", "glossary_id": "def3a26b-3e84-45b3-84ae-0c0aaf3525f7""#;

    fn with_glossary(
        engine: &dyn Engine,
        json_texts: &str,
        target: &str,
        extra: &str,
        glossary: &Glossary,
    ) -> Vec<String> {
        let json = format!(r#"{{"text": {json_texts}, "target_lang": "{target}", {WITH_GLOSSARY}{extra}}}"#);
        let result =
            super::translate(&request(&json), engine, &Sources::with_terms(glossary), &engines::Builtin).unwrap();
        result.items.into_iter().map(|item| item.text).collect()
    }

    #[test]
    fn glossary_terms_come_out_as_defined_even_when_the_engine_ignores_them() {
        let glossary = Glossary::new(&[("house", "casa"), ("red house", "casa roja"), ("car", "coche")]);
        // PairsOnly upper-cases everything and knows nothing of glossaries.
        let out = with_glossary(
            &PairsOnly,
            r#"["The red house and the house. A car!", "No terms here."]"#,
            "ES",
            "",
            &glossary,
        );
        assert_eq!(out[0], "THE casa roja AND THE casa. A coche!");
        assert_eq!(out[1], "NO TERMS HERE.");
        assert!(glossary.asked.borrow().contains("red") && glossary.asked.borrow().contains("car"));
        assert!(!glossary.asked.borrow().contains("<"), "keys are words");
    }

    #[test]
    fn glossary_terms_survive_markup_and_sentence_splitting_settings() {
        let glossary = Glossary::new(&[("house", "casa")]);
        for extra in [r#", "tag_handling": "xml""#, r#", "tag_handling": "html""#] {
            let out =
                with_glossary(&PairsOnly, r#"["<p>The <b>house</b> is big. My house!</p>"]"#, "ES", extra, &glossary);
            assert_eq!(out[0], "<p>THE <b>casa</b> IS BIG. MY casa!</p>", "{extra}");
        }
        for split in ["0", "1", "nonewlines"] {
            let extra = format!(r#", "split_sentences": "{split}""#);
            let out = with_glossary(&PairsOnly, r#"["One house.\nTwo houses. House!"]"#, "ES", &extra, &glossary);
            assert_eq!(out[0], "ONE casa.\nTWO HOUSES. Casa!", "split_sentences={split}");
        }
    }

    #[test]
    fn preserve_formatting_leaves_a_leading_term_as_defined() {
        let glossary = Glossary::new(&[("house", "Haus")]);
        let engine = DeterministicEngine::new();
        let extra = r#", "preserve_formatting": true"#;
        let out = with_glossary(&engine, r#"["house prices rise", "the house"]"#, "DE", extra, &glossary);
        assert!(out[0].starts_with("Haus "), "{}", out[0]);
        assert!(!out[1].starts_with('T') && out[1].ends_with(" Haus"), "{}", out[1]);
    }

    #[test]
    fn engines_that_apply_glossaries_need_no_second_pass() {
        let glossary = Glossary::new(&[("house", "Haus"), ("Glossa", "GLOSSA")]);
        let engine = DeterministicEngine::new();
        let out = with_glossary(&engine, r#"["Glossa builds a house."]"#, "DE", "", &glossary);
        assert!(out[0].contains("GLOSSA") && out[0].contains("Haus"), "{}", out[0]);
    }

    #[test]
    fn texts_are_translated_in_order_and_billed_by_code_points() {
        let engine = DeterministicEngine::new();
        let result = translate(
            &request(r#"{"text": ["Hello world.", "Καλημέρα"], "target_lang": "DE", "source_lang": "en"}"#),
            &engine,
        )
        .unwrap();
        assert_eq!(result.items.len(), 2);
        assert_ne!(result.items[0].text, "Hello world.");
        assert!(result.items[0].text.ends_with('.'));
        assert_eq!(result.items[0].detected_source_language, "EN");
        assert_eq!(result.items[1].billed_characters, 8);
        assert_eq!(result.billed_characters(), 20);
    }

    #[test]
    fn the_source_language_is_detected_per_text() {
        let engine = DeterministicEngine::new();
        let result = translate(
            &request(r#"{"text": ["Das ist ein schöner Tag, und wir gehen spazieren.", "This is a beautiful day and we go for a walk."], "target_lang": "FR"}"#),
            &engine,
        )
        .unwrap();
        assert_eq!(result.items[0].detected_source_language, "DE");
        assert_eq!(result.items[1].detected_source_language, "EN");
    }

    #[test]
    fn only_the_text_content_of_markup_is_detected() {
        let engine = DeterministicEngine::new();
        let english = "and the of the to the is the that the with the for the this the you the are the";
        let html = format!(
            "<html><head><style>/* {english} */ p {{ color: red }}</style><script>var s = '{english}';</script></head>\
             <body><p title=\"{english}\">Das Wetter ist heute schön und wir gehen im Park spazieren.</p></body></html>"
        );
        let body = serde_json::json!({"text": [html], "target_lang": "FR", "tag_handling": "html"});
        let result = translate(&request(&body.to_string()), &engine).unwrap();
        assert_eq!(result.items[0].detected_source_language, "DE", "neither script, style nor attributes count");
        let xml = format!(
            "<doc lang=\"{english}\"><note>{english}</note><p>Das Wetter ist heute schön und wir gehen spazieren.</p></doc>"
        );
        let body =
            serde_json::json!({"text": [xml], "target_lang": "FR", "tag_handling": "xml", "ignore_tags": ["note"]});
        let result = translate(&request(&body.to_string()), &engine).unwrap();
        assert_eq!(result.items[0].detected_source_language, "DE", "neither attributes nor ignored elements count");
        let plain = serde_json::json!({"text": ["<p>Das Wetter ist heute schön.</p>"], "target_lang": "FR"});
        assert_eq!(translate(&request(&plain.to_string()), &engine).unwrap().items[0].detected_source_language, "DE");
    }

    #[test]
    fn beta_targets_are_not_billed_and_same_language_texts_come_back_unchanged() {
        let engine = DeterministicEngine::new();
        let beta = translate(&request(r#"{"text": ["Hello"], "target_lang": "DE-CH", "source_lang": "EN"}"#), &engine)
            .unwrap();
        assert_eq!(beta.billed_characters(), 0);
        let same = translate(&request(r#"{"text": ["Colour"], "target_lang": "EN-US", "source_lang": "EN"}"#), &engine)
            .unwrap();
        assert_eq!(same.items[0].text, "Colour");
        assert_eq!(same.billed_characters(), 6);
    }

    #[test]
    fn markup_survives_and_ignored_content_is_untouched() {
        let engine = DeterministicEngine::new();
        let result = translate(
            &request(
                r#"{"text": ["<p>Hello <b>world</b>! <code>let x = 1;</code></p>"], "target_lang": "DE", "source_lang": "EN",
                    "tag_handling": "xml", "ignore_tags": ["code"]}"#,
            ),
            &engine,
        )
        .unwrap();
        let text = &result.items[0].text;
        assert!(text.starts_with("<p>") && text.ends_with("</p>"), "{text}");
        assert!(text.contains("<b>") && text.contains("</b>"), "{text}");
        assert!(text.contains("<code>let x = 1;</code>"), "{text}");
        assert!(!text.contains("Hello"), "{text}");
    }

    #[test]
    fn malformed_xml_is_the_clients_mistake() {
        let engine = DeterministicEngine::new();
        let error = translate(
            &request(r#"{"text": ["<p>Hello"], "target_lang": "DE", "source_lang": "EN", "tag_handling": "xml", "tag_handling_version": "v2"}"#),
            &engine,
        )
        .unwrap_err();
        assert!(matches!(error, TranslateError::Markup(_)), "{error:?}");
    }

    struct PairsOnly;
    impl Engine for PairsOnly {
        fn coverage(&self) -> Result<Coverage, EngineError> {
            Ok(Coverage::pairs([("en", "es")]))
        }
        fn capabilities(&self) -> Capabilities {
            Capabilities { formality: false, context: false, custom_instructions: false, glossary: false }
        }
        fn translate(&self, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError> {
            Ok(request.texts.iter().map(|text| text.to_uppercase()).collect())
        }
        fn name(&self) -> &'static str {
            "pairs-only"
        }
    }

    #[test]
    fn a_pair_the_engine_lacks_is_a_400_naming_it() {
        let error = translate(&request(r#"{"text": ["Hello"], "target_lang": "DE", "source_lang": "EN"}"#), &PairsOnly)
            .unwrap_err();
        assert!(matches!(error, TranslateError::Engine(EngineError::UnsupportedPair { .. })), "{error:?}");
        assert_eq!(error.to_string(), "The translation engine does not translate from EN to DE.");
        let ok =
            translate(&request(r#"{"text": ["Hello. Bye."], "target_lang": "ES", "source_lang": "EN"}"#), &PairsOnly)
                .unwrap();
        assert_eq!(ok.items[0].text, "HELLO. BYE.");
    }

    struct Down;
    impl Engine for Down {
        fn coverage(&self) -> Result<Coverage, EngineError> {
            Ok(Coverage::All)
        }
        fn capabilities(&self) -> Capabilities {
            Capabilities { formality: false, context: false, custom_instructions: false, glossary: false }
        }
        fn translate(&self, _: &EngineRequest<'_>) -> Result<Vec<String>, EngineError> {
            Err(EngineError::Unavailable { engine: "down", reason: "connection refused".into() })
        }
        fn name(&self) -> &'static str {
            "down"
        }
    }

    #[test]
    fn an_unavailable_engine_fails_the_translation_with_its_cause() {
        let error =
            translate(&request(r#"{"text": ["Hello"], "target_lang": "DE", "source_lang": "EN"}"#), &Down).unwrap_err();
        assert!(matches!(error, TranslateError::Engine(EngineError::Unavailable { engine: "down", .. })), "{error:?}");
    }

    /// What one engine call was asked: its texts, instructions and examples.
    type Asked = (Vec<String>, Vec<String>, Vec<(String, String)>);

    /// An engine that covers every pair, answers each text unchanged and records what it was
    /// asked.
    #[derive(Default)]
    struct Recorder {
        follows_instructions: bool,
        calls: std::cell::RefCell<Vec<Asked>>,
    }

    impl Engine for Recorder {
        fn coverage(&self) -> Result<Coverage, EngineError> {
            Ok(Coverage::All)
        }
        fn capabilities(&self) -> Capabilities {
            let follows = self.follows_instructions;
            Capabilities { formality: false, context: false, custom_instructions: follows, glossary: false }
        }
        fn translate(&self, request: &EngineRequest<'_>) -> Result<Vec<String>, EngineError> {
            self.calls.borrow_mut().push((
                request.texts.to_vec(),
                request.custom_instructions.to_vec(),
                request.examples.to_vec(),
            ));
            Ok(request.texts.to_vec())
        }
        fn name(&self) -> &'static str {
            "recorder"
        }
    }

    const LIST: &str = "def3a26b-3e84-45b3-84ae-0c0aaf3525f7";

    /// One style rule list, for German, with these rules and instructions (prompt, source).
    struct List(serde_json::Value, Vec<(&'static str, Option<&'static str>)>);

    impl crate::sources::StyleSource for List {
        fn style_rules(&self, id: &Id) -> Result<Option<StyleRules>, SourceError> {
            Ok((id.to_string() == LIST).then(|| StyleRules {
                language: catalogue::find("de").unwrap(),
                rules: stylebook::ConfiguredRules::parse(&self.0).unwrap(),
                instructions: self
                    .1
                    .iter()
                    .map(|(prompt, source)| crate::sources::CustomInstruction {
                        prompt: (*prompt).to_owned(),
                        source_language: source.and_then(catalogue::find),
                    })
                    .collect(),
            }))
        }
    }

    fn with_list(engine: &dyn Engine, list: &List, terms: &dyn TermSource, json: &str) -> Translations {
        let sources = Sources { terms, styles: list, memories: &crate::sources::NoMemories };
        super::translate(&request(json), engine, &sources, &engines::Builtin).unwrap()
    }

    #[test]
    fn mechanical_rules_rewrite_what_the_engine_translated() {
        let list = List(
            serde_json::json!({"numbers": {"decimal_separator": "use_comma_as_decimal_separator"},
                               "punctuation": {"quotation_mark": "use_guillemets"}}),
            Vec::new(),
        );
        let engine = Recorder::default();
        let json = format!(
            r#"{{"text": ["It costs 3.5 euros.", "<p>He said \"yes\".</p>"], "source_lang": "EN", "target_lang": "DE",
                "tag_handling": "xml", "style_id": "{LIST}"}}"#
        );
        let result = with_list(&engine, &list, &NoGlossary, &json);
        assert_eq!(result.items[0].text, "It costs 3,5 euros.");
        assert_eq!(result.items[1].text, "<p>He said »yes«.</p>");
        assert!(result.instructed.is_empty(), "every rule was applied: {:?}", result.instructed);
        assert!(engine.calls.borrow()[0].1.is_empty(), "mechanical rules are not instructions");
    }

    #[test]
    fn the_other_rules_and_the_instructions_for_the_source_go_to_the_engine_and_are_named() {
        let list = List(
            serde_json::json!({"style_and_tone": {"formality": "use_formal_tone"}}),
            vec![
                ("Never translate Glossa.", None),
                ("Only for French texts.", Some("fr")),
                ("For English.", Some("en")),
            ],
        );
        let engine = Recorder { follows_instructions: true, ..Recorder::default() };
        let json = format!(
            r#"{{"text": ["Hello."], "source_lang": "EN", "target_lang": "DE-CH", "style_id": "{LIST}",
                "custom_instructions": ["Be brief."]}}"#
        );
        let result = with_list(&engine, &list, &NoGlossary, &json);
        assert_eq!(result.instructed, ["style_and_tone.formality", "custom_instructions"]);
        let instructions = engine.calls.borrow()[0].1.clone();
        assert_eq!(
            instructions,
            ["Style and tone, formality: use formal tone.", "Never translate Glossa.", "For English.", "Be brief."]
        );
        // Texts that need no translation ask nothing of the engine.
        let json = format!(r#"{{"text": ["Hallo."], "source_lang": "DE", "target_lang": "DE", "style_id": "{LIST}"}}"#);
        assert!(with_list(&engine, &list, &NoGlossary, &json).instructed.is_empty());
    }

    #[test]
    fn a_rewrite_that_would_lose_a_glossary_term_is_not_made() {
        let list = List(serde_json::json!({"punctuation": {"apostrophe": "use_curly_apostrophes"}}), Vec::new());
        let glossary = Glossary::new(&[("Glossa", "Glossa's")]);
        let json = format!(
            r#"{{"text": ["Glossa is here. It's late."], "source_lang": "EN", "target_lang": "DE", "style_id": "{LIST}",
                "glossary_id": "{LIST}", "split_sentences": "0"}}"#
        );
        let result = with_list(&Recorder::default(), &list, &glossary, &json);
        assert_eq!(result.items[0].text, "Glossa's is here. It's late.", "the term as the glossary defines it");
        let json =
            format!(r#"{{"text": ["It's late."], "source_lang": "EN", "target_lang": "DE", "style_id": "{LIST}"}}"#);
        assert_eq!(with_list(&Recorder::default(), &list, &glossary, &json).items[0].text, "It’s late.");
    }

    /// A memory for German holding one segment, matching as the store would: exact after
    /// lower-casing, or a close match with its score.
    struct OneSegment;

    impl MemorySource for OneSegment {
        fn memory(&self, _: &Id) -> Result<Option<crate::sources::Memory>, SourceError> {
            Ok(Some(crate::sources::Memory { targets: vec![catalogue::find("de").unwrap()] }))
        }
        fn lookup(
            &self,
            _: &Id,
            _: &'static Language,
            segments: &[String],
            threshold: u8,
            fuzzy: bool,
        ) -> Result<Vec<Option<crate::sources::MemoryMatch>>, SourceError> {
            let stored = ("Press the red button.", "Drücken Sie 2.5 Sekunden die rote Taste!");
            Ok(segments
                .iter()
                .map(|segment| {
                    let score = if segment.to_lowercase() == stored.0.to_lowercase() {
                        100
                    } else if segment.starts_with("Press the") {
                        80
                    } else {
                        0
                    };
                    (score == 100 || (fuzzy && score >= threshold)).then(|| crate::sources::MemoryMatch {
                        source: stored.0.to_owned(),
                        target: stored.1.to_owned(),
                        score,
                    })
                })
                .collect())
        }
    }

    #[test]
    fn a_unit_the_memory_holds_comes_back_verbatim_and_close_ones_are_examples() {
        let list =
            List(serde_json::json!({"numbers": {"decimal_separator": "use_comma_as_decimal_separator"}}), Vec::new());
        let engine = Recorder { follows_instructions: true, ..Recorder::default() };
        let sources = Sources { terms: &NoGlossary, styles: &list, memories: &OneSegment };
        let json = format!(
            r#"{{"text": ["PRESS the red button. Press the green button. Wait 2.5 s."], "source_lang": "EN",
                "target_lang": "DE", "style_id": "{LIST}", "translation_memory_id": "{LIST}",
                "translation_memory_threshold": 75}}"#
        );
        let result = super::translate(&request(&json), &engine, &sources, &engines::Builtin).unwrap();
        assert_eq!(
            result.items[0].text, "Drücken Sie 2.5 Sekunden die rote Taste! Press the green button. Wait 2,5 s.",
            "the memory's target verbatim, the rest with the list's rules"
        );
        assert_eq!(result.items[0].billed_characters, 57, "matched characters are billed as usual");
        let calls = engine.calls.borrow();
        assert_eq!(calls[0].0, ["Press the green button.", "Wait 2.5 s."], "the match is not translated again");
        let stored = ("Press the red button.".to_owned(), "Drücken Sie 2.5 Sekunden die rote Taste!".to_owned());
        assert_eq!(calls[0].2, [stored]);

        // Below the threshold, nothing is an example.
        let engine = Recorder { follows_instructions: true, ..Recorder::default() };
        let json = json.replace("75}", "90}");
        super::translate(&request(&json), &engine, &sources, &engines::Builtin).unwrap();
        assert!(engine.calls.borrow()[0].2.is_empty());
    }
}
