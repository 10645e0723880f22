//! The resistance tensor of `models::langevin`: change of reference point (against the
//! congruence `TᵀΞT`, its inverse, and a hand-worked sphere), Stokes' sphere, and Perrin's
//! spheroid against independent results (Perrin's translational factor, the thin-disk values of
//! Lamb/Ray, the slender-body limit, the sphere limit).

use liegroup::hat;
use models::ModelError;
use models::langevin::{ResistanceTensor, perrin_friction};
use nalgebra::{Matrix3, Matrix6, Vector3};
use std::f64::consts::PI;

/// A tensor with coupling: a spheroid moved off its centre.
fn coupled() -> ResistanceTensor {
    ResistanceTensor::spheroid(0.7, 2.0, 0.5)
        .unwrap()
        .moved_to(&Vector3::new(0.3, -0.4, 1.1))
}

fn close(a: &Matrix3<f64>, b: &Matrix3<f64>, ulps: f64) -> bool {
    (a - b).amax() <= ulps * f64::EPSILON * b.amax().max(a.amax())
}

/// P → O → P is the identity (to round-off) for a tensor with translation–rotation coupling.
#[test]
fn moving_there_and_back_is_the_identity() {
    let xi = coupled();
    let r = Vector3::new(-1.3, 0.2, 0.9);
    let back = xi.moved_to(&r).moved_to(&(-r));
    assert!(close(&back.tt(), &xi.tt(), 4.0));
    assert!(close(&back.tr(), &xi.tr(), 64.0));
    assert!(close(&back.rr(), &xi.rr(), 64.0));
}

/// The block formula equals the congruence `TᵀΞT`, `T = [[1, U], [0, 1]]` (the same dissipation
/// `uᵀΞu` written with the velocity of either point), and keeps Ξ symmetric.
#[test]
fn block_formula_is_the_congruence() {
    let xi = coupled();
    let r = Vector3::new(0.5, 1.5, -0.25);
    let mut t = Matrix6::identity();
    t.fixed_view_mut::<3, 3>(0, 3).copy_from(&hat(&r));
    let expected = t.transpose() * xi.matrix() * t;
    let got = xi.moved_to(&r).matrix();
    assert!((got - expected).amax() <= 16.0 * f64::EPSILON * expected.amax());
    assert!((got - got.transpose()).amax() <= 16.0 * f64::EPSILON * got.amax());
}

/// Hand-worked: a Stokes sphere (ξ_t = 6πηa, ξ_r = 8πηa³) referred to P = O + d e₃.
/// U = ê₃ d = [[0, −d, 0], [d, 0, 0], [0, 0, 0]], so Ξᵗʳ_P = −ξ_t U and
/// Ξʳʳ_P = ξ_r 1 − ξ_t U² = diag(ξ_r + ξ_t d², ξ_r + ξ_t d², ξ_r) (parallel-axis theorem).
#[test]
fn hand_worked_sphere_off_centre() {
    let (eta, a, d) = (2.0, 0.5, 3.0);
    let (xt, xr) = (6.0 * PI * eta * a, 8.0 * PI * eta * a * a * a);
    let p = ResistanceTensor::sphere(eta, a)
        .unwrap()
        .moved_to(&Vector3::new(0.0, 0.0, d));
    let tr = Matrix3::new(0.0, xt * d, 0.0, -xt * d, 0.0, 0.0, 0.0, 0.0, 0.0);
    let rr = Matrix3::from_diagonal(&Vector3::new(xr + xt * d * d, xr + xt * d * d, xr));
    assert!(close(&p.tt(), &(Matrix3::identity() * xt), 1.0));
    assert!(close(&p.tr(), &tr, 2.0));
    assert!(close(&p.rr(), &rr, 4.0));
}

/// Stokes: Ξᵗᵗ = 6πηa, Ξʳʳ = 8πηa³, and D = kT Ξ⁻¹ gives D_t = kT/(6πηa), D_r = kT/(8πηa³).
#[test]
fn stokes_sphere_and_its_diffusion() {
    let (eta, a, kt) = (0.3, 1.7, 2.5);
    let xi = ResistanceTensor::sphere(eta, a).unwrap();
    assert_eq!(xi.tt(), Matrix3::identity() * (6.0 * PI * eta * a));
    assert_eq!(xi.rr(), Matrix3::identity() * (8.0 * PI * eta * a.powi(3)));
    let d = xi.diffusion(kt).unwrap();
    let (dt, dr) = (kt / (6.0 * PI * eta * a), kt / (8.0 * PI * eta * a.powi(3)));
    for i in 0..3 {
        assert!((d[(i, i)] - dt).abs() <= 4.0 * f64::EPSILON * dt);
        assert!((d[(i + 3, i + 3)] - dr).abs() <= 4.0 * f64::EPSILON * dr);
    }
}

/// Perrin's translational factor (an independent closed form, p = a/b):
/// 3/ξ̄ = 1/ξ_∥ + 2/ξ_⊥ equals 6πη (ab²)^{1/3} f_P with
/// f_P = √(p² − 1)/(p^{1/3} ln(p + √(p² − 1))) (prolate), √(1 − p²)/(p^{1/3} arctan(√(1 − p²)/p))
/// (oblate).
#[test]
fn perrin_mean_translation_matches_the_perrin_factor() {
    for (a, b) in [(3.0, 1.0), (10.0, 1.0), (1.0, 3.0), (0.2, 1.0), (1.05, 1.0)] {
        let f = perrin_friction(1.0, a, b).unwrap();
        let mean = 3.0 / (1.0 / f.translation_axial + 2.0 / f.translation_equatorial);
        let p: f64 = a / b;
        let fp = if p > 1.0 {
            (p * p - 1.0).sqrt() / (p.cbrt() * (p + (p * p - 1.0).sqrt()).ln())
        } else {
            (1.0 - p * p).sqrt() / (p.cbrt() * ((1.0 - p * p).sqrt() / p).atan())
        };
        let expected = 6.0 * PI * (a * b * b).cbrt() * fp;
        assert!(
            (mean - expected).abs() <= 1e-12 * expected,
            "a/b = {p}: {mean} vs {expected}"
        );
    }
}

/// The thin circular disk (a → 0) of radius b: ξ_∥ = 16ηb (broadside), ξ_⊥ = 32ηb/3
/// (edgewise), ξʳ_∥ = ξʳ_⊥ = 32ηb³/3 (Lamb; Ray 1936).
#[test]
fn perrin_thin_disk_limit() {
    let (eta, b) = (1.3, 2.0);
    let f = perrin_friction(eta, 1e-9 * b, b).unwrap();
    let rel = |x: f64, y: f64| (x - y).abs() / y;
    assert!(rel(f.translation_axial, 16.0 * eta * b) < 1e-8);
    assert!(rel(f.translation_equatorial, 32.0 * eta * b / 3.0) < 1e-8);
    assert!(rel(f.rotation_axial, 32.0 * eta * b.powi(3) / 3.0) < 1e-8);
    assert!(rel(f.rotation_equatorial, 32.0 * eta * b.powi(3) / 3.0) < 1e-8);
}

/// The slender prolate spheroid (a ≫ b): ξ_∥ → 4πηa/(ln(2a/b) − ½),
/// ξ_⊥ → 8πηa/(ln(2a/b) + ½) (slender-body theory), corrections O((b/a)² ln(a/b)).
#[test]
fn perrin_slender_limit() {
    let (a, b) = (1e3, 1.0);
    let f = perrin_friction(1.0, a, b).unwrap();
    let l = (2.0 * a / b).ln();
    let rel = |x: f64, y: f64| (x - y).abs() / y;
    assert!(rel(f.translation_axial, 4.0 * PI * a / (l - 0.5)) < 1e-5);
    assert!(rel(f.translation_equatorial, 8.0 * PI * a / (l + 0.5)) < 1e-5);
}

/// Near the sphere (both sides, and across the interpolation edge |a/b − 1| = 1e-3) the
/// coefficients tend to 6πηb and 8πηb³, linearly in a/b − 1, and are continuous at the edge.
#[test]
fn perrin_sphere_limit_and_continuity() {
    let (eta, b) = (1.0, 1.0);
    for delta in [1e-2, -1e-2, 2e-3, -2e-3, 5e-4, -5e-4, 1e-7, 0.0] {
        let f = perrin_friction(eta, b * (1.0 + delta), b).unwrap();
        let tol = 2.0 * delta.abs() + 1e-12;
        for (x, s) in [
            (f.translation_axial, 6.0 * PI),
            (f.translation_equatorial, 6.0 * PI),
            (f.rotation_axial, 8.0 * PI),
            (f.rotation_equatorial, 8.0 * PI),
        ] {
            assert!((x / s - 1.0).abs() <= tol, "δ = {delta}: {x} vs {s}");
        }
    }
    let inside = perrin_friction(eta, 1.0 + (1e-3 - 1e-12), 1.0).unwrap();
    let outside = perrin_friction(eta, 1.0 + (1e-3 + 1e-12), 1.0).unwrap();
    assert!((inside.rotation_equatorial / outside.rotation_equatorial - 1.0).abs() < 1e-9);
}

/// Typed errors on bad data.
#[test]
fn invalid_tensors_are_rejected() {
    assert!(matches!(
        ResistanceTensor::sphere(-1.0, 1.0),
        Err(ModelError::NonPositive { .. })
    ));
    assert!(matches!(
        perrin_friction(1.0, f64::NAN, 1.0),
        Err(ModelError::NonFinite { .. })
    ));
    let mut tt = Matrix3::identity();
    tt[(0, 1)] = 0.5;
    assert!(matches!(
        ResistanceTensor::new(tt, Matrix3::zeros(), Matrix3::identity()),
        Err(ModelError::NotSymmetric { .. })
    ));
    // Coupling too strong for positive definiteness: [[1, 2], [2, 1]] per axis.
    assert!(matches!(
        ResistanceTensor::new(
            Matrix3::identity(),
            Matrix3::identity() * 2.0,
            Matrix3::identity()
        ),
        Err(ModelError::NotPositiveDefinite { .. })
    ));
}
