//! Side by side, in one run: the per-step cost of every Lie group method
//! (`schemes::methods::METHODS`) and of the classical integrators of the `ode_solvers` crate
//! (RK4, Dopri5, Dop853) on the ambient formulation of the same models:
//!
//! - the free rigid body and the heavy top on SO(3) × ℝ³ ([BC10] data; `models::HeavyTop` and
//!   `models::FreeRigidBody`, whose `LieVectorField` impls and `ambient_rate` give the
//!   formulations — body momentum, `Ω = J⁻¹Π` shared — wrapped in
//!   `benches/support/rigid.rs`), `h = 10⁻³`: every method with spatial velocities (left
//!   multiplication), rkmk4, cf4 and rkmk4-2comm also in the body frame
//!   (`models::rigid_body::BodyFrame`, right multiplication);
//! - the double spherical pendulum on (TS²)² ([LLM09, Ex. 1]; `models::LieField` over
//!   `PowerAction<TangentSphereAction, 2>` against `models::AmbientField::eval_flat`, the same
//!   linear solve), `h = 0.01`;
//! - the 642 Lennard-Jones molecules ([LLM09, Ex. 6]; `LieField` over
//!   `VecPowerAction<TangentSphereAction>` against `AmbientField::eval_flat`, the same per-pair
//!   AD gradient), `h = 0.01`, with the hand-written gradient and one explicit variational step
//!   [LLM09, eqs. (3.17)–(3.18)] for scale.
//!
//! Fixed-size problems use `ode_solvers`' `SVector` states (stack, no allocation but the
//! solver's own result vector), the 642-molecule problem `DVector`.
//!
//! Before criterion's per-method groups, a summary measures the ratios that matter by
//! interleaving the contenders (best of several rounds, so that load on the machine affects
//! both sides alike) and prints them.
//!
//! **A steady heap for the baseline.** `ode_solvers`' `Rk4::integrate` stores every step in
//! `Vec`s that each fresh solver grows from empty (it has no option to keep only the last
//! step). With glibc's default trim threshold the grown memory is returned to the system when a
//! batch ends, and the next batch page-faults it back in; whether that happens depends on what
//! else lives on the heap, so the same code measured 54–58 ns or 99–118 ns per heavy-top step
//! from one build to the next. The process therefore first tells glibc (`mallopt`) never to
//! trim and to serve all our sizes from the heap: the baseline then pays for storing each step
//! into memory that is already mapped, and nothing else. (A single long run pays more: 10⁶
//! steps of the heavy top cost 150–185 ns per step, for the page faults of its 96 MB of
//! output.)

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use homogeneous::{PowerAction, TangentSphere2, TangentSphereAction, VecPowerAction};
use models::{
    AmbientField, DoubleSphericalPendulum, LennardJones, LieField, Potential, SphereModel,
};
use nalgebra::Vector3;
use ode_solvers::{DVector, Dop853, Dopri5, OutputType, Rk4, SVector, System};
use schemes::methods::{METHODS, MethodKind};
use schemes::variational::SphereVariational;
use schemes::{AnyStepper, GroupLogDistance, Stepper};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "support/rigid.rs"]
mod rigid;
use models::rigid_body::BodyFrame;
use rigid::{RigidAct, RigidAlgebra, RigidBodyAct, RigidModel, RigidState};

type PendAct = PowerAction<TangentSphereAction, 2>;
type LjAct = VecPowerAction<TangentSphereAction>;

// ---------------------------------------------------------------------------------------------
// ode_solvers adapters (the model code is the shared one)
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct RigidOde<M>(M);
impl<M: RigidModel> System<f64, SVector<f64, 12>> for RigidOde<M>
where
    BodyFrame<M>: homogeneous::LieVectorField<f64, RigidState, RigidAlgebra>,
{
    #[inline(always)]
    fn system(&self, _t: f64, y: &SVector<f64, 12>, dy: &mut SVector<f64, 12>) {
        rigid::ambient(&self.0, y.as_slice(), dy.as_mut_slice());
    }
}

struct SphereOde<'a, P>(&'a AmbientField<'a, P>);
impl<P: Potential, const D: usize> System<f64, SVector<f64, D>> for SphereOde<'_, P> {
    #[inline]
    fn system(&self, _t: f64, y: &SVector<f64, D>, dy: &mut SVector<f64, D>) {
        self.0.eval_flat(y.as_slice(), dy.as_mut_slice());
    }
}
impl<P: Potential> System<f64, DVector<f64>> for SphereOde<'_, P> {
    #[inline]
    fn system(&self, _t: f64, y: &DVector<f64>, dy: &mut DVector<f64>) {
        self.0.eval_flat(y.as_slice(), dy.as_mut_slice());
    }
}

// ---------------------------------------------------------------------------------------------
// Timing helpers for the summary
// ---------------------------------------------------------------------------------------------

/// A contender: runs a batch, returns the number of steps taken.
type Batch<'a> = Box<dyn FnMut() -> usize + 'a>;

/// Interleave the contenders for `rounds` rounds; the best time per step of each (ns).
fn interleaved(rounds: usize, contenders: &mut [(&str, Batch<'_>)]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; contenders.len()];
    for _ in 0..rounds {
        for (k, (_, run)) in contenders.iter_mut().enumerate() {
            let t0 = Instant::now();
            let steps = run();
            let ns = t0.elapsed().as_secs_f64() * 1e9 / steps.max(1) as f64;
            best[k] = best[k].min(ns);
        }
    }
    best
}

fn print_block(title: &str, names: &[&str], ns: &[f64], base: usize) {
    println!("{title}");
    for (name, t) in names.iter().zip(ns) {
        println!(
            "  {name:<34} {:>12.1} ns/step   {:>6.2}× {}",
            t,
            t / ns[base],
            names[base]
        );
    }
}

/// A stepper whose commutator-free pairs measure their error through the group logarithm (for
/// SO(3) × ℝ³ acting on itself, which has no ambient-coordinate distance).
fn group_stepper<A>(spec: &schemes::MethodSpec) -> AnyStepper<A, GroupLogDistance>
where
    A: homogeneous::ActionInPlace,
{
    match spec.stepper::<A>() {
        AnyStepper::Rkmk(s) => AnyStepper::Rkmk(s),
        AnyStepper::Implicit(s) => AnyStepper::Implicit(s),
        AnyStepper::CommutatorFree(s) => {
            AnyStepper::CommutatorFree(s.with_distance(GroupLogDistance))
        }
        AnyStepper::TwoCommutators(s) => AnyStepper::TwoCommutators(s),
    }
}

fn lie_batch<'a, A, F, D>(
    mut stepper: AnyStepper<A, D>,
    action: A,
    f: &'a F,
    y0: A::Point,
    h: f64,
    steps: usize,
) -> Batch<'a>
where
    A: homogeneous::ActionInPlace<Group: liegroup::LieGroup<Scalar = f64>> + 'a,
    F: homogeneous::LieVectorField<f64, A::Point, schemes::Algebra<A>>,
    D: schemes::PointDistance<A::Point> + 'a,
{
    Box::new(move || {
        let mut y = y0.clone();
        for i in 0..steps {
            y = stepper
                .step(&action, f, h * i as f64, &y, h, None)
                .unwrap()
                .y;
        }
        black_box(&y);
        steps
    })
}

fn rk4_batch<'a, S, const D: usize>(sys: S, y0: [f64; D], h: f64, steps: usize) -> Batch<'a>
where
    S: System<f64, SVector<f64, D>> + Clone + 'a,
{
    let y0 = SVector::<f64, D>::from_column_slice(&y0);
    Box::new(move || {
        let mut s = Rk4::new(sys.clone(), 0.0, y0, h * steps as f64, h);
        let st = s.integrate().unwrap();
        black_box(s.y_out().last());
        st.accepted_steps as usize
    })
}

fn dopri_batch<'a, S, const D: usize>(
    sys: S,
    y0: [f64; D],
    t_end: f64,
    tol: f64,
    dop853: bool,
) -> Batch<'a>
where
    S: System<f64, SVector<f64, D>> + Clone + 'a,
{
    let y0 = SVector::<f64, D>::from_column_slice(&y0);
    Box::new(move || {
        let st = if dop853 {
            let mut s = Dop853::new(sys.clone(), 0.0, t_end, t_end, y0, tol, tol);
            s.set_output(OutputType::Sparse);
            let st = s.integrate().unwrap();
            black_box(s.y_out().last());
            st
        } else {
            let mut s = Dopri5::new(sys.clone(), 0.0, t_end, t_end, y0, tol, tol);
            s.set_output(OutputType::Sparse);
            let st = s.integrate().unwrap();
            black_box(s.y_out().last());
            st
        };
        (st.accepted_steps + st.rejected_steps) as usize
    })
}

impl<P> Clone for SphereOde<'_, P> {
    fn clone(&self) -> Self {
        Self(self.0)
    }
}

fn rigid_summary<M: RigidModel>(name: &str, body: M)
where
    BodyFrame<M>: homogeneous::LieVectorField<f64, RigidState, RigidAlgebra>,
{
    let x0 = rigid::initial_state();
    let y0 = x0.to_attitude();
    let ya = rigid::ambient_of(&y0);
    let f = body;
    let fb = BodyFrame(body);
    let (h, steps) = (1e-3, 1000);
    let names = [
        "ode_solvers RK4 (ambient ℝ¹²)",
        "rkmk4",
        "cf4",
        "rkmk4-2comm",
        "lie-euler",
    ];
    let mut c: Vec<(&str, Batch<'_>)> = vec![(names[0], rk4_batch(RigidOde(body), ya, h, steps))];
    for id in &names[1..] {
        c.push((
            id,
            lie_batch(
                group_stepper(schemes::methods::find(id).unwrap()),
                RigidAct::new(),
                &f,
                y0,
                h,
                steps,
            ),
        ));
    }
    // The same equations in the body frame (right multiplication; field (−Ω, Π̇)).
    let body_names = [
        "rkmk4 (body frame)",
        "cf4 (body frame)",
        "rkmk4-2comm (body frame)",
    ];
    for (label, id) in body_names.iter().zip(["rkmk4", "cf4", "rkmk4-2comm"]) {
        c.push((
            label,
            lie_batch(
                group_stepper(schemes::methods::find(id).unwrap()),
                RigidBodyAct::default(),
                &fb,
                y0,
                h,
                steps,
            ),
        ));
    }
    let all: Vec<&str> = names.iter().chain(&body_names).copied().collect();
    let ns = interleaved(400, &mut c);
    print_block(&format!("{name}, h = 1e-3"), &all, &ns, 0);
}

fn pendulum_summary() {
    let model = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let x0 = DoubleSphericalPendulum::initial_state();
    let sys = model.system();
    let lie = LieField::new(sys);
    let amb = AmbientField::new(sys);
    let p = x0.to_tangent_points();
    let y0: [TangentSphere2<f64>; 2] = [p[0], p[1]];
    let mut ya = [0.0; 12];
    for i in 0..2 {
        ya[6 * i..6 * i + 3].copy_from_slice(x0.q[i].as_slice());
        ya[6 * i + 3..6 * i + 6].copy_from_slice(x0.omega[i].as_slice());
    }
    let (h, steps) = (0.01, 1000);
    let names = [
        "ode_solvers RK4 (ambient ℝ¹²)",
        "rkmk4",
        "cf4",
        "rkmk4-2comm",
        "lie-euler",
    ];
    let mut c: Vec<(&str, Batch<'_>)> = vec![(names[0], rk4_batch(SphereOde(&amb), ya, h, steps))];
    for id in &names[1..] {
        c.push((
            id,
            lie_batch(
                schemes::methods::find(id).unwrap().stepper(),
                PendAct::new(TangentSphereAction::new()),
                &lie,
                y0,
                h,
                steps,
            ),
        ));
    }
    let ns = interleaved(15, &mut c);
    print_block("double spherical pendulum (TS²)², h = 0.01", &names, &ns, 0);

    // Adaptive pairs over T = 10 at tol 1e-8: time per step (accepted + rejected).
    let tol = schemes::Tolerance::new(1e-8, 1e-8).unwrap();
    let action = PendAct::new(TangentSphereAction::new());
    let t_end = 10.0;
    let adaptive = |id: &'static str| -> Batch<'_> {
        let mut stepper = schemes::methods::find(id).unwrap().stepper::<PendAct>();
        let lie = &lie;
        Box::new(move || {
            let (mut t, mut y, mut h, mut n) = (0.0f64, y0, 0.01f64, 0usize);
            while t < t_end {
                let hh = h.min(t_end - t);
                let out = stepper.step(&action, lie, t, &y, hh, Some(&tol)).unwrap();
                let err = out.error.unwrap().max(1e-10);
                if err <= 1.0 {
                    t += hh;
                    y = out.y;
                }
                let order = stepper.embedded_order().unwrap() as f64 + 1.0;
                h = hh * (0.9 * err.powf(-1.0 / order)).clamp(0.2, 5.0);
                n += 1;
            }
            black_box(&y);
            n
        })
    };
    let names2 = [
        "ode_solvers Dopri5 (ambient)",
        "ode_solvers Dop853 (ambient)",
        "rkmk54",
        "cf43",
    ];
    let mut c2: Vec<(&str, Batch<'_>)> = vec![
        (
            names2[0],
            dopri_batch(SphereOde(&amb), ya, t_end, 1e-8, false),
        ),
        (
            names2[1],
            dopri_batch(SphereOde(&amb), ya, t_end, 1e-8, true),
        ),
        (names2[2], adaptive("rkmk54")),
        (names2[3], adaptive("cf43")),
    ];
    let ns2 = interleaved(7, &mut c2);
    print_block(
        "double spherical pendulum, adaptive, tol 1e-8 (per attempted step)",
        &names2,
        &ns2,
        0,
    );
}

fn lj_summary() {
    let (model, x0) = LennardJones::icosphere_642();
    let sys = model.system();
    let pot = *sys.potential();
    let n = x0.q.len();
    let lie = LieField::new(sys);
    let amb = AmbientField::new(sys);
    let y0 = x0.to_tangent_points();
    let mut ya = vec![0.0; 6 * n];
    for i in 0..n {
        ya[6 * i..6 * i + 3].copy_from_slice(x0.q[i].as_slice());
        ya[6 * i + 3..6 * i + 6].copy_from_slice(x0.omega[i].as_slice());
    }
    let h = 0.01;
    let steps = 3;
    let mut g = vec![Vector3::zeros(); n];
    let q = x0.q.clone();
    // The explicit integrator of `schemes` (diagonal-inertia fast path), chained through
    // ping-pong buffers so that each step reuses the gradient at its start: one gradient per
    // step. A first step sizes its buffers.
    let mut var = SphereVariational::<_, f64>::explicit(sys).unwrap();
    let (mut qa, mut wa) = (x0.q.clone(), x0.omega.clone());
    let (mut qb, mut wb) = (qa.clone(), wa.clone());
    var.step_slices(0.0, &qa, &wa, h, &mut qb, &mut wb).unwrap();
    let names = [
        "hand-written gradient (one)",
        "AD gradient, Potential::gradient (one)",
        "explicit variational step",
        "ode_solvers RK4 (ambient ℝ³⁸⁵², DVector)",
        "rkmk4",
        "cf4",
    ];
    let ya0 = DVector::from_vec(ya.clone());
    let amb_ref = &amb;
    let mut c: Vec<(&str, Batch<'_>)> = vec![
        (
            names[0],
            Box::new(|| {
                for _ in 0..steps {
                    black_box(pot.gradient_analytic(&q, &mut g));
                }
                steps
            }),
        ),
        (
            names[1],
            Box::new(|| {
                let mut g = vec![Vector3::zeros(); n];
                for _ in 0..steps {
                    black_box(pot.gradient(&q, &mut g));
                }
                steps
            }),
        ),
        (
            names[2],
            Box::new(|| {
                for _ in 0..steps {
                    var.step_slices(0.0, &qb, &wb, h, &mut qa, &mut wa).unwrap();
                    core::mem::swap(&mut qa, &mut qb);
                    core::mem::swap(&mut wa, &mut wb);
                }
                black_box(&qb);
                steps
            }),
        ),
        (
            names[3],
            Box::new(move || {
                let mut s = Rk4::new(SphereOde(amb_ref), 0.0, ya0.clone(), h * steps as f64, h);
                let st = s.integrate().unwrap();
                black_box(s.y_out().last());
                st.accepted_steps as usize
            }),
        ),
        (
            names[4],
            lie_batch(
                schemes::methods::find("rkmk4").unwrap().stepper(),
                LjAct::new(TangentSphereAction::new()),
                &lie,
                y0.clone(),
                h,
                steps,
            ),
        ),
        (
            names[5],
            lie_batch(
                schemes::methods::find("cf4").unwrap().stepper(),
                LjAct::new(TangentSphereAction::new()),
                &lie,
                y0.clone(),
                h,
                steps,
            ),
        ),
    ];
    let ns = interleaved(9, &mut c);
    print_block(
        "642 Lennard-Jones molecules, h = 0.01 (times per step or per gradient)",
        &names,
        &ns,
        0,
    );
}

/// Keep freed memory mapped and serve large blocks from the heap (glibc), so that
/// `ode_solvers`' per-step output storage does not page-fault from batch to batch (see the
/// module documentation). Other allocators: nothing to do.
fn steady_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes allocator parameters; it is called before any timing, on
    // the main thread, with documented parameter values.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

fn summary(_c: &mut Criterion) {
    steady_heap();
    if std::env::var_os("SKIP_SUMMARY").is_some() {
        return; // criterion groups only
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "== summary (interleaved, best of rounds); load average: {}",
        load.trim()
    );
    // `SUMMARY=rigid` (or `pendulum`, `lj`) runs one part only.
    let only = std::env::var("SUMMARY").unwrap_or_default();
    let part = |name: &str| only.is_empty() || only == name;
    if part("rigid") {
        rigid_summary("free rigid body SO(3) × ℝ³", rigid::free_body());
        rigid_summary("heavy top SO(3) × ℝ³", rigid::heavy_top());
    }
    if part("pendulum") {
        pendulum_summary();
    }
    if part("lj") {
        lj_summary();
    }
    println!("== end of summary");
}

// ---------------------------------------------------------------------------------------------
// Criterion groups: every method per step
// ---------------------------------------------------------------------------------------------

/// Criterion measures `iters` steps of the classical RK4 as `iters` iterations.
fn rk4_iter_custom<S, const D: usize>(sys: &S, y0: [f64; D], h: f64, iters: u64) -> Duration
where
    S: System<f64, SVector<f64, D>> + Clone,
{
    let y0 = SVector::<f64, D>::from_column_slice(&y0);
    let t0 = Instant::now();
    let mut s = Rk4::new(sys.clone(), 0.0, y0, h * iters as f64, h);
    s.integrate().unwrap();
    black_box(s.y_out().last());
    t0.elapsed()
}

fn rigid_groups(c: &mut Criterion) {
    rigid_group(c, "free-rigid-body-so3xr3", rigid::free_body());
    rigid_group(c, "heavy-top-so3xr3", rigid::heavy_top());
}

fn rigid_group<M: RigidModel>(c: &mut Criterion, name: &str, body: M)
where
    BodyFrame<M>: homogeneous::LieVectorField<f64, RigidState, RigidAlgebra>,
{
    let x0 = rigid::initial_state();
    let y0 = x0.to_attitude();
    let ya = rigid::ambient_of(&y0);
    let h = 1e-3;
    let mut group = c.benchmark_group(format!("step/{name}"));
    group.bench_function("ode_solvers-rk4", |b| {
        b.iter_custom(|iters| rk4_iter_custom(&RigidOde(body), ya, h, iters));
    });
    for spec in METHODS {
        let mut stepper = group_stepper::<RigidAct>(spec);
        let action = RigidAct::new();
        group.bench_function(BenchmarkId::from_parameter(spec.id), |b| {
            // Every iteration steps from the initial point (a chain of millions of steps would
            // leave the region of interest, or blow up for the low-order methods).
            b.iter(|| {
                black_box(
                    stepper
                        .step(&action, &body, 0.0, black_box(&y0), black_box(h), None)
                        .unwrap()
                        .y,
                )
            });
        });
    }
    let fb = BodyFrame(body);
    for id in ["rkmk4", "cf4", "rkmk4-2comm"] {
        let mut stepper = group_stepper::<RigidBodyAct>(schemes::methods::find(id).unwrap());
        let action = RigidBodyAct::default();
        group.bench_function(BenchmarkId::new("body-frame", id), |b| {
            b.iter(|| {
                black_box(
                    stepper
                        .step(&action, &fb, 0.0, black_box(&y0), black_box(h), None)
                        .unwrap()
                        .y,
                )
            });
        });
    }
    group.finish();
}

fn pendulum_group(c: &mut Criterion) {
    let model = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let x0 = DoubleSphericalPendulum::initial_state();
    let sys = model.system();
    let lie = LieField::new(sys);
    let amb = AmbientField::new(sys);
    let p = x0.to_tangent_points();
    let y0: [TangentSphere2<f64>; 2] = [p[0], p[1]];
    let mut ya = [0.0; 12];
    for i in 0..2 {
        ya[6 * i..6 * i + 3].copy_from_slice(x0.q[i].as_slice());
        ya[6 * i + 3..6 * i + 6].copy_from_slice(x0.omega[i].as_slice());
    }
    let h = 0.01;
    let action = PendAct::new(TangentSphereAction::new());
    let mut group = c.benchmark_group("step/double-spherical-pendulum-ts2x2");
    group.bench_function("ode_solvers-rk4", |b| {
        b.iter_custom(|iters| rk4_iter_custom(&SphereOde(&amb), ya, h, iters));
    });
    for spec in METHODS {
        let mut stepper = spec.stepper::<PendAct>();
        group.bench_function(BenchmarkId::from_parameter(spec.id), |b| {
            // Every iteration steps from the initial point (a chain of millions of steps would
            // leave the region of interest, or blow up for the low-order methods).
            b.iter(|| {
                black_box(
                    stepper
                        .step(&action, &lie, 0.0, black_box(&y0), black_box(h), None)
                        .unwrap()
                        .y,
                )
            });
        });
    }
    group.finish();
}

fn lj_group(c: &mut Criterion) {
    let (model, x0) = LennardJones::icosphere_642();
    let sys = model.system();
    let pot = *sys.potential();
    let n = x0.q.len();
    let lie = LieField::new(sys);
    let amb = AmbientField::new(sys);
    let y0 = x0.to_tangent_points();
    let mut ya = vec![0.0; 6 * n];
    for i in 0..n {
        ya[6 * i..6 * i + 3].copy_from_slice(x0.q[i].as_slice());
        ya[6 * i + 3..6 * i + 6].copy_from_slice(x0.omega[i].as_slice());
    }
    let h = 0.01;
    let action = LjAct::new(TangentSphereAction::new());
    let mut group = c.benchmark_group("step/lennard-jones-642");
    group.sample_size(10);
    group.bench_function("hand-written-gradient", |b| {
        let mut g = vec![Vector3::zeros(); n];
        b.iter(|| black_box(pot.gradient_analytic(black_box(&x0.q), &mut g)));
    });
    group.bench_function("explicit-variational", |b| {
        // Chained steps (one gradient each); back to the initial state every 500 steps (the
        // paper's T = 5 s), so that the run stays in the region of interest.
        let mut var = SphereVariational::<_, f64>::explicit(sys).unwrap();
        let (mut qa, mut wa) = (x0.q.clone(), x0.omega.clone());
        let (mut qb, mut wb) = (qa.clone(), wa.clone());
        let mut k = 0;
        b.iter(|| {
            if k == 500 {
                qa.copy_from_slice(&x0.q);
                wa.copy_from_slice(&x0.omega);
                k = 0;
            }
            var.step_slices(0.0, &qa, &wa, black_box(h), &mut qb, &mut wb)
                .unwrap();
            core::mem::swap(&mut qa, &mut qb);
            core::mem::swap(&mut wa, &mut wb);
            k += 1;
        });
    });
    group.bench_function("ode_solvers-rk4", |b| {
        b.iter_custom(|iters| {
            let t0 = Instant::now();
            let mut s = Rk4::new(
                SphereOde(&amb),
                0.0,
                DVector::from_vec(ya.clone()),
                h * iters as f64,
                h,
            );
            s.integrate().unwrap();
            black_box(s.y_out().last());
            t0.elapsed()
        });
    });
    for spec in METHODS {
        if matches!(spec.kind, MethodKind::ImplicitRkmk(_)) {
            continue; // a dense 3852 × 3852 Newton Jacobian per step: not a per-step benchmark
        }
        let mut stepper = spec.stepper::<LjAct>();
        group.bench_function(BenchmarkId::from_parameter(spec.id), |b| {
            // Every iteration steps from the initial point (a chain of millions of steps would
            // leave the region of interest, or blow up for the low-order methods).
            b.iter(|| {
                black_box(
                    stepper
                        .step(&action, &lie, 0.0, black_box(&y0), black_box(h), None)
                        .unwrap()
                        .y,
                )
            });
        });
    }
    group.finish();
}

criterion_group!(benches, summary, rigid_groups, pendulum_group, lj_group);
criterion_main!(benches);
