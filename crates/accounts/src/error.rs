//! Failures of the account store.

use platform::DbError;

/// The database failed, or held something it should not.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("account store: {0}")]
    Db(#[from] DbError),
    #[error("account store holds an invalid {what}: {value:?}")]
    Corrupt { what: &'static str, value: String },
}

impl platform::db::TransactionError for StoreError {
    fn is_busy(&self) -> bool {
        matches!(self, StoreError::Db(DbError::Busy(_)))
    }
}
