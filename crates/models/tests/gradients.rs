//! Every potential's per-term num-dual gradient against an independent, hand-derived gradient
//! (1e-10 relative) and against fourth-order central differences of the generic value; the
//! generic value with dual numbers; Hessian–vector products against differences of gradients.

// Index loops mirror the formulas (sums over bodies i, j).
#![allow(clippy::needless_range_loop)]

mod common;

use common::{Rng, rel_err};
use models::sphere_systems::{
    CoupledPendulaPotential, DipolePotential, KozlovHarin, LennardJonesPotential, RodPotential,
};
use models::{
    CoupledPendula, DipoleArray, DoubleSphericalPendulum, ElasticRod, LennardJones,
    LinearPotential, NFoldPendulum, Potential, SphereModel, SphereNBody, Spring,
};
use nalgebra::Vector3;
use num_dual::Dual64;

const TOL: f64 = 1e-10;

/// Random unit vectors, `n` of them, with all pairwise chord distances ≥ `min_dist`.
fn spread_points(rng: &mut Rng, n: usize, min_dist: f64) -> Vec<Vector3<f64>> {
    let mut q: Vec<Vector3<f64>> = Vec::with_capacity(n);
    while q.len() < n {
        let v = rng.unit();
        if q.iter().all(|w| (w - v).norm() >= min_dist) {
            q.push(v);
        }
    }
    q
}

/// Fourth-order central differences of `V` (f64 value).
fn fd_gradient<P: Potential>(pot: &P, q: &[Vector3<f64>], h: f64) -> Vec<Vector3<f64>> {
    let mut x = q.to_vec();
    let mut g = vec![Vector3::zeros(); q.len()];
    for i in 0..q.len() {
        for k in 0..3 {
            let x0 = x[i][k];
            let mut f = [0.0; 4];
            for (slot, s) in [-2.0, -1.0, 1.0, 2.0].iter().enumerate() {
                x[i][k] = x0 + s * h;
                f[slot] = pot.value(&x);
            }
            x[i][k] = x0;
            g[i][k] = (f[0] - 8.0 * f[1] + 8.0 * f[2] - f[3]) / (12.0 * h);
        }
    }
    g
}

/// The checks shared by every potential: AD gradient vs the hand-derived one, the returned value
/// vs `value`, finite differences, and the dual-number directional derivative of the generic
/// value.
fn check<P: Potential>(
    name: &str,
    pot: &P,
    q: &[Vector3<f64>],
    hand_value: f64,
    hand: &[Vector3<f64>],
    rng: &mut Rng,
    fd_step: f64,
) {
    let n = q.len();
    let mut g = vec![Vector3::zeros(); n];
    let v = pot.gradient(q, &mut g);
    let e = rel_err(&g, hand);
    assert!(e <= TOL, "{name}: AD gradient vs hand-written: {e:e}");
    let scale = hand_value.abs().max(1e-300);
    assert!(
        (v - hand_value).abs() <= 1e-12 * scale.max(1.0),
        "{name}: value {v} vs hand-written {hand_value}"
    );
    assert!(
        (pot.value(q) - v).abs() <= 1e-12 * scale.max(1.0),
        "{name}: gradient's value differs from value()"
    );
    // Central differences (fourth order): truncation O(h⁴), round-off O(ε/h). The step is
    // scaled to the shortest length scale of the data (σ for Lennard-Jones).
    let fd = fd_gradient(pot, q, fd_step);
    let e_fd = rel_err(&g, &fd);
    assert!(e_fd <= 1e-7, "{name}: AD gradient vs differences: {e_fd:e}");
    // The generic value with Dual64 along a random direction: d/dε V(q + εv) = Σ ∂V/∂qᵢ·vᵢ.
    let dir: Vec<Vector3<f64>> = (0..n).map(|_| rng.vec3()).collect();
    let qd: Vec<Vector3<Dual64>> = q
        .iter()
        .zip(&dir)
        .map(|(qi, vi)| qi.zip_map(vi, Dual64::new))
        .collect();
    let vd = pot.value(&qd);
    let dd: f64 = g.iter().zip(&dir).map(|(gi, vi)| gi.dot(vi)).sum();
    let gscale: f64 = g
        .iter()
        .zip(&dir)
        .map(|(gi, vi)| gi.abs().dot(&vi.abs()))
        .sum();
    assert!(
        (vd.eps - dd).abs() <= 1e-12 * gscale.max(1e-300),
        "{name}: dual directional derivative {} vs {dd}",
        vd.eps
    );
}

#[test]
fn linear_and_pendulum_gravity() {
    let mut rng = Rng::new(1);
    for trial in 0..5 {
        let n = 1 + trial * 3;
        let masses: Vec<f64> = (0..n).map(|_| 1.0 + rng.sym().abs()).collect();
        let lengths: Vec<f64> = (0..n).map(|_| 0.5 + rng.sym().abs()).collect();
        let p = NFoldPendulum::new(masses.clone(), lengths.clone(), 9.81).unwrap();
        let q: Vec<_> = (0..n).map(|_| rng.unit()).collect();
        // ∂V/∂qᵢ = Lᵢ g (Σ_{j≥i} mⱼ) e₃, derived from V = Σ g mⱼ e₃·xⱼ, xⱼ = Σ_{i≤j} Lᵢqᵢ.
        let hand: Vec<_> = (0..n)
            .map(|i| Vector3::z() * (lengths[i] * 9.81 * masses[i..].iter().sum::<f64>()))
            .collect();
        let x = p.positions(&q);
        let hand_value: f64 = (0..n).map(|j| 9.81 * masses[j] * x[j].z).sum();
        check(
            "n-fold pendulum",
            p.system().potential(),
            &q,
            hand_value,
            &hand,
            &mut rng,
            1e-3,
        );
    }
    let lp = LinearPotential::new(vec![
        Vector3::new(1.0, -2.0, 0.5),
        Vector3::new(0.0, 3.0, 1.0),
    ])
    .unwrap();
    let q = vec![rng.unit(), rng.unit()];
    let hand = lp.coefficients().to_vec();
    let hv = hand[0].dot(&q[0]) + hand[1].dot(&q[1]);
    check("linear", &lp, &q, hv, &hand, &mut rng, 1e-3);
    // The double spherical pendulum: gravity along +e₃.
    let d = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let q = vec![rng.unit(), rng.unit()];
    let g = 9.81;
    let l = 9.81;
    let hand = vec![-Vector3::z() * (2.0 * g * l), -Vector3::z() * (g * l)];
    let hv = -2.0 * g * l * q[0].z - g * l * q[1].z;
    check(
        "double spherical pendulum",
        d.system().potential(),
        &q,
        hv,
        &hand,
        &mut rng,
        1e-3,
    );
}

#[test]
fn kozlov_harin() {
    let mut rng = Rng::new(2);
    for &(n, gamma) in &[(2, 1.0), (3, 1.0), (7, 0.3)] {
        let pot = KozlovHarin::new(n, gamma);
        // Keep away from collisions and antipodes (|c| ≤ 0.95).
        let q = loop {
            let q = spread_points(&mut rng, n, 0.32);
            let ok = (0..n).all(|i| (i + 1..n).all(|j| q[i].dot(&q[j]) >= -0.95));
            if ok {
                break q;
            }
        };
        // φ(c) = −γ c/√(1−c²), φ′(c) = −γ(1−c²)^{-3/2}, ∂/∂qᵢ = φ′ qⱼ [LLM09, eq. (3.21)].
        let mut hand = vec![Vector3::zeros(); n];
        let mut hv = 0.0;
        for i in 0..n {
            for j in 0..n {
                if i != j {
                    let c: f64 = q[i].dot(&q[j]);
                    hand[i] -= q[j] * (gamma / (1.0 - c * c).powf(1.5));
                    if i < j {
                        hv -= gamma * c / (1.0 - c * c).sqrt();
                    }
                }
            }
        }
        check("Kozlov-Harin", &pot, &q, hv, &hand, &mut rng, 1e-3);
    }
    let (m, x) = SphereNBody::three_body();
    let pot = m.system().potential();
    let mut g = vec![Vector3::zeros(); 3];
    pot.gradient(&x.q, &mut g);
    assert!(g.iter().all(|v| v.iter().all(|x| x.is_finite())));
}

#[test]
fn coupled_pendula_springs() {
    let mut rng = Rng::new(3);
    let (model, _) = CoupledPendula::four_pendula();
    let pots: Vec<(CoupledPendula, &str)> = vec![
        (model, "preset"),
        (
            CoupledPendula::new(
                vec![0.3, 0.7, 1.1],
                vec![0.4, 0.9, 0.6],
                vec![
                    Vector3::zeros(),
                    Vector3::new(0.7, 0.2, 0.0),
                    Vector3::new(0.0, -0.5, 0.1),
                ],
                vec![
                    Spring {
                        i: 0,
                        j: 1,
                        stiffness: 7.0,
                    },
                    Spring {
                        i: 2,
                        j: 1,
                        stiffness: 3.0,
                    },
                    Spring {
                        i: 0,
                        j: 2,
                        stiffness: 11.0,
                    },
                ],
                9.81,
            )
            .unwrap(),
            "custom",
        ),
    ];
    for (model, label) in &pots {
        let pot: &CoupledPendulaPotential = model.system().potential();
        let n = model.masses().len();
        for _ in 0..4 {
            let q: Vec<_> = (0..n).map(|_| rng.unit()).collect();
            let (m, l, p) = (model.masses(), model.lengths(), model.pivots());
            let g = model.g();
            let mut hand: Vec<_> = (0..n).map(|i| -Vector3::z() * (m[i] * g * l[i])).collect();
            let mut hv: f64 = (0..n).map(|i| -m[i] * g * l[i] * q[i].z).sum();
            for s in model.springs() {
                let (i, j) = (s.i, s.j);
                let r = p[j] - p[i];
                let d = r + q[j] * (0.5 * l[j]) - q[i] * (0.5 * l[i]);
                let stretch = d.norm() - r.norm();
                hv += 0.5 * s.stiffness * stretch * stretch;
                let gd = d * (s.stiffness * stretch / d.norm());
                hand[i] -= gd * (0.5 * l[i]);
                hand[j] += gd * (0.5 * l[j]);
            }
            check(
                &format!("coupled pendula ({label})"),
                pot,
                &q,
                hv,
                &hand,
                &mut rng,
                1e-3,
            );
        }
    }
}

#[test]
fn elastic_rod() {
    let mut rng = Rng::new(4);
    let (preset, _) = ElasticRod::lee_leok_mcclamroch();
    let custom = ElasticRod::new(
        vec![0.2, 0.5, 0.1, 0.4],
        vec![0.3, 0.2, 0.6, 0.1],
        vec![5.0, 1.0, 8.0, 2.5],
        3.0,
        Vector3::new(0.6, 0.0, 0.8),
    )
    .unwrap();
    for model in [&preset, &custom] {
        let pot: &RodPotential = model.system().potential();
        let (m, l, k, g, q0) = (
            model.masses(),
            model.lengths(),
            model.stiffness(),
            model.g(),
            model.clamp(),
        );
        let n = m.len();
        for _ in 0..4 {
            let q: Vec<_> = (0..n).map(|_| rng.unit()).collect();
            // Value straight from [LLM09, Ex. 4]: centres of mass cᵢ = Σ_{j<i} lⱼqⱼ + ½lᵢqᵢ.
            let mut hv = 0.0;
            let mut x = Vector3::zeros();
            for i in 0..n {
                let ci = x + q[i] * (0.5 * l[i]);
                hv -= m[i] * g * ci.z;
                x += q[i] * l[i];
                let prev = if i == 0 { q0 } else { q[i - 1] };
                hv += 0.5 * k[i] * (1.0 - prev.dot(&q[i]));
            }
            // Gradient: ∂/∂q_k of gravity = −g l_k (½m_k + Σ_{i>k} mᵢ) e₃; bending
            // ∂/∂qᵢ ½κᵢ(1 − qᵢ₋₁·qᵢ) = −½κᵢ qᵢ₋₁ and ∂/∂qᵢ₋₁ = −½κᵢ qᵢ.
            let mut hand = vec![Vector3::zeros(); n];
            for kk in 0..n {
                let below: f64 = m[kk + 1..].iter().sum();
                hand[kk] -= Vector3::z() * (g * l[kk] * (0.5 * m[kk] + below));
                let prev = if kk == 0 { q0 } else { q[kk - 1] };
                hand[kk] -= prev * (0.5 * k[kk]);
                if kk > 0 {
                    hand[kk - 1] -= q[kk] * (0.5 * k[kk]);
                }
            }
            check("elastic rod", pot, &q, hv, &hand, &mut rng, 1e-3);
        }
    }
}

#[test]
fn magnetic_dipoles() {
    let mut rng = Rng::new(5);
    let (model, _) = DipoleArray::grid_4x4();
    let pot: &DipolePotential = model.system().potential();
    let (nu, p) = (model.moments(), model.pivots());
    let n = nu.len();
    for _ in 0..4 {
        let q: Vec<_> = (0..n).map(|_| rng.unit()).collect();
        // [LLM09, eq. (3.25)]: ∂V/∂qᵢ = Σ_{j≠i} μ₀νᵢνⱼ/(4π|r|³) [qⱼ − 3 r̂(qⱼ·r̂)].
        let mut hand = vec![Vector3::zeros(); n];
        let mut hv = 0.0;
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let r = p[j] - p[i];
                let d = r.norm();
                let k = 1e-7 * nu[i] * nu[j] / d.powi(3);
                let rh = r / d;
                hand[i] += (q[j] - rh * (3.0 * q[j].dot(&rh))) * k;
                hv += 0.5 * k * (q[i].dot(&q[j]) - 3.0 * q[i].dot(&rh) * q[j].dot(&rh));
            }
        }
        check("dipoles", pot, &q, hv, &hand, &mut rng, 1e-3);
    }
}

/// Lennard-Jones by hand in terms of r: φ = 4ε[(σ/r)¹² − (σ/r)⁶]·S, with the switch S of the
/// squared distance x = r² between x_on = (0.9 r_c)² and x_c = r_c²:
/// S = 1 − 10t³ + 15t⁴ − 6t⁵, t = (x − x_on)/(x_c − x_on); ∂φ/∂qᵢ = (dφ/dr) d/r with
/// dφ/dr = 4ε(−12σ¹²/r¹³ + 6σ⁶/r⁷)·S + 4ε[…]·(dS/dt)(2r/(x_c − x_on)).
fn lj_by_hand(
    q: &[Vector3<f64>],
    eps: f64,
    sigma: f64,
    cutoff: Option<f64>,
) -> (f64, Vec<Vector3<f64>>) {
    let n = q.len();
    let phi = |r: f64| 4.0 * eps * ((sigma / r).powi(12) - (sigma / r).powi(6));
    let dphi = |r: f64| {
        4.0 * eps * (-12.0 * sigma.powi(12) / r.powi(13) + 6.0 * sigma.powi(6) / r.powi(7))
    };
    let rc = cutoff.unwrap_or(f64::INFINITY);
    let (x_on, x_c) = ((0.9 * rc).powi(2), rc * rc);
    let switch = |r: f64| -> (f64, f64) {
        let x = r * r;
        if x <= x_on {
            return (1.0, 0.0);
        }
        let t = (x - x_on) / (x_c - x_on);
        let s = 1.0 - 10.0 * t.powi(3) + 15.0 * t.powi(4) - 6.0 * t.powi(5);
        let ds_dt = -30.0 * t.powi(2) + 60.0 * t.powi(3) - 30.0 * t.powi(4);
        (s, ds_dt * 2.0 * r / (x_c - x_on))
    };
    let mut g = vec![Vector3::zeros(); n];
    let mut v = 0.0;
    for i in 0..n {
        for j in i + 1..n {
            let d = q[i] - q[j];
            let r = d.norm();
            if r >= rc {
                continue;
            }
            let (s, ds) = switch(r);
            v += phi(r) * s;
            let dv = dphi(r) * s + phi(r) * ds;
            g[i] += d * (dv / r);
            g[j] -= d * (dv / r);
        }
    }
    (v, g)
}

#[test]
fn lennard_jones() {
    let mut rng = Rng::new(6);
    for &(n, eps, sigma, cutoff) in &[
        (20, 0.01, 0.2, None),
        (30, 0.5, 0.15, Some(0.6)),
        (12, 1.0, 0.4, Some(1.5)),
    ] {
        let model = LennardJones::new(vec![1.0; n], eps, sigma, cutoff).unwrap();
        let pot: &LennardJonesPotential = model.system().potential();
        for _ in 0..3 {
            let q = spread_points(&mut rng, n, 0.7 * sigma);
            let (hv, hand) = lj_by_hand(&q, eps, sigma, cutoff);
            check("Lennard-Jones", pot, &q, hv, &hand, &mut rng, 1e-4);
            let mut ga = vec![Vector3::zeros(); n];
            let va = pot.gradient_analytic(&q, &mut ga);
            assert!(rel_err(&ga, &hand) <= TOL, "analytic LJ gradient");
            assert!((va - hv).abs() <= 1e-12 * hv.abs().max(1.0));
        }
    }
    // The 642-molecule preset: AD and hand-written gradients agree.
    let (model, x) = LennardJones::icosphere_642();
    let pot = model.system().potential();
    let mut g1 = vec![Vector3::zeros(); 642];
    let mut g2 = vec![Vector3::zeros(); 642];
    let v1 = pot.gradient(&x.q, &mut g1);
    let v2 = pot.gradient_analytic(&x.q, &mut g2);
    assert!(rel_err(&g1, &g2) <= TOL);
    assert!((v1 - v2).abs() <= 1e-12 * v2.abs());
    // At the preset σ the nearest-neighbour pair force vanishes on average (σ = d/2^{1/6}).
    let d = model.sigma() * 2f64.powf(1.0 / 6.0);
    let (_, dphi) = pot.term().value_and_derivative(d * d);
    assert!(dphi.abs() < 1e-12);
}

/// A user-written potential with a nonlinear site term and a general pair term (the helpers a
/// model author uses), against its hand-derived gradient.
mod custom {
    use liegroup::scalar::c;
    use models::{PairTerm, Potential, SiteTerm, TermVisitor};
    use nalgebra::{RealField, Vector3};

    /// φ(q) = (a·q)³ + |q|⁴.
    pub struct Cubic(pub Vector3<f64>);
    impl SiteTerm for Cubic {
        fn value<T: RealField + Copy>(&self, q: &Vector3<T>) -> T {
            let s = self.0.cast::<T>().dot(q);
            let r2 = q.norm_squared();
            s * s * s + r2 * r2
        }
    }
    /// φ(qᵢ, qⱼ) = k (qᵢ × qⱼ)·e₃ + (qᵢ·qⱼ)².
    pub struct Twist(pub f64);
    impl PairTerm for Twist {
        fn value<T: RealField + Copy>(&self, qi: &Vector3<T>, qj: &Vector3<T>) -> T {
            let d = qi.dot(qj);
            qi.cross(qj).z * c::<T>(self.0) + d * d
        }
    }
    pub struct Custom;
    pub const A: [f64; 3] = [0.3, -1.2, 0.7];
    impl Potential for Custom {
        fn bodies(&self) -> usize {
            3
        }
        fn visit_terms<V: TermVisitor>(&self, v: &mut V) {
            for i in 0..3 {
                v.site(i, &Cubic(Vector3::from(A)));
            }
            v.pair(0, 1, &Twist(2.0));
            v.pair(1, 2, &Twist(-0.5));
        }
    }
}

#[test]
fn user_written_site_and_pair_terms() {
    use custom::{A, Custom};
    let mut rng = Rng::new(8);
    let a = Vector3::from(A);
    for _ in 0..5 {
        let q: Vec<_> = (0..3).map(|_| rng.vec3() * 1.3).collect();
        let mut hand = vec![Vector3::zeros(); 3];
        let mut hv = 0.0;
        for i in 0..3 {
            let s = a.dot(&q[i]);
            let r2 = q[i].norm_squared();
            hv += s.powi(3) + r2 * r2;
            hand[i] += a * (3.0 * s * s) + q[i] * (4.0 * r2);
        }
        for &(i, j, k) in &[(0usize, 1usize, 2.0), (1, 2, -0.5)] {
            let d = q[i].dot(&q[j]);
            hv += k * q[i].cross(&q[j]).z + d * d;
            // ∂/∂qᵢ (qᵢ × qⱼ)·e₃ = qⱼ × e₃, ∂/∂qⱼ = e₃ × qᵢ.
            hand[i] += q[j].cross(&Vector3::z()) * k + q[j] * (2.0 * d);
            hand[j] += Vector3::z().cross(&q[i]) * k + q[i] * (2.0 * d);
        }
        check("user-written terms", &Custom, &q, hv, &hand, &mut rng, 1e-3);
    }
}

/// Hessian–vector products from per-term second derivatives against central differences of the
/// gradient.
#[test]
fn hessian_vector_products() {
    fn hv_check<P: Potential>(name: &str, pot: &P, q: &[Vector3<f64>], rng: &mut Rng) {
        let n = q.len();
        let v: Vec<_> = (0..n).map(|_| rng.vec3()).collect();
        let mut hv = vec![Vector3::zeros(); n];
        pot.hessian_vector(q, &v, &mut hv);
        // Fourth-order central differences of the gradient along v.
        let h = 2e-4;
        let grad_at = |s: f64| {
            let qs: Vec<_> = q.iter().zip(&v).map(|(a, b)| a + b * (s * h)).collect();
            let mut g = vec![Vector3::zeros(); n];
            pot.gradient(&qs, &mut g);
            g
        };
        let (gm2, gm1, gp1, gp2) = (grad_at(-2.0), grad_at(-1.0), grad_at(1.0), grad_at(2.0));
        let fd: Vec<_> = (0..n)
            .map(|i| (gm2[i] - gm1[i] * 8.0 + gp1[i] * 8.0 - gp2[i]) / (12.0 * h))
            .collect();
        // Relative to |∇²V v| (or to 10⁻⁴|∇V| for a vanishing Hessian, e.g. linear potentials).
        let g0 = grad_at(0.0);
        let gmax = g0.iter().map(|g| g.amax()).fold(0.0, f64::max);
        let fmax = fd.iter().map(|g| g.amax()).fold(0.0, f64::max);
        let diff = hv
            .iter()
            .zip(&fd)
            .map(|(a, b)| (a - b).amax())
            .fold(0.0, f64::max);
        let e = diff / fmax.max(1e-4 * gmax);
        assert!(
            e < 1e-7,
            "{name}: Hessian-vector product vs differences: {e:e}"
        );
    }
    let mut rng = Rng::new(7);
    let p = NFoldPendulum::uniform(3, 1.0, 1.0, 9.81).unwrap();
    let q: Vec<_> = (0..3).map(|_| rng.unit()).collect();
    hv_check("pendulum", p.system().potential(), &q, &mut rng);
    let q = spread_points(&mut rng, 5, 0.4);
    hv_check("Kozlov-Harin", &KozlovHarin::new(5, 1.0), &q, &mut rng);
    let (c, _) = CoupledPendula::four_pendula();
    let q: Vec<_> = (0..4).map(|_| rng.unit()).collect();
    hv_check("coupled", c.system().potential(), &q, &mut rng);
    let (r, _) = ElasticRod::lee_leok_mcclamroch();
    let q: Vec<_> = (0..10).map(|_| rng.unit()).collect();
    hv_check("rod", r.system().potential(), &q, &mut rng);
    let (d, _) = DipoleArray::grid_4x4();
    let q: Vec<_> = (0..16).map(|_| rng.unit()).collect();
    hv_check("dipoles", d.system().potential(), &q, &mut rng);
    let q: Vec<_> = (0..3).map(|_| rng.vec3()).collect();
    hv_check("user-written terms", &custom::Custom, &q, &mut rng);
    let lj = LennardJones::new(vec![1.0; 15], 0.3, 0.3, Some(1.2)).unwrap();
    let q = spread_points(&mut rng, 15, 0.25);
    hv_check("Lennard-Jones", lj.system().potential(), &q, &mut rng);
    // Without a cut-off the potential visits the unswitched term.
    let lj = LennardJones::new(vec![1.0; 15], 0.3, 0.3, None).unwrap();
    hv_check(
        "Lennard-Jones, no cut-off",
        lj.system().potential(),
        &q,
        &mut rng,
    );
}

/// The Lennard-Jones pair term at any length scale: `φ(σ²) = 0`, the minimum `φ = −ε` with
/// `φ′ = 0` at `r² = 2^{1/3}σ²`, and `φ(4σ²) = 4ε(2⁻¹² − 2⁻⁶)`, by num-dual (`radial_gradient`)
/// and by hand (`value_and_derivative`), for `σ` from 10⁻⁴⁰ to 10⁴⁰ (the term never forms `σ¹²`,
/// which would underflow or overflow).
#[test]
fn lennard_jones_term_at_any_scale() {
    use models::potential::radial_gradient;
    use models::sphere_systems::LennardJonesTerm;
    for sigma in [1e-40, 1e-8, 0.13, 1.0, 1e8, 1e40] {
        for eps in [0.01, 1.0, 1e3] {
            let term = LennardJonesTerm::new(eps, sigma, None);
            let s2 = sigma * sigma;
            let r2_min = 2f64.cbrt() * s2;
            let far = 4.0 * eps * (2f64.powi(-12) - 2f64.powi(-6));
            for (r2, v_exact) in [(s2, 0.0), (r2_min, -eps), (4.0 * s2, far)] {
                let (v_ad, d_ad) = radial_gradient(&term, r2);
                let (v_hand, d_hand) = term.value_and_derivative(r2);
                for v in [v_ad, v_hand] {
                    assert!(
                        (v - v_exact).abs() <= 1e-13 * eps,
                        "σ = {sigma:e}, ε = {eps}, r² = {r2:e}: φ = {v:e}, expected {v_exact:e}"
                    );
                }
                // φ′ in units of ε/σ² (φ′(σ²) = 4ε(3 − 6)/σ² = −12ε/σ²).
                assert!((d_ad - d_hand).abs() <= 1e-13 * eps / s2);
                if r2 == r2_min {
                    assert!(
                        d_ad.abs() <= 1e-13 * eps / s2,
                        "φ′ at the minimum: {d_ad:e}"
                    );
                }
                if r2 == s2 {
                    assert!((d_ad * s2 / eps + 12.0).abs() <= 1e-13);
                }
            }
        }
    }
}
