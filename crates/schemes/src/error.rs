//! The error type of the `schemes` crate.

use thiserror::Error;

/// Errors found when validating method data ([`crate::ButcherTableau::validate`],
/// [`crate::CommutatorFreeScheme::validate`]) or when asking for more than the crate supports.
///
/// The catalogue constants are valid (tests check it); these errors are for user-supplied
/// tables.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SchemeError {
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
