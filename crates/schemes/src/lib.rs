//! # schemes (engines; the method catalogue is merged separately)

#![warn(missing_docs)]

mod cf;
mod coeffs;
mod control;
mod convergence;
mod driver;
mod error;
mod implicit;
mod point_map;
mod rkmk;
pub mod special;
mod stepper;

pub use cf::CommutatorFree;
pub use control::{Controller, ControllerState, StepControl};
pub use convergence::{ConvergenceRow, OrderFit, fit_order, format_table, measure_order};
pub use driver::{
    IntegrationFailure, Options, Save, Solution, Stats, StepSize, integrate,
    integrate_with_observer,
};
pub use error::SchemeError;
pub use implicit::{ImplicitOptions, ImplicitRkmk, StageSolver};
pub use point_map::{AmbientDistance, GroupLogDistance, PointDistance, PointMap};
pub use rkmk::Rkmk;
pub use stepper::{Algebra, Problem, Scalar, StepOutput, StepStats, Stepper, Tolerance};
