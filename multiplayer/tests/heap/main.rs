//! The memory-per-peer tests (`memory`): `peak_alloc` counts the whole process's heap, so no
//! other test may allocate beside them and they are a binary of their own
//! (`cargo test --test heap`).

#[path = "../common/clock.rs"]
mod clock;
#[cfg(feature = "websocket")]
#[path = "../common/ws.rs"]
mod ws;

#[cfg(feature = "enet")]
#[path = "../common/raw_enet.rs"]
mod raw_enet;

mod args;
mod memory;
mod peer_record;
