//! The packet layouts of Godot 3.2.3's high-level multiplayer, with no state.
//!
//! Two layers, as in the engine:
//!
//! - `MultiplayerAPI` (`core/io/multiplayer_api.cpp`, 3.2 branch): [`parse`] reads one packet
//!   into a [`Packet`] and the `write_*` functions build them. Byte 0 is the whole command
//!   (no flag bits, unlike Godot 4). Nodes are named by a 32-bit path-cache id, or by
//!   `0x80000000 | offset` when the full path follows the arguments; methods and properties by
//!   their name (a NUL-terminated UTF-8 string), not by an id. Arguments are plain
//!   `encode_variant` output (Godot 3 layout, no compression byte), after a one-byte count.
//!   SIMPLIFY_PATH carries no checksum; CONFIRM_PATH names the path, not the id.
//! - `NetworkedMultiplayerENet` (`modules/enet/networked_multiplayer_enet.cpp`): every packet
//!   on a data channel starts with an 8-byte header, the source peer id and the target peer id
//!   (`u32` little-endian each; target 0 = everyone, `-n` = everyone but `n`); the server sends
//!   8-byte system messages on channel 0 (`SYSCH_CONFIG`): `SYSMSG_ADD_PEER` or
//!   `SYSMSG_REMOVE_PEER` and the peer id. See [`EnetHeader`] and [`SysMsg`].
//!
//! Integers are little-endian.

use godot_serde::{Config, Variant};

use crate::core::node_id::{self, read_cstr};
use crate::{ProtocolError, Target};

/// `NETWORK_COMMAND_REMOTE_CALL` (`rpc`, `rpc_id`, `rpc_unreliable`, ...).
pub const COMMAND_REMOTE_CALL: u8 = 0;
/// `NETWORK_COMMAND_REMOTE_SET` (`rset`, `rset_id`, `rset_unreliable`, ...).
pub const COMMAND_REMOTE_SET: u8 = 1;
/// `NETWORK_COMMAND_SIMPLIFY_PATH`.
pub const COMMAND_SIMPLIFY_PATH: u8 = 2;
/// `NETWORK_COMMAND_CONFIRM_PATH`.
pub const COMMAND_CONFIRM_PATH: u8 = 3;
/// `NETWORK_COMMAND_RAW` (`send_bytes`).
pub const COMMAND_RAW: u8 = 4;

/// A node id with this bit set is `0x80000000 | offset`: the path is at `offset`.
pub const PATH_IN_PACKET: u32 = node_id::PATH_IN_PACKET;

/// ENet channel `SYSCH_CONFIG`: the server's system messages.
pub const SYSCH_CONFIG: u8 = 0;
/// ENet channel `SYSCH_RELIABLE`: reliable packets.
pub const SYSCH_RELIABLE: u8 = 1;
/// ENet channel `SYSCH_UNRELIABLE`: unreliable packets.
pub const SYSCH_UNRELIABLE: u8 = 2;
/// `SYSCH_MAX`: the channel count Godot 3 creates its hosts with (`channel_count` default).
pub const SYSCH_MAX: u8 = 3;
/// `SYSMSG_ADD_PEER`.
pub const SYSMSG_ADD_PEER: u32 = 0;
/// `SYSMSG_REMOVE_PEER`.
pub const SYSMSG_REMOVE_PEER: u32 = 1;
/// The size of the ENet header and of a system message.
pub const ENET_HEADER_SIZE: usize = 8;

/// How a remote call or set names its node: the same two forms as in Godot 4.
pub use crate::wire::NodeRef;

/// One parsed `MultiplayerAPI` packet.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Packet<'a> {
    /// `REMOTE_CALL`: a call of `method` on `node`.
    RemoteCall {
        /// The node.
        node: NodeRef<'a>,
        /// The method's name.
        method: &'a str,
        /// The announced argument count.
        count: u8,
        /// The argument bytes (everything after the count, up to the path when one follows).
        args: &'a [u8],
        /// Where `args` start in the packet.
        args_offset: usize,
    },
    /// `REMOTE_SET`: a set of `property` on `node`.
    RemoteSet {
        /// The node.
        node: NodeRef<'a>,
        /// The property's name.
        property: &'a str,
        /// The value's bytes.
        value: &'a [u8],
        /// Where `value` starts in the packet.
        value_offset: usize,
    },
    /// `SIMPLIFY_PATH`: the sender will name `path` by `id` from now on.
    SimplifyPath {
        /// The id.
        id: u32,
        /// The path.
        path: &'a str,
    },
    /// `CONFIRM_PATH`: the receiver of our SIMPLIFY_PATH for `path` stored it.
    ConfirmPath {
        /// The path.
        path: &'a str,
    },
    /// `RAW`: application bytes.
    Raw(&'a [u8]),
}

fn invalid(what: &'static str, offset: usize, detail: impl Into<String>) -> ProtocolError {
    ProtocolError::Invalid {
        what,
        offset,
        detail: detail.into(),
    }
}

fn read_u32(p: &[u8], at: usize, command: &'static str) -> Result<u32, ProtocolError> {
    p.get(at..at + 4)
        .and_then(|s| <[u8; 4]>::try_from(s).ok())
        .map(u32::from_le_bytes)
        .ok_or_else(|| ProtocolError::truncated(command, at, 4, p.len()))
}

/// Parses one packet as `MultiplayerAPI::_process_packet` receives it (after the ENet header).
///
/// # Errors
///
/// A [`ProtocolError`] with the byte offset for each check the engine makes (`Size too small`,
/// a path offset past the end, a name without its NUL), plus UTF-8 checks of names and paths.
pub fn parse(p: &[u8]) -> Result<Packet<'_>, ProtocolError> {
    let &command = p.first().ok_or(ProtocolError::Empty)?;
    match command {
        COMMAND_REMOTE_CALL | COMMAND_REMOTE_SET => {
            let name = if command == COMMAND_REMOTE_CALL {
                "REMOTE_CALL"
            } else {
                "REMOTE_SET"
            };
            // `p_packet_len < 6`: command, node id, at least the name's NUL.
            if p.len() < 6 {
                return Err(ProtocolError::truncated(
                    name,
                    p.len(),
                    6 - p.len(),
                    p.len(),
                ));
            }
            let target = read_u32(p, 1, name)?;
            // The name: NUL-terminated, and the NUL must be inside the packet.
            let tail = p.get(5..).unwrap_or_default();
            let nul = tail
                .iter()
                .position(|&b| b == 0)
                .ok_or_else(|| invalid("member name", 5, "no NUL before the end of the packet"))?;
            let member = read_cstr(p, 5, "member name")?;
            let after = 5 + nul + 1;
            // The path must also not overlap the header and name (the engine would read them
            // as a path).
            let (node, end) = node_id::read(p, target, after)?;
            if command == COMMAND_REMOTE_CALL {
                // `p_offset >= p_packet_len`: the count byte is required.
                let &count = p
                    .get(after)
                    .filter(|_| after < end)
                    .ok_or_else(|| ProtocolError::truncated(name, after, 1, p.len()))?;
                let args = p.get(after + 1..end).unwrap_or_default();
                Ok(Packet::RemoteCall {
                    node,
                    method: member,
                    count,
                    args,
                    args_offset: after + 1,
                })
            } else {
                if after >= end {
                    return Err(ProtocolError::truncated(name, after, 1, p.len()));
                }
                Ok(Packet::RemoteSet {
                    node,
                    property: member,
                    value: p.get(after..end).unwrap_or_default(),
                    value_offset: after,
                })
            }
        }
        COMMAND_SIMPLIFY_PATH => {
            // `p_packet_len < 5`.
            let id = read_u32(p, 1, "SIMPLIFY_PATH")?;
            let path = read_cstr(p, 5, "node path")?;
            Ok(Packet::SimplifyPath { id, path })
        }
        COMMAND_CONFIRM_PATH => {
            // `p_packet_len < 2`.
            if p.len() < 2 {
                return Err(ProtocolError::truncated("CONFIRM_PATH", 1, 1, p.len()));
            }
            Ok(Packet::ConfirmPath {
                path: read_cstr(p, 1, "node path")?,
            })
        }
        COMMAND_RAW => {
            // `p_packet_len < 2`: an empty RAW packet is refused.
            if p.len() < 2 {
                return Err(ProtocolError::truncated("RAW", 1, 1, p.len()));
            }
            Ok(Packet::Raw(p.get(1..).unwrap_or_default()))
        }
        other => Err(ProtocolError::UnknownCommand(other)),
    }
}

/// The Godot 3 encoding of Variants, as `MultiplayerAPI` uses it: `encode_variant` with
/// objects refused (`allow_object_decoding` is false by default).
pub fn config() -> Config {
    Config::godot3()
}

/// Decodes `count` arguments from `bytes` (`_process_rpc`'s loop); `offset` is where `bytes`
/// start in the packet, for error offsets. Bytes after the last argument are ignored, as the
/// engine ignores them.
///
/// # Errors
///
/// [`ProtocolError::Truncated`] when the bytes end before `count` arguments,
/// [`ProtocolError::Argument`] (index and byte offset) for a malformed one.
pub fn decode_args(count: u8, bytes: &[u8], offset: usize) -> Result<Vec<Variant>, ProtocolError> {
    let count = usize::from(count);
    // Every argument takes at least 4 bytes: never reserve more than the bytes allow.
    let mut out = Vec::with_capacity(count.min(bytes.len() / 4));
    let mut rest = bytes;
    for index in 0..count {
        let at = offset + (bytes.len() - rest.len());
        if rest.is_empty() {
            return Err(ProtocolError::truncated(
                "REMOTE_CALL",
                at,
                4,
                offset + bytes.len(),
            ));
        }
        let (value, tail) =
            config()
                .take_from_bytes::<Variant>(rest)
                .map_err(|e| ProtocolError::Argument {
                    index,
                    offset: at,
                    source: e.into(),
                })?;
        out.push(value);
        rest = tail;
    }
    Ok(out)
}

/// Decodes a REMOTE_SET value (`_process_rset`; trailing bytes ignored as the engine does).
///
/// # Errors
///
/// [`ProtocolError::Argument`] (index 0) for a malformed value.
pub fn decode_value(bytes: &[u8], offset: usize) -> Result<Variant, ProtocolError> {
    config()
        .take_from_bytes::<Variant>(bytes)
        .map(|(v, _)| v)
        .map_err(|e| ProtocolError::Argument {
            index: 0,
            offset,
            source: e.into(),
        })
}

fn push_cstr(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(s.as_bytes());
    out.push(0);
}

/// REMOTE_CALL: command, node id (or `0x80000000 | offset` with `path`), the method name, the
/// argument count, the arguments (already encoded), and the path when given.
///
/// # Errors
///
/// [`ProtocolError::TooManyArguments`] above 255 arguments, [`ProtocolError::Encode`] for a
/// value Godot 3 cannot hold.
pub fn write_remote_call(
    out: &mut Vec<u8>,
    node_id: u32,
    path: Option<&str>,
    method: &str,
    args: &[Variant],
) -> Result<(), ProtocolError> {
    let count =
        u8::try_from(args.len()).map_err(|_| ProtocolError::TooManyArguments(args.len()))?;
    let mut bytes = Vec::new();
    for arg in args {
        config()
            .to_bytes_into(arg, &mut bytes)
            .map_err(|e| ProtocolError::EncodeValue(e.into()))?;
    }
    write_remote_call_encoded(out, node_id, path, method, count, &bytes);
    Ok(())
}

/// [`write_remote_call`] with the `count` arguments already in Godot 3's layout (`args`).
pub(crate) fn write_remote_call_encoded(
    out: &mut Vec<u8>,
    node_id: u32,
    path: Option<&str>,
    method: &str,
    count: u8,
    args: &[u8],
) {
    let start = out.len();
    out.push(COMMAND_REMOTE_CALL);
    out.extend_from_slice(&node_id.to_le_bytes());
    push_cstr(out, method);
    out.push(count);
    out.extend_from_slice(args);
    finish_path(out, start, path);
}

/// REMOTE_SET: command, node id (or path offset), the property name, the value, the path.
///
/// # Errors
///
/// [`ProtocolError::Encode`] for a value Godot 3 cannot hold.
pub fn write_remote_set(
    out: &mut Vec<u8>,
    node_id: u32,
    path: Option<&str>,
    property: &str,
    value: &Variant,
) -> Result<(), ProtocolError> {
    let mut bytes = Vec::new();
    config()
        .to_bytes_into(value, &mut bytes)
        .map_err(|e| ProtocolError::EncodeValue(e.into()))?;
    write_remote_set_encoded(out, node_id, path, property, &bytes);
    Ok(())
}

/// [`write_remote_set`] with the value already in Godot 3's layout.
pub(crate) fn write_remote_set_encoded(
    out: &mut Vec<u8>,
    node_id: u32,
    path: Option<&str>,
    property: &str,
    value: &[u8],
) {
    let start = out.len();
    out.push(COMMAND_REMOTE_SET);
    out.extend_from_slice(&node_id.to_le_bytes());
    push_cstr(out, property);
    out.extend_from_slice(value);
    finish_path(out, start, path);
}

fn finish_path(out: &mut Vec<u8>, start: usize, path: Option<&str>) {
    if let Some(path) = path {
        node_id::append_path(out, start, path);
    }
}

/// SIMPLIFY_PATH: command, id, the path (NUL-terminated).
pub fn write_simplify_path(out: &mut Vec<u8>, id: u32, path: &str) {
    out.push(COMMAND_SIMPLIFY_PATH);
    out.extend_from_slice(&id.to_le_bytes());
    push_cstr(out, path);
}

/// CONFIRM_PATH: command, the path (NUL-terminated).
pub fn write_confirm_path(out: &mut Vec<u8>, path: &str) {
    out.push(COMMAND_CONFIRM_PATH);
    push_cstr(out, path);
}

/// RAW: command, then the bytes.
pub fn write_raw(out: &mut Vec<u8>, data: &[u8]) {
    out.push(COMMAND_RAW);
    out.extend_from_slice(data);
}

/// The 8-byte header `NetworkedMultiplayerENet::put_packet` puts before every packet on a data
/// channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnetHeader {
    /// The sender's peer id (`unique_id`).
    pub source: i32,
    /// The target: a peer id, 0 for everyone, `-n` for everyone but `n`.
    pub target: i32,
}

impl EnetHeader {
    /// Splits a data-channel packet into its header and the `MultiplayerAPI` bytes.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Truncated`] below 8 bytes (the engine drops those with
    /// `ERR_CONTINUE(dataLength < 8)`).
    pub fn split(p: &[u8]) -> Result<(Self, &[u8]), ProtocolError> {
        let source = read_u32(p, 0, "ENet header")? as i32;
        let target = read_u32(p, 4, "ENet header")? as i32;
        Ok((
            Self { source, target },
            p.get(ENET_HEADER_SIZE..).unwrap_or_default(),
        ))
    }

    /// Writes the header followed by `payload`.
    pub fn frame(self, payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(ENET_HEADER_SIZE + payload.len());
        out.extend_from_slice(&self.source.to_le_bytes());
        out.extend_from_slice(&self.target.to_le_bytes());
        out.extend_from_slice(payload);
        out
    }
}

/// A system message on `SYSCH_CONFIG` (server to clients only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SysMsg {
    /// `SYSMSG_ADD_PEER`: another client is (or was already) connected.
    AddPeer(i32),
    /// `SYSMSG_REMOVE_PEER`: another client left.
    RemovePeer(i32),
}

impl SysMsg {
    /// Parses a system message. The engine reads the first 8 bytes of a longer packet and
    /// ignores unknown message types; here both are errors, so a forged one is reported.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Truncated`] below 8 bytes, [`ProtocolError::Invalid`] for another
    /// length or an unknown type.
    pub fn parse(p: &[u8]) -> Result<Self, ProtocolError> {
        let kind = read_u32(p, 0, "SYSMSG")?;
        let id = read_u32(p, 4, "SYSMSG")? as i32;
        if p.len() != ENET_HEADER_SIZE {
            return Err(invalid(
                "SYSMSG length",
                0,
                format!("{} bytes, Godot sends 8", p.len()),
            ));
        }
        match kind {
            SYSMSG_ADD_PEER => Ok(Self::AddPeer(id)),
            SYSMSG_REMOVE_PEER => Ok(Self::RemovePeer(id)),
            other => Err(invalid("SYSMSG type", 0, format!("{other}"))),
        }
    }

    /// The 8 bytes of the message.
    pub fn to_bytes(self) -> [u8; 8] {
        let (kind, id) = match self {
            Self::AddPeer(id) => (SYSMSG_ADD_PEER, id),
            Self::RemovePeer(id) => (SYSMSG_REMOVE_PEER, id),
        };
        let [a, b, c, d] = kind.to_le_bytes();
        let [e, f, g, h] = id.to_le_bytes();
        [a, b, c, d, e, f, g, h]
    }
}

/// Where a data packet goes on the server (`_pop_current_packet`'s relay rules in `poll`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// Whether the server's own session gets it.
    pub local: bool,
    /// The clients it is forwarded to, unchanged.
    pub forward: Vec<i32>,
}

/// The server's relay decision for a packet from `source` to `target`, with `peers` connected,
/// as `NetworkedMultiplayerENet::poll` (3.2.3) makes it: `0` reaches the server and every other
/// client; `-n` every client but `source` and `n`, and the server unless `n` is 1; `1` the
/// server only; `n` that client only ([`Target::relay`]).
///
/// # Errors
///
/// [`ProtocolError::NoSuchPeer`] for a target that is not connected (the engine:
/// `ERR_CONTINUE(!peer_map.has(target))`).
pub fn route(source: i32, target: i32, peers: &[i32]) -> Result<Route, ProtocolError> {
    let target = Target::from_engine(target);
    let (local, forward) = target.relay(source, peers.iter().copied());
    if let Target::Peer(t) = target {
        if t != 1 && forward.is_empty() {
            return Err(ProtocolError::NoSuchPeer(t));
        }
    }
    Ok(Route { local, forward })
}

/// The same decision as 3.2.3's `WebSocketMultiplayerPeer::_process_multiplayer` makes it: as
/// [`route`], but `-1` reaches the server too (the engine compares its own id with `-source`
/// where `-target` was meant: `if (_peer_id != -(int32_t)p_peer_id)`, always true), and a
/// client may not target itself.
///
/// # Errors
///
/// [`ProtocolError::NoSuchPeer`] for a target that is not connected, or the source itself.
pub fn ws_route(source: i32, target: i32, peers: &[i32]) -> Result<Route, ProtocolError> {
    if target == source {
        return Err(ProtocolError::NoSuchPeer(target));
    }
    let mut route = route(source, target, peers)?;
    route.local |= matches!(Target::from_engine(target), Target::AllBut(_));
    Ok(route)
}

/// `WebSocketMultiplayerPeer`'s `SYS_NONE`: a `MultiplayerAPI` packet.
pub const WS_SYS_NONE: u8 = 0;
/// `SYS_ADD`: a peer is connected (1: the server, i.e. the connection succeeded).
pub const WS_SYS_ADD: u8 = 1;
/// `SYS_DEL`: a peer left.
pub const WS_SYS_DEL: u8 = 2;
/// `SYS_ID`: the server tells a new client its id.
pub const WS_SYS_ID: u8 = 3;
/// `PROTO_SIZE`: type, source, target.
pub const WS_HEADER_SIZE: usize = 9;

/// One message of Godot 3's `WebSocketMultiplayerPeer` (`modules/websocket/
/// websocket_multiplayer_peer.cpp`, `_make_pkt`): a type byte, the source and target peer
/// ids (`i32` little-endian), then the payload. System messages come from the server (source
/// 1, target 0) and carry one `i32` peer id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WsMessage<'a> {
    /// `SYS_NONE`, `SYS_ADD`, `SYS_DEL` or `SYS_ID`.
    pub kind: u8,
    /// The source peer.
    pub source: i32,
    /// The target peer (0 everyone, `-n` everyone but `n`).
    pub target: i32,
    /// The payload.
    pub payload: &'a [u8],
}

impl<'a> WsMessage<'a> {
    /// Parses a message.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Truncated`] below 9 bytes (the engine: `size < PROTO_SIZE`).
    pub fn parse(p: &'a [u8]) -> Result<Self, ProtocolError> {
        let &kind = p
            .first()
            .ok_or_else(|| ProtocolError::truncated("WebSocket header", 0, 9, 0))?;
        let source = read_u32(p, 1, "WebSocket header")? as i32;
        let target = read_u32(p, 5, "WebSocket header")? as i32;
        Ok(Self {
            kind,
            source,
            target,
            payload: p.get(WS_HEADER_SIZE..).unwrap_or_default(),
        })
    }

    /// The peer id of a system message.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Truncated`] when the payload is shorter than 4 bytes.
    pub fn sys_id(&self) -> Result<i32, ProtocolError> {
        read_u32(self.payload, 0, "WebSocket system message")
            .map(|v| v as i32)
            .map_err(|_| {
                ProtocolError::truncated(
                    "WebSocket system message",
                    WS_HEADER_SIZE,
                    4,
                    WS_HEADER_SIZE + self.payload.len(),
                )
            })
    }

    /// The bytes of the message.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(WS_HEADER_SIZE + self.payload.len());
        out.push(self.kind);
        out.extend_from_slice(&self.source.to_le_bytes());
        out.extend_from_slice(&self.target.to_le_bytes());
        out.extend_from_slice(self.payload);
        out
    }

    /// A system message from the server (source 1, target 0).
    pub fn sys(kind: u8, id: i32) -> Vec<u8> {
        WsMessage {
            kind,
            source: 1,
            target: 0,
            payload: &id.to_le_bytes(),
        }
        .to_bytes()
    }
}
