//! The serde `Deserializer`: reads the fields the Rust type asks for, in order.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use crate::config::Config;
use crate::error::{Error, ErrorKind, Number, Result};
use crate::schema::MAX_DEPTH;
use crate::types::{Marker, parse_marker};
use crate::wire::{BaseType, DecodedStr, Mode, Reader, Scalar};

#[derive(Default, Clone, Copy)]
struct Ctx {
    ty: Option<BaseType>,
    class: bool,
    /// The class null bit was already read (by `Option`) and was 0.
    class_bit_read: bool,
    option: bool,
    in_seq: bool,
}

/// Deserializes one LiteByte message from a byte slice.
pub struct Deserializer<'de> {
    r: Reader<'de>,
    cfg: Config,
    ctx: Ctx,
    depth: usize,
    /// Elements that open sequences announced in their size hints and have not yet
    /// decoded: together never more than the input bits left (an element takes one bit at
    /// least), so nested forged counts cannot multiply the reservations serde makes.
    hinted: usize,
}

impl<'de> Deserializer<'de> {
    /// A deserializer over `input` with the given configuration.
    pub fn new(input: &'de [u8], cfg: Config) -> Self {
        Deserializer {
            r: Reader::new(input, cfg.mode),
            cfg,
            ctx: Ctx::default(),
            depth: 0,
            hinted: 0,
        }
    }

    /// Strict-mode end checks (trailing bytes, unused bits); no-op in compat mode.
    pub fn end(&self) -> Result<()> {
        self.r.finish()
    }

    fn take(&mut self) -> Ctx {
        std::mem::take(&mut self.ctx)
    }

    fn err(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.r.pos())
    }

    fn unsupported(&self, what: &str) -> Error {
        self.err(ErrorKind::Unsupported(what.into()))
    }

    fn read_scalar(&mut self, default: BaseType) -> Result<Scalar> {
        let ctx = self.take();
        if ctx.class {
            return Err(self.err(ErrorKind::TypeMismatch(
                "Class wraps a base type; it must wrap a struct".into(),
            )));
        }
        if ctx.option {
            return Err(
                self.unsupported("LiteByte base types cannot be null (Option of a number or bool)")
            );
        }
        let ty = ctx.ty.unwrap_or(default);
        if ty.is_string() {
            return Err(self.err(ErrorKind::TypeMismatch(
                format!("{ty} is a string type; the Rust type is not a string").into(),
            )));
        }
        self.r.read_scalar(ty)
    }

    fn visit<V: Visitor<'de>>(&self, s: Scalar, want_bool: bool, visitor: V) -> Result<V::Value> {
        match s {
            Scalar::Bool(b) if want_bool => visitor.visit_bool(b),
            Scalar::Bool(b) => visitor.visit_u8(b as u8),
            Scalar::Int(i) => visitor.visit_i64(i),
            Scalar::UInt(u) => visitor.visit_u64(u),
            Scalar::F32(f) => visitor.visit_f32(f),
            Scalar::F64(f) => visitor.visit_f64(f),
            Scalar::Str(_) => Err(self.err(ErrorKind::TypeMismatch("unexpected string".into()))),
        }
        .map_err(|e: Error| e.or_at(self.r.pos()))
    }

    fn text(&self, s: Option<DecodedStr>, option: bool) -> Result<String> {
        match s {
            None if self.r.mode == Mode::Compat || option => Ok(String::new()),
            None => Err(self.err(ErrorKind::UnexpectedNull(
                "null string for a non-Option field".into(),
            ))),
            Some(DecodedStr::Text(t)) => Ok(t),
            Some(DecodedStr::Utf16(u)) => {
                if self.r.mode == Mode::Compat {
                    Ok(String::from_utf16_lossy(&u))
                } else {
                    Err(self.err(ErrorKind::InvalidString(
                        "lone surrogate cannot be held by a Rust String".into(),
                    )))
                }
            }
        }
    }
}

macro_rules! de_scalar {
    ($($method:ident => $field:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let s = self.read_scalar(self.cfg.types.$field)?;
            self.visit(s, false, visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(self.unsupported(
            "deserialize_any: LiteByte is not self-describing (use a concrete type or a schema)",
        ))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let s = self.read_scalar(self.cfg.types.bool)?;
        self.visit(s, true, visitor)
    }

    de_scalar!(deserialize_i8 => i8, deserialize_i16 => i16, deserialize_i32 => i32,
        deserialize_i64 => i64, deserialize_u8 => u8, deserialize_u16 => u16,
        deserialize_u32 => u32, deserialize_u64 => u64, deserialize_f32 => f32,
        deserialize_f64 => f64);

    fn deserialize_char<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(self.unsupported("char (use a String with a string type)"))
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let ctx = self.take();
        if ctx.class {
            return Err(self.err(ErrorKind::TypeMismatch("Class wraps a string".into())));
        }
        let ty = ctx.ty.unwrap_or(self.cfg.types.string);
        if !ty.is_string() {
            return Err(self.err(ErrorKind::TypeMismatch(
                format!("{ty} is not a string type; the Rust type is a string").into(),
            )));
        }
        match self.r.read_scalar(ty)? {
            Scalar::Str(s) => {
                let t = self.text(s, ctx.option)?;
                visitor.visit_string(t)
            }
            _ => Err(self.err(ErrorKind::TypeMismatch("expected a string".into()))),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let ctx = self.take();
        if ctx.in_seq {
            return Err(self.unsupported("nested arrays"));
        }
        let ty = ctx.ty.unwrap_or(BaseType::UInt8);
        let n = match self.r.read_len(1)? {
            Some(n) => n,
            None if self.r.mode == Mode::Compat || ctx.option => 0,
            None => {
                return Err(self.err(ErrorKind::UnexpectedNull(
                    "null array for a non-Option field".into(),
                )));
            }
        };
        let mut out = Vec::with_capacity(n.min(self.r.remaining()));
        for _ in 0..n {
            let v = self.r.read_int(ty)?;
            let b = u8::try_from(v).map_err(|_| {
                self.err(ErrorKind::OutOfRange {
                    ty,
                    value: Number::Int(v),
                })
            })?;
            out.push(b);
        }
        visitor.visit_byte_buf(out)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.r.pos() == 0 && self.r.remaining() == 0 && self.r.mode == Mode::Compat {
            // The C# reader returns null for empty input.
            self.take();
            return visitor.visit_none();
        }
        if self.ctx.class {
            if self.r.read_bits(1)? == 1 {
                self.take();
                return visitor.visit_none();
            }
            self.ctx.class_bit_read = true;
            self.ctx.option = true;
            return visitor.visit_some(self);
        }
        match self.r.peek_byte() {
            None => Err(self.err(ErrorKind::UnexpectedEof)),
            Some(0) => {
                self.r.read_len(0)?;
                self.take();
                visitor.visit_none()
            }
            Some(_) => {
                self.ctx.option = true;
                visitor.visit_some(self)
            }
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let ctx = self.take();
        if ctx.option || ctx.class {
            return Err(self.unsupported("Option<()>"));
        }
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match parse_marker(name) {
            Some(Marker::Class) => self.ctx.class = true,
            Some(Marker::Base(ty)) => self.ctx.ty = Some(ty),
            None => {}
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let ctx = self.take();
        if ctx.in_seq {
            return Err(self.unsupported("nested arrays"));
        }
        if ctx.class {
            return Err(self.err(ErrorKind::TypeMismatch(
                "Class wraps an array; use an array of Class".into(),
            )));
        }
        let n = match self.r.read_len(1)? {
            Some(n) => n,
            None if self.r.mode == Mode::Compat || ctx.option => 0,
            None => {
                return Err(self.err(ErrorKind::UnexpectedNull(
                    "null array for a non-Option field".into(),
                )));
            }
        };
        visitor.visit_seq(SeqAccess::new(self, n, ctx.ty, true))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        self.begin_struct()?;
        if self.depth >= MAX_DEPTH {
            return Err(self.err(ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }));
        }
        self.depth += 1;
        let v = visitor.visit_seq(SeqAccess::new(&mut *self, len, None, false));
        self.depth -= 1;
        v
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(self.unsupported("maps (LiteByte has no Dictionary)"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(fields.len(), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let s = self.read_scalar(BaseType::UInt8)?;
        let idx = match s {
            Scalar::Int(i) => u32::try_from(i).ok(),
            Scalar::UInt(u) => u32::try_from(u).ok(),
            Scalar::Bool(b) => Some(b as u32),
            _ => None,
        }
        .ok_or_else(|| self.err(ErrorKind::TypeMismatch("enum index".into())))?;
        visitor.visit_enum(UnitEnum { idx })
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(self.unsupported("identifiers (LiteByte has no field names on the wire)"))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(self.unsupported("ignored fields (every field is on the wire)"))
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

impl Deserializer<'_> {
    fn begin_struct(&mut self) -> Result<()> {
        let ctx = self.take();
        if let Some(ty) = ctx.ty {
            return Err(self.err(ErrorKind::TypeMismatch(
                format!("a struct cannot be read as {ty}").into(),
            )));
        }
        if ctx.class {
            if !ctx.class_bit_read && self.r.read_bits(1)? == 1 {
                return Err(self.err(ErrorKind::UnexpectedNull(
                    "null class for a non-Option field (use Class<Option<T>>)".into(),
                )));
            }
        } else if ctx.option {
            return Err(self.unsupported(
                "Option of a struct: LiteByte structs are never null; use Class<Option<T>>",
            ));
        }
        Ok(())
    }
}

struct SeqAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: usize,
    elem: Option<BaseType>,
    in_seq: bool,
    /// Elements of this sequence's size hint not decoded yet (counted in `de.hinted`).
    hint_left: usize,
}

impl<'a, 'de> SeqAccess<'a, 'de> {
    fn new(
        de: &'a mut Deserializer<'de>,
        left: usize,
        elem: Option<BaseType>,
        in_seq: bool,
    ) -> Self {
        let free = de.r.remaining_bits().saturating_sub(de.hinted);
        let hint = left.min(free).min(4096);
        de.hinted += hint;
        SeqAccess {
            de,
            left,
            elem,
            in_seq,
            hint_left: hint,
        }
    }
}

impl Drop for SeqAccess<'_, '_> {
    fn drop(&mut self) {
        self.de.hinted -= self.hint_left;
    }
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.de.ctx = Ctx {
            ty: self.elem,
            in_seq: self.in_seq,
            ..Ctx::default()
        };
        let v = seed.deserialize(&mut *self.de)?;
        if self.hint_left > 0 {
            self.hint_left -= 1;
            self.de.hinted -= 1;
        }
        Ok(Some(v))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.hint_left)
    }
}

struct UnitEnum {
    idx: u32,
}

impl<'de> de::EnumAccess<'de> for UnitEnum {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let d: de::value::U32Deserializer<Error> = self.idx.into_deserializer();
        let v = seed.deserialize(d)?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitEnum {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(Error::new(ErrorKind::Unsupported(
            "data-carrying enum variants".into(),
        )))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(Error::new(ErrorKind::Unsupported(
            "data-carrying enum variants".into(),
        )))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(Error::new(ErrorKind::Unsupported(
            "data-carrying enum variants".into(),
        )))
    }
}
