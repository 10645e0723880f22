//! Long runs on SO(3): RKMK4 and CF4 keep `‖RᵀR − I‖ ≤ 1e-12` over 10⁶ steps of the free
//! rigid body (spatial frame, `Ṙ = (R I⁻¹ Rᵀ m)^ R`) without any projection: every step
//! multiplies by exponentials of `so(3)`, orthogonal to round-off, so the defect grows by at
//! most a few ε per step (a random walk in practice) — it must stay far below the truncation
//! error, which for these explicit methods is not an orthogonality error at all.
//!
//! The spatial angular momentum `m` is constant along the exact flow; the error of
//! `R I⁻¹ Rᵀ m`'s conserved energy `½ mᵀ R I⁻¹ Rᵀ m` is reported for information only.

use homogeneous::LeftMultiplication;
use liegroup::{LieGroup, So3};
use nalgebra::{Matrix3, Vector3};
use schemes::methods::find;
use schemes::{Options, Problem, integrate_with_observer};
use std::time::Instant;

type A = LeftMultiplication<So3<f64>>;

const INERTIA: Vector3<f64> = Vector3::new(1.0, 2.0, 3.0);
const M: Vector3<f64> = Vector3::new(0.4, -1.1, 0.7);

fn field(_t: f64, r: &So3<f64>) -> Vector3<f64> {
    let r = r.matrix();
    r * (r.transpose() * M).component_div(&INERTIA)
}

fn orthogonality(r: &So3<f64>) -> f64 {
    let r = r.matrix();
    (r.transpose() * r - Matrix3::identity()).amax()
}

/// Runs `method` for `n` steps of `h`, returns the largest `‖RᵀR − I‖_max` seen.
fn run(method: &str, n: usize, h: f64) -> f64 {
    let problem = Problem::new(A::new(), field);
    let mut s = find(method).unwrap().stepper::<A>();
    let y0 = So3::exp(&Vector3::new(0.3, -0.5, 0.8));
    let mut worst: f64 = 0.0;
    let t0 = Instant::now();
    let sol = integrate_with_observer(
        &problem,
        &mut s,
        0.0,
        y0,
        n as f64 * h,
        &Options::fixed(h).save_final(),
        |_t, r: &So3<f64>| worst = worst.max(orthogonality(r)),
    )
    .unwrap();
    assert_eq!(sol.stats.accepted, n);
    println!(
        "{method}: {n} steps of {h}: max ‖RᵀR − I‖ = {worst:.3e} ({:.2} s)",
        t0.elapsed().as_secs_f64()
    );
    worst
}

#[test]
fn rkmk4_keeps_orthogonality_over_a_million_steps() {
    let worst = run("rkmk4", 1_000_000, 0.01);
    assert!(worst <= 1e-12, "{worst:e}");
}

#[test]
fn cf4_keeps_orthogonality_over_a_million_steps() {
    let worst = run("cf4", 1_000_000, 0.01);
    assert!(worst <= 1e-12, "{worst:e}");
}
