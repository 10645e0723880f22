"""integrate, models, methods, convergence: bitwise equality with the experiments program,
array shapes and dtypes, invariants, errors with the program's one-line messages, partial
results, the GIL, Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import lie_integrators as li


def bits(x: np.ndarray) -> np.ndarray:
    """The bit patterns of a float64 array (so that equality is bitwise, NaN included)."""
    return np.ascontiguousarray(x, dtype=np.float64).view(np.uint64)


# (model, method, python keywords, program flags)
CASES = [
    ("free-rigid-body", "cf4", {"t_span": (0.0, 2.0), "h": 0.01}, ["--h", "0.01", "--t-end", "2"]),
    (
        "double-spherical-pendulum",
        "rkmk54",
        {"t_span": (0.0, 1.0), "rtol": 1e-6, "atol": 1e-8},
        ["--rtol", "1e-6", "--atol", "1e-8", "--t-end", "1"],
    ),
    (
        "double-spherical-pendulum",
        "yoshida4+llm-implicit",
        {"t_span": (0.0, 0.5), "h": 0.01, "save_every": 7},
        ["--h", "0.01", "--t-end", "0.5", "--save-every", "7"],
    ),
    (
        "double-spherical-pendulum",
        "rkmk4",
        {"t_span": (0.0, 0.5), "h": 0.01, "l1": 4.9, "m2": 2.5},
        ["--h", "0.01", "--t-end", "0.5", "--param", "l1=4.9", "--param", "m2=2.5"],
    ),
    (
        "free-rigid-body",
        "rkmk54",
        {"t_span": (0.0, 3.0), "rtol": 1e-9, "atol": 1e-9, "I2": 2.5, "initial_state": [0.0, 0.6, 0.8]},
        ["--rtol", "1e-9", "--atol", "1e-9", "--t-end", "3", "--param", "I2=2.5", "--initial-state", "0,0.6,0.8"],
    ),
    (
        "n-pendulum",
        "rkmk4-cayley",
        {"t_span": (0.25, 0.5), "h": 0.005, "preset": "chain-3"},
        ["--h", "0.005", "--t0", "0.25", "--t-end", "0.5", "--preset", "chain-3"],
    ),
]


@pytest.mark.parametrize(("model", "method", "kw", "flags"), CASES, ids=[c[0] + ":" + c[1] for c in CASES])
def test_results_equal_the_programs_bitwise(cli, model, method, kw, flags) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("run", model, "--method", method, "--json", *flags)
    assert code == 0, err
    r = li.integrate(model, method, **kw)
    np.testing.assert_array_equal(bits(r.final_state), bits(np.array(out["final_state"])))
    for name in ("t_final", "energy0", "final_energy_error", "max_energy_error", "max_unit_length_error"):
        assert bits(np.array(getattr(r, name))) == bits(np.array(out[name])), name
    assert (r.steps, r.rejected, r.f_evals) == (out["steps"], out["rejected_steps"], out["f_evaluations"])
    assert r.state_names == out["state_layout"]
    assert r.save_every == out["save_every"]
    for name in ("max_tangency_error", "max_momentum_error"):
        assert (getattr(r, name) is None) == (out[name] is None)
        if out[name] is not None:
            assert bits(np.array(getattr(r, name))) == bits(np.array(out[name]))


def test_arrays_have_the_documented_shapes_and_dtypes() -> None:
    r = li.integrate("double-spherical-pendulum", "rkmk4", (0.0, 0.3), h=0.01)
    n, d = len(r.times), len(r.state_names)
    assert d == 12 and n == 31
    for name, shape in [
        ("times", (n,)),
        ("states", (n, d)),
        ("final_state", (d,)),
        ("energy_error", (n,)),
        ("unit_length_error", (n,)),
        ("tangency_error", (n,)),
    ]:
        a = getattr(r, name)
        assert isinstance(a, np.ndarray) and a.dtype == np.float64 and a.shape == shape, name
    assert r.momentum_error is None or r.momentum_error.shape == (n,)
    assert r.times[0] == 0.0 and r.times[-1] == r.t_final
    assert np.all(np.diff(r.times) > 0)
    np.testing.assert_array_equal(r.states[-1], r.final_state)
    assert r.stats["steps"] == r.steps == 30


def test_save_every_keeps_every_kth_step() -> None:
    r = li.integrate("free-rigid-body", "rkmk4", (0.0, 1.0), steps=100, save_every=10)
    np.testing.assert_allclose(r.times, np.linspace(0.0, 1.0, 11), rtol=0, atol=1e-14)


def test_the_free_rigid_body_stays_on_the_sphere_and_converges() -> None:
    r = li.integrate("free-rigid-body", "rkmk4", (0.0, 5.0), h=0.01)
    assert r.max_unit_length_error < 1e-13
    np.testing.assert_allclose(np.linalg.norm(r.states, axis=1), 1.0, rtol=0, atol=1e-13)
    # Halving the step divides the energy error by about 2⁴ (order 4).
    fine = li.integrate("free-rigid-body", "rkmk4", (0.0, 5.0), h=0.005)
    assert 10.0 < r.final_energy_error / fine.final_energy_error < 25.0


def test_convergence_gives_the_nominal_orders() -> None:
    rows = li.convergence("free-rigid-body", ["rkmk4", "cf4", "rkmk-bs32"])
    assert [r.method for r in rows] == ["rkmk4", "cf4", "rkmk-bs32"] or len(rows) == 3
    for r in rows:
        assert abs(r.observed_order - r.expected_order) < 0.3, r
        assert r.h.dtype == np.float64 and r.h.shape == r.errors.shape == (len(r.steps),)
        assert np.all(np.diff(r.errors[r.used]) < 0)


def test_models_and_methods_are_listed() -> None:
    ms = {m.id: m for m in li.models()}
    assert "free-rigid-body" in ms and "double-spherical-pendulum" in ms
    for m in ms.values():
        assert m.presets and set(m.defaults) == set(m.presets)
    ids = {m.id: m for m in li.methods()}
    assert ids["rkmk4"].order == 4 and ids["rkmk54"].embedded_order == 4
    assert "rkmk4-cayley" in ids and "llm-implicit" in ids
    comps = {c.id: c for c in li.compositions()}
    assert "yoshida4" in comps and comps["yoshida4"].order == 4
    # Every listed Lie-group method runs (one step on the free rigid body).
    for m in ids.values():
        if m.kind != "variational":
            assert li.integrate("free-rigid-body", m.id, (0.0, 0.01), steps=1).steps == 1
    assert li.integrate("double-spherical-pendulum", "llm-implicit", (0.0, 0.01), steps=1).steps == 1


@pytest.mark.parametrize(
    ("args", "kw", "flags"),
    [
        (("no-such-model", "rk4"), {}, ["run", "no-such-model", "--method", "rk4"]),
        (("free-rigid-body", "no-such-method"), {}, ["run", "free-rigid-body", "--method", "no-such-method"]),
        (("free-rigid-body", "rkmk4"), {"preset": "nope"}, ["run", "free-rigid-body", "--method", "rkmk4", "--preset", "nope"]),
        (("free-rigid-body", "x+rkmk4"), {}, ["run", "free-rigid-body", "--method", "x+rkmk4"]),
    ],
)
def test_bad_input_raises_input_error_with_the_programs_message(cli, args, kw, flags) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli(*flags)
    assert code == 2
    with pytest.raises(li.InputError) as e:
        li.integrate(*args, **kw)
    assert isinstance(e.value, ValueError) and isinstance(e.value, li.LieIntegratorsError)
    assert err.strip() == f"error: {e.value}"
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        ({"rtol": 1e-6, "atol": 1e-6}, "no embedded error estimate"),
        ({"h": -0.1}, "h must be positive"),
        ({"h": float("nan")}, "h must be positive"),
        ({"steps": 0}, "steps must be"),
        ({"save_every": 0}, "save_every must be"),
        ({"max_steps": 0}, "max_steps must be"),
        ({"t_span": (0.0, -1.0)}, "t_end must be finite and after t0"),
        ({"t_span": (0.0,)}, "t_span must be a pair"),
        ({"h": 0.1, "rtol": 1e-6, "atol": 1e-6}, "give one of h, steps or rtol/atol"),
        ({"rtol": 1e-6}, "rtol and atol go together"),
    ],
)
def test_bad_run_options_raise_input_error(kw, words) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(li.InputError, match=words) as e:
        li.integrate("free-rigid-body", "rkmk4", **kw)
    assert isinstance(e.value, ValueError) and "\n" not in str(e.value)


def test_a_failed_integration_raises_with_the_partial_result(cli) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli(
        "run", "free-rigid-body", "--method", "rkmk54", "--rtol", "1e-10", "--atol", "1e-10", "--t-end", "100", "--max-steps", "50"
    )
    with pytest.raises(li.IntegrationError) as e:
        li.integrate("free-rigid-body", "rkmk54", (0.0, 100.0), rtol=1e-10, atol=1e-10, max_steps=50)
    assert isinstance(e.value, RuntimeError) and not isinstance(e.value, ValueError)
    assert code == 2 and err.strip() == f"error: {e.value}"
    r = e.value.result
    assert r.outcome == "failed" and r.message == str(e.value)
    assert 0 < r.steps <= 50 and 0.0 < r.t_final < 100.0
    assert r.times[-1] == r.t_final and r.states.shape == (len(r.times), 3)


def test_the_gil_is_released_during_integration() -> None:
    done = {}

    def work() -> None:
        start = time.perf_counter()
        li.integrate("double-spherical-pendulum", "rkmk4", (0.0, 20.0), h=0.001)
        done["span"] = (start, time.perf_counter())

    seen = []
    t = threading.Thread(target=work)
    t.start()
    while t.is_alive():
        seen.append(time.perf_counter())
        time.sleep(0.001)
    t.join()
    start, end = done["span"]
    middle = [s for s in seen if start + 0.25 * (end - start) < s < start + 0.75 * (end - start)]
    # With the GIL held by the integration this thread could not run in the middle of it.
    assert len(middle) > 10


def test_ctrl_c_interrupts_a_long_integration_with_the_partial_result() -> None:
    child = textwrap.dedent(
        """
        import sys
        import lie_integrators as li
        print("started", flush=True)
        try:
            li.integrate("free-rigid-body", "rkmk4", (0.0, 900.0), h=1e-4)
        except KeyboardInterrupt as e:
            r = e.result
            print(type(e).__name__, r.outcome, r.steps, r.t_final, len(r.times), flush=True)
            sys.exit(0)
        sys.exit(3)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "started"
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=60)
    finally:
        p.kill()
        p.wait()
    assert p.returncode == 0, out
    name, outcome, steps, t_final, n = out.split()
    assert name == "IntegrationInterrupted" and outcome == "interrupted"
    assert int(steps) > 0 and 0.0 < float(t_final) < 900.0 and int(n) > 0


def test_the_llm09_figure_of_the_docs_bounded_against_growing_energy_error() -> None:
    """docs/python.md: the variational integrator's energy error stays bounded, RKMK4's grows
    linearly in time (its running maximum doubles when the horizon doubles)."""
    runs = {m: li.integrate("double-spherical-pendulum", m, (0.0, 200.0), h=0.05) for m in ("llm-implicit", "rkmk4")}
    for method, r in runs.items():
        n = len(r.times)
        quarter, half, full = (r.energy_error[: n * k // 4].max() for k in (1, 2, 4))
        if method == "llm-implicit":
            assert full < 1.1 * quarter
        else:
            assert 1.8 < half / quarter < 2.2 and 1.8 < full / half < 2.2
