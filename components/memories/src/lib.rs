//! Component `memories`: translation memories, for developer keys.
//!
//! * `GET /v3/translation_memories` (`page`, `page_size`), `POST /v3/translation_memories`
//!   (`name`, `source_language`, `target_languages`) → 201
//! * `GET`, `PATCH` (`name`), `DELETE /v3/translation_memories/{id}` → 204
//! * `GET …/{id}/segments` (`page`, `page_size`, `target_language`), `POST …/{id}/segments`
//!   (`segments`) → 201, `DELETE …/{id}/segments/{segment_id}` → 204
//! * `GET …/{id}/tmx` (the memory as a TMX file), `POST …/{id}/tmx` (append a TMX file's
//!   segments), `PUT …/{id}/tmx` (replace all segments with a TMX file's)
//!
//! Another subscription's memory answers 404, like an unknown one. Bodies up to 128 KiB are read
//! before the key is checked; a larger one (a TMX file, up to 64 MiB) only once the key in its
//! `Authorization` header is known to be a developer key.

use accounts::{Access, Principal};
use api::{ApiError, ApiResponse, Request};
use memory::store::{self, ImportMode};
use memory::{
    Listing, MemoryListing, MemoryObject, Operation, SegmentListing, SegmentsAdded, TmxImported, memory_id, segment_id,
};
use platform_spin::{Host, serve_admitted};
use spin_sdk::http::{IncomingRequest, ResponseOutparam};
use spin_sdk::http_component;

#[http_component]
fn handle(request: IncomingRequest, out: ResponseOutparam) {
    serve_admitted(request, out, admit, route);
}

/// Before a body larger than an unauthenticated request may send is read: the key in the
/// `Authorization` header must be a valid developer key. The principal goes on to [`route`],
/// which does not authenticate the request again, so that it counts once against its key's rate.
fn admit(head: &Request) -> Result<Principal, ApiError> {
    let host = Host::for_request(head)?;
    accounts::authenticate_header(&host.services(), head, Access::Developer)
}

/// What a path of this component names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Endpoint<'a> {
    /// `/v3/translation_memories`
    Collection,
    /// `/v3/translation_memories/{id}`
    Memory(&'a str),
    /// `/v3/translation_memories/{id}/segments`
    Segments(&'a str),
    /// `/v3/translation_memories/{id}/segments/{segment_id}`
    Segment(&'a str, &'a str),
    /// `/v3/translation_memories/{id}/tmx`
    Tmx(&'a str),
}

impl<'a> Endpoint<'a> {
    fn of(path: &'a str) -> Option<Endpoint<'a>> {
        let rest = path.strip_prefix("/v3/translation_memories")?;
        if !rest.is_empty() && !rest.starts_with('/') {
            return None;
        }
        let parts: Vec<&str> = rest.split('/').skip(1).collect();
        match parts.as_slice() {
            [] => Some(Endpoint::Collection),
            [id] if !id.is_empty() => Some(Endpoint::Memory(id)),
            [id, "segments"] if !id.is_empty() => Some(Endpoint::Segments(id)),
            [id, "segments", segment] if !id.is_empty() && !segment.is_empty() => Some(Endpoint::Segment(id, segment)),
            [id, "tmx"] if !id.is_empty() => Some(Endpoint::Tmx(id)),
            _ => None,
        }
    }

    fn methods(self) -> &'static [&'static str] {
        match self {
            Endpoint::Collection | Endpoint::Segments(_) => &["GET", "POST"],
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
            (Endpoint::Memory(_), "PATCH") => Operation::Rename,
            (Endpoint::Segments(_), "POST") => Operation::AddSegments,
            (Endpoint::Segments(_), _) => Operation::ListSegments,
            (Endpoint::Tmx(_), "POST" | "PUT") => Operation::ImportTmx,
            _ => Operation::Plain,
        }
    }
}

/// `admitted`: the principal [`admit`] authenticated, if the body was large enough for it to run.
fn route(request: &Request, admitted: Option<Principal>) -> Result<ApiResponse, ApiError> {
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
            let page = memory::page(body.params(), Listing::Memories)?;
            let (memories, total) = store::list(db, subscription, page)?;
            Ok(ApiResponse::json(200, &MemoryListing::new(&memories, total)))
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
            let found = store::get(db, subscription, &id)?;
            let page = memory::page(body.params(), Listing::Segments)?;
            let target = memory::target_filter(body.params(), &found)?;
            let (segments, total) = store::segments(db, subscription, &id, target, page)?;
            Ok(ApiResponse::json(200, &SegmentListing::new(&segments, total)))
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
    }
}

fn no_content() -> ApiResponse {
    ApiResponse { status: 204, headers: Vec::new(), body: Vec::new() }
}
