//! A scene's state in a binary file: the `_bundled` Dictionary property of its `PackedScene`
//! (`scene/resources/packed_scene.cpp`, `SceneState::get_bundled_scene` /
//! `set_bundled_scene`), read into a [`Scene`] and built back from one.
//!
//! ```text
//! names     PackedStringArray: node names, types, property names, groups, signals, methods
//! variants  Array: property values, instanced scenes, connection binds
//! node_count int, nodes PackedInt32Array, per node:
//!   parent owner type name|(index+1)<<18 instance property_count (name value)* group_count group*
//! node_ids  PackedInt32Array (Godot 4.6): each node's unique id
//! conn_count int, conns PackedInt32Array, per connection:
//!   from to signal method flags bind_count bind* [unbinds, version 3]
//! node_paths Array of NodePath: the paths that parent, owner, from and to name with bit 30
//! id_paths  Array of PackedInt32Array (Godot 4.6): beside each node path, the unique ids of
//!   the nodes along it (a path into an instanced scene), else empty; read into the node's
//!   `parent_id_path` / `owner_id_path` and the connection's `from_id_path` / `to_id_path`
//! editable_instances Array of NodePath; base_scene int (an inherited scene); version int
//! ```

use super::binary_variant::{Budget, corrupt};
use super::model::{Connection, ResourceFile, ResourceFormat, Scene, SceneNode};
use crate::error::{Error, ErrorKind, Result};
use crate::types::{NodePath, PackedInt32Array, PackedStringArray};
use crate::value::{Array, Dictionary, Variant};

const FLAG_ID_IS_PATH: i32 = 1 << 30;
const TYPE_INSTANTIATED: i32 = 0x7FFF_FFFF;
const FLAG_INSTANCE_IS_PLACEHOLDER: i32 = 1 << 30;
const FLAG_PATH_PROPERTY_IS_NODE: i32 = 1 << 30;
const FLAG_PROP_NAME_MASK: i32 = FLAG_PATH_PROPERTY_IS_NODE - 1;
const FLAG_MASK: i32 = (1 << 24) - 1;
const NO_PARENT_SAVED: i32 = 0x7FFF_FFFF;
const NAME_INDEX_BITS: u32 = 18;
/// `Object::CONNECT_PERSIST`: a connection's flags when the text form leaves them out.
const CONNECT_PERSIST: i64 = 2;

fn bad(message: impl Into<String>) -> Error {
    let message: String = message.into();
    corrupt(format!("scene state (_bundled): {message}"), 0).without_offset()
}

/// Replaces the `_bundled` property of a `PackedScene` file by its [`Scene`].
pub(crate) fn unbundle(file: &mut ResourceFile, budget: &mut Budget) -> Result<()> {
    let Some(at) = file.properties.iter().position(|(n, _)| n == "_bundled") else {
        return Ok(());
    };
    let (_, bundled) = file.properties.remove(at);
    let Variant::Dictionary(d) = bundled else {
        return Err(bad("not a Dictionary"));
    };
    file.scene = Some(read_state(&d, budget)?);
    Ok(())
}

fn get<'d>(d: &'d Dictionary, key: &str) -> Option<&'d Variant> {
    d.get(key)
}

fn int(d: &Dictionary, key: &str) -> Result<i64> {
    match get(d, key) {
        Some(Variant::Int(i)) => Ok(*i),
        _ => Err(bad(format!("{key:?} is missing or not an int"))),
    }
}

fn ints<'d>(d: &'d Dictionary, key: &str) -> Result<&'d [i32]> {
    match get(d, key) {
        Some(Variant::PackedInt32Array(a)) => Ok(a),
        _ => Err(bad(format!("{key:?} is missing or not a PackedInt32Array"))),
    }
}

fn paths(d: &Dictionary, key: &str) -> Result<Vec<String>> {
    match get(d, key) {
        None => Ok(Vec::new()),
        Some(Variant::Array(a)) => a
            .items
            .iter()
            .map(|v| match v {
                Variant::NodePath(p) => Ok(path_text(p)),
                Variant::String(s) => Ok(s.to_string()),
                _ => Err(bad(format!("{key:?} holds a value that is not a NodePath"))),
            })
            .collect(),
        _ => Err(bad(format!("{key:?} is not an Array"))),
    }
}

/// A NodePath as text: `A/B`, `/root/A`, `A:sub`.
pub(crate) fn path_text(p: &NodePath) -> String {
    let mut s = String::new();
    if p.absolute {
        s.push('/');
    }
    s.push_str(&p.names.join("/"));
    for sub in &p.subnames {
        s.push(':');
        s.push_str(sub);
    }
    s
}

/// Text as a NodePath (`NodePath(String)`): names split at `/`, subnames after `:`.
pub(crate) fn text_path(s: &str) -> NodePath {
    let absolute = s.starts_with('/');
    let body = s.trim_start_matches('/');
    let mut parts = body.split(':');
    // Every name, empty ones too, so that `path_text` gives the text back.
    let names = match parts.next().unwrap_or_default() {
        "" => Vec::new(),
        names => names.split('/').map(str::to_owned).collect(),
    };
    NodePath {
        names,
        subnames: parts.map(str::to_owned).collect(),
        absolute,
    }
}

/// Reads the ints of the nodes or connections one at a time.
struct Ints<'a> {
    data: &'a [i32],
    pos: usize,
    what: &'static str,
}

impl Ints<'_> {
    fn next(&mut self) -> Result<i32> {
        let v = self.data.get(self.pos).copied().ok_or_else(|| {
            bad(format!(
                "the ints of the {} end early ({} of them)",
                self.what,
                self.data.len()
            ))
        })?;
        self.pos += 1;
        Ok(v)
    }

    fn count(&mut self) -> Result<usize> {
        let n = self.next()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.data.len() - self.pos)
            .ok_or_else(|| bad(format!("a count of {n} in {} beyond their end", self.what)))
    }
}

struct Tables<'a> {
    names: &'a [String],
    variants: &'a [Variant],
    node_paths: &'a [String],
    id_paths: &'a [&'a [i32]],
}

impl Tables<'_> {
    fn name(&self, i: i32, budget: &mut Budget) -> Result<String> {
        let s = usize::try_from(i)
            .ok()
            .and_then(|i| self.names.get(i))
            .ok_or_else(|| {
                bad(format!(
                    "name index {i} out of range ({} names)",
                    self.names.len()
                ))
            })?;
        budget.take(s.len(), 0).map_err(Error::without_offset)?;
        Ok(s.clone())
    }

    fn variant(&self, i: i32, budget: &mut Budget) -> Result<Variant> {
        let v = usize::try_from(i)
            .ok()
            .and_then(|i| self.variants.get(i))
            .ok_or_else(|| {
                bad(format!(
                    "value index {i} out of range ({} values)",
                    self.variants.len()
                ))
            })?;
        budget.take(weight(v), 0).map_err(Error::without_offset)?;
        Ok(v.clone())
    }

    /// The unique-id path beside node path `i` (bit 30 set), as an attribute value, if it has
    /// one.
    fn id_path(&self, i: i32) -> Option<Variant> {
        let ids = usize::try_from(i & FLAG_MASK)
            .ok()
            .and_then(|i| self.id_paths.get(i))?;
        (!ids.is_empty()).then(|| Variant::PackedInt32Array(PackedInt32Array(ids.to_vec())))
    }

    fn node_path(&self, i: i32) -> Result<&str> {
        let i = i & FLAG_MASK;
        usize::try_from(i)
            .ok()
            .and_then(|i| self.node_paths.get(i))
            .map(String::as_str)
            .ok_or_else(|| bad(format!("node path index {i} out of range")))
    }
}

/// About how many bytes a copy of `v` holds (what a clone costs the budget).
fn weight(v: &Variant) -> usize {
    match v {
        Variant::String(s) => 32 + s.len(),
        Variant::Array(a) => 32 + a.items.iter().map(weight).sum::<usize>(),
        Variant::Dictionary(d) => 32 + d.iter().map(|(k, v)| weight(k) + weight(v)).sum::<usize>(),
        Variant::PackedByteArray(a) => 32 + a.len(),
        Variant::PackedInt32Array(a) => 32 + 4 * a.len(),
        Variant::PackedFloat32Array(a) => 32 + 4 * a.len(),
        Variant::PackedInt64Array(a) => 32 + 8 * a.len(),
        Variant::PackedFloat64Array(a) => 32 + 8 * a.len(),
        Variant::PackedVector2Array(a) => 32 + 16 * a.len(),
        Variant::PackedVector3Array(a) => 32 + 24 * a.len(),
        Variant::PackedColorArray(a) => 32 + 16 * a.len(),
        Variant::PackedVector4Array(a) => 32 + 32 * a.len(),
        Variant::PackedStringArray(a) => 32 + a.iter().map(|s| 24 + s.len()).sum::<usize>(),
        Variant::NodePath(p) => {
            64 + p
                .names
                .iter()
                .chain(&p.subnames)
                .map(|s| 24 + s.len())
                .sum::<usize>()
        }
        Variant::Object(o) => {
            64 + o
                .properties
                .iter()
                .map(|(n, v)| n.len() + weight(v))
                .sum::<usize>()
        }
        _ => 32,
    }
}

fn read_state(d: &Dictionary, budget: &mut Budget) -> Result<Scene> {
    let version = match get(d, "version") {
        Some(Variant::Int(v)) => *v,
        None => 1,
        _ => return Err(bad("\"version\" is not an int")),
    };
    if version > 3 {
        return Err(bad(format!(
            "version {version}: this reader knows versions up to 3"
        )));
    }
    let names: &[String] = match get(d, "names") {
        Some(Variant::PackedStringArray(a)) => a,
        _ => return Err(bad("\"names\" is missing or not a PackedStringArray")),
    };
    let variants: &[Variant] = match get(d, "variants") {
        Some(Variant::Array(a)) => &a.items,
        _ => return Err(bad("\"variants\" is missing or not an Array")),
    };
    let node_paths = paths(d, "node_paths")?;
    // Godot 4.6 writes beside each node path the unique ids of the nodes along it.
    let id_paths: Vec<&[i32]> = match get(d, "id_paths") {
        None => Vec::new(),
        Some(Variant::Array(a)) => a
            .items
            .iter()
            .map(|v| match v {
                Variant::PackedInt32Array(ids) => Ok(ids.as_slice()),
                _ => Err(bad(
                    "\"id_paths\" holds a value that is not a PackedInt32Array",
                )),
            })
            .collect::<Result<_>>()?,
        Some(_) => return Err(bad("\"id_paths\" is not an Array")),
    };
    if id_paths.len() > node_paths.len() {
        return Err(bad(format!(
            "{} id paths for {} node paths",
            id_paths.len(),
            node_paths.len()
        )));
    }
    let t = Tables {
        names,
        variants,
        node_paths: &node_paths,
        id_paths: &id_paths,
    };
    let node_count = int(d, "node_count")?;
    let node_ints = ints(d, "nodes")?;
    let node_count = usize::try_from(node_count)
        .ok()
        .filter(|&n| n <= node_ints.len())
        .ok_or_else(|| {
            bad(format!(
                "node_count {node_count} for {} ints",
                node_ints.len()
            ))
        })?;
    let node_ids: Option<&[i32]> = match get(d, "node_ids") {
        None => None,
        Some(Variant::PackedInt32Array(a)) => Some(a),
        _ => return Err(bad("\"node_ids\" is not a PackedInt32Array")),
    };
    let base_scene = match get(d, "base_scene") {
        None => None,
        Some(Variant::Int(i)) => Some(*i),
        _ => return Err(bad("\"base_scene\" is not an int")),
    };
    let mut r = Ints {
        data: node_ints,
        pos: 0,
        what: "nodes",
    };
    let mut nodes: Vec<SceneNode> = Vec::with_capacity(node_count);
    // Each node's path from the root ("." for the root), for its children's `parent`.
    let mut node_path_of: Vec<String> = Vec::with_capacity(node_count);
    for i in 0..node_count {
        let parent = r.next()?;
        let owner = r.next()?;
        let ty = r.next()?;
        let name_index = r.next()?;
        let instance = r.next()?;
        let name = t.name(name_index & ((1 << NAME_INDEX_BITS) - 1), budget)?;
        let index = i64::from((name_index as u32 >> NAME_INDEX_BITS) as i32) - 1;
        let mut node = SceneNode {
            name,
            index: (index >= 0).then_some(index),
            ..SceneNode::default()
        };
        let is_root = parent < 0 || parent == NO_PARENT_SAVED;
        node.parent = if is_root {
            None
        } else if parent & FLAG_ID_IS_PATH != 0 {
            if let Some(ids) = t.id_path(parent) {
                node.other.push(("parent_id_path".to_owned(), ids));
            }
            Some(t.node_path(parent)?.to_owned())
        } else {
            let p = usize::try_from(parent & FLAG_MASK).unwrap_or(usize::MAX);
            Some(
                node_path_of
                    .get(p)
                    .ok_or_else(|| bad(format!("node {i}'s parent {p} is not an earlier node")))?
                    .clone(),
            )
        };
        node_path_of.push(match &node.parent {
            None => ".".to_owned(),
            Some(p) if p == "." => node.name.clone(),
            Some(p) => format!("{p}/{}", node.name),
        });
        node.owner = if owner < 0 || owner == NO_PARENT_SAVED || (!is_root && owner == 0) {
            None
        } else if owner & FLAG_ID_IS_PATH != 0 {
            if let Some(ids) = t.id_path(owner) {
                node.other.push(("owner_id_path".to_owned(), ids));
            }
            Some(t.node_path(owner)?.to_owned())
        } else {
            let o = usize::try_from(owner & FLAG_MASK).unwrap_or(usize::MAX);
            Some(
                node_path_of
                    .get(o)
                    .ok_or_else(|| bad(format!("node {i}'s owner {o} is not an earlier node")))?
                    .clone(),
            )
        };
        node.class = if ty == TYPE_INSTANTIATED {
            None
        } else {
            Some(t.name(ty, budget)?)
        };
        if instance >= 0 {
            let value = t.variant(instance & FLAG_MASK, budget)?;
            if instance & FLAG_INSTANCE_IS_PLACEHOLDER != 0 {
                match value {
                    Variant::String(s) => node.instance_placeholder = Some(s.to_string()),
                    _ => return Err(bad(format!("node {i}'s placeholder path is not a String"))),
                }
            } else {
                node.instance = Some(value);
            }
        } else if is_root {
            if let Some(base) = base_scene {
                let base = i32::try_from(base).map_err(|_| bad("base_scene out of range"))?;
                node.instance = Some(t.variant(base, budget)?);
            }
        }
        let n = r.count()?;
        let mut deferred = Vec::new();
        for _ in 0..n {
            let name = r.next()?;
            let value = r.next()?;
            let prop = t.name(name & FLAG_PROP_NAME_MASK, budget)?;
            if name & FLAG_PATH_PROPERTY_IS_NODE != 0 {
                deferred.push(prop.clone());
            }
            node.properties.push((prop, t.variant(value, budget)?));
        }
        if !deferred.is_empty() {
            node.other.push((
                "node_paths".to_owned(),
                Variant::PackedStringArray(PackedStringArray(deferred)),
            ));
        }
        let n = r.count()?;
        for _ in 0..n {
            let g = r.next()?;
            node.groups.push(t.name(g, budget)?);
        }
        if let Some(ids) = node_ids {
            node.unique_id = ids.get(i).map(|&id| i64::from(id));
        }
        nodes.push(node);
    }
    let conn_count = int(d, "conn_count")?;
    let conn_ints = ints(d, "conns")?;
    let conn_count = usize::try_from(conn_count)
        .ok()
        .filter(|&n| n <= conn_ints.len())
        .ok_or_else(|| {
            bad(format!(
                "conn_count {conn_count} for {} ints",
                conn_ints.len()
            ))
        })?;
    let mut r = Ints {
        data: conn_ints,
        pos: 0,
        what: "connections",
    };
    let endpoint = |v: i32| -> Result<String> {
        if v & FLAG_ID_IS_PATH != 0 {
            return Ok(t.node_path(v)?.to_owned());
        }
        usize::try_from(v & FLAG_MASK)
            .ok()
            .and_then(|i| node_path_of.get(i))
            .cloned()
            .ok_or_else(|| bad(format!("connection node {v} out of range")))
    };
    let mut connections = Vec::with_capacity(conn_count);
    for _ in 0..conn_count {
        let from_index = r.next()?;
        let to_index = r.next()?;
        let from = endpoint(from_index)?;
        let to = endpoint(to_index)?;
        let mut other = Vec::new();
        for (key, index) in [("from_id_path", from_index), ("to_id_path", to_index)] {
            if index & FLAG_ID_IS_PATH != 0 {
                if let Some(ids) = t.id_path(index) {
                    other.push((key.to_owned(), ids));
                }
            }
        }
        let signal = t.name(r.next()?, budget)?;
        let method = t.name(r.next()?, budget)?;
        let flags = i64::from(r.next()?);
        let n = r.count()?;
        let mut binds = Vec::with_capacity(n);
        for _ in 0..n {
            binds.push(t.variant(r.next()?, budget)?);
        }
        let unbinds = if version >= 3 {
            Some(i64::from(r.next()?)).filter(|&u| u != 0)
        } else {
            None
        };
        connections.push(Connection {
            signal,
            from,
            to,
            method,
            flags: (flags != CONNECT_PERSIST).then_some(flags),
            binds,
            unbinds,
            other,
        });
    }
    Ok(Scene {
        nodes,
        connections,
        editable: paths(d, "editable_instances")?,
    })
}

/// Names and values of a state being built, each once, in first-use order.
#[derive(Default)]
struct Builder {
    names: Vec<String>,
    name_index: std::collections::HashMap<String, i32>,
    variants: Vec<Variant>,
    variant_index: Dictionary,
    node_paths: Vec<Variant>,
    id_paths: Vec<Variant>,
    /// Godot 4.6 (unique ids): a new node path's names go into `names` too, as the engine
    /// registers them when it packs the path.
    path_names: bool,
}

impl Builder {
    fn name(&mut self, s: &str) -> Result<i32> {
        if let Some(&i) = self.name_index.get(s) {
            return Ok(i);
        }
        let i = index_i32(self.names.len(), FLAG_PROP_NAME_MASK)?;
        self.names.push(s.to_owned());
        self.name_index.insert(s.to_owned(), i);
        Ok(i)
    }

    fn variant(&mut self, v: &Variant) -> Result<i32> {
        if let Some(Variant::Int(i)) = self.variant_index.get(v) {
            return i32::try_from(*i).map_err(|_| bad("value index out of range"));
        }
        let i = index_i32(self.variants.len(), FLAG_MASK)?;
        self.variants.push(v.clone());
        self.variant_index
            .insert(v.clone(), Variant::Int(i64::from(i)));
        Ok(i)
    }

    /// A node by its path: its index among the nodes so far, else a `node_paths` entry (with
    /// `ids`, its unique-id path, beside it in `id_paths`).
    fn node(&mut self, path: &str, paths: &[String], ids: Option<&Variant>) -> Result<i32> {
        if let Some(i) = paths.iter().position(|p| p == path) {
            return index_i32(i, FLAG_MASK);
        }
        let parsed = text_path(path);
        let np = Variant::NodePath(Box::new(parsed.clone()));
        let i = match self.node_paths.iter().position(|p| *p == np) {
            Some(i) => i,
            None => {
                if self.path_names {
                    for name in &parsed.names {
                        self.name(name)?;
                    }
                }
                self.node_paths.push(np);
                self.id_paths.push(match ids {
                    Some(v @ Variant::PackedInt32Array(_)) => v.clone(),
                    _ => Variant::PackedInt32Array(PackedInt32Array::default()),
                });
                self.node_paths.len() - 1
            }
        };
        Ok(index_i32(i, FLAG_MASK)? | FLAG_ID_IS_PATH)
    }
}

fn attribute<'v>(other: &'v [(String, Variant)], key: &str) -> Option<&'v Variant> {
    other.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn index_i32(i: usize, max: i32) -> Result<i32> {
    i32::try_from(i).ok().filter(|&i| i <= max).ok_or_else(|| {
        Error::new(ErrorKind::Unsupported(
            format!("a scene with more than {max} names, values or nodes").into(),
        ))
    })
}

/// The `_bundled` Dictionary of `scene`, in the order `SceneState` packs a scene: per node its
/// name, instanced scene, property names and values, groups and type; then per connection its
/// method, signal and binds.
pub(crate) fn bundle(scene: &Scene, format: ResourceFormat) -> Result<Variant> {
    let godot4 = format == ResourceFormat::Godot4;
    let with_ids =
        godot4 && !scene.nodes.is_empty() && scene.nodes.iter().all(|n| n.unique_id.is_some());
    let mut b = Builder {
        path_names: with_ids,
        ..Builder::default()
    };
    let mut paths: Vec<String> = Vec::with_capacity(scene.nodes.len());
    let mut ints: Vec<i32> = Vec::new();
    let mut base_scene = None;
    for (i, node) in scene.nodes.iter().enumerate() {
        let is_root = i == 0;
        let parent = match (&node.parent, is_root) {
            (None, true) => -1,
            (None, false) => {
                return Err(Error::new(ErrorKind::Unsupported(
                    format!("node {:?} (not the first) has no parent", node.name).into(),
                )));
            }
            (Some(p), _) => b.node(p, &paths, attribute(&node.other, "parent_id_path"))?,
        };
        paths.push(match &node.parent {
            None => ".".to_owned(),
            Some(p) if p == "." => node.name.clone(),
            Some(p) => format!("{p}/{}", node.name),
        });
        let owner = match (&node.owner, is_root) {
            (_, true) => -1,
            (None, false) => 0,
            (Some(o), false) => {
                // `owner_uid_path` is what the 4.6 text saver names it.
                let ids = attribute(&node.other, "owner_id_path")
                    .or_else(|| attribute(&node.other, "owner_uid_path"));
                b.node(o, &paths, ids)?
            }
        };
        let name = b.name(&node.name)?;
        let name_index = match node.index {
            Some(index) if (0..(1 << (32 - NAME_INDEX_BITS)) - 1).contains(&index) => {
                name | (((index + 1) as i32) << NAME_INDEX_BITS)
            }
            _ => name,
        };
        let mut instance = -1;
        if let Some(value) = &node.instance {
            let v = b.variant(value)?;
            if is_root {
                base_scene = Some(v);
            } else {
                instance = v;
            }
        } else if let Some(path) = &node.instance_placeholder {
            instance =
                b.variant(&Variant::String(path.as_str().into()))? | FLAG_INSTANCE_IS_PLACEHOLDER;
        }
        let deferred: Vec<&str> = node
            .other
            .iter()
            .filter(|(k, _)| k == "node_paths")
            .flat_map(|(_, v)| match v {
                Variant::PackedStringArray(a) => a.iter().map(String::as_str).collect::<Vec<_>>(),
                _ => Vec::new(),
            })
            .collect();
        let mut props = Vec::with_capacity(node.properties.len() * 2);
        for (key, value) in &node.properties {
            let mut n = b.name(key)?;
            if godot4 && deferred.contains(&key.as_str()) {
                n |= FLAG_PATH_PROPERTY_IS_NODE;
            }
            props.push(n);
            props.push(b.variant(value)?);
        }
        let mut groups = Vec::with_capacity(node.groups.len());
        for g in &node.groups {
            groups.push(b.name(g)?);
        }
        let ty = match &node.class {
            Some(class) => b.name(class)?,
            None => TYPE_INSTANTIATED,
        };
        ints.extend([parent, owner, ty, name_index, instance]);
        ints.push(index_i32(node.properties.len(), i32::MAX)?);
        ints.extend(props);
        ints.push(index_i32(groups.len(), i32::MAX)?);
        ints.extend(groups);
    }
    let mut conns: Vec<i32> = Vec::new();
    for c in &scene.connections {
        let method = b.name(&c.method)?;
        let signal = b.name(&c.signal)?;
        // `from_uid_path` / `to_uid_path` are what the 4.6 text saver names them.
        let ids = |x: &str, y: &str| attribute(&c.other, x).or_else(|| attribute(&c.other, y));
        let from = b.node(&c.from, &paths, ids("from_id_path", "from_uid_path"))?;
        let to = b.node(&c.to, &paths, ids("to_id_path", "to_uid_path"))?;
        conns.extend([from, to, signal, method]);
        conns.push(
            i32::try_from(c.flags.unwrap_or(CONNECT_PERSIST))
                .map_err(|_| bad("connection flags out of range"))?,
        );
        conns.push(index_i32(c.binds.len(), i32::MAX)?);
        for bind in &c.binds {
            let v = b.variant(bind)?;
            conns.push(v);
        }
        if godot4 {
            conns.push(
                i32::try_from(c.unbinds.unwrap_or(0)).map_err(|_| bad("unbinds out of range"))?,
            );
        }
    }
    let mut d = Dictionary::new();
    d.insert(
        "names".into(),
        Variant::PackedStringArray(PackedStringArray(b.names)),
    );
    d.insert("variants".into(), Variant::from(b.variants));
    d.insert("node_count".into(), Variant::Int(scene.nodes.len() as i64));
    d.insert(
        "nodes".into(),
        Variant::PackedInt32Array(PackedInt32Array(ints)),
    );
    if with_ids {
        let ids = scene
            .nodes
            .iter()
            .map(|n| {
                n.unique_id
                    .and_then(|id| i32::try_from(id).ok())
                    .unwrap_or(0)
            })
            .collect();
        d.insert(
            "node_ids".into(),
            Variant::PackedInt32Array(PackedInt32Array(ids)),
        );
    }
    d.insert(
        "conn_count".into(),
        Variant::Int(scene.connections.len() as i64),
    );
    d.insert(
        "conns".into(),
        Variant::PackedInt32Array(PackedInt32Array(conns)),
    );
    d.insert(
        "node_paths".into(),
        Variant::Array(Box::new(Array {
            element_type: Default::default(),
            items: b.node_paths,
        })),
    );
    if with_ids {
        // Godot 4.6: the unique-id paths beside the node paths.
        d.insert(
            "id_paths".into(),
            Variant::Array(Box::new(Array {
                element_type: Default::default(),
                items: b.id_paths,
            })),
        );
    }
    let editable = scene
        .editable
        .iter()
        .map(|p| Variant::NodePath(Box::new(text_path(p))))
        .collect();
    d.insert(
        "editable_instances".into(),
        Variant::Array(Box::new(Array {
            element_type: Default::default(),
            items: editable,
        })),
    );
    if let Some(base) = base_scene {
        d.insert("base_scene".into(), Variant::Int(i64::from(base)));
    }
    d.insert("version".into(), Variant::Int(if godot4 { 3 } else { 2 }));
    Ok(Variant::Dictionary(d))
}
