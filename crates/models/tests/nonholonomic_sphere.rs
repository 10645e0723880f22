//! High-order integrators on (S²)ⁿ = SO(3)ⁿ/SO(2)ⁿ via nonholonomic mechanics: observed orders
//! 2 and 4 (Gauss–Legendre 1 and 2 stages) for the stage-constrained and the regularized
//! lift on the spherical and the double spherical pendulum, long-run energy and unit length,
//! and a comparison with RKMK4 at equal stage evaluations.

use homogeneous::{TangentSphere2, TangentSphereAction, VecPowerAction};
use models::{
    DoubleSphericalPendulum, LieField, LinearPotential, NFoldPendulum, SphereModel, SphereSystem,
};
use nalgebra::Vector3;
use schemes::catalogue::{GAUSS_LEGENDRE2, GAUSS_LEGENDRE4};
use schemes::nonholonomic::{Lift, LiftedState, NewtonOptions, Vprkmk, rotation_to};
use schemes::{ButcherTableau, Options, Problem, fit_order};

type Sys = SphereSystem<LinearPotential>;

fn pendulum() -> (NFoldPendulum, Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    // m l² = m g l = 1, e₃ up (`docs/nonholonomic.md` §6.4 data; the start rotation differs).
    let p = NFoldPendulum::new(vec![1.0], vec![1.0], 1.0).unwrap();
    let x0 = Vector3::new(1.0_f64.sin(), 0.0, -(1.0_f64.cos()));
    let w0 = rotation_to(&x0) * Vector3::new(0.3, 0.8, 0.0);
    (p, vec![x0], vec![w0])
}

fn run(
    sys: &Sys,
    tab: &ButcherTableau,
    lift: Lift,
    x0: &[Vector3<f64>],
    w0: &[Vector3<f64>],
    t: f64,
    n: usize,
) -> Vec<Vector3<f64>> {
    let mut m = Vprkmk::new(sys, tab, lift, NewtonOptions::default()).unwrap();
    let mut s = m.initial_state(0.0, x0, w0);
    for _ in 0..n {
        s = m.step(&s, t / n as f64).unwrap();
    }
    m.positions_velocities(&s).0
}

fn orders(sys: &Sys, x0: &[Vector3<f64>], w0: &[Vector3<f64>], t: f64, label: &str) {
    let reference = run(
        sys,
        &GAUSS_LEGENDRE4,
        Lift::Regularized { c: 1.0 },
        x0,
        w0,
        t,
        1280,
    );
    let ns = [10, 20, 40, 80];
    let h: Vec<f64> = ns.iter().map(|n| t / *n as f64).collect();
    for (tab, p) in [(&GAUSS_LEGENDRE2, 2.0), (&GAUSS_LEGENDRE4, 4.0)] {
        for lift in [Lift::StageConstrained, Lift::Regularized { c: 1.0 }] {
            let err: Vec<f64> = ns
                .iter()
                .map(|&n| {
                    let x = run(sys, tab, lift, x0, w0, t, n);
                    x.iter()
                        .zip(&reference)
                        .map(|(a, b)| (a - b).amax())
                        .fold(0.0, f64::max)
                })
                .collect();
            let fit = fit_order(&h, &err, 1e-12).unwrap();
            let shown: Vec<String> = err.iter().map(|e| format!("{e:.3e}")).collect();
            println!(
                "{label} {} {lift:?}: errors {shown:?} order {:.3}",
                tab.name, fit.slope
            );
            assert!(
                (fit.slope - p).abs() < 0.2,
                "{label} {}: {}",
                tab.name,
                fit.slope
            );
        }
    }
}

#[test]
fn orders_two_and_four_on_the_spherical_pendulum() {
    let (p, x0, w0) = pendulum();
    orders(p.system(), &x0, &w0, 2.0, "spherical pendulum");
}

#[test]
fn orders_two_and_four_on_the_double_spherical_pendulum() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let s = DoubleSphericalPendulum::initial_state();
    orders(p.system(), &s.q, &s.omega, 2.0, "double spherical pendulum");
}

/// Least-squares slope of `y` against `x`.
fn slope(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

fn long_run(
    sys: &Sys,
    lift: Lift,
    h: f64,
    steps: usize,
    x0: &[Vector3<f64>],
    w0: &[Vector3<f64>],
) -> (Vec<f64>, Vec<f64>, f64, usize) {
    let mut m = Vprkmk::new(sys, &GAUSS_LEGENDRE2, lift, NewtonOptions::default()).unwrap();
    let mut s: LiftedState = m.initial_state(0.0, x0, w0);
    let e0 = m.energy(&s);
    let (mut ts, mut de, mut unit) = (Vec::new(), Vec::new(), 0.0_f64);
    for _ in 0..steps {
        s = m.step(&s, h).unwrap();
        ts.push(s.t);
        de.push(m.energy(&s) - e0);
        for r in &s.rotations {
            unit = unit.max((r.column(2).norm() - 1.0).abs());
        }
    }
    (ts, de, unit, m.stage_evaluations())
}

#[test]
fn regularized_lift_energy_bounded_without_trend_and_unit_length() {
    let (p, x0, w0) = pendulum();
    let steps = 10_000;
    let h = 0.1;
    let (ts, de, unit, evals) =
        long_run(p.system(), Lift::Regularized { c: 1.0 }, h, steps, &x0, &w0);
    let max_de = de.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let trend = slope(&ts, &de);
    let first = de[..steps / 2].iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let second = de[steps / 2..].iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    println!(
        "regularized Gauss 1, h = {h}, {steps} steps: max|ΔE| = {max_de:.3e} (first half {first:.3e}, second half {second:.3e}), fitted trend {trend:.3e} per unit time (× T = {:.3e}), max||x|−1| = {unit:.2e}, stage evaluations {evals}",
        trend * ts[steps - 1]
    );
    assert!(max_de < 2e-3);
    assert!((trend * ts[steps - 1]).abs() < 0.1 * max_de);
    assert!(second < 1.5 * first);
    assert!(unit < 1e-13);

    // RKMK4 on (TS²)ⁿ at equal stage evaluations (4 per step).
    let sys = p.system();
    let problem = Problem::new(
        VecPowerAction::new(TangentSphereAction::new()),
        LieField::new(sys),
    );
    let n_rk = evals / 4;
    let t_end = ts[steps - 1];
    let y0 = vec![TangentSphere2::new_projected(x0[0], w0[0]).unwrap()];
    let mut rk = schemes::methods::find("rkmk4")
        .unwrap()
        .stepper::<VecPowerAction<TangentSphereAction>>();
    let e0 = sys.energy(&[x0[0]], &[w0[0]]);
    let mut rk_de = Vec::new();
    let mut rk_t = Vec::new();
    let _ = schemes::integrate_with_observer(
        &problem,
        &mut rk,
        0.0,
        y0,
        t_end,
        &Options::count(n_rk).save_final(),
        |t: f64, y: &Vec<TangentSphere2>| {
            rk_t.push(t);
            rk_de.push(sys.energy(&[*y[0].q()], &[*y[0].omega()]) - e0);
        },
    )
    .unwrap();
    let rk_max = rk_de.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    println!(
        "RKMK4 at equal stage evaluations ({n_rk} steps, h = {:.4}): max|ΔE| = {rk_max:.3e}, fitted trend {:.3e} per unit time",
        t_end / n_rk as f64,
        slope(&rk_t, &rk_de)
    );
}

#[test]
fn stage_constrained_lift_short_run() {
    // The stage-constrained (discrete Chetaev) variant over 2 000 steps; the 10⁵-step run is
    // in `nonholonomic_homogeneous_long.rs` (`docs/nonholonomic.md` §7).
    let (p, x0, w0) = pendulum();
    let (ts, de, unit, _) = long_run(p.system(), Lift::StageConstrained, 0.1, 2_000, &x0, &w0);
    let max_de = de.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    println!(
        "stage-constrained Gauss 1, 2000 steps: max|ΔE| = {max_de:.3e}, trend {:.3e}, unit {unit:.2e}",
        slope(&ts, &de)
    );
    assert!(max_de < 5e-3);
    assert!(unit < 1e-13);
}
