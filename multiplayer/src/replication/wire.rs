//! The replication packets (SPAWN, DESPAWN, SYNC and its delta form), with no state.
//!
//! Engine source (Godot 4.6): `modules/multiplayer/scene_replication_interface.cpp`
//! (`_make_spawn_packet`, `on_spawn_receive`, `_make_despawn_packet`, `_send_sync`,
//! `on_sync_receive`, `_send_delta`, `on_delta_receive`). Integers are little-endian.
//!
//! - SPAWN: command 4, the spawnable-scene index (255 = custom spawn), the spawner's path-cache
//!   id (u32), the node's net id (u32), the synchronizer count (u32), the name's length with
//!   its NUL (u32), the synchronizer net ids (u32 each), the name (NUL-terminated UTF-8); for a
//!   custom spawn the argument's size (u32) and the argument (`encode_and_compress_variant`);
//!   then the spawn state (the spawn properties, compressed Variants back to back).
//! - DESPAWN: command 5, the net id (u32).
//! - SYNC: command 6, the sender's network time (u16), then entries: net id (u32), size (u32),
//!   the sync properties (compressed Variants).
//! - Delta SYNC: command `6 | 1 << 4`, then entries: net id (u32), the changed watch
//!   properties as a bit mask (u64), size (u32), the changed values.

use crate::ProtocolError;
use crate::wire::{COMMAND_DESPAWN, COMMAND_SPAWN, COMMAND_SYNC};

/// The scene index of a custom spawn (`MultiplayerSpawner::INVALID_ID`).
pub const CUSTOM_SPAWN: u8 = 0xFF;
/// The flag of a delta SYNC in byte 0 (`1 << CMD_FLAG_0_SHIFT`).
pub const DELTA_FLAG: u8 = 1 << 4;
/// `on_spawn_receive` refuses packets shorter than this.
pub const MIN_SPAWN: usize = 18;
/// `on_sync_receive` refuses packets shorter than this (full and delta).
pub const MIN_SYNC: usize = 11;

/// A parsed SPAWN packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spawn<'a> {
    /// The spawnable-scene index, [`CUSTOM_SPAWN`] for a custom spawn.
    pub scene: u8,
    /// The spawner's path-cache id (announced by the sender with SIMPLIFY_PATH).
    pub spawner: u32,
    /// The spawned node's net id.
    pub net_id: u32,
    sync_ids: &'a [u8],
    /// The node's name.
    pub name: &'a str,
    /// The custom spawn's argument, still encoded (`encode_and_compress_variant`).
    pub custom: Option<&'a [u8]>,
    /// The spawn state: the spawn properties as compressed Variants, back to back.
    pub state: &'a [u8],
    /// Where the state starts in the packet.
    pub state_offset: usize,
}

impl Spawn<'_> {
    /// The net ids of the spawned node's synchronizers, in the sender's order.
    pub fn sync_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.sync_ids
            .chunks_exact(4)
            .filter_map(|c| <[u8; 4]>::try_from(c).ok())
            .map(u32::from_le_bytes)
    }

    /// How many synchronizer net ids the packet holds.
    pub fn sync_count(&self) -> usize {
        self.sync_ids.len() / 4
    }
}

/// One entry of a SYNC packet (full or delta).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyncEntry<'a> {
    /// The synchronizer's net id: a spawn-assigned id, or `0x80000000 | path-cache id`.
    pub net_id: u32,
    /// Delta entries: which watch properties follow (bit `i` = the `i`-th watch property).
    pub indexes: Option<u64>,
    /// The values, compressed Variants back to back.
    pub state: &'a [u8],
    /// Where `state` starts in the packet.
    pub offset: usize,
}

/// A parsed SYNC packet: its entries are read lazily, as the engine reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sync<'a> {
    /// The sender's network time (full syncs; 0 for deltas).
    pub time: u16,
    /// Whether this is a delta.
    pub delta: bool,
    packet: &'a [u8],
}

impl<'a> Sync<'a> {
    /// The entries. The engine stops reading when fewer than a header's bytes are left
    /// (trailing bytes are ignored), and refuses the rest of the packet at an entry whose size
    /// runs past its end: that is the iterator's error.
    pub fn entries(&self) -> SyncEntries<'a> {
        SyncEntries {
            packet: self.packet,
            at: if self.delta { 1 } else { 3 },
            delta: self.delta,
        }
    }
}

/// The entries of a [`Sync`].
#[derive(Debug, Clone)]
pub struct SyncEntries<'a> {
    packet: &'a [u8],
    at: usize,
    delta: bool,
}

impl<'a> Iterator for SyncEntries<'a> {
    type Item = Result<SyncEntry<'a>, ProtocolError>;

    fn next(&mut self) -> Option<Self::Item> {
        let header = if self.delta { 16 } else { 8 };
        // Godot: `while (ofs + header < len)`.
        if self.at + header >= self.packet.len() {
            return None;
        }
        let p = self.packet;
        let at = self.at;
        let net_id = u32_at(p, at)?;
        let (indexes, size_at) = if self.delta {
            let b = p.get(at + 4..at + 12)?;
            let mut raw = [0u8; 8];
            raw.copy_from_slice(b);
            (Some(u64::from_le_bytes(raw)), at + 12)
        } else {
            (None, at + 4)
        };
        let size = u32_at(p, size_at)? as usize;
        let start = size_at + 4;
        let Some(state) = p.get(start..).and_then(|rest| rest.get(..size)) else {
            self.at = p.len();
            return Some(Err(ProtocolError::Invalid {
                what: "SYNC entry size",
                offset: size_at,
                detail: format!("{size} bytes, {} left in the packet", p.len() - start),
            }));
        };
        self.at = start + size;
        Some(Ok(SyncEntry {
            net_id,
            indexes,
            state,
            offset: start,
        }))
    }
}

fn u32_at(p: &[u8], at: usize) -> Option<u32> {
    let b = p.get(at..at.checked_add(4)?)?;
    <[u8; 4]>::try_from(b).ok().map(u32::from_le_bytes)
}

fn need_u32(p: &[u8], at: usize, command: &'static str) -> Result<u32, ProtocolError> {
    u32_at(p, at).ok_or_else(|| ProtocolError::truncated(command, at, 4, p.len()))
}

/// Reads a SPAWN packet with `on_spawn_receive`'s checks.
///
/// # Errors
///
/// [`ProtocolError::Truncated`] / [`ProtocolError::Invalid`] with the byte offset.
pub fn parse_spawn(p: &[u8]) -> Result<Spawn<'_>, ProtocolError> {
    const C: &str = "SPAWN";
    if p.len() < MIN_SPAWN {
        return Err(ProtocolError::truncated(
            C,
            p.len(),
            MIN_SPAWN - p.len(),
            p.len(),
        ));
    }
    let scene = p.get(1).copied().unwrap_or_default();
    let spawner = need_u32(p, 2, C)?;
    let net_id = need_u32(p, 6, C)?;
    let sync_len = u64::from(need_u32(p, 10, C)?);
    let name_len = u64::from(need_u32(p, 14, C)?);
    let mut at = 18usize;
    let left = (p.len() - at) as u64;
    if name_len + sync_len * 4 > left {
        return Err(ProtocolError::Invalid {
            what: "SPAWN sizes",
            offset: 10,
            detail: format!(
                "{sync_len} synchronizer ids and a name of {name_len} bytes, {left} bytes left"
            ),
        });
    }
    let ids_len = (sync_len * 4) as usize;
    let sync_ids = p.get(at..at + ids_len).unwrap_or_default();
    at += ids_len;
    if name_len < 1 {
        return Err(ProtocolError::Invalid {
            what: "spawn name",
            offset: 14,
            detail: "zero name size".into(),
        });
    }
    let name_bytes = p.get(at..at + name_len as usize).unwrap_or_default();
    let end = name_bytes
        .iter()
        .position(|&b| b == 0)
        .unwrap_or(name_bytes.len());
    let name = core::str::from_utf8(name_bytes.get(..end).unwrap_or_default()).map_err(|e| {
        ProtocolError::Invalid {
            what: "spawn name",
            offset: at + e.valid_up_to(),
            detail: "not UTF-8".into(),
        }
    })?;
    if let Some(bad) = name.find(INVALID_NAME_CHARS) {
        return Err(ProtocolError::Invalid {
            what: "spawn name",
            offset: at + bad,
            detail: format!("{name:?} is not a valid node name"),
        });
    }
    if name.is_empty() {
        return Err(ProtocolError::Invalid {
            what: "spawn name",
            offset: at,
            detail: "empty name".into(),
        });
    }
    at += name_len as usize;
    let custom = if scene == CUSTOM_SPAWN {
        let size = need_u32(p, at, C)? as usize;
        at += 4;
        let arg = p
            .get(at..)
            .and_then(|rest| rest.get(..size))
            .ok_or_else(|| ProtocolError::Invalid {
                what: "custom spawn argument size",
                offset: at - 4,
                detail: format!("{size} bytes, {} left", p.len() - at),
            })?;
        at += size;
        Some(arg)
    } else {
        None
    };
    Ok(Spawn {
        scene,
        spawner,
        net_id,
        sync_ids,
        name,
        custom,
        state: p.get(at..).unwrap_or_default(),
        state_offset: at,
    })
}

/// The characters `String::validate_node_name` replaces (Godot 4), which a spawn name may not
/// hold.
const INVALID_NAME_CHARS: [char; 5] = ['.', ':', '/', '"', '%'];

/// Reads a DESPAWN packet (`on_despawn_receive` refuses fewer than 5 bytes; more are ignored).
///
/// # Errors
///
/// [`ProtocolError::Truncated`].
pub fn parse_despawn(p: &[u8]) -> Result<u32, ProtocolError> {
    need_u32(p, 1, "DESPAWN")
}

/// Reads a SYNC packet's header (`on_sync_receive` refuses fewer than 11 bytes).
///
/// # Errors
///
/// [`ProtocolError::Truncated`].
pub fn parse_sync(p: &[u8]) -> Result<Sync<'_>, ProtocolError> {
    if p.len() < MIN_SYNC {
        return Err(ProtocolError::truncated(
            "SYNC",
            p.len(),
            MIN_SYNC - p.len(),
            p.len(),
        ));
    }
    let delta = p.first().is_some_and(|b| b & DELTA_FLAG != 0);
    let time = if delta {
        0
    } else {
        p.get(1..3)
            .and_then(|b| <[u8; 2]>::try_from(b).ok())
            .map_or(0, u16::from_le_bytes)
    };
    Ok(Sync {
        time,
        delta,
        packet: p,
    })
}

/// Writes a SPAWN packet as `_make_spawn_packet` does. `custom` is the encoded custom-spawn
/// argument (`scene` must be [`CUSTOM_SPAWN`] then); `state` the encoded spawn state.
#[allow(clippy::too_many_arguments)]
pub fn write_spawn(
    out: &mut Vec<u8>,
    scene: u8,
    spawner: u32,
    net_id: u32,
    sync_ids: &[u32],
    name: &str,
    custom: Option<&[u8]>,
    state: &[u8],
) {
    out.push(COMMAND_SPAWN);
    out.push(scene);
    out.extend_from_slice(&spawner.to_le_bytes());
    out.extend_from_slice(&net_id.to_le_bytes());
    out.extend_from_slice(&(sync_ids.len() as u32).to_le_bytes());
    out.extend_from_slice(&(name.len() as u32 + 1).to_le_bytes());
    for id in sync_ids {
        out.extend_from_slice(&id.to_le_bytes());
    }
    out.extend_from_slice(name.as_bytes());
    out.push(0);
    if let Some(arg) = custom {
        out.extend_from_slice(&(arg.len() as u32).to_le_bytes());
        out.extend_from_slice(arg);
    }
    out.extend_from_slice(state);
}

/// Writes a DESPAWN packet.
pub fn write_despawn(out: &mut Vec<u8>, net_id: u32) {
    out.push(COMMAND_DESPAWN);
    out.extend_from_slice(&net_id.to_le_bytes());
}

/// Starts a full SYNC packet: command and network time.
pub fn start_sync(out: &mut Vec<u8>, time: u16) {
    out.push(COMMAND_SYNC);
    out.extend_from_slice(&time.to_le_bytes());
}

/// Starts a delta SYNC packet.
pub fn start_delta(out: &mut Vec<u8>) {
    out.push(COMMAND_SYNC | DELTA_FLAG);
}

/// Appends a full SYNC entry.
pub fn write_sync_entry(out: &mut Vec<u8>, net_id: u32, state: &[u8]) {
    out.extend_from_slice(&net_id.to_le_bytes());
    out.extend_from_slice(&(state.len() as u32).to_le_bytes());
    out.extend_from_slice(state);
}

/// Appends a delta SYNC entry.
pub fn write_delta_entry(out: &mut Vec<u8>, net_id: u32, indexes: u64, state: &[u8]) {
    out.extend_from_slice(&net_id.to_le_bytes());
    out.extend_from_slice(&indexes.to_le_bytes());
    out.extend_from_slice(&(state.len() as u32).to_le_bytes());
    out.extend_from_slice(state);
}
