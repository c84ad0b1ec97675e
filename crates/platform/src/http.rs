//! Outbound HTTP requests, whole-body (engines and webhooks send small JSON documents).

use std::time::Duration;

/// A request to send.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    pub method: String,
    /// An absolute `http://` or `https://` URL.
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// How long to wait for the connection and for the first byte of the response; `None`
    /// leaves it to the host.
    pub timeout: Option<Duration>,
}

impl HttpRequest {
    pub fn new(method: &str, url: impl Into<String>) -> Self {
        HttpRequest { method: method.to_owned(), url: url.into(), headers: Vec::new(), body: Vec::new(), timeout: None }
    }

    pub fn header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_owned(), value.into()));
        self
    }

    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }
}

/// The response to a [`HttpRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }
}

/// Why no response arrived.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HttpError {
    /// The host refused to send it (the destination is not an allowed outbound host).
    #[error("request to {0} denied by the host")]
    Denied(String),
    /// No connection could be made, or it broke.
    #[error("could not reach {url}: {reason}")]
    Unreachable { url: String, reason: String },
    /// The response did not arrive in time.
    #[error("request to {0} timed out")]
    Timeout(String),
    /// The request itself was malformed.
    #[error("invalid request: {0}")]
    Invalid(String),
}

/// Sends requests to other services.
pub trait OutboundHttp {
    fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError>;
}

/// The outbound HTTP of a program that may send none, as a Spin component whose manifest lists
/// no `allowed_outbound_hosts`: every request is refused with [`HttpError::Denied`], as the host
/// itself would refuse it. Lending it rather than the host's client keeps the client, and its
/// imports, out of such a component.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoOutbound;

impl OutboundHttp for NoOutbound {
    fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
        Err(HttpError::Denied(request.url))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_outbound_refuses_every_request_as_a_host_would() {
        let refused = NoOutbound.send(HttpRequest::new("GET", "http://127.0.0.1:2737/listPairs"));
        assert!(matches!(refused, Err(HttpError::Denied(url)) if url == "http://127.0.0.1:2737/listPairs"));
    }
}
