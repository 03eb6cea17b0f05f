//! A seeded generator of random values for property tests (deterministic, no dependencies).
#![allow(dead_code)]

use godot_serde::*;

/// A game's action, the enum the property tests generate: a unit, a newtype, a struct and a
/// tuple variant.
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
pub enum Action {
    Idle,
    Move(Vector2),
    Hit { target: u32, damage: f32 },
    Chat(String, u8),
}

/// xorshift64*: small, fast, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// One of the four kinds of [`Action`], its fields random.
    pub fn action(&mut self) -> Action {
        match self.below(4) {
            0 => Action::Idle,
            1 => Action::Move(self.v2()),
            2 => Action::Hit {
                target: self.next() as u32,
                damage: self.f32(),
            },
            _ => Action::Chat(self.string(), self.next() as u8),
        }
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn bool(&mut self) -> bool {
        self.next() & 1 == 1
    }
    /// Ints biased towards the 32/64-bit boundaries.
    pub fn int(&mut self) -> i64 {
        match self.below(6) {
            0 => self.below(100) as i64 - 50,
            1 => i64::from(i32::MAX) + self.below(3) as i64 - 1,
            2 => i64::from(i32::MIN) + self.below(3) as i64 - 1,
            3 => [i64::MIN, i64::MAX][self.below(2) as usize],
            _ => self.next() as i64,
        }
    }
    /// Any float but NaN (NaN never equals itself), biased towards f32-exact values.
    pub fn float(&mut self) -> f64 {
        loop {
            let v = match self.below(4) {
                0 => f64::from(f32::from_bits(self.next() as u32)),
                1 => (self.below(2000) as f64 - 1000.0) / 8.0,
                2 => [0.1, -0.0, f64::INFINITY, f64::NEG_INFINITY, 1e300, 5e-324]
                    [self.below(6) as usize],
                _ => f64::from_bits(self.next()),
            };
            if !v.is_nan() {
                return v;
            }
        }
    }
    pub fn real(&mut self) -> Real {
        loop {
            let v = f32::from_bits(self.next() as u32);
            if !v.is_nan() {
                return Real::from(v);
            }
        }
    }
    pub fn f32(&mut self) -> f32 {
        loop {
            let v = f32::from_bits(self.next() as u32);
            if !v.is_nan() {
                return v;
            }
        }
    }
    /// Text without NUL and without a leading BOM (Godot drops both on decode).
    pub fn string(&mut self) -> String {
        let len = self.below(9) as usize;
        (0..len)
            .map(|_| match self.below(5) {
                0 => ['é', '日', '😀', '\u{FEFF}', 'ß'][self.below(5) as usize],
                _ => char::from(b'a' + self.below(26) as u8),
            })
            .collect::<String>()
            .trim_start_matches('\u{FEFF}')
            .to_owned()
    }
    pub fn v2(&mut self) -> Vector2 {
        Vector2::new(self.real(), self.real())
    }
    pub fn v3(&mut self) -> Vector3 {
        Vector3::new(self.real(), self.real(), self.real())
    }
    pub fn v4(&mut self) -> Vector4 {
        Vector4::new(self.real(), self.real(), self.real(), self.real())
    }
    pub fn i32(&mut self) -> i32 {
        self.next() as i32
    }
    pub fn color(&mut self) -> Color {
        Color::new(self.f32(), self.f32(), self.f32(), self.f32())
    }
    fn vec<T>(&mut self, mut f: impl FnMut(&mut Self) -> T) -> Vec<T> {
        let n = self.below(5) as usize;
        (0..n).map(|_| f(self)).collect()
    }
    pub fn node_path(&mut self) -> NodePath {
        let names = self.vec(|r| format!("n{}", r.string()));
        let subnames = self.vec(|r| format!("s{}", r.string()));
        NodePath {
            names,
            subnames,
            absolute: self.bool(),
        }
    }

    /// A random Variant that `version` can hold (decode(encode(v)) == v there).
    pub fn variant(&mut self, version: GodotVersion, depth: usize) -> Variant {
        let g4 = version.is_godot4();
        loop {
            let v = match self.below(40) {
                0 => Variant::Nil,
                1 => Variant::Bool(self.bool()),
                2 | 3 => Variant::Int(self.int()),
                4 | 5 => Variant::Float(self.float()),
                6 | 7 => Variant::String(self.string().into()),
                8 => Variant::Vector2(self.v2()),
                9 => Variant::Rect2(Rect2::new(self.v2(), self.v2())),
                10 => Variant::Vector3(self.v3()),
                11 => Variant::Transform2D(Box::new(Transform2D::new(
                    self.v2(),
                    self.v2(),
                    self.v2(),
                ))),
                12 => Variant::Plane(Plane::new(self.v3(), self.real())),
                13 => Variant::Quaternion(Quaternion::new(
                    self.real(),
                    self.real(),
                    self.real(),
                    self.real(),
                )),
                14 => Variant::Aabb(Box::new(Aabb::new(self.v3(), self.v3()))),
                15 => Variant::Basis(Box::new(Basis::from_rows(self.v3(), self.v3(), self.v3()))),
                16 => Variant::Transform3D(Box::new(Transform3D::new(
                    Basis::from_rows(self.v3(), self.v3(), self.v3()),
                    self.v3(),
                ))),
                17 => Variant::Color(self.color()),
                18 => Variant::NodePath(Box::new(self.node_path())),
                19 => Variant::Rid(Rid(if g4 { self.next() } else { 0 })),
                20 => Variant::ObjectId(ObjectId(self.next() | 1)),
                21 if depth > 0 => {
                    let mut d = Dictionary::new();
                    for _ in 0..self.below(4) {
                        d.insert(
                            self.variant(version, depth - 1),
                            self.variant(version, depth - 1),
                        );
                    }
                    if version.has_typed_dictionaries() && self.below(3) == 0 {
                        d.set_key_type(ContainerType::Builtin(VariantType::String));
                        d.set_value_type(ContainerType::ClassName("Node".into()));
                    }
                    Variant::Dictionary(d)
                }
                22 | 23 if depth > 0 => {
                    let items = self.vec(|r| r.variant(version, depth - 1));
                    let element_type = if version.has_typed_arrays() && self.bool() {
                        [
                            ContainerType::Builtin(VariantType::Int),
                            ContainerType::Script("res://a.gd".into()),
                        ][self.below(2) as usize]
                            .clone()
                    } else {
                        ContainerType::Untyped
                    };
                    Variant::Array(Box::new(Array {
                        element_type,
                        items,
                    }))
                }
                24 if depth > 0 => Variant::Object(Box::new(Object {
                    class: format!("C{}", self.string()),
                    properties: self.vec(|r| (r.string(), r.variant(version, depth - 1))),
                })),
                25 => Variant::PackedByteArray(PackedByteArray(self.vec(|r| r.next() as u8))),
                26 => Variant::PackedInt32Array(PackedInt32Array(self.vec(Rng::i32))),
                27 => Variant::PackedFloat32Array(PackedFloat32Array(self.vec(Rng::f32))),
                28 => Variant::PackedStringArray(PackedStringArray(self.vec(Rng::string))),
                29 => Variant::PackedVector2Array(PackedVector2Array(self.vec(Rng::v2))),
                30 => Variant::PackedVector3Array(PackedVector3Array(self.vec(Rng::v3))),
                31 => Variant::PackedColorArray(PackedColorArray(self.vec(Rng::color))),
                32 if g4 => Variant::Vector2i(Vector2i::new(self.i32(), self.i32())),
                33 if g4 => Variant::Rect2i(Rect2i::new(
                    Vector2i::new(self.i32(), self.i32()),
                    Vector2i::new(self.i32(), self.i32()),
                )),
                34 if g4 => Variant::Vector4(self.v4()),
                35 if g4 => Variant::Projection(Box::new(Projection::from_columns(
                    self.v4(),
                    self.v4(),
                    self.v4(),
                    self.v4(),
                ))),
                36 if g4 => Variant::StringName(StringName(self.string())),
                37 if g4 => {
                    Variant::Signal(Box::new(Signal::new(self.string(), ObjectId(self.next()))))
                }
                38 if g4 => {
                    Variant::PackedInt64Array(PackedInt64Array(self.vec(|r| r.next() as i64)))
                }
                39 if g4 => match self.below(3) {
                    0 => Variant::Callable(Callable),
                    1 => Variant::PackedFloat64Array(PackedFloat64Array(self.vec(Rng::float))),
                    _ if version.has_typed_arrays() => {
                        Variant::PackedVector4Array(PackedVector4Array(self.vec(Rng::v4)))
                    }
                    _ => Variant::Vector3i(Vector3i::new(self.i32(), self.i32(), self.i32())),
                },
                _ => continue,
            };
            return v;
        }
    }
}
