//! `JSON.parse_string` (Godot 4, `core/io/json.cpp`, `JSON::_get_token` / `_parse_value`):
//! text to the JSON tree, accepting what the engine accepts and refusing what it refuses.
//!
//! The engine's reading is looser than RFC 8259, and so is this one: any character up to
//! U+0020 is white space; a trailing comma before `]` or `}` is allowed; strings may hold raw
//! control characters and new lines; numbers are Godot's `built_in_strtod` prefix (`01`,
//! `1.`, `-0` are numbers); a NUL character ends the text. Every number is a double. As in
//! the engine, `\v` (which `JSON.stringify` writes) is not a valid escape.

use super::tree::{Json, Node};
use crate::error::{Error, Result};
use crate::text::lexer::strtod;
use crate::text::parser::{syntax_error, take};
use crate::wire::depth::{Depth, grow};

/// Parses one JSON value; only white space may follow it. `depth` bounds the nesting of
/// arrays and objects.
pub(crate) fn parse(src: &str, depth: Depth) -> Result<Node> {
    let (value, mut p) = parse_first(src, depth)?;
    let tok = p.token()?;
    if tok.kind != Kind::Eof {
        return Err(p.err(tok.at, "Expected 'EOF'"));
    }
    Ok(value)
}

/// Parses the first JSON value of `src` and returns it with the byte offset just after it.
pub(crate) fn parse_prefix(src: &str, depth: Depth) -> Result<(Node, usize)> {
    let (value, p) = parse_first(src, depth)?;
    Ok((value, p.pos))
}

fn parse_first(src: &str, depth: Depth) -> Result<(Node, Parser<'_>)> {
    let mut p = Parser {
        src,
        b: src.as_bytes(),
        pos: 0,
        depth,
        items: Vec::new(),
        entries: Vec::new(),
    };
    let tok = p.token()?;
    let value = p.value(tok)?;
    Ok((value, p))
}

#[derive(Debug, PartialEq)]
enum Kind {
    CurlyOpen,
    CurlyClose,
    BracketOpen,
    BracketClose,
    Colon,
    Comma,
    Str(String),
    Number(f64),
    Ident,
    Eof,
}

struct Token {
    at: usize,
    end: usize,
    kind: Kind,
}

impl Kind {
    /// The engine's token names (`JSON::tk_name`).
    fn name(&self) -> &'static str {
        match self {
            Kind::CurlyOpen => "'{'",
            Kind::CurlyClose => "'}'",
            Kind::BracketOpen => "'['",
            Kind::BracketClose => "']'",
            Kind::Colon => "':'",
            Kind::Comma => "','",
            Kind::Str(_) => "string",
            Kind::Number(_) => "number",
            Kind::Ident => "identifier",
            Kind::Eof => "EOF",
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    /// Open arrays and objects, and how many may be.
    depth: Depth,
    /// The items read so far in every open array, innermost array last; each array takes its
    /// own off the top when it closes, into an allocation of exactly their number (see
    /// [`take`]: a one-item array costs one item, where a `Vec` grown one push at a time
    /// reserves four).
    items: Vec<Node>,
    /// The same for the entries of every open object.
    entries: Vec<(String, Node)>,
}

impl Parser<'_> {
    #[cold]
    fn err(&self, at: usize, msg: &str) -> Error {
        syntax_error(self.src, at, msg.to_owned())
    }

    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    fn token(&mut self) -> Result<Token> {
        loop {
            let at = self.pos;
            let c = self.at(at);
            let single = |kind| {
                Ok(Token {
                    at,
                    end: at + 1,
                    kind,
                })
            };
            match c {
                // The engine reads a NUL-terminated string: NUL (or the end) is EOF.
                0 => {
                    return Ok(Token {
                        at,
                        end: at,
                        kind: Kind::Eof,
                    });
                }
                b'{' | b'}' | b'[' | b']' | b':' | b',' => {
                    self.pos += 1;
                    return single(match c {
                        b'{' => Kind::CurlyOpen,
                        b'}' => Kind::CurlyClose,
                        b'[' => Kind::BracketOpen,
                        b']' => Kind::BracketClose,
                        b':' => Kind::Colon,
                        _ => Kind::Comma,
                    });
                }
                b'"' => {
                    self.pos += 1;
                    let s = self.string(at)?;
                    return Ok(Token {
                        at,
                        end: self.pos,
                        kind: Kind::Str(s),
                    });
                }
                c if c <= 32 => self.pos += 1,
                b'-' | b'0'..=b'9' => {
                    let len = number_len(self.b.get(at..).unwrap_or_default());
                    if len == 0 {
                        return Err(self.err(at, "Expected a number after '-'"));
                    }
                    let text = self.src.get(at..at + len).unwrap_or_default();
                    self.pos = at + len;
                    return Ok(Token {
                        at,
                        end: self.pos,
                        kind: Kind::Number(strtod(text)),
                    });
                }
                c if c.is_ascii_alphabetic() => {
                    while self.at(self.pos).is_ascii_alphabetic() {
                        self.pos += 1;
                    }
                    return Ok(Token {
                        at,
                        end: self.pos,
                        kind: Kind::Ident,
                    });
                }
                _ => return Err(self.err(at, "Unexpected character")),
            }
        }
    }

    /// Reads 4 hex digits after `\u` at `self.pos` (which points at the `u`).
    fn hex4(&mut self) -> Result<u32> {
        let mut v = 0;
        for j in 1..=4 {
            let c = self.at(self.pos + j);
            let d = match c {
                0 => return Err(self.err(self.pos + j, "Unterminated string")),
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => return Err(self.err(self.pos + j, "Malformed hex constant in string")),
            };
            v = (v << 4) | u32::from(d);
        }
        self.pos += 4;
        Ok(v)
    }

    /// The rest of a string whose `"` was at `start`.
    fn string(&mut self, start: usize) -> Result<String> {
        let mut out = String::new();
        loop {
            let run = self.pos;
            while !matches!(self.at(self.pos), 0 | b'"' | b'\\') {
                self.pos += 1;
            }
            out.push_str(self.src.get(run..self.pos).unwrap_or_default());
            match self.at(self.pos) {
                0 => return Err(self.err(start, "Unterminated string")),
                b'"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                _ => {}
            }
            let esc = self.pos;
            self.pos += 1;
            let c = match self.at(self.pos) {
                0 => return Err(self.err(start, "Unterminated string")),
                b'b' => '\u{8}',
                b't' => '\t',
                b'n' => '\n',
                b'f' => '\u{c}',
                b'r' => '\r',
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'u' => {
                    let mut res = self.hex4()?;
                    if res & 0xffff_fc00 == 0xd800 {
                        if self.at(self.pos + 1) != b'\\' || self.at(self.pos + 2) != b'u' {
                            return Err(self.err(
                                esc,
                                "Invalid UTF-16 sequence in string, unpaired lead surrogate",
                            ));
                        }
                        self.pos += 2;
                        let trail = self.hex4()?;
                        if trail & 0xffff_fc00 != 0xdc00 {
                            return Err(self.err(
                                esc,
                                "Invalid UTF-16 sequence in string, unpaired lead surrogate",
                            ));
                        }
                        res = (res << 10) + trail - ((0xd800 << 10) + 0xdc00 - 0x10000);
                    } else if res & 0xffff_fc00 == 0xdc00 {
                        return Err(self.err(
                            esc,
                            "Invalid UTF-16 sequence in string, unpaired trail surrogate",
                        ));
                    }
                    match char::from_u32(res) {
                        Some('\0') | None => {
                            return Err(
                                self.err(esc, "\\u0000 in string: Godot's strings end at NUL")
                            );
                        }
                        Some(c) => c,
                    }
                }
                _ => return Err(self.err(esc, "Invalid escape sequence")),
            };
            out.push(c);
            self.pos += 1;
        }
    }

    fn value(&mut self, tok: Token) -> Result<Node> {
        let at = tok.at;
        let json = match tok.kind {
            Kind::CurlyOpen => self.nested(at, Self::object)?,
            Kind::BracketOpen => self.nested(at, Self::array)?,
            Kind::Ident => match self.src.get(at..tok.end).unwrap_or_default() {
                "true" => Json::Bool(true),
                "false" => Json::Bool(false),
                "null" => Json::Null,
                id => {
                    return Err(self.err(
                        at,
                        &format!("Expected 'true', 'false', or 'null', got '{id}'"),
                    ));
                }
            },
            Kind::Number(x) => Json::Float(x),
            Kind::Str(s) => Json::Str(s),
            k => return Err(self.err(at, &format!("Expected value, got {}", k.name()))),
        };
        Ok(Node { at, json })
    }

    fn nested(&mut self, at: usize, f: fn(&mut Self, usize) -> Result<Json>) -> Result<Json> {
        if !self.depth.try_enter() {
            return Err(self.err(
                at,
                &format!(
                    "JSON structure is too deep (more than {} nested arrays and objects)",
                    self.depth.limit()
                ),
            ));
        }
        let r = grow(|| f(self, at));
        self.depth.leave();
        r
    }

    fn array(&mut self, start: usize) -> Result<Json> {
        let first = self.items.len();
        let mut need_comma = false;
        loop {
            let tok = self.token()?;
            match tok.kind {
                Kind::BracketClose => return Ok(Json::Array(take(&mut self.items, first))),
                Kind::Eof => return Err(self.err(start, "Expected ']'")),
                Kind::Comma if need_comma => need_comma = false,
                _ if need_comma => return Err(self.err(tok.at, "Expected ','")),
                _ => {
                    let item = self.value(tok)?;
                    self.items.push(item);
                    need_comma = true;
                }
            }
        }
    }

    fn object(&mut self, start: usize) -> Result<Json> {
        let first = self.entries.len();
        let mut need_comma = false;
        loop {
            let tok = self.token()?;
            let key = match tok.kind {
                Kind::CurlyClose => return Ok(Json::Object(take(&mut self.entries, first))),
                Kind::Eof => return Err(self.err(start, "Expected '}'")),
                Kind::Comma if need_comma => {
                    need_comma = false;
                    continue;
                }
                _ if need_comma => return Err(self.err(tok.at, "Expected '}' or ','")),
                Kind::Str(key) => key,
                _ => return Err(self.err(tok.at, "Expected key")),
            };
            let colon = self.token()?;
            if colon.kind != Kind::Colon {
                return Err(self.err(colon.at, "Expected ':'"));
            }
            let tok = self.token()?;
            if tok.kind == Kind::Eof {
                return Err(self.err(start, "Expected '}'"));
            }
            let value = self.value(tok)?;
            self.entries.push((key, value));
            need_comma = true;
        }
    }
}

/// How many bytes of `b` the engine's `built_in_strtod` reads: a sign, digits with at most
/// one `.`, and an exponent only when digits follow its `e` and sign. 0 when no digit.
fn number_len(b: &[u8]) -> usize {
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut p = usize::from(matches!(at(0), b'-' | b'+'));
    let mut digits = 0;
    let mut dot = false;
    loop {
        match at(p) {
            b'0'..=b'9' => digits += 1,
            b'.' if !dot => dot = true,
            _ => break,
        }
        p += 1;
    }
    if digits == 0 {
        return 0;
    }
    if matches!(at(p), b'e' | b'E') {
        let mut q = p + 1;
        if matches!(at(q), b'-' | b'+') {
            q += 1;
        }
        if at(q).is_ascii_digit() {
            while at(q).is_ascii_digit() {
                q += 1;
            }
            p = q;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::number_len;

    #[test]
    fn number_length_follows_strtod() {
        for (text, len) in [
            ("1", 1),
            ("-1.5e3,", 6),
            ("1e", 1),
            ("1e+", 1),
            ("1.2.3", 3),
            ("-", 0),
            ("-.", 0),
            ("01", 2),
            ("1.", 2),
            ("-.5", 3),
            ("1E-2]", 4),
        ] {
            assert_eq!(number_len(text.as_bytes()), len, "{text}");
        }
    }
}
