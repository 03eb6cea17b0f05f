//! Godot 4's high-level multiplayer protocol (SceneMultiplayer) for Rust: a server that stock
//! Godot 4 clients join with `ENetMultiplayerPeer`, or a client that joins a Godot server.
//!
//! - [`Session`]: the protocol core, sans IO — transport events and packets in, [`Event`]s
//!   and [`Output`]s out; remote calls, the path cache, authentication, relay, RAW packets.
//! - [`RpcTable`]: a node's `@rpc` methods, so ids and checksums match the GDScript side.
//! - [`args`]: arguments as `encode_and_compress_variant` writes them; typed through serde.
//! - [`wire`]: the packet layouts, without state.
//! - `enet` (feature `enet`, default): the ENet transport.
//!
//! See the crate README for the feature table and what is checked against the live engine.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod args;
#[cfg(feature = "enet")]
pub mod enet;
mod error;
mod rpc;
mod session;
pub mod wire;

pub use error::ProtocolError;
pub use godot_serde::Variant;
pub use rpc::{RpcMethod, RpcMode, RpcTable, TransferMode};
pub use session::{Event, Limits, Output, RemoteCall, Session, Settings};
