//! Rigid-body Langevin dynamics for bodies of arbitrary shape (`docs/langevin.md`).
//!
//! - [`ResistanceTensor`]: the 6 × 6 hydrodynamic resistance tensor `Ξ` in body coordinates,
//!   its change of reference point \[Lin06\], Stokes' sphere and Perrin's spheroid
//!   ([`perrin_friction`], \[Per34\]).
//! - [`LangevinBody`] (mass, inertia, `Ξ`, `kT`) and [`LangevinSplitting`], the splitting
//!   `B A O A B` on `(SO(3) × ℝ³)ᴺ`: DLM free rotation and kicks \[DLM97\] with an exact
//!   Ornstein–Uhlenbeck step for friction and noise (fluctuation–dissipation), seeded per body.
//!
//! # References
//! \[Lin06\] T. Lin, PhD dissertation (rigid-body molecular dynamics and Langevin dynamics),
//! University of Notre Dame (2006), introduction ·
//! \[SLG08\] X. Sun, T. Lin & J. D. Gezelter, "Langevin dynamics for rigid bodies of arbitrary
//! shape", J. Chem. Phys. 128, 234107 (2008) ·
//! \[DLM97\] A. Dullweber, B. Leimkuhler & R. McLachlan, J. Chem. Phys. 107, 5840 (1997) ·
//! \[Per34\] F. Perrin, "Mouvement brownien d'un ellipsoïde (I)", J. Phys. Radium 5, 497 (1934) ·
//! \[Koe75\] S. H. Koenig, "Brownian motion of an ellipsoid. A correction to Perrin's results",
//! Biopolymers 14, 2421 (1975).

mod dynamics;
mod resistance;

pub use dynamics::{
    BodyPotential, FreeBodies, HarmonicTrap, LangevinBody, LangevinSplitting, LangevinState,
};
pub use resistance::{PerrinFriction, ResistanceTensor, perrin_friction};
