//! Shared test helpers.
#![allow(dead_code)]

// The engine lookup moved to the test-support crate; `common::engine` keeps the old paths.
#[allow(unused_imports)]
pub use godot_serde_test_support::engine;

use godot_serde::Config;
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// Parses hex written in 4-byte groups with optional spaces ("02000000 01000000").
pub fn hex(s: &str) -> Vec<u8> {
    let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(clean.len().is_multiple_of(2), "odd hex: {s}");
    (0..clean.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&clean[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// Runs `f` on a thread with 2 MiB of stack, the size of spawned threads (Rust's, tokio's
/// workers), and returns what it returns: decoding hostile input at the default depth limit
/// must fit it, even in a debug build (see docs/security.md). A panic or a stack overflow in
/// `f` fails the test.
pub fn on_2_mib_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic, no stack overflow")
}

/// A fresh, empty temporary directory for one test (named after it and this process).
pub fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("godot_serde_{test}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The 32-byte key the engine scripts of the container and pack tests use
/// (`container_write.gd`'s `key()`, `pck_write.gd`'s `key_hex()`): byte i is (7i + 1) mod 256.
#[cfg(feature = "crypto")]
pub fn script_key() -> godot_serde::container::Key {
    let mut k = [0u8; 32];
    for (i, b) in k.iter_mut().enumerate() {
        *b = (i * 7 + 1) as u8;
    }
    godot_serde::container::Key::from_bytes(k)
}

/// Lower-case hex without spaces.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The Godot 3 and every Godot 4 layout.
pub const GODOT4: [Config; 3] = [
    Config::new(godot_serde::GodotVersion::V4_0),
    Config::new(godot_serde::GodotVersion::V4_3),
    Config::new(godot_serde::GodotVersion::V4_4),
];

/// Asserts every path agrees on `value` ⇔ `expected` bytes under `config`: encoding,
/// `serialized_size`, `from_bytes`, `from_reader` and `take_from_bytes`.
#[track_caller]
pub fn check<T>(value: &T, config: Config, expected: &str)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let expected = hex(expected);
    let bytes = config.to_bytes(value).expect("encode");
    assert_eq!(
        to_hex(&bytes),
        to_hex(&expected),
        "encoding of {value:?} for {:?}",
        config.version()
    );
    assert_eq!(
        config.serialized_size(value).expect("size"),
        expected.len(),
        "serialized_size"
    );
    let back: T = config.from_bytes(&expected).expect("from_bytes");
    assert_eq!(&back, value, "from_bytes");
    let back: T = config.from_reader(&expected[..]).expect("from_reader");
    assert_eq!(&back, value, "from_reader");
    let mut with_tail = expected.clone();
    with_tail.extend_from_slice(&[0xAA; 3]);
    let (back, rest): (T, _) = config.take_from_bytes(&with_tail).expect("take_from_bytes");
    assert_eq!(&back, value, "take_from_bytes");
    assert_eq!(rest, &[0xAA; 3], "take_from_bytes rest");
}

/// [`check`] for Godot 3 and every Godot 4 layout, when the bytes are the same in all.
#[track_caller]
pub fn check_all<T>(value: &T, expected: &str)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    check(value, Config::godot3(), expected);
    for config in GODOT4 {
        check(value, config, expected);
    }
}

/// Asserts an insta snapshot stored in the top-level `snapshots/` folder (the path is relative
/// to the calling module, `tests/suite/*.rs`).
#[macro_export]
macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// Runs `f` on a thread with a large stack (for tests at Godot's 1024 nesting limit in
/// debug builds).
pub fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("join")
}

/// `depth` Arrays each holding the next, the innermost empty: its deepest value is at
/// `depth` (the top level is 0, as Godot counts). Header 0x1c = Array in Godot 4.
pub fn nested_arrays_g4(depth: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for _ in 0..depth {
        v.extend_from_slice(&hex("1c000000 01000000"));
    }
    v.extend_from_slice(&hex("1c000000 00000000"));
    v
}

/// Asserts that `variant` encodes to `expected` under `config` and decodes back equal
/// (full objects allowed, so object records decode too).
#[track_caller]
pub fn check_variant(variant: &godot_serde::Variant, config: Config, expected: &str) {
    let expected = hex(expected);
    let bytes = config.to_bytes(variant).expect("encode Variant");
    assert_eq!(
        to_hex(&bytes),
        to_hex(&expected),
        "encoding of {variant:?} for {:?}",
        config.version()
    );
    let back: godot_serde::Variant = config
        .with_allow_objects(true)
        .from_bytes(&expected)
        .expect("decode Variant");
    assert_eq!(&back, variant, "decoding for {:?}", config.version());
}
