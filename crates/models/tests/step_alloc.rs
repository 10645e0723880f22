//! Whole integration steps allocate nothing on fixed-size problems with the models' own vector
//! fields: every method, the implicit Gauss–Legendre ones included (their Newton workspace and
//! LU factors are kept between steps), and every pair with its error estimate, on (TS²)² with
//! [`LieField`] of the double spherical pendulum under `PowerAction<TangentSphereAction, 2>`,
//! and on S² (the free rigid body under `RotationAction`). Also: a neighbour-list gradient
//! allocates nothing once the list is built (serial build; with the `rayon` feature the work
//! runs on the pool's threads, which this per-thread counter does not see). On runtime-N
//! points (`VecPowerAction`, N chosen at run time) the explicit RKMK and commutator-free
//! engines move their stage points and write `dexp⁻¹` in place: one allocation per step, the
//! returned point, also for the embedded pairs with their error estimate beyond 64 ambient
//! coordinates.

use homogeneous::{PowerAction, RotationAction, Sphere2, TangentSphere2, TangentSphereAction};
use models::{DoubleSphericalPendulum, LieField, SphereModel};
use nalgebra::Vector3;
use schemes::methods::METHODS;
use schemes::{Stepper, Tolerance};

#[path = "common/counting.rs"]
mod counting;
use counting::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn steps_on_ts2_squared_with_the_models_field_do_not_allocate() {
    type Act = PowerAction<TangentSphereAction, 2>;
    let action = Act::new(TangentSphereAction::new());
    let model = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let field = LieField::new(model.system());
    let x0 = DoubleSphericalPendulum::initial_state().to_tangent_points();
    let tol = Tolerance::new(1e-8, 1e-8).unwrap();
    for spec in METHODS {
        let mut stepper = spec.stepper::<Act>();
        let with_tol = spec.embedded_order.map(|_| &tol);
        let mut y: [TangentSphere2<f64>; 2] = [x0[0], x0[1]];
        y = stepper
            .step(&action, &field, 0.0, &y, 0.01, with_tol)
            .unwrap()
            .y;
        let before = allocations();
        for i in 1..200 {
            y = stepper
                .step(&action, &field, 0.01 * f64::from(i), &y, 0.01, with_tol)
                .unwrap()
                .y;
        }
        let n = allocations() - before;
        assert_eq!(n, 0, "{}: {n} allocations in 199 steps", spec.id);
        assert!(y.iter().all(|p| (p.q().norm() - 1.0).abs() < 1e-12));
    }
}

#[test]
fn steps_on_s2_do_not_allocate() {
    let action = RotationAction::<f64>::new();
    let inertia = Vector3::new(1.0, 2.0, 3.0);
    let field = move |_t: f64, m: &Sphere2| -m.q().component_div(&inertia);
    let tol = Tolerance::new(1e-8, 1e-8).unwrap();
    for spec in METHODS {
        let mut stepper = spec.stepper::<RotationAction>();
        let with_tol = spec.embedded_order.map(|_| &tol);
        let mut y = Sphere2::try_new(Vector3::new(1.2f64.cos(), 0.0, 1.2f64.sin())).unwrap();
        y = stepper
            .step(&action, &field, 0.0, &y, 0.01, with_tol)
            .unwrap()
            .y;
        let before = allocations();
        for i in 1..200 {
            y = stepper
                .step(&action, &field, 0.01 * f64::from(i), &y, 0.01, with_tol)
                .unwrap()
                .y;
        }
        let n = allocations() - before;
        assert_eq!(n, 0, "{}: {n} allocations in 199 steps", spec.id);
        assert!((y.q().norm() - 1.0).abs() < 1e-12);
    }
}

#[test]
fn runtime_n_steps_allocate_only_the_returned_point() {
    use homogeneous::VecPowerAction;
    use models::NFoldPendulum;
    type Act = VecPowerAction<TangentSphereAction>;
    let action = Act::new(TangentSphereAction::new());
    let (model, x0) = NFoldPendulum::convergence_experiment(3);
    let field = LieField::new(model.system());
    let y0 = x0.to_tangent_points();
    let tol = Tolerance::new(1e-8, 1e-8).unwrap();
    for id in [
        "lie-euler",
        "rkmk4",
        "rkmk4-series",
        "gl4",
        "rkmk54",
        "rkmk6",
        "rkmk4-2comm",
        "cf4",
        "cf43",
        "cg4",
    ] {
        let spec = schemes::methods::find(id).unwrap();
        let mut stepper = spec.stepper::<Act>();
        let with_tol = spec.embedded_order.map(|_| &tol);
        let mut y = stepper
            .step(&action, &field, 0.0, &y0, 0.01, with_tol)
            .unwrap()
            .y;
        let before = allocations();
        for i in 1..100 {
            y = stepper
                .step(&action, &field, 0.01 * f64::from(i), &y, 0.01, with_tol)
                .unwrap()
                .y;
        }
        let n = allocations() - before;
        assert!(
            n <= 99,
            "{id}: {n} allocations in 99 steps (more than the returned points)"
        );
        assert!(y.iter().all(|p| (p.q().norm() - 1.0).abs() < 1e-12));
    }
}

/// The embedded pairs' error estimate on a runtime power of more than 64 ambient coordinates
/// (12 links: 72) visits the coordinates factor by factor (`ManifoldPoint::zip_ambient3`):
/// still one allocation per step, the returned point.
#[test]
fn runtime_n_pairs_with_error_estimates_allocate_only_the_returned_point() {
    use homogeneous::VecPowerAction;
    use models::{NFoldPendulum, SphereState};
    type Act = VecPowerAction<TangentSphereAction>;
    let action = Act::new(TangentSphereAction::new());
    let model = NFoldPendulum::uniform(12, 1.0, 1.0, models::GRAVITY).unwrap();
    let field = LieField::new(model.system());
    let y0 = SphereState::random(12, 1.0, 5).to_tangent_points();
    assert!(y0.len() * 6 > 64);
    let tol = Tolerance::new(1e-8, 1e-8).unwrap();
    for id in ["rkmk54", "rkmk-bs32", "cf32", "cf43"] {
        let spec = schemes::methods::find(id).unwrap();
        let mut stepper = spec.stepper::<Act>();
        let out = stepper
            .step(&action, &field, 0.0, &y0, 0.001, Some(&tol))
            .unwrap();
        let mut y = out.y;
        let before = allocations();
        for i in 1..50 {
            let out = stepper
                .step(&action, &field, 0.001 * f64::from(i), &y, 0.001, Some(&tol))
                .unwrap();
            assert!(out.error.is_some_and(f64::is_finite), "{id}");
            y = out.y;
        }
        let n = allocations() - before;
        assert!(
            n <= 49,
            "{id}: {n} allocations in 49 steps (more than the returned points)"
        );
    }
}

#[cfg(not(feature = "rayon"))]
#[test]
fn neighbour_list_gradient_does_not_allocate_once_built() {
    use models::Potential;
    let (sys, qa) = models::LennardJones::large(3000, 0.01, 2.5, 0.3).unwrap();
    let pot = sys.potential();
    let mut g = vec![Vector3::zeros(); qa.len()];
    pot.gradient(&qa, &mut g);
    // Small moves: the list is reused, nothing is built.
    let mut q = qa.clone();
    let before = allocations();
    for _ in 0..3 {
        for p in &mut q {
            *p = (*p + Vector3::new(1e-6, -1e-6, 5e-7)).normalize();
        }
        pot.gradient(&q, &mut g);
    }
    assert_eq!(allocations() - before, 0, "allocations without a rebuild");
    // Large moves: alternating between two configurations forces a rebuild at every call. Once
    // the buffers have seen both (warm-up), rebuilds reuse them: a row reallocates only when
    // it outgrows its capacity.
    let qb: Vec<Vector3<f64>> = qa
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let s = if i % 2 == 0 { 1.0 } else { -1.0 };
            (p + Vector3::new(0.05 * s, -0.03, 0.04 * s)).normalize()
        })
        .collect();
    for x in [&qb, &qa, &qb, &qa] {
        pot.gradient(x, &mut g);
    }
    let (before, rebuilds) = (allocations(), pot.rebuilds());
    for _ in 0..3 {
        pot.gradient(&qb, &mut g);
        pot.gradient(&qa, &mut g);
    }
    let n = allocations() - before;
    assert_eq!(pot.rebuilds() - rebuilds, 6, "every call rebuilds");
    assert_eq!(n, 0, "{n} allocations in 6 rebuilding gradients");
}
