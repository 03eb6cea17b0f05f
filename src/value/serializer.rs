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

mod capture;
mod compound;

use capture::*;
use compound::*;

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
