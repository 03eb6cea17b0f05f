//! `JSON.to_native` (Godot 4.4+, `core/io/json.cpp`, `JSON::_to_native`): the JSON tree back
//! to a [`Variant`].
//!
//! Where the engine prints an error and puts `null` in the value, this returns an error. Where
//! the engine silently coerces (`"i:1.5"` is 1, a string or a bool in `args` is a number,
//! `"args": 5` is an empty Array, a value of the wrong type in a typed Array is skipped), this
//! refuses too, so that nothing is read as a value it does not say. The differences are listed
//! in the module documentation of [`crate::json`].

use super::tree::{Json, Node};
use crate::config::GodotVersion;
use crate::error::{Error, ErrorKind, Result};
use crate::text::lexer::strtod;
use crate::text::parser::syntax_error;
use crate::types::{
    Aabb, Basis, Callable, Color, NodePath, PackedByteArray, PackedColorArray, PackedFloat32Array,
    PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray, PackedVector2Array,
    PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion, Real, Rect2, Rect2i,
    Rid, StringName, Transform2D, Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4,
    Vector4i,
};
use crate::value::{Array, ContainerType, DictionaryBuilder, KeyMode, Object, Variant};
use crate::wire::VariantType;
use crate::wire::depth::{Depth, grow};

/// Reads a tree: `src` is the text it was parsed from (for error positions), if any.
pub(crate) struct ToNative<'a> {
    pub(crate) src: Option<&'a str>,
    pub(crate) allow_objects: bool,
}

/// The Godot 4 type named `name` (`Variant::get_type_by_name`).
fn type_by_name(name: &str) -> Option<VariantType> {
    let max = VariantType::variant_max(GodotVersion::V4_4);
    (0..max)
        .filter_map(|id| VariantType::from_id(id, GodotVersion::V4_4))
        .find(|t| t.name() == name)
}

/// A class name as the engine's `ClassDB` could hold one.
pub(crate) fn is_class_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Why `v` may not go in a container typed `t` (`ContainerTypeValidate::validate`), or
/// `None` when it may. The reader refuses such a value and the writer does not write one, so
/// that what [`super::from_native`] writes reads back.
pub(crate) fn misfit(t: &ContainerType, v: &Variant) -> Option<String> {
    let ok = match t {
        ContainerType::Untyped => true,
        // A null object is Nil here (the decoders read id 0 as null); the engine's typed
        // container of objects holds it.
        ContainerType::Builtin(crate::wire::VariantType::Object) => {
            matches!(v, Variant::Nil | Variant::Object(_) | Variant::ObjectId(_))
        }
        ContainerType::Builtin(t) => v.variant_type() == *t,
        ContainerType::ClassName(_) | ContainerType::Script(_) => {
            matches!(v, Variant::Nil | Variant::Object(_) | Variant::ObjectId(_))
        }
    };
    (!ok).then(|| {
        format!(
            "a {} in a container typed {}",
            v.variant_type().name(),
            match t {
                ContainerType::Builtin(t) => t.name(),
                ContainerType::ClassName(c) | ContainerType::Script(c) => c,
                ContainerType::Untyped => "Variant",
            }
        )
    })
}

/// The last entry named `key` (the engine's Dictionary keeps the last of repeated keys).
fn entry<'n>(entries: &'n [(String, Node)], key: &str) -> Option<&'n Node> {
    entries.iter().rev().find(|(k, _)| k == key).map(|(_, n)| n)
}

/// [`entry`], taken out of `entries` (a `null` left in its place).
fn take_entry(entries: &mut [(String, Node)], key: &str) -> Option<Node> {
    let (_, n) = entries.iter_mut().rev().find(|(k, _)| k == key)?;
    let at = n.at;
    Some(std::mem::replace(
        n,
        Node {
            at,
            json: Json::Null,
        },
    ))
}

impl ToNative<'_> {
    #[cold]
    fn err(&self, at: usize, msg: String) -> Error {
        match self.src {
            Some(src) => syntax_error(src, at, msg),
            None => Error::new(ErrorKind::Message(msg.into_boxed_str())),
        }
    }

    /// The Variant of `node`, which is consumed on the way: each part of the tree is freed
    /// once its Variant is built, so that the tree and the Variant are not both held whole.
    pub(crate) fn value(&self, node: Node, depth: Depth) -> Result<Variant> {
        let at = node.at;
        match node.json {
            Json::Null => Ok(Variant::Nil),
            Json::Bool(b) => Ok(Variant::Bool(b)),
            Json::Int(_) | Json::Float(_) => Err(self.err(
                at,
                "a bare number: Variant type \"float\" is not JSON-compliant \
                 (ints are \"i:1\", floats \"f:1.0\")"
                    .to_owned(),
            )),
            Json::Str(s) => self.prefixed(&s, at),
            Json::Array(items) => {
                let items = self.nested(at, depth, |depth| self.values(items, depth))?;
                Ok(Variant::Array(Box::new(Array {
                    element_type: ContainerType::Untyped,
                    items,
                })))
            }
            Json::Object(entries) => self.typed(entries, at, depth),
        }
    }

    /// The Variants of `items`, in a `Vec` of exactly their number.
    fn values(&self, items: Vec<Node>, depth: Depth) -> Result<Vec<Variant>> {
        let mut out = Vec::with_capacity(items.len());
        for n in items {
            out.push(self.value(n, depth)?);
        }
        Ok(out)
    }

    /// One level deeper: the depth check, then `f` on a fresh stack segment if needed.
    fn nested<T>(
        &self,
        at: usize,
        mut depth: Depth,
        f: impl FnOnce(Depth) -> Result<T>,
    ) -> Result<T> {
        if !depth.try_enter() {
            return Err(self.err(
                at,
                format!(
                    "nesting deeper than the limit of {} (Config::with_max_depth)",
                    depth.limit()
                ),
            ));
        }
        grow(|| f(depth))
    }

    /// A string: `i:`, `f:`, `s:`, `sn:` or `np:` and the text.
    fn prefixed(&self, s: &str, at: usize) -> Result<Variant> {
        if let Some(rest) = s.strip_prefix("i:") {
            let digits = rest.strip_prefix('-').unwrap_or(rest);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(self.err(
                    at,
                    format!("invalid int {s:?}: expected \"i:\" and decimal digits"),
                ));
            }
            return rest.parse::<i64>().map(Variant::Int).map_err(|_| {
                self.err(at, format!("int {s:?} out of range for Godot's 64-bit int"))
            });
        }
        if let Some(rest) = s.strip_prefix("f:") {
            return match rest {
                "inf" => Ok(Variant::Float(f64::INFINITY)),
                "-inf" => Ok(Variant::Float(f64::NEG_INFINITY)),
                "nan" => Ok(Variant::Float(f64::NAN)),
                _ if is_float_text(rest) => Ok(Variant::Float(strtod(rest))),
                _ => Err(self.err(
                    at,
                    format!("invalid float {s:?}: expected \"f:\" and a decimal number"),
                )),
            };
        }
        if let Some(rest) = s.strip_prefix("s:") {
            return Ok(Variant::String(rest.into()));
        }
        if let Some(rest) = s.strip_prefix("sn:") {
            return Ok(Variant::StringName(StringName(rest.to_owned())));
        }
        if let Some(rest) = s.strip_prefix("np:") {
            return Ok(Variant::NodePath(Box::new(NodePath::from(rest))));
        }
        Err(self.err(
            at,
            format!(
                "invalid string {s:?}: the type prefix is not recognized (i:, f:, s:, sn:, np:)"
            ),
        ))
    }

    /// `{"type": ..., ...}`.
    #[allow(clippy::too_many_lines)] // one arm per Godot type, as in the engine
    fn typed(&self, mut entries: Vec<(String, Node)>, at: usize, depth: Depth) -> Result<Variant> {
        let Some(type_node) = take_entry(&mut entries, "type") else {
            return Err(self.err(at, "object without \"type\"".to_owned()));
        };
        let Json::Str(name) = type_node.json else {
            return Err(self.err(type_node.at, "\"type\" is not a string".to_owned()));
        };
        let name = &*name;
        let Some(ty) = type_by_name(name).filter(|t| *t != VariantType::Object) else {
            return self.object(entries, name, at, depth);
        };
        if matches!(ty, VariantType::Dictionary | VariantType::Array) {
            // Containers take their items out of the tree (see `value`).
            let args = match take_entry(&mut entries, "args") {
                None => return Err(self.err(at, format!("{name} without \"args\""))),
                Some(Node {
                    json: Json::Array(items),
                    ..
                }) => items,
                Some(n) => {
                    return Err(self.err(n.at, format!("\"args\" of {name} is not an array")));
                }
            };
            return if ty == VariantType::Dictionary {
                self.dictionary(&entries, args, at, depth)
            } else {
                self.array(&entries, args, at, depth)
            };
        }
        let entries = &entries;
        let args = || -> Result<&[Node]> {
            match entry(entries, "args") {
                None => Err(self.err(at, format!("{name} without \"args\""))),
                Some(Node {
                    json: Json::Array(items),
                    ..
                }) => Ok(items),
                Some(n) => Err(self.err(n.at, format!("\"args\" of {name} is not an array"))),
            }
        };
        let fixed = |n: usize| -> Result<Vec<f64>> {
            let items = args()?;
            if items.len() != n {
                return Err(self.err(
                    at,
                    format!("{name} needs {n} numbers in \"args\", got {}", items.len()),
                ));
            }
            items.iter().map(|i| self.number(i)).collect()
        };
        let reals =
            |n: usize| -> Result<Vec<Real>> { Ok(fixed(n)?.into_iter().map(to_real).collect()) };
        let int32s = |n: usize| -> Result<Vec<i32>> {
            let items = args()?;
            if items.len() != n {
                return Err(self.err(
                    at,
                    format!("{name} needs {n} numbers in \"args\", got {}", items.len()),
                ));
            }
            items.iter().map(|i| self.int32(i)).collect()
        };
        let grouped = |n: usize| -> Result<Vec<f64>> {
            let items = args()?;
            if !items.len().is_multiple_of(n) {
                return Err(self.err(
                    at,
                    format!(
                        "{name} needs a multiple of {n} numbers in \"args\", got {}",
                        items.len()
                    ),
                ));
            }
            items.iter().map(|i| self.number(i)).collect()
        };
        let v2 = |r: &[Real]| Vector2 {
            x: r.first().copied().unwrap_or_default(),
            y: r.get(1).copied().unwrap_or_default(),
        };
        let v3 = |r: &[Real]| Vector3 {
            x: r.first().copied().unwrap_or_default(),
            y: r.get(1).copied().unwrap_or_default(),
            z: r.get(2).copied().unwrap_or_default(),
        };
        let v4 = |r: &[Real]| Vector4 {
            x: r.first().copied().unwrap_or_default(),
            y: r.get(1).copied().unwrap_or_default(),
            z: r.get(2).copied().unwrap_or_default(),
            w: r.get(3).copied().unwrap_or_default(),
        };
        let col = |r: &[f64]| Color {
            r: to_f32(r.first().copied().unwrap_or_default()),
            g: to_f32(r.get(1).copied().unwrap_or_default()),
            b: to_f32(r.get(2).copied().unwrap_or_default()),
            a: to_f32(r.get(3).copied().unwrap_or_default()),
        };
        let i = |r: &[i32], k: usize| r.get(k).copied().unwrap_or_default();
        let basis = |r: &[Real]| {
            let c = |k: usize| r.get(k).copied().unwrap_or_default();
            // `args` holds the columns; Basis keeps rows.
            Basis {
                rows: [
                    Vector3 {
                        x: c(0),
                        y: c(3),
                        z: c(6),
                    },
                    Vector3 {
                        x: c(1),
                        y: c(4),
                        z: c(7),
                    },
                    Vector3 {
                        x: c(2),
                        y: c(5),
                        z: c(8),
                    },
                ],
            }
        };
        let tail = |r: &[Real], from: usize| r.get(from..).unwrap_or_default().to_vec();
        Ok(match ty {
            VariantType::Nil | VariantType::Bool => {
                return Err(self.err(
                    at,
                    format!("unexpected \"type\": Variant type \"{name}\" is JSON-compliant"),
                ));
            }
            VariantType::Int
            | VariantType::Float
            | VariantType::String
            | VariantType::StringName
            | VariantType::NodePath => {
                return Err(self.err(
                    at,
                    format!(
                        "unexpected \"type\": Variant type \"{name}\" must be represented as a string"
                    ),
                ));
            }
            VariantType::Rid => Variant::Rid(Rid(0)),
            VariantType::Callable => Variant::Callable(Callable),
            VariantType::Signal => Variant::Signal(Box::default()),
            VariantType::Vector2 => Variant::Vector2(v2(&reals(2)?)),
            VariantType::Vector2i => {
                let r = int32s(2)?;
                Variant::Vector2i(Vector2i {
                    x: i(&r, 0),
                    y: i(&r, 1),
                })
            }
            VariantType::Rect2 => {
                let r = reals(4)?;
                Variant::Rect2(Rect2 {
                    position: v2(&r),
                    size: v2(&tail(&r, 2)),
                })
            }
            VariantType::Rect2i => {
                let r = int32s(4)?;
                Variant::Rect2i(Rect2i {
                    position: Vector2i {
                        x: i(&r, 0),
                        y: i(&r, 1),
                    },
                    size: Vector2i {
                        x: i(&r, 2),
                        y: i(&r, 3),
                    },
                })
            }
            VariantType::Vector3 => Variant::Vector3(v3(&reals(3)?)),
            VariantType::Vector3i => {
                let r = int32s(3)?;
                Variant::Vector3i(Vector3i {
                    x: i(&r, 0),
                    y: i(&r, 1),
                    z: i(&r, 2),
                })
            }
            VariantType::Transform2D => {
                let r = reals(6)?;
                Variant::Transform2D(Box::new(Transform2D {
                    x: v2(&r),
                    y: v2(&tail(&r, 2)),
                    origin: v2(&tail(&r, 4)),
                }))
            }
            VariantType::Vector4 => Variant::Vector4(v4(&reals(4)?)),
            VariantType::Vector4i => {
                let r = int32s(4)?;
                Variant::Vector4i(Vector4i {
                    x: i(&r, 0),
                    y: i(&r, 1),
                    z: i(&r, 2),
                    w: i(&r, 3),
                })
            }
            VariantType::Plane => {
                let r = reals(4)?;
                Variant::Plane(Plane {
                    normal: v3(&r),
                    d: r.get(3).copied().unwrap_or_default(),
                })
            }
            VariantType::Quaternion => {
                let r = reals(4)?;
                let v = v4(&r);
                Variant::Quaternion(Quaternion {
                    x: v.x,
                    y: v.y,
                    z: v.z,
                    w: v.w,
                })
            }
            VariantType::Aabb => {
                let r = reals(6)?;
                Variant::Aabb(Box::new(Aabb {
                    position: v3(&r),
                    size: v3(&tail(&r, 3)),
                }))
            }
            VariantType::Basis => Variant::Basis(Box::new(basis(&reals(9)?))),
            VariantType::Transform3D => {
                let r = reals(12)?;
                Variant::Transform3D(Box::new(Transform3D {
                    basis: basis(&r),
                    origin: v3(&tail(&r, 9)),
                }))
            }
            VariantType::Projection => {
                let r = reals(16)?;
                Variant::Projection(Box::new(Projection {
                    columns: [
                        v4(&r),
                        v4(&tail(&r, 4)),
                        v4(&tail(&r, 8)),
                        v4(&tail(&r, 12)),
                    ],
                }))
            }
            VariantType::Color => Variant::Color(col(&fixed(4)?)),
            VariantType::PackedByteArray => {
                let items = args()?;
                Variant::PackedByteArray(PackedByteArray(
                    items.iter().map(|n| self.byte(n)).collect::<Result<_>>()?,
                ))
            }
            VariantType::PackedInt32Array => Variant::PackedInt32Array(PackedInt32Array(
                args()?
                    .iter()
                    .map(|n| self.int32(n))
                    .collect::<Result<_>>()?,
            )),
            VariantType::PackedInt64Array => Variant::PackedInt64Array(PackedInt64Array(
                args()?
                    .iter()
                    .map(|n| self.int64(n))
                    .collect::<Result<_>>()?,
            )),
            VariantType::PackedFloat32Array => Variant::PackedFloat32Array(PackedFloat32Array(
                args()?
                    .iter()
                    .map(|n| self.number(n).map(to_f32))
                    .collect::<Result<_>>()?,
            )),
            VariantType::PackedFloat64Array => Variant::PackedFloat64Array(PackedFloat64Array(
                args()?
                    .iter()
                    .map(|n| self.number(n))
                    .collect::<Result<_>>()?,
            )),
            VariantType::PackedStringArray => Variant::PackedStringArray(PackedStringArray(
                args()?
                    .iter()
                    .map(|n| match &n.json {
                        Json::Str(s) => Ok(s.clone()),
                        j => Err(self.err(
                            n.at,
                            format!(
                                "expected a string in PackedStringArray, got {}",
                                j.type_name()
                            ),
                        )),
                    })
                    .collect::<Result<_>>()?,
            )),
            VariantType::PackedVector2Array => Variant::PackedVector2Array(PackedVector2Array(
                grouped(2)?
                    .chunks_exact(2)
                    .map(|c| v2(&c.iter().copied().map(to_real).collect::<Vec<_>>()))
                    .collect(),
            )),
            VariantType::PackedVector3Array => Variant::PackedVector3Array(PackedVector3Array(
                grouped(3)?
                    .chunks_exact(3)
                    .map(|c| v3(&c.iter().copied().map(to_real).collect::<Vec<_>>()))
                    .collect(),
            )),
            VariantType::PackedColorArray => Variant::PackedColorArray(PackedColorArray(
                grouped(4)?.chunks_exact(4).map(col).collect(),
            )),
            VariantType::PackedVector4Array => Variant::PackedVector4Array(PackedVector4Array(
                grouped(4)?
                    .chunks_exact(4)
                    .map(|c| v4(&c.iter().copied().map(to_real).collect::<Vec<_>>()))
                    .collect(),
            )),
            // Read above.
            VariantType::Dictionary | VariantType::Array | VariantType::Object => {
                return Err(self.err(at, format!("invalid type \"{name}\"")));
            }
        })
    }

    /// A number in `args`: Godot reads every JSON number as a double.
    fn number(&self, n: &Node) -> Result<f64> {
        match n.json {
            Json::Float(x) => Ok(x),
            #[allow(clippy::cast_precision_loss)] // as the engine: every number is a double
            Json::Int(i) => Ok(i as f64),
            ref j => Err(self.err(
                n.at,
                format!("expected a number in \"args\", got {}", j.type_name()),
            )),
        }
    }

    /// An integral number within `lo..=hi` (the engine truncates, and wraps outside).
    fn integral(&self, n: &Node, lo: f64, hi: f64, what: &str) -> Result<f64> {
        let x = self.number(n)?;
        if x.fract() != 0.0 || !(lo..=hi).contains(&x) {
            return Err(self.err(n.at, format!("{x} is not a {what}")));
        }
        Ok(x)
    }

    #[allow(clippy::cast_possible_truncation)] // range checked
    fn int32(&self, n: &Node) -> Result<i32> {
        Ok(self.integral(n, f64::from(i32::MIN), f64::from(i32::MAX), "32-bit int")? as i32)
    }

    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // range checked
    fn byte(&self, n: &Node) -> Result<u8> {
        Ok(self.integral(n, 0.0, 255.0, "byte (0 to 255)")? as u8)
    }

    #[allow(clippy::cast_possible_truncation)] // range checked
    fn int64(&self, n: &Node) -> Result<i64> {
        // 2^63 itself is out of range; the largest double below it is in.
        Ok(self.integral(
            n,
            -9_223_372_036_854_775_808.0,
            9_223_372_036_854_774_784.0,
            "64-bit int",
        )? as i64)
    }

    /// `_decode_container_type`: the entry `key` of a typed container.
    fn container_type(&self, entries: &[(String, Node)], key: &str) -> Result<ContainerType> {
        let Some(n) = entry(entries, key) else {
            return Ok(ContainerType::Untyped);
        };
        let Json::Str(name) = &n.json else {
            return Err(self.err(n.at, format!("\"{key}\" is not a string")));
        };
        if let Some(t) = type_by_name(name).filter(|t| *t != VariantType::Object) {
            return Ok(match t {
                VariantType::Nil => ContainerType::Untyped,
                t => ContainerType::Builtin(t),
            });
        }
        let refused = || {
            Error::new(ErrorKind::ObjectsNotAllowed {
                class: name.as_str().into(),
            })
        };
        if name.starts_with("res://") {
            return if self.allow_objects {
                Ok(ContainerType::Script(name.clone()))
            } else {
                Err(refused())
            };
        }
        if !is_class_name(name) {
            return Err(self.err(n.at, format!("invalid type \"{name}\"")));
        }
        if !self.allow_objects {
            return Err(refused());
        }
        Ok(ContainerType::ClassName(name.clone()))
    }

    /// Whether `v` may go in a container typed `t`: [`misfit`].
    fn fits(&self, t: &ContainerType, v: &Variant, at: usize) -> Result<()> {
        match misfit(t, v) {
            None => Ok(()),
            Some(msg) => Err(self.err(at, msg)),
        }
    }

    fn array(
        &self,
        entries: &[(String, Node)],
        args: Vec<Node>,
        at: usize,
        depth: Depth,
    ) -> Result<Variant> {
        let element_type = self.container_type(entries, "elem_type")?;
        let items = self.nested(at, depth, |depth| {
            let mut items = Vec::with_capacity(args.len());
            for n in args {
                let n_at = n.at;
                let v = self.value(n, depth)?;
                self.fits(&element_type, &v, n_at)?;
                items.push(v);
            }
            Ok(items)
        })?;
        Ok(Variant::Array(Box::new(Array {
            element_type,
            items,
        })))
    }

    fn dictionary(
        &self,
        entries: &[(String, Node)],
        args: Vec<Node>,
        at: usize,
        depth: Depth,
    ) -> Result<Variant> {
        if !args.len().is_multiple_of(2) {
            return Err(self.err(
                at,
                format!(
                    "Dictionary needs keys and values in \"args\", got {} items",
                    args.len()
                ),
            ));
        }
        let key_type = self.container_type(entries, "key_type")?;
        let value_type = self.container_type(entries, "value_type")?;
        // Godot 4's Dictionary: a String and a StringName of one text are one key.
        let mut d = DictionaryBuilder::typed(
            KeyMode::StringLike,
            args.len() / 2,
            key_type.clone(),
            value_type.clone(),
        );
        self.nested(at, depth, |depth| {
            let mut args = args.into_iter();
            while let (Some(k), Some(v)) = (args.next(), args.next()) {
                let (k_at, v_at) = (k.at, v.at);
                let key = self.value(k, depth)?;
                self.fits(&key_type, &key, k_at)?;
                let value = self.value(v, depth)?;
                self.fits(&value_type, &value, v_at)?;
                d.insert(key, value);
            }
            Ok(())
        })?;
        Ok(Variant::Dictionary(d.finish()))
    }

    /// `{"type": Class, "props": [name, value, ...]}`: a full object, as data.
    fn object(
        &self,
        mut entries: Vec<(String, Node)>,
        class: &str,
        at: usize,
        depth: Depth,
    ) -> Result<Variant> {
        if !is_class_name(class) {
            return Err(self.err(at, format!("invalid type \"{class}\"")));
        }
        if !self.allow_objects {
            let e = Error::new(ErrorKind::ObjectsNotAllowed {
                class: class.into(),
            });
            return Err(if self.src.is_some() { e.or_at(at) } else { e });
        }
        let props = match take_entry(&mut entries, "props") {
            Some(Node {
                json: Json::Array(items),
                ..
            }) => items,
            Some(n) => return Err(self.err(n.at, "\"props\" is not an array".to_owned())),
            None => return Err(self.err(at, format!("object of class {class} without \"props\""))),
        };
        drop(entries);
        if !props.len().is_multiple_of(2) {
            return Err(self.err(
                at,
                format!("\"props\" of {class} has an odd number of items"),
            ));
        }
        let properties = self.nested(at, depth, |depth| {
            let mut properties = Vec::with_capacity(props.len() / 2);
            let mut props = props.into_iter();
            while let (Some(k), Some(v)) = (props.next(), props.next()) {
                let Json::Str(name) = k.json else {
                    return Err(self.err(k.at, "a property name is not a string".to_owned()));
                };
                properties.push((name, self.value(v, depth)?));
            }
            Ok(properties)
        })?;
        Ok(Variant::Object(Box::new(Object {
            class: class.to_owned(),
            properties,
        })))
    }
}

/// A double as `real_t` (the engine's implicit conversion: round to nearest).
#[allow(clippy::cast_possible_truncation, clippy::unnecessary_cast)]
fn to_real(x: f64) -> Real {
    x as Real
}

#[allow(clippy::cast_possible_truncation)]
fn to_f32(x: f64) -> f32 {
    x as f32
}

/// A decimal number `built_in_strtod` reads whole: a sign, digits with at most one point,
/// and an exponent.
fn is_float_text(s: &str) -> bool {
    let b = s.as_bytes();
    let mut p = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let mut digits = 0;
    let mut dot = false;
    while let Some(&c) = b.get(p) {
        match c {
            b'0'..=b'9' => digits += 1,
            b'.' if !dot => dot = true,
            _ => break,
        }
        p += 1;
    }
    if digits == 0 {
        return false;
    }
    if matches!(b.get(p), Some(b'e' | b'E')) {
        p += 1;
        if matches!(b.get(p), Some(b'-' | b'+')) {
            p += 1;
        }
        let start = p;
        while b.get(p).is_some_and(u8::is_ascii_digit) {
            p += 1;
        }
        if p == start {
            return false;
        }
    }
    p == b.len()
}
