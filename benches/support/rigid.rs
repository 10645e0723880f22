//! The free rigid body and the heavy top on SO(3) × ℝ³ (rotation and spatial angular momentum),
//! written out locally from `REFERENCES.md` ([BC10] data) and ALGORITHMS.md §1.4 until the
//! models crate ships them. One right-hand side serves both formulations:
//!
//! ```text
//!   ω = R I⁻¹ Rᵀ π,   τ = M g ℓ e₃ × (R χ)   (zero for the free body),
//!   Lie:      f(R, π) = (ω, τ) ∈ so(3) × ℝ³  for SO(3) × ℝ³ acting on itself (Ṙ = ω̂ R, π̇ = τ);
//!   ambient:  Ṙ = ω̂ R (9 entries, column-major), π̇ = τ  on ℝ¹².
//! ```
#![allow(dead_code)]

use liegroup::{Rn, So3};
use nalgebra::{Matrix3, Vector3};

/// The state on SO(3) × ℝ³.
pub type RigidState = (So3<f64>, Rn<f64, 3>);

/// Body inertia (diagonal, about the fixed point) and the gravity moment `M g ℓ χ`.
#[derive(Clone, Copy, Debug)]
pub struct RigidBody {
    /// `I⁻¹` (diagonal).
    pub inertia_inv: Vector3<f64>,
    /// `M g ℓ χ` in the body frame (zero for the free body).
    pub gravity_moment: Vector3<f64>,
}

impl RigidBody {
    /// The heavy top of [BC10]: `m = 15`, `X = (0, 1, 0)`, inertia about the fixed point
    /// `diag(15.234375, 0.46875, 15.234375)`, `g = 9.81` along `−e₃`.
    pub fn heavy_top() -> Self {
        Self {
            inertia_inv: Vector3::new(1.0 / 15.234375, 1.0 / 0.46875, 1.0 / 15.234375),
            gravity_moment: Vector3::new(0.0, 15.0 * 9.81, 0.0),
        }
    }

    /// The same body without gravity (a free asymmetric rigid body).
    pub fn free() -> Self {
        Self {
            gravity_moment: Vector3::zeros(),
            ..Self::heavy_top()
        }
    }

    /// `R₀ = I`, `Ω₀ = (0, 150, −4.61538)` [BC10], `π₀ = R₀ I Ω₀`.
    pub fn initial_state(&self) -> (Matrix3<f64>, Vector3<f64>) {
        let omega_body = Vector3::new(0.0, 150.0, -4.61538);
        (
            Matrix3::identity(),
            omega_body.component_div(&self.inertia_inv),
        )
    }

    /// `(ω, τ)`: the spatial angular velocity and the torque `π̇`.
    #[inline]
    pub fn rhs(&self, r: &Matrix3<f64>, pi: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
        let body = r.tr_mul(pi).component_mul(&self.inertia_inv);
        let omega = r * body;
        let tau = Vector3::z().cross(&(r * self.gravity_moment));
        (omega, tau)
    }

    /// The Lie group vector field `f(R, π) = (ω, τ)`.
    #[inline]
    pub fn lie(&self, _t: f64, y: &RigidState) -> (Vector3<f64>, Vector3<f64>) {
        self.rhs(y.0.matrix(), &y.1.0)
    }

    /// The ambient ODE on ℝ¹² (`y = (R column-major, π)`).
    #[inline]
    pub fn ambient(&self, y: &[f64], dy: &mut [f64]) {
        let r = Matrix3::from_column_slice(&y[..9]);
        let pi = Vector3::new(y[9], y[10], y[11]);
        let (omega, tau) = self.rhs(&r, &pi);
        for c in 0..3 {
            let col = omega.cross(&r.column(c).into_owned());
            dy[3 * c..3 * c + 3].copy_from_slice(col.as_slice());
        }
        dy[9..].copy_from_slice(tau.as_slice());
    }

    /// The energy `½ πᵀ R I⁻¹ Rᵀ π + M g ℓ e₃·(R χ)` (`e₃` up).
    pub fn energy(&self, r: &Matrix3<f64>, pi: &Vector3<f64>) -> f64 {
        let body = r.tr_mul(pi);
        0.5 * body.dot(&body.component_mul(&self.inertia_inv)) + (r * self.gravity_moment).z
    }

    /// The Lie state.
    pub fn lie_state(r: &Matrix3<f64>, pi: &Vector3<f64>) -> RigidState {
        (So3::from_matrix_unchecked(*r), Rn::new(*pi))
    }

    /// The ambient state.
    pub fn ambient_state(r: &Matrix3<f64>, pi: &Vector3<f64>) -> [f64; 12] {
        let mut y = [0.0; 12];
        y[..9].copy_from_slice(r.as_slice());
        y[9..].copy_from_slice(pi.as_slice());
        y
    }
}
