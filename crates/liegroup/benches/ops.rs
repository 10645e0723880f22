//! Cost of the basic operations of `So3` and `Se3` with `f64` and `Dual64` scalars:
//! exp, log, compose, dexp⁻¹, the Cayley map and dcay⁻¹.
//!
//! Run briefly with
//! `cargo bench -p liegroup --bench ops -- --warm-up-time 0.5 --measurement-time 1`.

use criterion::{Criterion, criterion_group, criterion_main};
use liegroup::num_dual::Dual64;
use liegroup::{CayleyGroup, Se3, So3};
use nalgebra::{Vector3, Vector6};
use std::hint::black_box;

/// Benchmarks every operation of one group at the algebra elements `u` (the point) and `v`
/// (the direction).
fn bench_group<G: CayleyGroup>(c: &mut Criterion, name: &str, u: G::Algebra, v: G::Algebra) {
    let g = G::exp(&u);
    let h = G::exp(&v);
    let mut group = c.benchmark_group(name);
    group.bench_function("exp", |b| b.iter(|| black_box(G::exp(black_box(&u)))));
    group.bench_function("log", |b| b.iter(|| black_box(black_box(&g).log())));
    group.bench_function("compose", |b| {
        b.iter(|| black_box(black_box(&g).compose(black_box(&h))))
    });
    group.bench_function("dexpinv", |b| {
        b.iter(|| black_box(G::dexpinv(black_box(&u), black_box(&v))))
    });
    group.bench_function("dexp", |b| {
        b.iter(|| black_box(G::dexp(black_box(&u), black_box(&v))))
    });
    group.bench_function("cay", |b| b.iter(|| black_box(G::cay(black_box(&u)))));
    group.bench_function("dcayinv", |b| {
        b.iter(|| black_box(G::dcayinv(black_box(&u), black_box(&v))))
    });
    group.finish();
}

fn dual3(re: Vector3<f64>, eps: Vector3<f64>) -> Vector3<Dual64> {
    Vector3::from_fn(|i, _| Dual64::new(re[i], eps[i]))
}

fn dual6(re: Vector6<f64>, eps: Vector6<f64>) -> Vector6<Dual64> {
    Vector6::from_fn(|i, _| Dual64::new(re[i], eps[i]))
}

fn ops(c: &mut Criterion) {
    // |A| ≈ 1.1: closed-form exp/log, series g₂ (α < 2); |A| ≈ 0.11: every series branch.
    let u = Vector3::new(0.3, -0.7, 0.8);
    let v = Vector3::new(0.2, 0.5, -0.1);
    let a = Vector3::new(1.0, 2.0, -0.5);
    let u6 = Vector6::new(u.x, u.y, u.z, a.x, a.y, a.z);
    let v6 = Vector6::new(v.x, v.y, v.z, 0.3, -0.2, 0.1);

    bench_group::<So3>(c, "so3_f64", u, v);
    bench_group::<So3>(c, "so3_f64_small", u * 0.1, v);
    bench_group::<So3<Dual64>>(c, "so3_dual64", dual3(u, v), dual3(v, u));
    bench_group::<Se3>(c, "se3_f64", u6, v6);
    bench_group::<Se3>(c, "se3_f64_small", u6 * 0.1, v6);
    bench_group::<Se3<Dual64>>(c, "se3_dual64", dual6(u6, v6), dual6(v6, u6));
}

criterion_group!(benches, ops);
criterion_main!(benches);
