//! SO(3) acting on the unit sphere S² by rotation.

use crate::action::{Action, ActionInPlace};
use crate::rodrigues::rotate_exp;
use crate::sphere::Sphere2;
use core::fmt;
use core::marker::PhantomData;
use liegroup::So3;
use liegroup::angle::sinc_cosc;
use nalgebra::{RealField, Vector3};

/// SO(3) acting on S² by rotation: `R · q = R q`.
///
/// - **Generator**: `ξ_{S²}(q) = d/dt exp(tξ̂) q |₀ = ξ̂ q = ξ × q` (so(3) ≅ ℝ³,
///   `hat(v) b = v × b`, see `docs/notation.md`).
/// - **`act_exp`** applies Rodrigues' formula to `q` directly, without forming a matrix
///   \[HLW06, §IV.8.1\]: `exp(ξ̂) q = q + a ξ×q + b ξ×(ξ×q)` with `a = sin θ/θ`,
///   `b = (1 − cos θ)/θ²`, `θ = |ξ|`, from [`liegroup::angle::sinc_cosc`] (Taylor polynomials
///   in θ² for `θ < 1`, so dual-number derivatives survive at `ξ = 0`; the values of
///   [`So3::exp`](liegroup::LieGroup::exp)).
/// - The action is transitive; [`TransitiveAction::transporter`](crate::TransitiveAction)
///   returns the minimal rotation ([`minimal_rotation`](crate::minimal_rotation)).
///
/// A problem `q̇ = f(q) × q` (e.g. the free rigid body with `f(m) = −I⁻¹m` \[CO03\]) is the Lie
/// group vector field `f: S² → so(3)` with this action. Points are moved without projection:
/// the unit length is kept to round-off by the orthogonality of the rotation.
///
/// # Example
/// ```
/// use homogeneous::{Action, RotationAction, Sphere2};
/// use nalgebra::Vector3;
/// let action = RotationAction::<f64>::new();
/// let p = Sphere2::try_new(Vector3::x()).unwrap();
/// let xi = Vector3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2); // quarter turn about z
/// let q = action.act_exp(&xi, &p);
/// assert!((q.q() - Vector3::y()).norm() < 1e-15);
/// assert_eq!(action.generator(&xi, &p), xi.cross(&Vector3::x()));
/// ```
#[doc(alias = "SO(3) on S^2")]
pub struct RotationAction<T = f64>(PhantomData<fn() -> T>);

impl<T> RotationAction<T> {
    /// The action.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for RotationAction<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Clone for RotationAction<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for RotationAction<T> {}

impl<T> fmt::Debug for RotationAction<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RotationAction")
    }
}

impl<T: RealField + Copy> Action for RotationAction<T> {
    type Group = So3<T>;
    type Point = Sphere2<T>;
    type Tangent = Vector3<T>;

    #[inline]
    fn algebra_zero(&self, _p: &Sphere2<T>) -> nalgebra::Vector3<T> {
        nalgebra::Vector3::zeros()
    }

    /// `R q`.
    #[inline]
    fn act(&self, g: &So3<T>, p: &Sphere2<T>) -> Sphere2<T> {
        Sphere2::new_unchecked(g.rotate(p.q()))
    }

    /// `exp(ξ̂) q = q + a ξ×q + b ξ×(ξ×q)` (Rodrigues, no matrix).
    #[inline]
    fn act_exp(&self, xi: &Vector3<T>, p: &Sphere2<T>) -> Sphere2<T> {
        let (a, b) = sinc_cosc(xi.norm_squared());
        Sphere2::new_unchecked(rotate_exp(xi, a, b, p.q()))
    }

    /// `ξ × q`.
    #[inline]
    fn generator(&self, xi: &Vector3<T>, p: &Sphere2<T>) -> Vector3<T> {
        xi.cross(p.q())
    }

    #[inline]
    fn point_is_finite(&self, p: &Sphere2<T>) -> bool {
        p.q().iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> ActionInPlace for RotationAction<T> {}
