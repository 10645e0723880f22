//! How the kit looks at points: charts, constraint errors, scales.

use crate::action::{Action, ActionInPlace, ManifoldPoint};
use crate::coadjoint::CoadjointAction;
use crate::left::LeftMultiplication;
use crate::power::{PowerAction, VecPowerAction};
use crate::right::RightMultiplication;
use crate::rotation::RotationAction;
use crate::tangent_sphere_action::TangentSphereAction;
use liegroup::{LieGroup, LieGroupInPlace, VectorSpace};
use nalgebra::RealField;
use num_dual::Dual64;
use num_traits::Zero;

/// The scalars the kit runs with: `f64` and `num_dual::Dual64`.
///
/// Errors are measured with [`magnitude`](KitScalar::magnitude), which for a dual number is the
/// larger of its real and ε parts, so that the laws are checked on derivatives too. A NaN in
/// either part gives NaN (and fails every comparison).
pub trait KitScalar: RealField + Copy {
    /// `"f64"` or `"Dual64"` (for reports).
    const NAME: &'static str;
    /// `|x|` for `f64`; `max(|re|, |ε|)` for `Dual64` (NaN if either part is NaN).
    fn magnitude(self) -> f64;
    /// `x` as a scalar with zero derivative part.
    fn from_real(x: f64) -> Self;
}

impl KitScalar for f64 {
    const NAME: &'static str = "f64";
    #[inline]
    fn magnitude(self) -> f64 {
        self.abs()
    }
    #[inline]
    fn from_real(x: f64) -> Self {
        x
    }
}

impl KitScalar for Dual64 {
    const NAME: &'static str = "Dual64";
    #[inline]
    fn magnitude(self) -> f64 {
        let (a, b) = (self.re.abs(), self.eps.abs());
        if a.is_nan() || b.is_nan() {
            f64::NAN
        } else {
            a.max(b)
        }
    }
    #[inline]
    fn from_real(x: f64) -> Self {
        Dual64::from(x)
    }
}

/// The scalar of an action's group.
pub type Scalar<A> = <<A as Action>::Group as LieGroup>::Scalar;

/// What the kit needs to observe an action's points: coordinates near a point (in which the
/// generator's tangent coordinates are expressed), the constraint error and a size.
///
/// - Embedded manifolds ([`ManifoldPoint`]): the chart is the ambient coordinates
///   ([`ambient_chart`]), the constraint error is [`ManifoldPoint::constraint_error`].
/// - A group acting on itself ([`LeftMultiplication`], [`RightMultiplication`]): the chart at
///   `base` is `p ↦ log(p · base⁻¹)` (right-trivialized, as the generator `ξ·p` is represented
///   by `ξ`).
///
/// Implemented for every shipped action and for tuples and powers of observable actions. For
/// an action of your own on a [`ManifoldPoint`]:
///
/// ```
/// # use homogeneous::{Action, ActionInPlace, ManifoldPoint};
/// # use homogeneous::testing::{Observable, ambient_chart};
/// # use liegroup::Rn;
/// # use nalgebra::Vector3;
/// # #[derive(Clone, Debug)] struct Shift;
/// # impl Action for Shift {
/// #     type Group = Rn<f64, 3>; type Point = Vector3<f64>; type Tangent = Vector3<f64>;
/// #     fn algebra_zero(&self, _p: &Vector3<f64>) -> Vector3<f64> { Vector3::zeros() }
/// #     fn act(&self, g: &Rn<f64, 3>, p: &Vector3<f64>) -> Vector3<f64> { p + g.0 }
/// #     fn generator(&self, xi: &Vector3<f64>, _p: &Vector3<f64>) -> Vector3<f64> { *xi }
/// #     fn point_is_finite(&self, p: &Vector3<f64>) -> bool { p.all_finite() }
/// # }
/// # impl ActionInPlace for Shift {}
/// impl Observable for Shift {
///     fn chart(&self, _base: &Vector3<f64>, p: &Vector3<f64>) -> Vec<f64> {
///         ambient_chart(p)
///     }
///     fn constraint_error(&self, p: &Vector3<f64>) -> f64 {
///         p.constraint_error()
///     }
/// }
/// ```
pub trait Observable: ActionInPlace<Group: LieGroup<Scalar: KitScalar>> {
    /// Coordinates of `p` in a chart around `base`. The generator's tangent coordinates
    /// ([`VectorSpace::write_coords`] of [`Action::generator`]) must equal
    /// `d/dt chart(p, exp(tξ)·p)|₀`, and the distance of two points `a`, `b` is measured as
    /// `max |chart(a, b) − chart(a, a)|`.
    fn chart(&self, base: &Self::Point, p: &Self::Point) -> Vec<Scalar<Self>>;

    /// How far `p` is from the manifold (default: 0, no constraint).
    fn constraint_error(&self, p: &Self::Point) -> Scalar<Self> {
        let _ = p;
        Scalar::<Self>::zero()
    }

    /// A size of `p`, errors are measured relative to `max(1, size)` (default: the largest
    /// magnitude of `chart(p, p)`).
    fn point_scale(&self, p: &Self::Point) -> f64 {
        self.chart(p, p)
            .into_iter()
            .fold(0.0, |m, x| m.max(x.magnitude()))
    }
}

/// The ambient coordinates of a point, the chart of embedded manifolds.
#[must_use]
pub fn ambient_chart<P: ManifoldPoint>(p: &P) -> Vec<P::Scalar> {
    p.ambient()
}

macro_rules! ambient_observable {
    ($ty:ident) => {
        impl<T: KitScalar> Observable for $ty<T> {
            fn chart(&self, _base: &Self::Point, p: &Self::Point) -> Vec<T> {
                ambient_chart(p)
            }
            fn constraint_error(&self, p: &Self::Point) -> T {
                p.constraint_error()
            }
        }
    };
}

ambient_observable!(RotationAction);
ambient_observable!(TangentSphereAction);

impl<G> Observable for CoadjointAction<G>
where
    G: LieGroupInPlace<Scalar: KitScalar, Algebra: ManifoldPoint<Scalar = G::Scalar>>,
{
    fn chart(&self, _base: &G::Algebra, p: &G::Algebra) -> Vec<G::Scalar> {
        ambient_chart(p)
    }
    fn constraint_error(&self, p: &G::Algebra) -> G::Scalar {
        p.constraint_error()
    }
}

fn coords<V: VectorSpace>(v: &V) -> Vec<V::Scalar> {
    let mut out = vec![V::Scalar::zero(); v.dim()];
    v.write_coords(&mut out);
    out
}

/// The chart of a group acting on itself at `base`: `log(p · base⁻¹)` (right-trivialized, as
/// the generators of both [`LeftMultiplication`] and [`RightMultiplication`] are returned).
fn group_chart<G: LieGroup>(base: &G, p: &G) -> Vec<G::Scalar> {
    coords(&p.compose(&base.inverse()).log())
}

/// The largest magnitude of `log p`.
fn group_scale<G: LieGroup<Scalar: KitScalar>>(p: &G) -> f64 {
    coords(&p.log())
        .into_iter()
        .fold(0.0, |m, x| m.max(x.magnitude()))
}

impl<G: LieGroupInPlace<Scalar: KitScalar>> Observable for LeftMultiplication<G> {
    /// `log(p · base⁻¹)`.
    fn chart(&self, base: &G, p: &G) -> Vec<G::Scalar> {
        group_chart(base, p)
    }
    /// The largest magnitude of `log p`.
    fn point_scale(&self, p: &G) -> f64 {
        group_scale(p)
    }
}

impl<G: LieGroupInPlace<Scalar: KitScalar>> Observable for RightMultiplication<G> {
    /// `log(p · base⁻¹)`, the chart of [`LeftMultiplication`].
    fn chart(&self, base: &G, p: &G) -> Vec<G::Scalar> {
        group_chart(base, p)
    }
    /// The largest magnitude of `log p`.
    fn point_scale(&self, p: &G) -> f64 {
        group_scale(p)
    }
}

macro_rules! tuple_observable {
    ($($name:ident $idx:tt),+) => {
        impl<S: KitScalar, $($name: Observable<Group: LieGroup<Scalar = S>>),+> Observable for ($($name,)+) {
            fn chart(&self, base: &Self::Point, p: &Self::Point) -> Vec<S> {
                let mut out = Vec::new();
                $(out.extend(self.$idx.chart(&base.$idx, &p.$idx));)+
                out
            }
            fn constraint_error(&self, p: &Self::Point) -> S {
                S::zero() $(.max(self.$idx.constraint_error(&p.$idx)))+
            }
            fn point_scale(&self, p: &Self::Point) -> f64 {
                0.0_f64 $(.max(self.$idx.point_scale(&p.$idx)))+
            }
        }
    };
}

tuple_observable!(A 0, B 1);
tuple_observable!(A 0, B 1, C 2);
tuple_observable!(A 0, B 1, C 2, D 3);

fn slice_chart<A: Observable>(a: &A, base: &[A::Point], p: &[A::Point]) -> Vec<Scalar<A>> {
    base.iter()
        .zip(p)
        .flat_map(|(b, x)| a.chart(b, x))
        .collect()
}

fn slice_constraint<A: Observable>(a: &A, p: &[A::Point]) -> Scalar<A> {
    p.iter()
        .fold(Scalar::<A>::zero(), |m, x| m.max(a.constraint_error(x)))
}

fn slice_scale<A: Observable>(a: &A, p: &[A::Point]) -> f64 {
    p.iter().fold(0.0, |m, x| m.max(a.point_scale(x)))
}

impl<A: Observable, const N: usize> Observable for PowerAction<A, N> {
    fn chart(&self, base: &Self::Point, p: &Self::Point) -> Vec<Scalar<Self>> {
        slice_chart(&self.factor, base, p)
    }
    fn constraint_error(&self, p: &Self::Point) -> Scalar<Self> {
        slice_constraint(&self.factor, p)
    }
    fn point_scale(&self, p: &Self::Point) -> f64 {
        slice_scale(&self.factor, p)
    }
}

impl<A: Observable + crate::PowerFactor> Observable for VecPowerAction<A> {
    fn chart(&self, base: &Self::Point, p: &Self::Point) -> Vec<Scalar<Self>> {
        slice_chart(&self.factor, base, p)
    }
    fn constraint_error(&self, p: &Self::Point) -> Scalar<Self> {
        slice_constraint(&self.factor, p)
    }
    fn point_scale(&self, p: &Self::Point) -> f64 {
        slice_scale(&self.factor, p)
    }
}
