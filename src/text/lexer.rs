//! The tokenizer of the text form, after the engines' `VariantParser::get_token`.
//!
//! Differences between the engines (`g3` is Godot 3.2):
//! - Godot 4 reads `&"…"` / `@"…"` as StringName; Godot 3 knows neither.
//! - Godot 4 starts a number only at a digit (`-` must be followed by a digit, or it starts an
//!   identifier such as `-inf`); Godot 3 starts one at `-` too, and a lone `-` reads as int 0.
//! - Godot 4 takes `e` and `E` as exponent marks, Godot 3 only `e`.
//! - Godot 4 knows `\UXXXXXX` (six hex digits), Godot 3 only `\uXXXX`.

use crate::types::Color;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Token<'a> {
    CurlyOpen,
    CurlyClose,
    BracketOpen,
    BracketClose,
    ParenOpen,
    ParenClose,
    Identifier(&'a str),
    Str(String),
    StrName(String),
    Int(i64),
    Float(f64),
    Color(Color),
    Colon,
    Comma,
    Period,
    Equal,
    Eof,
    /// A token the tokenizer could not read (`TK_ERROR`), where the engine's caller judges it.
    Invalid,
}

impl Token<'_> {
    /// The engine's name of the token type (`tk_name`), for messages.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Token::CurlyOpen => "'{'",
            Token::CurlyClose => "'}'",
            Token::BracketOpen => "'['",
            Token::BracketClose => "']'",
            Token::ParenOpen => "'('",
            Token::ParenClose => "')'",
            Token::Identifier(_) => "identifier",
            Token::Str(_) => "string",
            Token::StrName(_) => "string_name",
            Token::Int(_) | Token::Float(_) => "number",
            Token::Color(_) => "color",
            Token::Colon => "':'",
            Token::Comma => "','",
            Token::Period => "'.'",
            Token::Equal => "'='",
            Token::Eof => "EOF",
            Token::Invalid => "ERROR",
        }
    }
}

/// A tokenizer error: the message and the byte offset where it was found.
#[derive(Debug)]
pub(crate) struct LexError {
    pub(crate) message: String,
    pub(crate) offset: usize,
}

/// The tokenizer over a text.
pub(crate) struct Lexer<'a> {
    pub(crate) src: &'a str,
    pub(crate) pos: usize,
    pub(crate) g3: bool,
}

fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

fn hex_val(b: u8) -> u32 {
    match b {
        b'0'..=b'9' => u32::from(b - b'0'),
        b'a'..=b'f' => u32::from(b - b'a') + 10,
        b'A'..=b'F' => u32::from(b - b'A') + 10,
        _ => 0,
    }
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(src: &'a str, g3: bool) -> Self {
        Self { src, pos: 0, g3 }
    }

    /// The byte at `pos`, 0 at the end (a NUL in the text also ends it, as in the engine).
    fn peek(&self) -> u8 {
        self.src.as_bytes().get(self.pos).copied().unwrap_or(0)
    }

    fn err<T>(&self, message: &str, offset: usize) -> Result<T, LexError> {
        Err(LexError {
            message: message.to_owned(),
            offset,
        })
    }

    /// The next token.
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>, LexError> {
        loop {
            let c = self.peek();
            let start = self.pos;
            match c {
                0 => return Ok(Token::Eof),
                b'{' | b'}' | b'[' | b']' | b'(' | b')' | b':' | b',' | b'.' | b'=' => {
                    self.pos += 1;
                    return Ok(match c {
                        b'{' => Token::CurlyOpen,
                        b'}' => Token::CurlyClose,
                        b'[' => Token::BracketOpen,
                        b']' => Token::BracketClose,
                        b'(' => Token::ParenOpen,
                        b')' => Token::ParenClose,
                        b':' => Token::Colon,
                        b',' => Token::Comma,
                        b'.' => Token::Period,
                        _ => Token::Equal,
                    });
                }
                b';' => {
                    // Comment to the end of the line.
                    match self
                        .src
                        .as_bytes()
                        .get(self.pos..)
                        .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
                    {
                        Some(n) => self.pos += n + 1,
                        None => {
                            self.pos = self.src.len();
                            return Ok(Token::Eof);
                        }
                    }
                }
                b'#' => return self.color(),
                b'&' | b'@' if !self.g3 => {
                    self.pos += 1;
                    if self.peek() != b'"' {
                        return self.err("Expected '\"' after '&'", start);
                    }
                    self.pos += 1;
                    return Ok(Token::StrName(self.string_body(start)?));
                }
                b'"' => {
                    self.pos += 1;
                    return Ok(Token::Str(self.string_body(start)?));
                }
                c if c <= 32 => self.pos += 1,
                b'-' if self.g3 => return Ok(self.number()),
                b'0'..=b'9' => return Ok(self.number()),
                b'-' => {
                    // Godot 4: a number, or an identifier such as `-inf`.
                    let next = self.src.as_bytes().get(self.pos + 1).copied().unwrap_or(0);
                    if next.is_ascii_digit() {
                        return Ok(self.number());
                    }
                    if next.is_ascii_alphabetic() || next == b'_' {
                        self.pos += 1;
                        self.identifier_rest();
                        return Ok(Token::Identifier(self.slice(start)));
                    }
                    return self.err(self.unexpected(), start);
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    self.identifier_rest();
                    return Ok(Token::Identifier(self.slice(start)));
                }
                _ => return self.err(self.unexpected(), start),
            }
        }
    }

    /// The engine's message for a character that starts no token.
    fn unexpected(&self) -> &'static str {
        if self.g3 {
            "Unexpected character."
        } else {
            "Unexpected character"
        }
    }

    fn slice(&self, start: usize) -> &'a str {
        self.src.get(start..self.pos).unwrap_or("")
    }

    fn identifier_rest(&mut self) {
        // The first character was checked by the caller.
        self.pos += 1;
        while {
            let c = self.peek();
            c.is_ascii_alphanumeric() || c == b'_'
        } {
            self.pos += 1;
        }
    }

    /// `#` and hex digits: a colour (`Color::html`). The engine returns EOF when the text ends
    /// inside the literal.
    fn color(&mut self) -> Result<Token<'a>, LexError> {
        let start = self.pos;
        self.pos += 1;
        while is_hex(self.peek()) {
            self.pos += 1;
        }
        if self.pos >= self.src.len() || self.peek() == 0 {
            return Ok(Token::Eof);
        }
        let digits = self.src.get(start + 1..self.pos).unwrap_or("");
        Ok(Token::Color(html_color(digits, self.g3)))
    }

    /// A number: digits, `.` and exponent as the engine's state machine reads them.
    fn number(&mut self) -> Token<'a> {
        let start = self.pos;
        if self.peek() == b'-' {
            self.pos += 1;
        }
        #[derive(PartialEq)]
        enum St {
            Int,
            Dec,
            Exp,
        }
        let mut st = St::Int;
        let mut is_float = false;
        let mut exp_sign = false;
        let mut exp_beg = false;
        loop {
            let c = self.peek();
            let exp_mark = c == b'e' || (c == b'E' && !self.g3);
            match st {
                St::Int => {
                    if c.is_ascii_digit() {
                    } else if c == b'.' {
                        st = St::Dec;
                        is_float = true;
                    } else if exp_mark {
                        st = St::Exp;
                        is_float = true;
                    } else {
                        break;
                    }
                }
                St::Dec => {
                    if c.is_ascii_digit() {
                    } else if exp_mark {
                        st = St::Exp;
                    } else {
                        break;
                    }
                }
                St::Exp => {
                    if c.is_ascii_digit() {
                        exp_beg = true;
                    } else if (c == b'-' || c == b'+') && !exp_sign && !exp_beg {
                        exp_sign = true;
                    } else {
                        break;
                    }
                }
            }
            self.pos += 1;
        }
        let text = self.slice(start);
        if is_float {
            Token::Float(strtod(text))
        } else {
            Token::Int(to_int(text))
        }
    }

    /// The rest of a string after its opening quote; `start` is where the token began.
    fn string_body(&mut self, start: usize) -> Result<String, LexError> {
        let mut out = String::new();
        let mut prev: u32 = 0;
        loop {
            let rest = self.src.get(self.pos..).unwrap_or("");
            // Copy the run of plain characters at once.
            let run = rest
                .bytes()
                .position(|b| b == b'"' || b == b'\\' || b == 0)
                .unwrap_or(rest.len());
            if run > 0 {
                if prev != 0 {
                    return self.err(
                        "Invalid UTF-16 sequence in string, unpaired lead surrogate",
                        self.pos,
                    );
                }
                out.push_str(rest.get(..run).unwrap_or(""));
                self.pos += run;
                continue;
            }
            match self.peek() {
                0 => return self.err("Unterminated string", start),
                b'"' => {
                    self.pos += 1;
                    break;
                }
                _ => {
                    // A backslash.
                    let esc_at = self.pos;
                    self.pos += 1;
                    let Some(next) = self.src.get(self.pos..).and_then(|r| r.chars().next()) else {
                        return self.err("Unterminated string", start);
                    };
                    if next == '\0' {
                        return self.err("Unterminated string", start);
                    }
                    self.pos += next.len_utf8();
                    let res: u32 = match next {
                        'b' => 8,
                        't' => 9,
                        'n' => 10,
                        'f' => 12,
                        'r' => 13,
                        'u' | 'U' if next == 'u' || !self.g3 => {
                            let len = if next == 'U' { 6 } else { 4 };
                            let mut v: u32 = 0;
                            for _ in 0..len {
                                let c = self.peek();
                                if c == 0 {
                                    return self.err("Unterminated string", start);
                                }
                                if !is_hex(c) {
                                    return self.err("Malformed hex constant in string", self.pos);
                                }
                                v = (v << 4) | hex_val(c);
                                self.pos += 1;
                            }
                            v
                        }
                        other => u32::from(other),
                    };
                    let res = if (res & 0xffff_fc00) == 0xd800 {
                        if prev == 0 {
                            prev = res;
                            continue;
                        }
                        return self.err(
                            "Invalid UTF-16 sequence in string, unpaired lead surrogate",
                            esc_at,
                        );
                    } else if (res & 0xffff_fc00) == 0xdc00 {
                        if prev == 0 {
                            return self.err(
                                "Invalid UTF-16 sequence in string, unpaired trail surrogate",
                                esc_at,
                            );
                        }
                        let combined = ((prev - 0xd800) << 10) + (res - 0xdc00) + 0x10000;
                        prev = 0;
                        combined
                    } else {
                        res
                    };
                    if prev != 0 {
                        return self.err(
                            "Invalid UTF-16 sequence in string, unpaired lead surrogate",
                            esc_at,
                        );
                    }
                    if res == 0 {
                        // `\u0000`: Godot 4 (4.6, live) stores U+FFFD in its place ("Unexpected
                        // NUL character"). Godot 3 keeps the NUL, but no path keeps it after
                        // that (its `var2str` writes it raw, which `str2var` reads as the end,
                        // and its bytes cut the text there), so it is refused here.
                        if self.g3 {
                            return self.err(
                                "NUL character (\\u0000) in string: Godot 3 cannot write it back",
                                esc_at,
                            );
                        }
                        out.push(char::REPLACEMENT_CHARACTER);
                        continue;
                    }
                    match char::from_u32(res) {
                        Some(ch) => out.push(ch),
                        None => {
                            return self.err("Invalid Unicode code point in string", esc_at);
                        }
                    }
                }
            }
        }
        if prev != 0 {
            return self.err(
                "Invalid UTF-16 sequence in string, unpaired lead surrogate",
                self.pos,
            );
        }
        Ok(out)
    }
}

/// `String::to_int`: decimal digits with an optional leading `-`; the last digit of a 19-digit
/// number wraps around (`9223372036854775808` is `-2^63`), longer numbers clamp.
pub(crate) fn to_int(text: &str) -> i64 {
    let mut sign: i64 = 1;
    let mut integer: i64 = 0;
    for b in text.bytes() {
        if b.is_ascii_digit() {
            if integer > i64::MAX / 10 {
                return if sign == 1 { i64::MAX } else { i64::MIN };
            }
            integer = integer.wrapping_mul(10).wrapping_add(i64::from(b - b'0'));
        } else if b == b'-' && integer == 0 {
            sign = -sign;
        }
    }
    integer.wrapping_mul(sign)
}

/// The engine's `built_in_strtod` (Tcl's algorithm): at most 18 mantissa digits, scaled by a
/// power of ten built from a table of 10^(2^k). This is not correctly rounded in every case,
/// and underflows to 0 for numbers whose scale exceeds 10^308 (the smallest normal double
/// reads as 0), exactly as in the engine.
#[allow(clippy::cast_precision_loss)]
pub(crate) fn strtod(text: &str) -> f64 {
    const POWERS: [f64; 9] = [
        10., 100., 1.0e4, 1.0e8, 1.0e16, 1.0e32, 1.0e64, 1.0e128, 1.0e256,
    ];
    const MAX_EXPONENT: i64 = 511;
    let b = text.as_bytes();
    let mut p = 0;
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let sign = match at(p) {
        b'-' => {
            p += 1;
            true
        }
        b'+' => {
            p += 1;
            false
        }
        _ => false,
    };
    let mut dec_pt: i64 = -1;
    let mut mant_size: i64 = 0;
    let mant_start = p;
    loop {
        let c = at(p);
        if !c.is_ascii_digit() {
            if c != b'.' || dec_pt >= 0 {
                break;
            }
            dec_pt = mant_size;
        }
        p += 1;
        mant_size += 1;
    }
    let p_exp = p;
    if dec_pt < 0 {
        dec_pt = mant_size;
    } else {
        mant_size -= 1;
    }
    let frac_exp;
    if mant_size > 18 {
        frac_exp = dec_pt - 18;
        mant_size = 18;
    } else {
        frac_exp = dec_pt - mant_size;
    }
    if mant_size == 0 {
        return if sign { -0.0 } else { 0.0 };
    }
    let mut q = mant_start;
    let mut digit = || {
        let mut c = at(q);
        q += 1;
        if c == b'.' {
            c = at(q);
            q += 1;
        }
        i64::from(c.wrapping_sub(b'0'))
    };
    let mut frac1: i64 = 0;
    while mant_size > 9 {
        frac1 = 10 * frac1 + digit();
        mant_size -= 1;
    }
    let mut frac2: i64 = 0;
    while mant_size > 0 {
        frac2 = 10 * frac2 + digit();
        mant_size -= 1;
    }
    let mut fraction = 1.0e9 * frac1 as f64 + frac2 as f64;
    let mut p = p_exp;
    let mut exp: i64 = 0;
    let mut exp_sign = false;
    if at(p) == b'e' || at(p) == b'E' {
        p += 1;
        match at(p) {
            b'-' => {
                exp_sign = true;
                p += 1;
            }
            b'+' => p += 1,
            _ => {}
        }
        if at(p).is_ascii_digit() {
            while at(p).is_ascii_digit() {
                exp = (exp * 10 + i64::from(at(p) - b'0')).min(1 << 40);
                p += 1;
            }
        } else {
            exp = 0;
            exp_sign = false;
        }
    }
    let mut exp = if exp_sign {
        frac_exp - exp
    } else {
        frac_exp + exp
    };
    let exp_neg = exp < 0;
    exp = exp.abs().min(MAX_EXPONENT);
    let mut dbl_exp = 1.0;
    let mut i = 0;
    while exp != 0 {
        if exp & 1 == 1 {
            dbl_exp *= POWERS.get(i).copied().unwrap_or(f64::INFINITY);
        }
        exp >>= 1;
        i += 1;
    }
    if exp_neg {
        fraction /= dbl_exp;
    } else {
        fraction *= dbl_exp;
    }
    if sign { -fraction } else { fraction }
}

/// `Color::html` of the digits after `#`: 3, 4, 6 or 8 hex digits; 4 and 8 digits are
/// RGBA in Godot 4 and ARGB in Godot 3 (as the live 3.2.3 engine reads them). Anything else is opaque black (the engine also prints
/// an error, but the parse succeeds).
pub(crate) fn html_color(digits: &str, g3: bool) -> Color {
    let d = digits.as_bytes();
    let h = |i: usize| hex_val(d.get(i).copied().unwrap_or(b'0'));
    #[allow(clippy::cast_precision_loss)]
    let byte = |i: usize| (h(i) * 16 + h(i + 1)) as f32 / 255.0;
    #[allow(clippy::cast_precision_loss)]
    let nib = |i: usize| (h(i) * 17) as f32 / 255.0;
    let black = Color {
        r: 0.0,
        g: 0.0,
        b: 0.0,
        a: 1.0,
    };
    match d.len() {
        3 => Color {
            r: nib(0),
            g: nib(1),
            b: nib(2),
            a: 1.0,
        },
        4 if g3 => Color {
            a: nib(0),
            r: nib(1),
            g: nib(2),
            b: nib(3),
        },
        4 => Color {
            r: nib(0),
            g: nib(1),
            b: nib(2),
            a: nib(3),
        },
        6 => Color {
            r: byte(0),
            g: byte(2),
            b: byte(4),
            a: 1.0,
        },
        8 if g3 => Color {
            a: byte(0),
            r: byte(2),
            g: byte(4),
            b: byte(6),
        },
        8 => Color {
            r: byte(0),
            g: byte(2),
            b: byte(4),
            a: byte(6),
        },
        _ => black,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wrap_and_clamp_as_the_engine() {
        // Godot 4.6 and 3.2.3 fixtures (int_i64_*, int_huge_*).
        assert_eq!(to_int("9223372036854775808"), i64::MIN);
        assert_eq!(to_int("-9223372036854775809"), i64::MAX);
        assert_eq!(to_int("-123456789012345678901234567890"), i64::MIN);
        assert_eq!(to_int("007"), 7);
        assert_eq!(to_int("-"), 0);
    }

    #[test]
    fn strtod_underflows_as_the_engine() {
        assert_eq!(strtod("4.9406564584124654e-324"), 0.0);
        assert_eq!(strtod("2.2250738585072014e-308"), 0.0);
        assert_eq!(strtod("1e309"), f64::INFINITY);
        assert_eq!(strtod("1e2.5"), 100.0);
        assert_eq!(strtod("5."), 5.0);
        assert_eq!(strtod("1e"), 1.0);
        assert_eq!(strtod("0.1"), 0.1);
    }
}
