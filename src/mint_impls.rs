//! `From` conversions between the math types and mint's (feature `mint`), and `IntoMint`.
//!
//! Components are [`Real`](crate::Real) (`f32`, or `f64` with `double-precision`); [`Color`]
//! is `mint::Vector4<f32>` (r, g, b, a as x, y, z, w). [`Basis`] is a `RowMatrix3` (its rows)
//! or a `ColumnMatrix3`; [`Transform2D`] a `ColumnMatrix2x3` (columns x, y, origin);
//! [`Transform3D`] a `ColumnMatrix3x4` (basis columns, then origin); [`Projection`] a
//! `ColumnMatrix4`.

use crate::types::Real;
use crate::{
    Basis, Color, Projection, Quaternion, Transform2D, Transform3D, Vector2, Vector2i, Vector3,
    Vector3i, Vector4, Vector4i,
};
use mint::IntoMint;

macro_rules! vector {
    ($ours:ident, $mint:ident < $t:ty >, $($f:ident),+) => {
        #[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
        impl From<mint::$mint<$t>> for $ours {
            fn from(v: mint::$mint<$t>) -> Self {
                Self { $($f: v.$f),+ }
            }
        }
        #[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
        impl From<$ours> for mint::$mint<$t> {
            fn from(v: $ours) -> Self {
                Self { $($f: v.$f),+ }
            }
        }
        #[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
        impl IntoMint for $ours {
            type MintType = mint::$mint<$t>;
        }
    };
}

vector!(Vector2, Vector2<Real>, x, y);
vector!(Vector3, Vector3<Real>, x, y, z);
vector!(Vector4, Vector4<Real>, x, y, z, w);
vector!(Vector2i, Vector2<i32>, x, y);
vector!(Vector3i, Vector3<i32>, x, y, z);
vector!(Vector4i, Vector4<i32>, x, y, z, w);

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Color> for mint::Vector4<f32> {
    fn from(c: Color) -> Self {
        Self {
            x: c.r,
            y: c.g,
            z: c.b,
            w: c.a,
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<mint::Vector4<f32>> for Color {
    fn from(v: mint::Vector4<f32>) -> Self {
        Self {
            r: v.x,
            g: v.y,
            b: v.z,
            a: v.w,
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Quaternion> for mint::Quaternion<Real> {
    fn from(q: Quaternion) -> Self {
        Self {
            v: mint::Vector3 {
                x: q.x,
                y: q.y,
                z: q.z,
            },
            s: q.w,
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<mint::Quaternion<Real>> for Quaternion {
    fn from(q: mint::Quaternion<Real>) -> Self {
        Self {
            x: q.v.x,
            y: q.v.y,
            z: q.v.z,
            w: q.s,
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl IntoMint for Quaternion {
    type MintType = mint::Quaternion<Real>;
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Basis> for mint::RowMatrix3<Real> {
    fn from(b: Basis) -> Self {
        let [x, y, z] = b.rows;
        Self {
            x: x.into(),
            y: y.into(),
            z: z.into(),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<mint::RowMatrix3<Real>> for Basis {
    fn from(m: mint::RowMatrix3<Real>) -> Self {
        Self {
            rows: [m.x.into(), m.y.into(), m.z.into()],
        }
    }
}

/// Column `i` of a basis: the `i`th component of each row.
fn column(b: &Basis, i: usize) -> mint::Vector3<Real> {
    let [r0, r1, r2] = &b.rows;
    let pick = |r: &Vector3| match i {
        0 => r.x,
        1 => r.y,
        _ => r.z,
    };
    mint::Vector3 {
        x: pick(r0),
        y: pick(r1),
        z: pick(r2),
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Basis> for mint::ColumnMatrix3<Real> {
    fn from(b: Basis) -> Self {
        Self {
            x: column(&b, 0),
            y: column(&b, 1),
            z: column(&b, 2),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<mint::ColumnMatrix3<Real>> for Basis {
    fn from(m: mint::ColumnMatrix3<Real>) -> Self {
        Self {
            rows: [
                Vector3::new(m.x.x, m.y.x, m.z.x),
                Vector3::new(m.x.y, m.y.y, m.z.y),
                Vector3::new(m.x.z, m.y.z, m.z.z),
            ],
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl IntoMint for Basis {
    type MintType = mint::ColumnMatrix3<Real>;
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Transform2D> for mint::ColumnMatrix2x3<Real> {
    fn from(t: Transform2D) -> Self {
        Self {
            x: t.x.into(),
            y: t.y.into(),
            z: t.origin.into(),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<mint::ColumnMatrix2x3<Real>> for Transform2D {
    fn from(m: mint::ColumnMatrix2x3<Real>) -> Self {
        Self {
            x: m.x.into(),
            y: m.y.into(),
            origin: m.z.into(),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl IntoMint for Transform2D {
    type MintType = mint::ColumnMatrix2x3<Real>;
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Transform3D> for mint::ColumnMatrix3x4<Real> {
    fn from(t: Transform3D) -> Self {
        let basis = mint::ColumnMatrix3::from(t.basis);
        Self {
            x: basis.x,
            y: basis.y,
            z: basis.z,
            w: t.origin.into(),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<mint::ColumnMatrix3x4<Real>> for Transform3D {
    fn from(m: mint::ColumnMatrix3x4<Real>) -> Self {
        Self {
            basis: mint::ColumnMatrix3 {
                x: m.x,
                y: m.y,
                z: m.z,
            }
            .into(),
            origin: m.w.into(),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl IntoMint for Transform3D {
    type MintType = mint::ColumnMatrix3x4<Real>;
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Projection> for mint::ColumnMatrix4<Real> {
    fn from(p: Projection) -> Self {
        let [x, y, z, w] = p.columns;
        Self {
            x: x.into(),
            y: y.into(),
            z: z.into(),
            w: w.into(),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<mint::ColumnMatrix4<Real>> for Projection {
    fn from(m: mint::ColumnMatrix4<Real>) -> Self {
        Self {
            columns: [m.x.into(), m.y.into(), m.z.into(), m.w.into()],
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl IntoMint for Projection {
    type MintType = mint::ColumnMatrix4<Real>;
}
