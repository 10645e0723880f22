//! The rotation group SO(3), stored as a rotation matrix.
//!
//! # Conventions
//! - so(3) ≅ ℝ³ through [`hat`]: `hat(u) b = u × b`; the bracket is `[u, v] = u × v`.
//! - Left actions: `compose(g, h) = g h`, [`So3::rotate`] is `R v`.
//! - `dexp` is right-trivialized: `d/dt exp(u + t v)|₀ = hat(dexp_u v) · exp(u)`.
//! - The dual so(3)* is identified with ℝ³ through the dot product; the coadjoint action is
//!   `coadjoint(R, μ) = R μ` and `ad*_x μ = μ × x`.
//!
//! # Angle functions and their small-angle branches
//! The coefficients of `exp`, `dexp` and `dexp⁻¹` are the functions of `α² = u·u` in
//! [`crate::angle`] (`sin α/α`, `(1 − cos α)/α²`, `(α − sin α)/α³`,
//! `g₂(α) = (1 − (α/2)cot(α/2))/α²`): Taylor polynomials in `α²` below their thresholds, so
//! that no square root or division is taken at `α = 0` and dual-number derivatives survive at
//! exactly `u = 0`; see that module for the thresholds and the accuracy (≤ 2.5 ulps). The
//! logarithm uses `α/sin α = arcsin(s)/s` as a polynomial in `s² = sin²α` for `sin²α < 1/100`,
//! `cos α > 0` (8 terms), `atan2(sin α, cos α)/sin α` otherwise. The SE(3) functions are
//! documented in [`Se3`](crate::Se3).
//!
//! The logarithm takes its axis from `vee(R) = sin α · n` except for `cos α < 0`, where it
//! uses the symmetric part `(R + Rᵀ)/2 − cos α I = (1 − cos α) n nᵀ`, which stays accurate up
//! to and including `α = π` (see [`So3::log`](crate::LieGroup::log)).
//!
//! References: \[HLW06, §IV.8\], \[CO03\], \[CCLMO22, §2.3\].

use crate::angle::{ASIN_SERIES, AngleFns, LOG_SERIES_SIN_SQ, atan2_nonneg, poly, sinc_cosc};
use crate::coord::CayleyGroup;
use crate::error::LieError;
use crate::group::{LieGroup, LieGroupInPlace, StaticLieGroup};
use crate::scalar::{c, re};
use nalgebra::{Matrix3, Quaternion, RealField, Rotation3, UnitQuaternion, Vector3};

// ---------------------------------------------------------------------------------------------
// hat / vee
// ---------------------------------------------------------------------------------------------

/// The skew-symmetric matrix of a vector: `hat(v) b = v × b`,
///
/// ```text
///            ⎡  0   −v₃   v₂ ⎤
///   hat(v) = ⎢  v₃   0   −v₁ ⎥
///            ⎣ −v₂   v₁   0  ⎦
/// ```
///
/// This is the isomorphism ℝ³ ≅ so(3) used throughout (basis `hat(e₁), hat(e₂), hat(e₃)`).
///
/// # Example
/// ```
/// use liegroup::so3::hat;
/// use nalgebra::Vector3;
/// let v = Vector3::new(1.0, 2.0, 3.0);
/// let b = Vector3::new(-1.0, 0.5, 2.0);
/// assert_eq!(hat(&v) * b, v.cross(&b));
/// ```
#[must_use]
pub fn hat<T: RealField + Copy>(v: &Vector3<T>) -> Matrix3<T> {
    let z = T::zero();
    Matrix3::new(z, -v.z, v.y, v.z, z, -v.x, -v.y, v.x, z)
}

/// The inverse of [`hat`] applied to the skew-symmetric part of `m`:
/// `vee(m) = (m₃₂ − m₂₃, m₁₃ − m₃₁, m₂₁ − m₁₂)/2`.
///
/// `vee(hat(v)) = v` exactly; for a general matrix the symmetric part is ignored, so
/// `vee(R) = sin α · n` for a rotation by `α` about the unit axis `n`.
///
/// # Example
/// ```
/// use liegroup::so3::{hat, vee};
/// use nalgebra::Vector3;
/// let v = Vector3::new(0.1, -0.2, 0.3);
/// assert_eq!(vee(&hat(&v)), v);
/// ```
#[must_use]
pub fn vee<T: RealField + Copy>(m: &Matrix3<T>) -> Vector3<T> {
    let half = c::<T>(0.5);
    Vector3::new(
        (m[(2, 1)] - m[(1, 2)]) * half,
        (m[(0, 2)] - m[(2, 0)]) * half,
        (m[(1, 0)] - m[(0, 1)]) * half,
    )
}

// ---------------------------------------------------------------------------------------------
// Rodrigues-type combinations (shared with SE(3))
// ---------------------------------------------------------------------------------------------

/// `I + a U + b U²` with `U = hat(u)`, written out entry by entry using
/// `U² = u uᵀ − |u|² I` (the diagonal as `1 − b(u_j² + u_k²)`, which is exact at `u = 0`). The
/// products of the components are formed before `a` and `b` are needed (they are usually the
/// last values to arrive: polynomials in `|u|²`), so each entry is one multiply–add after them.
#[inline(always)]
pub(crate) fn rodrigues_matrix<T: RealField + Copy>(u: &Vector3<T>, a: T, b: T) -> Matrix3<T> {
    let (x, y, z) = (u.x, u.y, u.z);
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (bxy, bxz, byz) = (b * xy, b * xz, b * yz);
    let (ax, ay, az) = (a * x, a * y, a * z);
    let one = T::one();
    Matrix3::new(
        one - b * (yy + zz),
        bxy - az,
        bxz + ay,
        bxy + az,
        one - b * (xx + zz),
        byz - ax,
        bxz - ay,
        byz + ax,
        one - b * (xx + yy),
    )
}

/// `v + b u×v + c u×(u×v)`, i.e. `(I + bU + cU²) v`.
#[inline(always)]
pub(crate) fn apply_quadratic<T: RealField + Copy>(
    u: &Vector3<T>,
    v: &Vector3<T>,
    b: T,
    c: T,
) -> Vector3<T> {
    let uv = u.cross(v);
    let uuv = u.cross(&uv);
    v + uv * b + uuv * c
}

/// so(3) `dexp_u v = v + ((1 − cos α)/α²) u×v + ((α − sin α)/α³) u×(u×v)`.
#[inline]
pub(crate) fn so3_dexp<T: RealField + Copy>(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
    let mut f = AngleFns::new(u.dot(u));
    apply_quadratic(u, v, f.cosc(), f.sinc3())
}

/// so(3) `dexp_u⁻¹ v = v − ½ u×v + g₂(α) u×(u×v)`.
#[inline(always)]
pub(crate) fn so3_dexpinv<T: RealField + Copy>(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
    let mut f = AngleFns::new(u.dot(u));
    apply_quadratic(u, v, c::<T>(-0.5), f.g2())
}

// ---------------------------------------------------------------------------------------------
// So3
// ---------------------------------------------------------------------------------------------

/// The rotation group SO(3) = {R ∈ ℝ³ˣ³ : RᵀR = I, det R = 1}, stored as the rotation matrix.
///
/// Algebra: `Vector3<T>` through [`hat`] (`hat(u) b = u × b`), bracket `[u, v] = u × v`,
/// `Ad_R u = R u`, coadjoint action `R μ`, `ad*_x μ = μ × x`. `exp` is Rodrigues' formula,
/// `log` the principal logarithm (`|log R| ≤ π`), `dexp`/`dexp⁻¹` are closed forms (right
/// trivialization, \[CO03\], \[HLW06, §IV.8\]), and the Cayley map is
/// `cay(v) = (I − V/2)⁻¹(I + V/2)`.
///
/// See the [module documentation](crate::so3) for the small-angle branches and thresholds.
///
/// # Example
/// ```
/// use liegroup::{LieGroup, So3};
/// use nalgebra::Vector3;
/// let u = Vector3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2);
/// let r = So3::exp(&u);
/// let x = r.rotate(&Vector3::x());
/// assert!((x - Vector3::y()).norm() < 1e-15);
/// assert!((r.log() - u).norm() < 1e-15);
/// ```
#[doc(alias = "SO(3)")]
#[doc(alias = "SO3")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct So3<T: RealField + Copy = f64> {
    matrix: Matrix3<T>,
}

impl<T: RealField + Copy> So3<T> {
    /// Tolerance on `‖RᵀR − I‖_F` accepted by [`So3::try_from_matrix`]: `1e-10`.
    pub const ORTHOGONALITY_TOLERANCE: f64 = 1e-10;

    /// Tolerance on `| |q| − 1 |` accepted by [`So3::try_from_quaternion`]: `1e-10`.
    pub const UNIT_TOLERANCE: f64 = 1e-10;

    /// The identity rotation.
    ///
    /// # Example
    /// ```
    /// use liegroup::So3;
    /// assert_eq!(*So3::<f64>::identity().matrix(), nalgebra::Matrix3::identity());
    /// ```
    #[must_use]
    pub fn identity() -> Self {
        Self {
            matrix: Matrix3::identity(),
        }
    }

    /// The rotation matrix.
    #[must_use]
    pub fn matrix(&self) -> &Matrix3<T> {
        &self.matrix
    }

    /// The rotation matrix, by value.
    #[must_use]
    pub fn into_matrix(self) -> Matrix3<T> {
        self.matrix
    }

    /// Wrap a matrix without any check. The caller promises that it is a rotation matrix
    /// (up to round-off); otherwise every later result is meaningless (but nothing panics).
    #[must_use]
    pub fn from_matrix_unchecked(matrix: Matrix3<T>) -> Self {
        Self { matrix }
    }

    /// Wrap a matrix after checking that it is a rotation. The matrix is stored unchanged.
    ///
    /// # Errors
    /// - [`LieError::NonFinite`] if an entry is NaN or infinite;
    /// - [`LieError::NotOrthogonal`] if `‖RᵀR − I‖_F >` [`So3::ORTHOGONALITY_TOLERANCE`]
    ///   (`1e-10`);
    /// - [`LieError::NotARotation`] if the matrix is orthogonal with `det R < 0` (a reflection).
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieError, So3};
    /// use nalgebra::Matrix3;
    /// assert!(So3::try_from_matrix(Matrix3::<f64>::identity()).is_ok());
    /// let reflection = Matrix3::from_diagonal(&nalgebra::Vector3::new(1.0, 1.0, -1.0));
    /// assert!(matches!(So3::try_from_matrix(reflection), Err(LieError::NotARotation { .. })));
    /// ```
    pub fn try_from_matrix(matrix: Matrix3<T>) -> Result<Self, LieError> {
        if !matrix.iter().all(|x| x.is_finite()) {
            return Err(LieError::NonFinite {
                what: "rotation matrix",
            });
        }
        let deviation = re((matrix.transpose() * matrix - Matrix3::identity()).norm());
        // A NaN (overflow in the product) is rejected as well.
        if deviation.is_nan() || deviation > Self::ORTHOGONALITY_TOLERANCE {
            return Err(LieError::NotOrthogonal {
                deviation,
                tolerance: Self::ORTHOGONALITY_TOLERANCE,
            });
        }
        let determinant = re(matrix.determinant());
        if determinant <= 0.0 {
            return Err(LieError::NotARotation { determinant });
        }
        Ok(Self { matrix })
    }

    /// The rotation represented by a quaternion `w + xi + yj + zk`, after checking that it is
    /// finite and of unit norm within [`So3::UNIT_TOLERANCE`] (`1e-10`). The accepted
    /// quaternion is normalized before conversion.
    ///
    /// # Errors
    /// [`LieError::NonFinite`] for a NaN or infinite coefficient, [`LieError::NotUnit`] if
    /// `| |q| − 1 | > 1e-10`.
    ///
    /// # Example
    /// ```
    /// use liegroup::So3;
    /// use nalgebra::Quaternion;
    /// let r = So3::try_from_quaternion(Quaternion::<f64>::new(0.0, 0.0, 0.0, 1.0)).unwrap(); // π about z
    /// assert!((r.matrix()[(0, 0)] + 1.0).abs() < 1e-15);
    /// assert!(So3::try_from_quaternion(Quaternion::new(2.0, 0.0, 0.0, 0.0)).is_err());
    /// ```
    pub fn try_from_quaternion(q: Quaternion<T>) -> Result<Self, LieError> {
        if !q.coords.iter().all(|x| x.is_finite()) {
            return Err(LieError::NonFinite { what: "quaternion" });
        }
        let deviation = (re(q.norm()) - 1.0).abs();
        if deviation.is_nan() || deviation > Self::UNIT_TOLERANCE {
            return Err(LieError::NotUnit {
                what: "quaternion",
                deviation,
                tolerance: Self::UNIT_TOLERANCE,
            });
        }
        Ok(Self::from(UnitQuaternion::new_normalize(q)))
    }

    /// The unit quaternion of this rotation (the one with non-negative scalar part is not
    /// guaranteed; `q` and `−q` represent the same rotation).
    #[must_use]
    pub fn to_unit_quaternion(&self) -> UnitQuaternion<T> {
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(self.matrix))
    }

    /// `R v`, the rotated vector.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let r = So3::exp(&Vector3::new(std::f64::consts::PI, 0.0, 0.0));
    /// assert!((r.rotate(&Vector3::y()) + Vector3::y()).norm() < 1e-15);
    /// ```
    #[must_use]
    pub fn rotate(&self, v: &Vector3<T>) -> Vector3<T> {
        self.matrix * v
    }

    /// `Rᵀ v = R⁻¹ v`, the vector rotated back.
    #[must_use]
    pub fn inverse_rotate(&self, v: &Vector3<T>) -> Vector3<T> {
        self.matrix.tr_mul(v)
    }
}

impl<T: RealField + Copy> Default for So3<T> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<T: RealField + Copy> LieGroup for So3<T> {
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

    /// `R₁ R₂`.
    #[inline]
    fn compose(&self, other: &Self) -> Self {
        Self {
            matrix: self.matrix * other.matrix,
        }
    }

    /// `Rᵀ`.
    #[inline]
    fn inverse(&self) -> Self {
        Self {
            matrix: self.matrix.transpose(),
        }
    }

    /// Rodrigues' formula `exp(U) = I + (sin α/α) U + ((1 − cos α)/α²) U²`, `α = |u|`
    /// \[HLW06, §IV.8\]; `1 − cos α` is evaluated as `2 sin²(α/2)` (no cancellation). For
    /// `α < 1/4` both coefficients are Taylor polynomials in `α² = u·u` (6 terms each), so the
    /// derivative at `u = 0` is exact for dual numbers.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let r = So3::exp(&Vector3::new(0.3, -0.2, 0.1));
    /// assert!((r.matrix().transpose() * r.matrix() - nalgebra::Matrix3::identity()).norm() < 1e-15);
    /// ```
    #[inline]
    fn exp(u: &Vector3<T>) -> Self {
        let mut f = AngleFns::new(u.dot(u));
        let a = f.sinc();
        let b = f.cosc();
        Self {
            matrix: rodrigues_matrix(u, a, b),
        }
    }

    /// The principal logarithm, `|log R| = α ∈ [0, π]`.
    ///
    /// With `w = vee(R) = sin α · n` and `cos α = (tr R − 1)/2`:
    /// - `cos α > 0` and `|w|² < 1/100`: `log R = (α/sin α) w` with `α/sin α = arcsin(s)/s` as a
    ///   polynomial in `s² = |w|²` (8 terms), so the dual derivative survives at `R = I`;
    /// - otherwise `α = atan2(|w|, cos α)` (evaluated as `atan` of a ratio of modulus ≤ 1, so
    ///   that dual-number derivatives are right also at `α = π/2`);
    ///   - `cos α ≥ 0`: `log R = (α/|w|) w`;
    ///   - `cos α < 0` (near π, where `w` has lost its relative accuracy): the axis is taken
    ///     from the symmetric part `(R + Rᵀ)/2 − cos α I = (1 − cos α) n nᵀ` (its column with the
    ///     largest diagonal entry, normalized), with the sign chosen so that `n · w ≥ 0`.
    ///
    /// Branch cut: at `α = π` both `±π n` are logarithms; the sign then follows the round-off
    /// in `w`.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let u = Vector3::new(0.0, 3.0, 0.0);
    /// assert!((So3::exp(&u).log() - u).norm() < 1e-14);
    /// ```
    fn log(&self) -> Vector3<T> {
        let m = &self.matrix;
        let w = vee(m);
        let s2 = w.dot(&w);
        let half = c::<T>(0.5);
        let cos = (m.trace() - T::one()) * half;
        if re(cos) > 0.0 && re(s2) < LOG_SERIES_SIN_SQ {
            return w * poly(&ASIN_SERIES, s2);
        }
        let s = s2.sqrt();
        let alpha = atan2_nonneg(s, cos);
        if re(cos) >= 0.0 {
            return w * (alpha / s);
        }
        // Near π: axis from the symmetric part (1 − cos α) n nᵀ.
        let d = [m[(0, 0)] - cos, m[(1, 1)] - cos, m[(2, 2)] - cos];
        let i = if re(d[0]) >= re(d[1]) && re(d[0]) >= re(d[2]) {
            0
        } else if re(d[1]) >= re(d[2]) {
            1
        } else {
            2
        };
        let col = Vector3::from_fn(|k, _| {
            if k == i {
                d[i]
            } else {
                (m[(k, i)] + m[(i, k)]) * half
            }
        });
        let mut n = col / col.norm();
        if re(n.dot(&w)) < 0.0 {
            n = -n;
        }
        n * alpha
    }

    /// `[u, v] = u × v`.
    #[inline]
    fn bracket(x: &Vector3<T>, y: &Vector3<T>) -> Vector3<T> {
        x.cross(y)
    }

    /// `Ad_R u = R u`.
    #[inline]
    fn adjoint(&self, xi: &Vector3<T>) -> Vector3<T> {
        self.matrix * xi
    }

    /// `ad_x y = x × y`.
    #[inline]
    fn ad(x: &Vector3<T>, y: &Vector3<T>) -> Vector3<T> {
        x.cross(y)
    }

    /// `(Ad_{R⁻¹})ᵀ μ = R μ`.
    #[inline]
    fn coadjoint(&self, mu: &Vector3<T>) -> Vector3<T> {
        self.matrix * mu
    }

    /// `ad*_x μ = hat(x)ᵀ μ = μ × x`.
    #[inline]
    fn ad_star(x: &Vector3<T>, mu: &Vector3<T>) -> Vector3<T> {
        mu.cross(x)
    }

    /// `dexp_u v = v + ((1 − cos α)/α²) u×v + ((α − sin α)/α³) u×(u×v)`, `α = |u|`
    /// (`docs/derivations.md` §1); series below `α < 1/4` and `α < 2` respectively.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let (u, v) = (Vector3::new(0.4, 0.1, -0.2), Vector3::new(1.0, 2.0, 3.0));
    /// assert!((So3::dexpinv(&u, &So3::dexp(&u, &v)) - v).norm() < 1e-14);
    /// ```
    #[inline]
    fn dexp(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        so3_dexp(u, v)
    }

    /// `dexp_u⁻¹ v = v − ½ u×v + g₂(α) u×(u×v)`, `g₂(α) = (1 − (α/2)cot(α/2))/α²` \[CO03\];
    /// for `α < 2`, `g₂ = Σ |B₂ₙ|/(2n)! α²ⁿ⁻² = 1/12 + α²/720 + α⁴/30240 + …` (17 terms).
    /// Singular at `α = 2π`.
    #[inline(always)]
    fn dexpinv(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        so3_dexpinv(u, v)
    }

    #[inline]
    fn all_finite(&self) -> bool {
        self.matrix.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> LieGroupInPlace for So3<T> {
    /// Always inlined: integrators call it on their critical path, where a call would spill
    /// every live floating-point register (all are caller-saved).
    #[inline(always)]
    fn dexpinv_into(u: &Vector3<T>, v: &Vector3<T>, out: &mut Vector3<T>) {
        *out = so3_dexpinv(u, v);
    }
    #[inline]
    fn left_mul_assign(&mut self, g: &Self) {
        self.matrix = g.matrix * self.matrix;
    }
    /// `R ← exp(u) R`: Rodrigues' matrix `I + aU + bU²` (`a = sin α/α`, `b = (1 − cos α)/α²`,
    /// entry by entry from `u`, no `hat` products) times `R`. Measured against applying
    /// `R + a UR + b U(UR)` column by column (fewer temporaries, but 90 instead of 72
    /// multiplications and additions), this form has both the shorter dependency chain from
    /// `u` to the result and the smaller operation count. Always inlined: integrators call it
    /// on their critical path, where a call costs a round trip of the matrix through memory.
    #[inline(always)]
    fn exp_left_mul_assign(&mut self, u: &Vector3<T>) {
        let mut f = AngleFns::new(u.dot(u));
        let e = rodrigues_matrix(u, f.sinc(), f.cosc());
        self.matrix = e * self.matrix;
    }
    /// `R ← R exp(u) = R + a RU + b (RU)U` without forming `exp(u)`: row by row,
    /// `rᵢ ← rᵢ + a (rᵢ × u) + b ((rᵢ × u) × u)` (`a = sin α/α`, `b = (1 − cos α)/α²`; for a
    /// row vector `r U = (r × u)ᵀ`). Each row of the result depends only on the same row of
    /// `R`, so a caller that reads some rows only (a body-frame field needing the vertical
    /// `Γ = Rᵀe₃`, the third row; a free body reading none) pays for those rows only once the
    /// call is inlined — which it always is: integrators call it on their critical path (the
    /// stage update of body-frame equations, see
    /// [`exp_left_mul_assign`](LieGroupInPlace::exp_left_mul_assign)).
    #[inline(always)]
    fn exp_right_mul_assign(&mut self, u: &Vector3<T>) {
        let (a, b) = sinc_cosc(u.dot(u));
        for i in 0..3 {
            let r = Vector3::new(
                self.matrix[(i, 0)],
                self.matrix[(i, 1)],
                self.matrix[(i, 2)],
            );
            let ru = r.cross(u);
            let ruu = ru.cross(u);
            for j in 0..3 {
                self.matrix[(i, j)] = r[j] + a * ru[j] + b * ruu[j];
            }
        }
    }
}

impl<T: RealField + Copy> StaticLieGroup for So3<T> {
    #[inline]
    fn identity() -> Self {
        Self::identity()
    }
}

/// The Cayley map of SO(3) \[HLW06, §IV.8.3\]:
/// `cay(v) = (I − V/2)⁻¹(I + V/2) = I + (4/(4 + |v|²))(V + V²/2)`,
/// `dcay_v w = (4/(4 + |v|²))(w + ½ v×w)`, `dcay_v⁻¹ w = w − ½ v×w + ¼ v (v·w)`. All three are
/// rational (no branches), defined on all of ℝ³.
impl<T: RealField + Copy> CayleyGroup for So3<T> {
    /// # Example
    /// ```
    /// use liegroup::{CayleyGroup, LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let v = Vector3::new(0.5, -1.0, 2.0);
    /// let g = So3::cay(&v).compose(&So3::cay(&-v));
    /// assert!((g.matrix() - nalgebra::Matrix3::identity()).norm() < 1e-15);
    /// ```
    #[inline]
    fn cay(xi: &Vector3<T>) -> Self {
        let k = c::<T>(4.0) / (c::<T>(4.0) + xi.dot(xi));
        Self {
            matrix: rodrigues_matrix(xi, k, k * c::<T>(0.5)),
        }
    }

    #[inline]
    fn dcay(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        let k = c::<T>(4.0) / (c::<T>(4.0) + u.dot(u));
        (v + u.cross(v) * c::<T>(0.5)) * k
    }

    #[inline]
    fn dcayinv(u: &Vector3<T>, w: &Vector3<T>) -> Vector3<T> {
        w - u.cross(w) * c::<T>(0.5) + u * (u.dot(w) * c::<T>(0.25))
    }
}

// ---------------------------------------------------------------------------------------------
// nalgebra interop
// ---------------------------------------------------------------------------------------------

impl<T: RealField + Copy> From<Rotation3<T>> for So3<T> {
    fn from(r: Rotation3<T>) -> Self {
        Self {
            matrix: r.into_inner(),
        }
    }
}

impl<T: RealField + Copy> From<So3<T>> for Rotation3<T> {
    fn from(r: So3<T>) -> Self {
        Rotation3::from_matrix_unchecked(r.matrix)
    }
}

impl<T: RealField + Copy> From<UnitQuaternion<T>> for So3<T> {
    fn from(q: UnitQuaternion<T>) -> Self {
        Self {
            matrix: q.to_rotation_matrix().into_inner(),
        }
    }
}

impl<T: RealField + Copy> From<So3<T>> for UnitQuaternion<T> {
    fn from(r: So3<T>) -> Self {
        r.to_unit_quaternion()
    }
}
