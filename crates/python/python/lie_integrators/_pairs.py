"""Broadcasting wrappers of the two-argument algebra maps."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ._errors import ShapeError


def pair(native: Callable[[Any, Any], np.ndarray], name: str, algebra: str, n: int, doc: str) -> Callable[[Any, Any], np.ndarray]:
    """The native two-argument map ``native`` with NumPy broadcasting of its arguments."""

    def f(u: Any, v: Any) -> np.ndarray:
        a = np.asarray(u, dtype=np.float64)
        b = np.asarray(v, dtype=np.float64)
        try:
            a, b = np.broadcast_arrays(a, b)
        except ValueError:
            raise ShapeError(
                f"u and v must broadcast to a common shape (..., {n}), got {a.shape} and {b.shape}"
            ) from None
        return native(a, b)

    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = (
        f"{doc}\n\nIn {algebra}: ``u``, ``v`` of shapes broadcasting to ``(..., {n})`` → ``(..., {n})``, float64."
    )
    return f
