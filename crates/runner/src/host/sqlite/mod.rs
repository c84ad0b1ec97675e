//! `spin:sqlite/sqlite@3.0.0` and `fermyon:spin/sqlite@2.0.0`: SQLite files in the state directory.
//!
//! Each database keeps its connections open across requests in a small pool: a guest's `open`
//! takes an idle connection (or opens one), and dropping the resource gives it back, rolled back
//! if the guest left a transaction open. A connection remembers the settings guests gave it with
//! `PRAGMA busy_timeout = ...` or `PRAGMA synchronous = ...` (see [`Settings`]).
//!
//! Writers queue instead of failing or polling, at the database's [`WriteGate`]. A statement that
//! opens a transaction (or writes inside one) takes a turn at the gate, and keeps it until the
//! connection is back in autocommit mode. A single statement that writes in autocommit mode is
//! handed to the gate with its connection, and runs in the database's turn, maybe on the thread
//! of the writer ahead of it.
//!
//! That is the runner's own [`Storage::Pooled`] mode. [`Storage::Spin`] does what the Spin CLI
//! does instead: every `open` opens a fresh connection with SQLite's defaults (as `rusqlite`
//! opens one: a 5 s busy timeout), each statement runs on a blocking thread, writers contend
//! through SQLite's own locking, and nothing is kept between requests. Benchmarks report that
//! mode, since it is what a deployment under Spin costs.

pub mod checkpoint;
pub mod gate;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use platform::native::SqliteDb;
use platform::{Database as _, DbError, QueryResult, Value};
use wasmtime::component::Resource;

use super::HostState;
use super::bindings::{fermyon::spin::sqlite as v2, spin::sqlite::sqlite as v3};
use gate::{Turn, WriteGate};

/// How a database's connections are opened and kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Storage {
    /// Connections stay open between requests; writers queue at the write gate.
    #[default]
    Pooled,
    /// A fresh connection with SQLite's defaults for every `open`, as the Spin CLI does.
    Spin,
}

/// One database of the application, its idle connections and its write gate.
pub struct SqlitePool {
    label: String,
    /// `None` keeps the database in memory: a fresh, empty one for every `open`, as Spin does
    /// without a state directory.
    path: Option<PathBuf>,
    storage: Storage,
    idle: Mutex<Vec<(SqliteDb, Settings)>>,
    gate: WriteGate,
}

impl SqlitePool {
    pub fn with_storage(label: &str, path: Option<PathBuf>, storage: Storage) -> Arc<SqlitePool> {
        Arc::new(SqlitePool {
            label: label.to_owned(),
            path,
            storage,
            idle: Mutex::new(Vec::new()),
            gate: WriteGate::new(),
        })
    }

    pub fn storage(&self) -> Storage {
        self.storage
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

    /// An open connection: an idle one if there is one, else a new one; always a new one, as
    /// Spin opens it, in [`Storage::Spin`] mode.
    pub fn checkout(self: &Arc<Self>) -> Result<Connection, DbError> {
        if let (Storage::Spin, Some(path)) = (self.storage, &self.path) {
            let db = SqliteDb::open_as_spin_does(path)?;
            return Ok(Connection {
                db: Some(db),
                settings: Settings::default(),
                writing: None,
                pool: Arc::clone(self),
            });
        }
        let idle = lock(&self.idle).pop();
        let (db, settings) = match idle {
            Some(idle) => idle,
            None => match &self.path {
                Some(path) => {
                    let db = SqliteDb::open(path)?;
                    db.connection()
                        .execute_batch(checkpoint::NO_AUTOCHECKPOINT)
                        .map_err(|error| DbError::Other(error.to_string()))?;
                    (db, Settings::default())
                }
                None => (SqliteDb::open_in_memory()?, Settings::default()),
            },
        };
        Ok(Connection { db: Some(db), settings, writing: None, pool: Arc::clone(self) })
    }

    /// Closes every idle connection (at shutdown); SQLite checkpoints the write-ahead log
    /// when the last connection to a file closes.
    pub fn close_idle(&self) {
        let idle = std::mem::take(&mut *lock(&self.idle));
        drop(idle);
    }

    fn give_back(&self, db: SqliteDb, settings: Settings) {
        if self.path.is_none() {
            return;
        }
        lock(&self.idle).push((db, settings));
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The host side of a guest's `connection` resource.
pub struct Connection {
    db: Option<SqliteDb>,
    /// What guests have set on `db`, kept with it in the pool.
    settings: Settings,
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
        if self.pool.storage == Storage::Spin {
            return self.execute_blocking(sql, params).await;
        }
        let pragma = Pragma::of(&sql);
        // Settings are remembered and answered only outside transactions, where SQLite applies
        // them at once.
        let remembered = match pragma {
            Pragma::Setting { name, ref value } if params.is_empty() && self.db()?.connection().is_autocommit() => {
                if let Some(answer) = self.settings.answer(name, value) {
                    return Ok(answer.clone());
                }
                Some((name, value.clone()))
            }
            _ => None,
        };
        let result = self.run(sql, params).await;
        match (remembered, &result) {
            (Some((name, value)), Ok(answer)) if self.db()?.connection().is_autocommit() => {
                self.settings.remember(name, value, answer.clone());
            }
            _ if pragma != Pragma::None => self.settings.forget(),
            _ => {}
        }
        result
    }

    async fn run(&mut self, sql: String, params: Vec<Value>) -> Result<QueryResult, DbError> {
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

    /// Runs one statement on a blocking thread, as Spin does: a statement that waits for
    /// another connection's lock (SQLite's busy timeout) holds that thread, not the event loop.
    async fn execute_blocking(&mut self, sql: String, params: Vec<Value>) -> Result<QueryResult, DbError> {
        let db = self.db.take().ok_or_else(closed)?;
        let (db, result) = tokio::task::spawn_blocking(move || {
            let result = db.execute(&sql, &params);
            (db, result)
        })
        .await
        .map_err(|error| DbError::Other(format!("the statement's thread failed: {error}")))?;
        self.db = Some(db);
        result
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
        if self.pool.storage == Storage::Spin && self.pool.path.is_some() {
            // Closing the connection rolls back whatever transaction it left open.
            return;
        }
        // A guest that began a transaction and never ended it must not hand it to the next
        // request: roll it back first (while still holding the gate).
        let clean = db.connection().is_autocommit() || db.execute("ROLLBACK", &[]).is_ok();
        self.writing = None;
        if clean {
            self.pool.give_back(db, std::mem::take(&mut self.settings));
        } else {
            tracing::warn!(database = %self.pool.label, "closed a connection that could not roll back its transaction");
        }
    }
}

/// What a statement is, for [`Settings`].
#[derive(Debug, PartialEq)]
enum Pragma {
    /// `PRAGMA <name> = <value>` for a setting in [`REMEMBERED`] (the value in lower case).
    Setting {
        name: &'static str,
        value: String,
    },
    /// Any other statement that mentions `pragma`: it may change a setting, so the connection
    /// forgets them all.
    Other,
    None,
}

/// The settings a connection remembers: its own (not a file's), and SQLite's answer to setting
/// one depends on nothing but the value.
const REMEMBERED: &[&str] = &["busy_timeout", "synchronous"];

impl Pragma {
    fn of(sql: &str) -> Pragma {
        if !sql.as_bytes().windows(6).any(|word| word.eq_ignore_ascii_case(b"pragma")) {
            return Pragma::None;
        }
        let statement = sql.trim();
        let statement = statement.strip_suffix(';').unwrap_or(statement);
        let Some((keyword, rest)) = statement.split_at_checked(6) else { return Pragma::Other };
        if !keyword.eq_ignore_ascii_case("pragma") || !rest.starts_with(|c: char| c.is_ascii_whitespace()) {
            return Pragma::Other;
        }
        let Some((name, value)) = rest.split_once('=') else { return Pragma::Other };
        let (name, value) = (name.trim(), value.trim());
        let simple = !value.is_empty() && value.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'_');
        match REMEMBERED.iter().find(|known| known.eq_ignore_ascii_case(name)) {
            Some(name) if simple => Pragma::Setting { name, value: value.to_ascii_lowercase() },
            _ => Pragma::Other,
        }
    }
}

/// The connection settings guests set with `PRAGMA <name> = <value>`, kept with a pooled
/// connection across requests, with SQLite's answer to each.
///
/// SQLite compiles a PRAGMA again every time it runs (it never keeps one prepared), and every
/// request of the app's components sets the same two on its connection: the busy timeout and
/// `synchronous` (`platform_spin::SpinDb`; the Spin CLI opens a fresh connection per request,
/// which needs them). A guest that sets what its connection already has gets the first answer
/// again, and nothing runs: what it sees, and the connection's state, are what running it would
/// have given. Any other statement that mentions `pragma` makes the connection forget them all.
#[derive(Debug, Default)]
pub struct Settings(Vec<(&'static str, String, QueryResult)>);

impl Settings {
    fn answer(&self, name: &str, value: &str) -> Option<&QueryResult> {
        self.0.iter().find(|(known, set, _)| *known == name && set == value).map(|(_, _, answer)| answer)
    }

    fn remember(&mut self, name: &'static str, value: String, answer: QueryResult) {
        self.0.retain(|(known, _, _)| *known != name);
        self.0.push((name, value, answer));
    }

    fn forget(&mut self) {
        self.0.clear();
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn try_run(connection: &mut Connection, sql: &str) -> Result<QueryResult, DbError> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(connection.execute(sql.to_owned(), Vec::new()))
    }

    fn run(connection: &mut Connection, sql: &str) -> QueryResult {
        try_run(connection, sql).unwrap()
    }

    /// A setting as SQLite has it (`PRAGMA <name>`, which is never remembered).
    fn read(connection: &mut Connection, name: &str) -> Value {
        run(connection, &format!("PRAGMA {name}")).rows[0].0[0].clone()
    }

    /// A fresh pool's first connection (and the directory its file is in).
    fn connection() -> (tempfile::TempDir, Arc<SqlitePool>, Connection) {
        let dir = tempfile::tempdir().unwrap();
        let pool = SqlitePool::with_storage("default", Some(dir.path().join("test.db")), Storage::Pooled);
        let connection = pool.checkout().unwrap();
        (dir, pool, connection)
    }

    /// Changes the busy timeout behind the guest's back, as no guest can: SQLite's answer then
    /// tells whether a later `PRAGMA busy_timeout = ...` ran.
    fn change_behind_the_back(connection: &Connection, millis: u64) {
        connection.db().unwrap().connection().busy_timeout(Duration::from_millis(millis)).unwrap();
    }

    #[test]
    fn a_setting_the_connection_already_has_is_answered_without_running_again() {
        let (_dir, _pool, mut connection) = connection();
        let first = run(&mut connection, "PRAGMA busy_timeout = 1234");
        assert_eq!(first.rows[0].0, vec![Value::Integer(1234)]);

        change_behind_the_back(&connection, 99);
        assert_eq!(run(&mut connection, "pragma BUSY_TIMEOUT=1234;"), first);
        // A read is another PRAGMA: it runs, and it finds the statement before did not.
        assert_eq!(read(&mut connection, "busy_timeout"), Value::Integer(99));
    }

    #[test]
    fn settings_stay_with_the_connection_in_the_pool() {
        let (_dir, pool, mut connection) = connection();
        run(&mut connection, "PRAGMA synchronous = NORMAL");
        run(&mut connection, "PRAGMA busy_timeout = 1234");
        drop(connection);

        let mut again = pool.checkout().unwrap();
        change_behind_the_back(&again, 99);
        run(&mut again, "PRAGMA busy_timeout = 1234");
        assert_eq!(read(&mut again, "busy_timeout"), Value::Integer(99), "the remembered setting ran again");
        assert_eq!(read(&mut again, "synchronous"), Value::Integer(1));
    }

    #[test]
    fn a_new_value_or_any_other_pragma_runs_for_real() {
        let (_dir, _pool, mut connection) = connection();
        run(&mut connection, "PRAGMA synchronous = NORMAL");
        run(&mut connection, "PRAGMA synchronous = FULL");
        assert_eq!(read(&mut connection, "synchronous"), Value::Integer(2));
        run(&mut connection, "PRAGMA synchronous = NORMAL");
        assert_eq!(read(&mut connection, "synchronous"), Value::Integer(1));

        // After another PRAGMA (here one that sets nothing remembered), the connection forgets
        // its settings, so the next one runs.
        run(&mut connection, "PRAGMA busy_timeout = 1234");
        run(&mut connection, "PRAGMA cache_size = 100");
        change_behind_the_back(&connection, 99);
        run(&mut connection, "PRAGMA busy_timeout = 1234");
        assert_eq!(read(&mut connection, "busy_timeout"), Value::Integer(1234));
    }

    #[test]
    fn inside_a_transaction_settings_run_for_real() {
        let (_dir, _pool, mut connection) = connection();
        run(&mut connection, "PRAGMA synchronous = NORMAL");
        run(&mut connection, "BEGIN");
        // SQLite refuses to change the safety level inside a transaction, also to the value
        // it has; a remembered answer would hide that.
        let refused = try_run(&mut connection, "PRAGMA synchronous = NORMAL");
        assert!(refused.is_err(), "{refused:?}");
        run(&mut connection, "ROLLBACK");
    }

    #[test]
    fn in_spin_mode_every_open_is_a_fresh_connection_with_sqlite_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let pool = SqlitePool::with_storage("default", Some(dir.path().join("spin.db")), Storage::Spin);
        let mut first = pool.checkout().unwrap();
        run(&mut first, "CREATE TABLE t (v TEXT)");
        run(&mut first, "PRAGMA busy_timeout = 1234");
        run(&mut first, "BEGIN");
        run(&mut first, "INSERT INTO t VALUES ('left open')");
        drop(first);

        let mut second = pool.checkout().unwrap();
        // Nothing of the first connection is kept: not its setting, not its transaction.
        assert_eq!(read(&mut second, "busy_timeout"), Value::Integer(5000));
        assert_eq!(run(&mut second, "SELECT count(*) FROM t").rows[0].0, vec![Value::Integer(0)]);
        // SQLite's own automatic checkpoints stay on (the runner's pooled mode turns them off).
        assert_eq!(read(&mut second, "wal_autocheckpoint"), Value::Integer(1000));
        assert!(lock(&pool.idle).is_empty());
    }

    #[test]
    fn statements_are_told_apart() {
        let setting = |name: &'static str, value: &str| Pragma::Setting { name, value: value.to_owned() };
        assert_eq!(Pragma::of("PRAGMA busy_timeout = 5000"), setting("busy_timeout", "5000"));
        assert_eq!(Pragma::of("  pragma Synchronous=normal ; "), setting("synchronous", "normal"));
        assert_eq!(Pragma::of("PRAGMA synchronous"), Pragma::Other);
        assert_eq!(Pragma::of("PRAGMA main.synchronous = NORMAL"), Pragma::Other);
        assert_eq!(Pragma::of("PRAGMA synchronous = NORMAL; PRAGMA synchronous = OFF"), Pragma::Other);
        assert_eq!(Pragma::of("PRAGMA foreign_keys = ON"), Pragma::Other);
        assert_eq!(Pragma::of("/* setup */ PRAGMA synchronous = OFF"), Pragma::Other);
        assert_eq!(Pragma::of("SELECT * FROM pragma_table_info('t')"), Pragma::Other);
        assert_eq!(Pragma::of("INSERT INTO t VALUES (1)"), Pragma::None);
    }
}
