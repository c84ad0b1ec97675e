//! The Spin implementation of the platform traits.
//!
//! This is the one library that depends on `spin-sdk`: components build a [`SpinPlatform`] per
//! request and pass its parts to the domain crates, which see only the traits of `platform`.
//! Connections are opened lazily, on first use, so a request that never touches the database
//! never opens it.

use std::cell::OnceCell;
use std::time::Duration;

use platform::{
    Database, DbError, HttpError, HttpRequest, HttpResponse, KeyValue, KvError, OutboundHttp, QueryResult, Row, Value,
    VarError, Variables,
};
use spin_sdk::sqlite3;

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

/// Outbound HTTP through `wasi:http`, limited by the host to the component's `allowed_outbound_hosts`.
#[derive(Debug, Default, Clone, Copy)]
pub struct SpinHttp;

impl OutboundHttp for SpinHttp {
    fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
        use spin_sdk::http::{Method, Request, Response, SendError};
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
        let url = request.url.clone();
        let outgoing =
            Request::builder().method(method).uri(request.url).headers(request.headers).body(request.body).build();
        let sent = spin_sdk::http::run(async move { spin_sdk::http::send::<_, Response>(outgoing).await });
        let response = sent.map_err(|error| match error {
            SendError::Http(code) => http_error(&url, code),
            other => HttpError::Unreachable { url: url.clone(), reason: other.to_string() },
        })?;
        Ok(HttpResponse {
            status: *response.status(),
            headers: response
                .headers()
                .map(|(name, value)| (name.to_owned(), value.as_str().unwrap_or_default().to_owned()))
                .collect(),
            body: response.into_body(),
        })
    }
}

fn http_error(url: &str, code: spin_sdk::http::ErrorCode) -> HttpError {
    use spin_sdk::http::ErrorCode;
    match code {
        ErrorCode::HttpRequestDenied => HttpError::Denied(url.to_owned()),
        ErrorCode::ConnectionTimeout | ErrorCode::ConnectionReadTimeout | ErrorCode::HttpResponseTimeout => {
            HttpError::Timeout(url.to_owned())
        }
        ErrorCode::HttpRequestUriInvalid => HttpError::Invalid(format!("invalid URL {url}")),
        other => HttpError::Unreachable { url: url.to_owned(), reason: format!("{other:?}") },
    }
}

/// Turns a handler's outcome into the SDK's response, adding the `X-Trace-ID` header every
/// response of the API carries (a random 32-hex-digit request id).
pub fn respond(outcome: Result<api::ApiResponse, api::ApiError>) -> spin_sdk::http::Response {
    let response = outcome.unwrap_or_else(api::ApiResponse::from);
    let mut builder = spin_sdk::http::Response::builder();
    builder.status(response.status);
    for (name, value) in response.headers {
        builder.header(name, value);
    }
    builder.header("x-trace-id", trace_id());
    builder.body(response.body).build()
}

fn trace_id() -> String {
    use platform::Random;
    let mut bytes = [0u8; 16];
    OsRandom.fill(&mut bytes);
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
