//! Godot 4's high-level multiplayer protocol (SceneMultiplayer) for Rust: a server that stock
//! Godot 4 clients join with `ENetMultiplayerPeer`, or a client that joins a Godot server.
//!
//! - [`Session`]: the protocol core, sans IO — transport events and packets in, [`Event`]s
//!   and [`Output`]s out; remote calls, the path cache, authentication, relay, RAW packets;
//!   one clock ([`Session::handle_timeout`], [`Session::poll_timeout`]).
//! - What both dialects share, written once: [`Event`], [`Output`], [`RemoteCall`] (its
//!   argument bytes decoded when asked), [`ProtocolError`], [`Target`] (the engine's
//!   `0 / -n / n`), [`SessionCommon`] (id and queues, under both sessions), the path cache.
//! - [`RpcTable`]: a node's `@rpc` methods, so ids and checksums match the GDScript side.
//! - [`typed`]: a node's whole RPC set as one enum ([`typed::RpcSet`], `#[derive(Rpcs)]`):
//!   table, dispatch and GDScript from one type, arguments straight from and into the bytes.
//! - [`args`]: arguments as `encode_and_compress_variant` writes them; typed through serde.
//! - [`replication`]: spawn, despawn and synchronizer state (`MultiplayerSpawner`,
//!   `MultiplayerSynchronizer`), and the GDScript that declares them; interest management
//!   ([`replication::interest`]: which peer sees which spawned node, by radius, group or
//!   callback, on an interval).
//! - [`wire`]: the packet layouts, without state.
//! - [`transport`]: the [`Transport`](transport::Transport) trait, and the
//!   [`Host`](transport::Host) that runs one session over any number of transports (ENet and
//!   WebSocket clients of one server), with the sans-IO pieces a transport of one's own needs.
//! - `enet` (feature `enet`, default): the ENet transport.
//! - `websocket` (feature `websocket`, default): the WebSocket transport (Godot web exports),
//!   with a check of each upgrade request before it becomes a peer.
//! - `tls` (feature `tls`): `wss://` for it, served and joined without a proxy.
//! - [`rooms`]: many worlds (rooms) in one process over worker threads, peers moved between
//!   them.
//! - [`gdscript`]: the GDScript stubs of a table, for Godot 4 and Godot 3.
//! - [`godot3`]: Godot 3.2.3's dialect (`MultiplayerAPI` + `NetworkedMultiplayerENet`).
//! - `bots` (feature `enet` or `websocket`): a swarm of N Godot 4 clients from one thread,
//!   for load tests (`bots::Swarm`).
//!
//! See the crate README for the feature table and what is checked against the live engine.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod args;
#[cfg(any(feature = "enet", feature = "websocket"))]
pub mod bots;
mod core;
#[cfg(feature = "enet")]
pub mod enet;
#[cfg(feature = "enet")]
mod enet_core;
mod error;
mod event;
pub mod gdscript;
pub mod godot3;
mod limits;
pub mod replication;
pub mod rooms;
mod rpc;
mod session;
#[cfg(feature = "tls")]
pub mod tls;
pub mod transport;
pub mod typed;
#[cfg(feature = "websocket")]
pub mod websocket;
pub mod wire;
#[cfg(feature = "websocket")]
mod ws_core;

pub use crate::core::{SessionCommon, Target};
pub use error::{FormatError, ProtocolError};
pub use event::{Event, Output, RemoteCall};
pub use godot_serde::Variant;
/// `#[derive(Rpcs)]`: implements [`typed::RpcSet`] for an enum (feature `derive`, default).
#[cfg(feature = "derive")]
pub use godot_serde_multiplayer_derive::Rpcs;
pub use limits::{BotLimits, ENET_PACKET_OVERHEAD, EnetLimits, Limits, Settings, WsLimits};
pub use replication::{
    InterestRule, NodeId, ReplicationConfig, ReplicationMode, SpawnScene, Spawner, SyncId,
    SyncProperty, Synchronizer,
};
pub use rpc::{RpcMethod, RpcMode, RpcTable, TransferMode};
pub use session::{Announce, Session};

// The README's examples compile (and the runnable ones run) as doc tests: they are what
// users copy.
#[cfg(all(doctest, feature = "enet", feature = "derive"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// A random peer id as `MultiplayerPeer::generate_unique_id` picks one: 31 bits, never 0 or 1.
pub fn generate_unique_id() -> i32 {
    use std::hash::{BuildHasher, Hasher};
    loop {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        h.write_u128(nanos);
        let id = (h.finish() as u32 & 0x7FFF_FFFF) as i32;
        if id > 1 {
            return id;
        }
    }
}
