//! The host side of the interfaces components import: WASI 0.2 and `wasi:http` (from
//! wasmtime-wasi and wasmtime-wasi-http), and the Spin interfaces (SQLite, key-value, variables)
//! implemented here. One [`HostState`] lives in each request's store.

pub mod bindings;
pub mod client;
pub mod key_value;
pub mod sqlite;

use std::collections::BTreeMap;
use std::sync::Arc;

use wasmtime::component::{HasSelf, Linker, ResourceTable};
use wasmtime::{StoreLimits, StoreLimitsBuilder};
use wasmtime_wasi::{FsPerms, WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

use crate::manifest::outbound::AllowedHosts;
use crate::stdio::{LogStream, Stream};
use bindings::fermyon::spin::variables as wit_variables;
use key_value::KvStore;
use sqlite::SqlitePool;

mod outgoing;

pub use outgoing::OutboundHooks;

/// Interfaces a component may import, by name prefix; anything else is refused at start.
pub const PROVIDED_INTERFACES: &[&str] = &[
    "wasi:cli/",
    "wasi:io/",
    "wasi:clocks/",
    "wasi:random/",
    "wasi:filesystem/",
    "wasi:sockets/",
    "wasi:http/types@0.2.",
    "wasi:http/outgoing-handler@0.2.",
    "fermyon:spin/key-value@2.0.0",
    "fermyon:spin/variables@2.0.0",
    "fermyon:spin/sqlite@2.0.0",
    "spin:sqlite/sqlite@3.0.0",
];

/// Everything one component may use, fixed at start and shared by its requests.
pub struct ComponentHost {
    pub id: Arc<str>,
    /// Rendered component variables.
    pub variables: BTreeMap<String, String>,
    /// The databases the component lists in `sqlite_databases`.
    pub sqlite: BTreeMap<String, Arc<SqlitePool>>,
    /// The stores the component lists in `key_value_stores`.
    pub key_value: BTreeMap<String, Arc<KvStore>>,
    pub allowed_hosts: Arc<AllowedHosts>,
    /// The component's `environment`.
    pub environment: Vec<(String, String)>,
    /// The staged `files`, mounted read-only at `/`.
    pub files: Option<std::path::PathBuf>,
    /// Where requests to the application itself go (`http://127.0.0.1:3000`).
    pub self_origin: Arc<str>,
    /// The most linear memory one instance may grow to.
    pub max_memory_bytes: usize,
    /// The pooled client for outgoing plain-HTTP requests.
    pub http_client: client::HttpClient,
}

/// The data of one request's store.
pub struct HostState {
    wasi: WasiCtx,
    http: WasiHttpCtx,
    table: ResourceTable,
    hooks: OutboundHooks,
    component: Arc<ComponentHost>,
    limits: StoreLimits,
}

impl HostState {
    pub fn new(component: Arc<ComponentHost>) -> anyhow::Result<HostState> {
        let mut wasi = WasiCtx::builder();
        wasi.stdout(LogStream::new(Arc::clone(&component.id), Stream::Stdout))
            .stderr(LogStream::new(Arc::clone(&component.id), Stream::Stderr))
            .envs(&component.environment);
        if let Some(files) = &component.files {
            wasi.preopened_dir(files, "/", FsPerms::ReadOnly)?;
        }
        let hooks = OutboundHooks::new(
            Arc::clone(&component.id),
            Arc::clone(&component.allowed_hosts),
            Arc::clone(&component.self_origin),
            component.http_client.clone(),
        );
        let limits = StoreLimitsBuilder::new().memory_size(component.max_memory_bytes).build();
        Ok(HostState {
            wasi: wasi.build(),
            http: WasiHttpCtx::new(),
            table: ResourceTable::new(),
            hooks,
            component,
            limits,
        })
    }

    pub fn limits(&mut self) -> &mut StoreLimits {
        &mut self.limits
    }
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl WasiHttpView for HostState {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView { ctx: &mut self.http, table: &mut self.table, hooks: &mut self.hooks }
    }
}

impl wit_variables::Host for HostState {
    fn get(&mut self, name: String) -> wasmtime::Result<Result<String, wit_variables::Error>> {
        if let Err(error) = crate::manifest::check_variable_name(&name) {
            return Ok(Err(wit_variables::Error::InvalidName(error.to_string())));
        }
        Ok(match self.component.variables.get(&name) {
            Some(value) => Ok(value.clone()),
            None => {
                Err(wit_variables::Error::Undefined(format!("no variable for \"{}\".\"{name}\"", self.component.id)))
            }
        })
    }
}

/// A linker with every interface in [`PROVIDED_INTERFACES`].
pub fn linker(engine: &wasmtime::Engine) -> anyhow::Result<Linker<HostState>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_async(&mut linker)?;
    bindings::SpinHost::add_to_linker::<HostState, HasSelf<HostState>>(&mut linker, |state| state)?;
    Ok(linker)
}
