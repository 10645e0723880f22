//! Results of the conformance kit: the laws, the report of a passing run and the failure.

use crate::error::LieError;
use core::fmt;

/// A law checked by the kit. The doc of each variant gives the identity and the `scale` its
/// error is compared with (tolerance `ulps · ε · scale`, see [`Tolerances`](super::Tolerances));
/// notation as in the [module docs](super).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Law {
    /// `d(g·e, g)`, `d(e·g, g)`, `|log e|`; scale `m(g)²`.
    Identity,
    /// `d(g·g⁻¹, e)`, `d(g⁻¹·g, e)`, `d((g⁻¹)⁻¹, g)`; scale `m(g)²`.
    Inverse,
    /// `d((gh)k, g(hk))`; scale `m(g) m(h) m(k)`.
    Associativity,
    /// `d(exp(log g), g)` on every group sample; scale `m(g)² (1 + |log g|)`.
    ExpLog,
    /// `d(g', exp(ξ)·g)` with `g'` from [`LieGroup::exp_left_mul_assign`](crate::LieGroupInPlace::exp_left_mul_assign); scale
    /// `m(exp ξ) m(g) (1 + |ξ|)`.
    ExpLeftMul,
    /// `d(g', g·exp(ξ))` with `g'` from [`LieGroup::exp_right_mul_assign`](crate::LieGroupInPlace::exp_right_mul_assign); scale
    /// `m(g) m(exp ξ) (1 + |ξ|)`.
    ExpRightMul,
    /// `|log(exp ξ) − ξ|` for algebra samples with `|ξ| ≤` the log–exp radius; scale
    /// `m(exp ξ) (1 + |ξ|)`.
    LogExp,
    /// `|Ad_{gh} ξ − Ad_g Ad_h ξ|`; scale `m(g) m(h) |ξ|`.
    AdjointHomomorphism,
    /// `d(exp(Ad_g ξ), g exp(ξ) g⁻¹)`; scale `m(g)² m(exp ξ) (1 + m(g)|ξ|)`.
    AdjointConjugation,
    /// `|D − Ad_g ξ̂|` with `D` the five-point difference quotient of
    /// `s ↦ log(g exp(s ξ̂) g⁻¹)` at 0, `ξ̂ = ξ/|ξ|`; finite-difference tolerance, scale `m(g)²`.
    AdjointDifferenceQuotient,
    /// `|ad(x, y) − [x, y]|`; scale `C |x| |y|`.
    AdBracket,
    /// The bracket is the derivative of `Ad`: `|D − [x̂, y]|` with `D` the five-point difference
    /// quotient of `s ↦ Ad_{exp(s x̂)} y` at 0, `x̂ = x/|x|`; finite-difference tolerance,
    /// scale `(1 + C)⁵ |y|`. Unlike antisymmetry, bilinearity and Jacobi, this law ties the
    /// sign (and scale) of `bracket` to `exp` and `adjoint`.
    AdBracketDifferenceQuotient,
    /// `|[x, y] + [y, x]|`; scale `C |x| |y|`.
    BracketAntisymmetry,
    /// `|out − [x, y]|` with `out` from [`LieGroup::bracket_into`](crate::LieGroupInPlace::bracket_into)
    /// (scale `C |x| |y|`) and `|out − dexp_u⁻¹ v|` with `out` from
    /// [`LieGroup::dexpinv_into`](crate::LieGroupInPlace::dexpinv_into) on the dexp samples (scale
    /// `|v|`), and the same for
    /// [`LieGroup::dexpinv_series_into`](crate::LieGroupInPlace::dexpinv_series_into) against
    /// [`dexpinv_series`](crate::dexpinv_series) (orders 2 and 4); `out` starts as the zero
    /// element of the right size.
    InPlaceForms,
    /// `|[ax + by, z] − a[x, z] − b[y, z]|` and the same in the second slot (a = 0.75,
    /// b = −1.25); scale `C (|x| + |y|) |z|`.
    BracketBilinearity,
    /// `|[x, [y, z]] + [y, [z, x]] + [z, [x, y]]|`; scale `C² |x| |y| |z|`.
    Jacobi,
    /// `|⟨coadjoint(g, μ), Ad_g ξ⟩ − ⟨μ, ξ⟩|`; scale `m(g)² |μ| |ξ|`.
    CoadjointDuality,
    /// `|coadjoint(gh, μ) − coadjoint(g, coadjoint(h, μ))|` and `|coadjoint(e, μ) − μ|`;
    /// scale `m(g)² m(h)² |μ|`.
    CoadjointAction,
    /// `|⟨ad*_x μ, η⟩ − ⟨μ, [x, η]⟩|`; scale `C |x| |μ| |η|`.
    AdStarDuality,
    /// `|D − dexp_u v̂|` with `D` the five-point difference quotient of
    /// `s ↦ log(exp(u + s v̂) exp(u)⁻¹)` at 0; finite-difference tolerance, scale
    /// `m(exp u)² (1 + |u|)²` (plus the series bound when not `EXACT_DEXP`).
    DexpDifferenceQuotient,
    /// `|dexp_u dexp_u⁻¹ v − v|` and `|dexp_u⁻¹ dexp_u v − v|`; scale
    /// `(|v| + |w|) (1 + C|u|)²`, `w` the intermediate (plus the series bound).
    DexpInverse,
    /// `|dexp_u v − dexp_series(u, v, 20)|` and `|dexp_u⁻¹ v − dexpinv_series(u, v, 20)|` for
    /// `‖ad_u‖_F ≤ 1`, only when `EXACT_DEXP`; scale `|v| (1 + C|u|)`.
    DexpSeries,
    /// Dual numbers: `|ε-part of log(exp(u + εv) exp(u)⁻¹) − dexp_u v|`; scale
    /// `m(exp u)² (1 + |u|) |v|` (plus the series bound).
    DualDexp,
    /// Dual numbers: `|ε-part of log(g exp(εw)) − dexp⁻¹_{log g}(Ad_g w)|` on the group
    /// samples with `|log g| ≤` the dexp radius (the derivative of `log`); scale `m(g)² (1 + |log g|)² |w|` (plus the series
    /// bound).
    DualLog,
    /// Dual numbers: `|ε-part of log(g exp(εξ) g⁻¹) − Ad_g ξ|`; scale `m(g)² |ξ|`.
    DualAdjoint,
    /// Dual numbers: `|ε-part of Ad_{exp(εx)} y − [x, y]|`; scale `C |x| |y|`.
    DualAd,
    /// Dual numbers: `|ε-part of coadjoint(exp(εx), μ) + ad*_x μ|`; scale `C |x| |μ|`.
    DualCoadjoint,
    /// Cayley: `d(cay(0), e)` and `d(cay(−ξ), cay(ξ)⁻¹)`; scale `m(cay ξ)² (1 + |ξ|)`.
    CayleyInverse,
    /// Cayley: `|dcay_u dcay_u⁻¹ v − v|` and `|dcay_u⁻¹ dcay_u v − v|`; scale
    /// `(|v| + |w|) (1 + C|u| + |u|²)`.
    DcayInverse,
    /// Cayley: `|D − dcay_u v̂|`, `D` the five-point difference quotient of
    /// `s ↦ log(cay(u + s v̂) cay(u)⁻¹)`; finite-difference tolerance, scale
    /// `m(cay u)² (1 + |u|)²`.
    DcayDifferenceQuotient,
    /// Cayley, dual numbers: `|ε-part of log(cay(u + εv) cay(u)⁻¹) − dcay_u v|`; scale
    /// `m(cay u)² (1 + |u|) |v|`.
    DualDcay,
}

impl Law {
    /// A short name, e.g. `"associativity"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Law::Identity => "identity",
            Law::Inverse => "inverse",
            Law::Associativity => "associativity",
            Law::ExpLog => "exp∘log = id",
            Law::ExpLeftMul => "in-place exp(ξ)·g = exp(ξ)·g",
            Law::ExpRightMul => "in-place g·exp(ξ) = g·exp(ξ)",
            Law::LogExp => "log∘exp = id",
            Law::AdjointHomomorphism => "Ad homomorphism",
            Law::AdjointConjugation => "Ad = conjugation",
            Law::AdjointDifferenceQuotient => "Ad = d/ds conjugation (difference quotient)",
            Law::AdBracket => "ad = bracket",
            Law::AdBracketDifferenceQuotient => "bracket = d/ds Ad_exp(sx) (difference quotient)",
            Law::BracketAntisymmetry => "bracket antisymmetry",
            Law::InPlaceForms => "in-place bracket and dexp⁻¹ = their values",
            Law::BracketBilinearity => "bracket bilinearity",
            Law::Jacobi => "Jacobi identity",
            Law::CoadjointDuality => "coadjoint dual to Ad",
            Law::CoadjointAction => "coadjoint left action",
            Law::AdStarDuality => "ad* dual to ad",
            Law::DexpDifferenceQuotient => "dexp = d exp (difference quotient)",
            Law::DexpInverse => "dexp∘dexp⁻¹ = dexp⁻¹∘dexp = id",
            Law::DexpSeries => "closed-form dexp = series",
            Law::DualDexp => "dexp = d exp (dual)",
            Law::DualLog => "d log = dexp⁻¹∘Ad (dual)",
            Law::DualAdjoint => "Ad = d conjugation (dual)",
            Law::DualAd => "ad = d Ad (dual)",
            Law::DualCoadjoint => "ad* = −d coadjoint (dual)",
            Law::CayleyInverse => "cay(−ξ) = cay(ξ)⁻¹",
            Law::DcayInverse => "dcay∘dcay⁻¹ = dcay⁻¹∘dcay = id",
            Law::DcayDifferenceQuotient => "dcay = d cay (difference quotient)",
            Law::DualDcay => "dcay = d cay (dual)",
        }
    }
}

impl Law {
    /// Every law, from the most primitive to the most derived: the order in which failures
    /// are reported (see [`Law::rank`]).
    ///
    /// The bracket alone (antisymmetry, bilinearity, Jacobi, `ad = bracket`: algebra vectors
    /// compared directly); `log(exp ξ) = ξ` (also compared in the algebra); the group axioms
    /// and `exp(log g) = g` (measured with `d(a, b) = |log(a·b⁻¹)|`, so they come after the
    /// check of `log`); `Ad` (homomorphism, conjugation, derivative of conjugation);
    /// the bracket as the derivative of `Ad`; the coadjoint action and `ad*`; the in-place
    /// forms; `dexp`, then `dexp⁻¹` (derived from `dexp`, the bracket and the series); the
    /// Cayley map. A law that uses another's ingredients comes after it, so the first failure
    /// names the culprit: a flipped bracket sign fails
    /// [`AdBracketDifferenceQuotient`](Law::AdBracketDifferenceQuotient) before any dexp law.
    pub const PRIMITIVE_TO_DERIVED: [Law; 31] = [
        Law::BracketAntisymmetry,
        Law::BracketBilinearity,
        Law::Jacobi,
        Law::AdBracket,
        Law::LogExp,
        Law::Identity,
        Law::Inverse,
        Law::Associativity,
        Law::ExpLog,
        Law::AdjointHomomorphism,
        Law::AdjointConjugation,
        Law::AdjointDifferenceQuotient,
        Law::DualAdjoint,
        Law::AdBracketDifferenceQuotient,
        Law::DualAd,
        Law::CoadjointAction,
        Law::CoadjointDuality,
        Law::AdStarDuality,
        Law::DualCoadjoint,
        Law::ExpLeftMul,
        Law::ExpRightMul,
        Law::InPlaceForms,
        Law::DexpDifferenceQuotient,
        Law::DualDexp,
        Law::DexpSeries,
        Law::DexpInverse,
        Law::DualLog,
        Law::CayleyInverse,
        Law::DcayDifferenceQuotient,
        Law::DualDcay,
        Law::DcayInverse,
    ];

    /// The position of the law in [`Law::PRIMITIVE_TO_DERIVED`] (0 = most primitive).
    #[must_use]
    pub fn rank(self) -> usize {
        Self::PRIMITIVE_TO_DERIVED
            .iter()
            .position(|&l| l == self)
            .unwrap_or(usize::MAX)
    }
}

impl fmt::Display for Law {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The outcome of one law over all samples.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckSummary {
    /// The law.
    pub law: Law,
    /// How many comparisons were made.
    pub evaluations: usize,
    /// The largest error observed.
    pub worst_error: f64,
    /// The largest ratio `error / tolerance` observed (≤ 1 for a passing law).
    pub worst_ratio: f64,
}

/// The report of a passing run: every law checked, with its worst error.
#[derive(Clone, Debug, PartialEq)]
pub struct KitReport {
    /// The group's type name.
    pub group: String,
    /// The number of group samples and algebra samples used.
    pub samples: (usize, usize),
    /// One entry per law, in the order checked.
    pub checks: Vec<CheckSummary>,
    /// Violations recorded so far (one per law: the first failing sample), turned into a
    /// [`KitFailure::Violations`] by `finish`.
    failures: Vec<Violation>,
}

impl KitReport {
    pub(crate) fn new(group: &str, samples: (usize, usize)) -> Self {
        Self {
            group: group.to_owned(),
            samples,
            checks: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// `Ok(self)` if no law failed, else every failing law, most primitive first.
    pub(crate) fn finish(mut self) -> Result<KitReport, KitFailure> {
        if self.failures.is_empty() {
            return Ok(self);
        }
        let mut violations = core::mem::take(&mut self.failures);
        for v in &mut violations {
            v.evaluations = self.check(v.law).map_or(v.failed, |s| s.evaluations);
        }
        violations.sort_by_key(|v| v.law.rank());
        Err(KitFailure::Violations(violations))
    }

    /// The summary of `law`, if it was checked.
    #[must_use]
    pub fn check(&self, law: Law) -> Option<&CheckSummary> {
        self.checks.iter().find(|s| s.law == law)
    }

    /// The total number of comparisons.
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.checks.iter().map(|s| s.evaluations).sum()
    }

    /// The largest `error / tolerance` over all laws.
    #[must_use]
    pub fn worst_ratio(&self) -> f64 {
        self.checks.iter().fold(0.0, |m, s| m.max(s.worst_ratio))
    }

    /// Append the checks of another report (e.g. [`check_derivatives`](super::check_derivatives)
    /// after [`check_group`](super::check_group)).
    pub fn merge(&mut self, other: KitReport) {
        for s in other.checks {
            match self.checks.iter_mut().find(|t| t.law == s.law) {
                Some(t) => {
                    t.evaluations += s.evaluations;
                    t.worst_error = t.worst_error.max(s.worst_error);
                    t.worst_ratio = t.worst_ratio.max(s.worst_ratio);
                }
                None => self.checks.push(s),
            }
        }
        for v in other.failures {
            match self.failures.iter_mut().find(|t| t.law == v.law) {
                Some(t) => t.failed += v.failed,
                None => self.failures.push(v),
            }
        }
    }

    /// Record one comparison; a violation (`error ≤ tolerance` does not hold, also for NaN) is
    /// kept and the checks go on, so that every failing law is reported.
    pub(crate) fn record(
        &mut self,
        law: Law,
        error: f64,
        tolerance: f64,
        sample: impl FnOnce() -> String,
    ) {
        let failed = error.is_nan() || tolerance.is_nan() || error > tolerance;
        if failed {
            match self.failures.iter_mut().find(|t| t.law == law) {
                Some(t) => t.failed += 1,
                None => self.failures.push(Violation {
                    law,
                    sample: sample(),
                    observed: error,
                    tolerance,
                    failed: 1,
                    evaluations: 0,
                }),
            }
        }
        let ratio = if failed && error.is_nan() {
            f64::INFINITY
        } else if tolerance > 0.0 {
            error / tolerance
        } else if error > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        match self.checks.iter_mut().find(|t| t.law == law) {
            Some(t) => {
                t.evaluations += 1;
                t.worst_error = t.worst_error.max(error);
                t.worst_ratio = t.worst_ratio.max(ratio);
            }
            None => self.checks.push(CheckSummary {
                law,
                evaluations: 1,
                worst_error: error,
                worst_ratio: ratio,
            }),
        }
    }
}

impl fmt::Display for KitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} laws, {} comparisons on {} group and {} algebra samples",
            self.group,
            self.checks.len(),
            self.evaluations(),
            self.samples.0,
            self.samples.1
        )?;
        for s in &self.checks {
            writeln!(
                f,
                "  {:<48} n = {:>4}  worst error {:>9.2e}  ({:>5.1}% of tolerance)",
                s.law.name(),
                s.evaluations,
                s.worst_error,
                100.0 * s.worst_ratio
            )?;
        }
        Ok(())
    }
}

/// One violated law: the first sample it failed on, and how often it failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The law.
    pub law: Law,
    /// The first sample(s) it failed on (labels and `Debug` output).
    pub sample: String,
    /// The error observed on that sample.
    pub observed: f64,
    /// The tolerance it exceeded.
    pub tolerance: f64,
    /// How many comparisons of this law failed.
    pub failed: usize,
    /// How many comparisons of this law were made.
    pub evaluations: usize,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "law `{}` violated ({} of {} comparisons): error {:e} exceeds tolerance {:e} on {}",
            self.law, self.failed, self.evaluations, self.observed, self.tolerance, self.sample
        )
    }
}

/// Why the kit rejected a group (or a sample set).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum KitFailure {
    /// The sample set cannot be used: empty ([`LieError::EmptySampleSet`]) or with elements
    /// of different sizes ([`LieError::DimensionMismatch`]).
    InvalidSampleSet(LieError),
    /// Laws do not hold: every failing law (all laws are always run), ordered from the most
    /// primitive to the most derived ([`Law::PRIMITIVE_TO_DERIVED`]), never empty. The first
    /// entry is the likely culprit: a wrong bracket also breaks `dexp`, not the other way
    /// round.
    Violations(Vec<Violation>),
}

impl KitFailure {
    /// The most primitive violated law, if the failure is a violation.
    #[must_use]
    pub fn law(&self) -> Option<Law> {
        self.violations().first().map(|v| v.law)
    }

    /// Every violated law, most primitive first (empty for an invalid sample set).
    #[must_use]
    pub fn laws(&self) -> Vec<Law> {
        self.violations().iter().map(|v| v.law).collect()
    }

    /// The violations, most primitive first (empty for an invalid sample set).
    #[must_use]
    pub fn violations(&self) -> &[Violation] {
        match self {
            KitFailure::Violations(v) => v,
            KitFailure::InvalidSampleSet(_) => &[],
        }
    }
}

/// The first line names the most primitive violated law; each further failing law follows on
/// its own line.
impl fmt::Display for KitFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KitFailure::InvalidSampleSet(e) => write!(f, "invalid sample set: {e}"),
            KitFailure::Violations(v) => {
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                        f.write_str("  then: ")?;
                    }
                    write!(f, "{x}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for KitFailure {}

impl From<LieError> for KitFailure {
    fn from(e: LieError) -> Self {
        KitFailure::InvalidSampleSet(e)
    }
}
