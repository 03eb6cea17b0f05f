//! The body of the `parse_text` fuzz target, shared with `tests/suite/text_fuzz_replay.rs`.
//!
//! The first byte chooses the engine (even: Godot 4, odd: Godot 3); the rest is the text.
//! Checked: no panic; an accepted text's value prints, and that text reads back to a value
//! that prints the same (Godot 4; texts holding NUL excepted, which the engine cannot read
//! back either); parser vs byte decoder: the value's bytes decode to a value printing the same.
#![allow(dead_code)]

use godot_serde::{Config, Variant, text};

// A test binary has one global allocator and so one `heap` module, declared at its root,
// that every helper shares; a fuzz target includes this file alone and its own copy.
#[cfg(not(test))]
#[path = "heap.rs"]
pub mod heap;
#[cfg(test)]
pub(crate) use crate::heap;

/// The heap parsing `len` bytes of text into a `Variant` may hold (docs/security.md): text
/// has no counts to forge, so this bounds what the parser builds from what it really read.
pub fn text_budget(len: usize) -> usize {
    heap::budget(2 * size_of::<Variant>(), len)
}

pub fn parse_text(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let base = if sel % 2 == 0 {
        Config::godot4()
    } else {
        Config::godot3()
    };
    let config = base.with_allow_objects(true).with_max_depth(64);
    let input = String::from_utf8_lossy(rest);
    let parsed = heap::within(text_budget(input.len()), "text", || {
        text::take_from_str(&input, config)
    });
    let Ok((v, _rest)) = parsed else {
        return;
    };
    let printed = text::variant_to_string_with(&v, config);
    if sel % 2 == 0 && !printed.contains('\0') && !has_float(&v) {
        // The first print may still change once: the writer escapes `\a` and `\v` in
        // StringName / NodePath, which the parser reads as `a` and `v` (the engine too).
        let again = text::parse_variant_with(&printed, config)
            .unwrap_or_else(|e| panic!("{printed:?} does not read back: {e}"));
        let second = text::variant_to_string_with(&again, config);
        if !second.contains('\0') {
            let third = text::parse_variant_with(&second, config)
                .unwrap_or_else(|e| panic!("{second:?} does not read back: {e}"));
            assert_eq!(text::variant_to_string_with(&third, config), second);
        }
    }
    // Godot's UTF-8 decoding drops a byte-order mark at the start of a String (so does ours),
    // the text parser keeps it: such values change through bytes, in the engine too.
    if printed.contains('\u{feff}') {
        return;
    }
    if let Ok(bytes) = config.to_bytes(&v) {
        let decoded: Variant = config
            .from_bytes(&bytes)
            .unwrap_or_else(|e| panic!("{v:?}: our bytes do not decode: {e}"));
        assert_eq!(text::variant_to_string_with(&decoded, config), printed);
    }
}

/// Whether a `float` Variant is inside (its shortest text does not always read back to the
/// same double through the engine's `strtod`, so the text may change once).
fn has_float(v: &Variant) -> bool {
    match v {
        Variant::Float(_) => true,
        Variant::Array(a) => a.items.iter().any(has_float),
        Variant::Dictionary(d) => d.iter().any(|(k, v)| has_float(k) || has_float(v)),
        Variant::Object(o) => o.properties.iter().any(|(_, v)| has_float(v)),
        _ => false,
    }
}
