//! The stage-constrained (nonholonomic, discrete Chetaev) VPRKMK lift on (S²)ⁿ over long runs
//! and at high order (`docs/nonholonomic.md` §7):
//!
//! - energy error bounded with no trend over 10⁵ steps at h = 0.1 on the spherical pendulum
//!   (the earlier derivation, with `s` stage multipliers and the full (E0), reached
//!   max|ΔE| = 1.34 after 2·10⁴ steps on these data);
//! - fitted orders 2, 4 and 6 (Gauss–Legendre s = 1, 2, 3) on the spherical and the double
//!   spherical pendulum against a fine Gauss 6 reference;
//! - Lobatto IIIA: refused with stage constraints (typed error), convergent with the
//!   regularized lift.

use models::{DoubleSphericalPendulum, LinearPotential, NFoldPendulum, SphereModel, SphereSystem};
use nalgebra::Vector3;
use schemes::catalogue::{GAUSS_LEGENDRE2, GAUSS_LEGENDRE4, GAUSS_LEGENDRE6};
use schemes::nonholonomic::{
    LOBATTO_IIIA2, LOBATTO_IIIA4, Lift, NewtonOptions, Vprkmk, rotation_to,
};
use schemes::{ButcherTableau, SchemeError, fit_order};

type Sys = SphereSystem<LinearPotential>;

/// Spherical pendulum, `m l² = m g l = 1`, e₃ up, `x(0) = (sin 1, 0, −cos 1)`,
/// `Η₀ = (0.3, 0.8, 0)` in the body frame of `rotation_to(x₀)` (`docs/nonholonomic.md` §6.4).
fn pendulum() -> (NFoldPendulum, Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    let p = NFoldPendulum::new(vec![1.0], vec![1.0], 1.0).unwrap();
    let x0 = Vector3::new(1.0_f64.sin(), 0.0, -(1.0_f64.cos()));
    let w0 = rotation_to(&x0) * Vector3::new(0.3, 0.8, 0.0);
    (p, vec![x0], vec![w0])
}

#[test]
fn stage_constrained_energy_bounded_over_1e5_steps() {
    // h = 0.1, Gauss 1 stage. Bounded: the largest |ΔE| in the last tenth of the run is not
    // larger than in the first tenth (a linear drift or a blow-up makes it 10× or more larger),
    // and the whole run stays at the O(h²) amplitude of the regularized lift (6.3e-4, §5).
    let (p, x0, w0) = pendulum();
    let sys = p.system();
    let (h, steps) = (0.1, 100_000);
    let mut m = Vprkmk::new(
        sys,
        &GAUSS_LEGENDRE2,
        Lift::StageConstrained,
        NewtonOptions::default(),
    )
    .unwrap();
    let mut s = m.initial_state(0.0, &x0, &w0);
    let e0 = m.energy(&s);
    let mut de = Vec::with_capacity(steps);
    let mut unit = 0.0_f64;
    for k in 0..steps {
        s = match m.step(&s, h) {
            Ok(s1) => s1,
            Err(e) => panic!(
                "step {k} (t = {:.1}) failed: {e}; max|ΔE| so far {:.3e}",
                s.t,
                de.iter().fold(0.0_f64, |a: f64, v: &f64| a.max(v.abs()))
            ),
        };
        de.push(m.energy(&s) - e0);
        unit = unit.max((s.rotations[0].column(2).norm() - 1.0).abs());
    }
    let amax = |v: &[f64]| v.iter().fold(0.0_f64, |a, x| a.max(x.abs()));
    let tenth = steps / 10;
    let (first, last, all) = (amax(&de[..tenth]), amax(&de[steps - tenth..]), amax(&de));
    let checkpoints: Vec<String> = [5_000, 10_000, 20_000, 50_000, 100_000]
        .iter()
        .map(|&n| format!("{n}: {:.3e}", amax(&de[..n])))
        .collect();
    println!(
        "stage-constrained Gauss 1, h = {h}: max|ΔE| first tenth {first:.3e}, last tenth {last:.3e}, all {all:.3e}; running max {checkpoints:?}; max||x|−1| = {unit:.2e}"
    );
    assert!(
        last <= 1.5 * first,
        "energy error grows: {first:e} → {last:e}"
    );
    assert!(all < 2e-3, "max|ΔE| = {all:e}");
    assert!(unit < 1e-12);
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

/// Fitted order of the stage-constrained lift with each Gauss tableau: positions at `t`
/// against a Gauss 6 regularized reference with `n_ref` steps (a different lift, so the
/// reference is independent of the method under test; its error is below 1 % of the smallest
/// error fitted).
fn orders(
    sys: &Sys,
    x0: &[Vector3<f64>],
    w0: &[Vector3<f64>],
    t: f64,
    n_ref: usize,
    cases: &[(&ButcherTableau, f64, &[usize])],
    label: &str,
) {
    let reference = run(
        sys,
        &GAUSS_LEGENDRE6,
        Lift::Regularized { c: 1.0 },
        x0,
        w0,
        t,
        n_ref,
    );
    for &(tab, p, ns) in cases {
        let h: Vec<f64> = ns.iter().map(|n| t / *n as f64).collect();
        let err: Vec<f64> = ns
            .iter()
            .map(|&n| {
                let x = run(sys, tab, Lift::StageConstrained, x0, w0, t, n);
                x.iter()
                    .zip(&reference)
                    .map(|(a, b)| (a - b).amax())
                    .fold(0.0, f64::max)
            })
            .collect();
        let fit = fit_order(&h, &err, 1e-13).unwrap();
        let shown: Vec<String> = err.iter().map(|e| format!("{e:.3e}")).collect();
        println!(
            "{label} {} stage-constrained: N = {ns:?}, errors {shown:?}, order {:.3}",
            tab.name, fit.slope
        );
        assert!(
            (fit.slope - p).abs() < 0.25,
            "{label} {}: order {} (expected {p})",
            tab.name,
            fit.slope
        );
    }
}

#[test]
fn stage_constrained_orders_2_4_6_on_the_spherical_pendulum() {
    let (p, x0, w0) = pendulum();
    orders(
        p.system(),
        &x0,
        &w0,
        2.0,
        640,
        &[
            (&GAUSS_LEGENDRE2, 2.0, &[20, 40, 80, 160]),
            (&GAUSS_LEGENDRE4, 4.0, &[10, 20, 40, 80]),
            (&GAUSS_LEGENDRE6, 6.0, &[5, 10, 20, 40]),
        ],
        "spherical pendulum",
    );
}

#[test]
fn stage_constrained_orders_2_4_6_on_the_double_spherical_pendulum() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let s = DoubleSphericalPendulum::initial_state();
    orders(
        p.system(),
        &s.q,
        &s.omega,
        2.0,
        640,
        &[
            (&GAUSS_LEGENDRE2, 2.0, &[20, 40, 80, 160]),
            (&GAUSS_LEGENDRE4, 4.0, &[10, 20, 40, 80]),
            (&GAUSS_LEGENDRE6, 6.0, &[5, 10, 20, 40]),
        ],
        "double spherical pendulum",
    );
}

#[test]
fn lobatto_refused_with_stage_constraints() {
    // With a singular RK matrix (Lobatto IIIA: explicit first stage) the stage constraints and
    // the stage force polynomial (H5)–(H6) are singular (`docs/nonholonomic.md` §7): refused.
    let (p, _, _) = pendulum();
    for tab in [&LOBATTO_IIIA2, &LOBATTO_IIIA4] {
        let r = Vprkmk::new(
            p.system(),
            tab,
            Lift::StageConstrained,
            NewtonOptions::default(),
        );
        assert!(
            matches!(
                r,
                Err(SchemeError::InvalidOption {
                    name: "tableau",
                    ..
                })
            ),
            "{}: {:?}",
            tab.name,
            r.err()
        );
        // The regularized lift takes them.
        assert!(
            Vprkmk::new(
                p.system(),
                tab,
                Lift::Regularized { c: 1.0 },
                NewtonOptions::default()
            )
            .is_ok()
        );
    }
}

#[test]
fn lobatto_regularized_orders_2_4_and_bounded_energy() {
    // Lobatto IIIA (as the first tableau of the VPRKMK, i.e. the Lobatto IIIA–IIIB pair) with
    // the regularized lift: orders 2 and 4 against the Gauss 6 reference, and with IIIA 2 at
    // h = 0.1 over 10⁴ steps an energy error without growth (last tenth ≤ 1.5 × first tenth).
    let (p, x0, w0) = pendulum();
    let sys = p.system();
    let t = 2.0;
    let reference = run(
        sys,
        &GAUSS_LEGENDRE6,
        Lift::Regularized { c: 1.0 },
        &x0,
        &w0,
        t,
        640,
    );
    for (tab, order) in [(&LOBATTO_IIIA2, 2.0), (&LOBATTO_IIIA4, 4.0)] {
        let ns = [10, 20, 40, 80];
        let h: Vec<f64> = ns.iter().map(|n| t / f64::from(*n)).collect();
        let err: Vec<f64> = ns
            .iter()
            .map(|&n| {
                let x = run(
                    sys,
                    tab,
                    Lift::Regularized { c: 1.0 },
                    &x0,
                    &w0,
                    t,
                    n as usize,
                );
                (x[0] - reference[0]).amax()
            })
            .collect();
        let fit = fit_order(&h, &err, 1e-13).unwrap();
        let shown: Vec<String> = err.iter().map(|e| format!("{e:.3e}")).collect();
        println!(
            "{} regularized: errors {shown:?}, order {:.3}",
            tab.name, fit.slope
        );
        assert!(
            (fit.slope - order).abs() < 0.2,
            "{}: {}",
            tab.name,
            fit.slope
        );
    }
    let mut m = Vprkmk::new(
        sys,
        &LOBATTO_IIIA2,
        Lift::Regularized { c: 1.0 },
        NewtonOptions::default(),
    )
    .unwrap();
    let mut s = m.initial_state(0.0, &x0, &w0);
    let e0 = m.energy(&s);
    let steps = 10_000;
    let de: Vec<f64> = (0..steps)
        .map(|_| {
            s = m.step(&s, 0.1).unwrap();
            m.energy(&s) - e0
        })
        .collect();
    let amax = |v: &[f64]| v.iter().fold(0.0_f64, |a, x| a.max(x.abs()));
    let (first, last) = (amax(&de[..steps / 10]), amax(&de[steps - steps / 10..]));
    println!(
        "Lobatto IIIA 2 regularized, h = 0.1: max|ΔE| first tenth {first:.3e}, last tenth {last:.3e}"
    );
    assert!(last <= 1.5 * first && first < 5e-3);
}
