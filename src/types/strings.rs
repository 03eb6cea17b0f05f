//! [`StringName`] and [`NodePath`].

/// Godot 4 `StringName` (type id 21; no Godot 3 equivalent): an interned string, written
/// exactly like a String with another type id. GDScript literal: `&"name"`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StringName(pub String);

/// Godot `NodePath` (4.x id 22, 3.x id 15): node names and property subnames.
///
/// `NodePath("/root/Main:position")` has names `["root", "Main"]`, subnames `["position"]`
/// and is absolute. It is kept split as on the wire, so decoding and encoding again gives the
/// same bytes even for names that contain `/` or `:`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodePath {
    /// Node names, separated by `/` in the text form.
    pub names: Vec<String>,
    /// Property subnames, each introduced by `:` in the text form.
    pub subnames: Vec<String>,
    /// Whether the path starts at the root (`/`).
    pub absolute: bool,
}
