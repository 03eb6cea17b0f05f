//! `serde::Deserializer` for [`Deserializer`]: the data model methods over the reading
//! primitives in `mod.rs`.

#[allow(clippy::wildcard_imports)]
use super::*;

impl<'de, R: Read<'de>> de::Deserializer<'de> for &mut Deserializer<R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        self.visit_value(h, visitor).map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    #[inline]
    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.int_scalar(visitor)
    }
    #[inline]
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Some(v) = self.fast_f32() {
            return visitor.visit_f32(v).map_err(|e| self.fast_error(e, 8));
        }
        self.f32_value(visitor)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }
    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.str_scalar(visitor)
    }
    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.str_scalar(visitor)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.scalar(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::PackedByteArray => self.visit_packed_bytes(visitor),
            VariantType::Array | VariantType::String => self.visit_value(h, visitor),
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // A header already read ahead: an Option inside an Option (or a type that recurses
        // through `Option`, `struct Chain(Option<Box<Chain>>)`) reads the same header again
        // without consuming input, so such a step counts as a level, or it would recurse
        // until the stack overflows.
        let again = self.peeked.is_some() && self.peeked_by_option;
        let h = self.read_header()?;
        if h.ty == VariantType::Nil {
            return visitor.visit_none();
        }
        self.peeked = Some(h);
        self.peeked_by_option = true;
        if !again {
            return visitor.visit_some(self);
        }
        // The level `nested` is about to enter must allow a value.
        let mut inner = self.rd.depth;
        inner.enter();
        inner.check(h.offset)?;
        self.nested(|de| visitor.visit_some(de))
    }

    #[inline(always)]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(m) = marker_inline(name) {
            return self.marker_value(m, visitor);
        }
        self.scalar(visitor)
    }

    #[inline(always)]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(m) = marker_inline(name) {
            return self.marker_value(m, visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::Array => {
                self.skip_array_descriptor(h)?;
                self.visit_array(visitor)
            }
            VariantType::PackedStringArray => self.visit_packed_strings(visitor),
            ty if Elem::of(ty).is_some() => {
                let wide = h.wide(self.version());
                let elem = Elem::of(ty).unwrap_or(Elem::BYTE);
                self.visit_packed_elements(elem, wide, visitor)
            }
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    #[inline(always)]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(m) = marker_inline(name) {
            if let Some((n, scalar)) = m.ty.components() {
                return self.math_value(m, n, scalar, visitor);
            }
            return self.marker_value(m, visitor);
        }
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.keyed(None, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.keyed(Some(fields), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match h.ty {
            VariantType::String | VariantType::StringName => {
                self.read_str("enum variant", UnitEnum(visitor))
            }
            VariantType::Int => {
                let index = self.rd.read_int(h.head)?;
                if !self.rd.config.enum_indices() {
                    return Err(enum_index_refused(name, index).or_at(h.offset));
                }
                let index = u32::try_from(index).map_err(|_| {
                    <Error as de::Error>::invalid_value(
                        Unexpected::Signed(index),
                        &"a variant index",
                    )
                })?;
                visitor.visit_enum(de::value::U32Deserializer::<Error>::new(index))
            }
            VariantType::Dictionary => {
                self.skip_dictionary_descriptors(h)?;
                let count = self.read_u32()? & COUNT_MASK;
                if count != 1 {
                    return Err(Error::at(
                        ErrorKind::EnumShape {
                            entries: count as usize,
                        },
                        h.offset,
                    ));
                }
                let key_at = self.rd.offset();
                self.nested(|de| visitor.visit_enum(EnumDictionary { de, key_at, name }))
            }
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.identifier(&mut KnownKeys::none(), false, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// A map (`fields` `None`) or a struct with `fields`: a Dictionary, whose keys a struct
    /// expects to be its field names; a struct also reads an Array as its fields in order.
    #[inline(always)]
    fn keyed<V: Visitor<'de>>(
        &mut self,
        fields: Option<&'static [&'static str]>,
        visitor: V,
    ) -> Result<V::Value> {
        let h = self.read_header()?;
        let r = match (h.ty, fields) {
            (VariantType::Dictionary, _) => {
                self.skip_dictionary_descriptors(h)?;
                self.visit_dictionary(fields.unwrap_or_default(), visitor)
            }
            (VariantType::Array, Some(_)) => {
                self.skip_array_descriptor(h)?;
                self.visit_array(visitor)
            }
            _ => Err(self.unexpected(h, &visitor)),
        };
        r.map_err(|e| e.or_at(h.offset))
    }
}
