//! Typed arguments straight from and into the packet bytes (`args::decode` / `args::encode`,
//! `godot3::args`), against the `Variant` path as the oracle: for many values, the same
//! bytes, the same decoded values, and an error wherever the oracle has one. Plus layouts
//! and errors derived by hand from `encode_and_compress_variant` (Godot 4.6,
//! `scene/main/multiplayer_api.cpp`).

use std::collections::BTreeMap;
use std::fmt::Debug;

use godot_serde::{PackedByteArray, Variant};
use godot_serde_multiplayer::args::{self, Args, Encoded};
use godot_serde_multiplayer::godot3;
use godot_serde_multiplayer::{ProtocolError, wire};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::generate::Rng;

/// The `Variant` path: the oracle.
fn old_encode<T: ?Sized + Serialize>(value: &T) -> Result<Encoded, ProtocolError> {
    args::encode_variants(&args::to_arguments(value)?)
}

fn packet(encoded: &Encoded) -> Vec<u8> {
    let mut p = Vec::new();
    wire::write_remote_call(&mut p, 1, None, 0, encoded);
    p
}

fn call_args(p: &[u8]) -> Result<Args<'_>, ProtocolError> {
    match wire::parse(p)? {
        wire::Packet::RemoteCall { args, .. } => Ok(args),
        other => panic!("not a call: {other:?}"),
    }
}

/// The oracle's decode: every argument to a Variant, then the list to `T`.
fn old_decode<T: DeserializeOwned>(args: &Args<'_>) -> Result<T, ProtocolError> {
    args::from_arguments("m", &args.decode()?)
}

/// How `T` takes the arguments: one per field, or `T` is the single argument, for which the
/// `Variant` path's answer is that of the 1-tuple `(T,)`.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    List,
    Single,
}

/// Both paths on the bytes of one packet: the same value, or both an error.
fn same_decode<T: DeserializeOwned + PartialEq + Debug>(p: &[u8], shape: Shape) {
    let Ok(wire::Packet::RemoteCall { args, .. }) = wire::parse(p) else {
        return;
    };
    let old = match shape {
        Shape::List => old_decode::<T>(&args),
        Shape::Single => old_decode::<(T,)>(&args).map(|(t,)| t),
    };
    let new = args::decode_call::<T>("m", &args);
    match (&old, &new) {
        // NaN never equals itself: compare what the values print.
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "packet {p:?}"),
        (Err(_), Err(_)) => {}
        _ => panic!("packet {p:?}: Variant path {old:?}, direct path {new:?}"),
    }
    // As one Variant: the list itself (the oracle's round trip through the wire would narrow a
    // double-precision build's f64 components to f32 and fail where no narrowing is asked).
    let old = args.decode().ok().map(Variant::from);
    let new = args::decode::<Variant>(&args).ok();
    assert_eq!(
        format!("{old:?}"),
        format!("{new:?}"),
        "as Variant, packet {p:?}"
    );
}

/// Godot 4: the same bytes as the oracle, the same values back, and the same verdict on every
/// cut of the packet and on bytes changed in it.
fn check<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T, rng: &mut Rng) {
    check_as(value, Shape::List, rng);
}

/// [`check`] for a single-argument `T`.
fn check1<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T, rng: &mut Rng) {
    check_as(value, Shape::Single, rng);
}

fn check_as<T: Serialize + DeserializeOwned + PartialEq + Debug>(
    value: &T,
    shape: Shape,
    rng: &mut Rng,
) {
    let old = old_encode(value);
    let new = args::encode(value);
    match (&old, &new) {
        // The same kind of error (the messages differ: ours names the argument).
        (Err(a), Err(b)) => assert_eq!(
            std::mem::discriminant(a),
            std::mem::discriminant(b),
            "encoding {value:?}: {a:?} / {b:?}"
        ),
        _ => assert_eq!(new, old, "encoding {value:?}"),
    }
    let Ok(encoded) = old else { return };
    let p = packet(&encoded);
    same_decode::<T>(&p, shape);
    for cut in 0..p.len() {
        same_decode::<T>(&p[..cut], shape);
    }
    for _ in 0..8 {
        let mut q = p.clone();
        let at = rng.below(q.len() as u64) as usize;
        q[at] = rng.next() as u8;
        same_decode::<T>(&q, shape);
    }
}

/// Godot 3: the bytes `wire::write_remote_call` writes after the count, and the values back.
fn check3<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T, rng: &mut Rng) {
    let config = godot3::wire::config();
    let old: Result<(u8, Vec<u8>), String> = (|| {
        let list = match config.to_variant(value).map_err(|e| e.to_string())? {
            Variant::Nil => Vec::new(),
            Variant::Array(array) => array.into_vec(),
            Variant::Dictionary(dict) => dict.values().cloned().collect(),
            other => vec![other],
        };
        let mut out = Vec::new();
        for arg in &list {
            config
                .to_bytes_into(arg, &mut out)
                .map_err(|e| e.to_string())?;
        }
        Ok((u8::try_from(list.len()).map_err(|e| e.to_string())?, out))
    })();
    let mut out = Vec::new();
    let new = godot3::args::encode_into(value, &mut out).map(|n| (n, out));
    assert_eq!(
        new.is_ok(),
        old.is_ok(),
        "Godot 3 encoding {value:?}: {new:?} / {old:?}"
    );
    let Ok((count, bytes)) = old else { return };
    assert_eq!(
        new.ok(),
        Some((count, bytes.clone())),
        "Godot 3 encoding {value:?}"
    );
    let verdict = |bytes: &[u8], count: u8| {
        let old = godot3::wire::decode_args(count, bytes, 7).and_then(|list| {
            config
                .from_variant::<T>(&Variant::from(list))
                .map_err(|e| ProtocolError::Encode(e.to_string()))
        });
        let new = godot3::args::decode::<T>("m", count, bytes, 7);
        match (&old, &new) {
            (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
            (Err(_), Err(_)) => {}
            _ => panic!("Godot 3 bytes {bytes:?}: Variant path {old:?}, direct {new:?}"),
        }
    };
    verdict(&bytes, count);
    for cut in 0..bytes.len() {
        verdict(&bytes[..cut], count);
    }
    for _ in 0..4 {
        let mut q = bytes.clone();
        if q.is_empty() {
            break;
        }
        let at = rng.below(q.len() as u64) as usize;
        q[at] = rng.next() as u8;
        verdict(&q, count);
    }
}

#[path = "../common/input.rs"]
mod input;
use input::Input;

#[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
struct Mixed(Option<i32>, f64, Vec<String>, BTreeMap<String, i64>, u16);

#[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
enum Kind {
    Idle,
    Walk,
}

#[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
struct Marker;

#[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
struct Score(i64);

fn input(rng: &mut Rng) -> Input {
    Input {
        name: rng.string(),
        dir: rng.v2(),
        seq: rng.int(),
        jump: rng.bool(),
        keys: (0..rng.below(9)).map(|_| rng.int()).collect(),
    }
}

/// A Variant the multiplayer decoder accepts back (no Object: `allow_object_decoding` is off).
fn variant(rng: &mut Rng) -> Variant {
    loop {
        let v = rng.variant(godot_serde::GodotVersion::V4_4, 2);
        if !format!("{v:?}").contains("Object(Object") {
            return v;
        }
    }
}

#[test]
fn direct_path_matches_variant_path_on_many_values() {
    let mut rng = Rng::new(0x7E5_A125);
    for _ in 0..300 {
        let i = input(&mut rng);
        check(
            &(i.name.clone(), i.dir, i.seq, i.jump, i.keys.clone()),
            &mut rng,
        );
        check(&i, &mut rng);
        let ints = (
            rng.int() as i8,
            rng.int() as i16,
            rng.int() as i32,
            rng.int(),
            rng.int() as u8,
            rng.int() as u16,
            rng.int() as u32,
            rng.int() as u64,
        );
        check(&ints, &mut rng);
        let mixed = Mixed(
            rng.bool().then(|| rng.i32()),
            rng.float(),
            (0..rng.below(4)).map(|_| rng.string()).collect(),
            (0..rng.below(4))
                .map(|_| (rng.string(), rng.int()))
                .collect(),
            rng.int() as u16,
        );
        check(&mixed, &mut rng);
        check(&(rng.string(),), &mut rng);
        check1(&rng.string(), &mut rng);
        check1(&rng.int(), &mut rng);
        check1(&rng.bool(), &mut rng);
        check1(&rng.v2(), &mut rng);
        check(&(rng.v2(),), &mut rng);
        let bytes: Vec<u8> = (0..rng.below(11)).map(|_| rng.next() as u8).collect();
        check1(&PackedByteArray(bytes.clone()), &mut rng);
        check(&(PackedByteArray(bytes.clone()),), &mut rng);
        check(&(PackedByteArray(bytes.clone()), rng.bool()), &mut rng);
        check(&bytes, &mut rng);
        check1(&Score(rng.int()), &mut rng);
        check(&(Kind::Walk, Kind::Idle), &mut rng);
        check(
            &vec![variant(&mut rng), variant(&mut rng), variant(&mut rng)],
            &mut rng,
        );
        check(&(variant(&mut rng),), &mut rng);
        check(&variant(&mut rng), &mut rng);
        check(&Some((rng.int(), rng.string())), &mut rng);
        check(&(rng.bool().then(|| rng.int()),), &mut rng);
    }
    // No argument is `()` (or a unit struct); the Variant path refuses an empty Array there.
    for encoded in [args::encode(&()).unwrap(), args::encode(&Marker).unwrap()] {
        assert_eq!(encoded, old_encode(&()).unwrap());
        let p = packet(&encoded);
        assert_eq!(args::decode::<()>(&call_args(&p).unwrap()), Ok(()));
        assert_eq!(args::decode::<Marker>(&call_args(&p).unwrap()), Ok(Marker));
    }
    check1(&Kind::Idle, &mut rng);
    // `None` is no argument, and no argument is `None`.
    let none = args::encode(&None::<i64>).unwrap();
    assert_eq!(none, old_encode(&None::<i64>).unwrap());
    let p = packet(&none);
    assert_eq!(
        args::decode::<Option<i64>>(&call_args(&p).unwrap()),
        Ok(None)
    );
}

#[test]
fn godot3_direct_path_matches_variant_path_on_many_values() {
    let mut rng = Rng::new(0x3_A125);
    for _ in 0..200 {
        let i = input(&mut rng);
        check3(
            &(i.name.clone(), i.dir, i.seq, i.jump, i.keys.clone()),
            &mut rng,
        );
        check3(&i, &mut rng);
        check3(
            &(rng.int() as i8, rng.int() as u16, rng.int(), rng.bool()),
            &mut rng,
        );
        check3(&(rng.string(),), &mut rng);
        let bytes: Vec<u8> = (0..rng.below(11)).map(|_| rng.next() as u8).collect();
        check3(&(PackedByteArray(bytes.clone()),), &mut rng);
        let v = rng.variant(godot_serde::GodotVersion::V3, 2);
        if !format!("{v:?}").contains("Object(Object") {
            check3(&(v,), &mut rng);
        }
    }
    let mut out = Vec::new();
    assert_eq!(godot3::args::encode_into(&(), &mut out), Ok(0));
    assert!(out.is_empty());
    assert_eq!(godot3::args::decode::<()>("m", 0, &[], 7), Ok(()));
}

#[test]
fn layout_by_hand() {
    // ("é", 300, -1, false, 1 << 40): String via encode_variant (2 UTF-8 bytes, padded to 4),
    // ints in 16 and 8 bits (meta 0x42, 0x02), a false bool (meta 0x01), an int in 64 bits
    // (meta 0xC2; 1 << 40 is byte 5 = 1, little-endian).
    let encoded = args::encode(&("é", 300, -1, false, 1i64 << 40)).unwrap();
    let mut want = vec![4, 0, 0, 0, 2, 0, 0, 0, 0xC3, 0xA9, 0, 0];
    want.extend_from_slice(&[0x42, 0x2C, 0x01, 0x02, 0xFF, 0x01]);
    want.extend_from_slice(&[0xC2, 0, 0, 0, 0, 0, 1, 0, 0]);
    assert_eq!(
        encoded,
        Encoded {
            bytes: want,
            count: 5,
            byte_only_or_none: false
        }
    );
    // One PackedByteArray: bare, with the "byte only" flag; no arguments: the flag, no bytes.
    let raw = args::encode(&PackedByteArray(vec![1, 2, 3])).unwrap();
    assert_eq!(
        (raw.bytes, raw.count, raw.byte_only_or_none),
        (vec![1, 2, 3], 1, true)
    );
    let none = args::encode(&()).unwrap();
    assert_eq!(
        (none.bytes, none.count, none.byte_only_or_none),
        (vec![], 0, true)
    );
    // And back, from the packet Godot writes for the bare array (0x80: byte-only flag).
    let p = [0x80, 1, 0, 7, 8];
    let args = call_args(&p).unwrap();
    let (bytes,): (PackedByteArray,) = args::decode(&args).unwrap();
    assert_eq!(bytes.0, [7, 8]);
}

#[test]
fn malformed_argument_has_its_packet_offset() {
    // Call header: command 0x00, node 1, method 0, count 2 (bytes 0-3). Argument 0 (byte 4):
    // int in 8 bits. Argument 1 (byte 6): a String announcing 9 bytes where 2 follow.
    let p = [0x00, 1, 0, 2, 0x02, 7, 4, 0, 0, 0, 9, 0, 0, 0, b'a', b'b'];
    let args = call_args(&p).unwrap();
    match args::decode::<(i64, String)>(&args) {
        Err(ProtocolError::Argument {
            index: 1,
            offset: 6,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    // An int meta byte announcing 64 bits with 3 bytes left (argument 0 at byte 4).
    let p = [0x00, 1, 0, 1, 0xC2, 1, 2, 3];
    match args::decode::<(i64,)>(&call_args(&p).unwrap()) {
        Err(ProtocolError::Argument {
            index: 0,
            offset: 4,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    // A type id above Variant::VARIANT_MAX (39) in the meta byte.
    let p = [0x00, 1, 0, 1, 0x3F];
    match args::decode::<Variant>(&call_args(&p).unwrap()) {
        Err(ProtocolError::Argument {
            index: 0,
            offset: 4,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    // Count 3, two arguments' bytes: truncated where the third would start (byte 7).
    let p = [0x00, 1, 0, 3, 0x02, 1, 0x81];
    match args::decode::<(i64, bool, bool)>(&call_args(&p).unwrap()) {
        Err(ProtocolError::Truncated { offset: 7, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn mismatch_is_an_argument_type_error() {
    let p = packet(&args::encode(&("Ann", 5)).unwrap());
    let args = call_args(&p).unwrap();
    for result in [
        args::decode_call::<(i64, String)>("hello", &args).map(|_| ()),
        args::decode_call::<(String,)>("hello", &args).map(|_| ()),
        args::decode_call::<(String, i64, bool)>("hello", &args).map(|_| ()),
        args::decode_call::<String>("hello", &args).map(|_| ()),
        args::decode_call::<()>("hello", &args).map(|_| ()),
    ] {
        match result {
            Err(ProtocolError::ArgumentType { method, .. }) => assert_eq!(method, "hello"),
            other => panic!("{other:?}"),
        }
    }
    // The index and the byte of the argument that does not fit (argument 1 at byte 16:
    // header 4 bytes, "Ann" 12 bytes).
    match args::decode_call::<(String, bool)>("hello", &args) {
        Err(ProtocolError::ArgumentType { source, .. }) => {
            let message = source.to_string();
            assert!(message.starts_with("argument 1 (byte 16)"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}
