//! Structure preservation of the symplectic and variational integrators on T*SO(3):
//! symplecticity of one step (dual numbers through the step, in local canonical coordinates),
//! the Casimir |Π| and the spatial momentum of the free rigid body over long runs, bounded
//! energy error without a linear trend, and e₃·π of the heavy top.
//!
//! The long runs take `SYMPLECTIC_LONG_STEPS` steps (default 10⁵, which keeps the suite fast at
//! the test profile's opt-level 1); the 10⁶-step numbers in docs/symplectic.md were produced with
//! `SYMPLECTIC_LONG_STEPS=1000000 cargo test --release -p schemes --test symplectic_structure
//! -- --nocapture`.

use liegroup::num_dual::Dual64;
use liegroup::{LieGroup, So3};
use nalgebra::{Matrix6, Vector3};
use schemes::symplectic::{
    CotangentAction, CotangentHamiltonian, CotangentPoint, DlmSplitting, HamiltonianVectorField,
    HeavyTop, Lgvi, LgviMap, RigidBody, RigidBodyPotential, ThetaMethod, UniformGravity, dexp_star,
    dexpinv_star,
};
use schemes::{Options, Problem, Stepper, integrate_with_observer};

type Act = CotangentAction<So3>;
type DualPoint = CotangentPoint<So3<Dual64>>;

fn v_top() -> HeavyTop {
    let chi = Vector3::new(0.1, 0.2, 1.0).normalize();
    RigidBody::new(
        Vector3::new(1.0, 2.0, 3.0),
        UniformGravity::new(1.5, 1.0, chi).unwrap(),
    )
    .unwrap()
}

fn long_steps() -> usize {
    std::env::var("SYMPLECTIC_LONG_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000)
}

// ---------------------------------------------------------------------------------------------
// Symplecticity
// ---------------------------------------------------------------------------------------------

/// The Jacobian of one step `(q₀, p₀) ↦ (q₁, p₁)` in local canonical coordinates
/// `g = exp(q) g_ref`, `p = dexp*_q μ` (Darboux: `⟨μ, ġg⁻¹⟩ = ⟨dexp*_q μ, q̇⟩ = p·q̇`), centred at
/// `g_ref = g₀` before and `g_ref = g₁` after the step, by forward-mode dual numbers (one
/// direction per column).
fn step_jacobian(
    y0: &CotangentPoint<So3>,
    step: &mut dyn FnMut(&DualPoint) -> DualPoint,
) -> Matrix6<f64> {
    let r0 = y0.g.matrix().map(Dual64::from);
    let mu0 = y0.mu.map(Dual64::from);
    // The nominal step, for the output chart.
    let nominal = step(&CotangentPoint::new(So3::from_matrix_unchecked(r0), mu0));
    let r1_ref = So3::from_matrix_unchecked(nominal.g.matrix().map(|x| Dual64::from(x.re)));
    let mut jac = Matrix6::zeros();
    for k in 0..6 {
        let mut q = Vector3::<Dual64>::zeros();
        let mut p = mu0; // at q = 0, p = μ
        if k < 3 {
            q[k] = Dual64::new(0.0, 1.0);
        } else {
            p[k - 3] = Dual64::new(p[k - 3].re, 1.0);
        }
        let g = So3::exp(&q).compose(&So3::from_matrix_unchecked(r0));
        let mu = dexpinv_star::<So3<Dual64>>(&q, &p);
        let y1 = step(&CotangentPoint::new(g, mu));
        let q1 = y1.g.compose(&r1_ref.inverse()).log();
        let p1 = dexp_star::<So3<Dual64>>(&q1, &y1.mu);
        for i in 0..3 {
            jac[(i, k)] = q1[i].eps;
            jac[(i + 3, k)] = p1[i].eps;
        }
    }
    jac
}

fn symplecticity_defect(jac: &Matrix6<f64>) -> f64 {
    let mut omega = Matrix6::zeros();
    for i in 0..3 {
        omega[(i, i + 3)] = 1.0;
        omega[(i + 3, i)] = -1.0;
    }
    (jac.transpose() * omega * jac - omega).amax()
}

/// `(name, max|JᵀΩJ − Ω|, max|J|)` of every method for one step of size `h` from `y0`.
fn defects(top: &HeavyTop, y0: &CotangentPoint<So3>, h: f64) -> Vec<(String, f64, f64)> {
    let mut report = Vec::new();
    let (t, hd) = (Dual64::from(0.0), Dual64::from(h));
    for theta in [0.0, 0.3, 0.5, 1.0] {
        let mut m = ThetaMethod::<So3<Dual64>, _>::new(top.clone(), theta).unwrap();
        let jac = step_jacobian(y0, &mut |y| m.advance(t, y, hd).unwrap());
        report.push((
            format!("theta({theta})"),
            symplecticity_defect(&jac),
            jac.amax(),
        ));
    }
    for (map, c) in [
        (LgviMap::Cayley, 0.5),
        (LgviMap::Exp, 0.5),
        (LgviMap::Cayley, 0.0),
    ] {
        let mut m = Lgvi::new(top.clone(), map)
            .with_potential_weight(c)
            .unwrap();
        let jac = step_jacobian(y0, &mut |y| m.advance(t, y, hd).unwrap());
        report.push((
            format!("lgvi-{map:?}(c={c})"),
            symplecticity_defect(&jac),
            jac.amax(),
        ));
    }
    let mut m = DlmSplitting::new(top.clone());
    let jac = step_jacobian(y0, &mut |y| m.advance(t, y, hd).unwrap());
    report.push(("dlm".into(), symplecticity_defect(&jac), jac.amax()));
    report
}

/// A non-symplectic control: one explicit Lie–Euler step `exp(h f(y))·y` with the Hamiltonian
/// field `f = (∂H/∂π, −ν)`.
fn lie_euler_defect(top: &HeavyTop, y0: &CotangentPoint<So3>, h: f64) -> f64 {
    let jac = step_jacobian(y0, &mut |y| {
        let omega = CotangentHamiltonian::<So3<Dual64>>::dh_dmu(top, &y.g, &y.mu);
        let nu = CotangentHamiltonian::<So3<Dual64>>::dh_dg(top, &y.g, &y.mu);
        let hd = Dual64::from(h);
        CotangentPoint::<So3<Dual64>>::exp(&(omega * hd, -nu * hd)).compose(y)
    });
    symplecticity_defect(&jac)
}

#[test]
fn one_step_is_symplectic_in_canonical_coordinates() {
    let v_state = CotangentPoint::new(
        So3::exp(&Vector3::new(0.3, 0.2, -0.1)),
        Vector3::new(0.5, -1.0, 2.0),
    );
    let bc10 = HeavyTop::heavy_top_bc10();
    // A state of the BC10 top away from R = I (a precessed, nutated top).
    let bc10_state = CotangentPoint::new(
        So3::exp(&Vector3::new(0.4, -0.3, 0.2)),
        HeavyTop::heavy_top_bc10_initial().mu,
    );
    for (label, top, y0, h) in [
        ("§V top, h = 0.1", v_top(), v_state.clone(), 0.1),
        ("§V top, h = 0.5", v_top(), v_state, 0.5),
        ("BC10 top, h = 2e-3", bc10, bc10_state, 2e-3),
    ] {
        println!("{label}");
        // Scale: the defect is compared with max|J|² (JᵀΩJ is quadratic in J).
        for (name, defect, size) in defects(&top, &y0, h) {
            println!("  {name:<22} max|JᵀΩJ − Ω| = {defect:.2e}  (max|J| = {size:.2})");
            assert!(defect < 1e-11, "{label}, {name}: {defect:e}");
        }
        let control = lie_euler_defect(&top, &y0, h);
        println!("  lie-euler (control)    max|JᵀΩJ − Ω| = {control:.2e}");
        assert!(control > 1e-4, "{label}: the control must fail");
    }
}

// ---------------------------------------------------------------------------------------------
// Long runs
// ---------------------------------------------------------------------------------------------

/// What a long run measured.
#[derive(Debug)]
struct LongRun {
    /// max_k ||Π_k| − |Π₀|| / |Π₀| with Π = Rᵀπ (the Casimir of the free body).
    casimir: f64,
    /// max_k |π_k − π₀| / |π₀| (spatial momentum).
    spatial: f64,
    /// max_k |e₃·(π_k − π₀)| / |π₀|.
    vertical: f64,
    /// max_k ‖R_kᵀR_k − I‖_max.
    orthogonality: f64,
    /// max_k |E_k − E₀| / |E₀|, over the first and the second half of the run.
    energy_halves: (f64, f64),
    /// Least-squares slope of (E_k − E₀)/|E₀| against t (per unit time).
    energy_slope: f64,
    t_end: f64,
}

impl LongRun {
    fn amplitude(&self) -> f64 {
        self.energy_halves.0.max(self.energy_halves.1)
    }
    /// The drift a linear trend would accumulate over the run, relative to |E₀|.
    fn trend(&self) -> f64 {
        (self.energy_slope * self.t_end).abs()
    }
}

fn long_run<P, S>(
    body: &RigidBody<P>,
    mut stepper: S,
    y0: &CotangentPoint<So3>,
    h: f64,
    n: usize,
) -> LongRun
where
    P: RigidBodyPotential<f64>,
    S: Stepper<Act>,
{
    let problem = Problem::new(Act::new(), HamiltonianVectorField(body.clone()));
    let e0 = body.energy(y0);
    let casimir0 = y0.body_momentum().norm();
    let scale = y0.mu.norm();
    let mut run = LongRun {
        casimir: 0.0,
        spatial: 0.0,
        vertical: 0.0,
        orthogonality: 0.0,
        energy_halves: (0.0, 0.0),
        energy_slope: 0.0,
        t_end: h * n as f64,
    };
    let (mut st, mut stt, mut se, mut ste, mut count) = (0.0, 0.0, 0.0, 0.0, 0.0);
    let t_half = 0.5 * run.t_end;
    let opts = Options::count(n).save_final();
    integrate_with_observer(
        &problem,
        &mut stepper,
        0.0,
        y0.clone(),
        run.t_end,
        &opts,
        |t, y| {
            let r = y.g.matrix();
            run.casimir = run
                .casimir
                .max((y.body_momentum().norm() - casimir0).abs() / casimir0);
            run.spatial = run.spatial.max((y.mu - y0.mu).norm() / scale);
            run.vertical = run.vertical.max((y.mu[2] - y0.mu[2]).abs() / scale);
            run.orthogonality = run
                .orthogonality
                .max((r.transpose() * r - nalgebra::Matrix3::identity()).amax());
            let de = (body.energy(y) - e0) / e0.abs();
            if t <= t_half {
                run.energy_halves.0 = run.energy_halves.0.max(de.abs());
            } else {
                run.energy_halves.1 = run.energy_halves.1.max(de.abs());
            }
            st += t;
            stt += t * t;
            se += de;
            ste += t * de;
            count += 1.0;
        },
    )
    .unwrap();
    run.energy_slope = (count * ste - st * se) / (count * stt - st * st);
    run
}

fn print_run(name: &str, run: &LongRun) {
    println!(
        "{name:<24} |Π| {:.1e}  π {:.1e}  e₃·π {:.1e}  RᵀR−I {:.1e}  ΔE/E amplitude {:.2e} (halves {:.2e}, {:.2e})  slope {:+.2e}/s  slope·T {:.1e}",
        run.casimir,
        run.spatial,
        run.vertical,
        run.orthogonality,
        run.amplitude(),
        run.energy_halves.0,
        run.energy_halves.1,
        run.energy_slope,
        run.trend()
    );
}

/// Bounded energy error with no linear trend: the second half of the run does not exceed the
/// first by more than half, and a fitted linear trend accounts for a small part of the amplitude.
/// An error below `floor` (round-off accumulated over the run) is not a truncation error and
/// passes as conserved.
fn assert_no_energy_drift(name: &str, run: &LongRun, floor: f64) {
    if run.amplitude() <= floor {
        return;
    }
    assert!(
        run.energy_halves.1 <= 1.5 * run.energy_halves.0,
        "{name}: energy error grows: {:?}",
        run.energy_halves
    );
    assert!(
        run.trend() <= 0.1 * run.amplitude(),
        "{name}: linear trend {:e}",
        run.trend()
    );
}

#[test]
fn free_rigid_body_keeps_its_casimir_and_momentum_over_long_runs() {
    let body = RigidBody::free(Vector3::new(1.0, 2.0, 3.0)).unwrap();
    // Near the unstable intermediate axis, so the motion tumbles.
    let y0 = CotangentPoint::from_body(
        So3::exp(&Vector3::new(0.3, 0.2, -0.1)),
        Vector3::new(0.3, 2.0, 0.4),
    );
    let (h, n) = (0.05, long_steps());
    println!("free rigid body, I = diag(1, 2, 3), h = {h}, {n} steps");
    let runs = [
        (
            "symplectic-theta(0.5)",
            long_run(&body, ThetaMethod::midpoint(body.clone()), &y0, h, n),
        ),
        (
            "lgvi-cayley",
            long_run(&body, Lgvi::new(body.clone(), LgviMap::Cayley), &y0, h, n),
        ),
        (
            "lgvi-exp",
            long_run(&body, Lgvi::new(body.clone(), LgviMap::Exp), &y0, h, n),
        ),
        (
            "dlm-splitting",
            long_run(&body, DlmSplitting::new(body.clone()), &y0, h, n),
        ),
    ];
    for (name, run) in &runs {
        print_run(name, run);
        assert!(run.casimir <= 1e-10, "{name}: Casimir {:e}", run.casimir);
        assert!(
            run.spatial <= 1e-10,
            "{name}: spatial momentum {:e}",
            run.spatial
        );
        assert!(
            run.orthogonality <= 1e-10,
            "{name}: orthogonality {:e}",
            run.orthogonality
        );
        assert!(
            run.amplitude() <= 1e-2,
            "{name}: energy error {:e}",
            run.amplitude()
        );
        assert_no_energy_drift(name, run, 1e-16 * n as f64);
    }
}

#[test]
fn heavy_top_energy_error_is_bounded_and_vertical_momentum_conserved() {
    let top = HeavyTop::heavy_top_bc10();
    let y0 = HeavyTop::heavy_top_bc10_initial();
    let (h, n) = (1e-3, long_steps());
    println!("BC10 heavy top, h = {h}, {n} steps");
    let runs = [
        (
            "symplectic-theta(0.5)",
            long_run(&top, ThetaMethod::midpoint(top.clone()), &y0, h, n),
        ),
        (
            "lgvi-cayley",
            long_run(&top, Lgvi::new(top.clone(), LgviMap::Cayley), &y0, h, n),
        ),
        (
            "dlm-splitting",
            long_run(&top, DlmSplitting::new(top.clone()), &y0, h, n),
        ),
    ];
    for (name, run) in &runs {
        print_run(name, run);
        assert!(run.vertical <= 1e-10, "{name}: e₃·π {:e}", run.vertical);
        assert!(
            run.orthogonality <= 1e-10,
            "{name}: orthogonality {:e}",
            run.orthogonality
        );
        assert!(
            run.amplitude() <= 1e-2,
            "{name}: energy error {:e}",
            run.amplitude()
        );
        assert_no_energy_drift(name, run, 1e-16 * n as f64);
    }
}
