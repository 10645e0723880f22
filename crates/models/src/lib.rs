//! # models
//!
//! Mechanical systems from the literature, in the forms the integrators of this workspace need.
//! Part 1: **Lagrangian systems on (S²)ⁿ** \[LLM09\],
//!
//! ```text
//!   L(q, q̇) = ½ Σᵢⱼ Mᵢⱼ q̇ᵢ·q̇ⱼ − V(q),   qᵢ ∈ S²,  q̇ᵢ = ωᵢ × qᵢ,  ωᵢ·qᵢ = 0,
//! ```
//!
//! with a constant symmetric positive definite inertia matrix `M` and a potential `V`.
//!
//! - [`SphereSystem`]: the generic system; the Euler–Lagrange equations [LLM09, eqs.
//!   (2.9)–(2.11)] implemented once for any `(M, V)`, with two formulations sharing one solve:
//!   the Lie group vector field `f: (TS²)ⁿ → se(3)ⁿ` for SE(3)ⁿ acting on (TS²)ⁿ
//!   [CCLMO22, §5] ([`LieField`]) and the ambient ODE on ℝ⁶ⁿ for classical baselines
//!   ([`AmbientField`]); energy, conjugate momenta, angular momentum, unit-length and tangency
//!   errors.
//! - [`Potential`]: potentials written once, generic over `T: RealField + Copy`, as sums of
//!   terms over few variables; gradients (and Hessian–vector products) are assembled from
//!   per-term num-dual derivatives, never from one dual vector over the whole system.
//! - The systems of [CCLMO22, §5] and [LLM09, §4] with presets: [`NFoldPendulum`],
//!   [`DoubleSphericalPendulum`], [`SphereNBody`] (Kozlov–Harin), [`CoupledPendula`],
//!   [`ElasticRod`], [`DipoleArray`], [`LennardJones`] (with [`Icosphere`]).
//!
//! Where the papers' text lost digits, each preset documents the values chosen here.
//!
//! # Conventions
//! se(3) coordinates **rotation first**: a `Vector6` `(u, v)` is the rotational part `u`
//! followed by the translational part `v` (see `docs/notation.md`). Ambient states are stored
//! per body as `(qᵢ, ωᵢ)`.
//!
//! # Example
//! ```
//! use models::{AmbientField, DoubleSphericalPendulum, LieField, SphereModel};
//! use nalgebra::{Vector3, Vector6};
//! let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
//! let x = DoubleSphericalPendulum::initial_state();
//! let sys = p.system();
//! assert!((sys.energy(&x.q, &x.omega) + 270.22).abs() < 0.01);
//!
//! // The Lie group field (ωᵢ, qᵢ × ω̇ᵢ) and the ambient ODE (q̇ᵢ, ω̇ᵢ) agree.
//! let mut f = vec![Vector6::zeros(); 2];
//! LieField::new(sys).eval_slices(&x.q, &x.omega, &mut f);
//! let (mut qd, mut wd) = (vec![Vector3::zeros(); 2], vec![Vector3::zeros(); 2]);
//! AmbientField::new(sys).eval_slices(&x.q, &x.omega, &mut qd, &mut wd);
//! for i in 0..2 {
//!     let (u, v) = (f[i].fixed_rows::<3>(0), f[i].fixed_rows::<3>(3));
//!     assert!((u.cross(&x.q[i]) - qd[i]).norm() < 1e-13);
//!     assert!((v.cross(&x.q[i]) - wd[i]).norm() < 1e-12);
//! }
//! ```

#![warn(missing_docs)]

mod error;
mod fields;
mod icosphere;
pub mod models;
pub mod neighbours;
pub mod potential;
mod state;
mod system;
mod terms;

pub use error::ModelError;
pub use fields::{AmbientField, LieField};
pub use icosphere::Icosphere;
pub use models::{
    CoupledPendula, DipoleArray, DoubleSphericalPendulum, ElasticRod, G, LennardJones,
    NFoldPendulum, SphereModel, SphereNBody, Spring, Symmetry,
};
pub use potential::{
    DotTerm, PairTerm, Potential, RadialTerm, Separation, SeparationTerm, SiteTerm, TermVisitor,
};
pub use state::{SphereState, UNIT_TOLERANCE};
pub use system::{SphereSystem, Workspace, tangency_error, unit_length_error};
pub use terms::{LinearPotential, LinearTerm};
