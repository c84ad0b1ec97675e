//! Write-ahead-log checkpoints in the background.
//!
//! By default SQLite checkpoints inside the commit that pushes the log past 1000 pages, so one
//! request in a thousand writes the log back into the database, syncs, and holds the write lock
//! meanwhile. The runner's connections switch that off, and this thread checkpoints every file
//! once a second instead (PASSIVE: it never blocks readers or writers), and once more at shutdown.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

/// How often the log is written back.
const INTERVAL: Duration = Duration::from_secs(1);

/// The statement every runner connection runs when it opens.
pub const NO_AUTOCHECKPOINT: &str = "PRAGMA wal_autocheckpoint = 0";

/// The running checkpointer; [`Checkpointer::stop`] runs a last checkpoint and ends it.
pub struct Checkpointer {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    pub fn start(files: Vec<PathBuf>) -> Checkpointer {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("checkpoint".into())
            .spawn(move || {
                let mut connections: Vec<(PathBuf, Option<Connection>)> =
                    files.into_iter().map(|path| (path, None)).collect();
                while !flag.load(Ordering::Relaxed) {
                    std::thread::park_timeout(INTERVAL);
                    checkpoint_all(&mut connections, "PASSIVE");
                }
                checkpoint_all(&mut connections, "TRUNCATE");
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

fn checkpoint_all(connections: &mut [(PathBuf, Option<Connection>)], mode: &str) {
    for (path, connection) in connections.iter_mut() {
        if connection.is_none() {
            *connection = Connection::open(&*path).ok();
        }
        let Some(open) = connection.as_ref() else { continue };
        let _ = open.busy_timeout(Duration::from_secs(5));
        if let Err(error) = open.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |_| Ok(())) {
            tracing::warn!("checkpointing {} failed: {error}", path.display());
        }
    }
}
