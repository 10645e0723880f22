//! The rotation group SO(2), stored as the unit complex number `(cos θ, sin θ)`.
//!
//! The algebra 𝔰𝔬(2) ≅ ℝ is one-dimensional (`Vector1`, the angular rate ω ↔ `ωJ`,
//! `J = [[0, −1], [1, 0]]`); it is abelian, so the bracket, `ad` and `ad*` vanish, `Ad` and the
//! coadjoint action are the identity and `dexp = dexp⁻¹ = id` \[HLW06, §IV.8\].

use crate::coord::CayleyGroup;
use crate::error::LieError;
use crate::group::{LieGroup, LieGroupInPlace, StaticLieGroup};
use crate::scalar::{atan2, c, re};
use nalgebra::{Matrix2, RealField, Vector1, Vector2};

/// A rotation of the plane, `R(θ) = [[cos θ, −sin θ], [sin θ, cos θ]]`.
///
/// Stored as `(cos θ, sin θ)`; the pair is renormalized (one Newton step on `c² + s² = 1`) by
/// every [`compose`](LieGroup::compose), so round-off never accumulates off the circle.
/// Generic over the scalar `T` (f64 or a num-dual number).
///
/// - `exp(ω) = R(ω)`; `log R = atan2(sin θ, cos θ) ∈ (−π, π]` (principal branch, branch cut on
///   the negative real axis: an angle of exactly π is returned as π or −π depending on the sign
///   of the stored zero). With dual numbers the derivative of `log` is exact everywhere,
///   including θ = ±π/2 where a naive `atan(s/c)` chain rule divides by zero.
/// - Cayley map `cay(ω) = (1 + iω/2)/(1 − iω/2)`, i.e. `cos = (1 − ω²/4)/(1 + ω²/4)`,
///   `sin = ω/(1 + ω²/4)`; `dcay_ω = 1/(1 + ω²/4)`, `dcay_ω⁻¹ = 1 + ω²/4` \[HLW06, §IV.8.3\].
///
/// # Example
/// ```
/// use liegroup::{LieGroup, So2};
/// use nalgebra::{Vector1, Vector2};
/// let r = So2::from_angle(std::f64::consts::FRAC_PI_2);
/// let v = r.rotate(Vector2::new(1.0, 0.0));
/// assert!((v - Vector2::new(0.0, 1.0)).norm() < 1e-15);
/// assert!((r.compose(&r).log() - Vector1::new(std::f64::consts::PI)).norm() < 1e-15);
/// ```
#[doc(alias = "SO(2)")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct So2<T: RealField + Copy = f64> {
    cos: T,
    sin: T,
}

impl<T: RealField + Copy> So2<T> {
    /// Tolerance of the fallible constructors: `|√(c² + s²) − 1|` for
    /// [`try_from_cos_sin`](So2::try_from_cos_sin) and `‖MᵀM − I‖_F` for
    /// [`try_from_matrix`](So2::try_from_matrix) must not exceed `1e-9` (a few hundred thousand
    /// ulps: data written with 10 significant digits still passes, a non-rotation does not).
    pub const TOLERANCE: f64 = 1e-9;

    /// The identity rotation `(1, 0)`.
    #[must_use]
    #[inline]
    pub fn identity() -> Self {
        Self {
            cos: T::one(),
            sin: T::zero(),
        }
    }

    /// The rotation by the angle `θ`: `(cos θ, sin θ)`.
    #[must_use]
    #[inline]
    pub fn from_angle(theta: T) -> Self {
        let (sin, cos) = theta.sin_cos();
        Self { cos, sin }
    }

    /// The rotation with the given cosine and sine, renormalized to unit length.
    ///
    /// # Errors
    /// [`LieError::NonFinite`] if an entry is NaN or infinite; [`LieError::NotUnit`] if
    /// `|√(c² + s²) − 1| > `[`TOLERANCE`](So2::TOLERANCE).
    pub fn try_from_cos_sin(cos: T, sin: T) -> Result<Self, LieError> {
        if !(cos.is_finite() && sin.is_finite()) {
            return Err(LieError::NonFinite {
                what: "SO(2) (cos θ, sin θ)",
            });
        }
        let n = (cos * cos + sin * sin).sqrt();
        let deviation = (re(n) - 1.0).abs();
        if deviation > Self::TOLERANCE {
            return Err(LieError::NotUnit {
                what: "SO(2) (cos θ, sin θ)",
                deviation,
                tolerance: Self::TOLERANCE,
            });
        }
        Ok(Self {
            cos: cos / n,
            sin: sin / n,
        })
    }

    /// The rotation closest (in the Frobenius norm) to a 2×2 rotation matrix.
    ///
    /// The matrix is accepted if it is finite, orthogonal up to
    /// `‖MᵀM − I‖_F ≤ `[`TOLERANCE`](So2::TOLERANCE) and has positive determinant; the stored
    /// element is then the normalization of `c = (m₁₁ + m₂₂)/2`, `s = (m₂₁ − m₁₂)/2`, which
    /// maximizes `tr(R(θ)ᵀM)` and so is the nearest rotation.
    ///
    /// # Errors
    /// [`LieError::NonFinite`], [`LieError::NotOrthogonal`], or [`LieError::NotARotation`]
    /// (an orthogonal matrix with determinant −1, a reflection).
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieError, So2};
    /// use nalgebra::Matrix2;
    /// let r = So2::try_from_matrix(Matrix2::new(0.0, -1.0, 1.0, 0.0)).unwrap();
    /// assert!((r.angle() - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
    /// let reflection = Matrix2::new(1.0, 0.0, 0.0, -1.0);
    /// assert!(matches!(So2::try_from_matrix(reflection), Err(LieError::NotARotation { .. })));
    /// ```
    pub fn try_from_matrix(m: Matrix2<T>) -> Result<Self, LieError> {
        if !m.iter().all(|x| x.is_finite()) {
            return Err(LieError::NonFinite {
                what: "SO(2) matrix",
            });
        }
        let deviation = re((m.transpose() * m - Matrix2::identity()).norm());
        if deviation.is_nan() || deviation > Self::TOLERANCE {
            return Err(LieError::NotOrthogonal {
                deviation,
                tolerance: Self::TOLERANCE,
            });
        }
        let determinant = re(m.determinant());
        if determinant <= 0.0 {
            return Err(LieError::NotARotation { determinant });
        }
        let cos = (m[(0, 0)] + m[(1, 1)]) * c::<T>(0.5);
        let sin = (m[(1, 0)] - m[(0, 1)]) * c::<T>(0.5);
        let n = (cos * cos + sin * sin).sqrt();
        Ok(Self {
            cos: cos / n,
            sin: sin / n,
        })
    }

    /// The rotation angle in `(−π, π]` (`atan2(sin θ, cos θ)`; see the type-level notes on
    /// the branch cut and on dual numbers).
    #[must_use]
    #[inline]
    pub fn angle(&self) -> T {
        atan2(self.sin, self.cos)
    }

    /// `cos θ`.
    #[must_use]
    #[inline]
    pub fn cos(&self) -> T {
        self.cos
    }

    /// `sin θ`.
    #[must_use]
    #[inline]
    pub fn sin(&self) -> T {
        self.sin
    }

    /// The rotation matrix `[[cos θ, −sin θ], [sin θ, cos θ]]`.
    #[must_use]
    #[inline]
    pub fn matrix(&self) -> Matrix2<T> {
        Matrix2::new(self.cos, -self.sin, self.sin, self.cos)
    }

    /// `R(θ) v`.
    #[must_use]
    #[inline]
    pub fn rotate(&self, v: Vector2<T>) -> Vector2<T> {
        Vector2::new(
            self.cos * v.x - self.sin * v.y,
            self.sin * v.x + self.cos * v.y,
        )
    }

    /// `R(θ)ᵀ v = R(−θ) v`.
    #[must_use]
    #[inline]
    pub fn inverse_rotate(&self, v: Vector2<T>) -> Vector2<T> {
        Vector2::new(
            self.cos * v.x + self.sin * v.y,
            -self.sin * v.x + self.cos * v.y,
        )
    }
}

impl<T: RealField + Copy> Default for So2<T> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<T: RealField + Copy> LieGroup for So2<T> {
    type Scalar = T;
    type Algebra = Vector1<T>;
    const EXACT_DEXP: bool = true;

    #[inline]
    fn identity_like(&self) -> Self {
        Self::identity()
    }
    #[inline]
    fn algebra_zero(&self) -> Vector1<T> {
        Vector1::zeros()
    }
    /// `(c₁c₂ − s₁s₂, s₁c₂ + c₁s₂)`, then scaled by `(3 − (c² + s²))/2` (one Newton step
    /// towards unit length: it leaves unit input unchanged to second order and keeps
    /// `|c² + s² − 1|` at round-off over arbitrarily many products).
    #[inline]
    fn compose(&self, other: &Self) -> Self {
        let cos = self.cos * other.cos - self.sin * other.sin;
        let sin = self.sin * other.cos + self.cos * other.sin;
        let k = (c::<T>(3.0) - (cos * cos + sin * sin)) * c::<T>(0.5);
        Self {
            cos: cos * k,
            sin: sin * k,
        }
    }
    #[inline]
    fn inverse(&self) -> Self {
        Self {
            cos: self.cos,
            sin: -self.sin,
        }
    }
    #[inline]
    fn exp(xi: &Vector1<T>) -> Self {
        Self::from_angle(xi[0])
    }
    #[inline]
    fn log(&self) -> Vector1<T> {
        Vector1::new(self.angle())
    }
    #[inline]
    fn bracket(_x: &Vector1<T>, _y: &Vector1<T>) -> Vector1<T> {
        Vector1::zeros()
    }
    #[inline]
    fn adjoint(&self, xi: &Vector1<T>) -> Vector1<T> {
        *xi
    }
    #[inline]
    fn coadjoint(&self, mu: &Vector1<T>) -> Vector1<T> {
        *mu
    }
    #[inline]
    fn ad_star(_x: &Vector1<T>, _mu: &Vector1<T>) -> Vector1<T> {
        Vector1::zeros()
    }
    #[inline]
    fn dexp(_u: &Vector1<T>, v: &Vector1<T>) -> Vector1<T> {
        *v
    }
    #[inline]
    fn dexpinv(_u: &Vector1<T>, v: &Vector1<T>) -> Vector1<T> {
        *v
    }
    #[inline]
    fn all_finite(&self) -> bool {
        self.cos.is_finite() && self.sin.is_finite()
    }
}

impl<T: RealField + Copy> LieGroupInPlace for So2<T> {}

impl<T: RealField + Copy> StaticLieGroup for So2<T> {
    #[inline]
    fn identity() -> Self {
        Self::identity()
    }
}

/// `cay(ω) = (I − ωJ/2)⁻¹(I + ωJ/2)`, a rational map (no small-angle branch):
/// `cos = (1 − ω²/4)/(1 + ω²/4)`, `sin = ω/(1 + ω²/4)`; the rotation angle is `2 atan(ω/2)`, so
/// `dcay_ω = 1/(1 + ω²/4)` and `dcay_ω⁻¹ = 1 + ω²/4` \[HLW06, §IV.8.3\].
impl<T: RealField + Copy> CayleyGroup for So2<T> {
    #[inline]
    fn cay(xi: &Vector1<T>) -> Self {
        let w = xi[0];
        let q = w * w * c::<T>(0.25);
        let s = T::one() / (T::one() + q);
        Self {
            cos: (T::one() - q) * s,
            sin: w * s,
        }
    }
    #[inline]
    fn dcay(u: &Vector1<T>, v: &Vector1<T>) -> Vector1<T> {
        *v / (T::one() + u[0] * u[0] * c::<T>(0.25))
    }
    #[inline]
    fn dcayinv(u: &Vector1<T>, w: &Vector1<T>) -> Vector1<T> {
        *w * (T::one() + u[0] * u[0] * c::<T>(0.25))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_dual::Dual64;

    #[test]
    fn angle_roundtrip_and_branch() {
        for &t in &[0.0, 1e-100, 1e-8, 0.5, 1.5, 3.0, -3.0, std::f64::consts::PI] {
            let r = So2::from_angle(t);
            assert!((r.angle() - t).abs() <= 4.0 * f64::EPSILON * t.abs().max(1.0));
        }
        assert!((So2::from_angle(4.0).angle() - (4.0 - 2.0 * std::f64::consts::PI)).abs() < 1e-15);
    }

    #[test]
    fn dual_log_derivative_at_quarter_turns() {
        // d/dt log(exp(θ + t)) = 1, also at θ = ±π/2 where atan(s/c) breaks.
        for &t in &[
            0.0,
            1e-100,
            std::f64::consts::FRAC_PI_2,
            -std::f64::consts::FRAC_PI_2,
            3.0,
        ] {
            let r = So2::<Dual64>::from_angle(Dual64::new(t, 1.0));
            let a = r.angle();
            assert!((a.eps - 1.0).abs() < 1e-15, "θ = {t}: {a:?}");
        }
    }

    #[test]
    fn constructors_reject_bad_input() {
        assert!(matches!(
            So2::try_from_cos_sin(f64::NAN, 0.0),
            Err(LieError::NonFinite { .. })
        ));
        assert!(matches!(
            So2::try_from_cos_sin(1.1, 0.0),
            Err(LieError::NotUnit { .. })
        ));
        assert!(So2::try_from_cos_sin(0.6, 0.8).is_ok());
        assert!(matches!(
            So2::try_from_matrix(Matrix2::new(1.0, 0.1, 0.0, 1.0)),
            Err(LieError::NotOrthogonal { .. })
        ));
        assert!(matches!(
            So2::try_from_matrix(Matrix2::new(0.0, 1.0, 1.0, 0.0)),
            Err(LieError::NotARotation { .. })
        ));
        assert!(matches!(
            So2::try_from_matrix(Matrix2::new(f64::NAN, 0.0, 0.0, 1.0)),
            Err(LieError::NonFinite { .. })
        ));
        let r = So2::from_angle(0.7);
        let back: So2 = So2::try_from_matrix(r.matrix()).unwrap();
        assert!((back.angle() - 0.7).abs() < 1e-15);
    }

    #[test]
    fn compose_stays_on_the_circle() {
        let step = So2::from_angle(0.1234567);
        let mut r: So2 = So2::identity();
        for _ in 0..100_000 {
            r = r.compose(&step);
        }
        assert!((r.cos() * r.cos() + r.sin() * r.sin() - 1.0).abs() < 4.0 * f64::EPSILON);
    }
}
