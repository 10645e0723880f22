//! [`SphereSystem`] as a [`SphereLagrangian`], so that the variational integrator of
//! Lee, Leok and McClamroch [LLM09, §3] (`schemes::variational::SphereVariational`) runs on every
//! model of this crate; [`DiagonalSystem`] (diagonal inertia stored as N masses, e.g. the
//! large-N Lennard-Jones systems with a neighbour list) as well, always in the explicit form.

use crate::neighbours::DiagonalSystem;
use crate::potential::Potential;
use crate::system::SphereSystem;
use nalgebra::Vector3;
use schemes::SchemeError;
use schemes::variational::{SphereLagrangian, SphereVariational, VariationalScalar};

/// `L = ½ Σᵢⱼ Mᵢⱼ q̇ᵢ·q̇ⱼ − V(q)` with the system's inertia matrix and potential: `∂V/∂qᵢ` from
/// [`Potential::gradient`] (per-term num-dual gradients) and `∇²V·v` from
/// [`Potential::hessian_vector`] (per-term num-dual second derivatives, exact), so dual numbers
/// flowing through a variational step get exact derivatives.
impl<P: Potential> SphereLagrangian for SphereSystem<P> {
    fn bodies(&self) -> usize {
        SphereSystem::bodies(self)
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        SphereSystem::inertia(self)[(i, j)]
    }
    fn has_diagonal_inertia(&self) -> bool {
        SphereSystem::has_diagonal_inertia(self)
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        self.potential_energy(q)
    }
    fn potential_gradient(&self, q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) {
        SphereSystem::potential(self).gradient(q, grad);
    }
    fn hessian_vector(&self, q: &[Vector3<f64>], v: &[Vector3<f64>], out: &mut [Vector3<f64>]) {
        SphereSystem::potential(self).hessian_vector(q, v, out);
    }
}

impl<P: Potential> SphereSystem<P> {
    /// The variational integrator of [LLM09, §3] for this system: the explicit form
    /// (3.17)–(3.18) when the inertia matrix is diagonal, the implicit form (3.10)–(3.16)
    /// (Newton to round-off) otherwise. Borrows the system.
    ///
    /// # Errors
    /// Never for a validated system (kept as `Result` because the constructor checks its
    /// input).
    ///
    /// # Example
    /// ```
    /// use homogeneous::{TangentSphereAction, VecPowerAction};
    /// use models::{DoubleSphericalPendulum, LieField, SphereModel, SphereState};
    /// use schemes::{Options, Problem, integrate};
    /// let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    /// let sys = p.system();
    /// let x0 = DoubleSphericalPendulum::initial_state();
    /// let mut vi = sys.variational_integrator()?;
    /// // The field is ignored by the variational stepper; LieField makes the problem usable by
    /// // every other method too.
    /// let problem = Problem::new(VecPowerAction::new(TangentSphereAction::new()), LieField::new(sys));
    /// let sol = integrate(&problem, &mut vi, 0.0, x0.to_tangent_points(), 1.0, &Options::fixed(0.01))
    ///     .unwrap();
    /// let x1 = SphereState::from_tangent_points(sol.last().1);
    /// let (e0, e1) = (sys.energy(&x0.q, &x0.omega), sys.energy(&x1.q, &x1.omega));
    /// assert!((e1 - e0).abs() < 1e-3 * e0.abs());
    /// # Ok::<(), schemes::SchemeError>(())
    /// ```
    pub fn variational_integrator<T: VariationalScalar>(
        &self,
    ) -> Result<SphereVariational<&Self, T>, SchemeError> {
        if self.has_diagonal_inertia() {
            SphereVariational::explicit(self)
        } else {
            SphereVariational::implicit(self)
        }
    }
}

/// `L = ½ Σᵢ mᵢ |q̇ᵢ|² − V(q)`: the explicit variational integrator [LLM09, (3.17)–(3.18)] on
/// large systems (its diagonal-inertia path: O(N) work per step beyond the one gradient, which
/// for a [`NeighbourPotential`](crate::neighbours::NeighbourPotential) is O(N) too). Value and
/// Hessian–vector products come from the potential's own (reference) paths.
impl<P: Potential> SphereLagrangian for DiagonalSystem<P> {
    fn bodies(&self) -> usize {
        self.masses().len()
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        if i == j { self.masses()[i] } else { 0.0 }
    }
    fn has_diagonal_inertia(&self) -> bool {
        true
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        DiagonalSystem::potential(self).value(q)
    }
    fn potential_gradient(&self, q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) {
        DiagonalSystem::potential(self).gradient(q, grad);
    }
    fn hessian_vector(&self, q: &[Vector3<f64>], v: &[Vector3<f64>], out: &mut [Vector3<f64>]) {
        DiagonalSystem::potential(self).hessian_vector(q, v, out);
    }
}
