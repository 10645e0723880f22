//! The laws that hold for any scalar type.

use super::{
    KitFailure, KitReport, Law, SampleSet, ad_norm, diff, dist, from_coords, magnitude, norm,
    series_tail_bound,
};
use crate::coord::CayleyGroup;
use crate::group::{LieGroup, LieGroupInPlace, MAX_SERIES_ORDER, dexp_series, dexpinv_series};
use crate::scalar::c;
use crate::vector_space::VectorSpace;
use core::fmt::Debug;

/// Step of the five-point difference quotients (along a unit direction).
pub(crate) const FD_STEP: f64 = 1e-3;

/// `(8(f(h) − f(−h)) − (f(2h) − f(−2h)))/(12h)`, error `h⁴ f⁽⁵⁾/30`.
pub(crate) fn five_point<V: VectorSpace>(f: impl Fn(f64) -> V) -> V {
    let h = FD_STEP;
    let mut d = f(h).subtracted(&f(-h));
    d.scale_by(c::<V::Scalar>(8.0));
    d.add_scaled(c::<V::Scalar>(-1.0), &f(2.0 * h).subtracted(&f(-2.0 * h)));
    d.scale_by(c::<V::Scalar>(1.0 / (12.0 * h)));
    d
}

/// `x/|x|` (or `None` for |x| ≤ 1e-50).
pub(crate) fn unit<V: VectorSpace>(x: &V) -> Option<V> {
    let n = norm(x);
    (n > 1e-50).then(|| x.scaled(c::<V::Scalar>(1.0 / n)))
}

/// `C = max(1, max |[x, y]|/(|x||y|))` over pairs of algebra samples and, for `dim ≤ 16`,
/// basis vectors.
pub(crate) fn structure_bound<G: LieGroup>(samples: &SampleSet<G>) -> f64 {
    let mut vs: Vec<G::Algebra> = samples
        .algebra
        .iter()
        .filter(|(_, x)| norm(x) > 1e-50)
        .map(|(_, x)| x.clone())
        .collect();
    let zero = samples.example.algebra_zero();
    if zero.dim() <= 16 {
        vs.extend((0..zero.dim()).map(|i| zero.basis_like(i)));
    }
    let mut cmax: f64 = 1.0;
    for (i, x) in vs.iter().enumerate() {
        for y in &vs[i + 1..] {
            let r = norm(&G::bracket(x, y)) / (norm(x) * norm(y));
            if r.is_finite() {
                cmax = cmax.max(r);
            }
        }
    }
    cmax
}

/// Extra tolerance for groups with series `dexp`, and whether the base point is usable.
pub(crate) fn series_allowance<G: LieGroup>(u: &G::Algebra) -> Option<f64> {
    if G::EXACT_DEXP {
        return Some(0.0);
    }
    let r = ad_norm::<G>(u);
    (r < core::f64::consts::PI).then(|| r.exp() * series_tail_bound(r))
}

fn show<A: Debug>(label: &str, a: &A) -> String {
    format!("[{label}] {a:?}")
}

/// Check the group laws (see the [module docs](super)) on `samples`.
///
/// Works for any scalar: with dual numbers the real parts are compared, so the same call
/// checks that the group is implemented generically. Use [`check_group_dual`](super::check_group_dual)
/// to add the exact-derivative laws.
///
/// Every law is checked on every sample, also after a failure.
///
/// # Errors
/// [`KitFailure::Violations`] listing every violated law, most primitive first (see
/// [`Law::PRIMITIVE_TO_DERIVED`]), or [`KitFailure::InvalidSampleSet`] for an empty or
/// inconsistent sample set.
pub fn check_group<G: LieGroupInPlace>(samples: &SampleSet<G>) -> Result<KitReport, KitFailure> {
    group_laws(samples)?.finish()
}

/// The laws of [`check_group`], violations kept in the report (not yet turned into an error).
pub(crate) fn group_laws<G: LieGroupInPlace>(
    samples: &SampleSet<G>,
) -> Result<KitReport, KitFailure> {
    samples.validate()?;
    let tol = samples.tolerances;
    let els = &samples.elements;
    let alg = &samples.algebra;
    let (ne, na) = (els.len(), alg.len());
    let n = ne.max(na);
    let mut rep = KitReport::new(core::any::type_name::<G>(), (ne, na));
    let e = samples.identity();
    let mags: Vec<f64> = els.iter().map(|(_, g)| magnitude(g)).collect();
    let cst = structure_bound(samples);
    let el = |i: usize| (&els[i % ne].0, &els[i % ne].1, mags[i % ne]);
    let al = |i: usize| (&alg[i % na].0, &alg[i % na].1, norm(&alg[i % na].1));

    // Axioms and exp∘log.
    rep.record(Law::Identity, norm(&e.log()), tol.round_off(1.0), || {
        show("log(e)", &e)
    });
    for i in 0..ne {
        let (lg, g, m) = el(i);
        let s = || show(lg, g);
        rep.record(
            Law::Identity,
            dist(&g.compose(&e), g),
            tol.round_off(m * m),
            s,
        );
        rep.record(
            Law::Identity,
            dist(&e.compose(g), g),
            tol.round_off(m * m),
            s,
        );
        let gi = g.inverse();
        rep.record(
            Law::Inverse,
            norm(&g.compose(&gi).log()),
            tol.round_off(m * m),
            s,
        );
        rep.record(
            Law::Inverse,
            norm(&gi.compose(g).log()),
            tol.round_off(m * m),
            s,
        );
        rep.record(
            Law::Inverse,
            dist(&gi.inverse(), g),
            tol.round_off(m * m),
            s,
        );
        let l = g.log();
        let scale = m * m * (1.0 + norm(&l));
        rep.record(
            Law::ExpLog,
            dist(&G::exp(&l), g),
            tol.round_off(scale),
            || format!("{} with log = {l:?}", s()),
        );
    }
    for i in 0..ne {
        let ((lg, g, mg), (lh, h, mh), (lk, k, mk)) = (el(i), el(i + 1), el(i + 2));
        let err = dist(&g.compose(h).compose(k), &g.compose(&h.compose(k)));
        rep.record(Law::Associativity, err, tol.round_off(mg * mh * mk), || {
            format!(
                "g = {}, h = {}, k = {}",
                show(lg, g),
                show(lh, h),
                show(lk, k)
            )
        });
    }

    // The in-place left translate by an exponential.
    for i in 0..n {
        let ((lg, g, mg), (lx, x, nx)) = (el(i), al(i));
        let ex = G::exp(x);
        let mut h = g.clone();
        h.exp_left_mul_assign(x);
        rep.record(
            Law::ExpLeftMul,
            dist(&h, &ex.compose(g)),
            tol.round_off(magnitude(&ex) * mg * (1.0 + nx)),
            || format!("g = {}, ξ = {}", show(lg, g), show(lx, x)),
        );
        let mut h = g.clone();
        h.exp_right_mul_assign(x);
        rep.record(
            Law::ExpRightMul,
            dist(&h, &g.compose(&ex)),
            tol.round_off(magnitude(&ex) * mg * (1.0 + nx)),
            || format!("g = {}, ξ = {}", show(lg, g), show(lx, x)),
        );
    }

    // log∘exp inside the radius.
    for (lx, x) in samples.algebra_within(samples.log_exp_radius) {
        let gx = G::exp(x);
        let scale = magnitude(&gx) * (1.0 + norm(x));
        rep.record(
            Law::LogExp,
            diff(&gx.log(), x),
            tol.round_off(scale),
            || show(lx, x),
        );
    }

    // Adjoint representation.
    for i in 0..n {
        let ((lg, g, mg), (lh, h, mh), (lx, x, nx)) = (el(i), el(i + 1), al(i));
        let err = diff(&g.compose(h).adjoint(x), &g.adjoint(&h.adjoint(x)));
        rep.record(
            Law::AdjointHomomorphism,
            err,
            tol.round_off(mg * mh * nx),
            || {
                format!(
                    "g = {}, h = {}, ξ = {}",
                    show(lg, g),
                    show(lh, h),
                    show(lx, x)
                )
            },
        );
        let gx = G::exp(x);
        let conj = g.compose(&gx).compose(&g.inverse());
        let err = dist(&G::exp(&g.adjoint(x)), &conj);
        let scale = mg * mg * magnitude(&gx) * (1.0 + mg * nx);
        rep.record(Law::AdjointConjugation, err, tol.round_off(scale), || {
            format!("g = {}, ξ = {}", show(lg, g), show(lx, x))
        });
        if let Some(xh) = unit(x) {
            let ginv = g.inverse();
            let d = five_point(|s| g.compose(&G::exp(&xh.scaled(c(s)))).compose(&ginv).log());
            let err = diff(&d, &g.adjoint(&xh));
            rep.record(
                Law::AdjointDifferenceQuotient,
                err,
                tol.finite_difference(mg * mg),
                || format!("g = {}, ξ = {}", show(lg, g), show(lx, x)),
            );
        }
    }

    // Bracket and ad.
    let (a, b) = (0.75, -1.25);
    for i in 0..na {
        let ((lx, x, nx), (ly, y, ny), (lz, z, nz)) = (al(i), al(i + 1), al(i + 2));
        let s2 = || format!("x = {}, y = {}", show(lx, x), show(ly, y));
        let s3 = || format!("{}, z = {}", s2(), show(lz, z));
        let xy = G::bracket(x, y);
        rep.record(
            Law::AdBracket,
            diff(&G::ad(x, y), &xy),
            tol.round_off(cst * nx * ny),
            s2,
        );
        rep.record(
            Law::BracketAntisymmetry,
            norm(&xy.added(&G::bracket(y, x))),
            tol.round_off(cst * nx * ny),
            s2,
        );
        let mut out = x.zero_like();
        G::bracket_into(x, y, &mut out);
        rep.record(
            Law::InPlaceForms,
            diff(&out, &xy),
            tol.round_off(cst * nx * ny),
            s2,
        );
        let mut comb = x.scaled(c(a));
        comb.add_scaled(c(b), y);
        let mut lin = G::bracket(x, z).scaled(c(a));
        lin.add_scaled(c(b), &G::bracket(y, z));
        let scale = cst * (nx + ny) * nz;
        rep.record(
            Law::BracketBilinearity,
            diff(&G::bracket(&comb, z), &lin),
            tol.round_off(scale),
            s3,
        );
        let mut lin2 = G::bracket(z, x).scaled(c(a));
        lin2.add_scaled(c(b), &G::bracket(z, y));
        rep.record(
            Law::BracketBilinearity,
            diff(&G::bracket(z, &comb), &lin2),
            tol.round_off(scale),
            s3,
        );
        if let Some(xh) = unit(x) {
            let d = five_point(|t| G::exp(&xh.scaled(c(t))).adjoint(y));
            rep.record(
                Law::AdBracketDifferenceQuotient,
                diff(&d, &G::bracket(&xh, y)),
                tol.finite_difference((1.0 + cst).powi(5) * ny),
                s2,
            );
        }
        let jac = G::bracket(x, &G::bracket(y, z))
            .added(&G::bracket(y, &G::bracket(z, x)))
            .added(&G::bracket(z, &xy));
        rep.record(
            Law::Jacobi,
            norm(&jac),
            tol.round_off(cst * cst * nx * ny * nz),
            s3,
        );
    }

    // Coadjoint action and ad*.
    for i in 0..n {
        let ((lg, g, mg), (lh, h, mh)) = (el(i), el(i + 1));
        let ((lm, mu, nm), (lx, x, nx)) = (al(i), al(i + 1));
        let lhs = g.coadjoint(mu).inner(&g.adjoint(x));
        let err = (crate::scalar::re(lhs) - crate::scalar::re(mu.inner(x))).abs();
        rep.record(
            Law::CoadjointDuality,
            err,
            tol.round_off(mg * mg * nm * nx),
            || {
                format!(
                    "g = {}, μ = {}, ξ = {}",
                    show(lg, g),
                    show(lm, mu),
                    show(lx, x)
                )
            },
        );
        let err = diff(&g.compose(h).coadjoint(mu), &g.coadjoint(&h.coadjoint(mu)));
        rep.record(
            Law::CoadjointAction,
            err,
            tol.round_off(mg * mg * mh * mh * nm),
            || {
                format!(
                    "g = {}, h = {}, μ = {}",
                    show(lg, g),
                    show(lh, h),
                    show(lm, mu)
                )
            },
        );
        rep.record(
            Law::CoadjointAction,
            diff(&e.coadjoint(mu), mu),
            tol.round_off(nm),
            || format!("e, μ = {}", show(lm, mu)),
        );
    }
    for i in 0..na {
        let ((lx, x, nx), (lm, mu, nm), (ly, y, ny)) = (al(i), al(i + 1), al(i + 2));
        let lhs = G::ad_star(x, mu).inner(y);
        let rhs = mu.inner(&G::bracket(x, y));
        let err = (crate::scalar::re(lhs) - crate::scalar::re(rhs)).abs();
        rep.record(
            Law::AdStarDuality,
            err,
            tol.round_off(cst * nx * nm * ny),
            || {
                format!(
                    "x = {}, μ = {}, η = {}",
                    show(lx, x),
                    show(lm, mu),
                    show(ly, y)
                )
            },
        );
    }

    // dexp and dexp⁻¹.
    let base = samples.algebra_within(samples.dexp_radius);
    for (j, (lu, u)) in base.iter().enumerate() {
        let Some(allow) = series_allowance::<G>(u) else {
            continue;
        };
        let nu = norm(u);
        let gu = G::exp(u);
        let mu_ = magnitude(&gu);
        let ginv = gu.inverse();
        for k in 0..2 {
            let (lv, v, nv) = al(j + 1 + 3 * k);
            let s = || format!("u = {}, v = {}", show(lu, u), show(lv, v));
            if let Some(vh) = unit(v) {
                let d = five_point(|t| {
                    let mut w = (*u).clone();
                    w.add_scaled(c(t), &vh);
                    G::exp(&w).compose(&ginv).log()
                });
                let err = diff(&d, &G::dexp(u, &vh));
                let scale = mu_ * mu_ * (1.0 + nu) * (1.0 + nu);
                rep.record(
                    Law::DexpDifferenceQuotient,
                    err,
                    tol.finite_difference(scale) + allow,
                    s,
                );
            }
            let grow = (1.0 + cst * nu) * (1.0 + cst * nu);
            let w = G::dexpinv(u, v);
            let nw = norm(&w);
            let mut out = v.zero_like();
            G::dexpinv_into(u, v, &mut out);
            rep.record(
                Law::InPlaceForms,
                diff(&out, &w),
                tol.round_off(nw.max(nv)),
                s,
            );
            for order in [2, 4] {
                let mut out = v.zero_like();
                G::dexpinv_series_into(u, v, order, &mut out);
                let series = dexpinv_series::<G>(u, v, order);
                rep.record(
                    Law::InPlaceForms,
                    diff(&out, &series),
                    tol.round_off(norm(&series).max(nv)),
                    s,
                );
            }
            rep.record(
                Law::DexpInverse,
                diff(&G::dexp(u, &w), v),
                tol.round_off((nv + nw) * grow) + allow * (nv + nw),
                s,
            );
            let w = G::dexp(u, v);
            let nw = norm(&w);
            rep.record(
                Law::DexpInverse,
                diff(&G::dexpinv(u, &w), v),
                tol.round_off((nv + nw) * grow) + allow * (nv + nw),
                s,
            );
            if G::EXACT_DEXP {
                let r = ad_norm::<G>(u);
                if r <= 1.0 {
                    let tail = series_tail_at_max(r);
                    let scale = nv * (1.0 + cst * nu);
                    let err = diff(&G::dexp(u, v), &dexp_series::<G>(u, v, MAX_SERIES_ORDER));
                    rep.record(Law::DexpSeries, err, tol.round_off(scale) + tail * nv, s);
                    let err = diff(
                        &G::dexpinv(u, v),
                        &dexpinv_series::<G>(u, v, MAX_SERIES_ORDER),
                    );
                    rep.record(Law::DexpSeries, err, tol.round_off(scale) + tail * nv, s);
                }
            }
        }
    }
    Ok(rep)
}

/// Truncation bound of the series at [`MAX_SERIES_ORDER`] (k > 20) for `r ≤ 1`.
fn series_tail_at_max(r: f64) -> f64 {
    let q = r / (2.0 * core::f64::consts::PI);
    let mut fact = 1.0_f64;
    for j in 2..=22 {
        fact *= f64::from(j);
    }
    2.0001 * q.powi(22) / (1.0 - q * q) + r.powi(21) / (fact * (1.0 - r / 23.0))
}

/// Check the Cayley-map identities of a [`CayleyGroup`] on `samples`:
/// `cay(0) = e`, `cay(−ξ) = cay(ξ)⁻¹`, `dcay_u ∘ dcay_u⁻¹ = dcay_u⁻¹ ∘ dcay_u = id`, and
/// `dcay_u v = d/ds log(cay(u + s v) cay(u)⁻¹)` at 0 (five-point difference quotient), for base
/// points `|u| ≤` the dexp radius. See [`Law::CayleyInverse`], [`Law::DcayInverse`],
/// [`Law::DcayDifferenceQuotient`].
///
/// # Errors
/// As [`check_group`]: every violated law, most primitive first.
pub fn check_cayley<G: CayleyGroup>(samples: &SampleSet<G>) -> Result<KitReport, KitFailure> {
    samples.validate()?;
    let tol = samples.tolerances;
    let alg = &samples.algebra;
    let na = alg.len();
    let mut rep = KitReport::new(core::any::type_name::<G>(), (samples.elements.len(), na));
    let cst = structure_bound(samples);
    let e = samples.identity();
    let zero = from_coords(&e.algebra_zero(), &vec![0.0; samples.dim()]);
    rep.record(
        Law::CayleyInverse,
        dist(&G::cay(&zero), &e),
        tol.round_off(1.0),
        || "cay(0)".into(),
    );
    let base = samples.algebra_within(samples.dexp_radius);
    for (j, (lu, u)) in base.iter().enumerate() {
        let nu = norm(u);
        let gu = G::cay(u);
        let m = magnitude(&gu);
        let neg = u.scaled(c(-1.0));
        rep.record(
            Law::CayleyInverse,
            dist(&G::cay(&neg), &gu.inverse()),
            tol.round_off(m * m * (1.0 + nu)),
            || show(lu, u),
        );
        let ginv = gu.inverse();
        for k in 0..2 {
            let (lv, v) = (&alg[(j + 1 + 3 * k) % na].0, &alg[(j + 1 + 3 * k) % na].1);
            let nv = norm(v);
            let s = || format!("u = {}, v = {}", show(lu, u), show(lv, v));
            let grow = 1.0 + cst * nu + nu * nu;
            let w = G::dcayinv(u, v);
            let nw = norm(&w);
            rep.record(
                Law::DcayInverse,
                diff(&G::dcay(u, &w), v),
                tol.round_off((nv + nw) * grow),
                s,
            );
            let w = G::dcay(u, v);
            let nw = norm(&w);
            rep.record(
                Law::DcayInverse,
                diff(&G::dcayinv(u, &w), v),
                tol.round_off((nv + nw) * grow),
                s,
            );
            if let Some(vh) = unit(v) {
                let d = five_point(|t| {
                    let mut w = (*u).clone();
                    w.add_scaled(c(t), &vh);
                    G::cay(&w).compose(&ginv).log()
                });
                let err = diff(&d, &G::dcay(u, &vh));
                rep.record(
                    Law::DcayDifferenceQuotient,
                    err,
                    tol.finite_difference(m * m * (1.0 + nu) * (1.0 + nu)),
                    s,
                );
            }
        }
    }
    rep.finish()
}
