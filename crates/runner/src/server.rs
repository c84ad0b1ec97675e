//! The HTTP server: routes each request to its component, runs it in a fresh instance, and logs
//! one line per request.
//!
//! A component that traps, or returns without a response, costs that request a 500 (empty body,
//! as Spin answers) and nothing else; a path no route matches is a 404 with an empty body, as
//! Spin answers too (the application's `/...` route gives its own). On SIGINT or SIGTERM the server stops accepting connections, lets the requests in
//! flight finish, and closes the databases.
//!
//! Hostile or broken clients cannot take the server down ([`Limits`]): a connection that sends
//! no complete request head within the header timeout is closed (idle keep-alive connections
//! too), a body must arrive within the body timeout (see [`crate::body`]), at most
//! `max_connections` connections are open at once (beyond that, new ones wait in the kernel's
//! queue), and at most `max_requests` guests run at once: a request that finds them all busy
//! waits a moment, then answers `503` with `Retry-After`; a guest that runs past the request
//! timeout is stopped (`504` if it has not answered). These answers, which Spin never gives
//! (408, 503, 504), have the API's error shape, `{"message": ...}`, and an `X-Trace-ID`.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use bytes::Bytes;
use http::{HeaderName, HeaderValue, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use wasmtime::Store;
use wasmtime_wasi_http::WasiHttpView;
use wasmtime_wasi_http::p2::bindings::http::types::Scheme;

use crate::app::{App, LoadedComponent};
use crate::body::{GuestBody, PrefetchError, prefetch};
use crate::host::HostState;
use crate::manifest::routes::{Route, RouteMatch};

/// How long in-flight requests get to finish after a shutdown signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// The prefix of paths the host answers itself.
const RESERVED_PREFIX: &str = "/.well-known/spin/";

type ResponseBody = http_body_util::combinators::UnsyncBoxBody<Bytes, anyhow::Error>;

/// What the server allows each client, so that none can hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long a connection may take to send a request head (and may stay idle between
    /// requests).
    pub header_read_timeout: Duration,
    /// How long a request's body may take to arrive, from its head on.
    pub body_read_timeout: Duration,
    /// The most connections open at once.
    pub max_connections: usize,
    /// The most requests running in guests at once (at most the instance pool's size).
    pub max_requests: usize,
    /// How long a request waits for a guest to be free before it answers 503.
    pub queue_timeout: Duration,
    /// How long a guest may run for one request before it is stopped (a `504` if it has not
    /// answered yet).
    pub request_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            max_connections: 4096,
            max_requests: 256,
            queue_timeout: Duration::from_secs(2),
            request_timeout: Duration::from_secs(60),
        }
    }
}

/// What a request needs of the server besides the app.
struct Shared {
    app: Arc<App>,
    limits: Limits,
    /// One permit per guest that may run, held until the guest's store (and its slot in the
    /// instance pool) is gone.
    guests: Arc<Semaphore>,
    /// How many requests have reached a guest (to tell a busy spell's end).
    served: std::sync::atomic::AtomicU64,
    /// Guests still running after their response went out.
    after: Arc<AfterResponse>,
}

/// Guests that go on after their response went out, as `spin up` lets them: a wasi:http handler
/// may do more work once it has set its response and finished its body, and the host runs it to
/// its end (within the request's time budget here; `spin up` sets none). Their failures are
/// logged, and shutdown waits for them (within [`SHUTDOWN_GRACE`]) before the databases close.
#[derive(Default)]
struct AfterResponse {
    running: std::sync::atomic::AtomicUsize,
    done: tokio::sync::Notify,
}

impl AfterResponse {
    /// Follows a guest `task` whose response went out, to its end.
    fn follow(self: &Arc<Self>, component: String, task: tokio::task::JoinHandle<wasmtime::Result<()>>) {
        use std::sync::atomic::Ordering;
        self.running.fetch_add(1, Ordering::SeqCst);
        let this = Arc::clone(self);
        tokio::spawn(async move {
            match task.await {
                Ok(Ok(())) => {}
                Ok(Err(trap)) if trap.downcast_ref::<wasmtime::Trap>() == Some(&wasmtime::Trap::Interrupt) => {
                    tracing::warn!(component = %component, "stopped work that ran on after its response: past the request's time budget");
                }
                Ok(Err(trap)) => {
                    tracing::warn!(component = %component, "the component failed after its response: {trap:?}")
                }
                Err(failure) => {
                    tracing::warn!(component = %component, "the component's task failed after its response: {failure}")
                }
            }
            if this.running.fetch_sub(1, Ordering::SeqCst) == 1 {
                this.done.notify_waiters();
            }
        });
    }

    /// Waits until no guest runs on after its response.
    async fn idle(&self) {
        loop {
            // Created before the count is read, so that the last guest's notice is not missed.
            let notified = self.done.notified();
            if self.running.load(std::sync::atomic::Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// Binds `listen`, failing clearly when the address is taken.
pub async fn bind(listen: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(listen).await.map_err(|error| match error.kind() {
        std::io::ErrorKind::AddrInUse => {
            anyhow::anyhow!("{listen} is already in use: stop whatever listens there, or pass another --listen address")
        }
        _ => anyhow::Error::new(error).context(format!("cannot listen on {listen}")),
    })
}

/// Serves `app` on `listener` until SIGINT or SIGTERM, then drains and closes.
pub async fn serve(app: Arc<App>, listener: TcpListener, limits: Limits) -> anyhow::Result<()> {
    let local = listener.local_addr().context("cannot read the listening address")?;
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown_signal());
    let connections = Arc::new(Semaphore::new(limits.max_connections));
    let shared = Arc::new(Shared {
        app: Arc::clone(&app),
        limits,
        guests: Arc::new(Semaphore::new(limits.max_requests)),
        served: std::sync::atomic::AtomicU64::new(0),
        after: Arc::new(AfterResponse::default()),
    });
    tokio::spawn(give_back_memory_when_idle(Arc::clone(&shared)));
    loop {
        // At the cap, stop accepting: new connections wait in the kernel's queue until one
        // closes (idle ones close after the header timeout).
        let slot = tokio::select! {
            slot = Arc::clone(&connections).acquire_owned() => slot.context("the connection limit was closed")?,
            signal = &mut shutdown => {
                tracing::info!("{signal}: finishing the requests in flight");
                break;
            }
        };
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(connection) => connection,
                    Err(error) => {
                        tracing::warn!("accepting a connection failed: {error}");
                        // Out of file descriptors, say: let connections close before trying again.
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                };
                let _ = stream.set_nodelay(true);
                let shared = Arc::clone(&shared);
                let service = hyper::service::service_fn(move |request| {
                    let shared = Arc::clone(&shared);
                    async move { Ok::<_, Infallible>(handle(&shared, request, peer, local).await) }
                });
                let connection = http1::Builder::new()
                    .keep_alive(true)
                    .timer(TokioTimer::new())
                    .header_read_timeout(limits.header_read_timeout)
                    .serve_connection(TokioIo::new(stream), service);
                let connection = graceful.watch(connection);
                tokio::spawn(async move {
                    if let Err(error) = connection.await {
                        tracing::debug!("connection from {peer} ended: {error}");
                    }
                    drop(slot);
                });
            }
            signal = &mut shutdown => {
                tracing::info!("{signal}: finishing the requests in flight");
                break;
            }
        }
    }
    drop(listener);
    let drained = async {
        graceful.shutdown().await;
        shared.after.idle().await;
    };
    if tokio::time::timeout(SHUTDOWN_GRACE, drained).await.is_err() {
        tracing::warn!("requests still running after {} s were cut off", SHUTDOWN_GRACE.as_secs());
    }
    app.close();
    tracing::info!("stopped");
    Ok(())
}

/// How often the server looks whether a busy spell has ended.
const IDLE_CHECK: Duration = Duration::from_secs(5);

/// After a spell of requests, once none has run for a whole [`IDLE_CHECK`], hands the
/// allocator's free memory back to the system. Requests allocate on many threads (the event
/// loop's and, for SQLite in `--storage spin`, the blocking pool's), and glibc keeps what they
/// free in per-thread arenas; without this the resident size after a burst stays at its peak.
async fn give_back_memory_when_idle(shared: Arc<Shared>) {
    let mut interval = tokio::time::interval(IDLE_CHECK);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut served = shared.served.load(std::sync::atomic::Ordering::Relaxed);
    let mut trimmed = true;
    loop {
        interval.tick().await;
        let now = shared.served.load(std::sync::atomic::Ordering::Relaxed);
        let idle = now == served && shared.guests.available_permits() == shared.limits.max_requests;
        if now != served {
            trimmed = false;
        } else if idle && !trimmed {
            trimmed = true;
            // SAFETY: malloc_trim only walks the allocator's own free lists; it is thread-safe.
            let _ = tokio::task::spawn_blocking(|| unsafe { libc::malloc_trim(0) }).await;
            tracing::debug!("idle: gave the allocator's free memory back");
        }
        served = now;
    }
}

async fn shutdown_signal() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let mut terminate = signal(SignalKind::terminate()).expect("install the SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => "SIGINT",
        _ = terminate.recv() => "SIGTERM",
    }
}

async fn handle(
    shared: &Shared,
    request: Request<Incoming>,
    peer: SocketAddr,
    local: SocketAddr,
) -> Response<ResponseBody> {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let (mut response, component, instantiation) = dispatch(shared, request, peer, local).await;
    let status = response.status().as_u16();
    if status == 456 {
        // wasi:http carries no reason phrase, and 456 has no standard one: name it as the API does.
        response.extensions_mut().insert(hyper::ext::ReasonPhrase::from_static(b"Quota Exceeded"));
    }
    let component = component.as_deref().unwrap_or("-");
    let millis = started.elapsed().as_secs_f64() * 1000.0;
    match instantiation {
        Some(instantiation) => tracing::info!(
            "{method} {path} {status} {component} {millis:.2} ms (instantiated in {} µs)",
            instantiation.as_micros()
        ),
        None => tracing::info!("{method} {path} {status} {component} {millis:.2} ms"),
    }
    response
}

/// Answers one request; also says which component served it and how long instantiating took.
async fn dispatch(
    shared: &Shared,
    request: Request<Incoming>,
    peer: SocketAddr,
    local: SocketAddr,
) -> (Response<ResponseBody>, Option<Arc<str>>, Option<Duration>) {
    let app = &shared.app;
    let path = request.uri().path();
    if let Some(reserved) = path.strip_prefix(RESERVED_PREFIX) {
        return (reserved_response(app, reserved), None, None);
    }
    let Some((route, found, component)) = app.router.route(path) else {
        return (empty(StatusCode::NOT_FOUND), None, None);
    };
    let id = Arc::clone(&component.host.id);
    let deadline = tokio::time::Instant::now() + shared.limits.body_read_timeout;
    let (head, body) = request.into_parts();
    let body = match prefetch(body, deadline).await {
        Ok(body) => body,
        Err(PrefetchError::TimedOut) => {
            let message = format!(
                "Request Timeout: the body did not arrive within {} s.",
                shared.limits.body_read_timeout.as_secs()
            );
            let mut response = error(StatusCode::REQUEST_TIMEOUT, &message);
            response.headers_mut().insert(http::header::CONNECTION, HeaderValue::from_static("close"));
            return (response, Some(id), None);
        }
        Err(PrefetchError::Failed(failure)) => {
            tracing::debug!(component = %id, "reading a request body failed: {failure}");
            return (error(StatusCode::BAD_REQUEST, "The request body could not be read."), Some(id), None);
        }
    };
    // A free guest is taken at once; only when none is free does the request wait, on a timer.
    let free = Arc::clone(&shared.guests).try_acquire_owned().ok();
    let permit = match free {
        Some(permit) => Ok(Ok(permit)),
        None => tokio::time::timeout(shared.limits.queue_timeout, Arc::clone(&shared.guests).acquire_owned()).await,
    };
    let permit = match permit {
        Ok(Ok(permit)) => permit,
        _ => {
            tracing::warn!(component = %id, "every guest is busy: answering 503");
            let mut response = error(StatusCode::SERVICE_UNAVAILABLE, "The service is busy: retry in a moment.");
            response.headers_mut().insert(http::header::RETRY_AFTER, HeaderValue::from_static("1"));
            return (response, Some(id), None);
        }
    };
    shared.served.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let budget = shared.limits.request_timeout;
    let request = Request::from_parts(head, body);
    let after = (Arc::clone(&shared.after), id.to_string());
    let outcome = run_component(component, route, found, request, budget, (peer, local), permit, after).await;
    match outcome {
        Ok((response, instantiation)) => (response, Some(id), Some(instantiation)),
        Err(failure) if failure.is::<OverBudget>() => {
            tracing::warn!(component = %id, "stopped a request after {} s", budget.as_secs());
            let message = format!("Gateway Timeout: the request did not finish within {} s.", budget.as_secs());
            (error(StatusCode::GATEWAY_TIMEOUT, &message), Some(id), None)
        }
        Err(failure) => {
            tracing::error!(component = %id, "request failed: {failure:?}");
            (empty(StatusCode::INTERNAL_SERVER_ERROR), Some(id), None)
        }
    }
}

/// A guest stopped because it ran past the request's time budget.
#[derive(Debug, thiserror::Error)]
#[error("the request ran past its time budget")]
struct OverBudget;

/// Runs the guest for `request`. `permit` is its place among the guests that may run: it is given
/// back only once the guest's store is dropped, which frees its slot in the instance pool, so the
/// next request admitted always finds a slot (the guest may still be streaming its body after the
/// response head went out, or working on after it: `after` follows it to its end).
#[allow(clippy::too_many_arguments)]
async fn run_component(
    component: &Arc<LoadedComponent>,
    route: &Route,
    found: RouteMatch,
    request: Request<GuestBody>,
    budget: Duration,
    (peer, local): (SocketAddr, SocketAddr),
    permit: OwnedSemaphorePermit,
    (after, component_id): (Arc<AfterResponse>, String),
) -> anyhow::Result<(Response<ResponseBody>, Duration)> {
    let request = with_spin_headers(request, route, &found, peer, local)?;
    let mut store = Store::new(component.pre.engine(), HostState::new(Arc::clone(&component.host))?);
    store.limiter(|state| state.limits());
    // The engine's epoch advances every EPOCH_TICK (see `app::engine`); past the deadline the
    // guest traps at its next check.
    store.set_epoch_deadline(crate::app::epoch_ticks(budget));
    let incoming = store.data_mut().http().new_incoming_request(Scheme::Http, request)?;
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let outparam = store.data_mut().http().new_response_outparam(sender)?;

    let instantiating = Instant::now();
    let proxy = component
        .pre
        .instantiate_async(&mut store)
        .await
        .map_err(anyhow::Error::from)
        .context("instantiating the component failed")?;
    let instantiation = instantiating.elapsed();
    // The guest runs in its own task so that it can keep streaming the body after it has
    // handed over the response head.
    let task = tokio::spawn(async move {
        let outcome = proxy.wasi_http_incoming_handler().call_handle(&mut store, incoming, outparam).await;
        drop(store);
        drop(permit);
        outcome
    });
    match receiver.await {
        Ok(Ok(response)) => {
            after.follow(component_id, task);
            Ok((response.map(|body| body.map_err(anyhow::Error::from).boxed_unsync()), instantiation))
        }
        Ok(Err(code)) => {
            after.follow(component_id, task);
            Err(anyhow::anyhow!("the component answered with error code {code:?}"))
        }
        Err(_) => {
            let outcome = task.await.context("the component's task failed")?;
            let error = match outcome {
                Ok(()) => anyhow::anyhow!("the component returned without setting a response"),
                Err(trap) if trap.downcast_ref::<wasmtime::Trap>() == Some(&wasmtime::Trap::Interrupt) => {
                    anyhow::Error::new(OverBudget)
                }
                Err(trap) => anyhow::Error::from(trap).context("the component trapped before responding"),
            };
            Err(error)
        }
    }
}

/// Adds the headers Spin gives components: the full URL, what the route matched, the client.
fn with_spin_headers<B>(
    mut request: Request<B>,
    route: &Route,
    found: &RouteMatch,
    peer: SocketAddr,
    local: SocketAddr,
) -> anyhow::Result<Request<B>> {
    let host = match request.headers().get(http::header::HOST) {
        Some(host) => host.to_str().context("the Host header is not text")?.to_owned(),
        None => {
            let host = local.to_string();
            request.headers_mut().insert(http::header::HOST, HeaderValue::from_str(&host)?);
            host
        }
    };
    let path_and_query = request.uri().path_and_query().map_or("/", |value| value.as_str()).to_owned();
    let mut headers = vec![
        ("spin-full-url", format!("http://{host}{path_and_query}")),
        ("spin-path-info", found.path_info.clone()),
        ("spin-matched-route", route.normalized()),
        ("spin-base-path", "/".to_owned()),
        ("spin-raw-component-route", route.raw().to_owned()),
        ("spin-component-route", route.component_route().to_owned()),
        ("spin-client-addr", peer.to_string()),
    ]
    .into_iter()
    .map(|(name, value)| (HeaderName::from_static(name), value))
    .collect::<Vec<_>>();
    for (name, value) in &found.params {
        let name = format!("spin-path-match-{}", name.replace('_', "-").to_ascii_lowercase());
        headers.push((HeaderName::from_bytes(name.as_bytes())?, value.clone()));
    }
    for (name, value) in headers {
        request.headers_mut().append(name, HeaderValue::from_str(&value)?);
    }
    Ok(request)
}

/// `/.well-known/spin/health` and `/.well-known/spin/info`, answered by the host as Spin does.
fn reserved_response(app: &App, name: &str) -> Response<ResponseBody> {
    match name {
        "health" => text(StatusCode::OK, "text/plain", "OK".into()),
        "info" => {
            let info = serde_json::json!({
                "name": app.manifest.name,
                "host": format!("glossa {}", env!("CARGO_PKG_VERSION")),
            });
            text(StatusCode::OK, "application/json", info.to_string())
        }
        _ => empty(StatusCode::NOT_FOUND),
    }
}

fn text(status: StatusCode, content_type: &'static str, body: String) -> Response<ResponseBody> {
    let mut response = Response::new(Full::new(Bytes::from(body)).map_err(|never| match never {}).boxed_unsync());
    *response.status_mut() = status;
    response.headers_mut().insert(http::header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

fn empty(status: StatusCode) -> Response<ResponseBody> {
    let mut response = Response::new(Full::new(Bytes::new()).map_err(|never| match never {}).boxed_unsync());
    *response.status_mut() = status;
    response
}

/// An answer the server gives itself, in the API's error shape and with a trace id, as the
/// components answer theirs.
fn error(status: StatusCode, message: &str) -> Response<ResponseBody> {
    let body = serde_json::json!({ "message": message }).to_string();
    let mut response = text(status, "application/json", body);
    response.headers_mut().insert("x-trace-id", trace_id());
    response
}

/// A random 32-hex-digit request id.
fn trace_id() -> HeaderValue {
    let id = format!("{:032x}", rand_u128());
    HeaderValue::from_str(&id).expect("hex digits are a valid header value")
}

fn rand_u128() -> u128 {
    use platform::{OsRandom, Random};
    let mut bytes = [0u8; 16];
    OsRandom.fill(&mut bytes);
    u128::from_le_bytes(bytes)
}
