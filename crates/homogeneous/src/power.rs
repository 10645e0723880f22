//! Powers of an action: `Gᴺ` acting on `Mᴺ` factor by factor, with N fixed at compile time
//! ([`PowerAction`]) or chosen at run time ([`VecPowerAction`]).

use crate::action::{Action, ActionInPlace};
use crate::error::HomogeneousError;
use liegroup::LieGroup;
use liegroup::par;

/// The factor action of a [`VecPowerAction`]: an [`Action`] whose group, algebra, scalar,
/// points and tangent vectors (and the action itself) are `Send + Sync` (all the shipped
/// actions, for `f64` and the `num-dual` numbers). A blanket impl covers every action that
/// qualifies. The bound is the same with and without the `rayon` feature (features are
/// additive).
///
/// With the `rayon` feature the factor-by-factor loops of a [`VecPowerAction`] run on rayon's
/// current pool from [`PAR_THRESHOLD`](liegroup::par::PAR_THRESHOLD) factors on (see
/// [`liegroup::par`]), which needs to send the factors to other threads.
pub trait PowerFactor:
    Action<
        Group: LieGroup<Algebra: Send + Sync, Scalar: Send + Sync> + Send + Sync,
        Point: Send + Sync,
        Tangent: Send + Sync,
    > + Send
    + Sync
{
}

impl<A> PowerFactor for A where
    A: Action<
            Group: LieGroup<Algebra: Send + Sync, Scalar: Send + Sync> + Send + Sync,
            Point: Send + Sync,
            Tangent: Send + Sync,
        > + Send
        + Sync
{
}

/// `Gᴺ` acting on `Mᴺ` with N fixed at compile time: `[G; N]` acts on `[P; N]` by
/// `(g₁, …, g_N) · (p₁, …, p_N) = (g₁·p₁, …, g_N·p_N)`, each factor by the same action `A`.
/// The algebra is `[𝔤; N]` and tangent vectors `[T; N]`, coordinates concatenated in factor
/// order (`docs/notation.md`).
///
/// # Example
/// ```
/// use homogeneous::{Action, PowerAction, RotationAction, Sphere2};
/// use nalgebra::Vector3;
/// let action = PowerAction::<_, 2>::new(RotationAction::<f64>::new());
/// let p = [Sphere2::try_new(Vector3::x()).unwrap(); 2];
/// let xi = [Vector3::zeros(), Vector3::new(0.0, 0.0, std::f64::consts::PI)];
/// let q = action.act_exp(&xi, &p);
/// assert_eq!(*q[0].q(), Vector3::x());
/// assert!((q[1].q() + Vector3::x()).norm() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PowerAction<A, const N: usize> {
    /// The action applied to every factor.
    pub factor: A,
}

impl<A, const N: usize> PowerAction<A, N> {
    /// The N-th power of `factor`.
    #[must_use]
    pub const fn new(factor: A) -> Self {
        Self { factor }
    }
}

impl<A: Action, const N: usize> Action for PowerAction<A, N> {
    type Group = [A::Group; N];
    type Point = [A::Point; N];
    type Tangent = [A::Tangent; N];

    #[inline]
    fn algebra_zero(&self, p: &Self::Point) -> <Self::Group as LieGroup>::Algebra {
        core::array::from_fn(|i| self.factor.algebra_zero(&p[i]))
    }

    #[inline]
    fn act(&self, g: &Self::Group, p: &Self::Point) -> Self::Point {
        core::array::from_fn(|i| self.factor.act(&g[i], &p[i]))
    }

    #[inline]
    fn act_exp(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &Self::Point) -> Self::Point {
        core::array::from_fn(|i| self.factor.act_exp(&xi[i], &p[i]))
    }

    #[inline]
    fn generator(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &Self::Point) -> Self::Tangent {
        core::array::from_fn(|i| self.factor.generator(&xi[i], &p[i]))
    }

    #[inline]
    fn point_is_finite(&self, p: &Self::Point) -> bool {
        p.iter().all(|x| self.factor.point_is_finite(x))
    }
}

impl<A: ActionInPlace, const N: usize> ActionInPlace for PowerAction<A, N> {
    #[inline]
    fn act_exp_assign(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &mut Self::Point) {
        for (x, pi) in xi.iter().zip(p.iter_mut()) {
            self.factor.act_exp_assign(x, pi);
        }
    }
}

/// `Gᴺ` acting on `Mᴺ` with N chosen at run time: `Vec<G>` acts on `Vec<P>` factor by factor
/// with the same action `A` (e.g. SE(3)ᴺ on (TS²)ᴺ for the N-fold pendulum \[CCLMO22, §5\]).
/// Coordinates are concatenated in factor order.
///
/// With the `rayon` feature the factor-by-factor loops (`act`, `act_exp`, `act_exp_assign`,
/// `generator`, `point_is_finite`, `algebra_zero`, `copy_point`, `clone_point`) run on rayon's current pool for at least
/// [`PAR_THRESHOLD`](liegroup::par::PAR_THRESHOLD) factors, with results bitwise identical to the
/// serial loops for any number of threads ([`liegroup::par`]); the factor action must be a
/// [`PowerFactor`].
///
/// # Panics
/// The [`Action`] methods panic when the group element (or algebra element) and the point have
/// different numbers of factors — a programmer error, as for the runtime power groups of
/// `liegroup`. [`try_act`](Self::try_act) and [`try_act_exp`](Self::try_act_exp) return
/// [`HomogeneousError::DimensionMismatch`] instead.
///
/// # Example
/// ```
/// use homogeneous::{Action, TangentSphere2, TangentSphereAction, VecPowerAction};
/// use nalgebra::{Vector3, Vector6};
/// let n = 5;
/// let action = VecPowerAction::new(TangentSphereAction::<f64>::new());
/// let x = vec![TangentSphere2::try_new(Vector3::z(), Vector3::zeros()).unwrap(); n];
/// let xi = vec![Vector6::new(0.0, 0.0, 0.0, 1.0, 0.0, 0.0); n];
/// let y = action.act_exp(&xi, &x);
/// assert_eq!(y.len(), n);
/// assert!((y[4].omega() - Vector3::new(0.0, -1.0, 0.0)).norm() < 1e-15);
/// assert!(action.try_act_exp(&xi[..2].to_vec(), &x).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VecPowerAction<A> {
    /// The action applied to every factor.
    pub factor: A,
}

impl<A> VecPowerAction<A> {
    /// The runtime power of `factor`.
    #[must_use]
    pub const fn new(factor: A) -> Self {
        Self { factor }
    }
}

fn same_len(expected: usize, found: usize) -> Result<(), HomogeneousError> {
    if expected == found {
        Ok(())
    } else {
        Err(HomogeneousError::DimensionMismatch { expected, found })
    }
}

impl<A: PowerFactor> VecPowerAction<A> {
    /// `g · p`, or an error when `g` and `p` have different numbers of factors.
    ///
    /// # Errors
    /// [`HomogeneousError::DimensionMismatch`] with `expected = p.len()`, `found = g.len()`.
    pub fn try_act(
        &self,
        g: &[A::Group],
        p: &[A::Point],
    ) -> Result<Vec<A::Point>, HomogeneousError> {
        same_len(p.len(), g.len())?;
        Ok(par::zip_map(g, p, |g, p| self.factor.act(g, p)))
    }

    /// `exp(ξ) · p`, or an error when `ξ` and `p` have different numbers of factors.
    ///
    /// # Errors
    /// [`HomogeneousError::DimensionMismatch`] with `expected = p.len()`, `found = xi.len()`.
    pub fn try_act_exp(
        &self,
        xi: &[<A::Group as LieGroup>::Algebra],
        p: &[A::Point],
    ) -> Result<Vec<A::Point>, HomogeneousError> {
        same_len(p.len(), xi.len())?;
        Ok(par::zip_map(xi, p, |xi, p| self.factor.act_exp(xi, p)))
    }
}

fn assert_same_len(a: usize, b: usize) {
    assert_eq!(
        a, b,
        "VecPowerAction: group/algebra element and point have different numbers of factors"
    );
}

impl<A: PowerFactor> Action for VecPowerAction<A> {
    type Group = Vec<A::Group>;
    type Point = Vec<A::Point>;
    type Tangent = Vec<A::Tangent>;

    fn algebra_zero(&self, p: &Self::Point) -> <Self::Group as LieGroup>::Algebra {
        par::map(p, |x| self.factor.algebra_zero(x))
    }

    fn act(&self, g: &Self::Group, p: &Self::Point) -> Self::Point {
        assert_same_len(g.len(), p.len());
        par::zip_map(g, p, |g, p| self.factor.act(g, p))
    }

    fn act_exp(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &Self::Point) -> Self::Point {
        assert_same_len(xi.len(), p.len());
        par::zip_map(xi, p, |xi, p| self.factor.act_exp(xi, p))
    }

    fn generator(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &Self::Point) -> Self::Tangent {
        assert_same_len(xi.len(), p.len());
        par::zip_map(xi, p, |xi, p| self.factor.generator(xi, p))
    }

    fn point_is_finite(&self, p: &Self::Point) -> bool {
        par::all(p, |x| self.factor.point_is_finite(x))
    }
}

impl<A: PowerFactor + ActionInPlace> ActionInPlace for VecPowerAction<A> {
    fn act_exp_assign(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &mut Self::Point) {
        assert_same_len(xi.len(), p.len());
        par::zip_mut(p, xi, |pi, x| self.factor.act_exp_assign(x, pi));
    }
}
