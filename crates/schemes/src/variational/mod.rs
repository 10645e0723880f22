//! Variational integrators: discrete Euler–Lagrange equations of a discrete Lagrangian.
//!
//! - [`SphereVariational`]: the Lee–Leok–McClamroch integrator for Lagrangian systems on
//!   (S²)ⁿ [LLM09, §3], implicit (any inertia matrix) or explicit (diagonal inertia), for any
//!   [`SphereLagrangian`] `(M, V)`. It implements [`Stepper`](crate::Stepper) for
//!   `VecPowerAction<TangentSphereAction<T>>` and `PowerAction<TangentSphereAction<T>, N>`, so
//!   it runs under [`integrate`](crate::integrate), [`measure_order`](crate::measure_order)
//!   and [`Composition`](crate::composition::Composition) like every other method (the vector
//!   field passed to `step` is ignored: the stepper holds the Lagrangian).
//!
//! `schemes` knows no model: a mechanical system enters through the small trait
//! [`SphereLagrangian`] (number of bodies, `Mᵢⱼ`, `V`, `∂V/∂qᵢ`, optionally `∇²V·v`), which
//! `models::SphereSystem` implements.
//!
//! # Building them by name
//! Unlike the methods of [`crate::methods`], these need a Lagrangian, so they have their own
//! small registry: [`METHODS`] and [`find`] give a [`VariationalSpec`] whose
//! [`stepper`](VariationalSpec::stepper) builds the integrator for a Lagrangian.
//!
//! ```
//! use nalgebra::Vector3;
//! use schemes::variational::{self, SphereLagrangian};
//! struct Free;
//! impl SphereLagrangian for Free {
//!     fn bodies(&self) -> usize { 1 }
//!     fn inertia(&self, _: usize, _: usize) -> f64 { 1.0 }
//!     fn potential(&self, _: &[Vector3<f64>]) -> f64 { 0.0 }
//!     fn potential_gradient(&self, _: &[Vector3<f64>], g: &mut [Vector3<f64>]) {
//!         g[0] = Vector3::zeros();
//!     }
//! }
//! let spec = variational::find("llm-explicit")?;
//! let stepper = spec.stepper::<_, f64>(Free)?;
//! assert_eq!(spec.order, 2);
//! # let _ = stepper;
//! # Ok::<(), schemes::SchemeError>(())
//! ```
//!
//! # References
//! \[LLM09\] T. Lee, M. Leok, N. H. McClamroch, "Lagrangian mechanics and variational
//! integrators on two-spheres", Int. J. Numer. Meth. Engng. 79 (2009) 1147–1174,
//! arXiv:0707.0022. Equation numbers are the paper's; the factors lost in the extracted text
//! are restored from the derivation (see `SphereVariational`).

mod lagrangian;
mod sphere;

pub use lagrangian::{SphereLagrangian, VariationalScalar, sphere_energy};
pub use sphere::{SphereVariational, VariationalForm, VariationalOptions, VariationalSolver};

use crate::error::SchemeError;

/// A named variational method on (S²)ⁿ: stable identifier, order, reference, and the form it
/// builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariationalSpec {
    /// Stable kebab-case identifier (`llm-implicit`, `llm-explicit`).
    pub id: &'static str,
    /// The classical order.
    pub order: u32,
    /// Reference key and equations.
    pub reference: &'static str,
    /// One line of description.
    pub description: &'static str,
    /// The form of the discrete equations.
    pub form: VariationalForm,
}

impl VariationalSpec {
    /// The integrator for `lagrangian` (default solver options).
    ///
    /// # Errors
    /// As [`SphereVariational::new`].
    pub fn stepper<L: SphereLagrangian, T: VariationalScalar>(
        &self,
        lagrangian: L,
    ) -> Result<SphereVariational<L, T>, SchemeError> {
        Ok(SphereVariational::new(lagrangian, self.form)?.named(self.id))
    }
}

/// The variational methods on (S²)ⁿ, by identifier.
pub const METHODS: &[VariationalSpec] = &[
    VariationalSpec {
        id: "llm-implicit",
        order: 2,
        reference: "[LLM09, eqs. (3.10)–(3.16)]",
        description: "Lee–Leok–McClamroch variational integrator on (S²)ⁿ, implicit (any inertia)",
        form: VariationalForm::Implicit,
    },
    VariationalSpec {
        id: "llm-explicit",
        order: 2,
        reference: "[LLM09, Cor. 3, eqs. (3.17)–(3.18)]",
        description: "Lee–Leok–McClamroch variational integrator on (S²)ⁿ, explicit (diagonal inertia)",
        form: VariationalForm::Explicit,
    },
];

/// The variational method with identifier `id`.
///
/// # Errors
/// [`SchemeError::InvalidOption`] naming the known identifiers.
pub fn find(id: &str) -> Result<&'static VariationalSpec, SchemeError> {
    METHODS.iter().find(|m| m.id == id).ok_or_else(|| {
        let known: Vec<&str> = METHODS.iter().map(|m| m.id).collect();
        SchemeError::InvalidOption {
            name: "method",
            reason: format!(
                "unknown variational method '{id}'; known: {}",
                known.join(", ")
            ),
        }
    })
}
