//! The O(n) passes of a step over every body (state scan, increments, velocities), chunked for
//! the `rayon` feature, and the dense inertia of a Lagrangian.

use super::*;

pub(super) fn max_magnitude<T: VariationalScalar>(v: &[Vector3<T>]) -> f64 {
    v.iter()
        .flat_map(|x| x.iter())
        .fold(0.0_f64, |m, a| nan_max(m, a.magnitude()))
}

pub(super) fn all_finite<T: VariationalScalar>(v: &[Vector3<T>]) -> bool {
    // A branch-free fold without early exit (this runs several times per step over every
    // body; a flat_map/all chain cost several times more).
    v.iter().fold(true, |ok, x| {
        ok & x.x.is_finite() & x.y.is_finite() & x.z.is_finite()
    })
}

/// `Δ = a × q − |a|²/(1 + √(1 − |a|²)) q`, the increment of the closed-form root (3.17), or
/// `None` when `|a| ≥ 1`.
#[inline]
pub(super) fn closed_form_increment<T: VariationalScalar>(
    a: &Vector3<T>,
    q: &Vector3<T>,
) -> Option<Vector3<T>> {
    let a2 = a.norm_squared();
    // NaN fails too.
    if re(a2).partial_cmp(&1.0) != Some(core::cmp::Ordering::Less) {
        return None;
    }
    let root = (T::one() - a2).sqrt();
    Some(a.cross(q) - q * (a2 / (T::one() + root)))
}

/// Bodies per task of the parallel passes over the state (with the `rayon` feature, for states
/// of at least [`par::PAR_THRESHOLD`] bodies): fixed, so that the split does not depend on the
/// number of threads.
#[cfg_attr(not(feature = "rayon"), allow(dead_code))]
pub(super) const CHUNK: usize = par::PAR_MIN_LEN;

/// What one pass of [`scan_state`] found (flags: the same for any split of the bodies).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct StateFlags {
    pub(super) non_finite: bool,
    pub(super) off_manifold: bool,
    pub(super) differs: bool,
}

impl StateFlags {
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))]
    fn merge(self, o: Self) -> Self {
        Self {
            non_finite: self.non_finite | o.non_finite,
            off_manifold: self.off_manifold | o.off_manifold,
            differs: self.differs | o.differs,
        }
    }
}

/// The checks of a step's state on the bodies of a chunk: finiteness, `(1 − tol)² ≤ |qᵢ|² ≤
/// (1 + tol)²` and `(qᵢ·ωᵢ)² ≤ tol²·max(1, |ωᵢ|²)` (squares: no root per body; the deviations
/// are computed for the report only), and, when `compare`, whether `q` differs from `cache`.
/// A branch-free fold without early exit.
pub(super) fn scan_chunk<T: VariationalScalar>(
    q: &[Vector3<T>],
    om: &[Vector3<T>],
    cache: &[Vector3<T>],
    compare: bool,
) -> StateFlags {
    let (lo, hi) = (
        (1.0 - SPHERE_TOLERANCE).powi(2),
        (1.0 + SPHERE_TOLERANCE).powi(2),
    );
    let tol2 = TANGENCY_TOLERANCE * TANGENCY_TOLERANCE;
    let (mut finite, mut off) = (true, false);
    for (q, om) in q.iter().zip(om) {
        finite &= q.x.is_finite() & q.y.is_finite() & q.z.is_finite();
        finite &= om.x.is_finite() & om.y.is_finite() & om.z.is_finite();
        let qq = re(q.norm_squared());
        let dot = re(q.dot(om));
        off |= !(lo..=hi).contains(&qq) | (dot * dot > tol2 * re(om.norm_squared()).max(1.0));
    }
    let differs = compare && q.iter().zip(cache).any(|(a, b)| a != b);
    StateFlags {
        non_finite: !finite,
        off_manifold: off,
        differs,
    }
}

/// [`scan_chunk`] over all bodies (in parallel chunks for long states with `rayon`).
pub(super) fn scan_state<T: VariationalScalar>(
    q: &[Vector3<T>],
    om: &[Vector3<T>],
    cache: &[Vector3<T>],
    compare: bool,
) -> StateFlags {
    #[cfg(feature = "rayon")]
    if par::is_parallel(q.len()) {
        use rayon::prelude::*;
        return q
            .par_chunks(CHUNK)
            .zip(om.par_chunks(CHUNK))
            .zip(cache.par_chunks(CHUNK))
            .map(|((q, om), cache)| scan_chunk(q, om, cache, compare))
            .reduce(StateFlags::default, StateFlags::merge);
    }
    scan_chunk(q, om, cache, compare)
}

/// Three per-body vectors and the masses of a chunk of bodies (the inputs of a pass).
type Bodies<'a, T> = (
    &'a [Vector3<T>],
    &'a [Vector3<T>],
    &'a [Vector3<T>],
    &'a [f64],
);

/// What one pass of [`increments`] found: a non-finite gradient, and the smallest index of a
/// body with `|aᵢ| ≥ 1` (the same for any split of the bodies).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Increments {
    pub(super) grad_non_finite: bool,
    pub(super) first_bad: Option<usize>,
}

impl Increments {
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))]
    fn merge(self, o: Self) -> Self {
        Self {
            grad_non_finite: self.grad_non_finite | o.grad_non_finite,
            first_bad: match (self.first_bad, o.first_bad) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        }
    }
}

/// (3.17) on a chunk of bodies starting at body `offset`: `dᵢ = qᵢ × (h πᵢ − (h²/2) ∂V/∂qᵢ)`,
/// `πᵢ = Mᵢᵢ ωᵢ × qᵢ`, `aᵢ = dᵢ/(Mᵢᵢ|qᵢ|²)`, the increment `Δᵢ` of the closed-form root and
/// `qᵢ′ = qᵢ + Δᵢ`; a body with `|aᵢ| ≥ 1` is reported (its `Δᵢ`, `qᵢ′` are then left as they
/// were), and the gradient is checked finite.
#[allow(clippy::too_many_arguments)]
pub(super) fn increments_chunk<T: VariationalScalar>(
    offset: usize,
    (q0, w0, grad, masses): Bodies<'_, T>,
    h: T,
    half_h2: T,
    delta: &mut [Vector3<T>],
    q1: &mut [Vector3<T>],
) -> Increments {
    let mut finite = true;
    let mut first_bad = None;
    for (i, (((((delta, q1), q), om), g), &m)) in delta
        .iter_mut()
        .zip(q1.iter_mut())
        .zip(q0)
        .zip(w0)
        .zip(grad)
        .zip(masses)
        .enumerate()
    {
        finite &= g.x.is_finite() & g.y.is_finite() & g.z.is_finite();
        let m = c::<T>(m);
        let pi = om.cross(q) * m;
        let d = q.cross(&(pi * h - g * half_h2));
        let a = d / (m * q.norm_squared());
        match closed_form_increment(&a, q) {
            Some(x) => {
                *delta = x;
                *q1 = q + x;
            }
            None => {
                first_bad = first_bad.or(Some(offset + i));
            }
        }
    }
    Increments {
        grad_non_finite: !finite,
        first_bad,
    }
}

/// [`increments_chunk`] over all bodies (in parallel chunks for long states with `rayon`).
#[allow(clippy::too_many_arguments)]
pub(super) fn increments<T: VariationalScalar>(
    q0: &[Vector3<T>],
    w0: &[Vector3<T>],
    grad: &[Vector3<T>],
    masses: &[f64],
    h: T,
    half_h2: T,
    delta: &mut [Vector3<T>],
    q1: &mut [Vector3<T>],
) -> Increments {
    #[cfg(feature = "rayon")]
    if par::is_parallel(q0.len()) {
        use rayon::prelude::*;
        return q0
            .par_chunks(CHUNK)
            .zip(w0.par_chunks(CHUNK))
            .zip(grad.par_chunks(CHUNK))
            .zip(masses.par_chunks(CHUNK))
            .zip(delta.par_chunks_mut(CHUNK))
            .zip(q1.par_chunks_mut(CHUNK))
            .enumerate()
            .map(|(k, (((((q0, w0), grad), masses), delta), q1))| {
                increments_chunk(k * CHUNK, (q0, w0, grad, masses), h, half_h2, delta, q1)
            })
            .reduce(Increments::default, Increments::merge);
    }
    increments_chunk(0, (q0, w0, grad, masses), h, half_h2, delta, q1)
}

/// What one pass of [`velocities`] found (flags: the same for any split of the bodies).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Velocities {
    pub(super) grad_non_finite: bool,
    pub(super) state_non_finite: bool,
}

impl Velocities {
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))]
    fn merge(self, o: Self) -> Self {
        Self {
            grad_non_finite: self.grad_non_finite | o.grad_non_finite,
            state_non_finite: self.state_non_finite | o.state_non_finite,
        }
    }
}

/// The start `(qᵢ, ωᵢ, ∂V/∂qᵢ(q))` and the end `(qᵢ′, ∂V/∂qᵢ(q′))` of a step, per body, for
/// [`velocities`].
pub(super) type Ends<'a, T> = (
    &'a [Vector3<T>],
    &'a [Vector3<T>],
    &'a [Vector3<T>],
    &'a [Vector3<T>],
    &'a [Vector3<T>],
);

/// (3.18) as printed \[LLM09, Cor. 3, eq. (3.18)\], on a chunk of bodies:
/// `ωᵢ′ = ωᵢ − (h/2Mᵢᵢ) qᵢ × ∂V/∂qᵢ(q) − (h/2Mᵢᵢ) qᵢ′ × ∂V/∂qᵢ(q′)`; checks the gradient at
/// `q′` and the new state `(qᵢ′, ωᵢ′)` finite.
///
/// The update is written literally (one half kick from each end of the step added to `ωᵢ`).
/// The algebraically equal form `ωᵢ′ = qᵢ′ × (Mᵢᵢ Δᵢ/h − (h/2) ∂V/∂qᵢ(q′))/(Mᵢᵢ|qᵢ′|²)` (the
/// (3.12) route) rounds differently, and its rounding is biased: the angular momentum of the
/// three-body problem drifted linearly (2.3e-11 relative after 10⁶ steps of `h = 0.01`, against
/// 1.0e-13 with the literal form; `tests/variational_long.rs` of crate models).
pub(super) fn velocities_chunk<T: VariationalScalar>(
    (q0, w0, grad0, q1, grad1): Ends<'_, T>,
    masses: &[f64],
    half_h: T,
    w1: &mut [Vector3<T>],
) -> Velocities {
    let (mut grad_finite, mut state_finite) = (true, true);
    for ((((((w1, q0), w0), g0), q1), g1), &m) in w1
        .iter_mut()
        .zip(q0)
        .zip(w0)
        .zip(grad0)
        .zip(q1)
        .zip(grad1)
        .zip(masses)
    {
        grad_finite &= g1.x.is_finite() & g1.y.is_finite() & g1.z.is_finite();
        let k = half_h / c::<T>(m);
        *w1 = w0 - q0.cross(g0) * k - q1.cross(g1) * k;
        state_finite &= q1.x.is_finite() & q1.y.is_finite() & q1.z.is_finite();
        state_finite &= w1.x.is_finite() & w1.y.is_finite() & w1.z.is_finite();
    }
    Velocities {
        grad_non_finite: !grad_finite,
        state_non_finite: !state_finite,
    }
}

/// [`velocities_chunk`] over all bodies (in parallel chunks for long states with `rayon`).
pub(super) fn velocities<T: VariationalScalar>(
    (q0, w0, grad0, q1, grad1): Ends<'_, T>,
    masses: &[f64],
    half_h: T,
    w1: &mut [Vector3<T>],
) -> Velocities {
    #[cfg(feature = "rayon")]
    if par::is_parallel(q1.len()) {
        use rayon::prelude::*;
        return q0
            .par_chunks(CHUNK)
            .zip(w0.par_chunks(CHUNK))
            .zip(grad0.par_chunks(CHUNK))
            .zip(q1.par_chunks(CHUNK))
            .zip(grad1.par_chunks(CHUNK))
            .zip(masses.par_chunks(CHUNK))
            .zip(w1.par_chunks_mut(CHUNK))
            .map(|((((((q0, w0), grad0), q1), grad1), masses), w1)| {
                velocities_chunk((q0, w0, grad0, q1, grad1), masses, half_h, w1)
            })
            .reduce(Velocities::default, Velocities::merge);
    }
    velocities_chunk((q0, w0, grad0, q1, grad1), masses, half_h, w1)
}

/// `M` of a Lagrangian as a dense row-major `n × n` matrix, checked finite, symmetric (then
/// symmetrized exactly) and positive definite; the reason of a failure otherwise.
pub(super) fn dense_inertia<L: SphereLagrangian>(
    lagrangian: &L,
    n: usize,
) -> Result<Vec<f64>, String> {
    let mut m = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let v = lagrangian.inertia(i, j);
            if !v.is_finite() {
                return Err(format!("inertia M[{i}][{j}] = {v} is not finite"));
            }
            m[i * n + j] = v;
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (m[i * n + j], m[j * n + i]);
            if (a - b).abs() > 16.0 * f64::EPSILON * a.abs().max(b.abs()) {
                return Err(format!(
                    "inertia matrix not symmetric: M[{i}][{j}] = {a}, M[{j}][{i}] = {b}"
                ));
            }
            let s = 0.5 * (a + b);
            m[i * n + j] = s;
            m[j * n + i] = s;
        }
    }
    if cholesky_in_place(&mut m.clone(), n).is_err() {
        return Err("inertia matrix not positive definite".into());
    }
    Ok(m)
}
