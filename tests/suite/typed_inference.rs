//! `Config::with_typed_containers`: typed Array headers inferred from the elements.
use crate::common;
use common::*;
use godot_serde::{Config, GodotVersion};

#[test]
fn int_sequence_becomes_array_of_int_for_4_3_and_later() {
    // Spec §8.2: `var a: Array[int] = [1, 2]` in 4.3+ is
    // 1c000100 (Array, kind BUILTIN) 02000000 (element type int) 02000000 (count) + two ints.
    for v in [GodotVersion::V4_3, GodotVersion::V4_4] {
        let config = Config::new(v).with_typed_containers(true);
        check(
            &vec![1i32, 2],
            config,
            "1c000100 02000000 02000000 02000000 01000000 02000000 02000000",
        );
    }
    // 4.0-4.2 do not write typing (spec §8.2, "same value, 4.0–4.2").
    let config = Config::new(GodotVersion::V4_0).with_typed_containers(true);
    check(
        &vec![1i32, 2],
        config,
        "1c000000 02000000 02000000 01000000 02000000 02000000",
    );
}

#[test]
fn mixed_empty_and_nested_sequences_stay_untyped() {
    let config = Config::godot4().with_typed_containers(true);
    // Empty: no element to infer from.
    check(&Vec::<i32>::new(), config, "1c000000 00000000");
    // int and float: mixed.
    let bytes = config.to_bytes(&(1, 1.5)).unwrap();
    assert_eq!(&bytes[..4], &hex("1c000000")[..]);
    // The inner arrays are typed, the outer holds Arrays and stays untyped:
    // 1c000000 02000000 | 1c000100 02000000 01000000 02000000 05000000 | 1c000000 00000000
    check(
        &vec![vec![5i64], vec![]],
        config,
        "1c000000 02000000 1c000100 02000000 01000000 02000000 05000000 1c000000 00000000",
    );
}

#[test]
fn strings_are_typed_too() {
    // Array[String]: element type 4.
    let config = Config::godot4().with_typed_containers(true);
    check(
        &vec!["a".to_string()],
        config,
        "1c000100 04000000 01000000 04000000 01000000 61000000",
    );
}
