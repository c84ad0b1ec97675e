//! The Spin implementation of the platform traits.
//!
//! This is the one library that depends on `spin-sdk`: components build a [`Host`] per
//! request and pass its parts to the domain crates, which see only the traits of `platform`.
//! Connections are opened lazily, on first use, so a request that never touches the database
//! never opens it.

use std::cell::OnceCell;
use std::time::{Duration, SystemTime};

use platform::{
    Clock, Database, DbError, HttpError, HttpRequest, HttpResponse, KeyValue, KvError, OutboundHttp, QueryResult, Row,
    Value, VarError, Variables,
};
use spin_sdk::sqlite3;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

pub use platform::{OsRandom, SystemClock};

/// How long a statement waits for another connection's write lock before the database reports
/// itself busy. Spin opens a new connection per request with SQLite's default of no waiting at
/// all, so every connection the app opens sets this first.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// A SQLite database of the host, opened on first use.
pub struct SpinDb {
    name: String,
    connection: OnceCell<sqlite3::Connection>,
}

impl SpinDb {
    /// The database named `name` in the manifest's `sqlite_databases` (usually `default`).
    pub fn new(name: &str) -> Self {
        SpinDb { name: name.to_owned(), connection: OnceCell::new() }
    }

    fn connection(&self) -> Result<&sqlite3::Connection, DbError> {
        if let Some(connection) = self.connection.get() {
            return Ok(connection);
        }
        let connection = sqlite3::Connection::open(&self.name).map_err(db_error)?;
        let pragma = format!("PRAGMA busy_timeout = {}", BUSY_TIMEOUT.as_millis());
        connection.execute(&pragma, &[]).map_err(db_error)?;
        connection.execute("PRAGMA synchronous = NORMAL", &[]).map_err(db_error)?;
        Ok(self.connection.get_or_init(|| connection))
    }
}

impl Database for SpinDb {
    fn execute(&self, sql: &str, params: &[Value]) -> Result<QueryResult, DbError> {
        let params: Vec<sqlite3::Value> = params.iter().map(to_spin_value).collect();
        let result = self.connection()?.execute(sql, &params).map_err(db_error)?;
        Ok(QueryResult {
            columns: result.columns,
            rows: result
                .rows
                .into_iter()
                .map(|row| Row(row.values.into_iter().map(from_spin_value).collect()))
                .collect(),
        })
    }

    fn changes(&self) -> Result<u64, DbError> {
        Ok(self.connection()?.changes())
    }
}

fn to_spin_value(value: &Value) -> sqlite3::Value {
    match value {
        Value::Integer(n) => sqlite3::Value::Integer(*n),
        Value::Real(x) => sqlite3::Value::Real(*x),
        Value::Text(text) => sqlite3::Value::Text(text.clone()),
        Value::Blob(bytes) => sqlite3::Value::Blob(bytes.clone()),
        Value::Null => sqlite3::Value::Null,
    }
}

fn from_spin_value(value: sqlite3::Value) -> Value {
    match value {
        sqlite3::Value::Integer(n) => Value::Integer(n),
        sqlite3::Value::Real(x) => Value::Real(x),
        sqlite3::Value::Text(text) => Value::Text(text),
        sqlite3::Value::Blob(bytes) => Value::Blob(bytes),
        sqlite3::Value::Null => Value::Null,
    }
}

fn db_error(error: sqlite3::Error) -> DbError {
    match error {
        sqlite3::Error::NoSuchDatabase => DbError::NoSuchDatabase,
        sqlite3::Error::AccessDenied => DbError::AccessDenied,
        sqlite3::Error::InvalidConnection => DbError::Other("invalid connection".into()),
        sqlite3::Error::DatabaseFull => DbError::Other("database full".into()),
        sqlite3::Error::Io(message) => DbError::from_message(message),
    }
}

/// A key-value store of the host, opened on first use.
pub struct SpinKv {
    label: String,
    store: OnceCell<spin_sdk::key_value::Store>,
}

impl SpinKv {
    /// The store labelled `label` in the manifest's `key_value_stores` (usually `default`).
    pub fn new(label: &str) -> Self {
        SpinKv { label: label.to_owned(), store: OnceCell::new() }
    }

    fn store(&self) -> Result<&spin_sdk::key_value::Store, KvError> {
        if let Some(store) = self.store.get() {
            return Ok(store);
        }
        let store = spin_sdk::key_value::Store::open(&self.label).map_err(kv_error)?;
        Ok(self.store.get_or_init(|| store))
    }
}

impl KeyValue for SpinKv {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, KvError> {
        self.store()?.get(key).map_err(kv_error)
    }

    fn set(&self, key: &str, value: &[u8]) -> Result<(), KvError> {
        self.store()?.set(key, value).map_err(kv_error)
    }

    fn delete(&self, key: &str) -> Result<(), KvError> {
        self.store()?.delete(key).map_err(kv_error)
    }

    fn exists(&self, key: &str) -> Result<bool, KvError> {
        self.store()?.exists(key).map_err(kv_error)
    }

    fn keys(&self) -> Result<Vec<String>, KvError> {
        self.store()?.get_keys().map_err(kv_error)
    }
}

fn kv_error(error: spin_sdk::key_value::Error) -> KvError {
    use spin_sdk::key_value::Error;
    match error {
        Error::NoSuchStore => KvError::NoSuchStore,
        Error::AccessDenied => KvError::AccessDenied,
        Error::StoreTableFull => KvError::Other("too many stores open".into()),
        Error::Other(message) => KvError::Other(message),
    }
}

/// The component's variables, as declared in its `[component.<id>.variables]`.
#[derive(Debug, Default, Clone, Copy)]
pub struct SpinVariables;

impl Variables for SpinVariables {
    fn get(&self, name: &str) -> Result<Option<String>, VarError> {
        use spin_sdk::variables::Error;
        match spin_sdk::variables::get(name) {
            Ok(value) => Ok(Some(value)),
            Err(Error::Undefined(_)) => Ok(None),
            Err(Error::InvalidName(message)) => Err(VarError::InvalidName(message)),
            Err(Error::Provider(message) | Error::Other(message)) => Err(VarError::Provider(message)),
        }
    }
}

/// Outbound HTTP through `wasi:http`, limited by the host to the component's
/// `allowed_outbound_hosts`. It speaks `wasi:http` directly (rather than through the SDK's
/// helper) to pass the request's timeout as request options, which every Spin host honours.
#[derive(Debug, Default, Clone, Copy)]
pub struct SpinHttp;

impl OutboundHttp for SpinHttp {
    fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
        outbound::send(request)
    }
}

mod outbound {
    use platform::{HttpError, HttpRequest, HttpResponse};
    use wasi::http::outgoing_handler;
    use wasi::http::types::{
        ErrorCode, Fields, IncomingBody, Method, OutgoingBody, OutgoingRequest, RequestOptions, Scheme,
    };

    pub fn send(request: HttpRequest) -> Result<HttpResponse, HttpError> {
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

        let mut entries: Vec<(String, Vec<u8>)> = request
            .headers
            .iter()
            .map(|(name, value)| (name.to_ascii_lowercase(), value.as_bytes().to_vec()))
            .collect();
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
        write_body(&body, &request.body).map_err(|reason| HttpError::Unreachable { url: url.clone(), reason })?;
        OutgoingBody::finish(body, None).map_err(|code| error(&url, code))?;

        pending.subscribe().block();
        let response = match pending.get() {
            Some(Ok(Ok(response))) => response,
            Some(Ok(Err(code))) => return Err(error(&url, code)),
            Some(Err(())) | None => {
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
        super::streams::write_all(&stream, bytes).map_err(|error| format!("writing the request body: {error:?}"))
    }

    fn read_body(body: &IncomingBody) -> Result<Vec<u8>, String> {
        let stream = body.stream().map_err(|()| "the response body is not readable".to_owned())?;
        super::streams::read_to_end(&stream).map_err(|error| format!("reading the response body: {error}"))
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
}

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
    if let Err(error) = streams::write_all(&stream, &response.body) {
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
    use platform::Random;
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
    let bytes = streams::read_to_end(&stream)?;
    drop(stream);
    // Trailers are not used; finishing the body tells the host it was read to its end.
    drop(IncomingBody::finish(body));
    Ok(bytes)
}

/// Reading and writing whole bodies through `wasi:io` streams, for requests and responses in
/// both directions.
mod streams {
    use wasi::io::streams::{InputStream, OutputStream, StreamError};

    /// The most one read asks for.
    const READ_CHUNK: u64 = 64 << 10;

    /// The most one blocking write may carry (`wasi:io`'s limit).
    const BLOCKING_WRITE_LIMIT: usize = 4096;

    /// Reads a stream to its end.
    pub fn read_to_end(stream: &InputStream) -> Result<Vec<u8>, String> {
        let mut bytes = Vec::new();
        loop {
            match stream.blocking_read(READ_CHUNK) {
                Ok(chunk) => bytes.extend_from_slice(&chunk),
                Err(StreamError::Closed) => return Ok(bytes),
                Err(StreamError::LastOperationFailed(error)) => return Err(error.to_debug_string()),
            }
        }
    }

    /// Writes all of `bytes` and flushes them. Up to 4 KiB go in one blocking call (a typical
    /// JSON answer: one host call in all). More go in writes as large as the stream accepts at
    /// the time (a host takes up to a megabyte at once), waiting whenever it accepts nothing,
    /// then one blocking flush: a multi-megabyte glossary is a handful of writes, not one
    /// blocking call (and one HTTP chunk) per 4 KiB.
    pub fn write_all(stream: &OutputStream, bytes: &[u8]) -> Result<(), StreamError> {
        if bytes.is_empty() {
            return Ok(());
        }
        if bytes.len() <= BLOCKING_WRITE_LIMIT {
            return stream.blocking_write_and_flush(bytes);
        }
        let mut rest = bytes;
        while !rest.is_empty() {
            let accepted = usize::try_from(stream.check_write()?).unwrap_or(usize::MAX);
            if accepted == 0 {
                stream.subscribe().block();
                continue;
            }
            let (now, later) = rest.split_at(accepted.min(rest.len()));
            stream.write(now)?;
            rest = later;
        }
        stream.blocking_flush()
    }
}

/// The variable that lets a request name the time it is handled at: `on` honours
/// [`TEST_TIME_HEADER`]; anything else (the default, `off`) ignores it. For test deployments
/// only: it lets callers record usage on any day.
pub const TEST_CLOCK_VARIABLE: &str = "test_clock";
/// The header naming the time a request is handled at (RFC 3339), when [`TEST_CLOCK_VARIABLE`]
/// allows it.
pub const TEST_TIME_HEADER: &str = "x-service-test-time";

/// The time a request sees: the host's wall clock, or the time a test named.
#[derive(Debug, Default, Clone, Copy)]
pub struct RequestClock(Option<SystemTime>);

impl RequestClock {
    /// The clock for `request`. The variable is read only when the header is present, so
    /// ordinary requests pay nothing for the feature.
    pub fn for_request(request: &api::Request, vars: &dyn Variables) -> Result<RequestClock, api::ApiError> {
        let Some(value) = request.header(TEST_TIME_HEADER) else { return Ok(RequestClock(None)) };
        let enabled = vars.get(TEST_CLOCK_VARIABLE).ok().flatten().is_some_and(|value| value.trim() == "on");
        if !enabled {
            return Ok(RequestClock(None));
        }
        let parsed = OffsetDateTime::parse(value.trim(), &Rfc3339).map_err(|_| {
            api::ApiError::bad_request(format!(
                "Value for header '{TEST_TIME_HEADER}' not supported: it must be an RFC 3339 date-time."
            ))
        })?;
        Ok(RequestClock(Some(parsed.into())))
    }
}

impl Clock for RequestClock {
    fn now(&self) -> SystemTime {
        self.0.unwrap_or_else(SystemTime::now)
    }
}

/// Everything a handler reaches the host through, opened lazily.
pub struct Host {
    pub db: SpinDb,
    pub kv: SpinKv,
    pub vars: SpinVariables,
    pub http: SpinHttp,
    pub clock: RequestClock,
    pub random: OsRandom,
}

impl Host {
    /// The `default` database and key-value store, and the wall clock.
    pub fn new() -> Host {
        Host {
            db: SpinDb::new("default"),
            kv: SpinKv::new("default"),
            vars: SpinVariables,
            http: SpinHttp,
            clock: RequestClock::default(),
            random: OsRandom,
        }
    }

    /// As [`Host::new`], with the clock `request` may set ([`RequestClock::for_request`]).
    pub fn for_request(request: &api::Request) -> Result<Host, api::ApiError> {
        let clock = RequestClock::for_request(request, &SpinVariables)?;
        Ok(Host { clock, ..Host::new() })
    }
}

impl Default for Host {
    fn default() -> Self {
        Host::new()
    }
}
