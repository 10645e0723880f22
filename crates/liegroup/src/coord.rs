//! Coordinate maps `ψ: 𝔤 → G` used by Runge–Kutta–Munthe-Kaas methods.
//!
//! An RKMK step solves `σ' = dψ_σ⁻¹ f(ψ(σ)·y₀)` in the algebra, so a coordinate map is the map
//! itself together with the inverse of its **right-trivialized** derivative:
//!
//! ```text
//!     d/dt ψ(u + t v)|₀ = (dψ_u v) · ψ(u),      dinv(u, w) = dψ_u⁻¹ w.
//! ```
//!
//! Two maps are shipped: [`Exp`] (any group) and [`Cayley`] (groups implementing
//! [`CayleyGroup`], i.e. quadratic groups such as SO(3) and SE(3)) \[MK99, §2; HLW06, §IV.8.3\].

use crate::group::{LieGroup, LieGroupInPlace, dexp_series, dexpinv_series};

/// A coordinate map `ψ: 𝔤 → G` with its right-trivialized derivative and inverse derivative.
pub trait CoordinateMap<G: LieGroup>: Clone + core::fmt::Debug {
    /// `ψ(ξ)`.
    #[must_use]
    fn map(&self, xi: &G::Algebra) -> G;
    /// `dψ_u v` (right-trivialized).
    #[must_use]
    fn d(&self, u: &G::Algebra, v: &G::Algebra) -> G::Algebra;
    /// `dψ_u⁻¹ w`.
    #[must_use]
    fn dinv(&self, u: &G::Algebra, w: &G::Algebra) -> G::Algebra;
    /// `dψ_u⁻¹ w` written into `out` (default: [`dinv`](Self::dinv) and assign; [`Exp`] with the
    /// group's own `dexp⁻¹` reuses `out`'s storage through [`LieGroupInPlace::dexpinv_into`](crate::LieGroupInPlace::dexpinv_into)).
    fn dinv_into(&self, u: &G::Algebra, w: &G::Algebra, out: &mut G::Algebra) {
        *out = self.dinv(u, w);
    }
    /// A short name ("exp", "exp-series-2", "cayley") for reports.
    fn name(&self) -> String;
}

/// The exponential map, with `dexp⁻¹` either from the group (closed form where the group has
/// one) or from the Bernoulli series truncated after `ad_u^k`.
///
/// RKMK of order p needs the series only through `ad_u^{p−2}` \[MK99, Thm. 4.1\]:
/// `Exp::series(p - 2)`.
///
/// # Example
/// ```
/// use liegroup::{CoordinateMap, Exp, LieGroup, Se2};
/// use nalgebra::Vector3;
/// let u = Vector3::new(0.1, 0.0, 0.0);
/// let g: Se2 = Exp::exact().map(&u);
/// assert_eq!(g, Se2::exp(&u));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Exp {
    /// `None`: the group's own `dexp`/`dexpinv`; `Some(k)`: the series through `ad_u^k`.
    pub series_order: Option<usize>,
}

impl Exp {
    /// `exp` with the group's own `dexpinv` (closed form for the shipped groups).
    #[must_use]
    pub const fn exact() -> Self {
        Self { series_order: None }
    }
    /// `exp` with `dexpinv` from the Bernoulli series truncated after `ad_u^k`.
    #[must_use]
    pub const fn series(k: usize) -> Self {
        Self {
            series_order: Some(k),
        }
    }
}

impl<G: LieGroupInPlace> CoordinateMap<G> for Exp {
    #[inline]
    fn map(&self, xi: &G::Algebra) -> G {
        G::exp(xi)
    }
    #[inline]
    fn d(&self, u: &G::Algebra, v: &G::Algebra) -> G::Algebra {
        match self.series_order {
            None => G::dexp(u, v),
            Some(k) => dexp_series::<G>(u, v, k),
        }
    }
    #[inline]
    fn dinv(&self, u: &G::Algebra, w: &G::Algebra) -> G::Algebra {
        match self.series_order {
            None => G::dexpinv(u, w),
            Some(k) => dexpinv_series::<G>(u, w, k),
        }
    }
    #[inline(always)]
    fn dinv_into(&self, u: &G::Algebra, w: &G::Algebra, out: &mut G::Algebra) {
        match self.series_order {
            None => G::dexpinv_into(u, w, out),
            Some(k) => G::dexpinv_series_into(u, w, k, out),
        }
    }
    fn name(&self) -> String {
        match self.series_order {
            None => "exp".into(),
            Some(k) => format!("exp-series-{k}"),
        }
    }
}

/// A group with a Cayley map `cay(ξ) = (I − ξ/2)⁻¹(I + ξ/2)` (in a matrix representation) and
/// its right-trivialized derivatives.
///
/// `dcay_u⁻¹ w = (I − u/2) w (I + u/2) = w − ½[u, w] − ¼ u w u` in matrix form [HLW06, §IV.8.3,
/// Lemma 8.8] (note the minus on `u w u`; some sources print a plus).
pub trait CayleyGroup: LieGroup {
    /// `cay(ξ)`.
    #[must_use]
    fn cay(xi: &Self::Algebra) -> Self;
    /// `dcay_u v` (right-trivialized): `d/dt cay(u + t v)|₀ = (dcay_u v)·cay(u)`.
    #[must_use]
    fn dcay(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra;
    /// `dcay_u⁻¹ w`.
    #[must_use]
    fn dcayinv(u: &Self::Algebra, w: &Self::Algebra) -> Self::Algebra;
}

/// The Cayley map as a [`CoordinateMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cayley;

impl<G: CayleyGroup> CoordinateMap<G> for Cayley {
    #[inline]
    fn map(&self, xi: &G::Algebra) -> G {
        G::cay(xi)
    }
    #[inline]
    fn d(&self, u: &G::Algebra, v: &G::Algebra) -> G::Algebra {
        G::dcay(u, v)
    }
    #[inline]
    fn dinv(&self, u: &G::Algebra, w: &G::Algebra) -> G::Algebra {
        G::dcayinv(u, w)
    }
    fn name(&self) -> String {
        "cayley".into()
    }
}
