//! Binary resources offline: files built here byte by byte from the layout of
//! `core/io/resource_format_binary.cpp` (see `src/resource/binary.rs`), read to the model and
//! written back; hostile files (forged counts and offsets, deep nesting, references that would
//! copy a large string many times, cuts at every byte) refused with clear errors within a heap
//! budget. The engines' own files are checked in `resource_binary_live`.

use crate::heap;
use godot_serde::resource::{
    BinaryOptions, ResourceFile, ResourceFormat, SubResource, ext_ref, read_binary,
    read_binary_with_info, sub_ref, uid_id, uid_text, write_binary,
};
use godot_serde::{ErrorKind, Variant, Vector2, Vector2i};

/// Little-endian bytes, as the engines save.
#[derive(Default)]
struct B(Vec<u8>);

impl B {
    fn u32(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u64(mut self, v: u64) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn raw(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(b);
        self
    }
    /// `save_unicode_string`: length with the NUL, bytes, NUL.
    fn s(self, text: &str) -> Self {
        self.u32(text.len() as u32 + 1)
            .raw(text.as_bytes())
            .raw(&[0])
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// A Godot 4.6 file: main resource `Resource` with `hp = 7` (VARIANT_INT 3) and
/// `pos = Vector2(1.5, -2)` (VARIANT_VECTOR2 10), one sub-resource `Gradient` (id `g1`) that
/// it holds as `grad` (VARIANT_OBJECT 24, OBJECT_INTERNAL_RESOURCE 2, index 0), one external
/// Script (OBJECT_EXTERNAL_RESOURCE_INDEX 3, index 0) as `script`.
fn godot4_file() -> Vec<u8> {
    let head = B::default()
        .raw(b"RSRC")
        .u32(0) // little-endian
        .u32(0) // real64
        .u32(4)
        .u32(6)
        .u32(6) // format version
        .s("Resource")
        .u64(0) // import metadata offset
        .u32(3) // flags: named scene ids | uids
        .u64(u64::MAX); // uid: none
    let mut b = head;
    for _ in 0..11 {
        b = b.u32(0);
    }
    // String table: hp, pos, grad, script.
    b = b.u32(4).s("hp").s("pos").s("grad").s("script");
    // External resources: Script at res://a.gd, uid 34 ("uid://ba").
    b = b.u32(1).s("Script").s("res://a.gd").u64(34);
    // Internal resources: the Gradient, then the main one.
    two_internal(
        b,
        ["local://g1", "local://main"],
        |b| b.s("Gradient").u32(0),
        |b| {
            b.s("Resource")
                .u32(4)
                .u32(0)
                .u32(3)
                .u32(7)
                .u32(1)
                .u32(10)
                .u32(1.5f32.to_bits())
                .u32((-2.0f32).to_bits())
                .u32(2)
                .u32(24)
                .u32(2)
                .u32(0)
                .u32(3)
                .u32(24)
                .u32(3)
                .u32(0)
        },
    )
}

/// The end of a file of two internal resources: their table (`ids`, each offset patched to
/// where its body starts), the bodies `first` and `second` write, and the closing "RSRC".
fn two_internal(
    b: B,
    ids: [&str; 2],
    first: impl FnOnce(B) -> B,
    second: impl FnOnce(B) -> B,
) -> Vec<u8> {
    let mut b = b.u32(2).s(ids[0]);
    let slot0 = b.len();
    b = b.u64(0).s(ids[1]);
    let slot1 = b.len();
    b = b.u64(0);
    let off0 = b.len();
    b = first(b);
    let off1 = b.len();
    let mut out = second(b).raw(b"RSRC").0;
    out[slot0..slot0 + 8].copy_from_slice(&(off0 as u64).to_le_bytes());
    out[slot1..slot1 + 8].copy_from_slice(&(off1 as u64).to_le_bytes());
    out
}

fn godot4_model() -> ResourceFile {
    ResourceFile {
        format: ResourceFormat::Godot4,
        class: "Resource".into(),
        script_class: None,
        uid: None,
        ext_resources: vec![godot_serde::resource::ExtResource {
            id: "1".into(),
            class: "Script".into(),
            path: "res://a.gd".into(),
            uid: Some("uid://ba".into()),
        }],
        sub_resources: vec![SubResource {
            id: "g1".into(),
            class: "Gradient".into(),
            properties: vec![],
        }],
        properties: vec![
            ("hp".into(), Variant::Int(7)),
            ("pos".into(), Variant::Vector2(Vector2 { x: 1.5, y: -2.0 })),
            ("grad".into(), sub_ref("g1")),
            ("script".into(), ext_ref("1")),
        ],
        scene: None,
    }
}

#[test]
fn godot4_file_reads_to_the_model_and_back() {
    let bytes = godot4_file();
    let (file, info) = read_binary_with_info(&bytes).unwrap();
    assert_eq!(file, godot4_model());
    assert_eq!(
        (info.engine, info.format_version, info.flags),
        ((4, 6), 6, 3)
    );
    assert_eq!(info.main_path, "local://main");
    let options = BinaryOptions::godot4();
    let options = BinaryOptions {
        main_path: Some("local://main".into()),
        ..options
    };
    assert_eq!(write_binary(&godot4_model(), &options).unwrap(), bytes);
}

#[test]
fn uids_are_base_34_with_z_and_9_unused() {
    // ResourceUID::id_to_text: digits a..y (0..24) then 0..8 (25..33), most significant first.
    assert_eq!(uid_text(0).as_deref(), Some("uid://a"));
    assert_eq!(uid_text(24).as_deref(), Some("uid://y"));
    assert_eq!(uid_text(25).as_deref(), Some("uid://0"));
    assert_eq!(uid_text(33).as_deref(), Some("uid://8"));
    assert_eq!(uid_text(34).as_deref(), Some("uid://ba"));
    assert_eq!(uid_text(34 * 34 + 2).as_deref(), Some("uid://bac"));
    assert_eq!(uid_text(u64::MAX), None); // -1, the invalid id
    assert_eq!(uid_id(Some("uid://bac")).unwrap(), 34 * 34 + 2);
    assert_eq!(uid_id(None).unwrap(), u64::MAX);
    assert!(uid_id(Some("res://x")).is_err());
}

/// A Godot 3 file: a `Resource` holding sub-resource `local://3` (OBJECT_INTERNAL_RESOURCE
/// with the id itself, 3) and an external Texture (index 0).
fn godot3_file() -> Vec<u8> {
    let mut b = B::default()
        .raw(b"RSRC")
        .u32(0)
        .u32(0)
        .u32(3)
        .u32(2)
        .u32(3)
        .s("Resource")
        .u64(0);
    for _ in 0..14 {
        b = b.u32(0);
    }
    b = b.u32(2).s("sub").s("tex");
    b = b.u32(1).s("Texture").s("res://t.png");
    two_internal(
        b,
        ["local://3", "local://4"],
        |b| b.s("Curve").u32(0),
        |b| {
            b.s("Resource")
                .u32(2)
                .u32(0)
                .u32(24)
                .u32(2)
                .u32(3)
                .u32(1)
                .u32(24)
                .u32(3)
                .u32(0)
        },
    )
}

#[test]
fn godot3_file_numbers_sub_resources_by_id() {
    let bytes = godot3_file();
    let file = read_binary(&bytes).unwrap();
    assert_eq!(file.format, ResourceFormat::Godot3);
    assert_eq!(file.sub_resources[0].id, "3");
    assert_eq!(file.properties[0], ("sub".into(), sub_ref(3i64)));
    assert_eq!(file.properties[1], ("tex".into(), ext_ref(1i64)));
    let options = BinaryOptions {
        main_path: Some("local://4".into()),
        ..BinaryOptions::godot3()
    };
    assert_eq!(write_binary(&file, &options).unwrap(), bytes);
}

#[test]
fn writer_refuses_what_the_target_cannot_hold() {
    let mut file = godot4_model();
    // Godot 3 layout for a Godot 4 model.
    let e = write_binary(&file, &BinaryOptions::godot3()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
    // A reference to an id the file does not have.
    file.properties.push(("bad".into(), sub_ref("nope")));
    let e = write_binary(&file, &BinaryOptions::godot4()).unwrap_err();
    assert!(e.to_string().contains("SubResource(nope)"), "{e}");
    // An object that is not a reference.
    file.properties.pop();
    file.properties.push((
        "obj".into(),
        Variant::Object(Box::new(godot_serde::Object {
            class: "Node".into(),
            properties: vec![],
        })),
    ));
    let e = write_binary(&file, &BinaryOptions::godot4()).unwrap_err();
    assert!(e.to_string().contains("\"Node\""), "{e}");
    // Vector2i in Godot 3; PackedVector4Array before format 6.
    let mut g3 = read_binary(&godot3_file()).unwrap();
    g3.properties
        .push(("v".into(), Variant::Vector2i(Vector2i { x: 1, y: 2 })));
    let e = write_binary(&g3, &BinaryOptions::godot3()).unwrap_err();
    assert!(e.to_string().contains("Vector2i"), "{e}");
    let mut file = godot4_model();
    file.properties
        .push(("v4".into(), Variant::PackedVector4Array(Default::default())));
    let e = write_binary(&file, &BinaryOptions::godot4().with_format_version(5)).unwrap_err();
    assert!(e.to_string().contains("PackedVector4Array"), "{e}");
}

/// The error of reading `bytes`, which must fail, with the heap it held within 64 KiB plus
/// 4 bytes per input byte.
#[track_caller]
fn refused(bytes: &[u8]) -> godot_serde::Error {
    heap::within(heap::budget(4, bytes.len()), "read_binary", || {
        read_binary(bytes).unwrap_err()
    })
}

#[test]
fn every_cut_is_an_error() {
    for bytes in [godot4_file(), godot3_file()] {
        // Cut before the internal resources' data: the table promises more.
        for cut in 0..bytes.len() - 4 {
            let e = refused(&bytes[..cut]);
            assert!(e.offset().is_some() || cut < 4, "cut {cut}: {e}");
        }
    }
}

/// `godot4_file` with the u32 at `at` replaced.
fn forged(at: usize, v: u32) -> Vec<u8> {
    let mut b = godot4_file();
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    b
}

fn position(bytes: &[u8], needle: &[u8]) -> usize {
    bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .unwrap()
}

#[test]
fn forged_counts_and_offsets_are_refused_before_allocating() {
    let bytes = godot4_file();
    // String table count (just before "hp"'s length 3): 4 billion strings.
    let at = position(&bytes, b"\x03\x00\x00\x00hp\0") - 4;
    let e = refused(&forged(at, u32::MAX));
    assert!(
        matches!(
            e.kind(),
            ErrorKind::LengthTooLarge {
                what: "string table size",
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.offset(), Some(at));
    // The main resource's offset beyond the end.
    let slot = position(&bytes, b"local://main\0") + 13;
    let e = refused(&forged(slot, 1 << 30));
    assert!(matches!(e.kind(), ErrorKind::InvalidContainer(_)), "{e}");
    assert!(e.to_string().contains("offset 1073741824"), "{e}");
    // The main resource's offset before the sub-resource's: resources may not overlap.
    let sub = position(&bytes, b"local://g1\0") + 11;
    let e = refused(&forged(
        slot,
        u32::from_le_bytes(bytes[sub..sub + 4].try_into().unwrap()),
    ));
    assert!(
        e.to_string().contains("not after the previous resource"),
        "{e}"
    );
    // An unknown value type (hp's VARIANT_INT 3 becomes 99).
    let main = u32::from_le_bytes(bytes[slot..slot + 4].try_into().unwrap()) as usize;
    let hp_type = main + 4 + 9 + 4 + 4;
    let e = refused(&forged(hp_type, 99));
    assert!(e.to_string().contains("unknown value type 99"), "{e}");
    assert_eq!(e.offset(), Some(hp_type));
    // Indices out of range: the sub-resource (grad) and the external one (script).
    let grad_index = hp_type + 8 + 16 + 12;
    let e = refused(&forged(grad_index, 5));
    assert!(e.to_string().contains("internal resource index 5"), "{e}");
    let script_index = grad_index + 16;
    let e = refused(&forged(script_index, 1));
    assert!(e.to_string().contains("external resource index 1"), "{e}");
    // A property name index beyond the string table.
    let e = refused(&forged(hp_type - 4, 4));
    assert!(e.to_string().contains("string table index 4"), "{e}");
    // A newer format.
    let e = refused(&forged(20, 7));
    assert!(e.to_string().contains("format version 7"), "{e}");
    // Not a resource.
    let e = refused(b"GDSCxxxxxxxx");
    assert!(e.to_string().contains("not a binary resource"), "{e}");
}

/// A Godot 4 file whose main resource has one property `p`: `value` (its encoded bytes), with
/// `strings` as the string table (`p` first).
fn one_property(strings: &[&str], value: &[u8]) -> Vec<u8> {
    let mut b = B::default()
        .raw(b"RSRC")
        .u32(0)
        .u32(0)
        .u32(4)
        .u32(6)
        .u32(6)
        .s("Resource")
        .u64(0)
        .u32(3)
        .u64(u64::MAX);
    for _ in 0..11 {
        b = b.u32(0);
    }
    b = b.u32(strings.len() as u32);
    for s in strings {
        b = b.s(s);
    }
    b = b.u32(0).u32(1).s("local://m");
    let slot = b.len();
    b = b.u64(0);
    let off = b.len();
    b = b.s("Resource").u32(1).u32(0).raw(value).raw(b"RSRC");
    let mut out = b.0;
    out[slot..slot + 8].copy_from_slice(&(off as u64).to_le_bytes());
    out
}

#[test]
fn nesting_stops_at_1024_levels() {
    // VARIANT_ARRAY (30) of one element, `depth` times, around a nil (1).
    let nested = |depth: usize| {
        let mut v = Vec::new();
        for _ in 0..depth {
            v.extend_from_slice(&30u32.to_le_bytes());
            v.extend_from_slice(&1u32.to_le_bytes());
        }
        v.extend_from_slice(&1u32.to_le_bytes());
        one_property(&["p"], &v)
    };
    let file = read_binary(&nested(1024)).unwrap();
    assert!(matches!(file.properties[0].1, Variant::Array(_)));
    let e = refused(&nested(1025));
    assert!(
        matches!(e.kind(), ErrorKind::DepthLimitExceeded { limit: 1024 }),
        "{e}"
    );
}

#[test]
fn copies_by_index_are_bounded() {
    // A 64 KiB string in the table and an Array of 40 000 NodePaths that each name it by
    // index (12 bytes each): 2.6 GB of copies from a 0.5 MB file.
    let big = "x".repeat(64 << 10);
    let mut v = Vec::new();
    v.extend_from_slice(&30u32.to_le_bytes());
    v.extend_from_slice(&40_000u32.to_le_bytes());
    for _ in 0..40_000 {
        v.extend_from_slice(&22u32.to_le_bytes()); // VARIANT_NODE_PATH
        v.extend_from_slice(&1u16.to_le_bytes()); // one name
        v.extend_from_slice(&0u16.to_le_bytes()); // no subnames
        v.extend_from_slice(&1u32.to_le_bytes()); // string table index 1
    }
    let bytes = one_property(&["p", &big], &v);
    // The copies stop at 16 times the file's size plus 1 MiB; the paths around them add less
    // than as much again.
    let e = heap::within(heap::budget(32, bytes.len()), "read_binary", || {
        read_binary(&bytes).unwrap_err()
    });
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { .. }), "{e}");
    assert!(e.offset().is_some(), "{e}");
}

#[test]
fn forged_element_counts_are_refused() {
    // PackedByteArray (31), Array (30), Dictionary (26), PackedStringArray (34) of 2^31 - 1.
    for ty in [31u32, 30, 26, 34, 32, 48, 35] {
        let mut v = ty.to_le_bytes().to_vec();
        v.extend_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
        let e = refused(&one_property(&["p"], &v));
        assert!(
            matches!(e.kind(), ErrorKind::LengthTooLarge { .. }),
            "type {ty}: {e}"
        );
    }
}

#[test]
fn values_of_every_type_round_trip() {
    let godot4_values = godot_serde::text::parse_variant(
        "[null, true, -7, 1099511627776, 0.5, 0.1, \"héllo\", Vector2(1.5, -2), Vector2i(1, -2), \
         Rect2(1, 2, 3, 4), Rect2i(-1, 2, 3, 4), Vector3(1, 2, 3.25), Vector3i(1, 2, -3), \
         Transform2D(1, 0, 0, 1, 3, 4), Vector4(1, 2, 3, 4), Vector4i(1, 2, 3, -4), \
         Plane(0, 1, 0, 2), Quaternion(0, 0, 0.6, 0.8), AABB(1, 2, 3, 4, 5, 6), \
         Basis(1, 2, 3, 4, 5, 6, 7, 8, 9), Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3), \
         Projection(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), \
         Color(0.25, 0.5, 0.75, 1), &\"name\", NodePath(\"a/b:c\"), NodePath(\"/root\"), \
         {1: \"a\", \"k\": [1, 2.5]}, PackedByteArray(1, 2, 3), PackedInt32Array(1, -2), \
         PackedInt64Array(1, -2), PackedFloat32Array(0.5), PackedFloat64Array(0.1), \
         PackedStringArray(\"a\", \"\"), PackedVector2Array(1, 2), PackedVector3Array(1, 2, 3), \
         PackedColorArray(1, 0, 0, 1), PackedVector4Array(1, 2, 3, 4)]",
    )
    .unwrap();
    let mut file = godot4_model();
    file.properties.push(("all".into(), godot4_values));
    let bytes = write_binary(&file, &BinaryOptions::godot4()).unwrap();
    assert_eq!(read_binary(&bytes).unwrap(), file);
}

#[cfg(feature = "compression")]
#[test]
fn compressed_files_round_trip_and_bad_ones_are_refused() {
    let file = godot4_model();
    let bytes = write_binary(&file, &BinaryOptions::godot4().with_compression(true)).unwrap();
    assert_eq!(&bytes[..4], b"RSCC");
    // Zstandard (mode 2) in 4096-byte blocks.
    assert_eq!(&bytes[4..12], &[2, 0, 0, 0, 0, 16, 0, 0]);
    assert_eq!(read_binary(&bytes).unwrap(), file);
    let mut bad = bytes.clone();
    bad[4] = 9; // unknown compression mode
    let e = refused(&bad);
    assert!(matches!(e.kind(), ErrorKind::InvalidContainer(_)), "{e}");
    for cut in 4..bytes.len() - 4 {
        refused(&bytes[..cut]);
    }
}

#[cfg(not(feature = "compression"))]
#[test]
fn compressed_files_need_the_compression_feature() {
    let e = read_binary(b"RSCC\x02\0\0\0\0\x10\0\0").unwrap_err();
    assert!(e.to_string().contains("`compression` feature"), "{e}");
    let e = write_binary(
        &godot4_model(),
        &BinaryOptions::godot4().with_compression(true),
    )
    .unwrap_err();
    assert!(e.to_string().contains("`compression` feature"), "{e}");
}

/// A PackedScene file whose `_bundled` is `bundled` (Godot's text form of the Dictionary).
fn scene_file(bundled: &str) -> Vec<u8> {
    let file = ResourceFile {
        format: ResourceFormat::Godot4,
        class: "PackedScene".into(),
        script_class: None,
        uid: None,
        ext_resources: vec![],
        sub_resources: vec![],
        properties: vec![(
            "_bundled".into(),
            godot_serde::text::parse_variant(bundled).unwrap(),
        )],
        scene: None,
    };
    write_binary(&file, &BinaryOptions::godot4()).unwrap()
}

#[test]
fn scene_state_reads_by_its_indices() {
    // names: Root, Node, Kid, g; variants: 5. Root (parent -1, owner -1, type 1 = Node,
    // name 0, no instance, no properties, no groups); Kid (parent 0, owner 0, type 1, name 2
    // with index 0 stored as 1 << 18, instance -1, one property (name 1 = "Node"? no: 3 = "g"
    // as a property name) = variants[0], one group 3 = "g").
    let bytes = scene_file(
        "{\"names\": PackedStringArray(\"Root\", \"Node\", \"Kid\", \"g\"), \"variants\": [5], \
         \"node_count\": 2, \"nodes\": PackedInt32Array(-1, -1, 1, 0, -1, 0, 0, \
         0, 0, 1, 262146, -1, 1, 3, 0, 1, 3), \"conn_count\": 1, \
         \"conns\": PackedInt32Array(1, 0, 3, 2, 2, 1, 0, 0), \"node_paths\": [], \
         \"editable_instances\": [NodePath(\"Kid\")], \"version\": 3}",
    );
    let file = read_binary(&bytes).unwrap();
    let scene = file.scene.unwrap();
    assert!(file.properties.is_empty());
    let kid = &scene.nodes[1];
    assert_eq!(
        (kid.name.as_str(), kid.parent.as_deref(), kid.index),
        ("Kid", Some("."), Some(0))
    );
    assert_eq!(kid.class.as_deref(), Some("Node"));
    assert_eq!(kid.properties, [("g".to_owned(), Variant::Int(5))]);
    assert_eq!(kid.groups, ["g"]);
    assert_eq!(scene.nodes[0].parent, None);
    let c = &scene.connections[0];
    assert_eq!(
        (
            c.from.as_str(),
            c.to.as_str(),
            c.signal.as_str(),
            c.method.as_str()
        ),
        ("Kid", ".", "g", "Kid")
    );
    assert_eq!(
        (c.flags, c.binds.as_slice(), c.unbinds),
        (None, &[Variant::Int(5)][..], None)
    );
    assert_eq!(scene.editable, ["Kid"]);
}

#[test]
fn forged_scene_states_are_refused() {
    let base = |nodes: &str, extra: &str| {
        scene_file(&format!(
            "{{\"names\": PackedStringArray(\"Root\", \"Node\"), \"variants\": [], \
             \"node_count\": 2, \"nodes\": PackedInt32Array({nodes}), \"conn_count\": 0, \
             \"conns\": PackedInt32Array(){extra}, \"version\": 3}}"
        ))
    };
    let ok = "-1, -1, 1, 0, -1, 0, 0, 0, 0, 1, 0, -1, 0, 0";
    assert!(read_binary(&base(ok, "")).is_ok());
    for (nodes, extra, message) in [
        // Two nodes announced, one given.
        (
            "-1, -1, 1, 0, -1, 0, 0",
            "",
            "the ints of the nodes end early",
        ),
        // The second node's parent is itself (not an earlier node).
        (
            "-1, -1, 1, 0, -1, 0, 0, 1, 0, 1, 0, -1, 0, 0",
            "",
            "parent 1 is not an earlier node",
        ),
        // A name index beyond the names.
        (
            "-1, -1, 1, 0, -1, 0, 0, 0, 0, 1, 9, -1, 0, 0",
            "",
            "name index 9",
        ),
        // A property count beyond the ints.
        (
            "-1, -1, 1, 0, -1, 0, 0, 0, 0, 1, 0, -1, 1000, 0",
            "",
            "count of 1000",
        ),
        // A value index beyond the values.
        (
            "-1, -1, 1, 0, -1, 1, 0, 0, 0, 0, 0, 1, 0, -1, 0, 0",
            "",
            "value index 0",
        ),
        // Godot 4.6's id paths: more of them than node paths, and not PackedInt32Arrays.
        (
            ok,
            ", \"id_paths\": [PackedInt32Array(1)]",
            "1 id paths for 0 node paths",
        ),
        (
            ok,
            ", \"node_paths\": [NodePath(\"x\")], \"id_paths\": [1]",
            "not a PackedInt32Array",
        ),
    ] {
        let bytes = base(nodes, extra);
        let e = refused(&bytes);
        assert!(e.to_string().contains(message), "{nodes} {extra}: {e}");
        // The offset is where the `_bundled` value starts: VARIANT_DICTIONARY (26).
        let at = e.offset().unwrap();
        assert_eq!(&bytes[at..at + 4], &26u32.to_le_bytes(), "{e}");
    }
}

#[test]
fn floats_are_32_bit_when_exact_as_the_saver_decides() {
    // write_variant: `float fl = d; if (double(fl) != d) VARIANT_DOUBLE (41) else
    // VARIANT_FLOAT (4)`; a NaN is never equal to itself, so it is written as a double.
    let value_bytes = |v: f64| {
        let mut file = godot4_model();
        file.properties = vec![("hp".into(), Variant::Float(v))];
        let bytes = write_binary(&file, &BinaryOptions::godot4()).unwrap();
        // The value follows the property's name index 0, before the final "RSRC".
        let end = bytes.len() - 4;
        bytes[..end].to_vec()
    };
    assert!(value_bytes(0.5).ends_with(&[0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0x3f]));
    let mut want = vec![41, 0, 0, 0];
    want.extend_from_slice(&0.1f64.to_le_bytes());
    assert!(value_bytes(0.1).ends_with(&want));
    let mut want = vec![41, 0, 0, 0];
    want.extend_from_slice(&f64::NAN.to_le_bytes());
    assert!(value_bytes(f64::NAN).ends_with(&want));
}

#[test]
fn big_endian_files_read() {
    // FLAG_SAVE_BIG_ENDIAN: the first field is stored before the switch (1, little-endian),
    // every later number is big-endian.
    let be32 = |v: u32| v.to_be_bytes().to_vec();
    let be64 = |v: u64| v.to_be_bytes().to_vec();
    let s = |t: &str| [be32(t.len() as u32 + 1), t.as_bytes().to_vec(), vec![0]].concat();
    let mut b: Vec<u8> = [
        b"RSRC".to_vec(),
        1u32.to_le_bytes().to_vec(),
        be32(0),
        be32(4),
        be32(6),
        be32(6),
    ]
    .concat();
    b.extend(s("Resource"));
    b.extend(be64(0));
    b.extend(be32(3));
    b.extend(be64(u64::MAX));
    for _ in 0..11 {
        b.extend(be32(0));
    }
    b.extend(be32(2));
    b.extend(s("hp"));
    b.extend(s("path"));
    b.extend(be32(0)); // no external resources
    b.extend(be32(1));
    b.extend(s("local://m"));
    let slot = b.len();
    b.extend(be64(0));
    let offset = b.len() as u64;
    b[slot..slot + 8].copy_from_slice(&be64(offset));
    b.extend(s("Resource"));
    b.extend(be32(2));
    // hp: VARIANT_INT -7.
    b.extend(be32(0));
    b.extend(be32(3));
    b.extend(be32(-7i32 as u32));
    // path: VARIANT_NODE_PATH, 1 name (u16), 0 subnames, absolute (bit 15), name by index 1.
    b.extend(be32(1));
    b.extend(be32(22));
    b.extend(1u16.to_be_bytes());
    b.extend(0x8000u16.to_be_bytes());
    b.extend(be32(1));
    b.extend(b"RSRC");
    let (file, info) = read_binary_with_info(&b).unwrap();
    assert!(info.big_endian);
    assert_eq!(file.properties[0], ("hp".to_owned(), Variant::Int(-7)));
    assert_eq!(
        file.properties[1].1,
        Variant::NodePath(Box::new(godot_serde::NodePath {
            names: vec!["path".into()],
            subnames: vec![],
            absolute: true
        }))
    );
}

#[test]
fn a_scene_state_goes_after_the_resource_properties() {
    // PackedScene's property list: Resource's (resource_local_to_scene, resource_name) before
    // its own `_bundled`, metadata after; the file keeps that order.
    let mut file = read_binary(&scene_file(
        "{\"names\": PackedStringArray(\"Root\", \"Node\"), \"variants\": [], \"node_count\": 1, \
         \"nodes\": PackedInt32Array(-1, -1, 1, 0, -1, 0, 0), \"conn_count\": 0, \
         \"conns\": PackedInt32Array(), \"version\": 3}",
    ))
    .unwrap();
    file.properties = vec![
        ("resource_name".into(), Variant::from("level")),
        ("metadata/x".into(), Variant::Int(1)),
    ];
    let bytes = write_binary(&file, &BinaryOptions::godot4()).unwrap();
    let order = |name: &[u8]| position(&bytes, name);
    assert!(order(b"resource_name\0") < order(b"_bundled\0"));
    assert!(order(b"_bundled\0") < order(b"metadata/x\0"));
    assert_eq!(read_binary(&bytes).unwrap(), file);
}

#[test]
fn writing_borrows_the_model() {
    // A main resource of 8 MiB of bytes: the writer holds its output, grown by doubling (the
    // old and the new buffer at once: up to 3 times the file), and no copy of the model's
    // values (which would add 8 MiB more).
    let mut file = godot4_model();
    let big = 8usize << 20;
    file.properties.push((
        "blob".into(),
        Variant::PackedByteArray(godot_serde::PackedByteArray(vec![7; big])),
    ));
    let (bytes, peak) = heap::peak_of(|| write_binary(&file, &BinaryOptions::godot4()).unwrap());
    assert!(bytes.len() > big);
    assert!(
        peak <= heap::budget(3, bytes.len()),
        "held {peak} bytes to write {} bytes",
        bytes.len()
    );
}

#[test]
fn godot3_files_hold_only_godot3_types() {
    // The 3.x loader knows value types up to VARIANT_DOUBLE (41): a StringName (44) in a
    // format-3 file is refused, as the engine refuses it, not read as a value Godot 3 lacks.
    let mut bytes = godot3_file();
    // The main resource's first property value: VARIANT_OBJECT (24) after the name index 0.
    let at = bytes.len() - 4 - 2 * 16 + 4;
    assert_eq!(&bytes[at..at + 4], &24u32.to_le_bytes());
    bytes[at..at + 4].copy_from_slice(&44u32.to_le_bytes());
    let e = refused(&bytes);
    assert!(
        e.to_string().contains("unknown value type 44 in a Godot 3"),
        "{e}"
    );
    assert_eq!(e.offset(), Some(at));
}
