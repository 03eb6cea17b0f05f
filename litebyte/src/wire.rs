//! The LiteByte wire: base types, the interleaved bit/byte streams and every base codec.

use std::fmt;

use crate::error::{Error, ErrorKind, Number, Result};

/// Decoding strictness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Reject everything the C# writer never produces: trailing bytes, empty input, non-zero
    /// unused bits, over-long lengths, varints wider than needed, null for a non-`Option`
    /// string or array, invalid UTF-8, bytes >= 0x80 in ASCII, lone surrogates in a `String`.
    #[default]
    Strict,
    /// Accept what the C# reader accepts: trailing bytes are ignored, empty input reads as
    /// null/`None`, invalid text is replaced (U+FFFD, `?`), a null string or array reads as
    /// empty.
    Compat,
}

macro_rules! base_types {
    ($($v:ident = $name:literal, $doc:literal;)*) => {
        /// A LiteByte v0.6.15 base type.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum BaseType {
            $(#[doc = $doc] $v,)*
        }

        impl BaseType {
            /// Every base type, in the order of the reference implementation's type list.
            pub const ALL: &'static [BaseType] = &[$(BaseType::$v,)*];

            /// The name used in `.lbs` files (case-sensitive).
            pub fn name(self) -> &'static str {
                match self { $(BaseType::$v => $name,)* }
            }

            /// Looks up a base type by its `.lbs` name (case-sensitive).
            pub fn from_name(name: &str) -> Option<BaseType> {
                match name { $($name => Some(BaseType::$v),)* _ => None }
            }
        }
    };
}

base_types! {
    Bit1 = "Bit1", "1 bit, bool.";
    Bit2 = "Bit2", "2-bit unsigned.";
    Bit3 = "Bit3", "3-bit unsigned.";
    Bit4 = "Bit4", "4-bit unsigned.";
    Bit5 = "Bit5", "5-bit unsigned.";
    Bit6 = "Bit6", "6-bit unsigned.";
    Bit7 = "Bit7", "7-bit unsigned.";
    Int8 = "Int8", "1-byte signed.";
    Int16 = "Int16", "2-byte signed LE.";
    Int24 = "Int24", "3-byte signed LE.";
    Int32 = "Int32", "4-byte signed LE.";
    Int40 = "Int40", "5-byte signed LE.";
    Int48 = "Int48", "6-byte signed LE.";
    Int56 = "Int56", "7-byte signed LE.";
    Int64 = "Int64", "8-byte signed LE.";
    UInt8 = "UInt8", "1-byte unsigned.";
    UInt16 = "UInt16", "2-byte unsigned LE.";
    UInt24 = "UInt24", "3-byte unsigned LE.";
    UInt32 = "UInt32", "4-byte unsigned LE.";
    UInt40 = "UInt40", "5-byte unsigned LE.";
    UInt48 = "UInt48", "6-byte unsigned LE.";
    UInt56 = "UInt56", "7-byte unsigned LE.";
    UInt64 = "UInt64", "8-byte unsigned LE.";
    Float8 = "Float8", "1 byte, `value*255`, only exact multiples of 1/255 in [0, 1].";
    Float16 = "Float16", "LiteByte's custom 16-bit float (not IEEE binary16).";
    Float24 = "Float24", "LiteByte's custom 24-bit float.";
    Float32 = "Float32", "IEEE-754 binary32 LE.";
    Float64 = "Float64", "IEEE-754 binary64 LE.";
    VarInt16 = "VarInt16", "1 tag bit + 1..2 bytes, signed.";
    VarInt32 = "VarInt32", "2 tag bits + 1..4 bytes, signed.";
    VarInt64 = "VarInt64", "3 tag bits + 1..8 bytes, signed.";
    VarUInt16 = "VarUInt16", "1 tag bit + 1..2 bytes, unsigned.";
    VarUInt32 = "VarUInt32", "2 tag bits + 1..4 bytes, unsigned.";
    VarUInt64 = "VarUInt64", "3 tag bits + 1..8 bytes, unsigned.";
    Ascii = "ASCII", "VarLength(UTF-16 units) + 1 byte per unit, non-ASCII as `?`.";
    Unicode = "Unicode", "VarLength(UTF-16 units) + UTF-16LE.";
    Utf8 = "UTF8", "VarLength(UTF-8 bytes) + UTF-8.";
    VarUnicode = "VarUnicode", "VarLength(code points) + one VarUInt32 per code point.";
}

impl fmt::Display for BaseType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a base type is laid out, for the codecs.
#[derive(Clone, Copy)]
pub(crate) enum Layout {
    Bits(u32),
    Int { bytes: u32, signed: bool },
    VarInt { tag_bits: u32, signed: bool },
    Float8,
    Float16,
    Float24,
    Float32,
    Float64,
    Str,
}

impl BaseType {
    pub(crate) fn layout(self) -> Layout {
        use BaseType::*;
        match self {
            Bit1 => Layout::Bits(1),
            Bit2 => Layout::Bits(2),
            Bit3 => Layout::Bits(3),
            Bit4 => Layout::Bits(4),
            Bit5 => Layout::Bits(5),
            Bit6 => Layout::Bits(6),
            Bit7 => Layout::Bits(7),
            Int8 => Layout::Int {
                bytes: 1,
                signed: true,
            },
            Int16 => Layout::Int {
                bytes: 2,
                signed: true,
            },
            Int24 => Layout::Int {
                bytes: 3,
                signed: true,
            },
            Int32 => Layout::Int {
                bytes: 4,
                signed: true,
            },
            Int40 => Layout::Int {
                bytes: 5,
                signed: true,
            },
            Int48 => Layout::Int {
                bytes: 6,
                signed: true,
            },
            Int56 => Layout::Int {
                bytes: 7,
                signed: true,
            },
            Int64 => Layout::Int {
                bytes: 8,
                signed: true,
            },
            UInt8 => Layout::Int {
                bytes: 1,
                signed: false,
            },
            UInt16 => Layout::Int {
                bytes: 2,
                signed: false,
            },
            UInt24 => Layout::Int {
                bytes: 3,
                signed: false,
            },
            UInt32 => Layout::Int {
                bytes: 4,
                signed: false,
            },
            UInt40 => Layout::Int {
                bytes: 5,
                signed: false,
            },
            UInt48 => Layout::Int {
                bytes: 6,
                signed: false,
            },
            UInt56 => Layout::Int {
                bytes: 7,
                signed: false,
            },
            UInt64 => Layout::Int {
                bytes: 8,
                signed: false,
            },
            Float8 => Layout::Float8,
            Float16 => Layout::Float16,
            Float24 => Layout::Float24,
            Float32 => Layout::Float32,
            Float64 => Layout::Float64,
            VarInt16 => Layout::VarInt {
                tag_bits: 1,
                signed: true,
            },
            VarInt32 => Layout::VarInt {
                tag_bits: 2,
                signed: true,
            },
            VarInt64 => Layout::VarInt {
                tag_bits: 3,
                signed: true,
            },
            VarUInt16 => Layout::VarInt {
                tag_bits: 1,
                signed: false,
            },
            VarUInt32 => Layout::VarInt {
                tag_bits: 2,
                signed: false,
            },
            VarUInt64 => Layout::VarInt {
                tag_bits: 3,
                signed: false,
            },
            Ascii | Unicode | Utf8 | VarUnicode => Layout::Str,
        }
    }

    /// The fewest bits a value of this type takes on the wire: its width for bits, fixed
    /// ints and floats; the size tag plus one byte for varints; one byte (a VarLength) for
    /// strings.
    pub fn min_bits(self) -> u64 {
        match self.layout() {
            Layout::Bits(n) => u64::from(n),
            Layout::Int { bytes, .. } => u64::from(bytes) * 8,
            Layout::VarInt { tag_bits, .. } => u64::from(tag_bits) + 8,
            Layout::Float8 => 8,
            Layout::Float16 => 16,
            Layout::Float24 => 24,
            Layout::Float32 => 32,
            Layout::Float64 => 64,
            Layout::Str => 8,
        }
    }

    /// Whether this is one of the four string encodings.
    pub fn is_string(self) -> bool {
        matches!(self.layout(), Layout::Str)
    }

    /// Whether this is one of the float types.
    pub fn is_float(self) -> bool {
        matches!(
            self.layout(),
            Layout::Float8 | Layout::Float16 | Layout::Float24 | Layout::Float32 | Layout::Float64
        )
    }

    /// Whether values of this type are signed integers.
    pub fn is_signed_int(self) -> bool {
        matches!(
            self.layout(),
            Layout::Int { signed: true, .. } | Layout::VarInt { signed: true, .. }
        )
    }

    /// The inclusive integer range of an integer or bit type (`None` for floats and strings).
    pub fn int_range(self) -> Option<(i128, i128)> {
        match self.layout() {
            Layout::Bits(n) => Some((0, (1i128 << n) - 1)),
            Layout::Int { bytes, signed } => Some(range(bytes, signed)),
            Layout::VarInt { tag_bits, signed } => Some(range(1u32 << tag_bits, signed)),
            _ => None,
        }
    }
}

fn range(bytes: u32, signed: bool) -> (i128, i128) {
    let bits = bytes * 8;
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

fn out_of_range(ty: BaseType, value: Number) -> Error {
    Error::new(ErrorKind::OutOfRange { ty, value })
}

// ---------------------------------------------------------------------------------------
// Writer

/// The message buffer with LiteByte's lazily placed bit bytes (§2 of the spec).
#[derive(Debug, Default)]
pub(crate) struct Writer {
    pub(crate) buf: Vec<u8>,
    bit_index: usize,
    /// Next free bit in the bit byte; 8 = no usable bit byte.
    bit_loc: u32,
}

impl Writer {
    pub(crate) fn new() -> Self {
        Writer {
            buf: Vec::new(),
            bit_index: 0,
            bit_loc: 8,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.buf.len()
    }

    /// Writes the low `n` bits (1..=7, or up to 8 for internal tags) of `v` into the bit
    /// stream.
    pub(crate) fn write_bits(&mut self, v: u32, n: u32) {
        if self.bit_loc > 7 {
            self.bit_index = self.buf.len();
            self.buf.push(v as u8);
            self.bit_loc = n;
        } else if self.bit_loc + n <= 8 {
            if let Some(b) = self.buf.get_mut(self.bit_index) {
                *b |= (v << self.bit_loc) as u8;
            }
            self.bit_loc += n;
        } else {
            let low = 8 - self.bit_loc;
            if let Some(b) = self.buf.get_mut(self.bit_index) {
                *b |= (v << self.bit_loc) as u8;
            }
            self.bit_index = self.buf.len();
            self.buf.push((v >> low) as u8);
            self.bit_loc = n - low;
        }
    }

    pub(crate) fn write_bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Low `n` bytes of `v`, little-endian.
    fn write_le(&mut self, v: u64, n: u32) {
        let bytes = v.to_le_bytes();
        self.buf
            .extend_from_slice(bytes.get(..n as usize).unwrap_or(&bytes));
    }

    /// VarLength: `n + 1` as unsigned LEB128; `None` = null.
    pub(crate) fn write_len(&mut self, n: Option<usize>) -> Result<()> {
        let mut v: u64 = match n {
            None => 0,
            Some(n) => {
                let n = n as u64;
                if n > i32::MAX as u64 - 1 {
                    return Err(Error::at(ErrorKind::LengthTooLarge { len: n }, self.len()));
                }
                n + 1
            }
        };
        loop {
            let b = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                self.buf.push(b);
                return Ok(());
            }
            self.buf.push(b | 0x80);
        }
    }

    /// Writes an integer-like base type (bits, fixed ints, varints).
    pub(crate) fn write_int(&mut self, ty: BaseType, v: i128) -> Result<()> {
        let Some((lo, hi)) = ty.int_range() else {
            return Err(Error::at(
                ErrorKind::TypeMismatch(format!("an integer cannot be written as {ty}").into()),
                self.len(),
            ));
        };
        if v < lo || v > hi {
            return Err(out_of_range(ty, Number::Int(v)).or_at(self.len()));
        }
        match ty.layout() {
            Layout::Bits(n) => self.write_bits(v as u32, n),
            Layout::Int { bytes, .. } => self.write_le(v as u64, bytes),
            Layout::VarInt { tag_bits, signed } => {
                let max = 1u32 << tag_bits;
                let mut k = 1;
                while k < max {
                    let (l, h) = range(k, signed);
                    if v >= l && v <= h {
                        break;
                    }
                    k += 1;
                }
                self.write_bits(k - 1, tag_bits);
                self.write_le(v as u64, k);
            }
            _ => {}
        }
        Ok(())
    }

    /// Writes a float base type. `v32` is the value as C# `float` (used by Float8..Float32).
    // The range checks are written as comparisons on purpose: like C#, they let NaN through.
    #[allow(clippy::manual_range_contains)]
    pub(crate) fn write_float(&mut self, ty: BaseType, v64: f64, v32: f32) -> Result<()> {
        match ty.layout() {
            Layout::Float8 => {
                let f = v32 * 255.0;
                if !(0.0..=1.0).contains(&v32) || f != f.trunc() {
                    return Err(out_of_range(ty, Number::Float(v32.into())).or_at(self.len()));
                }
                self.buf.push(f as u8);
            }
            Layout::Float16 => {
                if v32 < -1.31e5 || v32 > 1.31e5 {
                    return Err(out_of_range(ty, Number::Float(v32.into())).or_at(self.len()));
                }
                let bytes = float16_encode(v32);
                self.write_bytes(&bytes);
            }
            Layout::Float24 => {
                if v32 < -3.6893e19 || v32 > 3.6893e19 {
                    return Err(out_of_range(ty, Number::Float(v32.into())).or_at(self.len()));
                }
                let bytes = float24_encode(v32);
                self.write_bytes(&bytes);
            }
            Layout::Float32 => self.write_bytes(&v32.to_le_bytes()),
            Layout::Float64 => self.write_bytes(&v64.to_le_bytes()),
            _ => {
                return Err(Error::at(
                    ErrorKind::TypeMismatch(format!("a float cannot be written as {ty}").into()),
                    self.len(),
                ));
            }
        }
        Ok(())
    }

    /// Writes a string base type; `None` = null.
    pub(crate) fn write_str(&mut self, ty: BaseType, s: Option<StrRef<'_>>) -> Result<()> {
        let Some(s) = s else {
            return self.write_len(None);
        };
        match ty {
            BaseType::Utf8 => {
                let owned;
                let text: &str = match s {
                    StrRef::Str(t) => t,
                    StrRef::Utf16(u) => {
                        owned = String::from_utf16_lossy(u);
                        &owned
                    }
                };
                self.write_len(Some(text.len()))?;
                self.write_bytes(text.as_bytes());
            }
            BaseType::Unicode => {
                let units = s.units();
                self.write_len(Some(units.len()))?;
                for u in char::decode_utf16(units.iter().copied()) {
                    match u {
                        Ok(c) => {
                            let mut b = [0u16; 2];
                            for unit in c.encode_utf16(&mut b) {
                                self.write_bytes(&unit.to_le_bytes());
                            }
                        }
                        Err(_) => self.write_bytes(&[0xFD, 0xFF]),
                    }
                }
            }
            BaseType::Ascii => {
                let units = s.units();
                self.write_len(Some(units.len()))?;
                for u in units {
                    self.buf.push(if u < 0x80 { u as u8 } else { b'?' });
                }
            }
            BaseType::VarUnicode => {
                let units = s.units();
                let mut points = Vec::with_capacity(units.len());
                for r in char::decode_utf16(units.iter().copied()) {
                    match r {
                        Ok(c) => points.push(c as u32),
                        Err(e) => {
                            let u = e.unpaired_surrogate();
                            if u < 0xDC00 {
                                return Err(Error::at(
                                    ErrorKind::InvalidString(format!(
                                        "lone high surrogate {u:#06X} cannot be written as VarUnicode"
                                    ).into()),
                                    self.len(),
                                ));
                            }
                            points.push(u as u32);
                        }
                    }
                }
                self.write_len(Some(points.len()))?;
                for p in points {
                    self.write_int(BaseType::VarUInt32, p as i128)?;
                }
            }
            _ => {
                return Err(Error::at(
                    ErrorKind::TypeMismatch(format!("a string cannot be written as {ty}").into()),
                    self.len(),
                ));
            }
        }
        Ok(())
    }
}

/// Text to encode: Rust text or raw UTF-16 (which may hold lone surrogates).
#[derive(Clone, Copy, Debug)]
pub(crate) enum StrRef<'a> {
    Str(&'a str),
    Utf16(&'a [u16]),
}

impl StrRef<'_> {
    fn units(&self) -> Vec<u16> {
        match self {
            StrRef::Str(s) => s.encode_utf16().collect(),
            StrRef::Utf16(u) => u.to_vec(),
        }
    }
}

/// Decoded text: Rust text, or UTF-16 that is not valid Unicode (lone surrogates).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum DecodedStr {
    Text(String),
    Utf16(Vec<u16>),
}

// ---------------------------------------------------------------------------------------
// Floats

/// C#'s `WriteFloat16`, bit for bit (wrapping exponent, saturating rounding).
pub(crate) fn float16_encode(v: f32) -> [u8; 2] {
    let u = v.to_bits();
    let sign = u >> 31;
    let exp = ((u >> 23) & 0xFF).wrapping_sub(112);
    let mut man = (u & 0x7F_FFFF) >> 13;
    if u & 0x1000 != 0 && man < 0x3FF {
        man += 1;
    }
    [
        (man & 0xFF) as u8,
        ((sign << 7) | (exp << 2) | (man >> 8)) as u8,
    ]
}

/// The raw float behind Float16 bytes, before the decimal rounding.
pub(crate) fn float16_raw(b0: u8, b1: u8) -> f32 {
    let b0 = b0 as u32;
    let b1 = b1 as u32;
    let u =
        ((b1 & 0x80) << 24) | ((((b1 & 0x7C) >> 2) + 112) << 23) | ((b1 & 3) << 21) | (b0 << 13);
    f32::from_bits(u)
}

/// C#'s `ReadFloat16`: raw value rounded to 3 significant digits.
pub(crate) fn float16_decode(b0: u8, b1: u8) -> f32 {
    round_significant(float16_raw(b0, b1), 3)
}

/// C#'s `WriteFloat24`.
pub(crate) fn float24_encode(v: f32) -> [u8; 3] {
    let u = v.to_bits();
    let sign = u >> 31;
    let exp = ((u >> 23) & 0xFF).wrapping_sub(64);
    let mut man = (u & 0x7F_FFFF) >> 7;
    if u & 0x40 != 0 && man < 0xFFFF {
        man += 1;
    }
    [
        (man & 0xFF) as u8,
        ((man >> 8) & 0xFF) as u8,
        ((sign << 7) | exp) as u8,
    ]
}

/// The raw float behind Float24 bytes, before the decimal rounding.
pub(crate) fn float24_raw(b0: u8, b1: u8, b2: u8) -> f32 {
    let (b0, b1, b2) = (b0 as u32, b1 as u32, b2 as u32);
    let u = ((b2 & 0x80) << 24) | (((b2 & 0x7F) + 64) << 23) | (b1 << 15) | (b0 << 7);
    f32::from_bits(u)
}

/// C#'s `ReadFloat24`: raw value rounded to 5 significant digits.
pub(crate) fn float24_decode(b0: u8, b1: u8, b2: u8) -> f32 {
    round_significant(float24_raw(b0, b1, b2), 5)
}

/// `Math.Round(v * 10^(d - ceil(log10 |v|))) / 10^(...)` in double, banker's rounding.
fn round_significant(v: f32, digits: i32) -> f32 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let d = v as f64;
    let exp = d.abs().log10().ceil();
    let scale = 10f64.powf(digits as f64 - exp);
    ((d * scale).round_ties_even() / scale) as f32
}

// ---------------------------------------------------------------------------------------
// Reader

/// A decoded scalar.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Scalar {
    Bool(bool),
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
    Str(Option<DecodedStr>),
}

/// Reads the interleaved streams of one message.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    bit_index: usize,
    bit_loc: u32,
    pub(crate) mode: Mode,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8], mode: Mode) -> Self {
        Reader {
            data,
            pos: 0,
            bit_index: 0,
            bit_loc: 8,
            mode,
        }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn strict(&self) -> bool {
        self.mode == Mode::Strict
    }

    pub(crate) fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    fn eof(&self) -> Error {
        Error::at(ErrorKind::UnexpectedEof, self.pos)
    }

    /// Bits left: whole bytes left plus the free bits of the current bit byte.
    pub(crate) fn remaining_bits(&self) -> usize {
        let free_bits = if self.bit_loc > 7 {
            0
        } else {
            8 - self.bit_loc as usize
        };
        self.remaining().saturating_mul(8).saturating_add(free_bits)
    }

    pub(crate) fn peek_byte(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn read_byte(&mut self) -> Result<u8> {
        let b = self.data.get(self.pos).copied().ok_or_else(|| self.eof())?;
        self.pos += 1;
        Ok(b)
    }

    fn read_slice(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).ok_or_else(|| self.eof())?;
        let s = self.data.get(self.pos..end).ok_or_else(|| self.eof())?;
        self.pos = end;
        Ok(s)
    }

    fn bit_byte(&self) -> u32 {
        self.data.get(self.bit_index).copied().unwrap_or(0) as u32
    }

    /// Reads an `n`-bit field (mirror of [`Writer::write_bits`]).
    pub(crate) fn read_bits(&mut self, n: u32) -> Result<u32> {
        let mask = (1u32 << n) - 1;
        if self.bit_loc > 7 {
            self.bit_index = self.pos;
            self.read_byte()?;
            self.bit_loc = n;
            Ok(self.bit_byte() & mask)
        } else if self.bit_loc + n <= 8 {
            let v = (self.bit_byte() >> self.bit_loc) & mask;
            self.bit_loc += n;
            Ok(v)
        } else {
            let low = 8 - self.bit_loc;
            let lo = self.bit_byte() >> self.bit_loc;
            self.bit_index = self.pos;
            self.read_byte()?;
            let hi = self.bit_byte() & ((1u32 << (n - low)) - 1);
            self.bit_loc = n - low;
            Ok(lo | (hi << low))
        }
    }

    fn read_le(&mut self, n: u32) -> Result<u64> {
        let s = self.read_slice(n as usize)?;
        let mut b = [0u8; 8];
        for (dst, src) in b.iter_mut().zip(s) {
            *dst = *src;
        }
        Ok(u64::from_le_bytes(b))
    }

    /// Reads a VarLength; `None` = null. Checks that `count * min_bits_per_item` fits in what
    /// is left of the input.
    pub(crate) fn read_len(&mut self, min_bits_per_item: u64) -> Result<Option<usize>> {
        let start = self.pos;
        let mut v: u64 = 0;
        let mut shift = 0;
        let mut used = 0;
        loop {
            let b = self.read_byte()?;
            used += 1;
            v |= ((b & 0x7F) as u64) << shift;
            if b & 0x80 == 0 {
                if self.strict() && used > 1 && b == 0 {
                    return Err(Error::at(ErrorKind::OverlongLength, start));
                }
                break;
            }
            shift += 7;
            if used == 5 {
                return Err(Error::at(ErrorKind::LengthTooLarge { len: v }, start));
            }
        }
        if v == 0 {
            return Ok(None);
        }
        let n = v - 1;
        if n > i32::MAX as u64 - 1 {
            return Err(Error::at(ErrorKind::LengthTooLarge { len: n }, start));
        }
        let free_bits = if self.bit_loc > 7 {
            0
        } else {
            8 - self.bit_loc as u64
        };
        let avail_bits = (self.remaining() as u64) * 8 + free_bits;
        if n.saturating_mul(min_bits_per_item) > avail_bits {
            return Err(Error::at(ErrorKind::LengthTooLarge { len: n }, start));
        }
        Ok(Some(n as usize))
    }

    /// Reads an integer-like base type as i128.
    pub(crate) fn read_int(&mut self, ty: BaseType) -> Result<i128> {
        let start = self.pos;
        match ty.layout() {
            Layout::Bits(n) => Ok(self.read_bits(n)? as i128),
            Layout::Int { bytes, signed } => Ok(extend(self.read_le(bytes)?, bytes, signed)),
            Layout::VarInt { tag_bits, signed } => {
                let k = self.read_bits(tag_bits)? + 1;
                let v = extend(self.read_le(k)?, k, signed);
                if self.strict() && k > 1 {
                    let (l, h) = range(k - 1, signed);
                    if v >= l && v <= h {
                        return Err(Error::at(ErrorKind::VarIntTooWide { ty }, start));
                    }
                }
                Ok(v)
            }
            _ => Err(Error::at(
                ErrorKind::TypeMismatch(format!("{ty} is not an integer type").into()),
                start,
            )),
        }
    }

    /// Reads any base type.
    pub(crate) fn read_scalar(&mut self, ty: BaseType) -> Result<Scalar> {
        let start = self.pos;
        Ok(match ty.layout() {
            Layout::Bits(1) => Scalar::Bool(self.read_bits(1)? != 0),
            Layout::Bits(_) | Layout::Int { .. } | Layout::VarInt { .. } => {
                let v = self.read_int(ty)?;
                if ty.is_signed_int() {
                    Scalar::Int(v as i64)
                } else {
                    Scalar::UInt(v as u64)
                }
            }
            Layout::Float8 => Scalar::F32(self.read_byte()? as f32 / 255.0),
            Layout::Float16 => {
                let s = self.read_slice(2)?;
                match s {
                    [a, b] => Scalar::F32(float16_decode(*a, *b)),
                    _ => return Err(self.eof()),
                }
            }
            Layout::Float24 => {
                let s = self.read_slice(3)?;
                match s {
                    [a, b, c] => Scalar::F32(float24_decode(*a, *b, *c)),
                    _ => return Err(self.eof()),
                }
            }
            Layout::Float32 => Scalar::F32(f32::from_bits(self.read_le(4)? as u32)),
            Layout::Float64 => Scalar::F64(f64::from_bits(self.read_le(8)?)),
            Layout::Str => Scalar::Str(self.read_str(ty).map_err(|e| e.or_at(start))?),
        })
    }

    fn read_str(&mut self, ty: BaseType) -> Result<Option<DecodedStr>> {
        let start = self.pos;
        let per_item = match ty {
            BaseType::Unicode => 16,
            _ => 8,
        };
        let Some(n) = self.read_len(per_item)? else {
            return Ok(None);
        };
        let strict = self.strict();
        let bad = |msg: String| Error::at(ErrorKind::InvalidString(msg.into()), start);
        Ok(Some(match ty {
            BaseType::Utf8 => {
                let bytes = self.read_slice(n)?;
                match std::str::from_utf8(bytes) {
                    Ok(s) => DecodedStr::Text(s.to_owned()),
                    Err(e) if strict => return Err(bad(format!("UTF8: {e}"))),
                    Err(_) => DecodedStr::Text(String::from_utf8_lossy(bytes).into_owned()),
                }
            }
            BaseType::Ascii => {
                let bytes = self.read_slice(n)?;
                if strict && bytes.iter().any(|b| *b >= 0x80) {
                    return Err(bad("ASCII byte >= 0x80".into()));
                }
                DecodedStr::Text(
                    bytes
                        .iter()
                        .map(|b| if *b < 0x80 { *b as char } else { '?' })
                        .collect(),
                )
            }
            BaseType::Unicode => {
                let len = n.checked_mul(2).ok_or_else(|| self.eof())?;
                let bytes = self.read_slice(len)?;
                let units: Vec<u16> = bytes
                    .chunks_exact(2)
                    .map(|c| match c {
                        [a, b] => u16::from_le_bytes([*a, *b]),
                        _ => 0,
                    })
                    .collect();
                match String::from_utf16(&units) {
                    Ok(s) => DecodedStr::Text(s),
                    // The C# writer replaces lone surrogates by U+FFFD, so it never writes
                    // them; the C# reader returns them as they are.
                    Err(_) if strict => {
                        return Err(bad(
                            "Unicode: lone surrogate (never written by the reference)".into(),
                        ));
                    }
                    Err(_) => DecodedStr::Utf16(units),
                }
            }
            BaseType::VarUnicode => {
                let mut units: Vec<u16> = Vec::with_capacity(n);
                for _ in 0..n {
                    let p = self.read_int(BaseType::VarUInt32)? as u32;
                    if p > 0x10FFFF {
                        return Err(bad(format!("code point {p:#X} above U+10FFFF")));
                    }
                    if strict && (0xD800..0xDC00).contains(&p) {
                        // The C# writer throws on lone high surrogates and writes pairs as
                        // one code point, so a high-surrogate code point is never written.
                        return Err(bad(format!("VarUnicode: high surrogate code point {p:#X}")));
                    }
                    if (0xD800..0xE000).contains(&p) {
                        units.push(p as u16);
                    } else if let Some(c) = char::from_u32(p) {
                        let mut b = [0u16; 2];
                        units.extend_from_slice(c.encode_utf16(&mut b));
                    }
                }
                match String::from_utf16(&units) {
                    Ok(s) => DecodedStr::Text(s),
                    Err(_) => DecodedStr::Utf16(units),
                }
            }
            _ => return Err(bad(format!("{ty} is not a string type"))),
        }))
    }

    /// Strict-mode end-of-message checks: no trailing bytes, unused bits zero.
    pub(crate) fn finish(&self) -> Result<()> {
        if !self.strict() {
            return Ok(());
        }
        if self.bit_loc <= 7 && (self.bit_byte() >> self.bit_loc) != 0 {
            return Err(Error::at(ErrorKind::UnusedBitsSet, self.bit_index));
        }
        if self.remaining() > 0 {
            return Err(Error::at(
                ErrorKind::TrailingBytes {
                    count: self.remaining(),
                },
                self.pos,
            ));
        }
        Ok(())
    }
}

fn extend(v: u64, bytes: u32, signed: bool) -> i128 {
    let bits = bytes * 8;
    if signed && bits < 64 {
        let shift = 64 - bits;
        (((v << shift) as i64) >> shift) as i128
    } else if signed {
        v as i64 as i128
    } else {
        v as i128
    }
}
