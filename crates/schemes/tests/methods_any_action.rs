//! Every catalogue method runs on an action whose points have no ambient coordinates (no
//! `ManifoldPoint`): a user's Heisenberg group acting on itself, through
//! `MethodSpec::stepper_without_distance`.

use homogeneous::LeftMultiplication;
use liegroup::nalgebra::{RealField, Vector3};
use liegroup::{LieGroup, LieGroupInPlace, StaticLieGroup};
use schemes::methods::{METHODS, find};
use schemes::{Options, Problem, SchemeError, Stepper, integrate};

/// The Heisenberg group H₃ as (a, b, c) ↔ `[[1, a, c], [0, 1, b], [0, 0, 1]]`; not a
/// `ManifoldPoint`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Heisenberg<T: RealField + Copy = f64>(Vector3<T>);

impl<T: RealField + Copy> LieGroup for Heisenberg<T> {
    type Scalar = T;
    type Algebra = Vector3<T>;
    fn identity_like(&self) -> Self {
        Self(Vector3::zeros())
    }
    fn algebra_zero(&self) -> Vector3<T> {
        Vector3::zeros()
    }
    fn compose(&self, o: &Self) -> Self {
        let (g, h) = (self.0, o.0);
        Self(Vector3::new(g.x + h.x, g.y + h.y, g.z + h.z + g.x * h.y))
    }
    fn inverse(&self) -> Self {
        let g = self.0;
        Self(Vector3::new(-g.x, -g.y, -g.z + g.x * g.y))
    }
    fn exp(xi: &Vector3<T>) -> Self {
        let half: T = liegroup::scalar::c(0.5);
        Self(Vector3::new(xi.x, xi.y, xi.z + half * xi.x * xi.y))
    }
    fn log(&self) -> Vector3<T> {
        let g = self.0;
        let half: T = liegroup::scalar::c(0.5);
        Vector3::new(g.x, g.y, g.z - half * g.x * g.y)
    }
    fn bracket(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        Vector3::new(T::zero(), T::zero(), u.x * v.y - v.x * u.y)
    }
    fn adjoint(&self, xi: &Vector3<T>) -> Vector3<T> {
        let g = self.0;
        Vector3::new(xi.x, xi.y, xi.z + g.x * xi.y - g.y * xi.x)
    }
    fn all_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> LieGroupInPlace for Heisenberg<T> {}

impl<T: RealField + Copy> StaticLieGroup for Heisenberg<T> {
    fn identity() -> Self {
        Self(Vector3::zeros())
    }
}

type Act = LeftMultiplication<Heisenberg>;

/// `ġ = f(t)·g` with `f(t) = (1, t, 0)`: `g(t) = (t, t²/2, t³/6)·g₀` (the product of the
/// algebra flow `ȧ = 1, ḃ = t, ċ = a ḃ`), i.e. `(a₀ + t, b₀ + t²/2, c₀ + b₀ t + t³/6)`.
fn exact(t: f64, g0: &Heisenberg) -> Heisenberg {
    Heisenberg(Vector3::new(t, t * t / 2.0, t * t * t / 6.0)).compose(g0)
}

fn problem() -> Problem<Act, impl Fn(f64, &Heisenberg) -> Vector3<f64> + Clone> {
    Problem::new(Act::new(), |t: f64, _g: &Heisenberg| {
        Vector3::new(1.0, t, 0.0)
    })
}

#[test]
fn every_method_runs_on_a_group_without_ambient_coordinates() {
    let g0 = Heisenberg(Vector3::new(1.0, 2.0, 3.0));
    let p = problem();
    for spec in METHODS {
        let mut s = spec.stepper_without_distance::<Act>();
        assert_eq!(s.order(), spec.order, "{}", spec.id);
        let pair_without_estimate = s.embedded_order().is_none() && spec.embedded_order.is_some();
        assert!(
            s.embedded_order() == spec.embedded_order || pair_without_estimate,
            "{}",
            spec.id
        );
        // With ad² = 0 (nilpotent algebra) and f'' = 0, both the exact step
        // `log(g(t + h) g(t)⁻¹) = h f + h²/2 f' + h³/12 [f', f]` (Magnus) and the numerical one are
        // polynomials of degree 3 in h, so a method of order p ≥ 3 is exact; lower orders
        // converge: halving h divides the error by about 2ᵖ.
        let run = |n: usize, s: &mut schemes::AnyStepper<Act, schemes::methods::NoDistance>| {
            let sol = integrate(&p, s, 0.0, g0, 1.0, &Options::count(n)).unwrap();
            sol.last()
                .1
                .compose(&exact(1.0, &g0).inverse())
                .log()
                .amax()
        };
        let (e1, e2) = (run(16, &mut s), run(32, &mut s));
        if spec.order >= 3 {
            assert!(e1 < 1e-12, "{}: {e1:e}", spec.id);
        } else {
            let observed = (e1 / e2).log2();
            assert!(
                (observed - f64::from(spec.order)).abs() < 0.2,
                "{}: order {observed}",
                spec.id
            );
        }
    }
}

#[test]
fn pairs_without_distance_refuse_adaptive_steps_rkmk_pairs_keep_them() {
    let g0 = Heisenberg(Vector3::new(0.5, -1.0, 2.0));
    let p = problem();
    for id in ["cf32", "cf43"] {
        let mut s = find(id).unwrap().stepper_without_distance::<Act>();
        assert_eq!(s.embedded_order(), None, "{id}");
        let err = integrate(&p, &mut s, 0.0, g0, 1.0, &Options::adaptive(1e-8, 1e-8))
            .map(|_| ())
            .unwrap_err();
        assert!(
            matches!(err.error, SchemeError::Unsupported { .. }),
            "{id}: {}",
            err.error
        );
    }
    for id in ["rkmk54", "rkmk-bs32"] {
        let mut s = find(id).unwrap().stepper_without_distance::<Act>();
        let sol = integrate(&p, &mut s, 0.0, g0, 1.0, &Options::adaptive(1e-9, 1e-9)).unwrap();
        let err = sol
            .last()
            .1
            .compose(&exact(1.0, &g0).inverse())
            .log()
            .amax();
        assert!(err < 1e-6, "{id}: {err:e}");
    }
}
