//! Everything a handler reaches the host through.

use platform::{NoOutbound, OsRandom, OutboundHttp, Services, VarError, Variables};

use crate::clock::RequestClock;
use crate::db::SpinDb;
use crate::kv::SpinKv;
use crate::outbound::SpinHttp;

/// The component's variables, as declared in its `[component.<id>.variables]`.
#[derive(Debug, Default, Clone, Copy)]
pub struct SpinVariables;

impl Variables for SpinVariables {
    fn get(&self, name: &str) -> Result<Option<String>, VarError> {
        use spin_sdk::variables::Error;
        match spin_sdk::variables::get(name) {
            Ok(value) => Ok(Some(value)),
            Err(Error::Undefined(_)) => Ok(None),
            Err(Error::InvalidName(message)) => Err(VarError::InvalidName(message)),
            Err(Error::Provider(message) | Error::Other(message)) => Err(VarError::Provider(message)),
        }
    }
}

/// Everything a handler reaches the host through, opened lazily.
pub struct Host {
    pub db: SpinDb,
    pub kv: SpinKv,
    pub vars: SpinVariables,
    pub clock: RequestClock,
    pub random: OsRandom,
}

impl Host {
    /// The `default` database and key-value store, and the wall clock.
    pub fn new() -> Host {
        Host {
            db: SpinDb::new("default"),
            kv: SpinKv::new("default"),
            vars: SpinVariables,
            clock: RequestClock::default(),
            random: OsRandom,
        }
    }

    /// As [`Host::new`], with the clock `request` may set ([`RequestClock::for_request`]).
    pub fn for_request(request: &api::Request) -> Result<Host, api::ApiError> {
        let clock = RequestClock::for_request(request, &SpinVariables)?;
        Ok(Host { clock, ..Host::new() })
    }

    /// The services, lent to the domain crates, for a component that sends no outbound HTTP (its
    /// manifest lists no `allowed_outbound_hosts`): outbound requests are refused
    /// ([`NoOutbound`]), so the component carries no HTTP client and does not import one, which
    /// every instantiation would pay for.
    pub fn services(&self) -> Services<'_> {
        self.lend(&NoOutbound)
    }

    /// The services with outbound HTTP through `wasi:http`, to the hosts the component's
    /// `allowed_outbound_hosts` lists (the components that reach the engines).
    pub fn services_with_outbound(&self) -> Services<'_> {
        self.lend(&SpinHttp)
    }

    fn lend<'a>(&'a self, http: &'a dyn OutboundHttp) -> Services<'a> {
        Services { db: &self.db, kv: &self.kv, vars: &self.vars, http, clock: &self.clock, random: &self.random }
    }
}

impl Default for Host {
    fn default() -> Self {
        Host::new()
    }
}
