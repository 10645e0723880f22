//! Large N on the sphere: Lennard-Jones with a cut-off (`r_c = 2.5σ`) and a neighbour list
//! (`models::neighbours`, skin `0.3σ`), `N = 10³ … 10⁵` points of a Fibonacci lattice with
//! random tangent velocities (seeded; `0.02σ` of motion per step). Per step and per particle:
//! one gradient (on positions that change from call to call, without rebuilds), one explicit
//! variational step [LLM09, (3.17)–(3.18)] and one RKMK4 step
//! (`VecPowerAction<TangentSphereAction>` with `DiagonalLieField`), each on a rayon pool of 1
//! and of 2 threads (build with `--features rayon`; without it everything runs serially
//! whatever the pool).
//!
//! The summary is printed first and ends with the two acceptance numbers of the performance
//! issue: the flatness `max/min over N` of the time per particle per step (target ≤ 1.5) and the
//! speed-up of 2 threads over 1 (target ≥ 1.6), with the load average before and after. Method:
//! - every timed segment (24 steps, 8 for RKMK4) starts from the same initial state, so every N
//!   runs the same trajectory in units of σ and rebuilds its list equally often per step
//!   (printed); the rebuilds are part of the cost;
//! - a timed loop is as many segments as make it last ≥ 0.3 s on one thread; the contenders
//!   (3 kinds × 2 pools) run in interleaved rounds;
//! - the machine may be shared: the CPU time used by other processes during each loop is read
//!   from `/proc` and only **clean** loops (others used ≤ 0.1 CPU) count; rounds go on (8 to
//!   24) until every contender has 8 clean loops; a number from loaded loops only is marked `*`;
//! - times are the median of the clean loops; the speed-up is the median over the rounds of the
//!   ratio of the 1- and 2-thread loops of the same round (adjacent in time, so that slow
//!   changes of the load of the host — a VM's neighbours, which `/proc` does not show — cancel);
//!   the same numbers from the best loops are given in parentheses (their spread from the
//!   medians is the noise of the machine);
//! - the pools are started and warmed up before the first round.
//!
//! It also reports the fraction of the 1-thread time spent outside the force evaluation (the
//! `O(N)` passes of `SphereVariational`'s explicit step, and the RKMK engine's loops over the
//! factors of the `Vec` powers) and the 2-thread speed-up of that part: with the `rayon`
//! feature (forwarded to `schemes`, `homogeneous` and `liegroup`) these loops run on the pool
//! too, from `liegroup::par::PAR_THRESHOLD` bodies on. Criterion groups follow, with throughput
//! in particles.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use homogeneous::{LieVectorField, TangentSphere2, TangentSphereAction, VecPowerAction};
use models::neighbours::{DiagonalLieField, DiagonalSystem, NeighbourPotential, PARALLEL};
use models::sphere_systems::LennardJonesTerm;
use models::{LennardJones, Potential, TermVisitor};
use nalgebra::{Vector3, Vector6};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schemes::Stepper;
use std::cell::Cell;
use std::hint::black_box;
use std::time::Instant;

use schemes::variational::SphereVariational;

type Pot = NeighbourPotential<LennardJonesTerm>;
type Sys = DiagonalSystem<Pot>;
type Act = VecPowerAction<TangentSphereAction>;
type State = Vec<TangentSphere2<f64>>;

const SIZES: [usize; 5] = [1_000, 3_000, 10_000, 30_000, 100_000];
/// The sizes at which the 2-thread speed-up is reported.
const SPEEDUP_SIZES: [usize; 2] = [10_000, 100_000];
/// A timed loop is a number of segments of `SEGMENT_STEPS` steps (`RK_SEGMENT_STEPS` for
/// RKMK4), each from the initial state, and lasts at least `MIN_LOOP_SECS` on one thread (so
/// that the load of other processes can be measured during it, in clock ticks of 10 ms).
const SEGMENT_STEPS: usize = 24;
const RK_SEGMENT_STEPS: usize = 8;
const MIN_LOOP_SECS: f64 = 0.3;
/// Positions cycled through by the gradient loops.
const JITTERED: usize = 8;
/// Rounds (each contender once per round, interleaved): at least `MIN_ROUNDS`, then until every
/// contender has `MIN_CLEAN` clean loops, at most `MAX_ROUNDS`.
const MIN_ROUNDS: usize = 8;
const MIN_CLEAN: usize = 8;
const MAX_ROUNDS: usize = 24;
/// A loop is clean if other processes used at most this many CPUs on average meanwhile.
const FOREIGN_MAX: f64 = 0.1;
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

/// CPU time in clock ticks (`USER_HZ`, 100 per second on Linux) used by the whole machine
/// (all CPUs, including time stolen by the hypervisor) and by this process (all its threads),
/// from `/proc`; `None` elsewhere.
fn cpu_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu: Vec<u64> = stat
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    // user nice system idle iowait irq softirq steal …
    let busy = cpu
        .get(..8)?
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != 3 && *k != 4);
    let busy = busy.map(|(_, t)| t).sum();
    let own = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = own.rsplit_once(')')?.1.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12th and 13th after the name.
    let own = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some((busy, own))
}

/// One timed loop: wall time, the part spent evaluating forces, and the CPUs used by other
/// processes meanwhile (on average; 0 when unknown).
#[derive(Clone, Copy, Debug)]
struct Sample {
    secs: f64,
    force_secs: f64,
    foreign: f64,
}

impl Sample {
    /// The fraction of the time spent outside the force evaluation.
    fn outside(&self) -> f64 {
        1.0 - self.force_secs / self.secs
    }
}

/// The median of a non-empty list.
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let k = xs.len();
    if k % 2 == 1 {
        xs[k / 2]
    } else {
        0.5 * (xs[k / 2 - 1] + xs[k / 2])
    }
}

/// The loops of one contender (a kind of step on one pool) at one N, one per round.
#[derive(Clone, Debug, Default)]
struct Record {
    /// Steps per loop.
    steps: usize,
    samples: Vec<Sample>,
    rebuilds: usize,
}

impl Record {
    fn add(&mut self, s: Sample, rebuilds: usize) {
        self.samples.push(s);
        self.rebuilds += rebuilds;
    }
    fn clean(&self) -> impl Iterator<Item = &Sample> {
        self.samples.iter().filter(|s| s.foreign <= FOREIGN_MAX)
    }
    fn clean_count(&self) -> usize {
        self.clean().count()
    }
    /// The best clean loop (or, if there is none, the best loop, flagged `false`).
    fn best(&self) -> (Sample, bool) {
        let best = |it: &mut dyn Iterator<Item = &Sample>| {
            it.copied().min_by(|a, b| a.secs.total_cmp(&b.secs))
        };
        match best(&mut self.clean()) {
            Some(s) => (s, true),
            None => (
                best(&mut self.samples.iter()).expect("every contender is sampled"),
                false,
            ),
        }
    }
    /// ns per particle per step: the median of the clean loops (of all loops if none is clean,
    /// flagged `false`), and of the best loop.
    fn ns(&self, n: usize) -> (f64, f64, bool) {
        let clean: Vec<f64> = self.clean().map(|s| s.secs).collect();
        let (secs, ok) = if clean.is_empty() {
            (median(self.samples.iter().map(|s| s.secs).collect()), false)
        } else {
            (median(clean), true)
        };
        let per = |secs: f64| secs * 1e9 / (self.steps * n) as f64;
        (per(secs), per(self.best().0.secs), ok)
    }
    fn rebuilds_per_100_steps(&self) -> f64 {
        100.0 * self.rebuilds as f64 / (self.samples.len() * self.steps) as f64
    }
}

const KINDS: [&str; 3] = ["gradient", "explicit step", "RKMK4 step"];

/// Everything measured at one N: `records[kind][pool]`.
struct Row {
    n: usize,
    records: [[Record; 2]; 3],
}

impl Row {
    /// Median and best ns per particle per step, and whether the median is over clean loops.
    fn ns(&self, kind: usize, pool: usize) -> (f64, f64, bool) {
        self.records[kind][pool].ns(self.n)
    }
    /// The speed-up of 2 threads over 1: the median over the rounds in which both loops were
    /// clean of the ratio of their times (adjacent in time, so that slow changes of the load of
    /// the host cancel), and the ratio of the best loops; `false` if no round was clean.
    fn speedup(&self, kind: usize) -> (f64, f64, bool) {
        let [one, two] = &self.records[kind];
        let paired: Vec<f64> = one
            .samples
            .iter()
            .zip(&two.samples)
            .filter(|(a, b)| a.foreign <= FOREIGN_MAX && b.foreign <= FOREIGN_MAX)
            .map(|(a, b)| a.secs / b.secs)
            .collect();
        let best = one.best().0.secs / two.best().0.secs;
        if paired.is_empty() {
            (best, best, false)
        } else {
            (median(paired), best, true)
        }
    }
}

/// The state of the three contenders at one N. Every timed segment starts from the same
/// initial state (lattice and velocities), so that every N runs the same trajectory in units of
/// σ — the same number of rebuilds per step — whatever the number of segments.
struct Work<'a> {
    sys: &'a Sys,
    q0: Vec<Vector3<f64>>,
    /// Positions for the gradient: the lattice moved at random by up to `0.05σ`, within the
    /// skin (no rebuild), cycled so that the gradient is timed on changing positions as in a
    /// run (on one repeated input the branch predictor learns the rows of a small N).
    jittered: Vec<Vec<Vector3<f64>>>,
    calls: usize,
    omega0: Vec<Vector3<f64>>,
    h: f64,
    grad: Vec<Vector3<f64>>,
    /// The library's explicit variational integrator [LLM09, (3.17)–(3.18)] on the system with
    /// a timed potential (the diagonal-inertia path), and its ping-pong state.
    var: SphereVariational<DiagonalSystem<TimedPotential<'a, Pot>>>,
    var_state: [Vec<Vector3<f64>>; 4],
    field: TimedField<DiagonalLieField<'a, Pot>>,
    field_out: Vec<Vector6<f64>>,
    stepper: schemes::methods::AnyStepper<Act>,
    action: Act,
    y: State,
}

impl<'a> Work<'a> {
    fn new(sys: &'a Sys, q0: Vec<Vector3<f64>>, omega0: Vec<Vector3<f64>>, h: f64) -> Self {
        let timed_pot = TimedPotential {
            inner: sys.potential(),
            secs: Cell::new(0.0),
        };
        let var = SphereVariational::explicit(
            DiagonalSystem::new(sys.masses().to_vec(), timed_pot).expect("valid masses"),
        )
        .expect("diagonal inertia");
        let var_state = [q0.clone(), omega0.clone(), q0.clone(), omega0.clone()];
        let y = points(&q0, &omega0);
        let amplitude = 0.05 * sigma(sys.potential()) / 3f64.sqrt();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let jittered = (0..JITTERED)
            .map(|_| {
                q0.iter()
                    .map(|p| {
                        let d = Vector3::from_fn(|_, _| rng.random_range(-amplitude..amplitude));
                        (p + d).normalize()
                    })
                    .collect()
            })
            .collect();
        Self {
            sys,
            grad: vec![Vector3::zeros(); q0.len()],
            var,
            var_state,
            field: TimedField {
                inner: DiagonalLieField::new(sys),
                secs: Cell::new(0.0),
            },
            field_out: Vec::new(),
            stepper: schemes::methods::find("rkmk4")
                .expect("rkmk4 is a method")
                .stepper::<Act>(),
            action: Act::new(TangentSphereAction::new()),
            y,
            q0,
            jittered,
            calls: 0,
            omega0,
            h,
        }
    }

    /// Steps per segment of each kind.
    const SEGMENT: [usize; 3] = [SEGMENT_STEPS, SEGMENT_STEPS, RK_SEGMENT_STEPS];

    /// Back to the initial state, with the list built for it (untimed).
    fn reset(&mut self, kind: usize) {
        match kind {
            1 => {
                // The first step from here computes the gradient at q₀ (timed, as a force
                // evaluation): one gradient more per segment, the same at every N.
                self.var_state[0].clone_from(&self.q0);
                self.var_state[1].clone_from(&self.omega0);
            }
            2 => {
                self.y = points(&self.q0, &self.omega0);
                self.field.eval(0.0, &self.y, &mut self.field_out);
            }
            _ => {
                let q = &self.jittered[0];
                black_box(self.sys.potential().gradient(q, &mut self.grad));
            }
        }
    }

    fn step(&mut self, kind: usize) {
        match kind {
            0 => {
                self.calls += 1;
                let q = &self.jittered[self.calls % JITTERED];
                black_box(self.sys.potential().gradient(q, &mut self.grad));
            }
            1 => {
                let [q, w, q1, w1] = &mut self.var_state;
                self.var
                    .step_slices(0.0, q, w, self.h, q1, w1)
                    .expect("explicit step");
                core::mem::swap(q, q1);
                core::mem::swap(w, w1);
            }
            _ => {
                self.y = self
                    .stepper
                    .step(&self.action, &self.field, 0.0, &self.y, self.h, None)
                    .expect("rkmk4 step")
                    .y;
            }
        }
    }

    /// Seconds spent in force evaluations so far (`None` for the gradient: all of it).
    fn force_secs(&self, kind: usize) -> Option<f64> {
        match kind {
            0 => None,
            1 => Some(self.var.lagrangian().potential().secs.get()),
            _ => Some(self.field.secs.get()),
        }
    }

    /// One timed loop of `segments` segments; also returns the rebuilds in the timed steps.
    fn run(&mut self, kind: usize, segments: usize) -> (Sample, usize) {
        let pot = self.sys.potential();
        let ticks0 = cpu_ticks();
        let wall = Instant::now();
        let (mut secs, mut force_secs, mut rebuilds) = (0.0, 0.0, 0);
        for _ in 0..segments {
            self.reset(kind);
            let (f0, r0) = (self.force_secs(kind), pot.rebuilds());
            let t0 = Instant::now();
            for _ in 0..Self::SEGMENT[kind] {
                self.step(kind);
            }
            let dt = t0.elapsed().as_secs_f64();
            secs += dt;
            force_secs += match (f0, self.force_secs(kind)) {
                (Some(a), Some(b)) => b - a,
                _ => dt,
            };
            rebuilds += pot.rebuilds() - r0;
        }
        let wall = wall.elapsed().as_secs_f64();
        let foreign = match (ticks0, cpu_ticks()) {
            (Some((b0, o0)), Some((b1, o1))) => {
                ((b1 - b0) as f64 - (o1 - o0) as f64).max(0.0) / 100.0 / wall
            }
            _ => 0.0,
        };
        let sample = Sample {
            secs,
            force_secs,
            foreign,
        };
        (sample, rebuilds)
    }
}

fn measure(n: usize, pools: &[rayon::ThreadPool; 2]) -> Row {
    let (sys, q, omega, h) = setup(n);
    let mut work = Work::new(&sys, q, omega, h);
    let mut records = <[[Record; 2]; 3]>::default();
    // Calibration on one thread: segments per loop so that a loop lasts about MIN_LOOP_SECS.
    {
        let (work, records) = (&mut work, &mut records);
        pools[0].install(move || {
            for (kind, record) in records.iter_mut().enumerate() {
                work.run(kind, 1); // warm-up (allocates the stepper's buffers)
                let secs = work.run(kind, 1).0.secs;
                let segments = ((MIN_LOOP_SECS / secs).ceil() as usize).max(1);
                for r in record {
                    r.steps = segments * Work::SEGMENT[kind];
                }
            }
        });
    }
    for round in 0..MAX_ROUNDS {
        for (t, pool) in pools.iter().enumerate() {
            let (work, records) = (&mut work, &mut records);
            pool.install(move || {
                for (kind, record) in records.iter_mut().enumerate() {
                    let r = &mut record[t];
                    let (sample, rebuilds) = work.run(kind, r.steps / Work::SEGMENT[kind]);
                    r.add(sample, rebuilds);
                }
            });
        }
        let enough = records
            .iter()
            .flatten()
            .all(|r| r.clean_count() >= MIN_CLEAN);
        if round + 1 >= MIN_ROUNDS && enough {
            break;
        }
    }
    assert!(
        work.var_state[0]
            .iter()
            .chain(work.y.iter().map(TangentSphere2::q))
            .all(|p| p.norm().is_finite()),
        "the benchmark trajectories stay finite"
    );
    Row { n, records }
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn verdict(ok: bool) -> &'static str {
    if ok { "ok" } else { "MISSED" }
}

/// `*` after a number taken from loaded loops.
fn flag(clean: bool) -> &'static str {
    if clean { " " } else { "*" }
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
        "   ns per particle per step on pools of 1 and 2 threads: median of the clean loops of \
         {MIN_ROUNDS} to {MAX_ROUNDS} interleaved rounds (until {MIN_CLEAN} clean loops each); a \
         loop: segments of {SEGMENT_STEPS} steps ({RK_SEGMENT_STEPS} for RKMK4) from the initial \
         state, ≥ {MIN_LOOP_SECS} s on 1 thread; clean: other processes used ≤ {FOREIGN_MAX} CPU \
         meanwhile; * = no clean loop (median of all)"
    );
    println!(
        "  {:>7} | {:>9} {:>9} | {:>9} {:>9} | {:>9} {:>9} | clean loops | rebuilds/100 steps",
        "N", "grad 1T", "2T", "expl 1T", "2T", "rkmk4 1T", "2T"
    );
    let mut rows = Vec::new();
    for n in SIZES {
        let r = measure(n, &pools);
        let mut line = format!("  {n:>7} |");
        for kind in 0..3 {
            for pool in 0..2 {
                let (median, _, clean) = r.ns(kind, pool);
                line += &format!(" {median:>8.1}{}", flag(clean));
            }
            line += " |";
        }
        let all = r.records.iter().flatten();
        let clean = all.clone().map(Record::clean_count).min().unwrap_or(0);
        let total = all.map(|c| c.samples.len()).max().unwrap_or(0);
        line += &format!(
            " {clean:>4} of {total:<4} | gradient {:.1}, explicit {:.1}, rkmk4 {:.1}",
            r.records[0][0].rebuilds_per_100_steps(),
            r.records[1][0].rebuilds_per_100_steps(),
            r.records[2][0].rebuilds_per_100_steps()
        );
        println!("{line}");
        rows.push(r);
    }
    let load_after = load();
    println!("== acceptance (load average before: {load_before}; after: {load_after})");
    println!(
        "   flatness: max/min over N = 10³ … 10⁵ of ns per particle per step, medians (best \
         loops in parentheses); target ≤ {FLATNESS_TARGET}"
    );
    for (t, label) in ["1 thread ", "2 threads"].iter().enumerate() {
        let mut line = format!("     {label}:");
        for (k, kind) in KINDS.iter().enumerate() {
            let spread = |x: &dyn Fn(&Row) -> f64| {
                let xs = rows.iter().map(x);
                xs.clone().fold(0.0, f64::max) / xs.fold(f64::INFINITY, f64::min)
            };
            let ratio = spread(&|r| r.ns(k, t).0);
            let best = spread(&|r| r.ns(k, t).1);
            let clean = rows.iter().all(|r| r.ns(k, t).2);
            line += &format!(
                "  {kind} {ratio:.2}{} ({best:.2}) {}",
                flag(clean),
                verdict(ratio <= FLATNESS_TARGET)
            );
        }
        println!("{line}");
    }
    println!(
        "   speed-up of 2 threads over 1: median over the rounds of the paired ratio (ratio of the \
         best loops in parentheses); target ≥ {SPEEDUP_TARGET}"
    );
    for r in rows.iter().filter(|r| SPEEDUP_SIZES.contains(&r.n)) {
        let mut line = format!("     N = {:>6}:", r.n);
        for (k, kind) in KINDS.iter().enumerate() {
            let (s, best, clean) = r.speedup(k);
            line += &format!(
                "  {kind} {s:.2}×{} ({best:.2}×) {}",
                flag(clean),
                verdict(s >= SPEEDUP_TARGET)
            );
        }
        println!("{line}");
    }
    println!(
        "   outside the force evaluation: fraction of the 1-thread time spent there (best loop), \
         and the 2-thread speed-up of that part (best loops)"
    );
    for r in rows.iter().filter(|r| SPEEDUP_SIZES.contains(&r.n)) {
        let mut line = format!("     N = {:>6}:", r.n);
        for (kind, records) in KINDS.iter().zip(&r.records).skip(1) {
            let (one, two) = (records[0].best().0, records[1].best().0);
            let outside = |s: Sample| s.secs - s.force_secs;
            line += &format!(
                "  {kind} {:.1} % (2 threads: {:.2}×)",
                100.0 * one.outside(),
                outside(one) / outside(two)
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
            let mut var = SphereVariational::explicit(&sys).expect("diagonal inertia");
            let [mut qa, mut wa, mut qb, mut wb] =
                [q.clone(), omega.clone(), q.clone(), omega.clone()];
            b.iter(|| {
                var.step_slices(0.0, &qa, &wa, h, &mut qb, &mut wb)
                    .expect("explicit step");
                core::mem::swap(&mut qa, &mut qb);
                core::mem::swap(&mut wa, &mut wb);
            });
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
