//! Scenes and resources (`.tscn`, `.tres` text, `.scn`, `.res` binary): the `resource show`
//! and `resource set` commands. Every command reads a file through [`load`], one match arm
//! per form (binary by its magic `RSRC` / `RSCC`, text otherwise).

use crate::Ui;
use crate::input::Failure;
use clap::{Args, Subcommand};
use godot_serde::resource::{
    ResourceFile, ResourceFormat, Target, TextResource, default_limits, read_binary,
};
use godot_serde::text::{parse_variant_with, variant_to_string_with};
use godot_serde::{Config, GodotVersion, Variant};
use serde_json::{Map, Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `resource` subcommands.
#[derive(Subcommand, Debug)]
pub enum ResourceCommand {
    /// Show a scene's nodes (types, parents, groups, instances, properties) and connections,
    /// or a resource's class and properties, with its external and sub-resources.
    Show(ShowArgs),
    /// Set one property of a scene's node (its path: `.` is the root, `Player/Arm`) or of a
    /// resource (`resource` for the main one, or a sub-resource's id), keeping every other
    /// byte of the file.
    Set(SetArgs),
    /// Convert a scene or resource to another form, by the extensions (.res, .scn binary,
    /// .tres, .tscn text, either way; a binary output compressed with --compress).
    Convert(crate::resource_convert::ConvertArgs),
}

/// `resource show` options.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The `.tscn` / `.tres` / `.scn` / `.res` file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print JSON (values in the `--json` mapping of `inspect`).
    #[arg(long)]
    pub json: bool,
}

/// `resource set` options.
#[derive(Args, Debug)]
pub struct SetArgs {
    /// The `.tscn` / `.tres` file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// A node path (scenes: `.` is the root), or `resource` / a sub-resource id (resources).
    #[arg(value_name = "NODE_OR_RESOURCE")]
    pub target: String,
    /// The property, e.g. `position`, `metadata/hp`.
    #[arg(value_name = "PROP")]
    pub property: String,
    /// The value in the file's engine's text form, e.g. `Vector2(1, 2)` (Godot 3:
    /// `Vector2( 1, 2 )` reads too), `"text"`, `ExtResource("1_abcde")`; `null` removes it.
    #[arg(value_name = "VALUE", allow_hyphen_values = true)]
    pub value: String,
    /// Write here instead of in place.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

fn failure(path: &Path, e: &godot_serde::Error) -> Failure {
    Failure::input(format!("{}: {e}", path.display()))
}

/// A file's text, refused past the text limit before it is read (64 MiB).
fn read_text(path: &Path) -> Result<String, Failure> {
    let max = default_limits().max_text_size();
    let len = std::fs::metadata(path)
        .map_err(|e| Failure::input(format!("cannot open {}: {e}", path.display())))?
        .len();
    if len > max as u64 {
        return Err(Failure::input(format!(
            "{}: {len} bytes, more than the {max} bytes a resource text may have",
            path.display()
        )));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes)
        .map_err(|e| Failure::input(format!("{}: not UTF-8 text: {e}", path.display())))
}

/// The text document of a `.tscn` / `.tres` file.
fn load_text(path: &Path) -> Result<TextResource, Failure> {
    TextResource::parse(&read_text(path)?).map_err(|e| failure(path, &e))
}

/// The largest binary file read: 256 MiB.
const MAX_BINARY: u64 = 256 << 20;

/// A scene or resource file read into the model, whatever its form: binary when it starts
/// with `RSRC` or `RSCC` (whatever its extension), text otherwise.
pub fn load(path: &Path) -> Result<ResourceFile, Failure> {
    let mut magic = [0u8; 4];
    let is_binary = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .is_ok()
        && (&magic == b"RSRC" || &magic == b"RSCC");
    if !is_binary {
        return load_text(path)?.to_model().map_err(|e| failure(path, &e));
    }
    let len = std::fs::metadata(path)
        .map_err(|e| Failure::input(format!("cannot open {}: {e}", path.display())))?
        .len();
    if len > MAX_BINARY {
        return Err(Failure::input(format!(
            "{}: {len} bytes, over the limit of {MAX_BINARY} bytes",
            path.display()
        )));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))?;
    read_binary(&bytes).map_err(|e| failure(path, &e))
}

fn config_of(file: &ResourceFile) -> Config {
    match file.format {
        ResourceFormat::Godot3 => Config::godot3(),
        _ => Config::new(GodotVersion::V4_5),
    }
}

fn node_path(parent: Option<&str>, name: &str) -> String {
    match parent {
        None => ".".to_owned(),
        Some(".") => name.to_owned(),
        Some(p) => format!("{p}/{name}"),
    }
}

fn write_err(e: std::io::Error) -> Failure {
    Failure::input(format!("cannot write the output: {e}"))
}

/// `resource show`.
pub fn show(args: &ShowArgs, out: &mut dyn Write, _ui: &Ui) -> Result<(), Failure> {
    let file = load(&args.file)?;
    if args.json {
        let text = serde_json::to_string_pretty(&to_json(&file))
            .map_err(|e| Failure::input(e.to_string()))?;
        return writeln!(out, "{text}").map_err(write_err);
    }
    let config = config_of(&file);
    let value = |v: &Variant| variant_to_string_with(v, config).replace('\n', "\n    ");
    let mut s = String::new();
    let engine = match file.format {
        ResourceFormat::Godot3 => "Godot 3",
        _ => "Godot 4",
    };
    match &file.scene {
        Some(_) => s.push_str(&format!("scene ({engine})")),
        None => s.push_str(&format!("resource {} ({engine})", file.class)),
    }
    if let Some(c) = &file.script_class {
        s.push_str(&format!(" script_class={c}"));
    }
    if let Some(u) = &file.uid {
        s.push_str(&format!(" {u}"));
    }
    s.push('\n');
    for e in &file.ext_resources {
        s.push_str(&format!("ext_resource {}: {} {}\n", e.id, e.class, e.path));
    }
    let props = |s: &mut String, props: &[(String, Variant)]| {
        for (k, v) in props {
            s.push_str(&format!("  {k} = {}\n", value(v)));
        }
    };
    for r in &file.sub_resources {
        s.push_str(&format!("sub_resource {}: {}\n", r.id, r.class));
        props(&mut s, &r.properties);
    }
    match &file.scene {
        None => {
            s.push_str("resource\n");
            props(&mut s, &file.properties);
        }
        Some(scene) => {
            for n in &scene.nodes {
                s.push_str(&format!("node {}", node_path(n.parent.as_deref(), &n.name)));
                if n.parent.is_none() {
                    s.push_str(&format!(" {}", n.name));
                }
                if let Some(c) = &n.class {
                    s.push_str(&format!(" ({c})"));
                }
                if let Some(i) = &n.instance {
                    s.push_str(&format!(" instance={}", value(i)));
                }
                if !n.groups.is_empty() {
                    s.push_str(&format!(" groups={}", n.groups.join(",")));
                }
                s.push('\n');
                props(&mut s, &n.properties);
            }
            for c in &scene.connections {
                s.push_str(&format!(
                    "connection {}: {} -> {} {}",
                    c.signal, c.from, c.to, c.method
                ));
                if !c.binds.is_empty() {
                    s.push_str(&format!(
                        " binds={}",
                        value(&Variant::from(c.binds.clone()))
                    ));
                }
                s.push('\n');
            }
            for e in &scene.editable {
                s.push_str(&format!("editable {e}\n"));
            }
        }
    }
    out.write_all(s.as_bytes()).map_err(write_err)
}

fn props_json(props: &[(String, Variant)]) -> Value {
    let mut m = Map::new();
    for (k, v) in props {
        m.insert(k.clone(), crate::json::to_json(v));
    }
    Value::Object(m)
}

fn to_json(file: &ResourceFile) -> Value {
    let mut out = json!({
        "format": match file.format { ResourceFormat::Godot3 => "godot3", _ => "godot4" },
        "class": file.class,
        "script_class": file.script_class,
        "uid": file.uid,
        "ext_resources": file.ext_resources.iter().map(|e| json!({
            "id": e.id, "type": e.class, "path": e.path, "uid": e.uid,
        })).collect::<Vec<_>>(),
        "sub_resources": file.sub_resources.iter().map(|s| json!({
            "id": s.id, "type": s.class, "properties": props_json(&s.properties),
        })).collect::<Vec<_>>(),
    });
    let Some(map) = out.as_object_mut() else {
        return out;
    };
    match &file.scene {
        None => {
            map.insert("properties".into(), props_json(&file.properties));
        }
        Some(scene) => {
            let nodes = scene.nodes.iter().map(|n| {
                json!({
                    "path": node_path(n.parent.as_deref(), &n.name),
                    "name": n.name,
                    "type": n.class,
                    "parent": n.parent,
                    "instance": n.instance.as_ref().map(crate::json::to_json),
                    "groups": n.groups,
                    "properties": props_json(&n.properties),
                })
            });
            map.insert("nodes".into(), Value::Array(nodes.collect()));
            let conns = scene.connections.iter().map(|c| {
                json!({
                    "signal": c.signal, "from": c.from, "to": c.to, "method": c.method,
                    "flags": c.flags, "unbinds": c.unbinds,
                    "binds": c.binds.iter().map(crate::json::to_json).collect::<Vec<_>>(),
                })
            });
            map.insert("connections".into(), Value::Array(conns.collect()));
            map.insert("editable".into(), json!(scene.editable));
        }
    }
    out
}

/// `resource set`.
pub fn set(args: &SetArgs, ui: &Ui) -> Result<(), Failure> {
    let path = &args.file;
    let mut doc = load_text(path)?;
    let value = parse_variant_with(&args.value, doc.config())
        .map_err(|e| Failure::usage(format!("VALUE {:?}: {e}", args.value)))?;
    let target = if doc.is_scene() {
        Target::Node(&args.target)
    } else if args.target == "resource" || args.target == "." {
        Target::Resource
    } else {
        Target::SubResource(&args.target)
    };
    doc.set_property(target, &args.property, &value)
        .map_err(|e| failure(path, &e))?;
    let dest = args.output.as_deref().unwrap_or(path);
    // Through a temporary file beside the destination, so a failed write leaves it whole.
    let tmp = dest.with_extension("godot-serde-tmp");
    std::fs::write(&tmp, doc.to_string())
        .and_then(|()| std::fs::rename(&tmp, dest))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Failure::input(format!("cannot write {}: {e}", dest.display()))
        })?;
    ui.note(&format!(
        "{}: {} {} set",
        dest.display(),
        args.target,
        args.property
    ));
    Ok(())
}
