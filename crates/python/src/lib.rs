//! The native module `lie_integrators._native` of the Python package `lie_integrators`.
//!
//! Built with maturin (`pip install ./crates/python`). The Python package re-exports these
//! functions with documentation and type stubs; `docs/python.md` describes the API. Nothing is
//! re-implemented here: the groups' maps come from `liegroup`, the models, methods and runs
//! from the registry of the `lie-integrators` crate.

#![forbid(unsafe_code)]

pub mod ensemble;
pub mod errors;
pub mod groups;
pub mod run;

use pyo3::prelude::*;

/// The module `lie_integrators._native`.
#[pymodule]
#[pyo3(name = "_native")]
pub fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    groups::register(m)?;
    run::register(m)?;
    ensemble::register(m)?;
    Ok(())
}
