//! The explicit variational integrator [LLM09, Cor. 3, eqs. (3.17)–(3.18)] on the Lennard-Jones
//! molecules [LLM09, Ex. 6] as the benchmarks run it: the diagonal-inertia fast path of
//! `SphereVariational` (no `n × n` matrix) gives the same steps as the dense path to the last
//! bit, costs one gradient per step, and `step_slices` allocates nothing once the buffers exist
//! (a counting global allocator, per thread).

use homogeneous::{TangentSphereAction, VecPowerAction};
use models::{LennardJones, Potential, SphereModel, SphereSystem};
use nalgebra::Vector3;
use schemes::Stepper;
use schemes::variational::{SphereLagrangian, SphereVariational};

type A = VecPowerAction<TangentSphereAction>;

#[path = "common/counting.rs"]
mod counting;
use counting::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The system with its diagonal inertia hidden: `SphereVariational` then stores `M` densely
/// and sums over all `j` in (3.10) and (3.12).
struct Dense<'a, P>(&'a SphereSystem<P>);

impl<P: Potential> SphereLagrangian for Dense<'_, P> {
    fn bodies(&self) -> usize {
        SphereLagrangian::bodies(self.0)
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        SphereLagrangian::inertia(self.0, i, j)
    }
    fn has_diagonal_inertia(&self) -> bool {
        false
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        SphereLagrangian::potential(self.0, q)
    }
    fn potential_gradient(&self, q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) {
        SphereLagrangian::potential_gradient(self.0, q, grad);
    }
}

/// `steps` explicit steps of size `h` from `(q, ω)` (ping-pong buffers, as in the benchmark);
/// the final state.
fn run<L: SphereLagrangian>(
    vi: &mut SphereVariational<L>,
    q: &[Vector3<f64>],
    omega: &[Vector3<f64>],
    h: f64,
    steps: usize,
) -> (Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    let (mut qa, mut wa) = (q.to_vec(), omega.to_vec());
    let (mut qb, mut wb) = (qa.clone(), wa.clone());
    for _ in 0..steps {
        vi.step_slices(0.0, &qa, &wa, h, &mut qb, &mut wb).unwrap();
        core::mem::swap(&mut qa, &mut qb);
        core::mem::swap(&mut wa, &mut wb);
    }
    (qa, wa)
}

#[test]
fn fast_path_equals_dense_path_on_lennard_jones() {
    // 162 molecules (the twice subdivided icosphere), the two-vortex velocities of the preset.
    let (model, q) = LennardJones::on_icosphere(2, 0.01, None).unwrap();
    let omega = models::sphere_systems::two_vortex_velocities(&q, 0.5, 1.0, 0.3);
    let sys = model.system();
    let mut fast = SphereVariational::explicit(sys).unwrap();
    let mut dense = SphereVariational::explicit(Dense(sys)).unwrap();
    let (qf, wf) = run(&mut fast, &q, &omega, 0.01, 20);
    let (qd, wd) = run(&mut dense, &q, &omega, 0.01, 20);
    // The dense sums over j add exact zeros only: the same numbers.
    assert_eq!(qf, qd);
    assert_eq!(wf, wd);
    let moved = q
        .iter()
        .zip(&qf)
        .map(|(a, b)| (a - b).norm())
        .fold(0.0, f64::max);
    assert!(moved > 1e-3, "the molecules moved by {moved:e} only");
    // One gradient per step, plus the one at the start.
    assert_eq!(Stepper::<A>::stats(&fast).f_evals, 21);
}

/// A [`models::neighbours::DiagonalSystem`] (masses as a vector) with the same all-pairs
/// potential steps exactly like the [`SphereSystem`]: both take the diagonal path.
#[test]
fn diagonal_system_steps_like_the_sphere_system() {
    let (model, q) = LennardJones::on_icosphere(2, 0.01, None).unwrap();
    let omega = models::sphere_systems::two_vortex_velocities(&q, 0.5, 1.0, 0.3);
    let sys = model.system();
    let diag =
        models::neighbours::DiagonalSystem::new(model.masses().to_vec(), *sys.potential()).unwrap();
    let mut a = SphereVariational::explicit(sys).unwrap();
    let mut b = SphereVariational::explicit(&diag).unwrap();
    let (qa, wa) = run(&mut a, &q, &omega, 0.01, 20);
    let (qb, wb) = run(&mut b, &q, &omega, 0.01, 20);
    assert_eq!(qa, qb);
    assert_eq!(wa, wb);
}

#[test]
fn explicit_steps_on_642_molecules_do_not_allocate() {
    let (model, x0) = LennardJones::icosphere_642();
    let sys = model.system();
    let mut vi = SphereVariational::explicit(sys).unwrap();
    let n = x0.q.len();
    let (mut qa, mut wa) = (x0.q.clone(), x0.omega.clone());
    let (mut qb, mut wb) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
    // The first step sizes the buffers.
    vi.step_slices(0.0, &qa, &wa, 0.01, &mut qb, &mut wb)
        .unwrap();
    core::mem::swap(&mut qa, &mut qb);
    core::mem::swap(&mut wa, &mut wb);
    let before = allocations();
    for _ in 0..3 {
        vi.step_slices(0.0, &qa, &wa, 0.01, &mut qb, &mut wb)
            .unwrap();
        core::mem::swap(&mut qa, &mut qb);
        core::mem::swap(&mut wa, &mut wb);
    }
    assert_eq!(allocations() - before, 0, "allocations in three steps");
    for (q, w) in qa.iter().zip(&wa) {
        assert!((q.norm() - 1.0).abs() < 1e-14 && q.dot(w).abs() < 1e-12);
    }
}
