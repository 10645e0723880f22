//! # lie-integrators
//!
//! Integrators for differential equations on Lie groups and homogeneous spaces. This facade
//! re-exports the workspace crates:
//!
//! - [`liegroup`]: groups and algebras (SO(2), SE(2), SO(3), SE(3), ℝⁿ, products, powers);
//! - [`homogeneous`]: group actions on manifolds (S², TS², coadjoint orbits, products);
//! - [`schemes`]: methods as data (Butcher tableaux, commutator-free and Crouch–Grossman
//!   schemes) and the order-condition checker;
//! - [`models`]: mechanical systems from the literature (Lagrangian systems on (S²)ⁿ).
//!
//! With the cargo feature `registry` (on by default through `cli`), the module `registry` holds
//! the models and presets of the experiments program by identifier, every catalogue method by
//! identifier (compositions included), simulations with their statistics, and the convergence
//! and tolerance studies.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub use homogeneous;
pub use liegroup;
pub use models;
pub use schemes;

#[cfg(feature = "registry")]
pub mod ensemble;
#[cfg(feature = "registry")]
pub mod registry;

/// The tutorial `docs/tutorial-own-group.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/tutorial-own-group.md")]
pub struct TutorialOwnGroup;

/// The registry and ensemble guide `docs/ensembles.md`, its Rust example run as a doctest.
#[cfg(all(doctest, feature = "registry"))]
#[doc = include_str!("../docs/ensembles.md")]
pub struct Ensembles;

/// The README's usage example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
