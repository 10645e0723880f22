//! Element-wise loops over the factors of runtime powers, on rayon above a length threshold.
//!
//! Without the `rayon` feature every function here is the plain serial loop. With it, a loop
//! over at least
//! [`PAR_THRESHOLD`] elements runs on rayon's current thread pool in tasks of at least
//! [`PAR_MIN_LEN`] elements; shorter loops — a product of a handful of factors, a small `Vec`
//! problem — stay serial and pay no rayon overhead, and then allocate nothing either.
//!
//! **Results are bitwise identical for any number of threads**: every function is an
//! element-wise map (each element computed by the same operations whatever the split) or a
//! reduction whose result does not depend on the order ([`all`]: a boolean; [`position_first`]:
//! the smallest matching index). Sums and other order-dependent reductions stay serial in the
//! callers.
//!
//! The runtime powers of the workspace use these loops: `Vec<G>` as a [`LieGroup`](crate::LieGroup)
//! and `Vec<V>` as a [`VectorSpace`](crate::VectorSpace) here, and the `Vec` powers of actions and
//! points in `homogeneous`.
//!
//! # Example
//! ```
//! use liegroup::par;
//! let mut y = vec![1.0_f64; 5000];
//! let x = vec![2.0_f64; 5000];
//! par::zip_mut(&mut y, &x, |yi, xi| *yi += 0.5 * xi);
//! assert!(y.iter().all(|&v| v == 2.0));
//! assert!(par::all(&y, |v| v.is_finite()));
//! assert_eq!(par::position_first(&y, |&v| v != 2.0), None);
//! ```

/// The length from which the loops of this module run on rayon (with the `rayon` feature).
///
/// Chosen by measurement (`docs/performance.md`, "Large N on spheres" and "Design notes measured
/// in benchmarks"): below it the fork/join overhead outweighs the work of cheap per-element
/// loops, and a lower threshold keeps the passes of a step between parallel force evaluations
/// from running serially while the other worker idles. A product of a handful of factors never
/// reaches it.
pub const PAR_THRESHOLD: usize = 1000;

/// The smallest number of elements per rayon task (with the `rayon` feature): tasks large
/// enough to amortize their scheduling, and a loop of [`PAR_THRESHOLD`] elements makes two of
/// them.
pub const PAR_MIN_LEN: usize = 500;

/// `true` when the crate was built with the `rayon` feature.
pub const PARALLEL: bool = cfg!(feature = "rayon");

/// `true` when a loop over `len` elements runs on rayon.
#[inline]
#[must_use]
pub const fn is_parallel(len: usize) -> bool {
    PARALLEL && len >= PAR_THRESHOLD
}

/// `f(aᵢ)` for every element.
#[inline]
pub fn for_each_mut<A, F>(a: &mut [A], f: F)
where
    A: Send + Sync,
    F: Fn(&mut A) + Send + Sync,
{
    #[cfg(feature = "rayon")]
    if is_parallel(a.len()) {
        use rayon::prelude::*;
        a.par_iter_mut().with_min_len(PAR_MIN_LEN).for_each(f);
        return;
    }
    a.iter_mut().for_each(f);
}

/// `f(i, aᵢ)` for every `i`.
#[inline]
pub fn for_each_indexed_mut<A, F>(a: &mut [A], f: F)
where
    A: Send + Sync,
    F: Fn(usize, &mut A) + Send + Sync,
{
    #[cfg(feature = "rayon")]
    if is_parallel(a.len()) {
        use rayon::prelude::*;
        a.par_iter_mut()
            .enumerate()
            .with_min_len(PAR_MIN_LEN)
            .for_each(|(i, x)| f(i, x));
        return;
    }
    for (i, x) in a.iter_mut().enumerate() {
        f(i, x);
    }
}

/// `f(aᵢ, bᵢ)` for every `i`.
///
/// # Panics
/// If the lengths differ.
#[inline]
pub fn zip_mut<A, B, F>(a: &mut [A], b: &[B], f: F)
where
    A: Send + Sync,
    B: Send + Sync,
    F: Fn(&mut A, &B) + Send + Sync,
{
    assert_eq!(
        a.len(),
        b.len(),
        "par::zip_mut: slices of different lengths"
    );
    #[cfg(feature = "rayon")]
    if is_parallel(a.len()) {
        use rayon::prelude::*;
        a.par_iter_mut()
            .zip(b.par_iter())
            .with_min_len(PAR_MIN_LEN)
            .for_each(|(x, y)| f(x, y));
        return;
    }
    for (x, y) in a.iter_mut().zip(b) {
        f(x, y);
    }
}

/// `f(aᵢ, bᵢ, cᵢ)` for every `i`.
///
/// # Panics
/// If the lengths differ.
#[inline]
pub fn zip2_mut<A, B, C, F>(a: &mut [A], b: &[B], c: &[C], f: F)
where
    A: Send + Sync,
    B: Send + Sync,
    C: Send + Sync,
    F: Fn(&mut A, &B, &C) + Send + Sync,
{
    assert!(
        a.len() == b.len() && a.len() == c.len(),
        "par::zip2_mut: slices of different lengths"
    );
    #[cfg(feature = "rayon")]
    if is_parallel(a.len()) {
        use rayon::prelude::*;
        a.par_iter_mut()
            .zip(b.par_iter())
            .zip(c.par_iter())
            .with_min_len(PAR_MIN_LEN)
            .for_each(|((x, y), z)| f(x, y, z));
        return;
    }
    for ((x, y), z) in a.iter_mut().zip(b).zip(c) {
        f(x, y, z);
    }
}

/// The vector `(f(aᵢ))ᵢ`.
#[inline]
pub fn map<A, R, F>(a: &[A], f: F) -> Vec<R>
where
    A: Send + Sync,
    R: Send + Sync,
    F: Fn(&A) -> R + Send + Sync,
{
    #[cfg(feature = "rayon")]
    if is_parallel(a.len()) {
        use rayon::prelude::*;
        let mut out = Vec::with_capacity(a.len());
        a.par_iter()
            .with_min_len(PAR_MIN_LEN)
            .map(f)
            .collect_into_vec(&mut out);
        return out;
    }
    a.iter().map(f).collect()
}

/// The vector `(f(aᵢ, bᵢ))ᵢ`.
///
/// # Panics
/// If the lengths differ.
#[inline]
pub fn zip_map<A, B, R, F>(a: &[A], b: &[B], f: F) -> Vec<R>
where
    A: Send + Sync,
    B: Send + Sync,
    R: Send + Sync,
    F: Fn(&A, &B) -> R + Send + Sync,
{
    assert_eq!(
        a.len(),
        b.len(),
        "par::zip_map: slices of different lengths"
    );
    #[cfg(feature = "rayon")]
    if is_parallel(a.len()) {
        use rayon::prelude::*;
        let mut out = Vec::with_capacity(a.len());
        a.par_iter()
            .zip(b.par_iter())
            .with_min_len(PAR_MIN_LEN)
            .map(|(x, y)| f(x, y))
            .collect_into_vec(&mut out);
        return out;
    }
    a.iter().zip(b).map(|(x, y)| f(x, y)).collect()
}

/// `true` when `f(aᵢ)` holds for every element (a boolean: the same for any split).
#[inline]
pub fn all<A, F>(a: &[A], f: F) -> bool
where
    A: Send + Sync,
    F: Fn(&A) -> bool + Send + Sync,
{
    #[cfg(feature = "rayon")]
    if is_parallel(a.len()) {
        use rayon::prelude::*;
        return a.par_iter().with_min_len(PAR_MIN_LEN).all(f);
    }
    a.iter().all(f)
}

/// The smallest `i` with `f(aᵢ)` (the same for any split: error reports name the first bad
/// element, as a serial scan does).
#[inline]
pub fn position_first<A, F>(a: &[A], f: F) -> Option<usize>
where
    A: Send + Sync,
    F: Fn(&A) -> bool + Send + Sync,
{
    #[cfg(feature = "rayon")]
    if is_parallel(a.len()) {
        use rayon::prelude::*;
        return a.par_iter().with_min_len(PAR_MIN_LEN).position_first(f);
    }
    a.iter().position(f)
}

/// `dst ← src` element by element (`clone_from_slice`, in parallel for long slices).
///
/// # Panics
/// If the lengths differ.
#[inline]
pub fn copy_from<A>(dst: &mut [A], src: &[A])
where
    A: Clone + Send + Sync,
{
    #[cfg(feature = "rayon")]
    if is_parallel(dst.len()) {
        assert_eq!(
            dst.len(),
            src.len(),
            "par::copy_from: slices of different lengths"
        );
        use rayon::prelude::*;
        dst.par_chunks_mut(PAR_MIN_LEN)
            .zip(src.par_chunks(PAR_MIN_LEN))
            .for_each(|(d, s)| d.clone_from_slice(s));
        return;
    }
    dst.clone_from_slice(src);
}
