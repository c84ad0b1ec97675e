//! Component `dashboard`: the admin web app, a single-page app of static files under `/admin/`.
//!
//! The files come from the component's Spin `files` mount (the app's sources in
//! `dashboard/web/` and uPlot's prebuilt files, placed under `/admin` in the mount), read with
//! `std::fs` through WASI. `dashboard_site::respond` decides which file a path names and the
//! headers it goes with. The app has no endpoint of its own: in the browser it calls
//! `/v2/admin/*` and `/v2/usage` with the admin key the user enters. This component opens no
//! storage and reads no key.

use api::{ApiError, ApiResponse, Request};
use platform_spin::serve;
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve(request, out, route);
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    dashboard_site::respond(request, |path| std::fs::read(path))
}
