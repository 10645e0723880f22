//! Scalar helpers shared by every group.

use nalgebra::RealField;

/// Convert an `f64` constant into the scalar type `T` (f64, or a dual number with zero
/// derivative part).
#[inline(always)]
#[must_use]
pub fn c<T: RealField + Copy>(x: f64) -> T {
    nalgebra::convert::<f64, T>(x)
}

/// Evaluate the polynomial `Σ coeffs[k] x^k` by Horner's rule.
#[inline]
#[must_use]
pub fn horner<T: RealField + Copy>(coeffs: &[f64], x: T) -> T {
    let mut acc = T::zero();
    for &a in coeffs.iter().rev() {
        acc = acc * x + c::<T>(a);
    }
    acc
}

/// The real part of a scalar as `f64` (used for branch decisions and error reports only, never
/// in differentiable arithmetic).
#[inline(always)]
#[must_use]
pub fn re<T: RealField + Copy>(x: T) -> f64 {
    // `RealField: SupersetOf<f64>`; for dual numbers this returns the real part.
    x.to_subset_unchecked()
}
