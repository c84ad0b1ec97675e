//! A whole set of native host services in one owner, for unit tests and native programs.

use std::collections::HashMap;

use super::{SqliteDb, SqliteKv, UreqHttp};
use crate::{Clock, DbError, FixedClock, KvError, OsRandom, Services};

/// Owns one of each native service and lends them as [`Services`]: a SQLite database, a
/// key-value store, variables from a map, HTTP through ureq, a clock and the OS's randomness.
pub struct NativeHost<C: Clock = FixedClock> {
    pub db: SqliteDb,
    pub kv: SqliteKv,
    pub vars: HashMap<String, String>,
    pub http: UreqHttp,
    pub clock: C,
    pub random: OsRandom,
}

/// Why a [`NativeHost`] could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("database: {0}")]
    Db(#[from] DbError),
    #[error("key-value store: {0}")]
    Kv(#[from] KvError),
    #[error("the schema in sql/: {0}")]
    Schema(String),
}

impl<C: Clock> NativeHost<C> {
    /// Fresh in-memory storage with the given schema applied, no variables, and `clock`.
    pub fn in_memory<S: AsRef<str>>(migrations: &[S], clock: C) -> Result<NativeHost<C>, HostError> {
        let db = SqliteDb::open_in_memory()?;
        db.migrate(migrations)?;
        NativeHost::with_db(db, clock)
    }

    /// An in-memory database with the application's whole schema (every file of `sql/`, in
    /// order, as the hosts apply it at start), and `clock`: what a domain crate's tests use.
    pub fn with_app_schema(clock: C) -> Result<NativeHost<C>, HostError> {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sql");
        let read = |error: std::io::Error| HostError::Schema(format!("{}: {error}", folder.display()));
        let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(&folder)
            .map_err(read)?
            .map(|entry| entry.map(|entry| entry.path()))
            .collect::<Result<_, _>>()
            .map_err(read)?;
        paths.retain(|path| path.extension().is_some_and(|extension| extension == "sql"));
        paths.sort();
        let scripts = paths.iter().map(std::fs::read_to_string).collect::<Result<Vec<_>, _>>().map_err(read)?;
        NativeHost::in_memory(&scripts, clock)
    }

    /// `db` (whose schema the caller applied), an in-memory key-value store, no variables, and
    /// `clock`.
    pub fn with_db(db: SqliteDb, clock: C) -> Result<NativeHost<C>, HostError> {
        Ok(NativeHost {
            db,
            kv: SqliteKv::open_in_memory("default")?,
            vars: HashMap::new(),
            http: UreqHttp,
            clock,
            random: OsRandom,
        })
    }

    /// The services, borrowed.
    pub fn services(&self) -> Services<'_> {
        Services {
            db: &self.db,
            kv: &self.kv,
            vars: &self.vars,
            http: &self.http,
            clock: &self.clock,
            random: &self.random,
        }
    }
}
