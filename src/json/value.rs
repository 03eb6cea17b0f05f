//! [`serde_json::Value`] both ways: the JSON form as a `Value` for code that already holds
//! one (a web framework's request body, a document in a database).

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use super::from_native::from_native;
use super::to_native::ToNative;
use super::tree::{Json, Node};
use crate::error::{Error, ErrorKind, Result};
use crate::wire::depth::{Depth, grow};
use crate::{Config, Variant};

/// The tree as a `Value`; objects keep their (sorted) key order, as `Map` sorts.
fn tree_to_value(json: Json) -> Result<Value> {
    Ok(match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(b),
        Json::Int(i) => Value::Number(Number::from(i)),
        Json::Float(x) => Value::Number(Number::from_f64(x).ok_or_else(|| {
            Error::new(ErrorKind::Unsupported(
                format!("{x} in \"args\": serde_json::Value holds only finite numbers").into(),
            ))
        })?),
        Json::Str(s) => Value::String(s),
        Json::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|n| tree_to_value(n.json))
                .collect::<Result<_>>()?,
        ),
        Json::Object(entries) => {
            let mut map = Map::new();
            for (k, n) in entries {
                map.insert(k, tree_to_value(n.json)?);
            }
            Value::Object(map)
        }
    })
}

/// A `Value` as the tree the engine's parser would build: every number a double. Nesting
/// beyond `depth`'s limit is refused, as the JSON parser refuses it.
fn value_to_tree(v: &Value, depth: Depth) -> Result<Json> {
    let nested = |items: &mut dyn Iterator<Item = &Value>| -> Result<Vec<Node>> {
        let mut inner = depth;
        if !inner.try_enter() {
            return Err(inner.exceeded_here());
        }
        grow(|| items.map(|i| Ok(value_to_tree(i, inner)?.node())).collect())
    };
    Ok(match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => Json::Float(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => Json::Str(s.clone()),
        Value::Array(items) => Json::Array(nested(&mut items.iter())?),
        Value::Object(map) => {
            let values = nested(&mut map.values())?;
            Json::Object(map.keys().cloned().zip(values).collect())
        }
    })
}

/// `JSON.from_native(v, full_objects)` as a `Value`.
///
/// # Errors
///
/// As [`variant_to_string`](super::variant_to_string), and for an infinite or NaN component
/// (which the engine prints as the non-JSON words `inf` and `nan`).
pub fn variant_to_value(v: &Variant, config: Config) -> Result<Value> {
    tree_to_value(from_native(v, config.allow_objects(), config.max_depth())?)
}

/// `JSON.to_native(value, allow_objects)`: the Variant a `Value` holds.
///
/// # Errors
///
/// As [`parse_variant`](super::parse_variant) after parsing; a `Value` nested deeper than
/// twice [`Config::max_depth`] (the JSON form takes two levels per container) is refused too.
pub fn value_to_variant(value: &Value, config: Config) -> Result<Variant> {
    let tree = value_to_tree(value, Depth::json_text(config.max_depth()))?;
    ToNative {
        src: None,
        allow_objects: config.allow_objects(),
    }
    .value(Node { at: 0, json: tree }, Depth::new(config.max_depth()))
}

/// Serializes `value` to the JSON form as a [`serde_json::Value`], with the default
/// [`Config`] (objects off).
///
/// ```
/// use godot_serde::{json, Vector2};
///
/// let v = json::to_value(&Vector2 { x: 1.0, y: 2.5 })?;
/// assert_eq!(v, serde_json::json!({"args": [1.0, 2.5], "type": "Vector2"}));
/// # Ok::<(), godot_serde::Error>(())
/// ```
///
/// # Errors
///
/// As [`to_string`](super::to_string), and for an infinite or NaN component.
pub fn to_value<T: ?Sized + Serialize>(value: &T) -> Result<Value> {
    to_value_with(value, Config::default())
}

/// [`to_value`] with `config` (its `allow_objects` is `full_objects`).
///
/// # Errors
///
/// As [`to_value`].
pub fn to_value_with<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<Value> {
    variant_to_value(&config.to_variant(value)?, config)
}

/// Reads a `T` from the JSON form held in a [`serde_json::Value`].
///
/// ```
/// use godot_serde::{json, Vector2};
///
/// let v = serde_json::json!({"type": "Vector2", "args": [1, 2.5]});
/// assert_eq!(json::from_value::<Vector2>(&v)?, Vector2 { x: 1.0, y: 2.5 });
/// # Ok::<(), godot_serde::Error>(())
/// ```
///
/// # Errors
///
/// As [`value_to_variant`], and when the value does not fit `T`.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T> {
    from_value_with(value, Config::default())
}

/// [`from_value`] with `config` (its `allow_objects` is `to_native`'s `allow_objects`).
///
/// # Errors
///
/// As [`from_value`].
pub fn from_value_with<T: DeserializeOwned>(value: &Value, config: Config) -> Result<T> {
    crate::text::from_parsed(value_to_variant(value, config)?, config)
}
