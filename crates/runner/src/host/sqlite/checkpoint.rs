//! Write-ahead-log checkpoints in the background.
//!
//! By default SQLite checkpoints inside the commit that pushes the log past 1000 pages, so one
//! request in a thousand writes the log back into the database, syncs, and meanwhile holds the
//! write lock (and, for the key-value store, the worker thread it runs on). The runner's
//! connections, to the databases and to the key-value files alike, switch that off, and this
//! thread checkpoints every file ten times a second instead (PASSIVE: it never blocks readers or
//! writers), and once more at shutdown.
//!
//! Each pass syncs the log before it copies pages back, and the log holds a page for every
//! commit since the last pass, so the cost of a pass grows with the time between passes. Rare
//! long passes slow down every request that runs beside them; frequent short ones spread the
//! same work out, which keeps the latency tail short.
//!
//! A checkpoint copies pages back, but only a writer that starts when the whole log has been
//! copied rewinds it to the beginning. Under sustained writes some writer is always between
//! those two moments, so the log would grow without end and
//! every page lookup in it would get slower. So when the log is longer than [`REWIND_FRAMES`]
//! after a passive pass, the thread takes the file's [`WriteGate`], the one every writer queues
//! at, and checkpoints in RESTART mode: writers wait for that one short pass (the passive one has
//! copied nearly everything), and the next one writes the log from its beginning again. That
//! pause (two syncs, plus the queue ahead of it at the gate) comes at most once per
//! [`REWIND_INTERVAL`] per file, not at every pass. The log file
//! keeps its length, so those writes overwrite blocks the file system has already allocated;
//! truncating it instead (TRUNCATE mode) would cost a system call more in the pause and make the
//! file system allocate the log's blocks again as it regrows.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use platform::native::{BUSY_TIMEOUT, Sharing, open_file};
use rusqlite::Connection;

use super::gate::WriteGate;

/// How often the log is written back.
const PASS_INTERVAL: Duration = Duration::from_millis(100);

/// The shortest time between two rewinds of one file's log (each pauses its writers).
const REWIND_INTERVAL: Duration = Duration::from_secs(1);

/// How long the log may grow (in pages) before writers are paused to rewind it; SQLite's own
/// automatic checkpoint starts at the same length.
pub const REWIND_FRAMES: i64 = 1000;

/// The statement every runner connection runs when it opens.
pub const NO_AUTOCHECKPOINT: &str = "PRAGMA wal_autocheckpoint = 0";

/// A SQLite file to checkpoint, and the write gate of its connections.
pub struct Target {
    pub path: PathBuf,
    /// How the runner's other connections share the file (the checkpointer's must match).
    pub sharing: Sharing,
    pub gate: WriteGate,
}

/// The running checkpointer; [`Checkpointer::stop`] runs a last checkpoint and ends it.
pub struct Checkpointer {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    pub fn start(targets: Vec<Target>) -> Checkpointer {
        Self::every(PASS_INTERVAL, REWIND_INTERVAL, targets)
    }

    /// Passes every `interval`; rewinds a file's log at most once per `rewind_interval`.
    fn every(interval: Duration, rewind_interval: Duration, targets: Vec<Target>) -> Checkpointer {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("checkpoint".into())
            .spawn(move || {
                // Only to wait for a write gate from this plain thread.
                let waiter = tokio::runtime::Builder::new_current_thread().enable_time().build();
                let mut files: Vec<File> = targets
                    .into_iter()
                    .map(|target| File { target, connection: None, rewound: Instant::now(), rewind_interval })
                    .collect();
                while !flag.load(Ordering::Relaxed) {
                    std::thread::park_timeout(interval);
                    for file in &mut files {
                        file.checkpoint(waiter.as_ref().ok());
                    }
                }
                for file in &mut files {
                    file.run("TRUNCATE");
                }
            })
            .expect("start the checkpoint thread");
        Checkpointer { stop, thread: Some(thread) }
    }

    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}

struct File {
    target: Target,
    connection: Option<Connection>,
    /// When the log was last rewound (or the thread started).
    rewound: Instant,
    rewind_interval: Duration,
}

impl File {
    fn checkpoint(&mut self, waiter: Option<&tokio::runtime::Runtime>) {
        let Some(log) = self.run("PASSIVE") else { return };
        if log <= REWIND_FRAMES || self.rewound.elapsed() < self.rewind_interval {
            return;
        }
        let Some(waiter) = waiter else { return };
        if let Ok(_turn) = waiter.block_on(self.target.gate.enter()) {
            self.run("RESTART");
            self.rewound = Instant::now();
        }
    }

    /// Runs one checkpoint; returns how many pages the log holds.
    fn run(&mut self, mode: &str) -> Option<i64> {
        if self.connection.is_none() {
            self.connection = open_file(&self.target.path, self.target.sharing).ok();
        }
        let connection = self.connection.as_ref()?;
        let _ = connection.busy_timeout(BUSY_TIMEOUT);
        let pragma = format!("PRAGMA wal_checkpoint({mode})");
        match connection.query_row(&pragma, [], |row| row.get(1)) {
            Ok(log) => Some(log),
            Err(error) => {
                tracing::warn!("checkpointing {} failed: {error}", self.target.path.display());
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future;

    use super::*;
    use crate::host::key_value::KvStore;
    use crate::host::sqlite::SqlitePool;

    /// Writers that never pause, as under load: four tasks committing one after another,
    /// `commits` in all; `write(writer, n)` makes one commit.
    fn write_continuously<F, W>(commits: i64, write: W)
    where
        W: Fn(i64, i64) -> F + Clone + Send + 'static,
        F: Future<Output = ()> + Send,
    {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        runtime.block_on(async {
            let writers: Vec<_> = (0..4)
                .map(|writer| {
                    let write = write.clone();
                    tokio::spawn(async move {
                        for n in 0..commits / 4 {
                            write(writer, n).await;
                            tokio::task::yield_now().await;
                        }
                    })
                })
                .collect();
            for writer in writers {
                writer.await.unwrap();
            }
        });
    }

    fn wal_pages(path: &std::path::Path) -> u64 {
        let wal = path.with_extension("db-wal");
        std::fs::metadata(wal).map_or(0, |metadata| metadata.len()) / 4096
    }

    /// The pages in a database's log after `commits` upserts by writers that never pause, with
    /// passes every 10 ms and rewinds at most once per `rewind_interval`.
    fn database_log_after(commits: i64, rewind_interval: Duration) -> u64 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("test.db");
        let pool = SqlitePool::with_storage("default", Some(path.clone()), crate::host::sqlite::Storage::Pooled);
        crate::host::sqlite::run_startup_sql(
            &pool,
            &["PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)".to_owned()],
        )
        .unwrap();
        let mut checkpointer = Checkpointer::every(
            Duration::from_millis(10),
            rewind_interval,
            vec![Target { path: path.clone(), sharing: Sharing::Processes, gate: pool.gate() }],
        );
        write_continuously(commits, move |writer, n| {
            let pool = Arc::clone(&pool);
            async move {
                let mut connection = pool.checkout().unwrap();
                let sql = "INSERT INTO t (id, n) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET n = excluded.n";
                let params = vec![platform::Value::Integer(writer), platform::Value::Integer(n)];
                connection.execute(sql.to_owned(), params).await.unwrap();
            }
        });
        let pages = wal_pages(&path);
        checkpointer.stop();
        pages
    }

    #[test]
    fn a_database_log_stays_short_under_writers_that_never_pause() {
        let commits = 10 * REWIND_FRAMES;
        let pages = database_log_after(commits, Duration::from_millis(10));
        // Without rewinds the log would hold a page per commit.
        assert!(pages < 3 * REWIND_FRAMES as u64, "the log holds {pages} pages after {commits} commits");
    }

    #[test]
    fn the_log_is_rewound_no_more_often_than_its_interval_allows() {
        let commits = 10 * REWIND_FRAMES;
        // Passes every 10 ms, but no rewind within the hour: the log keeps growing (nearly a
        // page per commit; a writer that happens to start just after a pass rewinds it).
        let pages = database_log_after(commits, Duration::from_secs(3600));
        assert!(pages > 5 * REWIND_FRAMES as u64, "the log holds {pages} pages after {commits} commits");
    }

    #[test]
    fn a_key_value_log_stays_short_under_writers_that_never_pause() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kv.db");
        let gate = WriteGate::new();
        let store = KvStore::open("default", Some(path.clone()), Sharing::ThisProcess, gate.clone()).unwrap();
        let mut checkpointer = Checkpointer::every(
            Duration::from_millis(10),
            Duration::from_millis(10),
            vec![Target { path: path.clone(), sharing: Sharing::ThisProcess, gate }],
        );

        let commits = 10 * REWIND_FRAMES;
        write_continuously(commits, move |writer, n| {
            let store = Arc::clone(&store);
            async move {
                let key = format!("writer-{writer}");
                store.write(move |kv| platform::KeyValue::set(kv, &key, &n.to_le_bytes())).await.unwrap();
            }
        });
        let pages = wal_pages(&path);
        checkpointer.stop();

        // The store's connection never checkpoints by itself, and passive checkpoints alone do
        // not keep up with writers that never pause.
        assert!(pages < 3 * REWIND_FRAMES as u64, "the log holds {pages} pages after {commits} commits");
    }
}
