//! What a [`Session`](crate::Session) reports: [`Event`]s for the application (a
//! [`RemoteCall`] among them) and [`Output`]s for the transport.

use godot_serde::Variant;

use crate::{ProtocolError, TransferMode, args};

/// A remote call received.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteCall {
    /// The caller (the original sender for relayed calls).
    pub from: i32,
    /// The node path, relative to the multiplayer root.
    pub path: String,
    /// The method.
    pub method: String,
    /// The arguments.
    pub args: Vec<Variant>,
    /// The channel it came on.
    pub channel: u8,
    /// The transfer mode the transport reported.
    pub mode: TransferMode,
}

impl RemoteCall {
    /// The arguments as a typed tuple or struct (fields in order). In a serve loop,
    /// [`Session::args_of`](crate::Session::args_of) is the shape: a mismatch is the caller's
    /// event there, not an `Err` that `?` would turn into the end of the loop.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::ArgumentType`] when they do not fit `T`.
    pub fn args_as<T: serde::de::DeserializeOwned>(&self) -> Result<T, ProtocolError> {
        args::from_arguments(&self.method, &self.args)
    }
}

/// What happened, for the application.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// `peer_authenticating`: a peer connected and must authenticate.
    PeerAuthenticating(i32),
    /// Authentication data from a peer (the `auth_callback`'s call).
    AuthData {
        /// The peer.
        peer: i32,
        /// The data.
        data: Vec<u8>,
    },
    /// `peer_authentication_failed`: a pending peer left or timed out.
    AuthenticationFailed(i32),
    /// `peer_connected` (peer 1 on a client: `connected_to_server`).
    PeerConnected(i32),
    /// `peer_disconnected`.
    PeerDisconnected(i32),
    /// A remote call.
    Rpc(RemoteCall),
    /// `peer_packet`: RAW bytes.
    Raw {
        /// The sender.
        from: i32,
        /// The bytes.
        data: Vec<u8>,
        /// The channel.
        channel: u8,
        /// The transfer mode.
        mode: TransferMode,
    },
    /// The state of a synchronizer arrived from its authority (`synchronized`, or
    /// `delta_synchronized` when `delta`): read it with
    /// [`Session::state`](crate::Session::state) or
    /// [`Session::state_as`](crate::Session::state_as).
    Synchronized {
        /// The sender.
        from: i32,
        /// The synchronizer.
        sync: crate::SyncId,
        /// Whether it was a delta (only the changed watched properties).
        delta: bool,
    },
    /// A client's spawner got a node from the server (SPAWN): its synchronizers are
    /// [`Session::node_synchronizers`](crate::Session::node_synchronizers), their spawn state
    /// already set.
    Spawned {
        /// The sender (the spawner's authority).
        from: i32,
        /// The node.
        node: crate::NodeId,
    },
    /// The server despawned a node it spawned here; its synchronizers are gone.
    Despawned {
        /// The sender.
        from: i32,
        /// The node (no longer known to the session).
        node: crate::NodeId,
        /// Its name.
        name: String,
    },
    /// Something of `peer`'s, never the end of a serve loop: its packet was refused, its call's
    /// arguments did not fit ([`Session::args_of`](crate::Session::args_of)), or a call of ours
    /// found it gone ([`ProtocolError::NoSuchPeer`]). The session goes on.
    Error {
        /// The peer it concerns.
        peer: i32,
        /// What was wrong.
        error: ProtocolError,
    },
}

/// What the transport must do.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Output {
    /// Send `data` to the transport peer `to` (a positive id: the session expands broadcasts).
    Packet {
        /// The transport peer.
        to: i32,
        /// The user channel (0: the transfer mode's default channel).
        channel: u8,
        /// The transfer mode.
        mode: TransferMode,
        /// The bytes.
        data: Vec<u8>,
    },
    /// Disconnect this transport peer.
    Disconnect(i32),
}
