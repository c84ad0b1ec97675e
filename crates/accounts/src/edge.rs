//! What the HTTP edge needs from this crate: settings from the host's variables, credentials
//! from a request, and the answer for each failure.

use api::{ApiError, Params, Request};
use platform::Variables;

use crate::auth::{AuthError, AuthSettings, Bootstrap, Brownout, Credentials};
use crate::error::StoreError;
use crate::subscriptions::Plan;
use crate::tags::TagError;
use crate::usage::ChargeError;

/// The variable holding the bootstrap admin key (must end in `:adm`; empty: no bootstrap).
pub const BOOTSTRAP_ADMIN_KEY_VARIABLE: &str = "bootstrap_admin_key";
/// The bootstrap subscription's plan (`pro` when unset).
pub const BOOTSTRAP_PLAN_VARIABLE: &str = "bootstrap_plan";
/// The legacy-authentication brownout schedule ([`Brownout::parse`]; the default when unset).
pub const BROWNOUT_VARIABLE: &str = "legacy_auth_brownout";

impl AuthSettings {
    /// Reads the settings from the host's variables. A misconfiguration is a logged 500: the
    /// operator must fix it, and no request may slip through meanwhile.
    pub fn from_variables(vars: &dyn Variables) -> Result<AuthSettings, ApiError> {
        let read = |name: &str| {
            vars.get(name).map(|value| value.filter(|value| !value.trim().is_empty())).map_err(|error| {
                eprintln!("configuration: cannot read variable {name}: {error}");
                ApiError::new(500, api::INTERNAL_ERROR_MESSAGE)
            })
        };
        let misconfigured = |problem: String| {
            eprintln!("configuration: {problem}");
            ApiError::new(500, api::INTERNAL_ERROR_MESSAGE)
        };
        let brownout = match read(BROWNOUT_VARIABLE)? {
            Some(schedule) => Brownout::parse(&schedule)
                .map_err(|problem| misconfigured(format!("variable {BROWNOUT_VARIABLE}: {problem}")))?,
            None => Brownout::parse(Brownout::DEFAULT).expect("the default schedule parses"),
        };
        let bootstrap = match read(BOOTSTRAP_ADMIN_KEY_VARIABLE)? {
            Some(secret) => {
                let secret = secret.trim().to_owned();
                if !secret.ends_with(":adm") || secret.len() < 20 {
                    return Err(misconfigured(format!(
                        "variable {BOOTSTRAP_ADMIN_KEY_VARIABLE} must be at least 20 characters and end in `:adm`"
                    )));
                }
                let plan = match read(BOOTSTRAP_PLAN_VARIABLE)? {
                    Some(plan) => Plan::parse(&plan).ok_or_else(|| {
                        misconfigured(format!("variable {BOOTSTRAP_PLAN_VARIABLE} must be `free` or `pro`"))
                    })?,
                    None => Plan::Pro,
                };
                Some(Bootstrap { secret, plan })
            }
            None => None,
        };
        Ok(AuthSettings { brownout, bootstrap })
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

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> ApiError {
        match error {
            AuthError::Store(error) => ApiError::internal(&error),
            other => ApiError::new(403, other.to_string()),
        }
    }
}

impl From<ChargeError> for ApiError {
    fn from(error: ChargeError) -> ApiError {
        match error {
            ChargeError::QuotaExceeded => ApiError::new(456, "Quota for this billing period has been exceeded."),
            ChargeError::Deactivated => ApiError::new(403, ChargeError::Deactivated.to_string()),
            ChargeError::Store(error) => ApiError::internal(&error),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        ApiError::internal(&error)
    }
}

impl From<TagError> for ApiError {
    fn from(error: TagError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}
