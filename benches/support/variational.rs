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
        for (((qn, qi), (gi, wi)), mi) in self
            .q_new
            .iter_mut()
            .zip(&self.q)
            .zip(self.grad.iter().zip(&self.omega))
            .zip(masses)
        {
            let a = wi * h - qi.cross(gi) * (0.5 * h * h / mi);
            *qn = a.cross(qi) + qi * (1.0 - a.norm_squared()).sqrt();
        }
        pot.gradient(&self.q_new, &mut self.grad_new);
        for ((wi, mi), ((qi, gi), (qn, gn))) in self.omega.iter_mut().zip(masses).zip(
            self.q
                .iter()
                .zip(&self.grad)
                .zip(self.q_new.iter().zip(&self.grad_new)),
        ) {
            *wi -= (qi.cross(gi) + qn.cross(gn)) * (0.5 * h / mi);
        }
        core::mem::swap(&mut self.q, &mut self.q_new);
        core::mem::swap(&mut self.grad, &mut self.grad_new);
    }
}
