//! The client for components' plain-HTTP requests: connections stay open and are reused.
//!
//! wasmtime's default sender opens a connection per request. Engines such as Apertium APY are
//! called on every translation, and a new connection each time costs the caller a handshake and
//! the server (a single-threaded Python process) accepting and setting it up, which showed as a
//! fifth of the latency of a short translation. HTTPS requests still use the default sender.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use wasmtime_wasi_http::{Error, RequestOptions, WasiBody};

/// How long an idle connection is kept for reuse.
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a request may wait for the response head when its options set no limit (the
/// default sender's).
const DEFAULT_FIRST_BYTE_TIMEOUT: Duration = Duration::from_secs(600);

/// A pool of plain-HTTP connections, shared by every request of the application.
#[derive(Clone)]
pub struct HttpClient {
    client: Client<HttpConnector, WasiBody>,
}

impl HttpClient {
    pub fn new() -> HttpClient {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(Duration::from_secs(30)));
        let client = Client::builder(TokioExecutor::new()).pool_idle_timeout(IDLE_TIMEOUT).build(connector);
        HttpClient { client }
    }

    /// Sends a plain-HTTP request over a pooled connection.
    pub async fn send(
        &self,
        request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
    ) -> Result<http::Response<WasiBody>, Error> {
        let first_byte = options.and_then(|options| options.first_byte_timeout).unwrap_or(DEFAULT_FIRST_BYTE_TIMEOUT);
        let connect = options.and_then(|options| options.connect_timeout).unwrap_or(Duration::ZERO);
        let response = tokio::time::timeout(first_byte + connect, self.client.request(request))
            .await
            .map_err(|_| Error::ConnectionReadTimeout)?
            .map_err(|error| {
                if error.is_connect() {
                    Error::ConnectionRefused
                } else {
                    Error::InternalError(Some(error.to_string()))
                }
            })?;
        Ok(response.map(|body| body.map_err(Error::from).map_frame(|frame| frame.map_data(Bytes::from)).boxed_unsync()))
    }
}
