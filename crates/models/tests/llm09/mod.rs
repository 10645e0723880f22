//! The comparison of [LLM09, §4] on its six examples: the variational integrator (3.10)–(3.18)
//! against explicit RK4 on the ambient ODE in ℝ⁶ⁿ (same step), as a **baseline written for this
//! comparison** (not a method of the library) RK4 with reprojection after every step
//! (`qᵢ ← qᵢ/|qᵢ|`, `ωᵢ ← ωᵢ − (qᵢ·ωᵢ)qᵢ`), and the paper's own baseline for examples 1, 4, 5:
//! adaptive Dormand–Prince 5(4) ("RK45") on the ambient ODE with MATLAB's default tolerances
//! (rtol 1e-3, atol 1e-6), sampled on the same time grid by its dense output. Shared by the test
//! `llm09_behaviour.rs` (shortened runs) and the example `llm09_table` (the full runs).
//!
//! Per run: the mean over the steps of `|E(t) − E₀|` ("mean total energy variation" in the
//! paper) and of `maxᵢ ||qᵢ| − 1|` ("mean unit length error"); the ratio of these means over the
//! last and the first quarter of the run (`q4/q1`) and of the maxima over the second and the
//! first half (`max2/max1`), which show a drift; the least-squares slope of `E(t) − E₀` times
//! the horizon (`trend*T`); and the wall time.

#![allow(dead_code)]
// Index loops over the two tracked quantities (energy, unit length).
#![allow(clippy::needless_range_loop)]

use homogeneous::LeftMultiplication;
use liegroup::Rn;
use models::sphere_systems::two_vortex_velocities;
use models::{
    AmbientField, CoupledPendula, DipoleArray, DoubleSphericalPendulum, ElasticRod, LennardJones,
    Potential, SphereModel, SphereNBody, SphereState, SphereSystem, unit_length_error,
};
use nalgebra::{Vector3, Vector6};
use schemes::catalogue::RK4;
use schemes::{Options, Problem, Rkmk, Save, Stepper, integrate, methods};
use std::time::Instant;

/// The three integrators compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The variational integrator (explicit form for diagonal inertia, implicit otherwise).
    Variational,
    /// Classical RK4 on the ambient ODE (schemes' RKMK engine with the RK4 tableau on ℝ⁶ⁿ under
    /// left multiplication, which is the classical method).
    Rk4,
    /// RK4 followed by normalizing `qᵢ` and projecting `ωᵢ` onto the tangent plane (a baseline
    /// of this test, not a library method).
    Rk4Projected,
    /// Adaptive RKMK(5,4) (= Dormand–Prince 5(4) on ℝ⁶ⁿ) at rtol 1e-3, atol 1e-6.
    Rk45Adaptive,
}

impl Method {
    pub fn label(self) -> &'static str {
        match self {
            Self::Variational => "variational",
            Self::Rk4 => "RK4 (ambient)",
            Self::Rk4Projected => "RK4 + projection",
            Self::Rk45Adaptive => "RK45 rtol 1e-3",
        }
    }
}

/// The summary of one run.
#[derive(Clone, Debug)]
pub struct Row {
    pub example: &'static str,
    pub method: Method,
    pub h: f64,
    /// Steps taken (accepted steps for the adaptive method).
    pub steps: usize,
    pub t_end: f64,
    pub e0: f64,
    /// mean |E − E₀| over the run, its first quarter and its last quarter.
    pub mean_de: f64,
    pub de_first: f64,
    pub de_last: f64,
    /// Least-squares slope of E − E₀ (per unit time) times the horizon.
    pub trend: f64,
    /// mean maxᵢ ||qᵢ| − 1| over the run, its first and last quarter.
    pub mean_unit: f64,
    pub unit_first: f64,
    pub unit_last: f64,
    /// max |E − E₀| over the first and the second half of the run.
    pub max_de_halves: [f64; 2],
    /// max maxᵢ ||qᵢ| − 1| over the first and the second half of the run.
    pub max_unit_halves: [f64; 2],
    pub seconds: f64,
}

struct Acc {
    steps: usize,
    h: f64,
    e0: f64,
    k: usize,
    sums: [f64; 2],
    first: [f64; 2],
    last: [f64; 2],
    /// max |E − E₀| and max unit-length error over the first and the second half.
    max_first: [f64; 2],
    max_second: [f64; 2],
    st: f64,
    stt: f64,
    se: f64,
    ste: f64,
    accepted: Option<usize>,
}

impl Acc {
    fn new(steps: usize, h: f64, e0: f64) -> Self {
        Self {
            steps,
            h,
            e0,
            k: 0,
            sums: [0.0; 2],
            first: [0.0; 2],
            last: [0.0; 2],
            max_first: [0.0; 2],
            max_second: [0.0; 2],
            st: 0.0,
            stt: 0.0,
            se: 0.0,
            ste: 0.0,
            accepted: None,
        }
    }
    fn push(&mut self, e: f64, unit: f64) {
        self.k += 1;
        let de = e - self.e0;
        let t = self.h * self.k as f64;
        let v = [de.abs(), unit];
        let quarter = (self.steps / 4).max(1);
        for c in 0..2 {
            self.sums[c] += v[c];
            if self.k <= quarter {
                self.first[c] += v[c] / quarter as f64;
            }
            if self.k > self.steps - quarter {
                self.last[c] += v[c] / quarter as f64;
            }
            if 2 * self.k <= self.steps {
                self.max_first[c] = self.max_first[c].max(v[c]);
            } else {
                self.max_second[c] = self.max_second[c].max(v[c]);
            }
        }
        self.st += t;
        self.stt += t * t;
        self.se += de;
        self.ste += t * de;
    }
    fn row(&self, example: &'static str, method: Method, seconds: f64) -> Row {
        let n = self.k as f64;
        let (mt, me) = (self.st / n, self.se / n);
        let slope = (self.ste / n - mt * me) / (self.stt / n - mt * mt);
        Row {
            example,
            method,
            h: self.h,
            steps: self.accepted.unwrap_or(self.steps),
            t_end: self.h * self.steps as f64,
            e0: self.e0,
            mean_de: self.sums[0] / n,
            de_first: self.first[0],
            de_last: self.last[0],
            trend: slope * self.h * self.steps as f64,
            mean_unit: self.sums[1] / n,
            unit_first: self.first[1],
            unit_last: self.last[1],
            max_de_halves: [self.max_first[0], self.max_second[0]],
            max_unit_halves: [self.max_first[1], self.max_second[1]],
            seconds,
        }
    }
}

/// One run of `method` on `sys` from `x0`.
pub fn run<P: Potential>(
    example: &'static str,
    sys: &SphereSystem<P>,
    x0: &SphereState,
    h: f64,
    steps: usize,
    method: Method,
) -> Row {
    let n = x0.bodies();
    let e0 = sys.energy(&x0.q, &x0.omega);
    let mut acc = Acc::new(steps, h, e0);
    let start = Instant::now();
    match method {
        Method::Variational => {
            let mut vi = sys.variational_integrator::<f64>().unwrap();
            let (mut q, mut w) = (x0.q.clone(), x0.omega.clone());
            let (mut q1, mut w1) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
            for _ in 0..steps {
                vi.step_slices(0.0, &q, &w, h, &mut q1, &mut w1).unwrap();
                core::mem::swap(&mut q, &mut q1);
                core::mem::swap(&mut w, &mut w1);
                acc.push(sys.energy(&q, &w), unit_length_error(&q));
            }
        }
        Method::Rk4 | Method::Rk4Projected => {
            type A = LeftMultiplication<Vec<Rn<f64, 6>>>;
            let action = A::new();
            let field = AmbientField::new(sys);
            let mut rk4 = Rkmk::<A>::exp(&RK4).unwrap();
            let mut y = x0.to_rn_points();
            for k in 0..steps {
                y = rk4
                    .step(&action, &field, h * k as f64, &y, h, None)
                    .unwrap()
                    .y;
                if method == Method::Rk4Projected {
                    for p in &mut y {
                        let q = Vector3::new(p.0[0], p.0[1], p.0[2]).normalize();
                        let w = Vector3::new(p.0[3], p.0[4], p.0[5]);
                        let w = w - q * q.dot(&w);
                        *p = Rn::new(Vector6::new(q.x, q.y, q.z, w.x, w.y, w.z));
                    }
                }
                let s = SphereState::from_rn_points(&y);
                acc.push(sys.energy(&s.q, &s.omega), unit_length_error(&s.q));
            }
        }
        Method::Rk45Adaptive => {
            type A = LeftMultiplication<Vec<Rn<f64, 6>>>;
            let problem = Problem::new(A::new(), AmbientField::new(sys));
            let mut rk45 = methods::find("rkmk54").unwrap().stepper::<A>();
            // The grid includes t = 0 (the driver indexes the saved initial point when it
            // chooses the first adaptive step; a grid without t₀ panics there).
            let grid: Vec<f64> = (0..=steps).map(|k| h * k as f64).collect();
            let mut opts = Options::adaptive(1e-3, 1e-6);
            opts.save = Save::Times(grid);
            let sol = integrate(
                &problem,
                &mut rk45,
                0.0,
                x0.to_rn_points(),
                h * steps as f64,
                &opts,
            )
            .unwrap();
            for y in &sol.y[1..] {
                let s = SphereState::from_rn_points(y);
                acc.push(sys.energy(&s.q, &s.omega), unit_length_error(&s.q));
            }
            acc.accepted = Some(sol.stats.accepted);
        }
    }
    acc.row(example, method, start.elapsed().as_secs_f64())
}

/// The three methods on one example.
pub fn compare<M: SphereModel>(
    example: &'static str,
    model: &M,
    x0: &SphereState,
    h: f64,
    steps: usize,
) -> Vec<Row> {
    [
        Method::Variational,
        Method::Rk4,
        Method::Rk4Projected,
        Method::Rk45Adaptive,
    ]
    .into_iter()
    .map(|m| run(example, model.system(), x0, h, steps, m))
    .collect()
}

/// How long each example runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    /// Shortened runs for the test suite.
    Test,
    /// The paper's horizons (where known; see [`all_examples`]).
    Full,
}

/// The six examples with the presets of `models` (each preset documents the values chosen
/// where the paper's digits were lost), step sizes and horizons:
///
/// | example | h | T (full) | T (test) |
/// |---|---|---|---|
/// | 1 double spherical pendulum | 0.01 | 100 (paper) | 100 |
/// | 2 three bodies on a sphere | 0.01 | 100 | 40 |
/// | 3 four coupled pendula | 0.005 | 50 | 10 |
/// | 4 elastic rod (10 elements, stiff) | 2e-5 | 3 (paper) | 0.1 |
/// | 5 4 × 4 magnetic dipoles | 0.01 | 100 | 20 |
/// | 6 Lennard-Jones, 642 molecules (test: 162) | 0.005 | 5 (paper) | 2 |
pub fn all_examples(length: Length) -> Vec<Row> {
    let full = length == Length::Full;
    let steps = |t_full: f64, t_test: f64, h: f64| {
        let t = if full { t_full } else { t_test };
        (t / h).round() as usize
    };
    let mut rows = Vec::new();
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let x0 = DoubleSphericalPendulum::initial_state();
    rows.extend(compare(
        "1 double spherical pendulum",
        &p,
        &x0,
        0.01,
        steps(100.0, 100.0, 0.01),
    ));
    let (p, x0) = SphereNBody::three_body();
    rows.extend(compare(
        "2 three bodies on a sphere",
        &p,
        &x0,
        0.01,
        steps(100.0, 40.0, 0.01),
    ));
    let (p, x0) = CoupledPendula::four_pendula();
    rows.extend(compare(
        "3 four coupled pendula",
        &p,
        &x0,
        0.005,
        steps(50.0, 10.0, 0.005),
    ));
    let (p, x0) = ElasticRod::lee_leok_mcclamroch();
    rows.extend(compare(
        "4 elastic rod",
        &p,
        &x0,
        2e-5,
        steps(3.0, 0.1, 2e-5),
    ));
    let (p, x0) = DipoleArray::grid_4x4();
    rows.extend(compare(
        "5 magnetic dipoles 4x4",
        &p,
        &x0,
        0.01,
        steps(100.0, 40.0, 0.01),
    ));
    if full {
        let (p, x0) = LennardJones::icosphere_642();
        rows.extend(compare(
            "6 Lennard-Jones (642)",
            &p,
            &x0,
            0.005,
            steps(5.0, 1.0, 0.005),
        ));
    } else {
        let (p, q) = LennardJones::on_icosphere(2, 0.01, None).unwrap();
        let omega = two_vortex_velocities(&q, 30f64.to_radians(), 1.0, 15f64.to_radians());
        let x0 = SphereState::try_new(q, omega).unwrap();
        rows.extend(compare(
            "6 Lennard-Jones (162)",
            &p,
            &x0,
            0.005,
            steps(5.0, 2.0, 0.005),
        ));
    }
    rows
}

/// The table as text.
pub fn format(rows: &[Row]) -> String {
    use core::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<28} {:<17} {:>7} {:>7} {:>11} {:>10} {:>9} {:>9} {:>9} {:>10} {:>9} {:>9} {:>7}",
        "example",
        "method",
        "h",
        "steps",
        "E0",
        "mean|dE|",
        "q4/q1",
        "max2/max1",
        "trend*T",
        "mean unit",
        "q4/q1",
        "max2/max1",
        "time s"
    );
    for r in rows {
        // The adaptive method: the mean step.
        let h = if r.method == Method::Rk45Adaptive {
            r.t_end / r.steps.max(1) as f64
        } else {
            r.h
        };
        let _ = writeln!(
            s,
            "{:<28} {:<17} {:>7.0e} {:>7} {:>11.4e} {:>10.2e} {:>9.2} {:>9.2} {:>9.1e} {:>10.2e} {:>9.2} {:>9.2} {:>7.2}",
            r.example,
            r.method.label(),
            h,
            r.steps,
            r.e0,
            r.mean_de,
            r.de_last / r.de_first,
            r.max_de_halves[1] / r.max_de_halves[0],
            r.trend,
            r.mean_unit,
            r.unit_last / r.unit_first.max(f64::MIN_POSITIVE),
            r.max_unit_halves[1] / r.max_unit_halves[0].max(f64::MIN_POSITIVE),
            r.seconds
        );
    }
    s
}
