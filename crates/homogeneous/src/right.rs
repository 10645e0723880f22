//! A group acting on itself by right multiplication with the inverse: body-frame equations.

use crate::action::{Action, ActionInPlace};
use core::marker::PhantomData;
use liegroup::{LieGroupInPlace, VectorSpace};
use num_traits::One;

/// The action of `G` on itself by right multiplication with the inverse, `g · p = p g⁻¹`: a
/// left action (`g · (h · p) = p h⁻¹ g⁻¹ = (gh) · p`), whose one-parameter orbits are
/// `t ↦ p exp(−tξ)`.
///
/// This is the action for **left-trivialized** equations `ṗ = p·Ω(t, p)` — rigid bodies and
/// other mechanical systems written with body-frame velocities. Every scheme of the `schemes`
/// crate integrates them unchanged, with the field
///
/// ```text
///   f(t, p) = −Ω(t, p)        (so that the generator −p·f = p·Ω),
/// ```
///
/// and its stage points are `p₀ exp(−u)` ([`LieGroupInPlace::exp_right_mul_assign`](liegroup::LieGroupInPlace::exp_right_mul_assign)). Compared with
/// the same equation written for [`LeftMultiplication`](crate::LeftMultiplication)
/// (`ṗ = (Ad_p Ω)·p`), the field needs no `Ad_p` (for a rigid body: no rotation of the body
/// angular velocity into space), so that each stage waits for one exponential less.
///
/// The generator is returned in the right-trivialized form used for group points throughout
/// (the tangent of [`LeftMultiplication`](crate::LeftMultiplication)): `ξ_G(p) = −Ad_p ξ`,
/// since `p exp(−tξ) = exp(−t Ad_p ξ) p`.
///
/// On a runtime power (`Vec<G>`) [`act_exp`](Action::act_exp) allocates the negated algebra
/// element; on fixed-size groups nothing is allocated.
///
/// # Example
/// ```
/// use homogeneous::{Action, RightMultiplication};
/// use liegroup::{LieGroup, So3};
/// use nalgebra::Vector3;
/// let action = RightMultiplication::<So3>::new();
/// let (p, omega) = (So3::exp(&Vector3::new(0.3, -0.2, 0.5)), Vector3::new(0.0, 0.0, 0.1));
/// // The field −Ω moves p to p·exp(Ω).
/// let q = action.act_exp(&-omega, &p);
/// assert!((q.matrix() - p.compose(&So3::exp(&omega)).matrix()).norm() < 1e-15);
/// ```
#[derive(Debug)]
pub struct RightMultiplication<G>(PhantomData<fn() -> G>);

impl<G> RightMultiplication<G> {
    /// The action.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<G> Default for RightMultiplication<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G> Clone for RightMultiplication<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for RightMultiplication<G> {}

impl<G: LieGroupInPlace> Action for RightMultiplication<G> {
    type Group = G;
    type Point = G;
    type Tangent = G::Algebra;

    /// `p g⁻¹`.
    #[inline]
    fn act(&self, g: &G, p: &G) -> G {
        p.compose(&g.inverse())
    }

    #[inline]
    fn algebra_zero(&self, p: &G) -> G::Algebra {
        p.algebra_zero()
    }

    /// `p exp(−ξ)`.
    #[inline(always)]
    fn act_exp(&self, xi: &G::Algebra, p: &G) -> G {
        let mut q = p.clone();
        q.exp_right_mul_assign(&xi.scaled(-G::Scalar::one()));
        q
    }

    /// `−Ad_p ξ` (right-trivialized: `d/dt p exp(−tξ) = (−Ad_p ξ)·p` at `t = 0`).
    #[inline]
    fn generator(&self, xi: &G::Algebra, p: &G) -> G::Algebra {
        p.adjoint(xi).scaled(-G::Scalar::one())
    }

    #[inline]
    fn point_is_finite(&self, p: &G) -> bool {
        p.all_finite()
    }
}

impl<G: LieGroupInPlace> ActionInPlace for RightMultiplication<G> {
    /// `p ← p exp(−ξ)`.
    #[inline(always)]
    fn act_exp_assign(&self, xi: &G::Algebra, p: &mut G) {
        p.exp_right_mul_assign(&xi.scaled(-G::Scalar::one()));
    }
}
