//! The platform seam between Glossa's domain logic and the host it runs on.
//!
//! Domain crates reach storage, outbound HTTP, variables, the clock and randomness only through the
//! small traits defined here, lent together as [`Services`]; [`Id`] is the one type of the ids the
//! API names by UUID. The components hand them the Spin implementations (crate
//! `platform-spin`); unit tests and native programs use the implementations in [`native`] (feature
//! `native`), which run the same SQL on SQLite through rusqlite. Nothing here depends on `spin-sdk`.
//!
//! The traits are synchronous: every Spin host interface a component uses is a blocking call from
//! the guest's point of view, and a request is handled start to finish by one instance.

pub mod clock;
pub mod db;
pub mod http;
pub mod id;
pub mod kv;
pub mod random;
mod services;
pub mod vars;

#[cfg(feature = "native")]
pub mod native;

pub use clock::{Clock, FixedClock, SystemClock};
pub use db::{Database, DbError, QueryResult, Row, Value};
pub use http::{HttpError, HttpRequest, HttpResponse, NoOutbound, OutboundHttp};
pub use id::Id;
pub use kv::{KeyValue, KvError};
pub use random::{OsRandom, Random};
pub use services::Services;
pub use vars::{VarError, Variables};
