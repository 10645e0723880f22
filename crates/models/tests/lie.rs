//! The Lie group formulation run by the schemes engines: RKMK4 and CF4 on (TS²)ⁿ under
//! SE(3)ⁿ (`VecPowerAction<TangentSphereAction>`, and the fixed-size `PowerAction`) keep unit
//! length and tangency at round-off, conserve energy to the accuracy of the step, and agree with
//! classical RK4 on the ambient ODE (the same equations, another discretization).

mod common;

use homogeneous::{PowerAction, TangentSphere2, TangentSphereAction, VecPowerAction};
use models::{
    DoubleSphericalPendulum, LieField, NFoldPendulum, SphereModel, SphereNBody, SphereState,
    tangency_error, unit_length_error,
};
use schemes::{Options, Problem, integrate_with_observer};

fn run_lie<M: SphereModel>(model: &M, x0: &SphereState, method: &str, h: f64, steps: usize) {
    type A = VecPowerAction<TangentSphereAction>;
    let sys = model.system();
    let problem = Problem::new(A::new(TangentSphereAction::new()), LieField::new(sys));
    let mut stepper = schemes::methods::find(method).unwrap().stepper::<A>();
    let e0 = sys.energy(&x0.q, &x0.omega);
    let mut scale = sys.kinetic_energy(&x0.q, &x0.omega) + sys.potential_energy(&x0.q).abs();
    let (mut de, mut unit, mut tan) = (0.0_f64, 0.0_f64, 0.0_f64);
    let sol = integrate_with_observer(
        &problem,
        &mut stepper,
        0.0,
        x0.to_tangent_points(),
        h * steps as f64,
        &Options::count(steps).save_final(),
        |_t, y: &Vec<TangentSphere2>| {
            let s = SphereState::from_tangent_points(y);
            let (t, v) = (
                sys.kinetic_energy(&s.q, &s.omega),
                sys.potential_energy(&s.q),
            );
            de = de.max((t + v - e0).abs());
            scale = scale.max(t + v.abs());
            unit = unit.max(unit_length_error(&s.q));
            tan = tan.max(
                tangency_error(&s.q, &s.omega)
                    / s.omega.iter().map(|w| w.norm()).fold(1.0, f64::max),
            );
        },
    )
    .unwrap();
    // The ambient RK4 reference with the same step.
    let amb = common::rk4(sys, x0, h, steps);
    let lie_end = SphereState::from_tangent_points(sol.last().1);
    let diff = lie_end
        .q
        .iter()
        .zip(&amb.state.q)
        .chain(lie_end.omega.iter().zip(&amb.state.omega))
        .map(|(a, b)| (a - b).amax())
        .fold(0.0, f64::max);
    println!(
        "{} / {method}: h = {h}, {steps} steps: energy {:.1e}, unit {unit:.1e}, tangency {tan:.1e}, |Lie − ambient RK4| {diff:.1e}",
        model.name(),
        de / scale
    );
    assert!(unit <= 1e-13, "unit length {unit:e}");
    assert!(tan <= 1e-13, "tangency {tan:e}");
    assert!(de / scale <= 1e-9, "energy {:e}", de / scale);
    assert!(diff <= 1e-8, "Lie and ambient solutions differ by {diff:e}");
}

#[test]
fn rkmk4_and_cf4_on_presets() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let x0 = DoubleSphericalPendulum::initial_state();
    run_lie(&p, &x0, "rkmk4", 1e-2, 1000);
    run_lie(&p, &x0, "cf4", 1e-2, 1000);
    let (p, x0) = NFoldPendulum::convergence_experiment(5);
    run_lie(&p, &x0, "rkmk4", 1e-3, 1000);
    let (p, x0) = NFoldPendulum::variable_step_experiment(8).unwrap();
    run_lie(&p, &x0, "cf4", 5e-4, 1000);
    let (p, x0) = SphereNBody::three_body();
    run_lie(&p, &x0, "rkmk4", 1e-3, 2000);
}

/// The fixed-size power action `PowerAction<TangentSphereAction, N>` with arrays.
#[test]
fn fixed_size_power_action() {
    type A = PowerAction<TangentSphereAction, 2>;
    let (p, x0) = NFoldPendulum::convergence_experiment(3);
    let sys = p.system();
    let problem = Problem::new(A::new(TangentSphereAction::new()), LieField::new(sys));
    let mut stepper = schemes::methods::find("rkmk4").unwrap().stepper::<A>();
    let pts = x0.to_tangent_points();
    let y0 = [pts[0], pts[1]];
    let sol = schemes::integrate(
        &problem,
        &mut stepper,
        0.0,
        y0,
        1.0,
        &Options::count(1000).save_final(),
    )
    .unwrap();
    let y = sol.last().1;
    let s = SphereState::from_tangent_points(y);
    let e0 = sys.energy(&x0.q, &x0.omega);
    let e = sys.energy(&s.q, &s.omega);
    assert!((e - e0).abs() <= 1e-9 * e0.abs().max(1.0));
    assert!(unit_length_error(&s.q) <= 1e-14);
}
