//! The free rigid body and the heavy top on SO(3) × ℝ³ from the `models` crate ([BC10] data:
//! `models::HeavyTop::bruls_cardona`, `models::FreeRigidBody::bruls_cardona_body`, initial state
//! `HeavyTop::bruls_cardona_state`, |Ω| ≈ 150 rad/s), in both formulations the benchmarks
//! compare. Both call the model's own code:
//!
//! ```text
//!   Lie (AttitudeAction = SO(3) × ℝ³ acting on itself):  f(R, Π) = (RΩ, Π × Ω + m g Γ × X),
//!   Lie, body frame (AttitudeBodyAction):                   f(R, Π) = (−Ω, Π × Ω + m g Γ × X),
//!   ambient (ℝ¹², R column-major):                         (Ṙ, Π̇) = (RΩ̂, Π × Ω + m g Γ × X),
//! ```
//!
//! `Ω = J⁻¹Π`, `Γ = Rᵀe₃` (the free body without the gravity term): the `LieVectorField`
//! impls of the model for `AttitudePoint` and for `Rn<f64, 12>`. Both adapters are
//! `#[inline(always)]`, so that neither side's speed depends on the compiler's inlining choices
//! (without it the ambient side measured anywhere from 91 to 138 ns per RK4 step between builds).
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

/// One of the two bodies.
#[derive(Clone, Copy, Debug)]
pub enum RigidBody {
    /// The heavy top of [BC10].
    HeavyTop(HeavyTop),
    /// The same body without gravity.
    Free(FreeRigidBody),
}

impl RigidBody {
    /// [`HeavyTop::bruls_cardona`].
    pub fn heavy_top() -> Self {
        Self::HeavyTop(HeavyTop::bruls_cardona())
    }

    /// [`FreeRigidBody::bruls_cardona_body`].
    pub fn free() -> Self {
        Self::Free(FreeRigidBody::bruls_cardona_body())
    }

    /// [`HeavyTop::bruls_cardona_state`] (the same start for both bodies).
    pub fn initial_state(&self) -> RigidBodyState {
        HeavyTop::bruls_cardona_state()
    }

    /// The Lie group vector field (the model's `LieVectorField` for [`AttitudePoint`]).
    #[inline(always)]
    pub fn lie(&self, t: f64, y: &RigidState, out: &mut (Vector3<f64>, Vector3<f64>)) {
        match self {
            Self::HeavyTop(m) => m.eval(t, y, out),
            Self::Free(m) => m.eval(t, y, out),
        }
    }

    /// The body-frame Lie group vector field (the model's `LieVectorField` for
    /// [`BodyFrame`], the field of `HeavyTop::body_frame` / `FreeRigidBody::body_frame`).
    #[inline(always)]
    pub fn lie_body(&self, t: f64, y: &RigidState, out: &mut (Vector3<f64>, Vector3<f64>)) {
        match self {
            Self::HeavyTop(m) => BodyFrame(*m).eval(t, y, out),
            Self::Free(m) => BodyFrame(*m).eval(t, y, out),
        }
    }

    /// The ambient ODE on ℝ¹² (`y = (R column-major, Π)`): the model's `ambient_rate`, which
    /// its `LieVectorField` for `Rn<f64, 12>` also calls. Slices, because `ode_solvers` brings
    /// its own nalgebra version.
    #[inline(always)]
    pub fn ambient(&self, y: &[f64], dy: &mut [f64]) {
        let r = Matrix3::from_column_slice(&y[..9]);
        let pi = Vector3::new(y[9], y[10], y[11]);
        let (rd, pd) = match self {
            Self::HeavyTop(m) => m.ambient_rate(&r, &pi),
            Self::Free(m) => m.ambient_rate(&r, &pi),
        };
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
}

/// The body as a Lie group vector field on [`AttitudePoint`], for the steppers (each body is its
/// own type, so the match above is resolved once per call and predicted).
#[derive(Clone, Copy, Debug)]
pub struct LieRigid(pub RigidBody);

impl LieVectorField<f64, RigidState, (Vector3<f64>, Vector3<f64>)> for LieRigid {
    #[inline(always)]
    fn eval(&self, t: f64, p: &RigidState, out: &mut (Vector3<f64>, Vector3<f64>)) {
        self.0.lie(t, p, out);
    }
}

/// The body in the body frame, for the steppers over [`RigidBodyAct`].
#[derive(Clone, Copy, Debug)]
pub struct LieRigidBodyFrame(pub RigidBody);

impl LieVectorField<f64, RigidState, (Vector3<f64>, Vector3<f64>)> for LieRigidBodyFrame {
    #[inline(always)]
    fn eval(&self, t: f64, p: &RigidState, out: &mut (Vector3<f64>, Vector3<f64>)) {
        self.0.lie_body(t, p, out);
    }
}
