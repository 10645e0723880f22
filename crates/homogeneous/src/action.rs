//! Left actions of Lie groups on manifolds, and the points they act on.

use core::fmt::Debug;
use liegroup::{LieGroup, PackedScalars, VectorSpace};
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

    /// `Some(n)` when a value of this type is, in memory, nothing but `n` values of
    /// [`Scalar`](Self::Scalar) (no other fields, no padding, no heap memory); `None` (the
    /// default) otherwise. Only a performance hint: the fixed-size integrator kernels read such
    /// a point in whole 16-byte pieces (see [`PackedScalars`]). The points of this crate and of
    /// `liegroup` (and tuples and arrays of them) say `Some`.
    fn packed_scalars() -> Option<PackedScalars>
    where
        Self: Sized,
    {
        None
    }

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
/// Integrators only use [`act_exp`](Action::act_exp), [`act`](Action::act) and
/// [`point_is_finite`](Action::point_is_finite) (and the copying and layout hints below);
/// actions override `act_exp` to apply an exponential to a point without forming the group
/// element (e.g. Rodrigues' formula applied to a vector).
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

    /// `p ← exp(ξ) · p` in place (default: [`act_exp`](Self::act_exp) and assign). Integrators
    /// move their stage points with it, so that runtime-sized points (powers with `N` chosen at
    /// run time) reuse their storage; the shipped power and product actions and
    /// [`LeftMultiplication`](crate::LeftMultiplication) override it without allocating.
    #[inline]
    fn act_exp_assign(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &mut Self::Point) {
        *p = self.act_exp(xi, p);
    }

    /// The infinitesimal generator `ξ_M(p) = d/dt exp(tξ)·p |₀`.
    #[must_use]
    fn generator(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &Self::Point) -> Self::Tangent;

    /// `true` when every number stored in `p` is finite (the drivers stop with a typed error
    /// otherwise).
    fn point_is_finite(&self, p: &Self::Point) -> bool;

    /// `dst ← src` into existing storage (default: `clone_from`). Integrators copy their stage
    /// points with it; [`VecPowerAction`](crate::VecPowerAction) copies long points on rayon's
    /// pool with the `rayon` feature. Must be an exact copy.
    fn copy_point(&self, dst: &mut Self::Point, src: &Self::Point) {
        dst.clone_from(src);
    }

    /// A copy of `p` (default: `clone`). Integrators make their results with it;
    /// [`VecPowerAction`](crate::VecPowerAction) copies long points on rayon's pool with the
    /// `rayon` feature. Must be an exact copy.
    #[must_use]
    fn clone_point(&self, p: &Self::Point) -> Self::Point {
        p.clone()
    }

    /// `Some(n)` when a point is, in memory, nothing but `n` scalars of the group's scalar
    /// type (see [`PackedScalars`]); `None` (the default) otherwise. A performance hint: the
    /// fixed-size integrator kernels then read their start point in whole 16-byte pieces. The
    /// actions of this crate forward their points' [`ManifoldPoint::packed_scalars`] or their
    /// group's [`LieGroup::packed_scalars`].
    fn packed_point() -> Option<PackedScalars>
    where
        Self: Sized,
    {
        None
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
