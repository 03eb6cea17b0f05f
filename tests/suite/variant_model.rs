//! `Variant`'s own serde data model (issue 13): `from_variant` and `to_variant` give exactly
//! what the bytes give, for every layout, precision and enum style. The oracle is the byte
//! round trip: `to_bytes` then `from_bytes` (objects allowed, as `to_variant` /
//! `from_variant` allow them).
use crate::generate;
use crate::value_oracle;

use std::collections::BTreeMap;

use generate::{Action, Rng};
use godot_serde::*;
use serde::{Deserialize, Serialize};
use value_oracle::{agrees, configs, oracle, shown, to_variant_agrees};

/// A random Variant, with the types the shared generator leaves out mixed in.
fn variant(rng: &mut Rng, version: GodotVersion, depth: usize) -> Variant {
    let g4 = version.is_godot4();
    match rng.below(12) {
        0 if g4 => Variant::Vector3i(Vector3i::new(rng.i32(), rng.i32(), rng.i32())),
        1 if g4 => Variant::Vector4i(Vector4i::new(rng.i32(), rng.i32(), rng.i32(), rng.i32())),
        2 if g4 => Variant::PackedInt64Array(PackedInt64Array(vec![rng.int(), rng.int()])),
        3 if g4 => Variant::PackedFloat64Array(PackedFloat64Array(vec![rng.float()])),
        4 if version.has_typed_arrays() => {
            Variant::PackedVector4Array(PackedVector4Array(vec![rng.v4()]))
        }
        5 if g4 => Variant::Callable(Callable),
        6 => Variant::ObjectId(ObjectId(0)),
        7 if depth > 0 => {
            // Plain Dictionaries with String keys, as structs and maps are.
            let mut d = Dictionary::new();
            for _ in 0..rng.below(4) {
                d.insert(rng.string().into(), variant(rng, version, depth - 1));
            }
            d.into()
        }
        _ => rng.variant(version, depth),
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(tag = "type")]
enum Tagged {
    A { x: i32 },
    B { name: String },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(untagged)]
enum Untagged {
    Int(i64),
    Text(String),
    Pos(Vector2),
    Any(Variant),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Marker;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Record {
    id: u32,
    big: i64,
    ratio: f64,
    name: String,
    flag: bool,
    pos: Vector3,
    ipos: Vector2i,
    basis: Basis,
    color: Color,
    path: NodePath,
    sname: StringName,
    tags: PackedStringArray,
    heights: PackedFloat32Array,
    points: PackedVector2Array,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    actions: Vec<Action>,
    tagged: Tagged,
    untagged: Vec<Untagged>,
    scores: BTreeMap<String, i32>,
    by_id: BTreeMap<u32, (bool, char)>,
    maybe: Option<Box<Record>>,
    unit: (),
    marker: Marker,
    any: Variant,
}

fn record(rng: &mut Rng, version: GodotVersion, depth: usize) -> Record {
    let n = rng.below(3) as usize;
    let g4 = version.is_godot4();
    Record {
        id: rng.next() as u32,
        big: rng.int(),
        ratio: rng.float(),
        name: rng.string(),
        flag: rng.bool(),
        pos: rng.v3(),
        ipos: Vector2i::new(rng.i32(), rng.i32()),
        basis: Basis::from_rows(rng.v3(), rng.v3(), rng.v3()),
        color: rng.color(),
        path: rng.node_path(),
        sname: StringName(rng.string()),
        tags: PackedStringArray((0..n).map(|_| rng.string()).collect()),
        heights: PackedFloat32Array((0..n).map(|_| rng.f32()).collect()),
        points: PackedVector2Array((0..n).map(|_| rng.v2()).collect()),
        blob: (0..rng.below(9)).map(|_| rng.next() as u8).collect(),
        actions: (0..n).map(|_| rng.action()).collect(),
        tagged: if rng.bool() {
            Tagged::A { x: rng.i32() }
        } else {
            Tagged::B { name: rng.string() }
        },
        untagged: vec![
            Untagged::Int(rng.int()),
            Untagged::Text(rng.string()),
            Untagged::Pos(rng.v2()),
            Untagged::Any(if g4 {
                variant(rng, version, 1)
            } else {
                Variant::Nil
            }),
        ],
        scores: (0..n).map(|_| (rng.string(), rng.next() as i32)).collect(),
        by_id: (0..n)
            .map(|_| (rng.next() as u32, (rng.bool(), 'ß')))
            .collect(),
        maybe: (depth > 0 && rng.bool()).then(|| Box::new(record(rng, version, depth - 1))),
        unit: (),
        marker: Marker,
        any: variant(rng, version, 2),
    }
}

#[test]
fn from_variant_gives_what_the_bytes_give() {
    let mut cases = 0;
    for (i, config) in configs().into_iter().enumerate() {
        let version = config.version();
        let mut rng = Rng::new(1000 + i as u64);
        for _ in 0..150 {
            // A Variant as decoded from bytes, read back as a Variant and as a Record.
            let r = record(&mut rng, version, 1);
            let Ok(bytes) = config.to_bytes(&r) else {
                continue;
            };
            let v: Variant = config.with_allow_objects(true).from_bytes(&bytes).unwrap();
            agrees::<Record>(config, &v);
            agrees::<Variant>(config, &v);
            cases += 2;
            // Any Variant, read as a Variant and as a few shapes that may or may not fit.
            let v = variant(&mut rng, version, 3);
            agrees::<Variant>(config, &v);
            agrees::<Vec<Untagged>>(config, &v);
            agrees::<BTreeMap<String, Variant>>(config, &v);
            agrees::<Option<Action>>(config, &v);
            agrees::<(Vector2, f32)>(config, &v);
            cases += 5;
        }
    }
    println!("from_variant: {cases} cases");
    assert!(cases > 10_000, "{cases}");
}

#[test]
fn from_variant_lends_str_and_bytes() {
    let v = Variant::from("hello");
    let s: &str = from_variant(&v).unwrap();
    assert_eq!(s, "hello");
    let b = Variant::PackedByteArray(PackedByteArray(vec![1, 2, 3]));
    let bytes: &[u8] = from_variant(&b).unwrap();
    assert_eq!(bytes, [1, 2, 3]);
    #[derive(Deserialize)]
    struct Msg<'a> {
        name: &'a str,
        #[serde(borrow)]
        data: &'a [u8],
    }
    let v = variant!({"name": "Ann", "data": (PackedByteArray(vec![9]))});
    let m: Msg = from_variant(&v).unwrap();
    assert_eq!((m.name, m.data), ("Ann", &[9u8][..]));
}

#[test]
fn variant_is_a_deserializer() {
    use serde::de::IntoDeserializer;
    let v = variant!({"id": 3, "pos": Vector2(1, 2)});
    #[derive(Deserialize, Debug, PartialEq)]
    struct P {
        id: u8,
        pos: Vector2,
    }
    let expected = P {
        id: 3,
        pos: Vector2::new(1.0, 2.0),
    };
    assert_eq!(P::deserialize(&v).unwrap(), expected);
    assert_eq!(P::deserialize(v.clone()).unwrap(), expected);
    let de: Variant = v.clone();
    assert_eq!(
        P::deserialize(IntoDeserializer::<Error>::into_deserializer(de)).unwrap(),
        expected
    );
    assert_eq!(Variant::deserialize(&v).unwrap(), v);
    assert_eq!(Variant::deserialize(v.clone()).unwrap(), v);
}

#[test]
fn reserved_keys_do_not_become_godot_types() {
    // The issue 11 item 1 shape, built in code: a marker key anywhere in a Dictionary.
    let v = variant!({
        "id": 1,
        "$godot_serde::Object": ["OS", {"script": "res://evil.gd"}],
    });
    let e = Variant::deserialize(&v).unwrap_err();
    assert!(e.to_string().contains("reserved"), "{e}");
    #[derive(Deserialize, Debug)]
    struct Msg {
        #[allow(dead_code)]
        id: i32,
        #[serde(flatten)]
        #[allow(dead_code)]
        rest: Variant,
    }
    assert!(Msg::deserialize(&v).is_err());
    assert!(from_variant::<Msg>(&v).is_err());
    assert!(from_variant::<Variant>(&v).is_err());
}

#[test]
fn to_variant_gives_what_the_bytes_give() {
    let mut cases = 0;
    for (i, config) in configs().into_iter().enumerate() {
        let version = config.version();
        let mut rng = Rng::new(2000 + i as u64);
        for _ in 0..150 {
            let r = record(&mut rng, version, 1);
            to_variant_agrees(config, &r);
            let v = variant(&mut rng, version, 3);
            to_variant_agrees(config, &v);
            // Text the wire changes or refuses, integers it cannot hold, repeated keys.
            let odd: Vec<(String, u64)> = vec![
                ("a\0b".into(), 1),
                ("\u{FEFF}bom".into(), 2),
                ("big".into(), u64::MAX),
            ];
            let pick = &odd[rng.below(3) as usize];
            to_variant_agrees(config, pick);
            let pairs = vec![(1, "x"), (2, "y"), (1, "z")];
            let map: Vec<(i32, &str)> = pairs;
            to_variant_agrees(config, &map);
            cases += 4;
        }
    }
    println!("to_variant: {cases} cases");
    assert!(cases > 5_000, "{cases}");
}

/// Counts how often it is serialized.
#[derive(Debug)]
struct Counted<'a, T>(&'a std::cell::Cell<usize>, T);

impl<T: Serialize> Serialize for Counted<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.set(self.0.get() + 1);
        self.1.serialize(s)
    }
}

/// `to_variant` serializes `value` once and gives what the bytes give (error kinds included).
fn once<T: Serialize + core::fmt::Debug>(config: Config, value: T) {
    let count = std::cell::Cell::new(0);
    let items = [Counted(&count, &value), Counted(&count, &value)];
    let got = shown(config.to_variant(&items));
    // Serializing stops at the first error.
    let expected = if got.is_ok() { 2 } else { count.get().max(1) };
    assert_eq!(count.get(), expected, "{config:?} {value:?}");
    assert_eq!(
        got,
        oracle::<_, Variant>(config, &items),
        "{config:?} {value:?}"
    );
}

#[test]
fn to_variant_serializes_once_for_every_config() {
    let mut rng = Rng::new(77);
    let object = Variant::Object(Box::new(Object {
        class: "Node2D".into(),
        properties: vec![
            ("name".into(), "a".into()),
            ("name".into(), 2.into()),
            ("pos".into(), Vector2::new(1.0, 2.5).into()),
        ],
    }));
    let mut typed = Array::typed(ContainerType::Builtin(VariantType::Int));
    typed.push(3);
    // Godot 3 has no double-precision math types: an error wherever one is written.
    let g3_double = Config::godot3().with_double_precision(true);
    for config in configs().into_iter().chain([g3_double]) {
        let version = config.version();
        once(config, record(&mut rng, version, 1));
        once(config, variant(&mut rng, version, 3));
        // Text the wire refuses (NUL) or changes (leading BOM), at every place text goes.
        once(config, "a\0b");
        once(config, "\u{FEFF}bom");
        once(config, StringName("\u{FEFF}n".into()));
        once(config, vec![("\u{FEFF}k", 1)]);
        once(config, NodePath::from("/root/\u{FEFF}x:y"));
        // Types some layouts lack or change, markers of every kind.
        once(config, Vector3i::new(1, 2, 3));
        once(config, Rid(7));
        once(config, Rid(u64::MAX));
        once(config, ObjectId(u64::MAX));
        once(config, ObjectId(0));
        // Id markers with payloads the id field takes (any non-negative integer, through
        // `Some` and newtypes) or refuses (negative, fractional, text, a sequence).
        once(config, IdAs(RID_MARKER, Some(5u8)));
        once(config, IdAs(OBJECT_ID_MARKER, 9i64));
        once(config, IdAs(RID_MARKER, -1i32));
        once(config, IdAs(OBJECT_ID_MARKER, -3i64));
        once(config, IdAs(RID_MARKER, 1.5f64));
        once(config, IdAs(OBJECT_ID_MARKER, "7"));
        once(config, IdAs(RID_MARKER, [1u64, 2]));
        once(config, IdAs(OBJECT_ID_MARKER, ()));
        // Vector packed arrays: components of either width (the `64` marker: f64) through
        // the wire's width, NaN bits, beyond f32's range, ragged or refused payloads.
        #[cfg(feature = "double-precision")]
        let sig_nan = f64::from_bits(0x7ff4_0000_0000_0001);
        #[cfg(not(feature = "double-precision"))]
        let sig_nan = f32::from_bits(0x7fa0_0001);
        once(
            config,
            PackedVector2Array(vec![Vector2::new(sig_nan, -0.0), Vector2::new(1e-40, 3.5)]),
        );
        let wide: Vec<u8> = [1e300f64, 0.1, f64::from_bits(0x7ff4_0000_0000_0001)]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        once(config, IdAs(PV3_64_MARKER, serde_bytes::Bytes::new(&wide)));
        once(
            config,
            IdAs(PV3_MARKER, serde_bytes::Bytes::new(&wide[..12])),
        );
        once(
            config,
            IdAs(PV3_MARKER, serde_bytes::Bytes::new(&wide[..5])),
        );
        once(config, IdAs(PV3_MARKER, "abc"));
        once(config, IdAs(PV3_MARKER, [1.0f32, 2.0, 3.0]));
        // Signals: text the wire refuses or changes, id 0, fields it takes or refuses.
        for name in ["a\0b", "\u{FEFF}hit", ""] {
            once(config, Signal::new(name, ObjectId(0)));
        }
        once(config, SignalAs(vec![Variant::from("s"), Variant::from(7)]));
        once(
            config,
            SignalAs(vec![Variant::from("s"), Variant::from(-7)]),
        );
        once(
            config,
            SignalAs(vec![Variant::from("s"), Variant::from(1.5)]),
        );
        once(config, SignalAs(vec![Variant::from(1), Variant::from(7)]));
        once(
            config,
            SignalAs(vec![
                Variant::StringName(StringName("s".into())),
                Variant::from(7),
            ]),
        );
        once(config, object.clone());
        once(config, Variant::from(typed.clone()));
        once(
            config,
            PackedVector4Array(vec![Vector4::new(1.0, 2.0, 3.0, 4.0)]),
        );
        once(
            config,
            PackedVector3Array(vec![Vector3::new(0.1, 2.0, 3.0)]),
        );
        once(
            config,
            Signal {
                name: "hit".into(),
                object: ObjectId(u64::MAX),
            },
        );
        once(config, Callable);
        // Typed-container inference: same-typed elements, mixed, empty.
        once(config, vec![0.5f32, 1.5]);
        once(config, vec![Variant::from(1), Variant::from("x")]);
        once(config, Vec::<i32>::new());
        once(config, u64::MAX);
        // A reserved marker name as a key.
        once(config, vec![("$godot_serde::StringName", "x")]);
    }
}

/// A Signal marker around any fields, as a hand-written `Serialize` may produce.
#[derive(Debug)]
struct SignalAs(Vec<Variant>);

impl Serialize for SignalAs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTupleStruct;
        let mut t = s.serialize_tuple_struct("$godot_serde::Signal", self.0.len())?;
        for f in &self.0 {
            t.serialize_field(f)?;
        }
        t.end()
    }
}

/// The marker names of the RID and object-id types (`docs/wire-format.md`).
const RID_MARKER: &str = "$godot_serde::RID";
const OBJECT_ID_MARKER: &str = "$godot_serde::ObjectId";
/// The PackedVector3Array marker names, for f32 and for f64 components.
const PV3_MARKER: &str = "$godot_serde::PackedVector3Array";
const PV3_64_MARKER: &str = "$godot_serde::PackedVector3Array64";

/// An id marker around any payload, as a hand-written `Serialize` may produce.
#[derive(Debug)]
struct IdAs<T>(&'static str, T);

impl<T: Serialize> Serialize for IdAs<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(self.0, &self.1)
    }
}

/// A chain of `n` nested one-element Arrays around an int.
fn nested(n: usize) -> Variant {
    (0..n).fold(Variant::from(1), |v, _| Variant::from(Array::from(vec![v])))
}

#[test]
fn depth_limit_agrees_with_the_bytes() {
    for config in configs() {
        for limit in [4, 9] {
            let config = config.with_max_depth(limit);
            for n in 0..limit + 4 {
                let v = nested(n);
                once(config, v.clone());
                // A marker value deep inside (a NodePath, an Object holding Arrays).
                let path = (0..n).fold(Variant::from(NodePath::from("a/b")), |v, _| {
                    Variant::from(Array::from(vec![v]))
                });
                once(config, path);
                let object = Variant::Object(Box::new(Object {
                    class: "Node".into(),
                    properties: vec![("deep".into(), nested(n.saturating_sub(2)))],
                }));
                once(config, vec![object]);
                agrees::<Variant>(config, &v);
                agrees::<Vec<Variant>>(config, &v);
            }
        }
    }
}

#[test]
fn from_variant_text_and_objects_agree_with_the_bytes() {
    let object = Variant::Object(Box::new(Object {
        class: "Node2D".into(),
        properties: vec![("name".into(), "\u{FEFF}a".into()), ("hp".into(), 2.into())],
    }));
    let cases = [
        Variant::from("a\0b"),
        Variant::from("\u{FEFF}bom"),
        Variant::StringName(StringName("\u{FEFF}n".into())),
        Variant::from(PackedStringArray(vec!["\u{FEFF}x".into(), "y".into()])),
        variant!({"\u{FEFF}k": 1, "b": "\u{FEFF}v"}),
        // Keys that dropping the BOM makes one, or a reserved name; keys it leaves apart.
        variant!({"\u{FEFF}a": 1, "a": 2}),
        variant!({"a": 1, "\u{FEFF}a": 2, "b": 3}),
        variant!({"\u{FEFF}$godot_serde::Object": ["OS", {}]}),
        variant!({"\u{FEFF}\u{FEFF}a": 1, "\u{FEFF}a": 2}),
        Variant::from(Dictionary::from_iter([
            (
                Variant::StringName(StringName("\u{FEFF}a".into())),
                Variant::from(1),
            ),
            (Variant::from("a"), Variant::from(2)),
        ])),
        Variant::from(Dictionary::from_iter([
            (
                Variant::from(vec![Variant::from("\u{FEFF}x")]),
                Variant::from(1),
            ),
            (Variant::from(vec![Variant::from("x")]), Variant::from(2)),
        ])),
        object,
        Variant::from(Rid(7)),
        Variant::from(Vector3i::new(1, 2, 3)),
        Variant::from(Array::from(vec![Variant::from(1.5), Variant::from(2.5)])),
    ];
    for config in configs()
        .into_iter()
        .chain([Config::godot3().with_double_precision(true)])
    {
        for v in cases.iter().chain([&Variant::from(Vector2::new(1.0, 2.0))]) {
            agrees::<Variant>(config, v);
            agrees::<String>(config, v);
            agrees::<BTreeMap<String, Variant>>(config, v);
        }
    }
}

#[test]
fn from_variant_lends_in_godot3_and_typed_configs() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Msg<'a> {
        name: &'a str,
        tags: Vec<&'a str>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Owned {
        name: String,
        tags: Vec<String>,
    }
    // Where the wire keeps the Variant as it is, it is read in place and lends its text.
    let v = variant!({"name": "Ann", "tags": ["a", 1]});
    for config in [
        Config::godot3(),
        Config::new(GodotVersion::V4_3).with_typed_containers(true),
        Config::default().with_typed_containers(true),
    ] {
        // ["a", "b"] is typed by the typed configs' inference (the wire changes it), so
        // only Godot 3 reads it in place and lends it.
        let plain = variant!({"name": "Ann", "tags": ["a", "b"]});
        match config.from_variant::<Msg>(&plain) {
            Ok(m) => assert_eq!((m.name, m.tags), ("Ann", vec!["a", "b"])),
            Err(e) => assert!(config.typed_containers() && e.to_string().contains("borrowed")),
        }
        assert_eq!(
            config.version() == GodotVersion::V3,
            config.from_variant::<Msg>(&plain).is_ok()
        );
        let name: BTreeMap<&str, Variant> = config
            .from_variant(&v)
            .unwrap_or_else(|e| panic!("{config:?}: {e}"));
        assert_eq!(name.keys().copied().collect::<Vec<_>>(), ["name", "tags"]);
        assert_eq!(name["name"], Variant::from("Ann"));
    }
    // Where the wire changes it (a leading BOM dropped, a plain Array typed by inference, a
    // Godot 3 RID losing its id), `T` reads the bytes: an owned `T` gets exactly what they
    // give, a borrowing one serde's "borrowed" type error, as from a reader.
    let cases = [
        (
            Config::default(),
            Variant::from("\u{FEFF}Ann"),
            "\"Ann\"".to_owned(),
        ),
        (
            Config::default().with_typed_containers(true),
            variant!({"name": "Ann", "tags": ["a", "b"]}),
            format!(
                "{:?}",
                Owned {
                    name: "Ann".into(),
                    tags: vec!["a".into(), "b".into()]
                }
            ),
        ),
    ];
    for (config, v, want) in cases {
        let got = match &v {
            Variant::String(_) => shown(config.from_variant::<String>(&v)),
            _ => shown(config.from_variant::<Owned>(&v)),
        };
        assert_eq!(got, Ok(want), "{config:?}");
        let err = match &v {
            Variant::String(_) => config.from_variant::<&str>(&v).unwrap_err(),
            _ => config.from_variant::<Msg>(&v).unwrap_err(),
        };
        assert!(err.to_string().contains("borrowed"), "{config:?}: {err}");
    }
    // Object ids and full objects take the same form in Godot 3 and 4; a Godot 3 RID reads
    // as RID 0. Whatever path runs, the value is what the bytes give.
    let object = Variant::Object(Box::new(Object {
        class: "Node".into(),
        properties: vec![("name".into(), "n".into())],
    }));
    let v = variant!({
        "name": "Ann",
        "tags": ["a", 2],
        "id": (ObjectId(5)),
        "rid": (Rid(7)),
        "o": object,
    });
    for config in configs() {
        agrees::<Variant>(config, &v);
        // Godot 4 keeps the RID's id: the Variant is read in place and lends.
        if config.version().is_godot4() {
            let m: BTreeMap<&str, Variant> = config
                .from_variant(&v)
                .unwrap_or_else(|e| panic!("{config:?}: {e}"));
            assert_eq!(m["name"], Variant::from("Ann"), "{config:?}");
        }
    }
}

/// The components of every vector packed array in `v`, as bits (NaN payloads included,
/// which `Debug` does not show).
fn vector_bits(v: &Variant) -> Vec<u64> {
    match v {
        Variant::PackedVector2Array(p) => p.0.iter().flat_map(|x| [x.x, x.y]).map(bits).collect(),
        Variant::PackedVector3Array(p) => {
            p.0.iter().flat_map(|x| [x.x, x.y, x.z]).map(bits).collect()
        }
        Variant::Array(a) => a.items.iter().flat_map(vector_bits).collect(),
        _ => Vec::new(),
    }
}

#[allow(clippy::unnecessary_cast)]
fn bits(x: Real) -> u64 {
    #[cfg(feature = "double-precision")]
    return (x as f64).to_bits();
    #[cfg(not(feature = "double-precision"))]
    return u64::from((x as f32).to_bits());
}

#[test]
fn to_variant_keeps_vector_component_bits_as_the_bytes_do() {
    #[cfg(feature = "double-precision")]
    let sig_nan = f64::from_bits(0x7ff4_0000_0000_0001);
    #[cfg(not(feature = "double-precision"))]
    let sig_nan = f32::from_bits(0x7fa0_0001);
    let narrow: Vec<u8> = [f32::from_bits(0x7fa0_0001), -0.0, 1e-40]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let wide: Vec<u8> = [f64::from_bits(0x7ff4_0000_0000_0001), 1e300, 0.1]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    for config in configs() {
        let values = [
            config.to_variant(&PackedVector2Array(vec![Vector2::new(sig_nan, -0.0)])),
            config.to_variant(&IdAs(PV3_MARKER, serde_bytes::Bytes::new(&narrow))),
            config.to_variant(&IdAs(PV3_64_MARKER, serde_bytes::Bytes::new(&wide))),
        ];
        let oracles = [
            config.to_bytes(&PackedVector2Array(vec![Vector2::new(sig_nan, -0.0)])),
            config.to_bytes(&IdAs(PV3_MARKER, serde_bytes::Bytes::new(&narrow))),
            config.to_bytes(&IdAs(PV3_64_MARKER, serde_bytes::Bytes::new(&wide))),
        ];
        for (got, bytes) in values.into_iter().zip(oracles) {
            let got = got.unwrap_or_else(|e| panic!("{config:?}: {e}"));
            let expected: Variant = config
                .from_bytes(&bytes.unwrap_or_else(|e| panic!("{config:?}: {e}")))
                .unwrap();
            assert_eq!(vector_bits(&got), vector_bits(&expected), "{config:?}");
            assert!(!vector_bits(&got).is_empty());
        }
    }
}
