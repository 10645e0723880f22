//! Rigid-body Langevin dynamics (`models::langevin::LangevinSplitting`) against physics:
//! the fluctuation–dissipation identity of the exact O step, equipartition (translational,
//! rotational, and the configurational ⟨½k|x|²⟩ of a trap), Stokes–Einstein diffusion of a sphere
//! (mean-square displacement and orientation correlation), orthogonality of the attitude, and
//! bitwise reproducibility for a seed. Statistical tests use fixed seeds and error bars computed
//! from the run (block averages or independent bodies); each asserts agreement within 4 standard
//! errors and a standard error small enough for the test to detect a wrong temperature or
//! friction.

use liegroup::So3;
use models::ModelError;
use models::langevin::{
    FreeBodies, HarmonicTrap, LangevinBody, LangevinSplitting, LangevinState, ResistanceTensor,
};
use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};
use std::f64::consts::PI;

/// A spheroid-shaped body whose resistance is given at a point off its centre of mass, so Ξ at
/// the centre of mass couples translation and rotation; anisotropic inertia.
fn coupled_body(kt: f64) -> LangevinBody {
    let xi = ResistanceTensor::spheroid(0.05, 2.0, 1.0).unwrap();
    LangevinBody::with_resistance_at(
        1.0,
        Vector3::new(1.0, 1.0, 0.4),
        &xi,
        &Vector3::new(0.1, 0.2, 0.3),
        kt,
    )
    .unwrap()
}

fn gibbs_covariance(body: &LangevinBody) -> Matrix6<f64> {
    let i = body.inertia();
    let m = body.mass();
    Matrix6::from_diagonal(&Vector6::new(m, m, m, i.x, i.y, i.z))
        .map(|x| if x == 0.0 { 0.0 } else { body.kt() / x })
}

/// Fluctuation–dissipation, deterministically: the O step maps N(0, kT𝕄⁻¹) to itself,
/// E Σ Eᵀ + C Cᵀ = Σ to round-off; and E = exp(−h𝕄⁻¹Ξ) agrees with its Taylor series at small h.
#[test]
fn ou_step_keeps_the_gibbs_covariance() {
    let body = coupled_body(2.0);
    let sigma = gibbs_covariance(&body);
    for h in [1e-3, 0.05, 1.0, 30.0] {
        let lang = LangevinSplitting::new(body.clone(), FreeBodies, h, 1, 1).unwrap();
        let (e, c) = lang.ou_matrices();
        let image = e * sigma * e.transpose() + c * c.transpose();
        let err = (image - sigma).amax() / sigma.amax();
        assert!(err <= 64.0 * f64::EPSILON, "h = {h}: {err:e}");
    }
    let h = 1e-3;
    let lang = LangevinSplitting::new(body.clone(), FreeBodies, h, 1, 1).unwrap();
    let i = body.inertia();
    let minv = Matrix6::from_diagonal(&Vector6::new(
        1.0,
        1.0,
        1.0,
        1.0 / i.x,
        1.0 / i.y,
        1.0 / i.z,
    ));
    let a = minv * body.resistance().matrix() * h;
    let series = Matrix6::identity() - a + a * a / 2.0 - a * a * a / 6.0 + a * a * a * a / 24.0;
    let (e, _) = lang.ou_matrices();
    assert!((e - series).amax() <= 1e-13, "{:e}", (e - series).amax());
}

/// Block statistics: the mean of all block means and its standard error.
fn mean_and_error(blocks: &[f64]) -> (f64, f64) {
    let n = blocks.len() as f64;
    let mean = blocks.iter().sum::<f64>() / n;
    let var = blocks.iter().map(|b| (b - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

fn assert_within(name: &str, (mean, se): (f64, f64), expected: f64, max_rel_se: f64) {
    eprintln!(
        "{name}: {mean:.5} ± {se:.5} (expected {expected:.5}, {:.2} σ)",
        (mean - expected) / se
    );
    assert!(
        se <= max_rel_se * expected,
        "{name}: standard error {se:e} too large to test"
    );
    assert!(
        (mean - expected).abs() <= 4.0 * se,
        "{name}: {mean} ± {se} vs {expected}"
    );
}

/// Equipartition for a body with coupled Ξ and anisotropic inertia in a harmonic trap:
/// ⟨½m|v|²⟩ = ⟨½ΩᵀIΩ⟩ = ⟨½k|x|²⟩ = 3/2 kT (kT = 2). One block per body (64 independent bodies,
/// 200 time units each, correlation times ≲ 2), so the standard error is rigorous; the splitting
/// biases are O(h²) ≈ 1e-3 here.
#[test]
fn equipartition_with_coupling_and_a_trap() {
    let kt = 2.0;
    let body = coupled_body(kt);
    let trap = HarmonicTrap::new(1.0).unwrap();
    let (h, n_bodies) = (0.02, 64);
    let mut lang = LangevinSplitting::new(body.clone(), trap, h, n_bodies, 2024).unwrap();
    let mut states = vec![LangevinState::at_rest(Vector3::zeros(), So3::identity()); n_bodies];
    // Equilibrate 10 time units.
    for _ in 0..500 {
        lang.step(&mut states).unwrap();
    }
    let (block_len, n_blocks) = (10_000, 1);
    let mut kin_t = Vec::new();
    let mut kin_r = Vec::new();
    let mut pot = Vec::new();
    let mut acc = vec![[0.0; 3]; n_bodies];
    for step in 1..=block_len * n_blocks {
        lang.step(&mut states).unwrap();
        for (a, s) in acc.iter_mut().zip(&states) {
            a[0] += body.translational_kinetic_energy(s);
            a[1] += body.rotational_kinetic_energy(s);
            a[2] += 0.5 * s.x.norm_squared();
        }
        if step % block_len == 0 {
            for a in &mut acc {
                kin_t.push(a[0] / block_len as f64);
                kin_r.push(a[1] / block_len as f64);
                pot.push(a[2] / block_len as f64);
                *a = [0.0; 3];
            }
        }
    }
    assert_within("⟨½m|v|²⟩", mean_and_error(&kin_t), 1.5 * kt, 0.01);
    assert_within("⟨½ΩᵀIΩ⟩", mean_and_error(&kin_r), 1.5 * kt, 0.01);
    assert_within("⟨½k|x|²⟩", mean_and_error(&pot), 1.5 * kt, 0.02);
}

/// Stokes–Einstein for a free sphere (Ξᵗᵗ = 6πηa, Ξʳʳ = 8πηa³), 2000 independent bodies:
/// ⟨|x(t) − x(0)|²⟩ = 6D_t[t − τ(1 − e^{−t/τ})] (the exact result for the Ornstein–Uhlenbeck
/// velocity, τ = m/ξ_t, D_t = kT/(6πηa)), and ⟨uᵢ(t)·uᵢ(0)⟩ = exp(−2D_r[t − τ_r(1 − e^{−t/τ_r})]),
/// D_r = kT/(8πηa³), τ_r = I/ξ_r (the overdamped exp(−2D_r t) with its first inertial
/// correction; the next is O((D_rτ_r)²) ≈ 1e-4). Bodies start at equilibrium velocities after
/// a run-in. Also: the attitude stays orthogonal to round-off without reprojection (a random
/// walk of rounding errors, `O(√n ε)`).
#[test]
fn stokes_einstein_diffusion_of_a_sphere() {
    let (m, a, kt) = (1.0, 1.0, 1.0);
    let eta = 5.0 / (6.0 * PI); // ξ_t = 5, ξ_r = 20/3
    let body = LangevinBody::sphere(m, a, eta, kt).unwrap();
    let (xt, xr) = (6.0 * PI * eta * a, 8.0 * PI * eta * a.powi(3));
    let (dt, dr) = (kt / xt, kt / xr);
    let (tau, tau_r) = (m / xt, 0.4 * m * a * a / xr);
    let (h, n_bodies) = (0.01, 2000);
    let mut lang = LangevinSplitting::new(body, FreeBodies, h, n_bodies, 99).unwrap();
    let mut states = vec![LangevinState::at_rest(Vector3::zeros(), So3::identity()); n_bodies];
    for _ in 0..100 {
        lang.step(&mut states).unwrap();
    }
    let start: Vec<LangevinState> = states.clone();
    let checkpoints = [(200, 2.0), (400, 4.0)];
    let mut step = 0;
    for &(n, t) in &checkpoints {
        while step < n {
            lang.step(&mut states).unwrap();
            step += 1;
        }
        let msd: Vec<f64> = states
            .iter()
            .zip(&start)
            .map(|(s, s0)| (s.x - s0.x).norm_squared())
            .collect();
        let expected = 6.0 * dt * (t - tau * (1.0 - (-t / tau).exp()));
        assert_within(&format!("MSD({t})"), mean_and_error(&msd), expected, 0.03);
        let corr: Vec<f64> = states
            .iter()
            .zip(&start)
            .map(|(s, s0)| (s0.r.matrix().transpose() * s.r.matrix()).trace() / 3.0)
            .collect();
        let expected = (-2.0 * dr * (t - tau_r * (1.0 - (-t / tau_r).exp()))).exp();
        assert_within(
            &format!("⟨u(t)·u(0)⟩({t})"),
            mean_and_error(&corr),
            expected,
            0.04,
        );
    }
    let worst = states
        .iter()
        .map(|s| (s.r.matrix().transpose() * s.r.matrix() - Matrix3::identity()).amax())
        .fold(0.0, f64::max);
    eprintln!(
        "max ‖RᵀR − I‖ after {} steps: {:.1} ε",
        step + 100,
        worst / f64::EPSILON
    );
    // Each step applies 10 exact rotations (two DLM palindromes) and never reprojects: the
    // rounding errors add up like a random walk, ‖RᵀR − I‖ ~ √(10 n) ε (measured 88 ε after 500
    // steps, √5000 ≈ 71).
    let bound = 4.0 * (10.0 * (step + 100) as f64).sqrt() * f64::EPSILON;
    assert!(worst <= bound, "{:.1} ε", worst / f64::EPSILON);
}

/// The same seed gives bitwise identical trajectories; another seed does not. With the `rayon`
/// feature, also 1 thread against 4 threads.
#[test]
fn bitwise_reproducible_for_a_seed() {
    let run = |seed: u64| {
        let body = coupled_body(1.0);
        let mut lang = LangevinSplitting::new(body, FreeBodies, 0.05, 16, seed).unwrap();
        let mut states = vec![LangevinState::at_rest(Vector3::zeros(), So3::identity()); 16];
        for _ in 0..200 {
            lang.step(&mut states).unwrap();
        }
        states
    };
    let a = run(5);
    let b = run(5);
    let c = run(6);
    assert!(a == b, "same seed, different trajectories");
    assert!(a != c);
    #[cfg(feature = "rayon")]
    {
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let four = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        assert!(one.install(|| run(5)) == four.install(|| run(5)));
    }
}

/// Typed errors.
#[test]
fn invalid_input_is_rejected() {
    let body = coupled_body(1.0);
    assert!(LangevinSplitting::new(body.clone(), FreeBodies, 0.0, 1, 0).is_err());
    assert!(matches!(
        LangevinSplitting::new(body.clone(), FreeBodies, 0.1, 0, 0),
        Err(ModelError::NoBodies)
    ));
    let mut lang = LangevinSplitting::new(body, FreeBodies, 0.1, 2, 0).unwrap();
    let mut three = vec![LangevinState::at_rest(Vector3::zeros(), So3::identity()); 3];
    assert!(matches!(
        lang.step(&mut three),
        Err(ModelError::DimensionMismatch { .. })
    ));
    assert!(LangevinBody::sphere(1.0, 1.0, 1.0, -1.0).is_err());
}
