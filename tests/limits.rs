//! Nesting limits, for decoding and encoding.
mod common;
use common::*;
use godot_serde::{Config, DEFAULT_MAX_DEPTH, ErrorKind, GODOT_MAX_DEPTH};
use serde::de::IgnoredAny;

fn depth_error(r: godot_serde::Result<impl Sized>) -> Option<usize> {
    match r {
        Ok(_) => None,
        Err(e) => match e.kind() {
            ErrorKind::DepthLimitExceeded { limit } => Some(*limit),
            other => panic!("unexpected error {other}"),
        },
    }
}

#[test]
fn decoding_fails_exactly_one_past_the_default_limit() {
    let config = Config::default();
    assert_eq!(config.max_depth(), DEFAULT_MAX_DEPTH);
    let ok: godot_serde::Result<serde_json::Value> =
        config.from_bytes(&nested_arrays_g4(DEFAULT_MAX_DEPTH));
    assert!(ok.is_ok());
    let err: godot_serde::Result<IgnoredAny> =
        config.from_bytes(&nested_arrays_g4(DEFAULT_MAX_DEPTH + 1));
    assert_eq!(depth_error(err), Some(DEFAULT_MAX_DEPTH));
}

#[test]
fn godot_limit_1024_matches_the_engine() {
    // Spec §6.1: 1025 nested arrays are accepted when the innermost is empty (its depth is
    // 1024); one more level is refused ("Variant is too deep").
    with_big_stack(|| {
        let config = Config::default().with_max_depth(GODOT_MAX_DEPTH);
        let ok: godot_serde::Result<serde_json::Value> = config.from_bytes(&nested_arrays_g4(1024));
        assert!(ok.is_ok(), "{ok:?}");
        let err: godot_serde::Result<serde_json::Value> =
            config.from_bytes(&nested_arrays_g4(1025));
        assert_eq!(depth_error(err), Some(1024));
        // The reader path counts the same way.
        let err: godot_serde::Result<serde_json::Value> =
            config.from_reader(&nested_arrays_g4(1025)[..]);
        assert_eq!(depth_error(err), Some(1024));
    });
}

fn nested_value(depth: usize) -> serde_json::Value {
    let mut v = serde_json::json!([]);
    for _ in 0..depth {
        v = serde_json::Value::Array(vec![v]);
    }
    v
}

#[test]
fn encoding_fails_exactly_one_past_the_limit() {
    let config = Config::default().with_max_depth(40);
    let bytes = config
        .to_bytes(&nested_value(40))
        .expect("depth 40 is allowed");
    assert_eq!(bytes, nested_arrays_g4(40));
    assert_eq!(depth_error(config.to_bytes(&nested_value(41))), Some(40));
    assert_eq!(
        depth_error(config.serialized_size(&nested_value(41))),
        Some(40)
    );
}

#[test]
fn hostile_depth_is_refused_without_overflowing_the_stack() {
    // 100 000 nested arrays (800 KB) would crash Godot 3.2.3; we stop at the limit.
    let bytes = nested_arrays_g4(100_000);
    for config in [Config::default(), Config::godot3()] {
        let err: godot_serde::Result<IgnoredAny> = config.from_bytes(&bytes);
        assert!(err.is_err());
    }
}
