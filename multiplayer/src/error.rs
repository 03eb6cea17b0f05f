//! [`ProtocolError`]: what can be wrong with one packet of one peer, or with one call of ours.

use std::sync::Arc;

use crate::TransferMode;

/// An error of the format crate ([`godot_serde::Error`]), kept as the source of a
/// [`ProtocolError`]: shared, so that the protocol error stays `Clone`; two compare equal when
/// their messages do.
#[derive(Debug, Clone)]
pub struct FormatError(Arc<godot_serde::Error>);

impl FormatError {
    /// The format crate's error.
    pub fn get(&self) -> &godot_serde::Error {
        &self.0
    }

    /// A format error with `message` (for what the format crate's reader reports in its words:
    /// a value cut short).
    pub(crate) fn custom(message: &str) -> Self {
        Self::from(<godot_serde::Error as serde::de::Error>::custom(message))
    }
}

impl From<godot_serde::Error> for FormatError {
    fn from(error: godot_serde::Error) -> Self {
        Self(Arc::new(error))
    }
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl PartialEq for FormatError {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.to_string() == other.0.to_string()
    }
}

/// An error of the protocol: a malformed or refused packet from a peer, or a call that cannot
/// be sent. A packet error concerns one peer only; the session goes on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The packet ends before a field it announces.
    #[error(
        "truncated {command} packet: {needed} bytes needed at byte {offset}, {len} in the packet"
    )]
    Truncated {
        /// The command being read (`REMOTE_CALL`, `SYS`, ...).
        command: &'static str,
        /// Where the missing field starts.
        offset: usize,
        /// How many bytes the field needs.
        needed: usize,
        /// The packet's length.
        len: usize,
    },
    /// An empty packet (Godot refuses them too).
    #[error("empty packet")]
    Empty,
    /// The low bits of the first byte name no command this crate handles.
    #[error("unknown network command {0} (byte 0)")]
    UnknownCommand(u8),
    /// A command this side does not handle (a SPAWN or DESPAWN received by a client session).
    #[error("{0} is not supported")]
    Unsupported(&'static str),
    /// A replication packet for a spawner or synchronizer whose authority is not the sender.
    #[error("peer {peer} sent {command} for {path:?}, whose multiplayer authority is {authority}")]
    NotAuthority {
        /// The peer.
        peer: i32,
        /// SPAWN, DESPAWN or SYNC.
        command: &'static str,
        /// The spawner or synchronizer.
        path: String,
        /// Its authority.
        authority: i32,
    },
    /// A DESPAWN names a net id the sender never spawned here.
    #[error("peer {peer} sent DESPAWN for net id {net_id}, which it never spawned")]
    UnknownNetId {
        /// The peer.
        peer: i32,
        /// The net id.
        net_id: u32,
    },
    /// A replication call of ours that cannot be done: unknown spawner or synchronizer, a state
    /// of the wrong length, a name in use, the spawn limit.
    #[error("replication: {0}")]
    Replication(String),
    /// An unknown SYS sub-command.
    #[error("unknown SYS command {0} (byte 1)")]
    UnknownSys(u8),
    /// A field has a value the engine never writes.
    #[error("invalid {what} at byte {offset}: {detail}")]
    Invalid {
        /// The field.
        what: &'static str,
        /// Where it starts.
        offset: usize,
        /// What is wrong.
        detail: String,
    },
    /// A compressed argument could not be decoded.
    #[error("argument {index} at byte {offset}: {source}")]
    Argument {
        /// The argument's index.
        index: usize,
        /// Where it starts in the packet.
        offset: usize,
        /// The decoder's error.
        #[source]
        source: FormatError,
    },
    /// A peer sent a packet that its state does not allow (e.g. an RPC before authenticating).
    #[error("peer {peer}: {detail}")]
    State {
        /// The peer.
        peer: i32,
        /// What it did.
        detail: &'static str,
    },
    /// A SIMPLIFY_PATH for a path with no declared RPC table.
    #[error("peer {peer} names node {path:?}, which has no declared RPC table")]
    UnknownNode {
        /// The peer.
        peer: i32,
        /// The path as sent (relative to the multiplayer root).
        path: String,
    },
    /// A remote call names a path-cache id the peer never announced.
    #[error("peer {peer} used path-cache id {id}, which it never announced")]
    UnknownCacheId {
        /// The peer.
        peer: i32,
        /// The id.
        id: u32,
    },
    /// A SIMPLIFY_PATH reuses an id the peer already announced (Godot refuses it too).
    #[error("peer {peer} announced path-cache id {id} twice")]
    DuplicateCacheId {
        /// The peer.
        peer: i32,
        /// The id.
        id: u32,
    },
    /// The peer announced more paths than [`crate::Limits::max_cached_paths`].
    #[error("peer {peer} announced more than {limit} node paths")]
    PathCacheFull {
        /// The peer.
        peer: i32,
        /// The limit.
        limit: usize,
    },
    /// The RPC checksums (MD5 of the method names) of a node differ between the two sides.
    #[error(
        "RPC checksum mismatch on node {path:?} with peer {peer}: theirs {theirs}, ours {ours} \
         for methods {methods:?}"
    )]
    ChecksumMismatch {
        /// The peer.
        peer: i32,
        /// The node.
        path: String,
        /// The peer's checksum (empty when the peer only said that ours differs).
        theirs: String,
        /// Ours.
        ours: String,
        /// Our methods, in id order.
        methods: Vec<String>,
    },
    /// A remote call names a method id the node's table does not have.
    #[error(
        "peer {peer} called method id {id} on node {path:?}, which has {count} RPC methods {methods:?}"
    )]
    UnknownMethod {
        /// The peer.
        peer: i32,
        /// The node.
        path: String,
        /// The id.
        id: u16,
        /// How many methods the node has.
        count: usize,
        /// The node's methods, in id order.
        methods: Vec<String>,
    },
    /// A call of a peer on a node whose RPC checksum it disagrees with (its SIMPLIFY_PATH
    /// carried another checksum, or its CONFIRM_PATH said ours differs): its method ids would
    /// name other methods here, so the call is refused. Godot prints the mismatch and still
    /// dispatches the call by id.
    #[error(
        "peer {peer} called on node {path:?}, whose RPC checksum differs (theirs {theirs:?}, ours {ours:?}): refused"
    )]
    MismatchedCall {
        /// The peer.
        peer: i32,
        /// The node.
        path: String,
        /// The peer's checksum (empty when only its CONFIRM_PATH told of the mismatch).
        theirs: String,
        /// Ours.
        ours: String,
    },
    /// A call that is not one of an [`RpcSet`](crate::typed::RpcSet)'s methods: another node's,
    /// or a method the set does not have.
    #[error(
        "call of {method:?} on node {path:?} is not in the RPC set of node {set:?} {methods:?}"
    )]
    NotInSet {
        /// The set's node.
        set: String,
        /// The call's node.
        path: String,
        /// The call's method.
        method: String,
        /// The set's methods, in id order.
        methods: Vec<String>,
    },
    /// The method's RPC mode does not let this peer call it.
    #[error(
        "peer {peer} may not call {method:?} on node {path:?} (mode {mode:?}, authority {authority})"
    )]
    NotAllowed {
        /// The peer.
        peer: i32,
        /// The node.
        path: String,
        /// The method.
        method: String,
        /// Its mode.
        mode: crate::RpcMode,
        /// The node's authority.
        authority: i32,
    },
    /// A call of ours names a node or method that is not declared.
    #[error("no RPC {method:?} declared on node {path:?} (declared: {methods:?})")]
    NotDeclared {
        /// The node.
        path: String,
        /// The method.
        method: String,
        /// The node's declared methods, empty when the node has no table.
        methods: Vec<String>,
    },
    /// Godot 3: the member's mode does not let this peer call or set it (the engine's
    /// "RPC '...' is not allowed on node ... from: N. Mode is M, master is K.").
    #[error(
        "peer {peer} may not {kind} {member:?} on node {path:?} (mode {mode:?}, master {master})"
    )]
    RemoteNotAllowed {
        /// The peer.
        peer: i32,
        /// The node.
        path: String,
        /// Call or set.
        kind: crate::godot3::MemberKind,
        /// The method or property.
        member: String,
        /// Its mode (`Disabled` when not declared).
        mode: crate::godot3::RemoteMode,
        /// The node's network master.
        master: i32,
    },
    /// Godot 3: a peer confirmed a path we never sent it (the engine: "Tries to confirm a path
    /// which was not found in cache").
    #[error("peer {peer} confirmed path {path:?}, which was never sent to it")]
    UnexpectedConfirm {
        /// The peer.
        peer: i32,
        /// The path.
        path: String,
    },
    /// Godot 3: a call or set of ours names a node, method or property that is not declared.
    #[error("no remote {kind} target {member:?} declared on node {path:?}")]
    RemoteNotDeclared {
        /// The node.
        path: String,
        /// Call or set.
        kind: crate::godot3::MemberKind,
        /// The method or property.
        member: String,
    },
    /// A call of ours targets a peer that is not connected.
    #[error("peer {0} is not connected")]
    NoSuchPeer(i32),
    /// Our arguments could not be encoded: a declaration the dialect cannot express.
    #[error("cannot encode the arguments: {0}")]
    Encode(String),
    /// Our arguments (or state) could not be encoded: the format crate's error.
    #[error("cannot encode the arguments: {0}")]
    EncodeValue(#[source] FormatError),
    /// Received arguments do not fit the requested Rust type.
    #[error("arguments of {method:?} do not fit the requested type: {source}")]
    ArgumentType {
        /// The method.
        method: String,
        /// The conversion error.
        #[source]
        source: FormatError,
    },
    /// More than 255 arguments (Godot's limit: the count is one byte).
    #[error("{0} arguments, Godot allows at most 255")]
    TooManyArguments(usize),
    /// An empty RAW or auth payload (Godot refuses to send them).
    #[error("empty {0} payload")]
    EmptyPayload(&'static str),
    /// A WebSocket peer sent a message (or announced a frame) above
    /// [`crate::WsLimits::inbound_buffer_size`]; the peer is dropped, as Godot closes it
    /// (code 1009, "Message too big").
    #[error("peer {peer} sent a WebSocket message of {size} bytes, above the limit of {limit}")]
    MessageTooLarge {
        /// The peer.
        peer: i32,
        /// The message's (or frame's announced) size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// A message of ours for a WebSocket peer is above
    /// [`crate::WsLimits::outbound_buffer_size`] (Godot's `put_packet` fails the same way), or
    /// a packet for an ENet peer is above [`crate::EnetLimits::max_packet_size`] or
    /// [`crate::EnetLimits::outbound_buffer_size`]: it is not sent; the peer stays.
    #[error("a message of {size} bytes for peer {peer} is above the outbound limit of {limit}")]
    SendTooLarge {
        /// The peer it was for.
        peer: i32,
        /// Its size with the frame header.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// A WebSocket peer does not read what is sent to it (more than
    /// [`crate::WsLimits::outbound_buffer_size`] bytes were queued for it), or an ENet peer
    /// does not acknowledge it (more than [`crate::EnetLimits::outbound_buffer_size`]). It is
    /// dropped.
    #[error("peer {peer} does not keep up: more than {limit} bytes queued for it")]
    OutboundFull {
        /// The peer.
        peer: i32,
        /// The limit.
        limit: usize,
    },
    /// A WebSocket peer sent no complete frame, not even the answer to a ping, for
    /// [`crate::WsLimits::idle_timeout_ms`]. It is dropped.
    #[error("peer {peer} timed out: nothing received for {ms} ms")]
    TimedOut {
        /// The peer.
        peer: i32,
        /// The timeout.
        ms: u64,
    },
    /// A WebSocket peer left a message unfinished (a frame cut short, or a fragmented message
    /// without its last fragment) for [`crate::WsLimits::idle_timeout_ms`], whatever else it
    /// sent meanwhile. It is dropped.
    #[error("peer {peer} left a WebSocket message unfinished for {ms} ms")]
    Unfinished {
        /// The peer.
        peer: i32,
        /// The timeout.
        ms: u64,
    },
    /// A WebSocket peer broke the protocol (an unmasked or reserved frame, a fragmented
    /// control frame, invalid UTF-8 in a text message, ...). It is dropped.
    #[error("peer {peer}: WebSocket protocol error: {detail}")]
    WebSocket {
        /// The peer.
        peer: i32,
        /// What tungstenite reported.
        detail: String,
    },
    /// A transfer mode and channel the transport cannot express.
    #[error("channel {channel} with {mode:?} is not available")]
    Channel {
        /// The user channel.
        channel: u8,
        /// The mode.
        mode: TransferMode,
    },
}

impl ProtocolError {
    pub(crate) fn truncated(
        command: &'static str,
        offset: usize,
        needed: usize,
        len: usize,
    ) -> Self {
        Self::Truncated {
            command,
            offset,
            needed,
            len,
        }
    }
}
