//! Component stdout and stderr, sent to the runner's log one line at a time.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::AsyncWrite;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};

/// Which of the two streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// A component's output stream: every complete line becomes a log line naming the component.
#[derive(Clone)]
pub struct LogStream {
    component: Arc<str>,
    stream: Stream,
}

impl LogStream {
    pub fn new(component: Arc<str>, stream: Stream) -> Self {
        LogStream { component, stream }
    }
}

impl IsTerminal for LogStream {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for LogStream {
    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(LineWriter { target: self.clone(), pending: Vec::new() })
    }
}

struct LineWriter {
    target: LogStream,
    pending: Vec<u8>,
}

impl LineWriter {
    fn emit(&self, line: &[u8]) {
        let line = String::from_utf8_lossy(line);
        let line = line.trim_end_matches('\r');
        let component = &*self.target.component;
        match self.target.stream {
            Stream::Stdout => tracing::info!(target: "component", "[{component}] {line}"),
            Stream::Stderr => tracing::warn!(target: "component", "[{component}] {line}"),
        }
    }

    fn emit_complete_lines(&mut self) {
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.emit(&line[..line.len() - 1]);
        }
    }
}

impl AsyncWrite for LineWriter {
    fn poll_write(mut self: Pin<&mut Self>, _: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.pending.extend_from_slice(buf);
        self.emit_complete_lines();
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        let rest = std::mem::take(&mut self.pending);
        if !rest.is_empty() {
            self.emit(&rest);
        }
        Poll::Ready(Ok(()))
    }
}

impl Drop for LineWriter {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.emit(&rest);
        }
    }
}
