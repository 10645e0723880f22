//! Large numbers of particles on the unit sphere: a cell-based Verlet neighbour list, a radial
//! pair potential evaluated through it in `O(N)` per gradient (in parallel with the `rayon`
//! feature), and point sets (Fibonacci lattice) for `N = 10³ … 10⁵` and beyond.
//!
//! # The neighbour list
//! Particles live on (or near) the unit sphere, inside the cube `[−1, 1]³`. The cube is cut into
//! `m³` cells of side `2/m ≥ r_list = r_c + skin` (`m` capped so that `m³ ≤ 8N`: larger cells
//! only add candidates, never lose pairs), particles are sorted by cell (counting sort), and each
//! particle's list holds every `j ≠ i` in the 27 surrounding cells with `|qᵢ − qⱼ| < r_list`.
//! The list stays valid — it contains every pair closer than `r_c` — as long as no particle has
//! moved more than `skin/2` since it was built (two particles approach by at most `skin`); the
//! gradient checks this (`O(N)`) and rebuilds when needed [Verlet 1967; Allen & Tildesley,
//! *Computer Simulation of Liquids*, §5.3]. Each particle stores its **full** list (`j` in the
//! list of `i` and `i` in that of `j`), so that the force on `i` is a sum over its own list:
//! twice the pair evaluations of a half list, but no write conflicts, hence parallel without
//! locks, and the gradient is bitwise identical for any number of threads.
//!
//! All buffers (cell heads, sorted order, rows of neighbours) are allocated at the first build
//! and reused; a rebuild allocates only when a row overflows its capacity (the capacity then
//! grows to the largest row seen plus a margin, and rarely again).

use crate::error::ModelError;
use crate::potential::{Potential, RadialTerm, TermVisitor, radial_gradient};
use nalgebra::Vector3;
use std::sync::Mutex;

/// `true` when the crate was built with the `rayon` feature (gradients through a
/// [`NeighbourPotential`] then run on rayon's current thread pool).
pub const PARALLEL: bool = cfg!(feature = "rayon");

/// `n` points on the unit sphere on a Fibonacci (golden-angle) spiral:
/// `zᵢ = 1 − (2i + 1)/n`, `φᵢ = i·π(3 − √5)`, `qᵢ = (√(1 − zᵢ²) cos φᵢ, √(1 − zᵢ²) sin φᵢ, zᵢ)`.
/// Nearly uniform for every `n` (not only the `10·4ᵏ + 2` of an icosphere); the mean
/// nearest-neighbour distance is close to that of a hexagonal packing, `√(8π/(√3 n))`.
///
/// # Example
/// ```
/// let q = models::neighbours::fibonacci_sphere(1000);
/// assert_eq!(q.len(), 1000);
/// assert!(q.iter().all(|p| (p.norm() - 1.0).abs() < 1e-15));
/// ```
#[must_use]
pub fn fibonacci_sphere(n: usize) -> Vec<Vector3<f64>> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let nf = n as f64;
    (0..n)
        .map(|i| {
            let z = 1.0 - (2.0 * i as f64 + 1.0) / nf;
            let r = (1.0 - z * z).max(0.0).sqrt();
            let (s, c) = (golden * i as f64).sin_cos();
            let p = Vector3::new(r * c, r * s, z);
            p / p.norm()
        })
        .collect()
}

/// The mean nearest-neighbour chord distance of a hexagonal packing of `n` points on the unit
/// sphere, `√(8π/(√3 n))` (the area per point is `(√3/2) d²`).
#[must_use]
pub fn hexagonal_spacing(n: usize) -> f64 {
    (8.0 * std::f64::consts::PI / (3f64.sqrt() * n as f64)).sqrt()
}

/// A cell-based Verlet neighbour list of particles in `[−1, 1]³` (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct NeighbourList {
    cutoff: f64,
    skin: f64,
    /// Cells per axis of the current grid.
    m: usize,
    /// Positions at the last build (`None` before the first).
    reference: Vec<Vector3<f64>>,
    built: bool,
    /// `cell_start[c] .. cell_start[c + 1]` indexes `sorted` for the particles of cell `c`.
    cell_start: Vec<u32>,
    cell_of: Vec<u32>,
    sorted: Vec<u32>,
    /// Row `i` is `rows[i·capacity .. i·capacity + count[i]]`.
    rows: Vec<u32>,
    count: Vec<u32>,
    capacity: usize,
    rebuilds: usize,
}

impl NeighbourList {
    /// An empty list for the interaction cut-off `r_c` and the skin (both `> 0`); it is built on
    /// the first [`update`](Self::update).
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] for a non-positive (or NaN) cut-off or skin.
    pub fn new(cutoff: f64, skin: f64) -> Result<Self, ModelError> {
        crate::error::positive("cutoff", 0, cutoff)?;
        crate::error::positive("skin", 0, skin)?;
        Ok(Self {
            cutoff,
            skin,
            m: 0,
            reference: Vec::new(),
            built: false,
            cell_start: Vec::new(),
            cell_of: Vec::new(),
            sorted: Vec::new(),
            rows: Vec::new(),
            count: Vec::new(),
            capacity: 0,
            rebuilds: 0,
        })
    }

    /// The interaction cut-off `r_c`.
    #[must_use]
    pub fn cutoff(&self) -> f64 {
        self.cutoff
    }

    /// The skin: the list holds pairs closer than `r_c + skin`.
    #[must_use]
    pub fn skin(&self) -> f64 {
        self.skin
    }

    /// How many times the list has been built.
    #[must_use]
    pub fn rebuilds(&self) -> usize {
        self.rebuilds
    }

    /// The neighbours `j` of particle `i` (within `r_c + skin` at the last build), in no
    /// particular order.
    ///
    /// # Panics
    /// If `i` is out of range of the last build.
    #[must_use]
    pub fn neighbours(&self, i: usize) -> &[u32] {
        let k = self.count[i] as usize;
        &self.rows[i * self.capacity..i * self.capacity + k]
    }

    /// Rebuild the list if it was never built, if the number of particles changed, or if some
    /// particle moved by more than `skin/2` since the last build; `true` when it was rebuilt.
    ///
    /// # Panics
    /// If there are more than `u32::MAX` particles.
    pub fn update(&mut self, q: &[Vector3<f64>]) -> bool {
        let stale = !self.built || self.reference.len() != q.len() || {
            let limit = 0.25 * self.skin * self.skin;
            self.reference
                .iter()
                .zip(q)
                .any(|(a, b)| (a - b).norm_squared() > limit)
        };
        if stale {
            self.build(q);
        }
        stale
    }

    fn cell_index(&self, p: &Vector3<f64>) -> [usize; 3] {
        let m = self.m;
        let mf = m as f64;
        let coord = |x: f64| {
            let c = ((x + 1.0) * 0.5 * mf).floor();
            // Points slightly off the sphere (or NaN) are clamped into the grid.
            if c >= 0.0 { (c as usize).min(m - 1) } else { 0 }
        };
        [coord(p.x), coord(p.y), coord(p.z)]
    }

    /// Build the list for the positions `q` (always).
    ///
    /// # Panics
    /// If there are more than `u32::MAX` particles.
    pub fn build(&mut self, q: &[Vector3<f64>]) {
        let n = q.len();
        assert!(
            u32::try_from(n).is_ok(),
            "NeighbourList: too many particles"
        );
        let r_list = self.cutoff + self.skin;
        // Cells of side ≥ r_list, at most 8n of them (so the grid costs O(n)).
        let by_size = ((2.0 / r_list).floor() as usize).max(1);
        let by_count = ((8.0 * n.max(1) as f64).cbrt().floor() as usize).max(1);
        self.m = by_size.min(by_count);
        let m = self.m;
        let cells = m * m * m;
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        self.cell_of.resize(n, 0);
        self.sorted.resize(n, 0);
        for (i, p) in q.iter().enumerate() {
            let [x, y, z] = self.cell_index(p);
            let c = (x * m + y) * m + z;
            self.cell_of[i] = c as u32;
            self.cell_start[c + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        // Counting sort, stable in particle order (`count` serves as the cursor per cell).
        self.count.clear();
        self.count.extend_from_slice(&self.cell_start[..cells]);
        for i in 0..n {
            let c = self.cell_of[i] as usize;
            self.sorted[self.count[c] as usize] = i as u32;
            self.count[c] += 1;
        }
        self.count.clear();
        self.count.resize(n, 0);
        if self.capacity == 0 {
            self.capacity = 32;
        }
        loop {
            self.rows.resize(n * self.capacity, 0);
            let needed = self.fill_rows(q, r_list * r_list);
            if needed <= self.capacity {
                break;
            }
            self.capacity = needed + needed / 4 + 4;
        }
        self.reference.clear();
        self.reference.extend_from_slice(q);
        self.built = true;
        self.rebuilds += 1;
    }

    /// Fill every row; returns the largest number of neighbours found (rows longer than the
    /// capacity are truncated and must be refilled with a larger capacity).
    fn fill_rows(&mut self, q: &[Vector3<f64>], r2_list: f64) -> usize {
        let cap = self.capacity;
        let grid = Grid {
            m: self.m,
            cell_start: &self.cell_start,
            cell_of: &self.cell_of,
            sorted: &self.sorted,
        };
        let row = |i: usize, out: &mut [u32], count: &mut u32| -> usize {
            let qi = q[i];
            let mut k = 0usize;
            grid.for_each_candidate(i, |j| {
                if j != i && (qi - q[j]).norm_squared() < r2_list {
                    if k < cap {
                        out[k] = j as u32;
                    }
                    k += 1;
                }
            });
            *count = k.min(cap) as u32;
            k
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            self.rows
                .par_chunks_mut(cap)
                .zip(self.count.par_iter_mut())
                .enumerate()
                .map(|(i, (out, count))| row(i, out, count))
                .max()
                .unwrap_or(0)
        }
        #[cfg(not(feature = "rayon"))]
        {
            self.rows
                .chunks_mut(cap)
                .zip(self.count.iter_mut())
                .enumerate()
                .map(|(i, (out, count))| row(i, out, count))
                .max()
                .unwrap_or(0)
        }
    }

    /// `(V, ∂V/∂qᵢ)` of `V = Σ_{i<j, |qᵢ−qⱼ|<r_c} φ(|qᵢ − qⱼ|²)` over the list (which must be up
    /// to date, see [`update`](Self::update)); `grad` is overwritten. Each particle sums over its
    /// own row (per-pair derivative by num-dual over `r²`, [`radial_gradient`]), so the loop over
    /// particles runs in parallel with the `rayon` feature.
    ///
    /// # Panics
    /// If `q` or `grad` do not have as many entries as the list was built for.
    pub fn radial_gradient<R: RadialTerm + Sync>(
        &self,
        term: &R,
        q: &[Vector3<f64>],
        grad: &mut [Vector3<f64>],
    ) -> f64 {
        let n = self.count.len();
        assert_eq!(q.len(), n, "NeighbourList: wrong number of particles");
        assert_eq!(
            grad.len(),
            n,
            "NeighbourList: gradient buffer of wrong size"
        );
        let rc2 = self.cutoff * self.cutoff;
        let rc2 = term.cutoff_squared().map_or(rc2, |c| c.min(rc2));
        let cap = self.capacity;
        let one = |i: usize, g: &mut Vector3<f64>| -> f64 {
            let qi = q[i];
            let mut gi = Vector3::zeros();
            let mut e = 0.0;
            let k = self.count[i] as usize;
            for &j in &self.rows[i * cap..i * cap + k] {
                let d = qi - q[j as usize];
                let r2 = d.norm_squared();
                if r2 < rc2 {
                    let (v, dv) = radial_gradient(term, r2);
                    e += v;
                    gi += d * (2.0 * dv);
                }
            }
            *g = gi;
            e
        };
        #[cfg(feature = "rayon")]
        let total: f64 = {
            use rayon::prelude::*;
            grad.par_iter_mut()
                .enumerate()
                .with_min_len(256)
                .map(|(i, g)| one(i, g))
                .sum()
        };
        #[cfg(not(feature = "rayon"))]
        let total: f64 = grad.iter_mut().enumerate().map(|(i, g)| one(i, g)).sum();
        // Every pair was counted from both ends.
        0.5 * total
    }
}

/// The sorted cell grid, borrowed for the neighbour search.
struct Grid<'a> {
    m: usize,
    cell_start: &'a [u32],
    cell_of: &'a [u32],
    sorted: &'a [u32],
}

impl Grid<'_> {
    fn for_each_candidate(&self, i: usize, mut f: impl FnMut(usize)) {
        let m = self.m;
        let c = self.cell_of[i] as usize;
        let (x, y, z) = (c / (m * m), (c / m) % m, c % m);
        let range = |v: usize| v.saturating_sub(1)..=(v + 1).min(m - 1);
        for cx in range(x) {
            for cy in range(y) {
                // Cells along z with the same (x, y) are contiguous: one range of `sorted`.
                let (z0, z1) = (z.saturating_sub(1), (z + 1).min(m - 1));
                let base = (cx * m + cy) * m;
                let (s, e) = (
                    self.cell_start[base + z0] as usize,
                    self.cell_start[base + z1 + 1] as usize,
                );
                for &j in &self.sorted[s..e] {
                    f(j as usize);
                }
            }
        }
    }
}

/// A radial pair potential `V = Σ_{i<j} φ(|qᵢ − qⱼ|²)` with a cut-off, whose
/// [`gradient`](Potential::gradient) runs over a [`NeighbourList`] (`O(N)` per evaluation,
/// parallel with the `rayon` feature) instead of all `N(N − 1)/2` pairs.
///
/// The list lives behind a `Mutex` (the [`Potential`] methods take `&self`); it is rebuilt
/// automatically when a particle has moved by more than `skin/2`. The value
/// ([`Potential::value`], generic over the scalar) and the Hessian–vector product still visit
/// all pairs (with the same cut-off): they are references, not meant for large `N`; the
/// gradient also returns `V`.
///
/// # Example
/// ```
/// use models::neighbours::{NeighbourPotential, fibonacci_sphere, hexagonal_spacing};
/// use models::models::{LennardJonesPotential, LennardJonesTerm};
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
    list: Mutex<NeighbourList>,
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
            list: Mutex::new(list),
        }
    }
}

impl<R: RadialTerm> NeighbourPotential<R> {
    /// `n` particles interacting through `term` within the cut-off `r_c` (pairs at `r ≥ r_c`
    /// contribute nothing; if the term has its own cut-off, the smaller one applies), with a
    /// neighbour list of the given skin.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`] for `n = 0`, [`ModelError::NonPositive`] for a non-positive
    /// cut-off or skin.
    pub fn new(n: usize, term: R, cutoff: f64, skin: f64) -> Result<Self, ModelError> {
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        Ok(Self {
            n,
            term,
            list: Mutex::new(NeighbourList::new(cutoff, skin)?),
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
        let rc = self.lock().cutoff();
        self.term
            .cutoff_squared()
            .map_or(rc, |c2| rc.min(c2.sqrt()))
    }

    /// How many times the neighbour list has been built.
    #[must_use]
    pub fn rebuilds(&self) -> usize {
        self.lock().rebuilds()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, NeighbourList> {
        // A panic while the list was being rebuilt leaves it marked stale at worst.
        self.list
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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
        let mut list = self.lock();
        list.update(q);
        list.radial_gradient(&self.term, q, grad)
    }
}

/// A Lagrangian system on (S²)ⁿ with a **diagonal** inertia `M = diag(mᵢ)` stored as `n`
/// masses (a [`SphereSystem`](crate::SphereSystem) stores `M` as a dense `n × n` matrix, which
/// is out of reach for `n = 10⁵`). The equations of motion are the decoupled case of
/// [`SphereSystem`](crate::SphereSystem)'s solve [LLM09, eqs. (2.9)–(2.11)]:
///
/// ```text
///   q̇ᵢ = ωᵢ × qᵢ,   ω̇ᵢ = −qᵢ × ∂V/∂qᵢ / mᵢ,
/// ```
///
/// so one evaluation is one potential gradient plus `O(n)` (with a [`NeighbourPotential`],
/// `O(n)` in all).
#[derive(Clone, Debug)]
pub struct DiagonalSystem<P> {
    masses: Vec<f64>,
    potential: P,
}

impl<P: Potential> DiagonalSystem<P> {
    /// Masses `mᵢ > 0`, one per body of the potential.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::DimensionMismatch`], [`ModelError::NonPositive`],
    /// [`ModelError::NonFinite`].
    pub fn new(masses: Vec<f64>, potential: P) -> Result<Self, ModelError> {
        if masses.is_empty() {
            return Err(ModelError::NoBodies);
        }
        crate::error::same_len("masses", potential.bodies(), masses.len())?;
        crate::error::all_positive("mass", &masses)?;
        Ok(Self { masses, potential })
    }

    /// The number of bodies.
    #[must_use]
    pub fn bodies(&self) -> usize {
        self.masses.len()
    }

    /// The masses `mᵢ`.
    #[must_use]
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }

    /// The potential.
    #[must_use]
    pub fn potential(&self) -> &P {
        &self.potential
    }

    /// `ω̇ᵢ = −qᵢ × ∂V/∂qᵢ / mᵢ` into `out`, using `grad` as the gradient buffer; returns `V(q)`.
    ///
    /// # Panics
    /// If a slice does not have one entry per body.
    pub fn angular_accelerations(
        &self,
        q: &[Vector3<f64>],
        grad: &mut [Vector3<f64>],
        out: &mut [Vector3<f64>],
    ) -> f64 {
        let v = self.potential.gradient(q, grad);
        for (((o, qi), gi), mi) in out.iter_mut().zip(q).zip(grad.iter()).zip(&self.masses) {
            *o = -qi.cross(gi) / *mi;
        }
        v
    }

    /// The total energy `Σ ½ mᵢ |ωᵢ × qᵢ|² + V(q)` (`V` through the gradient, which is the
    /// `O(n)` path of a [`NeighbourPotential`]; `grad` is scratch).
    ///
    /// # Panics
    /// If a slice does not have one entry per body.
    pub fn energy(
        &self,
        q: &[Vector3<f64>],
        omega: &[Vector3<f64>],
        grad: &mut [Vector3<f64>],
    ) -> f64 {
        let t: f64 = q
            .iter()
            .zip(omega)
            .zip(&self.masses)
            .map(|((qi, wi), mi)| 0.5 * mi * wi.cross(qi).norm_squared())
            .sum();
        t + self.potential.gradient(q, grad)
    }
}

/// The Lie group vector field `f(q, ω) = (ωᵢ, qᵢ × ω̇ᵢ)ᵢ ∈ se(3)ⁿ` of a [`DiagonalSystem`] for
/// SE(3)ⁿ acting on (TS²)ⁿ (as [`LieField`](crate::LieField) for a
/// [`SphereSystem`](crate::SphereSystem)), for `VecPowerAction<TangentSphereAction>`. Owns its
/// buffers (allocated once); `!Sync` (one field per thread).
#[derive(Debug)]
pub struct DiagonalLieField<'a, P> {
    system: &'a DiagonalSystem<P>,
    buffers: core::cell::RefCell<[Vec<Vector3<f64>>; 3]>,
}

impl<'a, P: Potential> DiagonalLieField<'a, P> {
    /// The field of `system`.
    #[must_use]
    pub fn new(system: &'a DiagonalSystem<P>) -> Self {
        let z = vec![Vector3::zeros(); system.bodies()];
        Self {
            system,
            buffers: core::cell::RefCell::new([z.clone(), z.clone(), z]),
        }
    }
}

impl<P: Potential>
    homogeneous::LieVectorField<
        f64,
        Vec<homogeneous::TangentSphere2<f64>>,
        Vec<nalgebra::Vector6<f64>>,
    > for DiagonalLieField<'_, P>
{
    fn eval(
        &self,
        _t: f64,
        p: &Vec<homogeneous::TangentSphere2<f64>>,
        out: &mut Vec<nalgebra::Vector6<f64>>,
    ) {
        let n = self.system.bodies();
        assert_eq!(p.len(), n, "DiagonalLieField: state of the wrong length");
        let mut b = self.buffers.borrow_mut();
        let [q, grad, acc] = &mut *b;
        for (qi, pi) in q.iter_mut().zip(p) {
            *qi = *pi.q();
        }
        self.system.angular_accelerations(q, grad, acc);
        out.resize(n, nalgebra::Vector6::zeros());
        for ((o, pi), ai) in out.iter_mut().zip(p).zip(acc.iter()) {
            let w = pi.omega();
            let v = pi.q().cross(ai);
            *o = nalgebra::Vector6::new(w.x, w.y, w.z, v.x, v.y, v.z);
        }
    }
}
