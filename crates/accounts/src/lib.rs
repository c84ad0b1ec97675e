//! Subscriptions, API keys, authentication and the audit trail of their changes.
//!
//! * `model.rs`: plans, subscriptions, keys and the principal (who calls), plain data.
//! * `subscriptions.rs`: a subscription has a plan, monthly billing periods (`period.rs`) and
//!   limits; cost control sets a Pro subscription's character limit.
//! * `keys.rs`: admin keys (for the admin API) and developer keys (for everything else); secrets
//!   are stored only as SHA-256 digests.
//! * `auth.rs`: which key a request carries, and whether it may use the endpoint.
//! * `rate.rs`: every authenticated request counts against its key's request rate (GCRA, the
//!   state in SQLite, one statement per request); subscriptions may set their own limit.
//! * `views.rs`: keys as the admin API answers them.
//! * `closed_beta.rs`: the closed betas a subscription's admins switch on (translated speech).
//! * `audit.rs`: every change to keys, key limits, cost control, rate limits and closed-beta switches writes its
//!   entry in the same transaction (`metering` reads the log); `voice-sessions` records its spoken terms lists'
//!   changes through [`record_spoken_terms`].
//! * `edge.rs`: the only file that knows HTTP: credentials from a request, and the answer for
//!   each failure.
//!
//! What requests use and cost is `metering`'s. The SQL lives here, against
//! `platform::Database`; the schema is `sql/0002_accounts.sql`, `sql/0004_audit.sql`,
//! `sql/0006_rate_limits.sql` and `sql/0017_voice_settings.sql` (the switches).

mod audit;
mod auth;
mod closed_beta;
mod edge;
mod error;
mod keys;
mod model;
mod period;
mod rate;
mod subscriptions;
mod views;

pub use audit::{Actor, SpokenTermsAction, SpokenTermsChange, record_spoken_terms};
pub use auth::{
    Access, AuthConfig, AuthError, AuthSettings, Bootstrap, Brownout, Credentials, RateLimited, authenticate,
};
pub use closed_beta::{set_translated_speech, translated_speech};
pub use edge::{
    BOOTSTRAP_ADMIN_KEY_VARIABLE, BOOTSTRAP_PLAN_VARIABLE, BROWNOUT_VARIABLE, VariableAuthConfig, admitted_principal,
    authenticate_header, authenticate_request, cost_control_characters, credentials, key_id, label_param,
};
pub use error::StoreError;
pub use keys::{
    KeyError, KeyRef, LimitChange, MAX_ACTIVE_KEYS, MAX_LABEL_CHARS, NewKey, create_key, deactivate_key, find_key,
    label, list_keys, relabel_key, secret_digest, set_key_limits,
};
pub use model::{ApiKey, KeyKind, Plan, Principal, Subscription};
pub use period::{BillingPeriod, billing_period, rfc3339};
pub use rate::{
    DEFAULT_BURST, DEFAULT_REQUESTS_PER_SECOND, MAX_BURST, MAX_REQUESTS_PER_SECOND, RateField, RateLimit,
    RateLimitChange, RateLimitError, RateLimitObject, RateLimitSettings, rate_limit, set_rate_limit,
};
pub use subscriptions::{
    CostControl, CostControlError, FREE_CHARACTER_LIMIT, any_subscription_exists, cost_control, create_subscription,
    find_subscription, set_cost_control,
};
pub use views::KeyObject;

#[cfg(test)]
mod test_support {
    use platform::native::{NativeHost, SqliteDb};
    use platform::{Database, FixedClock};

    /// The application's schema, as far as this crate uses it.
    const SCHEMA: [&str; 5] = [
        include_str!("../../../sql/0002_accounts.sql"),
        include_str!("../../../sql/0003_usage_reports.sql"),
        include_str!("../../../sql/0004_audit.sql"),
        include_str!("../../../sql/0006_rate_limits.sql"),
        include_str!("../../../sql/0017_voice_settings.sql"),
    ];

    /// A fresh in-memory database with the application's schema.
    pub fn database() -> SqliteDb {
        let db = SqliteDb::open_in_memory().expect("open an in-memory database");
        db.migrate(&SCHEMA).expect("apply the schema");
        db
    }

    /// An audit entry as written, for the tests of the changes that write them.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Logged {
        pub action: String,
        pub admin_key_id: Option<String>,
        pub target_type: String,
        pub target_id: String,
        pub old_value: Option<serde_json::Value>,
        pub new_value: Option<serde_json::Value>,
    }

    /// Every audit entry of the subscription, newest first.
    pub fn audit_log(db: &SqliteDb, subscription_id: &str) -> Vec<Logged> {
        let rows = db
            .execute(
                "SELECT action, actor_key_id, target_type, target_id, old_value, new_value FROM audit_log
                  WHERE subscription_id = ? ORDER BY id DESC",
                &[subscription_id.into()],
            )
            .expect("read the audit log")
            .rows;
        let json = |text: Option<String>| text.map(|text| serde_json::from_str(&text).expect("JSON"));
        rows.iter()
            .map(|row| Logged {
                action: row.get(0).unwrap(),
                admin_key_id: row.get(1).unwrap(),
                target_type: row.get(2).unwrap(),
                target_id: row.get(3).unwrap(),
                old_value: json(row.get(4).unwrap()),
                new_value: json(row.get(5).unwrap()),
            })
            .collect()
    }

    /// Fresh in-memory storage and a clock the test sets.
    pub type Fixture = NativeHost;

    /// A fresh store whose clock shows `unix_seconds`.
    pub fn at(unix_seconds: u64) -> Fixture {
        NativeHost::with_db(database(), FixedClock::at_unix(unix_seconds)).expect("set up the host")
    }
}
