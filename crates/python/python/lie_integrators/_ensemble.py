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
from ._api import _check_run_arguments, _span, _step_arguments
from ._errors import InputError

__all__ = ["EnsembleResult", "ensemble", "run_chunk"]


def run_chunk(spec: str, indices: Sequence[int]) -> List[str]:
    """Run the members ``indices`` of the ensemble ``spec`` (its JSON text); one JSON record
    per member, in the order of ``indices``.

    A top-level function of plain data, so that Dask workers in other processes can run it.
    """
    return [_native.run_member(spec, int(i)) for i in indices]


@dataclass(frozen=True)
class EnsembleResult:
    """The members' results, in member order (``m`` members, ``d`` ambient coordinates).

    - ``records``: one dict per member, as the member runner wrote it (its JSON record);
    - ``ok``: ``(m,)`` bool, whether the member completed;
    - ``errors``: ``{member: one-line message}`` of the members that failed;
    - ``final_states``: ``(m, d)`` float64, NaN rows for the members that failed.
    """

    records: List[Dict[str, Any]]
    ok: np.ndarray
    errors: Dict[int, str]
    final_states: np.ndarray

    def __len__(self) -> int:
        return len(self.records)


def _chunks(m: int, chunk_size: int) -> List[List[int]]:
    return [list(range(s, min(s + chunk_size, m))) for s in range(0, m, chunk_size)]


def ensemble(
    model: str,
    method: str,
    initial_states: Optional[Any] = None,
    parameters: Optional[Any] = None,
    *,
    t_span: Optional[Sequence[float]] = None,
    h: Optional[float] = None,
    steps: Optional[int] = None,
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
    preset: Optional[str] = None,
    max_steps: Optional[int] = None,
    h_min: Optional[float] = None,
    client: Any = None,
    chunk_size: Optional[int] = None,
) -> EnsembleResult:
    """Run ``model`` with ``method`` once per member.

    Members: the rows of ``initial_states`` (shape ``(m, d)``, ambient coordinates in the
    order of the model's ``state_names``) and/or the parameter sets of ``parameters`` (a list
    of ``m`` dicts ``{name: value}``, or a dict ``{name: array of m values}``); given both,
    they pair up member by member. The step options are those of :func:`integrate`.

    Serial by default. Given a Dask ``distributed.Client``, chunks of ``chunk_size`` members
    (default: about four chunks per worker) are mapped over the cluster and the results
    gathered in member order; a worker that dies has its chunks rerun elsewhere by Dask. The
    results are bitwise the same either way. A member that fails is reported in its record
    (and in ``errors``), the others are kept.
    """
    t0, t_end = _span(t_span)
    step = _step_arguments(h, steps, rtol, atol)
    _check_run_arguments(method, t0, t_end, h, steps, rtol, atol, max_steps, h_min, None)
    members = _members(initial_states, parameters)
    spec, m = _native.ensemble_spec(
        model,
        preset,
        method,
        t0,
        t_end,
        members,
        max_steps=max_steps,
        h_min=h_min,
        **step,
    )
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
    records = [json.loads(line) for part in parts for line in part]
    return _result(records)


def _members(initial_states: Optional[Any], parameters: Optional[Any]) -> List[Dict[str, Any]]:
    """The members as a list of ``{"initial_state": [...]?, "params": {...}?}``."""
    states = None
    if initial_states is not None:
        states = np.asarray(initial_states, dtype=np.float64)
        if states.ndim != 2:
            raise InputError(f"initial_states must have shape (members, d), got {states.shape}")
    params: Optional[List[Mapping[str, float]]] = None
    if parameters is not None:
        if isinstance(parameters, Mapping):
            columns = {k: np.atleast_1d(np.asarray(v, dtype=np.float64)) for k, v in parameters.items()}
            lengths = {len(v) for v in columns.values()}
            if len(lengths) > 1:
                raise InputError(f"the parameter arrays must have one length, got {sorted(lengths)}")
            n = lengths.pop() if lengths else 0
            params = [{k: float(v[i]) for k, v in columns.items()} for i in range(n)]
        else:
            params = [dict(p) for p in parameters]
    if states is None and params is None:
        raise InputError("give initial_states or parameters (one member per row or set)")
    if states is not None and params is not None and len(states) != len(params):
        raise InputError(
            f"initial_states has {len(states)} members but parameters has {len(params)}"
        )
    m = len(states) if states is not None else len(params)  # type: ignore[arg-type]
    out: List[Dict[str, Any]] = []
    for i in range(m):
        member: Dict[str, Any] = {}
        if states is not None:
            member["initial_state"] = [float(x) for x in states[i]]
        if params is not None:
            member["params"] = {str(k): float(v) for k, v in params[i].items()}
        out.append(member)
    return out


def _result(records: List[Dict[str, Any]]) -> EnsembleResult:
    ok = np.array([r.get("error") is None for r in records], dtype=bool)
    d = max((len(r.get("final_state") or []) for r in records), default=0)
    finals = np.full((len(records), d), np.nan)
    for i, r in enumerate(records):
        if ok[i]:
            finals[i] = r["final_state"]
    errors = {i: r["error"] for i, r in enumerate(records) if r.get("error") is not None}
    return EnsembleResult(records=records, ok=ok, errors=errors, final_states=finals)
