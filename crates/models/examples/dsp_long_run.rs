//! The double spherical pendulum of [LLM09, Ex. 1] integrated by the implicit variational
//! integrator (3.10)–(3.16) with `h = 0.01` for 10⁶ steps (t = 10⁴ s; pass another step count as
//! the first argument): vertical angular momentum, unit length and the energy error with its
//! fitted linear trend.
//!
//! ```text
//! cargo run --release -p models --example dsp_long_run [steps]
//! ```

use homogeneous::{TangentSphere2, TangentSphereAction, VecPowerAction};
use models::{DoubleSphericalPendulum, LieField, SphereModel, SphereState, unit_length_error};
use schemes::{Options, Problem, integrate_with_observer};
use std::time::Instant;

fn main() {
    let steps: usize = std::env::args()
        .nth(1)
        .map_or(1_000_000, |s| s.parse().expect("step count"));
    let h = 0.01;
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.system();
    let x0 = DoubleSphericalPendulum::initial_state();
    let e0 = sys.energy(&x0.q, &x0.omega);
    let jz0 = sys.angular_momentum(&x0.q, &x0.omega).z;
    let mut stepper = sys.variational_integrator::<f64>().expect("valid system");
    let problem = Problem::new(
        VecPowerAction::new(TangentSphereAction::new()),
        LieField::new(sys),
    );
    let mut stats = Stats::new(h * steps as f64);
    let start = Instant::now();
    let sol = integrate_with_observer(
        &problem,
        &mut stepper,
        0.0,
        x0.to_tangent_points(),
        h * steps as f64,
        &Options::count(steps).save_final(),
        |t, y: &Vec<TangentSphere2>| {
            let s = SphereState::from_tangent_points(y);
            let de = sys.energy(&s.q, &s.omega) - e0;
            let djz = sys.angular_momentum(&s.q, &s.omega).z - jz0;
            stats.push(t, de, djz, unit_length_error(&s.q));
        },
    )
    .expect("integration");
    let elapsed = start.elapsed().as_secs_f64();
    let end = SphereState::from_tangent_points(sol.last().1);
    let (slope, intercept) = stats.trend();
    println!(
        "double spherical pendulum, llm-implicit, h = {h}, {steps} steps (T = {})",
        h * steps as f64
    );
    println!(
        "  time: {elapsed:.2} s ({:.2} µs/step); Newton iterations/step {:.2}",
        1e6 * elapsed / steps as f64,
        sol.stats.work.iterations as f64 / steps as f64
    );
    println!("  E0 = {e0:.6}, Jz0 = {jz0:.6}");
    println!(
        "  max |Jz − Jz0| = {:.3e} (relative {:.3e})",
        stats.max_djz,
        stats.max_djz / jz0.abs()
    );
    println!(
        "  unit length: max over the run {:.3e}, at the end {:.3e}",
        stats.max_unit,
        unit_length_error(&end.q)
    );
    println!(
        "  energy: mean |E − E0| = {:.4e}, max {:.4e}; means of the four quarters {:?}",
        stats.sum_abs / stats.n as f64,
        stats.max_abs,
        stats.quarters()
    );
    println!(
        "  energy trend: slope {slope:.3e} per s (× T = {:.3e}), intercept {intercept:.3e}",
        slope * h * steps as f64
    );
}

/// Running statistics of the energy error `e(t) = E(t) − E₀` (least-squares line, mean absolute
/// value overall and per quarter of the run), the momentum error and the unit-length error.
struct Stats {
    t_end: f64,
    n: usize,
    st: f64,
    stt: f64,
    se: f64,
    ste: f64,
    sum_abs: f64,
    max_abs: f64,
    max_djz: f64,
    max_unit: f64,
    quarter_sum: [f64; 4],
    quarter_n: [usize; 4],
}

impl Stats {
    fn new(t_end: f64) -> Self {
        Self {
            t_end,
            n: 0,
            st: 0.0,
            stt: 0.0,
            se: 0.0,
            ste: 0.0,
            sum_abs: 0.0,
            max_abs: 0.0,
            max_djz: 0.0,
            max_unit: 0.0,
            quarter_sum: [0.0; 4],
            quarter_n: [0; 4],
        }
    }
    fn push(&mut self, t: f64, de: f64, djz: f64, unit: f64) {
        self.n += 1;
        self.st += t;
        self.stt += t * t;
        self.se += de;
        self.ste += t * de;
        self.sum_abs += de.abs();
        self.max_abs = self.max_abs.max(de.abs());
        self.max_djz = self.max_djz.max(djz.abs());
        self.max_unit = self.max_unit.max(unit);
        let k = ((4.0 * t / self.t_end) as usize).min(3);
        self.quarter_sum[k] += de.abs();
        self.quarter_n[k] += 1;
    }
    fn quarters(&self) -> [f64; 4] {
        core::array::from_fn(|k| self.quarter_sum[k] / self.quarter_n[k].max(1) as f64)
    }
    /// Slope and intercept of the least-squares line through `(t, e(t))`.
    fn trend(&self) -> (f64, f64) {
        let n = self.n as f64;
        let mt = self.st / n;
        let me = self.se / n;
        let slope = (self.ste / n - mt * me) / (self.stt / n - mt * mt);
        (slope, me - slope * mt)
    }
}
