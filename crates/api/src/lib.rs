//! The HTTP edge shared by every component, free of any host SDK.
//!
//! A handler returns an [`ApiResponse`] or an [`ApiError`]; `platform-spin` turns either into the
//! host's response type. Every error leaves as one JSON shape, `{"message": ..., "code"?: ...,
//! "detail"?: ...}`,
//! and an internal failure is logged with its whole chain of causes but answered with a generic
//! text, so no handler can leak an internal error message.

pub mod limits;
pub mod multipart;
pub mod params;
mod request;

pub use params::{MAX_BODY_BYTES, Params};
pub use request::{Request, path_segments};

use std::error::Error as StdError;
use std::fmt;

use serde::Serialize;

/// A response ready to be sent: status, headers and a complete body.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl ApiResponse {
    /// A JSON document with the given status.
    pub fn json<T: Serialize + ?Sized>(status: u16, document: &T) -> ApiResponse {
        match serde_json::to_vec(document) {
            Ok(body) => ApiResponse { status, headers: vec![("content-type".into(), "application/json".into())], body },
            Err(error) => ApiError::internal(&error).into(),
        }
    }

    /// The same response with one more header.
    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> ApiResponse {
        self.headers.push((name.to_owned(), value.into()));
        self
    }

    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }
}

/// An error answered to the client.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
    /// A machine-readable identifier, for errors clients branch on.
    pub code: Option<&'static str>,
    /// Where exactly the request went wrong (glossary entries: which entry, and why).
    pub detail: Option<String>,
    /// Extra response headers (`Allow` on a 405).
    pub headers: Vec<(String, String)>,
}

/// The text every internal failure is answered with.
pub const INTERNAL_ERROR_MESSAGE: &str = "Internal server error.";

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), code: None, detail: None, headers: Vec::new() }
    }

    pub fn with_code(mut self, code: &'static str) -> ApiError {
        self.code = Some(code);
        self
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> ApiError {
        self.detail = Some(detail.into());
        self
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }

    /// 404 for a path nothing serves, the answer of every unknown path. The path is echoed only
    /// when it is short and printable, so a log-forging or oversized path stays out of the body.
    pub fn nothing_served_at(path: &str) -> ApiError {
        let shown = path.len() <= 200 && path.bytes().all(|byte| byte.is_ascii_graphic());
        if shown {
            ApiError::not_found(format!("Not found: nothing is served at {path}."))
        } else {
            ApiError::not_found("Not found: nothing is served at this path.")
        }
    }

    /// 405 for a path that exists but not with this method, naming the methods it has.
    pub fn method_not_allowed(allowed: &[&str]) -> ApiError {
        let mut error = ApiError::new(405, "Method not allowed.");
        error.headers.push(("allow".into(), allowed.join(", ")));
        error
    }

    /// A 503 whose message the client may see (it must not carry internal details).
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(503, message)
    }

    /// A 500 for an unexpected failure: the cause chain goes to the log, the client sees a
    /// generic message.
    pub fn internal(cause: &(dyn StdError + 'static)) -> ApiError {
        eprintln!("internal error: {}", ErrorChain(cause));
        ApiError::new(500, INTERNAL_ERROR_MESSAGE)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status, self.message)
    }
}

impl StdError for ApiError {}

#[derive(Serialize)]
struct ErrorBody<'a> {
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
}

impl From<ApiError> for ApiResponse {
    fn from(error: ApiError) -> ApiResponse {
        let body = ErrorBody { message: &error.message, code: error.code, detail: error.detail.as_deref() };
        let body = serde_json::to_vec(&body).unwrap_or_else(|_| br#"{"message":"Internal server error."}"#.to_vec());
        let mut headers = vec![("content-type".to_owned(), "application/json".to_owned())];
        headers.extend(error.headers);
        ApiResponse { status: error.status, headers, body }
    }
}

/// Writes an error and each of its sources, `outer: inner: innermost`.
pub struct ErrorChain<'a>(pub &'a (dyn StdError + 'static));

impl fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(cause) = source {
            write!(f, ": {cause}")?;
            source = cause.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Outer(Inner);
    #[derive(Debug)]
    struct Inner;
    impl fmt::Display for Outer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("saving the record failed")
        }
    }
    impl fmt::Display for Inner {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("disk I/O error")
        }
    }
    impl StdError for Inner {}
    impl StdError for Outer {
        fn source(&self) -> Option<&(dyn StdError + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn errors_become_one_json_shape() {
        let response =
            ApiResponse::from(ApiError::bad_request("Value for 'type' not supported.").with_code("bad_value"));
        assert_eq!(response.status, 400);
        assert_eq!(response.header("Content-Type"), Some("application/json"));
        let body: serde_json::Value = serde_json::from_slice(&response.body).unwrap();
        assert_eq!(body, serde_json::json!({"message": "Value for 'type' not supported.", "code": "bad_value"}));
    }

    #[test]
    fn an_internal_error_hides_its_cause_from_the_client() {
        let response = ApiResponse::from(ApiError::internal(&Outer(Inner)));
        assert_eq!(response.status, 500);
        let body = String::from_utf8(response.body).unwrap();
        assert_eq!(body, r#"{"message":"Internal server error."}"#);
    }

    #[test]
    fn the_error_chain_names_every_cause() {
        assert_eq!(ErrorChain(&Outer(Inner)).to_string(), "saving the record failed: disk I/O error");
    }

    #[test]
    fn method_not_allowed_names_the_allowed_methods() {
        let response = ApiResponse::from(ApiError::method_not_allowed(&["GET", "HEAD"]));
        assert_eq!(response.status, 405);
        assert_eq!(response.header("allow"), Some("GET, HEAD"));
    }

    #[test]
    fn an_unknown_path_is_echoed_only_when_short_and_printable() {
        let shown = ApiError::nothing_served_at("/v9/nothing");
        assert_eq!((shown.status, shown.message.as_str()), (404, "Not found: nothing is served at /v9/nothing."));
        let hidden = ApiError::nothing_served_at("/a\r\nSet-Cookie: x");
        assert_eq!(hidden.message, "Not found: nothing is served at this path.");
        assert_eq!(ApiError::nothing_served_at(&"/a".repeat(150)).message, hidden.message);
    }
}
