//! A Rust value written straight into a call's argument list: a serde `Serializer` that
//! writes the layout (Godot 4's meta bytes and compressed ints and bools, or Godot 3's plain
//! values), no `Variant` in between.
//!
//! The value's shape gives the list as [`to_arguments`](super::to_arguments) documents it: a
//! tuple, sequence or struct is one argument per element or field, `()` and `None` none, any
//! other value the single argument. Each argument that is not an int or a bool is written
//! by the root crate's [`godot_serde::Serializer`], so the bytes are `encode_variant`'s. The
//! shapes whose arguments the `Variant` path takes from a Dictionary (a map, an enum variant
//! with data, a typed Dictionary or Array as the whole list) are left to that path: they
//! are no RPC's usual shape, and it is the reference.

use core::fmt;

use godot_serde::{Serializer as GdSer, VariantType};
use serde::ser::{self, Serialize};

use super::de::Dialect;

/// Why the direct path stopped, boxed: every argument returns a `Result` with it, and a
/// one-pointer error keeps that in a register (an unboxed one came back through memory and
/// the caller's wide load of it stalled on the narrow stores).
#[derive(Debug)]
pub(crate) struct EncError(Box<EncKind>);

#[derive(Debug)]
enum EncKind {
    /// The root serializer's error for an argument.
    Value(godot_serde::Error),
    /// A shape the `Variant` path handles (see the module doc).
    Fallback,
    /// A `Serialize` impl's own error.
    Custom(String),
    /// The root serializer's error for the argument it names (its offset would be in our
    /// buffer, not the caller's).
    Argument(String),
}

impl EncError {
    #[cold]
    fn new(kind: EncKind) -> Self {
        EncError(Box::new(kind))
    }

    /// A shape left to the `Variant` path.
    #[cold]
    fn fallback() -> Self {
        Self::new(EncKind::Fallback)
    }

    /// Whether the direct path left the value to the `Variant` path.
    pub(crate) fn is_fallback(&self) -> bool {
        matches!(*self.0, EncKind::Fallback)
    }
}

impl From<EncError> for crate::ProtocolError {
    fn from(e: EncError) -> Self {
        match *e.0 {
            EncKind::Value(e) => Self::EncodeValue(e.into()),
            EncKind::Custom(m) => Self::Encode(m),
            EncKind::Argument(m) => Self::EncodeValue(crate::FormatError::custom(&m)),
            EncKind::Fallback => Self::Encode(e.to_string()),
        }
    }
}

impl fmt::Display for EncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            EncKind::Value(e) => e.fmt(f),
            EncKind::Fallback => f.write_str("shape left to the Variant path"),
            EncKind::Custom(m) | EncKind::Argument(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for EncError {}

impl ser::Error for EncError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::new(EncKind::Custom(msg.to_string()))
    }
}

impl From<godot_serde::Error> for EncError {
    #[cold]
    fn from(e: godot_serde::Error) -> Self {
        Self::new(EncKind::Value(e))
    }
}

/// The list being written.
pub(crate) struct Encoder {
    ser: GdSer<Vec<u8>>,
    dialect: Dialect,
    /// Arguments written so far.
    pub(crate) count: usize,
}

impl Encoder {
    /// Writes after what `out` holds.
    #[inline]
    pub(crate) fn new(dialect: Dialect, out: Vec<u8>) -> Self {
        Encoder {
            ser: GdSer::new(out, dialect.config()),
            dialect,
            count: 0,
        }
    }

    /// The list of `value` (see the module doc).
    #[inline]
    pub(crate) fn list<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncError> {
        value.serialize(List { enc: self })
    }

    /// The count of arguments written, at most 255.
    pub(crate) fn checked_count(&self) -> Result<u8, crate::ProtocolError> {
        u8::try_from(self.count).map_err(|_| crate::ProtocolError::TooManyArguments(self.count))
    }

    /// The bytes written.
    #[inline]
    pub(crate) fn into_inner(self) -> Vec<u8> {
        self.ser.into_inner()
    }

    #[inline]
    fn arg(&mut self) -> Arg<'_> {
        self.count += 1;
        Arg { enc: self }
    }
}

/// One argument.
struct Arg<'a> {
    enc: &'a mut Encoder,
}

impl Arg<'_> {
    fn compressed(&self) -> bool {
        self.enc.dialect == Dialect::Godot4
    }

    #[inline]
    fn int(self, v: i64) {
        super::put_int(self.enc.ser.output_mut(), v);
    }
}

macro_rules! arg_int {
    ($($name:ident($t:ty))*) => {$(
        #[inline]
        fn $name(self, v: $t) -> Result<(), godot_serde::Error> {
            match i64::try_from(v) {
                Ok(v) if self.compressed() => {
                    self.int(v);
                    Ok(())
                }
                _ => ser::Serializer::$name(&mut self.enc.ser, v),
            }
        }
    )*};
}

macro_rules! arg_forward {
    ($($name:ident($($p:ident: $t:ty),*) -> $r:ty;)*) => {$(
        #[inline]
        fn $name(self, $($p: $t),*) -> Result<$r, godot_serde::Error> {
            ser::Serializer::$name(&mut self.enc.ser, $($p),*)
        }
    )*};
}

impl<'a> ser::Serializer for Arg<'a> {
    type Ok = ();
    type Error = godot_serde::Error;
    type SerializeSeq = <&'a mut GdSer<Vec<u8>> as ser::Serializer>::SerializeSeq;
    type SerializeTuple = <&'a mut GdSer<Vec<u8>> as ser::Serializer>::SerializeTuple;
    type SerializeTupleStruct = <&'a mut GdSer<Vec<u8>> as ser::Serializer>::SerializeTupleStruct;
    type SerializeTupleVariant = <&'a mut GdSer<Vec<u8>> as ser::Serializer>::SerializeTupleVariant;
    type SerializeMap = <&'a mut GdSer<Vec<u8>> as ser::Serializer>::SerializeMap;
    type SerializeStruct = <&'a mut GdSer<Vec<u8>> as ser::Serializer>::SerializeStruct;
    type SerializeStructVariant =
        <&'a mut GdSer<Vec<u8>> as ser::Serializer>::SerializeStructVariant;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), godot_serde::Error> {
        if !self.compressed() {
            return ser::Serializer::serialize_bool(&mut self.enc.ser, v);
        }
        self.enc.ser.output_mut().push(super::bool_meta(v));
        Ok(())
    }

    arg_int! {
        serialize_i8(i8) serialize_i16(i16) serialize_i32(i32) serialize_i64(i64)
        serialize_i128(i128) serialize_u8(u8) serialize_u16(u16) serialize_u32(u32)
        serialize_u64(u64) serialize_u128(u128)
    }

    arg_forward! {
        serialize_f32(v: f32) -> ();
        serialize_f64(v: f64) -> ();
        serialize_char(v: char) -> ();
        serialize_str(v: &str) -> ();
        serialize_bytes(v: &[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(name: &'static str) -> ();
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> ();
        serialize_seq(len: Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(len: usize) -> Self::SerializeTuple;
        serialize_tuple_struct(name: &'static str, len: usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize)
            -> Self::SerializeTupleVariant;
        serialize_map(len: Option<usize>) -> Self::SerializeMap;
        serialize_struct(name: &'static str, len: usize) -> Self::SerializeStruct;
        serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize)
            -> Self::SerializeStructVariant;
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), godot_serde::Error> {
        // `Some(x)` is `x`'s Variant: compressed when it is an int or a bool.
        value.serialize(self)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), godot_serde::Error> {
        if godot_serde::marker_type(name).is_some() {
            return ser::Serializer::serialize_newtype_struct(&mut self.enc.ser, name, value);
        }
        value.serialize(self)
    }

    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), godot_serde::Error> {
        ser::Serializer::serialize_newtype_variant(&mut self.enc.ser, name, index, variant, value)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The whole list.
struct List<'a> {
    enc: &'a mut Encoder,
}

/// The elements of a tuple, sequence or struct, one argument each.
pub(crate) struct Elements<'a> {
    enc: &'a mut Encoder,
}

/// A marker tuple struct as the single argument, or a plain one as the list.
pub(crate) enum TupleStruct<'a> {
    Single(<&'a mut GdSer<Vec<u8>> as ser::Serializer>::SerializeTupleStruct),
    List(Elements<'a>),
}

macro_rules! list_single {
    ($($name:ident($($p:ident: $t:ty),*))*) => {$(
        fn $name(self, $($p: $t),*) -> Result<(), EncError> {
            Ok(ser::Serializer::$name(self.enc.arg(), $($p),*)?)
        }
    )*};
}

impl<'a> ser::Serializer for List<'a> {
    type Ok = ();
    type Error = EncError;
    type SerializeSeq = Elements<'a>;
    type SerializeTuple = Elements<'a>;
    type SerializeTupleStruct = TupleStruct<'a>;
    type SerializeTupleVariant = ser::Impossible<(), EncError>;
    type SerializeMap = ser::Impossible<(), EncError>;
    type SerializeStruct = Elements<'a>;
    type SerializeStructVariant = ser::Impossible<(), EncError>;

    list_single! {
        serialize_bool(v: bool) serialize_i8(v: i8) serialize_i16(v: i16)
        serialize_i32(v: i32) serialize_i64(v: i64) serialize_i128(v: i128)
        serialize_u8(v: u8) serialize_u16(v: u16) serialize_u32(v: u32)
        serialize_u64(v: u64) serialize_u128(v: u128) serialize_f32(v: f32)
        serialize_f64(v: f64) serialize_char(v: char) serialize_str(v: &str)
        serialize_bytes(v: &[u8])
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str)
    }

    fn serialize_none(self) -> Result<(), EncError> {
        Ok(())
    }

    fn serialize_unit(self) -> Result<(), EncError> {
        Ok(())
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<(), EncError> {
        if godot_serde::marker_type(name).is_some() {
            return Ok(ser::Serializer::serialize_unit_struct(
                self.enc.arg(),
                name,
            )?);
        }
        Ok(())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), EncError> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), EncError> {
        if godot_serde::marker_type(name).is_some() {
            return Ok(ser::Serializer::serialize_newtype_struct(
                self.enc.arg(),
                name,
                value,
            )?);
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), EncError> {
        Err(EncError::fallback())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Elements<'a>, EncError> {
        Ok(Elements { enc: self.enc })
    }

    fn serialize_tuple(self, _: usize) -> Result<Elements<'a>, EncError> {
        Ok(Elements { enc: self.enc })
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<TupleStruct<'a>, EncError> {
        match godot_serde::marker_type(name) {
            // A typed Array or Dictionary as the whole list: the `Variant` path takes its
            // elements (values) as the arguments.
            Some(VariantType::Array | VariantType::Dictionary) => Err(EncError::fallback()),
            Some(_) => {
                let inner = ser::Serializer::serialize_tuple_struct(self.enc.arg(), name, len)?;
                Ok(TupleStruct::Single(inner))
            }
            None => Ok(TupleStruct::List(Elements { enc: self.enc })),
        }
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, EncError> {
        Err(EncError::fallback())
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, EncError> {
        Err(EncError::fallback())
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Elements<'a>, EncError> {
        Ok(Elements { enc: self.enc })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, EncError> {
        Err(EncError::fallback())
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

impl Elements<'_> {
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncError> {
        let index = self.enc.count;
        match value.serialize(self.enc.arg()) {
            Ok(()) => Ok(()),
            Err(e) => Err(argument_error(index, &e)),
        }
    }
}

/// An argument's error, naming it (the root serializer's offset is in our buffer, not the
/// caller's).
#[cold]
fn argument_error(index: usize, e: &godot_serde::Error) -> EncError {
    EncError::new(EncKind::Argument(format!("argument {index}: {}", e.kind())))
}

/// Serde's compounds whose elements or fields are one argument each (`|this| elements` names
/// the [`Elements`] of `this`; `end` is the value `end` returns).
macro_rules! one_argument_each {
    ($ty:ident -> $ok:ty, |$this:ident| $elements:expr, $end:expr;
     $($tr:ident::$method:ident $(($name:ty))?)*) => {$(
        impl ser::$tr for $ty<'_> {
            type Ok = $ok;
            type Error = EncError;
            #[inline]
            fn $method<T: ?Sized + Serialize>(
                &mut self,
                $(_: $name,)?
                value: &T,
            ) -> Result<(), EncError> {
                let $this = self;
                $elements.element(value)
            }
            fn end(self) -> Result<$ok, EncError> {
                let $this = self;
                let _ = &$this;
                Ok($end)
            }
        }
    )*};
}

one_argument_each!(Elements -> (), |list| list, ();
    SerializeSeq::serialize_element SerializeTuple::serialize_element
    SerializeStruct::serialize_field(&'static str));

impl ser::SerializeTupleStruct for TupleStruct<'_> {
    type Ok = ();
    type Error = EncError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncError> {
        match self {
            TupleStruct::Single(inner) => {
                Ok(ser::SerializeTupleStruct::serialize_field(inner, value)?)
            }
            TupleStruct::List(list) => list.element(value),
        }
    }
    fn end(self) -> Result<(), EncError> {
        match self {
            TupleStruct::Single(inner) => Ok(ser::SerializeTupleStruct::end(inner)?),
            TupleStruct::List(_) => Ok(()),
        }
    }
}

/// An enum value as a call: the variant's name is the method, its fields the arguments (a
/// unit variant none, a newtype variant one, a tuple or struct variant one per field).
pub(crate) struct CallSer<'a> {
    pub(crate) enc: &'a mut Encoder,
}

/// A tuple or struct variant's fields, one argument each.
pub(crate) struct VariantFields<'a> {
    fields: Elements<'a>,
    variant: &'static str,
}

one_argument_each!(VariantFields -> &'static str, |call| call.fields, call.variant;
    SerializeTupleVariant::serialize_field SerializeStructVariant::serialize_field(&'static str));

macro_rules! not_a_call {
    ($($name:ident($($p:ident: $t:ty),*) -> $r:ty;)*) => {$(
        fn $name(self, $($p: $t),*) -> Result<$r, EncError> {
            $(let _ = $p;)*
            Err(EncError::new(EncKind::Custom(
                "an RPC set's value is an enum variant (the method) with the arguments as fields"
                    .into(),
            )))
        }
    )*};
}

impl<'a> ser::Serializer for CallSer<'a> {
    type Ok = &'static str;
    type Error = EncError;
    type SerializeSeq = ser::Impossible<&'static str, EncError>;
    type SerializeTuple = ser::Impossible<&'static str, EncError>;
    type SerializeTupleStruct = ser::Impossible<&'static str, EncError>;
    type SerializeTupleVariant = VariantFields<'a>;
    type SerializeMap = ser::Impossible<&'static str, EncError>;
    type SerializeStruct = ser::Impossible<&'static str, EncError>;
    type SerializeStructVariant = VariantFields<'a>;

    not_a_call! {
        serialize_bool(v: bool) -> &'static str;
        serialize_i8(v: i8) -> &'static str;
        serialize_i16(v: i16) -> &'static str;
        serialize_i32(v: i32) -> &'static str;
        serialize_i64(v: i64) -> &'static str;
        serialize_u8(v: u8) -> &'static str;
        serialize_u16(v: u16) -> &'static str;
        serialize_u32(v: u32) -> &'static str;
        serialize_u64(v: u64) -> &'static str;
        serialize_f32(v: f32) -> &'static str;
        serialize_f64(v: f64) -> &'static str;
        serialize_char(v: char) -> &'static str;
        serialize_str(v: &str) -> &'static str;
        serialize_bytes(v: &[u8]) -> &'static str;
        serialize_none() -> &'static str;
        serialize_unit() -> &'static str;
        serialize_unit_struct(name: &'static str) -> &'static str;
        serialize_seq(len: Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(len: usize) -> Self::SerializeTuple;
        serialize_tuple_struct(name: &'static str, len: usize) -> Self::SerializeTupleStruct;
        serialize_map(len: Option<usize>) -> Self::SerializeMap;
        serialize_struct(name: &'static str, len: usize) -> Self::SerializeStruct;
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<&'static str, EncError> {
        self.serialize_none()
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<&'static str, EncError> {
        value.serialize(self)
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<&'static str, EncError> {
        Ok(variant)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<&'static str, EncError> {
        // The one argument, whatever its shape (a struct is one Dictionary here).
        let mut fields = Elements { enc: self.enc };
        fields.element(value)?;
        Ok(variant)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<VariantFields<'a>, EncError> {
        Ok(VariantFields {
            fields: Elements { enc: self.enc },
            variant,
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantFields<'a>, EncError> {
        // The fields in order, as a tuple variant's: their names play no part.
        self.serialize_tuple_variant(name, index, variant, len)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::EncError;

    /// Every argument written returns a `Result` with this error: one pointer keeps it in a
    /// register (the five-field enum it replaced was 32 bytes, returned through memory).
    #[test]
    fn the_error_is_one_pointer() {
        assert_eq!(size_of::<EncError>(), size_of::<usize>());
        assert_eq!(size_of::<Result<(), EncError>>(), size_of::<usize>());
    }
}
