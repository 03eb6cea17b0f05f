//! Writing the values of a binary resource file (`write_variant` of
//! `core/io/resource_format_binary.cpp`): the file's own type ids ([`binary_variant`]'s
//! `VARIANT_*`), little-endian, 32-bit `real_t`, references by table index.
//!
//! [`binary_variant`]: super::binary_variant

use super::binary_variant::*;
use crate::error::{Error, ErrorKind, Result};
use crate::resource::model::{Reference, reference};
use crate::types::{Color, ObjectId, Real, Vector2, Vector3, Vector4};
use crate::value::Variant;
use crate::wire::depth::grow;

/// How the references of a file are written: the external ids and the internal ids in table
/// order.
pub(crate) struct Tables<'a> {
    pub(crate) godot3: bool,
    pub(crate) external: &'a [String],
    pub(crate) internal: &'a [String],
    pub(crate) strings: &'a std::collections::HashMap<String, u32>,
}

/// The writer's output, little-endian, 32-bit `real_t` (as the engines save).
pub(crate) struct Writer {
    pub(crate) out: Vec<u8>,
}

impl Writer {
    pub(crate) fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    /// A `real_t` of a single-precision engine (both engines' release builds): 32 bits.
    #[allow(clippy::cast_possible_truncation, clippy::unnecessary_cast)]
    fn real(&mut self, v: Real) {
        self.u32((v as f32).to_bits());
    }

    /// `save_unicode_string`: the UTF-8 length plus one, the bytes, a NUL.
    pub(crate) fn ustring(&mut self, s: &str) -> Result<()> {
        self.ustring_flagged(s, false)
    }

    fn ustring_flagged(&mut self, s: &str, bit: bool) -> Result<()> {
        if s.contains('\0') {
            return Err(ErrorKind::Unsupported(
                "a string containing NUL (the binary form ends strings at a NUL)".into(),
            )
            .into());
        }
        let len = u32::try_from(s.len() + 1)
            .ok()
            .filter(|n| *n < 0x8000_0000)
            .ok_or_else(|| {
                Error::new(ErrorKind::Unsupported("a string of 2 GiB or more".into()))
            })?;
        self.u32(if bit { len | 0x8000_0000 } else { len });
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(0);
        Ok(())
    }

    fn count(&mut self, n: usize) -> Result<()> {
        let n = u32::try_from(n).map_err(|_| {
            Error::new(ErrorKind::Unsupported(
                "a container of 2^32 or more elements".into(),
            ))
        })?;
        self.u32(n);
        Ok(())
    }

    fn vector2(&mut self, v: &Vector2) {
        self.real(v.x);
        self.real(v.y);
    }

    fn vector3(&mut self, v: &Vector3) {
        self.real(v.x);
        self.real(v.y);
        self.real(v.z);
    }

    fn vector4(&mut self, v: &Vector4) {
        self.real(v.x);
        self.real(v.y);
        self.real(v.z);
        self.real(v.w);
    }

    fn color(&mut self, c: &Color) {
        for v in [c.r, c.g, c.b, c.a] {
            self.u32(v.to_bits());
        }
    }

    fn table_string(&mut self, s: &str, t: &Tables<'_>) -> Result<()> {
        match t.strings.get(s) {
            Some(&i) => {
                self.u32(i);
                Ok(())
            }
            None => self.ustring_flagged(s, true),
        }
    }

    /// One value (`write_variant`).
    pub(crate) fn variant(&mut self, v: &Variant, t: &Tables<'_>) -> Result<()> {
        let g4 = !t.godot3;
        let missing = |name: &str| -> Result<()> {
            Err(ErrorKind::Unsupported(
                format!("{name} does not exist in Godot 3's binary resources").into(),
            )
            .into())
        };
        match v {
            Variant::Nil => self.u32(VARIANT_NIL),
            Variant::Bool(b) => {
                self.u32(VARIANT_BOOL);
                self.u32(u32::from(*b));
            }
            Variant::Int(i) => {
                if let Ok(small) = i32::try_from(*i) {
                    self.u32(VARIANT_INT);
                    self.u32(small as u32);
                } else {
                    self.u32(VARIANT_INT64);
                    self.u64(*i as u64);
                }
            }
            Variant::Float(f) => {
                #[allow(clippy::cast_possible_truncation)]
                let narrow = *f as f32;
                // The saver's test `double(fl) != d`: a NaN is never equal, so it is a double.
                if f64::from(narrow) == *f {
                    self.u32(VARIANT_FLOAT);
                    self.u32(narrow.to_bits());
                } else {
                    self.u32(VARIANT_DOUBLE);
                    self.u64(f.to_bits());
                }
            }
            Variant::String(s) => {
                self.u32(VARIANT_STRING);
                self.ustring(s)?;
            }
            Variant::StringName(s) if g4 => {
                self.u32(VARIANT_STRING_NAME);
                self.ustring(&s.0)?;
            }
            Variant::Vector2(p) => {
                self.u32(VARIANT_VECTOR2);
                self.vector2(p);
            }
            Variant::Vector2i(p) if g4 => {
                self.u32(VARIANT_VECTOR2I);
                self.u32(p.x as u32);
                self.u32(p.y as u32);
            }
            Variant::Rect2(r) => {
                self.u32(VARIANT_RECT2);
                self.vector2(&r.position);
                self.vector2(&r.size);
            }
            Variant::Rect2i(r) if g4 => {
                self.u32(VARIANT_RECT2I);
                for c in [r.position.x, r.position.y, r.size.x, r.size.y] {
                    self.u32(c as u32);
                }
            }
            Variant::Vector3(p) => {
                self.u32(VARIANT_VECTOR3);
                self.vector3(p);
            }
            Variant::Vector3i(p) if g4 => {
                self.u32(VARIANT_VECTOR3I);
                for c in [p.x, p.y, p.z] {
                    self.u32(c as u32);
                }
            }
            Variant::Vector4(p) if g4 => {
                self.u32(VARIANT_VECTOR4);
                self.vector4(p);
            }
            Variant::Vector4i(p) if g4 => {
                self.u32(VARIANT_VECTOR4I);
                for c in [p.x, p.y, p.z, p.w] {
                    self.u32(c as u32);
                }
            }
            Variant::Plane(p) => {
                self.u32(VARIANT_PLANE);
                self.vector3(&p.normal);
                self.real(p.d);
            }
            Variant::Quaternion(q) => {
                self.u32(VARIANT_QUATERNION);
                for c in [q.x, q.y, q.z, q.w] {
                    self.real(c);
                }
            }
            Variant::Aabb(a) => {
                self.u32(VARIANT_AABB);
                self.vector3(&a.position);
                self.vector3(&a.size);
            }
            Variant::Transform2D(x) => {
                self.u32(VARIANT_TRANSFORM2D);
                self.vector2(&x.x);
                self.vector2(&x.y);
                self.vector2(&x.origin);
            }
            Variant::Basis(b) => {
                self.u32(VARIANT_BASIS);
                for row in &b.rows {
                    self.vector3(row);
                }
            }
            Variant::Transform3D(x) => {
                self.u32(VARIANT_TRANSFORM3D);
                for row in &x.basis.rows {
                    self.vector3(row);
                }
                self.vector3(&x.origin);
            }
            Variant::Projection(p) if g4 => {
                self.u32(VARIANT_PROJECTION);
                for c in &p.columns {
                    self.vector4(c);
                }
            }
            Variant::Color(c) => {
                self.u32(VARIANT_COLOR);
                self.color(c);
            }
            Variant::NodePath(p) => {
                self.u32(VARIANT_NODE_PATH);
                let names = u16::try_from(p.names.len()).ok().filter(|n| *n < 0x8000);
                let subs = u16::try_from(p.subnames.len()).ok().filter(|n| *n < 0x8000);
                let (Some(names), Some(subs)) = (names, subs) else {
                    return Err(ErrorKind::Unsupported(
                        "a NodePath of 32768 names or subnames or more".into(),
                    )
                    .into());
                };
                self.u16(names);
                self.u16(if p.absolute { subs | 0x8000 } else { subs });
                for name in p.names.iter().chain(&p.subnames) {
                    self.table_string(name, t)?;
                }
            }
            Variant::Rid(r) => {
                // The engine warns "Can't save RIDs" and writes the low 32 bits of the id.
                self.u32(VARIANT_RID);
                #[allow(clippy::cast_possible_truncation)]
                self.u32(r.0 as u32);
            }
            Variant::ObjectId(ObjectId(0)) => {
                self.u32(VARIANT_OBJECT);
                self.u32(OBJECT_EMPTY);
            }
            Variant::ObjectId(ObjectId(id)) => {
                return Err(ErrorKind::Unsupported(
                    format!("object id {id}: a resource file holds objects only as ExtResource or SubResource references").into(),
                )
                .into());
            }
            Variant::Object(_) => self.reference(v, t)?,
            Variant::Callable(_) if g4 => self.u32(VARIANT_CALLABLE),
            Variant::Signal(_) if g4 => self.u32(VARIANT_SIGNAL),
            Variant::Dictionary(d) => {
                self.u32(VARIANT_DICTIONARY);
                self.count(d.len())?;
                grow(|| {
                    for (key, value) in d.iter() {
                        self.variant(key, t)?;
                        self.variant(value, t)?;
                    }
                    Ok::<_, Error>(())
                })?;
            }
            Variant::Array(a) => {
                self.u32(VARIANT_ARRAY);
                self.count(a.items.len())?;
                grow(|| {
                    for item in &a.items {
                        self.variant(item, t)?;
                    }
                    Ok::<_, Error>(())
                })?;
            }
            Variant::PackedByteArray(b) => {
                self.u32(VARIANT_PACKED_BYTE_ARRAY);
                self.count(b.len())?;
                self.out.extend_from_slice(b);
                self.out.resize(self.out.len() + padding(b.len()), 0);
            }
            Variant::PackedInt32Array(a) => {
                self.u32(VARIANT_PACKED_INT32_ARRAY);
                self.count(a.len())?;
                for x in a.iter() {
                    self.u32(*x as u32);
                }
            }
            Variant::PackedInt64Array(a) if g4 => {
                self.u32(VARIANT_PACKED_INT64_ARRAY);
                self.count(a.len())?;
                for x in a.iter() {
                    self.u64(*x as u64);
                }
            }
            Variant::PackedFloat32Array(a) => {
                self.u32(VARIANT_PACKED_FLOAT32_ARRAY);
                self.count(a.len())?;
                for x in a.iter() {
                    self.u32(x.to_bits());
                }
            }
            Variant::PackedFloat64Array(a) if g4 => {
                self.u32(VARIANT_PACKED_FLOAT64_ARRAY);
                self.count(a.len())?;
                for x in a.iter() {
                    self.u64(x.to_bits());
                }
            }
            Variant::PackedStringArray(a) => {
                self.u32(VARIANT_PACKED_STRING_ARRAY);
                self.count(a.len())?;
                for s in a.iter() {
                    self.ustring(s)?;
                }
            }
            Variant::PackedVector2Array(a) => {
                self.u32(VARIANT_PACKED_VECTOR2_ARRAY);
                self.count(a.len())?;
                for p in a.iter() {
                    self.vector2(p);
                }
            }
            Variant::PackedVector3Array(a) => {
                self.u32(VARIANT_PACKED_VECTOR3_ARRAY);
                self.count(a.len())?;
                for p in a.iter() {
                    self.vector3(p);
                }
            }
            Variant::PackedColorArray(a) => {
                self.u32(VARIANT_PACKED_COLOR_ARRAY);
                self.count(a.len())?;
                for c in a.iter() {
                    self.color(c);
                }
            }
            Variant::PackedVector4Array(a) if g4 => {
                self.u32(VARIANT_PACKED_VECTOR4_ARRAY);
                self.count(a.len())?;
                for p in a.iter() {
                    self.vector4(p);
                }
            }
            Variant::StringName(_) => missing("StringName")?,
            Variant::Vector2i(_) => missing("Vector2i")?,
            Variant::Rect2i(_) => missing("Rect2i")?,
            Variant::Vector3i(_) => missing("Vector3i")?,
            Variant::Vector4(_) => missing("Vector4")?,
            Variant::Vector4i(_) => missing("Vector4i")?,
            Variant::Projection(_) => missing("Projection")?,
            Variant::Callable(_) => missing("Callable")?,
            Variant::Signal(_) => missing("Signal")?,
            Variant::PackedInt64Array(_) => missing("PackedInt64Array")?,
            Variant::PackedFloat64Array(_) => missing("PackedFloat64Array")?,
            Variant::PackedVector4Array(_) => missing("PackedVector4Array")?,
        }
        Ok(())
    }

    fn reference(&mut self, v: &Variant, t: &Tables<'_>) -> Result<()> {
        let unsupported = |m: String| -> Error { ErrorKind::Unsupported(m.into()).into() };
        match reference(v) {
            Some(Reference::Ext(id)) => {
                let key = id_text(id);
                let index = t.external.iter().position(|e| *e == key).ok_or_else(|| {
                    unsupported(format!(
                        "ExtResource({key}) is not in the file's external resources"
                    ))
                })?;
                self.u32(VARIANT_OBJECT);
                self.u32(OBJECT_EXTERNAL_RESOURCE_INDEX);
                self.u32(index as u32);
            }
            Some(Reference::Sub(id)) => {
                let key = id_text(id);
                let index = t.internal.iter().position(|e| *e == key).ok_or_else(|| {
                    unsupported(format!(
                        "SubResource({key}) is not one of the file's sub-resources"
                    ))
                })?;
                self.u32(VARIANT_OBJECT);
                self.u32(OBJECT_INTERNAL_RESOURCE);
                if t.godot3 {
                    let n: u32 = key.parse().map_err(|_| {
                        unsupported(format!(
                            "SubResource({key}): Godot 3 numbers sub-resources with integers"
                        ))
                    })?;
                    self.u32(n);
                } else {
                    self.u32(index as u32);
                }
            }
            None => {
                let class = match v {
                    Variant::Object(o) => o.class.as_str(),
                    _ => "",
                };
                return Err(unsupported(format!(
                    "an object of class {class:?}: a resource file holds objects only as ExtResource or SubResource references"
                )));
            }
        }
        Ok(())
    }
}

/// A reference's id as text (`1`, `"1_abc"`).
pub(crate) fn id_text(id: &Variant) -> String {
    match id {
        Variant::Int(i) => i.to_string(),
        Variant::String(s) => s.to_string(),
        Variant::StringName(s) => s.0.clone(),
        other => format!("{other:?}"),
    }
}

/// What the saver's walk over a value meets (`_find_resources`).
pub(crate) enum Met<'v> {
    /// A NodePath name or subname.
    Name(&'v str),
    /// An object (a reference to another resource).
    Object(&'v Variant),
}

/// Every NodePath name and object in `v`, in value order.
pub(crate) fn walk_value<'v>(v: &'v Variant, out: &mut Vec<Met<'v>>) {
    match v {
        Variant::NodePath(p) => {
            for s in p.names.iter().chain(&p.subnames) {
                out.push(Met::Name(s));
            }
        }
        Variant::Array(a) => {
            for item in &a.items {
                grow(|| walk_value(item, out));
            }
        }
        Variant::Dictionary(d) => {
            for (k, value) in d.iter() {
                grow(|| {
                    walk_value(k, out);
                    walk_value(value, out);
                });
            }
        }
        Variant::Object(_) => out.push(Met::Object(v)),
        _ => {}
    }
}
