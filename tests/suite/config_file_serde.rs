//! `config_file::to_string` / `from_str` with a struct of sections. The expected text is
//! derived by hand from `ConfigFile.save()`'s layout as the 4.6 and 3.2.3 records show it
//! (`global_then_section`: `config_version=5\n\n[application]\n\nconfig/name="Game"\n`).

use godot_serde::{Config, config_file};
use serde_derive::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Application {
    #[serde(rename = "config/name")]
    name: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Project {
    config_version: u32,
    application: Application,
}

fn project() -> Project {
    Project {
        config_version: 5,
        application: Application {
            name: "Game".into(),
        },
    }
}

#[test]
fn a_struct_of_sections_writes_as_configfile_save() {
    let text = config_file::to_string(&project()).unwrap();
    assert_eq!(
        text,
        "config_version=5\n\n[application]\n\nconfig/name=\"Game\"\n"
    );
    assert_eq!(config_file::from_str::<Project>(&text).unwrap(), project());
}

#[test]
fn godot3_writes_the_sectionless_keys_under_an_empty_header() {
    let text = config_file::to_string_with(&project(), Config::godot3()).unwrap();
    assert_eq!(
        text,
        "[]\n\nconfig_version=5\n\n[application]\n\nconfig/name=\"Game\"\n"
    );
    let back: Project = config_file::from_str_with(&text, Config::godot3()).unwrap();
    assert_eq!(back, project());
}

#[test]
fn a_map_of_maps_reads_any_file() {
    let text = "; comment\n[a]\nx=1\n[b]\ny=Vector2(1, 2)\n[a]\nz=\"s\"\n";
    let m: BTreeMap<String, BTreeMap<String, godot_serde::Variant>> =
        config_file::from_str(text).unwrap();
    assert_eq!(m["a"].len(), 2);
    assert_eq!(m["b"]["y"].to_string(), "Vector2(1, 2)");
}

#[test]
fn a_key_after_an_object_value_follows_its_line_break() {
    // Godot 4.6 `value_object_multiline`: `ConfigFile.save()` writes the object's own newline
    // and then the line's: `ref=Object(RefCounted,"script":null)\n\nafter=1\n`.
    use godot_serde::{Object, Variant, config_file::Document};
    let config = Config::godot4().with_allow_objects(true);
    let mut doc = Document::new(config);
    let obj = Object {
        class: "RefCounted".into(),
        properties: vec![("script".into(), Variant::Nil)],
    };
    doc.set("o", "ref", &Variant::from(obj)).unwrap();
    doc.set("o", "after", &Variant::Int(1)).unwrap();
    assert_eq!(
        doc.to_string(),
        "[o]\n\nref=Object(RefCounted,\"script\":null)\n\nafter=1\n"
    );
}

#[test]
fn project_godot_input_events_read_as_data_with_the_default_config() {
    // The shape Godot 4 writes for an action in `[input]` (abridged property list).
    use godot_serde::config_file::Document;
    let text = "[input]\n\njump={\n\"deadzone\": 0.5,\n\"events\": [Object(InputEventKey,\"resource_local_to_scene\":false,\"keycode\":32,\"script\":null)\n]\n}\n";
    let doc = Document::parse(text, Config::godot4()).unwrap();
    let v = doc.get("input", "jump").unwrap().unwrap();
    // `{:#}` is exactly the engine's text (`var_to_str`); the default Display is one line.
    assert_eq!(
        format!("{v:#}"),
        text.trim_end().trim_start_matches("[input]\n\njump=")
    );
    assert_eq!(doc.to_string(), text);
}

#[test]
fn document_values_as_rust_types() {
    use godot_serde::config_file::Document;
    let text =
        "[display]\n\nwindow/size/viewport_width=1152 ; wide\nwindow/size/viewport_height=648\n";
    let mut doc = Document::parse(text, Config::godot4()).unwrap();
    assert_eq!(
        doc.get_as::<u32>("display", "window/size/viewport_width")
            .unwrap(),
        Some(1152)
    );
    assert_eq!(doc.get_as::<u32>("display", "missing").unwrap(), None);
    doc.set_as("display", "window/size/viewport_width", &1920u32)
        .unwrap();
    doc.set_as("display", "window/stretch/mode", "canvas_items")
        .unwrap();
    assert_eq!(
        doc.to_string(),
        "[display]\n\nwindow/size/viewport_width=1920 ; wide\nwindow/size/viewport_height=648\nwindow/stretch/mode=\"canvas_items\"\n"
    );
    assert!(
        doc.remove("display", "window/size/viewport_height")
            .unwrap()
    );
    assert_eq!(
        doc.to_string(),
        "[display]\n\nwindow/size/viewport_width=1920 ; wide\nwindow/stretch/mode=\"canvas_items\"\n"
    );
}

#[test]
fn a_new_sectionless_key_goes_before_the_first_section_after_the_comments() {
    use godot_serde::{Variant, config_file::Document};
    let text = "; Engine configuration file.\n\n[application]\n\nconfig/name=\"Demo\"\n";
    let mut doc = Document::parse(text, Config::godot4()).unwrap();
    doc.set("", "config_version", &Variant::Int(5)).unwrap();
    assert_eq!(
        doc.to_string(),
        "; Engine configuration file.\n\nconfig_version=5\n\n[application]\n\nconfig/name=\"Demo\"\n"
    );
}
