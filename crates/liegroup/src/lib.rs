//! # liegroup
//!
//! Lie groups and their algebras, in the form numerical integrators need them: SO(2), SE(2),
//! SO(3), SE(3), ℝⁿ, direct products (tuples), compile-time powers `[G; N]` and runtime powers
//! `Vec<G>`; exp/log, Ad/ad/coadjoint, the right-trivialized `dexp` and `dexp⁻¹` (closed forms
//! and the truncated Bernoulli series), and the Cayley map with its derivatives.
//!
//! Everything is generic over the scalar `T: nalgebra::RealField + Copy`, so dual numbers from
//! `num-dual` flow through every operation (small-angle branches are polynomials in θ², so
//! derivatives survive at the identity).
//!
//! Implementing a new group means implementing [`LieGroup`] (the mathematical primitives:
//! identity, compose, inverse, exp, log, bracket, adjoint, and a finiteness test) and adding
//! `impl LieGroupInPlace for MyGroup {}` (the in-place forms integrators use, all with defaults);
//! the conformance kit in `liegroup::testing` (feature `testing`) then tells whether the
//! implementation is right. See `docs/tutorial-own-group.md`.
//!
//! With the `rayon` feature the factor-by-factor loops of the runtime powers `Vec<G>` and
//! `Vec<V>` run on rayon's current thread pool for long `Vec`s (from
//! [`par::PAR_THRESHOLD`] factors on; shorter ones stay serial), with results bitwise
//! identical to the serial loops for any number of threads; see [`par`].
//!
//! Conventions are fixed once in `docs/notation.md`: left actions, right-trivialized `dexp`,
//! se(3) and se(2) coordinates **rotation first**, `hat(v) b = v × b`.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod angle;
mod coord;
mod error;
mod group;
pub mod linalg;
pub mod par;
mod product;
mod rn;
pub mod scalar;
mod se2;
pub mod se3;
mod so2;
pub mod so3;
#[cfg(feature = "testing")]
pub mod testing;
mod vector_space;

pub use coord::{Cayley, CayleyGroup, CoordinateMap, Exp};
pub use error::LieError;
pub use group::{
    DEFAULT_SERIES_ORDER, LieGroup, LieGroupInPlace, MAX_SERIES_ORDER, StaticLieGroup, ad_power,
    bernoulli, dexp_series, dexpinv_series, dexpinv_series_coefficient,
};
pub use rn::{R3, Rn};
pub use se2::Se2;
pub use se3::Se3;
pub use so2::So2;
pub use so3::{So3, hat, vee};
pub use vector_space::{StaticVectorSpace, VectorSpace};

/// Re-export of the linear-algebra crate used throughout.
pub use nalgebra;
/// The automatic-differentiation crate the library is tested with, re-exported so that users
/// get a version that matches.
pub use num_dual;

// The crate README's example, compiled and run as a doctest (`cargo test -p liegroup --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
