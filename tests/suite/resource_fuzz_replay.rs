//! Hostile binary resources on the stable toolchain: the engine-written fixtures
//! (`tests/fixtures/resource/`) read offline to the values their scripts saved and written
//! back byte for byte; the `resource_binary` fuzz target's seeds (`fuzz/seeds/resource_binary/`),
//! every prefix of every fixture and seeded mutations replayed through the target's body
//! (`tests/common/resource_fuzz.rs`).

use crate::{replay, resource_fuzz};
use godot_serde::resource::{
    BinaryOptions, Connection, ResourceFormat, read_binary, read_binary_with_info, write_binary,
};
use godot_serde::{Variant, Vector2};

const FIXTURES: [&str; 6] = [
    "custom.res",
    "types.res",
    "animation.res",
    "scene.scn",
    "scene_c.scn",
    "named.scn",
];

fn fixtures() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for engine in ["godot4", "godot3"] {
        for name in FIXTURES {
            out.push(fixture(engine, name));
        }
    }
    out.push(fixture("godot4", "scene_ids.scn"));
    out
}

fn fixture(engine: &str, name: &str) -> Vec<u8> {
    std::fs::read(
        replay::root()
            .join("tests/fixtures/resource")
            .join(engine)
            .join(name),
    )
    .unwrap()
}

fn prop<'a>(props: &'a [(String, Variant)], name: &str) -> &'a Variant {
    &props
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no {name}"))
        .1
}

#[test]
fn engine_fixtures_read_to_their_saved_values_and_write_back_exactly() {
    for engine in ["godot4", "godot3"] {
        for name in FIXTURES {
            let bytes = fixture(engine, name);
            let (file, info) =
                read_binary_with_info(&bytes).unwrap_or_else(|e| panic!("{engine}/{name}: {e}"));
            if !info.compressed {
                assert!(
                    write_binary(&file, &info.options()).unwrap() == bytes,
                    "{engine}/{name}"
                );
            }
        }
        if engine == "godot4" {
            // scene_ids: Extra's parent is Instance/Inner, a path into the instance, with the
            // unique ids along it: the instance's own first.
            let bytes = fixture(engine, "scene_ids.scn");
            let (file, info) = read_binary_with_info(&bytes).unwrap();
            assert!(
                write_binary(&file, &info.options()).unwrap() == bytes,
                "scene_ids"
            );
            let scene = file.scene.unwrap();
            let extra = scene.nodes.iter().find(|n| n.name == "Extra").unwrap();
            assert_eq!(extra.parent.as_deref(), Some("Instance/Inner"));
            let instance = scene.nodes.iter().find(|n| n.name == "Instance").unwrap();
            let ids = prop(&extra.other, "parent_id_path");
            let Variant::PackedInt32Array(ids) = ids else {
                panic!("{ids:?}")
            };
            assert_eq!(Some(i64::from(ids[0])), instance.unique_id);
            let from = prop(&scene.connections[0].other, "from_id_path");
            assert_eq!(from, prop(&extra.other, "parent_id_path"));
        }
        // named.scn: resource_name = "level" and metadata x = 1 beside the scene state.
        let named = read_binary(&fixture(engine, "named.scn")).unwrap();
        assert_eq!(
            *prop(&named.properties, "resource_name"),
            Variant::from("level")
        );
        assert_eq!(named.scene.as_ref().unwrap().nodes[0].name, "Root");
        // rsrc_save.gd: top.title = "top", top.ratio = 1.5, top.child = mid (title "mid",
        // counts [1, 2, 3]) whose child is leaf (title "leaf", ratio 0.25).
        let custom = read_binary(&fixture(engine, "custom.res")).unwrap();
        assert_eq!(custom.ext_resources[0].path, "res://rsrc_item.gd");
        assert_eq!(custom.ext_resources[0].class, "Script");
        assert_eq!(*prop(&custom.properties, "title"), Variant::from("top"));
        assert_eq!(*prop(&custom.properties, "ratio"), Variant::Float(1.5));
        let titles: Vec<&Variant> = custom
            .sub_resources
            .iter()
            .map(|s| prop(&s.properties, "title"))
            .collect();
        assert_eq!(titles, [&Variant::from("leaf"), &Variant::from("mid")]);
        assert_eq!(
            *prop(&custom.sub_resources[0].properties, "ratio"),
            Variant::Float(0.25)
        );
        let counts = prop(&custom.sub_resources[1].properties, "counts");
        assert_eq!(
            *counts,
            Variant::from(vec![Variant::Int(1), Variant::Int(2), Variant::Int(3)])
        );
        if engine == "godot4" {
            assert_eq!(custom.format, ResourceFormat::Godot4);
            assert_eq!(custom.script_class.as_deref(), Some("RsrcItem"));
        } else {
            assert_eq!(custom.format, ResourceFormat::Godot3);
            assert_eq!(custom.script_class, None);
        }

        // The scene: Root (Node2D at (3, 4), group "roots") > A (rotation 0.5, groups
        // "things", "more") > B, and the instanced sub-scene "Instance" at (7, 8); A.renamed
        // -> Root.show deferred (flags 3), B.tree_entered -> A.queue_free bound to [1, "x"].
        for name in ["scene.scn", "scene_c.scn"] {
            let scene_file = read_binary(&fixture(engine, name)).unwrap();
            assert_eq!(scene_file.class, "PackedScene");
            let scene = scene_file.scene.as_ref().unwrap();
            let names: Vec<&str> = scene.nodes.iter().map(|n| n.name.as_str()).collect();
            assert_eq!(names, ["Root", "A", "B", "Instance"]);
            let parents: Vec<Option<&str>> =
                scene.nodes.iter().map(|n| n.parent.as_deref()).collect();
            assert_eq!(parents, [None, Some("."), Some("A"), Some(".")]);
            assert_eq!(scene.nodes[0].groups, ["roots"]);
            // Godot 4 keeps the order the groups were added in; Godot 3 saves them sorted.
            let groups: &[&str] = if engine == "godot4" {
                &["things", "more"]
            } else {
                &["more", "things"]
            };
            assert_eq!(scene.nodes[1].groups, groups, "{engine}");
            assert_eq!(scene.nodes[0].class.as_deref(), Some("Node2D"));
            // The engine keeps the instanced scene root's class too.
            assert_eq!(scene.nodes[3].class.as_deref(), Some("Node2D"));
            assert_eq!(
                *prop(&scene.nodes[0].properties, "position"),
                Variant::Vector2(Vector2 { x: 3.0, y: 4.0 })
            );
            assert_eq!(
                *prop(&scene.nodes[1].properties, "rotation"),
                Variant::Float(0.5)
            );
            let instance = scene.nodes[3].instance.as_ref().unwrap();
            assert!(godot_serde::resource::reference(instance).is_some());
            assert_eq!(scene_file.ext_resources[0].path, "res://out/sub.scn");
            assert_eq!(
                scene.connections,
                [
                    Connection {
                        signal: "renamed".into(),
                        from: "A".into(),
                        to: ".".into(),
                        method: "show".into(),
                        flags: Some(3),
                        binds: vec![],
                        unbinds: None,
                        other: vec![],
                    },
                    Connection {
                        signal: "tree_entered".into(),
                        from: "A/B".into(),
                        to: "A".into(),
                        method: "queue_free".into(),
                        flags: None,
                        binds: vec![Variant::Int(1), Variant::from("x")],
                        unbinds: None,
                        other: vec![],
                    },
                ]
            );
        }
    }
}

/// Our writer's files of the fixtures: plain and compressed, Godot 4 layouts 4 to 6.
fn generated() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for bytes in fixtures() {
        let (file, info) = read_binary_with_info(&bytes).unwrap();
        let base = if file.format == ResourceFormat::Godot3 {
            BinaryOptions::godot3()
        } else {
            BinaryOptions::godot4()
        };
        out.push(write_binary(&file, &base).unwrap());
        out.push(write_binary(&file, &base.clone().with_compression(!info.compressed)).unwrap());
        if file.format == ResourceFormat::Godot4 {
            if let Ok(v) = write_binary(&file, &base.with_format_version(5).with_engine(4, 2)) {
                out.push(v);
            }
        }
    }
    out
}

#[test]
#[ignore = "writes the seed corpus: cargo test --all-features --test suite -- --ignored resource_fuzz_replay::write_seed_corpus"]
fn write_seed_corpus() {
    replay::write_seeds("resource_binary", fixtures().into_iter().chain(generated()));
}

#[test]
fn seed_corpus_replays_clean() {
    let files = replay::seed_files("resource_binary");
    assert!(
        files.len() >= 30,
        "fuzz/seeds/resource_binary has {} files; regenerate with \
         `cargo test --all-features --test suite -- --ignored resource_fuzz_replay::write_seed_corpus`",
        files.len()
    );
    for file in files {
        resource_fuzz::resource_binary(&std::fs::read(&file).unwrap());
    }
}

#[test]
fn every_prefix_of_every_fixture_replays_clean() {
    let n = replay::every_prefix(&fixtures(), resource_fuzz::resource_binary);
    assert!(n > 5000, "{n} prefixes");
}

#[test]
fn random_mutations_replay_clean() {
    let mut seeds = fixtures();
    seeds.extend(generated());
    let runs = replay::forged_mutations(
        &seeds,
        0x0005_eed0_fbad_f11e,
        60,
        0,
        resource_fuzz::resource_binary,
    );
    assert!(runs >= 1800, "{runs} mutations");
}
