//! Left actions of Lie groups on manifolds, and the points they act on.

use core::fmt::Debug;
use liegroup::{LieGroup, LieGroupInPlace, VectorSpace};
use num_traits::Zero;

/// A point of a manifold embedded in a Euclidean space ℝᴺ ("ambient coordinates").
///
/// Integrators never need the embedding; it serves error estimates of commutator-free pairs
/// (distances measured in ambient coordinates), output (CSV columns, JSON `final_state`), the
/// action kit (generators compared with difference quotients of ambient coordinates) and
/// structure checks ([`constraint_error`](ManifoldPoint::constraint_error)).
pub trait ManifoldPoint: Clone + Debug {
    /// The scalar field.
    type Scalar: nalgebra::RealField + Copy;
    /// Tangent vectors, in ambient coordinates.
    type Tangent: VectorSpace<Scalar = Self::Scalar>;

    /// The number of ambient coordinates.
    fn ambient_dim(&self) -> usize;
    /// Write the ambient coordinates into `out[..self.ambient_dim()]` (documented order per type).
    ///
    /// # Panics
    /// If `out` is too short.
    fn write_ambient(&self, out: &mut [Self::Scalar]);
    /// How far the point is from satisfying its defining constraints (e.g. `||q| − 1|` on the
    /// sphere, `max(||q| − 1|, |q·ω|/max(1, |ω|))` on TS²), measured in the ambient space; zero for
    /// unconstrained points. Used to check structure preservation, never to correct it.
    fn constraint_error(&self) -> Self::Scalar;
    /// `true` when every ambient coordinate is finite.
    fn all_finite(&self) -> bool;

    /// The ambient coordinates as a new vector.
    fn ambient(&self) -> Vec<Self::Scalar> {
        let mut v = vec![Self::Scalar::zero(); self.ambient_dim()];
        self.write_ambient(&mut v);
        v
    }

    /// Call `f(xᵢ, yᵢ, zᵢ)` on the corresponding ambient coordinates of three points of the
    /// same shape (`self`, `y`, `z`), in the order of [`write_ambient`](Self::write_ambient):
    /// what a distance measured in ambient coordinates needs, without gathering them.
    ///
    /// The default writes the three into stack buffers (up to 64 coordinates; beyond, into
    /// three new vectors). Tuples, arrays and `Vec`s of points visit their factors in turn, so
    /// a long `Vec` of small points allocates nothing.
    fn zip_ambient3<F>(&self, y: &Self, z: &Self, f: &mut F)
    where
        F: FnMut(Self::Scalar, Self::Scalar, Self::Scalar),
    {
        const STACK: usize = 64;
        let n = self.ambient_dim();
        let zero = Self::Scalar::zero();
        if n <= STACK {
            let (mut a, mut b, mut c) = ([zero; STACK], [zero; STACK], [zero; STACK]);
            self.write_ambient(&mut a[..n]);
            y.write_ambient(&mut b[..n]);
            z.write_ambient(&mut c[..n]);
            for i in 0..n {
                f(a[i], b[i], c[i]);
            }
        } else {
            let (a, b, c) = (self.ambient(), y.ambient(), z.ambient());
            for ((&ai, &bi), &ci) in a.iter().zip(&b).zip(&c) {
                f(ai, bi, ci);
            }
        }
    }
}

/// A left action `G × M → M` of a Lie group on a manifold.
///
/// Laws (checked by the action kit in [`crate::testing`]): `act(e, p) = p`,
/// `act(g, act(h, p)) = act(g·h, p)`, points stay on the manifold, and
/// `generator(ξ, p) = d/dt act(exp(tξ), p)|₀`.
///
/// Integrators use [`act_exp`](Action::act_exp), [`act`](Action::act) and
/// [`point_is_finite`](Action::point_is_finite), and the in-place form of
/// [`ActionInPlace`]; actions override `act_exp` to apply an exponential to a point without
/// forming the group element (e.g. Rodrigues' formula applied to a vector).
pub trait Action: Clone + Debug {
    /// The acting group.
    type Group: LieGroup;
    /// The manifold's points.
    type Point: Clone + Debug;
    /// Tangent vectors at a point, in the representation [`generator`](Action::generator)
    /// returns (ambient coordinates for embedded manifolds; the right-trivialized algebra
    /// element `ξ` of `ξ·g` for a group acting on itself).
    type Tangent: VectorSpace<Scalar = <Self::Group as LieGroup>::Scalar>;

    /// `g · p`.
    #[must_use]
    fn act(&self, g: &Self::Group, p: &Self::Point) -> Self::Point;

    /// The zero of the algebra of the group acting on `p` (its size follows `p` for runtime-sized
    /// powers). Integrators size their work buffers with it.
    #[must_use]
    fn algebra_zero(&self, p: &Self::Point) -> <Self::Group as LieGroup>::Algebra;

    /// `exp(ξ) · p` (default: form `exp(ξ)` and act).
    #[must_use]
    fn act_exp(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &Self::Point) -> Self::Point {
        self.act(&<Self::Group as LieGroup>::exp(xi), p)
    }

    /// The infinitesimal generator `ξ_M(p) = d/dt exp(tξ)·p |₀`.
    #[must_use]
    fn generator(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &Self::Point) -> Self::Tangent;

    /// `true` when every number stored in `p` is finite (the drivers stop with a typed error
    /// otherwise).
    fn point_is_finite(&self, p: &Self::Point) -> bool;
}

/// The in-place form of [`Action::act_exp`] that integrators move their stage points with.
///
/// Its group must implement [`LieGroupInPlace`] (every shipped group does; a new group adds
/// `impl LieGroupInPlace for MyGroup {}`). Its one method has a default, so a new action needs
/// only `impl ActionInPlace for MyAction {}` to run every integrator; the shipped power and product actions and
/// [`LeftMultiplication`](crate::LeftMultiplication) override it so that runtime-sized points
/// (powers with `N` chosen at run time) reuse their storage and SO(3) skips forming `exp(ξ)`.
/// An override must agree with `act_exp` to round-off (a law of the action kit).
///
/// # Example
/// ```
/// use homogeneous::{Action, ActionInPlace, RotationAction, Sphere2};
/// use nalgebra::Vector3;
/// let (action, xi) = (RotationAction::<f64>::new(), Vector3::new(0.0, 0.0, 0.5));
/// let p0 = Sphere2::try_new(Vector3::new(1.0, 0.0, 0.0)).unwrap();
/// let mut p = p0.clone();
/// action.act_exp_assign(&xi, &mut p);
/// assert_eq!(p, action.act_exp(&xi, &p0));
/// ```
pub trait ActionInPlace: Action<Group: LieGroupInPlace> {
    /// `p ← exp(ξ) · p` in place (default: [`act_exp`](Action::act_exp) and assign). Integrators
    /// move their stage points with it, so that runtime-sized points (powers with `N` chosen at
    /// run time) reuse their storage; the shipped power and product actions and
    /// [`LeftMultiplication`](crate::LeftMultiplication) override it without allocating.
    #[inline]
    fn act_exp_assign(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &mut Self::Point) {
        *p = self.act_exp(xi, p);
    }
}

/// A Lie group vector field on a homogeneous space: `f: (t, p) ↦ f(t, p) ∈ 𝔤`, defining the ODE
/// `ṗ = f(t, p)_M(p)` (the generator of the action evaluated at `p`).
///
/// Written into a caller-owned buffer so that runtime-sized problems do not allocate per
/// evaluation. Every closure `Fn(T, &P) -> A` is a vector field.
///
/// # Example
/// ```
/// use homogeneous::LieVectorField;
/// use nalgebra::Vector3;
/// // The free rigid body on S²: f(m) = −I⁻¹ m, acting by rotation.
/// let inertia = Vector3::new(1.0, 2.0, 3.0);
/// let f = move |_t: f64, m: &Vector3<f64>| -m.component_div(&inertia);
/// let mut out = Vector3::zeros();
/// f.eval(0.0, &Vector3::new(1.0, 0.0, 0.0), &mut out);
/// assert_eq!(out, Vector3::new(-1.0, 0.0, 0.0));
/// ```
pub trait LieVectorField<T, P, A> {
    /// Write `f(t, p)` into `out` (which has the right size on entry).
    fn eval(&self, t: T, p: &P, out: &mut A);
}

impl<T, P, A, F> LieVectorField<T, P, A> for F
where
    F: Fn(T, &P) -> A,
{
    #[inline]
    fn eval(&self, t: T, p: &P, out: &mut A) {
        *out = self(t, p);
    }
}
