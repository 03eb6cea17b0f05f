//! Writing a [`ResourceFile`] as text, laid out as the engines' `ResourceFormatSaverText`
//! writes it (`scene/resources/resource_format_text.cpp`, 3.2 and 4.x).

use core::fmt::Write as _;

use super::model::{ResourceFile, ResourceFormat, SceneNode};
use super::text::quoted;
use crate::config_file::encode_key;
use crate::text::variant_to_string_with;
use crate::{Config, GodotVersion, Variant};

/// `Object.CONNECT_PERSIST`, the flags the saver leaves out.
const CONNECT_PERSIST: i64 = 2;

/// The file's text as the engine's saver lays it out, values written for `version` (Godot 3,
/// or a Godot 4 version: 4.5+ and 4.0 – 4.4 spell floats differently). A `Godot3` model is
/// written in Godot 3's layout whatever `version` says, and a `Godot4` one in Godot 4's
/// (with `GodotVersion::V3` given, as 4.5+ writes floats).
///
/// The layout, per engine: the header (`[gd_scene …]` or `[gd_resource type=… …]` with
/// `script_class` (Godot 4), `load_steps` when above 1, `format`, `uid`), a blank line,
/// the `[ext_resource]` lines (Godot 4: `type uid path id`, ids quoted; Godot 3:
/// `path type id`, ids bare) and a blank line, each `[sub_resource]` with its properties and
/// a blank line, then `[resource]` and its properties, or the nodes (`name type parent owner
/// index unique_id`, other fields, `groups`, `instance_placeholder`, `instance`) separated
/// by blank lines, the connections and the editable paths. `load_steps` is counted from the
/// model: external and sub-resources plus the main resource.
#[must_use]
pub fn write_text(file: &ResourceFile, version: GodotVersion) -> String {
    let g4 = file.format == ResourceFormat::Godot4;
    let version = match (g4, version.is_godot4()) {
        (true, false) => GodotVersion::V4_5,
        (false, _) => GodotVersion::V3,
        (true, true) => version,
    };
    let config = Config::new(version).with_allow_objects(true);
    let value = |v: &Variant| variant_to_string_with(v, config);
    let id = |id: &str| {
        if g4 { quoted(id) } else { id.to_owned() }
    };
    let mut out = String::new();
    let scene = file.scene.as_ref();
    out.push_str(if scene.is_some() {
        "[gd_scene "
    } else {
        "[gd_resource "
    });
    if scene.is_none() {
        let _ = write!(out, "type={} ", quoted(&file.class));
        if let (true, Some(sc)) = (g4, &file.script_class) {
            let _ = write!(out, "script_class={} ", quoted(sc));
        }
    }
    let steps = file.ext_resources.len() + file.sub_resources.len() + 1;
    if steps > 1 {
        let _ = write!(out, "load_steps={steps} ");
    }
    let _ = write!(out, "format={}", if g4 { 3 } else { 2 });
    if let (true, Some(uid)) = (g4, &file.uid) {
        let _ = write!(out, " uid={}", quoted(uid));
    }
    out.push_str("]\n\n");
    for e in &file.ext_resources {
        if g4 {
            let _ = write!(out, "[ext_resource type={}", quoted(&e.class));
            if let Some(uid) = &e.uid {
                let _ = write!(out, " uid={}", quoted(uid));
            }
            let _ = writeln!(out, " path={} id={}]", quoted(&e.path), id(&e.id));
        } else {
            let _ = writeln!(
                out,
                "[ext_resource path={} type={} id={}]",
                quoted(&e.path),
                quoted(&e.class),
                e.id
            );
        }
    }
    if !file.ext_resources.is_empty() {
        out.push('\n');
    }
    let props = |out: &mut String, props: &[(String, Variant)]| {
        for (k, v) in props {
            let _ = writeln!(out, "{} = {}", encode_key(k, config), value(v));
        }
    };
    for s in &file.sub_resources {
        let _ = writeln!(
            out,
            "[sub_resource type={} id={}]",
            quoted(&s.class),
            id(&s.id)
        );
        props(&mut out, &s.properties);
        out.push('\n');
    }
    let Some(scene) = scene else {
        out.push_str("[resource]\n");
        props(&mut out, &file.properties);
        return out;
    };
    for (i, n) in scene.nodes.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_node(&mut out, n, g4, &value);
        props(&mut out, &n.properties);
    }
    for (i, c) in scene.connections.iter().enumerate() {
        // Godot 3.2.3 writes no blank line before the first connection.
        if i == 0 && g4 {
            out.push('\n');
        }
        let _ = write!(
            out,
            "[connection signal={} from={} to={} method={}",
            quoted(&c.signal),
            quoted(&c.from),
            quoted(&c.to),
            quoted(&c.method)
        );
        if let Some(f) = c.flags.filter(|&f| f != CONNECT_PERSIST) {
            let _ = write!(out, " flags={f}");
        }
        if let (true, Some(u)) = (g4, c.unbinds.filter(|&u| u > 0)) {
            let _ = write!(out, " unbinds={u}");
        }
        if !c.binds.is_empty() {
            let binds = super::text::array_of(c.binds.clone());
            let _ = write!(out, " binds= {}", value(&binds));
        }
        for (k, v) in &c.other {
            let _ = write!(out, " {k}={}", value(v));
        }
        out.push_str("]\n");
    }
    for (i, p) in scene.editable.iter().enumerate() {
        if i == 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "[editable path={}]", quoted(p));
    }
    out
}

/// A `[node …]` line.
fn write_node(out: &mut String, n: &SceneNode, g4: bool, value: &dyn Fn(&Variant) -> String) {
    let _ = write!(out, "[node name={}", quoted(&n.name));
    if let Some(t) = &n.class {
        let _ = write!(out, " type={}", quoted(t));
    }
    if let Some(p) = &n.parent {
        let _ = write!(out, " parent={}", quoted(p));
    }
    if let Some(o) = n.owner.as_deref().filter(|&o| o != ".") {
        let _ = write!(out, " owner={}", quoted(o));
    }
    if let Some(i) = n.index.filter(|&i| i >= 0) {
        let _ = write!(out, " index=\"{i}\"");
    }
    if let (true, Some(u)) = (g4, n.unique_id) {
        let _ = write!(out, " unique_id={u}");
    }
    for (k, v) in &n.other {
        let _ = write!(out, " {k}={}", value(v));
    }
    if !n.groups.is_empty() {
        let mut groups = n.groups.clone();
        groups.sort();
        if g4 {
            let list: Vec<String> = groups.iter().map(|g| quoted(g)).collect();
            let _ = write!(out, " groups=[{}]", list.join(", "));
        } else {
            out.push_str(" groups=[\n");
            for g in &groups {
                let _ = writeln!(out, "{},", quoted(g));
            }
            out.push(']');
        }
    }
    if let Some(p) = &n.instance_placeholder {
        let _ = write!(
            out,
            " instance_placeholder={}",
            value(&Variant::from(p.as_str()))
        );
    }
    if let Some(i) = &n.instance {
        let _ = write!(out, " instance={}", value(i));
    }
    out.push_str("]\n");
}
