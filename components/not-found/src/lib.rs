//! Component `not-found`: the route `/...`, which every path that no other route claims falls to
//! (a host routes a request to its most specific match). It answers `404` in the API's error shape,
//! `{"message": ...}` with an `X-Trace-ID`, as every other error does, instead of the host's bare
//! 404. It reads nothing of the request but its path, and opens no storage.

use api::ApiError;
use platform_spin::send;
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    let target = request.path_with_query().unwrap_or_default();
    let path = target.split('?').next().unwrap_or_default();
    send(out, Err(ApiError::nothing_served_at(path)));
}
