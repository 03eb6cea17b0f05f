//! `JSON.from_native` (Godot 4.4+, `core/io/json.cpp`, `JSON::_from_native`): a
//! [`Variant`] as the JSON tree that keeps its type. Objects in the tree are built with their
//! keys in `JSON.stringify`'s default order (sorted), so the printer needs no sort.

use super::tree::Json;
use crate::error::{Error, ErrorKind, Result};
use crate::types::{Basis, Color, Vector2, Vector3, Vector4};
use crate::value::{ContainerType, Variant};
use crate::wire::VariantType;
use crate::wire::depth::{Depth, grow};

/// Builds the tree of `v`: `full_objects` is `JSON.from_native`'s second argument, `max_depth`
/// the nesting limit (containers and objects, counted as the binary decoder counts them).
pub(crate) fn from_native(v: &Variant, full_objects: bool, max_depth: usize) -> Result<Json> {
    FromNative { full_objects }.value(v, Depth::new(max_depth))
}

struct FromNative {
    full_objects: bool,
}

fn obj(entries: Vec<(&str, Json)>) -> Json {
    Json::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.node()))
            .collect(),
    )
}

/// `{"args": [...], "type": name}`. The items go straight into the tree's array, which is
/// allocated once at its size (every caller's iterator knows its length).
fn with_args(name: &str, args: impl IntoIterator<Item = Json>) -> Json {
    obj(vec![
        (
            "args",
            Json::Array(args.into_iter().map(Json::node).collect()),
        ),
        ("type", Json::Str(name.to_owned())),
    ])
}

/// A `real_t` or `float` component: always a double in the tree.
fn real(x: impl Into<f64>) -> Json {
    Json::Float(x.into())
}

fn v2(v: &Vector2) -> [Json; 2] {
    [real(v.x), real(v.y)]
}

fn v3(v: &Vector3) -> [Json; 3] {
    [real(v.x), real(v.y), real(v.z)]
}

fn v4(v: &Vector4) -> [Json; 4] {
    [real(v.x), real(v.y), real(v.z), real(v.w)]
}

fn color(c: &Color) -> [Json; 4] {
    [real(c.r), real(c.g), real(c.b), real(c.a)]
}

/// A Basis's columns, one after the other (the engine's `get_column(0..3)`).
fn basis_columns(b: &Basis) -> Vec<Json> {
    let [r0, r1, r2] = &b.rows;
    vec![
        real(r0.x),
        real(r1.x),
        real(r2.x),
        real(r0.y),
        real(r1.y),
        real(r2.y),
        real(r0.z),
        real(r1.z),
        real(r2.z),
    ]
}

fn ints<T: Copy + Into<i64>>(items: &[T]) -> impl Iterator<Item = Json> + '_ {
    items.iter().map(|&i| Json::Int(i.into()))
}

/// A typed container's element that its type does not admit (our decoder keeps one, the
/// engine drops it): written, the text would not read back, here or in the engine.
fn fits(t: &ContainerType, v: &Variant) -> Result<()> {
    match super::to_native::misfit(t, v) {
        None => Ok(()),
        Some(msg) => Err(Error::new(ErrorKind::Unsupported(
            format!("{msg}: JSON.to_native does not read it back").into(),
        ))),
    }
}

/// The class the engine decodes an object sent by id into (`bytes_to_var`, with or without
/// objects allowed): a `RefCounted` holding the id, with no script.
const ENCODED_OBJECT_AS_ID: &str = "EncodedObjectAsID";

/// What `JSON.from_native(v, true)` writes for the `EncodedObjectAsID` the engine holds for an
/// object sent by id: its two stored properties in property-list order, the id as the engine's
/// `int` (a signed 64-bit integer, so an id with the top bit set is negative).
fn encoded_object_as_id(id: u64) -> Json {
    obj(vec![
        (
            "props",
            Json::Array(vec![
                Json::Str("object_id".to_owned()).node(),
                Json::Str(format!("i:{}", i64::from_ne_bytes(id.to_ne_bytes()))).node(),
                Json::Str("script".to_owned()).node(),
                Json::Null.node(),
            ]),
        ),
        ("type", Json::Str(ENCODED_OBJECT_AS_ID.to_owned())),
    ])
}

/// An object sent by id (not 0) as an Array element or a Dictionary key of a container typed
/// by a class or a script: the engine's decoder validates it as an `EncodedObjectAsID`, which
/// only a container of `Object`, `RefCounted` or `EncodedObjectAsID` admits, and drops it from
/// any other (our decoder keeps it). Dictionary values are not validated by the engine's
/// decoder nor by `JSON.to_native`, so they are written.
fn id_fits(t: &ContainerType, v: &Variant) -> Result<()> {
    let Variant::ObjectId(id) = v else {
        return Ok(());
    };
    let admitted = match t {
        ContainerType::ClassName(c) => {
            matches!(c.as_str(), "Object" | "RefCounted" | ENCODED_OBJECT_AS_ID)
        }
        ContainerType::Script(_) => false,
        ContainerType::Untyped | ContainerType::Builtin(_) => true,
    };
    if id.0 == 0 || admitted {
        return Ok(());
    }
    let ty = match t {
        ContainerType::ClassName(c) | ContainerType::Script(c) => c.as_str(),
        ContainerType::Untyped | ContainerType::Builtin(_) => "Variant",
    };
    Err(Error::new(ErrorKind::Unsupported(
        format!(
            "object id {} in a container typed {ty}: the engine holds it as an \
             {ENCODED_OBJECT_AS_ID}, which that type does not admit (its decoder drops it)",
            id.0
        )
        .into(),
    )))
}

impl FromNative {
    /// A class name the engine could hold (what [`super::to_native`] reads back).
    fn class_name(class: &str) -> Result<Json> {
        if super::to_native::is_class_name(class) {
            Ok(Json::Str(class.to_owned()))
        } else {
            Err(Error::new(ErrorKind::Unsupported(
                format!("class name {class:?}: not a name a Godot class can have").into(),
            )))
        }
    }

    fn objects_refused(class: &str) -> Error {
        Error::new(ErrorKind::ObjectsNotAllowed {
            class: class.into(),
        })
    }

    /// `_encode_container_type`: the entry for a typed container's element, key or value type.
    fn container_type(&self, t: &ContainerType) -> Result<Option<Json>> {
        Ok(match t {
            ContainerType::Untyped | ContainerType::Builtin(VariantType::Nil) => None,
            ContainerType::Builtin(VariantType::Object) => {
                if !self.full_objects {
                    return Err(Self::objects_refused("Object"));
                }
                Some(Json::Str("Object".to_owned()))
            }
            ContainerType::Builtin(t) => Some(Json::Str(t.name().to_owned())),
            ContainerType::ClassName(class) => {
                if !self.full_objects {
                    return Err(Self::objects_refused(class));
                }
                Some(Self::class_name(class)?)
            }
            ContainerType::Script(path) => {
                if !self.full_objects {
                    return Err(Self::objects_refused(path));
                }
                if !path.starts_with("res://") {
                    return Err(Error::new(ErrorKind::Unsupported(
                        format!(
                            "container script path {path:?}: Godot writes only res:// paths \
                             (\"Failed to encode a path to a custom script for a container type\")"
                        )
                        .into(),
                    )));
                }
                Some(Json::Str(path.clone()))
            }
        })
    }

    /// One level deeper: the depth check, then `f` on a fresh stack segment if needed.
    fn nested<T>(&self, mut depth: Depth, f: impl FnOnce(Depth) -> Result<T>) -> Result<T> {
        if !depth.try_enter() {
            return Err(depth.exceeded_here());
        }
        grow(|| f(depth))
    }

    #[allow(clippy::too_many_lines)] // one arm per Godot type, as in the engine
    fn value(&self, v: &Variant, depth: Depth) -> Result<Json> {
        let name = v.variant_type().name();
        Ok(match v {
            Variant::Nil => Json::Null,
            Variant::Bool(b) => Json::Bool(*b),
            Variant::Int(i) => Json::Str(format!("i:{i}")),
            Variant::Float(f) => Json::Str(format!("f:{}", super::write::variant_float(*f))),
            Variant::String(s) => Json::Str(format!("s:{s}")),
            Variant::StringName(s) => Json::Str(format!("sn:{}", s.as_str())),
            Variant::NodePath(p) => Json::Str(format!("np:{p}")),
            Variant::Rid(_) | Variant::Callable(_) | Variant::Signal(_) => {
                obj(vec![("type", Json::Str(name.to_owned()))])
            }
            Variant::Vector2(v) => with_args(name, v2(v)),
            Variant::Vector2i(v) => with_args(name, ints(&[v.x, v.y])),
            Variant::Rect2(r) => {
                let [a, b] = v2(&r.position);
                let [c, d] = v2(&r.size);
                with_args(name, vec![a, b, c, d])
            }
            Variant::Rect2i(r) => with_args(
                name,
                ints(&[r.position.x, r.position.y, r.size.x, r.size.y]),
            ),
            Variant::Vector3(v) => with_args(name, v3(v)),
            Variant::Vector3i(v) => with_args(name, ints(&[v.x, v.y, v.z])),
            Variant::Transform2D(t) => {
                let mut args = Vec::with_capacity(6);
                for col in [&t.x, &t.y, &t.origin] {
                    args.extend(v2(col));
                }
                with_args(name, args)
            }
            Variant::Vector4(v) => with_args(name, v4(v)),
            Variant::Vector4i(v) => with_args(name, ints(&[v.x, v.y, v.z, v.w])),
            Variant::Plane(p) => {
                let mut args: Vec<Json> = v3(&p.normal).into();
                args.push(real(p.d));
                with_args(name, args)
            }
            Variant::Quaternion(q) => {
                with_args(name, vec![real(q.x), real(q.y), real(q.z), real(q.w)])
            }
            Variant::Aabb(a) => {
                let mut args: Vec<Json> = v3(&a.position).into();
                args.extend(v3(&a.size));
                with_args(name, args)
            }
            Variant::Basis(b) => with_args(name, basis_columns(b)),
            Variant::Transform3D(t) => {
                let mut args = basis_columns(&t.basis);
                args.extend(v3(&t.origin));
                with_args(name, args)
            }
            Variant::Projection(p) => with_args(name, p.columns.iter().flat_map(v4)),
            Variant::Color(c) => with_args(name, color(c)),
            Variant::Object(o) => {
                if !self.full_objects {
                    return Err(Self::objects_refused(&o.class));
                }
                self.nested(depth, |depth| {
                    let mut props = Vec::with_capacity(o.properties.len().saturating_mul(2));
                    for (k, value) in &o.properties {
                        props.push(Json::Str(k.clone()).node());
                        props.push(self.value(value, depth)?.node());
                    }
                    Ok(obj(vec![
                        ("props", Json::Array(props)),
                        ("type", Self::class_name(&o.class)?),
                    ]))
                })?
            }
            Variant::ObjectId(id) => {
                if !self.full_objects {
                    return Err(Self::objects_refused("Object"));
                }
                if id.0 == 0 {
                    // A null object: `get_validated_object()` is null, the engine writes null.
                    Json::Null
                } else {
                    // An object in the tree, a level deeper as a full object is (what reads
                    // it back counts it so).
                    self.nested(depth, |_| Ok(encoded_object_as_id(id.0)))?
                }
            }
            Variant::Dictionary(d) => {
                let key_type = self.container_type(d.key_type())?;
                let value_type = self.container_type(d.value_type())?;
                let args = self.nested(depth, |depth| {
                    let mut args = Vec::with_capacity(d.len().saturating_mul(2));
                    for (k, value) in d.iter() {
                        fits(d.key_type(), k)?;
                        id_fits(d.key_type(), k)?;
                        fits(d.value_type(), value)?;
                        args.push(self.value(k, depth)?.node());
                        args.push(self.value(value, depth)?.node());
                    }
                    Ok(args)
                })?;
                let mut entries = vec![("args", Json::Array(args))];
                if let Some(k) = key_type {
                    entries.push(("key_type", k));
                }
                entries.push(("type", Json::Str(name.to_owned())));
                if let Some(v) = value_type {
                    entries.push(("value_type", v));
                }
                obj(entries)
            }
            Variant::Array(a) => {
                let elem_type = self.container_type(&a.element_type)?;
                let args = self.nested(depth, |depth| {
                    // At its size: a `Vec` grown one push at a time holds 4 for 1.
                    let mut args = Vec::with_capacity(a.items.len());
                    for item in &a.items {
                        fits(&a.element_type, item)?;
                        id_fits(&a.element_type, item)?;
                        args.push(self.value(item, depth)?.node());
                    }
                    Ok(args)
                })?;
                match elem_type {
                    None => Json::Array(args),
                    Some(t) => obj(vec![
                        ("args", Json::Array(args)),
                        ("elem_type", t),
                        ("type", Json::Str(name.to_owned())),
                    ]),
                }
            }
            Variant::PackedByteArray(a) => with_args(name, ints(a)),
            Variant::PackedInt32Array(a) => with_args(name, ints(a)),
            Variant::PackedInt64Array(a) => with_args(name, ints(a)),
            Variant::PackedFloat32Array(a) => with_args(name, a.iter().map(|&x| real(x))),
            Variant::PackedFloat64Array(a) => with_args(name, a.iter().map(|&x| real(x))),
            Variant::PackedStringArray(a) => {
                with_args(name, a.iter().map(|s| Json::Str(s.clone())))
            }
            Variant::PackedVector2Array(a) => with_args(name, a.iter().flat_map(v2)),
            Variant::PackedVector3Array(a) => with_args(name, a.iter().flat_map(v3)),
            Variant::PackedColorArray(a) => with_args(name, a.iter().flat_map(color)),
            Variant::PackedVector4Array(a) => with_args(name, a.iter().flat_map(v4)),
        })
    }
}
