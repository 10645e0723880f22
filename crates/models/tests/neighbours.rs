//! The neighbour-list gradient against the all-pairs gradient with the same cut-off, the list's
//! completeness, its rebuild rule, and the diagonal-inertia Lie field against [`LieField`].

use homogeneous::{LieVectorField, TangentSphere2};
use models::models::{LennardJonesPotential, LennardJonesTerm};
use models::neighbours::{
    DiagonalLieField, DiagonalSystem, NeighbourList, NeighbourPotential, fibonacci_sphere,
    hexagonal_spacing,
};
use models::{LennardJones, LieField, Potential, SphereSystem};
use nalgebra::{DMatrix, DVector, Vector3, Vector6};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Fibonacci points moved randomly by up to `amp` (then normalized).
fn jittered(n: usize, amp: f64, seed: u64) -> Vec<Vector3<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    fibonacci_sphere(n)
        .into_iter()
        .map(|p| {
            let d = Vector3::new(
                rng.random_range(-amp..amp),
                rng.random_range(-amp..amp),
                rng.random_range(-amp..amp),
            );
            (p + d).normalize()
        })
        .collect()
}

fn setup(n: usize) -> (LennardJonesTerm, f64, f64) {
    let sigma = hexagonal_spacing(n) / 2f64.powf(1.0 / 6.0);
    let rc = 2.5 * sigma;
    (LennardJonesTerm::new(0.01, sigma, Some(rc)), rc, sigma)
}

/// `max |a − b| / max(1, max |b|)` over all components.
fn rel_diff(a: &[Vector3<f64>], b: &[Vector3<f64>]) -> f64 {
    let scale = b.iter().map(|v| v.amax()).fold(1.0, f64::max);
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).amax())
        .fold(0.0, f64::max)
        / scale
}

#[test]
fn neighbour_gradient_equals_all_pairs_gradient() {
    for (n, seed) in [(1000, 1), (3001, 2)] {
        let (term, rc, sigma) = setup(n);
        let fast = NeighbourPotential::new(n, term, rc, 0.3 * sigma).unwrap();
        let slow = LennardJonesPotential::new(n, term);
        // Strong jitter: many pairs inside the switching zone and near the cut-off.
        let q = jittered(n, 0.3 * hexagonal_spacing(n), seed);
        let (mut g1, mut g2) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
        let v1 = fast.gradient(&q, &mut g1);
        let v2 = slow.gradient(&q, &mut g2);
        assert!(
            (v1 - v2).abs() <= 1e-13 * v2.abs().max(1.0),
            "n = {n}: V {v1} vs {v2}"
        );
        let e = rel_diff(&g1, &g2);
        assert!(e <= 1e-13, "n = {n}: gradient differs by {e:e}");
        // The same through the hand-written all-pairs kernel.
        let mut g3 = vec![Vector3::zeros(); n];
        slow.gradient_analytic(&q, &mut g3);
        assert!(rel_diff(&g1, &g3) <= 1e-13);
        // And the value of the generic (all-pairs) path of the neighbour potential.
        assert!((fast.value(&q) - v2).abs() <= 1e-13 * v2.abs().max(1.0));
    }
}

#[test]
fn list_is_complete_and_rebuilt_only_when_stale() {
    let n = 2000;
    let (_, rc, sigma) = setup(n);
    let skin = 0.3 * sigma;
    let mut list = NeighbourList::new(rc, skin).unwrap();
    let q = jittered(n, 0.2 * hexagonal_spacing(n), 7);
    assert!(list.update(&q));
    let r2 = (rc + skin) * (rc + skin);
    for i in 0..n {
        let mut expected: Vec<u32> = (0..n)
            .filter(|&j| j != i && (q[i] - q[j]).norm_squared() < r2)
            .map(|j| j as u32)
            .collect();
        let mut found = list.neighbours(i).to_vec();
        expected.sort_unstable();
        found.sort_unstable();
        assert_eq!(found, expected, "particle {i}");
    }
    // Moves below skin/2 keep the list; one move beyond triggers a rebuild.
    let mut q2 = q.clone();
    for p in &mut q2 {
        *p = (*p + Vector3::new(0.4 * skin / 3f64.sqrt(), 0.0, 0.0)).normalize();
    }
    assert!(!list.update(&q2));
    assert_eq!(list.rebuilds(), 1);
    q2[17] = (q2[17] + Vector3::new(0.0, 0.6 * skin, 0.0)).normalize();
    assert!(list.update(&q2));
    assert_eq!(list.rebuilds(), 2);
}

#[test]
fn stale_list_never_used_in_a_trajectory_of_moves() {
    // Drift the particles in many small random steps; the gradient must match the all-pairs
    // gradient at every step, rebuilt or not.
    let n = 1500;
    let (term, rc, sigma) = setup(n);
    let fast = NeighbourPotential::new(n, term, rc, 0.3 * sigma).unwrap();
    let slow = LennardJonesPotential::new(n, term);
    let mut q = jittered(n, 0.1 * hexagonal_spacing(n), 3);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut g1, mut g2) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
    for _ in 0..12 {
        for p in &mut q {
            let d = Vector3::new(
                rng.random_range(-0.08..0.08),
                rng.random_range(-0.08..0.08),
                rng.random_range(-0.08..0.08),
            ) * sigma;
            *p = (*p + d).normalize();
        }
        fast.gradient(&q, &mut g1);
        slow.gradient(&q, &mut g2);
        assert!(rel_diff(&g1, &g2) <= 1e-13);
    }
    assert!(fast.rebuilds() > 1 && fast.rebuilds() < 12);
}

#[test]
fn diagonal_field_equals_the_sphere_system_field() {
    let n = 300;
    let (term, rc, sigma) = setup(n);
    let masses: Vec<f64> = (0..n).map(|i| 1.0 + 0.01 * i as f64).collect();
    let diag = DiagonalSystem::new(
        masses.clone(),
        NeighbourPotential::new(n, term, rc, 0.3 * sigma).unwrap(),
    )
    .unwrap();
    let dense = SphereSystem::new(
        DMatrix::from_diagonal(&DVector::from_vec(masses)),
        LennardJonesPotential::new(n, term),
    )
    .unwrap();
    let q = jittered(n, 0.2 * hexagonal_spacing(n), 5);
    let omega = models::models::two_vortex_velocities(&q, 0.5, 1.0, 0.3);
    let pts: Vec<TangentSphere2<f64>> = q
        .iter()
        .zip(&omega)
        .map(|(a, b)| TangentSphere2::new_projected(*a, *b).unwrap())
        .collect();
    let (mut f1, mut f2) = (Vec::new(), vec![Vector6::zeros(); n]);
    DiagonalLieField::new(&diag).eval(0.0, &pts, &mut f1);
    LieField::new(&dense).eval(0.0, &pts, &mut f2);
    let scale = f2.iter().map(|v| v.amax()).fold(1.0, f64::max);
    let err = f1
        .iter()
        .zip(&f2)
        .map(|(a, b)| (a - b).amax())
        .fold(0.0, f64::max);
    assert!(err <= 1e-13 * scale, "{err:e}");
}

#[test]
fn large_preset_has_o1_neighbours_per_particle() {
    let (sys, q) = LennardJones::large(20_000, 0.01, 2.5, 0.3).unwrap();
    let mut g = vec![Vector3::zeros(); q.len()];
    let v = sys.potential().gradient(&q, &mut g);
    assert!(v.is_finite());
    // On the lattice the forces nearly cancel.
    let max_force = g.iter().map(|gi| q[0].cross(gi).norm()).fold(0.0, f64::max);
    assert!(max_force.is_finite());
    assert_eq!(sys.potential().rebuilds(), 1);
    assert!(LennardJones::large(0, 0.01, 2.5, 0.3).is_err());
    assert!(LennardJones::large(10, 0.01, -1.0, 0.3).is_err());
}
