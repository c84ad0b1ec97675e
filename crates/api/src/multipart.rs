//! `multipart/form-data` bodies: every part of a body already in memory, within size limits.
//!
//! Browsers and HTTP clients send files this way, often with other fields beside them. The body
//! is read with multer, the maintained parser behind axum. Its reader is asynchronous, but here
//! the whole body is already in memory, so every poll is ready: it is driven to its end without
//! an executor, which a component does not have.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;

/// One part of a multipart/form-data body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The `name` of its `Content-Disposition`: the form field it is the value of.
    pub name: String,
    /// The `filename` of its `Content-Disposition`, when the part is a file.
    pub file_name: Option<String>,
    /// Its own `Content-Type` header, as sent, when it has one.
    pub content_type: Option<String>,
    /// Its content, as sent (no charset is applied).
    pub data: Bytes,
}

impl Part {
    /// The value of a field that is no file, as text: fields are sent in UTF-8, as the form's
    /// page is. A part that is not UTF-8 is refused, naming the part.
    pub fn text(&self) -> Result<&str, MultipartError> {
        std::str::from_utf8(&self.data)
            .map_err(|_| MultipartError::Malformed(format!("the part '{}' is not UTF-8 text", self.name)))
    }
}

/// Size limits: the whole body and any one part.
///
/// A body or a part past its limit is refused as [`MultipartError::TooLarge`] as soon as it is,
/// so that a caller can answer `413` instead of `400`.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most the whole body may carry, in bytes, its boundaries and headers included.
    pub whole: u64,
    /// The most any one part's content may carry, in bytes.
    pub per_part: u64,
}

/// Why a multipart/form-data body was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MultipartError {
    /// A part or the body exceeds its limit.
    TooLarge,
    /// Not a valid multipart body (no boundary, malformed, a part without a name, …): what is
    /// wrong with it, in lower case and without a final period, to be put in a sentence.
    Malformed(String),
}

impl fmt::Display for MultipartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MultipartError::TooLarge => f.write_str("the multipart/form-data body or one of its parts is too large"),
            MultipartError::Malformed(detail) => write!(f, "invalid multipart/form-data body: {detail}"),
        }
    }
}

impl std::error::Error for MultipartError {}

/// Every part of `body`, in order; `content_type` is the request's Content-Type with its boundary.
///
/// Which parts a request takes, and how many of each, is for its caller to check: this only reads
/// them, each within `limits`.
pub fn parts(body: &[u8], content_type: &str, limits: Limits) -> Result<Vec<Part>, MultipartError> {
    let boundary =
        multer::parse_boundary(content_type).map_err(|error| MultipartError::Malformed(error.to_string()))?;
    // The whole body is at hand: one too large is refused before it is copied.
    if body.len() as u64 > limits.whole {
        return Err(MultipartError::TooLarge);
    }
    let sizes = multer::SizeLimit::new().whole_stream(limits.whole).per_field(limits.per_part);
    let constraints = multer::Constraints::new().size_limit(sizes);
    let chunk = Bytes::copy_from_slice(body);
    let stream = futures_util::stream::once(std::future::ready(Ok::<_, Infallible>(chunk)));
    let mut multipart = multer::Multipart::with_constraints(stream, boundary, constraints);
    let mut parts = Vec::new();
    while let Some(field) = ready(multipart.next_field())?.map_err(error_of)? {
        let Some(name) = field.name().map(str::to_owned) else {
            return Err(MultipartError::Malformed("a part has no name".into()));
        };
        let file_name = field.file_name().map(str::to_owned);
        let content_type = field
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .map(|value| value.trim().to_owned());
        let data = ready(field.bytes())?.map_err(error_of)?;
        parts.push(Part { name, file_name, content_type, data });
    }
    Ok(parts)
}

/// multer's errors as ours: its size limits are [`MultipartError::TooLarge`], anything else
/// is a malformed body.
fn error_of(error: multer::Error) -> MultipartError {
    match error {
        multer::Error::StreamSizeExceeded { .. } | multer::Error::FieldSizeExceeded { .. } => MultipartError::TooLarge,
        other => MultipartError::Malformed(other.to_string()),
    }
}

/// The output of a future whose every poll is ready: multer reading a body already in memory.
/// One that is not ready within a few polls never will be (nothing would wake it).
fn ready<F: Future>(future: F) -> Result<F::Output, MultipartError> {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    for _ in 0..64 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return Ok(output);
        }
    }
    Err(MultipartError::Malformed("the body could not be read to its end".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTENT_TYPE: &str = "multipart/form-data; boundary=XyZ";
    const LIMITS: Limits = Limits { whole: 64 * 1024, per_part: 1024 };

    #[test]
    fn a_body_gives_every_part_in_order() {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"source_lang\"\r\n\r\nen\r\n\
                    --XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"letter.docx\"\r\n\
                    Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document\r\n\r\n\
                    PK\x03\x04\r\n\
                    --XyZ\r\nContent-Disposition: form-data; name=\"target_lang\"\r\n\r\nde\r\n--XyZ--\r\n";
        let parts = parts(body.as_bytes(), CONTENT_TYPE, LIMITS).unwrap();
        let names: Vec<&str> = parts.iter().map(|part| part.name.as_str()).collect();
        assert_eq!(names, ["source_lang", "file", "target_lang"]);
        assert_eq!(
            (parts[0].text(), parts[0].file_name.as_deref(), parts[0].content_type.as_deref()),
            (Ok("en"), None, None)
        );
        assert_eq!(parts[1].file_name.as_deref(), Some("letter.docx"));
        assert_eq!(
            parts[1].content_type.as_deref(),
            Some("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        );
        assert_eq!(parts[1].data, Bytes::from_static(b"PK\x03\x04"));
        assert_eq!(parts[2].text(), Ok("de"));
        assert_eq!(super::parts(b"--XyZ--\r\n", CONTENT_TYPE, LIMITS), Ok(Vec::new()));
    }

    #[test]
    fn a_part_that_is_not_utf8_is_no_text() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"formality\"\r\n\r\n\xff\r\n--XyZ--\r\n";
        let parts = parts(body, CONTENT_TYPE, LIMITS).unwrap();
        assert_eq!(parts[0].text(), Err(MultipartError::Malformed("the part 'formality' is not UTF-8 text".into())));
    }

    #[test]
    fn a_part_or_a_body_over_its_limit_is_too_large() {
        let part = |content: &str| {
            format!("--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\n{content}\r\n")
        };
        let body = format!("{}--XyZ--\r\n", part(&"a".repeat(1025)));
        assert_eq!(parts(body.as_bytes(), CONTENT_TYPE, LIMITS), Err(MultipartError::TooLarge));
        let exactly = format!("{}--XyZ--\r\n", part(&"a".repeat(1024)));
        assert_eq!(parts(exactly.as_bytes(), CONTENT_TYPE, LIMITS).unwrap()[0].data.len(), 1024);
        let many = format!("{}--XyZ--\r\n", part(&"a".repeat(1000)).repeat(100));
        assert_eq!(parts(many.as_bytes(), CONTENT_TYPE, LIMITS), Err(MultipartError::TooLarge));
        let small = Limits { whole: 200, per_part: 1024 };
        assert_eq!(parts(exactly.as_bytes(), CONTENT_TYPE, small), Err(MultipartError::TooLarge));
    }

    #[test]
    fn a_malformed_body_is_refused() {
        let malformed = |body: &[u8], content_type: &str| match parts(body, content_type, LIMITS) {
            Err(MultipartError::Malformed(detail)) => detail,
            other => panic!("{other:?}"),
        };
        assert_eq!(malformed(b"garbage", CONTENT_TYPE), "incomplete multipart stream");
        let unclosed = b"--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n<tmx/>";
        malformed(unclosed, CONTENT_TYPE);
        let nameless = b"--XyZ\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--XyZ--\r\n";
        assert_eq!(malformed(nameless, CONTENT_TYPE), "a part has no name");
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\na\r\n--XyZ--\r\n";
        malformed(body, "multipart/form-data");
        malformed(body, "application/json");
        let error = parts(b"garbage", CONTENT_TYPE, LIMITS).unwrap_err();
        assert_eq!(error.to_string(), "invalid multipart/form-data body: incomplete multipart stream");
    }
}
