//! The depth limits on a 2 MiB thread (`limits`) and the JSON form's limits (`json_native_limits`),
//! a binary of their own so that CI's release run of them (stack frames and inlining differ
//! from debug) optimises these two files, not the whole suite (`cargo test --test limits`).
//! Like the suite, it counts the heap per thread with [`heap::Tracking`].

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/heap.rs"]
mod heap;

/// Counts, per thread, the heap each test holds.
#[global_allocator]
static HEAP: heap::Tracking = heap::Tracking;

#[cfg(feature = "json")]
mod json_native_limits;
mod limits;
