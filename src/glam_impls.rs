//! `From` conversions between the math types and glam's (feature `glam`).
//!
//! Components are [`Real`](crate::Real): `f32` types (`Vec2`, `Mat3`, `Affine3A`, ...) by
//! default, `f64` ones (`DVec2`, `DMat3`, `DAffine3`, ...) with `double-precision`. [`Color`]
//! is always `f32`: it converts to and from `Vec4` (r, g, b, a as x, y, z, w).
//!
//! [`Basis`] stores rows, glam's matrices columns: the conversions transpose, so that a
//! vector transformed by either gives the same result. [`Transform3D`] converts to and from
//! the affine type and into `Mat4`; [`Projection`] (columns) to and from `Mat4`.

#[cfg(not(feature = "double-precision"))]
use glam::{
    Affine2 as GAffine2, Affine3A as GAffine3, Mat3 as GMat3, Mat4 as GMat4, Quat as GQuat,
    Vec2 as GVec2, Vec3 as GVec3, Vec4 as GVec4,
};
#[cfg(feature = "double-precision")]
use glam::{
    DAffine2 as GAffine2, DAffine3 as GAffine3, DMat3 as GMat3, DMat4 as GMat4, DQuat as GQuat,
    DVec2 as GVec2, DVec3 as GVec3, DVec4 as GVec4,
};
use glam::{IVec2, IVec3, IVec4, Vec4};

use crate::{
    Basis, Color, Projection, Quaternion, Transform2D, Transform3D, Vector2, Vector2i, Vector3,
    Vector3i, Vector4, Vector4i,
};

macro_rules! vector {
    ($ours:ident, $theirs:ty, $($f:ident),+) => {
        #[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
        impl From<$theirs> for $ours {
            fn from(v: $theirs) -> Self {
                Self { $($f: v.$f),+ }
            }
        }
        #[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
        impl From<$ours> for $theirs {
            fn from(v: $ours) -> Self {
                Self::new($(v.$f),+)
            }
        }
    };
}

vector!(Vector2, GVec2, x, y);
vector!(Vector3, GVec3, x, y, z);
vector!(Vector4, GVec4, x, y, z, w);
vector!(Vector2i, IVec2, x, y);
vector!(Vector3i, IVec3, x, y, z);
vector!(Vector4i, IVec4, x, y, z, w);

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<GQuat> for Quaternion {
    fn from(q: GQuat) -> Self {
        Self {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Quaternion> for GQuat {
    fn from(q: Quaternion) -> Self {
        Self::from_xyzw(q.x, q.y, q.z, q.w)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Color> for Vec4 {
    fn from(c: Color) -> Self {
        Self::new(c.r, c.g, c.b, c.a)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Vec4> for Color {
    fn from(v: Vec4) -> Self {
        Self {
            r: v.x,
            g: v.y,
            b: v.z,
            a: v.w,
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Basis> for GMat3 {
    /// Rows become rows: `Mat3::row(i)` is `basis.rows[i]`.
    fn from(b: Basis) -> Self {
        let [r0, r1, r2] = b.rows;
        Self::from_cols(r0.into(), r1.into(), r2.into()).transpose()
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<GMat3> for Basis {
    fn from(m: GMat3) -> Self {
        Self {
            rows: [m.row(0).into(), m.row(1).into(), m.row(2).into()],
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Transform3D> for GAffine3 {
    fn from(t: Transform3D) -> Self {
        Self::from_mat3_translation(t.basis.into(), t.origin.into())
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<GAffine3> for Transform3D {
    // Affine3A holds SIMD Mat3A/Vec3A (a real conversion); DAffine3 holds DMat3/DVec3.
    #[allow(clippy::useless_conversion)]
    fn from(a: GAffine3) -> Self {
        Self {
            basis: GMat3::from(a.matrix3).into(),
            origin: GVec3::from(a.translation).into(),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Transform3D> for GMat4 {
    /// The affine matrix, last row `(0, 0, 0, 1)`.
    fn from(t: Transform3D) -> Self {
        GAffine3::from(t).into()
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Transform2D> for GAffine2 {
    fn from(t: Transform2D) -> Self {
        Self::from_cols(t.x.into(), t.y.into(), t.origin.into())
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<GAffine2> for Transform2D {
    fn from(a: GAffine2) -> Self {
        Self {
            x: a.matrix2.x_axis.into(),
            y: a.matrix2.y_axis.into(),
            origin: a.translation.into(),
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Projection> for GMat4 {
    /// Columns become columns.
    fn from(p: Projection) -> Self {
        let [c0, c1, c2, c3] = p.columns;
        Self::from_cols(c0.into(), c1.into(), c2.into(), c3.into())
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<GMat4> for Projection {
    fn from(m: GMat4) -> Self {
        Self {
            columns: [
                m.x_axis.into(),
                m.y_axis.into(),
                m.z_axis.into(),
                m.w_axis.into(),
            ],
        }
    }
}
