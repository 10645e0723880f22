//! Time in the driver: fixed steps sit on the grid `t₀ + n·h` (computed, never accumulated),
//! a step that does not move the time is a typed error, the default minimum step follows the
//! resolution of the current time, a hopeless run is refused before it starts, and an adaptive
//! run treats a non-finite stage like a failed error test.

use homogeneous::LeftMultiplication;
use liegroup::Rn;
use nalgebra::Vector1;
use schemes::methods::find;
use schemes::{Options, Problem, Save, SchemeError, Stepper as _, integrate};

type R1 = LeftMultiplication<Rn<f64, 1>>;

fn y(v: f64) -> Rn<f64, 1> {
    Rn::new(Vector1::new(v))
}

/// `y' = cos t` (non-autonomous, exact solution `y₀ + sin t − sin t₀`).
fn cosine() -> Problem<R1, impl Fn(f64, &Rn<f64, 1>) -> Vector1<f64>> {
    Problem::new(R1::new(), |t: f64, _y: &Rn<f64, 1>| Vector1::new(t.cos()))
}

#[test]
fn fixed_steps_sit_on_the_grid_t0_plus_n_h_after_many_steps() {
    // 10⁵ steps of 0.01: the saved times at multiples of h are step ends exactly (RKMK4 has no
    // dense output, so a time that missed the grid by rounding would be an error).
    let p = cosine();
    let h = 0.01;
    let n = 100_000usize;
    let times: Vec<f64> = (0..=n).step_by(997).map(|k| k as f64 * h).collect();
    let t_end = n as f64 * h;
    let mut options = Options::fixed(h);
    options.save = Save::Times(times.clone());
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let sol = integrate(&p, &mut s, 0.0, y(0.0), t_end, &options).unwrap();
    assert_eq!(sol.t, times);
    for (t, yt) in sol.t.iter().zip(&sol.y) {
        assert!((yt.0[0] - t.sin()).abs() < 1e-9, "t = {t}");
    }
    assert_eq!(sol.stats.accepted, n);
}

#[test]
fn a_large_start_time_keeps_the_state_right_and_time_increasing() {
    // t₀ = 10⁹ (ulp 1.2e-7): the step ends are t₀ + n·h rounded, the steps their differences;
    // time never goes backwards and the solution follows the exact one.
    let p = cosine();
    let t0 = 1e9;
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let sol = integrate(&p, &mut s, t0, y(0.0), t0 + 10.0, &Options::fixed(0.01)).unwrap();
    assert!(sol.t.windows(2).all(|w| w[1] > w[0]));
    assert_eq!(*sol.t.last().unwrap(), t0 + 10.0);
    let exact = (t0 + 10.0).sin() - t0.sin();
    assert!((sol.last().1.0[0] - exact).abs() < 1e-6);
    // t₀ = 10¹⁷ (ulp 16): steps of 100 are resolved (y' = cos t is then meaningless, use a
    // constant rate: y = t − t₀ exactly on the representable grid).
    let unit = Problem::new(R1::new(), |_t: f64, _y: &Rn<f64, 1>| Vector1::new(1.0));
    let t0 = 1e17;
    let t_end = t0 + 1000.0;
    let sol = integrate(&unit, &mut s, t0, y(0.0), t_end, &Options::fixed(100.0)).unwrap();
    assert_eq!(sol.last().1.0[0], t_end - t0);
    assert!(sol.t.windows(2).all(|w| w[1] > w[0]));
}

#[test]
fn a_step_that_does_not_move_the_time_is_a_typed_error() {
    // At t = 10¹⁷ a step of 1 is below the resolution of f64: t + h == t.
    let unit = Problem::new(R1::new(), |_t: f64, _y: &Rn<f64, 1>| Vector1::new(1.0));
    let t0 = 1e17;
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let e = integrate(&unit, &mut s, t0, y(0.0), t0 + 64.0, &Options::fixed(1.0)).unwrap_err();
    match e.error {
        SchemeError::StalledTime { t, h } => {
            assert_eq!(t, t0);
            assert!(h < 16.0, "{h}");
        }
        ref other => panic!("unexpected {other}"),
    }
    assert_eq!(e.partial.y.len(), 1, "the initial point is kept");
}

#[test]
fn the_default_minimum_step_follows_the_ulp_of_t_not_the_span() {
    // A fast decay (explicit methods need h ≲ 3e-4 for stability) over a span of 10⁹: with a
    // minimum step proportional to the span (10⁻³) this failed at t = 0; now the run proceeds
    // until its step budget is used up, having advanced in time.
    let fast = Problem::new(R1::new(), |_t: f64, y: &Rn<f64, 1>| -1e4 * y.0);
    let mut s = find("rkmk54").unwrap().stepper::<R1>();
    let options = Options::adaptive(1e-8, 1e-8).max_steps(2000);
    let e = integrate(&fast, &mut s, 0.0, y(1.0), 1e9, &options).unwrap_err();
    assert!(
        matches!(e.error, SchemeError::StepBudgetExhausted { .. }),
        "{e}"
    );
    assert!(e.partial.stats.accepted > 100);
    assert!(e.partial.last().0 > 0.0);
}

#[test]
fn a_run_longer_than_the_step_budget_is_refused_before_it_starts() {
    let p = cosine();
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let e = integrate(&p, &mut s, 0.0, y(0.0), 1e6, &Options::fixed(1e-9)).unwrap_err();
    match &e.error {
        SchemeError::InvalidOption { name, reason } => {
            assert_eq!(*name, "step budget");
            assert!(
                reason.contains("1.000e15") && reason.contains("10000000"),
                "{reason}"
            );
        }
        other => panic!("unexpected {other}"),
    }
    assert_eq!(s.stats().f_evals, 0, "nothing was computed");
}

#[test]
fn a_non_finite_stage_in_an_adaptive_run_shrinks_the_step_instead_of_aborting() {
    // y' = −y, but the field is NaN at negative y: with loose tolerances the first steps are
    // long enough for a stage to overshoot below zero. Like a failed error test, that step is
    // rejected and retried shorter; the run reaches t_end.
    let p = Problem::new(R1::new(), |_t: f64, y: &Rn<f64, 1>| {
        if y.0[0] >= 0.0 {
            -y.0
        } else {
            Vector1::new(f64::NAN)
        }
    });
    for id in ["rkmk54", "cf43"] {
        let mut s = find(id).unwrap().stepper::<R1>();
        let mut options = Options::adaptive(1.0, 1.0);
        options.h0 = Some(10.0);
        let sol = integrate(&p, &mut s, 0.0, y(1.0), 100.0, &options)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(sol.last().0, 100.0);
        assert!(
            sol.stats.rejected >= 1,
            "{id}: the overshooting step was rejected"
        );
        assert!(sol.y.iter().all(|p| p.0[0].is_finite()));
    }
}
