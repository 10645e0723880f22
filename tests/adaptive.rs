//! Adaptive steps on the free rigid body on S² against the exact elliptic solution: for
//! RKMK(5,4) and the commutator-free pairs the global error falls roughly in proportion to the
//! tolerance over 1e-4 … 1e-10.

use homogeneous::{RotationAction, Sphere2};
use nalgebra::Vector3;
use schemes::{Options, Problem, Stepper, integrate};

mod common;
use common::free_rigid_body_exact;

#[test]
fn global_error_follows_the_tolerance() {
    let inertia = Vector3::new(1.0, 2.0, 3.0);
    let m0 = Vector3::new(1.2f64.cos(), 0.0, 1.2f64.sin());
    let t_end = 20.0;
    let exact = free_rigid_body_exact(inertia, m0, t_end);
    let problem = Problem::new(RotationAction::<f64>::new(), move |_t: f64, m: &Sphere2| {
        -m.q().component_div(&inertia)
    });
    let tols = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10];
    println!(
        "{:<8} {:>8} {:>10} {:>9} {:>9} {:>9}",
        "method", "tol", "error", "accepted", "rejected", "f-evals"
    );
    for id in ["rkmk54", "rkmk-bs32", "cf32", "cf43"] {
        let mut errors = Vec::new();
        for &tol in &tols {
            let mut stepper = schemes::methods::find(id)
                .unwrap()
                .stepper::<RotationAction>();
            let sol = integrate(
                &problem,
                &mut stepper,
                0.0,
                Sphere2::try_new(m0).unwrap(),
                t_end,
                &Options::adaptive(tol, tol).save_final(),
            )
            .unwrap();
            let err = (sol.last().1.q() - exact).amax();
            println!(
                "{:<8} {:>8.0e} {:>10.2e} {:>9} {:>9} {:>9}",
                stepper.name(),
                tol,
                err,
                sol.stats.accepted,
                sol.stats.rejected,
                sol.stats.work.f_evals
            );
            errors.push(err);
        }
        // Proportionality: the error never exceeds 100·tol (over a horizon of ~10 periods), and
        // over six decades of tolerance it falls by at least four decades.
        for (e, tol) in errors.iter().zip(&tols) {
            assert!(*e < 100.0 * tol, "{id}: error {e:e} at tol {tol:e}");
        }
        assert!(errors[6] < errors[0] * 1e-4, "{id}: {errors:?}");
        // And it decreases (allowing 3× noise between neighbouring tolerances).
        for w in errors.windows(2) {
            assert!(w[1] < 3.0 * w[0], "{id}: {errors:?}");
        }
    }
}
