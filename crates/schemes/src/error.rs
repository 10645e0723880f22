//! The error type of the `schemes` crate.

use thiserror::Error;

/// Why an integration or a step failed.
///
/// Times and step sizes are reported as `f64` (the real part for dual-number scalars).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SchemeError {
    /// A step size `h ≤ 0` or non-finite was requested.
    #[error("invalid step size h = {h}: it must be positive and finite")]
    InvalidStepSize {
        /// The step size given.
        h: f64,
    },
    /// A tolerance `≤ 0` (or non-finite) was given.
    #[error("invalid tolerance {name} = {value}: it must be positive and finite")]
    InvalidTolerance {
        /// Which tolerance (`rtol`, `atol`, `newton_tol`, …).
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// The time span is empty or reversed, or a time is not finite.
    #[error("invalid time span [{t0}, {t_end}]: the end time must be finite and after the start")]
    InvalidTimeSpan {
        /// Start time.
        t0: f64,
        /// End time.
        t_end: f64,
    },
    /// Another option is out of range.
    #[error("invalid option {name}: {reason}")]
    InvalidOption {
        /// The option.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The vector field returned a non-finite value, or a stage or the new state is not finite.
    #[error("non-finite value in the {what} at t = {t}")]
    NonFinite {
        /// Where it appeared ("vector field", "state", "error estimate").
        what: &'static str,
        /// The time of the stage at which it appeared.
        t: f64,
    },
    /// The adaptive controller asked for a step smaller than the minimum step.
    #[error("step size underflow at t = {t}: h = {h:e} is below the minimum {h_min:e}")]
    StepSizeTooSmall {
        /// Time of the last accepted step.
        t: f64,
        /// The step size that was asked for.
        h: f64,
        /// The minimum step size.
        h_min: f64,
    },
    /// The step budget was used up before the end time.
    #[error("step budget of {max_steps} steps exhausted at t = {t}")]
    StepBudgetExhausted {
        /// Time reached.
        t: f64,
        /// The budget.
        max_steps: usize,
    },
    /// An implicit stage equation did not converge.
    #[error(
        "implicit stage equations did not converge at t = {t}: residual {residual:e} after {iterations} iterations (tolerance {tolerance:e})"
    )]
    NonConvergence {
        /// Time at the start of the step.
        t: f64,
        /// The last residual (max-norm of the last update).
        residual: f64,
        /// Iterations done.
        iterations: usize,
        /// The tolerance asked for.
        tolerance: f64,
    },
    /// The method cannot do what was asked (e.g. adaptive steps without an embedded method).
    #[error("{method}: {reason}")]
    Unsupported {
        /// The method's name.
        method: String,
        /// What it cannot do.
        reason: String,
    },
}
