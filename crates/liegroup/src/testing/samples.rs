//! Sample sets for the conformance kit.

use super::{from_coords, norm};
use crate::error::LieError;
use crate::group::{LieGroup, StaticLieGroup};
use crate::vector_space::VectorSpace;
use core::f64::consts::PI;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Tolerance multipliers of the kit, in units of `f64::EPSILON` (each multiplied by the
/// law's `scale`, see [`Law`](super::Law)).
///
/// On the shipped groups (SO(2), SE(2), ℝⁿ, products, powers) and on an SL(2, ℝ) implemented
/// by a user, with f64 and dual numbers, the worst error seen is 3% of the default round-off
/// tolerance (about 2 ε · scale) and 3% of the default finite-difference tolerance: the
/// defaults leave a margin of about 30 for implementations with larger constants. Mistakes
/// give errors far above them: a sign error is O(1); a wrong Taylor coefficient
/// (`1/5040 → 1/5000`) in a small-angle branch of SE(2) gives 1e-7 to 1e-11.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    /// Laws that hold up to round-off: tolerance `ulps · ε · scale`. Default 64.
    pub ulps: f64,
    /// Five-point difference quotients with step `10⁻³` (error `O(h⁴) + O(ε/h)`, about
    /// `10³ ε` at best): tolerance `fd_ulps · ε · scale`. Default `2¹⁵ = 32768`
    /// (≈ 7.3e-12 · scale).
    pub fd_ulps: f64,
}

impl Default for Tolerances {
    fn default() -> Self {
        Self {
            ulps: 64.0,
            fd_ulps: 32_768.0,
        }
    }
}

impl Tolerances {
    /// `ulps · ε · scale`.
    #[must_use]
    pub fn round_off(&self, scale: f64) -> f64 {
        self.ulps * f64::EPSILON * scale
    }
    /// `fd_ulps · ε · scale`.
    #[must_use]
    pub fn finite_difference(&self, scale: f64) -> f64 {
        self.fd_ulps * f64::EPSILON * scale
    }
}

/// The group and algebra elements the kit checks a group on, with their labels and the
/// [`Tolerances`].
///
/// Build one with [`SampleSet::standard`] / [`SampleSet::standard_static`] (the curated
/// default), [`SampleSet::builder`] (the default plus your own samples or settings) or
/// [`SampleSet::custom`] (only your samples). The standard set always contains:
///
/// - group elements: the identity; `exp(ξ)` along random directions at one norm per decade
///   `10⁻⁸, 10⁻⁷, …, 1` and at `10⁻¹⁰⁰`; `exp((π − δ) e)`
///   for δ ∈ {0, 10⁻⁹, 10⁻⁶, 10⁻³} along basis vectors `e_i` and a random unit direction (for
///   SO(2), SO(3) and the rotation coordinates of SE(2), SE(3) these are rotation angles at
///   and near π); `exp(−(π − 10⁻⁶) e_i)`; `exp((π + ½) e_i)` (past the cut of the principal
///   log); seeded random `exp(ξ)` with `|ξ|` uniform in `[0, max_norm]`;
/// - algebra elements: 0; a log-spaced sweep of norms `10^(−8 + k/4)`, `k = 0, …, 32` (four
///   norms per decade from `10⁻⁸` to 1, each along its own random direction, so that
///   a small-angle branch of `exp`, `log`, `dexp`, … with its threshold anywhere in that range
///   has samples just below it); `10⁻¹⁰⁰`, 1.5 and 2 along random directions; `0.8 e_i`;
///   seeded random elements with norm uniform in `[0, max_norm]`;
/// - at each norm `r` given to [`SampleSetBuilder::extra_norms`] (your own branch thresholds):
///   algebra samples and group samples `exp(ξ)` with `|ξ| ∈ {r(1 − 10⁻³), r, r(1 + 10⁻³)}`
///   along a random direction and along the first basis vector.
///
/// Switches: [`SampleSetBuilder::small_norms`] (the samples with `|ξ| < 10⁻³`) and
/// [`SampleSetBuilder::near_pi`] (the samples at, near and past π);
/// [`SampleSetBuilder::edge_cases`] sets both.
///
/// For large dimensions (`dim > 12`, e.g. runtime powers) the basis vectors are 12 evenly
/// spaced ones. Samples are made from `f64` coordinates with
/// [`VectorSpace::read_coords`], so the same set is available for any scalar (f64 or dual
/// numbers, with zero dual parts).
#[derive(Clone, Debug)]
pub struct SampleSet<G: LieGroup> {
    pub(crate) example: G,
    pub(crate) elements: Vec<(String, G)>,
    pub(crate) algebra: Vec<(String, G::Algebra)>,
    pub(crate) tolerances: Tolerances,
    pub(crate) log_exp_radius: f64,
    pub(crate) dexp_radius: f64,
}

impl<G: LieGroup> SampleSet<G> {
    /// The standard samples for the group of `example` (which fixes the size of runtime-sized
    /// groups such as `Vec<Se2>`; its value is otherwise irrelevant), with seed 0.
    #[must_use]
    pub fn standard(example: &G) -> Self {
        Self::builder(example)
            .build()
            .expect("the standard sample set is never empty and sized after its example")
    }

    /// A builder starting from the standard samples of `example`'s group.
    pub fn builder(example: &G) -> SampleSetBuilder<G> {
        SampleSetBuilder {
            example: example.identity_like(),
            seed: 0,
            random_elements: 8,
            random_algebra: 8,
            max_norm: 3.0,
            small_norms: true,
            near_pi: true,
            extra_norms: Vec::new(),
            elements: Vec::new(),
            algebra: Vec::new(),
            tolerances: Tolerances::default(),
            log_exp_radius: 1.0,
            dexp_radius: 2.5,
        }
    }

    /// A sample set made only of the given elements (no identity, no curated samples).
    ///
    /// # Errors
    /// [`LieError::EmptySampleSet`] if either list is empty; [`LieError::DimensionMismatch`]
    /// if the elements do not all have the algebra dimension of the first group element.
    pub fn custom(elements: Vec<G>, algebra: Vec<G::Algebra>) -> Result<Self, LieError> {
        let example = elements
            .first()
            .ok_or(LieError::EmptySampleSet)?
            .identity_like();
        if algebra.is_empty() {
            return Err(LieError::EmptySampleSet);
        }
        let set = Self {
            example,
            elements: elements
                .into_iter()
                .enumerate()
                .map(|(i, g)| (format!("custom element {i}"), g))
                .collect(),
            algebra: algebra
                .into_iter()
                .enumerate()
                .map(|(i, x)| (format!("custom algebra {i}"), x))
                .collect(),
            tolerances: Tolerances::default(),
            log_exp_radius: 1.0,
            dexp_radius: 2.5,
        };
        set.validate()?;
        Ok(set)
    }

    /// The group samples with their labels.
    #[must_use]
    pub fn elements(&self) -> &[(String, G)] {
        &self.elements
    }

    /// The algebra samples with their labels.
    #[must_use]
    pub fn algebra(&self) -> &[(String, G::Algebra)] {
        &self.algebra
    }

    /// The tolerance multipliers.
    #[must_use]
    pub fn tolerances(&self) -> Tolerances {
        self.tolerances
    }

    /// Replace the tolerance multipliers.
    #[must_use]
    pub fn with_tolerances(mut self, tolerances: Tolerances) -> Self {
        self.tolerances = tolerances;
        self
    }

    /// The identity of the samples' size.
    #[must_use]
    pub fn identity(&self) -> G {
        self.example.identity_like()
    }

    /// The algebra dimension.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.example.algebra_zero().dim()
    }

    /// Refuse empty sets and elements of the wrong size.
    pub(crate) fn validate(&self) -> Result<(), LieError> {
        if self.elements.is_empty() || self.algebra.is_empty() {
            return Err(LieError::EmptySampleSet);
        }
        let n = self.dim();
        for (_, g) in &self.elements {
            let found = g.algebra_zero().dim();
            if found != n {
                return Err(LieError::DimensionMismatch { expected: n, found });
            }
        }
        for (_, x) in &self.algebra {
            let found = x.dim();
            if found != n {
                return Err(LieError::DimensionMismatch { expected: n, found });
            }
        }
        Ok(())
    }

    /// Algebra samples with `|ξ| ≤ radius`.
    pub(crate) fn algebra_within(&self, radius: f64) -> Vec<&(String, G::Algebra)> {
        self.algebra
            .iter()
            .filter(|(_, x)| norm(x) <= radius)
            .collect()
    }
}

impl<G: StaticLieGroup> SampleSet<G> {
    /// The standard samples of a compile-time-sized group.
    #[must_use]
    pub fn standard_static() -> Self {
        Self::standard(&G::identity())
    }
}

/// Builds a [`SampleSet`]: the standard samples plus your own, with adjustable seed, counts,
/// radii and tolerances.
///
/// # Example
/// ```
/// use liegroup::testing::{SampleSet, Tolerances, check_group};
/// use liegroup::{LieGroup, Se2};
/// use nalgebra::Vector3;
/// let samples = SampleSet::builder(&Se2::identity())
///     .seed(42)
///     .random_elements(20)
///     .element("half turn", Se2::exp(&Vector3::new(std::f64::consts::PI, 1.0, 0.0)))
///     .algebra("pure translation", Vector3::new(0.0, 5.0, 0.0))
///     .tolerances(Tolerances { ulps: 32.0, ..Tolerances::default() })
///     .build()
///     .unwrap();
/// check_group(&samples).unwrap();
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct SampleSetBuilder<G: LieGroup> {
    example: G,
    seed: u64,
    random_elements: usize,
    random_algebra: usize,
    max_norm: f64,
    small_norms: bool,
    near_pi: bool,
    extra_norms: Vec<f64>,
    elements: Vec<(String, G)>,
    algebra: Vec<(String, G::Algebra)>,
    tolerances: Tolerances,
    log_exp_radius: f64,
    dexp_radius: f64,
}

impl<G: LieGroup> SampleSetBuilder<G> {
    /// The seed of the random samples (ChaCha8). Default 0.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// The number of random group elements `exp(ξ)`. Default 8.
    pub fn random_elements(mut self, n: usize) -> Self {
        self.random_elements = n;
        self
    }
    /// The number of random algebra elements. Default 8.
    pub fn random_algebra(mut self, n: usize) -> Self {
        self.random_algebra = n;
        self
    }
    /// The largest algebra norm of the random samples. Default 3 (below π, so that random
    /// rotations stay inside the injectivity radius of exp).
    pub fn max_norm(mut self, r: f64) -> Self {
        self.max_norm = r;
        self
    }
    /// Shorthand for [`small_norms(on)`](Self::small_norms) and
    /// [`near_pi(on)`](Self::near_pi): whether to include the curated edge cases (tiny norms,
    /// near-π, past-π). Default `true`. The identity, the zero algebra element and the sweep of
    /// norms from `10⁻³` to 1 are always included.
    pub fn edge_cases(mut self, on: bool) -> Self {
        self.small_norms = on;
        self.near_pi = on;
        self
    }
    /// Whether to include the samples of norm below `10⁻³`: `exp(ξ)` and `ξ` with
    /// `|ξ| ∈ {10⁻¹⁰⁰, 10⁻⁸, …}` (the part of the log-spaced sweep below `10⁻³`). Default `true`;
    /// turn off only for a group that is not meant to be evaluated near the identity at full
    /// relative accuracy.
    pub fn small_norms(mut self, on: bool) -> Self {
        self.small_norms = on;
        self
    }
    /// Whether to include the group samples at, near and past π (`exp((π − δ) e)`,
    /// `exp(−(π − 10⁻⁶) e_i)`, `exp((π + ½) e_i)`). Default `true`; turn off for a group whose
    /// `log` is only defined near the identity.
    pub fn near_pi(mut self, on: bool) -> Self {
        self.near_pi = on;
        self
    }
    /// Add samples around each norm in `norms` — put the thresholds of your own small-angle
    /// branches here. For each `r > 0` (others are ignored) the set gains algebra samples and
    /// group samples `exp(ξ)` with `|ξ| ∈ {r(1 − 10⁻³), r, r(1 + 10⁻³)}`, each along a random
    /// direction and along the first basis vector, so both branches are exercised next to
    /// the switch. Calls accumulate.
    ///
    /// # Example
    /// ```
    /// use liegroup::testing::{SampleSet, check_group};
    /// use liegroup::{So2, StaticLieGroup};
    /// // An implementation switching to a Taylor series below θ = 0.02 and 1e-5:
    /// let samples = SampleSet::builder(&So2::<f64>::identity())
    ///     .extra_norms(&[0.02, 1e-5])
    ///     .build()
    ///     .unwrap();
    /// assert!(samples.algebra().iter().any(|(l, _)| l.contains("threshold 2e-2")));
    /// check_group(&samples).unwrap();
    /// ```
    pub fn extra_norms(mut self, norms: &[f64]) -> Self {
        self.extra_norms
            .extend(norms.iter().copied().filter(|r| r.is_finite() && *r > 0.0));
        self
    }
    /// Add a group sample.
    pub fn element(mut self, label: impl Into<String>, g: G) -> Self {
        self.elements.push((label.into(), g));
        self
    }
    /// Add an algebra sample (also used as a dual vector μ).
    pub fn algebra(mut self, label: impl Into<String>, xi: G::Algebra) -> Self {
        self.algebra.push((label.into(), xi));
        self
    }
    /// The tolerance multipliers.
    pub fn tolerances(mut self, t: Tolerances) -> Self {
        self.tolerances = t;
        self
    }
    /// Algebra samples with `|ξ| ≤ r` are used for `log(exp ξ) = ξ`. Default 1.
    pub fn log_exp_radius(mut self, r: f64) -> Self {
        self.log_exp_radius = r;
        self
    }
    /// Algebra samples with `|u| ≤ r` are used as base points of the dexp and Cayley laws.
    /// Default 2.5 (inside the first singularity of `dexp⁻¹` of the rotation groups at 2π).
    pub fn dexp_radius(mut self, r: f64) -> Self {
        self.dexp_radius = r;
        self
    }

    /// Generate the samples.
    ///
    /// # Errors
    /// [`LieError::DimensionMismatch`] if an added element does not have the size of the
    /// example.
    pub fn build(self) -> Result<SampleSet<G>, LieError> {
        let zero = self.example.algebra_zero();
        let n = zero.dim();
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let direction = |rng: &mut ChaCha8Rng| -> Vec<f64> {
            loop {
                let v: Vec<f64> = (0..n).map(|_| rng.random_range(-1.0..1.0)).collect();
                let s = v.iter().map(|x| x * x).sum::<f64>().sqrt();
                if s > 1e-3 || n == 0 {
                    return v.into_iter().map(|x| x / s.max(1e-300)).collect();
                }
            }
        };
        let basis: Vec<usize> = if n <= 12 {
            (0..n).collect()
        } else {
            (0..12).map(|k| k * (n - 1) / 11).collect()
        };
        let scaled = |dir: &[f64], r: f64| -> G::Algebra {
            let v: Vec<f64> = dir.iter().map(|x| x * r).collect();
            from_coords(&zero, &v)
        };
        let unit = |i: usize| -> Vec<f64> {
            let mut v = vec![0.0; n];
            v[i] = 1.0;
            v
        };

        let mut elements: Vec<(String, G)> = vec![("identity".into(), self.example.clone())];
        let mut algebra: Vec<(String, G::Algebra)> = vec![("0".into(), zero.clone())];

        if self.small_norms && n > 0 {
            for r in [1e-100, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4] {
                let d = direction(&mut rng);
                elements.push((format!("exp(ξ), |ξ| = {r:e}"), G::exp(&scaled(&d, r))));
            }
        }
        if n > 0 {
            for r in [1e-3, 1e-2, 1e-1, 1.0] {
                let d = direction(&mut rng);
                elements.push((format!("exp(ξ), |ξ| = {r:e}"), G::exp(&scaled(&d, r))));
            }
        }
        if self.near_pi && n > 0 {
            for delta in [0.0, 1e-9, 1e-6, 1e-3] {
                for &i in &basis {
                    elements.push((
                        format!("exp((π − {delta:e}) e_{i})"),
                        G::exp(&scaled(&unit(i), PI - delta)),
                    ));
                }
                let d = direction(&mut rng);
                elements.push((
                    format!("exp((π − {delta:e}) u), random unit u"),
                    G::exp(&scaled(&d, PI - delta)),
                ));
            }
            for &i in &basis {
                elements.push((
                    format!("exp(−(π − 1e-6) e_{i})"),
                    G::exp(&scaled(&unit(i), -(PI - 1e-6))),
                ));
                elements.push((
                    format!("exp((π + 0.5) e_{i})"),
                    G::exp(&scaled(&unit(i), PI + 0.5)),
                ));
            }
        }
        if n > 0 {
            if self.small_norms {
                let d = direction(&mut rng);
                algebra.push(("|ξ| = 1e-100, random direction".into(), scaled(&d, 1e-100)));
            }
            for k in 0..=32 {
                let r = 10f64.powf(-8.0 + f64::from(k) / 4.0);
                if r < 1e-3 * (1.0 - 1e-9) && !self.small_norms {
                    continue;
                }
                let d = direction(&mut rng);
                algebra.push((
                    format!(
                        "|ξ| = 10^({:.2}) = {r:.3e}, random direction",
                        -8.0 + f64::from(k) / 4.0
                    ),
                    scaled(&d, r),
                ));
            }
            for r in [1.5, 2.0] {
                let d = direction(&mut rng);
                algebra.push((format!("|ξ| = {r:e}, random direction"), scaled(&d, r)));
            }
            for &i in &basis {
                algebra.push((format!("0.8 e_{i}"), scaled(&unit(i), 0.8)));
            }
            for &t in &self.extra_norms {
                for r in [t * (1.0 - 1e-3), t, t * (1.0 + 1e-3)] {
                    let d = direction(&mut rng);
                    for (what, dir) in [("random direction", d), ("e_0", unit(0))] {
                        let xi = scaled(&dir, r);
                        elements.push((
                            format!("exp(ξ), |ξ| = {r:.6e} (threshold {t:e}), {what}"),
                            G::exp(&xi),
                        ));
                        algebra.push((format!("|ξ| = {r:.6e} (threshold {t:e}), {what}"), xi));
                    }
                }
            }
        }
        if n > 0 {
            for k in 0..self.random_elements {
                let d = direction(&mut rng);
                let r = rng.random_range(0.0..=self.max_norm);
                elements.push((
                    format!("random element {k}: exp(ξ), |ξ| = {r:.3}"),
                    G::exp(&scaled(&d, r)),
                ));
            }
            for k in 0..self.random_algebra {
                let d = direction(&mut rng);
                let r = rng.random_range(0.0..=self.max_norm);
                algebra.push((format!("random algebra {k}, |ξ| = {r:.3}"), scaled(&d, r)));
            }
        }
        elements.extend(self.elements);
        algebra.extend(self.algebra);
        let set = SampleSet {
            example: self.example,
            elements,
            algebra,
            tolerances: self.tolerances,
            log_exp_radius: self.log_exp_radius,
            dexp_radius: self.dexp_radius,
        };
        set.validate()?;
        Ok(set)
    }
}
