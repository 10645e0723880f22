//! Newton and fixed-point residuals propagate NaN: `f64::max` drops a NaN operand, so a fold
//! with it used to report "did not converge: residual 0e0" — or let a NaN iterate pass as
//! converged. A field or potential that drives the stage equations to NaN must give a typed
//! error (`NonConvergence` with a non-finite residual, or `NonFinite`), never `Ok` and never a
//! zero or small finite residual.

use homogeneous::{LeftMultiplication, PowerAction, TangentSphere2, TangentSphereAction};
use liegroup::{LieGroup, So3};
use nalgebra::{Vector3, Vector6};
use schemes::variational::{
    SphereLagrangian, SphereVariational, VariationalOptions, VariationalSolver,
};
use schemes::{ImplicitOptions, ImplicitRkmk, SchemeError, StageSolver, Stepper, catalogue};

/// The error must name a non-convergence with a non-finite residual (or a non-finite value).
fn assert_nan_reported<T: core::fmt::Debug>(label: &str, r: Result<T, SchemeError>) {
    match r {
        Ok(y) => panic!("{label}: NaN in the solve, yet Ok({y:?})"),
        Err(SchemeError::NonConvergence { residual, .. }) => {
            assert!(
                !residual.is_finite(),
                "{label}: residual reported as {residual:e}"
            );
        }
        Err(SchemeError::NonFinite { .. }) => {}
        Err(e) => panic!("{label}: unexpected error {e}"),
    }
}

/// Two coupled pendulums on S² (full inertia matrix, so the Newton solver of (3.16) runs) with
/// a finite but huge potential gradient `∂V/∂q = G e_z`: the right-hand side `d` is finite, the
/// first Newton iterate has `|f|² = ∞`, and `1/(1 + |f|²)·(f × q − |f|² q)` is `0·∞ = NaN`.
struct Huge(f64);

impl SphereLagrangian for Huge {
    fn bodies(&self) -> usize {
        2
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        if i == j { 2.0 } else { 0.5 }
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        self.0 * (q[0].z + q[1].z)
    }
    fn potential_gradient(&self, _q: &[Vector3<f64>], g: &mut [Vector3<f64>]) {
        g.iter_mut()
            .for_each(|x| *x = Vector3::new(0.3, 0.0, 1.0) * self.0);
    }
}

fn state() -> [TangentSphere2; 2] {
    let q = Vector3::new(0.6, 0.0, 0.8);
    let w = Vector3::new(0.0, 1.0, 0.0);
    let p = TangentSphere2::try_new(q, w).unwrap();
    [p, p]
}

#[test]
fn sphere_newton_with_a_nan_iterate_is_a_typed_error_naming_it() {
    type A = PowerAction<TangentSphereAction, 2>;
    let action = A::new(TangentSphereAction::new());
    let f = |_t: f64, _y: &[TangentSphere2; 2]| [Vector6::zeros(); 2];
    for solver in [VariationalSolver::Newton, VariationalSolver::FixedPoint] {
        for g in [1e300, f64::MAX] {
            let options = VariationalOptions {
                solver,
                ..VariationalOptions::default()
            };
            let mut vi = SphereVariational::<_, f64>::implicit(Huge(g))
                .unwrap()
                .with_options(options)
                .unwrap();
            let r = vi.step(&action, &f, 0.0, &state(), 0.1, None).map(|o| o.y);
            assert_nan_reported(&format!("{solver:?}, ∂V/∂q = {g:e}"), r);
        }
    }
}

#[test]
fn sphere_newton_still_converges_on_a_finite_problem() {
    // The NaN-aware maxima change nothing for finite residuals.
    type A = PowerAction<TangentSphereAction, 2>;
    let action = A::new(TangentSphereAction::new());
    let f = |_t: f64, _y: &[TangentSphere2; 2]| [Vector6::zeros(); 2];
    let mut vi = SphereVariational::<_, f64>::implicit(Huge(9.81)).unwrap();
    let y = vi.step(&action, &f, 0.0, &state(), 0.01, None).unwrap().y;
    for p in &y {
        assert!((p.q().norm() - 1.0).abs() <= 4.0 * f64::EPSILON);
    }
}

/// SO(3) acting on itself; the field is finite everywhere but returns `±G` (huge) at the
/// stage times, so that the stage coordinates `u = h Σ aᵢⱼ k̃ⱼ` overflow and `dexp⁻¹_u` of an
/// infinite `u` is NaN inside the iteration (the field itself is never non-finite).
#[test]
fn implicit_rkmk_with_a_nan_iterate_is_a_typed_error_naming_it() {
    type A = LeftMultiplication<So3<f64>>;
    let action = A::new();
    let y0 = So3::exp(&Vector3::new(0.1, 0.2, 0.3));
    for g in [1e300, f64::MAX] {
        let field = move |t: f64, _y: &So3<f64>| {
            if t > 0.0 {
                Vector3::new(g, -g, 0.5 * g)
            } else {
                Vector3::new(1.0, 0.0, 0.0)
            }
        };
        for solver in [StageSolver::Newton, StageSolver::FixedPoint] {
            for tableau in [
                &catalogue::GAUSS_LEGENDRE2,
                &catalogue::GAUSS_LEGENDRE4,
                &catalogue::GAUSS_LEGENDRE6,
            ] {
                let options = ImplicitOptions {
                    solver,
                    ..ImplicitOptions::default()
                };
                let mut s = ImplicitRkmk::<A>::exp(tableau).with_options(options);
                let r = s.step(&action, &field, 0.0, &y0, 0.1, None).map(|o| o.y);
                assert_nan_reported(&format!("{} {solver:?}, G = {g:e}", tableau.name), r);
            }
        }
    }
}

#[test]
fn the_nan_aware_maximum_propagates_nan_where_f64_max_drops_it() {
    use liegroup::linalg::{max_abs, nan_max};
    assert_eq!(0.0_f64.max(f64::NAN), 0.0);
    assert!(nan_max(0.0, f64::NAN).is_nan());
    assert!(nan_max(f64::NAN, 0.0).is_nan());
    assert!(max_abs([1.0, f64::NAN, 1e300]).is_nan());
    assert_eq!(max_abs([-2.0, 1.0]), 2.0);
    assert_eq!(max_abs(core::iter::empty()), 0.0);
}
