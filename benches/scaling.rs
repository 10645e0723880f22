//! Large N on the sphere: Lennard-Jones with a cut-off (`r_c = 2.5σ`) and a neighbour list
//! (`models::neighbours`, skin `0.3σ`), `N = 10³ … 10⁵` points of a Fibonacci lattice with
//! random tangent velocities (seeded; about `0.02σ` of motion per step, so the list is rebuilt
//! now and then, and that cost is included). Per step and per particle: one gradient, one
//! explicit variational step [LLM09, (3.17)–(3.18)] and one RKMK4 step
//! (`VecPowerAction<TangentSphereAction>` with `DiagonalLieField`). Then the speed-up of 2
//! rayon threads over 1 at the largest N (build with `--features rayon`; without it the
//! models crate runs serially whatever the pool).
//!
//! The summary (best of interleaved rounds) is printed first; criterion groups follow, with
//! throughput in particles.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use homogeneous::{TangentSphere2, TangentSphereAction, VecPowerAction};
use models::models::LennardJonesTerm;
use models::neighbours::{DiagonalLieField, DiagonalSystem, NeighbourPotential, PARALLEL};
use models::{LennardJones, Potential};
use nalgebra::Vector3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schemes::Stepper;
use std::hint::black_box;
use std::time::Instant;

#[path = "support/variational.rs"]
mod variational;
use variational::ExplicitVariational;

type Sys = DiagonalSystem<NeighbourPotential<LennardJonesTerm>>;
type Act = VecPowerAction<TangentSphereAction>;

const SIZES: [usize; 5] = [1_000, 3_000, 10_000, 30_000, 100_000];

/// The step: `0.01` at `N = 1000`, scaled with σ (the vibration period of neighbours scales
/// with σ for fixed ε and masses), so that every N runs at the same resolution.
fn step_size(sigma: f64) -> f64 {
    let sigma_1000 = models::neighbours::hexagonal_spacing(1000) / 2f64.powf(1.0 / 6.0);
    0.01 * sigma / sigma_1000
}

fn setup(n: usize) -> (Sys, Vec<Vector3<f64>>, Vec<Vector3<f64>>, f64) {
    let (sys, q) = LennardJones::large(n, 0.01, 2.5, 0.3).expect("valid");
    let sigma = sys.potential().term_sigma();
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

/// Extension used here only: σ of the preset (the cut-off is 2.5σ).
trait Sigma {
    fn term_sigma(&self) -> f64;
}
impl Sigma for NeighbourPotential<LennardJonesTerm> {
    fn term_sigma(&self) -> f64 {
        self.cutoff() / 2.5
    }
}

/// ns per particle per step: best of `rounds` batches of `steps`.
fn best_ns_per_particle(n: usize, rounds: usize, steps: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let t0 = Instant::now();
        for _ in 0..steps {
            f();
        }
        best = best.min(t0.elapsed().as_secs_f64() * 1e9 / (steps * n) as f64);
    }
    best
}

fn points(q: &[Vector3<f64>], omega: &[Vector3<f64>]) -> Vec<TangentSphere2<f64>> {
    q.iter()
        .zip(omega)
        .map(|(a, b)| TangentSphere2::new_projected(*a, *b).expect("tangent"))
        .collect()
}

/// Per-particle costs at one N: (gradient, explicit variational step, RKMK4 step).
fn costs(n: usize) -> (f64, f64, f64, usize) {
    let (sys, q, omega, h) = setup(n);
    let pot = sys.potential();
    let steps = (200_000 / n).clamp(2, 100);
    let rounds = 5;
    let mut g = vec![Vector3::zeros(); n];
    let grad = best_ns_per_particle(n, rounds, steps, || {
        black_box(pot.gradient(&q, &mut g));
    });
    let mut var = ExplicitVariational::new(pot, q.clone(), omega.clone());
    let var_ns = best_ns_per_particle(n, rounds, steps, || var.step(pot, sys.masses(), h));
    let field = DiagonalLieField::new(&sys);
    let action = Act::new(TangentSphereAction::new());
    let mut stepper = schemes::methods::find("rkmk4").unwrap().stepper::<Act>();
    let mut y = points(&q, &omega);
    let rk_ns = best_ns_per_particle(n, rounds, steps.div_ceil(4).max(2), || {
        y = stepper.step(&action, &field, 0.0, &y, h, None).unwrap().y;
    });
    (grad, var_ns, rk_ns, pot.rebuilds())
}

fn summary(_c: &mut Criterion) {
    if std::env::var_os("SKIP_SUMMARY").is_some() {
        return; // criterion groups only
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "== scaling summary (rayon feature: {PARALLEL}; threads: {}); load average: {}",
        rayon::current_num_threads(),
        load.trim()
    );
    println!(
        "  {:>8} {:>16} {:>22} {:>16} {:>9}",
        "N", "gradient ns/part", "variational ns/part", "rkmk4 ns/part", "rebuilds"
    );
    let mut rows = Vec::new();
    for n in SIZES {
        let (g, v, r, b) = costs(n);
        println!("  {n:>8} {g:>16.1} {v:>22.1} {r:>16.1} {b:>9}");
        rows.push((g, v, r));
    }
    let spread = |k: usize| {
        let xs: Vec<f64> = rows
            .iter()
            .map(|r| match k {
                0 => r.0,
                1 => r.1,
                _ => r.2,
            })
            .collect();
        xs.iter().copied().fold(0.0, f64::max) / xs.iter().copied().fold(f64::INFINITY, f64::min)
    };
    println!(
        "  max/min over N: gradient {:.2}, variational {:.2}, rkmk4 {:.2} (target ≤ 1.5)",
        spread(0),
        spread(1),
        spread(2)
    );
    // Speed-up of 2 threads over 1 (interleaved, best of rounds).
    for n in [10_000, 100_000] {
        let (sys, q, omega, h) = setup(n);
        let pot = sys.potential();
        let pools: Vec<rayon::ThreadPool> = [1, 2]
            .iter()
            .map(|&k| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(k)
                    .build()
                    .unwrap()
            })
            .collect();
        let mut best = [f64::INFINITY; 4];
        let mut g = vec![Vector3::zeros(); n];
        let mut var = ExplicitVariational::new(pot, q.clone(), omega.clone());
        let steps = (200_000 / n).clamp(2, 20);
        for _ in 0..7 {
            for (k, pool) in pools.iter().enumerate() {
                pool.install(|| {
                    let t0 = Instant::now();
                    for _ in 0..steps {
                        black_box(pot.gradient(&q, &mut g));
                    }
                    best[k] = best[k].min(t0.elapsed().as_secs_f64());
                    let t0 = Instant::now();
                    for _ in 0..steps {
                        var.step(pot, sys.masses(), h);
                    }
                    best[2 + k] = best[2 + k].min(t0.elapsed().as_secs_f64());
                });
            }
        }
        println!(
            "  N = {n}: 2 threads vs 1: gradient {:.2}×, explicit variational step {:.2}× (target ≥ 1.6)",
            best[0] / best[1],
            best[2] / best[3]
        );
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
            let mut stepper = schemes::methods::find("rkmk4").unwrap().stepper::<Act>();
            let mut y = points(&q, &omega);
            b.iter(|| {
                y = stepper.step(&action, &field, 0.0, &y, h, None).unwrap().y;
            });
        });
    }
    group.finish();
}

criterion_group!(benches, summary, groups);
criterion_main!(benches);
