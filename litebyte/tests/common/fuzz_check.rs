//! Decoder fuzz check shared by `tests/suite/fuzz_replay.rs` and
//! `fuzz/fuzz_targets/decode.rs`.
//!
//! `check` decodes the input with several typed and schema-driven shapes and must never
//! panic. Strict decoding only accepts canonical encodings, so whenever it succeeds the value
//! must re-encode to exactly the input bytes (shapes without Float16/Float24, whose decoder
//! rounds) or at least re-encode and decode again (shapes with them).

#![allow(dead_code)]

use litebyte::{
    Ascii, Bit3, Bit7, Class, Config, ErrorKind, Float8, Float16, Float24, Int24, Int56, Mode,
    Schema, UInt40, Unicode, Value, VarInt16, VarUInt64, VarUnicode,
};
use serde::{Deserialize, Serialize};

// A test binary has one global allocator and so one `heap` module, declared at its root;
// the fuzz target includes this file alone and its own copy.
#[cfg(not(test))]
#[path = "../../../tests/common/heap.rs"]
pub mod heap;
#[cfg(test)]
pub(crate) use crate::heap;

/// The heap a decode of `len` input bytes may hold: `Schema::decode`'s limit (64 KiB + 640 ×
/// the input, litebyte/README.md), applied to the typed decodes of this check as well.
pub fn decode_budget(len: usize) -> usize {
    litebyte::DECODE_HEAP_SLACK.saturating_add(litebyte::DECODE_HEAP_PER_BYTE.saturating_mul(len))
}

/// `f`, held to [`decode_budget`] of `data`.
#[track_caller]
fn bounded<R>(data: &[u8], what: &str, f: impl FnOnce() -> R) -> R {
    heap::within(decode_budget(data.len()), what, f)
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player {
    id: u32,
    nickname: String,
    gender: u8,
    is_vip: bool,
    lv: i32,
    hp: i32,
    mp: i32,
    exp: i32,
}

#[derive(Serialize, Deserialize, Debug)]
struct Mixed {
    a: Bit3,
    b: Option<Vec<VarInt16>>,
    c: Int24,
    d: Option<Unicode>,
    e: Vec<Bit7>,
    f: Class<Option<Box<Mixed>>>,
    g: Option<VarUnicode>,
    h: Option<Ascii>,
    i: UInt40,
    j: Vec<Int56>,
    k: VarUInt64,
    l: Float8,
    m: f32,
    n: f64,
    o: i64,
    #[serde(with = "serde_bytes")]
    p: Vec<u8>,
}

#[derive(Serialize, Deserialize, Debug)]
struct Lossy {
    a: Float16,
    b: Vec<Float24>,
    c: bool,
    d: Class<Option<(Float16, i16)>>,
}

const SCHEMAS: &[&str] = &[
    "class Node { Int8 v; Bit2 t; Node next; UTF8[] tags; }",
    "struct Flat { VarInt64 a; Unicode u; VarUnicode[] v; ASCII s; Float32[] f; Bit1[] bits; UInt24 w; Float64 d; }",
    "class Rounded { Float16 a; Float24[] b; Node n; }",
    // Issue 11.6: arrays nested through a struct, each level claiming the rest of the input.
    "struct Levels { Levels[] c; }",
    // Issue 11.6: one-bit structs with a long field name (shared, never copied per element).
    "struct Bits { OneBit[] items; }",
    "struct OneBit { Bit1 a_field_name_of_sixty_four_characters_to_show_that_it_is_shared_; }",
    // Single-field wrappers around one bit: more heap per bit than the decode limit allows.
    "struct Wrapped { Wrap2[] items; }",
    "struct Wrap2 { Wrap1 w; }",
    "struct Wrap1 { OneBit b; }",
];

fn typed_identity<T>(data: &[u8])
where
    T: Serialize + for<'de> Deserialize<'de>,
{
    let strict = Config::new();
    if let Ok(v) = bounded(data, "typed, strict", || {
        litebyte::from_bytes_with::<T>(data, strict)
    }) {
        let again = litebyte::to_bytes(&v).expect("strict-decoded value must re-encode");
        assert_eq!(again, data, "strict decode must be canonical");
    }
    // Compat mode accepts more; it must still not panic, and its value must re-encode.
    if let Ok(v) = bounded(data, "typed, compat", || {
        litebyte::from_bytes_with::<T>(data, Config::compat())
    }) {
        let again = litebyte::to_bytes(&v).expect("compat-decoded value must re-encode");
        let _ = litebyte::from_bytes::<T>(&again).expect("re-encoded bytes must decode");
    }
}

fn typed_lossy<T>(data: &[u8])
where
    T: Serialize + for<'de> Deserialize<'de>,
{
    for cfg in [Config::new(), Config::compat()] {
        if let Ok(v) = bounded(data, "typed", || litebyte::from_bytes_with::<T>(data, cfg)) {
            let again = litebyte::to_bytes(&v).expect("decoded value must re-encode");
            let _ = litebyte::from_bytes::<T>(&again).expect("re-encoded bytes must decode");
        }
    }
}

/// The fuzz schema, parsed once: parsing it took most of a small input's check.
fn schema() -> &'static Schema {
    static SCHEMA: std::sync::OnceLock<Schema> = std::sync::OnceLock::new();
    SCHEMA.get_or_init(|| {
        let mut s = Schema::new();
        for src in SCHEMAS {
            s.add_lbs(src).expect("fuzz schema parses");
        }
        s.validate().expect("fuzz schema resolves");
        s
    })
}

/// Decodes `data` in several ways; panics only on a bug.
pub fn check(data: &[u8]) {
    typed_identity::<Class<Option<Player>>>(data);
    typed_identity::<Player>(data);
    typed_identity::<Mixed>(data);
    typed_identity::<Vec<String>>(data);
    typed_lossy::<Lossy>(data);

    let s = schema();
    for root in ["Node", "Flat", "Levels", "Bits", "Wrapped"] {
        if let Ok(v) = bounded(data, root, || s.decode(root, data, Mode::Strict)) {
            let again = s
                .encode(root, &v)
                .expect("strict-decoded value must re-encode");
            assert_eq!(again, data, "strict decode of {root} must be canonical");
        }
        if let Ok(v) = bounded(data, root, || s.decode(root, data, Mode::Compat)) {
            if data.is_empty() {
                // Empty input reads as null (as in C#), which a struct root cannot encode.
                assert_eq!(v, Value::Null);
                continue;
            }
            let again = match s.encode(root, &v) {
                Ok(bytes) => bytes,
                // As in C#: the reader accepts a lone high-surrogate code point in VarUnicode,
                // the writer refuses to write one.
                Err(e) if matches!(e.kind(), ErrorKind::InvalidString(m) if m.contains("lone high surrogate")) =>
                {
                    continue;
                }
                Err(e) => panic!("compat-decoded value must re-encode: {e:?}"),
            };
            match s.decode(root, &again, Mode::Strict) {
                Ok(_) => {}
                // The heap limit scales with the input, and compat mode ignores trailing
                // bytes: the canonical re-encoding may be shorter than `data`.
                Err(e)
                    if matches!(e.kind(), ErrorKind::DecodeLimit { .. })
                        && again.len() < data.len() => {}
                Err(e) => panic!("re-encoded bytes decode: {e:?}"),
            }
        }
    }
    for mode in [Mode::Strict, Mode::Compat] {
        if let Ok(v) = bounded(data, "Rounded", || s.decode("Rounded", data, mode)) {
            let again = s
                .encode("Rounded", &v)
                .expect("decoded value must re-encode");
            let _ = s
                .decode("Rounded", &again, Mode::Strict)
                .expect("re-encoded bytes decode");
        }
    }
    // Schema parsing must not panic on arbitrary text either.
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = litebyte::parse_type(text);
    }
}
