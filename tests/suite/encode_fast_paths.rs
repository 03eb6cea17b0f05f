//! The encoder's fast paths against hand-derived bytes: math types handed over as one run
//! of component bytes (when the in-memory and wire widths agree) or one number at a time
//! (when they differ), short texts stored as one word, and the private marker protocol
//! refusing component runs of the wrong length.

use crate::common;

use common::hex;
use godot_serde::{Color, Config, Vector2i, Vector3};
use serde::Serialize;
use serde::ser::{SerializeTupleStruct, Serializer};

/// Vector3(1.5, -2.0, 0.25) in Godot 4 (type 9), with f32 and with f64 components. One of
/// the two configs takes the bulk path and the other the per-number path, whichever
/// `Real` is (f32 by default, f64 with the `double-precision` feature).
#[test]
fn vector3_in_single_and_double_precision() {
    let v = Vector3::new(1.5, -2.0, 0.25);
    // 1.5f32 = 3fc00000, -2.0f32 = c0000000, 0.25f32 = 3e800000.
    assert_eq!(
        godot_serde::to_bytes(&v).unwrap(),
        hex("09000000 0000c03f 000000c0 0000803e")
    );
    // Header 9 | 1 << 16 (64-bit reals); 1.5f64 = 3ff8.., -2.0f64 = c000.., 0.25f64 = 3fd0...
    let wide = Config::godot4().with_double_precision(true);
    assert_eq!(
        wide.to_bytes(&v).unwrap(),
        hex("09000100 00000000 0000f83f 00000000 000000c0 00000000 0000d03f")
    );
}

/// Integer vectors and Color (always 32-bit components).
#[test]
fn vector2i_and_color() {
    // Vector2i is type 6: 7, -1.
    assert_eq!(
        godot_serde::to_bytes(&Vector2i::new(7, -1)).unwrap(),
        hex("06000000 07000000 ffffffff")
    );
    // Color is type 20: 1.0 = 3f800000, 0.5 = 3f000000, 0, 0.25 = 3e800000.
    assert_eq!(
        godot_serde::to_bytes(&Color::new(1.0, 0.5, 0.0, 0.25)).unwrap(),
        hex("14000000 0000803f 0000003f 00000000 0000803e")
    );
}

/// A type speaking the marker protocol with too few components is refused, not written
/// short.
#[test]
fn math_marker_with_missing_components_is_an_error() {
    struct Short;
    impl Serialize for Short {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut t = s.serialize_tuple_struct("$godot_serde::Vector3", 2)?;
            t.serialize_field(&1.0f32)?;
            t.serialize_field(&2.0f32)?;
            t.end()
        }
    }
    let err = godot_serde::to_bytes(&Short).unwrap_err();
    assert!(err.to_string().contains("Vector3"), "{err}");

    struct ShortBytes;
    impl Serialize for ShortBytes {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut t = s.serialize_tuple_struct("$godot_serde::Vector3", 3)?;
            t.serialize_field(serde_bytes::Bytes::new(&[0; 8]))?;
            t.end()
        }
    }
    assert!(godot_serde::to_bytes(&ShortBytes).is_err());
}

/// The handshake that lets the encoder take component bytes never leaks into another
/// serializer, even after a marker tuple struct that never read it.
#[test]
fn other_serializers_still_see_numbers() {
    struct Unread;
    impl Serialize for Unread {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut t = s.serialize_tuple_struct("$godot_serde::Vector2", 2)?;
            t.serialize_field(&1.0f32)?;
            t.serialize_field(&2.0f32)?;
            t.end()
        }
    }
    godot_serde::to_bytes(&Unread).unwrap();
    let v = Vector3::new(1.5, -2.0, 0.25);
    assert_eq!(serde_json::to_string(&v).unwrap(), "[1.5,-2.0,0.25]");
    let back: Vector3 = godot_serde::from_bytes(&godot_serde::to_bytes(&v).unwrap()).unwrap();
    assert_eq!(back, v);
}

/// Keys and names of every length around the one-word path (0 to 9 bytes): header 4, the
/// byte length, the text, zeros to a multiple of 4; a NUL anywhere is refused.
#[test]
fn short_strings_of_every_length() {
    let text = "abcdefghi";
    for n in 0..=9 {
        let s = &text[..n];
        let mut expected = vec![4, 0, 0, 0, n as u8, 0, 0, 0];
        expected.extend_from_slice(s.as_bytes());
        expected.resize(8 + n.div_ceil(4) * 4, 0);
        assert_eq!(godot_serde::to_bytes(s).unwrap(), expected, "{s:?}");
        for at in 0..n {
            let mut with_nul = s.as_bytes().to_vec();
            with_nul[at] = 0;
            let with_nul = String::from_utf8(with_nul).unwrap();
            assert!(godot_serde::to_bytes(&with_nul).is_err(), "{with_nul:?}");
        }
    }
}

/// Math components through the fast store and the conversion path in one value (an f64 for
/// an f32 slot, exactly representable), too many components refused with the byte counts,
/// and a math value after a struct key.
#[test]
fn math_components_around_conversions_and_wrong_counts() {
    struct Comps<const N: usize>(&'static str, [f64; N], [bool; N]);
    impl<const N: usize> Serialize for Comps<N> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut t = s.serialize_tuple_struct(self.0, N)?;
            for (v, wide) in self.1.iter().zip(self.2) {
                if wide {
                    t.serialize_field(v)?;
                } else {
                    t.serialize_field(&(*v as f32))?;
                }
            }
            t.end()
        }
    }
    // Vector3(1.5, -2.0, 0.25), the middle one as an f64: same bytes as in
    // `vector3_in_single_and_double_precision`.
    let mixed = Comps(
        "$godot_serde::Vector3",
        [1.5, -2.0, 0.25],
        [false, true, false],
    );
    assert_eq!(
        godot_serde::to_bytes(&mixed).unwrap(),
        hex("09000000 0000c03f 000000c0 0000803e")
    );
    // Three components for a Vector2 (8 bytes): 12 bytes, refused.
    let long = Comps("$godot_serde::Vector2", [1.0, 2.0, 3.0], [false; 3]);
    let err = godot_serde::to_bytes(&long).unwrap_err();
    assert!(
        err.to_string()
            .contains("Vector2 needs 8 bytes of components, got 12"),
        "{err}"
    );
    // Four for a Vector3: refused.
    let longer = Comps("$godot_serde::Vector3", [1.0, 2.0, 3.0, 4.0], [false; 4]);
    let err = godot_serde::to_bytes(&longer).unwrap_err();
    assert!(
        err.to_string()
            .contains("Vector3 needs 12 bytes of components, got 16"),
        "{err}"
    );
    // Inside a struct, after a key.
    #[derive(Serialize)]
    struct S {
        v: godot_serde::Vector2,
    }
    // Dictionary (27), 1 entry; String "v" (4, len 1, "v" + 3 pad); Vector2 (5) 1.0, -1.0.
    assert_eq!(
        godot_serde::to_bytes(&S {
            v: godot_serde::Vector2::new(1.0, -1.0)
        })
        .unwrap(),
        hex("1b000000 01000000 04000000 01000000 76000000 05000000 0000803f 000080bf")
    );
}

/// A struct checks the depth limit once for all its fields: its fields one level past the
/// limit are refused at the first key (byte offset: after the Dictionary's header and
/// count), a struct there without fields is written, and each field's value (a scalar, a
/// math type, a String, a nested struct) goes out exactly as Godot writes it.
#[test]
fn struct_fields_at_the_depth_limit() {
    #[derive(Serialize)]
    struct Leaf {
        a: i32,
    }
    #[derive(Serialize)]
    struct Empty {}
    #[derive(Serialize)]
    struct Outer<T> {
        inner: T,
    }
    // Depths: Outer 0, its field `inner` (the Leaf) 1, Leaf's field `a` 2.
    let leaf = Outer {
        inner: Leaf { a: 7 },
    };
    let ok = Config::godot4().with_max_depth(2).to_bytes(&leaf).unwrap();
    assert_eq!(
        ok,
        // Dictionary(1) { "inner": Dictionary(1) { "a": 7 } }
        hex("1b000000 01000000 04000000 05000000 696e6e65 72000000 \
             1b000000 01000000 04000000 01000000 61000000 02000000 07000000")
    );
    let err = Config::godot4()
        .with_max_depth(1)
        .to_bytes(&leaf)
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            godot_serde::ErrorKind::DepthLimitExceeded { limit: 1 }
        ),
        "{err}"
    );
    // Outer's header and count (8), key "inner" (8 + 5 + 3 padding), Leaf's header and count.
    assert_eq!(err.offset(), Some(8 + 16 + 8));
    // No field at depth 2: nothing to refuse.
    let empty = Outer { inner: Empty {} };
    assert_eq!(
        Config::godot4().with_max_depth(1).to_bytes(&empty).unwrap(),
        hex("1b000000 01000000 04000000 05000000 696e6e65 72000000 1b000000 00000000")
    );
    // A field whose value is a math type, at the limit and one past it.
    let v = Outer {
        inner: Outer {
            inner: Vector3::new(1.5, -2.0, 0.25),
        },
    };
    assert!(Config::godot4().with_max_depth(2).to_bytes(&v).is_ok());
    assert!(Config::godot4().with_max_depth(1).to_bytes(&v).is_err());
}

/// A key with a NUL (only a hand-written `Serialize` can pass one) is refused like any
/// other String, at the key's offset.
#[test]
fn a_struct_key_with_a_nul_is_refused() {
    struct Odd;
    impl Serialize for Odd {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("Odd", 2)?;
            st.serialize_field("ok", &1u8)?;
            st.serialize_field("a\0b", &2u8)?;
            st.end()
        }
    }
    let err = godot_serde::to_bytes(&Odd).unwrap_err();
    assert!(err.to_string().contains("NUL"), "{err}");
    // Header and count, then "ok" (8 + 4) and its int (8).
    assert_eq!(err.offset(), Some(8 + 12 + 8));
}

/// PackedStringArray elements of every length up to 40 (each: length counting a NUL, the
/// bytes, the NUL, zeros to a multiple of 4), against the layout written out by hand; a NUL
/// inside an element, a non-string element and a sequence of unknown length.
#[test]
fn packed_string_array_elements() {
    use godot_serde::PackedStringArray;
    let texts: Vec<String> = (0..=40)
        .map(|n| "abcdefghij".repeat(4)[..n].to_owned())
        .collect();
    let mut expected = hex("22000000");
    expected.extend_from_slice(&41u32.to_le_bytes());
    for t in &texts {
        expected.extend_from_slice(&u32::try_from(t.len() + 1).unwrap().to_le_bytes());
        expected.extend_from_slice(t.as_bytes());
        expected.push(0);
        while !expected.len().is_multiple_of(4) {
            expected.push(0);
        }
    }
    let got = godot_serde::to_bytes(&PackedStringArray(texts.clone())).unwrap();
    assert_eq!(got, expected);

    let err =
        godot_serde::to_bytes(&PackedStringArray(vec!["ok".into(), "a\0b".into()])).unwrap_err();
    assert!(err.to_string().contains("NUL"), "{err}");
    // Header, count, then "ok" (4 + 3 + 1 padding).
    assert_eq!(err.offset(), Some(8 + 8));

    /// The PackedStringArray marker around any sequence.
    struct Marked<T>(T);
    impl<T: Serialize> Serialize for Marked<T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct("$godot_serde::PackedStringArray", &self.0)
        }
    }
    let err = godot_serde::to_bytes(&Marked(vec![1u8])).unwrap_err();
    assert!(err.to_string().contains("expected a string"), "{err}");

    /// Strings from an iterator whose length serde is not told.
    struct Unsized(Vec<&'static str>);
    impl Serialize for Unsized {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.0.iter().filter(|_| true))
        }
    }
    let got = godot_serde::to_bytes(&Marked(Unsized(vec!["ab", "cdef"]))).unwrap();
    assert_eq!(
        got,
        hex("22000000 02000000 03000000 61620000 05000000 63646566 00000000")
    );
}

/// An f32 struct field is a 32-bit Float, except a NaN: Godot's round-trip test
/// (`double(float(d)) != d`) never holds for it, so it goes out as a 64-bit Float.
#[test]
fn f32_fields_and_nan() {
    #[derive(Serialize)]
    struct F {
        x: f32,
        n: f32,
        i: f32,
    }
    let got = godot_serde::to_bytes(&F {
        x: 1.5,
        n: f32::NAN,
        i: f32::NEG_INFINITY,
    })
    .unwrap();
    assert_eq!(
        got,
        hex("1b000000 03000000 \
             04000000 01000000 78000000 03000000 0000c03f \
             04000000 01000000 6e000000 03000100 00000000 0000f87f \
             04000000 01000000 69000000 03000000 000080ff")
    );
}
