//! The mechanical systems on (S²)ⁿ of \[CCLMO22, §5\] and \[LLM09, §4\], each a parameter struct with
//! a validated constructor, presets from the papers and its [`SphereSystem`].

mod coupled;
mod dipoles;
mod lj;
mod nbody;
mod pendulum;
mod rod;

pub use coupled::{CoupledPendula, CoupledPendulaPotential, Spring, SpringTerm};
pub use dipoles::{DipoleArray, DipolePotential, DipoleTerm, MU0_OVER_4PI};
pub use lj::{
    LargeSystem, LennardJones, LennardJonesPotential, LennardJonesTerm, SWITCH_START,
    two_vortex_velocities,
};
pub use nbody::{KozlovHarin, KozlovHarinTerm, SphereNBody};
pub use pendulum::{DoubleSphericalPendulum, GRAVITY, NFoldPendulum};
pub use rod::{BendingTerm, ElasticRod, RodPotential};

use crate::potential::Potential;
use crate::system::SphereSystem;
use nalgebra::Vector3;

/// Which rotations leave a model's Lagrangian invariant, hence which components of the total
/// angular momentum [`SphereSystem::angular_momentum`] the exact flow conserves (Noether).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Symmetry {
    /// No rotational symmetry.
    None,
    /// Rotations about this unit axis: `J·axis` is conserved.
    Axial(Vector3<f64>),
    /// All rotations: the whole vector `J` is conserved.
    Full,
}

/// What every model of this module offers: its [`SphereSystem`] (inertia, potential, equations
/// of motion, energy, invariants), a name and its symmetry.
pub trait SphereModel {
    /// The potential type.
    type Potential: Potential;
    /// The mechanical system.
    fn system(&self) -> &SphereSystem<Self::Potential>;
    /// A short name (`"n-fold pendulum"`, …).
    fn name(&self) -> &'static str;
    /// The rotational symmetry of the Lagrangian.
    fn symmetry(&self) -> Symmetry;
}
