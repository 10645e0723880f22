//! Discrete Lagrange–d'Alembert integrators on SE(2), SE(2) × ℝ and SO(3): discrete
//! constraints, the discrete nonholonomic momentum equation (D5), observed order 2, and the
//! energy-conserving extended integrator (E2).

use liegroup::{LieGroup, Rn, Se2, So3, VectorSpace};
use models::nonholonomic::{
    ChaplyginSleigh, KnifeEdge, NonholonomicParticle, SuslovProblem, VerticalRollingDisk,
    constraint_residual,
};
use nalgebra::{Matrix3, Vector1, Vector2, Vector3};
use schemes::fit_order;
use schemes::nonholonomic::{
    DlaIntegrator, DlaState, EnergyDlaIntegrator, LieNonholonomicSystem, NewtonOptions,
    discrete_energy,
};

fn sleigh_start() -> (ChaplyginSleigh, DlaState<Se2<f64>>) {
    let s = ChaplyginSleigh::preset();
    let g0 = Se2::from_angle_translation(0.2, Vector2::zeros());
    let x0 = DlaState::new(&s, 0.0, g0, Vector3::new(1.5, 0.4, 0.0));
    (s, x0)
}

fn se2_distance(a: &Se2<f64>, b: &Se2<f64>) -> f64 {
    let da = a.rotation().inverse().compose(&b.rotation()).angle().abs();
    da.max((a.translation() - b.translation()).norm())
}

fn final_state<S: LieNonholonomicSystem + Clone>(
    s: &S,
    x0: &DlaState<S::Group>,
    t: f64,
    n: usize,
) -> DlaState<S::Group> {
    let mut dla = DlaIntegrator::new(s.clone(), NewtonOptions::default()).unwrap();
    let mut x = x0.clone();
    for _ in 0..n {
        x = dla.step(&x, t / n as f64).unwrap();
    }
    x
}

/// (D5): `J_{k+1} − J_k = λ^k coadjoint(g_k, ω(g_k))` with `J_k = coadjoint(g_k, p_k⁻)`, i.e.
/// `⟨J_{k+1} − J_k, ζ⟩ = λ^k ⟨ω, Ad_{g_k⁻¹}ζ⟩` for all ζ; returns the max residual.
fn momentum_equation_residual<S: LieNonholonomicSystem>(s: &S, traj: &[DlaState<S::Group>]) -> f64 {
    let mut worst: f64 = 0.0;
    for w in traj.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let mut lhs = b.g.coadjoint(&b.p);
        lhs.add_scaled(-1.0, &a.g.coadjoint(&a.p));
        for (k, l) in b.lambda.iter().enumerate() {
            lhs.add_scaled(-l, &a.g.coadjoint(&s.constraint_form(&a.g, k)));
        }
        let mut c = vec![0.0; lhs.dim()];
        lhs.write_coords(&mut c);
        let scale = a.p.inner(&a.p).sqrt().max(1.0);
        worst = worst.max(c.iter().fold(0.0_f64, |m, v| m.max(v.abs())) / scale);
    }
    worst
}

#[test]
fn sleigh_constraints_momentum_equation_and_order_two() {
    let (s, x0) = sleigh_start();
    let t = 3.0;
    let mut dla = DlaIntegrator::new(s, NewtonOptions::default()).unwrap();
    let traj = dla.integrate(&x0, 0.01, 300).unwrap();
    let c = traj
        .iter()
        .map(|x| constraint_residual(&s, &x.g, &x.xi))
        .fold(0.0, f64::max);
    let mom = momentum_equation_residual(&s, &traj);
    println!("sleigh: max |v_k| = {c:.2e}, max momentum-equation residual = {mom:.2e}");
    assert!(c < 1e-14);
    assert!(mom < 1e-13);
    // Order against a fine reference (same method, 32× finer than the finest run).
    let reference = final_state(&s, &x0, t, 12_800);
    let ns = [50, 100, 200, 400];
    let h: Vec<f64> = ns.iter().map(|n| t / *n as f64).collect();
    let err: Vec<f64> = ns
        .iter()
        .map(|&n| se2_distance(&final_state(&s, &x0, t, n).g, &reference.g))
        .collect();
    let fit = fit_order(&h, &err, 1e-13).unwrap();
    println!(
        "sleigh DLA errors {:?}, order {:.3}",
        err.iter().map(|e| format!("{e:.3e}")).collect::<Vec<_>>(),
        fit.slope
    );
    assert!((fit.slope - 2.0).abs() < 0.2);
}

#[test]
fn knife_edge_order_two_against_exact_solution() {
    let k = KnifeEdge::new(1.0, 0.3, 9.81, 0.3).unwrap();
    let g0 = Se2::from_angle_translation(0.1, Vector2::new(0.2, -0.1));
    let xi0 = Vector3::new(1.3, 0.5, 0.0);
    let x0 = DlaState::new(&k, 0.0, g0, xi0);
    let t = 2.0;
    let (exact, _) = k.exact(&g0, &xi0, t).unwrap();
    let ns = [50, 100, 200, 400];
    let h: Vec<f64> = ns.iter().map(|n| t / *n as f64).collect();
    let err: Vec<f64> = ns
        .iter()
        .map(|&n| se2_distance(&final_state(&k, &x0, t, n).g, &exact))
        .collect();
    let fit = fit_order(&h, &err, 1e-13).unwrap();
    println!(
        "knife edge DLA errors vs exact {:?}, order {:.3}",
        err.iter().map(|e| format!("{e:.3e}")).collect::<Vec<_>>(),
        fit.slope
    );
    assert!((fit.slope - 2.0).abs() < 0.2);
    // Discrete constraint at round-off on the way.
    let mut dla = DlaIntegrator::new(k, NewtonOptions::default()).unwrap();
    let traj = dla.integrate(&x0, 0.02, 100).unwrap();
    let c = traj
        .iter()
        .map(|x| constraint_residual(&k, &x.g, &x.xi))
        .fold(0.0, f64::max);
    assert!(c < 1e-14, "{c}");
}

#[test]
fn rolling_disk_order_two_against_exact_solution() {
    // ξ ≡ ξ₀ solves (D4) once p_k⁻ = (dexp⁻¹_{−hξ₀})*μ (then p⁺ − p⁻ = −h ad*_ξ μ ∈ span e_v*),
    // but the start p₀⁻ = μ(ξ₀) is an O(h²) perturbation of it: order 2 against the exact
    // solution (M4).
    let d = VerticalRollingDisk::new(1.0, 0.5, 0.25, 0.125).unwrap();
    let g0 = (
        Se2::from_angle_translation(0.3, Vector2::new(1.0, -0.5)),
        Rn(Vector1::new(0.2)),
    );
    let xi0 = (Vector3::new(0.9, 0.5 * 1.7, 0.0), Vector1::new(1.7));
    let x0 = DlaState::new(&d, 0.0, g0, xi0);
    let t = 5.0;
    let exact = d.exact(&g0, &xi0, t).unwrap();
    let ns = [50, 100, 200, 400];
    let h: Vec<f64> = ns.iter().map(|n| t / *n as f64).collect();
    let mut err = Vec::new();
    for &n in &ns {
        let mut dla = DlaIntegrator::new(d, NewtonOptions::default()).unwrap();
        let traj = dla.integrate(&x0, t / n as f64, n).unwrap();
        let cons = traj
            .iter()
            .map(|x| constraint_residual(&d, &x.g, &x.xi))
            .fold(0.0, f64::max);
        assert!(cons < 1e-14, "{cons}");
        assert!(momentum_equation_residual(&d, &traj) < 1e-13);
        let x = traj.last().unwrap();
        err.push(se2_distance(&x.g.0, &exact.0).max((x.g.1.0 - exact.1.0).norm()));
    }
    let fit = fit_order(&h, &err, 1e-13).unwrap();
    println!(
        "rolling disk DLA errors vs exact {:?}, order {:.3}",
        err.iter().map(|e| format!("{e:.3e}")).collect::<Vec<_>>(),
        fit.slope
    );
    assert!((fit.slope - 2.0).abs() < 0.2);
}

#[test]
fn suslov_constraint_momentum_equation_and_energy() {
    let inertia = Matrix3::new(2.0, 0.3, 0.2, 0.3, 1.5, 0.1, 0.2, 0.1, 1.0);
    let s = SuslovProblem::new(inertia, Vector3::z()).unwrap();
    let x0 = DlaState::new(&s, 0.0, So3::identity(), Vector3::new(0.7, -0.4, 0.0));
    let mut dla = DlaIntegrator::new(s, NewtonOptions::default()).unwrap();
    let traj = dla.integrate(&x0, 0.05, 2000).unwrap();
    let c = traj
        .iter()
        .map(|x| constraint_residual(&s, &x.g, &x.xi))
        .fold(0.0, f64::max);
    let mom = momentum_equation_residual(&s, &traj);
    let e0 = s.energy(&x0.g, &x0.xi);
    let de = traj
        .iter()
        .map(|x| (s.energy(&x.g, &x.xi) - e0).abs() / e0)
        .fold(0.0, f64::max);
    println!("suslov: constraint {c:.2e}, momentum eq {mom:.2e}, max rel energy error {de:.2e}");
    assert!(c < 1e-14);
    assert!(mom < 1e-13);
    assert!(de < 1e-2);
}

fn run_edla<S: LieNonholonomicSystem + Clone>(
    s: &S,
    x0: &DlaState<S::Group>,
    h0: f64,
    steps: usize,
) -> (f64, Vec<f64>, f64) {
    let (mut e, mut x) =
        EnergyDlaIntegrator::start(s.clone(), NewtonOptions::default(), x0, h0).unwrap();
    let e0 = e.energy();
    let mut hs = vec![x.h];
    let mut worst: f64 = 0.0;
    for _ in 1..steps {
        let next = e.step(&x).unwrap();
        let ek = discrete_energy(s, &x.g, &next.xi, next.h);
        worst = worst.max((ek - e0).abs() / e0.abs());
        hs.push(next.h);
        x = next;
    }
    (worst, hs, e0)
}

fn summary(hs: &[f64]) -> String {
    let min = hs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = hs.iter().copied().fold(0.0, f64::max);
    let mean = hs.iter().sum::<f64>() / hs.len() as f64;
    let pick: Vec<String> = [0, 1, 2, hs.len() / 2, hs.len() - 1]
        .iter()
        .map(|&i| format!("h[{i}]={:.6}", hs[i]))
        .collect();
    format!(
        "min {min:.6}, max {max:.6}, mean {mean:.6}; {}",
        pick.join(", ")
    )
}

#[test]
fn extended_dla_on_the_sleigh_reports_the_fold_as_a_typed_error() {
    // Without a potential the step enters the sleigh's discrete energy only through the
    // bracket term, dE/dh = (h/2)⟨μ, [ξ', ξ]⟩ + O(h²), which changes sign: the energy equation
    // loses its root (a fold, [KMO99]'s solvability warning). Until then E_k = E₀ to round-off;
    // at the fold the solver returns a typed error instead of a wrong step.
    let (s, x0) = sleigh_start();
    let (mut e, mut x) =
        EnergyDlaIntegrator::start(s, NewtonOptions::default(), &x0, 0.01).unwrap();
    let e0 = e.energy();
    let mut worst: f64 = 0.0;
    let mut steps = 0;
    let err = loop {
        match e.step(&x) {
            Ok(next) => {
                let ek = discrete_energy(&s, &x.g, &next.xi, next.h);
                worst = worst.max((ek - e0).abs() / e0.abs());
                x = next;
                steps += 1;
                assert!(steps < 100_000, "no fold found");
            }
            Err(err) => break err,
        }
    };
    println!(
        "EDLA sleigh: {steps} steps to t = {:.4} with max rel energy error {worst:.2e}, then {err}",
        x.t
    );
    assert!(worst <= 1e-12);
    assert!(matches!(
        err,
        schemes::SchemeError::NonConvergence { .. } | schemes::SchemeError::StepTooLarge { .. }
    ));
}

#[test]
fn extended_dla_on_the_nonholonomic_particle() {
    let p = NonholonomicParticle::new(0.1).unwrap();
    let x0 = DlaState::new(
        &p,
        0.0,
        Rn(Vector3::new(0.3, 0.5, -0.2)),
        Vector3::new(0.7, -0.4, 0.35),
    );
    let steps: usize = std::env::var("NONHOL_EDLA_STEPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let (worst, hs, e0) = run_edla(&p, &x0, 0.04, steps);
    println!(
        "EDLA particle, {steps} steps: E0 = {e0:.15}, max rel error {worst:.2e}; steps {}",
        summary(&hs)
    );
    assert!(worst <= 1e-12);
}

#[test]
fn extended_dla_conserves_energy_with_a_potential() {
    let k = KnifeEdge::new(1.0, 0.3, 9.81, 0.3).unwrap();
    let g0 = Se2::from_angle_translation(0.1, Vector2::new(0.2, -0.1));
    let x0 = DlaState::new(&k, 0.0, g0, Vector3::new(1.3, 0.5, 0.0));
    let (worst, hs, e0) = run_edla(&k, &x0, 0.01, 5_000);
    println!(
        "EDLA knife edge: E0 = {e0:.15}, max rel error {worst:.2e}; steps {}",
        summary(&hs)
    );
    assert!(worst <= 1e-12);
    let min = hs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = hs.iter().copied().fold(0.0, f64::max);
    assert!(max > min * 1.001, "the steps should vary with a potential");
}

/// Issue 19 #13: with [`EnergyDlaIntegrator::step_or_fallback`] the energy-conserving
/// integrator runs the sleigh through the fold to t = 100. Checked from the mathematics:
/// the constraint holds on every step whatever kind it is (both kinds solve (D4)'s constraint
/// equation); every step that solved (E2) keeps the discrete energy at `E₀` to solver
/// tolerance; the fallback steps are the fixed-step DLA steps, whose energy error is that of
/// the fixed-step DLA method, so the run's worst energy error is no larger than that of a
/// fixed-step DLA run to the same time with the largest step the run used.
#[test]
fn energy_conserving_sleigh_runs_through_the_fold_to_t_100() {
    use schemes::nonholonomic::EnergyStepKind;
    let (s, x0) = sleigh_start();
    let h0 = 0.01;
    let (mut e, mut x) = EnergyDlaIntegrator::start(s, NewtonOptions::default(), &x0, h0).unwrap();
    let e0 = e.energy();
    let exact_energy = s.energy(&x0.g, &x0.xi);
    let mut worst_conserving: f64 = 0.0;
    let mut worst_energy: f64 = 0.0;
    let mut worst_constraint: f64 = 0.0;
    let mut first_fallback = None;
    let (mut h_max, mut steps, mut shrunk) = (h0, 0_usize, 0_usize);
    while x.t < 100.0 {
        let (next, kind) = e.step_or_fallback(&x).unwrap();
        let ek = discrete_energy(&s, &x.g, &next.xi, next.h);
        match kind {
            EnergyStepKind::Conserving => {
                worst_conserving = worst_conserving.max((ek - e0).abs() / e0.abs());
            }
            EnergyStepKind::ConservingAfterShrink { .. } => {
                shrunk += 1;
                worst_conserving = worst_conserving.max((ek - e0).abs() / e0.abs());
            }
            _ => {
                first_fallback.get_or_insert(x.t);
            }
        }
        worst_energy = worst_energy.max((s.energy(&next.g, &next.xi) - exact_energy).abs());
        worst_constraint = worst_constraint.max(constraint_residual(&s, &next.g, &next.xi));
        h_max = h_max.max(next.h);
        x = next;
        steps += 1;
        assert!(steps < 1_000_000, "the step collapsed: t = {}", x.t);
    }
    // The fixed-step DLA reference run with the largest step used.
    let n_ref = (100.0 / h_max).ceil() as usize;
    let mut dla = DlaIntegrator::new(s, NewtonOptions::default()).unwrap();
    let mut y = x0.clone();
    let mut worst_dla: f64 = 0.0;
    for _ in 0..n_ref {
        y = dla.step(&y, h_max).unwrap();
        worst_dla = worst_dla.max((s.energy(&y.g, &y.xi) - exact_energy).abs());
    }
    println!(
        "EDLA sleigh with fallback: {steps} steps to t = {:.3}, {} fallback steps (first at t = {:.3}), \
         {shrunk} after a shrunk predictor; max rel (E_k − E₀) on conserving steps {worst_conserving:.2e}; \
         max |E − E(0)| {worst_energy:.3e} (fixed-step DLA with h = {h_max:.4}: {worst_dla:.3e}); \
         max constraint residual {worst_constraint:.2e}",
        x.t,
        e.fallback_steps(),
        first_fallback.unwrap_or(f64::NAN)
    );
    assert!(x.t >= 100.0);
    assert!(worst_conserving <= 1e-12);
    assert!(worst_constraint <= 1e-13);
    assert!(worst_energy <= worst_dla * 1.01 + 1e-14);
}
