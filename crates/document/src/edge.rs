//! What the HTTP edge needs from documents: an upload read from its multipart body, the
//! document key, the download's response, and the answer for each failure.

use api::multipart::{self, MultipartError};
use api::{ApiError, ApiResponse, Params, Request};

use crate::request::{Options, RawUpload, UploadError};
use crate::{DocumentError, Download};

/// The message of every refused file, as clients know it; the `detail` says why.
const INVALID_FILE: &str = "Invalid file data.";

/// The largest document file any type allows (bytes): the 30 MiB of office files on Pro.
const MAX_FILE_BYTES: u64 = 30 * 1024 * 1024;

/// An upload's parts: the `file` and its name, and every other field as a parameter (which
/// also carries a legacy `auth_key`, if sent so).
pub fn read_upload(request: &Request) -> Result<(RawUpload, Params), ApiError> {
    let content_type = request.header("content-type").unwrap_or_default();
    let media_type = content_type.split(';').next().unwrap_or_default().trim();
    if !media_type.eq_ignore_ascii_case("multipart/form-data") {
        return Err(invalid_file("send the document as the `file` part of a multipart/form-data body"));
    }
    let limits = multipart::Limits { whole: api::limits::body_limit(&request.path) as u64, per_part: MAX_FILE_BYTES };
    let parts = multipart::parts(&request.body, content_type, limits).map_err(|error| match error {
        MultipartError::TooLarge => api::limits::too_large(api::limits::body_limit(&request.path)),
        malformed @ MultipartError::Malformed(_) => invalid_file(malformed.to_string()),
    })?;
    let mut params = Params::default();
    let mut file = None;
    for part in parts {
        if part.name == "file" {
            if file.is_some() {
                return Err(invalid_file("more than one `file` part"));
            }
            file = Some((part.file_name.clone(), part.data.to_vec()));
        } else {
            let value = part.text().map_err(|error| ApiError::bad_request(error.to_string()))?;
            params.push(part.name.clone(), serde_json::Value::String(value.to_owned()));
        }
    }
    // Accepted for old clients; every language is available without it.
    params.bool("enable_beta_languages")?;
    let options = Options {
        target_lang: params.string("target_lang")?,
        source_lang: params.string("source_lang")?,
        formality: params.string("formality")?,
        glossary_id: params.string("glossary_id")?,
        glossary_ids: params.list("glossary_ids")?,
        style_id: params.string("style_id")?,
        translation_memory_id: params.string("translation_memory_id")?,
        translation_memory_threshold: params.integer("translation_memory_threshold")?,
        // Set by `request::parse` once the file's type is known.
        output_format: None,
    };
    let raw = RawUpload {
        file,
        filename: params.string("filename")?,
        output_format: params.string("output_format")?,
        options,
    };
    Ok((raw, params))
}

/// The `document_key` of a status or result call (form, JSON or query).
pub fn document_key(params: &Params) -> Result<String, ApiError> {
    params.required_string("document_key")
}

/// The translated file, named as it was uploaded.
pub fn download_response(download: Download) -> ApiResponse {
    let name: String =
        download.file_name.chars().map(|c| if c == '"' || c == '\\' || c.is_control() { '_' } else { c }).collect();
    ApiResponse {
        status: 200,
        headers: vec![
            ("content-type".into(), download.format.content_type().into()),
            ("content-disposition".into(), format!("attachment; filename=\"{name}\"")),
        ],
        body: download.bytes,
    }
}

fn invalid_file(why: impl Into<String>) -> ApiError {
    ApiError::bad_request(INVALID_FILE).with_detail(why)
}

impl From<UploadError> for ApiError {
    fn from(error: UploadError) -> ApiError {
        match error {
            UploadError::InvalidFile(why) => invalid_file(why),
            UploadError::TooLarge { format, limit } => ApiError::new(
                413,
                format!("Document too large: a {format} file may be at most {}.", api::limits::human_size(limit)),
            ),
            UploadError::Request(error) => error.into(),
            other => ApiError::bad_request(other.to_string()),
        }
    }
}

/// The client's mistakes are 400s (413 for size), documents it cannot reach 404s, one not done
/// yet a 503 with `Retry-After`, a PDF or image where no service reads them a 503; quota refusals are metering's 456; anything else is logged
/// and answered with a generic 500.
impl From<DocumentError> for ApiError {
    fn from(error: DocumentError) -> ApiError {
        match error {
            DocumentError::Upload(error) => error.into(),
            DocumentError::NotFound => ApiError::not_found(error.to_string()),
            DocumentError::NotDone { seconds_remaining } => {
                let mut answer = ApiError::unavailable(error.to_string());
                answer.headers.push(("retry-after".into(), seconds_remaining.clamp(1, 60).to_string()));
                answer
            }
            DocumentError::Failed(_) => ApiError::bad_request(error.to_string()),
            DocumentError::NoTools | DocumentError::ToolsUnavailable => ApiError::unavailable(error.to_string()),
            DocumentError::Charge(error) => error.into(),
            DocumentError::Glossary(error) => error.into(),
            DocumentError::Named(error) => error.into(),
            DocumentError::Retention(_) | DocumentError::Store(_) => ApiError::internal(&error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn multipart(parts: &[(&str, Option<&str>, &str)]) -> Request {
        let mut body = String::new();
        for (name, file_name, value) in parts {
            body.push_str("--b\r\nContent-Disposition: form-data; name=\"");
            body.push_str(name);
            body.push('"');
            if let Some(file_name) = file_name {
                body.push_str(&format!("; filename=\"{file_name}\""));
            }
            body.push_str("\r\n\r\n");
            body.push_str(value);
            body.push_str("\r\n");
        }
        body.push_str("--b--\r\n");
        Request {
            method: "POST".into(),
            path: "/v2/document".into(),
            query: String::new(),
            headers: vec![("content-type".into(), "multipart/form-data; boundary=b".into())],
            body: body.into_bytes(),
        }
    }

    #[test]
    fn an_upload_gives_its_file_and_parameters() {
        let request = multipart(&[
            ("target_lang", None, "DE"),
            ("file", Some("notes.txt"), "Hello."),
            ("glossary_ids", None, "a,b"),
            ("translation_memory_threshold", None, "80"),
            ("output_format", None, "txt"),
        ]);
        let (raw, params) = read_upload(&request).unwrap();
        assert_eq!(raw.file, Some((Some("notes.txt".into()), b"Hello.".to_vec())));
        assert_eq!(raw.options.target_lang.as_deref(), Some("DE"));
        assert_eq!(raw.options.glossary_ids, Some(vec!["a".into(), "b".into()]));
        assert_eq!(raw.options.translation_memory_threshold, Some(80));
        assert_eq!(raw.output_format.as_deref(), Some("txt"));
        assert!(params.contains("target_lang"));
    }

    #[test]
    fn what_is_no_upload_is_invalid_file_data() {
        let mut json = multipart(&[]);
        json.headers = vec![("content-type".into(), "application/json".into())];
        let error = read_upload(&json).unwrap_err();
        assert_eq!((error.status, error.message.as_str()), (400, "Invalid file data."));
        assert!(error.detail.unwrap().contains("multipart/form-data"));
        let twice = multipart(&[("file", Some("a.txt"), "x"), ("file", Some("b.txt"), "y")]);
        assert_eq!(read_upload(&twice).unwrap_err().detail.as_deref(), Some("more than one `file` part"));
        let mut broken = multipart(&[("file", Some("a.txt"), "x")]);
        broken.body.truncate(20);
        assert_eq!(read_upload(&broken).unwrap_err().message, "Invalid file data.");
    }

    #[test]
    fn each_failure_has_its_status() {
        let status = |error: DocumentError| ApiError::from(error).status;
        assert_eq!(status(DocumentError::NotFound), 404);
        assert_eq!(ApiError::from(DocumentError::NotFound).message, "Document not found");
        let not_done = ApiError::from(DocumentError::NotDone { seconds_remaining: 3 });
        assert_eq!((not_done.status, not_done.message.as_str()), (503, "Document translation is not done"));
        assert_eq!(not_done.headers, [("retry-after".to_owned(), "3".to_owned())]);
        assert_eq!(status(DocumentError::Failed("no".into())), 400);
        let large = ApiError::from(UploadError::TooLarge { format: "srt", limit: 150 * 1024 });
        assert_eq!(
            (large.status, large.message.as_str()),
            (413, "Document too large: a srt file may be at most 150 KiB.")
        );
    }

    #[test]
    fn the_download_names_its_file_safely() {
        let download =
            Download { format: crate::Format::Txt, file_name: "a \"b\".txt".into(), bytes: b"Hallo".to_vec() };
        let response = download_response(download);
        assert_eq!(response.body, b"Hallo");
        assert!(
            response.headers.contains(&("content-disposition".into(), "attachment; filename=\"a _b_.txt\"".into()))
        );
    }
}
