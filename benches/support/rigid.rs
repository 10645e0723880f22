//! The free rigid body and the heavy top on SO(3) × ℝ³ from the `models` crate ([BC10] data:
//! `models::HeavyTop::bruls_cardona`, `models::FreeRigidBody::bruls_cardona_body`, initial state
//! `HeavyTop::bruls_cardona_state`, |Ω| ≈ 150 rad/s), in the formulations the benchmarks
//! compare. All call the model's own code:
//!
//! ```text
//!   Lie (AttitudeAction = SO(3) × ℝ³ acting on itself):  f(R, Π) = (RΩ, Π × Ω + m g Γ × X),
//!   Lie, body frame (AttitudeBodyAction):                   f(R, Π) = (−Ω, Π × Ω + m g Γ × X),
//!   ambient (ℝ¹², R column-major):                         (Ṙ, Π̇) = (RΩ̂, Π × Ω + m g Γ × X),
//! ```
//!
//! `Ω = J⁻¹Π`, `Γ = Rᵀe₃` (the free body without the gravity term): the `LieVectorField`
//! impls of the model for `AttitudePoint`, of `BodyFrame<model>`, and the model's
//! `ambient_rate`. Everything is generic over the model (no dispatch on the body inside a
//! step, on either side: a `match` per evaluation cost the ambient RK4 a tenth of its time),
//! and the ambient adapter is `#[inline(always)]`, so that neither side's speed depends on the
//! compiler's inlining choices (without it the ambient side measured anywhere from 91 to
//! 138 ns per RK4 step between builds).
#![allow(dead_code)]

use homogeneous::LieVectorField;
use models::rigid_body::{AttitudeAction, AttitudeBodyAction, AttitudePoint, BodyFrame};
use models::{FreeRigidBody, HeavyTop, RigidBodyState};
use nalgebra::{Matrix3, Vector3};

/// The state on SO(3) × ℝ³.
pub type RigidState = AttitudePoint;
/// SO(3) × ℝ³ acting on itself by left multiplication.
pub type RigidAct = AttitudeAction;
/// The body-frame action: right multiplication by the inverse on SO(3), translation on ℝ³.
pub type RigidBodyAct = AttitudeBodyAction;
/// The algebra of both actions.
pub type RigidAlgebra = (Vector3<f64>, Vector3<f64>);

/// A rigid-body model with the three formulations.
pub trait RigidModel:
    Copy + LieVectorField<f64, RigidState, RigidAlgebra> + core::fmt::Debug + 'static
where
    BodyFrame<Self>: LieVectorField<f64, RigidState, RigidAlgebra>,
{
    /// `(Ṙ, Π̇)`, the model's `ambient_rate`.
    fn rate(&self, r: &Matrix3<f64>, pi: &Vector3<f64>) -> (Matrix3<f64>, Vector3<f64>);
}

impl RigidModel for HeavyTop {
    #[inline(always)]
    fn rate(&self, r: &Matrix3<f64>, pi: &Vector3<f64>) -> (Matrix3<f64>, Vector3<f64>) {
        self.ambient_rate(r, pi)
    }
}

impl RigidModel for FreeRigidBody {
    #[inline(always)]
    fn rate(&self, r: &Matrix3<f64>, pi: &Vector3<f64>) -> (Matrix3<f64>, Vector3<f64>) {
        self.ambient_rate(r, pi)
    }
}

/// [`HeavyTop::bruls_cardona`].
pub fn heavy_top() -> HeavyTop {
    HeavyTop::bruls_cardona()
}

/// [`FreeRigidBody::bruls_cardona_body`].
pub fn free_body() -> FreeRigidBody {
    FreeRigidBody::bruls_cardona_body()
}

/// [`HeavyTop::bruls_cardona_state`] (the same start for both bodies).
pub fn initial_state() -> RigidBodyState {
    HeavyTop::bruls_cardona_state()
}

/// The ambient ODE on ℝ¹² (`y = (R column-major, Π)`): the model's `ambient_rate`, which its
/// `LieVectorField` for `Rn<f64, 12>` also calls. Slices, because `ode_solvers` brings its own
/// nalgebra version.
#[inline(always)]
pub fn ambient<M: RigidModel>(model: &M, y: &[f64], dy: &mut [f64])
where
    BodyFrame<M>: LieVectorField<f64, RigidState, RigidAlgebra>,
{
    let r = Matrix3::from_column_slice(&y[..9]);
    let pi = Vector3::new(y[9], y[10], y[11]);
    let (rd, pd) = model.rate(&r, &pi);
    dy[..9].copy_from_slice(rd.as_slice());
    dy[9..].copy_from_slice(pd.as_slice());
}

/// The ambient coordinates `(R column-major, Π)` of a Lie state.
pub fn ambient_of(p: &RigidState) -> [f64; 12] {
    let mut y = [0.0; 12];
    y[..9].copy_from_slice(p.0.matrix().as_slice());
    y[9..].copy_from_slice(p.1.0.as_slice());
    y
}
