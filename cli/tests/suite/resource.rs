//! `godot-serde resource show` and `resource set` on the files Godot 4.6 and 3.2.3 saved
//! (`tests/fixtures/resource/`); the expected text is read off those files by hand.

use crate::common::{root, run};

fn fixture(name: &str) -> String {
    root()
        .join("tests/fixtures/resource")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("godot_serde_cli_res_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn show_lists_a_scene() {
    let r = run(&["resource", "show", &fixture("g4_main.tscn")], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.out(),
        "scene (Godot 4)\n\
         ext_resource 1: Script res://sub.gd\n\
         ext_resource 2: PackedScene res://sub.tscn\n\
         node . Main (Node2D)\n  script = ExtResource(\"1\")\n\
         node Player (Sprite2D) groups=alpha,players\n  unique_name_in_owner = true\n  \
         position = Vector2(3, 4.5)\n  metadata/hp = 10\n\
         node Player/Deep (Node)\n\
         node SubInst (Node2D) instance=ExtResource(\"2\")\n\
         connection visibility_changed: Player -> . _on_x\n"
    );
    // Godot 3's spelling for a Godot 3 file, binds shown.
    let r = run(&["resource", "show", &fixture("g3_main.tscn")], b"");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.out().contains("  position = Vector2( 3, 4.5 )\n"),
        "{}",
        r.out()
    );
    assert!(
        r.out()
            .ends_with("connection visibility_changed: Player -> . _on_x binds=[ 1, \"a\" ]\n"),
        "{}",
        r.out()
    );
}

#[test]
fn show_json_lists_a_resource() {
    let r = run(
        &["resource", "show", "--json", &fixture("g4_item.tres")],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["class"], "Resource");
    assert_eq!(v["script_class"], "Item");
    assert_eq!(v["ext_resources"][0]["path"], "res://item.gd");
    assert_eq!(v["sub_resources"][0]["id"], "Gradient_howwi");
    assert_eq!(v["properties"]["name"], "Sword");
    assert_eq!(v["properties"]["metadata/note"], "hi");
    let r = run(
        &["resource", "show", "--json", &fixture("g4_main.tscn")],
        b"",
    );
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["nodes"][2]["path"], "Player/Deep");
    assert_eq!(
        v["nodes"][1]["groups"],
        serde_json::json!(["alpha", "players"])
    );
    assert_eq!(v["connections"][0]["method"], "_on_x");
}

#[test]
fn set_changes_one_value_and_nothing_else() {
    let original = std::fs::read_to_string(fixture("g4_main.tscn")).unwrap();
    let file = temp("set.tscn");
    std::fs::write(&file, &original).unwrap();
    let f = file.to_string_lossy().into_owned();
    let r = run(
        &[
            "resource",
            "set",
            &f,
            "Player",
            "position",
            "Vector2(5, 6.25)",
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        original.replace("position = Vector2(3, 4.5)", "position = Vector2(5, 6.25)")
    );
    // -o leaves the input alone; a Godot 3 resource's sub-resource by id.
    let out = temp("out.tres");
    let o = out.to_string_lossy().into_owned();
    let r = run(
        &[
            "resource",
            "set",
            &fixture("g3_item.tres"),
            "1",
            "offsets",
            "PoolRealArray( 0, 0.5 )",
            "-o",
            &o,
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let g3 = std::fs::read_to_string(fixture("g3_item.tres")).unwrap();
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        g3.replace(
            "0, 0, 1, 0.5 )\n",
            "0, 0, 1, 0.5 )\noffsets = PoolRealArray( 0, 0.5 )\n"
        )
    );
    // Errors: no such node (1), a value that does not parse (2), a file that is no resource (1).
    run(&["resource", "set", &f, "Nope", "position", "1"], b"").fails_with("no node at \"Nope\"");
    let r = run(
        &["resource", "set", &f, "Player", "position", "Vector2(5,"],
        b"",
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let bad = temp("bad.tscn");
    std::fs::write(&bad, "[gd_scene format=3]\n[node name=]\n").unwrap();
    run(&["resource", "show", &bad.to_string_lossy()], b"").fails_with("line 2, column 12");
}
