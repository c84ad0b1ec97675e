//! An incoming request, independent of the host's types.

use crate::{ApiError, Params};

/// What a handler needs of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Upper case: `GET`, `POST`, ...
    pub method: String,
    pub path: String,
    /// The query string, without `?`.
    pub query: String,
    /// Header names in lower case, values as sent.
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The first value of a header, if it is text.
    pub fn header<'a>(&'a self, name: &'a str) -> Option<&'a str> {
        self.header_values(name).next().and_then(|value| std::str::from_utf8(value).ok())
    }

    /// Every value of a header.
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.headers.iter().filter(move |(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_slice())
    }

    /// The query string's parameters.
    pub fn query_params(&self) -> Params {
        Params::from_form(self.query.as_bytes())
    }

    /// The body's parameters (by `Content-Type`), with the query string's filling in what the
    /// body lacks. A `GET` may carry a form body too: some clients send their parameters so.
    pub fn params(&self) -> Result<Params, ApiError> {
        self.params_within(crate::MAX_BODY_BYTES)
    }

    /// [`Request::params`] with another body limit than text translation's 128 KiB.
    pub fn params_within(&self, limit: usize) -> Result<Params, ApiError> {
        if self.body.is_empty() && (self.method == "GET" || self.method == "HEAD") {
            return Ok(self.query_params());
        }
        let mut params = Params::from_body_within(self.header("content-type"), &self.body, limit)?;
        params.merge_missing(self.query_params());
        Ok(params)
    }
}

/// The segments of `path` below `prefix` (`["abc", "entries"]` of `/v3/glossaries/abc/entries`),
/// none for `prefix` itself; `None` when `path` is not `prefix` or below it (`/v3/glossariesx`).
pub fn path_segments<'a>(path: &'a str, prefix: &str) -> Option<Vec<&'a str>> {
    let rest = path.strip_prefix(prefix)?;
    if !rest.is_empty() && !rest.starts_with('/') {
        return None;
    }
    Some(rest.split('/').skip(1).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_s_segments_below_a_prefix_start_at_a_segment_boundary() {
        assert_eq!(path_segments("/v3/style_rules", "/v3/style_rules"), Some(vec![]));
        assert_eq!(path_segments("/v3/style_rules/a/b", "/v3/style_rules"), Some(vec!["a", "b"]));
        assert_eq!(path_segments("/v3/style_rules/", "/v3/style_rules"), Some(vec![""]));
        assert_eq!(path_segments("/v3/style_rulesx", "/v3/style_rules"), None);
        assert_eq!(path_segments("/v2/translate", "/v3/style_rules"), None);
    }

    fn request(method: &str, query: &str, content_type: Option<&str>, body: &str) -> Request {
        let mut headers = vec![("x-other".to_owned(), b"1".to_vec())];
        if let Some(content_type) = content_type {
            headers.push(("content-type".to_owned(), content_type.as_bytes().to_vec()));
        }
        Request {
            method: method.into(),
            path: "/v2/translate".into(),
            query: query.into(),
            headers,
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn get_reads_the_query_and_post_the_body_first() {
        let get = request("GET", "text=a&target_lang=DE", None, "");
        assert_eq!(get.params().unwrap().strings("text").unwrap().unwrap(), ["a"]);
        let post = request("POST", "target_lang=FR&text=ignored", Some("application/json"), r#"{"text": ["b"]}"#);
        let params = post.params().unwrap();
        assert_eq!(params.strings("text").unwrap().unwrap(), ["b"]);
        assert_eq!(params.required_string("target_lang").unwrap(), "FR");
    }

    #[test]
    fn a_get_with_a_form_body_is_read_too() {
        let get = request("GET", "", Some("application/x-www-form-urlencoded"), "type=target");
        assert_eq!(get.params().unwrap().string("type").unwrap().as_deref(), Some("target"));
    }

    #[test]
    fn headers_are_found_case_insensitively() {
        let request = request("POST", "", Some("text/plain"), "");
        assert_eq!(request.header("Content-Type"), Some("text/plain"));
        assert_eq!(request.header("missing"), None);
        assert_eq!(request.params().unwrap_err().status, 415);
    }
}
