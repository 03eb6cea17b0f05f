//! Godot's text form of Variants as a serde format: what `var_to_str` / `str_to_var` (Godot 4)
//! and `var2str` / `str2var` (Godot 3) write and read, and what `.tscn`, `.tres`,
//! `project.godot` and every `ConfigFile` hold after `key=`.
//!
//! The engine is chosen by [`Config`], as for bytes: [`Config::godot3`] writes and reads
//! Godot 3 syntax (`Vector2( 1, 2 )`, `PoolIntArray`, floats with six significant digits),
//! every Godot 4 config writes Godot 4 syntax.
//!
//! ```
//! use godot_serde::{text, Variant, Vector2};
//!
//! let v = text::parse_variant("Vector2(1, 2.5)")?;
//! assert_eq!(v, Variant::Vector2(Vector2 { x: 1.0, y: 2.5 }));
//! assert_eq!(text::variant_to_string(&v), "Vector2(1, 2.5)");
//!
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Player { name: String, hp: u32 }
//! let s = text::to_string(&Player { name: "Ada".into(), hp: 3 })?;
//! assert_eq!(s, "{\n\"hp\": 3,\n\"name\": \"Ada\"\n}");
//! assert_eq!(text::from_str::<Player>(&s)?, Player { name: "Ada".into(), hp: 3 });
//! # Ok::<(), godot_serde::Error>(())
//! ```
//!
//! # Floats per engine version
//!
//! Godot 4.5 changed how text floats are written (godot PR #98750), so the version is chosen
//! as explicitly as the binary layout, never guessed:
//!
//! | [`GodotVersion`](crate::GodotVersion) | `FRAC_1_SQRT_2` as `f32` | `1.0 / 3.0` | `123456789.0` | `1e-5` |
//! |---|---|---|---|---|
//! | `V4_5` (4.5+, the default, [`Config::godot4`]) | `0.70710677` | `0.3333333333333333` | `123456789.0` | `1e-05` |
//! | `V4_0`, `V4_3`, `V4_4` (4.0 – 4.4) | `0.707107` | `0.333333` | `1.23457e+08` | `1e-05` |
//! | `V3` (3.x) | `0.707107` | `0.333333` | `1.23457e+08` | `1e-05` |
//!
//! - **4.0 – 4.4** (the source at those tags): `rtos_fix` in `core/variant/variant_parser.cpp`
//!   writes `0` for both zeros, `nan`, `inf`, `inf_neg`, and otherwise `rtoss`, i.e.
//!   `String::num_scientific` in
//!   `core/string/ustring.cpp`, which is `snprintf(buf, 256, "%lg", p_num)` of the value as a
//!   `double` (an `f32` component is widened exactly first): six significant digits,
//!   scientific below 10⁻⁴ and from 10⁶ up, trailing zeros dropped. A `float` gets `.0`
//!   when the text has no `.` or `e`, so `123456.5` is written `123456.0` (round half to
//!   even). Precision is lost: reading the text back gives a nearby value, not the same one.
//!   The digits are the C library's: written here as glibc's `printf` writes them (the
//!   engine's Linux builds: the exact binary value correctly rounded, exact ties to even),
//!   and checked against the live Godot 3.2.3 engine, whose `var2str` prints vector
//!   components with the same `snprintf("%lg")` (test `text_float_versions`). The engine's
//!   Windows and macOS builds use their own C library, which may round an exact tie
//!   (`1234565.0`) differently; that is not reproduced.
//! - **4.5+** (PR #98750 on): `rtos_fix(double, bool)` prints `String::num_scientific` of the value, or of
//!   the `f32` when the value is exactly one, and `num_scientific` is Grisu2's shortest
//!   round-trip digits (`thirdparty/grisu2`), plain for 10⁻⁴ ≤ |x| < 10¹⁵. No C library is
//!   involved. See [`Variant`]'s `Display` for the rules.
//!
//! The same writer serves ConfigFile ([`crate::config_file`]: `project.godot`, `.cfg`) and
//! the values of `.tscn` / `.tres` files, as in the engine. All of these write the engine's
//! compat form, but for one case: a resource file the Godot 4.3+ saver writes as `format=4`
//! (`resource::write_text`, feature `resource`), where every PackedByteArray is base64
//! (`PackedByteArray("AAcO")`) and, from 4.5, negative infinity is `-inf`, not `inf_neg`.
//! The parser reads both forms everywhere. `Display` always prints the 4.5+
//! form. The binary layouts of `V4_4` and `V4_5` are identical.
//!
//! # Writing
//!
//! One writer serves [`Variant`]'s `Display`, [`Variant::to_godot3_string`] and
//! [`to_string`]; it is byte-identical to the engines' `VariantWriter` (rules on
//! `impl Display for Variant` and on `to_godot3_string`). `Display` is the one-line form
//! by default (dictionaries as `{k: v, k: v}`) and exactly `var_to_str` with `{:#}`;
//! [`to_string_with`] is always the engine's exact text.
//!
//! # Reading
//!
//! The parser follows the engines' `VariantParser`: every constructor and its legacy
//! spellings (`Quat`, `Transform`, `Pool*Array`, `Matrix32`, ...), `&"string_name"`,
//! `NodePath("...")`, colour literals (`#ff8000`), typed `Array[int]([...])` and
//! `Dictionary[String, int]({...})`, numbers (`inf`, `inf_neg`, `nan`, exponents), every string
//! escape, `;` comments. Only the first value counts, as in the engine: [`take_from_str`]
//! returns the rest, [`from_str`] and [`parse_variant`] refuse anything but whitespace and
//! comments after it. Errors carry a 1-based line and column
//! ([`ErrorKind::TextSyntax`](crate::ErrorKind::TextSyntax)).
//!
//! # Where this differs from the engine, on purpose
//!
//! The engine's parser runs code (it instantiates classes and loads files); this one only
//! reads data:
//!
//! - `Object(Class, "prop": value, ...)` becomes an [`Object`](crate::Object), never
//!   instantiated, with exactly the listed properties; refused unless
//!   [`Config::with_allow_objects`] is on, as for bytes. The engine refuses classes it cannot
//!   instantiate and fills in every default property.
//! - `Resource("res://path")` (Godot 4 also `Resource("uid://…", "res://path")`),
//!   `ExtResource(id)` and `SubResource(id)` become an [`Object`](crate::Object) of class
//!   `Resource` / `ExtResource` / `SubResource` whose properties (`"path"`, and first
//!   `"uid"`; or `"id"`) hold the arguments, and print back as written. They are references,
//!   not objects, so they are read whatever the object setting. The engine loads the file and
//!   fails when it cannot.
//! - A typed container's class name (`Array[Node]`) is kept as written; the engine drops the
//!   type of a class it does not know.
//! - Nesting deeper than [`Config::max_depth`] is refused (the engine has no limit).
//! - Godot 3 only: the Godot 2 `InputEvent(...)` syntax is refused, and `\uD83D\uDE00` is one
//!   character (Godot 3.2 keeps two UTF-16 code units, which are not valid Unicode).
//!
//! As in the engine, `^"node/path"` is not a value (only `NodePath("...")` is), `0x10` reads as
//! `0` followed by ignored text, and `#` starts a colour, not a comment.
//!
//! Key identity in dictionaries is the engine's: in Godot 4 a String and a StringName of the
//! same text are one key; NaN equals NaN and `-0` equals `0`; `1` and `1.0` are two keys; a
//! Dictionary key compares entry by entry in order (the engine's hash follows the order).
//! Godot 3.2.3 differs in two corners that are not reproduced: it keeps two equal
//! Dictionaries apart as keys (it hashes a Dictionary by its address), and it orders Array
//! keys of one length by its own `Array <` (which can answer true both ways); here Array keys
//! are ordered element by element, as Godot 4 orders them.
//!
//! # Round trip
//!
//! Printing and parsing again gives the same value (`==`), within what the text form holds
//! in the engines (checked by the `roundtrip_text` fuzz target): the sign of zero is not kept
//! (both engines print `-0.0` as `0.0`; `==` and key identity treat the zeros as one); a
//! `float` that is exactly an `f32` prints its shortest `f32` text, and the engine's `strtod`
//! may miss the last bits of a 17-digit double; Godot 3 and Godot 4.0 – 4.4 print six digits. A NUL cannot be
//! read from text: Godot 4 reads `\u0000` as U+FFFD (as 4.6 does), Godot 3 mode refuses it
//! (Godot 3 keeps it but then cannot write it back). A String holding a NUL can only be built
//! by hand; the writer prints it as `\u0000`, and [`to_string`] refuses it, as the byte
//! encoder does.
//!
//! Printing sorts Dictionary keys as the engines do; the comparison is one three-way
//! comparison per element, so time is linear in the keys (the engine's `Array <` asks `<` both
//! ways at every level, which doubles per level of Arrays sharing a prefix).

mod base64;
mod display;
mod grisu;
pub(crate) mod lexer;
pub(crate) mod parser;
#[cfg(test)]
mod table_check;
pub(crate) mod writer;

use serde::{Serialize, de::DeserializeOwned};

use crate::{Config, Deserializer, Error, Result, Variant};

/// The text of `v` for `config`'s engine: `var_to_str` (Godot 4) or `var2str` (Godot 3).
#[must_use]
pub fn variant_to_string_with(v: &Variant, config: Config) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = writer::write_variant(&mut out, v, writer::Dialect::of(config.version));
    out
}

/// The Godot 4 `var_to_str` text of `v` (same as its `Display`).
#[must_use]
#[doc(alias = "var_to_str", alias = "var2str")]
pub fn variant_to_string(v: &Variant) -> String {
    variant_to_string_with(v, Config::default())
}

/// Writes `value` as Godot 4's `var_to_str` would write the Variant it becomes.
///
/// # Errors
///
/// As [`Config::to_variant`].
#[doc(alias = "var_to_str", alias = "var2str")]
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> Result<String> {
    to_string_with(value, Config::default())
}

/// Writes `value` in the text form of `config`'s engine (`var2str` for Godot 3).
///
/// # Errors
///
/// As [`Config::to_variant`].
pub fn to_string_with<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<String> {
    let v = config.to_variant(value)?;
    Ok(variant_to_string_with(&v, config))
}

/// Parses one Godot 4 text-form value (`str_to_var`). Only whitespace and `;` comments may
/// follow it.
///
/// # Errors
///
/// [`ErrorKind::TextSyntax`](crate::ErrorKind::TextSyntax) where the engine's parser fails,
/// or for text after the value; a full `Object(...)` unless objects are allowed.
#[doc(alias = "str_to_var", alias = "str2var")]
pub fn parse_variant(text: &str) -> Result<Variant> {
    parse_variant_with(text, Config::default())
}

/// Parses one text-form value in `config`'s syntax (`str2var` for Godot 3). Only whitespace
/// and `;` comments may follow it.
///
/// # Errors
///
/// As [`parse_variant`]; nesting deeper than [`Config::max_depth`].
pub fn parse_variant_with(text: &str, config: Config) -> Result<Variant> {
    let mut p = parser::Parser::new(text, config);
    let v = p.parse().map_err(|e| p.error(e))?;
    let end = p.pos();
    match p.at_end() {
        Ok(true) => Ok(v),
        _ => Err(parser::syntax_error(
            text,
            end,
            "unexpected text after the value".to_owned(),
        )),
    }
}

/// Parses the first value of `text` as the engine does (it ignores what follows) and returns
/// it with the rest of the text.
///
/// # Errors
///
/// As [`parse_variant_with`], except for text after the value.
pub fn take_from_str(text: &str, config: Config) -> Result<(Variant, &str)> {
    let mut p = parser::Parser::new(text, config);
    let v = p.parse().map_err(|e| p.error(e))?;
    Ok((v, text.get(p.pos()..).unwrap_or("")))
}

/// Reads a `T` from Godot 4 text form (`str_to_var` syntax).
///
/// # Errors
///
/// As [`parse_variant`], and when the value does not fit `T`.
#[doc(alias = "str_to_var", alias = "str2var")]
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T> {
    from_str_with(text, Config::default())
}

/// Reads a `T` from the text form of `config`'s engine.
///
/// # Errors
///
/// As [`parse_variant_with`], and when the value does not fit `T`.
pub fn from_str_with<T: DeserializeOwned>(text: &str, config: Config) -> Result<T> {
    from_parsed(parse_variant_with(text, config)?, config)
}

/// [`Config::from_variant`] of a Variant just read from text, for a `T` that borrows nothing:
/// `T` read from the Variant's bytes (objects allowed), as `from_variant` reads it (its
/// result, and its error without an offset, are the bytes'). The Variant is dropped once its
/// bytes are written, so it and `T` are never held together: the heap held is at most the
/// larger of the Variant with its bytes and the bytes with `T` (the text form's budget,
/// README "Security and limits"), where `from_variant` of a borrowed Variant holds the
/// Variant, its bytes and the Variant decoded back from them at once.
pub(crate) fn from_parsed<T: DeserializeOwned>(v: Variant, config: Config) -> Result<T> {
    // Sized first: a buffer grown by doubling would hold up to 3 × the bytes while it moves.
    let mut bytes = Vec::with_capacity(config.serialized_size(&v)?);
    config.to_bytes_into(&v, &mut bytes)?;
    drop(v);
    // From the slice, which gives each container's count as a size hint (a reader gives
    // none: its Vecs would grow one push at a time, 4 slots for a one-element Array).
    T::deserialize(&mut Deserializer::from_slice(
        &bytes,
        config.with_allow_objects(true),
    ))
    .map_err(Error::without_offset)
}
