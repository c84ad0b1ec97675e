//! Request-rate limiting per key: a sustained rate and a burst, as the generic cell rate
//! algorithm (GCRA) keeps them.
//!
//! Each key has one number, the theoretical arrival time (TAT) of its next request. With `r`
//! requests per second the emission interval is `T = 1 s / r`, and a burst of `b` allows the
//! TAT to run `τ = (b − 1)·T` ahead of the clock: a request at `now` is admitted when
//! `max(TAT, now) − now ≤ τ`, and moves the TAT on to `max(TAT, now) + T`; otherwise it is
//! refused and changes nothing, and may be retried once the TAT is back within `τ`. An idle key
//! thus sends `b` requests at once, then `r` per second.
//!
//! A component gets a fresh instance for every request, so the state lives in SQLite
//! (`sql/0006_rate_limits.sql`) and each request moves it in one UPSERT ([`SQL_ADMIT`]), which
//! is [`RateLimit::decide`] in SQL: atomic, whichever host and however many instances. Time is
//! the request clock's, in microseconds. A TAT further ahead than any admitted request can leave
//! it (`τ + T`), by more than [`CLOCK_SKEW_US`] that hosts' clocks may differ by, means the clock
//! went back (a corrected host clock, a test's clock): the key starts afresh rather than being
//! locked out.
//!
//! Every subscription's keys get [`RateLimit::DEFAULT`] unless the subscription sets its own
//! (Pro only), through the admin API; the change is audited like cost control.

use std::time::{SystemTime, UNIX_EPOCH};

use platform::db::{RetryPolicy, TransactionError, transaction};
use platform::{Clock, Database, DbError, Services, Value};
use serde::Serialize;
use serde_json::json;

use crate::audit::{self, Action, Actor, Change, Target};
use crate::error::StoreError;
use crate::model::Plan;
use crate::period::now;
use crate::subscriptions::find_subscription;

/// Requests per second a key may send, sustained, unless its subscription says otherwise.
pub const DEFAULT_REQUESTS_PER_SECOND: u32 = 100;
/// Requests a key may send at once after a pause, unless its subscription says otherwise.
pub const DEFAULT_BURST: u32 = 1000;
/// The highest `requests_per_second` a subscription may set.
pub const MAX_REQUESTS_PER_SECOND: u32 = 100_000;
/// The highest `burst` a subscription may set.
pub const MAX_BURST: u32 = 100_000;

const MICROS_PER_SECOND: i64 = 1_000_000;
/// How far behind a TAT the clock may step without the key starting afresh: what the clocks of
/// hosts sharing one database may differ by.
pub const CLOCK_SKEW_US: i64 = MICROS_PER_SECOND;

/// The limit every key of a subscription has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RateLimit {
    /// The sustained rate.
    pub requests_per_second: u32,
    /// How many requests a key that paused may send at once.
    pub burst: u32,
}

impl RateLimit {
    pub const DEFAULT: RateLimit = RateLimit { requests_per_second: DEFAULT_REQUESTS_PER_SECOND, burst: DEFAULT_BURST };

    /// `T`: the time one request uses up, in microseconds (at least 10 within the maxima).
    fn interval_us(self) -> i64 {
        MICROS_PER_SECOND / i64::from(self.requests_per_second.max(1))
    }

    /// `τ`: how far the TAT may run ahead of the clock, in microseconds.
    fn tolerance_us(self) -> i64 {
        i64::from(self.burst.max(1) - 1) * self.interval_us()
    }

    /// How far ahead of the clock a TAT may be before the clock is taken to have gone back.
    fn horizon_us(self) -> i64 {
        self.tolerance_us() + self.interval_us() + CLOCK_SKEW_US
    }

    /// Whether a request at `now_us` is admitted, given the key's TAT (`None`: no request yet).
    /// [`SQL_ADMIT`] computes the same in the database.
    pub fn decide(self, tat_us: Option<i64>, now_us: i64) -> Decision {
        let (interval, tolerance) = (self.interval_us(), self.tolerance_us());
        let tat = match tat_us {
            // No state yet, or a TAT no admitted request can leave: the clock went back.
            None => now_us,
            Some(tat) if tat - now_us > self.horizon_us() => now_us,
            Some(tat) => tat.max(now_us),
        };
        if tat - now_us > tolerance {
            Decision::Refuse { wait_us: tat - now_us - tolerance }
        } else {
            Decision::Admit { tat_us: tat + interval }
        }
    }
}

/// What [`RateLimit::decide`] says about one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Admitted; the key's TAT becomes `tat_us`.
    Admit { tat_us: i64 },
    /// Refused; the state stays, and a request `wait_us` later would be admitted.
    Refuse { wait_us: i64 },
}

/// Whole seconds to wait, rounded up and at least 1, as `Retry-After` says them.
pub fn retry_after_secs(wait_us: i64) -> u64 {
    let wait_us = u64::try_from(wait_us.max(1)).unwrap_or(1);
    wait_us.div_ceil(MICROS_PER_SECOND as u64)
}

/// A subscription's own rate limit; `None` in a field: the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RateLimitSettings {
    pub requests_per_second: Option<u32>,
    pub burst: Option<u32>,
}

impl RateLimitSettings {
    /// The limit in force.
    pub fn effective(self) -> RateLimit {
        RateLimit {
            requests_per_second: self.requests_per_second.unwrap_or(DEFAULT_REQUESTS_PER_SECOND),
            burst: self.burst.unwrap_or(DEFAULT_BURST),
        }
    }

    /// As the audit log records it (`null`: the default).
    fn audited(self) -> serde_json::Value {
        json!({"requests_per_second": self.requests_per_second, "burst": self.burst})
    }

    /// Reads the settings from the nullable columns at `offset` and `offset + 1` of a row.
    pub(crate) fn from_row(row: &platform::Row, offset: usize) -> Result<RateLimitSettings, StoreError> {
        let column = |index: usize| -> Result<Option<u32>, StoreError> {
            match row.get::<Option<i64>>(index)? {
                None => Ok(None),
                Some(value) => u32::try_from(value)
                    .ok()
                    .filter(|value| *value > 0)
                    .map(Some)
                    .ok_or(StoreError::Corrupt { what: "rate limit", value: value.to_string() }),
            }
        };
        Ok(RateLimitSettings { requests_per_second: column(offset)?, burst: column(offset + 1)? })
    }
}

/// A subscription's rate limit as the admin API answers it: the limit in force, and the
/// defaults that `null` restores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RateLimitObject {
    pub requests_per_second: u32,
    pub burst: u32,
    pub defaults: RateLimit,
}

impl RateLimitObject {
    pub fn new(settings: RateLimitSettings) -> RateLimitObject {
        let limit = settings.effective();
        RateLimitObject {
            requests_per_second: limit.requests_per_second,
            burst: limit.burst,
            defaults: RateLimit::DEFAULT,
        }
    }
}

/// The two settings, for their names, ranges and defaults in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateField {
    RequestsPerSecond,
    Burst,
}

impl RateField {
    pub fn name(self) -> &'static str {
        match self {
            RateField::RequestsPerSecond => "requests_per_second",
            RateField::Burst => "burst",
        }
    }

    pub fn max(self) -> u32 {
        match self {
            RateField::RequestsPerSecond => MAX_REQUESTS_PER_SECOND,
            RateField::Burst => MAX_BURST,
        }
    }

    pub fn default_value(self) -> u32 {
        match self {
            RateField::RequestsPerSecond => DEFAULT_REQUESTS_PER_SECOND,
            RateField::Burst => DEFAULT_BURST,
        }
    }
}

/// Why a rate limit cannot be changed.
#[derive(Debug, thiserror::Error)]
pub enum RateLimitError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("Parameter 'requests_per_second' or 'burst' not specified")]
    NothingToChange,
    #[error(
        "Value for '{}' not supported: it must be a whole number from 1 to {}, or null for the default ({}).",
        .0.name(), .0.max(), .0.default_value()
    )]
    OutOfRange(RateField),
    #[error(
        "Changing the rate limit is a Pro feature; Free subscriptions have the default of {DEFAULT_REQUESTS_PER_SECOND} requests per second per key, in bursts of up to {DEFAULT_BURST}."
    )]
    FreePlan,
    #[error("the subscription does not exist")]
    Unknown,
}

impl From<DbError> for RateLimitError {
    fn from(error: DbError) -> RateLimitError {
        RateLimitError::Store(error.into())
    }
}

impl TransactionError for RateLimitError {
    fn is_busy(&self) -> bool {
        matches!(self, RateLimitError::Store(StoreError::Db(DbError::Busy(_))))
    }
}

/// A change to a subscription's rate limit: per field, `None` leaves it, `Some(None)` restores
/// the default, `Some(Some(n))` sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimitChange {
    pub requests_per_second: Option<Option<u32>>,
    pub burst: Option<Option<u32>>,
}

impl RateLimitChange {
    /// Checks the requested values: each a whole number from 1 to its maximum, or `null`; at
    /// least one given.
    pub fn new(
        requests_per_second: Option<Option<i64>>,
        burst: Option<Option<i64>>,
    ) -> Result<RateLimitChange, RateLimitError> {
        let check = |field: RateField, value: Option<Option<i64>>| -> Result<Option<Option<u32>>, RateLimitError> {
            match value {
                None => Ok(None),
                Some(None) => Ok(Some(None)),
                Some(Some(n)) => u32::try_from(n)
                    .ok()
                    .filter(|n| (1..=field.max()).contains(n))
                    .map(|n| Some(Some(n)))
                    .ok_or(RateLimitError::OutOfRange(field)),
            }
        };
        let change = RateLimitChange {
            requests_per_second: check(RateField::RequestsPerSecond, requests_per_second)?,
            burst: check(RateField::Burst, burst)?,
        };
        if change.requests_per_second.is_none() && change.burst.is_none() {
            return Err(RateLimitError::NothingToChange);
        }
        Ok(change)
    }

    fn apply(self, current: RateLimitSettings) -> RateLimitSettings {
        RateLimitSettings {
            requests_per_second: self.requests_per_second.unwrap_or(current.requests_per_second),
            burst: self.burst.unwrap_or(current.burst),
        }
    }
}

const SQL_SETTINGS: &str = "SELECT requests_per_second, burst FROM rate_limits WHERE subscription_id = ?";
const SQL_SET: &str = "INSERT INTO rate_limits (subscription_id, requests_per_second, burst) VALUES (?1, ?2, ?3)
    ON CONFLICT (subscription_id) DO UPDATE SET requests_per_second = ?2, burst = ?3";
const SQL_CLEAR: &str = "DELETE FROM rate_limits WHERE subscription_id = ?";

/// The subscription's own rate limit (all `None` when it has none).
pub fn rate_limit(db: &dyn Database, subscription_id: &str) -> Result<RateLimitSettings, StoreError> {
    let result = db.execute(SQL_SETTINGS, &[Value::from(subscription_id)])?;
    result.first().map_or(Ok(RateLimitSettings::default()), |row| RateLimitSettings::from_row(row, 0))
}

/// Changes a Pro subscription's rate limit, writing the audit entry in the same transaction (none
/// when nothing changes). Answers the settings as they are now; they apply from the next request.
pub fn set_rate_limit(
    services: &Services<'_>,
    subscription_id: &str,
    change: RateLimitChange,
    actor: Actor<'_>,
) -> Result<RateLimitSettings, RateLimitError> {
    transaction(services.db, RetryPolicy::default(), |db| {
        let subscription = find_subscription(db, subscription_id)?.ok_or(RateLimitError::Unknown)?;
        if subscription.plan != Plan::Pro {
            return Err(RateLimitError::FreePlan);
        }
        let current = rate_limit(db, subscription_id)?;
        let new = change.apply(current);
        if new == current {
            return Ok(current);
        }
        if new == RateLimitSettings::default() {
            db.execute(SQL_CLEAR, &[Value::from(subscription_id)])?;
        } else {
            let value = |setting: Option<u32>| Value::from(setting.map(i64::from));
            db.execute(SQL_SET, &[Value::from(subscription_id), value(new.requests_per_second), value(new.burst)])?;
        }
        let change = Change {
            subscription_id,
            at: now(services.clock),
            actor,
            action: Action::ChangeRateLimit,
            target: Target::Subscription(subscription_id),
            old: Some(current.audited()),
            new: Some(new.audited()),
        };
        audit::record(db, change)?;
        Ok(new)
    })
}

/// One request against the key's state, [`RateLimit::decide`] in one statement. Parameters:
/// ?1 subscription, ?2 key, ?3 now, ?4 `T`, ?5 `τ`, ?6 the horizon (microseconds). A first request inserts the
/// state; a later one updates it only when admitted (the `WHERE` of `DO UPDATE`), so a row comes
/// back exactly when the request is admitted and a refused one writes nothing. One primary-key
/// lookup.
const SQL_ADMIT: &str = "INSERT INTO rate_state (subscription_id, key_id, tat_us) VALUES (?1, ?2, ?3 + ?4)
    ON CONFLICT (subscription_id, key_id) DO UPDATE
       SET tat_us = CASE WHEN tat_us - ?3 > ?6 THEN ?3 ELSE max(tat_us, ?3) END + ?4
     WHERE tat_us - ?3 <= ?5 OR tat_us - ?3 > ?6
    RETURNING tat_us";
/// A refused request's TAT, to say when to retry.
const SQL_TAT: &str = "SELECT tat_us FROM rate_state WHERE subscription_id = ? AND key_id = ?";

/// How often the one statement is tried when the database is busy (another writer held the lock
/// past the busy timeout); a busy attempt wrote nothing.
const BUSY_ATTEMPTS: u32 = 4;

/// Whether a request of the key may go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admission {
    Admitted,
    Refused { retry_after_secs: u64 },
}

/// Counts one request of the key against `limit` (see the module documentation).
pub(crate) fn admit(
    db: &dyn Database,
    clock: &dyn Clock,
    subscription_id: &str,
    key_id: &str,
    limit: RateLimit,
) -> Result<Admission, StoreError> {
    let now_us = micros(clock.now());
    let params = [
        Value::from(subscription_id),
        Value::from(key_id),
        Value::Integer(now_us),
        Value::Integer(limit.interval_us()),
        Value::Integer(limit.tolerance_us()),
        Value::Integer(limit.horizon_us()),
    ];
    let mut attempt = 1;
    let result = loop {
        match db.execute(SQL_ADMIT, &params) {
            Err(DbError::Busy(_)) if attempt < BUSY_ATTEMPTS => {
                std::thread::sleep(std::time::Duration::from_millis(5 << attempt));
                attempt += 1;
            }
            outcome => break outcome?,
        }
    };
    if !result.rows.is_empty() {
        return Ok(Admission::Admitted);
    }
    let state = db.execute(SQL_TAT, &[Value::from(subscription_id), Value::from(key_id)])?;
    let tat = state.first().map(|row| row.get::<i64>(0)).transpose()?;
    let wait_us = match limit.decide(tat, now_us) {
        Decision::Refuse { wait_us } => wait_us,
        // Another request moved the state on in between; one second is always enough.
        Decision::Admit { .. } => MICROS_PER_SECOND,
    };
    Ok(Admission::Refused { retry_after_secs: retry_after_secs(wait_us) })
}

/// Microseconds since the Unix epoch (0 before it).
fn micros(moment: SystemTime) -> i64 {
    moment.duration_since(UNIX_EPOCH).map_or(0, |since| i64::try_from(since.as_micros()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::model::Plan;
    use crate::subscriptions::create_subscription;
    use crate::test_support::{Fixture, at, audit_log};

    const SECOND: i64 = MICROS_PER_SECOND;

    fn limit(requests_per_second: u32, burst: u32) -> RateLimit {
        RateLimit { requests_per_second, burst }
    }

    /// Runs `decide` over requests at `times`, keeping the state as the database does.
    fn run(limit: RateLimit, times: &[i64]) -> Vec<Decision> {
        let mut tat = None;
        times
            .iter()
            .map(|now| {
                let decision = limit.decide(tat, *now);
                if let Decision::Admit { tat_us } = decision {
                    tat = Some(tat_us);
                }
                decision
            })
            .collect()
    }

    fn admitted(decisions: &[Decision]) -> usize {
        decisions.iter().filter(|decision| matches!(decision, Decision::Admit { .. })).count()
    }

    #[test]
    fn an_idle_key_sends_its_burst_at_once_then_the_sustained_rate() {
        let limit = limit(10, 5);
        let start = 1_800_000_000 * SECOND;
        let burst = run(limit, &[start; 8]);
        assert_eq!(admitted(&burst), 5);
        assert!(burst[..5].iter().all(|decision| matches!(decision, Decision::Admit { .. })));
        // The sixth waits for one interval (100 ms) to pass.
        assert_eq!(burst[5], Decision::Refuse { wait_us: SECOND / 10 });

        // Over ten seconds at a request every millisecond: the burst plus ten per second.
        let times: Vec<i64> = (0..10_000).map(|ms| start + ms * 1000).collect();
        assert_eq!(admitted(&run(limit, &times)), 5 + 99);
    }

    #[test]
    fn a_refused_request_says_when_one_would_be_admitted() {
        let limit = limit(2, 3);
        let now = 1_000 * SECOND;
        let mut tat = None;
        for _ in 0..3 {
            let Decision::Admit { tat_us } = limit.decide(tat, now) else { panic!("the burst is admitted") };
            tat = Some(tat_us);
        }
        let Decision::Refuse { wait_us } = limit.decide(tat, now + SECOND / 10) else { panic!("refused") };
        assert_eq!(wait_us, SECOND / 2 - SECOND / 10);
        assert!(matches!(limit.decide(tat, now + SECOND / 10 + wait_us - 1), Decision::Refuse { .. }));
        assert!(matches!(limit.decide(tat, now + SECOND / 10 + wait_us), Decision::Admit { .. }));
    }

    #[test]
    fn a_clock_that_went_back_starts_the_key_afresh() {
        let limit = limit(1, 2);
        let later = 2_000 * SECOND;
        let Decision::Admit { tat_us } = limit.decide(None, later) else { panic!() };
        let Decision::Admit { tat_us } = limit.decide(Some(tat_us), later) else { panic!() };
        assert!(matches!(limit.decide(Some(tat_us), later), Decision::Refuse { .. }));
        // Half a second earlier is within what clocks may differ by: still refused.
        assert!(matches!(limit.decide(Some(tat_us), later - SECOND / 2), Decision::Refuse { .. }));
        // An hour earlier cannot be: afresh.
        assert_eq!(
            limit.decide(Some(tat_us), later - 3600 * SECOND),
            Decision::Admit { tat_us: later - 3600 * SECOND + SECOND }
        );
    }

    #[test]
    fn retry_after_is_whole_seconds_rounded_up_and_at_least_one() {
        assert_eq!(retry_after_secs(0), 1);
        assert_eq!(retry_after_secs(1), 1);
        assert_eq!(retry_after_secs(SECOND), 1);
        assert_eq!(retry_after_secs(SECOND + 1), 2);
        assert_eq!(retry_after_secs(-5), 1);
    }

    #[test]
    fn the_extremes_of_the_settings_stay_exact() {
        assert_eq!(RateLimit::DEFAULT.interval_us(), 10_000);
        assert_eq!(RateLimit::DEFAULT.tolerance_us(), 999 * 10_000);
        let fastest = limit(MAX_REQUESTS_PER_SECOND, MAX_BURST);
        assert_eq!(fastest.interval_us(), 10);
        assert_eq!(admitted(&run(fastest, &[0; 100_001])), 100_000);
        let slowest = limit(1, 1);
        assert_eq!(
            run(slowest, &[0, 0, SECOND - 1, SECOND]),
            [
                Decision::Admit { tat_us: SECOND },
                Decision::Refuse { wait_us: SECOND },
                Decision::Refuse { wait_us: 1 },
                Decision::Admit { tat_us: 2 * SECOND },
            ]
        );
    }

    fn admit_at(fixture: &Fixture, key: &str, limit: RateLimit, micros: i64) -> Admission {
        fixture.clock.set(UNIX_EPOCH + Duration::from_micros(u64::try_from(micros).unwrap()));
        admit(&fixture.db, &fixture.clock, "subscription", key, limit).unwrap()
    }

    #[test]
    fn the_statement_decides_as_the_arithmetic_does() {
        let fixture = at(0);
        // A fixed pseudo-random walk of the clock, including steps back, for a few limits.
        for (index, limit) in [limit(3, 4), limit(1, 1), limit(100, 1000), limit(7, 2)].into_iter().enumerate() {
            let key = format!("key-{index}");
            let mut now = 1_800_000_000 * SECOND;
            let mut tat = None;
            let mut seed: u64 = 0x9e37_79b9_7f4a_7c15 ^ index as u64;
            for _ in 0..3000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                now += match seed % 10 {
                    0 => -((seed >> 8) as i64 % (3 * SECOND)),
                    1..=3 => 0,
                    _ => (seed >> 8) as i64 % (SECOND / 2),
                };
                let expected = limit.decide(tat, now);
                let got = admit_at(&fixture, &key, limit, now);
                match expected {
                    Decision::Admit { tat_us } => {
                        assert_eq!(got, Admission::Admitted, "{limit:?} at {now}");
                        tat = Some(tat_us);
                    }
                    Decision::Refuse { wait_us } => {
                        assert_eq!(got, Admission::Refused { retry_after_secs: retry_after_secs(wait_us) });
                    }
                }
                let stored = fixture
                    .db
                    .execute(SQL_TAT, &[Value::from("subscription"), Value::from(key.as_str())])
                    .unwrap()
                    .first()
                    .map(|row| row.get::<i64>(0).unwrap());
                assert_eq!(stored, tat, "a refused request leaves the state as it is");
            }
        }
    }

    #[test]
    fn each_key_has_its_own_state() {
        let fixture = at(0);
        let limit = limit(1, 2);
        let now = 1_800_000_000 * SECOND;
        assert_eq!(admit_at(&fixture, "a", limit, now), Admission::Admitted);
        assert_eq!(admit_at(&fixture, "a", limit, now), Admission::Admitted);
        assert_eq!(admit_at(&fixture, "a", limit, now), Admission::Refused { retry_after_secs: 1 });
        assert_eq!(admit_at(&fixture, "b", limit, now), Admission::Admitted);
        assert_eq!(admit_at(&fixture, "a", limit, now + SECOND), Admission::Admitted);
    }

    #[test]
    fn changes_are_checked() {
        assert!(matches!(RateLimitChange::new(None, None), Err(RateLimitError::NothingToChange)));
        let out_of_range = |rps, burst| match RateLimitChange::new(rps, burst) {
            Err(RateLimitError::OutOfRange(field)) => Some(field),
            _ => None,
        };
        assert_eq!(out_of_range(Some(Some(0)), None), Some(RateField::RequestsPerSecond));
        assert_eq!(out_of_range(Some(Some(100_001)), None), Some(RateField::RequestsPerSecond));
        assert_eq!(out_of_range(None, Some(Some(-1))), Some(RateField::Burst));
        assert_eq!(out_of_range(Some(Some(5)), Some(Some(i64::MAX))), Some(RateField::Burst));
        let change = RateLimitChange::new(Some(Some(100_000)), Some(None)).unwrap();
        assert_eq!(change, RateLimitChange { requests_per_second: Some(Some(100_000)), burst: Some(None) });
        assert_eq!(
            RateLimitError::OutOfRange(RateField::Burst).to_string(),
            "Value for 'burst' not supported: it must be a whole number from 1 to 100000, or null for the default (1000)."
        );
    }

    #[test]
    fn a_pro_subscription_sets_and_restores_its_limit_with_audit_entries() {
        let fixture = at(1_800_000_000);
        let services = fixture.services();
        let pro = create_subscription(&services, Plan::Pro).unwrap();
        let free = create_subscription(&services, Plan::Free).unwrap();
        let admin = Actor::AdminKey("admin-key-id");
        let set =
            |rps, burst| set_rate_limit(&services, &pro.id, RateLimitChange::new(rps, burst).unwrap(), admin).unwrap();

        assert_eq!(rate_limit(&fixture.db, &pro.id).unwrap(), RateLimitSettings::default());
        assert_eq!(set(Some(Some(5)), None), RateLimitSettings { requests_per_second: Some(5), burst: None });
        assert_eq!(set(None, Some(Some(20))), RateLimitSettings { requests_per_second: Some(5), burst: Some(20) });
        assert_eq!(rate_limit(&fixture.db, &pro.id).unwrap().effective(), limit(5, 20));
        set(Some(Some(5)), None); // no change, no entry
        assert_eq!(set(Some(None), Some(None)), RateLimitSettings::default());
        let rows = fixture.db.execute("SELECT count(*) FROM rate_limits", &[]).unwrap();
        assert_eq!(rows.rows[0].get::<i64>(0).unwrap(), 0, "the defaults need no row");

        let log = audit_log(&fixture.db, &pro.id);
        let changes: Vec<_> = log.iter().map(|entry| (entry.old_value.clone(), entry.new_value.clone())).collect();
        let settings = |rps: Option<u32>, burst: Option<u32>| Some(json!({"requests_per_second": rps, "burst": burst}));
        assert_eq!(
            changes,
            [
                (settings(Some(5), Some(20)), settings(None, None)),
                (settings(Some(5), None), settings(Some(5), Some(20))),
                (settings(None, None), settings(Some(5), None)),
            ]
        );
        assert!(log.iter().all(|entry| entry.action == "change_rate_limit" && entry.target_id == pro.id));

        let change = RateLimitChange::new(Some(Some(1)), None).unwrap();
        assert!(matches!(set_rate_limit(&services, &free.id, change, admin), Err(RateLimitError::FreePlan)));
        assert!(matches!(set_rate_limit(&services, "nope", change, admin), Err(RateLimitError::Unknown)));
        assert!(audit_log(&fixture.db, &free.id).is_empty());
    }

    #[test]
    fn the_admin_object_shows_the_limit_in_force_and_the_defaults() {
        let object = RateLimitObject::new(RateLimitSettings { requests_per_second: None, burst: Some(3) });
        assert_eq!(
            serde_json::to_value(object).unwrap(),
            json!({"requests_per_second": 100, "burst": 3, "defaults": {"requests_per_second": 100, "burst": 1000}})
        );
    }
}
