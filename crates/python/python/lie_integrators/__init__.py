"""Integrators for differential equations on Lie groups and homogeneous spaces.

The Python face of the Rust workspace ``lie-integrators``:

- the models and presets of the experiments program and every catalogue method, by id
  (:func:`models`, :func:`methods`);
- :func:`integrate`, returning NumPy arrays (times, ambient states, energy and constraint
  errors) and statistics (:class:`RunResult`); :func:`convergence`, the observed orders;
- :func:`ensemble`, many runs of one model, serial or on a Dask ``distributed`` cluster;
- :mod:`lie_integrators.so3` and :mod:`lie_integrators.se3`: ``exp``, ``log``, ``dexp``,
  ``dexpinv`` and the Cayley map, vectorised over arrays.

Every error is a :class:`LieIntegratorsError` (bad input also a :class:`ValueError`).
"""

from __future__ import annotations

from . import se3, so3
from ._errors import (
    InputError,
    IntegrationError,
    InitialStateError,
    IntegrationInterrupted,
    LieIntegratorsError,
    ParameterError,
    NotInGroupError,
    OutputError,
    ShapeError,
)
from ._api import (
    ConvergenceRow,
    MethodInfo,
    ModelInfo,
    RunResult,
    compositions,
    convergence,
    integrate,
    methods,
    models,
)
from ._ensemble import EnsembleResult, ensemble
from ._native import __version__

__all__ = [
    "__version__",
    "models",
    "methods",
    "compositions",
    "integrate",
    "convergence",
    "ensemble",
    "EnsembleResult",
    "ModelInfo",
    "MethodInfo",
    "RunResult",
    "ConvergenceRow",
    "so3",
    "se3",
    "LieIntegratorsError",
    "InputError",
    "ParameterError",
    "InitialStateError",
    "ShapeError",
    "NotInGroupError",
    "IntegrationError",
    "OutputError",
    "IntegrationInterrupted",
]
