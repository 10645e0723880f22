//! The step-size controller (issue 24, item 4): its defaults pinned through the documented
//! formulas, and the work of the Dormand–Prince pair on the Arenstorf orbit beside the counts
//! published for DOPRI5.

use homogeneous::LeftMultiplication;
use liegroup::Rn;
use nalgebra::Vector4;
use schemes::methods::find;
use schemes::{Controller, Options, Problem, StepControl, integrate};

/// The defaults as documented on [`StepControl`]: the elementary controller
/// `h_new = h·clamp(safety·err^{−1/(q+1)}, fac_min, fac_max)` \[HNW93, II.4, eq. (4.13)\] with
/// safety 0.9, fac_min 0.2, fac_max 5; Gustafsson's PI gains `k₁ = 0.7`, `k₂ = 0.4`.
#[test]
fn the_defaults_are_the_documented_ones() {
    let d = StepControl::default();
    assert_eq!(d.controller, Controller::Elementary);
    assert_eq!(d.safety, 0.9);
    assert_eq!(d.fac_min, 0.2);
    assert_eq!(d.fac_max, 5.0);
    assert_eq!(Controller::PI_DEFAULT, Controller::PI { k1: 0.7, k2: 0.4 });
    assert_eq!(Options::adaptive(1e-6, 1e-6).control, d);
}

/// The proposals of the default controller, worked by hand from eq. (4.13) for a pair of lower
/// order `q = 4` (exponent 1/5): a change of any default changes one of these numbers.
#[test]
fn the_default_controller_proposes_what_the_formula_says() {
    let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs();
    let mut c = StepControl::default().start();
    // err = 2⁻⁵: factor 0.9·2 = 1.8.
    let (ok, h) = c.propose(1.0 / 32.0, 1.0, 4, false);
    assert!(ok && close(h, 1.8), "{h}");
    // A tiny error: growth capped at fac_max = 5.
    let (ok, h) = c.propose(1e-30, 1.0, 4, false);
    assert!(ok && close(h, 5.0), "{h}");
    // After a rejection the step may not grow.
    let (ok, h) = c.propose(1e-30, 1.0, 4, true);
    assert!(ok && close(h, 1.0), "{h}");
    // err = 32: rejected, factor 0.9/2 = 0.45.
    let (ok, h) = c.propose(32.0, 1.0, 4, false);
    assert!(!ok && close(h, 0.45), "{h}");
    // A huge error: shrink capped at fac_min = 0.2.
    let (ok, h) = c.propose(1e30, 1.0, 4, false);
    assert!(!ok && close(h, 0.2), "{h}");
    // err = 1 exactly is accepted (factor 0.9).
    let (ok, h) = c.propose(1.0, 1.0, 4, false);
    assert!(ok && close(h, 0.9), "{h}");
}

/// The PI controller: `h·0.9·err_n^{−0.7/5}·err_{n−1}^{0.4/5}` (the first previous error is 1).
#[test]
fn the_pi_controller_proposes_what_the_formula_says() {
    let control = StepControl {
        controller: Controller::PI_DEFAULT,
        ..StepControl::default()
    };
    let mut c = control.start();
    let e1 = 2f64.powi(-10);
    let (ok, h1) = c.propose(e1, 1.0, 4, false);
    // 0.9·(2⁻¹⁰)^{−0.14} = 0.9·2^{1.4}.
    assert!(ok && (h1 - 0.9 * 2f64.powf(1.4)).abs() < 1e-15, "{h1}");
    let e2 = 2f64.powi(-5);
    let (ok, h2) = c.propose(e2, 1.0, 4, false);
    // 0.9·(2⁻⁵)^{−0.14}·(2⁻¹⁰)^{0.08} = 0.9·2^{0.7 − 0.8}.
    assert!(ok && (h2 - 0.9 * 2f64.powf(-0.1)).abs() < 1e-15, "{h2}");
}

/// The restricted three-body problem of the Arenstorf orbit \[HNW93, II.0, eq. (0.1)\], as a
/// first-order system on ℝ⁴ = (y₁, y₂, y₁', y₂').
fn arenstorf(_t: f64, y: &Rn<f64, 4>) -> Vector4<f64> {
    let y = &y.0;
    const MU: f64 = 0.012_277_471;
    let mu1 = 1.0 - MU;
    let d1 = ((y[0] + MU).powi(2) + y[1] * y[1]).powf(1.5);
    let d2 = ((y[0] - mu1).powi(2) + y[1] * y[1]).powf(1.5);
    Vector4::new(
        y[2],
        y[3],
        y[0] + 2.0 * y[3] - mu1 * (y[0] + MU) / d1 - MU * (y[0] - mu1) / d2,
        y[1] - 2.0 * y[2] - mu1 * y[1] / d1 - MU * y[1] / d2,
    )
}

/// The period and the initial value of the orbit (Hairer's driver `dr_dopri5`, HNW93 II.0).
const PERIOD: f64 = 17.065_216_560_157_963;
fn arenstorf_start() -> Vector4<f64> {
    Vector4::new(0.994, 0.0, 0.0, -2.001_585_106_379_082_4)
}

/// RKMK(5,4) on ℝ⁴ acting on itself by translation is the Dormand–Prince pair (the reduction
/// test); with rtol = atol = 1e-7 over one period of the Arenstorf orbit DOPRI5 takes 216
/// accepted and 22 rejected steps (the output of Hairer's driver `dr_dopri5`, HNW93 appendix).
///
/// The two codes share the pair, the initial-step heuristic \[HNW93, II.4\] and the safety
/// factor, but not everything: our error weight of a component is `atol + rtol·max(|σᵢ|, |σ̂ᵢ|)`
/// with `σ` the increment of the step in the algebra (here `y₁ − y₀`) where DOPRI5 uses
/// `atol + rtol·max(|y₀ᵢ|, |y₁ᵢ|)`, and our default controller is the elementary one with
/// fac_max 5 where DOPRI5 adds a β = 0.04 stabilization and allows fac_max 10. The test asks
/// for the published work within 5 % (accepted steps), at most 1.5 times the rejections, and
/// the orbit closed to the accuracy the tolerance allows.
#[test]
fn dormand_prince_on_the_arenstorf_orbit_does_the_published_work() {
    type Act = LeftMultiplication<Rn<f64, 4>>;
    let problem = Problem::new(Act::new(), arenstorf);
    let mut stepper = find("rkmk54").unwrap().stepper::<Act>();
    let y0 = Rn(arenstorf_start());
    let options = Options::adaptive(1e-7, 1e-7);
    let sol = integrate(&problem, &mut stepper, 0.0, y0, PERIOD, &options).unwrap();
    let (accepted, rejected) = (sol.stats.accepted, sol.stats.rejected);
    let closed = (sol.last().1.0 - arenstorf_start()).amax();
    eprintln!(
        "Arenstorf, rkmk54 at rtol = atol = 1e-7: {accepted} accepted, {rejected} rejected, |y(T) − y(0)| = {closed:.2e} (DOPRI5: 216 / 22)"
    );
    assert!(closed < 1e-2, "the orbit does not close: {closed:e}");
    let ratio = accepted as f64 / 216.0;
    assert!(
        (0.95..=1.05).contains(&ratio),
        "{accepted} accepted steps against DOPRI5's 216"
    );
    assert!(rejected <= 33, "{rejected} rejected against DOPRI5's 22");
}
