//! The body of the `roundtrip_text` fuzz target, shared with `tests/suite/text_fuzz_replay.rs`:
//! a `Variant` built from the input bytes is printed (Godot 4 `var_to_str`, and Godot 3
//! `var2str` for values without floats) and parsed back, which must give the same value.
//!
//! The value space is what the text form carries, as in the engines:
//! - no NUL in text (no text the parser reads holds one; see `text::writer::NUL_ESCAPE`), and
//!   no BEL or VT in a StringName, NodePath or PackedStringArray element (their C escapes
//!   `\a` and `\v` read back as `a` and `v`, in the engines too);
//! - NodePath names and subnames without `/` and `:` (they are the separators), not empty;
//! - no Object, ObjectId, RID, Callable or Signal (the text form has no faithful syntax for
//!   them: they are references to live engine objects);
//! - typed Arrays only with elements of their type (the engine's `assign` empties others);
//! - Dictionary keys that Godot 4 keeps apart (not a String and a StringName of one text,
//!   nor two keys equal but for the order of a Dictionary inside them: printed sorted, they
//!   are one text, so one key when read back, in the engines too);
//! - a `float` reads back as the same double, or, where the writer printed the shortest `f32`
//!   text (the value was exactly an f32, as `rtos_fix` does), as the same f32; the engine's
//!   `strtod` may also miss the last bits of a 17-digit double (Godot 4.6 reads
//!   `-9.593720329499609e-204` two units in the last place off, and `0.00048068537417956424`
//!   78 units off, as the parser here does; up to 128 units are accepted),
//!   and reads a 17-digit number below about 1e-290 as 0 (its scale passes 10^308); it keeps
//!   18 digits counting the zeros of `0.000`, so a number between 1e-5 and 1 that prints
//!   positionally loses what lies below 1e-17 (Godot 4.6 reads `0.00047679227986486893` as
//!   `0.00047679227986486`, 165 units in the last place off, as the parser here does; seed
//!   `fuzz/seeds/roundtrip_text/leading-zeros-float`). NaN equals NaN, `-0.0` equals
//!   `0.0` (the text form drops the sign of zero, in both engines). Math-type components
//!   (f32) read back exactly.
//!
//! The Dictionary order may change (the writer sorts keys): Dictionaries are compared entry
//! by entry in any order (a small quadratic search, fine for test values). A Dictionary
//! inside a key comes back sorted too, which Godot's key identity (its hash follows the
//! entry order) counts as another key: in the engines as here.
#![allow(dead_code)]

use godot_serde::{
    Aabb, Array, Basis, Config, ContainerType, Dictionary, NodePath, PackedByteArray,
    PackedColorArray, PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array,
    PackedStringArray, PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane,
    Projection, Quaternion, Rect2, Rect2i, StringName, Transform2D, Transform3D, Variant,
    VariantType, Vector2i, Vector3i, Vector4i, text,
};

#[path = "fuzz_input.rs"]
mod fuzz_input;
use fuzz_input::Draw;

/// Reads choices from the fuzz input; zeros once it runs out.
pub struct Gen<'a> {
    data: &'a [u8],
    /// Whether to make floats and typed Arrays (off for the Godot 3 pass: `var2str` keeps six
    /// digits, and Godot 3 has no typed Arrays).
    floats: bool,
}

impl<'a> Draw<'a> for Gen<'a> {
    fn rest(&mut self) -> &mut &'a [u8] {
        &mut self.data
    }

    /// An f32 component: any bit pattern but NaN (a NaN component makes `==` useless), or
    /// a whole number for the Godot 3 pass (which prints six digits).
    fn f32(&mut self) -> f32 {
        if !self.floats {
            return f32::from(self.byte() as i8);
        }
        let x = f32::from_le_bytes(self.bytes());
        if x.is_nan() { 0.5 } else { x }
    }
}

impl<'a> Gen<'a> {
    pub fn new(data: &'a [u8], floats: bool) -> Self {
        Gen { data, floats }
    }

    fn f64(&mut self) -> f64 {
        match self.byte() % 4 {
            0 => f64::from(self.f32()),
            1 => f64::from(self.i32()) / 8.0,
            _ => f64::from_bits(u64::from_le_bytes(self.bytes())),
        }
    }

    /// Text from a small alphabet with the characters escapes touch. `c_escaped`: for
    /// StringName, NodePath and PackedStringArray (no BEL, VT; see the module docs).
    fn string(&mut self, c_escaped: bool) -> String {
        const PLAIN: [char; 14] = [
            'a',
            'b',
            'z',
            'é',
            '\u{1F600}',
            '"',
            '\\',
            '\n',
            '\t',
            '\r',
            '?',
            '\'',
            ' ',
            '\u{1}',
        ];
        let n = self.len(6);
        let mut s = String::new();
        for _ in 0..n {
            let b = self.byte();
            if !c_escaped && b % 16 == 15 {
                s.push(if b & 16 == 0 { '\u{7}' } else { '\u{b}' });
            } else {
                s.push(PLAIN[usize::from(b) % PLAIN.len()]);
            }
        }
        s
    }

    /// A NodePath name: letters only, at least one.
    fn name(&mut self) -> String {
        let n = 1 + self.len(4);
        (0..n)
            .map(|_| char::from(b'a' + self.byte() % 26))
            .collect()
    }

    /// A Dictionary key: scalars, text, vectors and small Arrays (floats as exact values, so
    /// that a key is found again by Godot's key equality).
    fn key(&mut self, depth: u8) -> Variant {
        match self.byte() % 6 {
            0 => Variant::Int(self.i64()),
            1 => Variant::String(self.string(false).into()),
            2 => Variant::StringName(StringName(self.string(true))),
            3 if self.floats => Variant::Float(f64::from(self.i32()) / 4.0),
            3 => Variant::Float(f64::from(self.byte() as i8)),
            4 => Variant::Vector2i(Vector2i::new(self.i32(), self.i32())),
            _ => {
                // Without floats that may read back a bit off, which would be another key.
                let floats = core::mem::replace(&mut self.floats, false);
                let v = self.value(depth);
                self.floats = floats;
                v
            }
        }
    }

    /// Any value of the text form's space (module docs), nested at most `depth` levels.
    #[allow(clippy::too_many_lines)]
    pub fn value(&mut self, depth: u8) -> Variant {
        let nest = depth > 0;
        let deeper = depth.saturating_sub(1);
        let pick = self.byte() % 35;
        let float_ok = self.floats;
        match pick {
            0 => Variant::Nil,
            1 => Variant::Bool(self.byte() & 1 == 1),
            2 => Variant::Int(self.i64()),
            3 if float_ok => Variant::Float(self.f64()),
            3 => Variant::Int(self.i64()),
            4 => Variant::String(self.string(false).into()),
            5 if float_ok => Variant::Vector2(self.v2()),
            6 => Variant::Vector2i(Vector2i::new(self.i32(), self.i32())),
            7 if float_ok => Variant::Rect2(Rect2::new(self.v2(), self.v2())),
            8 => Variant::Rect2i(Rect2i::new(
                Vector2i::new(self.i32(), self.i32()),
                Vector2i::new(self.i32(), self.i32()),
            )),
            9 if float_ok => Variant::Vector3(self.v3()),
            10 => Variant::Vector3i(Vector3i::new(self.i32(), self.i32(), self.i32())),
            11 if float_ok => {
                Variant::Transform2D(Box::new(Transform2D::new(self.v2(), self.v2(), self.v2())))
            }
            12 if float_ok => Variant::Vector4(self.v4()),
            13 => Variant::Vector4i(Vector4i::new(
                self.i32(),
                self.i32(),
                self.i32(),
                self.i32(),
            )),
            14 if float_ok => Variant::Plane(Plane::new(self.v3(), self.real())),
            15 if float_ok => Variant::Quaternion(Quaternion::new(
                self.real(),
                self.real(),
                self.real(),
                self.real(),
            )),
            16 if float_ok => Variant::Aabb(Box::new(Aabb::new(self.v3(), self.v3()))),
            17 if float_ok => Variant::Basis(Box::new(Basis {
                rows: [self.v3(), self.v3(), self.v3()],
            })),
            18 if float_ok => Variant::Transform3D(Box::new(Transform3D::new(
                Basis {
                    rows: [self.v3(), self.v3(), self.v3()],
                },
                self.v3(),
            ))),
            19 if float_ok => Variant::Projection(Box::new(Projection {
                columns: [self.v4(), self.v4(), self.v4(), self.v4()],
            })),
            20 => Variant::Color(self.color()),
            21 => Variant::StringName(StringName(self.string(true))),
            22 => Variant::NodePath(Box::new(NodePath {
                names: self.list(3, Self::name),
                subnames: self.list(2, Self::name),
                absolute: self.byte() & 1 == 1,
            })),
            23 if nest => {
                let items = self.list(4, |g| g.value(deeper));
                Variant::from(Array::from(items))
            }
            24 if nest && float_ok => {
                // Typed (Godot 4 only), with elements of the type.
                if self.byte() & 1 == 0 {
                    let items = self.list(4, |g| Variant::Int(g.i64()));
                    Variant::from(Array {
                        element_type: ContainerType::Builtin(VariantType::Int),
                        items,
                    })
                } else {
                    let items = self.list(4, |g| Variant::String(g.string(false).into()));
                    Variant::from(Array {
                        element_type: ContainerType::Builtin(VariantType::String),
                        items,
                    })
                }
            }
            25 if nest => {
                let mut d = Dictionary::new();
                let n = self.len(5);
                for _ in 0..n {
                    let k = self.key(deeper);
                    // Godot 4 makes a String and a StringName of one text one key.
                    if k.as_str().is_some_and(|s| d.contains_key(s)) {
                        continue;
                    }
                    // Nor two keys that differ only in the order of a Dictionary inside
                    // them: the writer sorts, so they print alike and read back as one key
                    // (in the engines too).
                    if d.iter().any(|(l, _)| *l != k && same(l, &k)) {
                        continue;
                    }
                    let v = self.value(deeper);
                    d.insert(k, v);
                }
                Variant::from(d)
            }
            26 => Variant::PackedByteArray(PackedByteArray(self.list(6, Self::byte))),
            27 => Variant::PackedInt32Array(PackedInt32Array(self.list(4, Self::i32))),
            28 => Variant::PackedInt64Array(PackedInt64Array(self.list(4, Self::i64))),
            29 => Variant::PackedStringArray(PackedStringArray(self.list(3, |g| g.string(true)))),
            30 => Variant::PackedFloat32Array(PackedFloat32Array(self.list(4, Self::f32))),
            31 if float_ok => {
                Variant::PackedFloat64Array(PackedFloat64Array(self.list(3, Self::f64)))
            }
            32 if float_ok => {
                Variant::PackedVector2Array(PackedVector2Array(self.list(3, Self::v2)))
            }
            33 if float_ok => {
                Variant::PackedVector3Array(PackedVector3Array(self.list(3, Self::v3)))
            }
            34 if float_ok => {
                Variant::PackedVector4Array(PackedVector4Array(self.list(2, Self::v4)))
            }
            _ => Variant::PackedColorArray(PackedColorArray(self.list(2, Self::color))),
        }
    }
}

/// A `float` read back from its text: see the module docs.
fn same_float(a: f64, b: f64) -> bool {
    #[allow(clippy::cast_possible_truncation)]
    let exact_f32 = f64::from(a as f32) == a;
    a == b
        || (a.is_nan() && b.is_nan())
        || ((1e-5..1.0).contains(&a.abs()) && (a - b).abs() <= 1e-17)
        || (a.abs() < 1e-290 && b == 0.0)
        || (exact_f32 && a as f32 == b as f32)
        || (a.is_sign_negative() == b.is_sign_negative()
            && a.to_bits().abs_diff(b.to_bits()) <= 128)
}

/// `a` (generated) against `b` (read back from its text): see the module docs.
pub fn same(a: &Variant, b: &Variant) -> bool {
    match (a, b) {
        (Variant::Float(x), Variant::Float(y)) => same_float(*x, *y),
        (Variant::PackedFloat64Array(x), Variant::PackedFloat64Array(y)) => {
            x.0.len() == y.0.len() && x.0.iter().zip(&y.0).all(|(p, q)| same_float(*p, *q))
        }
        (Variant::Array(x), Variant::Array(y)) => {
            x.element_type == y.element_type
                && x.items.len() == y.items.len()
                && x.items.iter().zip(&y.items).all(|(p, q)| same(p, q))
        }
        (Variant::Dictionary(x), Variant::Dictionary(y)) => {
            x.key_type() == y.key_type()
                && x.value_type() == y.value_type()
                && x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.iter().any(|(l, w)| same(k, l) && same(v, w)))
        }
        _ => a == b,
    }
}

/// Prints the value made from `data` and parses it back (Godot 4; and Godot 3 for a value
/// made without floats, from the same bytes).
pub fn roundtrip_text(data: &[u8]) {
    for (config, floats) in [(Config::godot4(), true), (Config::godot3(), false)] {
        let v = Gen::new(data, floats).value(4);
        if !floats && config.to_bytes(&v).is_err() {
            // A Godot 4-only type: Godot 3 has no text for it.
            continue;
        }
        let printed = text::variant_to_string_with(&v, config);
        let back = text::parse_variant_with(&printed, config)
            .unwrap_or_else(|e| panic!("{printed:?} does not read back: {e}\nvalue: {v:?}"));
        assert!(
            same(&v, &back),
            "{config:?}: {printed:?} reads back as another value\nwrote: {v:?}\nread:  {back:?}"
        );
    }
}
