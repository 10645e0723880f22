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

/// One row of a convergence table.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvergenceRow {
    /// The method's name.
    pub method: String,
    /// The order the method claims.
    pub expected_order: u32,
    /// Step counts used.
    pub steps: Vec<usize>,
    /// Step sizes.
    pub h: Vec<f64>,
    /// Errors at the final time.
    pub errors: Vec<f64>,
    /// The fit (None when too few usable points).
    pub fit: Option<OrderFit>,
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
/// # Errors
/// The first integration error.
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
    let mut h = Vec::with_capacity(steps.len());
    let mut errors = Vec::with_capacity(steps.len());
    for &n in steps {
        let opts = Options::count(n).save_final();
        let sol = integrate(problem, stepper, t0, y0.clone(), t_end, &opts).map_err(|e| e.error)?;
        let (_, y) = sol.last();
        h.push((t_end - t0) / n as f64);
        errors.push(distance(y, reference));
    }
    let fit = fit_order(&h, &errors, floor);
    Ok(ConvergenceRow {
        method: stepper.name(),
        expected_order: stepper.order(),
        steps: steps.to_vec(),
        h,
        errors,
        fit,
    })
}

/// Format rows as a plain-text table (method, expected order, observed order, errors).
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
        let _ = writeln!(
            s,
            "{:<22} {:>8} {:>9.3}   {}",
            r.method,
            r.expected_order,
            r.observed_order(),
            errs.join(" ")
        );
    }
    s
}
