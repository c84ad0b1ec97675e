//! What the HTTP edge needs from glossaries: ids from paths, a request's body read as it
//! streams (`upload.rs`), names, pairs and dictionaries from its parameters, content
//! negotiation for TSV, and the answer for each failure.

use api::params::{BodyFormat, Charset, form_pairs};
use api::{ApiError, Params, Request};
use catalogue::Coverage;
use platform::Id;

use crate::request::{self, Patch, RawDictionary, RequestError};
use crate::store::{GlossaryError, LanguagePair, LookupError, NewDictionary};
use crate::upload::{self, Accepted, RawUpload, UploadError};

/// The only media type v2 entries are served as.
pub const TSV: &str = "text/tab-separated-values";

/// A glossary id from a path; anything but a UUID names no glossary (404).
pub fn glossary_id(raw: &str) -> Result<Id, ApiError> {
    Id::parse(raw).ok_or_else(|| GlossaryError::NotFound.into())
}

/// What a glossary request does, for the parameters it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// `POST /v2/glossaries`
    CreateV2,
    /// `POST /v3/glossaries`
    CreateV3,
    /// `PATCH /v3/glossaries/{id}`
    Patch,
    /// `PUT /v3/glossaries/{id}/dictionaries`
    ReplaceDictionary,
    /// `GET /v3/glossaries/{id}/entries`, `DELETE /v3/glossaries/{id}/dictionaries`
    SelectDictionary,
    /// Listings, reads and deletes of whole glossaries, v2 entries: no parameters.
    Plain,
}

impl Operation {
    fn accepted(self) -> Accepted<'static> {
        Accepted(match self {
            Operation::CreateV2 => &["name", "source_lang", "target_lang", "entries", "entries_format"],
            Operation::CreateV3 | Operation::Patch => &["name", "dictionaries"],
            Operation::ReplaceDictionary => &["source_lang", "target_lang", "entries", "entries_format"],
            Operation::SelectDictionary => &["source_lang", "target_lang"],
            Operation::Plain => &[],
        })
    }
}

/// A glossary request's parameters (the body's, then the query string's that the body lacks)
/// and its `dictionaries`, read by [`read`].
#[derive(Debug)]
pub struct Body {
    params: Params,
    dictionaries: Option<Vec<RawDictionary>>,
}

impl Body {
    /// Every parameter but the dictionaries (the credentials' `auth_key` among them).
    pub fn params(&self) -> &Params {
        &self.params
    }
}

/// Reads a glossary request's body (by its `Content-Type` and charset) and query string as
/// they stream: a parameter `operation` does not take, a repeated one, a malformed dictionary
/// and one past the limits are refused at once, naming it. The body's size was checked
/// against the route's limit when it was read (`api::limits`).
pub fn read(request: &Request, operation: Operation) -> Result<Body, ApiError> {
    let accepted = operation.accepted();
    let mut upload = if request.body.is_empty() {
        RawUpload::default()
    } else {
        api::params::check_body_size(&request.body, api::limits::body_limit(&request.path))?;
        match BodyFormat::of(request.header("content-type"))? {
            BodyFormat::Json => upload::read_json(&request.body, accepted)?,
            BodyFormat::Form(charset) => upload::read_form(form_pairs(&request.body, charset), accepted)?,
        }
    };
    let query = upload::read_form(form_pairs(request.query.as_bytes(), Charset::UTF_8), accepted)?;
    for (name, value) in query.params {
        if !upload.params.iter().any(|(given, _)| *given == name) {
            upload.params.push((name, value));
        }
    }
    if upload.dictionaries.is_none() {
        upload.dictionaries = query.dictionaries;
    }
    Ok(Body { params: upload.params.into_iter().collect(), dictionaries: upload.dictionaries })
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

/// The dictionary of a v2 create or a `PUT .../dictionaries`: its pair checked against
/// `coverage`, its entries against every rule and limit.
pub fn dictionary(params: &Params, coverage: &Coverage) -> Result<NewDictionary, ApiError> {
    let raw = RawDictionary {
        source_lang: params.string("source_lang")?,
        target_lang: params.string("target_lang")?,
        entries: params.string("entries")?,
        entries_format: params.string("entries_format")?,
    };
    Ok(NewDictionary::parse(raw, coverage)?)
}

/// The `dictionaries` of a v3 request, in the order sent, one per pair, within the limits
/// ([`request::dictionaries`]); `None` when absent. Taken out of `body`.
pub fn dictionaries(body: &mut Body, coverage: &Coverage) -> Result<Option<Vec<NewDictionary>>, ApiError> {
    match body.dictionaries.take() {
        None => Ok(None),
        Some(raws) => Ok(Some(request::dictionaries(raws, coverage)?)),
    }
}

impl Patch {
    /// A v3 PATCH's `name` and `dictionaries`.
    pub fn from_body(body: &mut Body, coverage: &Coverage) -> Result<Patch, ApiError> {
        let name = name(body.params())?;
        Ok(Patch::new(name, dictionaries(body, coverage)?)?)
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

impl From<UploadError> for ApiError {
    fn from(error: UploadError) -> ApiError {
        match error {
            UploadError::EntriesTooLarge(_) => ApiError::new(413, error.to_string()),
            refused => ApiError::bad_request(refused.to_string()),
        }
    }
}

impl From<RequestError> for ApiError {
    fn from(error: RequestError) -> ApiError {
        match error {
            RequestError::Entries(detail) => ApiError::bad_request(request::INVALID_ENTRIES).with_detail(detail),
            too_large @ RequestError::EntriesTooLarge { .. } => ApiError::new(413, too_large.to_string()),
            refused => ApiError::bad_request(refused.to_string()),
        }
    }
}

impl From<GlossaryError> for ApiError {
    fn from(error: GlossaryError) -> ApiError {
        match error {
            GlossaryError::NotFound | GlossaryError::DictionaryNotFound => ApiError::not_found(error.to_string()),
            GlossaryError::TooMany => ApiError::new(456, error.to_string()),
            GlossaryError::TooManyDictionaries | GlossaryError::TooManyEntries => {
                ApiError::bad_request(error.to_string())
            }
            // Nothing was changed, and trying again later may well succeed (clients retry a 503).
            GlossaryError::Contended(_) => ApiError::unavailable(error.to_string()),
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

    fn post(content_type: &str, body: &str) -> Request {
        Request {
            method: "POST".into(),
            path: "/v3/glossaries".into(),
            query: String::new(),
            headers: vec![("content-type".to_owned(), content_type.as_bytes().to_vec())],
            body: body.as_bytes().to_vec(),
        }
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
    }

    #[test]
    fn bodies_are_read_in_json_and_in_indexed_forms_alike() {
        let all = Coverage::All;
        let json = post(
            "application/json",
            r#"{"name": "T", "dictionaries": [{"source_lang": "en", "target_lang": "de", "entries": "a\tb"},
                                              {"source_lang": "de", "target_lang": "en", "entries": "b\ta"}]}"#,
        );
        let form = post(
            "application/x-www-form-urlencoded",
            "name=T&dictionaries%5B0%5D.source_lang=en&dictionaries[0].target_lang=de&dictionaries[0].entries=a%09b\
             &dictionaries[1].source_lang=de&dictionaries[1].target_lang=en&dictionaries[1].entries=b%09a",
        );
        for request in [json, form] {
            let mut body = read(&request, Operation::CreateV3).unwrap();
            assert_eq!(name(body.params()).unwrap().as_deref(), Some("T"));
            let read = dictionaries(&mut body, &all).unwrap().unwrap();
            let pairs: Vec<String> = read.iter().map(|d| d.pair.to_string()).collect();
            assert_eq!(pairs, ["EN → DE", "DE → EN"]);
        }
        let two = post(
            "application/json",
            r#"{"dictionaries": [{"source_lang": "en", "target_lang": "de", "entries": "a\tb"},
                                  {"source_lang": "EN", "target_lang": "DE", "entries": "c\td"}]}"#,
        );
        let mut body = read(&two, Operation::CreateV3).unwrap();
        assert!(dictionaries(&mut body, &all).unwrap_err().message.contains("two dictionaries"));
        let mut empty = read(&post("application/json", "{}"), Operation::Patch).unwrap();
        assert_eq!(
            Patch::from_body(&mut empty, &all).unwrap_err().message,
            "Parameter 'name' or 'dictionaries' not specified"
        );
    }

    #[test]
    fn what_a_request_does_not_take_is_refused_not_ignored() {
        let patch = post("application/x-www-form-urlencoded", "name=x&entries=a%09b");
        let error = read(&patch, Operation::Patch).unwrap_err();
        assert_eq!(
            (error.status, error.message.as_str()),
            (400, "Unknown parameter 'entries': this request takes 'name', 'dictionaries'.")
        );
        let mut in_query = post("application/json", r#"{"name": "x"}"#);
        in_query.query = "source_lang=en".into();
        assert_eq!(read(&in_query, Operation::Patch).unwrap_err().status, 400);
        in_query.query = "auth_key=secret&name=ignored".into();
        let body = read(&in_query, Operation::Patch).unwrap();
        assert_eq!(body.params().string("name").unwrap().as_deref(), Some("x"), "the body's value wins");
        assert_eq!(body.params().string("auth_key").unwrap().as_deref(), Some("secret"));
    }

    #[test]
    fn failures_answer_with_their_status() {
        let too_large = post(
            "application/json",
            &format!(r#"{{"dictionaries": [{{"entries": "{}"}}]}}"#, "a".repeat((10 << 20) + 1)),
        );
        let error = read(&too_large, Operation::CreateV3).unwrap_err();
        assert_eq!(error.status, 413);
        assert!(error.message.contains("10 MiB"), "{}", error.message);
        assert_eq!(read(&post("text/plain", "x"), Operation::CreateV3).unwrap_err().status, 415);
        let latin1 =
            read(&post("application/x-www-form-urlencoded; charset=latin1", "name=Gr%FC%DFe"), Operation::Patch);
        assert_eq!(name(latin1.unwrap().params()).unwrap().as_deref(), Some("Grüße"));
        let charset = read(&post("application/x-www-form-urlencoded; charset=klingon", "name=x"), Operation::Patch);
        assert_eq!(charset.unwrap_err().status, 415);
        assert_eq!(read(&post("application/json", "[]"), Operation::CreateV3).unwrap_err().status, 400);
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
