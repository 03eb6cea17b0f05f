//! Conversions between the math types and glam / mint (features `glam`, `mint`), in single
//! and double precision (`double-precision` switches glam's types to the `D` ones).

use godot_serde::{
    Basis, Color, Projection, Quaternion, Transform2D, Transform3D, Vector2, Vector2i, Vector3,
    Vector3i, Vector4, Vector4i,
};

fn basis() -> Basis {
    // Distinct entries: row i, column j holds 10 * i + j + 1.
    Basis {
        rows: [
            Vector3::new(1.0, 2.0, 3.0),
            Vector3::new(11.0, 12.0, 13.0),
            Vector3::new(21.0, 22.0, 23.0),
        ],
    }
}

fn transform3d() -> Transform3D {
    Transform3D {
        basis: basis(),
        origin: Vector3::new(-1.0, -2.0, -3.0),
    }
}

fn transform2d() -> Transform2D {
    Transform2D::new(
        Vector2::new(1.0, 2.0),
        Vector2::new(3.0, 4.0),
        Vector2::new(5.0, 6.0),
    )
}

fn projection() -> Projection {
    let c = |i: u8| {
        let b = godot_serde::Real::from(i * 4);
        Vector4::new(b, b + 1.0, b + 2.0, b + 3.0)
    };
    Projection {
        columns: [c(0), c(1), c(2), c(3)],
    }
}

#[cfg(feature = "glam")]
mod glam_tests {
    use super::*;
    #[cfg(not(feature = "double-precision"))]
    use glam::{Affine2, Affine3A as Affine3, Mat3, Mat4, Quat, Vec2, Vec3, Vec4};
    #[cfg(feature = "double-precision")]
    use glam::{
        DAffine2 as Affine2, DAffine3 as Affine3, DMat3 as Mat3, DMat4 as Mat4, DQuat as Quat,
        DVec2 as Vec2, DVec3 as Vec3, DVec4 as Vec4,
    };

    #[test]
    fn vectors() {
        assert_eq!(Vec2::from(Vector2::new(1.0, 2.0)), Vec2::new(1.0, 2.0));
        assert_eq!(Vector2::from(Vec2::new(1.0, 2.0)), Vector2::new(1.0, 2.0));
        assert_eq!(
            Vec3::from(Vector3::new(1.0, 2.0, 3.0)),
            Vec3::new(1.0, 2.0, 3.0)
        );
        assert_eq!(
            Vector3::from(Vec3::new(1.0, 2.0, 3.0)),
            Vector3::new(1.0, 2.0, 3.0)
        );
        assert_eq!(
            Vec4::from(Vector4::new(1.0, 2.0, 3.0, 4.0)),
            Vec4::new(1.0, 2.0, 3.0, 4.0)
        );
        assert_eq!(
            Vector4::from(Vec4::new(1.0, 2.0, 3.0, 4.0)),
            Vector4::new(1.0, 2.0, 3.0, 4.0)
        );
        assert_eq!(
            glam::IVec2::from(Vector2i::new(-1, 2)),
            glam::IVec2::new(-1, 2)
        );
        assert_eq!(
            Vector2i::from(glam::IVec2::new(-1, 2)),
            Vector2i::new(-1, 2)
        );
        assert_eq!(
            Vector3i::from(glam::IVec3::new(1, 2, 3)),
            Vector3i::new(1, 2, 3)
        );
        assert_eq!(
            glam::IVec3::from(Vector3i::new(1, 2, 3)),
            glam::IVec3::new(1, 2, 3)
        );
        assert_eq!(
            Vector4i::from(glam::IVec4::new(1, 2, 3, 4)),
            Vector4i::new(1, 2, 3, 4)
        );
        assert_eq!(
            glam::IVec4::from(Vector4i::new(1, 2, 3, 4)),
            glam::IVec4::new(1, 2, 3, 4)
        );
        // Color is always f32.
        let c = Color::new(0.1, 0.2, 0.3, 0.4);
        assert_eq!(glam::Vec4::from(c), glam::Vec4::new(0.1, 0.2, 0.3, 0.4));
        assert_eq!(Color::from(glam::Vec4::new(0.1, 0.2, 0.3, 0.4)), c);
    }

    #[test]
    fn quaternion() {
        let q = Quaternion {
            x: 0.1,
            y: 0.2,
            z: 0.3,
            w: 0.9,
        };
        let g = Quat::from(q);
        assert_eq!((g.x, g.y, g.z, g.w), (0.1, 0.2, 0.3, 0.9));
        assert_eq!(Quaternion::from(g), q);
    }

    #[test]
    fn basis_rows_are_matrix_rows() {
        let m = Mat3::from(basis());
        assert_eq!(m.row(0), Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(m.row(2), Vec3::new(21.0, 22.0, 23.0));
        // glam is column-major: the first column is the first component of every row.
        assert_eq!(m.x_axis, Vec3::new(1.0, 11.0, 21.0));
        assert_eq!(Basis::from(m), basis());
        // Both transform a vector the same way: Godot's Basis * v is (row_i · v).
        let v = Vec3::new(1.0, 0.0, -1.0);
        assert_eq!(m * v, Vec3::new(1.0 - 3.0, 11.0 - 13.0, 21.0 - 23.0));
    }

    #[test]
    // Affine3A's fields are Mat3A/Vec3A; DAffine3's are DMat3/DVec3 already.
    #[allow(clippy::useless_conversion)]
    fn transforms() {
        let a = Affine3::from(transform3d());
        assert_eq!(Vec3::from(a.translation), Vec3::new(-1.0, -2.0, -3.0));
        assert_eq!(Mat3::from(a.matrix3), Mat3::from(basis()));
        assert_eq!(Transform3D::from(a), transform3d());
        let m = Mat4::from(transform3d());
        assert_eq!(m.w_axis, Vec4::new(-1.0, -2.0, -3.0, 1.0));
        assert_eq!(m.row(0), Vec4::new(1.0, 2.0, 3.0, -1.0));
        assert_eq!(m.row(3), Vec4::new(0.0, 0.0, 0.0, 1.0));

        let a = Affine2::from(transform2d());
        assert_eq!(a.matrix2.x_axis, Vec2::new(1.0, 2.0));
        assert_eq!(a.matrix2.y_axis, Vec2::new(3.0, 4.0));
        assert_eq!(a.translation, Vec2::new(5.0, 6.0));
        assert_eq!(a.transform_point2(Vec2::new(1.0, 0.0)), Vec2::new(6.0, 8.0));
        assert_eq!(Transform2D::from(a), transform2d());
    }

    #[test]
    fn projection_columns() {
        let m = Mat4::from(projection());
        assert_eq!(m.x_axis, Vec4::new(0.0, 1.0, 2.0, 3.0));
        assert_eq!(m.w_axis, Vec4::new(12.0, 13.0, 14.0, 15.0));
        assert_eq!(m.row(0), Vec4::new(0.0, 4.0, 8.0, 12.0));
        assert_eq!(Projection::from(m), projection());
    }
}

#[cfg(feature = "mint")]
mod mint_tests {
    use super::*;
    use godot_serde::Real;
    use mint::IntoMint;

    fn into_mint<T: IntoMint>(v: T) -> T::MintType {
        v.into()
    }

    #[test]
    fn vectors_and_quaternion() {
        let v: mint::Vector3<Real> = into_mint(Vector3::new(1.0, 2.0, 3.0));
        assert_eq!((v.x, v.y, v.z), (1.0, 2.0, 3.0));
        assert_eq!(Vector3::from(v), Vector3::new(1.0, 2.0, 3.0));
        let v = mint::Vector2::<Real>::from(Vector2::new(1.0, 2.0));
        assert_eq!(Vector2::from(v), Vector2::new(1.0, 2.0));
        let v = mint::Vector4::<Real>::from(Vector4::new(1.0, 2.0, 3.0, 4.0));
        assert_eq!((v.x, v.w), (1.0, 4.0));
        assert_eq!(Vector4::from(v), Vector4::new(1.0, 2.0, 3.0, 4.0));
        let v: mint::Vector2<i32> = into_mint(Vector2i::new(-1, 2));
        assert_eq!(Vector2i::from(v), Vector2i::new(-1, 2));
        assert_eq!(
            Vector3i::from(mint::Vector3 { x: 1, y: 2, z: 3 }),
            Vector3i::new(1, 2, 3)
        );
        let v = mint::Vector4::<i32>::from(Vector4i::new(1, 2, 3, 4));
        assert_eq!(Vector4i::from(v), Vector4i::new(1, 2, 3, 4));
        let c = Color::new(0.1, 0.2, 0.3, 0.4);
        let m = mint::Vector4::<f32>::from(c);
        assert_eq!((m.x, m.y, m.z, m.w), (0.1, 0.2, 0.3, 0.4));
        assert_eq!(Color::from(m), c);
        let q = Quaternion {
            x: 0.1,
            y: 0.2,
            z: 0.3,
            w: 0.9,
        };
        let m: mint::Quaternion<Real> = into_mint(q);
        assert_eq!((m.v.x, m.v.y, m.v.z, m.s), (0.1, 0.2, 0.3, 0.9));
        assert_eq!(Quaternion::from(m), q);
    }

    #[test]
    fn matrices() {
        let rows = mint::RowMatrix3::<Real>::from(basis());
        assert_eq!((rows.y.x, rows.y.y, rows.y.z), (11.0, 12.0, 13.0));
        assert_eq!(Basis::from(rows), basis());
        let cols: mint::ColumnMatrix3<Real> = into_mint(basis());
        assert_eq!((cols.x.x, cols.x.y, cols.x.z), (1.0, 11.0, 21.0));
        assert_eq!((cols.z.x, cols.z.y, cols.z.z), (3.0, 13.0, 23.0));
        assert_eq!(Basis::from(cols), basis());

        let t: mint::ColumnMatrix3x4<Real> = into_mint(transform3d());
        assert_eq!((t.x.y, t.w.x, t.w.z), (11.0, -1.0, -3.0));
        assert_eq!(Transform3D::from(t), transform3d());
        let t: mint::ColumnMatrix2x3<Real> = into_mint(transform2d());
        assert_eq!((t.x.x, t.y.y, t.z.x), (1.0, 4.0, 5.0));
        assert_eq!(Transform2D::from(t), transform2d());
        let p: mint::ColumnMatrix4<Real> = into_mint(projection());
        assert_eq!((p.x.w, p.w.x), (3.0, 12.0));
        assert_eq!(Projection::from(p), projection());
    }
}

#[cfg(all(feature = "glam", feature = "mint"))]
#[test]
fn glam_and_mint_agree_on_basis() {
    #[cfg(feature = "double-precision")]
    use glam::DMat3 as Mat3;
    #[cfg(not(feature = "double-precision"))]
    use glam::Mat3;
    let g = Mat3::from(basis());
    let m = mint::ColumnMatrix3::<godot_serde::Real>::from(basis());
    assert_eq!(g.to_cols_array_2d(), <[[godot_serde::Real; 3]; 3]>::from(m));
}
