//! Component `admin`: the admin API, for admin keys (`…:adm`) only.
//!
//! Developer keys, under `/v2/admin/developer-keys`, and admin keys, under
//! `/v2/admin/admin-keys`, share their shapes and rules:
//!
//! * `POST …` (optional `label`): a new key, its secret shown this once in `key`; at most
//!   25 active keys of each kind.
//! * `GET …`: every key of that kind, active and deactivated, oldest first.
//! * `PUT …/deactivate` (`key_id`): deactivates the key for good; it stops working at once. The
//!   last active admin key of a subscription cannot be deactivated.
//! * `PUT …/label` (`key_id`, `label`): renames it.
//! * `PUT /v2/admin/developer-keys/limits` (`key_id`, `characters`, `speech_to_text_milliseconds`:
//!   a number, `0` to block, `null` for no limit; an absent one stays as it is).
//!
//! And for the whole subscription:
//!
//! * `GET`/`PUT /v2/admin/cost-control` (`characters`: a number or `null`): Pro subscriptions'
//!   character limit per billing period; Free subscriptions get 403.
//! * `GET`/`PUT /v2/admin/rate-limit` (`requests_per_second`, `burst`: a number, or `null` for
//!   the default; an absent one stays as it is): the request rate each key of the subscription
//!   may send. Every plan may read it; only Pro subscriptions may change it.
//! * `GET /v2/admin/audit-log` (`start_date`, `end_date`, `page`): every change made to keys,
//!   limits, cost control and rate limits, newest first; Pro only.
//!
//! Keys of other subscriptions are invisible: their ids answer 404 like unknown ones. Every
//! change is written together with its audit entry.

use accounts::{Access, Actor, KeyKind, KeyObject, KeyRef, LimitChange, Principal, RateLimitChange, RateLimitObject};
use api::{ApiError, ApiResponse, Request};
use metering::DateRange;
use platform_spin::{Host, serve};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve(request, out, route);
}

/// What a path of this component does.
#[derive(Clone, Copy)]
enum Endpoint {
    /// `GET` lists, `POST` creates.
    Keys(KeyKind),
    Deactivate(KeyKind),
    Label(KeyKind),
    Limits,
    CostControl,
    RateLimit,
    AuditLog,
}

impl Endpoint {
    fn of(path: &str) -> Option<Endpoint> {
        let (kind, rest) = if let Some(rest) = path.strip_prefix("/v2/admin/developer-keys") {
            (KeyKind::Developer, rest)
        } else if let Some(rest) = path.strip_prefix("/v2/admin/admin-keys") {
            (KeyKind::Admin, rest)
        } else {
            return match path {
                "/v2/admin/cost-control" => Some(Endpoint::CostControl),
                "/v2/admin/rate-limit" => Some(Endpoint::RateLimit),
                "/v2/admin/audit-log" => Some(Endpoint::AuditLog),
                _ => None,
            };
        };
        match (rest, kind) {
            ("", _) => Some(Endpoint::Keys(kind)),
            ("/deactivate", _) => Some(Endpoint::Deactivate(kind)),
            ("/label", _) => Some(Endpoint::Label(kind)),
            ("/limits", KeyKind::Developer) => Some(Endpoint::Limits),
            _ => None,
        }
    }

    fn methods(self) -> &'static [&'static str] {
        match self {
            Endpoint::Keys(_) => &["GET", "POST"],
            Endpoint::CostControl | Endpoint::RateLimit => &["GET", "PUT"],
            Endpoint::AuditLog => &["GET"],
            Endpoint::Deactivate(_) | Endpoint::Label(_) | Endpoint::Limits => &["PUT"],
        }
    }
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    let endpoint = Endpoint::of(request.path.trim_end_matches('/')).ok_or_else(|| ApiError::not_found("Not found."))?;
    if !endpoint.methods().contains(&request.method.as_str()) {
        return Err(ApiError::method_not_allowed(endpoint.methods()));
    }
    let host = Host::for_request(request)?;
    let services = host.services();
    let (admin, params) = accounts::authenticate_request(&services, request, Access::Admin)?;
    let actor = Actor::AdminKey(&admin.key.id);
    let post = request.method == "POST";
    let put = request.method == "PUT";
    let key = match endpoint {
        Endpoint::Keys(kind) if post => {
            let label = accounts::label_param(&params)?;
            let created = accounts::create_key(&services, &admin.subscription, kind, label.as_deref(), actor)?;
            return Ok(ApiResponse::json(200, &KeyObject::new(&created.key, Some(created.secret))));
        }
        Endpoint::Keys(kind) => {
            let keys = accounts::list_keys(services.db, &admin.subscription.id, kind)?;
            let objects: Vec<KeyObject> = keys.iter().map(|key| KeyObject::new(key, None)).collect();
            return Ok(ApiResponse::json(200, &objects));
        }
        Endpoint::Deactivate(kind) => {
            let key_id = accounts::key_id(&params)?;
            accounts::deactivate_key(&services, key_ref(&admin, &key_id, kind), actor)?
        }
        Endpoint::Label(kind) => {
            let key_id = accounts::key_id(&params)?;
            let label = accounts::label_param(&params)?.ok_or_else(|| api::params::missing("label"))?;
            accounts::relabel_key(&services, key_ref(&admin, &key_id, kind), &label, actor)?
        }
        Endpoint::Limits => {
            let key_id = accounts::key_id(&params)?;
            let change = LimitChange::from_params(&params)?;
            accounts::set_key_limits(&services, key_ref(&admin, &key_id, KeyKind::Developer), change, actor)?
        }
        Endpoint::CostControl if put => {
            let characters = accounts::cost_control_characters(&params)?;
            let subscription = accounts::set_cost_control(&services, &admin.subscription.id, characters, actor)?;
            return Ok(ApiResponse::json(200, &accounts::cost_control(&subscription)?));
        }
        Endpoint::CostControl => return Ok(ApiResponse::json(200, &accounts::cost_control(&admin.subscription)?)),
        Endpoint::RateLimit if put => {
            let change = RateLimitChange::from_params(&params)?;
            let settings = accounts::set_rate_limit(&services, &admin.subscription.id, change, actor)?;
            return Ok(ApiResponse::json(200, &RateLimitObject::new(settings)));
        }
        Endpoint::RateLimit => {
            let settings = accounts::rate_limit(services.db, &admin.subscription.id)?;
            return Ok(ApiResponse::json(200, &RateLimitObject::new(settings)));
        }
        Endpoint::AuditLog => {
            let range = DateRange::from_params(&params)?;
            let report = metering::audit_log(services.db, &admin.subscription, &range, metering::page(&params)?)?;
            return Ok(ApiResponse::json(200, &report));
        }
    };
    Ok(ApiResponse::json(200, &KeyObject::new(&key, None)))
}

fn key_ref<'a>(admin: &'a Principal, key_id: &'a str, kind: KeyKind) -> KeyRef<'a> {
    KeyRef { subscription_id: &admin.subscription.id, key_id, kind }
}
