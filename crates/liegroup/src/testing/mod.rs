//! The conformance kit: executable definitions of what a correct [`LieGroup`] is
//! (feature `testing`).
//!
//! A group implementation — shipped or your own — is checked against the laws its trait
//! documents on a [`SampleSet`] of group and algebra elements, and the kit returns either a
//! [`KitReport`] (every law checked, with the worst error seen) or a [`KitFailure`] listing
//! every violated law (with its first failing sample, the observed error and the tolerance).
//! All laws are always run, and failures are ordered from the most primitive law to the most
//! derived ([`Law::PRIMITIVE_TO_DERIVED`]: bracket, `log∘exp`, axioms, `Ad`, coadjoint,
//! in-place forms, `dexp`, `dexp⁻¹`, Cayley), so the first line of the message names the
//! likely culprit: a flipped bracket sign is reported as the bracket failing to be the
//! derivative of `Ad`, with the `dexp` failures it causes listed after it.
//!
//! | call | scalar | laws |
//! |---|---|---|
//! | [`check_group`] | any (`f64`, `Dual64`, …) | group axioms, exp/log, Ad, ad, bracket, coadjoint, ad*, dexp/dexp⁻¹ |
//! | [`check_derivatives`] | `num_dual::Dual64` | exact derivatives: dexp, log, Ad, ad, coadjoint |
//! | [`check_group_dual`] | `num_dual::Dual64` | both of the above, one report |
//! | [`check_cayley`] | any | Cayley identities of a [`CayleyGroup`](crate::CayleyGroup) |
//! | [`check_cayley_derivatives`] | `num_dual::Dual64` | exact derivative of `cay` |
//!
//! # Example: checking your own group
//! ```
//! use liegroup::testing::{SampleSet, check_group, check_group_dual};
//! use liegroup::{Se2, num_dual::Dual64};
//!
//! let report = check_group(&SampleSet::<Se2>::standard_static()).unwrap();
//! assert!(report.evaluations() > 100);
//! // The same laws with dual numbers, plus the exact-derivative laws:
//! check_group_dual(&SampleSet::<Se2<Dual64>>::standard_static()).unwrap();
//! // A runtime power: samples are sized after an example element.
//! let example: Vec<Se2> = vec![Se2::identity(); 3];
//! check_group(&SampleSet::standard(&example)).unwrap();
//! ```
//!
//! # Laws checked
//! With `d(a, b) = |log(a·b⁻¹)|` for group elements, `|·|` the Euclidean norm of coordinates,
//! `g, h, k` group samples, `x, y, z, ξ, μ, v` algebra samples (see [`Law`] for the list):
//!
//! - axioms: `g·e = e·g = g`, `g·g⁻¹ = g⁻¹·g = e`, `(g⁻¹)⁻¹ = g`, `(gh)k = g(hk)`;
//! - `exp(log g) = g` on every sample, `log(exp ξ) = ξ` for `|ξ| ≤` the log–exp radius (1 by
//!   default);
//! - `Ad_{gh} = Ad_g Ad_h`; `exp(Ad_g ξ) = g exp(ξ) g⁻¹`; `Ad_g ξ = d/ds log(g exp(sξ) g⁻¹)`
//!   at 0 (a five-point difference quotient);
//! - `ad = bracket`, antisymmetry, bilinearity (both slots), Jacobi; `[x̂, y] = d/ds
//!   Ad_{exp(s x̂)} y` at 0 (a five-point difference quotient: ties the sign of the bracket to
//!   `exp` and `Ad`, which the algebraic laws cannot);
//! - `⟨coadjoint(g, μ), Ad_g ξ⟩ = ⟨μ, ξ⟩`, `coadjoint(gh, μ) = coadjoint(g, coadjoint(h, μ))`,
//!   `coadjoint(e, μ) = μ`; `⟨ad*_x μ, η⟩ = ⟨μ, [x, η]⟩`;
//! - `dexp_u v = d/ds log(exp(u + s v) exp(u)⁻¹)` at 0 (difference quotient; exactly, via the
//!   dual part, in [`check_derivatives`]); `dexp_u ∘ dexp_u⁻¹ = dexp_u⁻¹ ∘ dexp_u = id`;
//!   when [`LieGroup::EXACT_DEXP`], `dexp`/`dexp⁻¹` equal [`dexp_series`](crate::dexp_series) /
//!   [`dexpinv_series`](crate::dexpinv_series) at order [`MAX_SERIES_ORDER`](crate::MAX_SERIES_ORDER)
//!   for `‖ad_u‖ ≤ 1`.
//!
//! # Tolerances
//! Every law compares an error with `ulps · ε · scale` (ε = `f64::EPSILON`), where `scale`
//! is the size of the quantities involved, so that the same multiplier fits small and large
//! samples (see [`Tolerances`] for the multipliers and [`Law`] for each scale):
//!
//! - `m(g) = max(1, max_i |Ad_g e_i|, max_i |Ad_{g⁻¹} e_i|)`, the size of a group element as seen
//!   by its adjoint representation (1 for rotations, `1 + |t|` for rigid motions, `~‖g‖²` for
//!   matrix groups), so `d(a, b)` of two computations of the same product of `g, h, …` is
//!   compared with `ulps · ε · m(g) m(h) …`;
//! - `C = max(1, max |[x, y]|/(|x||y|))` over the algebra samples and (for `dim ≤ 16`) the basis,
//!   the size of the structure constants: bracket laws scale with `C |x| |y|`, Jacobi with
//!   `C² |x| |y| |z|`;
//! - difference quotients use a five-point stencil with step `h = 10⁻³` along a unit direction
//!   (error `O(h⁴) + O(ε/h)`) and are compared with `fd_ulps · ε · scale`;
//! - groups without closed-form `dexp` ([`LieGroup::EXACT_DEXP`] = false) are assumed to use the
//!   default series ([`DEFAULT_SERIES_ORDER`]); the dexp laws then add
//!   the series' truncation bound (with `r = ‖ad_u‖_F ≥ ‖ad_u‖₂`:
//!   `Σ_{k>14} |B_k|/k! rᵏ ≤ 2.0001 (r/2π)¹⁶/(1 − (r/2π)²)` for dexp⁻¹ and
//!   `r¹⁵/(16! (1 − r/17))` for dexp) and skip samples with `r ≥ π`.
//!
//! Any NaN in an error makes the law fail.

mod dual;
mod laws;
mod report;
mod samples;
pub mod strategies;

pub use dual::{check_cayley_derivatives, check_derivatives, check_group_dual};
pub use laws::{check_cayley, check_group};
pub use report::{CheckSummary, KitFailure, KitReport, Law, Violation};
pub use samples::{SampleSet, SampleSetBuilder, Tolerances};

use crate::group::DEFAULT_SERIES_ORDER;
use crate::group::LieGroup;
use crate::scalar::{c, re};
use crate::vector_space::VectorSpace;
use num_traits::Zero;

/// The coordinates of `x` as `f64` (real parts).
pub(crate) fn coords<V: VectorSpace>(x: &V) -> Vec<f64> {
    let mut buf = vec![V::Scalar::zero(); x.dim()];
    x.write_coords(&mut buf);
    buf.into_iter().map(re).collect()
}

/// A vector of the same size as `like` with the given `f64` coordinates.
pub(crate) fn from_coords<V: VectorSpace>(like: &V, src: &[f64]) -> V {
    let buf: Vec<V::Scalar> = src.iter().map(|&x| c::<V::Scalar>(x)).collect();
    let mut out = like.zero_like();
    out.read_coords(&buf);
    out
}

/// The Euclidean norm of the real parts of the coordinates.
pub(crate) fn norm<V: VectorSpace>(x: &V) -> f64 {
    re(x.inner(x)).sqrt()
}

/// `|x − y|` (real parts).
pub(crate) fn diff<V: VectorSpace>(x: &V, y: &V) -> f64 {
    norm(&x.subtracted(y))
}

/// `d(a, b) = |log(a·b⁻¹)|`.
pub(crate) fn dist<G: LieGroup>(a: &G, b: &G) -> f64 {
    norm(&a.compose(&b.inverse()).log())
}

/// `m(g) = max(1, max_i |Ad_g e_i|, max_i |Ad_{g⁻¹} e_i|)`.
pub(crate) fn magnitude<G: LieGroup>(g: &G) -> f64 {
    let z = g.algebra_zero();
    let ginv = g.inverse();
    let mut m: f64 = 1.0;
    for i in 0..z.dim() {
        let e = z.basis_like(i);
        m = m.max(norm(&g.adjoint(&e))).max(norm(&ginv.adjoint(&e)));
    }
    if m.is_finite() { m } else { f64::INFINITY }
}

/// `‖ad_u‖_F = (Σ_i |[u, e_i]|²)^{1/2}`, an upper bound of the operator 2-norm of `ad_u`.
pub(crate) fn ad_norm<G: LieGroup>(u: &G::Algebra) -> f64 {
    let mut s = 0.0;
    for i in 0..u.dim() {
        let n = norm(&G::bracket(u, &u.basis_like(i)));
        s += n * n;
    }
    s.sqrt()
}

/// An upper bound of the truncation error of the default series, relative to `|v|`:
/// `|dexp_u v − Σ_{k≤n} ad_uᵏ v/(k+1)!| + |dexp_u⁻¹ v − Σ_{k≤n} (B_k/k!) ad_uᵏ v|` with
/// `n = DEFAULT_SERIES_ORDER`, for `r ≥ ‖ad_u‖₂` and `r < π`. Uses `|B_k|/k! = 2ζ(k)/(2π)ᵏ`
/// (k even), `ζ(k) ≤ 1 + 3·2⁻ᵏ`.
pub(crate) fn series_tail_bound(r: f64) -> f64 {
    let n = DEFAULT_SERIES_ORDER as i32;
    let q = r / (2.0 * core::f64::consts::PI);
    let k0 = if (n + 1) % 2 == 0 { n + 1 } else { n + 2 };
    let inv = 2.0 * (1.0 + 3.0 * 2f64.powi(-k0)) * q.powi(k0) / (1.0 - q * q);
    let mut fact = 1.0_f64;
    for j in 2..=(n + 2) {
        fact *= f64::from(j);
    }
    let fwd = r.powi(n + 1) / (fact * (1.0 - r / f64::from(n + 3)));
    inv + fwd
}
