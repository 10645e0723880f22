//! `Save::Every(K)`: the initial point, every K-th accepted step and the final point; `K = 0` is
//! an invalid option.

use homogeneous::LeftMultiplication;
use liegroup::Rn;
use nalgebra::Vector1;
use schemes::methods::find;
use schemes::{Options, Problem, Save, SchemeError, integrate};

type R1 = LeftMultiplication<Rn<f64, 1>>;

fn decay() -> Problem<R1, impl Fn(f64, &Rn<f64, 1>) -> Vector1<f64>> {
    Problem::new(R1::new(), |_t: f64, y: &Rn<f64, 1>| -y.0)
}

fn y0() -> Rn<f64, 1> {
    Rn::new(Vector1::new(1.0))
}

fn with_save(mut o: Options, save: Save) -> Options {
    o.save = save;
    o
}

#[test]
fn save_every_keeps_initial_every_kth_and_final() {
    let p = decay();
    // 10 steps, K = 3: points after steps 0 (initial), 3, 6, 9 and 10 (final).
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let sol = integrate(
        &p,
        &mut s,
        0.0,
        y0(),
        1.0,
        &with_save(Options::count(10), Save::Every(3)),
    )
    .unwrap();
    let expected = [0.0, 0.3, 0.6, 0.9, 1.0];
    assert_eq!(sol.t.len(), expected.len(), "{:?}", sol.t);
    for (t, e) in sol.t.iter().zip(expected) {
        assert!((t - e).abs() < 1e-12, "{:?}", sol.t);
    }
    assert_eq!(sol.stats.accepted, 10);
    // The saved points are those of Save::Steps at the same times.
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let all = integrate(&p, &mut s, 0.0, y0(), 1.0, &Options::count(10)).unwrap();
    for (k, i) in [0usize, 3, 6, 9, 10].into_iter().enumerate() {
        assert_eq!(sol.y[k], all.y[i]);
        assert_eq!(sol.t[k], all.t[i]);
    }
}

#[test]
fn save_every_final_point_not_duplicated() {
    let p = decay();
    // 10 steps, K = 5: 0, 5, 10 (the final step is a multiple: saved once).
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let sol = integrate(
        &p,
        &mut s,
        0.0,
        y0(),
        1.0,
        &with_save(Options::count(10), Save::Every(5)),
    )
    .unwrap();
    assert_eq!(sol.t.len(), 3, "{:?}", sol.t);
    // K = 1 is Save::Steps.
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let one = integrate(
        &p,
        &mut s,
        0.0,
        y0(),
        1.0,
        &with_save(Options::count(10), Save::Every(1)),
    )
    .unwrap();
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let steps = integrate(&p, &mut s, 0.0, y0(), 1.0, &Options::count(10)).unwrap();
    assert_eq!(one.t, steps.t);
    assert_eq!(one.y, steps.y);
    // K larger than the number of steps: initial and final.
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let sol = integrate(
        &p,
        &mut s,
        0.0,
        y0(),
        1.0,
        &with_save(Options::count(10), Save::Every(1000)),
    )
    .unwrap();
    assert_eq!(sol.t.len(), 2);
}

#[test]
fn save_every_with_adaptive_steps_keeps_the_final_point() {
    let p = decay();
    let mut s = find("rkmk54").unwrap().stepper::<R1>();
    let sol = integrate(
        &p,
        &mut s,
        0.0,
        y0(),
        5.0,
        &with_save(Options::adaptive(1e-8, 1e-8), Save::Every(4)),
    )
    .unwrap();
    let n = sol.stats.accepted;
    assert!(n > 4);
    let expected = 1 + n / 4 + usize::from(!n.is_multiple_of(4));
    assert_eq!(sol.t.len(), expected);
    assert_eq!(*sol.t.last().unwrap(), 5.0);
    assert_eq!(sol.t[0], 0.0);
}

#[test]
fn save_every_zero_is_an_invalid_option() {
    let p = decay();
    let mut s = find("rkmk4").unwrap().stepper::<R1>();
    let e = integrate(
        &p,
        &mut s,
        0.0,
        y0(),
        1.0,
        &with_save(Options::count(10), Save::Every(0)),
    )
    .unwrap_err();
    assert!(
        matches!(
            e.error,
            SchemeError::InvalidOption {
                name: "save every",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.partial.t.is_empty());
}
