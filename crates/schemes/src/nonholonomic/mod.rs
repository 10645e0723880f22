//! Nonholonomic integrators (see `docs/nonholonomic.md` for the equations, what is derived and
//! what is confirmed):
//!
//! - [`DlaIntegrator`]: discrete Lagrange–d'Alembert integrators [CM01, MP06] for Lagrangian
//!   systems on any Lie group `G` ([`LieNonholonomicSystem`]) with linear constraints, as
//!   discrete Euler–Poincaré–Suslov equations (eqs. (D1)–(D5)); order 2, reversible, discrete
//!   nonholonomic momentum equation.
//! - [`EnergyDlaIntegrator`]: the extended DLA equations on `ℝ × G` with variable time steps
//!   [C03, KMO99] (eqs. (E1)–(E2)): the step is solved for, the discrete energy is conserved
//!   exactly.
//! - [`Vprkmk`]: high-order integrators on `(S²)ⁿ = SO(3)ⁿ/SO(2)ⁿ` by lifting to `SO(3)ⁿ` and
//!   constraining the algebra curve to `𝔪` \[S22\] (eqs. (H1)–(H4)), with the stage-constrained
//!   (discrete Chetaev) and the regularized, fully variational lift ([`Lift`]).
//!
//! These integrators take a mechanical system (a Lagrangian and constraints), not a vector
//! field `f: M → 𝔤`, and carry a discrete momentum (and, for [`EnergyDlaIntegrator`], choose
//! their own step), so they do not implement [`Stepper`](crate::Stepper), whose `step` takes
//! a vector field and a prescribed `h`. Each offers `step`; orders are measured with
//! [`fit_order`](crate::fit_order) on the errors.
//!
//! References: \[CM01\] Cortés & Martínez, Nonlinearity 14 (2001) 1365–1392 · \[MP06\] McLachlan
//! & Perlmutter, J. Nonlinear Sci. 16 (2006) 283–328 · \[C03\] Cortés, "Energy conserving
//! nonholonomic integrators", DCDS Suppl. 2003, 189–199 · \[KMO99\] Kane, Marsden & Ortiz,
//! J. Math. Phys. 40 (1999) 3353–3371 · \[S22\] Sato Martín de Almagro, arXiv:2201.12022.

mod dla;
mod homogeneous;
mod newton;

pub use dla::{
    DlaIntegrator, DlaState, EnergyDlaIntegrator, EnergyStepKind, LieNonholonomicSystem,
    dexpinv_transpose, discrete_energy,
};
pub use homogeneous::{
    LOBATTO_IIIA2, LOBATTO_IIIA4, Lift, LiftedState, SphereLagrangian, Vprkmk, cayley, rotation_to,
};
pub use newton::NewtonOptions;
