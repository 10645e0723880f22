//! The heavy top of [CCLMO22, §3.4] with the symplectic Lie group integrators of its §3.2:
//! SLGI (the θ-method on `T*SO(3)`, eqs. (21)–(22)) and SLGIKK (the θ-method on the larger group
//! `T*SE(3)` with the quadratic Hamiltonian, eqs. (29)–(32), [`HeavyTopLargerGroup`]).
//!
//! - the θ-method equals the scheme (T1)–(T6) of `docs/symplectic.md` (our reading of
//!   [CCLMO22, eqs. (15)–(17)]) written out below with plain 3×3 matrices, for one step;
//! - SLGIKK has order 2 at θ = ½ against an RKMK6 reference of the *other* formulation
//!   (`T*SO(3)`), so the reconstructed larger-group equations are checked too;
//! - on the larger group the θ-family collapses to one map: `H` is left-invariant, and the
//!   discrete action `S_d = ext_μ̄ h[⟨μ̄, ξ⟩ − H(exp(θhξ)g₀, μ̄)]` does not depend on θ once
//!   `μ̄` is replaced by `μ̃ = Ad*_{exp(θhξ)} μ̄` (`H(exp(θhξ)g₀, μ̄) = H(g₀, μ̃)` and
//!   `⟨μ̄, ξ⟩ = ⟨μ̃, Ad_{exp(−θhξ)} ξ⟩ = ⟨μ̃, ξ⟩`), so every θ gives the same step;
//! - over 6000 steps of h = 0.01 on the data of \[BC10\] the energy error of SLGIKK stays bounded
//!   (no secular growth), and the momentum `μ` (hence `p = e₃` and `e₃·π`) stays at round-off.

use liegroup::{LieGroup, Se3, So3};
use nalgebra::{Matrix3, Vector3};
use schemes::catalogue::BUTCHER6;
use schemes::symplectic::{
    CotangentAction, CotangentPoint, HamiltonianVectorField, HeavyTop, HeavyTopLargerGroup,
    RigidBody, ThetaMethod, UniformGravity,
};
use schemes::{ConvergenceRow, Options, Problem, Rkmk, format_table, integrate, measure_order};

/// A state-dependent top (`docs/derivations.md` §5): I = diag(1, 2, 3), m g = 1.5,
/// X = (0.1, 0.2, 1)/|·|.
fn v_top() -> HeavyTop {
    let chi = Vector3::new(0.1, 0.2, 1.0).normalize();
    RigidBody::new(
        Vector3::new(1.0, 2.0, 3.0),
        UniformGravity::new(1.5, 1.0, chi).unwrap(),
    )
    .unwrap()
}

fn v_state() -> CotangentPoint<So3> {
    CotangentPoint::new(
        So3::exp(&Vector3::new(0.3, 0.2, -0.1)),
        Vector3::new(0.5, -1.0, 2.0),
    )
}

fn hat(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v.z, v.y, v.z, 0.0, -v.x, -v.y, v.x, 0.0)
}

/// Rodrigues: `exp(v̂) = I + (sin α/α) v̂ + ((1 − cos α)/α²) v̂²`.
fn expm(v: &Vector3<f64>) -> Matrix3<f64> {
    let a = v.norm();
    let k = hat(v);
    if a < 1e-8 {
        return Matrix3::identity() + k + 0.5 * k * k;
    }
    Matrix3::identity() + (a.sin() / a) * k + ((1.0 - a.cos()) / (a * a)) * k * k
}

/// `dexp_v = I + ((1 − cos α)/α²) v̂ + ((α − sin α)/α³) v̂²` (right trivialized).
fn dexp(v: &Vector3<f64>) -> Matrix3<f64> {
    let a = v.norm();
    let k = hat(v);
    if a < 1e-8 {
        return Matrix3::identity() + 0.5 * k + k * k / 6.0;
    }
    Matrix3::identity() + ((1.0 - a.cos()) / (a * a)) * k + ((a - a.sin()) / (a * a * a)) * k * k
}

/// One step of the θ-method written out on `T*SO(3)` (right trivialization, `𝔤* ≅ ℝ³`,
/// `Ad*_{exp x} = exp(x̂)ᵀ`, `dexp*_x = dexp_xᵀ`) for `H = ½ πᵀ R I⁻¹ Rᵀ π + m g e₃·(R X)`:
///
/// ```text
///   R̄ = exp(θhξ̂) R₀,   ω̄ = R̄ I⁻¹ R̄ᵀ μ̄,   ν̄ = ω̄ × μ̄ + m g (R̄X) × e₃,
///   ξ = ω̄,
///   μ̄ = dexp_{−hξ}ᵀ (μ₀ − h exp(θhξ̂)ᵀ ν̄) + θh dexp_{θhξ}ᵀ ν̄,
///   R₁ = exp(hξ̂) R₀,   μ₁ = exp(hξ̂) (μ₀ − h exp(θhξ̂)ᵀ ν̄),
/// ```
///
/// solved by plain fixed-point iteration on (ξ, μ̄) until it stops changing.
fn theta_step_literal(
    inertia: Vector3<f64>,
    mg: f64,
    x: Vector3<f64>,
    r0: Matrix3<f64>,
    mu0: Vector3<f64>,
    h: f64,
    theta: f64,
) -> (Matrix3<f64>, Vector3<f64>) {
    let e3 = Vector3::z();
    let inv = Matrix3::from_diagonal(&inertia.map(|i| 1.0 / i));
    let nu_of = |rbar: &Matrix3<f64>, mubar: &Vector3<f64>| {
        let w = rbar * inv * rbar.transpose() * mubar;
        (w, w.cross(mubar) + mg * (rbar * x).cross(&e3))
    };
    let mut xi = r0 * inv * r0.transpose() * mu0;
    let mut mubar = mu0;
    for _ in 0..200 {
        let rbar = expm(&(theta * h * xi)) * r0;
        let (w, nu) = nu_of(&rbar, &mubar);
        let pulled = expm(&(theta * h * xi)).transpose() * nu;
        let new_mubar = dexp(&(-h * xi)).transpose() * (mu0 - h * pulled)
            + theta * h * dexp(&(theta * h * xi)).transpose() * nu;
        let change = (w - xi).amax().max((new_mubar - mubar).amax());
        xi = w;
        mubar = new_mubar;
        if change == 0.0 {
            break;
        }
    }
    let rbar = expm(&(theta * h * xi)) * r0;
    let (_, nu) = nu_of(&rbar, &mubar);
    let pulled = expm(&(theta * h * xi)).transpose() * nu;
    (expm(&(h * xi)) * r0, expm(&(h * xi)) * (mu0 - h * pulled))
}

#[test]
fn theta_method_equals_the_written_out_equations() {
    let top = v_top();
    let y0 = v_state();
    let gravity = top.potential();
    for theta in [0.0, 0.5, 0.8] {
        let h = 0.05;
        let (r1, mu1) = theta_step_literal(
            top.inertia(),
            gravity.mass() * gravity.gravity(),
            gravity.center_of_mass(),
            *y0.g.matrix(),
            y0.mu,
            h,
            theta,
        );
        let y1 = ThetaMethod::new(top.clone(), theta)
            .unwrap()
            .advance(0.0, &y0, h)
            .unwrap();
        let dr = (y1.g.matrix() - r1).amax();
        let dmu = (y1.mu - mu1).amax() / mu1.amax();
        // Both solve the same equations to the solver tolerance (1e-14); a wrong sign or a
        // misplaced θ changes the step by O(h²) ≈ 2.5e-3.
        assert!(
            dr < 64.0 * f64::EPSILON && dmu < 64.0 * f64::EPSILON,
            "θ = {theta}: ‖ΔR‖ = {dr:e}, ‖Δμ‖ = {dmu:e}"
        );
    }
}

/// max(‖R − R_ref‖_max, ‖π − π_ref‖_∞ / max(1, ‖π_ref‖_∞)) of the projections to `T*SO(3)`.
fn distance(a: &CotangentPoint<Se3>, b: &CotangentPoint<Se3>) -> f64 {
    let (a, b) = (
        HeavyTopLargerGroup::project(a),
        HeavyTopLargerGroup::project(b),
    );
    let dr = (a.g.matrix() - b.g.matrix()).amax();
    let dp = (a.mu - b.mu).amax() / b.mu.amax().max(1.0);
    dr.max(dp)
}

/// RKMK with Butcher's sixth-order tableau on `T*SO(3)` (the heavy top of eqs. (21)–(22)),
/// checked against a run with half the steps.
fn so3_reference(
    top: &HeavyTop,
    y0: &CotangentPoint<So3>,
    t_end: f64,
    n: usize,
) -> CotangentPoint<So3> {
    let problem = Problem::new(
        CotangentAction::<So3>::new(),
        HamiltonianVectorField(top.clone()),
    );
    let mut rk = Rkmk::<CotangentAction<So3>>::exp(&BUTCHER6).unwrap();
    let fine = integrate(
        &problem,
        &mut rk,
        0.0,
        y0.clone(),
        t_end,
        &Options::count(n).save_final(),
    )
    .unwrap();
    let coarse = integrate(
        &problem,
        &mut rk,
        0.0,
        y0.clone(),
        t_end,
        &Options::count(n / 2).save_final(),
    )
    .unwrap();
    let (a, b) = (fine.last().1, coarse.last().1);
    let check = (a.g.matrix() - b.g.matrix())
        .amax()
        .max((a.mu - b.mu).amax());
    assert!(check < 1e-11, "reference not converged: {check:e}");
    a.clone()
}

fn slgikk_row(
    big: &HeavyTopLargerGroup,
    theta: f64,
    z0: &CotangentPoint<Se3>,
    t_end: f64,
    reference: &CotangentPoint<Se3>,
    steps: &[usize],
) -> ConvergenceRow {
    let problem = Problem::new(
        CotangentAction::<Se3>::new(),
        HamiltonianVectorField(big.clone()),
    );
    let mut stepper = ThetaMethod::new(big.clone(), theta).unwrap();
    measure_order(
        &problem,
        &mut stepper,
        0.0,
        z0,
        t_end,
        reference,
        steps,
        distance,
        1e-12,
    )
    .unwrap()
}

#[test]
fn slgikk_has_order_two_at_theta_half() {
    let top = v_top();
    let big = HeavyTopLargerGroup::new(&top);
    let y0 = v_state();
    let t_end = 1.0;
    // The reference is the T*SO(3) solution; only its projection enters `distance`.
    let reference = HeavyTopLargerGroup::lift(&so3_reference(&top, &y0, t_end, 4000));
    let z0 = HeavyTopLargerGroup::lift(&y0);
    let half = slgikk_row(&big, 0.5, &z0, t_end, &reference, &[20, 40, 80, 160, 320]);
    println!("{}", format_table(std::slice::from_ref(&half)));
    let fit = half.fit.as_ref().expect("a fit");
    assert!(
        (fit.slope - 2.0).abs() <= 0.2 && fit.used.len() >= 3,
        "θ-method on T*SE(3): observed {:.3}, expected 2; errors {:?}",
        fit.slope,
        half.errors
    );
}

#[test]
fn slgikk_does_not_depend_on_theta() {
    // See the module documentation: for a left-invariant H the discrete action is θ-free.
    let big = HeavyTopLargerGroup::new(&v_top());
    let z0 = HeavyTopLargerGroup::lift(&v_state());
    let h = 0.1;
    let a = ThetaMethod::new(big.clone(), 0.5)
        .unwrap()
        .advance(0.0, &z0, h)
        .unwrap();
    for theta in [0.0, 0.3, 1.0] {
        let b = ThetaMethod::new(big.clone(), theta)
            .unwrap()
            .advance(0.0, &z0, h)
            .unwrap();
        // Equal to the solver tolerance (1e-14); an O(h) change of method would show 1e-2.
        let d = distance(&a, &b).max((a.mu - b.mu).amax());
        assert!(d < 64.0 * f64::EPSILON, "θ = {theta}: {d:e}");
    }
    // On T*SO(3) (not left-invariant: gravity breaks it) θ does matter.
    let top = v_top();
    let y0 = v_state();
    let a = ThetaMethod::new(top.clone(), 0.5)
        .unwrap()
        .advance(0.0, &y0, h)
        .unwrap();
    let b = ThetaMethod::new(top, 0.0)
        .unwrap()
        .advance(0.0, &y0, h)
        .unwrap();
    assert!((a.mu - b.mu).amax() > 1e-5);
}

#[test]
fn slgikk_energy_bounded_and_momentum_at_round_off_over_6000_steps() {
    // [CCLMO22 §3.4.4]: h = 0.01, 6000 steps, θ = ½, the top of [BC10].
    let top = HeavyTop::heavy_top_bc10();
    let big = HeavyTopLargerGroup::new(&top);
    let y0 = HeavyTop::heavy_top_bc10_initial();
    let z0 = HeavyTopLargerGroup::lift(&y0);
    let e0 = top.energy(&y0);
    let mut stepper = ThetaMethod::midpoint(big.clone());
    let (h, n) = (0.01, 6000);
    let mut z = z0.clone();
    let (mut first, mut second, mut momentum, mut orth) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
    for k in 0..n {
        z = stepper.advance(h * k as f64, &z, h).unwrap();
        let de = ((big.energy(&z) - e0) / e0).abs();
        if k < n / 2 {
            first = first.max(de);
        } else {
            second = second.max(de);
        }
        momentum = momentum.max((z.mu - z0.mu).amax() / z0.mu.amax());
        let q = z.g.rotation().matrix();
        orth = orth.max((q.transpose() * q - Matrix3::identity()).amax());
    }
    println!("max |ΔE|/E: first half {first:.3e}, second half {second:.3e}; μ {momentum:.2e}");
    // A symplectic method has an energy error that oscillates without secular growth: the
    // second half of the run is no worse than the first (a drifting method doubles it).
    assert!(
        second <= 1.5 * first,
        "energy drift: {first:e} then {second:e}"
    );
    // The whole μ (so p = e₃ and e₃·π) is a momentum map of the left-invariant H: conserved
    // up to the solver tolerance (1e-14 relative per step) accumulated over the n steps.
    let tol = stepper.options().tol;
    assert!(momentum < n as f64 * tol, "μ drift {momentum:e}");
    assert!(orth < 1e3 * f64::EPSILON, "QᵀQ − I = {orth:e}");
    // The projected state is a heavy-top state whose energy matches H on the larger group.
    let y = HeavyTopLargerGroup::project(&z);
    let e_small = top.energy(&y);
    assert!((e_small - big.energy(&z)).abs() <= 1e3 * f64::EPSILON * e0.abs());
}
