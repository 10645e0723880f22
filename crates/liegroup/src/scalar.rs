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

/// `atan2(y, x)` in `(−π, π]`, with a dual-number derivative `(x dy − y dx)/(x² + y²)` that is
/// exact everywhere off the origin.
///
/// num-dual implements `atan2` through the chain rule of `atan(y/x)`, which gives a NaN
/// derivative at `x = 0` (angles ±π/2). Where `|y| > |x|` this evaluates the identity
/// `atan2(y, x) = ±π/2 − atan(x/y)` instead; for `f64` the values agree with `f64::atan2` to
/// about an ulp of π/2.
///
/// # Example
/// ```
/// use liegroup::num_dual::{Dual64, DualNum};
/// use liegroup::scalar::atan2;
/// // θ ↦ atan2(sin θ, cos θ) at θ = π/2 has derivative 1.
/// let t = Dual64::new(std::f64::consts::FRAC_PI_2, 1.0);
/// assert!((atan2(t.sin(), t.cos()).eps - 1.0).abs() < 1e-15);
/// ```
#[inline]
#[must_use]
pub fn atan2<T: RealField + Copy>(y: T, x: T) -> T {
    if re(x).abs() >= re(y).abs() {
        y.atan2(x)
    } else if re(y) > 0.0 {
        T::frac_pi_2() - (x / y).atan()
    } else {
        -T::frac_pi_2() - (x / y).atan()
    }
}
