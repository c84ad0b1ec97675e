//! Component `voice`: real-time voice sessions, for developer keys, the calls of the voice
//! gateway that carries their audio, and the spoken terms lists sessions name, for admin keys.
//!
//! * `POST /v3/voice/realtime` (and `/v1/…`): a session → `streaming_url`, `token`, `session_id`
//! * `GET /v3/voice/realtime?token=` (and `/v1/…`): reconnect → the same, with a fresh token
//! * `POST /internal/voice/claim` (`token`), `/usage` (`session_id`, `connection`, `sequence`,
//!   `milliseconds`), `/translate` (`session_id`, `texts`, `source_lang`, `target_lang`) and
//!   `/end` (`session_id`, `connection`, `reason`): the gateway's, admitted by
//!   `Authorization: Bearer <voice_gateway_secret>`
//! * `POST /v2/admin/spoken-terms` (`name`, `terms`) → 201 the list; `GET` → `spoken_terms`,
//!   every list with its terms; `GET`, `PUT` (`name`, `terms` or both, replacing) and `DELETE`
//!   `/v2/admin/spoken-terms/{id}`: spoken terms lists (beta), for admin keys
//! * `GET` and `PUT /v2/admin/translated-speech` (`enabled`): whether the subscription's sessions
//!   may ask for translated speech (closed beta, off by default), for admin keys
//!
//! Every change an admin key makes to a spoken terms list or to the switch is written to the
//! subscription's audit log (`GET /v2/admin/audit-log`) in the same transaction.
//!
//! Without `voice_token_secret` (or, for the internal routes, `voice_gateway_secret`) the
//! deployment has no real-time voice: those routes answer 503. Spoken terms lists are managed
//! either way.

use accounts::{Access, Actor};
use api::{ApiError, ApiResponse, Request};
use platform_spin::{Host, Services, serve};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;
use voice_sessions::gateway::{self, GatewaySecret};
use voice_sessions::settings;
use voice_sessions::spoken_terms::store as spoken_terms;
use voice_sessions::store;
use voice_sessions::{PUBLIC_URL_VARIABLE, TokenSecret};

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve(request, out, route);
}

/// What a path of this component names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Endpoint<'a> {
    /// `/v3/voice/realtime` or `/v1/voice/realtime`, with the path's version.
    Sessions(&'static str),
    Claim,
    Usage,
    Translate,
    End,
    /// `/v2/admin/spoken-terms`.
    SpokenTerms,
    /// `/v2/admin/spoken-terms/{id}`, with the id as the path gives it.
    SpokenTermsList(&'a str),
    /// `/v2/admin/translated-speech`.
    TranslatedSpeech,
}

impl Endpoint<'_> {
    fn of(path: &str) -> Option<Endpoint<'_>> {
        let path = path.trim_end_matches('/');
        if let Some(id) = path.strip_prefix("/v2/admin/spoken-terms/") {
            return (!id.contains('/')).then_some(Endpoint::SpokenTermsList(id));
        }
        match path {
            "/v3/voice/realtime" => Some(Endpoint::Sessions("v3")),
            "/v1/voice/realtime" => Some(Endpoint::Sessions("v1")),
            "/internal/voice/claim" => Some(Endpoint::Claim),
            "/internal/voice/usage" => Some(Endpoint::Usage),
            "/internal/voice/translate" => Some(Endpoint::Translate),
            "/internal/voice/end" => Some(Endpoint::End),
            "/v2/admin/spoken-terms" => Some(Endpoint::SpokenTerms),
            "/v2/admin/translated-speech" => Some(Endpoint::TranslatedSpeech),
            _ => None,
        }
    }

    fn methods(self) -> &'static [&'static str] {
        match self {
            Endpoint::Sessions(_) | Endpoint::SpokenTerms => &["POST", "GET"],
            Endpoint::SpokenTermsList(_) => &["GET", "PUT", "DELETE"],
            Endpoint::TranslatedSpeech => &["GET", "PUT"],
            _ => &["POST"],
        }
    }
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    let endpoint = Endpoint::of(&request.path).ok_or_else(|| ApiError::not_found("Not found."))?;
    if !endpoint.methods().contains(&request.method.as_str()) {
        return Err(ApiError::method_not_allowed(endpoint.methods()));
    }
    let host = Host::for_request(request)?;
    match endpoint {
        Endpoint::Sessions(version) => session(request, &host.services(), version),
        Endpoint::SpokenTerms | Endpoint::SpokenTermsList(_) => spoken_terms_lists(request, &host.services(), endpoint),
        Endpoint::TranslatedSpeech => translated_speech(request, &host.services()),
        _ => internal(request, &host, endpoint),
    }
}

fn unavailable() -> ApiError {
    ApiError::unavailable("Real-time voice is not set up on this deployment.")
}

/// `POST` opens a session, `GET ?token=` reconnects one.
fn session(request: &Request, services: &Services<'_>, version: &str) -> Result<ApiResponse, ApiError> {
    let (principal, params) = accounts::authenticate_request(services, request, Access::Developer)?;
    let secret = TokenSecret::configured(services.vars).ok_or_else(unavailable)?;
    let public_url = services.vars.get(PUBLIC_URL_VARIABLE).ok().flatten().unwrap_or_default();
    let answer = if request.method == "GET" {
        let token = voice_sessions::token(&request.query_params())?;
        voice_sessions::reopen(services, &principal, &token, &secret, &public_url, version)?
    } else {
        let parameters = voice_sessions::session_request(&params)?;
        voice_sessions::open(services, &principal, parameters, &secret, &public_url, version)?
    };
    Ok(ApiResponse::json(200, &answer))
}

/// Spoken terms lists, for admin keys: each list of the admin's subscription.
fn spoken_terms_lists(request: &Request, services: &Services<'_>, endpoint: Endpoint) -> Result<ApiResponse, ApiError> {
    let (admin, params) = accounts::authenticate_request(services, request, Access::Admin)?;
    let subscription = admin.subscription.id.as_str();
    let actor = Actor::AdminKey(&admin.key.id);
    let Endpoint::SpokenTermsList(raw_id) = endpoint else {
        if request.method == "POST" {
            let list = voice_sessions::new_spoken_terms(&params)?;
            return Ok(ApiResponse::json(201, &spoken_terms::create(services, subscription, &list, actor)?));
        }
        return Ok(ApiResponse::json(200, &spoken_terms::listing(services.db, subscription)?));
    };
    let id = voice_sessions::spoken_terms_id(raw_id)?;
    match request.method.as_str() {
        "PUT" => {
            let change = voice_sessions::spoken_terms_change(&params)?;
            Ok(ApiResponse::json(200, &spoken_terms::replace(services, subscription, &id, &change, actor)?))
        }
        "DELETE" => {
            spoken_terms::delete(services, subscription, &id, actor)?;
            Ok(ApiResponse { status: 204, headers: Vec::new(), body: Vec::new() })
        }
        _ => Ok(ApiResponse::json(200, &spoken_terms::get(services.db, subscription, &id)?)),
    }
}

/// Whether the admin's subscription may ask for translated speech; `PUT` sets it.
fn translated_speech(request: &Request, services: &Services<'_>) -> Result<ApiResponse, ApiError> {
    let (admin, params) = accounts::authenticate_request(services, request, Access::Admin)?;
    let subscription = admin.subscription.id.as_str();
    let setting = if request.method == "PUT" {
        let enabled = voice_sessions::translated_speech_enabled(&params)?;
        let actor = Actor::AdminKey(&admin.key.id);
        settings::set_translated_speech(services, subscription, enabled, actor)
            .map_err(|cause| ApiError::internal(&cause))
    } else {
        settings::translated_speech(services, subscription).map_err(|cause| ApiError::internal(&cause))
    };
    Ok(ApiResponse::json(200, &setting?))
}

/// The gateway's calls, once its secret is checked.
fn internal(request: &Request, host: &Host, endpoint: Endpoint) -> Result<ApiResponse, ApiError> {
    let services = host.services();
    let secret = GatewaySecret::configured(services.vars).ok_or_else(unavailable)?;
    if !secret.admits(request.header("authorization")) {
        return Err(ApiError::new(401, "The voice gateway's secret is missing or wrong."));
    }
    let params = request.params()?;
    match endpoint {
        Endpoint::Claim => {
            let tokens = TokenSecret::configured(services.vars).ok_or_else(unavailable)?;
            let claimed = gateway::claim(&services, &tokens, &voice_sessions::token(&params)?)?;
            Ok(ApiResponse::json(200, &claimed))
        }
        Endpoint::Usage => {
            let id = voice_sessions::session_id(&params)?;
            let report = voice_sessions::usage_report(&params)?;
            let answer = voice_sessions::usage_answer(store::report_usage(&services, &id, report)?)?;
            Ok(ApiResponse::json(200, &answer))
        }
        Endpoint::Translate => {
            let services = host.services_with_outbound();
            let id = voice_sessions::session_id(&params)?;
            let (texts, source, target) = voice_sessions::segments(&params)?;
            let engine = engines::configured(&services)?;
            let detector = engines::Detector::configured(&services);
            let translated = gateway::translate(&services, &engine, &detector, &id, texts, &source, &target)?;
            Ok(ApiResponse::json(200, &translated))
        }
        Endpoint::End => {
            let id = voice_sessions::session_id(&params)?;
            let (connection, ending) = voice_sessions::ending(&params)?;
            store::end(&services, &id, connection, ending)?;
            Ok(ApiResponse { status: 204, headers: Vec::new(), body: Vec::new() })
        }
        Endpoint::Sessions(_) | Endpoint::SpokenTerms | Endpoint::SpokenTermsList(_) | Endpoint::TranslatedSpeech => {
            unreachable!("sessions and spoken terms lists are not internal")
        }
    }
}
