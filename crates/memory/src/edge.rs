//! What the HTTP edge needs from translation memories: ids from paths, a request's body read
//! for what its operation takes (parameters, segments as they stream, a TMX file raw or as a
//! multipart part), the TMX answer, and the answer for each failure.

use api::params::{BodyFormat, form_pairs};
use api::{ApiError, ApiResponse, Params, Request};
use platform::{Id, Services};

use crate::jobs::{self, Job, JobError, JobOperation, NewImport};
use crate::limits::MAX_PARAMS_BYTES;
use crate::listing::SegmentQuery;
use crate::request::{
    self, Accepted, NewMemory, NewSegment, Page, RawMemory, RawPage, RawSegment, RequestError, SEGMENTS_ACCEPTED,
};
use crate::store::{MemoryError, Segment, TranslationMemory};
use crate::tmx::{self, TmxError, TmxImport};

/// The media type TMX files are answered as (and one they are accepted as).
pub const TMX: &str = "application/x-tmx+xml";

/// A memory id from a path; anything but a UUID is a 400 (`Invalid translation_memory_id`).
pub fn memory_id(raw: &str) -> Result<Id, ApiError> {
    Id::parse(raw).ok_or_else(|| RequestError::InvalidMemoryId.into())
}

/// A segment id from a path; anything but a UUID is a 400 (`Invalid segment_id`).
pub fn segment_id(raw: &str) -> Result<Id, ApiError> {
    Id::parse(raw).ok_or_else(|| RequestError::InvalidSegmentId.into())
}

/// What a translation memory request does, for what its body and query carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// `GET /v3/translation_memories`: `page`, `page_size`.
    ListMemories,
    /// `POST /v3/translation_memories`: `name`, `source_language`, `target_languages`.
    CreateMemory,
    /// `PATCH /v3/translation_memories/{id}`: `name`.
    Rename,
    /// `GET …/segments`: `page_size`, `page_cursor`, `filter_text`, `filter_case_sensitive`.
    ListSegments,
    /// `POST …/segments`: `segments`, read as the body streams.
    AddSegments,
    /// `POST` and `PUT …/tmx`: the TMX file, raw or as the `file` part of a multipart body.
    ImportTmx,
    /// `POST /v3/translation_memories/import`: `source_file`, `parameters` (JSON objects).
    CreateImport,
    /// `PUT …/jobs/{id}/file`: the TMX file, raw; `token`.
    Upload,
    /// `GET …/jobs/{id}/file`: `token`.
    Download,
    /// Reading and deleting a memory, a segment or a job, exporting TMX: no parameters.
    Plain,
}

impl Operation {
    fn accepted(self) -> Accepted {
        Accepted(match self {
            Operation::ListMemories => &["page", "page_size"],
            Operation::CreateMemory => &["name", "source_language", "target_languages"],
            Operation::Rename => &["name"],
            Operation::ListSegments => &["page_size", "page_cursor", "filter_text", "filter_case_sensitive"],
            Operation::AddSegments => SEGMENTS_ACCEPTED.0,
            Operation::CreateImport => &["source_file", "parameters"],
            Operation::Upload | Operation::Download => &["token"],
            Operation::ImportTmx | Operation::Plain => &[],
        })
    }
}

/// A request's parameters (the body's, then the query string's the body lacks), and what its
/// operation takes besides: the segments sent, or the TMX file.
#[derive(Debug)]
pub struct Body<'a> {
    params: Params,
    segments: Option<Vec<RawSegment>>,
    file: Option<File<'a>>,
}

/// A TMX file: the body itself, or a multipart body's part.
#[derive(Debug)]
enum File<'a> {
    Raw(&'a [u8]),
    Part(bytes::Bytes),
}

impl Body<'_> {
    /// The parameters (the credentials' `auth_key` among them).
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The segments of `POST …/segments`, each checked against the memory's targets; required.
    /// Taken out of the body.
    pub fn segments(&mut self, memory: &TranslationMemory) -> Result<Vec<NewSegment>, ApiError> {
        let raws = self.segments.take().filter(|raws| !raws.is_empty());
        let raws = raws.ok_or_else(|| RequestError::Missing("segments".into()))?;
        let segments = raws
            .into_iter()
            .enumerate()
            .map(|(index, raw)| NewSegment::parse(index, raw, &memory.targets))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(segments)
    }

    /// The file of an upload, as sent.
    pub fn upload(&self) -> &[u8] {
        match &self.file {
            Some(File::Raw(bytes)) => bytes,
            Some(File::Part(bytes)) => bytes,
            None => &[],
        }
    }

    /// The segments the TMX file gives the memory (see [`crate::tmx`]).
    pub fn tmx(&self, memory: &TranslationMemory) -> Result<TmxImport, ApiError> {
        let bytes: &[u8] = match &self.file {
            Some(File::Raw(bytes)) => bytes,
            Some(File::Part(bytes)) => bytes,
            None => return Err(TmxError::Missing.into()),
        };
        Ok(tmx::parse(bytes, memory.source, &memory.targets)?)
    }
}

/// Reads a request's body (by its `Content-Type`) and query string for `operation`: a
/// parameter it does not take, a repeated one, a malformed body and one past its limits are
/// refused, naming them. Bodies of parameters are read up to [`MAX_PARAMS_BYTES`]; segments and
/// TMX files up to the route's limit (`api::limits`), checked when the body was read.
pub fn read(request: &Request, operation: Operation) -> Result<Body<'_>, ApiError> {
    let accepted = operation.accepted();
    let mut body = Body { params: Params::default(), segments: None, file: None };
    match operation {
        Operation::ImportTmx => {
            body.file = Some(file(request)?);
        }
        Operation::Upload => {
            body.file = Some(File::Raw(&request.body));
        }
        Operation::AddSegments if !request.body.is_empty() => match BodyFormat::of(request.header("content-type"))? {
            BodyFormat::Json => {
                let read = request::read_segments_json(&request.body)?;
                body.params = read.params.into_iter().collect();
                body.segments = read.segments;
            }
            BodyFormat::Form(charset) => {
                for (name, value) in form_pairs(&request.body, charset) {
                    accepted.check(&name)?;
                    if body.params.contains(&name) || (name == "segments" && body.segments.is_some()) {
                        return Err(RequestError::Invalid(name).into());
                    }
                    if name == "segments" {
                        body.segments = request::read_segments_text(&value)?;
                    } else {
                        body.params.push(name, serde_json::Value::String(value));
                    }
                }
            }
        },
        _ if !request.body.is_empty() => {
            body.params = Params::from_body_within(request.header("content-type"), &request.body, MAX_PARAMS_BYTES)?;
        }
        _ => {}
    }
    let query = request.query_params();
    for name in query.names() {
        accepted.check(name)?;
        if name == "segments" && body.segments.is_some() {
            return Err(RequestError::Invalid(name.to_owned()).into());
        }
    }
    if operation == Operation::AddSegments
        && body.segments.is_none()
        && let Some(text) = query.string("segments")?
    {
        body.segments = request::read_segments_text(&text)?;
    }
    body.params.merge_missing(query);
    for name in body.params.names() {
        accepted.check(name)?;
    }
    Ok(body)
}

/// The TMX file of an import: the body itself (`application/x-tmx+xml`, `application/xml`,
/// `text/xml`, or no `Content-Type`), or the `file` part of a `multipart/form-data` body.
fn file(request: &Request) -> Result<File<'_>, ApiError> {
    let content_type = request.header("content-type").unwrap_or_default();
    let media_type = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    match media_type.as_str() {
        TMX | "application/xml" | "text/xml" | "" => Ok(File::Raw(&request.body)),
        "multipart/form-data" => Ok(File::Part(tmx::multipart_file(&request.body, content_type)?)),
        other => Err(ApiError::new(
            415,
            format!(
                "Unsupported Content-Type `{other}`: send the TMX file as {TMX} (or application/xml, text/xml), or as the `file` part of multipart/form-data."
            ),
        )
        .with_code("invalid_content_type")),
    }
}

/// A new memory's `name`, `source_language` and `target_languages` (a JSON array, repeated form
/// keys or comma-separated codes).
pub fn new_memory(params: &Params) -> Result<NewMemory, ApiError> {
    let raw = RawMemory {
        name: params.string("name")?,
        source_language: params.string("source_language")?,
        target_languages: params.list("target_languages")?,
    };
    Ok(NewMemory::parse(raw)?)
}

/// The required `name` of a rename.
pub fn name(params: &Params) -> Result<String, ApiError> {
    Ok(request::name(params.string("name")?)?)
}

/// `page` and `page_size` of the memory listing.
pub fn page(params: &Params) -> Result<Page, ApiError> {
    let raw = RawPage { page: params.integer("page")?, page_size: params.integer("page_size")? };
    Ok(Page::parse(raw)?)
}

/// `page_size`, `page_cursor`, `filter_text` and `filter_case_sensitive` of the segment listing.
pub fn segment_query(params: &Params) -> Result<SegmentQuery, ApiError> {
    Ok(SegmentQuery::parse(
        params.integer("page_size")?,
        params.string("page_cursor")?,
        params.string("filter_text")?,
        params.bool("filter_case_sensitive")?,
    )?)
}

/// A job id from a path; anything but a UUID is a 400 (`Invalid job_id`).
pub fn job_id(raw: &str) -> Result<Id, ApiError> {
    Id::parse(raw).ok_or_else(|| ApiError::bad_request("Invalid job_id"))
}

/// The import `POST /v3/translation_memories/import` asks for.
pub fn new_import(params: &Params) -> Result<NewImport, ApiError> {
    Ok(NewImport::parse(params.value("source_file"), params.value("parameters"))?)
}

/// The job an upload or download URL names by its id and `token`; a URL without a token, or
/// with another, is not found.
pub fn job_by_url(
    services: &Services<'_>,
    id: &str,
    params: &Params,
    operation: JobOperation,
) -> Result<Job, ApiError> {
    let id = Id::parse(id).ok_or(JobError::NotFound)?;
    let token = params.string("token")?.ok_or(JobError::NotFound)?;
    Ok(jobs::by_token(services, &id, &token, operation)?)
}

/// The origin the client reached the application at (`http://127.0.0.1:3000`), for the URLs of
/// jobs' files: from the request's URL as the host gives it (`spin-full-url`), with the scheme a
/// proxy in front says it was reached by (`X-Forwarded-Proto`).
pub fn origin(request: &Request) -> String {
    let full = request.header("spin-full-url").unwrap_or_default();
    let (scheme, rest) = full.split_once("://").unwrap_or(("http", full));
    let authority = rest.split(['/', '?']).next().filter(|authority| !authority.is_empty());
    let authority = authority.or(request.header("host")).unwrap_or("localhost");
    let scheme = match request.header("x-forwarded-proto").map(|proto| proto.trim().to_ascii_lowercase()) {
        Some(proto) if proto == "https" || proto == "http" => proto,
        _ => scheme.to_owned(),
    };
    format!("{scheme}://{authority}")
}

/// An export's download: the memory as TMX, as an attachment named after it.
pub fn download_response(memory: &TranslationMemory, segments: &[Segment]) -> ApiResponse {
    let mut response = tmx_response(memory, segments);
    let stem: String = memory
        .name
        .chars()
        .map(|character| if character.is_ascii_alphanumeric() || "-_. ".contains(character) { character } else { '_' })
        .collect();
    let stem = stem.trim();
    let stem = if stem.is_empty() { "translation-memory" } else { stem };
    response.headers.push(("content-disposition".into(), format!("attachment; filename=\"{stem}.tmx\"")));
    response
}

/// A memory's segments as a TMX file, `application/x-tmx+xml` in UTF-8.
pub fn tmx_response(memory: &TranslationMemory, segments: &[Segment]) -> ApiResponse {
    ApiResponse {
        status: 200,
        headers: vec![("content-type".into(), format!("{TMX}; charset=UTF-8"))],
        body: tmx::export(memory, segments).into_bytes(),
    }
}

impl From<RequestError> for ApiError {
    fn from(error: RequestError) -> ApiError {
        ApiError::bad_request(error.to_string())
    }
}

impl From<TmxError> for ApiError {
    fn from(error: TmxError) -> ApiError {
        match error {
            TmxError::TooLarge => ApiError::new(413, error.to_string()),
            refused => ApiError::bad_request(refused.to_string()),
        }
    }
}

impl From<JobError> for ApiError {
    fn from(error: JobError) -> ApiError {
        match error {
            JobError::NotFound => ApiError::not_found(error.to_string()),
            JobError::TooLarge => ApiError::new(413, error.to_string()),
            JobError::UploadUsed => ApiError::new(409, error.to_string()),
            JobError::UploadExpired | JobError::DownloadExpired => ApiError::new(410, error.to_string()),
            JobError::Request(_) | JobError::WrongType { .. } | JobError::WrongLength { .. } => {
                ApiError::bad_request(error.to_string())
            }
            JobError::Memory(error) => error.into(),
            JobError::Tmx(error) => error.into(),
            JobError::Store(cause) => ApiError::internal(&cause),
        }
    }
}

impl From<MemoryError> for ApiError {
    fn from(error: MemoryError) -> ApiError {
        match error {
            MemoryError::NotFound | MemoryError::SegmentNotFound => ApiError::not_found(error.to_string()),
            MemoryError::TooMany => ApiError::new(456, error.to_string()),
            MemoryError::TooManySegments(_) | MemoryError::TooMuchText(_) => ApiError::bad_request(error.to_string()),
            // Nothing was changed, and trying again later may well succeed (clients retry a 503).
            MemoryError::Contended => ApiError::unavailable(error.to_string()),
            MemoryError::Store(cause) => ApiError::internal(&cause),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, query: &str, content_type: Option<&str>, body: &[u8]) -> Request {
        Request {
            method: method.into(),
            path: "/v3/translation_memories".into(),
            query: query.into(),
            headers: content_type
                .map(|value| ("content-type".to_owned(), value.as_bytes().to_vec()))
                .into_iter()
                .collect(),
            body: body.to_vec(),
        }
    }

    fn memory() -> TranslationMemory {
        TranslationMemory {
            id: Id::parse("def3a26b-3e84-45b3-84ae-0c0aaf3525f7").unwrap(),
            name: "TM".into(),
            source: catalogue::find("en").unwrap(),
            targets: vec![catalogue::find("de").unwrap(), catalogue::find("fr").unwrap()],
            segment_count: 0,
        }
    }

    #[test]
    fn ids_that_are_no_uuid_are_a_400_naming_them() {
        let error = memory_id("nope").unwrap_err();
        assert_eq!((error.status, error.message.as_str()), (400, "Invalid translation_memory_id"));
        assert_eq!(segment_id("1").unwrap_err().message, "Invalid segment_id");
        assert_eq!(memory_id("DEF3A26B3E8445B384AE0C0AAF3525F7").unwrap(), memory().id);
    }

    #[test]
    fn json_and_form_bodies_create_the_same_memory() {
        let json = request(
            "POST",
            "",
            Some("application/json"),
            br#"{"name": "TM", "source_language": "EN", "target_languages": ["de", "EN-GB"]}"#,
        );
        let form = request(
            "POST",
            "",
            Some("application/x-www-form-urlencoded"),
            b"name=TM&source_language=en&target_languages=de,en-gb",
        );
        let repeated = request(
            "POST",
            "name=TM",
            Some("application/x-www-form-urlencoded"),
            b"source_language=en&target_languages=de&target_languages=en-GB",
        );
        for request in [json, form, repeated] {
            let body = read(&request, Operation::CreateMemory).unwrap();
            let memory = new_memory(body.params()).unwrap();
            let targets: Vec<String> = memory.targets.iter().map(|language| request::code_of(language)).collect();
            assert_eq!(
                (memory.name.as_str(), memory.source.lang(), targets),
                ("TM", "en", vec!["de".to_owned(), "en-gb".to_owned()])
            );
        }
    }

    #[test]
    fn what_an_operation_does_not_take_is_refused() {
        let error_request = request("GET", "page=1&size=3", None, b"");
        let error = read(&error_request, Operation::ListMemories).unwrap_err();
        assert_eq!(error.message, "Unknown parameter 'size': this request takes 'page', 'page_size'.");
        let patch = request("PATCH", "", Some("application/json"), br#"{"name": "x", "source_language": "de"}"#);
        assert_eq!(read(&patch, Operation::Rename).unwrap_err().status, 400);
        assert!(read(&request("GET", "auth_key=k", None, b""), Operation::Plain).is_ok());
        let big = vec![b' '; MAX_PARAMS_BYTES + 1];
        assert_eq!(
            read(&request("POST", "", Some("application/json"), &big), Operation::CreateMemory).unwrap_err().status,
            413
        );
        assert_eq!(
            read(&request("POST", "", Some("text/plain"), b"x"), Operation::CreateMemory).unwrap_err().status,
            415
        );
    }

    #[test]
    fn pages_and_filters_name_their_parameter() {
        let body_request = request("GET", "page=x", None, b"");
        let body = read(&body_request, Operation::ListMemories).unwrap();
        assert_eq!(page(body.params()).unwrap_err().message, "Value for 'page' not supported.");
        let body_request = request("GET", "page_size=101", None, b"");
        let body = read(&body_request, Operation::ListSegments).unwrap();
        assert_eq!(
            segment_query(body.params()).unwrap_err().message,
            "Value for 'page_size' not supported: it must be an integer from 1 to 100."
        );
        let body_request = request("GET", "filter_text=ab%20c&filter_case_sensitive=true&page_size=3", None, b"");
        let body = read(&body_request, Operation::ListSegments).unwrap();
        let query = segment_query(body.params()).unwrap();
        assert_eq!(query.page_size, 3);
        assert!(query.filter.unwrap().matches("xab c") && query.after.is_none());
        let body_request = request("GET", "filter_text=a", None, b"");
        let body = read(&body_request, Operation::ListSegments).unwrap();
        assert_eq!(
            segment_query(body.params()).unwrap_err().message,
            "Value for 'filter_text' not supported: it must be at least 2 characters long."
        );
        let body_request = request("GET", "page=1", None, b"");
        assert_eq!(read(&body_request, Operation::ListSegments).unwrap_err().status, 400, "cursors, not pages");
    }

    #[test]
    fn segments_come_as_json_or_as_a_form_s_json_text() {
        let json = request(
            "POST",
            "",
            Some("application/json"),
            br#"{"segments": [{"source": "Hello", "target": "Hallo", "target_language": "de"}]}"#,
        );
        let form = request(
            "POST",
            "",
            Some("application/x-www-form-urlencoded"),
            b"segments=%5B%7B%22source%22%3A%22Hello%22%2C%22target%22%3A%22Hallo%22%2C%22target_language%22%3A%22de%22%7D%5D",
        );
        for request in [json, form] {
            let mut body = read(&request, Operation::AddSegments).unwrap();
            let segments = body.segments(&memory()).unwrap();
            assert_eq!(segments.len(), 1);
            assert_eq!((segments[0].source.as_str(), segments[0].target.as_str()), ("Hello", "Hallo"));
        }
        let empty_request = request("POST", "", Some("application/json"), br#"{"segments": []}"#);
        let mut empty = read(&empty_request, Operation::AddSegments).unwrap();
        assert_eq!(empty.segments(&memory()).unwrap_err().message, "Parameter 'segments' not specified");
        let wrong_request = request("POST", "", Some("application/json"), br#"{"segments": 5}"#);
        let wrong = read(&wrong_request, Operation::AddSegments);
        assert_eq!(
            wrong.unwrap_err().message,
            "Value for 'segments' not supported: it must be an array of segment objects."
        );
    }

    #[test]
    fn a_tmx_file_comes_raw_or_as_a_multipart_part_and_nothing_else() {
        let file = "<tmx><body><tu><tuv xml:lang=\"en\"><seg>Hello</seg></tuv><tuv xml:lang=\"de\"><seg>Hallo</seg></tuv></tu></body></tmx>";
        let multipart = format!(
            "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.tmx\"\r\n\r\n{file}\r\n--b--\r\n"
        );
        for (content_type, body) in [
            (Some(TMX), file.to_owned()),
            (Some("text/xml; charset=utf-8"), file.to_owned()),
            (None, file.to_owned()),
            (Some("multipart/form-data; boundary=b"), multipart),
        ] {
            let read_request = request("POST", "", content_type, body.as_bytes());
            let read = read(&read_request, Operation::ImportTmx).unwrap();
            assert_eq!(read.tmx(&memory()).unwrap().segments.len(), 1, "{content_type:?}");
        }
        let form = request("POST", "", Some("application/x-www-form-urlencoded"), file.as_bytes());
        assert_eq!(read(&form, Operation::ImportTmx).unwrap_err().status, 415);
        let empty_request = request("PUT", "", Some(TMX), b"");
        let empty = read(&empty_request, Operation::ImportTmx).unwrap();
        assert_eq!(empty.tmx(&memory()).unwrap_err().message, "Parameter 'file' not specified");
    }

    #[test]
    fn failures_answer_with_their_status() {
        let status = |error: MemoryError| ApiError::from(error).status;
        assert_eq!(status(MemoryError::NotFound), 404);
        assert_eq!(status(MemoryError::SegmentNotFound), 404);
        assert_eq!(status(MemoryError::TooMany), 456);
        assert_eq!(status(MemoryError::TooManySegments(1)), 400);
        assert_eq!(status(MemoryError::Contended), 503);
        assert_eq!(ApiError::from(TmxError::TooLarge).status, 413);
        assert_eq!(ApiError::from(TmxError::NoRoot).status, 400);
    }
}
