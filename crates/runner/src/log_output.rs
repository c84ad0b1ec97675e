//! Where the runner's log lines go: a shared buffer that one thread writes out, a batch at a
//! time.
//!
//! Every request logs a line, and a `write` system call per line is a cost every request pays.
//! Here a line is appended to a buffer in memory under a lock, and the writer thread, woken by the
//! first line after the buffer was emptied, waits [`BATCH_WINDOW`] for more and writes them all
//! at once. Under load that is one `write` for every few dozen lines, and a line reaches the log
//! at most [`BATCH_WINDOW`] after it was logged. When the buffer holds [`MAX_PENDING`] bytes the
//! thread that logs writes it out itself, so a stalled writer thread cannot grow it without end.
//! Batches go out in the order they were taken from the buffer, so lines keep their order.
//!
//! [`LogOutput::flush`] writes what is pending at once: before the runner prints to standard
//! error directly, and when it exits.

use std::io::{self, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;

/// How long the writer thread gathers lines after the first one arrives.
pub const BATCH_WINDOW: Duration = Duration::from_millis(10);

/// The most the buffer holds before the thread logging a line writes it out itself.
pub const MAX_PENDING: usize = 256 << 10;

/// The output of the process's log, once [`to_stderr`] has started it.
static STDERR: OnceLock<LogOutput> = OnceLock::new();

/// Starts the process's log output to standard error (once; later calls return the same one).
pub fn to_stderr() -> LogOutput {
    STDERR.get_or_init(|| LogOutput::start(Box::new(io::stderr()))).clone()
}

/// Writes what the process's log has pending, if it was started.
pub fn flush() {
    if let Some(output) = STDERR.get() {
        output.flush();
    }
}

/// The log's output, shared by every thread that logs; cloning gives another handle to it.
#[derive(Clone)]
pub struct LogOutput {
    shared: Arc<Shared>,
}

struct Shared {
    pending: Mutex<Vec<u8>>,
    /// Signalled when a line arrives in an empty buffer.
    arrived: Condvar,
    /// Held while a batch is taken and written, so batches go out in order.
    sink: Mutex<Box<dyn Write + Send>>,
    window: Duration,
    max_pending: usize,
}

impl LogOutput {
    /// A log written to `sink`, with its writer thread started.
    pub fn start(sink: Box<dyn Write + Send>) -> LogOutput {
        Self::with_limits(sink, BATCH_WINDOW, MAX_PENDING)
    }

    fn with_limits(sink: Box<dyn Write + Send>, window: Duration, max_pending: usize) -> LogOutput {
        let shared = Arc::new(Shared {
            pending: Mutex::new(Vec::new()),
            arrived: Condvar::new(),
            sink: Mutex::new(sink),
            window,
            max_pending,
        });
        let writer = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("log".into())
            .spawn(move || writer.write_batches())
            .expect("start the log writer thread");
        LogOutput { shared }
    }

    /// Writes every pending line now.
    pub fn flush(&self) {
        self.shared.write_pending();
    }

    fn append(&self, line: &[u8]) {
        let mut pending = lock(&self.shared.pending);
        if pending.is_empty() {
            self.shared.arrived.notify_one();
        }
        pending.extend_from_slice(line);
        if pending.len() >= self.shared.max_pending {
            drop(pending);
            self.shared.write_pending();
        }
    }
}

impl Shared {
    /// The writer thread: waits for a line, gathers for the batch window, writes; forever.
    fn write_batches(&self) {
        loop {
            let mut pending = lock(&self.pending);
            while pending.is_empty() {
                pending = self.arrived.wait(pending).unwrap_or_else(|poisoned| poisoned.into_inner());
            }
            drop(pending);
            std::thread::sleep(self.window);
            self.write_pending();
        }
    }

    fn write_pending(&self) {
        let mut sink = lock(&self.sink);
        let batch = std::mem::take(&mut *lock(&self.pending));
        if batch.is_empty() {
            return;
        }
        // Nowhere left to report a failing log; the lines are dropped, as `eprintln!` would.
        let _ = sink.write_all(&batch).and_then(|()| sink.flush());
    }
}

fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What one log event writes through.
pub struct Line<'a> {
    output: &'a LogOutput,
}

impl Write for Line<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.output.append(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for LogOutput {
    type Writer = Line<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        Line { output: self }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    /// A sink the test can read, counting the writes it gets.
    #[derive(Clone, Default)]
    struct Recorder {
        written: Arc<Mutex<(Vec<u8>, usize)>>,
    }

    impl Write for Recorder {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            let mut written = lock(&self.written);
            written.0.extend_from_slice(bytes);
            written.1 += 1;
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Recorder {
        fn text(&self) -> String {
            String::from_utf8(lock(&self.written).0.clone()).unwrap()
        }

        fn writes(&self) -> usize {
            lock(&self.written).1
        }
    }

    fn log(output: &LogOutput, line: &str) {
        output.make_writer().write_all(line.as_bytes()).unwrap();
    }

    #[test]
    fn lines_logged_together_go_out_in_one_write_after_the_window() {
        let recorder = Recorder::default();
        let output = LogOutput::with_limits(Box::new(recorder.clone()), Duration::from_millis(200), MAX_PENDING);
        let logged = Instant::now();
        for n in 0..50 {
            log(&output, &format!("line {n}\n"));
        }
        assert_eq!(recorder.text(), "", "nothing is written before the window ends");
        let deadline = Instant::now() + Duration::from_secs(10);
        while recorder.text().is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(logged.elapsed() >= Duration::from_millis(200));
        let expected: String = (0..50).map(|n| format!("line {n}\n")).collect();
        assert_eq!(recorder.text(), expected);
        assert_eq!(recorder.writes(), 1);
    }

    #[test]
    fn flush_writes_pending_lines_at_once_and_keeps_their_order() {
        let recorder = Recorder::default();
        let output = LogOutput::with_limits(Box::new(recorder.clone()), Duration::from_secs(3600), MAX_PENDING);
        log(&output, "first\n");
        log(&output, "second\n");
        output.flush();
        assert_eq!(recorder.text(), "first\nsecond\n");
        log(&output, "third\n");
        output.flush();
        output.flush();
        assert_eq!(recorder.text(), "first\nsecond\nthird\n");
        assert_eq!(recorder.writes(), 2, "an empty buffer writes nothing");
    }

    #[test]
    fn a_full_buffer_is_written_by_the_thread_that_fills_it() {
        let recorder = Recorder::default();
        let output = LogOutput::with_limits(Box::new(recorder.clone()), Duration::from_secs(3600), 16);
        log(&output, "0123456789\n");
        assert_eq!(recorder.text(), "");
        log(&output, "abcdefghij\n");
        assert_eq!(recorder.text(), "0123456789\nabcdefghij\n");
    }

    #[test]
    fn lines_from_many_threads_all_arrive_whole() {
        let recorder = Recorder::default();
        let output = LogOutput::with_limits(Box::new(recorder.clone()), Duration::from_millis(1), 4096);
        let threads: Vec<_> = (0..4)
            .map(|thread| {
                let output = output.clone();
                std::thread::spawn(move || {
                    for n in 0..500 {
                        log(&output, &format!("thread {thread} line {n}\n"));
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        output.flush();
        let text = recorder.text();
        for thread in 0..4 {
            let lines: Vec<&str> = text.lines().filter(|line| line.starts_with(&format!("thread {thread} "))).collect();
            let expected: Vec<String> = (0..500).map(|n| format!("thread {thread} line {n}")).collect();
            assert_eq!(lines, expected, "thread {thread}'s lines, whole and in order");
        }
        assert_eq!(text.lines().count(), 2000);
    }
}
