//! `spin:sqlite/sqlite@3.0.0` and `fermyon:spin/sqlite@2.0.0`: SQLite files in the state directory.
//!
//! Each database keeps its connections open across requests in a small pool: a guest's `open`
//! takes an idle connection (or opens one), and dropping the resource gives it back. Every
//! connection waits up to [`platform::native::BUSY_TIMEOUT`] for another writer, so concurrent writers queue
//! instead of failing. Statements run on the blocking thread pool, never on the server's event
//! loop.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use platform::native::SqliteDb;
use platform::{Database as _, DbError, QueryResult, Value};
use wasmtime::component::Resource;

use super::HostState;
use super::bindings::{fermyon::spin::sqlite as v2, spin::sqlite::sqlite as v3};

/// One database of the application and its idle connections.
pub struct SqlitePool {
    label: String,
    /// `None` keeps the database in memory: a fresh, empty one for every `open`, as Spin does
    /// without a state directory.
    path: Option<PathBuf>,
    idle: Mutex<Vec<SqliteDb>>,
}

impl SqlitePool {
    pub fn new(label: &str, path: Option<PathBuf>) -> Arc<SqlitePool> {
        Arc::new(SqlitePool { label: label.to_owned(), path, idle: Mutex::new(Vec::new()) })
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn path(&self) -> Option<&PathBuf> {
        self.path.as_ref()
    }

    /// An open connection: an idle one if there is one, else a new one.
    pub fn checkout(self: &Arc<Self>) -> Result<Connection, DbError> {
        let idle = self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).pop();
        let db = match idle {
            Some(db) => db,
            None => match &self.path {
                Some(path) => SqliteDb::open(path)?,
                None => SqliteDb::open_in_memory()?,
            },
        };
        Ok(Connection { db: Arc::new(Mutex::new(Some(db))), pool: Arc::clone(self) })
    }

    /// Closes every idle connection (at shutdown); SQLite checkpoints the write-ahead log
    /// when the last connection to a file closes.
    pub fn close_idle(&self) {
        let idle = std::mem::take(&mut *self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        for db in idle {
            drop(db);
        }
    }

    fn give_back(&self, db: SqliteDb) {
        if self.path.is_none() {
            return;
        }
        // A guest that began a transaction and never ended it must not hand it to the next
        // request: roll it back first.
        if !db.connection().is_autocommit() {
            if let Err(error) = db.execute("ROLLBACK", &[]) {
                tracing::warn!(database = %self.label, "closing a connection left in a transaction: {error}");
                return;
            }
        }
        self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(db);
    }
}

/// The host side of a guest's `connection` resource.
pub struct Connection {
    db: Arc<Mutex<Option<SqliteDb>>>,
    pool: Arc<SqlitePool>,
}

impl Connection {
    /// Runs one statement on the blocking thread pool.
    async fn execute(&self, sql: String, params: Vec<Value>) -> Result<QueryResult, DbError> {
        let db = Arc::clone(&self.db);
        tokio::task::spawn_blocking(move || {
            let guard = db.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let db = guard.as_ref().ok_or_else(|| DbError::Other("connection closed".into()))?;
            db.execute(&sql, &params)
        })
        .await
        .unwrap_or_else(|join| Err(DbError::Other(format!("statement task failed: {join}"))))
    }

    fn with_db<T>(&self, read: impl FnOnce(&SqliteDb) -> T) -> Option<T> {
        self.db.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).as_ref().map(read)
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        if let Some(db) = self.db.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take() {
            self.pool.give_back(db);
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
        let connection = self.table.get(connection)?;
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
            async fn open(&mut self, database: String) -> wasmtime::Result<Result<Resource<Connection>, $wit::Error>> {
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

            async fn drop(&mut self, connection: Resource<Connection>) -> wasmtime::Result<()> {
                self.table.delete(connection)?;
                Ok(())
            }
        }
    };
    (@extras v3) => {
        async fn last_insert_rowid(&mut self, connection: Resource<Connection>) -> wasmtime::Result<i64> {
            let connection = self.table.get(&connection)?;
            Ok(connection.with_db(|db| db.connection().last_insert_rowid()).unwrap_or(0))
        }

        async fn changes(&mut self, connection: Resource<Connection>) -> wasmtime::Result<u64> {
            let connection = self.table.get(&connection)?;
            Ok(connection.with_db(|db| db.connection().changes()).unwrap_or(0))
        }
    };
    (@extras v2) => {};
}

sqlite_interface!(v2);
sqlite_interface!(v3);

/// The statements `--sqlite` gives, run at every start.
pub fn run_startup_sql(pool: &Arc<SqlitePool>, scripts: &[String]) -> anyhow::Result<()> {
    let connection = pool.checkout().map_err(anyhow::Error::from)?;
    let guard = connection.db.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let db = guard.as_ref().expect("a checked-out connection is open");
    db.migrate(scripts).map_err(anyhow::Error::from)
}
