//! `fermyon:spin/key-value@2.0.0`: named stores in one SQLite file, laid out as Spin lays them out.
//!
//! Each store label has one connection, shared behind a lock (as in Spin). Writes run in their
//! file's turn at its [`WriteGate`], which every store in the file shares, so writers queue without
//! holding a worker thread, and the checkpointer can pause them to rewind the file's log (see
//! [`super::sqlite::checkpoint`]); the connections never checkpoint inside a write. The runner usually
//! keeps a store's file to itself while it runs ([`Sharing::ThisProcess`]; see
//! `open_key_value_stores` in `app.rs`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use platform::native::{Sharing, SqliteKv};
use platform::{KeyValue, KvError};
use wasmtime::component::Resource;

use super::HostState;
use super::bindings::fermyon::spin::key_value as wit;
use super::sqlite::checkpoint::NO_AUTOCHECKPOINT;
use super::sqlite::gate::WriteGate;

/// One labelled store of the application.
pub struct KvStore {
    label: String,
    path: Option<PathBuf>,
    sharing: Sharing,
    store: Mutex<SqliteKv>,
    /// The gate of the store's file.
    gate: WriteGate,
}

impl KvStore {
    /// Opens the store `label` in the SQLite file at `path` (in memory when `None`), shared with
    /// other processes as `sharing` says; `gate` is the file's, shared with the other stores in it.
    pub fn open(label: &str, path: Option<PathBuf>, sharing: Sharing, gate: WriteGate) -> anyhow::Result<Arc<KvStore>> {
        let store = match &path {
            Some(path) => {
                let store = SqliteKv::open_shared(path, label, sharing)?;
                // Losable data: write-ahead logging without a sync per write keeps sets cheap.
                store.tune_for_throughput()?;
                store.connection().execute_batch(NO_AUTOCHECKPOINT)?;
                store
            }
            None => SqliteKv::open_in_memory(label)?,
        };
        Ok(Arc::new(KvStore { label: label.to_owned(), path, sharing, store: Mutex::new(store), gate }))
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn path(&self) -> Option<&PathBuf> {
        self.path.as_ref()
    }

    /// Whether other processes may open the store's file meanwhile.
    pub fn sharing(&self) -> Sharing {
        self.sharing
    }

    /// Writes a value directly (`--key-value key=value` at start).
    pub fn set(&self, key: &str, value: &[u8]) -> Result<(), KvError> {
        self.store.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).set(key, value)
    }

    pub fn gate(&self) -> WriteGate {
        self.gate.clone()
    }

    /// Runs one operation. Each is a single short SQLite statement on a connection no other
    /// process writes to, so it runs right here rather than on the blocking thread pool.
    fn run<T>(&self, operation: impl FnOnce(&SqliteKv) -> Result<T, KvError>) -> Result<T, KvError> {
        operation(&self.store.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// Runs one operation that writes, in the file's turn at its gate.
    pub(super) async fn write(
        self: Arc<Self>,
        operation: impl FnOnce(&SqliteKv) -> Result<(), KvError> + Send + 'static,
    ) -> Result<(), KvError> {
        let gate = self.gate.clone();
        let (_, result) = gate.run(self, move |store| store.run(operation)).await;
        result.map_err(|refused| KvError::Other(refused.to_string()))?
    }
}

/// The host side of a guest's `store` resource.
pub struct Store(Arc<KvStore>);

fn to_wit(error: KvError) -> wit::Error {
    match error {
        KvError::NoSuchStore => wit::Error::NoSuchStore,
        KvError::AccessDenied => wit::Error::AccessDenied,
        KvError::Other(message) => wit::Error::Other(message),
    }
}

impl HostState {
    fn kv(&self, store: &Resource<Store>) -> wasmtime::Result<Arc<KvStore>> {
        Ok(Arc::clone(&self.table.get(store)?.0))
    }
}

impl wit::Host for HostState {}

impl wit::HostStore for HostState {
    fn open(&mut self, label: String) -> wasmtime::Result<Result<Resource<Store>, wit::Error>> {
        // A store the component does not list is denied, whether or not it exists (as in Spin).
        let Some(store) = self.component.key_value.get(&label) else {
            return Ok(Err(wit::Error::AccessDenied));
        };
        let store = Store(Arc::clone(store));
        Ok(self.table.push(store).map_err(|error| wit::Error::Other(error.to_string())))
    }

    fn get(&mut self, store: Resource<Store>, key: String) -> wasmtime::Result<Result<Option<Vec<u8>>, wit::Error>> {
        let store = self.kv(&store)?;
        Ok(store.run(|kv| kv.get(&key)).map_err(to_wit))
    }

    async fn set(
        &mut self,
        store: Resource<Store>,
        key: String,
        value: Vec<u8>,
    ) -> wasmtime::Result<Result<(), wit::Error>> {
        let store = self.kv(&store)?;
        Ok(store.write(move |kv| kv.set(&key, &value)).await.map_err(to_wit))
    }

    async fn delete(&mut self, store: Resource<Store>, key: String) -> wasmtime::Result<Result<(), wit::Error>> {
        let store = self.kv(&store)?;
        Ok(store.write(move |kv| kv.delete(&key)).await.map_err(to_wit))
    }

    fn exists(&mut self, store: Resource<Store>, key: String) -> wasmtime::Result<Result<bool, wit::Error>> {
        let store = self.kv(&store)?;
        Ok(store.run(|kv| kv.exists(&key)).map_err(to_wit))
    }

    fn get_keys(&mut self, store: Resource<Store>) -> wasmtime::Result<Result<Vec<String>, wit::Error>> {
        let store = self.kv(&store)?;
        Ok(store.run(|kv| kv.keys()).map_err(to_wit))
    }

    fn drop(&mut self, store: Resource<Store>) -> wasmtime::Result<()> {
        self.table.delete(store)?;
        Ok(())
    }
}
