//! [`NeighbourPotential`]: a radial pair potential whose gradient runs over the neighbour list.

use super::*;
/// A radial pair potential `V = Σ_{i<j} φ(|qᵢ − qⱼ|²)` with a cut-off, whose
/// [`gradient`](Potential::gradient) runs over a [`NeighbourList`] (`O(N)` per evaluation,
/// parallel with the `rayon` feature) instead of all `N(N − 1)/2` pairs.
///
/// The list is rebuilt automatically when a particle has moved by more than `skin/2`. It lives
/// in a `Mutex`-guarded slot (the [`Potential`] methods take `&self`), but the lock is held only
/// to take the list out at the start of a gradient and to put it back at the end, **never while
/// the forces are evaluated**: an evaluation that re-enters the same potential from a worker
/// thread — rayon's work stealing while a thread waits on a join, a term that evaluates the
/// potential, two threads sharing it — cannot deadlock. Such an evaluation (while the shared
/// list is out) builds a temporary list for its positions and drops it afterwards: correct (the
/// same pairs within the cut-off), but it costs a build, and its forces can differ from those of
/// the shared list in the last bits (the rows are ordered by distance at a build). Sequential
/// gradients always use the shared list, so their results do not depend on the number of threads. The value
/// ([`Potential::value`], generic over the scalar) and the Hessian–vector product still visit
/// all pairs (with the same cut-off): they are references, not meant for large `N`; the
/// gradient also returns `V`.
///
/// # Example
/// ```
/// use models::neighbours::{NeighbourPotential, fibonacci_sphere, hexagonal_spacing};
/// use models::sphere_systems::{LennardJonesPotential, LennardJonesTerm};
/// use models::Potential;
/// use nalgebra::Vector3;
/// let n = 500;
/// let q = fibonacci_sphere(n);
/// let sigma = hexagonal_spacing(n) / 2f64.powf(1.0 / 6.0);
/// let term = LennardJonesTerm::new(0.01, sigma, Some(2.5 * sigma));
/// let fast = NeighbourPotential::new(n, term, 2.5 * sigma, 0.3 * sigma)?;
/// let (mut g1, mut g2) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
/// let v1 = fast.gradient(&q, &mut g1);
/// let v2 = LennardJonesPotential::new(n, term).gradient(&q, &mut g2);
/// assert!((v1 - v2).abs() < 1e-12 * v2.abs().max(1.0));
/// assert!(g1.iter().zip(&g2).all(|(a, b)| (a - b).norm() < 1e-11 * (1.0 + b.norm())));
/// # Ok::<(), models::ModelError>(())
/// ```
#[derive(Debug)]
pub struct NeighbourPotential<R> {
    n: usize,
    term: R,
    cutoff: f64,
    skin: f64,
    /// The shared list. A gradient takes it out (the lock is held only to take it and to put it
    /// back, never while forces are evaluated) and puts it back when done, also on a panic.
    list: Mutex<Option<NeighbourList>>,
    /// Builds of the shared list and of temporary ones.
    rebuilds: AtomicUsize,
}

impl<R: Clone> Clone for NeighbourPotential<R> {
    fn clone(&self) -> Self {
        let list = self
            .list
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        Self {
            n: self.n,
            term: self.term.clone(),
            cutoff: self.cutoff,
            skin: self.skin,
            list: Mutex::new(list),
            rebuilds: AtomicUsize::new(self.rebuilds.load(Ordering::Relaxed)),
        }
    }
}

impl<R: RadialTerm> NeighbourPotential<R> {
    /// `n` particles interacting through `term` within the cut-off `r_c` (pairs at `r ≥ r_c`
    /// contribute nothing; if the term has its own cut-off, the smaller one applies), with a
    /// neighbour list of the given skin.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`] for `n = 0`, [`ModelError::DimensionMismatch`] for more than
    /// `u32::MAX` particles (the list stores 32-bit indices), [`ModelError::NonPositive`] or
    /// [`ModelError::NonFinite`] for a non-positive or non-finite cut-off or skin.
    pub fn new(n: usize, term: R, cutoff: f64, skin: f64) -> Result<Self, ModelError> {
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        if u32::try_from(n).is_err() {
            return Err(ModelError::DimensionMismatch {
                what: "particles of a neighbour list (at most u32::MAX)",
                expected: u32::MAX as usize,
                found: n,
            });
        }
        let list = NeighbourList::new(cutoff, skin)?;
        Ok(Self {
            n,
            term,
            cutoff,
            skin,
            list: Mutex::new(Some(list)),
            rebuilds: AtomicUsize::new(0),
        })
    }

    /// The pair term.
    #[must_use]
    pub fn term(&self) -> &R {
        &self.term
    }

    /// The cut-off actually applied: the smaller of the list's and the term's.
    #[must_use]
    pub fn cutoff(&self) -> f64 {
        let rc = self.cutoff;
        self.term
            .cutoff_squared()
            .map_or(rc, |c2| rc.min(c2.sqrt()))
    }

    /// How many times a neighbour list has been built (the shared one, and the temporary ones
    /// of concurrent or re-entrant gradients).
    #[must_use]
    pub fn rebuilds(&self) -> usize {
        self.rebuilds.load(Ordering::Relaxed)
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<NeighbourList>> {
        // The lock guards only `Option::take` and the assignment back: never poisoned in
        // practice, and a poisoned slot holds a whole list or none.
        self.list
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The shared list of a [`NeighbourPotential`], out of its slot for one gradient: put back when
/// dropped (also when the evaluation panics; the list then rebuilds itself if it is stale).
/// A temporary list (the shared one was out) is dropped instead.
struct Borrowed<'a> {
    slot: &'a Mutex<Option<NeighbourList>>,
    list: Option<NeighbourList>,
    shared: bool,
}

impl Drop for Borrowed<'_> {
    fn drop(&mut self) {
        if self.shared {
            let list = self.list.take();
            *self
                .slot
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = list;
        }
    }
}

/// The same term with the cut-off of the list (for the all-pairs reference paths).
struct WithCutoff<'a, R> {
    term: &'a R,
    rc2: f64,
}

impl<R: RadialTerm> RadialTerm for WithCutoff<'_, R> {
    #[inline]
    fn value<T: nalgebra::RealField + Copy>(&self, r2: T) -> T {
        self.term.value(r2)
    }
    fn cutoff_squared(&self) -> Option<f64> {
        Some(self.rc2)
    }
}

impl<R: RadialTerm + Sync> Potential for NeighbourPotential<R> {
    fn bodies(&self) -> usize {
        self.n
    }

    /// All pairs, with the cut-off (the reference for value and Hessian–vector products).
    fn visit_terms<V: TermVisitor>(&self, visitor: &mut V) {
        let rc = self.cutoff();
        visitor.radial_all_pairs(
            self.n,
            &WithCutoff {
                term: &self.term,
                rc2: rc * rc,
            },
        );
    }

    /// Over the neighbour list (rebuilt first if stale): `O(N)`.
    fn gradient(&self, q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) -> f64 {
        assert_eq!(q.len(), self.n, "potential: wrong number of spheres");
        assert_eq!(
            grad.len(),
            q.len(),
            "potential: gradient buffer of wrong size"
        );
        // The list is taken out of its slot, so that no lock is held while the forces are
        // evaluated (in parallel with `rayon`): a worker that re-enters this potential (work
        // stealing while waiting on a join, or a term that evaluates it) finds the slot empty
        // and uses a temporary list instead of waiting on a lock that its own thread holds.
        let taken = self.slot().take();
        let shared = taken.is_some();
        let list = taken.unwrap_or_else(|| {
            NeighbourList::new(self.cutoff, self.skin).expect("checked by NeighbourPotential::new")
        });
        let mut borrowed = Borrowed {
            slot: &self.list,
            list: Some(list),
            shared,
        };
        let list = borrowed.list.as_mut().expect("just set");
        let before = list.rebuilds();
        let v = list.radial_gradient(&self.term, q, grad);
        self.rebuilds
            .fetch_add(list.rebuilds() - before, Ordering::Relaxed);
        v
    }
}
