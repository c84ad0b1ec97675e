//! The language catalogue: every language the API knows, as data, and the queries the language and translation
//! endpoints ask of it.
//!
//! * [`Language`] and [`Maturity`]: one language, its codes, name, roles, features and maturity; the data
//!   itself is one static table (`table.rs`).
//! * [`find`], [`parse_source`], [`parse_target`]: case-insensitive lookup of v2 (`EN-GB`) and v3 (`en-GB`)
//!   codes, and the checks of `source_lang`/`target_lang` with the API's error texts; [`from_iso639`]:
//!   the language a back end names by its ISO 639 code.
//! * [`Coverage`]: what the configured engine can translate; every listing is limited by it.
//! * [`speech_voice`]: the voice targets translated speech speaks, and the espeak-ng voice of each (`speech.rs`).
//! * [`v2_languages`], [`glossary_language_pairs`], [`v3_languages`], [`v3_resources`]: the bodies of the
//!   language endpoints, ready to serialise; the v3 ones advertise only the resources this deployment serves
//!   ([`SERVED`]) and the features that work with them for the caller ([`Served`]).
//!
//! The crate is pure Rust with no platform dependency. `edge.rs` is the only file that knows HTTP: it reads the
//! language endpoints' queries from request parameters and answers each refused code or query.

mod coverage;
mod edge;
mod error;
mod language;
mod lookup;
mod speech;
mod table;
mod v2;
mod v3;

pub use coverage::{Coverage, PairSet};
pub use error::{LanguageError, QueryError};
pub use language::{Language, Maturity};
pub use lookup::{all, custom_instruction_targets, find, from_iso639, glossary_languages, parse_source, parse_target};
pub use speech::speech_voice;
pub use v2::{
    GlossaryLanguagePair, GlossaryLanguagePairs, ListKind, V2_DEPRECATED_AT, V2Language, glossary_language_pairs,
    v2_deprecation, v2_languages,
};
pub use v3::{
    Feature, FeatureSupport, Features, Include, Resource, ResourceFeature, SERVED, Served, Status, V3Language,
    V3Resource, languages_served, resources_served, v3_languages, v3_resources,
};
