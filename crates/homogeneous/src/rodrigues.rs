//! Rodrigues' formula and the so(3) left Jacobian applied to a vector directly, without
//! forming a matrix; shared by the actions built on rotations.
//!
//! With `θ² = ξ·ξ` (no square root) and the angle functions of [`liegroup::angle`]:
//!
//! ```text
//!     a = sin θ/θ,   b = (1 − cos θ)/θ²,   c = (θ − sin θ)/θ³,
//!     exp(ξ̂) v = v + a ξ×v + b ξ×(ξ×v)                  [HLW06, §IV.8.1, Rodrigues]
//!     V(ξ) v   = v + b ξ×v + c ξ×(ξ×v)   (V = dexp_ξ of so(3); SE(3): exp(A, a) = (exp(Â), V(A) a))
//! ```
//!
//! The coefficients are those of `So3::exp` and `So3::dexp` (Taylor polynomials in `θ²` below
//! their thresholds, so dual-number derivatives survive at `ξ = 0`; within 2.5 ulps above), so
//! these vectors agree with `So3::exp(ξ) v` and `So3::dexp(ξ, v)` to a few ulps of `|v|`.

use nalgebra::{RealField, Vector3};

/// `exp(ξ̂) v = v + a ξ×v + b ξ×(ξ×v)` with `(a, b) = liegroup::angle::sinc_cosc(ξ·ξ)`.
#[inline(always)]
pub(crate) fn rotate_exp<T: RealField + Copy>(
    xi: &Vector3<T>,
    a: T,
    b: T,
    v: &Vector3<T>,
) -> Vector3<T> {
    let xv = xi.cross(v);
    let xxv = xi.cross(&xv);
    v + xv * a + xxv * b
}

/// `V(ξ) v = v + b ξ×v + c ξ×(ξ×v)`, the translation part of the SE(3) exponential
/// (`V = dexp_ξ` of so(3)), with `b = liegroup::angle::cosc(ξ·ξ)`,
/// `c = liegroup::angle::sinc3(ξ·ξ)`.
#[inline(always)]
pub(crate) fn left_jacobian<T: RealField + Copy>(
    xi: &Vector3<T>,
    b: T,
    c: T,
    v: &Vector3<T>,
) -> Vector3<T> {
    let xv = xi.cross(v);
    let xxv = xi.cross(&xv);
    v + xv * b + xxv * c
}

#[cfg(test)]
mod tests {
    use super::*;
    use liegroup::angle::{AngleFns, sinc_cosc};
    use liegroup::{LieGroup, So3};
    use num_dual::Dual64;

    const ANGLES: [f64; 8] = [0.0, 1e-8, 1e-3, 0.1, 0.5, 1.0, 2.0, 3.0];

    fn axes() -> [Vector3<f64>; 4] {
        [
            Vector3::x(),
            Vector3::new(0.0, -1.0, 0.0),
            Vector3::new(1.0, 2.0, -2.0) / 3.0,
            Vector3::new(-0.3, 0.5, 0.7).normalize(),
        ]
    }

    fn vectors() -> [Vector3<f64>; 3] {
        [
            Vector3::new(1.0, 2.0, -1.0),
            Vector3::new(-0.25, 0.0, 4.0),
            Vector3::new(1e-3, -7.0, 0.5),
        ]
    }

    /// `exp(ξ̂) v` against `So3::exp(ξ) v` (the same coefficients, applied through the matrix
    /// of Rodrigues' formula): a few ulps of `|v|` at every angle.
    #[test]
    fn rotate_exp_agrees_with_so3_exp() {
        for theta in ANGLES {
            for n in axes() {
                let xi = n * theta;
                let (a, b) = sinc_cosc(xi.norm_squared());
                for v in vectors() {
                    let got = rotate_exp(&xi, a, b, &v);
                    let want = So3::exp(&xi).rotate(&v);
                    let err = (got - want).amax() / v.amax();
                    assert!(
                        err <= 4.0 * f64::EPSILON,
                        "θ = {theta}: {} ulp",
                        err / f64::EPSILON
                    );
                }
            }
        }
    }

    /// `V(ξ) v` against `So3::dexp(ξ, v)`: a few ulps of `|v|` at every angle.
    #[test]
    fn left_jacobian_agrees_with_so3_dexp() {
        for theta in ANGLES {
            for n in axes() {
                let xi = n * theta;
                let mut f = AngleFns::new(xi.norm_squared());
                let (b, c) = (f.cosc(), f.sinc3());
                for v in vectors() {
                    let got = left_jacobian(&xi, b, c, &v);
                    let want = So3::dexp(&xi, &v);
                    let err = (got - want).amax() / v.amax();
                    assert!(
                        err <= 4.0 * f64::EPSILON,
                        "θ = {theta}: {} ulp",
                        err / f64::EPSILON
                    );
                }
            }
        }
    }

    #[test]
    fn dual_derivative_survives_at_zero() {
        // d/ds exp(s ξ̂) v at s = 0 is ξ × v, and d/ds V(s ξ) v at s = 0 is ½ ξ × v.
        let xi = Vector3::new(0.3, -0.2, 0.5).map(|x| Dual64::new(0.0, x));
        let v = Vector3::new(1.0, 2.0, -1.0).map(Dual64::from_re);
        let mut f = AngleFns::new(xi.norm_squared());
        let (a, b) = f.sinc_cosc();
        let c = f.sinc3();
        let out = rotate_exp(&xi, a, b, &v);
        let jv = left_jacobian(&xi, b, c, &v);
        let expected = Vector3::new(0.3, -0.2, 0.5).cross(&Vector3::new(1.0, 2.0, -1.0));
        for i in 0..3 {
            assert!((out[i].eps - expected[i]).abs() < 1e-15);
            assert!((out[i].re - v[i].re).abs() < 1e-15);
            assert!((jv[i].eps - 0.5 * expected[i]).abs() < 1e-15);
            assert!((jv[i].re - v[i].re).abs() < 1e-15);
        }
    }
}
