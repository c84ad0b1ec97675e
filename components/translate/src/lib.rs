//! Component `translate`: `POST /v2/translate` and `POST /v1/translate` (the CAT-tool path,
//! same behaviour and billing). `GET` with query parameters still works for old clients but is
//! deprecated: such answers carry a `Deprecation` header and the request is logged.
//!
//! Order of checks: method, key (403), reporting tag and parameters (400), resources named by
//! id (404), the translation (400, 503), the charge (456). A request that fails anywhere bills
//! nothing.

use accounts::{Access, Charge, Product, ReportingTag, Services};
use api::{ApiError, ApiResponse, Request};
use platform_spin::{Host, incoming, respond};
use serde::Serialize;
use spin_sdk::http_component;
use translation::TranslateRequest;

/// When `GET /v2/translate` was deprecated (2025-03-01), as RFC 9745 writes dates.
const GET_DEPRECATED_SINCE: &str = "@1740787200";

#[http_component]
fn handle(request: spin_sdk::http::Request) -> spin_sdk::http::Response {
    respond(route(&incoming(&request)))
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
    let services = Services { db: &host.db, clock: &host.clock, random: &host.random };
    let (principal, params) = accounts::authenticate_request(&services, &host.vars, request, Access::Developer)?;
    let tag = ReportingTag::from_headers(request.header_values("x-service-reporting-tag"))?;
    let parsed = TranslateRequest::parse(&params)?;

    // Glossaries, style rules and translation memories are not stored yet: every id names
    // nothing this subscription has.
    if let Some(id) = parsed.glossary_ids.first() {
        return Err(ApiError::not_found(format!("Glossary {id} not found.")));
    }
    if let Some(id) = &parsed.style_id {
        return Err(ApiError::not_found(format!("Style rule list {id} not found.")));
    }
    if let Some(id) = &parsed.translation_memory_id {
        return Err(ApiError::not_found(format!("Translation memory {id} not found.")));
    }

    let engine = engines::from_variables(&host.vars, &host.http, Some(&host.kv)).map_err(|error| {
        eprintln!("configuration: {error}");
        ApiError::new(500, api::INTERNAL_ERROR_MESSAGE)
    })?;
    let translations = translation::translate(&parsed, engine.as_ref()).map_err(|error| error.into_api_error())?;
    accounts::charge(
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
