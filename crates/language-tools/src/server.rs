//! The HTTP server: routing, the shared secret, body limits, the worker pool, and JSON answers.
//!
//! `GET /health` needs no secret; `POST /detect` and `POST /correct` need `Authorization: Bearer <secret>`.
//! Every answer is JSON, errors `{"message": ...}`. The models' work runs on tokio's blocking threads, at most
//! `workers` requests at a time (a semaphore), so a slow request never blocks the accept loop and the
//! machine is never oversubscribed. A connection that sends no complete request head within the header
//! timeout is closed (idle keep-alive connections too), and a body must arrive within the body timeout.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Body;
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use serde::Serialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::Tools;
use crate::protocol::{CorrectRequest, CorrectResponse, DetectRequest, DetectResponse, ErrorBody, Health};

/// The largest request body accepted (413 above it).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The shared secret the components send.
    pub secret: String,
    /// Requests whose models' work runs at the same time.
    pub workers: usize,
    /// How long a connection may take to send a request head (and may idle between requests).
    pub header_read_timeout: Duration,
    /// How long a request body may take to arrive.
    pub body_read_timeout: Duration,
    /// How long open connections may finish their requests after a shutdown signal.
    pub shutdown_grace: Duration,
}

impl ServerConfig {
    /// The defaults for a secret: one worker per CPU, 10 s for a request head, 30 s for a body, 10 s grace.
    pub fn new(secret: String) -> ServerConfig {
        ServerConfig {
            secret,
            workers: std::thread::available_parallelism().map_or(2, usize::from),
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// What every request shares: the models, the secret's digest and the worker permits.
pub struct App {
    tools: Arc<Tools>,
    secret_digest: [u8; 32],
    workers: Arc<Semaphore>,
    body_read_timeout: Duration,
}

impl App {
    pub fn new(tools: Arc<Tools>, config: &ServerConfig) -> App {
        App {
            tools,
            secret_digest: Sha256::digest(config.secret.as_bytes()).into(),
            workers: Arc::new(Semaphore::new(config.workers.max(1))),
            body_read_timeout: config.body_read_timeout,
        }
    }

    /// Whether the `Authorization` header carries the secret. Both sides are compared as SHA-256 digests in
    /// constant time, so neither the secret's bytes nor its length leak through timing.
    fn authorized(&self, header: Option<&HeaderValue>) -> bool {
        let Some(presented) = header.and_then(|value| value.to_str().ok()).and_then(bearer_token) else {
            return false;
        };
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        digest.ct_eq(&self.secret_digest).into()
    }
}

/// The token of a `Bearer` credential (the scheme in any case).
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|token| !token.is_empty())
}

/// A refused request: its status and its message.
#[derive(Debug, thiserror::Error)]
enum RequestError {
    #[error("No route for {0}")]
    NotFound(String),
    #[error("Method {method} is not allowed on {path}; use {allowed}")]
    MethodNotAllowed { method: Method, path: &'static str, allowed: Method },
    #[error("Missing or invalid secret: send 'Authorization: Bearer <secret>'")]
    Unauthorized,
    #[error("The request body is larger than {MAX_BODY_BYTES} bytes")]
    PayloadTooLarge,
    #[error("The request body did not arrive within {} seconds", .0.as_secs())]
    BodyTimeout(Duration),
    #[error("{0}")]
    BadRequest(String),
    #[error("The request could not be completed")]
    Internal,
}

impl RequestError {
    fn status(&self) -> StatusCode {
        match self {
            RequestError::NotFound(_) => StatusCode::NOT_FOUND,
            RequestError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            RequestError::Unauthorized => StatusCode::UNAUTHORIZED,
            RequestError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            RequestError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            RequestError::BadRequest(_) => StatusCode::BAD_REQUEST,
            RequestError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn into_response(self) -> Response<Full<Bytes>> {
        let message = self.to_string();
        let mut response = json(self.status(), &ErrorBody { message: &message });
        match self {
            RequestError::MethodNotAllowed { allowed, .. } => {
                if let Ok(value) = HeaderValue::from_str(allowed.as_str()) {
                    response.headers_mut().insert(header::ALLOW, value);
                }
            }
            RequestError::Unauthorized => {
                response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            _ => {}
        }
        response
    }
}

/// Answers one request. Never fails: every refusal is a JSON error response.
pub async fn handle<B>(app: Arc<App>, request: Request<B>) -> Response<Full<Bytes>>
where
    B: Body<Data = Bytes>,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = route(&app, request).await.unwrap_or_else(RequestError::into_response);
    tracing::debug!(%method, %path, status = response.status().as_u16(), elapsed_ms = started.elapsed().as_millis(), "request");
    response
}

async fn route<B>(app: &Arc<App>, request: Request<B>) -> Result<Response<Full<Bytes>>, RequestError>
where
    B: Body<Data = Bytes>,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    let path = request.uri().path();
    let (path, allowed): (&'static str, Method) = match path {
        "/health" => ("/health", Method::GET),
        "/detect" => ("/detect", Method::POST),
        "/correct" => ("/correct", Method::POST),
        other => return Err(RequestError::NotFound(other.to_string())),
    };
    let method = request.method().clone();
    if method != allowed && !(allowed == Method::GET && method == Method::HEAD) {
        return Err(RequestError::MethodNotAllowed { method, path, allowed });
    }
    if path == "/health" {
        let correction = app.tools.corrector.languages();
        let health = Health { status: "ok", detection: app.tools.detector.languages(), correction: &correction };
        return Ok(json(StatusCode::OK, &health));
    }
    if !app.authorized(request.headers().get(header::AUTHORIZATION)) {
        return Err(RequestError::Unauthorized);
    }
    let body = read_body(app, request).await?;
    match path {
        "/detect" => {
            let DetectRequest { texts, among } = DetectRequest::parse(&body).map_err(RequestError::BadRequest)?;
            if let Some(unknown) =
                among.iter().flatten().find(|code| !app.tools.detector.languages().contains(&code.as_str()))
            {
                return Err(RequestError::BadRequest(format!(
                    "Field 'among' names '{unknown}', which the detector does not know"
                )));
            }
            let results =
                run_blocking(app, move |tools| texts.iter().map(|text| tools.detect(text, among.as_deref())).collect())
                    .await?;
            Ok(json(StatusCode::OK, &DetectResponse { results }))
        }
        _ => {
            let CorrectRequest { language, texts } = CorrectRequest::parse(&body).map_err(RequestError::BadRequest)?;
            // Refuse an unsupported language before queueing for a worker.
            let language = app
                .tools
                .corrector
                .supported(&language)
                .map_err(|error| RequestError::BadRequest(error.to_string()))?;
            let corrected = run_blocking(app, move |tools| {
                texts.iter().map(|text| tools.corrector.correct(language, text)).collect::<Result<Vec<_>, _>>()
            })
            .await?
            .map_err(|error| RequestError::BadRequest(error.to_string()))?;
            Ok(json(StatusCode::OK, &CorrectResponse { texts: corrected }))
        }
    }
}

/// The body, within [`MAX_BODY_BYTES`] (a declared length is checked before reading, the bytes while
/// reading) and the body timeout.
async fn read_body<B>(app: &App, request: Request<B>) -> Result<Bytes, RequestError>
where
    B: Body<Data = Bytes>,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return Err(RequestError::PayloadTooLarge);
    }
    let limited = Limited::new(request.into_body(), MAX_BODY_BYTES);
    match tokio::time::timeout(app.body_read_timeout, limited.collect()).await {
        Err(_) => Err(RequestError::BodyTimeout(app.body_read_timeout)),
        Ok(Err(error)) if error.downcast_ref::<LengthLimitError>().is_some() => Err(RequestError::PayloadTooLarge),
        Ok(Err(error)) => {
            tracing::debug!(%error, "request body could not be read");
            Err(RequestError::BadRequest("The request body could not be read".to_string()))
        }
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
    }
}

/// Runs the models' work on a blocking thread once a worker permit is free.
async fn run_blocking<T, F>(app: &App, work: F) -> Result<T, RequestError>
where
    T: Send + 'static,
    F: FnOnce(&Tools) -> T + Send + 'static,
{
    let permit = app.workers.clone().acquire_owned().await.map_err(|_| RequestError::Internal)?;
    let tools = app.tools.clone();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&tools)
    })
    .await
    .map_err(|error| {
        tracing::error!(%error, "a detection or correction task failed");
        RequestError::Internal
    })
}

fn json(status: StatusCode, body: &impl Serialize) -> Response<Full<Bytes>> {
    let (status, bytes) = match serde_json::to_vec(body) {
        Ok(bytes) => (status, bytes),
        Err(error) => {
            tracing::error!(%error, "a response could not be serialised");
            (StatusCode::INTERNAL_SERVER_ERROR, br#"{"message":"The response could not be serialised"}"#.to_vec())
        }
    };
    let mut response = Response::new(Full::new(Bytes::from(bytes)));
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// Accepts connections on `listener` until `shutdown` completes, then lets open connections finish their
/// requests for the grace period.
pub async fn serve(listener: TcpListener, app: Arc<App>, config: &ServerConfig, shutdown: impl Future<Output = ()>) {
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(config.header_read_timeout);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(error) => {
                        // Out of file descriptors and the like: wait a little instead of spinning.
                        tracing::warn!(%error, "accept failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                let app = app.clone();
                let service = service_fn(move |request| {
                    let app = app.clone();
                    async move { Ok::<_, Infallible>(handle(app, request).await) }
                });
                let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
                tokio::spawn(async move {
                    if let Err(error) = connection.await {
                        tracing::debug!(%error, "connection closed with an error");
                    }
                });
            }
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(config.shutdown_grace) => tracing::warn!("connections still open after the grace period"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tools;
    use serde_json::{Value, json};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    const SECRET: &str = "test-secret";

    fn app() -> Arc<App> {
        Arc::new(App::new(tools(), &ServerConfig::new(SECRET.to_string())))
    }

    fn request(method: Method, path: &str, auth: Option<&str>, body: impl Into<Bytes>) -> Request<Full<Bytes>> {
        let mut builder = Request::builder().method(method).uri(path);
        if let Some(auth) = auth {
            builder = builder.header(header::AUTHORIZATION, auth);
        }
        builder.body(Full::new(body.into())).expect("a valid request")
    }

    async fn call(request: Request<Full<Bytes>>) -> (StatusCode, Value) {
        let response = handle(app(), request).await;
        let status = response.status();
        assert_eq!(response.headers().get(header::CONTENT_TYPE).map(|v| v.as_bytes()), Some(&b"application/json"[..]));
        let bytes = response.into_body().collect().await.expect("a full body").to_bytes();
        (status, serde_json::from_slice(&bytes).expect("a JSON body"))
    }

    fn bearer() -> Option<&'static str> {
        Some("Bearer test-secret")
    }

    #[tokio::test]
    async fn health_lists_the_languages_without_a_secret() {
        let (status, body) = call(request(Method::GET, "/health", None, "")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["status"], "ok");
        let detection = body["detection"].as_array().expect("a list");
        assert!(detection.len() >= 70 && detection.contains(&json!("nb")) && detection.contains(&json!("zh")));
        let correction = body["correction"].as_array().expect("a list");
        for code in ["de", "en", "es", "fr", "it", "nl", "pl", "pt", "sv"] {
            assert!(correction.contains(&json!(code)), "{code}");
        }
    }

    #[tokio::test]
    async fn detect_answers_in_order() {
        let body = json!({"texts": ["Gute Nacht", "12345 !!", "Buenas noches"]}).to_string();
        let (status, body) = call(request(Method::POST, "/detect", bearer(), body)).await;
        assert_eq!(status, StatusCode::OK);
        let results = body["results"].as_array().expect("a list");
        assert_eq!(results.len(), 3);
        assert_eq!(results[0]["language"], "de");
        assert!(results[0]["confidence"].as_f64().is_some_and(|c| (0.0..=1.0).contains(&c)));
        assert_eq!(results[1], json!({"language": null, "confidence": 0.0}));
        assert_eq!(results[2]["language"], "es");
    }

    #[tokio::test]
    async fn correct_answers_in_order_and_refuses_unknown_languages() {
        let body = json!({"language": "en", "texts": ["I has a apple.", "All is well."]}).to_string();
        let (status, body) = call(request(Method::POST, "/correct", bearer(), body)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, json!({"texts": ["I have an apple.", "All is well."]}));
        let body = json!({"language": "xx", "texts": ["a"]}).to_string();
        let (status, body) = call(request(Method::POST, "/correct", bearer(), body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["message"], "Language 'xx' is not supported for correction");
    }

    #[tokio::test]
    async fn the_secret_is_required() {
        let body = json!({"texts": ["a"]}).to_string();
        for auth in [None, Some("Bearer wrong"), Some("Basic dGVzdC1zZWNyZXQ="), Some("Bearer "), Some("test-secret")] {
            let (status, body) = call(request(Method::POST, "/detect", auth, body.clone())).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{auth:?}");
            assert!(body["message"].as_str().is_some_and(|m| m.contains("secret")));
        }
        let (status, _) = call(request(Method::POST, "/detect", Some("bearer  test-secret "), body)).await;
        assert_eq!(status, StatusCode::OK);
    }

    #[tokio::test]
    async fn bad_bodies_are_refused_naming_the_field() {
        let too_many = json!({"texts": vec!["a"; 51]}).to_string();
        for (path, body, expected) in [
            ("/detect", "not json".to_string(), "The body is not valid JSON"),
            ("/detect", json!({"texts": [1]}).to_string(), "Field 'texts[0]' must be a string"),
            ("/detect", too_many, "Field 'texts' holds 51 texts"),
            ("/correct", json!({"texts": ["a"]}).to_string(), "Field 'language' is required"),
        ] {
            let (status, body) = call(request(Method::POST, path, bearer(), body)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST);
            assert!(body["message"].as_str().is_some_and(|m| m.starts_with(expected)), "{body}");
        }
    }

    #[tokio::test]
    async fn unknown_paths_and_wrong_methods() {
        let (status, body) = call(request(Method::GET, "/nothing", None, "")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["message"], "No route for /nothing");
        let response = handle(app(), request(Method::GET, "/detect", bearer(), "")).await;
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(response.headers().get(header::ALLOW).map(|v| v.as_bytes()), Some(&b"POST"[..]));
        let (status, body) = call(request(Method::POST, "/health", None, "")).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
        assert!(body["message"].as_str().is_some_and(|m| m.contains("use GET")));
    }

    #[tokio::test]
    async fn large_bodies_are_refused() {
        // Declared too large: refused before reading.
        let mut declared = request(Method::POST, "/detect", bearer(), "{}");
        declared.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from_static("2000000"));
        let (status, _) = call(declared).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        // Undeclared: capped while reading.
        let big = json!({"texts": ["a".repeat(MAX_BODY_BYTES)]}).to_string();
        let (status, body) = call(request(Method::POST, "/detect", bearer(), big)).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        assert!(body["message"].as_str().is_some_and(|m| m.contains("larger than")));
    }

    /// The whole stack over TCP: a request and its answer, an idle connection closed by the header timeout,
    /// and a graceful stop.
    #[tokio::test]
    async fn serves_over_tcp_and_closes_idle_connections() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let address = listener.local_addr().expect("an address");
        let mut config = ServerConfig::new(SECRET.to_string());
        config.header_read_timeout = Duration::from_millis(300);
        let app = Arc::new(App::new(tools(), &config));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            serve(listener, app, &config, async {
                let _ = stopped.await;
            })
            .await;
        });

        let mut stream = tokio::net::TcpStream::connect(address).await.expect("connected");
        let body = r#"{"texts": ["Tot ziens"]}"#;
        let head = format!(
            "POST /detect HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {SECRET}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(format!("{head}{body}").as_bytes()).await.expect("sent");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("an answer");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains(r#""language":"nl""#), "{answer}");

        // A client that connects and sends nothing is disconnected after the header timeout.
        let mut idle = tokio::net::TcpStream::connect(address).await.expect("connected");
        let mut buffer = Vec::new();
        let closed = tokio::time::timeout(Duration::from_secs(5), idle.read_to_end(&mut buffer)).await;
        assert!(closed.is_ok(), "the idle connection was not closed");

        let _ = stop.send(());
        tokio::time::timeout(Duration::from_secs(5), server).await.expect("stopped in time").expect("no panic");
    }
}
