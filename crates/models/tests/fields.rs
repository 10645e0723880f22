//! The equations of motion: the Lie group field and the ambient ODE agree, the solve satisfies
//! the Euler–Lagrange equations in their original form [LLM09, eq. (2.5)], the N-fold pendulum
//! matches the matrices of [CCLMO22, §5] (`docs/models.md`, "N-fold 3D pendulum"), and the
//! invariants.

// Index loops mirror the formulas (sums over bodies i, j).
#![allow(clippy::needless_range_loop)]

mod common;

use common::Rng;
use homogeneous::{Action, LieVectorField, TangentSphereAction, VecPowerAction};
use models::{
    AmbientField, CoupledPendula, DipoleArray, DoubleSphericalPendulum, ElasticRod, LennardJones,
    LieField, NFoldPendulum, Potential, SphereModel, SphereNBody, SphereState, SphereSystem,
    tangency_error, unit_length_error,
};
use nalgebra::{DMatrix, DVector, Matrix3, Vector3, Vector6};

fn hat(v: &Vector3<f64>) -> Matrix3<f64> {
    v.cross_matrix()
}

/// A random state whose positions avoid the singularities of the model (`spread` = minimum
/// chord distance between bodies).
fn random_state(rng: &mut Rng, n: usize, spread: f64, omega_scale: f64) -> SphereState {
    let mut q: Vec<Vector3<f64>> = Vec::new();
    while q.len() < n {
        let v = rng.unit();
        if q.iter()
            .all(|w| (w - v).norm() >= spread && (w + v).norm() >= spread)
        {
            q.push(v);
        }
    }
    let omega = q.iter().map(|_| rng.vec3() * omega_scale).collect();
    SphereState::new_projected(q, omega).unwrap()
}

/// For each state: the generator of the SE(3)ⁿ action on (TS²)ⁿ at f(q, ω), i.e.
/// `(u × q, u × ω + v × q)` [CCLMO22, §5.1] (written out here, and as computed by
/// `homogeneous::TangentSphereAction`), equals the ambient `(q̇, ω̇)` to 1e-12 relative;
/// `ω̇ᵢ·qᵢ = 0`; and the Euler–Lagrange residual `qᵢ × (Σⱼ Mᵢⱼ q̈ⱼ + ∂V/∂qᵢ)` with
/// `q̈ⱼ = ω̇ⱼ × qⱼ + ωⱼ × (ωⱼ × qⱼ)` vanishes.
fn check_fields<P: Potential>(name: &str, sys: &SphereSystem<P>, states: &[SphereState]) {
    let n = sys.bodies();
    let lie = LieField::new(sys);
    let amb = AmbientField::new(sys);
    let mut f = vec![Vector6::zeros(); n];
    let (mut qd, mut wd) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
    let mut grad = vec![Vector3::zeros(); n];
    let action = VecPowerAction::new(TangentSphereAction::<f64>::new());
    let mut f_vec = Vec::new();
    for x in states {
        lie.eval_slices(&x.q, &x.omega, &mut f);
        amb.eval_slices(&x.q, &x.omega, &mut qd, &mut wd);
        // The same through the trait on Vec<TangentSphere2>, and the action's own generator.
        let points = x.to_tangent_points();
        lie.eval(0.0, &points, &mut f_vec);
        assert_eq!(f_vec, f, "{name}: LieVectorField differs from eval_slices");
        let gen_ = action.generator(&f_vec, &points);
        let scale = (0..n)
            .map(|i| qd[i].amax().max(wd[i].amax()))
            .fold(0.0, f64::max);
        for i in 0..n {
            let expect = Vector6::new(qd[i].x, qd[i].y, qd[i].z, wd[i].x, wd[i].y, wd[i].z);
            let e = (gen_[i] - expect).amax();
            assert!(e <= 1e-12 * scale, "{name}: generator vs ambient: {e:e}");
        }
        let mut num: f64 = 0.0;
        let mut den: f64 = 0.0;
        for i in 0..n {
            let u = Vector3::new(f[i][0], f[i][1], f[i][2]);
            let v = Vector3::new(f[i][3], f[i][4], f[i][5]);
            let gq = u.cross(&x.q[i]);
            let gw = u.cross(&x.omega[i]) + v.cross(&x.q[i]);
            num = num.max((gq - qd[i]).amax()).max((gw - wd[i]).amax());
            den = den.max(qd[i].amax()).max(wd[i].amax());
            // The rotational part is ω itself.
            assert_eq!(u, x.omega[i], "{name}: f's rotational part is not ω");
        }
        assert!(
            num <= 1e-12 * den,
            "{name}: Lie vs ambient: {:e}",
            num / den
        );
        // Tangency of ω̇.
        let tw: f64 = (0..n).map(|i| x.q[i].dot(&wd[i]).abs()).fold(0.0, f64::max);
        let wmax = wd.iter().map(|w| w.norm()).fold(0.0, f64::max);
        assert!(tw <= 1e-12 * wmax.max(1.0), "{name}: ω̇ not tangent: {tw:e}");
        // Euler–Lagrange residual, eq. (2.5).
        sys.potential().gradient(&x.q, &mut grad);
        let m = sys.inertia();
        let qdd: Vec<_> = (0..n)
            .map(|j| wd[j].cross(&x.q[j]) + x.omega[j].cross(&x.omega[j].cross(&x.q[j])))
            .collect();
        let mut res: f64 = 0.0;
        let mut scale: f64 = 0.0;
        for i in 0..n {
            let mut s = grad[i];
            scale = scale.max(grad[i].amax());
            for j in 0..n {
                s += qdd[j] * m[(i, j)];
                scale = scale.max((qdd[j] * m[(i, j)]).amax());
            }
            res = res.max(x.q[i].cross(&s).amax());
        }
        assert!(
            res <= 1e-11 * scale,
            "{name}: EL residual {:e}",
            res / scale
        );
    }
}

#[test]
fn lie_field_equals_ambient_ode_and_solves_euler_lagrange() {
    let mut rng = Rng::new(11);
    let mut states = |n: usize, spread: f64, w: f64| -> Vec<SphereState> {
        (0..4)
            .map(|_| random_state(&mut rng, n, spread, w))
            .collect()
    };
    let (p, _) = NFoldPendulum::convergence_experiment(0);
    check_fields("n-fold pendulum N = 2", p.system(), &states(2, 0.0, 2.0));
    let p = NFoldPendulum::new(
        vec![1.0, 0.3, 2.0, 0.7, 1.5],
        vec![0.5, 1.0, 0.2, 0.8, 1.1],
        9.81,
    )
    .unwrap();
    check_fields("n-fold pendulum N = 5", p.system(), &states(5, 0.0, 3.0));
    let (p, _) = NFoldPendulum::variable_step_experiment(20).unwrap();
    check_fields("n-fold pendulum N = 20", p.system(), &states(20, 0.0, 1.0));
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    check_fields(
        "double spherical pendulum",
        p.system(),
        &states(2, 0.0, 0.5),
    );
    let (p, _) = SphereNBody::three_body();
    check_fields("Kozlov-Harin", p.system(), &states(3, 0.3, 1.0));
    let (p, _) = CoupledPendula::four_pendula();
    check_fields("coupled pendula", p.system(), &states(4, 0.0, 2.0));
    let (p, _) = ElasticRod::lee_leok_mcclamroch();
    check_fields("elastic rod", p.system(), &states(10, 0.0, 5.0));
    let (p, _) = DipoleArray::grid_4x4();
    check_fields("dipoles", p.system(), &states(16, 0.0, 1.0));
    let p = LennardJones::new(vec![1.0; 30], 0.01, 0.15, None).unwrap();
    check_fields("Lennard-Jones", p.system(), &states(30, 0.12, 0.3));
}

/// The N-fold pendulum against the matrices of [CCLMO22, §5] (`docs/models.md`, "N-fold 3D
/// pendulum"):
/// `R(q)ω̇ = r` with `R_ii = (Σ_{j≥i} m_j) Lᵢ² I`, `R_ij = (Σ_{k≥j} m_k) Lᵢ L_j q̂ᵢᵀ q̂_j`
/// (i < j), `R_ji = R_ijᵀ`, `rᵢ = Σ_{j≠i} M_ij |ω_j|² q̂ᵢ q_j − (Σ_{j≥i} m_j) g Lᵢ q̂ᵢ e₃`,
/// and the energy `½ ωᵀR(q)ω + Σᵢ Lᵢ g (Σ_{j≥i} m_j) e₃·qᵢ`.
#[test]
fn n_fold_pendulum_matches_published_matrices() {
    let mut rng = Rng::new(12);
    let masses = [1.3, 0.4, 2.2, 0.9];
    let lengths = [0.7, 1.4, 0.5, 1.0];
    let g = 9.81;
    let n = masses.len();
    let p = NFoldPendulum::new(masses.to_vec(), lengths.to_vec(), g).unwrap();
    let tail = |i: usize| masses[i..].iter().sum::<f64>();
    for _ in 0..5 {
        let x = random_state(&mut rng, n, 0.0, 2.0);
        let mut r_mat = DMatrix::zeros(3 * n, 3 * n);
        let mut r_vec = DVector::zeros(3 * n);
        for i in 0..n {
            r_mat
                .fixed_view_mut::<3, 3>(3 * i, 3 * i)
                .copy_from(&(Matrix3::identity() * (tail(i) * lengths[i] * lengths[i])));
            for j in i + 1..n {
                let blk =
                    hat(&x.q[i]).transpose() * hat(&x.q[j]) * (tail(j) * lengths[i] * lengths[j]);
                r_mat.fixed_view_mut::<3, 3>(3 * i, 3 * j).copy_from(&blk);
                r_mat
                    .fixed_view_mut::<3, 3>(3 * j, 3 * i)
                    .copy_from(&blk.transpose());
            }
            let mut ri = -hat(&x.q[i]) * Vector3::z() * (tail(i) * g * lengths[i]);
            for j in 0..n {
                if j != i {
                    let mij = tail(i.max(j)) * lengths[i] * lengths[j];
                    ri += hat(&x.q[i]) * x.q[j] * (mij * x.omega[j].norm_squared());
                }
            }
            r_vec.fixed_rows_mut::<3>(3 * i).copy_from(&ri);
        }
        let omega_dot = r_mat.clone().lu().solve(&r_vec).unwrap();
        let (mut qd, mut wd) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
        AmbientField::new(p.system()).eval_slices(&x.q, &x.omega, &mut qd, &mut wd);
        let scale = omega_dot.amax();
        for i in 0..n {
            let e = (wd[i] - omega_dot.fixed_rows::<3>(3 * i)).amax();
            assert!(
                e <= 1e-12 * scale,
                "ω̇ differs from the published form: {e:e}"
            );
        }
        // Energy ½ωᵀRω + Σ Lᵢ g (Σ_{j≥i} mⱼ) e₃·qᵢ.
        let w = DVector::from_iterator(3 * n, x.omega.iter().flat_map(|v| v.iter().copied()));
        let e_pub = 0.5 * w.dot(&(&r_mat * &w))
            + (0..n)
                .map(|i| lengths[i] * g * tail(i) * x.q[i].z)
                .sum::<f64>();
        let e = p.system().energy(&x.q, &x.omega);
        assert!(
            (e - e_pub).abs() <= 1e-12 * e_pub.abs().max(1.0),
            "energy {e} vs {e_pub}"
        );
    }
}

/// The Cholesky solve (and its LU fallback) against nalgebra's LU on the same 3n × 3n system,
/// also at states far off the manifold (ambient integrators drift there; `|qᵢ|` up to 3 makes
/// the matrix indefinite and exercises the fallback).
#[test]
fn linear_solve_off_manifold() {
    let mut rng = Rng::new(13);
    let p = NFoldPendulum::new(vec![1.0, 2.0, 0.5], vec![1.0, 0.6, 1.3], 9.81).unwrap();
    let sys = p.system();
    let n = 3;
    let m = sys.inertia().clone();
    let mut grad = vec![Vector3::zeros(); n];
    for k in 0..20 {
        let scale = 0.5 + 2.5 * (k as f64) / 19.0;
        let q: Vec<_> = (0..n)
            .map(|_| rng.unit() * (scale * (1.0 + 0.2 * rng.sym())))
            .collect();
        let omega: Vec<_> = (0..n).map(|_| rng.vec3()).collect();
        sys.potential().gradient(&q, &mut grad);
        let mut a = DMatrix::zeros(3 * n, 3 * n);
        let mut b = DVector::zeros(3 * n);
        for i in 0..n {
            for j in 0..n {
                let blk = if i == j {
                    Matrix3::identity() * m[(i, i)]
                } else {
                    -hat(&q[i]) * hat(&q[j]) * m[(i, j)]
                };
                a.fixed_view_mut::<3, 3>(3 * i, 3 * j).copy_from(&blk);
            }
            let mut bi = -q[i].cross(&grad[i]);
            for j in 0..n {
                if j != i {
                    bi += q[i].cross(&q[j]) * (m[(i, j)] * omega[j].norm_squared());
                }
            }
            b.fixed_rows_mut::<3>(3 * i).copy_from(&bi);
        }
        let x = a.lu().solve(&b).unwrap();
        let (mut qd, mut wd) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
        AmbientField::new(sys).eval_slices(&q, &omega, &mut qd, &mut wd);
        let s = x.amax();
        for i in 0..n {
            let e = (wd[i] - x.fixed_rows::<3>(3 * i)).amax();
            assert!(
                e <= 1e-10 * s,
                "scale {scale}: solve differs by {e:e} (|x| = {s})"
            );
            assert_eq!(qd[i], omega[i].cross(&q[i]));
        }
    }
}

/// The flat and the `Vec<Rn<f64, 6>>` entry points of the ambient field give the same numbers
/// as the slice one; conjugate momenta are tangent; invariants of a valid state vanish.
#[test]
fn entry_points_and_invariants() {
    use homogeneous::LieVectorField;
    let mut rng = Rng::new(14);
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.system();
    let x = random_state(&mut rng, 2, 0.0, 1.0);
    let amb = AmbientField::new(sys);
    let (mut qd, mut wd) = (vec![Vector3::zeros(); 2], vec![Vector3::zeros(); 2]);
    amb.eval_slices(&x.q, &x.omega, &mut qd, &mut wd);
    let y = x.to_flat();
    let mut dy = vec![0.0; 12];
    amb.eval_flat(&y, &mut dy);
    let mut out = Vec::new();
    amb.eval(0.0, &x.to_rn_points(), &mut out);
    for i in 0..2 {
        for k in 0..3 {
            assert_eq!(dy[6 * i + k], qd[i][k]);
            assert_eq!(dy[6 * i + 3 + k], wd[i][k]);
            assert_eq!(out[i][k], qd[i][k]);
            assert_eq!(out[i][3 + k], wd[i][k]);
        }
    }
    assert_eq!(SphereState::from_flat(&y).unwrap(), x);
    assert_eq!(SphereState::from_rn_points(&x.to_rn_points()), x);
    let mut pm = vec![Vector3::zeros(); 2];
    sys.conjugate_momenta(&x.q, &x.omega, &mut pm);
    for i in 0..2 {
        assert!(pm[i].dot(&x.q[i]).abs() < 1e-13 * pm[i].norm().max(1.0));
    }
    assert!(unit_length_error(&x.q) < 1e-15);
    assert!(tangency_error(&x.q, &x.omega) < 1e-15);
    // Kinetic energy: ½ Σ Mᵢⱼ q̇ᵢ·q̇ⱼ by hand.
    let m = sys.inertia();
    let v: Vec<_> = (0..2).map(|i| x.omega[i].cross(&x.q[i])).collect();
    let t: f64 = (0..2)
        .flat_map(|i| (0..2).map(move |j| (i, j)))
        .map(|(i, j)| 0.5 * m[(i, j)] * v[i].dot(&v[j]))
        .sum();
    assert!((sys.kinetic_energy(&x.q, &x.omega) - t).abs() < 1e-13 * t);
    // Momentum map: J = Σ qᵢ × pᵢ.
    let j: Vector3<f64> = (0..2).map(|i| x.q[i].cross(&pm[i])).sum();
    assert!((sys.angular_momentum(&x.q, &x.omega) - j).norm() < 1e-13 * j.norm().max(1.0));
}
