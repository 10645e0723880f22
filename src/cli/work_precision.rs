//! Work–precision: the error at the final time against wall time for the adaptive Lie group
//! pairs (RKMK(5,4), RKMK Bogacki–Shampine 3(2), CF 3(2), CF 4(3)) and the classical
//! Dormand–Prince codes of the `ode_solvers` crate (Dopri5, Dop853) on the ambient formulation
//! of the same models:
//!
//! - the double spherical pendulum on (TS²)² ([LLM09, Ex. 1]; `LieField` against
//!   `AmbientField::eval_flat`, one shared solve), `T = 10`;
//! - the heavy top on SO(3) × ℝ³ (\[BC10\] data; `models::HeavyTop` in body momentum, its Lie
//!   field with spatial velocities, its body-frame field (`HeavyTop::body_frame`) and its
//!   `ambient_rate`, wrapped in `benches/support/rigid.rs`, shared with the criterion
//!   benches), `T = 1` (about 24 turns).
//!
//! The reference is Dop853 at `rtol = atol = 10⁻¹⁴` on the ambient formulation; errors are the
//! largest ambient-coordinate difference (for the heavy top: `R` entries and `Π/|Π|`).
//! `ode_solvers` is an optional dependency of the facade, enabled by the `cli` feature.

use super::CliError;
use super::output::{Plot, Scale, Series, write_csv};
use super::report::{Section, Table};
use homogeneous::{PowerAction, TangentSphere2, TangentSphereAction};
use models::{AmbientField, DoubleSphericalPendulum, LieField, Potential, SphereModel};
use nalgebra::Vector3;
use ode_solvers::{Dop853, Dopri5, OutputType, SVector, System};
use schemes::methods::{AnyStepper, find};
use schemes::{GroupLogDistance, Options, Problem};
use std::path::Path;
use std::time::Instant;

#[path = "../../benches/support/rigid.rs"]
mod rigid;
use models::HeavyTop;
use rigid::{RigidAct, RigidState};

/// The adaptive Lie group pairs compared.
const LIE_PAIRS: [&str; 4] = ["rkmk54", "rkmk-bs32", "cf32", "cf43"];

struct RigidOde(HeavyTop);
impl System<f64, SVector<f64, 12>> for RigidOde {
    fn system(&self, _t: f64, y: &SVector<f64, 12>, dy: &mut SVector<f64, 12>) {
        rigid::ambient(&self.0, y.as_slice(), dy.as_mut_slice());
    }
}

struct SphereOde<'a, P>(&'a AmbientField<'a, P>);
impl<P: Potential> System<f64, SVector<f64, 12>> for SphereOde<'_, P> {
    fn system(&self, _t: f64, y: &SVector<f64, 12>, dy: &mut SVector<f64, 12>) {
        self.0.eval_flat(y.as_slice(), dy.as_mut_slice());
    }
}

/// Run a classical Dormand–Prince code; the final state and the number of steps.
fn dormand_prince<S: System<f64, SVector<f64, 12>>>(
    sys: S,
    y0: [f64; 12],
    t_end: f64,
    tol: f64,
    high: bool,
) -> Result<([f64; 12], usize), CliError> {
    let y0 = SVector::<f64, 12>::from_column_slice(&y0);
    let fail = |e: &dyn std::fmt::Display| CliError::Integration(format!("ode_solvers: {e}"));
    let (y, stats) = if high {
        let mut s = Dop853::new(sys, 0.0, t_end, t_end, y0, tol, tol);
        s.set_output(OutputType::Sparse);
        let st = s.integrate().map_err(|e| fail(&e))?;
        (*s.y_out().last().expect("initial point"), st)
    } else {
        let mut s = Dopri5::new(sys, 0.0, t_end, t_end, y0, tol, tol);
        s.set_output(OutputType::Sparse);
        let st = s.integrate().map_err(|e| fail(&e))?;
        (*s.y_out().last().expect("initial point"), st)
    };
    let mut out = [0.0; 12];
    out.copy_from_slice(y.as_slice());
    Ok((out, (stats.accepted_steps + stats.rejected_steps) as usize))
}

/// One point of a work–precision curve.
struct Point {
    method: String,
    tol: f64,
    steps: usize,
    seconds: f64,
    error: f64,
}

/// Best wall time of `repeats` runs.
fn timed<R>(
    repeats: usize,
    mut run: impl FnMut() -> Result<R, CliError>,
) -> Result<(R, f64), CliError> {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..repeats.max(1) {
        let t0 = Instant::now();
        let r = run()?;
        best = best.min(t0.elapsed().as_secs_f64());
        last = Some(r);
    }
    Ok((last.expect("at least one run"), best))
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn pendulum_ambient(p: &[TangentSphere2<f64>]) -> [f64; 12] {
    let mut y = [0.0; 12];
    for (i, pi) in p.iter().enumerate() {
        y[6 * i..6 * i + 3].copy_from_slice(pi.q().as_slice());
        y[6 * i + 3..6 * i + 6].copy_from_slice(pi.omega().as_slice());
    }
    y
}

fn pendulum_points(tols: &[f64], repeats: usize) -> Result<Vec<Point>, CliError> {
    type Act = PowerAction<TangentSphereAction, 2>;
    let model = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = model.system();
    let x0 = DoubleSphericalPendulum::initial_state().to_tangent_points();
    let y0: [TangentSphere2<f64>; 2] = [x0[0], x0[1]];
    let ya0 = pendulum_ambient(&y0);
    let t_end = 10.0;
    let amb = AmbientField::new(sys);
    let (reference, _) = dormand_prince(SphereOde(&amb), ya0, t_end, 1e-14, true)?;
    let lie = LieField::new(sys);
    let problem = Problem::new(Act::new(TangentSphereAction::new()), lie);
    let mut points = Vec::new();
    for &tol in tols {
        for id in LIE_PAIRS {
            let spec = find(id)?;
            let ((y, steps), seconds) = timed(repeats, || {
                let mut stepper = spec.stepper::<Act>();
                let sol = schemes::integrate(
                    &problem,
                    &mut stepper,
                    0.0,
                    y0,
                    t_end,
                    &Options::adaptive(tol, tol).save_final(),
                )
                .map_err(|e| CliError::Integration(format!("{id}: {e}")))?;
                Ok((*sol.last().1, sol.stats.accepted + sol.stats.rejected))
            })?;
            points.push(Point {
                method: id.into(),
                tol,
                steps,
                seconds,
                error: max_diff(&pendulum_ambient(&y), &reference),
            });
        }
        for (name, high) in [("ode_solvers-dopri5", false), ("ode_solvers-dop853", true)] {
            let ((y, steps), seconds) = timed(repeats, || {
                dormand_prince(SphereOde(&amb), ya0, t_end, tol, high)
            })?;
            points.push(Point {
                method: name.into(),
                tol,
                steps,
                seconds,
                error: max_diff(&y, &reference),
            });
        }
    }
    Ok(points)
}

/// The heavy-top error: `R` entries and `Π` relative to `|Π|`.
fn rigid_error(y: &[f64; 12], reference: &[f64; 12]) -> f64 {
    let scale = Vector3::new(reference[9], reference[10], reference[11]).norm();
    max_diff(&y[..9], &reference[..9]).max(max_diff(&y[9..], &reference[9..]) / scale)
}

/// One adaptive Lie pair on the heavy top (either formulation): the final state in ambient
/// coordinates, the attempted steps and the time.
fn heavy_top_pair<A, F>(
    problem: &Problem<A, F>,
    id: &str,
    tol: f64,
    repeats: usize,
) -> Result<(([f64; 12], usize), f64), CliError>
where
    A: homogeneous::ActionInPlace<
            Group = (liegroup::So3<f64>, liegroup::R3<f64>),
            Point = RigidState,
        >,
    F: homogeneous::LieVectorField<f64, RigidState, (Vector3<f64>, Vector3<f64>)>,
{
    let spec = find(id)?;
    let y0 = rigid::initial_state().to_attitude();
    timed(repeats, || {
        // SO(3) × ℝ³ acting on itself: pairs measure their error by the group log.
        let mut stepper: AnyStepper<A, GroupLogDistance> = match spec.stepper::<A>() {
            AnyStepper::Rkmk(s) => AnyStepper::Rkmk(s),
            AnyStepper::Implicit(s) => AnyStepper::Implicit(s),
            AnyStepper::CommutatorFree(s) => {
                AnyStepper::CommutatorFree(s.with_distance(GroupLogDistance))
            }
            AnyStepper::TwoCommutators(s) => AnyStepper::TwoCommutators(s),
        };
        let sol = schemes::integrate(
            problem,
            &mut stepper,
            0.0,
            y0,
            1.0,
            &Options::adaptive(tol, tol).save_final(),
        )
        .map_err(|e| CliError::Integration(format!("{id}: {e}")))?;
        Ok((
            rigid::ambient_of(sol.last().1),
            sol.stats.accepted + sol.stats.rejected,
        ))
    })
}

fn heavy_top_points(tols: &[f64], repeats: usize) -> Result<Vec<Point>, CliError> {
    let body = rigid::heavy_top();
    let ya0 = rigid::ambient_of(&rigid::initial_state().to_attitude());
    let t_end = 1.0;
    let (reference, _) = dormand_prince(RigidOde(body), ya0, t_end, 1e-14, true)?;
    // The spatial form (left multiplication) and the body frame (right multiplication; the
    // cheaper one to integrate, `docs/performance.md`).
    let (spatial, body_frame) = (Problem::new(RigidAct::new(), body), body.body_frame());
    let mut points = Vec::new();
    for &tol in tols {
        for id in LIE_PAIRS {
            for (label, run) in [
                (id.to_string(), heavy_top_pair(&spatial, id, tol, repeats)?),
                (
                    format!("{id} (body frame)"),
                    heavy_top_pair(&body_frame, id, tol, repeats)?,
                ),
            ] {
                let ((y, steps), seconds) = run;
                points.push(Point {
                    method: label,
                    tol,
                    steps,
                    seconds,
                    error: rigid_error(&y, &reference),
                });
            }
        }
        for (name, high) in [("ode_solvers-dopri5", false), ("ode_solvers-dop853", true)] {
            let ((y, steps), seconds) = timed(repeats, || {
                dormand_prince(RigidOde(body), ya0, t_end, tol, high)
            })?;
            points.push(Point {
                method: name.into(),
                tol,
                steps,
                seconds,
                error: rigid_error(&y, &reference),
            });
        }
    }
    Ok(points)
}

fn outputs(
    dir: &Path,
    name: &str,
    title: &str,
    points: &[Point],
) -> Result<(Table, std::path::PathBuf), CliError> {
    let methods: Vec<&str> = {
        let mut m: Vec<&str> = points.iter().map(|p| p.method.as_str()).collect();
        m.dedup();
        m.sort_unstable();
        m.dedup();
        m
    };
    // CSV: one row per run; the method as its index in `methods` (CSV columns are numbers).
    let header: Vec<String> = ["method_index", "tol", "steps", "seconds", "error"]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    let rows: Vec<Vec<f64>> = points
        .iter()
        .map(|p| {
            let k = methods.iter().position(|m| *m == p.method).unwrap_or(0);
            vec![k as f64, p.tol, p.steps as f64, p.seconds, p.error]
        })
        .collect();
    write_csv(&dir.join(format!("{name}.csv")), &header, &rows)?;
    let legend: Vec<String> = methods
        .iter()
        .enumerate()
        .map(|(k, m)| format!("{k} = {m}"))
        .collect();
    std::fs::write(
        dir.join(format!("{name}-methods.txt")),
        legend.join("\n") + "\n",
    )
    .map_err(|e| CliError::io(dir, &e))?;
    let series: Vec<Series> = methods
        .iter()
        .map(|m| {
            Series::new(
                *m,
                points
                    .iter()
                    .filter(|p| p.method == *m)
                    .map(|p| (p.seconds, p.error))
                    .collect(),
            )
        })
        .collect();
    let svg = dir.join(format!("{name}.svg"));
    Plot {
        title,
        x_label: "wall time [s]",
        y_label: "error at T",
        x_scale: Scale::Log,
        y_scale: Scale::Log,
        markers: true,
    }
    .write(&svg, &series)?;
    let mut table = Table::new(&["method", "tol", "steps", "time [ms]", "error at T"]);
    for p in points {
        table.row(vec![
            p.method.clone(),
            format!("{:.0e}", p.tol),
            p.steps.to_string(),
            format!("{:.3}", 1e3 * p.seconds),
            format!("{:.2e}", p.error),
        ]);
    }
    Ok((table, svg))
}

/// The fastest method reaching `target` error on a problem, as text.
fn fastest_to(points: &[Point], target: f64) -> String {
    points
        .iter()
        .filter(|p| p.error <= target)
        .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
        .map_or_else(
            || format!("none reached {target:.0e}"),
            |p| format!("{} ({:.2} ms)", p.method, 1e3 * p.seconds),
        )
}

/// The `work-precision` experiment of `reproduce`.
pub fn work_precision(dir: &Path, quick: bool) -> Result<Section, CliError> {
    let (tols, repeats): (Vec<f64>, usize) = if quick {
        (vec![1e-4, 1e-6, 1e-8], 3)
    } else {
        ((3..=11).map(|k| 10f64.powi(-k)).collect(), 3)
    };
    let pend = pendulum_points(&tols, repeats)?;
    let top = heavy_top_points(&tols, repeats)?;
    let (t1, f1) = outputs(
        dir,
        "pendulum",
        "Double spherical pendulum, T = 10: error vs wall time",
        &pend,
    )?;
    let (t2, f2) = outputs(
        dir,
        "heavy-top",
        "Heavy top, T = 1: error vs wall time",
        &top,
    )?;
    Ok(Section {
        id: "work-precision".into(),
        title: "Work–precision: adaptive Lie group pairs against ode_solvers' Dopri5 and Dop853"
            .into(),
        text: vec![
            "Error at the final time against wall time (best of the repeats) for rkmk54, \
             rkmk-bs32, cf32, cf43 on the Lie group formulation and the Dormand–Prince codes of \
             the ode_solvers crate on the ambient formulation of the same model code, \
             rtol = atol = tol. Reference: Dop853 at tol 1e-14 (ambient). Double spherical \
             pendulum [LLM09, Ex. 1] on (TS²)², T = 10; heavy top [BC10] on SO(3) × ℝ³, T = 1."
                .into(),
            "CSV columns: method_index (see *-methods.txt), tol, steps (accepted + rejected), \
             seconds, error."
                .into(),
        ],
        tables: vec![t1, t2],
        figures: vec![f1, f2],
        summary: format!(
            "fastest to 1e-6: pendulum {}, heavy top {}",
            fastest_to(&pend, 1e-6),
            fastest_to(&top, 1e-6)
        ),
    })
}
