//! Body of the fuzz target `resource_text` (`fuzz/fuzz_targets/resource_text.rs`), replayed on
//! the stable toolchain by `tests/suite/resource_text_fuzz_replay.rs`. The input is a
//! `.tscn` / `.tres` text (non-UTF-8 input is skipped: the reader takes `&str`).

use godot_serde::ErrorKind;
use godot_serde::resource::{ResourceFormat, Target, TextResource, write_text};
use godot_serde::{GodotVersion, Variant};

/// `resource_text`: parsing never panics and fails only with a syntax, limit or unsupported
/// error; a parsed document prints its input byte for byte, reads into the model, and the
/// model written out by `write_text` parses again with as many nodes and resources; setting
/// a property on the first node (or the main resource) reads back that value, and renaming
/// or removing a node never panics.
pub fn resource_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut doc = match TextResource::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            assert!(
                matches!(
                    e.kind(),
                    ErrorKind::TextSyntax { .. }
                        | ErrorKind::LimitExceeded { .. }
                        | ErrorKind::Unsupported(_)
                ),
                "{e:?}"
            );
            return;
        }
    };
    assert_eq!(doc.to_string(), text);
    let Ok(model) = doc.to_model() else {
        return;
    };
    let version = match model.format {
        ResourceFormat::Godot3 => GodotVersion::V3,
        _ => GodotVersion::V4_5,
    };
    let written = write_text(&model, version);
    let again = TextResource::parse(&written)
        .unwrap_or_else(|e| panic!("write_text gave text that does not parse: {e}\n{written}"));
    let back = again.to_model().unwrap();
    assert_eq!(back.ext_resources.len(), model.ext_resources.len());
    assert_eq!(back.sub_resources.len(), model.sub_resources.len());
    assert_eq!(
        back.scene.as_ref().map(|s| s.nodes.len()),
        model.scene.as_ref().map(|s| s.nodes.len())
    );
    let target = if doc.is_scene() {
        Target::Node(".")
    } else {
        Target::Resource
    };
    if doc
        .set_property(target, "fuzz_value", &Variant::Int(7))
        .is_ok()
    {
        assert_eq!(
            doc.get(target, "fuzz_value").unwrap(),
            Some(Variant::Int(7))
        );
    }
    if let Some(first) = model.scene.as_ref().and_then(|s| s.nodes.get(1)) {
        let path = match first.parent.as_deref() {
            Some(".") | None => first.name.clone(),
            Some(p) => format!("{p}/{}", first.name),
        };
        let _ = doc.rename_node(&path, "Renamed");
        let _ = doc.remove_node("Renamed");
        let _ = doc.add_node(".", "Added", "Node");
    }
}
