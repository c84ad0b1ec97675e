//! What the HTTP edge needs from this crate: settings from the host's variables, credentials
//! from a request, and the answer for each failure.

use api::{ApiError, Params, Request};
use platform::{Services, Variables};

use crate::auth::{Access, AuthConfig, AuthError, Bootstrap, Brownout, Credentials, authenticate};
use crate::error::StoreError;
use crate::keys::{KeyError, LimitChange};
use crate::model::{Plan, Principal};
use crate::rate::{RateField, RateLimitChange, RateLimitError};
use crate::subscriptions::CostControlError;

/// The variable holding the bootstrap admin key (must end in `:adm`; empty: no bootstrap).
pub const BOOTSTRAP_ADMIN_KEY_VARIABLE: &str = "bootstrap_admin_key";
/// The bootstrap subscription's plan (`pro` when unset).
pub const BOOTSTRAP_PLAN_VARIABLE: &str = "bootstrap_plan";
/// The legacy-authentication brownout schedule ([`Brownout::parse`]; the default when unset).
pub const BROWNOUT_VARIABLE: &str = "legacy_auth_brownout";

/// Authentication settings read from the host's variables when a request needs them.
pub struct VariableAuthConfig<'a>(pub &'a dyn Variables);

impl VariableAuthConfig<'_> {
    fn read(&self, name: &str) -> Result<Option<String>, AuthError> {
        self.0
            .get(name)
            .map(|value| value.map(|value| value.trim().to_owned()).filter(|value| !value.is_empty()))
            .map_err(|error| AuthError::Misconfigured(format!("cannot read variable {name}: {error}")))
    }
}

impl AuthConfig for VariableAuthConfig<'_> {
    fn brownout(&self) -> Result<Brownout, AuthError> {
        match self.read(BROWNOUT_VARIABLE)? {
            Some(schedule) => Brownout::parse(&schedule)
                .map_err(|problem| AuthError::Misconfigured(format!("variable {BROWNOUT_VARIABLE}: {problem}"))),
            None => Ok(Brownout::parse(Brownout::DEFAULT).expect("the default schedule parses")),
        }
    }

    fn bootstrap(&self) -> Result<Option<Bootstrap>, AuthError> {
        let Some(secret) = self.read(BOOTSTRAP_ADMIN_KEY_VARIABLE)? else { return Ok(None) };
        if !secret.ends_with(":adm") || secret.len() < 20 {
            return Err(AuthError::Misconfigured(format!(
                "variable {BOOTSTRAP_ADMIN_KEY_VARIABLE} must be at least 20 characters and end in `:adm`"
            )));
        }
        let plan = match self.read(BOOTSTRAP_PLAN_VARIABLE)? {
            Some(plan) => Plan::parse(&plan).ok_or_else(|| {
                AuthError::Misconfigured(format!("variable {BOOTSTRAP_PLAN_VARIABLE} must be `free` or `pro`"))
            })?,
            None => Plan::Pro,
        };
        Ok(Some(Bootstrap { secret, plan }))
    }
}

/// Authenticates `request` for an endpoint admitting `access`, reading the settings from the
/// host's variables when needed; answers who calls and the request's parameters.
pub fn authenticate_request(
    services: &Services<'_>,
    request: &Request,
    access: Access,
) -> Result<(Principal, Params), ApiError> {
    let params = request.params()?;
    let principal = authenticate(services, credentials(request, &params), access, &VariableAuthConfig(services.vars))?;
    Ok((principal, params))
}

/// The key in the request's `Authorization` header, checked before the body is read (see
/// `platform_spin::serve_admitted`): nothing of the body or the query string counts.
pub fn authenticate_header(services: &Services<'_>, request: &Request, access: Access) -> Result<Principal, ApiError> {
    let credentials = Credentials { authorization: request.header("authorization"), legacy_key: None };
    Ok(authenticate(services, credentials, access, &VariableAuthConfig(services.vars))?)
}

/// Who calls a request served with `platform_spin::serve_admitted`: `admitted`, the principal
/// its `admit` authenticated from the header before a large body was read; or, when the body was
/// small enough to be read first, the one its credentials name (the header, else the `auth_key`
/// of `params`). A request is authenticated, and counted against its key's rate, once.
pub fn admitted_principal(
    services: &Services<'_>,
    request: &Request,
    params: &Params,
    admitted: Option<Principal>,
    access: Access,
) -> Result<Principal, ApiError> {
    match admitted {
        Some(principal) => Ok(principal),
        None => Ok(authenticate(services, credentials(request, params), access, &VariableAuthConfig(services.vars))?),
    }
}

/// The request's credentials: the `Authorization` header, else the legacy `auth_key`
/// parameter of the query string or the body.
pub fn credentials<'a>(request: &'a Request, params: &'a Params) -> Credentials<'a> {
    let authorization = request.header("authorization");
    let legacy_key = match authorization {
        Some(_) => None,
        None => params.first_text("auth_key"),
    };
    Credentials { authorization, legacy_key }
}

/// The required `key_id` of a key change, trimmed.
pub fn key_id(params: &Params) -> Result<String, ApiError> {
    Ok(params.required_string("key_id")?.trim().to_owned())
}

/// The optional `label` of a new or renamed key ([`crate::label`]).
pub fn label_param(params: &Params) -> Result<Option<String>, ApiError> {
    Ok(crate::keys::label(params.string("label")?.as_deref())?)
}

impl LimitChange {
    /// `characters` and `speech_to_text_milliseconds`: a number, `0` to block, `null` for no
    /// limit; an absent one stays as it is.
    pub fn from_params(params: &Params) -> Result<LimitChange, ApiError> {
        Ok(LimitChange {
            characters: params.nullable_count("characters")?,
            speech_ms: params.nullable_count("speech_to_text_milliseconds")?,
        })
    }
}

/// The required `characters` of a cost-control change: a number, or `null` for no limit.
pub fn cost_control_characters(params: &Params) -> Result<Option<i64>, ApiError> {
    params.nullable_count("characters")?.ok_or_else(|| api::params::missing("characters"))
}

impl RateLimitChange {
    /// `requests_per_second` and `burst`: a whole number within its maximum, or `null` for the
    /// default; an absent one stays as it is, and at least one must be given.
    pub fn from_params(params: &Params) -> Result<RateLimitChange, ApiError> {
        let read =
            |field: RateField| params.nullable_count(field.name()).map_err(|_| RateLimitError::OutOfRange(field));
        Ok(RateLimitChange::new(read(RateField::RequestsPerSecond)?, read(RateField::Burst)?)?)
    }
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> ApiError {
        match error {
            AuthError::Store(error) => ApiError::internal(&error),
            misconfigured @ AuthError::Misconfigured(_) => ApiError::internal(&misconfigured),
            AuthError::RateLimited(refused) => {
                let mut error = ApiError::new(429, refused.to_string());
                error.headers.push(("retry-after".into(), refused.retry_after_secs.to_string()));
                error
            }
            other => ApiError::new(403, other.to_string()),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        ApiError::internal(&error)
    }
}

impl From<KeyError> for ApiError {
    fn from(error: KeyError) -> ApiError {
        match error {
            KeyError::Store(error) => ApiError::internal(&error),
            unknown @ KeyError::NotFound { .. } => ApiError::not_found(unknown.to_string()),
            refused => ApiError::bad_request(refused.to_string()),
        }
    }
}

impl From<CostControlError> for ApiError {
    fn from(error: CostControlError) -> ApiError {
        match error {
            CostControlError::Store(error) => ApiError::internal(&error),
            free @ CostControlError::FreePlan => ApiError::new(403, free.to_string()),
            // The caller's own subscription, gone between authentication and now.
            unknown @ CostControlError::Unknown => ApiError::internal(&unknown),
        }
    }
}

impl From<RateLimitError> for ApiError {
    fn from(error: RateLimitError) -> ApiError {
        match error {
            RateLimitError::Store(error) => ApiError::internal(&error),
            free @ RateLimitError::FreePlan => ApiError::new(403, free.to_string()),
            // The caller's own subscription, gone between authentication and now.
            unknown @ RateLimitError::Unknown => ApiError::internal(&unknown),
            invalid => ApiError::bad_request(invalid.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::RateLimited;
    use crate::rate::RateLimit;

    #[test]
    fn a_request_over_its_rate_is_a_429_with_retry_after() {
        let refused = RateLimited { limit: RateLimit { requests_per_second: 5, burst: 10 }, retry_after_secs: 2 };
        let error = ApiError::from(AuthError::RateLimited(refused));
        assert_eq!(error.status, 429);
        assert_eq!(error.headers, [("retry-after".to_owned(), "2".to_owned())]);
        assert!(
            error.message.starts_with("Too many requests: this key sent more than its limit of 5 requests per second")
        );
        assert!(error.message.ends_with("Retry after 2 seconds."), "{}", error.message);
    }

    #[test]
    fn rate_limit_changes_are_read_and_bad_values_name_their_field() {
        let read = |body: &str| RateLimitChange::from_params(&Params::from_json(body.as_bytes()).unwrap());
        assert_eq!(
            read(r#"{"requests_per_second": 5, "burst": null}"#).unwrap(),
            RateLimitChange { requests_per_second: Some(Some(5)), burst: Some(None) }
        );
        assert_eq!(
            read(r#"{"burst": "7"}"#).unwrap(),
            RateLimitChange { requests_per_second: None, burst: Some(Some(7)) }
        );
        let refused = |body: &str| {
            let error = read(body).unwrap_err();
            assert_eq!(error.status, 400, "{body}");
            error.message
        };
        for (body, field) in [
            (r#"{"requests_per_second": 0}"#, "'requests_per_second'"),
            (r#"{"requests_per_second": -3}"#, "'requests_per_second'"),
            (r#"{"requests_per_second": 1.5}"#, "'requests_per_second'"),
            (r#"{"requests_per_second": 100001}"#, "'requests_per_second'"),
            (r#"{"requests_per_second": 5, "burst": "many"}"#, "'burst'"),
            (r#"{"burst": 100001}"#, "'burst'"),
            (r#"{"burst": [1]}"#, "'burst'"),
        ] {
            let message = refused(body);
            assert!(message.starts_with(&format!("Value for {field} not supported")), "{body}: {message}");
        }
        assert_eq!(refused("{}"), "Parameter 'requests_per_second' or 'burst' not specified");
    }
}
