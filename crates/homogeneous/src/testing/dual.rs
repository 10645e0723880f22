//! Lifting `f64` objects to `num_dual::Dual64` (zero derivative part), for the kit's
//! dual-number checks.

use super::{Algebra, Sample};
use crate::action::Action;
use crate::coadjoint::CoadjointAction;
use crate::left::LeftMultiplication;
use crate::power::{PowerAction, VecPowerAction};
use crate::right::RightMultiplication;
use crate::rotation::RotationAction;
use crate::sphere::Sphere2;
use crate::tangent_sphere::TangentSphere2;
use crate::tangent_sphere_action::TangentSphereAction;
use liegroup::{LieGroup, Rn, VectorSpace};
use liegroup::{Se3, So3};
use nalgebra::allocator::Allocator;
use nalgebra::{DefaultAllocator, Dim, OMatrix};
use num_dual::Dual64;

/// The same object over `Dual64`, with zero derivative (ε) parts.
///
/// Implemented for the shipped points, groups (`Rn`, `So3`, `Se3`), every owned `f64` matrix
/// or vector of nalgebra — compile-time sized (`SVector<f64, D>`, `SMatrix<f64, R, C>`) and
/// runtime-sized (`DVector<f64>`, `DMatrix<f64>`), the algebra elements and points of
/// runtime-sized groups and actions — the shipped actions, and tuples (2–4), arrays and `Vec`s
/// of liftable objects.
///
/// For your own group or action (a local type) implement it yourself, lifting the stored
/// numbers with the implementations above:
///
/// ```
/// use homogeneous::testing::LiftDual;
/// use nalgebra::{DMatrix, DVector, RealField};
/// use num_dual::Dual64;
/// /// A runtime-sized matrix group element.
/// #[derive(Clone, Debug)]
/// struct SoN<T: RealField + Copy>(DMatrix<T>);
/// impl LiftDual for SoN<f64> {
///     type Dual = SoN<Dual64>;
///     fn lift_dual(&self) -> SoN<Dual64> {
///         SoN(self.0.lift_dual())
///     }
/// }
/// let x: DVector<Dual64> = DVector::from_vec(vec![1.0, 2.0]).lift_dual();
/// assert_eq!((x[1].re, x[1].eps), (2.0, 0.0));
/// let g = SoN(DMatrix::<f64>::identity(3, 3)).lift_dual();
/// assert_eq!(g.0.nrows(), 3);
/// ```
pub trait LiftDual {
    /// The lifted type.
    type Dual;
    /// `self` with every `f64` `x` replaced by the dual number `x + 0ε`.
    #[must_use]
    fn lift_dual(&self) -> Self::Dual;
}

impl LiftDual for f64 {
    type Dual = Dual64;
    fn lift_dual(&self) -> Dual64 {
        Dual64::from(*self)
    }
}

/// Any owned `f64` matrix or vector of nalgebra, fixed or runtime-sized (`SVector`,
/// `SMatrix`, `DVector`, `DMatrix`, …), entry by entry.
impl<R: Dim, C: Dim> LiftDual for OMatrix<f64, R, C>
where
    DefaultAllocator: Allocator<R, C>,
{
    type Dual = OMatrix<Dual64, R, C>;
    fn lift_dual(&self) -> Self::Dual {
        self.map(Dual64::from)
    }
}

impl LiftDual for Sphere2<f64> {
    type Dual = Sphere2<Dual64>;
    fn lift_dual(&self) -> Self::Dual {
        Sphere2::new_unchecked(self.q().lift_dual())
    }
}

impl LiftDual for TangentSphere2<f64> {
    type Dual = TangentSphere2<Dual64>;
    fn lift_dual(&self) -> Self::Dual {
        TangentSphere2::new_unchecked(self.q().lift_dual(), self.omega().lift_dual())
    }
}

impl<const D: usize> LiftDual for Rn<f64, D> {
    type Dual = Rn<Dual64, D>;
    fn lift_dual(&self) -> Self::Dual {
        Rn::new(self.0.lift_dual())
    }
}

impl LiftDual for So3<f64> {
    type Dual = So3<Dual64>;
    fn lift_dual(&self) -> Self::Dual {
        So3::from_matrix_unchecked(self.matrix().map(Dual64::from))
    }
}

impl LiftDual for Se3<f64> {
    type Dual = Se3<Dual64>;
    fn lift_dual(&self) -> Self::Dual {
        Se3::from_parts(self.rotation().lift_dual(), self.translation().lift_dual())
    }
}

macro_rules! tuple_lift {
    ($($name:ident $idx:tt),+) => {
        impl<$($name: LiftDual),+> LiftDual for ($($name,)+) {
            type Dual = ($($name::Dual,)+);
            fn lift_dual(&self) -> Self::Dual {
                ($(self.$idx.lift_dual(),)+)
            }
        }
    };
}

tuple_lift!(A 0, B 1);
tuple_lift!(A 0, B 1, C 2);
tuple_lift!(A 0, B 1, C 2, D 3);

impl<X: LiftDual, const N: usize> LiftDual for [X; N] {
    type Dual = [X::Dual; N];
    fn lift_dual(&self) -> Self::Dual {
        core::array::from_fn(|i| self[i].lift_dual())
    }
}

impl<X: LiftDual> LiftDual for Vec<X> {
    type Dual = Vec<X::Dual>;
    fn lift_dual(&self) -> Self::Dual {
        self.iter().map(LiftDual::lift_dual).collect()
    }
}

impl LiftDual for RotationAction<f64> {
    type Dual = RotationAction<Dual64>;
    fn lift_dual(&self) -> Self::Dual {
        RotationAction::new()
    }
}

impl LiftDual for TangentSphereAction<f64> {
    type Dual = TangentSphereAction<Dual64>;
    fn lift_dual(&self) -> Self::Dual {
        TangentSphereAction::new()
    }
}

impl<G: LiftDual> LiftDual for CoadjointAction<G> {
    type Dual = CoadjointAction<G::Dual>;
    fn lift_dual(&self) -> Self::Dual {
        CoadjointAction::new()
    }
}

impl<G: LiftDual> LiftDual for LeftMultiplication<G> {
    type Dual = LeftMultiplication<G::Dual>;
    fn lift_dual(&self) -> Self::Dual {
        LeftMultiplication::new()
    }
}

impl<G: LiftDual> LiftDual for RightMultiplication<G> {
    type Dual = RightMultiplication<G::Dual>;
    fn lift_dual(&self) -> Self::Dual {
        RightMultiplication::new()
    }
}

impl<A: LiftDual, const N: usize> LiftDual for PowerAction<A, N> {
    type Dual = PowerAction<A::Dual, N>;
    fn lift_dual(&self) -> Self::Dual {
        PowerAction::new(self.factor.lift_dual())
    }
}

impl<A: LiftDual> LiftDual for VecPowerAction<A> {
    type Dual = VecPowerAction<A::Dual>;
    fn lift_dual(&self) -> Self::Dual {
        VecPowerAction::new(self.factor.lift_dual())
    }
}

/// The pure-derivative algebra element `0 + ε ξ` over `Dual64` (same size as `xi`).
pub fn eps_algebra<X>(xi: &X) -> X::Dual
where
    X: VectorSpace<Scalar = f64> + LiftDual<Dual: VectorSpace<Scalar = Dual64>>,
{
    let mut c = vec![0.0; xi.dim()];
    xi.write_coords(&mut c);
    let dual: Vec<Dual64> = c.into_iter().map(|x| Dual64::new(0.0, x)).collect();
    let mut out = xi.lift_dual();
    out.read_coords(&dual);
    out
}

/// Dual-number samples with non-zero derivative parts, made from `f64` samples: with
/// `η, ζ₁, ζ₂, ζ₃` the algebra elements of the next samples (cyclically),
/// `p ← exp(εη)·p`, `g ← exp(εζ₁)·g`, `h ← exp(εζ₂)·h`, `ξ ← ξ + εζ₃`.
///
/// Running [`check_action`](super::check_action) on the lifted action with these samples checks
/// every law on first derivatives along these curves too.
#[must_use]
pub fn lift_samples<A, D>(action: &A, samples: &[Sample<A>]) -> Vec<Sample<D>>
where
    A: Action<Group: LieGroup<Scalar = f64> + LiftDual<Dual = D::Group>> + LiftDual<Dual = D>,
    A::Point: LiftDual<Dual = D::Point>,
    Algebra<A>: LiftDual<Dual = Algebra<D>>,
    D: Action<Group: LieGroup<Scalar = Dual64>>,
{
    let dual_action = action.lift_dual();
    let n = samples.len();
    (0..n)
        .map(|i| {
            let s = &samples[i];
            let other = |k: usize| &samples[(i + k) % n].xi;
            let p = dual_action.act_exp(&eps_algebra(other(1)), &s.p.lift_dual());
            let g = <D::Group as LieGroup>::exp(&eps_algebra(other(2))).compose(&s.g.lift_dual());
            let h = <D::Group as LieGroup>::exp(&eps_algebra(other(3))).compose(&s.h.lift_dual());
            let mut xi = s.xi.lift_dual();
            xi.add_scaled(Dual64::from(1.0), &eps_algebra(other(4)));
            Sample { p, g, h, xi }
        })
        .collect()
}
