//! The packet layouts of Godot 4's SceneMultiplayer, with no state: [`parse`] reads one packet
//! into a [`Packet`] and the `write_*` functions build them.
//!
//! Engine sources (Godot 4.6): `modules/multiplayer/scene_multiplayer.{h,cpp}` (commands, SYS,
//! RAW, auth, relay), `scene_rpc_interface.cpp` (REMOTE_CALL) and `scene_cache_interface.cpp`
//! (SIMPLIFY_PATH, CONFIRM_PATH). Integers are little-endian. Byte 0 holds the command in its
//! low 3 bits (`CMD_MASK`; bit 3 is unused) and, for REMOTE_CALL, flags in bits 4-7
//! (`CMD_FLAG_0_SHIFT` is 4).

use crate::ProtocolError;
use crate::args::{self, Args};
use crate::core::node_id::{self, read_cstr};
use crate::replication::wire as rep;

/// `NETWORK_COMMAND_REMOTE_CALL`.
pub const COMMAND_REMOTE_CALL: u8 = 0;
/// `NETWORK_COMMAND_SIMPLIFY_PATH`.
pub const COMMAND_SIMPLIFY_PATH: u8 = 1;
/// `NETWORK_COMMAND_CONFIRM_PATH`.
pub const COMMAND_CONFIRM_PATH: u8 = 2;
/// `NETWORK_COMMAND_RAW`.
pub const COMMAND_RAW: u8 = 3;
/// `NETWORK_COMMAND_SPAWN` (replication: `replication::wire`).
pub const COMMAND_SPAWN: u8 = 4;
/// `NETWORK_COMMAND_DESPAWN`.
pub const COMMAND_DESPAWN: u8 = 5;
/// `NETWORK_COMMAND_SYNC` (full, or delta with bit 4 set).
pub const COMMAND_SYNC: u8 = 6;
/// `NETWORK_COMMAND_SYS`.
pub const COMMAND_SYS: u8 = 7;
/// `CMD_MASK`: the command bits of byte 0.
pub const CMD_MASK: u8 = 0x07;

/// `SYS_COMMAND_AUTH`.
pub const SYS_AUTH: u8 = 0;
/// `SYS_COMMAND_ADD_PEER`.
pub const SYS_ADD_PEER: u8 = 1;
/// `SYS_COMMAND_DEL_PEER`.
pub const SYS_DEL_PEER: u8 = 2;
/// `SYS_COMMAND_RELAY`.
pub const SYS_RELAY: u8 = 3;
/// `SYS_CMD_SIZE`: command, sub-command and a 32-bit peer id.
pub const SYS_CMD_SIZE: usize = 6;

// REMOTE_CALL flags in byte 0 (`scene_rpc_interface.cpp`): node-id compression in bits 4-5
// (8, 16, 32 bits), method-id compression in bit 6 (8, 16 bits), "one PackedByteArray or no
// arguments" in bit 7 (checked against the live engine: its path-form call starts 0x20).
pub(crate) const NODE_ID_SHIFT: u8 = 4;
const NAME_ID_SHIFT: u8 = 6;
pub(crate) const BYTE_ONLY_OR_NO_ARGS: u8 = 1 << 7;
/// A SIMPLIFY_PATH packet's MD5 field: 32 hex digits and a NUL.
const MD5_FIELD: usize = 33;

/// How a REMOTE_CALL (and, in Godot 3, a remote set) names its node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeRef<'a> {
    /// A path-cache id the sender announced with SIMPLIFY_PATH.
    Cached(u32),
    /// The full path (relative to the multiplayer root), sent before the receiver confirmed the id.
    Path(&'a str),
}

/// One parsed packet.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Packet<'a> {
    /// `REMOTE_CALL`: a call of method `method` on `node` with `args`.
    RemoteCall {
        /// The node.
        node: NodeRef<'a>,
        /// The method id (index in the node's sorted RPC names).
        method: u16,
        /// The arguments, still encoded.
        args: Args<'a>,
    },
    /// `SIMPLIFY_PATH`: the sender will call `path` by `id` from now on.
    SimplifyPath {
        /// The MD5 of the node's RPC method names, as the sender computes it.
        md5: &'a str,
        /// The id.
        id: u32,
        /// The path, relative to the multiplayer root.
        path: &'a str,
    },
    /// `CONFIRM_PATH`: the receiver of our SIMPLIFY_PATH stored `id`; `valid` says whether the
    /// checksums matched.
    ConfirmPath {
        /// Whether the receiver's checksum matched ours.
        valid: bool,
        /// The id.
        id: u32,
    },
    /// `RAW`: application bytes (`send_bytes`).
    Raw(&'a [u8]),
    /// `SYS AUTH` with data (`send_auth`), or empty: the sender completed authentication.
    Auth(&'a [u8]),
    /// `SYS ADD_PEER`: the server tells a client that `0` joined.
    AddPeer(i32),
    /// `SYS DEL_PEER`: the server tells a client that `0` left.
    DelPeer(i32),
    /// `SPAWN`: a node spawned in the sender's spawner.
    Spawn(rep::Spawn<'a>),
    /// `DESPAWN`: the node with this net id is removed.
    Despawn(u32),
    /// `SYNC`: synchronizer state (full or delta).
    Sync(rep::Sync<'a>),
    /// `SYS RELAY`: from a client, `peer` is the target (0 all, negative all but); from the
    /// server, `peer` is the source.
    Relay {
        /// Target or source.
        peer: i32,
        /// The relayed packet.
        inner: &'a [u8],
    },
}

fn take<const N: usize>(
    p: &[u8],
    at: usize,
    command: &'static str,
) -> Result<[u8; N], ProtocolError> {
    p.get(at..at + N)
        .and_then(|s| s.try_into().ok())
        .ok_or_else(|| ProtocolError::truncated(command, at, N, p.len()))
}

fn read_u32(p: &[u8], at: usize, command: &'static str) -> Result<u32, ProtocolError> {
    take::<4>(p, at, command).map(u32::from_le_bytes)
}

/// Parses one packet as SceneMultiplayer receives it (after the transport's framing).
///
/// # Errors
///
/// A [`ProtocolError`] with the byte offset for a truncated or malformed packet.
pub fn parse(p: &[u8]) -> Result<Packet<'_>, ProtocolError> {
    let &first = p.first().ok_or(ProtocolError::Empty)?;
    match first & CMD_MASK {
        COMMAND_REMOTE_CALL => parse_remote_call(p, first),
        COMMAND_SIMPLIFY_PATH => {
            // Godot: `p_packet_len < 38` is refused (command, MD5 field, id, a one-byte path).
            if p.len() < 1 + MD5_FIELD + 4 + 1 {
                return Err(ProtocolError::truncated(
                    "SIMPLIFY_PATH",
                    p.len(),
                    38 - p.len(),
                    p.len(),
                ));
            }
            let md5_bytes = p.get(1..33).unwrap_or_default();
            let md5 = core::str::from_utf8(md5_bytes).map_err(|_| ProtocolError::Invalid {
                what: "RPC checksum",
                offset: 1,
                detail: "not UTF-8".into(),
            })?;
            let id = read_u32(p, 1 + MD5_FIELD, "SIMPLIFY_PATH")?;
            let path = read_cstr(p, 1 + MD5_FIELD + 4, "node path")?;
            Ok(Packet::SimplifyPath {
                md5: md5.trim_end_matches('\0'),
                id,
                path,
            })
        }
        COMMAND_CONFIRM_PATH => {
            if p.len() != 6 {
                return Err(ProtocolError::Invalid {
                    what: "CONFIRM_PATH length",
                    offset: 0,
                    detail: format!("{} bytes, Godot sends 6", p.len()),
                });
            }
            let valid = p.get(1).is_some_and(|&b| b != 0);
            let id = read_u32(p, 2, "CONFIRM_PATH")?;
            Ok(Packet::ConfirmPath { valid, id })
        }
        COMMAND_RAW => {
            let data = p.get(1..).unwrap_or_default();
            if data.is_empty() {
                return Err(ProtocolError::truncated("RAW", 1, 1, p.len()));
            }
            Ok(Packet::Raw(data))
        }
        COMMAND_SPAWN => rep::parse_spawn(p).map(Packet::Spawn),
        COMMAND_DESPAWN => rep::parse_despawn(p).map(Packet::Despawn),
        COMMAND_SYNC => rep::parse_sync(p).map(Packet::Sync),
        _ => parse_sys(p),
    }
}

fn parse_sys(p: &[u8]) -> Result<Packet<'_>, ProtocolError> {
    let &sub = p
        .get(1)
        .ok_or_else(|| ProtocolError::truncated("SYS", 1, 1, p.len()))?;
    if sub == SYS_AUTH {
        return Ok(Packet::Auth(p.get(2..).unwrap_or_default()));
    }
    let peer = read_u32(p, 2, "SYS")? as i32;
    match sub {
        SYS_ADD_PEER => Ok(Packet::AddPeer(peer)),
        SYS_DEL_PEER => Ok(Packet::DelPeer(peer)),
        SYS_RELAY => {
            let inner = p.get(SYS_CMD_SIZE..).unwrap_or_default();
            if inner.is_empty() {
                return Err(ProtocolError::truncated(
                    "SYS RELAY",
                    SYS_CMD_SIZE,
                    1,
                    p.len(),
                ));
            }
            Ok(Packet::Relay { peer, inner })
        }
        other => Err(ProtocolError::UnknownSys(other)),
    }
}

fn parse_remote_call(p: &[u8], first: u8) -> Result<Packet<'_>, ProtocolError> {
    const C: &str = "REMOTE_CALL";
    let node_width = match (first >> NODE_ID_SHIFT) & 3 {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => {
            return Err(ProtocolError::Invalid {
                what: "node id compression",
                offset: 0,
                detail: "mode 3 is not defined".into(),
            });
        }
    };
    let name_width = if first & (1 << NAME_ID_SHIFT) == 0 {
        1
    } else {
        2
    };
    let node_raw = match node_width {
        1 => u32::from(take::<1>(p, 1, C)?[0]),
        2 => u32::from(u16::from_le_bytes(take::<2>(p, 1, C)?)),
        _ => read_u32(p, 1, C)?,
    };
    let name_at = 1 + node_width;
    let method = match name_width {
        1 => u16::from(take::<1>(p, name_at, C)?[0]),
        _ => u16::from_le_bytes(take::<2>(p, name_at, C)?),
    };
    let mut offset = name_at + name_width;
    // With the path in the packet, the arguments end where the path starts.
    let (node, end) = node_id::read(p, node_raw, offset)?;
    let body = p.get(..end).unwrap_or_default();
    let args = if first & BYTE_ONLY_OR_NO_ARGS != 0 {
        Args::raw_or_none(body.get(offset..).unwrap_or_default(), offset)
    } else {
        let &count = body
            .get(offset)
            .ok_or_else(|| ProtocolError::truncated(C, offset, 1, body.len()))?;
        offset += 1;
        Args::list(count, body.get(offset..).unwrap_or_default(), offset)
    };
    Ok(Packet::RemoteCall { node, method, args })
}

/// Writes a REMOTE_CALL as `SceneRPCInterface::_send_rpc` does: the smallest node-id and
/// method-id widths, then the arguments; `path` (when the receiver has not confirmed the id)
/// goes after them, NUL-terminated, with the node id replaced by `0x80000000 | offset`.
pub fn write_remote_call(
    out: &mut Vec<u8>,
    node_id: u32,
    path: Option<&str>,
    method: u16,
    encoded: &args::Encoded,
) {
    let start = out.len();
    out.push(0);
    let node_mode = if path.is_some() {
        out.extend_from_slice(&node_id.to_le_bytes());
        2
    } else if node_id <= 0xFF {
        out.push(node_id as u8);
        0
    } else if node_id <= 0xFFFF {
        out.extend_from_slice(&(node_id as u16).to_le_bytes());
        1
    } else {
        out.extend_from_slice(&node_id.to_le_bytes());
        2
    };
    let name_mode = if method <= 0xFF {
        out.push(method as u8);
        0
    } else {
        out.extend_from_slice(&method.to_le_bytes());
        1
    };
    if !encoded.byte_only_or_none {
        out.push(encoded.count);
    }
    out.extend_from_slice(&encoded.bytes);
    let mut meta =
        COMMAND_REMOTE_CALL | (node_mode << NODE_ID_SHIFT) | (name_mode << NAME_ID_SHIFT);
    if encoded.byte_only_or_none {
        meta |= BYTE_ONLY_OR_NO_ARGS;
    }
    if let Some(meta_byte) = out.get_mut(start) {
        *meta_byte = meta;
    }
    if let Some(path) = path {
        node_id::append_path(out, start, path);
    }
}

/// Rewrites a compact REMOTE_CALL to use a 32-bit node id (what `_send_rpc` writes for the
/// targets that confirmed the id when others have not).
pub(crate) fn force_node_id_32(packet: &mut Vec<u8>, id: u32) {
    let Some(&meta) = packet.first() else { return };
    let width = match (meta >> NODE_ID_SHIFT) & 3 {
        0 => 1,
        1 => 2,
        _ => return,
    };
    packet.splice(1..1 + width, id.to_le_bytes());
    if let Some(m) = packet.first_mut() {
        *m = (meta & !(3 << NODE_ID_SHIFT)) | (2 << NODE_ID_SHIFT);
    }
}

/// SIMPLIFY_PATH: command, the MD5 (32 hex digits, NUL), the id, the path (NUL-terminated).
pub fn write_simplify_path(out: &mut Vec<u8>, md5: &str, id: u32, path: &str) {
    out.push(COMMAND_SIMPLIFY_PATH);
    out.extend_from_slice(md5.as_bytes());
    out.push(0);
    out.extend_from_slice(&id.to_le_bytes());
    out.extend_from_slice(path.as_bytes());
    out.push(0);
}

/// CONFIRM_PATH: command, the checksum verdict, the id.
pub fn write_confirm_path(out: &mut Vec<u8>, valid: bool, id: u32) {
    out.push(COMMAND_CONFIRM_PATH);
    out.push(u8::from(valid));
    out.extend_from_slice(&id.to_le_bytes());
}

/// RAW: command, then the bytes.
pub fn write_raw(out: &mut Vec<u8>, data: &[u8]) {
    out.push(COMMAND_RAW);
    out.extend_from_slice(data);
}

/// SYS AUTH: command, sub-command, then the data (empty: authentication completed).
pub fn write_auth(out: &mut Vec<u8>, data: &[u8]) {
    out.push(COMMAND_SYS);
    out.push(SYS_AUTH);
    out.extend_from_slice(data);
}

/// A SYS packet with a peer id: ADD_PEER, DEL_PEER, or the head of a RELAY.
pub fn write_sys(out: &mut Vec<u8>, sub: u8, peer: i32) {
    out.push(COMMAND_SYS);
    out.push(sub);
    out.extend_from_slice(&peer.to_le_bytes());
}
