//! What the HTTP edge needs from glossaries: ids from paths, names, pairs and dictionaries from
//! request parameters, content negotiation for TSV, and the answer for each failure.

use api::{ApiError, Params, Request};
use catalogue::Coverage;
use platform::Id;
use serde_json::Value;

use crate::request::{self, Patch, RawDictionary, RequestError};
use crate::store::{GlossaryError, LanguagePair, LookupError, NewDictionary};

/// The only media type v2 entries are served as.
pub const TSV: &str = "text/tab-separated-values";

/// A glossary id from a path; anything but a UUID names no glossary (404).
pub fn glossary_id(raw: &str) -> Result<Id, ApiError> {
    Id::parse(raw).ok_or_else(|| GlossaryError::NotFound.into())
}

/// The optional `name` ([`request::name`]).
pub fn name(params: &Params) -> Result<Option<String>, ApiError> {
    Ok(request::name(params.string("name")?)?)
}

/// The pair `source_lang` and `target_lang` name, for reading and deleting a dictionary.
pub fn requested_pair(params: &Params) -> Result<LanguagePair, ApiError> {
    let (source, target) = (params.string("source_lang")?, params.string("target_lang")?);
    Ok(request::requested_pair(source.as_deref(), target.as_deref())?)
}

/// The dictionary of a v2 create or a `PUT .../dictionaries` (or one object of a v3
/// `dictionaries` array): its pair checked against `coverage`, its entries against every rule.
pub fn dictionary(params: &Params, coverage: &Coverage) -> Result<NewDictionary, ApiError> {
    let raw = RawDictionary {
        source_lang: params.string("source_lang")?,
        target_lang: params.string("target_lang")?,
        entries: params.string("entries")?,
        entries_format: params.string("entries_format")?,
    };
    Ok(NewDictionary::parse(raw, coverage)?)
}

/// The `dictionaries` of a v3 request: a JSON array of dictionary objects (a form may carry the
/// array as JSON text), one per pair. `None` when absent.
pub fn dictionaries(params: &Params, coverage: &Coverage) -> Result<Option<Vec<NewDictionary>>, ApiError> {
    let items = match params.value("dictionaries") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items.clone(),
        Some(Value::String(text)) => match serde_json::from_str(text) {
            Ok(Value::Array(items)) => items,
            _ => return Err(RequestError::NotDictionaries.into()),
        },
        Some(_) => return Err(RequestError::NotDictionaries.into()),
    };
    let mut dictionaries: Vec<NewDictionary> = Vec::with_capacity(items.len());
    for item in items {
        let Value::Object(fields) = item else { return Err(RequestError::NotDictionaries.into()) };
        let dictionary = dictionary(&Params::from_object(fields), coverage)?;
        request::add_distinct(&mut dictionaries, dictionary)?;
    }
    Ok(Some(dictionaries))
}

impl Patch {
    /// A v3 PATCH's `name` and `dictionaries`.
    pub fn from_params(params: &Params, coverage: &Coverage) -> Result<Patch, ApiError> {
        Ok(Patch::new(name(params)?, dictionaries(params, coverage)?)?)
    }
}

/// Whether the request's `Accept` allows TSV (no `Accept` allows anything).
pub fn accepts_tsv(request: &Request) -> bool {
    let values: Vec<&str> =
        request.header_values("accept").filter_map(|value| std::str::from_utf8(value).ok()).collect();
    values.is_empty()
        || values.iter().flat_map(|value| value.split(',')).any(|range| {
            let media = range.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
            matches!(media.as_str(), "" | "*/*" | "text/*" | TSV)
        })
}

impl From<RequestError> for ApiError {
    fn from(error: RequestError) -> ApiError {
        match error {
            RequestError::Entries(entries) => {
                ApiError::bad_request(request::INVALID_ENTRIES).with_detail(entries.to_string())
            }
            refused => ApiError::bad_request(refused.to_string()),
        }
    }
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
mod tests {
    use super::*;

    fn params(json: &str) -> Params {
        Params::from_json(json.as_bytes()).unwrap()
    }

    #[test]
    fn request_readers_check_languages_pairs_names_and_entries() {
        let all = Coverage::All;
        let read = dictionary(&params(r#"{"source_lang": "EN", "target_lang": "pt-BR", "entries": "a\tb"}"#), &all);
        assert_eq!(read.unwrap().pair, LanguagePair::new("en", "pt"), "a variant stands for its base");
        let error = dictionary(&params(r#"{"source_lang": "en", "target_lang": "de", "entries": "a b"}"#), &all);
        let error = error.unwrap_err();
        assert_eq!((error.status, error.message.as_str()), (400, request::INVALID_ENTRIES));
        assert_eq!(
            error.detail.as_deref(),
            Some("Entry with the index 0 (starting at position 0) misses tab separator")
        );
        let error = dictionary(&params(r#"{"source_lang": ["en"], "target_lang": "de", "entries": "a\tb"}"#), &all);
        assert_eq!(error.unwrap_err().message, "Value for 'source_lang' not supported.");

        assert_eq!(name(&params(r#"{"name": "x"}"#)).unwrap().as_deref(), Some("x"));
        assert_eq!(name(&params(r#"{"name": " "}"#)).unwrap_err().message, "Parameter 'name' not specified");

        let two = params(
            r#"{"dictionaries": [{"source_lang": "en", "target_lang": "de", "entries": "a\tb"},
                                  {"source_lang": "EN", "target_lang": "DE", "entries": "c\td"}]}"#,
        );
        assert!(dictionaries(&two, &all).unwrap_err().message.contains("two dictionaries"));
        assert!(dictionaries(&params(r#"{"dictionaries": "nope"}"#), &all).is_err());
        assert!(dictionaries(&params(r#"{"dictionaries": [5]}"#), &all).is_err());
        let as_text = params(
            r#"{"dictionaries": "[{\"source_lang\": \"en\", \"target_lang\": \"de\", \"entries\": \"a\\tb\"}]"}"#,
        );
        assert_eq!(dictionaries(&as_text, &all).unwrap().unwrap().len(), 1);
        assert!(dictionaries(&params("{}"), &all).unwrap().is_none());
        assert_eq!(
            Patch::from_params(&params("{}"), &all).unwrap_err().message,
            "Parameter 'name' or 'dictionaries' not specified"
        );
    }

    #[test]
    fn a_path_that_is_no_uuid_names_no_glossary() {
        let error = glossary_id("not-a-glossary").unwrap_err();
        assert_eq!((error.status, error.message.as_str()), (404, "Glossary not found."));
        assert_eq!(
            glossary_id("DEF3A26B-3E84-45B3-84AE-0C0AAF3525F7").unwrap().to_string(),
            "def3a26b-3e84-45b3-84ae-0c0aaf3525f7"
        );
    }

    #[test]
    fn tsv_is_accepted_unless_accept_rules_it_out() {
        let request = |accept: &[&str]| Request {
            method: "GET".into(),
            path: "/v2/glossaries/x/entries".into(),
            query: String::new(),
            headers: accept.iter().map(|value| ("accept".to_owned(), value.as_bytes().to_vec())).collect(),
            body: Vec::new(),
        };
        assert!(accepts_tsv(&request(&[])));
        assert!(accepts_tsv(&request(&["application/json, text/*;q=0.5"])));
        assert!(accepts_tsv(&request(&["text/tab-separated-values"])));
        assert!(!accepts_tsv(&request(&["application/json"])));
    }
}
