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
use crate::read::SliceRead;
use crate::wire::{
    COUNT_MASK, Descriptor, Header, NodePathHead, Reader, Scalar, Shape, VariantType, padding,
    string,
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
        rd: Reader::new(SliceRead::new(bytes), config),
        out: String::new(),
    };
    if let Err(msg) = d.value(0, "") {
        let _ = writeln!(d.out, "!! {msg} at byte {}", d.rd.offset());
    }
    let rest = d.rd.unread().unwrap_or_default();
    for word in rest.chunks(4) {
        d.line(word, 0, "trailing");
    }
    d.out
}

/// The annotator: reads through the [`Reader`] the decoders use (words, header, depth,
/// String field lengths) and writes a line per word; an error ends the dump with its text.
struct Dump<'a> {
    rd: Reader<SliceRead<'a>>,
    out: String,
}

type Step = Result<(), String>;

/// An error of the [`Reader`] as the dump's last line says it (the position follows).
fn said(e: &crate::Error) -> String {
    e.kind().to_string()
}

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

    /// The next `n` bytes.
    fn take(&mut self, n: usize) -> Result<Vec<u8>, String> {
        self.rd
            .read_slice(n)
            .map(|b| b.to_vec())
            .map_err(|e| said(&e))
    }

    fn word(&mut self) -> Result<[u8; 4], String> {
        self.rd.read_array().map_err(|e| said(&e))
    }

    /// Bytes left in the input.
    fn avail(&self) -> usize {
        self.rd.remaining().unwrap_or(0)
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

    /// A Godot String field: length line, then the text over as many words as it takes;
    /// `extra_nul`: a PackedStringArray element, whose length counts a NUL.
    fn string(&mut self, indent: usize, extra_nul: bool) -> Step {
        let len_word = self.word()?;
        let len = i32::from_le_bytes(len_word);
        let Some(len) = string::field_len(len) else {
            self.line(&len_word, indent, &format!("length {len}"));
            return Err("negative string length".into());
        };
        self.line(
            &len_word,
            indent,
            &format!("length {len}{}", if extra_nul { " (with NUL)" } else { "" }),
        );
        let pad = padding(len);
        let text_bytes = self.take(string::padded_len(len))?;
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

    fn components(&mut self, indent: usize, names: &[&str], kind: Scalar) -> Step {
        for name in names {
            match kind {
                Scalar::F64 => {
                    let b: [u8; 8] = self.rd.read_array().map_err(|e| said(&e))?;
                    let v = f64::from_le_bytes(b);
                    self.line(
                        b.get(..4).unwrap_or_default(),
                        indent,
                        &format!("{name} {v:?} (f64)"),
                    );
                    self.line(b.get(4..).unwrap_or_default(), indent, "");
                }
                Scalar::I64 => {
                    self.u64_lines(indent, |v| format!("{name} {}", v.cast_signed()))?;
                }
                Scalar::I32 => {
                    let w = self.word()?;
                    self.line(&w, indent, &format!("{name} {}", i32::from_le_bytes(w)));
                }
                Scalar::F32 | Scalar::Real => {
                    let w = self.word()?;
                    self.line(&w, indent, &format!("{name} {:?}", f32::from_le_bytes(w)));
                }
                Scalar::Byte => {
                    let b = self.take(1)?;
                    self.line(
                        &b,
                        indent,
                        &format!("{name} {}", b.first().copied().unwrap_or(0)),
                    );
                }
            }
        }
        Ok(())
    }

    fn descriptor(&mut self, indent: usize, kind: u8, role: &str) -> Step {
        match kind {
            Descriptor::NONE => Ok(()),
            Descriptor::BUILTIN => {
                let version = self.rd.version();
                self.u32_line(indent, |id| {
                    let name =
                        VariantType::from_id(id, version).map_or("?", |t| t.name_in(version));
                    format!("{role} type {name}")
                })
                .map(|_| ())
            }
            named => {
                self.u32_line_peek(indent, &format!("{role} {}", Descriptor::name_role(named)));
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
        self.rd
            .check_depth(self.rd.offset())
            .map_err(|e| said(&e))?;
        let hw = self.word()?;
        let raw = u32::from_le_bytes(hw);
        let version = self.rd.version();
        let h = match self.rd.decode_header(raw) {
            Ok(h) => h,
            Err(id) => {
                self.line(&hw, indent, &format!("{label}unknown type id {id}"));
                return Err(format!("unknown type id {id} for Godot {version}"));
            }
        };
        let ty = h.ty;
        let wide = h.wide(version);
        let array_kind = h.array_kind(version);
        let (key_kind, value_kind) = h.dictionary_kinds(version);
        let mut head = format!("{label}{}", ty.name_in(version));
        let i = indent + 1;
        match ty.shape() {
            Shape::Int | Shape::Float if h.flag() => head.push_str(" (64-bit)"),
            _ if wide => head.push_str(" (64-bit components)"),
            Shape::Object if h.object_as_id() => head.push_str(" (as id)"),
            Shape::Array if array_kind != Descriptor::NONE => head.push_str(" (typed)"),
            Shape::Dictionary if (key_kind, value_kind) != (0, 0) => head.push_str(" (typed)"),
            _ => {}
        }
        self.line(&hw, indent, &head);
        match ty.shape() {
            Shape::Empty => {}
            Shape::Bool => {
                self.u32_line(i, |v| (if v != 0 { "true" } else { "false" }).to_owned())?;
            }
            Shape::Int if h.flag() => {
                self.u64_lines(i, |v| format!("{}", v.cast_signed()))?;
            }
            Shape::Int => {
                self.u32_line(i, |v| format!("{}", v.cast_signed()))?;
            }
            Shape::Float if h.flag() => self.components(i, &["value"], Scalar::F64)?,
            Shape::Float => self.components(i, &["value"], Scalar::F32)?,
            Shape::Str => self.string(i, false)?,
            Shape::Components(_, scalar) => {
                self.components(i, ty.row().fields, scalar.on_wire(wide))?;
            }
            Shape::Rid if version.has_rid_payload() => {
                self.u64_lines(i, |v| format!("id {v}"))?;
            }
            Shape::Rid => {}
            Shape::NodePath => self.node_path(i)?,
            Shape::Object => self.object(i, h)?,
            Shape::Signal => {
                self.u32_line_peek(i, "name");
                self.string(i + 1, false)?;
                self.u64_lines(i, |v| format!("object id {v}"))?;
            }
            Shape::Dictionary => {
                self.descriptor(i, key_kind, "key")?;
                self.descriptor(i, value_kind, "value")?;
                let count = self.u32_line(i, |v| format!("count {}", v & COUNT_MASK))? & COUNT_MASK;
                self.nested(|d| {
                    for n in 0..count {
                        d.value(i, &format!("[key {n}] "))?;
                        d.value(i, &format!("[value {n}] "))?;
                    }
                    Ok(())
                })?;
            }
            Shape::Array => {
                self.descriptor(i, array_kind, "element")?;
                let count = self.u32_line(i, |v| format!("count {}", v & COUNT_MASK))? & COUNT_MASK;
                self.nested(|d| {
                    for n in 0..count {
                        d.value(i, &format!("[{n}] "))?;
                    }
                    Ok(())
                })?;
            }
            Shape::Packed(_, Scalar::Byte) => {
                let count = self.u32_line(i, |v| format!("count {}", v.cast_signed()))?;
                let len = usize::try_from(count.cast_signed()).map_err(|_| "negative count")?;
                let avail = self.avail();
                let total = (len + padding(len)).min(avail.max(len));
                let data = self.take(len.min(avail))?;
                if data.len() < len {
                    return Err("unexpected end of input in PackedByteArray".into());
                }
                let pad_avail = (total - len).min(self.avail());
                let pad = self.take(pad_avail)?;
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
            Shape::PackedStrings => {
                let count = self.u32_line(i, |v| format!("count {}", v.cast_signed()))?;
                for n in 0..count.cast_signed().max(0) {
                    self.u32_line_peek(i, &format!("[{n}]"));
                    self.string(i + 1, true)?;
                }
            }
            Shape::Packed(numbers, scalar) => self.packed(i, ty, numbers, scalar.on_wire(wide))?,
        }
        Ok(())
    }

    fn packed(&mut self, i: usize, ty: VariantType, numbers: u8, kind: Scalar) -> Step {
        let count = self.u32_line(i, |v| format!("count {}", v.cast_signed()))?;
        let count = usize::try_from(count.cast_signed()).map_err(|_| "negative count")?;
        // Every element takes at least 4 bytes: refuse counts the input cannot hold.
        if count.saturating_mul(4) > self.avail() {
            return Err(format!("count {count} does not fit in the input"));
        }
        for n in 0..count {
            let label = format!("[{n}]");
            if numbers == 1 {
                // One number per element: label it in place of the component name.
                self.components(i, &[label.as_str()], kind)?;
            } else {
                self.u32_line_peek(i, &label);
                self.components(i + 1, ty.row().fields, kind)?;
            }
        }
        Ok(())
    }

    fn node_path(&mut self, i: usize) -> Step {
        let first = self.u32_line(i, |v| {
            if NodePathHead::is_new_format(v) {
                let names = NodePathHead::decode(v, 0, 0).map_or(0, |h| h.names);
                format!("name count {names} | new-format bit")
            } else {
                "legacy format (rejected by Godot)".to_owned()
            }
        })?;
        if !NodePathHead::is_new_format(first) {
            return Err("legacy NodePath format".into());
        }
        let subs = self.u32_line(i, |v| format!("subname count {v}"))?;
        let flags = self.u32_line(i, |v| {
            let head = NodePathHead::decode(first, 0, v);
            format!(
                "flags {v}{}{}",
                if head.is_some_and(|h| h.absolute) {
                    " (absolute)"
                } else {
                    ""
                },
                if head.is_some_and(|h| h.property) {
                    " (legacy property flag)"
                } else {
                    ""
                }
            )
        })?;
        let head = NodePathHead::decode(first, subs, flags).ok_or("legacy NodePath format")?;
        let names = u64::from(head.names);
        for n in 0..names + u64::from(head.subnames) {
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

    fn object(&mut self, i: usize, h: Header) -> Step {
        if h.object_as_id() {
            self.u64_lines(i, |v| format!("instance id {v}"))?;
            return Ok(());
        }
        self.u32_line_peek(i, "class");
        let empty = self.rd.unread().and_then(<[u8]>::first_chunk) == Some(&[0; 4]);
        self.string(i + 1, false)?;
        if empty {
            // An empty class name is the null object: nothing follows (`decode_variant`).
            return Ok(());
        }
        let count = self.u32_line(i, |v| format!("property count {}", v.cast_signed()))?;
        self.nested(|d| {
            for n in 0..count.cast_signed().max(0) {
                d.u32_line_peek(i, &format!("[{n}] name"));
                d.string(i + 1, false)?;
                d.value(i, &format!("[{n}] value "))?;
            }
            Ok(())
        })
    }

    /// Runs `f` one level deeper (a container's items), as the decoders count levels.
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Step) -> Step {
        self.rd.depth.enter();
        let r = f(self);
        self.rd.depth.leave();
        r
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `levels` Arrays, each holding the next, the innermost empty (§4.21: header 0x1c in
    /// 4.x, then the count).
    fn nested_arrays(levels: usize) -> Vec<u8> {
        let mut bytes = Vec::new();
        for i in 0..levels {
            bytes.extend_from_slice(&[0x1c, 0, 0, 0]);
            bytes.extend_from_slice(&[u8::from(i + 1 < levels), 0, 0, 0]);
        }
        bytes
    }

    #[test]
    fn the_dump_stops_at_the_depth_the_decoder_stops_at() {
        let config = Config::godot4().with_max_depth(2);
        // Depth 0, 1 and 2: the decoder reads it, the dump shows it whole.
        let ok = nested_arrays(3);
        assert!(config.variant_from_bytes(&ok).is_ok());
        assert!(!annotate(&ok, config).contains("!!"));
        // One more level: both stop at the fourth header (byte 24), with the same words.
        let deep = nested_arrays(4);
        let e = config.variant_from_bytes(&deep).unwrap_err();
        assert_eq!(e.offset(), Some(24));
        let dump = annotate(&deep, config);
        assert!(
            dump.contains(
                "!! nesting deeper than the limit of 2 (Config::with_max_depth) at byte 24"
            ),
            "{dump}"
        );
    }
}
