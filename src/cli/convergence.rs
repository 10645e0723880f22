//! The `convergence` command's step-grid search and its tolerance sweep (`--adaptive`).
//!
//! Without `--steps`, each method gets its own grid: [`schemes::search_grid`] starts from the
//! preset's step counts (with geometric midpoints for orders ≥ 6) and shifts the grid by
//! factors of 2 until at least four points lie between the pre-asymptotic regime and the
//! round-off floor. The points the fit dropped are reported (pre-asymptotic, round-off).
//!
//! With `--adaptive`, every adaptive pair among the methods (all registry pairs by default)
//! runs with `rtol = atol = tol` for each tolerance, and the error at `T` is fitted against the
//! tolerance ([`schemes::measure_tolerance_order`]): the slope is the tolerance
//! proportionality, `error ∝ tol^slope`.

use super::CliError;
use super::methods::MethodChoice;
use super::output::{Plot, Scale, Series};
use super::registry::{MAX_CONVERGENCE_STEPS, Model};
use schemes::{ConvergenceRow, OrderFit, ToleranceRow};
use std::fmt::Write as _;
use std::path::Path;

/// The default tolerances of `convergence --adaptive`: 1e-3 … 1e-10, one per decade.
pub const DEFAULT_TOLERANCES: [f64; 8] = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10];

/// The round-off floor used to classify a grid whose fit failed (see
/// [`schemes::search_grid`]); the models' own fits use 1e-13 (exact solutions) and 1e-11
/// (reference runs).
const SEARCH_FLOOR: f64 = 1e-11;

/// One method's study on its own grid: the row and every grid tried.
pub struct AutoRow {
    /// The row of the chosen grid.
    pub row: ConvergenceRow,
    /// The grids measured, in order.
    pub grids: Vec<Vec<usize>>,
}

/// Runs each method on a grid found by [`schemes::search_grid`] from `base`.
///
/// # Errors
/// The first failing study (as `Model::convergence`).
pub fn auto_rows(
    model: &dyn Model,
    preset: &str,
    methods: &[MethodChoice],
    base: &[usize],
    t_end: f64,
) -> Result<Vec<AutoRow>, CliError> {
    methods
        .iter()
        .map(|m| {
            let s = schemes::search_grid(
                base,
                m.order(),
                MAX_CONVERGENCE_STEPS,
                SEARCH_FLOOR,
                |grid| {
                    let mut rows =
                        model.convergence(preset, std::slice::from_ref(m), grid, t_end)?;
                    Ok::<_, CliError>(rows.remove(0))
                },
            )?;
            Ok(AutoRow {
                row: s.row,
                grids: s.grids,
            })
        })
        .collect()
}

/// The step counts of `row` at the given indices, comma-separated.
fn counts(row: &ConvergenceRow, idx: &[usize]) -> String {
    idx.iter()
        .filter_map(|&k| row.steps.get(k))
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line per row saying which step counts the fit used and which it dropped, and why:
/// `rkmk-vern87: n = 4 … 64; used 6, 8, 11, 16; dropped 4 (pre-asymptotic), 23, 32 (round-off)`.
pub fn dropped_points(rows: &[ConvergenceRow]) -> String {
    let mut s = String::new();
    for r in rows {
        let grid = match (r.steps.first(), r.steps.last()) {
            (Some(a), Some(b)) => format!("n = {a} … {b}"),
            _ => "no points".into(),
        };
        let Some(OrderFit {
            used,
            pre_asymptotic,
            round_off,
            ..
        }) = &r.fit
        else {
            let _ = writeln!(
                s,
                "  {}: {grid}; no fit (fewer than two usable points)",
                r.method
            );
            continue;
        };
        let mut parts = vec![format!("used {}", counts(r, used))];
        if !pre_asymptotic.is_empty() {
            parts.push(format!(
                "dropped {} (pre-asymptotic)",
                counts(r, pre_asymptotic)
            ));
        }
        if !round_off.is_empty() {
            parts.push(format!("dropped {} (round-off)", counts(r, round_off)));
        }
        let _ = writeln!(s, "  {}: {grid}; {}", r.method, parts.join("; "));
    }
    s
}

/// Every adaptive pair of the registry (methods with an embedded solution), as choices.
pub fn adaptive_pairs() -> Vec<MethodChoice> {
    schemes::methods::METHODS
        .iter()
        .filter(|m| m.embedded_order.is_some())
        .map(MethodChoice::Registry)
        .collect()
}

/// The tolerance table: method, orders, tolerance proportionality (slope of log error against
/// log tol), effective order (slope against the mean step), and the errors.
pub fn tolerance_table(rows: &[ToleranceRow]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<22} {:>6} {:>13} {:>9}   errors (tol coarse → fine)",
        "method", "order", "tol. slope", "eff. ord."
    );
    for r in rows {
        let slope = |f: &Option<OrderFit>| f.as_ref().map_or(f64::NAN, |f| f.slope);
        let order = match r.embedded_order {
            Some(q) => format!("{}({q})", r.expected_order),
            None => r.expected_order.to_string(),
        };
        let errs: Vec<String> = r.errors.iter().map(|e| format!("{e:.2e}")).collect();
        let _ = writeln!(
            s,
            "{:<22} {:>6} {:>13.3} {:>9.3}   {}",
            r.method,
            order,
            slope(&r.tolerance_fit),
            slope(&r.steps_fit),
            errs.join(" ")
        );
    }
    s
}

/// Writes `{name}.csv` (columns `method,tol,steps,error`, numbers in shortest round-trip form)
/// and a log–log plot `{name}.svg` of the error against the tolerance.
///
/// # Errors
/// I/O errors.
pub fn tolerance_outputs(
    dir: &Path,
    name: &str,
    title: &str,
    rows: &[ToleranceRow],
) -> Result<(), CliError> {
    let mut csv = String::from("method,tol,steps,error\n");
    let mut series = Vec::new();
    for r in rows {
        for ((t, n), e) in r.tolerances.iter().zip(&r.steps).zip(&r.errors) {
            let _ = writeln!(csv, "{},{t:?},{n},{e:?}", r.method);
        }
        series.push(Series::new(
            r.method.clone(),
            r.tolerances
                .iter()
                .copied()
                .zip(r.errors.iter().copied())
                .collect(),
        ));
    }
    let path = dir.join(format!("{name}.csv"));
    std::fs::write(&path, csv).map_err(|e| CliError::io(&path, &e))?;
    Plot {
        title,
        x_label: "tolerance (rtol = atol)",
        y_label: "error at T",
        x_scale: Scale::Log,
        y_scale: Scale::Log,
        markers: true,
    }
    .write(&dir.join(format!("{name}.svg")), &series)
}
