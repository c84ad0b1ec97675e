//! `voice-gateway`: the WebSocket gateway for the Service API's real-time voice (see the crate's README).
//!
//! Start-up binds the address first (so a port in use fails at once), prints `Serving http://…` on
//! standard error, and serves. SIGTERM and SIGINT stop it: no new connections, every live session is
//! closed after its final usage report, and the program exits 0 within the grace period.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use voice_gateway::broker::Broker;
use voice_gateway::client::JsonClient;
use voice_gateway::openai::OpenAiRecognizer;
use voice_gateway::recognizer::Recognizer;
use voice_gateway::server::{Gateway, Settings, serve};
use voice_gateway::voices::Voices;

/// The voice gateway: terminates the real-time voice WebSocket in front of the application.
#[derive(Debug, Parser)]
#[command(name = "voice-gateway", version)]
struct Args {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:2742")]
    listen: SocketAddr,
    /// The application's origin, whose internal voice routes broker the sessions.
    #[arg(long, default_value = "http://127.0.0.1:3000")]
    app_url: String,
    /// The inference service, which recognises speech.
    #[arg(long, default_value = "http://127.0.0.1:2741")]
    inference_url: String,
    /// The secret shared with the application's voice component (required).
    #[arg(long, env = "VOICE_GATEWAY_SECRET", hide_env_values = true)]
    gateway_secret: Option<String>,
    /// The inference service's secret.
    #[arg(long, env = "INFERENCE_SECRET", hide_env_values = true)]
    inference_secret: Option<String>,
    /// Which recogniser transcribes speech: the inference service, or an OpenAI-compatible server
    /// (`--openai-url`, `--openai-model`, and its API key in VOICE_OPENAI_API_KEY).
    #[arg(long, env = "VOICE_RECOGNIZER", value_enum, default_value_t = RecognizerKind::Inference)]
    recognizer: RecognizerKind,
    /// The OpenAI-compatible server's origin (`http://gpu-box:8000`), for `--recognizer openai`.
    #[arg(long, env = "VOICE_OPENAI_URL")]
    openai_url: Option<String>,
    /// The model to ask the OpenAI-compatible server for (`whisper-1`), for `--recognizer openai`.
    #[arg(long, env = "VOICE_OPENAI_MODEL")]
    openai_model: Option<String>,
    /// A path prefix before `/v3/voice/realtime/connect` (when a proxy forwards a sub-path as it is).
    #[arg(long, default_value = "")]
    public_path_prefix: String,
    /// The ffmpeg program that decodes container formats.
    #[arg(long, default_value = "ffmpeg")]
    ffmpeg: String,
    /// The espeak-ng program that synthesises translated speech (`target_media_languages`) in the
    /// languages no Piper voice speaks.
    #[arg(long, default_value = "espeak-ng")]
    espeak: String,
    /// Where Piper voices come from: the inference service's (`--inference-url`), or none (espeak-ng
    /// speaks every language).
    #[arg(long, env = "VOICE_VOICES", value_enum, default_value_t = VoicesKind::Inference)]
    voices: VoicesKind,
    /// Seconds without audio that end a session.
    #[arg(long, default_value_t = 30.0)]
    idle_timeout: f64,
    /// Seconds a connection may last before it is closed (the client reconnects).
    #[arg(long, default_value_t = 3600.0)]
    max_connection: f64,
    /// How much faster than real time audio may arrive.
    #[arg(long, default_value_t = 2.0)]
    max_speed: f64,
    /// Milliseconds of audio that may arrive at once beyond that speed (the first seconds, after pauses).
    #[arg(long, default_value_t = 5000)]
    speed_slack_ms: u64,
    /// Milliseconds of audio between two usage reports.
    #[arg(long, default_value_t = 10_000)]
    usage_report_ms: u64,
    /// Milliseconds of new speech between two recognitions.
    #[arg(long, default_value_t = 1000)]
    recognize_interval_ms: u64,
    /// Milliseconds of silence after speech that conclude it.
    #[arg(long, default_value_t = 500)]
    pause_ms: u64,
    /// Tentative segments are translated while the last translations into every target took at most
    /// this many milliseconds together (0: never).
    #[arg(long, default_value_t = 300)]
    tentative_translation_ms: u64,
    /// Milliseconds of buffered audio at which everything recognised is concluded.
    #[arg(long, default_value_t = 25_000)]
    max_buffer_ms: u64,
    /// Seconds live sessions get to close at shutdown.
    #[arg(long, default_value_t = 5.0)]
    shutdown_grace: f64,
}

/// The recognisers to choose from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RecognizerKind {
    /// The inference service (`--inference-url`).
    Inference,
    /// An OpenAI-compatible `/v1/audio/transcriptions` server (`--openai-url`).
    Openai,
}

/// Where the Piper voices of translated speech come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum VoicesKind {
    /// The inference service's (`GET /v1/speech/voices`).
    Inference,
    /// None: espeak-ng speaks every language.
    None,
}

/// The environment variable that holds the OpenAI-compatible server's API key (no flag: a command line
/// is visible to every user of the machine).
const OPENAI_API_KEY: &str = "VOICE_OPENAI_API_KEY";

/// Why the gateway could not run.
#[derive(Debug, thiserror::Error)]
enum StartError {
    #[error("cannot listen on {address}: {source}")]
    Listen { address: SocketAddr, source: std::io::Error },
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("{0}")]
    Invalid(String),
}

fn main() -> ExitCode {
    let args = Args::parse();
    init_logging();
    let Some(secret) = args.gateway_secret.clone().filter(|secret| !secret.trim().is_empty()) else {
        eprintln!("voice-gateway: a shared secret is required: pass --gateway-secret or set VOICE_GATEWAY_SECRET");
        return ExitCode::from(2);
    };
    match run(args, secret) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("voice-gateway: {error}");
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

fn seconds(name: &str, value: f64) -> Result<Duration, StartError> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|duration| !duration.is_zero())
        .ok_or_else(|| StartError::Invalid(format!("--{name} must be a positive number of seconds")))
}

fn settings(args: &Args) -> Result<Settings, StartError> {
    let mut settings = Settings::default();
    settings.limits.idle_timeout = seconds("idle-timeout", args.idle_timeout)?;
    settings.limits.max_connection = seconds("max-connection", args.max_connection)?;
    if !(args.max_speed.is_finite() && args.max_speed > 0.0) {
        return Err(StartError::Invalid("--max-speed must be a positive number".to_string()));
    }
    settings.limits.max_speed = args.max_speed;
    settings.limits.speed_slack_ms = args.speed_slack_ms;
    settings.meter.every_ms = args.usage_report_ms.max(1);
    settings.segmenter.interval_ms = args.recognize_interval_ms.max(1);
    settings.segmenter.pause_ms = args.pause_ms;
    settings.segmenter.max_buffer_ms = args.max_buffer_ms.clamp(1_000, 55_000);
    settings.tentative_budget = Duration::from_millis(args.tentative_translation_ms);
    settings.ffmpeg.clone_from(&args.ffmpeg);
    settings.espeak.clone_from(&args.espeak);
    settings.voices = match args.voices {
        VoicesKind::Inference => {
            Some(Arc::new(Voices::new(&args.inference_url, args.inference_secret.as_deref().unwrap_or_default())))
        }
        VoicesKind::None => None,
    };
    let prefix = args.public_path_prefix.trim_end_matches('/');
    if !prefix.is_empty() && !prefix.starts_with('/') {
        return Err(StartError::Invalid("--public-path-prefix must start with '/'".to_string()));
    }
    settings.path_prefix = prefix.to_string();
    settings.shutdown_grace = seconds("shutdown-grace", args.shutdown_grace)?;
    Ok(settings)
}

/// The recogniser the operator chose. Recognising a long window on a CPU takes a while: 120 s per call.
fn recognizer(args: &Args) -> Result<Recognizer, StartError> {
    let timeout = Duration::from_secs(120);
    match args.recognizer {
        RecognizerKind::Inference => {
            let secret = args.inference_secret.clone().unwrap_or_default();
            Ok(Recognizer::inference(JsonClient::new(&args.inference_url, &secret, timeout)))
        }
        RecognizerKind::Openai => {
            let url = args.openai_url.as_deref().map(str::trim).filter(|url| !url.is_empty()).ok_or_else(|| {
                StartError::Invalid("--recognizer openai needs --openai-url (or VOICE_OPENAI_URL)".to_string())
            })?;
            // The gateway's HTTP client speaks plain HTTP only, like its other connections.
            if !url.starts_with("http://") {
                return Err(StartError::Invalid(
                    "--openai-url must be an http:// origin (the gateway has no TLS client; put a TLS proxy beside it for https)"
                        .to_string(),
                ));
            }
            // The route is appended to the origin; a base URL ending in /v1 would ask for /v1/v1/….
            if url.trim_end_matches('/').ends_with("/v1") {
                return Err(StartError::Invalid(
                    "--openai-url is the server's origin (http://gpu-box:8000), without /v1".to_string(),
                ));
            }
            let model =
                args.openai_model.as_deref().map(str::trim).filter(|model| !model.is_empty()).ok_or_else(|| {
                    StartError::Invalid("--recognizer openai needs --openai-model (or VOICE_OPENAI_MODEL)".to_string())
                })?;
            let key = std::env::var(OPENAI_API_KEY).unwrap_or_default();
            let client = JsonClient::new(url, key.trim(), timeout);
            Ok(Recognizer::OpenAi(OpenAiRecognizer::new(client, model)))
        }
    }
}

/// Where recognition goes, for the start-up log (never the key).
fn recognizer_target(args: &Args) -> String {
    match args.recognizer {
        RecognizerKind::Inference => args.inference_url.clone(),
        RecognizerKind::Openai => format!(
            "{} (model {}, {})",
            args.openai_url.as_deref().unwrap_or_default().trim(),
            args.openai_model.as_deref().unwrap_or_default().trim(),
            if std::env::var(OPENAI_API_KEY).is_ok_and(|key| !key.trim().is_empty()) {
                "with an API key"
            } else {
                "no API key"
            },
        ),
    }
}

fn run(args: Args, secret: String) -> Result<(), StartError> {
    let settings = settings(&args)?;
    let recognizer = recognizer(&args)?;
    let listen_error = |source| StartError::Listen { address: args.listen, source };
    let listener = std::net::TcpListener::bind(args.listen).map_err(listen_error)?;
    listener.set_nonblocking(true).map_err(listen_error)?;
    let address = listener.local_addr().map_err(listen_error)?;

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(StartError::Runtime)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(listen_error)?;
        let broker = Broker::new(JsonClient::new(&args.app_url, &secret, Duration::from_secs(15)));
        let kind = recognizer.kind();
        let gateway = Arc::new(Gateway::new(broker, recognizer, settings));
        let voices = match args.voices {
            VoicesKind::Inference => args.inference_url.as_str(),
            VoicesKind::None => "none",
        };
        tracing::info!(app = %args.app_url, recognizer = kind, speech = %recognizer_target(&args), voices, "voice gateway ready");
        eprintln!("Serving http://{address}");
        serve(listener, gateway, shutdown_signal()).await;
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
