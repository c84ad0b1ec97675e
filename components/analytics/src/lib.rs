//! Component `analytics`: a subscription's usage analytics, for admin keys (`…:adm`) of Free
//! and Pro subscriptions alike.
//!
//! * `GET /v2/admin/analytics` (`start_date`, `end_date`, optional `group_by`: `key` or
//!   `key_and_day`): usage in total, per key, or per key and day.
//! * `GET /v2/admin/analytics/custom-tags` (`start_date`, `end_date`, optional `aggregate_by`:
//!   `period` or `day`, and `page`): tagged usage per tag, a page of 100 entries at a time.
//!
//! Both are real time (today included), count whole UTC days with `end_date` included, and see
//! only the caller's subscription (`metering::key_report`, `metering::custom_tag_report`).

use accounts::Access;
use api::{ApiError, ApiResponse, Request};
use metering::{CustomTagQuery, KeyReportQuery};
use platform_spin::{Host, serve};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve(request, out, route);
}

/// The two reports this component answers.
enum Report {
    Keys,
    CustomTags,
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    let report = match request.path.trim_end_matches('/') {
        "/v2/admin/analytics" => Report::Keys,
        "/v2/admin/analytics/custom-tags" => Report::CustomTags,
        _ => return Err(ApiError::not_found("Not found.")),
    };
    if request.method != "GET" {
        return Err(ApiError::method_not_allowed(&["GET"]));
    }
    let host = Host::for_request(request)?;
    let services = host.services();
    let (admin, params) = accounts::authenticate_request(&services, request, Access::Admin)?;
    let subscription_id = &admin.subscription.id;
    match report {
        Report::Keys => {
            let query = KeyReportQuery::from_params(&params)?;
            Ok(ApiResponse::json(200, &metering::key_report(services.db, subscription_id, &query)?))
        }
        Report::CustomTags => {
            let query = CustomTagQuery::from_params(&params)?;
            Ok(ApiResponse::json(200, &metering::custom_tag_report(services.db, subscription_id, &query)?))
        }
    }
}
