//! The lift of the (S²)ⁿ systems to SO(3)ⁿ for [`schemes::nonholonomic::Vprkmk`].

use crate::potential::Potential;
use crate::system::SphereSystem;
use nalgebra::Vector3;
use schemes::nonholonomic::SphereLagrangian;

/// `L = ½ Σ Mᵢⱼ q̇ᵢ·q̇ⱼ − V(q)` of a [`SphereSystem`] (eq. (H1) of
/// [`schemes::nonholonomic::Vprkmk`]).
impl<P: Potential> SphereLagrangian for SphereSystem<P> {
    fn bodies(&self) -> usize {
        SphereSystem::bodies(self)
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        SphereSystem::inertia(self)[(i, j)]
    }
    fn potential(&self, x: &[Vector3<f64>]) -> f64 {
        self.potential_energy(x)
    }
    fn potential_gradient(&self, x: &[Vector3<f64>], grad: &mut [Vector3<f64>]) {
        SphereSystem::potential(self).gradient(x, grad);
    }
}
