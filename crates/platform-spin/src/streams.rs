//! Reading and writing whole bodies through `wasi:io` streams, for requests and responses in
//! both directions.

use wasi::io::streams::{InputStream, OutputStream, StreamError};

/// The most one read asks for.
const READ_CHUNK: u64 = 64 << 10;

/// The most one blocking write may carry (`wasi:io`'s limit).
const BLOCKING_WRITE_LIMIT: usize = 4096;

/// Reads a stream to its end.
pub fn read_to_end(stream: &InputStream) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    read_until(stream, &mut bytes, usize::MAX)?;
    Ok(bytes)
}

/// Appends what the stream has to `bytes`, until its end (`true`) or until `bytes` holds more
/// than `most` (`false`; a last read may bring up to 64 KiB beyond it).
pub fn read_until(stream: &InputStream, bytes: &mut Vec<u8>, most: usize) -> Result<bool, String> {
    while bytes.len() <= most {
        match stream.blocking_read(READ_CHUNK) {
            Ok(chunk) => bytes.extend_from_slice(&chunk),
            Err(StreamError::Closed) => return Ok(true),
            Err(StreamError::LastOperationFailed(error)) => return Err(error.to_debug_string()),
        }
    }
    Ok(false)
}

/// Writes all of `bytes` and flushes them. Up to 4 KiB go in one blocking call (a typical
/// JSON answer: one host call in all). More go in writes as large as the stream accepts at
/// the time (a host takes up to a megabyte at once), waiting whenever it accepts nothing,
/// then one blocking flush: a multi-megabyte glossary is a handful of writes, not one
/// blocking call (and one HTTP chunk) per 4 KiB.
pub fn write_all(stream: &OutputStream, bytes: &[u8]) -> Result<(), StreamError> {
    if bytes.is_empty() {
        return Ok(());
    }
    if bytes.len() <= BLOCKING_WRITE_LIMIT {
        return stream.blocking_write_and_flush(bytes);
    }
    let mut rest = bytes;
    while !rest.is_empty() {
        let accepted = usize::try_from(stream.check_write()?).unwrap_or(usize::MAX);
        if accepted == 0 {
            stream.subscribe().block();
            continue;
        }
        let (now, later) = rest.split_at(accepted.min(rest.len()));
        stream.write(now)?;
        rest = later;
    }
    stream.blocking_flush()
}
