//! Issue 27.7: Godot 3 names and GDScript function names find our items in rustdoc's search
//! through `#[doc(alias)]`. rustdoc's search index is not a stable format, so this checks the
//! attribute on each item in the source (the doc build, `cargo doc`, checks its syntax).

/// (file, alias, the line the attribute must precede or be part of the attributes of).
const ALIASES: &[(&str, &str, &str)] = &[
    (
        "src/types/packed.rs",
        "PoolByteArray",
        "PackedByteArray(u8);",
    ),
    (
        "src/types/packed.rs",
        "PoolIntArray",
        "PackedInt32Array(i32);",
    ),
    (
        "src/types/packed.rs",
        "PoolRealArray",
        "PackedFloat32Array(f32);",
    ),
    (
        "src/types/packed.rs",
        "PoolStringArray",
        "PackedStringArray(String);",
    ),
    (
        "src/types/packed.rs",
        "PoolVector2Array",
        "PackedVector2Array(Vector2);",
    ),
    (
        "src/types/packed.rs",
        "PoolVector3Array",
        "PackedVector3Array(Vector3);",
    ),
    (
        "src/types/packed.rs",
        "PoolColorArray",
        "PackedColorArray(Color);",
    ),
    ("src/types/math.rs", "Quat", "pub struct Quaternion {"),
    ("src/types/math.rs", "Transform", "pub struct Transform3D {"),
    ("src/types/math.rs", "AABB", "pub struct Aabb {"),
    ("src/lib.rs", "var2bytes", "pub fn to_bytes<T"),
    ("src/lib.rs", "var_to_bytes", "pub fn to_bytes<T"),
    ("src/lib.rs", "bytes2var", "pub fn from_bytes<'de"),
    ("src/lib.rs", "bytes_to_var", "pub fn from_bytes<'de"),
    ("src/text/mod.rs", "var2str", "pub fn to_string<T"),
    ("src/text/mod.rs", "str2var", "pub fn parse_variant(text"),
    ("src/text/mod.rs", "str2var", "pub fn from_str<T"),
    ("src/marshalls.rs", "variant_to_base64", "pub fn to_base64<"),
    (
        "src/marshalls.rs",
        "base64_to_variant",
        "pub fn from_base64<",
    ),
];

#[test]
fn godot3_and_gdscript_names_are_doc_aliases() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (file, alias, item) in ALIASES {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let found = text.match_indices(item).any(|(at, _)| {
            // Among the attribute lines right above the item (after its doc comment).
            text[..at]
                .trim_end()
                .lines()
                .rev()
                .take_while(|line| line.trim_start().starts_with("#["))
                .any(|line| {
                    line.trim_start().starts_with("#[doc(alias")
                        && line.contains(&format!("alias = \"{alias}\""))
                })
        });
        assert!(found, "{file}: no #[doc(alias = \"{alias}\")] on `{item}`");
    }
}
