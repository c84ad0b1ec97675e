//! A component's request pipeline: the raw `wasi:http` request in, the handler's outcome out.

/// Sends a handler's outcome as the answer to a request taken as the raw `wasi:http` pair
/// (`#[http_component] fn handle(request: IncomingRequest, out: ResponseOutparam)`; [`serve`]
/// answers through here), adding the `X-Trace-ID` header every response of the API carries (a
/// random 32-hex-digit request id).
///
/// The head goes out, then the body: up to 4 KiB in a single blocking write, more in writes as
/// large as the host accepts (`streams::write_all`). The SDK's response path
/// checks and polls the body stream around each write instead, about a dozen more host calls.
pub fn send(out: spin_sdk::http::ResponseOutparam, outcome: Result<api::ApiResponse, api::ApiError>) {
    use spin_sdk::http::{Fields, OutgoingBody, OutgoingResponse};

    let mut response = traced(outcome);
    let headers: Vec<(String, Vec<u8>)> =
        response.headers.into_iter().map(|(name, value)| (name, value.into_bytes())).collect();
    let fields = Fields::from_list(&headers).unwrap_or_else(|error| {
        let names: Vec<&str> = headers.iter().map(|(name, _)| name.as_str()).collect();
        eprintln!("cannot send the response headers {names:?}: {error:?}");
        response.status = 500;
        response.body.clear();
        Fields::new()
    });
    let outgoing = OutgoingResponse::new(fields);
    if outgoing.set_status_code(response.status).is_err() {
        eprintln!("cannot send the response status {}", response.status);
        let _ = outgoing.set_status_code(500);
        response.body.clear();
    }
    let body = outgoing.body().expect("a new response's body is there to take");
    out.set(outgoing);
    let stream = body.write().expect("a new body's stream is there to take");
    if let Err(error) = crate::streams::write_all(&stream, &response.body) {
        eprintln!("cannot send the response body: {error}");
    }
    drop(stream);
    if let Err(error) = OutgoingBody::finish(body, None) {
        eprintln!("cannot finish the response body: {error:?}");
    }
}

/// The outcome as a response with its `X-Trace-ID` header.
fn traced(outcome: Result<api::ApiResponse, api::ApiError>) -> api::ApiResponse {
    outcome.unwrap_or_else(api::ApiResponse::from).with_header("x-trace-id", trace_id())
}

fn trace_id() -> String {
    use platform::{OsRandom, Random};
    use std::fmt::Write as _;
    let mut bytes = [0u8; 16];
    OsRandom.fill(&mut bytes);
    let mut id = String::with_capacity(32);
    for byte in bytes {
        let _ = write!(id, "{byte:02x}");
    }
    id
}

/// A component's whole request pipeline: reads the raw `wasi:http` request (the method, the
/// path and query as sent, every header field, the body within its route's limit), hands it to
/// `route`, and sends the outcome (see [`send`]). A component's handler is
/// `#[http_component] fn handle(request: IncomingRequest, out: ResponseOutparam) { serve(request,
/// out, route) }`.
///
/// The body is read within [`api::limits`]: a `Content-Length` over the route's limit answers
/// `413` before anything is read, and so does a body that streams in beyond it. Without an
/// `Authorization` header no more than [`api::limits::UNAUTHENTICATED_BODY_BYTES`] is read. For
/// routes that allow more, see [`serve_admitted`].
pub fn serve(
    request: spin_sdk::http::IncomingRequest,
    out: spin_sdk::http::ResponseOutparam,
    route: impl FnOnce(&api::Request) -> Result<api::ApiResponse, api::ApiError>,
) {
    serve_admitted(request, out, |_| Ok(()), |request, _: Option<()>| route(request));
}

/// [`serve`] for routes whose bodies may be larger than
/// [`api::limits::UNAUTHENTICATED_BODY_BYTES`]: before the body is read past that size, `admit`
/// sees the request's head (method, path, query, headers; an empty body) and may refuse it, so
/// that a large body is read only for a request whose key has been checked.
///
/// What `admit` answers (the principal it authenticated, say) is handed to `route`: `Some` when
/// `admit` ran, `None` when the body was small enough to be read without it. `admit` runs at
/// most once, so a route that uses its answer instead of authenticating again counts a request
/// once against its key's rate, however large its body.
pub fn serve_admitted<A>(
    request: spin_sdk::http::IncomingRequest,
    out: spin_sdk::http::ResponseOutparam,
    admit: impl FnOnce(&api::Request) -> Result<A, api::ApiError>,
    route: impl FnOnce(&api::Request, Option<A>) -> Result<api::ApiResponse, api::ApiError>,
) {
    serve_then(request, out, admit, |request, admitted| route(request, admitted).map(Answer::from));
}

/// A response, and work to do once it has been sent (a document's translation after its upload).
pub struct Answer {
    pub response: api::ApiResponse,
    pub then: Option<Box<dyn FnOnce()>>,
}

impl From<api::ApiResponse> for Answer {
    fn from(response: api::ApiResponse) -> Answer {
        Answer { response, then: None }
    }
}

/// [`serve_admitted`] for handlers that go on working after their response: the response is
/// sent, its body finished, and then `then` runs, in the same invocation.
///
/// The host decides how long that may take: `spin up` delivers the response when it is set and
/// lets the handler run to its end; the local runner does the same within the request's time
/// budget. A host may also stop the instance once it has answered, so such work must be
/// resumable by a later request (documents: any status call goes on with the work).
pub fn serve_then<A>(
    request: spin_sdk::http::IncomingRequest,
    out: spin_sdk::http::ResponseOutparam,
    admit: impl FnOnce(&api::Request) -> Result<A, api::ApiError>,
    route: impl FnOnce(&api::Request, Option<A>) -> Result<Answer, api::ApiError>,
) {
    let mut then = None;
    let outcome = read(request, admit).and_then(|(request, admitted)| route(&request, admitted)).map(|answer| {
        then = answer.then;
        answer.response
    });
    send(out, outcome);
    if let Some(work) = then {
        work();
    }
}

/// Reads a request taken as the raw `wasi:http` pair into what the handlers see: the method,
/// the path and query as sent, every header field (a repeated header keeps all its values, in
/// the order sent), and the body (see [`serve`] for its limits); with what `admit` answered, if
/// the body was large enough for it to run.
///
/// The SDK's own [`Request`] keeps one value per header name (the last), so a handler could not
/// tell a repeated header from a single one; it also takes the URL apart in three host calls
/// and reads the body through its async executor. Here the head is one call each for the
/// method, the path and the header entries, and the body one blocking read per 64 KiB.
///
/// A body that cannot be read to its end (the client went away, or sent less than it
/// announced) answers 400.
///
/// [`Request`]: spin_sdk::http::Request
fn read<A>(
    request: spin_sdk::http::IncomingRequest,
    admit: impl FnOnce(&api::Request) -> Result<A, api::ApiError>,
) -> Result<(api::Request, Option<A>), api::ApiError> {
    let method = request.method().to_string().to_ascii_uppercase();
    let target = request.path_with_query().unwrap_or_else(|| "/".to_owned());
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path.to_owned(), query.to_owned()),
        None => (target, String::new()),
    };
    let headers =
        request.headers().entries().into_iter().map(|(name, value)| (name.to_ascii_lowercase(), value)).collect();
    let mut head = api::Request { method, path, query, headers, body: Vec::new() };
    let limits = BodyLimits::of(&head)?;
    let (body, admitted) = read_body(&request, &limits, || admit(&head))?;
    head.body = body;
    Ok((head, admitted))
}

/// How much of a request's body may be read, and when its head must be admitted first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BodyLimits {
    /// The route's limit.
    route: usize,
    /// What is read before `admit` runs: the smaller of the route's limit and
    /// [`api::limits::UNAUTHENTICATED_BODY_BYTES`].
    unadmitted: usize,
    /// Whether the request carries an `Authorization` header, or a URL that carries its own
    /// credential (`api::limits::url_carries_credential`); without either, nothing is read past
    /// `unadmitted`.
    authorized: bool,
    /// The `Content-Length` the client announced, if any.
    declared: Option<usize>,
}

impl BodyLimits {
    /// The limits of a request, refusing at once a `Content-Length` beyond them.
    fn of(head: &api::Request) -> Result<BodyLimits, api::ApiError> {
        let route = api::limits::body_limit(&head.path);
        let limits = BodyLimits {
            route,
            unadmitted: route.min(api::limits::UNAUTHENTICATED_BODY_BYTES),
            authorized: head.header("authorization").is_some()
                || api::limits::url_carries_credential(&head.path, &head.query),
            declared: head.header("content-length").and_then(|length| length.trim().parse().ok()),
        };
        match limits.declared {
            Some(length) => limits.check(length).map(|()| limits),
            None => Ok(limits),
        }
    }

    /// Whether `length` bytes may be read, or the 413 that says why not.
    fn check(&self, length: usize) -> Result<(), api::ApiError> {
        if length > self.route {
            Err(api::limits::too_large(self.route))
        } else if length > self.unadmitted && !self.authorized {
            Err(api::limits::too_large_unauthenticated())
        } else {
            Ok(())
        }
    }
}

/// Reads the body within `limits`, calling `admit` before reading past `limits.unadmitted`
/// (see [`read_within`]).
fn read_body<A>(
    request: &spin_sdk::http::IncomingRequest,
    limits: &BodyLimits,
    admit: impl FnOnce() -> Result<A, api::ApiError>,
) -> Result<(Vec<u8>, Option<A>), api::ApiError> {
    use spin_sdk::wit::wasi::http0_2_0::types::IncomingBody;

    let unreadable = |error: String| api::ApiError::bad_request(format!("The request body could not be read: {error}"));
    let body = request.consume().map_err(|()| unreadable("it was already taken".to_owned()))?;
    let stream = body.stream().map_err(|()| unreadable("its stream was already taken".to_owned()))?;
    let read =
        read_within(limits, |bytes, most| crate::streams::read_until(&stream, bytes, most).map_err(unreadable), admit)?;
    drop(stream);
    // Trailers are not used; finishing the body tells the host it was read to its end.
    drop(IncomingBody::finish(body));
    Ok(read)
}

/// The body within `limits`, read by `read_until` (which appends to the bytes until the body's
/// end, `true`, or until they hold more than the size given, `false`), and what `admit`
/// answered if it ran. `admit` runs at most once: before anything is read when the declared
/// length is over `limits.unadmitted`, else once the body streams past it; a smaller body is
/// read without it.
fn read_within<A>(
    limits: &BodyLimits,
    mut read_until: impl FnMut(&mut Vec<u8>, usize) -> Result<bool, api::ApiError>,
    admit: impl FnOnce() -> Result<A, api::ApiError>,
) -> Result<(Vec<u8>, Option<A>), api::ApiError> {
    let mut admit = Some(admit);
    let mut admitted = None;
    if limits.declared.is_some_and(|length| length > limits.unadmitted) {
        admitted = Some((admit.take().expect("not yet admitted"))()?);
    }
    let mut bytes = Vec::with_capacity(limits.declared.unwrap_or(0).min(limits.unadmitted));
    let mut ended = read_until(&mut bytes, limits.unadmitted)?;
    if !ended {
        limits.check(bytes.len())?;
        if let Some(admit) = admit.take() {
            admitted = Some(admit()?);
        }
        // Admitted, the body's declared length is taken at once: a large one growing by doubling
        // would hold one and a half times its size while it is copied.
        if let Some(length) = limits.declared {
            bytes.reserve_exact(length.saturating_sub(bytes.len()));
        }
        ended = read_until(&mut bytes, limits.route)?;
    }
    if !ended {
        return Err(api::limits::too_large(limits.route));
    }
    limits.check(bytes.len())?;
    Ok((bytes, admitted))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(path: &str, headers: &[(&str, &str)]) -> api::Request {
        api::Request {
            method: "POST".into(),
            path: path.into(),
            query: String::new(),
            headers: headers.iter().map(|(name, value)| (name.to_string(), value.as_bytes().to_vec())).collect(),
            body: Vec::new(),
        }
    }

    #[test]
    fn a_declared_length_over_the_route_limit_is_refused_before_reading() {
        let error = BodyLimits::of(&head("/v2/translate", &[("content-length", "200000")])).unwrap_err();
        assert_eq!(error.status, 413);
        assert!(error.message.contains("128 KiB"), "{}", error.message);
        let fits = BodyLimits::of(&head("/v2/translate", &[("content-length", "1000")])).unwrap();
        assert_eq!((fits.route, fits.unadmitted, fits.declared), (128 * 1024, 128 * 1024, Some(1000)));
    }

    #[test]
    fn without_a_key_header_a_large_route_reads_no_more_than_the_small_limit() {
        let anonymous = head("/v3/glossaries", &[("content-length", "1000000")]);
        let error = BodyLimits::of(&anonymous).unwrap_err();
        assert_eq!(error.status, 413);
        assert!(error.message.contains("Authorization"), "{}", error.message);

        let keyed = head("/v3/glossaries", &[("content-length", "1000000"), ("authorization", "Service-Auth-Key k")]);
        let limits = BodyLimits::of(&keyed).unwrap();
        assert_eq!(limits.unadmitted, api::limits::UNAUTHENTICATED_BODY_BYTES);
        assert!(limits.check(api::limits::body_limit("/v3/glossaries") + 1).is_err());
    }

    /// The body's length and what `admit` answered, or the error's status.
    type Outcome = Result<(usize, Option<&'static str>), u16>;

    /// What [`read_within`] did with a body of `size` bytes (read from memory 64 KiB at a time,
    /// as a stream is) under the limits of `head`, `admit` answering `admission`: each step in
    /// order (`read <bytes so far>`, `admit`), and the outcome.
    fn read_logged(head: &api::Request, size: usize, admission: Result<&'static str, u16>) -> (Vec<String>, Outcome) {
        let body = vec![b'x'; size];
        let steps = std::cell::RefCell::new(Vec::new());
        let mut offset = 0;
        let read_until = |bytes: &mut Vec<u8>, most: usize| {
            while bytes.len() <= most && offset < body.len() {
                let end = (offset + (64 << 10)).min(body.len());
                bytes.extend_from_slice(&body[offset..end]);
                offset = end;
            }
            steps.borrow_mut().push(format!("read {}", bytes.len()));
            Ok(bytes.len() <= most)
        };
        let admit = || {
            steps.borrow_mut().push("admit".to_owned());
            admission.map_err(|status| api::ApiError::new(status, "refused"))
        };
        let outcome = BodyLimits::of(head)
            .and_then(|limits| read_within(&limits, read_until, admit))
            .map(|(bytes, admitted)| (bytes.len(), admitted))
            .map_err(|error| error.status);
        (steps.into_inner(), outcome)
    }

    const KEY: (&str, &str) = ("authorization", "Service-Auth-Key k");

    #[test]
    fn a_body_within_the_unauthenticated_limit_is_read_without_admitting_it() {
        let (steps, outcome) = read_logged(&head("/v3/glossaries", &[KEY, ("content-length", "1000")]), 1000, Ok("p"));
        assert_eq!(steps, ["read 1000"]);
        assert_eq!(outcome, Ok((1000, None)), "the route authenticates it itself");
        let (steps, outcome) = read_logged(&head("/v3/glossaries", &[]), 1000, Ok("p"));
        assert_eq!((steps.len(), outcome), (1, Ok((1000, None))));
    }

    #[test]
    fn a_declared_large_body_is_admitted_once_before_anything_is_read_and_the_route_gets_the_answer() {
        let size = 300 << 10;
        let length = size.to_string();
        let (steps, outcome) =
            read_logged(&head("/v3/glossaries", &[KEY, ("content-length", &length)]), size, Ok("principal"));
        assert_eq!(steps[0], "admit");
        assert_eq!(steps.iter().filter(|step| *step == "admit").count(), 1, "{steps:?}");
        assert_eq!(outcome, Ok((size, Some("principal"))));
    }

    #[test]
    fn a_declared_large_body_is_read_into_room_for_exactly_its_length() {
        let size = (3 << 20) + 12_345;
        let length = size.to_string();
        let limits = BodyLimits::of(&head("/v3/glossaries", &[KEY, ("content-length", &length)])).unwrap();
        let body = vec![b'x'; size];
        let mut offset = 0;
        let read_until = |bytes: &mut Vec<u8>, most: usize| {
            while bytes.len() <= most && offset < body.len() {
                let end = (offset + (64 << 10)).min(body.len());
                bytes.extend_from_slice(&body[offset..end]);
                offset = end;
            }
            Ok(bytes.len() <= most)
        };
        let (bytes, _) = read_within(&limits, read_until, || Ok(())).unwrap();
        assert_eq!((bytes.len(), bytes.capacity()), (size, size), "never grown by doubling");
    }

    #[test]
    fn a_streamed_large_body_is_admitted_once_when_it_passes_the_unauthenticated_limit() {
        let size = 300 << 10;
        let (steps, outcome) = read_logged(&head("/v3/glossaries", &[KEY]), size, Ok("principal"));
        let first = api::limits::UNAUTHENTICATED_BODY_BYTES + (64 << 10);
        assert_eq!(steps, [format!("read {first}"), "admit".to_owned(), format!("read {size}")]);
        assert_eq!(outcome, Ok((size, Some("principal"))));
    }

    #[test]
    fn a_refused_admission_stops_the_reading() {
        let size = 300 << 10;
        let length = size.to_string();
        let (steps, outcome) =
            read_logged(&head("/v3/glossaries", &[KEY, ("content-length", &length)]), size, Err(403));
        assert_eq!((steps, outcome), (vec!["admit".to_owned()], Err(403)));
        let (steps, outcome) = read_logged(&head("/v3/glossaries", &[KEY]), size, Err(429));
        assert_eq!(steps.last().map(String::as_str), Some("admit"), "nothing read past the small limit");
        assert_eq!(outcome, Err(429));
        // Without a key header, a large body is refused before `admit` could run.
        let (steps, outcome) = read_logged(&head("/v3/glossaries", &[]), size, Ok("p"));
        assert_eq!((steps.len(), outcome), (1, Err(413)));
    }
}
