//! Symplectic and variational Lie group integrators on the right-trivialized cotangent bundle
//! `T*G ≅ G × 𝔤*` (derivations in `docs/symplectic.md`).
//!
//! - [`CotangentPoint`]: a point `(g, μ)` of `T*G` (`μ` the right-trivialized, i.e. spatial,
//!   momentum), which is also an element of the semidirect product `G ⋉ 𝔤*` acting on `T*G` by
//!   left multiplication ([`CotangentAction`]). Every stepper of the crate runs on it.
//! - [`CotangentHamiltonian`]: a Hamiltonian given by `∂H/∂μ` and the right-trivialized
//!   configuration derivative `ν`; [`HamiltonianVectorField`] turns it into the Lie group vector
//!   field `f = (∂H/∂μ, −ν)` for RKMK and commutator-free methods (reference solutions).
//! - [`ThetaMethod`]: the one-parameter family of symplectic Lie group integrators
//!   [CCLMO22, eqs. (15)–(17)], \[CMO14\], for **any** group `G`; order 2 and symmetric at
//!   `θ = ½`, order 1 otherwise.
//! - [`Lgvi`]: the Lie group variational integrator of Lee, Leok & McClamroch \[LLM07\] for a rigid
//!   body with a fixed point (Cayley or exp coordinates for the implicit rotation, Newton).
//! - [`DlmSplitting`]: the Dullweber–Leimkuhler–McLachlan splitting \[DLM97\] into exact
//!   rotations, with kick–drift–kick for a potential.
//! - [`RattleRotation`]: RATTLE on the rotation matrix `Q ∈ ℝ³ˣ³` with `QᵀQ = I` held by a
//!   symmetric multiplier \[DLM97\] §2 (the same map as the LGVI with `c = ½`).
//! - [`RigidBody`] with [`NoPotential`] (free rigid body) or [`UniformGravity`] (heavy top;
//!   [`RigidBody::heavy_top_bc10`] holds the data of \[BC10\]).
//! - [`HeavyTopLargerGroup`]: the heavy top as a canonical system with a quadratic Hamiltonian
//!   on `T*SE(3)` [CCLMO22, §3.4.3]; with [`ThetaMethod`] it is the paper's "SLGIKK".
//!
//! All these methods are [`Stepper`](crate::Stepper)s for [`CotangentAction`], so the driver
//! [`integrate`](crate::integrate), [`measure_order`](crate::measure_order) and compositions
//! work with them. They **ignore the vector field** passed to `step` (each holds its
//! Hamiltonian or rigid body); pass [`HamiltonianVectorField`] of the same Hamiltonian to share
//! one [`Problem`](crate::Problem) with the RKMK methods. Negative step sizes are accepted
//! (compositions with negative coefficients). All kernels are generic over the scalar
//! `T: RealField + Copy`, so `num-dual` numbers flow through whole steps.
//!
//! # Conventions
//! Right trivialization: `ġ = ξ g`, `μ = (T_eR_g)* p_g`; `Ad*_g = (Ad_g)ᵀ`, the coadjoint action
//! is `Ad*_{g⁻¹} = `[`LieGroup::coadjoint`](liegroup::LieGroup::coadjoint);
//! `ad*_ξ = (ad_ξ)ᵀ`; `dexp` right-trivialized and `dexp*_x = (dexp_x)ᵀ` ([`dexp_star`]). For
//! rigid bodies `R` maps body to space, `π = RΠ`, inertia principal and about the fixed point,
//! `e₃` points up. See `docs/notation.md` and `docs/symplectic.md`.
//!
//! # References
//! \[CCLMO22\] Celledoni, Çokaj, Leone, Murari & Owren, Int. J. Comput. Math. 99 (2022) ·
//! \[CMO14\] Celledoni, Marthinsen & Owren, J. Comput. Phys. 257 (2014) · \[BM16\] Bogfjellmo &
//! Marthinsen, Found. Comput. Math. 16 (2016) · \[LLM07\] Lee, Leok & McClamroch, CMAME 196
//! (2007) · \[DLM97\] Dullweber, Leimkuhler & McLachlan, J. Chem. Phys. 107 (1997) · \[BC10\]
//! Brüls & Cardona, J. Comput. Nonlinear Dyn. 5 (2010) · \[And83\] Andersen, J. Comput. Phys.
//! 52 (1983) (RATTLE) · \[Lin06\] T. Lin, PhD dissertation, University of Notre Dame (2006), introduction (rigid-body
//! equations with a rotation-matrix constraint).

mod cotangent;
mod hamiltonian;
mod heavy_top_larger;
mod lgvi;
mod rattle;
mod rigid_body;
mod splitting;
mod theta;

pub use cotangent::{CotangentAction, CotangentPoint, dexp_star, dexpinv_star};
pub use hamiltonian::{CotangentHamiltonian, HamiltonianVectorField};
pub use heavy_top_larger::HeavyTopLargerGroup;
pub use lgvi::{Lgvi, LgviMap};
pub use rattle::{RattleRotation, RattleState};
pub use rigid_body::{
    FreeRigidBody, HeavyTop, NoPotential, RigidBody, RigidBodyPotential, UniformGravity,
};
pub use splitting::DlmSplitting;
pub use theta::ThetaMethod;

use crate::error::SchemeError;
use crate::implicit::ImplicitOptions;

/// Reject a non-finite step size or state (negative steps are allowed: compositions).
fn check_step_input(t: f64, h: f64, state_finite: bool) -> Result<(), SchemeError> {
    if !h.is_finite() {
        return Err(SchemeError::InvalidStepSize { h });
    }
    if !state_finite {
        return Err(SchemeError::NonFinite { what: "state", t });
    }
    Ok(())
}

/// Validate user-supplied solver options.
fn validate_options(options: &ImplicitOptions) -> Result<(), SchemeError> {
    if !(options.tol.is_finite() && options.tol > 0.0) {
        return Err(SchemeError::InvalidTolerance {
            name: "tol",
            value: options.tol,
        });
    }
    if options.max_iter == 0 {
        return Err(SchemeError::InvalidOption {
            name: "max_iter",
            reason: "at least one iteration is needed".into(),
        });
    }
    Ok(())
}

/// Put the time of the step into a [`SchemeError::NonFinite`] raised inside a kernel.
fn at_time(e: SchemeError, t: f64) -> SchemeError {
    match e {
        SchemeError::NonFinite { what, .. } => SchemeError::NonFinite { what, t },
        other => other,
    }
}
