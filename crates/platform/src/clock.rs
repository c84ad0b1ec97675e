//! The wall clock, and a clock tests can set.

use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// The current time in UTC.
pub trait Clock {
    fn now(&self) -> SystemTime;
}

/// The host's wall clock (WASI's inside components, the OS's natively).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that shows the time it was set to, for tests.
#[derive(Debug)]
pub struct FixedClock(Mutex<SystemTime>);

impl FixedClock {
    pub fn new(now: SystemTime) -> Self {
        FixedClock(Mutex::new(now))
    }

    /// A clock showing `seconds` after the Unix epoch.
    pub fn at_unix(seconds: u64) -> Self {
        Self::new(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
    }

    pub fn set(&self, now: SystemTime) {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = now;
    }

    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *now += by;
    }
}

impl Clock for FixedClock {
    fn now(&self) -> SystemTime {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
