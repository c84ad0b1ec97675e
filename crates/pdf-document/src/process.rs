//! Poppler's tools run as child processes with a time limit and a memory limit, so that a
//! malicious PDF ends as an error rather than a hang or an exhausted machine.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{ErrorKind, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::{Limits, PdfError};

/// What a finished tool printed, and how it ended.
pub(crate) struct ToolOutput {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `program` with `args` in `dir`, its standard output and error written to files there.
/// The child is killed when it outlives `limits.timeout`.
pub(crate) fn run_tool(
    program: &'static str,
    args: &[&OsStr],
    dir: &Path,
    limits: &Limits,
) -> Result<ToolOutput, PdfError> {
    let stdout_path = dir.join(format!("{program}.out"));
    let stderr_path = dir.join(format!("{program}.err"));
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(create_file(&stdout_path)?)
        .stderr(create_file(&stderr_path)?);
    limit_resources(&mut command, limits);
    let child = command.spawn().map_err(|error| match error.kind() {
        ErrorKind::NotFound => PdfError::ToolMissing(program),
        _ => PdfError::Unreadable(format!("{program} could not start")),
    })?;
    let status = wait_with_timeout(child, limits.timeout)?;
    Ok(ToolOutput {
        status,
        stdout: read_capped(&stdout_path, limits.max_output_bytes)?,
        stderr: read_capped(&stderr_path, 64 * 1024)?,
    })
}

/// A short reason for a failed tool, from its standard error, for the user.
pub(crate) fn failure_reason(output: &ToolOutput) -> String {
    if let Some(signal) = output.status.signal() {
        return match signal {
            libc::SIGXFSZ => "its text is too large".to_owned(),
            _ => "the reader stopped (the file is too large or damaged)".to_owned(),
        };
    }
    let line = output.stderr.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or("damaged file");
    // Poppler prefixes its messages with "Syntax Error: ", "Internal Error: " and the like,
    // and some name the temporary file: keep the words after the last colon.
    let reason = line.rsplit(": ").next().unwrap_or(line).trim();
    let mut characters = reason.chars().take(120);
    match characters.next() {
        Some(first) => first.to_lowercase().chain(characters).collect(),
        None => "damaged file".to_owned(),
    }
}

fn create_file(path: &Path) -> Result<File, PdfError> {
    File::create(path).map_err(|error| PdfError::TempFile(error.kind().to_string()))
}

/// Sets the child's address-space, file-size and core-dump limits before it runs the tool.
fn limit_resources(command: &mut Command, limits: &Limits) {
    let memory = limits.max_memory_bytes as libc::rlim_t;
    let file_size = limits.max_output_bytes as libc::rlim_t;
    // SAFETY: the closure runs in the forked child before exec and only calls setrlimit, which
    // is async-signal-safe; it allocates nothing and touches no lock.
    unsafe {
        command.pre_exec(move || {
            set_limit(libc::RLIMIT_AS, memory)?;
            set_limit(libc::RLIMIT_FSIZE, file_size)?;
            set_limit(libc::RLIMIT_CORE, 0)?;
            Ok(())
        });
    }
}

fn set_limit(resource: libc::__rlimit_resource_t, value: libc::rlim_t) -> std::io::Result<()> {
    let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
    // SAFETY: `limit` is a valid rlimit that outlives the call.
    if unsafe { libc::setrlimit(resource, &limit) } == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
}

/// Waits for the child, polling, and kills it once `timeout` has passed.
fn wait_with_timeout(mut child: Child, timeout: Duration) -> Result<ExitStatus, PdfError> {
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(PdfError::TimedOut(timeout.as_secs().max(1)));
            }
            Ok(None) => {
                sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(25));
            }
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(PdfError::Unreadable("the reader could not be watched".to_owned()));
            }
        }
    }
}

/// Reads at most `cap` bytes of a tool's output file, as UTF-8 (lossy).
fn read_capped(path: &Path, cap: u64) -> Result<String, PdfError> {
    let file = File::open(path).map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    let mut bytes = Vec::new();
    file.take(cap).read_to_end(&mut bytes).map_err(|error| PdfError::TempFile(error.kind().to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
