//! Native implementations of the platform traits, for unit tests and native programs.
//!
//! [`SqliteDb`] and [`SqliteKv`] keep data in SQLite files (or in memory) through rusqlite; the
//! local runner serves `spin:sqlite` and the key-value store with these same types, so the SQL a
//! unit test runs behaves as it does inside a component. [`UreqHttp`] sends plain-HTTP requests.
//! [`NativeHost`] owns one of each and lends them as [`crate::Services`].

mod host;
mod http;
mod kv;
mod sqlite;

pub use host::{HostError, NativeHost};
pub use http::UreqHttp;
pub use kv::SqliteKv;
pub use sqlite::{BUSY_TIMEOUT, Sharing, SqliteDb, execute_on, migrate, open_file};
