//! A plain serde encoder for the Godot 4 Variant format, as issue 14 measured it: the same
//! serde call chain as ours, each struct key written as a String Variant from its
//! `&'static str`, Dictionary and Array counts from serde's `len`, headers with single
//! `extend_from_slice` calls, a math marker's components written straight out. It knows only
//! what the bench datasets use (ints, f32, strings, `Option`, sequences, structs, Vector2,
//! Vector3, PackedStringArray) and lacks our checks (no NUL check, no depth limit, no
//! inference, no count patching): a floor for the per-value work, not a usable encoder. The
//! bench asserts that it writes our bytes.

use std::fmt;

use serde::Serialize;
use serde::ser::{self, Impossible};

#[derive(Debug)]
pub struct PlainError(String);

impl fmt::Display for PlainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlainError {}

impl ser::Error for PlainError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        PlainError(msg.to_string())
    }
}

type R = Result<(), PlainError>;

/// Appends `v`'s encoding to `out`.
pub fn to_vec_into<T: Serialize>(v: &T, out: &mut Vec<u8>) {
    v.serialize(&mut Plain {
        out,
        packed_strings: false,
    })
    .unwrap();
}

pub struct Plain<'a> {
    out: &'a mut Vec<u8>,
    /// Inside a PackedStringArray: strings are bare String fields with a NUL.
    packed_strings: bool,
}

const NIL: u32 = 0;
const INT: u32 = 2;
const FLOAT: u32 = 3;
const STRING: u32 = 4;
const VECTOR2: u32 = 5;
const VECTOR3: u32 = 9;
const DICTIONARY: u32 = 27;
const ARRAY: u32 = 28;
const PACKED_STRING_ARRAY: u32 = 34;

impl Plain<'_> {
    #[inline]
    fn words(&mut self, a: u32, b: u32) {
        self.out
            .extend_from_slice(&(u64::from(a) | u64::from(b) << 32).to_le_bytes());
    }

    #[inline]
    fn text(&mut self, head: u32, s: &[u8]) {
        self.words(head, s.len() as u32);
        self.out.extend_from_slice(s);
        let pad = s.len().next_multiple_of(4) - s.len();
        self.out.extend_from_slice(&[0; 3][..pad]);
    }

    #[inline]
    fn int(&mut self, v: i64) {
        match i32::try_from(v) {
            Ok(small) => self.words(INT, small as u32),
            Err(_) => {
                self.out.extend_from_slice(&(INT | 1 << 16).to_le_bytes());
                self.out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
}

macro_rules! ints {
    ($($m:ident($t:ty);)*) => {$(
        #[inline]
        fn $m(self, v: $t) -> R {
            self.int(v as i64);
            Ok(())
        }
    )*};
}

macro_rules! unsupported {
    ($($m:ident($($arg:ty),*);)*) => {$(
        fn $m(self $(, _: $arg)*) -> R {
            Err(PlainError(stringify!($m).into()))
        }
    )*};
}

impl<'a, 'o> ser::Serializer for &'a mut Plain<'o> {
    type Ok = ();
    type Error = PlainError;
    type SerializeSeq = Compound<'a, 'o>;
    type SerializeTuple = Impossible<(), PlainError>;
    type SerializeTupleStruct = Compound<'a, 'o>;
    type SerializeTupleVariant = Impossible<(), PlainError>;
    type SerializeMap = Impossible<(), PlainError>;
    type SerializeStruct = Compound<'a, 'o>;
    type SerializeStructVariant = Impossible<(), PlainError>;

    fn is_human_readable(&self) -> bool {
        false
    }

    ints! {
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> R {
        self.words(FLOAT, v.to_bits());
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> R {
        self.serialize_f32(v as f32)
    }
    #[inline]
    fn serialize_str(self, v: &str) -> R {
        if self.packed_strings {
            // Length counts the NUL terminator.
            let n = v.len() + 1;
            self.out.extend_from_slice(&(n as u32).to_le_bytes());
            self.out.extend_from_slice(v.as_bytes());
            let pad = n.next_multiple_of(4) - n;
            self.out.extend_from_slice(&[0; 4][..1 + pad]);
        } else {
            self.text(STRING, v.as_bytes());
        }
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> R {
        self.out.extend_from_slice(&NIL.to_le_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> R {
        v.serialize(self)
    }
    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, v: &T) -> R {
        if name == "$godot_serde::PackedStringArray" {
            self.out
                .extend_from_slice(&PACKED_STRING_ARRAY.to_le_bytes());
            self.packed_strings = true;
            let r = v.serialize(&mut *self);
            self.packed_strings = false;
            return r;
        }
        v.serialize(self)
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 'o>, PlainError> {
        let n = len.ok_or_else(|| PlainError("unknown length".into()))? as u32;
        if self.packed_strings {
            self.out.extend_from_slice(&n.to_le_bytes());
        } else {
            self.words(ARRAY, n);
        }
        Ok(Compound { p: self })
    }
    #[inline]
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'o>, PlainError> {
        let head = match name {
            "$godot_serde::Vector2" => VECTOR2,
            "$godot_serde::Vector3" => VECTOR3,
            _ => return Err(PlainError(name.into())),
        };
        self.out.extend_from_slice(&head.to_le_bytes());
        // The components follow as bare f32 words (see `MathField`).
        Ok(Compound { p: self })
    }
    #[inline]
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'o>, PlainError> {
        self.words(DICTIONARY, len as u32);
        Ok(Compound { p: self })
    }

    unsupported! {
        serialize_bool(bool);
        serialize_char(char);
        serialize_bytes(&[u8]);
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> R {
        Err(PlainError("newtype variant".into()))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, PlainError> {
        Err(PlainError("tuple".into()))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, PlainError> {
        Err(PlainError("tuple variant".into()))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, PlainError> {
        Err(PlainError("map".into()))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, PlainError> {
        Err(PlainError("struct variant".into()))
    }
}

pub struct Compound<'a, 'o> {
    p: &'a mut Plain<'o>,
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = PlainError;
    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> R {
        v.serialize(&mut *self.p)
    }
    #[inline]
    fn end(self) -> R {
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = PlainError;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, v: &T) -> R {
        self.p.text(STRING, key.as_bytes());
        v.serialize(&mut *self.p)
    }
    #[inline]
    fn end(self) -> R {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = PlainError;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> R {
        v.serialize(MathField(&mut *self.p.out))
    }
    #[inline]
    fn end(self) -> R {
        Ok(())
    }
}

/// One math component: a bare f32 word.
struct MathField<'a>(&'a mut Vec<u8>);

impl ser::Serializer for MathField<'_> {
    type Ok = ();
    type Error = PlainError;
    type SerializeSeq = Impossible<(), PlainError>;
    type SerializeTuple = Impossible<(), PlainError>;
    type SerializeTupleStruct = Impossible<(), PlainError>;
    type SerializeTupleVariant = Impossible<(), PlainError>;
    type SerializeMap = Impossible<(), PlainError>;
    type SerializeStruct = Impossible<(), PlainError>;
    type SerializeStructVariant = Impossible<(), PlainError>;

    #[inline]
    fn serialize_f32(self, v: f32) -> R {
        self.0.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> R {
        self.serialize_f32(v as f32)
    }

    unsupported! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> R {
        Err(PlainError("some".into()))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> R {
        Err(PlainError("newtype".into()))
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> R {
        Err(PlainError("variant".into()))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, PlainError> {
        Err(PlainError("seq".into()))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, PlainError> {
        Err(PlainError("tuple".into()))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, PlainError> {
        Err(PlainError("tuple struct".into()))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, PlainError> {
        Err(PlainError("variant".into()))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, PlainError> {
        Err(PlainError("map".into()))
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, PlainError> {
        Err(PlainError("struct".into()))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, PlainError> {
        Err(PlainError("variant".into()))
    }
}
