//! Subscriptions: a plan, monthly billing periods and limits.

use platform::db::{RetryPolicy, TransactionError, transaction};
use platform::{Database, DbError, Services, Value};
use serde::Serialize;
use serde_json::json;

use crate::audit::{self, Action, Actor, Change, Target};
use crate::error::StoreError;
use crate::model::{Plan, Subscription};
use crate::period::{now, parse_stored, rfc3339};

/// Characters a Free subscription may translate per billing period.
pub const FREE_CHARACTER_LIMIT: i64 = 500_000;

const SQL_INSERT: &str =
    "INSERT INTO subscriptions (id, plan, created_at, billing_anchor, character_limit, speech_limit_ms)
    VALUES (?, ?, ?, ?, ?, ?)";
const SQL_ANY: &str = "SELECT EXISTS (SELECT 1 FROM subscriptions)";

/// Creates a subscription whose first billing period starts now. Free subscriptions get the
/// Free character limit; Pro subscriptions start without limits.
pub fn create_subscription(services: &Services<'_>, plan: Plan) -> Result<Subscription, StoreError> {
    let now = now(services.clock);
    let subscription = Subscription {
        id: crate::keys::new_uuid(services.random),
        plan,
        created_at: now,
        billing_anchor: now,
        character_limit: match plan {
            Plan::Free => Some(FREE_CHARACTER_LIMIT),
            Plan::Pro => None,
        },
        speech_limit_ms: None,
    };
    insert(services.db, &subscription)?;
    Ok(subscription)
}

fn insert(db: &dyn Database, subscription: &Subscription) -> Result<(), StoreError> {
    db.execute(
        SQL_INSERT,
        &[
            Value::from(subscription.id.as_str()),
            Value::from(subscription.plan.as_str()),
            Value::from(rfc3339(subscription.created_at)),
            Value::from(rfc3339(subscription.billing_anchor)),
            Value::from(subscription.character_limit),
            Value::from(subscription.speech_limit_ms),
        ],
    )?;
    Ok(())
}

/// The subscription with this id, if there is one.
pub fn find_subscription(db: &dyn Database, id: &str) -> Result<Option<Subscription>, StoreError> {
    let result = db.execute(
        "SELECT id, plan, created_at, billing_anchor, character_limit, speech_limit_ms FROM subscriptions WHERE id = ?",
        &[Value::from(id)],
    )?;
    result.first().map(|row| from_row(row, 0)).transpose()
}

/// Whether any subscription exists (bootstrap runs only on an empty store).
pub fn any_subscription_exists(db: &dyn Database) -> Result<bool, StoreError> {
    let result = db.execute(SQL_ANY, &[])?;
    let row = result.first().ok_or(StoreError::Corrupt { what: "EXISTS result", value: String::new() })?;
    Ok(row.get::<i64>(0)? != 0)
}

/// Why a subscription's cost control cannot be changed.
#[derive(Debug, thiserror::Error)]
pub enum CostControlError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(
        "Cost control is a Pro feature; the Free plan's limit is fixed at {FREE_CHARACTER_LIMIT} characters per billing period."
    )]
    FreePlan,
    #[error("the subscription does not exist")]
    Unknown,
}

impl From<DbError> for CostControlError {
    fn from(error: DbError) -> CostControlError {
        CostControlError::Store(error.into())
    }
}

impl TransactionError for CostControlError {
    fn is_busy(&self) -> bool {
        matches!(self, CostControlError::Store(StoreError::Db(DbError::Busy(_))))
    }
}

/// A Pro subscription's cost control, as the admin API answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CostControl {
    /// The character limit per billing period; `None` (`null`): no limit.
    pub characters: Option<i64>,
}

/// The subscription's cost control; Free subscriptions have none to show or change.
pub fn cost_control(subscription: &Subscription) -> Result<CostControl, CostControlError> {
    match subscription.plan {
        Plan::Pro => Ok(CostControl { characters: subscription.character_limit }),
        Plan::Free => Err(CostControlError::FreePlan),
    }
}

/// Sets (`Some`, `0` stopping all use) or clears (`None`) a Pro subscription's cost control: its
/// character limit per billing period, which every charge reads. The audit log records the
/// change. Answers the subscription as it is now.
pub fn set_cost_control(
    services: &Services<'_>,
    subscription_id: &str,
    characters: Option<i64>,
    actor: Actor<'_>,
) -> Result<Subscription, CostControlError> {
    transaction(services.db, RetryPolicy::default(), |db| {
        let current = find_subscription(db, subscription_id)?.ok_or(CostControlError::Unknown)?;
        if current.plan != Plan::Pro {
            return Err(CostControlError::FreePlan);
        }
        if current.character_limit == characters {
            return Ok(current);
        }
        db.execute(
            "UPDATE subscriptions SET character_limit = ? WHERE id = ?",
            &[Value::from(characters), Value::from(subscription_id)],
        )?;
        let change = Change {
            subscription_id,
            at: now(services.clock),
            actor,
            action: Action::ChangeCostControl,
            target: Target::Subscription(subscription_id),
            old: Some(json!({"characters": current.character_limit})),
            new: Some(json!({"characters": characters})),
        };
        audit::record(db, change)?;
        Ok(Subscription { character_limit: characters, ..current })
    })
}

/// Reads the subscription columns starting at `offset` of a row (id, plan, created_at,
/// billing_anchor, character_limit, speech_limit_ms).
pub(crate) fn from_row(row: &platform::Row, offset: usize) -> Result<Subscription, StoreError> {
    let plan: String = row.get(offset + 1)?;
    Ok(Subscription {
        id: row.get(offset)?,
        plan: Plan::parse(&plan).ok_or(StoreError::Corrupt { what: "plan", value: plan })?,
        created_at: parse_stored(&row.get::<String>(offset + 2)?)?,
        billing_anchor: parse_stored(&row.get::<String>(offset + 3)?)?,
        character_limit: row.get(offset + 4)?,
        speech_limit_ms: row.get(offset + 5)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_subscription_has_the_free_limit_and_a_pro_one_none() {
        let fixture = crate::test_support::at(1_800_000_000);
        let services = fixture.services();
        let db = &fixture.db;
        assert!(!any_subscription_exists(db).unwrap());
        let free = create_subscription(&services, Plan::Free).unwrap();
        let pro = create_subscription(&services, Plan::Pro).unwrap();
        assert_eq!(free.character_limit, Some(FREE_CHARACTER_LIMIT));
        assert_eq!(pro.character_limit, None);
        assert_ne!(free.id, pro.id);
        assert!(any_subscription_exists(db).unwrap());
        assert_eq!(find_subscription(db, &free.id).unwrap(), Some(free));
        assert_eq!(find_subscription(db, "nope").unwrap(), None);
    }

    #[test]
    fn cost_control_is_set_and_cleared_on_pro_only_and_audited() {
        let fixture = crate::test_support::at(1_800_000_000); // 2027-01-15
        let services = fixture.services();
        let pro = create_subscription(&services, Plan::Pro).unwrap();
        let free = create_subscription(&services, Plan::Free).unwrap();
        let admin = Actor::AdminKey("admin-key-id");

        assert_eq!(set_cost_control(&services, &pro.id, Some(1000), admin).unwrap().character_limit, Some(1000));
        assert_eq!(find_subscription(&fixture.db, &pro.id).unwrap().unwrap().character_limit, Some(1000));
        assert_eq!(set_cost_control(&services, &pro.id, None, admin).unwrap().character_limit, None);
        set_cost_control(&services, &pro.id, None, admin).unwrap();
        assert!(matches!(set_cost_control(&services, &free.id, Some(1), admin), Err(CostControlError::FreePlan)));
        assert!(matches!(set_cost_control(&services, "nope", Some(1), admin), Err(CostControlError::Unknown)));
        assert_eq!(
            find_subscription(&fixture.db, &free.id).unwrap().unwrap().character_limit,
            Some(FREE_CHARACTER_LIMIT)
        );

        let log = crate::test_support::audit_log(&fixture.db, &pro.id);
        let changes: Vec<_> = log.iter().map(|entry| (entry.old_value.clone(), entry.new_value.clone())).collect();
        assert_eq!(
            changes,
            [
                (Some(json!({"characters": 1000})), Some(json!({"characters": null}))),
                (Some(json!({"characters": null})), Some(json!({"characters": 1000}))),
            ],
            "one entry per change, none for a change to the same value"
        );
        assert_eq!(log[0].target_type, "subscription");
    }

    #[test]
    fn plans_parse_case_insensitively() {
        assert_eq!(Plan::parse(" Pro "), Some(Plan::Pro));
        assert_eq!(Plan::parse("free"), Some(Plan::Free));
        assert_eq!(Plan::parse("enterprise"), None);
    }
}
