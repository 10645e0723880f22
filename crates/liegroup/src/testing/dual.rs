//! Exact-derivative laws with `num_dual::Dual64` scalars.
//!
//! A dual number `a + εb` (ε² = 0) carries the derivative `b` through every operation, so the
//! ε-part of, e.g., `log(exp(u + εv)·exp(u)⁻¹)` *is* `dexp_u v` up to round-off — no step
//! size. These checks also fail when a small-angle branch loses the derivative (an
//! `if θ == 0` branch returning a constant, or `sin θ/θ` evaluated at 0).

use super::laws::group_laws;
use super::laws::{series_allowance, structure_bound};
use super::{KitFailure, KitReport, Law, SampleSet, coords, magnitude, norm};
use crate::coord::CayleyGroup;
use crate::group::LieGroupInPlace;
use crate::vector_space::VectorSpace;
use core::fmt::Debug;
use num_dual::Dual64;

/// `re + ε eps` coordinate-wise, in a vector shaped like `like`.
fn dual_vec<V: VectorSpace<Scalar = Dual64>>(like: &V, re: &[f64], eps: &[f64]) -> V {
    let buf: Vec<Dual64> = re
        .iter()
        .zip(eps)
        .map(|(&a, &b)| Dual64::new(a, b))
        .collect();
    let mut out = like.zero_like();
    out.read_coords(&buf);
    out
}

/// The ε-parts of the coordinates.
fn eps_coords<V: VectorSpace<Scalar = Dual64>>(x: &V) -> Vec<f64> {
    let mut buf = vec![Dual64::from_re(0.0); x.dim()];
    x.write_coords(&mut buf);
    buf.into_iter().map(|d| d.eps).collect()
}

/// Euclidean distance of two `f64` coordinate vectors.
fn dist_f64(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

fn show<A: Debug>(label: &str, a: &A) -> String {
    format!("[{label}] {a:?}")
}

/// Check the exact-derivative laws with dual numbers (see [`Law::DualDexp`],
/// [`Law::DualLog`], [`Law::DualAdjoint`], [`Law::DualAd`], [`Law::DualCoadjoint`]):
///
/// - `ε-part of log(exp(u + εv)·exp(u)⁻¹) = dexp_u v` (right-trivialized dexp);
/// - `ε-part of log(g·exp(εw)) = dexp⁻¹_{log g}(Ad_g w)` on the group samples with
///   `|log g| ≤` the dexp radius (the derivative of `log`, including tiny samples; near-π
///   samples only if the radius is raised above π with
///   [`SampleSetBuilder::dexp_radius`](super::SampleSetBuilder::dexp_radius));
/// - `ε-part of log(g·exp(εξ)·g⁻¹) = Ad_g ξ`;
/// - `ε-part of Ad_{exp(εx)} y = [x, y]`;
/// - `ε-part of coadjoint(exp(εx), μ) = −ad*_x μ`.
///
/// # Errors
/// As [`check_group`](super::check_group): every violated law, most primitive first.
pub fn check_derivatives<G>(samples: &SampleSet<G>) -> Result<KitReport, KitFailure>
where
    G: LieGroupInPlace<Scalar = Dual64>,
{
    derivative_laws(samples)?.finish()
}

/// The laws of [`check_derivatives`], violations kept in the report.
fn derivative_laws<G>(samples: &SampleSet<G>) -> Result<KitReport, KitFailure>
where
    G: LieGroupInPlace<Scalar = Dual64>,
{
    samples.validate()?;
    let tol = samples.tolerances;
    let els = &samples.elements;
    let alg = &samples.algebra;
    let (ne, na) = (els.len(), alg.len());
    let n = ne.max(na);
    let mut rep = KitReport::new(core::any::type_name::<G>(), (ne, na));
    let cst = structure_bound(samples);
    let zero = samples.example.algebra_zero();
    let dim = zero.dim();
    let zeros = vec![0.0; dim];
    let al = |i: usize| (&alg[i % na].0, &alg[i % na].1, norm(&alg[i % na].1));

    // dexp = derivative of exp.
    let base = samples.algebra_within(samples.dexp_radius);
    for (j, (lu, u)) in base.iter().enumerate() {
        let Some(allow) = series_allowance::<G>(u) else {
            continue;
        };
        let nu = norm(u);
        let gu = G::exp(u);
        let m = magnitude(&gu);
        let ginv = gu.inverse();
        let uc = coords(u);
        for k in 0..2 {
            let (lv, v, nv) = al(j + 1 + 3 * k);
            let ud = dual_vec(&zero, &uc, &coords(v));
            let x = G::exp(&ud).compose(&ginv).log();
            let err = dist_f64(&eps_coords(&x), &coords(&G::dexp(u, v)));
            rep.record(
                Law::DualDexp,
                err,
                tol.round_off(m * m * (1.0 + nu) * nv) + allow * nv,
                || format!("u = {}, v = {}", show(lu, u), show(lv, v)),
            );
        }
    }

    // Derivative of log, Ad as the derivative of conjugation.
    for i in 0..n {
        let (lg, g) = (&els[i % ne].0, &els[i % ne].1);
        let (lw, w, nw) = al(i);
        let mg = magnitude(g);
        let l = g.log();
        let nl = norm(&l);
        let allowance = if nl <= samples.dexp_radius {
            series_allowance::<G>(&l)
        } else {
            None
        };
        if let Some(allow) = allowance {
            let wd = dual_vec(&zero, &zeros, &coords(w));
            let x = g.compose(&G::exp(&wd)).log();
            let expect = G::dexpinv(&l, &g.adjoint(w));
            let err = dist_f64(&eps_coords(&x), &coords(&expect));
            rep.record(
                Law::DualLog,
                err,
                tol.round_off(mg * mg * (1.0 + nl) * (1.0 + nl) * nw) + allow * mg * nw,
                || format!("g = {}, w = {}", show(lg, g), show(lw, w)),
            );
        }
        let (lx, x, nx) = al(i + 1);
        let xd = dual_vec(&zero, &zeros, &coords(x));
        let conj = g.compose(&G::exp(&xd)).compose(&g.inverse()).log();
        let err = dist_f64(&eps_coords(&conj), &coords(&g.adjoint(x)));
        rep.record(Law::DualAdjoint, err, tol.round_off(mg * mg * nx), || {
            format!("g = {}, ξ = {}", show(lg, g), show(lx, x))
        });
    }

    // ad as the derivative of Ad, ad* as minus the derivative of the coadjoint action.
    for i in 0..na {
        let ((lx, x, nx), (ly, y, ny)) = (al(i), al(i + 1));
        let gx = G::exp(&dual_vec(&zero, &zeros, &coords(x)));
        let err = dist_f64(&eps_coords(&gx.adjoint(y)), &coords(&G::bracket(x, y)));
        rep.record(Law::DualAd, err, tol.round_off(cst * nx * ny), || {
            format!("x = {}, y = {}", show(lx, x), show(ly, y))
        });
        let mut minus = G::ad_star(x, y);
        minus.scale_by(Dual64::from_re(-1.0));
        let err = dist_f64(&eps_coords(&gx.coadjoint(y)), &coords(&minus));
        rep.record(
            Law::DualCoadjoint,
            err,
            tol.round_off(cst * nx * ny),
            || format!("x = {}, μ = {}", show(lx, x), show(ly, y)),
        );
    }
    Ok(rep)
}

/// [`check_group`](super::check_group) followed by [`check_derivatives`], merged into one report: the complete
/// check of a group over `Dual64`.
///
/// # Errors
/// As [`check_group`](super::check_group): every violated law of both checks, most primitive first.
pub fn check_group_dual<G>(samples: &SampleSet<G>) -> Result<KitReport, KitFailure>
where
    G: LieGroupInPlace<Scalar = Dual64>,
{
    let mut rep = group_laws(samples)?;
    rep.merge(derivative_laws(samples)?);
    rep.finish()
}

/// Check with dual numbers that `dcay` is the derivative of `cay`:
/// `ε-part of log(cay(u + εv)·cay(u)⁻¹) = dcay_u v` for base points `|u| ≤` the dexp radius
/// ([`Law::DualDcay`]).
///
/// # Errors
/// As [`check_group`](super::check_group): every violated law, most primitive first.
pub fn check_cayley_derivatives<G>(samples: &SampleSet<G>) -> Result<KitReport, KitFailure>
where
    G: CayleyGroup<Scalar = Dual64>,
{
    samples.validate()?;
    let tol = samples.tolerances;
    let alg = &samples.algebra;
    let na = alg.len();
    let mut rep = KitReport::new(core::any::type_name::<G>(), (samples.elements.len(), na));
    let zero = samples.example.algebra_zero();
    let base = samples.algebra_within(samples.dexp_radius);
    for (j, (lu, u)) in base.iter().enumerate() {
        let nu = norm(u);
        let gu = G::cay(u);
        let m = magnitude(&gu);
        let ginv = gu.inverse();
        let uc = coords(u);
        for k in 0..2 {
            let (lv, v) = (&alg[(j + 1 + 3 * k) % na].0, &alg[(j + 1 + 3 * k) % na].1);
            let nv = norm(v);
            let ud = dual_vec(&zero, &uc, &coords(v));
            let x = G::cay(&ud).compose(&ginv).log();
            let err = dist_f64(&eps_coords(&x), &coords(&G::dcay(u, v)));
            rep.record(
                Law::DualDcay,
                err,
                tol.round_off(m * m * (1.0 + nu) * nv),
                || format!("u = {}, v = {}", show(lu, u), show(lv, v)),
            );
        }
    }
    rep.finish()
}
