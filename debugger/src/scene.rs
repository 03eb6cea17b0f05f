//! The scene tree and inspected objects, as the game reports them.

use crate::event::{Items, property};
use crate::wire::Protocol;
use godot_serde::Variant;

/// Godot 4's `PROPERTY_HINT_OBJECT_TOO_BIG` (`core/object/object.h`): the hint of an
/// inspected property whose value the engine withheld.
pub const OBJECT_TOO_BIG_4: i64 = 25;
/// Godot 3.2's `PROPERTY_HINT_OBJECT_TOO_BIG` (`core/object.h`).
pub const OBJECT_TOO_BIG_3: i64 = 34;

/// One node of a [`SceneTree`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneNode {
    /// The node's name, e.g. `"Player"` (the root is `"root"`).
    pub name: String,
    /// Its class, e.g. `"Node2D"` (the root is a `Window` in Godot 4, a `Viewport` in 3).
    pub class: String,
    /// Its instance id, for [`Command::InspectObjects`](crate::Command::InspectObjects).
    pub id: u64,
    /// The scene file it was instanced from (Godot 4; empty when none, `None` for Godot 3).
    pub scene_file_path: Option<String>,
    /// Godot 4's view flags (bit 1: has a `visible` property, bit 2: visible, bit 3: visible
    /// in the tree); `None` for Godot 3.
    pub view_flags: Option<i64>,
    /// The parent's index in [`SceneTree::nodes`]; `None` for the root.
    pub parent: Option<usize>,
    /// The children's indices in [`SceneTree::nodes`], in order.
    pub children: Vec<usize>,
}

/// The game's scene tree: its nodes in pre-order (the root first), linked by index, so that
/// no depth of tree costs stack.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SceneTree {
    /// Every node, the root at index 0, each node before its children.
    pub nodes: Vec<SceneNode>,
}

impl SceneTree {
    /// The root node.
    #[must_use]
    pub fn root(&self) -> Option<&SceneNode> {
        self.nodes.first()
    }

    /// The node at an absolute path such as `/root/Player/Gun`.
    #[must_use]
    pub fn get(&self, path: &str) -> Option<&SceneNode> {
        let mut names = path.strip_prefix('/')?.split('/');
        let mut node = self
            .root()
            .filter(|root| Some(root.name.as_str()) == names.next())?;
        for name in names {
            node = node
                .children
                .iter()
                .filter_map(|&i| self.nodes.get(i))
                .find(|child| child.name == name)?;
        }
        Some(node)
    }

    /// The absolute path of the node at `index`, e.g. `/root/Player`.
    #[must_use]
    pub fn path(&self, index: usize) -> Option<String> {
        let mut names = Vec::new();
        let mut at = Some(index);
        while let Some(i) = at {
            let node = self.nodes.get(i)?;
            names.push(node.name.as_str());
            at = node.parent;
            if names.len() > self.nodes.len() {
                return None;
            }
        }
        names.reverse();
        Some(format!("/{}", names.join("/")))
    }

    /// Every node's path, in pre-order: a compact picture of the tree for assertions.
    #[must_use]
    pub fn paths(&self) -> Vec<String> {
        (0..self.nodes.len()).filter_map(|i| self.path(i)).collect()
    }

    /// Reads the engine's flat pre-order list: per node `child_count, name, class, id` and,
    /// with `fields == 6` (Godot 4), `scene_file_path, view_flags`.
    pub(crate) fn parse(data: Vec<Variant>, fields: usize) -> Result<SceneTree, String> {
        let mut it = Items::new(data);
        let mut nodes: Vec<SceneNode> = Vec::new();
        // (index, children still to come) of the open ancestors.
        let mut open: Vec<(usize, usize)> = Vec::new();
        while !it.is_empty() {
            while open.last().is_some_and(|&(_, left)| left == 0) {
                open.pop();
            }
            let parent = match open.last_mut() {
                Some((index, left)) => {
                    *left -= 1;
                    Some(*index)
                }
                None if nodes.is_empty() => None,
                None => return Err("nodes after the root's last descendant".into()),
            };
            let child_count = it.count(usize::MAX)?;
            let name = it.string()?;
            let class = it.string()?;
            let id = it.int()?;
            let (scene_file_path, view_flags) = if fields == 6 {
                (Some(it.string()?), Some(it.int()?))
            } else {
                (None, None)
            };
            let index = nodes.len();
            if let Some(node) = parent.and_then(|p| nodes.get_mut(p)) {
                node.children.push(index);
            }
            nodes.push(SceneNode {
                name,
                class,
                id: id as u64,
                scene_file_path,
                view_flags,
                parent,
                children: Vec::new(),
            });
            if child_count > 0 {
                open.push((index, child_count));
            }
        }
        if let Some((index, left)) = open.iter().find(|&&(_, left)| left > 0) {
            return Err(format!("node {index} lacks {left} of its children"));
        }
        Ok(SceneTree { nodes })
    }
}

/// One property of an [`InspectedObject`], as the editor's inspector receives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    /// The name, e.g. `"position"`; groups and categories appear as entries of type 0 with a
    /// `null` value; script members as `"Members/name"`.
    pub name: String,
    /// The Variant type id of the property (the engine's numbering).
    pub type_id: i64,
    /// The property hint (`PROPERTY_HINT_*`).
    pub hint: i64,
    /// The hint string.
    pub hint_string: String,
    /// The usage flags (`PROPERTY_USAGE_*`).
    pub usage: i64,
    /// The value; a resource's path for a saved resource; `null` when
    /// [`too_big`](Self::too_big).
    pub value: Variant,
    /// The engine withheld the value as too big to send: its encoding exceeded the engine's
    /// limit (Godot 4: 1 MiB, `SceneDebuggerObject::serialize`'s `p_max_size = 1 << 20`),
    /// so it sent `null`, an empty hint string and the hint `PROPERTY_HINT_OBJECT_TOO_BIG`
    /// ([`OBJECT_TOO_BIG_4`], [`OBJECT_TOO_BIG_3`]). [`hint`](Self::hint) and
    /// [`hint_string`](Self::hint_string) are then the engine's replacements, not the
    /// property's own.
    pub too_big: bool,
}

/// An object's class and properties (answer to `inspect_objects` / `inspect_object`).
#[derive(Clone, Debug, PartialEq)]
pub struct InspectedObject {
    /// The instance id.
    pub id: u64,
    /// The class, e.g. `"Node2D"`.
    pub class: String,
    /// The properties in the engine's order.
    pub properties: Vec<Property>,
}

impl InspectedObject {
    /// The value of the property `name`, if the object has it and the engine sent it (`None`
    /// for a [`Property::too_big`] one: see [`property`](Self::property)).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Variant> {
        self.property(name).filter(|p| !p.too_big).map(|p| &p.value)
    }

    /// The property `name`, if the object has it.
    #[must_use]
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }

    /// `[id, class, [property, ...]]`.
    pub(crate) fn parse(protocol: Protocol, data: Vec<Variant>) -> Result<InspectedObject, String> {
        let mut it = Items::new(data);
        let id = it.int()? as u64;
        let class = it.string()?;
        let properties = it
            .array()?
            .into_iter()
            .map(|p| property(protocol, p))
            .collect::<Result<Vec<_>, _>>()?;
        it.end()?;
        Ok(InspectedObject {
            id,
            class,
            properties,
        })
    }
}
