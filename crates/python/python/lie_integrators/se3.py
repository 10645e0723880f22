"""SE(3) and its Lie algebra se(3), vectorised over NumPy arrays.

Algebra elements are arrays of shape ``(..., 6)``, rotation part first: ``ξ = (ω, v)``; group
elements are homogeneous matrices of shape ``(..., 4, 4)`` (``[[R, p], [0, 1]]``); the leading
axes ``...`` are kept. Inputs are converted to ``float64``; the results are new ``float64``
arrays in C order. Two-argument maps broadcast their arguments against each other.

The derivatives are right-trivialized: ``d/dt exp(u + t v)|₀ = hat(dexp(u, v)) · exp(u)``.
Every function calls the ``liegroup`` crate's implementation.
"""

from __future__ import annotations

from ._native import se3_cayley as cayley
from ._native import se3_exp as exp
from ._native import se3_log as log
from ._pairs import pair as _pair
from ._native import se3_dcayley, se3_dcayleyinv, se3_dexp, se3_dexpinv

__all__ = ["exp", "log", "dexp", "dexpinv", "cayley", "dcayley", "dcayleyinv"]

dexp = _pair(se3_dexp, "dexp", "se(3)", 6, "The right-trivialized ``dexp_u v``.")
dexpinv = _pair(se3_dexpinv, "dexpinv", "se(3)", 6, "``dexp_u⁻¹ w``: the inverse of ``v ↦ dexp(u, v)``.")
dcayley = _pair(se3_dcayley, "dcayley", "se(3)", 6, "The right-trivialized derivative ``dcay_u v`` of the Cayley map.")
dcayleyinv = _pair(se3_dcayleyinv, "dcayleyinv", "se(3)", 6, "``dcay_u⁻¹ w``: the inverse of ``v ↦ dcayley(u, v)``.")
