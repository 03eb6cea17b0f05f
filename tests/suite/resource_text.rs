//! `resource::TextResource` on files the engines saved (`tests/fixtures/resource/`: Godot
//! 4.6's and Godot 3.2.3's `ResourceSaver.save` of one custom resource and one scene, see
//! `resource_text_live.rs` for the scripts' kind): byte-for-byte round trips, the model's
//! values (derived by hand from the files), each edit's exact text, `write_text` of the model
//! against the engine's own bytes, and hostile input.

use godot_serde::resource::{
    Connection, ResourceFormat, Target, TextResource, ext_ref, sub_ref, write_text,
};
use godot_serde::{ErrorKind, GodotVersion, Variant, Vector2};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/resource/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const FIXTURES: &[&str] = &[
    "g4_item.tres",
    "g4_main.tscn",
    "g3_item.tres",
    "g3_main.tscn",
];

#[test]
fn unedited_documents_print_their_input() {
    for name in FIXTURES {
        let text = fixture(name);
        let doc = TextResource::parse(&text).unwrap();
        assert_eq!(doc.to_string(), text, "{name}");
    }
    // Comments, odd spacing, CRLF, a quoted key and float spellings are kept too.
    let odd = "; made by hand\r\n[gd_resource type=\"Resource\"   format=3]\r\n\r\n[resource]\r\n\
               a=1.50 ; one and a half\r\n\"b c\" =  Vector2( 1e2 ,2 )\r\n";
    let doc = TextResource::parse(odd).unwrap();
    assert_eq!(doc.to_string(), odd);
    let props = doc.properties(Target::Resource).unwrap();
    assert_eq!(props[0], ("a".to_owned(), Variant::Float(1.5)));
    assert_eq!(
        props[1],
        (
            "b c".to_owned(),
            Variant::Vector2(Vector2 { x: 100.0, y: 2.0 })
        )
    );
}

#[test]
fn engine_files_read_into_the_model() {
    // Godot 4.6's item.tres, field by field as the file spells it.
    let m = TextResource::parse(&fixture("g4_item.tres"))
        .unwrap()
        .to_model()
        .unwrap();
    assert_eq!(m.format, ResourceFormat::Godot4);
    assert_eq!(m.class, "Resource");
    assert_eq!(m.script_class.as_deref(), Some("Item"));
    assert_eq!(m.ext_resources[0].id, "1");
    assert_eq!(m.ext_resources[0].path, "res://item.gd");
    assert_eq!(m.sub_resources[0].id, "Gradient_howwi");
    assert_eq!(m.sub_resources[1].class, "StyleBoxFlat");
    assert!(m.sub_resources[1].properties.is_empty());
    let names: Vec<&str> = m.properties.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["script", "name", "stats", "tags", "metadata/note"]);
    assert_eq!(m.properties[0].1, ext_ref("1"));
    assert_eq!(m.properties[2].1, sub_ref("Gradient_howwi"));
    assert!(m.scene.is_none());

    // Godot 3.2.3's scene: int ids, groups over several lines, binds.
    let m = TextResource::parse(&fixture("g3_main.tscn"))
        .unwrap()
        .to_model()
        .unwrap();
    assert_eq!(m.format, ResourceFormat::Godot3);
    assert_eq!(m.class, "PackedScene");
    assert_eq!(m.ext_resources[1].id, "2");
    let scene = m.scene.unwrap();
    let player = &scene.nodes[1];
    assert_eq!(player.name, "Player");
    assert_eq!(player.class.as_deref(), Some("Sprite"));
    assert_eq!(player.parent.as_deref(), Some("."));
    assert_eq!(player.groups, ["alpha", "players"]);
    assert_eq!(scene.nodes[0].properties[0].1, ext_ref(2i64));
    assert_eq!(scene.nodes[3].instance, Some(ext_ref(1i64)));
    assert_eq!(scene.nodes[2].parent.as_deref(), Some("Player"));
    let c = &scene.connections[0];
    assert_eq!(
        (c.signal.as_str(), c.from.as_str(), c.to.as_str()),
        ("visibility_changed", "Player", ".")
    );
    assert_eq!(c.binds, [Variant::Int(1), Variant::from("a")]);

    let m = TextResource::parse(&fixture("g4_main.tscn"))
        .unwrap()
        .to_model()
        .unwrap();
    let scene = m.scene.unwrap();
    assert_eq!(scene.nodes[1].unique_id, Some(2138751970));
    assert_eq!(scene.nodes[1].groups, ["alpha", "players"]);
}

#[test]
fn the_model_writes_back_as_the_engines_saved_it() {
    for name in FIXTURES {
        let text = fixture(name);
        let m = TextResource::parse(&text).unwrap().to_model().unwrap();
        let version = match m.format {
            ResourceFormat::Godot3 => GodotVersion::V3,
            _ => GodotVersion::V4_5,
        };
        assert_eq!(write_text(&m, version), text, "{name}");
    }
}

#[test]
fn set_and_remove_properties_touch_only_their_lines() {
    let text = fixture("g4_main.tscn");
    let mut doc = TextResource::parse(&text).unwrap();
    doc.set_property(
        Target::Node("Player"),
        "position",
        &Variant::Vector2(Vector2 { x: 0.5, y: -2.0 }),
    )
    .unwrap();
    assert_eq!(
        doc.to_string(),
        text.replace("position = Vector2(3, 4.5)", "position = Vector2(0.5, -2)")
    );
    // A new property goes after the node's last one.
    doc.set_property(
        Target::Node("Player/Deep"),
        "editor_description",
        &Variant::from("a\"b"),
    )
    .unwrap();
    assert!(doc.to_string().contains(
        "[node name=\"Deep\" type=\"Node\" parent=\"Player\" unique_id=1505164083]\neditor_description = \"a\\\"b\"\n\n"
    ));
    doc.remove_property(Target::Node("Player"), "metadata/hp")
        .unwrap();
    assert!(!doc.to_string().contains("metadata/hp"));
    assert_eq!(
        doc.get(Target::Node("Player"), "unique_name_in_owner")
            .unwrap(),
        Some(Variant::Bool(true))
    );

    // Godot 3 spelling for a Godot 3 file.
    let mut doc = TextResource::parse(&fixture("g3_item.tres")).unwrap();
    doc.set_property(
        Target::SubResource("1"),
        "offsets",
        &Variant::PackedFloat32Array(godot_serde::PackedFloat32Array(vec![0.0, 0.25])),
    )
    .unwrap();
    assert!(doc.to_string().contains("colors = PoolColorArray( 1, 0, 0, 1, 0, 0, 1, 0.5 )\noffsets = PoolRealArray( 0, 0.25 )\n\n"), "{doc}");
}

#[test]
fn nodes_are_added_renamed_reparented_and_removed() {
    let text = fixture("g4_main.tscn");
    let mut doc = TextResource::parse(&text).unwrap();
    doc.add_node("Player", "Arm", "Node2D").unwrap();
    // After Player's last descendant (Deep), before SubInst.
    assert!(
        doc.to_string().contains(
            "[node name=\"Deep\" type=\"Node\" parent=\"Player\" unique_id=1505164083]\n\n\
         [node name=\"Arm\" type=\"Node2D\" parent=\"Player\"]\n\n[node name=\"SubInst\""
        ),
        "{doc}"
    );
    doc.rename_node("Player", "Hero").unwrap();
    let s = doc.to_string();
    assert!(s.contains("[node name=\"Hero\" type=\"Sprite2D\""));
    assert!(s.contains("parent=\"Hero\" unique_id=1505164083]"));
    assert!(s.contains("[node name=\"Arm\" type=\"Node2D\" parent=\"Hero\"]"));
    assert!(s.contains("[connection signal=\"visibility_changed\" from=\"Hero\" to=\".\""));
    // Reparent Hero under SubInst: its subtree moves after SubInst, paths follow.
    doc.reparent_node("Hero", "SubInst").unwrap();
    let s = doc.to_string();
    let sub = s.find("[node name=\"SubInst\"").unwrap();
    let hero = s.find("[node name=\"Hero\"").unwrap();
    assert!(sub < hero, "{s}");
    assert!(s.contains("parent=\"SubInst\" unique_id=2138751970"));
    assert!(s.contains("parent=\"SubInst/Hero\" unique_id=1505164083]"));
    assert!(s.contains("from=\"SubInst/Hero\""));
    let m = doc.to_model().unwrap();
    let nodes = &m.scene.as_ref().unwrap().nodes;
    let names: Vec<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["Main", "SubInst", "Hero", "Deep", "Arm"]);
    // Removing it takes its subtree and its connection; the file still ends with one '\n'.
    doc.remove_node("SubInst/Hero").unwrap();
    let s = doc.to_string();
    assert!(!s.contains("Hero") && !s.contains("[connection"), "{s}");
    assert!(s.ends_with("instance=ExtResource(\"2\")]\n"), "{s:?}");
    assert!(doc.rename_node("SubInst", "a/b").is_err());
    assert!(doc.remove_node(".").is_err());
    assert!(doc.add_node(".", "SubInst", "Node").is_err());
}

#[test]
fn ext_resources_and_connections_are_added_as_the_saver_writes_them() {
    let mut doc = TextResource::parse(&fixture("g4_main.tscn")).unwrap();
    let id = doc
        .add_ext_resource("PackedScene", "res://enemy.tscn", None)
        .unwrap();
    let (n, rand) = id.split_once('_').unwrap();
    assert_eq!(n, "3");
    assert!(
        rand.len() == 5 && rand.bytes().all(|b| matches!(b, b'a'..=b'y' | b'0'..=b'8')),
        "{id}"
    );
    let s = doc.to_string();
    assert!(s.starts_with("[gd_scene load_steps=4 format=3]\n"), "{s}");
    assert!(s.contains(&format!(
        "[ext_resource type=\"PackedScene\" path=\"res://sub.tscn\" id=\"2\"]\n\
         [ext_resource type=\"PackedScene\" path=\"res://enemy.tscn\" id=\"{id}\"]\n\n[node"
    )));
    doc.add_instance(".", "Enemy", &id).unwrap();
    assert!(doc.to_string().contains(&format!(
        "[node name=\"Enemy\" parent=\".\" instance=ExtResource(\"{id}\")]\n"
    )));
    doc.add_connection(&Connection {
        signal: "ready".into(),
        from: "Enemy".into(),
        to: ".".into(),
        method: "_on_x".into(),
        flags: Some(3),
        binds: vec![Variant::Int(7)],
        unbinds: Some(1),
        other: Vec::new(),
    })
    .unwrap();
    assert!(doc.to_string().ends_with(
        "[connection signal=\"visibility_changed\" from=\"Player\" to=\".\" method=\"_on_x\"]\n\
         [connection signal=\"ready\" from=\"Enemy\" to=\".\" method=\"_on_x\" flags=3 unbinds=1 binds= [7]]\n"
    ), "{doc}");

    // Godot 3: the next int, `path type id`; a header without load_steps gets one.
    let mut doc =
        TextResource::parse("[gd_scene format=2]\n\n[node name=\"A\" type=\"Node\"]\n").unwrap();
    assert_eq!(
        doc.add_ext_resource("Script", "res://a.gd", None).unwrap(),
        "1"
    );
    assert_eq!(
        doc.add_ext_resource("Texture", "res://b.png", None)
            .unwrap(),
        "2"
    );
    assert_eq!(
        doc.to_string(),
        "[gd_scene load_steps=3 format=2]\n\n[ext_resource path=\"res://a.gd\" type=\"Script\" id=1]\n\
         [ext_resource path=\"res://b.png\" type=\"Texture\" id=2]\n\n[node name=\"A\" type=\"Node\"]\n"
    );
    doc.set_property(Target::Node("."), "script", &ext_ref(1i64))
        .unwrap();
    assert!(
        doc.to_string()
            .ends_with("[node name=\"A\" type=\"Node\"]\nscript = ExtResource( 1 )\n")
    );
}

#[test]
fn paths_with_a_leading_period_name_the_same_nodes() {
    // Hand-written files may say `parent="./A"`, as the engine's loader takes it (it
    // simplifies paths); the edits find and rewrite them.
    let text = "[gd_scene format=3]\n\n[node name=\"R\" type=\"Node\"]\n\n\
                [node name=\"A\" type=\"Node\" parent=\".\"]\n\n\
                [node name=\"B\" type=\"Node\" parent=\"./A\"]\n\n\
                [connection signal=\"ready\" from=\"./A/B\" to=\".\" method=\"m\"]\n";
    let mut doc = TextResource::parse(text).unwrap();
    assert_eq!(doc.get(Target::Node("A/B"), "x").unwrap(), None);
    doc.rename_node("A", "C").unwrap();
    assert!(
        doc.to_string()
            .contains("[node name=\"B\" type=\"Node\" parent=\"C\"]"),
        "{doc}"
    );
    assert!(doc.to_string().contains("from=\"C/B\""), "{doc}");
}

#[test]
fn serde_views_of_properties() {
    #[derive(serde::Deserialize, serde::Serialize, Debug, PartialEq)]
    struct Player {
        position: Vector2,
        unique_name_in_owner: bool,
        #[serde(rename = "metadata/hp")]
        hp: i32,
    }
    let mut doc = TextResource::parse(&fixture("g4_main.tscn")).unwrap();
    let mut p: Player = doc.node_as("Player").unwrap();
    assert_eq!(
        p,
        Player {
            position: Vector2 { x: 3.0, y: 4.5 },
            unique_name_in_owner: true,
            hp: 10
        }
    );
    p.hp = 99;
    doc.set_node_from("Player", &p).unwrap();
    assert!(
        doc.to_string()
            .contains("position = Vector2(3, 4.5)\nmetadata/hp = 99\n"),
        "{doc}"
    );

    #[derive(serde::Deserialize)]
    struct Item {
        name: String,
    }
    let doc = TextResource::parse(&fixture("g4_item.tres")).unwrap();
    assert_eq!(doc.get_as::<Item>(Target::Resource).unwrap().name, "Sword");
}

#[test]
fn an_edit_that_would_not_read_back_is_refused() {
    // `]` after the value starts a key (the engine reads `]b` = 2 from what follows): the
    // new line would not be property `b`. Refused, the document unchanged. (Found by the
    // `resource_text` fuzz body: the edit used to succeed and `get` then found nothing.)
    let text = "[gd_resource type=\"Resource\" format=3]\n\n[resource]\na = 1 ]\n";
    let mut doc = TextResource::parse(text).unwrap();
    let err = doc
        .set_property(Target::Resource, "b", &Variant::Int(2))
        .unwrap_err();
    assert!(err.to_string().contains("would not read back"), "{err}");
    assert_eq!(doc.to_string(), text);
    // The same for a node added after such a line: its header would be read as a key.
    let scene = "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\"]\nx = 1 junk";
    let mut doc = TextResource::parse(scene).unwrap();
    assert!(doc.add_node(".", "B", "Node").is_err());
    assert_eq!(doc.to_string(), scene);
}

#[test]
fn edits_are_not_held_to_the_limits_the_text_was_read_with() {
    // 70 000 sections, read with the section limit lifted: an edit reads the result back
    // without the default limit of 65 536 (it used to fail with LimitExceeded).
    let mut text = String::from("[gd_scene format=3]\n[node name=\"R\"]\n");
    text.push_str(&"[editable path=\"x\"]\n".repeat(70_000));
    let limits = godot_serde::config_file::Limits::new().with_max_sections(usize::MAX);
    let mut doc = TextResource::parse_with(&text, godot_serde::Config::godot4(), &limits).unwrap();
    doc.set_property(Target::Node("."), "visible", &Variant::Bool(false))
        .unwrap();
    assert!(
        doc.to_string()
            .starts_with("[gd_scene format=3]\n[node name=\"R\"]\nvisible = false\n")
    );
}

#[test]
fn hostile_input_is_a_clear_error() {
    let cases: &[(&str, (usize, usize))] = &[
        ("", (1, 1)),
        ("x", (1, 1)),
        ("[gd_scene format=3]\n[node name=\"A\"\n", (3, 1)),
        ("[gd_scene format=3]\n\n[node name=]\n", (3, 12)),
        (
            "[gd_resource type=\"R\" format=3]\n[resource]\na = Vector2(1,\n",
            (4, 1),
        ),
        (
            "[gd_scene format=3]\n[node name=\"A\" type=\"Node\"]\n[resource]\n",
            (3, 1),
        ),
        ("[gd_scene format=3]\n[connection from=\".\"]\n", (2, 1)),
        ("[gd_scene format=3]\n[node 7]\n", (2, 7)),
    ];
    for (text, (line, column)) in cases {
        let err = TextResource::parse(text).unwrap_err();
        match err.kind() {
            ErrorKind::TextSyntax {
                line: l, column: c, ..
            } => {
                assert_eq!((*l, *c), (*line, *column), "{text:?}: {err}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let err = TextResource::parse("[gd_scene format=9]\n").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
    // Nesting past the depth limit.
    let deep = format!(
        "[gd_resource type=\"R\" format=3]\n[resource]\na = {}{}\n",
        "[".repeat(200),
        "]".repeat(200)
    );
    let err = TextResource::parse(&deep).unwrap_err();
    assert!(err.to_string().contains("recursion limit"), "{err}");
    // Section and text limits.
    let limits = godot_serde::config_file::Limits::new().with_max_sections(3);
    let many = "[gd_scene format=3]\n[node name=\"A\"]\n[node name=\"B\" parent=\".\"]\n[node name=\"C\" parent=\".\"]\n";
    let err = TextResource::parse_with(many, godot_serde::Config::godot4(), &limits).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LimitExceeded { max: 3, .. }),
        "{err}"
    );
    // Every prefix of every fixture: a value or an error, never a panic.
    for name in FIXTURES {
        let text = fixture(name);
        for end in (0..text.len()).filter(|&e| text.is_char_boundary(e)) {
            if let Ok(doc) = TextResource::parse(&text[..end]) {
                let _ = doc.to_model();
            }
        }
    }
}

/// A scene of `n` nodes: a root, a node `Big` with `n - 2` children, and a node `Other`.
fn wide_scene(n: usize) -> String {
    let mut s = String::from(
        "[gd_scene format=3]\n\n[node name=\"R\" type=\"Node\"]\n\n[node name=\"Big\" type=\"Node\" parent=\".\"]\n",
    );
    for i in 0..n - 2 {
        s.push_str(&format!(
            "\n[node name=\"c{i}\" type=\"Node\" parent=\"Big\"]\nv = {i}\n"
        ));
    }
    s.push_str("\n[node name=\"Other\" type=\"Node\" parent=\".\"]\n");
    s
}

/// Removing or moving a subtree is linear in the scene: N vs 4N nodes, same run, best of
/// three; a quadratic cost gives 16. Removal compared every section with every node of the
/// subtree (13–18 × measured at 4,000 vs 16,000), and every edit copied the text once per
/// changed range (a reparent of 14,000 nodes: 7.6 ×, 4.1–4.9 × now).
#[test]
fn subtree_edits_are_linear() {
    let time = |n: usize, edit: &dyn Fn(&mut TextResource)| {
        let doc = TextResource::parse(&wide_scene(n)).unwrap();
        (0..3)
            .map(|_| {
                let mut d = doc.clone();
                let start = std::time::Instant::now();
                edit(&mut d);
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let remove = |d: &mut TextResource| d.remove_node("Big").unwrap();
    let reparent = |d: &mut TextResource| d.reparent_node("Big", "Other").unwrap();
    for (what, edit) in [
        ("remove", &remove as &dyn Fn(&mut TextResource)),
        ("reparent", &reparent),
    ] {
        let small = time(6_000, edit);
        let big = time(24_000, edit);
        let ratio = big / small;
        println!("{what}: 6,000 nodes {small:.4} s, 24,000 nodes {big:.4} s ({ratio:.1} ×)");
        assert!(ratio < 8.0, "{what}: {ratio:.1} × for 4 × the nodes");
    }
}
