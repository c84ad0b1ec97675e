//! Sessions in SQLite (`sql/0015_voice.sql`): created for a key, reconnected, claimed by a
//! gateway with a token, billed by the gateway's usage reports, and ended.
//!
//! Every session query is by primary key; every answer to a client is scoped by its
//! subscription. A token's single use is one conditional UPDATE (see the schema's comment).

use accounts::Principal;
use metering::{Charge, ChargeError, Product};
use platform::{DbError, Id, QueryResult, Services};

use crate::request::SessionParameters;
use crate::token::Token;

/// Where a session is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// A client may connect or reconnect.
    Open,
    /// The stream ended normally.
    Ended,
    /// An error, a token used twice or outdated, or a limit reached, ended it.
    Terminated,
}

impl State {
    fn parse(text: &str) -> State {
        match text {
            "open" => State::Open,
            "ended" => State::Ended,
            _ => State::Terminated,
        }
    }
}

/// One session's record.
#[derive(Debug, Clone)]
pub struct Session {
    pub id: Id,
    pub subscription_id: String,
    pub key_id: String,
    pub parameters: SessionParameters,
    pub state: State,
    pub ended_reason: Option<String>,
    pub token_generation: i64,
    pub claimed_generation: i64,
    pub milliseconds: i64,
}

/// Why a session call was refused.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Unknown, or another subscription's.
    #[error("Session not found.")]
    NotFound,
    /// The session ended (normally or not): a new one must be requested.
    #[error("The session has ended: request a new session.")]
    Ended,
    /// A token older than the session's newest was used: that ends the session.
    #[error("The token is outdated: the session has ended. Request a new session.")]
    Outdated,
    /// A token was used a second time to connect: that ends the session.
    #[error("The token was used already: the session has ended. Request a new session.")]
    Reused,
    /// A usage report or an ending names a connection the session never opened.
    #[error("The session never opened connection {0}.")]
    UnknownConnection(i64),
    #[error("voice session store: {0}")]
    Store(#[from] DbError),
}

/// A reason a session was terminated, as `ended_reason` records it.
pub const TOKEN_OUTDATED: &str = "token_outdated";
pub const TOKEN_REUSED: &str = "token_reused";
pub const LIMIT_REACHED: &str = "limit_reached";
pub const STREAM_ERROR: &str = "stream_error";
pub const KEY_DEACTIVATED: &str = "key_deactivated";

const SESSION_COLUMNS: &str = "id, subscription_id, key_id, parameters, state, ended_reason, token_generation, \
     claimed_generation, milliseconds";

fn unix_ms(services: &Services<'_>) -> i64 {
    let since = services.clock.now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

fn session_of(result: &QueryResult) -> Result<Option<Session>, DbError> {
    let Some(row) = result.first() else { return Ok(None) };
    let id: String = row.get(0)?;
    let parameters: String = row.get(3)?;
    let state: String = row.get(4)?;
    Ok(Some(Session {
        id: Id::parse(&id).ok_or_else(|| DbError::Other(format!("voice session id {id} is not a UUID")))?,
        subscription_id: row.get(1)?,
        key_id: row.get(2)?,
        parameters: serde_json::from_str(&parameters)
            .map_err(|error| DbError::Other(format!("voice session {id}: its parameters do not read: {error}")))?,
        state: State::parse(&state),
        ended_reason: row.get(5)?,
        token_generation: row.get(6)?,
        claimed_generation: row.get(7)?,
        milliseconds: row.get(8)?,
    }))
}

/// The session `id`, whoever it belongs to.
pub fn find(services: &Services<'_>, id: &Id) -> Result<Option<Session>, DbError> {
    let result =
        services.db.execute(&format!("SELECT {SESSION_COLUMNS} FROM voice_sessions WHERE id = ?"), &[id.into()])?;
    session_of(&result)
}

/// A new open session for `principal`, whose first token is generation 1.
pub fn create(
    services: &Services<'_>,
    principal: &Principal,
    parameters: SessionParameters,
) -> Result<Session, DbError> {
    let id = Id::random(services.random);
    let now = unix_ms(services);
    let json = serde_json::to_string(&parameters).expect("session parameters serialise");
    services.db.execute(
        "INSERT INTO voice_sessions (id, subscription_id, key_id, parameters, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?)",
        &[
            (&id).into(),
            principal.subscription.id.as_str().into(),
            principal.key.id.as_str().into(),
            json.into(),
            now.into(),
            now.into(),
        ],
    )?;
    Ok(Session {
        id,
        subscription_id: principal.subscription.id.clone(),
        key_id: principal.key.id.clone(),
        parameters,
        state: State::Open,
        ended_reason: None,
        token_generation: 1,
        claimed_generation: 0,
        milliseconds: 0,
    })
}

/// Ends an open session for `reason`.
pub fn terminate(services: &Services<'_>, id: &Id, reason: &str) -> Result<(), DbError> {
    services.db.execute(
        "UPDATE voice_sessions SET state = 'terminated', ended_reason = ?, updated_at = ? WHERE id = ? AND state = 'open'",
        &[reason.into(), unix_ms(services).into(), id.into()],
    )?;
    Ok(())
}

/// The open session `token` names, if its generation is the newest; an older one ends it.
fn current(services: &Services<'_>, token: &Token) -> Result<Session, SessionError> {
    let session = find(services, &token.session)?.ok_or(SessionError::NotFound)?;
    if session.state != State::Open {
        return Err(SessionError::Ended);
    }
    if token.generation < session.token_generation {
        terminate(services, &session.id, TOKEN_OUTDATED)?;
        return Err(SessionError::Outdated);
    }
    Ok(session)
}

/// `GET /v3/voice/realtime?token=`: the session the newest `token` names, of `principal`'s
/// subscription, with its next generation (the connection of the one before is superseded).
pub fn reconnect(services: &Services<'_>, principal: &Principal, token: &Token) -> Result<Session, SessionError> {
    match find(services, &token.session)? {
        Some(session) if session.subscription_id == principal.subscription.id => {}
        _ => return Err(SessionError::NotFound),
    }
    let session = current(services, token)?;
    let result = services.db.execute(
        "UPDATE voice_sessions SET token_generation = token_generation + 1, updated_at = ? \
         WHERE id = ? AND state = 'open' AND token_generation = ? RETURNING token_generation",
        &[unix_ms(services).into(), (&session.id).into(), token.generation.into()],
    )?;
    match result.first() {
        Some(row) => Ok(Session { token_generation: row.get(0)?, ..session }),
        // Another reconnect with the same token won: this one holds an outdated token now.
        None => Err(SessionError::Outdated),
    }
}

/// A gateway connects with `token`: it must be the session's newest and never used before.
/// Using it again, or an older one, ends the session.
pub fn claim(services: &Services<'_>, token: &Token) -> Result<Session, SessionError> {
    let session = current(services, token)?;
    let claimed = services.db.execute(
        "UPDATE voice_sessions SET claimed_generation = ?1, updated_at = ?2 \
         WHERE id = ?3 AND state = 'open' AND token_generation = ?1 AND claimed_generation < ?1 \
         RETURNING claimed_generation",
        &[token.generation.into(), unix_ms(services).into(), (&session.id).into()],
    )?;
    if claimed.first().is_none() {
        terminate(services, &session.id, TOKEN_REUSED)?;
        return Err(SessionError::Reused);
    }
    Ok(Session { claimed_generation: token.generation, ..session })
}

/// The key and subscription a session bills, as they are now.
pub fn principal(services: &Services<'_>, session: &Session) -> Result<Option<Principal>, DbError> {
    let store = |error: accounts::StoreError| DbError::Other(error.to_string());
    let Some(subscription) = accounts::find_subscription(services.db, &session.subscription_id).map_err(store)? else {
        return Ok(None);
    };
    let key = accounts::find_key(services.db, &session.subscription_id, &session.key_id).map_err(store)?;
    Ok(key.map(|key| Principal { subscription, key }))
}

/// One usage report of a gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UsageReport {
    /// The token generation the connection was opened with.
    pub connection: i64,
    /// 1, 2, 3… per connection.
    pub sequence: i64,
    /// Audio processed since the connection's previous report.
    pub milliseconds: i64,
}

/// What a usage report leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageOutcome {
    /// Go on; the milliseconds still allowed (`None`: no limit).
    Continue { remaining_ms: Option<i64> },
    /// A reconnect was asked for: this connection ends (its audio was billed).
    Superseded,
    /// The key's or the subscription's speech limit is reached: the session ended.
    LimitReached,
    /// The session's key was deactivated: the session ended.
    Deactivated,
    /// The session had ended already (the report is billed all the same).
    Ended,
}

/// Bills a report's milliseconds once (a report sent again is not billed again), at most what
/// the key's and the subscription's limits leave; a report that would pass a limit ends the
/// session. The report is recorded before the charge: a failure between the two loses the
/// report's milliseconds rather than billing them twice.
pub fn report_usage(services: &Services<'_>, id: &Id, report: UsageReport) -> Result<UsageOutcome, SessionError> {
    let session = find(services, id)?.ok_or(SessionError::NotFound)?;
    if report.connection > session.claimed_generation {
        return Err(SessionError::UnknownConnection(report.connection));
    }
    let principal = principal(services, &session)?.ok_or(SessionError::NotFound)?;
    let recorded = services.db.execute(
        "INSERT INTO voice_usage_reports (session_id, connection, sequence, milliseconds) VALUES (?, ?, ?, 0) \
         ON CONFLICT DO NOTHING RETURNING sequence",
        &[id.into(), report.connection.into(), report.sequence.into()],
    )?;
    let remaining = metering::speech_remaining(services, &principal).map_err(|error| match error {
        metering::ReportError::Store(error) => SessionError::Store(error),
        other => SessionError::Store(DbError::Other(other.to_string())),
    })?;
    let mut left = remaining;
    let mut over = false;
    if recorded.first().is_some() && report.milliseconds > 0 {
        let billed = remaining.map_or(report.milliseconds, |remaining| report.milliseconds.min(remaining));
        over = billed < report.milliseconds;
        if billed > 0 {
            let charge = Charge { principal: &principal, product: Product::Speech, units: billed, tag: None };
            match metering::charge(services, charge) {
                Ok(()) => {}
                Err(ChargeError::Deactivated) => {
                    terminate(services, id, KEY_DEACTIVATED)?;
                    return Ok(UsageOutcome::Deactivated);
                }
                Err(ChargeError::QuotaExceeded) => over = true,
                Err(ChargeError::Store(error)) => return Err(error.into()),
                Err(ChargeError::Reserved) => unreachable!("a charge reserves nothing"),
            }
            services.db.execute(
                "UPDATE voice_usage_reports SET milliseconds = ? WHERE session_id = ? AND connection = ? AND sequence = ?",
                &[billed.into(), id.into(), report.connection.into(), report.sequence.into()],
            )?;
            services.db.execute(
                "UPDATE voice_sessions SET milliseconds = milliseconds + ?, updated_at = ? WHERE id = ?",
                &[billed.into(), unix_ms(services).into(), id.into()],
            )?;
        }
        left = remaining.map(|remaining| (remaining - billed).max(0));
    }
    if principal.key.deactivated_at.is_some() {
        terminate(services, id, KEY_DEACTIVATED)?;
        return Ok(UsageOutcome::Deactivated);
    }
    if over || left == Some(0) {
        terminate(services, id, LIMIT_REACHED)?;
        return Ok(UsageOutcome::LimitReached);
    }
    if session.state != State::Open {
        return Ok(UsageOutcome::Ended);
    }
    if session.token_generation > report.connection {
        return Ok(UsageOutcome::Superseded);
    }
    Ok(UsageOutcome::Continue { remaining_ms: left })
}

/// How a connection ended, as the gateway says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The client sent `end_of_source_media` and got every end message: the session ends.
    Completed,
    /// A protocol or audio error: the session ends.
    Error,
    /// The connection reached its time limit: the client may reconnect.
    Timeout,
    /// The client went away: it may reconnect.
    Closed,
}

/// Records how connection `connection` of session `id` ended; only the session's current
/// connection can end it.
pub fn end(services: &Services<'_>, id: &Id, connection: i64, ending: Ending) -> Result<(), SessionError> {
    let session = find(services, id)?.ok_or(SessionError::NotFound)?;
    if session.claimed_generation != connection || session.state != State::Open {
        return Ok(());
    }
    match ending {
        Ending::Completed => {
            services.db.execute(
                "UPDATE voice_sessions SET state = 'ended', ended_reason = 'completed', updated_at = ? \
                 WHERE id = ? AND state = 'open'",
                &[unix_ms(services).into(), id.into()],
            )?;
        }
        Ending::Error => terminate(services, id, STREAM_ERROR)?,
        Ending::Timeout | Ending::Closed => {}
    }
    Ok(())
}
