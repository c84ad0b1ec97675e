//! SQL databases: the [`Database`] trait, its values, and transactions that are safe to retry.
//!
//! The model is the one `spin:sqlite` offers: a statement with positional parameters (`?`) returns
//! column names and rows of dynamically typed values. A [`Database`] is one connection, so the
//! statements of a transaction must go through the same value.

use std::fmt;
use std::time::Duration;

/// One SQLite value, as `spin:sqlite` carries it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
    Null,
}

impl From<i64> for Value {
    fn from(value: i64) -> Self {
        Value::Integer(value)
    }
}

impl From<f64> for Value {
    fn from(value: f64) -> Self {
        Value::Real(value)
    }
}

impl From<&str> for Value {
    fn from(value: &str) -> Self {
        Value::Text(value.to_owned())
    }
}

impl From<String> for Value {
    fn from(value: String) -> Self {
        Value::Text(value)
    }
}

impl From<Vec<u8>> for Value {
    fn from(value: Vec<u8>) -> Self {
        Value::Blob(value)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Self {
        value.map_or(Value::Null, Into::into)
    }
}

/// The rows a statement returned.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryResult {
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
}

impl QueryResult {
    /// The first row, if any.
    pub fn first(&self) -> Option<&Row> {
        self.rows.first()
    }
}

/// One row of a [`QueryResult`], its values in column order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// The value in column `index`, converted; a missing column or a value of another type is a
    /// [`DbError::Decode`].
    pub fn get<T: FromValue>(&self, index: usize) -> Result<T, DbError> {
        let value = self
            .0
            .get(index)
            .ok_or_else(|| DbError::Decode(format!("no column {index} in a row of {}", self.0.len())))?;
        T::from_value(value).ok_or_else(|| DbError::Decode(format!("column {index} holds {value:?}, not {}", T::NAME)))
    }
}

/// Conversion out of a [`Value`] for [`Row::get`].
pub trait FromValue: Sized {
    /// The type's name in decode errors.
    const NAME: &'static str;
    fn from_value(value: &Value) -> Option<Self>;
}

impl FromValue for i64 {
    const NAME: &'static str = "an integer";
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Integer(n) => Some(*n),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    const NAME: &'static str = "a real";
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Real(x) => Some(*x),
            Value::Integer(n) => Some(*n as f64),
            _ => None,
        }
    }
}

impl FromValue for String {
    const NAME: &'static str = "text";
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Text(text) => Some(text.clone()),
            _ => None,
        }
    }
}

impl FromValue for Vec<u8> {
    const NAME: &'static str = "a blob";
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Blob(bytes) => Some(bytes.clone()),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    const NAME: &'static str = T::NAME;
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// Why a statement failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DbError {
    /// Another connection holds the lock past the busy timeout; the statement did nothing.
    #[error("database is busy: {0}")]
    Busy(String),
    /// The host knows no database of that name.
    #[error("no such database")]
    NoSuchDatabase,
    /// The component may not open that database (it is not in its `sqlite_databases`).
    #[error("access to the database denied")]
    AccessDenied,
    /// Any other failure the database reported (syntax, constraint, I/O).
    #[error("database error: {0}")]
    Other(String),
    /// A value did not have the type the code expected.
    #[error("unexpected value: {0}")]
    Decode(String),
}

impl DbError {
    /// Classifies a failure by SQLite's message text, which is all some hosts pass through.
    pub fn from_message(message: impl Into<String>) -> Self {
        let message = message.into();
        if message.contains("database is locked") || message.contains("database is busy") {
            DbError::Busy(message)
        } else {
            DbError::Other(message)
        }
    }
}

/// One open connection to a SQL database.
pub trait Database {
    /// Runs one statement with positional parameters and returns its rows (none for writes).
    fn execute(&self, sql: &str, params: &[Value]) -> Result<QueryResult, DbError>;

    /// The number of rows the last INSERT, UPDATE or DELETE on this connection changed.
    fn changes(&self) -> Result<u64, DbError> {
        let result = self.execute("SELECT changes()", &[])?;
        let row = result.first().ok_or_else(|| DbError::Decode("changes() returned no row".into()))?;
        Ok(row.get::<i64>(0)?.max(0) as u64)
    }
}

impl<D: Database + ?Sized> Database for &D {
    fn execute(&self, sql: &str, params: &[Value]) -> Result<QueryResult, DbError> {
        (**self).execute(sql, params)
    }

    fn changes(&self) -> Result<u64, DbError> {
        (**self).changes()
    }
}

/// How often and how patiently [`transaction`] retries when the database is busy.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub attempts: u32,
    /// The pause after the first busy attempt; it doubles after each further one.
    pub first_pause: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy { attempts: 6, first_pause: Duration::from_millis(5) }
    }
}

/// An error from a transaction body, or from the database around it.
pub trait TransactionError: From<DbError> {
    /// Whether this error says the database was busy, so that the whole transaction may be tried again.
    fn is_busy(&self) -> bool;
}

impl TransactionError for DbError {
    fn is_busy(&self) -> bool {
        matches!(self, DbError::Busy(_))
    }
}

/// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT` on `db`.
///
/// `BEGIN IMMEDIATE` takes the write lock up front, so two writers never deadlock half-way through.
/// When the database is busy at any point before the commit took effect, the transaction is rolled
/// back and `body` runs again from the start (with a growing pause, as `policy` says), so a retried
/// request can never apply its writes twice. Any other error rolls back and is returned.
pub fn transaction<D, T, E, F>(db: &D, policy: RetryPolicy, mut body: F) -> Result<T, E>
where
    D: Database + ?Sized,
    E: TransactionError,
    F: FnMut(&D) -> Result<T, E>,
{
    let mut pause = policy.first_pause;
    let mut attempt = 1;
    loop {
        match transaction_once(db, &mut body) {
            Err(error) if error.is_busy() && attempt < policy.attempts => {
                std::thread::sleep(pause);
                pause = pause.saturating_mul(2);
                attempt += 1;
            }
            outcome => return outcome,
        }
    }
}

fn transaction_once<D, T, E, F>(db: &D, body: &mut F) -> Result<T, E>
where
    D: Database + ?Sized,
    E: TransactionError,
    F: FnMut(&D) -> Result<T, E>,
{
    db.execute("BEGIN IMMEDIATE", &[])?;
    let value = match body(db) {
        Ok(value) => value,
        Err(error) => {
            rollback(db);
            return Err(error);
        }
    };
    if let Err(error) = db.execute("COMMIT", &[]) {
        // A failed COMMIT leaves the transaction open; nothing of it is visible to anyone.
        rollback(db);
        return Err(error.into());
    }
    Ok(value)
}

fn rollback<D: Database + ?Sized>(db: &D) {
    // ROLLBACK fails only when no transaction is open (SQLite already rolled it back itself),
    // which leaves the connection in the state we want.
    let _ = db.execute("ROLLBACK", &[]);
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Integer(n) => write!(f, "{n}"),
            Value::Real(x) => write!(f, "{x}"),
            Value::Text(text) => write!(f, "{text:?}"),
            Value::Blob(bytes) => write!(f, "<{} bytes>", bytes.len()),
            Value::Null => f.write_str("NULL"),
        }
    }
}

/// How long a large write leaves the database to others between two chunks.
pub const CHUNK_PAUSE: std::time::Duration = std::time::Duration::from_millis(6);

/// One chunk of a large write (a glossary's entries, a translation memory's segments): its
/// transaction, then a passive checkpoint and a pause of [`CHUNK_PAUSE`]. SQLite
/// checkpoints inside the commit that takes the write-ahead log past 1000 pages, whichever
/// connection commits: a large write would hand that work (copying the log into the database,
/// and a flush) to another tenant's small request. Checkpointing after each chunk keeps the log
/// short, and the work with the writer that made it (a checkpoint that cannot run now is left to
/// SQLite's own). SQLite's lock is not a queue: a writer that found it taken sleeps, in growing
/// steps, and a writer that takes it again at once can keep it from them for a long time; the
/// pause lets them in. Measured with `bench/glossary.sh`: another tenant's p99 during a
/// 100,000-entry upload fell from about 240 ms to about 85 ms, its worst from 0.8 s to 0.3-0.5 s,
/// while the upload took 8 s instead of 3 s.
pub fn write_chunk<T, E: TransactionError>(
    db: &dyn Database,
    mut body: impl FnMut(&dyn Database) -> Result<T, E>,
) -> Result<T, E> {
    let value = transaction(db, RetryPolicy::default(), |db| body(db))?;
    if let Err(error) = db.execute("PRAGMA wal_checkpoint(PASSIVE)", &[]) {
        eprintln!("a checkpoint after a chunk failed (SQLite checkpoints later): {error}");
    }
    std::thread::sleep(CHUNK_PAUSE);
    Ok(value)
}
