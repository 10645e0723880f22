//! The [`LieGroup`] trait and the Bernoulli-series forms of `dexp` and `dexp⁻¹`.
//!
//! Conventions (see `docs/notation.md`): left actions; the algebra is identified with its
//! coordinates in a fixed basis; `dexp` is **right-trivialized**,
//!
//! ```text
//!     d/dt exp(u + t v)|₀ = (dexp_u v) · exp(u),   dexp_u = Σ_{k≥0} ad_uᵏ/(k+1)!,
//!     dexp_u⁻¹ = Σ_{k≥0} (B_k/k!) ad_uᵏ,           B₀ = 1, B₁ = −½, B₂ = ⅙, B₃ = 0, B₄ = −1/30, …
//! ```
//!
//! \[MK99, eq. (2.9)–(2.10)\], \[HLW06, §III.4, Lemma 4.2\].

use crate::scalar::c;
use crate::vector_space::{StaticVectorSpace, VectorSpace};
use core::fmt::Debug;
use nalgebra::RealField;
use num_traits::Zero;

/// Number of bracket terms (`ad_u^k`, k = 0 … `DEFAULT_SERIES_ORDER`) used by the default
/// [`LieGroup::dexp`] and [`LieGroup::dexpinv`] of a group without closed forms.
pub const DEFAULT_SERIES_ORDER: usize = 14;

/// The largest truncation order [`dexpinv_series`] accepts (the table of Bernoulli numbers ends
/// at B₂₀); larger orders are clamped to it.
pub const MAX_SERIES_ORDER: usize = 20;

/// Bernoulli numbers B₀ … B₂₀ with the convention B₁ = −½ (so that z/(eᶻ − 1) = Σ B_k zᵏ/k!).
const BERNOULLI: [f64; 21] = [
    1.0,
    -1.0 / 2.0,
    1.0 / 6.0,
    0.0,
    -1.0 / 30.0,
    0.0,
    1.0 / 42.0,
    0.0,
    -1.0 / 30.0,
    0.0,
    5.0 / 66.0,
    0.0,
    -691.0 / 2730.0,
    0.0,
    7.0 / 6.0,
    0.0,
    -3617.0 / 510.0,
    0.0,
    43867.0 / 798.0,
    0.0,
    -174611.0 / 330.0,
];

/// The Bernoulli number `B_k` (B₁ = −½) for `k ≤ 20`, as `f64`.
///
/// # Panics
/// If `k > 20`.
#[must_use]
pub fn bernoulli(k: usize) -> f64 {
    BERNOULLI[k]
}

/// `1/k!` for `k ≤ 21`, as `f64` (`k!` accumulated as `2·3·…·k` in `f64`).
const INV_FACTORIAL: [f64; 22] = {
    let mut table = [1.0_f64; 22];
    let mut f = 1.0_f64;
    let mut k = 2;
    while k < 22 {
        f *= k as f64;
        table[k] = 1.0 / f;
        k += 1;
    }
    table
};

/// `1/k!` as `f64` (from the table up to `k = 21`; beyond, the same product, `0` once `k!`
/// overflows).
#[inline]
fn inv_factorial(k: usize) -> f64 {
    match INV_FACTORIAL.get(k) {
        Some(&x) => x,
        None => 1.0 / (2..=k).fold(1.0_f64, |f, j| f * j as f64),
    }
}

/// The coefficient `|B_k|/k!` of `ad_uᵏ` in `dexp_u⁻¹`, as `f64` (zero for odd `k ≥ 3`).
///
/// Useful for truncation-error bounds: the terms omitted after order `k` are bounded by
/// `Σ_{j>k} |B_j|/j! ‖ad_u‖ʲ ‖v‖`, and for even `j ≥ 2` consecutive coefficients shrink by a
/// factor below `1/(2π)²`.
///
/// # Panics
/// If `k > 20`.
#[must_use]
pub fn dexpinv_series_coefficient(k: usize) -> f64 {
    BERNOULLI[k].abs() * inv_factorial(k)
}

/// The Lie bracket applied `k` times: `ad_uᵏ v`.
#[must_use]
pub fn ad_power<G: LieGroup>(u: &G::Algebra, v: &G::Algebra, k: usize) -> G::Algebra {
    let mut w = v.clone();
    for _ in 0..k {
        w = G::bracket(u, &w);
    }
    w
}

/// `dexp_u v` from its series `Σ_{k=0}^{order} ad_uᵏ v/(k+1)!`, in nested brackets.
///
/// \[HLW06, §III.4, eq. (4.21)\]. Converges for every `u`; exact for nilpotent algebras once
/// `order` reaches the nilpotency index.
#[must_use]
pub fn dexp_series<G: LieGroup>(u: &G::Algebra, v: &G::Algebra, order: usize) -> G::Algebra {
    let mut term = v.clone();
    let mut acc = v.clone();
    for k in 1..=order {
        term = G::bracket(u, &term);
        acc.add_scaled(c::<G::Scalar>(inv_factorial(k + 1)), &term);
    }
    acc
}

/// `dexp_u⁻¹ v` from the Bernoulli series `Σ_{k=0}^{order} (B_k/k!) ad_uᵏ v` in nested
/// brackets: `v − ½[u,v] + (1/12)[u,[u,v]] − (1/720)[u,[u,[u,[u,v]]]] + …`.
///
/// \[HLW06, §III.4, Lemma 4.2\], \[MK99, eq. (2.10)\]. The series converges for ‖ad_u‖ < 2π. An
/// RKMK method of order p needs it only through `ad_u^{p−2}` \[MK99, Thm. 4.1\]. `order` is
/// clamped to [`MAX_SERIES_ORDER`].
#[must_use]
#[inline]
#[allow(clippy::needless_range_loop)] // k indexes BERNOULLI and the factorial together
pub fn dexpinv_series<G: LieGroup>(u: &G::Algebra, v: &G::Algebra, order: usize) -> G::Algebra {
    let order = order.min(MAX_SERIES_ORDER);
    let mut term = v.clone();
    let mut acc = v.clone();
    for k in 1..=order {
        term = G::bracket(u, &term);
        let b = BERNOULLI[k];
        if b != 0.0 {
            acc.add_scaled(c::<G::Scalar>(b * inv_factorial(k)), &term);
        }
    }
    acc
}

/// A Lie group whose algebra is represented in coordinates.
///
/// Implementors supply the primitives (identity, compose, inverse, exp, log, bracket, Ad);
/// `ad`, the coadjoint action, `ad*`, `dexp` and `dexp⁻¹` have default bodies (the last two are
/// the Bernoulli series of [`dexp_series`] / [`dexpinv_series`] truncated at
/// [`DEFAULT_SERIES_ORDER`]). The shipped groups override the defaults with closed forms.
///
/// # Conventions
/// - `compose(g, h) = g·h`; in a product of exponentials the rightmost factor acts first.
/// - `adjoint(g, ξ) = Ad_g ξ = g ξ g⁻¹`, so `g·exp(ξ)·g⁻¹ = exp(Ad_g ξ)`.
/// - Dual elements μ ∈ 𝔤* are stored in the dual basis, in the same type as the algebra, and
///   paired by [`VectorSpace::inner`].
/// - `coadjoint(g, μ) = Ad*_{g⁻¹} μ = (Ad_{g⁻¹})ᵀ μ`, the (left) coadjoint action:
///   `⟨coadjoint(g, μ), Ad_g ξ⟩ = ⟨μ, ξ⟩`.
/// - `ad_star(ξ, μ) = (ad_ξ)ᵀ μ`, so `⟨ad*_ξ μ, η⟩ = ⟨μ, [ξ, η]⟩`.
/// - `dexp`/`dexpinv` are right-trivialized: `d/dt exp(u + t v)|₀ = (dexp_u v)·exp(u)`.
///
/// A runtime-sized group (e.g. `Vec<So3>`) has no size-free identity, hence the `*_like`
/// constructors that copy the size of an existing element.
///
/// # Example
/// ```
/// use liegroup::{LieGroup, Se2};
/// use nalgebra::Vector3;
/// let g = Se2::exp(&Vector3::new(0.1, 0.2, 0.3));
/// let h = g.compose(&g.inverse());
/// assert!((h.log()).norm() < 1e-15);
/// ```
pub trait LieGroup: Clone + Debug {
    /// The scalar field.
    type Scalar: RealField + Copy;
    /// The Lie algebra (and its dual) in coordinates.
    type Algebra: VectorSpace<Scalar = Self::Scalar>;

    /// The identity element of the same size as `self`.
    #[must_use]
    fn identity_like(&self) -> Self;

    /// The zero of the algebra of the same size as `self`.
    #[must_use]
    fn algebra_zero(&self) -> Self::Algebra;

    /// The group product `self · other`.
    #[must_use]
    fn compose(&self, other: &Self) -> Self;

    /// The inverse `self⁻¹`.
    #[must_use]
    fn inverse(&self) -> Self;

    /// The exponential map `exp: 𝔤 → G`.
    #[must_use]
    fn exp(xi: &Self::Algebra) -> Self;

    /// The logarithm on the principal branch (the inverse of `exp` inside the injectivity
    /// radius; for compact groups the element of smallest norm).
    #[must_use]
    fn log(&self) -> Self::Algebra;

    /// The Lie bracket `[x, y]`.
    #[must_use]
    fn bracket(x: &Self::Algebra, y: &Self::Algebra) -> Self::Algebra;

    /// The adjoint action `Ad_g ξ = g ξ g⁻¹`.
    #[must_use]
    fn adjoint(&self, xi: &Self::Algebra) -> Self::Algebra;

    /// `ad_x y = [x, y]`.
    #[must_use]
    fn ad(x: &Self::Algebra, y: &Self::Algebra) -> Self::Algebra {
        Self::bracket(x, y)
    }

    /// The coadjoint action `Ad*_{g⁻¹} μ` on 𝔤* (dual coordinates). The default evaluates
    /// `⟨μ, Ad_{g⁻¹} e_i⟩` on the basis.
    #[must_use]
    fn coadjoint(&self, mu: &Self::Algebra) -> Self::Algebra {
        let ginv = self.inverse();
        let mut out = mu.zero_like();
        let n = mu.dim();
        let mut coords = vec![Self::Scalar::zero(); n];
        for (i, ci) in coords.iter_mut().enumerate() {
            *ci = mu.inner(&ginv.adjoint(&mu.basis_like(i)));
        }
        out.read_coords(&coords);
        out
    }

    /// `ad*_x μ = (ad_x)ᵀ μ`. The default evaluates `⟨μ, [x, e_i]⟩` on the basis.
    #[must_use]
    fn ad_star(x: &Self::Algebra, mu: &Self::Algebra) -> Self::Algebra {
        let mut out = mu.zero_like();
        let n = mu.dim();
        let mut coords = vec![Self::Scalar::zero(); n];
        for (i, ci) in coords.iter_mut().enumerate() {
            *ci = mu.inner(&Self::bracket(x, &mu.basis_like(i)));
        }
        out.read_coords(&coords);
        out
    }

    /// `true` when [`dexp`](LieGroup::dexp) and [`dexpinv`](LieGroup::dexpinv) are closed
    /// forms (exact up to round-off) rather than truncated series.
    const EXACT_DEXP: bool = false;

    /// The right-trivialized derivative `dexp_u v` (default: [`dexp_series`] to
    /// [`DEFAULT_SERIES_ORDER`]).
    #[must_use]
    fn dexp(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        dexp_series::<Self>(u, v, DEFAULT_SERIES_ORDER)
    }

    /// Its inverse `dexp_u⁻¹ v` (default: [`dexpinv_series`] to [`DEFAULT_SERIES_ORDER`],
    /// accurate for ‖ad_u‖ well below 2π).
    #[must_use]
    fn dexpinv(u: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        dexpinv_series::<Self>(u, v, DEFAULT_SERIES_ORDER)
    }

    /// `true` when every number stored in the element is finite. Integrators test their
    /// stage points with it (through the action's `point_is_finite`), so it must be cheap:
    /// check the stored entries directly (it is a required method because a generic default
    /// would have to go through `log`, which is slow and, for groups whose `log` exists only
    /// near the identity, wrong).
    fn all_finite(&self) -> bool;
}

/// The in-place and allocation-free forms of the [`LieGroup`] operations that integrators use in
/// their inner loops.
///
/// Every method has a default written with the primitives of [`LieGroup`], so a new group needs
/// only `impl LieGroupInPlace for MyGroup {}` to run every integrator; override a method when
/// a faster form exists (the shipped groups do: SO(3) applies Rodrigues' formula to a matrix
/// without forming `exp(ξ)`, products and powers act factor by factor so that runtime powers
/// reuse their storage). Each override must agree with its default to round-off, which the
/// conformance kit (`liegroup::testing`) checks.
///
/// # Example
/// ```
/// use liegroup::{LieGroup, LieGroupInPlace, So3};
/// use nalgebra::Vector3;
/// let (xi, g) = (Vector3::new(0.1, -0.2, 0.3), So3::exp(&Vector3::new(1.0, 0.5, -0.4)));
/// let mut h = g;
/// h.exp_left_mul_assign(&xi);
/// assert!((h.matrix() - So3::exp(&xi).compose(&g).matrix()).norm() < 1e-15);
/// ```
pub trait LieGroupInPlace: LieGroup {
    /// [`bracket`](LieGroup::bracket) written into `out` (which has the size of `x` on entry):
    /// products and powers override it factor by factor, so that runtime powers reuse `out`'s
    /// storage instead of allocating a new algebra element per call.
    #[inline]
    fn bracket_into(x: &Self::Algebra, y: &Self::Algebra, out: &mut Self::Algebra) {
        *out = Self::bracket(x, y);
    }

    /// [`dexpinv`](LieGroup::dexpinv) written into `out` (which has the size of `v` on entry):
    /// products and powers override it factor by factor, so that runtime powers reuse `out`'s
    /// storage instead of allocating a new algebra element per call.
    fn dexpinv_into(u: &Self::Algebra, v: &Self::Algebra, out: &mut Self::Algebra) {
        *out = Self::dexpinv(u, v);
    }

    /// [`dexpinv_series`] through `ad_uᵏ`, `k = order`, written into `out` (which has the size
    /// of `v` on entry). The default calls [`dexpinv_series`] (no allocation for fixed-size
    /// algebras); products and powers override it factor by factor — the bracket of a direct
    /// product acts factor by factor, so the result is the same, bit for bit — so that runtime
    /// powers allocate nothing.
    #[inline]
    fn dexpinv_series_into(
        u: &Self::Algebra,
        v: &Self::Algebra,
        order: usize,
        out: &mut Self::Algebra,
    ) {
        *out = dexpinv_series::<Self>(u, v, order);
    }

    /// `self ← g · self` (left multiplication in place; allocation free for fixed-size groups).
    fn left_mul_assign(&mut self, g: &Self) {
        *self = g.compose(self);
    }

    /// `self ← exp(ξ) · self`: the left translate by an exponential, in place.
    ///
    /// A group acting on itself does this at every stage of an integrator, so groups override
    /// it to skip forming `exp(ξ)` (SO(3): `R + a ξ×R + b ξ×(ξ×R)` column by column) and to
    /// reuse storage (runtime powers: no allocation). Default: `exp(ξ)`, then
    /// [`left_mul_assign`](Self::left_mul_assign). Must agree with `exp(ξ).compose(self)` to
    /// round-off (a law of the conformance kit).
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, LieGroupInPlace, So3};
    /// use nalgebra::Vector3;
    /// let (xi, g) = (Vector3::new(0.1, -0.2, 0.3), So3::exp(&Vector3::new(1.0, 0.5, -0.4)));
    /// let mut h = g;
    /// h.exp_left_mul_assign(&xi);
    /// assert!((h.matrix() - So3::exp(&xi).compose(&g).matrix()).norm() < 1e-15);
    /// ```
    fn exp_left_mul_assign(&mut self, xi: &Self::Algebra) {
        self.left_mul_assign(&Self::exp(xi));
    }

    /// `self ← self · exp(ξ)`: the right translate by an exponential, in place — the stage
    /// update of an integrator for a left-trivialized equation `ġ = g·ξ(g)` (body-frame
    /// velocities), through the action `homogeneous::RightMultiplication`.
    ///
    /// Default: `self.compose(&exp(ξ))`. SO(3) overrides it with Rodrigues' matrix formed entry
    /// by entry (no `hat` products), products and powers factor by factor, ℝⁿ as an addition.
    /// Must agree with `self.compose(&exp(ξ))` to round-off (a law of the conformance kit).
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, LieGroupInPlace, So3};
    /// use nalgebra::Vector3;
    /// let (xi, g) = (Vector3::new(0.1, -0.2, 0.3), So3::exp(&Vector3::new(1.0, 0.5, -0.4)));
    /// let mut h = g;
    /// h.exp_right_mul_assign(&xi);
    /// assert!((h.matrix() - g.compose(&So3::exp(&xi)).matrix()).norm() < 1e-15);
    /// ```
    fn exp_right_mul_assign(&mut self, xi: &Self::Algebra) {
        *self = self.compose(&Self::exp(xi));
    }
}

/// A group of compile-time size, with an identity made from nothing.
pub trait StaticLieGroup: LieGroup<Algebra: StaticVectorSpace> {
    /// The identity element.
    #[must_use]
    fn identity() -> Self;
}
