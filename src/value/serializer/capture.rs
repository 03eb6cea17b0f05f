//! Restricted serializers that capture one scalar from a marker's payload: a math
//! component, an id, packed bytes.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Takes one number (a math component): its value, and its integer value if it is one.
pub(super) struct NumberCapture;

macro_rules! capture_int {
    ($($m:ident($t:ty)),*) => {$(
        fn $m(self, v: $t) -> Result<(f64, Option<i64>)> {
            let int = i64::try_from(v).ok();
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            Ok((v as f64, int))
        }
    )*};
}

macro_rules! capture_miss {
    ($($m:ident($($t:ty),*)),*) => {$(
        fn $m(self, $(_: $t),*) -> Result<(f64, Option<i64>)> {
            Err(unsupported("a math type component that is not a number"))
        }
    )*};
}

impl ser::Serializer for NumberCapture {
    type Ok = (f64, Option<i64>);
    type Error = Error;
    type SerializeSeq = Impossible<Self::Ok, Error>;
    type SerializeTuple = Impossible<Self::Ok, Error>;
    type SerializeTupleStruct = Impossible<Self::Ok, Error>;
    type SerializeTupleVariant = Impossible<Self::Ok, Error>;
    type SerializeMap = Impossible<Self::Ok, Error>;
    type SerializeStruct = Impossible<Self::Ok, Error>;
    type SerializeStructVariant = Impossible<Self::Ok, Error>;

    fn is_human_readable(&self) -> bool {
        false
    }

    capture_int!(
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64)
    );

    fn serialize_f32(self, v: f32) -> Result<Self::Ok> {
        Ok((v.into(), None))
    }
    fn serialize_f64(self, v: f64) -> Result<Self::Ok> {
        Ok((v, None))
    }

    capture_miss!(
        serialize_bool(bool),
        serialize_i128(i128),
        serialize_u128(u128),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str)
    );

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<Self::Ok> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<Self::Ok> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(unsupported("a math type component that is not a number"))
    }
}

/// What a [`Capture`] takes: the payload of a RID or object-id marker, or of a packed array.
#[derive(Clone, Copy)]
enum Want {
    /// An integer that fits a u64.
    Id,
    /// Bytes (`serialize_bytes`).
    Bytes,
}

/// What a [`Capture`] took.
enum Captured {
    Id(u64),
    Bytes(Vec<u8>),
}

/// The payload of a marker whose byte serializer field takes one id or one run of bytes:
/// what that field accepts is taken, anything else is the same kind of error as there.
struct Capture(Want);

impl Capture {
    #[cold]
    fn refuse(self, what: &str) -> Error {
        let expected = match self.0 {
            Want::Id => "a u64 id",
            Want::Bytes => "packed array bytes",
        };
        Error::new(ErrorKind::Message(
            format!("invalid marker field: {what}, expected {expected}").into(),
        ))
    }

    fn id(self, v: Option<u64>) -> Result<Captured> {
        match (self.0, v) {
            (Want::Id, Some(id)) => Ok(Captured::Id(id)),
            (Want::Id, None) => Err(self.refuse("a negative or fractional number")),
            (Want::Bytes, _) => Err(self.refuse("a number")),
        }
    }
}

/// `Capture` methods that take an integer.
macro_rules! capture_int {
    ($($m:ident($t:ty))*) => {$(
        fn $m(self, v: $t) -> Result<Captured> {
            self.id(u64::try_from(v).ok())
        }
    )*};
}

/// `Capture` methods that refuse what they are given.
macro_rules! refuse {
    ($($m:ident($($t:ty),*) $what:literal;)*) => {$(
        fn $m(self, $(_: $t),*) -> Result<Captured> {
            Err(self.refuse($what))
        }
    )*};
}

impl ser::Serializer for Capture {
    type Ok = Captured;
    type Error = Error;
    type SerializeSeq = Impossible<Captured, Error>;
    type SerializeTuple = Impossible<Captured, Error>;
    type SerializeTupleStruct = Impossible<Captured, Error>;
    type SerializeTupleVariant = Impossible<Captured, Error>;
    type SerializeMap = Impossible<Captured, Error>;
    type SerializeStruct = Impossible<Captured, Error>;
    type SerializeStructVariant = Impossible<Captured, Error>;

    capture_int! {
        serialize_u8(u8) serialize_u16(u16) serialize_u32(u32) serialize_u64(u64)
        serialize_i8(i8) serialize_i16(i16) serialize_i32(i32) serialize_i64(i64)
    }
    fn serialize_f32(self, _: f32) -> Result<Captured> {
        self.id(None)
    }
    fn serialize_f64(self, _: f64) -> Result<Captured> {
        self.id(None)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Captured> {
        match self.0 {
            Want::Bytes => Ok(Captured::Bytes(v.to_vec())),
            Want::Id => Err(self.refuse("bytes")),
        }
    }
    refuse! {
        serialize_bool(bool) "a bool";
        serialize_char(char) "a char";
        serialize_str(&str) "a string";
        serialize_none() "none";
        serialize_unit() "unit";
        serialize_unit_struct(&'static str) "a unit struct";
        serialize_unit_variant(&'static str, u32, &'static str) "an enum";
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Captured> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Captured> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Captured> {
        Err(self.refuse("an enum"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(self.refuse("a sequence"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(self.refuse("a sequence"))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(self.refuse("a tuple struct"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self.refuse("an enum"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(self.refuse("a map"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(self.refuse("a struct"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self.refuse("an enum"))
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The id of a RID or object-id marker's payload (see [`Capture`]).
pub(super) fn capture_id<T: ?Sized + Serialize>(value: &T) -> Result<u64> {
    match value.serialize(Capture(Want::Id))? {
        Captured::Id(id) => Ok(id),
        Captured::Bytes(_) => Err(Capture(Want::Id).refuse("bytes")),
    }
}

/// A PackedVector2Array, PackedVector3Array or PackedVector4Array from its marker's payload
/// bytes (components of `marker_wide` width), as encoding them for a build with
/// `wire_wide` components and decoding them again gives it: each component goes through the
/// wire's width (`as` narrows, as both the encoder and the decoder do).
pub(super) fn packed_vectors<T: ?Sized + Serialize>(
    ty: VariantType,
    value: &T,
    marker_wide: bool,
    wire_wide: bool,
) -> Result<Variant> {
    let bytes = match value.serialize(Capture(Want::Bytes))? {
        Captured::Bytes(b) => b,
        Captured::Id(_) => return Err(Capture(Want::Bytes).refuse("a number")),
    };
    let n = match ty {
        VariantType::PackedVector2Array => 2,
        VariantType::PackedVector3Array => 3,
        _ => 4,
    };
    let width = if marker_wide { 8 } else { 4 };
    if !bytes.len().is_multiple_of(n * width) {
        return Err(
            Capture(Want::Bytes).refuse("a byte length that is not a whole number of elements")
        );
    }
    /// A component as the wire holds it.
    enum Wire {
        Narrow(f32),
        Wide(f64),
    }
    #[allow(clippy::cast_possible_truncation, clippy::unnecessary_cast)]
    let reals: Vec<Real> = bytes
        .chunks_exact(width)
        .map(|c| {
            let mut w = [0; 8];
            w.get_mut(..width).unwrap_or_default().copy_from_slice(c);
            let [a, b, c, d, ..] = w;
            // The encoder copies equal widths and converts with `as` otherwise; the decoder
            // reads the wire's width into `Real` with `as` (a no-op for equal widths).
            let wire = match (marker_wide, wire_wide) {
                (true, true) => Wire::Wide(f64::from_le_bytes(w)),
                (true, false) => Wire::Narrow(f64::from_le_bytes(w) as f32),
                (false, true) => Wire::Wide(f64::from(f32::from_le_bytes([a, b, c, d]))),
                (false, false) => Wire::Narrow(f32::from_le_bytes([a, b, c, d])),
            };
            match wire {
                Wire::Narrow(x) => x as Real,
                Wire::Wide(x) => x as Real,
            }
        })
        .collect();
    fn vectors<T: bytemuck::Pod>(reals: &[Real]) -> Result<Vec<T>> {
        bytemuck::try_cast_slice(reals)
            .map(<[T]>::to_vec)
            .map_err(|_| unsupported("packed vectors from their components"))
    }
    Ok(match ty {
        VariantType::PackedVector2Array => {
            Variant::PackedVector2Array(crate::types::PackedVector2Array(vectors(&reals)?))
        }
        VariantType::PackedVector3Array => {
            Variant::PackedVector3Array(crate::types::PackedVector3Array(vectors(&reals)?))
        }
        _ => Variant::PackedVector4Array(crate::types::PackedVector4Array(vectors(&reals)?)),
    })
}
