//! Property tests with a deterministic xorshift generator: random schemas of every base type
//! (scalars, arrays, nested struct/class) round-trip through the dynamic API, the encoded
//! size matches the size model (payload bytes + ceil(bits / 8), since bit bytes are filled
//! completely before a new one opens), and typed wrappers agree with the dynamic encoder.

use litebyte::{BaseType, Mode, Schema, Value};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a, T>(&mut self, s: &'a [T]) -> &'a T {
        &s[self.below(s.len() as u64) as usize]
    }
}

/// A random value for a base type, and its predicted (bytes, bits) on the wire.
fn gen_base(rng: &mut Rng, b: BaseType) -> (Value, u64, u64) {
    if let Some((lo, hi)) = b.int_range() {
        let v: i128 = match rng.below(4) {
            0 => lo,
            1 => hi,
            2 => 0,
            _ => lo + (rng.next() as i128).rem_euclid(hi - lo + 1),
        };
        let (bytes, bits) = int_size(b, v);
        let val = if b == BaseType::Bit1 {
            Value::Bool(v != 0)
        } else if b.is_signed_int() {
            Value::Int(v as i64)
        } else {
            Value::UInt(v as u64)
        };
        return (val, bytes, bits);
    }
    match b {
        BaseType::Float8 => (Value::F32(rng.below(256) as f32 / 255.0), 1, 0),
        // Float16/24 decode with decimal rounding; use values that survive it exactly.
        BaseType::Float16 => (
            Value::F32(*rng.pick(&[1.0f32, -2.5, 0.5, 1000.0, 0.125, -96.0])),
            2,
            0,
        ),
        BaseType::Float24 => (
            Value::F32(*rng.pick(&[1.0f32, -2.5, 123.5, 0.0625, -4096.0, 3.25])),
            3,
            0,
        ),
        BaseType::Float32 => (
            Value::F32(f32::from_bits(rng.next() as u32 & 0x7F7F_FFFF)),
            4,
            0,
        ),
        BaseType::Float64 => (
            Value::F64(f64::from_bits(rng.next() & 0x7FEF_FFFF_FFFF_FFFF)),
            8,
            0,
        ),
        _ => {
            // strings
            if rng.below(6) == 0 {
                return (Value::Null, 1, 0);
            }
            let pool: &[char] = if b == BaseType::Ascii {
                &['a', 'Z', '0', ' ', '~', '\t']
            } else {
                &['a', 'é', '冰', '😀', '\0', 'z']
            };
            let max = if rng.below(8) == 0 { 200 } else { 6 };
            let n = rng.below(max) as usize;
            let s: String = (0..n).map(|_| *rng.pick(pool)).collect();
            let (count, payload, bits) = match b {
                BaseType::Utf8 => (s.len(), s.len() as u64, 0),
                BaseType::Ascii => (s.len(), s.len() as u64, 0),
                BaseType::Unicode => {
                    let u = s.encode_utf16().count();
                    (u, 2 * u as u64, 0)
                }
                _ => {
                    let mut bytes = 0;
                    for c in s.chars() {
                        bytes += int_size(BaseType::VarUInt32, c as i128).0;
                    }
                    (s.chars().count(), bytes, 2 * s.chars().count() as u64)
                }
            };
            (Value::Str(s), leb_len(count as u64 + 1) + payload, bits)
        }
    }
}

fn leb_len(mut v: u64) -> u64 {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

/// (bytes, bits) of an integer-like type.
fn int_size(b: BaseType, v: i128) -> (u64, u64) {
    let name = b.name();
    if let Some(n) = name.strip_prefix("Bit") {
        return (0, n.parse().unwrap());
    }
    if let Some(w) = name
        .strip_prefix("VarInt")
        .or_else(|| name.strip_prefix("VarUInt"))
    {
        let tag_bits = match w {
            "16" => 1,
            "32" => 2,
            _ => 3,
        };
        let signed = name.starts_with("VarInt");
        for k in 1u32..=8 {
            let bits = 8 * k;
            let fits = if signed {
                v >= -(1i128 << (bits - 1)) && v < (1i128 << (bits - 1))
            } else {
                v < (1i128 << bits)
            };
            if fits {
                return (k as u64, tag_bits);
            }
        }
        unreachable!()
    }
    let w: u64 = name
        .trim_start_matches("UInt")
        .trim_start_matches("Int")
        .parse()
        .unwrap();
    (w / 8, 0)
}

#[test]
fn random_schemas_round_trip_with_predicted_size() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..2000 {
        let n_fields = 1 + rng.below(10) as usize;
        let inner_class = rng.below(2) == 0;
        let root_class = rng.below(2) == 0;
        let mut src = format!("{} T {{\n", if root_class { "class" } else { "struct" });
        let mut members = Vec::new();
        let (mut bytes, mut bits) = (0u64, if root_class { 1 } else { 0 });
        let inner_src = format!(
            "{} Inner {{ Bit3 k; UInt16 w; }}",
            if inner_class { "class" } else { "struct" }
        );
        for i in 0..n_fields {
            let name = format!("f{i}");
            match rng.below(8) {
                0 => {
                    // nested custom type
                    src += &format!("Inner {name};\n");
                    if inner_class && rng.below(3) == 0 {
                        members.push((name, Value::Null));
                        bits += 1;
                    } else {
                        let k = rng.below(8);
                        let w = rng.below(65536);
                        members.push((
                            name,
                            Value::object([("k", Value::UInt(k)), ("w", Value::UInt(w))]),
                        ));
                        bits += 3 + inner_class as u64;
                        bytes += 2;
                    }
                }
                1 | 2 => {
                    let b = *rng.pick(BaseType::ALL);
                    src += &format!("{}[] {name};\n", b.name());
                    if rng.below(5) == 0 {
                        members.push((name, Value::Null));
                        bytes += 1;
                    } else {
                        let len = rng.below(12);
                        let mut items = Vec::new();
                        for _ in 0..len {
                            let (v, by, bi) = gen_base(&mut rng, b);
                            items.push(v);
                            bytes += by;
                            bits += bi;
                        }
                        bytes += leb_len(len + 1);
                        members.push((name, Value::Array(items)));
                    }
                }
                _ => {
                    let b = *rng.pick(BaseType::ALL);
                    src += &format!("{} {name};\n", b.name());
                    let (v, by, bi) = gen_base(&mut rng, b);
                    members.push((name, v));
                    bytes += by;
                    bits += bi;
                }
            }
        }
        src += "}";
        let schema = Schema::from_lbs([], [src.as_str(), inner_src.as_str()]).unwrap();
        let value = Value::object(members);
        let enc = schema
            .encode("T", &value)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        assert_eq!(
            enc.len() as u64,
            bytes + bits.div_ceil(8),
            "case {case}: size\n{src}\n{value:?}"
        );
        let dec = schema
            .decode("T", &enc, Mode::Strict)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{src}"));
        assert_eq!(dec, value, "case {case}\n{src}");
    }
}

#[test]
fn typed_wrappers_agree_with_dynamic_encoder() {
    use litebyte::*;
    let mut rng = Rng(12345);
    for _ in 0..2000 {
        let b = *rng.pick(BaseType::ALL);
        let (v, _, _) = gen_base(&mut rng, b);
        let schema =
            Schema::from_lbs([], [format!("struct T {{ {} v; }}", b.name()).as_str()]).unwrap();
        let dynamic = schema
            .encode("T", &Value::object([("v", v.clone())]))
            .unwrap();
        macro_rules! typed {
            ($w:ident, $conv:expr) => {{
                let t = $w($conv);
                let bytes = to_bytes(&t).unwrap();
                let back: $w = from_bytes(&bytes).unwrap();
                assert_eq!(back, t, "{b}");
                bytes
            }};
        }
        let int = |v: &Value| match v {
            Value::Int(i) => *i as i128,
            Value::UInt(u) => *u as i128,
            Value::Bool(b) => *b as i128,
            _ => unreachable!(),
        };
        let f32v = |v: &Value| match v {
            Value::F32(f) => *f,
            _ => unreachable!(),
        };
        let s = |v: &Value| match v {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        };
        let typed = match b {
            BaseType::Bit1 => typed!(Bit1, int(&v) != 0),
            BaseType::Bit2 => typed!(Bit2, int(&v) as u8),
            BaseType::Bit3 => typed!(Bit3, int(&v) as u8),
            BaseType::Bit4 => typed!(Bit4, int(&v) as u8),
            BaseType::Bit5 => typed!(Bit5, int(&v) as u8),
            BaseType::Bit6 => typed!(Bit6, int(&v) as u8),
            BaseType::Bit7 => typed!(Bit7, int(&v) as u8),
            BaseType::Int8 => typed!(Int8, int(&v) as i8),
            BaseType::Int16 => typed!(Int16, int(&v) as i16),
            BaseType::Int24 => typed!(Int24, int(&v) as i32),
            BaseType::Int32 => typed!(Int32, int(&v) as i32),
            BaseType::Int40 => typed!(Int40, int(&v) as i64),
            BaseType::Int48 => typed!(Int48, int(&v) as i64),
            BaseType::Int56 => typed!(Int56, int(&v) as i64),
            BaseType::Int64 => typed!(Int64, int(&v) as i64),
            BaseType::UInt8 => typed!(UInt8, int(&v) as u8),
            BaseType::UInt16 => typed!(UInt16, int(&v) as u16),
            BaseType::UInt24 => typed!(UInt24, int(&v) as u32),
            BaseType::UInt32 => typed!(UInt32, int(&v) as u32),
            BaseType::UInt40 => typed!(UInt40, int(&v) as u64),
            BaseType::UInt48 => typed!(UInt48, int(&v) as u64),
            BaseType::UInt56 => typed!(UInt56, int(&v) as u64),
            BaseType::UInt64 => typed!(UInt64, int(&v) as u64),
            BaseType::VarInt16 => typed!(VarInt16, int(&v) as i16),
            BaseType::VarInt32 => typed!(VarInt32, int(&v) as i32),
            BaseType::VarInt64 => typed!(VarInt64, int(&v) as i64),
            BaseType::VarUInt16 => typed!(VarUInt16, int(&v) as u16),
            BaseType::VarUInt32 => typed!(VarUInt32, int(&v) as u32),
            BaseType::VarUInt64 => typed!(VarUInt64, int(&v) as u64),
            BaseType::Float8 => typed!(Float8, f32v(&v)),
            BaseType::Float16 => typed!(Float16, f32v(&v)),
            BaseType::Float24 => typed!(Float24, f32v(&v)),
            BaseType::Float32 => typed!(Float32, f32v(&v)),
            BaseType::Float64 => match v {
                Value::F64(f) => typed!(Float64, f),
                _ => unreachable!(),
            },
            BaseType::Ascii | BaseType::Unicode | BaseType::Utf8 | BaseType::VarUnicode => {
                let opt = s(&v);
                let (bytes, back) = match b {
                    BaseType::Ascii => {
                        let bytes = to_bytes(&opt.clone().map(Ascii)).unwrap();
                        let back: Option<Ascii> = from_bytes(&bytes).unwrap();
                        (bytes, back.map(|x| x.0))
                    }
                    BaseType::Unicode => {
                        let bytes = to_bytes(&opt.clone().map(Unicode)).unwrap();
                        let back: Option<Unicode> = from_bytes(&bytes).unwrap();
                        (bytes, back.map(|x| x.0))
                    }
                    BaseType::Utf8 => {
                        let bytes = to_bytes(&opt.clone().map(Utf8)).unwrap();
                        let back: Option<Utf8> = from_bytes(&bytes).unwrap();
                        (bytes, back.map(|x| x.0))
                    }
                    _ => {
                        let bytes = to_bytes(&opt.clone().map(VarUnicode)).unwrap();
                        let back: Option<VarUnicode> = from_bytes(&bytes).unwrap();
                        (bytes, back.map(|x| x.0))
                    }
                };
                assert_eq!(back, opt, "{b}");
                bytes
            }
        };
        assert_eq!(typed, dynamic, "{b} {v:?}");
    }
}

#[test]
fn float8_every_byte_round_trips() {
    // decode: b / 255f; encode: v * 255f must give back exactly b for every byte.
    for b in 0..=255u8 {
        let v: litebyte::Float8 = litebyte::from_bytes(&[b]).unwrap();
        assert_eq!(litebyte::to_bytes(&v).unwrap(), [b], "byte {b}");
    }
}

#[test]
fn float16_every_pattern_reencodes() {
    // Every decoded Float16 value is inside the writer's range (|v| <= 1.31e5), so the
    // decoder never yields a value the encoder rejects.
    for p in 0..=u16::MAX {
        let bytes = p.to_le_bytes();
        let v: litebyte::Float16 = litebyte::from_bytes(&bytes).unwrap();
        litebyte::to_bytes(&v).unwrap_or_else(|e| panic!("{p:04x}: {v:?}: {e}"));
    }
}
