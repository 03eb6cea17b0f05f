//! Binary resources against the live engines (`tests/godot{3,4}/rsrc_save.gd`):
//!
//! - the engine saves resources with `ResourceSaver.save` (a script resource with nested
//!   sub-resources and typed containers, Gradient, Curve, StyleBoxFlat, Animation, one holding
//!   every Variant type as metadata, a scene with groups, persisted connections with binds and
//!   an instanced sub-scene), plain and with `FLAG_COMPRESS`, and writes what
//!   `ResourceLoader.load` reads back from each as `var_to_bytes` of plain data (`describe`);
//! - we read each file, plain and compressed to the same model, and check every value of the
//!   model against the engine's description of the loaded resource;
//! - writing the model again with the file's own options gives the engine's bytes exactly (for
//!   a compressed file, the same decompressed stream: Zstandard encoders differ in their bytes);
//! - the engine loads the files we write (with the file's options, and with the default options
//!   of the engine) and finds the same values as in its own.

use crate::common::engine::{godot3_or_skip, godot4_or_skip, godot4_version};
use crate::rsrc_live::{NAMES, all_ok, engine_checks, ext, project3, project4, run3, run4};
use godot_serde::resource::{
    BinaryOptions, Reference, ResourceFile, Scene, read_binary, read_binary_with_info, reference,
    write_binary,
};
use godot_serde::{Config, GodotVersion, Variant};
use std::path::Path;

fn s(text: &str) -> Variant {
    Variant::String(text.into())
}

/// Our description of a value of `file`, as `describe` in `rsrc_save.gd` makes the engine's.
fn describe(file: &ResourceFile, v: &Variant) -> Variant {
    match reference(v) {
        Some(Reference::Ext(id)) => {
            let id = id_text(id);
            let ext = file.ext_resources.iter().find(|e| e.id == id).unwrap();
            let mut d = godot_serde::Dictionary::new();
            d.insert(s("@ext"), s(&ext.path));
            return Variant::Dictionary(d);
        }
        Some(Reference::Sub(id)) => {
            let id = id_text(id);
            let sub = file.sub_resources.iter().find(|r| r.id == id).unwrap();
            return describe_resource(file, &sub.class, &sub.properties);
        }
        None => {}
    }
    match v {
        Variant::ObjectId(_) => Variant::Nil,
        Variant::Array(a) => Variant::from(
            a.items
                .iter()
                .map(|x| describe(file, x))
                .collect::<Vec<_>>(),
        ),
        Variant::Dictionary(d) => {
            let mut out = godot_serde::Dictionary::new();
            for (k, x) in d.iter() {
                out.insert(describe(file, k), describe(file, x));
            }
            Variant::Dictionary(out)
        }
        other => other.clone(),
    }
}

fn id_text(id: &Variant) -> String {
    match id {
        Variant::Int(i) => i.to_string(),
        Variant::String(s) => s.to_string(),
        other => panic!("id {other:?}"),
    }
}

fn describe_resource(file: &ResourceFile, class: &str, props: &[(String, Variant)]) -> Variant {
    let mut d = godot_serde::Dictionary::new();
    d.insert(s("@class"), s(class));
    for (name, value) in props {
        d.insert(s(name), describe(file, value));
    }
    Variant::Dictionary(d)
}

/// `ours` (from the model) matches the engine's description `theirs`: the same class and
/// every property of ours equal to the engine's (the engine's lists its default values too,
/// which the file leaves out).
fn check(theirs: &Variant, ours: &Variant, at: &str) {
    if let (Variant::Dictionary(t), Variant::Dictionary(o)) = (theirs, ours) {
        if o.get("@class").is_some() {
            assert_eq!(t.get("@class"), o.get("@class"), "{at}: class");
            for (k, v) in o.iter() {
                let key = match k {
                    Variant::String(s) => s.to_string(),
                    other => format!("{other:?}"),
                };
                let tv = t
                    .get(k)
                    .unwrap_or_else(|| panic!("{at}.{key}: the engine has no such property"));
                check(tv, v, &format!("{at}.{key}"));
            }
            return;
        }
        assert_eq!(t.len(), o.len(), "{at}: Dictionary sizes");
        for ((tk, tv), (ok, ov)) in t.iter().zip(o.iter()) {
            assert_eq!(tk, ok, "{at}: keys");
            check(tv, ov, &format!("{at}[{ok:?}]"));
        }
        return;
    }
    if let (Variant::Array(t), Variant::Array(o)) = (theirs, ours) {
        assert_eq!(t.items.len(), o.items.len(), "{at}: Array sizes");
        for (i, (tv, ov)) in t.items.iter().zip(&o.items).enumerate() {
            check(tv, ov, &format!("{at}[{i}]"));
        }
        return;
    }
    assert_eq!(theirs, ours, "{at}");
}

/// A NodePath of the engine's `SceneState` as the model writes paths: `A/B`, `.` for the
/// root (the engine's paths start with `.` for nodes under the root: `./A/B`).
fn engine_path(v: &Variant) -> String {
    let Variant::NodePath(p) = v else {
        panic!("not a NodePath: {v:?}")
    };
    let names: Vec<&str> = p.names.iter().map(String::as_str).collect();
    match names.as_slice() {
        [] => String::new(),
        ["."] => ".".to_owned(),
        [".", rest @ ..] => rest.join("/"),
        all => all.join("/"),
    }
}

fn field<'a>(d: &'a Variant, key: &str) -> &'a Variant {
    match d {
        Variant::Dictionary(dict) => dict.get(key),
        _ => None,
    }
    .unwrap_or_else(|| panic!("no {key:?} in {d:?}"))
}

fn items(v: &Variant) -> &[Variant] {
    match v {
        Variant::Array(a) => &a.items,
        other => panic!("not an Array: {other:?}"),
    }
}

fn text(v: &Variant) -> String {
    match v {
        Variant::String(s) => s.to_string(),
        Variant::StringName(s) => s.0.clone(),
        other => panic!("not a string: {other:?}"),
    }
}

/// The scene of the model against the engine's `SceneState` description.
fn check_scene(file: &ResourceFile, scene: &Scene, theirs: &Variant, godot4: bool) {
    let nodes = items(field(theirs, "@scene"));
    assert_eq!(nodes.len(), scene.nodes.len(), "node count");
    for (node, t) in scene.nodes.iter().zip(nodes) {
        let at = &node.name;
        assert_eq!(text(field(t, "name")), node.name);
        assert_eq!(
            text(field(t, "type")),
            node.class.clone().unwrap_or_default(),
            "{at}: type"
        );
        let parent = engine_path(field(t, "parent"));
        assert_eq!(
            Some(parent).filter(|p| !p.is_empty()),
            node.parent,
            "{at}: parent"
        );
        let groups: Vec<String> = match field(t, "groups") {
            Variant::PackedStringArray(a) => a.to_vec(),
            Variant::Array(a) => a.items.iter().map(text).collect(),
            other => panic!("groups {other:?}"),
        };
        assert_eq!(groups, node.groups, "{at}: groups");
        let instance = field(t, "instance");
        match &node.instance {
            Some(v) => check(instance, &describe(file, v), &format!("{at}: instance")),
            None => assert_eq!(*instance, Variant::Nil, "{at}: instance"),
        }
        assert_eq!(
            text(field(t, "placeholder")),
            node.instance_placeholder.clone().unwrap_or_default()
        );
        let Variant::Dictionary(props) = field(t, "props") else {
            panic!("{at}: props")
        };
        assert_eq!(props.len(), node.properties.len(), "{at}: property count");
        for (name, value) in &node.properties {
            check(
                props.get(name.as_str()).unwrap(),
                &describe(file, value),
                &format!("{at}.{name}"),
            );
        }
    }
    let conns = items(field(theirs, "@conns"));
    assert_eq!(conns.len(), scene.connections.len(), "connection count");
    for (c, t) in scene.connections.iter().zip(conns) {
        assert_eq!(engine_path(field(t, "from")), c.from);
        assert_eq!(engine_path(field(t, "to")), c.to);
        assert_eq!(text(field(t, "signal")), c.signal);
        assert_eq!(text(field(t, "method")), c.method);
        assert_eq!(*field(t, "flags"), Variant::Int(c.flags.unwrap_or(2)));
        check(
            field(t, "binds"),
            &Variant::from(
                c.binds
                    .iter()
                    .map(|b| describe(file, b))
                    .collect::<Vec<_>>(),
            ),
            "binds",
        );
        if godot4 {
            assert_eq!(*field(t, "unbinds"), Variant::Int(c.unbinds.unwrap_or(0)));
        }
    }
}

/// Reads an engine's files of `name` and checks them; writes ours for the engine's check.
fn check_file(dir: &Path, name: &str, config: Config, godot4: bool, defaults: &BinaryOptions) {
    let path = dir.join(format!("{name}.{}", ext(name)));
    let theirs = std::fs::read(&path).unwrap();
    let (file, info) = read_binary_with_info(&theirs).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(!info.compressed);
    let compressed = std::fs::read(dir.join(format!("{name}_c.{}", ext(name)))).unwrap();
    assert_eq!(&compressed[..4], b"RSCC", "{name}_c");
    let (file_c, info_c) =
        read_binary_with_info(&compressed).unwrap_or_else(|e| panic!("{name}_c: {e}"));
    assert!(info_c.compressed);
    assert_eq!(
        file_c, file,
        "{name}: the compressed file reads to the same model"
    );

    // The values the engine loaded.
    let desc = std::fs::read(dir.join(format!("{name}.desc"))).unwrap();
    let desc = config.variant_from_bytes(&desc).unwrap();
    match &file.scene {
        Some(scene) => check_scene(&file, scene, &desc, godot4),
        None => check(
            &desc,
            &describe_resource(&file, &file.class, &file.properties),
            name,
        ),
    }

    // The engine's bytes again.
    let again = write_binary(&file, &info.options()).unwrap();
    assert!(
        again == theirs,
        "{name}: our bytes differ from the engine's ({} vs {})",
        again.len(),
        theirs.len()
    );
    let again_c = write_binary(&file, &info_c.options()).unwrap();
    assert_eq!(&again_c[..4], b"RSCC");
    let (back, _) = read_binary_with_info(&again_c).unwrap();
    assert_eq!(back, file, "{name}: our compressed file reads back");

    // Ours for the engine: with the default options of the engine, compressed or not.
    let ours = write_binary(&file, defaults).unwrap();
    std::fs::write(dir.join(format!("ours_{name}.{}", ext(name))), &ours).unwrap();
    assert_eq!(read_binary(&ours).unwrap(), file, "{name}: ours reads back");
    let ours_c = write_binary(&file, &defaults.clone().with_compression(true)).unwrap();
    std::fs::write(dir.join(format!("ours_{name}_c.{}", ext(name))), &ours_c).unwrap();
}

fn all_names(names: &[&str]) -> Vec<String> {
    names
        .iter()
        .flat_map(|n| [n.to_string(), format!("{n}_c")])
        .collect()
}

#[test]
fn godot4_resources_read_rewritten_and_loaded() {
    let Some(engine) = godot4_or_skip("godot4_resources_read_rewritten_and_loaded") else {
        return;
    };
    println!("Godot 4 engine: {}", godot4_version(&engine));
    let project = project4("rsrc");
    let stdout = run4(&project, &engine, &["save"]);
    // Godot 4.6 also saves a scene with paths into an instanced scene (its `id_paths`).
    let godot4_names: Vec<&str> = NAMES.iter().copied().chain(["scene_ids"]).collect();
    all_ok(&stdout, "SAVED", &godot4_names);
    let dir = project.dir.join("out");
    let config = Config::new(GodotVersion::V4_5);
    for name in &godot4_names {
        check_file(&dir, name, config, true, &BinaryOptions::godot4());
    }
    let file = read_binary(&std::fs::read(dir.join("scene_ids.scn")).unwrap()).unwrap();
    let scene = file.scene.as_ref().unwrap();
    let extra = scene.nodes.iter().find(|n| n.name == "Extra").unwrap();
    assert_eq!(extra.parent.as_deref(), Some("Instance/Inner"));
    // The ids along `Instance/Inner`: the instance's own id in this scene first.
    let Some((_, Variant::PackedInt32Array(ids))) =
        extra.other.iter().find(|(k, _)| k == "parent_id_path")
    else {
        panic!("no parent_id_path: {extra:?}")
    };
    let instance = scene.nodes.iter().find(|n| n.name == "Instance").unwrap();
    assert_eq!(
        (ids.len(), Some(i64::from(ids[0]))),
        (2, instance.unique_id)
    );
    assert_eq!(scene.editable, ["Instance"]);
    let names = all_names(&godot4_names);
    let mut args = vec!["check"];
    args.extend(names.iter().map(String::as_str));
    engine_checks(&run4(&project, &engine, &args), &names);
}

#[test]
fn godot3_resources_read_rewritten_and_loaded() {
    let Some(engine) = godot3_or_skip("godot3_resources_read_rewritten_and_loaded") else {
        return;
    };
    let project = project3("rsrc");
    let stdout = run3(&project, &engine, &["save"]);
    all_ok(&stdout, "SAVED", &NAMES);
    let dir = project.dir.join("out");
    let config = Config::new(GodotVersion::V3);
    for name in NAMES {
        check_file(&dir, name, config, false, &BinaryOptions::godot3());
    }
    let names = all_names(&NAMES);
    let mut args = vec!["check"];
    args.extend(names.iter().map(String::as_str));
    engine_checks(&run3(&project, &engine, &args), &names);
}
