"""Ensembles: many runs of one model with one method, serial or on a Dask cluster.

The members run in the registry's member runner (Rust); this module only splits the member
indices into chunks, maps :func:`run_chunk` over them (in this process, or on the workers of a
``distributed.Client``) and gathers the records in member order. A member's record depends on
the specification and its index alone, so the results are bitwise the same for any chunking and
any placement.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy as np

from . import _native
from ._api import _span
from ._errors import InputError, ShapeError

__all__ = ["EnsembleResult", "ensemble", "run_chunk"]


def run_chunk(spec: str, indices: Sequence[int]) -> List[str]:
    """Run the members ``indices`` of the ensemble ``spec`` (its JSON text): one JSON line per
    member, in the order of ``indices``.

    A top-level function of plain data, so that Dask workers in other processes can run it.
    """
    return _native.run_members(spec, [int(i) for i in indices])


@dataclass(frozen=True)
class EnsembleResult:
    """The members' results, in member order (``m`` members, ``d`` ambient coordinates).

    - ``records``: one dict per member, the member runner's JSON line (``member``, ``id``,
      ``status`` — ``"completed"``, ``"failed"`` or ``"error"`` —, ``message``, ``t_final``,
      ``steps``, ``rejected``, ``f_evals``, ``energy0``, ``final_energy_error``,
      ``max_energy_error``, ``max_unit_length_error``, ``max_tangency_error``,
      ``max_momentum_error``, ``final_state``), non-finite numbers as floats;
    - ``ok``: ``(m,)`` bool, whether the member completed;
    - ``errors``: ``{member: one-line message}`` of the members that did not complete;
    - ``final_states``: ``(m, d)`` float64, NaN rows for the members that did not complete;
    - ``spec``: the spec's JSON text (the same members run again give the same bits).
    """

    records: List[Dict[str, Any]]
    ok: np.ndarray
    errors: Dict[int, str]
    final_states: np.ndarray
    spec: str

    def __len__(self) -> int:
        return len(self.records)


def _chunks(m: int, chunk_size: int) -> List[List[int]]:
    return [list(range(s, min(s + chunk_size, m))) for s in range(0, m, chunk_size)]


def _number(x: float) -> Any:
    """A number for the spec: non-finite ones as the strings the spec reads."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def ensemble(
    model: str,
    method: str,
    initial_states: Optional[Any] = None,
    parameters: Optional[Any] = None,
    *,
    t_span: Optional[Sequence[float]] = None,
    h: Optional[float] = None,
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
    preset: Optional[str] = None,
    max_steps: Optional[int] = None,
    client: Any = None,
    chunk_size: Optional[int] = None,
    **common: float,
) -> EnsembleResult:
    """Run ``model`` with ``method`` once per member and gather the results in member order.

    Members: the rows of ``initial_states`` (shape ``(m, d)``, ambient coordinates in the
    order of the model's ``state_names``) and/or the parameter sets of ``parameters`` (a list
    of ``m`` dicts ``{name: value}``, or a dict ``{name: array of m values}``); given both,
    they pair up member by member. ``t_span``, ``h`` or ``rtol`` with ``atol``, ``preset`` and
    ``max_steps`` are those of :func:`integrate`; further keyword arguments are model
    parameters common to every member.

    Serial by default. Given a Dask ``distributed.Client``, chunks of ``chunk_size`` members
    (default: about four chunks per worker) are mapped over the cluster's workers and gathered
    in member order; a worker that dies has its chunks rerun elsewhere by Dask. A member's
    result depends on the spec and its index alone: the results are bitwise the same serial or
    distributed, for any chunking. A member that cannot start or fails (say a NaN initial
    state) is reported in its record and in ``errors``; the others are kept.

    Raises :class:`InputError` for a bad ensemble (unknown model, preset or method, a bad time
    span or step, no members).
    """
    spec_dict: Dict[str, Any] = {"model": model, "method": method}
    if preset is not None:
        spec_dict["preset"] = preset
    if t_span is not None:
        t0, t_end = _span(t_span)
        spec_dict["t0"], spec_dict["t_end"] = _number(t0), _number(t_end)
    for key, value in (("h", h), ("rtol", rtol), ("atol", atol)):
        if value is not None:
            spec_dict[key] = _number(float(value))
    if max_steps is not None:
        spec_dict["max_steps"] = max_steps
    if common:
        spec_dict["params"] = {k: _number(float(v)) for k, v in common.items()}
    spec_dict["members"] = _members(initial_states, parameters)
    spec = json.dumps(spec_dict, allow_nan=False)
    _, m = _native.ensemble_spec(spec)
    if chunk_size is None:
        workers = 1 if client is None else max(1, len(client.scheduler_info().get("workers", {})))
        chunk_size = max(1, math.ceil(m / (4 * workers)))
    elif not (isinstance(chunk_size, int) and chunk_size >= 1):
        raise InputError(f"chunk_size must be an integer of at least 1, got {chunk_size!r}")
    chunks = _chunks(m, chunk_size)
    if client is None:
        parts = [run_chunk(spec, c) for c in chunks]
    else:
        futures = client.map(run_chunk, [spec] * len(chunks), chunks, pure=True)
        parts = client.gather(futures)
    records = [_record(line) for part in parts for line in part]
    return _result(records, spec)


def _members(initial_states: Optional[Any], parameters: Optional[Any]) -> List[Dict[str, Any]]:
    """The spec's members: ``{"initial_state": [...]}`` and/or ``{"params": {...}}``."""
    states = None
    if initial_states is not None:
        states = np.asarray(initial_states, dtype=np.float64)
        if states.ndim != 2:
            raise ShapeError(f"initial_states must have shape (members, d), got {states.shape}")
    params: Optional[List[Mapping[str, Any]]] = None
    if parameters is not None:
        if isinstance(parameters, Mapping):
            columns = {k: np.atleast_1d(np.asarray(v, dtype=np.float64)) for k, v in parameters.items()}
            lengths = {len(v) for v in columns.values()}
            if len(lengths) > 1:
                raise InputError(f"the parameter arrays must have one length, got {sorted(lengths)}")
            n = lengths.pop() if lengths else 0
            params = [{k: v[i] for k, v in columns.items()} for i in range(n)]
        else:
            params = [dict(p) for p in parameters]
    if states is None and params is None:
        raise InputError("give initial_states or parameters (one member per row or set)")
    if states is not None and params is not None and len(states) != len(params):
        raise InputError(f"initial_states has {len(states)} members but parameters has {len(params)}")
    m = len(states) if states is not None else len(params)  # type: ignore[arg-type]
    out: List[Dict[str, Any]] = []
    for i in range(m):
        member: Dict[str, Any] = {}
        if states is not None:
            member["initial_state"] = [_number(float(x)) for x in states[i]]
        if params is not None:
            member["params"] = {str(k): _number(float(v)) for k, v in params[i].items()}
        out.append(member)
    return out


_NON_FINITE = {"NaN": math.nan, "inf": math.inf, "-inf": -math.inf}


def _record(line: str) -> Dict[str, Any]:
    """A JSON line of the member runner, with its non-finite numbers as floats."""
    r = json.loads(line)
    for k, v in r.items():
        if k not in ("spec", "id", "status", "message") and isinstance(v, str):
            r[k] = _NON_FINITE[v]
    r["final_state"] = [_NON_FINITE.get(x, x) if isinstance(x, str) else x for x in r["final_state"]]
    return r


def _result(records: List[Dict[str, Any]], spec: str) -> EnsembleResult:
    ok = np.array([r["status"] == "completed" for r in records], dtype=bool)
    d = max((len(r["final_state"]) for r in records), default=0)
    finals = np.full((len(records), d), np.nan)
    for i, r in enumerate(records):
        if ok[i]:
            finals[i] = r["final_state"]
    errors = {i: r["message"] for i, r in enumerate(records) if not ok[i]}
    return EnsembleResult(records=records, ok=ok, errors=errors, final_states=finals, spec=spec)
