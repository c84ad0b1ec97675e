//! Outbound HTTP through `wasi:http`.

use platform::{HttpError, HttpRequest, HttpResponse, OutboundHttp};
use wasi::http::outgoing_handler;
use wasi::http::types::{
    ErrorCode, Fields, IncomingBody, Method, OutgoingBody, OutgoingRequest, RequestOptions, Scheme,
};

/// Outbound HTTP through `wasi:http`, limited by the host to the component's
/// `allowed_outbound_hosts`. It speaks `wasi:http` directly (rather than through the SDK's
/// helper) to pass the request's timeout as request options, which every Spin host honours.
#[derive(Debug, Default, Clone, Copy)]
pub struct SpinHttp;

impl OutboundHttp for SpinHttp {
    fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
        send(request)
    }
}

fn send(request: HttpRequest) -> Result<HttpResponse, HttpError> {
    let url = request.url.clone();
    let invalid = |what: &str| HttpError::Invalid(format!("{what} in {url}"));
    let (scheme, rest) = url.split_once("://").ok_or_else(|| invalid("no scheme"))?;
    let scheme = match scheme.to_ascii_lowercase().as_str() {
        "http" => Scheme::Http,
        "https" => Scheme::Https,
        _ => return Err(invalid("an unsupported scheme")),
    };
    let (authority, path) = match rest.find(['/', '?']) {
        Some(at) => (&rest[..at], rest[at..].to_owned()),
        None => (rest, "/".to_owned()),
    };
    let path = if path.starts_with('?') { format!("/{path}") } else { path };

    let mut entries: Vec<(String, Vec<u8>)> =
        request.headers.iter().map(|(name, value)| (name.to_ascii_lowercase(), value.as_bytes().to_vec())).collect();
    // The whole body is known, so its length goes ahead of it: without the header the host
    // streams the body chunked, which some servers (and proxies in front of them) refuse.
    if !request.body.is_empty() && !entries.iter().any(|(name, _)| name == "content-length") {
        entries.push(("content-length".to_owned(), request.body.len().to_string().into_bytes()));
    }
    let headers = Fields::from_list(&entries).map_err(|error| HttpError::Invalid(format!("headers: {error:?}")))?;
    let outgoing = OutgoingRequest::new(headers);
    let method = match request.method.to_ascii_uppercase().as_str() {
        "GET" => Method::Get,
        "POST" => Method::Post,
        "PUT" => Method::Put,
        "PATCH" => Method::Patch,
        "DELETE" => Method::Delete,
        "HEAD" => Method::Head,
        "OPTIONS" => Method::Options,
        other => Method::Other(other.to_owned()),
    };
    outgoing.set_method(&method).map_err(|()| invalid("an invalid method"))?;
    outgoing.set_scheme(Some(&scheme)).map_err(|()| invalid("an invalid scheme"))?;
    outgoing.set_authority(Some(authority)).map_err(|()| invalid("an invalid host"))?;
    outgoing.set_path_with_query(Some(&path)).map_err(|()| invalid("an invalid path"))?;

    let options = request.timeout.map(|timeout| {
        let options = RequestOptions::new();
        let nanos = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
        // A host that cannot honour a timeout refuses to set it; the request still goes.
        let _ = options.set_connect_timeout(Some(nanos));
        let _ = options.set_first_byte_timeout(Some(nanos));
        let _ = options.set_between_bytes_timeout(Some(nanos));
        options
    });
    let body = outgoing.body().map_err(|()| invalid("a request without a body"))?;
    let pending = outgoing_handler::handle(outgoing, options).map_err(|code| error(&url, code))?;
    // A server may answer before it has read the whole body (a refusal), and the host may fail
    // the request while the body is being written: either way the response, or the host's
    // reason, says more than the closed body stream.
    let written = write_body(&body, &request.body);
    let finished = match written {
        Ok(()) => OutgoingBody::finish(body, None).map_err(|code| error(&url, code)),
        Err(_) => {
            drop(body);
            Ok(())
        }
    };

    pending.subscribe().block();
    let response = match (pending.get(), written) {
        (Some(Ok(Ok(response))), _) => response,
        (Some(Ok(Err(code))), Ok(())) => return Err(error(&url, code)),
        (Some(Ok(Err(code))), Err(reason)) => {
            return Err(HttpError::Unreachable { url, reason: format!("{reason}; then {code:?}") });
        }
        (Some(Err(())) | None, Err(reason)) => return Err(HttpError::Unreachable { url, reason }),
        (Some(Err(())) | None, Ok(())) => {
            finished?;
            return Err(HttpError::Unreachable { url, reason: "the response was lost".into() });
        }
    };
    let status = response.status();
    let headers = response
        .headers()
        .entries()
        .into_iter()
        .map(|(name, value)| (name, String::from_utf8_lossy(&value).into_owned()))
        .collect();
    let incoming = response.consume().map_err(|()| invalid("a response without a body"))?;
    let body = read_body(&incoming).map_err(|reason| HttpError::Unreachable { url: url.clone(), reason })?;
    drop(IncomingBody::finish(incoming));
    Ok(HttpResponse { status, headers, body })
}

fn write_body(body: &OutgoingBody, bytes: &[u8]) -> Result<(), String> {
    let stream = body.write().map_err(|()| "the request body is not writable".to_owned())?;
    crate::streams::write_all(&stream, bytes).map_err(|error| format!("writing the request body: {error:?}"))
}

fn read_body(body: &IncomingBody) -> Result<Vec<u8>, String> {
    let stream = body.stream().map_err(|()| "the response body is not readable".to_owned())?;
    crate::streams::read_to_end(&stream).map_err(|error| format!("reading the response body: {error}"))
}

fn error(url: &str, code: ErrorCode) -> HttpError {
    match code {
        ErrorCode::HttpRequestDenied => HttpError::Denied(url.to_owned()),
        ErrorCode::ConnectionTimeout | ErrorCode::ConnectionReadTimeout | ErrorCode::HttpResponseTimeout => {
            HttpError::Timeout(url.to_owned())
        }
        ErrorCode::HttpRequestUriInvalid => HttpError::Invalid(format!("invalid URL {url}")),
        other => HttpError::Unreachable { url: url.to_owned(), reason: format!("{other:?}") },
    }
}
