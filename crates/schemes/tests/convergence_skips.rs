//! `measure_order` skips the step counts that fail and fits on the rest;
//! `measure_tolerance_order` measures adaptive methods against their tolerance. Problem:
//! `ẏ = −y` on ℝ (the translation group acting on itself), `y(t) = e^{−t} y₀`.

use homogeneous::LeftMultiplication;
use liegroup::Rn;
use nalgebra::Vector1;
use schemes::methods::find;
use schemes::{Problem, SchemeError, measure_order, measure_tolerance_order};

type R1 = LeftMultiplication<Rn<f64, 1>>;

/// `ẏ = −y`, defined only for `y ≥ 0` (a concentration, say): the field is NaN outside, so a
/// step that overshoots below 0 fails with a typed error.
fn decay() -> Problem<R1, impl Fn(f64, &Rn<f64, 1>) -> Vector1<f64>> {
    Problem::new(R1::new(), |_t: f64, y: &Rn<f64, 1>| {
        if y.0[0] < 0.0 {
            Vector1::new(f64::NAN)
        } else {
            -y.0
        }
    })
}

/// `ẏ = −y` everywhere.
fn plain_decay() -> Problem<R1, impl Fn(f64, &Rn<f64, 1>) -> Vector1<f64>> {
    Problem::new(R1::new(), |_t: f64, y: &Rn<f64, 1>| -y.0)
}

fn pt(x: f64) -> Rn<f64, 1> {
    Rn::new(Vector1::new(x))
}

fn dist(a: &Rn<f64, 1>, b: &Rn<f64, 1>) -> f64 {
    (a.0[0] - b.0[0]).abs()
}

const T: f64 = 10.0;

#[test]
fn failing_step_counts_are_skipped_and_the_rest_is_fitted() {
    // RK4 with h = T/n: the stage y₀ + (h/2)k₁ = (1 − h/2) y₀ is negative for h > 2, i.e.
    // n ∈ {2, 4}; for h ≤ 2 every stage stays non-negative (RK4 of ẏ = −y keeps y > 0 for
    // h < 2.78), so n ≥ 8 runs.
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let steps = [2, 4, 8, 16, 32, 64, 128, 256];
    let row = measure_order(
        &decay(),
        &mut s,
        0.0,
        &pt(1.0),
        T,
        &pt((-T).exp()),
        &steps,
        dist,
        1e-16,
    )
    .unwrap();
    let skipped: Vec<f64> = row.skipped.iter().map(|p| p.setting).collect();
    assert_eq!(skipped, [2.0, 4.0]);
    for p in &row.skipped {
        assert!(
            matches!(p.reason, SchemeError::NonFinite { .. }),
            "{:?}",
            p.reason
        );
    }
    assert_eq!(row.steps, [8, 16, 32, 64, 128, 256]);
    assert_eq!(row.h.len(), 6);
    let table = schemes::format_table(core::slice::from_ref(&row));
    assert!(table.contains("skipped n = 2, 4"), "{table}");
    let fit = row.fit.as_ref().expect("six points");
    assert!((fit.slope - 4.0).abs() < 0.2, "{row:?}");
}

#[test]
fn fewer_than_two_good_points_is_an_error() {
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let r = measure_order(
        &decay(),
        &mut s,
        0.0,
        &pt(1.0),
        T,
        &pt((-T).exp()),
        &[2, 4, 8],
        dist,
        1e-16,
    );
    // Only n = 8 runs: the reason of the first skipped point is returned.
    assert!(matches!(r, Err(SchemeError::NonFinite { .. })), "{r:?}");
    let r = measure_order(
        &decay(),
        &mut s,
        0.0,
        &pt(1.0),
        T,
        &pt((-T).exp()),
        &[16],
        dist,
        1e-16,
    );
    assert!(matches!(r, Err(SchemeError::InvalidOption { .. })), "{r:?}");
}

#[test]
fn tolerance_order_of_an_embedded_pair() {
    // RKMK with Dormand–Prince 5(4) (local extrapolation, error-per-step control): steps
    // shrink like tol^(1/5) and the global error of the order-5 solution like h̄⁵, so
    // error ∝ tol¹ and error ∝ steps⁻⁵.
    let mut s = find("rkmk54").unwrap().stepper::<R1>();
    let tols: Vec<f64> = (4..=10).map(|k| 10f64.powi(-k)).collect();
    let row = measure_tolerance_order(
        &plain_decay(),
        &mut s,
        0.0,
        &pt(1.0),
        T,
        &pt((-T).exp()),
        &tols,
        dist,
        1e-16,
    )
    .unwrap();
    println!("{row:?}");
    assert!(row.skipped.is_empty());
    assert_eq!(row.expected_order, 5);
    assert_eq!(row.embedded_order, Some(4));
    assert!(row.steps.windows(2).all(|w| w[1] >= w[0]), "{row:?}");
    let tol_slope = row.tolerance_fit.as_ref().unwrap().slope;
    let order = row.steps_fit.as_ref().unwrap().slope;
    assert!((tol_slope - 1.0).abs() < 0.3, "{row:?}");
    assert!((order - 5.0).abs() < 1.0, "{row:?}");
}

#[test]
fn tolerance_order_needs_an_error_estimate() {
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let r = measure_tolerance_order(
        &decay(),
        &mut s,
        0.0,
        &pt(1.0),
        1.0,
        &pt((-1.0f64).exp()),
        &[1e-4, 1e-6],
        dist,
        1e-16,
    );
    assert!(matches!(r, Err(SchemeError::Unsupported { .. })), "{r:?}");
}

#[test]
fn tolerances_that_fail_are_skipped_in_order() {
    // With the field undefined below 0, a loose tolerance may take a step whose stage
    // overshoots; whichever tolerances fail, they are recorded (with the field's NonFinite
    // error) and the others measured, each exactly once and in the given order.
    let mut s = find("rkmk54").unwrap().stepper::<R1>();
    let tols: Vec<f64> = (1..=10).map(|k| 10f64.powi(-k)).collect();
    let row = measure_tolerance_order(
        &decay(),
        &mut s,
        0.0,
        &pt(1.0),
        T,
        &pt((-T).exp()),
        &tols,
        dist,
        1e-16,
    )
    .unwrap();
    let mut all: Vec<f64> = row.tolerances.clone();
    all.extend(row.skipped.iter().map(|p| p.setting));
    all.sort_by(|a, b| b.total_cmp(a));
    assert_eq!(all, tols);
    assert!(row.tolerances.windows(2).all(|w| w[1] < w[0]));
    for p in &row.skipped {
        assert!(matches!(p.reason, SchemeError::NonFinite { .. }), "{p:?}");
    }
    assert_eq!(row.errors.len(), row.tolerances.len());
}
