//! The error type of the `models` crate.

use thiserror::Error;

/// Why a model, a mechanical system or a state could not be built from the data given.
///
/// Constructors that take user data return it; the kernels (vector fields, energies, gradients)
/// are infallible on valid input.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// A parameter that must be positive (a mass, a length, a stiffness, a moment of inertia, a
    /// molecular constant, a cut-off radius) is zero or negative.
    #[error("{name}[{index}] = {value} must be positive")]
    NonPositive {
        /// Which parameter (`"mass"`, `"length"`, `"stiffness"`, …).
        name: &'static str,
        /// Its index in the parameter list (0 for scalars).
        index: usize,
        /// The value given.
        value: f64,
    },
    /// A parameter that must be non-negative (the gravitational acceleration) is negative.
    #[error("{name} = {value} must be non-negative")]
    Negative {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// The inertia matrix is not symmetric: `|Mᵢⱼ − Mⱼᵢ|` exceeds the tolerance of
    /// [`SphereSystem::new`](crate::SphereSystem::new).
    #[error("inertia matrix not symmetric: M[{i}][{j}] = {mij} but M[{j}][{i}] = {mji}")]
    InertiaNotSymmetric {
        /// Row.
        i: usize,
        /// Column.
        j: usize,
        /// `Mᵢⱼ`.
        mij: f64,
        /// `Mⱼᵢ`.
        mji: f64,
    },
    /// The inertia matrix is not positive definite (its Cholesky factorization breaks down at
    /// the given pivot).
    #[error("inertia matrix not positive definite: Cholesky pivot {pivot} is {value}")]
    InertiaNotPositiveDefinite {
        /// The index of the failing pivot.
        pivot: usize,
        /// The value of the pivot before its square root (`≤ 0`).
        value: f64,
    },
    /// A system of `N = 0` bodies (or a grid with no points) was requested.
    #[error("a system needs at least one body (N = 0 given)")]
    NoBodies,
    /// A vector that must be a unit vector (a direction, a point of S²) is not, within
    /// [`UNIT_TOLERANCE`](crate::UNIT_TOLERANCE).
    #[error("{name}[{index}] has norm {norm}, expected a unit vector")]
    NotUnit {
        /// Which vector (`"up"`, `"q"`, `"clamp direction"`, …).
        name: &'static str,
        /// Its index (0 for single vectors).
        index: usize,
        /// Its norm.
        norm: f64,
    },
    /// An angular velocity is not tangent: `|qᵢ·ωᵢ| > `
    /// [`UNIT_TOLERANCE`](crate::UNIT_TOLERANCE)`·max(1, |ωᵢ|)`.
    #[error("omega[{index}] is not tangent to q[{index}]: q·ω = {dot}")]
    NotTangent {
        /// The body.
        index: usize,
        /// `qᵢ·ωᵢ`.
        dot: f64,
    },
    /// Two lists that must have matching sizes do not.
    #[error("dimension mismatch in {what}: expected {expected}, found {found}")]
    DimensionMismatch {
        /// What was compared (`"lengths"`, `"inertia matrix rows"`, …).
        what: &'static str,
        /// The size expected.
        expected: usize,
        /// The size given.
        found: usize,
    },
    /// A parameter or state entry is NaN or infinite.
    #[error("non-finite value in {name}[{index}]")]
    NonFinite {
        /// Which parameter or vector.
        name: &'static str,
        /// Its index (0 for scalars).
        index: usize,
    },
    /// A matrix that must be symmetric (a block of a resistance tensor) is not:
    /// `max |Aᵢⱼ − Aⱼᵢ| > 1e-12 · max |Aᵢⱼ|`.
    #[error("{name} is not symmetric (max |A − Aᵀ| = {asymmetry})")]
    NotSymmetric {
        /// Which matrix.
        name: &'static str,
        /// `max |Aᵢⱼ − Aⱼᵢ|`.
        asymmetry: f64,
    },
    /// A matrix that must be positive definite (the 6 × 6 resistance tensor) is not.
    #[error("{name} is not positive definite (smallest eigenvalue {smallest_eigenvalue})")]
    NotPositiveDefinite {
        /// Which matrix.
        name: &'static str,
        /// Its smallest eigenvalue.
        smallest_eigenvalue: f64,
    },
}

/// Check `value > 0` and finite.
pub(crate) fn positive(name: &'static str, index: usize, value: f64) -> Result<f64, ModelError> {
    if !value.is_finite() {
        return Err(ModelError::NonFinite { name, index });
    }
    if value > 0.0 {
        Ok(value)
    } else {
        Err(ModelError::NonPositive { name, index, value })
    }
}

/// Check every entry of a list with [`positive`].
pub(crate) fn all_positive(name: &'static str, values: &[f64]) -> Result<(), ModelError> {
    for (i, &v) in values.iter().enumerate() {
        positive(name, i, v)?;
    }
    Ok(())
}

/// Check `value ≥ 0` and finite.
pub(crate) fn non_negative(name: &'static str, value: f64) -> Result<f64, ModelError> {
    if !value.is_finite() {
        return Err(ModelError::NonFinite { name, index: 0 });
    }
    if value < 0.0 {
        return Err(ModelError::Negative { name, value });
    }
    Ok(value)
}

/// Check that `v` is finite and of unit length within [`UNIT_TOLERANCE`](crate::UNIT_TOLERANCE).
pub(crate) fn unit(
    name: &'static str,
    index: usize,
    v: &nalgebra::Vector3<f64>,
) -> Result<nalgebra::Vector3<f64>, ModelError> {
    if !v.iter().all(|x| x.is_finite()) {
        return Err(ModelError::NonFinite { name, index });
    }
    let norm = v.norm();
    if (norm - 1.0).abs() > crate::UNIT_TOLERANCE {
        return Err(ModelError::NotUnit { name, index, norm });
    }
    Ok(*v)
}

/// Check that two sizes agree.
pub(crate) fn same_len(
    what: &'static str,
    expected: usize,
    found: usize,
) -> Result<(), ModelError> {
    if expected == found {
        Ok(())
    } else {
        Err(ModelError::DimensionMismatch {
            what,
            expected,
            found,
        })
    }
}

/// The inertia matrix `m` (symmetric, `n × n`; column- and row-major storage coincide) is
/// positive definite: its Cholesky factorization (of a copy) succeeds. Otherwise
/// [`ModelError::InertiaNotPositiveDefinite`] with the failing pivot.
pub(crate) fn positive_definite(m: &[f64], n: usize) -> Result<(), ModelError> {
    let mut r = m.to_vec();
    liegroup::linalg::cholesky_in_place(&mut r, n).map_err(|e| match e {
        liegroup::linalg::FactorError::NotPositiveDefinite { index, value } => {
            ModelError::InertiaNotPositiveDefinite {
                pivot: index,
                value,
            }
        }
        _ => unreachable!("a Cholesky factorization fails with NotPositiveDefinite only"),
    })
}
