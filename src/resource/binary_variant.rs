//! The values of a binary resource file (`core/io/resource_format_binary.cpp`'s
//! `parse_variant` / `write_variant`): a `u32` type id of the file's own numbering
//! (`VARIANT_*`, not the ids of `var_to_bytes`) and the value's fields, strings as a length with
//! their terminating NUL, NodePath names through the file's string table, objects as references
//! into the file's external or internal resource tables.

use crate::error::{Error, ErrorKind, Result};
use crate::resource::model::{ext_ref, sub_ref};
use crate::types::{
    Aabb, Basis, Callable, Color, NodePath, ObjectId, PackedByteArray, PackedColorArray,
    PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray,
    PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion,
    Real, Rect2, Rect2i, Rid, StringName, Transform2D, Transform3D, Vector2, Vector2i, Vector3,
    Vector3i, Vector4, Vector4i,
};
use crate::value::{Array, Dictionary, Variant};
use crate::wire::depth::grow;

pub(crate) const VARIANT_NIL: u32 = 1;
pub(crate) const VARIANT_BOOL: u32 = 2;
pub(crate) const VARIANT_INT: u32 = 3;
pub(crate) const VARIANT_FLOAT: u32 = 4;
pub(crate) const VARIANT_STRING: u32 = 5;
pub(crate) const VARIANT_VECTOR2: u32 = 10;
pub(crate) const VARIANT_RECT2: u32 = 11;
pub(crate) const VARIANT_VECTOR3: u32 = 12;
pub(crate) const VARIANT_PLANE: u32 = 13;
pub(crate) const VARIANT_QUATERNION: u32 = 14;
pub(crate) const VARIANT_AABB: u32 = 15;
pub(crate) const VARIANT_BASIS: u32 = 16;
pub(crate) const VARIANT_TRANSFORM3D: u32 = 17;
pub(crate) const VARIANT_TRANSFORM2D: u32 = 18;
pub(crate) const VARIANT_COLOR: u32 = 20;
pub(crate) const VARIANT_NODE_PATH: u32 = 22;
pub(crate) const VARIANT_RID: u32 = 23;
pub(crate) const VARIANT_OBJECT: u32 = 24;
pub(crate) const VARIANT_DICTIONARY: u32 = 26;
pub(crate) const VARIANT_ARRAY: u32 = 30;
pub(crate) const VARIANT_PACKED_BYTE_ARRAY: u32 = 31;
pub(crate) const VARIANT_PACKED_INT32_ARRAY: u32 = 32;
pub(crate) const VARIANT_PACKED_FLOAT32_ARRAY: u32 = 33;
pub(crate) const VARIANT_PACKED_STRING_ARRAY: u32 = 34;
pub(crate) const VARIANT_PACKED_VECTOR3_ARRAY: u32 = 35;
pub(crate) const VARIANT_PACKED_COLOR_ARRAY: u32 = 36;
pub(crate) const VARIANT_PACKED_VECTOR2_ARRAY: u32 = 37;
pub(crate) const VARIANT_INT64: u32 = 40;
pub(crate) const VARIANT_DOUBLE: u32 = 41;
pub(crate) const VARIANT_CALLABLE: u32 = 42;
pub(crate) const VARIANT_SIGNAL: u32 = 43;
pub(crate) const VARIANT_STRING_NAME: u32 = 44;
pub(crate) const VARIANT_VECTOR2I: u32 = 45;
pub(crate) const VARIANT_RECT2I: u32 = 46;
pub(crate) const VARIANT_VECTOR3I: u32 = 47;
pub(crate) const VARIANT_PACKED_INT64_ARRAY: u32 = 48;
pub(crate) const VARIANT_PACKED_FLOAT64_ARRAY: u32 = 49;
pub(crate) const VARIANT_VECTOR4: u32 = 50;
pub(crate) const VARIANT_VECTOR4I: u32 = 51;
pub(crate) const VARIANT_PROJECTION: u32 = 52;
pub(crate) const VARIANT_PACKED_VECTOR4_ARRAY: u32 = 53;

pub(crate) const OBJECT_EMPTY: u32 = 0;
pub(crate) const OBJECT_EXTERNAL_RESOURCE: u32 = 1;
pub(crate) const OBJECT_INTERNAL_RESOURCE: u32 = 2;
pub(crate) const OBJECT_EXTERNAL_RESOURCE_INDEX: u32 = 3;

/// The deepest nesting of Arrays and Dictionaries a file may have: Godot's own limit on
/// nested containers ([`GODOT_MAX_DEPTH`](crate::GODOT_MAX_DEPTH), 1024 levels).
pub(crate) const MAX_DEPTH: usize = crate::GODOT_MAX_DEPTH;

/// The bytes of a file being read: a position, the byte order and the precision of `real_t`
/// values, and the budget of bytes that references may copy (see [`Budget`]).
pub(crate) struct Reader<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) big_endian: bool,
    pub(crate) real_is_double: bool,
    /// Godot 3 (format version 3) numbers internal references by their `local://N` id,
    /// Godot 4 by their place in the internal resource table.
    pub(crate) godot3: bool,
    /// The string table.
    pub(crate) strings: Vec<String>,
    /// The `local://` ids of the internal resources, in table order (Godot 4 references).
    pub(crate) internal_ids: Vec<String>,
    /// How many external resources the file lists.
    pub(crate) external_count: usize,
    pub(crate) budget: Budget,
}

/// What copies of already-read data (string table entries, a scene's names and values) may
/// add up to: a string of 4 bytes in the file can name a table entry of a megabyte, so every
/// copy is counted against this budget, a multiple of the file's size.
pub(crate) struct Budget {
    left: usize,
}

impl Budget {
    /// 16 times the file's size plus 1 MiB.
    pub(crate) fn for_input(len: usize) -> Self {
        Budget {
            left: len.saturating_mul(16).saturating_add(1 << 20),
        }
    }

    /// Takes `n` bytes from the budget, or fails at `offset`.
    pub(crate) fn take(&mut self, n: usize, offset: usize) -> Result<()> {
        match self.left.checked_sub(n) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(Error::at(
                ErrorKind::LimitExceeded {
                    what: "copies of strings and values referenced by index (16 times the file's size plus 1 MiB)",
                    max: 0,
                },
                offset,
            )),
        }
    }
}

pub(crate) fn corrupt(message: impl Into<Box<str>>, offset: usize) -> Error {
    Error::at(ErrorKind::InvalidContainer(message.into()), offset)
}

impl<'a> Reader<'a> {
    pub(crate) fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.data.len());
        match end.and_then(|end| self.data.get(self.pos..end)) {
            Some(slice) => {
                self.pos += n;
                Ok(slice)
            }
            None => Err(Error::at(
                ErrorKind::UnexpectedEof {
                    needed: n - self.remaining(),
                },
                self.pos,
            )),
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let slice = self.bytes(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    pub(crate) fn u16(&mut self) -> Result<u16> {
        let b = self.array::<2>()?;
        Ok(if self.big_endian {
            u16::from_be_bytes(b)
        } else {
            u16::from_le_bytes(b)
        })
    }

    pub(crate) fn u32(&mut self) -> Result<u32> {
        let b = self.array::<4>()?;
        Ok(if self.big_endian {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        })
    }

    pub(crate) fn u64(&mut self) -> Result<u64> {
        let b = self.array::<8>()?;
        Ok(if self.big_endian {
            u64::from_be_bytes(b)
        } else {
            u64::from_le_bytes(b)
        })
    }

    fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_bits(self.u32()?))
    }

    fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_bits(self.u64()?))
    }

    /// A `real_t` (32 or 64 bits by the header's flag), as our [`Real`].
    #[allow(clippy::cast_possible_truncation)]
    fn real(&mut self) -> Result<Real> {
        if self.real_is_double {
            Ok(self.f64()? as Real)
        } else {
            Ok(Real::from(self.f32()?))
        }
    }

    /// A count of elements of at least `size` bytes each, checked against the bytes left.
    pub(crate) fn count(&mut self, what: &'static str, size: usize) -> Result<usize> {
        let at = self.pos;
        let n = self.u32()? as usize;
        self.fits(n, size.max(1), what, at)?;
        Ok(n)
    }

    /// A packed array: its count (checked by [`Self::count`] against the bytes left, at
    /// `size` bytes an element, before anything is allocated), then each element read by
    /// `item`.
    fn packed<T>(
        &mut self,
        what: &'static str,
        size: usize,
        mut item: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Vec<T>> {
        let n = self.count(what, size)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(item(self)?);
        }
        Ok(v)
    }

    /// A string as `save_unicode_string` writes it: its UTF-8 length plus one, the bytes and
    /// a NUL (the text ends at the first NUL, as the engine reads it).
    pub(crate) fn ustring(&mut self, what: &'static str) -> Result<String> {
        let len = self.count(what, 1)?;
        self.string_bytes(len, what)
    }

    fn string_bytes(&mut self, len: usize, what: &'static str) -> Result<String> {
        let at = self.pos;
        let bytes = self.bytes(len)?;
        let text = bytes.split(|&b| b == 0).next().unwrap_or_default();
        core::str::from_utf8(text)
            .map(str::to_owned)
            .map_err(|_| Error::at(ErrorKind::InvalidUtf8 { what }, at))
    }

    /// A name through the string table (`_get_string`): an index, or with bit 31 set the
    /// length of a string that follows.
    pub(crate) fn table_string(&mut self) -> Result<String> {
        let at = self.pos;
        let id = self.u32()?;
        if id & 0x8000_0000 != 0 {
            let len = (id & 0x7FFF_FFFF) as usize;
            if len > self.remaining() {
                return Err(Error::at(
                    ErrorKind::LengthTooLarge {
                        what: "string length",
                        len: len as u64,
                        remaining: self.remaining(),
                    },
                    at,
                ));
            }
            return self.string_bytes(len, "string");
        }
        let s = self.strings.get(id as usize).ok_or_else(|| {
            corrupt(
                format!(
                    "string table index {id} out of range (the table has {})",
                    self.strings.len()
                ),
                at,
            )
        })?;
        self.budget.take(s.len(), at)?;
        Ok(s.clone())
    }

    /// One value (`parse_variant`).
    pub(crate) fn variant(&mut self, depth: usize) -> Result<Variant> {
        let at = self.pos;
        let ty = self.u32()?;
        if self.godot3 && ty >= VARIANT_CALLABLE {
            // Godot 3's loader knows the ids up to VARIANT_DOUBLE (41).
            return Err(corrupt(
                format!("unknown value type {ty} in a Godot 3 binary resource"),
                at,
            ));
        }
        Ok(match ty {
            VARIANT_NIL => Variant::Nil,
            VARIANT_BOOL => Variant::Bool(self.u32()? != 0),
            VARIANT_INT => Variant::Int(i64::from(self.u32()? as i32)),
            VARIANT_INT64 => Variant::Int(self.u64()? as i64),
            VARIANT_FLOAT => Variant::Float(if self.real_is_double {
                self.f64()?
            } else {
                f64::from(self.f32()?)
            }),
            VARIANT_DOUBLE => Variant::Float(self.f64()?),
            VARIANT_STRING => Variant::String(self.ustring("String")?.into()),
            VARIANT_STRING_NAME => Variant::StringName(StringName(self.ustring("StringName")?)),
            VARIANT_VECTOR2 => Variant::Vector2(self.vector2()?),
            VARIANT_VECTOR2I => Variant::Vector2i(self.vector2i()?),
            VARIANT_RECT2 => Variant::Rect2(Rect2 {
                position: self.vector2()?,
                size: self.vector2()?,
            }),
            VARIANT_RECT2I => Variant::Rect2i(Rect2i {
                position: self.vector2i()?,
                size: self.vector2i()?,
            }),
            VARIANT_VECTOR3 => Variant::Vector3(self.vector3()?),
            VARIANT_VECTOR3I => Variant::Vector3i(Vector3i {
                x: self.u32()? as i32,
                y: self.u32()? as i32,
                z: self.u32()? as i32,
            }),
            VARIANT_VECTOR4 => Variant::Vector4(self.vector4()?),
            VARIANT_VECTOR4I => Variant::Vector4i(Vector4i {
                x: self.u32()? as i32,
                y: self.u32()? as i32,
                z: self.u32()? as i32,
                w: self.u32()? as i32,
            }),
            VARIANT_PLANE => Variant::Plane(Plane {
                normal: self.vector3()?,
                d: self.real()?,
            }),
            VARIANT_QUATERNION => {
                let v = self.vector4()?;
                Variant::Quaternion(Quaternion {
                    x: v.x,
                    y: v.y,
                    z: v.z,
                    w: v.w,
                })
            }
            VARIANT_AABB => Variant::Aabb(Box::new(Aabb {
                position: self.vector3()?,
                size: self.vector3()?,
            })),
            VARIANT_TRANSFORM2D => Variant::Transform2D(Box::new(Transform2D {
                x: self.vector2()?,
                y: self.vector2()?,
                origin: self.vector2()?,
            })),
            VARIANT_BASIS => Variant::Basis(Box::new(self.basis()?)),
            VARIANT_TRANSFORM3D => Variant::Transform3D(Box::new(Transform3D {
                basis: self.basis()?,
                origin: self.vector3()?,
            })),
            VARIANT_PROJECTION => Variant::Projection(Box::new(Projection {
                columns: [
                    self.vector4()?,
                    self.vector4()?,
                    self.vector4()?,
                    self.vector4()?,
                ],
            })),
            // Colors are single precision whatever `real_t` is (Godot 4); Godot 3 stores them
            // as `real_t`, which its binary files never make double.
            VARIANT_COLOR => Variant::Color(self.color()?),
            VARIANT_NODE_PATH => Variant::NodePath(Box::new(self.node_path()?)),
            VARIANT_RID => Variant::Rid(Rid(u64::from(self.u32()?))),
            VARIANT_OBJECT => self.object(at)?,
            VARIANT_CALLABLE => Variant::Callable(Callable),
            VARIANT_SIGNAL => Variant::Signal(Box::default()),
            VARIANT_DICTIONARY => {
                let depth = enter(depth, at)?;
                // Bit 31 was once a "shared" flag; the engine masks it off.
                let n = self.u32()? & 0x7FFF_FFFF;
                self.fits(n as usize, 8, "Dictionary count", at)?;
                grow(|| {
                    let mut d = Dictionary::new();
                    for _ in 0..n {
                        let key = self.variant(depth)?;
                        let value = self.variant(depth)?;
                        d.insert(key, value);
                    }
                    Ok::<_, Error>(Variant::Dictionary(d))
                })?
            }
            VARIANT_ARRAY => {
                let depth = enter(depth, at)?;
                let n = self.u32()? & 0x7FFF_FFFF;
                self.fits(n as usize, 4, "Array count", at)?;
                grow(|| {
                    let mut items = Vec::with_capacity(n as usize);
                    for _ in 0..n {
                        items.push(self.variant(depth)?);
                    }
                    Ok::<_, Error>(Variant::Array(Box::new(Array {
                        element_type: Default::default(),
                        items,
                    })))
                })?
            }
            VARIANT_PACKED_BYTE_ARRAY => {
                let n = self.count("PackedByteArray length", 1)?;
                let bytes = self.bytes(n)?.to_vec();
                self.bytes(padding(n))?;
                Variant::PackedByteArray(PackedByteArray(bytes))
            }
            VARIANT_PACKED_INT32_ARRAY => Variant::PackedInt32Array(PackedInt32Array(
                self.packed("PackedInt32Array length", 4, |r| Ok(r.u32()? as i32))?,
            )),
            VARIANT_PACKED_INT64_ARRAY => Variant::PackedInt64Array(PackedInt64Array(
                self.packed("PackedInt64Array length", 8, |r| Ok(r.u64()? as i64))?,
            )),
            VARIANT_PACKED_FLOAT32_ARRAY => {
                // Godot 3's PoolRealArray is `real_t`; Godot 4's PackedFloat32Array is `float`.
                let double = self.godot3 && self.real_is_double;
                #[allow(clippy::cast_possible_truncation)]
                let v = self.packed("PackedFloat32Array length", 4, |r| {
                    if double { Ok(r.f64()? as f32) } else { r.f32() }
                })?;
                Variant::PackedFloat32Array(PackedFloat32Array(v))
            }
            VARIANT_PACKED_FLOAT64_ARRAY => Variant::PackedFloat64Array(PackedFloat64Array(
                self.packed("PackedFloat64Array length", 8, Self::f64)?,
            )),
            VARIANT_PACKED_STRING_ARRAY => Variant::PackedStringArray(PackedStringArray(
                self.packed("PackedStringArray length", 4, |r| {
                    r.ustring("PackedStringArray element")
                })?,
            )),
            VARIANT_PACKED_VECTOR2_ARRAY => Variant::PackedVector2Array(PackedVector2Array(
                self.packed("PackedVector2Array length", 8, Self::vector2)?,
            )),
            VARIANT_PACKED_VECTOR3_ARRAY => Variant::PackedVector3Array(PackedVector3Array(
                self.packed("PackedVector3Array length", 12, Self::vector3)?,
            )),
            VARIANT_PACKED_COLOR_ARRAY => Variant::PackedColorArray(PackedColorArray(
                self.packed("PackedColorArray length", 16, Self::color)?,
            )),
            VARIANT_PACKED_VECTOR4_ARRAY => Variant::PackedVector4Array(PackedVector4Array(
                self.packed("PackedVector4Array length", 16, Self::vector4)?,
            )),
            other => {
                return Err(corrupt(
                    format!("unknown value type {other} in a binary resource"),
                    at,
                ));
            }
        })
    }

    fn fits(&self, n: usize, size: usize, what: &'static str, at: usize) -> Result<()> {
        if n.saturating_mul(size) > self.remaining() {
            return Err(Error::at(
                ErrorKind::LengthTooLarge {
                    what,
                    len: n as u64,
                    remaining: self.remaining(),
                },
                at,
            ));
        }
        Ok(())
    }

    fn vector2(&mut self) -> Result<Vector2> {
        Ok(Vector2 {
            x: self.real()?,
            y: self.real()?,
        })
    }

    fn vector2i(&mut self) -> Result<Vector2i> {
        Ok(Vector2i {
            x: self.u32()? as i32,
            y: self.u32()? as i32,
        })
    }

    fn vector3(&mut self) -> Result<Vector3> {
        Ok(Vector3 {
            x: self.real()?,
            y: self.real()?,
            z: self.real()?,
        })
    }

    fn vector4(&mut self) -> Result<Vector4> {
        Ok(Vector4 {
            x: self.real()?,
            y: self.real()?,
            z: self.real()?,
            w: self.real()?,
        })
    }

    fn basis(&mut self) -> Result<Basis> {
        Ok(Basis {
            rows: [self.vector3()?, self.vector3()?, self.vector3()?],
        })
    }

    #[allow(clippy::cast_possible_truncation)]
    fn color(&mut self) -> Result<Color> {
        let mut c = [0f32; 4];
        for slot in &mut c {
            *slot = if self.godot3 && self.real_is_double {
                self.f64()? as f32
            } else {
                self.f32()?
            };
        }
        Ok(Color {
            r: c[0],
            g: c[1],
            b: c[2],
            a: c[3],
        })
    }

    fn node_path(&mut self) -> Result<NodePath> {
        let name_count = self.u16()?;
        let sub = self.u16()?;
        let absolute = sub & 0x8000 != 0;
        let sub_count = sub & 0x7FFF;
        let mut names = Vec::with_capacity(usize::from(name_count).min(self.remaining() / 4));
        for _ in 0..name_count {
            names.push(self.table_string()?);
        }
        let mut subnames = Vec::with_capacity(usize::from(sub_count).min(self.remaining() / 4));
        for _ in 0..sub_count {
            subnames.push(self.table_string()?);
        }
        Ok(NodePath {
            names,
            subnames,
            absolute,
        })
    }

    fn object(&mut self, at: usize) -> Result<Variant> {
        let kind = self.u32()?;
        match kind {
            OBJECT_EMPTY => Ok(Variant::ObjectId(ObjectId(0))),
            OBJECT_INTERNAL_RESOURCE => {
                let index_at = self.pos;
                let index = self.u32()?;
                if self.godot3 {
                    return Ok(sub_ref(i64::from(index)));
                }
                let id = self.internal_ids.get(index as usize).ok_or_else(|| {
                    corrupt(
                        format!(
                            "internal resource index {index} out of range (the file has {})",
                            self.internal_ids.len()
                        ),
                        index_at,
                    )
                })?;
                self.budget.take(id.len(), index_at)?;
                Ok(sub_ref(id.clone()))
            }
            OBJECT_EXTERNAL_RESOURCE_INDEX => {
                let index_at = self.pos;
                let index = self.u32()?;
                if index as usize >= self.external_count {
                    return Err(corrupt(
                        format!(
                            "external resource index {index} out of range (the file has {})",
                            self.external_count
                        ),
                        index_at,
                    ));
                }
                let id = i64::from(index) + 1;
                Ok(if self.godot3 {
                    ext_ref(id)
                } else {
                    ext_ref(id.to_string())
                })
            }
            OBJECT_EXTERNAL_RESOURCE => Err(corrupt(
                "an external resource by type and path (the format before version 1), which is not supported",
                at,
            )),
            other => Err(corrupt(format!("unknown object kind {other}"), at)),
        }
    }
}

fn enter(depth: usize, at: usize) -> Result<usize> {
    if depth >= MAX_DEPTH {
        return Err(Error::at(
            ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH },
            at,
        ));
    }
    Ok(depth + 1)
}

/// Bytes of zeros after `n` bytes to the next multiple of 4.
pub(crate) fn padding(n: usize) -> usize {
    (4 - n % 4) % 4
}
