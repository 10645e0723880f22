//! The group of rigid motions SE(3) = SO(3) ⋉ ℝ³.
//!
//! # Conventions
//! - Elements `(R, t)` act on points by `p ↦ R p + t`; in homogeneous form
//!   `[[R, t], [0, 1]]`. Group law `(R₁, t₁)(R₂, t₂) = (R₁R₂, R₁t₂ + t₁)`.
//! - se(3) ≅ ℝ⁶ as `ξ = (A, a) = (ω, v)`, **rotation first**, with
//!   `hat(ξ) = [[hat(A), a], [0, 0]]` and bracket `[(A,a),(B,b)] = (A×B, A×b − B×a)`, i.e.
//!   `ad_(A,a) = [[Â, 0], [â, Â]]`.
//! - `dexp` is right-trivialized: `d/dt exp(u + t v)|₀ = hat(dexp_u v) · exp(u)`.
//! - se(3)* ≅ ℝ⁶ in the dual basis, `μ = (M, m)` (angular part first), paired by the dot
//!   product.
//!
//! The angle functions of `α = |A|` and their small-angle branches are those of
//! [`crate::angle`], shared with SO(3); the additional ones here are `g₂′(α)/α` (in `dexp⁻¹`)
//! and Barfoot's `Q` coefficients (in `dexp`), all evaluated as Taylor polynomials in `α²` for
//! `α < 2`.
//!
//! References: \[CCLMO22, §2.3\] (dexp⁻¹); T. D. Barfoot, *State Estimation for Robotics*, the
//! left Jacobian of SE(3) \[Bar17\] (its `Q` matrix, written out in `docs/derivations.md` §2,
//! gives dexp; the
//! formula is checked here against the derivative of exp); \[HLW06, §IV.8.3\] (Cayley).

use crate::angle::AngleFns;
use crate::coord::CayleyGroup;
use crate::error::LieError;
use crate::group::{LieGroup, LieGroupInPlace, StaticLieGroup};
use crate::scalar::{c, re};
use crate::so3::{self, So3, apply_quadratic, rodrigues_matrix};
use nalgebra::{
    Isometry3, Matrix3, Matrix4, RealField, Translation3, UnitQuaternion, Vector3, Vector6,
};

#[inline]
fn split<T: RealField + Copy>(xi: &Vector6<T>) -> (Vector3<T>, Vector3<T>) {
    (
        Vector3::new(xi[0], xi[1], xi[2]),
        Vector3::new(xi[3], xi[4], xi[5]),
    )
}

#[inline]
fn join<T: RealField + Copy>(a: &Vector3<T>, b: &Vector3<T>) -> Vector6<T> {
    Vector6::new(a.x, a.y, a.z, b.x, b.y, b.z)
}

/// The group of rigid motions SE(3), stored as a rotation [`So3`] and a translation.
///
/// Algebra: `Vector6<T>` ordered **rotation first**, `ξ = (A, a) = (ω, v)`. Bracket
/// `[(A,a),(B,b)] = (A×B, A×b − B×a)`, `Ad_(R,t)(A, a) = (RA, t×(RA) + Ra)`.
/// `exp(A, a) = (exp(Â), J a)` with `J = dexp_A` of so(3); `dexp`, `dexp⁻¹` and the Cayley map
/// (of the 4×4 embedding) are closed forms.
///
/// # Example
/// ```
/// use liegroup::{LieGroup, Se3};
/// use nalgebra::{Vector3, Vector6};
/// // A quarter turn about z combined with a unit velocity along x: a screw motion.
/// let xi = Vector6::new(0.0, 0.0, std::f64::consts::FRAC_PI_2, 1.0, 0.0, 0.0);
/// let g = Se3::exp(&xi);
/// let p = g.transform_point(&Vector3::zeros());
/// assert!((p - Vector3::new(2.0, 2.0, 0.0) / std::f64::consts::PI).norm() < 1e-15);
/// assert!((g.log() - xi).norm() < 1e-15);
/// ```
#[doc(alias = "SE(3)")]
#[doc(alias = "SE3")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Se3<T: RealField + Copy = f64> {
    rotation: So3<T>,
    translation: Vector3<T>,
}

impl<T: RealField + Copy> Se3<T> {
    /// Tolerance on `max |m₄ⱼ − δ₄ⱼ|` (the last row of a homogeneous matrix) accepted by
    /// [`Se3::try_from_matrix`]: `1e-10`.
    pub const HOMOGENEOUS_TOLERANCE: f64 = 1e-10;

    /// The identity motion `(I, 0)`.
    #[must_use]
    pub fn identity() -> Self {
        Self {
            rotation: So3::identity(),
            translation: Vector3::zeros(),
        }
    }

    /// The motion `p ↦ R p + t` from its rotation `R` and translation `t`.
    ///
    /// # Example
    /// ```
    /// use liegroup::{Se3, So3};
    /// use nalgebra::Vector3;
    /// let g = Se3::from_parts(So3::identity(), Vector3::new(1.0, 2.0, 3.0));
    /// assert_eq!(g.transform_point(&Vector3::zeros()), Vector3::new(1.0, 2.0, 3.0));
    /// ```
    #[must_use]
    pub fn from_parts(rotation: So3<T>, translation: Vector3<T>) -> Self {
        Self {
            rotation,
            translation,
        }
    }

    /// The rotation part `R`.
    #[must_use]
    pub fn rotation(&self) -> &So3<T> {
        &self.rotation
    }

    /// The translation part `t`.
    #[must_use]
    pub fn translation(&self) -> &Vector3<T> {
        &self.translation
    }

    /// `R p + t`, the image of the point `p`.
    #[must_use]
    pub fn transform_point(&self, p: &Vector3<T>) -> Vector3<T> {
        self.rotation.rotate(p) + self.translation
    }

    /// `R v`, the image of the free vector `v` (translations do not act on vectors).
    #[must_use]
    pub fn transform_vector(&self, v: &Vector3<T>) -> Vector3<T> {
        self.rotation.rotate(v)
    }

    /// The homogeneous matrix `[[R, t], [0, 1]]`.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, Se3};
    /// use nalgebra::Vector6;
    /// let g = Se3::exp(&Vector6::new(0.1, 0.2, 0.3, 1.0, 2.0, 3.0));
    /// let h = Se3::try_from_matrix(g.to_homogeneous()).unwrap();
    /// assert_eq!(g, h);
    /// ```
    #[must_use]
    pub fn to_homogeneous(&self) -> Matrix4<T> {
        let mut m = Matrix4::identity();
        m.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(self.rotation.matrix());
        m.fixed_view_mut::<3, 1>(0, 3).copy_from(&self.translation);
        m
    }

    /// The motion of a homogeneous matrix `[[R, t], [0, 1]]`, after checks; `R` and `t` are
    /// stored unchanged.
    ///
    /// # Errors
    /// - [`LieError::NonFinite`] if an entry is NaN or infinite;
    /// - [`LieError::NotHomogeneous`] if the last row differs from `(0, 0, 0, 1)` by more than
    ///   [`Se3::HOMOGENEOUS_TOLERANCE`] (`1e-10`) in some entry;
    /// - [`LieError::NotOrthogonal`] / [`LieError::NotARotation`] if the upper-left block is not
    ///   a rotation (see [`So3::try_from_matrix`]).
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieError, Se3};
    /// use nalgebra::Matrix4;
    /// let mut m = Matrix4::<f64>::identity();
    /// m[(3, 0)] = 1.0;
    /// assert!(matches!(Se3::try_from_matrix(m), Err(LieError::NotHomogeneous { .. })));
    /// ```
    pub fn try_from_matrix(m: Matrix4<T>) -> Result<Self, LieError> {
        if !m.iter().all(|x| x.is_finite()) {
            return Err(LieError::NonFinite {
                what: "homogeneous matrix",
            });
        }
        let last = [re(m[(3, 0)]), re(m[(3, 1)]), re(m[(3, 2)]), re(m[(3, 3)])];
        let target = [0.0, 0.0, 0.0, 1.0];
        if last
            .iter()
            .zip(target)
            .any(|(x, t)| (x - t).abs() > Self::HOMOGENEOUS_TOLERANCE)
        {
            return Err(LieError::NotHomogeneous {
                found: last.to_vec(),
            });
        }
        let r: Matrix3<T> = m.fixed_view::<3, 3>(0, 0).into_owned();
        let rotation = So3::try_from_matrix(r)?;
        let translation = Vector3::new(m[(0, 3)], m[(1, 3)], m[(2, 3)]);
        Ok(Self {
            rotation,
            translation,
        })
    }

    /// The 4×4 matrix of an algebra element, `hat(A, a) = [[hat(A), a], [0, 0]]`
    /// (rotation first).
    ///
    /// # Example
    /// ```
    /// use liegroup::Se3;
    /// use nalgebra::{Vector4, Vector6};
    /// let xi = Vector6::new(0.0, 0.0, 1.0, 5.0, 0.0, 0.0);
    /// // ω × p + v at p = (1, 0, 0):
    /// assert_eq!(Se3::hat(&xi) * Vector4::new(1.0, 0.0, 0.0, 1.0), Vector4::new(5.0, 1.0, 0.0, 0.0));
    /// assert_eq!(Se3::vee(&Se3::hat(&xi)), xi);
    /// ```
    #[must_use]
    pub fn hat(xi: &Vector6<T>) -> Matrix4<T> {
        let (a_rot, a_tr) = split(xi);
        let mut m = Matrix4::zeros();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&so3::hat(&a_rot));
        m.fixed_view_mut::<3, 1>(0, 3).copy_from(&a_tr);
        m
    }

    /// The inverse of [`Se3::hat`]: `(vee(skew part of the 3×3 block), last column)`; the last
    /// row is ignored.
    #[must_use]
    pub fn vee(m: &Matrix4<T>) -> Vector6<T> {
        let r: Matrix3<T> = m.fixed_view::<3, 3>(0, 0).into_owned();
        join(
            &so3::vee(&r),
            &Vector3::new(m[(0, 3)], m[(1, 3)], m[(2, 3)]),
        )
    }
}

impl<T: RealField + Copy> Default for Se3<T> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<T: RealField + Copy> LieGroup for Se3<T> {
    type Scalar = T;
    type Algebra = Vector6<T>;
    const EXACT_DEXP: bool = true;

    #[inline]
    fn identity_like(&self) -> Self {
        Self::identity()
    }

    #[inline]
    fn algebra_zero(&self) -> Vector6<T> {
        Vector6::zeros()
    }

    /// `(R₁R₂, R₁t₂ + t₁)`.
    #[inline]
    fn compose(&self, other: &Self) -> Self {
        Self {
            rotation: self.rotation.compose(&other.rotation),
            translation: self.rotation.rotate(&other.translation) + self.translation,
        }
    }

    /// `(Rᵀ, −Rᵀt)`.
    #[inline]
    fn inverse(&self) -> Self {
        Self {
            rotation: self.rotation.inverse(),
            translation: -self.rotation.inverse_rotate(&self.translation),
        }
    }

    /// `exp(A, a) = (exp(Â), J a)`, `J a = a + ((1 − cos α)/α²) A×a + ((α − sin α)/α³) A×(A×a)`,
    /// `α = |A|` (`J = dexp_A` of so(3)). Small-angle branches as in [`So3::exp`] and
    /// [`So3::dexp`](LieGroup::dexp): polynomials in `α²` below `α < 1/4` resp. `α < 2`.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, Se3};
    /// use nalgebra::{Vector3, Vector6};
    /// // Pure translation:
    /// let g = Se3::exp(&Vector6::new(0.0, 0.0, 0.0, 1.0, 2.0, 3.0));
    /// assert_eq!(*g.translation(), Vector3::new(1.0, 2.0, 3.0));
    /// ```
    #[inline]
    fn exp(xi: &Vector6<T>) -> Self {
        let (a_rot, a_tr) = split(xi);
        let mut f = AngleFns::new(a_rot.dot(&a_rot));
        let sinc = f.sinc();
        let cosc = f.cosc();
        let sinc3 = f.sinc3();
        Self {
            rotation: So3::from_matrix_unchecked(rodrigues_matrix(&a_rot, sinc, cosc)),
            translation: apply_quadratic(&a_rot, &a_tr, cosc, sinc3),
        }
    }

    /// `log(R, t) = (A, J⁻¹ t)` with `A = log R` the principal logarithm of SO(3)
    /// (`|A| ≤ π`, see [`So3::log`](LieGroup::log)) and
    /// `J⁻¹ t = t − ½ A×t + g₂(|A|) A×(A×t)` (so(3) `dexp⁻¹`, \[CO03\]).
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, Se3};
    /// use nalgebra::Vector6;
    /// let xi = Vector6::new(1.0, -2.0, 0.5, 3.0, 0.0, -1.0);
    /// assert!((Se3::exp(&xi).log() - xi).norm() < 1e-14);
    /// ```
    fn log(&self) -> Vector6<T> {
        let a_rot = self.rotation.log();
        let a_tr = so3::so3_dexpinv(&a_rot, &self.translation);
        join(&a_rot, &a_tr)
    }

    /// `[(A,a),(B,b)] = (A×B, A×b − B×a)`.
    #[inline]
    fn bracket(x: &Vector6<T>, y: &Vector6<T>) -> Vector6<T> {
        let (a_rot, a_tr) = split(x);
        let (b_rot, b_tr) = split(y);
        join(
            &a_rot.cross(&b_rot),
            &(a_rot.cross(&b_tr) - b_rot.cross(&a_tr)),
        )
    }

    /// `Ad_(R,t)(A, a) = (RA, t×(RA) + Ra)`.
    #[inline]
    fn adjoint(&self, xi: &Vector6<T>) -> Vector6<T> {
        let (a_rot, a_tr) = split(xi);
        let ra = self.rotation.rotate(&a_rot);
        join(
            &ra,
            &(self.translation.cross(&ra) + self.rotation.rotate(&a_tr)),
        )
    }

    /// `ad_x y = [x, y]`.
    #[inline]
    fn ad(x: &Vector6<T>, y: &Vector6<T>) -> Vector6<T> {
        Self::bracket(x, y)
    }

    /// `(Ad_{g⁻¹})ᵀ (M, m) = (RM + t×(Rm), Rm)` for `g = (R, t)`.
    #[inline]
    fn coadjoint(&self, mu: &Vector6<T>) -> Vector6<T> {
        let (m_rot, m_tr) = split(mu);
        let rm = self.rotation.rotate(&m_tr);
        join(
            &(self.rotation.rotate(&m_rot) + self.translation.cross(&rm)),
            &rm,
        )
    }

    /// `ad*_(A,a)(M, m) = (ad_(A,a))ᵀ (M, m) = (M×A + m×a, m×A)`.
    #[inline]
    fn ad_star(x: &Vector6<T>, mu: &Vector6<T>) -> Vector6<T> {
        let (a_rot, a_tr) = split(x);
        let (m_rot, m_tr) = split(mu);
        join(
            &(m_rot.cross(&a_rot) + m_tr.cross(&a_tr)),
            &m_tr.cross(&a_rot),
        )
    }

    /// `dexp_(A,a)(B, b) = (J B, J b + Q(a, A) B)` with `J = dexp_A` of so(3) and Barfoot's
    /// (left-Jacobian) `Q` in rotation-first order (`α = |A|`, `P = Â`, `R = â`):
    ///
    /// ```text
    /// Q = ½R + ((α − sin α)/α³)(PR + RP + PRP) + ((α² + 2cos α − 2)/(2α⁴))(P²R + RP² − 3PRP)
    ///       + ((2α − 3 sin α + α cos α)/(2α⁵))(PRP² + P²RP)
    /// ```
    ///
    /// The three coefficients are Taylor polynomials in `α²` for `α < 2`
    /// (`1/6 − α²/120 + …`, `1/24 − α²/720 + …`, `1/120 − α²/2520 + …`; 11 terms each), the
    /// closed forms above (within 9 ulps there, measured).
    fn dexp(u: &Vector6<T>, v: &Vector6<T>) -> Vector6<T> {
        let (a_rot, a_tr) = split(u);
        let (b_rot, b_tr) = split(v);
        let mut f = AngleFns::new(a_rot.dot(&a_rot));
        let (cosc, q1, q2, q3) = (f.cosc(), f.sinc3(), f.q2(), f.q3());
        let out_rot = apply_quadratic(&a_rot, &b_rot, cosc, q1);
        // Q B with y = a×B, z = a×(A×B), w = a×(A×(A×B)):
        //   ½y + q1(A×y + z + A×z) + q2(A×(A×y) + w − 3A×z) + q3(A×w + A×(A×z)).
        let ab = a_rot.cross(&b_rot);
        let y = a_tr.cross(&b_rot);
        let z = a_tr.cross(&ab);
        let w = a_tr.cross(&a_rot.cross(&ab));
        let ay = a_rot.cross(&y);
        let az = a_rot.cross(&z);
        let qb = y * c::<T>(0.5)
            + (ay + z + az) * q1
            + (a_rot.cross(&ay) + w - az * c::<T>(3.0)) * q2
            + (a_rot.cross(&w) + a_rot.cross(&az)) * q3;
        let out_tr = apply_quadratic(&a_rot, &b_tr, cosc, q1) + qb;
        join(&out_rot, &out_tr)
    }

    /// The closed form of \[CCLMO22, §2.3\]: for `σ = (A, a)`, input `(B, b)`, output `(C, c)`,
    ///
    /// ```text
    /// C = B − ½ A×B + g₂ A×(A×B),
    /// c = b − ½(a×B + A×b) + g₂[A×(a×B) + a×(A×B) + A×(A×b)] + g̃₂ A×(A×B),
    /// ```
    ///
    /// with `α = |A|`, `g₂ = (1 − (α/2)cot(α/2))/α²`, `ρ = A·a`, `g̃₂ = (ρ/α) g₂′(α)`.
    /// For `α < 2`, `g₂` and `g₂′/α = Σ_{n≥2} (2n−2)|B₂ₙ|/(2n)! α²ⁿ⁻⁴ = 1/360 + α²/7560 + …`
    /// are Taylor polynomials (17 and 18 terms); above, closed forms. The closed form of
    /// `g₂′/α = (h²/sin²h + h cot h − 2)/α⁴` (`h = α/2`) cancels: ≈ 40 ulps at `α = 2`, below
    /// 10 ulps for `α ≥ 2.75` (measured); since `g̃₂ A×(A×B)` has size at most
    /// `α³ (g₂′/α) |a||B| ≈ 0.03 |a||B|` there, this adds at most about two ulps of `|a||B|` to
    /// the error of `c`. Singular at `α = 2π`.
    #[inline]
    fn dexpinv(u: &Vector6<T>, v: &Vector6<T>) -> Vector6<T> {
        se3_dexpinv(u, v)
    }

    #[inline]
    fn all_finite(&self) -> bool {
        self.rotation.all_finite() && self.translation.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> LieGroupInPlace for Se3<T> {
    /// Always inlined: integrators call it on their critical path, where a call would spill
    /// every live floating-point register (all are caller-saved).
    #[inline(always)]
    fn dexpinv_into(u: &Vector6<T>, v: &Vector6<T>, out: &mut Vector6<T>) {
        *out = se3_dexpinv(u, v);
    }
    #[inline]
    fn left_mul_assign(&mut self, g: &Self) {
        self.translation = g.rotation.rotate(&self.translation) + g.translation;
        self.rotation.left_mul_assign(&g.rotation);
    }
}

impl<T: RealField + Copy> StaticLieGroup for Se3<T> {
    #[inline]
    fn identity() -> Self {
        Self::identity()
    }
}

/// `M⁻¹ x = (I − Â/2)⁻¹ x = (4/(4 + |A|²))(x + ½ A×x + ¼ A (A·x))`, with `k = 4/(4 + |A|²)`.
#[inline]
fn cayley_solve<T: RealField + Copy>(a: &Vector3<T>, x: &Vector3<T>, k: T) -> Vector3<T> {
    (x + a.cross(x) * c::<T>(0.5) + a * (a.dot(x) * c::<T>(0.25))) * k
}

/// The Cayley map of the 4×4 embedding `X = hat(A, a)`, `cay(X) = (I − X/2)⁻¹(I + X/2)`
/// \[HLW06, §IV.8.3\], with `k = 4/(4 + |A|²)`, `M = I − Â/2`, `(I − Â/2)⁻¹ = k(I + Â/2 + AAᵀ/4)`:
///
/// ```text
/// cay(A, a)            = (cay(A), k(a + ½A×a + ¼A(A·a)))                 (= (cay(A), M⁻¹a))
/// dcay_(A,a)⁻¹ (B, b)  = (B − ½A×B + ¼(A·B)A,  b − ½(A×b − B×a) − ¼A×(B×a))
/// dcay_(A,a) (B, b)    = (B′, M⁻¹b − ½ B′×a),  B′ = dcay_A B = k(B + ½A×B)
/// ```
///
/// (`dcay⁻¹ X Y = (I − X/2) Y (I + X/2)`; the last line solves it for `Y`.) No branches.
impl<T: RealField + Copy> CayleyGroup for Se3<T> {
    /// # Example
    /// ```
    /// use liegroup::{CayleyGroup, LieGroup, Se3};
    /// use nalgebra::Vector6;
    /// let xi = Vector6::new(0.3, -0.1, 0.2, 1.0, 2.0, -0.5);
    /// let g = Se3::cay(&xi).compose(&Se3::cay(&-xi));
    /// assert!(g.log().norm() < 1e-15);
    /// ```
    #[inline]
    fn cay(xi: &Vector6<T>) -> Self {
        let (a_rot, a_tr) = split(xi);
        let k = c::<T>(4.0) / (c::<T>(4.0) + a_rot.dot(&a_rot));
        Self {
            rotation: So3::from_matrix_unchecked(rodrigues_matrix(&a_rot, k, k * c::<T>(0.5))),
            translation: cayley_solve(&a_rot, &a_tr, k),
        }
    }

    #[inline]
    fn dcay(u: &Vector6<T>, v: &Vector6<T>) -> Vector6<T> {
        let (a_rot, a_tr) = split(u);
        let (b_rot, b_tr) = split(v);
        let k = c::<T>(4.0) / (c::<T>(4.0) + a_rot.dot(&a_rot));
        let bp = (b_rot + a_rot.cross(&b_rot) * c::<T>(0.5)) * k;
        let out_tr = cayley_solve(&a_rot, &b_tr, k) - bp.cross(&a_tr) * c::<T>(0.5);
        join(&bp, &out_tr)
    }

    #[inline]
    fn dcayinv(u: &Vector6<T>, w: &Vector6<T>) -> Vector6<T> {
        let (a_rot, a_tr) = split(u);
        let (b_rot, b_tr) = split(w);
        let half = c::<T>(0.5);
        let quarter = c::<T>(0.25);
        let ba = b_rot.cross(&a_tr);
        let out_rot = b_rot - a_rot.cross(&b_rot) * half + a_rot * (a_rot.dot(&b_rot) * quarter);
        let out_tr = b_tr - (a_rot.cross(&b_tr) - ba) * half - a_rot.cross(&ba) * quarter;
        join(&out_rot, &out_tr)
    }
}

// ---------------------------------------------------------------------------------------------
// nalgebra interop
// ---------------------------------------------------------------------------------------------

impl<T: RealField + Copy> From<Isometry3<T>> for Se3<T> {
    fn from(iso: Isometry3<T>) -> Self {
        Self {
            rotation: So3::from(iso.rotation),
            translation: iso.translation.vector,
        }
    }
}

impl<T: RealField + Copy> From<Se3<T>> for Isometry3<T> {
    fn from(g: Se3<T>) -> Self {
        Isometry3::from_parts(
            Translation3::from(g.translation),
            UnitQuaternion::from(g.rotation),
        )
    }
}

/// `dexp⁻¹` of SE(3) (see [`Se3::dexpinv`](LieGroup::dexpinv) for the formula).
#[inline(always)]
fn se3_dexpinv<T: RealField + Copy>(u: &Vector6<T>, v: &Vector6<T>) -> Vector6<T> {
    let (a_rot, a_tr) = split(u);
    let (b_rot, b_tr) = split(v);
    let mut f = AngleFns::new(a_rot.dot(&a_rot));
    let g2 = f.g2();
    let g2t = a_rot.dot(&a_tr) * f.g2p();
    let half = c::<T>(0.5);
    let ab = a_rot.cross(&b_rot);
    let aab = a_rot.cross(&ab);
    let out_rot = b_rot - ab * half + aab * g2;
    let a_tr_b = a_tr.cross(&b_rot);
    let a_b_tr = a_rot.cross(&b_tr);
    let out_tr = b_tr - (a_tr_b + a_b_tr) * half
        + (a_rot.cross(&a_tr_b) + a_tr.cross(&ab) + a_rot.cross(&a_b_tr)) * g2
        + aab * g2t;
    join(&out_rot, &out_tr)
}
