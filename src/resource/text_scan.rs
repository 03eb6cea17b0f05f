//! Reading a `.tscn` / `.tres` text as the engine's `ResourceLoaderText` does, into an index
//! of its sections (`[tag field=value ...]`) and their `key = value` lines, with the byte
//! ranges an edit needs. The grammar is `VariantParser::parse_tag` and
//! `parse_tag_assign_eof` (`core/variant/variant_parser.cpp`): a tag is `[`, an identifier
//! (with `.` and `:` joining more), then `field=value` pairs up to `]`; between tags, a key
//! is every character above U+0020 up to `=` (whitespace inside it is dropped) or one quoted
//! string, a `;` starts a comment to the end of the line, and a `[` before any key starts
//! the next tag. Values are the text form's ([`crate::text`]), read by its parser.

use core::ops::Range;

use crate::config_file::Limits;
use crate::error::{Error, ErrorKind, Result};
use crate::text::lexer::{Lexer, Token};
use crate::text::parser::{Parser, syntax_error};
use crate::{Config, Variant};

/// One `field=value` of a tag.
#[derive(Clone, Debug)]
pub(super) struct Field {
    /// Its name.
    pub(super) name: String,
    /// Its value.
    pub(super) value: Variant,
    /// Where its value's text is.
    pub(super) span: Range<usize>,
}

/// One `key = value` line.
#[derive(Clone, Debug)]
pub(super) struct Prop {
    /// Its key, as the engine reads it.
    pub(super) name: String,
    /// Where the key's text starts.
    pub(super) key_start: usize,
    /// Where the value's text is.
    pub(super) value: Range<usize>,
}

/// One section: a tag and the lines up to the next tag.
#[derive(Clone, Debug)]
pub(super) struct Section {
    /// The tag's name (`gd_scene`, `ext_resource`, `node`, ...).
    pub(super) tag: String,
    /// Where its `[` is.
    pub(super) start: usize,
    /// Just after its `]`.
    pub(super) header_end: usize,
    /// Where the next section starts (or the text ends).
    pub(super) end: usize,
    /// Its fields, in file order.
    pub(super) fields: Vec<Field>,
    /// Its `key = value` lines, in file order.
    pub(super) props: Vec<Prop>,
}

impl Section {
    /// The field `name` (the last one, as the engine's map keeps it).
    pub(super) fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().rev().find(|f| f.name == name)
    }

    /// The text of field `name` when it is a String, StringName or NodePath.
    pub(super) fn field_str(&self, name: &str) -> Option<String> {
        self.field(name).and_then(|f| as_text(&f.value))
    }

    /// The last line of `key`.
    pub(super) fn prop(&self, key: &str) -> Option<&Prop> {
        self.props.iter().rev().find(|p| p.name == key)
    }

    /// Where the section's content ends: after the line break that ends its last line with
    /// content (its last value, or its header), or where the text ends.
    pub(super) fn content_end(&self, text: &str) -> usize {
        let last = self.props.last().map_or(self.header_end, |p| p.value.end);
        line_end(text, last).min(self.end.max(last))
    }
}

/// Just after the first line break at or after `pos`, or the end of `text`.
pub(super) fn line_end(text: &str, pos: usize) -> usize {
    text.get(pos..)
        .and_then(|r| r.find('\n'))
        .map_or(text.len(), |n| pos + n + 1)
}

/// The text of a String, StringName or NodePath value; an Int's digits (Godot 3's ids).
pub(super) fn as_text(v: &Variant) -> Option<String> {
    match v {
        Variant::String(s) => Some(s.to_string()),
        Variant::StringName(s) => Some(s.0.to_string()),
        Variant::NodePath(p) => Some(p.to_string()),
        Variant::Int(i) => Some(i.to_string()),
        _ => None,
    }
}

fn limit(what: &'static str, max: usize, at: usize) -> Error {
    Error::at(ErrorKind::LimitExceeded { what, max }, at)
}

/// The value whose text starts at or after `pos`, and where its text is.
pub(super) fn value_at(text: &str, config: Config, pos: usize) -> Result<(Variant, Range<usize>)> {
    let mut p = Parser::new(text, config.with_allow_objects(true));
    p.seek(pos);
    let value = p.parse().map_err(|e| p.error(e))?;
    let end = p.pos();
    let rest = text.get(pos..end).unwrap_or("");
    let start = end
        - rest
            .trim_start_matches(|c: char| c != '\0' && c <= ' ')
            .len();
    Ok((value, start..end))
}

/// The next token at or after `pos` and where it starts and ends.
fn token_at<'a>(text: &'a str, g3: bool, pos: usize) -> Result<(Token<'a>, usize, usize)> {
    let mut lex = Lexer::new(text, g3);
    lex.pos = pos;
    // Whitespace first, so the token's start is its own.
    while let Some(&b) = text.as_bytes().get(lex.pos) {
        if b != 0 && b <= 32 {
            lex.pos += 1;
        } else {
            break;
        }
    }
    let start = lex.pos;
    let tok = lex
        .next_token()
        .map_err(|e| syntax_error(text, e.offset, e.message))?;
    Ok((tok, start, lex.pos))
}

/// Reads the tag whose `[` is at `start` (`_parse_tag`).
fn read_tag(text: &str, config: Config, start: usize, limits: &Limits) -> Result<Section> {
    let g3 = !config.version.is_godot4();
    let (tok, at, mut pos) = token_at(text, g3, start + 1)?;
    let Token::Identifier(name) = tok else {
        return Err(syntax_error(
            text,
            at,
            "Expected identifier (tag name)".into(),
        ));
    };
    let mut tag = name.to_owned();
    let mut fields: Vec<Field> = Vec::new();
    let mut parsing_tag = true;
    loop {
        let (mut tok, mut at, mut next) = token_at(text, g3, pos)?;
        match tok {
            Token::BracketClose => {
                pos = next;
                break;
            }
            Token::Eof => {
                return Err(syntax_error(
                    text,
                    at,
                    format!("Unexpected EOF while parsing tag '{tag}'"),
                ));
            }
            Token::Period | Token::Colon if parsing_tag => {
                tag.push(if tok == Token::Period { '.' } else { ':' });
                (tok, at, next) = token_at(text, g3, next)?;
            }
            _ => parsing_tag = false,
        }
        let Token::Identifier(id) = tok else {
            return Err(syntax_error(text, at, "Expected identifier".into()));
        };
        if parsing_tag {
            tag.push_str(id);
            pos = next;
            continue;
        }
        let (eq, eq_at, after) = token_at(text, g3, next)?;
        if eq != Token::Equal {
            return Err(syntax_error(
                text,
                eq_at,
                "Expected '=' after identifier".into(),
            ));
        }
        if fields.len() >= limits.max_keys() {
            return Err(limit(
                "the number of fields and properties (config_file::Limits::with_max_keys)",
                limits.max_keys(),
                at,
            ));
        }
        let (value, span) = value_at(text, config, after)?;
        pos = span.end;
        fields.push(Field {
            name: id.to_owned(),
            value,
            span,
        });
    }
    Ok(Section {
        tag,
        start,
        header_end: pos,
        end: text.len(),
        fields,
        props: Vec::new(),
    })
}

/// Reads a whole text: its sections in file order, the file's header first. Each value is
/// read once, so every syntax error is found here, with its line and column.
pub(super) fn scan(text: &str, config: Config, limits: &Limits) -> Result<Vec<Section>> {
    if text.len() > limits.max_text_size() {
        return Err(limit(
            "the resource text's size in bytes (config_file::Limits::with_max_text_size)",
            limits.max_text_size(),
            limits.max_text_size(),
        ));
    }
    let g3 = !config.version.is_godot4();
    let b = text.as_bytes();
    let mut sections: Vec<Section> = Vec::new();
    let mut props = 0usize;
    let mut key = String::new();
    let mut key_start: Option<usize> = None;
    let mut pos = 0;
    while let Some(&c) = b.get(pos) {
        if c == 0 {
            // The engine's text ends at a NUL.
            break;
        }
        if c == b';' {
            pos = line_end(text, pos);
            continue;
        }
        if c == b'[' && key.is_empty() {
            if sections.len() >= limits.max_sections() {
                return Err(limit(
                    "the number of sections (config_file::Limits::with_max_sections)",
                    limits.max_sections(),
                    pos,
                ));
            }
            if let Some(last) = sections.last_mut() {
                last.end = pos;
            }
            let section = read_tag(text, config, pos, limits)?;
            pos = section.header_end;
            key_start = None;
            sections.push(section);
            continue;
        }
        if c <= 32 {
            pos += 1;
            continue;
        }
        if sections.is_empty() {
            // The header is read with `parse_tag`: only a tag may come first.
            return Err(syntax_error(text, pos, "Expected '['".into()));
        }
        if c == b'"' {
            let (tok, at, next) = token_at(text, g3, pos)?;
            let Token::Str(s) = tok else {
                return Err(syntax_error(text, at, "Error reading quoted string".into()));
            };
            key_start.get_or_insert(pos);
            key = s;
            pos = next;
            continue;
        }
        if c != b'=' {
            let ch = text
                .get(pos..)
                .and_then(|r| r.chars().next())
                .unwrap_or('\u{fffd}');
            key_start.get_or_insert(pos);
            key.push(ch);
            pos += ch.len_utf8();
            continue;
        }
        let (_, span) = value_at(text, config, pos + 1)?;
        let start = key_start.take().unwrap_or(pos);
        let name = core::mem::take(&mut key);
        pos = span.end;
        if name.is_empty() {
            continue;
        }
        props += 1;
        if props > limits.max_keys() {
            return Err(limit(
                "the number of fields and properties (config_file::Limits::with_max_keys)",
                limits.max_keys(),
                start,
            ));
        }
        if let Some(last) = sections.last_mut() {
            last.props.push(Prop {
                name,
                key_start: start,
                value: span,
            });
        }
    }
    if sections.is_empty() {
        return Err(syntax_error(text, text.len(), "Expected '['".into()));
    }
    Ok(sections)
}
