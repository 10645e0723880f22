//! Per-step cost of every method on the free rigid body on S² and on the 2-fold pendulum on
//! (TS²)² (fixed step, f64).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use homogeneous::{PowerAction, RotationAction, Sphere2, TangentSphere2, TangentSphereAction};
use nalgebra::Vector3;
use schemes::Stepper;
use schemes::methods::METHODS;
use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;

fn free_rigid_body(c: &mut Criterion) {
    let inertia = Vector3::new(1.0, 2.0, 3.0);
    let action = RotationAction::<f64>::new();
    let f = move |_t: f64, m: &Sphere2| -m.q().component_div(&inertia);
    let y0 = Sphere2::try_new(Vector3::new(1.2f64.cos(), 0.0, 1.2f64.sin())).unwrap();
    let mut group = c.benchmark_group("step/free-rigid-body-s2");
    for spec in METHODS {
        let mut stepper = spec.stepper::<RotationAction>();
        group.bench_function(BenchmarkId::from_parameter(spec.id), |b| {
            // Every iteration steps from the initial point: a chain of millions of steps leaves
            // the region of interest (and blows up for Lie–Euler on the pendulum).
            b.iter(|| {
                black_box(
                    stepper
                        .step(&action, &f, 0.0, black_box(&y0), black_box(0.01), None)
                        .unwrap()
                        .y,
                )
            });
        });
    }
    group.finish();
}

fn pendulum(c: &mut Criterion) {
    type Act = PowerAction<TangentSphereAction, 2>;
    let action = Act::new(TangentSphereAction::new());
    let y0 = [
        TangentSphere2::new_projected(Vector3::new(0.3, 0.0, -1.0), Vector3::new(0.0, 0.2, 0.0))
            .unwrap(),
        TangentSphere2::new_projected(Vector3::new(0.0, 0.2, -1.0), Vector3::zeros()).unwrap(),
    ];
    let mut group = c.benchmark_group("step/pendulum-2-ts2");
    for spec in METHODS {
        let mut stepper = spec.stepper::<Act>();
        group.bench_function(BenchmarkId::from_parameter(spec.id), |b| {
            b.iter(|| {
                black_box(
                    stepper
                        .step(
                            &action,
                            &common::pendulum2,
                            0.0,
                            black_box(&y0),
                            black_box(0.01),
                            None,
                        )
                        .unwrap()
                        .y,
                )
            });
        });
    }
    group.finish();
}

criterion_group!(benches, free_rigid_body, pendulum);
criterion_main!(benches);
