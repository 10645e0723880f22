//! The variational integrator on (S²)ⁿ with a Lagrangian written here (no model crate): dual
//! numbers through a step (`Dual64`, with the default finite-difference Hessian–vector
//! product), the driver on fixed-size arrays of points with a symmetric composition, exact
//! conservation of the total angular momentum of a rotation-invariant system, and the registry.

// Index loops mirror the formulas (sums over bodies i, j).
#![allow(clippy::needless_range_loop)]

use homogeneous::{PowerAction, TangentSphere2, TangentSphereAction};
use liegroup::num_dual::Dual64;
use nalgebra::{Vector3, Vector6};
use schemes::composition::{self, Composition};
use schemes::variational::{self, SphereLagrangian, SphereVariational, sphere_energy};
use schemes::{Options, Problem, Stepper, integrate};

/// Three particles on the unit sphere with a full inertia matrix and the rotation-invariant
/// potential `V = Σ_{i<j} κ (qᵢ·qⱼ)²` (no `hessian_vector`: the default differences are used).
struct Ring;

impl SphereLagrangian for Ring {
    fn bodies(&self) -> usize {
        3
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        [[2.0, 0.4, 0.2], [0.4, 1.5, 0.3], [0.2, 0.3, 1.0]][i][j]
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        let mut v = 0.0;
        for i in 0..3 {
            for j in i + 1..3 {
                v += 0.7 * q[i].dot(&q[j]).powi(2);
            }
        }
        v
    }
    fn potential_gradient(&self, q: &[Vector3<f64>], g: &mut [Vector3<f64>]) {
        g.iter_mut().for_each(|x| *x = Vector3::zeros());
        for i in 0..3 {
            for j in i + 1..3 {
                let c = 1.4 * q[i].dot(&q[j]);
                g[i] += q[j] * c;
                g[j] += q[i] * c;
            }
        }
    }
}

fn start() -> [TangentSphere2; 3] {
    let q = [
        Vector3::new(1.0, 0.2, 0.1),
        Vector3::new(-0.3, 1.0, 0.4),
        Vector3::new(0.2, -0.5, 1.0),
    ];
    let w = [
        Vector3::new(0.1, 0.5, -1.0),
        Vector3::new(0.7, 0.0, 0.3),
        Vector3::new(-0.4, 0.9, 0.2),
    ];
    core::array::from_fn(|i| TangentSphere2::new_projected(q[i], w[i]).unwrap())
}

/// `J = Σᵢ qᵢ × Σⱼ Mᵢⱼ (ωⱼ × qⱼ)`.
fn angular_momentum(y: &[TangentSphere2; 3]) -> Vector3<f64> {
    let mut j = Vector3::zeros();
    for i in 0..3 {
        let mut p = Vector3::zeros();
        for k in 0..3 {
            p += y[k].omega().cross(y[k].q()) * Ring.inertia(i, k);
        }
        j += y[i].q().cross(&p);
    }
    j
}

#[test]
fn dual_numbers_flow_through_a_step() {
    // d/ds of the state after one step from (q(s), ω), q₀(s) = normalize(q₀ + s e₃), by Dual64
    // against central differences of f64 steps.
    let y = start();
    let h = 0.05;
    let step_f64 = |s: f64| {
        let mut vi = SphereVariational::<_, f64>::implicit(Ring).unwrap();
        let q0 = (y[0].q() + Vector3::z() * s).normalize();
        let w0 = y[0].omega() - q0 * q0.dot(y[0].omega());
        let q = [q0, *y[1].q(), *y[2].q()];
        let w = [w0, *y[1].omega(), *y[2].omega()];
        let (mut q1, mut w1) = ([Vector3::zeros(); 3], [Vector3::zeros(); 3]);
        vi.step_slices(0.0, &q, &w, h, &mut q1, &mut w1).unwrap();
        (q1, w1)
    };
    let mut vi = SphereVariational::<_, Dual64>::implicit(Ring).unwrap();
    let s = Dual64::new(0.0, 1.0);
    let lift = |v: &Vector3<f64>| v.map(Dual64::from);
    let q0 = (lift(y[0].q()) + Vector3::<f64>::z().map(Dual64::from) * s).normalize();
    let w0 = lift(y[0].omega()) - q0 * q0.dot(&lift(y[0].omega()));
    let q = [q0, lift(y[1].q()), lift(y[2].q())];
    let w = [w0, lift(y[1].omega()), lift(y[2].omega())];
    let z = Vector3::zeros();
    let (mut q1, mut w1) = ([z; 3], [z; 3]);
    vi.step_slices(0.0, &q, &w, Dual64::from(h), &mut q1, &mut w1)
        .unwrap();
    let e = 1e-6;
    let (qp, wp) = step_f64(e);
    let (qm, wm) = step_f64(-e);
    let mut worst: f64 = 0.0;
    for i in 0..3 {
        for k in 0..3 {
            worst = worst.max((q1[i][k].eps - (qp[i][k] - qm[i][k]) / (2.0 * e)).abs());
            worst = worst.max((w1[i][k].eps - (wp[i][k] - wm[i][k]) / (2.0 * e)).abs());
        }
    }
    assert!(worst < 1e-7, "derivative mismatch {worst:e}");
}

#[test]
fn composition_on_arrays_conserves_angular_momentum() {
    type A = PowerAction<TangentSphereAction, 3>;
    let problem = Problem::new(
        A::new(TangentSphereAction::new()),
        |_t: f64, _y: &[TangentSphere2; 3]| [Vector6::zeros(); 3],
    );
    let base = SphereVariational::<_, f64>::implicit(Ring).unwrap();
    let mut comp = Composition::new::<A>(&composition::YOSHIDA4, base).unwrap();
    assert_eq!(Stepper::<A>::order(&comp), 4);
    assert_eq!(Stepper::<A>::name(&comp), "yoshida4(llm-implicit)");
    let y0 = start();
    let sol = integrate(&problem, &mut comp, 0.0, y0, 20.0, &Options::fixed(0.02)).unwrap();
    let j0 = angular_momentum(&y0);
    let e0 = energy(&y0);
    let (mut dj, mut de): (f64, f64) = (0.0, 0.0);
    for y in &sol.y {
        dj = dj.max((angular_momentum(y) - j0).amax());
        de = de.max((energy(y) - e0).abs());
        for p in y {
            assert!((p.q().norm() - 1.0).abs() < 1e-14);
        }
    }
    println!(
        "yoshida4(llm-implicit), 1000 steps: |ΔJ| ≤ {dj:.1e} (|J| = {:.3}), |ΔE| ≤ {de:.1e}",
        j0.norm()
    );
    assert!(dj < 1e-12 * j0.norm().max(1.0), "{dj:e}");
    assert!(de < 1e-4 * e0.abs().max(1.0), "{de:e}");
}

fn energy(y: &[TangentSphere2; 3]) -> f64 {
    let q: Vec<_> = y.iter().map(|p| *p.q()).collect();
    let w: Vec<_> = y.iter().map(|p| *p.omega()).collect();
    sphere_energy(&Ring, &q, &w)
}

#[test]
fn registry() {
    assert_eq!(variational::METHODS.len(), 2);
    for spec in variational::METHODS {
        assert_eq!(spec.order, 2);
        assert_eq!(variational::find(spec.id).unwrap(), spec);
    }
    let implicit = variational::find("llm-implicit")
        .unwrap()
        .stepper::<_, f64>(Ring)
        .unwrap();
    assert_eq!(
        Stepper::<PowerAction<TangentSphereAction, 3>>::name(&implicit),
        "llm-implicit"
    );
    // The explicit form needs a diagonal inertia matrix.
    assert!(
        variational::find("llm-explicit")
            .unwrap()
            .stepper::<_, f64>(Ring)
            .is_err()
    );
    assert!(!Ring.has_diagonal_inertia());
}
