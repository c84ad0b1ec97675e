//! Subscriptions, API keys, authentication, metering and quotas.
//!
//! A subscription has a plan, monthly billing periods, and limits; it owns admin keys (for the
//! admin API) and developer keys (for everything else). Secrets are stored only as SHA-256
//! digests. Every billable request is charged in one short transaction that re-reads the limits
//! and the period's totals and refuses the charge (456) if it would pass a limit, so concurrent
//! requests can never overshoot one. The SQL lives here, against `platform::Database`; the
//! schema is `sql/0002_accounts.sql` (and `sql/0004_audit.sql` for the audit log).

mod audit;
mod auth;
mod dates;
mod edge;
mod error;
mod keys;
mod period;
mod reports;
mod subscriptions;
mod tags;
mod usage;

pub use audit::{AUDIT_PAGE_SIZE, Actor, AuditEntry, AuditPage, entries as audit_entries};
pub use auth::{
    Access, AuthConfig, AuthError, AuthSettings, Bootstrap, Brownout, Credentials, Principal, authenticate,
};
pub use dates::{DateRange, MAX_RANGE_DAYS};
pub use edge::{
    BOOTSTRAP_ADMIN_KEY_VARIABLE, BOOTSTRAP_PLAN_VARIABLE, BROWNOUT_VARIABLE, VariableAuthConfig, authenticate_request,
    authenticate_request_within, credentials,
};
pub use error::StoreError;
pub use keys::{
    ApiKey, KeyError, KeyKind, KeyRef, LimitChange, MAX_ACTIVE_KEYS, NewKey, create_key, deactivate_key, find_key,
    list_keys, new_uuid, relabel_key, secret_digest, set_key_limits,
};
pub use period::{BillingPeriod, billing_period, day_of, rfc3339};
pub use reports::{
    Aggregation, CUSTOM_TAG_PAGE_SIZE, CustomTagQuery, CustomTagReport, GroupBy, KeyReport, KeyReportQuery,
    ReportError, custom_tag_report, key_report, masked_key_id, page as report_page,
};
pub use subscriptions::{
    CostControlError, FREE_CHARACTER_LIMIT, Plan, Subscription, any_subscription_exists, create_subscription,
    find_subscription, set_cost_control,
};
pub use tags::{ReportingTag, TagError};
pub use usage::{Charge, ChargeError, ProUsage, Product, ProductUsage, UNLIMITED, UsageReport, charge, usage_report};

#[cfg(test)]
mod test_support {
    use std::ops::Deref;

    use platform::FixedClock;
    use platform::native::{NativeHost, SqliteDb};

    use crate::{Actor, KeyKind, Plan, Principal, create_key, create_subscription};

    /// The application's schema, as far as this crate uses it.
    const SCHEMA: [&str; 3] = [
        include_str!("../../../sql/0002_accounts.sql"),
        include_str!("../../../sql/0003_usage_reports.sql"),
        include_str!("../../../sql/0004_audit.sql"),
    ];

    /// A fresh in-memory database with the application's schema.
    pub fn database() -> SqliteDb {
        let db = SqliteDb::open_in_memory().expect("open an in-memory database");
        db.migrate(&SCHEMA).expect("apply the schema");
        db
    }

    /// Fresh in-memory storage and a clock the test sets.
    pub struct Fixture(NativeHost);

    impl Deref for Fixture {
        type Target = NativeHost;

        fn deref(&self) -> &NativeHost {
            &self.0
        }
    }

    impl Fixture {
        /// A fresh store whose clock shows `unix_seconds`.
        pub fn at(unix_seconds: u64) -> Fixture {
            Fixture(NativeHost::with_db(database(), FixedClock::at_unix(unix_seconds)).expect("set up the host"))
        }

        /// A new subscription with one developer key.
        pub fn principal(&self, plan: Plan) -> Principal {
            let services = self.services();
            let subscription = create_subscription(&services, plan).expect("create a subscription");
            let key = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator)
                .expect("create a key")
                .key;
            Principal { subscription, key }
        }
    }
}
