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
//!   \[CCLMO22, §5\] ([`LieField`]) and the ambient ODE on ℝ⁶ⁿ for classical baselines
//!   ([`AmbientField`]); energy, conjugate momenta, angular momentum, unit-length and tangency
//!   errors.
//! - [`Potential`]: potentials written once, generic over `T: RealField + Copy`, as sums of
//!   terms over few variables; gradients (and Hessian–vector products) are assembled from
//!   per-term num-dual derivatives, never from one dual vector over the whole system.
//! - The systems of \[CCLMO22, §5\] and \[LLM09, §4\] with presets: [`NFoldPendulum`],
//!   [`DoubleSphericalPendulum`], [`SphereNBody`] (Kozlov–Harin), [`CoupledPendula`],
//!   [`ElasticRod`], [`DipoleArray`], [`LennardJones`] (with [`Icosphere`]).
//! - Every [`SphereSystem`] is a `schemes::variational::SphereLagrangian`, so the variational
//!   integrator of [LLM09, §3] runs on it ([`SphereSystem::variational_integrator`]).
//!
//! Where the papers' text lost digits, each preset documents the values chosen here.
//!
//! Part 2: **rigid bodies and a multibody system with control**, each with several Lie group
//! formulations (a [`schemes::Problem`] per formulation: an action from `homogeneous` and a
//! field), the ambient ODE, energy and invariants:
//!
//! - [`FreeRigidBody`] ([`rigid_body`]): Lie–Poisson on so(3)* and on a sphere, SO(3) × ℝ³,
//!   SO(3) × so(3)*, T*SO(3) ≅ SE(3), ℝ¹²; [`RigidBodyState`] `(R, Π)` converts between them.
//! - [`HeavyTop`] ([`heavy_top`]) with the data of \[BC10\]: the three formulations of
//!   [CCLMO22, §3.4] (canonical on T*SO(3), Lie–Poisson on se(3)*, canonical on T*SE(3) with a
//!   left-invariant quadratic Hamiltonian), the body-momentum form and ℝ¹².
//! - [`QuadrotorLoad`] ([`quadrotor`]): two quadrotors carrying a point load [CCLMO22, §6],
//!   closed by the geometric controller of \[LSK13\] (attitude moments from the geometric
//!   attitude controller on SO(3), with exact `Ω_c`, `Ω̇_c` by forward-mode AD), on
//!   `ℝ⁶ × (TSO(3))² × SE(3)²` acting on `TR³ × (TSO(3))² × (TS²)²`, and on ℝ⁴².
//!
//! # Threads
//! With the `rayon` feature, gradients through a
//! [`NeighbourPotential`](neighbours::NeighbourPotential) (large N, [`neighbours`]) and the
//! `O(N)` loops of [`DiagonalSystem`](neighbours::DiagonalSystem) /
//! [`DiagonalLieField`](neighbours::DiagonalLieField) run on rayon's current thread pool; the
//! feature also turns on those of `schemes`, `homogeneous` and `liegroup`, so that the
//! integrators' own loops over long states run there too. Results are bitwise identical for any
//! number of threads.
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
#![forbid(unsafe_code)]

mod error;
mod fields;
pub mod heavy_top;
mod icosphere;
pub mod langevin;
pub mod neighbours;
pub mod nonholonomic;
pub mod potential;
pub mod quadrotor;
pub mod rigid_body;
pub mod sphere_systems;
mod state;
mod system;
mod terms;
mod variational;

pub use error::ModelError;
pub use fields::{AmbientField, LieField};
pub use heavy_top::HeavyTop;
pub use icosphere::Icosphere;
pub use potential::{
    DotTerm, PairTerm, Potential, RadialTerm, Separation, SeparationTerm, SiteTerm, TermVisitor,
};
pub use quadrotor::{QuadrotorLoad, QuadrotorState, ThrustModel};
pub use rigid_body::{FreeRigidBody, RigidBodyState};
pub use sphere_systems::{
    CoupledPendula, DipoleArray, DoubleSphericalPendulum, ElasticRod, GRAVITY, LennardJones,
    NFoldPendulum, SphereModel, SphereNBody, Spring, Symmetry,
};
pub use state::{SphereState, UNIT_TOLERANCE};
pub use system::{SphereSystem, Workspace, tangency_error, unit_length_error};
pub use terms::{LinearPotential, LinearTerm};

// The crate README's example, compiled and run as a doctest (`cargo test -p models --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
