//! The long run of [LLM09, Ex. 1]: the double spherical pendulum (`docs/models.md` data,
//! `h = 0.01`) integrated by the implicit variational integrator (3.10)–(3.16), Newton to
//! round-off, for **10⁶ steps** (t = 10⁴ s, 100× the paper's horizon):
//!
//! - the vertical angular momentum `J·e₃` (the momentum map of rotations about the vertical) is
//!   kept to ≤ 1e-10 relative;
//! - `|qᵢ| = 1` within 1e-12 over the whole run (no projection is ever applied);
//! - the energy error is bounded with no linear trend: the least-squares slope times the
//!   horizon is below 1% of the error's amplitude, and the mean |E − E₀| is the same in the four
//!   quarters of the run (within 10%).
//!
//! Timing (this machine, shared): about 1.8 s in release and 5–6 s in the test profile
//! (opt-level 1), so the full 10⁶ steps run in the test suite. The same run with a report is the
//! example `cargo run --release -p models --example dsp_long_run`.

use models::{DoubleSphericalPendulum, SphereModel, unit_length_error};
use nalgebra::Vector3;
use std::time::Instant;

#[test]
fn double_spherical_pendulum_million_steps() {
    let steps = 1_000_000_usize;
    let h = 0.01;
    let t_end = h * steps as f64;
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.system();
    let x0 = DoubleSphericalPendulum::initial_state();
    let e0 = sys.energy(&x0.q, &x0.omega);
    let jz0 = sys.angular_momentum(&x0.q, &x0.omega).z;
    let mut vi = sys.variational_integrator::<f64>().unwrap();
    let (mut q, mut w) = (x0.q.clone(), x0.omega.clone());
    let (mut q1, mut w1) = (vec![Vector3::zeros(); 2], vec![Vector3::zeros(); 2]);
    // Running sums for the least-squares line e(t) = a + b t, e = E − E₀.
    let (mut st, mut stt, mut se, mut ste) = (0.0, 0.0, 0.0, 0.0);
    let (mut max_de, mut max_dj, mut max_unit) = (0.0_f64, 0.0_f64, 0.0_f64);
    let mut quarter = [0.0; 4];
    let start = Instant::now();
    for k in 1..=steps {
        vi.step_slices(0.0, &q, &w, h, &mut q1, &mut w1).unwrap();
        core::mem::swap(&mut q, &mut q1);
        core::mem::swap(&mut w, &mut w1);
        let t = h * k as f64;
        let de = sys.energy(&q, &w) - e0;
        st += t;
        stt += t * t;
        se += de;
        ste += t * de;
        max_de = max_de.max(de.abs());
        quarter[((4 * (k - 1)) / steps).min(3)] += de.abs() / (steps / 4) as f64;
        max_dj = max_dj.max((sys.angular_momentum(&q, &w).z - jz0).abs());
        max_unit = max_unit.max(unit_length_error(&q));
    }
    let elapsed = start.elapsed().as_secs_f64();
    let n = steps as f64;
    let (mt, me) = (st / n, se / n);
    let slope = (ste / n - mt * me) / (stt / n - mt * mt);
    let mean_abs = quarter.iter().sum::<f64>() / 4.0;
    println!("double spherical pendulum, llm-implicit, h = {h}, {steps} steps, {elapsed:.2} s");
    println!(
        "  |J·e₃ − J₀·e₃| ≤ {max_dj:.2e} (relative {:.2e}, J₀·e₃ = {jz0:.4})",
        max_dj / jz0.abs()
    );
    println!(
        "  max_t ||qᵢ| − 1| = {max_unit:.2e}, at the end {:.2e}",
        unit_length_error(&q)
    );
    println!(
        "  energy error: mean {mean_abs:.3e}, max {max_de:.3e} (E₀ = {e0:.4}); quarters {:.4e} {:.4e} {:.4e} {:.4e}",
        quarter[0], quarter[1], quarter[2], quarter[3]
    );
    println!(
        "  energy trend: slope {slope:.2e} /s, slope × T = {:.2e}",
        slope * t_end
    );
    assert!(
        max_dj / jz0.abs() <= 1e-10,
        "momentum {:e}",
        max_dj / jz0.abs()
    );
    assert!(max_unit <= 1e-12, "unit length {max_unit:e}");
    assert!(
        (slope * t_end).abs() <= 0.01 * max_de,
        "trend {:e} vs amplitude {max_de:e}",
        slope * t_end
    );
    for qm in quarter {
        assert!((qm / mean_abs - 1.0).abs() <= 0.1, "quarters {quarter:?}");
    }
    // The recorded level: mean |E − E₀| ≈ 1.1e-4 (`docs/models.md`, "Example 1 data";
    // [LLM09, Ex. 1]).
    assert!(
        (mean_abs - 1.13e-4).abs() < 0.1e-4,
        "mean energy error {mean_abs:e}"
    );
}

/// [LLM09, Ex. 2]: the three-body problem on the sphere (`SphereNBody::three_body`, `h = 0.01`)
/// integrated by the explicit variational integrator (3.17)–(3.18) for **10⁶ steps**
/// (t = 10⁴). The potential is invariant under all rotations, so the whole angular momentum
/// `J = Σᵢ qᵢ × mᵢq̇ᵢ` is a momentum map of the discrete flow [LLM09, §3] and is kept up to
/// round-off. The test asks for `max_t |J − J₀|/|J₀| < 1e-11` and no linear trend: the
/// least-squares line through the relative error must rise by less than 1e-12 over the run.
/// (The velocity update in the (3.12) form `ωᵢ′ = qᵢ′ × (Mᵢᵢ Δᵢ/h − (h/2) ∂V/∂qᵢ′)/Mᵢᵢ`,
/// algebraically equal to (3.18), rounds with a bias: its error rose linearly to 2.3e-11; the
/// literal (3.18) stays at the round-off random walk, ~1e-13.) About 1 s in the test profile.
#[test]
fn three_body_million_steps_angular_momentum() {
    use models::SphereNBody;
    let steps = 1_000_000_usize;
    let h = 0.01;
    let (model, x0) = SphereNBody::three_body();
    let sys = model.system();
    let j0 = sys.angular_momentum(&x0.q, &x0.omega);
    let mut vi = sys.variational_integrator::<f64>().unwrap();
    let (mut q, mut w) = (x0.q.clone(), x0.omega.clone());
    let (mut q1, mut w1) = (vec![Vector3::zeros(); 3], vec![Vector3::zeros(); 3]);
    let (mut st, mut stt, mut se, mut ste) = (0.0, 0.0, 0.0, 0.0);
    let (mut max_first, mut max_last, mut max_all) = (0.0_f64, 0.0_f64, 0.0_f64);
    let start = Instant::now();
    for k in 1..=steps {
        vi.step_slices(0.0, &q, &w, h, &mut q1, &mut w1).unwrap();
        core::mem::swap(&mut q, &mut q1);
        core::mem::swap(&mut w, &mut w1);
        let t = h * k as f64;
        let e = (sys.angular_momentum(&q, &w) - j0).norm() / j0.norm();
        st += t;
        stt += t * t;
        se += e;
        ste += t * e;
        max_all = max_all.max(e);
        if k <= steps / 10 {
            max_first = max_first.max(e);
        }
        if k > steps - steps / 10 {
            max_last = max_last.max(e);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let n = steps as f64;
    let (mt, me) = (st / n, se / n);
    let slope = (ste / n - mt * me) / (stt / n - mt * mt);
    let t_end = h * n;
    println!("three-body problem, llm-explicit, h = {h}, {steps} steps, {elapsed:.2} s");
    println!(
        "  max |J − J₀|/|J₀| = {max_all:.2e} (first tenth {max_first:.2e}, last tenth {max_last:.2e}); slope × T = {:.2e}",
        slope * t_end
    );
    assert!(max_all < 1e-11, "angular momentum {max_all:e}");
    assert!(
        (slope * t_end).abs() < 1e-12,
        "linear trend {:e} over the run",
        slope * t_end
    );
}
