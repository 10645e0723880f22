//! The 642-molecule Lennard-Jones gradient [LLM09, Ex. 6]: per-pair num-dual AD (over the
//! squared distance, through [`Potential::gradient`]) against the hand-written gradient, and
//! per-pair AD over the separation vector (3 duals) for reference. Criterion reports the time
//! per full gradient; divide by the 205,761 pairs for ns per pair (printed once at start).

use criterion::{Criterion, criterion_group, criterion_main};
use models::potential::{SeparationTerm, separation_gradient};
use models::{LennardJones, Potential, RadialTerm, SphereModel};
use nalgebra::{RealField, Vector3};
use std::hint::black_box;
use std::time::Instant;

/// The Lennard-Jones term as a function of the separation `d` (3 duals), for comparison.
struct OverSeparation<R>(R);

impl<R: RadialTerm> SeparationTerm for OverSeparation<R> {
    fn value<T: RealField + Copy>(&self, d: &Vector3<T>) -> T {
        self.0.value(d.norm_squared())
    }
}

fn gradient_over_separation<R: RadialTerm + Copy>(
    term: &R,
    q: &[Vector3<f64>],
    grad: &mut [Vector3<f64>],
) -> f64 {
    let t = OverSeparation(*term);
    grad.iter_mut().for_each(|g| *g = Vector3::zeros());
    let mut acc = 0.0;
    for i in 0..q.len() {
        let qi = q[i];
        let mut gi = Vector3::zeros();
        for (qj, gj) in q[i + 1..].iter().zip(grad[i + 1..].iter_mut()) {
            let (v, g) = separation_gradient(&t, &(qi - qj));
            acc += v;
            gi += g;
            *gj -= g;
        }
        grad[i] += gi;
    }
    acc
}

fn bench(c: &mut Criterion) {
    let (model, x0) = LennardJones::icosphere_642();
    let pot = *model.system().potential();
    let n = x0.q.len();
    let pairs = (n * (n - 1) / 2) as f64;
    let q = x0.q.clone();
    let mut g = vec![Vector3::zeros(); n];

    // A quick ns/pair summary (criterion's own numbers are per gradient): the best of 7
    // batches of 10 gradients after a warm-up batch (robust against a busy machine).
    let time = |f: &mut dyn FnMut() -> f64| {
        let mut best = f64::INFINITY;
        for batch in 0..8 {
            let t0 = Instant::now();
            for _ in 0..10 {
                black_box(f());
            }
            if batch > 0 {
                best = best.min(t0.elapsed().as_secs_f64() / 10.0);
            }
        }
        best / pairs * 1e9
    };
    let mut g1 = g.clone();
    let ad = time(&mut || pot.gradient(black_box(&q), &mut g1));
    let hand = time(&mut || pot.gradient_analytic(black_box(&q), &mut g1));
    let sep = time(&mut || gradient_over_separation(pot.term(), black_box(&q), &mut g1));
    println!(
        "Lennard-Jones, {n} molecules, {pairs} pairs: AD over r² {ad:.2} ns/pair, hand-written \
         {hand:.2} ns/pair (ratio {:.2}), AD over the separation {sep:.2} ns/pair",
        ad / hand
    );

    let mut group = c.benchmark_group("lj642_gradient");
    group.bench_function("ad_r2", |b| {
        b.iter(|| black_box(pot.gradient(black_box(&q), &mut g)));
    });
    group.bench_function("hand_written", |b| {
        b.iter(|| black_box(pot.gradient_analytic(black_box(&q), &mut g)));
    });
    group.bench_function("ad_separation", |b| {
        b.iter(|| black_box(gradient_over_separation(pot.term(), black_box(&q), &mut g)));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
