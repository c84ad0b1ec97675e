//! The Spin implementation of the platform traits, and the request pipeline of every component.
//!
//! This is the one library that depends on `spin-sdk`. A component's handler is one line,
//! [`serve`]`(request, out, route)`; `route` builds a [`Host`] for the request and lends its
//! [`Host::services`] to the domain crates, which see only the traits of `platform`.
//!
//! * [`db`]: the host's SQLite databases, each connection set up as every Spin host needs it.
//! * [`kv`]: the host's key-value stores.
//! * [`outbound`]: outbound HTTP through `wasi:http`, with timeouts.
//! * [`serve`](mod@serve): the raw `wasi:http` request in, the handler's outcome out.
//! * [`clock`]: the wall clock, or the time an end-to-end test names.
//! * [`host`]: all of them for one request, and the component's variables.
//!
//! Storage is opened lazily, on first use, so a request that never touches the database never
//! opens it.

pub mod clock;
pub mod db;
pub mod host;
pub mod kv;
pub mod outbound;
pub mod serve;
mod streams;

pub use clock::{RequestClock, TEST_CLOCK_VARIABLE, TEST_TIME_HEADER};
pub use db::SpinDb;
pub use host::{Host, SpinVariables};
pub use kv::SpinKv;
pub use outbound::SpinHttp;
pub use platform::{OsRandom, Services, SystemClock};
pub use serve::{Answer, send, serve, serve_admitted, serve_then};
