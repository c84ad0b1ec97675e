//! Everything a request reaches its host through, in one value.

use crate::{Clock, Database, KeyValue, OutboundHttp, Random, Variables};

/// The host services of one request (or one native program), borrowed from whoever owns them:
/// `platform_spin::Host` in a component, [`crate::native::NativeHost`] in unit tests and native
/// programs. Every domain function that needs more than the database takes this.
#[derive(Clone, Copy)]
pub struct Services<'a> {
    pub db: &'a dyn Database,
    pub kv: &'a dyn KeyValue,
    pub vars: &'a dyn Variables,
    pub http: &'a dyn OutboundHttp,
    pub clock: &'a dyn Clock,
    pub random: &'a dyn Random,
}

impl<'a> Services<'a> {
    /// The same services with another database connection: the one a transaction runs on.
    pub fn with_db(self, db: &'a dyn Database) -> Services<'a> {
        Services { db, ..self }
    }
}
