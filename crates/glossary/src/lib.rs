//! Glossaries: terminology a translation must use, per language pair.
//!
//! A glossary belongs to one subscription and holds dictionaries, one per language pair (v3);
//! a v2 glossary is a glossary with exactly one dictionary, so both API versions see the same
//! glossaries. [`entries`] parses and validates uploads (TSV or CSV), [`store`] keeps them in
//! SQLite, and [`Selection`] finds, for a translate request, only the entries that can occur
//! in its texts (by the first word of their source term, see the `terms` crate), so a
//! 100,000-entry glossary costs a translation a few index lookups.
//!
//! The functions below read a request's parameters into those types, with the API's error
//! texts: 400 naming the parameter, 400 `Invalid glossary entries provided` with a `detail`.

pub mod entries;
pub mod store;

use api::params::{invalid, missing};
use api::{ApiError, Params};
use catalogue::Coverage;
use serde_json::Value;

pub use entries::{EntriesError, EntriesFormat, Entry, MAX_TERM_BYTES};
pub use store::{
    DictionaryInfo, Glossary, GlossaryError, LanguagePair, LookupError, MAX_GLOSSARIES, NewDictionary, Selection,
};

/// The message of every entry validation error; the `detail` says what and where.
pub const INVALID_ENTRIES: &str = "Invalid glossary entries provided";

/// A glossary language of a request (`source_lang`/`target_lang`), as its lower-case base code:
/// any case, and a variant (`en-GB`) stands for its base; beta languages (`de-CH`) are refused.
pub fn language(params: &Params, name: &str) -> Result<&'static str, ApiError> {
    let code = params.string(name)?.filter(|code| !code.trim().is_empty()).ok_or_else(|| missing(name))?;
    let language = catalogue::find(code.trim()).ok_or_else(|| invalid(name))?;
    // Beta languages have no glossaries, not even through their base.
    if language.is_beta() || !language.base().supports_glossary() {
        return Err(invalid(name));
    }
    Ok(language.base_code())
}

/// The language pair a request names in `source_lang` and `target_lang`, checked against what
/// the engine translates: a glossary for a pair it cannot translate would never apply.
pub fn language_pair(params: &Params, coverage: &Coverage) -> Result<LanguagePair, ApiError> {
    let pair = LanguagePair::new(language(params, "source_lang")?, language(params, "target_lang")?);
    check_pair(&pair, coverage)?;
    Ok(pair)
}

/// The pair a request names, without the engine check (for reading and deleting).
pub fn requested_pair(params: &Params) -> Result<LanguagePair, ApiError> {
    Ok(LanguagePair::new(language(params, "source_lang")?, language(params, "target_lang")?))
}

fn check_pair(pair: &LanguagePair, coverage: &Coverage) -> Result<(), ApiError> {
    let supported = pair.source != pair.target
        && match (catalogue::find(&pair.source), catalogue::find(&pair.target)) {
            (Some(source), Some(target)) => coverage.supports_pair(source, target),
            _ => false,
        };
    if supported {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!("Glossaries are not supported for the language pair {pair}.")))
    }
}

/// A glossary name: required, at most 1024 UTF-8 bytes, no control characters.
pub fn name(params: &Params) -> Result<Option<String>, ApiError> {
    let Some(name) = params.string("name")? else { return Ok(None) };
    if name.trim().is_empty() {
        return Err(missing("name"));
    }
    if name.len() > MAX_TERM_BYTES {
        return Err(ApiError::bad_request(format!(
            "Value for 'name' not supported: it is longer than {MAX_TERM_BYTES} UTF-8 bytes."
        )));
    }
    if name.chars().any(entries::is_forbidden) {
        return Err(ApiError::bad_request("Value for 'name' not supported: it contains a control character."));
    }
    Ok(Some(name))
}

/// One dictionary from a request's parameters: `source_lang`, `target_lang`, `entries` and
/// `entries_format` (at the top level for v2 and `PUT .../dictionaries`, or one object of a
/// v3 `dictionaries` array).
pub fn dictionary(params: &Params, coverage: &Coverage) -> Result<NewDictionary, ApiError> {
    let pair = language_pair(params, coverage)?;
    let format = match params.string("entries_format")? {
        Some(value) => EntriesFormat::parse(value.trim()).ok_or_else(|| invalid("entries_format"))?,
        None => EntriesFormat::default(),
    };
    let text = params.string("entries")?.filter(|text| !text.is_empty()).ok_or_else(|| missing("entries"))?;
    let entries = entries::parse(&text, format, &pair.source, &pair.target).map_err(entries_error)?;
    Ok(NewDictionary { pair, entries })
}

/// The `dictionaries` of a v3 request: a JSON array of dictionary objects (a form may carry the
/// array as JSON text). `None` when absent.
pub fn dictionaries(params: &Params, coverage: &Coverage) -> Result<Option<Vec<NewDictionary>>, ApiError> {
    let items = match params.value("dictionaries") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items.clone(),
        Some(Value::String(text)) => match serde_json::from_str(text) {
            Ok(Value::Array(items)) => items,
            _ => return Err(not_dictionaries()),
        },
        Some(_) => return Err(not_dictionaries()),
    };
    let mut dictionaries: Vec<NewDictionary> = Vec::with_capacity(items.len());
    for item in items {
        let Value::Object(fields) = item else { return Err(not_dictionaries()) };
        let dictionary = dictionary(&Params::from_object(fields), coverage)?;
        if dictionaries.iter().any(|other| other.pair == dictionary.pair) {
            return Err(ApiError::bad_request(format!(
                "Value for 'dictionaries' not supported: two dictionaries for the language pair {}.",
                dictionary.pair
            )));
        }
        dictionaries.push(dictionary);
    }
    Ok(Some(dictionaries))
}

fn not_dictionaries() -> ApiError {
    ApiError::bad_request("Value for 'dictionaries' not supported: it must be an array of dictionary objects.")
}

/// The 400 for entries that break a rule.
pub fn entries_error(error: EntriesError) -> ApiError {
    ApiError::bad_request(INVALID_ENTRIES).with_detail(error.0)
}

impl From<GlossaryError> for ApiError {
    fn from(error: GlossaryError) -> ApiError {
        match error {
            GlossaryError::NotFound | GlossaryError::DictionaryNotFound => ApiError::not_found(error.to_string()),
            GlossaryError::TooMany => ApiError::new(456, error.to_string()),
            GlossaryError::Store(cause) => ApiError::internal(&cause),
        }
    }
}

impl From<LookupError> for ApiError {
    fn from(error: LookupError) -> ApiError {
        match error {
            LookupError::UnknownGlossary(_) => ApiError::not_found(error.to_string()),
            LookupError::NoDictionary { .. } => ApiError::bad_request(error.to_string()),
            LookupError::Store(cause) => ApiError::internal(&cause),
        }
    }
}

#[cfg(test)]
mod tests;
