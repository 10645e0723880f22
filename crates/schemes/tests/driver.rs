//! The driver's contract: typed errors with partial solutions for every kind of bad input or
//! failure, never a panic or an endless loop; adaptive control; dense output.

use homogeneous::LeftMultiplication;
use liegroup::Rn;
use nalgebra::{Vector1, Vector2};
use schemes::methods::find;
use schemes::{
    Controller, GroupLogDistance, ImplicitOptions, ImplicitRkmk, Options, Problem, Rkmk, Save,
    SchemeError, StageSolver, integrate, integrate_with_observer,
};

type R1 = LeftMultiplication<Rn<f64, 1>>;

fn decay() -> Problem<R1, impl Fn(f64, &Rn<f64, 1>) -> Vector1<f64>> {
    Problem::new(R1::new(), |_t: f64, y: &Rn<f64, 1>| -y.0)
}

fn y0() -> Rn<f64, 1> {
    Rn::new(Vector1::new(1.0))
}

#[test]
fn invalid_inputs_are_typed_errors() {
    let p = decay();
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    for h in [0.0, -0.1, f64::NAN, f64::INFINITY] {
        let e = integrate(&p, &mut s, 0.0, y0(), 1.0, &Options::fixed(h)).unwrap_err();
        assert!(
            matches!(e.error, SchemeError::InvalidStepSize { .. }),
            "{h}: {e}"
        );
    }
    for (rtol, atol) in [(0.0, 1e-6), (1e-6, -1.0), (f64::NAN, 1e-6)] {
        let mut s = find("rkmk54").unwrap().stepper::<R1>();
        let e = integrate(&p, &mut s, 0.0, y0(), 1.0, &Options::adaptive(rtol, atol)).unwrap_err();
        assert!(
            matches!(e.error, SchemeError::InvalidTolerance { .. }),
            "{e}"
        );
    }
    let e = integrate(&p, &mut s, 1.0, y0(), 0.5, &Options::fixed(0.1)).unwrap_err();
    assert!(matches!(e.error, SchemeError::InvalidTimeSpan { .. }));
    let e = integrate(&p, &mut s, 0.0, y0(), f64::NAN, &Options::fixed(0.1)).unwrap_err();
    assert!(matches!(e.error, SchemeError::InvalidTimeSpan { .. }));
    let bad = Rn::new(Vector1::new(f64::NAN));
    let e = integrate(&p, &mut s, 0.0, bad, 1.0, &Options::fixed(0.1)).unwrap_err();
    assert!(matches!(e.error, SchemeError::NonFinite { .. }));
    let e = integrate(&p, &mut s, 0.0, y0(), 1.0, &Options::count(0)).unwrap_err();
    assert!(matches!(e.error, SchemeError::InvalidOption { .. }));
    // Adaptive steps with a method that has no embedded estimate.
    let e = integrate(&p, &mut s, 0.0, y0(), 1.0, &Options::adaptive(1e-6, 1e-6)).unwrap_err();
    assert!(matches!(e.error, SchemeError::Unsupported { .. }));
}

#[test]
fn non_finite_field_stops_with_the_partial_solution() {
    // f blows up once t > 0.5.
    let p = Problem::new(R1::new(), |t: f64, y: &Rn<f64, 1>| {
        if t > 0.5 {
            Vector1::new(f64::NAN)
        } else {
            -y.0
        }
    });
    let mut s = find("cf4").unwrap().stepper::<R1>();
    let e = integrate(&p, &mut s, 0.0, y0(), 1.0, &Options::fixed(0.1)).unwrap_err();
    match e.error {
        SchemeError::NonFinite { t, .. } => assert!(t > 0.5 && t <= 0.6 + 1e-12),
        ref other => panic!("unexpected {other}"),
    }
    // Everything up to the last good step is kept: t = 0, 0.1, …, 0.5.
    assert_eq!(e.partial.t.len(), 6);
    assert!((e.partial.t[5] - 0.5).abs() < 1e-12);
    assert!((e.partial.y[5].0[0] - (-0.5f64).exp()).abs() < 1e-6);
}

#[test]
fn step_budget_and_underflow() {
    let p = decay();
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    // A fixed-step run that cannot finish within the budget is refused before it starts, with
    // both numbers in the message.
    let e = integrate(
        &p,
        &mut s,
        0.0,
        y0(),
        1.0,
        &Options::fixed(1e-3).max_steps(10),
    )
    .unwrap_err();
    match &e.error {
        SchemeError::InvalidOption { name, reason } => {
            assert_eq!(*name, "step budget");
            assert!(
                reason.contains("1.000e3") && reason.contains("10 steps"),
                "{reason}"
            );
        }
        other => panic!("unexpected {other}"),
    }
    assert!(e.partial.y.is_empty());
    // An adaptive run uses its budget up and keeps what it computed.
    let mut s = find("rkmk54").unwrap().stepper::<R1>();
    let e = integrate(
        &p,
        &mut s,
        0.0,
        y0(),
        1.0,
        &Options::adaptive(1e-12, 1e-12).max_steps(10),
    )
    .unwrap_err();
    assert!(matches!(
        e.error,
        SchemeError::StepBudgetExhausted { max_steps: 10, .. }
    ));
    assert_eq!(
        e.partial.y.len(),
        1 + e.partial.stats.accepted,
        "every accepted step is kept"
    );
    assert!(e.partial.stats.accepted + e.partial.stats.rejected == 10);

    // A finite-time blow-up y' = y² (y(0) = 1 blows up at t = 1) forces the adaptive
    // controller below the minimum step: a typed underflow, not an endless loop.
    let blow = Problem::new(R1::new(), |_t: f64, y: &Rn<f64, 1>| {
        Vector1::new(y.0[0] * y.0[0])
    });
    let mut s = find("rkmk54").unwrap().stepper::<R1>();
    let e = integrate(
        &blow,
        &mut s,
        0.0,
        y0(),
        2.0,
        &Options::adaptive(1e-8, 1e-8),
    )
    .unwrap_err();
    assert!(
        matches!(
            e.error,
            SchemeError::StepSizeTooSmall { .. } | SchemeError::NonFinite { .. }
        ),
        "{e}"
    );
    let (t_last, _) = e.partial.last();
    // The numerical solution may step marginally past the blow-up time before failing.
    assert!(t_last < 1.01 && t_last > 0.9, "stopped at {t_last}");
}

#[test]
fn implicit_non_convergence_is_typed() {
    // A stiff linear problem with a huge step: fixed-point iteration diverges.
    let stiff = Problem::new(R1::new(), |_t: f64, y: &Rn<f64, 1>| -1e4 * y.0);
    let mut s = ImplicitRkmk::<R1>::exp(&schemes::catalogue::GAUSS_LEGENDRE4).with_options(
        ImplicitOptions {
            solver: StageSolver::FixedPoint,
            tol: 1e-14,
            max_iter: 20,
        },
    );
    let e = integrate(&stiff, &mut s, 0.0, y0(), 1.0, &Options::fixed(0.1)).unwrap_err();
    match e.error {
        SchemeError::NonConvergence { iterations, .. } => assert!(iterations <= 20),
        ref other => panic!("unexpected {other}"),
    }
    assert_eq!(e.partial.y.len(), 1);
    // Newton solves the same linear problem: Gauss methods are A-stable, |R(−1000)| < 1.
    let mut s = ImplicitRkmk::<R1>::exp(&schemes::catalogue::GAUSS_LEGENDRE4);
    let sol = integrate(&stiff, &mut s, 0.0, y0(), 1.0, &Options::fixed(0.1)).unwrap();
    assert!(sol.last().1.0[0].abs() <= 1.0);
}

#[test]
fn adaptive_error_tracks_the_tolerance() {
    // y' = −y + sin t, exact y = (3/2)e^{−t} + (sin t − cos t)/2 for y(0) = 1.
    let p = Problem::new(R1::new(), |t: f64, y: &Rn<f64, 1>| {
        Vector1::new(-y.0[0] + t.sin())
    });
    let exact = |t: f64| 1.5 * (-t).exp() + 0.5 * (t.sin() - t.cos());
    for id in ["rkmk54", "rkmk-bs32"] {
        let mut errs = Vec::new();
        for tol in [1e-4, 1e-6, 1e-8, 1e-10] {
            let mut s = find(id).unwrap().stepper::<R1>();
            let sol = integrate(&p, &mut s, 0.0, y0(), 5.0, &Options::adaptive(tol, tol)).unwrap();
            let err = (sol.last().1.0[0] - exact(5.0)).abs();
            assert!(err < 50.0 * tol, "{id}: tol {tol:e} error {err:e}");
            assert!(sol.stats.accepted > 0);
            errs.push(err);
        }
        assert!(errs[3] < errs[0] * 1e-3, "{id}: {errs:?}");
    }
    // The PI controller reaches the same accuracy.
    let mut s = find("rkmk54").unwrap().stepper::<R1>();
    let opts = Options::adaptive(1e-8, 1e-8).controller(Controller::PI_DEFAULT);
    let sol = integrate(&p, &mut s, 0.0, y0(), 5.0, &opts).unwrap();
    assert!((sol.last().1.0[0] - exact(5.0)).abs() < 5e-7);
}

#[test]
fn dense_output_of_rkmk54_is_accurate_between_steps() {
    let p = Problem::new(R1::new(), |t: f64, y: &Rn<f64, 1>| {
        Vector1::new(-y.0[0] + t.sin())
    });
    let exact = |t: f64| 1.5 * (-t).exp() + 0.5 * (t.sin() - t.cos());
    let times: Vec<f64> = (0..=50).map(|i| 0.1 * f64::from(i)).collect();
    let mut opts = Options::adaptive(1e-9, 1e-9);
    opts.save = Save::Times(times.clone());
    let mut s = find("rkmk54").unwrap().stepper::<R1>();
    let sol = integrate(&p, &mut s, 0.0, y0(), 5.0, &opts).unwrap();
    assert_eq!(sol.t.len(), times.len());
    for (t, y) in sol.t.iter().zip(&sol.y) {
        assert!((y.0[0] - exact(*t)).abs() < 1e-7, "t = {t}");
    }
    // A method without dense output refuses save times between steps.
    let mut s = find("cf4").unwrap().stepper::<R1>();
    let mut opts = Options::fixed(0.3);
    opts.save = Save::Times(vec![0.5]);
    let e = integrate(&p, &mut s, 0.0, y0(), 1.0, &opts).unwrap_err();
    assert!(matches!(e.error, SchemeError::Unsupported { .. }));
}

#[test]
fn observer_sees_every_accepted_step_and_cf_pairs_adapt() {
    type R2 = LeftMultiplication<Rn<f64, 2>>;
    let p = Problem::new(R2::new(), |_t: f64, y: &Rn<f64, 2>| {
        Vector2::new(y.0[1], -y.0[0])
    });
    let mut seen = 0;
    let mut s = schemes::CommutatorFree::<R2>::new(&schemes::catalogue::CF43)
        .unwrap()
        .with_distance(GroupLogDistance);
    let sol = integrate_with_observer(
        &p,
        &mut s,
        0.0,
        Rn::new(Vector2::new(1.0, 0.0)),
        10.0,
        &Options::adaptive(1e-9, 1e-9),
        |_, _| seen += 1,
    )
    .unwrap();
    assert_eq!(seen, sol.stats.accepted + 1);
    let y = sol.last().1.0;
    assert!((y - Vector2::new(10f64.cos(), -10f64.sin())).amax() < 1e-6);
    // Same with the default ambient distance.
    let mut s = find("cf32").unwrap().stepper::<R2>();
    let sol = integrate(
        &p,
        &mut s,
        0.0,
        Rn::new(Vector2::new(1.0, 0.0)),
        10.0,
        &Options::adaptive(1e-8, 1e-8),
    )
    .unwrap();
    assert!((sol.last().1.0 - Vector2::new(10f64.cos(), -10f64.sin())).amax() < 1e-5);
    let _ = Rkmk::<R2>::exp(&schemes::catalogue::RK4).unwrap();
}

#[test]
fn adaptive_save_times_without_the_initial_time() {
    // Regression: the save list need not contain t0 (the initial step must not read the saved
    // points).
    let p = decay();
    let mut opts = Options::adaptive(1e-8, 1e-8);
    opts.save = Save::Times(vec![0.5, 1.0]);
    let mut s = find("rkmk54").unwrap().stepper::<R1>();
    let sol = integrate(&p, &mut s, 0.0, y0(), 1.0, &opts).unwrap();
    assert_eq!(sol.t.len(), 2);
    assert!((sol.y[0].0[0] - (-0.5f64).exp()).abs() < 1e-7);
    assert!((sol.y[1].0[0] - (-1.0f64).exp()).abs() < 1e-7);
}
