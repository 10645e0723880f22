//! The right-trivialized cotangent bundle `T*G ≅ G ⋉ 𝔤*` as a Lie group (laws on SO(3) and
//! SE(3), the identification T*SO(3) ≅ SE(3)), the Hamiltonian vector field, and the θ-family
//! on groups other than SO(3): the reduction to the implicit midpoint rule and the symplectic
//! Euler methods on ℝ, and a rigid body moving in space on T*SE(3) (order, momentum map,
//! symplecticity with dual numbers in 12 canonical coordinates).

use homogeneous::{Action, LieVectorField};
use liegroup::num_dual::Dual64;
use liegroup::{LieGroup, Rn, Se3, So3, VectorSpace};
use nalgebra::{DMatrix, RealField, Vector1, Vector3, Vector6};
use schemes::catalogue::BUTCHER6;
use schemes::symplectic::{
    CotangentAction, CotangentHamiltonian, CotangentPoint, HamiltonianVectorField, HeavyTop,
    RigidBody, ThetaMethod, dexp_star, dexpinv_star,
};
use schemes::{Options, Problem, Rkmk, format_table, integrate, measure_order};

fn so3_point(seed: f64) -> CotangentPoint<So3> {
    CotangentPoint::new(
        So3::exp(&Vector3::new(0.3 * seed, -0.7, 0.2 + seed)),
        Vector3::new(1.0, -2.0 * seed, 0.5),
    )
}

fn se3_point(seed: f64) -> CotangentPoint<Se3> {
    CotangentPoint::new(
        Se3::exp(&Vector6::new(
            0.3 * seed,
            -0.7,
            0.2 + seed,
            1.0,
            -0.5 * seed,
            2.0,
        )),
        Vector6::new(1.0, -2.0 * seed, 0.5, 0.3, 0.1 * seed, -1.0),
    )
}

type Alg<G> = (<G as LieGroup>::Algebra, <G as LieGroup>::Algebra);

fn dist<G: LieGroup<Scalar = f64>>(a: &CotangentPoint<G>, b: &CotangentPoint<G>) -> f64 {
    a.compose(&b.inverse()).log().inner_norm()
}

fn alg_dist<V: VectorSpace<Scalar = f64>>(a: &V, b: &V) -> f64 {
    a.subtracted(b).max_abs()
}

/// The group laws, the exponential, Ad and the bracket of `G ⋉ 𝔤*`, and the generator of left
/// multiplication `(ξ, δ)·(g, μ) = (ξg, δ − ad*_ξ μ)`, by finite differences where needed.
fn check_laws<G: LieGroup<Scalar = f64>>(points: &[CotangentPoint<G>], x: &Alg<G>, y: &Alg<G>) {
    let (a, b, c) = (&points[0], &points[1], &points[2]);
    let tol = 1e-12;
    // Associativity, identity, inverse.
    assert!(dist(&a.compose(b).compose(c), &a.compose(&b.compose(c))) < tol);
    assert!(dist(&a.compose(&a.identity_like()), a) < tol);
    assert!(dist(&a.inverse().compose(a), &a.identity_like()) < tol);
    // exp is a one-parameter subgroup and log inverts it.
    let e = CotangentPoint::<G>::exp(x);
    let e2 = CotangentPoint::<G>::exp(&(x.0.scaled(2.0), x.1.scaled(2.0)));
    assert!(dist(&e.compose(&e), &e2) < tol);
    assert!(alg_dist(&e.log(), x) < tol);
    // g exp(X) g⁻¹ = exp(Ad_g X).
    let conj = a.compose(&e).compose(&a.inverse());
    assert!(dist(&conj, &CotangentPoint::<G>::exp(&a.adjoint(x))) < tol);
    // Ad is a homomorphism.
    assert!(alg_dist(&a.compose(b).adjoint(y), &a.adjoint(&b.adjoint(y))) < tol);
    // d/dt Ad_{exp(tX)} Y = [X, Y] (central differences).
    let eps = 1e-5;
    let ad = |s: f64| CotangentPoint::<G>::exp(&(x.0.scaled(s), x.1.scaled(s))).adjoint(y);
    let fd0 = ad(eps).0.subtracted(&ad(-eps).0).scaled(0.5 / eps);
    let fd1 = ad(eps).1.subtracted(&ad(-eps).1).scaled(0.5 / eps);
    let br = CotangentPoint::<G>::bracket(x, y);
    assert!(alg_dist(&fd0, &br.0) < 1e-8 && alg_dist(&fd1, &br.1) < 1e-8);
    // Generator: d/dt exp(tX)·(g, μ) = ((ξg)g⁻¹, δ − ad*_ξ μ) in the right trivialization.
    let moved = |s: f64| CotangentPoint::<G>::exp(&(x.0.scaled(s), x.1.scaled(s))).compose(a);
    let dg = moved(eps)
        .g
        .compose(&moved(-eps).g.inverse())
        .log()
        .scaled(0.5 / eps);
    let dmu = moved(eps).mu.subtracted(&moved(-eps).mu).scaled(0.5 / eps);
    let mut expected = x.1.clone();
    expected.add_scaled(-1.0, &G::ad_star(&x.0, &a.mu));
    assert!(alg_dist(&dg, &x.0) < 1e-8 && alg_dist(&dmu, &expected) < 1e-8);
    // The action is transitive: b = (b a⁻¹)·a.
    assert!(dist(&b.compose(&a.inverse()).compose(a), b) < tol);
}

#[test]
fn the_cotangent_group_obeys_the_group_laws_on_so3_and_se3() {
    let x = (Vector3::new(0.4, -0.2, 0.9), Vector3::new(1.0, 0.5, -2.0));
    let y = (Vector3::new(-0.3, 0.8, 0.1), Vector3::new(0.2, -1.0, 0.7));
    check_laws(&[so3_point(0.1), so3_point(0.5), so3_point(-0.8)], &x, &y);
    let x = (
        Vector6::new(0.4, -0.2, 0.9, 0.3, 0.2, -0.1),
        Vector6::new(1.0, 0.5, -2.0, 0.3, -0.7, 0.2),
    );
    let y = (
        Vector6::new(-0.3, 0.8, 0.1, 0.5, 0.0, 1.0),
        Vector6::new(0.2, -1.0, 0.7, -0.4, 0.6, 0.3),
    );
    check_laws(&[se3_point(0.1), se3_point(0.5), se3_point(-0.8)], &x, &y);
}

#[test]
fn cotangent_so3_is_se3() {
    // (R, π) ↔ [[R, π], [0, 1]] and (ξ, δ) ↔ (rotation ξ, translation δ)
    // (`docs/symplectic.md` §2.2).
    let to_se3 = |p: &CotangentPoint<So3>| Se3::from_parts(p.g, p.mu);
    let (a, b) = (so3_point(0.3), so3_point(-1.1));
    let prod = to_se3(&a.compose(&b));
    let expected = to_se3(&a).compose(&to_se3(&b));
    assert!((prod.to_homogeneous() - expected.to_homogeneous()).amax() < 1e-14);
    let (xi, delta) = (Vector3::new(0.4, -1.2, 0.9), Vector3::new(1.0, 0.5, -2.0));
    let e = CotangentPoint::<So3>::exp(&(xi, delta));
    let e_se3 = Se3::exp(&Vector6::new(
        xi[0], xi[1], xi[2], delta[0], delta[1], delta[2],
    ));
    assert!((to_se3(&e).to_homogeneous() - e_se3.to_homogeneous()).amax() < 1e-14);
    // dexp* is the transpose of dexp: on SO(3) it is dexp_{−x}, on SE(3) it is not.
    let u = Vector6::new(0.4, -0.2, 0.9, 0.3, 0.2, -0.1);
    let (v, mu) = (
        Vector6::new(1.0, 2.0, -1.0, 0.5, 0.3, 0.2),
        Vector6::new(-0.3, 0.7, 1.1, 0.2, -0.4, 0.9),
    );
    let lhs = dexp_star::<Se3>(&u, &mu).dot(&v);
    let rhs = mu.dot(&Se3::dexp(&u, &v));
    assert!((lhs - rhs).abs() < 1e-14);
    assert!((dexpinv_star::<Se3>(&u, &dexp_star::<Se3>(&u, &mu)) - mu).amax() < 1e-13);
    assert!((dexp_star::<Se3>(&u, &mu) - Se3::dexp(&-u, &mu)).amax() > 1e-3);
}

#[test]
fn heavy_top_field_gives_the_heavy_top_equations() {
    // Ṙ = ω̂R, π̇ = m g e₃ × (RX) [CCLMO22, eqs. (21)–(22)] from f = (∂H/∂π, −ν) and the generator.
    let top = HeavyTop::heavy_top_bc10();
    let y = CotangentPoint::new(
        So3::exp(&Vector3::new(0.4, -0.3, 0.2)),
        Vector3::new(3.0, 70.0, -70.0),
    );
    let mut f = (Vector3::zeros(), Vector3::zeros());
    HamiltonianVectorField(top.clone()).eval(0.0, &y, &mut f);
    // The generator of left multiplication at (R, π) is the algebra element (ξ, δ) itself; the
    // velocity it represents is (Ṙ Rᵀ, π̇) = (ξ, δ − ad*_ξ π) (`docs/symplectic.md` §2.2, (S4)).
    let action = CotangentAction::<So3>::new();
    let (rdot_rt, delta) = action.generator(&f, &y);
    let pidot = delta - So3::ad_star(&rdot_rt, &y.mu);
    let omega =
        y.g.rotate(&y.g.inverse_rotate(&y.mu).component_div(&top.inertia()));
    assert!((rdot_rt - omega).amax() < 1e-12);
    let rx = y.g.rotate(&Vector3::new(0.0, 1.0, 0.0));
    let expected = Vector3::z().cross(&rx) * (15.0 * 9.81);
    assert!(
        (pidot - expected).amax() < 1e-11,
        "{pidot:?} vs {expected:?}"
    );
    // The heavy-top Hamiltonian is invariant under rotations about e₃: ν·e₃ + (ad*_ω π)·e₃ = 0.
    assert!(pidot[2].abs() < 1e-11);
}

// ---------------------------------------------------------------------------------------------
// ℝ: reduction to classical methods
// ---------------------------------------------------------------------------------------------

/// The pendulum `H = p²/2 − cos q` on T*ℝ.
struct Pendulum;

impl CotangentHamiltonian<Rn<f64, 1>> for Pendulum {
    fn energy(&self, q: &Rn<f64, 1>, p: &Vector1<f64>) -> f64 {
        0.5 * p[0] * p[0] - q.0[0].cos()
    }
    fn dh_dmu(&self, _q: &Rn<f64, 1>, p: &Vector1<f64>) -> Vector1<f64> {
        *p
    }
    fn dh_dg(&self, q: &Rn<f64, 1>, _p: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(q.0[0].sin())
    }
}

/// Solve a scalar equation by Newton with a numerical derivative.
fn newton(mut x: f64, f: impl Fn(f64) -> f64) -> f64 {
    for _ in 0..100 {
        let d = (f(x + 1e-7) - f(x - 1e-7)) / 2e-7;
        let dx = f(x) / d;
        x -= dx;
        if dx.abs() < 1e-16 {
            break;
        }
    }
    x
}

#[test]
fn on_the_real_line_the_family_is_midpoint_and_symplectic_euler() {
    let h = 0.1;
    let (q0, p0) = (1.0_f64, 0.3_f64);
    let y0 = CotangentPoint::new(Rn::new(Vector1::new(q0)), Vector1::new(p0));
    let run = |theta: f64| {
        ThetaMethod::new(Pendulum, theta)
            .unwrap()
            .advance(0.0, &y0, h)
            .unwrap()
    };
    // θ = ½: implicit midpoint q₁ = q₀ + h p̄, p₁ = p₀ − h sin q̄ with (q̄, p̄) the midpoints.
    let q1 = newton(q0, |q1| {
        let qm = 0.5 * (q0 + q1);
        let p1 = p0 - h * qm.sin();
        q1 - q0 - h * 0.5 * (p0 + p1)
    });
    let p1 = p0 - h * (0.5 * (q0 + q1)).sin();
    let y = run(0.5);
    assert!(
        (y.g.0[0] - q1).abs() < 1e-14 && (y.mu[0] - p1).abs() < 1e-14,
        "{y:?} vs {q1}, {p1}"
    );
    // θ = 0: p₁ = p₀ − h sin q₀ (explicit here), q₁ = q₀ + h p₁.
    let p1 = p0 - h * q0.sin();
    let y = run(0.0);
    assert!((y.g.0[0] - (q0 + h * p1)).abs() < 1e-14 && (y.mu[0] - p1).abs() < 1e-14);
    // θ = 1: q₁ = q₀ + h p₀, p₁ = p₀ − h sin q₁.
    let q1 = q0 + h * p0;
    let y = run(1.0);
    assert!((y.g.0[0] - q1).abs() < 1e-14 && (y.mu[0] - (p0 - h * q1.sin())).abs() < 1e-14);
}

// ---------------------------------------------------------------------------------------------
// SE(3): a rigid body moving in space
// ---------------------------------------------------------------------------------------------

/// A rigid body (principal inertia `I`, mass `m`, centre of mass at the body origin) moving in
/// space, held by a spring `½k|x|²` to the origin and pulled by gravity `m g x₃`:
/// `H = ½ Mᵀ𝕀⁻¹M + V(x)`, `M = Ad*_g μ` the body momentum, `𝕀 = diag(I, m, m, m)`.
/// `∂H/∂μ = Ad_g 𝕀⁻¹M`, `ν = −ad*_{∂H/∂μ} μ + (x × ∇V, ∇V)`. Rotations about the vertical through
/// the origin are a symmetry: the momentum map `μ₃` (rotation part, third component) is conserved.
#[derive(Clone)]
struct SpringBody;

const INERTIA: [f64; 6] = [1.0, 2.0, 3.0, 1.5, 1.5, 1.5];
const SPRING: f64 = 2.0;
const WEIGHT: f64 = 1.5 * 9.81;

impl<T: RealField + Copy> CotangentHamiltonian<Se3<T>> for SpringBody {
    fn energy(&self, g: &Se3<T>, mu: &Vector6<T>) -> T {
        let m = g.inverse().coadjoint(mu);
        let w = m.component_div(&Vector6::from_row_slice(&INERTIA).cast());
        let x = g.translation();
        nalgebra::convert::<f64, T>(0.5)
            * (m.dot(&w) + x.dot(x) * nalgebra::convert::<f64, T>(SPRING))
            + x[2] * nalgebra::convert::<f64, T>(WEIGHT)
    }
    fn dh_dmu(&self, g: &Se3<T>, mu: &Vector6<T>) -> Vector6<T> {
        let m = g.inverse().coadjoint(mu);
        g.adjoint(&m.component_div(&Vector6::from_row_slice(&INERTIA).cast()))
    }
    fn dh_dg(&self, g: &Se3<T>, mu: &Vector6<T>) -> Vector6<T> {
        let w = self.dh_dmu(g, mu);
        let x = *g.translation();
        let grad = x * nalgebra::convert::<f64, T>(SPRING)
            + Vector3::z() * nalgebra::convert::<f64, T>(WEIGHT);
        let r = x.cross(&grad);
        -Se3::ad_star(&w, mu) + Vector6::new(r[0], r[1], r[2], grad[0], grad[1], grad[2])
    }
}

fn spring_start() -> CotangentPoint<Se3> {
    let g = Se3::from_parts(
        So3::exp(&Vector3::new(0.2, -0.4, 0.3)),
        Vector3::new(0.5, -0.2, 0.1),
    );
    // Body twist (Ω, V) = (0.5, −1, 2, 0.3, 0.4, −0.2); μ = Ad*_{g⁻¹} 𝕀 (Ω, V).
    let twist = Vector6::new(0.5, -1.0, 2.0, 0.3, 0.4, -0.2);
    CotangentPoint::new(
        g,
        g.coadjoint(&twist.component_mul(&Vector6::from_row_slice(&INERTIA))),
    )
}

#[test]
fn rigid_body_in_space_on_t_star_se3() {
    type Act = CotangentAction<Se3>;
    let y0 = spring_start();
    let t_end = 1.0;
    let problem = Problem::new(Act::new(), HamiltonianVectorField(SpringBody));
    let mut rk = Rkmk::<Act>::exp(&BUTCHER6).unwrap();
    let reference = integrate(
        &problem,
        &mut rk,
        0.0,
        y0.clone(),
        t_end,
        &Options::count(4000).save_final(),
    )
    .unwrap();
    let reference = reference.last().1.clone();
    let d = |a: &CotangentPoint<Se3>, b: &CotangentPoint<Se3>| {
        (a.g.to_homogeneous() - b.g.to_homogeneous())
            .amax()
            .max((a.mu - b.mu).amax())
    };
    let steps = [20, 40, 80, 160, 320];
    let mut rows = Vec::new();
    for (theta, order) in [(0.5, 2.0), (0.0, 1.0), (1.0, 1.0)] {
        let mut m = ThetaMethod::new(SpringBody, theta).unwrap();
        let row = measure_order(
            &problem, &mut m, 0.0, &y0, t_end, &reference, &steps, d, 1e-12,
        )
        .unwrap();
        let slope = row.observed_order();
        assert!((slope - order).abs() <= 0.2, "θ = {theta}: {slope}");
        rows.push(row);
    }
    println!("{}", format_table(&rows));
    // Momentum map of rotations about e₃ through the origin, and bounded energy.
    let mut m = ThetaMethod::midpoint(SpringBody);
    let e0 = SpringBody.energy(&y0.g, &y0.mu);
    let (mut drift, mut energy) = (0.0_f64, 0.0_f64);
    let mut y = y0.clone();
    for _ in 0..2000 {
        y = m.advance(0.0, &y, 0.05).unwrap();
        drift = drift.max((y.mu[2] - y0.mu[2]).abs());
        energy = energy.max((SpringBody.energy(&y.g, &y.mu) - e0).abs() / e0.abs());
    }
    println!("T*SE(3), h = 0.05, 2000 steps: |Δμ₃| ≤ {drift:.1e}, |ΔE/E| ≤ {energy:.1e}");
    assert!(drift < 1e-12 && energy < 1e-2);
}

#[test]
fn theta_family_is_symplectic_on_t_star_se3() {
    // Canonical coordinates g = exp(q) g_ref, p = dexp*_q μ on T*SE(3) (12 dimensions).
    let y0 = spring_start();
    let h = 0.2;
    for theta in [0.0, 0.5, 0.8] {
        let mut m = ThetaMethod::<Se3<Dual64>, _>::new(SpringBody, theta).unwrap();
        let lift = |p: &CotangentPoint<Se3>| {
            CotangentPoint::new(
                Se3::from_parts(
                    So3::from_matrix_unchecked(p.g.rotation().matrix().map(Dual64::from)),
                    p.g.translation().map(Dual64::from),
                ),
                p.mu.map(Dual64::from),
            )
        };
        let y0d = lift(&y0);
        let nominal = m.advance(Dual64::from(0.0), &y0d, Dual64::from(h)).unwrap();
        let g1_ref = Se3::from_parts(
            So3::from_matrix_unchecked(nominal.g.rotation().matrix().map(|x| Dual64::from(x.re))),
            nominal.g.translation().map(|x| Dual64::from(x.re)),
        );
        let mut jac = DMatrix::<f64>::zeros(12, 12);
        for k in 0..12 {
            let mut q = Vector6::<Dual64>::zeros();
            let mut p = y0d.mu;
            if k < 6 {
                q[k] = Dual64::new(0.0, 1.0);
            } else {
                p[k - 6] = Dual64::new(p[k - 6].re, 1.0);
            }
            let g = Se3::exp(&q).compose(&y0d.g);
            let mu = dexpinv_star::<Se3<Dual64>>(&q, &p);
            let y1 = m
                .advance(
                    Dual64::from(0.0),
                    &CotangentPoint::new(g, mu),
                    Dual64::from(h),
                )
                .unwrap();
            let q1 = y1.g.compose(&g1_ref.inverse()).log();
            let p1 = dexp_star::<Se3<Dual64>>(&q1, &y1.mu);
            for i in 0..6 {
                jac[(i, k)] = q1[i].eps;
                jac[(i + 6, k)] = p1[i].eps;
            }
        }
        let mut omega = DMatrix::<f64>::zeros(12, 12);
        for i in 0..6 {
            omega[(i, i + 6)] = 1.0;
            omega[(i + 6, i)] = -1.0;
        }
        let defect = (jac.transpose() * &omega * &jac - &omega).amax();
        println!(
            "T*SE(3), θ = {theta}: max|JᵀΩJ − Ω| = {defect:.2e} (max|J| = {:.2})",
            jac.amax()
        );
        assert!(defect < 1e-11);
    }
}

#[test]
fn rigid_body_helpers_are_consistent() {
    let top = RigidBody::heavy_top_bc10();
    assert!((top.inertia() - Vector3::new(15.234375, 0.46875, 15.234375)).amax() < 1e-15);
    let y0 = RigidBody::heavy_top_bc10_initial();
    assert!(
        (y0.body_momentum() - Vector3::new(0.0, 0.46875 * 150.0, -15.234375 * 4.61538)).amax()
            < 1e-12
    );
    // H = ½Π·Ω + m g e₃·(RX); at R = I the centre of mass is horizontal, so U = 0.
    let omega = top.body_velocity(&y0.body_momentum());
    assert!((top.energy(&y0) - 0.5 * y0.body_momentum().dot(&omega)).abs() < 1e-12);
}
