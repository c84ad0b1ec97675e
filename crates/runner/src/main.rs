//! `glossa`: builds and serves the Glossa application locally, the way the Spin CLI would.
//!
//! `glossa build` runs the components' build commands from `spin.toml`; `glossa up` serves the
//! application with Spin's routing, host interfaces and storage layout. See crates/runner/README.md.

mod admin;
mod app;
mod body;
mod build;
mod host;
mod log_output;
mod manifest;
mod models;
mod server;
mod stdio;

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

use crate::app::{App, LoadOptions};
use crate::host::sqlite::Storage;
use crate::manifest::Manifest;
use crate::manifest::variables::parse_assignment;

#[derive(Parser)]
#[command(name = "glossa", version, about = "Build and serve the Glossa application locally")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run each component's build command from the manifest.
    Build(BuildArgs),
    /// Serve the application.
    Up(UpArgs),
    /// Create subscriptions and keys in the application's database.
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Install, list and remove the translation models the inference service loads.
    #[command(subcommand)]
    Models(models::Command),
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Create a subscription and its first admin key (printed once).
    CreateSubscription {
        #[command(flatten)]
        target: AdminTarget,
        /// The plan: `pro` or `free`.
        #[arg(long, default_value = "pro")]
        plan: String,
    },
    /// Create a key for a subscription (printed once).
    CreateKey {
        #[command(flatten)]
        target: AdminTarget,
        /// The subscription's id.
        #[arg(long)]
        subscription: String,
        /// `developer` (the default) or `admin`.
        #[arg(long, default_value = "developer")]
        kind: String,
        /// A label naming the key.
        #[arg(long)]
        label: Option<String>,
    },
    /// List the subscriptions.
    ListSubscriptions {
        #[command(flatten)]
        target: AdminTarget,
    },
}

/// Which database the admin commands work on: the one `glossa up` with the same flags serves.
#[derive(Args)]
struct AdminTarget {
    /// The application manifest.
    #[arg(short = 'f', long = "from", default_value = "spin.toml")]
    manifest: PathBuf,
    /// The state directory (default: `.spin` beside the manifest).
    #[arg(long)]
    state_dir: Option<PathBuf>,
    /// Runtime configuration: where databases live.
    #[arg(long, env = "RUNTIME_CONFIG_FILE")]
    runtime_config_file: Option<PathBuf>,
    /// The migrations to apply first (default: `sql/` beside the manifest).
    #[arg(long)]
    migrations: Option<PathBuf>,
}

impl AdminTarget {
    fn into_target(self) -> admin::Target {
        admin::Target {
            manifest: self.manifest,
            state_dir: self.state_dir,
            runtime_config: self.runtime_config_file,
            migrations: self.migrations,
        }
    }
}

#[derive(Args)]
struct BuildArgs {
    /// The application manifest.
    #[arg(short = 'f', long = "from", default_value = "spin.toml")]
    manifest: PathBuf,
    /// Build only this component (repeatable).
    #[arg(short = 'c', long = "component-id")]
    components: Vec<String>,
}

#[derive(Args)]
struct UpArgs {
    /// The application manifest.
    #[arg(short = 'f', long = "from", default_value = "spin.toml")]
    manifest: PathBuf,
    /// The address to serve on.
    #[arg(long, default_value = "127.0.0.1:3000", env = "SPIN_HTTP_LISTEN_ADDR")]
    listen: String,
    /// Where the databases and key-value stores live (default: `.spin` beside the manifest;
    /// an empty value keeps everything in memory).
    #[arg(long)]
    state_dir: Option<PathBuf>,
    /// SQL to run at start: `@file.sql` (or `@file.sql:database`) or one statement (repeatable).
    #[arg(long)]
    sqlite: Vec<String>,
    /// Runtime configuration: where databases and stores live.
    #[arg(long, env = "RUNTIME_CONFIG_FILE")]
    runtime_config_file: Option<PathBuf>,
    /// Add NAME=VALUE to every component's environment (repeatable).
    #[arg(short = 'e', long = "env", value_parser = parse_assignment)]
    env: Vec<(String, String)>,
    /// Set application variable NAME=VALUE (repeatable; beats SPIN_VARIABLE_*).
    #[arg(long = "variable", value_parser = parse_assignment)]
    variables: Vec<(String, String)>,
    /// Write KEY=VALUE to the default key-value store at start (repeatable).
    #[arg(long = "key-value", value_parser = parse_assignment)]
    key_values: Vec<(String, String)>,
    /// Build the components first.
    #[arg(long)]
    build: bool,
    /// The most linear memory one component instance may use, in bytes.
    #[arg(long, default_value_t = 512 << 20)]
    max_instance_memory: usize,
    /// Compile the components afresh instead of using the compilation cache.
    #[arg(long)]
    no_cache: bool,
    /// How the databases are opened: `pooled` keeps connections open between requests;
    /// `spin` opens a fresh connection with SQLite's defaults for every `open`, as the Spin CLI
    /// does (what benchmarks report, and what a deployment under Spin costs).
    #[arg(long, value_enum, default_value_t = Storage::Pooled, env = "GLOSSA_STORAGE")]
    storage: Storage,
    /// Seconds a connection may take to send a request head, or stay idle between requests.
    #[arg(long, default_value_t = 10, env = "GLOSSA_HEADER_TIMEOUT")]
    header_timeout: u64,
    /// Seconds a request body may take to arrive.
    #[arg(long, default_value_t = 30, env = "GLOSSA_BODY_TIMEOUT")]
    body_timeout: u64,
    /// The most connections open at once (more wait to be accepted).
    #[arg(long, default_value_t = 4096, env = "GLOSSA_MAX_CONNECTIONS")]
    max_connections: usize,
    /// Seconds a request may run in its component before it is stopped (504).
    #[arg(long, default_value_t = 60, env = "GLOSSA_REQUEST_TIMEOUT")]
    request_timeout: u64,
    /// The most requests running in components at once (more wait, then answer 503).
    #[arg(long, default_value_t = 256, env = "GLOSSA_MAX_REQUESTS")]
    max_requests: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Host errors carry their context chain; capturing a Rust backtrace for each one (as
    // RUST_BACKTRACE=1 would) costs tens of microseconds on paths every request takes.
    wasmtime::error::disable_backtrace();
    init_logging();
    let outcome = match cli.command {
        Command::Build(args) => {
            Manifest::load(&args.manifest).and_then(|manifest| build::build(&manifest, &args.components))
        }
        Command::Up(args) => up(args),
        Command::Admin(command) => match command {
            AdminCommand::CreateSubscription { target, plan } => {
                admin::create_subscription_command(&target.into_target(), &plan)
            }
            AdminCommand::CreateKey { target, subscription, kind, label } => {
                admin::create_key_command(&target.into_target(), &subscription, &kind, label.as_deref())
            }
            AdminCommand::ListSubscriptions { target } => admin::list_subscriptions_command(&target.into_target()),
        },
        Command::Models(command) => models::run(command),
    };
    log_output::flush();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("Error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("GLOSSA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,wasmtime=warn,cranelift=warn"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(log_output::to_stderr())
        .with_ansi(ansi)
        .with_target(false)
        .init();
}

fn up(args: UpArgs) -> anyhow::Result<()> {
    if args.build {
        build::build(&Manifest::load(&args.manifest)?, &[])?;
    }
    let listen = resolve_listen(&args.listen)?;
    let options = LoadOptions {
        manifest: args.manifest,
        state_dir: args.state_dir,
        runtime_config: args.runtime_config_file,
        sqlite: args.sqlite,
        env: args.env,
        variables: args.variables,
        key_values: args.key_values,
        max_instance_memory: args.max_instance_memory,
        cache: !args.no_cache,
        self_origin: format!("http://{listen}"),
        storage: args.storage,
        max_instances: args.max_requests,
    };
    anyhow::ensure!(args.max_requests > 0, "--max-requests must be at least 1");
    anyhow::ensure!(args.max_connections > 0, "--max-connections must be at least 1");
    let limits = server::Limits {
        header_read_timeout: std::time::Duration::from_secs(args.header_timeout.max(1)),
        body_read_timeout: std::time::Duration::from_secs(args.body_timeout.max(1)),
        max_connections: args.max_connections,
        max_requests: args.max_requests,
        request_timeout: std::time::Duration::from_secs(args.request_timeout.max(1)),
        ..server::Limits::default()
    };
    let runtime = event_loop()?;
    runtime.block_on(async move {
        let app = tokio::task::spawn_blocking(move || App::load(&options))
            .await
            .context("loading the application failed")??;
        let listener = server::bind(listen).await?;
        print_routes(&app, listener.local_addr()?);
        server::serve(Arc::new(app), listener, limits).await
    })
}

/// The event loop: tokio's default of one worker thread per core.
///
/// Tokio runs a task that another task wakes next on the waking worker (its LIFO slot), where no
/// other worker can take it over. Under load that strands writers: the one leaving a file's write
/// gate hands the turn to the next in line, whose task then sits in that slot, holding the turn,
/// until the leaving request's task pauses; every other writer waits behind it and the other
/// core idles. Without the slot a woken task joins the worker's ordinary queue, which
/// idle workers steal from, so the cores stay busy while writers queue.
fn event_loop() -> anyhow::Result<tokio::runtime::Runtime> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    // An unstable setting in tokio: .cargo/config.toml builds with `--cfg tokio_unstable`.
    #[cfg(tokio_unstable)]
    builder.disable_lifo_slot();
    builder.build().context("cannot start the event loop")
}

/// Resolves `host:port`, preferring IPv4 loopback for `localhost` as Spin does.
fn resolve_listen(listen: &str) -> anyhow::Result<SocketAddr> {
    let addresses: Vec<SocketAddr> =
        listen.to_socket_addrs().with_context(|| format!("--listen {listen} is not a host:port address"))?.collect();
    addresses
        .iter()
        .find(|address| address.is_ipv4())
        .or_else(|| addresses.first())
        .copied()
        .with_context(|| format!("--listen {listen} resolves to no address"))
}

fn print_routes(app: &App, address: SocketAddr) {
    log_output::flush();
    eprintln!("Serving http://{address}");
    eprintln!("Available Routes:");
    for trigger in &app.manifest.triggers {
        if matches!(trigger.route, manifest::routes::Route::Private) {
            continue;
        }
        let route = trigger.route.raw();
        let shown = match route.strip_suffix("/...") {
            Some(prefix) => format!("{prefix} (wildcard)"),
            None if route == "/..." => "/ (wildcard)".to_owned(),
            None => route.to_owned(),
        };
        eprintln!("  {}: http://{address}{shown}", trigger.component);
        if let Some(description) = app.manifest.component(&trigger.component).and_then(|c| c.description.as_deref()) {
            eprintln!("    {description}");
        }
    }
    for database in &app.databases {
        if let (Some(path), "default") = (database.path(), database.label()) {
            eprintln!("Storing default SQLite data to {path:?}");
        }
    }
    for store in &app.key_value_stores {
        if let (Some(path), "default") = (store.path(), store.label()) {
            eprintln!("Storing default key-value data to {path:?}");
        }
    }
}
