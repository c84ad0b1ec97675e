//! Component `glossaries`: the glossary API, for developer keys.
//!
//! v2 (one language pair per glossary):
//!
//! * `POST /v2/glossaries` (`name`, `source_lang`, `target_lang`, `entries`, `entries_format`) → 201
//! * `GET /v2/glossaries`, `GET /v2/glossaries/{id}`, `DELETE /v2/glossaries/{id}` → 204
//! * `GET /v2/glossaries/{id}/entries`: TSV (`Accept` must allow `text/tab-separated-values`)
//!
//! v3 (a glossary holds dictionaries, one per language pair):
//!
//! * `POST /v3/glossaries` (`name`, `dictionaries`: a JSON array, or indexed form keys
//!   `dictionaries[0].source_lang=…`) → 201; `GET /v3/glossaries`
//! * `GET`, `PATCH` (rename, merge entries into one dictionary), `DELETE /v3/glossaries/{id}`
//! * `PUT /v3/glossaries/{id}/dictionaries` (replace one dictionary),
//!   `DELETE /v3/glossaries/{id}/dictionaries?source_lang=…&target_lang=…`
//! * `GET /v3/glossaries/{id}/entries?source_lang=…&target_lang=…`
//!
//! Both versions see the same glossaries: a v2 glossary is a glossary with one dictionary, and
//! v2 reads of a glossary with another number of dictionaries are refused with a pointer to v3.
//! Another subscription's glossary answers 404, like an unknown one. The pairs accepted are
//! those `/v2/glossary-language-pairs` lists: glossary languages the engine translates between.

use accounts::{Access, Principal};
use api::params::missing;
use api::{ApiError, ApiResponse, Request};
use catalogue::Coverage;
use engines::Engine;
use glossary::{DictionaryEntries, DictionaryObject, Monolingual, Multilingual, Operation, Patch, TSV, glossary_id};
use platform_spin::{Host, serve_admitted};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve_admitted(request, out, admit, route);
}

/// Before a body larger than an unauthenticated request may send is read: the key in the
/// `Authorization` header must be a valid developer key. The principal goes on to [`route`],
/// which does not authenticate the request again, so that it counts once against its key's rate.
fn admit(head: &Request) -> Result<Principal, ApiError> {
    let host = Host::for_request(head)?;
    accounts::authenticate_header(&host.services(), head, Access::Developer)
}

/// What a path of this component names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Endpoint<'a> {
    /// `/v2/glossaries`, `/v3/glossaries`
    Collection(Version),
    /// `/v{2,3}/glossaries/{id}`
    Glossary(Version, &'a str),
    /// `/v{2,3}/glossaries/{id}/entries`
    Entries(Version, &'a str),
    /// `/v3/glossaries/{id}/dictionaries`
    Dictionaries(&'a str),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Version {
    V2,
    V3,
}

impl<'a> Endpoint<'a> {
    fn of(path: &'a str) -> Option<Endpoint<'a>> {
        let (version, parts) = match api::path_segments(path, "/v2/glossaries") {
            Some(parts) => (Version::V2, parts),
            None => (Version::V3, api::path_segments(path, "/v3/glossaries")?),
        };
        let mut parts = parts.into_iter();
        match (parts.next(), parts.next(), parts.next()) {
            (None, ..) => Some(Endpoint::Collection(version)),
            (Some(id), None, _) if !id.is_empty() => Some(Endpoint::Glossary(version, id)),
            (Some(id), Some("entries"), None) if !id.is_empty() => Some(Endpoint::Entries(version, id)),
            (Some(id), Some("dictionaries"), None) if !id.is_empty() && version == Version::V3 => {
                Some(Endpoint::Dictionaries(id))
            }
            _ => None,
        }
    }

    /// What a request with `method` does here, for the parameters it takes.
    fn operation(self, method: &str) -> Operation {
        match (self, method) {
            (Endpoint::Collection(Version::V2), "POST") => Operation::CreateV2,
            (Endpoint::Collection(Version::V3), "POST") => Operation::CreateV3,
            (Endpoint::Glossary(Version::V3, _), "PATCH") => Operation::Patch,
            (Endpoint::Dictionaries(_), "PUT") => Operation::ReplaceDictionary,
            (Endpoint::Dictionaries(_), _) | (Endpoint::Entries(Version::V3, _), _) => Operation::SelectDictionary,
            _ => Operation::Plain,
        }
    }

    fn methods(self) -> &'static [&'static str] {
        match self {
            Endpoint::Collection(_) => &["GET", "POST"],
            Endpoint::Glossary(Version::V2, _) => &["GET", "DELETE"],
            Endpoint::Glossary(Version::V3, _) => &["GET", "PATCH", "DELETE"],
            Endpoint::Entries(..) => &["GET"],
            Endpoint::Dictionaries(_) => &["PUT", "DELETE"],
        }
    }
}

/// `admitted`: the principal [`admit`] authenticated, if the body was large enough for it to run.
fn route(request: &Request, admitted: Option<Principal>) -> Result<ApiResponse, ApiError> {
    let endpoint = Endpoint::of(request.path.trim_end_matches('/')).ok_or_else(|| ApiError::not_found("Not found."))?;
    let method = request.method.as_str();
    if !endpoint.methods().contains(&method) {
        return Err(ApiError::method_not_allowed(endpoint.methods()));
    }
    let host = Host::for_request(request)?;
    let services = host.services_with_outbound();
    // The body is read as it streams, refused at the first thing past a limit (the glossary
    // crate's reader); its `auth_key`, if any, is a credential like the header. A request
    // `admit` authenticated carries the header, which always wins over `auth_key`: nothing in the
    // body can change who calls, and authenticating again would count it twice.
    let mut body = glossary::read(request, endpoint.operation(method))?;
    let principal = accounts::admitted_principal(&services, request, body.params(), admitted, Access::Developer)?;
    let params = body.params();
    let subscription = principal.subscription.id.as_str();
    let db = services.db;
    // What the engine translates, read only by the calls that store entries.
    let coverage = || -> Result<Coverage, ApiError> { Ok(engines::configured(&services)?.coverage()?) };

    match (endpoint, method) {
        (Endpoint::Collection(Version::V2), "POST") => {
            let name = glossary::name(params)?.ok_or_else(|| missing("name"))?;
            let dictionary = glossary::dictionary(params, &coverage()?)?;
            let created = glossary::store::create(&services, subscription, &name, &[dictionary])?;
            Ok(ApiResponse::json(201, &Monolingual::of(&created)?))
        }
        (Endpoint::Collection(Version::V3), "POST") => {
            let name = glossary::name(params)?.ok_or_else(|| missing("name"))?;
            let dictionaries = glossary::dictionaries(&mut body, &coverage()?)?
                .filter(|dictionaries| !dictionaries.is_empty())
                .ok_or_else(|| missing("dictionaries"))?;
            let created = glossary::store::create(&services, subscription, &name, &dictionaries)?;
            Ok(ApiResponse::json(201, &Multilingual::from(&created)))
        }
        (Endpoint::Collection(version), _) => {
            let glossaries = glossary::store::list(db, subscription)?;
            Ok(match version {
                Version::V2 => ApiResponse::json(200, &Monolingual::listing(&glossaries)),
                Version::V3 => ApiResponse::json(200, &Multilingual::listing(&glossaries)),
            })
        }
        (Endpoint::Glossary(_, id), "DELETE") => {
            glossary::store::delete(&services, subscription, &glossary_id(id)?)?;
            Ok(no_content())
        }
        (Endpoint::Glossary(Version::V3, id), "PATCH") => {
            let id = glossary_id(id)?;
            let patch = Patch::from_body(&mut body, &coverage()?)?;
            let updated =
                glossary::store::update(&services, subscription, &id, patch.name.as_deref(), patch.merge.as_ref())?;
            Ok(ApiResponse::json(200, &Multilingual::from(&updated)))
        }
        (Endpoint::Glossary(version, id), _) => {
            let found = glossary::store::get(db, subscription, &glossary_id(id)?)?;
            Ok(match version {
                Version::V2 => ApiResponse::json(200, &Monolingual::of(&found)?),
                Version::V3 => ApiResponse::json(200, &Multilingual::from(&found)),
            })
        }
        (Endpoint::Entries(Version::V2, id), _) => {
            if !glossary::accepts_tsv(request) {
                return Err(ApiError::new(415, "No supported media type specified in Accept header"));
            }
            let id = glossary_id(id)?;
            let found = glossary::store::get(db, subscription, &id)?;
            Monolingual::of(&found)?;
            let pair = &found.dictionaries[0].pair;
            let entries = glossary::store::entries(db, subscription, &id, pair)?;
            Ok(ApiResponse {
                status: 200,
                headers: vec![("content-type".into(), format!("{TSV}; charset=UTF-8"))],
                body: glossary::entries::to_tsv(&entries).into_bytes(),
            })
        }
        (Endpoint::Entries(Version::V3, id), _) => {
            let pair = glossary::requested_pair(params)?;
            let entries = glossary::store::entries(db, subscription, &glossary_id(id)?, &pair)?;
            Ok(ApiResponse::json(200, &DictionaryEntries::new(&pair, &entries)))
        }
        (Endpoint::Dictionaries(id), "PUT") => {
            let id = glossary_id(id)?;
            let dictionary = glossary::dictionary(params, &coverage()?)?;
            let info = glossary::store::replace_dictionary(&services, subscription, &id, &dictionary)?;
            Ok(ApiResponse::json(200, &DictionaryObject::from(&info)))
        }
        (Endpoint::Dictionaries(id), _) => {
            let pair = glossary::requested_pair(params)?;
            glossary::store::delete_dictionary(db, subscription, &glossary_id(id)?, &pair)?;
            Ok(no_content())
        }
    }
}

fn no_content() -> ApiResponse {
    ApiResponse { status: 204, headers: Vec::new(), body: Vec::new() }
}
