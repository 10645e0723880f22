//! Test problems shared by the cross-crate tests, written out from `docs/models.md`
//! independently of the `models` crate.
#![allow(dead_code)]

use homogeneous::TangentSphere2;
use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};
use schemes::special::jacobi_sn_cn_dn;

/// The exact free rigid body ṁ = m × I⁻¹m with I₁ < I₂ < I₃ and m(0) = (a, 0, c), M² > 2EI₂.
pub fn free_rigid_body_exact(inertia: Vector3<f64>, m0: Vector3<f64>, t: f64) -> Vector3<f64> {
    let (i1, i2, i3) = (inertia[0], inertia[1], inertia[2]);
    let m2 = m0.norm_squared();
    let e2 = m0[0] * m0[0] / i1 + m0[1] * m0[1] / i2 + m0[2] * m0[2] / i3;
    assert!(m0[1] == 0.0 && m2 > e2 * i2);
    let a = (i1 * (e2 * i3 - m2) / (i3 - i1)).sqrt();
    let b = (i2 * (e2 * i3 - m2) / (i3 - i2)).sqrt();
    let c = (i3 * (m2 - e2 * i1) / (i3 - i1)).sqrt();
    let lambda = ((i3 - i2) * (m2 - e2 * i1) / (i1 * i2 * i3)).sqrt();
    let k2 = (i2 - i1) * (e2 * i3 - m2) / ((i3 - i2) * (m2 - e2 * i1));
    let (sn, cn, dn) = jacobi_sn_cn_dn(lambda * t, k2);
    Vector3::new(a * cn, b * sn, c * dn).component_mul(&Vector3::new(
        m0[0].signum(),
        1.0,
        m0[2].signum(),
    ))
}

/// The 2-fold pendulum with L = m = 1 [CCLMO22 §5], written out from `docs/models.md`
/// independently of the `models` crate: R(q) ω̇ = r, f(q, ω) = (ωᵢ, qᵢ × ω̇ᵢ).
pub fn pendulum2(_t: f64, p: &[TangentSphere2; 2]) -> [Vector6<f64>; 2] {
    let g = 9.81;
    let e3 = Vector3::z();
    let (q1, q2) = (*p[0].q(), *p[1].q());
    let (w1, w2) = (*p[0].omega(), *p[1].omega());
    let h1 = q1.cross_matrix();
    let h2 = q2.cross_matrix();
    let mut r = Matrix6::zeros();
    r.fixed_view_mut::<3, 3>(0, 0)
        .copy_from(&(2.0 * Matrix3::identity()));
    r.fixed_view_mut::<3, 3>(3, 3)
        .copy_from(&Matrix3::identity());
    let r12 = h1.transpose() * h2;
    r.fixed_view_mut::<3, 3>(0, 3).copy_from(&r12);
    r.fixed_view_mut::<3, 3>(3, 0).copy_from(&r12.transpose());
    let r1 = w2.norm_squared() * h1 * q2 - 2.0 * g * h1 * e3;
    let r2 = w1.norm_squared() * h2 * q1 - g * h2 * e3;
    let rhs = Vector6::new(r1[0], r1[1], r1[2], r2[0], r2[1], r2[2]);
    let acc = r.lu().solve(&rhs).expect("R(q) is invertible");
    let a1 = acc.fixed_rows::<3>(0).into_owned();
    let a2 = acc.fixed_rows::<3>(3).into_owned();
    let pack = |w: Vector3<f64>, v: Vector3<f64>| Vector6::new(w[0], w[1], w[2], v[0], v[1], v[2]);
    [pack(w1, q1.cross(&a1)), pack(w2, q2.cross(&a2))]
}
