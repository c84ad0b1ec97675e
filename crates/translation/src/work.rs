//! The translation itself: source languages, units, engine calls, reassembly.

use std::collections::{BTreeMap, BTreeSet};

use catalogue::Language;
use engines::{DetectLanguage, Engine, EngineError, EngineRequest};
use markup::{Markup, MarkupError, RenderError, TextPiece, UnitResult};
use terms::{GlossaryMatcher, Segment};

use platform::Id;

use crate::request::{Formality, TranslateRequest};
use crate::sources::{SourceError, Sources, Term, TermSource, check_named};

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
pub fn translate(
    request: &TranslateRequest,
    engine: &dyn Engine,
    sources: &Sources<'_>,
    detector: &dyn DetectLanguage,
) -> Result<Translations, TranslateError> {
    check_named(request, sources)?;
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
    for (source, indexes) in by_source.into_values() {
        let group: Vec<&str> = indexes.iter().map(|&index| request.texts[index].as_str()).collect();
        let translated = if source.base_code() == target.base_code() {
            group.iter().map(|text| (*text).to_owned()).collect()
        } else {
            translate_group(request, engine, sources.terms, source, &group)?
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
    Ok(Translations { items })
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
    request: &TranslateRequest,
    engine: &dyn Engine,
    glossary: &dyn TermSource,
    source: &'static Language,
    texts: &[&str],
) -> Result<Vec<String>, TranslateError> {
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
    let translated = translate_units(request, engine, source, &units, &glossary, &matcher)?;
    let mut translated = translated.into_iter();

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
                        let translation = translated.next().unwrap_or_default();
                        out.push(formatted(request, &matcher, unit, &translation));
                    }
                }
                plain.push(out);
                results.push(Vec::new());
            }
            Shape::Tagged(markup) => {
                let mut unit_results = Vec::new();
                for unit in markup.units() {
                    let translation = translated.next().unwrap_or_default();
                    let translation = formatted(request, &matcher, unit.text(), &translation);
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
        translate_units(request, engine, source, &fallback_pieces, &glossary, &matcher)?.into_iter()
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
                                formatted(request, &matcher, piece, &translation)
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
    request: &TranslateRequest,
    engine: &dyn Engine,
    source: &'static Language,
    units: &[String],
    glossary: &[Term],
    matcher: &GlossaryMatcher<'_>,
) -> Result<Vec<String>, TranslateError> {
    let mut translated = call_engine(request, engine, source, units, glossary)?;
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
    let mut runs = call_engine(request, engine, source, &runs, &[])?.into_iter();
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

/// The translation of `unit` with `preserve_formatting` applied, except that a glossary term
/// starting the unit keeps the case its glossary gives it (formatting would copy the case of
/// the source's first letter onto it).
fn formatted(request: &TranslateRequest, matcher: &GlossaryMatcher<'_>, unit: &str, translation: &str) -> String {
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

fn call_engine(
    request: &TranslateRequest,
    engine: &dyn Engine,
    source: &'static Language,
    units: &[String],
    glossary: &[Term],
) -> Result<Vec<String>, TranslateError> {
    if units.is_empty() {
        return Ok(Vec::new());
    }
    // `more`/`less` were refused for targets without formality; `prefer_*` falls back silently.
    let formality = if request.target.supports_formality() { request.formality } else { Formality::Default };
    let engine_request = EngineRequest {
        source,
        target: request.target,
        texts: units,
        formality,
        context: request.context.as_deref(),
        custom_instructions: &request.custom_instructions,
        glossary,
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
}
