//! Human-readable renderings of encoded bytes, for reviews, logs and snapshot tests:
//! [`annotate`] (one 4-byte word per line, saying what it is) and [`hex`] (compact).
//!
//! ```
//! let bytes = godot_serde::to_bytes(&("hi", 7))?;
//! assert_eq!(godot_serde::dump::hex(&bytes), "1c000000 02000000 04000000 02000000 68690000 02000000 07000000");
//! assert_eq!(godot_serde::dump::annotate(&bytes, godot_serde::Config::default()), "\
//! 1c 00 00 00  Array
//! 02 00 00 00    count 2
//! 04 00 00 00    [0] String
//! 02 00 00 00      length 2
//! 68 69 00 00      \"hi\" (+2 padding)
//! 02 00 00 00    [1] int
//! 07 00 00 00      7
//! ");
//! # Ok::<(), godot_serde::Error>(())
//! ```
//!
//! # Snapshot testing
//!
//! With [insta](https://insta.rs) (`cargo add --dev insta`), the layout of your own packets
//! becomes a reviewed snapshot: any change to the wire format shows up as a readable diff in
//! `cargo insta review`, word by word. In a test of your crate:
//!
//! ```
//! use serde::Serialize;
//!
//! #[derive(Serialize)]
//! struct Move { player: u32, to: godot_serde::Vector2 }
//!
//! let packet = godot_serde::to_bytes(&Move { player: 7, to: godot_serde::Vector2::new(1.5, -2.0) })?;
//! insta::assert_snapshot!(godot_serde::dump::annotate(&packet, godot_serde::Config::godot4()), @r#"
//! 1b 00 00 00  Dictionary
//! 02 00 00 00    count 2
//! 04 00 00 00    [key 0] String
//! 06 00 00 00      length 6
//! 70 6c 61 79      "player" (+2 padding)
//! 65 72 00 00
//! 02 00 00 00    [value 0] int
//! 07 00 00 00      7
//! 04 00 00 00    [key 1] String
//! 02 00 00 00      length 2
//! 74 6f 00 00      "to" (+2 padding)
//! 05 00 00 00    [value 1] Vector2
//! 00 00 c0 3f      x 1.5
//! 00 00 00 c0      y -2.0
//! "#);
//! // The compact form, for a short packet or a log line.
//! insta::assert_snapshot!(godot_serde::dump::hex(&packet[..8]), @"1b000000 02000000");
//! # Ok::<(), godot_serde::Error>(())
//! ```
//!
//! In your own tests, `insta::assert_snapshot!(dump)` without the inline `@"..."` stores the
//! snapshot in a `snapshots/` file next to the test instead. [`annotate_frames`] does the
//! same for a length-prefixed stream (`StreamPeer.put_var`, `store_var` files).

use crate::config::Config;
use crate::wire::{
    COUNT_MASK, FLAG_64, FLAG_OBJECT_AS_ID, NODE_PATH_NEW_FORMAT, TYPE_MASK, TYPED_KEY_SHIFT,
    TYPED_VALUE_SHIFT, VariantType, padding,
};
use core::fmt::Write as _;

/// Lower-case hex in 4-byte groups separated by spaces (the notation of Godot's
/// `hex_encode()` with spaces added), e.g. `02000000 01000000`.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 9 / 4 + 1);
    for (i, chunk) in bytes.chunks(4).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        for b in chunk {
            let _ = write!(out, "{b:02x}");
        }
    }
    out
}

/// Renders encoded bytes one 4-byte word per line: the bytes, then what they are (type,
/// flags, counts, lengths, values), indented by nesting (two spaces a level, up to
/// [`MAX_INDENT`] levels: deeper lines are indented as that level, so the text stays within
/// about 40 times the input's size, at any depth).
///
/// Bytes that do not decode are shown with a line starting `!!` saying why, then the rest
/// of the input as plain words; this function never fails or panics. Trailing bytes after the
/// value are listed as `trailing`.
#[must_use]
pub fn annotate(bytes: &[u8], config: Config) -> String {
    let mut d = Dump {
        bytes,
        pos: 0,
        out: String::new(),
        config,
    };
    if let Err(msg) = d.value(0, "") {
        let _ = writeln!(d.out, "!! {msg} at byte {}", d.pos);
    }
    while d.pos < bytes.len() {
        let end = (d.pos + 4).min(bytes.len());
        let word = bytes.get(d.pos..end).unwrap_or_default().to_vec();
        d.pos = end;
        d.line(&word, 0, "trailing");
    }
    d.out
}

struct Dump<'a> {
    bytes: &'a [u8],
    pos: usize,
    out: String,
    config: Config,
}

type Step = Result<(), String>;

const COMPONENTS_2: &[&str] = &["x", "y"];
const COMPONENTS_3: &[&str] = &["x", "y", "z"];
const COMPONENTS_4: &[&str] = &["x", "y", "z", "w"];
const RECT: &[&str] = &["position.x", "position.y", "size.x", "size.y"];
const TRANSFORM2D: &[&str] = &["x.x", "x.y", "y.x", "y.y", "origin.x", "origin.y"];
const PLANE: &[&str] = &["normal.x", "normal.y", "normal.z", "d"];
const AABB: &[&str] = &[
    "position.x",
    "position.y",
    "position.z",
    "size.x",
    "size.y",
    "size.z",
];
const BASIS: &[&str] = &[
    "row0.x", "row0.y", "row0.z", "row1.x", "row1.y", "row1.z", "row2.x", "row2.y", "row2.z",
];
const TRANSFORM3D: &[&str] = &[
    "basis.row0.x",
    "basis.row0.y",
    "basis.row0.z",
    "basis.row1.x",
    "basis.row1.y",
    "basis.row1.z",
    "basis.row2.x",
    "basis.row2.y",
    "basis.row2.z",
    "origin.x",
    "origin.y",
    "origin.z",
];
const PROJECTION: &[&str] = &[
    "col0.x", "col0.y", "col0.z", "col0.w", "col1.x", "col1.y", "col1.z", "col1.w", "col2.x",
    "col2.y", "col2.z", "col2.w", "col3.x", "col3.y", "col3.z", "col3.w",
];
const COLOR: &[&str] = &["r", "g", "b", "a"];

/// The deepest nesting [`annotate`] shows by indentation; deeper values are indented as this
/// level (at depth 1024 an uncapped indentation made 1 MiB of input 1 GB of text).
pub const MAX_INDENT: usize = 32;

impl Dump<'_> {
    fn line(&mut self, word: &[u8], indent: usize, what: &str) {
        let mut cells = String::new();
        for (i, b) in word.iter().enumerate() {
            if i > 0 {
                cells.push(' ');
            }
            let _ = write!(cells, "{b:02x}");
        }
        if what.is_empty() {
            // A continuation word: no trailing spaces, which editors would strip from a
            // snapshot file.
            let _ = writeln!(self.out, "{cells}");
            return;
        }
        let _ = writeln!(
            self.out,
            "{cells:<11}  {:indent$}{what}",
            "",
            indent = indent.min(MAX_INDENT) * 2
        );
    }

    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.pos.checked_add(n).ok_or("length overflow")?;
        let bytes = self.bytes.get(self.pos..end).ok_or_else(|| {
            format!(
                "unexpected end of input, {} more bytes needed",
                end - self.bytes.len()
            )
        })?;
        self.pos = end;
        Ok(bytes)
    }

    fn word(&mut self) -> Result<[u8; 4], String> {
        let mut w = [0; 4];
        w.copy_from_slice(self.take(4)?);
        Ok(w)
    }

    fn u32_line(&mut self, indent: usize, what: impl FnOnce(u32) -> String) -> Result<u32, String> {
        let w = self.word()?;
        let v = u32::from_le_bytes(w);
        self.line(&w, indent, &what(v));
        Ok(v)
    }

    /// Two words holding a 64-bit value, shown on two lines.
    fn u64_lines(
        &mut self,
        indent: usize,
        what: impl FnOnce(u64) -> String,
    ) -> Result<u64, String> {
        let lo = self.word()?;
        let hi = self.word()?;
        let v = u64::from(u32::from_le_bytes(lo)) | (u64::from(u32::from_le_bytes(hi)) << 32);
        self.line(&lo, indent, &what(v));
        self.line(&hi, indent, "  (high word)");
        Ok(v)
    }

    /// A Godot String field: length line, then the text over as many words as it takes.
    fn string(&mut self, indent: usize, extra_nul: bool) -> Step {
        let len_word = self.word()?;
        let len = i32::from_le_bytes(len_word);
        let Ok(len) = usize::try_from(len) else {
            self.line(&len_word, indent, &format!("length {len}"));
            return Err("negative string length".into());
        };
        self.line(
            &len_word,
            indent,
            &format!("length {len}{}", if extra_nul { " (with NUL)" } else { "" }),
        );
        let pad = padding(len);
        let total = len.checked_add(pad).ok_or("length overflow")?;
        let text_bytes = self.take(total)?.to_vec();
        let shown_len = len - usize::from(extra_nul && len > 0);
        let text =
            String::from_utf8_lossy(text_bytes.get(..shown_len).unwrap_or_default()).into_owned();
        let mut first = true;
        for chunk in text_bytes.chunks(4) {
            let what = if first {
                let mut w = format!("{text:?}");
                if pad > 0 {
                    let _ = write!(w, " (+{pad} padding)");
                }
                w
            } else {
                String::new()
            };
            first = false;
            self.line(chunk, indent, &what);
        }
        Ok(())
    }

    fn components(&mut self, indent: usize, names: &[&str], kind: u8) -> Step {
        for name in names {
            match kind {
                b'd' => {
                    let mut b = [0; 8];
                    b.copy_from_slice(self.take(8)?);
                    let v = f64::from_le_bytes(b);
                    self.line(
                        b.get(..4).unwrap_or_default(),
                        indent,
                        &format!("{name} {v:?} (f64)"),
                    );
                    self.line(b.get(4..).unwrap_or_default(), indent, "");
                }
                b'i' => {
                    let w = self.word()?;
                    self.line(&w, indent, &format!("{name} {}", i32::from_le_bytes(w)));
                }
                _ => {
                    let w = self.word()?;
                    self.line(&w, indent, &format!("{name} {:?}", f32::from_le_bytes(w)));
                }
            }
        }
        Ok(())
    }

    fn descriptor(&mut self, indent: usize, kind: u32, role: &str) -> Step {
        match kind {
            0 => Ok(()),
            1 => {
                let version = self.config.version;
                self.u32_line(indent, |id| {
                    let name =
                        VariantType::from_id(id, version).map_or("?", |t| t.name_in(version));
                    format!("{role} type {name}")
                })
                .map(|_| ())
            }
            2 => {
                self.u32_line_peek(indent, &format!("{role} class name"));
                self.string(indent + 1, false)
            }
            _ => {
                self.u32_line_peek(indent, &format!("{role} script path"));
                self.string(indent + 1, false)
            }
        }
    }

    /// Writes a caption line with no bytes (the next lines carry them).
    fn u32_line_peek(&mut self, indent: usize, what: &str) {
        let _ = writeln!(
            self.out,
            "{:<11}  {:indent$}{what}",
            "",
            "",
            indent = indent.min(MAX_INDENT) * 2
        );
    }

    fn value(&mut self, indent: usize, label: &str) -> Step {
        if indent > self.config.max_depth.saturating_add(1) {
            return Err(format!("nesting deeper than {}", self.config.max_depth));
        }
        let hw = self.word()?;
        let raw = u32::from_le_bytes(hw);
        let version = self.config.version;
        let Some(ty) = VariantType::from_id(raw & TYPE_MASK, version) else {
            self.line(
                &hw,
                indent,
                &format!("{label}unknown type id {}", raw & TYPE_MASK),
            );
            return Err(format!(
                "unknown type id {} for Godot {version}",
                raw & TYPE_MASK
            ));
        };
        let flag = raw & FLAG_64 != 0;
        let wide = flag && version.is_godot4() && ty.has_real_components();
        let name = ty.name_in(version);
        let mut head = format!("{label}{name}");
        let i = indent + 1;
        match ty {
            VariantType::Int | VariantType::Float if flag => head.push_str(" (64-bit)"),
            _ if wide => head.push_str(" (64-bit components)"),
            VariantType::Object if raw & FLAG_OBJECT_AS_ID != 0 => head.push_str(" (as id)"),
            VariantType::Array
                if version.has_typed_arrays() && (raw >> TYPED_KEY_SHIFT) & 3 != 0 =>
            {
                head.push_str(" (typed)");
            }
            VariantType::Dictionary
                if version.has_typed_dictionaries() && (raw >> TYPED_KEY_SHIFT) & 15 != 0 =>
            {
                head.push_str(" (typed)");
            }
            _ => {}
        }
        self.line(&hw, indent, &head);
        let real = if wide { b'd' } else { b'f' };
        match ty {
            VariantType::Nil | VariantType::Callable => {}
            VariantType::Bool => {
                self.u32_line(i, |v| (if v != 0 { "true" } else { "false" }).to_owned())?;
            }
            VariantType::Int if flag => {
                self.u64_lines(i, |v| format!("{}", v.cast_signed()))?;
            }
            VariantType::Int => {
                self.u32_line(i, |v| format!("{}", v.cast_signed()))?;
            }
            VariantType::Float if flag => self.components(i, &["value"], b'd')?,
            VariantType::Float => self.components(i, &["value"], b'f')?,
            VariantType::String | VariantType::StringName => self.string(i, false)?,
            VariantType::Vector2 => self.components(i, COMPONENTS_2, real)?,
            VariantType::Vector2i => self.components(i, COMPONENTS_2, b'i')?,
            VariantType::Rect2 => self.components(i, RECT, real)?,
            VariantType::Rect2i => self.components(i, RECT, b'i')?,
            VariantType::Vector3 => self.components(i, COMPONENTS_3, real)?,
            VariantType::Vector3i => self.components(i, COMPONENTS_3, b'i')?,
            VariantType::Transform2D => self.components(i, TRANSFORM2D, real)?,
            VariantType::Vector4 | VariantType::Quaternion => {
                self.components(i, COMPONENTS_4, real)?
            }
            VariantType::Vector4i => self.components(i, COMPONENTS_4, b'i')?,
            VariantType::Plane => self.components(i, PLANE, real)?,
            VariantType::Aabb => self.components(i, AABB, real)?,
            VariantType::Basis => self.components(i, BASIS, real)?,
            VariantType::Transform3D => self.components(i, TRANSFORM3D, real)?,
            VariantType::Projection => self.components(i, PROJECTION, real)?,
            VariantType::Color => self.components(i, COLOR, b'f')?,
            VariantType::Rid if version.is_godot4() => {
                self.u64_lines(i, |v| format!("id {v}"))?;
            }
            VariantType::Rid => {}
            VariantType::NodePath => self.node_path(i)?,
            VariantType::Object => self.object(i, raw)?,
            VariantType::Signal => {
                self.u32_line_peek(i, "name");
                self.string(i + 1, false)?;
                self.u64_lines(i, |v| format!("object id {v}"))?;
            }
            VariantType::Dictionary => {
                if version.has_typed_dictionaries() {
                    self.descriptor(i, (raw >> TYPED_KEY_SHIFT) & 3, "key")?;
                    self.descriptor(i, (raw >> TYPED_VALUE_SHIFT) & 3, "value")?;
                }
                let count = self.u32_line(i, |v| format!("count {}", v & COUNT_MASK))? & COUNT_MASK;
                for n in 0..count {
                    self.value(i, &format!("[key {n}] "))?;
                    self.value(i, &format!("[value {n}] "))?;
                }
            }
            VariantType::Array => {
                if version.has_typed_arrays() {
                    self.descriptor(i, (raw >> TYPED_KEY_SHIFT) & 3, "element")?;
                }
                let count = self.u32_line(i, |v| format!("count {}", v & COUNT_MASK))? & COUNT_MASK;
                for n in 0..count {
                    self.value(i, &format!("[{n}] "))?;
                }
            }
            VariantType::PackedByteArray => {
                let count = self.u32_line(i, |v| format!("count {}", v.cast_signed()))?;
                let len = usize::try_from(count.cast_signed()).map_err(|_| "negative count")?;
                let avail = self.bytes.len().saturating_sub(self.pos);
                let total = (len + padding(len)).min(avail.max(len));
                let data = self.take(len.min(avail))?.to_vec();
                if data.len() < len {
                    return Err("unexpected end of input in PackedByteArray".into());
                }
                let pad_avail = (total - len).min(self.bytes.len().saturating_sub(self.pos));
                let pad = self.take(pad_avail)?.to_vec();
                let mut all = data;
                all.extend_from_slice(&pad);
                for (n, chunk) in all.chunks(4).enumerate() {
                    let shown: Vec<String> = chunk
                        .iter()
                        .take(len.saturating_sub(n * 4))
                        .map(|b| b.to_string())
                        .collect();
                    self.line(chunk, i, &format!("bytes {}", shown.join(", ")));
                }
            }
            VariantType::PackedStringArray => {
                let count = self.u32_line(i, |v| format!("count {}", v.cast_signed()))?;
                for n in 0..count.cast_signed().max(0) {
                    self.u32_line_peek(i, &format!("[{n}]"));
                    self.string(i + 1, true)?;
                }
            }
            _ => self.packed(i, ty, wide)?,
        }
        Ok(())
    }

    fn packed(&mut self, i: usize, ty: VariantType, wide: bool) -> Step {
        let count = self.u32_line(i, |v| format!("count {}", v.cast_signed()))?;
        let count = usize::try_from(count.cast_signed()).map_err(|_| "negative count")?;
        let real = if wide { b'd' } else { b'f' };
        let (names, kind): (&[&str], u8) = match ty {
            VariantType::PackedInt32Array => (&["int32"], b'i'),
            VariantType::PackedInt64Array => (&["int64"], b'l'),
            VariantType::PackedFloat32Array => (&["float32"], b'f'),
            VariantType::PackedFloat64Array => (&["float64"], b'd'),
            VariantType::PackedVector2Array => (COMPONENTS_2, real),
            VariantType::PackedVector3Array => (COMPONENTS_3, real),
            VariantType::PackedVector4Array => (COMPONENTS_4, real),
            _ => (COLOR, b'f'),
        };
        // Every element takes at least 4 bytes: refuse counts the input cannot hold.
        if count.saturating_mul(4) > self.bytes.len().saturating_sub(self.pos) {
            return Err(format!("count {count} does not fit in the input"));
        }
        for n in 0..count {
            if kind == b'l' {
                self.u64_lines(i, |v| format!("[{n}] {}", v.cast_signed()))?;
            } else if let [_] = names {
                // One number per element: label it in place of the component name.
                let label = format!("[{n}]");
                self.components(i, &[label.as_str()], kind)?;
            } else {
                self.u32_line_peek(i, &format!("[{n}]"));
                self.components(i + 1, names, kind)?;
            }
        }
        Ok(())
    }

    fn node_path(&mut self, i: usize) -> Step {
        let first = self.u32_line(i, |v| {
            if v & NODE_PATH_NEW_FORMAT == 0 {
                "legacy format (rejected by Godot)".to_owned()
            } else {
                format!("name count {} | new-format bit", v & !NODE_PATH_NEW_FORMAT)
            }
        })?;
        if first & NODE_PATH_NEW_FORMAT == 0 {
            return Err("legacy NodePath format".into());
        }
        let subs = self.u32_line(i, |v| format!("subname count {v}"))?;
        let flags = self.u32_line(i, |v| {
            format!(
                "flags {v}{}{}",
                if v & 1 != 0 { " (absolute)" } else { "" },
                if v & 2 != 0 {
                    " (legacy property flag)"
                } else {
                    ""
                }
            )
        })?;
        let total =
            u64::from(first & !NODE_PATH_NEW_FORMAT) + u64::from(subs) + u64::from(flags & 2 != 0);
        for n in 0..total {
            let names = u64::from(first & !NODE_PATH_NEW_FORMAT);
            let what = if n < names {
                format!("name {n}")
            } else {
                format!("subname {}", n - names)
            };
            self.u32_line_peek(i, &what);
            self.string(i + 1, false)?;
        }
        Ok(())
    }

    fn object(&mut self, i: usize, raw: u32) -> Step {
        if raw & FLAG_OBJECT_AS_ID != 0 {
            self.u64_lines(i, |v| format!("instance id {v}"))?;
            return Ok(());
        }
        self.u32_line_peek(i, "class");
        let empty = self.bytes.get(self.pos..self.pos + 4) == Some(&[0; 4][..]);
        self.string(i + 1, false)?;
        if empty {
            // An empty class name is the null object: nothing follows (`decode_variant`).
            return Ok(());
        }
        let count = self.u32_line(i, |v| format!("property count {}", v.cast_signed()))?;
        for n in 0..count.cast_signed().max(0) {
            self.u32_line_peek(i, &format!("[{n}] name"));
            self.string(i + 1, false)?;
            self.value(i, &format!("[{n}] value "))?;
        }
        Ok(())
    }
}

/// Renders a length-prefixed stream (`StreamPeer.put_var`, `store_var` files) like
/// [`annotate`]: one line per prefix (`frame N, length L`), then that frame's value indented
/// below it. A truncated last frame ends with a line starting `!!` that says how many bytes
/// are missing. Never fails or panics.
///
/// Takes a [`Config`] as [`annotate`] does (little-endian prefixes, the default maximum
/// frame size), or a [`Framing`](crate::frame::Framing) for other prefix settings.
///
/// ```
/// use godot_serde::{Config, dump, frame::{Framing, to_frame_bytes}};
///
/// let mut stream = to_frame_bytes(&1, Config::godot4())?;   // StreamPeer.put_var(1)
/// stream.extend(to_frame_bytes("hi", Config::godot4())?);   // StreamPeer.put_var("hi")
/// assert_eq!(dump::annotate_frames(&stream, Config::godot4()), "\
/// 08 00 00 00  frame 0, length 8
/// 02 00 00 00    int
/// 01 00 00 00      1
/// 0c 00 00 00  frame 1, length 12
/// 04 00 00 00    String
/// 02 00 00 00      length 2
/// 68 69 00 00      \"hi\" (+2 padding)
/// ");
/// // Big-endian prefixes (`StreamPeer.big_endian = true`) need a Framing.
/// let big = Framing::new(Config::godot4()).with_big_endian(true);
/// assert!(dump::annotate_frames(&big.to_bytes(&1)?, big).starts_with("00 00 00 08  frame 0"));
/// # Ok::<(), godot_serde::Error>(())
/// ```
#[must_use]
pub fn annotate_frames(bytes: &[u8], framing: impl Into<crate::frame::Framing>) -> String {
    use crate::frame::{PREFIX_LEN, Split, split_frame};
    let framing = framing.into();
    let mut out = String::new();
    let mut rest = bytes;
    let mut index = 0usize;
    while !rest.is_empty() {
        let word = rest.get(..PREFIX_LEN.min(rest.len())).unwrap_or_default();
        match split_frame(&framing, rest) {
            Ok(Split::Frame(payload, after)) => {
                let _ = writeln!(
                    out,
                    "{:<11}  frame {index}, length {}",
                    spaced(word),
                    payload.len()
                );
                indented(&mut out, &annotate(payload, framing.config()));
                rest = after;
                index += 1;
            }
            Ok(Split::Missing(needed)) => {
                if word.len() == PREFIX_LEN {
                    let len = rest.len() - PREFIX_LEN + needed;
                    let _ = writeln!(out, "{:<11}  frame {index}, length {len}", spaced(word));
                    let partial = rest.get(PREFIX_LEN..).unwrap_or_default();
                    indented(&mut out, &annotate(partial, framing.config()));
                }
                let _ = writeln!(
                    out,
                    "!! truncated frame: {needed} more bytes needed at byte {}",
                    bytes.len()
                );
                break;
            }
            Err(e) => {
                let _ = writeln!(out, "!! {e} at byte {}", bytes.len() - rest.len());
                break;
            }
        }
    }
    out
}

/// Appends an [`annotate`] rendering nested one level deeper.
fn indented(out: &mut String, annotated: &str) {
    for line in annotated.lines() {
        match line.split_at_checked(13) {
            Some((cells, what)) if !line.starts_with("!!") => {
                let _ = writeln!(out, "{cells}  {what}");
            }
            _ => {
                let _ = writeln!(out, "{line}");
            }
        }
    }
}

/// `02 00 00 00`.
fn spaced(word: &[u8]) -> String {
    let mut s = String::new();
    for (i, b) in word.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{b:02x}");
    }
    s
}
