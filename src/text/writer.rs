//! The text-form writer: Godot 4's `var_to_str` and Godot 3's `var2str`, rule by rule after
//! the engines' `VariantWriter` (`core/variant/variant_parser.cpp`). The expected strings in
//! the tests come from real engine runs.

use core::cmp::Ordering;
use core::fmt::{self, Write};

use crate::config::GodotVersion;
use crate::types::{Basis, Color, NodePath, ObjectId, Rid, StringName, Vector2, Vector3, Vector4};
use crate::value::{Array, ContainerType, Dictionary, Object, Variant};
use crate::wire::VariantType;
use crate::wire::depth::grow;

/// Which engine's text syntax to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Godot 4.5+ `var_to_str`: floats in their shortest round-trip form.
    Godot4,
    /// Godot 4.5+ `var_to_str` on one line: dictionaries as `{k: v, k: v}` and no newline
    /// after an object (the default `Display` of a Variant). `str_to_var` reads it back the
    /// same.
    Godot4Compact,
    /// Godot 4.0 – 4.4 `var_to_str`: the syntax of [`Dialect::Godot4`], floats printed with
    /// C's `%lg` (six significant digits).
    Godot4Lg,
    /// Godot 3 `var2str`.
    Godot3,
    /// What the Godot 4.5+ resource saver writes in a `format=4` file (`VariantWriter::write`
    /// with `p_compat` false): [`Dialect::Godot4`], with every PackedByteArray as one base64
    /// string (`PackedByteArray("AAcO")`, `PackedByteArray()` when empty) and negative
    /// infinity as `-inf` (not `inf_neg`).
    // Only the resource saver writes the two format=4 dialects.
    #[cfg_attr(not(feature = "resource"), allow(dead_code))]
    Godot4Format4,
    /// What the Godot 4.3 – 4.4 resource saver writes in a `format=4` file:
    /// [`Dialect::Godot4Lg`] with base64 byte arrays (their `rtos_fix` has no compat switch:
    /// `inf_neg` stays).
    #[cfg_attr(not(feature = "resource"), allow(dead_code))]
    Godot4LgFormat4,
}

impl Dialect {
    /// The dialect of an engine version.
    pub(crate) fn of(version: GodotVersion) -> Self {
        if !version.is_godot4() {
            Dialect::Godot3
        } else if version.has_shortest_float_text() {
            Dialect::Godot4
        } else {
            Dialect::Godot4Lg
        }
    }

    /// The resource saver's `format=4` form of this dialect (the saver's non-compat mode, Godot
    /// 4.3+); Godot 3 and the one-line form have none and stay as they are.
    #[cfg_attr(not(feature = "resource"), allow(dead_code))]
    pub(crate) fn format4(self) -> Self {
        match self {
            Dialect::Godot4 => Dialect::Godot4Format4,
            Dialect::Godot4Lg => Dialect::Godot4LgFormat4,
            other => other,
        }
    }

    /// Byte arrays as base64 (`format=4`).
    fn base64_bytes(self) -> bool {
        matches!(self, Dialect::Godot4Format4 | Dialect::Godot4LgFormat4)
    }

    /// Godot 4 syntax, on one line or not.
    fn is_godot4(self) -> bool {
        self != Dialect::Godot3
    }

    /// The dialect for a value only Godot 4 has (`Vector4`, `StringName`, ...): Godot 4
    /// syntax, with this dialect's floats when it is a Godot 4 one.
    fn g4(self) -> Self {
        if self == Dialect::Godot3 {
            Dialect::Godot4
        } else {
            self
        }
    }
}
// ---------------------------------------------------------------------------------------------
// Numbers

/// Godot 4.5+'s `rtos_fix` (compat mode, as `var_to_str` uses it).
fn real4(v: f64) -> String {
    if v == 0.0 {
        return "0".to_owned();
    }
    if v.is_nan() {
        return "nan".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "inf_neg" }.to_owned();
    }
    let mut out = String::new();
    if v < 0.0 {
        out.push('-');
    }
    let a = v.abs();
    // The engine prints an f32's Grisu2 digits when the double is exactly an f32.
    #[allow(clippy::cast_possible_truncation)]
    let as_f32 = a as f32;
    let (digits, exponent) = if f64::from(as_f32) == a {
        super::grisu::digits_f32(as_f32)
    } else {
        super::grisu::digits_f64(a)
    };
    let digits = String::from_utf8(digits).unwrap_or_default();
    let n = i32::try_from(digits.len()).unwrap_or(0) + exponent;
    format_grisu(&mut out, &digits, n);
    out
}

/// The layout of Godot's `grisu2::format_buffer` (min_exp -4, max_exp 15): `digits` are the
/// significant digits and the value is `0.digits × 10^n`.
fn format_grisu(out: &mut String, digits: &str, n: i32) {
    const MAX_EXP: i32 = 15;
    const MIN_EXP: i32 = -4;
    let k = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    let zeros = |count: i32| "0".repeat(usize::try_from(count).unwrap_or(0));
    if k <= n && n <= MAX_EXP {
        out.push_str(digits);
        out.push_str(&zeros(n - k));
    } else if 0 < n && n <= MAX_EXP {
        let (int, frac) = digits.split_at(usize::try_from(n).unwrap_or(0));
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else if MIN_EXP < n && n <= 0 {
        out.push_str("0.");
        out.push_str(&zeros(-n));
        out.push_str(digits);
    } else {
        let mut chars = digits.chars();
        if let Some(first) = chars.next() {
            out.push(first);
        }
        let rest = chars.as_str();
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        push_exponent(out, n - 1);
    }
}

/// `e`, a sign and at least two exponent digits, as C's `printf("%g")`.
fn push_exponent(out: &mut String, e: i32) {
    out.push('e');
    out.push(if e < 0 { '-' } else { '+' });
    let _ = write!(out, "{:02}", e.unsigned_abs());
}

/// Godot 4.0 – 4.4's `rtos_fix` (`core/variant/variant_parser.cpp`): `0` for both zeros,
/// `nan`, `inf`, `inf_neg`, and otherwise `rtoss`, i.e. `String::num_scientific`
/// (`core/string/ustring.cpp`), which is `snprintf(buf, 256, "%lg", p_num)` of the value as a
/// `double`: six significant digits, trailing zeros dropped, scientific notation for exponents
/// below -4 or from 6 up. An `f32` component (`real_t`) is widened to `double` first, exactly.
fn real4_lg(v: f64) -> String {
    if v == 0.0 {
        return "0".to_owned();
    }
    if v.is_nan() {
        return "nan".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "inf_neg" }.to_owned();
    }
    printf_g6(v)
}

/// Godot 3's `rtosfix`: the value as `real_t` (f32), printed with `%g` (six significant
/// digits); `inf` / `-inf` / `nan` / `-nan` as such.
fn real3(v: f64) -> String {
    #[allow(clippy::cast_possible_truncation)]
    let v = f64::from(v as f32);
    if v == 0.0 {
        return "0".to_owned();
    }
    if v.is_nan() {
        // `%g` prints the sign of a NaN too: var2str writes `-nan.0` for one.
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    printf_g6(v)
}

/// C's `printf("%g", v)` for a finite, non-zero `v`.
fn printf_g6(v: f64) -> String {
    const PRECISION: i32 = 6;
    let sci = format!("{:.*e}", (PRECISION - 1) as usize, v.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let mut out = String::new();
    if v < 0.0 {
        out.push('-');
    }
    if (-4..PRECISION).contains(&exponent) {
        let decimals = usize::try_from(PRECISION - 1 - exponent).unwrap_or(0);
        out.push_str(trim_fraction(&format!("{:.*}", decimals, v.abs())));
    } else {
        out.push_str(trim_fraction(mantissa));
        push_exponent(&mut out, exponent);
    }
    out
}

/// Drops trailing zeros of a fraction, and the point if nothing is left after it.
fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

fn real(v: f64, d: Dialect) -> String {
    match d {
        Dialect::Godot4 | Dialect::Godot4Compact => real4(v),
        // 4.5+'s `rtos_fix(v, false)`: `inf_neg` only in compat mode.
        Dialect::Godot4Format4 if v == f64::NEG_INFINITY => "-inf".to_owned(),
        Dialect::Godot4Format4 => real4(v),
        Dialect::Godot4Lg | Dialect::Godot4LgFormat4 => real4_lg(v),
        Dialect::Godot3 => real3(v),
    }
}

/// A `float` Variant: the real text, with `.0` added so it reads back as a float.
fn float_literal(v: f64, d: Dialect) -> String {
    let mut s = real(v, d);
    let special = match d {
        Dialect::Godot4
        | Dialect::Godot4Compact
        | Dialect::Godot4Lg
        | Dialect::Godot4Format4
        | Dialect::Godot4LgFormat4 => s == "inf" || s == "-inf" || s == "nan",
        Dialect::Godot3 => s == "inf" || s == "inf_neg" || s == "nan",
    };
    if !special && !s.contains('.') && !s.contains('e') && !s.contains('E') {
        s.push_str(".0");
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Strings

/// `String::c_escape_multiline`: only `\` and `"`; and a NUL as `\u0000` (see
/// [`NUL_ESCAPE`]).
fn write_escaped_multiline<W: Write + ?Sized>(w: &mut W, s: &str) -> fmt::Result {
    for c in s.chars() {
        match c {
            '\\' => w.write_str("\\\\")?,
            '"' => w.write_str("\\\"")?,
            '\0' => w.write_str(NUL_ESCAPE)?,
            c => w.write_char(c)?,
        }
    }
    Ok(())
}

/// `String::c_escape`; Godot 3 also escapes `?`.
fn write_c_escaped<W: Write + ?Sized>(w: &mut W, s: &str, d: Dialect) -> fmt::Result {
    for c in s.chars() {
        match c {
            '\\' => w.write_str("\\\\")?,
            '\u{7}' => w.write_str("\\a")?,
            '\u{8}' => w.write_str("\\b")?,
            '\u{c}' => w.write_str("\\f")?,
            '\n' => w.write_str("\\n")?,
            '\r' => w.write_str("\\r")?,
            '\t' => w.write_str("\\t")?,
            '\u{b}' => w.write_str("\\v")?,
            '\'' => w.write_str("\\'")?,
            '?' if d == Dialect::Godot3 => w.write_str("\\?")?,
            '"' => w.write_str("\\\"")?,
            '\0' => w.write_str(NUL_ESCAPE)?,
            c => w.write_char(c)?,
        }
    }
    Ok(())
}

/// A NUL in text. Neither engine writes one (a Godot 4 String cannot hold it; Godot 3 writes
/// it raw, and its parser stops there), and no text this crate parses holds one (Godot 4
/// reads `\u0000` as U+FFFD, Godot 3 mode refuses it): only a value built by hand can. The
/// escape keeps the text one piece of valid syntax; it reads back as U+FFFD (Godot 4).
const NUL_ESCAPE: &str = "\\u0000";

/// A NodePath's text form: `/` if absolute, names joined by `/`, each subname after `:`.
fn node_path_text(p: &NodePath) -> String {
    let mut s = String::new();
    if p.absolute {
        s.push('/');
    }
    s.push_str(&p.names.join("/"));
    for sub in &p.subnames {
        s.push(':');
        s.push_str(sub);
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Values

/// `Name(a, b)` (Godot 4) or `Name( a, b )` (Godot 3); empty: `Name()` / `Name(  )`.
fn write_ctor<W, I>(w: &mut W, name: &str, items: I, d: Dialect) -> fmt::Result
where
    W: Write + ?Sized,
    I: IntoIterator<Item = String>,
{
    w.write_str(name)?;
    w.write_char('(')?;
    if d == Dialect::Godot3 {
        w.write_char(' ')?;
    }
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            w.write_str(", ")?;
        }
        w.write_str(&item)?;
    }
    if d == Dialect::Godot3 {
        w.write_char(' ')?;
    }
    w.write_char(')')
}

fn reals<const N: usize>(values: [f64; N], d: Dialect) -> impl Iterator<Item = String> {
    values.into_iter().map(move |v| real(v, d))
}

fn ints<T: ToString, I: IntoIterator<Item = T>>(values: I) -> impl Iterator<Item = String> {
    values.into_iter().map(|v| v.to_string())
}

// `Real` is f32 or f64 depending on the `double-precision` feature.
#[allow(clippy::useless_conversion)]
fn v2(v: &Vector2) -> [f64; 2] {
    [v.x.into(), v.y.into()]
}

// `Real` is f32 or f64 depending on the `double-precision` feature.
#[allow(clippy::useless_conversion)]
fn v3(v: &Vector3) -> [f64; 3] {
    [v.x.into(), v.y.into(), v.z.into()]
}

// `Real` is f32 or f64 depending on the `double-precision` feature.
#[allow(clippy::useless_conversion)]
fn v4(v: &Vector4) -> [f64; 4] {
    [v.x.into(), v.y.into(), v.z.into(), v.w.into()]
}

fn color(c: &Color) -> [f64; 4] {
    [c.r.into(), c.g.into(), c.b.into(), c.a.into()]
}

/// Writes `v`. Containers recurse through here: each level may run on a new stack segment,
/// as in the parser, so whatever it parsed (up to Godot's 1024 levels) prints on a 2 MiB thread.
pub(crate) fn write_variant<W: Write + ?Sized>(w: &mut W, v: &Variant, d: Dialect) -> fmt::Result {
    grow(|| write_variant_here(w, v, d))
}

/// The constructor name of `ty` in `d`'s text, from the table of Godot types
/// (`wire::types::TYPES`): `Quat` / `Quaternion`, `PoolIntArray` / `PackedInt32Array`.
fn ctor(ty: VariantType, d: Dialect) -> &'static str {
    ty.text_name(d == Dialect::Godot3).unwrap_or(ty.name())
}

#[allow(clippy::too_many_lines)] // one arm per Godot type
// `Real` is f32 or f64 depending on the `double-precision` feature.
#[allow(clippy::useless_conversion)]
fn write_variant_here<W: Write + ?Sized>(w: &mut W, v: &Variant, d: Dialect) -> fmt::Result {
    use VariantType as T;
    let g3 = d == Dialect::Godot3;
    match v {
        Variant::Nil => w.write_str("null"),
        Variant::Bool(b) => w.write_str(if *b { "true" } else { "false" }),
        Variant::Int(i) => write!(w, "{i}"),
        Variant::Float(x) => w.write_str(&float_literal(*x, d)),
        Variant::String(s) => {
            w.write_char('"')?;
            write_escaped_multiline(w, s)?;
            w.write_char('"')
        }
        Variant::Vector2(x) => write_ctor(w, ctor(T::Vector2, d), reals(v2(x), d), d),
        Variant::Vector2i(x) => write_ctor(w, ctor(T::Vector2i, d), ints([x.x, x.y]), d.g4()),
        Variant::Rect2(r) => {
            let [px, py] = v2(&r.position);
            let [sx, sy] = v2(&r.size);
            write_ctor(w, ctor(T::Rect2, d), reals([px, py, sx, sy], d), d)
        }
        Variant::Rect2i(r) => write_ctor(
            w,
            ctor(T::Rect2i, d),
            ints([r.position.x, r.position.y, r.size.x, r.size.y]),
            d.g4(),
        ),
        Variant::Vector3(x) => write_ctor(w, ctor(T::Vector3, d), reals(v3(x), d), d),
        Variant::Vector3i(x) => write_ctor(w, ctor(T::Vector3i, d), ints([x.x, x.y, x.z]), d.g4()),
        Variant::Transform2D(t) => {
            let [a, b] = v2(&t.x);
            let [c, e] = v2(&t.y);
            let [f, g] = v2(&t.origin);
            write_ctor(w, ctor(T::Transform2D, d), reals([a, b, c, e, f, g], d), d)
        }
        Variant::Vector4(x) => write_ctor(w, ctor(T::Vector4, d), reals(v4(x), d.g4()), d.g4()),
        Variant::Vector4i(x) => {
            write_ctor(w, ctor(T::Vector4i, d), ints([x.x, x.y, x.z, x.w]), d.g4())
        }
        Variant::Plane(p) => {
            let [a, b, c] = v3(&p.normal);
            write_ctor(w, ctor(T::Plane, d), reals([a, b, c, p.d.into()], d), d)
        }
        Variant::Quaternion(q) => {
            let name = ctor(T::Quaternion, d);
            write_ctor(
                w,
                name,
                reals([q.x.into(), q.y.into(), q.z.into(), q.w.into()], d),
                d,
            )
        }
        Variant::Aabb(b) => {
            let [a, c, e] = v3(&b.position);
            let [f, g, h] = v3(&b.size);
            write_ctor(w, ctor(T::Aabb, d), reals([a, c, e, f, g, h], d), d)
        }
        Variant::Basis(b) => write_ctor(w, ctor(T::Basis, d), basis_reals(b, d), d),
        Variant::Transform3D(t) => {
            let name = ctor(T::Transform3D, d);
            let items = basis_reals(&t.basis, d).chain(reals(v3(&t.origin), d));
            write_ctor(w, name, items, d)
        }
        Variant::Projection(p) => {
            let items = p.columns.iter().flat_map(|c| reals(v4(c), d.g4()));
            write_ctor(w, ctor(T::Projection, d), items, d.g4())
        }
        Variant::Color(c) => write_ctor(w, ctor(T::Color, d), reals(color(c), d), d),
        Variant::StringName(s) => {
            w.write_str("&\"")?;
            write_c_escaped(w, &s.0, d.g4())?;
            w.write_char('"')
        }
        Variant::NodePath(p) => {
            write!(w, "{}(\"", ctor(T::NodePath, d))?;
            write_c_escaped(w, &node_path_text(p), d)?;
            w.write_str("\")")
        }
        Variant::Rid(_) if g3 => Ok(()),
        Variant::Rid(Rid(0)) => write!(w, "{}()", ctor(T::Rid, d)),
        #[allow(clippy::cast_possible_wrap)]
        Variant::Rid(Rid(id)) => write!(w, "{}({})", ctor(T::Rid, d), *id as i64),
        Variant::Object(o) => write_object(w, o, d),
        Variant::ObjectId(ObjectId(0)) => w.write_str("null"),
        #[allow(clippy::cast_possible_wrap)]
        Variant::ObjectId(ObjectId(id)) => {
            write!(
                w,
                "Object(EncodedObjectAsID,\"object_id\":{},\"script\":null)",
                *id as i64
            )?;
            end_object(w, d)
        }
        Variant::Callable(_) => write!(w, "{}()", ctor(T::Callable, d.g4())),
        Variant::Signal(_) => write!(w, "{}()", ctor(T::Signal, d.g4())),
        Variant::Dictionary(dict) => write_dictionary(w, dict, d),
        Variant::Array(a) => write_array(w, a, d),
        Variant::PackedByteArray(a) if d.base64_bytes() => {
            write!(w, "{}(", ctor(T::PackedByteArray, d))?;
            if !a.0.is_empty() {
                let mut text = String::from("\"");
                super::base64::encode_into(&mut text, &a.0);
                text.push('"');
                w.write_str(&text)?;
            }
            w.write_char(')')
        }
        Variant::PackedByteArray(a) => {
            let name = ctor(T::PackedByteArray, d);
            write_ctor(w, name, ints(a.0.iter()), d)
        }
        Variant::PackedInt32Array(a) => {
            let name = ctor(T::PackedInt32Array, d);
            write_ctor(w, name, ints(a.0.iter()), d)
        }
        Variant::PackedInt64Array(a) => {
            write_ctor(w, ctor(T::PackedInt64Array, d), ints(a.0.iter()), d.g4())
        }
        Variant::PackedFloat32Array(a) => {
            let name = ctor(T::PackedFloat32Array, d);
            write_ctor(w, name, a.0.iter().map(|x| real((*x).into(), d)), d)
        }
        Variant::PackedFloat64Array(a) => write_ctor(
            w,
            ctor(T::PackedFloat64Array, d),
            a.0.iter().map(|x| real(*x, d.g4())),
            d.g4(),
        ),
        Variant::PackedStringArray(a) => {
            let name = ctor(T::PackedStringArray, d);
            let items = a.0.iter().map(|s| {
                let mut q = String::from("\"");
                let _ = write_c_escaped(&mut q, s, d);
                q.push('"');
                q
            });
            write_ctor(w, name, items, d)
        }
        Variant::PackedVector2Array(a) => {
            let name = ctor(T::PackedVector2Array, d);
            write_ctor(w, name, a.0.iter().flat_map(|x| reals(v2(x), d)), d)
        }
        Variant::PackedVector3Array(a) => {
            let name = ctor(T::PackedVector3Array, d);
            write_ctor(w, name, a.0.iter().flat_map(|x| reals(v3(x), d)), d)
        }
        Variant::PackedColorArray(a) => {
            let name = ctor(T::PackedColorArray, d);
            write_ctor(w, name, a.0.iter().flat_map(|x| reals(color(x), d)), d)
        }
        Variant::PackedVector4Array(a) => write_ctor(
            w,
            ctor(T::PackedVector4Array, d),
            a.0.iter().flat_map(|x| reals(v4(x), d.g4())),
            d.g4(),
        ),
    }
}

/// The basis rows, row by row (the engine's `rows[i][j]` order).
fn basis_reals(b: &Basis, d: Dialect) -> impl Iterator<Item = String> + '_ {
    b.rows.iter().flat_map(move |r| reals(v3(r), d))
}

pub(crate) fn write_object<W: Write + ?Sized>(w: &mut W, o: &Object, d: Dialect) -> fmt::Result {
    if let Some(reference) = resource_reference(o) {
        return write_resource_reference(w, &o.class, &reference, d);
    }
    write!(w, "Object({},", o.class)?;
    for (i, (name, value)) in o.properties.iter().enumerate() {
        if i > 0 {
            w.write_char(',')?;
        }
        write!(w, "\"{name}\":")?;
        write_variant(w, value, d)?;
    }
    w.write_char(')')?;
    end_object(w, d)
}

/// The newline the engine writes after an object (not on one line).
fn end_object<W: Write + ?Sized>(w: &mut W, d: Dialect) -> fmt::Result {
    if d == Dialect::Godot4Compact {
        Ok(())
    } else {
        w.write_char('\n')
    }
}

/// The name a typed container prints for its element, key or value type.
fn write_container_type<W: Write + ?Sized>(w: &mut W, t: &ContainerType) -> fmt::Result {
    match t {
        ContainerType::Untyped | ContainerType::Builtin(VariantType::Nil) => w.write_str("Variant"),
        ContainerType::Builtin(ty) => w.write_str(ty.name()),
        ContainerType::ClassName(name) => w.write_str(name),
        ContainerType::Script(path) => {
            w.write_str("Resource(\"")?;
            write_escaped_multiline(w, path)?;
            w.write_str("\")")
        }
    }
}

fn is_typed(t: &ContainerType) -> bool {
    !matches!(
        t,
        ContainerType::Untyped | ContainerType::Builtin(VariantType::Nil)
    )
}

pub(crate) fn write_array<W: Write + ?Sized>(w: &mut W, a: &Array, d: Dialect) -> fmt::Result {
    if d == Dialect::Godot3 {
        w.write_str("[ ")?;
        write_list(w, &a.items, d)?;
        return w.write_str(" ]");
    }
    let typed = is_typed(&a.element_type);
    if typed {
        w.write_str("Array[")?;
        write_container_type(w, &a.element_type)?;
        w.write_str("](")?;
    }
    w.write_char('[')?;
    write_list(w, &a.items, d)?;
    w.write_char(']')?;
    if typed {
        w.write_char(')')?;
    }
    Ok(())
}

fn write_list<W: Write + ?Sized>(w: &mut W, items: &[Variant], d: Dialect) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            w.write_str(", ")?;
        }
        write_variant(w, item, d)?;
    }
    Ok(())
}

pub(crate) fn write_dictionary<W: Write + ?Sized>(
    w: &mut W,
    dict: &Dictionary,
    d: Dialect,
) -> fmt::Result {
    let typed = d.is_godot4() && (is_typed(dict.key_type()) || is_typed(dict.value_type()));
    if typed {
        w.write_str("Dictionary[")?;
        write_container_type(w, dict.key_type())?;
        w.write_str(", ")?;
        write_container_type(w, dict.value_type())?;
        w.write_str("](")?;
    }
    let entries = sorted_entries(dict, d);
    if entries.is_empty() && d.is_godot4() {
        w.write_str("{}")?;
    } else if d == Dialect::Godot4Compact {
        w.write_char('{')?;
        for (i, (key, value)) in entries.iter().enumerate() {
            if i > 0 {
                w.write_str(", ")?;
            }
            write_variant(w, key, d)?;
            w.write_str(": ")?;
            write_variant(w, value, d)?;
        }
        w.write_char('}')?;
    } else {
        w.write_str("{\n")?;
        for (i, (key, value)) in entries.iter().enumerate() {
            if i > 0 {
                w.write_str(",\n")?;
            }
            write_variant(w, key, d)?;
            w.write_str(": ")?;
            write_variant(w, value, d)?;
        }
        w.write_str("\n}")?;
    }
    if typed {
        w.write_char(')')?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Key order

/// The entries in the order the engine prints them: a stable merge sort with the engine's
/// "less than" (`keys.sort_custom<StringLikeVariantOrder>()` in `VariantWriter::write`),
/// which is not a total order in every corner, so no std sort that could panic.
fn sorted_entries(dict: &Dictionary, d: Dialect) -> Vec<&(Variant, Variant)> {
    let entries: Vec<&(Variant, Variant)> = dict.iter().collect();
    merge_sort(entries, &|a: &(Variant, Variant),
                          b: &(Variant, Variant)| {
        key_cmp(&a.0, &b.0, d) == Ordering::Less
    })
}

fn merge_sort<'a, T, F>(mut v: Vec<&'a T>, less: &F) -> Vec<&'a T>
where
    F: Fn(&T, &T) -> bool,
{
    if v.len() <= 1 {
        return v;
    }
    let right = v.split_off(v.len() / 2);
    let left = merge_sort(v, less);
    let right = merge_sort(right, less);
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    loop {
        match (left.peek(), right.peek()) {
            (Some(a), Some(b)) => {
                // Take from the right only when strictly less: keeps equal keys in order.
                let next = if less(b, a) {
                    right.next()
                } else {
                    left.next()
                };
                out.extend(next);
            }
            (Some(_), None) => {
                out.extend(left);
                break;
            }
            (None, _) => {
                out.extend(right);
                break;
            }
        }
    }
    out
}

/// The rank of a value's type in the engine's ordering: its type id in that engine (Godot 3
/// has no id for 4-only types, which go after every Godot 3 type).
fn type_rank(v: &Variant, d: Dialect) -> u32 {
    let ty = v.variant_type();
    match d {
        Dialect::Godot4
        | Dialect::Godot4Compact
        | Dialect::Godot4Lg
        | Dialect::Godot4Format4
        | Dialect::Godot4LgFormat4 => u32::from(ty as u8),
        Dialect::Godot3 => ty
            .id(GodotVersion::V3)
            .map_or(100 + u32::from(ty as u8), u32::from),
    }
}

/// Godot 4's `StringLikeVariantOrder` (String and StringName compare by text) on top of
/// `Variant::operator<`; Godot 3 sorts with `Variant::operator<` alone. `Less`: `a < b`;
/// `Greater`: `b < a`; `Equal`: neither.
fn key_cmp(a: &Variant, b: &Variant, d: Dialect) -> Ordering {
    if d.is_godot4() {
        if let (Some(x), Some(y)) = (string_like(a), string_like(b)) {
            return x.cmp(y);
        }
    }
    variant_cmp(a, b, d)
}

fn string_like(v: &Variant) -> Option<&str> {
    match v {
        Variant::String(s) => Some(s),
        Variant::StringName(StringName(s)) => Some(s),
        _ => None,
    }
}

/// `Variant::operator<` as one three-way comparison: `Less` when `a < b`, `Greater` when
/// `b < a`, `Equal` when neither. By type id first, then the type's `<` where it has one
/// (numbers, strings, vectors compared component by component, RIDs, Arrays element by
/// element); values of other types never compare less.
///
/// The engine's `Array::operator<` asks `a[i] < b[i]` and then `b[i] < a[i]` at every
/// element, which doubles the work per level of Arrays sharing a prefix (`[[[…], 0]]` vs
/// `[[[…], 1]]`); one three-way answer per element gives the same result in time linear in
/// the smaller key.
fn variant_cmp(a: &Variant, b: &Variant, d: Dialect) -> Ordering {
    #[cfg(test)]
    tests::COMPARISONS.with(|c| c.set(c.get() + 1));
    let by_type = type_rank(a, d).cmp(&type_rank(b, d));
    if by_type != Ordering::Equal {
        return by_type;
    }
    match (a, b) {
        (Variant::Bool(x), Variant::Bool(y)) => x.cmp(y),
        (Variant::Int(x), Variant::Int(y)) => x.cmp(y),
        (Variant::Float(x), Variant::Float(y)) => partial(x, y),
        (Variant::String(x), Variant::String(y)) => x.cmp(y),
        (Variant::StringName(x), Variant::StringName(y)) => x.0.cmp(&y.0),
        (Variant::Vector2(x), Variant::Vector2(y)) => lex_cmp(&v2(x), &v2(y)),
        (Variant::Vector3(x), Variant::Vector3(y)) => lex_cmp(&v3(x), &v3(y)),
        (Variant::Vector4(x), Variant::Vector4(y)) => lex_cmp(&v4(x), &v4(y)),
        (Variant::Vector2i(x), Variant::Vector2i(y)) => lex_cmp(&[x.x, x.y], &[y.x, y.y]),
        (Variant::Vector3i(x), Variant::Vector3i(y)) => lex_cmp(&[x.x, x.y, x.z], &[y.x, y.y, y.z]),
        (Variant::Vector4i(x), Variant::Vector4i(y)) => {
            lex_cmp(&[x.x, x.y, x.z, x.w], &[y.x, y.y, y.z, y.w])
        }
        (Variant::Rid(x), Variant::Rid(y)) => x.0.cmp(&y.0),
        (Variant::Array(x), Variant::Array(y)) => {
            for (p, q) in x.items.iter().zip(&y.items) {
                match variant_cmp(p, q, d) {
                    Ordering::Equal => {}
                    decided => return decided,
                }
            }
            x.items.len().cmp(&y.items.len())
        }
        _ => Ordering::Equal,
    }
}

/// `<` both ways as one answer: `Equal` when neither holds (NaN against anything).
fn partial<T: PartialOrd>(x: &T, y: &T) -> Ordering {
    x.partial_cmp(y).unwrap_or(Ordering::Equal)
}

/// Component-wise: the first differing component decides (`Equal` if it is a NaN, as
/// neither `<` holds there).
fn lex_cmp<T: PartialOrd>(a: &[T], b: &[T]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return partial(x, y);
        }
    }
    Ordering::Equal
}

/// The arguments of a resource reference held as data (see [`crate::text`]): an object of
/// class `Resource` whose only properties are `path` (and first `uid`), or of class
/// `ExtResource` / `SubResource` whose only property is `id`.
fn resource_reference(o: &Object) -> Option<Vec<&Variant>> {
    let names: Vec<&str> = o.properties.iter().map(|(k, _)| k.as_str()).collect();
    let ok = match (o.class.as_str(), names.as_slice()) {
        ("Resource", ["path"] | ["uid", "path"]) => o
            .properties
            .iter()
            .all(|(_, v)| matches!(v, Variant::String(_))),
        ("ExtResource" | "SubResource", ["id"]) => o
            .properties
            .iter()
            .all(|(_, v)| matches!(v, Variant::String(_) | Variant::Int(_))),
        _ => false,
    };
    ok.then(|| o.properties.iter().map(|(_, v)| v).collect())
}

/// `Resource("path")` as Godot 4 writes it, `Resource( "path")` as Godot 3 does (its writer
/// puts a space after the parenthesis only); `ExtResource("id")` / `ExtResource( 1 )`.
fn write_resource_reference<W: Write + ?Sized>(
    w: &mut W,
    class: &str,
    args: &[&Variant],
    d: Dialect,
) -> fmt::Result {
    w.write_str(class)?;
    w.write_char('(')?;
    if d == Dialect::Godot3 {
        w.write_char(' ')?;
    }
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            w.write_str(", ")?;
        }
        match arg {
            Variant::String(s) => {
                w.write_char('"')?;
                write_escaped_multiline(w, s)?;
                w.write_char('"')?;
            }
            other => write_variant(w, other, d)?,
        }
    }
    if d == Dialect::Godot3 && class != "Resource" {
        w.write_char(' ')?;
    }
    w.write_char(')')
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// Calls of `variant_cmp` on this thread.
        pub(super) static COMPARISONS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
    }

    /// `variant_cmp` calls made printing `v` (Godot 4 and Godot 3).
    fn comparisons(v: &Variant) -> u64 {
        COMPARISONS.with(|c| c.set(0));
        let mut out = String::new();
        write_variant(&mut out, v, Dialect::Godot4).unwrap();
        write_variant(&mut out, v, Dialect::Godot3).unwrap();
        COMPARISONS.with(core::cell::Cell::get)
    }

    /// `[[…[x]…], tail]`: `x` under `depth` Arrays, then `tail`.
    fn deep_key(depth: usize, tail: i64) -> Variant {
        let mut x = Variant::from(Array::from(Vec::new()));
        for _ in 0..depth {
            x = Variant::from(Array::from(vec![x]));
        }
        Variant::from(Array::from(vec![x, Variant::Int(tail)]))
    }

    #[test]
    fn ordering_keys_with_an_equal_prefix_is_linear() {
        // Issue 22: keys `[X, 0]` and `[X, 1]` with X deep. Asking `<` both ways at every
        // level made 2^depth comparisons; one three-way comparison per level makes one per
        // level (plus the two Ints and the top). Counted, not timed.
        let dict = |depth: usize| {
            let mut d = Dictionary::new();
            d.insert(deep_key(depth, 1), Variant::Int(0));
            d.insert(deep_key(depth, 0), Variant::Int(0));
            Variant::from(d)
        };
        let small = comparisons(&dict(50));
        let large = comparisons(&dict(200));
        // One sort of two keys per dialect: depth + 3 calls each (the outer pair, each
        // level of X, the innermost empty pair, the two Ints).
        assert_eq!(small, 2 * (50 + 3));
        assert_eq!(large, 2 * (200 + 3));
        // And the order is the engine's: `[X, 0]` first.
        let printed = format!("{:#}", dict(2));
        assert_eq!(printed, "{\n[[[[]]], 0]: 0,\n[[[[]]], 1]: 0\n}");
    }

    #[test]
    fn three_way_order_matches_less_than_both_ways() {
        // `Equal` exactly where neither `<` holds: NaN, -0.0 against 0.0, types without `<`.
        let nan = Variant::Float(f64::NAN);
        let cases = [
            (Variant::Float(-0.0), Variant::Float(0.0), Ordering::Equal),
            (nan.clone(), Variant::Float(1.0), Ordering::Equal),
            (Variant::Float(1.0), Variant::Float(2.0), Ordering::Less),
            (Variant::Bool(true), Variant::Bool(false), Ordering::Greater),
            (Variant::Int(5), Variant::Float(1.0), Ordering::Less),
            (Variant::Nil, Variant::Nil, Ordering::Equal),
            (
                Variant::from(Dictionary::new()),
                Variant::from(Dictionary::new()),
                Ordering::Equal,
            ),
            (
                Variant::from(Array::from(vec![nan.clone(), 1.into()])),
                Variant::from(Array::from(vec![Variant::Float(0.0), 2.into()])),
                Ordering::Less,
            ),
            (
                Variant::from(Array::from(vec![1.into()])),
                Variant::from(Array::from(vec![1.into(), 0.into()])),
                Ordering::Less,
            ),
        ];
        for (a, b, want) in cases {
            for d in [Dialect::Godot4, Dialect::Godot3] {
                assert_eq!(variant_cmp(&a, &b, d), want, "{a:?} vs {b:?}");
                assert_eq!(variant_cmp(&b, &a, d), want.reverse(), "{b:?} vs {a:?}");
            }
        }
    }

    #[test]
    fn grisu_layout_matches_the_engine_thresholds() {
        // Values from the Godot 4.6 fixtures (var_to_str of the literal).
        assert_eq!(real4(1e10), "10000000000");
        assert_eq!(real4(1e300), "1e+300");
        assert_eq!(real4(f64::from_bits(1)), "5e-324");
        assert_eq!(real4(0.1), "0.1");
        assert_eq!(real4(-0.0), "0");
        assert_eq!(real4(f64::NEG_INFINITY), "inf_neg");
        assert_eq!(
            real4(f64::from(f32::from_bits(0x0080_0000))),
            "1.1754944e-38"
        );
    }

    #[test]
    fn printf_g_matches_the_godot3_engine() {
        // Values from a Godot 3.2.3 run (var2str).
        assert_eq!(real3(1e10), "1e+10");
        assert_eq!(real3(1_234_567.0), "1.23457e+06");
        assert_eq!(real3(0.0001), "0.0001");
        assert_eq!(real3(0.00001), "1e-05");
        assert_eq!(real3(999_999.5), "1e+06");
        assert_eq!(real3(1e300), "inf");
    }
}
