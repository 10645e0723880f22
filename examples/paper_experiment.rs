//! One experiment of a paper, written against the public API: **\[LLM09, Ex. 1\], the double
//! spherical pendulum** — the total-energy error over time of the Lee–Leok–McClamroch
//! variational integrator against RKMK4 at the same step.
//!
//! The model is `models::DoubleSphericalPendulum::lee_leok_mcclamroch()` (m₁ = m₂ = 1 kg,
//! l₁ = l₂ = 9.81 m, g = 9.81 m/s²) from its `initial_state()`, on (TS²)², with the paper's step
//! `h = 0.01` and horizon `T = 100 s`. Two integrators:
//!
//! - the variational integrator of \[LLM09, §3\] (`SphereSystem::variational_integrator`, in
//!   `schemes::variational`): its explicit form (3.17)–(3.18) needs a diagonal inertia matrix,
//!   which the double pendulum does not have (`M₁₂ = m₂ l₁ l₂`), so the implicit form
//!   (3.10)–(3.16) runs, with Newton's method to round-off;
//! - RKMK4 (`schemes::methods::find("rkmk4")`) on (TS²)² under SE(3)² (the Lie group field
//!   `models::LieField`).
//!
//! It prints `max |E − E₀|` over the run and over each half (a drift shows as a growing
//! maximum) and writes a plot of `|E(t) − E₀|` (log scale) to the path given as the first
//! argument, by default `target/paper_experiment.svg`. An existing file outside the `target/`
//! directory is never overwritten (the program refuses with exit code 2).
//!
//! ```text
//! cargo run --release --example paper_experiment [-- path.svg]
//! ```
//!
//! What the paper reports, and what to expect: \[LLM09, §4, Ex. 1\] shows for this example that
//! the variational integrator keeps the total energy bounded — it oscillates with no drift over
//! T = 100 s — and keeps `|qᵢ| = 1` to round-off, while the classical explicit method used for
//! comparison (MATLAB's adaptive RK45) drifts. This program reproduces the bounded, drift-free
//! error of the variational integrator (equal maxima over the two halves, to a few percent).
//! At this step the fourth-order RKMK4 has the smaller energy error over T = 100 s, but its error
//! grows over the run (a larger maximum in the second half): a non-symplectic method drifts, a
//! variational one does not. The repository's test `crates/models/tests/llm09_behaviour.rs`
//! checks the same behaviour on all six examples of \[LLM09, §4\]. (The paper's figures were not
//! available to check the absolute level digit by digit; the numbers printed here are this
//! library's.)
//!
//! \[LLM09\] T. Lee, M. Leok, N. H. McClamroch, Lagrangian mechanics and variational integrators
//! on two-spheres, Int. J. Numer. Meth. Eng. 79 (2009) 1147–1174 (`docs/references.md`).

use homogeneous::{TangentSphere2, TangentSphereAction, VecPowerAction};
use models::{DoubleSphericalPendulum, LieField, SphereModel, SphereState, unit_length_error};
use plotters::prelude::*;
use schemes::{Options, Problem, Stepper, integrate_with_observer};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The action of SE(3)² on (TS²)².
type TsAction = VecPowerAction<TangentSphereAction>;

/// The paper's step and horizon.
const H: f64 = 0.01;
const T_END: f64 = 100.0;
/// Keep every `STRIDE`-th step for the plot (1000 points per curve).
const STRIDE: usize = 10;

/// One run: sampled times and energy errors, the maxima over each half, the largest unit-length
/// error.
struct Run {
    label: String,
    t: Vec<f64>,
    de: Vec<f64>,
    max_first_half: f64,
    max_second_half: f64,
    max_unit: f64,
}

fn run<S: Stepper<TsAction>>(label: &str, stepper: &mut S) -> Result<Run, String> {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.system();
    let x0 = DoubleSphericalPendulum::initial_state();
    let e0 = sys.energy(&x0.q, &x0.omega);
    let problem = Problem::new(
        VecPowerAction::new(TangentSphereAction::new()),
        LieField::new(sys),
    );
    let steps = (T_END / H).round() as usize;
    let mut out = Run {
        label: label.to_string(),
        t: vec![0.0],
        de: vec![0.0],
        max_first_half: 0.0,
        max_second_half: 0.0,
        max_unit: unit_length_error(&x0.q),
    };
    let mut k = 0usize;
    integrate_with_observer(
        &problem,
        stepper,
        0.0,
        x0.to_tangent_points(),
        T_END,
        &Options::count(steps).save_final(),
        |t, y: &Vec<TangentSphere2>| {
            if t == 0.0 {
                return;
            }
            k += 1;
            let s = SphereState::from_tangent_points(y);
            let de = (sys.energy(&s.q, &s.omega) - e0).abs();
            if t <= 0.5 * T_END {
                out.max_first_half = out.max_first_half.max(de);
            } else {
                out.max_second_half = out.max_second_half.max(de);
            }
            out.max_unit = out.max_unit.max(unit_length_error(&s.q));
            if k.is_multiple_of(STRIDE) {
                out.t.push(t);
                out.de.push(de);
            }
        },
    )
    .map_err(|e| format!("{label}: {e}"))?;
    Ok(out)
}

/// `true` when `path` lies inside a `target` directory of the workspace (the one next to this
/// package's manifest, or `./target`).
fn inside_target(path: &Path) -> bool {
    let Some(parent) = path.parent().map(|p| {
        if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        }
    }) else {
        return false;
    };
    let Ok(parent) = parent.canonicalize() else {
        return false;
    };
    let candidates = [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from("target"),
    ];
    candidates
        .iter()
        .filter_map(|c| c.canonicalize().ok())
        .any(|c| parent.starts_with(c))
}

fn plot(path: &Path, runs: &[Run]) -> Result<(), String> {
    let floor = 1e-16;
    let (lo, hi) = runs
        .iter()
        .flat_map(|r| r.de.iter().copied())
        .filter(|&v| v > floor)
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let (lo, hi) = if lo.is_finite() {
        (lo / 2.0, hi * 2.0)
    } else {
        (floor, 1.0)
    };
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "[LLM09, Ex. 1] double spherical pendulum, h = 0.01: |E(t) − E₀| (J)",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..T_END, (lo..hi).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("t (s)")
        .y_desc("|E − E₀| (J)")
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(|e| err(&e))?;
    let colors = [RGBColor(31, 119, 180), RGBColor(214, 39, 40)];
    for (r, color) in runs.iter().zip(colors) {
        let pts =
            r.t.iter()
                .zip(&r.de)
                .filter(|(_, v)| **v > floor)
                .map(|(t, v)| (*t, *v));
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(1)))
            .map_err(|e| err(&e))?
            .label(r.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() > 1 {
        eprintln!(
            "usage: paper_experiment [output.svg] (one optional argument, got {})",
            args.len()
        );
        return ExitCode::from(2);
    }
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/paper_experiment.svg");
    let path = args.first().map_or(default, PathBuf::from);
    if path.exists() && !inside_target(&path) {
        eprintln!(
            "refusing to overwrite {} (an existing file outside target/)",
            path.display()
        );
        return ExitCode::from(2);
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }

    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.system();
    let x0 = DoubleSphericalPendulum::initial_state();
    println!(
        "[LLM09, Ex. 1] double spherical pendulum: E₀ = {:.4} J, h = {H}, T = {T_END} s ({} steps)",
        sys.energy(&x0.q, &x0.omega),
        (T_END / H).round()
    );
    let runs = (|| -> Result<Vec<Run>, String> {
        let mut vi = sys
            .variational_integrator::<f64>()
            .map_err(|e| e.to_string())?;
        let form = format!("{:?}", vi.form()).to_lowercase();
        let vi_run = run(&format!("variational [LLM09] ({form})"), &mut vi)?;
        let mut rkmk4 = schemes::methods::find("rkmk4")
            .map_err(|e| e.to_string())?
            .stepper::<TsAction>();
        let rk_run = run("RKMK4 on (TS²)²", &mut rkmk4)?;
        Ok(vec![vi_run, rk_run])
    })();
    let runs = match runs {
        Ok(r) => r,
        Err(e) => {
            eprintln!("integration failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{:<32} {:>14} {:>16} {:>16} {:>8} {:>14}",
        "method", "max |E − E₀|", "max, 1st half", "max, 2nd half", "2nd/1st", "max ||q|−1|"
    );
    for r in &runs {
        println!(
            "{:<32} {:>14.3e} {:>16.3e} {:>16.3e} {:>8.2} {:>14.1e}",
            r.label,
            r.max_first_half.max(r.max_second_half),
            r.max_first_half,
            r.max_second_half,
            r.max_second_half / r.max_first_half,
            r.max_unit
        );
    }
    if let Err(e) = plot(&path, &runs) {
        eprintln!("plot failed: {e}");
        return ExitCode::FAILURE;
    }
    println!("plot: {}", path.display());
    ExitCode::SUCCESS
}
