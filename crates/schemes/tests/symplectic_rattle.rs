//! RATTLE on the rotation matrix (`RattleRotation`, \[DLM97\] §2): the constraint `QᵀQ = I` held
//! to round-off without reprojection, order 2 against an independent reference, bounded energy
//! error with no drift, conservation of the spatial momentum of the free body, and the identity
//! with the LGVI of Lee–Leok–McClamroch (`c = ½`, Cayley) that eliminating the multiplier gives.

use liegroup::{LieGroup, So3};
use nalgebra::{Matrix3, Vector3};
use schemes::catalogue::BUTCHER6;
use schemes::symplectic::{
    CotangentAction, CotangentPoint, FreeRigidBody, HamiltonianVectorField, HeavyTop, Lgvi,
    LgviMap, RattleRotation, RattleState, RigidBody, UniformGravity,
};
use schemes::{Options, Problem, Rkmk, integrate};

type Act = CotangentAction<So3>;

/// An asymmetric top: I = diag(1, 2, 2.5) (J = (1.75, 0.75, 0.25) > 0), m g = 1.5,
/// centre of mass (0.1, 0.2, 1)/|·|.
fn top() -> HeavyTop {
    let chi = Vector3::new(0.1, 0.2, 1.0).normalize();
    RigidBody::new(
        Vector3::new(1.0, 2.0, 2.5),
        UniformGravity::new(1.5, 1.0, chi).unwrap(),
    )
    .unwrap()
}

fn y0() -> CotangentPoint<So3> {
    CotangentPoint::new(
        So3::exp(&Vector3::new(0.3, 0.2, -0.1)),
        Vector3::new(0.5, -1.0, 2.0),
    )
}

fn orthogonality(q: &Matrix3<f64>) -> f64 {
    (q.transpose() * q - Matrix3::identity()).amax()
}

/// ‖QᵀQ − I‖_max stays at a few ε over 10⁵ steps with no reprojection (the constraint is imposed
/// on Q₁ itself each step, so the defect cannot accumulate), and the energy error stays bounded
/// with no linear trend (symplectic, symmetric method: E − E₀ = O(h²) oscillation).
#[test]
fn constraint_to_round_off_and_energy_without_drift_over_1e5_steps() {
    let body = top();
    let mut rattle = RattleRotation::new(body.clone()).unwrap();
    let h = 0.05;
    let n = 100_000;
    let mut s = rattle.lift(&y0());
    let e0 = rattle.energy(&s);
    assert!((e0 - body.energy(&y0())).abs() <= 8.0 * f64::EPSILON * e0.abs());
    let mut worst: f64 = 0.0;
    let (mut sum_t, mut sum_e, mut sum_tt, mut sum_te) = (0.0, 0.0, 0.0, 0.0);
    let (mut first, mut last) = (0.0_f64, 0.0_f64);
    for k in 1..=n {
        s = rattle.advance_matrix(0.0, &s, h).unwrap();
        worst = worst.max(orthogonality(&s.q));
        let de = rattle.energy(&s) - e0;
        let t = k as f64 * h;
        (sum_t, sum_e, sum_tt, sum_te) = (sum_t + t, sum_e + de, sum_tt + t * t, sum_te + t * de);
        if k <= n / 10 {
            first = first.max(de.abs());
        }
        if k > n - n / 10 {
            last = last.max(de.abs());
        }
    }
    assert!(
        worst <= 16.0 * f64::EPSILON,
        "‖QᵀQ − I‖ reached {:.1} ε",
        worst / f64::EPSILON
    );
    eprintln!(
        "max ‖QᵀQ − I‖ = {:.1} ε; max |ΔE| first tenth {first:.3e}, last tenth {last:.3e}",
        worst / f64::EPSILON
    );
    let nf = n as f64;
    let slope = (nf * sum_te - sum_t * sum_e) / (nf * sum_tt - sum_t * sum_t);
    let span = n as f64 * h;
    // A drift would make the fitted change over the run comparable to the oscillation amplitude
    // and the last tenth's maximum much larger than the first tenth's.
    assert!(first > 0.0 && first < 5e-2, "energy error {first:e}");
    assert!(
        (slope * span).abs() < 0.05 * first,
        "energy trend {:.2e} over the run against an oscillation of {first:.2e}",
        slope * span
    );
    assert!(
        last < 2.0 * first,
        "first tenth {first:e}, last tenth {last:e}"
    );
}

/// Observed order 2 on the heavy top against an RKMK run with Butcher's sixth-order tableau (an
/// independent method) at t = 2.
#[test]
fn order_two_on_the_heavy_top() {
    let body = top();
    let t_end = 2.0;
    let problem = Problem::new(Act::new(), HamiltonianVectorField(body.clone()));
    let mut rk = Rkmk::<Act>::exp(&BUTCHER6).unwrap();
    let reference = integrate(
        &problem,
        &mut rk,
        0.0,
        y0(),
        t_end,
        &Options::count(2000).save_final(),
    )
    .unwrap()
    .last()
    .1
    .clone();
    let mut errors = Vec::new();
    for n in [20_usize, 40, 80, 160, 320] {
        let mut rattle = RattleRotation::new(body.clone()).unwrap();
        let h = t_end / n as f64;
        let mut y = y0();
        for _ in 0..n {
            y = rattle.advance(0.0, &y, h).unwrap();
        }
        let err = (y.g.matrix() - reference.g.matrix())
            .amax()
            .max((y.mu - reference.mu).amax());
        errors.push(err);
    }
    eprintln!("errors {errors:?}");
    for w in errors.windows(2) {
        let p = (w[0] / w[1]).log2();
        assert!(
            (p - 2.0).abs() < 0.1,
            "local order {p:.3}, errors {errors:?}"
        );
    }
}

/// The free rigid body conserves the spatial angular momentum π = QΠ (Noether, the method is
/// SO(3)-equivariant) to round-off, and RATTLE rejects a flat body (J singular).
#[test]
fn free_body_spatial_momentum_and_singular_j() {
    let body = FreeRigidBody::free(Vector3::new(1.0, 2.0, 2.5)).unwrap();
    let mut rattle = RattleRotation::new(body).unwrap();
    let mut y = y0();
    let pi0 = y.mu;
    for _ in 0..10_000 {
        y = rattle.advance(0.0, &y, 0.1).unwrap();
    }
    let drift = (y.mu - pi0).amax() / pi0.amax();
    eprintln!("spatial momentum drift {drift:e}");
    assert!(drift < 1e-12, "spatial momentum drift {drift:e}");
    // I₃ = I₁ + I₂: J₃ = 0.
    let flat = FreeRigidBody::free(Vector3::new(1.0, 2.0, 3.0)).unwrap();
    assert!(RattleRotation::new(flat).is_err());
    let rattle = RattleRotation::new(FreeRigidBody::free(Vector3::new(1.0, 2.0, 2.5)).unwrap());
    assert!(rattle.unwrap().with_tolerance(0.5, 10).is_err());
}

/// Eliminating the multiplier turns (R2)–(R5) into the LGVI equations (L2), (L5) with c = ½
/// (`docs/langevin.md` §1): one step of each from the same states along a trajectory agrees to
/// round-off (rotation and spatial momentum).
#[test]
fn one_step_equals_lgvi_cayley_to_round_off() {
    let body = top();
    let mut rattle = RattleRotation::new(body.clone()).unwrap();
    let mut lgvi = Lgvi::new(body, LgviMap::Cayley);
    let mut y = y0();
    let mut worst: f64 = 0.0;
    for h in [0.01, 0.05, 0.2] {
        for _ in 0..200 {
            let a = rattle.advance(0.0, &y, h).unwrap();
            let b = lgvi.advance(0.0, &y, h).unwrap();
            let d = (a.g.matrix() - b.g.matrix())
                .amax()
                .max((a.mu - b.mu).amax() / b.mu.amax());
            worst = worst.max(d);
            y = b;
        }
    }
    eprintln!("RATTLE − LGVI = {worst:e}");
    assert!(
        worst <= 64.0 * f64::EPSILON,
        "RATTLE − LGVI = {worst:e} ({:.1} ε)",
        worst / f64::EPSILON
    );
}

/// `lift` and `project` are inverse (to round-off), and `lift` satisfies the hidden constraint
/// `QᵀPJ⁻¹ + (QᵀPJ⁻¹)ᵀ = 0`.
#[test]
fn lift_and_project_are_inverse() {
    let rattle = RattleRotation::new(top()).unwrap();
    let y = y0();
    let s: RattleState = rattle.lift(&y);
    let jinv = Matrix3::from_diagonal(&rattle.nonstandard_inertia().map(|x| 1.0 / x));
    let v = s.q.transpose() * s.p * jinv;
    assert!((v + v.transpose()).amax() <= 8.0 * f64::EPSILON * v.amax());
    let back = rattle.project(&s);
    assert!((back.mu - y.mu).amax() <= 8.0 * f64::EPSILON * y.mu.amax());
    assert_eq!(back.g.matrix(), y.g.matrix());
    let _ = So3::identity().compose(&back.g);
}
