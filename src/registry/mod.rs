//! The model registry: the models and presets of the experiments program by identifier, every
//! method of the catalogue by identifier (compositions included, [`methods`]), simulations
//! with their statistics ([`RunSpec`], [`RunResult`]), and convergence and tolerance studies.
//!
//! Enabled by the cargo feature `registry` (which the feature `cli`, the experiments program,
//! turns on).
//!
//! ```
//! use lie_integrators::registry::{RunSpec, find_model, methods::MethodChoice};
//! use lie_integrators::schemes::StepSize;
//!
//! let model = find_model("free-rigid-body")?;
//! let method = MethodChoice::parse("rkmk4")?;
//! let r = model.simulate_with("s2", &method, &RunSpec::new(StepSize::Fixed(0.01), 1.0))?;
//! assert_eq!(r.steps, 100);
//! assert!(r.max_unit_length_error < 1e-12);
//! # Ok::<(), lie_integrators::registry::Error>(())
//! ```

mod error;
pub mod methods;
mod params;

pub use error::{Error, num, one_line, shorten_numbers};
use homogeneous::{RotationAction, Sphere2, TangentSphere2, TangentSphereAction};
use methods::{MethodChoice, TsAction};
use models::{
    CoupledPendula, DipoleArray, DoubleSphericalPendulum, ElasticRod, GRAVITY, LennardJones,
    LieField, NFoldPendulum, SphereModel, SphereNBody, SphereState, Symmetry,
};
use nalgebra::Vector3;
pub use params::{
    INITIAL_STATE_ULPS, MAX_INTEGER_PARAMETER, Parameter, check_shape, check_tangent, check_unit,
    initial_state_tolerance, resolve,
};
use schemes::special::jacobi_sn_cn_dn;
use schemes::{
    Algebra, ConvergenceRow, Options, Problem, Scalar, SchemeError, StepOutput, StepSize,
    StepStats, Stepper, Tolerance, integrate_with_observer,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The options of one simulation (`run`).
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Fixed, counted or adaptive steps.
    pub step: StepSize,
    /// Initial time.
    pub t0: f64,
    /// Final time.
    pub t_end: f64,
    /// The step budget (accepted + rejected steps).
    pub max_steps: usize,
    /// The smallest step of the adaptive controller (`None`: the driver's default).
    pub h_min: Option<f64>,
    /// Keep every `K`-th step for output (`None`: thin automatically to at most
    /// [`MAX_SAMPLES`] points). Either way at most [`MAX_SAVED_POINTS`] points are kept: past
    /// that the stride doubles.
    pub save_every: Option<usize>,
    /// Set (by the Ctrl-C handler) to stop the run after the current step.
    pub stop: Option<Arc<AtomicBool>>,
    /// Told the fraction `(t − t₀)/(t_end − t₀)` of the span done, every
    /// [`PROGRESS_EVERY`] steps (the CLI's progress bar).
    pub progress: Option<Progress>,
    /// Model parameter overrides `(name, value)` ([`Model::parameters`]); empty: the preset's
    /// values.
    pub params: Vec<(String, f64)>,
    /// The initial state in the ambient coordinates of [`RunResult::state_names`]
    /// ([`Model::state_names`]); `None`: the preset's. Checked, never projected.
    pub initial_state: Option<Vec<f64>>,
}

/// How often (in accepted steps) a run reports its progress.
pub const PROGRESS_EVERY: usize = 256;

/// A progress callback: receives the fraction of the time span done, in `[0, 1]`.
#[derive(Clone)]
pub struct Progress(pub Arc<dyn Fn(f64) + Send + Sync>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress(..)")
    }
}

impl RunSpec {
    /// `step` from 0 to `t_end`, the default budget, automatic thinning, no stop flag.
    #[must_use]
    pub fn new(step: StepSize, t_end: f64) -> Self {
        Self {
            step,
            t0: 0.0,
            t_end,
            max_steps: STEP_BUDGET,
            h_min: None,
            save_every: None,
            stop: None,
            progress: None,
            params: Vec::new(),
            initial_state: None,
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It reached the final time.
    Completed,
    /// The stop flag was set (Ctrl-C): the result holds the steps up to then.
    Interrupted,
    /// The integration failed (the message): the result holds the steps up to the failure.
    Failed(String),
}

/// The reason of the error a [`Stoppable`] stepper returns once its flag is set.
const INTERRUPTED: &str = "interrupted by the user (SIGINT)";

/// A stepper that refuses to take a step once `stop` is set, so that the driver ends the run
/// with the steps taken so far.
struct Stoppable<S> {
    inner: S,
    stop: Option<Arc<AtomicBool>>,
}

impl<A: homogeneous::Action, S: Stepper<A>> Stepper<A> for Stoppable<S> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn order(&self) -> u32 {
        self.inner.order()
    }
    fn embedded_order(&self) -> Option<u32> {
        self.inner.embedded_order()
    }
    fn step<F>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<A::Point>, SchemeError>
    where
        F: homogeneous::LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(SchemeError::Unsupported {
                method: self.inner.name(),
                reason: INTERRUPTED.into(),
            });
        }
        self.inner.step(action, f, t, y, h, tol)
    }
    fn has_dense_output(&self) -> bool {
        self.inner.has_dense_output()
    }
    fn dense_output(&self, action: &A, y_prev: &A::Point, theta: Scalar<A>) -> Option<A::Point> {
        self.inner.dense_output(action, y_prev, theta)
    }
    fn symmetric_on_group(&self) -> bool {
        self.inner.symmetric_on_group()
    }
    fn stats(&self) -> StepStats {
        self.inner.stats()
    }
    fn reset_stats(&mut self) {
        self.inner.reset_stats();
    }
}

/// The message of a failed integration, for the one-line report: a non-finite value that the
/// driver reports "in the vector field" appears when the field is evaluated at a stage point,
/// which is usually the stage point's fault (a step too large), not the field's.
pub fn scheme_message(e: &SchemeError) -> String {
    match e {
        SchemeError::NonFinite { what, t } if *what == "vector field" => format!(
            "non-finite value in a stage of the step at t = {} (the vector field at a stage point: \
             the stage point or the field value is not finite; a smaller step may help)",
            num(*t)
        ),
        other => shorten_numbers(&other.to_string()),
    }
}

/// Default run parameters of a model preset.
#[derive(Clone, Copy, Debug)]
pub struct Defaults {
    /// Final time of `run`.
    pub t_end: f64,
    /// Step of `run`.
    pub h: f64,
    /// Final time of `convergence`.
    pub conv_t_end: f64,
    /// Step counts of `convergence`.
    pub conv_steps: [usize; 5],
}

/// A time series of a scalar quantity.
#[derive(Clone, Debug)]
pub struct SeriesData {
    /// Column name.
    pub name: String,
    /// Values at the saved times.
    pub values: Vec<f64>,
}

/// The result of `run`.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Model identifier.
    pub model: String,
    /// Preset.
    pub preset: String,
    /// Method identifier.
    pub method: String,
    /// Names of the ambient state coordinates, in the order of `final_state`.
    pub state_names: Vec<String>,
    /// Saved times (thinned to at most a few thousand for output).
    pub t: Vec<f64>,
    /// Saved ambient states.
    pub states: Vec<Vec<f64>>,
    /// Invariant and error series at the saved times.
    pub series: Vec<SeriesData>,
    /// The final ambient state (exact, not thinned).
    pub final_state: Vec<f64>,
    /// Final time reached.
    pub t_final: f64,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps.
    pub rejected: usize,
    /// Vector-field evaluations.
    pub f_evals: usize,
    /// Wall-clock time of the integration in seconds.
    pub wall_time: f64,
    /// Initial energy.
    pub energy0: f64,
    /// `|E(T) − E₀|/|E₀|` (absolute when `E₀ = 0`).
    pub final_energy_error: f64,
    /// The maximum of the same over every step.
    pub max_energy_error: f64,
    /// `max ||qᵢ| − 1|` over every step.
    pub max_unit_length_error: f64,
    /// `max |qᵢ·ωᵢ|` over every step (models on TS²).
    pub max_tangency_error: Option<f64>,
    /// The largest relative change of a conserved momentum component, if the model has one.
    pub max_momentum_error: Option<f64>,
    /// Initial time.
    pub t0: f64,
    /// The stride of the saved points at the end of the run (every `save_every`-th step).
    pub save_every: usize,
    /// Completed, interrupted or failed.
    pub outcome: Outcome,
}

/// What the registry needs from a model.
pub trait Model: Sync {
    /// Stable kebab-case identifier.
    fn id(&self) -> &'static str;
    /// One line of description with the reference.
    fn description(&self) -> &'static str;
    /// Presets `(name, description)`; the first is the default.
    fn presets(&self) -> Vec<(String, String)>;
    /// Defaults of a preset.
    fn defaults(&self, preset: &str) -> Defaults;
    /// The named parameters of a preset with their preset values (empty for a model without
    /// overridable parameters).
    ///
    /// # Errors
    /// [`Error::Usage`] for an unknown preset.
    fn parameters(&self, preset: &str) -> Result<Vec<Parameter>, Error>;
    /// The names of the ambient state coordinates of a preset (those of
    /// [`RunResult::state_names`] and of [`RunSpec::initial_state`]).
    ///
    /// # Errors
    /// [`Error::Usage`] for an unknown preset.
    fn state_names(&self, preset: &str) -> Result<Vec<String>, Error>;
    /// The preset's initial state in ambient coordinates, with the parameter overrides
    /// `params` applied (a seed may change it).
    ///
    /// # Errors
    /// [`Error::Usage`] for an unknown preset, [`Error::Parameter`] for a bad override.
    fn initial_state(&self, preset: &str, params: &[(String, f64)]) -> Result<Vec<f64>, Error>;
    /// Simulate with the options of `spec`. A run that fails or is interrupted after the first
    /// point is `Ok` with its [`Outcome`] and the steps up to then.
    fn simulate_with(
        &self,
        preset: &str,
        method: &MethodChoice,
        spec: &RunSpec,
    ) -> Result<RunResult, Error>;
    /// Simulate from 0 to `t_end`; a failed or interrupted run is an error (the plain form of
    /// [`simulate_with`](Self::simulate_with)).
    fn simulate(
        &self,
        preset: &str,
        method: &MethodChoice,
        step: &StepSize,
        t_end: f64,
    ) -> Result<RunResult, Error> {
        let r = self.simulate_with(preset, method, &RunSpec::new(step.clone(), t_end))?;
        r.into_completed()
    }
    /// Observed orders over `steps` against the exact solution or a fine reference run.
    fn convergence(
        &self,
        preset: &str,
        methods: &[MethodChoice],
        steps: &[usize],
        t_end: f64,
    ) -> Result<Vec<ConvergenceRow>, Error>;
    /// Tolerance proportionality of adaptive pairs: error at `t_end` against `rtol = atol =
    /// tol` for each tolerance (`schemes::measure_tolerance_order`), against the exact
    /// solution or a fine reference run. Models without it return a usage error.
    fn tolerance_study(
        &self,
        preset: &str,
        methods: &[MethodChoice],
        tolerances: &[f64],
        t_end: f64,
    ) -> Result<Vec<schemes::ToleranceRow>, Error> {
        let _ = (preset, methods, tolerances, t_end);
        Err(Error::Usage(format!(
            "model '{}' has no tolerance study (convergence --adaptive)",
            self.id()
        )))
    }
}

/// Every model of the program.
pub fn models() -> Vec<Box<dyn Model>> {
    vec![
        Box::new(FreeRigidBody),
        Box::new(SphereEntry {
            id: "double-spherical-pendulum",
            description: "double spherical pendulum on (S²)² [LLM09 §4.1]; m = 1, l = 9.81, g = 9.81",
            presets: &[(
                "llm09",
                "the data of [LLM09, Ex. 1] as restored in docs/models.md (E₀ ≈ −270.22)",
            )],
            build: |_, v| {
                Ok((
                    DoubleSphericalPendulum::new(v[0], v[1], v[2], v[3], v[4])?
                        .as_chain()
                        .clone(),
                    DoubleSphericalPendulum::initial_state(),
                ))
            },
            params: |_| {
                Ok(vec![
                    Parameter::positive("m1", 1.0, "mass of the first bob (kg)"),
                    Parameter::positive("m2", 1.0, "mass of the second bob (kg)"),
                    Parameter::positive("l1", GRAVITY, "length of the first link (m)"),
                    Parameter::positive("l2", GRAVITY, "length of the second link (m)"),
                    Parameter::non_negative("g", GRAVITY, "gravitational acceleration (m/s²)"),
                ])
            },
            defaults: |_| Defaults {
                t_end: 10.0,
                h: 0.01,
                conv_t_end: 1.0,
                conv_steps: [8, 16, 32, 64, 128],
            },
        }),
        Box::new(SphereEntry {
            id: "n-pendulum",
            description: "N-fold 3D pendulum on (TS²)ᴺ under SE(3)ᴺ [CCLMO22 §5]",
            presets: &[
                (
                    "convergence",
                    "N = 2, L = m = 1, seeded random start (the convergence experiment)",
                ),
                (
                    "chain-N",
                    "N = 2…20 links of length 5/N, unit masses, q = e₁, ω = 0 (variable-step study)",
                ),
            ],
            build: |preset, v| {
                if preset == "convergence" {
                    return Ok((
                        NFoldPendulum::uniform(2, v[0], v[1], v[2])?,
                        SphereState::random(2, 1.0, v[3] as u64),
                    ));
                }
                let n = chain_links(preset)?;
                let x0 = SphereState::try_new(vec![Vector3::x(); n], vec![Vector3::zeros(); n])?;
                Ok((NFoldPendulum::uniform(n, v[0], v[1], v[2])?, x0))
            },
            params: |preset| {
                let mut p = vec![Parameter::positive("m", 1.0, "mass of each link (kg)")];
                if preset == "convergence" {
                    p.push(Parameter::positive("L", 1.0, "length of each link (m)"));
                    p.push(Parameter::non_negative(
                        "g",
                        GRAVITY,
                        "gravitational acceleration (m/s²)",
                    ));
                    p.push(Parameter::seed(
                        "seed",
                        1.0,
                        "seed of the random initial state (q uniform on S², ω normal and tangent)",
                    ));
                } else {
                    let n = chain_links(preset)?;
                    p.push(Parameter::positive(
                        "L",
                        5.0 / n as f64,
                        "length of each link (m; total 5 m by default)",
                    ));
                    p.push(Parameter::non_negative(
                        "g",
                        GRAVITY,
                        "gravitational acceleration (m/s²)",
                    ));
                }
                Ok(p)
            },
            defaults: |preset| {
                if preset == "convergence" {
                    Defaults {
                        t_end: 1.0,
                        h: 0.001,
                        conv_t_end: 0.1,
                        conv_steps: [2, 4, 8, 16, 32],
                    }
                } else {
                    Defaults {
                        t_end: 3.0,
                        h: 0.001,
                        conv_t_end: 0.5,
                        conv_steps: [32, 64, 128, 256, 512],
                    }
                }
            },
        }),
        Box::new(SphereEntry {
            id: "sphere-nbody",
            description: "three bodies on a sphere with the Kozlov–Harin potential [LLM09 §4.2]",
            presets: &[("three-body", "a perturbed equilateral triangle")],
            build: |_, v| {
                let (_, x) = SphereNBody::three_body();
                Ok((SphereNBody::new(vec![v[0]; 3], v[1])?, x))
            },
            params: |_| {
                Ok(vec![
                    Parameter::positive("m", 1.0, "mass of each body (kg)"),
                    Parameter::positive(
                        "gamma",
                        1.0,
                        "strength γ of the Kozlov–Harin pair potential −γ cot θ (J)",
                    ),
                ])
            },
            defaults: |_| Defaults {
                t_end: 10.0,
                h: 0.001,
                conv_t_end: 0.5,
                conv_steps: [8, 16, 32, 64, 128],
            },
        }),
        Box::new(SphereEntry {
            id: "coupled-pendula",
            description: "four spherical pendula coupled by springs [LLM09 §4.3]",
            presets: &[(
                "four",
                "the LLM09 layout (values chosen where digits were lost)",
            )],
            build: |_, _| Ok(CoupledPendula::four_pendula()),
            params: |_| Ok(Vec::new()),
            defaults: |_| Defaults {
                t_end: 10.0,
                h: 0.001,
                conv_t_end: 0.5,
                conv_steps: [8, 16, 32, 64, 128],
            },
        }),
        Box::new(SphereEntry {
            id: "elastic-rod",
            description: "an elastic rod of 10 elements, clamped at the wall [LLM09 §4.4] (stiff)",
            presets: &[("llm09", "10 elements, bending stiffness 1000")],
            build: |_, v| {
                let (_, x0) = ElasticRod::lee_leok_mcclamroch();
                Ok((
                    ElasticRod::uniform(10, 0.055, 1.1, v[0], v[1], Vector3::x())?,
                    x0,
                ))
            },
            params: |_| {
                Ok(vec![
                    Parameter::positive(
                        "stiffness",
                        1000.0,
                        "spring constant κ of every joint, bending energy ½κ(1 − cos θ) (J)",
                    ),
                    Parameter::non_negative("g", GRAVITY, "gravitational acceleration (m/s²)"),
                ])
            },
            defaults: |_| Defaults {
                t_end: 0.2,
                h: 1e-5,
                conv_t_end: 0.002,
                conv_steps: [8, 16, 32, 64, 128],
            },
        }),
        Box::new(SphereEntry {
            id: "dipoles",
            description: "16 magnetic dipoles on a planar 4×4 grid [LLM09 §4.5]",
            presets: &[("grid-4x4", "one magnet displaced, the others at rest")],
            build: |_, _| Ok(DipoleArray::grid_4x4()),
            params: |_| Ok(Vec::new()),
            defaults: |_| Defaults {
                t_end: 10.0,
                h: 0.001,
                conv_t_end: 0.5,
                conv_steps: [8, 16, 32, 64, 128],
            },
        }),
        Box::new(SphereEntry {
            id: "lennard-jones",
            description: "642 Lennard-Jones molecules on a sphere [LLM09 §4.6]",
            presets: &[(
                "icosphere-642",
                "icosphere layout, two counter-rotating vortices",
            )],
            build: |_, _| Ok(LennardJones::icosphere_642()),
            params: |_| Ok(Vec::new()),
            defaults: |_| Defaults {
                t_end: 0.5,
                h: 0.005,
                conv_t_end: 0.05,
                conv_steps: [2, 4, 8, 16, 32],
            },
        }),
    ]
}

/// The link count `N` of an `n-pendulum` preset `chain-N` (`1 ≤ N ≤ 200`).
fn chain_links(preset: &str) -> Result<usize, Error> {
    preset
        .strip_prefix("chain-")
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|n| (1..=200).contains(n))
        .ok_or_else(|| {
            Error::Usage(format!(
                "unknown preset '{preset}' (use convergence or chain-N)"
            ))
        })
}

/// Look a model up.
pub fn find_model(id: &str) -> Result<Box<dyn Model>, Error> {
    let all = models();
    let names: Vec<&str> = all.iter().map(|m| m.id()).collect();
    let known = names.join(", ");
    all.into_iter()
        .find(|m| m.id() == id)
        .ok_or_else(|| Error::Usage(format!("unknown model '{id}'; known: {known}")))
}

fn check_preset(model: &dyn Model, preset: &str) -> Result<(), Error> {
    let presets = model.presets();
    let ok = presets.iter().any(|(p, _)| {
        p == preset || (p.ends_with("-N") && preset.starts_with(p.trim_end_matches('N')))
    });
    if ok {
        Ok(())
    } else {
        let names: Vec<&str> = presets.iter().map(|(p, _)| p.as_str()).collect();
        Err(Error::Usage(format!(
            "unknown preset '{preset}' for {}; known: {}",
            model.id(),
            names.join(", ")
        )))
    }
}

/// The step budget of the driver (`schemes::Options::max_steps` by default).
pub const STEP_BUDGET: usize = 10_000_000;

/// The reference of a convergence study without an exact solution takes this many times the
/// finest step count of the study.
pub const REFERENCE_FACTOR: usize = 8;

/// The largest step count of a convergence study (its reference run stays within
/// [`STEP_BUDGET`]).
pub const MAX_CONVERGENCE_STEPS: usize = STEP_BUDGET / REFERENCE_FACTOR;

/// One saved sample of a run.
struct Sample {
    t: f64,
    state: Vec<f64>,
    obs: [f64; 4],
}

/// Without `--save-every`, at most this many samples are kept for output (evenly thinned by
/// doubling the stride).
pub const MAX_SAMPLES: usize = 4000;

/// With `--save-every K`, at most this many samples are kept: a run longer than
/// `K · MAX_SAVED_POINTS` steps doubles the stride (the output stays bounded for any run length).
pub const MAX_SAVED_POINTS: usize = 100_000;

impl RunResult {
    /// The result of a completed run, or the failure as an error.
    ///
    /// # Errors
    /// [`Error::Integration`] for a failed or interrupted run.
    pub fn into_completed(self) -> Result<Self, Error> {
        match &self.outcome {
            Outcome::Completed => Ok(self),
            Outcome::Interrupted => Err(Error::Integration(format!(
                "{}: {INTERRUPTED}",
                self.method
            ))),
            Outcome::Failed(m) => Err(Error::Integration(m.clone())),
        }
    }
}

fn relative(e: f64, e0: f64) -> f64 {
    if e0 == 0.0 { e.abs() } else { (e / e0).abs() }
}

fn options_for(spec: &RunSpec) -> Options {
    let mut o = match &spec.step {
        StepSize::Fixed(h) => Options::fixed(*h),
        StepSize::Count(n) => Options::count(*n),
        StepSize::Adaptive(t) => Options::adaptive(t.rtol, t.atol),
    }
    .save_final()
    .max_steps(spec.max_steps);
    o.h_min = spec.h_min;
    o
}

/// Quantities observed along a run.
struct Observation {
    energy: f64,
    unit: f64,
    tangency: Option<f64>,
    momentum: Option<f64>,
}

/// Run `stepper` on `problem` and record states and observables.
#[allow(clippy::too_many_arguments)]
fn record<A, F, S>(
    model: &str,
    preset: &str,
    stepper: S,
    problem: &Problem<A, F>,
    y0: A::Point,
    spec: &RunSpec,
    state_names: Vec<String>,
    ambient: impl Fn(&A::Point) -> Vec<f64>,
    observe: impl Fn(&A::Point) -> Observation,
) -> Result<RunResult, Error>
where
    A: homogeneous::ActionInPlace<
            Group: liegroup::LieGroup<Scalar = f64>,
            Point: homogeneous::ManifoldPoint<Scalar = f64>,
        >,
    F: homogeneous::LieVectorField<f64, A::Point, <A::Group as liegroup::LieGroup>::Algebra>,
    S: schemes::Stepper<A>,
{
    let method_name = stepper.name();
    let mut stepper = Stoppable {
        inner: stepper,
        stop: spec.stop.clone(),
    };
    let o0 = observe(&y0);
    let (e0, p0) = (o0.energy, o0.momentum.unwrap_or(0.0));
    let mut samples: Vec<Sample> = Vec::new();
    let cap = if spec.save_every.is_some() {
        MAX_SAVED_POINTS
    } else {
        MAX_SAMPLES
    };
    let (mut stride, mut count) = (spec.save_every.unwrap_or(1).max(1), 0usize);
    // The last accepted point (the driver keeps only the final one, and none on failure).
    let mut last: Option<(f64, A::Point)> = None;
    let (mut max_e, mut max_u, mut max_t, mut max_p) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
    let has_tan = o0.tangency.is_some();
    let has_mom = o0.momentum.is_some();
    let start = Instant::now();
    let result = integrate_with_observer(
        problem,
        &mut stepper,
        spec.t0,
        y0,
        spec.t_end,
        &options_for(spec),
        |t, y| {
            match &mut last {
                Some((lt, ly)) => {
                    *lt = t;
                    ly.clone_from(y);
                }
                None => last = Some((t, y.clone())),
            }
            let o = observe(y);
            let de = relative(o.energy - e0, e0);
            let dp = o
                .momentum
                .map_or(0.0, |p| relative(p - p0, p0.abs().max(1e-300)));
            max_e = max_e.max(de);
            max_u = max_u.max(o.unit);
            max_t = max_t.max(o.tangency.unwrap_or(0.0));
            max_p = max_p.max(dp);
            if count % stride == 0 {
                samples.push(Sample {
                    t,
                    state: ambient(y),
                    obs: [de, o.unit, o.tangency.unwrap_or(0.0), dp],
                });
                if samples.len() > cap {
                    let mut i = 0;
                    samples.retain(|_| {
                        i += 1;
                        i % 2 == 1
                    });
                    stride *= 2;
                }
            }
            if count % PROGRESS_EVERY == 0
                && let Some(p) = &spec.progress
            {
                p.0(((t - spec.t0) / (spec.t_end - spec.t0)).clamp(0.0, 1.0));
            }
            count += 1;
        },
    );
    let wall_time = start.elapsed().as_secs_f64();
    let (stats, outcome) = match result {
        Ok(sol) => (sol.stats, Outcome::Completed),
        Err(f) => {
            let interrupted = spec
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
                && matches!(&f.error, SchemeError::Unsupported { reason, .. } if reason == INTERRUPTED);
            let outcome = if interrupted {
                Outcome::Interrupted
            } else {
                Outcome::Failed(format!(
                    "{method_name}: {} (after {} accepted steps)",
                    scheme_message(&f.error),
                    f.partial.stats.accepted
                ))
            };
            if last.is_none() {
                // Nothing was computed (the input was refused): no partial result.
                return Err(Error::Integration(match outcome {
                    Outcome::Failed(m) => m,
                    _ => format!("{method_name}: {INTERRUPTED}"),
                }));
            }
            (f.partial.stats, outcome)
        }
    };
    let Some((t_final, y_final)) = last else {
        return Err(Error::Integration(format!(
            "{method_name}: the integration returned no point"
        )));
    };
    let y_final = &y_final;
    let final_obs = observe(y_final);
    if samples.last().is_none_or(|s| s.t < t_final) {
        let de = relative(final_obs.energy - e0, e0);
        let dp = final_obs
            .momentum
            .map_or(0.0, |p| relative(p - p0, p0.abs().max(1e-300)));
        samples.push(Sample {
            t: t_final,
            state: ambient(y_final),
            obs: [de, final_obs.unit, final_obs.tangency.unwrap_or(0.0), dp],
        });
    }
    let obs: Vec<[f64; 4]> = samples.iter().map(|s| s.obs).collect();
    let mut series = vec![
        SeriesData {
            name: "energy_error".into(),
            values: obs.iter().map(|o| o[0]).collect(),
        },
        SeriesData {
            name: "unit_length_error".into(),
            values: obs.iter().map(|o| o[1]).collect(),
        },
    ];
    if has_tan {
        series.push(SeriesData {
            name: "tangency_error".into(),
            values: obs.iter().map(|o| o[2]).collect(),
        });
    }
    if has_mom {
        series.push(SeriesData {
            name: "momentum_error".into(),
            values: obs.iter().map(|o| o[3]).collect(),
        });
    }
    Ok(RunResult {
        model: model.into(),
        preset: preset.into(),
        method: method_name.clone(),
        state_names,
        t: samples.iter().map(|s| s.t).collect(),
        states: samples.into_iter().map(|s| s.state).collect(),
        series,
        final_state: ambient(y_final),
        t_final,
        steps: stats.accepted,
        rejected: stats.rejected,
        f_evals: stats.work.f_evals,
        wall_time,
        energy0: e0,
        final_energy_error: relative(final_obs.energy - e0, e0),
        max_energy_error: max_e,
        max_unit_length_error: max_u,
        max_tangency_error: has_tan.then_some(max_t),
        max_momentum_error: has_mom.then_some(max_p),
        t0: spec.t0,
        save_every: stride,
        outcome,
    })
}

mod entries;
pub use entries::{FreeRigidBody, SphereEntry, simulate_sphere};
