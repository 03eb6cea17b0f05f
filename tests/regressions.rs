//! Regression tests for bugs found by the engine-conformance tests.

mod common;

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
