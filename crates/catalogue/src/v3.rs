//! The v3 listings: `GET /v3/languages?resource=…&include=…` and `GET /v3/languages/resources`.
//!
//! They advertise only what this deployment serves: the resources of [`SERVED`] (the others answer as unknown
//! resources, `400`), and of a resource's features only those whose own resource is served (a translation's
//! `style_rules` and `translation_memory` need the style rule and translation memory stores). An API area that
//! lands is switched on by adding its resource to [`SERVED`]; its data below is ready.
//!
//! Each resource has its own languages, roles and features (the feature/role table of the API reference):
//!
//! * `translate_text`, `translate_document`: every language; `EN` and `PT` are listed as sources only, since
//!   their variants are the advertised targets (they are still accepted as `target_lang`).
//! * `glossary`: the base glossary languages, each usable on both sides; a dictionary for `EN` serves every
//!   English variant, so variants are not listed.
//! * `write`: the languages of `/v2/write/*`; base languages as the text's language, all of them as targets.
//! * `style_rules`: the eight languages a style rule list can be written for, as targets (a list applies to the
//!   target's base language).
//! * `translation_memory`: the languages translation memories take, base languages as sources.
//! * `voice`: the languages of real-time voice sessions: spoken languages as sources, with `transcription`
//!   and `spoken_terms` (beta: they bias the recogniser), and targets with `formality` and `glossary`. The
//!   caller's coverage says which spoken languages the installed speech models recognise and which targets
//!   the engine reaches from them. Every recogniser is offline here, so nothing is `external`. Translated
//!   speech is a closed beta: `translated_speech` (beta) is offered on the targets the speech synthesiser
//!   speaks (`speech.rs`), and only to a caller whose subscription has it switched on ([`Served`]).
//!
//! Beta languages (`de-CH`, `fr-CA`) appear only with `include=beta`, with status `beta`, and so do beta features
//! (`spoken_terms`, `translated_speech`) and the features of a beta language: a feature is never more stable than
//! its language. `/v3/languages/resources` lists every feature that works for the caller, beta ones included. Every listing is limited to what the
//! engine covers: a language appears when it is usable on a side the engine serves, and its features follow the
//! roles it keeps. The caller passes the coverage that matters for the resource (that of the engine behind
//! `write`, for instance).

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::coverage::Coverage;
use crate::error::QueryError;
use crate::language::Language;
use crate::lookup::all;
use crate::speech::speech_voice;

/// A resource of `/v3/languages`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    TranslateText,
    TranslateDocument,
    Glossary,
    Voice,
    Write,
    StyleRules,
    TranslationMemory,
}

/// A capability a language may have for a resource; the keys of a language's `features`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    Formality,
    StyleRules,
    TagHandling,
    Glossary,
    WritingStyle,
    Tone,
    AutoDetection,
    Transcription,
    TranslatedSpeech,
    SpokenTerms,
    TranslationMemory,
}

/// What `include` adds to the stable languages and features.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Include {
    /// Beta languages and beta features.
    Beta,
    /// Features that rely on a third-party provider.
    External,
}

/// The availability of a language or a feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Stable,
    Beta,
}

/// Which language of a pair a feature is checked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Source,
    Target,
    Both,
}

impl Side {
    fn needs_source(self) -> bool {
        matches!(self, Side::Source | Side::Both)
    }

    fn needs_target(self) -> bool {
        matches!(self, Side::Target | Side::Both)
    }
}

/// What a deployment serves its caller: the resources it serves ([`SERVED`], less those its configuration cannot
/// serve) and whether the caller's subscription has translated speech, a closed beta its admins switch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Served<'a> {
    pub resources: &'a [Resource],
    pub translated_speech: bool,
}

impl<'a> Served<'a> {
    /// The resources `resources`, to a caller without translated speech.
    pub const fn resources(resources: &'a [Resource]) -> Served<'a> {
        Served { resources, translated_speech: false }
    }

    /// The same, to a caller whose subscription has translated speech switched on (`true`) or not.
    pub const fn with_translated_speech(self, translated_speech: bool) -> Served<'a> {
        Served { translated_speech, ..self }
    }
}

/// The resources this deployment serves: those whose endpoints are built (`/v2/translate`; `/v2/document`;
/// `/v2/glossaries` and `/v3/glossaries`; `/v3/voice/realtime`; `/v2/write/*`; `/v3/style_rules`;
/// `/v3/translation_memories`). A deployment without a speech recogniser leaves voice out (the caller's choice).
pub const SERVED: &[Resource] = &[
    Resource::TranslateText,
    Resource::TranslateDocument,
    Resource::Glossary,
    Resource::Voice,
    Resource::Write,
    Resource::StyleRules,
    Resource::TranslationMemory,
];

impl Resource {
    /// Every resource of the API, in the order `/v3/languages/resources` lists the served ones.
    pub const ALL: [Resource; 7] = [
        Resource::TranslateText,
        Resource::TranslateDocument,
        Resource::Glossary,
        Resource::Voice,
        Resource::Write,
        Resource::StyleRules,
        Resource::TranslationMemory,
    ];

    /// The name used in the `resource` parameter and in the resources listing.
    pub fn name(self) -> &'static str {
        match self {
            Resource::TranslateText => "translate_text",
            Resource::TranslateDocument => "translate_document",
            Resource::Glossary => "glossary",
            Resource::Voice => "voice",
            Resource::Write => "write",
            Resource::StyleRules => "style_rules",
            Resource::TranslationMemory => "translation_memory",
        }
    }

    /// Whether this deployment serves the resource ([`SERVED`]).
    pub fn is_served(self) -> bool {
        SERVED.contains(&self)
    }

    /// A value of the `resource` parameter: a served resource. One that is not served is refused as an unknown
    /// one is: listing its languages would advertise endpoints that answer 404.
    pub fn parse(value: &str) -> Result<Resource, QueryError> {
        Resource::named(value, SERVED)
    }

    /// The resource of `served` named `value`.
    fn named(value: &str, served: &[Resource]) -> Result<Resource, QueryError> {
        served
            .iter()
            .copied()
            .find(|resource| resource.name() == value)
            .ok_or_else(|| QueryError::Unsupported { parameter: "resource", value: value.to_owned() })
    }

    /// The resource of a `/v3/languages` query on a deployment serving `served` (see [`SERVED`]), from its
    /// `resource` parameter and the old name of that parameter, `product`, which gets its own answer so that old
    /// clients learn about the rename.
    pub fn from_query(
        resource: Option<&str>,
        product: Option<&str>,
        served: &[Resource],
    ) -> Result<Resource, QueryError> {
        match (resource, product) {
            (Some(value), _) => Resource::named(value, served),
            (None, Some(_)) => Err(QueryError::ProductRenamed),
            (None, None) => Err(QueryError::Missing { parameter: "resource" }),
        }
    }

    /// The resource's features and the side each is checked on, in listing order.
    fn features(self) -> &'static [(Feature, Side)] {
        match self {
            Resource::TranslateText => &[
                (Feature::Formality, Side::Target),
                (Feature::StyleRules, Side::Target),
                (Feature::TagHandling, Side::Both),
                (Feature::Glossary, Side::Both),
                (Feature::AutoDetection, Side::Source),
                (Feature::TranslationMemory, Side::Both),
            ],
            Resource::TranslateDocument => &[
                (Feature::Formality, Side::Target),
                (Feature::TagHandling, Side::Both),
                (Feature::Glossary, Side::Both),
                (Feature::AutoDetection, Side::Source),
            ],
            Resource::Voice => &[
                (Feature::AutoDetection, Side::Source),
                (Feature::Formality, Side::Target),
                (Feature::Glossary, Side::Both),
                (Feature::Transcription, Side::Source),
                (Feature::TranslatedSpeech, Side::Target),
                (Feature::SpokenTerms, Side::Source),
            ],
            Resource::Write => &[
                (Feature::AutoDetection, Side::Source),
                (Feature::WritingStyle, Side::Target),
                (Feature::Tone, Side::Target),
            ],
            Resource::Glossary | Resource::StyleRules | Resource::TranslationMemory => &[],
        }
    }

    /// Whether the language may be a source and a target of this resource, before engine coverage.
    fn roles(self, language: &Language) -> (bool, bool) {
        let base = !language.is_variant();
        match self {
            Resource::TranslateText | Resource::TranslateDocument => {
                (language.usable_as_source(), language.listed_as_target())
            }
            Resource::Glossary => {
                let glossary = base && language.supports_glossary();
                (glossary, glossary)
            }
            Resource::Voice => (base && language.supports_voice(), language.supports_voice()),
            Resource::Write => (base && language.supports_write(), language.supports_write()),
            Resource::StyleRules => (false, base && language.supports_style_rules()),
            Resource::TranslationMemory => {
                (base && language.supports_translation_memory(), language.supports_translation_memory())
            }
        }
    }
}

impl Feature {
    /// The key of the feature in a language's `features` and its name in the resources listing.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Formality => "formality",
            Feature::StyleRules => "style_rules",
            Feature::TagHandling => "tag_handling",
            Feature::Glossary => "glossary",
            Feature::WritingStyle => "writing_style",
            Feature::Tone => "tone",
            Feature::AutoDetection => "auto_detection",
            Feature::Transcription => "transcription",
            Feature::TranslatedSpeech => "translated_speech",
            Feature::SpokenTerms => "spoken_terms",
            Feature::TranslationMemory => "translation_memory",
        }
    }

    /// The resource a feature is the work of, when it is another resource's: a glossary, a style rule list or
    /// a translation memory applied to a translation or a voice session.
    fn resource(self) -> Option<Resource> {
        match self {
            Feature::Glossary => Some(Resource::Glossary),
            Feature::StyleRules => Some(Resource::StyleRules),
            Feature::TranslationMemory => Some(Resource::TranslationMemory),
            _ => None,
        }
    }

    /// Whether the feature works for the caller `served` describes: its own resource, if any, is served, and
    /// translated speech is switched on for the caller's subscription.
    fn works_with(self, served: Served<'_>) -> bool {
        match self {
            Feature::TranslatedSpeech => served.translated_speech,
            _ => self.resource().is_none_or(|resource| served.resources.contains(&resource)),
        }
    }
}

impl Include {
    /// One value of the repeatable `include` parameter.
    pub fn parse(value: &str) -> Result<Include, QueryError> {
        match value {
            "beta" => Ok(Include::Beta),
            "external" => Ok(Include::External),
            other => Err(QueryError::Unsupported { parameter: "include", value: other.to_owned() }),
        }
    }
}

/// How a language has a feature, before `include` filters it.
struct Support {
    beta: bool,
    external: bool,
}

/// Whether the language has the feature for the resource.
fn support(feature: Feature, language: &Language) -> Option<Support> {
    let (has, beta, external) = match feature {
        Feature::Formality => (language.supports_formality(), false, false),
        Feature::StyleRules => (language.supports_style_rules(), false, false),
        Feature::TagHandling => (language.supports_tag_handling(), false, false),
        Feature::Glossary => (language.supports_glossary(), false, false),
        Feature::WritingStyle => (language.supports_writing_style(), false, false),
        Feature::Tone => (language.supports_tone(), false, false),
        Feature::AutoDetection => (language.auto_detectable(), false, false),
        Feature::TranslationMemory => (language.supports_translation_memory(), false, false),
        // Every spoken language listed is recognised (the caller's coverage); terms bias the recogniser.
        Feature::Transcription => (true, false, false),
        Feature::SpokenTerms => (true, true, false),
        // A closed beta, on the targets the speech synthesiser speaks.
        Feature::TranslatedSpeech => (speech_voice(language).is_some(), true, false),
    };
    has.then_some(Support { beta: beta || language.is_beta(), external })
}

/// A feature of a language: `{"status": "stable"}`, with `"external": true` for a third-party capability.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FeatureSupport {
    pub status: Status,
    #[serde(skip_serializing_if = "is_false")]
    pub external: bool,
}

/// A language's `features` object, keys in the resource's feature order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Features(Vec<(Feature, FeatureSupport)>);

impl Features {
    pub fn get(&self, feature: Feature) -> Option<&FeatureSupport> {
        self.0.iter().find(|(key, _)| *key == feature).map(|(_, support)| support)
    }

    pub fn iter(&self) -> impl Iterator<Item = (Feature, &FeatureSupport)> {
        self.0.iter().map(|(feature, support)| (*feature, support))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Features {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (feature, support) in &self.0 {
            map.serialize_entry(feature.name(), support)?;
        }
        map.end()
    }
}

/// One entry of `/v3/languages`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct V3Language {
    pub lang: &'static str,
    pub name: &'static str,
    pub usable_as_source: bool,
    pub usable_as_target: bool,
    pub status: Status,
    pub features: Features,
}

/// The `/v3/languages` listing of a resource, with what `include` asks for, limited to what the engine covers and
/// to the features that work on this deployment ([`SERVED`]).
pub fn v3_languages(resource: Resource, include: &[Include], coverage: &Coverage) -> Vec<V3Language> {
    languages_served(resource, include, coverage, Served::resources(SERVED))
}

/// [`v3_languages`] for a caller `served` describes: the resources the deployment serves ([`SERVED`], less those
/// its configuration cannot serve: write without a language-tools service), and whether the caller has translated
/// speech.
pub fn languages_served(
    resource: Resource,
    include: &[Include],
    coverage: &Coverage,
    served: Served<'_>,
) -> Vec<V3Language> {
    let with_beta = include.contains(&Include::Beta);
    let with_external = include.contains(&Include::External);
    all()
        .iter()
        .filter(|language| with_beta || !language.is_beta())
        .filter_map(|language| {
            let (source, target) = resource.roles(language);
            let usable_as_source = source && coverage.supports_source(language);
            let usable_as_target = target && coverage.supports_target(language);
            if !usable_as_source && !usable_as_target {
                return None;
            }
            let features = resource
                .features()
                .iter()
                .filter(|(_, side)| side.needs_source() && usable_as_source || side.needs_target() && usable_as_target)
                .filter(|(feature, _)| feature.works_with(served))
                .filter_map(|&(feature, _)| {
                    let support = support(feature, language)?;
                    let shown = (with_beta || !support.beta) && (with_external || !support.external);
                    let status = if support.beta { Status::Beta } else { Status::Stable };
                    shown.then_some((feature, FeatureSupport { status, external: support.external }))
                })
                .collect();
            Some(V3Language {
                lang: language.lang(),
                name: language.name(),
                usable_as_source,
                usable_as_target,
                status: if language.is_beta() { Status::Beta } else { Status::Stable },
                features: Features(features),
            })
        })
        .collect()
}

/// One entry of `/v3/languages/resources`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct V3Resource {
    pub name: Resource,
    pub features: Vec<ResourceFeature>,
}

/// A feature of a resource and which language of a pair must support it (an absent `needs_*` means false).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResourceFeature {
    pub name: Feature,
    #[serde(skip_serializing_if = "is_false")]
    pub needs_source_support: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub needs_target_support: bool,
}

/// The body of `/v3/languages/resources`: every resource this deployment serves ([`SERVED`]) and its features
/// that work here (to a caller without translated speech).
pub fn v3_resources() -> Vec<V3Resource> {
    resources_served(Served::resources(SERVED))
}

/// [`v3_resources`] for a caller `served` describes (see [`languages_served`]).
pub fn resources_served(served: Served<'_>) -> Vec<V3Resource> {
    Resource::ALL
        .into_iter()
        .filter(|resource| served.resources.contains(resource))
        .map(|resource| V3Resource {
            name: resource,
            features: resource
                .features()
                .iter()
                .filter(|(feature, _)| feature.works_with(served))
                .map(|&(name, side)| ResourceFeature {
                    name,
                    needs_source_support: side.needs_source(),
                    needs_target_support: side.needs_target(),
                })
                .collect(),
        })
        .collect()
}

fn is_false(value: &bool) -> bool {
    !value
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::coverage::apertium_like;

    fn entry<'a>(listing: &'a [V3Language], lang: &str) -> Option<&'a V3Language> {
        listing.iter().find(|language| language.lang == lang)
    }

    fn langs(listing: &[V3Language]) -> Vec<&'static str> {
        listing.iter().map(|language| language.lang).collect()
    }

    #[test]
    fn a_text_translation_entry_has_the_documented_shape() {
        let listing = v3_languages(Resource::TranslateText, &[], &Coverage::All);
        assert_eq!(
            serde_json::to_value(entry(&listing, "de").unwrap()).unwrap(),
            json!({
                "lang": "de",
                "name": "German",
                "usable_as_source": true,
                "usable_as_target": true,
                "status": "stable",
                "features": {
                    "formality": {"status": "stable"},
                    "style_rules": {"status": "stable"},
                    "tag_handling": {"status": "stable"},
                    "glossary": {"status": "stable"},
                    "auto_detection": {"status": "stable"},
                    "translation_memory": {"status": "stable"},
                },
            })
        );
    }

    #[test]
    fn translation_features_of_resources_not_served_are_not_advertised() {
        // A feature whose own resource is not served (a deployment that serves no style rule lists
        // or translation memories) is not offered.
        let features = |served: &[Resource]| {
            let listing = languages_served(Resource::TranslateText, &[], &Coverage::All, Served::resources(served));
            let german = entry(&listing, "de").unwrap();
            german.features.iter().map(|(feature, _)| feature.name()).collect::<Vec<_>>()
        };
        assert_eq!(features(SERVED), features(&Resource::ALL));
        assert_eq!(
            features(&[Resource::TranslateText, Resource::StyleRules]),
            ["formality", "style_rules", "tag_handling", "auto_detection"]
        );
        assert_eq!(
            features(&Resource::ALL),
            ["formality", "style_rules", "tag_handling", "glossary", "auto_detection", "translation_memory"],
            "switched on with their resources"
        );
        assert_eq!(features(&[Resource::TranslateText]), ["formality", "tag_handling", "auto_detection"]);
    }

    #[test]
    fn text_translation_lists_every_stable_language_and_beta_only_on_request() {
        let stable = v3_languages(Resource::TranslateText, &[], &Coverage::All);
        assert_eq!(stable.len(), 121);
        assert!(entry(&stable, "de-CH").is_none());
        assert!(entry(&stable, "yue").is_some(), "hidden only from v2");
        let with_beta = v3_languages(Resource::TranslateText, &[Include::Beta], &Coverage::All);
        assert_eq!(with_beta.len(), 123);
    }

    #[test]
    fn a_beta_language_is_beta_with_neither_glossary_nor_formality() {
        let listing = languages_served(
            Resource::TranslateText,
            &[Include::Beta],
            &Coverage::All,
            Served::resources(&[Resource::TranslateText]),
        );
        assert_eq!(serde_json::to_value(&entry(&listing, "fr-CA").unwrap().features).unwrap(), json!({}));
        let listing = v3_languages(Resource::TranslateText, &[Include::Beta], &Coverage::All);
        assert_eq!(
            serde_json::to_value(entry(&listing, "fr-CA").unwrap()).unwrap(),
            json!({
                "lang": "fr-CA",
                "name": "French (Canadian)",
                "usable_as_source": false,
                "usable_as_target": true,
                "status": "beta",
                "features": {"style_rules": {"status": "beta"}},
            })
        );
    }

    #[test]
    fn formerly_beta_languages_are_listed_as_stable() {
        let listing = v3_languages(Resource::TranslateText, &[], &Coverage::All);
        let catalan = entry(&listing, "ca").unwrap();
        assert_eq!(catalan.status, Status::Stable);
        assert!(catalan.features.is_empty());
        assert_eq!(serde_json::to_value(&catalan.features).unwrap(), json!({}));
    }

    #[test]
    fn english_is_a_source_and_its_variants_are_the_targets() {
        let listing = v3_languages(Resource::TranslateText, &[], &Coverage::All);
        let english = entry(&listing, "en").unwrap();
        assert!(english.usable_as_source && !english.usable_as_target);
        // Checked only on the target, style rules are not offered on a language listed as a source only.
        assert!(english.features.get(Feature::StyleRules).is_none());
        assert!(english.features.get(Feature::Glossary).is_some());
        let american = entry(&listing, "en-US").unwrap();
        assert!(!american.usable_as_source && american.usable_as_target);
        assert!(american.features.get(Feature::AutoDetection).is_none());
        assert!(entry(&listing, "zh").unwrap().usable_as_target);
    }

    #[test]
    fn document_translation_has_no_style_rules_or_translation_memory() {
        let listing = v3_languages(Resource::TranslateDocument, &[], &Coverage::All);
        let german = entry(&listing, "de").unwrap();
        let features: Vec<Feature> = german.features.iter().map(|(feature, _)| feature).collect();
        assert_eq!(features, [Feature::Formality, Feature::TagHandling, Feature::Glossary, Feature::AutoDetection]);
    }

    #[test]
    fn the_glossary_resource_lists_base_glossary_languages_on_both_sides() {
        let listing = v3_languages(Resource::Glossary, &[Include::Beta], &Coverage::All);
        assert_eq!(listing.len(), 32);
        assert!(listing.iter().all(|language| language.usable_as_source && language.usable_as_target));
        assert!(entry(&listing, "th").is_none() && entry(&listing, "en-GB").is_none());
        assert!(entry(&listing, "de-CH").is_none());
    }

    #[test]
    fn write_lists_its_languages_with_style_and_tone_for_german_and_english() {
        let listing = v3_languages(Resource::Write, &[], &Coverage::All);
        assert_eq!(
            langs(&listing),
            ["de", "en", "en-GB", "en-US", "es", "fr", "it", "ja", "ko", "pt", "pt-BR", "pt-PT", "zh", "zh-Hans"]
        );
        assert_eq!(
            serde_json::to_value(entry(&listing, "en-GB").unwrap()).unwrap(),
            json!({
                "lang": "en-GB",
                "name": "English (British)",
                "usable_as_source": false,
                "usable_as_target": true,
                "status": "stable",
                "features": {"writing_style": {"status": "stable"}, "tone": {"status": "stable"}},
            })
        );
        assert!(entry(&listing, "fr").unwrap().features.get(Feature::Tone).is_none());
    }

    #[test]
    fn style_rules_list_eight_target_languages() {
        let listing = v3_languages(Resource::StyleRules, &[Include::Beta], &Coverage::All);
        assert_eq!(langs(&listing), ["de", "en", "es", "fr", "it", "ja", "ko", "zh"]);
        assert!(listing.iter().all(|language| !language.usable_as_source && language.usable_as_target));
    }

    #[test]
    fn translation_memories_take_eight_sources_and_twelve_targets() {
        let listing = v3_languages(Resource::TranslationMemory, &[], &Coverage::All);
        assert_eq!(listing.iter().filter(|language| language.usable_as_source).count(), 8);
        assert_eq!(listing.iter().filter(|language| language.usable_as_target).count(), 12);
    }

    /// What a deployment with whisper base (or tiny.en) and an engine for `targets` covers.
    fn recognising(spoken: &[&str], targets: &[&str]) -> Coverage {
        Coverage::pairs(spoken.iter().flat_map(|source| targets.iter().map(move |target| (*source, *target))))
    }

    #[test]
    fn voice_lists_the_recognised_spoken_languages_and_the_targets_reached_from_them() {
        let coverage = recognising(&["en", "de", "fr"], &["de", "en", "es", "fr", "zh"]);
        let listing = v3_languages(Resource::Voice, &[], &coverage);
        let sources: Vec<&str> = listing.iter().filter(|language| language.usable_as_source).map(|l| l.lang).collect();
        assert_eq!(sources, ["de", "en", "fr"]);
        let targets: Vec<&str> = listing.iter().filter(|language| language.usable_as_target).map(|l| l.lang).collect();
        assert_eq!(targets, ["de", "en", "en-GB", "en-US", "es", "fr", "zh", "zh-Hans", "zh-Hant"]);
        let german = serde_json::to_value(&entry(&listing, "de").unwrap().features).unwrap();
        assert_eq!(german["transcription"], json!({"status": "stable"}));
        assert_eq!(german["formality"], json!({"status": "stable"}));
        assert!(german.get("translated_speech").is_none(), "a closed beta the caller does not have");
        let only_english = v3_languages(Resource::Voice, &[], &recognising(&["en"], &["de"]));
        assert_eq!(langs(&only_english), ["de", "en"]);
    }

    #[test]
    fn voice_shows_spoken_terms_only_with_include_beta() {
        let coverage = recognising(&["en", "de"], &["fr"]);
        let listing = v3_languages(Resource::Voice, &[], &coverage);
        assert!(entry(&listing, "en").unwrap().features.get(Feature::SpokenTerms).is_none());
        let listing = v3_languages(Resource::Voice, &[Include::Beta], &coverage);
        let english = serde_json::to_value(&entry(&listing, "en").unwrap().features).unwrap();
        assert_eq!(english["spoken_terms"], json!({"status": "beta"}));
        assert_eq!(english["transcription"], json!({"status": "stable"}));
        let french = serde_json::to_value(&entry(&listing, "fr").unwrap().features).unwrap();
        assert!(french.get("spoken_terms").is_none(), "terms bias what is spoken, not targets");
    }

    /// The voice listing to a caller whose subscription has translated speech switched on (`true`) or not.
    fn voice_to(translated_speech: bool, include: &[Include], coverage: &Coverage) -> Vec<V3Language> {
        let served = Served::resources(SERVED).with_translated_speech(translated_speech);
        languages_served(Resource::Voice, include, coverage, served)
    }

    #[test]
    fn translated_speech_is_a_beta_feature_of_spoken_targets_for_subscriptions_that_have_it() {
        let coverage = recognising(&["en", "ja"], &["de", "en", "ja", "tl", "zh"]);
        let speech = |listing: &[V3Language]| -> Vec<&str> {
            let spoken = listing.iter().filter(|language| language.features.get(Feature::TranslatedSpeech).is_some());
            spoken.map(|language| language.lang).collect()
        };
        assert_eq!(
            speech(&voice_to(true, &[Include::Beta], &coverage)),
            ["de", "en", "en-GB", "en-US", "zh", "zh-Hans", "zh-Hant"]
        );
        let listing = voice_to(true, &[Include::Beta], &coverage);
        let german = serde_json::to_value(&entry(&listing, "de").unwrap().features).unwrap();
        assert_eq!(german["translated_speech"], json!({"status": "beta"}));
        assert!(entry(&listing, "ja").unwrap().features.get(Feature::TranslatedSpeech).is_none(), "no kanji spoken");
        assert!(entry(&listing, "tl").unwrap().features.get(Feature::TranslatedSpeech).is_none(), "no voice");
        // Beta features need include=beta; a closed beta needs the subscription's switch.
        assert!(speech(&voice_to(true, &[], &coverage)).is_empty());
        assert!(speech(&voice_to(false, &[Include::Beta], &coverage)).is_empty());
        assert_eq!(
            voice_to(false, &[Include::Beta], &coverage),
            v3_languages(Resource::Voice, &[Include::Beta], &coverage)
        );
        // Checked on the target: a spoken language that is no target here has no speech.
        let only_english_spoken = voice_to(true, &[Include::Beta], &recognising(&["en"], &["de"]));
        assert!(entry(&only_english_spoken, "en").unwrap().features.get(Feature::TranslatedSpeech).is_none());
        // Other resources never offer it.
        let text = languages_served(
            Resource::TranslateText,
            &[Include::Beta],
            &Coverage::All,
            Served::resources(SERVED).with_translated_speech(true),
        );
        assert!(text.iter().all(|language| language.features.get(Feature::TranslatedSpeech).is_none()));
    }

    #[test]
    fn the_resources_list_translated_speech_for_voice_to_subscriptions_that_have_it() {
        let voice = |translated_speech: bool| {
            let served = Served::resources(SERVED).with_translated_speech(translated_speech);
            let resources = serde_json::to_value(resources_served(served)).unwrap();
            resources.as_array().unwrap().iter().find(|resource| resource["name"] == "voice").unwrap().clone()
        };
        assert_eq!(
            voice(true)["features"],
            json!([
                {"name": "auto_detection", "needs_source_support": true},
                {"name": "formality", "needs_target_support": true},
                {"name": "glossary", "needs_source_support": true, "needs_target_support": true},
                {"name": "transcription", "needs_source_support": true},
                {"name": "translated_speech", "needs_target_support": true},
                {"name": "spoken_terms", "needs_source_support": true},
            ])
        );
        assert!(!voice(false).to_string().contains("translated_speech"));
        let without_voice = Served::resources(&[Resource::TranslateText]).with_translated_speech(true);
        assert!(
            !serde_json::to_value(resources_served(without_voice)).unwrap().to_string().contains("translated_speech")
        );
    }

    #[test]
    fn a_small_engine_restricts_the_text_translation_listing() {
        let listing = v3_languages(Resource::TranslateText, &[], &apertium_like());
        assert_eq!(langs(&listing), ["ca", "en", "en-GB", "en-US", "es", "es-419", "fr"]);
        let with_beta = v3_languages(Resource::TranslateText, &[Include::Beta], &apertium_like());
        assert_eq!(langs(&with_beta), ["ca", "en", "en-GB", "en-US", "es", "es-419", "fr", "fr-CA"]);
    }

    #[test]
    fn a_small_engine_restricts_roles_and_the_features_that_follow_them() {
        let coverage = Coverage::pairs([("en", "fr")]);
        let listing = v3_languages(Resource::TranslateText, &[], &coverage);
        assert_eq!(langs(&listing), ["en", "fr"]);
        let french = entry(&listing, "fr").unwrap();
        assert!(!french.usable_as_source && french.usable_as_target);
        assert!(french.features.get(Feature::Formality).is_some());
        assert!(french.features.get(Feature::AutoDetection).is_none());
    }

    #[test]
    fn a_small_engine_restricts_the_other_resources() {
        let coverage = apertium_like();
        assert_eq!(langs(&v3_languages(Resource::Glossary, &[], &coverage)), ["en", "es", "fr"]);
        assert_eq!(langs(&v3_languages(Resource::StyleRules, &[], &coverage)), ["en", "es", "fr"]);
        assert_eq!(langs(&v3_languages(Resource::Voice, &[], &coverage)), ["en", "en-GB", "en-US", "es", "fr"]);
    }

    #[test]
    fn only_the_served_resources_are_listed_with_the_features_that_work_here() {
        let resources = serde_json::to_value(v3_resources()).unwrap();
        assert_eq!(
            resources,
            json!([
                {"name": "translate_text", "features": [
                    {"name": "formality", "needs_target_support": true},
                    {"name": "style_rules", "needs_target_support": true},
                    {"name": "tag_handling", "needs_source_support": true, "needs_target_support": true},
                    {"name": "glossary", "needs_source_support": true, "needs_target_support": true},
                    {"name": "auto_detection", "needs_source_support": true},
                    {"name": "translation_memory", "needs_source_support": true, "needs_target_support": true},
                ]},
                {"name": "translate_document", "features": [
                    {"name": "formality", "needs_target_support": true},
                    {"name": "tag_handling", "needs_source_support": true, "needs_target_support": true},
                    {"name": "glossary", "needs_source_support": true, "needs_target_support": true},
                    {"name": "auto_detection", "needs_source_support": true},
                ]},
                {"name": "glossary", "features": []},
                {"name": "voice", "features": [
                    {"name": "auto_detection", "needs_source_support": true},
                    {"name": "formality", "needs_target_support": true},
                    {"name": "glossary", "needs_source_support": true, "needs_target_support": true},
                    {"name": "transcription", "needs_source_support": true},
                    {"name": "spoken_terms", "needs_source_support": true},
                ]},
                {"name": "write", "features": [
                    {"name": "auto_detection", "needs_source_support": true},
                    {"name": "writing_style", "needs_target_support": true},
                    {"name": "tone", "needs_target_support": true},
                ]},
                {"name": "style_rules", "features": []},
                {"name": "translation_memory", "features": []},
            ])
        );
        assert!(SERVED.iter().all(|resource| resource.is_served()));
        assert!(Resource::Voice.is_served() && Resource::TranslateDocument.is_served());
    }

    #[test]
    fn resources_list_their_features_with_the_sides_that_need_them() {
        let resources = serde_json::to_value(resources_served(Served::resources(&Resource::ALL))).unwrap();
        assert_eq!(resources.as_array().unwrap().len(), 7);
        assert_eq!(
            resources[0],
            json!({"name": "translate_text", "features": [
                {"name": "formality", "needs_target_support": true},
                {"name": "style_rules", "needs_target_support": true},
                {"name": "tag_handling", "needs_source_support": true, "needs_target_support": true},
                {"name": "glossary", "needs_source_support": true, "needs_target_support": true},
                {"name": "auto_detection", "needs_source_support": true},
                {"name": "translation_memory", "needs_source_support": true, "needs_target_support": true},
            ]})
        );
        assert_eq!(resources[2], json!({"name": "glossary", "features": []}));
    }

    #[test]
    fn resource_names_round_trip() {
        for resource in Resource::ALL {
            assert_eq!(Resource::named(resource.name(), &Resource::ALL), Ok(resource));
            assert_eq!(serde_json::to_value(resource).unwrap(), json!(resource.name()));
        }
    }

    #[test]
    fn a_resource_that_is_not_served_is_refused_like_an_unknown_one() {
        for resource in Resource::ALL {
            let parsed = Resource::parse(resource.name());
            if resource.is_served() {
                assert_eq!(parsed, Ok(resource));
            } else {
                assert_eq!(parsed.unwrap_err().to_string(), "Value for 'resource' not supported.", "{resource:?}");
            }
        }
    }

    #[test]
    fn an_unknown_resource_is_refused_with_the_parameter_name() {
        let error = Resource::parse("translate").unwrap_err();
        assert_eq!(error.to_string(), "Value for 'resource' not supported.");
    }

    #[test]
    fn the_old_product_parameter_gets_the_rename_message() {
        let error = Resource::from_query(None, Some("translate_text"), SERVED).unwrap_err();
        assert_eq!(error, QueryError::ProductRenamed);
        assert_eq!(error.to_string(), "Bad request. Reason: The 'product' parameter has been renamed to 'resource'.");
    }

    #[test]
    fn the_resource_parameter_wins_over_product_and_is_required() {
        assert_eq!(Resource::from_query(Some("glossary"), Some("translate_text"), SERVED), Ok(Resource::Glossary));
        let without_voice = [Resource::TranslateText];
        assert!(Resource::from_query(Some("voice"), None, &without_voice).is_err(), "voice is not served there");
        assert_eq!(Resource::from_query(None, None, SERVED), Err(QueryError::Missing { parameter: "resource" }));
    }

    #[test]
    fn include_takes_beta_and_external() {
        assert_eq!(Include::parse("beta"), Ok(Include::Beta));
        assert_eq!(Include::parse("external"), Ok(Include::External));
        assert_eq!(Include::parse("alpha").unwrap_err().to_string(), "Value for 'include' not supported.");
    }
}
