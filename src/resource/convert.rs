//! Conversion between the text form (`.tres`, `.tscn`) and the binary form (`.res`, `.scn`)
//! of one resource file, as the engine's savers write a resource loaded from the other form.
//!
//! What differs between the forms is listed in the `resource` module's docs, under
//! "Conversion"; it is all handled here.
//!
//! ```
//! use godot_serde::resource::{binary_to_text, text_to_binary, BinaryOptions};
//! use godot_serde::GodotVersion;
//!
//! let tres = "[gd_resource type=\"Resource\" load_steps=2 format=3]\n\n\
//!             [ext_resource type=\"Script\" path=\"res://item.gd\" id=\"1_abcde\"]\n\n\
//!             [resource]\nscript = ExtResource(\"1_abcde\")\nname = \"Sword\"\n";
//! let res = text_to_binary(tres, &BinaryOptions::godot4())?;
//! assert_eq!(&res[..4], b"RSRC");
//! let back = binary_to_text(&res, GodotVersion::V4_5)?;
//! // The external id is the engine's shape, `N_` and five characters from the path.
//! assert!(back.starts_with("[gd_resource type=\"Resource\" load_steps=2 format=3]\n\n\
//!                           [ext_resource type=\"Script\" path=\"res://item.gd\" id=\"1_"));
//! assert!(back.contains("[resource]\nscript = ExtResource(\"1_"));
//! assert!(back.ends_with(")\nname = \"Sword\"\n"));
//! # Ok::<(), godot_serde::Error>(())
//! ```

use std::collections::{HashMap, HashSet};

use super::binary::{BinaryOptions, read_binary, write_binary};
use super::model::{Reference, ResourceFile, ResourceFormat, ext_ref, reference, sub_ref};
use super::text::TextResource;
use super::text_write::write_text;
use crate::error::Result;
use crate::{Dictionary, GodotVersion, ObjectId, Variant};

/// Object's `script` property, Object-typed in every class.
const SCRIPT: &str = "script";

/// The characters of `Resource::generate_scene_unique_id`: `a` to `y`, then `0` to `8`
/// (`'z' - 'a'` letters and `'9' - '0'` digits).
const ID_CHARS: &[u8; 34] = b"abcdefghijklmnopqrstuvwxy012345678";

/// Five characters of [`ID_CHARS`] derived from `seed` (FNV-1a, 64 bits), where the engine
/// draws five at random.
fn id5(seed: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut out = String::with_capacity(5);
    for _ in 0..5 {
        let c = (h % 34) as usize;
        out.push(char::from(ID_CHARS.get(c).copied().unwrap_or(b'a')));
        h /= 34;
    }
    out
}

/// The id a reference carries in `format`: a String in Godot 4, an Int in Godot 3 when the
/// id is a number.
fn id_value(format: ResourceFormat, id: &str) -> Variant {
    match (format, id.parse::<i64>()) {
        (ResourceFormat::Godot3, Ok(n)) => Variant::Int(n),
        _ => Variant::from(id),
    }
}

fn id_key(id: &Variant) -> Option<String> {
    match id {
        Variant::Int(i) => Some(i.to_string()),
        Variant::String(s) => Some(s.to_string()),
        Variant::StringName(s) => Some(s.0.clone()),
        _ => None,
    }
}

/// Old id → new id, for the external and the internal resources.
struct Renames {
    format: ResourceFormat,
    ext: HashMap<String, String>,
    sub: HashMap<String, String>,
}

impl Renames {
    /// `v` with its references renamed. Walks Arrays and Dictionaries (keys too); nesting is
    /// bounded by the reader that made the value (1024 levels) and each level runs on a
    /// stack grown as needed.
    fn value(&self, v: &mut Variant) {
        if let Some(r) = reference(v) {
            let new = match r {
                Reference::Ext(id) => id_key(id)
                    .and_then(|k| self.ext.get(&k))
                    .map(|n| ext_ref(id_value(self.format, n))),
                Reference::Sub(id) => id_key(id)
                    .and_then(|k| self.sub.get(&k))
                    .map(|n| sub_ref(id_value(self.format, n))),
            };
            if let Some(new) = new {
                *v = new;
            }
            return;
        }
        match v {
            Variant::Array(a) => {
                for x in &mut a.items {
                    crate::wire::depth::grow(|| self.value(x));
                }
            }
            Variant::Dictionary(d) => {
                if d.keys().any(has_reference) {
                    let mut out = Dictionary::new();
                    out.set_key_type(d.key_type().clone());
                    out.set_value_type(d.value_type().clone());
                    for (k, x) in d.iter() {
                        let (mut k, mut x) = (k.clone(), x.clone());
                        crate::wire::depth::grow(|| self.value(&mut k));
                        crate::wire::depth::grow(|| self.value(&mut x));
                        out.insert(k, x);
                    }
                    *d = out;
                } else {
                    for x in d.values_mut() {
                        crate::wire::depth::grow(|| self.value(x));
                    }
                }
            }
            _ => {}
        }
    }

    fn properties(&self, props: &mut [(String, Variant)]) {
        for (_, v) in props {
            self.value(v);
        }
    }

    fn file(&self, file: &mut ResourceFile) {
        for e in &mut file.ext_resources {
            if let Some(n) = self.ext.get(&e.id) {
                e.id.clone_from(n);
            }
        }
        for s in &mut file.sub_resources {
            if let Some(n) = self.sub.get(&s.id) {
                s.id.clone_from(n);
            }
            self.properties(&mut s.properties);
        }
        self.properties(&mut file.properties);
        if let Some(scene) = &mut file.scene {
            for n in &mut scene.nodes {
                self.properties(&mut n.properties);
                self.properties(&mut n.other);
                if let Some(i) = &mut n.instance {
                    self.value(i);
                }
            }
            for c in &mut scene.connections {
                for b in &mut c.binds {
                    self.value(b);
                }
                self.properties(&mut c.other);
            }
        }
    }
}

fn has_reference(v: &Variant) -> bool {
    if reference(v).is_some() {
        return true;
    }
    match v {
        Variant::Array(a) => a
            .items
            .iter()
            .any(|x| crate::wire::depth::grow(|| has_reference(x))),
        Variant::Dictionary(d) => d
            .iter()
            .any(|(k, x)| crate::wire::depth::grow(|| has_reference(k) || has_reference(x))),
        _ => false,
    }
}

impl ResourceFile {
    /// The file with the ids the engine's text saver gives a resource it loaded from a binary
    /// file, every reference renamed to match (see [Conversion](crate::resource#conversion)):
    ///
    /// - Godot 4: external resource `N` (1 first, in file order) becomes `N_xxxxx`, the five
    ///   characters derived from its path; a sub-resource keeps its id unless it is empty or
    ///   repeats an earlier one, which becomes `Class_xxxxx`.
    /// - Godot 3: external resources are numbered `1`, `2`, … in file order; sub-resources
    ///   keep their integer ids, an empty, non-integer or repeated one getting the next
    ///   integer after the largest, as the Godot 3 saver numbers a new one.
    #[must_use]
    pub fn with_text_ids(&self) -> ResourceFile {
        let mut renames = Renames {
            format: self.format,
            ext: HashMap::new(),
            sub: HashMap::new(),
        };
        let g4 = self.format == ResourceFormat::Godot4;
        for (i, e) in self.ext_resources.iter().enumerate() {
            let n = i + 1;
            let new = if g4 {
                format!("{n}_{}", id5(&e.path))
            } else {
                n.to_string()
            };
            renames.ext.insert(e.id.clone(), new);
        }
        let mut used: HashSet<String> = HashSet::new();
        let mut next = 1 + self
            .sub_resources
            .iter()
            .filter_map(|s| s.id.parse::<i64>().ok())
            .filter(|&n| n > 0)
            .max()
            .unwrap_or(0);
        let mut ids = Vec::with_capacity(self.sub_resources.len());
        for (i, s) in self.sub_resources.iter().enumerate() {
            let keep = !s.id.is_empty()
                && !used.contains(&s.id)
                && (g4 || s.id.parse::<i64>().is_ok_and(|n| n > 0));
            let id = if keep {
                s.id.clone()
            } else if g4 {
                let mut salt = i;
                loop {
                    let id = format!("{}_{}", s.class, id5(&format!("{}#{salt}", s.class)));
                    if !used.contains(&id) && !self.sub_resources.iter().any(|o| o.id == id) {
                        break id;
                    }
                    salt += self.sub_resources.len() + 1;
                }
            } else {
                let id = next.to_string();
                next += 1;
                id
            };
            used.insert(id.clone());
            ids.push(id);
        }
        // A reference names the first sub-resource of its id, as the loaders resolve it.
        for (s, id) in self.sub_resources.iter().zip(&ids).rev() {
            renames.sub.insert(s.id.clone(), id.clone());
        }
        let mut out = self.clone();
        renames.file(&mut out);
        for (s, id) in out.sub_resources.iter_mut().zip(ids) {
            s.id = id;
        }
        out
    }

    /// The file as the engine's text saver writes it after loading it from a binary file:
    /// [`with_text_ids`](Self::with_text_ids), a resource's null `script` left out (see
    /// [Conversion](crate::resource#conversion)), then [`write_text`] for `version`.
    #[must_use]
    pub fn to_text(&self, version: GodotVersion) -> String {
        let mut file = self.with_text_ids();
        let null_script = |(k, v): &(String, Variant)| {
            k == SCRIPT && matches!(v, Variant::Nil | Variant::ObjectId(ObjectId(0)))
        };
        for s in &mut file.sub_resources {
            s.properties.retain(|p| !null_script(p));
        }
        file.properties.retain(|p| !null_script(p));
        write_text(&file, version)
    }

    /// The file in the binary form, laid out by `options` ([`write_binary`]): the text ids
    /// of external resources become table indexes, those of sub-resources their
    /// `local://` paths, a scene's nodes its `_bundled` state; element types are dropped; in
    /// Godot 4, a resource without `script` gets `script = null` before its metadata, as the
    /// engine's binary saver stores it.
    ///
    /// # Errors
    ///
    /// As [`write_binary`]: among others a Godot 3 sub-resource id that is not an integer,
    /// a reference to an id the file does not list, a layout of the other engine.
    pub fn to_binary(&self, options: &BinaryOptions) -> Result<Vec<u8>> {
        if self.format == ResourceFormat::Godot3 {
            return write_binary(self, options);
        }
        // Godot 4's binary saver stores a resource's `script` even when it is null, before
        // the metadata; its text saver leaves it out.
        let mut file = self.clone();
        let add = |props: &mut Vec<(String, Variant)>| {
            if props.iter().any(|(k, _)| k == SCRIPT) {
                return;
            }
            let at = props
                .iter()
                .position(|(k, _)| k.starts_with("metadata/"))
                .unwrap_or(props.len());
            props.insert(at, (SCRIPT.to_owned(), Variant::Nil));
        };
        for s in &mut file.sub_resources {
            add(&mut s.properties);
        }
        add(&mut file.properties);
        write_binary(&file, options)
    }
}

/// A binary resource or scene (`.res`, `.scn`; `RSRC`, or `RSCC` with the `compression`
/// feature) as the engine's text saver writes it (`.tres`, `.tscn`): [`read_binary`], then
/// [`ResourceFile::to_text`] for `version` (a Godot 3 file is written as Godot 3's saver
/// does whatever `version` says, a Godot 4 one as `version`'s, 4.5+ for `V3`).
///
/// # Errors
///
/// As [`read_binary`]: the reader's error with its byte offset.
pub fn binary_to_text(binary: &[u8], version: GodotVersion) -> Result<String> {
    Ok(read_binary(binary)?.to_text(version))
}

/// A text resource or scene as the engine's binary saver writes it: [`TextResource::parse`],
/// [`TextResource::to_model`], then [`write_binary`] with `options` (whose layout must be the
/// text's engine: `format=2` is Godot 3, `format=3` and `4` Godot 4).
///
/// # Errors
///
/// The parser's error with its byte offset, or [`write_binary`]'s.
pub fn text_to_binary(text: &str, options: &BinaryOptions) -> Result<Vec<u8>> {
    TextResource::parse(text)?.to_model()?.to_binary(options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::{ExtResource, Scene, SceneNode, SubResource};

    #[test]
    fn id5_uses_the_engines_characters() {
        let id = id5("res://a.gd");
        assert_eq!(id.len(), 5);
        assert!(
            id.bytes()
                .all(|c| c.is_ascii_lowercase() && c != b'z' || (b'0'..=b'8').contains(&c)),
            "{id}"
        );
        assert_eq!(id, id5("res://a.gd"));
        assert_ne!(id, id5("res://b.gd"));
    }

    fn ext(id: &str, path: &str) -> ExtResource {
        ExtResource {
            id: id.to_owned(),
            class: "Script".to_owned(),
            path: path.to_owned(),
            uid: None,
        }
    }

    #[test]
    fn godot4_external_ids_are_renamed_everywhere() {
        let mut inner = Dictionary::new();
        inner.insert(ext_ref("2"), Variant::Int(1));
        let file = ResourceFile {
            format: ResourceFormat::Godot4,
            class: "PackedScene".to_owned(),
            script_class: None,
            uid: None,
            ext_resources: vec![ext("1", "res://a.gd"), ext("2", "res://b.tscn")],
            sub_resources: vec![
                SubResource {
                    id: "Gradient_abcde".to_owned(),
                    class: "Gradient".to_owned(),
                    properties: vec![("k".to_owned(), Variant::Dictionary(inner))],
                },
                SubResource {
                    id: "Gradient_abcde".to_owned(),
                    class: "Gradient".to_owned(),
                    properties: Vec::new(),
                },
            ],
            properties: Vec::new(),
            scene: Some(Scene {
                nodes: vec![SceneNode {
                    name: "Root".to_owned(),
                    class: Some("Node".to_owned()),
                    instance: Some(ext_ref("2")),
                    properties: vec![
                        ("script".to_owned(), ext_ref("1")),
                        ("g".to_owned(), sub_ref("Gradient_abcde")),
                    ],
                    ..SceneNode::default()
                }],
                ..Scene::default()
            }),
        };
        let t = file.with_text_ids();
        let a = format!("1_{}", id5("res://a.gd"));
        let b = format!("2_{}", id5("res://b.tscn"));
        assert_eq!(t.ext_resources[0].id, a);
        assert_eq!(t.ext_resources[1].id, b);
        let node = &t.scene.as_ref().unwrap().nodes[0];
        assert_eq!(node.instance, Some(ext_ref(b.as_str())));
        assert_eq!(node.properties[0].1, ext_ref(a.as_str()));
        // The first of two equal ids is kept and referred to; the second gets a new one.
        assert_eq!(t.sub_resources[0].id, "Gradient_abcde");
        assert_ne!(t.sub_resources[1].id, "Gradient_abcde");
        assert!(t.sub_resources[1].id.starts_with("Gradient_"));
        assert_eq!(node.properties[1].1, sub_ref("Gradient_abcde"));
        let Variant::Dictionary(d) = &t.sub_resources[0].properties[0].1 else {
            panic!()
        };
        assert_eq!(d.keys().next(), Some(&ext_ref(b.as_str())));
    }

    #[test]
    fn godot3_ids_stay_integers() {
        let file = ResourceFile {
            format: ResourceFormat::Godot3,
            class: "Resource".to_owned(),
            script_class: None,
            uid: None,
            ext_resources: vec![ext("7", "res://a.gd")],
            sub_resources: vec![
                SubResource {
                    id: "3".to_owned(),
                    class: "Gradient".to_owned(),
                    properties: Vec::new(),
                },
                SubResource {
                    id: "x".to_owned(),
                    class: "Gradient".to_owned(),
                    properties: Vec::new(),
                },
            ],
            properties: vec![
                ("script".to_owned(), ext_ref(7i64)),
                ("a".to_owned(), sub_ref(3i64)),
                ("b".to_owned(), sub_ref("x")),
            ],
            scene: None,
        };
        let t = file.with_text_ids();
        assert_eq!(t.ext_resources[0].id, "1");
        assert_eq!(t.sub_resources[0].id, "3");
        assert_eq!(t.sub_resources[1].id, "4");
        assert_eq!(t.properties[0].1, ext_ref(1i64));
        assert_eq!(t.properties[1].1, sub_ref(3i64));
        assert_eq!(t.properties[2].1, sub_ref(4i64));
    }

    #[test]
    fn a_null_script_is_binary_only_in_godot4() {
        // Godot 4.6 saves a Gradient with metadata as binary with `script` null between the
        // class's properties and the metadata, and as text without it
        // (tests/suite/resource_convert_live.rs).
        let text = "[gd_resource type=\"Gradient\" format=3]\n\n[resource]\n\
                    offsets = PackedFloat32Array(0, 1)\nmetadata/tag = 1\n";
        let bin = text_to_binary(text, &BinaryOptions::godot4()).unwrap();
        let names: Vec<(String, Variant)> = read_binary(&bin).unwrap().properties;
        assert_eq!(
            names.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
            ["offsets", "script", "metadata/tag"]
        );
        assert_eq!(names[1].1, Variant::Nil);
        assert_eq!(binary_to_text(&bin, GodotVersion::V4_5).unwrap(), text);
        // Godot 3's binary saver stores none.
        let text3 = "[gd_resource type=\"Gradient\" format=2]\n\n[resource]\noffsets = PoolRealArray( 0, 1 )\n";
        let bin3 = text_to_binary(text3, &BinaryOptions::godot3()).unwrap();
        assert_eq!(read_binary(&bin3).unwrap().properties.len(), 1);
        assert_eq!(binary_to_text(&bin3, GodotVersion::V3).unwrap(), text3);
    }
}
