//! The group SE(2) = SO(2) ⋉ ℝ² of rigid motions of the plane.
//!
//! Elements are pairs `(R, t)` acting by `p ↦ R p + t`, i.e. the matrices `[[R, t], [0, 1]]`.
//! The algebra 𝔰𝔢(2) ≅ ℝ³ is written **rotation first**, `ξ = (ω, v_x, v_y)` ↔
//! `[[ωJ, v], [0, 0]]` with `J = [[0, −1], [1, 0]]` (see `docs/notation.md`).
//!
//! See [`Se2`] for the closed forms and their small-angle branches.

use crate::angle;
use crate::coord::CayleyGroup;
use crate::error::LieError;
use crate::group::{LieGroup, LieGroupInPlace, StaticLieGroup};
use crate::scalar::{c, re};
use crate::so2::So2;
use nalgebra::{Matrix3, RealField, Vector2, Vector3};

/// `sin x/x`, smooth through 0: the series of [`angle::sinc`] for `x² < 1/16`, else
/// `sin x/x` from `x` itself. (The closed forms here take `x`, not `x²` as [`angle`] does:
/// SE(2) angles are not reduced to `(−π, π]`, the rounding of a large `x²` would show in `sin`,
/// and `x²` overflows for `|x| > 10¹⁵⁴`, where these forms still give finite values.)
#[inline]
pub(crate) fn sinc<T: RealField + Copy>(x: T) -> T {
    let x2 = x * x;
    if re(x2) < angle::SMALL_ANGLE_SQ {
        angle::sinc(x2)
    } else {
        x.sin() / x
    }
}

/// `(x − sin x)/x³`: the series of [`angle::sinc3`] for `x² < 4`, else the closed form from `x`.
#[inline]
pub(crate) fn c3<T: RealField + Copy>(x: T) -> T {
    let x2 = x * x;
    if re(x2) < angle::CANCELLATION_ANGLE_SQ {
        angle::sinc3(x2)
    } else {
        (x - x.sin()) / (x2 * x)
    }
}

/// `(1 − cos x)/x² = ½ sinc(x/2)²` (no cancellation).
#[inline]
fn c2<T: RealField + Copy>(x: T) -> T {
    let s = sinc(x * c::<T>(0.5));
    s * s * c::<T>(0.5)
}

/// `J v = (−v_y, v_x)`.
#[inline]
fn jmul<T: RealField + Copy>(v: &Vector2<T>) -> Vector2<T> {
    Vector2::new(-v.y, v.x)
}

/// `(a + ib) v = a v + b J v`.
#[inline]
fn cmul<T: RealField + Copy>(a: T, b: T, v: &Vector2<T>) -> Vector2<T> {
    Vector2::new(a * v.x - b * v.y, a * v.y + b * v.x)
}

/// The 2-D cross product `a × b = a_x b_y − a_y b_x`.
#[inline]
fn cross<T: RealField + Copy>(a: &Vector2<T>, b: &Vector2<T>) -> T {
    a.x * b.y - a.y * b.x
}

/// The real and imaginary parts of `φ(iω) = sin ω/ω + i(1 − cos ω)/ω`.
#[inline]
fn phi<T: RealField + Copy>(w: T) -> (T, T) {
    (sinc(w), w * c2(w))
}

/// The real and imaginary parts of `φ(iω)⁻¹ = (ω/2)cot(ω/2) − iω/2`.
#[inline]
fn phi_inv<T: RealField + Copy>(w: T) -> (T, T) {
    let h = w * c::<T>(0.5);
    (h.cos() / sinc(h), -h)
}

/// `L = −ψ(iω) J v = −(1 − cos ω)/ω² J v + (ω − sin ω)/ω² v`, the lower-left block of `dexp`.
#[inline]
fn dexp_lower_left<T: RealField + Copy>(w: T, v: &Vector2<T>) -> Vector2<T> {
    let jv = jmul(v);
    v * (w * c3(w)) - jv * c2(w)
}

/// A rigid motion of the plane, `p ↦ R p + t`, i.e. `[[R, t], [0, 1]]`.
///
/// Group law `(R₁, t₁)(R₂, t₂) = (R₁R₂, R₁t₂ + t₁)`, inverse `(Rᵀ, −Rᵀt)`. The algebra is
/// `Vector3` **rotation first**: `ξ = (ω, v_x, v_y)`.
///
/// - `[(ω₁, v₁), (ω₂, v₂)] = (0, ω₁Jv₂ − ω₂Jv₁)`.
/// - `Ad_(R,t)(ω, v) = (ω, R v − ω J t)`, i.e. `Ad = [[1, 0], [−Jt, R]]`.
/// - coadjoint `(Ad_{g⁻¹})ᵀ(m, p) = (m + t × Rp, R p)` (`a × b = a_x b_y − a_y b_x`).
/// - `ad*_(ω,v)(m, p) = (−v × p, −ωJp)`.
/// - `log` is the principal branch `ω ∈ (−π, π]`; it is smooth (also for dual numbers) up to
///   and including |ω| → π, where `(ω/2)cot(ω/2) → 0`.
/// - Cayley map (matrix form `(I − ξ/2)⁻¹(I + ξ/2)`): `cay(ω, v) = (cay_SO(2)(ω),
///   (I − ωJ/2)⁻¹ v)`; `dcay⁻¹_(ω,v)(η, w) = ((1 + ω²/4)η, w − ½(ωJw − ηJv) + ¼ωηv)`, from
///   `dcay_A⁻¹ B = B − ½[A, B] − ¼ABA` \[HLW06, §IV.8.3\].
///
/// # Closed forms
/// Identify `aI + bJ` with the complex number `a + ib` (J ↔ i). With
/// `φ(z) = (eᶻ − 1)/z` and `ψ(z) = (eᶻ − 1 − z)/z²`:
///
/// ```text
///   φ(iω)   = sin ω/ω + i (1 − cos ω)/ω                        (= V, the "left Jacobian")
///   ψ(iω)   = (1 − cos ω)/ω² + i (ω − sin ω)/ω²
///   φ(iω)⁻¹ = (ω/2) cot(ω/2) − i ω/2
///   exp(ω, v)      = (R(ω), φ(iω) v)
///   log(R(ω), t)   = (ω, φ(iω)⁻¹ t),          ω = atan2(sin, cos) ∈ (−π, π]
///   dexp_(ω,v)     = [[1, 0], [L, φ(iω)]],     L = −ψ(iω) J v
///   dexp_(ω,v)⁻¹   = [[1, 0], [−φ(iω)⁻¹ L, φ(iω)⁻¹]]
/// ```
///
/// The `dexp` blocks follow from `ad_(ω,v) = [[0, 0], [−Jv, ωJ]]` (block lower triangular):
/// `ad^k = [[0, 0], [(ωJ)^{k−1}(−Jv), (ωJ)^k]]`, so `Σ ad^k/(k+1)!` has lower-left block
/// `ψ(ωJ)(−Jv)` and lower-right block `φ(ωJ)` \[HLW06, §III.4, eq. (4.21)\]; `φ(iω)⁻¹ =
/// iω/(e^{iω} − 1) = (ω/2) e^{−iω/2}/sin(ω/2)`.
///
/// # Small-angle branches
/// The scalar functions are Taylor polynomials in ω² below a threshold (those of
/// [`crate::angle`]) and closed forms in ω above it; both branches agree to a few ulps at the switch and
/// every branch is a polynomial (or a quotient of non-vanishing smooth functions), so
/// dual-number derivatives are exact at ω = 0:
///
/// - `sinc(x) = sin x/x`: the Taylor polynomial of [`angle::sinc`] for `x² < 1/16`; `sin x/x`
///   from `x` itself above (≤ 2 ulp, and the dual derivative `cos x/x − sin x/x²` loses
///   ≤ ε/x ≤ 4ε absolute).
/// - `(1 − cos ω)/ω² = ½ sinc(ω/2)²` (uses `1 − cos ω = 2 sin²(ω/2)`: no cancellation).
/// - `(ω/2) cot(ω/2) = cos(ω/2)/sinc(ω/2)` (no cancellation).
/// - `c₃(ω) = (ω − sin ω)/ω³`: the Taylor polynomial of [`angle::sinc3`] for `ω² < 4`, closed
///   form above, where the cancellation in `ω − sin ω` costs at most a factor
///   `ω/(ω − sin ω) ≤ 1.9` (≤ 3 ulp).
///
/// # Example
/// ```
/// use liegroup::{LieGroup, Se2};
/// use nalgebra::{Vector2, Vector3};
/// // A quarter turn about the origin followed by a unit step along x:
/// let g = Se2::from_angle_translation(std::f64::consts::FRAC_PI_2, Vector2::new(1.0, 0.0));
/// assert!((g.transform_point(Vector2::new(1.0, 0.0)) - Vector2::new(1.0, 1.0)).norm() < 1e-15);
/// let xi = Vector3::new(0.3, 1.0, -2.0); // (ω, v_x, v_y)
/// assert!((Se2::exp(&xi).log() - xi).norm() < 1e-15);
/// ```
#[doc(alias = "SE(2)")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Se2<T: RealField + Copy = f64> {
    rotation: So2<T>,
    translation: Vector2<T>,
}

impl<T: RealField + Copy> Se2<T> {
    /// The identity `(I, 0)`.
    #[must_use]
    #[inline]
    pub fn identity() -> Self {
        Self {
            rotation: So2::identity(),
            translation: Vector2::zeros(),
        }
    }

    /// The motion `p ↦ R p + t`.
    #[must_use]
    #[inline]
    pub fn new(rotation: So2<T>, translation: Vector2<T>) -> Self {
        Self {
            rotation,
            translation,
        }
    }

    /// The motion `p ↦ R(θ) p + t`.
    #[must_use]
    #[inline]
    pub fn from_angle_translation(theta: T, translation: Vector2<T>) -> Self {
        Self::new(So2::from_angle(theta), translation)
    }

    /// The motion with homogeneous matrix `[[R, t], [0, 0, 1]]`.
    ///
    /// # Errors
    /// [`LieError::NonFinite`]; [`LieError::NotHomogeneous`] if the last row differs from
    /// `(0, 0, 1)` by more than [`So2::TOLERANCE`]; otherwise the errors of
    /// [`So2::try_from_matrix`] for the rotation block.
    pub fn try_from_matrix(m: Matrix3<T>) -> Result<Self, LieError> {
        if !m.iter().all(|x| x.is_finite()) {
            return Err(LieError::NonFinite {
                what: "SE(2) matrix",
            });
        }
        let last = [re(m[(2, 0)]), re(m[(2, 1)]), re(m[(2, 2)])];
        let off = last[0].abs().max(last[1].abs()).max((last[2] - 1.0).abs());
        if off > So2::<T>::TOLERANCE {
            return Err(LieError::NotHomogeneous {
                found: last.to_vec(),
            });
        }
        let rotation = So2::try_from_matrix(m.fixed_view::<2, 2>(0, 0).into_owned())?;
        Ok(Self::new(rotation, Vector2::new(m[(0, 2)], m[(1, 2)])))
    }

    /// The rotation part `R`.
    #[must_use]
    #[inline]
    pub fn rotation(&self) -> So2<T> {
        self.rotation
    }

    /// The translation part `t`.
    #[must_use]
    #[inline]
    pub fn translation(&self) -> Vector2<T> {
        self.translation
    }

    /// The homogeneous matrix `[[R, t], [0, 0, 1]]`.
    #[must_use]
    pub fn matrix(&self) -> Matrix3<T> {
        let (cs, sn, t) = (self.rotation.cos(), self.rotation.sin(), self.translation);
        Matrix3::new(cs, -sn, t.x, sn, cs, t.y, T::zero(), T::zero(), T::one())
    }

    /// The action on points, `R p + t`.
    #[must_use]
    #[inline]
    pub fn transform_point(&self, p: Vector2<T>) -> Vector2<T> {
        self.rotation.rotate(p) + self.translation
    }
}

impl<T: RealField + Copy> Default for Se2<T> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<T: RealField + Copy> LieGroup for Se2<T> {
    type Scalar = T;
    type Algebra = Vector3<T>;
    const EXACT_DEXP: bool = true;

    #[inline]
    fn identity_like(&self) -> Self {
        Self::identity()
    }
    #[inline]
    fn algebra_zero(&self) -> Vector3<T> {
        Vector3::zeros()
    }
    /// `(R₁R₂, R₁t₂ + t₁)`.
    #[inline]
    fn compose(&self, other: &Self) -> Self {
        Self {
            rotation: self.rotation.compose(&other.rotation),
            translation: self.rotation.rotate(other.translation) + self.translation,
        }
    }
    /// `(Rᵀ, −Rᵀt)`.
    #[inline]
    fn inverse(&self) -> Self {
        Self {
            rotation: self.rotation.inverse(),
            translation: -self.rotation.inverse_rotate(self.translation),
        }
    }
    /// `(R(ω), φ(iω) v)`, `φ(iω) = sin ω/ω + i(1 − cos ω)/ω`.
    #[inline]
    fn exp(xi: &Vector3<T>) -> Self {
        let w = xi[0];
        let v = Vector2::new(xi[1], xi[2]);
        let (a, b) = phi(w);
        Self {
            rotation: So2::from_angle(w),
            translation: cmul(a, b, &v),
        }
    }
    /// `(ω, φ(iω)⁻¹ t)` with `ω = atan2(sin, cos) ∈ (−π, π]`,
    /// `φ(iω)⁻¹ = (ω/2)cot(ω/2) − iω/2`.
    #[inline]
    fn log(&self) -> Vector3<T> {
        let w = self.rotation.angle();
        let (a, b) = phi_inv(w);
        let v = cmul(a, b, &self.translation);
        Vector3::new(w, v.x, v.y)
    }
    /// `(0, ω₁Jv₂ − ω₂Jv₁)`.
    #[inline]
    fn bracket(x: &Vector3<T>, y: &Vector3<T>) -> Vector3<T> {
        let v = jmul(&Vector2::new(y[1], y[2])) * x[0] - jmul(&Vector2::new(x[1], x[2])) * y[0];
        Vector3::new(T::zero(), v.x, v.y)
    }
    /// `(ω, R v − ω J t)`.
    #[inline]
    fn adjoint(&self, xi: &Vector3<T>) -> Vector3<T> {
        let w = xi[0];
        let v = self.rotation.rotate(Vector2::new(xi[1], xi[2])) - jmul(&self.translation) * w;
        Vector3::new(w, v.x, v.y)
    }
    /// `(Ad_{g⁻¹})ᵀ(m, p) = (m + t × Rp, R p)`.
    #[inline]
    fn coadjoint(&self, mu: &Vector3<T>) -> Vector3<T> {
        let p = self.rotation.rotate(Vector2::new(mu[1], mu[2]));
        Vector3::new(mu[0] + cross(&self.translation, &p), p.x, p.y)
    }
    /// `(ad_(ω,v))ᵀ(m, p) = (−v × p, −ωJp)`.
    #[inline]
    fn ad_star(x: &Vector3<T>, mu: &Vector3<T>) -> Vector3<T> {
        let v = Vector2::new(x[1], x[2]);
        let p = Vector2::new(mu[1], mu[2]);
        let q = jmul(&p) * (-x[0]);
        Vector3::new(-cross(&v, &p), q.x, q.y)
    }
    /// `dexp_(ω,v)(η, w) = (η, η L + φ(iω) w)`, `L = −ψ(iω) J v` (closed form).
    #[inline]
    fn dexp(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        let w = u[0];
        let (a, b) = phi(w);
        let l = dexp_lower_left(w, &Vector2::new(u[1], u[2]));
        let out = l * v[0] + cmul(a, b, &Vector2::new(v[1], v[2]));
        Vector3::new(v[0], out.x, out.y)
    }
    /// `dexp_(ω,v)⁻¹(η, w) = (η, φ(iω)⁻¹(w − η L))` (closed form).
    #[inline]
    fn dexpinv(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        let w = u[0];
        let (a, b) = phi_inv(w);
        let l = dexp_lower_left(w, &Vector2::new(u[1], u[2]));
        let rhs = Vector2::new(v[1], v[2]) - l * v[0];
        let out = cmul(a, b, &rhs);
        Vector3::new(v[0], out.x, out.y)
    }
    #[inline]
    fn all_finite(&self) -> bool {
        self.rotation.all_finite() && self.translation.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> LieGroupInPlace for Se2<T> {}

impl<T: RealField + Copy> StaticLieGroup for Se2<T> {
    #[inline]
    fn identity() -> Self {
        Self::identity()
    }
}

/// The Cayley map of the matrix representation, `cay(ξ) = (I − ξ/2)⁻¹(I + ξ/2)`:
///
/// ```text
///   cay(ω, v)          = (cay_SO(2)(ω), s (I + ωJ/2) v),        s = 1/(1 + ω²/4)
///   dcay_(ω,v)(η, w)   = (s η, s(I + ωJ/2)(w − (η/2) J s(I − ωJ/2) v))
///   dcay⁻¹_(ω,v)(η, w) = ((1 + ω²/4) η, w − ½(ωJw − ηJv) + ¼ωηv)
/// ```
///
/// from `dcay_A B = (I − A/2)⁻¹ B (I + A/2)⁻¹` and `dcay_A⁻¹ B = (I − A/2) B (I + A/2)`
/// \[HLW06, §IV.8.3\]. Rational: no small-angle branch.
impl<T: RealField + Copy> CayleyGroup for Se2<T> {
    #[inline]
    fn cay(xi: &Vector3<T>) -> Self {
        let w = xi[0];
        let h = w * c::<T>(0.5);
        let s = T::one() / (T::one() + h * h);
        Self {
            rotation: So2::cay(&nalgebra::Vector1::new(w)),
            translation: cmul(s, s * h, &Vector2::new(xi[1], xi[2])),
        }
    }
    #[inline]
    fn dcay(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        let h = u[0] * c::<T>(0.5);
        let s = T::one() / (T::one() + h * h);
        let eta = v[0];
        let qv = cmul(s, -s * h, &Vector2::new(u[1], u[2]));
        let inner = Vector2::new(v[1], v[2]) - jmul(&qv) * (eta * c::<T>(0.5));
        let out = cmul(s, s * h, &inner);
        Vector3::new(s * eta, out.x, out.y)
    }
    #[inline]
    fn dcayinv(u: &Vector3<T>, w: &Vector3<T>) -> Vector3<T> {
        let om = u[0];
        let uv = Vector2::new(u[1], u[2]);
        let eta = w[0];
        let ww = Vector2::new(w[1], w[2]);
        let half = c::<T>(0.5);
        let out = ww - (jmul(&ww) * om - jmul(&uv) * eta) * half + uv * (om * eta * c::<T>(0.25));
        Vector3::new(eta * (T::one() + om * om * c::<T>(0.25)), out.x, out.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_dual::Dual64;

    fn ulps(a: f64, b: f64) -> f64 {
        (a - b).abs() / (f64::EPSILON * b.abs())
    }

    #[test]
    #[allow(clippy::excessive_precision)] // references quoted to 22 digits
    fn branches_agree_with_high_precision_references() {
        // References from 40-digit arithmetic.
        let sinc_ref = [
            (0.999_999, 0.841_471_285_976_455_879_566_3),
            (1.000_001, 0.841_470_683_639_098_000_111_8),
            (0.5, 0.958_851_077_208_406_000_546_6),
            (1e-3, 0.999_999_833_333_341_666_666_5),
            (3.0, 0.047_040_002_686_622_407_366_91),
        ];
        for (x, r) in sinc_ref {
            assert!(
                ulps(sinc(x), r) <= 2.0,
                "sinc({x}): {} ulp",
                ulps(sinc(x), r)
            );
        }
        let c3_ref = [
            (1.999_999, 0.136_337_849_135_163_500_155_99),
            (2.000_001, 0.136_337_794_158_407_696_574_6),
            (0.5, 0.164_595_691_166_375_997_813_7),
            (1e-3, 0.166_666_658_333_333_531_746_0),
            (3.0, 0.105_884_444_145_930_843_625_9),
        ];
        for (x, r) in c3_ref {
            assert!(ulps(c3(x), r) <= 4.0, "c3({x}): {} ulp", ulps(c3(x), r));
        }
    }

    /// The closed forms take ω itself: finite (and right to round-off) where ω² overflows.
    #[test]
    fn huge_angles_stay_finite() {
        for x in [1e100, 1e160, -1e300] {
            assert!(ulps(sinc(x), x.sin() / x) <= 1.0);
            assert!(ulps(c3(x), 1.0 / (x * x)) <= 1.0 || x * x == f64::INFINITY && c3(x) == 0.0);
            assert!(c2(x).is_finite());
        }
    }

    #[test]
    fn dual_derivatives_survive_at_zero() {
        let x = Dual64::new(0.0, 1.0);
        assert_eq!(sinc(x).eps, 0.0);
        // d/dx (1/6 − x²/120 + x⁴/5040 − …) at x = 1e-3.
        let expect = -2.0e-3 / 120.0 + 4.0e-9 / 5040.0 - 6.0e-15 / 362_880.0;
        let got = c3(Dual64::new(1e-3, 1.0)).eps;
        assert!(
            (got - expect).abs() <= 4.0 * f64::EPSILON * expect.abs(),
            "{got} vs {expect}"
        );
        // d/dω of the translation of exp(ω, 1, 0) at ω = 0 is (0, 1/2).
        let g = Se2::<Dual64>::exp(&Vector3::new(
            Dual64::new(0.0, 1.0),
            Dual64::from_re(1.0),
            Dual64::from_re(0.0),
        ));
        let t = g.translation();
        assert!(t.x.eps.abs() < 1e-16 && (t.y.eps - 0.5).abs() < 1e-16);
    }

    #[test]
    fn matrix_roundtrip_and_errors() {
        let g = Se2::from_angle_translation(2.0, Vector2::new(1.0, -3.0));
        let h = Se2::try_from_matrix(g.matrix()).unwrap();
        assert!((h.log() - g.log()).norm() < 1e-14);
        let mut m = g.matrix();
        m[(2, 0)] = 0.5;
        assert!(matches!(
            Se2::try_from_matrix(m),
            Err(LieError::NotHomogeneous { .. })
        ));
        assert!((g.matrix() * h.inverse().matrix() - Matrix3::identity()).norm() < 1e-14);
    }

    #[test]
    fn log_near_pi() {
        for &d in &[1e-9, 1e-6, 1e-3] {
            let xi = Vector3::new(std::f64::consts::PI - d, 0.7, -1.3);
            let back = Se2::exp(&xi).log();
            assert!((back - xi).norm() < 1e-14, "{back:?}");
        }
    }
}
