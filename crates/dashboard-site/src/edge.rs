//! The site's answers as the API's responses: the only file that imports `api`.

use std::io;

use api::{ApiError, ApiResponse, Request};

use crate::headers::{SECURITY_HEADERS, cache_control, content_type};
use crate::site::{Target, resolve};

/// The methods the site answers.
const METHODS: [&str; 2] = ["GET", "HEAD"];

/// Answers a request for the site, reading the file it names with `read` (`std::fs::read` on
/// the component's `files` mount): the file with its type and headers (`HEAD`: the headers
/// only), the redirect from `/admin`, `404` in the API's error shape for a path that names no
/// file, and `405` for other methods.
pub fn respond(request: &Request, read: impl FnOnce(&str) -> io::Result<Vec<u8>>) -> Result<ApiResponse, ApiError> {
    let path = match resolve(&request.path) {
        Target::Nothing => return Err(ApiError::nothing_served_at(&request.path)),
        _ if !METHODS.contains(&request.method.as_str()) => return Err(ApiError::method_not_allowed(&METHODS)),
        Target::Redirect(location) => {
            let redirect = ApiResponse { status: 308, headers: Vec::new(), body: Vec::new() };
            return Ok(redirect.with_header("location", location));
        }
        Target::File(path) => path,
    };
    let body = match read(&path) {
        Ok(body) => body,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return Err(ApiError::nothing_served_at(&request.path));
        }
        Err(error) => return Err(ApiError::internal(&error)),
    };
    let body = if request.method == "HEAD" { Vec::new() } else { body };
    let kind = content_type(&path).expect("resolve serves known types only");
    let mut response = ApiResponse { status: 200, headers: Vec::new(), body }
        .with_header("content-type", kind)
        .with_header("cache-control", cache_control(&path));
    for (name, value) in SECURITY_HEADERS {
        response = response.with_header(name, value);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, path: &str) -> Request {
        Request {
            method: method.into(),
            path: path.into(),
            query: String::new(),
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// A mount holding `index.html` and `app.js`.
    fn mount(path: &str) -> io::Result<Vec<u8>> {
        match path {
            "/admin/index.html" => Ok(b"<!doctype html>".to_vec()),
            "/admin/app.js" => Ok(b"export {};".to_vec()),
            "/admin/broken.js" => Err(io::Error::other("disk I/O error")),
            _ => Err(io::ErrorKind::NotFound.into()),
        }
    }

    #[test]
    fn the_index_comes_with_its_type_policy_and_no_cache() {
        let response = respond(&request("GET", "/admin/"), mount).unwrap();
        assert_eq!(response.status, 200);
        assert_eq!(response.body, b"<!doctype html>");
        assert_eq!(response.header("content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(response.header("cache-control"), Some("no-cache"));
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(response.header("referrer-policy"), Some("no-referrer"));
        let policy = response.header("content-security-policy").unwrap();
        assert!(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), "{policy}");
    }

    #[test]
    fn a_script_is_kept_briefly_and_head_sends_no_body() {
        let response = respond(&request("HEAD", "/admin/app.js"), mount).unwrap();
        assert_eq!((response.status, response.body.len()), (200, 0));
        assert_eq!(response.header("content-type"), Some("text/javascript; charset=utf-8"));
        assert_eq!(response.header("cache-control"), Some("max-age=300"));
    }

    #[test]
    fn the_mount_without_its_slash_is_a_permanent_redirect() {
        let response = respond(&request("GET", "/admin"), mount).unwrap();
        assert_eq!((response.status, response.header("location")), (308, Some("/admin/")));
    }

    #[test]
    fn a_missing_or_refused_file_is_the_apps_404() {
        for path in ["/admin/missing.js", "/admin/../spin.toml", "/admin/keys"] {
            let error = respond(&request("GET", path), mount).unwrap_err();
            assert_eq!(error, ApiError::nothing_served_at(path), "{path}");
        }
        let unread = |_: &str| -> io::Result<Vec<u8>> { panic!("a refused path is never read") };
        assert_eq!(respond(&request("GET", "/admin/%2e%2e/x.js"), unread).unwrap_err().status, 404);
    }

    #[test]
    fn other_methods_are_not_allowed_and_a_read_failure_is_internal() {
        let error = respond(&request("POST", "/admin/app.js"), mount).unwrap_err();
        assert_eq!((error.status, error.headers.clone()), (405, vec![("allow".into(), "GET, HEAD".into())]));
        let error = respond(&request("GET", "/admin/broken.js"), mount).unwrap_err();
        assert_eq!((error.status, error.message.as_str()), (500, api::INTERNAL_ERROR_MESSAGE));
    }
}
