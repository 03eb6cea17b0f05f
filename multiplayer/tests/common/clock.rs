//! One clock for the sans-IO sessions of the tests: `at_ms(n)` and `at_us(n)` are the instants
//! `n` milliseconds or microseconds after one fixed base, so a test writes its schedule as
//! offsets (a session counts time from the first instant it is given).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The base instant (the first call's `Instant::now()`).
pub fn base() -> Instant {
    static BASE: OnceLock<Instant> = OnceLock::new();
    *BASE.get_or_init(Instant::now)
}

/// `ms` milliseconds after the base.
pub fn at_ms(ms: u64) -> Instant {
    base() + Duration::from_millis(ms)
}

/// `us` microseconds after the base.
#[allow(dead_code)] // The heap binary uses milliseconds only.
pub fn at_us(us: u64) -> Instant {
    base() + Duration::from_micros(us)
}
