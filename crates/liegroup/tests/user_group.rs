//! A group the library does not ship — SL(2, ℝ), see `support/sl2.rs` — implemented only
//! through the public API with the default (series) `dexp`/`dexp⁻¹`, checked by the
//! conformance kit with `f64` and `Dual64`, and against independent computations.

mod support;

use liegroup::nalgebra::{Matrix2, Vector3};
use liegroup::num_dual::Dual64;
use liegroup::testing::strategies::{algebra_element, static_group_element};
use liegroup::testing::{SampleSet, check_group, check_group_dual};
use liegroup::{LieGroup, StaticLieGroup, dexpinv_series};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use support::sl2::{Sl2, hat};

/// `exp` of a matrix by scaling and squaring of a 30-term Taylor series (independent of the
/// closed form in `Sl2::exp`).
fn expm(x: Matrix2<f64>) -> Matrix2<f64> {
    let s = 8;
    let y = x / f64::from(1 << s);
    let mut term = Matrix2::identity();
    let mut sum = Matrix2::identity();
    for k in 1..30 {
        term = term * y / f64::from(k);
        sum += term;
    }
    for _ in 0..s {
        sum = sum * sum;
    }
    sum
}

#[test]
fn kit_passes_with_f64_and_dual_numbers() {
    let rep = check_group(&SampleSet::<Sl2>::standard_static()).unwrap_or_else(|f| panic!("{f}"));
    println!("{rep}");
    // Without closed forms there is no series comparison, everything else is checked.
    assert!(rep.checks.len() >= 16);
    let rep = check_group_dual(&SampleSet::<Sl2<Dual64>>::standard_static())
        .unwrap_or_else(|f| panic!("{f}"));
    println!("{rep}");
}

#[test]
fn exp_matches_the_matrix_exponential() {
    for xi in [
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(1e-9, 2e-9, -1e-9),
        Vector3::new(0.3, 0.2, -0.4),  // elliptic
        Vector3::new(0.0, 1.5, -1.5),  // rotation by 1.5 rad
        Vector3::new(0.0, 2.5, -2.5),  // rotation by 2.5 rad
        Vector3::new(1.2, 0.4, 0.3),   // hyperbolic
        Vector3::new(0.0, 0.7, 0.0),   // parabolic
        Vector3::new(0.5, 1.0, -0.25), // Δ = 0 (parabolic, a² + bc = 0)
    ] {
        let g = Sl2::exp(&xi);
        let reference = expm(hat(&xi));
        assert!(
            (g.0 - reference).norm() <= 1e-13 * reference.norm(),
            "{xi:?}"
        );
        assert!((g.0.determinant() - 1.0).abs() < 1e-14);
        let back = g.log();
        assert!((back - xi).norm() < 1e-13, "{xi:?}: {back:?}");
    }
}

#[test]
fn default_series_dexpinv_is_accurate_for_small_u() {
    // The trait default truncates after ad_u^14; against order 20 the difference is round-off
    // for ‖ad_u‖ ≲ 1.
    let u = Vector3::new(0.2, -0.1, 0.15);
    let v = Vector3::new(1.0, 0.5, -0.3);
    let d = Sl2::dexpinv(&u, &v) - dexpinv_series::<Sl2>(&u, &v, 20);
    assert!(d.norm() < 1e-15, "{d:?}");
}

proptest! {
    #![proptest_config(Config {
        cases: 64,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    })]

    #[test]
    fn conjugation_is_the_adjoint(g in static_group_element::<Sl2>(1.0), x in algebra_element::<Sl2>(1.0)) {
        let lhs = Sl2::exp(&g.adjoint(&x)).0;
        let rhs = (g.compose(&Sl2::exp(&x)).compose(&g.inverse())).0;
        prop_assert!((lhs - rhs).norm() <= 1e-12 * (1.0 + rhs.norm()));
    }

    #[test]
    fn identity_is_neutral(g in static_group_element::<Sl2>(2.0)) {
        prop_assert_eq!(g.compose(&Sl2::identity()), g);
    }
}
