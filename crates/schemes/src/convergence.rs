//! Measuring orders of convergence: run a method over a sequence of step counts against an
//! exact solution (or a reference run) and fit the slope of log(error) against log(h) over the
//! asymptotic range.

use crate::driver::{Options, integrate};
use crate::error::SchemeError;
use crate::stepper::{Algebra, Problem, Scalar, Stepper};
use homogeneous::{Action, LieVectorField};

/// Which points a fit used and which it dropped, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderFit {
    /// The least-squares slope of `log(error)` against `log(h)` over the points used.
    pub slope: f64,
    /// Indices (into the step sequence) of the points used.
    pub used: Vec<usize>,
    /// Indices dropped as pre-asymptotic (coarse steps whose local slope had not settled).
    pub pre_asymptotic: Vec<usize>,
    /// Indices dropped as dominated by round-off (error below the floor, or stagnating).
    pub round_off: Vec<usize>,
    /// Local slopes between consecutive points (`len − 1` entries).
    pub local_slopes: Vec<f64>,
}

/// Fit the order of convergence from step sizes `h` (decreasing) and errors.
///
/// 1. Points whose error is below `floor` (or not finite or zero) are round-off dominated and
///    dropped, as are trailing points where the error stops decreasing (local slope below 30% of
///    the median local slope).
/// 2. From the coarse end, points are dropped as pre-asymptotic while the local slope still
///    changes by more than 0.1 from one interval to the next, keeping at least three points.
/// 3. The slope is the least-squares fit over the remaining points.
///
/// Returns `None` when fewer than two usable points remain.
///
/// # Example
/// ```
/// use schemes::fit_order;
/// let h = [0.1, 0.05, 0.025, 0.0125];
/// let err: Vec<f64> = h.iter().map(|h| 3.0 * h * h * h * h).collect();
/// let fit = fit_order(&h, &err, 1e-14).unwrap();
/// assert!((fit.slope - 4.0).abs() < 1e-12);
/// ```
#[must_use]
pub fn fit_order(h: &[f64], errors: &[f64], floor: f64) -> Option<OrderFit> {
    let n = h.len().min(errors.len());
    let local_slopes: Vec<f64> = (0..n.saturating_sub(1))
        .map(|k| (errors[k] / errors[k + 1]).ln() / (h[k] / h[k + 1]).ln())
        .collect();
    let mut round_off = Vec::new();
    let mut last = n;
    // Drop from the fine end: below floor or non-finite.
    while last > 0 && !(errors[last - 1].is_finite() && errors[last - 1] > floor) {
        last -= 1;
        round_off.push(last);
    }
    // Stagnation at the fine end.
    let mut finite_slopes: Vec<f64> = local_slopes[..last.saturating_sub(1)]
        .iter()
        .copied()
        .filter(|s| s.is_finite())
        .collect();
    finite_slopes.sort_by(f64::total_cmp);
    let median = finite_slopes
        .get(finite_slopes.len() / 2)
        .copied()
        .unwrap_or(0.0);
    while last >= 3 && (local_slopes[last - 2].is_nan() || local_slopes[last - 2] < 0.3 * median) {
        last -= 1;
        round_off.push(last);
    }
    round_off.sort_unstable();
    // Pre-asymptotic at the coarse end.
    let mut first = 0;
    let mut pre_asymptotic = Vec::new();
    while last >= first + 4 {
        let s0 = local_slopes[first];
        let s1 = local_slopes[first + 1];
        if (s0 - s1).abs() > 0.1 {
            pre_asymptotic.push(first);
            first += 1;
        } else {
            break;
        }
    }
    if last < first + 2 {
        return None;
    }
    let used: Vec<usize> = (first..last).collect();
    let xs: Vec<f64> = used.iter().map(|&k| h[k].ln()).collect();
    let ys: Vec<f64> = used.iter().map(|&k| errors[k].ln()).collect();
    let m = xs.len() as f64;
    let mx = xs.iter().sum::<f64>() / m;
    let my = ys.iter().sum::<f64>() / m;
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    Some(OrderFit {
        slope: sxy / sxx,
        used,
        pre_asymptotic,
        round_off,
        local_slopes,
    })
}

/// A point of a convergence measurement that was skipped, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct SkippedPoint {
    /// The step count ([`measure_order`]) or the tolerance ([`measure_tolerance_order`]) of
    /// the point, as given.
    pub setting: f64,
    /// Why: the integration error, or [`SchemeError::NonFinite`] (`what` = `"error against
    /// the reference"`) when the distance to the reference is not finite.
    pub reason: SchemeError,
}

/// One row of a convergence table.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvergenceRow {
    /// The method's name.
    pub method: String,
    /// The order the method claims.
    pub expected_order: u32,
    /// Step counts of the points measured (skipped ones excluded).
    pub steps: Vec<usize>,
    /// Step sizes.
    pub h: Vec<f64>,
    /// Errors at the final time.
    pub errors: Vec<f64>,
    /// The fit (None when too few usable points); its indices refer to `steps`.
    pub fit: Option<OrderFit>,
    /// The step counts whose integration failed (or gave a non-finite error), in the order
    /// given; they are not in `steps`.
    pub skipped: Vec<SkippedPoint>,
}

impl ConvergenceRow {
    /// The fitted slope, or NaN.
    #[must_use]
    pub fn observed_order(&self) -> f64 {
        self.fit.as_ref().map_or(f64::NAN, |f| f.slope)
    }
}

/// Run `stepper` with each step count in `steps` over `[t0, t_end]` from `y0`, measure
/// `distance(y(t_end), reference)` and fit the order (see [`fit_order`], with `floor` as the
/// round-off floor).
///
/// A step count whose integration fails (e.g. a coarse step leaves the domain of the field,
/// or an implicit solve does not converge) or whose error is not finite is skipped and
/// recorded in [`ConvergenceRow::skipped`] with the reason; the fit uses the other points.
///
/// # Errors
/// When fewer than two step counts give a finite error: the reason of the first skipped point
/// (or [`SchemeError::InvalidOption`] `steps` if fewer than two were given).
#[allow(clippy::too_many_arguments)]
pub fn measure_order<A, F, S, D>(
    problem: &Problem<A, F>,
    stepper: &mut S,
    t0: f64,
    y0: &A::Point,
    t_end: f64,
    reference: &A::Point,
    steps: &[usize],
    distance: D,
    floor: f64,
) -> Result<ConvergenceRow, SchemeError>
where
    A: Action,
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    S: Stepper<A>,
    D: Fn(&A::Point, &A::Point) -> f64,
{
    let mut used = Vec::with_capacity(steps.len());
    let mut h = Vec::with_capacity(steps.len());
    let mut errors = Vec::with_capacity(steps.len());
    let mut skipped = Vec::new();
    for &n in steps {
        let opts = Options::count(n).save_final();
        match run_point(problem, stepper, t0, y0, t_end, reference, &opts, &distance) {
            Ok((err, _)) => {
                used.push(n);
                h.push((t_end - t0) / n as f64);
                errors.push(err);
            }
            Err(reason) => skipped.push(SkippedPoint {
                setting: n as f64,
                reason,
            }),
        }
    }
    enough_points(used.len(), &skipped)?;
    let fit = fit_order(&h, &errors, floor);
    Ok(ConvergenceRow {
        method: stepper.name(),
        expected_order: stepper.order(),
        steps: used,
        h,
        errors,
        fit,
        skipped,
    })
}

/// One integration: the error against the reference and the number of accepted steps.
#[allow(clippy::too_many_arguments)]
fn run_point<A, F, S, D>(
    problem: &Problem<A, F>,
    stepper: &mut S,
    t0: f64,
    y0: &A::Point,
    t_end: f64,
    reference: &A::Point,
    opts: &Options,
    distance: &D,
) -> Result<(f64, usize), SchemeError>
where
    A: Action,
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    S: Stepper<A>,
    D: Fn(&A::Point, &A::Point) -> f64,
{
    let sol = integrate(problem, stepper, t0, y0.clone(), t_end, opts).map_err(|e| e.error)?;
    let (_, y) = sol.last();
    let err = distance(y, reference);
    if err.is_finite() {
        Ok((err, sol.stats.accepted))
    } else {
        Err(SchemeError::NonFinite {
            what: "error against the reference",
            t: t_end,
        })
    }
}

/// `Ok` with at least two measured points; else the first skip reason.
fn enough_points(measured: usize, skipped: &[SkippedPoint]) -> Result<(), SchemeError> {
    if measured >= 2 {
        return Ok(());
    }
    Err(skipped.first().map_or_else(
        || SchemeError::InvalidOption {
            name: "steps",
            reason: format!("an order needs at least two points, {measured} given"),
        },
        |s| s.reason.clone(),
    ))
}

/// The convergence of an adaptive method against its tolerance ([`measure_tolerance_order`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ToleranceRow {
    /// The method's name.
    pub method: String,
    /// The order the method claims.
    pub expected_order: u32,
    /// The order of its embedded error estimate.
    pub embedded_order: Option<u32>,
    /// Tolerances of the points measured (`rtol = atol = tol`; skipped ones excluded).
    pub tolerances: Vec<f64>,
    /// Accepted steps at each tolerance.
    pub steps: Vec<usize>,
    /// Errors at the final time.
    pub errors: Vec<f64>,
    /// `log(error)` against `log(tol)` (see [`fit_order`] with the tolerances in place of
    /// `h`): the slope is the tolerance proportionality, `error ∝ tol^slope`.
    pub tolerance_fit: Option<OrderFit>,
    /// `log(error)` against `log(h̄)`, `h̄ = (t_end − t0)/steps` the mean step: the slope is
    /// the effective order, `error ∝ steps^(−slope)`, to be compared with `expected_order`.
    pub steps_fit: Option<OrderFit>,
    /// The tolerances whose integration failed (or gave a non-finite error).
    pub skipped: Vec<SkippedPoint>,
}

/// Run an adaptive `stepper` (one with an embedded error estimate) with `rtol = atol = tol`
/// for each `tol` in `tolerances` (decreasing) over `[t0, t_end]` from `y0`, measure
/// `distance(y(t_end), reference)`, and fit `log(error)` against `log(tol)` and against the
/// log of the mean step `(t_end − t0)/accepted steps` (see [`ToleranceRow`]; `floor` is the
/// round-off floor of [`fit_order`]).
///
/// For an error-per-step controller the local error is kept near `tol`, so for a method of
/// order `p` the steps shrink like `tol^(1/(q+1))` (`q` the order of the estimate) and the
/// global error of the propagated solution behaves like `h̄^p`: the steps fit gives `p`, the
/// tolerance fit `p/(q+1)` (≈ 1 for a pair `p(p−1)` with local extrapolation).
///
/// Tolerances whose integration fails are skipped and recorded, as in [`measure_order`].
///
/// # Errors
/// [`SchemeError::Unsupported`] if the stepper has no embedded estimate; when fewer than two
/// tolerances give a finite error, as [`measure_order`].
///
/// # Example
/// ```
/// use homogeneous::LeftMultiplication;
/// use liegroup::Rn;
/// use nalgebra::Vector1;
/// use schemes::{Problem, measure_tolerance_order, methods::find};
/// type R1 = LeftMultiplication<Rn<f64, 1>>;
/// // ẏ = −y, y(1) = e⁻¹.
/// let p = Problem::new(R1::new(), |_t: f64, y: &Rn<f64, 1>| -y.0);
/// let mut s = find("rkmk54").unwrap().stepper::<R1>();
/// let y0 = Rn::new(Vector1::new(1.0));
/// let exact = Rn::new(Vector1::new((-1.0f64).exp()));
/// let tols = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9];
/// let d = |a: &Rn<f64, 1>, b: &Rn<f64, 1>| (a.0 - b.0).abs()[0];
/// let row = measure_tolerance_order(&p, &mut s, 0.0, &y0, 1.0, &exact, &tols, d, 1e-14).unwrap();
/// assert!(row.skipped.is_empty());
/// assert!(row.errors.windows(2).all(|w| w[1] < w[0]));
/// ```
#[allow(clippy::too_many_arguments)]
pub fn measure_tolerance_order<A, F, S, D>(
    problem: &Problem<A, F>,
    stepper: &mut S,
    t0: f64,
    y0: &A::Point,
    t_end: f64,
    reference: &A::Point,
    tolerances: &[f64],
    distance: D,
    floor: f64,
) -> Result<ToleranceRow, SchemeError>
where
    A: Action,
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    S: Stepper<A>,
    D: Fn(&A::Point, &A::Point) -> f64,
{
    if stepper.embedded_order().is_none() {
        return Err(SchemeError::no_error_estimate(stepper.name()));
    }
    let mut tols = Vec::with_capacity(tolerances.len());
    let mut steps = Vec::with_capacity(tolerances.len());
    let mut errors = Vec::with_capacity(tolerances.len());
    let mut skipped = Vec::new();
    for &tol in tolerances {
        let opts = Options::adaptive(tol, tol).save_final();
        match run_point(problem, stepper, t0, y0, t_end, reference, &opts, &distance) {
            Ok((err, n)) => {
                tols.push(tol);
                steps.push(n);
                errors.push(err);
            }
            Err(reason) => skipped.push(SkippedPoint {
                setting: tol,
                reason,
            }),
        }
    }
    enough_points(tols.len(), &skipped)?;
    let mean_h: Vec<f64> = steps
        .iter()
        .map(|&n| (t_end - t0) / n.max(1) as f64)
        .collect();
    Ok(ToleranceRow {
        method: stepper.name(),
        expected_order: stepper.order(),
        embedded_order: stepper.embedded_order(),
        tolerance_fit: fit_order(&tols, &errors, floor),
        steps_fit: fit_order(&mean_h, &errors, floor),
        tolerances: tols,
        steps,
        errors,
        skipped,
    })
}

/// Format rows as a plain-text table (method, expected order, observed order, errors, and
/// the skipped step counts, if any, as `skipped n = …`).
#[must_use]
pub fn format_table(rows: &[ConvergenceRow]) -> String {
    use core::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<22} {:>8} {:>9}   errors (coarse → fine)",
        "method", "expected", "observed"
    );
    for r in rows {
        let errs: Vec<String> = r.errors.iter().map(|e| format!("{e:.2e}")).collect();
        let skipped = if r.skipped.is_empty() {
            String::new()
        } else {
            let n: Vec<String> = r.skipped.iter().map(|p| format!("{}", p.setting)).collect();
            format!("   skipped n = {}", n.join(", "))
        };
        let _ = writeln!(
            s,
            "{:<22} {:>8} {:>9.3}   {}{skipped}",
            r.method,
            r.expected_order,
            r.observed_order(),
            errs.join(" ")
        );
    }
    s
}

/// Step counts for an order study of a method of order `order` from a base grid (increasing
/// counts, usually doublings): for `order ≥ 6` the geometric midpoints `round(√(nₖnₖ₊₁))` are
/// inserted, so that the asymptotic window between the pre-asymptotic regime and the round-off
/// floor, which a high-order method crosses in few doublings (a factor 2⁸ = 256 per doubling at
/// order 8), still holds enough points for a fit. Duplicates are removed.
///
/// # Example
/// ```
/// assert_eq!(schemes::dense_grid(&[8, 16, 32], 4), [8, 16, 32]);
/// assert_eq!(schemes::dense_grid(&[8, 16, 32], 8), [8, 11, 16, 23, 32]);
/// ```
#[must_use]
pub fn dense_grid(base: &[usize], order: u32) -> Vec<usize> {
    let mut out = Vec::with_capacity(2 * base.len());
    for (k, &n) in base.iter().enumerate() {
        out.push(n);
        if order >= 6
            && let Some(&m) = base.get(k + 1)
        {
            out.push(((n as f64) * (m as f64)).sqrt().round() as usize);
        }
    }
    out.dedup();
    out
}

/// The outcome of [`search_grid`]: the row measured on the chosen grid, the grids tried, and
/// why the search stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct GridSearch {
    /// The row with the most points in the asymptotic range (the finer grid on ties).
    pub row: ConvergenceRow,
    /// Every grid measured, in order (the first is [`dense_grid`] of the base grid).
    pub grids: Vec<Vec<usize>>,
}

/// Searches for a step grid on which the order of a method can be fitted: measures on
/// [`dense_grid`]`(base, order)` and, while fewer than four points lie in the asymptotic range
/// (see [`fit_order`]), shifts the whole grid by a factor 2: **coarser** when more points were
/// dropped as round-off than as pre-asymptotic (the errors reach the floor: a high-order method
/// on a grid made for low orders), **finer** otherwise (never above `max_steps`, never below one
/// step). It stops after five shifts, when the direction would reverse, or when a measurement
/// fails; it returns the best row seen (most points used, then the later one).
///
/// `measure` runs the study on a grid (e.g. [`measure_order`] in a closure); `floor` is the
/// round-off floor, used to classify a grid whose fit failed altogether (fewer than two usable
/// points): finest error below `100·floor` means round-off.
///
/// # Errors
/// The error of the first measurement, if it fails.
///
/// # Example
/// An eighth-order error model `e(h) = h⁸` with a round-off floor of 1e-13: on the base grid
/// 32 … 512 over a unit span only the first point lies above the floor, the search moves
/// coarser until four points do.
/// ```
/// use schemes::{ConvergenceRow, fit_order, search_grid};
/// let measure = |g: &[usize]| -> Result<ConvergenceRow, ()> {
///     let h: Vec<f64> = g.iter().map(|&n| 1.0 / n as f64).collect();
///     let errors: Vec<f64> = h.iter().map(|h| h.powi(8).max(1e-15)).collect();
///     Ok(ConvergenceRow {
///         method: "model".into(), expected_order: 8, steps: g.to_vec(),
///         fit: fit_order(&h, &errors, 1e-13), h, errors, skipped: vec![],
///     })
/// };
/// let s = search_grid(&[32, 64, 128, 256, 512], 8, 1_000_000, 1e-13, measure).unwrap();
/// let fit = s.row.fit.unwrap();
/// assert!(fit.used.len() >= 4 && (fit.slope - 8.0).abs() < 1e-6);
/// assert!(s.grids.len() > 1 && s.grids.last().unwrap()[0] < 32);
/// ```
pub fn search_grid<E>(
    base: &[usize],
    order: u32,
    max_steps: usize,
    floor: f64,
    mut measure: impl FnMut(&[usize]) -> Result<ConvergenceRow, E>,
) -> Result<GridSearch, E> {
    let used = |r: &ConvergenceRow| r.fit.as_ref().map_or(0, |f| f.used.len());
    let mut grid = dense_grid(base, order);
    let mut grids = vec![grid.clone()];
    let mut best = measure(&grid)?;
    let mut last = best.clone();
    let mut direction = 0_i32;
    for _ in 0..5 {
        if used(&last) >= 4 {
            break;
        }
        let coarser = match &last.fit {
            Some(f) => f.round_off.len() > f.pre_asymptotic.len(),
            None => last.errors.last().is_some_and(|&e| e < 100.0 * floor),
        };
        let step = if coarser { -1 } else { 1 };
        if direction != 0 && step != direction {
            break;
        }
        direction = step;
        let next: Vec<usize> = if coarser {
            if grid.first().is_none_or(|&n| n < 2) {
                break;
            }
            grid.iter().map(|&n| n / 2).collect()
        } else {
            if grid.last().is_none_or(|&n| n.saturating_mul(2) > max_steps) {
                break;
            }
            grid.iter().map(|&n| n * 2).collect()
        };
        let mut next = next;
        next.dedup();
        let Ok(row) = measure(&next) else { break };
        grid = next;
        grids.push(grid.clone());
        if used(&row) >= used(&best) {
            best = row.clone();
        }
        last = row;
    }
    Ok(GridSearch { row: best, grids })
}
