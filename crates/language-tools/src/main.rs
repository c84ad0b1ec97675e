//! `glossa-language-tools`: loads the language models once and answers the Wasm components over local HTTP
//! (see the crate's README for the protocol).
//!
//! Start-up binds the address first (so a port in use fails at once), loads every model, and only then
//! prints its ready line and serves: a caller may wait for `/health`. SIGTERM and SIGINT stop it gracefully.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::Parser;
use language_tools::Tools;
use language_tools::server::{App, ServerConfig, serve};

/// The language-tools service: language detection, spelling/grammar correction, OCR and text rendering
/// for image translation, and reading and writing PDFs for document translation, for Glossa's components.
#[derive(Debug, Parser)]
#[command(name = "glossa-language-tools", version)]
struct Args {
    /// The address to listen on; loopback by default, as the components reach it on the same machine.
    #[arg(long, default_value = "127.0.0.1:2740")]
    listen: SocketAddr,
    /// The shared secret the components send as `Authorization: Bearer <secret>` (required).
    #[arg(long, env = "LANGUAGE_TOOLS_SECRET", hide_env_values = true)]
    secret: Option<String>,
    /// The directory holding Hunspell dictionaries (`de_DE.aff`/`.dic`, ...): Debian's hunspell-* packages.
    #[arg(long, default_value = "/usr/share/hunspell")]
    dictionaries: PathBuf,
    /// The font files `/render` and `/pdf/write` draw with (TrueType/OpenType, collections too),
    /// comma-separated: the first that is not CJK draws most languages, a Noto Sans CJK face Japanese, Korean
    /// and Chinese. Missing files are skipped with a warning. PDFs also get DejaVu Sans Bold when installed.
    #[arg(long, value_delimiter = ',', default_values = language_tools::DEFAULT_FONTS)]
    fonts: Vec<PathBuf>,
    /// How many requests' detection, correction, OCR or rendering may run at the same time (default: one
    /// per CPU).
    #[arg(long, env = "LANGUAGE_TOOLS_WORKERS")]
    workers: Option<NonZeroUsize>,
}

/// Why the service could not run.
#[derive(Debug, thiserror::Error)]
enum StartError {
    #[error("cannot listen on {address}: {source}")]
    Listen { address: SocketAddr, source: std::io::Error },
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
}

fn main() -> ExitCode {
    let args = Args::parse();
    init_logging();
    let Some(secret) = args.secret.clone().filter(|secret| !secret.trim().is_empty()) else {
        eprintln!("glossa-language-tools: a shared secret is required: pass --secret or set LANGUAGE_TOOLS_SECRET");
        return ExitCode::from(2);
    };
    match run(args, secret) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("glossa-language-tools: {error}");
            ExitCode::FAILURE
        }
    }
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("GLOSSA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .with_target(false)
        .init();
}

fn run(args: Args, secret: String) -> Result<(), StartError> {
    let listen_error = |source| StartError::Listen { address: args.listen, source };
    let listener = std::net::TcpListener::bind(args.listen).map_err(listen_error)?;
    listener.set_nonblocking(true).map_err(listen_error)?;
    let address = listener.local_addr().map_err(listen_error)?;

    let started = Instant::now();
    let tools = Arc::new(Tools::load(&args.dictionaries, &args.fonts));
    let detection = tools.detector.languages().len();
    let correction = tools.corrector.languages().join(", ");
    let ocr = tools.ocr.languages().len();
    if !tools.ocr.available() {
        tracing::warn!("tesseract or its language packs are not installed: /ocr answers 503");
    }
    if tools.fonts.is_empty() {
        tracing::warn!("no font could be read: /render answers 503");
    }
    if !tools.pdf.available {
        tracing::warn!("Poppler's pdftotext is not installed (poppler-utils): /pdf/read and /pdf/write answer 503");
    }
    if tools.pdf.fonts.is_none() {
        tracing::warn!("no font could be read for PDFs: /pdf/write answers 503");
    }
    tracing::info!(
        seconds = started.elapsed().as_secs_f32(),
        detection,
        correction = %correction,
        ocr,
        fonts = %tools.fonts.names().join(", "),
        pdf = tools.pdf.available,
        pdf_fonts = %tools.pdf.font_names().join(", "),
        dictionaries = %args.dictionaries.display(),
        "models loaded"
    );

    let mut config = ServerConfig::new(secret);
    if let Some(workers) = args.workers {
        config.workers = workers.get();
    }
    let app = Arc::new(App::new(tools, &config));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(StartError::Runtime)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(listen_error)?;
        // The ready line, after every model is loaded: callers wait for it or for /health.
        println!(
            "language-tools listening on {address} (detection: {detection} languages, correction: {correction}, \
             ocr: {ocr} languages)"
        );
        serve(listener, app, &config, shutdown_signal()).await;
        tracing::info!("stopped");
        Ok(())
    })
}

/// Completes on SIGTERM or SIGINT.
async fn shutdown_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::warn!(%error, "cannot listen for SIGINT");
            std::future::pending::<()>().await;
        }
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    tokio::select! {
        () = interrupt => tracing::info!("SIGINT: stopping"),
        () = terminate => tracing::info!("SIGTERM: stopping"),
    }
}
