//! The JSON tree between a [`Variant`](crate::Variant) and the text: what Godot's
//! `JSON.from_native` builds and `JSON.stringify` prints, and what `JSON.parse_string` builds
//! and `JSON.to_native` reads. Each node keeps the byte offset it was read at, for errors.

/// A JSON value with the byte offset of its first character (0 for a tree built in memory).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    /// Byte offset in the text the node was parsed from.
    pub(crate) at: usize,
    /// The value.
    pub(crate) json: Json,
}

/// A JSON value. Godot's parser reads every number as a double ([`Json::Float`]);
/// `JSON.from_native` puts ints ([`Json::Int`]) in the `args` of integer types.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer, printed as Godot's `itos`.
    Int(i64),
    /// A number, printed as Godot's `JSON.stringify` prints a float.
    Float(f64),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Node>),
    /// An object: its entries in order, repeated keys kept (the last one counts).
    Object(Vec<(String, Node)>),
}

impl Json {
    /// This value as a node at offset 0.
    pub(crate) fn node(self) -> Node {
        Node { at: 0, json: self }
    }

    /// What the engine's error messages call this value's type.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "bool",
            Json::Int(_) | Json::Float(_) => "number",
            Json::Str(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }
}
