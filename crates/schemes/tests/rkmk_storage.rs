//! The RKMK engine has one step that runs on two storages: a local array on fixed-size problems
//! (tableaux of up to `LOCAL_STAGES` stages) and the stepper's work buffers otherwise. Here the
//! same heavy-top problem on SO(3) × ℝ³ is stepped as a fixed-size point and as a runtime
//! power with one factor (`Vec<P>`, buffers): the steps, error estimates, dense output and
//! work counters agree for every explicit tableau of the catalogue and for long tableaux built
//! from substeps (8, 12 and 20 stages); non-finite field values are reported at the first
//! stage that produced them on both; and the long tableaux keep their order (fitted slope).

use homogeneous::LeftMultiplication;
use liegroup::{LieGroup, Rn, So3};
use nalgebra::{Matrix3, Vector3};
use schemes::catalogue::{DOPRI54, EULER, KUTTA3, RK4, TABLEAUX};
use schemes::{ButcherTableau, LOCAL_STAGES, Rkmk, SchemeError, Stepper, Tolerance};

type P = (So3<f64>, Rn<f64, 3>);
type A = LeftMultiplication<P>;
type VecA = LeftMultiplication<Vec<P>>;
type Alg = (Vector3<f64>, Vector3<f64>);

/// `f(R, Π) = (RΩ, Π × Ω + Γ × X)`, `Ω = J⁻¹Π`, `Γ = Rᵀe₃`: a heavy top in body momentum,
/// with spatial angular velocity (left multiplication), a full inertia matrix and a
/// time-dependent centre of mass.
fn field(t: f64, p: &P) -> Alg {
    let j_inv = Matrix3::new(0.5, 0.1, 0.0, 0.1, 0.8, 0.05, 0.0, 0.05, 0.3);
    let omega = j_inv * p.1.0;
    let gamma = p.0.inverse_rotate(&Vector3::z());
    let x = Vector3::new(0.0, 2.0 + 0.1 * t.sin(), 0.3);
    (p.0.rotate(&omega), p.1.0.cross(&omega) + gamma.cross(&x))
}

#[allow(clippy::ptr_arg)] // the point type of the runtime power is `Vec<P>`
fn field_vec(t: f64, p: &Vec<P>) -> Vec<Alg> {
    p.iter().map(|q| field(t, q)).collect()
}

fn start() -> P {
    (
        So3::exp(&Vector3::new(0.3, -0.2, 0.9)),
        Rn::new(Vector3::new(1.0, 2.0, -0.5)),
    )
}

/// The tableau of `m` classical RK4 steps of size `h/m` taken as one step: `4m` stages, order
/// 4 (a composition of order-4 Runge–Kutta steps is an order-4 Runge–Kutta method, whose
/// tableau is block lower triangular: each block row repeats the weights of the earlier
/// substeps \[HNW93, §II.12\]). Leaked: catalogue tableaux hold `'static` slices.
fn substeps(m: usize) -> &'static ButcherTableau {
    let s = 4 * m;
    let (a4, b4, c4) = (
        [
            [0.0; 4],
            [0.5, 0.0, 0.0, 0.0],
            [0.0, 0.5, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
        ],
        RK4.b,
        RK4.c,
    );
    let mf = m as f64;
    let mut rows: Vec<&'static [f64]> = Vec::new();
    let mut c = Vec::new();
    for block in 0..m {
        for i in 0..4 {
            let mut row = vec![0.0; 4 * block + i];
            for earlier in 0..block {
                for j in 0..4 {
                    row[4 * earlier + j] = b4[j] / mf;
                }
            }
            for j in 0..i {
                row[4 * block + j] = a4[i][j] / mf;
            }
            rows.push(Box::leak(row.into_boxed_slice()));
            c.push((block as f64 + c4[i]) / mf);
        }
    }
    let b: Vec<f64> = (0..s).map(|i| b4[i % 4] / mf).collect();
    let name: &'static str = Box::leak(format!("RK4 x{m}").into_boxed_str());
    Box::leak(Box::new(ButcherTableau {
        name,
        order: 4,
        reference: "[Kut01]",
        a: Box::leak(rows.into_boxed_slice()),
        b: Box::leak(b.into_boxed_slice()),
        c: Box::leak(c.into_boxed_slice()),
        embedded: None,
        dense_output: None,
    }))
}

/// Both storages over `steps` steps of size `h`: equal steps, errors, dense output, counters.
fn assert_storages_agree(tableau: &ButcherTableau, steps: usize, h: f64) {
    let (action, vec_action) = (A::new(), VecA::new());
    let tol = Tolerance::new(1e-9, 1e-9).unwrap();
    let with_tol = tableau.b_hat().map(|_| &tol);
    let mut local = Rkmk::<A>::exp(tableau).unwrap();
    let mut buffered = Rkmk::<VecA>::exp(tableau).unwrap();
    let mut y = start();
    for i in 0..steps {
        let t = h * i as f64;
        let a = local.step(&action, &field, t, &y, h, with_tol).unwrap();
        let b = buffered
            .step(&vec_action, &field_vec, t, &vec![y], h, with_tol)
            .unwrap();
        // Equal values: the local storage adds zero coefficients' exact zeros, which can only
        // change the sign of a zero.
        assert_eq!(a.y, b.y[0], "{} step {i}", tableau.name);
        assert_eq!(a.error, b.error, "{} step {i}", tableau.name);
        if local.has_dense_output() {
            for theta in [0.25, 0.5, 0.8] {
                assert_eq!(
                    local.dense_output(&action, &y, theta),
                    buffered
                        .dense_output(&vec_action, &vec![y], theta)
                        .map(|p| p[0]),
                    "{} step {i}",
                    tableau.name
                );
            }
        }
        y = a.y;
    }
    assert_eq!(local.stats(), buffered.stats(), "{}", tableau.name);
    let stats = local.stats();
    assert_eq!(stats.f_evals, steps * tableau.stages(), "{}", tableau.name);
}

#[test]
fn both_storages_agree_for_every_explicit_tableau() {
    let mut checked = 0;
    for tableau in TABLEAUX.iter().filter(|t| t.is_explicit()) {
        assert_storages_agree(tableau, 300, 0.01);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} explicit tableaux");
}

#[test]
fn long_tableaux_take_both_storages_and_agree() {
    for m in [2, 3, 5] {
        let tableau = substeps(m);
        tableau.validate().unwrap();
        assert_eq!(tableau.verify_order().order, 4, "{}", tableau.name);
        assert_storages_agree(tableau, 100, 0.02);
    }
    // 12 stages fit the local array, 20 do not.
    const { assert!(4 * 3 <= LOCAL_STAGES && 4 * 5 > LOCAL_STAGES) };
}

/// The long tableaux (12 stages: local array; 20 stages: buffers on a fixed-size problem) are
/// of order 4 on the heavy top: the fitted slope of the end-point error against `h` over a
/// range where the error is far above round-off and in its asymptotic regime.
#[test]
fn long_tableaux_converge_with_order_four() {
    let action = A::new();
    let t_end = 2.0;
    let run = |tableau: &ButcherTableau, n: usize| {
        let mut stepper = Rkmk::<A>::exp(tableau).unwrap();
        let h = t_end / n as f64;
        let mut y = start();
        for i in 0..n {
            y = stepper
                .step(&action, &field, h * i as f64, &y, h, None)
                .unwrap()
                .y;
        }
        y
    };
    // Reference: the 20-stage method with 40 times smaller steps than the finest below (its
    // error is then 40⁴ ≈ 2.6·10⁶ times smaller).
    let reference = run(substeps(5), 4 * 40 * 16);
    let distance = |a: &P, b: &P| {
        let dr = So3::log(&a.0.compose(&b.0.inverse())).norm();
        dr.max((a.1.0 - b.1.0).norm())
    };
    for m in [3, 5] {
        let tableau = substeps(m);
        let ns = [4, 8, 16, 32];
        let errs: Vec<f64> = ns
            .iter()
            .map(|&n| distance(&run(tableau, n), &reference))
            .collect();
        // Least-squares slope of log(err) against log(h).
        let xs: Vec<f64> = ns.iter().map(|&n| (t_end / n as f64).ln()).collect();
        let ys: Vec<f64> = errs.iter().map(|e| e.ln()).collect();
        let (mx, my) = (xs.iter().sum::<f64>() / 4.0, ys.iter().sum::<f64>() / 4.0);
        let slope = xs
            .iter()
            .zip(&ys)
            .map(|(x, y)| (x - mx) * (y - my))
            .sum::<f64>()
            / xs.iter().map(|x| (x - mx).powi(2)).sum::<f64>();
        assert!(
            (3.8..=4.3).contains(&slope),
            "{}: slope {slope}, errors {errs:?}",
            tableau.name
        );
        assert!(
            errs[3] > 1e-13,
            "{}: finest error at round-off",
            tableau.name
        );
    }
}

/// A field that turns non-finite once the stage time passes `0.004` is reported at the first
/// stage past it (`t = 0.005` for the stages at `h/2` of RK4 and Kutta's method, `h/5 = 0.002`,
/// `3h/10 = 0.003`, `4h/5 = 0.008` for Dormand–Prince with `h = 0.01`), on both storages, for
/// NaN and for infinite values.
#[test]
fn the_first_non_finite_stage_is_reported_on_both_storages() {
    for value in [f64::NAN, f64::INFINITY] {
        let bad = move |t: f64, p: &P| {
            let mut k = field(t, p);
            if t > 0.004 {
                k.0.y = value;
            }
            k
        };
        let bad_vec = move |t: f64, p: &Vec<P>| p.iter().map(|q| bad(t, q)).collect::<Vec<_>>();
        for (tableau, expected) in [(&RK4, 0.005), (&KUTTA3, 0.005), (&DOPRI54, 0.008)] {
            let mut local = Rkmk::<A>::exp(tableau).unwrap();
            let mut buffered = Rkmk::<VecA>::exp(tableau).unwrap();
            let a = local.step(&A::new(), &bad, 0.0, &start(), 0.01, None);
            let b = buffered.step(&VecA::new(), &bad_vec, 0.0, &vec![start()], 0.01, None);
            for (storage, r) in [("local", a.map(|o| o.y)), ("buffers", b.map(|o| o.y[0]))] {
                match r {
                    Err(SchemeError::NonFinite { what, t }) => {
                        assert_eq!(what, "vector field");
                        assert!(
                            (t - expected).abs() < 1e-15,
                            "{} {storage}: t = {t}",
                            tableau.name
                        );
                    }
                    other => panic!(
                        "{} {storage}: expected NonFinite, got {other:?}",
                        tableau.name
                    ),
                }
            }
        }
    }
}

/// Finite field values whose weighted sum overflows are not reported as a non-finite field
/// (no stage value is): the step returns, the same on both storages.
#[test]
fn an_overflowing_sum_of_finite_stage_values_is_not_a_field_error() {
    let huge = |_t: f64, _p: &P| (Vector3::zeros(), Vector3::new(f64::MAX, 0.0, 0.0));
    let huge_vec = |t: f64, p: &Vec<P>| p.iter().map(|q| huge(t, q)).collect::<Vec<_>>();
    let mut local = Rkmk::<A>::exp(&RK4).unwrap();
    let mut buffered = Rkmk::<VecA>::exp(&RK4).unwrap();
    let a = local
        .step(&A::new(), &huge, 0.0, &start(), 4.0, None)
        .unwrap()
        .y;
    let b = buffered
        .step(&VecA::new(), &huge_vec, 0.0, &vec![start()], 4.0, None)
        .unwrap()
        .y;
    assert!(!a.1.0.x.is_finite());
    assert_eq!(a.0, b[0].0);
}

/// A stage whose row of `A` is zero is evaluated at `y₀` itself, without an exponential: the
/// two-stage tableau `c = (0, 0)`, `A = 0`, `b = (½, ½)` is Euler's method bitwise (`½h·k + ½h·k
/// = h·k` exactly in binary floating point) with one exponential per step.
#[test]
fn zero_rows_are_read_from_the_tableau() {
    let twice = ButcherTableau {
        name: "Euler, twice",
        order: 1,
        reference: "[HNW93]",
        a: &[&[], &[0.0]],
        b: &[0.5, 0.5],
        c: &[0.0, 0.0],
        embedded: None,
        dense_output: None,
    };
    let action = A::new();
    let mut euler = Rkmk::<A>::exp(&EULER).unwrap();
    let mut two = Rkmk::<A>::exp(&twice).unwrap();
    let mut two_vec = Rkmk::<VecA>::exp(&twice).unwrap();
    let (mut y, mut z, mut w) = (start(), start(), vec![start()]);
    for i in 0..100 {
        let t = 0.01 * f64::from(i);
        y = euler.step(&action, &field, t, &y, 0.01, None).unwrap().y;
        z = two.step(&action, &field, t, &z, 0.01, None).unwrap().y;
        w = two_vec
            .step(&VecA::new(), &field_vec, t, &w, 0.01, None)
            .unwrap()
            .y;
        assert_eq!(y, z, "step {i}");
        assert_eq!(y, w[0], "step {i}");
    }
    assert_eq!(two.stats().exps, 100);
    assert_eq!(two_vec.stats().exps, 100);
}
