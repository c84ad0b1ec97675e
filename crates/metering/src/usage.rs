//! `/v2/usage`: the caller's usage and limits in the current billing period.

use accounts::{Plan, Principal, billing_period, rfc3339};
use platform::{Services, Value};
use serde::Serialize;
use time::OffsetDateTime;

use crate::error::ReportError;

/// What `/v2/usage` reports as the limit when there is none.
pub const UNLIMITED: i64 = 1_000_000_000_000;

/// One product's line in `/v2/usage`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProductUsage {
    pub product_type: &'static str,
    pub billing_unit: &'static str,
    pub api_key_unit_count: i64,
    pub account_unit_count: i64,
    /// Deprecated names clients still read: characters of this key and of the account.
    pub api_key_character_count: i64,
    pub character_count: i64,
}

/// What `/v2/usage` answers. Free subscriptions get the two character fields only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UsageReport {
    pub character_count: i64,
    pub character_limit: i64,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub pro: Option<ProUsage>,
}

/// The fields only Pro subscriptions get.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProUsage {
    pub products: Vec<ProductUsage>,
    pub api_key_character_count: i64,
    pub api_key_character_limit: i64,
    pub speech_to_text_milliseconds_count: i64,
    pub speech_to_text_milliseconds_limit: i64,
    pub speech_to_text_minutes_count: i64,
    pub speech_to_text_minutes_limit: i64,
    pub start_time: String,
    pub end_time: String,
}

const SQL_PERIOD_TOTALS: &str = "SELECT key_id, product, units FROM usage_totals
    WHERE subscription_id = ? AND period_start = ? AND (key_id = '' OR key_id = ?)";

/// The caller's usage and limits for the current billing period.
pub fn usage_report(services: &Services<'_>, principal: &Principal) -> Result<UsageReport, ReportError> {
    let subscription = &principal.subscription;
    let key = &principal.key;
    let period = billing_period(subscription.billing_anchor, OffsetDateTime::from(services.clock.now()));
    let result = services.db.execute(
        SQL_PERIOD_TOTALS,
        &[Value::from(subscription.id.as_str()), Value::from(period.key()), Value::from(key.id.as_str())],
    )?;
    let mut account = Totals::default();
    let mut mine = Totals::default();
    for row in &result.rows {
        let key_id: String = row.get(0)?;
        let product: String = row.get(1)?;
        let units: i64 = row.get(2)?;
        let totals = if key_id.is_empty() { &mut account } else { &mut mine };
        totals.add(&product, units);
    }
    let character_limit = subscription.character_limit.unwrap_or(UNLIMITED);
    let pro = (subscription.plan == Plan::Pro).then(|| {
        let speech_limit = subscription.speech_limit_ms;
        ProUsage {
            products: vec![
                product_line("translate", "characters", mine.translate(), account.translate()),
                product_line("write", "characters", mine.write, account.write),
                ProductUsage {
                    product_type: "speechToText",
                    billing_unit: "minutes",
                    api_key_unit_count: minutes(mine.speech_ms),
                    account_unit_count: minutes(account.speech_ms),
                    api_key_character_count: 0,
                    character_count: 0,
                },
            ],
            api_key_character_count: mine.characters(),
            api_key_character_limit: key.character_limit.unwrap_or(UNLIMITED),
            speech_to_text_milliseconds_count: account.speech_ms,
            speech_to_text_milliseconds_limit: speech_limit.unwrap_or(UNLIMITED),
            speech_to_text_minutes_count: minutes(account.speech_ms),
            speech_to_text_minutes_limit: speech_limit.map_or(UNLIMITED, minutes),
            start_time: rfc3339(period.start),
            end_time: rfc3339(period.end),
        }
    });
    Ok(UsageReport { character_count: account.characters(), character_limit, pro })
}

/// The milliseconds of speech `principal` may still use this billing period: the least of what
/// its key's and its subscription's limits leave (never below 0), `None` when neither has one.
pub fn speech_remaining(services: &Services<'_>, principal: &Principal) -> Result<Option<i64>, ReportError> {
    let subscription = &principal.subscription;
    let key = &principal.key;
    if subscription.speech_limit_ms.is_none() && key.speech_limit_ms.is_none() {
        return Ok(None);
    }
    let period = billing_period(subscription.billing_anchor, OffsetDateTime::from(services.clock.now()));
    let result = services.db.execute(
        SQL_PERIOD_TOTALS,
        &[Value::from(subscription.id.as_str()), Value::from(period.key()), Value::from(key.id.as_str())],
    )?;
    let (mut account, mut mine) = (0, 0);
    for row in &result.rows {
        let (key_id, product, units): (String, String, i64) = (row.get(0)?, row.get(1)?, row.get(2)?);
        if product == "speech" {
            *(if key_id.is_empty() { &mut account } else { &mut mine }) += units;
        }
    }
    let left = |limit: Option<i64>, used: i64| limit.map(|limit| (limit - used).max(0));
    Ok(match (left(key.speech_limit_ms, mine), left(subscription.speech_limit_ms, account)) {
        (Some(key), Some(subscription)) => Some(key.min(subscription)),
        (key, subscription) => key.or(subscription),
    })
}

fn product_line(product_type: &'static str, unit: &'static str, mine: i64, account: i64) -> ProductUsage {
    ProductUsage {
        product_type,
        billing_unit: unit,
        api_key_unit_count: mine,
        account_unit_count: account,
        api_key_character_count: mine,
        character_count: account,
    }
}

/// Milliseconds as whole minutes, rounded up.
fn minutes(milliseconds: i64) -> i64 {
    (milliseconds.max(0) + 59_999) / 60_000
}

#[derive(Debug, Default)]
struct Totals {
    text: i64,
    document: i64,
    write: i64,
    speech_ms: i64,
}

impl Totals {
    fn add(&mut self, product: &str, units: i64) {
        match product {
            "translate" => self.text += units,
            "document" => self.document += units,
            "write" => self.write += units,
            "speech" => self.speech_ms += units,
            _ => {}
        }
    }

    /// Text and document translation are one product in the report.
    fn translate(&self) -> i64 {
        self.text + self.document
    }

    fn characters(&self) -> i64 {
        self.text + self.document + self.write
    }
}

#[cfg(test)]
mod tests {
    use accounts::Plan;

    use super::*;
    use crate::charge::{Charge, Product, charge};
    use crate::test_support::{Principals, at};

    #[test]
    fn a_free_report_has_only_the_character_fields() {
        let fixture = at(1_800_000_000);
        let principal = fixture.principal(Plan::Free);
        let services = fixture.services();
        charge(&services, Charge { principal: &principal, product: Product::Translate, units: 42, tag: None }).unwrap();
        let report = usage_report(&fixture.services(), &principal).unwrap();
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json, serde_json::json!({"character_count": 42, "character_limit": 500000}));
    }
}
