//! Godot 4's full-fidelity JSON: what `JSON.stringify(JSON.from_native(v, full_objects))`
//! writes and `JSON.to_native(JSON.parse_string(text), allow_objects)` reads (Godot 4.4+,
//! `core/io/json.cpp`), as a serde format. Plain JSON on the wire, no Godot type lost: a Rust
//! web back-end can talk to a Godot client over `HTTPRequest` or a WebSocket in the form the
//! client's `JSON.to_native` understands.
//!
//! ```
//! use godot_serde::{json, Vector2};
//!
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Player { name: String, hp: u32, pos: Vector2 }
//!
//! let p = Player { name: "Ada".into(), hp: 3, pos: Vector2 { x: 1.0, y: 2.5 } };
//! let text = json::to_string(&p)?;
//! assert_eq!(
//!     text,
//!     r#"{"args":["s:name","s:Ada","s:hp","i:3","s:pos",{"args":[1.0,2.5],"type":"Vector2"}],"type":"Dictionary"}"#
//! );
//! assert_eq!(json::from_str::<Player>(&text)?, p);
//! # Ok::<(), godot_serde::Error>(())
//! ```
//!
//! The data model is the binary format's (a struct is a Dictionary, `Vector2` is a Vector2,
//! see the crate documentation's type table): a value becomes a [`Variant`] through
//! [`Config::to_variant`] and is written from there, and reading goes back through
//! [`Config::from_variant`].
//!
//! # The form
//!
//! | Variant | JSON |
//! |---|---|
//! | null, bool | `null`, `true` / `false` |
//! | int, float | `"i:42"`, `"f:0.5"` (`String(float)`: 14 decimals at most, `inf`, `nan`) |
//! | String, StringName, NodePath | `"s:text"`, `"sn:name"`, `"np:path/to:prop"` |
//! | math types, packed arrays | `{"args":[1.0,2.0],"type":"Vector2"}`: the components (a Basis by columns), floats as `JSON.stringify` prints them (15 significant digits) |
//! | RID, Callable, Signal | `{"type":"RID"}`: no data; they read back empty |
//! | Array | `[...]`; typed: `{"args":[...],"elem_type":"int","type":"Array"}` |
//! | Dictionary | `{"args":[key, value, ...],"type":"Dictionary"}`, with `key_type` / `value_type` when typed |
//! | Object (full objects only) | `{"props":["name", value, ...],"type":"Node"}` |
//! | Object sent by id (full objects only) | `{"props":["object_id","i:42","script",null],"type":"EncodedObjectAsID"}`; id 0: `null` |
//!
//! Keys are in `JSON.stringify`'s default order (sorted); [`to_string`] is compact,
//! [`to_string_pretty`] is `JSON.stringify(v, "\t")`.
//!
//! # Options
//!
//! [`Config::with_allow_objects`] is `from_native`'s `full_objects` and `to_native`'s
//! `allow_objects` (off by default, as in the engine); [`Config::with_max_depth`] bounds the
//! nesting of containers and objects on both sides (the JSON text may nest twice as deep plus
//! two, since a typed container or a Dictionary is an object holding an array). The Godot
//! version of the config does not change the form, which exists only in Godot 4.
//!
//! # Where this differs from the engine, on purpose
//!
//! Writing is byte-identical to the engine. The exceptions are values the engine could not
//! hold or write: a string with a NUL character, a Variant nested deeper than
//! [`Config::max_depth`] (the engine writes up to 1 024 levels). These are errors.
//!
//! An object sent as an instance id ([`Variant::ObjectId`]) is, in the engine that decodes
//! it (`bytes_to_var`, objects allowed or not), an `EncodedObjectAsID` holding the id, and
//! with full objects it is written as the engine writes that object: `{"props":["object_id",
//! "i:<id>","script",null],"type":"EncodedObjectAsID"}`, the id as Godot's `int` (signed 64
//! bits: an id of 2^63 or more is negative); id 0 is a null object, `null`. The rule holds
//! inside untyped and typed containers, with two refusals where the engine never holds the
//! value: without full objects ([`ErrorKind::ObjectsNotAllowed`]: the engine logs an error and
//! writes `null`), and as an Array element or Dictionary key of a container typed by a class
//! other than `Object`, `RefCounted` or `EncodedObjectAsID`, or by a script
//! ([`ErrorKind::Unsupported`]: the engine's decoder drops such an element; a Dictionary
//! value is kept and written, as in the engine). Read back with objects allowed, the text is
//! what `JSON.to_native` makes of it: an [`Object`](crate::Object) of class
//! `EncodedObjectAsID` with the properties `object_id` (an int) and `script` (null), which
//! encodes as the engine's `var_to_bytes_with_objects` of it (not as the id again: the engine
//! makes a new object).
//!
//! Reading returns the value the engine's `to_native` returns, or an error where the engine
//! logs one (it then puts `null` in the value and goes on). Where the engine silently coerces
//! or guesses, this refuses instead, so nothing is read as a value the text does not say:
//!
//! - `"i:"` must be followed by decimal digits (an optional `-`) that fit 64 bits; the engine
//!   reads `"i:1.5"` as 1, `"i:x"` as 0, and clamps or wraps what does not fit.
//! - `"f:"` must be followed by a decimal number, read as the engine reads it
//!   (`built_in_strtod`, not always correctly rounded); `"f:inf"`, `"f:-inf"` and `"f:nan"`,
//!   which the engine itself writes, read as infinity and NaN here (the engine reads 0).
//! - `args` entries must be numbers (the engine turns strings, bools, null and containers into
//!   numbers); integer components (`Vector2i`, `PackedInt32Array`, ...) must be integral and in
//!   range (the engine truncates and wraps); a PackedByteArray's must be 0 to 255;
//!   `PackedStringArray` entries must be strings; `args`, `props` and the type names must have
//!   the right JSON type.
//! - An element of the wrong type in a typed Array or Dictionary is an error (the engine
//!   logs one and leaves a default value or skips it).
//! - With objects allowed, any class name is accepted (the engine refuses classes it does not
//!   have) and the object is data, never instantiated; a `script` property keeps its path.
//!   A container typed by a class or a `res://` script path needs objects allowed, as in the
//!   engine.
//! - Nesting beyond [`Config::max_depth`] is refused (the engine stops at 1 024).
//! - Text that is not UTF-8 ([`from_slice`]) is refused; the engine replaces bad bytes.
//!
//! The parser reads what the engine's `JSON.parse_string` reads, including what RFC 8259 does
//! not allow (a trailing comma, raw control characters in strings, `01`); a NUL ends the text,
//! as in the engine. `\v`, which `JSON.stringify` writes for U+000B, is not an escape the
//! engine's parser (or this one) reads back; `\u0000` is refused.
//!
//! Numbers in JSON are doubles, in the engine and here: a PackedInt64Array element beyond
//! 2^53 reads back rounded, as in the engine.
//!
//! # Limits
//!
//! Hostile text is held to the same limits as the text form: nesting to
//! [`Config::max_depth`], linear time, and a heap proportional to the input (measured in
//! `tests/limits/json_native_limits.rs`: 64 KiB + 2 `Variant`s per input byte, as the text form; see `docs/security.md`).

mod from_native;
mod parse;
mod to_native;
mod tree;
mod value;
mod write;

use serde::Serialize;
use serde::de::DeserializeOwned;

pub use value::{
    from_value, from_value_with, to_value, to_value_with, value_to_variant, variant_to_value,
};

use crate::error::{Error, ErrorKind, Result};
use crate::wire::depth::Depth;
use crate::{Config, Variant};

/// `JSON.stringify(JSON.from_native(v, full_objects), indent)`, `full_objects` being
/// [`Config::allow_objects`].
///
/// # Errors
///
/// [`ErrorKind::ObjectsNotAllowed`] for an object, a container typed by a class or a
/// script, or an object sent by id, unless objects are allowed (the engine logs an error and
/// writes `null`); [`ErrorKind::Unsupported`] for a string holding NUL, or an object id in an
/// Array or as a Dictionary key typed by a class an `EncodedObjectAsID` is not (module
/// documentation); [`ErrorKind::DepthLimitExceeded`] beyond [`Config::max_depth`].
pub fn variant_to_string_indented(v: &Variant, config: Config, indent: &str) -> Result<String> {
    let tree = from_native::from_native(v, config.allow_objects(), config.max_depth())?;
    write::stringify(&tree, indent)
}

/// `JSON.stringify(JSON.from_native(v, full_objects))`: compact, keys sorted.
///
/// ```
/// use godot_serde::{json, Config, Variant};
///
/// let v = Variant::from(vec![Variant::from(1), Variant::from(0.5), Variant::from("a")]);
/// assert_eq!(json::variant_to_string(&v, Config::default())?, r#"["i:1","f:0.5","s:a"]"#);
/// # Ok::<(), godot_serde::Error>(())
/// ```
///
/// # Errors
///
/// As [`variant_to_string_indented`].
pub fn variant_to_string(v: &Variant, config: Config) -> Result<String> {
    variant_to_string_indented(v, config, "")
}

/// `JSON.stringify(JSON.from_native(v, full_objects), "\t")`.
///
/// # Errors
///
/// As [`variant_to_string_indented`].
pub fn variant_to_string_pretty(v: &Variant, config: Config) -> Result<String> {
    variant_to_string_indented(v, config, "\t")
}

/// Serializes `value` to the compact JSON form, with the default [`Config`] (objects off).
///
/// # Errors
///
/// As [`Config::to_variant`] and [`variant_to_string`].
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> Result<String> {
    to_string_with(value, Config::default())
}

/// [`to_string`] with `config`.
///
/// # Errors
///
/// As [`to_string`].
pub fn to_string_with<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<String> {
    variant_to_string(&config.to_variant(value)?, config)
}

/// Serializes `value` to the JSON form indented with tabs, as `JSON.stringify(v, "\t")`.
///
/// # Errors
///
/// As [`to_string`].
pub fn to_string_pretty<T: ?Sized + Serialize>(value: &T) -> Result<String> {
    to_string_pretty_with(value, Config::default())
}

/// [`to_string_pretty`] with `config`.
///
/// # Errors
///
/// As [`to_string`].
pub fn to_string_pretty_with<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<String> {
    variant_to_string_pretty(&config.to_variant(value)?, config)
}

/// `JSON.to_native(JSON.parse_string(text), allow_objects)`, `allow_objects` being
/// [`Config::allow_objects`]. Only white space may follow the value.
///
/// ```
/// use godot_serde::{json, Config, Variant, Vector2i};
///
/// let v = json::parse_variant(r#"{"type": "Vector2i", "args": [3, 4]}"#, Config::default())?;
/// assert_eq!(v, Variant::Vector2i(Vector2i { x: 3, y: 4 }));
/// # Ok::<(), godot_serde::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::TextSyntax`] (line, column and byte offset) where the engine's parser or
/// `to_native` fails, and where this reader is stricter (see the module documentation);
/// [`ErrorKind::ObjectsNotAllowed`] for an object unless objects are allowed.
pub fn parse_variant(text: &str, config: Config) -> Result<Variant> {
    let tree = parse::parse(text, Depth::json_text(config.max_depth()))?;
    to_native::ToNative {
        src: Some(text),
        allow_objects: config.allow_objects(),
    }
    .value(tree, Depth::new(config.max_depth()))
}

/// Reads the first value of `text` (a stream of values one after another, such as JSON
/// Lines) and returns it with the rest of the text.
///
/// ```
/// use godot_serde::{json, Config, Variant};
///
/// let (v, rest) = json::take_from_str("\"i:1\"\n\"s:a\"\n", Config::default())?;
/// assert_eq!((v, rest), (Variant::from(1), "\n\"s:a\"\n"));
/// # Ok::<(), godot_serde::Error>(())
/// ```
///
/// # Errors
///
/// As [`parse_variant`], except for text after the value.
pub fn take_from_str(text: &str, config: Config) -> Result<(Variant, &str)> {
    let (tree, end) = parse::parse_prefix(text, Depth::json_text(config.max_depth()))?;
    let v = to_native::ToNative {
        src: Some(text),
        allow_objects: config.allow_objects(),
    }
    .value(tree, Depth::new(config.max_depth()))?;
    Ok((v, text.get(end..).unwrap_or_default()))
}

/// Reads a `T` from the JSON form, with the default [`Config`] (objects off).
///
/// # Errors
///
/// As [`parse_variant`], and when the value does not fit `T`.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T> {
    from_str_with(text, Config::default())
}

/// [`from_str`] with `config`.
///
/// # Errors
///
/// As [`from_str`].
pub fn from_str_with<T: DeserializeOwned>(text: &str, config: Config) -> Result<T> {
    crate::text::from_parsed(parse_variant(text, config)?, config)
}

/// Reads a `T` from UTF-8 bytes of the JSON form (an HTTP body), with `config`.
///
/// # Errors
///
/// [`ErrorKind::InvalidUtf8`] at the first bad byte; otherwise as [`from_str`].
pub fn from_slice_with<T: DeserializeOwned>(bytes: &[u8], config: Config) -> Result<T> {
    let text = core::str::from_utf8(bytes).map_err(|e| {
        Error::at(
            ErrorKind::InvalidUtf8 { what: "JSON text" },
            e.valid_up_to(),
        )
    })?;
    from_str_with(text, config)
}

/// [`from_slice_with`] with the default [`Config`].
///
/// # Errors
///
/// As [`from_slice_with`].
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    from_slice_with(bytes, Config::default())
}
