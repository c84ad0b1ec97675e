//! The HTTP server: `GET /health`, and the WebSocket upgrade of
//! `GET {prefix}/v3/voice/realtime/connect?token=…` (and `/v1/…`), each upgraded connection served by
//! [`crate::session::run`].
//!
//! A malformed upgrade request (not a WebSocket handshake, no token) is answered with a plain HTTP 400;
//! anything wrong after that, including a token the broker refuses, is answered inside the WebSocket with
//! the protocol's `error` message. On shutdown the server stops accepting, tells every live session to
//! close (each sends its final usage report), and waits for them within the grace period.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::{Method, Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};

use crate::broker::Broker;
use crate::meter::MeterConfig;
use crate::recognizer::Recognizer;
use crate::segmenter::SegmenterConfig;

/// The limits of §15 of the API, and the timing ones configurable.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The largest chunk, in bytes (100 KB).
    pub max_chunk_bytes: usize,
    /// The longest chunk of raw audio (1 s).
    pub max_chunk_ms: u64,
    /// How much faster than real time audio may arrive (2×), measured by a token bucket.
    pub max_speed: f64,
    /// The bucket's size: audio that may arrive at once, at the start or after a pause.
    pub speed_slack_ms: u64,
    /// No audio for this long ends the session (30 s).
    pub idle_timeout: Duration,
    /// A connection closes after this long (1 h); the client reconnects with a new token.
    pub max_connection: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_chunk_bytes: 100 * 1024,
            max_chunk_ms: 1_000,
            max_speed: 2.0,
            speed_slack_ms: 5_000,
            idle_timeout: Duration::from_secs(30),
            max_connection: Duration::from_secs(3_600),
        }
    }
}

/// Everything configurable about sessions.
#[derive(Debug, Clone)]
pub struct Settings {
    pub limits: Limits,
    pub segmenter: SegmenterConfig,
    pub meter: MeterConfig,
    /// The ffmpeg program.
    pub ffmpeg: String,
    /// The espeak-ng program that synthesises translated speech.
    pub espeak: String,
    /// The inference service's Piper voices, which speak the languages they cover (none: espeak-ng
    /// speaks every language).
    pub voices: Option<Arc<crate::voices::Voices>>,
    /// A prefix before `/v3/…` and `/v1/…` (empty, or `/something`).
    pub path_prefix: String,
    /// The pause before asking a busy recogniser again, and how often.
    pub busy_delay: Duration,
    pub busy_attempts: u32,
    /// Tentative segments are translated while the last translations took at most this long (zero: never).
    pub tentative_budget: Duration,
    /// How long live sessions may take to close at shutdown.
    pub shutdown_grace: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            limits: Limits::default(),
            segmenter: SegmenterConfig::default(),
            meter: MeterConfig::default(),
            ffmpeg: "ffmpeg".to_string(),
            espeak: "espeak-ng".to_string(),
            voices: None,
            path_prefix: String::new(),
            busy_delay: Duration::from_millis(250),
            busy_attempts: 40,
            tentative_budget: Duration::from_millis(300),
            shutdown_grace: Duration::from_secs(5),
        }
    }
}

/// What every connection shares.
pub struct Gateway {
    pub broker: Broker,
    pub recognizer: Recognizer,
    pub settings: Settings,
    /// The number of live sessions.
    sessions: watch::Sender<usize>,
}

impl Gateway {
    pub fn new(broker: Broker, recognizer: Recognizer, settings: Settings) -> Gateway {
        Gateway { broker, recognizer, settings, sessions: watch::channel(0).0 }
    }

    /// The number of live sessions.
    pub fn live_sessions(&self) -> usize {
        *self.sessions.borrow()
    }
}

/// Counts a session as live while it exists.
struct LiveSession(Arc<Gateway>);

impl LiveSession {
    fn new(gateway: Arc<Gateway>) -> LiveSession {
        gateway.sessions.send_modify(|count| *count += 1);
        LiveSession(gateway)
    }
}

impl Drop for LiveSession {
    fn drop(&mut self) {
        self.0.sessions.send_modify(|count| *count -= 1);
    }
}

/// Serves until `shutdown` completes, then closes the live sessions (within the grace period).
pub async fn serve(listener: TcpListener, gateway: Arc<Gateway>, shutdown: impl Future<Output = ()>) {
    let (stopping, stop_signal) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, _) = match accepted {
                    Ok(accepted) => accepted,
                    Err(error) => {
                        tracing::warn!(%error, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let gateway = gateway.clone();
                let mut stop = stop_signal.clone();
                let stop_signal = stop_signal.clone();
                let service = service_fn(move |request| {
                    let gateway = gateway.clone();
                    let stop_signal = stop_signal.clone();
                    async move { Ok::<_, Infallible>(handle(gateway, stop_signal, request)) }
                });
                let connection = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(Duration::from_secs(10))
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades();
                tokio::spawn(async move {
                    tokio::pin!(connection);
                    let result = tokio::select! {
                        result = connection.as_mut() => result,
                        () = stopped(&mut stop) => {
                            // Finish the request in progress, then close; an upgraded socket is the
                            // session's and closes with it.
                            connection.as_mut().graceful_shutdown();
                            connection.await
                        }
                    };
                    if let Err(error) = result {
                        tracing::debug!(%error, "connection error");
                    }
                });
            }
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    let _ = stopping.send(true);
    let grace = gateway.settings.shutdown_grace;
    let mut sessions = gateway.sessions.subscribe();
    let closed = tokio::time::timeout(grace, async {
        let _ = sessions.wait_for(|count| *count == 0).await;
    })
    .await;
    if closed.is_err() {
        tracing::warn!(live = gateway.live_sessions(), "sessions still open after the grace period");
    }
}

/// Completes once the flag is set (never, if its sender is gone without setting it).
pub async fn stopped(flag: &mut watch::Receiver<bool>) {
    while !*flag.borrow_and_update() {
        if flag.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

fn json_response(status: StatusCode, body: serde_json::Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn bad_request(message: &str) -> Response<Full<Bytes>> {
    json_response(StatusCode::BAD_REQUEST, json!({"message": message}))
}

/// Answers a request; a valid upgrade is answered with 101 and served on its own task.
fn handle(
    gateway: Arc<Gateway>,
    stop_signal: watch::Receiver<bool>,
    request: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let path = request.uri().path();
    if path == "/health" {
        if request.method() != Method::GET && request.method() != Method::HEAD {
            return json_response(StatusCode::METHOD_NOT_ALLOWED, json!({"message": "Use GET on /health"}));
        }
        return json_response(StatusCode::OK, json!({"status": "ok", "sessions": gateway.live_sessions()}));
    }
    let prefix = gateway.settings.path_prefix.trim_end_matches('/');
    let Some(route) = path.strip_prefix(prefix) else {
        return json_response(StatusCode::NOT_FOUND, json!({"message": format!("No route for {path}")}));
    };
    if route != "/v3/voice/realtime/connect" && route != "/v1/voice/realtime/connect" {
        return json_response(StatusCode::NOT_FOUND, json!({"message": format!("No route for {path}")}));
    }
    if request.method() != Method::GET {
        return json_response(StatusCode::METHOD_NOT_ALLOWED, json!({"message": "Use GET to open the WebSocket"}));
    }
    let headers = request.headers();
    let has_token = |name: header::HeaderName, token: &str| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .any(|value| value.split(',').any(|part| part.trim().eq_ignore_ascii_case(token)))
    };
    if !has_token(header::UPGRADE, "websocket") || !has_token(header::CONNECTION, "upgrade") {
        return bad_request("This endpoint is a WebSocket: send an upgrade request");
    }
    if headers.get(header::SEC_WEBSOCKET_VERSION).map(HeaderValue::as_bytes) != Some(b"13") {
        return bad_request("Only WebSocket version 13 is supported");
    }
    let Some(key) = headers.get(header::SEC_WEBSOCKET_KEY) else {
        return bad_request("The upgrade request has no Sec-WebSocket-Key");
    };
    let accept = derive_accept_key(key.as_bytes());
    let token = request.uri().query().and_then(|query| {
        form_urlencoded::parse(query.as_bytes()).find_map(|(name, value)| (name == "token").then(|| value.into_owned()))
    });
    let Some(token) = token.filter(|token| !token.is_empty()) else {
        return bad_request("Query parameter 'token' is required");
    };

    let live = LiveSession::new(gateway.clone());
    tokio::spawn(async move {
        let upgraded = match hyper::upgrade::on(request).await {
            Ok(upgraded) => upgraded,
            Err(error) => {
                tracing::debug!(%error, "upgrade failed");
                return;
            }
        };
        // Frames larger than any valid message are refused by the WebSocket layer itself; a chunk over
        // the API's limit but within this one gets the protocol's error.
        let config = WebSocketConfig::default().max_message_size(Some(1 << 20)).max_frame_size(Some(1 << 20));
        let socket = WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config)).await;
        crate::session::run(socket, token, gateway, stop_signal).await;
        drop(live);
    });

    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    if let Ok(accept) = HeaderValue::from_str(&accept) {
        headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    }
    response
}
