//! Large numbers of particles on the unit sphere: a cell-based Verlet neighbour list, a radial
//! pair potential evaluated through it in `O(N)` per gradient (in parallel with the `rayon`
//! feature), and point sets (Fibonacci lattice) for `N = 10³ … 10⁵` and beyond.
//!
//! # The neighbour list
//! Particles live on (or near) the unit sphere, inside the cube `[−1, 1]³`. The cube is cut into
//! `m³` cells of side `2/m ≥ r_list = r_c + skin` (`m` capped so that `m³ ≤ 8N`: larger cells
//! only add candidates, never lose pairs; points outside the cube are clamped into the border
//! cells, which loses no pair either), and each particle's list holds every `j ≠ i` in the 27
//! surrounding cells with `|qᵢ − qⱼ| < r_list`. The list stays valid — it contains every pair
//! closer than `r_c` — as long as no particle has moved more than `skin/2` since it was built
//! (two particles approach by at most `skin`); the gradient checks this (`O(N)`) and rebuilds
//! when needed [Verlet 1967; Allen & Tildesley, *Computer Simulation of Liquids*, §5.3]. Each
//! particle stores its **full** list (`j` in the list of `i` and `i` in that of `j`), so that
//! the force on `i` is a sum over its own list: twice the pair evaluations of a half list, but
//! no write conflicts, hence parallel without locks.
//!
//! # Cost per particle independent of N
//! - **Cell order.** At every build the particles are renumbered internally by cell (a
//!   counting sort, `O(N)`; [`NeighbourList::order`]); positions are gathered into that order at
//!   every evaluation and the gradient is scattered back to the caller's numbering. Neighbours
//!   are then close in memory whatever the caller's numbering (random, or scrambled by diffusion
//!   over a long run). Without it a random numbering made the gradient markedly slower than a
//!   spatially coherent one (`docs/performance.md`, "Design notes measured in benchmarks"); with
//!   it the numbering does not matter.
//! - **Rows sorted by distance** (at the build, counting sort into 16 shells of equal `r²`
//!   width): along a row, the cut-off test and the branch of a switched term (e.g. the
//!   switching zone of [`LennardJonesTerm`](crate::sphere_systems::LennardJonesTerm)) change outcome
//!   about once, instead of at random; mispredicted branches were the largest cost of the force
//!   loop (about a third of it). The candidates of a row are filtered without a branch.
//! - **Compact rows**: 32-bit indices in compressed rows (offsets per block of 256 particles),
//!   no padding. All buffers are allocated at the first build and reused; a rebuild allocates
//!   only if the lists grow beyond every previous size.
//!
//! # Threads
//! With the `rayon` feature the rows are built and the forces summed block by block (256
//! particles, one task each), and the `O(N)` loops (gather, staleness check, scatter, the cell
//! keys, the [`DiagonalSystem`] / [`DiagonalLieField`] loops) run in chunks of 4096. Blocks and
//! chunks do not depend on the number of threads, the force on a particle is summed over its own
//! row in a fixed order, and the energy is summed per block then over the blocks in order: the
//! results are **bitwise identical for any number of threads**.

use crate::error::ModelError;
use crate::potential::{Potential, RadialTerm, TermVisitor, radial_gradient};
use nalgebra::Vector3;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// Particles per block of rows. The rows are built and the forces summed block by block (one
/// rayon task per block), and the energy is summed per block and then over the blocks in order,
/// so that the blocks — and hence every result, bitwise — do not depend on the number of threads.
const BLOCK: usize = 256;

/// Elements per task of the `O(N)` loops (gathering positions, scattering gradients, the
/// diagonal-inertia fields): enough work each to amortize a task, so that small systems run in
/// one task.
#[cfg_attr(not(feature = "rayon"), allow(dead_code))]
const CHUNK: usize = 4096;

/// A row is sorted by distance in this many shells of equal `r²`-width (equal numbers of
/// neighbours on average on a surface: about one and a half each for a cut-off list).
const SHELLS: usize = 16;

/// The rows of one block of [`BLOCK`] particles (consecutive in the list's order), in
/// compressed form: the neighbours of the `r`-th particle of the block are
/// `neighbours[start[r] .. start[r + 1]]`.
#[derive(Clone, Debug, Default)]
struct Block {
    start: Vec<usize>,
    neighbours: Vec<u32>,
    /// Scratch for one row while it is sorted: `shell << 32 | j` for every candidate `j`.
    row: Vec<u64>,
}

/// A cell-based Verlet neighbour list of particles in `[−1, 1]³` (see the [module docs](self)).
///
/// Internally the particles are renumbered in **cell order** at every build (the counting sort
/// by cell, stable in the caller's numbering; [`order`](Self::order)), and the positions are
/// gathered into that order at every evaluation, so that the neighbours of consecutive
/// particles are close in memory whatever the caller's numbering (random, or scrambled by
/// diffusion in a long run); gradients are returned in the caller's numbering.
#[derive(Clone, Debug)]
pub struct NeighbourList {
    cutoff: f64,
    skin: f64,
    /// Cells per axis of the current grid.
    m: usize,
    built: bool,
    rebuilds: usize,
    /// `order[k]`: the caller's index of the particle at position `k` of the cell order.
    order: Vec<u32>,
    /// `rank[i]`: the position of particle `i` in the cell order (the inverse of `order`).
    rank: Vec<u32>,
    /// The positions at the last build, in cell order.
    reference: Vec<Vector3<f64>>,
    /// The current positions, in cell order (gathered at every evaluation).
    positions: Vec<Vector3<f64>>,
    /// The gradient in cell order (scattered back to the caller's order).
    gradient: Vec<Vector3<f64>>,
    /// Positions `cell_start[c] .. cell_start[c + 1]` of the cell order are the particles of
    /// cell `c = (z·m + x)·m + y`.
    cell_start: Vec<u32>,
    /// The cell of each particle: in the caller's order during the sort, then in cell order.
    cell_of: Vec<u32>,
    /// Scratch of the counting sort (one cursor per cell).
    cursor: Vec<u32>,
    blocks: Vec<Block>,
    /// Energy of each block at the last evaluation.
    block_energy: Vec<f64>,
}

impl NeighbourList {
    /// An empty list for the interaction cut-off `r_c` and the skin (both `> 0`); it is built on
    /// the first [`update`](Self::update).
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] for a non-positive cut-off or skin, [`ModelError::NonFinite`]
    /// for a NaN or infinite one.
    pub fn new(cutoff: f64, skin: f64) -> Result<Self, ModelError> {
        crate::error::positive("cutoff", 0, cutoff)?;
        crate::error::positive("skin", 0, skin)?;
        Ok(Self {
            cutoff,
            skin,
            m: 0,
            built: false,
            rebuilds: 0,
            order: Vec::new(),
            rank: Vec::new(),
            reference: Vec::new(),
            positions: Vec::new(),
            gradient: Vec::new(),
            cell_start: Vec::new(),
            cell_of: Vec::new(),
            cursor: Vec::new(),
            blocks: Vec::new(),
            block_energy: Vec::new(),
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

    /// The number of particles of the last build (0 before the first).
    #[must_use]
    pub fn len(&self) -> usize {
        if self.built { self.order.len() } else { 0 }
    }

    /// `true` before the first build (or after a build with no particles).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cell order of the last build: `order()[k]` is the (caller's) index of the particle
    /// at position `k`. A permutation of `0 .. len()`, sorted by cell (`(z·m + x)·m + y` on the
    /// `m³` grid) and, within a cell, by index.
    #[must_use]
    pub fn order(&self) -> &[u32] {
        if self.built { &self.order } else { &[] }
    }

    /// The neighbours `j` of particle `i` (caller's indices): every `j ≠ i` within
    /// `r_list = r_c + skin` of `i` at the last build, by increasing distance at that build up
    /// to `r_list²/16` in `r²` (the rows are sorted by shells of that width). Empty if `i` is
    /// not a particle of the last build.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let row: &[u32] = match self.rank.get(i) {
            Some(&k) if self.built => {
                let k = k as usize;
                let b = &self.blocks[k / BLOCK];
                let r = k % BLOCK;
                &b.neighbours[b.start[r]..b.start[r + 1]]
            }
            _ => &[],
        };
        row.iter().map(|&j| self.order[j as usize] as usize)
    }

    /// Rebuild the list if it was never built, if the number of particles changed, or if some
    /// particle moved by more than `skin/2` since the last build (or is not finite); `true`
    /// when it was rebuilt.
    ///
    /// # Panics
    /// If there are more than `u32::MAX` particles.
    pub fn update(&mut self, q: &[Vector3<f64>]) -> bool {
        let stale = self.gather(q);
        if stale {
            self.build(q);
        }
        stale
    }

    /// Gather `q` into cell order (`positions`); `true` if the list is stale for `q`.
    fn gather(&mut self, q: &[Vector3<f64>]) -> bool {
        if !self.built || self.order.len() != q.len() {
            return true;
        }
        let limit = 0.25 * self.skin * self.skin;
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            self.positions
                .par_chunks_mut(CHUNK)
                .zip(self.reference.par_chunks(CHUNK))
                .zip(self.order.par_chunks(CHUNK))
                .map(|((dst, reference), order)| gather_chunk(q, order, dst, reference, limit))
                .reduce(|| false, |a, b| a || b)
        }
        #[cfg(not(feature = "rayon"))]
        {
            gather_chunk(q, &self.order, &mut self.positions, &self.reference, limit)
        }
    }

    /// Build the list for the positions `q` (always): renumber the particles in cell order and
    /// fill the rows, each sorted by distance.
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
        // Counting sort by cell, stable in the caller's order.
        self.cell_of.resize(n, 0);
        for_each_indexed(&mut self.cell_of, |i, c| *c = cell_index(&q[i], m) as u32);
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for &c in &self.cell_of {
            self.cell_start[c as usize + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.cell_start[..cells]);
        self.order.resize(n, 0);
        self.rank.resize(n, 0);
        for i in 0..n {
            let c = self.cell_of[i] as usize;
            let k = self.cursor[c] as usize;
            self.order[k] = i as u32;
            self.rank[i] = k as u32;
            self.cursor[c] += 1;
        }
        // From here on, everything is in cell order.
        for c in 0..cells {
            let (s, e) = (self.cell_start[c] as usize, self.cell_start[c + 1] as usize);
            self.cell_of[s..e].fill(c as u32);
        }
        self.reference.resize(n, Vector3::zeros());
        let order = &self.order;
        for_each_indexed(&mut self.reference, |k, r| *r = q[order[k] as usize]);
        self.positions.clone_from(&self.reference);
        self.gradient.resize(n, Vector3::zeros());
        self.blocks.resize_with(n.div_ceil(BLOCK), Block::default);
        self.fill_rows(r_list * r_list);
        self.built = true;
        self.rebuilds += 1;
    }

    /// Fill the rows of every block from `reference` (in cell order).
    fn fill_rows(&mut self, r2_list: f64) {
        let grid = Grid {
            m: self.m,
            cell_start: &self.cell_start,
            cell_of: &self.cell_of,
        };
        let q = &self.reference[..];
        let to_shell = SHELLS as f64 / r2_list;
        let last_shell = (SHELLS - 1) as f64;
        let fill = |(b, block): (usize, &mut Block)| {
            let first = b * BLOCK;
            let last = (first + BLOCK).min(q.len());
            block.start.clear();
            block.neighbours.clear();
            block.start.push(0);
            let mut ranges = [(0, 0); 9];
            for k in first..last {
                let qk = q[k];
                let columns = grid.candidate_ranges(k, &mut ranges);
                let total = ranges[..columns].iter().map(|(s, e)| e - s).sum();
                if block.row.len() < total {
                    block.row.resize(total, 0);
                }
                // Every candidate is written, and kept (`len` advanced) if it is a neighbour:
                // no unpredictable branch.
                let mut len = 0;
                for &(s, e) in &ranges[..columns] {
                    for (j, p) in (s..e).zip(&q[s..e]) {
                        let r2 = (qk - p).norm_squared();
                        // (A float `min`, branch-free; NaN becomes shell 0 and is not kept.)
                        let shell = u64::from((r2 * to_shell).min(last_shell) as u32);
                        block.row[len] = (shell << 32) | j as u64;
                        len += usize::from((j != k) & (r2 < r2_list));
                    }
                }
                // Sorted by distance (counting sort by shell, stable): along a row, the
                // branches of the force loop (inside the cut-off, inside a switching zone of
                // the term) then change outcome about once.
                let mut count = [0u32; SHELLS + 1];
                for &key in &block.row[..len] {
                    count[(key >> 32) as usize + 1] += 1;
                }
                for s in 0..SHELLS {
                    count[s + 1] += count[s];
                }
                let offset = block.neighbours.len();
                block.neighbours.resize(offset + len, 0);
                let out = &mut block.neighbours[offset..];
                for &key in &block.row[..len] {
                    let shell = (key >> 32) as usize;
                    out[count[shell] as usize] = key as u32;
                    count[shell] += 1;
                }
                block.start.push(block.neighbours.len());
            }
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            self.blocks.par_iter_mut().enumerate().for_each(fill);
        }
        #[cfg(not(feature = "rayon"))]
        self.blocks.iter_mut().enumerate().for_each(fill);
    }

    /// `(V, ∂V/∂qᵢ)` of `V = Σ_{i<j, |qᵢ−qⱼ|<r_c} φ(|qᵢ − qⱼ|²)` over the list, which is first
    /// brought up to date ([`update`](Self::update)); `grad` is overwritten. Each particle sums
    /// over its own row (per-pair derivative by num-dual over `r²`, [`radial_gradient`]), so the
    /// blocks of rows run in parallel with the `rayon` feature; the result is bitwise the same
    /// for any number of threads.
    ///
    /// # Panics
    /// If `grad` does not have one entry per particle, or there are more than `u32::MAX`
    /// particles.
    pub fn radial_gradient<R: RadialTerm + Sync>(
        &mut self,
        term: &R,
        q: &[Vector3<f64>],
        grad: &mut [Vector3<f64>],
    ) -> f64 {
        assert_eq!(
            grad.len(),
            q.len(),
            "NeighbourList: gradient buffer of wrong size"
        );
        self.update(q);
        let rc2 = self.cutoff * self.cutoff;
        let rc2 = term.cutoff_squared().map_or(rc2, |c| c.min(rc2));
        let positions = &self.positions[..];
        let block_force = |(b, (out, block)): (usize, (&mut [Vector3<f64>], &Block))| -> f64 {
            let mut e = 0.0;
            for (r, g) in out.iter_mut().enumerate() {
                let qi = positions[b * BLOCK + r];
                let mut gi = Vector3::zeros();
                for &j in &block.neighbours[block.start[r]..block.start[r + 1]] {
                    let d = qi - positions[j as usize];
                    let r2 = d.norm_squared();
                    if r2 < rc2 {
                        let (v, dv) = radial_gradient(term, r2);
                        e += v;
                        gi += d * (2.0 * dv);
                    }
                }
                *g = gi;
            }
            e
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            self.gradient
                .par_chunks_mut(BLOCK)
                .zip(self.blocks.par_iter())
                .enumerate()
                .map(block_force)
                .collect_into_vec(&mut self.block_energy);
            let sorted = &self.gradient[..];
            grad.par_chunks_mut(CHUNK)
                .zip(self.rank.par_chunks(CHUNK))
                .for_each(|(g, rank)| scatter(sorted, g, rank));
        }
        #[cfg(not(feature = "rayon"))]
        {
            self.block_energy.clear();
            self.block_energy.extend(
                self.gradient
                    .chunks_mut(BLOCK)
                    .zip(self.blocks.iter())
                    .enumerate()
                    .map(block_force),
            );
            scatter(&self.gradient, grad, &self.rank);
        }
        // Every pair was counted from both ends; blocks summed in order (thread-independent).
        0.5 * self.block_energy.iter().sum::<f64>()
    }
}

/// The cell `(z·m + x)·m + y` of `p` on the `m³` grid of `[−1, 1]³` (`x, y, z ∈ 0 .. m` the
/// coordinates of the cell); points outside the cube (or NaN) are clamped into the grid.
///
/// `z` first: the cell order is then close to the numbering of a Fibonacci lattice (by `z`),
/// so that gathering its positions into cell order (and scattering the gradient back) runs
/// through memory almost in sequence, without cache misses.
fn cell_index(p: &Vector3<f64>, m: usize) -> usize {
    let coordinate = |x: f64| {
        let c = ((x + 1.0) * 0.5 * m as f64).floor();
        if c >= 0.0 { (c as usize).min(m - 1) } else { 0 }
    };
    (coordinate(p.z) * m + coordinate(p.x)) * m + coordinate(p.y)
}

/// `f(i, &mut out[i])` for every `i`: in parallel chunks of [`CHUNK`] with the `rayon` feature.
fn for_each_indexed<T: Send>(out: &mut [T], f: impl Fn(usize, &mut T) + Sync + Send) {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                for (r, o) in chunk.iter_mut().enumerate() {
                    f(c * CHUNK + r, o);
                }
            });
    }
    #[cfg(not(feature = "rayon"))]
    out.iter_mut().enumerate().for_each(|(i, o)| f(i, o));
}

/// `dst[r] = q[order[r]]`; `true` if one of them moved by more than `√limit` from `reference[r]`
/// (or is not finite).
fn gather_chunk(
    q: &[Vector3<f64>],
    order: &[u32],
    dst: &mut [Vector3<f64>],
    reference: &[Vector3<f64>],
    limit: f64,
) -> bool {
    let mut stale = false;
    for ((d, a), &i) in dst.iter_mut().zip(reference).zip(order) {
        *d = q[i as usize];
        let moved = (*d - a).norm_squared();
        stale |= moved > limit || moved.is_nan();
    }
    stale
}

/// `g[r] = sorted[rank[r]]`: back from cell order to the caller's order.
fn scatter(sorted: &[Vector3<f64>], g: &mut [Vector3<f64>], rank: &[u32]) {
    for (gi, &k) in g.iter_mut().zip(rank) {
        *gi = sorted[k as usize];
    }
}

/// The cell grid in cell order, borrowed for the neighbour search.
struct Grid<'a> {
    m: usize,
    cell_start: &'a [u32],
    cell_of: &'a [u32],
}

impl Grid<'_> {
    /// The ranges `s..e` of cell-order positions in the 27 cells around that of `k` (the cells
    /// along the innermost axis are contiguous in cell order): at most 9, written to `out`;
    /// returns how many.
    fn candidate_ranges(&self, k: usize, out: &mut [(usize, usize); 9]) -> usize {
        let m = self.m;
        let c = self.cell_of[k] as usize;
        // The three coordinates of the cell, outermost first (`z, x, y`, see `cell_index`).
        let (a, b, c) = (c / (m * m), (c / m) % m, c % m);
        let range = |v: usize| v.saturating_sub(1)..=(v + 1).min(m - 1);
        let (c0, c1) = (c.saturating_sub(1), (c + 1).min(m - 1));
        let mut columns = 0;
        for ca in range(a) {
            for cb in range(b) {
                // The cells `c0 ..= c1` along the innermost axis are contiguous in cell order.
                let base = (ca * m + cb) * m;
                out[columns] = (
                    self.cell_start[base + c0] as usize,
                    self.cell_start[base + c1 + 1] as usize,
                );
                columns += 1;
            }
        }
        columns
    }
}

mod diagonal;
mod potential;
pub use diagonal::{DiagonalLieField, DiagonalSystem};
pub use potential::NeighbourPotential;
