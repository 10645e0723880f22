//! The model registry as a library: parameters by name and initial states.
//!
//! The physics checked: time rescaling. A double spherical pendulum with equal links `l` and
//! gravity `g` has `q̈ ∝ g/l`, so with links `c·l` its motion is the original one slowed by
//! `√c`: starting at the same `q` with `ω/√c`, at time `√c·t` it is at `q(t)` with `ω(t)/√c`;
//! the energy (kinetic `∝ m l² ω²`, potential `∝ m g l`) scales by `c`. The free rigid body
//! `ṁ = m × I⁻¹m` with `I → c·I` is the original slowed by `c`, with energy `½ m·I⁻¹m` divided
//! by `c`. A fixed-step Lie group method commutes with this time rescaling (`h → √c·h`), so the
//! two runs agree up to rounding.
#![cfg(feature = "registry")]

use lie_integrators::models::{DoubleSphericalPendulum, SphereModel};
use lie_integrators::registry::{
    Error, RunResult, RunSpec, find_model, methods::MethodChoice, simulate_sphere,
};
use lie_integrators::schemes::StepSize;

fn run(model: &str, method: &str, h: f64, t_end: f64, f: impl FnOnce(&mut RunSpec)) -> RunResult {
    let mut spec = RunSpec::new(StepSize::Fixed(h), t_end);
    f(&mut spec);
    let m = find_model(model).unwrap();
    let preset = m.presets()[0].0.clone();
    m.simulate_with(&preset, &MethodChoice::parse(method).unwrap(), &spec)
        .unwrap()
        .into_completed()
        .unwrap()
}

fn try_run(model: &str, f: impl FnOnce(&mut RunSpec)) -> Result<RunResult, Error> {
    let mut spec = RunSpec::new(StepSize::Fixed(0.01), 0.1);
    f(&mut spec);
    let m = find_model(model).unwrap();
    let preset = m.presets()[0].0.clone();
    m.simulate_with(&preset, &MethodChoice::parse("rkmk4").unwrap(), &spec)
}

#[test]
fn defaults_reproduce_the_preset_bitwise() {
    // The registry's default run, the same with every parameter given at its preset value, and
    // the run of the model built directly from the models crate are the same bits.
    let plain = run("double-spherical-pendulum", "rkmk4", 0.01, 1.0, |_| {});
    let m = find_model("double-spherical-pendulum").unwrap();
    let explicit: Vec<(String, f64)> = m
        .parameters("llm09")
        .unwrap()
        .iter()
        .map(|p| (p.name.to_string(), p.default))
        .collect();
    assert_eq!(explicit.len(), 5);
    let named = run("double-spherical-pendulum", "rkmk4", 0.01, 1.0, |s| {
        s.params = explicit.clone();
        s.initial_state = Some(m.initial_state("llm09", &[]).unwrap());
    });
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let direct = simulate_sphere(
        "double-spherical-pendulum",
        "llm09",
        p.as_chain(),
        &DoubleSphericalPendulum::initial_state(),
        &MethodChoice::parse("rkmk4").unwrap(),
        &StepSize::Fixed(0.01),
        1.0,
    )
    .unwrap();
    assert!(p.system().bodies() == 2);
    for other in [&named, &direct] {
        assert_eq!(plain.final_state, other.final_state);
        assert_eq!(plain.energy0.to_bits(), other.energy0.to_bits());
        assert_eq!(plain.steps, other.steps);
    }
}

#[test]
fn longer_pendulum_links_slow_the_motion_by_the_square_root() {
    let c = 4.0_f64; // links 4× longer: time runs 2× slower
    let slow = c.sqrt();
    let base = run("double-spherical-pendulum", "rkmk4", 0.01, 1.0, |_| {});
    let m = find_model("double-spherical-pendulum").unwrap();
    let mut x0 = m.initial_state("llm09", &[]).unwrap();
    for body in x0.chunks_exact_mut(6) {
        for w in &mut body[3..] {
            *w /= slow;
        }
    }
    let l = m.parameters("llm09").unwrap()[2].default;
    let scaled = run(
        "double-spherical-pendulum",
        "rkmk4",
        0.01 * slow,
        slow,
        |s| {
            s.params = vec![("l1".into(), c * l), ("l2".into(), c * l)];
            s.initial_state = Some(x0);
        },
    );
    assert_eq!(scaled.steps, base.steps);
    assert!((scaled.energy0 / base.energy0 - c).abs() < 1e-12);
    for (body_s, body_b) in scaled
        .final_state
        .chunks_exact(6)
        .zip(base.final_state.chunks_exact(6))
    {
        for k in 0..3 {
            assert!(
                (body_s[k] - body_b[k]).abs() < 1e-10,
                "q: {body_s:?} {body_b:?}"
            );
            assert!(
                (body_s[3 + k] * slow - body_b[3 + k]).abs() < 1e-10,
                "ω: {body_s:?} {body_b:?}"
            );
        }
    }
    // The final energy error is a property of the discrete orbit, the same for both.
    assert!((scaled.final_energy_error - base.final_energy_error).abs() < 1e-10);
}

#[test]
fn doubled_inertia_halves_the_energy_and_slows_the_rigid_body() {
    let base = run("free-rigid-body", "rkmk4", 0.01, 2.0, |_| {});
    let scaled = run("free-rigid-body", "rkmk4", 0.02, 4.0, |s| {
        s.params = vec![("I1".into(), 2.0), ("I2".into(), 4.0), ("I3".into(), 6.0)];
    });
    assert!((scaled.energy0 * 2.0 - base.energy0).abs() < 1e-15);
    for (a, b) in scaled.final_state.iter().zip(&base.final_state) {
        assert!((a - b).abs() < 1e-13, "{a} {b}");
    }
    // A different inertia ratio is a different motion.
    let other = run("free-rigid-body", "rkmk4", 0.01, 2.0, |s| {
        s.params = vec![("I2".into(), 2.5)];
    });
    assert!((other.final_state[1] - base.final_state[1]).abs() > 1e-3);
}

#[test]
fn the_seed_parameter_draws_another_initial_state() {
    let m = find_model("n-pendulum").unwrap();
    let a = m.initial_state("convergence", &[]).unwrap();
    let b = m
        .initial_state("convergence", &[("seed".into(), 2.0)])
        .unwrap();
    assert_eq!(a.len(), 12);
    assert_eq!(m.state_names("convergence").unwrap().len(), 12);
    assert_ne!(a, b);
    // Each start is on (TS²)²: unit q, tangent ω.
    for x in [&a, &b] {
        for body in x.chunks_exact(6) {
            let q2: f64 = body[..3].iter().map(|v| v * v).sum();
            let dot: f64 = (0..3).map(|k| body[k] * body[3 + k]).sum();
            assert!((q2 - 1.0).abs() < 1e-14 && dot.abs() < 1e-14);
        }
    }
}

fn parameter_name(e: Error) -> String {
    match e {
        Error::Parameter { name, message } => {
            assert!(message.contains(&name), "{message}");
            assert!(!message.contains('\n'));
            name
        }
        other => panic!("expected a parameter error, got {other:?}"),
    }
}

#[test]
fn bad_parameters_are_typed_errors_naming_them() {
    let e = try_run("double-spherical-pendulum", |s| {
        s.params = vec![("length".into(), 1.0)];
    })
    .unwrap_err();
    assert_eq!(parameter_name(e.clone()), "length");
    assert!(e.to_string().contains("known: m1, m2, l1, l2, g"));
    for (name, value) in [
        ("l1", f64::NAN),
        ("l2", -1.0),
        ("m1", 0.0),
        ("g", f64::INFINITY),
    ] {
        let e = try_run("double-spherical-pendulum", |s| {
            s.params = vec![(name.into(), value)];
        })
        .unwrap_err();
        assert_eq!(parameter_name(e), name);
    }
    // g = 0 is allowed (no gravity); a negative g is not.
    assert!(
        try_run("double-spherical-pendulum", |s| s.params =
            vec![("g".into(), 0.0)])
        .is_ok()
    );
    let e = try_run("n-pendulum", |s| s.params = vec![("seed".into(), 1.5)]).unwrap_err();
    assert_eq!(parameter_name(e), "seed");
    let e = try_run("free-rigid-body", |s| {
        s.params = vec![("I1".into(), 2.0), ("I1".into(), 3.0)];
    })
    .unwrap_err();
    assert_eq!(parameter_name(e), "I1");
    let e = try_run("dipoles", |s| s.params = vec![("g".into(), 1.0)]).unwrap_err();
    assert!(e.to_string().contains("no parameters"), "{e}");
}

fn initial_state_error(model: &str, x: Vec<f64>) -> String {
    match try_run(model, |s| s.initial_state = Some(x)) {
        Err(Error::InitialState(m)) => m,
        other => panic!("expected an initial-state error, got {other:?}"),
    }
}

#[test]
fn bad_initial_states_are_typed_errors_and_never_projected() {
    let m = initial_state_error("free-rigid-body", vec![0.0, 1.0]);
    assert!(m.contains("2 values; expected 3"), "{m}");
    let m = initial_state_error("free-rigid-body", vec![0.0, f64::NAN, 1.0]);
    assert!(m.contains("m2"), "{m}");
    // Off the sphere by 10⁻¹⁰ (far beyond 64 ε): refused, not normalised.
    let m = initial_state_error("free-rigid-body", vec![0.0, 0.0, 1.0 + 1e-10]);
    assert!(m.contains("off the unit sphere"), "{m}");
    // Within a few ε: accepted as given.
    let r = try_run("free-rigid-body", |s| {
        s.initial_state = Some(vec![0.0, 0.0, 1.0 + 4.0 * f64::EPSILON]);
    })
    .unwrap();
    assert_eq!(r.t[0], 0.0);
    // A non-tangent ω on TS².
    let model = find_model("double-spherical-pendulum").unwrap();
    let mut x = model.initial_state("llm09", &[]).unwrap();
    x[11] += 1e-6; // ω₂ gets a component along q₂ = e₃ (coordinate w2_3)
    let m = initial_state_error("double-spherical-pendulum", x);
    assert!(m.contains("not tangent"), "{m}");
}
