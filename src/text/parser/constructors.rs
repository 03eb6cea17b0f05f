//! The Godot constructors of the text form (`Vector2(...)`, `Transform3D(...)`,
//! `Packed*Array(...)`, ...) and the number arguments they take.

use super::super::base64;
use super::super::lexer::Token;
use super::{PErr, PResult, Parser};
use crate::Variant;
use crate::types::{
    Aabb, Basis, Callable, Color, NodePath, PackedByteArray, PackedColorArray, PackedFloat32Array,
    PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray, PackedVector2Array,
    PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion, Real, Rect2, Rect2i,
    Rid, Signal, Transform2D, Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use crate::wire::VariantType;

/// A number argument of a constructor.
#[derive(Clone, Copy)]
pub(super) enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    fn f64(self) -> f64 {
        match self {
            #[allow(clippy::cast_precision_loss)]
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
    /// The component as the engine's `real_t`: through `f32` unless the config targets a
    /// double-precision engine.
    #[allow(clippy::cast_possible_truncation, clippy::useless_conversion)]
    fn real(self, dp: bool) -> Real {
        if dp {
            self.f64() as Real
        } else {
            Real::from(self.f64() as f32)
        }
    }
    #[allow(clippy::cast_possible_truncation)]
    fn f32(self) -> f32 {
        self.f64() as f32
    }
    /// C's `(int32_t)` of the Variant: ints wrap, floats truncate (out of range: `INT_MIN`, as
    /// x86 does).
    #[allow(clippy::cast_possible_truncation)]
    fn i32(self) -> i32 {
        match self {
            Num::Int(i) => i as i32,
            Num::Float(f) => {
                if !(-2_147_483_648.0..2_147_483_648.0).contains(&f) {
                    i32::MIN
                } else {
                    f as i32
                }
            }
        }
    }
    #[allow(clippy::cast_possible_truncation)]
    pub(super) fn i64(self) -> i64 {
        match self {
            Num::Int(i) => i,
            Num::Float(f) => {
                if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) {
                    i64::MIN
                } else {
                    f as i64
                }
            }
        }
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    fn u8(self) -> u8 {
        self.i64() as u8
    }
}

impl<'a> Parser<'a> {
    /// A value that starts with the identifier `id`: a keyword, a resource reference, or a
    /// constructor, found by name in the table of Godot types (`wire::types::TYPES`: each
    /// engine's name for the type and the older names its parser accepts).
    pub(super) fn identifier(&mut self, id: &'a str, g3: bool) -> PResult<Variant> {
        let v = match id {
            "true" => Variant::Bool(true),
            "false" => Variant::Bool(false),
            "null" | "nil" => Variant::Nil,
            "inf" => Variant::Float(f64::INFINITY),
            "-inf" | "inf_neg" if !g3 => Variant::Float(f64::NEG_INFINITY),
            "nan" => Variant::Float(f64::NAN),
            "Resource" | "SubResource" | "ExtResource" => self.resource(id)?,
            _ => match VariantType::from_text_name(id, g3) {
                Some(ty) => self.constructor(ty, g3)?,
                None => return self.unexpected_identifier(id, g3),
            },
        };
        Ok(v)
    }

    fn unexpected_identifier<T>(&self, id: &str, g3: bool) -> PResult<T> {
        if g3 {
            self.fail(format!("Unexpected identifier: '{id}'."))
        } else {
            self.fail(format!("Unexpected identifier '{id}'"))
        }
    }

    /// The arguments of the constructor of `ty`, after its name.
    #[allow(clippy::too_many_lines)] // one arm per Godot type
    fn constructor(&mut self, ty: VariantType, g3: bool) -> PResult<Variant> {
        use VariantType as T;
        let dp = self.config.double_precision;
        let v = match ty {
            T::Vector2 => {
                let a = self.construct(2)?;
                Variant::Vector2(v2(dp, &a, 0))
            }
            T::Vector2i => {
                let a = self.construct(2)?;
                Variant::Vector2i(v2i(&a, 0))
            }
            T::Rect2 => {
                let a = self.construct(4)?;
                Variant::Rect2(Rect2 {
                    position: v2(dp, &a, 0),
                    size: v2(dp, &a, 2),
                })
            }
            T::Rect2i => {
                let a = self.construct(4)?;
                Variant::Rect2i(Rect2i {
                    position: v2i(&a, 0),
                    size: v2i(&a, 2),
                })
            }
            T::Vector3 => {
                let a = self.construct(3)?;
                Variant::Vector3(v3(dp, &a, 0))
            }
            T::Vector3i => {
                let a = self.construct(3)?;
                Variant::Vector3i(Vector3i {
                    x: at(&a, 0).i32(),
                    y: at(&a, 1).i32(),
                    z: at(&a, 2).i32(),
                })
            }
            T::Vector4 => {
                let a = self.construct(4)?;
                Variant::Vector4(v4(dp, &a, 0))
            }
            T::Vector4i => {
                let a = self.construct(4)?;
                Variant::Vector4i(Vector4i {
                    x: at(&a, 0).i32(),
                    y: at(&a, 1).i32(),
                    z: at(&a, 2).i32(),
                    w: at(&a, 3).i32(),
                })
            }
            T::Transform2D => {
                let a = self.construct(6)?;
                Variant::from(Transform2D {
                    x: v2(dp, &a, 0),
                    y: v2(dp, &a, 2),
                    origin: v2(dp, &a, 4),
                })
            }
            T::Plane => {
                let a = self.construct(4)?;
                Variant::Plane(Plane {
                    normal: v3(dp, &a, 0),
                    d: at(&a, 3).real(dp),
                })
            }
            T::Quaternion => self.quaternion()?,
            T::Aabb => {
                let a = self.construct(6)?;
                Variant::from(Aabb {
                    position: v3(dp, &a, 0),
                    size: v3(dp, &a, 3),
                })
            }
            T::Basis => {
                let a = self.construct(9)?;
                Variant::from(basis(dp, &a))
            }
            T::Transform3D => self.transform3d()?,
            T::Projection => {
                let a = self.construct(16)?;
                Variant::from(Projection {
                    columns: [v4(dp, &a, 0), v4(dp, &a, 4), v4(dp, &a, 8), v4(dp, &a, 12)],
                })
            }
            T::Color => {
                let a = self.construct(4)?;
                Variant::Color(Color {
                    r: at(&a, 0).f32(),
                    g: at(&a, 1).f32(),
                    b: at(&a, 2).f32(),
                    a: at(&a, 3).f32(),
                })
            }
            T::NodePath => {
                self.expect(&Token::ParenOpen, "Expected '('")?;
                let Token::Str(s) = self.tok() else {
                    return self.fail("Expected string as argument for NodePath()");
                };
                self.expect(&Token::ParenClose, "Expected ')'")?;
                Variant::from(NodePath::from(s.as_str()))
            }
            T::Rid => {
                self.expect(&Token::ParenOpen, "Expected '('")?;
                let t = self.tok();
                let n = match t {
                    Token::ParenClose if !g3 => return Ok(Variant::Rid(Rid(0))),
                    Token::Int(i) => Num::Int(i),
                    Token::Float(f) => Num::Float(f),
                    _ if g3 => return self.fail("Expected number as argument"),
                    _ => return self.fail("Expected number as argument or ')'"),
                };
                self.expect(&Token::ParenClose, "Expected ')'")?;
                if g3 {
                    // Godot 3.2 reads `RID(n)` as the number itself.
                    match n {
                        Num::Int(i) => Variant::Int(i),
                        Num::Float(f) => Variant::Float(f),
                    }
                } else {
                    #[allow(clippy::cast_sign_loss)]
                    Variant::Rid(Rid(n.i64() as u64))
                }
            }
            T::Signal => {
                self.expect(&Token::ParenOpen, "Expected '('")?;
                self.expect(&Token::ParenClose, "Expected ')'")?;
                Variant::from(Signal::default())
            }
            T::Callable => {
                self.expect(&Token::ParenOpen, "Expected '('")?;
                self.expect(&Token::ParenClose, "Expected ')'")?;
                Variant::Callable(Callable)
            }
            T::Object => self.object()?,
            T::Dictionary => self.typed_dictionary()?,
            T::Array => self.typed_array()?,
            T::PackedByteArray => {
                if g3 {
                    let a = self.packed(false)?;
                    Variant::PackedByteArray(PackedByteArray(a.iter().map(|n| n.u8()).collect()))
                } else {
                    self.byte_array()?
                }
            }
            T::PackedInt32Array => self.int32_array()?,
            T::PackedInt64Array => {
                let a = self.packed(false)?;
                Variant::PackedInt64Array(PackedInt64Array(a.iter().map(|n| n.i64()).collect()))
            }
            T::PackedFloat32Array => self.float32_array()?,
            T::PackedFloat64Array => {
                let a = self.packed(false)?;
                Variant::PackedFloat64Array(PackedFloat64Array(a.iter().map(|n| n.f64()).collect()))
            }
            T::PackedStringArray => self.string_array()?,
            T::PackedVector2Array => self.vector2_array()?,
            T::PackedVector3Array => self.vector3_array()?,
            T::PackedVector4Array => {
                let a = self.packed(false)?;
                Variant::PackedVector4Array(PackedVector4Array(
                    (0..a.len() / 4).map(|i| v4(dp, &a, i * 4)).collect(),
                ))
            }
            T::PackedColorArray => self.color_array()?,
            // Literal types: `from_text_name` gives only types with a constructor.
            _ => return self.fail(format!("Unexpected identifier '{}'", ty.name())),
        };
        Ok(v)
    }

    fn quaternion(&mut self) -> PResult<Variant> {
        let dp = self.config.double_precision;
        let a = self.construct(4)?;
        Ok(Variant::Quaternion(Quaternion {
            x: at(&a, 0).real(dp),
            y: at(&a, 1).real(dp),
            z: at(&a, 2).real(dp),
            w: at(&a, 3).real(dp),
        }))
    }

    fn transform3d(&mut self) -> PResult<Variant> {
        let dp = self.config.double_precision;
        let a = self.construct(12)?;
        Ok(Variant::from(Transform3D {
            basis: basis(dp, &a),
            origin: v3(dp, &a, 9),
        }))
    }

    fn int32_array(&mut self) -> PResult<Variant> {
        let a = self.packed(false)?;
        Ok(Variant::PackedInt32Array(PackedInt32Array(
            a.iter().map(|n| n.i32()).collect(),
        )))
    }

    fn float32_array(&mut self) -> PResult<Variant> {
        let a = self.packed(false)?;
        Ok(Variant::PackedFloat32Array(PackedFloat32Array(
            a.iter().map(|n| n.f32()).collect(),
        )))
    }

    fn vector2_array(&mut self) -> PResult<Variant> {
        let dp = self.config.double_precision;
        let a = self.packed(false)?;
        Ok(Variant::PackedVector2Array(PackedVector2Array(
            (0..a.len() / 2).map(|i| v2(dp, &a, i * 2)).collect(),
        )))
    }

    fn vector3_array(&mut self) -> PResult<Variant> {
        let dp = self.config.double_precision;
        let a = self.packed(false)?;
        Ok(Variant::PackedVector3Array(PackedVector3Array(
            (0..a.len() / 3).map(|i| v3(dp, &a, i * 3)).collect(),
        )))
    }

    fn color_array(&mut self) -> PResult<Variant> {
        let a = self.packed(false)?;
        Ok(Variant::PackedColorArray(PackedColorArray(
            (0..a.len() / 4)
                .map(|i| Color {
                    r: at(&a, i * 4).f32(),
                    g: at(&a, i * 4 + 1).f32(),
                    b: at(&a, i * 4 + 2).f32(),
                    a: at(&a, i * 4 + 3).f32(),
                })
                .collect(),
        )))
    }

    /// `_parse_construct`: `(` numbers separated by commas `)`, no trailing comma. Godot 4
    /// also takes `inf`, `-inf`, `inf_neg` and `nan`.
    fn numbers(&mut self, byte_array: bool) -> PResult<Vec<Num>> {
        self.expect(&Token::ParenOpen, "Expected '(' in constructor")?;
        let mut out = Vec::new();
        let mut first = true;
        loop {
            if !first {
                match self.tok() {
                    Token::Comma => {}
                    Token::ParenClose => break,
                    _ => return self.fail("Expected ',' or ')' in constructor"),
                }
            }
            let t = self.tok();
            let n = match t {
                Token::ParenClose if first => break,
                Token::Int(i) => Num::Int(i),
                Token::Float(f) => Num::Float(f),
                Token::Identifier(id) if !self.g3() && special_float(id).is_some() => {
                    Num::Float(special_float(id).unwrap_or(0.0))
                }
                _ if byte_array => return self.fail("Expected number in constructor"),
                _ => return self.fail("Expected float in constructor"),
            };
            out.push(n);
            first = false;
        }
        Ok(out)
    }

    fn construct(&mut self, count: usize) -> PResult<Vec<Num>> {
        let a = self.numbers(false)?;
        if a.len() != count {
            return self.fail(format!("Expected {count} arguments for constructor"));
        }
        Ok(a)
    }

    fn packed(&mut self, byte_array: bool) -> PResult<Vec<Num>> {
        self.numbers(byte_array)
    }

    /// Godot 4 `PackedByteArray(...)`: numbers, or one base64 string.
    fn byte_array(&mut self) -> PResult<Variant> {
        self.expect(&Token::ParenOpen, "Expected '(' in constructor")?;
        let mut t = self.tok();
        let mut out = Vec::new();
        match t {
            Token::Str(s) => {
                out = base64::decode(&s)
                    .map_or_else(|| self.fail("Invalid base64-encoded string"), Ok::<_, PErr>)?;
                self.expect(&Token::ParenClose, "Expected ')' in constructor")?;
            }
            Token::Int(_) | Token::Float(_) | Token::Identifier(_) => loop {
                let n = match t {
                    Token::Int(i) => Num::Int(i),
                    Token::Float(f) => Num::Float(f),
                    Token::Identifier(id) if special_float(id).is_some() => {
                        Num::Float(special_float(id).unwrap_or(0.0))
                    }
                    _ => return self.fail("Expected number in constructor"),
                };
                out.push(n.u8());
                match self.tok() {
                    Token::Comma => {}
                    Token::ParenClose => break,
                    _ => return self.fail("Expected ',' or ')' in constructor"),
                }
                t = self.tok();
            },
            Token::ParenClose => {}
            _ => return self.fail("Expected base64 string, or list of numbers in constructor"),
        }
        Ok(Variant::PackedByteArray(PackedByteArray(out)))
    }

    fn string_array(&mut self) -> PResult<Variant> {
        self.expect(&Token::ParenOpen, "Expected '('")?;
        let mut out = Vec::new();
        let mut first = true;
        loop {
            if !first {
                match self.tok() {
                    Token::Comma => {}
                    Token::ParenClose => break,
                    _ => return self.fail("Expected ',' or ')'"),
                }
            }
            match self.tok() {
                Token::ParenClose => break,
                Token::Str(s) => out.push(s),
                _ => return self.fail("Expected string"),
            }
            first = false;
        }
        Ok(Variant::PackedStringArray(PackedStringArray(out)))
    }
}

fn special_float(id: &str) -> Option<f64> {
    match id {
        "inf" => Some(f64::INFINITY),
        "-inf" | "inf_neg" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    }
}

fn at(a: &[Num], i: usize) -> Num {
    a.get(i).copied().unwrap_or(Num::Int(0))
}

fn v2(dp: bool, a: &[Num], i: usize) -> Vector2 {
    Vector2 {
        x: at(a, i).real(dp),
        y: at(a, i + 1).real(dp),
    }
}

fn v2i(a: &[Num], i: usize) -> Vector2i {
    Vector2i {
        x: at(a, i).i32(),
        y: at(a, i + 1).i32(),
    }
}

fn v3(dp: bool, a: &[Num], i: usize) -> Vector3 {
    Vector3 {
        x: at(a, i).real(dp),
        y: at(a, i + 1).real(dp),
        z: at(a, i + 2).real(dp),
    }
}

fn v4(dp: bool, a: &[Num], i: usize) -> Vector4 {
    Vector4 {
        x: at(a, i).real(dp),
        y: at(a, i + 1).real(dp),
        z: at(a, i + 2).real(dp),
        w: at(a, i + 3).real(dp),
    }
}

fn basis(dp: bool, a: &[Num]) -> Basis {
    Basis {
        rows: [v3(dp, a, 0), v3(dp, a, 3), v3(dp, a, 6)],
    }
}
