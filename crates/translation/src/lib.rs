//! `POST /v2/translate` (and `/v1/translate`): from parameters to translations.
//!
//! [`TranslateRequest::parse`] validates every parameter against the language catalogue and
//! names the one at fault; [`translate`] detects missing source languages, cuts each text into
//! units (sentences, or the text runs of XML/HTML), has the engine translate them, and puts the
//! texts back together. Authentication, quotas and billing are the component's: it charges
//! [`Translations::billed_characters`] once the work succeeded.

mod request;
mod work;

pub use request::{Formality, ModelType, TranslateRequest};
pub use work::{NoGlossary, Term, TermSource, TranslateError, Translation, Translations, translate};
