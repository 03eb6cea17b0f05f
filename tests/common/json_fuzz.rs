//! The body of the `json_native` fuzz target, shared with `tests/suite/json_fuzz_replay.rs`.
//!
//! The first byte chooses what the rest is: even, a JSON text (read as `JSON.to_native`
//! would); odd, `var_to_bytes` bytes (Godot 4.4+) of a value. Checked: no panic; reading stays
//! within the heap budget; the binary path and the JSON path agree: an accepted text's value
//! goes through bytes to a value with the same JSON, and a value's bytes and its JSON form
//! decode to values with the same JSON (the form is exact but for floats, which it prints
//! with 14 to 15 significant digits, as the engine does); what we write reads back to a
//! value that writes the same text.
#![allow(dead_code)]

use godot_serde::{Config, Variant, json};

// A test binary has one global allocator and so one `heap` module, declared at its root,
// that every helper shares; a fuzz target includes this file alone and its own copy.
#[cfg(not(test))]
#[path = "heap.rs"]
pub mod heap;
#[cfg(test)]
pub(crate) use crate::heap;

/// The heap reading `len` bytes of JSON into a `Variant` may hold (docs/security.md): the
/// JSON tree and the `Variant` it becomes.
pub fn json_budget(len: usize) -> usize {
    heap::budget(2 * size_of::<Variant>(), len)
}

fn config() -> Config {
    Config::godot4().with_allow_objects(true).with_max_depth(64)
}

/// Our JSON of `v`, read back, gives a value with the same JSON; also through bytes.
fn check_written(v: &Variant, what: &str) {
    let config = config();
    let Ok(text) = json::variant_to_string(v, config) else {
        return;
    };
    // Non-finite numbers in `args` print as `inf` / `nan`, which no JSON parser reads (the
    // engine neither).
    if (text.contains("inf") || text.contains("nan")) && json::parse_variant(&text, config).is_err()
    {
        return;
    }
    // U+000B prints as `\v`, which the engine's parser (and ours) refuses.
    if text.contains("\\v") {
        assert!(
            json::parse_variant(&text, config).is_err(),
            "{what}: {text:?}"
        );
        return;
    }
    // The text may change once: a tiny negative float prints as `f:-0.0`, which reads as -0
    // and prints as `f:0.0` (so does the engine); then it stays.
    let read = |text: &str| {
        let v = json::parse_variant(text, config)
            .unwrap_or_else(|e| panic!("{what}: our JSON {text:?} does not read back: {e}"));
        let t = json::variant_to_string(&v, config)
            .unwrap_or_else(|e| panic!("{what}: {v:?} read from {text:?} does not write: {e}"));
        (v, t)
    };
    let (again, second) = read(&text);
    // Floats are not stable: the engine's `built_in_strtod` keeps 18 digits counting leading
    // zeros, so `0.0000000000000000199999996755032` reads as 1e-17 (in the engine too).
    let floats = text.contains('.') || text.contains("f:");
    let (again, text) = if floats {
        (again, second)
    } else {
        let (again, third) = read(&second);
        assert_eq!(third, second, "{what}: JSON -> value -> JSON changed twice");
        (again, third)
    };
    // 64-bit math components on the wire, so the bytes hold the value exactly whatever `Real`.
    let wire = config.with_double_precision(true);
    let bytes = wire
        .to_bytes(&again)
        .unwrap_or_else(|e| panic!("{what}: {again:?} does not encode: {e}"));
    let decoded: Variant = wire
        .from_bytes(&bytes)
        .unwrap_or_else(|e| panic!("{what}: our bytes of {again:?} do not decode: {e}"));
    assert_eq!(
        json::variant_to_string(&decoded, config).ok().as_deref(),
        Some(text.as_str()),
        "{what}: value -> bytes -> value changed its JSON"
    );
}

pub fn json_native(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let config = config();
    if sel % 2 == 0 {
        let input = String::from_utf8_lossy(rest);
        let parsed = heap::within(json_budget(input.len()), "json", || {
            json::parse_variant(&input, config)
        });
        if let Ok(v) = parsed {
            check_written(&v, "text");
        }
    } else if let Ok(v) = config.variant_from_bytes(rest) {
        // A value's bytes and its JSON form decode to the same value (as JSON).
        check_written(&v, "bytes");
    }
}
