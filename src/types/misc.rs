//! [`Rid`], [`ObjectId`], [`Callable`] and [`Signal`]: engine handles that only mean
//! something inside the process that wrote them.

/// Godot `RID` (4.x id 23, 3.x id 16). Godot 4 writes the raw `u64` id; Godot 3 writes no
/// payload at all, so a Godot 3 RID always decodes as `Rid(0)` and a non-zero id is lost when
/// encoding for Godot 3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rid(pub u64);

/// An object sent by instance id (`OBJECT` with header bit 16, the default of
/// `var_to_bytes` / `put_var`). The id is only meaningful in the engine process that wrote it.
/// `ObjectId(0)` is Godot's null object and is written as nil, as the engine does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u64);

/// Godot 4 `Callable` (type id 25). Godot writes only the header: the target and method are
/// never serialized, and every Callable decodes as an empty one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Callable;

/// Godot 4 `Signal` (type id 26): a signal name and the id of the object that owns it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signal {
    /// The signal's name, e.g. `"pressed"`.
    pub name: String,
    /// The owning object's instance id.
    pub object: ObjectId,
}
