//! The error type of the `schemes` crate.

use thiserror::Error;

/// Why an integration or a step failed, or why method data are invalid.
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
    /// A step does not advance the time: `t + h` rounds to `t` (the step is below the
    /// resolution of `f64` at this time).
    #[error("time stalled at t = {t:e}: a step of h = {h:e} does not change it")]
    StalledTime {
        /// The time reached.
        t: f64,
        /// The step that did not advance it.
        h: f64,
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
    /// A state given to a method that works on a manifold is not on it: for the variational
    /// integrators on (TS²)ⁿ, `||qᵢ| − 1|` or `|qᵢ·ωᵢ|/max(1, |ωᵢ|)` exceeds the tolerance.
    #[error(
        "state is off the manifold: {what} = {deviation:e} for body {index} exceeds the tolerance {tolerance:e}"
    )]
    NotOnManifold {
        /// Which constraint (`"||q| − 1|"`, `"|q·ω|/max(1, |ω|)"`).
        what: &'static str,
        /// The 0-based index of the body (factor) that violates it.
        index: usize,
        /// The deviation found.
        deviation: f64,
        /// The tolerance it was compared with.
        tolerance: f64,
    },
    /// The discrete equations of a method have no solution for this step size (e.g. the
    /// explicit update (3.17) of \[LLM09\] needs `|aᵢ| < 1`).
    #[error("no solution of the discrete equations at t = {t} with h = {h:e}: {reason}")]
    StepTooLarge {
        /// Time at the start of the step.
        t: f64,
        /// The step size.
        h: f64,
        /// Why the equations have no solution.
        reason: String,
    },
    /// The method cannot do what was asked (e.g. adaptive steps without an embedded method).
    #[error("{method}: {reason}")]
    Unsupported {
        /// The method's name.
        method: String,
        /// What it cannot do.
        reason: String,
    },
    // ---- validation of method data (user-supplied tables) ----
    /// Two sizes that must agree do not (e.g. `c.len()` and the number of stages).
    #[error("{method}: {what} has length {found}, expected {expected}")]
    DimensionMismatch {
        /// Name of the method.
        method: &'static str,
        /// Which array is wrong.
        what: &'static str,
        /// The length that was expected (for ragged rows: the largest allowed).
        expected: usize,
        /// The length found.
        found: usize,
    },
    /// A coefficient is NaN or infinite.
    #[error("{method}: non-finite coefficient in {what}")]
    NonFiniteCoefficient {
        /// Name of the method.
        method: &'static str,
        /// Which array contains it.
        what: &'static str,
    },
    /// The node `c_i` differs from the row sum `Σ_j a_ij` (for commutator-free schemes: from
    /// the sum of all coefficients of the exponentials that produce the stage).
    #[error("{method}: stage {stage} has node c = {node} but row sum {row_sum}")]
    RowSum {
        /// Name of the method.
        method: &'static str,
        /// The 0-based stage index.
        stage: usize,
        /// The node `c_i` given.
        node: f64,
        /// The row sum computed from the coefficients.
        row_sum: f64,
    },
    /// Weights that must sum to one (consistency, order ≥ 1) do not.
    #[error("{method}: the {what} weights sum to {sum}, not 1")]
    NotConsistent {
        /// Name of the method.
        method: &'static str,
        /// Which weights (`"b"`, `"b_hat"`, `"update"`, `"embedded update"`).
        what: &'static str,
        /// The sum found.
        sum: f64,
    },
    /// A stage of a commutator-free scheme refers to its own or a later stage (as a base point
    /// or through a stage derivative `k_j`); commutator-free schemes here are explicit.
    #[error("{method}: {what} refers to stage {referenced}, which is not yet available")]
    NotExplicit {
        /// Name of the method.
        method: &'static str,
        /// Where the reference occurs (e.g. `"stage 3"`, `"update"`).
        what: String,
        /// The 0-based index of the stage referred to.
        referenced: usize,
    },
    /// The continuous extension does not reproduce the weights at θ = 1 or does not vanish
    /// at θ = 0 (a polynomial with a constant term).
    #[error(
        "{method}: continuous extension b_{stage}(1) = {value}, expected b_{stage} = {expected}"
    )]
    DenseOutputMismatch {
        /// Name of the method.
        method: &'static str,
        /// The 0-based stage index.
        stage: usize,
        /// `b_i(1)` computed from the polynomial.
        value: f64,
        /// `b_i`.
        expected: f64,
    },
    /// Rooted trees were requested beyond the supported order.
    #[error("rooted trees of order {requested} requested; at most {max} are supported")]
    OrderTooHigh {
        /// The order requested.
        requested: u32,
        /// The largest supported order, [`crate::MAX_TREE_ORDER`].
        max: u32,
    },
}

impl SchemeError {
    /// The error of a method without an embedded error estimate asked for adaptive steps.
    #[must_use]
    pub fn no_error_estimate(method: impl Into<String>) -> Self {
        Self::Unsupported {
            method: method.into(),
            reason: "no embedded error estimate: adaptive steps are not available".into(),
        }
    }
}
