"""The exceptions of :mod:`lie_integrators`.

Every error the package raises is a :class:`LieIntegratorsError`; its message is one line, the
same as the experiments program prints. Bad input is also a :class:`ValueError`, a failed
integration a :class:`RuntimeError`, and an interrupted one (Ctrl-C) a
:class:`KeyboardInterrupt`.
"""

from __future__ import annotations

from typing import Any

__all__ = [
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


class LieIntegratorsError(Exception):
    """The base class of every error raised by :mod:`lie_integrators`."""


class InputError(LieIntegratorsError, ValueError):
    """Bad input: an unknown model, preset, method or parameter, a bad step, tolerance or
    initial state, a malformed ensemble specification."""


class ParameterError(InputError):
    """A model parameter that is unknown, given twice, not finite or out of its range;
    ``name`` is the parameter's name."""

    name: str = ""


class InitialStateError(InputError):
    """An initial state of the wrong length, not finite, or off the manifold (never projected
    silently)."""


class ShapeError(InputError):
    """An array of the wrong shape (the message names the expected shape)."""


class NotInGroupError(InputError):
    """A matrix given to ``log`` is not an element of the group (not a rotation, not a rigid
    motion, or not finite)."""


class IntegrationError(LieIntegratorsError, RuntimeError):
    """The integration failed (a non-finite value, the step budget, a step below the smallest
    allowed one, ...).

    ``result`` holds the steps computed before the failure (a :class:`~lie_integrators.RunResult`),
    or ``None`` when nothing was computed.
    """

    result: Any = None


class OutputError(LieIntegratorsError, OSError):
    """A file could not be read or written."""


class IntegrationInterrupted(KeyboardInterrupt):
    """The integration was interrupted (Ctrl-C); ``result`` holds the steps computed until
    then (or ``None``).

    It is a :class:`KeyboardInterrupt`, so an interrupted script ends as usual unless it
    catches it.
    """

    result: Any = None
