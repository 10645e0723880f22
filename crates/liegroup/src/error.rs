//! The error type of the `liegroup` crate.

use thiserror::Error;

/// Errors raised when user data does not describe a valid group element or algebra element.
///
/// Kernels (exp, log, compose, …) are infallible on valid elements; only constructors that take
/// user data return `Result<_, LieError>`.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum LieError {
    /// An input contained a NaN or an infinity.
    #[error("non-finite entry in {what}")]
    NonFinite {
        /// What was being constructed.
        what: &'static str,
    },
    /// A matrix that should be orthogonal is not: `deviation = ‖RᵀR − I‖_F` exceeds `tolerance`.
    #[error(
        "matrix is not orthogonal: ‖RᵀR − I‖ = {deviation:e} exceeds the tolerance {tolerance:e}"
    )]
    NotOrthogonal {
        /// The Frobenius norm of `RᵀR − I`.
        deviation: f64,
        /// The tolerance it was compared with.
        tolerance: f64,
    },
    /// An orthogonal matrix with determinant −1 (a reflection, not a rotation).
    #[error("matrix is a reflection (determinant {determinant}), not a rotation")]
    NotARotation {
        /// The determinant found.
        determinant: f64,
    },
    /// A unit complex number / quaternion / direction is not of unit length.
    #[error("{what} is not of unit length: |norm − 1| = {deviation:e} exceeds {tolerance:e}")]
    NotUnit {
        /// What was being constructed.
        what: &'static str,
        /// `|norm − 1|`.
        deviation: f64,
        /// The tolerance it was compared with.
        tolerance: f64,
    },
    /// A homogeneous matrix whose last row is not `(0, …, 0, 1)`.
    #[error("homogeneous matrix has last row {found:?}, expected (0, …, 0, 1)")]
    NotHomogeneous {
        /// The last row found.
        found: Vec<f64>,
    },
    /// Two runtime-sized objects that must agree in size do not.
    #[error("dimension mismatch: expected {expected}, found {found}")]
    DimensionMismatch {
        /// The size that was expected.
        expected: usize,
        /// The size that was given.
        found: usize,
    },
    /// A check of the conformance kit was asked to run on an empty sample set.
    #[error("the conformance kit needs at least one sample; the sample set is empty")]
    EmptySampleSet,
}
