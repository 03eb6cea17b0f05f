//! Wrapper types and `#[serde(with = ...)]` modules that choose a field's LiteByte type.
//!
//! Every wrapper serializes as a newtype struct with a reserved name that the LiteByte
//! serializer recognises; other serde formats see a transparent newtype.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::wire::BaseType;

const PREFIX: &str = "$litebyte::";

pub(crate) enum Marker {
    Class,
    Base(BaseType),
}

pub(crate) fn parse_marker(name: &str) -> Option<Marker> {
    let rest = name.strip_prefix(PREFIX)?;
    if rest == "Class" {
        return Some(Marker::Class);
    }
    BaseType::from_name(rest).map(Marker::Base)
}

struct NewtypeVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for NewtypeVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a LiteByte wrapper newtype")
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

fn ser_marked<T: ?Sized + Serialize, S: Serializer>(
    name: &'static str,
    v: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_newtype_struct(name, v)
}

fn de_marked<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    name: &'static str,
    d: D,
) -> Result<T, D::Error> {
    d.deserialize_newtype_struct(name, NewtypeVisitor(std::marker::PhantomData))
}

macro_rules! wrappers {
    ($($ty:ident($inner:ty), $lbname:literal;)*) => {
        $(
            #[doc = concat!("A value written as LiteByte `", $lbname, "`.")]
            #[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default)]
            pub struct $ty(pub $inner);

            impl Serialize for $ty {
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    ser_marked(concat!("$litebyte::", $lbname), &self.0, s)
                }
            }

            impl<'de> Deserialize<'de> for $ty {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    de_marked(concat!("$litebyte::", $lbname), d).map($ty)
                }
            }

            impl From<$inner> for $ty {
                fn from(v: $inner) -> Self {
                    $ty(v)
                }
            }
        )*

    };
}

wrappers! {
    Bit1(bool), "Bit1";
    Bit2(u8), "Bit2";
    Bit3(u8), "Bit3";
    Bit4(u8), "Bit4";
    Bit5(u8), "Bit5";
    Bit6(u8), "Bit6";
    Bit7(u8), "Bit7";
    Int8(i8), "Int8";
    Int16(i16), "Int16";
    Int24(i32), "Int24";
    Int32(i32), "Int32";
    Int40(i64), "Int40";
    Int48(i64), "Int48";
    Int56(i64), "Int56";
    Int64(i64), "Int64";
    UInt8(u8), "UInt8";
    UInt16(u16), "UInt16";
    UInt24(u32), "UInt24";
    UInt32(u32), "UInt32";
    UInt40(u64), "UInt40";
    UInt48(u64), "UInt48";
    UInt56(u64), "UInt56";
    UInt64(u64), "UInt64";
    Float8(f32), "Float8";
    Float16(f32), "Float16";
    Float24(f32), "Float24";
    Float32(f32), "Float32";
    Float64(f64), "Float64";
    VarInt16(i16), "VarInt16";
    VarInt32(i32), "VarInt32";
    VarInt64(i64), "VarInt64";
    VarUInt16(u16), "VarUInt16";
    VarUInt32(u32), "VarUInt32";
    VarUInt64(u64), "VarUInt64";
}

macro_rules! with_modules {
    ($($module:ident, $lbname:literal;)*) => {
        $(
            #[doc = concat!("Writes the field (or each array element) as `", $lbname, "`.")]
            pub mod $module {
                use serde::{Deserialize, Deserializer, Serialize, Serializer};

                /// Serializes with this LiteByte type.
                pub fn serialize<T: ?Sized + Serialize, S: Serializer>(
                    v: &T,
                    s: S,
                ) -> Result<S::Ok, S::Error> {
                    super::super::ser_marked(concat!("$litebyte::", $lbname), v, s)
                }

                /// Deserializes with this LiteByte type.
                pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
                    d: D,
                ) -> Result<T, D::Error> {
                    super::super::de_marked(concat!("$litebyte::", $lbname), d)
                }
            }
        )*
    };
}

/// `#[serde(with = "...")]` modules: one per base type, plus [`class`](with::class). Each
/// applies to the field's value; on an `Option<_>` to the inner value; on a `Vec<_>` (or
/// `Option<Vec<_>>`) to every element.
pub mod with {
    with_modules! {
        bit1, "Bit1"; bit2, "Bit2"; bit3, "Bit3"; bit4, "Bit4"; bit5, "Bit5"; bit6, "Bit6";
        bit7, "Bit7"; int8, "Int8"; int16, "Int16"; int24, "Int24"; int32, "Int32";
        int40, "Int40"; int48, "Int48"; int56, "Int56"; int64, "Int64"; uint8, "UInt8";
        uint16, "UInt16"; uint24, "UInt24"; uint32, "UInt32"; uint40, "UInt40";
        uint48, "UInt48"; uint56, "UInt56"; uint64, "UInt64"; float8, "Float8";
        float16, "Float16"; float24, "Float24"; float32, "Float32"; float64, "Float64";
        var_int16, "VarInt16"; var_int32, "VarInt32"; var_int64, "VarInt64";
        var_uint16, "VarUInt16"; var_uint32, "VarUInt32"; var_uint64, "VarUInt64";
        ascii, "ASCII"; unicode, "Unicode"; utf8, "UTF8"; var_unicode, "VarUnicode";
    }

    /// `class` semantics: one null bit before the value. On `Option<T>` the bit says null;
    /// on `T` it is always 0 (present).
    pub mod class {
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        /// Serializes with a class null bit.
        pub fn serialize<T: ?Sized + Serialize, S: Serializer>(
            v: &T,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            super::super::ser_marked("$litebyte::Class", v, s)
        }

        /// Deserializes with a class null bit.
        pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
            d: D,
        ) -> Result<T, D::Error> {
            super::super::de_marked("$litebyte::Class", d)
        }
    }
}

macro_rules! string_wrappers {
    ($($ty:ident, $lbname:literal;)*) => {$(
        #[doc = concat!("A string written as LiteByte `", $lbname,
            "`; `Option<", stringify!($ty), ">` is a nullable string.")]
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $ty(pub String);

        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                ser_marked(concat!("$litebyte::", $lbname), &self.0, s)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                de_marked(concat!("$litebyte::", $lbname), d).map($ty)
            }
        }

        impl From<&str> for $ty {
            fn from(v: &str) -> Self {
                $ty(v.to_owned())
            }
        }

        impl From<String> for $ty {
            fn from(v: String) -> Self {
                $ty(v)
            }
        }
    )*};
}

string_wrappers! {
    Ascii, "ASCII";
    Unicode, "Unicode";
    Utf8, "UTF8";
    VarUnicode, "VarUnicode";
}

/// A LiteByte `class` value: one null bit (1 = null, 0 = present) in the bit stream, then the
/// fields. Use `Class<Option<T>>` for a nullable member or root, `Class<T>` for one that is
/// always present.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Class<T>(pub T);

impl<T: Serialize> Serialize for Class<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ser_marked("$litebyte::Class", &self.0, s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Class<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        de_marked("$litebyte::Class", d).map(Class)
    }
}
