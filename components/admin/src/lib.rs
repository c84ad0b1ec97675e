//! Component `admin`: the admin API, for admin keys (`…:adm`) only.
//!
//! * `POST /v2/admin/developer-keys` (optional `label`): a new developer key, its secret shown
//!   this once in `key`.
//! * `GET /v2/admin/developer-keys`: every developer key of the subscription, active and
//!   deactivated.
//! * `PUT /v2/admin/developer-keys/deactivate` (`key_id`): deactivates the key for good; it stops
//!   working at once.
//! * `PUT /v2/admin/developer-keys/label` (`key_id`, `label`): renames it.
//! * `PUT /v2/admin/developer-keys/limits` (`key_id`, `characters`, `speech_to_text_milliseconds`:
//!   a number, `0` to block, `null` for no limit; an absent one stays as it is).
//!
//! Keys of other subscriptions are invisible: their ids answer 404 like unknown ones.

use accounts::{Access, ApiKey, KeyKind, KeyRef, LimitChange, MAX_ACTIVE_DEVELOPER_KEYS, Principal, Services};
use api::{ApiError, ApiResponse, Params, Request};
use platform_spin::{Host, incoming, respond};
use serde::Serialize;
use spin_sdk::http_component;

/// The longest key label, in characters.
const MAX_LABEL_CHARS: usize = 256;

#[http_component]
fn handle(request: spin_sdk::http::Request) -> spin_sdk::http::Response {
    respond(route(&incoming(&request)))
}

fn route(request: &Request) -> Result<ApiResponse, ApiError> {
    let path = request.path.trim_end_matches('/');
    let allowed: &[&str] = match path {
        "/v2/admin/developer-keys" => &["GET", "POST"],
        "/v2/admin/developer-keys/deactivate"
        | "/v2/admin/developer-keys/label"
        | "/v2/admin/developer-keys/limits" => &["PUT"],
        _ => return Err(ApiError::not_found("Not found.")),
    };
    if !allowed.contains(&request.method.as_str()) {
        return Err(ApiError::method_not_allowed(allowed));
    }
    let host = Host::new();
    let services = Services { db: &host.db, clock: &host.clock, random: &host.random };
    let (admin, params) = accounts::authenticate_request(&services, &host.vars, request, Access::Admin)?;
    match (request.method.as_str(), path) {
        ("POST", _) => create_developer_key(&services, &admin, &params),
        ("GET", _) => list_developer_keys(&services, &admin),
        (_, "/v2/admin/developer-keys/deactivate") => {
            let key_id = key_id(&params)?;
            let key = accounts::deactivate_key(&services, developer_key(&admin, &key_id))?;
            developer_key_answer(key, &key_id)
        }
        (_, "/v2/admin/developer-keys/label") => {
            let key_id = key_id(&params)?;
            let label = label(&params)?.ok_or_else(|| api::params::missing("label"))?;
            let key = accounts::relabel_key(services.db, developer_key(&admin, &key_id), &label)?;
            developer_key_answer(key, &key_id)
        }
        _ => {
            let key_id = key_id(&params)?;
            let change = LimitChange {
                characters: params.nullable_count("characters")?,
                speech_ms: params.nullable_count("speech_to_text_milliseconds")?,
            };
            let key = accounts::set_key_limits(services.db, developer_key(&admin, &key_id), change)?;
            developer_key_answer(key, &key_id)
        }
    }
}

fn developer_key<'a>(admin: &'a Principal, key_id: &'a str) -> KeyRef<'a> {
    KeyRef { subscription_id: &admin.subscription.id, key_id, kind: KeyKind::Developer }
}

/// The required `key_id`.
fn key_id(params: &Params) -> Result<String, ApiError> {
    let key_id = params.required_string("key_id")?;
    Ok(key_id.trim().to_owned())
}

/// The key, or 404 when the caller's subscription has no developer key of that id.
fn developer_key_answer(key: Option<ApiKey>, key_id: &str) -> Result<ApiResponse, ApiError> {
    match key {
        Some(key) => Ok(ApiResponse::json(200, &KeyObject::from_key(&key, None))),
        None => Err(ApiError::not_found(format!("Developer key {key_id} not found."))),
    }
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

fn create_developer_key(services: &Services<'_>, admin: &Principal, params: &Params) -> Result<ApiResponse, ApiError> {
    let label = label(params)?;
    let existing = accounts::list_keys(services.db, &admin.subscription.id, KeyKind::Developer)?;
    if existing.iter().filter(|key| key.is_active()).count() >= MAX_ACTIVE_DEVELOPER_KEYS {
        return Err(ApiError::bad_request(format!(
            "A subscription may have at most {MAX_ACTIVE_DEVELOPER_KEYS} active developer keys; deactivate one first."
        )));
    }
    let created = accounts::create_key(services, &admin.subscription, KeyKind::Developer, label.as_deref())?;
    Ok(ApiResponse::json(200, &KeyObject::from_key(&created.key, Some(created.secret))))
}

fn list_developer_keys(services: &Services<'_>, admin: &Principal) -> Result<ApiResponse, ApiError> {
    let keys = accounts::list_keys(services.db, &admin.subscription.id, KeyKind::Developer)?;
    let objects: Vec<KeyObject> = keys.iter().map(|key| KeyObject::from_key(key, None)).collect();
    Ok(ApiResponse::json(200, &objects))
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
