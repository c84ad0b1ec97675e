//! The write gate of a SQLite file: one writer at a time, in the order they asked.
//!
//! Every connection the runner opens on a file queues here before it writes, and the
//! checkpointer queues here before it rewinds the file's log. Waiting is asynchronous, so a
//! queued request never holds a worker thread; SQLite's own busy handler would instead sleep and
//! retry in steps of up to 100 ms. Whoever waits longer than [`BUSY_TIMEOUT`] gets SQLite's
//! "database is locked", as with a busy timeout.
//!
//! There are two ways through. A writer that keeps the file across several statements (a
//! transaction, a checkpoint) takes a [`Turn`] with [`WriteGate::enter`] and holds it. A writer
//! with one short piece of work (one statement in autocommit) hands it to the gate with
//! [`WriteGate::run`]: if the gate is taken, whoever holds it runs the queued work when it
//! leaves, on its own thread, before it lets the next turn-taker in. A turn handed to a waiting
//! task is idle until that task's worker gets to it, which under load is a whole guest's run
//! away; queued work needs nobody to wake up first, so the gate is busy only as long as the
//! statements themselves.

use std::any::Any;
use std::collections::VecDeque;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use platform::native::BUSY_TIMEOUT;
use tokio::sync::{Notify, oneshot};

/// How many queued pieces of work a leaving writer runs before it hands the gate on to the next
/// in line, so that its own request is not kept waiting by writers that never stop coming.
const MAX_RUN_ON_LEAVING: usize = 32;

/// The gate of one file, shared by everything that writes it.
#[derive(Clone)]
pub struct WriteGate(Arc<Gate>);

#[derive(Debug)]
struct Gate {
    state: Mutex<State>,
}

/// Invariant: the queue is empty whenever the gate is free.
#[derive(Debug)]
struct State {
    taken: bool,
    queue: VecDeque<Waiter>,
}

#[derive(Debug)]
enum Waiter {
    /// A task waiting for a turn of its own.
    Turn(oneshot::Sender<Turn>),
    /// Work to run in the file's turn.
    Work(Arc<dyn Queued>),
}

/// A turn at the gate; the queue moves on when it is dropped.
#[derive(Debug)]
pub struct Turn {
    gate: Option<Arc<Gate>>,
}

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
        WriteGate(Arc::new(Gate { state: Mutex::new(State { taken: false, queue: VecDeque::new() }) }))
    }

    /// Waits for this file's turn, at most [`BUSY_TIMEOUT`].
    pub async fn enter(&self) -> Result<Turn, GateError> {
        self.enter_within(BUSY_TIMEOUT).await
    }

    async fn enter_within(&self, limit: Duration) -> Result<Turn, GateError> {
        let receiver = {
            let mut state = lock(&self.0.state);
            if !state.taken {
                state.taken = true;
                return Ok(self.turn());
            }
            let (sender, receiver) = oneshot::channel();
            state.queue.push_back(Waiter::Turn(sender));
            receiver
        };
        // A turn sent after the timeout is dropped with the receiver, which lets the next one in.
        match tokio::time::timeout(limit, receiver).await {
            Ok(Ok(turn)) => Ok(turn),
            Ok(Err(_)) | Err(_) => Err(GateError::Busy),
        }
    }

    /// Runs `work` on `data` in this file's turn, waiting at most [`BUSY_TIMEOUT`] for it, and
    /// gives `data` back either way. The work runs here if the gate is free; otherwise it may
    /// run on the thread of the writer ahead of it.
    pub async fn run<D, T>(&self, data: D, work: impl FnOnce(&mut D) -> T + Send + 'static) -> (D, Result<T, GateError>)
    where
        D: Send + 'static,
        T: Send + 'static,
    {
        self.run_within(BUSY_TIMEOUT, data, work).await
    }

    async fn run_within<D, T>(
        &self,
        limit: Duration,
        mut data: D,
        work: impl FnOnce(&mut D) -> T + Send + 'static,
    ) -> (D, Result<T, GateError>)
    where
        D: Send + 'static,
        T: Send + 'static,
    {
        let slot = {
            let mut state = lock(&self.0.state);
            if !state.taken {
                state.taken = true;
                drop(state);
                let turn = self.turn();
                let result = work(&mut data);
                drop(turn);
                return (data, Ok(result));
            }
            let slot = Arc::new(Slot { cell: Mutex::new(Cell::Queued(data, Box::new(work))), done: Notify::new() });
            state.queue.push_back(Waiter::Work(Arc::clone(&slot) as Arc<dyn Queued>));
            slot
        };
        let withdraw = Withdraw(&slot);
        let timed_out = tokio::time::timeout(limit, slot.done.notified()).await.is_err();
        std::mem::forget(withdraw);
        let mut cell = lock(&slot.cell);
        match std::mem::replace(&mut *cell, Cell::Taken) {
            Cell::Done(data, Ok(result)) => (data, Ok(result)),
            Cell::Done(_, Err(panic)) => {
                drop(cell);
                resume_unwind(panic)
            }
            Cell::Handed(turn, mut data, work) => {
                drop(cell);
                let result = work(&mut data);
                drop(turn);
                (data, Ok(result))
            }
            Cell::Queued(data, _) => {
                debug_assert!(timed_out, "woken before the work ran");
                (data, Err(GateError::Busy))
            }
            Cell::Taken => unreachable!("a slot is emptied once, by its waiter"),
        }
    }

    fn turn(&self) -> Turn {
        Turn { gate: Some(Arc::clone(&self.0)) }
    }
}

impl Default for WriteGate {
    fn default() -> Self {
        WriteGate::new()
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(gate) = self.gate.take() {
            gate.leave();
        }
    }
}

impl Gate {
    /// Moves the queue on from the writer that is leaving: runs queued work (up to
    /// [`MAX_RUN_ON_LEAVING`] pieces), then hands the turn to the next waiter or frees the gate.
    fn leave(self: Arc<Self>) {
        let mut ran = 0;
        loop {
            let next = {
                let mut state = lock(&self.state);
                match state.queue.pop_front() {
                    Some(next) => next,
                    None => {
                        state.taken = false;
                        return;
                    }
                }
            };
            let handed = match next {
                Waiter::Work(work) if ran < MAX_RUN_ON_LEAVING => {
                    ran += usize::from(work.run());
                    continue;
                }
                Waiter::Work(work) => work.hand(Turn { gate: Some(Arc::clone(&self)) }),
                Waiter::Turn(sender) => sender.send(Turn { gate: Some(Arc::clone(&self)) }),
            };
            match handed {
                Ok(()) => return,
                // Its waiter has given up: the turn is still this one.
                Err(mut turn) => drop(turn.gate.take()),
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Work waiting at the gate.
trait Queued: Send + Sync + fmt::Debug {
    /// Runs the work in the current turn; false if its waiter has given up.
    fn run(&self) -> bool;
    /// Gives the waiter the turn to run its work itself; the turn back if it has given up.
    fn hand(&self, turn: Turn) -> Result<(), Turn>;
}

type Work<D, T> = Box<dyn FnOnce(&mut D) -> T + Send>;

struct Slot<D, T> {
    cell: Mutex<Cell<D, T>>,
    done: Notify,
}

enum Cell<D, T> {
    Queued(D, Work<D, T>),
    Handed(Turn, D, Work<D, T>),
    Done(D, Result<T, Box<dyn Any + Send>>),
    /// Emptied by its waiter, or withdrawn.
    Taken,
}

impl<D, T> fmt::Debug for Slot<D, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Slot")
    }
}

impl<D: Send, T: Send> Queued for Slot<D, T> {
    fn run(&self) -> bool {
        // The waiter cannot give up while the work runs: it needs this lock to.
        let mut cell = lock(&self.cell);
        let Cell::Queued(mut data, work) = std::mem::replace(&mut *cell, Cell::Taken) else { return false };
        // A panic is the waiter's, not this thread's: it goes on in the waiter's task.
        let result = catch_unwind(AssertUnwindSafe(|| work(&mut data)));
        *cell = Cell::Done(data, result);
        drop(cell);
        self.done.notify_one();
        true
    }

    fn hand(&self, turn: Turn) -> Result<(), Turn> {
        let mut cell = lock(&self.cell);
        match std::mem::replace(&mut *cell, Cell::Taken) {
            Cell::Queued(data, work) => {
                *cell = Cell::Handed(turn, data, work);
                drop(cell);
                self.done.notify_one();
                Ok(())
            }
            other => {
                *cell = other;
                Err(turn)
            }
        }
    }
}

/// Withdraws queued work whose waiter is dropped before it ran (a request that ended early).
struct Withdraw<'a, D, T>(&'a Slot<D, T>);

impl<D, T> Drop for Withdraw<'_, D, T> {
    fn drop(&mut self) {
        let mut cell = lock(&self.0.cell);
        if matches!(*cell, Cell::Queued(..) | Cell::Handed(..)) {
            let withdrawn = std::mem::replace(&mut *cell, Cell::Taken);
            drop(cell);
            // A handed turn, dropped, lets the next writer in.
            drop(withdrawn);
        }
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

    #[test]
    fn work_runs_at_once_on_a_free_gate_and_gives_its_data_back() {
        let gate = WriteGate::new();
        let (data, result) = runtime().block_on(gate.run(vec![1], |data| {
            data.push(2);
            data.len()
        }));
        assert_eq!((data, result), (vec![1, 2], Ok(2)));
        // The gate is free again.
        assert!(runtime().block_on(gate.enter_within(Duration::from_millis(20))).is_ok());
    }

    #[test]
    fn queued_work_runs_on_the_leaving_writers_thread_in_order() {
        let gate = WriteGate::new();
        let order = Arc::new(Mutex::new(Vec::new()));
        let runtime = runtime();
        let turn = runtime.block_on(gate.enter()).unwrap();
        // Two requests queue their work while a writer on this thread holds the gate.
        let waiters: Vec<_> = (1..=2)
            .map(|writer| {
                let order = Arc::clone(&order);
                queue_from_another_thread(&gate, writer, move |writer| {
                    order.lock().unwrap().push((*writer, std::thread::current().id()));
                    *writer * 10
                })
            })
            .collect();
        assert!(order.lock().unwrap().is_empty());
        drop(turn);
        let here = std::thread::current().id();
        assert_eq!(*order.lock().unwrap(), [(1, here), (2, here)]);
        let answers: Vec<_> = waiters.into_iter().map(|waiter| waiter.join().unwrap()).collect();
        assert_eq!(answers, [(1, Ok(10)), (2, Ok(20))]);
    }

    #[test]
    fn work_and_turns_keep_the_order_they_asked_in() {
        let gate = WriteGate::new();
        let order = Arc::new(Mutex::new(Vec::new()));
        runtime().block_on(async {
            let first = gate.enter().await.unwrap();
            let work = |name: &'static str| {
                let (gate, order) = (gate.clone(), Arc::clone(&order));
                tokio::spawn(async move { gate.run((), move |_| order.lock().unwrap().push(name)).await.1.unwrap() })
            };
            let turn = |name: &'static str| {
                let (gate, order) = (gate.clone(), Arc::clone(&order));
                tokio::spawn(async move {
                    let _turn = gate.enter().await.unwrap();
                    order.lock().unwrap().push(name);
                    tokio::task::yield_now().await;
                })
            };
            let tasks = [work("work 1"), turn("turn 2"), work("work 3"), turn("turn 4")];
            tokio::task::yield_now().await;
            assert!(order.lock().unwrap().is_empty());
            drop(first);
            for task in tasks {
                task.await.unwrap();
            }
        });
        assert_eq!(*order.lock().unwrap(), ["work 1", "turn 2", "work 3", "turn 4"]);
    }

    #[test]
    fn work_kept_waiting_too_long_is_withdrawn_and_never_runs() {
        let gate = WriteGate::new();
        let ran = Arc::new(Mutex::new(false));
        runtime().block_on(async {
            let held = gate.enter().await.unwrap();
            let flag = Arc::clone(&ran);
            let (data, refused) =
                gate.run_within(Duration::from_millis(20), "data", move |_| *flag.lock().unwrap() = true).await;
            assert_eq!((data, refused), ("data", Err(GateError::Busy)));
            drop(held);
        });
        assert!(!*ran.lock().unwrap());
        assert!(runtime().block_on(gate.enter_within(Duration::from_millis(20))).is_ok());
    }

    #[test]
    fn work_whose_request_ended_never_runs() {
        let gate = WriteGate::new();
        let ran = Arc::new(Mutex::new(false));
        runtime().block_on(async {
            let held = gate.enter().await.unwrap();
            let flag = Arc::clone(&ran);
            let waiting = tokio::spawn({
                let gate = gate.clone();
                async move { gate.run((), move |_| *flag.lock().unwrap() = true).await }
            });
            tokio::task::yield_now().await;
            waiting.abort();
            assert!(waiting.await.unwrap_err().is_cancelled());
            drop(held);
        });
        assert!(!*ran.lock().unwrap());
        assert!(runtime().block_on(gate.enter_within(Duration::from_millis(20))).is_ok());
    }

    #[test]
    fn a_panic_in_queued_work_is_its_requests_alone() {
        let gate = WriteGate::new();
        runtime().block_on(async {
            let held = gate.enter().await.unwrap();
            let panicking = tokio::spawn({
                let gate = gate.clone();
                async move { gate.run((), |_| panic!("the statement failed")).await }
            });
            let next = tokio::spawn({
                let gate = gate.clone();
                async move { gate.run(1, |n| *n + 1).await }
            });
            tokio::task::yield_now().await;
            // The holder runs both: the panic does not reach it, nor the work after it.
            drop(held);
            assert!(panicking.await.unwrap_err().is_panic());
            assert_eq!(next.await.unwrap(), (1, Ok(2)));
        });
    }

    #[test]
    fn a_leaving_writer_runs_a_bounded_batch_then_hands_the_gate_on() {
        let gate = WriteGate::new();
        let ran_here = Arc::new(Mutex::new(0));
        let runtime = runtime();
        let turn = runtime.block_on(gate.enter()).unwrap();
        let here = std::thread::current().id();
        let waiters: Vec<_> = (0..MAX_RUN_ON_LEAVING + 2)
            .map(|_| {
                let ran_here = Arc::clone(&ran_here);
                queue_from_another_thread(&gate, (), move |_| {
                    if std::thread::current().id() == here {
                        *ran_here.lock().unwrap() += 1;
                    }
                })
            })
            .collect();
        drop(turn);
        for waiter in waiters {
            assert_eq!(waiter.join().unwrap(), ((), Ok(())));
        }
        // The first waiter past the batch got the turn and ran its own work and the next.
        assert_eq!(*ran_here.lock().unwrap(), MAX_RUN_ON_LEAVING);
    }

    /// Queues `work` at the gate from a thread of its own, and returns once it is in the queue
    /// (so work queued one after another keeps that order).
    fn queue_from_another_thread<D, T>(
        gate: &WriteGate,
        data: D,
        work: impl FnOnce(&mut D) -> T + Send + 'static,
    ) -> std::thread::JoinHandle<(D, Result<T, GateError>)>
    where
        D: Send + 'static,
        T: Send + 'static,
    {
        let before = queued(gate);
        let waiting = gate.clone();
        let waiter = std::thread::spawn(move || runtime().block_on(waiting.run(data, work)));
        wait_until(|| queued(gate) > before);
        waiter
    }

    fn queued(gate: &WriteGate) -> usize {
        lock(&gate.0.state).queue.len()
    }

    fn wait_until(condition: impl Fn() -> bool) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !condition() {
            assert!(std::time::Instant::now() < deadline, "timed out");
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
