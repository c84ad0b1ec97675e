//! Component `usage`: `GET /v2/usage` (and `POST`, which old clients use), the caller's usage
//! and limits in the current billing period. Developer and admin keys may both ask; a Free
//! subscription gets the character count and limit only.

use accounts::Access;
use api::{ApiError, ApiResponse, Request};
use platform_spin::{Host, serve};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve(request, out, route);
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    if !matches!(request.method.as_str(), "GET" | "POST") {
        return Err(ApiError::method_not_allowed(&["GET", "POST"]));
    }
    let host = Host::for_request(request)?;
    let services = host.services();
    let (principal, _) = accounts::authenticate_request(&services, request, Access::Any)?;
    let report = metering::usage_report(&services, &principal)?;
    Ok(ApiResponse::json(200, &report))
}
