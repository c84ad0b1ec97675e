use std::io::Read;
use std::time::Duration;

use crate::http::{HttpError, HttpRequest, HttpResponse, OutboundHttp};

/// The longest a response may take when the request sets no timeout.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Outbound plain-HTTP requests from native programs.
#[derive(Debug, Default, Clone)]
pub struct UreqHttp;

impl OutboundHttp for UreqHttp {
    fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
        let url = request.url.clone();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(request.timeout.unwrap_or(DEFAULT_TIMEOUT)))
            .http_status_as_error(false)
            .build()
            .into();
        let mut builder = ureq::http::Request::builder().method(request.method.as_str()).uri(&request.url);
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        let outgoing = builder.body(request.body).map_err(|error| HttpError::Invalid(error.to_string()))?;
        let mut response = agent.run(outgoing).map_err(|error| match error {
            ureq::Error::Timeout(_) => HttpError::Timeout(url.clone()),
            ureq::Error::BadUri(reason) => HttpError::Invalid(reason),
            other => HttpError::Unreachable { url: url.clone(), reason: other.to_string() },
        })?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(name, value)| (name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
            .collect();
        let mut body = Vec::new();
        response
            .body_mut()
            .as_reader()
            .read_to_end(&mut body)
            .map_err(|error| HttpError::Unreachable { url, reason: error.to_string() })?;
        Ok(HttpResponse { status, headers, body })
    }
}
