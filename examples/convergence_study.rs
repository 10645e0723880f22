//! A convergence study of the methods and the problem of your choice.
//!
//! For each method (ids of `schemes::methods::METHODS`) on one built-in problem:
//!
//! - **fixed steps**: the error at the final time for a sequence of step counts (doubling), with
//!   the order fitted by `schemes::measure_order` (the slope of log(error) against log(h) over
//!   the asymptotic range) next to the nominal order;
//! - **adaptive steps**, for the embedded pairs (`rkmk-bs32`, `rkmk54`, `cf32`, `cf43`): the
//!   error for a sequence of tolerances (`rtol = atol = tol`), with the number of accepted and
//!   rejected steps, and two fitted slopes: of log(error) against log(tol) (≈ 1 for a
//!   well-calibrated controller) and of log(error) against log(T/steps) over the asymptotic
//!   range (`schemes::fit_order`; ≈ p for a method of order p once the steps are small).
//!
//! Errors are the largest difference of ambient coordinates from a reference solution computed
//! by RKMK6 with a small step (its own error is estimated by halving that step and printed).
//!
//! Problems (`--problem`):
//!
//! - `rigid-body` (default): the free rigid body with I = (1, 2, 3), Π₀ = (cos 1.2, 0, sin 1.2),
//!   R₀ = I on SO(3) × ℝ³ (`models::FreeRigidBody::attitude`), T = 5;
//! - `heavy-top`: the fast heavy top of \[BC10\] (spin ≈ 150 rad/s) on SO(3) × ℝ³ in the body
//!   momentum form (`models::HeavyTop::canonical_body`), T = 0.1;
//! - `double-pendulum`: the double spherical pendulum of \[LLM09, Ex. 1\] on (TS²)² under SE(3)²
//!   (`models::LieField`), T = 2.
//!
//! ```text
//! cargo run --release --example convergence_study
//! cargo run --release --example convergence_study -- --methods rkmk4,cf4,cg4,rkmk54 --problem heavy-top
//! cargo run --release --example convergence_study -- --help
//! ```
//!
//! Bad input (an unknown option, method or problem) prints one line and exits with code 2.

use homogeneous::{
    ActionInPlace, LieVectorField, ManifoldPoint, TangentSphereAction, VecPowerAction,
};
use models::{DoubleSphericalPendulum, FreeRigidBody, HeavyTop, LieField, SphereModel};
use schemes::methods::{METHODS, MethodSpec};
use schemes::{
    Algebra, AmbientDistance, AnyStepper, Options, PointDistance, Problem, Scalar, Stepper,
    fit_order, integrate, measure_order,
};
use std::process::ExitCode;

const USAGE: &str = "usage: convergence_study [--methods ID,ID,...] [--problem rigid-body|heavy-top|double-pendulum]";
const PROBLEMS: [&str; 3] = ["rigid-body", "heavy-top", "double-pendulum"];
const DEFAULT_METHODS: &str = "lie-euler,rkmk4,cf4,rkmk54,cf43";

/// Parsed command line.
struct Args {
    methods: Vec<&'static MethodSpec>,
    problem: &'static str,
}

/// `Ok(None)` for `--help`; `Err(one line)` for bad input.
fn parse(args: &[String]) -> Result<Option<Args>, String> {
    let mut methods = DEFAULT_METHODS.to_string();
    let mut problem = PROBLEMS[0].to_string();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (key, inline) = match a.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (a.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{name} needs a value; {USAGE}"))
        };
        match key {
            "-h" | "--help" => return Ok(None),
            "--methods" => methods = value("--methods")?,
            "--problem" => problem = value("--problem")?,
            other => return Err(format!("unknown argument '{other}'; {USAGE}")),
        }
    }
    let problem = PROBLEMS
        .iter()
        .copied()
        .find(|p| *p == problem)
        .ok_or_else(|| {
            format!(
                "unknown problem '{problem}'; known: {}",
                PROBLEMS.join(", ")
            )
        })?;
    let mut specs = Vec::new();
    for id in methods.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let spec = schemes::methods::find(id).map_err(|e| e.to_string())?;
        if !specs.iter().any(|s: &&MethodSpec| s.id == spec.id) {
            specs.push(spec);
        }
    }
    if specs.is_empty() {
        return Err(format!("--methods lists no method; {USAGE}"));
    }
    Ok(Some(Args {
        methods: specs,
        problem,
    }))
}

/// Largest difference of ambient coordinates.
fn distance<P: ManifoldPoint<Scalar = f64>>(a: &P, b: &P) -> f64 {
    a.ambient()
        .iter()
        .zip(b.ambient())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// Least-squares slope of `ln y` against `ln x` over the points with `y > floor`.
fn log_slope(x: &[f64], y: &[f64], floor: f64) -> f64 {
    let pts: Vec<(f64, f64)> = x
        .iter()
        .zip(y)
        .filter(|(_, y)| y.is_finite() && **y > floor)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    if pts.len() < 2 {
        return f64::NAN;
    }
    let m = pts.len() as f64;
    let (mx, my) = pts
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / m, b + y / m));
    let sxy: f64 = pts.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = pts.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    sxy / sxx
}

/// The study on one problem. `scale` multiplies the step counts (fast problems need more).
fn study<A, F>(
    problem: &Problem<A, F>,
    y0: &A::Point,
    t_end: f64,
    scale: usize,
    methods: &[&'static MethodSpec],
) -> Result<(), String>
where
    A: ActionInPlace,
    A::Point: ManifoldPoint<Scalar = f64>,
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    AmbientDistance: PointDistance<A::Point>,
    AnyStepper<A>: Stepper<A>,
{
    let floor = 1e-12;
    let run_fixed = |spec: &MethodSpec, n: usize| -> Result<A::Point, String> {
        let mut s = spec.stepper::<A>();
        let sol = integrate(
            problem,
            &mut s,
            0.0,
            y0.clone(),
            t_end,
            &Options::count(n).save_final(),
        )
        .map_err(|e| format!("{}: {e}", spec.id))?;
        Ok(sol.last().1.clone())
    };
    let rkmk6 = schemes::methods::find("rkmk6").map_err(|e| e.to_string())?;
    let n_ref = 2048 * scale;
    let reference = run_fixed(rkmk6, n_ref)?;
    let half = run_fixed(rkmk6, n_ref / 2)?;
    println!(
        "reference: rkmk6 with {n_ref} steps (difference from {} steps: {:.1e})",
        n_ref / 2,
        distance(&reference, &half)
    );

    println!("\nfixed steps: error at T = {t_end} (fitted over the points above {floor:.0e})");
    println!(
        "{:<14} {:>7} {:>8}   steps: error",
        "method", "nominal", "observed"
    );
    for spec in methods {
        let base = scale
            * match spec.order {
                1 => 64,
                2 => 32,
                3 => 16,
                4 => 8,
                _ => 4,
            };
        let steps: Vec<usize> = (0..6).map(|k| base << k).collect();
        let mut stepper = spec.stepper::<A>();
        let row = measure_order(
            problem,
            &mut stepper,
            0.0,
            y0,
            t_end,
            &reference,
            &steps,
            distance::<A::Point>,
            floor,
        )
        .map_err(|e| format!("{}: {e}", spec.id))?;
        let cells: Vec<String> = row
            .steps
            .iter()
            .zip(&row.errors)
            .map(|(n, e)| format!("{n}: {e:.1e}"))
            .collect();
        println!(
            "{:<14} {:>7} {:>8.2}   {}",
            spec.id,
            spec.order,
            row.observed_order(),
            cells.join("  ")
        );
    }

    let pairs: Vec<&&MethodSpec> = methods
        .iter()
        .filter(|m| m.embedded_order.is_some())
        .collect();
    if pairs.is_empty() {
        println!("\n(no embedded pair among the methods: no adaptive study)");
        return Ok(());
    }
    println!("\nadaptive steps (rtol = atol = tol): error at T = {t_end}");
    let tols: Vec<f64> = (4..=11).map(|k| 10f64.powi(-k)).collect();
    for spec in pairs {
        println!(
            "{} (order {}, embedded {}):",
            spec.id,
            spec.order,
            spec.embedded_order.unwrap_or(0)
        );
        println!(
            "  {:>8} {:>9} {:>9} {:>10}",
            "tol", "accepted", "rejected", "error"
        );
        let (mut errors, mut accepted) = (Vec::new(), Vec::new());
        for &tol in &tols {
            let mut s = spec.stepper::<A>();
            let sol = integrate(
                problem,
                &mut s,
                0.0,
                y0.clone(),
                t_end,
                &Options::adaptive(tol, tol).save_final(),
            )
            .map_err(|e| format!("{} at tol {tol:.0e}: {e}", spec.id))?;
            let err = distance(sol.last().1, &reference);
            println!(
                "  {tol:>8.0e} {:>9} {:>9} {err:>10.2e}",
                sol.stats.accepted, sol.stats.rejected
            );
            errors.push(err);
            accepted.push(sol.stats.accepted as f64);
        }
        // The slope against the tolerance over every point above the floor; the order against
        // the mean step T/steps by `fit_order`, which drops the pre-asymptotic coarse points.
        let slope_tol = log_slope(&tols, &errors, floor);
        let mean_h: Vec<f64> = accepted.iter().map(|n| t_end / n).collect();
        let order = fit_order(&mean_h, &errors, floor).map_or(f64::NAN, |f| f.slope);
        println!(
            "  fitted: error ∝ tol^{slope_tol:.2}; error ∝ (T/steps)^{order:.2} (nominal order {})",
            spec.order
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse(&raw) {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("{USAGE}");
            println!(
                "methods: {}",
                METHODS.iter().map(|m| m.id).collect::<Vec<_>>().join(", ")
            );
            println!(
                "default: --methods {DEFAULT_METHODS} --problem {}",
                PROBLEMS[0]
            );
            return ExitCode::SUCCESS;
        }
        Err(line) => {
            eprintln!("{line}");
            return ExitCode::from(2);
        }
    };
    let ids: Vec<&str> = args.methods.iter().map(|m| m.id).collect();
    println!("problem: {}; methods: {}", args.problem, ids.join(", "));
    let result = match args.problem {
        "rigid-body" => {
            let body = FreeRigidBody::landau_lifshitz();
            let y0 = FreeRigidBody::landau_lifshitz_state().to_attitude();
            study(&body.attitude(), &y0, 5.0, 1, &args.methods)
        }
        "heavy-top" => {
            let top = HeavyTop::bruls_cardona();
            let y0 = HeavyTop::bruls_cardona_state().to_attitude();
            study(&top.canonical_body(), &y0, 0.1, 2, &args.methods)
        }
        _ => {
            let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
            let problem = Problem::new(
                VecPowerAction::new(TangentSphereAction::new()),
                LieField::new(p.system()),
            );
            let y0 = DoubleSphericalPendulum::initial_state().to_tangent_points();
            study(&problem, &y0, 2.0, 1, &args.methods)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("integration failed: {e}");
            ExitCode::FAILURE
        }
    }
}
