//! A small JSON client for the services the gateway calls (the application's internal voice routes, the
//! inference service, an OpenAI-compatible transcription server): hyper-util's pooled HTTP/1 client, a
//! bearer secret, a timeout per call. Answers are JSON; requests are JSON or, for the transcription
//! server, a multipart form.

use std::time::Duration;

use bytes::Bytes;
use http::header::{AUTHORIZATION, CONTENT_TYPE};
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The largest answer read (a transcription of 60 s of speech is far smaller).
const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;

/// Why a call gave no usable answer.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// No answer: connection refused or reset, or the timeout.
    #[error("{0}")]
    Transport(String),
    /// An answer with a status the caller did not expect, and its body.
    #[error("status {status}: {body}")]
    Status { status: StatusCode, body: String },
    /// A 200 whose body is not the expected JSON.
    #[error("invalid answer: {0}")]
    Invalid(String),
}

impl CallError {
    /// The `message` (or any other string field) of a JSON error body.
    pub fn field(&self, name: &str) -> Option<String> {
        let CallError::Status { body, .. } = self else { return None };
        let value: serde_json::Value = serde_json::from_str(body).ok()?;
        value.get(name)?.as_str().map(str::to_string)
    }
}

/// A service's base URL and secret.
#[derive(Clone)]
pub struct JsonClient {
    base: String,
    secret: String,
    timeout: Duration,
    http: Client<HttpConnector, Full<Bytes>>,
}

impl std::fmt::Debug for JsonClient {
    /// Never shows the secret.
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("JsonClient").field("base", &self.base).finish_non_exhaustive()
    }
}

impl JsonClient {
    /// A client for `base` (`http://host:port`, no trailing slash needed).
    pub fn new(base: &str, secret: &str, timeout: Duration) -> JsonClient {
        let http = Client::builder(TokioExecutor::new()).pool_idle_timeout(Duration::from_secs(30)).build_http();
        JsonClient { base: base.trim_end_matches('/').to_string(), secret: secret.to_string(), timeout, http }
    }

    /// The base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// `POST path` with a JSON body: the status and the raw answer.
    pub async fn post<B: Serialize>(&self, path: &str, body: &B) -> Result<(StatusCode, Bytes), CallError> {
        let body = serde_json::to_vec(body).map_err(|error| CallError::Invalid(error.to_string()))?;
        self.send(Method::POST, path, "application/json", Bytes::from(body)).await
    }

    /// `POST path` with a body of another type (a multipart form): the status and the raw answer.
    pub async fn post_body(
        &self,
        path: &str,
        content_type: &str,
        body: Bytes,
    ) -> Result<(StatusCode, Bytes), CallError> {
        self.send(Method::POST, path, content_type, body).await
    }

    /// `GET path`: the status and the raw answer.
    pub async fn get(&self, path: &str) -> Result<(StatusCode, Bytes), CallError> {
        self.send(Method::GET, path, "application/json", Bytes::new()).await
    }

    /// `POST path` expecting `200` and a JSON answer; another status is [`CallError::Status`].
    pub async fn post_json<B: Serialize, T: DeserializeOwned>(&self, path: &str, body: &B) -> Result<T, CallError> {
        let (status, answer) = self.post(path, body).await?;
        parse_ok(status, &answer)
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        content_type: &str,
        body: Bytes,
    ) -> Result<(StatusCode, Bytes), CallError> {
        let mut request = Request::builder().method(method).uri(format!("{}{path}", self.base));
        // A service without a secret gets no credentials.
        if !self.secret.is_empty() {
            request = request.header(AUTHORIZATION, format!("Bearer {}", self.secret));
        }
        let request = request
            .header(CONTENT_TYPE, content_type)
            .body(Full::new(body))
            .map_err(|error| CallError::Transport(error.to_string()))?;
        let call = async {
            let response = self.http.request(request).await.map_err(|error| CallError::Transport(error.to_string()))?;
            let status = response.status();
            let limited = http_body_util::Limited::new(response.into_body(), MAX_ANSWER_BYTES);
            let answer = limited.collect().await.map_err(|error| CallError::Transport(error.to_string()))?.to_bytes();
            Ok((status, answer))
        };
        tokio::time::timeout(self.timeout, call)
            .await
            .map_err(|_| CallError::Transport(format!("no answer within {} s", self.timeout.as_secs_f32())))?
    }
}

/// The JSON of a `200`, or the status and body of anything else.
pub fn parse_ok<T: DeserializeOwned>(status: StatusCode, answer: &[u8]) -> Result<T, CallError> {
    if status != StatusCode::OK {
        let body = String::from_utf8_lossy(&answer[..answer.len().min(1024)]).into_owned();
        return Err(CallError::Status { status, body });
    }
    serde_json::from_slice(answer).map_err(|error| CallError::Invalid(error.to_string()))
}
