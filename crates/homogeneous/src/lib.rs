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

#![warn(missing_docs)]

mod action;
mod group_points;
mod left;

pub use action::{Action, LieVectorField, ManifoldPoint};
pub use left::LeftMultiplication;
