//! The translation itself: source languages, units, engine calls, reassembly.

use std::collections::BTreeMap;

use api::ApiError;
use catalogue::Language;
use engines::{Engine, EngineError, EngineRequest};
use markup::{Markup, MarkupError, RenderError, TextPiece, UnitResult};

use crate::request::{Formality, TranslateRequest};

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
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("The translation engine does not translate from {from} to {to}.")]
    UnsupportedPair { from: &'static str, to: &'static str },
    #[error(transparent)]
    Markup(#[from] MarkupError),
    #[error("the translated units did not fit the markup: {0}")]
    Render(#[from] RenderError),
}

impl TranslateError {
    /// The answer for the client: 400 for its mistakes, 503 when the engine is unavailable
    /// (nothing is billed then), a logged 500 otherwise.
    pub fn into_api_error(self) -> ApiError {
        match self {
            TranslateError::UnsupportedPair { .. } | TranslateError::Markup(_) => {
                ApiError::bad_request(self.to_string())
            }
            TranslateError::Engine(EngineError::UnsupportedPair { source, target }) => ApiError::bad_request(format!(
                "The translation engine does not translate from {} to {}.",
                source.to_ascii_uppercase(),
                target.to_ascii_uppercase()
            )),
            TranslateError::Engine(EngineError::Unavailable { engine, reason }) => {
                eprintln!("translate: engine {engine} unavailable: {reason}");
                ApiError::unavailable(
                    "The translation engine is unavailable right now; try again later. Nothing was billed.",
                )
            }
            other => ApiError::internal(&other),
        }
    }
}

/// The language of a text that has no letters, where detection cannot tell.
const FALLBACK_SOURCE: &str = "en";

/// Translates every text of `request` with `engine`.
pub fn translate(request: &TranslateRequest, engine: &dyn Engine) -> Result<Translations, TranslateError> {
    let target = request.target;
    let sources: Vec<&'static Language> = request
        .texts
        .iter()
        .map(|text| match request.source {
            Some(source) => source,
            None => detect(text),
        })
        .collect();

    let coverage = if sources.iter().any(|source| source.base_code() != target.base_code()) {
        Some(engine.coverage()?)
    } else {
        None
    };
    for source in &sources {
        if source.base_code() != target.base_code()
            && !coverage.as_ref().is_some_and(|coverage| coverage.supports(source.base_code(), &target_code(target)))
        {
            return Err(TranslateError::UnsupportedPair { from: source.code(), to: target.code() });
        }
    }

    // One engine call per source language, for all of its texts' units.
    let mut by_source: BTreeMap<&'static str, Vec<usize>> = BTreeMap::new();
    for (index, source) in sources.iter().enumerate() {
        by_source.entry(source.base_code()).or_default().push(index);
    }
    let mut texts: Vec<Option<String>> = vec![None; request.texts.len()];
    for (source, indexes) in by_source {
        let group: Vec<&str> = indexes.iter().map(|&index| request.texts[index].as_str()).collect();
        let translated = if source == target.base_code() {
            group.iter().map(|text| (*text).to_owned()).collect()
        } else {
            translate_group(request, engine, source, &group)?
        };
        for (index, text) in indexes.into_iter().zip(translated) {
            texts[index] = Some(text);
        }
    }

    let items = texts
        .into_iter()
        .zip(&sources)
        .zip(&request.texts)
        .map(|((text, source), original)| Translation {
            detected_source_language: source.base().code(),
            text: text.expect("every text belongs to one group"),
            billed_characters: if target.is_billed() { original.chars().count() as i64 } else { 0 },
        })
        .collect();
    Ok(Translations { items })
}

fn detect(text: &str) -> &'static Language {
    let code = engines::detect(std::slice::from_ref(&text.to_owned())).unwrap_or(FALLBACK_SOURCE);
    catalogue::find(code).or_else(|| catalogue::find(FALLBACK_SOURCE)).expect("the catalogue has English")
}

/// The code engines take: lower-case BCP 47 (`en-gb`, `zh-hans`).
fn target_code(target: &Language) -> String {
    target.lang().to_ascii_lowercase()
}

/// How the texts of one source language are cut, for putting them back together.
enum Shape<'t> {
    Plain(Vec<TextPiece<'t>>),
    Tagged(Markup),
}

fn translate_group(
    request: &TranslateRequest,
    engine: &dyn Engine,
    source: &'static str,
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
    let translated = call_engine(request, engine, source, &units)?;
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
                        out.push(markup::preserve_formatting(unit, &translation, request.preserve_formatting));
                    }
                }
                plain.push(out);
                results.push(Vec::new());
            }
            Shape::Tagged(markup) => {
                let mut unit_results = Vec::new();
                for unit in markup.units() {
                    let translation = translated.next().unwrap_or_default();
                    let translation =
                        markup::preserve_formatting(unit.text(), &translation, request.preserve_formatting);
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
        call_engine(request, engine, source, &fallback_pieces)?.into_iter()
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
                                markup::preserve_formatting(piece, &translation, request.preserve_formatting)
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

fn call_engine(
    request: &TranslateRequest,
    engine: &dyn Engine,
    source: &str,
    units: &[String],
) -> Result<Vec<String>, TranslateError> {
    if units.is_empty() {
        return Ok(Vec::new());
    }
    let target = target_code(request.target);
    // `more`/`less` were refused for targets without formality; `prefer_*` falls back silently.
    let formality = if request.target.supports_formality() { request.formality } else { Formality::Default };
    let engine_request = EngineRequest {
        source,
        target: &target,
        texts: units,
        formality,
        context: request.context.as_deref(),
        custom_instructions: &request.custom_instructions,
        glossary: &[],
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
    use api::Params;
    use engines::{Capabilities, Coverage, DeterministicEngine};

    use super::*;

    fn request(json: &str) -> TranslateRequest {
        TranslateRequest::parse(&Params::from_json(json.as_bytes()).unwrap()).unwrap()
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
        assert_eq!(error.into_api_error().status, 400);
    }

    struct PairsOnly;
    impl Engine for PairsOnly {
        fn coverage(&self) -> Result<Coverage, EngineError> {
            Ok(Coverage::Pairs([("en".to_owned(), "es".to_owned())].into_iter().collect()))
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
        let error = error.into_api_error();
        assert_eq!(error.status, 400);
        assert_eq!(error.message, "The translation engine does not translate from EN to DE.");
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
    fn an_unavailable_engine_is_a_503() {
        let error =
            translate(&request(r#"{"text": ["Hello"], "target_lang": "DE", "source_lang": "EN"}"#), &Down).unwrap_err();
        let error = error.into_api_error();
        assert_eq!(error.status, 503);
        assert!(!error.message.contains("refused"));
    }
}
