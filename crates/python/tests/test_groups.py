"""SO(3) and SE(3) maps: identities of the exponential, logarithm, Cayley map and their
right-trivialized derivatives, shapes and dtypes, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

import lie_integrators as li
from lie_integrators import se3, so3

RNG = np.random.default_rng(20261205)


def hat3(x: np.ndarray) -> np.ndarray:
    """The skew matrix of x: hat(x) y = x × y."""
    z = np.zeros(x.shape[:-1])
    return np.stack(
        [
            np.stack([z, -x[..., 2], x[..., 1]], -1),
            np.stack([x[..., 2], z, -x[..., 0]], -1),
            np.stack([-x[..., 1], x[..., 0], z], -1),
        ],
        -2,
    )


def hat6(xi: np.ndarray) -> np.ndarray:
    """The 4×4 matrix of ξ = (ω, v): [[hat(ω), v], [0, 0]]."""
    m = np.zeros(xi.shape[:-1] + (4, 4))
    m[..., :3, :3] = hat3(xi[..., :3])
    m[..., :3, 3] = xi[..., 3:]
    return m


def expm(a: np.ndarray) -> np.ndarray:
    """The matrix exponential by scaling and squaring of the Taylor series (‖a‖ small)."""
    s = 6
    b = a / 2.0**s
    out = np.broadcast_to(np.eye(a.shape[-1]), a.shape).copy()
    term = out.copy()
    for k in range(1, 20):
        term = term @ b / k
        out = out + term
    for _ in range(s):
        out = out @ out
    return out


def transpose(m: np.ndarray) -> np.ndarray:
    return np.swapaxes(m, -1, -2)


def ball(shape: tuple[int, ...], radius: float) -> np.ndarray:
    """Random vectors of norm < radius."""
    x = RNG.normal(size=shape)
    r = radius * RNG.uniform(0.05, 0.98, size=shape[:-1] + (1,))
    return x / np.linalg.norm(x, axis=-1, keepdims=True) * r


# ---------------------------------------------------------------------------------------------
# SO(3)


def test_so3_exp_is_the_matrix_exponential_of_hat() -> None:
    x = ball((50, 3), 3.0)
    np.testing.assert_allclose(so3.exp(x), expm(hat3(x)), rtol=0, atol=1e-13)


def test_so3_exp_is_a_rotation() -> None:
    r = so3.exp(RNG.normal(scale=3.0, size=(7, 11, 3)))
    eye = np.eye(3)
    np.testing.assert_allclose(transpose(r) @ r, np.broadcast_to(eye, r.shape), atol=1e-14)
    np.testing.assert_allclose(np.linalg.det(r), 1.0, atol=1e-14)


def test_so3_log_inverts_exp_inside_the_ball_of_radius_pi() -> None:
    x = ball((200, 3), np.pi)
    np.testing.assert_allclose(so3.log(so3.exp(x)), x, atol=1e-12)


def test_so3_exp_inverts_log_on_any_rotation() -> None:
    r = so3.exp(RNG.normal(scale=5.0, size=(100, 3)))
    w = so3.log(r)
    assert np.all(np.linalg.norm(w, axis=-1) <= np.pi + 1e-12)
    np.testing.assert_allclose(so3.exp(w), r, atol=1e-12)


def test_so3_dexp_is_the_right_trivialized_derivative_of_exp() -> None:
    u = ball((20, 3), 2.5)
    v = RNG.normal(size=(20, 3))
    eps = 1e-6
    d = (so3.exp(u + eps * v) - so3.exp(u - eps * v)) / (2 * eps)
    np.testing.assert_allclose(d @ transpose(so3.exp(u)), hat3(so3.dexp(u, v)), atol=1e-8)


def test_so3_dexpinv_inverts_dexp() -> None:
    u = ball((100, 3), 6.0)
    v = RNG.normal(size=(100, 3))
    np.testing.assert_allclose(so3.dexpinv(u, so3.dexp(u, v)), v, atol=1e-12)
    np.testing.assert_allclose(so3.dexp(u, so3.dexpinv(u, v)), v, atol=1e-12)


def test_so3_cayley_is_its_definition_and_orthogonal() -> None:
    x = RNG.normal(scale=2.0, size=(30, 3))
    a = hat3(x) / 2
    eye = np.broadcast_to(np.eye(3), a.shape)
    c = so3.cayley(x)
    np.testing.assert_allclose(c, np.linalg.solve(eye - a, eye + a), atol=1e-13)
    np.testing.assert_allclose(transpose(c) @ c, eye, atol=1e-14)
    np.testing.assert_allclose(so3.cayley(-x), transpose(c), atol=1e-14)


def test_so3_dcayley_is_the_derivative_and_dcayleyinv_its_inverse() -> None:
    u = RNG.normal(size=(20, 3))
    v = RNG.normal(size=(20, 3))
    eps = 1e-6
    d = (so3.cayley(u + eps * v) - so3.cayley(u - eps * v)) / (2 * eps)
    np.testing.assert_allclose(d @ transpose(so3.cayley(u)), hat3(so3.dcayley(u, v)), atol=1e-8)
    np.testing.assert_allclose(so3.dcayleyinv(u, so3.dcayley(u, v)), v, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# SE(3)


def test_se3_exp_is_the_matrix_exponential_of_hat() -> None:
    xi = RNG.normal(size=(40, 6))
    np.testing.assert_allclose(se3.exp(xi), expm(hat6(xi)), atol=1e-12)


def test_se3_exp_is_a_rigid_motion_with_the_so3_rotation() -> None:
    xi = RNG.normal(scale=2.0, size=(5, 6, 6))
    g = se3.exp(xi)
    np.testing.assert_array_equal(g[..., 3, :], np.broadcast_to([0.0, 0.0, 0.0, 1.0], g.shape[:-1]))
    np.testing.assert_allclose(g[..., :3, :3], so3.exp(xi[..., :3]), atol=1e-14)


def test_se3_log_inverts_exp() -> None:
    xi = np.concatenate([ball((100, 3), np.pi), RNG.normal(size=(100, 3))], axis=-1)
    np.testing.assert_allclose(se3.log(se3.exp(xi)), xi, atol=1e-11)


def test_se3_dexp_is_the_derivative_and_dexpinv_its_inverse() -> None:
    u = np.concatenate([ball((20, 3), 2.5), RNG.normal(size=(20, 3))], axis=-1)
    v = RNG.normal(size=(20, 6))
    eps = 1e-6
    d = (se3.exp(u + eps * v) - se3.exp(u - eps * v)) / (2 * eps)
    np.testing.assert_allclose(d @ np.linalg.inv(se3.exp(u)), hat6(se3.dexp(u, v)), atol=1e-8)
    np.testing.assert_allclose(se3.dexpinv(u, se3.dexp(u, v)), v, atol=1e-12)


def test_se3_cayley_is_its_definition() -> None:
    xi = RNG.normal(size=(30, 6))
    a = hat6(xi) / 2
    eye = np.broadcast_to(np.eye(4), a.shape)
    np.testing.assert_allclose(se3.cayley(xi), np.linalg.solve(eye - a, eye + a), atol=1e-13)


def test_se3_dcayley_is_the_derivative_and_dcayleyinv_its_inverse() -> None:
    u = RNG.normal(size=(20, 6))
    v = RNG.normal(size=(20, 6))
    eps = 1e-6
    d = (se3.cayley(u + eps * v) - se3.cayley(u - eps * v)) / (2 * eps)
    np.testing.assert_allclose(d @ np.linalg.inv(se3.cayley(u)), hat6(se3.dcayley(u, v)), atol=1e-8)
    np.testing.assert_allclose(se3.dcayleyinv(u, se3.dcayley(u, v)), v, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Shapes, dtypes, bad input


@pytest.mark.parametrize(
    ("f", "n", "out"),
    [
        (so3.exp, 3, (3, 3)),
        (so3.cayley, 3, (3, 3)),
        (se3.exp, 6, (4, 4)),
        (se3.cayley, 6, (4, 4)),
    ],
)
@pytest.mark.parametrize("lead", [(), (0,), (4,), (2, 3, 1)])
def test_maps_to_the_group_keep_the_leading_axes(f, n, out, lead) -> None:  # type: ignore[no-untyped-def]
    y = f(np.zeros(lead + (n,), dtype=np.int64))
    assert y.shape == lead + out
    assert y.dtype == np.float64
    assert y.flags.c_contiguous


@pytest.mark.parametrize(("exp", "log", "n"), [(so3.exp, so3.log, 3), (se3.exp, se3.log, 6)])
@pytest.mark.parametrize("lead", [(), (5,), (2, 2)])
def test_log_shapes(exp, log, n, lead) -> None:  # type: ignore[no-untyped-def]
    x = 0.1 * np.ones(lead + (n,))
    y = log(exp(x))
    assert y.shape == lead + (n,) and y.dtype == np.float64


@pytest.mark.parametrize(
    ("f", "n"),
    [
        (so3.dexp, 3),
        (so3.dexpinv, 3),
        (so3.dcayley, 3),
        (so3.dcayleyinv, 3),
        (se3.dexp, 6),
        (se3.dexpinv, 6),
        (se3.dcayley, 6),
        (se3.dcayleyinv, 6),
    ],
)
def test_two_argument_maps_broadcast(f, n) -> None:  # type: ignore[no-untyped-def]
    u = RNG.normal(size=(n,))
    w = RNG.normal(size=(4, 5, n))
    y = f(u, w)
    assert y.shape == (4, 5, n) and y.dtype == np.float64
    np.testing.assert_array_equal(y[2, 3], f(u, w[2, 3]))
    with pytest.raises(li.ShapeError):
        f(np.zeros((2, n)), np.zeros((3, n)))
    with pytest.raises(li.ShapeError):
        f(np.zeros(n + 1), np.zeros(n + 1))


def test_input_is_not_modified_and_may_be_strided() -> None:
    x = RNG.normal(size=(6, 3))
    keep = x.copy()
    np.testing.assert_array_equal(so3.exp(x[::2]), so3.exp(keep[::2].copy()))
    np.testing.assert_array_equal(x, keep)
    np.testing.assert_array_equal(so3.exp(x.T.copy().T), so3.exp(keep))


@pytest.mark.parametrize(
    ("f", "bad"),
    [
        (so3.exp, np.zeros(4)),
        (so3.exp, np.zeros((3, 2))),
        (so3.exp, np.float64(1.0)),
        (so3.log, np.eye(4)),
        (so3.log, np.zeros(3)),
        (se3.exp, np.zeros(3)),
        (se3.log, np.eye(3)),
        (se3.cayley, np.zeros((2, 5))),
    ],
)
def test_bad_shapes_raise_shape_error(f, bad) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(li.ShapeError) as e:
        f(bad)
    assert isinstance(e.value, ValueError) and isinstance(e.value, li.LieIntegratorsError)
    assert "\n" not in str(e.value)


def test_non_numbers_raise_input_error() -> None:
    with pytest.raises(li.InputError):
        so3.exp(["a", "b", "c"])


@pytest.mark.parametrize(
    ("log", "bad", "word"),
    [
        (so3.log, 2.0 * np.eye(3), "orthogonal"),
        (so3.log, np.diag([1.0, 1.0, -1.0]), "reflection"),
        (so3.log, np.full((3, 3), np.nan), "non-finite"),
        (se3.log, np.diag([1.0, 1.0, 1.0, 2.0]), "last row"),
        (se3.log, np.diag([1.0, 1.0, -1.0, 1.0]), "reflection"),
    ],
)
def test_log_of_a_matrix_outside_the_group_raises(log, bad, word) -> None:  # type: ignore[no-untyped-def]
    stack = np.broadcast_to(np.eye(bad.shape[-1]), (3,) + bad.shape).copy()
    stack[1] = bad
    with pytest.raises(li.NotInGroupError, match=word) as e:
        log(stack)
    assert "(1,)" in str(e.value)
    assert isinstance(e.value, ValueError)
