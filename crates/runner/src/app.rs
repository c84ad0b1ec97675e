//! Loading an application: manifest, variables, storage, compiled and pre-instantiated
//! components, and the routing table. Everything that can be wrong with an application is found
//! here, before the first request, and reported with what to do about it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};
use platform::native::Sharing;
use wasmtime::component::Component as WasmComponent;
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};
use wasmtime_wasi_http::p2::bindings::ProxyPre;

use crate::host::key_value::KvStore;
use crate::host::sqlite::checkpoint::{Checkpointer, Target};
use crate::host::sqlite::gate::WriteGate;
use crate::host::sqlite::{SqlitePool, Storage, run_startup_sql};
use crate::host::{ComponentHost, HostState, PROVIDED_INTERFACES, linker};
use crate::manifest::Manifest;
use crate::manifest::files;
use crate::manifest::outbound::AllowedHosts;
use crate::manifest::routes::{Route, Router};
use crate::manifest::runtime_config::RuntimeConfig;
use crate::manifest::variables::AppVariables;

/// The default database's file in the state directory (Spin's name for it).
pub const DEFAULT_DATABASE_FILE: &str = "sqlite_db.db";
/// The default key-value store's file in the state directory (Spin's name for it).
pub const DEFAULT_KEY_VALUE_FILE: &str = "sqlite_key_value.db";

/// How much of each pooled memory, table and stack stays mapped between requests.
const KEEP_RESIDENT_BYTES: usize = 1 << 20;

/// How many idle instance slots keep their memory warm (up to [`KEEP_RESIDENT_BYTES`] each of
/// memory, table and stack); after a burst, the slots beyond them are given back to the system,
/// so the resident size returns to about what a steady load needs.
const WARM_SLOTS: u32 = 32;

/// How to load the application.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    pub manifest: PathBuf,
    /// `None` for `<manifest dir>/.spin`; an empty path keeps all data in memory.
    pub state_dir: Option<PathBuf>,
    pub runtime_config: Option<PathBuf>,
    /// `--sqlite` arguments: `@file.sql[:label]` or one statement.
    pub sqlite: Vec<String>,
    /// `--env NAME=VALUE`, added to every component's environment.
    pub env: Vec<(String, String)>,
    /// `--variable name=value`.
    pub variables: Vec<(String, String)>,
    /// `--key-value key=value`, written to the default store at start.
    pub key_values: Vec<(String, String)>,
    /// The most linear memory one instance may grow to.
    pub max_instance_memory: usize,
    /// Where compiled components are cached between starts (`None`: no cache).
    pub cache: bool,
    /// The origin requests to the application itself go to.
    pub self_origin: String,
    /// How databases are opened (see [`Storage`]).
    pub storage: Storage,
    /// The most component instances alive at once: the instance pool's size.
    pub max_instances: usize,
}

/// One loaded component, ready to be instantiated per request.
pub struct LoadedComponent {
    pub host: Arc<ComponentHost>,
    pub pre: ProxyPre<HostState>,
}

/// A loaded application.
pub struct App {
    pub manifest: Manifest,
    pub router: Router<Arc<LoadedComponent>>,
    pub databases: Vec<Arc<SqlitePool>>,
    pub key_value_stores: Vec<Arc<KvStore>>,
    checkpointer: std::sync::Mutex<Checkpointer>,
    /// Holds the staged `files` mounts; removed when the app is dropped.
    _work_dir: tempfile::TempDir,
}

impl App {
    pub fn load(options: &LoadOptions) -> anyhow::Result<App> {
        let manifest = Manifest::load(&options.manifest)?;
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        let runtime_config = match &options.runtime_config {
            Some(path) => RuntimeConfig::load(path, &cwd)?,
            None => RuntimeConfig::default(),
        };
        let state_dir = state_dir(&manifest, &runtime_config, options.state_dir.as_deref(), &cwd);
        if let Some(dir) = &state_dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the state directory {}", dir.display()))?;
        }
        let variables = AppVariables::resolve(&manifest, &options.variables, |name| std::env::var(name).ok())?;

        let databases = open_databases(&manifest, &runtime_config, state_dir.as_deref(), options.storage)?;
        run_sqlite_arguments(&options.sqlite, &databases)?;
        let database_files: BTreeSet<PathBuf> = databases.values().filter_map(|pool| pool.path().cloned()).collect();
        let stores = open_key_value_stores(&manifest, &runtime_config, state_dir.as_deref(), &database_files)?;
        if !options.key_values.is_empty() {
            let default = stores.get("default").context("--key-value needs the default key-value store")?;
            for (key, value) in &options.key_values {
                default.set(key, value.as_bytes()).with_context(|| format!("--key-value {key}"))?;
            }
        }

        let engine = engine(options)?;
        tick(&engine)?;
        let linker = linker(&engine)?;
        let http_client = crate::host::client::HttpClient::new();
        let work_dir =
            tempfile::Builder::new().prefix("glossa-up-").tempdir().context("cannot create a working directory")?;
        let mut compiled: BTreeMap<PathBuf, WasmComponent> = BTreeMap::new();
        let mut loaded = BTreeMap::new();
        for (id, component) in &manifest.components {
            let context = || format!("component `{id}`");
            let wasm = match compiled.get(&component.source) {
                Some(wasm) => wasm.clone(),
                None => {
                    let wasm = compile(&engine, &component.source).with_context(context)?;
                    compiled.insert(component.source.clone(), wasm.clone());
                    wasm
                }
            };
            let _span = tracing::debug_span!("component", id = %id).entered();
            check_imports(&engine, &wasm).with_context(context)?;
            let pre = linker.instantiate_pre(&wasm).map_err(anyhow::Error::from).with_context(context)?;
            let pre = ProxyPre::new(pre).map_err(anyhow::Error::from).with_context(|| {
                format!("component `{id}` does not export wasi:http/incoming-handler@0.2 (is it an HTTP component?)")
            })?;

            let rendered: Vec<String> = component
                .allowed_outbound_hosts
                .iter()
                .map(|template| template.render(|name| variables.get(name)))
                .collect::<anyhow::Result<_>>()
                .with_context(context)?;
            let allowed_hosts = AllowedHosts::parse(&rendered).with_context(context)?;
            let files = if component.files.is_empty() {
                None
            } else {
                let target = files::component_dir(work_dir.path(), id);
                files::stage(&manifest.dir, &component.files, &component.exclude_files, &target)
                    .with_context(context)?;
                Some(target)
            };
            let mut environment: BTreeMap<String, String> = component.environment.clone();
            environment.extend(options.env.iter().cloned());
            let host = ComponentHost {
                id: Arc::from(id.as_str()),
                variables: variables.component_variables(component).with_context(context)?,
                sqlite: component
                    .sqlite_databases
                    .iter()
                    .map(|label| (label.clone(), Arc::clone(&databases[label])))
                    .collect(),
                key_value: component
                    .key_value_stores
                    .iter()
                    .map(|label| (label.clone(), Arc::clone(&stores[label])))
                    .collect(),
                allowed_hosts: Arc::new(allowed_hosts),
                environment: environment.into_iter().collect(),
                files,
                self_origin: Arc::from(options.self_origin.as_str()),
                max_memory_bytes: options.max_instance_memory,
                http_client: http_client.clone(),
            };
            loaded.insert(id.clone(), Arc::new(LoadedComponent { host: Arc::new(host), pre }));
        }

        let routes: Vec<(Route, Arc<LoadedComponent>)> = manifest
            .triggers
            .iter()
            .map(|trigger| (trigger.route.clone(), Arc::clone(&loaded[&trigger.component])))
            .collect();
        // Each file once: the key-value stores that share a file share its gate.
        // Databases opened as Spin does checkpoint themselves (SQLite's automatic checkpoints).
        let files: BTreeMap<&PathBuf, (Sharing, WriteGate)> = databases
            .values()
            .filter(|database| database.storage() == Storage::Pooled)
            .filter_map(|database| database.path().map(|path| (path, (Sharing::Processes, database.gate()))))
            .chain(stores.values().filter_map(|store| store.path().map(|path| (path, (store.sharing(), store.gate())))))
            .collect();
        let files: Vec<Target> =
            files.into_iter().map(|(path, (sharing, gate))| Target { path: path.clone(), sharing, gate }).collect();
        Ok(App {
            checkpointer: std::sync::Mutex::new(Checkpointer::start(files)),
            router: Router::new(routes),
            databases: databases.into_values().collect(),
            key_value_stores: stores.into_values().collect(),
            manifest,
            _work_dir: work_dir,
        })
    }

    /// Closes every idle database connection (at shutdown).
    pub fn close(&self) {
        for database in &self.databases {
            database.close_idle();
        }
        self.checkpointer.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).stop();
    }
}

/// How often the engine's epoch advances: the granularity of the request time budget.
const EPOCH_TICK: std::time::Duration = std::time::Duration::from_millis(100);

/// How many epoch ticks make `budget`.
pub fn epoch_ticks(budget: std::time::Duration) -> u64 {
    u64::try_from(budget.as_millis() / EPOCH_TICK.as_millis()).unwrap_or(u64::MAX).max(1)
}

/// Advances `engine`'s epoch every [`EPOCH_TICK`] for as long as the process lives.
fn tick(engine: &Engine) -> anyhow::Result<()> {
    let engine = engine.weak();
    std::thread::Builder::new()
        .name("epoch".into())
        .spawn(move || {
            while let Some(engine) = engine.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })
        .context("cannot start the epoch thread")?;
    Ok(())
}

fn engine(options: &LoadOptions) -> anyhow::Result<Engine> {
    let mut config = Config::new();
    config.wasm_component_model(true);
    // Guests check the epoch at loop heads and calls, so that a request that runs past its
    // time budget is stopped.
    config.epoch_interruption(true);
    // Instances come from a pool of pre-reserved slots, so instantiating one per request costs
    // microseconds. The pool bounds how many requests can run at once: the server lets no more
    // run than it has slots (`--max-requests`), so a burst waits or answers 503, never 500.
    let instances = u32::try_from(options.max_instances.max(1)).context("--max-requests is too large")?;
    let mut pool = PoolingAllocationConfig::default();
    pool.total_component_instances(instances)
        .total_core_instances(instances.saturating_mul(10))
        .total_memories(instances.saturating_mul(2))
        .total_tables(instances.saturating_mul(2))
        .total_stacks(instances)
        .max_unused_warm_slots(WARM_SLOTS)
        .max_memory_size(options.max_instance_memory);
    // Reset a slot by zeroing only the pages a request dirtied (found with the kernel's pagemap
    // scan where it has one) and keep the first megabyte resident: a request then starts without
    // page faults on the memory, tables and stack its predecessor used.
    pool.pagemap_scan(wasmtime::Enabled::Auto)
        .linear_memory_keep_resident(KEEP_RESIDENT_BYTES)
        .table_keep_resident(KEEP_RESIDENT_BYTES)
        .async_stack_keep_resident(KEEP_RESIDENT_BYTES);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    if options.cache {
        let cache = wasmtime::Cache::new(wasmtime::CacheConfig::new())
            .map_err(anyhow::Error::from)
            .context("cannot set up the compilation cache")?;
        config.cache(Some(cache));
    }
    Engine::new(&config).map_err(anyhow::Error::from).context("cannot set up the WebAssembly engine")
}

fn compile(engine: &Engine, source: &Path) -> anyhow::Result<WasmComponent> {
    if !source.is_file() {
        bail!(
            "{} does not exist: build the application first (`glossa build`, or `glossa up --build`)",
            source.display()
        );
    }
    WasmComponent::from_file(engine, source)
        .map_err(anyhow::Error::from)
        .with_context(|| format!("{} is not a valid WebAssembly component", source.display()))
}

/// Fails, naming them, when the component imports interfaces the runner does not provide.
fn check_imports(engine: &Engine, component: &WasmComponent) -> anyhow::Result<()> {
    let imports: Vec<String> = component.component_type().imports(engine).map(|(name, _)| name.to_owned()).collect();
    tracing::debug!("imports: {}", imports.join(", "));
    let unknown: Vec<&String> =
        imports.iter().filter(|name| !PROVIDED_INTERFACES.iter().any(|prefix| name.starts_with(prefix))).collect();
    if !unknown.is_empty() {
        bail!(
            "it imports {} this runner does not provide: {}",
            if unknown.len() == 1 { "an interface" } else { "interfaces" },
            unknown.iter().map(|name| name.as_str()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(())
}

/// The state directory: `--state-dir`, else the runtime configuration's, else `.spin` beside
/// the manifest; `None` when set to an empty path (everything in memory).
fn state_dir(manifest: &Manifest, config: &RuntimeConfig, flag: Option<&Path>, cwd: &Path) -> Option<PathBuf> {
    match flag.map(Path::to_path_buf).or_else(|| config.state_dir.clone()) {
        Some(dir) if dir.as_os_str().is_empty() => None,
        Some(dir) => Some(cwd.join(dir)),
        None => Some(manifest.dir.join(".spin")),
    }
}

/// The file of the application's `default` database, as `glossa up` would open it (`None`: in
/// memory).
pub fn database_file(
    manifest: &Manifest,
    config: &RuntimeConfig,
    state_dir_flag: Option<&Path>,
    cwd: &Path,
) -> anyhow::Result<Option<PathBuf>> {
    let state_dir = state_dir(manifest, config, state_dir_flag, cwd);
    let files = database_files(config).resolve(std::iter::empty(), state_dir.as_deref())?;
    Ok(files.get("default").cloned().flatten())
}

/// The `.sql` files of a migrations directory, in name order.
pub fn migration_scripts(dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the migrations directory {}", dir.display()))?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()?;
    paths.retain(|path| path.extension().is_some_and(|extension| extension == "sql"));
    paths.sort();
    paths
        .iter()
        .map(|path| std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display())))
        .collect()
}

fn database_files(config: &RuntimeConfig) -> StoreFiles<'_> {
    StoreFiles {
        kind: "SQLite database",
        table: "sqlite_database",
        configured: &config.sqlite_databases,
        default_file: DEFAULT_DATABASE_FILE,
    }
}

/// What one kind of store (SQLite databases, key-value stores) the application uses: `default`,
/// every label the runtime configuration defines, and every label a component lists (which
/// must be one of those). Each label maps to its file, or `None` to keep it in memory.
struct StoreFiles<'a> {
    /// What the stores are called in messages, and their runtime-configuration table.
    kind: &'a str,
    table: &'a str,
    configured: &'a BTreeMap<String, Option<PathBuf>>,
    /// The `default` store's file name in the state directory.
    default_file: &'a str,
}

impl StoreFiles<'_> {
    fn resolve<'m>(
        &self,
        listed: impl Iterator<Item = (&'m str, &'m String)>,
        state_dir: Option<&Path>,
    ) -> anyhow::Result<BTreeMap<String, Option<PathBuf>>> {
        let undefined: Vec<String> = listed
            .filter(|(_, label)| *label != "default" && !self.configured.contains_key(*label))
            .map(|(component, label)| format!("component `{component}` uses {} `{label}`", self.kind))
            .collect();
        if !undefined.is_empty() {
            bail!(
                "{}, which is not defined; define it in a runtime configuration file ([{}.<label>]) passed with --runtime-config-file",
                undefined.join("; "),
                self.table
            );
        }
        let mut files = self.configured.clone();
        files.entry("default".into()).or_insert_with(|| state_dir.map(|dir| dir.join(self.default_file)));
        for path in files.values().flatten() {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
            }
        }
        Ok(files)
    }
}

/// Every database some component lists, plus `default`.
fn open_databases(
    manifest: &Manifest,
    config: &RuntimeConfig,
    state_dir: Option<&Path>,
    storage: Storage,
) -> anyhow::Result<BTreeMap<String, Arc<SqlitePool>>> {
    let files = database_files(config);
    let listed =
        manifest.components.values().flat_map(|c| c.sqlite_databases.iter().map(|label| (c.id.as_str(), label)));
    let files = files.resolve(listed, state_dir)?;
    Ok(files
        .into_iter()
        .map(|(label, path)| (label.clone(), SqlitePool::with_storage(&label, path, storage)))
        .collect())
}

/// Applies `--sqlite` arguments in order: `@file.sql` (or `@file.sql:label`) runs a script,
/// anything else is one statement for the default database.
fn run_sqlite_arguments(arguments: &[String], databases: &BTreeMap<String, Arc<SqlitePool>>) -> anyhow::Result<()> {
    for argument in arguments {
        let (script, label) = match argument.strip_prefix('@') {
            Some(file) => {
                let (path, label) = match file.rsplit_once(':') {
                    Some((path, label)) if !label.contains('/') => (path, label),
                    _ => (file, "default"),
                };
                let script = std::fs::read_to_string(path)
                    .with_context(|| format!("--sqlite {argument}: cannot read {path}"))?;
                (script, label)
            }
            None => (argument.clone(), "default"),
        };
        let pool =
            databases.get(label).with_context(|| format!("--sqlite {argument}: there is no database `{label}`"))?;
        run_startup_sql(pool, &[script])
            .with_context(|| format!("--sqlite {argument}: the statements failed on database `{label}`"))?;
    }
    Ok(())
}

/// Every key-value store some component lists, plus `default`.
///
/// The runner keeps its key-value files to itself while it runs ([`Sharing::ThisProcess`]: no
/// system call per lock), since nothing else has reason to open them. A file that is also one of
/// the `database_files` stays open to other processes, as databases do for `glossa admin`.
fn open_key_value_stores(
    manifest: &Manifest,
    config: &RuntimeConfig,
    state_dir: Option<&Path>,
    database_files: &BTreeSet<PathBuf>,
) -> anyhow::Result<BTreeMap<String, Arc<KvStore>>> {
    let files = StoreFiles {
        kind: "key-value store",
        table: "key_value_store",
        configured: &config.key_value_stores,
        default_file: DEFAULT_KEY_VALUE_FILE,
    };
    let listed =
        manifest.components.values().flat_map(|c| c.key_value_stores.iter().map(|label| (c.id.as_str(), label)));
    let mut stores = BTreeMap::new();
    // The stores that share a file share its gate.
    let mut gates: BTreeMap<PathBuf, WriteGate> = BTreeMap::new();
    for (label, path) in files.resolve(listed, state_dir)? {
        let gate = match &path {
            Some(path) => gates.entry(path.clone()).or_default().clone(),
            None => WriteGate::new(),
        };
        let sharing = match &path {
            Some(path) if database_files.contains(path) => Sharing::Processes,
            _ => Sharing::ThisProcess,
        };
        let store = KvStore::open(&label, path, sharing, gate)
            .with_context(|| format!("cannot open key-value store `{label}`"))?;
        stores.insert(label, store);
    }
    Ok(stores)
}
