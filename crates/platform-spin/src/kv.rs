//! The host's key-value stores.

use std::cell::OnceCell;

use platform::{KeyValue, KvError};

/// A key-value store of the host, opened on first use.
pub struct SpinKv {
    label: String,
    store: OnceCell<spin_sdk::key_value::Store>,
}

impl SpinKv {
    /// The store labelled `label` in the manifest's `key_value_stores` (usually `default`).
    pub fn new(label: &str) -> Self {
        SpinKv { label: label.to_owned(), store: OnceCell::new() }
    }

    fn store(&self) -> Result<&spin_sdk::key_value::Store, KvError> {
        if let Some(store) = self.store.get() {
            return Ok(store);
        }
        let store = spin_sdk::key_value::Store::open(&self.label).map_err(kv_error)?;
        Ok(self.store.get_or_init(|| store))
    }
}

impl KeyValue for SpinKv {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, KvError> {
        self.store()?.get(key).map_err(kv_error)
    }

    fn set(&self, key: &str, value: &[u8]) -> Result<(), KvError> {
        self.store()?.set(key, value).map_err(kv_error)
    }

    fn delete(&self, key: &str) -> Result<(), KvError> {
        self.store()?.delete(key).map_err(kv_error)
    }

    fn exists(&self, key: &str) -> Result<bool, KvError> {
        self.store()?.exists(key).map_err(kv_error)
    }

    fn keys(&self) -> Result<Vec<String>, KvError> {
        self.store()?.get_keys().map_err(kv_error)
    }
}

fn kv_error(error: spin_sdk::key_value::Error) -> KvError {
    use spin_sdk::key_value::Error;
    match error {
        Error::NoSuchStore => KvError::NoSuchStore,
        Error::AccessDenied => KvError::AccessDenied,
        Error::StoreTableFull => KvError::Other("too many stores open".into()),
        Error::Other(message) => KvError::Other(message),
    }
}
