//! The node-id field of a remote call (and of Godot 3's remote set), read and written once:
//! a path-cache id, or `0x80000000 | offset` with the NUL-terminated path at `offset`, after
//! the arguments.

use crate::ProtocolError;
use crate::wire::NodeRef;

/// The bit that says the node id is the offset of the path in the packet.
pub(crate) const PATH_IN_PACKET: u32 = 0x8000_0000;

/// Reads the node named by the raw node-id field `raw` of packet `p` whose header (and name)
/// end at `after`: the node, and where the arguments end (the path's offset, or the packet's
/// end). The path must lie inside the packet and after the header (the engine only checks the
/// end, and would read a header as a path).
///
/// Inlined for the cached id of nearly every packet: called, its result came back through
/// memory and the caller's wide load of it waited on the narrow stores (a third of a
/// one-int call's receive time).
#[inline(always)]
pub(crate) fn read(
    p: &[u8],
    raw: u32,
    after: usize,
) -> Result<(NodeRef<'_>, usize), ProtocolError> {
    if raw & PATH_IN_PACKET == 0 {
        return Ok((NodeRef::Cached(raw), p.len()));
    }
    read_path(p, raw, after)
}

/// [`read`] for a path in the packet.
fn read_path(p: &[u8], raw: u32, after: usize) -> Result<(NodeRef<'_>, usize), ProtocolError> {
    let at = (raw & !PATH_IN_PACKET) as usize;
    if at >= p.len() || at < after {
        return Err(ProtocolError::Invalid {
            what: "node path offset",
            offset: 1,
            detail: format!("{at} is outside {after}..{}", p.len()),
        });
    }
    Ok((NodeRef::Path(read_cstr(p, at, "node path")?), at))
}

/// A NUL-terminated or packet-ending UTF-8 string, as Godot's `String::parse_utf8(ptr, len)`
/// reads `encode_cstring` output (it stops at the NUL).
pub(crate) fn read_cstr<'a>(
    p: &'a [u8],
    at: usize,
    what: &'static str,
) -> Result<&'a str, ProtocolError> {
    let rest = p.get(at..).unwrap_or_default();
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    let bytes = rest.get(..end).unwrap_or_default();
    core::str::from_utf8(bytes).map_err(|e| ProtocolError::Invalid {
        what,
        offset: at + e.valid_up_to(),
        detail: "not UTF-8".into(),
    })
}

/// Appends `path` (NUL-terminated) to the packet that starts at `start` in `out`, and points
/// its 32-bit node-id field (at `start + 1`) at it.
pub(crate) fn append_path(out: &mut Vec<u8>, start: usize, path: &str) {
    let offset = out.len().saturating_sub(start) as u32;
    out.extend_from_slice(path.as_bytes());
    out.push(0);
    set(out, start, PATH_IN_PACKET | offset);
}

/// Writes the 32-bit node-id field of the packet that starts at `start`.
pub(crate) fn set(packet: &mut [u8], start: usize, id: u32) {
    if let Some(slot) = packet.get_mut(start + 1..start + 5) {
        slot.copy_from_slice(&id.to_le_bytes());
    }
}
