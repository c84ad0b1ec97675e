//! Component `write`: `POST /v2/write/rephrase` and `POST /v2/write/correct`, text improvement.
//!
//! Order of checks: method, key (403), parameters (400), the language-tools service (503 when it
//! is not configured or does not answer), the improvement itself (400 for a text the engine
//! cannot translate into the target), the charge (456). Every character of the request is
//! charged as text improvement once the work succeeded; a request that fails anywhere bills
//! nothing. Reporting tags are recorded for text translation only, so none is read here.

use accounts::Access;
use api::{ApiError, ApiResponse, Request};
use metering::{Charge, Product};
use platform_spin::{Host, serve};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;
use writing::{EngineRephraser, Kind, Rephraser, ServiceTools, WriteRequest};

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve(request, out, route);
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    let kind = match request.path.as_str() {
        "/v2/write/rephrase" => Kind::Rephrase,
        "/v2/write/correct" => Kind::Correct,
        _ => return Err(ApiError::not_found("Not found.")),
    };
    if request.method != "POST" {
        return Err(ApiError::method_not_allowed(&["POST"]));
    }
    let host = Host::for_request(request)?;
    let services = host.services_with_outbound();
    let (principal, params) = accounts::authenticate_request(&services, request, Access::Developer)?;
    let parsed = WriteRequest::from_params(&params, kind)?;
    let tools = ServiceTools::configured(&services)?;
    // With the `openai` engine the model rephrases; with any other, the rules do.
    let rephraser = EngineRephraser::configured(&services);
    let improvements = writing::improve(&parsed, &tools, rephraser.as_ref().map(|engine| engine as &dyn Rephraser))?;
    for (index, not_honoured) in improvements.not_honoured() {
        eprintln!("write: text {index}: {not_honoured}");
    }
    metering::charge(
        &services,
        Charge {
            principal: &principal,
            product: Product::Write,
            units: writing::billed_characters(&parsed),
            tag: None,
        },
    )?;
    Ok(ApiResponse::json(200, &improvements))
}
