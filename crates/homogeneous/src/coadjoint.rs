//! Coadjoint actions `G × 𝔤* → 𝔤*`; Lie–Poisson systems as Lie group vector fields.

use crate::action::Action;
use crate::groups::{Se3, So3};
use core::fmt;
use core::marker::PhantomData;
use liegroup::{LieGroup, VectorSpace};
use num_traits::One;

/// The coadjoint action of any Lie group `G` on its dual algebra 𝔤* (dual coordinates, paired
/// with 𝔤 by the Euclidean product of coordinates, see `docs/notation.md`):
///
/// ```text
///     g · μ = Ad*_{g⁻¹} μ = (Ad_{g⁻¹})ᵀ μ            (LieGroup::coadjoint)
///     generator:  ξ_{𝔤*}(μ) = d/dt Ad*_{exp(−tξ)} μ |₀ = −ad*_ξ μ = −(ad_ξ)ᵀ μ
/// ```
///
/// The sign: `Ad_{exp(−tξ)} = exp(−t ad_ξ)`, so `d/dt (Ad_{exp(−tξ)})ᵀ μ |₀ = −(ad_ξ)ᵀ μ`; the
/// action kit checks it against difference quotients and dual numbers. The orbits are the
/// coadjoint orbits (level sets of the Casimirs); points are plain vectors `μ ∈ 𝔤*` (ambient
/// coordinates = the dual coordinates, no constraint), and the action keeps μ on its orbit to
/// round-off.
///
/// # SO(3) and SE(3)
/// - [`So3Coadjoint`]: `R · μ = R μ` on so(3)* ≅ ℝ³, generator `ξ × μ` (`ad*_ξ μ = μ × ξ`).
///   Casimir `|μ|²`. The free rigid body in body momenta,
///   `Π̇ = Π × Ω` with `Ω = I⁻¹Π`, is `f(Π) = −I⁻¹Π` with this action.
/// - [`Se3Coadjoint`]: on se(3)* ≅ ℝ⁶ with μ = (μ_A, μ_a) (rotation first),
///   `(R, t) · (μ_A, μ_a) = (R μ_A + t × R μ_a, R μ_a)`; generator
///   `−ad*_(u,v)(μ_A, μ_a) = (u × μ_A + v × μ_a, u × μ_a)`; Casimirs `|μ_a|²` and `μ_A·μ_a`.
///
/// # Lie–Poisson systems: the heavy top
/// A Lie–Poisson system `μ̇ = ad*_{∂H/∂μ} μ` on 𝔤* (left-reduced, body frame)
/// [HLW06, §VII.5], [CCLMO22, §3] is the Lie group vector field
///
/// ```text
///     f(μ) = −∂H/∂μ   with the coadjoint action:   f(μ)_{𝔤*}(μ) = −ad*_{−∂H/∂μ} μ = ad*_{∂H/∂μ} μ.
/// ```
///
/// The heavy top [CCLMO22, §3.4], [BC10] on se(3)* has μ = (Π, Γ) (body angular momentum,
/// direction of gravity in the body frame `Γ = Rᵀe₃`), `H(Π, Γ) = ½ Π·J⁻¹Π + m g Γ·χ` (J the
/// inertia about the fixed point, χ the body centre of mass), so
/// `f(Π, Γ) = −(J⁻¹Π, m g χ)` and the generator gives
/// `Π̇ = Π × Ω + m g Γ × χ`, `Γ̇ = Γ × Ω` with `Ω = J⁻¹Π`; `|Γ|² = 1` and `Π·Γ` are Casimirs,
/// preserved to round-off by every Lie group integrator with this action.
///
/// # Example
/// ```
/// use homogeneous::{Action, So3Coadjoint};
/// use nalgebra::Vector3;
/// // Free rigid body: Π̇ = Π × I⁻¹Π as f(Π) = −I⁻¹Π.
/// let inertia = Vector3::new(1.0, 2.0, 3.0);
/// let action = So3Coadjoint::<f64>::new();
/// let pi = Vector3::new(1.0, 1.0, 1.0);
/// let f = -pi.component_div(&inertia);
/// let dpi = action.generator(&f, &pi);
/// assert!((dpi - pi.cross(&pi.component_div(&inertia))).norm() < 1e-15);
/// ```
#[doc(alias = "coadjoint orbit")]
pub struct CoadjointAction<G>(PhantomData<fn() -> G>);

/// SO(3) acting on so(3)* ≅ ℝ³ by `R · μ = R μ` (see [`CoadjointAction`]).
pub type So3Coadjoint<T = f64> = CoadjointAction<So3<T>>;

/// SE(3) acting on se(3)* ≅ ℝ⁶ (rotation first) by
/// `(R, t) · (μ_A, μ_a) = (R μ_A + t × R μ_a, R μ_a)` (see [`CoadjointAction`]).
pub type Se3Coadjoint<T = f64> = CoadjointAction<Se3<T>>;

impl<G> CoadjointAction<G> {
    /// The action.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<G> Default for CoadjointAction<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G> Clone for CoadjointAction<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for CoadjointAction<G> {}

impl<G> fmt::Debug for CoadjointAction<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CoadjointAction<{}>", core::any::type_name::<G>())
    }
}

impl<G: LieGroup> Action for CoadjointAction<G> {
    type Group = G;
    type Point = G::Algebra;
    type Tangent = G::Algebra;

    /// `Ad*_{g⁻¹} μ` ([`LieGroup::coadjoint`]).
    #[inline]
    fn act(&self, g: &G, mu: &G::Algebra) -> G::Algebra {
        g.coadjoint(mu)
    }

    /// `−ad*_ξ μ` ([`LieGroup::ad_star`]).
    #[inline]
    fn generator(&self, xi: &G::Algebra, mu: &G::Algebra) -> G::Algebra {
        G::ad_star(xi, mu).scaled(-G::Scalar::one())
    }

    #[inline]
    fn point_is_finite(&self, mu: &G::Algebra) -> bool {
        mu.all_finite()
    }
}
