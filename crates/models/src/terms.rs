//! Stock terms and the linear (uniform-gravity) potential.

use crate::error::{ModelError, same_len};
use crate::potential::{Potential, SiteTerm, TermVisitor};
use liegroup::scalar::c;
use nalgebra::{RealField, Vector3};

/// The site term `φ(q) = a·q + a₀` (uniform gravity on a pendulum link, a clamped bending
/// spring against a fixed direction, …).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearTerm {
    /// The coefficient vector `a`.
    pub a: Vector3<f64>,
    /// The constant `a₀`.
    pub a0: f64,
}

impl SiteTerm for LinearTerm {
    #[inline]
    fn value<T: RealField + Copy>(&self, q: &Vector3<T>) -> T {
        self.a.cast::<T>().dot(q) + c::<T>(self.a0)
    }
}

/// The potential `V(q) = Σᵢ aᵢ·qᵢ`: uniform gravity on a chain of pendula (the N-fold
/// pendulum, the double spherical pendulum) or on independent pendula.
///
/// # Example
/// ```
/// use models::{LinearPotential, Potential};
/// use nalgebra::Vector3;
/// let v = LinearPotential::new(vec![Vector3::new(0.0, 0.0, 2.0)])?;
/// assert_eq!(v.value(&[Vector3::new(0.0, 0.6, 0.8)]), 1.6);
/// # Ok::<(), models::ModelError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LinearPotential {
    coefficients: Vec<Vector3<f64>>,
}

impl LinearPotential {
    /// `V(q) = Σᵢ aᵢ·qᵢ` with `aᵢ = coefficients[i]`.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`] for an empty list, [`ModelError::NonFinite`].
    pub fn new(coefficients: Vec<Vector3<f64>>) -> Result<Self, ModelError> {
        if coefficients.is_empty() {
            return Err(ModelError::NoBodies);
        }
        for (i, a) in coefficients.iter().enumerate() {
            if !a.iter().all(|x| x.is_finite()) {
                return Err(ModelError::NonFinite {
                    name: "linear potential coefficient",
                    index: i,
                });
            }
        }
        Ok(Self { coefficients })
    }

    /// The coefficients `aᵢ`.
    #[must_use]
    pub fn coefficients(&self) -> &[Vector3<f64>] {
        &self.coefficients
    }

    /// `V = Σᵢ aᵢ·qᵢ` with `aᵢ = coefficients[i]`, checking the count against `n`.
    pub(crate) fn with_count(
        coefficients: Vec<Vector3<f64>>,
        n: usize,
    ) -> Result<Self, ModelError> {
        same_len("linear potential coefficients", n, coefficients.len())?;
        Self::new(coefficients)
    }
}

impl Potential for LinearPotential {
    fn bodies(&self) -> usize {
        self.coefficients.len()
    }
    fn visit_terms<V: TermVisitor>(&self, v: &mut V) {
        for (i, a) in self.coefficients.iter().enumerate() {
            v.site(i, &LinearTerm { a: *a, a0: 0.0 });
        }
    }
}
