//! Tests of `So3` and `Se3` derived from the mathematics: group laws, exp/log (including the
//! branch near π and the small-angle branches), right-trivialized dexp/dexp⁻¹ against the
//! derivative of exp (dual numbers and central differences) and against the truncated
//! Bernoulli series with a rigorous bound on the omitted terms, the Cayley map against its
//! matrix definition, nalgebra interop and the typed errors of the checked constructors.

use liegroup::num_dual::Dual64;
use liegroup::{
    CayleyGroup, LieError, LieGroup, LieGroupInPlace, Se3, So3, StaticLieGroup, dexpinv_series,
    dexpinv_series_coefficient, hat, vee,
};
use nalgebra::{
    Isometry3, Matrix3, Matrix4, Matrix6, Quaternion, Rotation3, UnitQuaternion, Vector3, Vector6,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f64::consts::PI;

const EPS: f64 = f64::EPSILON;

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// A uniformly random direction.
fn unit3(r: &mut StdRng) -> Vector3<f64> {
    loop {
        let v = Vector3::new(
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
        );
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}

/// A random vector of norm uniform in `[0, max]`.
fn vec3(r: &mut StdRng, max: f64) -> Vector3<f64> {
    unit3(r) * r.random_range(0.0..max)
}

/// A random 6-vector of norm uniform in `[0, max]`.
fn vec6(r: &mut StdRng, max: f64) -> Vector6<f64> {
    let v = Vector6::from_fn(|_, _| r.random_range(-1.0..1.0));
    v / v.norm() * r.random_range(0.0..max)
}

fn dual3(re: &Vector3<f64>, eps: &Vector3<f64>) -> Vector3<Dual64> {
    Vector3::from_fn(|i, _| Dual64::new(re[i], eps[i]))
}

fn dual6(re: &Vector6<f64>, eps: &Vector6<f64>) -> Vector6<Dual64> {
    Vector6::from_fn(|i, _| Dual64::new(re[i], eps[i]))
}

fn random_so3(r: &mut StdRng) -> So3 {
    So3::exp(&vec3(r, PI))
}

fn random_se3(r: &mut StdRng) -> Se3 {
    Se3::from_parts(random_so3(r), vec3(r, 3.0))
}

/// The 6×6 matrix of `ad_u` on se(3), column by column.
fn ad_matrix_se3(u: &Vector6<f64>) -> Matrix6<f64> {
    Matrix6::from_fn(|i, j| Se3::bracket(u, &Vector6::ith(j, 1.0))[i])
}

/// `|B_j|/j! ‖ad‖^j ‖v‖ / (1 − ‖ad‖²/(4π²))` at the first omitted nonzero term after `ad^k`:
/// a rigorous bound on the truncation error of the Bernoulli series of `dexp⁻¹` (for even
/// `j ≥ 2` consecutive coefficients shrink by less than `1/(4π²)`).
fn series_tail_bound(k: usize, ad_norm: f64, v_norm: f64) -> f64 {
    let j = if k % 2 == 1 { k + 1 } else { k + 2 };
    let q = ad_norm * ad_norm / (4.0 * PI * PI);
    assert!(q < 1.0);
    dexpinv_series_coefficient(j) * ad_norm.powi(j as i32) * v_norm / (1.0 - q)
}

// ---------------------------------------------------------------------------------------------
// hat / vee, group laws, Ad, ad*, coadjoint
// ---------------------------------------------------------------------------------------------

#[test]
fn hat_vee_and_bracket_are_the_matrix_commutator() {
    let mut r = rng(1);
    for _ in 0..50 {
        let (u, v, b) = (vec3(&mut r, 2.0), vec3(&mut r, 2.0), vec3(&mut r, 2.0));
        assert_eq!(vee(&hat(&u)), u);
        assert!((hat(&u) * b - u.cross(&b)).norm() <= 4.0 * EPS * u.norm() * b.norm());
        let comm = hat(&u) * hat(&v) - hat(&v) * hat(&u);
        assert!((vee(&comm) - So3::bracket(&u, &v)).norm() < 1e-14);

        let (x, y) = (vec6(&mut r, 2.0), vec6(&mut r, 2.0));
        assert_eq!(Se3::vee(&Se3::hat(&x)), x);
        let comm = Se3::hat(&x) * Se3::hat(&y) - Se3::hat(&y) * Se3::hat(&x);
        assert!((Se3::vee(&comm) - Se3::bracket(&x, &y)).norm() < 1e-14);
        assert!(comm.row(3).iter().all(|&e| e == 0.0));
    }
}

#[test]
fn group_axioms_and_matrix_representation() {
    let mut r = rng(2);
    for _ in 0..50 {
        let (g, h, k) = (random_so3(&mut r), random_so3(&mut r), random_so3(&mut r));
        let lhs = g.compose(&h).compose(&k);
        let rhs = g.compose(&h.compose(&k));
        assert!((lhs.matrix() - rhs.matrix()).norm() < 1e-14);
        assert!((g.compose(&g.inverse()).matrix() - Matrix3::identity()).norm() < 1e-14);
        assert_eq!(g.compose(&So3::identity()), g);
        let mut gl = h;
        gl.left_mul_assign(&g);
        assert_eq!(gl, g.compose(&h));
        let p = vec3(&mut r, 2.0);
        assert!((g.rotate(&g.inverse_rotate(&p)) - p).norm() < 1e-14);

        let (g, h, k) = (random_se3(&mut r), random_se3(&mut r), random_se3(&mut r));
        // compose is the product of homogeneous matrices
        let prod = g.to_homogeneous() * h.to_homogeneous();
        assert!((g.compose(&h).to_homogeneous() - prod).norm() < 1e-13);
        let lhs = g.compose(&h).compose(&k);
        let rhs = g.compose(&h.compose(&k));
        assert!((lhs.to_homogeneous() - rhs.to_homogeneous()).norm() < 1e-13);
        let e = g.compose(&g.inverse()).to_homogeneous() - Matrix4::identity();
        assert!(e.norm() < 1e-14);
        assert_eq!(<Se3 as StaticLieGroup>::identity().compose(&g), g);
        let mut gl = h;
        gl.left_mul_assign(&g);
        assert_eq!(gl, g.compose(&h));
        let p4 = g.to_homogeneous() * p.push(1.0);
        assert!((g.transform_point(&p) - p4.xyz()).norm() < 1e-14);
        assert!((g.transform_vector(&p) - g.rotation().rotate(&p)).norm() == 0.0);
    }
}

#[test]
fn adjoint_coadjoint_and_ad_star_follow_their_definitions() {
    let mut r = rng(3);
    for _ in 0..50 {
        // SO(3): Ad_g ξ = vee(g hat(ξ) g⁻¹), homomorphism, exp(Ad_g ξ) = g exp(ξ) g⁻¹.
        let (g, h) = (random_so3(&mut r), random_so3(&mut r));
        let (x, y, mu) = (vec3(&mut r, 2.0), vec3(&mut r, 2.0), vec3(&mut r, 2.0));
        let conj = g.matrix() * hat(&x) * g.matrix().transpose();
        assert!((g.adjoint(&x) - vee(&conj)).norm() < 1e-14);
        assert!((g.compose(&h).adjoint(&x) - g.adjoint(&h.adjoint(&x))).norm() < 1e-14);
        let lhs = So3::exp(&g.adjoint(&x));
        let rhs = g.compose(&So3::exp(&x)).compose(&g.inverse());
        assert!((lhs.matrix() - rhs.matrix()).norm() < 1e-14);
        assert!((g.adjoint(&x.cross(&y)) - g.adjoint(&x).cross(&g.adjoint(&y))).norm() < 1e-13);
        // ⟨coadjoint(g, μ), Ad_g ξ⟩ = ⟨μ, ξ⟩ and ⟨ad*_x μ, η⟩ = ⟨μ, [x, η]⟩
        assert!((g.coadjoint(&mu).dot(&g.adjoint(&x)) - mu.dot(&x)).abs() < 1e-14);
        assert!((So3::ad_star(&x, &mu).dot(&y) - mu.dot(&So3::ad(&x, &y))).abs() < 1e-14);
        // Jacobi
        let z = vec3(&mut r, 2.0);
        let jac = x.cross(&y.cross(&z)) + y.cross(&z.cross(&x)) + z.cross(&x.cross(&y));
        assert!(jac.norm() < 1e-14);

        // SE(3)
        let (g, h) = (random_se3(&mut r), random_se3(&mut r));
        let (x, y, z, mu) = (
            vec6(&mut r, 2.0),
            vec6(&mut r, 2.0),
            vec6(&mut r, 2.0),
            vec6(&mut r, 2.0),
        );
        let conj = g.to_homogeneous() * Se3::hat(&x) * g.inverse().to_homogeneous();
        assert!((g.adjoint(&x) - Se3::vee(&conj)).norm() < 1e-13);
        assert!((g.compose(&h).adjoint(&x) - g.adjoint(&h.adjoint(&x))).norm() < 1e-12);
        let lhs = Se3::exp(&g.adjoint(&x));
        let rhs = g.compose(&Se3::exp(&x)).compose(&g.inverse());
        assert!((lhs.to_homogeneous() - rhs.to_homogeneous()).norm() < 1e-12);
        let br = Se3::bracket(&g.adjoint(&x), &g.adjoint(&y));
        assert!((g.adjoint(&Se3::bracket(&x, &y)) - br).norm() < 1e-12);
        assert!((g.coadjoint(&mu).dot(&g.adjoint(&x)) - mu.dot(&x)).abs() < 1e-12);
        assert!((Se3::ad_star(&x, &mu).dot(&y) - mu.dot(&Se3::ad(&x, &y))).abs() < 1e-13);
        let jac = Se3::bracket(&x, &Se3::bracket(&y, &z))
            + Se3::bracket(&y, &Se3::bracket(&z, &x))
            + Se3::bracket(&z, &Se3::bracket(&x, &y));
        assert!(jac.norm() < 1e-13);
        // coadjoint is a left action
        let lhs = g.compose(&h).coadjoint(&mu);
        assert!((lhs - g.coadjoint(&h.coadjoint(&mu))).norm() < 1e-12);
    }
}

// ---------------------------------------------------------------------------------------------
// exp / log
// ---------------------------------------------------------------------------------------------

#[test]
fn exp_agrees_with_independent_implementations() {
    let mut r = rng(4);
    let mut cases: Vec<Vector3<f64>> = (0..100).map(|_| vec3(&mut r, 3.0 * PI)).collect();
    // around the series thresholds α = 1/4 and α = 2 and tiny angles
    for a in [1e-8, 1e-3, 0.2499, 0.25, 0.2501, 1.999, 2.0, 2.001, PI] {
        cases.push(unit3(&mut r) * a);
    }
    for u in cases {
        // nalgebra's axis-angle constructor (f64) and its matrix exponential
        let want = Rotation3::new(u);
        let got = So3::exp(&u);
        assert!(
            (got.matrix() - want.matrix()).norm() < 4e-15,
            "|u| = {}",
            u.norm()
        );
        let want = hat(&u).exp();
        assert!((got.matrix() - want).norm() < 1e-13);

        let xi = Vector6::new(u.x, u.y, u.z, 1.0, -2.0, 0.5);
        let want = Se3::hat(&xi).exp();
        assert!((Se3::exp(&xi).to_homogeneous() - want).norm() < 1e-12);
    }
    // no NaN at zero and at underflowing angles
    for a in [0.0, 1e-160, 1e-300] {
        let u = Vector3::new(a, -a, a);
        let g = So3::exp(&u);
        assert!(g.all_finite());
        assert!((g.log() - u).norm() <= 4.0 * EPS * u.norm());
        let xi = Vector6::new(a, a, a, a, 0.0, -a);
        let g = Se3::exp(&xi);
        assert!(g.all_finite());
        assert!((g.log() - xi).norm() <= 4.0 * EPS * xi.norm());
    }
}

#[test]
fn log_inverts_exp_on_the_principal_branch() {
    let mut r = rng(5);
    for _ in 0..300 {
        // |u| < π: log(exp(u)) = u, with the absolute accuracy of the matrix entries
        let u = vec3(&mut r, PI - 1e-3);
        let back = So3::exp(&u).log();
        assert!((back - u).norm() < 1e-13, "|u| = {}", u.norm());
        let a = vec3(&mut r, 3.0);
        let xi = Vector6::new(u.x, u.y, u.z, a.x, a.y, a.z);
        assert!((Se3::exp(&xi).log() - xi).norm() < 1e-12);
        // exp(log g) = g for random elements
        let g = random_se3(&mut r);
        let back = Se3::exp(&g.log());
        assert!((back.to_homogeneous() - g.to_homogeneous()).norm() < 1e-13);
        assert!(g.log().fixed_rows::<3>(0).norm() <= PI * (1.0 + 4.0 * EPS));
    }
}

#[test]
fn log_near_pi_is_accurate_and_principal() {
    let mut r = rng(6);
    let mut axes = vec![
        Vector3::x(),
        Vector3::y(),
        Vector3::z(),
        -Vector3::x(),
        Vector3::new(1.0, 1.0, 0.0).normalize(),
        Vector3::new(1.0, -1.0, 1.0).normalize(),
        Vector3::new(0.0, 1e-9, 1.0).normalize(),
    ];
    axes.extend((0..12).map(|_| unit3(&mut r)));
    let offsets = [
        0.0,
        1e-15,
        1e-12,
        1e-9,
        1e-6,
        1e-3,
        0.1,
        0.5,
        PI / 2.0 - 1e-3,
        PI / 2.0,
    ];
    for n in &axes {
        for &d in &offsets {
            let theta = PI - d;
            let rot = So3::from(Rotation3::from_axis_angle(
                &nalgebra::Unit::new_normalize(*n),
                theta,
            ));
            let l = rot.log();
            assert!(
                l.norm() <= PI * (1.0 + 4.0 * EPS),
                "|log| = {} > π",
                l.norm()
            );
            let back = So3::exp(&l);
            let err = (back.matrix() - rot.matrix()).norm();
            assert!(
                err < 1e-12,
                "axis {n:?}, π − {d:e}: exp(log R) off by {err:e}"
            );
            if d >= 1e-12 {
                // the sign is determined by sin θ ≥ 1e-12 ≫ round-off: log is θ n itself
                let e = (l - n * theta).norm();
                assert!(e < 1e-12, "axis {n:?}, π − {d:e}: log off by {e:e}");
            }
            // the same through SE(3)
            let g = Se3::from_parts(rot, Vector3::new(1.0, -2.0, 3.0));
            let l6 = g.log();
            assert!(l6.fixed_rows::<3>(0).norm() <= PI * (1.0 + 4.0 * EPS));
            let e = (Se3::exp(&l6).to_homogeneous() - g.to_homogeneous()).norm();
            assert!(e < 1e-12);
        }
        // the exact half turn 2nnᵀ − I
        let rot = So3::from_matrix_unchecked(n * n.transpose() * 2.0 - Matrix3::identity());
        let l = rot.log();
        assert!((l.norm() - PI).abs() <= 4.0 * EPS * PI);
        assert!((l.normalize().dot(n).abs() - 1.0).abs() < 1e-15);
        assert!((So3::exp(&l).matrix() - rot.matrix()).norm() < 1e-12);
    }
}

// ---------------------------------------------------------------------------------------------
// dual-number derivatives at the identity
// ---------------------------------------------------------------------------------------------

#[test]
fn dual_derivative_of_exp_at_zero_is_the_generator() {
    let mut r = rng(7);
    let mut dirs: Vec<Vector3<f64>> = vec![Vector3::x(), Vector3::new(1.0, -2.0, 3.0)];
    dirs.extend((0..10).map(|_| vec3(&mut r, 5.0)));
    for v in dirs {
        // d/dε exp(εv) at ε = 0 equals hat(v)
        let g = So3::exp(&dual3(&Vector3::zeros(), &v));
        assert_eq!(g.matrix().map(|x| x.re), Matrix3::identity());
        assert_eq!(g.matrix().map(|x| x.eps), hat(&v));
        let g = So3::cay(&dual3(&Vector3::zeros(), &v));
        assert_eq!(g.matrix().map(|x| x.eps), hat(&v));

        let v6 = Vector6::new(v.x, v.y, v.z, -v.z, 2.0 * v.x, 0.5);
        let g = Se3::exp(&dual6(&Vector6::zeros(), &v6));
        let h = g.to_homogeneous();
        assert_eq!(h.map(|x| x.re), Matrix4::identity());
        assert_eq!(h.map(|x| x.eps), Se3::hat(&v6));
        let g = Se3::cay(&dual6(&Vector6::zeros(), &v6));
        assert_eq!(g.to_homogeneous().map(|x| x.eps), Se3::hat(&v6));
    }
}

#[test]
fn dual_derivative_of_log_at_identity_is_the_identity() {
    let mut r = rng(8);
    for _ in 0..10 {
        let v = vec3(&mut r, 5.0);
        // R(ε) = I + ε hat(v): a curve through I with velocity hat(v)
        let m =
            Matrix3::from_fn(|i, j| Dual64::new(if i == j { 1.0 } else { 0.0 }, hat(&v)[(i, j)]));
        let l = So3::from_matrix_unchecked(m).log();
        assert_eq!(l.map(|x| x.re), Vector3::zeros());
        assert_eq!(l.map(|x| x.eps), v);
        // and along exp(εv)
        let l = So3::exp(&dual3(&Vector3::zeros(), &v)).log();
        assert_eq!(l.map(|x| x.eps), v);

        let b = vec3(&mut r, 5.0);
        let g = Se3::from_parts(So3::from_matrix_unchecked(m), dual3(&Vector3::zeros(), &b));
        let l = g.log();
        let want = Vector6::new(v.x, v.y, v.z, b.x, b.y, b.z);
        assert_eq!(l.map(|x| x.eps), want);
        let l = Se3::exp(&dual6(&Vector6::zeros(), &want)).log();
        assert_eq!(l.map(|x| x.eps), want);
    }
}

#[test]
fn dual_derivative_of_log_is_inverse_of_exp_derivative() {
    // log ∘ exp = id on |u| < π, so d/dε log(exp(u + εv)) = v, through every branch.
    let mut r = rng(9);
    let mut us: Vec<Vector3<f64>> = (0..40).map(|_| vec3(&mut r, 3.0)).collect();
    // log switches branches at sin²α = 1/100 (α ≈ 0.1002) and at cos α = 0 (α = π/2).
    let h = std::f64::consts::FRAC_PI_2;
    for a in [1e-6, 0.05, 0.0999, 0.1003, 0.3, h - 1e-4, h, h + 1e-4, 3.0] {
        us.push(unit3(&mut r) * a);
    }
    for u in us {
        let v = vec3(&mut r, 1.0);
        let d = So3::exp(&dual3(&u, &v)).log().map(|x| x.eps);
        assert!(
            (d - v).norm() < 1e-12,
            "|u| = {}: {:e}",
            u.norm(),
            (d - v).norm()
        );
        let a = vec3(&mut r, 2.0);
        let xi = Vector6::new(u.x, u.y, u.z, a.x, a.y, a.z);
        let w = vec6(&mut r, 1.0);
        let d = Se3::exp(&dual6(&xi, &w)).log().map(|x| x.eps);
        assert!((d - w).norm() < 1e-11);
    }
}

// ---------------------------------------------------------------------------------------------
// dexp, dexp⁻¹
// ---------------------------------------------------------------------------------------------

/// Points around the series thresholds (α = 1/4 and α = 2) and random ones with |u| ≤ 3.
fn sample_points(r: &mut StdRng, n: usize) -> Vec<Vector3<f64>> {
    let mut us: Vec<Vector3<f64>> = (0..n).map(|_| vec3(r, 3.0)).collect();
    for a in [0.0, 1e-8, 1e-3, 0.2499, 0.2501, 1.0, 1.999, 2.001, 2.9, 3.0] {
        us.push(unit3(r) * a);
    }
    us
}

#[test]
fn dexp_is_the_right_trivialized_derivative_of_exp_so3() {
    let mut r = rng(10);
    let h = 1e-5;
    for u in sample_points(&mut r, 60) {
        let v = vec3(&mut r, 1.0);
        let want = So3::dexp(&u, &v);
        // dual numbers: (d/dε R(u + εv)) R(u)ᵀ = hat(dexp_u v)
        let g = So3::exp(&dual3(&u, &v));
        let rdot = g.matrix().map(|x| x.eps);
        let rr = g.matrix().map(|x| x.re);
        let d = rdot * rr.transpose();
        assert!((d + d.transpose()).norm() < 1e-14, "not skew");
        assert!((vee(&d) - want).norm() < 1e-14, "dual: |u| = {}", u.norm());
        // central difference, error O(h²)
        let fd = (So3::exp(&(u + v * h)).matrix() - So3::exp(&(u - v * h)).matrix()) / (2.0 * h);
        let d = fd * So3::exp(&u).matrix().transpose();
        assert!((vee(&d) - want).norm() < 1e-9, "fd: |u| = {}", u.norm());
    }
}

#[test]
fn dexp_is_the_right_trivialized_derivative_of_exp_se3() {
    let mut r = rng(11);
    let h = 1e-5;
    for u3 in sample_points(&mut r, 60) {
        let a = vec3(&mut r, 2.0);
        let u = Vector6::new(u3.x, u3.y, u3.z, a.x, a.y, a.z);
        let v = vec6(&mut r, 1.0);
        let want = Se3::dexp(&u, &v);
        let g = Se3::exp(&dual6(&u, &v));
        let hm = g.to_homogeneous();
        let g0 = Se3::exp(&u);
        let d = hm.map(|x| x.eps) * g0.inverse().to_homogeneous();
        assert!(d.row(3).norm() == 0.0);
        assert!(
            (Se3::vee(&d) - want).norm() < 1e-13,
            "dual: |u| = {}",
            u.norm()
        );
        let fd = (Se3::exp(&(u + v * h)).to_homogeneous()
            - Se3::exp(&(u - v * h)).to_homogeneous())
            / (2.0 * h);
        let d = fd * g0.inverse().to_homogeneous();
        assert!(
            (Se3::vee(&d) - want).norm() < 1e-8,
            "fd: |u| = {}",
            u.norm()
        );
    }
}

#[test]
fn dexp_and_dexpinv_are_inverse() {
    let mut r = rng(12);
    for u in sample_points(&mut r, 200) {
        let v = vec3(&mut r, 1.0) + Vector3::new(0.0, 0.0, 1e-3);
        let e1 = (So3::dexp(&u, &So3::dexpinv(&u, &v)) - v).norm();
        let e2 = (So3::dexpinv(&u, &So3::dexp(&u, &v)) - v).norm();
        assert!(
            e1 < 1e-13 * v.norm() && e2 < 1e-13 * v.norm(),
            "|u| = {}",
            u.norm()
        );

        // SE(3), |A| ≤ 3, |a| ≤ 3: tolerance 1e-12 ‖v‖ (the translation rows carry terms of
        // size up to ≈ |a||B|, so the round-off is ~10× that of SO(3)).
        let a = vec3(&mut r, 3.0);
        let x = Vector6::new(u.x, u.y, u.z, a.x, a.y, a.z);
        let w = vec6(&mut r, 1.0) + Vector6::new(0.0, 0.0, 0.0, 0.0, 0.0, 1e-3);
        let e1 = (Se3::dexp(&x, &Se3::dexpinv(&x, &w)) - w).norm();
        let e2 = (Se3::dexpinv(&x, &Se3::dexp(&x, &w)) - w).norm();
        assert!(
            e1 < 1e-12 * w.norm() && e2 < 1e-12 * w.norm(),
            "|u| = {}",
            x.norm()
        );
    }
}

#[test]
fn dexpinv_matches_the_truncated_bernoulli_series_so3() {
    let mut r = rng(13);
    for k in 2..=12 {
        for _ in 0..100 {
            let u = vec3(&mut r, 1.0);
            let v = vec3(&mut r, 1.0);
            let exact = So3::dexpinv(&u, &v);
            let series = dexpinv_series::<So3>(&u, &v, k);
            // ‖ad_u‖₂ = |u| on so(3); round-off slack of 32 ε ‖v‖ (1 + ‖ad‖)².
            let ad = u.norm();
            let bound =
                series_tail_bound(k, ad, v.norm()) + 32.0 * EPS * v.norm() * (1.0 + ad).powi(2);
            let err = (exact - series).norm();
            assert!(err <= bound, "k = {k}, |u| = {ad}: {err:e} > {bound:e}");
        }
    }
    for _ in 0..200 {
        let u = vec3(&mut r, 0.1);
        let v = vec3(&mut r, 1.0);
        let err = (So3::dexpinv(&u, &v) - dexpinv_series::<So3>(&u, &v, 12)).norm();
        assert!(err < 1e-14);
    }
}

#[test]
fn dexpinv_matches_the_truncated_bernoulli_series_se3() {
    let mut r = rng(14);
    for k in 2..=12 {
        for _ in 0..100 {
            let u = vec6(&mut r, 1.0);
            let v = vec6(&mut r, 1.0);
            let exact = Se3::dexpinv(&u, &v);
            let series = dexpinv_series::<Se3>(&u, &v, k);
            // spectral norm of the 6×6 matrix of ad_u (≤ |A| + |a|)
            let ad = ad_matrix_se3(&u).singular_values().max() * (1.0 + 1e-12);
            let (a_rot, a_tr) = (u.fixed_rows::<3>(0).norm(), u.fixed_rows::<3>(3).norm());
            assert!(ad <= (a_rot + a_tr) * (1.0 + 1e-12));
            let bound =
                series_tail_bound(k, ad, v.norm()) + 32.0 * EPS * v.norm() * (1.0 + ad).powi(2);
            let err = (exact - series).norm();
            assert!(err <= bound, "k = {k}, ‖ad‖ = {ad}: {err:e} > {bound:e}");
        }
    }
    for _ in 0..200 {
        let u = vec6(&mut r, 0.1);
        let v = vec6(&mut r, 1.0);
        let err = (Se3::dexpinv(&u, &v) - dexpinv_series::<Se3>(&u, &v, 12)).norm();
        assert!(err < 1e-14);
    }
}

// ---------------------------------------------------------------------------------------------
// Cayley
// ---------------------------------------------------------------------------------------------

#[test]
fn cayley_map_and_its_derivatives() {
    let mut r = rng(15);
    for _ in 0..100 {
        // SO(3)
        let u = vec3(&mut r, 4.0);
        let v = vec3(&mut r, 1.0);
        let i3 = Matrix3::identity();
        let want = (i3 - hat(&u) / 2.0).try_inverse().unwrap() * (i3 + hat(&u) / 2.0);
        let g = So3::cay(&u);
        assert!((g.matrix() - want).norm() < 1e-14);
        assert!((g.matrix().transpose() * g.matrix() - i3).norm() < 1e-14);
        let inv = So3::cay(&-u);
        assert!((inv.matrix() - g.inverse().matrix()).norm() < 1e-14);
        let gd = So3::cay(&dual3(&u, &v));
        let d = gd.matrix().map(|x| x.eps) * g.matrix().transpose();
        assert!((vee(&d) - So3::dcay(&u, &v)).norm() < 1e-14);
        assert!((So3::dcayinv(&u, &So3::dcay(&u, &v)) - v).norm() < 1e-14);
        assert!((So3::dcay(&u, &So3::dcayinv(&u, &v)) - v).norm() < 1e-14);
        // matrix form of dcay⁻¹: (I − U/2) W (I + U/2)
        let m = (i3 - hat(&u) / 2.0) * hat(&v) * (i3 + hat(&u) / 2.0);
        assert!((vee(&m) - So3::dcayinv(&u, &v)).norm() < 1e-14);

        // SE(3), 4×4 embedding
        let x = vec6(&mut r, 4.0);
        let y = vec6(&mut r, 1.0);
        let i4 = Matrix4::identity();
        let want = (i4 - Se3::hat(&x) / 2.0).try_inverse().unwrap() * (i4 + Se3::hat(&x) / 2.0);
        let g = Se3::cay(&x);
        assert!((g.to_homogeneous() - want).norm() < 1e-13);
        let inv = Se3::cay(&-x);
        assert!((inv.to_homogeneous() - g.inverse().to_homogeneous()).norm() < 1e-13);
        let gd = Se3::cay(&dual6(&x, &y));
        let d = gd.to_homogeneous().map(|x| x.eps) * g.inverse().to_homogeneous();
        assert!((Se3::vee(&d) - Se3::dcay(&x, &y)).norm() < 1e-13);
        assert!((Se3::dcayinv(&x, &Se3::dcay(&x, &y)) - y).norm() < 1e-13);
        assert!((Se3::dcay(&x, &Se3::dcayinv(&x, &y)) - y).norm() < 1e-13);
        let m = (i4 - Se3::hat(&x) / 2.0) * Se3::hat(&y) * (i4 + Se3::hat(&x) / 2.0);
        assert!((Se3::vee(&m) - Se3::dcayinv(&x, &y)).norm() < 1e-13);
    }
}

// ---------------------------------------------------------------------------------------------
// checked constructors and interop
// ---------------------------------------------------------------------------------------------

#[test]
fn try_from_matrix_reports_typed_errors() {
    let i3 = Matrix3::<f64>::identity();
    assert!(So3::try_from_matrix(i3).is_ok());
    let rot = So3::exp(&Vector3::new(0.3, -1.0, 2.0));
    // within the tolerance 1e-10: accepted and stored unchanged
    let m = rot.matrix() * (1.0 + 1e-12);
    assert_eq!(*So3::try_from_matrix(m).unwrap().matrix(), m);
    // not orthogonal
    let mut shear = i3;
    shear[(0, 1)] = 0.1;
    assert!(matches!(
        So3::try_from_matrix(shear),
        Err(LieError::NotOrthogonal { tolerance, .. }) if tolerance == 1e-10
    ));
    assert!(matches!(
        So3::try_from_matrix(rot.matrix() * 1.001),
        Err(LieError::NotOrthogonal { .. })
    ));
    assert!(matches!(
        So3::try_from_matrix(Matrix3::<f64>::zeros()),
        Err(LieError::NotOrthogonal { .. })
    ));
    assert!(matches!(
        So3::try_from_matrix(Matrix3::repeat(1e200)),
        Err(LieError::NotOrthogonal { .. })
    ));
    // reflections
    let refl = Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -1.0));
    assert!(matches!(
        So3::try_from_matrix(refl),
        Err(LieError::NotARotation { determinant }) if (determinant + 1.0).abs() < 1e-15
    ));
    assert!(matches!(
        So3::try_from_matrix(-rot.matrix()),
        Err(LieError::NotARotation { .. })
    ));
    // non-finite
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut m = *rot.matrix();
        m[(1, 2)] = bad;
        assert!(matches!(
            So3::try_from_matrix(m),
            Err(LieError::NonFinite { .. })
        ));
    }

    // SE(3)
    let g = Se3::exp(&Vector6::new(0.3, -1.0, 2.0, 1.0, 2.0, 3.0));
    assert_eq!(Se3::try_from_matrix(g.to_homogeneous()).unwrap(), g);
    let mut m = g.to_homogeneous();
    m[(3, 1)] = 0.5;
    match Se3::try_from_matrix(m) {
        Err(LieError::NotHomogeneous { found }) => assert_eq!(found, vec![0.0, 0.5, 0.0, 1.0]),
        other => panic!("expected NotHomogeneous, got {other:?}"),
    }
    let mut m = g.to_homogeneous();
    m[(3, 3)] = 2.0;
    assert!(matches!(
        Se3::try_from_matrix(m),
        Err(LieError::NotHomogeneous { .. })
    ));
    let mut m = g.to_homogeneous();
    m[(0, 3)] = f64::NAN;
    assert!(matches!(
        Se3::try_from_matrix(m),
        Err(LieError::NonFinite { .. })
    ));
    let mut m = g.to_homogeneous();
    m[(3, 0)] = f64::NAN;
    assert!(matches!(
        Se3::try_from_matrix(m),
        Err(LieError::NonFinite { .. })
    ));
    let mut m = g.to_homogeneous();
    m[(2, 2)] *= -1.0;
    assert!(matches!(
        Se3::try_from_matrix(m),
        Err(LieError::NotOrthogonal { .. })
    ));
    let mut m = Matrix4::identity();
    m[(2, 2)] = -1.0;
    assert!(matches!(
        Se3::try_from_matrix(m),
        Err(LieError::NotARotation { .. })
    ));

    // quaternions
    assert!(matches!(
        So3::try_from_quaternion(Quaternion::new(1.0, 0.1, 0.0, 0.0)),
        Err(LieError::NotUnit { .. })
    ));
    assert!(matches!(
        So3::try_from_quaternion(Quaternion::new(f64::NAN, 0.0, 0.0, 0.0)),
        Err(LieError::NonFinite { .. })
    ));
    assert!(matches!(
        So3::try_from_quaternion(Quaternion::new(0.0, 0.0, 0.0, 0.0)),
        Err(LieError::NotUnit { .. })
    ));
}

#[test]
fn nalgebra_interop_round_trips() {
    let mut r = rng(16);
    for _ in 0..50 {
        let g = random_so3(&mut r);
        let rot: Rotation3<f64> = g.into();
        assert_eq!(So3::from(rot), g);
        let q: UnitQuaternion<f64> = g.into();
        assert!((So3::from(q).matrix() - g.matrix()).norm() < 1e-14);
        let back = So3::try_from_quaternion(*q.quaternion()).unwrap();
        assert!((back.matrix() - g.matrix()).norm() < 1e-14);
        let v = vec3(&mut r, 1.0);
        assert!((q * v - g.rotate(&v)).norm() < 1e-14);

        let h = random_se3(&mut r);
        let iso: Isometry3<f64> = h.into();
        assert!((iso.to_homogeneous() - h.to_homogeneous()).norm() < 1e-14);
        let back = Se3::from(iso);
        assert!((back.to_homogeneous() - h.to_homogeneous()).norm() < 1e-14);
        let p = vec3(&mut r, 2.0);
        assert!((iso.transform_point(&p.into()).coords - h.transform_point(&p)).norm() < 1e-14);
    }
}

/// `set_scaled` writes `a·x` whatever the previous contents, for every shipped vector space
/// (fixed, dynamic, tuples, arrays and `Vec`s, also when a `Vec` has the wrong length), and
/// `exp_left_mul_assign` equals `exp(ξ)·g` on products and runtime powers.
#[test]
fn set_scaled_and_in_place_left_translation() {
    use liegroup::{Rn, VectorSpace};
    use nalgebra::{DVector, Vector3, Vector6};
    let x = (Vector3::new(1.0, -2.0, 0.5), Vector6::from_element(3.0));
    let mut y = (Vector3::new(7.0, 7.0, 7.0), Vector6::from_element(-1.0));
    y.set_scaled(-0.25, &x);
    assert_eq!(y.0, x.0 * -0.25);
    assert_eq!(y.1, x.1 * -0.25);
    let xd = DVector::from_vec(vec![1.0, 2.0, 3.0]);
    let mut yd = DVector::from_vec(vec![9.0]);
    yd.set_scaled(2.0, &xd);
    assert_eq!(yd, xd * 2.0);
    let xv = vec![Vector3::new(1.0, 2.0, 3.0); 4];
    let mut yv = vec![Vector3::zeros(); 2];
    yv.set_scaled(0.5, &xv);
    assert_eq!(yv, vec![Vector3::new(0.5, 1.0, 1.5); 4]);
    let mut ya = [Vector3::new(1.0, 1.0, 1.0); 2];
    ya.set_scaled(3.0, &[Vector3::new(1.0, 0.0, -1.0); 2]);
    assert_eq!(ya, [Vector3::new(3.0, 0.0, -3.0); 2]);

    let mut r = rng(11);
    for _ in 0..50 {
        let g = (random_so3(&mut r), Rn::new(vec3(&mut r, 2.0)));
        let xi = (vec3(&mut r, 3.0), vec3(&mut r, 2.0));
        let mut h = g;
        h.exp_left_mul_assign(&xi);
        let want = <(So3, Rn<f64, 3>)>::exp(&xi).compose(&g);
        assert!((h.0.matrix() - want.0.matrix()).norm() < 1e-14);
        assert!((h.1.0 - want.1.0).norm() < 1e-14);
        let gs = vec![random_se3(&mut r), random_se3(&mut r)];
        let xs = vec![
            Vector6::from_fn(|_, _| 0.3),
            Vector6::from_fn(|i, _| i as f64 - 2.5),
        ];
        let mut hs = gs.clone();
        hs.exp_left_mul_assign(&xs);
        for ((hk, gk), xk) in hs.iter().zip(&gs).zip(&xs) {
            let want = Se3::exp(xk).compose(gk);
            assert!((hk.to_homogeneous() - want.to_homogeneous()).norm() < 1e-13);
        }
    }
}
