//! Rust errors as the Python exceptions of `lie_integrators._errors` (one-line messages).

use pyo3::prelude::*;
use pyo3::types::PyType;

/// The Python exception class an error becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad input: `InputError` (a `ValueError`).
    Input,
    /// A model parameter that is unknown, given twice or out of range: `ParameterError` (an
    /// `InputError`).
    Parameter,
    /// An initial state of the wrong length, not finite or off the manifold:
    /// `InitialStateError` (an `InputError`).
    InitialState,
    /// An array of the wrong shape: `ShapeError` (an `InputError`).
    Shape,
    /// A matrix that is not an element of the group: `NotInGroupError` (an `InputError`).
    NotInGroup,
    /// The integration failed: `IntegrationError` (a `RuntimeError`).
    Integration,
    /// A file could not be read or written: `OutputError` (an `OSError`).
    Io,
    /// The run was stopped (Ctrl-C): `IntegrationInterrupted` (a `KeyboardInterrupt`).
    Interrupted,
}

impl ErrorKind {
    /// The class name in `lie_integrators._errors`.
    #[must_use]
    pub const fn class_name(self) -> &'static str {
        match self {
            Self::Input => "InputError",
            Self::Parameter => "ParameterError",
            Self::InitialState => "InitialStateError",
            Self::Shape => "ShapeError",
            Self::NotInGroup => "NotInGroupError",
            Self::Integration => "IntegrationError",
            Self::Io => "OutputError",
            Self::Interrupted => "IntegrationInterrupted",
        }
    }
}

/// The class of `kind`, from the pure-Python module `lie_integrators._errors` (so that the
/// classes can inherit from two bases, e.g. `LieIntegratorsError` and `ValueError`).
fn class<'py>(py: Python<'py>, kind: ErrorKind) -> PyResult<Bound<'py, PyType>> {
    let cls = py
        .import("lie_integrators._errors")?
        .getattr(kind.class_name())?;
    Ok(cls.cast_into::<PyType>()?)
}

/// The exception of `kind` with `message`.
pub fn raise(py: Python<'_>, kind: ErrorKind, message: String) -> PyErr {
    match class(py, kind) {
        Ok(cls) => PyErr::from_type(cls, message),
        Err(e) => e,
    }
}

/// The exception of `kind` with `message` and the attribute `attribute` set to `value`.
pub fn raise_with<'py>(
    py: Python<'py>,
    kind: ErrorKind,
    message: String,
    attribute: &str,
    value: Bound<'py, PyAny>,
) -> PyErr {
    let made = class(py, kind).and_then(|cls| {
        let e = cls.call1((message,))?;
        e.setattr(attribute, value)?;
        Ok(PyErr::from_value(e))
    });
    made.unwrap_or_else(|e| e)
}
