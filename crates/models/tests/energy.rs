//! Energy (and, where the Lagrangian is rotation invariant, angular momentum) conservation of
//! the continuous Euler–Lagrange equations, checked with fine-step classical RK4 on the ambient
//! ODE (run by the schemes crate's RKMK engine on ℝ⁶ⁿ, which is classical RK4). Each model is
//! integrated over a stated horizon with a step small enough that RK4's own error is below the
//! tolerance; a wrong force (sign, factor, missing term) breaks conservation at O(1).
//!
//! Relative energy error: `max_t |E(t) − E₀| / max_t (T(t) + |V(t)|)` (the energy scale of the
//! run; it does not vanish for a start at rest with `V₀ = 0`). Momentum error:
//! `max_t |J(t) − J₀| / max_t Σᵢ|qᵢ × pᵢ|` for the conserved components.

// Index loops mirror the formulas (sums over bodies i, j).
#![allow(clippy::needless_range_loop)]

mod common;

use common::{Run, rk4};
use models::sphere_systems::two_vortex_velocities;
use models::{
    CoupledPendula, DipoleArray, DoubleSphericalPendulum, ElasticRod, LennardJones, NFoldPendulum,
    SphereModel, SphereNBody, SphereState, Symmetry, tangency_error, unit_length_error,
};
use nalgebra::Vector3;

const ENERGY_TOL: f64 = 1e-9;
const MOMENTUM_TOL: f64 = 1e-9;

fn check<M: SphereModel>(model: &M, x0: &SphereState, h: f64, t_end: f64) -> Run {
    let steps = (t_end / h).round() as usize;
    let run = rk4(model.system(), x0, h, steps);
    println!(
        "{}: T = {t_end}, h = {h}: energy drift {:.2e} (E0 = {:.6}), momentum drift {:?}, unit {:.1e}, tangency {:.1e}",
        model.name(),
        run.energy_drift,
        run.e0,
        run.momentum_drift.as_slice(),
        unit_length_error(&run.state.q),
        tangency_error(&run.state.q, &run.state.omega),
    );
    assert!(
        run.energy_drift <= ENERGY_TOL,
        "{}: relative energy drift {:e}",
        model.name(),
        run.energy_drift
    );
    let scale = run.momentum_scale.max(f64::MIN_POSITIVE);
    match model.symmetry() {
        Symmetry::None => {}
        Symmetry::Axial(axis) => {
            let dj = run.momentum_drift.dot(&axis.abs());
            assert!(
                dj / scale <= MOMENTUM_TOL,
                "{}: J·axis drift {:e}",
                model.name(),
                dj / scale
            );
        }
        Symmetry::Full => {
            let dj = run.momentum_drift.amax();
            assert!(
                dj / scale <= MOMENTUM_TOL,
                "{}: J drift {:e}",
                model.name(),
                dj / scale
            );
        }
    }
    run
}

#[test]
fn n_fold_pendulum_convergence_preset() {
    let (p, x0) = NFoldPendulum::convergence_experiment(2021);
    check(&p, &x0, 1e-3, 2.0);
}

#[test]
fn n_fold_pendulum_variable_step_preset() {
    // N = 5 links of length 1, released horizontally: large swings, T = 1.5.
    let (p, x0) = NFoldPendulum::variable_step_experiment(5).unwrap();
    check(&p, &x0, 1e-3, 1.5);
}

#[test]
fn n_fold_pendulum_unequal_links() {
    let p = NFoldPendulum::new(vec![0.5, 2.0, 1.0], vec![1.2, 0.4, 0.8], 9.81).unwrap();
    let x0 = SphereState::random(3, 2.0, 99);
    check(&p, &x0, 1e-4, 1.0);
}

#[test]
fn double_spherical_pendulum() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let x0 = DoubleSphericalPendulum::initial_state();
    let run = check(&p, &x0, 1e-2, 20.0);
    assert!((run.e0 + 270.22).abs() < 5e-3, "E0 = {}", run.e0);
}

#[test]
fn three_bodies_on_a_sphere() {
    let (p, x0) = SphereNBody::three_body();
    check(&p, &x0, 1e-3, 5.0);
}

#[test]
fn spring_coupled_pendula() {
    let (p, x0) = CoupledPendula::four_pendula();
    check(&p, &x0, 1e-3, 2.0);
}

#[test]
fn elastic_rod() {
    // The preset's parameters (stiff: bending frequencies ~10⁴ rad/s), so a short horizon with
    // a small step. The preset's own start has E₀ ≈ 8·10⁻⁴ J, so small against κ = 1000 that the
    // round-off of the state (~10⁻¹⁵ per step, times κ) alone gives ~10⁻⁸ relative energy
    // error over 2000 steps; the check therefore starts from the preset state with the rod
    // bent by a few degrees (E ≈ 1.4 J), which exercises the same terms.
    let (p, x) = ElasticRod::lee_leok_mcclamroch();
    let q: Vec<_> = (0..10)
        .map(|i| Vector3::new(1.0, 0.02 * (i as f64).sin(), 0.03 * (1.0 + i as f64).cos()))
        .collect();
    let x0 = SphereState::new_projected(q, x.omega.clone()).unwrap();
    check(&p, &x0, 1e-6, 2e-3);
}

#[test]
fn elastic_rod_soft_large_deflection() {
    // Soft springs: the rod sags and swings through large angles under gravity (T = 1).
    let p = ElasticRod::uniform(6, 0.055, 1.1, 0.05, 9.81, Vector3::x()).unwrap();
    let mut omega = vec![Vector3::zeros(); 6];
    omega[5] = Vector3::new(0.0, 0.0, 10.0);
    let x0 = SphereState::try_new(vec![Vector3::x(); 6], omega).unwrap();
    check(&p, &x0, 1e-4, 1.0);
}

#[test]
fn magnetic_dipoles() {
    let (p, x0) = DipoleArray::grid_4x4();
    check(&p, &x0, 2e-3, 2.0);
}

#[test]
fn lennard_jones_162() {
    // The 2-fold subdivided icosphere (162 molecules) with the preset's vortices.
    let (p, q) = LennardJones::on_icosphere(2, 0.01, None).unwrap();
    let omega = two_vortex_velocities(&q, 30f64.to_radians(), 1.0, 15f64.to_radians());
    let x0 = SphereState::try_new(q, omega).unwrap();
    check(&p, &x0, 5e-3, 1.0);
}

#[test]
fn lennard_jones_642_preset_short() {
    let (p, x0) = LennardJones::icosphere_642();
    check(&p, &x0, 2.5e-3, 0.1);
}

#[test]
fn lennard_jones_with_cutoff() {
    let (p, q) = LennardJones::on_icosphere(2, 0.01, Some(0.5)).unwrap();
    let omega = two_vortex_velocities(&q, 30f64.to_radians(), 0.5, 15f64.to_radians());
    let x0 = SphereState::try_new(q, omega).unwrap();
    assert!(p.cutoff() == Some(0.5));
    check(&p, &x0, 5e-3, 1.0);
}
