//! The structural edits of a [`TextResource`]: nodes (add, remove, rename, reparent),
//! external resources and connections, each keeping every other byte of the text.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

use super::model::{Connection, ResourceFormat};
use super::text::{
    Splice, TextResource, check_name, child_path, moved, quoted, simplified, unsupported, within,
};
use super::text_scan::Section;
use crate::text::variant_to_string_with;
use crate::{Result, Variant};

/// `Object.CONNECT_PERSIST`, the flags the saver leaves out.
const CONNECT_PERSIST: i64 = 2;

/// Five characters as `Resource::generate_scene_unique_id` makes them: each `a`–`y` or
/// `0`–`8` (the engine's alphabet: 25 letters and 9 digits), from `seed`.
fn scene_unique_id(seed: u64) -> String {
    const LETTERS: u64 = (b'z' - b'a') as u64;
    const BASE: u64 = LETTERS + (b'9' - b'0') as u64;
    let mut r = seed;
    (0..5)
        .map(|_| {
            let c = r % BASE;
            r /= BASE;
            if c < LETTERS {
                char::from(b'a' + c as u8)
            } else {
                char::from(b'0' + (c - LETTERS) as u8)
            }
        })
        .collect()
}

impl TextResource {
    fn g4(&self) -> bool {
        self.format == ResourceFormat::Godot4
    }

    fn value_text(&self, v: &Variant) -> String {
        variant_to_string_with(v, self.config)
    }

    /// The edit that sets field `name` of section `s` to the text `value` (in place, or
    /// added before the `]`).
    fn field_edit(&self, s: &Section, name: &str, value: String) -> Splice {
        match s.field(name) {
            Some(f) => (f.span.clone(), value),
            None => {
                let at = s.header_end - 1;
                (at..at, format!(" {name}={value}"))
            }
        }
    }

    fn scene_only(&self) -> Result<()> {
        if self.is_scene() {
            Ok(())
        } else {
            Err(unsupported("this edit needs a scene ([gd_scene])".into()))
        }
    }

    /// The node sections at `path` and under it, in file order.
    fn subtree(&self, path: &str) -> Vec<(usize, String)> {
        self.node_paths()
            .into_iter()
            .filter(|(_, p)| within(p, path))
            .collect()
    }

    /// Where a new last child of the node at `parent` goes: after the content of the last
    /// section of `parent`'s subtree, leaving out the nodes in `skip` (section indices, sorted).
    fn child_anchor(&self, parent: &str, skip: &[usize]) -> Result<usize> {
        self.node_index(parent)?;
        let last = self
            .subtree(parent)
            .into_iter()
            .filter(|(i, _)| skip.binary_search(i).is_err())
            .map(|(i, _)| i)
            .next_back();
        let s = last
            .and_then(|i| self.sections.get(i))
            .ok_or_else(|| unsupported(format!("the scene has no node at {parent:?}")))?;
        Ok(s.content_end(&self.text))
    }

    /// Text to insert at `at` holding the lines `body`, after a blank line.
    fn block_at(&self, at: usize, body: &str) -> String {
        let before = self.text.get(..at).unwrap_or("");
        let lead = if before.ends_with('\n') { "\n" } else { "\n\n" };
        format!("{lead}{body}")
    }

    fn check_free_name(&self, parent: &str, name: &str) -> Result<()> {
        check_name(name)?;
        let path = child_path(Some(parent), name);
        if self.node_paths().iter().any(|(_, p)| *p == path) {
            return Err(unsupported(format!(
                "{parent:?} already has a child named {name:?}"
            )));
        }
        Ok(())
    }

    /// Adds a node named `name` of class `class` as the last child of the node at `parent`
    /// (`"."`: the root), after that node's last descendant, as the engine's saver places a
    /// new last child.
    ///
    /// # Errors
    ///
    /// When the file is not a scene, there is no node at `parent`, or `name` is taken there
    /// or not a node name.
    pub fn add_node(&mut self, parent: &str, name: &str, class: &str) -> Result<()> {
        self.insert_node(parent, name, Some(class), None)
    }

    /// Adds a node instancing the scene of the `[ext_resource]` `ext_id` (from
    /// [`TextResource::add_ext_resource`]) as the last child of the node at `parent`.
    ///
    /// # Errors
    ///
    /// As [`TextResource::add_node`]; when there is no such external resource.
    pub fn add_instance(&mut self, parent: &str, name: &str, ext_id: &str) -> Result<()> {
        let ext = self
            .sections
            .iter()
            .find(|s| s.tag == "ext_resource" && s.field_str("id").as_deref() == Some(ext_id))
            .ok_or_else(|| unsupported(format!("the file has no ext_resource {ext_id:?}")))?;
        let id = ext
            .field("id")
            .map(|f| f.value.clone())
            .unwrap_or(Variant::Nil);
        let instance = self.value_text(&super::model::ext_ref(id));
        self.insert_node(parent, name, None, Some(instance))
    }

    fn insert_node(
        &mut self,
        parent: &str,
        name: &str,
        class: Option<&str>,
        instance: Option<String>,
    ) -> Result<()> {
        self.scene_only()?;
        self.check_free_name(parent, name)?;
        let at = self.child_anchor(parent, &[])?;
        let mut line = format!("[node name={}", quoted(name));
        if let Some(c) = class {
            line.push_str(&format!(" type={}", quoted(c)));
        }
        line.push_str(&format!(" parent={}", quoted(parent)));
        if let Some(i) = instance {
            line.push_str(&format!(" instance={i}"));
        }
        line.push_str("]\n");
        let body = self.block_at(at, &line);
        let path = child_path(Some(parent), name);
        self.apply_checked(vec![(at..at, body)], |doc| doc.node_index(&path).is_ok())
    }

    /// The edits that rewrite every path under `from` to lie under `to`: nodes' `parent` and
    /// `owner`, connections' `from` and `to`, editable paths.
    fn path_edits(&self, from: &str, to: &str, skip_parent_of: Option<usize>) -> Vec<Splice> {
        let mut out = Vec::new();
        for (i, s) in self.sections.iter().enumerate() {
            let fields: &[&str] = match s.tag.as_str() {
                "node" => &["parent", "owner"],
                "connection" => &["from", "to"],
                "editable" => &["path"],
                _ => &[],
            };
            for name in fields {
                if *name == "parent" && Some(i) == skip_parent_of {
                    continue;
                }
                let (Some(f), Some(old)) = (s.field(name), s.field_str(name)) else {
                    continue;
                };
                if let Some(new) = moved(simplified(&old), from, to) {
                    out.push((f.span.clone(), quoted(&new)));
                }
            }
        }
        out
    }

    /// Renames the node at `path`; its descendants' `parent` paths, owners, connections and
    /// editable paths follow.
    ///
    /// # Errors
    ///
    /// When there is no such node, or `name` is taken beside it or not a node name.
    pub fn rename_node(&mut self, path: &str, name: &str) -> Result<()> {
        self.scene_only()?;
        let i = self.node_index(path)?;
        let s = self
            .sections
            .get(i)
            .ok_or_else(|| unsupported("no node".into()))?;
        let parent = s.field_str("parent");
        let mut edits = vec![self.field_edit(s, "name", quoted(name))];
        if let Some(parent) = parent {
            self.check_free_name(&parent, name)?;
            edits.extend(self.path_edits(path, &child_path(Some(&parent), name), None));
        } else {
            check_name(name)?;
        }
        let new_path = match s.field_str("parent") {
            Some(p) => child_path(Some(&p), name),
            None => ".".to_owned(),
        };
        let count = self.node_paths().len();
        self.apply_checked(edits, |doc| {
            doc.node_index(&new_path).is_ok() && doc.node_paths().len() == count
        })
    }

    /// Moves the node at `path` (and its subtree) to be the last child of the node at
    /// `new_parent`: its `parent` is rewritten, its descendants', owners', connections' and
    /// editable paths follow, and its sections move after `new_parent`'s last descendant
    /// (a parent must come before its children in the file).
    ///
    /// # Errors
    ///
    /// When either node is missing, `path` is the root, `new_parent` lies under `path`, or
    /// the name is taken there.
    pub fn reparent_node(&mut self, path: &str, new_parent: &str) -> Result<()> {
        self.scene_only()?;
        if path == "." {
            return Err(unsupported("the root has no parent to change".into()));
        }
        self.node_index(new_parent)?;
        if within(new_parent, path) {
            return Err(unsupported(format!("{new_parent:?} lies under {path:?}")));
        }
        let i = self.node_index(path)?;
        let s = self
            .sections
            .get(i)
            .ok_or_else(|| unsupported("no node".into()))?;
        let name = s.field_str("name").unwrap_or_default();
        self.check_free_name(new_parent, &name)?;
        let new_path = child_path(Some(new_parent), &name);
        // First the paths, then the move (over the rewritten text).
        let mut edits = vec![self.field_edit(s, "parent", quoted(new_parent))];
        edits.extend(self.path_edits(path, &new_path, Some(i)));
        let before = self.clone();
        self.apply(edits)?;
        let moving: Vec<usize> = self
            .subtree(&new_path)
            .into_iter()
            .map(|(i, _)| i)
            .collect();
        let result = self.move_sections(&moving, new_parent);
        if result.is_err() {
            *self = before;
        }
        result
    }

    /// Moves the node sections `moving` (one subtree, in file order) after the last section
    /// of `parent`'s subtree.
    fn move_sections(&mut self, moving: &[usize], parent: &str) -> Result<()> {
        let at = self.child_anchor(parent, moving)?;
        let mut body = String::new();
        let mut edits = Vec::new();
        for &i in moving {
            let Some(s) = self.sections.get(i) else {
                continue;
            };
            let end = s.content_end(&self.text);
            if !body.is_empty() {
                body.push('\n');
            }
            body.push_str(self.text.get(s.start..end).unwrap_or(""));
            if !body.ends_with('\n') {
                body.push('\n');
            }
            edits.push((s.start..s.end, String::new()));
        }
        let body = self.block_at(at, &body);
        edits.push((at..at, body));
        self.apply(edits)?;
        self.tidy_end()
    }

    /// Drops blank lines left at the end of the text by a removal (the saver ends a file
    /// with one line break).
    fn tidy_end(&mut self) -> Result<()> {
        let trimmed = self.text.trim_end_matches('\n').len();
        if self.text.len() > trimmed + 1 {
            let end = self.text.len();
            return self.apply(vec![(trimmed + 1..end, String::new())]);
        }
        Ok(())
    }

    /// Removes the node at `path`, its descendants, the connections from or to any of them
    /// and their editable paths.
    ///
    /// # Errors
    ///
    /// When there is no such node or it is the root.
    pub fn remove_node(&mut self, path: &str) -> Result<()> {
        self.scene_only()?;
        if path == "." {
            return Err(unsupported("the root of a scene cannot be removed".into()));
        }
        self.node_index(path)?;
        let mut edits = Vec::new();
        let nodes: Vec<usize> = self.subtree(path).into_iter().map(|(i, _)| i).collect();
        for (i, s) in self.sections.iter().enumerate() {
            let gone = match s.tag.as_str() {
                "node" => nodes.binary_search(&i).is_ok(),
                "connection" => ["from", "to"]
                    .iter()
                    .any(|f| s.field_str(f).is_some_and(|p| within(simplified(&p), path))),
                "editable" => s
                    .field_str("path")
                    .is_some_and(|p| within(simplified(&p), path)),
                _ => false,
            };
            if gone {
                edits.push((s.start..s.end, String::new()));
            }
        }
        self.apply(edits)?;
        self.tidy_end()
    }

    /// Adds `[connection]` `c` after the last connection (or after the nodes), as the saver
    /// writes one (`flags` left out when it is `CONNECT_PERSIST`, `unbinds` when 0).
    ///
    /// # Errors
    ///
    /// When the file is not a scene or `c.from` / `c.to` name no node.
    pub fn add_connection(&mut self, c: &Connection) -> Result<()> {
        self.scene_only()?;
        self.node_index(&c.from)?;
        self.node_index(&c.to)?;
        let mut line = format!(
            "[connection signal={} from={} to={} method={}",
            quoted(&c.signal),
            quoted(&c.from),
            quoted(&c.to),
            quoted(&c.method)
        );
        if let Some(f) = c.flags.filter(|&f| f != CONNECT_PERSIST) {
            line.push_str(&format!(" flags={f}"));
        }
        if let (true, Some(u)) = (self.g4(), c.unbinds.filter(|&u| u > 0)) {
            line.push_str(&format!(" unbinds={u}"));
        }
        if !c.binds.is_empty() {
            let binds = self.value_text(&super::text::array_of(c.binds.clone()));
            line.push_str(&format!(" binds= {binds}"));
        }
        for (k, v) in &c.other {
            line.push_str(&format!(" {k}={}", self.value_text(v)));
        }
        line.push_str("]\n");
        let conns = self
            .sections
            .iter()
            .filter(|s| s.tag == "connection")
            .count();
        let last_conn = self.sections.iter().rev().find(|s| s.tag == "connection");
        let (at, body) = match last_conn {
            Some(s) => {
                let at = s.content_end(&self.text);
                let lead = if self.text.get(..at).unwrap_or("").ends_with('\n') {
                    ""
                } else {
                    "\n"
                };
                (at, format!("{lead}{line}"))
            }
            None => {
                let last = self
                    .sections
                    .iter()
                    .rev()
                    .find(|s| s.tag == "node")
                    .ok_or_else(|| unsupported("the scene has no nodes".into()))?;
                let at = last.content_end(&self.text);
                // Godot 3.2.3 writes the first connection right after the last node.
                let body = if self.g4() {
                    self.block_at(at, &line)
                } else if self.text.get(..at).unwrap_or("").ends_with('\n') {
                    line
                } else {
                    format!("\n{line}")
                };
                (at, body)
            }
        };
        self.apply_checked(vec![(at..at, body)], |doc| {
            doc.sections
                .iter()
                .filter(|s| s.tag == "connection")
                .count()
                == conns + 1
        })
    }

    /// Adds an `[ext_resource]` of class `class` at `path` after the others, with an id made
    /// as the engine's saver makes one (Godot 4: `"<n>_<5 random characters>"`, `n` the
    /// count of external resources with this one; Godot 3: one more than the largest id),
    /// and keeps `load_steps` right. Returns the id, for
    /// [`ext_ref`](super::ext_ref) values and [`TextResource::add_instance`].
    ///
    /// # Errors
    ///
    /// When the result would not read back.
    pub fn add_ext_resource(
        &mut self,
        class: &str,
        path: &str,
        uid: Option<&str>,
    ) -> Result<String> {
        let exts: Vec<&Section> = self
            .sections
            .iter()
            .filter(|s| s.tag == "ext_resource")
            .collect();
        let ids: Vec<String> = exts.iter().filter_map(|s| s.field_str("id")).collect();
        let (id, id_text) = if self.g4() {
            let hasher = RandomState::new();
            let mut attempt = 0u64;
            let id = loop {
                let id = format!(
                    "{}_{}",
                    exts.len() + 1,
                    scene_unique_id(hasher.hash_one(attempt))
                );
                if !ids.contains(&id) {
                    break id;
                }
                attempt += 1;
            };
            (id.clone(), quoted(&id))
        } else {
            let next = ids
                .iter()
                .filter_map(|i| i.parse::<i64>().ok())
                .max()
                .unwrap_or(0)
                + 1;
            (next.to_string(), next.to_string())
        };
        let line = if self.g4() {
            let uid = uid
                .map(|u| format!(" uid={}", quoted(u)))
                .unwrap_or_default();
            format!(
                "[ext_resource type={}{uid} path={} id={id_text}]\n",
                quoted(class),
                quoted(path)
            )
        } else {
            format!(
                "[ext_resource path={} type={} id={id_text}]\n",
                quoted(path),
                quoted(class)
            )
        };
        let mut edits = Vec::new();
        match exts.last() {
            Some(s) => {
                let at = s.content_end(&self.text);
                let lead = if self.text.get(..at).unwrap_or("").ends_with('\n') {
                    ""
                } else {
                    "\n"
                };
                edits.push((at..at, format!("{lead}{line}")));
            }
            None => {
                let next = self.sections.get(1).map_or(self.text.len(), |s| s.start);
                let body = if next == self.text.len() {
                    self.block_at(next, &line)
                } else {
                    format!("{line}\n")
                };
                edits.push((next..next, body));
            }
        }
        edits.extend(self.load_steps_edit(1));
        let count = exts.len();
        self.apply_checked(edits, |doc| {
            let ids: Vec<String> = doc
                .sections
                .iter()
                .filter(|s| s.tag == "ext_resource")
                .filter_map(|s| s.field_str("id"))
                .collect();
            ids.len() == count + 1 && ids.contains(&id)
        })?;
        Ok(id)
    }

    /// The edit that keeps the header's `load_steps` right after `added` more resources:
    /// external and sub-resources plus the main one, written only above 1, as the saver.
    fn load_steps_edit(&self, added: usize) -> Option<Splice> {
        let header = self.sections.first()?;
        let count = self
            .sections
            .iter()
            .filter(|s| s.tag == "ext_resource" || s.tag == "sub_resource")
            .count()
            + 1
            + added;
        if count <= 1 {
            return None;
        }
        Some(match header.field("load_steps") {
            Some(f) => (f.span.clone(), count.to_string()),
            None => {
                let at = header.field("format").map_or(header.header_end - 1, |f| {
                    // Before ` format=`: back over the name and the space before it.
                    self.text
                        .get(..f.span.start)
                        .and_then(|t| t.rfind("format"))
                        .unwrap_or(f.span.start)
                });
                (at..at, format!("load_steps={count} "))
            }
        })
    }
}
