"""SO(3) and its Lie algebra so(3), vectorised over NumPy arrays.

Algebra elements are arrays of shape ``(..., 3)`` (the axis-angle vector ``x``, with
``hat(x) y = x × y``), group elements rotation matrices of shape ``(..., 3, 3)``; the leading
axes ``...`` are kept. Inputs are converted to ``float64``; the results are new ``float64``
arrays in C order. Two-argument maps broadcast their arguments against each other.

The derivatives are right-trivialized: ``d/dt exp(u + t v)|₀ = hat(dexp(u, v)) · exp(u)``.
Every function calls the ``liegroup`` crate's implementation.
"""

from __future__ import annotations

from ._native import so3_cayley as cayley
from ._native import so3_exp as exp
from ._native import so3_log as log
from ._pairs import pair as _pair
from ._native import so3_dcayley, so3_dcayleyinv, so3_dexp, so3_dexpinv

__all__ = ["exp", "log", "dexp", "dexpinv", "cayley", "dcayley", "dcayleyinv"]

dexp = _pair(so3_dexp, "dexp", "so(3)", 3, "The right-trivialized ``dexp_u v``.")
dexpinv = _pair(so3_dexpinv, "dexpinv", "so(3)", 3, "``dexp_u⁻¹ w``: the inverse of ``v ↦ dexp(u, v)``.")
dcayley = _pair(so3_dcayley, "dcayley", "so(3)", 3, "The right-trivialized derivative ``dcay_u v`` of the Cayley map.")
dcayleyinv = _pair(so3_dcayleyinv, "dcayleyinv", "so(3)", 3, "``dcay_u⁻¹ w``: the inverse of ``v ↦ dcayley(u, v)``.")
