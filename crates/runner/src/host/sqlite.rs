//! `spin:sqlite/sqlite@3.0.0` and `fermyon:spin/sqlite@2.0.0`: SQLite files in the state directory.
//!
//! Each database keeps its connections open across requests in a small pool: a guest's `open`
//! takes an idle connection (or opens one), and dropping the resource gives it back, rolled back
//! if the guest left a transaction open.
//!
//! Writers queue instead of failing or polling, at the database's [`WriteGate`]. A statement that
//! opens a transaction (or writes inside one) takes a turn at the gate, and keeps it until the
//! connection is back in autocommit mode. A single statement that writes in autocommit mode is
//! handed to the gate with its connection, and runs in the database's turn, maybe on the thread
//! of the writer ahead of it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use platform::native::SqliteDb;
use platform::{Database as _, DbError, QueryResult, Value};
use wasmtime::component::Resource;

use super::HostState;
use super::bindings::{fermyon::spin::sqlite as v2, spin::sqlite::sqlite as v3};
use super::gate::{Turn, WriteGate};

/// One database of the application, its idle connections and its write gate.
pub struct SqlitePool {
    label: String,
    /// `None` keeps the database in memory: a fresh, empty one for every `open`, as Spin does
    /// without a state directory.
    path: Option<PathBuf>,
    idle: Mutex<Vec<SqliteDb>>,
    gate: WriteGate,
}

impl SqlitePool {
    pub fn new(label: &str, path: Option<PathBuf>) -> Arc<SqlitePool> {
        Arc::new(SqlitePool { label: label.to_owned(), path, idle: Mutex::new(Vec::new()), gate: WriteGate::new() })
    }

    /// The gate writers queue at (the checkpointer takes it too).
    pub fn gate(&self) -> WriteGate {
        self.gate.clone()
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn path(&self) -> Option<&PathBuf> {
        self.path.as_ref()
    }

    /// An open connection: an idle one if there is one, else a new one.
    pub fn checkout(self: &Arc<Self>) -> Result<Connection, DbError> {
        let idle = lock(&self.idle).pop();
        let db = match idle {
            Some(db) => db,
            None => match &self.path {
                Some(path) => {
                    let db = SqliteDb::open(path)?;
                    db.connection()
                        .execute_batch(super::checkpoint::NO_AUTOCHECKPOINT)
                        .map_err(|error| DbError::Other(error.to_string()))?;
                    db
                }
                None => SqliteDb::open_in_memory()?,
            },
        };
        Ok(Connection { db: Some(db), writing: None, pool: Arc::clone(self) })
    }

    /// Closes every idle connection (at shutdown); SQLite checkpoints the write-ahead log
    /// when the last connection to a file closes.
    pub fn close_idle(&self) {
        let idle = std::mem::take(&mut *lock(&self.idle));
        drop(idle);
    }

    fn give_back(&self, db: SqliteDb) {
        if self.path.is_none() {
            return;
        }
        self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(db);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The host side of a guest's `connection` resource.
pub struct Connection {
    db: Option<SqliteDb>,
    /// This connection's turn at its database's write gate, while it writes.
    writing: Option<Turn>,
    pool: Arc<SqlitePool>,
}

fn closed() -> DbError {
    DbError::Other("connection closed".into())
}

/// Whether `sql` opens a transaction (which may write later, so it needs the gate first).
fn opens_transaction(sql: &str) -> bool {
    let first = sql.trim_start().split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or_default();
    first.eq_ignore_ascii_case("BEGIN") || first.eq_ignore_ascii_case("SAVEPOINT")
}

impl Connection {
    fn db(&self) -> Result<&SqliteDb, DbError> {
        self.db.as_ref().ok_or_else(closed)
    }

    /// Runs one statement, behind the write gate if it writes. SQLite answers in microseconds,
    /// so the statement runs on the event loop (here, or on the writer ahead at the gate); only
    /// waiting for the gate is asynchronous.
    pub(super) async fn execute(&mut self, sql: String, params: Vec<Value>) -> Result<QueryResult, DbError> {
        if self.writing.is_none() && self.writes(&sql)? {
            if !opens_transaction(&sql) && self.db()?.connection().is_autocommit() {
                return self.execute_alone(sql, params).await;
            }
            let turn = self.pool.gate.enter().await.map_err(|refused| DbError::Busy(refused.to_string()))?;
            self.writing = Some(turn);
        }
        let db = self.db()?;
        let result = db.execute(&sql, &params);
        if self.writing.is_some() && db.connection().is_autocommit() {
            self.writing = None;
        }
        result
    }

    /// Runs one statement that writes in autocommit mode: the gate runs it in the database's turn,
    /// maybe on the thread of the writer ahead of it (see [`WriteGate::run`]).
    async fn execute_alone(&mut self, sql: String, params: Vec<Value>) -> Result<QueryResult, DbError> {
        let db = self.db.take().ok_or_else(closed)?;
        let (db, result) = self.pool.gate.run(db, move |db| db.execute(&sql, &params)).await;
        self.db = Some(db);
        result.map_err(|refused| DbError::Busy(refused.to_string()))?
    }

    /// Whether the statement writes (or opens a transaction that may).
    fn writes(&self, sql: &str) -> Result<bool, DbError> {
        if opens_transaction(sql) {
            return Ok(true);
        }
        let statement =
            self.db()?.connection().prepare_cached(sql).map_err(|error| DbError::Other(error.to_string()))?;
        Ok(!statement.readonly())
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let Some(db) = self.db.take() else { return };
        // A guest that began a transaction and never ended it must not hand it to the next
        // request: roll it back first (while still holding the gate).
        let clean = db.connection().is_autocommit() || db.execute("ROLLBACK", &[]).is_ok();
        self.writing = None;
        if clean {
            self.pool.give_back(db);
        } else {
            tracing::warn!(database = %self.pool.label, "closed a connection that could not roll back its transaction");
        }
    }
}

impl HostState {
    /// Opens `label` for the guest: access-denied unless the component lists it, as Spin does.
    fn open_database(&mut self, label: &str) -> Result<Resource<Connection>, OpenError> {
        let pool = self.component.sqlite.get(label).ok_or(OpenError::AccessDenied)?;
        let connection = pool.checkout().map_err(|error| OpenError::Io(error.to_string()))?;
        self.table.push(connection).map_err(|error| OpenError::Io(error.to_string()))
    }

    async fn run_statement(
        &mut self,
        connection: &Resource<Connection>,
        sql: String,
        params: Vec<Value>,
    ) -> wasmtime::Result<Result<QueryResult, String>> {
        let connection = self.table.get_mut(connection)?;
        Ok(connection.execute(sql, params).await.map_err(|error| match error {
            DbError::Busy(message) | DbError::Other(message) => message,
            other => other.to_string(),
        }))
    }
}

enum OpenError {
    AccessDenied,
    Io(String),
}

/// Implements one version of the interface; both have the same shapes under different names.
macro_rules! sqlite_interface {
    ($wit:ident) => {
        impl From<OpenError> for $wit::Error {
            fn from(error: OpenError) -> Self {
                match error {
                    OpenError::AccessDenied => $wit::Error::AccessDenied,
                    OpenError::Io(message) => $wit::Error::Io(message),
                }
            }
        }

        impl $wit::Host for HostState {}

        impl $wit::HostConnection for HostState {
            fn open(&mut self, database: String) -> wasmtime::Result<Result<Resource<Connection>, $wit::Error>> {
                Ok(self.open_database(&database).map_err(Into::into))
            }

            async fn execute(
                &mut self,
                connection: Resource<Connection>,
                statement: String,
                parameters: Vec<$wit::Value>,
            ) -> wasmtime::Result<Result<$wit::QueryResult, $wit::Error>> {
                let params = parameters
                    .into_iter()
                    .map(|value| match value {
                        $wit::Value::Integer(n) => Value::Integer(n),
                        $wit::Value::Real(x) => Value::Real(x),
                        $wit::Value::Text(text) => Value::Text(text),
                        $wit::Value::Blob(bytes) => Value::Blob(bytes),
                        $wit::Value::Null => Value::Null,
                    })
                    .collect();
                let result = self.run_statement(&connection, statement, params).await?;
                Ok(result.map_err($wit::Error::Io).map(|result| $wit::QueryResult {
                    columns: result.columns,
                    rows: result
                        .rows
                        .into_iter()
                        .map(|row| $wit::RowResult {
                            values: row
                                .0
                                .into_iter()
                                .map(|value| match value {
                                    Value::Integer(n) => $wit::Value::Integer(n),
                                    Value::Real(x) => $wit::Value::Real(x),
                                    Value::Text(text) => $wit::Value::Text(text),
                                    Value::Blob(bytes) => $wit::Value::Blob(bytes),
                                    Value::Null => $wit::Value::Null,
                                })
                                .collect(),
                        })
                        .collect(),
                }))
            }

            sqlite_interface!(@extras $wit);

            fn drop(&mut self, connection: Resource<Connection>) -> wasmtime::Result<()> {
                self.table.delete(connection)?;
                Ok(())
            }
        }
    };
    (@extras v3) => {
        fn last_insert_rowid(&mut self, connection: Resource<Connection>) -> wasmtime::Result<i64> {
            let connection = self.table.get(&connection)?;
            Ok(connection.db.as_ref().map_or(0, |db| db.connection().last_insert_rowid()))
        }

        fn changes(&mut self, connection: Resource<Connection>) -> wasmtime::Result<u64> {
            let connection = self.table.get(&connection)?;
            Ok(connection.db.as_ref().map_or(0, |db| db.connection().changes()))
        }
    };
    (@extras v2) => {};
}

sqlite_interface!(v2);
sqlite_interface!(v3);

/// The statements `--sqlite` gives, run at every start.
pub fn run_startup_sql(pool: &Arc<SqlitePool>, scripts: &[String]) -> anyhow::Result<()> {
    let connection = pool.checkout().map_err(anyhow::Error::from)?;
    connection.db()?.migrate(scripts).map_err(anyhow::Error::from)
}
