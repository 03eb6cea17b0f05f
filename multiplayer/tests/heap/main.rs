//! The memory tests: `peak_alloc` counts the whole process's heap, so no other test may
//! allocate beside them and they are a binary of their own (`cargo test --test heap`), and
//! within it they take turns ([`alone`]). What the session holds per connected peer
//! (`session`), what a typed call holds (`typed_args`), and what hostile peers can make a
//! server of either dialect hold, over real sockets on 127.0.0.1 (`websocket`, `enet`).

use std::sync::{Mutex, MutexGuard};

use peak_alloc::PeakAlloc;

#[path = "../common/clock.rs"]
mod clock;
#[cfg(any(feature = "enet", feature = "websocket"))]
#[path = "../common/dialect.rs"]
mod dialect;
#[cfg(feature = "enet")]
#[path = "../common/raw_enet.rs"]
mod raw_enet;
#[cfg(feature = "websocket")]
#[path = "../common/ws.rs"]
mod ws;

mod announce;
mod args;
#[cfg(feature = "enet")]
mod enet;
mod peer_record;
mod session;
mod typed_args;
#[cfg(feature = "websocket")]
mod websocket;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// A mebibyte, the unit of the transports' bounds.
#[cfg(any(feature = "enet", feature = "websocket"))]
const MIB: usize = 1 << 20;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Held by each test while it measures: the heap is counted process-wide.
fn alone() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
