//! One explicit variational step [LLM09, eqs. (3.17)–(3.18)] for diagonal inertia, written here
//! for the benchmarks until the variational integrator of the `schemes` crate lands.
#![allow(dead_code)]

use models::Potential;
use nalgebra::Vector3;

/// One explicit variational step [LLM09, eqs. (3.17)–(3.18)] for `M = diag(mᵢ)` (written here
/// until the variational integrator lands): with `gᵢ = ∂V/∂qᵢ(q)` carried from the previous
/// step, `aᵢ = hωᵢ − (h²/2mᵢ) qᵢ × gᵢ`, `qᵢ′ = aᵢ × qᵢ + √(1 − |aᵢ|²) qᵢ`, `g′ = ∇V(q′)`,
/// `ωᵢ′ = ωᵢ − (h/2mᵢ)(qᵢ × gᵢ + qᵢ′ × gᵢ′)`: one gradient per step.
pub struct ExplicitVariational {
    pub q: Vec<Vector3<f64>>,
    pub omega: Vec<Vector3<f64>>,
    grad: Vec<Vector3<f64>>,
    q_new: Vec<Vector3<f64>>,
    grad_new: Vec<Vector3<f64>>,
}

impl ExplicitVariational {
    pub fn new<P: Potential>(pot: &P, q: Vec<Vector3<f64>>, omega: Vec<Vector3<f64>>) -> Self {
        let n = q.len();
        let mut grad = vec![Vector3::zeros(); n];
        pot.gradient(&q, &mut grad);
        Self {
            q_new: q.clone(),
            q,
            omega,
            grad,
            grad_new: vec![Vector3::zeros(); n],
        }
    }
    pub fn step<P: Potential>(&mut self, pot: &P, masses: &[f64], h: f64) {
        for i in 0..self.q.len() {
            let (qi, gi) = (self.q[i], self.grad[i]);
            let a = self.omega[i] * h - qi.cross(&gi) * (0.5 * h * h / masses[i]);
            self.q_new[i] = a.cross(&qi) + qi * (1.0 - a.norm_squared()).sqrt();
        }
        pot.gradient(&self.q_new, &mut self.grad_new);
        for i in 0..self.q.len() {
            let k = 0.5 * h / masses[i];
            self.omega[i] -=
                (self.q[i].cross(&self.grad[i]) + self.q_new[i].cross(&self.grad_new[i])) * k;
        }
        core::mem::swap(&mut self.q, &mut self.q_new);
        core::mem::swap(&mut self.grad, &mut self.grad_new);
    }
}
