use super::*;

/// Three coupled spheres: a full SPD inertia matrix and a nonlinear potential
/// `V = Σᵢ kᵢ e₃·qᵢ + c (q₀·q₁)² + c (q₁·q₂)³` (Hessian by the default central differences).
struct Coupled;
impl SphereLagrangian for Coupled {
    fn bodies(&self) -> usize {
        3
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        [[3.0, 1.0, 0.5], [1.0, 2.0, 0.7], [0.5, 0.7, 1.5]][i][j]
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        let (a, b) = (q[0].dot(&q[1]), q[1].dot(&q[2]));
        2.0 * q[0].z + q[1].z - q[2].z + 0.8 * a * a + 0.5 * b * b * b
    }
    fn potential_gradient(&self, q: &[Vector3<f64>], g: &mut [Vector3<f64>]) {
        let (a, b) = (q[0].dot(&q[1]), q[1].dot(&q[2]));
        g[0] = Vector3::new(0.0, 0.0, 2.0) + q[1] * (1.6 * a);
        g[1] = Vector3::new(0.0, 0.0, 1.0) + q[0] * (1.6 * a) + q[2] * (1.5 * b * b);
        g[2] = Vector3::new(0.0, 0.0, -1.0) + q[1] * (1.5 * b * b);
    }
}

/// Four spheres with diagonal inertia `diag(1, 2.5, 0.7, 1.3)`, coupled through the potential
/// `V = Σᵢ kᵢ e₃·qᵢ + c Σ_{i<j} (qᵢ·qⱼ)²`; `dense` makes it deny having diagonal inertia, so
/// that the integrator takes the dense path with the same matrix.
struct DiagonalCoupled {
    dense: bool,
}
const MASSES: [f64; 4] = [1.0, 2.5, 0.7, 1.3];
const HEIGHTS: [f64; 4] = [2.0, -1.0, 0.5, 1.5];
const COUPLING: f64 = 0.8;
impl SphereLagrangian for DiagonalCoupled {
    fn bodies(&self) -> usize {
        4
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        if i == j { MASSES[i] } else { 0.0 }
    }
    fn has_diagonal_inertia(&self) -> bool {
        !self.dense
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        let mut v = 0.0;
        for i in 0..4 {
            v += HEIGHTS[i] * q[i].z;
            for j in i + 1..4 {
                v += COUPLING * q[i].dot(&q[j]).powi(2);
            }
        }
        v
    }
    fn potential_gradient(&self, q: &[Vector3<f64>], g: &mut [Vector3<f64>]) {
        // ∂V/∂qᵢ = kᵢ e₃ + 2c Σ_{j≠i} (qᵢ·qⱼ) qⱼ.
        for i in 0..4 {
            g[i] = Vector3::new(0.0, 0.0, HEIGHTS[i]);
            for j in 0..4 {
                if j != i {
                    g[i] += q[j] * (2.0 * COUPLING * q[i].dot(&q[j]));
                }
            }
        }
    }
}

fn state4() -> (Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    let (mut q, mut w) = state();
    let q3 = Vector3::new(-0.4, -0.6, 0.7).normalize();
    let w3 = Vector3::new(0.2, 1.1, -0.5);
    q.push(q3);
    w.push(w3 - q3 * q3.dot(&w3));
    (q, w)
}

#[test]
fn diagonal_fast_path_stores_no_matrix_and_matches_the_dense_path() {
    let mut fast = SphereVariational::<_, f64>::explicit(DiagonalCoupled { dense: false }).unwrap();
    let mut dense = SphereVariational::<_, f64>::explicit(DiagonalCoupled { dense: true }).unwrap();
    assert!(!fast.dense && fast.m.is_empty() && fast.diagonal);
    assert!(dense.dense && dense.m.len() == 16 && dense.diagonal);
    assert_eq!(fast.masses, MASSES.to_vec());
    assert_eq!(dense.masses, MASSES.to_vec());
    let (q0, w0) = state4();
    let (mut qa, mut wa) = (q0.clone(), w0.clone());
    let (mut qb, mut wb) = (q0, w0);
    let z = vec![Vector3::zeros(); 4];
    let (mut qa1, mut wa1, mut qb1, mut wb1) = (z.clone(), z.clone(), z.clone(), z);
    let mut worst: f64 = 0.0;
    for _ in 0..200 {
        fast.step_slices(0.0, &qa, &wa, 0.05, &mut qa1, &mut wa1)
            .unwrap();
        dense
            .step_slices(0.0, &qb, &wb, 0.05, &mut qb1, &mut wb1)
            .unwrap();
        for i in 0..4 {
            worst = worst
                .max((qa1[i] - qb1[i]).amax())
                .max((wa1[i] - wb1[i]).amax());
        }
        core::mem::swap(&mut qa, &mut qa1);
        core::mem::swap(&mut wa, &mut wa1);
        core::mem::swap(&mut qb, &mut qb1);
        core::mem::swap(&mut wb, &mut wb1);
    }
    // The same arithmetic (the dense sums over j add zeros only): equal to the last bit.
    assert_eq!(worst, 0.0);
    // One gradient per step after the first (the gradient at q′ is reused).
    assert_eq!(fast.stats.f_evals, 201);
    // The state moved (the comparison is not vacuous).
    let (q0, _) = state4();
    assert!((qa[0] - q0[0]).norm() > 0.1);
}

#[test]
fn diagonal_fast_path_rejects_bad_masses() {
    struct Masses([f64; 2]);
    impl SphereLagrangian for Masses {
        fn bodies(&self) -> usize {
            2
        }
        fn inertia(&self, i: usize, j: usize) -> f64 {
            if i == j { self.0[i] } else { 0.0 }
        }
        fn has_diagonal_inertia(&self) -> bool {
            true
        }
        fn potential(&self, _: &[Vector3<f64>]) -> f64 {
            0.0
        }
        fn potential_gradient(&self, _: &[Vector3<f64>], g: &mut [Vector3<f64>]) {
            g.iter_mut().for_each(|x| *x = Vector3::zeros());
        }
    }
    for (m, what) in [
        ([1.0, 0.0], "not positive definite: M[1][1] = 0"),
        ([-2.0, 1.0], "not positive definite: M[0][0] = -2"),
        ([1.0, f64::NAN], "M[1][1] = NaN is not finite"),
        ([f64::INFINITY, 1.0], "M[0][0] = inf is not finite"),
    ] {
        match SphereVariational::<_, f64>::explicit(Masses(m)) {
            Err(SchemeError::InvalidOption { reason, .. }) => {
                assert!(reason.contains(what), "{m:?}: {reason}");
            }
            Err(e) => panic!("{m:?}: {e:?}"),
            Ok(_) => panic!("{m:?}: accepted"),
        }
    }
    assert!(SphereVariational::<_, f64>::explicit(Masses([1.0, 3.0])).is_ok());
}

fn state() -> (Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    let q: Vec<Vector3<f64>> = [
        Vector3::new(0.3, -0.2, 0.9),
        Vector3::new(-0.5, 0.4, 0.2),
        Vector3::new(0.1, 0.8, -0.3),
    ]
    .iter()
    .map(|v| v.normalize())
    .collect();
    let w = [
        Vector3::new(1.0, 0.5, -0.2),
        Vector3::new(-0.3, 0.9, 0.4),
        Vector3::new(0.6, -0.1, 1.2),
    ];
    let w = q.iter().zip(w).map(|(q, w)| w - q * q.dot(&w)).collect();
    (q, w)
}

#[test]
fn newton_jacobian_matches_central_differences() {
    let mut vi = SphereVariational::<_, f64>::implicit(Coupled).unwrap();
    let (q, w) = state();
    vi.work.size(3, false);
    vi.work.q0.copy_from_slice(&q);
    vi.work.w0.copy_from_slice(&w);
    // d from a step of h = 0.1, and an arbitrary (not tangent) f.
    let h = 0.1;
    let mut g = vec![Vector3::zeros(); 3];
    Coupled.potential_gradient(&q, &mut g);
    for i in 0..3 {
        let mut pi = Vector3::zeros();
        for j in 0..3 {
            pi += w[j].cross(&q[j]) * Coupled.inertia(i, j);
        }
        vi.work.d[i] = q[i].cross(&(pi * h - g[i] * (h * h / 2.0)));
    }
    let f0 = [
        Vector3::new(0.05, -0.02, 0.03),
        Vector3::new(-0.01, 0.04, 0.02),
        Vector3::new(0.03, 0.01, -0.05),
    ];
    vi.work.f.copy_from_slice(&f0);
    vi.assemble_newton();
    let jac = vi.work.jac.clone();
    let eps = 1e-6;
    let mut worst: f64 = 0.0;
    for col in 0..9 {
        let mut rp = [0.0; 9];
        let mut rm = [0.0; 9];
        for (sign, out) in [(1.0, &mut rp), (-1.0, &mut rm)] {
            let mut f = f0;
            f[col / 3][col % 3] += sign * eps;
            vi.work.f.copy_from_slice(&f);
            vi.assemble_newton();
            for (o, r) in out.iter_mut().zip(&vi.work.rhs) {
                *o = -r;
            }
        }
        for row in 0..9 {
            let fd = (rp[row] - rm[row]) / (2.0 * eps);
            worst = worst.max((fd - jac[row * 9 + col]).abs());
        }
    }
    assert!(worst < 1e-8, "Jacobian error {worst:e}");
}

#[test]
fn newton_converges_quadratically_and_the_step_is_consistent() {
    let mut vi = SphereVariational::<_, f64>::implicit(Coupled).unwrap();
    let (q, w) = state();
    let (mut q1, mut w1) = (vec![Vector3::zeros(); 3], vec![Vector3::zeros(); 3]);
    for h in [0.01, 0.1, 0.3] {
        let before = vi.stats.iterations;
        vi.step_slices(0.0, &q, &w, h, &mut q1, &mut w1).unwrap();
        let iters = vi.stats.iterations - before;
        assert!(iters <= 6, "h = {h}: {iters} Newton iterations");
        for i in 0..3 {
            assert!((q1[i].norm() - 1.0).abs() < 4.0 * f64::EPSILON);
            assert!(q1[i].dot(&w1[i]).abs() < 1e-14 * w1[i].norm().max(1.0));
        }
    }
    // Energy is conserved to O(h²) over a short run.
    let e0 = super::super::sphere_energy(&Coupled, &q, &w);
    let (mut qa, mut wa) = (q.clone(), w.clone());
    for _ in 0..200 {
        vi.step_slices(0.0, &qa, &wa, 0.005, &mut q1, &mut w1)
            .unwrap();
        qa.copy_from_slice(&q1);
        wa.copy_from_slice(&w1);
    }
    let e1 = super::super::sphere_energy(&Coupled, &qa, &wa);
    assert!((e1 - e0).abs() < 1e-3 * e0.abs().max(1.0), "{e0} → {e1}");
}
