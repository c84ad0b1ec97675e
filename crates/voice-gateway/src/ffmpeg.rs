//! Decoding container and codec formats through one streaming `ffmpeg` child process per session.
//!
//! The client's chunks are written to ffmpeg's standard input by a writer task (so a slow ffmpeg never
//! blocks the session), and ffmpeg writes mono s16le at 16 kHz to its standard output, which a reader
//! task forwards as it comes. Whatever makes ffmpeg fail (a corrupt stream, a codec it cannot decode, a
//! format other than the session's) arrives as [`Decoded::Failed`], never as a dropped socket.

use std::process::Stdio;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;
use tokio::sync::mpsc;

/// What the decoder reports to the session.
#[derive(Debug)]
pub enum Decoded {
    /// 16 kHz mono samples.
    Audio(Vec<i16>),
    /// The input ended and every sample has been delivered.
    Finished,
    /// The stream cannot be decoded: ffmpeg's last error line.
    Failed(String),
}

/// The largest part of ffmpeg's standard error kept for the failure message.
const STDERR_KEPT: usize = 4096;

/// What a child process wrote on standard error until it closed it: its last
/// [`STDERR_KEPT`] bytes, for the log when it fails.
pub(crate) async fn stderr_tail(mut stderr: impl tokio::io::AsyncRead + Unpin) -> String {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 1024];
    while let Ok(read) = stderr.read(&mut buffer).await {
        if read == 0 {
            break;
        }
        kept.extend_from_slice(&buffer[..read]);
        if kept.len() > STDERR_KEPT {
            kept.drain(..kept.len() - STDERR_KEPT);
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// One ffmpeg process decoding the session's stream.
pub struct FfmpegDecoder {
    input: Option<mpsc::UnboundedSender<Vec<u8>>>,
    /// Dropped or sent to: the process is killed.
    kill: Option<tokio::sync::oneshot::Sender<()>>,
}

impl FfmpegDecoder {
    /// Starts `program` (normally `ffmpeg`) for the demuxer (`None`: let ffmpeg probe); decoded audio
    /// and the outcome go to `events`.
    pub fn start(
        program: &str,
        demuxer: Option<&str>,
        events: mpsc::UnboundedSender<Decoded>,
    ) -> Result<FfmpegDecoder, String> {
        let mut command = Command::new(program);
        command.args(["-hide_banner", "-nostdin", "-loglevel", "error"]);
        // Small probes: the stream arrives in real time, and a large probe would hold back the first
        // seconds of audio.
        command.args(["-probesize", "32768", "-analyzeduration", "0", "-fflags", "+nobuffer"]);
        if let Some(demuxer) = demuxer {
            command.args(["-f", demuxer]);
        }
        command.args(["-i", "pipe:0", "-vn", "-ac", "1", "-ar", "16000", "-f", "s16le", "pipe:1"]);
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true);
        let mut child = command.spawn().map_err(|error| format!("cannot start {program}: {error}"))?;
        let (Some(mut stdin), Some(mut stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err("ffmpeg's pipes are missing".to_string());
        };

        let (input, mut chunks) = mpsc::unbounded_channel::<Vec<u8>>();
        tokio::spawn(async move {
            while let Some(chunk) = chunks.recv().await {
                // A write that fails means ffmpeg stopped: the reader reports why.
                if stdin.write_all(&chunk).await.is_err() {
                    return;
                }
            }
            // The sender is gone: end of input, ffmpeg flushes and exits.
            let _ = stdin.shutdown().await;
        });

        let (errors_done, errors) = tokio::sync::oneshot::channel::<String>();
        tokio::spawn(async move {
            let _ = errors_done.send(stderr_tail(stderr).await);
        });

        let (kill, killed) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            tokio::select! {
                () = forward_output(&mut stdout, &events) => {}
                _ = killed => {
                    let _ = child.kill().await;
                    return;
                }
            }
            let status = child.wait().await;
            let stderr = errors.await.unwrap_or_default();
            let last_line = stderr.lines().rev().find(|line| !line.trim().is_empty()).map(str::trim);
            let outcome = match (status, last_line) {
                (Ok(status), _) if status.success() => Decoded::Finished,
                (Ok(status), None) => Decoded::Failed(format!("ffmpeg exited with {status}")),
                (Ok(_), Some(line)) => Decoded::Failed(line.to_string()),
                (Err(error), _) => Decoded::Failed(format!("waiting for ffmpeg: {error}")),
            };
            let _ = events.send(outcome);
        });
        Ok(FfmpegDecoder { input: Some(input), kill: Some(kill) })
    }

    /// Queues a chunk for ffmpeg.
    pub fn write(&self, chunk: Vec<u8>) {
        if let Some(input) = &self.input {
            let _ = input.send(chunk);
        }
    }

    /// Ends the input: ffmpeg decodes what is left, then [`Decoded::Finished`] (or `Failed`) follows.
    pub fn finish(&mut self) {
        self.input = None;
    }

    /// Stops ffmpeg at once (the session is over).
    pub fn kill(&mut self) {
        self.input = None;
        if let Some(kill) = self.kill.take() {
            let _ = kill.send(());
        }
    }
}

impl Drop for FfmpegDecoder {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Forwards ffmpeg's standard output as samples until it ends (or the session stops listening).
async fn forward_output(stdout: &mut tokio::process::ChildStdout, events: &mpsc::UnboundedSender<Decoded>) {
    let mut buffer = vec![0u8; 16_000];
    let mut odd_byte: Option<u8> = None;
    loop {
        match stdout.read(&mut buffer).await {
            Ok(0) => return,
            Ok(read) => {
                let mut bytes = Vec::with_capacity(read + 1);
                bytes.extend(odd_byte.take());
                bytes.extend_from_slice(&buffer[..read]);
                if bytes.len() % 2 == 1 {
                    odd_byte = bytes.pop();
                }
                let samples = bytes.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect();
                if events.send(Decoded::Audio(samples)).is_err() {
                    return;
                }
            }
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn garbage_is_a_failure_not_a_hang() {
        if std::process::Command::new("ffmpeg").arg("-version").output().is_err() {
            eprintln!("skipped: ffmpeg is not installed");
            return;
        }
        let (events, mut received) = mpsc::unbounded_channel();
        let mut decoder = FfmpegDecoder::start("ffmpeg", Some("ogg"), events).expect("started");
        decoder.write(vec![0x5a; 20_000]);
        decoder.finish();
        let outcome = tokio::time::timeout(std::time::Duration::from_secs(20), async {
            loop {
                match received.recv().await {
                    Some(Decoded::Audio(_)) => continue,
                    other => return other,
                }
            }
        })
        .await
        .expect("an outcome in time");
        assert!(matches!(outcome, Some(Decoded::Failed(_))), "{outcome:?}");
    }

    #[tokio::test]
    async fn a_missing_program_cannot_start() {
        let (events, _received) = mpsc::unbounded_channel();
        assert!(FfmpegDecoder::start("/nonexistent/ffmpeg", None, events).is_err());
    }
}
