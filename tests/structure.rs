//! Structure preservation without projection: after 10⁵ steps of RKMK4 and CF4 on (TS²)²
//! (the 2-fold pendulum under SE(3)²), `||qᵢ| − 1|` and `|qᵢ·ωᵢ|` stay at round-off.

use homogeneous::{Action, PowerAction, TangentSphere2, TangentSphereAction};
use nalgebra::Vector3;
use schemes::{Problem, Stepper};

mod common;
use common::pendulum2;

#[test]
fn rkmk4_and_cf4_keep_ts2_to_round_off_over_1e5_steps() {
    let action = PowerAction::<_, 2>::new(TangentSphereAction::<f64>::new());
    let problem = Problem::new(action, pendulum2);
    let y0 = [
        TangentSphere2::new_projected(Vector3::new(1.0, 0.0, 0.2), Vector3::new(0.0, 0.5, 0.0)).unwrap(),
        TangentSphere2::new_projected(Vector3::new(0.3, 1.0, -0.5), Vector3::new(-0.4, 0.0, 0.6)).unwrap(),
    ];
    for id in ["rkmk4", "cf4"] {
        let mut stepper = schemes::methods::find(id).unwrap().stepper::<PowerAction<TangentSphereAction, 2>>();
        let mut y = y0;
        let h = 0.01;
        let (mut max_norm, mut max_tan) = (0.0_f64, 0.0_f64);
        for n in 0..100_000 {
            y = stepper
                .step(&problem.action, &problem.field, h * f64::from(n), &y, h, None)
                .unwrap()
                .y;
            for p in &y {
                max_norm = max_norm.max((p.q().norm() - 1.0).abs());
                max_tan = max_tan.max(p.q().dot(p.omega()).abs());
            }
        }
        println!("{id}: max ||q| − 1| = {max_norm:.2e}, max |q·ω| = {max_tan:.2e}");
        assert!(max_norm <= 1e-13, "{id}: unit length drifted to {max_norm:e}");
        assert!(max_tan <= 1e-13, "{id}: tangency drifted to {max_tan:e}");
        assert!(problem.action.point_is_finite(&y));
    }
}
