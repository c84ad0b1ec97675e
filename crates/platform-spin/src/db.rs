//! The host's SQLite databases (`spin:sqlite`).

use std::cell::OnceCell;

use platform::{Database, DbError, QueryResult, Row, Value};
use spin_sdk::sqlite3;

/// A SQLite database of the host, opened on first use.
pub struct SpinDb {
    name: String,
    connection: OnceCell<sqlite3::Connection>,
}

impl SpinDb {
    /// The database named `name` in the manifest's `sqlite_databases` (usually `default`).
    pub fn new(name: &str) -> Self {
        SpinDb { name: name.to_owned(), connection: OnceCell::new() }
    }

    fn connection(&self) -> Result<&sqlite3::Connection, DbError> {
        if let Some(connection) = self.connection.get() {
            return Ok(connection);
        }
        // Spin opens a fresh connection for every `open`, through rusqlite, which gives it a 5 s
        // busy timeout: a statement waits that long for another connection's write lock. What
        // it leaves at SQLite's default is `synchronous = FULL`, a flush of the log at every
        // commit; NORMAL flushes at checkpoints only. A commit then survives the process
        // crashing but may be lost, with the other last commits, if the machine loses power
        // (the database stays consistent). Two commits per request (the rate limiter and the
        // charge) would otherwise each wait for the disk under the one write lock.
        let connection = sqlite3::Connection::open(&self.name).map_err(db_error)?;
        connection.execute("PRAGMA synchronous = NORMAL", &[]).map_err(db_error)?;
        Ok(self.connection.get_or_init(|| connection))
    }
}

impl Database for SpinDb {
    fn execute(&self, sql: &str, params: &[Value]) -> Result<QueryResult, DbError> {
        let params: Vec<sqlite3::Value> = params.iter().map(to_spin_value).collect();
        let result = self.connection()?.execute(sql, &params).map_err(db_error)?;
        Ok(QueryResult {
            columns: result.columns,
            rows: result
                .rows
                .into_iter()
                .map(|row| Row(row.values.into_iter().map(from_spin_value).collect()))
                .collect(),
        })
    }

    fn changes(&self) -> Result<u64, DbError> {
        Ok(self.connection()?.changes())
    }
}

fn to_spin_value(value: &Value) -> sqlite3::Value {
    match value {
        Value::Integer(n) => sqlite3::Value::Integer(*n),
        Value::Real(x) => sqlite3::Value::Real(*x),
        Value::Text(text) => sqlite3::Value::Text(text.clone()),
        Value::Blob(bytes) => sqlite3::Value::Blob(bytes.clone()),
        Value::Null => sqlite3::Value::Null,
    }
}

fn from_spin_value(value: sqlite3::Value) -> Value {
    match value {
        sqlite3::Value::Integer(n) => Value::Integer(n),
        sqlite3::Value::Real(x) => Value::Real(x),
        sqlite3::Value::Text(text) => Value::Text(text),
        sqlite3::Value::Blob(bytes) => Value::Blob(bytes),
        sqlite3::Value::Null => Value::Null,
    }
}

fn db_error(error: sqlite3::Error) -> DbError {
    match error {
        sqlite3::Error::NoSuchDatabase => DbError::NoSuchDatabase,
        sqlite3::Error::AccessDenied => DbError::AccessDenied,
        sqlite3::Error::InvalidConnection => DbError::Other("invalid connection".into()),
        sqlite3::Error::DatabaseFull => DbError::Other("database full".into()),
        sqlite3::Error::Io(message) => DbError::from_message(message),
    }
}
