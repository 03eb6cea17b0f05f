//! `JSON.stringify` (Godot 4, `core/io/json.cpp`, `JSON::_stringify`) with its defaults
//! (`sort_keys = true`, `full_precision = false`), compact or with an indent, and the two
//! float texts the JSON form uses: `String(float)` after `"f:"`, and a float inside `args`.

use core::fmt::Write;

use super::tree::{Json, Node};
use crate::error::{Error, ErrorKind, Result};

/// `String::num(x, decimals)` (`core/string/ustring.cpp`): `%.{decimals}lf` (`%lf` when
/// negative, at most 32 decimals), then trailing zeros removed but one kept after the point.
fn num(x: f64, decimals: i32) -> String {
    if x.is_nan() {
        return "nan".to_owned();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_owned();
    }
    let decimals = usize::try_from(decimals.min(32)).unwrap_or(6);
    let mut s = format!("{x:.decimals$}");
    if s.contains('.') {
        let kept = s.trim_end_matches('0').len();
        s.truncate(kept);
        if s.ends_with('.') {
            s.push('0');
        }
    }
    s
}

/// `floor(log10(|x|))` as the engine's `(int)` cast gives it, for a finite non-zero `x`.
#[allow(clippy::cast_possible_truncation)] // |log10| of a finite double is below 330
fn magnitude(x: f64) -> i32 {
    x.abs().log10().floor() as i32
}

/// A `float` Variant as `String(Variant)` prints it (`String::num_real(x, true)`): an integral
/// value that fits an int64 as its digits and `.0`; otherwise 14 decimals, fewer by one per
/// digit before the point above 10 (`123456789.123457`, `0.33333333333333`,
/// `100000000000000000000.0`); `inf`, `-inf`, `nan`.
#[must_use]
pub(crate) fn variant_float(x: f64) -> String {
    if !x.is_finite() {
        return num(x, 0);
    }
    // `p_num == (double)(int64_t)p_num`: true for integral values in [-2^63, 2^63).
    if x.fract() == 0.0 && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&x)
    {
        #[allow(clippy::cast_possible_truncation)] // in range and integral: exact
        let i = x as i64;
        return format!("{i}.0");
    }
    let mut decimals = 14;
    if x.abs() > 10.0 {
        decimals -= magnitude(x);
    }
    num(x, decimals)
}

/// A number inside `args` as `JSON.stringify` prints a float: `0.0` for zero, else
/// `String::num(x, max(1, 14 - floor(log10|x|)))`; `inf`, `-inf`, `nan` as such (not JSON,
/// as in the engine).
#[must_use]
pub(crate) fn json_float(x: f64) -> String {
    if x == 0.0 {
        return "0.0".to_owned();
    }
    if !x.is_finite() {
        return num(x, 1);
    }
    num(x, (14 - magnitude(x)).max(1))
}

/// `String::json_escape`: `\`, `"`, and `\b \f \n \r \t \v`; every other character as is.
fn push_escaped(out: &mut String, s: &str) -> Result<()> {
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\0' => {
                return Err(Error::new(ErrorKind::Unsupported(
                    "a string with a NUL character: Godot's strings end at NUL".into(),
                )));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    Ok(())
}

/// Prints `json` as `JSON.stringify(json, indent)` does with its default `sort_keys` (the
/// tree's objects are already in sorted order).
pub(crate) fn stringify(json: &Json, indent: &str) -> Result<String> {
    let mut out = String::new();
    write_value(&mut out, json, indent, 0)?;
    Ok(out)
}

fn push_indent(out: &mut String, indent: &str, level: usize) {
    for _ in 0..level {
        out.push_str(indent);
    }
}

fn write_value(out: &mut String, json: &Json, indent: &str, level: usize) -> Result<()> {
    let newline = if indent.is_empty() { "" } else { "\n" };
    match json {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Json::Float(x) => out.push_str(&json_float(*x)),
        Json::Str(s) => push_escaped(out, s)?,
        Json::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return Ok(());
            }
            out.push('[');
            out.push_str(newline);
            for (i, Node { json, .. }) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    out.push_str(newline);
                }
                push_indent(out, indent, level + 1);
                nested(|| write_value(out, json, indent, level + 1))?;
            }
            out.push_str(newline);
            push_indent(out, indent, level);
            out.push(']');
        }
        Json::Object(entries) => {
            out.push('{');
            out.push_str(newline);
            for (i, (key, Node { json, .. })) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    out.push_str(newline);
                }
                push_indent(out, indent, level + 1);
                push_escaped(out, key)?;
                out.push_str(if indent.is_empty() { ":" } else { ": " });
                nested(|| write_value(out, json, indent, level + 1))?;
            }
            out.push_str(newline);
            push_indent(out, indent, level);
            out.push('}');
        }
    }
    Ok(())
}

fn nested<T>(f: impl FnOnce() -> T) -> T {
    crate::wire::depth::grow(f)
}

#[cfg(test)]
mod tests {
    use super::{json_float, variant_float};
    use crate::text::lexer::strtod;

    /// Expected texts printed by Godot 4.6 for GDScript literals
    /// (`JSON.stringify(JSON.from_native(x))`, and `x` in a PackedFloat64Array's `args`).
    /// The literals are read as GDScript reads them (`built_in_strtod`, not always
    /// correctly rounded), so the doubles are the engine's.
    #[test]
    fn float_texts_match_the_engine() {
        for (lit, f, arg) in [
            ("1.0", "1.0", "1.0"),
            ("0.1", "0.1", "0.1"),
            ("-2.5", "-2.5", "-2.5"),
            ("1e20", "100000000000000000000.0", "100000000000000000000.0"),
            (
                "123456789.123456789",
                "123456789.123457",
                "123456789.123457",
            ),
            ("100.0", "100.0", "100.0"),
            ("3.0e-5", "0.00003", "0.00003"),
            ("1e-7", "0.0000001", "0.0000001"),
            ("1e-10", "0.0000000001", "0.0000000001"),
            ("1.5e-31", "0.0", "0.00000000000000000000000000000015"),
            ("1.5e-32", "0.0", "0.00000000000000000000000000000001"),
            ("1.5e-33", "0.0", "0.0"),
            ("9.99999999999999", "9.99999999999999", "9.99999999999999"),
            (
                "1e23",
                "99999999999999991611392.0",
                "99999999999999991611392.0",
            ),
            (
                "12345678901234567890.0",
                "12345678901234567168.0",
                "12345678901234567168.0",
            ),
            ("1e-5", "0.00001", "0.00001"),
        ] {
            let x = strtod(lit);
            assert_eq!(variant_float(x), f, "String({lit})");
            assert_eq!(json_float(x), arg, "args {lit}");
        }
        assert_eq!(
            variant_float(strtod("0.000123456789012345678")),
            "0.00012345678901"
        );
        assert_eq!(variant_float(1.0 / 3.0), "0.33333333333333");
        assert_eq!(variant_float(0.1 + 0.2), "0.3");
        assert_eq!(json_float(0.1 + 0.2), "0.3");
        for (x, text) in [
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ] {
            assert_eq!(variant_float(x), text);
            assert_eq!(json_float(x), text);
        }
        assert_eq!(json_float(f64::from(0.1_f32)), "0.100000001490116");
        assert_eq!(json_float(f64::from(1e20_f32)), "100000002004087734272.0");
        assert_eq!(
            json_float(f64::from(1e-10_f32)),
            "0.000000000100000001335143"
        );
        assert_eq!(json_float(f64::from(16_777_217_f32)), "16777216.0");
    }
}
