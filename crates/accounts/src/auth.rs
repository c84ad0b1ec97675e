//! Authentication: which key a request carries, and whether it may use the endpoint.
//!
//! The key travels in `Authorization: Service-Auth-Key <key>`. Old clients may still send it as
//! the `auth_key` parameter (query or body), which the API has deprecated: Free subscriptions
//! are refused it outright, Pro subscriptions during brownout windows (a schedule in the
//! configuration), so that their owners notice before it goes away.
//!
//! Every request that authenticates counts against its key's request rate (`rate.rs`); over it,
//! the request is refused before it does anything.
//!
//! A deployment starts with no subscription at all. When the operator configures a bootstrap
//! admin key, the first request presenting that key creates a subscription whose admin key it is.

use platform::db::{RetryPolicy, transaction};
use platform::{Database, Services, Value};
use subtle::ConstantTimeEq;
use time::OffsetDateTime;

use crate::audit::Actor;
use crate::error::StoreError;
use crate::keys::{KEY_COLUMNS, insert_key, secret_digest};
use crate::model::{KeyKind, Plan, Principal};
use crate::period::now;
use crate::rate::{self, Admission, RateLimit, RateLimitSettings};
use crate::subscriptions::{any_subscription_exists, create_subscription, from_row};

/// The scheme of the `Authorization` header.
const SCHEME: &str = "Service-Auth-Key";

/// The key a request presented, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Credentials<'a> {
    /// The `Authorization` header, if any.
    pub authorization: Option<&'a str>,
    /// The legacy `auth_key` parameter (query string or body), if any.
    pub legacy_key: Option<&'a str>,
}

/// Which keys an endpoint admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Developer,
    Admin,
    /// `/v2/usage`: either kind.
    Any,
}

/// When legacy `auth_key` authentication is refused to Pro subscriptions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Brownout {
    Never,
    Always,
    /// Minute ranges of every hour (UTC), both ends included: `00-09,30-39`.
    Windows(Vec<(u8, u8)>),
}

impl Brownout {
    /// The default schedule: the first ten minutes of every hour.
    pub const DEFAULT: &str = "00-09";

    /// Parses `never`, `always`, or comma-separated minute ranges `MM-MM`.
    pub fn parse(text: &str) -> Result<Brownout, String> {
        let text = text.trim();
        match text {
            "never" | "" => return Ok(Brownout::Never),
            "always" => return Ok(Brownout::Always),
            _ => {}
        }
        let mut windows = Vec::new();
        for range in text.split(',') {
            let (from, to) = range.trim().split_once('-').ok_or_else(|| format!("`{range}` is not a MM-MM range"))?;
            let minute = |text: &str| text.trim().parse::<u8>().ok().filter(|minute| *minute < 60);
            match (minute(from), minute(to)) {
                (Some(from), Some(to)) if from <= to => windows.push((from, to)),
                _ => return Err(format!("`{range}` is not a range of minutes 00-59")),
            }
        }
        Ok(Brownout::Windows(windows))
    }

    /// Whether legacy authentication is refused at `moment`.
    pub fn active(&self, moment: OffsetDateTime) -> bool {
        match self {
            Brownout::Never => false,
            Brownout::Always => true,
            Brownout::Windows(windows) => {
                let minute = moment.to_offset(time::UtcOffset::UTC).minute();
                windows.iter().any(|(from, to)| (*from..=*to).contains(&minute))
            }
        }
    }
}

/// The bootstrap admin key the operator configured.
#[derive(Clone, PartialEq, Eq)]
pub struct Bootstrap {
    pub secret: String,
    pub plan: Plan,
}

impl std::fmt::Debug for Bootstrap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bootstrap").field("secret", &"<redacted>").field("plan", &self.plan).finish()
    }
}

/// How authentication is configured. Each part is read only when a request needs it (most
/// requests need neither), so a host may look its settings up lazily.
pub trait AuthConfig {
    /// The brownout schedule for the legacy `auth_key` parameter.
    fn brownout(&self) -> Result<Brownout, AuthError>;
    /// The bootstrap admin key, if one is configured.
    fn bootstrap(&self) -> Result<Option<Bootstrap>, AuthError>;
}

/// Settings known up front.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthSettings {
    pub brownout: Brownout,
    pub bootstrap: Option<Bootstrap>,
}

impl AuthConfig for AuthSettings {
    fn brownout(&self) -> Result<Brownout, AuthError> {
        Ok(self.brownout.clone())
    }

    fn bootstrap(&self) -> Result<Option<Bootstrap>, AuthError> {
        Ok(self.bootstrap.clone())
    }
}

impl Default for AuthSettings {
    fn default() -> Self {
        AuthSettings { brownout: Brownout::parse(Brownout::DEFAULT).expect("the default parses"), bootstrap: None }
    }
}

/// Why a request is not authenticated. Every case but `RateLimited`, `Misconfigured` and `Store`
/// is a 403 whose message says what is wrong without revealing anything about keys the caller
/// does not hold.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("Authorization failure: no key given. Send the header `Authorization: Service-Auth-Key <key>`.")]
    Missing,
    #[error("Authorization failure: the Authorization header must be `Service-Auth-Key <key>`.")]
    Malformed,
    #[error("Authorization failure: the key is not valid.")]
    Unknown,
    #[error("Authorization failure: the key has been deactivated.")]
    Deactivated,
    #[error("Forbidden: this endpoint needs a developer key; admin keys are for the admin API and /v2/usage.")]
    AdminKeyNotAllowed,
    #[error("Forbidden: this endpoint needs an admin key.")]
    DeveloperKeyNotAllowed,
    #[error(
        "Authorization failure: the auth_key parameter is not supported for Free subscriptions. Send the header `Authorization: Service-Auth-Key <key>`."
    )]
    LegacyFree,
    #[error(
        "Authorization failure: the auth_key parameter is deprecated and is being turned off (brownout in progress). Send the header `Authorization: Service-Auth-Key <key>`."
    )]
    LegacyBrownout,
    /// The key is over its request rate (a 429 with `Retry-After`).
    #[error("{0}")]
    RateLimited(RateLimited),
    /// The operator's configuration is unusable (logged; the client sees a generic 500).
    #[error("authentication is misconfigured: {0}")]
    Misconfigured(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A request refused for its key's request rate: the limit, and when to try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimited {
    pub limit: RateLimit,
    /// Whole seconds, at least 1.
    pub retry_after_secs: u64,
}

impl std::fmt::Display for RateLimited {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seconds = self.retry_after_secs;
        write!(
            f,
            "Too many requests: this key sent more than its limit of {} requests per second (bursts of up to {}). Retry after {seconds} second{}.",
            self.limit.requests_per_second,
            self.limit.burst,
            if seconds == 1 { "" } else { "s" }
        )
    }
}

/// Authenticates a request for an endpoint admitting `access`, and counts it against the key's
/// request rate: only a request that would otherwise be admitted counts, and one over the rate
/// is refused ([`AuthError::RateLimited`]) having changed nothing.
pub fn authenticate(
    services: &Services<'_>,
    credentials: Credentials<'_>,
    access: Access,
    settings: &dyn AuthConfig,
) -> Result<Principal, AuthError> {
    let (secret, legacy) = extract(credentials)?;
    let (principal, rate_limit) = match lookup(services.db, secret)? {
        Some(found) => found,
        None => bootstrap(services, secret, settings)?.ok_or(AuthError::Unknown)?,
    };
    if !principal.key.is_active() {
        return Err(AuthError::Deactivated);
    }
    match (access, principal.key.kind) {
        (Access::Developer, KeyKind::Admin) => return Err(AuthError::AdminKeyNotAllowed),
        (Access::Admin, KeyKind::Developer) => return Err(AuthError::DeveloperKeyNotAllowed),
        _ => {}
    }
    if legacy {
        match principal.subscription.plan {
            Plan::Free => return Err(AuthError::LegacyFree),
            Plan::Pro if settings.brownout()?.active(now(services.clock)) => return Err(AuthError::LegacyBrownout),
            Plan::Pro => {}
        }
    }
    let limit = rate_limit.effective();
    match rate::admit(services.db, services.clock, &principal.subscription.id, &principal.key.id, limit)? {
        Admission::Admitted => Ok(principal),
        Admission::Refused { retry_after_secs } => Err(AuthError::RateLimited(RateLimited { limit, retry_after_secs })),
    }
}

/// The secret, and whether it came through the legacy parameter. As clients expect, a present
/// `Authorization` header always wins, and `auth_key` is read only without one.
fn extract(credentials: Credentials<'_>) -> Result<(&str, bool), AuthError> {
    if let Some(header) = credentials.authorization {
        let header = header.trim();
        if header.eq_ignore_ascii_case(SCHEME) {
            return Err(AuthError::Missing);
        }
        let (scheme, secret) = header.split_once(' ').ok_or(AuthError::Malformed)?;
        if !scheme.eq_ignore_ascii_case(SCHEME) {
            return Err(AuthError::Malformed);
        }
        let secret = secret.trim();
        if secret.is_empty() {
            return Err(AuthError::Missing);
        }
        return Ok((secret, false));
    }
    match credentials.legacy_key.map(str::trim) {
        Some(secret) if !secret.is_empty() => Ok((secret, true)),
        _ => Err(AuthError::Missing),
    }
}

/// The key with this secret, its subscription, and the subscription's rate limit, in one
/// statement (the digest's unique index, then two primary keys).
fn lookup(db: &dyn Database, secret: &str) -> Result<Option<(Principal, RateLimitSettings)>, StoreError> {
    let digest = secret_digest(secret);
    let sql = format!(
        "SELECT {}, k.secret_hash, s.id, s.plan, s.created_at, s.billing_anchor, s.character_limit, s.speech_limit_ms,
                r.requests_per_second, r.burst
         FROM api_keys k JOIN subscriptions s ON s.id = k.subscription_id
         LEFT JOIN rate_limits r ON r.subscription_id = s.id WHERE k.secret_hash = ?",
        KEY_COLUMNS.split(", ").map(|column| format!("k.{column}")).collect::<Vec<_>>().join(", ")
    );
    let result = db.execute(&sql, &[Value::Blob(digest.to_vec())])?;
    let Some(row) = result.first() else { return Ok(None) };
    // The index found the row by digest; compare again in constant time so that nothing about
    // the stored digest can be learnt from timing.
    let stored: Vec<u8> = row.get(8)?;
    if !bool::from(stored.as_slice().ct_eq(&digest)) {
        return Ok(None);
    }
    let principal = Principal { key: crate::keys::from_row(row, 0)?, subscription: from_row(row, 9)? };
    Ok(Some((principal, RateLimitSettings::from_row(row, 15)?)))
}

/// Creates the first subscription when `secret` is the configured bootstrap key and the store
/// is empty; answers the new principal (and its rate limit), or `None` when bootstrap does not
/// apply.
fn bootstrap(
    services: &Services<'_>,
    secret: &str,
    settings: &dyn AuthConfig,
) -> Result<Option<(Principal, RateLimitSettings)>, AuthError> {
    let Some(bootstrap) = settings.bootstrap()? else { return Ok(None) };
    if !bool::from(secret.as_bytes().ct_eq(bootstrap.secret.as_bytes())) {
        return Ok(None);
    }
    let created = transaction(services.db, RetryPolicy::default(), |db| {
        let services = services.with_db(db);
        if any_subscription_exists(db)? {
            return Ok(false);
        }
        let subscription = create_subscription(&services, bootstrap.plan)?;
        insert_key(&services, &subscription, KeyKind::Admin, None, bootstrap.secret.clone(), Actor::Operator)?;
        Ok::<_, StoreError>(true)
    })?;
    if !created {
        return Ok(None);
    }
    Ok(lookup(services.db, secret)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::create_key;
    use crate::test_support::{Fixture, at};

    fn new_fixture() -> Fixture {
        // 2027-01-15 08:20:00 UTC: minute 20, outside the default brownout window.
        at(1_800_001_200)
    }

    fn header(secret: &str) -> String {
        format!("Service-Auth-Key {secret}")
    }

    #[test]
    fn a_developer_key_in_the_header_authenticates_for_developer_endpoints() {
        let fixture = new_fixture();
        let services = fixture.services();
        let subscription = create_subscription(&services, Plan::Pro).unwrap();
        let key = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).unwrap();
        let header = header(&key.secret);
        let credentials = Credentials { authorization: Some(&header), legacy_key: None };
        let principal = authenticate(&services, credentials, Access::Developer, &AuthSettings::default()).unwrap();
        assert_eq!(principal.key.id, key.key.id);
        assert_eq!(principal.subscription, subscription);
        assert!(matches!(
            authenticate(&services, credentials, Access::Admin, &AuthSettings::default()),
            Err(AuthError::DeveloperKeyNotAllowed)
        ));
        assert!(authenticate(&services, credentials, Access::Any, &AuthSettings::default()).is_ok());
    }

    #[test]
    fn missing_malformed_unknown_and_deactivated_keys_are_refused() {
        let fixture = new_fixture();
        let services = fixture.services();
        let settings = AuthSettings::default();
        let check = |authorization: Option<&str>| {
            authenticate(&services, Credentials { authorization, legacy_key: None }, Access::Developer, &settings)
        };
        assert!(matches!(check(None), Err(AuthError::Missing)));
        assert!(matches!(check(Some("Bearer abc")), Err(AuthError::Malformed)));
        assert!(matches!(check(Some("Service-Auth-Key ")), Err(AuthError::Missing)));
        assert!(matches!(check(Some("Service-Auth-Key nope")), Err(AuthError::Unknown)));

        let subscription = create_subscription(&services, Plan::Pro).unwrap();
        let key = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).unwrap();
        fixture.db.execute("UPDATE api_keys SET deactivated_at = '2027-01-01T00:00:00Z'", &[]).unwrap();
        assert!(matches!(check(Some(&header(&key.secret))), Err(AuthError::Deactivated)));
    }

    #[test]
    fn the_scheme_is_case_insensitive_and_the_header_beats_the_legacy_parameter() {
        let fixture = new_fixture();
        let services = fixture.services();
        let subscription = create_subscription(&services, Plan::Free).unwrap();
        let key = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).unwrap();
        let lower = format!("service-auth-key {}", key.secret);
        let credentials = Credentials { authorization: Some(&lower), legacy_key: Some("ignored") };
        assert!(authenticate(&services, credentials, Access::Developer, &AuthSettings::default()).is_ok());
    }

    #[test]
    fn legacy_keys_are_refused_to_free_always_and_to_pro_during_brownouts() {
        let fixture = new_fixture();
        let services = fixture.services();
        let settings = AuthSettings::default();
        let free = create_subscription(&services, Plan::Free).unwrap();
        let pro = create_subscription(&services, Plan::Pro).unwrap();
        let free_key = create_key(&services, &free, KeyKind::Developer, None, Actor::Operator).unwrap();
        let pro_key = create_key(&services, &pro, KeyKind::Developer, None, Actor::Operator).unwrap();
        fn legacy(secret: &str) -> Credentials<'_> {
            Credentials { authorization: None, legacy_key: Some(secret) }
        }

        assert!(matches!(
            authenticate(&services, legacy(&free_key.secret), Access::Developer, &settings),
            Err(AuthError::LegacyFree)
        ));
        assert!(authenticate(&services, legacy(&pro_key.secret), Access::Developer, &settings).is_ok());
        fixture.clock.set(std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_300));
        assert!(matches!(
            authenticate(&services, legacy(&pro_key.secret), Access::Developer, &settings),
            Err(AuthError::LegacyBrownout)
        ));
    }

    #[test]
    fn brownout_schedules_parse_and_apply_by_minute() {
        let windows = Brownout::parse("00-09, 30-39").unwrap();
        let at = |minute: u8| time::macros::datetime!(2027-01-01 10:00 UTC).replace_minute(minute).unwrap();
        assert!(windows.active(at(0)));
        assert!(windows.active(at(35)));
        assert!(!windows.active(at(10)));
        assert!(Brownout::parse("always").unwrap().active(at(10)));
        assert!(!Brownout::parse("never").unwrap().active(at(0)));
        assert!(Brownout::parse("50-70").is_err());
        assert!(Brownout::parse("09-01").is_err());
        assert!(Brownout::parse("noon").is_err());
    }

    #[test]
    fn the_bootstrap_key_creates_the_first_subscription_once() {
        let fixture = new_fixture();
        let services = fixture.services();
        let secret = "5f0c8a52-1d1e-4e02-9a3f-7b8c2d1e0f44:adm";
        let settings = AuthSettings {
            bootstrap: Some(Bootstrap { secret: secret.into(), plan: Plan::Pro }),
            ..AuthSettings::default()
        };
        let header = header(secret);
        let credentials = Credentials { authorization: Some(&header), legacy_key: None };
        let first = authenticate(&services, credentials, Access::Admin, &settings).unwrap();
        assert_eq!(first.subscription.plan, Plan::Pro);
        assert_eq!(first.key.kind, KeyKind::Admin);
        let again = authenticate(&services, credentials, Access::Admin, &settings).unwrap();
        assert_eq!(again, first);
        let count = fixture.db.execute("SELECT count(*) FROM subscriptions", &[]).unwrap();
        assert_eq!(count.rows[0].get::<i64>(0).unwrap(), 1);
        assert!(!format!("{settings:?}").contains("5f0c8a52"));
    }

    #[test]
    fn a_key_over_its_rate_is_refused_until_its_next_slot_and_others_go_on() {
        let fixture = new_fixture();
        let services = fixture.services();
        let subscription = create_subscription(&services, Plan::Pro).unwrap();
        let change = crate::rate::RateLimitChange::new(Some(Some(2)), Some(Some(3))).unwrap();
        crate::rate::set_rate_limit(&services, &subscription.id, change, Actor::Operator).unwrap();
        let key = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).unwrap();
        let other = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).unwrap();
        let settings = AuthSettings::default();
        let (header, other_header) = (header(&key.secret), header(&other.secret));
        let check = |authorization: &str, access: Access| {
            let credentials = Credentials { authorization: Some(authorization), legacy_key: None };
            authenticate(&services, credentials, access, &settings)
        };
        for _ in 0..3 {
            assert!(check(&header, Access::Developer).is_ok());
        }
        // A request refused for another reason does not count, and is refused for that reason.
        assert!(matches!(check(&header, Access::Admin), Err(AuthError::DeveloperKeyNotAllowed)));
        let Err(AuthError::RateLimited(refused)) = check(&header, Access::Developer) else { panic!("rate-limited") };
        assert_eq!(refused, RateLimited { limit: RateLimit { requests_per_second: 2, burst: 3 }, retry_after_secs: 1 });
        assert_eq!(
            AuthError::RateLimited(refused).to_string(),
            "Too many requests: this key sent more than its limit of 2 requests per second (bursts of up to 3). Retry after 1 second."
        );
        assert!(check(&other_header, Access::Developer).is_ok(), "another key has its own rate");
        fixture.clock.advance(std::time::Duration::from_millis(499));
        assert!(matches!(check(&header, Access::Developer), Err(AuthError::RateLimited(_))));
        fixture.clock.advance(std::time::Duration::from_millis(1));
        assert!(check(&header, Access::Developer).is_ok());
        assert!(matches!(check(&header, Access::Developer), Err(AuthError::RateLimited(_))));
    }

    #[test]
    fn keys_get_the_default_rate_without_settings() {
        let fixture = new_fixture();
        let services = fixture.services();
        let subscription = create_subscription(&services, Plan::Free).unwrap();
        let key = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).unwrap();
        let header = header(&key.secret);
        let credentials = Credentials { authorization: Some(&header), legacy_key: None };
        let settings = AuthSettings::default();
        for _ in 0..crate::rate::DEFAULT_BURST {
            authenticate(&services, credentials, Access::Developer, &settings).unwrap();
        }
        let Err(AuthError::RateLimited(refused)) = authenticate(&services, credentials, Access::Developer, &settings)
        else {
            panic!("the default burst is used up")
        };
        assert_eq!(refused.limit, RateLimit::DEFAULT);
        fixture.clock.advance(std::time::Duration::from_millis(10));
        assert!(authenticate(&services, credentials, Access::Developer, &settings).is_ok());
    }

    #[test]
    fn the_bootstrap_key_does_nothing_once_a_subscription_exists() {
        let fixture = new_fixture();
        let services = fixture.services();
        create_subscription(&services, Plan::Free).unwrap();
        let settings = AuthSettings {
            bootstrap: Some(Bootstrap { secret: "late:adm".into(), plan: Plan::Pro }),
            ..AuthSettings::default()
        };
        let header = header("late:adm");
        let credentials = Credentials { authorization: Some(&header), legacy_key: None };
        assert!(matches!(authenticate(&services, credentials, Access::Admin, &settings), Err(AuthError::Unknown)));
    }
}
