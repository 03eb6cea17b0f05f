//! Godot 3.2.3's high-level multiplayer (`MultiplayerAPI` + `NetworkedMultiplayerENet`), a
//! dialect of its own: remote calls and sets by name (`rpc`, `rpc_id`, `rpc_unreliable`,
//! `rset`, `rset_unreliable`), a path cache without checksums, RAW packets, the
//! `remote`/`master`/`puppet`/`remotesync`/`mastersync`/`puppetsync` modes, and an ENet peer
//! that puts a source/target header on every packet and relays client-to-client traffic itself.
//!
//! - [`Session`]: the protocol core, sans IO, server or client.
//! - [`NodeTable`]: a node's remote methods and properties with their modes, and its network
//!   master; [`RemoteMode::can_call`] is the engine's `_can_call_mode`.
//! - [`wire`]: the packet layouts (both layers), stateless.
//! - [`args`]: a call's arguments typed straight from and into the packet bytes.
//! - [`relay`]: the server's relay policy, shared by both transports.
//! - [`ws_frame`]: the WebSocket framing as messages, for a transport of one's own.
//! - `enet` (feature `enet`): the transport, as `NetworkedMultiplayerENet` frames it.
//! - `websocket` (feature `websocket`): the transport, as 3.2's `WebSocketMultiplayerPeer`
//!   (`WebSocketServer`/`WebSocketClient` with `gd_mp_api = true`) frames it.
//!
//! The session reports the crate's [`Event`](crate::Event)s and [`Output`](crate::Output)s,
//! as the Godot 4 session does, and its errors are [`ProtocolError`](crate::ProtocolError)s.
//!
//! Arguments use Godot 3's Variant layout (`godot_serde::Config::godot3()`): typed through
//! serde, or `Variant` lists.

pub mod args;
#[cfg(feature = "enet")]
pub mod enet;
pub mod relay;
mod session;
mod table;
#[cfg(feature = "websocket")]
pub mod websocket;
pub mod wire;
pub mod ws_frame;

pub use session::Session;
pub use table::{NodeTable, RemoteMode};

/// Whether a member is a method (`rpc`) or a property (`rset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemberKind {
    /// A method.
    Method,
    /// A property.
    Property,
}

impl std::fmt::Display for MemberKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Method => "call",
            Self::Property => "set",
        })
    }
}
