//! Component `memories`: translation memories, for developer keys.
//!
//! * `GET /v3/translation_memories` (`page`, `page_size`), `POST /v3/translation_memories`
//!   (`name`, `source_language`, `target_languages`) → 201
//! * `GET`, `PATCH` (`name`), `DELETE /v3/translation_memories/{id}` → 204
//! * `GET …/{id}/segments` (`page_size`, `page_cursor`, `filter_text`, `filter_case_sensitive`),
//!   `POST …/{id}/segments` (`segments`) → 201, `DELETE …/{id}/segments/{segment_id}` → 204
//! * `GET …/{id}/tmx` (the memory as a TMX file), `POST …/{id}/tmx` (append a TMX file's
//!   segments), `PUT …/{id}/tmx` (replace all segments with a TMX file's)
//! * Jobs (`memory::jobs`): `POST /v3/translation_memories/import` (`source_file`,
//!   `parameters`) → 201 with an upload URL, `PUT …/jobs/{job_id}/file?token=` (the TMX file; no
//!   key: the token is the credential), `POST …/{id}/export` → 202 (200: reused),
//!   `GET …/jobs/{job_id}`, `GET …/jobs/{job_id}/file?token=` (an export's TMX file; no key)
//!
//! Another subscription's memory or job answers 404, like an unknown one. Bodies up to 128 KiB
//! are read before the key is checked; a larger one (a TMX file, up to 64 MiB) only once the key
//! in its `Authorization` header is known to be a developer key, or, for an upload, once the URL's
//! token is known to be an import's that awaits a file of that type and length.

use accounts::{Access, Principal};
use api::{ApiError, ApiResponse, Request};
use memory::jobs::{self, JobOperation};
use memory::store::{self, ImportMode};
use memory::{
    ImportCreated, JobObject, MemoryListing, MemoryObject, Operation, SegmentListing, SegmentsAdded, TmxImported,
    job_id, memory_id, segment_id,
};
use platform_spin::{Host, Services, serve_admitted};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve_admitted(request, out, admit, route);
}

/// Before a body larger than an unauthenticated request may send is read: the key in the
/// `Authorization` header must be a valid developer key, or, for an upload, the URL must be an
/// import's awaiting a file of the type and length the request announces. A principal goes on to
/// [`route`], which does not authenticate the request again, so that it counts once against its
/// key's rate; an upload's job is checked again there, when it is claimed.
fn admit(head: &Request) -> Result<Option<Principal>, ApiError> {
    let host = Host::for_request(head)?;
    let services = host.services();
    if let Some(Endpoint::JobFile(id)) = Endpoint::of(head.path.trim_end_matches('/'))
        && head.method == "PUT"
    {
        let job = memory::job_by_url(&services, id, &head.query_params(), JobOperation::Import)?;
        let length = head.header("content-length").and_then(|length| length.trim().parse().ok());
        jobs::check_upload(&job, head.header("content-type"), length)?;
        return Ok(None);
    }
    accounts::authenticate_header(&services, head, Access::Developer).map(Some)
}

/// What a path of this component names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Endpoint<'a> {
    /// `/v3/translation_memories`
    Collection,
    /// `/v3/translation_memories/import`
    Import,
    /// `/v3/translation_memories/jobs/{job_id}`
    Job(&'a str),
    /// `/v3/translation_memories/jobs/{job_id}/file`: an import's upload, an export's download.
    JobFile(&'a str),
    /// `/v3/translation_memories/{id}`
    Memory(&'a str),
    /// `/v3/translation_memories/{id}/export`
    Export(&'a str),
    /// `/v3/translation_memories/{id}/segments`
    Segments(&'a str),
    /// `/v3/translation_memories/{id}/segments/{segment_id}`
    Segment(&'a str, &'a str),
    /// `/v3/translation_memories/{id}/tmx`
    Tmx(&'a str),
}

impl<'a> Endpoint<'a> {
    fn of(path: &'a str) -> Option<Endpoint<'a>> {
        let parts = api::path_segments(path, "/v3/translation_memories")?;
        match parts.as_slice() {
            [] => Some(Endpoint::Collection),
            ["import"] => Some(Endpoint::Import),
            ["jobs", job] if !job.is_empty() => Some(Endpoint::Job(job)),
            ["jobs", job, "file"] if !job.is_empty() => Some(Endpoint::JobFile(job)),
            [id] if !id.is_empty() => Some(Endpoint::Memory(id)),
            [id, "export"] if !id.is_empty() => Some(Endpoint::Export(id)),
            [id, "segments"] if !id.is_empty() => Some(Endpoint::Segments(id)),
            [id, "segments", segment] if !id.is_empty() && !segment.is_empty() => Some(Endpoint::Segment(id, segment)),
            [id, "tmx"] if !id.is_empty() => Some(Endpoint::Tmx(id)),
            _ => None,
        }
    }

    fn methods(self) -> &'static [&'static str] {
        match self {
            Endpoint::Collection | Endpoint::Segments(_) => &["GET", "POST"],
            Endpoint::Import | Endpoint::Export(_) => &["POST"],
            Endpoint::Job(_) => &["GET"],
            Endpoint::JobFile(_) => &["GET", "PUT"],
            Endpoint::Memory(_) => &["GET", "PATCH", "DELETE"],
            Endpoint::Segment(..) => &["DELETE"],
            Endpoint::Tmx(_) => &["GET", "POST", "PUT"],
        }
    }

    /// What a request with `method` does here, for what its body carries.
    fn operation(self, method: &str) -> Operation {
        match (self, method) {
            (Endpoint::Collection, "POST") => Operation::CreateMemory,
            (Endpoint::Collection, _) => Operation::ListMemories,
            (Endpoint::Import, _) => Operation::CreateImport,
            (Endpoint::JobFile(_), "PUT") => Operation::Upload,
            (Endpoint::JobFile(_), _) => Operation::Download,
            (Endpoint::Memory(_), "PATCH") => Operation::Rename,
            (Endpoint::Segments(_), "POST") => Operation::AddSegments,
            (Endpoint::Segments(_), _) => Operation::ListSegments,
            (Endpoint::Tmx(_), "POST" | "PUT") => Operation::ImportTmx,
            _ => Operation::Plain,
        }
    }
}

/// `admitted`: what [`admit`] found, if the body was large enough for it to run.
fn route(request: &Request, admitted: Option<Option<Principal>>) -> Result<ApiResponse, ApiError> {
    let endpoint = Endpoint::of(request.path.trim_end_matches('/')).ok_or_else(|| ApiError::not_found("Not found."))?;
    let method = request.method.as_str();
    if !endpoint.methods().contains(&method) {
        return Err(ApiError::method_not_allowed(endpoint.methods()));
    }
    let host = Host::for_request(request)?;
    let services = host.services();
    // The body is read for what the operation takes: parameters, segments as they stream, or a
    // TMX file. Its `auth_key`, if any, is a credential like the header; a request `admit`
    // authenticated carries the header, which always wins, and is not counted twice.
    let mut body = memory::read(request, endpoint.operation(method))?;
    // A job's file is reached by its URL's token, without a key (as clients call storage URLs).
    if let Endpoint::JobFile(id) = endpoint {
        return job_file(request, &services, id, &body);
    }
    let admitted = admitted.flatten();
    let principal = accounts::admitted_principal(&services, request, body.params(), admitted, Access::Developer)?;
    let subscription = principal.subscription.id.as_str();
    let db = services.db;

    match (endpoint, method) {
        (Endpoint::Collection, "POST") => {
            let new = memory::new_memory(body.params())?;
            let created = store::create(&services, subscription, &new)?;
            Ok(ApiResponse::json(201, &MemoryObject::from(&created)))
        }
        (Endpoint::Collection, _) => {
            let page = memory::page(body.params())?;
            let (memories, total) = store::list(db, subscription, page)?;
            Ok(ApiResponse::json(200, &MemoryListing::new(&memories, total)))
        }
        (Endpoint::Import, _) => {
            let new = memory::new_import(body.params())?;
            let job = jobs::create_import(&services, subscription, &new)?;
            Ok(ApiResponse::json(201, &ImportCreated::new(&job, &memory::origin(request))))
        }
        (Endpoint::Job(id), _) => {
            let job = jobs::get(&services, subscription, &job_id(id)?)?;
            Ok(ApiResponse::json(200, &JobObject::new(&job, &memory::origin(request))))
        }
        (Endpoint::Export(id), _) => {
            let (job, reused) = jobs::create_export(&services, subscription, &memory_id(id)?)?;
            let status = if reused { 200 } else { 202 };
            Ok(ApiResponse::json(status, &JobObject::new(&job, &memory::origin(request))))
        }
        (Endpoint::Memory(id), "PATCH") => {
            let id = memory_id(id)?;
            let name = memory::name(body.params())?;
            let renamed = store::rename(db, subscription, &id, &name)?;
            Ok(ApiResponse::json(200, &MemoryObject::from(&renamed)))
        }
        (Endpoint::Memory(id), "DELETE") => {
            store::delete(db, subscription, &memory_id(id)?)?;
            Ok(no_content())
        }
        (Endpoint::Memory(id), _) => {
            let found = store::get(db, subscription, &memory_id(id)?)?;
            Ok(ApiResponse::json(200, &MemoryObject::from(&found)))
        }
        (Endpoint::Segments(id), "POST") => {
            let id = memory_id(id)?;
            let found = store::get(db, subscription, &id)?;
            let segments = body.segments(&found)?;
            let added = store::add_segments(&services, subscription, &id, &segments)?;
            Ok(ApiResponse::json(201, &SegmentsAdded::from(&added)))
        }
        (Endpoint::Segments(id), _) => {
            let id = memory_id(id)?;
            let query = memory::segment_query(body.params())?;
            let page = store::source_segments(db, subscription, &id, &query)?;
            Ok(ApiResponse::json(200, &SegmentListing::from(&page)))
        }
        (Endpoint::Segment(id, segment), _) => {
            let (id, segment) = (memory_id(id)?, segment_id(segment)?);
            store::delete_segment(db, subscription, &id, &segment)?;
            Ok(no_content())
        }
        (Endpoint::Tmx(id), "GET") => {
            let (found, segments) = store::export(db, subscription, &memory_id(id)?)?;
            Ok(memory::tmx_response(&found, &segments))
        }
        (Endpoint::Tmx(id), _) => {
            let id = memory_id(id)?;
            let found = store::get(db, subscription, &id)?;
            let file = body.tmx(&found)?;
            let mode = if method == "PUT" { ImportMode::Replace } else { ImportMode::Append };
            let imported = store::import(&services, subscription, &id, &file.segments, mode)?;
            Ok(ApiResponse::json(200, &TmxImported::new(&imported, file.skipped)))
        }
        (Endpoint::JobFile(_), _) => unreachable!("answered above"),
    }
}

/// `PUT …/jobs/{id}/file`: an import's file, made a memory in this request; the job as it ends
/// (200), or why the file was refused (the job, failed, says the same). `GET`: an export's file.
fn job_file(
    request: &Request,
    services: &Services<'_>,
    id: &str,
    body: &memory::Body<'_>,
) -> Result<ApiResponse, ApiError> {
    if request.method == "PUT" {
        let job = memory::job_by_url(services, id, body.params(), JobOperation::Import)?;
        let (job, outcome) = jobs::upload(services, &job, request.header("content-type"), body.upload())?;
        outcome?;
        return Ok(ApiResponse::json(200, &JobObject::new(&job, &memory::origin(request))));
    }
    let job = memory::job_by_url(services, id, body.params(), JobOperation::Export)?;
    let (found, segments) = jobs::download(services, &job)?;
    Ok(memory::download_response(&found, &segments))
}

fn no_content() -> ApiResponse {
    ApiResponse { status: 204, headers: Vec::new(), body: Vec::new() }
}
