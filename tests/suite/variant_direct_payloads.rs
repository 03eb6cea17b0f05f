//! `Deserializer::read_variant` on the rarer types (StringName, NodePath, RID, Object, Callable,
//! Signal, Color, the integer vectors, the matrices, the packed arrays, typed Arrays and
//! Dictionaries), which it reads itself through the wire payload rules the serde path uses:
//! every case is decoded both ways, from a slice and from a reader, and must give the same
//! value, bytes used and error (kind, offset, path) as `Variant::deserialize`; so must every
//! prefix of it. The expected values are derived by hand from the spec
//! (`docs/wire-format.md`: Godot 4 ids Vector2i 6, Transform2D 11, Color 20, StringName 21,
//! NodePath 22, RID 23, Object 24, Callable 25, Signal 26, Dictionary 27, Array 28,
//! PackedByteArray 29, PackedInt32Array 30, PackedStringArray 34, PackedVector2Array 35;
//! Godot 3 RID 16; header bit 16 is the 64-bit flag, or "object as id" on an Object; a String
//! field is its length, the text and zero padding to a multiple of 4).

use godot_serde::{
    Config, ContainerType, Deserializer, ErrorKind, GodotVersion, NodePath, ObjectId, Rid, Signal,
    StringName, Variant, VariantType, Vector2, Vector2i,
};
use serde::Deserialize;

fn word(w: u32) -> Vec<u8> {
    w.to_le_bytes().to_vec()
}

/// A String field: length, text, zero padding to a multiple of 4.
fn field(s: &str) -> Vec<u8> {
    let mut out = word(u32::try_from(s.len()).unwrap());
    out.extend(s.as_bytes());
    out.resize(out.len() + (4 - s.len() % 4) % 4, 0);
    out
}

fn f64s(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// One decoding, as comparable text: the value or the error (its Display has the kind, the
/// path and the offset), and the bytes used.
fn outcome(r: &godot_serde::Result<Variant>, used: usize) -> String {
    match r {
        Ok(v) => format!("{v:?} ({used} bytes)"),
        Err(e) => format!("error {e}"),
    }
}

/// One value read by `de`, with `read_variant` (`direct`) or `Variant::deserialize`: the
/// outcome and the bytes used.
fn decode<'de, R: godot_serde::read::Read<'de>>(
    mut de: Deserializer<R>,
    direct: bool,
) -> (godot_serde::Result<Variant>, usize) {
    let r = if direct {
        de.read_variant()
    } else {
        Variant::deserialize(&mut de)
    };
    (r, de.offset())
}

/// One value read with `read_variant` and with `Variant::deserialize`, each from a new
/// Deserializer made by `new`: the outcomes must be equal; returns the direct one.
fn agree<'de, R: godot_serde::read::Read<'de>>(
    new: impl Fn() -> Deserializer<R>,
    what: &str,
) -> godot_serde::Result<Variant> {
    let (value, used) = decode(new(), true);
    let (expected, expected_used) = decode(new(), false);
    assert_eq!(
        outcome(&value, used),
        outcome(&expected, expected_used),
        "{what}"
    );
    value
}

/// `bytes` read with `read_variant` and with `Variant::deserialize`, from a slice and from a
/// reader: the outcomes must be equal; returns the direct one from the slice.
fn compare(config: Config, bytes: &[u8]) -> godot_serde::Result<Variant> {
    let what = format!("{bytes:02x?}");
    let _ = agree(|| Deserializer::from_reader(bytes, config), &what);
    agree(|| Deserializer::from_slice(bytes, config), &what)
}

/// [`compare`] on `bytes` and on every prefix of it; returns the whole input's direct outcome.
fn check(config: Config, bytes: &[u8]) -> godot_serde::Result<Variant> {
    for end in 0..bytes.len() {
        let _ = compare(config, &bytes[..end]);
    }
    compare(config, bytes)
}

fn godot4(bytes: &[u8]) -> Variant {
    check(Config::godot4(), bytes).unwrap()
}

fn kind_of(config: Config, bytes: &[u8]) -> (ErrorKind, Option<usize>) {
    let e = check(config, bytes).unwrap_err();
    let offset = e.offset();
    (e.into_kind(), offset)
}

#[test]
fn integer_vectors_and_color() {
    // Vector2i(1, -2): header 6, two i32.
    let v = godot4(&[word(6), word(1), (-2i32).to_le_bytes().to_vec()].concat());
    assert_eq!(v, Variant::Vector2i(Vector2i::new(1, -2)));
    // The 64-bit flag means nothing on integer components: still two i32.
    let v = godot4(&[word(0x0001_0006), word(3), word(4)].concat());
    assert_eq!(v, Variant::Vector2i(Vector2i::new(3, 4)));
    // Color(1, 0.5, 0, 1): header 20, four f32 (0x3f800000, 0x3f000000, 0, 0x3f800000).
    let bytes = [
        word(20),
        word(0x3f80_0000),
        word(0x3f00_0000),
        word(0),
        word(0x3f80_0000),
    ]
    .concat();
    assert_eq!(
        godot4(&bytes),
        Variant::Color(godot_serde::Color::new(1.0, 0.5, 0.0, 1.0))
    );
}

#[test]
fn wide_and_godot3_float_math_types() {
    // Transform2D with the 64-bit flag: header 0x0001000b, six f64 in column order.
    let bytes = [word(0x0001_000b), f64s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])].concat();
    let t = godot_serde::Transform2D {
        x: Vector2::new(1.0, 2.0),
        y: Vector2::new(3.0, 4.0),
        origin: Vector2::new(5.0, 6.0),
    };
    assert_eq!(godot4(&bytes), Variant::from(t));
    // Godot 3 ignores the flag: a Vector2 (3.x id 5) is two f32 whatever it says.
    let bytes = [word(0x0001_0005), word(0x3f80_0000), word(0x4000_0000)].concat();
    assert_eq!(
        check(Config::godot3(), &bytes).unwrap(),
        Variant::Vector2(Vector2::new(1.0, 2.0))
    );
}

#[test]
fn string_name_node_path_rid_callable_signal() {
    // StringName("hi").
    let v = godot4(&[word(21), field("hi")].concat());
    assert_eq!(v, Variant::StringName(StringName::from("hi")));
    // §8.1 NodePath("/root/Main:position"): 2 names (bit 31 set), 1 subname, absolute.
    let bytes = [
        word(0x0000_0016),
        word(0x8000_0002),
        word(1),
        word(1),
        field("root"),
        field("Main"),
        field("position"),
    ]
    .concat();
    assert_eq!(
        godot4(&bytes),
        Variant::from(NodePath::from("/root/Main:position"))
    );
    // The legacy "has property" flag (bit 1) reads one more subname.
    let bytes = [
        word(22),
        word(0x8000_0001),
        word(0),
        word(2),
        field("a"),
        field("b"),
    ]
    .concat();
    assert_eq!(godot4(&bytes), Variant::from(NodePath::from("a:b")));
    // RID: a u64 in 4.x; nothing after the header in 3.x (id 16), which reads as RID 0.
    let v = godot4(&[word(23), word(5), word(0)].concat());
    assert_eq!(v, Variant::Rid(Rid(5)));
    let mut de = Deserializer::from_slice(&[16, 0, 0, 0, 9, 0, 0, 0], Config::godot3());
    assert_eq!(de.read_variant().unwrap(), Variant::Rid(Rid(0)));
    assert_eq!(de.offset(), 4);
    check(Config::godot3(), &[16, 0, 0, 0]).unwrap();
    // Callable: the header only.
    assert_eq!(godot4(&word(25)), Variant::Callable(godot_serde::Callable));
    // Signal("pressed", object 9).
    let v = godot4(&[word(26), field("pressed"), word(9), word(0)].concat());
    assert_eq!(v, Variant::from(Signal::new("pressed", ObjectId(9))));
}

#[test]
fn malformed_node_paths_and_forged_counts() {
    // Bit 31 clear: the legacy format, refused where the NodePath's first word is.
    let (kind, at) = kind_of(
        Config::godot4(),
        &[word(22), word(1), word(0), word(0)].concat(),
    );
    assert!(matches!(kind, ErrorKind::LegacyNodePath), "{kind:?}");
    assert_eq!(at, Some(4));
    // 0x7fffffff names with 4 bytes left.
    let bytes = [word(22), word(0xffff_ffff), word(0), word(0), word(0)].concat();
    let (kind, _) = kind_of(Config::godot4(), &bytes);
    assert!(
        matches!(
            kind,
            ErrorKind::LengthTooLarge {
                what: "NodePath name count",
                ..
            }
        ),
        "{kind:?}"
    );
    // A PackedInt32Array claiming 1000 elements with 8 bytes left.
    let bytes = [word(30), word(1000), word(1), word(2)].concat();
    let (kind, at) = kind_of(Config::godot4(), &bytes);
    assert!(
        matches!(
            kind,
            ErrorKind::LengthTooLarge {
                len: 1000,
                remaining: 8,
                ..
            }
        ),
        "{kind:?}"
    );
    assert_eq!(at, Some(8));
    // A negative PackedByteArray count.
    let (kind, _) = kind_of(Config::godot4(), &[word(29), word(0xffff_fff0)].concat());
    assert!(
        matches!(kind, ErrorKind::NegativeLength { len: -16, .. }),
        "{kind:?}"
    );
    // A PackedStringArray with a negative count is empty (Godot reads it so).
    let v = godot4(&[word(34), word(0xffff_ffff)].concat());
    assert_eq!(v, Variant::PackedStringArray(Default::default()));
}

#[test]
fn packed_arrays() {
    // PackedByteArray [1, 2, 3] and one byte of padding; the padding may be missing at the end.
    let v = godot4(&[word(29), word(3), vec![1, 2, 3, 0]].concat());
    assert_eq!(v, Variant::PackedByteArray(vec![1u8, 2, 3].into()));
    let mut de = Deserializer::from_slice(&[29, 0, 0, 0, 3, 0, 0, 0, 1, 2, 3], Config::godot4());
    assert_eq!(
        de.read_variant().unwrap(),
        Variant::PackedByteArray(vec![1u8, 2, 3].into())
    );
    // PackedInt32Array [7, -1].
    let v = godot4(&[word(30), word(2), word(7), word(0xffff_ffff)].concat());
    assert_eq!(v, Variant::PackedInt32Array(vec![7, -1].into()));
    // PackedVector2Array with the 64-bit flag: one element of two f64.
    let v = godot4(&[word(0x0001_0023), word(1), f64s(&[0.5, -4.0])].concat());
    assert_eq!(
        v,
        Variant::PackedVector2Array(vec![Vector2::new(0.5, -4.0)].into())
    );
    // PackedStringArray ["a", "bcde"].
    let v = godot4(&[word(34), word(2), field("a"), field("bcde")].concat());
    assert_eq!(
        v,
        Variant::PackedStringArray(vec!["a".to_owned(), "bcde".to_owned()].into())
    );
}

#[test]
fn objects_by_id_and_in_full() {
    // Object as id (header bit 16): id 7; id 0 is the null object.
    let v = godot4(&[word(0x0001_0018), word(7), word(0)].concat());
    assert_eq!(v, Variant::ObjectId(ObjectId(7)));
    assert_eq!(
        godot4(&[word(0x0001_0018), word(0), word(0)].concat()),
        Variant::Nil
    );
    // A full Node with one property `name = "x"` (String header 4).
    let bytes = [
        word(24),
        field("Node"),
        word(1),
        field("name"),
        word(4),
        field("x"),
    ]
    .concat();
    let (kind, at) = kind_of(Config::godot4(), &bytes);
    assert!(
        matches!(&kind, ErrorKind::ObjectsNotAllowed { class } if &**class == "Node"),
        "{kind:?}"
    );
    assert_eq!(at, Some(0));
    let v = check(Config::godot4().with_allow_objects(true), &bytes).unwrap();
    let Variant::Object(object) = v else {
        panic!("{v:?}")
    };
    assert_eq!(object.class, "Node");
    assert_eq!(object.properties, [("name".to_owned(), Variant::from("x"))]);
    // An empty class name is the null object.
    let v = check(
        Config::godot4().with_allow_objects(true),
        &[word(24), word(0)].concat(),
    );
    assert_eq!(v.unwrap(), Variant::Nil);
    // A property name may not be a reserved marker name; a forged property count fails
    // before anything is reserved.
    let bytes = [
        word(24),
        field("Node"),
        word(1),
        field("$godot_serde::Vector2"),
        word(0),
    ]
    .concat();
    let (kind, at) = kind_of(Config::godot4().with_allow_objects(true), &bytes);
    assert!(matches!(kind, ErrorKind::ReservedKey { .. }), "{kind:?}");
    assert_eq!(at, Some(16));
    let bytes = [word(24), field("Node"), word(0x7fff_ffff), word(0)].concat();
    let (kind, _) = kind_of(Config::godot4().with_allow_objects(true), &bytes);
    assert!(
        matches!(
            kind,
            ErrorKind::LengthTooLarge {
                what: "object property count",
                ..
            }
        ),
        "{kind:?}"
    );
}

#[test]
fn typed_arrays_and_dictionaries() {
    // Array[int]: kind 1 (builtin) in bits 16-17, type id 2, then 2 elements.
    let bytes = [
        word(0x0001_001c),
        word(2),
        word(2),
        word(2),
        word(5),
        word(2),
        word(6),
    ]
    .concat();
    let Variant::Array(a) = godot4(&bytes) else {
        panic!()
    };
    assert_eq!(a.element_type, ContainerType::Builtin(VariantType::Int));
    assert_eq!(a.items, [Variant::Int(5), Variant::Int(6)]);
    // A bad element names its index.
    let bytes = [word(0x0001_001c), word(2), word(1), word(0xee)].concat();
    let e = check(Config::godot4(), &bytes).unwrap_err();
    assert!(e.to_string().starts_with("[0]: unknown type id 238"), "{e}");
    // A builtin type id Godot 4 does not have.
    let (kind, at) = kind_of(
        Config::godot4(),
        &[word(0x0001_001c), word(99), word(0)].concat(),
    );
    assert!(
        matches!(kind, ErrorKind::InvalidContainerType(_)),
        "{kind:?}"
    );
    assert_eq!(at, Some(4));
    // Dictionary[StringName, int]: key kind in bits 16-17, value kind in bits 18-19.
    let bytes = [
        word(0x0005_001b),
        word(21),
        word(2),
        word(1),
        word(21),
        field("hp"),
        word(2),
        word(10),
    ]
    .concat();
    let Variant::Dictionary(d) = godot4(&bytes) else {
        panic!()
    };
    assert_eq!(
        d.key_type(),
        &ContainerType::Builtin(VariantType::StringName)
    );
    assert_eq!(d.value_type(), &ContainerType::Builtin(VariantType::Int));
    assert_eq!(d.len(), 1);
    assert_eq!(
        d.get(&Variant::StringName(StringName::from("hp"))),
        Some(&Variant::Int(10))
    );
    // A StringName key may not be a reserved marker name either; the error is at its header.
    let bytes = [
        word(0x0005_001b),
        word(21),
        word(2),
        word(1),
        word(21),
        field("$godot_serde::Rid"),
        word(2),
        word(10),
    ]
    .concat();
    let (kind, at) = kind_of(Config::godot4(), &bytes);
    assert!(matches!(kind, ErrorKind::ReservedKey { .. }), "{kind:?}");
    assert_eq!(at, Some(16));
    // Before 4.3 (4.0-4.2) the kind bits mean nothing: a plain Array of one int.
    let bytes = [word(0x0001_001c), word(1), word(2), word(3)].concat();
    let v = check(Config::new(GodotVersion::V4_0), &bytes).unwrap();
    assert_eq!(v, Variant::from(vec![Variant::Int(3)]));
}
