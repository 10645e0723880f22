//! A group acting on itself by left multiplication.

use crate::action::{Action, ActionInPlace};
use core::marker::PhantomData;
use liegroup::LieGroupInPlace;

/// The action of `G` on itself by left multiplication, `g · p = g p`.
///
/// Its generator is `ξ_G(p) = ξ·p`, represented by the right-trivialized algebra element `ξ`
/// itself. With this action an ODE on the group is `ṗ = f(t, p)·p`, the setting of \[MK98\].
///
/// # Example
/// ```
/// use homogeneous::{Action, LeftMultiplication};
/// use liegroup::{LieGroup, Rn};
/// use nalgebra::Vector2;
/// let action = LeftMultiplication::<Rn<f64, 2>>::new();
/// let p = Rn::new(Vector2::new(1.0, 1.0));
/// let q = action.act_exp(&Vector2::new(0.5, 0.0), &p);
/// assert_eq!(q.0, Vector2::new(1.5, 1.0));
/// ```
#[derive(Debug)]
pub struct LeftMultiplication<G>(PhantomData<fn() -> G>);

impl<G> LeftMultiplication<G> {
    /// The action.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<G> Default for LeftMultiplication<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G> Clone for LeftMultiplication<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for LeftMultiplication<G> {}

impl<G: LieGroupInPlace> Action for LeftMultiplication<G> {
    type Group = G;
    type Point = G;
    type Tangent = G::Algebra;

    #[inline]
    fn act(&self, g: &G, p: &G) -> G {
        g.compose(p)
    }

    #[inline]
    fn algebra_zero(&self, p: &G) -> G::Algebra {
        p.algebra_zero()
    }

    #[inline(always)]
    fn act_exp(&self, xi: &G::Algebra, p: &G) -> G {
        let mut q = p.clone();
        q.exp_left_mul_assign(xi);
        q
    }

    #[inline]
    fn generator(&self, xi: &G::Algebra, _p: &G) -> G::Algebra {
        xi.clone()
    }

    #[inline]
    fn point_is_finite(&self, p: &G) -> bool {
        p.all_finite()
    }
}

impl<G: LieGroupInPlace> ActionInPlace for LeftMultiplication<G> {
    #[inline(always)]
    fn act_exp_assign(&self, xi: &G::Algebra, p: &mut G) {
        p.exp_left_mul_assign(xi);
    }
}
