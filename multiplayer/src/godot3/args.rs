//! Godot 3's argument list typed straight from and into the packet bytes: the count byte,
//! then one plain `encode_variant` value per argument in Godot 3's layout
//! ([`wire::config`](super::wire::config)), as `MultiplayerAPI::_process_rpc` reads it
//! ([`wire::decode_args`](super::wire::decode_args)) and `_send_rpc` writes it.
//!
//! The shapes are those of Godot 4's [`args`](crate::args) (a tuple, tuple struct or struct:
//! one argument per field; `()`: none; any other type: the single argument; `Variant`: the
//! list as an Array), and so are the errors.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::ProtocolError;
use crate::args::de::{Dialect, List, read};
use crate::args::ser::{CallSer, Encoder};

/// Reads the `count` arguments in `bytes` (where `offset` is their start in the packet:
/// [`wire::Packet::RemoteCall`](super::wire::Packet::RemoteCall)'s `args` and
/// `args_offset`) straight into `T`; `method` is named in a mismatch.
///
/// ```
/// use godot_serde_multiplayer::godot3;
///
/// // ("Ann", 5) as Godot 3's `rpc` writes the arguments: String, then int (32 bits).
/// let bytes = [4, 0, 0, 0, 3, 0, 0, 0, b'A', b'n', b'n', 0, 2, 0, 0, 0, 5, 0, 0, 0];
/// let (name, hp): (String, i32) = godot3::args::decode("hello", 2, &bytes, 10)?;
/// assert_eq!((name.as_str(), hp), ("Ann", 5));
/// # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
/// ```
///
/// # Errors
///
/// [`ProtocolError::Argument`] for a malformed argument (index, offset in the packet),
/// [`ProtocolError::Truncated`] when the bytes end before `count` arguments,
/// [`ProtocolError::ArgumentType`] when they do not fit `T`.
pub fn decode<T: DeserializeOwned>(
    method: &str,
    count: u8,
    bytes: &[u8],
    offset: usize,
) -> Result<T, ProtocolError> {
    read(list(count, bytes, offset), method, false)
}

/// The `count` arguments in `bytes`, which start at `offset` in the packet.
fn list(count: u8, bytes: &[u8], offset: usize) -> List<'_> {
    List::new(Dialect::Godot3, usize::from(count), false, bytes, offset)
}

/// Appends the arguments of `args` to `out` (the values only, without the count byte) and
/// returns their count: the bytes that [`wire::write_remote_call`](super::wire::write_remote_call)
/// writes after the count for the `Variant`s of the same value.
///
/// ```
/// use godot_serde_multiplayer::godot3;
///
/// let mut out = Vec::new();
/// assert_eq!(godot3::args::encode_into(&("Ann", 5), &mut out)?, 2);
/// assert_eq!(out, [4, 0, 0, 0, 3, 0, 0, 0, b'A', b'n', b'n', 0, 2, 0, 0, 0, 5, 0, 0, 0]);
/// # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
/// ```
///
/// # Errors
///
/// [`ProtocolError::TooManyArguments`] above 255, [`ProtocolError::Encode`] for a value
/// Godot 3 cannot hold; `out` keeps what it held before.
pub fn encode_into<T: ?Sized + Serialize>(
    args: &T,
    out: &mut Vec<u8>,
) -> Result<u8, ProtocolError> {
    crate::args::write_list(Dialect::Godot3, out, args)
}

/// Reads a Godot 3 call as a value of the enum `T` whose variants are the methods (see
/// [`args::decode_method`](crate::args::decode_method)): `method` is the variant, the
/// `count` arguments in `bytes` its fields.
///
/// # Errors
///
/// As [`decode`]; a `method` that is no variant of `T` is an
/// [`ProtocolError::ArgumentType`] naming it.
pub fn decode_method<T: DeserializeOwned>(
    method: &str,
    count: u8,
    bytes: &[u8],
    offset: usize,
) -> Result<T, ProtocolError> {
    read(list(count, bytes, offset), method, true)
}

/// Writes an enum value as a Godot 3 call (see
/// [`args::encode_method`](crate::args::encode_method)): the method, the argument count, the
/// arguments' bytes.
///
/// # Errors
///
/// As [`encode_into`], and [`ProtocolError::Encode`] when the value is no enum variant.
pub fn encode_method<T: ?Sized + Serialize>(
    call: &T,
) -> Result<(&'static str, u8, Vec<u8>), ProtocolError> {
    let mut enc = Encoder::new(Dialect::Godot3, Vec::new());
    let method = call
        .serialize(CallSer { enc: &mut enc })
        .map_err(ProtocolError::from)?;
    let count = enc.checked_count()?;
    Ok((method, count, enc.into_inner()))
}
