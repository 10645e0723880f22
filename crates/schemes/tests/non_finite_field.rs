//! Regression (defect report: `rkmk54` panicked on a fixed-size action when the field turned
//! NaN after the first step): for **every** method of `schemes::methods::METHODS`, for the
//! compositions of the symmetric registry bases, on fixed-size actions (SO(3) acting on itself,
//! ℝ² by translation) and on a runtime-sized one (a `Vec` power of SO(3)), with fixed steps and
//! — for the embedded pairs — adaptive steps: a field that is finite for `t ≤ t*` and NaN (or
//! `+∞`) for `t > t*` makes `integrate` return a typed error, never panic, and the partial
//! solution holds only finite points at increasing times, every step of which started at or
//! before `t*` (a step whose stages all lie at or before `t*` is a good step).
//!
//! The variational steppers of `schemes::variational` do not evaluate the vector field (their
//! forces come from the potential of the Lagrangian); their NaN behaviour is covered by the
//! Newton tests of `tests/nan_residuals.rs`.

use homogeneous::{Action, LeftMultiplication, VecPowerAction};
use liegroup::{LieGroup, Rn, So3};
use nalgebra::{Vector2, Vector3};
use schemes::composition::{Composition, SCHEMES};
use schemes::methods::METHODS;
use schemes::{AnyStepper, IntegrationResult, Options, Problem, SchemeError, Stepper, integrate};

const T_STAR: f64 = 0.5;
const T_END: f64 = 1.0;
const H: f64 = 0.01;

type So3Left = LeftMultiplication<So3<f64>>;
type R2 = LeftMultiplication<Rn<f64, 2>>;
type So3Vec = VecPowerAction<So3Left>;

/// The checks on one result (`label` names the case in failures).
fn check<A>(label: &str, r: &IntegrationResult<A>, action: &A, fixed: Option<f64>)
where
    A: Action<Group: LieGroup<Scalar = f64>>,
    A::Point: core::fmt::Debug,
{
    let e = match r {
        Ok(_) => panic!("{label}: the field is NaN/∞ after t* = {T_STAR}, yet Ok"),
        Err(e) => e,
    };
    match e.error {
        SchemeError::NonFinite { what, t } => {
            // The field is finite up to t*: a non-finite vector field appears after it.
            if what == "vector field" {
                assert!(
                    t > T_STAR,
                    "{label}: non-finite field reported at t = {t} ≤ t*"
                );
            }
        }
        // The adaptive driver shrinks the step towards t* until the minimum step.
        SchemeError::StepSizeTooSmall { t, .. } if fixed.is_none() => {
            assert!(t <= T_STAR, "{label}: {t}");
        }
        ref other => panic!("{label}: unexpected error {other}"),
    }
    let p = &e.partial;
    assert!(!p.t.is_empty(), "{label}: the initial point is kept");
    assert_eq!(p.t.len(), p.y.len(), "{label}");
    assert!(
        p.t.windows(2).all(|w| w[1] > w[0]),
        "{label}: times increase"
    );
    assert!(
        p.y.iter().all(|y| action.point_is_finite(y)),
        "{label}: finite points"
    );
    // Every kept step started at or before t* (its start is the previous saved time).
    let n = p.t.len();
    if n >= 2 {
        assert!(
            p.t[n - 2] <= T_STAR,
            "{label}: a step started after t*: {:?}",
            &p.t[n - 2..]
        );
    }
    let last = p.t[n - 1];
    assert!(last < T_END, "{label}");
    if let Some(h) = fixed {
        // Fixed steps: the last good step ends within one step of t* (the step that starts at
        // or after t* has a stage after it, except for methods evaluating at c = 0 only).
        assert!(
            last >= T_STAR - h - 1e-12 && last <= T_STAR + h + 1e-12,
            "{label}: ends at {last}"
        );
        assert!(p.stats.accepted + 1 == n, "{label}");
    }
}

/// Runs `stepper` fixed and, when it has an embedded pair, adaptive.
fn run_all<A, F, S>(label: &str, problem: &Problem<A, F>, stepper: &mut S, y0: &A::Point)
where
    A: Action,
    A::Point: core::fmt::Debug,
    F: homogeneous::LieVectorField<f64, A::Point, <A::Group as LieGroup>::Algebra>,
    S: Stepper<A>,
    A: Action<Group: LieGroup<Scalar = f64>>,
{
    let r = integrate(problem, stepper, 0.0, y0.clone(), T_END, &Options::fixed(H));
    check(&format!("{label}, fixed"), &r, &problem.action, Some(H));
    if stepper.embedded_order().is_some() {
        let r = integrate(
            problem,
            stepper,
            0.0,
            y0.clone(),
            T_END,
            &Options::adaptive(1e-8, 1e-8),
        );
        check(&format!("{label}, adaptive"), &r, &problem.action, None);
    }
}

fn bad_values() -> [(f64, &'static str); 3] {
    [
        (f64::NAN, "NaN"),
        (f64::INFINITY, "+inf"),
        (f64::NEG_INFINITY, "-inf"),
    ]
}

fn so3_field(bad: f64) -> impl Fn(f64, &So3<f64>) -> Vector3<f64> + Sync {
    move |t: f64, g: &So3<f64>| {
        if t > T_STAR {
            Vector3::repeat(bad)
        } else {
            // A non-abelian, state-dependent field.
            let m = g.matrix();
            Vector3::new(1.0 + m[(0, 1)], 0.5 * m[(2, 0)], -0.3 + t)
        }
    }
}

fn r2_field(bad: f64) -> impl Fn(f64, &Rn<f64, 2>) -> Vector2<f64> + Sync {
    move |t: f64, y: &Rn<f64, 2>| {
        if t > T_STAR {
            Vector2::new(1.0, bad)
        } else {
            Vector2::new(-y.0[1], y.0[0])
        }
    }
}

fn so3_vec_field(bad: f64) -> impl Fn(f64, &Vec<So3<f64>>) -> Vec<Vector3<f64>> + Sync {
    let f = so3_field(bad);
    move |t: f64, g: &Vec<So3<f64>>| g.iter().map(|gi| f(t, gi)).collect()
}

fn so3_start() -> So3<f64> {
    So3::exp(&Vector3::new(0.3, -0.2, 0.1))
}

#[test]
fn every_registry_method_returns_a_typed_error_on_a_fixed_size_so3_action() {
    for (bad, name) in bad_values() {
        let problem = Problem::new(So3Left::new(), so3_field(bad));
        for m in METHODS {
            let mut s = m.stepper::<So3Left>();
            run_all(
                &format!("{} on SO(3), {name}", m.id),
                &problem,
                &mut s,
                &so3_start(),
            );
        }
    }
}

#[test]
fn every_registry_method_returns_a_typed_error_on_a_fixed_size_r2_action() {
    for (bad, name) in bad_values() {
        let problem = Problem::new(R2::new(), r2_field(bad));
        let y0 = Rn::new(Vector2::new(1.0, 0.0));
        for m in METHODS {
            let mut s = m.stepper::<R2>();
            run_all(&format!("{} on R², {name}", m.id), &problem, &mut s, &y0);
        }
    }
}

#[test]
fn every_registry_method_returns_a_typed_error_on_a_runtime_power() {
    for (bad, name) in bad_values() {
        let problem = Problem::new(So3Vec::new(So3Left::new()), so3_vec_field(bad));
        let y0 = vec![so3_start(); 5];
        for m in METHODS {
            let mut s = m.stepper::<So3Vec>();
            run_all(
                &format!("{} on SO(3)^5 (Vec), {name}", m.id),
                &problem,
                &mut s,
                &y0,
            );
        }
    }
}

#[test]
fn compositions_return_a_typed_error() {
    for (bad, name) in bad_values() {
        let problem = Problem::new(So3Left::new(), so3_field(bad));
        let vproblem = Problem::new(So3Vec::new(So3Left::new()), so3_vec_field(bad));
        for scheme in SCHEMES {
            let mut c = Composition::<AnyStepper<So3Left>>::from_ids(scheme.id, "gl2").unwrap();
            run_all(
                &format!("{}(gl2) on SO(3), {name}", scheme.id),
                &problem,
                &mut c,
                &so3_start(),
            );
            let mut c = Composition::<AnyStepper<So3Vec>>::from_ids(scheme.id, "gl2").unwrap();
            let y0 = vec![so3_start(); 3];
            run_all(
                &format!("{}(gl2) on SO(3)^3, {name}", scheme.id),
                &vproblem,
                &mut c,
                &y0,
            );
        }
    }
}
