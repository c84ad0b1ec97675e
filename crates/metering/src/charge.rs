//! Charging: one request's usage, recorded once and within every limit.
//!
//! A billable request is charged once, after its work succeeded, with one SQL statement: it
//! appends the units to the usage journal only if the key is active and neither the key's nor
//! the subscription's limit would be passed, reading the period's totals in the same statement
//! (the journal's trigger adds to them). A writing statement holds SQLite's write lock from its
//! first step, so concurrent charges are serialised and can never together pass a limit; a
//! charge that is refused, or a request that fails before, records nothing. The statement is
//! short on purpose: under Spin each request compiles it afresh, and every other writer waits
//! while it runs. Reports read the journal once it is folded (`journal.rs`).
//!
//! Work that finishes after its request (a document) reserves its units instead
//! ([`reserve`], `sql/0013_usage_reservations.sql`): the same check, counting the reservations
//! held, records a reservation that every later check counts too; [`settle`] turns it into a
//! charge once, and [`release`] gives it back.

use accounts::{Principal, billing_period};
use platform::db::{RetryPolicy, transaction};
use platform::{Database, DbError, QueryResult, Services, Value};
use time::OffsetDateTime;

use crate::dates::day_of;
use crate::error::ChargeError;
use crate::journal;
use crate::tags::ReportingTag;

/// What was used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Product {
    /// Text translation (characters).
    Translate,
    /// Document translation (characters).
    Document,
    /// Text improvement (characters).
    Write,
    /// Speech to text (milliseconds).
    Speech,
}

impl Product {
    pub fn as_str(self) -> &'static str {
        match self {
            Product::Translate => "translate",
            Product::Document => "document",
            Product::Write => "write",
            Product::Speech => "speech",
        }
    }
}

/// The products counted against the character limits.
const CHARACTER_PRODUCTS: &str = "'translate', 'document', 'write'";

/// One request's consumption.
#[derive(Debug, Clone, Copy)]
pub struct Charge<'a> {
    pub principal: &'a Principal,
    pub product: Product,
    /// Characters, or milliseconds of speech. Zero (e.g. beta targets) records nothing but is
    /// still refused to a blocked key.
    pub units: i64,
    /// Recorded for text translation only.
    pub tag: Option<&'a ReportingTag>,
}

/// Whether the key is active and the charge stays within both limits (`?1` subscription, `?2`
/// key, `?3` period start, `?4` units), counting what is charged and what is reserved. A limit of
/// 0 blocks even a charge of nothing.
const CONDITION: &str = "EXISTS (SELECT 1 FROM api_keys k JOIN subscriptions s ON s.id = k.subscription_id
      WHERE s.id = ?1 AND k.id = ?2 AND k.deactivated_at IS NULL
        AND (k.LIMIT IS NULL OR (k.LIMIT > 0 AND ?4 + (SELECT COALESCE(SUM(units), 0) FROM usage_totals
              WHERE subscription_id = ?1 AND key_id = ?2 AND period_start = ?3 AND product IN (PRODUCTS))
            + (SELECT COALESCE(SUM(units), 0) FROM usage_reservations
              WHERE subscription_id = ?1 AND period_start = ?3 AND key_id = ?2 AND product IN (PRODUCTS)) <= k.LIMIT))
        AND (s.LIMIT IS NULL OR (s.LIMIT > 0 AND ?4 + (SELECT COALESCE(SUM(units), 0) FROM usage_totals
              WHERE subscription_id = ?1 AND key_id = '' AND period_start = ?3 AND product IN (PRODUCTS))
            + (SELECT COALESCE(SUM(units), 0) FROM usage_reservations
              WHERE subscription_id = ?1 AND period_start = ?3 AND product IN (PRODUCTS)) <= s.LIMIT)))";

/// Records the charge if [`CONDITION`] holds (`?5` day, `?6` tag, `?7` product); returns its
/// journal row when it did.
const SQL_CHARGE: &str = "INSERT INTO usage_journal (subscription_id, key_id, day, tag, product, period_start, units)
    SELECT ?1, ?2, ?5, ?6, ?7, ?3, ?4 WHERE CONDITION
    RETURNING id";

/// [`CONDITION`] for the limits and products of `product`.
fn condition(product: Product) -> String {
    let (limit, products) = match product {
        Product::Speech => ("speech_limit_ms", "'speech'"),
        _ => ("character_limit", CHARACTER_PRODUCTS),
    };
    CONDITION.replace("LIMIT", limit).replace("PRODUCTS", products)
}

/// How often a charge is tried when the database is busy (another writer held the lock past
/// the busy timeout); nothing was written by a busy attempt, so trying again cannot bill twice.
const BUSY_ATTEMPTS: u32 = 4;

/// Runs one writing statement, again while the database is busy (nothing was written by a busy
/// attempt, so trying again cannot bill twice), [`BUSY_ATTEMPTS`] times at most.
fn execute_when_free(db: &dyn Database, sql: &str, params: &[Value]) -> Result<QueryResult, DbError> {
    let mut attempt = 1;
    loop {
        match db.execute(sql, params) {
            Err(DbError::Busy(_)) if attempt < BUSY_ATTEMPTS => {
                std::thread::sleep(std::time::Duration::from_millis(5 << attempt));
                attempt += 1;
            }
            outcome => return outcome,
        }
    }
}

/// Charges one request, or refuses it (see the module documentation).
pub fn charge(services: &Services<'_>, charge: Charge<'_>) -> Result<(), ChargeError> {
    let moment = OffsetDateTime::from(services.clock.now());
    let subscription = &charge.principal.subscription;
    let key = &charge.principal.key;
    let period = billing_period(subscription.billing_anchor, moment).key();
    let condition = condition(charge.product);
    let mut params = vec![
        Value::from(subscription.id.as_str()),
        Value::from(key.id.as_str()),
        Value::from(period.as_str()),
        Value::Integer(charge.units),
    ];
    let sql = if charge.units == 0 {
        format!("SELECT 1 WHERE {condition}")
    } else {
        let tag = match (charge.product, charge.tag) {
            (Product::Translate, Some(tag)) => tag.as_str(),
            _ => "",
        };
        params.extend([Value::from(day_of(moment)), Value::from(tag), Value::from(charge.product.as_str())]);
        SQL_CHARGE.replace("CONDITION", &condition)
    };
    let result = execute_when_free(services.db, &sql, &params)?;
    if let Some(row) = result.first() {
        // Recorded: nothing after this may fail the request, which is billed now.
        if let (true, Ok(id)) = (charge.units != 0, row.get::<i64>(0)) {
            journal::after_charge(services.db, id);
        }
        return Ok(());
    }
    Err(refusal(services, charge.principal)?)
}

/// Why a charge or reservation of `principal` was refused: its key was deactivated, or a limit
/// would be passed.
fn refusal(services: &Services<'_>, principal: &Principal) -> Result<ChargeError, ChargeError> {
    let state = services.db.execute(
        "SELECT deactivated_at IS NOT NULL FROM api_keys WHERE subscription_id = ? AND id = ?",
        &[Value::from(principal.subscription.id.as_str()), Value::from(principal.key.id.as_str())],
    )?;
    match state.first().map(|row| row.get::<i64>(0)).transpose()? {
        Some(0) => Ok(ChargeError::QuotaExceeded),
        _ => Ok(ChargeError::Deactivated),
    }
}

/// Records a reservation for `holder` if [`CONDITION`] holds (`?5` holder, `?6` product, `?7`
/// time); a holder holds one reservation at most.
const SQL_RESERVE: &str =
    "INSERT INTO usage_reservations (holder, subscription_id, key_id, period_start, product, units, created_at)
    SELECT ?5, ?1, ?2, ?3, ?6, ?4, ?7 WHERE CONDITION
    ON CONFLICT (holder) DO NOTHING
    RETURNING holder";

/// Reserves `charge`'s units for `holder` (e.g. `document:<id>`), within every limit as a charge
/// would be, counting the reservations already held: refused as [`charge`] refuses. Nothing is
/// charged until [`settle`]. A holder that holds a reservation already is refused
/// ([`ChargeError::Reserved`]).
pub fn reserve(services: &Services<'_>, charge: Charge<'_>, holder: &str) -> Result<(), ChargeError> {
    let moment = OffsetDateTime::from(services.clock.now());
    let subscription = &charge.principal.subscription;
    let period = billing_period(subscription.billing_anchor, moment).key();
    let params = [
        Value::from(subscription.id.as_str()),
        Value::from(charge.principal.key.id.as_str()),
        Value::from(period.as_str()),
        Value::Integer(charge.units),
        Value::from(holder),
        Value::from(charge.product.as_str()),
        Value::from(accounts::rfc3339(moment).as_str()),
    ];
    let sql = SQL_RESERVE.replace("CONDITION", &condition(charge.product));
    let result = execute_when_free(services.db, &sql, &params)?;
    if result.first().is_some() {
        return Ok(());
    }
    let held = services.db.execute("SELECT 1 FROM usage_reservations WHERE holder = ?", &[Value::from(holder)])?;
    if held.first().is_some() {
        return Err(ChargeError::Reserved);
    }
    Err(refusal(services, charge.principal)?)
}

/// Turns `holder`'s reservation into a charge of `units` (at most what it reserved), in the
/// period and on the day it is settled, attributed to the key and product that reserved it: the
/// reservation is deleted and the journal appended in one transaction, so a holder is charged
/// once whatever happens (a second settle finds nothing). Answers whether it charged.
pub fn settle(services: &Services<'_>, holder: &str, units: i64) -> Result<bool, ChargeError> {
    let moment = OffsetDateTime::from(services.clock.now());
    let charged = transaction(services.db, RetryPolicy::default(), |db| {
        let taken = db.execute(
            "DELETE FROM usage_reservations WHERE holder = ? RETURNING subscription_id, key_id, product, units",
            &[Value::from(holder)],
        )?;
        let Some(row) = taken.first() else { return Ok(None) };
        let (subscription_id, key_id, product, reserved): (String, String, String, i64) =
            (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
        let anchor = db.execute(
            "SELECT billing_anchor FROM subscriptions WHERE id = ?",
            &[Value::from(subscription_id.as_str())],
        )?;
        let anchor = anchor.first().map(|row| row.get::<String>(0)).transpose()?;
        let anchor = anchor
            .as_deref()
            .and_then(|text| OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok());
        let Some(anchor) = anchor else {
            return Err(DbError::Decode(format!("subscription {subscription_id} has no billing anchor")));
        };
        let units = units.clamp(0, reserved);
        if units == 0 {
            return Ok(None);
        }
        let journal = db.execute(
            "INSERT INTO usage_journal (subscription_id, key_id, day, tag, product, period_start, units) \
             VALUES (?, ?, ?, '', ?, ?, ?) RETURNING id",
            &[
                Value::from(subscription_id.as_str()),
                Value::from(key_id.as_str()),
                Value::from(day_of(moment)),
                Value::from(product.as_str()),
                Value::from(billing_period(anchor, moment).key().as_str()),
                Value::Integer(units),
            ],
        )?;
        journal.first().map(|row| row.get::<i64>(0)).transpose()
    })?;
    if let Some(id) = charged {
        journal::after_charge(services.db, id);
    }
    Ok(charged.is_some())
}

/// Gives `holder`'s reservation back, if it holds one: nothing is charged.
pub fn release(services: &Services<'_>, holder: &str) -> Result<(), ChargeError> {
    services.db.execute("DELETE FROM usage_reservations WHERE holder = ?", &[Value::from(holder)])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use accounts::Plan;
    use platform::Database;

    use super::*;
    use crate::test_support::{Fixture, Principals, at};
    use crate::usage::{UNLIMITED, usage_report};

    fn new_fixture() -> Fixture {
        at(1_800_000_000)
    }

    trait Charging {
        fn charge(&self, principal: &Principal, product: Product, units: i64) -> Result<(), ChargeError>;
    }

    impl Charging for Fixture {
        fn charge(&self, principal: &Principal, product: Product, units: i64) -> Result<(), ChargeError> {
            charge(&self.services(), Charge { principal, product, units, tag: None })
        }
    }

    #[test]
    fn charges_add_up_per_key_and_per_account() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Pro);
        let services = fixture.services();
        let other = fixture.second_key(&principal);
        fixture.charge(&principal, Product::Translate, 12).unwrap();
        fixture.charge(&principal, Product::Write, 5).unwrap();
        fixture.charge(&other, Product::Translate, 100).unwrap();
        fixture.charge(&principal, Product::Speech, 61_000).unwrap();

        let report = usage_report(&services, &principal).unwrap();
        assert_eq!(report.character_count, 117);
        assert_eq!(report.character_limit, UNLIMITED);
        let pro = report.pro.unwrap();
        assert_eq!(pro.api_key_character_count, 17);
        assert_eq!(pro.products[0].api_key_unit_count, 12);
        assert_eq!(pro.products[0].account_unit_count, 112);
        assert_eq!(pro.products[1].account_unit_count, 5);
        assert_eq!(pro.speech_to_text_milliseconds_count, 61_000);
        assert_eq!(pro.speech_to_text_minutes_count, 2);
        assert_eq!(pro.start_time, "2027-01-15T08:00:00Z");
        assert_eq!(pro.end_time, "2027-02-15T08:00:00Z");
    }

    #[test]
    fn speech_left_is_the_least_of_what_the_key_and_the_subscription_limits_leave() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Pro);
        let services = fixture.services();
        let other = fixture.second_key(&principal);
        assert_eq!(crate::speech_remaining(&services, &principal).unwrap(), None);
        fixture.charge(&principal, Product::Speech, 4_000).unwrap();
        fixture.charge(&other, Product::Speech, 10_000).unwrap();
        fixture.charge(&principal, Product::Translate, 99_999).unwrap();

        let mut limited = principal.clone();
        limited.key.speech_limit_ms = Some(5_000);
        assert_eq!(crate::speech_remaining(&services, &limited).unwrap(), Some(1_000));
        limited.subscription.speech_limit_ms = Some(14_500);
        assert_eq!(crate::speech_remaining(&services, &limited).unwrap(), Some(500));
        limited.key.speech_limit_ms = None;
        limited.subscription.speech_limit_ms = Some(12_000);
        assert_eq!(crate::speech_remaining(&services, &limited).unwrap(), Some(0));
    }

    #[test]
    fn a_charge_that_would_pass_the_key_limit_is_refused_and_records_nothing() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Pro);
        fixture.db.execute("UPDATE api_keys SET character_limit = 10", &[]).unwrap();
        fixture.charge(&principal, Product::Translate, 6).unwrap();
        assert!(matches!(fixture.charge(&principal, Product::Translate, 5), Err(ChargeError::QuotaExceeded)));
        fixture.charge(&principal, Product::Write, 4).unwrap();
        assert!(matches!(fixture.charge(&principal, Product::Translate, 1), Err(ChargeError::QuotaExceeded)));
        assert_eq!(usage_report(&fixture.services(), &principal).unwrap().character_count, 10);
    }

    #[test]
    fn a_blocked_key_is_refused_even_for_free_requests() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Pro);
        fixture.db.execute("UPDATE api_keys SET character_limit = 0", &[]).unwrap();
        assert!(matches!(fixture.charge(&principal, Product::Translate, 0), Err(ChargeError::QuotaExceeded)));
        fixture.db.execute("UPDATE api_keys SET character_limit = NULL", &[]).unwrap();
        fixture.charge(&principal, Product::Translate, 0).unwrap();
        let rows = fixture.db.execute("SELECT count(*) FROM usage_journal", &[]).unwrap();
        assert_eq!(rows.rows[0].get::<i64>(0).unwrap(), 0, "zero units record nothing");
    }

    #[test]
    fn the_subscription_limit_counts_every_key() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Free);
        fixture.charge(&principal, Product::Translate, 499_990).unwrap();
        assert!(matches!(fixture.charge(&principal, Product::Translate, 11), Err(ChargeError::QuotaExceeded)));
        fixture.charge(&principal, Product::Translate, 10).unwrap();
    }

    #[test]
    fn a_new_billing_period_starts_from_zero() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Free);
        fixture.charge(&principal, Product::Translate, 500_000).unwrap();
        assert!(matches!(fixture.charge(&principal, Product::Translate, 1), Err(ChargeError::QuotaExceeded)));
        fixture.clock.advance(Duration::from_secs(31 * 24 * 3600));
        fixture.charge(&principal, Product::Translate, 1).unwrap();
        assert_eq!(usage_report(&fixture.services(), &principal).unwrap().character_count, 1);
    }

    #[test]
    fn tags_are_recorded_for_text_translation_only() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Pro);
        let tag = ReportingTag::parse(b"Marketing").unwrap();
        let services = fixture.services();
        charge(&services, Charge { principal: &principal, product: Product::Translate, units: 3, tag: Some(&tag) })
            .unwrap();
        charge(&services, Charge { principal: &principal, product: Product::Write, units: 4, tag: Some(&tag) })
            .unwrap();
        let rows = fixture.db.execute("SELECT product, tag, units FROM usage_journal ORDER BY product", &[]).unwrap();
        let rows: Vec<(String, String, i64)> =
            rows.rows.iter().map(|row| (row.get(0).unwrap(), row.get(1).unwrap(), row.get(2).unwrap())).collect();
        assert_eq!(rows, [("translate".into(), "marketing".into(), 3), ("write".into(), String::new(), 4)]);
    }

    #[test]
    fn a_charge_runs_its_cached_statement_without_preparing_it_again() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Pro);
        for _ in 0..20 {
            fixture.charge(&principal, Product::Translate, 7).unwrap();
        }
        let sql = SQL_CHARGE.replace("CONDITION", &condition(Product::Translate));
        let statement = fixture.db.connection().prepare_cached(&sql).unwrap();
        // SQLite re-plans statements for their bound values unless told not to, which made
        // every charge ten times slower than its work (see `platform::native`).
        assert_eq!(statement.get_status(rusqlite::StatementStatus::RePrepare), 0);
        assert!(statement.get_status(rusqlite::StatementStatus::Run) >= 20);
    }

    #[test]
    fn a_key_deactivated_meanwhile_is_not_charged() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Pro);
        fixture.db.execute("UPDATE api_keys SET deactivated_at = '2027-01-01T00:00:00Z'", &[]).unwrap();
        assert!(matches!(fixture.charge(&principal, Product::Translate, 1), Err(ChargeError::Deactivated)));
    }

    fn reservation(principal: &Principal, units: i64) -> Charge<'_> {
        Charge { principal, product: Product::Document, units, tag: None }
    }

    #[test]
    fn a_reservation_holds_its_units_against_both_limits_until_released() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Pro);
        let services = fixture.services();
        fixture.db.execute("UPDATE api_keys SET character_limit = 100", &[]).unwrap();
        reserve(&services, reservation(&principal, 60), "document:a").unwrap();
        assert_eq!(usage_report(&services, &principal).unwrap().character_count, 0, "nothing charged yet");
        assert!(matches!(fixture.charge(&principal, Product::Translate, 41), Err(ChargeError::QuotaExceeded)));
        assert!(matches!(
            reserve(&services, reservation(&principal, 41), "document:b"),
            Err(ChargeError::QuotaExceeded)
        ));
        assert_eq!(
            fixture.db.execute("SELECT count(*) FROM usage_reservations", &[]).unwrap().rows[0].get::<i64>(0).unwrap(),
            1,
            "a refused reservation records nothing"
        );
        assert!(matches!(reserve(&services, reservation(&principal, 1), "document:a"), Err(ChargeError::Reserved)));
        fixture.charge(&principal, Product::Translate, 40).unwrap();
        release(&services, "document:a").unwrap();
        fixture.charge(&principal, Product::Translate, 60).unwrap();
        assert_eq!(usage_report(&services, &principal).unwrap().character_count, 100);
        assert!(!settle(&services, "document:a", 60).unwrap(), "released: nothing to settle");
    }

    #[test]
    fn a_reservation_is_settled_once_as_a_charge_of_at_most_its_units() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Pro);
        let services = fixture.services();
        reserve(&services, reservation(&principal, 50_000), "document:a").unwrap();
        assert!(settle(&services, "document:a", 70_000).unwrap());
        assert!(!settle(&services, "document:a", 70_000).unwrap(), "a holder is charged once");
        let report = usage_report(&services, &principal).unwrap();
        assert_eq!(report.character_count, 50_000, "at most what was reserved");
        let rows = fixture.db.execute("SELECT product, tag, units, key_id FROM usage_journal", &[]).unwrap();
        let row = &rows.rows[0];
        assert_eq!(
            (row.get::<String>(0).unwrap(), row.get::<String>(1).unwrap(), row.get::<i64>(2).unwrap()),
            ("document".into(), String::new(), 50_000)
        );
        assert_eq!(row.get::<String>(3).unwrap(), principal.key.id, "the key that reserved");
        assert_eq!(
            fixture.db.execute("SELECT count(*) FROM usage_reservations", &[]).unwrap().rows[0].get::<i64>(0).unwrap(),
            0
        );
    }

    #[test]
    fn the_subscription_limit_counts_every_key_s_reservations() {
        let fixture = new_fixture();
        let principal = fixture.principal(Plan::Free);
        let services = fixture.services();
        let other = fixture.second_key(&principal);
        // Free: 500,000 characters a period.
        reserve(&services, reservation(&principal, 450_000), "document:a").unwrap();
        assert!(matches!(
            reserve(&services, reservation(&other, 50_001), "document:b"),
            Err(ChargeError::QuotaExceeded)
        ));
        reserve(&services, reservation(&other, 50_000), "document:b").unwrap();
        assert!(matches!(fixture.charge(&other, Product::Translate, 1), Err(ChargeError::QuotaExceeded)));
        fixture
            .db
            .execute(
                "UPDATE api_keys SET deactivated_at = '2027-01-01T00:00:00Z' WHERE id = ?",
                &[principal.key.id.as_str().into()],
            )
            .unwrap();
        assert!(matches!(reserve(&services, reservation(&principal, 0), "document:c"), Err(ChargeError::Deactivated)));
    }
}
