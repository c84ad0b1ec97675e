//! Component `health`: `GET /health` (and `HEAD`), the check operators and monitors call.
//!
//! Answers 200 with the report when the engine's settings can work and the database and the
//! key-value store do, 503 with the same report shape when one of them does not (a bad setting
//! is named in the report's `engine` check). The language-tools service, when configured, is
//! asked for its languages; if it does not answer the report is `degraded`, still a 200. It
//! needs no key.

use api::{ApiError, ApiResponse};
use health_check::check;
use platform_spin::{Host, send};
use spin_sdk::http::{IncomingRequest, Method, ResponseOutparam};
use spin_sdk::http_component;

/// Takes the raw request: the check needs only its method, so neither the headers nor the body
/// are read (see [`send`]).
#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    send(out, route(&request.method()));
}

fn route(method: &Method) -> Result<ApiResponse, ApiError> {
    let head = match method {
        Method::Get => false,
        Method::Head => true,
        _ => return Err(ApiError::method_not_allowed(&["GET", "HEAD"])),
    };
    let host = Host::new();
    let report = check(&host.services_with_outbound());
    let status = if report.is_healthy() { 200 } else { 503 };
    let mut response = ApiResponse::json(status, &report).with_header("cache-control", "no-store");
    if head {
        response.body.clear();
    }
    Ok(response)
}
