use std::path::Path;

use rusqlite::{Connection, ErrorCode, OptionalExtension};

use super::sqlite::{BUSY_TIMEOUT, Sharing, open_file};
use crate::kv::{KeyValue, KvError};

/// The table holding every store, laid out as Spin's own SQLite key-value store lays it out, so a
/// state directory written by one host can be read by the other.
const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS spin_key_value (
    store TEXT NOT NULL,
    key   TEXT NOT NULL,
    value BLOB NOT NULL,
    PRIMARY KEY (store, key)
)";

/// One named store inside a SQLite database.
pub struct SqliteKv {
    connection: Connection,
    store: String,
    sharing: Sharing,
}

impl SqliteKv {
    /// Opens the store named `store` in the database file at `path`, shared with other processes.
    pub fn open(path: &Path, store: &str) -> Result<Self, KvError> {
        Self::open_shared(path, store, Sharing::Processes)
    }

    /// Opens the store named `store` in the database file at `path`, shared as `sharing` says.
    pub fn open_shared(path: &Path, store: &str, sharing: Sharing) -> Result<Self, KvError> {
        open_file(path, sharing).and_then(|connection| Self::prepare(connection, store, sharing)).map_err(|error| {
            match error.sqlite_error_code() {
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
                    KvError::Other(format!("{} is locked by another process ({error})", path.display()))
                }
                _ => kv_error(error),
            }
        })
    }

    /// A store in a fresh private in-memory database.
    pub fn open_in_memory(store: &str) -> Result<Self, KvError> {
        Connection::open_in_memory()
            .and_then(|connection| Self::prepare(connection, store, Sharing::ThisProcess))
            .map_err(kv_error)
    }

    fn prepare(connection: Connection, store: &str, sharing: Sharing) -> rusqlite::Result<Self> {
        connection.busy_timeout(BUSY_TIMEOUT)?;
        super::sqlite::stable_plans(&connection)?;
        connection.execute(CREATE_TABLE, [])?;
        Ok(SqliteKv { connection, store: store.to_owned(), sharing })
    }

    /// Switches the file to write-ahead logging without a sync per write: a crash of the machine
    /// may lose the last writes, which is what a store for losable data can afford.
    pub fn tune_for_throughput(&self) -> Result<(), KvError> {
        self.connection.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;").map_err(kv_error)
    }

    /// The underlying rusqlite connection.
    pub fn connection(&self) -> &Connection {
        &self.connection
    }

    /// The same database, another store in it.
    pub fn with_store(&self, store: &str) -> Result<SqliteKv, KvError> {
        let path = self.connection.path().filter(|path| !path.is_empty());
        match path {
            Some(path) => Self::open_shared(Path::new(path), store, self.sharing),
            None => Err(KvError::Other("an in-memory store cannot be shared".into())),
        }
    }
}

impl KeyValue for SqliteKv {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, KvError> {
        self.connection
            .prepare_cached("SELECT value FROM spin_key_value WHERE store = ?1 AND key = ?2")
            .and_then(|mut statement| statement.query_row((&self.store, key), |row| row.get(0)).optional())
            .map_err(kv_error)
    }

    fn set(&self, key: &str, value: &[u8]) -> Result<(), KvError> {
        self.connection
            .prepare_cached(
                "INSERT INTO spin_key_value (store, key, value) VALUES (?1, ?2, ?3)
                 ON CONFLICT (store, key) DO UPDATE SET value = excluded.value",
            )
            .and_then(|mut statement| statement.execute((&self.store, key, value)))
            .map(|_| ())
            .map_err(kv_error)
    }

    fn delete(&self, key: &str) -> Result<(), KvError> {
        self.connection
            .prepare_cached("DELETE FROM spin_key_value WHERE store = ?1 AND key = ?2")
            .and_then(|mut statement| statement.execute((&self.store, key)))
            .map(|_| ())
            .map_err(kv_error)
    }

    fn exists(&self, key: &str) -> Result<bool, KvError> {
        self.connection
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM spin_key_value WHERE store = ?1 AND key = ?2)")
            .and_then(|mut statement| statement.query_row((&self.store, key), |row| row.get(0)))
            .map_err(kv_error)
    }

    fn keys(&self) -> Result<Vec<String>, KvError> {
        let mut statement = self
            .connection
            .prepare_cached("SELECT key FROM spin_key_value WHERE store = ?1 ORDER BY key")
            .map_err(kv_error)?;
        let keys = statement.query_map([&self.store], |row| row.get(0)).map_err(kv_error)?;
        keys.collect::<Result<_, _>>().map_err(kv_error)
    }
}

fn kv_error(error: rusqlite::Error) -> KvError {
    KvError::Other(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_stored_replaced_and_deleted() {
        let kv = SqliteKv::open_in_memory("default").unwrap();
        assert_eq!(kv.get("a").unwrap(), None);
        kv.set("a", b"one").unwrap();
        kv.set("a", b"two").unwrap();
        kv.set("b", b"").unwrap();
        assert_eq!(kv.get("a").unwrap().as_deref(), Some(&b"two"[..]));
        assert!(kv.exists("b").unwrap());
        assert_eq!(kv.keys().unwrap(), ["a", "b"]);
        kv.delete("a").unwrap();
        kv.delete("never-there").unwrap();
        assert!(!kv.exists("a").unwrap());
    }

    #[test]
    fn stores_in_one_file_do_not_see_each_other() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("kv.db");
        let first = SqliteKv::open(&path, "default").unwrap();
        let second = first.with_store("other").unwrap();
        first.set("key", b"first").unwrap();
        assert_eq!(second.get("key").unwrap(), None);
        assert_eq!(SqliteKv::open(&path, "default").unwrap().get("key").unwrap().as_deref(), Some(&b"first"[..]));
    }

    #[test]
    fn connections_of_one_process_share_a_file_kept_to_it_and_leave_it_readable() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("kv.db");
        let first = SqliteKv::open_shared(&path, "default", Sharing::ThisProcess).unwrap();
        first.tune_for_throughput().unwrap();
        let second = first.with_store("default").unwrap();
        first.set("key", b"one").unwrap();
        assert_eq!(second.get("key").unwrap().as_deref(), Some(&b"one"[..]));
        second.set("key", b"two").unwrap();
        assert_eq!(first.get("key").unwrap().as_deref(), Some(&b"two"[..]));
        assert!(directory.path().join("kv.db-wal").exists());
        assert!(!directory.path().join("kv.db-shm").exists(), "the log's index stays in memory");
        drop((first, second));
        assert_eq!(SqliteKv::open(&path, "default").unwrap().get("key").unwrap().as_deref(), Some(&b"two"[..]));
    }

    /// Set in the copy of this test binary that plays the other process.
    const OTHER_PROCESS: &str = "SQLITE_KV_TEST_OTHER_PROCESS";

    #[test]
    fn another_process_finds_a_file_kept_to_this_one_locked() {
        if let Ok(directory) = std::env::var(OTHER_PROCESS) {
            // The other process: no waiting, so a lock shows at once.
            let count = |file: &str| {
                let connection = Connection::open(Path::new(&directory).join(file)).unwrap();
                connection.busy_timeout(std::time::Duration::ZERO).unwrap();
                connection.query_row("SELECT count(*) FROM spin_key_value", [], |row| row.get::<_, i64>(0))
            };
            assert_eq!(count("shared.db").unwrap(), 1);
            let error = count("kept.db").unwrap_err();
            assert_eq!(error.sqlite_error_code(), Some(ErrorCode::DatabaseBusy), "{error}");
            return;
        }
        let directory = tempfile::tempdir().unwrap();
        let kept = SqliteKv::open_shared(&directory.path().join("kept.db"), "default", Sharing::ThisProcess).unwrap();
        let shared = SqliteKv::open(&directory.path().join("shared.db"), "default").unwrap();
        for store in [&kept, &shared] {
            store.tune_for_throughput().unwrap();
            store.set("key", b"value").unwrap();
        }
        let other = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "native::kv::tests::another_process_finds_a_file_kept_to_this_one_locked"])
            .env(OTHER_PROCESS, directory.path())
            .output()
            .unwrap();
        let output = String::from_utf8_lossy(&other.stdout);
        assert!(other.status.success(), "{output}");
        assert!(output.contains("1 passed"), "the other process ran no test: {output}");
        // Once this process lets the file go, anyone may open it.
        drop(kept);
        let reopened = SqliteKv::open(&directory.path().join("kept.db"), "default").unwrap();
        assert_eq!(reopened.get("key").unwrap().as_deref(), Some(&b"value"[..]));
    }
}
