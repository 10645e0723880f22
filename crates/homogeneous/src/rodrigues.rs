//! The coefficients of Rodrigues' formula and of the SE(3) left Jacobian, shared by the actions
//! that apply an exponential directly to a vector (without forming a rotation matrix).
//!
//! With θ² = ξ·ξ (computed without a square root):
//!
//! ```text
//!     a(θ) = sin θ / θ,   b(θ) = (1 − cos θ)/θ²,   c(θ) = (θ − sin θ)/θ³,
//!     exp(ξ̂) v = v + a ξ×v + b ξ×(ξ×v)                  [HLW06, §IV.8.1, Rodrigues]
//!     V(ξ) v   = v + b ξ×v + c ξ×(ξ×v)   (SE(3): exp(A, a) = (exp(Â), V(A) a))
//! ```
//!
//! Below θ² < 10⁻² (θ < 0.1) the coefficients are their Taylor polynomials in θ² through θ⁸
//! (truncation error below 3·10⁻¹⁸ relative), so that dual-number derivatives survive at θ = 0;
//! above, `b` is evaluated as `½ (sin(θ/2)/(θ/2))²` (no cancellation) and `c` in closed form
//! (relative error below 10⁻¹³ at θ = 0.1, multiplied by |ξ×(ξ×v)| ≤ θ²|v|).

use liegroup::scalar::{c, horner};
use nalgebra::{RealField, Vector3};

/// Below this value of θ² the Taylor polynomials are used.
const THETA2_SERIES: f64 = 1e-2;

/// `sin θ / θ = Σ (−1)ᵏ θ²ᵏ/(2k+1)!`.
const A_SERIES: [f64; 5] = [1.0, -1.0 / 6.0, 1.0 / 120.0, -1.0 / 5040.0, 1.0 / 362_880.0];
/// `(1 − cos θ)/θ² = Σ (−1)ᵏ θ²ᵏ/(2k+2)!`.
const B_SERIES: [f64; 5] = [
    1.0 / 2.0,
    -1.0 / 24.0,
    1.0 / 720.0,
    -1.0 / 40_320.0,
    1.0 / 3_628_800.0,
];
/// `(θ − sin θ)/θ³ = Σ (−1)ᵏ θ²ᵏ/(2k+3)!`.
const C_SERIES: [f64; 5] = [
    1.0 / 6.0,
    -1.0 / 120.0,
    1.0 / 5040.0,
    -1.0 / 362_880.0,
    1.0 / 39_916_800.0,
];

/// The three coefficients at one angle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Coefficients<T> {
    /// `sin θ / θ`.
    pub a: T,
    /// `(1 − cos θ)/θ²`.
    pub b: T,
    /// `(θ − sin θ)/θ³`.
    pub c: T,
}

/// The coefficients at `θ² = theta2`.
pub(crate) fn coefficients<T: RealField + Copy>(theta2: T) -> Coefficients<T> {
    if theta2 < c::<T>(THETA2_SERIES) {
        Coefficients {
            a: horner(&A_SERIES, theta2),
            b: horner(&B_SERIES, theta2),
            c: horner(&C_SERIES, theta2),
        }
    } else {
        let theta = theta2.sqrt();
        let half = theta * c::<T>(0.5);
        let sinc_half = half.sin() / half;
        let sin = theta.sin();
        Coefficients {
            a: sin / theta,
            b: sinc_half * sinc_half * c::<T>(0.5),
            c: (theta - sin) / (theta2 * theta),
        }
    }
}

/// `exp(ξ̂) v = v + a ξ×v + b ξ×(ξ×v)` (Rodrigues, applied to a vector).
#[inline]
pub(crate) fn rotate_exp<T: RealField + Copy>(
    xi: &Vector3<T>,
    k: &Coefficients<T>,
    v: &Vector3<T>,
) -> Vector3<T> {
    let xv = xi.cross(v);
    let xxv = xi.cross(&xv);
    v + xv * k.a + xxv * k.b
}

/// `V(ξ) v = v + b ξ×v + c ξ×(ξ×v)`, the translation part of the SE(3) exponential
/// (`V = dexp_ξ` of so(3)).
#[inline]
pub(crate) fn left_jacobian<T: RealField + Copy>(
    xi: &Vector3<T>,
    k: &Coefficients<T>,
    v: &Vector3<T>,
) -> Vector3<T> {
    let xv = xi.cross(v);
    let xxv = xi.cross(&xv);
    v + xv * k.b + xxv * k.c
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_dual::Dual64;

    #[test]
    fn series_and_closed_forms_agree_at_the_threshold() {
        let t2 = THETA2_SERIES;
        let s = Coefficients {
            a: horner(&A_SERIES, t2),
            b: horner(&B_SERIES, t2),
            c: horner(&C_SERIES, t2),
        };
        let th: f64 = t2.sqrt();
        assert!((s.a - th.sin() / th).abs() < 1e-16);
        assert!((s.b - 2.0 * (th / 2.0).sin().powi(2) / t2).abs() < 1e-16);
        assert!((s.c - (th - th.sin()) / (t2 * th)).abs() < 1e-13);
        let k = coefficients(t2 * 1.000_001);
        assert!((k.a - s.a).abs() < 1e-8 && (k.b - s.b).abs() < 1e-8 && (k.c - s.c).abs() < 1e-8);
    }

    #[test]
    fn dual_derivative_survives_at_zero() {
        // d/ds exp(s ξ̂) v at s = 0 is ξ × v.
        let xi = Vector3::new(0.3, -0.2, 0.5).map(|x| Dual64::new(0.0, x));
        let v = Vector3::new(1.0, 2.0, -1.0).map(Dual64::from_re);
        let k = coefficients(xi.norm_squared());
        let out = rotate_exp(&xi, &k, &v);
        let expected = Vector3::new(0.3, -0.2, 0.5).cross(&Vector3::new(1.0, 2.0, -1.0));
        for i in 0..3 {
            assert!((out[i].eps - expected[i]).abs() < 1e-15);
            assert!((out[i].re - v[i].re).abs() < 1e-15);
        }
    }
}
