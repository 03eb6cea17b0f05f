//! The value layer's oracle, shared by `tests/suite/value_contract.rs` and `tests/suite/variant_model.rs`:
//! what the bytes give (`to_bytes`, then `from_bytes` with objects allowed, as `to_variant` /
//! `from_variant` allow them), as text (NaN-safe through `Debug`) or the kind of the error,
//! and the configs both walk.

use godot_serde::{Config, EnumRepr, Error, GodotVersion, Result};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Every layout, both wire precisions where they exist, both enum styles, typed containers
/// on and off; and Godot 3 with objects allowed.
pub fn configs() -> Vec<Config> {
    let mut out = vec![Config::godot3().with_allow_objects(true)];
    for version in [
        GodotVersion::V3,
        GodotVersion::V4_0,
        GodotVersion::V4_3,
        GodotVersion::V4_4,
    ] {
        for double in [false, true] {
            if double && !version.is_godot4() {
                continue;
            }
            for repr in [EnumRepr::Name, EnumRepr::Index] {
                for typed in [false, true] {
                    out.push(
                        Config::new(version)
                            .with_double_precision(double)
                            .with_enum_repr(repr)
                            .with_typed_containers(typed),
                    );
                }
            }
        }
    }
    out
}

/// What the bytes give for `U` from `value` under `config` (objects allowed in decoding).
pub fn oracle<T: Serialize + ?Sized, U: DeserializeOwned + core::fmt::Debug>(
    config: Config,
    value: &T,
) -> core::result::Result<String, String> {
    let bytes = config.to_bytes(value).map_err(|e| kind(&e))?;
    shown(config.with_allow_objects(true).from_bytes::<U>(&bytes))
}

/// Asserts that `config.from_variant::<U>(v)` gives what the bytes give: the same value, or
/// an error of the same kind.
#[track_caller]
pub fn agrees<U: DeserializeOwned + core::fmt::Debug>(config: Config, v: &godot_serde::Variant) {
    assert_eq!(
        shown(config.from_variant::<U>(v)),
        oracle::<_, U>(config, v),
        "{config:?} {v:?}"
    );
}

/// Asserts that `config.to_variant(value)` gives what the bytes give: the same Variant, or
/// an error of the same kind.
#[track_caller]
pub fn to_variant_agrees<T: Serialize + ?Sized + core::fmt::Debug>(config: Config, value: &T) {
    assert_eq!(
        shown(config.to_variant(value)),
        oracle::<_, godot_serde::Variant>(config, value),
        "{config:?} {value:?}"
    );
}

/// A value as text (NaN-safe through `Debug`), or the kind of the error without its details
/// (a message names types as the path that found the mismatch does).
pub fn shown<U: core::fmt::Debug>(r: Result<U>) -> core::result::Result<String, String> {
    r.map(|u| format!("{u:?}")).map_err(|e| kind(&e))
}

/// An error's kind, without its details (`Unsupported`, `DepthLimitExceeded`, ...).
pub fn kind(e: &Error) -> String {
    let k = format!("{:?}", e.kind());
    k.split(['(', ' ', '{'])
        .next()
        .unwrap_or_default()
        .to_owned()
}
