//! Component `translate`: `POST /v2/translate` and `POST /v1/translate` (the CAT-tool path,
//! same behaviour and billing). `GET` with query parameters still works for old clients but is
//! deprecated: such answers carry a `Deprecation` header and the request is logged.
//!
//! Order of checks: method, key (403), reporting tag and parameters (400), resources named by
//! id (404 for unknown glossaries, 400 for a glossary without a dictionary for the pair), the
//! translation (400, 503), the charge (456). A request that fails anywhere bills nothing.

use accounts::Access;
use api::{ApiError, ApiResponse, Request};
use glossary::{LanguagePair, Selection};
use metering::{Charge, Product, ReportingTag};
use platform_spin::{Host, serve};
use serde::Serialize;
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;
use translation::{Term, TermSource, TranslateRequest};

/// When `GET /v2/translate` was deprecated (2025-03-01), as RFC 9745 writes dates.
const GET_DEPRECATED_SINCE: &str = "@1740787200";

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve(request, out, route);
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    let deprecated_get = match request.method.as_str() {
        "POST" => false,
        "GET" => true,
        _ => return Err(ApiError::method_not_allowed(&["POST"])),
    };
    if deprecated_get {
        eprintln!("deprecated: GET {} with query parameters (clients should POST a body)", request.path);
    }
    let response = translate(request)?;
    Ok(if deprecated_get { response.with_header("deprecation", GET_DEPRECATED_SINCE) } else { response })
}

/// One item of the answer.
#[derive(Serialize)]
struct Item<'a> {
    detected_source_language: &'a str,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    billed_characters: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model_type_used: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tag_handling_version: Option<&'static str>,
}

#[derive(Serialize)]
struct Answer<'a> {
    translations: Vec<Item<'a>>,
}

fn translate(request: &Request) -> Result<ApiResponse, ApiError> {
    let host = Host::for_request(request)?;
    let services = host.services();
    let (principal, params) = accounts::authenticate_request(&services, request, Access::Developer)?;
    let tag = ReportingTag::from_headers(request.header_values("x-service-reporting-tag"))?;
    let parsed = TranslateRequest::parse(&params)?;

    let glossary = match parsed.source.filter(|_| !parsed.glossary_ids.is_empty()) {
        Some(source) => {
            // A dictionary for a base language serves its variants (EN for EN-GB).
            let pair = LanguagePair::new(source.base_code(), parsed.target.base_code());
            Some(Selection::resolve(services.db, &principal.subscription.id, &parsed.glossary_ids, &pair)?)
        }
        None => None,
    };
    // Style rules and translation memories are not stored yet: every id names nothing this
    // subscription has.
    if let Some(id) = &parsed.style_id {
        return Err(ApiError::not_found(format!("Style rule list {id} not found.")));
    }
    if let Some(id) = &parsed.translation_memory_id {
        return Err(ApiError::not_found(format!("Translation memory {id} not found.")));
    }

    let engine = engines::configured(&services)?;
    let terms = StoredTerms { db: services.db, selection: glossary.as_ref() };
    let translations =
        translation::translate(&parsed, engine.as_ref(), &terms).map_err(|error| error.into_api_error())?;
    metering::charge(
        &services,
        Charge {
            principal: &principal,
            product: Product::Translate,
            units: translations.billed_characters(),
            tag: tag.as_ref(),
        },
    )?;

    let answer = Answer {
        translations: translations
            .items
            .iter()
            .map(|item| Item {
                detected_source_language: item.detected_source_language,
                text: &item.text,
                billed_characters: parsed.show_billed_characters.then_some(item.billed_characters),
                model_type_used: parsed.model_type.map(|model| model.used()),
                tag_handling_version: parsed.tags.as_ref().map(|tags| tags.version.as_str()),
            })
            .collect(),
    };
    Ok(ApiResponse::json(200, &answer))
}

/// The entries of the request's glossaries, read from the store as the translation asks.
struct StoredTerms<'a> {
    db: &'a dyn platform::Database,
    selection: Option<&'a Selection>,
}

impl TermSource for StoredTerms<'_> {
    fn terms_for(
        &self,
        keys: &std::collections::BTreeSet<String>,
    ) -> Result<Vec<Term>, Box<dyn std::error::Error + Send + Sync>> {
        match self.selection {
            Some(selection) => Ok(selection.entries_for(self.db, keys)?),
            None => Ok(Vec::new()),
        }
    }
}
