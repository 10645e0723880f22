//! The heavy top as a canonical system with a quadratic Hamiltonian on the larger group
//! `T*SE(3)` ([CCLMO22, §3.4.3, eqs. (25)–(32)]; after \[Holm08, §8.5\]).
//!
//! The formulas of eqs. (25)–(32) are lost in our text copy of [CCLMO22]; the text says that the
//! constant vector `e₃` is turned into a momentum `p` conjugate to a position `y ∈ ℝ³`, that the
//! Hamiltonian is quadratic in `(Π, Q, p)` and left-invariant, and that the equations are
//! canonical on `T*G`, `G = SO(3) ⋉ ℝ³`. The equations below are reconstructed from that
//! description and derived in `docs/symplectic.md` §3.4.

use super::cotangent::CotangentPoint;
use super::hamiltonian::CotangentHamiltonian;
use super::rigid_body::HeavyTop;
use liegroup::scalar::c;
use liegroup::{Se3, So3};
use nalgebra::{RealField, Vector3, Vector6};

/// The heavy top on `T*SE(3) ≅ SE(3) × se(3)*` with the quadratic Hamiltonian of
/// [CCLMO22, §3.4.3] (the formulation integrated by "SLGIKK" in its §3.4.4).
///
/// A point is `g = (Q, y) ∈ SE(3)` (product `(Q₁, y₁)(Q₂, y₂) = (Q₁Q₂, y₁ + Q₁y₂)`) and the
/// right-trivialized momentum `μ = (μ_A, μ_a) ∈ se(3)*`, rotation first. The canonical momenta
/// are `p = μ_a` (conjugate to `y`) and the spatial angular momentum `π = μ_A − y × μ_a`
/// (`docs/symplectic.md` §3.4). With body momentum `Π = Qᵀπ`, inertia `I` about the fixed
/// point, mass `m`, gravity `g` and body centre of mass `X`:
///
/// ```text
///   H(Q, y, μ) = ½ Πᵀ I⁻¹ Π + m g pᵀ Q X,
///   ∂H/∂μ = (ω, m g Q X − ω × y),                       ω = Q I⁻¹ Qᵀ π,
///   ν     = (ω × π + y × (ω × p) + m g (Q X) × p,  ω × p),
/// ```
///
/// so Hamilton's equations are (our reading of [CCLMO22, eqs. (29)–(32)])
///
/// ```text
///   Q̇ = ω̂ Q,   π̇ = m g p × (Q X),   ẏ = m g Q X,   ṗ = 0.
/// ```
///
/// With `p = e₃` these are the heavy-top equations in spatial momentum [CCLMO22, eqs. (21)–(22)]
/// plus the cyclic coordinate `y` (which `H` does not depend on). `H` is invariant under left
/// multiplication by `SE(3)`, so the whole right-trivialized momentum `μ` is a constant of motion
/// (its translational part is `p = e₃`; `e₃·μ_A = e₃·π` is the vertical angular momentum), and
/// the θ-method ([`ThetaMethod`](super::ThetaMethod)) keeps it to round-off.
///
/// # Example
/// ```
/// use schemes::symplectic::{HeavyTopLargerGroup, RigidBody, ThetaMethod};
/// let top = RigidBody::heavy_top_bc10();
/// let big = HeavyTopLargerGroup::new(&top);
/// let y0 = RigidBody::heavy_top_bc10_initial();
/// let z0 = HeavyTopLargerGroup::lift(&y0);
/// let mut slgikk = ThetaMethod::midpoint(big.clone());
/// let z1 = slgikk.advance(0.0, &z0, 1e-3).unwrap();
/// // The momentum μ is conserved exactly (left invariance of H).
/// assert!((z1.mu - z0.mu).amax() < 1e-12 * z0.mu.amax());
/// assert!((big.energy(&z1) - top.energy(&y0)).abs() < 1e-3 * top.energy(&y0).abs());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct HeavyTopLargerGroup {
    inertia: Vector3<f64>,
    weight: f64,
    center_of_mass: Vector3<f64>,
}

impl HeavyTopLargerGroup {
    /// The larger-group formulation of the heavy top `top` (same inertia, `m g` and `X`).
    #[must_use]
    pub fn new(top: &HeavyTop) -> Self {
        let gravity = top.potential();
        Self {
            inertia: top.inertia(),
            weight: gravity.mass() * gravity.gravity(),
            center_of_mass: gravity.center_of_mass(),
        }
    }

    /// The point of `T*SE(3)` of a heavy-top state `(R, π)`: `Q = R`, `y = 0`,
    /// `μ = (π, e₃)` (so `p = e₃`).
    #[must_use]
    pub fn lift<T: RealField + Copy>(state: &CotangentPoint<So3<T>>) -> CotangentPoint<Se3<T>> {
        let mu = Vector6::new(
            state.mu[0],
            state.mu[1],
            state.mu[2],
            T::zero(),
            T::zero(),
            T::one(),
        );
        CotangentPoint::new(Se3::from_parts(state.g, Vector3::zeros()), mu)
    }

    /// The heavy-top state `(R, π) = (Q, μ_A − y × μ_a)` of a point of `T*SE(3)`.
    #[must_use]
    pub fn project<T: RealField + Copy>(point: &CotangentPoint<Se3<T>>) -> CotangentPoint<So3<T>> {
        let (_, pi) = Self::momenta(point);
        CotangentPoint::new(*point.g.rotation(), pi)
    }

    /// The canonical momenta `(p, π) = (μ_a, μ_A − y × μ_a)` of a point.
    #[must_use]
    pub fn momenta<T: RealField + Copy>(
        point: &CotangentPoint<Se3<T>>,
    ) -> (Vector3<T>, Vector3<T>) {
        split(&point.g, &point.mu)
    }

    /// `H` at a point (see the type's documentation).
    #[must_use]
    pub fn energy<T: RealField + Copy>(&self, point: &CotangentPoint<Se3<T>>) -> T {
        CotangentHamiltonian::<Se3<T>>::energy(self, &point.g, &point.mu)
    }

    /// `ω = Q I⁻¹ Qᵀ π`.
    fn omega<T: RealField + Copy>(&self, q: &So3<T>, pi: &Vector3<T>) -> Vector3<T> {
        q.rotate(&q.inverse_rotate(pi).component_div(&self.inertia.cast()))
    }
}

/// `(p, π) = (μ_a, μ_A − y × μ_a)`.
fn split<T: RealField + Copy>(g: &Se3<T>, mu: &Vector6<T>) -> (Vector3<T>, Vector3<T>) {
    let p = Vector3::new(mu[3], mu[4], mu[5]);
    let pi = Vector3::new(mu[0], mu[1], mu[2]) - g.translation().cross(&p);
    (p, pi)
}

fn join<T: RealField + Copy>(a: &Vector3<T>, b: &Vector3<T>) -> Vector6<T> {
    Vector6::new(a[0], a[1], a[2], b[0], b[1], b[2])
}

impl<T: RealField + Copy> CotangentHamiltonian<Se3<T>> for HeavyTopLargerGroup {
    fn energy(&self, g: &Se3<T>, mu: &Vector6<T>) -> T {
        let (p, pi) = split(g, mu);
        let body = g.rotation().inverse_rotate(&pi);
        let kinetic = c::<T>(0.5) * body.dot(&body.component_div(&self.inertia.cast()));
        let lever = g.rotation().rotate(&self.center_of_mass.cast());
        kinetic + c::<T>(self.weight) * p.dot(&lever)
    }

    fn dh_dmu(&self, g: &Se3<T>, mu: &Vector6<T>) -> Vector6<T> {
        let (_, pi) = split(g, mu);
        let omega = self.omega(g.rotation(), &pi);
        let lever = g.rotation().rotate(&self.center_of_mass.cast());
        join(
            &omega,
            &(lever * c::<T>(self.weight) - omega.cross(g.translation())),
        )
    }

    fn dh_dg(&self, g: &Se3<T>, mu: &Vector6<T>) -> Vector6<T> {
        let (p, pi) = split(g, mu);
        let omega = self.omega(g.rotation(), &pi);
        let lever = g.rotation().rotate(&self.center_of_mass.cast());
        let wp = omega.cross(&p);
        let rot =
            omega.cross(&pi) + g.translation().cross(&wp) + lever.cross(&p) * c::<T>(self.weight);
        join(&rot, &wp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use liegroup::LieGroup;

    fn point() -> CotangentPoint<Se3<f64>> {
        CotangentPoint::new(
            Se3::exp(&Vector6::new(0.3, -0.2, 0.5, 0.4, 0.1, -0.7)),
            Vector6::new(1.0, -2.0, 0.5, 0.3, -0.4, 0.9),
        )
    }

    /// `⟨ν, ζ⟩ = d/dε H(exp(εζ) g, μ)` and `⟨δ, ∂H/∂μ⟩ = d/dε H(g, μ + εδ)` by central
    /// differences (error O(ε²) ≈ 1e-10 relative).
    #[test]
    fn derivatives_match_finite_differences() {
        let h = HeavyTopLargerGroup::new(&HeavyTop::heavy_top_bc10());
        let y = point();
        let nu = CotangentHamiltonian::<Se3>::dh_dg(&h, &y.g, &y.mu);
        let w = CotangentHamiltonian::<Se3>::dh_dmu(&h, &y.g, &y.mu);
        let eps = 1e-5;
        for i in 0..6 {
            let mut e = Vector6::zeros();
            e[i] = eps;
            let plus = CotangentHamiltonian::<Se3>::energy(&h, &Se3::exp(&e).compose(&y.g), &y.mu);
            let minus =
                CotangentHamiltonian::<Se3>::energy(&h, &Se3::exp(&-e).compose(&y.g), &y.mu);
            let fd = (plus - minus) / (2.0 * eps);
            assert!(
                (fd - nu[i]).abs() < 1e-7 * nu.amax(),
                "ν[{i}]: {fd} vs {}",
                nu[i]
            );
            let plus = CotangentHamiltonian::<Se3>::energy(&h, &y.g, &(y.mu + e));
            let minus = CotangentHamiltonian::<Se3>::energy(&h, &y.g, &(y.mu - e));
            let fd = (plus - minus) / (2.0 * eps);
            assert!(
                (fd - w[i]).abs() < 1e-7 * w.amax(),
                "∂H/∂μ[{i}]: {fd} vs {}",
                w[i]
            );
        }
    }

    /// `lift` then `project` is the identity, and `H` equals the heavy-top energy on the lift.
    #[test]
    fn lift_is_consistent_with_the_heavy_top() {
        let top = HeavyTop::heavy_top_bc10();
        let y = CotangentPoint::new(
            So3::exp(&Vector3::new(0.2, 0.7, -0.3)),
            Vector3::new(3.0, -1.0, 2.0),
        );
        let z = HeavyTopLargerGroup::lift(&y);
        let back = HeavyTopLargerGroup::project(&z);
        assert_eq!(back.mu, y.mu);
        let big = HeavyTopLargerGroup::new(&top);
        let (e1, e2): (f64, f64) = (big.energy(&z), top.energy(&y));
        assert!((e1 - e2).abs() <= 8.0 * f64::EPSILON * e2.abs());
    }
}
