//! The value parser of the text form, after the engines' `VariantParser::parse_value`.

use super::lexer::{LexError, Lexer, Token};
use crate::error::{Error, ErrorKind};
use crate::types::{NodePath, StringName};
use crate::value::{Array, ContainerType, Dictionary, DictionaryBuilder, KeyMode, Object};
use crate::wire::VariantType;
use crate::wire::depth::{Depth, grow};
use crate::{Config, GodotVersion, Variant};

/// A parse error before it is turned into an [`Error`]: message and byte offset.
struct PErr {
    message: String,
    offset: usize,
}

impl From<LexError> for PErr {
    fn from(e: LexError) -> Self {
        PErr {
            message: e.message,
            offset: e.offset,
        }
    }
}

mod constructors;

use constructors::Num;

type PResult<T> = Result<T, PErr>;

/// The 1-based line and column (in characters) of byte `offset` in `src`.
pub(crate) fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = src.get(..offset).unwrap_or(src);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, col)
}

/// Builds the public error for a message at `offset` in `src`.
pub(crate) fn syntax_error(src: &str, offset: usize, message: String) -> Error {
    let (line, column) = line_col(src, offset);
    Error::at(
        ErrorKind::TextSyntax {
            line,
            column,
            message: message.into_boxed_str(),
        },
        offset,
    )
}

/// The parser: a lexer, the config and the current depth.
pub(crate) struct Parser<'a> {
    lex: Lexer<'a>,
    config: Config,
    /// The level of the values being read: the binary decoders' guard, with the limit
    /// [`Config::max_depth`].
    depth: Depth,
    /// Where the token last returned by `next` began.
    tok_start: usize,
    /// Whether the last token read one character past the end of the text (a number,
    /// identifier or colour ending the text): the engine's stream then reports `is_eof()`.
    past_end: bool,
    /// The values read so far in every open Array and Dictionary (a Dictionary's keys and
    /// values alternating), innermost container last. A container takes its own off the top
    /// when it closes, into an allocation of exactly their number: a one-element Array costs
    /// one slot, where a `Vec` grown one push at a time reserves four (`[[[[]]]]` then costs
    /// less than half).
    scratch: Vec<Variant>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str, config: Config) -> Self {
        Self {
            lex: Lexer::new(src, config.version == GodotVersion::V3),
            config,
            depth: Depth::new(config.max_depth),
            tok_start: 0,
            past_end: false,
            scratch: Vec::new(),
        }
    }

    fn g3(&self) -> bool {
        self.lex.g3
    }

    /// Continues reading at byte `pos` (a ConfigFile value after its `=`).
    pub(crate) fn seek(&mut self, pos: usize) {
        self.lex.pos = pos;
    }

    /// The byte offset after the last token read.
    pub(crate) fn pos(&self) -> usize {
        self.lex.pos
    }

    pub(crate) fn error(&self, e: PErrPublic) -> Error {
        syntax_error(self.lex.src, e.0.offset, e.0.message)
    }

    fn next(&mut self) -> PResult<Token<'a>> {
        // Skip what cannot start a token so the error points at the token itself.
        let t = self.lex.next_token_at()?;
        self.tok_start = t.0;
        self.past_end = self.lex.pos >= self.lex.src.len()
            && matches!(
                t.1,
                Token::Int(_) | Token::Float(_) | Token::Identifier(_) | Token::Color(_)
            );
        Ok(t.1)
    }

    /// The next token of a container, or the engine's error for the end of the text there.
    /// Godot 4's `_parse_array` / `_parse_dictionary` / `Object()` loops check the stream's
    /// `is_eof()` before each token, which is true only after a number, identifier or colour
    /// read past the end; any other end of text is a `TK_EOF` token judged by what was
    /// expected (`Expected ','`, `Expected value, got 'EOF'`). Godot 3's string stream never
    /// reports `is_eof()`; there the end of text is the EOF message itself.
    fn next_in(&mut self, what: &str) -> PResult<Token<'a>> {
        let past_end = self.past_end;
        let t = self.next()?;
        if (self.g3() && t == Token::Eof) || (!self.g3() && past_end) {
            return self.fail(format!("Unexpected EOF while parsing {what}"));
        }
        Ok(t)
    }

    /// The next token where the engine ignores the tokenizer's error and judges the token
    /// (`TK_ERROR`) instead: the caller then reports what it expected.
    fn tok(&mut self) -> Token<'a> {
        match self.lex.next_token_at() {
            Ok((start, t)) => {
                self.tok_start = start;
                t
            }
            Err(e) => {
                self.tok_start = e.offset;
                Token::Invalid
            }
        }
    }

    fn fail<T>(&self, message: impl Into<String>) -> PResult<T> {
        Err(PErr {
            message: message.into(),
            offset: self.tok_start,
        })
    }

    /// Parses one value and leaves the lexer after it.
    pub(crate) fn parse(&mut self) -> Result<Variant, PErrPublic> {
        // What a failed parse left behind (a ConfigFile reads on after an error).
        self.scratch.clear();
        let tok = self.next().map_err(PErrPublic)?;
        self.value(tok).map_err(PErrPublic)
    }

    /// Whether only whitespace and comments are left.
    pub(crate) fn at_end(&mut self) -> Result<bool, PErrPublic> {
        let tok = self.next().map_err(PErrPublic)?;
        Ok(tok == Token::Eof)
    }

    /// Into a container: its values are one level deeper, which the guard must allow. Its
    /// verdict becomes the text form's parse error (message and offset of the opening token).
    fn enter(&mut self) -> PResult<()> {
        if self.depth.try_enter() {
            return Ok(());
        }
        Err(PErr {
            message: format!("recursion limit of {} exceeded", self.depth.limit()),
            offset: self.tok_start,
        })
    }

    fn expect(&mut self, want: &Token<'_>, message: &str) -> PResult<()> {
        let t = self.tok();
        if &t == want {
            Ok(())
        } else {
            self.fail(message)
        }
    }

    /// One value starting with `tok`. Values nest up to [`Config::max_depth`] levels (Godot's
    /// 1024 allowed): each level may run on a new stack segment, as in the binary decoder, so
    /// any limit fits a 2 MiB thread in debug and release builds.
    fn value(&mut self, tok: Token<'a>) -> PResult<Variant> {
        grow(|| self.value_here(tok))
    }

    #[allow(clippy::too_many_lines)] // one arm per constructor, as in the engine
    fn value_here(&mut self, tok: Token<'a>) -> PResult<Variant> {
        let g3 = self.g3();
        match tok {
            Token::CurlyOpen => {
                self.enter()?;
                let d = self.dictionary()?;
                self.depth.leave();
                Ok(Variant::from(d))
            }
            Token::BracketOpen => {
                self.enter()?;
                let items = self.array()?;
                self.depth.leave();
                Ok(Variant::from(Array::from(items)))
            }
            Token::Int(i) => Ok(Variant::Int(i)),
            Token::Float(f) => Ok(Variant::Float(f)),
            Token::Str(s) => Ok(Variant::String(s.into())),
            Token::StrName(s) => Ok(Variant::StringName(StringName(s))),
            Token::Color(c) => Ok(Variant::Color(c)),
            Token::Identifier(id) => self.identifier(id, g3),
            other if g3 => self.fail(format!("Expected value, got {}.", other.name())),
            other => self.fail(format!("Expected value, got '{}'", other.name())),
        }
    }

    /// The elements after `[`, up to and including `]`.
    fn array(&mut self) -> PResult<Vec<Variant>> {
        let start = self.scratch.len();
        let mut need_comma = false;
        loop {
            let t = self.next_in("array")?;
            if t == Token::BracketClose {
                return Ok(take(&mut self.scratch, start));
            }
            if need_comma {
                if t != Token::Comma {
                    return self.fail("Expected ','");
                }
                need_comma = false;
                continue;
            }
            let v = self.value(t)?;
            self.scratch.push(v);
            need_comma = true;
        }
    }

    /// The entries after `{`, up to and including `}`, in a Dictionary of exactly their
    /// number (fewer when keys repeat).
    fn dictionary(&mut self) -> PResult<Dictionary> {
        let start = self.scratch.len();
        let mut need_comma = false;
        loop {
            let t = self.next_in("dictionary")?;
            if t == Token::CurlyClose {
                break;
            }
            if need_comma {
                if t != Token::Comma {
                    return self.fail("Expected '}' or ','");
                }
                need_comma = false;
                continue;
            }
            let key = self.value(t)?;
            if self.next()? != Token::Colon {
                return self.fail("Expected ':'");
            }
            let t = self.next()?;
            let value = self.value(t)?;
            self.scratch.push(key);
            self.scratch.push(value);
            need_comma = true;
        }
        let start = start.min(self.scratch.len());
        let mut entries = DictionaryBuilder::with_capacity(
            KeyMode::of_engine(self.g3()),
            (self.scratch.len() - start) / 2,
        );
        let mut kv = self.scratch.drain(start..);
        while let (Some(key), Some(value)) = (kv.next(), kv.next()) {
            entries.insert(key, value);
        }
        drop(kv);
        if start == 0 {
            // Not held while the rest of the text is read.
            self.scratch = Vec::new();
        }
        Ok(entries.finish())
    }

    /// `Object(Class, "prop": value, ...)` as data.
    fn object(&mut self) -> PResult<Variant> {
        let start = self.tok_start;
        self.expect(&Token::ParenOpen, "Expected '('")?;
        let Token::Identifier(class) = self.tok() else {
            return self.fail("Expected identifier with type of object");
        };
        if !self.config.allow_objects {
            return Err(PErr {
                message: format!(
                    "Object({class}) refused: objects are not allowed (Config::with_allow_objects)"
                ),
                offset: start,
            });
        }
        let mut obj = Object {
            class: class.to_owned(),
            properties: Vec::new(),
        };
        if self.tok() != Token::Comma {
            return self.fail("Expected ',' after object type");
        }
        self.enter()?;
        let mut need_comma = false;
        loop {
            let t = self.next_in("Object()")?;
            if t == Token::ParenClose {
                break;
            }
            if need_comma {
                if t != Token::Comma {
                    return self.fail("Expected '}' or ','");
                }
                need_comma = false;
                continue;
            }
            let Token::Str(key) = t else {
                return self.fail("Expected property name as string");
            };
            if self.next()? != Token::Colon {
                return self.fail("Expected ':'");
            }
            let t = self.next()?;
            let v = self.value(t)?;
            obj.properties.push((key, v));
            need_comma = true;
        }
        self.depth.leave();
        obj.properties = last_of_each(std::mem::take(&mut obj.properties));
        Ok(Variant::from(obj))
    }

    /// `Resource("path")` (Godot 4 also `Resource("uid://…", "path")`), `ExtResource(id)`,
    /// `SubResource(id)`, as data (see the module docs).
    fn resource(&mut self, id: &str) -> PResult<Variant> {
        self.expect(&Token::ParenOpen, "Expected '('")?;
        let first = match self.tok() {
            Token::Str(s) => Variant::String(s.into()),
            Token::Int(i) if id != "Resource" => Variant::Int(i),
            _ => return self.fail("Expected string as argument for Resource()"),
        };
        let mut t = self.tok();
        let mut props = Vec::new();
        if t == Token::Comma && !self.g3() {
            let Token::Str(second) = self.tok() else {
                return self.fail("Expected string in Resource reference");
            };
            t = self.tok();
            props.push(("uid".to_owned(), first));
            props.push(("path".to_owned(), Variant::String(second.into())));
        } else if id == "Resource" {
            props.push(("path".to_owned(), first));
        } else {
            props.push(("id".to_owned(), first));
        }
        if t != Token::ParenClose {
            return self.fail("Expected ')'");
        }
        Ok(Variant::from(Object {
            class: id.to_owned(),
            properties: props,
        }))
    }

    /// The type inside `Array[...]` / `Dictionary[...]`. `after` is the token that must
    /// follow it (`,` for a key, `]` otherwise).
    fn container_type(&mut self, after: &Token<'_>, what: &str) -> PResult<ContainerType> {
        let Token::Identifier(name) = self.tok() else {
            return self.fail(what.to_owned());
        };
        let ty = if name == "Object" {
            // Typed as the class `Object`, as the engine's descriptor says.
            ContainerType::ClassName("Object".to_owned())
        } else if let Some(t) = builtin_type(name) {
            ContainerType::Builtin(t)
        } else if name == "Resource" || name == "SubResource" || name == "ExtResource" {
            let t = self.tok();
            if t == *after && name == "Resource" {
                return Ok(ContainerType::ClassName("Resource".to_owned()));
            }
            if t != Token::ParenOpen {
                return self.fail("Expected '('");
            }
            let Token::Str(path) = self.tok() else {
                return self.fail("Expected string as argument for Resource()");
            };
            self.expect(&Token::ParenClose, "Expected ')'")?;
            ContainerType::Script(path)
        } else if name == "Variant" || name == "Nil" {
            ContainerType::Untyped
        } else {
            ContainerType::ClassName(name.to_owned())
        };
        let message = if *after == Token::Comma {
            "Expected ',' after key type"
        } else {
            "Expected ']'"
        };
        self.expect(after, message)?;
        Ok(ty)
    }

    fn typed_array(&mut self) -> PResult<Variant> {
        self.expect(&Token::BracketOpen, "Expected '['")?;
        let ty = self.container_type(&Token::BracketClose, "Expected type identifier")?;
        self.expect(&Token::ParenOpen, "Expected '('")?;
        self.expect(&Token::BracketOpen, "Expected '['")?;
        self.enter()?;
        let items = self.array()?;
        self.depth.leave();
        self.expect(&Token::ParenClose, "Expected ')'")?;
        // `assign`: every element converted, or none (an empty array) if one cannot be.
        let items = items
            .into_iter()
            .map(|v| convert(v, &ty))
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        Ok(Variant::from(Array {
            element_type: ty,
            items,
        }))
    }

    fn typed_dictionary(&mut self) -> PResult<Variant> {
        self.expect(&Token::BracketOpen, "Expected '['")?;
        let kt = self.container_type(&Token::Comma, "Expected type identifier for key")?;
        let vt = self.container_type(&Token::BracketClose, "Expected type identifier for value")?;
        self.expect(&Token::ParenOpen, "Expected '('")?;
        self.expect(&Token::CurlyOpen, "Expected '{'")?;
        self.enter()?;
        let values = self.dictionary()?;
        self.depth.leave();
        self.expect(&Token::ParenClose, "Expected ')'")?;
        // `assign`: every entry converted (then keys made one again by their converted
        // value), or none (an empty Dictionary) if one cannot be.
        let mode = KeyMode::of_engine(self.g3());
        let mut entries = DictionaryBuilder::typed(mode, values.len(), kt.clone(), vt.clone());
        for (k, v) in values {
            let (Some(k), Some(v)) = (convert(k, &kt), convert(v, &vt)) else {
                entries = DictionaryBuilder::typed(mode, 0, kt, vt);
                break;
            };
            entries.insert(k, v);
        }
        Ok(Variant::from(entries.finish()))
    }
}

/// The values on a scratch stack from `start` on, taken off it in a `Vec` of exactly their
/// number: a one-element container costs one slot, where a `Vec` grown one push at a time
/// reserves four. When they are all the stack holds and fill at least half of it, the stack
/// itself is taken (no copy; its spare room is at most what a `Vec` grown by doubling
/// keeps). A stack emptied otherwise is released, so that it is not held while the rest of
/// the text is read. Shared with the JSON form's parser.
pub(crate) fn take<T>(stack: &mut Vec<T>, start: usize) -> Vec<T> {
    let len = stack.len();
    if start >= len {
        return Vec::new();
    }
    if start > 0 {
        // One allocation of exactly `len - start`, the values moved into it.
        return stack.split_off(start);
    }
    if stack.capacity() <= 2 * len {
        return std::mem::take(stack);
    }
    let mut out = Vec::with_capacity(len);
    out.append(stack);
    *stack = Vec::new();
    out
}

/// Properties set one by one, as the engine sets them: each name once, where it first came,
/// with its last value. Linear in the number of properties (a hash of the names; comparing
/// each with every earlier one took 1.0 s for 40,000 properties, 18 × the time of 10,000).
fn last_of_each(props: Vec<(String, Variant)>) -> Vec<(String, Variant)> {
    if props.len() < 2 {
        return props;
    }
    // Where each property's name first came.
    let first: Vec<usize> = {
        let mut seen = std::collections::HashMap::with_capacity(props.len());
        props
            .iter()
            .enumerate()
            .map(|(i, (k, _))| *seen.entry(k.as_str()).or_insert(i))
            .collect()
    };
    if first.iter().enumerate().all(|(i, &f)| f == i) {
        return props;
    }
    // Where each first-come property went in the result.
    let mut placed = vec![usize::MAX; props.len()];
    let mut out: Vec<(String, Variant)> = Vec::with_capacity(props.len());
    for (i, (k, v)) in props.into_iter().enumerate() {
        let f = first.get(i).copied().unwrap_or(i);
        if f == i {
            if let Some(p) = placed.get_mut(i) {
                *p = out.len();
            }
            out.push((k, v));
        } else if let Some(slot) = placed.get(f).and_then(|&p| out.get_mut(p)) {
            slot.1 = v;
        }
    }
    out
}

/// A parse error carried out of the parser (opaque to the rest of the crate).
pub(crate) struct PErrPublic(PErr);

impl<'a> Lexer<'a> {
    /// The next token and the byte offset where it starts.
    fn next_token_at(&mut self) -> Result<(usize, Token<'a>), LexError> {
        // Whitespace and comments are skipped inside `next_token`; record the start after them
        // by skipping plain whitespace here first.
        while let Some(&b) = self.src.as_bytes().get(self.pos) {
            if b != 0 && b <= 32 {
                self.pos += 1;
            } else {
                break;
            }
        }
        let start = self.pos;
        let t = self.next_token()?;
        Ok((start, t))
    }
}

/// A Godot 4 builtin type by the name `Variant::get_type_name` gives it (not `Nil`).
fn builtin_type(name: &str) -> Option<VariantType> {
    (1..VariantType::variant_max(GodotVersion::V4_4))
        .filter_map(|id| VariantType::from_id(id, GodotVersion::V4_4))
        .find(|t| t.name() == name)
}

/// The element conversion of a typed container's `assign`: the value itself when it has the
/// type, a converted value for the conversions the engine makes, `None` otherwise.
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
fn convert(v: Variant, ty: &ContainerType) -> Option<Variant> {
    let t = match ty {
        ContainerType::Untyped => return Some(v),
        ContainerType::Builtin(t) => *t,
        ContainerType::ClassName(_) | ContainerType::Script(_) => {
            return matches!(v, Variant::Nil | Variant::Object(_) | Variant::ObjectId(_))
                .then_some(v);
        }
    };
    if v.variant_type() == t {
        return Some(v);
    }
    Some(match (v, t) {
        (Variant::Int(i), VariantType::Float) => Variant::Float(i as f64),
        (Variant::Float(f), VariantType::Int) => Variant::Int(Num::Float(f).i64()),
        (Variant::Bool(b), VariantType::Int) => Variant::Int(i64::from(b)),
        (Variant::Bool(b), VariantType::Float) => Variant::Float(f64::from(u8::from(b))),
        (Variant::Int(i), VariantType::Bool) => Variant::Bool(i != 0),
        (Variant::Float(f), VariantType::Bool) => Variant::Bool(f != 0.0),
        (Variant::String(s), VariantType::StringName) => Variant::StringName(StringName(s.into())),
        (Variant::StringName(StringName(s)), VariantType::String) => Variant::String(s.into()),
        (Variant::String(s), VariantType::NodePath) => Variant::from(NodePath::from(&*s)),
        (Variant::Nil, VariantType::Object) => Variant::Nil,
        (Variant::Object(o), VariantType::Object) => Variant::Object(o),
        _ => return None,
    })
}
