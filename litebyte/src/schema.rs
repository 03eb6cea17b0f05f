//! `.lbs` schema files: lexer, parser, type registry and the dynamic encoder/decoder.

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::{Error, ErrorKind, Result};
use crate::value::Value;
use crate::wire::{BaseType, DecodedStr, Mode, Reader, Scalar, StrRef, Writer};

/// Nesting limit of the dynamic encoder/decoder (guards against stack exhaustion on deeply
/// self-referencing `class` data).
pub const MAX_DEPTH: usize = 128;

/// One field of a custom type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field name (not on the wire; used to match [`Value::Object`] members). Shared with
    /// every decoded [`Value::Object`], so a decoded member costs no copy of its name.
    pub name: Arc<str>,
    /// The type name as written in the `.lbs` file (alias, base type or custom type).
    pub type_name: String,
    /// `T[] name;`
    pub is_array: bool,
}

/// A custom type declared in one `.lbs` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDef {
    /// The type name.
    pub name: String,
    /// `class` (one null bit, nullable) rather than `struct`.
    pub is_class: bool,
    /// Fields in declaration order, which is wire order.
    pub fields: Vec<Field>,
}

/// What a field's type name resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType<'a> {
    /// A base type (directly or through an alias).
    Base(BaseType),
    /// A custom type of the schema.
    Custom(&'a TypeDef),
}

fn schema_err(msg: String) -> Error {
    Error::new(ErrorKind::Schema(msg.into()))
}

// ---------------------------------------------------------------------------------------
// Lexer

#[derive(Debug, Clone)]
struct Token {
    text: String,
    line: usize,
    col: usize,
}

fn lex(src: &str) -> Result<Vec<Token>> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    let at = |k: usize| chars.get(k).copied();
    while let Some(c) = at(i) {
        match c {
            ' ' | '\t' | '\r' => {
                i += 1;
                col += 1;
            }
            '\n' => {
                i += 1;
                line += 1;
                col = 1;
            }
            '/' if at(i + 1) == Some('/') => {
                while let Some(c) = at(i) {
                    if c == '\n' {
                        break;
                    }
                    i += 1;
                }
            }
            '/' if at(i + 1) == Some('*') => {
                let (l0, c0) = (line, col);
                i += 2;
                col += 2;
                loop {
                    match at(i) {
                        None => {
                            return Err(schema_err(format!(
                                "unterminated comment starting at ({l0}, {c0})"
                            )));
                        }
                        Some('*') if at(i + 1) == Some('/') => {
                            i += 2;
                            col += 2;
                            break;
                        }
                        Some('\n') => {
                            i += 1;
                            line += 1;
                            col = 1;
                        }
                        Some(_) => {
                            i += 1;
                            col += 1;
                        }
                    }
                }
            }
            ';' | ',' | '[' | ']' | '<' | '>' | '{' | '}' => {
                out.push(Token {
                    text: c.to_string(),
                    line,
                    col,
                });
                i += 1;
                col += 1;
            }
            _ => {
                let (l0, c0) = (line, col);
                let mut w = String::new();
                while let Some(c) = at(i) {
                    if matches!(
                        c,
                        ' ' | '\t' | '\r' | '\n' | ';' | ',' | '[' | ']' | '<' | '>' | '{' | '}'
                    ) || (c == '/' && matches!(at(i + 1), Some('/') | Some('*')))
                    {
                        break;
                    }
                    w.push(c);
                    i += 1;
                    col += 1;
                }
                out.push(Token {
                    text: w,
                    line: l0,
                    col: c0,
                });
            }
        }
    }
    Ok(out)
}

const MODIFIERS: [&str; 4] = ["public", "private", "protected", "internal"];

fn is_punct(s: &str) -> bool {
    matches!(s, ";" | "," | "[" | "]" | "<" | ">" | "{" | "}")
}

fn check_ident(t: &Token, what: &str) -> Result<()> {
    let bad = is_punct(&t.text) || t.text.chars().next().is_none_or(|c| c.is_ascii_digit());
    if bad {
        return Err(schema_err(format!(
            "parse type({}, {}) error near \"{}\": invalid {what}",
            t.line, t.col, t.text
        )));
    }
    Ok(())
}

/// Parses one `.lbs` text (one type per file) with the reference parser's rules, including
/// its quirks: words *starting* with `public`/`private`/`protected`/`internal` are dropped,
/// and any first word starting with `class`/`struct` is accepted.
pub fn parse_type(src: &str) -> Result<TypeDef> {
    let tokens: Vec<Token> = lex(src)?
        .into_iter()
        .filter(|t| !MODIFIERS.iter().any(|m| t.text.starts_with(m)))
        .collect();
    // Shortest declaration: kind Name { Type name ; }
    if tokens.len() < 7 {
        return Err(schema_err("parse struct error: not enough words".into()));
    }
    let mut it = tokens.iter().peekable();
    let mut next = |what: &str| -> Result<Token> {
        it.next().cloned().ok_or_else(|| {
            schema_err(format!(
                "parse type error: unexpected end, expecting {what}"
            ))
        })
    };
    let expect = |t: &Token, s: &str| -> Result<()> {
        if t.text == s {
            Ok(())
        } else {
            Err(schema_err(format!(
                "parse type({}, {}) error near \"{}\": expecting \"{s}\"",
                t.line, t.col, t.text
            )))
        }
    };
    let kind = next("class or struct")?;
    let is_class = if kind.text.starts_with("class") {
        true
    } else if kind.text.starts_with("struct") {
        false
    } else {
        return Err(schema_err(format!(
            "parse type({}, {}) error near \"{}\": expecting \"class\" or \"struct\"",
            kind.line, kind.col, kind.text
        )));
    };
    let name = next("type name")?;
    check_ident(&name, "type name")?;
    expect(&next("{")?, "{")?;
    let mut fields = Vec::new();
    loop {
        let ty = next("field type or }")?;
        if ty.text == "}" {
            break;
        }
        check_ident(&ty, "field type")?;
        let mut t = next("field name")?;
        let mut is_array = false;
        if t.text == "[" {
            expect(&next("]")?, "]")?;
            is_array = true;
            t = next("field name")?;
            if t.text == "[" {
                return Err(schema_err(format!(
                    "parse type({}, {}) error near \"[\": arrays of arrays are not supported",
                    t.line, t.col
                )));
            }
        }
        check_ident(&t, "field name")?;
        expect(&next(";")?, ";")?;
        fields.push(Field {
            name: t.text.into(),
            type_name: ty.text,
            is_array,
        });
    }
    if fields.is_empty() {
        return Err(schema_err("parse struct error: not enough words".into()));
    }
    if let Some(t) = it.find(|t| t.text != ";") {
        return Err(schema_err(format!(
            "parse type({}, {}) error near \"{}\": one type per file",
            t.line, t.col, t.text
        )));
    }
    Ok(TypeDef {
        name: name.text,
        is_class,
        fields,
    })
}

// ---------------------------------------------------------------------------------------
// Registry

/// A set of custom types plus the alias table, like the C# `LBConfig`.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    types: Vec<TypeDef>,
    by_name: HashMap<String, usize>,
    aliases: HashMap<String, BaseType>,
}

impl Schema {
    /// An empty schema without aliases.
    pub fn new() -> Self {
        Schema::default()
    }

    /// An empty schema with the reference demo's alias table (`bool→Bit1`, `int→VarInt32`,
    /// `string→UTF8`, ...).
    pub fn with_demo_aliases() -> Self {
        let mut s = Schema::new();
        for (ty, alias) in DEMO_ALIASES {
            s.add_alias(*ty, alias);
        }
        s
    }

    /// Registers `alias` for `base` (`LBConfig.json`'s `[BaseTypeName, alias]`). An alias may
    /// shadow a built-in name.
    pub fn add_alias(&mut self, base: BaseType, alias: &str) {
        self.aliases.insert(alias.to_owned(), base);
    }

    /// Parses a `.lbs` text and registers its type. Duplicate names are an error. References
    /// to other types are checked by [`Schema::validate`].
    pub fn add_lbs(&mut self, src: &str) -> Result<&TypeDef> {
        let def = parse_type(src)?;
        self.add_type(def)
    }

    /// Registers an already parsed type.
    pub fn add_type(&mut self, def: TypeDef) -> Result<&TypeDef> {
        if self.by_name.contains_key(&def.name) {
            return Err(schema_err(format!(
                "custom type [{}] already exists",
                def.name
            )));
        }
        let idx = self.types.len();
        self.by_name.insert(def.name.clone(), idx);
        self.types.push(def);
        self.types
            .get(idx)
            .ok_or_else(|| schema_err("internal: type not stored".into()))
    }

    /// Parses and registers several `.lbs` texts, then validates them.
    pub fn from_lbs<'a>(
        aliases: impl IntoIterator<Item = (BaseType, &'a str)>,
        sources: impl IntoIterator<Item = &'a str>,
    ) -> Result<Schema> {
        let mut s = Schema::new();
        for (ty, a) in aliases {
            s.add_alias(ty, a);
        }
        for src in sources {
            s.add_lbs(src)?;
        }
        s.validate()?;
        Ok(s)
    }

    /// Checks that every field type resolves (`LBConfig.CheckAllCustomTypes`).
    pub fn validate(&self) -> Result<()> {
        for t in &self.types {
            for f in &t.fields {
                self.resolve(&f.type_name).map_err(|_| {
                    schema_err(format!(
                        "unknown type [{}] of field {}.{}",
                        f.type_name, t.name, f.name
                    ))
                })?;
            }
        }
        Ok(())
    }

    /// A registered custom type by name.
    pub fn get(&self, name: &str) -> Option<&TypeDef> {
        self.by_name.get(name).and_then(|i| self.types.get(*i))
    }

    /// All registered types, in registration order.
    pub fn types(&self) -> &[TypeDef] {
        &self.types
    }

    /// Resolves a type name: alias first, then built-in base type, then custom type.
    pub fn resolve(&self, type_name: &str) -> Result<FieldType<'_>> {
        if let Some(b) = self.aliases.get(type_name) {
            return Ok(FieldType::Base(*b));
        }
        if let Some(b) = BaseType::from_name(type_name) {
            return Ok(FieldType::Base(b));
        }
        self.get(type_name)
            .map(FieldType::Custom)
            .ok_or_else(|| schema_err(format!("unknown type [{type_name}]")))
    }

    fn root(&self, name: &str) -> Result<&TypeDef> {
        self.get(name)
            .ok_or_else(|| schema_err(format!("unknown root type [{name}]")))
    }

    /// Encodes `value` (a [`Value::Object`], or [`Value::Null`] for a null `class`) as the
    /// custom type `root`.
    pub fn encode(&self, root: &str, value: &Value) -> Result<Vec<u8>> {
        let def = self.root(root)?;
        let mut w = Writer::new();
        self.enc_custom(&mut w, def, value, 0)?;
        Ok(w.buf)
    }

    /// Decodes bytes as the custom type `root`.
    pub fn decode(&self, root: &str, bytes: &[u8], mode: Mode) -> Result<Value> {
        let def = self.root(root)?;
        if bytes.is_empty() {
            return match mode {
                Mode::Strict => Err(Error::at(ErrorKind::EmptyInput, 0)),
                Mode::Compat => Ok(Value::Null),
            };
        }
        let mut r = Reader::new(bytes, mode);
        let mut budget = Budget::new(bytes.len());
        let v = self.dec_custom(&mut r, def, 0, &mut budget)?;
        r.finish()?;
        Ok(v)
    }

    fn enc_custom(&self, w: &mut Writer, def: &TypeDef, v: &Value, depth: usize) -> Result<()> {
        if depth >= MAX_DEPTH {
            return Err(Error::at(
                ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH },
                w.len(),
            ));
        }
        let members = match v {
            Value::Null if def.is_class => {
                w.write_bits(1, 1);
                return Ok(());
            }
            Value::Null => {
                return Err(Error::at(
                    ErrorKind::UnexpectedNull(format!("struct {} cannot be null", def.name).into()),
                    w.len(),
                ));
            }
            Value::Object(m) => m,
            other => {
                return Err(Error::at(
                    ErrorKind::TypeMismatch(
                        format!("{} needs an object, got {}", def.name, other.kind_name()).into(),
                    ),
                    w.len(),
                ));
            }
        };
        if def.is_class {
            w.write_bits(0, 1);
        }
        for f in &def.fields {
            let fv = members
                .iter()
                .find(|(k, _)| *k == f.name)
                .map(|(_, v)| v)
                .ok_or_else(|| {
                    Error::at(
                        ErrorKind::TypeMismatch(
                            format!("missing field {}.{}", def.name, f.name).into(),
                        ),
                        w.len(),
                    )
                })?;
            let ty = self.resolve(&f.type_name)?;
            if f.is_array {
                match fv {
                    Value::Null => w.write_len(None)?,
                    Value::Array(items) => {
                        w.write_len(Some(items.len()))?;
                        for it in items {
                            self.enc_one(w, ty, it, depth)?;
                        }
                    }
                    other => {
                        return Err(Error::at(
                            ErrorKind::TypeMismatch(
                                format!(
                                    "{}.{} needs an array, got {}",
                                    def.name,
                                    f.name,
                                    other.kind_name()
                                )
                                .into(),
                            ),
                            w.len(),
                        ));
                    }
                }
            } else {
                self.enc_one(w, ty, fv, depth)?;
            }
        }
        Ok(())
    }

    fn enc_one(&self, w: &mut Writer, ty: FieldType<'_>, v: &Value, depth: usize) -> Result<()> {
        match ty {
            FieldType::Custom(def) => self.enc_custom(w, def, v, depth + 1),
            FieldType::Base(b) => enc_base(w, b, v),
        }
    }

    fn dec_custom(
        &self,
        r: &mut Reader<'_>,
        def: &TypeDef,
        depth: usize,
        budget: &mut Budget,
    ) -> Result<Value> {
        if depth >= MAX_DEPTH {
            return Err(Error::at(
                ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH },
                r.pos(),
            ));
        }
        if def.is_class && r.read_bits(1)? == 1 {
            return Ok(Value::Null);
        }
        budget.charge(def.fields.len().saturating_mul(MEMBER_SIZE), r.pos())?;
        let mut members = Vec::with_capacity(def.fields.len());
        for f in &def.fields {
            let ty = self.resolve(&f.type_name)?;
            let v = if f.is_array {
                let min_bits = match ty {
                    FieldType::Base(b) => b.min_bits(),
                    // Computed once per type and message: a struct's bound walks its fields.
                    FieldType::Custom(d) => *budget
                        .min_bits
                        .entry(std::ptr::from_ref(d) as usize)
                        .or_insert_with(|| self.min_bits(ty, MIN_BITS_DEPTH)),
                };
                match r.read_len(min_bits)? {
                    None => Value::Null,
                    Some(n) => self.dec_array(r, ty, n, min_bits, depth, budget)?,
                }
            } else {
                self.dec_one(r, ty, depth, budget)?
            };
            members.push((Arc::clone(&f.name), v));
        }
        Ok(Value::Object(members))
    }

    /// A lower bound of the bits one value of `ty` takes on the wire (exact for base types;
    /// structs are followed `depth` levels deep, then count as 1).
    fn min_bits(&self, ty: FieldType<'_>, depth: u32) -> u64 {
        match ty {
            FieldType::Base(b) => b.min_bits(),
            FieldType::Custom(def) if def.is_class || depth == 0 => 1,
            FieldType::Custom(def) => def
                .fields
                .iter()
                .map(|f| match self.resolve(&f.type_name) {
                    _ if f.is_array => 8,
                    Ok(t) => self.min_bits(t, depth - 1),
                    Err(_) => 1,
                })
                .fold(0u64, u64::saturating_add)
                .max(1),
        }
    }

    /// Decodes `n` elements of at least `min_bits` bits each (`n` already checked against
    /// the input). The up-front reservation shares one bound with every array still open
    /// around it: together they reserve no more elements than the input bits left could
    /// hold, so forged counts at many nesting levels cannot multiply it. Past the
    /// reservation the vector grows geometrically as elements really decode, charged to the
    /// budget as it grows.
    fn dec_array(
        &self,
        r: &mut Reader<'_>,
        ty: FieldType<'_>,
        n: usize,
        min_bits: u64,
        depth: usize,
        budget: &mut Budget,
    ) -> Result<Value> {
        let min_bits = usize::try_from(min_bits).unwrap_or(usize::MAX).max(1);
        let free_bits = r.remaining_bits().saturating_sub(budget.reserved_bits);
        let cap = n.min(free_bits / min_bits);
        budget.charge(cap.saturating_mul(VALUE_SIZE), r.pos())?;
        budget.reserved_bits += cap * min_bits;
        let mut items: Vec<Value> = Vec::with_capacity(cap);
        for i in 0..n {
            if items.len() == items.capacity() {
                let extra = (n - i).min(items.len().max(8));
                budget.charge(extra.saturating_mul(VALUE_SIZE), r.pos())?;
                items.reserve_exact(extra);
            }
            // An error ends the whole decode, so the reservation needs no release then.
            items.push(self.dec_one(r, ty, depth, budget)?);
            if i < cap {
                budget.reserved_bits -= min_bits;
            }
        }
        Ok(Value::Array(items))
    }

    fn dec_one(
        &self,
        r: &mut Reader<'_>,
        ty: FieldType<'_>,
        depth: usize,
        budget: &mut Budget,
    ) -> Result<Value> {
        match ty {
            FieldType::Custom(def) => self.dec_custom(r, def, depth + 1, budget),
            FieldType::Base(b) => Ok(match r.read_scalar(b)? {
                Scalar::Bool(x) => Value::Bool(x),
                Scalar::Int(x) => Value::Int(x),
                Scalar::UInt(x) => Value::UInt(x),
                Scalar::F32(x) => Value::F32(x),
                Scalar::F64(x) => Value::F64(x),
                Scalar::Str(None) => Value::Null,
                Scalar::Str(Some(DecodedStr::Text(s))) => {
                    budget.charge(s.capacity(), r.pos())?;
                    Value::Str(s)
                }
                Scalar::Str(Some(DecodedStr::Utf16(u))) => {
                    budget.charge(u.capacity().saturating_mul(2), r.pos())?;
                    Value::Utf16(u)
                }
            }),
        }
    }
}

/// Heap bytes of one [`Value`] slot in an array.
const VALUE_SIZE: usize = size_of::<Value>();
/// Heap bytes of one object member: its shared name pointer and its value.
const MEMBER_SIZE: usize = size_of::<(Arc<str>, Value)>();

/// Heap that [`Schema::decode`] may build for a message, besides
/// [`DECODE_HEAP_PER_BYTE`] bytes per input byte.
pub const DECODE_HEAP_SLACK: usize = 64 * 1024;

/// Heap that [`Schema::decode`] may build per input byte, besides [`DECODE_HEAP_SLACK`]:
/// 80 bytes per input bit, what an array of one-bit structs needs (a 32-byte [`Value`] per
/// element plus its one 48-byte member; field names are shared, not copied). A message
/// that would need more (only schemas nesting single-field structs around one-bit fields
/// get there) is refused with [`ErrorKind::DecodeLimit`].
pub const DECODE_HEAP_PER_BYTE: usize = 640;

/// How deep [`Schema::min_bits`] follows struct fields.
const MIN_BITS_DEPTH: u32 = 4;

/// What the decoded value may still allocate, and the input bits that the array slots
/// reserved but not yet filled will need at least.
struct Budget {
    left: usize,
    limit: usize,
    reserved_bits: usize,
    /// [`Schema::min_bits`] of the custom types met so far, by address.
    min_bits: HashMap<usize, u64>,
}

impl Budget {
    fn new(input_len: usize) -> Self {
        // Half the slack is left for what the decoder holds besides the value (its error,
        // the root's members), so the whole heap stays within the documented bound.
        let limit =
            (DECODE_HEAP_SLACK / 2).saturating_add(input_len.saturating_mul(DECODE_HEAP_PER_BYTE));
        Budget {
            left: limit,
            limit,
            reserved_bits: 0,
            min_bits: HashMap::new(),
        }
    }

    fn charge(&mut self, bytes: usize, offset: usize) -> Result<()> {
        match self.left.checked_sub(bytes) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(Error::at(
                ErrorKind::DecodeLimit { limit: self.limit },
                offset,
            )),
        }
    }
}

fn enc_base(w: &mut Writer, b: BaseType, v: &Value) -> Result<()> {
    let mismatch = |w: &Writer| {
        Error::at(
            ErrorKind::TypeMismatch(format!("{} cannot be written as {b}", v.kind_name()).into()),
            w.len(),
        )
    };
    if b.is_string() {
        return match v {
            Value::Null => w.write_str(b, None),
            Value::Str(s) => w.write_str(b, Some(StrRef::Str(s))),
            Value::Utf16(u) => w.write_str(b, Some(StrRef::Utf16(u))),
            _ => Err(mismatch(w)),
        };
    }
    if b.is_float() {
        return match *v {
            Value::F32(x) => w.write_float(b, x as f64, x),
            Value::F64(x) => w.write_float(b, x, x as f32),
            Value::Int(x) => w.write_float(b, x as f64, x as f32),
            Value::UInt(x) => w.write_float(b, x as f64, x as f32),
            _ => Err(mismatch(w)),
        };
    }
    match *v {
        Value::Bool(x) => w.write_int(b, x as i128),
        Value::Int(x) => w.write_int(b, x as i128),
        Value::UInt(x) => w.write_int(b, x as i128),
        Value::Null => Err(Error::at(
            ErrorKind::UnexpectedNull(format!("{b} cannot be null").into()),
            w.len(),
        )),
        _ => Err(mismatch(w)),
    }
}

/// The reference demo's alias table (`LBConfig.json`).
pub const DEMO_ALIASES: &[(BaseType, &str)] = &[
    (BaseType::Bit1, "bool"),
    (BaseType::Int8, "sbyte"),
    (BaseType::UInt8, "byte"),
    (BaseType::Float32, "float"),
    (BaseType::Float64, "double"),
    (BaseType::VarInt16, "short"),
    (BaseType::VarInt32, "int"),
    (BaseType::VarInt64, "long"),
    (BaseType::VarUInt16, "ushort"),
    (BaseType::VarUInt32, "uint"),
    (BaseType::VarUInt64, "ulong"),
    (BaseType::Utf8, "string"),
];
