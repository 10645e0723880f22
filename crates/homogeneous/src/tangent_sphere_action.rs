//! SE(3) acting on TS² by the restriction of its adjoint action.

use crate::action::{Action, ActionInPlace};
use crate::rodrigues::{left_jacobian, rotate_exp};
use crate::tangent_sphere::TangentSphere2;
use core::fmt;
use core::marker::PhantomData;
use liegroup::Se3;
use liegroup::angle::AngleFns;
use nalgebra::{RealField, Vector3, Vector6};

/// SE(3) acting on `TS² = {(q, ω) : |q| = 1, q·ω = 0}` \[CCLMO22, §5.1\]:
///
/// ```text
///     (A, a) · (q, ω) = (A q,  A ω + â A q)          (A ∈ SO(3) the rotation, a ∈ ℝ³ the translation)
///     generator:  (u, v)_{TS²}(q, ω) = (û q,  û ω + v̂ q) = (u × q,  u × ω + v × q)
/// ```
///
/// **Identification with the adjoint action.** Read `(q, ω)` as the se(3) element with rotation
/// part `q` and translation part `ω` (rotation first, as everywhere in this workspace). The
/// adjoint action of `g = (A, a)` on se(3) is `Ad_g(B, b) = (A B, a × (A B) + A b)`, so
/// `Ad_g(q, ω) = (A q, A ω + a × A q)`: exactly the formula above. Ad preserves the two
/// invariants `|B|` and `B·b` of se(3) (`|A q| = |q|`, `A q·(A ω + a × A q) = q·ω`), hence maps
/// TS² (`|q| = 1`, `q·ω = 0`) to itself, and it acts transitively on it: `q` can be rotated to
/// any unit vector, and then `a × q'` covers the whole tangent plane at `q'`
/// ([`tangent_sphere_transporter`](crate::tangent_sphere_transporter)). The generator is
/// `ad_(u,v)(q, ω) = [(u, v), (q, ω)] = (u × q, u × ω − q × v)`, as written.
///
/// **`act_exp`** forms neither matrix: with `exp(u, v) = (exp(û), V(u) v)` and
/// `V(u) = I + b û + c û²` (`b = (1 − cos θ)/θ²`, `c = (θ − sin θ)/θ³`, `θ = |u|`),
/// `q' = exp(û) q` and `ω' = exp(û) ω + (V(u) v) × q'`, Rodrigues applied to vectors. The
/// coefficients are the angle functions of [`liegroup::angle`] (those of
/// [`Se3::exp`](liegroup::LieGroup::exp)): Taylor polynomials in θ² below their thresholds, so
/// dual-number derivatives survive at `u = 0`.
///
/// A pendulum link with `q̇ = ω × q` and `ω̇ = q × h` is the vector field
/// `f(q, ω) = (ω, q × h)` \[CCLMO22, §5.1\]; the N-fold pendulum uses
/// `VecPowerAction<TangentSphereAction>` or `PowerAction<TangentSphereAction, N>`.
///
/// # Example
/// ```
/// use homogeneous::{Action, TangentSphere2, TangentSphereAction};
/// use nalgebra::{Vector3, Vector6};
/// let action = TangentSphereAction::<f64>::new();
/// let x = TangentSphere2::try_new(Vector3::z(), Vector3::x()).unwrap();
/// // A pure translation a = (0, 1, 0) changes only ω: ω' = ω + a × q.
/// let y = action.act_exp(&Vector6::new(0.0, 0.0, 0.0, 0.0, 1.0, 0.0), &x);
/// assert_eq!(*y.q(), Vector3::z());
/// assert!((y.omega() - Vector3::new(2.0, 0.0, 0.0)).norm() < 1e-15);
/// ```
#[doc(alias = "SE(3) on TS^2")]
pub struct TangentSphereAction<T = f64>(PhantomData<fn() -> T>);

impl<T> TangentSphereAction<T> {
    /// The action.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for TangentSphereAction<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Clone for TangentSphereAction<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for TangentSphereAction<T> {}

impl<T> fmt::Debug for TangentSphereAction<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TangentSphereAction")
    }
}

fn split<T: RealField + Copy>(x: &Vector6<T>) -> (Vector3<T>, Vector3<T>) {
    (
        Vector3::new(x[0], x[1], x[2]),
        Vector3::new(x[3], x[4], x[5]),
    )
}

impl<T: RealField + Copy> Action for TangentSphereAction<T> {
    type Group = Se3<T>;
    type Point = TangentSphere2<T>;
    type Tangent = Vector6<T>;

    #[inline]
    fn algebra_zero(&self, _p: &TangentSphere2<T>) -> nalgebra::Vector6<T> {
        nalgebra::Vector6::zeros()
    }

    /// `(A q, A ω + a × A q)`.
    #[inline]
    fn act(&self, g: &Se3<T>, p: &TangentSphere2<T>) -> TangentSphere2<T> {
        let r = g.rotation();
        let q = r.rotate(p.q());
        let omega = r.rotate(p.omega()) + g.translation().cross(&q);
        TangentSphere2::new_unchecked(q, omega)
    }

    /// `q' = exp(û) q`, `ω' = exp(û) ω + (V(u) v) × q'` (no matrices). Always inlined:
    /// integrators call it on their critical path, where a call would spill every live
    /// floating-point register (all are caller-saved).
    #[inline(always)]
    fn act_exp(&self, xi: &Vector6<T>, p: &TangentSphere2<T>) -> TangentSphere2<T> {
        let (u, v) = split(xi);
        let mut f = AngleFns::new(u.norm_squared());
        let (sinc, cosc) = f.sinc_cosc();
        let sinc3 = f.sinc3();
        let q = rotate_exp(&u, sinc, cosc, p.q());
        let a = left_jacobian(&u, cosc, sinc3, &v);
        let omega = rotate_exp(&u, sinc, cosc, p.omega()) + a.cross(&q);
        TangentSphere2::new_unchecked(q, omega)
    }

    /// `(u × q, u × ω + v × q)`, in the ambient order `(q̇, ω̇)`.
    #[inline]
    fn generator(&self, xi: &Vector6<T>, p: &TangentSphere2<T>) -> Vector6<T> {
        let (u, v) = split(xi);
        let dq = u.cross(p.q());
        let dw = u.cross(p.omega()) + v.cross(p.q());
        Vector6::new(dq.x, dq.y, dq.z, dw.x, dw.y, dw.z)
    }

    #[inline]
    fn point_is_finite(&self, p: &TangentSphere2<T>) -> bool {
        p.q().iter().chain(p.omega().iter()).all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> ActionInPlace for TangentSphereAction<T> {
    #[inline(always)]
    fn act_exp_assign(&self, xi: &Vector6<T>, p: &mut TangentSphere2<T>) {
        *p = self.act_exp(xi, p);
    }
}
