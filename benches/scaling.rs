//! Large N on the sphere: Lennard-Jones with a cut-off (`r_c = 2.5σ`) and a neighbour list
//! (`models::neighbours`, skin `0.3σ`), `N = 10³ … 10⁵` points of a Fibonacci lattice with
//! random tangent velocities (seeded; about `0.02σ` of motion per step, so the list is rebuilt
//! every seven or eight steps at every N, and that cost is included). Per step and per particle:
//! one gradient, one explicit variational step [LLM09, (3.17)–(3.18)] and one RKMK4 step
//! (`VecPowerAction<TangentSphereAction>` with `DiagonalLieField`), each on a rayon pool of 1
//! and of 2 threads (build with `--features rayon`; without it the models crate runs serially
//! whatever the pool).
//!
//! The summary is printed first and ends with the two acceptance numbers of the performance
//! issue: the flatness `max/min over N` of the time per particle per step (target ≤ 1.5) and the
//! speed-up of 2 threads over 1 (target ≥ 1.6), with the load average of the machine before and
//! after. Method: for every N the contenders (3 kinds × 2 pools) run in interleaved rounds of
//! the same number of steps at every N (so that the list is rebuilt equally often per step at
//! every N) and the best round of each is kept; the pools are started and warmed up before the
//! first round. It also measures the time spent outside the force evaluation (the `O(N)`
//! bookkeeping of the explicit step in `support/variational.rs` and of the RKMK engine, both
//! serial), which bounds the speed-up (Amdahl). Criterion groups follow, with throughput in
//! particles.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use homogeneous::{LieVectorField, TangentSphere2, TangentSphereAction, VecPowerAction};
use models::models::LennardJonesTerm;
use models::neighbours::{DiagonalLieField, DiagonalSystem, NeighbourPotential, PARALLEL};
use models::{LennardJones, Potential, TermVisitor};
use nalgebra::{Vector3, Vector6};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schemes::Stepper;
use std::cell::Cell;
use std::hint::black_box;
use std::time::Instant;

#[path = "support/variational.rs"]
mod variational;
use variational::ExplicitVariational;

type Pot = NeighbourPotential<LennardJonesTerm>;
type Sys = DiagonalSystem<Pot>;
type Act = VecPowerAction<TangentSphereAction>;
type State = Vec<TangentSphere2<f64>>;

const SIZES: [usize; 5] = [1_000, 3_000, 10_000, 30_000, 100_000];
/// The sizes at which the 2-thread speed-up is reported.
const SPEEDUP_SIZES: [usize; 2] = [10_000, 100_000];
/// Steps per round for the gradient and the explicit step (three rebuild periods), and for
/// RKMK4 (four evaluations per step).
const STEPS: usize = 24;
const RK_STEPS: usize = 8;
const ROUNDS: usize = 5;
/// The targets of the performance issue.
const FLATNESS_TARGET: f64 = 1.5;
const SPEEDUP_TARGET: f64 = 1.6;

/// The step: `0.01` at `N = 1000`, scaled with σ (the vibration period of neighbours scales
/// with σ for fixed ε and masses), so that every N runs at the same resolution.
fn step_size(sigma: f64) -> f64 {
    let sigma_1000 = models::neighbours::hexagonal_spacing(1000) / 2f64.powf(1.0 / 6.0);
    0.01 * sigma / sigma_1000
}

/// σ of the preset (the cut-off is 2.5σ).
fn sigma(pot: &Pot) -> f64 {
    pot.cutoff() / 2.5
}

fn setup(n: usize) -> (Sys, Vec<Vector3<f64>>, Vec<Vector3<f64>>, f64) {
    let (sys, q) = LennardJones::large(n, 0.01, 2.5, 0.3).expect("valid");
    let sigma = sigma(sys.potential());
    let h = step_size(sigma);
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let speed = 0.02 * sigma / h;
    let omega = q
        .iter()
        .map(|qi| {
            let r = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let t = r - qi * qi.dot(&r);
            t * (speed / t.norm().max(1e-12))
        })
        .collect();
    (sys, q, omega, h)
}

fn points(q: &[Vector3<f64>], omega: &[Vector3<f64>]) -> State {
    q.iter()
        .zip(omega)
        .map(|(a, b)| TangentSphere2::new_projected(*a, *b).expect("tangent"))
        .collect()
}

/// A potential that adds the time spent in its gradient to `secs`.
struct TimedPotential<'a, P> {
    inner: &'a P,
    secs: Cell<f64>,
}

impl<P: Potential> Potential for TimedPotential<'_, P> {
    fn bodies(&self) -> usize {
        self.inner.bodies()
    }
    fn visit_terms<V: TermVisitor>(&self, visitor: &mut V) {
        self.inner.visit_terms(visitor);
    }
    fn gradient(&self, q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) -> f64 {
        let t0 = Instant::now();
        let v = self.inner.gradient(q, grad);
        self.secs.set(self.secs.get() + t0.elapsed().as_secs_f64());
        v
    }
}

/// A Lie vector field that adds the time spent in its evaluations to `secs`.
struct TimedField<F> {
    inner: F,
    secs: Cell<f64>,
}

impl<F: LieVectorField<f64, State, Vec<Vector6<f64>>>> LieVectorField<f64, State, Vec<Vector6<f64>>>
    for TimedField<F>
{
    fn eval(&self, t: f64, p: &State, out: &mut Vec<Vector6<f64>>) {
        let t0 = Instant::now();
        self.inner.eval(t, p, out);
        self.secs.set(self.secs.get() + t0.elapsed().as_secs_f64());
    }
}

/// The best round of one contender: its wall time and the part spent evaluating forces.
#[derive(Clone, Copy, Debug)]
struct Best {
    secs: f64,
    force_secs: f64,
}

impl Best {
    const NONE: Self = Self {
        secs: f64::INFINITY,
        force_secs: 0.0,
    };
    fn record(&mut self, secs: f64, force_secs: f64) {
        if secs < self.secs {
            *self = Self { secs, force_secs };
        }
    }
    /// The fraction of the time spent outside the force evaluation.
    fn outside(&self) -> f64 {
        1.0 - self.force_secs / self.secs
    }
}

const KINDS: [&str; 3] = ["gradient", "explicit step", "RKMK4 step"];

/// Everything measured at one N: `ns[kind][pool]` per particle per step, the best rounds, and
/// the rebuilds per 100 steps of the explicit step and of RKMK4.
struct Row {
    n: usize,
    ns: [[f64; 2]; 3],
    best: [[Best; 2]; 3],
    rebuilds: [f64; 2],
}

fn measure(n: usize, pools: &[rayon::ThreadPool; 2]) -> Row {
    let (sys, q, omega, h) = setup(n);
    let pot = sys.potential();
    let mut timed = TimedPotential {
        inner: pot,
        secs: Cell::new(0.0),
    };
    let mut grad = vec![Vector3::zeros(); n];
    let mut var = ExplicitVariational::new(&timed, q.clone(), omega.clone());
    let mut y = points(&q, &omega);
    let mut stepper = schemes::methods::find("rkmk4")
        .expect("rkmk4 is a method")
        .stepper::<Act>();
    let action = Act::new(TangentSphereAction::new());
    let mut best = [[Best::NONE; 2]; 3];
    let (mut var_rebuilds, mut rk_rebuilds) = (0, 0);
    for _ in 0..ROUNDS {
        for (t, pool) in pools.iter().enumerate() {
            let (grad, var, y, stepper, timed, best) = (
                &mut grad,
                &mut var,
                &mut y,
                &mut stepper,
                &mut timed,
                &mut best,
            );
            let (var_rebuilds, rk_rebuilds) = (&mut var_rebuilds, &mut rk_rebuilds);
            let (q, sys, action) = (&q, &sys, &action);
            pool.install(move || {
                // The gradient at fixed positions: force evaluation only.
                let t0 = Instant::now();
                for _ in 0..STEPS {
                    black_box(pot.gradient(q, grad));
                }
                let secs = t0.elapsed().as_secs_f64();
                best[0][t].record(secs, secs);
                // The explicit variational step (its O(N) loops are serial).
                let before = pot.rebuilds();
                timed.secs.set(0.0);
                let t0 = Instant::now();
                for _ in 0..STEPS {
                    var.step(&*timed, sys.masses(), h);
                }
                best[1][t].record(t0.elapsed().as_secs_f64(), timed.secs.get());
                *var_rebuilds += pot.rebuilds() - before;
                // RKMK4: four field evaluations per step and the engine's O(N) work.
                let field = TimedField {
                    inner: DiagonalLieField::new(sys),
                    secs: Cell::new(0.0),
                };
                // One untimed step: the stepper's buffers are allocated at its first step.
                *y = stepper
                    .step(action, &field, 0.0, y, h, None)
                    .expect("rkmk4 step")
                    .y;
                field.secs.set(0.0);
                let before = pot.rebuilds();
                let t0 = Instant::now();
                for _ in 0..RK_STEPS {
                    *y = stepper
                        .step(action, &field, 0.0, y, h, None)
                        .expect("rkmk4 step")
                        .y;
                }
                best[2][t].record(t0.elapsed().as_secs_f64(), field.secs.get());
                *rk_rebuilds += pot.rebuilds() - before;
            });
        }
    }
    assert!(
        var.q
            .iter()
            .chain(y.iter().map(TangentSphere2::q))
            .all(|p| p.norm().is_finite()),
        "the benchmark trajectories stay finite"
    );
    let per = |b: &Best, steps: usize| b.secs * 1e9 / (steps * n) as f64;
    let mut ns = [[0.0; 2]; 3];
    for t in 0..2 {
        ns[0][t] = per(&best[0][t], STEPS);
        ns[1][t] = per(&best[1][t], STEPS);
        ns[2][t] = per(&best[2][t], RK_STEPS);
    }
    let rounds = (ROUNDS * 2) as f64;
    Row {
        n,
        ns,
        best,
        rebuilds: [
            100.0 * var_rebuilds as f64 / (rounds * STEPS as f64),
            // The untimed step of each round is not counted in the rebuilds either.
            100.0 * rk_rebuilds as f64 / (rounds * RK_STEPS as f64),
        ],
    }
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn verdict(ok: bool) -> &'static str {
    if ok { "ok" } else { "MISSED" }
}

fn summary(_c: &mut Criterion) {
    if std::env::var_os("SKIP_SUMMARY").is_some() {
        return; // criterion groups only
    }
    let pools = [1, 2].map(|k| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(k)
            .build()
            .expect("a rayon pool")
    });
    // Start the pools' threads and warm them (and the caches) up before any timing.
    for pool in &pools {
        let (sys, q) = LennardJones::large(2000, 0.01, 2.5, 0.3).expect("valid");
        let mut g = vec![Vector3::zeros(); q.len()];
        pool.install(|| {
            for _ in 0..20 {
                black_box(sys.potential().gradient(&q, &mut g));
            }
        });
    }
    let load_before = load();
    println!(
        "== scaling summary: Lennard-Jones on S², r_c = 2.5σ, skin 0.3σ, neighbour list \
         (rayon feature of models: {PARALLEL})"
    );
    println!(
        "   ns per particle per step, best of {ROUNDS} interleaved rounds of {STEPS} steps \
         ({RK_STEPS} for RKMK4) on pools of 1 and 2 threads"
    );
    println!(
        "  {:>7} | {:>8} {:>8} | {:>8} {:>8} | {:>8} {:>8} | rebuilds/100 steps",
        "N", "grad 1T", "2T", "expl 1T", "2T", "rkmk4 1T", "2T"
    );
    let mut rows = Vec::new();
    for n in SIZES {
        let r = measure(n, &pools);
        println!(
            "  {:>7} | {:>8.1} {:>8.1} | {:>8.1} {:>8.1} | {:>8.1} {:>8.1} | explicit {:.1}, rkmk4 {:.1}",
            r.n,
            r.ns[0][0],
            r.ns[0][1],
            r.ns[1][0],
            r.ns[1][1],
            r.ns[2][0],
            r.ns[2][1],
            r.rebuilds[0],
            r.rebuilds[1]
        );
        rows.push(r);
    }
    let load_after = load();
    println!("== acceptance (load average before: {load_before}; after: {load_after})");
    println!(
        "   flatness: max/min over N = 10³ … 10⁵ of ns per particle per step (target ≤ {FLATNESS_TARGET})"
    );
    for (t, label) in ["1 thread ", "2 threads"].iter().enumerate() {
        let mut line = format!("     {label}:");
        for (k, kind) in KINDS.iter().enumerate() {
            let xs = rows.iter().map(|r| r.ns[k][t]);
            let ratio = xs.clone().fold(0.0, f64::max) / xs.fold(f64::INFINITY, f64::min);
            line += &format!(
                "  {kind} {ratio:.2} ({})",
                verdict(ratio <= FLATNESS_TARGET)
            );
        }
        println!("{line}");
    }
    println!("   speed-up: 2 threads over 1 (target ≥ {SPEEDUP_TARGET})");
    for r in rows.iter().filter(|r| SPEEDUP_SIZES.contains(&r.n)) {
        let mut line = format!("     N = {:>6}:", r.n);
        for (k, kind) in KINDS.iter().enumerate() {
            let s = r.ns[k][0] / r.ns[k][1];
            line += &format!("  {kind} {s:.2}× ({})", verdict(s >= SPEEDUP_TARGET));
        }
        println!("{line}");
    }
    println!(
        "   serial part: fraction of the 1-thread time outside the force evaluation, and the \
         Amdahl bound on 2 threads"
    );
    for r in rows.iter().filter(|r| SPEEDUP_SIZES.contains(&r.n)) {
        let mut line = format!("     N = {:>6}:", r.n);
        for (kind, best) in KINDS.iter().zip(&r.best).skip(1) {
            let f = best[0].outside();
            line += &format!(
                "  {} {:.1} % (bound {:.2}×)",
                kind,
                100.0 * f,
                1.0 / (f + 0.5 * (1.0 - f))
            );
        }
        println!("{line}");
    }
    println!("== end of summary");
}

fn groups(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling/lj-neighbour-list");
    group.sample_size(10);
    for n in SIZES {
        let (sys, q, omega, h) = setup(n);
        let pot = sys.potential();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::new("gradient", n), |b| {
            let mut g = vec![Vector3::zeros(); n];
            b.iter(|| black_box(pot.gradient(&q, &mut g)));
        });
        group.bench_function(BenchmarkId::new("explicit-variational", n), |b| {
            let mut var = ExplicitVariational::new(pot, q.clone(), omega.clone());
            b.iter(|| var.step(pot, sys.masses(), h));
        });
        group.bench_function(BenchmarkId::new("rkmk4", n), |b| {
            let field = DiagonalLieField::new(&sys);
            let action = Act::new(TangentSphereAction::new());
            let mut stepper = schemes::methods::find("rkmk4")
                .expect("rkmk4 is a method")
                .stepper::<Act>();
            let mut y = points(&q, &omega);
            b.iter(|| {
                y = stepper
                    .step(&action, &field, 0.0, &y, h, None)
                    .expect("rkmk4 step")
                    .y;
            });
        });
    }
    group.finish();
}

criterion_group!(benches, summary, groups);
criterion_main!(benches);
