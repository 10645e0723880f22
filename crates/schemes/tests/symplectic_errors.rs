//! Typed errors of the symplectic module: bad parameters, bad step input, non-convergent
//! implicit solves (also through the driver, with the partial solution), unsupported requests.

use liegroup::{LieGroup, So3};
use nalgebra::Vector3;
use schemes::symplectic::{
    CotangentAction, CotangentPoint, DlmSplitting, HamiltonianVectorField, HeavyTop, Lgvi, LgviMap,
    RigidBody, ThetaMethod, UniformGravity,
};
use schemes::{
    ImplicitOptions, Options, Problem, SchemeError, StageSolver, Stepper, Tolerance, integrate,
};

type Act = CotangentAction<So3>;

fn top() -> HeavyTop {
    RigidBody::new(
        Vector3::new(1.0, 2.0, 3.0),
        UniformGravity::new(1.5, 1.0, Vector3::new(0.1, 0.2, 1.0).normalize()).unwrap(),
    )
    .unwrap()
}

fn start() -> CotangentPoint<So3> {
    CotangentPoint::new(
        So3::exp(&Vector3::new(0.3, 0.2, -0.1)),
        Vector3::new(0.5, -1.0, 2.0),
    )
}

fn options(solver: StageSolver, tol: f64, max_iter: usize) -> ImplicitOptions {
    ImplicitOptions {
        solver,
        tol,
        max_iter,
    }
}

#[test]
fn bad_parameters_are_typed_errors() {
    for theta in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
        let e = ThetaMethod::<So3, _>::new(top(), theta).unwrap_err();
        assert!(
            matches!(e, SchemeError::InvalidOption { name: "theta", .. }),
            "{e}"
        );
    }
    for inertia in [
        Vector3::new(0.0, 1.0, 1.0),
        Vector3::new(-1.0, 1.0, 1.0),
        Vector3::new(f64::NAN, 1.0, 1.0),
    ] {
        let e = RigidBody::free(inertia).unwrap_err();
        assert!(
            matches!(
                e,
                SchemeError::InvalidOption {
                    name: "inertia",
                    ..
                }
            ),
            "{e}"
        );
    }
    let e = UniformGravity::new(f64::NAN, 9.81, Vector3::y()).unwrap_err();
    assert!(
        matches!(
            e,
            SchemeError::InvalidOption {
                name: "gravity",
                ..
            }
        ),
        "{e}"
    );
    let e = UniformGravity::new(1.0, 9.81, Vector3::new(0.0, f64::INFINITY, 0.0)).unwrap_err();
    assert!(matches!(e, SchemeError::InvalidOption { .. }), "{e}");
    for c in [-0.5, 1.5, f64::NAN] {
        let e = Lgvi::new(top(), LgviMap::Cayley)
            .with_potential_weight(c)
            .unwrap_err();
        assert!(
            matches!(
                e,
                SchemeError::InvalidOption {
                    name: "potential weight",
                    ..
                }
            ),
            "{e}"
        );
    }
    for axes in [[0, 0, 1], [0, 1, 3]] {
        let e = DlmSplitting::new(top()).with_axis_order(axes).unwrap_err();
        assert!(
            matches!(
                e,
                SchemeError::InvalidOption {
                    name: "axis order",
                    ..
                }
            ),
            "{e}"
        );
    }
    for tol in [0.0, -1e-10, f64::NAN] {
        let o = options(StageSolver::Newton, tol, 10);
        let e = ThetaMethod::<So3, _>::midpoint(top())
            .with_options(o)
            .unwrap_err();
        assert!(matches!(e, SchemeError::InvalidTolerance { .. }), "{e}");
        let e = Lgvi::new(top(), LgviMap::Exp).with_options(o).unwrap_err();
        assert!(matches!(e, SchemeError::InvalidTolerance { .. }), "{e}");
    }
    let o = options(StageSolver::Newton, 1e-12, 0);
    assert!(matches!(
        ThetaMethod::<So3, _>::midpoint(top())
            .with_options(o)
            .unwrap_err(),
        SchemeError::InvalidOption {
            name: "max_iter",
            ..
        }
    ));
}

#[test]
fn bad_step_input_is_a_typed_error() {
    let bad = CotangentPoint::new(So3::identity(), Vector3::new(f64::NAN, 0.0, 0.0));
    for h in [f64::NAN, f64::INFINITY] {
        let e = ThetaMethod::midpoint(top())
            .advance(0.0, &start(), h)
            .unwrap_err();
        assert!(matches!(e, SchemeError::InvalidStepSize { .. }), "{e}");
        let e = Lgvi::new(top(), LgviMap::Cayley)
            .advance(0.0, &start(), h)
            .unwrap_err();
        assert!(matches!(e, SchemeError::InvalidStepSize { .. }), "{e}");
        let e = DlmSplitting::new(top())
            .advance(0.0, &start(), h)
            .unwrap_err();
        assert!(matches!(e, SchemeError::InvalidStepSize { .. }), "{e}");
    }
    let e = ThetaMethod::midpoint(top())
        .advance(0.0, &bad, 0.1)
        .unwrap_err();
    assert!(
        matches!(e, SchemeError::NonFinite { what: "state", .. }),
        "{e}"
    );
    let e = Lgvi::new(top(), LgviMap::Exp)
        .advance(0.0, &bad, 0.1)
        .unwrap_err();
    assert!(
        matches!(e, SchemeError::NonFinite { what: "state", .. }),
        "{e}"
    );
    let e = DlmSplitting::new(top())
        .advance(0.0, &bad, 0.1)
        .unwrap_err();
    assert!(
        matches!(e, SchemeError::NonFinite { what: "state", .. }),
        "{e}"
    );
    // Negative steps are allowed (compositions), and a step back undoes a symmetric step.
    let mut m = ThetaMethod::midpoint(top());
    let y1 = m.advance(0.0, &start(), 0.1).unwrap();
    let back = m.advance(0.1, &y1, -0.1).unwrap();
    assert!((back.mu - start().mu).amax() < 1e-13);
    assert!((back.g.matrix() - start().g.matrix()).amax() < 1e-13);
}

#[test]
fn non_convergent_solves_are_typed_errors() {
    // One iteration cannot reach 1e-14.
    let one = options(StageSolver::Newton, 1e-14, 1);
    let e = ThetaMethod::midpoint(top())
        .with_options(one)
        .unwrap()
        .advance(0.0, &start(), 0.1)
        .unwrap_err();
    match e {
        SchemeError::NonConvergence {
            iterations,
            residual,
            tolerance,
            ..
        } => {
            assert_eq!(iterations, 1);
            assert!(residual > tolerance && residual.is_finite());
        }
        other => panic!("expected NonConvergence, got {other}"),
    }
    for map in [LgviMap::Cayley, LgviMap::Exp] {
        let e = Lgvi::new(top(), map)
            .with_options(one)
            .unwrap()
            .advance(0.0, &start(), 0.1)
            .unwrap_err();
        assert!(
            matches!(e, SchemeError::NonConvergence { iterations: 1, .. }),
            "{map:?}: {e}"
        );
    }
    // Fixed-point iteration diverges for h‖∂²H‖ ≫ 1.
    let fixed = options(StageSolver::FixedPoint, 1e-14, 50);
    let fast = CotangentPoint::new(So3::identity(), Vector3::new(30.0, -40.0, 50.0));
    let e = ThetaMethod::midpoint(top())
        .with_options(fixed)
        .unwrap()
        .advance(0.0, &fast, 1.0)
        .unwrap_err();
    assert!(
        matches!(
            e,
            SchemeError::NonConvergence { .. } | SchemeError::NonFinite { .. }
        ),
        "{e}"
    );
    let e = Lgvi::new(top(), LgviMap::Cayley)
        .with_options(fixed)
        .unwrap()
        .advance(0.0, &fast, 1.0)
        .unwrap_err();
    assert!(matches!(e, SchemeError::NonConvergence { .. }), "{e}");
    // Through the driver: the error and the partial solution up to the last accepted step.
    let problem = Problem::new(Act::new(), HamiltonianVectorField(top()));
    let mut m = ThetaMethod::midpoint(top())
        .with_options(options(StageSolver::FixedPoint, 1e-14, 30))
        .unwrap();
    // h = 0.05 converges from the slow start; from the fast state h = 1 does not.
    let ok = integrate(&problem, &mut m, 0.0, start(), 0.5, &Options::fixed(0.05)).unwrap();
    assert_eq!(ok.stats.accepted, 10);
    let failure = integrate(&problem, &mut m, 0.0, fast, 10.0, &Options::fixed(1.0)).unwrap_err();
    assert!(
        matches!(
            failure.error,
            SchemeError::NonConvergence { .. } | SchemeError::NonFinite { .. }
        ),
        "{}",
        failure.error
    );
    assert_eq!(failure.partial.y.len(), 1);
}

#[test]
fn the_converged_solves_report_their_work() {
    let mut m = ThetaMethod::midpoint(top());
    let _ = m.advance(0.0, &start(), 0.1).unwrap();
    let s = Stepper::<Act>::stats(&m);
    println!("theta(0.5), one step: {s:?}");
    assert!(s.iterations >= 2 && s.iterations <= 6, "{s:?}");
    let mut l = Lgvi::new(top(), LgviMap::Exp);
    let _ = l.advance(0.0, &start(), 0.1).unwrap();
    let s = Stepper::<Act>::stats(&l);
    println!("lgvi-exp, one step: {s:?}");
    assert!(s.iterations <= 5, "{s:?}");
    Stepper::<Act>::reset_stats(&mut l);
    assert_eq!(Stepper::<Act>::stats(&l).iterations, 0);
}

#[test]
fn adaptive_steps_are_unsupported() {
    let problem = Problem::new(Act::new(), HamiltonianVectorField(top()));
    let tol = Tolerance::new(1e-6, 1e-6).unwrap();
    let mut m = ThetaMethod::midpoint(top());
    let e = m
        .step(
            &problem.action,
            &problem.field,
            0.0,
            &start(),
            0.1,
            Some(&tol),
        )
        .unwrap_err();
    assert!(matches!(e, SchemeError::Unsupported { .. }), "{e}");
    let mut l = Lgvi::new(top(), LgviMap::Cayley);
    let e = l
        .step(
            &problem.action,
            &problem.field,
            0.0,
            &start(),
            0.1,
            Some(&tol),
        )
        .unwrap_err();
    assert!(matches!(e, SchemeError::Unsupported { .. }), "{e}");
    let mut d = DlmSplitting::new(top());
    let e = d
        .step(
            &problem.action,
            &problem.field,
            0.0,
            &start(),
            0.1,
            Some(&tol),
        )
        .unwrap_err();
    assert!(matches!(e, SchemeError::Unsupported { .. }), "{e}");
    let f = integrate(
        &problem,
        &mut d,
        0.0,
        start(),
        1.0,
        &Options::adaptive(1e-6, 1e-6),
    )
    .unwrap_err();
    assert!(matches!(f.error, SchemeError::Unsupported { .. }));
}
