//! What the metering tests share: fresh storage with the real schema, subscriptions and keys made
//! through `accounts`, and report queries written as query strings.

use accounts::{Actor, KeyKind, Plan, Principal, create_key, create_subscription};
use platform::FixedClock;
use platform::native::NativeHost;

use crate::dates::DateRange;
use crate::reports::custom_tags::{Aggregation, CustomTagQuery};
use crate::reports::keys::{GroupBy, KeyReportQuery};
use crate::reports::paging::parse_page;

/// The application's schema, as far as metering uses it.
pub const SCHEMA: [&str; 5] = [
    include_str!("../../../sql/0002_accounts.sql"),
    include_str!("../../../sql/0003_usage_reports.sql"),
    include_str!("../../../sql/0004_audit.sql"),
    include_str!("../../../sql/0008_usage_journal.sql"),
    include_str!("../../../sql/0013_usage_reservations.sql"),
];

/// Fresh in-memory storage and a clock the test sets.
pub type Fixture = NativeHost;

/// A fresh store whose clock shows `unix_seconds`.
pub fn at(unix_seconds: u64) -> Fixture {
    NativeHost::in_memory(&SCHEMA, FixedClock::at_unix(unix_seconds)).expect("set up the host")
}

/// Who the tests charge.
pub trait Principals {
    /// A new subscription with one developer key.
    fn principal(&self, plan: Plan) -> Principal;
    /// Another developer key of `principal`'s subscription.
    fn second_key(&self, principal: &Principal) -> Principal;
}

impl Principals for Fixture {
    fn principal(&self, plan: Plan) -> Principal {
        let services = self.services();
        let subscription = create_subscription(&services, plan).expect("create a subscription");
        let key =
            create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).expect("create a key").key;
        Principal { subscription, key }
    }

    fn second_key(&self, principal: &Principal) -> Principal {
        let services = self.services();
        let key = create_key(&services, &principal.subscription, KeyKind::Developer, None, Actor::Operator)
            .expect("create a key")
            .key;
        Principal { subscription: principal.subscription.clone(), key }
    }
}

/// The value of `name` in the query string `query`.
fn field(query: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes()).find(|(key, _)| key == name).map(|(_, value)| value.into_owned())
}

/// The range from `start_date` to `end_date`.
pub fn range(start_date: &str, end_date: &str) -> DateRange {
    DateRange::parse(Some(start_date), Some(end_date)).unwrap()
}

/// The key report query a query string asks.
pub fn key_query(query: &str) -> KeyReportQuery {
    KeyReportQuery {
        range: DateRange::parse(field(query, "start_date").as_deref(), field(query, "end_date").as_deref()).unwrap(),
        group_by: GroupBy::parse(field(query, "group_by").as_deref()).unwrap(),
    }
}

/// The custom-tag report query a query string asks.
pub fn tag_query(query: &str) -> CustomTagQuery {
    CustomTagQuery {
        range: DateRange::parse(field(query, "start_date").as_deref(), field(query, "end_date").as_deref()).unwrap(),
        aggregate_by: Aggregation::parse(field(query, "aggregate_by").as_deref()).unwrap(),
        page: parse_page(field(query, "page").as_deref()).unwrap(),
    }
}
