use std::path::Path;
use std::time::Duration;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, OpenFlags};

use crate::db::{Database, DbError, QueryResult, Row, Value};

/// How long a connection waits for another writer before reporting the database busy.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Which processes may use a database file while this process has it open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sharing {
    /// Any process, SQLite's default: each transaction takes and releases its locks on the file
    /// (and on the write-ahead log's `-shm` index) with system calls, so other processes see them.
    Processes,
    /// This process only. The first transaction locks the file exclusively, and the lock stays
    /// until the process's last connection to the file closes; the process's connections
    /// coordinate in memory, and the write-ahead log's index lives in memory (no `-shm` file).
    /// That saves the handful of `fcntl` calls every transaction makes otherwise; another
    /// process opening the file meanwhile finds it locked. SQLite's `unix-excl` file layer.
    ThisProcess,
}

/// Opens (creating if needed) the database file at `path`, shared as `sharing` says.
pub fn open_file(path: &Path, sharing: Sharing) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    match sharing {
        Sharing::Processes => Connection::open_with_flags(path, flags),
        Sharing::ThisProcess => Connection::open_with_flags_and_vfs(path, flags, c"unix-excl"),
    }
}

/// A SQLite connection.
pub struct SqliteDb {
    connection: Connection,
}

impl SqliteDb {
    /// Opens (creating if needed) the database file at `path`, shared with other processes.
    pub fn open(path: &Path) -> Result<Self, DbError> {
        Self::configure(open_file(path, Sharing::Processes).map_err(db_error)?)
    }

    /// Opens the database file at `path` the way the Spin CLI opens one for each guest `open`:
    /// `rusqlite`'s defaults (a 5 s busy timeout), nothing else set.
    pub fn open_as_spin_does(path: &Path) -> Result<Self, DbError> {
        Ok(SqliteDb { connection: Connection::open(path).map_err(db_error)? })
    }

    /// A fresh private in-memory database.
    pub fn open_in_memory() -> Result<Self, DbError> {
        Self::configure(Connection::open_in_memory().map_err(db_error)?)
    }

    fn configure(connection: Connection) -> Result<Self, DbError> {
        connection.busy_timeout(BUSY_TIMEOUT).map_err(db_error)?;
        stable_plans(&connection).map_err(db_error)?;
        Ok(SqliteDb { connection })
    }

    /// Runs every statement of each migration script, in order.
    pub fn migrate<S: AsRef<str>>(&self, scripts: &[S]) -> Result<(), DbError> {
        migrate(&self.connection, scripts)
    }

    /// The underlying rusqlite connection.
    pub fn connection(&self) -> &Connection {
        &self.connection
    }
}

impl Database for SqliteDb {
    fn execute(&self, sql: &str, params: &[Value]) -> Result<QueryResult, DbError> {
        execute_on(&self.connection, sql, params)
    }

    fn changes(&self) -> Result<u64, DbError> {
        Ok(self.connection.changes())
    }
}

/// Makes the query planner ignore bound parameter values. Otherwise SQLite may plan a statement
/// for the values bound and, when they change, prepare it again: a cached statement with a few
/// parameters would be prepared afresh on every run, which costs far more than its work.
pub(crate) fn stable_plans(connection: &Connection) -> rusqlite::Result<()> {
    connection.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    Ok(())
}

/// Runs every statement of each script, in order (as `spin up --sqlite @file` does).
pub fn migrate<S: AsRef<str>>(connection: &Connection, scripts: &[S]) -> Result<(), DbError> {
    for script in scripts {
        connection.execute_batch(script.as_ref()).map_err(db_error)?;
    }
    Ok(())
}

/// Runs one statement on `connection` the way `spin:sqlite` does: positional parameters in,
/// column names and typed rows out (no rows for statements that return none).
pub fn execute_on(connection: &Connection, sql: &str, params: &[Value]) -> Result<QueryResult, DbError> {
    let mut statement = connection.prepare_cached(sql).map_err(db_error)?;
    let expected = statement.parameter_count();
    if expected != params.len() {
        return Err(DbError::Other(format!(
            "the statement takes {expected} parameters but {} were given",
            params.len()
        )));
    }
    for (index, value) in params.iter().enumerate() {
        let position = index + 1;
        let bound = match value {
            Value::Integer(n) => statement.raw_bind_parameter(position, n),
            Value::Real(x) => statement.raw_bind_parameter(position, x),
            Value::Text(text) => statement.raw_bind_parameter(position, text),
            Value::Blob(bytes) => statement.raw_bind_parameter(position, bytes),
            Value::Null => statement.raw_bind_parameter(position, rusqlite::types::Null),
        };
        bound.map_err(db_error)?;
    }
    let columns: Vec<String> = statement.column_names().map(str::to_owned).collect();
    let width = columns.len();
    let mut rows = Vec::new();
    let mut cursor = statement.raw_query();
    while let Some(row) = cursor.next().map_err(db_error)? {
        let mut values = Vec::with_capacity(width);
        for column in 0..width {
            values.push(match row.get_ref(column).map_err(db_error)? {
                ValueRef::Null => Value::Null,
                ValueRef::Integer(n) => Value::Integer(n),
                ValueRef::Real(x) => Value::Real(x),
                ValueRef::Text(text) => Value::Text(String::from_utf8_lossy(text).into_owned()),
                ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
            });
        }
        rows.push(Row(values));
    }
    Ok(QueryResult { columns, rows })
}

/// Maps a rusqlite error to a [`DbError`], keeping SQLite's message (its busy message included,
/// so that hosts passing only text still let the guest tell "busy" apart).
pub(crate) fn db_error(error: rusqlite::Error) -> DbError {
    match error.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => DbError::Busy(error.to_string()),
        _ => DbError::Other(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{RetryPolicy, transaction};

    fn db() -> SqliteDb {
        let db = SqliteDb::open_in_memory().unwrap();
        db.migrate(&["CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)"]).unwrap();
        db
    }

    #[test]
    fn values_round_trip_with_their_types() {
        let db = db();
        db.execute(
            "INSERT INTO t (id, name, score, data) VALUES (?, ?, ?, ?)",
            &[Value::Integer(7), "seven".into(), Value::Real(0.5), Value::Blob(vec![1, 2])],
        )
        .unwrap();
        db.execute("INSERT INTO t (id) VALUES (?)", &[Value::Integer(8)]).unwrap();
        let result = db.execute("SELECT id, name, score, data FROM t ORDER BY id", &[]).unwrap();
        assert_eq!(result.columns, ["id", "name", "score", "data"]);
        assert_eq!(
            result.rows[0].0,
            [Value::Integer(7), Value::Text("seven".into()), Value::Real(0.5), Value::Blob(vec![1, 2])]
        );
        assert_eq!(result.rows[1].get::<Option<String>>(1).unwrap(), None);
        assert!(result.rows[1].get::<String>(1).is_err());
    }

    #[test]
    fn writes_report_their_changes_and_no_rows() {
        let db = db();
        let result = db.execute("INSERT INTO t (id) VALUES (1), (2), (3)", &[]).unwrap();
        assert!(result.rows.is_empty());
        assert_eq!(db.changes().unwrap(), 3);
    }

    #[test]
    fn a_parameter_count_mismatch_is_an_error_not_a_panic() {
        let error = db().execute("SELECT ?", &[]).unwrap_err();
        assert!(matches!(error, DbError::Other(message) if message.contains("takes 1 parameters")));
    }

    #[test]
    fn a_failing_transaction_body_leaves_nothing_behind() {
        let db = db();
        let outcome: Result<(), DbError> = transaction(&db, RetryPolicy::default(), |db| {
            db.execute("INSERT INTO t (id) VALUES (1)", &[])?;
            Err(DbError::Other("the body gave up".into()))
        });
        assert!(outcome.is_err());
        let count = db.execute("SELECT count(*) FROM t", &[]).unwrap();
        assert_eq!(count.rows[0].get::<i64>(0).unwrap(), 0);
    }

    #[test]
    fn a_busy_transaction_is_retried_from_the_start_and_applied_once() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("busy.db");
        let first = SqliteDb::open(&path).unwrap();
        first.migrate(&["PRAGMA journal_mode=WAL; CREATE TABLE t (id INTEGER PRIMARY KEY)"]).unwrap();
        first.connection().busy_timeout(Duration::from_millis(1)).unwrap();
        let second = SqliteDb::open(&path).unwrap();

        // The second connection holds the write lock while the first tries to write.
        second.execute("BEGIN IMMEDIATE", &[]).unwrap();
        let mut runs = 0;
        let policy = RetryPolicy { attempts: 50, first_pause: Duration::from_millis(2) };
        let releaser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            second.execute("COMMIT", &[]).unwrap();
        });
        transaction(&first, policy, |db| {
            runs += 1;
            db.execute("INSERT INTO t (id) VALUES (1)", &[]).map(|_| ())
        })
        .unwrap();
        releaser.join().unwrap();
        assert_eq!(runs, 1, "the body runs only once BEGIN IMMEDIATE got the lock");
        let count = first.execute("SELECT count(*) FROM t", &[]).unwrap();
        assert_eq!(count.rows[0].get::<i64>(0).unwrap(), 1);
    }
}
