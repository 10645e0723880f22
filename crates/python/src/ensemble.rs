//! Ensembles: bindings of `lie_integrators::ensemble` (the spec and the member runner).
//!
//! The Python side builds the spec's JSON text and maps chunks of member indices over
//! [`run_members`], in this process or on Dask workers; each member's JSON line depends on the
//! spec and its index alone.

use crate::run::py_error;
use lie_integrators::ensemble::{EnsembleSpec, run_member};
use pyo3::prelude::*;

/// Check the ensemble spec `text` (JSON, the format of `lie_integrators::ensemble`): its hash
/// and member count, or `InputError` with the one-line message.
#[pyfunction]
pub fn ensemble_spec(py: Python<'_>, text: &str) -> PyResult<(String, usize)> {
    let spec = EnsembleSpec::from_json(text).map_err(|e| py_error(py, &e))?;
    Ok((spec.hash(), spec.members.len()))
}

/// Run the members `indices` of the spec `text`, with the GIL released: one JSON line per
/// member, in the order of `indices` (a member that fails is a line with its status and
/// message; the call itself fails only for a bad spec or index).
#[pyfunction]
pub fn run_members(py: Python<'_>, text: &str, indices: Vec<usize>) -> PyResult<Vec<String>> {
    let spec = EnsembleSpec::from_json(text).map_err(|e| py_error(py, &e))?;
    let n = spec.members.len();
    if let Some(bad) = indices.iter().find(|&&i| i >= n) {
        return Err(crate::errors::raise(
            py,
            crate::errors::ErrorKind::Input,
            format!("member {bad} does not exist: the ensemble has {n} members"),
        ));
    }
    let hash = spec.hash();
    Ok(py.detach(|| {
        indices
            .iter()
            .map(|&i| run_member(&spec, i).to_json_line(&hash, n))
            .collect()
    }))
}

/// Register the functions in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ensemble_spec, m)?)?;
    m.add_function(wrap_pyfunction!(run_members, m)?)?;
    Ok(())
}
