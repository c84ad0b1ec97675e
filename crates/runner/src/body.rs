//! Request bodies on their way to a guest: read within a deadline, and the first bytes before
//! the guest's instance is taken.
//!
//! A client that sends its headers and then trickles its body would otherwise hold an instance
//! (and a slot of the pool) for as long as it likes. So the runner first reads a body of up to
//! [`PREFETCH_BYTES`] (announced so, or sent without a length) itself, which takes a task and a
//! buffer but no instance: most API bodies end there, and a client that trickles one costs the
//! server almost nothing until the deadline ends it with a `408`. That is as much as a component
//! reads of a request without an `Authorization` header (`api::limits`), so no client without a
//! key can hold an instance with a slow body. A body announced as longer goes to the guest at
//! once, which checks its length and key before reading it (see `platform_spin::serve`), then
//! reads it as it arrives, within the same deadline; past it, the guest's read fails (it answers
//! `400`, as for any body that cannot be read).
//!
//! A guest may answer without reading the body it was sent (a `413` from the announced length, a
//! `401` from the key). Closing the connection then, with the client's bytes still arriving, makes
//! the kernel reset it, and the client, still writing, sees a broken pipe instead of the answer.
//! So a body that its guest left unread is read to its end and thrown away, when what is left is
//! at most [`LINGER_BYTES`] and arrives within the same deadline; a longer one is cut off.

use std::future::Future as _;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use tokio::time::{Instant, Sleep};

/// How much of a body the runner reads before it starts the guest: what a component reads at
/// most before it has seen a key (`api::limits::UNAUTHENTICATED_BODY_BYTES`).
pub const PREFETCH_BYTES: usize = 128 * 1024;

/// How much of a body its guest left unread the runner still reads (and drops) so that the
/// client can finish sending and read the answer.
pub const LINGER_BYTES: u64 = 4 * 1024 * 1024;

/// Why a body could not be read before the guest started.
#[derive(Debug, thiserror::Error)]
pub enum PrefetchError {
    #[error("the body did not arrive within its deadline")]
    TimedOut,
    #[error("the body could not be read: {0}")]
    Failed(#[from] hyper::Error),
}

/// A request body as a guest reads it: the bytes read ahead, then the rest of the connection's
/// body, which fails with a read timeout at the deadline.
pub struct GuestBody {
    ahead: Option<Bytes>,
    rest: Option<Incoming>,
    deadline: Instant,
    /// The timer for `deadline`, set the first time the rest is not there yet.
    timer: Option<Pin<Box<Sleep>>>,
}

/// Reads up to [`PREFETCH_BYTES`] of `body` (more if a frame brings more), waiting no later
/// than `deadline`; a body announced as longer is not read ahead at all.
pub async fn prefetch(mut body: Incoming, deadline: Instant) -> Result<GuestBody, PrefetchError> {
    if body.size_hint().lower() > PREFETCH_BYTES as u64 {
        return Ok(GuestBody { ahead: None, rest: Some(body), deadline, timer: None });
    }
    let mut ahead = BytesMut::new();
    let mut rest = Some(());
    while ahead.len() < PREFETCH_BYTES {
        if body.is_end_stream() {
            rest = None;
            break;
        }
        match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => return Err(PrefetchError::TimedOut),
            Ok(None) => {
                rest = None;
                break;
            }
            Ok(Some(frame)) => {
                // Trailers are not passed on: no component reads them.
                if let Ok(data) = frame?.into_data() {
                    ahead.extend_from_slice(&data);
                }
            }
        }
    }
    Ok(GuestBody {
        ahead: (!ahead.is_empty()).then(|| ahead.freeze()),
        rest: rest.map(|()| body),
        deadline,
        timer: None,
    })
}

impl Drop for GuestBody {
    fn drop(&mut self) {
        let Some(rest) = self.rest.take() else { return };
        let left = rest.size_hint();
        if rest.is_end_stream() || left.upper().is_none_or(|upper| upper > LINGER_BYTES) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        runtime.spawn(drain(rest, self.deadline));
    }
}

/// Reads what is left of a body and drops it, until its end, a failure or `deadline`.
async fn drain(mut rest: Incoming, deadline: Instant) {
    while let Ok(Some(Ok(_))) = tokio::time::timeout_at(deadline, rest.frame()).await {}
}

impl Body for GuestBody {
    type Data = Bytes;
    type Error = wasmtime_wasi_http::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        if let Some(ahead) = self.ahead.take() {
            return Poll::Ready(Some(Ok(Frame::data(ahead))));
        }
        let this = &mut *self;
        let Some(rest) = this.rest.as_mut() else { return Poll::Ready(None) };
        match Pin::new(rest).poll_frame(cx) {
            Poll::Ready(None) => {
                this.rest = None;
                Poll::Ready(None)
            }
            Poll::Ready(Some(frame)) => Poll::Ready(Some(frame.map_err(wasmtime_wasi_http::Error::from))),
            Poll::Pending => match this
                .timer
                .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(this.deadline)))
                .as_mut()
                .poll(cx)
            {
                Poll::Ready(()) => {
                    this.rest = None;
                    Poll::Ready(Some(Err(wasmtime_wasi_http::Error::ConnectionReadTimeout)))
                }
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.ahead.is_none() && self.rest.as_ref().is_none_or(Body::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        let ahead = self.ahead.as_ref().map_or(0, |bytes| bytes.len() as u64);
        let rest = self.rest.as_ref().map_or_else(|| SizeHint::with_exact(0), Body::size_hint);
        let mut hint = SizeHint::new();
        hint.set_lower(rest.lower() + ahead);
        if let Some(upper) = rest.upper() {
            hint.set_upper(upper + ahead);
        }
        hint
    }
}
