//! The HTTP server: routing, the shared secret, body limits, the worker pool, and JSON answers.
//!
//! `GET /health` needs no secret; `POST /detect`, `/correct`, `/ocr`, `/render` and the `/pdf/` paths
//! (`read`, `ocr`, `images`, `write`; `/pdf/images` in the child module `pdf_images`) need
//! `Authorization: Bearer <secret>`. Every answer is JSON, errors `{"message": ...}`.
//! Bodies are at most 1 MiB, 8 MiB for the image paths and 48 MiB for the PDF paths. The models' work
//! (Poppler and the PDF writer too) runs on tokio's blocking threads, at most `workers` requests at a time
//! (a semaphore), so a slow request never blocks the accept loop and the machine is never oversubscribed. A connection that sends no complete request head within the header
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
use crate::ocr::{OcrError, Recognised};
use crate::picture::{self, Picture};
use crate::protocol::{
    CorrectRequest, CorrectResponse, DetectRequest, DetectResponse, ErrorBody, Health, OcrRequest, OcrResponse,
    PdfOcrRequest, PdfReadRequest, PdfWriteRequest, PdfWriteResponse, RenderRequest, RenderResponse,
};
use pdf_document::PdfError;

mod pdf_images;

/// The largest request body accepted (413 above it).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// The largest request body accepted by `/ocr` and `/render`, which carry an image.
pub const MAX_IMAGE_BODY_BYTES: usize = 8 * 1024 * 1024;

/// The largest request body accepted by `/pdf/read` and `/pdf/write`, which carry a PDF (about 36 MiB
/// before base64).
pub const MAX_PDF_BODY_BYTES: usize = 48 * 1024 * 1024;

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
    #[error("The request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    #[error("The request body did not arrive within {} seconds", .0.as_secs())]
    BodyTimeout(Duration),
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    Unavailable(String),
    #[error("The request could not be completed")]
    Internal,
}

impl RequestError {
    fn status(&self) -> StatusCode {
        match self {
            RequestError::NotFound(_) => StatusCode::NOT_FOUND,
            RequestError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            RequestError::Unauthorized => StatusCode::UNAUTHORIZED,
            RequestError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            RequestError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            RequestError::BadRequest(_) => StatusCode::BAD_REQUEST,
            RequestError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            RequestError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
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
        "/ocr" => ("/ocr", Method::POST),
        "/render" => ("/render", Method::POST),
        "/pdf/read" => ("/pdf/read", Method::POST),
        "/pdf/write" => ("/pdf/write", Method::POST),
        "/pdf/ocr" => ("/pdf/ocr", Method::POST),
        "/pdf/images" => ("/pdf/images", Method::POST),
        other => return Err(RequestError::NotFound(other.to_string())),
    };
    let method = request.method().clone();
    if method != allowed && !(allowed == Method::GET && method == Method::HEAD) {
        return Err(RequestError::MethodNotAllowed { method, path, allowed });
    }
    if path == "/health" {
        let correction = app.tools.corrector.languages();
        let health = Health {
            status: "ok",
            detection: app.tools.detector.languages(),
            correction: &correction,
            ocr: app.tools.ocr.languages(),
            pdf: app.tools.pdf.available,
        };
        return Ok(json(StatusCode::OK, &health));
    }
    if !app.authorized(request.headers().get(header::AUTHORIZATION)) {
        return Err(RequestError::Unauthorized);
    }
    let limit = match path {
        "/ocr" | "/render" => MAX_IMAGE_BODY_BYTES,
        "/pdf/read" | "/pdf/write" | "/pdf/ocr" | "/pdf/images" => MAX_PDF_BODY_BYTES,
        _ => MAX_BODY_BYTES,
    };
    let body = read_body(app, request, limit).await?;
    match path {
        "/ocr" => ocr(app, &body).await,
        "/pdf/read" => pdf_read(app, body).await,
        "/pdf/write" => pdf_write(app, body).await,
        "/pdf/ocr" => pdf_ocr(app, body).await,
        "/pdf/images" => pdf_images::pdf_images(app, body).await,
        "/render" => render(app, &body).await,
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

/// `POST /ocr`: the image's paragraphs, in the language asked for or found.
async fn ocr(app: &Arc<App>, body: &[u8]) -> Result<Response<Full<Bytes>>, RequestError> {
    let OcrRequest { image, language } = OcrRequest::parse(body).map_err(RequestError::BadRequest)?;
    if !app.tools.ocr.available() {
        return Err(RequestError::Unavailable(OcrError::Unavailable.to_string()));
    }
    let language = language.map(|code| ocr_language(app, &code)).transpose()?;
    let picture = Picture::from_base64(&image).map_err(|error| RequestError::BadRequest(error.to_string()))?;
    drop(image);
    let (width, height) = (picture.width, picture.height);
    let recognised = run_blocking(app, move |tools| recognise(tools, &picture, language)).await?.map_err(ocr_error)?;
    let response = OcrResponse { language: recognised.language, width, height, paragraphs: recognised.paragraphs };
    Ok(json(StatusCode::OK, &response))
}

/// `language`, a code `/ocr` and `/pdf/ocr` may be asked to read in: one with an installed pack.
fn ocr_language(app: &App, code: &str) -> Result<&'static str, RequestError> {
    app.tools
        .ocr
        .languages()
        .iter()
        .copied()
        .find(|known| *known == code)
        .ok_or_else(|| RequestError::BadRequest(format!("Language '{code}' is not supported for OCR")))
}

/// Reads `picture` in `language`, or in the language the detector finds among those Tesseract can read.
fn recognise(tools: &Tools, picture: &Picture, language: Option<&'static str>) -> Result<Recognised, OcrError> {
    let among: Vec<String> = tools
        .ocr
        .languages()
        .iter()
        .filter(|code| tools.detector.languages().contains(code))
        .map(|code| code.to_string())
        .collect();
    tools.ocr.recognise(picture, language, |text| tools.detect(text, Some(&among)).language)
}

/// The answer to OCR that failed: an unreadable image is 400, one too slow to read 422.
fn ocr_error(error: OcrError) -> RequestError {
    match error {
        OcrError::Unavailable => RequestError::Unavailable(error.to_string()),
        OcrError::Unreadable(_) => RequestError::BadRequest(error.to_string()),
        OcrError::Timeout(_) => RequestError::Unprocessable(error.to_string()),
        OcrError::Failed(_) => {
            tracing::error!(%error, "OCR failed");
            RequestError::Internal
        }
    }
}

/// `POST /render`: the image with the paragraphs' new text painted over their old lines.
async fn render(app: &Arc<App>, body: &[u8]) -> Result<Response<Full<Bytes>>, RequestError> {
    let RenderRequest { image, language, paragraphs } = RenderRequest::parse(body).map_err(RequestError::BadRequest)?;
    if app.tools.fonts.is_empty() {
        return Err(RequestError::Unavailable("Rendering is unavailable: no font is installed".to_string()));
    }
    let picture = Picture::from_base64(&image).map_err(|error| RequestError::BadRequest(error.to_string()))?;
    drop(image);
    // Painting costs the boxes' area: boxes that cover the image many times over are no OCR result.
    let area: u64 = paragraphs
        .iter()
        .flat_map(|paragraph| &paragraph.lines)
        .map(|line| {
            let width = u64::from(line.width).min(u64::from(picture.width.saturating_sub(line.left)));
            let height = u64::from(line.height).min(u64::from(picture.height.saturating_sub(line.top)));
            width * height
        })
        .sum();
    if area > 4 * u64::from(picture.width) * u64::from(picture.height) {
        return Err(RequestError::BadRequest(
            "Field 'paragraphs' has line boxes that cover the image more than four times over".to_string(),
        ));
    }
    let encoded = run_blocking(app, move |tools| {
        let decoded = picture.decode().map_err(|error| RequestError::BadRequest(error.to_string()))?;
        let painted = crate::render::render(&decoded, &language, &paragraphs, &tools.fonts);
        drop(decoded);
        let bytes = picture::encode(&painted, picture.kind).map_err(|error| {
            tracing::error!(%error, "a rendered image could not be encoded");
            RequestError::Internal
        })?;
        Ok::<_, RequestError>(picture::to_base64(&bytes))
    })
    .await??;
    Ok(json(StatusCode::OK, &RenderResponse { image: encoded }))
}

/// The message of a 503 when Poppler is missing.
const POPPLER_MISSING: &str = "PDF reading is unavailable: Poppler (poppler-utils) is not installed";

/// The bytes of a body's base64 `pdf` (400 when it is not a PDF), once Poppler is known to be installed
/// (503 otherwise).
fn poppler_pdf(app: &App, pdf: String) -> Result<Vec<u8>, RequestError> {
    let bytes = crate::pdf::decode(&pdf).map_err(|error| RequestError::BadRequest(error.to_string()))?;
    drop(pdf);
    if !app.tools.pdf.available {
        return Err(RequestError::Unavailable(POPPLER_MISSING.to_string()));
    }
    Ok(bytes)
}

/// `POST /pdf/read`: the PDF's text layout (pages, blocks, lines), as `pdf-document` reads it.
async fn pdf_read(app: &Arc<App>, body: Bytes) -> Result<Response<Full<Bytes>>, RequestError> {
    let PdfReadRequest { pdf } = PdfReadRequest::parse(&body).map_err(RequestError::BadRequest)?;
    drop(body);
    let bytes = poppler_pdf(app, pdf)?;
    let layout = run_blocking(app, move |_| pdf_document::read(&bytes, &pdf_document::Limits::default()))
        .await?
        .map_err(pdf_error)?;
    Ok(json(StatusCode::OK, &layout))
}

/// `POST /pdf/write`: the PDF with its text replaced by the translation, drawn in each block's box.
///
/// The original is read first, as `/pdf/read` reads it (Poppler in a bounded child process): an encrypted,
/// damaged, too long or malicious file is refused there, before lopdf loads it in this process.
async fn pdf_write(app: &Arc<App>, body: Bytes) -> Result<Response<Full<Bytes>>, RequestError> {
    let PdfWriteRequest { pdf, language, pages } = PdfWriteRequest::parse(&body).map_err(RequestError::BadRequest)?;
    drop(body);
    let bytes = poppler_pdf(app, pdf)?;
    if app.tools.pdf.fonts.is_none() {
        return Err(pdf_error(PdfError::NoFont));
    }
    let written = run_blocking(app, move |tools| {
        let layout = pdf_document::read(&bytes, &pdf_document::Limits::default())?;
        if layout.pages.len() != pages.len() {
            return Err(PdfError::PageCount { given: pages.len(), expected: layout.pages.len() });
        }
        let fonts = tools.pdf.fonts.as_ref().ok_or(PdfError::NoFont)?;
        pdf_document::write(&bytes, &pages, fonts, &language)
    })
    .await?
    .map_err(pdf_error)?;
    Ok(json(StatusCode::OK, &PdfWriteResponse { pdf: picture::to_base64(&written) }))
}

/// `POST /pdf/ocr`: one scanned page read by OCR: Poppler renders it (`pdf_document::rasterise`), Tesseract
/// reads it as `/ocr` reads an image, and its paragraphs come back as blocks in points with the covers
/// `/pdf/write` paints over the scanned lines ([`crate::scan`]).
async fn pdf_ocr(app: &Arc<App>, body: Bytes) -> Result<Response<Full<Bytes>>, RequestError> {
    let PdfOcrRequest { pdf, page, language } = PdfOcrRequest::parse(&body).map_err(RequestError::BadRequest)?;
    drop(body);
    let bytes = poppler_pdf(app, pdf)?;
    if !app.tools.ocr.available() {
        return Err(RequestError::Unavailable(OcrError::Unavailable.to_string()));
    }
    let language = language.map(|code| ocr_language(app, &code)).transpose()?;
    let scanned = run_blocking(app, move |tools| {
        let raster = pdf_document::rasterise(&bytes, page, &pdf_document::Limits::default()).map_err(pdf_error)?;
        drop(bytes);
        let picture = Picture::from_bytes(raster.png).map_err(|error| RequestError::BadRequest(error.to_string()))?;
        let image = picture.decode().map_err(|error| RequestError::BadRequest(error.to_string()))?.to_rgba8();
        let recognised = recognise(tools, &picture, language).map_err(ocr_error)?;
        Ok::<_, RequestError>(crate::scan::scanned_page(recognised, &image, raster.dpi))
    })
    .await??;
    Ok(json(StatusCode::OK, &scanned))
}

/// The answer to a PDF that could not be read or written: the file's own faults are 400 (their messages
/// are written for the person who uploaded it), a file too costly to read or write 422, a missing tool or
/// font 503, and anything else 500, logged.
fn pdf_error(error: PdfError) -> RequestError {
    match error {
        PdfError::Encrypted
        | PdfError::NoPages
        | PdfError::TooManyPages { .. }
        | PdfError::Unreadable(_)
        | PdfError::PageCount { .. } => RequestError::BadRequest(error.to_string()),
        PdfError::TimedOut(seconds) => {
            RequestError::Unprocessable(format!("Reading the PDF took longer than {seconds} s"))
        }
        PdfError::Write(reason) => RequestError::Unprocessable(format!("The PDF cannot be written: {reason}")),
        PdfError::ToolMissing(_) => RequestError::Unavailable(POPPLER_MISSING.to_string()),
        PdfError::NoFont => RequestError::Unavailable("PDF writing is unavailable: no font is installed".to_string()),
        PdfError::TempFile(_) => {
            tracing::error!(%error, "a PDF could not be read");
            RequestError::Internal
        }
    }
}

/// The body, within `limit` bytes (a declared length is checked before reading, the bytes while
/// reading) and the body timeout.
async fn read_body<B>(app: &App, request: Request<B>, limit: usize) -> Result<Bytes, RequestError>
where
    B: Body<Data = Bytes>,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(RequestError::PayloadTooLarge(limit));
    }
    let limited = Limited::new(request.into_body(), limit);
    match tokio::time::timeout(app.body_read_timeout, limited.collect()).await {
        Err(_) => Err(RequestError::BodyTimeout(app.body_read_timeout)),
        Ok(Err(error)) if error.downcast_ref::<LengthLimitError>().is_some() => {
            Err(RequestError::PayloadTooLarge(limit))
        }
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
        tracing::error!(%error, "a worker task failed");
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

    /// Asserts that POSTing `body` to `path` is a 400 whose message starts with `expected` and names
    /// no temporary file.
    async fn assert_refused(path: &str, body: String, expected: &str) {
        let (status, body) = call(request(Method::POST, path, bearer(), body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        let message = body["message"].as_str().expect("a message");
        assert!(message.starts_with(expected), "{path}: {message}");
        assert!(!message.contains("/tmp"), "{message}");
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

    /// Images drawn by ImageMagick, as the end-to-end tests of image translation would send them.
    mod images {
        use super::*;
        use base64::Engine;
        use base64::engine::general_purpose::STANDARD;

        const CONVERT: &str = "/usr/bin/convert";

        /// A 900 × 260 image with `lines` (`(y, text)`) in dark blue DejaVu Sans on cream, as `extension`.
        fn drawn(lines: &[(u32, &str)], extension: &str) -> Vec<u8> {
            let directory = tempfile::tempdir().expect("a temporary directory");
            let path = directory.path().join(format!("image.{extension}"));
            let mut command = std::process::Command::new(CONVERT);
            command.args([
                "-size",
                "900x260",
                "xc:#f4f0e0",
                "-font",
                "DejaVu-Sans",
                "-fill",
                "#202060",
                "-pointsize",
                "34",
            ]);
            for (y, text) in lines {
                command.args(["-annotate", &format!("+30+{y}"), text]);
            }
            let status = command.arg(&path).status().expect("ImageMagick's convert runs (install imagemagick)");
            assert!(status.success(), "convert failed");
            std::fs::read(&path).expect("the image")
        }

        fn english(extension: &str) -> Vec<u8> {
            drawn(
                &[
                    (60, "The weather is nice today."),
                    (110, "We are going to the beach with our"),
                    (150, "friends and family this afternoon."),
                ],
                extension,
            )
        }

        fn ocr_body(image: &[u8], language: Option<&str>) -> String {
            json!({"image": STANDARD.encode(image), "language": language}).to_string()
        }

        async fn ocr(image: &[u8], language: Option<&str>) -> (StatusCode, Value) {
            assert!(
                tools().ocr.available(),
                "tesseract is not installed: install tesseract-ocr and its language packs"
            );
            call(request(Method::POST, "/ocr", bearer(), ocr_body(image, language))).await
        }

        fn texts(body: &Value) -> Vec<String> {
            body["paragraphs"]
                .as_array()
                .expect("paragraphs")
                .iter()
                .map(|paragraph| paragraph["text"].as_str().expect("a text").to_string())
                .collect()
        }

        /// The render request for replacing each paragraph `/ocr` found with a new text.
        fn render_body(image: &[u8], language: &str, found: &Value, replacements: &[&str]) -> String {
            let paragraphs: Vec<Value> = found["paragraphs"]
                .as_array()
                .expect("paragraphs")
                .iter()
                .zip(replacements)
                .map(|(paragraph, text)| {
                    let lines: Vec<Value> = paragraph["lines"]
                        .as_array()
                        .expect("lines")
                        .iter()
                        .map(|line| json!({"left": line["left"], "top": line["top"], "width": line["width"], "height": line["height"]}))
                        .collect();
                    json!({"text": text, "lines": lines})
                })
                .collect();
            json!({"image": STANDARD.encode(image), "language": language, "paragraphs": paragraphs}).to_string()
        }

        #[tokio::test]
        async fn health_lists_the_ocr_languages() {
            let (_, body) = call(request(Method::GET, "/health", None, "")).await;
            let ocr = body["ocr"].as_array().expect("a list");
            for code in ["de", "en", "ja", "nb", "ru", "zh"] {
                assert!(ocr.contains(&json!(code)), "{code}: {ocr:?}");
            }
            let codes: Vec<&str> = ocr.iter().filter_map(Value::as_str).collect();
            assert!(codes.windows(2).all(|pair| pair[0] < pair[1]), "sorted: {codes:?}");
        }

        #[tokio::test]
        async fn ocr_finds_english_paragraphs_without_a_language() {
            let (status, body) = ocr(&english("png"), None).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["language"], "en");
            assert_eq!((body["width"].as_u64(), body["height"].as_u64()), (Some(900), Some(260)));
            assert_eq!(
                texts(&body),
                ["The weather is nice today.", "We are going to the beach with our friends and family this afternoon."]
            );
            let second = &body["paragraphs"][1];
            assert_eq!(second["lines"].as_array().map(Vec::len), Some(2));
            let line = &second["lines"][0];
            assert_eq!(line["text"], "We are going to the beach with our");
            assert!(line["left"].as_u64().is_some_and(|left| (25..=40).contains(&left)), "{line}");
            assert!(line["top"].as_u64().is_some_and(|top| (75..=95).contains(&top)), "{line}");
            assert!(line["confidence"].as_f64().is_some_and(|c| c > 80.0 && c <= 100.0), "{line}");
            assert_eq!(line["words"][0]["text"], "We");
            assert!(second["confidence"].as_f64().is_some_and(|c| c > 80.0), "{second}");
            // With the language given, the same.
            let (status, again) = ocr(&english("png"), Some("en")).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(texts(&again), texts(&body));
        }

        #[tokio::test]
        async fn ocr_detects_german_and_reads_it_with_the_german_pack() {
            let german = drawn(
                &[(60, "Wir fahren morgen früh mit unseren"), (100, "Freunden an den großen See im Süden.")],
                "png",
            );
            let (status, body) = ocr(&german, None).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["language"], "de");
            assert_eq!(texts(&body), ["Wir fahren morgen früh mit unseren Freunden an den großen See im Süden."]);
        }

        /// OSD names the script even of two short lines; its pack reads them, the detector names the language.
        #[tokio::test]
        async fn ocr_reads_cyrillic_and_han_by_their_script() {
            let russian = drawn(&[(60, "Сегодня хорошая погода."), (110, "Мы идём на пляж с друзьями.")], "png");
            let (status, body) = ocr(&russian, None).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["language"], "ru");
            assert_eq!(texts(&body).join(" "), "Сегодня хорошая погода. Мы идём на пляж с друзьями.");

            let directory = tempfile::tempdir().expect("a temporary directory");
            let path = directory.path().join("zh.png");
            let status = std::process::Command::new(CONVERT)
                .args([
                    "-size",
                    "900x200",
                    "xc:white",
                    "-font",
                    "Noto-Sans-CJK-SC",
                    "-fill",
                    "black",
                    "-pointsize",
                    "34",
                ])
                .args(["-annotate", "+30+60", "今天天气很好。", "-annotate", "+30+110", "我们和朋友一起去海滩。"])
                .arg(&path)
                .status()
                .expect("convert runs");
            assert!(status.success());
            let chinese = std::fs::read(&path).expect("the image");
            let (status, body) = ocr(&chinese, None).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["language"], "zh");
            // Chinese lines and words join without spaces.
            assert_eq!(texts(&body).join(""), "今天天气很好。我们和朋友一起去海滩。");
        }

        #[tokio::test]
        async fn an_image_without_text_has_no_paragraphs() {
            let blank = drawn(&[], "png");
            let (status, body) = ocr(&blank, None).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["paragraphs"], json!([]));
            assert_eq!(body["language"], "en");
        }

        #[tokio::test]
        async fn render_replaces_the_text_and_ocr_reads_the_replacement() {
            let original = english("png");
            let (_, found) = ocr(&original, None).await;
            let replacements = [
                "Das Wetter ist heute schön.",
                "Wir gehen heute Nachmittag mit unseren Freunden und der Familie an den Strand.",
            ];
            let body = render_body(&original, "de", &found, &replacements);
            let (status, rendered) = call(request(Method::POST, "/render", bearer(), body)).await;
            assert_eq!(status, StatusCode::OK, "{rendered}");
            let bytes = STANDARD.decode(rendered["image"].as_str().expect("an image")).expect("base64");
            assert!(bytes.starts_with(b"\x89PNG"));
            let picture = Picture::from_bytes(bytes.clone()).expect("a PNG");
            assert_eq!((picture.width, picture.height), (900, 260));
            // ImageMagick draws 16-bit RGBA: RGBA comes back (8 bits a channel).
            assert!(matches!(picture.decode().expect("decoded"), image::DynamicImage::ImageRgba8(_)));

            let (status, read) = ocr(&bytes, None).await;
            assert_eq!(status, StatusCode::OK, "{read}");
            assert_eq!(read["language"], "de");
            let all = texts(&read).join(" ");
            assert!(all.contains("Wetter") && all.contains("Strand") && all.contains("Freunden"), "{all}");
            assert!(!all.contains("weather") && !all.contains("beach"), "{all}");
        }

        #[tokio::test]
        async fn a_jpeg_round_trip_stays_jpeg() {
            let original = english("jpg");
            let (status, found) = ocr(&original, None).await;
            assert_eq!(status, StatusCode::OK, "{found}");
            assert_eq!(found["language"], "en");
            let body = render_body(&original, "fr", &found, &["Il fait beau aujourd'hui.", "Nous allons à la plage."]);
            let (status, rendered) = call(request(Method::POST, "/render", bearer(), body)).await;
            assert_eq!(status, StatusCode::OK, "{rendered}");
            let bytes = STANDARD.decode(rendered["image"].as_str().expect("an image")).expect("base64");
            let picture = Picture::from_bytes(bytes.clone()).expect("a JPEG");
            assert_eq!((picture.kind, picture.width, picture.height), (crate::picture::Kind::Jpeg, 900, 260));
            let (_, read) = ocr(&bytes, Some("fr")).await;
            let all = texts(&read).join(" ");
            assert!(all.contains("plage") && !all.contains("beach"), "{all}");
        }

        #[tokio::test]
        async fn image_paths_need_the_secret() {
            let body = ocr_body(&english("png"), None);
            for path in ["/ocr", "/render"] {
                let (status, _) = call(request(Method::POST, path, None, body.clone())).await;
                assert_eq!(status, StatusCode::UNAUTHORIZED);
                let (status, _) = call(request(Method::POST, path, Some("Bearer wrong"), body.clone())).await;
                assert_eq!(status, StatusCode::UNAUTHORIZED);
            }
        }

        #[tokio::test]
        async fn bad_images_and_fields_are_refused() {
            let bomb = crate::picture::tests::png_header(50_000, 50_000);
            let bomb_message =
                "The image is 50000 × 50000 pixels; at most 10,000 pixels per side and 40 megapixels are read";
            let png = english("png");
            let truncated = png[..png.len() / 2].to_vec();
            let render = |image: &[u8]| {
                json!({"image": STANDARD.encode(image), "language": "de", "paragraphs": [
                    {"text": "Hallo", "lines": [{"left": 10, "top": 10, "width": 100, "height": 30}]}
                ]})
                .to_string()
            };
            for (path, body, expected) in [
                ("/ocr", ocr_body(&bomb, None), bomb_message),
                ("/render", render(&bomb), bomb_message),
                ("/ocr", json!({"image": "%%%"}).to_string(), "Field 'image' is not valid base64"),
                ("/ocr", ocr_body(b"GIF89a fake", None), "Field 'image' is neither a PNG nor a JPEG image"),
                ("/ocr", json!({"language": "de"}).to_string(), "Field 'image' is required"),
                ("/ocr", json!({"image": 1}).to_string(), "Field 'image' must be a string"),
                ("/ocr", ocr_body(&png, Some("xx")), "Language 'xx' is not supported for OCR"),
                ("/ocr", ocr_body(&png, Some("hi")), "Language 'hi' is not supported for OCR"),
                ("/ocr", ocr_body(&truncated, None), "Field 'image' cannot be read: "),
                ("/render", render(&truncated), "Field 'image' cannot be read: "),
                ("/ocr", ocr_body(&png[..20], None), "Field 'image' cannot be read: "),
                (
                    "/render",
                    json!({"image": STANDARD.encode(&png), "language": "de", "paragraphs": vec![
                        json!({"text": "a", "lines": [{"left": 0, "top": 0, "width": 5000, "height": 5000}]}); 5
                    ]})
                    .to_string(),
                    "Field 'paragraphs' has line boxes that cover the image more than four times over",
                ),
                (
                    "/render",
                    json!({"image": STANDARD.encode(&png), "language": "de", "paragraphs": [
                        {"text": "a", "lines": []},
                        {"text": "b", "lines": []},
                        {"text": "c", "lines": [{"left": 0, "top": 0, "width": "wide", "height": 3}]},
                    ]})
                    .to_string(),
                    "Field 'paragraphs[2].lines[0].width' must be a non-negative integer",
                ),
            ] {
                assert_refused(path, body, expected).await;
            }
        }

        #[tokio::test]
        async fn image_paths_take_bodies_up_to_8_mib() {
            // 2 MiB: too large for /detect, read by /ocr (and refused for its content, not its size).
            let padding = "A".repeat(2 * 1024 * 1024);
            let body = json!({"image": padding}).to_string();
            let (status, _) = call(request(Method::POST, "/detect", bearer(), body.clone())).await;
            assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
            let (status, answer) = call(request(Method::POST, "/ocr", bearer(), body)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
            let body = json!({"image": "A".repeat(MAX_IMAGE_BODY_BYTES)}).to_string();
            let (status, answer) = call(request(Method::POST, "/render", bearer(), body)).await;
            assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
            assert_eq!(answer["message"], format!("The request body is larger than {MAX_IMAGE_BODY_BYTES} bytes"));
        }

        #[tokio::test]
        async fn without_tesseract_or_fonts_the_image_paths_are_unavailable() {
            // The service as it starts on a machine without Tesseract, Poppler or fonts.
            let bare = crate::Tools {
                detector: crate::Detector::load(),
                corrector: crate::Corrector::load(std::path::Path::new("/nonexistent")),
                ocr: crate::Ocr::load(std::path::Path::new("/nonexistent/tesseract")),
                fonts: crate::Fonts::load(&[]),
                pdf: crate::Pdf { fonts: None, available: false },
            };
            let mut bare = Arc::new(bare);
            let app = Arc::new(App::new(bare.clone(), &ServerConfig::new(SECRET.to_string())));
            let png = english("png");
            let response = handle(app.clone(), request(Method::POST, "/ocr", bearer(), ocr_body(&png, None))).await;
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            let bytes = response.into_body().collect().await.expect("a body").to_bytes();
            let body: Value = serde_json::from_slice(&bytes).expect("JSON");
            assert_eq!(body["message"], "OCR is unavailable: tesseract is not installed");
            let render = json!({"image": STANDARD.encode(&png), "language": "de", "paragraphs": []}).to_string();
            let response = handle(app.clone(), request(Method::POST, "/render", bearer(), render)).await;
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            let bytes = response.into_body().collect().await.expect("a body").to_bytes();
            let body: Value = serde_json::from_slice(&bytes).expect("JSON");
            assert_eq!(body["message"], "Rendering is unavailable: no font is installed");
            let pdf = json!({"pdf": STANDARD.encode(b"%PDF-1.4\n"), "language": "de", "pages": []}).to_string();
            for path in ["/pdf/read", "/pdf/write"] {
                let response = handle(app.clone(), request(Method::POST, path, bearer(), pdf.clone())).await;
                assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
                let bytes = response.into_body().collect().await.expect("a body").to_bytes();
                let body: Value = serde_json::from_slice(&bytes).expect("JSON");
                assert_eq!(body["message"], "PDF reading is unavailable: Poppler (poppler-utils) is not installed");
            }
            let response = handle(app, request(Method::GET, "/health", None, "")).await;
            let bytes = response.into_body().collect().await.expect("a body").to_bytes();
            let body: Value = serde_json::from_slice(&bytes).expect("JSON");
            assert_eq!(body["ocr"], json!([]));
            assert_eq!(body["pdf"], false);

            // With Poppler but no font: PDFs are read, and writing them is unavailable.
            Arc::get_mut(&mut bare).expect("the app is gone").pdf.available = true;
            let app = Arc::new(App::new(bare, &ServerConfig::new(SECRET.to_string())));
            let pdf = super::pdfs::office_pdf();
            let body = json!({"pdf": STANDARD.encode(pdf), "language": "de", "pages": [{"blocks": []}]}).to_string();
            let response = handle(app.clone(), request(Method::POST, "/pdf/write", bearer(), body.clone())).await;
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            let bytes = response.into_body().collect().await.expect("a body").to_bytes();
            let answer: Value = serde_json::from_slice(&bytes).expect("JSON");
            assert_eq!(answer["message"], "PDF writing is unavailable: no font is installed");
            let response = handle(app, request(Method::POST, "/pdf/read", bearer(), body)).await;
            assert_eq!(response.status(), StatusCode::OK);
        }
    }

    /// PDFs made by LibreOffice, read and written back through the service with the real Poppler.
    mod pdfs {
        use super::*;
        use base64::Engine;
        use base64::engine::general_purpose::STANDARD;
        use std::process::Command;
        use std::sync::OnceLock;

        const HEADING: &str = "Annual Report";
        const PARAGRAPH: &str = "The quick brown fox jumps over the lazy dog near the quiet river bank.";

        /// A one-page PDF: a 20 pt heading and a 12 pt paragraph, converted by LibreOffice from HTML (as
        /// pdf-document's tests make theirs). Made once per test binary.
        pub(super) fn office_pdf() -> &'static [u8] {
            static PDF: OnceLock<Vec<u8>> = OnceLock::new();
            PDF.get_or_init(|| {
                let directory = tempfile::tempdir().expect("a temporary directory");
                let html = format!(
                    "<html><body><h1 style=\"font-size:20pt\">{HEADING}</h1>\
                     <p style=\"font-size:12pt\">{PARAGRAPH}</p></body></html>"
                );
                libreoffice_pdf(directory.path(), "document", &html)
            })
        }

        /// `html`, written to `<name>.html` in `directory`, converted to a PDF by LibreOffice.
        fn libreoffice_pdf(directory: &std::path::Path, name: &str, html: &str) -> Vec<u8> {
            std::fs::write(directory.join(format!("{name}.html")), html).expect("written");
            let profile = format!("-env:UserInstallation=file://{}", directory.join("profile").display());
            let output = Command::new("soffice")
                .args([&profile, "--headless", "--infilter=HTML (StarWriter)", "--convert-to", "pdf", "--outdir"])
                .arg(directory)
                .arg(directory.join(format!("{name}.html")))
                .output()
                .expect("LibreOffice (soffice) runs: apt-get install libreoffice-writer-nogui");
            std::fs::read(directory.join(format!("{name}.pdf")))
                .unwrap_or_else(|_| panic!("soffice made no PDF: {}", String::from_utf8_lossy(&output.stderr)))
        }

        /// The text `pdftotext` extracts from `pdf`, whitespace collapsed.
        fn extracted(pdf: &[u8]) -> String {
            let directory = tempfile::tempdir().expect("a temporary directory");
            let path = directory.path().join("file.pdf");
            std::fs::write(&path, pdf).expect("written");
            let output = Command::new("pdftotext").arg(&path).arg("-").output().expect("pdftotext runs");
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            String::from_utf8_lossy(&output.stdout).split_whitespace().collect::<Vec<_>>().join(" ")
        }

        /// `pdf` encrypted by lopdf (RC4, 128 bits, no user password: it opens without one).
        fn encrypted(pdf: &[u8]) -> Vec<u8> {
            use lopdf::{EncryptionState, EncryptionVersion, Object, Permissions};
            let mut document = lopdf::Document::load_mem(pdf).expect("a PDF");
            let id = Object::string_literal(b"0123456789abcdef".to_vec());
            document.trailer.set("ID", vec![id.clone(), id]);
            let version = EncryptionVersion::V2 {
                document: &document,
                owner_password: "owner",
                user_password: "",
                key_length: 128,
                permissions: Permissions::all(),
            };
            document.encrypt(&EncryptionState::try_from(version).expect("a state")).expect("encrypted");
            let mut bytes = Vec::new();
            document.save_to(&mut bytes).expect("saved");
            bytes
        }

        fn read_body(pdf: &[u8]) -> String {
            json!({"pdf": STANDARD.encode(pdf)}).to_string()
        }

        fn write_body(pdf: &[u8], language: &str, pages: Value) -> String {
            json!({"pdf": STANDARD.encode(pdf), "language": language, "pages": pages}).to_string()
        }

        /// Each block of `layout` with its text replaced by `translate`'s, as `/pdf/write`'s pages.
        fn translated(layout: &Value, translate: impl Fn(&str) -> String) -> Value {
            let pages: Vec<Value> = layout["pages"]
                .as_array()
                .expect("pages")
                .iter()
                .map(|page| {
                    let blocks: Vec<Value> = page["blocks"]
                        .as_array()
                        .expect("blocks")
                        .iter()
                        .map(|block| {
                            json!({
                                "text": translate(block["text"].as_str().expect("a text")),
                                "x_min": block["x_min"], "y_min": block["y_min"],
                                "x_max": block["x_max"], "y_max": block["y_max"], "font_size": block["font_size"],
                            })
                        })
                        .collect();
                    json!({"blocks": blocks})
                })
                .collect();
            Value::Array(pages)
        }

        fn german(text: &str) -> String {
            match text {
                HEADING => "Jahresbericht".to_string(),
                PARAGRAPH => "Der schnelle braune Fuchs springt über den faulen Hund am stillen Flussufer.".to_string(),
                other => panic!("an unexpected block: {other}"),
            }
        }

        #[tokio::test]
        async fn health_says_pdf_is_available() {
            let (_, body) = call(request(Method::GET, "/health", None, "")).await;
            assert_eq!(body["pdf"], true, "install poppler-utils");
        }

        /// A one-page PDF that only draws a picture of English text (drawn by ImageMagick, 1800 px wide,
        /// shown 450 pt wide: about 290 dpi), as a scanner makes them; LibreOffice places the picture.
        fn scanned_pdf() -> Vec<u8> {
            let directory = tempfile::tempdir().expect("a temporary directory");
            let status = Command::new("/usr/bin/convert")
                .args(["-size", "1800x400", "xc:#f4f0e0", "-font", "DejaVu-Sans", "-fill", "#202020"])
                .args(["-pointsize", "64", "-annotate", "+60+150", "The weather is nice today."])
                .args(["-annotate", "+60+300", "We are going to the beach."])
                .arg(directory.path().join("scan.png"))
                .status()
                .expect("ImageMagick's convert runs (install imagemagick)");
            assert!(status.success(), "convert failed");
            let html = "<html><body><p><img src=\"scan.png\" width=\"600\" height=\"133\"></p></body></html>";
            libreoffice_pdf(directory.path(), "scan", html)
        }

        #[tokio::test]
        async fn a_scanned_page_is_read_by_ocr_into_blocks_and_covers_and_written_over_them() {
            let scan = scanned_pdf();
            let (status, layout) = call(request(Method::POST, "/pdf/read", bearer(), read_body(&scan))).await;
            assert_eq!(status, StatusCode::OK, "{layout}");
            assert_eq!((&layout["pages"][0]["scanned"], &layout["pages"][0]["blocks"]), (&json!(true), &json!([])));
            let ocr = |page: Value, language: Option<&str>| {
                let mut body = json!({"pdf": STANDARD.encode(&scan), "page": page});
                if let Some(language) = language {
                    body["language"] = json!(language);
                }
                request(Method::POST, "/pdf/ocr", bearer(), body.to_string())
            };
            let (status, read) = call(ocr(json!(1), None)).await;
            assert_eq!(status, StatusCode::OK, "{read}");
            assert_eq!(read["language"], "en");
            let blocks = read["blocks"].as_array().expect("blocks");
            let text: Vec<&str> = blocks.iter().filter_map(|block| block["text"].as_str()).collect();
            assert!(text.join(" ").contains("The weather is nice today."), "{text:?}");
            let size = blocks[0]["font_size"].as_f64().expect("a font size");
            // 64 px drawn at about 290 dpi: a 16-point font.
            assert!((12.0..=20.0).contains(&size), "{size}");
            let covers = read["covers"].as_array().expect("covers");
            assert_eq!(covers.len(), 2, "a cover per line: {covers:?}");
            let colour = covers[0]["colour"].as_array().expect("a colour");
            let cream = [0xf4, 0xf0, 0xe0];
            for (channel, expected) in colour.iter().zip(cream) {
                assert!(channel.as_i64().is_some_and(|value| (value - expected).abs() <= 8), "{colour:?}");
            }

            let german = ["Das Wetter ist heute schön.", "Wir fahren an den Strand."];
            let blocks: Vec<Value> = blocks
                .iter()
                .zip(german.iter().cycle())
                .map(|(block, text)| {
                    let mut block = block.clone();
                    block["text"] = json!(text);
                    block
                })
                .collect();
            let pages = json!([{"blocks": blocks, "covers": covers}]);
            let (status, written) =
                call(request(Method::POST, "/pdf/write", bearer(), write_body(&scan, "de", pages))).await;
            assert_eq!(status, StatusCode::OK, "{written}");
            let written = STANDARD.decode(written["pdf"].as_str().expect("a pdf")).expect("base64");
            assert!(extracted(&written).contains("Das Wetter ist heute schön."), "{}", extracted(&written));

            for (request, expected) in [
                (ocr(json!(2), None), "the PDF cannot be read: it has no page 2"),
                (ocr(json!(0), None), "Field 'page' must be a page number, counted from 1"),
                (ocr(json!(1), Some("xx")), "Language 'xx' is not supported for OCR"),
            ] {
                let (status, body) = call(request).await;
                assert_eq!((status, body["message"].as_str()), (StatusCode::BAD_REQUEST, Some(expected)));
            }
        }

        #[tokio::test]
        async fn reads_the_layout_and_writes_the_translation() {
            let original = office_pdf();
            let (status, layout) = call(request(Method::POST, "/pdf/read", bearer(), read_body(original))).await;
            assert_eq!(status, StatusCode::OK, "{layout}");
            let pages = layout["pages"].as_array().expect("pages");
            assert_eq!(pages.len(), 1);
            let page = &pages[0];
            // A4 or Letter, in points.
            assert!(page["width"].as_f64().is_some_and(|width| (590.0..=615.0).contains(&width)), "{page}");
            let blocks = page["blocks"].as_array().expect("blocks");
            let texts: Vec<&str> = blocks.iter().filter_map(|block| block["text"].as_str()).collect();
            assert_eq!(texts, [HEADING, PARAGRAPH]);
            let heading = &blocks[0];
            assert!(heading["font_size"].as_f64().is_some_and(|size| (18.0..=22.0).contains(&size)), "{heading}");
            assert!(heading["x_min"].as_f64() < heading["x_max"].as_f64(), "{heading}");
            assert!(heading["y_min"].as_f64() < heading["y_max"].as_f64(), "{heading}");
            assert_eq!(heading["lines"][0]["text"], HEADING);

            let body = write_body(original, "de", translated(&layout, german));
            let (status, written) = call(request(Method::POST, "/pdf/write", bearer(), body)).await;
            assert_eq!(status, StatusCode::OK, "{written}");
            let bytes = STANDARD.decode(written["pdf"].as_str().expect("a PDF")).expect("base64");
            assert!(bytes.starts_with(b"%PDF-"));
            let text = extracted(&bytes);
            assert!(text.contains("Jahresbericht") && text.contains("Fuchs springt über"), "{text}");
            assert!(!text.contains("Annual") && !text.contains("quick brown"), "{text}");

            // The translated PDF reads back through the service too.
            let (status, again) = call(request(Method::POST, "/pdf/read", bearer(), read_body(&bytes))).await;
            assert_eq!(status, StatusCode::OK, "{again}");
            assert_eq!(again["pages"][0]["blocks"][0]["text"], "Jahresbericht");
        }

        #[tokio::test]
        async fn pdf_paths_need_the_secret() {
            let body = write_body(office_pdf(), "de", json!([{"blocks": []}]));
            for path in ["/pdf/read", "/pdf/write"] {
                for auth in [None, Some("Bearer wrong")] {
                    let (status, _) = call(request(Method::POST, path, auth, body.clone())).await;
                    assert_eq!(status, StatusCode::UNAUTHORIZED, "{path} {auth:?}");
                }
            }
        }

        #[tokio::test]
        async fn bad_pdfs_and_fields_are_refused() {
            let original = office_pdf();
            let truncated = &original[..original.len() / 2];
            let locked = encrypted(original);
            let encrypted_message = "the PDF is encrypted: remove its password and protection, then upload it again";
            let one_page = json!([{"blocks": []}]);
            let block = |x_min: Value| {
                json!([{"blocks": [
                    {"text": "a", "x_min": 1, "y_min": 2, "x_max": 3, "y_max": 4, "font_size": 5},
                    {"text": "b", "x_min": x_min, "y_min": 2, "x_max": 3, "y_max": 4, "font_size": 5},
                ]}])
            };
            for (path, body, expected) in [
                ("/pdf/read", json!({"pdf": "%%%"}).to_string(), "Field 'pdf' is not valid base64"),
                (
                    "/pdf/write",
                    json!({"pdf": "%%%", "language": "de", "pages": []}).to_string(),
                    "Field 'pdf' is not valid base64",
                ),
                ("/pdf/read", read_body(b"GIF89a, no PDF"), "Field 'pdf' is not a PDF file"),
                ("/pdf/write", write_body(b"<html>", "de", json!([])), "Field 'pdf' is not a PDF file"),
                ("/pdf/read", json!({}).to_string(), "Field 'pdf' is required"),
                ("/pdf/read", json!({"pdf": 7}).to_string(), "Field 'pdf' must be a string"),
                ("/pdf/read", "not json".to_string(), "The body is not valid JSON"),
                ("/pdf/read", read_body(truncated), "the PDF cannot be read: "),
                ("/pdf/write", write_body(truncated, "de", one_page.clone()), "the PDF cannot be read: "),
                ("/pdf/read", read_body(&locked), encrypted_message),
                ("/pdf/write", write_body(&locked, "de", one_page.clone()), encrypted_message),
                (
                    "/pdf/write",
                    write_body(original, "de", json!([{"blocks": []}, {"blocks": []}])),
                    "the translation has 2 pages but the PDF has 1",
                ),
                ("/pdf/write", write_body(original, "de", json!([])), "the translation has 0 pages but the PDF has 1"),
                (
                    "/pdf/write",
                    write_body(original, "de", block(json!("1"))),
                    "Field 'pages[0].blocks[1].x_min' must be a number",
                ),
                (
                    "/pdf/write",
                    json!({"pdf": STANDARD.encode(original), "pages": []}).to_string(),
                    "Field 'language' is required",
                ),
            ] {
                assert_refused(path, body, expected).await;
            }
        }

        #[tokio::test]
        async fn pdf_paths_take_bodies_up_to_48_mib() {
            // 10 MiB: too large for /detect and the image paths, read by the PDF paths (and refused for its
            // content, not its size).
            let body = json!({"pdf": "A".repeat(10 * 1024 * 1024), "language": "de", "pages": []}).to_string();
            for (path, expected) in [
                ("/detect", StatusCode::PAYLOAD_TOO_LARGE),
                ("/ocr", StatusCode::PAYLOAD_TOO_LARGE),
                ("/pdf/read", StatusCode::BAD_REQUEST),
                ("/pdf/write", StatusCode::BAD_REQUEST),
            ] {
                let (status, answer) = call(request(Method::POST, path, bearer(), body.clone())).await;
                assert_eq!(status, expected, "{path}: {answer}");
            }
            let body = json!({"pdf": "A".repeat(MAX_PDF_BODY_BYTES)}).to_string();
            for path in ["/pdf/read", "/pdf/write"] {
                let (status, answer) = call(request(Method::POST, path, bearer(), body.clone())).await;
                assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{path}");
                assert_eq!(answer["message"], format!("The request body is larger than {MAX_PDF_BODY_BYTES} bytes"));
            }
            // Declared too large: refused before reading.
            let mut declared = request(Method::POST, "/pdf/read", bearer(), "{}");
            declared.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(MAX_PDF_BODY_BYTES + 1));
            let (status, _) = call(declared).await;
            assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        }

        #[test]
        fn pdf_errors_get_their_status() {
            for (error, status, message) in [
                (PdfError::NoPages, StatusCode::BAD_REQUEST, "the PDF has no pages"),
                (
                    PdfError::TooManyPages { pages: 1200, max: 1000 },
                    StatusCode::BAD_REQUEST,
                    "the PDF has 1200 pages, more than the 1000 allowed: split it into smaller files",
                ),
                (
                    PdfError::Unreadable("its structure is damaged".into()),
                    StatusCode::BAD_REQUEST,
                    "the PDF cannot be read: its structure is damaged",
                ),
                (PdfError::TimedOut(60), StatusCode::UNPROCESSABLE_ENTITY, "Reading the PDF took longer than 60 s"),
                (
                    PdfError::Write("a font cannot be embedded".into()),
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "The PDF cannot be written: a font cannot be embedded",
                ),
                (
                    PdfError::ToolMissing("pdftotext"),
                    StatusCode::SERVICE_UNAVAILABLE,
                    "PDF reading is unavailable: Poppler (poppler-utils) is not installed",
                ),
                (PdfError::NoFont, StatusCode::SERVICE_UNAVAILABLE, "PDF writing is unavailable: no font is installed"),
                (
                    PdfError::TempFile("/tmp/x: disk full".into()),
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "The request could not be completed",
                ),
            ] {
                let refusal = pdf_error(error);
                assert_eq!((refusal.status(), refusal.to_string().as_str()), (status, message));
            }
        }
    }
}
