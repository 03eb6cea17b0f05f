//! [`TextResource`]: a `.tscn` / `.tres` file kept as its text, read into the shared model
//! ([`ResourceFile`]) and edited in place, every other byte kept.

use core::fmt;

use serde::{Serialize, de::DeserializeOwned};

use super::model::{
    Connection, ExtResource, ResourceFile, ResourceFormat, Scene, SceneNode, SubResource,
};
use super::text_scan::{Section, as_text, line_end, scan, value_at};
use crate::config_file::{Limits, encode_key};
use crate::error::{Error, ErrorKind, Result};
use crate::text::parser::syntax_error;
use crate::text::variant_to_string_with;
use crate::value::{Array, Dictionary};
use crate::{Config, GodotVersion, Variant};

/// The default limits of [`TextResource::parse`]: 64 MiB of text (a large imported mesh
/// saved as `.tres` can hold tens of MiB), 65 536 sections and 1 048 576 fields and
/// properties in all.
#[must_use]
pub fn default_limits() -> Limits {
    Limits::new().with_max_text_size(64 << 20)
}

/// What a property edit applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target<'a> {
    /// The main resource of a `.tres` (its `[resource]` section).
    Resource,
    /// The `[sub_resource]` with this id.
    SubResource(&'a str),
    /// The scene's node at this path relative to the root (`"."` is the root, `"Player"`
    /// a child of it, `"Player/Arm"` a grandchild), as `parent=` paths are written.
    Node(&'a str),
}

/// A `.tscn` / `.tres` file (Godot 3's `format=2`, Godot 4's `format=3` and `4`) kept as its
/// text: [`to_string`](ToString::to_string) of an unedited one gives the input byte for byte
/// (comments, blank lines, spacing and number spellings too), and each edit changes only the
/// bytes it must.
///
/// Reading is linear in the text, within [`Limits`] ([`default_limits`]: 64 MiB of text,
/// 65 536 sections, 1 048 576 fields and properties); every value is read once, so a syntax
/// error is found when the text is parsed, with its line and column. The document holds the
/// text, each section's place and header fields; property values are read again from their
/// text when asked for. Each edit rewrites the text and reads it back whole (linear in its
/// size): an edit whose result would not read back is refused, the document left as it was.
///
/// ```
/// use godot_serde::resource::{Target, TextResource};
/// use godot_serde::{Variant, Vector2};
///
/// let tscn = "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node2D\"]\n\n\
///             [node name=\"Player\" type=\"Sprite2D\" parent=\".\"]\nposition = Vector2(3, 4.5)\n";
/// let mut doc = TextResource::parse(tscn)?;
/// assert_eq!(doc.to_string(), tscn);
/// doc.set_property(Target::Node("Player"), "visible", &Variant::Bool(false))?;
/// doc.rename_node("Player", "Hero")?;
/// let model = doc.to_model()?;
/// let hero = &model.scene.as_ref().unwrap().nodes[1];
/// assert_eq!(hero.name, "Hero");
/// assert_eq!(hero.properties[1], ("visible".to_owned(), Variant::Bool(false)));
/// # Ok::<(), godot_serde::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct TextResource {
    pub(super) text: String,
    pub(super) config: Config,
    pub(super) format: ResourceFormat,
    pub(super) sections: Vec<Section>,
}

impl fmt::Display for TextResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn corrupt(text: &str, at: usize, message: impl Into<String>) -> Error {
    syntax_error(text, at, message.into())
}

pub(super) fn unsupported(message: String) -> Error {
    Error::new(ErrorKind::Unsupported(message.into_boxed_str()))
}

/// A String value as the engine's saver writes a name or path in a tag (`c_escape`).
pub(super) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\'' => out.push_str("\\'"),
            '?' => out.push_str("\\?"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A node path as the engine's loader takes it: relative to the root, `./` in front
/// dropped (`NodePath::prepend_period` and `simplified`), `.` the root.
pub(super) fn simplified(path: &str) -> &str {
    let mut p = path;
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    if p.is_empty() { "." } else { p }
}

/// The path of a node whose `parent=` is `parent` (relative to the root, `./` in front taken
/// as the engine takes it).
pub(super) fn child_path(parent: Option<&str>, name: &str) -> String {
    match parent.map(simplified) {
        None => ".".to_owned(),
        Some(".") => name.to_owned(),
        Some(p) => format!("{p}/{name}"),
    }
}

/// `path` with its prefix `from` (a node's path, or one of its descendants') replaced by `to`.
pub(super) fn moved(path: &str, from: &str, to: &str) -> Option<String> {
    if path == from {
        return Some(to.to_owned());
    }
    let rest = path.strip_prefix(from)?.strip_prefix('/')?;
    Some(if to == "." {
        rest.to_owned()
    } else {
        format!("{to}/{rest}")
    })
}

/// Whether `path` is `node` or lies under it (`"."`: everything).
pub(super) fn within(path: &str, node: &str) -> bool {
    node == "." || path == node || path.strip_prefix(node).is_some_and(|r| r.starts_with('/'))
}

/// Characters a node name cannot hold (`Node::set_name` replaces them).
const BAD_NAME_CHARS: &[char] = &['.', ':', '@', '/', '"', '%'];

pub(super) fn check_name(name: &str) -> Result<()> {
    if name.is_empty() || name.contains(BAD_NAME_CHARS) {
        return Err(unsupported(format!(
            "{name:?} is not a node name: it must be non-empty and hold none of . : @ / \" %"
        )));
    }
    Ok(())
}

/// One change of the text: replace `range` by `with`.
pub(super) type Splice = (core::ops::Range<usize>, String);

impl TextResource {
    /// Parses a `.tscn` / `.tres` text within [`default_limits`]; Godot 4 values are written
    /// by later edits as 4.5+ writes them.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TextSyntax`] (line and column) where the engine's loader fails;
    /// [`ErrorKind::Unsupported`] for a format other than 2, 3 or 4;
    /// [`ErrorKind::LimitExceeded`] beyond the limits.
    pub fn parse(text: &str) -> Result<Self> {
        Self::parse_with(text, Config::godot4(), &default_limits())
    }

    /// Parses as [`TextResource::parse`] with `config` (for a Godot 4 file, the engine version
    /// whose float spelling edits use, e.g. `GodotVersion::V4_4`; the depth limit for both)
    /// within `limits`. The engine is the file's (`format=2`: Godot 3, `3` or `4`: Godot 4).
    ///
    /// # Errors
    ///
    /// As [`TextResource::parse`].
    pub fn parse_with(text: &str, config: Config, limits: &Limits) -> Result<Self> {
        let format = Self::format_of(text, config)?;
        let config = match format {
            ResourceFormat::Godot3 => config.with_version(GodotVersion::V3),
            ResourceFormat::Godot4 if !config.version.is_godot4() => {
                config.with_version(GodotVersion::V4_5)
            }
            ResourceFormat::Godot4 => config,
        }
        .with_allow_objects(true);
        let sections = scan(text, config, limits)?;
        let doc = Self {
            text: text.to_owned(),
            config,
            format,
            sections,
        };
        doc.check()?;
        Ok(doc)
    }

    /// The engine of the file, from its header's `format`.
    fn format_of(text: &str, config: Config) -> Result<ResourceFormat> {
        // The header holds names and numbers only, which both engines read alike; read
        // just it (a one-section limit stops the scan at the second tag).
        let first = text.find('[').unwrap_or(text.len());
        let end = text
            .get(first + 1..)
            .and_then(|r| r.find('['))
            .map_or(text.len(), |n| first + 1 + n);
        let head = text.get(..end).unwrap_or(text);
        let sections = scan(
            head,
            config.with_version(GodotVersion::V4_5),
            &Limits::new(),
        )?;
        let header = sections
            .first()
            .ok_or_else(|| corrupt(text, 0, "Expected '['"))?;
        if header.tag != "gd_scene" && header.tag != "gd_resource" {
            return Err(corrupt(
                text,
                header.start,
                format!("Unrecognized file type: {}", header.tag),
            ));
        }
        match header.field("format").map(|f| &f.value) {
            Some(Variant::Int(2)) => Ok(ResourceFormat::Godot3),
            Some(Variant::Int(3 | 4)) => Ok(ResourceFormat::Godot4),
            Some(Variant::Int(n)) => Err(unsupported(format!(
                "format={n}: only Godot 3's format=2 and Godot 4's format=3 and 4 are read"
            ))),
            _ => Err(corrupt(text, header.start, "the header has no format=N")),
        }
    }

    /// The checks of the engine's loader that the index alone can make: required fields,
    /// known tags, sections in the order the loader takes them.
    fn check(&self) -> Result<()> {
        let t = &self.text;
        let scene = self.is_scene();
        let mut stage = 0; // 0 ext, 1 sub, 2 main / nodes
        for s in self.sections.iter().skip(1) {
            let need = |names: &[&str]| -> Result<()> {
                for n in names {
                    if s.field(n).is_none() {
                        return Err(corrupt(
                            t,
                            s.start,
                            format!("missing '{n}' field from {} tag", s.tag),
                        ));
                    }
                }
                Ok(())
            };
            let order = match s.tag.as_str() {
                "ext_resource" => {
                    need(&["path", "type", "id"])?;
                    0
                }
                "sub_resource" => {
                    need(&["type", "id"])?;
                    1
                }
                "resource" if !scene => 2,
                "node" if scene => 2,
                "connection" if scene => {
                    need(&["from", "to", "signal", "method"])?;
                    2
                }
                "editable" if scene => {
                    need(&["path"])?;
                    2
                }
                other => {
                    return Err(corrupt(
                        t,
                        s.start,
                        format!("unexpected [{other}] tag here"),
                    ));
                }
            };
            if order < stage {
                return Err(corrupt(
                    t,
                    s.start,
                    format!("[{}] after the sections that come after it", s.tag),
                ));
            }
            stage = order;
        }
        Ok(())
    }

    /// The file's engine.
    #[must_use]
    pub fn format(&self) -> ResourceFormat {
        self.format
    }

    /// The config values are read and written with.
    #[must_use]
    pub fn config(&self) -> Config {
        self.config
    }

    /// Whether the file is a scene (`[gd_scene]`).
    #[must_use]
    pub fn is_scene(&self) -> bool {
        self.sections.first().is_some_and(|s| s.tag == "gd_scene")
    }

    fn value(&self, pos: usize) -> Result<Variant> {
        value_at(&self.text, self.config, pos).map(|(v, _)| v)
    }

    fn props(&self, s: &Section) -> Result<Vec<(String, Variant)>> {
        s.props
            .iter()
            .map(|p| Ok((p.name.clone(), self.value(p.value.start)?)))
            .collect()
    }

    pub(super) fn sections_tagged<'a>(
        &'a self,
        tag: &'a str,
    ) -> impl Iterator<Item = (usize, &'a Section)> + 'a {
        self.sections
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.tag == tag)
    }

    /// The path of each `[node]`, with its section's index, in file order.
    pub(super) fn node_paths(&self) -> Vec<(usize, String)> {
        self.sections_tagged("node")
            .map(|(i, s)| {
                let name = s.field_str("name").unwrap_or_default();
                (i, child_path(s.field_str("parent").as_deref(), &name))
            })
            .collect()
    }

    /// The section index of the node at `path`.
    pub(super) fn node_index(&self, path: &str) -> Result<usize> {
        self.node_paths()
            .into_iter()
            .find(|(_, p)| p == path)
            .map(|(i, _)| i)
            .ok_or_else(|| unsupported(format!("the scene has no node at {path:?}")))
    }

    pub(super) fn section_index(&self, target: Target<'_>) -> Result<usize> {
        match target {
            Target::Node(path) => self.node_index(path),
            Target::Resource => self
                .sections_tagged("resource")
                .next()
                .map(|(i, _)| i)
                .ok_or_else(|| unsupported("the file has no [resource] section".into())),
            Target::SubResource(id) => self
                .sections_tagged("sub_resource")
                .find(|(_, s)| s.field_str("id").as_deref() == Some(id))
                .map(|(i, _)| i)
                .ok_or_else(|| unsupported(format!("the file has no sub-resource {id:?}"))),
        }
    }

    pub(super) fn section(&self, target: Target<'_>) -> Result<&Section> {
        let i = self.section_index(target)?;
        self.sections
            .get(i)
            .ok_or_else(|| unsupported("no such section".into()))
    }

    /// The properties of `target` in file order (a key written twice: each line).
    ///
    /// # Errors
    ///
    /// When there is no such node or resource.
    pub fn properties(&self, target: Target<'_>) -> Result<Vec<(String, Variant)>> {
        self.props(self.section(target)?)
    }

    /// The value of property `name` of `target` (its last line), if set.
    ///
    /// # Errors
    ///
    /// When there is no such node or resource.
    pub fn get(&self, target: Target<'_>, name: &str) -> Result<Option<Variant>> {
        let s = self.section(target)?;
        s.prop(name).map(|p| self.value(p.value.start)).transpose()
    }

    /// The properties of `target` as a `T` (a struct's fields are property names; a property
    /// the struct does not name is ignored unless it denies unknown fields).
    ///
    /// # Errors
    ///
    /// When there is no such node or resource, or the properties do not fit `T`.
    pub fn get_as<T: DeserializeOwned>(&self, target: Target<'_>) -> Result<T> {
        let mut d = Dictionary::new();
        for (k, v) in self.properties(target)? {
            d.insert(Variant::from(k.as_str()), v);
        }
        self.config.from_variant(&Variant::Dictionary(d))
    }

    /// The properties of the node at `path` as a `T` ([`TextResource::get_as`]).
    ///
    /// # Errors
    ///
    /// As [`TextResource::get_as`].
    pub fn node_as<T: DeserializeOwned>(&self, path: &str) -> Result<T> {
        self.get_as(Target::Node(path))
    }

    /// Sets the properties of `target` from `value`'s fields (a struct or map; each field a
    /// property, set as [`TextResource::set_property`] does; a `None` field removes it).
    ///
    /// # Errors
    ///
    /// When `value` is not a struct or map, or as [`TextResource::set_property`].
    pub fn set_from<T: ?Sized + Serialize>(&mut self, target: Target<'_>, value: &T) -> Result<()> {
        let Variant::Dictionary(d) = self.config.to_variant(value)? else {
            return Err(unsupported("set_from takes a struct or a map".into()));
        };
        let mut pairs = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let Some(name) = as_text(k) else {
                return Err(unsupported(format!("property name {k} is not text")));
            };
            pairs.push((name, v.clone()));
        }
        self.set_properties(target, &pairs)
    }

    /// Sets the properties of the node at `path` from `value` ([`TextResource::set_from`]).
    ///
    /// # Errors
    ///
    /// As [`TextResource::set_from`].
    pub fn set_node_from<T: ?Sized + Serialize>(&mut self, path: &str, value: &T) -> Result<()> {
        self.set_from(Target::Node(path), value)
    }

    /// Sets property `name` of `target` to `value`: an existing property gets the new value
    /// text in place (its last line, the one that counts); a new one goes on a line after the
    /// section's last property, `name = value` as the engine's saver writes it. `Nil`
    /// removes the property ([`TextResource::remove_property`]).
    ///
    /// # Errors
    ///
    /// When there is no such node or resource, or the result would not read back.
    pub fn set_property(&mut self, target: Target<'_>, name: &str, value: &Variant) -> Result<()> {
        self.set_properties(target, &[(name.to_owned(), value.clone())])
    }

    fn set_properties(&mut self, target: Target<'_>, pairs: &[(String, Variant)]) -> Result<()> {
        let s = self.section(target)?;
        let mut edits: Vec<Splice> = Vec::new();
        let mut new_lines = String::new();
        // What each key must read back as: its value's text, or nothing.
        let mut expect: Vec<(&str, Option<String>)> = Vec::new();
        for (name, value) in pairs {
            if *value == Variant::Nil {
                edits.extend(self.prop_removals(s, name));
                expect.push((name, None));
                continue;
            }
            let text = variant_to_string_with(value, self.config);
            expect.push((name, Some(text.clone())));
            match s.prop(name) {
                Some(p) => edits.push((p.value.clone(), text)),
                None => {
                    new_lines.push_str(&encode_key(name, self.config));
                    new_lines.push_str(" = ");
                    new_lines.push_str(&text);
                    new_lines.push('\n');
                }
            }
        }
        if !new_lines.is_empty() {
            let at = s.content_end(&self.text);
            if !self.text.get(..at).unwrap_or("").ends_with('\n') {
                new_lines.insert(0, '\n');
            }
            edits.push((at..at, new_lines));
        }
        self.apply_checked(edits, |doc| {
            let Ok(s) = doc.section(target) else {
                return false;
            };
            expect.iter().all(|(name, text)| {
                let got = s.prop(name).and_then(|p| doc.text.get(p.value.clone()));
                got == text.as_deref()
            })
        })
    }

    fn prop_removals(&self, s: &Section, name: &str) -> Vec<Splice> {
        s.props
            .iter()
            .filter(|p| p.name == name)
            .map(|p| {
                (
                    p.key_start..line_end(&self.text, p.value.end),
                    String::new(),
                )
            })
            .collect()
    }

    /// Removes every line of property `name` of `target`; nothing when it is not set.
    ///
    /// # Errors
    ///
    /// When there is no such node or resource.
    pub fn remove_property(&mut self, target: Target<'_>, name: &str) -> Result<()> {
        let s = self.section(target)?;
        let edits = self.prop_removals(s, name);
        self.apply(edits)
    }

    /// [`TextResource::apply`], then `verify` on the result: when it fails, the document is
    /// left as it was and the edit refused.
    pub(super) fn apply_checked(
        &mut self,
        edits: Vec<Splice>,
        verify: impl FnOnce(&Self) -> bool,
    ) -> Result<()> {
        let doc = self.applied(edits)?;
        if verify(&doc) {
            *self = doc;
            return Ok(());
        }
        Err(unsupported(
            "the edit would not read back as written (the text around it is read as part of \
             a key or tag, as the engine reads it); the document is unchanged"
                .into(),
        ))
    }

    /// Applies `edits` (ranges of the current text, none overlapping) and reads the result
    /// back; on error the document is unchanged.
    pub(super) fn apply(&mut self, edits: Vec<Splice>) -> Result<()> {
        if !edits.is_empty() {
            *self = self.applied(edits)?;
        }
        Ok(())
    }

    /// The document `edits` make of this one, read back (not held to the limits the text
    /// was first read with: the caller chose to edit it).
    fn applied(&self, mut edits: Vec<Splice>) -> Result<Self> {
        // In one pass from the start (one copy of the text, whatever the number of edits);
        // at one place, an insertion before a removal, so it lands where the removed text was.
        edits.sort_by_key(|e| (e.0.start, !e.0.is_empty()));
        let added: usize = edits.iter().map(|e| e.1.len()).sum();
        let mut text = String::with_capacity(self.text.len() + added);
        let mut cursor = 0;
        for (range, with) in edits {
            let (Some(kept), true) = (
                self.text.get(cursor..range.start),
                self.text.is_char_boundary(range.end) && range.end <= self.text.len(),
            ) else {
                return Err(unsupported(
                    "an edit fell outside the text or over another".into(),
                ));
            };
            text.push_str(kept);
            text.push_str(&with);
            cursor = range.end;
        }
        text.push_str(self.text.get(cursor..).unwrap_or(""));
        let sections = scan(&text, self.config, &Limits::NONE)?;
        let doc = Self {
            text,
            config: self.config,
            format: self.format,
            sections,
        };
        doc.check()?;
        Ok(doc)
    }
}

// Reading into the model.
impl TextResource {
    /// The file as the shared model: header, external and sub-resources, the main resource's
    /// properties or the scene's nodes, connections and editable paths.
    ///
    /// # Errors
    ///
    /// When a field has the wrong type (a node's `name` not text, `groups` not an Array).
    pub fn to_model(&self) -> Result<ResourceFile> {
        let t = &self.text;
        let header = self
            .sections
            .first()
            .ok_or_else(|| corrupt(t, 0, "Expected '['"))?;
        let scene = self.is_scene();
        let mut out = ResourceFile {
            format: self.format,
            class: if scene {
                "PackedScene".to_owned()
            } else {
                header
                    .field_str("type")
                    .unwrap_or_else(|| "Resource".to_owned())
            },
            script_class: header.field_str("script_class"),
            uid: header.field_str("uid"),
            ext_resources: Vec::new(),
            sub_resources: Vec::new(),
            properties: Vec::new(),
            scene: scene.then(Scene::default),
        };
        let text_field = |s: &Section, name: &str| -> Result<String> {
            s.field_str(name)
                .ok_or_else(|| corrupt(t, s.start, format!("'{name}' of [{}] is not text", s.tag)))
        };
        for s in self.sections.iter().skip(1) {
            match s.tag.as_str() {
                "ext_resource" => out.ext_resources.push(ExtResource {
                    id: text_field(s, "id")?,
                    class: text_field(s, "type")?,
                    path: text_field(s, "path")?,
                    uid: s.field_str("uid"),
                }),
                "sub_resource" => out.sub_resources.push(SubResource {
                    id: text_field(s, "id")?,
                    class: text_field(s, "type")?,
                    properties: self.props(s)?,
                }),
                "resource" => out.properties = self.props(s)?,
                "node" => {
                    let node = self.node_model(s)?;
                    if let Some(sc) = out.scene.as_mut() {
                        sc.nodes.push(node);
                    }
                }
                "connection" => {
                    let int = |name: &str| match s.field(name).map(|f| &f.value) {
                        Some(Variant::Int(i)) => Ok(Some(*i)),
                        None => Ok(None),
                        Some(_) => Err(corrupt(t, s.start, format!("'{name}' is not an int"))),
                    };
                    let binds = match s.field("binds").map(|f| &f.value) {
                        Some(Variant::Array(a)) => a.iter().cloned().collect(),
                        None => Vec::new(),
                        Some(_) => return Err(corrupt(t, s.start, "'binds' is not an Array")),
                    };
                    let c = Connection {
                        signal: text_field(s, "signal")?,
                        from: text_field(s, "from")?,
                        to: text_field(s, "to")?,
                        method: text_field(s, "method")?,
                        flags: int("flags")?,
                        binds,
                        unbinds: int("unbinds")?,
                        other: s
                            .fields
                            .iter()
                            .filter(|f| !CONNECTION_FIELDS.contains(&f.name.as_str()))
                            .map(|f| (f.name.clone(), f.value.clone()))
                            .collect(),
                    };
                    if let Some(sc) = out.scene.as_mut() {
                        sc.connections.push(c);
                    }
                }
                "editable" => {
                    let p = text_field(s, "path")?;
                    if let Some(sc) = out.scene.as_mut() {
                        sc.editable.push(p);
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }

    fn node_model(&self, s: &Section) -> Result<SceneNode> {
        let t = &self.text;
        let mut node = SceneNode {
            properties: self.props(s)?,
            ..SceneNode::default()
        };
        for f in &s.fields {
            let text = || {
                as_text(&f.value)
                    .ok_or_else(|| corrupt(t, f.span.start, format!("'{}' is not text", f.name)))
            };
            let int = || match &f.value {
                Variant::Int(i) => Ok(*i),
                v => as_text(v)
                    .and_then(|s| s.trim().parse().ok())
                    .ok_or_else(|| {
                        corrupt(t, f.span.start, format!("'{}' is not a number", f.name))
                    }),
            };
            match f.name.as_str() {
                "name" => node.name = text()?,
                "type" => node.class = Some(text()?),
                "parent" => node.parent = Some(text()?),
                "owner" => node.owner = Some(text()?),
                "instance" => node.instance = Some(f.value.clone()),
                "instance_placeholder" => node.instance_placeholder = Some(text()?),
                "index" => node.index = Some(int()?),
                "unique_id" => node.unique_id = Some(int()?),
                "groups" => {
                    let Variant::Array(a) = &f.value else {
                        return Err(corrupt(t, f.span.start, "'groups' is not an Array"));
                    };
                    node.groups = a
                        .iter()
                        .map(|g| {
                            as_text(g)
                                .ok_or_else(|| corrupt(t, f.span.start, "a group is not text"))
                        })
                        .collect::<Result<_>>()?;
                }
                _ => node.other.push((f.name.clone(), f.value.clone())),
            }
        }
        Ok(node)
    }
}

/// The attributes of a `[connection]` that [`Connection`] has fields of.
const CONNECTION_FIELDS: [&str; 7] = [
    "signal", "from", "to", "method", "flags", "binds", "unbinds",
];

/// An Array value of `items`.
pub(super) fn array_of(items: Vec<Variant>) -> Variant {
    Variant::Array(Box::new(Array::from(items)))
}
