//! `resource::TextResource` against both live engines. Godot 4.6 and Godot 3.2.3 build
//! scenes and resources in GDScript (`tests/godot{4,3}/resource_text_save.gd`: a custom
//! script resource nesting another one and a Curve, Gradient, StyleBoxFlat, Animation, a
//! scene with a script, groups, metadata, a unique-name node (Godot 4), an instanced
//! sub-scene with overridden properties on it and on its editable child, persisted connections with binds) and save them
//! with `ResourceSaver.save`, then report every stored property of what they load (`var_to_str`
//! with resources named by id or path). For every file: the unedited document prints the
//! engine's bytes, `write_text` of its model gives them again, and every value of the model equals the engine's report. Then the crate
//! edits the scene and the resource (set a property, rename, add, reparent and remove nodes,
//! add an ext_resource and attach it, add a connection, remove metadata), and the engine
//! loads the edited files (`resource_text_check.gd`) and reports the tree and values: each
//! edit must be there. Skips loudly without an engine; fails then when
//! `GODOT_SERDE_REQUIRE_ENGINE=1`.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::engine::{
    Godot3Project, Godot4Project, godot3_or_skip, godot4_or_skip, godot4_version,
};
use godot_serde::resource::{
    Connection, Reference, ResourceFile, Target, TextResource, ext_ref, reference, write_text,
};
use godot_serde::text::variant_to_string_with;
use godot_serde::{Config, PackedFloat32Array, Variant, Vector2};

const FILES: &[&str] = &[
    "item.tres",
    "anim.tres",
    "style.tres",
    "sub.tscn",
    "main.tscn",
];
/// Godot 4 also saves `blob.tres`: a PackedByteArray of more than 64 bytes, which the saver
/// writes as `format=4` and base64.
const G4_FILES: &[&str] = &["blob.tres"];
const SCRIPTS: &[&str] = &[
    "resource_text_save.gd",
    "resource_text_check.gd",
    "resource_text_item.gd",
    "resource_text_main.gd",
    "resource_text_extra.gd",
];

/// The engine's scripts, and their shared base `tests/godot3_4/resource_text_common.gd`.
fn scripts(engine: u8) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    SCRIPTS
        .iter()
        .map(|s| root.join(format!("tests/godot{engine}/{s}")))
        .chain([root.join("tests/godot3_4/resource_text_common.gd")])
        .collect()
}

fn unhex(h: &str) -> String {
    let bytes: Vec<u8> = (0..h.len() / 2)
        .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    String::from_utf8(bytes).unwrap()
}

/// A node as the engine reports it: name, type, parent path, groups, properties.
type EngineNode = (String, String, String, String, Vec<(String, String)>);
/// A connection as the engine reports it: signal, from, to, method, flags, binds text.
type EngineConn = (String, String, String, String, i64, String);

/// What the save script reported, per file.
#[derive(Default)]
struct Report {
    /// (resource path, property) -> `var_to_str` text.
    props: HashMap<(String, String), String>,
    /// file -> nodes: (name, type, parent path, groups, properties).
    nodes: HashMap<String, Vec<EngineNode>>,
    /// file -> connections: (signal, from, to, method, flags, binds text).
    conns: HashMap<String, Vec<EngineConn>>,
}

fn report(stdout: &str) -> Report {
    assert!(
        stdout.lines().any(|l| l == "DONE"),
        "the save script did not finish:\n{stdout}"
    );
    let mut r = Report::default();
    let mut file = String::new();
    for line in stdout.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        match f.as_slice() {
            ["SAVE", what, code] | ["PACK", what, code] if *code != "0" => {
                panic!("saving {what} failed: {line}")
            }
            ["FILE", path] => file = path.trim_start_matches("res://").to_owned(),
            ["P", path, name, hex] => {
                r.props
                    .insert((path.to_string(), name.to_string()), unhex(hex));
            }
            ["NODE", _, name, ty, parent, groups] => {
                // Godot 3.2 reports `./Player` where the file says `Player`.
                let parent = parent.strip_prefix("./").unwrap_or(parent);
                r.nodes.entry(file.clone()).or_default().push((
                    name.to_string(),
                    ty.to_string(),
                    parent.to_string(),
                    groups.to_string(),
                    Vec::new(),
                ));
            }
            ["NP", i, name, hex] => {
                let i: usize = i.parse().unwrap();
                r.nodes.get_mut(&file).unwrap()[i]
                    .4
                    .push((name.to_string(), unhex(hex)));
            }
            ["CONN", signal, from, to, method, flags, binds] => {
                r.conns.entry(file.clone()).or_default().push((
                    signal.to_string(),
                    from.to_string(),
                    to.to_string(),
                    method.to_string(),
                    flags.parse().unwrap(),
                    unhex(binds),
                ));
            }
            _ => {}
        }
    }
    r
}

/// A value as the scripts report it: a reference to a sub-resource is `"SUB:<id>"`, to an
/// external one `"EXT:<path>"`, inside Arrays too.
fn enc(v: &Variant, m: &ResourceFile) -> Variant {
    let id_text = |id: &Variant| match id {
        Variant::String(s) => s.to_string(),
        Variant::Int(i) => i.to_string(),
        other => panic!("a reference id {other:?}"),
    };
    match reference(v) {
        Some(Reference::Sub(id)) => Variant::from(format!("SUB:{}", id_text(id)).as_str()),
        Some(Reference::Ext(id)) => {
            let id = id_text(id);
            let ext = m.ext_resources.iter().find(|e| e.id == id).unwrap();
            Variant::from(format!("EXT:{}", ext.path).as_str())
        }
        None => match v {
            Variant::Array(a) if a.iter().any(|x| reference(x).is_some()) => {
                Variant::from(a.iter().map(|x| enc(x, m)).collect::<Vec<Variant>>())
            }
            _ => v.clone(),
        },
    }
}

/// Every file: the unedited round trip and each value against the engine's report. Returns
/// how many values were compared.
fn compare(dir: &Path, r: &Report, config: Config) -> usize {
    let mut n = 0;
    let g4_files = if config.version().is_godot4() {
        G4_FILES
    } else {
        &[]
    };
    for file in FILES.iter().chain(g4_files) {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let doc = TextResource::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(doc.to_string(), text, "{file}: the unedited document");
        let m = doc.to_model().unwrap();
        // The model written out again is the engine's file (blob.tres: format=4, its bytes
        // in base64, as the engine wrote it; the check script loads what we wrote:
        // `written_blob.tres`).
        let written = write_text(&m, config.version());
        if *file == "blob.tres" {
            assert!(
                text.starts_with(
                    "[gd_resource type=\"Resource\" script_class=\"RtItem\" load_steps=2 format=4]"
                ),
                "{text}"
            );
            std::fs::write(dir.join("written_blob.tres"), &written).unwrap();
        }
        assert_eq!(written, text, "{file}: write_text");
        let show = |v: &Variant| variant_to_string_with(&enc(v, &m), config);
        let res_path = format!("res://{file}");
        let mut check = |path: &str, props: &[(String, Variant)]| {
            for (k, v) in props {
                let engine = r
                    .props
                    .get(&(path.to_owned(), k.clone()))
                    .unwrap_or_else(|| panic!("{path}: the engine has no property {k}"));
                assert_eq!(&show(v), engine, "{path} {k}");
                n += 1;
            }
        };
        match &m.scene {
            None => {
                check(&res_path, &m.properties);
                for s in &m.sub_resources {
                    check(&format!("{res_path}::{}", s.id), &s.properties);
                }
            }
            Some(scene) => {
                let nodes = &r.nodes[*file];
                assert_eq!(scene.nodes.len(), nodes.len(), "{file}: nodes");
                for (ours, theirs) in scene.nodes.iter().zip(nodes) {
                    assert_eq!(ours.name, theirs.0);
                    assert_eq!(
                        ours.class.clone().unwrap_or_default(),
                        theirs.1,
                        "{}",
                        ours.name
                    );
                    assert_eq!(
                        ours.parent.clone().unwrap_or_default(),
                        theirs.2,
                        "{}",
                        ours.name
                    );
                    assert_eq!(ours.groups.join(","), theirs.3, "{}", ours.name);
                    let props: Vec<(String, String)> = ours
                        .properties
                        .iter()
                        .map(|(k, v)| (k.clone(), show(v)))
                        .collect();
                    assert_eq!(props, theirs.4, "{file}: {}", ours.name);
                    n += props.len() + 1;
                }
                if *file == "main.tscn" && config.version().is_godot4() {
                    // (Godot 4 only: 3.2's GDScript cannot mark an instance editable.)
                    // The instance's editable children: `[editable]`, and the override of
                    // its child as a node without a type, with its index.
                    assert_eq!(scene.editable, ["SubInst"], "{file}");
                    let inner = scene.nodes.iter().find(|n| n.name == "Inner").unwrap();
                    assert_eq!((inner.class.as_deref(), inner.index), (None, Some(0)));
                }
                let conns = r.conns.get(*file).cloned().unwrap_or_default();
                assert_eq!(scene.connections.len(), conns.len(), "{file}: connections");
                for (c, e) in scene.connections.iter().zip(&conns) {
                    let binds = show(&Variant::from(c.binds.clone()));
                    let ours = (
                        &c.signal,
                        &c.from,
                        &c.to,
                        &c.method,
                        c.flags.unwrap_or(2),
                        &binds,
                    );
                    assert_eq!(ours, (&e.0, &e.1, &e.2, &e.3, e.4, &e.5), "{file}");
                    n += 1;
                }
            }
        }
    }
    n
}

/// The crate's edits, written as `edited_main.tscn` and `edited_item.tres`.
fn edit(dir: &Path, g4: bool) {
    let mut doc =
        TextResource::parse(&std::fs::read_to_string(dir.join("main.tscn")).unwrap()).unwrap();
    let pos = Variant::Vector2(Vector2 { x: 5.0, y: 6.25 });
    doc.set_property(Target::Node("Player"), "position", &pos)
        .unwrap();
    doc.rename_node("Player", "Hero").unwrap();
    doc.add_node("Hero", "Added", "Node2D").unwrap();
    let id = doc
        .add_ext_resource("Script", "res://resource_text_extra.gd", None)
        .unwrap();
    let script = if g4 {
        ext_ref(id.as_str())
    } else {
        ext_ref(id.parse::<i64>().unwrap())
    };
    doc.set_property(Target::Node("Hero/Added"), "script", &script)
        .unwrap();
    doc.reparent_node("Hero/Deep", ".").unwrap();
    doc.remove_node("Gone").unwrap();
    doc.add_connection(&Connection {
        signal: "renamed".into(),
        from: "Hero".into(),
        to: ".".into(),
        method: "_on_signal".into(),
        ..Connection::default()
    })
    .unwrap();
    std::fs::write(dir.join("edited_main.tscn"), doc.to_string()).unwrap();

    let mut doc =
        TextResource::parse(&std::fs::read_to_string(dir.join("item.tres")).unwrap()).unwrap();
    doc.set_property(Target::Resource, "title", &Variant::from("Axe"))
        .unwrap();
    let gradient = doc
        .to_model()
        .unwrap()
        .sub_resources
        .iter()
        .find(|s| s.class == "Gradient")
        .unwrap()
        .id
        .clone();
    let offsets = Variant::PackedFloat32Array(PackedFloat32Array(vec![0.0, 0.5]));
    doc.set_property(Target::SubResource(&gradient), "offsets", &offsets)
        .unwrap();
    doc.remove_property(
        Target::Resource,
        if g4 { "metadata/note" } else { "__meta__" },
    )
    .unwrap();
    std::fs::write(dir.join("edited_item.tres"), doc.to_string()).unwrap();
}

/// The engine's report on the edited files against the edits.
fn check_edits(stdout: &str, g4: bool) {
    assert!(
        stdout.lines().any(|l| l == "DONE"),
        "the check script did not finish:\n{stdout}"
    );
    let tree: Vec<&str> = stdout.lines().filter(|l| l.starts_with("TREE ")).collect();
    let sprite = if g4 { "Sprite2D" } else { "Sprite" };
    let expected = [
        "TREE . Node2D res://resource_text_main.gd".to_owned(),
        format!("TREE Hero {sprite} "),
        "TREE Hero/Added Node2D res://resource_text_extra.gd".to_owned(),
        "TREE SubInst Node2D ".to_owned(),
        "TREE SubInst/Inner Node2D ".to_owned(),
        "TREE Deep Node ".to_owned(),
    ];
    assert_eq!(tree, expected, "{stdout}");
    let has = |line: &str| {
        assert!(
            stdout.lines().any(|l| l == line),
            "no {line:?} in:\n{stdout}"
        )
    };
    has(if g4 {
        "HERO_POS Vector2(5, 6.25)"
    } else {
        "HERO_POS Vector2( 5, 6.25 )"
    });
    has("GROUPS alpha,players");
    has("CONN renamed . _on_signal");
    has("CONN visibility_changed . _on_signal");
    has("MARKER 42");
    has("ITEM_TITLE \"Axe\"");
    has(if g4 {
        "ITEM_OFFSETS PackedFloat32Array(0, 0.5)"
    } else {
        "ITEM_OFFSETS PoolRealArray( 0, 0.5 )"
    });
    // Godot 3 prints a bool as `False`.
    has(if g4 {
        "ITEM_META false"
    } else {
        "ITEM_META False"
    });
    has("ITEM_CHILD \"gem\"");
    if g4 {
        has("UNIQUE true");
        // The format=4 file `write_text` made: bytes i * 7 mod 256, i < 100.
        let hex: String = (0..100u32)
            .map(|i| format!("{:02x}", i * 7 % 256))
            .collect();
        has(&format!("BLOB blob {hex}"));
    }
}

#[test]
fn godot4_scenes_and_resources_read_and_edit() {
    let Some(engine) = godot4_or_skip("godot4_scenes_and_resources_read_and_edit") else {
        return;
    };
    println!("Godot 4 engine: {}", godot4_version(&engine));
    let paths = scripts(4);
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let project = Godot4Project::new("resource_text", &refs);
    let out = project.run(
        &engine,
        "resource_text_save.gd",
        &[],
        Duration::from_secs(120),
    );
    let r = report(&String::from_utf8_lossy(&out.stdout));
    let n = compare(&project.dir, &r, Config::godot4());
    edit(&project.dir, true);
    let out = project.run(
        &engine,
        "resource_text_check.gd",
        &[],
        Duration::from_secs(120),
    );
    check_edits(&String::from_utf8_lossy(&out.stdout), true);
    println!(
        "Godot 4: {} files round-trip, {n} values equal the engine's, edits load",
        FILES.len() + G4_FILES.len()
    );
}

#[test]
fn godot3_scenes_and_resources_read_and_edit() {
    let Some(engine) = godot3_or_skip("godot3_scenes_and_resources_read_and_edit") else {
        return;
    };
    let project = Godot3Project::new("resource_text", &scripts(3));
    let run = |script: &str| {
        let out = project
            .spawn(&engine, script, &[] as &[&str], Duration::from_secs(120))
            .join()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let r = report(&run("resource_text_save.gd"));
    let n = compare(&project.dir, &r, Config::godot3());
    edit(&project.dir, false);
    check_edits(&run("resource_text_check.gd"), false);
    println!(
        "Godot 3: {} files round-trip, {n} values equal the engine's, edits load",
        FILES.len()
    );
}
