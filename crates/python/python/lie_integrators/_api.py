"""Models, methods, :func:`integrate` and :func:`convergence` (over the Rust registry)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from . import _native
from ._errors import InputError, IntegrationError, IntegrationInterrupted, ShapeError

__all__ = [
    "ModelInfo",
    "MethodInfo",
    "RunResult",
    "ConvergenceRow",
    "models",
    "methods",
    "compositions",
    "integrate",
    "convergence",
]


@dataclass(frozen=True)
class ModelInfo:
    """A model of the experiments program.

    ``presets`` maps each preset name to its description (the first is the default);
    ``defaults`` maps it to its settings: ``t_end``, ``h``, ``convergence_t_end``,
    ``convergence_steps``, ``parameters`` (a list of dicts ``name``, ``default``, ``meaning``,
    ``min``, ``max``, ``integer``: the keyword arguments of :func:`integrate`),
    ``state_names`` and ``initial_state`` (the preset's start in those coordinates); the last
    three are ``None`` for a preset family such as ``chain-N`` (``N`` replaced by a number).
    """

    id: str
    description: str
    presets: Dict[str, str]
    defaults: Dict[str, Dict[str, Any]]


@dataclass(frozen=True)
class MethodInfo:
    """A method identifier: ``kind`` is ``"method"`` (the catalogue), ``"variant"``
    (``<id>-cayley``, ``<id>-embedded``), ``"variational"`` (on (S²)ⁿ) or ``"composition"``
    (a scheme, written ``scheme+base`` with a symmetric base method of even order)."""

    id: str
    order: int
    embedded_order: Optional[int]
    kind: str
    description: str


@dataclass(frozen=True)
class RunResult:
    """The result of :func:`integrate`.

    Arrays (all ``float64``; ``n`` saved points, ``d`` ambient coordinates):

    - ``times``: shape ``(n,)``; ``states``: shape ``(n, d)``, columns named by
      ``state_names``; ``final_state``: shape ``(d,)`` (the exact final state, never thinned);
    - ``energy_error`` ``(n,)``: ``|E − E₀|/|E₀|`` (absolute when ``E₀ = 0``);
      ``unit_length_error`` ``(n,)``: ``max ||qᵢ| − 1|``; ``tangency_error`` ``(n,)`` or
      ``None`` (models on TS²: ``max |qᵢ·ωᵢ|``); ``momentum_error`` ``(n,)`` or ``None``.

    Statistics: ``steps`` (accepted), ``rejected``, ``f_evals``, ``wall_time`` (s), the maxima
    over every step (not only the saved ones) ``max_energy_error``, ``max_unit_length_error``,
    ``max_tangency_error``, ``max_momentum_error``, and ``save_every`` (the stride of the saved
    points at the end). ``outcome`` is ``"completed"``, ``"failed"`` or ``"interrupted"`` (the
    last two only on the ``result`` of the exception), ``message`` the failure's message.
    """

    model: str
    preset: str
    method: str
    state_names: List[str]
    times: np.ndarray
    states: np.ndarray
    final_state: np.ndarray
    energy_error: np.ndarray
    unit_length_error: np.ndarray
    tangency_error: Optional[np.ndarray]
    momentum_error: Optional[np.ndarray]
    t0: float
    t_final: float
    steps: int
    rejected: int
    f_evals: int
    wall_time: float
    energy0: float
    final_energy_error: float
    max_energy_error: float
    max_unit_length_error: float
    max_tangency_error: Optional[float]
    max_momentum_error: Optional[float]
    save_every: int
    outcome: str = "completed"
    message: Optional[str] = None

    @property
    def stats(self) -> Dict[str, Any]:
        """The statistics as a dict (steps, rejected, f_evals, wall_time, the error maxima)."""
        return {
            "steps": self.steps,
            "rejected": self.rejected,
            "f_evals": self.f_evals,
            "wall_time": self.wall_time,
            "energy0": self.energy0,
            "final_energy_error": self.final_energy_error,
            "max_energy_error": self.max_energy_error,
            "max_unit_length_error": self.max_unit_length_error,
            "max_tangency_error": self.max_tangency_error,
            "max_momentum_error": self.max_momentum_error,
        }

    @classmethod
    def _from_native(cls, d: Dict[str, Any]) -> "RunResult":
        series = d.pop("series")
        return cls(
            energy_error=series["energy_error"],
            unit_length_error=series["unit_length_error"],
            tangency_error=series.get("tangency_error"),
            momentum_error=series.get("momentum_error"),
            **d,
        )


@dataclass(frozen=True)
class ConvergenceRow:
    """One method's convergence study: the errors at the final time against the exact solution
    (or a fine reference run) for each step count, and the fitted order.

    ``steps`` (step counts), ``h`` (float64, shape ``(k,)``) and ``errors`` (float64, ``(k,)``)
    list the points measured; ``used``, ``pre_asymptotic`` and ``round_off`` are indices into
    them (the fit's points and the dropped ones); ``skipped`` lists ``(step count, reason)`` of
    the failed points. ``observed_order`` is NaN when the fit had too few points.
    """

    method: str
    expected_order: int
    observed_order: float
    steps: List[int]
    h: np.ndarray
    errors: np.ndarray
    used: List[int] = field(default_factory=list)
    pre_asymptotic: List[int] = field(default_factory=list)
    round_off: List[int] = field(default_factory=list)
    skipped: List[Tuple[float, str]] = field(default_factory=list)


def models() -> List[ModelInfo]:
    """Every model of the experiments program, with its presets and default settings."""
    return [
        ModelInfo(
            id=m["id"],
            description=m["description"],
            presets=dict(m["presets"]),
            defaults=m["defaults"],
        )
        for m in _native.models()
    ]


def methods() -> List[MethodInfo]:
    """Every method identifier :func:`integrate` accepts, except compositions (see
    :func:`compositions`): the catalogue, its Cayley and embedded variants, the variational
    integrators."""
    return [MethodInfo(**m) for m in _native.methods()]


def compositions() -> List[MethodInfo]:
    """The symmetric composition schemes; a method ``scheme+base`` composes ``base`` (a
    symmetric method of even order ``p``, itself possibly a composition) into one of order
    ``p + 2`` or more (``order`` is the scheme's for ``p = 2``)."""
    return [
        MethodInfo(
            id=c["id"],
            order=c["order"],
            embedded_order=None,
            kind="composition",
            description=f'{c["description"]}, {c["stages"]} stages',
        )
        for c in _native.compositions()
    ]


def _step_arguments(
    h: Optional[float],
    steps: Optional[int],
    rtol: Optional[float],
    atol: Optional[float],
) -> Dict[str, Any]:
    chosen = [name for name, v in (("h", h), ("steps", steps), ("rtol/atol", rtol if rtol is not None else atol)) if v is not None]
    if len(chosen) > 1:
        raise InputError(f"give one of h, steps or rtol/atol, not {' and '.join(chosen)}")
    if (rtol is None) != (atol is None):
        raise InputError("rtol and atol go together: give both")
    out: Dict[str, Any] = {"h": h, "steps": steps}
    if rtol is not None:
        out["tol"] = (rtol, atol)
    return out


def _positive(name: str, x: Optional[float]) -> None:
    if x is not None and not (isinstance(x, (int, float)) and np.isfinite(x) and x > 0):
        raise InputError(f"{name} must be positive and finite, got {x!r}")


def _at_least_one(name: str, n: Optional[int]) -> None:
    if n is not None and not (isinstance(n, (int, np.integer)) and n >= 1):
        raise InputError(f"{name} must be an integer of at least 1, got {n!r}")


def _check_run_arguments(
    method: str,
    t0: float,
    t_end: Optional[float],
    h: Optional[float],
    steps: Optional[int],
    rtol: Optional[float],
    atol: Optional[float],
    max_steps: Optional[int],
    h_min: Optional[float],
    save_every: Optional[int],
) -> None:
    """The checks of the experiments program's `run` options, with the Python names."""
    for name, x in (("h", h), ("rtol", rtol), ("atol", atol), ("h_min", h_min)):
        _positive(name, x)
    for name, n in (("steps", steps), ("max_steps", max_steps), ("save_every", save_every)):
        _at_least_one(name, n)
    if not np.isfinite(t0):
        raise InputError(f"t0 must be finite, got {t0!r}")
    if t_end is not None and not (np.isfinite(t_end) and t_end > t0):
        raise InputError(f"t_end must be finite and after t0 = {t0:g}, got {t_end!r}")
    if rtol is not None:
        _, _, embedded = _native.method_info(method)
        if embedded is None:
            pairs = ", ".join(m.id for m in methods() if m.kind == "method" and m.embedded_order is not None)
            raise InputError(
                f"method '{method}' has no embedded error estimate; use h or a pair ({pairs})"
            )


def _span(t_span: Optional[Sequence[float]]) -> Tuple[float, Optional[float]]:
    if t_span is None:
        return 0.0, None
    try:
        t0, t_end = (float(t) for t in t_span)
    except (TypeError, ValueError):
        raise InputError(f"t_span must be a pair (t0, t_end) of numbers, got {t_span!r}") from None
    return t0, t_end


def integrate(
    model: str,
    method: str,
    t_span: Optional[Sequence[float]] = None,
    *,
    h: Optional[float] = None,
    steps: Optional[int] = None,
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
    save_every: Optional[int] = None,
    preset: Optional[str] = None,
    max_steps: Optional[int] = None,
    h_min: Optional[float] = None,
    initial_state: Optional[Any] = None,
    **parameters: float,
) -> RunResult:
    """Integrate a model of the experiments program with a method, by identifiers.

    Model parameters are keyword arguments by name (``I1=2.0``, ``l1=1.0``, ``g=9.81``; the
    names, defaults and ranges are in :func:`models`); ``initial_state`` (shape ``(d,)``)
    replaces the preset's start, in the ambient coordinates of ``state_names``: it must lie on
    the manifold up to rounding (it is checked, never projected).

    ``t_span = (t0, t_end)`` (default: from 0 to the preset's final time). Steps: a fixed step
    ``h``, ``steps`` equal steps, or adaptive steps with tolerances ``rtol`` and ``atol`` (an
    embedded pair); default the preset's ``h``. ``save_every=K`` keeps every K-th step (default:
    at most 4000 evenly thinned points); ``max_steps`` is the step budget and ``h_min`` the
    smallest adaptive step.

    The GIL is released while the integration runs; Ctrl-C stops it after the current step and
    raises :class:`IntegrationInterrupted` (a ``KeyboardInterrupt``) whose ``result`` holds the
    steps computed so far.

    Raises :class:`InputError` (a ``ValueError``) for bad input and :class:`IntegrationError`
    (``result``: the steps before the failure) when the integration fails.
    """
    t0, t_end = _span(t_span)
    step = _step_arguments(h, steps, rtol, atol)
    _check_run_arguments(method, t0, t_end, h, steps, rtol, atol, max_steps, h_min, save_every)
    d = _native.integrate(
        model,
        preset,
        method,
        t0,
        t_end,
        max_steps=max_steps,
        h_min=h_min,
        save_every=save_every,
        params=_parameters(parameters),
        initial_state=_initial_state(initial_state),
        **step,
    )
    return _finish(RunResult._from_native(d))


def _parameters(parameters: Mapping[str, Any]) -> List[Tuple[str, float]]:
    out = []
    for name, value in parameters.items():
        try:
            out.append((name, float(value)))
        except (TypeError, ValueError):
            raise InputError(f"parameter '{name}' must be a number, got {value!r}") from None
    return out


def _initial_state(x: Optional[Any]) -> Optional[List[float]]:
    if x is None:
        return None
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 1:
        raise ShapeError(f"initial_state must have shape (d,), got {a.shape}")
    return [float(v) for v in a]


def _finish(r: RunResult) -> RunResult:
    """``r`` if it completed; otherwise the exception of its outcome, carrying ``r``."""
    if r.outcome == "failed":
        e: BaseException = IntegrationError(r.message)
    elif r.outcome == "interrupted":
        e = IntegrationInterrupted(f"stopped at t = {r.t_final:g} after {r.steps} steps")
    else:
        return r
    e.result = r  # type: ignore[attr-defined]
    raise e


def convergence(
    model: str,
    methods: Sequence[str],
    *,
    steps: Optional[Sequence[int]] = None,
    t_end: Optional[float] = None,
    preset: Optional[str] = None,
) -> List[ConvergenceRow]:
    """The observed orders of ``methods`` on ``model``: each method runs with each step count
    of ``steps`` (default: the preset's) from 0 to ``t_end`` (default: the preset's), the
    errors at ``t_end`` are measured against the exact solution or a fine reference run, and
    the order is fitted (pre-asymptotic and round-off points dropped). The GIL is released
    meanwhile."""
    if isinstance(methods, str):
        methods = [methods]
    rows = _native.convergence(
        model,
        preset,
        list(methods),
        steps=None if steps is None else [int(n) for n in steps],
        t_end=t_end,
    )
    return [ConvergenceRow(**r) for r in rows]
