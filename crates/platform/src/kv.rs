//! Key-value stores: byte values under string keys, for data that may be lost or rebuilt.

/// Why a key-value operation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum KvError {
    /// The host knows no store of that name.
    #[error("no such key-value store")]
    NoSuchStore,
    /// The component may not open that store (it is not in its `key_value_stores`).
    #[error("access to the key-value store denied")]
    AccessDenied,
    /// Any other failure the store reported.
    #[error("key-value store error: {0}")]
    Other(String),
}

/// One open key-value store.
pub trait KeyValue {
    /// The value under `key`, or `None` when there is none.
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, KvError>;
    /// Stores `value` under `key`, replacing any value there.
    fn set(&self, key: &str, value: &[u8]) -> Result<(), KvError>;
    /// Removes `key`; removing an absent key is not an error.
    fn delete(&self, key: &str) -> Result<(), KvError>;
    /// Whether a value is stored under `key`.
    fn exists(&self, key: &str) -> Result<bool, KvError> {
        Ok(self.get(key)?.is_some())
    }
    /// Every key in the store.
    fn keys(&self) -> Result<Vec<String>, KvError>;
}
