//! The bodies of the fuzz targets in `fuzz/fuzz_targets/`, shared with the stable test
//! `tests/suite/fuzz_replay.rs` that replays the committed seeds and past crashes on every CI run.
//!
//! Each check takes the raw fuzzer input. Its first byte picks the [`Config`] (see
//! [`config_for`]); the rest is the data. A check panics only when the crate misbehaves:
//! a decoder error is a normal outcome, a panic, a hang or a broken round trip is a finding.
#![allow(dead_code)]

use godot_serde::{
    Aabb, Array, Basis, Callable, Color, Config, ContainerType, Dictionary, ErrorKind,
    GodotVersion, NodePath, Object, ObjectId, PackedByteArray, PackedColorArray,
    PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray,
    PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion,
    Real, Rect2, Rect2i, Rid, Signal, StringName, Transform2D, Transform3D, Variant, VariantType,
    Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;

// A test binary has one global allocator and so one `heap` module, declared at its root,
// that every helper shares; a fuzz target includes this file alone and its own copy.
#[cfg(not(test))]
#[path = "heap.rs"]
pub mod heap;
#[cfg(test)]
pub(crate) use crate::heap;

#[path = "fuzz_input.rs"]
mod fuzz_input;
use fuzz_input::Draw;

/// The heap a `Variant` decode of `len` input bytes may hold (docs/security.md).
pub fn variant_budget(len: usize) -> usize {
    heap::budget(size_of::<Variant>(), len)
}

/// The heap a buffered decode (`flatten`, `untagged`, internally tagged) around a `Variant`
/// may hold: serde's `Content` buffer, then the `Variant` (docs/security.md).
pub fn buffered_budget(len: usize) -> usize {
    heap::budget(2 * size_of::<Variant>(), len)
}

/// The heap decoding [`Typed`] may hold: the `Variant` budget, as it has `Variant`, `Array`
/// and `Dictionary` fields, whose values may hold as much as a `Variant` (docs/security.md).
/// Forged counts alone stay within 4 × the input (`tests/heap/alloc.rs`).
pub fn typed_budget(len: usize) -> usize {
    variant_budget(len)
}

/// The config a selector byte picks: bits 0–1 the engine (3.x, 4.0, 4.3, 4.4+), bit 2 double
/// precision (Godot 4 only), bit 3 full objects allowed, bit 4 typed containers when encoding.
pub fn config_for(byte: u8) -> Config {
    let version = match byte & 3 {
        0 => GodotVersion::V3,
        1 => GodotVersion::V4_0,
        2 => GodotVersion::V4_3,
        _ => GodotVersion::V4_4,
    };
    Config::new(version)
        .with_double_precision(byte & 4 != 0 && version.is_godot4())
        .with_allow_objects(byte & 8 != 0)
        .with_typed_containers(byte & 16 != 0)
}

/// Every config [`config_for`] can give, one selector byte each.
pub const SELECTORS: [u8; 32] = {
    let mut s = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        s[i] = i as u8;
        i += 1;
    }
    s
};

fn split(data: &[u8]) -> Option<(Config, &[u8])> {
    let (&first, rest) = data.split_first()?;
    Some((config_for(first), rest))
}

/// Whether the math types hold `f64` (the `double-precision` feature).
fn real_is_f64() -> bool {
    size_of::<Real>() == 8
}

/// The config to re-encode a decoded value with so that nothing is rounded: typed-container
/// inference off (it would add typing the input did not have), and wide floats when the
/// math types are `f64` and the engine can say so.
fn reencode_config(config: Config) -> Config {
    let wide = config.double_precision() || (real_is_f64() && config.version().is_godot4());
    config
        .with_typed_containers(false)
        .with_double_precision(wide)
}

/// `{:?}` text, which compares NaN equal to itself (`Variant`'s `PartialEq` does not).
fn dbg<T: Debug>(v: &T) -> String {
    format!("{v:?}")
}

/// Encodes `value` and decodes it again; the result must print the same and re-encode to
/// the same bytes.
#[track_caller]
fn assert_round_trip<T>(value: &T, config: Config)
where
    T: Serialize + for<'de> Deserialize<'de> + Debug,
{
    let bytes = match config.to_bytes(value) {
        Ok(b) => b,
        // A default field of a type the engine lacks (typed target, Godot 3).
        Err(e) if matches!(e.kind(), ErrorKind::TypeNotInTarget { .. }) => return,
        Err(e) => panic!("re-encoding failed: {e}\nvalue: {value:?}"),
    };
    let decode = config.with_allow_objects(true);
    let before = dbg(value);
    // Godot's decoder drops one leading BOM from each string, so a string that starts with
    // two loses one per round trip, in the engine as here (documented). A class name that is
    // only a BOM even decodes as "", the null object, leaving its property count unread.
    // Such values need only decode without panicking.
    if before.contains("\\u{feff}") {
        let _ = decode.from_bytes::<T>(&bytes);
        return;
    }
    let back: T = decode
        .from_bytes(&bytes)
        .unwrap_or_else(|e| panic!("decoding our own output failed: {e}\nvalue: {value:?}"));
    let after = dbg(&back);
    assert!(
        before == after,
        "round trip changed the value\n{before}\n{after}"
    );
    let again = config
        .to_bytes(&back)
        .expect("re-encoding the round-tripped value");
    assert_eq!(again, bytes, "re-encoding is not stable");
}

/// Target `decode_variant`: bytes → [`Variant`] never panics; what decodes re-encodes and
/// decodes to an equal value.
pub fn decode_variant(data: &[u8]) {
    let Some((config, input)) = split(data) else {
        return;
    };
    let plain = heap::within(variant_budget(input.len()), "Variant", || {
        config.take_from_bytes::<Variant>(input)
    });
    buffered_markers(config, input, plain.as_ref().ok().map(|(v, _)| v));
    let direct = heap::within(variant_budget(input.len()), "Variant read directly", || {
        config.take_variant_from_bytes(input)
    });
    same_outcome(
        &plain,
        &direct,
        "from_bytes::<Variant>",
        "variant_from_bytes",
    );
    let Ok((v, _rest)) = plain else {
        return;
    };
    assert_round_trip(&v, reencode_config(config));
}

/// `a` and `b`, two decodes of the same input, are the same value with the same bytes left,
/// or the same error (kind, offset and path: the same message).
#[track_caller]
pub fn same_outcome(
    a: &Result<(Variant, &[u8]), godot_serde::Error>,
    b: &Result<(Variant, &[u8]), godot_serde::Error>,
    a_name: &str,
    b_name: &str,
) {
    match (a, b) {
        (Ok((x, x_rest)), Ok((y, y_rest))) => {
            assert_eq!(dbg(x), dbg(y), "{a_name} and {b_name} decode differently");
            assert_eq!(
                x_rest.len(),
                y_rest.len(),
                "{a_name} and {b_name} use different bytes"
            );
        }
        (Err(x), Err(y)) => assert_eq!(
            x.to_string(),
            y.to_string(),
            "{a_name} and {b_name} fail differently"
        ),
        (Ok((x, _)), Err(y)) => panic!("{a_name} decoded {x:?}, {b_name} failed: {y}"),
        (Err(x), Ok((y, _))) => panic!("{b_name} decoded {y:?}, {a_name} failed: {x}"),
    }
}

/// How many values of `v` (itself included) `pick` picks.
pub fn count_values(v: &Variant, pick: &dyn Fn(&Variant) -> bool) -> usize {
    let inner: usize = match v {
        Variant::Array(a) => a.items.iter().map(|v| count_values(v, pick)).sum(),
        Variant::Dictionary(d) => d
            .iter()
            .map(|(k, v)| count_values(k, pick) + count_values(v, pick))
            .sum(),
        Variant::Object(o) => o
            .properties
            .iter()
            .map(|(_, v)| count_values(v, pick))
            .sum(),
        _ => 0,
    };
    inner + usize::from(pick(v))
}

/// How many values of a Godot type serde has no word for (marker types: Object, Vector2,
/// StringName, packed arrays, ...) `v` holds, itself included.
pub fn marker_count(v: &Variant) -> usize {
    count_values(v, &|v| {
        !matches!(
            v,
            Variant::Nil
                | Variant::Bool(_)
                | Variant::Int(_)
                | Variant::Float(_)
                | Variant::String(_)
                | Variant::Array(_)
                | Variant::Dictionary(_)
        )
    })
}

/// A struct whose only field takes every entry of a Dictionary through serde's buffering.
#[derive(Deserialize, Debug)]
pub struct Flat {
    #[serde(flatten)]
    pub rest: Variant,
}

/// An internally tagged enum (`{"type": "Any", ...}`): the other entries are buffered.
#[derive(Deserialize, Debug)]
#[serde(tag = "type")]
pub enum Tagged {
    Any(Variant),
}

/// An untagged enum: the whole value is buffered.
#[derive(Deserialize, Debug)]
#[serde(untagged)]
pub enum Untagged {
    Any(Variant),
}

/// Buffering (`flatten`, internally tagged and untagged enums) may drop or reorder what the
/// bytes hold, never add to it: whatever decodes through it holds no more marker-typed values
/// (no Object, no Vector2, ...) than the same bytes decoded as a plain `Variant` (`plain`,
/// `None` when that failed), and no full Object unless objects are allowed (issue 11.1: a
/// marker-name key that buffering moved to the front posed as an Object).
pub fn buffered_markers(config: Config, input: &[u8], plain: Option<&Variant>) {
    let limit = plain.map_or(0, marker_count);
    let check = |what: &str, got: Option<&Variant>| {
        let Some(got) = got else { return };
        let n = marker_count(got);
        assert!(
            n <= limit,
            "{what} decoded {n} marker values, the plain Variant {limit}\n{got:?}\n{plain:?}"
        );
        if !config.allow_objects() {
            assert_eq!(
                count_values(got, &|v| matches!(v, Variant::Object(_))),
                0,
                "{what} decoded a full Object without allow_objects: {got:?}"
            );
        }
    };
    let budget = buffered_budget(input.len());
    let flat = heap::within(budget, "flatten", || {
        config.take_from_bytes::<Flat>(input).ok()
    });
    check("flatten", flat.as_ref().map(|(f, _)| &f.rest));
    let tagged = heap::within(budget, "internally tagged", || {
        config.take_from_bytes::<Tagged>(input).ok()
    });
    check(
        "internally tagged",
        tagged.as_ref().map(|(Tagged::Any(v), _)| v),
    );
    let untagged = heap::within(budget, "untagged", || {
        config.take_from_bytes::<Untagged>(input).ok()
    });
    check("untagged", untagged.as_ref().map(|(Untagged::Any(v), _)| v));
}

/// A unit-only enum, written as its name.
#[derive(Serialize, Deserialize, Debug, Default, PartialEq)]
pub enum Mode {
    #[default]
    Idle,
    Run,
}

/// An enum with every kind of variant.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub enum Action {
    Stop,
    Move(Vector3),
    Pair(i32, String),
    Hit { damage: u16, crit: bool },
    Nested(Box<Action>),
}

/// A struct with a field of every marker type and of serde's own shapes.
#[derive(Serialize, Deserialize, Debug, Default)]
#[serde(default)]
pub struct Typed {
    pub flag: bool,
    pub small: u8,
    pub int: i64,
    pub single: f32,
    pub double: f64,
    pub letter: Option<char>,
    pub text: String,
    pub maybe: Option<String>,
    pub list: Vec<i32>,
    pub tuple: (i16, String),
    #[serde(with = "serde_bytes")]
    pub bytes: Vec<u8>,
    pub map: BTreeMap<String, i64>,
    pub mode: Mode,
    pub actions: Vec<Action>,
    pub v2: Vector2,
    pub v2i: Vector2i,
    pub rect: Rect2,
    pub recti: Rect2i,
    pub v3: Vector3,
    pub v3i: Vector3i,
    pub t2d: Transform2D,
    pub v4: Vector4,
    pub v4i: Vector4i,
    pub plane: Plane,
    pub quat: Quaternion,
    pub aabb: Aabb,
    pub basis: Basis,
    pub t3d: Transform3D,
    pub proj: Projection,
    pub color: Color,
    pub name: StringName,
    pub path: NodePath,
    pub rid: Rid,
    pub object_id: ObjectId,
    pub object: Option<Object>,
    pub callable: Callable,
    pub signal: Signal,
    pub array: Array,
    pub dict: Dictionary,
    pub any: Variant,
    pub pba: PackedByteArray,
    pub pi32: PackedInt32Array,
    pub pi64: PackedInt64Array,
    pub pf32: PackedFloat32Array,
    pub pf64: PackedFloat64Array,
    pub psa: PackedStringArray,
    pub pv2: PackedVector2Array,
    pub pv3: PackedVector3Array,
    pub pcol: PackedColorArray,
    pub pv4: PackedVector4Array,
    pub child: Option<Box<Typed>>,
}

/// Target `typed`: bytes → [`Typed`] never panics; what decodes round-trips.
pub fn typed(data: &[u8]) {
    let Some((config, input)) = split(data) else {
        return;
    };
    let decoded = heap::within(typed_budget(input.len()), "Typed", || {
        config.from_bytes::<Typed>(input)
    });
    let Ok(v) = decoded else {
        return;
    };
    assert_round_trip(&v, reencode_config(config));
}

/// A reader that hands out at most `step` bytes per call.
pub struct Trickle<'a> {
    pub data: &'a [u8],
    pub step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.step).min(self.data.len());
        let (head, tail) = self.data.split_at(n);
        buf[..n].copy_from_slice(head);
        self.data = tail;
        Ok(n)
    }
}

/// Target `slice_vs_reader`: `take_from_bytes` and a `Deserializer` over a reader that hands
/// out 1–8 bytes at a time agree on the value, on the bytes it used, and on the kind of
/// error. Only the slice knows the input's length up front, so where it reports a length
/// too large for the input, the reader may fail later and otherwise.
pub fn slice_vs_reader(data: &[u8]) {
    let Some((&step, data)) = data.split_first() else {
        return;
    };
    let Some((config, input)) = split(data) else {
        return;
    };
    let step = usize::from(step % 8) + 1;
    let budget = variant_budget(input.len());
    let slice = heap::within(budget, "Variant from a slice", || {
        config.take_from_bytes::<Variant>(input)
    });
    let mut de = godot_serde::Deserializer::from_reader(Trickle { data: input, step }, config);
    let reader = heap::within(budget, "Variant from a reader", || {
        Variant::deserialize(&mut de)
    });
    // The direct path from a reader: the same value, bytes used and error as serde's.
    let mut direct_de =
        godot_serde::Deserializer::from_reader(Trickle { data: input, step }, config);
    let direct = heap::within(budget, "Variant read directly from a reader", || {
        direct_de.read_variant()
    });
    match (&reader, &direct) {
        (Ok(a), Ok(b)) => {
            assert_eq!(
                dbg(a),
                dbg(b),
                "serde and read_variant decode a reader differently"
            );
            assert_eq!(de.offset(), direct_de.offset(), "bytes used differ");
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "errors differ"),
        _ => panic!("serde gave {reader:?}, read_variant {direct:?}"),
    }
    match (slice, reader) {
        (Ok((a, rest)), Ok(b)) => {
            assert_eq!(dbg(&a), dbg(&b), "slice and reader decode differently");
            assert_eq!(input.len() - rest.len(), de.offset(), "bytes used differ");
        }
        (Err(a), Err(b)) => {
            let same = std::mem::discriminant(a.kind()) == std::mem::discriminant(b.kind());
            let slice_knows_more = matches!(a.kind(), ErrorKind::LengthTooLarge { .. });
            assert!(same || slice_knows_more, "errors differ: {a} vs {b}");
        }
        (Ok((a, _)), Err(b)) => panic!("slice decoded {a:?}, reader failed: {b}"),
        (Err(a), Ok(b)) => panic!("reader decoded {b:?}, slice failed: {a}"),
    }
}

/// Builds values from fuzzer bytes (zeros once they run out).
pub struct Gen<'a> {
    data: &'a [u8],
}

impl<'a> Draw<'a> for Gen<'a> {
    fn rest(&mut self) -> &mut &'a [u8] {
        &mut self.data
    }

    /// Any f32 bit pattern.
    fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.bytes())
    }
}

impl<'a> Gen<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Gen { data }
    }

    /// Text without NUL (which cannot be encoded) and without a leading BOM (which Godot's
    /// decoder drops), mixing ASCII and multi-byte characters.
    fn string(&mut self) -> String {
        let n = self.len(8);
        let mut s = String::new();
        for _ in 0..n {
            let b = self.byte();
            let c = match b % 4 {
                0 => 'é',
                1 => '\u{1F600}',
                _ => char::from(b'a' + b % 26),
            };
            s.push(c);
        }
        s
    }

    /// A container element type Godot 4 can write: a builtin type other than Nil, a class
    /// (not empty: that is the builtin OBJECT) or a `res://` script path.
    fn container_type(&mut self) -> ContainerType {
        match self.byte() % 4 {
            0 => ContainerType::Untyped,
            1 => {
                let id = u32::from(self.byte() % 38) + 1;
                VariantType::from_id(id, GodotVersion::V4_4)
                    .map_or(ContainerType::Untyped, ContainerType::Builtin)
            }
            2 => ContainerType::ClassName(format!("C{}", self.string())),
            _ => ContainerType::Script(format!("res://{}", self.string())),
        }
    }

    /// Any Variant the engine `version` has, nested at most `depth` more levels.
    pub fn variant(&mut self, version: GodotVersion, depth: u8) -> Variant {
        let types = if version.is_godot4() { 39 } else { 27 };
        let id = u32::from(self.byte()) % types;
        let Some(ty) = VariantType::from_id(id, version) else {
            return Variant::Nil;
        };
        let deeper = depth.saturating_sub(1);
        let nest = depth > 0;
        match ty {
            VariantType::Nil => Variant::Nil,
            VariantType::Bool => Variant::Bool(self.byte() & 1 != 0),
            VariantType::Int => Variant::Int(match self.byte() % 3 {
                0 => self.i32().into(),
                _ => self.u64() as i64,
            }),
            VariantType::Float => Variant::Float(match self.byte() % 2 {
                0 => self.f32().into(),
                _ => f64::from_bits(self.u64()),
            }),
            VariantType::String => Variant::String(self.string().into()),
            VariantType::Vector2 => Variant::Vector2(self.v2()),
            VariantType::Vector2i => Variant::Vector2i(Vector2i::new(self.i32(), self.i32())),
            VariantType::Rect2 => Variant::Rect2(Rect2::new(self.v2(), self.v2())),
            VariantType::Rect2i => Variant::Rect2i(Rect2i::new(
                Vector2i::new(self.i32(), self.i32()),
                Vector2i::new(self.i32(), self.i32()),
            )),
            VariantType::Vector3 => Variant::Vector3(self.v3()),
            VariantType::Vector3i => {
                Variant::Vector3i(Vector3i::new(self.i32(), self.i32(), self.i32()))
            }
            VariantType::Transform2D => {
                Variant::Transform2D(Box::new(Transform2D::new(self.v2(), self.v2(), self.v2())))
            }
            VariantType::Vector4 => Variant::Vector4(self.v4()),
            VariantType::Vector4i => Variant::Vector4i(Vector4i::new(
                self.i32(),
                self.i32(),
                self.i32(),
                self.i32(),
            )),
            VariantType::Plane => Variant::Plane(Plane::new(self.v3(), self.real())),
            VariantType::Quaternion => Variant::Quaternion(Quaternion::new(
                self.real(),
                self.real(),
                self.real(),
                self.real(),
            )),
            VariantType::Aabb => Variant::Aabb(Box::new(Aabb::new(self.v3(), self.v3()))),
            VariantType::Basis => Variant::Basis(Box::new(Basis {
                rows: [self.v3(), self.v3(), self.v3()],
            })),
            VariantType::Transform3D => Variant::Transform3D(Box::new(Transform3D::new(
                Basis {
                    rows: [self.v3(), self.v3(), self.v3()],
                },
                self.v3(),
            ))),
            VariantType::Projection => Variant::Projection(Box::new(Projection {
                columns: [self.v4(), self.v4(), self.v4(), self.v4()],
            })),
            VariantType::Color => Variant::Color(self.color()),
            VariantType::StringName => Variant::StringName(StringName(self.string())),
            VariantType::NodePath => Variant::NodePath(Box::new(NodePath {
                names: self.list(3, Self::string),
                subnames: self.list(2, Self::string),
                absolute: self.byte() & 1 != 0,
            })),
            // Godot 3 writes no RID payload.
            VariantType::Rid if !version.is_godot4() => Variant::Rid(Rid(0)),
            VariantType::Rid => Variant::Rid(Rid(self.u64())),
            VariantType::Object if self.byte() & 1 == 0 => {
                // Instance id 0 is the null object, read back as Nil.
                Variant::ObjectId(ObjectId(self.u64().max(1)))
            }
            VariantType::Object => {
                // An empty class name is the null object, read back as Nil.
                let class = format!("C{}", self.string());
                let n = if nest { self.len(3) } else { 0 };
                let properties = (0..n)
                    .map(|_| (self.string(), self.variant(version, deeper)))
                    .collect();
                Variant::Object(Box::new(Object { class, properties }))
            }
            VariantType::Callable => Variant::Callable(Callable),
            VariantType::Signal => {
                Variant::Signal(Box::new(Signal::new(self.string(), ObjectId(self.u64()))))
            }
            VariantType::Dictionary => {
                let typed = version.has_typed_dictionaries() && self.byte() & 1 != 0;
                let mut d = if typed {
                    Dictionary::typed(self.container_type(), self.container_type())
                } else {
                    Dictionary::new()
                };
                let n = if nest { self.len(4) } else { 0 };
                for _ in 0..n {
                    let k = self.variant(version, deeper);
                    let v = self.variant(version, deeper);
                    d.insert(k, v);
                }
                Variant::Dictionary(d)
            }
            VariantType::Array => {
                let element_type = if version.has_typed_arrays() {
                    self.container_type()
                } else {
                    ContainerType::Untyped
                };
                let n = if nest { self.len(4) } else { 0 };
                let items = (0..n).map(|_| self.variant(version, deeper)).collect();
                Variant::Array(Box::new(Array {
                    element_type,
                    items,
                }))
            }
            VariantType::PackedByteArray => {
                Variant::PackedByteArray(PackedByteArray(self.list(9, Self::byte)))
            }
            VariantType::PackedInt32Array => {
                Variant::PackedInt32Array(PackedInt32Array(self.list(4, Self::i32)))
            }
            VariantType::PackedInt64Array => {
                Variant::PackedInt64Array(PackedInt64Array(self.list(4, |g| g.u64() as i64)))
            }
            VariantType::PackedFloat32Array => {
                Variant::PackedFloat32Array(PackedFloat32Array(self.list(4, Self::f32)))
            }
            VariantType::PackedFloat64Array => Variant::PackedFloat64Array(PackedFloat64Array(
                self.list(4, |g| f64::from_bits(g.u64())),
            )),
            VariantType::PackedStringArray => {
                Variant::PackedStringArray(PackedStringArray(self.list(4, Self::string)))
            }
            VariantType::PackedVector2Array => {
                Variant::PackedVector2Array(PackedVector2Array(self.list(3, Self::v2)))
            }
            VariantType::PackedVector3Array => {
                Variant::PackedVector3Array(PackedVector3Array(self.list(3, Self::v3)))
            }
            VariantType::PackedColorArray => {
                Variant::PackedColorArray(PackedColorArray(self.list(3, Self::color)))
            }
            VariantType::PackedVector4Array => {
                Variant::PackedVector4Array(PackedVector4Array(self.list(3, Self::v4)))
            }
            // `VariantType` is non-exhaustive: a type a later Godot adds.
            _ => Variant::Nil,
        }
    }
}

/// Target `roundtrip_variant`: a Variant built from the bytes encodes, and decodes back to
/// itself (bytes identical on re-encoding).
pub fn roundtrip_variant(data: &[u8]) {
    let Some((config, input)) = split(data) else {
        return;
    };
    let mut g = Gen::new(input);
    let v = g.variant(config.version(), 4);
    let config = reencode_config(config).with_allow_objects(true);
    let bytes = config
        .to_bytes(&v)
        .unwrap_or_else(|e| panic!("encoding failed: {e}\nvalue: {v:?}"));
    let back: Variant = config
        .from_bytes(&bytes)
        .unwrap_or_else(|e| panic!("decoding our own output failed: {e}\nvalue: {v:?}"));
    assert_eq!(dbg(&back), dbg(&v), "round trip is not the identity");
    assert_eq!(config.to_bytes(&back).expect("re-encode"), bytes);
}
