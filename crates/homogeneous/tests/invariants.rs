//! Structure preservation without projection: SE(3)ᴺ acting on (TS²)ᴺ keeps |q| = 1 and
//! q·ω = 0 to round-off over 10⁴ random actions.
//!
//! The random group elements have rotation angles uniform in [0, π] about uniform axes and
//! translations with entries uniform in [−0.05, 0.05] ("moderate size"): each action adds
//! `t × q` with |t| ≤ 0.087 to ω, so |ω| performs a random walk and stays O(1–10) over 10⁴ steps
//! instead of growing geometrically.
//!
//! Checked: at the end, for every factor, `||q| − 1| ≤ 1e-13` and `|q·ω| ≤ 1e-13·|ω|`; during
//! the run, `||q| − 1| ≤ 1e-13` and `|q·ω| ≤ 1e-13·max(1, |ω|)` after every action. (The
//! relative measure `|q·ω|/|ω|` alone is not bounded along the run: the absolute normal
//! component of ω, a random walk of round-off, is carried along while |ω| itself may pass close
//! to zero.)

use homogeneous::testing::{kit_rng, random_se3, random_tangent_sphere2, random_vector};
use homogeneous::{Action, TangentSphere2, TangentSphereAction, VecPowerAction};
use nalgebra::Vector6;
use std::f64::consts::PI;

const STEPS: usize = 10_000;
const MAX_TRANSLATION: f64 = 0.05;

/// `(max ||q| − 1|, max |q·ω|/max(floor, |ω|), max |ω|)` over the factors.
fn errors(x: &[TangentSphere2], floor: f64) -> (f64, f64, f64) {
    x.iter().fold((0.0, 0.0, 0.0), |(u, t, w), p| {
        let norm_w = p.omega().norm();
        let qw = p.q().dot(p.omega()).abs();
        let tangency = if qw == 0.0 {
            0.0
        } else {
            qw / norm_w.max(floor)
        };
        (
            u.max((p.q().norm() - 1.0).abs()),
            t.max(tangency),
            w.max(norm_w),
        )
    })
}

fn run(n: usize, seed: u64, use_act_exp: bool) {
    let action = VecPowerAction::new(TangentSphereAction::new());
    let mut rng = kit_rng(seed);
    let mut x: Vec<TangentSphere2> = (0..n)
        .map(|_| random_tangent_sphere2(&mut rng, 1.0))
        .collect();
    let (mut unit, mut tangency, mut omega) = (0.0_f64, 0.0_f64, 0.0_f64);
    for _ in 0..STEPS {
        x = if use_act_exp {
            // ξ = (u, v) with |u|∞ ≤ 1.8 (angles up to ~π) and |v|∞ ≤ 0.05.
            let xi: Vec<Vector6<f64>> = (0..n)
                .map(|_| {
                    let u = random_vector::<_, 3>(&mut rng, 1.8);
                    let v = random_vector::<_, 3>(&mut rng, MAX_TRANSLATION);
                    Vector6::new(u.x, u.y, u.z, v.x, v.y, v.z)
                })
                .collect();
            action.act_exp(&xi, &x)
        } else {
            let g: Vec<_> = (0..n)
                .map(|_| random_se3(&mut rng, PI, MAX_TRANSLATION))
                .collect();
            action.act(&g, &x)
        };
        let (u, t, w) = errors(&x, 1.0);
        unit = unit.max(u);
        tangency = tangency.max(t);
        omega = omega.max(w);
    }
    let (final_unit, final_tangency, _) = errors(&x, 0.0);
    println!(
        "N = {n}, {}: along the run max ||q| − 1| = {unit:.2e}, max |q·ω|/max(1, |ω|) = {tangency:.2e}, \
         max |ω| = {omega:.2}; at the end ||q| − 1| = {final_unit:.2e}, |q·ω|/|ω| = {final_tangency:.2e}",
        if use_act_exp { "act_exp" } else { "act" }
    );
    assert!(unit <= 1e-13, "N = {n}: ||q| − 1| reached {unit:e}");
    assert!(
        tangency <= 1e-13,
        "N = {n}: |q·ω|/max(1, |ω|) reached {tangency:e}"
    );
    assert!(
        final_unit <= 1e-13,
        "N = {n}: final ||q| − 1| = {final_unit:e}"
    );
    assert!(
        final_tangency <= 1e-13,
        "N = {n}: final |q·ω|/|ω| = {final_tangency:e}"
    );
    assert!(omega < 100.0, "ω grew to {omega}");
}

#[test]
fn se3_power_keeps_ts2_to_round_off() {
    for (n, seed) in [(1, 101), (2, 102), (5, 105)] {
        run(n, seed, false);
        run(n, seed + 1000, true);
    }
}
