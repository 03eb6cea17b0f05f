//! The model of a resource file that the text and the binary forms share.

use crate::{Object, Variant};

/// Which engine's layout a resource file has: Godot 3's (`format=2` text, binary format
/// version 3) or Godot 4's (`format=3` text, binary format versions 4–6). Chosen explicitly
/// when writing, read from the file when reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceFormat {
    /// Godot 3.x.
    Godot3,
    /// Godot 4.x.
    Godot4,
}

/// A resource file as the engine loads it: its external references, its sub-resources, its
/// main resource's properties and, for a scene, its nodes and connections. Text and binary
/// files read into this one model and are written from it.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceFile {
    /// The file's layout.
    pub format: ResourceFormat,
    /// The main resource's class: `PackedScene` for a scene, `Resource`, `Gradient`, … else.
    pub class: String,
    /// The global class name of the main resource's script (Godot 4's `script_class`), if any.
    pub script_class: Option<String>,
    /// The file's unique id as text (`uid://…`, Godot 4), if it has one.
    pub uid: Option<String>,
    /// The other files this one refers to, in file order.
    pub ext_resources: Vec<ExtResource>,
    /// The resources saved inside this file, in file order (a sub-resource comes before the
    /// resources that refer to it).
    pub sub_resources: Vec<SubResource>,
    /// The main resource's properties in file order (the text form's `[resource]` section);
    /// empty for a scene, whose content is [`scene`](Self::scene).
    pub properties: Vec<(String, Variant)>,
    /// A scene's nodes, connections and editable paths (`PackedScene`'s state); `None` for a
    /// resource that is not a scene.
    pub scene: Option<Scene>,
}

/// An `[ext_resource]`: another file this one uses.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtResource {
    /// Its id in this file (`"1_abcde"` in Godot 4, `"1"` in Godot 3).
    pub id: String,
    /// Its class (`type`), e.g. `Script`, `PackedScene`, `Texture2D`.
    pub class: String,
    /// Its path, `res://…`.
    pub path: String,
    /// Its unique id as text (`uid://…`, Godot 4), if known.
    pub uid: Option<String>,
}

/// A `[sub_resource]`: a resource saved inside this file.
#[derive(Debug, Clone, PartialEq)]
pub struct SubResource {
    /// Its id in this file (`"Gradient_x7k2p"` in Godot 4, `"1"` in Godot 3).
    pub id: String,
    /// Its class (`type`).
    pub class: String,
    /// Its properties in file order.
    pub properties: Vec<(String, Variant)>,
}

/// A scene's state: its nodes in file order (a parent before its children), its persisted
/// signal connections and the paths of the instanced sub-scenes marked editable.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// The nodes, the root first.
    pub nodes: Vec<SceneNode>,
    /// The `[connection]`s.
    pub connections: Vec<Connection>,
    /// The `[editable path="…"]` entries.
    pub editable: Vec<String>,
}

/// A `[node]`: one node of a scene.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SceneNode {
    /// Its name.
    pub name: String,
    /// Its class (`type`); `None` for an instanced scene's root or a node the instance has.
    pub class: Option<String>,
    /// Its parent's path relative to the root (`"."` for the root's children); `None` for the
    /// root.
    pub parent: Option<String>,
    /// The scene it instances (`instance=ExtResource(…)`), if any.
    pub instance: Option<Variant>,
    /// The path of the scene a placeholder instances (`instance_placeholder`), if any.
    pub instance_placeholder: Option<String>,
    /// Its owner's path when it is not the root (`owner`), if given.
    pub owner: Option<String>,
    /// Its index among its parent's children (`index`), if given.
    pub index: Option<i64>,
    /// Its groups (`groups=[…]`).
    pub groups: Vec<String>,
    /// Its unique id in the scene (`unique_id`, Godot 4.6), if given.
    pub unique_id: Option<i64>,
    /// Any other header attribute, in file order, as written.
    pub other: Vec<(String, Variant)>,
    /// Its properties in file order.
    pub properties: Vec<(String, Variant)>,
}

/// A `[connection]`: a persisted signal connection.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Connection {
    /// The signal's name.
    pub signal: String,
    /// The emitting node's path relative to the root.
    pub from: String,
    /// The receiving node's path relative to the root.
    pub to: String,
    /// The method called.
    pub method: String,
    /// `Object.ConnectFlags` (`flags`; absent means the engine's default).
    pub flags: Option<i64>,
    /// Extra arguments (`binds`).
    pub binds: Vec<Variant>,
    /// How many of the signal's arguments are dropped (`unbinds`, Godot 4).
    pub unbinds: Option<i64>,
    /// Any other attribute, in file order (Godot 4.6: `from_id_path` / `to_id_path`, the
    /// unique ids along a path into an instanced scene, as a PackedInt32Array).
    pub other: Vec<(String, Variant)>,
}

/// A reference to another resource of the file, as [`reference()`] reads it from a value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reference<'a> {
    /// `ExtResource(id)`.
    Ext(&'a Variant),
    /// `SubResource(id)`.
    Sub(&'a Variant),
}

/// `ExtResource(id)`: an `Object` of class `ExtResource` with the one property `id`.
pub fn ext_ref(id: impl Into<Variant>) -> Variant {
    reference_object("ExtResource", id.into())
}

/// `SubResource(id)`: an `Object` of class `SubResource` with the one property `id`.
pub fn sub_ref(id: impl Into<Variant>) -> Variant {
    reference_object("SubResource", id.into())
}

fn reference_object(class: &str, id: Variant) -> Variant {
    Variant::Object(Box::new(Object {
        class: class.to_owned(),
        properties: vec![("id".to_owned(), id)],
    }))
}

/// The reference `value` is, if it is `ExtResource(id)` or `SubResource(id)`: its id.
pub fn reference(value: &Variant) -> Option<Reference<'_>> {
    let Variant::Object(object) = value else {
        return None;
    };
    let [(key, id)] = object.properties.as_slice() else {
        return None;
    };
    if key != "id" {
        return None;
    }
    match object.class.as_str() {
        "ExtResource" => Some(Reference::Ext(id)),
        "SubResource" => Some(Reference::Sub(id)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_told_apart() {
        let ext = ext_ref("1_abc");
        let sub = sub_ref(3i64);
        assert_eq!(
            reference(&ext),
            Some(Reference::Ext(&Variant::String("1_abc".into())))
        );
        assert_eq!(reference(&sub), Some(Reference::Sub(&Variant::Int(3))));
        assert_eq!(reference(&Variant::Int(3)), None);
    }
}
