"""SO(3): rotation matrices ``(..., 3, 3)``, algebra vectors ``(..., 3)``; float64 results."""

import numpy as np
import numpy.typing as npt

_F64 = npt.NDArray[np.float64]

def exp(x: npt.ArrayLike) -> _F64:
    """``(..., 3)`` → rotation matrices ``(..., 3, 3)``."""
def log(r: npt.ArrayLike) -> _F64:
    """Rotation matrices ``(..., 3, 3)`` → ``(..., 3)`` (angle ≤ π); ``NotInGroupError`` otherwise."""
def cayley(x: npt.ArrayLike) -> _F64:
    """``(..., 3)`` → ``(I − x̂/2)⁻¹(I + x̂/2)``, shape ``(..., 3, 3)``."""
def dexp(u: npt.ArrayLike, v: npt.ArrayLike) -> _F64:
    """Right-trivialized ``dexp_u v``; broadcasting ``(..., 3)``."""
def dexpinv(u: npt.ArrayLike, w: npt.ArrayLike) -> _F64:
    """``dexp_u⁻¹ w``; broadcasting ``(..., 3)``."""
def dcayley(u: npt.ArrayLike, v: npt.ArrayLike) -> _F64:
    """Right-trivialized ``dcay_u v``; broadcasting ``(..., 3)``."""
def dcayleyinv(u: npt.ArrayLike, w: npt.ArrayLike) -> _F64:
    """``dcay_u⁻¹ w``; broadcasting ``(..., 3)``."""
