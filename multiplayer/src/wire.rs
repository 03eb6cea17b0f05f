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
/// A REMOTE_CALL, nearly every packet, is read inline in the caller, whose `match` on the
/// [`Packet`] then keeps its fields in registers; the other commands are read out of line.
/// (Returned from a call, the `Packet` was written through memory field by field and read
/// back wide, each wide load waiting for the narrow stores: two thirds of a one-int call's
/// receive.)
///
/// # Errors
///
/// A [`ProtocolError`] with the byte offset for a truncated or malformed packet.
#[inline]
pub fn parse(p: &[u8]) -> Result<Packet<'_>, ProtocolError> {
    if let Some(&first) = p.first()
        && first & CMD_MASK == COMMAND_REMOTE_CALL
    {
        return parse_remote_call(p, first);
    }
    parse_other(p)
}

/// [`parse`] for every packet but a REMOTE_CALL.
#[inline(never)]
fn parse_other(p: &[u8]) -> Result<Packet<'_>, ProtocolError> {
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

/// A REMOTE_CALL: the meta byte's widths, the node id and the method id, the count byte (none
/// with the "byte only or no args" flag), the arguments, and maybe the path after them.
#[inline(always)]
fn parse_remote_call(p: &[u8], first: u8) -> Result<Packet<'_>, ProtocolError> {
    let node_mode = (first >> NODE_ID_SHIFT) & 3;
    if node_mode == 3 {
        return Err(node_mode_3());
    }
    // 1, 2 or 4 bytes of node id; 1 or 2 of method id.
    let node_width = 1usize << node_mode;
    let name_width = 1 + usize::from((first >> NAME_ID_SHIFT) & 1);
    let name_at = 1 + node_width;
    let mut offset = name_at + name_width;
    // The header at once: every field is read from one 8-byte word when the packet holds
    // one, else from a zero-padded copy (a short packet; the checks below report the first
    // missing field).
    let word = match p.get(..8) {
        Some(w) => w.try_into().map_or(0, u64::from_le_bytes),
        None => short_word(p),
    };
    if p.len() < offset {
        return Err(call_truncated(p.len(), node_width, name_at, name_width));
    }
    let node_mask = u64::MAX >> (64 - 8 * node_width);
    let node_raw = ((word >> 8) & node_mask) as u32;
    let name_mask = u64::MAX >> (64 - 8 * name_width);
    let method = ((word >> (8 * name_at)) & name_mask) as u16;
    if node_raw & node_id::PATH_IN_PACKET != 0 {
        return remote_call_with_path(p, first, node_raw, method, offset);
    }
    // A cached id: built here, with constants, so that the `Packet` is written in one pass
    // (merged with the path's form, the node went through the stack twice and each wide
    // copy waited on the narrow stores before it).
    let args = if first & BYTE_ONLY_OR_NO_ARGS == 0 {
        if p.len() <= offset {
            return Err(ProtocolError::truncated("REMOTE_CALL", offset, 1, p.len()));
        }
        // The count byte is the header's last (`offset` is 7 at most).
        let count = (word >> ((8 * offset) & 63)) as u8;
        offset += 1;
        Args::list(count, p.get(offset..).unwrap_or_default(), offset)
    } else {
        Args::raw_or_none(p.get(offset..).unwrap_or_default(), offset)
    };
    Ok(Packet::RemoteCall {
        node: NodeRef::Cached(node_raw),
        method,
        args,
    })
}

/// [`parse_remote_call`] with the path in the packet (the first calls on a node): the
/// arguments end where the path starts.
#[cold]
#[inline(never)]
fn remote_call_with_path(
    p: &[u8],
    first: u8,
    node_raw: u32,
    method: u16,
    mut offset: usize,
) -> Result<Packet<'_>, ProtocolError> {
    let (node, end) = node_id::read(p, node_raw, offset)?;
    let body = p.get(..end).unwrap_or_default();
    let args = if first & BYTE_ONLY_OR_NO_ARGS == 0 {
        let &count = body
            .get(offset)
            .ok_or_else(|| ProtocolError::truncated("REMOTE_CALL", offset, 1, end))?;
        offset += 1;
        Args::list(count, body.get(offset..).unwrap_or_default(), offset)
    } else {
        Args::raw_or_none(body.get(offset..).unwrap_or_default(), offset)
    };
    Ok(Packet::RemoteCall { node, method, args })
}

/// The first bytes of a packet shorter than 8, zero-padded, as one little-endian word.
#[cold]
fn short_word(p: &[u8]) -> u64 {
    p.iter()
        .take(8)
        .enumerate()
        .fold(0, |w, (i, &b)| w | (u64::from(b) << (8 * i)))
}

#[cold]
fn node_mode_3() -> ProtocolError {
    ProtocolError::Invalid {
        what: "node id compression",
        offset: 0,
        detail: "mode 3 is not defined".into(),
    }
}

/// The truncation of a REMOTE_CALL header of `len` bytes: the first field that does not fit
/// (the node id at 1, the method id at `name_at`).
#[cold]
fn call_truncated(
    len: usize,
    node_width: usize,
    name_at: usize,
    name_width: usize,
) -> ProtocolError {
    let (at, needed) = if len < name_at {
        (1, node_width)
    } else {
        (name_at, name_width)
    };
    ProtocolError::truncated("REMOTE_CALL", at, needed, len)
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
    let count = (!encoded.byte_only_or_none).then_some(encoded.count);
    out.reserve(CALL_HEADER_MAX + encoded.bytes.len());
    put_call_header(out, node_id, path.is_some(), method, count);
    out.extend_from_slice(&encoded.bytes);
    if let Some(path) = path {
        node_id::append_path(out, start, path);
    }
}

/// The longest REMOTE_CALL header: the meta byte, a 32-bit node id, a 16-bit method id and
/// the count byte.
pub(crate) const CALL_HEADER_MAX: usize = 8;

/// Appends a REMOTE_CALL's header: the meta byte (the "byte only or no args" flag when
/// `count` is `None`), the node id in the smallest width (32 bits when `path` follows), the
/// method id, the count byte. Composed in one 64-bit word and stored at once: pushed byte by
/// byte, each push checked the capacity and stored apart (the header was a third of a
/// one-int send).
#[inline]
pub(crate) fn put_call_header(
    out: &mut Vec<u8>,
    node_id: u32,
    path: bool,
    method: u16,
    count: Option<u8>,
) {
    let (node_mode, node_width) = if path || node_id > 0xFFFF {
        (2u8, 4u32)
    } else if node_id > 0xFF {
        (1, 2)
    } else {
        (0, 1)
    };
    let (name_mode, name_width) = if method > 0xFF { (1u8, 2u32) } else { (0, 1) };
    let mut meta =
        COMMAND_REMOTE_CALL | (node_mode << NODE_ID_SHIFT) | (name_mode << NAME_ID_SHIFT);
    let count_width = match count {
        Some(_) => 1,
        None => {
            meta |= BYTE_ONLY_OR_NO_ARGS;
            0
        }
    };
    // Each field fits its width (checked above), so the shifts below place them side by side.
    let name_at = 8 * (1 + node_width);
    let count_at = name_at + 8 * name_width;
    let word = u64::from(meta)
        | (u64::from(node_id) << 8)
        | (u64::from(method) << name_at)
        | (u64::from(count.unwrap_or(0)) << (count_at & 63));
    let len = (count_at / 8 + count_width) as usize;
    let start = out.len();
    out.extend_from_slice(&word.to_le_bytes());
    out.truncate(start + len);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// One int argument, 7, compressed: meta byte `INT | 8-bit << 6` = 0x02, then 0x07.
    fn seven() -> args::Encoded {
        args::Encoded {
            bytes: vec![0x02, 0x07],
            count: 1,
            byte_only_or_none: false,
        }
    }

    /// Every width of the header, as `_send_rpc` lays it out (byte 0: node mode in bits 4-5,
    /// method mode in bit 6): written in one word, read back from one.
    #[test]
    fn headers_of_every_width() {
        let cases: [(u32, u16, &[u8]); 6] = [
            (5, 3, &[0x00, 5, 3, 1, 0x02, 0x07]),
            (0x1234, 3, &[0x10, 0x34, 0x12, 3, 1, 0x02, 0x07]),
            (
                0x0012_3456,
                3,
                &[0x20, 0x56, 0x34, 0x12, 0x00, 3, 1, 0x02, 0x07],
            ),
            (5, 0x0102, &[0x40, 5, 0x02, 0x01, 1, 0x02, 0x07]),
            (
                0x0102_0304,
                0x0506,
                &[0x60, 0x04, 0x03, 0x02, 0x01, 0x06, 0x05, 1, 0x02, 0x07],
            ),
            (0xFF, 0xFF, &[0x00, 0xFF, 0xFF, 1, 0x02, 0x07]),
        ];
        for (node, method, want) in cases {
            let mut out = vec![0xAA];
            write_remote_call(&mut out, node, None, method, &seven());
            assert_eq!(
                out.get(1..),
                Some(want),
                "node {node:#x} method {method:#x}"
            );
            let Ok(Packet::RemoteCall {
                node: got,
                method: m,
                args,
            }) = parse(want)
            else {
                panic!("{want:?} does not parse")
            };
            assert_eq!((got, m), (NodeRef::Cached(node), method));
            assert_eq!(args.parts(), (Some(1), &[0x02, 0x07][..], want.len() - 2));
        }
    }

    /// No arguments: the flag in bit 7, no count byte.
    #[test]
    fn no_arguments_no_count_byte() {
        let mut out = Vec::new();
        write_remote_call(&mut out, 5, None, 3, &args::Encoded::default());
        let none = args::Encoded {
            byte_only_or_none: true,
            ..args::Encoded::default()
        };
        let mut flagged = Vec::new();
        write_remote_call(&mut flagged, 5, None, 3, &none);
        assert_eq!(out, [0x00, 5, 3, 0]);
        assert_eq!(flagged, [0x80, 5, 3]);
    }

    /// Each prefix of a header names the first field it lacks: the node id at 1, the method
    /// id at 1 + node width, the count byte after it.
    #[test]
    fn every_short_header_is_truncated_at_its_missing_field() {
        let full = [0x60, 0x04, 0x03, 0x02, 0x01, 0x06, 0x05, 1, 0x02, 0x07];
        let want = |len: usize| match len {
            1..=4 => (1, 4),
            5 | 6 => (5, 2),
            _ => (7, 1),
        };
        for len in 1..8 {
            let (offset, needed) = want(len);
            assert_eq!(
                parse(&full[..len]),
                Err(ProtocolError::truncated("REMOTE_CALL", offset, needed, len)),
                "{len} bytes"
            );
        }
        assert_eq!(
            parse(&[0x00, 5]),
            Err(ProtocolError::truncated("REMOTE_CALL", 2, 1, 2))
        );
        assert!(matches!(
            parse(&[0x30, 0, 0, 0, 0, 0, 0, 0]),
            Err(ProtocolError::Invalid { offset: 0, .. })
        ));
    }

    /// The path form: 32-bit id `0x80000000 | offset`, the path after the arguments; with the
    /// path where the count byte would be, the count is missing.
    #[test]
    fn path_form_round_trips_and_needs_its_count_byte() {
        let mut out = Vec::new();
        write_remote_call(&mut out, 9, Some("Lobby"), 2, &seven());
        // 0x20, the id field 0x80000000 | 9 (a header of 7 bytes, 2 of arguments), 2, 1.
        assert_eq!(
            out,
            [
                0x20, 9, 0, 0, 0x80, 2, 1, 0x02, 0x07, b'L', b'o', b'b', b'b', b'y', 0
            ]
        );
        let Ok(Packet::RemoteCall { node, method, args }) = parse(&out) else {
            panic!("no call")
        };
        assert_eq!((node, method), (NodeRef::Path("Lobby"), 2));
        assert_eq!(args.parts(), (Some(1), &[0x02, 0x07][..], 7));
        let bad = [0x20, 6, 0, 0, 0x80, 2, b'L', 0];
        assert_eq!(
            parse(&bad),
            Err(ProtocolError::truncated("REMOTE_CALL", 6, 1, 6))
        );
    }
}
