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

use models::{NFoldPendulum, SphereModel};
use nalgebra::Vector3;
use schemes::catalogue::GAUSS_LEGENDRE2;
use schemes::nonholonomic::{Lift, NewtonOptions, Vprkmk, rotation_to};

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
