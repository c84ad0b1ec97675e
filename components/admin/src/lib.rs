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
//! * `GET /v2/admin/audit-log` (`start_date`, `end_date`, `page`): every change made to keys,
//!   limits and cost control, newest first; Pro only.
//!
//! Keys of other subscriptions are invisible: their ids answer 404 like unknown ones. Every
//! change is written together with its audit entry.

use accounts::{Access, Actor, ApiKey, KeyKind, KeyRef, LimitChange, Plan, Principal, Subscription};
use api::{ApiError, ApiResponse, Params, Request};
use metering::DateRange;
use platform_spin::{Host, Services, serve};
use serde::Serialize;
use serde_json::json;
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

/// The longest key label, in characters.
const MAX_LABEL_CHARS: usize = 256;

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
            Endpoint::CostControl => &["GET", "PUT"],
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
    match endpoint {
        Endpoint::Keys(kind) if post => {
            let created =
                accounts::create_key(&services, &admin.subscription, kind, label(&params)?.as_deref(), actor)?;
            Ok(ApiResponse::json(200, &KeyObject::from_key(&created.key, Some(created.secret))))
        }
        Endpoint::Keys(kind) => {
            let keys = accounts::list_keys(services.db, &admin.subscription.id, kind)?;
            let objects: Vec<KeyObject> = keys.iter().map(|key| KeyObject::from_key(key, None)).collect();
            Ok(ApiResponse::json(200, &objects))
        }
        Endpoint::Deactivate(kind) => {
            let key_id = key_id(&params)?;
            key_answer(accounts::deactivate_key(&services, key_ref(&admin, &key_id, kind), actor)?, kind, &key_id)
        }
        Endpoint::Label(kind) => {
            let key_id = key_id(&params)?;
            let label = label(&params)?.ok_or_else(|| api::params::missing("label"))?;
            key_answer(accounts::relabel_key(&services, key_ref(&admin, &key_id, kind), &label, actor)?, kind, &key_id)
        }
        Endpoint::Limits => {
            let key_id = key_id(&params)?;
            let change = LimitChange {
                characters: params.nullable_count("characters")?,
                speech_ms: params.nullable_count("speech_to_text_milliseconds")?,
            };
            let kind = KeyKind::Developer;
            key_answer(
                accounts::set_key_limits(&services, key_ref(&admin, &key_id, kind), change, actor)?,
                kind,
                &key_id,
            )
        }
        Endpoint::CostControl if put => {
            let characters = params.nullable_count("characters")?.ok_or_else(|| api::params::missing("characters"))?;
            let subscription = accounts::set_cost_control(&services, &admin.subscription.id, characters, actor)?;
            cost_control(&subscription)
        }
        Endpoint::CostControl => cost_control(&admin.subscription),
        Endpoint::AuditLog => audit_log(&services, &admin, &params),
    }
}

fn key_ref<'a>(admin: &'a Principal, key_id: &'a str, kind: KeyKind) -> KeyRef<'a> {
    KeyRef { subscription_id: &admin.subscription.id, key_id, kind }
}

/// The required `key_id`.
fn key_id(params: &Params) -> Result<String, ApiError> {
    let key_id = params.required_string("key_id")?;
    Ok(key_id.trim().to_owned())
}

/// The key, or 404 when the caller's subscription has no key of that kind and id.
fn key_answer(key: Option<ApiKey>, kind: KeyKind, key_id: &str) -> Result<ApiResponse, ApiError> {
    match key {
        Some(key) => Ok(ApiResponse::json(200, &KeyObject::from_key(&key, None))),
        None => {
            let noun = match kind {
                KeyKind::Developer => "Developer key",
                KeyKind::Admin => "Admin key",
            };
            Err(ApiError::not_found(format!("{noun} {key_id} not found.")))
        }
    }
}

/// One page of the audit log; Free subscriptions have none to read.
fn audit_log(services: &Services<'_>, admin: &Principal, params: &Params) -> Result<ApiResponse, ApiError> {
    if admin.subscription.plan != Plan::Pro {
        return Err(ApiError::new(403, "Audit logs are a Pro feature."));
    }
    let range = DateRange::from_params(params)?;
    let page = metering::page(params)?;
    let found = metering::audit_log(services.db, &admin.subscription.id, &range, page)?;
    Ok(ApiResponse::json(
        200,
        &json!({"audit_log": {
            "start_date": range.start_text(),
            "end_date": range.end_text(),
            "next_page": found.next_page,
            "entries": found.entries,
        }}),
    ))
}

/// The subscription's cost control; Free subscriptions have none to show or change.
fn cost_control(subscription: &Subscription) -> Result<ApiResponse, ApiError> {
    if subscription.plan != Plan::Pro {
        return Err(accounts::CostControlError::FreePlan.into());
    }
    Ok(ApiResponse::json(200, &json!({"characters": subscription.character_limit})))
}

/// The API's key object.
#[derive(Serialize)]
struct KeyObject {
    key_id: String,
    label: String,
    creation_time: String,
    deactivated_time: Option<String>,
    is_deactivated: bool,
    usage_limits: UsageLimits,
    /// The secret, in the answer that created the key only.
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<String>,
}

#[derive(Serialize)]
struct UsageLimits {
    characters: Option<i64>,
    speech_to_text_milliseconds: Option<i64>,
}

impl KeyObject {
    fn from_key(key: &ApiKey, secret: Option<String>) -> KeyObject {
        KeyObject {
            key_id: key.id.clone(),
            label: key.label.clone(),
            creation_time: accounts::rfc3339(key.created_at),
            deactivated_time: key.deactivated_at.map(accounts::rfc3339),
            is_deactivated: !key.is_active(),
            usage_limits: UsageLimits {
                characters: key.character_limit,
                speech_to_text_milliseconds: key.speech_limit_ms,
            },
            key: secret,
        }
    }
}

/// The optional `label`: text of 1 to 256 characters without control characters.
fn label(params: &Params) -> Result<Option<String>, ApiError> {
    let Some(label) = params.string("label")? else { return Ok(None) };
    let label = label.trim();
    if label.is_empty() {
        return Err(ApiError::bad_request("Value for 'label' not supported: the label is empty."));
    }
    if label.chars().count() > MAX_LABEL_CHARS {
        return Err(ApiError::bad_request(format!(
            "Value for 'label' not supported: the label is longer than {MAX_LABEL_CHARS} characters."
        )));
    }
    if label.chars().any(char::is_control) {
        return Err(ApiError::bad_request("Value for 'label' not supported: the label contains control characters."));
    }
    Ok(Some(label.to_owned()))
}
