//! The values of `tests/godot4/cases.gd` on the Rust side, by name, in their full-object form
//! (objects as [`Object`](godot_serde::Object) records, typed containers with their class or
//! script). Written from the GDScript expressions by hand: the engine's bytes and our decoder
//! must both agree with them.

use super::*;
use godot_serde::{
    Aabb, Basis, Callable, ContainerType, PackedByteArray, PackedColorArray, PackedFloat32Array,
    PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray, PackedVector2Array,
    PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion, Rect2, Rect2i, Rid,
    Signal, StringName, Transform2D, Transform3D, Variant, VariantType, Vector2i, Vector3i,
    Vector4, Vector4i,
};

/// The script of the script-typed containers and instances (`tests/godot4/item.gd`).
pub const ITEM: &str = "res://item.gd";

/// Every case name of `cases.gd`, in its order.
pub const NAMES: &[&str] = &[
    "nil",
    "bool_false",
    "bool_true",
    "int_0",
    "int_1",
    "int_m1",
    "int_i32_max",
    "int_i32_min",
    "int_i32_max_p1",
    "int_i32_min_m1",
    "int_u32_max",
    "int_i64_max",
    "int_i64_min",
    "int_2_pow_53_p1",
    "float_0",
    "float_m0",
    "float_1_5",
    "float_0_1",
    "float_third",
    "float_f32_max",
    "float_f32_max_next",
    "float_f32_min_sub",
    "float_f64_min_sub",
    "float_f64_max",
    "float_inf",
    "float_minf",
    "float_nan",
    "float_nan_payload",
    "float_1e300",
    "string_empty",
    "string_ascii",
    "string_unicode",
    "string_nul_free_controls",
    "string_long",
    "vector2",
    "vector2_inf",
    "vector2i",
    "rect2",
    "rect2i",
    "vector3",
    "vector3i",
    "transform2d",
    "vector4",
    "vector4i",
    "plane",
    "quaternion",
    "aabb",
    "basis",
    "transform3d",
    "projection",
    "color",
    "color_hdr",
    "stringname_empty",
    "stringname",
    "nodepath_empty",
    "nodepath_abs",
    "nodepath_rel",
    "nodepath_prop",
    "rid_empty",
    "rid_big",
    "object_refcounted",
    "object_resource",
    "object_node",
    "object_script_instance",
    "callable_empty",
    "signal_empty",
    "dict_empty",
    "dict_mixed",
    "dict_objects",
    "tdict_string_int",
    "tdict_key_only",
    "tdict_value_only",
    "tdict_int_node_empty",
    "tdict_int_refcounted",
    "tdict_script_script",
    "tdict_sn_item",
    "array_empty",
    "array_mixed",
    "array_objects",
    "tarray_int",
    "tarray_float",
    "tarray_string",
    "tarray_vector2",
    "tarray_array",
    "tarray_packed_bytes",
    "tarray_node_empty",
    "tarray_object_empty",
    "tarray_classless_object",
    "tarray_refcounted",
    "tarray_resource",
    "tarray_script_empty",
    "tarray_script_items",
    "packed_byte_empty",
    "packed_byte",
    "packed_int32",
    "packed_int64",
    "packed_float32",
    "packed_float64",
    "packed_string",
    "packed_vector2",
    "packed_vector3",
    "packed_color",
    "packed_vector4",
    "deep_array_1000",
    "deep_dict_300",
    "large_array_ints",
    "large_dict",
    "large_packed_bytes",
    "large_packed_strings",
];

fn class(name: &str) -> ContainerType {
    ContainerType::ClassName(name.into())
}

fn script() -> ContainerType {
    ContainerType::Script(ITEM.into())
}

fn sn(v: &str) -> Variant {
    Variant::StringName(StringName(v.into()))
}

/// `RefCounted.new()` with objects in full: its one stored property.
pub fn refcounted() -> Variant {
    obj("RefCounted", vec![("script", nil())])
}

/// `Resource.new()` in full.
pub fn resource() -> Variant {
    obj(
        "Resource",
        vec![
            ("resource_local_to_scene", b(false)),
            ("resource_name", s("")),
            ("script", nil()),
        ],
    )
}

/// An instance of `item.gd`: the script goes as its path, then its `@export` variables.
pub fn item(hp: i64, tag: &str) -> Variant {
    obj(
        "RefCounted",
        vec![("script", s(ITEM)), ("hp", i(hp)), ("tag", s(tag))],
    )
}

/// `nested_arrays(depth)` of `cases.gd`: `[[...[]...]]`, `depth` Arrays around the innermost.
pub fn nested_arrays(depth: usize) -> Variant {
    (0..depth).fold(arr(vec![]), |v, _| arr(vec![v]))
}

/// `nested_dicts(depth)`: `{k: previous}` for k in 0..depth, around `{}`.
pub fn nested_dicts(depth: i64) -> Variant {
    (0..depth).fold(dict(vec![]), |v, k| dict(vec![(i(k), v)]))
}

/// The value `cases.gd` builds under `name`.
pub fn value(name: &str) -> Variant {
    let x = |f: f32| r(f);
    match name {
        "nil" => nil(),
        "bool_false" => b(false),
        "bool_true" => b(true),
        "int_0" => i(0),
        "int_1" => i(1),
        "int_m1" => i(-1),
        "int_i32_max" => i(i32::MAX.into()),
        "int_i32_min" => i(i32::MIN.into()),
        "int_i32_max_p1" => i(2_147_483_648),
        "int_i32_min_m1" => i(-2_147_483_649),
        "int_u32_max" => i(u32::MAX.into()),
        "int_i64_max" => i(i64::MAX),
        "int_i64_min" => i(i64::MIN),
        "int_2_pow_53_p1" => i((1 << 53) + 1),
        "float_0" => f(0.0),
        "float_m0" => fbits(0x8000_0000_0000_0000),
        "float_1_5" => f(1.5),
        "float_0_1" => f(0.1),
        "float_third" => f(1.0 / 3.0),
        "float_f32_max" => f32bits(0x7f7f_ffff),
        "float_f32_max_next" => fbits(0x47ef_ffff_e000_0001),
        "float_f32_min_sub" => f32bits(1),
        "float_f64_min_sub" => fbits(1),
        "float_f64_max" => f(f64::MAX),
        "float_inf" => f(f64::INFINITY),
        "float_minf" => f(f64::NEG_INFINITY),
        "float_nan" => fbits(0x7ff8_0000_0000_0000),
        "float_nan_payload" => fbits(0x7ff8_0000_0000_0001),
        "float_1e300" => f(1e300),
        "string_empty" => s(""),
        "string_ascii" => s("hello"),
        "string_unicode" => s("é😀\u{4e2d}"),
        "string_nul_free_controls" => s("a\tb\nc"),
        "string_long" => s(&"ab".repeat(5000)),
        "vector2" => v2(1.5, -2.0),
        "vector2_inf" => v2(f32::INFINITY, -0.0),
        "vector2i" => Variant::Vector2i(Vector2i::new(i32::MIN, i32::MAX)),
        "rect2" => Variant::Rect2(Rect2::new(vec2(1.0, 2.0), vec2(3.0, 4.5))),
        "rect2i" => Variant::Rect2i(Rect2i::new(Vector2i::new(-1, 2), Vector2i::new(3, 4))),
        "vector3" => v3(1.0, 2.25, -3.0),
        "vector3i" => Variant::Vector3i(Vector3i::new(1, -2, 3)),
        "transform2d" => Variant::Transform2D(Box::new(Transform2D::new(
            vec2(1.0, 2.0),
            vec2(3.0, 4.0),
            vec2(5.0, 6.0),
        ))),
        "vector4" => Variant::Vector4(Vector4::new(x(1.0), x(2.0), x(3.0), x(4.5))),
        "vector4i" => Variant::Vector4i(Vector4i::new(1, 2, -3, 4)),
        "plane" => Variant::Plane(Plane::new(vec3(0.0, 1.0, 0.0), x(2.5))),
        "quaternion" => Variant::Quaternion(Quaternion::new(x(0.5), x(-0.5), x(0.5), x(0.5))),
        "aabb" => Variant::Aabb(Box::new(Aabb::new(
            vec3(1.0, 2.0, 3.0),
            vec3(4.0, 5.0, 6.0),
        ))),
        // `Basis(x, y, z)` takes columns; the wire holds rows.
        "basis" => Variant::Basis(Box::new(basis_123())),
        "transform3d" => Variant::Transform3D(Box::new(Transform3D::new(
            basis_123(),
            vec3(10.0, 11.0, 12.0),
        ))),
        "projection" => Variant::Projection(Box::new(Projection::from_columns(
            Vector4::new(x(1.0), x(2.0), x(3.0), x(4.0)),
            Vector4::new(x(5.0), x(6.0), x(7.0), x(8.0)),
            Vector4::new(x(9.0), x(10.0), x(11.0), x(12.0)),
            Vector4::new(x(13.0), x(14.0), x(15.0), x(16.0)),
        ))),
        "color" => c(0.25, 0.5, 1.0, 0.75),
        "color_hdr" => c(2.0, -1.0, 0.1, 1.0),
        "stringname_empty" => sn(""),
        "stringname" => sn("position"),
        "nodepath_empty" => np(&[], &[], false),
        "nodepath_abs" => np(&["root", "Main"], &["position", "x"], true),
        "nodepath_rel" => np(&["..", "a", "bc"], &[], false),
        "nodepath_prop" => np(&[], &["modulate"], false),
        "rid_empty" => Variant::Rid(Rid(0)),
        "rid_big" => Variant::Rid(Rid(0x0123_4567_89ab_cdef)),
        "object_refcounted" => refcounted(),
        "object_resource" => resource(),
        "object_node" => obj(
            "Node",
            vec![
                ("unique_name_in_owner", b(false)),
                ("process_mode", i(0)),
                ("process_priority", i(0)),
                ("process_physics_priority", i(0)),
                ("process_thread_group", i(0)),
                ("physics_interpolation_mode", i(0)),
                ("auto_translate_mode", i(0)),
                ("editor_description", s("")),
                ("script", nil()),
            ],
        ),
        "object_script_instance" => item(7, "seven"),
        "callable_empty" => Variant::Callable(Callable),
        "signal_empty" => Variant::Signal(Box::new(Signal::new("", godot_serde::ObjectId(0)))),
        "dict_empty" => dict(vec![]),
        "dict_mixed" => dict(vec![
            (i(1), s("a")),
            (s("b"), arr(vec![i(2), f(3.5)])),
            (Variant::Vector2i(Vector2i::new(1, 1)), nil()),
            (sn("sn"), dict(vec![(s("in"), b(true))])),
        ]),
        // GDScript keeps a Dictionary literal's keys in source order.
        "dict_objects" => dict(vec![(s("r"), refcounted()), (s("i"), item(1, "one"))]),
        "tdict_string_int" => tdict(
            builtin(VariantType::String),
            builtin(VariantType::Int),
            vec![(s("a"), i(1)), (s("b"), i(2))],
        ),
        "tdict_key_only" => tdict(
            builtin(VariantType::Float),
            ContainerType::Untyped,
            vec![(f(1.5), s("x"))],
        ),
        "tdict_value_only" => tdict(
            ContainerType::Untyped,
            builtin(VariantType::Vector2),
            vec![(s("k"), v2(1.0, 2.0))],
        ),
        "tdict_int_node_empty" => tdict(builtin(VariantType::Int), class("Node"), vec![]),
        "tdict_int_refcounted" => tdict(
            builtin(VariantType::Int),
            class("RefCounted"),
            vec![(i(1), refcounted())],
        ),
        "tdict_script_script" => tdict(script(), script(), vec![]),
        "tdict_sn_item" => tdict(
            builtin(VariantType::StringName),
            script(),
            vec![(sn("a"), item(2, "two"))],
        ),
        "array_empty" => arr(vec![]),
        "array_mixed" => arr(vec![
            i(1),
            s("two"),
            f(3.0),
            nil(),
            arr(vec![i(4)]),
            dict(vec![(i(5), i(6))]),
            Variant::Vector3i(Vector3i::new(7, 8, 9)),
        ]),
        "array_objects" => arr(vec![refcounted(), item(4, "four")]),
        "tarray_int" => tarr(builtin(VariantType::Int), vec![i(1), i(2), i(-3)]),
        "tarray_float" => tarr(builtin(VariantType::Float), vec![f(1.0), f(0.1)]),
        "tarray_string" => tarr(builtin(VariantType::String), vec![s("a"), s("")]),
        "tarray_vector2" => tarr(builtin(VariantType::Vector2), vec![v2(1.0, 2.0)]),
        "tarray_array" => tarr(
            builtin(VariantType::Array),
            vec![arr(vec![i(1)]), arr(vec![])],
        ),
        "tarray_packed_bytes" => tarr(
            builtin(VariantType::PackedByteArray),
            vec![Variant::PackedByteArray(PackedByteArray(vec![1]))],
        ),
        "tarray_node_empty" => tarr(class("Node"), vec![]),
        "tarray_object_empty" => tarr(class("Object"), vec![]),
        "tarray_classless_object" => tarr(builtin(VariantType::Object), vec![]),
        "tarray_refcounted" => tarr(class("RefCounted"), vec![refcounted(), refcounted()]),
        "tarray_resource" => tarr(class("Resource"), vec![resource()]),
        "tarray_script_empty" => tarr(script(), vec![]),
        "tarray_script_items" => tarr(script(), vec![item(5, "five"), item(6, "")]),
        "packed_byte_empty" => Variant::PackedByteArray(PackedByteArray(vec![])),
        "packed_byte" => Variant::PackedByteArray(PackedByteArray(vec![0, 1, 254, 255, 7])),
        "packed_int32" => Variant::PackedInt32Array(PackedInt32Array(vec![i32::MIN, 0, i32::MAX])),
        "packed_int64" => Variant::PackedInt64Array(PackedInt64Array(vec![i64::MIN, 0, i64::MAX])),
        "packed_float32" => {
            Variant::PackedFloat32Array(PackedFloat32Array(vec![1.5, -0.0, f32::INFINITY]))
        }
        "packed_float64" => {
            Variant::PackedFloat64Array(PackedFloat64Array(vec![0.1, -0.0, f64::from_bits(1)]))
        }
        "packed_string" => Variant::PackedStringArray(PackedStringArray(vec![
            "".into(),
            "a".into(),
            "é😀".into(),
            "abcd".into(),
        ])),
        "packed_vector2" => {
            Variant::PackedVector2Array(PackedVector2Array(vec![vec2(1.0, 2.0), vec2(-3.0, 4.5)]))
        }
        "packed_vector3" => {
            Variant::PackedVector3Array(PackedVector3Array(vec![vec3(1.0, 2.0, 3.0)]))
        }
        "packed_color" => {
            Variant::PackedColorArray(PackedColorArray(vec![color(0.1, 0.2, 0.3, 0.4)]))
        }
        "packed_vector4" => Variant::PackedVector4Array(PackedVector4Array(vec![
            Vector4::new(x(1.0), x(2.0), x(3.0), x(4.0)),
            Vector4::new(x(-1.0), x(0.0), x(0.5), x(9.0)),
        ])),
        "deep_array_1000" => nested_arrays(1000),
        "deep_dict_300" => nested_dicts(300),
        "large_array_ints" => arr((0..20_000).map(|k| i(k * 7919 - 50_000_000)).collect()),
        "large_dict" => dict((0..5000).map(|k| (s(&format!("k{k}")), i(k))).collect()),
        "large_packed_bytes" => Variant::PackedByteArray(PackedByteArray(
            (0..1usize << 18).map(|k| ((k * 31) & 255) as u8).collect(),
        )),
        "large_packed_strings" => Variant::PackedStringArray(PackedStringArray(
            (0..3000).map(|k| format!("s{k}")).collect(),
        )),
        other => panic!("no expected value for case {other}"),
    }
}

/// `Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))`: those are its columns.
fn basis_123() -> Basis {
    Basis::from_rows(
        vec3(1.0, 4.0, 7.0),
        vec3(2.0, 5.0, 8.0),
        vec3(3.0, 6.0, 9.0),
    )
}

/// Whether a value holds an object instance: without full objects the engine sends it as an id
/// (per process), so only its shape can be compared.
pub fn has_objects(v: &Variant) -> bool {
    match v {
        Variant::Object(_) | Variant::ObjectId(_) => true,
        Variant::Array(a) => a.items.iter().any(has_objects),
        Variant::Dictionary(d) => d.iter().any(|(k, v)| has_objects(k) || has_objects(v)),
        _ => false,
    }
}

/// `v` as `bytes_to_var` reads it (no full objects): typed containers of a class or a script
/// (or the class-less OBJECT) carry `EncodedObjectAsID`; objects are left as they are (the ids
/// are per process, compared by [`same_shape`]).
pub fn as_read_without_objects(v: &Variant) -> Variant {
    let retype = |t: &ContainerType| match t {
        ContainerType::ClassName(_)
        | ContainerType::Script(_)
        | ContainerType::Builtin(VariantType::Object) => class("EncodedObjectAsID"),
        other => other.clone(),
    };
    match v {
        Variant::Array(a) => tarr(
            retype(&a.element_type),
            a.items.iter().map(as_read_without_objects).collect(),
        ),
        Variant::Dictionary(d) => tdict(
            retype(d.key_type()),
            retype(d.value_type()),
            d.iter()
                .map(|(k, v)| (as_read_without_objects(k), as_read_without_objects(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `got` is `want` with every full object replaced by an object id.
pub fn same_shape(got: &Variant, want: &Variant) -> bool {
    match (got, want) {
        (Variant::ObjectId(_), Variant::Object(_)) => true,
        (Variant::Array(g), Variant::Array(w)) => {
            g.element_type == w.element_type
                && g.items.len() == w.items.len()
                && g.items.iter().zip(&w.items).all(|(g, w)| same_shape(g, w))
        }
        (Variant::Dictionary(g), Variant::Dictionary(w)) => {
            g.key_type() == w.key_type()
                && g.value_type() == w.value_type()
                && g.len() == w.len()
                && g.iter()
                    .zip(w.iter())
                    .all(|((gk, gv), (wk, wv))| same_shape(gk, wk) && same_shape(gv, wv))
        }
        (g, w) => format!("{g:?}") == format!("{w:?}"),
    }
}
