//! The free rigid body and the heavy top: every formulation gives the same time derivative at
//! random states, fine-step RKMK4 runs (through `schemes`) keep the energy to 10⁻⁹ relative,
//! the Casimirs and momentum maps are conserved, and the formulations integrate to the same
//! solution.

mod common;

use common::Rng;
use homogeneous::{Action, LieVectorField};
use liegroup::{LieGroup, Rn, Se3, So3, hat};
use models::heavy_top::{LargerGroupAction, LargerGroupPoint};
use models::rigid_body::{
    Ambient12Action, AttitudeAction, AttitudeBodyAction, AttitudeCoadjointAction, AttitudePoint,
    CotangentAction, orthogonality_error,
};
use models::{FreeRigidBody, HeavyTop, RigidBodyState};
use nalgebra::{Matrix3, SVector, Vector3, Vector6};
use schemes::methods::find;
use schemes::{Options, Problem, Stepper, integrate_with_observer};

fn random_spd(rng: &mut Rng) -> Matrix3<f64> {
    let a = Matrix3::from_fn(|_, _| rng.sym());
    a.transpose() * a + Matrix3::identity() * 0.5
}

fn random_state(rng: &mut Rng, scale: f64) -> RigidBodyState {
    RigidBodyState::new(So3::exp(&(rng.vec3() * 2.0)), rng.vec3() * scale)
}

/// `(Ṙ, Π̇)` from the generator of each formulation.
type Rate = (Matrix3<f64>, Vector3<f64>);

fn rel(a: &Rate, b: &Rate) -> f64 {
    let scale = b.0.amax().max(b.1.amax()).max(f64::MIN_POSITIVE);
    (a.0 - b.0).amax().max((a.1 - b.1).amax()) / scale
}

fn eval<A: Action, F: LieVectorField<f64, A::Point, <A::Group as LieGroup>::Algebra>>(
    p: &Problem<A, F>,
    x: &A::Point,
) -> A::Tangent {
    let mut f = p.action.algebra_zero(x);
    p.field.eval(0.0, x, &mut f);
    p.action.generator(&f, x)
}

/// `Π̇` from `(Ṙ, π̇)` on T*SO(3) ≅ SE(3): `Π = Rᵀπ`, `Π̇ = Ṙᵀπ + Rᵀπ̇`.
fn body_rate_from_cotangent(x: &RigidBodyState, generator: &Vector6<f64>) -> Rate {
    let r = x.attitude.matrix();
    let (a, b) = (
        generator.fixed_rows::<3>(0).into_owned(),
        generator.fixed_rows::<3>(3).into_owned(),
    );
    let r_dot = hat(&a) * r;
    let pi = x.spatial_momentum();
    let pi_dot = a.cross(&pi) + b;
    (r_dot, r_dot.transpose() * pi + r.transpose() * pi_dot)
}

fn ambient_rate_from_generator(g: &SVector<f64, 12>) -> Rate {
    (
        Matrix3::from_column_slice(&g.as_slice()[..9]),
        Vector3::new(g[9], g[10], g[11]),
    )
}

#[test]
fn free_body_formulations_give_the_same_derivative() {
    let mut rng = Rng::new(21);
    for _ in 0..50 {
        let body = FreeRigidBody::new(random_spd(&mut rng)).unwrap();
        let x = random_state(&mut rng, 3.0);
        let reference = body.ambient_rate(x.attitude.matrix(), &x.momentum);
        let r = x.attitude.matrix();
        let mut worst = 0.0_f64;
        // (i) Lie–Poisson on so(3)*, and on the sphere of radius |Π|.
        let dpi = eval(&body.lie_poisson(), &x.momentum);
        worst = worst.max((dpi - reference.1).amax() / reference.1.amax());
        let sphere = body.lie_poisson_sphere(x.momentum.norm()).unwrap();
        let m = sphere.field.point(&x.momentum).unwrap();
        let dm = eval(&sphere, &m) * x.momentum.norm();
        worst = worst.max((dm - reference.1).amax() / reference.1.amax());
        // (ii) SO(3) × ℝ³ by left multiplication (ξ is the right-trivialized velocity).
        let (xi, eta) = eval(&body.attitude(), &x.to_attitude());
        worst = worst.max(rel(&(hat(&xi) * r, eta), &reference));
        // The body frame: right multiplication by the inverse, generator −Ad_R(−Ω) = RΩ.
        let (xi, eta) = eval(&body.body_frame(), &x.to_attitude());
        worst = worst.max(rel(&(hat(&xi) * r, eta), &reference));
        let (xi, dpi) = eval(&body.attitude_coadjoint(), &x.to_attitude_coadjoint());
        worst = worst.max(rel(&(hat(&xi) * r, dpi), &reference));
        // T*SO(3) ≅ SE(3), right trivialized.
        let g = eval(&body.cotangent(), &x.to_cotangent());
        worst = worst.max(rel(&body_rate_from_cotangent(&x, &g), &reference));
        // (iii) The ambient ODE.
        let g = eval(&body.ambient(), &x.to_ambient());
        worst = worst.max(rel(&ambient_rate_from_generator(&g), &reference));
        assert!(
            worst <= 1e-12,
            "formulations differ by {worst:e} (relative)"
        );
        // The reference itself: dH/dt = Ω·Π̇ = 0 and d(RΠ)/dt = 0.
        let omega = body.angular_velocity(&x.momentum);
        assert!(
            omega.dot(&reference.1).abs() <= 1e-14 * omega.norm() * reference.1.norm().max(1.0)
        );
        let dspatial = reference.0 * x.momentum + r * reference.1;
        assert!(dspatial.amax() <= 1e-13 * (r * reference.1).amax().max(1.0));
    }
}

#[test]
fn heavy_top_formulations_give_the_same_derivative() {
    let mut rng = Rng::new(8);
    let e3 = Vector3::z();
    for k in 0..50 {
        let top = if k == 0 {
            HeavyTop::bruls_cardona()
        } else {
            HeavyTop::new(
                1.0 + rng.sym().abs() * 20.0,
                random_spd(&mut rng),
                rng.vec3() + Vector3::new(0.0, 0.0, 0.2),
                9.81,
            )
            .unwrap()
        };
        let x = if k == 0 {
            HeavyTop::bruls_cardona_state()
        } else {
            random_state(&mut rng, 30.0)
        };
        let r = x.attitude.matrix();
        let reference = top.ambient_rate(r, &x.momentum);
        let gamma_dot = reference.0.transpose() * e3;
        let mut worst = 0.0_f64;
        // Canonical on T*SO(3) (spatial momentum) and in body momentum.
        let g = eval(&top.canonical(), &x.to_cotangent());
        worst = worst.max(rel(&body_rate_from_cotangent(&x, &g), &reference));
        let (xi, eta) = eval(&top.canonical_body(), &x.to_attitude());
        worst = worst.max(rel(&(hat(&xi) * r, eta), &reference));
        let (xi, eta) = eval(&top.body_frame(), &x.to_attitude());
        worst = worst.max(rel(&(hat(&xi) * r, eta), &reference));
        // Lie–Poisson on se(3)*: (Π̇, Γ̇).
        let mu_dot = eval(&top.lie_poisson(), &x.to_lie_poisson());
        let (dpi, dgamma) = (
            mu_dot.fixed_rows::<3>(0).into_owned(),
            mu_dot.fixed_rows::<3>(3).into_owned(),
        );
        worst = worst.max((dpi - reference.1).amax() / reference.1.amax());
        worst = worst.max((dgamma - gamma_dot).amax() / gamma_dot.amax());
        // Canonical on T*SE(3): (Ṙ, ẋ) from the right-trivialized ξ, (Π̇, Γ̇) from Se3Coadjoint.
        let p = x.to_larger_group();
        let (xi, mu_dot) = eval(&top.larger_group(), &p);
        let (a, b) = (
            xi.fixed_rows::<3>(0).into_owned(),
            xi.fixed_rows::<3>(3).into_owned(),
        );
        let x_dot = a.cross(p.0.translation()) + b;
        let expected_x_dot = r * top.weight_moment_arm();
        worst = worst.max((x_dot - expected_x_dot).amax() / expected_x_dot.amax());
        let dpi = mu_dot.fixed_rows::<3>(0).into_owned();
        worst = worst.max(rel(&(hat(&a) * r, dpi), &reference));
        let dgamma = mu_dot.fixed_rows::<3>(3).into_owned();
        worst = worst.max((dgamma - gamma_dot).amax() / gamma_dot.amax());
        // The ambient ODE.
        let g = eval(&top.ambient(), &x.to_ambient());
        worst = worst.max(rel(&ambient_rate_from_generator(&g), &reference));
        assert!(
            worst <= 1e-12,
            "formulations differ by {worst:e} (relative)"
        );
        // The reference: dH/dt = Ω·Π̇ + m g e₃·ṘX = 0, d(e₃·RΠ)/dt = 0.
        let omega = top.angular_velocity(&x.momentum);
        let terms = [
            omega.dot(&reference.1),
            top.mass() * top.g() * e3.dot(&(reference.0 * top.com())),
        ];
        assert!((terms[0] + terms[1]).abs() <= 1e-13 * (terms[0].abs() + terms[1].abs()).max(1.0));
        let dv = e3.dot(&(reference.0 * x.momentum + r * reference.1));
        assert!(dv.abs() <= 1e-13 * (r * reference.1).amax().max(1.0));
    }
}

/// Invariants tracked along a run: max |E − E₀|/|E₀| and two user quantities (max drift).
struct Drift {
    energy: f64,
    a: f64,
    b: f64,
    ortho: f64,
}

fn run<A, F>(
    problem: &Problem<A, F>,
    y0: A::Point,
    h: f64,
    t_end: f64,
    measure: impl Fn(&A::Point) -> (f64, f64, f64, Matrix3<f64>),
) -> (A::Point, Drift)
where
    A: homogeneous::ActionInPlace<
            Group: LieGroup<Scalar = f64>,
            Point: homogeneous::ManifoldPoint<Scalar = f64>,
        >,
    F: LieVectorField<f64, A::Point, <A::Group as LieGroup>::Algebra>,
{
    let mut s = find("rkmk4").unwrap().stepper::<A>();
    assert_eq!(s.order(), 4);
    let (e0, a0, b0, _) = measure(&y0);
    let mut d = Drift {
        energy: 0.0,
        a: 0.0,
        b: 0.0,
        ortho: 0.0,
    };
    let n = (t_end / h).round() as usize;
    let sol = integrate_with_observer(
        problem,
        &mut s,
        0.0,
        y0,
        t_end,
        &Options::count(n).save_final(),
        |_t, y| {
            let (e, a, b, r) = measure(y);
            d.energy = d.energy.max((e - e0).abs() / e0.abs());
            d.a = d.a.max((a - a0).abs());
            d.b = d.b.max((b - b0).abs());
            d.ortho = d.ortho.max(orthogonality_error(&r));
        },
    )
    .unwrap();
    (sol.last().1.clone(), d)
}

#[test]
fn free_body_rkmk4_runs_keep_energy_and_invariants() {
    // I = diag(1, 2, 3), |Π| = 1, T = 20 (about 4 periods of Π), h = 2·10⁻³.
    let body = FreeRigidBody::landau_lifshitz();
    let x0 = FreeRigidBody::landau_lifshitz_state();
    let (h, t_end) = (2e-3, 20.0);
    let id = Matrix3::identity();
    let e = |pi: &Vector3<f64>| body.energy(pi);
    let c = |pi: &Vector3<f64>| body.casimir(pi);
    let (pi_lp, d) = run(&body.lie_poisson(), x0.momentum, h, t_end, |p| {
        (e(p), c(p), 0.0, id)
    });
    println!("Lie–Poisson: energy {:.1e}, |Π|² {:.1e}", d.energy, d.a);
    // Round-off level after 10⁴ steps (|Π|² = 1).
    assert!(d.energy <= 1e-9 && d.a <= 1e-12);
    let sphere = body.lie_poisson_sphere(1.0).unwrap();
    let m0 = sphere.field.point(&x0.momentum).unwrap();
    let (m, d) = run(&sphere, m0, h, t_end, |m| {
        (e(m.q()), m.q().norm_squared(), 0.0, id)
    });
    println!("sphere: energy {:.1e}, |m|² {:.1e}", d.energy, d.a);
    assert!(d.energy <= 1e-9 && d.a <= 1e-12);
    assert!((m.q() - pi_lp).amax() <= 1e-13);
    let pi0 = x0.spatial_momentum();
    let spatial = |x: &RigidBodyState| (x.spatial_momentum() - pi0).amax();
    let mut finals = vec![];
    let (y, d) = run(&body.attitude(), x0.to_attitude(), h, t_end, |p| {
        let x = RigidBodyState::from_attitude(p);
        (
            e(&x.momentum),
            c(&x.momentum),
            spatial(&x),
            *x.attitude.matrix(),
        )
    });
    println!(
        "SO(3) × ℝ³: energy {:.1e}, |Π|² {:.1e}, RΠ {:.1e}, RᵀR − I {:.1e}",
        d.energy, d.a, d.b, d.ortho
    );
    assert!(d.energy <= 1e-9 && d.a <= 1e-9 && d.b <= 1e-9 && d.ortho <= 1e-13);
    finals.push(RigidBodyState::from_attitude(&y));
    let (y, d) = run(
        &body.attitude_coadjoint(),
        x0.to_attitude_coadjoint(),
        h,
        t_end,
        |p| {
            let x = RigidBodyState::from_attitude_coadjoint(p);
            (
                e(&x.momentum),
                c(&x.momentum),
                spatial(&x),
                *x.attitude.matrix(),
            )
        },
    );
    println!(
        "SO(3) × so(3)*: energy {:.1e}, |Π|² {:.1e}, RΠ {:.1e}, RᵀR − I {:.1e}",
        d.energy, d.a, d.b, d.ortho
    );
    assert!(d.energy <= 1e-9 && d.a <= 1e-12 && d.b <= 1e-9 && d.ortho <= 1e-13);
    finals.push(RigidBodyState::from_attitude_coadjoint(&y));
    let (y, d) = run(&body.cotangent(), x0.to_cotangent(), h, t_end, |p: &Se3| {
        let x = RigidBodyState::from_cotangent(p);
        (
            e(&x.momentum),
            c(&x.momentum),
            spatial(&x),
            *x.attitude.matrix(),
        )
    });
    println!(
        "T*SO(3): energy {:.1e}, |Π|² {:.1e}, π {:.1e}, RᵀR − I {:.1e}",
        d.energy, d.a, d.b, d.ortho
    );
    assert!(d.energy <= 1e-9 && d.a <= 1e-9 && d.b <= 1e-9 && d.ortho <= 1e-13);
    finals.push(RigidBodyState::from_cotangent(&y));
    let (y, d) = run(
        &body.ambient(),
        x0.to_ambient(),
        h,
        t_end,
        |p: &Rn<f64, 12>| {
            let x = RigidBodyState::from_ambient(p);
            (
                e(&x.momentum),
                c(&x.momentum),
                spatial(&x),
                *x.attitude.matrix(),
            )
        },
    );
    println!(
        "ambient ℝ¹² (classical RK4): energy {:.1e}, |Π|² {:.1e}, RΠ {:.1e}, RᵀR − I {:.1e}",
        d.energy, d.a, d.b, d.ortho
    );
    assert!(d.energy <= 1e-9 && d.a <= 1e-9 && d.b <= 1e-9 && d.ortho <= 1e-8);
    finals.push(RigidBodyState::from_ambient(&y));
    for x in &finals {
        assert!(
            (x.momentum - pi_lp).amax() <= 1e-9,
            "{:?} vs {pi_lp:?}",
            x.momentum
        );
        assert!((x.attitude.matrix() - finals[0].attitude.matrix()).amax() <= 1e-8);
    }
}

#[test]
fn heavy_top_rkmk4_runs_keep_energy_and_invariants() {
    // The [BC10] top (spin 150 rad/s about the body axis e₂, period ≈ 0.042), T = 1 (about 24
    // spin periods), h = 10⁻⁴.
    let top = HeavyTop::bruls_cardona();
    let x0 = HeavyTop::bruls_cardona_state();
    let (h, t_end) = (1e-4, 1.0);
    let e0 = top.energy(&x0);
    assert!((e0 - 5435.7).abs() < 0.1, "E₀ = {e0}");
    let vm = |x: &RigidBodyState| top.vertical_momentum(x);
    let mut finals = vec![];
    // Lie–Poisson: Casimirs |Γ|² and Π·Γ at round-off.
    let (mu, d) = run(&top.lie_poisson(), x0.to_lie_poisson(), h, t_end, |mu| {
        let (c1, c2) = top.casimirs(mu);
        (top.energy_lie_poisson(mu), c1, c2, Matrix3::identity())
    });
    println!(
        "se(3)* Lie–Poisson: energy {:.1e}, |Γ|² {:.1e}, Π·Γ {:.1e}",
        d.energy, d.a, d.b
    );
    // Round-off level after 10⁴ steps (|Γ|² = 1, |Π| ≈ 99).
    assert!(d.energy <= 1e-9 && d.a <= 1e-12 && d.b <= 1e-12 * x0.momentum.norm());
    assert!((top.casimirs(&mu).0 - 1.0).abs() <= 1e-12);
    let (y, d) = run(&top.canonical(), x0.to_cotangent(), h, t_end, |p: &Se3| {
        let x = RigidBodyState::from_cotangent(p);
        (top.energy(&x), vm(&x), 0.0, *x.attitude.matrix())
    });
    println!(
        "T*SO(3) canonical: energy {:.1e}, e₃·π {:.1e}, RᵀR − I {:.1e}",
        d.energy, d.a, d.ortho
    );
    assert!(d.energy <= 1e-9 && d.a <= 1e-9 * vm(&x0).abs() && d.ortho <= 1e-13);
    finals.push(RigidBodyState::from_cotangent(&y));
    let (y, d) = run(&top.canonical_body(), x0.to_attitude(), h, t_end, |p| {
        let x = RigidBodyState::from_attitude(p);
        (top.energy(&x), vm(&x), 0.0, *x.attitude.matrix())
    });
    println!(
        "SO(3) × ℝ³ body momentum: energy {:.1e}, e₃·RΠ {:.1e}, RᵀR − I {:.1e}",
        d.energy, d.a, d.ortho
    );
    // Π moves by translation here (classical RK4 on a vector that turns at ~147 rad/s in the
    // body frame), so e₃·RΠ is kept only to the accuracy of the step (~10⁻⁸ relative).
    assert!(d.energy <= 1e-9 && d.a <= 1e-7 * vm(&x0).abs() && d.ortho <= 1e-13);
    finals.push(RigidBodyState::from_attitude(&y));
    let (y, d) = run(&top.body_frame(), x0.to_attitude(), h, t_end, |p| {
        let x = RigidBodyState::from_attitude(p);
        (top.energy(&x), vm(&x), 0.0, *x.attitude.matrix())
    });
    println!(
        "SO(3) × ℝ³ body frame: energy {:.1e}, e₃·RΠ {:.1e}, RᵀR − I {:.1e}",
        d.energy, d.a, d.ortho
    );
    assert!(d.energy <= 1e-9 && d.a <= 1e-7 * vm(&x0).abs() && d.ortho <= 1e-13);
    finals.push(RigidBodyState::from_attitude(&y));
    let m0 = top.larger_group_momentum(&x0.to_larger_group());
    let (y, d) = run(
        &top.larger_group(),
        x0.to_larger_group(),
        h,
        t_end,
        |p: &LargerGroupPoint| {
            let x = RigidBodyState::from_larger_group(p);
            let drift = (top.larger_group_momentum(p) - m0).amax();
            (
                top.energy_lie_poisson(&p.1),
                drift,
                top.energy(&x),
                *x.attitude.matrix(),
            )
        },
    );
    println!(
        "T*SE(3) quadratic H: energy {:.1e}, spatial momentum {:.1e}, RᵀR − I {:.1e}",
        d.energy, d.a, d.ortho
    );
    assert!(d.energy <= 1e-9 && d.a <= 1e-9 * m0.amax() && d.ortho <= 1e-13);
    // The physical energy of (R, Π) is conserved too (RΓ = e₃ is kept).
    assert!(d.b <= 1e-9 * e0);
    finals.push(RigidBodyState::from_larger_group(&y));
    let (y, d) = run(
        &top.ambient(),
        x0.to_ambient(),
        h,
        t_end,
        |p: &Rn<f64, 12>| {
            let x = RigidBodyState::from_ambient(p);
            (top.energy(&x), vm(&x), 0.0, *x.attitude.matrix())
        },
    );
    println!(
        "ambient ℝ¹² (classical RK4): energy {:.1e}, e₃·RΠ {:.1e}, RᵀR − I {:.1e}",
        d.energy, d.a, d.ortho
    );
    // Classical RK4 drifts off SO(3) (1.8·10⁻⁹ here), the Lie group formulations do not.
    assert!(d.energy <= 1e-9 && d.a <= 1e-8 * vm(&x0).abs() && d.ortho <= 1e-8);
    finals.push(RigidBodyState::from_ambient(&y));
    // All formulations integrate to the same (R, Π) (to their global errors); Γ of the
    // Lie–Poisson run is Rᵀe₃.
    let scale = x0.momentum.amax();
    let names = [
        "T*SO(3)",
        "SO(3) × ℝ³",
        "SO(3) × ℝ³ body frame",
        "T*SE(3)",
        "ambient",
    ];
    for (x, name) in finals.iter().zip(names) {
        let dp = (x.momentum - finals[0].momentum).amax() / scale;
        let dr = (x.attitude.matrix() - finals[0].attitude.matrix()).amax();
        println!("{name} vs T*SO(3) at T = 1: Π {dp:.1e} (relative), R {dr:.1e}");
        assert!(dp <= 1e-6 && dr <= 1e-6, "{name}: {dp:e}, {dr:e}");
    }
    let mu_ref = finals[0].to_lie_poisson();
    let d = (mu - mu_ref).amax() / scale;
    println!("Lie–Poisson vs T*SO(3): {d:.1e}");
    assert!(d <= 1e-6, "{mu:?} vs {mu_ref:?}");
}

#[test]
fn cotangent_actions_are_what_the_docs_say() {
    // T*SO(3) ≅ SE(3): (A, a)·(R, π) = (AR, Aπ + a); SO(3) × ℝ³: (A, a)·(R, x) = (AR, x + a).
    let mut rng = Rng::new(2);
    let x = random_state(&mut rng, 1.0);
    let g = Se3::exp(&Vector6::new(0.3, -0.1, 0.2, 1.0, 2.0, 3.0));
    let moved = CotangentAction::new().act(&g, &x.to_cotangent());
    let r = g.rotation();
    assert!((moved.rotation().matrix() - r.matrix() * x.attitude.matrix()).amax() < 1e-15);
    let expected = r.rotate(&x.spatial_momentum()) + g.translation();
    assert!((moved.translation() - expected).amax() < 1e-14);
    let h = (
        So3::exp(&Vector3::new(0.1, 0.2, 0.3)),
        Rn::new(Vector3::new(1.0, 0.0, 0.0)),
    );
    let moved = AttitudeAction::new().act(&h, &x.to_attitude());
    assert_eq!(moved.1.0, x.momentum + Vector3::x());
    let _: AttitudeCoadjointAction = (Default::default(), Default::default());
    let _: LargerGroupAction = (Default::default(), Default::default());
    let _: Ambient12Action = Default::default();
}

#[test]
fn adaptive_pairs_run_on_group_points() {
    // `ManifoldPoint` for So3/Se3 gives the commutator-free pairs their ambient distance, so adaptive
    // steps work on points holding `So3`/`Se3` (here T*SO(3) ≅ SE(3) and SO(3) × ℝ³).
    let top = HeavyTop::bruls_cardona();
    let x0 = HeavyTop::bruls_cardona_state();
    let t_end = 0.2;
    let mut fine = find("rkmk4").unwrap().stepper::<CotangentAction>();
    let reference = schemes::integrate(
        &top.canonical(),
        &mut fine,
        0.0,
        x0.to_cotangent(),
        t_end,
        &Options::count(4000).save_final(),
    )
    .unwrap();
    let reference = RigidBodyState::from_cotangent(reference.last().1);
    for id in ["cf43", "cf32", "rkmk54"] {
        let mut s = find(id).unwrap().stepper::<CotangentAction>();
        let sol = schemes::integrate(
            &top.canonical(),
            &mut s,
            0.0,
            x0.to_cotangent(),
            t_end,
            &Options::adaptive(1e-8, 1e-8).save_final(),
        )
        .unwrap();
        let x = RigidBodyState::from_cotangent(sol.last().1);
        let err = (x.momentum - reference.momentum).amax() / x0.momentum.amax();
        println!(
            "{id} on T*SO(3): {} steps ({} rejected), relative error {err:.1e}",
            sol.stats.accepted, sol.stats.rejected
        );
        assert!(err <= 1e-5, "{id}: {err:e}");
        let mut s = find(id).unwrap().stepper::<AttitudeAction>();
        let sol = schemes::integrate(
            &top.canonical_body(),
            &mut s,
            0.0,
            x0.to_attitude(),
            t_end,
            &Options::adaptive(1e-8, 1e-8).save_final(),
        )
        .unwrap();
        let x = RigidBodyState::from_attitude(sol.last().1);
        let err = (x.momentum - reference.momentum).amax() / x0.momentum.amax();
        println!(
            "{id} on SO(3) × ℝ³: {} steps ({} rejected), relative error {err:.1e}",
            sol.stats.accepted, sol.stats.rejected
        );
        assert!(err <= 1e-5, "{id}: {err:e}");
    }
}

/// The body-frame heavy top converges at the order of each method: fitted slopes of the error
/// in `(R, Π)` at `T = 0.5` against a reference from the spatial formulation (RKMK6 with many
/// more steps), on a top with generic inertia and a state away from any symmetry.
#[test]
fn body_frame_heavy_top_converges_at_the_method_order() {
    let mut rng = Rng::new(77);
    let top = HeavyTop::new(
        2.0,
        random_spd(&mut rng),
        Vector3::new(0.3, -0.2, 0.6),
        9.81,
    )
    .unwrap();
    let x0 = random_state(&mut rng, 3.0);
    let t_end = 0.5;
    let mut fine = find("rkmk6").unwrap().stepper::<AttitudeAction>();
    let sol = schemes::integrate(
        &top.canonical_body(),
        &mut fine,
        0.0,
        x0.to_attitude(),
        t_end,
        &Options::count(4096).save_final(),
    )
    .unwrap();
    let reference = *sol.last().1;
    let dist = |a: &AttitudePoint, b: &AttitudePoint| {
        (a.0.matrix() - b.0.matrix())
            .amax()
            .max((a.1.0 - b.1.0).amax() / x0.momentum.amax())
    };
    let problem = top.body_frame();
    for (id, steps) in [
        ("rkmk4", [8, 16, 32, 64, 128]),
        ("cf4", [8, 16, 32, 64, 128]),
        ("rkmk4-2comm", [8, 16, 32, 64, 128]),
        ("rkmk6", [4, 8, 16, 32, 64]),
        ("cg3", [16, 32, 64, 128, 256]),
    ] {
        let spec = find(id).unwrap();
        let mut stepper = spec.stepper::<AttitudeBodyAction>();
        let row = schemes::measure_order(
            &problem,
            &mut stepper,
            0.0,
            &x0.to_attitude(),
            t_end,
            &reference,
            &steps,
            dist,
            1e-12,
        )
        .unwrap();
        let slope = row.observed_order();
        println!("{id}: errors {:?}, order {slope:.3}", row.errors);
        assert!(
            (slope - f64::from(spec.order)).abs() <= 0.2,
            "{id}: observed order {slope:.3}, expected {} ({:?})",
            spec.order,
            row.errors
        );
    }
}
