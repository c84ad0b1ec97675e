//! `POST /v2/translate` (and `/v1/translate`): from parameters to translations.
//!
//! * `request.rs`: [`TranslateRequest::parse`] validates every parameter against the language
//!   catalogue and names the one at fault.
//! * `sources.rs`: the traits through which a translation reads what its request names by id:
//!   glossary entries ([`TermSource`], implemented by the glossary store), style rule lists
//!   ([`StyleSource`], by the style rule store) and translation memories ([`MemorySource`], by
//!   the translation memory store).
//! * `work.rs`: [`translate`] checks what the request names, detects missing source languages,
//!   cuts each text into units (sentences, or the text runs of XML/HTML), takes the units a
//!   translation memory holds from it, has the engine translate the others (with the style rule
//!   list's instructions), keeps every glossary term as defined, applies the list's mechanical
//!   rules, and puts the texts back together.
//! * `detection.rs`: `POST /v3/detect/language`: [`detect_languages`] answers the language of
//!   each text, with the detector translation uses, and a status saying how sure it is.
//! * `edge.rs`: the only file that knows HTTP: the request from its parameters, and the answer
//!   for each failure.
//!
//! Authentication, quotas and billing are not here: the component charges
//! [`Translations::billed_characters`] through `metering` once the work succeeded.

mod detection;
mod edge;
mod request;
mod sources;
mod work;

#[cfg(test)]
mod test_support;

pub use detection::{
    CONFIDENT, DetectRequest, DetectionResult, DetectionStatus, Detections, MAX_TEXTS, OUTSIDE_CONFIDENT,
    detect_languages,
};
pub use request::{Formality, ModelType, RawTranslateRequest, RequestError, TranslateRequest};
pub use sources::{
    CustomInstruction, Memory, MemoryMatch, MemorySource, NoGlossary, NoMemories, NoStyleRules, SourceError, Sources,
    StyleRules, StyleSource, Term, TermSource,
};
pub use work::{TranslateError, Translation, Translations, translate};
