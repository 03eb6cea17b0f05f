//! [`FieldValue`]: the serializer a struct field's value is written with.
//!
//! A struct's field makes the value's checks once, before its key: the depth limit (the key
//! and the value sit at the same depth) and, as no Array's element inference ever watches
//! the depth of a Dictionary's entries, nothing else. So a scalar value (int, float, String,
//! bool, nil, bytes) writes its header straight away; everything else goes to the
//! [`Serializer`], which makes its own checks as for any value.

use super::marker::newtype_marker;
use super::{Compound, Output, Serializer, TupleStruct};
use crate::error::{Error, Result};
use crate::types::marker;
use crate::wire::VariantType;
use serde::ser::{self, Serialize};

/// Writes a struct field's value (see the module documentation).
pub(super) struct FieldValue<'a, W>(pub(super) &'a mut Serializer<W>);

impl<'a, W: Output> ser::Serializer for FieldValue<'a, W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W>;
    type SerializeTuple = Compound<'a, W>;
    type SerializeTupleStruct = TupleStruct<'a, W>;
    type SerializeTupleVariant = Compound<'a, W>;
    type SerializeMap = Compound<'a, W>;
    type SerializeStruct = Compound<'a, W>;
    type SerializeStructVariant = Compound<'a, W>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        let word = self.0.head_if::<false>(VariantType::Bool, 0)?;
        self.0.w.out.put_words(word, u32::from(v));
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.0.put_int::<false>(v.into())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.0.put_int::<false>(v.into())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.0.put_int::<false>(v.into())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.0.put_int::<false>(v)
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result<()> {
        ser::Serializer::serialize_i128(self.0, v)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.0.put_int::<false>(v.into())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.0.put_int::<false>(v.into())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.0.put_int::<false>(v.into())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        match i64::try_from(v) {
            Ok(v) => self.0.put_int::<false>(v),
            Err(_) => ser::Serializer::serialize_u64(self.0, v),
        }
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result<()> {
        ser::Serializer::serialize_u128(self.0, v)
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.0.put_f32::<false>(v)
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.0.put_float::<false>(v)
    }

    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.0
            .put_string::<false>(VariantType::String, v.encode_utf8(&mut [0; 4]))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.0.put_string::<false>(VariantType::String, v)
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        ser::Serializer::serialize_bytes(self.0, v)
    }

    #[inline]
    fn serialize_none(self) -> Result<()> {
        let word = self.0.head_if::<false>(VariantType::Nil, 0)?;
        self.0.w.put_u32(word);
        Ok(())
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.serialize_none()
    }

    #[inline]
    fn serialize_unit_struct(self, name: &'static str) -> Result<()> {
        ser::Serializer::serialize_unit_struct(self.0, name)
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        ser::Serializer::serialize_unit_variant(self.0, name, index, variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        match marker(name) {
            Some(m) => newtype_marker(self.0, m, value),
            None => value.serialize(self),
        }
    }

    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::Serializer::serialize_newtype_variant(self.0, name, index, variant, value)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        ser::Serializer::serialize_seq(self.0, len)
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, W>> {
        ser::Serializer::serialize_tuple(self.0, len)
    }

    #[inline(always)]
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<TupleStruct<'a, W>> {
        self.0.tuple_struct::<false>(name, len)
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W>> {
        ser::Serializer::serialize_tuple_variant(self.0, name, index, variant, len)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, W>> {
        ser::Serializer::serialize_map(self.0, len)
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a, W>> {
        ser::Serializer::serialize_struct(self.0, name, len)
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W>> {
        ser::Serializer::serialize_struct_variant(self.0, name, index, variant, len)
    }
}
