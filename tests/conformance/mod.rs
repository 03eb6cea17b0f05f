//! Helpers shared by the engine-conformance tests: fixture loading and short builders for
//! expected [`Variant`]s.
#![allow(dead_code)]

use godot_serde::{
    Array, Color, ContainerType, Dictionary, NodePath, Object, Real, Variant, VariantType, Vector2,
    Vector3,
};
use serde_json::Value;

pub mod godot3_values;
pub mod godot4_values;
pub mod spec_values;

/// `got` is `want` with every full object replaced by an object id (what `var2bytes` without
/// full objects sends).
pub fn objects_as_ids(got: &Variant, want: &Variant) -> bool {
    match (got, want) {
        (Variant::ObjectId(_), Variant::Object(_)) => true,
        (Variant::Array(g), Variant::Array(w)) => {
            g.len() == w.len() && g.iter().zip(w.iter()).all(|(g, w)| objects_as_ids(g, w))
        }
        (g, w) => g == w,
    }
}

/// One `set_value` call as a line of the calls files that the ConfigFile scripts read
/// (`tests/godot3/cfg_check.gd`, `tests/godot4/text_cfg.gd`): section, key and the value's
/// encoding, each in hex.
pub fn call_line(section: &str, key: &str, value: &[u8]) -> String {
    format!(
        "{} {} {}\n",
        tohex(section.as_bytes()),
        tohex(key.as_bytes()),
        tohex(value)
    )
}

/// The records of `tests/fixtures/<path>`, one JSON object per line.
pub fn records(path: &str) -> Vec<Value> {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{full}: {e}: {l}")))
        .collect()
}

/// A string field of a record.
pub fn field<'a>(record: &'a Value, key: &str) -> Option<&'a str> {
    record.get(key).and_then(Value::as_str)
}

/// The record's name.
pub fn name(record: &Value) -> &str {
    field(record, "name").expect("record without a name")
}

/// Bytes from lower-case hex without spaces.
pub fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex: {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// Lower-case hex without spaces.
pub fn tohex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A list of byte offsets (JSON array of numbers).
pub fn offsets(record: &Value, key: &str) -> Vec<usize> {
    record
        .get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|v| usize::try_from(v.as_u64().expect("offset")).expect("offset"))
                .collect()
        })
        .unwrap_or_default()
}

/// `bytes` with the bytes at `offsets` zeroed (NodePath name padding is leftover memory).
pub fn masked(bytes: &[u8], offsets: &[usize]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for &o in offsets {
        out[o] = 0;
    }
    out
}

/// Equality that treats every NaN as equal to every NaN and tells `-0.0` from `0.0`: the
/// `Debug` text of floats is exact (shortest round trip), so equal text means equal values.
#[track_caller]
pub fn assert_same(got: &Variant, want: &Variant, what: &str) {
    if got != want {
        assert_eq!(format!("{got:?}"), format!("{want:?}"), "{what}");
    }
    assert_eq!(format!("{got:?}"), format!("{want:?}"), "{what}");
}

pub fn nil() -> Variant {
    Variant::Nil
}
pub fn b(v: bool) -> Variant {
    Variant::Bool(v)
}
pub fn i(v: i64) -> Variant {
    Variant::Int(v)
}
pub fn f(v: f64) -> Variant {
    Variant::Float(v)
}
/// A float from its binary64 bit pattern.
pub fn fbits(bits: u64) -> Variant {
    Variant::Float(f64::from_bits(bits))
}
/// A float from a binary32 bit pattern (a Godot 3 `real` stores it as f64).
pub fn f32bits(bits: u32) -> Variant {
    Variant::Float(f64::from(f32::from_bits(bits)))
}
pub fn s(v: &str) -> Variant {
    Variant::String(v.into())
}
/// A math-type component: f32 on the wire, [`Real`] in memory.
#[allow(clippy::useless_conversion)]
pub fn r(x: f32) -> Real {
    Real::from(x)
}
pub fn vec2(x: f32, y: f32) -> Vector2 {
    Vector2::new(r(x), r(y))
}
pub fn vec3(x: f32, y: f32, z: f32) -> Vector3 {
    Vector3::new(r(x), r(y), r(z))
}
pub fn v2(x: f32, y: f32) -> Variant {
    Variant::Vector2(vec2(x, y))
}
pub fn v3(x: f32, y: f32, z: f32) -> Variant {
    Variant::Vector3(vec3(x, y, z))
}
pub fn color(r: f32, g: f32, b: f32, a: f32) -> Color {
    Color { r, g, b, a }
}
pub fn c(r: f32, g: f32, b: f32, a: f32) -> Variant {
    Variant::Color(color(r, g, b, a))
}
/// A NodePath from its parts (not parsed from text).
pub fn np(names: &[&str], subnames: &[&str], absolute: bool) -> Variant {
    Variant::NodePath(Box::new(NodePath {
        names: names.iter().map(|s| (*s).to_owned()).collect(),
        subnames: subnames.iter().map(|s| (*s).to_owned()).collect(),
        absolute,
    }))
}
/// An untyped Array.
pub fn arr(items: Vec<Variant>) -> Variant {
    Variant::Array(Box::new(Array::from(items)))
}
/// A typed Array.
pub fn tarr(element_type: ContainerType, items: Vec<Variant>) -> Variant {
    let mut a = Array::typed(element_type);
    a.extend(items);
    Variant::Array(Box::new(a))
}
/// An untyped Dictionary with these entries in this order.
pub fn dict(entries: Vec<(Variant, Variant)>) -> Variant {
    tdict(ContainerType::Untyped, ContainerType::Untyped, entries)
}
/// A typed Dictionary.
pub fn tdict(
    key_type: ContainerType,
    value_type: ContainerType,
    entries: Vec<(Variant, Variant)>,
) -> Variant {
    let mut d = Dictionary::typed(key_type, value_type);
    for (k, v) in entries {
        assert!(
            d.insert(k, v).is_none(),
            "repeated key in an expected value"
        );
    }
    Variant::Dictionary(d)
}
/// `ContainerType::Builtin`.
pub fn builtin(ty: VariantType) -> ContainerType {
    ContainerType::Builtin(ty)
}
/// A full object as data.
pub fn obj(class: &str, properties: Vec<(&str, Variant)>) -> Variant {
    Variant::Object(Box::new(Object {
        class: class.to_owned(),
        properties: properties
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    }))
}
