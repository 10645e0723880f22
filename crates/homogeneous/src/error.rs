//! The error type of the `homogeneous` crate.

use thiserror::Error;

/// Errors raised when user data does not describe a valid point of a homogeneous space.
///
/// Actions and their exponentials are infallible kernels on valid points; only the constructors
/// and helpers that take user data return `Result<_, HomogeneousError>`. Every variant carries the
/// numbers that decided the failure (as `f64`, the real part for dual numbers).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum HomogeneousError {
    /// A point that should lie on the unit sphere does not: `deviation = ||q| − 1|` exceeds
    /// `tolerance`.
    #[error(
        "point is off the unit sphere: ||q| − 1| = {deviation:e} exceeds the tolerance {tolerance:e}"
    )]
    OffSphere {
        /// `||q| − 1|`.
        deviation: f64,
        /// The tolerance it was compared with.
        tolerance: f64,
    },
    /// A velocity that should be tangent to the sphere at `q` is not:
    /// `|q·ω| > tolerance · |ω|`.
    #[error(
        "velocity is not tangent to the sphere: |q·ω| = {q_dot_omega:e} exceeds \
         {tolerance:e} · |ω| = {tolerance:e} · {omega_norm:e}"
    )]
    NotTangent {
        /// The inner product `q·ω`.
        q_dot_omega: f64,
        /// `|ω|`.
        omega_norm: f64,
        /// The relative tolerance: tangency requires `|q·ω| ≤ tolerance · |ω|`.
        tolerance: f64,
    },
    /// An input contained a NaN or an infinity.
    #[error("non-finite entry in {what}")]
    NonFinite {
        /// What was being constructed.
        what: &'static str,
    },
    /// A vector that was to be normalized has zero length (no direction to keep).
    #[error("cannot normalize {what}: it has zero length")]
    ZeroLength {
        /// What was being normalized.
        what: &'static str,
    },
    /// Two sizes that must agree do not (runtime powers, flat coordinate arrays).
    #[error("dimension mismatch: expected {expected}, found {found}")]
    DimensionMismatch {
        /// The size that was expected.
        expected: usize,
        /// The size that was given.
        found: usize,
    },
}
