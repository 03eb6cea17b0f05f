//! RPC arguments as `MultiplayerAPI::encode_and_compress_variant(s)` writes them
//! (`scene/main/multiplayer_api.cpp`, Godot 4.6).
//!
//! Each argument starts with a meta byte: the Variant type in its low 6 bits. A `bool` keeps its
//! value in bit 7 and has no payload; an `int` keeps its width in bits 6-7 (8, 16, 32, 64 bits)
//! and is followed by that many little-endian bytes. Every other type is `encode_variant`'s
//! output (`var_to_bytes`), whose first byte is the type already. A call with no arguments, or
//! with one `PackedByteArray`, sets the packet's "byte only or no args" flag: no count byte, and
//! the array's bytes follow bare.
//!
//! # Typed arguments
//!
//! [`decode`] reads a call's arguments from the packet bytes straight into a Rust type, and
//! [`encode`] writes one straight into the layout: no [`Variant`] in between. The type's shape
//! says how the arguments map onto it:
//!
//! - a tuple, tuple struct or struct: one argument per element or field, in order (a struct's
//!   field names play no part);
//! - `()` (or a unit struct): no argument;
//! - any other type (`String`, `i64`, [`godot_serde::Vector2`], an enum, a map, `Option<T>`
//!   for a call of one argument): the call's single argument; a 1-tuple `(x,)` passes one
//!   sequence as one argument;
//! - [`Variant`] (and any type that asks serde for "anything"): the arguments as one Array.
//!
//! Each argument is read and written by the root crate's [`godot_serde::Deserializer`] and
//! [`godot_serde::Serializer`], so a value's bytes, and what is accepted, are exactly those of
//! the `Variant` functions below ([`from_arguments`], [`to_arguments`] with
//! [`encode_variants`]); Godot 4's compressed ints and bools stand for the `int` and `bool`
//! Variants. A malformed argument is [`ProtocolError::Argument`] (index, offset in the packet),
//! a well-formed one that does not fit the type [`ProtocolError::ArgumentType`] (its index and
//! byte offset in the message); no length from the packet sizes an allocation (an argument
//! list is at most 255 entries, and each value's counts are checked against the bytes left
//! by the root decoder).

use godot_serde::{Config, PackedByteArray, Variant, VariantType};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::ProtocolError;

pub(crate) mod de;
pub(crate) mod ser;

use de::{Dialect, List};

const TYPE_MASK: u8 = 0x3F;
const MODE_SHIFT: u8 = 6;
const BOOL_TRUE: u8 = 0x80;
/// The buffer [`encode`] starts with (bytes).
const ENCODE_CAPACITY: usize = 128;
/// `Variant::VARIANT_MAX` in Godot 4.6: type ids are below it.
const VARIANT_MAX: u8 = 39;

/// The arguments of a received REMOTE_CALL, still encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args<'a> {
    shape: Shape,
    bytes: &'a [u8],
    /// Where `bytes` start in the packet, for error offsets.
    offset: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    None,
    Raw,
    List(u8),
}

impl<'a> Args<'a> {
    #[inline]
    pub(crate) fn raw_or_none(bytes: &'a [u8], offset: usize) -> Self {
        let shape = if bytes.is_empty() {
            Shape::None
        } else {
            Shape::Raw
        };
        Self {
            shape,
            bytes,
            offset,
        }
    }

    #[inline]
    pub(crate) fn list(count: u8, bytes: &'a [u8], offset: usize) -> Self {
        Self {
            shape: Shape::List(count),
            bytes,
            offset,
        }
    }

    /// The announced count (`None`: one bare `PackedByteArray`, or nothing), the argument
    /// bytes, and where they start in the packet.
    pub(crate) fn parts(&self) -> (Option<u8>, &'a [u8], usize) {
        let count = match self.shape {
            Shape::List(n) => Some(n),
            Shape::None | Shape::Raw => None,
        };
        (count, self.bytes, self.offset)
    }

    /// The arguments as the serde list that [`decode`] reads.
    #[inline]
    pub(crate) fn serde_list(&self) -> List<'a> {
        let (count, raw) = match self.shape {
            Shape::None => (0, false),
            Shape::Raw => (1, true),
            Shape::List(n) => (usize::from(n), false),
        };
        List::new(Dialect::Godot4, count, raw, self.bytes, self.offset)
    }

    /// The number of arguments the packet announces.
    pub fn len(&self) -> usize {
        match self.shape {
            Shape::None => 0,
            Shape::Raw => 1,
            Shape::List(n) => usize::from(n),
        }
    }

    /// Whether the call has no arguments.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Decodes the arguments as `MultiplayerAPI::decode_and_decompress_variants` does (objects
    /// refused, as with SceneMultiplayer's default `allow_object_decoding = false`).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Argument`] for an argument that is truncated or malformed, with its
    /// index and byte offset; [`ProtocolError::Truncated`] when the packet ends before the
    /// announced count.
    pub fn decode(&self) -> Result<Vec<Variant>, ProtocolError> {
        match self.shape {
            Shape::None => Ok(Vec::new()),
            Shape::Raw => Ok(vec![Variant::PackedByteArray(PackedByteArray(
                self.bytes.to_vec(),
            ))]),
            Shape::List(count) => {
                let count = usize::from(count);
                // Every argument takes at least one byte: never reserve more than the bytes left.
                let mut out = Vec::with_capacity(count.min(self.bytes.len()));
                let mut rest = self.bytes;
                for index in 0..count {
                    let offset = self.offset + (self.bytes.len() - rest.len());
                    if rest.is_empty() {
                        return Err(ProtocolError::truncated(
                            "REMOTE_CALL",
                            offset,
                            1,
                            self.offset + self.bytes.len(),
                        ));
                    }
                    let (value, used) = decode_one(rest).map_err(|e| ProtocolError::Argument {
                        index,
                        offset,
                        source: e.into(),
                    })?;
                    out.push(value);
                    rest = rest.get(used..).unwrap_or_default();
                }
                Ok(out)
            }
        }
    }
}

/// Decodes one compressed Variant from the start of `bytes`; returns it and the bytes used.
///
/// # Errors
///
/// A [`godot_serde::Error`] for a truncated or malformed value.
pub fn decode_one(bytes: &[u8]) -> Result<(Variant, usize), godot_serde::Error> {
    let Some(&meta) = bytes.first() else {
        return Err(<godot_serde::Error as serde::de::Error>::custom(
            "empty argument",
        ));
    };
    let ty = meta & TYPE_MASK;
    if ty >= VARIANT_MAX {
        return Err(<godot_serde::Error as serde::de::Error>::custom(
            format_args!("unknown type id {ty} in the meta byte"),
        ));
    }
    if ty == VariantType::Bool as u8 {
        return Ok((Variant::Bool(meta & BOOL_TRUE != 0), 1));
    }
    if ty == VariantType::Int as u8 {
        let width = 1usize << (meta >> MODE_SHIFT);
        let payload = bytes.get(1..1 + width).ok_or_else(|| {
            <godot_serde::Error as serde::de::Error>::custom(format_args!(
                "int needs {width} bytes after the meta byte, {} left",
                bytes.len() - 1
            ))
        })?;
        let value = match *payload {
            [a] => i64::from(a as i8),
            [a, b] => i64::from(i16::from_le_bytes([a, b])),
            [a, b, c, d] => i64::from(i32::from_le_bytes([a, b, c, d])),
            [a, b, c, d, e, f, g, h] => i64::from_le_bytes([a, b, c, d, e, f, g, h]),
            _ => 0,
        };
        return Ok((Variant::Int(value), 1 + width));
    }
    let (value, rest) = Config::godot4().take_from_bytes::<Variant>(bytes)?;
    Ok((value, bytes.len() - rest.len()))
}

/// Appends one compressed Variant.
///
/// # Errors
///
/// A [`godot_serde::Error`] when the value cannot be encoded for Godot 4.
pub fn encode_one(value: &Variant, out: &mut Vec<u8>) -> Result<(), godot_serde::Error> {
    match *value {
        Variant::Bool(b) => out.push(bool_meta(b)),
        Variant::Int(v) => put_int(out, v),
        _ => Config::godot4().to_bytes_into(value, out)?,
    }
    Ok(())
}

/// `encode_and_compress_variant`'s bool: the meta byte alone, the value in bit 7.
#[inline]
pub(crate) fn bool_meta(b: bool) -> u8 {
    VariantType::Bool as u8 | if b { BOOL_TRUE } else { 0 }
}

/// `encode_and_compress_variant`'s int: the meta byte with the smallest of 8, 16, 32, 64
/// bits that holds it, then the value in that many little-endian bytes.
#[inline]
pub(crate) fn put_int(out: &mut Vec<u8>, v: i64) {
    let ty = VariantType::Int as u8;
    if let Ok(v) = i8::try_from(v) {
        out.extend_from_slice(&[ty, v as u8]);
    } else if let Ok(v) = i16::try_from(v) {
        out.push(ty | 1 << MODE_SHIFT);
        out.extend_from_slice(&v.to_le_bytes());
    } else if let Ok(v) = i32::try_from(v) {
        out.push(ty | 2 << MODE_SHIFT);
        out.extend_from_slice(&v.to_le_bytes());
    } else {
        out.push(ty | 3 << MODE_SHIFT);
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// Encoded arguments, ready for a REMOTE_CALL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Encoded {
    /// The argument bytes.
    pub bytes: Vec<u8>,
    /// The argument count (the packet's count byte unless `byte_only_or_none`).
    pub count: u8,
    /// No arguments, or one `PackedByteArray` written bare.
    pub byte_only_or_none: bool,
}

/// Encodes a list of arguments as `encode_and_compress_variants` does for an RPC.
///
/// # Errors
///
/// [`ProtocolError::TooManyArguments`] above 255, [`ProtocolError::Encode`] for a value Godot 4
/// cannot hold.
pub fn encode_variants(values: &[Variant]) -> Result<Encoded, ProtocolError> {
    let count =
        u8::try_from(values.len()).map_err(|_| ProtocolError::TooManyArguments(values.len()))?;
    match values {
        [Variant::PackedByteArray(bytes)] => Ok(Encoded {
            bytes: bytes.0.clone(),
            count: 1,
            byte_only_or_none: true,
        }),
        _ => {
            let mut bytes = Vec::new();
            for value in values {
                encode_one(value, &mut bytes).map_err(|e| ProtocolError::EncodeValue(e.into()))?;
            }
            Ok(shaped(bytes, count))
        }
    }
}

/// Turns typed arguments into the argument list: a tuple (or any sequence) gives one argument
/// per element, a struct one per field in declaration order, `()` none; any other value is the
/// single argument. Use a 1-tuple `(x,)` to pass one sequence as one argument.
///
/// # Errors
///
/// [`ProtocolError::Encode`] when a value has no Godot 4 form.
pub fn to_arguments<T: ?Sized + Serialize>(args: &T) -> Result<Vec<Variant>, ProtocolError> {
    arguments_in(&Config::godot4(), args)
}

/// One value in `config`'s Variant layout (Godot 4's or Godot 3's).
pub(crate) fn value_in<T: ?Sized + Serialize>(
    config: &Config,
    value: &T,
) -> Result<Variant, ProtocolError> {
    config
        .to_variant(value)
        .map_err(|e| ProtocolError::EncodeValue(e.into()))
}

/// [`to_arguments`] in `config`'s Variant layout: the one rule for both dialects.
pub(crate) fn arguments_in<T: ?Sized + Serialize>(
    config: &Config,
    args: &T,
) -> Result<Vec<Variant>, ProtocolError> {
    Ok(match value_in(config, args)? {
        Variant::Nil => Vec::new(),
        Variant::Array(array) => array.into_vec(),
        Variant::Dictionary(dict) => dict.values().cloned().collect(),
        other => vec![other],
    })
}

/// A received value (or argument list) of `method` as `T`, through `config`'s layout.
pub(crate) fn typed_in<T: DeserializeOwned>(
    config: &Config,
    method: &str,
    value: &Variant,
) -> Result<T, ProtocolError> {
    config
        .from_variant::<T>(value)
        .map_err(|e| ProtocolError::ArgumentType {
            method: method.to_owned(),
            source: e.into(),
        })
}

/// Converts received arguments into a typed tuple or struct (fields in order).
///
/// # Errors
///
/// [`ProtocolError::ArgumentType`] when they do not fit `T`.
pub fn from_arguments<T: DeserializeOwned>(
    method: &str,
    args: &[Variant],
) -> Result<T, ProtocolError> {
    typed_in(&Config::godot4(), method, &Variant::from(args.to_vec()))
}

/// Reads a call's arguments from the packet bytes straight into `T` (see the module doc for
/// how `T`'s shape maps onto the arguments). Bytes after the last argument are ignored, as
/// the engine ignores them.
///
/// ```
/// use godot_serde_multiplayer::{args, wire};
///
/// // A REMOTE_CALL of method 0 on cached node 1 with ("Ann", 5, true), as Godot 4 writes it.
/// let mut packet = vec![0x00, 1, 0, 3];
/// packet.extend_from_slice(&[4, 0, 0, 0, 3, 0, 0, 0, b'A', b'n', b'n', 0]); // String
/// packet.extend_from_slice(&[2, 5]); // int, 8 bits
/// packet.push(0x81); // bool, true
/// let wire::Packet::RemoteCall { args, .. } = wire::parse(&packet)? else { unreachable!() };
/// let (name, hp, alive): (String, u8, bool) = args::decode(&args)?;
/// assert_eq!((name.as_str(), hp, alive), ("Ann", 5, true));
/// # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
/// ```
///
/// # Errors
///
/// [`ProtocolError::Argument`] for a malformed argument (its index and offset in the packet),
/// [`ProtocolError::Truncated`] when the packet ends before the announced count,
/// [`ProtocolError::ArgumentType`] when the arguments do not fit `T` (their count, or a
/// value's type); the method is named empty there: [`decode_call`] names it.
pub fn decode<T: DeserializeOwned>(args: &Args<'_>) -> Result<T, ProtocolError> {
    decode_call("", args)
}

/// [`decode`], naming `method` in an [`ProtocolError::ArgumentType`].
///
/// # Errors
///
/// As [`decode`].
pub fn decode_call<T: DeserializeOwned>(method: &str, args: &Args<'_>) -> Result<T, ProtocolError> {
    de::read(args.serde_list(), method, false)
}

/// Reads a call as a value of the enum `T` whose variants are the methods: `method` is the
/// variant's name, the arguments are its fields (none for a unit variant; the one argument
/// of a newtype variant, whatever its shape; in order for a tuple or struct variant), read
/// straight from the packet bytes. This is how an
/// [`RpcSet`](crate::typed::RpcSet) decodes a call.
///
/// ```
/// use godot_serde_multiplayer::{args, wire};
///
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// enum Lobby {
///     Hello { name: String },
///     Ready,
/// }
/// // REMOTE_CALL on cached node 1, method 0, one argument: the String "Ann".
/// let packet = [0x00, 1, 0, 1, 4, 0, 0, 0, 3, 0, 0, 0, b'A', b'n', b'n', 0];
/// let wire::Packet::RemoteCall { args, .. } = wire::parse(&packet)? else { unreachable!() };
/// let call: Lobby = args::decode_method("Hello", &args)?;
/// assert_eq!(call, Lobby::Hello { name: "Ann".into() });
/// # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
/// ```
///
/// # Errors
///
/// As [`decode`]; a `method` that is no variant of `T` is an
/// [`ProtocolError::ArgumentType`] naming it (an `RpcSet` checks the
/// name against its table first).
pub fn decode_method<T: DeserializeOwned>(
    method: &str,
    args: &Args<'_>,
) -> Result<T, ProtocolError> {
    de::read(args.serde_list(), method, true)
}

/// Writes `args` straight into the argument layout of a REMOTE_CALL, as
/// `encode_and_compress_variants` does (the shapes of [`to_arguments`]; see the module doc):
/// the bytes [`encode_variants`]`(&`[`to_arguments`]`(args)?)` gives, without the `Variant`s.
///
/// ```
/// use godot_serde_multiplayer::args;
///
/// let encoded = args::encode(&("Ann", 5, true))?;
/// assert_eq!(encoded.count, 3);
/// assert!(!encoded.byte_only_or_none);
/// // String (encode_variant), int in 8 bits (meta 0x02), bool true (meta 0x01 | 0x80).
/// assert_eq!(
///     encoded.bytes,
///     [4, 0, 0, 0, 3, 0, 0, 0, b'A', b'n', b'n', 0, 2, 5, 0x81]
/// );
/// # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
/// ```
///
/// # Errors
///
/// [`ProtocolError::TooManyArguments`] above 255, [`ProtocolError::Encode`] for a value Godot 4
/// cannot hold.
pub fn encode<T: ?Sized + Serialize>(args: &T) -> Result<Encoded, ProtocolError> {
    // Most calls' arguments fit: one allocation instead of growing from 8 bytes.
    let mut bytes = Vec::with_capacity(ENCODE_CAPACITY);
    let count = write_list(Dialect::Godot4, &mut bytes, args)?;
    Ok(shaped(bytes, count))
}

/// Appends the argument list of `args` in `dialect`'s layout to `out` and returns its count:
/// written straight by the encoder, or for the shapes it leaves to the `Variant` path (see
/// [`ser`]) from that path's `Variant`s. On an error `out` keeps what it held before.
pub(crate) fn write_list<T: ?Sized + Serialize>(
    dialect: Dialect,
    out: &mut Vec<u8>,
    args: &T,
) -> Result<u8, ProtocolError> {
    let start = out.len();
    let mut enc = ser::Encoder::new(dialect, core::mem::take(out));
    let result = enc.list(args);
    let count = enc.count;
    *out = enc.into_inner();
    // Written, and at most 255: only the count goes back. (Merged with the other outcomes,
    // the whole `Result` was assembled on the stack and copied out, its wide loads waiting
    // on the narrow stores: a twentieth of a five-argument send.)
    if result.is_ok()
        && let Ok(n) = u8::try_from(count)
    {
        return Ok(n);
    }
    list_not_written(dialect, out, args, start, result, count)
}

/// [`write_list`] when the encoder left the list to the `Variant` path, failed, or wrote
/// more than 255 arguments.
#[cold]
#[inline(never)]
fn list_not_written<T: ?Sized + Serialize>(
    dialect: Dialect,
    out: &mut Vec<u8>,
    args: &T,
    start: usize,
    result: Result<(), ser::EncError>,
    count: usize,
) -> Result<u8, ProtocolError> {
    let written = match result {
        Ok(()) => Ok(count),
        Err(e) if e.is_fallback() => {
            out.truncate(start);
            write_variants(dialect, out, args)
        }
        Err(e) => Err(e.into()),
    };
    let checked =
        written.and_then(|n| u8::try_from(n).map_err(|_| ProtocolError::TooManyArguments(n)));
    if checked.is_err() {
        out.truncate(start);
    }
    checked
}

/// The `Variant` path's argument list of `args` ([`arguments_in`]), appended in `dialect`'s
/// layout; returns the count.
#[cold]
fn write_variants<T: ?Sized + Serialize>(
    dialect: Dialect,
    out: &mut Vec<u8>,
    args: &T,
) -> Result<usize, ProtocolError> {
    let config = dialect.config();
    let list = arguments_in(&config, args)?;
    for arg in &list {
        match dialect {
            Dialect::Godot4 => encode_one(arg, out),
            Dialect::Godot3 => config.to_bytes_into(arg, out),
        }
        .map_err(|e| ProtocolError::EncodeValue(e.into()))?;
    }
    Ok(list.len())
}

/// `count` arguments written in `bytes`, with the "byte only or no args" shape where it
/// applies: none, or one PackedByteArray, which goes bare (no count, no Variant header, no
/// padding).
fn shaped(mut bytes: Vec<u8>, count: u8) -> Encoded {
    let bare = match count {
        0 => true,
        1 => bare_array(&mut bytes, 0, 0),
        _ => false,
    };
    Encoded {
        bytes,
        count,
        byte_only_or_none: bare,
    }
}

/// Encodes a value of an enum whose variants are the methods as a call: returns the
/// variant's name (the method) and its fields as the arguments, written straight into the
/// layout (a unit variant: none; a newtype variant: its value as the one argument, whatever
/// its shape; a tuple or struct variant: one argument per field, in order). This is how an
/// [`RpcSet`](crate::typed::RpcSet) encodes a call.
///
/// ```
/// use godot_serde_multiplayer::args;
///
/// #[derive(serde::Serialize)]
/// enum Lobby {
///     Hello { name: String, team: u8 },
/// }
/// let (method, encoded) = args::encode_method(&Lobby::Hello { name: "Ann".into(), team: 2 })?;
/// assert_eq!(method, "Hello");
/// assert_eq!(encoded, args::encode(&("Ann", 2))?);
/// # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
/// ```
///
/// # Errors
///
/// As [`encode`], and [`ProtocolError::Encode`] when the value is no enum variant.
pub fn encode_method<T: ?Sized + Serialize>(
    call: &T,
) -> Result<(&'static str, Encoded), ProtocolError> {
    let mut enc = ser::Encoder::new(Dialect::Godot4, Vec::with_capacity(ENCODE_CAPACITY));
    let method = call
        .serialize(ser::CallSer { enc: &mut enc })
        .map_err(ProtocolError::from)?;
    let count = enc.checked_count()?;
    Ok((method, shaped(enc.into_inner(), count)))
}

/// Appends a whole REMOTE_CALL of `method` on node `node_id` with `args` written straight
/// into `out`, one buffer and no copy: the bytes [`wire::write_remote_call`](crate::wire::write_remote_call)
/// writes for [`encode`]`(args)`. With `path` (the receiver has not confirmed the id yet) the
/// arguments are encoded apart first, since the path follows them.
///
/// ```
/// use godot_serde_multiplayer::{args, wire};
///
/// let mut packet = Vec::new();
/// args::write_call(&mut packet, 1, None, 0, &("Ann", 5))?;
/// let mut want = Vec::new();
/// wire::write_remote_call(&mut want, 1, None, 0, &args::encode(&("Ann", 5))?);
/// assert_eq!(packet, want);
/// # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
/// ```
///
/// # Errors
///
/// As [`encode`]; `out` then keeps what it held before.
pub fn write_call<T: ?Sized + Serialize>(
    out: &mut Vec<u8>,
    node_id: u32,
    path: Option<&str>,
    method: u16,
    args: &T,
) -> Result<(), ProtocolError> {
    if path.is_some() {
        let encoded = encode(args)?;
        crate::wire::write_remote_call(out, node_id, path, method, &encoded);
        return Ok(());
    }
    let start = out.len();
    // The header and a count byte of 0; the arguments follow, then the count is set.
    crate::wire::put_call_header(out, node_id, false, method, Some(0));
    let count_at = out.len() - 1;
    let count = match write_list(Dialect::Godot4, out, args) {
        Ok(count) => count,
        Err(e) => {
            out.truncate(start);
            return Err(e);
        }
    };
    let bare = match count {
        0 => {
            out.truncate(count_at);
            true
        }
        // The array's bytes replace the count byte and the Variant.
        1 => bare_array(out, count_at, count_at + 1),
        _ => false,
    };
    if bare {
        if let Some(meta) = out.get_mut(start) {
            *meta |= crate::wire::BYTE_ONLY_OR_NO_ARGS;
        }
    } else if let Some(slot) = out.get_mut(count_at) {
        *slot = count;
    }
    Ok(())
}

/// When the bytes from `at` on are one PackedByteArray as `encode_variant` writes it, keeps
/// only the array's bytes, from `from` (the bytes between, the Variant header and the
/// padding go), and says so.
#[inline]
fn bare_array(bytes: &mut Vec<u8>, from: usize, at: usize) -> bool {
    // Shorter than an array's header (a compressed bool, or int up to 32 bits: the usual one
    // argument): no need to read back the bytes just written, whose loads wait on the stores.
    if bytes.len() < at + 8 {
        return false;
    }
    let Some(arg) = bytes.get(at..) else {
        return false;
    };
    // Then the type byte alone: a 4-byte load of it would wait for the stores.
    if arg.first() != Some(&(VariantType::PackedByteArray as u8)) {
        return false;
    }
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(arg.get(at..at + 4)?.try_into().ok()?))
    };
    let len = match (word(0), word(4)) {
        (Some(header), Some(len)) if header == VariantType::PackedByteArray as u32 => len as usize,
        _ => return false,
    };
    if arg.len() < 8 + len {
        return false;
    }
    bytes.truncate(at + 8 + len);
    bytes.drain(from..at + 8);
    true
}

#[cfg(test)]
mod tests {
    use core::fmt;

    use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
    use serde::ser::{SerializeTupleStruct, Serializer};

    use super::*;

    /// A name that starts like the root crate's marker names and is none of them.
    const NAME: &str = "$godot_serde::NotAType";

    /// A tuple struct under [`NAME`]: to the root crate a plain struct (an Array of its
    /// fields), so two arguments, as for the `Variant` path.
    #[derive(Debug, PartialEq)]
    struct NotAMarker(i64, i64);

    impl Serialize for NotAMarker {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut t = s.serialize_tuple_struct(NAME, 2)?;
            t.serialize_field(&self.0)?;
            t.serialize_field(&self.1)?;
            t.end()
        }
    }

    impl<'de> Deserialize<'de> for NotAMarker {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Two;
            impl<'de> Visitor<'de> for Two {
                type Value = NotAMarker;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("two ints")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NotAMarker, A::Error> {
                    let mut next = || -> Result<i64, A::Error> {
                        seq.next_element()?
                            .ok_or_else(|| de::Error::custom("two ints"))
                    };
                    Ok(NotAMarker(next()?, next()?))
                }
            }
            d.deserialize_tuple_struct(NAME, 2, Two)
        }
    }

    #[test]
    fn a_name_that_is_no_marker_is_a_list_of_arguments() {
        // Two ints as `encode_and_compress_variant` writes them: meta 0x02 (int, 8 bits),
        // then the byte.
        let encoded = encode(&NotAMarker(1, 2)).unwrap();
        assert_eq!(encoded.count, 2);
        assert!(!encoded.byte_only_or_none);
        assert_eq!(encoded.bytes, [2, 1, 2, 2]);
        let variants = to_arguments(&NotAMarker(1, 2)).unwrap();
        assert_eq!(encoded, encode_variants(&variants).unwrap());

        let args = Args::list(2, &encoded.bytes, 4);
        assert_eq!(decode::<NotAMarker>(&args).unwrap(), NotAMarker(1, 2));
        assert_eq!(
            from_arguments::<NotAMarker>("m", &variants).unwrap(),
            NotAMarker(1, 2)
        );
    }
}
