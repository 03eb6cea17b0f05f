//! Regression tests for bugs found by the engine-conformance tests.

use crate::common;

use common::hex;
use godot_serde::Config;

/// A PackedStringArray decoded into a `Vec<String>` was read as a PackedByteArray (its first
/// string length came out as an integer element).
#[test]
fn packed_string_array_into_vec_of_strings() {
    // PackedStringArray(["ab", "cde"]): element lengths include the NUL.
    let g4 = hex("22000000 02000000 03000000 61620000 04000000 63646500");
    let v: Vec<String> = godot_serde::from_bytes(&g4).unwrap();
    assert_eq!(v, ["ab", "cde"]);
    let g3 = hex("17000000 02000000 03000000 61620000 04000000 63646500");
    let v: Vec<String> = Config::godot3().from_bytes(&g3).unwrap();
    assert_eq!(v, ["ab", "cde"]);
    // Inside a struct, and as a negative count (an empty array, as decode_variant reads it).
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct S {
        s: Vec<String>,
    }
    let d = hex("1b000000 01000000 04000000 01000000 73000000 22000000 ffffffff");
    assert_eq!(godot_serde::from_bytes::<S>(&d).unwrap(), S { s: vec![] });
    // A count beyond the input is an error, not an allocation.
    assert!(godot_serde::from_bytes::<Vec<String>>(&hex("22000000 ffffff7f")).is_err());
}

/// Godot 3's `var2str` of a NaN with the sign bit set is `-nan.0` (Godot 3.2.3,
/// `tests/fixtures/godot3/vectors.jsonl` record `float_nan_negative`); we printed `nan`.
#[test]
fn godot3_text_of_a_negative_nan() {
    use godot_serde::Variant;
    let negative = Variant::Float(f64::from_bits(0xfff8_0000_0000_0000));
    assert_eq!(negative.to_godot3_string(), "-nan.0");
    assert_eq!(Variant::Float(f64::NAN).to_godot3_string(), "nan");
}

/// With `with_typed_containers`, a typed Array (or typed Dictionary) element was invisible to
/// the inference of the sequence holding it: `[5, Array[int]([1])]` came out as an
/// `Array[int]` holding an Array, which Godot drops on insertion.
#[test]
fn typed_container_element_keeps_the_outer_sequence_untyped() {
    use godot_serde::{Array, ContainerType, Dictionary, Variant, VariantType};
    let config = Config::godot4().with_typed_containers(true);
    let mut inner = Array::typed(ContainerType::Builtin(VariantType::Int));
    inner.push(1i64);
    // Untyped outer Array (1c000000), count 2; int 5; then the inner typed Array:
    // 1c000100 (kind BUILTIN) 02000000 (int) 01000000 (count) 02000000 01000000 (int 1).
    let value = vec![Variant::Int(5), Variant::Array(Box::new(inner))];
    let expected = hex("1c000000 02000000 02000000 05000000 \
         1c000100 02000000 01000000 02000000 01000000");
    assert_eq!(config.to_bytes(&value).unwrap(), expected);
    assert_eq!(config.serialized_size(&value).unwrap(), expected.len());
    // The same with a typed Dictionary element, Dictionary[String, Variant]:
    // 1b000100 (key kind BUILTIN) 04000000 (String) 00000000 (count 0).
    let mut dict = Dictionary::new();
    dict.set_key_type(ContainerType::Builtin(VariantType::String));
    let value = vec![Variant::Int(5), Variant::Dictionary(dict)];
    let expected = hex("1c000000 02000000 02000000 05000000 1b000100 04000000 00000000");
    assert_eq!(config.to_bytes(&value).unwrap(), expected);
}

/// An `ObjectId` read from the object-as-id form with instance id 0 (how Godot 3.2-era
/// engines wrote a null object, spec §4.13: "id 0 → null") was an error instead of the null
/// object `ObjectId(0)`, which the NIL form already gives.
#[test]
fn object_id_zero_in_the_as_id_form_is_the_null_object() {
    use godot_serde::ObjectId;
    // OBJECT (4.x id 24) | as-id flag (bit 16), u64 id 0.
    let g4 = hex("18000100 00000000 00000000");
    assert_eq!(
        godot_serde::from_bytes::<ObjectId>(&g4).unwrap(),
        ObjectId(0)
    );
    assert_eq!(
        godot_serde::from_reader::<_, ObjectId>(&g4[..]).unwrap(),
        ObjectId(0)
    );
    // The same in Godot 3 (OBJECT is id 17), the form the 3.2 spec source wrote.
    let g3 = hex("11000100 00000000 00000000");
    assert_eq!(
        Config::godot3().from_bytes::<ObjectId>(&g3).unwrap(),
        ObjectId(0)
    );
    // The NIL form, for comparison.
    assert_eq!(
        godot_serde::from_bytes::<ObjectId>(&hex("00000000")).unwrap(),
        ObjectId(0)
    );
}

/// A full `Object` with an empty class name (the null object) was written as OBJECT, an empty
/// class name and a property count. Godot writes a null object as NIL (spec §4.13, §10 rule
/// 9), and its decoder (ours too) stops after the empty class name, so the count word was
/// read as the next value.
#[test]
fn null_full_object_is_written_as_nil() {
    use godot_serde::{Object, Variant};
    let null = Variant::Object(Box::new(Object {
        class: String::new(),
        properties: vec![("p".to_owned(), Variant::Int(1))],
    }));
    let value = Variant::from(vec![null, Variant::Int(5)]);
    // Array of 2: NIL, then int 5.
    let g4 = hex("1c000000 02000000 00000000 02000000 05000000");
    let config = Config::godot4().with_allow_objects(true);
    assert_eq!(config.to_bytes(&value).unwrap(), g4);
    assert_eq!(config.serialized_size(&value).unwrap(), g4.len());
    let back: Variant = config.from_bytes(&g4).unwrap();
    assert_eq!(back, Variant::from(vec![Variant::Nil, Variant::Int(5)]));
    let g3 = hex("13000000 02000000 00000000 02000000 05000000");
    assert_eq!(Config::godot3().to_bytes(&value).unwrap(), g3);
}

/// A container typed with the builtin type NIL was written with kind BUILTIN and type id 0.
/// Godot writes kind NONE for it (spec §2.1, encoder rule 1), and decoders (ours too) read
/// BUILTIN 0 as untyped, so the bytes were not the engine's.
#[test]
fn builtin_nil_container_type_is_written_untyped() {
    use godot_serde::{Array, ContainerType, Dictionary, Variant, VariantType};
    let mut array = Array::typed(ContainerType::Builtin(VariantType::Nil));
    array.push(1i64);
    // Untyped Array, count 1, int 1.
    assert_eq!(
        godot_serde::to_bytes(&array).unwrap(),
        hex("1c000000 01000000 02000000 01000000")
    );
    // Spec §8.2: `Dictionary[Variant, int] = {}` is 1b000400 02000000 00000000 (only the value
    // kind, bits 18-19, is set).
    let mut dict = Dictionary::new();
    dict.set_key_type(ContainerType::Builtin(VariantType::Nil));
    dict.set_value_type(ContainerType::Builtin(VariantType::Int));
    let bytes = godot_serde::to_bytes(&Variant::Dictionary(dict)).unwrap();
    assert_eq!(bytes, hex("1b000400 02000000 00000000"));
}

/// `dump::annotate` read a property count after the empty class name of a null full object
/// (`18000000 00000000`, spec §4.13: "Empty class name → null"), which the decoder does not,
/// so it reported an error for valid input and misplaced everything after it.
#[test]
fn annotate_stops_after_the_empty_class_name_of_a_null_object() {
    let config = Config::godot4().with_allow_objects(true);
    // Array of 2: a null full object (OBJECT, class name length 0), then int 5.
    let bytes = hex("1c000000 02000000 18000000 00000000 02000000 05000000");
    assert!(config.from_bytes::<godot_serde::Variant>(&bytes).is_ok());
    let dump = godot_serde::dump::annotate(&bytes, config);
    assert!(!dump.contains("!!"), "{dump}");
    assert!(!dump.contains("trailing"), "{dump}");
    assert!(dump.contains("[1] int"), "{dump}");
}

/// `from_reader` retried a read interrupted by a signal (`ErrorKind::Interrupted`, which
/// `std::io::Read` says to retry) everywhere except while skipping the padding after a
/// PackedByteArray, where it failed.
#[test]
fn reader_interrupted_during_padding_is_retried() {
    /// Gives one byte per call, each after an `Interrupted` error.
    struct Flaky<'a> {
        data: &'a [u8],
        interrupt: bool,
    }
    impl std::io::Read for Flaky<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let Some((first, rest)) = self.data.split_first() else {
                return Ok(0);
            };
            match buf.first_mut() {
                Some(b) => *b = *first,
                None => return Ok(0),
            }
            self.data = rest;
            Ok(1)
        }
    }
    // PackedByteArray([5]): count 1, one byte, three bytes of padding.
    let bytes = hex("1d000000 01000000 05000000");
    let reader = Flaky {
        data: &bytes,
        interrupt: false,
    };
    let v: godot_serde::PackedByteArray = godot_serde::from_reader(reader).unwrap();
    assert_eq!(v.0, [5]);
}

/// A plain Dictionary whose first key was the text of an internal marker name (e.g.
/// `{"$godot_serde::Object": ["Node", {"script": "res://x.gd"}]}`, which any peer can send)
/// decoded into a `Variant` as that Godot type instead of a Dictionary: here a full Object,
/// although full objects were not allowed, which encoding the Variant again then wrote.
#[test]
fn dictionary_keyed_by_a_marker_name_is_not_taken_for_that_type() {
    use godot_serde::Variant;
    // Dictionary, 1 entry: String "$godot_serde::Object" (20 bytes) -> Array of 2:
    // String "Node", Dictionary {String "script": String "res://x.gd"}.
    let bytes = hex("1b000000 01000000 \
         04000000 14000000 24676f64 6f745f73 65726465 3a3a4f62 6a656374 \
         1c000000 02000000 04000000 04000000 4e6f6465 \
         1b000000 01000000 04000000 06000000 73637269 70740000 \
         04000000 0a000000 7265733a 2f2f782e 67640000");
    for result in [
        godot_serde::from_bytes::<Variant>(&bytes),
        godot_serde::from_reader::<_, Variant>(&bytes[..]),
    ] {
        match result {
            Ok(v) => assert!(matches!(v, Variant::Dictionary(_)), "{v:?}"),
            Err(e) => assert_eq!(e.offset(), Some(8), "{e}"),
        }
    }
    // Typed maps refuse it too (issue 11.1): `#[serde(flatten)]` reads a struct as a map and
    // buffers its entries, so the map path cannot tell a typed target from a `Variant`.
    let e =
        godot_serde::from_bytes::<std::collections::BTreeMap<String, godot_serde::Variant>>(&bytes)
            .unwrap_err();
    assert_eq!(e.offset(), Some(8), "{e}");
}

/// A Dictionary of Godot String keys (type 4) to 32-bit ints, keys written byte for byte.
fn keyed(entries: &[(&[u8], i32)]) -> Vec<u8> {
    let mut out = vec![27, 0, 0, 0];
    out.extend_from_slice(&u32::try_from(entries.len()).unwrap().to_le_bytes());
    for (key, value) in entries {
        out.extend_from_slice(&[4, 0, 0, 0]);
        out.extend_from_slice(&u32::try_from(key.len()).unwrap().to_le_bytes());
        out.extend_from_slice(key);
        out.resize(out.len().next_multiple_of(4), 0);
        out.extend_from_slice(&[2, 0, 0, 0]);
        out.extend_from_slice(&value.to_le_bytes());
    }
    out
}

/// Struct keys are matched against the field names without changing what a key means: any
/// order, unknown keys, and keys whose text is cut at a NUL or loses a leading BOM read as
/// that text, from a slice and from a reader alike.
#[test]
fn struct_keys_read_as_their_text() {
    #[derive(serde::Deserialize, Debug, PartialEq, Default)]
    #[serde(default)]
    struct S {
        alpha: i32,
        #[serde(rename = "c\0d")]
        nul: i32,
        #[serde(rename = "\u{FEFF}e")]
        bom: i32,
        c: i32,
        e: i32,
    }
    // "c\0d" is the key "c" and BOM + "e" is "e": the fields so renamed never see a key.
    let bytes = keyed(&[(b"alpha", 1), (b"c\0d", 3), ("\u{FEFF}e".as_bytes(), 5)]);
    let want = S {
        alpha: 1,
        c: 3,
        e: 5,
        ..S::default()
    };
    assert_eq!(godot_serde::from_bytes::<S>(&bytes).unwrap(), want);
    assert_eq!(
        godot_serde::from_reader::<_, S>(bytes.as_slice()).unwrap(),
        want
    );

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct T {
        alpha: i32,
        b: i32,
        #[serde(rename = "a-rather-long-field-name")]
        long: i32,
        #[serde(rename = "ab")]
        short: i32,
    }
    let want = T {
        alpha: 1,
        b: 2,
        long: 6,
        short: 7,
    };
    let bytes = keyed(&[
        (b"b", 2),
        (b"zzz", 99),
        (b"ab", 7),
        (b"alpha", 1),
        (b"a-rather-long-field-name", 6),
    ]);
    assert_eq!(godot_serde::from_bytes::<T>(&bytes).unwrap(), want);
    assert_eq!(
        godot_serde::from_reader::<_, T>(bytes.as_slice()).unwrap(),
        want
    );
    let dup = keyed(&[(b"b", 2), (b"b", 2)]);
    let err = godot_serde::from_bytes::<T>(&dup).unwrap_err();
    assert!(err.to_string().contains("duplicate field `b`"), "{err}");
    // Invalid UTF-8 in a key is still an error at the key's offset.
    let bad = keyed(&[(b"b", 2), (b"\xffa", 1)]);
    let err = godot_serde::from_bytes::<T>(&bad).unwrap_err();
    assert_eq!(err.offset(), Some(32), "{err}");
    assert_eq!(err.to_string(), "invalid UTF-8 in key (byte 32)");
}

/// Issue 22 item 9: the byte decoder refused every key starting with `$godot_serde::`, the
/// value layer only the exact marker names, so `to_variant` of such a map was Ok while its
/// bytes did not decode. One rule now: the prefix, on every path.
#[test]
fn one_reserved_key_rule_on_every_path() {
    use godot_serde::{Dictionary, Variant};
    use std::collections::BTreeMap;
    for key in ["$godot_serde::x", "$godot_serde::", "$godot_serde::Vector2"] {
        let map: BTreeMap<&str, i32> = [(key, 1)].into_iter().collect();
        let err = godot_serde::to_variant(&map).unwrap_err();
        assert!(err.to_string().contains("is reserved"), "{key}: {err}");
        // The bytes (which the encoder writes: Godot could hold such a key) do not decode,
        // by either path, with the same message.
        let bytes = godot_serde::to_bytes(&map).unwrap();
        let a = godot_serde::from_bytes::<Variant>(&bytes).unwrap_err();
        let b = godot_serde::variant_from_bytes(&bytes).unwrap_err();
        assert_eq!(a.to_string(), b.to_string());
        assert!(a.to_string().contains("is reserved"), "{a}");
        // A Variant holding one does not pass as data through the Variant deserializer.
        let mut d = Dictionary::new();
        d.insert(key.into(), 1.into());
        let v = Variant::from(d);
        let err = godot_serde::from_variant::<Variant>(&v).unwrap_err();
        assert!(err.to_string().contains("is reserved"), "{key}: {err}");
    }
    // Near misses are plain keys everywhere.
    for key in ["$godot_serde:x", "godot_serde::x", " $godot_serde::x"] {
        let map: BTreeMap<&str, i32> = [(key, 1)].into_iter().collect();
        let v = godot_serde::to_variant(&map).unwrap();
        let bytes = godot_serde::to_bytes(&map).unwrap();
        assert_eq!(godot_serde::variant_from_bytes(&bytes).unwrap(), v);
    }
}

/// A String holding NUL cannot be written as ConfigFile text: Godot 4 reads `\u0000` back as
/// U+FFFD (checked live in `text_hostile_live`), so `Document::set` refuses it and leaves the
/// text as it was, instead of keeping a value that reads back changed.
#[test]
fn document_set_refuses_a_string_with_nul() {
    use godot_serde::Variant;
    use godot_serde::config_file::Document;
    for config in [Config::godot4(), Config::godot3()] {
        let mut doc = Document::parse("[a]\nx=1\n", config).unwrap();
        let before = doc.to_string();
        assert!(doc.set("a", "k", &Variant::String("x\0y".into())).is_err());
        assert_eq!(doc.to_string(), before);
        doc.set("a", "k", &Variant::String("xy".into())).unwrap();
        assert_eq!(doc.to_string(), "[a]\nx=1\nk=\"xy\"\n");
    }
}
