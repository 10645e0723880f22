//! The neighbour-list gradient against the all-pairs gradient with the same cut-off, the list's
//! completeness (also off the sphere and outside the grid's cube), its rebuild rule, its
//! internal cell order (a permutation; results equivariant under renumbering the particles),
//! rows sorted by distance, results (gradients, explicit variational and RKMK4 steps) bitwise
//! independent of the number of threads, the diagonal-inertia Lie field against [`LieField`],
//! and re-entrant or concurrent gradients of one potential (no deadlock, the same bits).

use homogeneous::{LieVectorField, TangentSphere2};
use models::neighbours::{
    DiagonalLieField, DiagonalSystem, NeighbourList, NeighbourPotential, fibonacci_sphere,
    hexagonal_spacing,
};
use models::sphere_systems::{LennardJonesPotential, LennardJonesTerm};
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
        let mut expected: Vec<usize> = (0..n)
            .filter(|&j| j != i && (q[i] - q[j]).norm_squared() < r2)
            .collect();
        let mut found: Vec<usize> = list.neighbours(i).collect();
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
    let omega = models::sphere_systems::two_vortex_velocities(&q, 0.5, 1.0, 0.3);
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

/// A random permutation (Fisher–Yates).
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.random_range(0..=i));
    }
    p
}

/// Every pair closer than `r` by brute force, per particle, sorted.
fn brute_force_rows(q: &[Vector3<f64>], r: f64) -> Vec<Vec<usize>> {
    (0..q.len())
        .map(|i| {
            (0..q.len())
                .filter(|&j| j != i && (q[i] - q[j]).norm_squared() < r * r)
                .collect()
        })
        .collect()
}

fn sorted_rows(list: &NeighbourList, n: usize) -> Vec<Vec<usize>> {
    (0..n)
        .map(|i| {
            let mut row: Vec<usize> = list.neighbours(i).collect();
            row.sort_unstable();
            row
        })
        .collect()
}

#[test]
fn order_is_a_permutation_and_rows_are_sorted_by_distance() {
    let n = 3000;
    let (_, rc, sigma) = setup(n);
    let skin = 0.3 * sigma;
    let r_list = rc + skin;
    let q = jittered(n, 0.2 * hexagonal_spacing(n), 21);
    let mut list = NeighbourList::new(rc, skin).unwrap();
    assert!(list.is_empty() && list.order().is_empty());
    list.build(&q);
    assert_eq!(list.len(), n);
    let mut seen = vec![false; n];
    for &i in list.order() {
        assert!(!seen[i as usize], "{i} twice in the order");
        seen[i as usize] = true;
    }
    assert!(seen.iter().all(|&s| s));
    // Rows by increasing distance, up to the width of a shell, r_list²/16.
    let shell = r_list * r_list / 16.0;
    for i in 0..n {
        let d2: Vec<f64> = list
            .neighbours(i)
            .map(|j| (q[i] - q[j]).norm_squared())
            .collect();
        for w in d2.windows(2) {
            assert!(w[1] > w[0] - shell, "particle {i}: {d2:?}");
        }
    }
    // Out of range: an empty row, no panic.
    assert_eq!(list.neighbours(n).count(), 0);
}

#[test]
fn list_is_complete_off_the_sphere_and_outside_the_cube() {
    // Points in the cube [−1.4, 1.4]³ (many outside the grid's [−1, 1]³, clamped into the
    // border cells): the list is a property of the point set, not of the sphere.
    let n = 1500;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let q: Vec<Vector3<f64>> = (0..n)
        .map(|_| {
            let v = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            v * 1.4
        })
        .collect();
    for (rc, skin) in [(0.1, 0.05), (0.31, 0.2), (1.5, 0.5)] {
        let mut list = NeighbourList::new(rc, skin).unwrap();
        list.build(&q);
        assert_eq!(
            sorted_rows(&list, n),
            brute_force_rows(&q, rc + skin),
            "r_c = {rc}"
        );
    }
}

#[test]
fn renumbering_the_particles_permutes_the_gradient() {
    // V is invariant under a relabelling π, and ∂V/∂q_{π(i)} of the relabelled set is ∂V/∂qᵢ
    // (to round-off: the order of the sums within a row depends on the numbering in a cell).
    let n = 2500;
    let (term, rc, sigma) = setup(n);
    let q = jittered(n, 0.2 * hexagonal_spacing(n), 8);
    let pi = shuffled(n, 9);
    let qp: Vec<Vector3<f64>> = pi.iter().map(|&i| q[i]).collect();
    let a = NeighbourPotential::new(n, term, rc, 0.3 * sigma).unwrap();
    let b = NeighbourPotential::new(n, term, rc, 0.3 * sigma).unwrap();
    let (mut g, mut gp) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
    let v = a.gradient(&q, &mut g);
    let vp = b.gradient(&qp, &mut gp);
    assert!((v - vp).abs() <= 1e-13 * v.abs().max(1.0), "{v} vs {vp}");
    let back: Vec<Vector3<f64>> = {
        let mut back = vec![Vector3::zeros(); n];
        for (k, &i) in pi.iter().enumerate() {
            back[i] = gp[k];
        }
        back
    };
    assert!(rel_diff(&back, &g) <= 1e-13);
    // And a randomly numbered set against all pairs.
    let mut g_all = vec![Vector3::zeros(); n];
    LennardJonesPotential::new(n, term).gradient(&qp, &mut g_all);
    assert!(rel_diff(&gp, &g_all) <= 1e-13);
}

#[test]
fn a_non_finite_position_makes_the_list_stale() {
    let n = 500;
    let (_, rc, sigma) = setup(n);
    let mut list = NeighbourList::new(rc, 0.3 * sigma).unwrap();
    let mut q = fibonacci_sphere(n);
    assert!(list.update(&q));
    assert!(!list.update(&q));
    q[123].x = f64::NAN;
    assert!(list.update(&q));
    // Fewer particles: rebuilt for the new size.
    assert!(list.update(&q[..400]));
    assert_eq!(list.len(), 400);
}

#[test]
fn too_many_particles_is_a_typed_error() {
    let (term, rc, sigma) = setup(1000);
    let n = u32::MAX as usize + 1;
    assert!(matches!(
        NeighbourPotential::new(n, term, rc, 0.3 * sigma),
        Err(models::ModelError::DimensionMismatch { found, .. }) if found == n
    ));
    assert!(NeighbourList::new(rc, f64::NAN).is_err());
    assert!(NeighbourList::new(0.0, 0.1).is_err());
}

#[cfg(feature = "rayon")]
#[test]
fn results_are_bitwise_independent_of_the_number_of_threads() {
    // Blocks and chunks are fixed, each force is summed over its own row in a fixed order and
    // the energy over the blocks in order: 1, 2 and 3 threads give the same bits.
    let n = 20_000;
    let (sys, q) = LennardJones::large(n, 0.01, 2.5, 0.3).unwrap();
    let q: Vec<Vector3<f64>> = {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let sigma = sys.potential().cutoff() / 2.5;
        q.iter()
            .map(|p| {
                let d = Vector3::new(
                    rng.random_range(-0.1..0.1),
                    rng.random_range(-0.1..0.1),
                    rng.random_range(-0.1..0.1),
                );
                (p + d * sigma).normalize()
            })
            .collect()
    };
    let omega = models::sphere_systems::two_vortex_velocities(&q, 0.5, 1.0, 0.3);
    let pts: Vec<TangentSphere2<f64>> = q
        .iter()
        .zip(&omega)
        .map(|(a, b)| TangentSphere2::new_projected(*a, *b).unwrap())
        .collect();
    let run = |threads: usize| {
        on_pool(threads, || {
            // A fresh system each time, so that the list is built on this pool too.
            let (sys, _) = LennardJones::large(n, 0.01, 2.5, 0.3).unwrap();
            let mut g = vec![Vector3::zeros(); n];
            let v = sys.potential().gradient(&q, &mut g);
            let mut f = Vec::new();
            DiagonalLieField::new(&sys).eval(0.0, &pts, &mut f);
            let mut acc = vec![Vector3::zeros(); n];
            sys.angular_accelerations(&q, &mut g.clone(), &mut acc);
            (v.to_bits(), g, f, acc)
        })
    };
    let one = run(1);
    for threads in [2, 3] {
        let other = run(threads);
        assert_eq!(one.0, other.0, "V with {threads} threads");
        assert!(one.1 == other.1, "gradient with {threads} threads");
        assert!(one.2 == other.2, "Lie field with {threads} threads");
        assert!(one.3 == other.3, "accelerations with {threads} threads");
    }
}

#[cfg(feature = "rayon")]
#[test]
fn steps_on_lennard_jones_are_bitwise_independent_of_the_number_of_threads() {
    // The explicit variational step (its passes over the bodies) and RKMK4 on
    // `VecPowerAction<TangentSphereAction>` (the `Vec` powers' loops) on top of the parallel
    // gradient: the same bits on 1, 2 and 3 threads.
    use homogeneous::{TangentSphereAction, VecPowerAction};
    use schemes::Stepper;
    use schemes::variational::SphereVariational;
    type Act = VecPowerAction<TangentSphereAction>;
    let n = 6000;
    let q = jittered(n, 0.002, 11);
    let omega = models::sphere_systems::two_vortex_velocities(&q, 0.5, 1.0, 0.3);
    let run = |threads: usize| {
        on_pool(threads, || {
            let (sys, _) = LennardJones::large(n, 0.01, 2.5, 0.3).unwrap();
            let mut vi = SphereVariational::explicit(&sys).unwrap();
            let (mut qa, mut wa) = (q.clone(), omega.clone());
            let (mut qb, mut wb) = (q.clone(), omega.clone());
            for _ in 0..3 {
                vi.step_slices(0.0, &qa, &wa, 0.001, &mut qb, &mut wb)
                    .unwrap();
                core::mem::swap(&mut qa, &mut qb);
                core::mem::swap(&mut wa, &mut wb);
            }
            let field = DiagonalLieField::new(&sys);
            let action = Act::new(TangentSphereAction::new());
            let mut stepper = schemes::methods::find("rkmk4").unwrap().stepper::<Act>();
            let mut y: Vec<TangentSphere2<f64>> = q
                .iter()
                .zip(&omega)
                .map(|(a, b)| TangentSphere2::new_projected(*a, *b).unwrap())
                .collect();
            for _ in 0..2 {
                y = stepper
                    .step(&action, &field, 0.0, &y, 0.001, None)
                    .unwrap()
                    .y;
            }
            (qa, wa, y)
        })
    };
    let one = run(1);
    for threads in [2, 3] {
        assert!(one == run(threads), "{threads} threads");
    }
}

#[cfg(feature = "rayon")]
#[test]
fn gradients_of_one_potential_from_the_workers_of_a_pool() {
    // Gradients of one potential from the workers of a pool, each of them parallel itself: while
    // one evaluates, the others (and a worker that steals another item while it waits on a
    // join) find the shared list out and use temporary ones (built at the same positions here,
    // hence the same bits); no lock is held while forces are evaluated, so none of them can
    // wait on a lock its own thread holds. Afterwards the shared list is back in its slot.
    use rayon::prelude::*;
    let n = 20_000;
    let q = jittered(n, 0.002, 12);
    let (done, finished) = std::sync::mpsc::channel();
    let q2 = q.clone();
    std::thread::spawn(move || {
        let (sys, _) = LennardJones::large(n, 0.01, 2.5, 0.3).unwrap();
        let pot = sys.potential();
        let mut reference = vec![Vector3::zeros(); n];
        let v = pot.gradient(&q2, &mut reference); // builds the shared list at q2
        let same = on_pool(2, || {
            (0..8).into_par_iter().all(|_| {
                let mut g = vec![Vector3::zeros(); n];
                let w = pot.gradient(&q2, &mut g);
                w.to_bits() == v.to_bits() && g == reference
            })
        });
        // The shared list is back in its slot: a sequential gradient does not rebuild.
        let before = pot.rebuilds();
        let mut g = vec![Vector3::zeros(); n];
        pot.gradient(&q2, &mut g);
        done.send((same, pot.rebuilds() == before, g == reference))
            .unwrap();
    });
    let (same, no_rebuild, again) = finished
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("re-entrant gradients deadlocked (no answer within 60 s)");
    assert!(same, "re-entrant gradients differ from the sequential one");
    assert!(no_rebuild && again, "the shared list was not put back");
    drop(q);
}

#[test]
fn a_term_that_reenters_its_potential_does_not_deadlock() {
    // A pair term that evaluates the potential it belongs to (once): the inner gradient runs
    // on the thread that is inside the outer one. With the lock held across the evaluation this
    // was a self-deadlock; now the inner evaluation uses a temporary list (built at the same
    // positions as the shared one here, hence the same bits).
    use nalgebra::RealField;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};
    type Pot = NeighbourPotential<Reentrant>;
    struct Reentrant {
        lj: LennardJonesTerm,
        pot: Arc<OnceLock<&'static Pot>>,
        q: Arc<Vec<Vector3<f64>>>,
        armed: Arc<AtomicBool>,
        inner: Arc<OnceLock<(f64, Vec<Vector3<f64>>)>>,
    }
    impl models::RadialTerm for Reentrant {
        fn value<T: RealField + Copy>(&self, r2: T) -> T {
            if self.armed.swap(false, Ordering::SeqCst) {
                let pot = self.pot.get().expect("set before arming");
                let mut g = vec![Vector3::zeros(); self.q.len()];
                let v = pot.gradient(&self.q, &mut g);
                self.inner.set((v, g)).expect("entered once");
            }
            self.lj.value(r2)
        }
        fn cutoff_squared(&self) -> Option<f64> {
            models::RadialTerm::cutoff_squared(&self.lj)
        }
    }
    let n = 3000;
    let q = Arc::new(jittered(n, 0.002, 13));
    let sigma = hexagonal_spacing(n) / 2f64.powf(1.0 / 6.0);
    let (cell, armed, inner) = (
        Arc::new(OnceLock::new()),
        Arc::new(AtomicBool::new(false)),
        Arc::new(OnceLock::new()),
    );
    let term = Reentrant {
        lj: LennardJonesTerm::new(0.01, sigma, Some(2.5 * sigma)),
        pot: cell.clone(),
        q: q.clone(),
        armed: armed.clone(),
        inner: inner.clone(),
    };
    let pot: &'static Pot = Box::leak(Box::new(
        Pot::new(n, term, 2.5 * sigma, 0.3 * sigma).unwrap(),
    ));
    cell.set(pot).unwrap_or_else(|_| unreachable!());
    let mut reference = vec![Vector3::zeros(); n];
    let v = pot.gradient(&q, &mut reference); // builds the shared list at q
    armed.store(true, Ordering::SeqCst);
    let (done, finished) = std::sync::mpsc::channel();
    let q2 = q.clone();
    std::thread::spawn(move || {
        let mut g = vec![Vector3::zeros(); n];
        let w = pot.gradient(&q2, &mut g);
        done.send((w, g)).unwrap();
    });
    let (w, g) = finished
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the re-entrant gradient deadlocked (no answer within 60 s)");
    let (wi, gi) = inner.get().expect("the term re-entered the potential");
    assert_eq!(w.to_bits(), v.to_bits());
    assert_eq!(wi.to_bits(), v.to_bits());
    assert!(g == reference && *gi == reference);
}

/// `f` run on a fresh rayon pool of `threads` threads.
#[cfg(feature = "rayon")]
fn on_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}
