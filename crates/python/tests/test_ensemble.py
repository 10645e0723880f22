"""Ensembles: chunking and placement do not change a bit; a real distributed.LocalCluster with
two worker processes gives the serial results, survives a worker killed mid-run, and reports a
bad member without losing the others."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any, Dict, List

import numpy as np
import pytest

import lie_integrators as li

distributed = pytest.importorskip("distributed")

MODEL, METHOD = "free-rigid-body", "rkmk4"


def initial_states(m: int, seed: int = 7) -> np.ndarray:
    """m rotations of the preset's initial momentum (on the sphere up to rounding)."""
    m0 = li.integrate(MODEL, METHOD, (0.0, 0.01), steps=1).states[0]
    rotations = li.so3.exp(np.random.default_rng(seed).normal(scale=0.3, size=(m, 3)))
    x = rotations @ m0
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def comparable(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The records without their wall-clock times."""
    return [{k: v for k, v in r.items() if "wall" not in k} for r in records]


def assert_same(a: li.EnsembleResult, b: li.EnsembleResult) -> None:
    assert comparable(a.records) == comparable(b.records)
    np.testing.assert_array_equal(a.final_states.view(np.uint64), b.final_states.view(np.uint64))
    np.testing.assert_array_equal(a.ok, b.ok)
    assert a.errors == b.errors


def test_a_member_is_the_run_from_its_initial_state() -> None:
    x = initial_states(3)
    ens = li.ensemble(MODEL, METHOD, initial_states=x, t_span=(0.0, 1.0), h=0.01)
    assert ens.final_states.shape == (3, 3) and ens.final_states.dtype == np.float64
    assert ens.ok.dtype == np.bool_ and ens.ok.all() and ens.errors == {}
    for i in range(3):
        r = li.integrate(MODEL, METHOD, (0.0, 1.0), h=0.01, initial_state=x[i])
        np.testing.assert_array_equal(ens.final_states[i].view(np.uint64), r.final_state.view(np.uint64))


def test_chunking_does_not_change_a_bit() -> None:
    x = initial_states(7)
    runs = [
        li.ensemble(MODEL, METHOD, initial_states=x, t_span=(0.0, 0.5), h=0.01, chunk_size=k)
        for k in (None, 1, 3, 7)
    ]
    for r in runs[1:]:
        assert_same(runs[0], r)


def test_bad_ensembles_raise_input_error() -> None:
    with pytest.raises(li.InputError):
        li.ensemble(MODEL, METHOD, t_span=(0.0, 1.0))
    with pytest.raises(li.InputError):
        li.ensemble(MODEL, METHOD, initial_states=np.zeros(3), t_span=(0.0, 1.0))
    with pytest.raises(li.InputError):
        li.ensemble(MODEL, METHOD, initial_states=initial_states(2), chunk_size=0)
    with pytest.raises(li.InputError):
        li.ensemble("no-such-model", METHOD, initial_states=initial_states(2))


@pytest.fixture(scope="module")
def client():  # type: ignore[no-untyped-def]
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as c:
        yield c


def test_distributed_equals_serial(client) -> None:  # type: ignore[no-untyped-def]
    x = initial_states(12)
    serial = li.ensemble(MODEL, METHOD, initial_states=x, t_span=(0.0, 1.0), h=0.01)
    for k in (None, 1, 5):
        assert_same(serial, li.ensemble(MODEL, METHOD, initial_states=x, t_span=(0.0, 1.0), h=0.01, client=client, chunk_size=k))


def test_a_bad_member_is_reported_without_losing_the_others(client) -> None:  # type: ignore[no-untyped-def]
    x = initial_states(6)
    x[2, 1] = np.nan
    x[4] = [2.0, 0.0, 0.0]  # off the unit sphere
    for c in (None, client):
        ens = li.ensemble(MODEL, METHOD, initial_states=x, t_span=(0.0, 1.0), h=0.01, client=c, chunk_size=2)
        assert ens.ok.tolist() == [True, True, False, True, False, True]
        assert set(ens.errors) == {2, 4}
        assert all("\n" not in m for m in ens.errors.values())
        assert np.isnan(ens.final_states[[2, 4]]).all() and np.isfinite(ens.final_states[ens.ok]).all()
        good = li.ensemble(MODEL, METHOD, initial_states=x[ens.ok], t_span=(0.0, 1.0), h=0.01)
        np.testing.assert_array_equal(ens.final_states[ens.ok].view(np.uint64), good.final_states.view(np.uint64))


def test_a_worker_killed_mid_run_does_not_lose_a_member() -> None:
    x = initial_states(40, seed=11)
    opts = dict(initial_states=x, t_span=(0.0, 20.0), h=0.005)
    serial = li.ensemble(MODEL, METHOD, **opts)
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        out: Dict[str, Any] = {}

        def submit() -> None:
            try:
                out["result"] = li.ensemble(MODEL, METHOD, client=client, chunk_size=2, **opts)
            except BaseException as e:  # noqa: BLE001 - reported by the assertion below
                out["error"] = e

        t = threading.Thread(target=submit)
        t.start()
        # Wait until both workers run chunks, then kill one of them.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            busy = [w for w, tasks in client.processing().items() if tasks]
            if len(busy) == 2:
                break
            time.sleep(0.02)
        victim = busy[0]
        os.kill(pids[victim], signal.SIGKILL)
        t.join(timeout=120)
        assert not t.is_alive()
        assert victim not in client.scheduler_info()["workers"]
        assert "error" not in out, out.get("error")
        assert_same(serial, out["result"])
