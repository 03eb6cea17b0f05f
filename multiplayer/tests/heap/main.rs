//! The memory tests: `peak_alloc` counts the whole process's heap, so no other test may
//! allocate beside them and they are a binary of their own (`cargo test --test heap`), and
//! within it they take turns ([`alone`]). What the session holds per connected peer
//! (`session`), what a typed call holds (`typed_args`), what a bot swarm holds per bot
//! (`bots`), and what hostile peers can make a server of either dialect hold, over real
//! sockets on 127.0.0.1 (`websocket`, `enet`).

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
mod bots;
#[cfg(feature = "enet")]
mod enet;
mod interest;
mod peer_record;
mod session;
#[cfg(feature = "tls")]
mod tls;
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

/// Set in the child process [`in_a_process_of_its_own`] starts.
const OWN_PROCESS: &str = "GODOT_SERDE_HEAP_OWN_PROCESS";

/// For the tests that count single bytes: the harness's own work beside them (threads of the
/// tests waiting for [`alone`] starting, finished ones freeing their output) moves the
/// process-wide count by kilobytes. Returns false in a process that runs `test` (its path in
/// this binary, `module::name`) alone, where the caller measures; in the test's first process
/// it runs that process and returns true once it passed.
fn in_a_process_of_its_own(test: &str) -> bool {
    if std::env::var_os(OWN_PROCESS).is_some() {
        return false;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(OWN_PROCESS, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{test} failed in its own process");
    assert!(
        stdout.contains("1 passed"),
        "{test} did not run in its own process"
    );
    true
}
