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

use api::ApiError;

/// The engine the variables configure; a configuration error is logged and answered with a
/// generic 500.
pub fn configured_engine<'a>(
    vars: &dyn platform::Variables,
    http: &'a dyn platform::OutboundHttp,
    cache: Option<&'a dyn platform::KeyValue>,
) -> Result<Box<dyn engines::Engine + 'a>, ApiError> {
    engines::from_variables(vars, http, cache).map_err(|error| {
        eprintln!("configuration: {error}");
        ApiError::new(500, api::INTERNAL_ERROR_MESSAGE)
    })
}

/// What `engine` translates, in the catalogue's terms, for listings and for checking the
/// language pairs of glossaries. An engine that cannot tell (its server is down) makes the
/// answer a 503 rather than a wrong listing.
pub fn catalogue_coverage(engine: &dyn engines::Engine) -> Result<catalogue::Coverage, ApiError> {
    match engine.coverage() {
        Ok(engines::Coverage::All) => Ok(catalogue::Coverage::All),
        Ok(engines::Coverage::Pairs(pairs)) => Ok(catalogue::Coverage::pairs(pairs)),
        Err(error) => {
            eprintln!("the engine cannot list its languages: {error}");
            Err(ApiError::unavailable("The translation engine is unavailable right now; try again later."))
        }
    }
}
