//! Component `documents`: document translation, for developer keys.
//!
//! * `POST /v2/document` (multipart/form-data: `file`, `target_lang`, ...) → `document_id` and
//!   `document_key`; the translation goes on after the response
//! * `POST /v2/document/{document_id}` (`document_key`; `GET` with a query too) → the status,
//!   after working on the document when no worker holds it
//! * `POST /v2/document/{document_id}/result` (the same) → the translated file, once
//!
//! Order of checks on upload: method, key (403), the file and parameters (400, 413), a PDF's text
//! read by the language-tools service (400 unreadable, 503 without the service), what they name
//! by id (404, 400), the reservation (456). Bodies up to 128 KiB are read before the key is
//! checked; a larger one only once the key in its `Authorization` header is a developer key.

use accounts::{Access, Principal};
use api::{ApiError, ApiResponse, Params, Request};
use document::{Engines, StatusView};
use metering::ReportingTag;
use platform_spin::{Answer, Host, Services, serve_then};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve_then(request, out, admit, route);
}

/// Before a body larger than an unauthenticated request may send is read, the key in the
/// `Authorization` header must be a valid developer key; [`route`] does not authenticate again.
fn admit(head: &Request) -> Result<Principal, ApiError> {
    let host = Host::for_request(head)?;
    accounts::authenticate_header(&host.services(), head, Access::Developer)
}

/// What a path of this component names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Endpoint<'a> {
    /// `/v2/document`
    Upload,
    /// `/v2/document/{document_id}`
    Status(&'a str),
    /// `/v2/document/{document_id}/result`
    Result(&'a str),
}

impl<'a> Endpoint<'a> {
    fn of(path: &'a str) -> Option<Endpoint<'a>> {
        match api::path_segments(path, "/v2/document")?.as_slice() {
            [] => Some(Endpoint::Upload),
            [id] if !id.is_empty() => Some(Endpoint::Status(id)),
            [id, "result"] if !id.is_empty() => Some(Endpoint::Result(id)),
            _ => None,
        }
    }

    fn methods(self) -> &'static [&'static str] {
        match self {
            Endpoint::Upload => &["POST"],
            Endpoint::Status(_) | Endpoint::Result(_) => &["POST", "GET"],
        }
    }
}

fn route(request: &Request, admitted: Option<Principal>) -> Result<Answer, ApiError> {
    let endpoint = Endpoint::of(request.path.trim_end_matches('/')).ok_or_else(|| ApiError::not_found("Not found."))?;
    if !endpoint.methods().contains(&request.method.as_str()) {
        return Err(ApiError::method_not_allowed(endpoint.methods()));
    }
    match endpoint {
        Endpoint::Upload => upload(request, admitted),
        Endpoint::Status(id) => status(request, admitted, id).map(Answer::from),
        Endpoint::Result(id) => result(request, admitted, id).map(Answer::from),
    }
}

/// `POST /v2/document`: the document stored and its characters reserved; its translation
/// begins once the answer has been sent.
fn upload(request: &Request, admitted: Option<Principal>) -> Result<Answer, ApiError> {
    let host = Host::for_request(request)?;
    let handle = {
        let services = host.services_with_outbound();
        let read = document::read_upload(request);
        let params = read.as_ref().map_or_else(|_| Params::default(), |(_, params)| params.clone());
        let principal = accounts::admitted_principal(&services, request, &params, admitted, Access::Developer)?;
        let (raw, _) = read?;
        // Checked as on every request; tags count text translation only, so it is not recorded.
        ReportingTag::from_headers(request.header_values("x-service-reporting-tag"))?;
        let plan = principal.subscription.plan;
        let upload = document::request::parse(raw, plan)?;
        let upload = with_engines(&services, |engines| {
            let upload = document::read_layout(engines, upload, plan)?;
            document::check_named(&services, engines, &principal, &upload)?;
            Ok(upload)
        })?;
        document::create(&services, &principal, upload)?
    };
    let response = ApiResponse::json(200, &handle);
    let id = handle.document_id;
    Ok(Answer { response, then: Some(Box::new(move || translate_after_upload(&host, &id))) })
}

/// The upload's own work on its document, after the answer: as much as
/// [`document::AFTER_UPLOAD_BUDGET`] allows; status calls go on from there.
fn translate_after_upload(host: &Host, id: &str) {
    let services = host.services_with_outbound();
    let worked =
        with_engines(&services, |engines| Ok(document::advance(&services, engines, id, document::AFTER_UPLOAD_BUDGET)));
    match worked {
        Ok(Ok(_)) => {}
        Ok(Err(error)) => {
            eprintln!("document {id}: the work after the upload stopped (a status call goes on): {error}")
        }
        Err(error) => eprintln!("document {id}: no engine to translate with (a status call goes on): {error}"),
    }
}

/// Runs `work` with the engines and the detector configured as for text translation, and the
/// language-tools service (for images) where one is configured.
fn with_engines<T>(
    services: &Services<'_>,
    work: impl FnOnce(Engines<'_>) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let engine = engines::configured(services)?;
    let detector = engines::Detector::configured(services);
    let tools = engines::language_tools::ToolsSettings::from_variables(services.vars)?
        .map(|settings| engines::language_tools::LanguageTools::new(settings, services.http));
    let tools = tools.as_ref().map(|tools| tools as &dyn document::format::LayoutTools);
    work(Engines { engine: &engine, detector: &detector, tools })
}

/// Who calls a status or result call, with its parameters (form, JSON or query).
fn caller(request: &Request, admitted: Option<Principal>, host: &Host) -> Result<(Principal, Params), ApiError> {
    let services = host.services();
    let params = request.params()?;
    let principal = accounts::admitted_principal(&services, request, &params, admitted, Access::Developer)?;
    Ok((principal, params))
}

/// `POST /v2/document/{id}`: the status, after working on the document if no worker holds it.
fn status(request: &Request, admitted: Option<Principal>, id: &str) -> Result<ApiResponse, ApiError> {
    let host = Host::for_request(request)?;
    let (principal, params) = caller(request, admitted, &host)?;
    let key = document::document_key(&params)?;
    let services = host.services_with_outbound();
    let found = with_engines(&services, |engines| Ok(document::status(&services, engines, &principal, id, &key)?))?;
    Ok(ApiResponse::json(200, &StatusView::from(&found)))
}

/// `POST /v2/document/{id}/result`: the translated file, charged and deleted.
fn result(request: &Request, admitted: Option<Principal>, id: &str) -> Result<ApiResponse, ApiError> {
    let host = Host::for_request(request)?;
    let (principal, params) = caller(request, admitted, &host)?;
    let key = document::document_key(&params)?;
    let services = host.services_with_outbound();
    let file = with_engines(&services, |engines| Ok(document::download(&services, engines, &principal, id, &key)?))?;
    Ok(document::download_response(file))
}
