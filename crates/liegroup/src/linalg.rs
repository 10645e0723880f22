//! Small dense linear solves, in place and allocation free, generic over the scalar.
//!
//! The matrices are `n × n` **row-major** slices (`a[i * n + j]` is the entry in row `i`,
//! column `j`); the right-hand side `b` is overwritten by the solution. Every function is
//! generic over `T: RealField + Copy`, so dual numbers (num-dual) flow through a solve and
//! carry the derivative of the solution: pivots are chosen and tested by their real part only,
//! and no multiplier is skipped for being zero (a dual number with zero real part may still
//! carry a derivative).
//!
//! - [`lu_factor_in_place`] / [`lu_solve_in_place`]: LU factorization with partial pivoting,
//!   `P A = L U` \[GVL13, §3.4\], for general square systems (the Newton matrices of implicit
//!   methods).
//! - [`cholesky_in_place`] / [`cholesky_solve_in_place`]: `A = Rᵀ R` with `R` upper triangular
//!   \[GVL13, §4.2\], for symmetric positive definite systems (mass matrices); it also serves
//!   as the test of positive definiteness.
//!
//! - [`nan_max`] / [`max_abs`]: maxima for convergence tests that **propagate NaN**
//!   (`f64::max` returns the other operand when one is NaN, so a fold with it turns a NaN
//!   residual into a small number that passes the test).
//!
//! For the small sizes these are used at (`3n × 3n` with a few bodies, `s·d` stage unknowns)
//! the textbook loops are as fast as a blocked factorization, and the row-major layout lets the
//! inner loops run over contiguous rows.
//!
//! # Example
//! ```
//! use liegroup::linalg::{lu_factor_in_place, lu_solve_in_place};
//! // A zero on the diagonal needs a row exchange.
//! let mut a: [f64; 9] = [0.0, 1.0, 2.0, 1.0, 0.0, 3.0, 2.0, 3.0, 0.0];
//! let mut piv = [0; 3];
//! lu_factor_in_place(&mut a, 3, &mut piv)?;
//! let mut b = [3.0, 4.0, 5.0]; // A (1, 1, 1)ᵀ
//! lu_solve_in_place(&a, 3, &piv, &mut b);
//! assert!(b.iter().all(|x| (x - 1.0).abs() < 1e-15));
//! # Ok::<(), liegroup::linalg::FactorError>(())
//! ```
//!
//! Reference: \[GVL13\] (Golub, Van Loan, *Matrix Computations*, `docs/references.md`).

use crate::scalar::re;
use nalgebra::RealField;
use thiserror::Error;

/// `max(m, x)` that propagates NaN: NaN when `m` or `x` is NaN (unlike [`f64::max`], which
/// returns the other operand). For residual and update norms in convergence tests.
///
/// ```
/// use liegroup::linalg::nan_max;
/// assert_eq!(nan_max(1.0, 2.0), 2.0);
/// assert!(nan_max(1.0, f64::NAN).is_nan() && nan_max(f64::NAN, 1.0).is_nan());
/// assert_eq!(0.0_f64.max(f64::NAN), 0.0); // what this replaces
/// ```
#[inline]
#[must_use]
pub fn nan_max(m: f64, x: f64) -> f64 {
    // `x > m` is false when either is NaN: a NaN `m` is kept, a NaN `x` is taken.
    if x > m || x.is_nan() { x } else { m }
}

/// `maxᵢ |xᵢ|` (0 for no values), NaN when any `xᵢ` is NaN (see [`nan_max`]).
///
/// ```
/// use liegroup::linalg::max_abs;
/// assert_eq!(max_abs([1.0, -3.0, 2.0]), 3.0);
/// assert!(max_abs([1.0, f64::NAN, 2.0]).is_nan());
/// assert_eq!(max_abs([1.0, f64::NEG_INFINITY]), f64::INFINITY);
/// ```
#[must_use]
pub fn max_abs<I: IntoIterator<Item = f64>>(values: I) -> f64 {
    values.into_iter().fold(0.0, |m, x| nan_max(m, x.abs()))
}

/// The root mean square `sqrt(1/N Σᵢ xᵢ²)` of the values pushed, accumulated without
/// overflow or underflow by Blue's three accumulators \[Blu78\]: values with
/// `2⁻⁴⁸⁰ ≤ |xᵢ| ≤ 2⁴⁸⁰` add `xᵢ²` to the middle sum, larger ones `(2⁻⁶⁰⁰ xᵢ)²` to the big
/// sum, smaller ones `(2⁶⁰⁰ xᵢ)²` to the small sum (powers of two: the scalings are exact).
/// No division per value, and values of ordinary size (every error norm of a step that is
/// not absurd) take one multiply–add. So `rms = 1e200` is finite where `Σ xᵢ²` would
/// overflow to ∞; the result is ∞ only when some `xᵢ` is ∞ (or the RMS itself exceeds
/// `f64::MAX`) and NaN when some `xᵢ` is NaN.
///
/// Used for the weighted error norms of adaptive step-size control.
///
/// ```
/// use liegroup::linalg::Rms;
/// let mut r = Rms::default();
/// r.push(3e200);
/// r.push(4e200);
/// assert!((r.value() / (5e200 / 2f64.sqrt()) - 1.0).abs() < 4.0 * f64::EPSILON);
/// let mut z = Rms::default();
/// z.push(f64::NAN);
/// z.push(1.0);
/// assert!(z.value().is_nan());
/// assert_eq!(Rms::default().value(), 0.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rms {
    small: f64,
    mid: f64,
    big: f64,
    n: usize,
    nan: bool,
}

/// `|x|` above which a value goes to the big sum (`2⁴⁸⁰`: `N` middle squares stay below
/// `f64::MAX` for any `N < 2⁶³`).
const RMS_BIG: f64 = f64::from_bits((1023 + 480) << 52);
/// `|x|` below which a value goes to the small sum (`2⁻⁴⁸⁰`: middle squares are normal).
const RMS_SMALL: f64 = f64::from_bits((1023 - 480) << 52);
/// The scale of the big sum, `2⁻⁶⁰⁰` (its squares are at most `2⁸⁴⁸`).
const RMS_DOWN: f64 = f64::from_bits((1023 - 600) << 52);
/// The scale of the small sum, `2⁶⁰⁰` (a subnormal's square becomes normal).
const RMS_UP: f64 = f64::from_bits((1023 + 600) << 52);

impl Rms {
    /// Adds one value.
    #[inline]
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let a = x.abs();
        if a.is_nan() {
            self.nan = true;
        } else if a > RMS_BIG {
            // ∞ makes the big sum (and the result) ∞.
            let s = a * RMS_DOWN;
            self.big += s * s;
        } else if a < RMS_SMALL {
            let s = a * RMS_UP;
            self.small += s * s;
        } else {
            self.mid += a * a;
        }
    }

    /// `sqrt(1/N Σᵢ xᵢ²)`; 0 when nothing was pushed, NaN when a NaN was.
    #[inline]
    #[must_use]
    pub fn value(&self) -> f64 {
        if self.nan {
            return f64::NAN;
        }
        if self.n == 0 {
            return 0.0;
        }
        let n = self.n as f64;
        if self.big > 0.0 {
            // The middle sum, scaled down, can only matter in its last bits.
            ((self.big + (self.mid * RMS_DOWN) * RMS_DOWN) / n).sqrt() / RMS_DOWN
        } else if self.mid > 0.0 {
            ((self.mid + (self.small / RMS_UP) / RMS_UP) / n).sqrt()
        } else {
            (self.small / n).sqrt() / RMS_UP
        }
    }
}

/// Why a factorization failed.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[non_exhaustive]
pub enum FactorError {
    /// LU: at step `index` no entry of column `index` on or below the diagonal has a nonzero,
    /// finite real part — the matrix is singular (or holds NaN or infinite entries).
    #[error("singular matrix: no nonzero finite pivot in column {index}")]
    Singular {
        /// The 0-based step (column) at which the factorization stopped.
        index: usize,
    },
    /// Cholesky: the pivot `aⱼⱼ − Σₖ<ⱼ rₖⱼ²` at step `index` is not positive (or not finite) —
    /// the matrix is not positive definite.
    #[error("matrix not positive definite: Cholesky pivot {index} is {value}")]
    NotPositiveDefinite {
        /// The 0-based index of the failing pivot.
        index: usize,
        /// The real part of the pivot before its square root (`≤ 0`, or NaN/infinite).
        value: f64,
    },
}

/// LU factorization with partial pivoting, in place: `P A = L U` \[GVL13, §3.4\].
///
/// At step `k` the row with the largest `|Re aᵢₖ|`, `i ≥ k` (the first one on ties) is
/// exchanged with row `k` and recorded in `piv[k]`; the strict lower triangle of `a` then holds
/// the multipliers of `L` (unit diagonal implied), the upper triangle `U`. Solve with
/// [`lu_solve_in_place`].
///
/// # Errors
/// [`FactorError::Singular`] if at some step every candidate pivot has a zero or non-finite
/// real part; `a` and `piv` then hold a partial factorization.
///
/// # Panics
/// If `a.len() != n * n` or `piv.len() != n`.
///
/// # Example
/// ```
/// use liegroup::linalg::{FactorError, lu_factor_in_place};
/// let mut singular = [1.0, 2.0, 2.0, 4.0];
/// assert_eq!(
///     lu_factor_in_place(&mut singular, 2, &mut [0; 2]),
///     Err(FactorError::Singular { index: 1 })
/// );
/// ```
pub fn lu_factor_in_place<T: RealField + Copy>(
    a: &mut [T],
    n: usize,
    piv: &mut [usize],
) -> Result<(), FactorError> {
    assert_eq!(a.len(), n * n, "lu_factor_in_place: a is not n × n");
    assert_eq!(
        piv.len(),
        n,
        "lu_factor_in_place: piv does not have n entries"
    );
    for k in 0..n {
        let mut p = k;
        let mut best = re(a[k * n + k]).abs();
        for i in k + 1..n {
            let v = re(a[i * n + k]).abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        piv[k] = p;
        if !(best > 0.0 && best.is_finite()) {
            return Err(FactorError::Singular { index: k });
        }
        if p != k {
            let (upper, lower) = a.split_at_mut(p * n);
            upper[k * n..(k + 1) * n].swap_with_slice(&mut lower[..n]);
        }
        let (upper, lower) = a.split_at_mut((k + 1) * n);
        let row_k = &upper[k * n..];
        let pivot = row_k[k];
        for row_i in lower.chunks_exact_mut(n) {
            let l = row_i[k] / pivot;
            row_i[k] = l;
            for (x, &u) in row_i[k + 1..].iter_mut().zip(&row_k[k + 1..]) {
                *x -= l * u;
            }
        }
    }
    Ok(())
}

/// Solve `A x = b` in place (`b ← x`) from the factors of [`lu_factor_in_place`]: the row
/// exchanges of `piv`, then `L y = P b` (forward) and `U x = y` (backward).
///
/// # Panics
/// If `lu.len() != n * n`, `piv.len() != n` or `b.len() != n`.
pub fn lu_solve_in_place<T: RealField + Copy>(lu: &[T], n: usize, piv: &[usize], b: &mut [T]) {
    assert_eq!(lu.len(), n * n, "lu_solve_in_place: lu is not n × n");
    assert_eq!(
        piv.len(),
        n,
        "lu_solve_in_place: piv does not have n entries"
    );
    assert_eq!(b.len(), n, "lu_solve_in_place: b does not have n entries");
    for (k, &p) in piv.iter().enumerate() {
        b.swap(k, p);
    }
    for i in 0..n {
        let row = &lu[i * n..i * n + i];
        let mut x = b[i];
        for (&l, &y) in row.iter().zip(&b[..i]) {
            x -= l * y;
        }
        b[i] = x;
    }
    for i in (0..n).rev() {
        let row = &lu[i * n..(i + 1) * n];
        let mut x = b[i];
        for (&u, &y) in row[i + 1..].iter().zip(&b[i + 1..]) {
            x -= u * y;
        }
        b[i] = x / row[i];
    }
}

/// Cholesky factorization in place: `A = Rᵀ R` with `R` upper triangular and a positive
/// diagonal \[GVL13, §4.2\].
///
/// Only the upper triangle of `a` (diagonal included) is read, and on success it holds `R`
/// (`R = Lᵀ` for the lower factor `A = L Lᵀ`); the strict lower triangle is not touched. The
/// factorization is right-looking and row oriented: step `j` takes the square root of the
/// pivot, scales row `j` by its inverse and subtracts `rⱼₖ rⱼ` from each later row `k`. Solve
/// with [`cholesky_solve_in_place`]. A successful factorization is also the test that a
/// symmetric matrix is positive definite.
///
/// # Errors
/// [`FactorError::NotPositiveDefinite`] with the first pivot whose real part is not positive
/// or not finite; `a` then holds a partial factorization.
///
/// # Panics
/// If `a.len() != n * n`.
///
/// # Example
/// ```
/// use liegroup::linalg::{FactorError, cholesky_in_place, cholesky_solve_in_place};
/// let mut a = [4.0, 2.0, 2.0, 3.0];
/// cholesky_in_place(&mut a, 2)?;
/// assert_eq!([a[0], a[1], a[3]], [2.0, 1.0, 2f64.sqrt()]); // R = [[2, 1], [0, √2]]
/// let mut b = [6.0, 5.0]; // A (1, 1)ᵀ
/// cholesky_solve_in_place(&a, 2, &mut b);
/// assert!((b[0] - 1.0).abs() < 1e-15 && (b[1] - 1.0).abs() < 1e-15);
/// let mut indefinite = [1.0, 2.0, 2.0, 1.0];
/// assert!(matches!(
///     cholesky_in_place(&mut indefinite, 2),
///     Err(FactorError::NotPositiveDefinite { index: 1, .. })
/// ));
/// # Ok::<(), FactorError>(())
/// ```
pub fn cholesky_in_place<T: RealField + Copy>(a: &mut [T], n: usize) -> Result<(), FactorError> {
    assert_eq!(a.len(), n * n, "cholesky_in_place: a is not n × n");
    for j in 0..n {
        let d = a[j * n + j];
        let value = re(d);
        if !(value > 0.0 && value.is_finite()) {
            return Err(FactorError::NotPositiveDefinite { index: j, value });
        }
        let d = d.sqrt();
        let inv = T::one() / d;
        let (upper, lower) = a.split_at_mut((j + 1) * n);
        let row_j = &mut upper[j * n + j..];
        row_j[0] = d;
        for x in &mut row_j[1..] {
            *x *= inv;
        }
        let row_j = &row_j[1..];
        for (k, row_k) in lower.chunks_exact_mut(n).enumerate() {
            // Row k = j + 1 + k: entries from the diagonal on.
            let r_jk = row_j[k];
            for (x, &r) in row_k[j + 1 + k..].iter_mut().zip(&row_j[k..]) {
                *x -= r_jk * r;
            }
        }
    }
    Ok(())
}

/// Solve `A x = b` in place (`b ← x`) with the factor `R` of [`cholesky_in_place`]
/// (`A = Rᵀ R`): `Rᵀ y = b` (forward), then `R x = y` (backward).
///
/// # Panics
/// If `r.len() != n * n` or `b.len() != n`.
pub fn cholesky_solve_in_place<T: RealField + Copy>(r: &[T], n: usize, b: &mut [T]) {
    assert_eq!(r.len(), n * n, "cholesky_solve_in_place: r is not n × n");
    assert_eq!(
        b.len(),
        n,
        "cholesky_solve_in_place: b does not have n entries"
    );
    for j in 0..n {
        let row = &r[j * n + j..(j + 1) * n];
        let y = b[j] / row[0];
        b[j] = y;
        for (x, &rji) in b[j + 1..].iter_mut().zip(&row[1..]) {
            *x -= rji * y;
        }
    }
    for j in (0..n).rev() {
        let row = &r[j * n + j..(j + 1) * n];
        let mut s = b[j];
        for (&rji, &x) in row[1..].iter().zip(&b[j + 1..]) {
            s -= rji * x;
        }
        b[j] = s / row[0];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};
    use num_dual::Dual64;

    const EPS: f64 = f64::EPSILON;

    fn rms_of(values: &[f64]) -> f64 {
        let mut r = Rms::default();
        values.iter().for_each(|&x| r.push(x));
        r.value()
    }

    /// Blue's accumulators against the plain formula wherever it neither over- nor
    /// underflows, and against exact scalings by powers of two where it would: the RMS is
    /// homogeneous, `rms(2ᵏ x) = 2ᵏ rms(x)`, so every range must give the same mantissa.
    #[test]
    fn rms_is_the_plain_formula_and_homogeneous_across_every_range() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for len in [1, 2, 3, 6, 12, 40] {
            let x: Vec<f64> = (0..len).map(|_| rng.next() * 8.0).collect();
            let plain = (x.iter().map(|v| v * v).sum::<f64>() / len as f64).sqrt();
            let r = rms_of(&x);
            assert!((r - plain).abs() <= 4.0 * EPS * plain, "{r} vs {plain}");
            for k in [-1060, -900, -600, -481, -480, 0, 480, 481, 600, 900, 1015] {
                // 2ᵏ exactly (also the subnormal 2⁻¹⁰⁶⁰, which `powi` would lose).
                let scale = 2f64.powi(k / 2) * 2f64.powi(k - k / 2);
                let scaled: Vec<f64> = x.iter().map(|v| v * scale).collect();
                // Below 2⁻¹⁰²² the scaled values themselves lose bits (subnormals).
                let tol = if k < -1000 { 1e-3 } else { 4.0 * EPS };
                let got = rms_of(&scaled) / scale;
                assert!((got - r).abs() <= tol * r, "k = {k}: {got} vs {r}");
            }
        }
        // Mixed magnitudes: the huge value dominates, the rest is below its last bit.
        let r = rms_of(&[1e300, 1.0, 1e-300, 0.0]);
        assert!((r - 1e300 / 2.0).abs() <= 4.0 * EPS * r);
        let r = rms_of(&[1e-300, 3e-300, 1.0]);
        assert!((r - (1.0f64 / 3.0).sqrt()).abs() <= 4.0 * EPS);
        assert_eq!(rms_of(&[f64::MAX, f64::MAX]), f64::MAX);
        assert_eq!(rms_of(&[1.0, f64::INFINITY]), f64::INFINITY);
        assert_eq!(rms_of(&[1.0, f64::NEG_INFINITY, 1e-310]), f64::INFINITY);
        assert!(rms_of(&[f64::INFINITY, f64::NAN]).is_nan());
        assert_eq!(rms_of(&[]), 0.0);
        assert_eq!(rms_of(&[0.0, -0.0]), 0.0);
        assert_eq!(rms_of(&[f64::from_bits(1)]), f64::from_bits(1));
    }

    /// A xorshift generator of uniform numbers in `[-0.5, 0.5)` (reproducible, no dependency).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        }
    }

    fn row_major(m: &DMatrix<f64>) -> Vec<f64> {
        let n = m.nrows();
        (0..n * n).map(|k| m[(k / n, k % n)]).collect()
    }

    /// `‖A x − b‖∞ / (‖A‖∞ ‖x‖∞)`, the normwise backward error of a computed solution.
    fn backward_error(m: &DMatrix<f64>, x: &[f64], b: &DVector<f64>) -> f64 {
        let x = DVector::from_column_slice(x);
        let norm_a = (0..m.nrows())
            .map(|i| m.row(i).iter().map(|v| v.abs()).sum::<f64>())
            .fold(0.0, f64::max);
        (m * &x - b).amax() / (norm_a * x.amax())
    }

    /// Random well-conditioned systems (a random matrix plus `n I`, so that `cond∞ ≤ 3`, and
    /// random matrices with small leading entries, which need the row exchanges): partial
    /// pivoting is backward stable, so `‖Ax − b‖ ≤ c n ε ‖A‖‖x‖` \[GVL13, §3.4\], and the
    /// forward error against nalgebra's LU is bounded by `cond · ε` times a small factor.
    #[test]
    fn lu_solves_random_systems_to_round_off() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for n in [1, 2, 3, 5, 8, 12, 30] {
            for trial in 0..20 {
                let m = DMatrix::<f64>::from_fn(n, n, |i, j| {
                    let v = rng.next();
                    match (trial % 2, i == j) {
                        (0, true) => v + n as f64,
                        (1, true) => 1e-13 * v,
                        _ => v,
                    }
                });
                let b = DVector::<f64>::from_fn(n, |_, _| rng.next());
                let mut a = row_major(&m);
                let mut piv = vec![0; n];
                lu_factor_in_place(&mut a, n, &mut piv).unwrap();
                let mut x = b.as_slice().to_vec();
                lu_solve_in_place(&a, n, &piv, &mut x);
                let be = backward_error(&m, &x, &b);
                assert!(be <= 4.0 * n as f64 * EPS, "n = {n}: backward error {be:e}");
                let want = m.clone().lu().solve(&b).unwrap();
                let cond = m.clone().try_inverse().unwrap().amax() * m.amax() * (n * n) as f64;
                let err = (DVector::from_vec(x) - &want).amax() / want.amax();
                assert!(err <= 8.0 * cond * EPS, "n = {n}: forward error {err:e}");
            }
        }
    }

    #[test]
    fn lu_reports_the_singular_column() {
        // Rank 2: the third column is the sum of the first two, and every step of the
        // elimination is exact (multipliers ½, ½, −1), so the last pivot is exactly 0.
        let mut a = [2.0, 4.0, 6.0, 1.0, 3.0, 4.0, 1.0, 1.0, 2.0];
        let mut piv = [0; 3];
        assert_eq!(
            lu_factor_in_place(&mut a, 3, &mut piv),
            Err(FactorError::Singular { index: 2 })
        );
        let mut zero_column = [0.0, 1.0, 0.0, 2.0];
        assert_eq!(
            lu_factor_in_place(&mut zero_column, 2, &mut [0; 2]),
            Err(FactorError::Singular { index: 0 })
        );
        let mut nan = [f64::NAN, 1.0, f64::NAN, 2.0];
        assert_eq!(
            lu_factor_in_place(&mut nan, 2, &mut [0; 2]),
            Err(FactorError::Singular { index: 0 })
        );
        let mut empty: [f64; 0] = [];
        assert_eq!(lu_factor_in_place(&mut empty, 0, &mut []), Ok(()));
    }

    /// Random SPD matrices `BᵀB + I` (eigenvalues ≥ 1): Cholesky is backward stable, the
    /// factor reproduces `A` to round-off, and the solve has a small residual.
    #[test]
    fn cholesky_factors_and_solves_spd_systems() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for n in [1, 2, 3, 6, 12, 30] {
            for _ in 0..10 {
                let bm = DMatrix::<f64>::from_fn(n, n, |_, _| rng.next());
                let m = bm.transpose() * &bm + DMatrix::identity(n, n);
                let b = DVector::<f64>::from_fn(n, |_, _| rng.next());
                let mut r = row_major(&m);
                // The strict lower triangle is neither read nor written.
                for i in 0..n {
                    for j in 0..i {
                        r[i * n + j] = f64::NAN;
                    }
                }
                cholesky_in_place(&mut r, n).unwrap();
                let rm = DMatrix::from_fn(n, n, |i, j| if i <= j { r[i * n + j] } else { 0.0 });
                assert!((0..n).all(|i| (0..i).all(|j| r[i * n + j].is_nan())));
                let rec = (rm.transpose() * &rm - &m).amax() / m.amax();
                assert!(rec <= 4.0 * n as f64 * EPS, "n = {n}: ‖RᵀR − A‖ {rec:e}");
                let mut x = b.as_slice().to_vec();
                cholesky_solve_in_place(&r, n, &mut x);
                let be = backward_error(&m, &x, &b);
                assert!(be <= 4.0 * n as f64 * EPS, "n = {n}: backward error {be:e}");
            }
        }
    }

    #[test]
    fn cholesky_rejects_matrices_that_are_not_positive_definite() {
        // Indefinite: eigenvalues 3 and −1; the second pivot is 1 − 4 = −3.
        let mut a = [1.0, 2.0, 2.0, 1.0];
        assert_eq!(
            cholesky_in_place(&mut a, 2),
            Err(FactorError::NotPositiveDefinite {
                index: 1,
                value: -3.0
            })
        );
        // Semidefinite (singular): the second pivot is exactly 0.
        let mut a = [1.0, 1.0, 1.0, 1.0];
        assert_eq!(
            cholesky_in_place(&mut a, 2),
            Err(FactorError::NotPositiveDefinite {
                index: 1,
                value: 0.0
            })
        );
        let mut a = [-1.0];
        assert!(matches!(
            cholesky_in_place(&mut a, 1),
            Err(FactorError::NotPositiveDefinite { index: 0, .. })
        ));
        let mut a = [f64::NAN];
        assert!(matches!(
            cholesky_in_place(&mut a, 1),
            Err(FactorError::NotPositiveDefinite { index: 0, value }) if value.is_nan()
        ));
    }

    /// Dual numbers: for `A(s) x(s) = b(s)` the derivative part of the solution is
    /// `x′ = A⁻¹(b′ − A′x)`, which both solves must reproduce to round-off — also through a
    /// row exchange and with an entry whose real part is zero but whose derivative is not.
    #[test]
    fn dual_numbers_carry_the_derivative_of_the_solution() {
        let n = 3;
        let a0 = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.5, 1.0, 3.0, 0.0, 0.5, 0.0, 2.0]);
        let da = DMatrix::from_row_slice(3, 3, &[0.1, 1.0, -0.2, 1.0, 0.3, 0.7, -0.2, 0.7, 0.5]);
        let b0 = DVector::from_column_slice(&[1.0, -2.0, 0.5]);
        let db = DVector::from_column_slice(&[0.3, 0.0, -1.0]);
        let x0 = a0.clone().lu().solve(&b0).unwrap();
        let dx = a0.clone().lu().solve(&(&db - &da * &x0)).unwrap();
        let dual = |m: &DMatrix<f64>, d: &DMatrix<f64>| -> Vec<Dual64> {
            (0..n * n)
                .map(|k| Dual64::new(m[(k / n, k % n)], d[(k / n, k % n)]))
                .collect()
        };
        let rhs: Vec<Dual64> = (0..n).map(|i| Dual64::new(b0[i], db[i])).collect();
        let check = |x: &[Dual64], what: &str| {
            for i in 0..n {
                assert!((x[i].re - x0[i]).abs() < 8.0 * EPS, "{what} re {i}");
                assert!((x[i].eps - dx[i]).abs() < 32.0 * EPS, "{what} eps {i}");
            }
        };
        // SPD: Cholesky.
        let mut r = dual(&a0, &da);
        cholesky_in_place(&mut r, n).unwrap();
        let mut x = rhs.clone();
        cholesky_solve_in_place(&r, n, &mut x);
        check(&x, "cholesky");
        // The same system with its rows reversed (the pivot search exchanges them back).
        let p = DMatrix::from_fn(3, 3, |i, j| if i + j == 2 { 1.0 } else { 0.0 });
        let mut lu = dual(&(&p * &a0), &(&p * &da));
        let mut piv = [0; 3];
        lu_factor_in_place(&mut lu, n, &mut piv).unwrap();
        assert_eq!(piv[0], 2);
        let mut x: Vec<Dual64> = rhs.iter().rev().copied().collect();
        lu_solve_in_place(&lu, n, &piv, &mut x);
        check(&x, "lu");
    }
}
