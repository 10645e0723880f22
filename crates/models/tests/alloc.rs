//! The evaluation kernels allocate nothing once the workspace exists: gradients, Hessian–vector
//! products, the Euler–Lagrange solve (Cholesky, and the LU fallback off the manifold), the Lie
//! and ambient fields, energies and invariants. A counting global allocator (per thread) wraps
//! repeated evaluations.

use homogeneous::LieVectorField;
use models::{
    AmbientField, CoupledPendula, DipoleArray, ElasticRod, LennardJones, LieField, NFoldPendulum,
    Potential, SphereModel, SphereNBody, SphereState,
};
use nalgebra::{Vector3, Vector6};

#[path = "common/counting.rs"]
mod counting;
use counting::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn check<M: SphereModel>(model: &M, x: &SphereState) {
    let sys = model.system();
    let n = sys.bodies();
    let lie = LieField::new(sys);
    let amb = AmbientField::new(sys);
    let mut ws = sys.workspace();
    let mut f = vec![Vector6::zeros(); n];
    let (mut qd, mut wd) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
    let mut g = vec![Vector3::zeros(); n];
    let mut hv = vec![Vector3::zeros(); n];
    let mut p = vec![Vector3::zeros(); n];
    let y = x.to_flat();
    let mut dy = vec![0.0; y.len()];
    let rn = x.to_rn_points();
    let mut out = vec![Vector6::zeros(); n];
    // Off the manifold: |qᵢ| = 3 makes the matrix indefinite for coupled inertia (LU path).
    let q_far: Vec<_> = x.q.iter().map(|q| q * 3.0).collect();
    let before = allocations();
    for _ in 0..3 {
        sys.potential().gradient(&x.q, &mut g);
        sys.potential().hessian_vector(&x.q, &x.omega, &mut hv);
        sys.lie_algebra_field(&x.q, &x.omega, &mut ws, &mut f);
        sys.ambient_derivative(&x.q, &x.omega, &mut ws, &mut qd, &mut wd);
        sys.ambient_derivative(&q_far, &x.omega, &mut ws, &mut qd, &mut wd);
        sys.angular_accelerations(&x.q, &x.omega, &mut ws, &mut wd);
        lie.eval_slices(&x.q, &x.omega, &mut f);
        amb.eval_slices(&x.q, &x.omega, &mut qd, &mut wd);
        amb.eval_flat(&y, &mut dy);
        amb.eval(0.0, &rn, &mut out);
        std::hint::black_box(sys.energy(&x.q, &x.omega));
        std::hint::black_box(sys.angular_momentum(&x.q, &x.omega));
        sys.conjugate_momenta(&x.q, &x.omega, &mut p);
        std::hint::black_box(sys.potential().value(&x.q));
    }
    let count = allocations() - before;
    assert_eq!(
        count,
        0,
        "{}: {count} allocations in the kernels",
        model.name()
    );
}

#[test]
fn kernels_do_not_allocate() {
    let (p, x) = NFoldPendulum::variable_step_experiment(6).unwrap();
    let x = SphereState::new_projected(x.q.clone(), vec![Vector3::new(0.0, 0.3, 0.1); 6]).unwrap();
    check(&p, &x);
    let (p, x) = SphereNBody::three_body();
    check(&p, &x);
    let (p, x) = CoupledPendula::four_pendula();
    check(&p, &x);
    let (p, x) = ElasticRod::lee_leok_mcclamroch();
    check(&p, &x);
    let (p, x) = DipoleArray::grid_4x4();
    check(&p, &x);
    let (p, q) = LennardJones::on_icosphere(1, 0.01, Some(0.8)).unwrap();
    let x = SphereState::new_projected(
        q.clone(),
        q.iter().map(|v| v.cross(&Vector3::z())).collect(),
    )
    .unwrap();
    check(&p, &x);
}
