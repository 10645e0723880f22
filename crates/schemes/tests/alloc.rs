//! Fixed-size problems allocate nothing per step: a counting global allocator (per thread)
//! around a loop of steps of every method (the implicit ones keep their Newton workspace and
//! LU factors between steps), and of the implicit methods with fixed-point iteration.

use homogeneous::LeftMultiplication;
use liegroup::Rn;
use nalgebra::Vector3;
use schemes::methods::METHODS;
use schemes::{ImplicitOptions, ImplicitRkmk, StageSolver};
use schemes::{Stepper, Tolerance};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

type Act = LeftMultiplication<Rn<f64, 3>>;

fn field(t: f64, y: &Rn<f64, 3>) -> Vector3<f64> {
    Vector3::new(y.0[1], -y.0[0] + t.sin(), -0.5 * y.0[2])
}

#[test]
fn steps_do_not_allocate() {
    let action = Act::new();
    let tol = Tolerance::new(1e-8, 1e-8).unwrap();
    for spec in METHODS {
        // Pairs measure their error in ambient coordinates (stack buffers for small points).
        let mut stepper = spec.stepper::<Act>();
        let with_tol = spec.embedded_order.map(|_| &tol);
        let mut y = Rn::new(Vector3::new(1.0, 0.0, 0.5));
        // The first step sizes the work buffers.
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
        assert!(y.0.iter().all(|x| x.is_finite()));
    }
}

#[test]
fn fixed_point_implicit_steps_do_not_allocate() {
    let action = Act::new();
    let options = ImplicitOptions {
        solver: StageSolver::FixedPoint,
        ..ImplicitOptions::default()
    };
    let mut stepper =
        ImplicitRkmk::<Act>::exp(&schemes::catalogue::GAUSS_LEGENDRE4).with_options(options);
    let mut y = Rn::new(Vector3::new(1.0, 0.0, 0.5));
    y = stepper
        .step(&action, &field, 0.0, &y, 0.01, None)
        .unwrap()
        .y;
    let before = allocations();
    for i in 1..200 {
        y = stepper
            .step(&action, &field, 0.01 * f64::from(i), &y, 0.01, None)
            .unwrap()
            .y;
    }
    assert_eq!(allocations() - before, 0);
    assert!(y.0.iter().all(|x| x.is_finite()));
}
