//! `lie-integrators`: the experiments program.
//!
//! ```text
//! cargo run --release                     # reproduce all --quick into ./out, with a summary
//! cargo run --release -- list [--json]
//! cargo run --release -- run <model> --method <m> (--h <h> | --rtol <r> --atol <a>) --t-end <T>
//!                            [--t0 <t0>] [--max-steps N] [--h-min H] [--save-every K]
//!                            [--preset <p>] [--out DIR] [--json] [--force]
//! cargo run --release -- convergence <model> --methods a,b,… [--steps 8,16,…] [--t-end T] [--json]
//! cargo run --release -- convergence <model> --adaptive [--methods a,b,…] [--tols 1e-4,…] [--json]
//! cargo run --release -- reproduce [<experiment>|all] [--quick] [--out DIR] [--force]
//! ```
//!
//! Bad input prints one line on stderr and exits with code 2. Ctrl-C stops `run` after the
//! current step: the steps computed so far are written to `--out` (the JSON says
//! `"interrupted": true`) and the exit code is 130. A closed stdout (`… | head -1`) ends the
//! program quietly.

#[macro_use]
mod cli;

use clap::{Parser, Subcommand};
use cli::methods::MethodChoice;
use cli::output::{Plot, Scale, Series, write_csv};
use cli::registry::{Outcome, Progress, RunResult, RunSpec, find_model, models};
use cli::report::{Section, Table, write_report};
use cli::{CliError, prepare_out_dir};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Parser)]
#[command(
    name = "lie-integrators",
    version,
    about = "Lie group integrators: simulations, convergence studies and paper reproductions"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// List models (with presets), methods (order, reference) and experiments.
    List {
        /// One JSON object on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Simulate a model with a method; write the trajectory and invariants (CSV, SVG).
    Run {
        /// Model identifier (see `list`).
        model: String,
        /// Method identifier (see `list`).
        #[arg(long)]
        method: String,
        /// Fixed step size.
        #[arg(long, conflicts_with_all = ["rtol", "atol"], allow_negative_numbers = true)]
        h: Option<f64>,
        /// Relative tolerance (adaptive steps; needs an embedded pair).
        #[arg(long, requires = "atol", allow_negative_numbers = true)]
        rtol: Option<f64>,
        /// Absolute tolerance (adaptive steps).
        #[arg(long, requires = "rtol", allow_negative_numbers = true)]
        atol: Option<f64>,
        /// Final time (default: the preset's).
        #[arg(long, allow_negative_numbers = true)]
        t_end: Option<f64>,
        /// Initial time (default 0).
        #[arg(long, allow_negative_numbers = true)]
        t0: Option<f64>,
        /// Step budget, accepted and rejected steps (default 10000000).
        #[arg(long)]
        max_steps: Option<usize>,
        /// Smallest step of the adaptive controller (default: 16 ulps of the current time).
        #[arg(long, allow_negative_numbers = true)]
        h_min: Option<f64>,
        /// Keep every K-th step in the output (default: thinned to at most 4000 points; with K,
        /// at most 100000 points, the stride doubling past that).
        #[arg(long, value_name = "K")]
        save_every: Option<usize>,
        /// Preset (default: the model's first).
        #[arg(long)]
        preset: Option<String>,
        /// Override a model parameter (repeatable; see `list`), e.g. `--param l1=4.9`.
        #[arg(long = "param", value_name = "NAME=VALUE", allow_hyphen_values = true)]
        params: Vec<String>,
        /// Initial state in the ambient coordinates of the output (`state_names`): a file of
        /// numbers separated by commas, spaces or newlines, or the numbers inline
        /// (`--initial-state 0,0.6,0.8`). Checked, never projected.
        #[arg(long, value_name = "FILE|CSV", allow_hyphen_values = true)]
        initial_state: Option<String>,
        /// Output folder for CSV, SVG and JSON files.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print one JSON object on stdout instead of the text summary.
        #[arg(long)]
        json: bool,
        /// Overwrite existing output files.
        #[arg(long)]
        force: bool,
    },
    /// Observed orders of convergence (table and log–log plot).
    Convergence {
        /// Model identifier.
        model: String,
        /// Comma-separated method identifiers (with --adaptive: default every adaptive pair).
        #[arg(long)]
        methods: Option<String>,
        /// Comma-separated step counts (default: a grid per method, searched from the preset's
        /// so that the fit has points in the asymptotic range).
        #[arg(long)]
        steps: Option<String>,
        /// Tolerance sweep of adaptive pairs (error against rtol = atol = tol) instead of
        /// fixed steps.
        #[arg(long)]
        adaptive: bool,
        /// Comma-separated tolerances for --adaptive (default 1e-3,1e-4,…,1e-10).
        #[arg(long)]
        tols: Option<String>,
        /// Final time (default: the preset's).
        #[arg(long, allow_negative_numbers = true)]
        t_end: Option<f64>,
        /// Preset.
        #[arg(long)]
        preset: Option<String>,
        /// Output folder for the CSV and the plot.
        #[arg(long)]
        out: Option<PathBuf>,
        /// One JSON object on stdout.
        #[arg(long)]
        json: bool,
        /// Overwrite existing output files.
        #[arg(long)]
        force: bool,
    },
    /// Run shard i of n of an ensemble spec (JSON); write DIR/shard-i-of-n.jsonl (one JSON line
    /// per member). Shards hold members i, i+n, i+2n, …; a complete shard is skipped.
    Ensemble {
        /// The ensemble spec (JSON: model, preset, method, t0, t_end, h | rtol+atol, params,
        /// members).
        spec: PathBuf,
        /// Which shard: i/n with 0 ≤ i < n.
        #[arg(long, default_value = "0/1")]
        shard: String,
        /// Output folder of the shard files.
        #[arg(long)]
        out: PathBuf,
        /// Overwrite a shard file that is not a complete shard of this spec.
        #[arg(long)]
        force: bool,
    },
    /// Join the shard files of DIR in member order into one JSON-lines file (every member
    /// exactly once, one spec).
    Merge {
        /// The folder of the shard files.
        dir: PathBuf,
        /// The merged file.
        #[arg(long)]
        out: PathBuf,
        /// Overwrite the merged file.
        #[arg(long)]
        force: bool,
    },
    /// Reproduce the experiments of the papers (CSV, SVG, out/report.html).
    Reproduce {
        /// An experiment identifier or `all`.
        #[arg(default_value = "all")]
        experiment: String,
        /// Shorter horizons and fewer points (under 2 minutes for `all`).
        #[arg(long)]
        quick: bool,
        /// Output folder.
        #[arg(long, default_value = "out")]
        out: PathBuf,
        /// Overwrite existing output files.
        #[arg(long)]
        force: bool,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {}", cli::clap_message(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    let command = cli.command.unwrap_or(Command::Reproduce {
        experiment: "all".into(),
        quick: true,
        out: PathBuf::from("out"),
        force: true,
    });
    match dispatch(command) {
        Ok(()) | Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(CliError::Interrupted(msg)) => {
            eprintln!("interrupted: {}", cli::one_line(&msg));
            ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("error: {}", cli::one_line(&e.to_string()));
            ExitCode::from(2)
        }
    }
}

fn dispatch(command: Command) -> Result<(), CliError> {
    match command {
        Command::List { json } => list(json),
        Command::Run {
            model,
            method,
            h,
            rtol,
            atol,
            t_end,
            t0,
            max_steps,
            h_min,
            save_every,
            preset,
            params,
            initial_state,
            out,
            json,
            force,
        } => run(
            &model,
            &method,
            &RunArgs {
                h,
                tol: rtol.zip(atol),
                t_end,
                t0,
                max_steps,
                h_min,
                save_every,
                params: params
                    .iter()
                    .map(|p| parse_param(p))
                    .collect::<Result<_, _>>()?,
                initial_state: initial_state
                    .as_deref()
                    .map(parse_initial_state)
                    .transpose()?,
            },
            preset,
            out,
            json,
            force,
        ),
        Command::Convergence {
            model,
            methods,
            steps,
            adaptive,
            tols,
            t_end,
            preset,
            out,
            json,
            force,
        } => {
            if adaptive {
                if steps.is_some() {
                    return Err(CliError::Usage(
                        "--steps applies to fixed steps; with --adaptive give --tols".into(),
                    ));
                }
                convergence_adaptive(
                    &model,
                    methods.as_deref(),
                    tols.as_deref(),
                    t_end,
                    preset,
                    out,
                    json,
                    force,
                )
            } else {
                if tols.is_some() {
                    return Err(CliError::Usage("--tols needs --adaptive".into()));
                }
                let Some(methods) = methods else {
                    return Err(CliError::Usage(
                        "convergence needs --methods (or --adaptive)".into(),
                    ));
                };
                convergence(
                    &model,
                    &methods,
                    steps.as_deref(),
                    t_end,
                    preset,
                    out,
                    json,
                    force,
                )
            }
        }
        Command::Reproduce {
            experiment,
            quick,
            out,
            force,
        } => reproduce(&experiment, quick, &out, force),
        Command::Ensemble {
            spec,
            shard,
            out,
            force,
        } => cli::ensemble::ensemble(&spec, &shard, &out, force),
        Command::Merge { dir, out, force } => cli::ensemble::merge(&dir, &out, force),
    }
}

fn list(json: bool) -> Result<(), CliError> {
    let ms = models();
    let exps = cli::experiments::experiments();
    if json {
        let v = json!({
            "models": ms.iter().map(|m| json!({
                "id": m.id(),
                "description": m.description(),
                "presets": m.presets().iter().map(|(p, d)| json!({
                    "name": p,
                    "description": d,
                    "parameters": m.parameters(p).unwrap_or_default().iter().map(|q| json!({
                        "name": q.name,
                        "default": q.default,
                        "meaning": q.meaning,
                        "min": q.min,
                        "max": q.max,
                        "integer": q.integer,
                    })).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "methods": schemes::methods::METHODS.iter().map(|m| json!({
                "id": m.id,
                "order": m.order,
                "embedded_order": m.embedded_order,
                "reference": m.reference,
                "description": m.description,
            })).collect::<Vec<_>>(),
            "variants": cli::methods::variants().iter().map(|v| json!({
                "id": v.id,
                "order": v.order,
                "embedded_order": v.embedded_order,
                "description": v.description,
            })).collect::<Vec<_>>(),
            "variational_methods": schemes::variational::METHODS.iter().map(|m| json!({
                "id": m.id,
                "order": m.order,
                "reference": m.reference,
                "description": m.description,
            })).collect::<Vec<_>>(),
            "compositions": schemes::composition::SCHEMES.iter().map(|c| json!({
                "id": c.id,
                "order": c.order,
                "reference": c.reference,
                "stages": c.stages(),
                "usage": format!("{}+<symmetric base>", c.id),
            })).collect::<Vec<_>>(),
            "experiments": exps.iter().map(|e| json!({"id": e.id, "description": e.description})).collect::<Vec<_>>(),
        });
        outln!("{v}");
        return Ok(());
    }
    outln!("Models:");
    for m in &ms {
        outln!("  {:<28} {}", m.id(), m.description());
        for (p, d) in m.presets() {
            outln!("  {:<28}   preset {p}: {d}", "");
            let params = m.parameters(&p).unwrap_or_default();
            if !params.is_empty() {
                let shown: Vec<String> = params
                    .iter()
                    .map(|q| format!("{}={}", q.name, cli::num(q.default)))
                    .collect();
                outln!("  {:<28}     parameters: {}", "", shown.join(", "));
            }
        }
    }
    outln!("\nMethods:");
    for m in schemes::methods::METHODS {
        let emb = m
            .embedded_order
            .map(|e| format!("({e})"))
            .unwrap_or_default();
        outln!(
            "  {:<16} order {}{:<4} {:<10} {}",
            m.id,
            m.order,
            emb,
            m.reference,
            m.description
        );
    }
    outln!("\nVariants (RKMK in Cayley coordinates; embedded solutions of the pairs):");
    for v in cli::methods::variants() {
        let emb = v
            .embedded_order
            .map(|e| format!("({e})"))
            .unwrap_or_default();
        outln!(
            "  {:<24} order {}{:<4} {}",
            v.id,
            v.order,
            emb,
            v.description
        );
    }
    outln!("\nVariational integrators (models on (S²)ⁿ only):");
    for m in schemes::variational::METHODS {
        outln!(
            "  {:<16} order {}     {} {}",
            m.id,
            m.order,
            m.reference,
            m.description
        );
    }
    outln!(
        "\nSymmetric compositions, written <scheme>+<symmetric base> (e.g. yoshida4+llm-implicit, kahan-li8+gl2):"
    );
    for c in schemes::composition::SCHEMES {
        outln!(
            "  {:<16} order {}     {} {} stages",
            c.id,
            c.order,
            c.reference,
            c.stages()
        );
    }
    outln!("\nExperiments (reproduce <id> | all):");
    for e in &exps {
        outln!("  {:<24} {}", e.id, e.description);
    }
    Ok(())
}

fn positive(name: &str, x: f64) -> Result<f64, CliError> {
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(CliError::Usage(format!(
            "{name} must be positive and finite, got {}",
            cli::num(x)
        )))
    }
}

/// The numeric options of `run`.
struct RunArgs {
    h: Option<f64>,
    tol: Option<(f64, f64)>,
    t_end: Option<f64>,
    t0: Option<f64>,
    max_steps: Option<usize>,
    h_min: Option<f64>,
    save_every: Option<usize>,
    params: Vec<(String, f64)>,
    initial_state: Option<Vec<f64>>,
}

/// `NAME=VALUE` of `--param`.
fn parse_param(arg: &str) -> Result<(String, f64), CliError> {
    let (name, value) = arg
        .split_once('=')
        .ok_or_else(|| CliError::Usage(format!("--param expects NAME=VALUE, got '{arg}'")))?;
    let name = name.trim();
    let x = value.trim().parse::<f64>().map_err(|_| {
        CliError::Usage(format!(
            "--param {name}: '{}' is not a number",
            value.trim()
        ))
    })?;
    Ok((name.to_string(), x))
}

/// The numbers of `--initial-state`: the contents of the file `arg` when it exists, else `arg`
/// itself; separated by commas, spaces or newlines.
fn parse_initial_state(arg: &str) -> Result<Vec<f64>, CliError> {
    let path = Path::new(arg);
    let text = if path.is_file() {
        std::fs::read_to_string(path).map_err(|e| CliError::io(path, &e))?
    } else {
        arg.to_string()
    };
    let numbers: Vec<f64> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<f64>()
                .map_err(|_| CliError::Usage(format!("--initial-state: '{t}' is not a number")))
        })
        .collect::<Result<_, _>>()?;
    if numbers.is_empty() {
        return Err(CliError::Usage(format!(
            "--initial-state: no numbers in '{arg}' (neither a file nor a list)"
        )));
    }
    Ok(numbers)
}

/// The flag set by Ctrl-C. The first Ctrl-C stops the run after the current step (the partial
/// result is written, exit code 130); a second one ends the program at once.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let handler_flag = Arc::clone(&flag);
    // Without a handler (another one is installed, or signals are unavailable) Ctrl-C keeps its
    // default effect: the program ends at once.
    let _ = ctrlc::set_handler(move || {
        if handler_flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    flag
}

fn run(
    model_id: &str,
    method_id: &str,
    a: &RunArgs,
    preset: Option<String>,
    out: Option<PathBuf>,
    json: bool,
    force: bool,
) -> Result<(), CliError> {
    let model = find_model(model_id)?;
    let method = MethodChoice::parse(method_id)?;
    let preset = preset.unwrap_or_else(|| model.presets()[0].0.clone());
    let defaults = model.defaults(&preset);
    let step = match (a.h, a.tol) {
        (Some(h), _) => schemes::StepSize::Fixed(positive("--h", h)?),
        (None, Some((r, at))) => {
            positive("--rtol", r)?;
            positive("--atol", at)?;
            if method.embedded_order().is_none() {
                return Err(CliError::Usage(format!(
                    "method '{method_id}' has no embedded error estimate; use --h or a pair (rkmk54, rkmk-bs32, rkmk-tsit54, rkmk-vern65, rkmk-vern76, rkmk-vern87, rkmk853, cf32, cf43)"
                )));
            }
            schemes::StepSize::Adaptive(schemes::Tolerance { rtol: r, atol: at })
        }
        (None, None) => schemes::StepSize::Fixed(defaults.h),
    };
    let t0 = a.t0.unwrap_or(0.0);
    if !t0.is_finite() {
        return Err(CliError::Usage(format!(
            "--t0 must be finite, got {}",
            cli::num(t0)
        )));
    }
    let t_end = a.t_end.unwrap_or(defaults.t_end);
    if !(t_end.is_finite() && t_end > t0) {
        return Err(CliError::Usage(format!(
            "--t-end must be finite and after --t0 = {}, got {}",
            cli::num(t0),
            cli::num(t_end)
        )));
    }
    let max_steps = match a.max_steps {
        Some(0) => return Err(CliError::Usage("--max-steps must be at least 1".into())),
        Some(n) => n,
        None => cli::registry::STEP_BUDGET,
    };
    let h_min = a.h_min.map(|m| positive("--h-min", m)).transpose()?;
    let save_every = match a.save_every {
        Some(0) => return Err(CliError::Usage("--save-every must be at least 1".into())),
        k => k,
    };
    let stem = format!("{model_id}-{method_id}");
    let files = [
        format!("{stem}.csv"),
        format!("{stem}-invariants.svg"),
        format!("{stem}-states.svg"),
        format!("{stem}.json"),
    ];
    let out_dir = optional_out_dir(out.as_deref(), force, &files)?;
    let bar = progress_bar(!json, &format!("{model_id} with {method_id}"));
    let spec = RunSpec {
        step,
        t0,
        t_end,
        max_steps,
        h_min,
        save_every,
        stop: Some(interrupt_flag()),
        progress: Some(bar.callback()),
        params: a.params.clone(),
        initial_state: a.initial_state.clone(),
    };
    let r = model.simulate_with(&preset, &method, &spec)?;
    bar.finish();
    // What was computed is kept, also when the run failed or was interrupted.
    if let Some(dir) = &out_dir {
        write_run_files(dir, &stem, &r)?;
    }
    let written = out_dir
        .as_ref()
        .map(|d| format!("; the steps up to then are in {}", d.display()))
        .unwrap_or_default();
    match &r.outcome {
        Outcome::Failed(msg) => Err(CliError::Integration(format!("{msg}{written}"))),
        Outcome::Interrupted => {
            if json {
                outln!("{}", run_json(&r));
            }
            Err(CliError::Interrupted(format!(
                "stopped at t = {} after {} steps{written}",
                cli::num(r.t_final),
                r.steps
            )))
        }
        Outcome::Completed => {
            if json {
                outln!("{}", run_json(&r));
            } else {
                print_run(&r, out_dir.as_deref())?;
            }
            Ok(())
        }
    }
}

/// Prepare `out` (if given) for the files `files` (see [`prepare_out_dir`]).
fn optional_out_dir(
    out: Option<&Path>,
    force: bool,
    files: &[String],
) -> Result<Option<PathBuf>, CliError> {
    out.map(|d| {
        prepare_out_dir(
            d,
            force,
            &files.iter().map(String::as_str).collect::<Vec<_>>(),
        )
    })
    .transpose()
}

/// Steps of the progress bar of `run` (the fraction of the time span is shown in permille).
const PROGRESS_TICKS: u64 = 1000;

/// The progress bar of `run`: the fraction of the time span done and an estimate of the time
/// left, on stderr when it is a terminal (hidden otherwise and with `--json`).
struct RunProgress(ProgressBar);

impl RunProgress {
    fn callback(&self) -> Progress {
        let pb = self.0.clone();
        Progress(std::sync::Arc::new(move |fraction: f64| {
            pb.set_position((fraction * PROGRESS_TICKS as f64) as u64);
        }))
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

fn progress_bar(show: bool, msg: &str) -> RunProgress {
    let pb = ProgressBar::new(PROGRESS_TICKS);
    if !show || !std::io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        pb.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:30}] {percent:>3}% of the time span, {elapsed} elapsed, ETA {eta}",
            )
            .expect("valid template"),
        );
    }
    pb.set_message(msg.to_string());
    RunProgress(pb)
}

fn spinner(show: bool, msg: &str) -> ProgressBar {
    let pb = ProgressBar::new_spinner();
    if !show || !std::io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        pb.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"),
        );
        pb.enable_steady_tick(std::time::Duration::from_millis(120));
    }
    pb.set_message(msg.to_string());
    pb
}

fn run_json(r: &RunResult) -> serde_json::Value {
    json!({
        "interrupted": r.outcome == Outcome::Interrupted,
        "error": match &r.outcome {
            Outcome::Failed(m) => Some(m.as_str()),
            _ => None,
        },
        "t0": r.t0,
        "save_every": r.save_every,
        "model": r.model,
        "preset": r.preset,
        "method": r.method,
        "t_final": r.t_final,
        "final_state": r.final_state,
        "state_layout": r.state_names,
        "steps": r.steps,
        "rejected_steps": r.rejected,
        "f_evaluations": r.f_evals,
        "wall_time_s": r.wall_time,
        "energy0": r.energy0,
        "final_energy_error": r.final_energy_error,
        "max_energy_error": r.max_energy_error,
        "max_unit_length_error": r.max_unit_length_error,
        "max_tangency_error": r.max_tangency_error,
        "max_momentum_error": r.max_momentum_error,
    })
}

fn print_run(r: &RunResult, out: Option<&Path>) -> Result<(), CliError> {
    outln!(
        "{} ({}) with {}: t = {} after {} steps ({} rejected), {} f-evaluations, {:.3} s",
        r.model,
        r.preset,
        r.method,
        r.t_final,
        r.steps,
        r.rejected,
        r.f_evals,
        r.wall_time
    );
    outln!(
        "  energy E₀ = {:.10e}; relative error final {:.2e}, max {:.2e}",
        r.energy0,
        r.final_energy_error,
        r.max_energy_error
    );
    outln!("  max unit-length error {:.2e}", r.max_unit_length_error);
    if let Some(t) = r.max_tangency_error {
        outln!("  max tangency error {t:.2e}");
    }
    if let Some(p) = r.max_momentum_error {
        outln!("  max relative momentum error {p:.2e}");
    }
    if let Some(d) = out {
        outln!("  files written to {}", d.display());
    }
    Ok(())
}

fn write_run_files(dir: &Path, stem: &str, r: &RunResult) -> Result<(), CliError> {
    let mut header = vec!["t".to_string()];
    header.extend(r.state_names.iter().cloned());
    header.extend(r.series.iter().map(|s| s.name.clone()));
    let rows: Vec<Vec<f64>> = (0..r.t.len())
        .map(|i| {
            std::iter::once(r.t[i])
                .chain(r.states[i].iter().copied())
                .chain(r.series.iter().map(|s| s.values[i]))
                .collect()
        })
        .collect();
    write_csv(&dir.join(format!("{stem}.csv")), &header, &rows)?;
    let json_path = dir.join(format!("{stem}.json"));
    std::fs::write(&json_path, format!("{}\n", run_json(r)))
        .map_err(|e| CliError::io(&json_path, &e))?;
    let inv: Vec<Series> = r
        .series
        .iter()
        .map(|s| {
            Series::new(
                s.name.clone(),
                r.t.iter().copied().zip(s.values.iter().copied()).collect(),
            )
        })
        .collect();
    Plot {
        title: &format!("{} / {}: invariants", r.model, r.method),
        x_label: "t",
        y_label: "error",
        x_scale: Scale::Linear,
        y_scale: Scale::Log,
        markers: false,
    }
    .write(&dir.join(format!("{stem}-invariants.svg")), &inv)?;
    let shown = r.state_names.len().min(6);
    let st: Vec<Series> = (0..shown)
        .map(|k| {
            Series::new(
                r.state_names[k].clone(),
                r.t.iter()
                    .copied()
                    .zip(r.states.iter().map(|s| s[k]))
                    .collect(),
            )
        })
        .collect();
    Plot {
        title: &format!("{} / {}: state", r.model, r.method),
        x_label: "t",
        y_label: "coordinate",
        x_scale: Scale::Linear,
        y_scale: Scale::Linear,
        markers: false,
    }
    .write(&dir.join(format!("{stem}-states.svg")), &st)?;
    Ok(())
}

fn parse_list<T: std::str::FromStr>(s: &str, what: &str) -> Result<Vec<T>, CliError> {
    let items: Result<Vec<T>, _> = s.split(',').map(|x| x.trim().parse::<T>()).collect();
    let empty_item = s.split(',').any(|x| x.trim().is_empty());
    match items {
        Ok(v) if !v.is_empty() && !empty_item => Ok(v),
        _ => Err(CliError::Usage(format!(
            "malformed {what} list '{s}' (expected comma-separated values)"
        ))),
    }
}

#[allow(clippy::too_many_arguments)]
fn convergence(
    model_id: &str,
    methods: &str,
    steps: Option<&str>,
    t_end: Option<f64>,
    preset: Option<String>,
    out: Option<PathBuf>,
    json: bool,
    force: bool,
) -> Result<(), CliError> {
    let model = find_model(model_id)?;
    let preset = preset.unwrap_or_else(|| model.presets()[0].0.clone());
    let ids: Vec<String> = parse_list(methods, "method")?;
    let specs = ids
        .iter()
        .map(|id| MethodChoice::parse(id))
        .collect::<Result<Vec<_>, _>>()?;
    let defaults = model.defaults(&preset);
    let auto = steps.is_none();
    let steps: Vec<usize> = match steps {
        Some(s) => parse_list(s, "step-count")?,
        None => defaults.conv_steps.to_vec(),
    };
    if steps.contains(&0) || steps.len() < 2 || steps.windows(2).any(|w| w[1] <= w[0]) {
        return Err(CliError::Usage(
            "--steps needs at least two increasing positive step counts".into(),
        ));
    }
    let largest = steps.last().copied().unwrap_or(0);
    if largest > cli::registry::MAX_CONVERGENCE_STEPS {
        return Err(CliError::Usage(format!(
            "--steps: the largest step count {largest} is above the limit of {} (the reference run takes {}× the finest count, within the step budget of {} steps)",
            cli::registry::MAX_CONVERGENCE_STEPS,
            cli::registry::REFERENCE_FACTOR,
            cli::registry::STEP_BUDGET,
        )));
    }
    let t_end = positive("--t-end", t_end.unwrap_or(defaults.conv_t_end))?;
    let files = [
        format!("convergence-{model_id}.csv"),
        format!("convergence-{model_id}.svg"),
    ];
    let out_dir = optional_out_dir(out.as_deref(), force, &files)?;
    let spinner = spinner(!json, &format!("convergence of {model_id}"));
    let (rows, tried): (Vec<_>, Vec<_>) = if auto {
        cli::convergence::auto_rows(model.as_ref(), &preset, &specs, &steps, t_end)?
            .into_iter()
            .map(|a| (a.row, a.grids))
            .unzip()
    } else {
        let rows = model.convergence(&preset, &specs, &steps, t_end)?;
        let tried = vec![vec![steps.clone()]; rows.len()];
        (rows, tried)
    };
    spinner.finish_and_clear();
    if let Some(dir) = &out_dir {
        cli::experiments::convergence_outputs(
            dir,
            &format!("convergence-{model_id}"),
            &format!("{model_id}: error at T = {t_end}"),
            &rows,
        )?;
    }
    if json {
        let v = json!({
            "model": model_id,
            "preset": preset,
            "t_end": t_end,
            "steps": steps,
            "methods": rows.iter().zip(&tried).map(|(r, tried)| json!({
                "method": r.method,
                "expected_order": r.expected_order,
                "observed_order": r.observed_order(),
                "method_steps": r.steps,
                "grids_tried": tried,
                "h": r.h,
                "errors": r.errors,
                "points_used": r.fit.as_ref().map(|f| f.used.clone()),
                "pre_asymptotic": r.fit.as_ref().map(|f| f.pre_asymptotic.clone()),
                "round_off": r.fit.as_ref().map(|f| f.round_off.clone()),
            })).collect::<Vec<_>>(),
        });
        outln!("{v}");
    } else {
        if auto {
            outln!(
                "{model_id} ({preset}), T = {t_end}, a step grid per method (searched from {steps:?})"
            );
        } else {
            outln!("{model_id} ({preset}), T = {t_end}, steps {steps:?}");
        }
        out!("{}", schemes::format_table(&rows));
        out!("{}", cli::convergence::dropped_points(&rows));
    }
    Ok(())
}

/// `convergence --adaptive`: the tolerance sweep of the adaptive pairs.
#[allow(clippy::too_many_arguments)]
fn convergence_adaptive(
    model_id: &str,
    methods: Option<&str>,
    tols: Option<&str>,
    t_end: Option<f64>,
    preset: Option<String>,
    out: Option<PathBuf>,
    json: bool,
    force: bool,
) -> Result<(), CliError> {
    let model = find_model(model_id)?;
    let preset = preset.unwrap_or_else(|| model.presets()[0].0.clone());
    let specs = match methods {
        Some(m) => parse_list::<String>(m, "method")?
            .iter()
            .map(|id| MethodChoice::parse(id))
            .collect::<Result<Vec<_>, _>>()?,
        None => cli::convergence::adaptive_pairs(),
    };
    if let Some(m) = specs.iter().find(|m| m.embedded_order().is_none()) {
        return Err(CliError::Usage(format!(
            "--adaptive: method '{}' has no embedded error estimate (see `list` for the pairs)",
            m.id()
        )));
    }
    let tols: Vec<f64> = match tols {
        Some(s) => parse_list(s, "tolerance")?,
        None => cli::convergence::DEFAULT_TOLERANCES.to_vec(),
    };
    if tols.len() < 2
        || tols
            .iter()
            .any(|t| !(t.is_finite() && *t > 0.0 && *t < 1.0))
        || tols.windows(2).any(|w| w[1] >= w[0])
    {
        return Err(CliError::Usage(
            "--tols needs at least two decreasing tolerances in (0, 1)".into(),
        ));
    }
    let t_end = positive(
        "--t-end",
        t_end.unwrap_or(model.defaults(&preset).conv_t_end),
    )?;
    let name = format!("convergence-adaptive-{model_id}");
    let files = [format!("{name}.csv"), format!("{name}.svg")];
    let out_dir = optional_out_dir(out.as_deref(), force, &files)?;
    let spinner = spinner(!json, &format!("tolerance sweep on {model_id}"));
    let rows = model.tolerance_study(&preset, &specs, &tols, t_end)?;
    spinner.finish_and_clear();
    if let Some(dir) = &out_dir {
        cli::convergence::tolerance_outputs(
            dir,
            &name,
            &format!("{model_id}: error at T = {t_end} against the tolerance"),
            &rows,
        )?;
    }
    if json {
        let v = json!({
            "model": model_id,
            "preset": preset,
            "t_end": t_end,
            "tolerances": tols,
            "methods": rows.iter().map(|r| json!({
                "method": r.method,
                "expected_order": r.expected_order,
                "embedded_order": r.embedded_order,
                "tolerances": r.tolerances,
                "steps": r.steps,
                "errors": r.errors,
                "tolerance_slope": r.tolerance_fit.as_ref().map(|f| f.slope),
                "effective_order": r.steps_fit.as_ref().map(|f| f.slope),
                "skipped": r.skipped.iter().map(|p| p.setting).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        });
        outln!("{v}");
    } else {
        outln!("{model_id} ({preset}), T = {t_end}, rtol = atol = tol for tol in {tols:?}");
        out!("{}", cli::convergence::tolerance_table(&rows));
    }
    Ok(())
}

fn reproduce(which: &str, quick: bool, out: &Path, force: bool) -> Result<(), CliError> {
    let all = cli::experiments::experiments();
    let chosen: Vec<_> = if which == "all" {
        all.iter().collect()
    } else {
        let e = all.iter().find(|e| e.id == which).ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|e| e.id).collect();
            CliError::Usage(format!(
                "unknown experiment '{which}'; known: all, {}",
                names.join(", ")
            ))
        })?;
        vec![e]
    };
    let mut names: Vec<&str> = chosen.iter().map(|e| e.id).collect();
    names.push("report.html");
    let dir = prepare_out_dir(out, force, &names)?;
    let bar = ProgressBar::new(chosen.len() as u64);
    if std::io::stderr().is_terminal() {
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} ({elapsed})")
                .expect("valid template"),
        );
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let mut sections: Vec<Section> = Vec::new();
    let mut summary = Table::new(&["experiment", "time (s)", "result"]);
    for e in &chosen {
        bar.set_message(e.id);
        let start = std::time::Instant::now();
        let sec = e.run(&dir, quick)?;
        summary.row(vec![
            e.id.to_string(),
            format!("{:.1}", start.elapsed().as_secs_f64()),
            sec.summary.clone(),
        ]);
        sections.push(sec);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let title = if quick {
        "lie-integrators: paper reproductions (quick)"
    } else {
        "lie-integrators: paper reproductions"
    };
    let report = write_report(&dir, title, &sections, &summary)?;
    outln!("{}", summary.to_text());
    outln!("report: {}", report.display());
    Ok(())
}
