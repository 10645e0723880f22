//! Direct products of groups: tuples `(G₁, G₂)` … `(G₁, …, G₄)`, compile-time powers `[G; N]`
//! and runtime powers `Vec<G>`.
//!
//! Every operation acts factor by factor; the algebra of a product is the product of the
//! algebras (a tuple, an array or a `Vec` of algebra elements), with coordinates concatenated in
//! factor order. `dexp`/`dexp⁻¹` are exact exactly when they are exact on every factor.
//!
//! A runtime power `Vec<G>` requires both operands of a binary operation to have the same
//! length; mixing lengths is a programmer error and panics. With the `rayon` feature its
//! factor-by-factor loops run on rayon's current pool from [`PAR_THRESHOLD`](crate::par::PAR_THRESHOLD)
//! factors on (the factors are `Send + Sync` with or without the feature, so that it is additive); the results
//! are bitwise those of the serial loops ([`par`](crate::par)).
//!
//! # Example
//! ```
//! use liegroup::{LieGroup, Se2, So2, VectorSpace};
//! use nalgebra::{Vector1, Vector3};
//! // SE(2)^N with N chosen at run time:
//! let n = 4;
//! let xi = vec![Vector3::new(0.1, 1.0, 0.0); n];
//! let g: Vec<Se2> = LieGroup::exp(&xi);
//! assert_eq!(g.len(), n);
//! assert_eq!(g.log().dim(), 3 * n);
//! // A pair product:
//! let p = <(So2, Se2) as LieGroup>::exp(&(Vector1::new(0.5), Vector3::x()));
//! assert!((p.log().1 - Vector3::x()).norm() < 1e-15);
//! ```

use crate::coord::CayleyGroup;
use crate::group::{LieGroup, LieGroupInPlace, StaticLieGroup};
use crate::par;

macro_rules! tuple_group {
    ($($name:ident $idx:tt),+) => {
        impl<S: nalgebra::RealField + Copy, $($name: LieGroup<Scalar = S>),+> LieGroup for ($($name,)+) {
            type Scalar = S;
            type Algebra = ($($name::Algebra,)+);
            const EXACT_DEXP: bool = true $(&& $name::EXACT_DEXP)+;

            fn identity_like(&self) -> Self {
                ($(self.$idx.identity_like(),)+)
            }
            fn algebra_zero(&self) -> Self::Algebra {
                ($(self.$idx.algebra_zero(),)+)
            }
            #[inline]
            fn compose(&self, other: &Self) -> Self {
                ($(self.$idx.compose(&other.$idx),)+)
            }
            #[inline]
            fn inverse(&self) -> Self {
                ($(self.$idx.inverse(),)+)
            }
            #[inline]
            fn exp(xi: &Self::Algebra) -> Self {
                ($($name::exp(&xi.$idx),)+)
            }
            #[inline]
            fn log(&self) -> Self::Algebra {
                ($(self.$idx.log(),)+)
            }
            #[inline]
            fn bracket(x: &Self::Algebra, y: &Self::Algebra) -> Self::Algebra {
                ($($name::bracket(&x.$idx, &y.$idx),)+)
            }
            #[inline]
            fn adjoint(&self, xi: &Self::Algebra) -> Self::Algebra {
                ($(self.$idx.adjoint(&xi.$idx),)+)
            }
            #[inline]
            fn coadjoint(&self, mu: &Self::Algebra) -> Self::Algebra {
                ($(self.$idx.coadjoint(&mu.$idx),)+)
            }
            #[inline]
            fn ad_star(x: &Self::Algebra, mu: &Self::Algebra) -> Self::Algebra {
                ($($name::ad_star(&x.$idx, &mu.$idx),)+)
            }
            #[inline]
            fn dexp(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
                ($($name::dexp(&u.$idx, &v.$idx),)+)
            }
            #[inline(always)]
            fn dexpinv(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
                ($($name::dexpinv(&u.$idx, &v.$idx),)+)
            }
            fn all_finite(&self) -> bool {
                true $(&& self.$idx.all_finite())+
            }
        }

        impl<S: nalgebra::RealField + Copy, $($name: LieGroupInPlace<Scalar = S>),+> LieGroupInPlace for ($($name,)+) {
            #[inline]
            fn bracket_into(x: &Self::Algebra, y: &Self::Algebra, out: &mut Self::Algebra) {
                $($name::bracket_into(&x.$idx, &y.$idx, &mut out.$idx);)+
            }
            #[inline(always)]
            fn dexpinv_into(u: &Self::Algebra, v: &Self::Algebra, out: &mut Self::Algebra) {
                $($name::dexpinv_into(&u.$idx, &v.$idx, &mut out.$idx);)+
            }
            #[inline(always)]
            fn dexpinv_series_into(
                u: &Self::Algebra,
                v: &Self::Algebra,
                order: usize,
                out: &mut Self::Algebra,
            ) {
                $($name::dexpinv_series_into(&u.$idx, &v.$idx, order, &mut out.$idx);)+
            }
            #[inline]
            fn left_mul_assign(&mut self, g: &Self) {
                $(self.$idx.left_mul_assign(&g.$idx);)+
            }
            #[inline(always)]
            fn exp_left_mul_assign(&mut self, xi: &Self::Algebra) {
                $(self.$idx.exp_left_mul_assign(&xi.$idx);)+
            }
            #[inline(always)]
            fn exp_right_mul_assign(&mut self, xi: &Self::Algebra) {
                $(self.$idx.exp_right_mul_assign(&xi.$idx);)+
            }
        }

        impl<S: nalgebra::RealField + Copy, $($name: StaticLieGroup<Scalar = S>),+> StaticLieGroup for ($($name,)+) {
            fn identity() -> Self {
                ($($name::identity(),)+)
            }
        }

        impl<S: nalgebra::RealField + Copy, $($name: CayleyGroup<Scalar = S>),+> CayleyGroup for ($($name,)+) {
            #[inline]
            fn cay(xi: &Self::Algebra) -> Self {
                ($($name::cay(&xi.$idx),)+)
            }
            #[inline]
            fn dcay(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
                ($($name::dcay(&u.$idx, &v.$idx),)+)
            }
            #[inline]
            fn dcayinv(u: &Self::Algebra, w: &Self::Algebra) -> Self::Algebra {
                ($($name::dcayinv(&u.$idx, &w.$idx),)+)
            }
        }
    };
}

tuple_group!(A 0, B 1);
tuple_group!(A 0, B 1, C 2);
tuple_group!(A 0, B 1, C 2, D 3);

/// Apply `f` factor by factor to two equally long slices, collecting into an array.
fn zip_array<A, B, R, const N: usize>(a: &[A; N], b: &[B; N], f: impl Fn(&A, &B) -> R) -> [R; N] {
    core::array::from_fn(|i| f(&a[i], &b[i]))
}

/// Apply `f` factor by factor to two equally long `Vec`s.
///
/// # Panics
/// If the lengths differ.
/// `out ← op(x, y)` factor by factor into `out`'s storage (`each` per factor), or
/// `out ← whole()` when `out` does not have `y`'s number of factors yet.
fn zip_into<V: Send + Sync>(
    out: &mut Vec<V>,
    x: &[V],
    y: &[V],
    whole: impl FnOnce() -> Vec<V>,
    each: impl Fn(&mut V, &V, &V) + Send + Sync,
) {
    if out.len() != y.len() {
        *out = whole();
        return;
    }
    assert_eq!(
        x.len(),
        y.len(),
        "runtime power: operands have different numbers of factors"
    );
    par::zip2_mut(out, x, y, each);
}

fn zip_vec<A, B, R>(a: &[A], b: &[B], f: impl Fn(&A, &B) -> R + Send + Sync) -> Vec<R>
where
    A: Send + Sync,
    B: Send + Sync,
    R: Send + Sync,
{
    assert_eq!(
        a.len(),
        b.len(),
        "runtime power: operands have different numbers of factors"
    );
    par::zip_map(a, b, f)
}

impl<G: LieGroup, const N: usize> LieGroup for [G; N] {
    type Scalar = G::Scalar;
    type Algebra = [G::Algebra; N];
    const EXACT_DEXP: bool = G::EXACT_DEXP;

    fn identity_like(&self) -> Self {
        core::array::from_fn(|i| self[i].identity_like())
    }
    fn algebra_zero(&self) -> Self::Algebra {
        core::array::from_fn(|i| self[i].algebra_zero())
    }
    #[inline]
    fn compose(&self, other: &Self) -> Self {
        zip_array(self, other, G::compose)
    }
    #[inline]
    fn inverse(&self) -> Self {
        core::array::from_fn(|i| self[i].inverse())
    }
    #[inline]
    fn exp(xi: &Self::Algebra) -> Self {
        core::array::from_fn(|i| G::exp(&xi[i]))
    }
    #[inline]
    fn log(&self) -> Self::Algebra {
        core::array::from_fn(|i| self[i].log())
    }
    #[inline]
    fn bracket(x: &Self::Algebra, y: &Self::Algebra) -> Self::Algebra {
        zip_array(x, y, G::bracket)
    }
    #[inline]
    fn adjoint(&self, xi: &Self::Algebra) -> Self::Algebra {
        zip_array(self, xi, G::adjoint)
    }
    #[inline]
    fn coadjoint(&self, mu: &Self::Algebra) -> Self::Algebra {
        zip_array(self, mu, G::coadjoint)
    }
    #[inline]
    fn ad_star(x: &Self::Algebra, mu: &Self::Algebra) -> Self::Algebra {
        zip_array(x, mu, G::ad_star)
    }
    #[inline]
    fn dexp(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        zip_array(u, v, G::dexp)
    }
    #[inline]
    fn dexpinv(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        zip_array(u, v, G::dexpinv)
    }
    fn all_finite(&self) -> bool {
        self.iter().all(G::all_finite)
    }
}

impl<G: LieGroupInPlace, const N: usize> LieGroupInPlace for [G; N] {
    #[inline]
    fn bracket_into(x: &Self::Algebra, y: &Self::Algebra, out: &mut Self::Algebra) {
        for ((xi, yi), oi) in x.iter().zip(y).zip(out.iter_mut()) {
            G::bracket_into(xi, yi, oi);
        }
    }
    #[inline]
    fn dexpinv_into(u: &Self::Algebra, v: &Self::Algebra, out: &mut Self::Algebra) {
        for ((ui, vi), oi) in u.iter().zip(v).zip(out.iter_mut()) {
            G::dexpinv_into(ui, vi, oi);
        }
    }
    fn dexpinv_series_into(
        u: &Self::Algebra,
        v: &Self::Algebra,
        order: usize,
        out: &mut Self::Algebra,
    ) {
        for ((ui, vi), oi) in u.iter().zip(v).zip(out.iter_mut()) {
            G::dexpinv_series_into(ui, vi, order, oi);
        }
    }
    #[inline]
    fn left_mul_assign(&mut self, g: &Self) {
        for (x, gi) in self.iter_mut().zip(g) {
            x.left_mul_assign(gi);
        }
    }
    #[inline]
    fn exp_left_mul_assign(&mut self, xi: &Self::Algebra) {
        for (x, v) in self.iter_mut().zip(xi) {
            x.exp_left_mul_assign(v);
        }
    }
    #[inline]
    fn exp_right_mul_assign(&mut self, xi: &Self::Algebra) {
        for (x, v) in self.iter_mut().zip(xi) {
            x.exp_right_mul_assign(v);
        }
    }
}

impl<G: StaticLieGroup, const N: usize> StaticLieGroup for [G; N] {
    fn identity() -> Self {
        core::array::from_fn(|_| G::identity())
    }
}

impl<G: CayleyGroup, const N: usize> CayleyGroup for [G; N] {
    fn cay(xi: &Self::Algebra) -> Self {
        core::array::from_fn(|i| G::cay(&xi[i]))
    }
    fn dcay(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        zip_array(u, v, G::dcay)
    }
    fn dcayinv(u: &Self::Algebra, w: &Self::Algebra) -> Self::Algebra {
        zip_array(u, w, G::dcayinv)
    }
}

impl<G> LieGroup for Vec<G>
where
    G: LieGroup + Send + Sync,
    G::Algebra: Send + Sync,
{
    type Scalar = G::Scalar;
    type Algebra = Vec<G::Algebra>;
    const EXACT_DEXP: bool = G::EXACT_DEXP;

    fn identity_like(&self) -> Self {
        par::map(self, G::identity_like)
    }
    fn algebra_zero(&self) -> Self::Algebra {
        par::map(self, G::algebra_zero)
    }
    fn compose(&self, other: &Self) -> Self {
        zip_vec(self, other, G::compose)
    }
    fn inverse(&self) -> Self {
        par::map(self, G::inverse)
    }
    fn exp(xi: &Self::Algebra) -> Self {
        par::map(xi, G::exp)
    }
    fn log(&self) -> Self::Algebra {
        par::map(self, G::log)
    }
    fn bracket(x: &Self::Algebra, y: &Self::Algebra) -> Self::Algebra {
        zip_vec(x, y, G::bracket)
    }
    fn adjoint(&self, xi: &Self::Algebra) -> Self::Algebra {
        zip_vec(self, xi, G::adjoint)
    }
    fn coadjoint(&self, mu: &Self::Algebra) -> Self::Algebra {
        zip_vec(self, mu, G::coadjoint)
    }
    fn ad_star(x: &Self::Algebra, mu: &Self::Algebra) -> Self::Algebra {
        zip_vec(x, mu, G::ad_star)
    }
    fn dexp(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        zip_vec(u, v, G::dexp)
    }
    fn dexpinv(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        zip_vec(u, v, G::dexpinv)
    }
    fn all_finite(&self) -> bool {
        par::all(self, G::all_finite)
    }
}

impl<G> LieGroupInPlace for Vec<G>
where
    G: LieGroupInPlace + Send + Sync,
    G::Algebra: Send + Sync,
{
    fn bracket_into(x: &Self::Algebra, y: &Self::Algebra, out: &mut Self::Algebra) {
        zip_into(
            out,
            x,
            y,
            || Self::bracket(x, y),
            |oi, xi, yi| {
                G::bracket_into(xi, yi, oi);
            },
        );
    }
    fn dexpinv_into(u: &Self::Algebra, v: &Self::Algebra, out: &mut Self::Algebra) {
        zip_into(
            out,
            u,
            v,
            || Self::dexpinv(u, v),
            |oi, ui, vi| {
                G::dexpinv_into(ui, vi, oi);
            },
        );
    }
    fn dexpinv_series_into(
        u: &Self::Algebra,
        v: &Self::Algebra,
        order: usize,
        out: &mut Self::Algebra,
    ) {
        let whole = || crate::group::dexpinv_series::<Self>(u, v, order);
        zip_into(out, u, v, whole, |oi, ui, vi| {
            G::dexpinv_series_into(ui, vi, order, oi);
        });
    }
    fn left_mul_assign(&mut self, g: &Self) {
        assert_eq!(
            self.len(),
            g.len(),
            "runtime power: operands have different numbers of factors"
        );
        par::zip_mut(self, g, G::left_mul_assign);
    }
    fn exp_left_mul_assign(&mut self, xi: &Self::Algebra) {
        assert_eq!(
            self.len(),
            xi.len(),
            "runtime power: element and algebra element have different numbers of factors"
        );
        par::zip_mut(self, xi, G::exp_left_mul_assign);
    }
    fn exp_right_mul_assign(&mut self, xi: &Self::Algebra) {
        assert_eq!(
            self.len(),
            xi.len(),
            "runtime power: element and algebra element have different numbers of factors"
        );
        par::zip_mut(self, xi, G::exp_right_mul_assign);
    }
}

impl<G> CayleyGroup for Vec<G>
where
    G: CayleyGroup + Send + Sync,
    G::Algebra: Send + Sync,
{
    fn cay(xi: &Self::Algebra) -> Self {
        par::map(xi, G::cay)
    }
    fn dcay(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        zip_vec(u, v, G::dcay)
    }
    fn dcayinv(u: &Self::Algebra, w: &Self::Algebra) -> Self::Algebra {
        zip_vec(u, w, G::dcayinv)
    }
}
