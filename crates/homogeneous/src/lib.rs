//! # homogeneous
//!
//! Group actions on manifolds for Lie group integrators. Most mechanical systems live on a
//! manifold `M` that a group `G` acts on transitively (the sphere S², its tangent bundle TS²,
//! coadjoint orbits, products of these). An integrator needs only the action and a map
//! `f: M → 𝔤` with `F(m) = f(m)·m`; this crate provides the [`Action`] trait, the point types,
//! the shipped actions and a kit that checks user-written actions.
//!
//! Conventions: left actions; in a product of exponentials the rightmost factor acts first; se(3)
//! coordinates rotation first (see `docs/notation.md`).
//!
//! ## What is shipped
//!
//! | action | group | points | generator `ξ_M(p)` |
//! |---|---|---|---|
//! | [`RotationAction`] | SO(3) | [`Sphere2`] | `ξ × q` |
//! | [`TangentSphereAction`] | SE(3) | [`TangentSphere2`] | `(u × q, u × ω + v × q)` \[CCLMO22, §5.1\] |
//! | [`CoadjointAction`] ([`So3Coadjoint`], [`Se3Coadjoint`]) | any `G` | `μ ∈ 𝔤*` | `−ad*_ξ μ` |
//! | [`LeftMultiplication`] | any `G` | `G` | `ξ` (right-trivialized) |
//! | [`RightMultiplication`] (`g·p = p g⁻¹`, body-frame equations `ṗ = p·Ω` with `f = −Ω`) | any `G` | `G` | `−Ad_p ξ` (right-trivialized) |
//! | tuples `(A₁, …, A₄)` | `(G₁, …)` | `(P₁, …)` | factor by factor |
//! | [`PowerAction`]`<A, N>` | `[G; N]` | `[P; N]` | factor by factor |
//! | [`VecPowerAction`]`<A>` | `Vec<G>` | `Vec<P>` | factor by factor |
//!
//! Points of embedded manifolds implement [`ManifoldPoint`] (ambient coordinates, constraint
//! error): [`Sphere2`] `(q₁, q₂, q₃)`, [`TangentSphere2`] `(q₁, q₂, q₃, ω₁, ω₂, ω₃)`, plain
//! vectors `SVector<T, D>` (unconstrained, e.g. μ ∈ 𝔤*), and tuples, arrays and `Vec`s of points
//! (coordinates concatenated, constraint error = maximum). The constructors validate user data
//! and return [`HomogeneousError`]; the actions are infallible kernels. [`TransitiveAction`]
//! gives a group element carrying one point to another (initial conditions, tests).
//!
//! With the `rayon` feature (which turns on that of `liegroup`), the factor-by-factor loops of a
//! long [`VecPowerAction`] (and the finiteness check of `Vec` points) run on rayon's current
//! thread pool from `liegroup::par::PAR_THRESHOLD` factors on, with results bitwise identical
//! to the serial loops for any number of threads; the factor action must then be
//! `Send + Sync` ([`PowerFactor`]).
//!
//! The action kit (`homogeneous::testing`, feature `testing`) checks the action laws, that
//! points stay on the manifold and that the generator is the derivative of the action, with
//! `f64` and with `num_dual::Dual64`.
//!
//! ## Why `f: M → 𝔤` is the only problem form
//!
//! A Lie group integrator on a homogeneous space needs two things from a problem: the map
//! `f: M → 𝔤` (with vector field `F(p) = f(p)_M(p)`, the generator of the action at `p`) and
//! the action `exp(ξ)·p`. Runge–Kutta–Munthe-Kaas methods \[MK99\] evaluate `f` at stage points
//! `exp(σᵢ)·p₀` and apply `exp(σ)·p₀`. Crouch–Grossman \[CG93, OM99\] and commutator-free methods
//! \[CMO03\] advance by products of exponentials of linear combinations of stage values,
//! `exp(Σⱼ βⱼ kⱼ)···exp(Σⱼ αⱼ kⱼ)·p₀` with `kⱼ = h f(Yⱼ)`, each exponential applied to a point.
//! The "frozen vector field" of these methods, `F_{Yᵢ}(p) = f(Yᵢ)_M(p)`, is the generator of
//! the *constant* algebra element `f(Yᵢ)`: freezing means evaluating `f` once at the stage point
//! `Yᵢ` and flowing along `exp(t f(Yᵢ))`, whose flow is exactly `exp(t f(Yᵢ))·p`. So a frozen
//! field is `f(Yᵢ)` itself, and no second problem form (frozen vector fields, basis of vector
//! fields with coefficient functions) is needed: any vector field written as
//! `F(p) = Σ fᵢ(p) Eᵢ(p)` with `Eᵢ` the generators of a basis `eᵢ` of 𝔤 is
//! `f(p) = Σ fᵢ(p) eᵢ` \[MK99, §3\], \[CCLMO22, §2.1\].
//!
//! ## Example
//! ```
//! use homogeneous::{Action, LieVectorField, RotationAction, Sphere2};
//! use nalgebra::Vector3;
//! // Free rigid body on S² (scaled momentum): ṁ = m × I⁻¹m, i.e. f(m) = −I⁻¹m by rotation.
//! let inertia = Vector3::new(1.0, 2.0, 3.0);
//! let f = move |_t: f64, m: &Sphere2| -m.q().component_div(&inertia);
//! let action = RotationAction::new();
//! let mut m = Sphere2::new_normalize(Vector3::new(1.0, 0.2, 0.5)).unwrap();
//! let h = 0.01;
//! let mut xi = Vector3::zeros();
//! for _ in 0..100 {
//!     f.eval(0.0, &m, &mut xi); // Lie–Euler: m ← exp(h f(m))·m
//!     m = action.act_exp(&(xi * h), &m);
//! }
//! assert!((m.q().norm() - 1.0).abs() < 1e-14);
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod action;
mod coadjoint;
mod error;
mod group_points;
mod left;
mod points;
mod power;
mod product;
mod right;
mod rodrigues;
mod rotation;
mod sphere;
mod tangent_sphere;
mod tangent_sphere_action;
mod transport;

#[cfg(feature = "testing")]
pub mod testing;

pub use action::{Action, ActionInPlace, LieVectorField, ManifoldPoint};
pub use coadjoint::{CoadjointAction, Se3Coadjoint, So3Coadjoint};
pub use error::HomogeneousError;
pub use left::LeftMultiplication;
pub use power::{PowerAction, PowerFactor, VecPowerAction};
pub use right::RightMultiplication;
pub use rotation::RotationAction;
pub use sphere::{SPHERE_TOLERANCE, Sphere2};
pub use tangent_sphere::{TANGENCY_TOLERANCE, TangentSphere2};
pub use tangent_sphere_action::TangentSphereAction;
pub use transport::{TransitiveAction, minimal_rotation, tangent_sphere_transporter};

// The crate README's example, compiled and run as a doctest (`cargo test -p homogeneous --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
