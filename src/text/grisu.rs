//! Grisu2 (Loitsch, "Printing Floating-Point Numbers Quickly and Accurately with Integers",
//! PLDI 2010), the float-to-decimal conversion Godot 4 prints floats with
//! (`thirdparty/grisu2/grisu2.h`, behind `String::num_scientific` and so `var_to_str`).
//!
//! Grisu2 gives digits that read back to the same value, but not always the shortest ones
//! (it keeps clear of the rounding boundaries: `3e10` as an f32 prints `30000001000`) nor the
//! nearest ones (its arithmetic is approximate: `320610.875` as an f32 prints `320610.87`).
//! Byte-identical text therefore needs the same algorithm, step for step: the boundaries of
//! the value in its own precision (f32 or f64), 64-bit "do-it-yourself" floats, the cached
//! powers of ten below and its digit generation and rounding.

/// A float as a 64-bit significand and a binary exponent: `f × 2^e`.
#[derive(Clone, Copy)]
struct DiyFp {
    f: u64,
    e: i32,
}

impl DiyFp {
    /// `x - y` for the same exponent and `x.f >= y.f`.
    fn sub(self, y: DiyFp) -> DiyFp {
        DiyFp {
            f: self.f.wrapping_sub(y.f),
            e: self.e,
        }
    }

    /// The upper 64 bits of the 128-bit product, rounded half up.
    fn mul(self, y: DiyFp) -> DiyFp {
        let p = u128::from(self.f) * u128::from(y.f);
        #[allow(clippy::cast_possible_truncation)] // the upper half of a 128-bit product
        let f = ((p + (1u128 << 63)) >> 64) as u64;
        DiyFp {
            f,
            e: self.e + y.e + 64,
        }
    }

    /// Shifted so that the highest bit is set (`f` is not zero).
    fn normalize(self) -> DiyFp {
        let s = self.f.leading_zeros();
        DiyFp {
            f: self.f << s,
            e: self.e - s.cast_signed(),
        }
    }

    /// Shifted to exponent `e` (not above its own).
    fn normalize_to(self, e: i32) -> DiyFp {
        DiyFp {
            f: self.f << (self.e - e).unsigned_abs(),
            e,
        }
    }
}

/// `(10^k)` normalised to 64 bits and rounded to nearest, as `(f, e, k)` with
/// `f × 2^e ≈ 10^k`, for `k = -300, -292, ..., 324` (computed with exact rational arithmetic;
/// e.g. `10^0` is `(1 << 63, -63, 0)`).
#[rustfmt::skip]
const CACHED_POWERS: [(u64, i32, i32); 79] = [
    (0xAB70FE17C79AC6CA, -1060, -300),
    (0xFF77B1FCBEBCDC4F, -1034, -292),
    (0xBE5691EF416BD60C, -1007, -284),
    (0x8DD01FAD907FFC3C, -980, -276),
    (0xD3515C2831559A83, -954, -268),
    (0x9D71AC8FADA6C9B5, -927, -260),
    (0xEA9C227723EE8BCB, -901, -252),
    (0xAECC49914078536D, -874, -244),
    (0x823C12795DB6CE57, -847, -236),
    (0xC21094364DFB5637, -821, -228),
    (0x9096EA6F3848984F, -794, -220),
    (0xD77485CB25823AC7, -768, -212),
    (0xA086CFCD97BF97F4, -741, -204),
    (0xEF340A98172AACE5, -715, -196),
    (0xB23867FB2A35B28E, -688, -188),
    (0x84C8D4DFD2C63F3B, -661, -180),
    (0xC5DD44271AD3CDBA, -635, -172),
    (0x936B9FCEBB25C996, -608, -164),
    (0xDBAC6C247D62A584, -582, -156),
    (0xA3AB66580D5FDAF6, -555, -148),
    (0xF3E2F893DEC3F126, -529, -140),
    (0xB5B5ADA8AAFF80B8, -502, -132),
    (0x87625F056C7C4A8B, -475, -124),
    (0xC9BCFF6034C13053, -449, -116),
    (0x964E858C91BA2655, -422, -108),
    (0xDFF9772470297EBD, -396, -100),
    (0xA6DFBD9FB8E5B88F, -369, -92),
    (0xF8A95FCF88747D94, -343, -84),
    (0xB94470938FA89BCF, -316, -76),
    (0x8A08F0F8BF0F156B, -289, -68),
    (0xCDB02555653131B6, -263, -60),
    (0x993FE2C6D07B7FAC, -236, -52),
    (0xE45C10C42A2B3B06, -210, -44),
    (0xAA242499697392D3, -183, -36),
    (0xFD87B5F28300CA0E, -157, -28),
    (0xBCE5086492111AEB, -130, -20),
    (0x8CBCCC096F5088CC, -103, -12),
    (0xD1B71758E219652C, -77, -4),
    (0x9C40000000000000, -50, 4),
    (0xE8D4A51000000000, -24, 12),
    (0xAD78EBC5AC620000, 3, 20),
    (0x813F3978F8940984, 30, 28),
    (0xC097CE7BC90715B3, 56, 36),
    (0x8F7E32CE7BEA5C70, 83, 44),
    (0xD5D238A4ABE98068, 109, 52),
    (0x9F4F2726179A2245, 136, 60),
    (0xED63A231D4C4FB27, 162, 68),
    (0xB0DE65388CC8ADA8, 189, 76),
    (0x83C7088E1AAB65DB, 216, 84),
    (0xC45D1DF942711D9A, 242, 92),
    (0x924D692CA61BE758, 269, 100),
    (0xDA01EE641A708DEA, 295, 108),
    (0xA26DA3999AEF774A, 322, 116),
    (0xF209787BB47D6B85, 348, 124),
    (0xB454E4A179DD1877, 375, 132),
    (0x865B86925B9BC5C2, 402, 140),
    (0xC83553C5C8965D3D, 428, 148),
    (0x952AB45CFA97A0B3, 455, 156),
    (0xDE469FBD99A05FE3, 481, 164),
    (0xA59BC234DB398C25, 508, 172),
    (0xF6C69A72A3989F5C, 534, 180),
    (0xB7DCBF5354E9BECE, 561, 188),
    (0x88FCF317F22241E2, 588, 196),
    (0xCC20CE9BD35C78A5, 614, 204),
    (0x98165AF37B2153DF, 641, 212),
    (0xE2A0B5DC971F303A, 667, 220),
    (0xA8D9D1535CE3B396, 694, 228),
    (0xFB9B7CD9A4A7443C, 720, 236),
    (0xBB764C4CA7A44410, 747, 244),
    (0x8BAB8EEFB6409C1A, 774, 252),
    (0xD01FEF10A657842C, 800, 260),
    (0x9B10A4E5E9913129, 827, 268),
    (0xE7109BFBA19C0C9D, 853, 276),
    (0xAC2820D9623BF429, 880, 284),
    (0x80444B5E7AA7CF85, 907, 292),
    (0xBF21E44003ACDD2D, 933, 300),
    (0x8E679C2F5E44FF8F, 960, 308),
    (0xD433179D9C8CB841, 986, 316),
    (0x9E19DB92B4E31BA9, 1013, 324),
];

/// The lowest binary exponent of a product with a cached power.
const ALPHA: i32 = -60;

/// Digits `buf` (ASCII) and `exp` with `value = digits × 10^exp`, for a positive finite
/// value given by its significand `bits` without the hidden bit, biased exponent `biased`,
/// and its format's precision (24 for f32, 53 for f64) and bias.
fn grisu2(fraction: u64, biased: u64, precision: u32, bias: i32) -> (Vec<u8>, i32) {
    let hidden = 1u64 << (precision - 1);
    let min_exp = 1 - bias;
    let biased_i = i32::try_from(biased).unwrap_or(0);
    let v = if biased == 0 {
        DiyFp {
            f: fraction,
            e: min_exp,
        }
    } else {
        DiyFp {
            f: fraction + hidden,
            e: biased_i - bias,
        }
    };
    let lower_closer = fraction == 0 && biased > 1;
    let m_plus = DiyFp {
        f: 2 * v.f + 1,
        e: v.e - 1,
    }
    .normalize();
    let m_minus = if lower_closer {
        DiyFp {
            f: 4 * v.f - 1,
            e: v.e - 2,
        }
    } else {
        DiyFp {
            f: 2 * v.f - 1,
            e: v.e - 1,
        }
    }
    .normalize_to(m_plus.e);
    let v = v.normalize();

    // A cached power c = 10^-k that brings the product's exponent into [-60, -32].
    let f = ALPHA - m_plus.e - 1;
    let k = (f * 78913) / (1 << 18) + i32::from(f > 0);
    let index = usize::try_from((300 + k + 7) / 8).unwrap_or(0);
    let Some(&(cf, ce, ck)) = CACHED_POWERS.get(index) else {
        // Unreachable for f32 and f64 exponents: the table covers them all.
        return (b"0".to_vec(), 0);
    };
    let c = DiyFp { f: cf, e: ce };
    let w = v.mul(c);
    let w_minus = m_minus.mul(c);
    let w_plus = m_plus.mul(c);
    // The exact boundaries may lie one unit off either way: stay inside.
    let lo = DiyFp {
        f: w_minus.f.wrapping_add(1),
        e: w_minus.e,
    };
    let hi = DiyFp {
        f: w_plus.f.wrapping_sub(1),
        e: w_plus.e,
    };
    let mut exp = -ck;
    let mut buf = Vec::with_capacity(20);

    let mut delta = hi.sub(lo).f;
    let mut dist = hi.sub(w).f;
    let shift = (-hi.e).unsigned_abs();
    let one = 1u64 << shift;
    #[allow(clippy::cast_possible_truncation)] // -e >= 32: the integral part fits in 32 bits
    let mut p1 = (hi.f >> shift) as u32;
    let mut p2 = hi.f & (one - 1);

    // The integral part, digit by digit, until the rest fits in the interval.
    let mut pow10 = 1u32;
    let mut n = 1i32;
    while let Some(next) = pow10.checked_mul(10).filter(|&p| p <= p1) {
        pow10 = next;
        n += 1;
    }
    while n > 0 {
        let d = p1 / pow10;
        p1 %= pow10;
        buf.push(b'0' + u8::try_from(d).unwrap_or(0));
        n -= 1;
        let rest = (u64::from(p1) << shift) + p2;
        if rest <= delta {
            exp += n;
            round(&mut buf, dist, delta, rest, u64::from(pow10) << shift);
            return (buf, exp);
        }
        pow10 /= 10;
    }
    // The fractional part.
    let mut m = 0;
    loop {
        p2 = p2.wrapping_mul(10);
        let d = p2 >> shift;
        p2 &= one - 1;
        buf.push(b'0' + u8::try_from(d).unwrap_or(0));
        m += 1;
        delta = delta.wrapping_mul(10);
        dist = dist.wrapping_mul(10);
        if p2 <= delta {
            break;
        }
    }
    exp -= m;
    round(&mut buf, dist, delta, p2, one);
    (buf, exp)
}

/// Moves the last digit down while that brings the digits closer to the value and keeps
/// them inside the interval.
fn round(buf: &mut [u8], dist: u64, delta: u64, mut rest: u64, ten_k: u64) {
    while rest < dist
        && delta.saturating_sub(rest) >= ten_k
        && (rest.saturating_add(ten_k) < dist
            || dist - rest > rest.saturating_add(ten_k).saturating_sub(dist))
    {
        if let Some(last) = buf.last_mut() {
            *last = last.saturating_sub(1);
        }
        rest = rest.saturating_add(ten_k);
    }
}

/// Grisu2 digits of a positive finite f64: `(digits, exp)` with `v = digits × 10^exp`.
pub(crate) fn digits_f64(v: f64) -> (Vec<u8>, i32) {
    let bits = v.to_bits();
    grisu2(bits & ((1 << 52) - 1), (bits >> 52) & 0x7ff, 53, 1075)
}

/// Grisu2 digits of a positive finite f32, with the boundaries of an f32.
pub(crate) fn digits_f32(v: f32) -> (Vec<u8>, i32) {
    let bits = u64::from(v.to_bits());
    grisu2(bits & ((1 << 23) - 1), (bits >> 23) & 0xff, 24, 150)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(d: (Vec<u8>, i32)) -> String {
        format!("{}e{}", String::from_utf8(d.0).unwrap(), d.1)
    }

    /// Values the Godot 4.6 engine printed with `var_to_str` (components of math types are
    /// f32): where Grisu2 differs from the shortest-nearest digits, and where it agrees.
    #[test]
    fn digits_match_the_engine() {
        assert_eq!(text(digits_f32(30_000_001_024.0)), "30000001e3");
        let tie: f32 = "320610.875".parse().unwrap(); // exactly an f32, halfway between .87 and .88
        assert_eq!(text(digits_f32(tie)), "32061087e-2");
        assert_eq!(text(digits_f32(119_853_744.0)), "119853744e0");
        assert_eq!(text(digits_f32(0.1)), "1e-1");
        assert_eq!(text(digits_f64(0.1)), "1e-1");
        assert_eq!(text(digits_f64(1e300)), "1e300");
        assert_eq!(text(digits_f64(5e-324)), "5e-324");
        assert_eq!(text(digits_f32(f32::MAX)), "34028235e31");
        assert_eq!(text(digits_f64(1.0 / 3.0)), "3333333333333333e-16");
    }
}
