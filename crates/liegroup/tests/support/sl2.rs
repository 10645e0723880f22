//! SL(2, ℝ), a group the library does not ship, implemented only through its public API.
//!
//! It implements the eight required methods of `LieGroup` and nothing else: `ad`, the
//! coadjoint action, `ad*`, `dexp` and `dexp⁻¹` are the trait's defaults (basis evaluation and
//! the Bernoulli series truncated at `DEFAULT_SERIES_ORDER`). Generic over the scalar, so it
//! runs with `f64` and with `num_dual::Dual64`.
//!
//! Algebra coordinates `(a, b, c)` ↔ `X = [[a, b], [c, −a]] = aH + bE + cF`,
//! `[H, E] = 2E`, `[H, F] = −2F`, `[E, F] = H`.
//!
//! - `exp`: `X² = Δ I` with `Δ = −det X = a² + bc` (Cayley–Hamilton), so
//!   `exp X = C(Δ) I + S(Δ) X` with `C = cosh √Δ`, `S = sinh √Δ/√Δ` (`cos`/`sin` of `√−Δ` for
//!   `Δ < 0`); Taylor polynomials in Δ for `|Δ| < 1` (`C = Σ Δᵏ/(2k)!`, `S = Σ Δᵏ/(2k+1)!`,
//!   through k = 10: truncation < 5e-20).
//! - `log`: with `h = tr A/2` and `B = A − h I = S(Δ) X`, `y = −det B = S² Δ` (`sinh² s` or
//!   `−sin² θ`), `X = f(y) B` with `f = s/sinh s = asinh(√y)/√y` (hyperbolic, `s = ln(h + √y)`)
//!   or `θ/sin θ`, `θ = atan2(√−y, h)` (elliptic); Taylor `f = Σ (−1)ᵏ C(2k,k)/(4ᵏ(2k+1)) yᵏ`
//!   for `|y| < 1/16` and `h > 0` (through k = 12, truncation < 1e-18).
//!
//! **Restriction.** `log` is the principal logarithm on `{tr A > −2}` (elliptic elements with
//! rotation angle θ < π, all hyperbolic elements with positive trace, parabolic elements with
//! trace 2); it is inaccurate as θ → π (`θ/sin θ` amplifies round-off by `1/(π − θ)`) and
//! undefined on `tr A ≤ −2`. The kit's samples stay inside: in the basis `(H, E, F)` an algebra
//! element of coordinate norm r has `−Δ = −a² − bc ≤ (b² + c²)/2 ≤ r²/2`, so `θ ≤ r/√2`, and the
//! largest sample norm, π + ½, gives θ ≤ 2.57.

use liegroup::nalgebra::{Matrix2, RealField, Vector3};
use liegroup::scalar::{atan2, c, horner, re};
use liegroup::{LieGroup, LieGroupInPlace, StaticLieGroup};

/// An element of SL(2, ℝ): a real 2×2 matrix of determinant 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sl2<T: RealField + Copy = f64>(pub Matrix2<T>);

/// `cosh √Δ = Σ Δᵏ/(2k)!`, k = 0 … 10.
const COSH_SQRT: [f64; 11] = [
    1.0,
    1.0 / 2.0,
    1.0 / 24.0,
    1.0 / 720.0,
    1.0 / 40_320.0,
    1.0 / 3_628_800.0,
    1.0 / 479_001_600.0,
    1.0 / 87_178_291_200.0,
    1.0 / 20_922_789_888_000.0,
    1.0 / 6_402_373_705_728_000.0,
    1.0 / 2_432_902_008_176_640_000.0,
];

/// `sinh √Δ/√Δ = Σ Δᵏ/(2k+1)!`, k = 0 … 10.
const SINHC_SQRT: [f64; 11] = [
    1.0,
    1.0 / 6.0,
    1.0 / 120.0,
    1.0 / 5040.0,
    1.0 / 362_880.0,
    1.0 / 39_916_800.0,
    1.0 / 6_227_020_800.0,
    1.0 / 1_307_674_368_000.0,
    1.0 / 355_687_428_096_000.0,
    1.0 / 121_645_100_408_832_000.0,
    1.0 / 51_090_942_171_709_440_000.0,
];

/// `asinh(√y)/√y = Σ (−1)ᵏ C(2k, k)/(4ᵏ(2k+1)) yᵏ`, k = 0 … 12.
const ASINHC_SQRT: [f64; 13] = [
    1.0,
    -1.0 / 6.0,
    3.0 / 40.0,
    -5.0 / 112.0,
    35.0 / 1152.0,
    -63.0 / 2816.0,
    231.0 / 13_312.0,
    -143.0 / 10_240.0,
    6435.0 / 557_056.0,
    -12_155.0 / 1_245_184.0,
    46_189.0 / 5_505_024.0,
    -88_179.0 / 12_058_624.0,
    676_039.0 / 104_857_600.0,
];

/// `[[a, b], [c, −a]]`.
pub fn hat<T: RealField + Copy>(x: &Vector3<T>) -> Matrix2<T> {
    Matrix2::new(x[0], x[1], x[2], -x[0])
}

/// The coordinates `(a, b, c)` of the traceless part of `m`.
pub fn vee<T: RealField + Copy>(m: &Matrix2<T>) -> Vector3<T> {
    Vector3::new((m[(0, 0)] - m[(1, 1)]) * c::<T>(0.5), m[(0, 1)], m[(1, 0)])
}

impl<T: RealField + Copy> Sl2<T> {
    /// The inverse of a determinant-one matrix, `[[d, −b], [−c, a]]`.
    fn adjugate(&self) -> Matrix2<T> {
        let m = &self.0;
        Matrix2::new(m[(1, 1)], -m[(0, 1)], -m[(1, 0)], m[(0, 0)])
    }
}

impl<T: RealField + Copy> LieGroup for Sl2<T> {
    type Scalar = T;
    type Algebra = Vector3<T>;

    fn identity_like(&self) -> Self {
        Self(Matrix2::identity())
    }
    fn algebra_zero(&self) -> Vector3<T> {
        Vector3::zeros()
    }
    fn compose(&self, other: &Self) -> Self {
        Self(self.0 * other.0)
    }
    fn inverse(&self) -> Self {
        Self(self.adjugate())
    }
    fn exp(xi: &Vector3<T>) -> Self {
        let x = hat(xi);
        let delta = xi[0] * xi[0] + xi[1] * xi[2];
        let (ch, sh) = if re(delta).abs() < 1.0 {
            (horner(&COSH_SQRT, delta), horner(&SINHC_SQRT, delta))
        } else if re(delta) > 0.0 {
            let s = delta.sqrt();
            (s.cosh(), s.sinh() / s)
        } else {
            let t = (-delta).sqrt();
            (t.cos(), t.sin() / t)
        };
        Self(Matrix2::identity() * ch + x * sh)
    }
    fn log(&self) -> Vector3<T> {
        let m = &self.0;
        let h = (m[(0, 0)] + m[(1, 1)]) * c::<T>(0.5);
        let b = vee(m); // the traceless part B = A − hI in coordinates
        let y = b[0] * b[0] + b[1] * b[2]; // −det B
        let f = if re(y).abs() < 1.0 / 16.0 && re(h) > 0.0 {
            horner(&ASINHC_SQRT, y)
        } else if re(y) > 0.0 {
            let r = y.sqrt();
            (h + r).ln() / r
        } else {
            let r = (-y).sqrt();
            atan2(r, h) / r
        };
        b * f
    }
    fn bracket(x: &Vector3<T>, y: &Vector3<T>) -> Vector3<T> {
        let (p, q) = (hat(x), hat(y));
        vee(&(p * q - q * p))
    }
    fn adjoint(&self, xi: &Vector3<T>) -> Vector3<T> {
        vee(&(self.0 * hat(xi) * self.adjugate()))
    }
    fn all_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
}

/// The in-place forms: all defaults.
impl<T: RealField + Copy> LieGroupInPlace for Sl2<T> {}

impl<T: RealField + Copy> StaticLieGroup for Sl2<T> {
    fn identity() -> Self {
        Self(Matrix2::identity())
    }
}
