//! The write gate of a SQLite file: one writer at a time, in the order they asked.
//!
//! Every connection the runner opens on a file queues here before it writes, and the
//! checkpointer queues here before it rewinds the file's log. Waiting is asynchronous, so a
//! queued request never holds a worker thread; SQLite's own busy handler would instead sleep and
//! retry in steps of up to 100 ms. Whoever waits longer than [`BUSY_TIMEOUT`] gets SQLite's
//! "database is locked", as with a busy timeout.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use platform::native::BUSY_TIMEOUT;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The gate of one file, shared by everything that writes it.
#[derive(Clone)]
pub struct WriteGate(Arc<Semaphore>);

/// A turn at the gate; the next writer goes when it is dropped.
pub type Turn = OwnedSemaphorePermit;

/// Why a turn was not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateError {
    /// Another writer held the file for [`BUSY_TIMEOUT`].
    Busy,
}

impl fmt::Display for GateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GateError::Busy => f.write_str("database is locked"),
        }
    }
}

impl WriteGate {
    pub fn new() -> WriteGate {
        WriteGate(Arc::new(Semaphore::new(1)))
    }

    /// Waits for this file's turn, at most [`BUSY_TIMEOUT`].
    pub async fn enter(&self) -> Result<Turn, GateError> {
        self.enter_within(BUSY_TIMEOUT).await
    }

    async fn enter_within(&self, limit: Duration) -> Result<Turn, GateError> {
        if let Ok(turn) = Arc::clone(&self.0).try_acquire_owned() {
            return Ok(turn);
        }
        match tokio::time::timeout(limit, Arc::clone(&self.0).acquire_owned()).await {
            Ok(Ok(turn)) => Ok(turn),
            // The semaphore is never closed, so only the timeout can refuse a turn.
            Ok(Err(_)) | Err(_) => Err(GateError::Busy),
        }
    }
}

impl Default for WriteGate {
    fn default() -> Self {
        WriteGate::new()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap()
    }

    #[test]
    fn writers_take_turns_in_the_order_they_asked() {
        let gate = WriteGate::new();
        let order = Arc::new(Mutex::new(Vec::new()));
        runtime().block_on(async {
            let first = gate.enter().await.unwrap();
            let waiters: Vec<_> = (1..=3)
                .map(|writer| {
                    let (gate, order) = (gate.clone(), Arc::clone(&order));
                    tokio::spawn(async move {
                        let _turn = gate.enter().await.unwrap();
                        order.lock().unwrap().push(writer);
                        tokio::task::yield_now().await;
                    })
                })
                .collect();
            // Every waiter queues while the first writer holds the file.
            tokio::task::yield_now().await;
            assert!(order.lock().unwrap().is_empty());
            drop(first);
            for waiter in waiters {
                waiter.await.unwrap();
            }
        });
        assert_eq!(*order.lock().unwrap(), [1, 2, 3]);
    }

    #[test]
    fn a_writer_kept_waiting_too_long_hears_the_file_is_locked() {
        let gate = WriteGate::new();
        runtime().block_on(async {
            let held = gate.enter().await.unwrap();
            let refused = gate.enter_within(Duration::from_millis(20)).await.unwrap_err();
            assert_eq!(refused.to_string(), "database is locked");
            drop(held);
            assert!(gate.enter_within(Duration::from_millis(20)).await.is_ok());
        });
    }
}
