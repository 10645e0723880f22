"""SE(3): homogeneous matrices ``(..., 4, 4)``, algebra vectors ``(..., 6)`` (rotation first); float64 results."""

import numpy as np
import numpy.typing as npt

_F64 = npt.NDArray[np.float64]

def exp(x: npt.ArrayLike) -> _F64:
    """``(..., 6)`` → homogeneous matrices ``(..., 4, 4)``."""
def log(r: npt.ArrayLike) -> _F64:
    """Homogeneous matrices ``(..., 4, 4)`` → ``(..., 6)``; ``NotInGroupError`` otherwise."""
def cayley(x: npt.ArrayLike) -> _F64:
    """``(..., 6)`` → ``(I − x̂/2)⁻¹(I + x̂/2)``, shape ``(..., 4, 4)``."""
def dexp(u: npt.ArrayLike, v: npt.ArrayLike) -> _F64:
    """Right-trivialized ``dexp_u v``; broadcasting ``(..., 6)``."""
def dexpinv(u: npt.ArrayLike, w: npt.ArrayLike) -> _F64:
    """``dexp_u⁻¹ w``; broadcasting ``(..., 6)``."""
def dcayley(u: npt.ArrayLike, v: npt.ArrayLike) -> _F64:
    """Right-trivialized ``dcay_u v``; broadcasting ``(..., 6)``."""
def dcayleyinv(u: npt.ArrayLike, w: npt.ArrayLike) -> _F64:
    """``dcay_u⁻¹ w``; broadcasting ``(..., 6)``."""
