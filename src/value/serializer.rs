//! A serde `Serializer` that builds a [`Variant`] directly, without bytes: what
//! `Config::to_variant` uses.
//!
//! It takes on every value the byte serializer takes on, for every config, and runs the
//! value's `Serialize` once: serde's data model and the Godot types become the matching
//! variants as the wire would carry them (math components rounded to the config's reals,
//! enum keys in its [`EnumRepr`](crate::EnumRepr)); the rarer marker types (NodePath, RID,
//! Signal, objects, typed containers, vector packed arrays) are built from their payload by
//! the byte serializer's own rules, for that value alone. What the wire would then change or
//! refuse for the config (a type the target lacks, text with a NUL or a leading BOM, a
//! reserved marker key, typed-container inference, nesting near the depth limit) is settled
//! by `Config::to_variant` on the built Variant (see [`fits`]).

use serde::ser::{self, Impossible, Serialize};

use super::{Array, ContainerType, Dictionary, Variant};
use crate::config::{Config, EnumRepr};
use crate::error::{Error, ErrorKind};
use crate::types::{
    Aabb, Basis, Callable, Color, ObjectId, PackedByteArray, PackedColorArray, PackedFloat32Array,
    PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray, Plane, Projection,
    Quaternion, Real, Rect2, Rect2i, Rid, StringName, Transform2D, Transform3D, Vector2, Vector2i,
    Vector3, Vector3i, Vector4, Vector4i, marker,
};
use crate::wire::{Scalar, VariantType};

type Result<T> = core::result::Result<T, Error>;

fn unsupported(what: impl Into<String>) -> Error {
    Error::new(ErrorKind::Unsupported(what.into().into_boxed_str()))
}

fn out_of_range(v: impl ToString) -> Error {
    Error::new(ErrorKind::IntegerOutOfRange(v.to_string().into_boxed_str()))
}

/// Builds a [`Variant`] from a value's `Serialize` (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct VariantSerializer {
    config: Config,
    /// Containers that may still open; a little beyond the config's limit, which the
    /// encoder enforces exactly on a Variant this deep (see [`fits`]).
    depth: usize,
    /// A map at this level keeps every entry in order, repeated keys included, as an Array
    /// of `[key, value]` pairs (an Object's properties, which the wire keeps as they are).
    pairs: bool,
    /// This value is a marker's field: a `u64` beyond `i64` (an object id) is kept, as
    /// `Variant::Rid`, for the byte serializer to write (see [`Field`]).
    field: bool,
}

impl VariantSerializer {
    /// A serializer for `config`.
    pub(crate) fn new(config: Config) -> Self {
        VariantSerializer {
            config,
            depth: config.max_depth().saturating_add(2),
            pairs: false,
            field: false,
        }
    }

    fn nested(self) -> Result<Self> {
        let depth = self.depth.checked_sub(1).ok_or_else(|| {
            Error::new(ErrorKind::DepthLimitExceeded {
                limit: self.config.max_depth(),
            })
        })?;
        Ok(VariantSerializer {
            depth,
            pairs: false,
            field: false,
            ..self
        })
    }

    fn wide(self) -> bool {
        self.config.double_precision()
    }

    fn enum_key(self, index: u32, name: &str) -> Variant {
        match self.config.enum_repr() {
            EnumRepr::Index => Variant::Int(index.into()),
            _ => Variant::String(name.into()),
        }
    }

    /// A marker value the byte serializer builds from `write`, read back as a Variant.
    fn by_wire(
        self,
        write: impl FnOnce(&mut crate::Serializer<Vec<u8>>) -> Result<()>,
    ) -> Result<Variant> {
        // The value sits below the containers already open: it gets what is left of the limit.
        let config = self
            .config
            .with_max_depth(self.depth.saturating_sub(2).min(self.config.max_depth()));
        let mut ser = crate::Serializer::new(Vec::new(), config);
        write(&mut ser)?;
        self.config
            .with_allow_objects(true)
            .from_bytes(&ser.into_inner())
    }
}

/// Whether `v`, as built, is what encoding it with `config` and decoding the bytes gives:
/// the wire keeps it as it is (see [`super::direct_with`]; the marker values built through
/// the byte serializer are settled) and no Dictionary has a reserved marker key (which
/// decoding would read as that type).
pub(crate) fn fits(v: &Variant, config: &Config) -> bool {
    super::direct_with(v, config, false, true) && !has_marker_key(v)
}

/// The error encoding `v` with `config` gives, found without writing bytes: the first, in
/// writing order, of a value nested beyond the depth limit, a type the target lacks, a
/// double-precision math type for Godot 3, or text with a NUL (which Godot would cut).
/// `None` when there is none of these (the encoder may still refuse a container descriptor
/// the target lacks).
pub(crate) fn wire_error(v: &Variant, config: &Config) -> Option<Error> {
    let version = config.version();
    let nul = |s: &str| s.as_bytes().contains(&0);
    let kind = |v: &Variant, depth: usize| -> Option<ErrorKind> {
        if depth > config.max_depth() {
            return Some(ErrorKind::DepthLimitExceeded {
                limit: config.max_depth(),
            });
        }
        let ty = v.variant_type();
        if ty as u8 > VariantType::Vector2 as u8 && ty.id(version).is_none() {
            return Some(ErrorKind::TypeNotInTarget { ty, version });
        }
        if !version.is_godot4() && config.double_precision() && ty.has_real_components() {
            return Some(ErrorKind::Unsupported(
                "double-precision math types do not exist in Godot 3".into(),
            ));
        }
        let text = match v {
            Variant::String(s) => nul(s),
            Variant::StringName(StringName(s)) => nul(s),
            Variant::NodePath(p) => p.names.iter().chain(&p.subnames).any(|s| nul(s)),
            Variant::PackedStringArray(p) => p.0.iter().any(|s| nul(s)),
            Variant::Signal(s) => nul(&s.name),
            Variant::Object(o) => nul(&o.class) || o.properties.iter().any(|(k, _)| nul(k)),
            _ => false,
        };
        text.then(|| {
            ErrorKind::Unsupported(
                "string contains a NUL character, where Godot would cut it".into(),
            )
        })
    };
    fn walk(
        v: &Variant,
        depth: usize,
        kind: &dyn Fn(&Variant, usize) -> Option<ErrorKind>,
    ) -> Option<ErrorKind> {
        if let Some(k) = kind(v, depth) {
            return Some(k);
        }
        match v {
            Variant::Array(a) => a.items.iter().find_map(|x| walk(x, depth + 1, kind)),
            Variant::Dictionary(d) => d
                .iter()
                .find_map(|(k, x)| walk(k, depth + 1, kind).or_else(|| walk(x, depth + 1, kind))),
            Variant::Object(o) => o
                .properties
                .iter()
                .find_map(|(_, x)| walk(x, depth + 1, kind)),
            _ => None,
        }
    }
    walk(v, 0, &kind).map(Error::new)
}

/// Drops one leading BOM from text outside Dictionary keys, as decoding does.
pub(crate) fn drop_boms(v: &mut Variant) {
    fn cut(s: &mut String) {
        if s.starts_with('\u{FEFF}') {
            s.drain(..'\u{FEFF}'.len_utf8());
        }
    }
    match v {
        Variant::String(s) => {
            if let Some(rest) = s.strip_prefix('\u{FEFF}') {
                *s = rest.into();
            }
        }
        Variant::StringName(StringName(s)) => cut(s),
        Variant::PackedStringArray(p) => p.0.iter_mut().for_each(cut),
        Variant::Signal(s) => cut(&mut s.name),
        Variant::Array(a) => a.items.iter_mut().for_each(drop_boms),
        Variant::Dictionary(d) => d.values_mut().for_each(drop_boms),
        _ => {}
    }
}

/// Types every plain Array that the encoder's typed-container inference would type (one
/// whose elements share a type a typed Array holds), as decoding the bytes gives it.
pub(crate) fn infer_types(v: &mut Variant) {
    match v {
        Variant::Array(a) => {
            a.items.iter_mut().for_each(infer_types);
            if a.element_type == ContainerType::Untyped && super::inferred(&a.items) {
                if let Some(first) = a.items.first() {
                    a.element_type = ContainerType::Builtin(first.variant_type());
                }
            }
        }
        Variant::Dictionary(d)
            if d.keys()
                .any(|k| matches!(k, Variant::Array(_) | Variant::Dictionary(_))) =>
        {
            // Keys change with their Arrays' types: the Dictionary is built again, in order.
            let mut out = Dictionary::typed(d.key_type().clone(), d.value_type().clone());
            for (mut k, mut x) in core::mem::take(&mut *d) {
                infer_types(&mut k);
                infer_types(&mut x);
                out.insert(k, x);
            }
            *d = out;
        }
        Variant::Dictionary(d) => d.values_mut().for_each(infer_types),
        Variant::Object(o) => o.properties.iter_mut().for_each(|(_, x)| infer_types(x)),
        _ => {}
    }
}

fn has_marker_key(v: &Variant) -> bool {
    match v {
        Variant::Array(a) => a.items.iter().any(has_marker_key),
        Variant::Dictionary(d) => d.iter().any(|(k, x)| {
            k.as_str().is_some_and(crate::types::is_reserved_key)
                || has_marker_key(k)
                || has_marker_key(x)
        }),
        Variant::Object(o) => o.properties.iter().any(|(_, x)| has_marker_key(x)),
        _ => false,
    }
}

impl ser::Serializer for VariantSerializer {
    type Ok = Variant;
    type Error = Error;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = TupleStructBuilder;
    type SerializeTupleVariant = VariantBuilder<SeqBuilder>;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = VariantBuilder<MapBuilder>;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_bool(self, v: bool) -> Result<Variant> {
        Ok(Variant::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Variant> {
        Ok(Variant::Int(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Variant> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| out_of_range(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Variant> {
        if self.field && i64::try_from(v).is_err() {
            return Ok(Variant::Rid(crate::types::Rid(v)));
        }
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| out_of_range(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Variant> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| out_of_range(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Variant> {
        Ok(Variant::Float(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<Variant> {
        // Written as 32 bits only when exact, so the value comes back unchanged.
        Ok(Variant::Float(v))
    }
    fn serialize_char(self, v: char) -> Result<Variant> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<Variant> {
        Ok(Variant::String(v.into()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Variant> {
        Ok(Variant::PackedByteArray(PackedByteArray(v.to_vec())))
    }
    fn serialize_none(self) -> Result<Variant> {
        Ok(Variant::Nil)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Variant> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Variant> {
        Ok(Variant::Nil)
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<Variant> {
        match marker(name) {
            Some(m) if m.ty == VariantType::Callable => Ok(Variant::Callable(Callable)),
            Some(_) => Err(unsupported(format!("{name} serialized as a unit struct"))),
            None => Ok(Variant::Nil),
        }
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<Variant> {
        Ok(self.enum_key(index, variant))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Variant> {
        let Some(m) = marker(name) else {
            return value.serialize(self);
        };
        let plain = matches!(
            m.ty,
            VariantType::StringName
                | VariantType::PackedStringArray
                | VariantType::PackedByteArray
                | VariantType::PackedInt32Array
                | VariantType::PackedInt64Array
                | VariantType::PackedFloat32Array
                | VariantType::PackedFloat64Array
                | VariantType::PackedColorArray
        );
        // A RID or an object id is one u64, built as decoding its bytes gives it: a Godot 3
        // RID carries no id (it reads as 0), object id 0 is the null object (nil).
        if m.ty == VariantType::Rid && !m.typed {
            let id = capture_id(value)?;
            let version = self.config.version();
            return Ok(Variant::Rid(Rid(if version.has_rid_payload() {
                id
            } else {
                0
            })));
        }
        if m.as_id && m.ty == VariantType::Object {
            return Ok(match capture_id(value)? {
                0 => Variant::Nil,
                id => Variant::ObjectId(ObjectId(id)),
            });
        }
        if !m.typed
            && matches!(
                m.ty,
                VariantType::PackedVector2Array
                    | VariantType::PackedVector3Array
                    | VariantType::PackedVector4Array
            )
        {
            // In the byte serializer's order: the wire width, the type, then the payload.
            let version = self.config.version();
            if self.wide() && !version.has_64bit_reals() {
                return Err(unsupported(
                    "double-precision math types do not exist in Godot 3",
                ));
            }
            if m.ty.id(version).is_none() {
                return Err(Error::new(ErrorKind::TypeNotInTarget { ty: m.ty, version }));
            }
            return packed_vectors(m.ty, value, m.wide, self.wide());
        }
        if m.wide || m.typed || m.as_id || !plain {
            return self.by_wire(|ser| ser.serialize_newtype_struct(name, value));
        }
        let inner = value.serialize(self)?;
        Ok(match (m.ty, inner) {
            (VariantType::StringName, Variant::String(s)) => {
                Variant::StringName(StringName(s.into_string()))
            }
            (VariantType::PackedStringArray, Variant::Array(a)) => {
                let mut out = Vec::with_capacity(a.len());
                for item in a.into_vec() {
                    match item {
                        Variant::String(s) => out.push(s.into_string()),
                        _ => return Err(unsupported(format!("{name} holds a non-string"))),
                    }
                }
                Variant::PackedStringArray(PackedStringArray(out))
            }
            (ty, Variant::PackedByteArray(PackedByteArray(bytes))) => packed(ty, &bytes)?,
            _ => return Err(unsupported(format!("{name} with an unexpected payload"))),
        })
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Variant> {
        let inner = self.nested()?;
        let mut d = Dictionary::new();
        d.insert(self.enum_key(index, variant), value.serialize(inner)?);
        Ok(Variant::from(d))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder> {
        Ok(SeqBuilder {
            ser: self.nested()?,
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<TupleStructBuilder> {
        match marker(name) {
            Some(m) => match m.ty.components() {
                Some((n, scalar)) if !m.typed && !m.wide && !m.as_id => {
                    Ok(TupleStructBuilder::Components {
                        ty: m.ty,
                        scalar,
                        n,
                        wide: self.wide(),
                        values: Vec::with_capacity(16),
                    })
                }
                _ => Ok(TupleStructBuilder::Marker {
                    name,
                    ser: VariantSerializer {
                        pairs: m.ty == VariantType::Object && !m.as_id,
                        field: true,
                        ..self
                    },
                    fields: Vec::with_capacity(len.min(4)),
                }),
            },
            None => Ok(TupleStructBuilder::Seq(self.serialize_seq(Some(len))?)),
        }
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantBuilder<SeqBuilder>> {
        let key = self.enum_key(index, variant);
        Ok(VariantBuilder {
            key,
            inner: self.nested()?.serialize_seq(Some(len))?,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapBuilder> {
        Ok(MapBuilder {
            ser: self.nested()?,
            dict: Dictionary::new(),
            pairs: self.pairs.then(Vec::new),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapBuilder> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantBuilder<MapBuilder>> {
        let key = self.enum_key(index, variant);
        Ok(VariantBuilder {
            key,
            inner: self.nested()?.serialize_map(Some(len))?,
        })
    }
}

/// A numeric packed array from the little-endian bytes its marker carries.
fn packed(ty: VariantType, bytes: &[u8]) -> Result<Variant> {
    fn read<T: bytemuck::Pod, const N: usize>(
        bytes: &[u8],
        from: impl Fn([u8; N]) -> T,
    ) -> Result<Vec<T>> {
        let chunks = bytes.chunks_exact(N);
        if !chunks.remainder().is_empty() {
            return Err(unsupported(
                "a packed array's bytes do not fill whole elements",
            ));
        }
        Ok(chunks
            .map(|c| from(c.try_into().unwrap_or([0; N])))
            .collect())
    }
    Ok(match ty {
        VariantType::PackedByteArray => Variant::PackedByteArray(PackedByteArray(bytes.to_vec())),
        VariantType::PackedInt32Array => {
            Variant::PackedInt32Array(PackedInt32Array(read(bytes, i32::from_le_bytes)?))
        }
        VariantType::PackedInt64Array => {
            Variant::PackedInt64Array(PackedInt64Array(read(bytes, i64::from_le_bytes)?))
        }
        VariantType::PackedFloat32Array => {
            Variant::PackedFloat32Array(PackedFloat32Array(read(bytes, f32::from_le_bytes)?))
        }
        VariantType::PackedFloat64Array => {
            Variant::PackedFloat64Array(PackedFloat64Array(read(bytes, f64::from_le_bytes)?))
        }
        VariantType::PackedColorArray => {
            let colors = read(bytes, |c: [u8; 16]| {
                let f = |i: usize| {
                    let mut w = [0; 4];
                    w.copy_from_slice(c.get(i * 4..i * 4 + 4).unwrap_or(&[0; 4]));
                    f32::from_le_bytes(w)
                };
                Color::new(f(0), f(1), f(2), f(3))
            })?;
            Variant::PackedColorArray(PackedColorArray(colors))
        }
        _ => return Err(unsupported(format!("{} from bytes", ty.name()))),
    })
}

/// Array elements.
pub(crate) struct SeqBuilder {
    ser: VariantSerializer,
    items: Vec<Variant>,
}

impl SeqBuilder {
    fn finish(self) -> Variant {
        Variant::from(Array::from(self.items))
    }
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.items.push(value.serialize(self.ser)?);
        Ok(())
    }
    fn end(self) -> Result<Variant> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(self.finish())
    }
}

/// A plain tuple struct (an Array), a math type's components, or another marker's fields.
pub(crate) enum TupleStructBuilder {
    Seq(SeqBuilder),
    Marker {
        name: &'static str,
        ser: VariantSerializer,
        fields: Vec<Variant>,
    },
    Components {
        ty: VariantType,
        scalar: Scalar,
        n: u8,
        wide: bool,
        values: Vec<f64>,
    },
}

impl ser::SerializeTupleStruct for TupleStructBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match self {
            TupleStructBuilder::Seq(s) => ser::SerializeSeq::serialize_element(s, value),
            TupleStructBuilder::Marker { ser, fields, .. } => {
                fields.push(value.serialize(*ser)?);
                Ok(())
            }
            TupleStructBuilder::Components {
                scalar,
                wide,
                values,
                n,
                ..
            } => {
                if values.len() >= usize::from(*n) {
                    return Err(unsupported("too many math type components"));
                }
                let (x, int) = value.serialize(NumberCapture)?;
                #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
                let x = match scalar {
                    Scalar::Real if *wide => x,
                    Scalar::Real | Scalar::F32 => f64::from(x as f32),
                    Scalar::I32 => {
                        let int = int.ok_or_else(|| unsupported("an integer vector component"))?;
                        i32::try_from(int).map_err(|_| out_of_range(int))? as f64
                    }
                    _ => return Err(unsupported("a math type component")),
                };
                values.push(x);
                Ok(())
            }
        }
    }
    fn end(self) -> Result<Variant> {
        match self {
            TupleStructBuilder::Seq(s) => Ok(s.finish()),
            TupleStructBuilder::Marker { name, ser, fields } => {
                if let Some(s) = (name == crate::types::SIGNAL)
                    .then(|| signal(&fields))
                    .flatten()
                {
                    return Ok(Variant::from(s));
                }
                ser.by_wire(|w| {
                    let mut t = ser::Serializer::serialize_tuple_struct(w, name, fields.len())?;
                    for f in &fields {
                        let field = Field {
                            value: f,
                            pairs: ser.pairs,
                        };
                        ser::SerializeTupleStruct::serialize_field(&mut t, &field)?;
                    }
                    ser::SerializeTupleStruct::end(t)
                })
            }
            TupleStructBuilder::Components { ty, n, values, .. } => {
                if values.len() != usize::from(n) {
                    return Err(unsupported("too few math type components"));
                }
                math(ty, &values)
            }
        }
    }
}

/// A Signal from its marker's fields as built, when they are what its byte serializer
/// fields take as they are (a text, an id) and decoding its bytes gives exactly them back
/// (what the wire still changes in the name, a NUL or a leading BOM, and a target without
/// Signal are settled with the rest of the Variant); `None` sends the fields through the
/// bytes.
fn signal(fields: &[Variant]) -> Option<crate::types::Signal> {
    let [Variant::String(name), id] = fields else {
        return None;
    };
    let id = match id {
        Variant::Int(i) => u64::try_from(*i).ok()?,
        // A u64 beyond i64, kept by the field serializer (see `VariantSerializer::field`).
        Variant::Rid(crate::types::Rid(id)) => *id,
        _ => return None,
    };
    Some(crate::types::Signal::new(name.as_str(), ObjectId(id)))
}

/// A math type from its components in wire order.
fn math(ty: VariantType, v: &[f64]) -> Result<Variant> {
    #[allow(clippy::cast_possible_truncation)]
    fn reals<T: bytemuck::Pod>(v: &[f64]) -> Result<T> {
        let r: Vec<Real> = v.iter().map(|&x| x as Real).collect();
        bytemuck::try_pod_read_unaligned(bytemuck::cast_slice(&r))
            .map_err(|_| unsupported("math type components"))
    }
    #[allow(clippy::cast_possible_truncation)]
    fn ints<T: bytemuck::Pod>(v: &[f64]) -> Result<T> {
        let r: Vec<i32> = v.iter().map(|&x| x as i32).collect();
        bytemuck::try_pod_read_unaligned(bytemuck::cast_slice(&r))
            .map_err(|_| unsupported("math type components"))
    }
    #[allow(clippy::cast_possible_truncation)]
    fn f32s<T: bytemuck::Pod>(v: &[f64]) -> Result<T> {
        let r: Vec<f32> = v.iter().map(|&x| x as f32).collect();
        bytemuck::try_pod_read_unaligned(bytemuck::cast_slice(&r))
            .map_err(|_| unsupported("math type components"))
    }
    Ok(match ty {
        VariantType::Vector2 => Variant::from(reals::<Vector2>(v)?),
        VariantType::Vector2i => Variant::from(ints::<Vector2i>(v)?),
        VariantType::Rect2 => Variant::from(reals::<Rect2>(v)?),
        VariantType::Rect2i => Variant::from(ints::<Rect2i>(v)?),
        VariantType::Vector3 => Variant::from(reals::<Vector3>(v)?),
        VariantType::Vector3i => Variant::from(ints::<Vector3i>(v)?),
        VariantType::Transform2D => Variant::from(reals::<Transform2D>(v)?),
        VariantType::Vector4 => Variant::from(reals::<Vector4>(v)?),
        VariantType::Vector4i => Variant::from(ints::<Vector4i>(v)?),
        VariantType::Plane => Variant::from(reals::<Plane>(v)?),
        VariantType::Quaternion => Variant::from(reals::<Quaternion>(v)?),
        VariantType::Aabb => Variant::from(reals::<Aabb>(v)?),
        VariantType::Basis => Variant::from(reals::<Basis>(v)?),
        VariantType::Transform3D => Variant::from(reals::<Transform3D>(v)?),
        VariantType::Projection => Variant::from(reals::<Projection>(v)?),
        VariantType::Color => Variant::from(f32s::<Color>(v)?),
        _ => return Err(unsupported(format!("{} from components", ty.name()))),
    })
}

/// Dictionary entries (maps and structs).
pub(crate) struct MapBuilder {
    ser: VariantSerializer,
    dict: Dictionary,
    /// Every entry in order, when the serializer keeps pairs.
    pairs: Option<Vec<Variant>>,
    key: Option<Variant>,
}

impl MapBuilder {
    fn entry(&mut self, key: Variant, value: Variant) -> Result<()> {
        if let Some(pairs) = &mut self.pairs {
            pairs.push(Variant::from(Array::from(vec![key, value])));
            return Ok(());
        }
        // A repeated key keeps its first place and takes the last value, as decoding does.
        self.dict.insert(key, value);
        Ok(())
    }

    fn finish(self) -> Variant {
        match self.pairs {
            Some(pairs) => Variant::from(Array::from(pairs)),
            None => Variant::from(self.dict),
        }
    }
}

/// A marker field serialized for the byte serializer: an Array of `[key, value]` pairs
/// (see [`VariantSerializer::pairs`]) goes out as the map it came from, a kept `u64`
/// (see [`VariantSerializer::field`]) as that number.
struct Field<'a> {
    value: &'a Variant,
    pairs: bool,
}

impl Serialize for Field<'_> {
    fn serialize<S: ser::Serializer>(
        &self,
        serializer: S,
    ) -> core::result::Result<S::Ok, S::Error> {
        match self.value {
            Variant::Array(a) if self.pairs => {
                serializer.collect_map(a.items.iter().map(|p| match p {
                    Variant::Array(kv) => match kv.items.as_slice() {
                        [k, v] => (k, v),
                        _ => (p, &Variant::Nil),
                    },
                    _ => (p, &Variant::Nil),
                }))
            }
            Variant::Rid(crate::types::Rid(id)) => serializer.serialize_u64(*id),
            v => v.serialize(serializer),
        }
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.key = Some(key.serialize(self.ser)?);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let key = self
            .key
            .take()
            .ok_or_else(|| unsupported("a map value without a key"))?;
        let value = value.serialize(self.ser)?;
        self.entry(key, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let key = Variant::String(key.into());
        let value = value.serialize(self.ser)?;
        self.entry(key, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(self.finish())
    }
}

/// A data-carrying enum variant: the one-entry Dictionary `{key: inner}`.
pub(crate) struct VariantBuilder<B> {
    key: Variant,
    inner: B,
}

impl<B> VariantBuilder<B> {
    fn wrap(key: Variant, inner: Variant) -> Variant {
        let mut d = Dictionary::new();
        d.insert(key, inner);
        Variant::from(d)
    }
}

impl ser::SerializeTupleVariant for VariantBuilder<SeqBuilder> {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(&mut self.inner, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(Self::wrap(self.key, self.inner.finish()))
    }
}

impl ser::SerializeStructVariant for VariantBuilder<MapBuilder> {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(&mut self.inner, key, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(Self::wrap(self.key, self.inner.finish()))
    }
}

/// Takes one number (a math component): its value, and its integer value if it is one.
struct NumberCapture;

macro_rules! capture_int {
    ($($m:ident($t:ty)),*) => {$(
        fn $m(self, v: $t) -> Result<(f64, Option<i64>)> {
            let int = i64::try_from(v).ok();
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            Ok((v as f64, int))
        }
    )*};
}

macro_rules! capture_miss {
    ($($m:ident($($t:ty),*)),*) => {$(
        fn $m(self, $(_: $t),*) -> Result<(f64, Option<i64>)> {
            Err(unsupported("a math type component that is not a number"))
        }
    )*};
}

impl ser::Serializer for NumberCapture {
    type Ok = (f64, Option<i64>);
    type Error = Error;
    type SerializeSeq = Impossible<Self::Ok, Error>;
    type SerializeTuple = Impossible<Self::Ok, Error>;
    type SerializeTupleStruct = Impossible<Self::Ok, Error>;
    type SerializeTupleVariant = Impossible<Self::Ok, Error>;
    type SerializeMap = Impossible<Self::Ok, Error>;
    type SerializeStruct = Impossible<Self::Ok, Error>;
    type SerializeStructVariant = Impossible<Self::Ok, Error>;

    fn is_human_readable(&self) -> bool {
        false
    }

    capture_int!(
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64)
    );

    fn serialize_f32(self, v: f32) -> Result<Self::Ok> {
        Ok((v.into(), None))
    }
    fn serialize_f64(self, v: f64) -> Result<Self::Ok> {
        Ok((v, None))
    }

    capture_miss!(
        serialize_bool(bool),
        serialize_i128(i128),
        serialize_u128(u128),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str)
    );

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<Self::Ok> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<Self::Ok> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(unsupported("a math type component that is not a number"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(unsupported("a math type component that is not a number"))
    }
}

/// What a [`Capture`] takes: the payload of a RID or object-id marker, or of a packed array.
#[derive(Clone, Copy)]
enum Want {
    /// An integer that fits a u64.
    Id,
    /// Bytes (`serialize_bytes`).
    Bytes,
}

/// What a [`Capture`] took.
enum Captured {
    Id(u64),
    Bytes(Vec<u8>),
}

/// The payload of a marker whose byte serializer field takes one id or one run of bytes:
/// what that field accepts is taken, anything else is the same kind of error as there.
struct Capture(Want);

impl Capture {
    #[cold]
    fn refuse(self, what: &str) -> Error {
        let expected = match self.0 {
            Want::Id => "a u64 id",
            Want::Bytes => "packed array bytes",
        };
        Error::new(ErrorKind::Message(
            format!("invalid marker field: {what}, expected {expected}").into(),
        ))
    }

    fn id(self, v: Option<u64>) -> Result<Captured> {
        match (self.0, v) {
            (Want::Id, Some(id)) => Ok(Captured::Id(id)),
            (Want::Id, None) => Err(self.refuse("a negative or fractional number")),
            (Want::Bytes, _) => Err(self.refuse("a number")),
        }
    }
}

/// `Capture` methods that take an integer.
macro_rules! capture_int {
    ($($m:ident($t:ty))*) => {$(
        fn $m(self, v: $t) -> Result<Captured> {
            self.id(u64::try_from(v).ok())
        }
    )*};
}

/// `Capture` methods that refuse what they are given.
macro_rules! refuse {
    ($($m:ident($($t:ty),*) $what:literal;)*) => {$(
        fn $m(self, $(_: $t),*) -> Result<Captured> {
            Err(self.refuse($what))
        }
    )*};
}

impl ser::Serializer for Capture {
    type Ok = Captured;
    type Error = Error;
    type SerializeSeq = Impossible<Captured, Error>;
    type SerializeTuple = Impossible<Captured, Error>;
    type SerializeTupleStruct = Impossible<Captured, Error>;
    type SerializeTupleVariant = Impossible<Captured, Error>;
    type SerializeMap = Impossible<Captured, Error>;
    type SerializeStruct = Impossible<Captured, Error>;
    type SerializeStructVariant = Impossible<Captured, Error>;

    capture_int! {
        serialize_u8(u8) serialize_u16(u16) serialize_u32(u32) serialize_u64(u64)
        serialize_i8(i8) serialize_i16(i16) serialize_i32(i32) serialize_i64(i64)
    }
    fn serialize_f32(self, _: f32) -> Result<Captured> {
        self.id(None)
    }
    fn serialize_f64(self, _: f64) -> Result<Captured> {
        self.id(None)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Captured> {
        match self.0 {
            Want::Bytes => Ok(Captured::Bytes(v.to_vec())),
            Want::Id => Err(self.refuse("bytes")),
        }
    }
    refuse! {
        serialize_bool(bool) "a bool";
        serialize_char(char) "a char";
        serialize_str(&str) "a string";
        serialize_none() "none";
        serialize_unit() "unit";
        serialize_unit_struct(&'static str) "a unit struct";
        serialize_unit_variant(&'static str, u32, &'static str) "an enum";
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Captured> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Captured> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Captured> {
        Err(self.refuse("an enum"))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(self.refuse("a sequence"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(self.refuse("a sequence"))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(self.refuse("a tuple struct"))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self.refuse("an enum"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(self.refuse("a map"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(self.refuse("a struct"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self.refuse("an enum"))
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The id of a RID or object-id marker's payload (see [`Capture`]).
fn capture_id<T: ?Sized + Serialize>(value: &T) -> Result<u64> {
    match value.serialize(Capture(Want::Id))? {
        Captured::Id(id) => Ok(id),
        Captured::Bytes(_) => Err(Capture(Want::Id).refuse("bytes")),
    }
}

/// A PackedVector2Array, PackedVector3Array or PackedVector4Array from its marker's payload
/// bytes (components of `marker_wide` width), as encoding them for a build with
/// `wire_wide` components and decoding them again gives it: each component goes through the
/// wire's width (`as` narrows, as both the encoder and the decoder do).
fn packed_vectors<T: ?Sized + Serialize>(
    ty: VariantType,
    value: &T,
    marker_wide: bool,
    wire_wide: bool,
) -> Result<Variant> {
    let bytes = match value.serialize(Capture(Want::Bytes))? {
        Captured::Bytes(b) => b,
        Captured::Id(_) => return Err(Capture(Want::Bytes).refuse("a number")),
    };
    let n = match ty {
        VariantType::PackedVector2Array => 2,
        VariantType::PackedVector3Array => 3,
        _ => 4,
    };
    let width = if marker_wide { 8 } else { 4 };
    if !bytes.len().is_multiple_of(n * width) {
        return Err(
            Capture(Want::Bytes).refuse("a byte length that is not a whole number of elements")
        );
    }
    /// A component as the wire holds it.
    enum Wire {
        Narrow(f32),
        Wide(f64),
    }
    #[allow(clippy::cast_possible_truncation, clippy::unnecessary_cast)]
    let reals: Vec<Real> = bytes
        .chunks_exact(width)
        .map(|c| {
            let mut w = [0; 8];
            w.get_mut(..width).unwrap_or_default().copy_from_slice(c);
            let [a, b, c, d, ..] = w;
            // The encoder copies equal widths and converts with `as` otherwise; the decoder
            // reads the wire's width into `Real` with `as` (a no-op for equal widths).
            let wire = match (marker_wide, wire_wide) {
                (true, true) => Wire::Wide(f64::from_le_bytes(w)),
                (true, false) => Wire::Narrow(f64::from_le_bytes(w) as f32),
                (false, true) => Wire::Wide(f64::from(f32::from_le_bytes([a, b, c, d]))),
                (false, false) => Wire::Narrow(f32::from_le_bytes([a, b, c, d])),
            };
            match wire {
                Wire::Narrow(x) => x as Real,
                Wire::Wide(x) => x as Real,
            }
        })
        .collect();
    fn vectors<T: bytemuck::Pod>(reals: &[Real]) -> Result<Vec<T>> {
        bytemuck::try_cast_slice(reals)
            .map(<[T]>::to_vec)
            .map_err(|_| unsupported("packed vectors from their components"))
    }
    Ok(match ty {
        VariantType::PackedVector2Array => {
            Variant::PackedVector2Array(crate::types::PackedVector2Array(vectors(&reals)?))
        }
        VariantType::PackedVector3Array => {
            Variant::PackedVector3Array(crate::types::PackedVector3Array(vectors(&reals)?))
        }
        _ => Variant::PackedVector4Array(crate::types::PackedVector4Array(vectors(&reals)?)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Vector2;

    #[derive(serde::Serialize)]
    struct Player {
        name: String,
        hp: u8,
        pos: Vector2,
        color: Color,
        tag: StringName,
        heights: PackedFloat32Array,
        inventory: Vec<(u32, String)>,
        state: State,
    }

    #[derive(serde::Serialize)]
    enum State {
        Moving { speed: f32 },
    }

    #[test]
    fn common_values_take_the_direct_path() {
        let p = Player {
            name: "Ann".into(),
            hp: 5,
            pos: Vector2::new(1.0, 2.0),
            color: Color::new(1.0, 0.5, 0.0, 1.0),
            tag: StringName::from("hero"),
            heights: PackedFloat32Array(vec![0.5]),
            inventory: vec![(1, "sword".into())],
            state: State::Moving { speed: 2.5 },
        };
        for config in [
            Config::default(),
            Config::new(crate::GodotVersion::V4_0).with_enum_repr(EnumRepr::Index),
            Config::default().with_double_precision(true),
        ] {
            let direct = p.serialize(VariantSerializer::new(config)).unwrap();
            assert_eq!(direct, config.to_variant(&p).unwrap());
            let bytes = config.to_bytes(&p).unwrap();
            let oracle: Variant = config.from_bytes(&bytes).unwrap();
            assert_eq!(direct, oracle);
            assert!(fits(&direct, &config));
        }
    }
}
