//! `VectorSpace::set_combination`: the one-pass override of runtime powers is bitwise the same
//! as the default (`set_scaled` then `add_scaled` term by term), below and above the parallel
//! threshold, and an empty combination is zero.

use liegroup::VectorSpace;
use nalgebra::Vector6;

/// Deterministic, non-trivial entries (no RNG needed: the point is bitwise agreement).
fn vec_of(n: usize, seed: f64) -> Vec<Vector6<f64>> {
    (0..n)
        .map(|i| Vector6::from_fn(|r, _| ((i * 6 + r) as f64 * 0.618_033_988_7 + seed).sin()))
        .collect()
}

fn sequential(terms: &[(f64, &Vec<Vector6<f64>>)]) -> Vec<Vector6<f64>> {
    let mut out = terms[0].1.zero_like();
    out.set_scaled(terms[0].0, terms[0].1);
    for &(a, x) in &terms[1..] {
        out.add_scaled(a, x);
    }
    out
}

#[test]
fn one_pass_combination_is_bitwise_the_default() {
    // 7 is below any parallel threshold, 5000 above liegroup::par::PAR_THRESHOLD.
    for n in [7, 5000] {
        let (a, b, c, d) = (
            vec_of(n, 0.1),
            vec_of(n, 0.2),
            vec_of(n, 0.3),
            vec_of(n, 0.4),
        );
        let terms = [(0.1 / 3.0, &a), (-2.0 / 7.0, &b), (1e-3, &c), (5.5, &d)];
        let mut out = a.zero_like();
        out.set_combination(&terms);
        let expect = sequential(&terms);
        for (x, y) in out.iter().zip(&expect) {
            for (p, q) in x.iter().zip(y.iter()) {
                assert_eq!(p.to_bits(), q.to_bits(), "n = {n}");
            }
        }
        // A wrong coefficient changes the result (the comparison can fail).
        let mut other = a.zero_like();
        other.set_combination(&[(0.1 / 3.0, &a), (-2.0 / 7.0, &b), (1e-3, &c), (5.4, &d)]);
        assert_ne!(other, expect);
        // No terms: zero, whatever was there.
        out.set_combination(&[]);
        assert!(out.iter().all(|x| *x == Vector6::zeros()));
    }
}

#[cfg(feature = "rayon")]
#[test]
fn one_pass_combination_does_not_depend_on_the_number_of_threads() {
    let n = 3 * liegroup::par::PAR_THRESHOLD + 17;
    let (a, b, c) = (vec_of(n, 1.0), vec_of(n, 2.0), vec_of(n, 3.0));
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut out = a.zero_like();
            out.set_combination(&[(0.25, &a), (-1.0 / 3.0, &b), (2.0, &c)]);
            out
        })
    };
    let one = run(1);
    for threads in [2, 3] {
        assert!(run(threads).iter().zip(&one).all(|(x, y)| {
            x.iter()
                .zip(y.iter())
                .all(|(p, q)| p.to_bits() == q.to_bits())
        }));
    }
}
