//! The 5-argument input call (String, Vector2, int, bool, Array of ints) of the typed-argument
//! tests and of the `typed_rpc` bench.

use godot_serde::Vector2;

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Input {
    pub name: String,
    pub dir: Vector2,
    pub seq: i64,
    pub jump: bool,
    pub keys: Vec<i64>,
}
