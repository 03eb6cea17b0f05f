//! The serde `Serializer`: the Rust value's shape is the schema.

use serde::ser::{self, Serialize};

use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::types::{Marker, parse_marker};
use crate::wire::{BaseType, StrRef, Writer};

/// Per-value context set by wrappers, `Option` and arrays, consumed by the next value.
#[derive(Default, Clone, Copy)]
pub(crate) struct Ctx {
    pub(crate) ty: Option<BaseType>,
    pub(crate) class: bool,
    pub(crate) option: bool,
    pub(crate) in_seq: bool,
}

/// Serializes one LiteByte message into a buffer (bit bytes need back-patching, so the whole
/// message is buffered).
pub struct Serializer {
    w: Writer,
    cfg: Config,
    ctx: Ctx,
}

impl Serializer {
    /// A serializer with the given configuration.
    pub fn new(cfg: Config) -> Self {
        Serializer {
            w: Writer::new(),
            cfg,
            ctx: Ctx::default(),
        }
    }

    /// The bytes written so far.
    pub fn into_inner(self) -> Vec<u8> {
        self.w.buf
    }

    fn take(&mut self) -> Ctx {
        std::mem::take(&mut self.ctx)
    }

    fn err(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.w.len())
    }

    fn scalar_ctx(&mut self, default: BaseType) -> Result<BaseType> {
        let ctx = self.take();
        if ctx.class {
            return Err(self.err(ErrorKind::TypeMismatch(
                "Class wraps a base type; it must wrap a struct".into(),
            )));
        }
        if ctx.option {
            return Err(self.err(ErrorKind::Unsupported(
                "LiteByte base types cannot be null (Option of a number or bool)".into(),
            )));
        }
        Ok(ctx.ty.unwrap_or(default))
    }

    fn int(&mut self, default: BaseType, v: i128) -> Result<()> {
        let ty = self.scalar_ctx(default)?;
        if ty.is_float() {
            // An integer written as a float type, as C# converts it.
            return self.w.write_float(ty, v as f64, v as f32);
        }
        self.w.write_int(ty, v)
    }

    fn float(&mut self, default: BaseType, v64: f64, v32: f32) -> Result<()> {
        let ty = self.scalar_ctx(default)?;
        self.w.write_float(ty, v64, v32)
    }

    fn unsupported(&self, what: &str) -> Error {
        self.err(ErrorKind::Unsupported(what.into()))
    }
}

impl<'a> ser::Serializer for &'a mut Serializer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqSer<'a>;
    type SerializeTuple = StructSer<'a>;
    type SerializeTupleStruct = StructSer<'a>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = StructSer<'a>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        let ty = self.scalar_ctx(self.cfg.types.bool)?;
        if ty.is_float() || ty.is_string() {
            return Err(self.err(ErrorKind::TypeMismatch(
                format!("a bool cannot be written as {ty}").into(),
            )));
        }
        self.w.write_int(ty, v as i128)
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.int(self.cfg.types.i8, v as i128)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.int(self.cfg.types.i16, v as i128)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.int(self.cfg.types.i32, v as i128)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.int(self.cfg.types.i64, v as i128)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.int(self.cfg.types.u8, v as i128)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.int(self.cfg.types.u16, v as i128)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.int(self.cfg.types.u32, v as i128)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.int(self.cfg.types.u64, v as i128)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.float(self.cfg.types.f32, v as f64, v)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.float(self.cfg.types.f64, v, v as f32)
    }
    fn serialize_char(self, _v: char) -> Result<()> {
        Err(self.unsupported("char (use a String with a string type)"))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        let ctx = self.take();
        if ctx.class {
            return Err(self.err(ErrorKind::TypeMismatch("Class wraps a string".into())));
        }
        let ty = ctx.ty.unwrap_or(self.cfg.types.string);
        if !ty.is_string() {
            return Err(self.err(ErrorKind::TypeMismatch(
                format!("a string cannot be written as {ty}").into(),
            )));
        }
        self.w.write_str(ty, Some(StrRef::Str(v)))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let ctx = self.take();
        if ctx.in_seq {
            return Err(self.unsupported("nested arrays"));
        }
        let ty = ctx.ty.unwrap_or(BaseType::UInt8);
        self.w.write_len(Some(v.len()))?;
        for b in v {
            self.w.write_int(ty, *b as i128)?;
        }
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        let ctx = self.take();
        if ctx.class {
            self.w.write_bits(1, 1);
            Ok(())
        } else {
            self.w.write_len(None)
        }
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        self.ctx.option = true;
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        let ctx = self.take();
        if ctx.option || ctx.class {
            return Err(self.unsupported("Option<()>"));
        }
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        variant_index: u32,
        _variant: &'static str,
    ) -> Result<()> {
        // Extension: a unit-only enum is its variant index (UInt8 unless a wrapper says).
        self.int(BaseType::UInt8, variant_index as i128)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        match parse_marker(name) {
            Some(Marker::Class) => self.ctx.class = true,
            Some(Marker::Base(ty)) => self.ctx.ty = Some(ty),
            None => {}
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(self.unsupported("data-carrying enum variants"))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer<'a>> {
        let ctx = self.take();
        if ctx.in_seq {
            return Err(self.unsupported("nested arrays"));
        }
        if ctx.class {
            return Err(self.err(ErrorKind::TypeMismatch(
                "Class wraps an array; use an array of Class".into(),
            )));
        }
        let len = len.ok_or_else(|| self.unsupported("sequences of unknown length"))?;
        self.w.write_len(Some(len))?;
        Ok(SeqSer {
            ser: self,
            elem: ctx.ty,
        })
    }
    fn serialize_tuple(self, _len: usize) -> Result<StructSer<'a>> {
        self.begin_struct()
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<StructSer<'a>> {
        self.begin_struct()
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(self.unsupported("data-carrying enum variants"))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(self.unsupported("maps (LiteByte has no Dictionary)"))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<StructSer<'a>> {
        self.begin_struct()
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(self.unsupported("data-carrying enum variants"))
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

impl<'a> Serializer {
    fn begin_struct(&'a mut self) -> Result<StructSer<'a>> {
        let ctx = self.take();
        if let Some(ty) = ctx.ty {
            return Err(self.err(ErrorKind::TypeMismatch(
                format!("a struct cannot be written as {ty}").into(),
            )));
        }
        if ctx.class {
            self.w.write_bits(0, 1);
        } else if ctx.option {
            return Err(self.unsupported(
                "Option of a struct: LiteByte structs are never null; use Class<Option<T>>",
            ));
        }
        Ok(StructSer { ser: self })
    }
}

/// Array serializer.
pub struct SeqSer<'a> {
    ser: &'a mut Serializer,
    elem: Option<BaseType>,
}

impl ser::SerializeSeq for SeqSer<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.ctx = Ctx {
            ty: self.elem,
            in_seq: true,
            ..Ctx::default()
        };
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

/// Struct / tuple serializer: fields in order, nothing else.
pub struct StructSer<'a> {
    ser: &'a mut Serializer,
}

impl StructSer<'_> {
    fn field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.ctx = Ctx::default();
        value.serialize(&mut *self.ser)
    }
}

impl ser::SerializeStruct for StructSer<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        _key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(value)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl ser::SerializeTuple for StructSer<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.field(value)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for StructSer<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.field(value)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}
