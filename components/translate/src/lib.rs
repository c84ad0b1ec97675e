//! Component `translate`: `POST /v2/translate` and `POST /v1/translate` (the CAT-tool path,
//! same behaviour and billing), and `POST /v3/detect/language`, which answers the language of
//! each text with the detector translation uses (not billed). `GET` with query parameters still
//! works for old clients of translate but is deprecated: such answers carry a `Deprecation`
//! header and the request is logged.
//!
//! Order of checks: method, key (403), reporting tag and parameters (400), glossaries named by
//! id (404 unknown, 400 without a dictionary for the pair), the style rule list named by id (404
//! unknown, 400 for another language), the translation memory named by id (404 unknown or
//! without the target), the translation (400, 503), the charge (456). A request that fails
//! anywhere bills nothing.

use accounts::Access;
use api::{ApiError, ApiResponse, Request};
use engines::Engine;
use metering::{Charge, Product, ReportingTag};
use platform_spin::{Host, serve};
use serde::Serialize;
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;
use translation::{DetectRequest, Sources, TranslateRequest};

/// The detection endpoint; every other path routed here is a translate path.
const DETECT_PATH: &str = "/v3/detect/language";

/// Names the engines that translated: `ctranslate2`, or `ctranslate2+apertium` for a pivot through
/// English; several, comma-separated, when texts in several languages took different routes.
const ENGINE_HEADER: &str = "x-service-engine";

/// Names what the request asked that the engines which served it could not honour: each style
/// rule of its list that Glossa does not apply itself (`style_and_tone.formality`), and
/// `custom_instructions`, comma-separated. Absent when everything asked was honoured.
const NOT_APPLIED_HEADER: &str = "x-service-rules-not-applied";

/// When `GET /v2/translate` was deprecated (2025-03-01), as RFC 9745 writes dates.
const GET_DEPRECATED_SINCE: &str = "@1740787200";

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve(request, out, route);
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    if request.path == DETECT_PATH {
        return match request.method.as_str() {
            "POST" => detect(request),
            _ => Err(ApiError::method_not_allowed(&["POST"])),
        };
    }
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
    let services = host.services_with_outbound();
    let (principal, params) = accounts::authenticate_request(&services, request, Access::Developer)?;
    let tag = ReportingTag::from_headers(request.header_values("x-service-reporting-tag"))?;
    let parsed = TranslateRequest::from_params(&params)?;
    let terms = glossary::Terms::resolve(
        services.db,
        &principal.subscription.id,
        &parsed.glossary_ids,
        parsed.source,
        parsed.target,
    )?;
    let styles = styles::Styles::new(services.db, &principal.subscription.id);
    let memories = memory::Memories::new(services.db, &principal.subscription.id);
    let sources = Sources { terms: &terms, styles: &styles, memories: &memories };
    let engine = engines::configured(&services)?;
    let detector = engines::Detector::configured(&services);
    let translations = translation::translate(&parsed, &engine, &sources, &detector)?;
    metering::charge(
        &services,
        Charge {
            principal: &principal,
            product: Product::Translate,
            units: translations.billed_characters(),
            tag: tag.as_ref(),
        },
    )?;

    let served_by = engine.served_by();
    let answer = Answer {
        translations: translations
            .items
            .iter()
            .map(|item| Item {
                detected_source_language: item.detected_source_language,
                text: &item.text,
                billed_characters: parsed.show_billed_characters.then_some(item.billed_characters),
                model_type_used: parsed.model_type.map(|model| model.used(&served_by)),
                tag_handling_version: parsed.tags.as_ref().map(|tags| tags.version.as_str()),
            })
            .collect(),
    };
    let mut response = ApiResponse::json(200, &answer);
    if !served_by.is_empty() {
        response = response.with_header(ENGINE_HEADER, served_by.join(", "));
    }
    if !translations.instructed.is_empty() && !engine.followed_instructions() {
        response = response.with_header(NOT_APPLIED_HEADER, translations.instructed.join(", "));
    }
    Ok(response)
}

/// `POST /v3/detect/language`: authenticated and rate-limited like every request, billed nothing.
fn detect(request: &Request) -> Result<ApiResponse, ApiError> {
    let host = Host::for_request(request)?;
    let services = host.services_with_outbound();
    let (_, params) = accounts::authenticate_request(&services, request, Access::Developer)?;
    let parsed = DetectRequest::from_params(&params)?;
    let detector = engines::Detector::configured(&services);
    Ok(ApiResponse::json(200, &translation::detect_languages(&parsed, &detector)))
}
