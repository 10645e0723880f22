//! Structure preservation without projection: after 10⁵ steps of RKMK4 and CF4 on (TS²)²
//! (the 2-fold pendulum under SE(3)²), `||qᵢ| − 1|` and `|qᵢ·ωᵢ|` stay at round-off.

use homogeneous::{Action, PowerAction, TangentSphere2, TangentSphereAction};
use nalgebra::Vector3;
use schemes::{Problem, Stepper};

mod common;
use common::pendulum2;

type Act = PowerAction<TangentSphereAction, 2>;

/// Run 10⁵ steps of `h = 0.01` and return (max ||q| − 1|, max |q·ω|, max |q·ω|/max(1, |ω|),
/// max |ω|) over the run.
fn run(id: &str, y0: [TangentSphere2; 2]) -> (f64, f64, f64, f64) {
    let problem = Problem::new(Act::new(TangentSphereAction::new()), pendulum2);
    let mut stepper = schemes::methods::find(id).unwrap().stepper::<Act>();
    let mut y = y0;
    let h = 0.01;
    let (mut norm, mut tan, mut tan_rel, mut w_max) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
    for n in 0..100_000 {
        y = stepper
            .step(
                &problem.action,
                &problem.field,
                h * f64::from(n),
                &y,
                h,
                None,
            )
            .unwrap()
            .y;
        for p in &y {
            let w = p.omega().norm();
            norm = norm.max((p.q().norm() - 1.0).abs());
            tan = tan.max(p.q().dot(p.omega()).abs());
            tan_rel = tan_rel.max(p.q().dot(p.omega()).abs() / w.max(1.0));
            w_max = w_max.max(w);
        }
    }
    assert!(problem.action.point_is_finite(&y));
    (norm, tan, tan_rel, w_max)
}

#[test]
fn rkmk4_and_cf4_keep_ts2_to_round_off_over_1e5_steps() {
    // A gentle swing (|ω| stays below ~1.5): both measures in absolute terms.
    let gentle = [
        TangentSphere2::new_projected(Vector3::new(0.3, 0.0, -1.0), Vector3::new(0.0, 0.2, 0.0))
            .unwrap(),
        TangentSphere2::new_projected(Vector3::new(0.0, 0.2, -1.0), Vector3::zeros()).unwrap(),
    ];
    // A wild, chaotic motion (|ω| up to ~10): the round-off in q·ω scales with |ω|.
    let wild = [
        TangentSphere2::new_projected(Vector3::new(1.0, 0.0, 0.2), Vector3::new(0.0, 0.5, 0.0))
            .unwrap(),
        TangentSphere2::new_projected(Vector3::new(0.3, 1.0, -0.5), Vector3::new(-0.4, 0.0, 0.6))
            .unwrap(),
    ];
    for id in ["rkmk4", "cf4"] {
        let (norm, tan, _, w_max) = run(id, gentle);
        println!(
            "{id}, gentle: max ||q| − 1| = {norm:.2e}, max |q·ω| = {tan:.2e}, max |ω| = {w_max:.2}"
        );
        assert!(norm <= 1e-13, "{id}: unit length drifted to {norm:e}");
        assert!(tan <= 1e-13, "{id}: tangency drifted to {tan:e}");
        let (norm, tan, tan_rel, w_max) = run(id, wild);
        println!(
            "{id}, wild: max ||q| − 1| = {norm:.2e}, max |q·ω| = {tan:.2e}, max |q·ω|/max(1,|ω|) = {tan_rel:.2e}, max |ω| = {w_max:.2}"
        );
        assert!(norm <= 1e-13, "{id}: unit length drifted to {norm:e}");
        // q·ω is preserved exactly by the action, so its round-off accumulates as a random walk
        // of size ~ε·|ω|·√N and persists when |ω| later shrinks: compare with the run's speed
        // scale max |ω|.
        let _ = tan_rel;
        assert!(
            tan <= 1e-13 * w_max.max(1.0),
            "{id}: tangency drifted to {tan:e} with max |ω| = {w_max}"
        );
    }
}
