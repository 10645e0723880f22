//! Coadjoint actions `G × 𝔤* → 𝔤*`; Lie–Poisson systems as Lie group vector fields.

use crate::action::{Action, ActionInPlace};
use core::fmt;
use core::marker::PhantomData;
use liegroup::{LieGroup, LieGroupInPlace, VectorSpace};
use liegroup::{Se3, So3};
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
/// \[HLW06, §VII.5\], \[CCLMO22, §3\] is the Lie group vector field
///
/// ```text
///     f(μ) = −∂H/∂μ   with the coadjoint action:   f(μ)_{𝔤*}(μ) = −ad*_{−∂H/∂μ} μ = ad*_{∂H/∂μ} μ.
/// ```
///
/// The heavy top \[CCLMO22, §3.4\], \[BC10\] on se(3)* has μ = (Π, Γ) (body angular momentum,
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

    #[inline]
    fn algebra_zero(&self, mu: &G::Algebra) -> G::Algebra {
        mu.zero_like()
    }

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

impl<G: LieGroupInPlace> ActionInPlace for CoadjointAction<G> {}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Vector3, Vector6};

    fn split(x: &Vector6<f64>) -> (Vector3<f64>, Vector3<f64>) {
        (
            x.fixed_rows::<3>(0).into_owned(),
            x.fixed_rows::<3>(3).into_owned(),
        )
    }

    fn se3(w: Vector3<f64>, t: Vector3<f64>) -> Se3 {
        Se3::from_parts(So3::exp(&w), t)
    }

    #[test]
    fn so3_coadjoint_is_rotation() {
        let r = So3::exp(&Vector3::new(0.3, -1.2, 0.7));
        let mu = Vector3::new(1.0, -2.0, 0.5);
        let out = So3Coadjoint::<f64>::new().act(&r, &mu);
        assert!((out - r.rotate(&mu)).norm() < 1e-15);
        let xi = Vector3::new(0.2, 0.1, -0.4);
        assert!((So3Coadjoint::<f64>::new().generator(&xi, &mu) - xi.cross(&mu)).norm() < 1e-16);
    }

    #[test]
    fn se3_coadjoint_explicit_formula_and_casimirs() {
        let g = se3(Vector3::new(0.3, -1.2, 0.7), Vector3::new(1.0, 2.0, -0.5));
        let mu = Vector6::new(1.0, -2.0, 0.5, 0.3, 0.8, -1.1);
        let (ma, mb) = split(&mu);
        let out = Se3Coadjoint::<f64>::new().act(&g, &mu);
        let (oa, ob) = split(&out);
        let r = g.rotation();
        let rb = r.rotate(&mb);
        assert!((oa - (r.rotate(&ma) + g.translation().cross(&rb))).norm() < 1e-14);
        assert!((ob - rb).norm() < 1e-15);
        // Casimirs |μ_a|² and μ_A·μ_a.
        assert!((ob.norm_squared() - mb.norm_squared()).abs() < 1e-14);
        assert!((oa.dot(&ob) - ma.dot(&mb)).abs() < 1e-14);
        // Pairing: ⟨coadjoint(g, μ), Ad_g ξ⟩ = ⟨μ, ξ⟩.
        let xi = Vector6::new(0.4, 0.1, -0.3, 2.0, -1.0, 0.5);
        assert!((out.dot(&g.adjoint(&xi)) - mu.dot(&xi)).abs() < 1e-13);
    }

    #[test]
    fn heavy_top_is_the_lie_poisson_system() {
        // μ = (Π, Γ), H = ½ Π·J⁻¹Π + m g Γ·χ, f(μ) = −∂H/∂μ = −(J⁻¹Π, m g χ).
        let j = Vector3::new(15.234375, 0.46875, 15.234375);
        let (m, grav, chi) = (15.0, 9.81, Vector3::new(0.0, 1.0, 0.0));
        let pi = Vector3::new(0.3, 150.0 * 0.46875, -4.61538 * 15.234375);
        let gamma = Vector3::new(0.1, -0.2, 0.97);
        let mu = Vector6::new(pi.x, pi.y, pi.z, gamma.x, gamma.y, gamma.z);
        let omega = pi.component_div(&j);
        let grad = Vector6::new(omega.x, omega.y, omega.z, 0.0, 0.0, 0.0)
            + Vector6::new(0.0, 0.0, 0.0, chi.x, chi.y, chi.z) * (m * grav);
        let f = -grad;
        let rate = Se3Coadjoint::<f64>::new().generator(&f, &mu);
        let (dpi, dgamma) = split(&rate);
        let expected_dpi = pi.cross(&omega) + gamma.cross(&chi) * (m * grav);
        let expected_dgamma = gamma.cross(&omega);
        assert!((dpi - expected_dpi).norm() < 1e-10 * expected_dpi.norm());
        assert!((dgamma - expected_dgamma).norm() < 1e-13 * expected_dgamma.norm());
        // The energy is conserved by the flow: dH = ⟨∂H/∂μ, μ̇⟩ = 0.
        assert!(grad.dot(&rate).abs() < 1e-10 * grad.norm() * rate.norm());
    }
}
