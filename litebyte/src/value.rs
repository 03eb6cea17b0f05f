//! The dynamic value encoded/decoded against a [`Schema`](crate::Schema).

use std::sync::Arc;

/// A dynamic LiteByte value (what the C# `LBObject` holds).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A null string, array or class.
    Null,
    /// `Bit1`.
    Bool(bool),
    /// Signed integer types.
    Int(i64),
    /// Unsigned integer and `Bit2`..`Bit7` types.
    UInt(u64),
    /// `Float8`, `Float16`, `Float24`, `Float32` (as decoded, after the reference rounding).
    F32(f32),
    /// `Float64`.
    F64(f64),
    /// A string.
    Str(String),
    /// A string that is not valid Unicode (lone UTF-16 surrogates), as C# strings can be.
    Utf16(Vec<u16>),
    /// An array.
    Array(Vec<Value>),
    /// A struct or class: members by name, in schema order when decoded. A decoded object
    /// shares its names with the schema's [`Field`](crate::Field)s.
    Object(Vec<(Arc<str>, Value)>),
}

impl Value {
    /// A member of an object by name.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Object(m) => m.iter().find(|(k, _)| &**k == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Builds an object from `(name, value)` pairs.
    pub fn object<K: Into<Arc<str>>>(members: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    pub(crate) fn kind_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a bool",
            Value::Int(_) | Value::UInt(_) => "an integer",
            Value::F32(_) | Value::F64(_) => "a float",
            Value::Str(_) | Value::Utf16(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<u64> for Value {
    fn from(v: u64) -> Self {
        Value::UInt(v)
    }
}
impl From<f32> for Value {
    fn from(v: f32) -> Self {
        Value::F32(v)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::F64(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Str(v.to_owned())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Str(v)
    }
}
