//! Small dense kernels generic over the scalar (so that dual numbers flow through them), in
//! place and allocation free.

use liegroup::scalar::re;
use nalgebra::RealField;

/// Solve `A x = b` in place by Gaussian elimination with partial pivoting (pivots chosen by the
/// real part); `a` is `m × m` row-major and destroyed, `b` becomes `x`. Returns `false` when a
/// pivot vanishes or is not finite.
pub(crate) fn solve_in_place<T: RealField + Copy>(a: &mut [T], b: &mut [T], m: usize) -> bool {
    debug_assert_eq!(a.len(), m * m);
    debug_assert_eq!(b.len(), m);
    for k in 0..m {
        let mut p = k;
        let mut best = re(a[k * m + k]).abs();
        for i in k + 1..m {
            let v = re(a[i * m + k]).abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        if !(best > 0.0 && best.is_finite()) {
            return false;
        }
        if p != k {
            for j in 0..m {
                a.swap(p * m + j, k * m + j);
            }
            b.swap(p, k);
        }
        let inv = T::one() / a[k * m + k];
        for i in k + 1..m {
            // No skipping of zero multipliers: a dual number with zero real part may carry a
            // derivative.
            let f = a[i * m + k] * inv;
            for j in k + 1..m {
                let akj = a[k * m + j];
                a[i * m + j] -= f * akj;
            }
            let bk = b[k];
            b[i] -= f * bk;
        }
    }
    for k in (0..m).rev() {
        let mut s = b[k];
        for j in k + 1..m {
            s -= a[k * m + j] * b[j];
        }
        b[k] = s / a[k * m + k];
    }
    true
}

/// `true` when the symmetric `m × m` row-major matrix is positive definite (Cholesky
/// factorization of a copy succeeds).
pub(crate) fn is_positive_definite(a: &[f64], m: usize) -> bool {
    let mut l = a.to_vec();
    for j in 0..m {
        let mut d = l[j * m + j];
        for k in 0..j {
            d -= l[j * m + k] * l[j * m + k];
        }
        if !(d > 0.0 && d.is_finite()) {
            return false;
        }
        let d = d.sqrt();
        l[j * m + j] = d;
        for i in j + 1..m {
            let mut s = l[i * m + j];
            for k in 0..j {
                s -= l[i * m + k] * l[j * m + k];
            }
            l[i * m + j] = s / d;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_detects_singular() {
        let mut a = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let mut b = [5.0, 3.0, 6.0];
        assert!(solve_in_place(&mut a, &mut b, 3));
        let a0 = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        for i in 0..3 {
            let r: f64 = (0..3).map(|j| a0[i * 3 + j] * b[j]).sum();
            assert!((r - [5.0, 3.0, 6.0][i]).abs() < 1e-14);
        }
        let mut s = [1.0, 2.0, 2.0, 4.0];
        let mut c = [1.0, 1.0];
        assert!(!solve_in_place(&mut s, &mut c, 2));
        assert!(is_positive_definite(&[2.0, 1.0, 1.0, 1.0], 2));
        assert!(!is_positive_definite(&[1.0, 2.0, 2.0, 1.0], 2));
    }
}
