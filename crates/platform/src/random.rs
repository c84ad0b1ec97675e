//! Secure random bytes.

/// A source of cryptographically secure random bytes.
pub trait Random {
    fn fill(&self, buf: &mut [u8]);
}

/// The host's secure random source: `wasi:random` inside components, the OS natively.
#[derive(Debug, Clone, Copy, Default)]
pub struct OsRandom;

impl Random for OsRandom {
    fn fill(&self, buf: &mut [u8]) {
        // Both WASI and the OS random sources are infallible in practice; failing here would
        // mean generating predictable secrets, which must never happen silently.
        getrandom::fill(buf).expect("the host's secure random source failed");
    }
}
