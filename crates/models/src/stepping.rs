//! Catalogue steppers for states that hold group elements (`So3`, `Se3`).
//!
//! `schemes::methods::find(id)?.stepper::<A>()` returns an [`AnyStepper`] whose commutator-free
//! variants measure the error of embedded pairs with `homogeneous::ManifoldPoint`, which the group
//! points `So3` and `Se3` do not implement. The formulations of the rigid body, the heavy top
//! and the quadrotor system move such points (an attitude `R`, an element of T*SO(3) ≅ SE(3)),
//! so [`stepper`] builds the same catalogue method with [`StateDistance`], a weighted RMS
//! distance of the ambient coordinates of [`AmbientState`]. RKMK and implicit RKMK methods do not
//! use the distance at all (their error estimate lives in the algebra), so every catalogue method
//! runs unchanged.

use homogeneous::{Action, Sphere2, TangentSphere2};
use liegroup::{Rn, Se3, So3};
use nalgebra::SVector;
use schemes::{AnyStepper, PointDistance, SchemeError, Tolerance};

/// A model state written in ambient coordinates (used by [`StateDistance`]).
///
/// Layouts: `So3` — the 9 entries of `R` in column-major order; `Se3` — the 9 entries of `R`
/// (column-major) then the translation `t`; `Rn<f64, D>` and `SVector<f64, D>` — the vector;
/// [`Sphere2`] — `q`; [`TangentSphere2`] — `(q, ω)`; tuples and arrays — their factors
/// concatenated in order.
pub trait AmbientState {
    /// The number of ambient coordinates.
    fn ambient_len(&self) -> usize;
    /// Append the ambient coordinates to `out`.
    fn push_ambient(&self, out: &mut Vec<f64>);
}

impl AmbientState for So3<f64> {
    fn ambient_len(&self) -> usize {
        9
    }
    fn push_ambient(&self, out: &mut Vec<f64>) {
        out.extend_from_slice(self.matrix().as_slice());
    }
}

impl AmbientState for Se3<f64> {
    fn ambient_len(&self) -> usize {
        12
    }
    fn push_ambient(&self, out: &mut Vec<f64>) {
        out.extend_from_slice(self.rotation().matrix().as_slice());
        out.extend_from_slice(self.translation().as_slice());
    }
}

impl<const D: usize> AmbientState for Rn<f64, D> {
    fn ambient_len(&self) -> usize {
        D
    }
    fn push_ambient(&self, out: &mut Vec<f64>) {
        out.extend_from_slice(self.0.as_slice());
    }
}

impl<const D: usize> AmbientState for SVector<f64, D> {
    fn ambient_len(&self) -> usize {
        D
    }
    fn push_ambient(&self, out: &mut Vec<f64>) {
        out.extend_from_slice(self.as_slice());
    }
}

impl AmbientState for Sphere2<f64> {
    fn ambient_len(&self) -> usize {
        3
    }
    fn push_ambient(&self, out: &mut Vec<f64>) {
        out.extend_from_slice(self.q().as_slice());
    }
}

impl AmbientState for TangentSphere2<f64> {
    fn ambient_len(&self) -> usize {
        6
    }
    fn push_ambient(&self, out: &mut Vec<f64>) {
        out.extend_from_slice(self.q().as_slice());
        out.extend_from_slice(self.omega().as_slice());
    }
}

impl<P: AmbientState, const N: usize> AmbientState for [P; N] {
    fn ambient_len(&self) -> usize {
        self.iter().map(AmbientState::ambient_len).sum()
    }
    fn push_ambient(&self, out: &mut Vec<f64>) {
        for p in self {
            p.push_ambient(out);
        }
    }
}

macro_rules! tuple_ambient {
    ($($name:ident $idx:tt),+) => {
        impl<$($name: AmbientState),+> AmbientState for ($($name,)+) {
            fn ambient_len(&self) -> usize {
                0 $(+ self.$idx.ambient_len())+
            }
            fn push_ambient(&self, out: &mut Vec<f64>) {
                $(self.$idx.push_ambient(out);)+
            }
        }
    };
}

tuple_ambient!(A 0, B 1);
tuple_ambient!(A 0, B 1, C 2);
tuple_ambient!(A 0, B 1, C 2, D 3);

/// The weighted RMS distance of ambient coordinates ([`AmbientState`]),
/// `sqrt(1/N Σᵢ ((y₁ᵢ − ŷ₁ᵢ)/(atol + rtol·max(|y₀ᵢ|, |y₁ᵢ|)))²)` [HNW93, II.4, eq. (4.11)] — the
/// rule of `schemes::AmbientDistance`, for states that hold `So3`/`Se3` elements. It allocates
/// three vectors of the ambient size per call (once per step of an embedded commutator-free pair).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateDistance;

impl<P: AmbientState> PointDistance<P> for StateDistance {
    fn scaled_error(&self, y0: &P, y1: &P, y1_hat: &P, tol: &Tolerance) -> f64 {
        let n = y1.ambient_len();
        let (mut z, mut a, mut b) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        y0.push_ambient(&mut z);
        y1.push_ambient(&mut a);
        y1_hat.push_ambient(&mut b);
        let mut s = 0.0;
        for ((z, a), b) in z.iter().zip(&a).zip(&b) {
            let w = tol.atol + tol.rtol * z.abs().max(a.abs());
            let e = (a - b) / w;
            s += e * e;
        }
        (s / n.max(1) as f64).sqrt()
    }
}

/// The catalogue method `id` (see `schemes::methods`) as a stepper for the action `A`, with
/// [`StateDistance`] measuring the error of embedded commutator-free pairs. Use it for the
/// formulations of this crate whose points hold `So3`/`Se3` elements; for all other points
/// `schemes::methods::find(id)?.stepper::<A>()` is the same method.
///
/// # Errors
/// [`SchemeError`] for an unknown identifier.
///
/// # Example
/// ```
/// use models::{FreeRigidBody, stepper};
/// use schemes::{Options, integrate};
/// let body = FreeRigidBody::landau_lifshitz();
/// let problem = body.attitude();
/// let mut cf4 = stepper("cf4")?;
/// let x0 = FreeRigidBody::landau_lifshitz_state();
/// let sol = integrate(&problem, &mut cf4, 0.0, x0.to_attitude(), 1.0, &Options::count(100))
///     .map_err(|e| e.error)?;
/// assert_eq!(sol.stats.accepted, 100);
/// # Ok::<(), schemes::SchemeError>(())
/// ```
pub fn stepper<A: Action>(id: &str) -> Result<AnyStepper<A, StateDistance>, SchemeError> {
    Ok(match schemes::methods::find(id)?.stepper::<A>() {
        AnyStepper::Rkmk(s) => AnyStepper::Rkmk(s),
        AnyStepper::Implicit(s) => AnyStepper::Implicit(s),
        AnyStepper::CommutatorFree(s) => AnyStepper::CommutatorFree(s.with_distance(StateDistance)),
        AnyStepper::TwoCommutators(s) => AnyStepper::TwoCommutators(s),
    })
}
