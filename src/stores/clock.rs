//! An injectable clock, so TTL rules can be tested without sleeping.

use std::sync::Mutex;
use std::time::Instant;

/// A monotonic clock in seconds. The stores read it on every access to apply their TTL lazily.
///
/// ```
/// use toolplane::stores::{Clock, ManualClock};
/// let clock = ManualClock::new();
/// clock.advance(11.0);
/// assert_eq!(clock.now(), 11.0);
/// ```
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Seconds since an arbitrary, fixed origin.
    fn now(&self) -> f64;
}

/// The real monotonic clock.
#[derive(Debug)]
pub struct MonotonicClock {
    origin: Instant,
}

impl MonotonicClock {
    /// A clock whose origin is now.
    pub fn new() -> Self {
        Self {
            origin: Instant::now(),
        }
    }
}

impl Default for MonotonicClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for MonotonicClock {
    fn now(&self) -> f64 {
        self.origin.elapsed().as_secs_f64()
    }
}

/// A clock that only moves when told to: for tests of TTL expiry.
#[derive(Debug, Default)]
pub struct ManualClock {
    now: Mutex<f64>,
}

impl ManualClock {
    /// A clock standing at 0.
    pub fn new() -> Self {
        Self::default()
    }
    /// Moves the clock forward by `seconds`.
    pub fn advance(&self, seconds: f64) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) += seconds;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> f64 {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }
}
