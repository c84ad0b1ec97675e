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
/// path and query as sent, every header field, the body; a body that cannot be read answers
/// 400), hands it to `route`, and sends the outcome (see [`send`]). A component's handler is
/// `#[http_component] fn handle(request: IncomingRequest, out: ResponseOutparam) { serve(request,
/// out, route) }`.
pub fn serve(
    request: spin_sdk::http::IncomingRequest,
    out: spin_sdk::http::ResponseOutparam,
    route: impl FnOnce(&api::Request) -> Result<api::ApiResponse, api::ApiError>,
) {
    send(out, read(request).and_then(|request| route(&request)));
}

/// Reads a request taken as the raw `wasi:http` pair into what the handlers see: the method,
/// the path and query as sent, every header field (a repeated header keeps all its values, in
/// the order sent), and the whole body.
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
fn read(request: spin_sdk::http::IncomingRequest) -> Result<api::Request, api::ApiError> {
    let method = request.method().to_string().to_ascii_uppercase();
    let target = request.path_with_query().unwrap_or_else(|| "/".to_owned());
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path.to_owned(), query.to_owned()),
        None => (target, String::new()),
    };
    let headers =
        request.headers().entries().into_iter().map(|(name, value)| (name.to_ascii_lowercase(), value)).collect();
    let body = read_body(&request)
        .map_err(|error| api::ApiError::bad_request(format!("The request body could not be read: {error}")))?;
    Ok(api::Request { method, path, query, headers, body })
}

fn read_body(request: &spin_sdk::http::IncomingRequest) -> Result<Vec<u8>, String> {
    use spin_sdk::wit::wasi::http0_2_0::types::IncomingBody;

    let body = request.consume().map_err(|()| "it was already taken".to_owned())?;
    let stream = body.stream().map_err(|()| "its stream was already taken".to_owned())?;
    let bytes = crate::streams::read_to_end(&stream)?;
    drop(stream);
    // Trailers are not used; finishing the body tells the host it was read to its end.
    drop(IncomingBody::finish(body));
    Ok(bytes)
}
