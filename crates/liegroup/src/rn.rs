//! The additive group ℝⁿ.

use crate::coord::CayleyGroup;
use crate::group::{LieGroup, LieGroupInPlace, StaticLieGroup};
use nalgebra::{RealField, SVector};

/// The additive group `(ℝᴰ, +)`: compose is `+`, exp and log are the identity, the bracket
/// vanishes and `dexp = dexp⁻¹ = id`.
///
/// On ℝⁿ every Lie-group integrator reduces to the classical Runge–Kutta method with the same
/// coefficients (the reduction test of the `schemes` crate).
///
/// # Example
/// ```
/// use liegroup::{LieGroup, Rn};
/// use nalgebra::Vector3;
/// let a = Rn::new(Vector3::new(1.0, 2.0, 3.0));
/// let b = Rn::exp(&Vector3::new(1.0, 0.0, 0.0));
/// assert_eq!(a.compose(&b).0, Vector3::new(2.0, 2.0, 3.0));
/// ```
#[doc(alias = "R^n")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rn<T: RealField + Copy, const D: usize>(pub SVector<T, D>);

/// ℝ³ as an additive group.
pub type R3<T = f64> = Rn<T, 3>;

impl<T: RealField + Copy, const D: usize> Rn<T, D> {
    /// Wrap a vector.
    #[must_use]
    pub const fn new(v: SVector<T, D>) -> Self {
        Self(v)
    }
    /// The zero vector (the identity).
    #[must_use]
    pub fn identity() -> Self {
        Self(SVector::zeros())
    }
}

impl<T: RealField + Copy, const D: usize> LieGroup for Rn<T, D> {
    type Scalar = T;
    type Algebra = SVector<T, D>;
    const EXACT_DEXP: bool = true;

    #[inline]
    fn identity_like(&self) -> Self {
        Self::identity()
    }
    #[inline]
    fn algebra_zero(&self) -> SVector<T, D> {
        SVector::zeros()
    }
    #[inline]
    fn compose(&self, other: &Self) -> Self {
        Self(self.0 + other.0)
    }
    #[inline]
    fn inverse(&self) -> Self {
        Self(-self.0)
    }
    #[inline]
    fn exp(xi: &SVector<T, D>) -> Self {
        Self(*xi)
    }
    #[inline]
    fn log(&self) -> SVector<T, D> {
        self.0
    }
    #[inline]
    fn bracket(_x: &SVector<T, D>, _y: &SVector<T, D>) -> SVector<T, D> {
        SVector::zeros()
    }
    #[inline]
    fn adjoint(&self, xi: &SVector<T, D>) -> SVector<T, D> {
        *xi
    }
    #[inline]
    fn coadjoint(&self, mu: &SVector<T, D>) -> SVector<T, D> {
        *mu
    }
    #[inline]
    fn ad_star(_x: &SVector<T, D>, _mu: &SVector<T, D>) -> SVector<T, D> {
        SVector::zeros()
    }
    #[inline]
    fn dexp(_u: &SVector<T, D>, v: &SVector<T, D>) -> SVector<T, D> {
        *v
    }
    #[inline]
    fn dexpinv(_u: &SVector<T, D>, v: &SVector<T, D>) -> SVector<T, D> {
        *v
    }
    #[inline]
    fn all_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy, const D: usize> LieGroupInPlace for Rn<T, D> {
    #[inline(always)]
    fn exp_left_mul_assign(&mut self, xi: &SVector<T, D>) {
        self.0 += xi;
    }
    #[inline(always)]
    fn exp_right_mul_assign(&mut self, xi: &SVector<T, D>) {
        self.0 += xi;
    }
    #[inline(always)]
    fn dexpinv_into(_u: &SVector<T, D>, v: &SVector<T, D>, out: &mut SVector<T, D>) {
        *out = *v;
    }
}

impl<T: RealField + Copy, const D: usize> StaticLieGroup for Rn<T, D> {
    fn identity() -> Self {
        Self::identity()
    }
}

/// In the matrix representation `[[I, v], [0, 1]]` the generator is nilpotent, so
/// `cay(v) = I + v = exp(v)` and `dcay = dcay⁻¹ = id`.
impl<T: RealField + Copy, const D: usize> CayleyGroup for Rn<T, D> {
    #[inline]
    fn cay(xi: &SVector<T, D>) -> Self {
        Self(*xi)
    }
    #[inline]
    fn dcay(_u: &SVector<T, D>, v: &SVector<T, D>) -> SVector<T, D> {
        *v
    }
    #[inline]
    fn dcayinv(_u: &SVector<T, D>, w: &SVector<T, D>) -> SVector<T, D> {
        *w
    }
}
