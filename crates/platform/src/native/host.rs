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
}

impl<C: Clock> NativeHost<C> {
    /// Fresh in-memory storage with the given schema applied, no variables, and `clock`.
    pub fn in_memory<S: AsRef<str>>(migrations: &[S], clock: C) -> Result<NativeHost<C>, HostError> {
        let db = SqliteDb::open_in_memory()?;
        db.migrate(migrations)?;
        NativeHost::with_db(db, clock)
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
