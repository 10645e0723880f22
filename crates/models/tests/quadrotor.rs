//! Two quadrotors carrying a point load [CCLMO22, §6], [LSK13]: the equations balance the input
//! power, the Lie group and ambient formulations agree, the attitude-command rates are the time
//! derivatives of the attitude command, the Lie group run stays on the manifold, and the
//! geometric controller makes the load track the parabola of the paper.

mod common;

use common::Rng;
use homogeneous::{Action, LieVectorField, ManifoldPoint};
use liegroup::{LieGroup, So3, hat};
use models::quadrotor::{QuadrotorAction, QuadrotorAmbientAction};
use models::{QuadrotorLoad, QuadrotorState, ThrustModel};
use nalgebra::{Matrix3, SVector, Vector3};
use schemes::methods::find;
use schemes::{Options, integrate, integrate_with_observer};

fn random_state(rng: &mut Rng) -> QuadrotorState {
    let q: [Vector3<f64>; 2] = core::array::from_fn(|_| {
        // Links pointing down (towards the load), as in flight.
        let mut u = rng.unit();
        u.z = u.z.abs() + 0.5;
        u.normalize()
    });
    let omega = core::array::from_fn(|i| {
        let w = rng.vec3() * 2.0;
        w - q[i] * q[i].dot(&w)
    });
    QuadrotorState::try_new(
        rng.vec3() * 2.0,
        rng.vec3(),
        core::array::from_fn(|_| So3::exp(&(rng.vec3() * 0.5))),
        core::array::from_fn(|_| rng.vec3()),
        q,
        omega,
    )
    .unwrap()
}

/// `dE/dt` computed from the rates, to compare with the input power.
fn energy_rate(
    model: &QuadrotorLoad,
    x: &QuadrotorState,
    forces: &[Vector3<f64>; 2],
    moments: &[Vector3<f64>; 2],
) -> (f64, f64) {
    let r = model.open_loop_rates(x, forces, moments);
    let (my, m, l, g) = (
        model.load_mass(),
        model.masses(),
        model.lengths(),
        model.g(),
    );
    let e3 = Vector3::z();
    let mut de = my * x.v.dot(&r.acceleration) - my * g * e3.dot(&x.v);
    let mut scale = (my * x.v.dot(&r.acceleration)).abs() + (my * g * e3.dot(&x.v)).abs();
    for i in 0..2 {
        let qd = r.q_dot[i];
        let qdd = r.omega_dot[i].cross(&x.q[i]) + x.omega[i].cross(&qd);
        let xd = x.v - qd * l[i];
        let xdd = r.acceleration - qdd * l[i];
        let terms = [
            m[i] * xd.dot(&xdd),
            x.body_rate[i].dot(&(model.inertia()[i] * r.body_rate_dot[i])),
            -m[i] * g * e3.dot(&xd),
        ];
        de += terms.iter().sum::<f64>();
        scale += terms.iter().map(|t| t.abs()).sum::<f64>();
    }
    (de, scale)
}

#[test]
fn equations_of_motion_balance_the_input_power() {
    let mut rng = Rng::new(11);
    for thrust in [ThrustModel::Attitude, ThrustModel::Commanded] {
        let model = QuadrotorLoad::cclmo22().with_thrust_model(thrust);
        for _ in 0..20 {
            let x = random_state(&mut rng);
            let forces = [rng.vec3() * 10.0, rng.vec3() * 10.0];
            let moments = [rng.vec3(), rng.vec3()];
            let (de, scale) = energy_rate(&model, &x, &forces, &moments);
            let p = model.power(&x, &forces, &moments);
            assert!((de - p).abs() <= 1e-13 * scale, "dE/dt = {de}, power = {p}");
            // Without inputs the system is conservative.
            let zero = [Vector3::zeros(); 2];
            let (de0, scale0) = energy_rate(&model, &x, &zero, &zero);
            assert!(de0.abs() <= 1e-13 * scale0, "free dE/dt = {de0}");
        }
        // The closed loop: the applied forces and the controller's moments.
        for _ in 0..20 {
            let x = random_state(&mut rng);
            let t = 5.0 * rng.sym().abs();
            let (rates, out) = model.closed_loop(t, &x);
            let open = model.open_loop_rates(&x, &out.applied_force, &out.moment);
            assert_eq!(rates, open);
            let (de, scale) = energy_rate(&model, &x, &out.applied_force, &out.moment);
            let p = model.power(&x, &out.applied_force, &out.moment);
            assert!(
                (de - p).abs() <= 1e-12 * scale,
                "closed loop: dE/dt = {de}, power = {p}"
            );
        }
    }
}

#[test]
fn lie_and_ambient_formulations_agree() {
    let model = QuadrotorLoad::cclmo22();
    let lie = model.lie();
    let amb = model.ambient();
    let mut rng = Rng::new(5);
    for _ in 0..20 {
        let x = random_state(&mut rng);
        let t = 5.0 * rng.sym().abs();
        let p = x.to_point();
        let mut f = lie.action.algebra_zero(&p);
        lie.field.eval(t, &p, &mut f);
        let (dyv, drw, dqw) = lie.action.generator(&f, &p);
        let a = x.to_ambient();
        let mut da = SVector::<f64, 42>::zeros();
        amb.field.eval(t, &a, &mut da);
        let amb_gen = amb.action.generator(&da, &a);
        // Map the Lie generator to ambient coordinates.
        let mut from_lie = SVector::<f64, 42>::zeros();
        let s = from_lie.as_mut_slice();
        s[0..6].copy_from_slice(dyv.as_slice());
        for i in 0..2 {
            let o = 6 + 12 * i;
            // Left multiplication: the tangent is the right-trivialized ξ, Ṙ = ξ̂ R.
            let r_dot = hat(&drw[i].0) * x.attitude[i].matrix();
            s[o..o + 9].copy_from_slice(r_dot.as_slice());
            s[o + 9..o + 12].copy_from_slice(drw[i].1.as_slice());
            let o = 30 + 6 * i;
            s[o..o + 6].copy_from_slice(dqw[i].as_slice());
        }
        let err = (from_lie - amb_gen).amax() / amb_gen.amax();
        assert!(err <= 1e-12, "relative difference {err:e}");
    }
}

#[test]
fn rate_commands_are_the_derivatives_of_the_attitude_command() {
    // Central differences of R_c and Ω_c along the actual flow, with the state advanced by
    // classical RK4 on the ambient ODE (RKMK on ℝ⁴² is classical RK). The AD values are exact,
    // so the difference shrinks like δ² (by ~100 from δ = 10⁻³ to 10⁻⁴).
    let model = QuadrotorLoad::cclmo22();
    let amb = model.ambient();
    let mut rng = Rng::new(3);
    for _ in 0..5 {
        let x0 = random_state(&mut rng);
        let t0 = 1.0 + rng.sym().abs();
        let advance = |dt: f64| {
            let mut s = find("rkmk4").unwrap().stepper::<QuadrotorAmbientAction>();
            let opts = Options::count(20).save_final();
            let sol = integrate(&amb, &mut s, t0, x0.to_ambient(), t0 + dt, &opts).unwrap();
            QuadrotorState::from_ambient(sol.last().1)
        };
        let errors = |delta: f64| {
            // Central differences at t = t0 + δ from the states at t0, t0 + δ, t0 + 2δ.
            let (x, xp) = (advance(delta), advance(2.0 * delta));
            let (_, out) = model.closed_loop(t0 + delta, &x);
            let (_, out_p) = model.closed_loop(t0 + 2.0 * delta, &xp);
            let (_, out_m) = model.closed_loop(t0, &x0);
            let mut e = [0.0_f64; 2];
            for i in 0..2 {
                let rc = out.attitude_command[i];
                let rc_dot =
                    (out_p.attitude_command[i] - out_m.attitude_command[i]) / (2.0 * delta);
                let w_fd = liegroup::vee(&(rc.transpose() * rc_dot));
                let w_dot_fd = (out_p.rate_command[i] - out_m.rate_command[i]) / (2.0 * delta);
                let scale = out.rate_command[i].norm().max(1.0);
                let scale_dot = out.rate_command_dot[i].norm().max(1.0);
                e[0] = e[0].max((w_fd - out.rate_command[i]).norm() / scale);
                e[1] = e[1].max((w_dot_fd - out.rate_command_dot[i]).norm() / scale_dot);
            }
            e
        };
        let (coarse, fine) = (errors(1e-3), errors(1e-4));
        println!(
            "Ω_c vs FD: {:.1e} → {:.1e}; Ω̇_c vs FD: {:.1e} → {:.1e}",
            coarse[0], fine[0], coarse[1], fine[1]
        );
        for k in 0..2 {
            assert!(fine[k] <= 2e-5, "FD error {:e}", fine[k]);
            assert!(
                fine[k] <= coarse[k] / 30.0,
                "no δ² decay: {:e} → {:e}",
                coarse[k],
                fine[k]
            );
        }
    }
}

/// Runs the closed loop of [CCLMO22, §6.2] with RKMK4 (`steps` steps to T = 5) on the Lie group
/// formulation; returns (max |y − y_d| on [3, 5], |y − y_d| at T, final state, TS² constraint
/// error, orthogonality error).
fn track(thrust: ThrustModel, steps: usize) -> (f64, f64, QuadrotorState, f64, f64) {
    let model = QuadrotorLoad::cclmo22().with_thrust_model(thrust);
    let problem = model.lie();
    let x0 = QuadrotorLoad::cclmo22_state();
    let mut s = find("rkmk4").unwrap().stepper::<QuadrotorAction>();
    let (mut worst_after, mut manifold, mut ortho) = (0.0_f64, 0.0_f64, 0.0_f64);
    let mut report = vec![];
    let sol = integrate_with_observer(
        &problem,
        &mut s,
        0.0,
        x0.to_point(),
        5.0,
        &Options::count(steps).save_final(),
        |t, p| {
            let x = QuadrotorState::from_point(p);
            let e = model.tracking_error(t, &x);
            if t >= 3.0 {
                worst_after = worst_after.max(e);
            }
            if (2.0 * t - (2.0 * t).round()).abs() < 1e-9 {
                let rc = model.attitude_command(t, &x);
                let psi = (0..2)
                    .map(|i| {
                        0.5 * (Matrix3::identity() - rc[i].transpose() * x.attitude[i].matrix())
                            .trace()
                    })
                    .fold(0.0, f64::max);
                report.push(format!("t = {t:.1}: |y − y_d| = {e:.2e}, Ψ = {psi:.1e}"));
            }
            manifold = manifold.max(p.2.constraint_error());
            for i in 0..2 {
                let r = x.attitude[i].matrix();
                ortho = ortho.max((r.transpose() * r - Matrix3::identity()).amax());
            }
        },
    )
    .unwrap();
    let x = QuadrotorState::from_point(sol.last().1);
    let e_end = model.tracking_error(5.0, &x);
    println!("{thrust:?}: {}", report.join("; "));
    println!(
        "{thrust:?}: max |y − y_d| on [3, 5] = {worst_after:.2e}, at T = 5: {e_end:.2e}; \
         TS² constraint {manifold:.1e}, RᵀR − I {ortho:.1e}"
    );
    (worst_after, e_end, x, manifold, ortho)
}

#[test]
fn geometric_controller_tracks_the_parabola() {
    // Full model (thrust along the actual body axis, attitudes by the geometric controller).
    // Its transient passes near the singularity of the formation frame (|F_d| ≈ 0.055 at
    // t ≈ 1.15, Ω_c up to ~60 rad/s): h = 2.5·10⁻⁴ is converged there (h ≥ 5·10⁻⁴ is not).
    let (after, end, x, manifold, ortho) = track(ThrustModel::Attitude, 20_000);
    assert!(after <= 0.05, "max tracking error on [3, 5] = {after:e}");
    assert!(end <= 2e-3, "tracking error at T = 5: {end:e}");
    assert!(
        manifold <= 1e-13 && ortho <= 1e-13,
        "{manifold:e}, {ortho:e}"
    );
    // The links settle at the desired directions ±30° from the vertical.
    let (s, c) = 30f64.to_radians().sin_cos();
    assert!((x.q[0] - Vector3::new(s, 0.0, c)).norm() < 0.02);
    assert!((x.q[1] - Vector3::new(-s, 0.0, c)).norm() < 0.02);
    // The simplified model of the paper's experiment (commanded forces applied directly).
    let (after, end, ..) = track(ThrustModel::Commanded, 5_000);
    assert!(after <= 1e-2, "max tracking error on [3, 5] = {after:e}");
    assert!(end <= 1e-4, "tracking error at T = 5: {end:e}");
}

#[test]
fn lie_rkmk4_and_ambient_rk4_converge_to_the_same_solution() {
    // RKMK4 on the group and classical RK4 on ℝ⁴² over the first second of the transient
    // (before the near-singular stretch): the step error drops by ~16 when h halves, and the two
    // formulations agree to that size.
    let model = QuadrotorLoad::cclmo22();
    let x0 = QuadrotorLoad::cclmo22_state();
    let t_end = 1.0;
    let lie_run = |n: usize| {
        let mut s = find("rkmk4").unwrap().stepper::<QuadrotorAction>();
        let opts = Options::count(n).save_final();
        let sol = integrate(&model.lie(), &mut s, 0.0, x0.to_point(), t_end, &opts).unwrap();
        QuadrotorState::from_point(sol.last().1).to_ambient().0
    };
    let amb_run = |n: usize| {
        let mut s = find("rkmk4").unwrap().stepper::<QuadrotorAmbientAction>();
        let opts = Options::count(n).save_final();
        let sol = integrate(&model.ambient(), &mut s, 0.0, x0.to_ambient(), t_end, &opts).unwrap();
        sol.last().1.0
    };
    let (l1, l2, l4) = (lie_run(500), lie_run(1000), lie_run(4000));
    let (e1, e2) = ((l1 - l4).amax(), (l2 - l4).amax());
    let d = (l2 - amb_run(1000)).amax();
    println!(
        "RKMK4 error at h = 2e-3: {e1:.2e}, at h = 1e-3: {e2:.2e} (ratio {:.1}); \
         |Lie − ambient| at h = 1e-3: {d:.2e}",
        e1 / e2
    );
    assert!(
        e1 / e2 > 12.0,
        "RKMK4 not in its asymptotic regime: {e1:e} → {e2:e}"
    );
    assert!(d <= 20.0 * e2, "Lie and ambient solutions differ by {d:e}");
}

#[test]
fn hovering_formation_is_an_equilibrium() {
    // Load at the hover point, links at the desired directions, attitudes at the command:
    // the closed loop stays there (thrusts balance weights and link tensions exactly).
    let point = Vector3::new(1.0, -2.0, -3.0);
    let base = QuadrotorLoad::cclmo22();
    let model = QuadrotorLoad::new(
        base.load_mass(),
        base.masses(),
        base.lengths(),
        base.inertia(),
        base.g(),
        *base.controller(),
        models::quadrotor::HoverPath { point },
    )
    .unwrap();
    let r = model.controller().link_directions();
    let mut x = QuadrotorState::try_new(
        point,
        Vector3::zeros(),
        [So3::identity(); 2],
        [Vector3::zeros(); 2],
        r,
        [Vector3::zeros(); 2],
    )
    .unwrap();
    let rc = model.attitude_command(0.0, &x);
    x.attitude = [0, 1].map(|i| So3::try_from_matrix(rc[i]).unwrap());
    let (rates, out) = model.closed_loop(0.0, &x);
    assert!(rates.acceleration.amax() < 1e-12 && out.rate_command[0].amax() < 1e-12);
    // Together the rotors carry the weight of the whole system.
    let vertical: f64 = out.applied_force.iter().map(|f| -f.z).sum();
    let total = (model.load_mass() + model.masses().iter().sum::<f64>()) * model.g();
    assert!(
        (vertical - total).abs() < 1e-12 * total,
        "{vertical} vs {total}"
    );
    let mut s = find("cf4").unwrap().stepper::<QuadrotorAction>();
    let sol = integrate(
        &model.lie(),
        &mut s,
        0.0,
        x.to_point(),
        2.0,
        &Options::count(200).save_final(),
    )
    .unwrap();
    let end = QuadrotorState::from_point(sol.last().1);
    let e = model.tracking_error(2.0, &end);
    assert!(e < 1e-12, "drift from the equilibrium: {e:e}");
}
