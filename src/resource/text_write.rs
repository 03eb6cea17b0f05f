//! Writing a [`ResourceFile`] as text, laid out as the engines' `ResourceFormatSaverText`
//! writes it (`scene/resources/resource_format_text.cpp`, 3.2 and 4.x).

use core::fmt::Write as _;

use super::model::{ResourceFile, ResourceFormat, SceneNode};
use super::text::quoted;
use crate::config_file::encode_key;
use crate::text::writer::{Dialect, write_variant};
use crate::{Config, GodotVersion, Variant};

/// `Object.CONNECT_PERSIST`, the flags the saver leaves out.
const CONNECT_PERSIST: i64 = 2;

/// The saver writes a PackedByteArray of more than this many bytes in base64, and so the
/// whole file as `format=4` (`ResourceFormatSaverTextInstance::_find_resources`, 4.3+).
const BASE64_ABOVE: usize = 64;

/// Whether `version`'s saver has the `format=4` form: Godot 4.3 and later (4.0 – 4.2 always
/// write `format=3`, Godot 3 `format=2`).
fn has_format4(version: GodotVersion) -> bool {
    matches!(
        version,
        GodotVersion::V4_3 | GodotVersion::V4_4 | GodotVersion::V4_5
    )
}

/// Whether the Godot 4.3+ saver writes `file` as `format=4`: when a value it saves holds a
/// PackedByteArray of more than 64 bytes or a PackedVector4Array (even an empty one), at any
/// depth of Arrays and Dictionaries (keys too), in the main resource, a sub-resource, a
/// node's properties or a connection's binds. Resource references are not followed: the
/// sub-resources are looked at themselves, the external ones are other files. Walked with a
/// list, not recursion, so nesting depth costs no stack.
fn needs_format4<'a>(file: &'a ResourceFile) -> bool {
    let values = |p: &'a [(String, Variant)]| p.iter().map(|(_, v)| v);
    let mut todo: Vec<&Variant> = values(&file.properties).collect();
    for s in &file.sub_resources {
        todo.extend(values(&s.properties));
    }
    if let Some(scene) = &file.scene {
        for n in &scene.nodes {
            todo.extend(values(&n.properties));
            todo.extend(values(&n.other));
            todo.extend(n.instance.iter());
        }
        for c in &scene.connections {
            todo.extend(c.binds.iter());
        }
    }
    while let Some(v) = todo.pop() {
        match v {
            Variant::PackedByteArray(a) if a.0.len() > BASE64_ABOVE => return true,
            Variant::PackedVector4Array(_) => return true,
            Variant::Array(a) => todo.extend(a.items.iter()),
            Variant::Dictionary(d) => {
                for (k, v) in d.iter() {
                    todo.push(k);
                    todo.push(v);
                }
            }
            _ => {}
        }
    }
    false
}

/// The file's text as the engine's saver lays it out, values written for `version` (Godot 3,
/// or a Godot 4 version: 4.5+ and 4.0 – 4.4 spell floats differently). A `Godot3` model is
/// written in Godot 3's layout whatever `version` says, and a `Godot4` one in Godot 4's
/// (with `GodotVersion::V3` given, as 4.5+ writes it).
///
/// The format number is the engine's: `format=2` for Godot 3; for Godot 4, `format=3`, or
/// `format=4` when the saver of Godot 4.3+ (`V4_3`, `V4_4`, `V4_5`) would write one: when a
/// value of the file holds a PackedByteArray of more than 64 bytes or a PackedVector4Array,
/// at any depth. A `format=4` file then has every PackedByteArray in base64
/// (`PackedByteArray("AAcO")`, `PackedByteArray()` when empty; lists of numbers otherwise),
/// and, from 4.5, negative infinity as `-inf` (`inf_neg` otherwise). `V4_0` (4.0 – 4.2)
/// always writes `format=3`.
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
    let format4 = g4 && has_format4(version) && needs_format4(file);
    let dialect = if format4 {
        Dialect::of(version).format4()
    } else {
        Dialect::of(version)
    };
    let value = |v: &Variant| {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = write_variant(&mut out, v, dialect);
        out
    };
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
    let format = match (g4, format4) {
        (false, _) => 2,
        (true, false) => 3,
        (true, true) => 4,
    };
    let _ = write!(out, "format={format}");
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
        // Godot 4.6: the unique ids along `from` and `to` into an instanced scene, after the
        // flags, named as the saver names them.
        for (names, key) in [
            (CONNECTION_FROM_IDS, "from_uid_path"),
            (CONNECTION_TO_IDS, "to_uid_path"),
        ] {
            if let Some((_, v)) = c.other.iter().find(|(k, _)| names.contains(&k.as_str())) {
                let _ = write!(out, " {key}={}", value(v));
            }
        }
        if let (true, Some(u)) = (g4, c.unbinds.filter(|&u| u > 0)) {
            let _ = write!(out, " unbinds={u}");
        }
        if !c.binds.is_empty() {
            let binds = super::text::array_of(c.binds.clone());
            let _ = write!(out, " binds= {}", value(&binds));
        }
        for (k, v) in &c.other {
            if CONNECTION_FROM_IDS.contains(&k.as_str()) || CONNECTION_TO_IDS.contains(&k.as_str())
            {
                continue;
            }
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

/// A node's `parent_id_path` attribute (Godot 4.6).
const PARENT_ID_PATH: &str = "parent_id_path";
/// A node's owner's id path: `owner_id_path` as the binary form's state names it,
/// `owner_uid_path` as the 4.6 text saver writes it.
const OWNER_ID_PATH: &[&str] = &["owner_id_path", "owner_uid_path"];

/// A connection's id paths: as the binary form's state names them, and as the 4.6 text
/// saver does.
const CONNECTION_FROM_IDS: &[&str] = &["from_id_path", "from_uid_path"];
const CONNECTION_TO_IDS: &[&str] = &["to_id_path", "to_uid_path"];

/// A `[node …]` line.
fn write_node(out: &mut String, n: &SceneNode, g4: bool, value: &dyn Fn(&Variant) -> String) {
    let _ = write!(out, "[node name={}", quoted(&n.name));
    if let Some(t) = &n.class {
        let _ = write!(out, " type={}", quoted(t));
    }
    // Godot 4.6: the unique ids along a path into an instanced scene follow the path they
    // belong to; the saver names the owner's `owner_uid_path`.
    let attribute = |names: &[&str]| {
        n.other
            .iter()
            .find(|(k, _)| names.contains(&k.as_str()))
            .map(|(_, v)| v)
    };
    if let Some(p) = &n.parent {
        let _ = write!(out, " parent={}", quoted(p));
        if let Some(v) = attribute(&[PARENT_ID_PATH]) {
            let _ = write!(out, " {PARENT_ID_PATH}={}", value(v));
        }
    }
    if let Some(o) = n.owner.as_deref().filter(|&o| o != ".") {
        let _ = write!(out, " owner={}", quoted(o));
        if let Some(v) = attribute(OWNER_ID_PATH) {
            let _ = write!(out, " owner_uid_path={}", value(v));
        }
    }
    if let Some(i) = n.index.filter(|&i| i >= 0) {
        let _ = write!(out, " index=\"{i}\"");
    }
    if let (true, Some(u)) = (g4, n.unique_id) {
        let _ = write!(out, " unique_id={u}");
    }
    for (k, v) in &n.other {
        if k == PARENT_ID_PATH || OWNER_ID_PATH.contains(&k.as_str()) {
            continue;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::{Connection, Scene, SceneNode, SubResource};
    use crate::{Array, Dictionary, PackedByteArray, PackedVector4Array, Vector2, Vector4};

    fn resource(properties: Vec<(&str, Variant)>) -> ResourceFile {
        ResourceFile {
            format: ResourceFormat::Godot4,
            class: "Resource".to_owned(),
            script_class: None,
            uid: None,
            ext_resources: Vec::new(),
            sub_resources: Vec::new(),
            properties: properties
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
            scene: None,
        }
    }

    fn bytes(b: &[u8]) -> Variant {
        Variant::PackedByteArray(PackedByteArray(b.to_vec()))
    }

    fn no_v4() -> Variant {
        Variant::PackedVector4Array(PackedVector4Array(Vec::new()))
    }

    /// 65 zero bytes in base64, derived by hand: each 3 zero bytes are `AAAA` (21 groups for
    /// 63 bytes), the last 2 are 3 digits `AAA` and one `=`.
    fn zeros65() -> String {
        format!("{}AAA=", "AAAA".repeat(21))
    }

    #[test]
    fn over_64_bytes_is_format4_with_every_byte_array_in_base64() {
        // Laid out as Godot 4.6 saves such values (`both.tres` and `v4only.tres` of
        // tests/suite/resource_text_format4.rs: small arrays base64 too once the file is
        // format=4, an empty one `PackedByteArray()`, negative infinity `-inf`). "fo" is
        // RFC 4648's `Zm8=`.
        let file = resource(vec![
            ("metadata/blob", bytes(&[0; 65])),
            ("metadata/small", bytes(b"fo")),
            ("metadata/empty", bytes(&[])),
            ("metadata/ninf", Variant::Float(f64::NEG_INFINITY)),
            (
                "metadata/v",
                Variant::Vector2(Vector2 {
                    x: crate::Real::NEG_INFINITY,
                    y: 1.0,
                }),
            ),
        ]);
        let want = format!(
            "[gd_resource type=\"Resource\" format=4]\n\n[resource]\n\
             metadata/blob = PackedByteArray(\"{}\")\n\
             metadata/small = PackedByteArray(\"Zm8=\")\n\
             metadata/empty = PackedByteArray()\n\
             metadata/ninf = -inf\n\
             metadata/v = Vector2(-inf, 1)\n",
            zeros65()
        );
        assert_eq!(write_text(&file, GodotVersion::V4_5), want);
        // 4.3 and 4.4: the same rule and base64, their six-digit floats and `inf_neg`.
        let want_44 = want
            .replace("ninf = -inf", "ninf = inf_neg")
            .replace("Vector2(-inf", "Vector2(inf_neg");
        assert_eq!(write_text(&file, GodotVersion::V4_4), want_44);
        assert_eq!(write_text(&file, GodotVersion::V4_3), want_44);
    }

    #[test]
    fn sixty_four_bytes_stay_format3() {
        // The threshold is `size() > 64`: 64 bytes are a list of numbers in a format=3 file,
        // where negative infinity is `inf_neg` (as Godot 4.6 saves `neither.tres` there).
        let file = resource(vec![
            ("b", bytes(&[9; 64])),
            ("ninf", Variant::Float(f64::NEG_INFINITY)),
        ]);
        let list = vec!["9"; 64].join(", ");
        let want = format!(
            "[gd_resource type=\"Resource\" format=3]\n\n[resource]\n\
             b = PackedByteArray({list})\nninf = inf_neg\n"
        );
        assert_eq!(write_text(&file, GodotVersion::V4_5), want);
        // 4.0 - 4.2 have no format=4: 65 bytes are numbers too.
        let file = resource(vec![("b", bytes(&[9; 65]))]);
        let out = write_text(&file, GodotVersion::V4_0);
        assert!(
            out.starts_with("[gd_resource type=\"Resource\" format=3]\n"),
            "{out}"
        );
        assert!(out.contains("b = PackedByteArray(9, 9, "), "{out}");
    }

    #[test]
    fn a_packed_vector4_array_anywhere_is_format4() {
        let vec4 = Variant::PackedVector4Array(PackedVector4Array(vec![Vector4 {
            x: 1.0,
            y: 2.5,
            z: -3.0,
            w: 0.5,
        }]));
        let file = resource(vec![("v", vec4), ("b", bytes(&[1, 2, 3]))]);
        assert_eq!(
            write_text(&file, GodotVersion::V4_5),
            "[gd_resource type=\"Resource\" format=4]\n\n[resource]\n\
             v = PackedVector4Array(1, 2.5, -3, 0.5)\n\
             b = PackedByteArray(\"AQID\")\n"
        );
        // Empty, as a Dictionary key inside an Array, in a sub-resource only.
        let mut key = Dictionary::new();
        key.insert(no_v4(), Variant::Nil);
        let nested = Variant::from(vec![Variant::from(key)]);
        let mut file = resource(vec![("b", bytes(&[0xff]))]);
        file.sub_resources.push(SubResource {
            id: "Resource_a".to_owned(),
            class: "Resource".to_owned(),
            properties: vec![("n".to_owned(), nested)],
        });
        let out = write_text(&file, GodotVersion::V4_5);
        assert!(out.starts_with("[gd_resource type=\"Resource\" load_steps=2 format=4]"));
        // 0xff: 6 one-bits `/`, 2 one-bits then 4 zero-bits `w`, then `==`.
        assert!(
            out.ends_with("[resource]\nb = PackedByteArray(\"/w==\")\n"),
            "{out}"
        );
        assert!(
            out.contains("n = [{\nPackedVector4Array(): null\n}]\n"),
            "{out}"
        );
        // A Godot 3 model stays format=2 with numbers (and has no PackedVector4Array).
        let mut g3 = resource(vec![("b", bytes(&[0; 65]))]);
        g3.format = ResourceFormat::Godot3;
        let out = write_text(&g3, GodotVersion::V4_5);
        assert!(
            out.starts_with("[gd_resource type=\"Resource\" format=2]\n"),
            "{out}"
        );
        assert!(out.contains("b = PoolByteArray( 0, 0, "), "{out}");
    }

    #[test]
    fn a_scene_is_format4_for_its_node_values_and_binds() {
        let node = |props: Vec<(String, Variant)>| SceneNode {
            name: "Root".to_owned(),
            class: Some("Node".to_owned()),
            properties: props,
            ..SceneNode::default()
        };
        let scene = |nodes: Vec<SceneNode>, connections: Vec<Connection>| ResourceFile {
            class: "PackedScene".to_owned(),
            scene: Some(Scene {
                nodes,
                connections,
                ..Scene::default()
            }),
            ..resource(Vec::new())
        };
        let big = vec![("metadata/b".to_owned(), bytes(&[0; 65]))];
        let out = write_text(&scene(vec![node(big)], Vec::new()), GodotVersion::V4_5);
        assert_eq!(
            out,
            format!(
                "[gd_scene format=4]\n\n[node name=\"Root\" type=\"Node\"]\n\
                 metadata/b = PackedByteArray(\"{}\")\n",
                zeros65()
            )
        );
        let conn = Connection {
            signal: "ready".to_owned(),
            from: ".".to_owned(),
            to: ".".to_owned(),
            method: "f".to_owned(),
            binds: vec![Variant::from(Array::from(vec![no_v4()]))],
            ..Connection::default()
        };
        let small = vec![("metadata/b".to_owned(), bytes(&[0, 7]))];
        let out = write_text(&scene(vec![node(small)], vec![conn]), GodotVersion::V4_5);
        assert!(out.starts_with("[gd_scene format=4]\n"), "{out}");
        assert!(
            out.contains("metadata/b = PackedByteArray(\"AAc=\")\n"),
            "{out}"
        );
        assert!(out.contains(" binds= [[PackedVector4Array()]]]\n"), "{out}");
    }

    #[test]
    fn id_paths_follow_the_paths_they_belong_to() {
        // Godot 4.6's saver (`resource_format_text.cpp`): `parent_id_path` right after
        // `parent`, the owner's ids right after `owner` and named `owner_uid_path`, then
        // `index` and `unique_id`, then the other attributes.
        let ids = |v: Vec<i32>| Variant::PackedInt32Array(crate::PackedInt32Array(v));
        let node = SceneNode {
            name: "Extra".to_owned(),
            class: Some("Node".to_owned()),
            parent: Some("Instance/Inner".to_owned()),
            owner: Some("Instance".to_owned()),
            index: Some(0),
            unique_id: Some(3),
            other: vec![
                ("owner_id_path".to_owned(), ids(vec![1])),
                (
                    "node_paths".to_owned(),
                    Variant::PackedStringArray(vec!["t".into()].into()),
                ),
                ("parent_id_path".to_owned(), ids(vec![1, 2])),
            ],
            ..SceneNode::default()
        };
        let mut out = String::new();
        write_node(&mut out, &node, true, &|v| {
            let mut s = String::new();
            let _ = write_variant(&mut s, v, Dialect::of(GodotVersion::V4_5));
            s
        });
        assert_eq!(
            out,
            "[node name=\"Extra\" type=\"Node\" parent=\"Instance/Inner\" \
             parent_id_path=PackedInt32Array(1, 2) owner=\"Instance\" \
             owner_uid_path=PackedInt32Array(1) index=\"0\" unique_id=3 \
             node_paths=PackedStringArray(\"t\")]\n"
        );
    }

    #[test]
    fn connection_id_paths_follow_the_flags() {
        // Godot 4.6's saver: `flags`, then `from_uid_path` and `to_uid_path`, then `unbinds`
        // and `binds`; the binary form's state calls them `from_id_path` / `to_id_path`.
        let ids = |v: Vec<i32>| Variant::PackedInt32Array(crate::PackedInt32Array(v));
        let conn = Connection {
            signal: "renamed".to_owned(),
            from: "Instance/Inner".to_owned(),
            to: ".".to_owned(),
            method: "show".to_owned(),
            flags: Some(3),
            binds: vec![Variant::Int(1)],
            unbinds: Some(1),
            other: vec![
                ("to_id_path".to_owned(), ids(vec![5])),
                ("from_id_path".to_owned(), ids(vec![7, 8])),
            ],
        };
        let file = ResourceFile {
            class: "PackedScene".to_owned(),
            scene: Some(Scene {
                nodes: vec![SceneNode {
                    name: "Root".to_owned(),
                    class: Some("Node".to_owned()),
                    ..SceneNode::default()
                }],
                connections: vec![conn],
                ..Scene::default()
            }),
            ..resource(Vec::new())
        };
        assert_eq!(
            write_text(&file, GodotVersion::V4_5),
            "[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node\"]\n\n\
             [connection signal=\"renamed\" from=\"Instance/Inner\" to=\".\" method=\"show\" \
             flags=3 from_uid_path=PackedInt32Array(7, 8) to_uid_path=PackedInt32Array(5) \
             unbinds=1 binds= [1]]\n"
        );
    }
}
