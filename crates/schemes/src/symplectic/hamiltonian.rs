//! Hamiltonians on the right-trivialized cotangent bundle and their Hamiltonian vector fields.

use super::cotangent::CotangentPoint;
use homogeneous::LieVectorField;
use liegroup::{LieGroup, VectorSpace};
use num_traits::One;

/// A Hamiltonian `H: T*G ≅ G × 𝔤* → ℝ` given by the two partial derivatives the symplectic
/// integrators need (`docs/symplectic.md` §2, eqs. (S5)–(S6)):
///
/// - [`dh_dmu`](CotangentHamiltonian::dh_dmu): `∂H/∂μ (g, μ) ∈ 𝔤`, the right-trivialized
///   velocity `ġ g⁻¹` (for a rigid body the spatial angular velocity `ω = R I⁻¹ Rᵀ π`);
/// - [`dh_dg`](CotangentHamiltonian::dh_dg): the right-trivialized configuration derivative
///   `ν(g, μ) ∈ 𝔤*`, `⟨ν, ζ⟩ = d/dε H(exp(εζ) g, μ)|_{ε=0}` for every `ζ ∈ 𝔤`.
///
/// Hamilton's equations are then `ġ = (∂H/∂μ) g`, `μ̇ = −ν − ad*_{∂H/∂μ} μ` (eq. (S6)).
///
/// Implement it generically over the scalar (`impl<T: RealField + Copy> …<So3<T>>`) to get
/// dual-number derivatives of whole steps (e.g. symplecticity checks).
///
/// # Example
/// The pendulum `H = p²/2 − cos q` on `T*ℝ`:
/// ```
/// use liegroup::Rn;
/// use nalgebra::Vector1;
/// use schemes::symplectic::CotangentHamiltonian;
/// struct Pendulum;
/// impl CotangentHamiltonian<Rn<f64, 1>> for Pendulum {
///     fn energy(&self, q: &Rn<f64, 1>, p: &Vector1<f64>) -> f64 { 0.5 * p[0] * p[0] - q.0[0].cos() }
///     fn dh_dmu(&self, _q: &Rn<f64, 1>, p: &Vector1<f64>) -> Vector1<f64> { *p }
///     fn dh_dg(&self, q: &Rn<f64, 1>, _p: &Vector1<f64>) -> Vector1<f64> { Vector1::new(q.0[0].sin()) }
/// }
/// # let _ = Pendulum;
/// ```
pub trait CotangentHamiltonian<G: LieGroup> {
    /// `H(g, μ)`.
    fn energy(&self, g: &G, mu: &G::Algebra) -> G::Scalar;
    /// `∂H/∂μ (g, μ) ∈ 𝔤`.
    fn dh_dmu(&self, g: &G, mu: &G::Algebra) -> G::Algebra;
    /// `ν(g, μ) ∈ 𝔤*` with `⟨ν, ζ⟩ = d/dε H(exp(εζ) g, μ)|₀` (right-trivialized `∂H/∂g`).
    fn dh_dg(&self, g: &G, mu: &G::Algebra) -> G::Algebra;
}

impl<G: LieGroup, H: CotangentHamiltonian<G>> CotangentHamiltonian<G> for &H {
    fn energy(&self, g: &G, mu: &G::Algebra) -> G::Scalar {
        (**self).energy(g, mu)
    }
    fn dh_dmu(&self, g: &G, mu: &G::Algebra) -> G::Algebra {
        (**self).dh_dmu(g, mu)
    }
    fn dh_dg(&self, g: &G, mu: &G::Algebra) -> G::Algebra {
        (**self).dh_dg(g, mu)
    }
}

/// The Hamiltonian vector field of `H` on `T*G` as a Lie group vector field for
/// [`CotangentAction`](super::CotangentAction) (`docs/symplectic.md`, eq. (S7); the map `f` of
/// [CCLMO22, eq. (14)]):
///
/// ```text
///   f(g, μ) = (∂H/∂μ(g, μ), −ν(g, μ)) ∈ 𝔤 ⋉ 𝔤*,     X_H(g, μ) = f(g, μ)·(g, μ).
/// ```
///
/// With it, every Lie group integrator of the crate (RKMK, commutator-free, …) integrates
/// Hamilton's equations on `T*G`; those methods are not symplectic, but they serve as reference
/// solutions. The symplectic steppers of this module ignore the field they are given and
/// evaluate their own Hamiltonian, so the same [`Problem`](crate::Problem) serves both.
///
/// # Example
/// ```
/// use homogeneous::LieVectorField;
/// use liegroup::{LieGroup, So3};
/// use nalgebra::Vector3;
/// use schemes::symplectic::{CotangentPoint, HamiltonianVectorField, RigidBody};
/// let body = RigidBody::free(Vector3::new(1.0, 2.0, 3.0)).unwrap();
/// let field = HamiltonianVectorField(body);
/// let y = CotangentPoint::new(So3::identity(), Vector3::new(1.0, 1.0, 1.0));
/// let mut out = (Vector3::zeros(), Vector3::zeros());
/// field.eval(0.0, &y, &mut out);
/// // ω = I⁻¹π at R = I; the free body conserves π: −ν − ad*_ω π = −ω×π − π×ω = 0.
/// assert!((out.0 - Vector3::new(1.0, 0.5, 1.0 / 3.0)).norm() < 1e-15);
/// ```
#[derive(Clone, Debug)]
pub struct HamiltonianVectorField<H>(pub H);

impl<G, H> LieVectorField<G::Scalar, CotangentPoint<G>, (G::Algebra, G::Algebra)>
    for HamiltonianVectorField<H>
where
    G: LieGroup,
    H: CotangentHamiltonian<G>,
{
    fn eval(&self, _t: G::Scalar, p: &CotangentPoint<G>, out: &mut (G::Algebra, G::Algebra)) {
        out.0 = self.0.dh_dmu(&p.g, &p.mu);
        let mut nu = self.0.dh_dg(&p.g, &p.mu);
        nu.scale_by(-G::Scalar::one());
        out.1 = nu;
    }
}
