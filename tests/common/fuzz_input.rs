//! Reading choices from a fuzz input, shared by the value generators of the fuzz bodies
//! (`fuzz_checks.rs`'s `Gen` and `text_roundtrip.rs`'s `Gen`): each read takes bytes from the
//! front of the input, and reads past its end give zeros, so every input makes a value.
#![allow(dead_code)]

use godot_serde::{Color, Real, Vector2, Vector3, Vector4};

/// Fixed-size reads from the front of a fuzz input; zeros once it runs out.
pub trait Draw<'a> {
    /// The part of the input not read yet.
    fn rest(&mut self) -> &mut &'a [u8];

    /// An f32 component or colour channel (each generator has its own value space).
    fn f32(&mut self) -> f32;

    /// One byte, or 0 past the end.
    fn byte(&mut self) -> u8 {
        let rest = self.rest();
        let data: &'a [u8] = rest;
        match data.split_first() {
            Some((&b, tail)) => {
                *rest = tail;
                b
            }
            None => 0,
        }
    }

    /// `N` bytes, zeros past the end.
    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        for b in &mut out {
            *b = self.byte();
        }
        out
    }

    /// A length from 0 to `max`.
    fn len(&mut self, max: u8) -> usize {
        usize::from(self.byte() % (max + 1))
    }

    /// An `i32` from four little-endian bytes.
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.bytes())
    }

    /// An `i64` from eight little-endian bytes.
    fn i64(&mut self) -> i64 {
        i64::from_le_bytes(self.bytes())
    }

    /// A `u64` from eight little-endian bytes.
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.bytes())
    }

    /// A math component: an f32, exact in `Real` whatever its width.
    #[allow(clippy::useless_conversion)] // Real is f32 without the double-precision feature
    fn real(&mut self) -> Real {
        self.f32().into()
    }

    fn v2(&mut self) -> Vector2 {
        Vector2::new(self.real(), self.real())
    }

    fn v3(&mut self) -> Vector3 {
        Vector3::new(self.real(), self.real(), self.real())
    }

    fn v4(&mut self) -> Vector4 {
        Vector4::new(self.real(), self.real(), self.real(), self.real())
    }

    fn color(&mut self) -> Color {
        Color::new(self.f32(), self.f32(), self.f32(), self.f32())
    }

    /// Up to `max` values made by `f`.
    fn list<T>(&mut self, max: u8, mut f: impl FnMut(&mut Self) -> T) -> Vec<T>
    where
        Self: Sized,
    {
        let n = self.len(max);
        (0..n).map(|_| f(self)).collect()
    }
}
